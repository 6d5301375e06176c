"""``hand-rummy report``: a results file summed up again and drawn; and the progress line of a
long run, on a terminal and in a log.

The pictures need matplotlib (the extra ``plot``). Without it those tests are skipped,
unless ``HR_REQUIRE_EXTRAS`` is set (``.ci/run`` installs the extras and sets it): then
they fail.
"""

from __future__ import annotations

import importlib.util
import io
import json
import math
import os
import re
import struct
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from hand_rummy.cli import main
from hand_rummy.tournament.progress import Progress

SIMULATE = [
    *["simulate", "--rules", "classic", "--players", "4", "--matches", "4", "--rounds", "3"],
    *["--bots", "greedy,random", "--seed", "5", "--duplicate"],
]


def _need_matplotlib() -> None:
    if importlib.util.find_spec("matplotlib") is None:
        if os.environ.get("HR_REQUIRE_EXTRAS"):
            pytest.fail("HR_REQUIRE_EXTRAS is set but matplotlib is not installed")
        pytest.skip("matplotlib is not installed (pip install 'hand-rummy[plot]')")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A results file and the summary that simulate printed while writing it."""
    path = tmp_path_factory.mktemp("report") / "results.jsonl"
    out = io.StringIO()
    stdout, sys.stdout = sys.stdout, out
    try:
        assert main([*SIMULATE, "--out", str(path)]) == 0
    finally:
        sys.stdout = stdout
    return path, out.getvalue()


def _without_times(table: str) -> list[str]:
    return [line for line in table.splitlines() if not line.startswith("decisions ")]


def test_report_prints_the_summary_the_run_printed(
    results: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, printed = results
    assert main(["report", str(path)]) == 0
    again = capsys.readouterr().out
    # the thinking times are rounded in the file; everything else is the same
    strip = [line[: line.rfind(" ")] if line.startswith(("greedy ", "random ")) else line
             for line in _without_times(again)]  # fmt: skip
    want = [line[: line.rfind(" ")] if line.startswith(("greedy ", "random ")) else line
            for line in _without_times(printed)]  # fmt: skip
    assert strip == want
    assert "(2 duplicate deals x 2 seatings)" in again


def test_report_json(results: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = results
    assert main(["report", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] == 4 and summary["units"] == 2 and summary["finished"]
    assert set(summary["bots"]) == {"greedy", "random"}


def test_report_draws_a_png(
    results: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _need_matplotlib()
    path, _ = results
    png = tmp_path / "totals.png"
    assert main(["report", str(path), "--plot", str(png)]) == 0
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 600 and height >= 200


def test_report_draws_an_svg_with_its_words_as_text(
    results: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _need_matplotlib()
    path, _ = results
    svg = tmp_path / "totals.svg"
    assert main(["report", str(path), "--plot", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    for words in ("greedy", "random", "Win rate", "lower is better", "95% Wilson interval"):
        assert words in text


def test_the_picture_leaves_out_a_deal_with_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With duplicate deals the summary leaves out a deal with a failed match; the picture
    drew its other seatings' totals all the same."""
    _need_matplotlib()
    from hand_rummy.tournament import MatchRecord, plot  # noqa: PLC0415
    from hand_rummy.tournament.results_file import read_results  # noqa: PLC0415

    path = tmp_path / "r.jsonl"
    args = [
        *["simulate", "--rules", "classic", "--players", "2", "--matches", "12", "--duplicate"],
        *["--rounds", "1", "--custom-length", "--on-error", "continue", "--out", str(path)],
        *["--bots", "sample_bots:SeatZeroRaisingBot,greedy"],
    ]
    assert main(args) == 1
    results = read_results(path)
    failed = {f.deal for f in results.failures}
    kept = [m for m in results.matches if m.deal not in failed]
    assert failed and kept and len(kept) < len(results.matches)
    drawn: list[MatchRecord] = []
    totals_by_bot = plot.totals_by_bot

    def spy(matches: Sequence[MatchRecord], names: Sequence[str]) -> dict[str, list[int]]:
        drawn.extend(matches)
        return totals_by_bot(matches, names)

    monkeypatch.setattr(plot, "totals_by_bot", spy)
    assert main(["report", str(path), "--plot", str(tmp_path / "totals.svg")]) == 0
    assert drawn == kept


