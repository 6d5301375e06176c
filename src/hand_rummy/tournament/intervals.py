"""Confidence intervals for the summary: win rates, mean totals and differences of means.

* :func:`wilson`: the Wilson score interval of a proportion (it stays inside
  [0, 1] and behaves for rates near 0 or 1 and for few matches, where the
  normal approximation does not);
* :func:`mean_interval`: the Student *t* interval of a mean;
* :func:`t_quantile`: the quantile of Student's *t* distribution that it
  uses, computed here (the standard library has the normal distribution only).

>>> w = wilson(8, 10)
>>> round(w.low, 4), round(w.high, 4)
(0.4902, 0.9433)
>>> round(t_quantile(0.975, 5), 4)
2.5706
>>> m = mean_interval([1.0, 2.0, 3.0, 4.0])
>>> m.estimate, round(m.low, 4), round(m.high, 4)
(2.5, 0.4457, 4.5543)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import attrs

__all__ = ["Interval", "mean_interval", "t_quantile", "wilson"]

LEVEL = 0.95
"""The confidence level of every interval in the summary."""


@attrs.frozen
class Interval:
    """An estimate with its confidence interval, from ``n`` observations."""

    estimate: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def excludes(self, value: float) -> bool:
        """Whether ``value`` lies outside the interval (a "significant" difference from it)."""
        return value < self.low or value > self.high


def _z(level: float) -> float:
    return statistics.NormalDist().inv_cdf(0.5 + level / 2)


def wilson(successes: float, trials: int, level: float = LEVEL) -> Interval:
    """The Wilson score interval of the rate ``successes / trials``.

    ``successes`` may be fractional (a shared win counts a part). With no
    trials the interval is the whole of [0, 1].
    """
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0, 0)
    z = _z(level)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    # at the edges the bound is exactly 0 or 1 (not a rounding error away from it)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Interval(p, low, high, trials)


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):  # fmt: skip
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom."""
    if not 0 < p < 1 or df <= 0:
        raise ValueError(f"no t quantile for p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        low, high = high, high * 2
    for _ in range(200):  # bisection: the cdf is monotone, and 200 halvings are plenty
        mid = (low + high) / 2
        if _t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


def mean_interval(values: Sequence[float], level: float = LEVEL) -> Interval:
    """The mean of ``values`` with its Student t interval (unbounded for fewer than two)."""
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, -math.inf, math.inf, n)
    sd = statistics.stdev(values)
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)
