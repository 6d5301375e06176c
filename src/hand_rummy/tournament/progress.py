"""Progress of a long run on standard error: a bar on a terminal, plain lines in a log.

On a terminal, one line redrawn in place: the bar, matches done of all, the
rate and the time left. When the stream is not a terminal (a log file, a CI
job), a plain line every ``interval`` seconds, and a last one at the end if
any was written, so that a short run stays silent.

>>> import io
>>> log = io.StringIO()
>>> ticks = iter([0.0, 10.0, 20.0, 25.0])
>>> progress = Progress(40, log, interval=10, clock=lambda: next(ticks))
>>> progress.show(10, 40)
>>> progress.show(20, 40)
>>> progress.close()
>>> print(log.getvalue(), end="")
10/40 matches (25%), 1.0 matches/s, 10 s so far, about 30 s left
20/40 matches (50%), 1.0 matches/s, 20 s so far, about 20 s left
20/40 matches done in 25 s
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress", "duration"]


def duration(seconds: float) -> str:
    """A duration in words a person reads at a glance: ``42 s``, ``3 min 20 s``, ``2 h 5 min``.

    >>> duration(42.4), duration(200), duration(7500)
    ('42 s', '3 min 20 s', '2 h 5 min')
    """
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """Shows how far a run of ``total`` matches is; call :meth:`show` after each match."""

    def __init__(
        self,
        total: int,
        stream: TextIO,
        *,
        interval: float = 10.0,
        width: int = 24,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.stream = stream
        self.interval = interval
        self.width = width
        self.clock = clock
        self.terminal = _is_terminal(stream)
        self.start = clock()
        self.done = 0
        self._last = self.start
        self._lines = 0
        self._drawn = False

    def _figures(self, now: float) -> tuple[float, str]:
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        if rate > 0 and self.done < self.total:
            left = f", about {duration((self.total - self.done) / rate)} left"
        else:
            left = ""
        return rate, left

    def show(self, done: int, total: int | None = None) -> None:
        """``done`` matches of ``total`` (the total given at the start when left out)."""
        self.done = done
        if total is not None:
            self.total = total
        now = self.clock()
        if self.terminal:
            if now - self._last < 0.1 and done < self.total and self._drawn:
                return  # at most ten redraws a second
            self._last = now
            self._drawn = True
            rate, left = self._figures(now)
            filled = self.width * done // max(self.total, 1)
            bar = "#" * filled + "-" * (self.width - filled)
            self.stream.write(
                f"\r[{bar}] {done}/{self.total} matches, {rate:.1f}/s, "
                f"{duration(now - self.start)}{left}\x1b[K"
            )
            self.stream.flush()
        elif now - self._last >= self.interval:
            self._last = now
            self._lines += 1
            rate, left = self._figures(now)
            share = 100 * done // max(self.total, 1)
            self.stream.write(
                f"{done}/{self.total} matches ({share}%), {rate:.1f} matches/s, "
                f"{duration(now - self.start)} so far{left}\n"
            )
            self.stream.flush()

    def close(self) -> None:
        """Clear the terminal line, or end the log with a last line."""
        if self.terminal:
            if self._drawn:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
        elif self._lines:
            elapsed = self.clock() - self.start
            self.stream.write(f"{self.done}/{self.total} matches done in {duration(elapsed)}\n")
            self.stream.flush()