def test_a_bot_with_no_finished_match_has_no_win_rate(
    results: tuple[Path, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With no finished match, --json gave a win rate of 0.0 (n=0) and the picture drew
    each bot at 0% with a bar over [0, 100]."""
    _need_matplotlib()
    from matplotlib.axes import Axes  # noqa: PLC0415

    path = tmp_path / "none.jsonl"
    args = ["simulate", "--rules", "classic", "--players", "2", "--matches", "2"]
    assert main([*args, "--rounds", "3", "--bots", "sample_bots:NotABot,greedy", "--out",
                 str(path)]) == 1  # fmt: skip
    capsys.readouterr()
    assert main(["report", str(path), "--json"]) == 0
    bots = json.loads(capsys.readouterr().out)["bots"]
    for name in ("sample_bots:NotABot", "greedy"):
        assert bots[name]["win_rate"] == {"estimate": None, "low": None, "high": None, "n": 0}
    drawn: list[list[float]] = []
    errorbar = Axes.errorbar

    def spy(axes: Axes, x: list[float], *args: object, **kwargs: object) -> object:
        drawn.append(list(x))
        return errorbar(axes, x, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Axes, "errorbar", spy)
    assert main(["report", str(path), "--plot", str(tmp_path / "none.svg")]) == 0
    assert drawn == []
    assert main(["report", str(results[0]), "--plot", str(tmp_path / "some.svg")]) == 0
    (rates,) = drawn
    assert len(rates) == 2 and all(0 <= rate <= 100 for rate in rates)


def test_without_matplotlib_report_names_the_extra(
    results: tuple[Path, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, _ = results
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    assert main(["report", str(path), "--plot", str(tmp_path / "x.png")]) == 2
    captured = capsys.readouterr()
    assert "drawing needs matplotlib: pip install 'hand-rummy[plot]'" in captured.err
    assert "greedy" in captured.out  # the summary is still printed
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--plot", "x.pdf"], "--plot x.pdf: give a .png or an .svg file"),
        ([], "is not a hand-rummy results file"),
    ],
)
def test_report_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("", encoding="utf-8")
    assert main(["report", str(path), *args]) == 2
    assert message in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


# --- progress -----------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_terminal_shows_done_total_rate_and_time_left() -> None:
    clock, screen = _Clock(), _Terminal()
    progress = Progress(100, screen, width=10, clock=clock)
    clock.now += 10
    progress.show(25)
    assert screen.getvalue() == "\r[##--------] 25/100 matches, 2.5/s, 10 s, about 30 s left\x1b[K"
    clock.now += 0.05
    progress.show(26)  # too soon to draw again
    assert screen.getvalue().count("\r[") == 1
    clock.now += 30
    progress.show(100)
    assert screen.getvalue().endswith("] 100/100 matches, 2.5/s, 40 s\x1b[K")
    progress.close()
    assert screen.getvalue().endswith("\r\x1b[K")


def test_a_log_gets_a_plain_line_at_each_interval_and_a_last_one() -> None:
    clock, log = _Clock(), io.StringIO()
    progress = Progress(1000, log, interval=60, clock=clock)
    for done in range(1, 1001):
        clock.now = 100 + done / 4  # 4 matches a second: a line every 240 matches
        progress.show(done)
    progress.close()
    lines = log.getvalue().splitlines()
    assert lines == [
        "240/1000 matches (24%), 4.0 matches/s, 1 min 0 s so far, about 3 min 10 s left",
        "480/1000 matches (48%), 4.0 matches/s, 2 min 0 s so far, about 2 min 10 s left",
        "720/1000 matches (72%), 4.0 matches/s, 3 min 0 s so far, about 1 min 10 s left",
        "960/1000 matches (96%), 4.0 matches/s, 4 min 0 s so far, about 10 s left",
        "1000/1000 matches done in 4 min 10 s",
    ]
    assert "\r" not in log.getvalue() and "\x1b" not in log.getvalue()


def test_a_short_run_writes_nothing_to_a_log() -> None:
    log = io.StringIO()
    progress = Progress(3, log)
    for done in range(4):
        progress.show(done)
    progress.close()
    assert log.getvalue() == ""


_MISSING = object()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"bots": None}, "'bots' must be a non-empty list of bot names, not null"),
        ({"bots": [1, 2]}, "'bots' must be a non-empty list of bot names, not [1, 2]"),
        ({"bots": []}, "'bots' must be a non-empty list of bot names, not []"),
        ({"matches": "x"}, "'matches' must be a whole number of at least 1, not \"x\""),
        ({"variants": None}, "'variants' must be a list of variant names, not null"),
        ({"players": -5}, "'players' must be a whole number of at least 1, not -5"),
        ({"players": True}, "'players' must be a whole number of at least 1, not true"),
        ({"deals": -1}, "'deals' must be a whole number of at least 1, not -1"),
        ({"seatings": 0}, "'seatings' must be a whole number of at least 1, not 0"),
        ({"rounds": 0}, "'rounds' must be null or a whole number of at least 1, not 0"),
        ({"duplicate": "yes"}, "'duplicate' must be true or false"),
        ({"rules": "chess"}, "rules cannot be built: unknown rules 'chess'"),
        ({"seed": _MISSING}, "'seed' is missing"),
    ],
)
def test_report_refuses_a_damaged_tournament_line(
    results: tuple[Path, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: dict[str, object],
    message: str,
) -> None:
    """Each of these gave a traceback from deep in the summary, or (negative counts) a
    summary of nonsense, where the help promises exit 2 on a file it cannot read."""
    first, *rest = results[0].read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(first)
    header.update(change)
    header = {key: value for key, value in header.items() if value is not _MISSING}
    path = tmp_path / "damaged.jsonl"
    path.write_text(json.dumps(header) + "\n" + "".join(rest), encoding="utf-8")
    assert main(["report", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        f"hand-rummy report: error: {path}, line 1: the tournament line's {message}"
    )
    assert "Traceback" not in captured.err


def test_report_refuses_a_seat_taken_by_a_bot_the_tournament_line_does_not_list(
    results: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, *rest = results[0].read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(first)
    header["bots"] = ["greedy", "smart"]
    path = tmp_path / "damaged.jsonl"
    path.write_text(json.dumps(header) + "\n" + "".join(rest), encoding="utf-8")
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(
        rf"hand-rummy report: error: {re.escape(str(path))}, line \d+: bot 'random' is not one of "
        r"the tournament line's bots\n",
        err,
    )


def _changed(path: Path, kind: str, field: str, value: object) -> tuple[list[str], int]:
    """The lines of the results file at ``path`` with the first ``kind`` line's ``field``
    changed: its first element set to ``value``; and the index of that line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)
    doc = json.loads(lines[at])
    doc[field][0] = value
    lines[at] = json.dumps(doc)
    return lines, at


@pytest.mark.parametrize(
    ("where", "value", "shown"),
    [
        ("match totals", 10**400, "a number of 401 digits"),
        ("match totals", -(10**400), "a number of 401 digits"),
        ("round decisions", 10**400, "a number of 401 digits"),
        ("round scores", 10**15 + 1, "1000000000000001"),
    ],
    ids=["total", "negative total", "decisions", "score"],
)
def test_report_refuses_a_number_no_run_reaches(
    results: tuple[Path, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *,
    where: str,
    value: int,
    shown: str,
) -> None:
    # the summary turns totals and decision counts into floats: 10**400 raised OverflowError
    kind, field = where.split()
    lines, at = _changed(results[0], kind, field, value)
    path = tmp_path / "huge.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["report", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"hand-rummy report: error: {path}, line {at + 1}: the {kind} line's {field!r} holds "
        f"{shown}; no run reaches more than 10**15 either way\n"
    )
    # the bound itself is accepted
    lines, _ = _changed(results[0], kind, field, 10**15)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["report", str(path)]) == 0


