"""``hand-rummy report``: a results file summed up again, and drawn.

It reads a results file written by ``simulate --out`` (one of an interrupted
run too), prints the same summary as the run did (or ``--json``), and with
``--plot FILE.png`` or ``FILE.svg`` draws the match totals and win rates of
the bots (matplotlib, the optional extra ``plot``).
"""

from __future__ import annotations

import json

from hand_rummy.cli_errors import refuse

__all__ = ["command"]


def command(*, path: str, plot: str | None, as_json: bool) -> int:
    """The ``report`` command; returns the exit status (2 for a file it cannot read)."""
    from hand_rummy.tournament.plot import FORMATS, PlotError, plot_summary  # noqa: PLC0415
    from hand_rummy.tournament.results_file import ResultsError, read_results  # noqa: PLC0415
    from hand_rummy.tournament.summary import summarise  # noqa: PLC0415

    if plot is not None and not plot.lower().endswith(FORMATS):
        return refuse("report", f"--plot {plot}: give a .png or an .svg file")
    try:
        results = read_results(path)
    except ResultsError as err:
        return refuse("report", str(err))
    summary = summarise(
        results.settings,
        results.matches,
        results.failures,
        seconds=results.seconds,
        stopped=results.stopped,
        finished=results.finished,
    )
    if as_json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        print(summary.table())
    if plot is not None:
        try:
            plot_summary(summary, results.matches, plot)
        except PlotError as err:
            return refuse("report", str(err))
        except OSError as err:
            return refuse("report", f"--plot {plot}: {err.strerror}")
    return 0
