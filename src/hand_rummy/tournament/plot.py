"""Pictures of a tournament: the match totals of each bot, and the win rates with their
intervals, drawn with matplotlib (the optional extra ``plot``:
``pip install 'hand-rummy[plot]'``).

:func:`plot_summary` writes a PNG or an SVG, as the file name says.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hand_rummy.errors import HandRummyError
from hand_rummy.tournament.records import MatchRecord
from hand_rummy.tournament.summary import Summary, counted_matches

__all__ = ["FORMATS", "PlotError", "plot_summary", "totals_by_bot"]

FORMATS = (".png", ".svg")
"""The picture formats, by file name ending."""


class PlotError(HandRummyError):
    """A picture that cannot be drawn: matplotlib missing, or a format it is not written in."""


def totals_by_bot(matches: Sequence[MatchRecord], names: Sequence[str]) -> dict[str, list[int]]:
    """Each bot's match totals, one a seat it took."""
    totals: dict[str, list[int]] = {name: [] for name in names}
    for record in matches:
        for seat, name in enumerate(record.seats):
            totals.setdefault(name, []).append(record.totals[seat])
    return totals


def plot_summary(summary: Summary, matches: Sequence[MatchRecord], path: str | Path) -> Path:
    """Draw the distribution of match totals per bot and the win rate per bot with its 95%
    Wilson interval, side by side, into ``path`` (``.png`` or ``.svg``). The totals are
    those of the matches the summary counts
    (:func:`~hand_rummy.tournament.summary.counted_matches`)."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise PlotError(f"{path}: a picture is a .png or an .svg file")
    try:
        import matplotlib  # noqa: PLC0415 (an optional extra)
    except ImportError:
        raise PlotError("drawing needs matplotlib: pip install 'hand-rummy[plot]'") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot  # noqa: PLC0415

    names = [b.name for b in summary.bots]
    totals = totals_by_bot(counted_matches(summary.settings, matches, summary.failures), names)
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # an SVG keeps its words as text
        _draw(pyplot, summary, names, totals, path)
    return path


def _draw(
    pyplot: Any, summary: Summary, names: list[str], totals: dict[str, list[int]], path: Path
) -> None:
    figure, (left, right) = pyplot.subplots(
        1, 2, figsize=(10, 0.6 * len(names) + 2.6), layout="constrained"
    )
    try:
        left.boxplot(
            [totals[n] for n in names], orientation="horizontal", tick_labels=names, showmeans=True
        )
        places = list(range(1, len(names) + 1))  # where boxplot puts its boxes
        for axes in (left, right):
            axes.set_ylim(len(names) + 0.5, 0.5)  # the first bot on top, in both panels
        left.set_xlabel("match total (penalty points, lower is better)")
        left.set_title("Match totals, seat by seat (box: quartiles and median, ▲ mean)")
        # a bot that finished no match has no rate: no point and no bar, not 0% in [0, 100]
        measured = [(at, b.win_rate) for at, b in zip(places, summary.bots) if b.win_rate.n]
        if measured:
            rates = [100 * w.estimate for _, w in measured]
            below = [100 * (w.estimate - w.low) for _, w in measured]
            above = [100 * (w.high - w.estimate) for _, w in measured]
            at = [place for place, _ in measured]
            right.errorbar(rates, at, xerr=[below, above], fmt="o", capsize=4)
        right.set_yticks(places, names)
        right.set_xlim(0, 100)
        right.set_xlabel("matches won, % (95% Wilson interval)")
        right.set_title("Win rate")
        figure.suptitle(summary.title(), fontsize="small")
        figure.savefig(path)
    finally:
        pyplot.close(figure)