@pytest.mark.parametrize(
    ("where", "value", "shown"),
    [
        ("round seconds", math.nan, "NaN"),
        ("round seconds", math.inf, "Infinity"),
        ("round seconds", -0.5, "-0.5"),
        ("match seconds", math.nan, "NaN"),
        ("match seconds", -math.inf, "-Infinity"),
    ],
    ids=["round NaN", "round infinity", "round negative", "match NaN", "match -infinity"],
)
def test_report_refuses_seconds_that_are_not_a_time(
    results: tuple[Path, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *,
    where: str,
    value: float,
    shown: str,
) -> None:
    # Python's JSON reader accepts NaN and Infinity: only the end line's seconds were checked,
    # and a round line's NaN went into the summary, which report --json printed as NaN
    kind, field = where.split()
    lines, at = _changed(results[0], kind, field, value)
    path = tmp_path / "nan.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["report", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"hand-rummy report: error: {path}, line {at + 1}: the {kind} line's 'seconds' must be "
        f"numbers from 0 to 10**15, not {shown}\n"
    )


def test_report_prints_a_lone_surrogate_as_an_escape(tmp_path: Path) -> None:
    """A results file may hold a lone surrogate written as a JSON escape (a bot's message
    about a file name that is not UTF-8). Printed to a strict UTF-8 standard output it ended
    report with a UnicodeEncodeError; now it is shown as its escape."""
    import subprocess  # noqa: PLC0415

    from hand_rummy.tournament import Tournament, run  # noqa: PLC0415
    from hand_rummy.tournament.results_file import ResultsWriter  # noqa: PLC0415

    tournament = Tournament(
        "classic",
        players=2,
        bots="sample_bots:RaisingBot,greedy",
        matches=1,
        rounds=3,
        on_error="continue",
    )
    path = tmp_path / "results.jsonl"
    with ResultsWriter(path, tournament.describe()) as writer:
        result = run(tournament, on_record=writer.write)
        writer.finish(stopped=result.stopped, seconds=result.seconds)
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "failure")
    doc = json.loads(lines[at])
    doc["message"] = "ValueError: cannot open \udcff.cfg"
    lines[at] = json.dumps(doc)  # the surrogate as the escape \udcff
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "hand_rummy", "report", str(path)],
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"raised: ValueError: cannot open \\udcff.cfg" in done.stdout
