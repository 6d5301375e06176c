"""Results files (JSON Lines): written as the run goes, in match order, and read back to the
same records and the same summary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import hand_rummy as hr
from hand_rummy.cli import main
from hand_rummy.tournament import Entrant, Tournament, run
from hand_rummy.tournament.results_file import ResultsError, ResultsWriter, read_results
from hand_rummy.tournament.summary import summarise

ARGS = [
    *["simulate", "--rules", "classic", "--players", "3", "--matches", "4", "--rounds", "3"],
    *["--bots", "greedy,random,random", "--seed", "7"],
]


HEADER = {
    "type": "tournament",
    "format": "hand-rummy/results",
    "version": 1,
    **Tournament("classic", players=2, bots=["greedy"], matches=1).describe(),
}
"""A whole tournament line, for files that go wrong further down."""


_MISSING = object()


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _written(directory: Path, t: Tournament | None = None) -> Path:
    """The results file of a short finished run (of ``t``: by default, 4 Hand Classic
    matches)."""
    if t is None:
        t = Tournament("classic", players=2, bots="greedy,random", matches=4, seed=1, rounds=3)
    path = directory / "r.jsonl"
    with ResultsWriter(path, t.describe()) as writer:
        result = run(t, on_record=writer.write)
        writer.finish(stopped=result.stopped, seconds=result.seconds)
    return path


def test_simulate_writes_every_round_and_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.jsonl"
    assert main([*ARGS, "--out", str(out)]) == 0
    lines = _lines(out)
    header, end = lines[0], lines[-1]
    assert header["type"] == "tournament" and header["format"] == "hand-rummy/results"
    assert header["version"] == 1 and header["rules"] == "classic"
    assert header["bots"] == ["greedy", "random", "random"] and header["follows_rules"] is True
    assert end == {**end, "type": "end", "matches": 4, "failures": 0, "stopped": False}
    matches = [line for line in lines if line["type"] == "match"]
    rounds = [line for line in lines if line["type"] == "round"]
    assert [m["match"] for m in matches] == [0, 1, 2, 3]
    assert len(rounds) == 12 and {r["round"] for r in rounds} == {1, 2, 3}
    first = rounds[0]
    for key in ("seed", "dealer", "ending", "scores", "went_out", "decisions", "seconds"):
        assert key in first
    assert len(first["decisions"]) == 3 and all(d > 0 for d in first["decisions"])  # type: ignore[attr-defined]
    match = matches[0]
    for key in ("deal", "rotation", "seed", "seats", "totals", "winners", "decisions", "seconds"):
        assert key in match
    # the totals are the sums of the round scores
    scores = [r["scores"] for r in rounds if r["match"] == 0 and r["scored"]]
    assert match["totals"] == [sum(s[i] for s in scores) for i in range(3)]  # type: ignore[index]


def test_the_file_reads_back_to_the_same_records_and_summary(tmp_path: Path) -> None:
    t = Tournament("saudi", players=2, bots="greedy,random", matches=4, seed=2, duplicate=True,
                   rounds=3)  # fmt: skip
    out = tmp_path / "r.jsonl"
    with ResultsWriter(out, t.describe()) as writer:
        result = run(t, on_record=writer.write)
        writer.finish(stopped=result.stopped, seconds=result.seconds)
    back = read_results(out)
    assert back.finished and not back.stopped
    assert back.matches == result.matches  # times aside (they are rounded in the file)
    assert back.settings == {**t.describe(), **back.settings}
    again = summarise(back.settings, back.matches, back.failures, seconds=back.seconds)
    # the same table, but for the bots' ms per decision: the file keeps times rounded, so
    # the last digit of that column can differ
    assert _timeless(again.table()) == _timeless(result.summary().table())


def _timeless(table: str) -> list[str]:
    """The first lines of a summary table, each bot's last column (ms/dec) left out."""
    lines = table.splitlines()[:8]
    return [line.rsplit(maxsplit=1)[0] if line.startswith(("greedy", "random")) else line
            for line in lines]  # fmt: skip


def test_workers_write_the_same_file_but_for_the_times(tmp_path: Path) -> None:
    files = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.jsonl"
        assert main([*ARGS, "--json", "--jobs", jobs, "--out", str(out)]) == 0
        lines = _lines(out)
        for line in lines:
            line.pop("seconds", None)
        files.append(lines)
    assert files[0] == files[1]


def test_a_failure_is_written_with_its_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    args = [*ARGS[:-4], "--bots", "greedy,sample_bots:RaisingBot", "--on-error", "continue"]
    assert main([*args, "--custom-length", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"the position (a round document) is in {out}" in err
    failures = [line for line in _lines(out) if line["type"] == "failure"]
    assert failures and failures[0]["position"]["format"] == "hand-rummy/round"  # type: ignore[index]
    back = read_results(out)
    assert len(back.failures) == len(failures) and back.finished


class _UndecodableNameBot:
    """Fails as a bot does that cannot open a file whose name is not UTF-8: os.fsdecode
    gives the byte 0xff as the lone surrogate U+DCFF, which UTF-8 cannot encode."""

    def __init__(self, seed: int) -> None:
        pass

    def choose(self, view: hr.PlayerView) -> hr.Action:
        raise ValueError("cannot open \udcff.cfg")


def test_a_failure_whose_message_utf8_cannot_encode_is_written(tmp_path: Path) -> None:
    # writing the failure line raised UnicodeEncodeError: the run stopped in spite of
    # on_error="continue", and the file held only its tournament line
    t = Tournament("classic", players=2, bots=[Entrant("odd", _UndecodableNameBot), "greedy"],
                   matches=2, seed=1, rounds=3, on_error="continue")  # fmt: skip
    path = _written(tmp_path, t)
    path.read_bytes().decode("utf-8")  # strict: no surrogate reached the file
    back = read_results(path)
    assert back.finished and len(back.failures) == 2
    # the surrogate reads back as the text of its escape, which any output can print
    assert back.failures[0].message == "ValueError: cannot open \\udcff.cfg"


def test_an_interrupted_run_can_still_be_read(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert main([*ARGS, "--json", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    cut = "".join(lines[:-3]) + lines[-3][:20]  # no end line, the last match half written
    out.write_text(cut, encoding="utf-8")
    back = read_results(out)
    assert not back.finished and len(back.matches) == 3
    summary = summarise(back.settings, back.matches, finished=False)
    assert "the results file has no end line: the run was interrupted" in summary.table()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "is not a hand-rummy results file"),
        ('{"type": "tournament", "format": "other"}\n', "is not a hand-rummy results file"),
        (
            '{"type": "tournament", "format": "hand-rummy/results", "version": 9}\n',
            "of version 9; this library reads version 1",
        ),
        (
            json.dumps(HEADER) + '\n{"type": "bogus"}\n',
            "line 2: unknown type 'bogus'",
        ),
        (
            json.dumps(HEADER) + "\nnot json\n{}\n",
            "line 2: not JSON",
        ),
        (
            json.dumps(HEADER) + '\n{"type": "match", "match": 0}\n',
            "line 2: a match line that cannot be read (no 'deal')",
        ),
    ],
)
def test_a_bad_file_is_refused_with_the_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ResultsError) as err:
        read_results(path)
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("totals", [185], "has 1 totals for 2 players"),
        ("totals", [1e400, -118], "OverflowError"),
        ("winners", [7], "names winners [7] of 2 seats"),
        ("winners", [], "names winners [] of 2 seats"),
        ("deal", 99, "is of deal 99; the tournament has 5 deals"),
    ],
)
def test_a_match_line_that_does_not_fit_the_tournament_is_refused(
    tmp_path: Path, field: str, value: object, message: str
) -> None:
    # the summary counts a match line's totals, winners and deal as the tournament's: one
    # that does not fit would fail in it or be counted wrong, so reading refuses it
    t = Tournament("classic", players=2, bots="greedy,random", matches=10, seed=1,
                   duplicate=True, rounds=3)  # fmt: skip
    good = tmp_path / "r.jsonl"
    with ResultsWriter(good, t.describe()) as writer:
        result = run(t, on_record=writer.write)
        writer.finish(stopped=result.stopped, seconds=result.seconds)
    lines = _lines(good)
    assert read_results(good).settings["deals"] == 5
    at = next(i for i, line in enumerate(lines) if line["type"] == "match")
    lines[at][field] = value
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(ResultsError) as err:
        read_results(bad)
    assert f"line {at + 1}" in str(err.value) and message in str(err.value)
    assert main(["report", str(bad)]) == 2


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("round decisions", [], "match 0, round 1, has 0 decisions for 2 players"),
        ("round seconds", [], "match 0, round 1, has 0 seconds for 2 players"),
        ("end seconds", _MISSING, "the end line's 'seconds' must be a number of seconds, missing"),
        ("end seconds", None, "'seconds' must be a number of seconds, not null"),
        ("end seconds", "x", "'seconds' must be a number of seconds, not \"x\""),
        ("end seconds", -1, "'seconds' must be a number of seconds, not -1"),
    ],
)
def test_a_damaged_round_or_end_line_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, value: object, message: str
) -> None:
    """Each gave a traceback (IndexError in the summary, KeyError, TypeError or ValueError
    reading the end line) where report promises exit 2."""
    kind, field = where.split()
    lines = _lines(_written(tmp_path))
    at = next(i for i, line in enumerate(lines) if line["type"] == kind)
    if value is _MISSING:
        del lines[at][field]
    else:
        lines[at][field] = value
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["report", str(bad)]) == 2
    err = capsys.readouterr().err
    if kind == "round":  # refused with the match line that counts it
        at = next(i for i, line in enumerate(lines) if line["type"] == "match")
    assert err.startswith(f"hand-rummy report: error: {bad}, line {at + 1}: ") and message in err
    assert "Traceback" not in err


def _match_lines(lines: list[dict[str, object]], index: int) -> list[dict[str, object]]:
    return [line for line in lines if line.get("match") == index]


def test_match_lines_that_are_not_the_tournaments_are_refused(tmp_path: Path) -> None:
    """Repeated lines, lines beyond the tournament's matches and lines of another run were
    counted: a run's lines appended to it again made "8 matches" of a 4-match tournament,
    and a Rommé tournament line over another run's lines was reported as Rommé."""
    lines = _lines(_written(tmp_path))
    header, body, end = lines[0], lines[1:-1], lines[-1]
    first_match = next(i for i, line in enumerate(lines) if line["type"] == "match") + 1

    def refused(content: list[dict[str, object]]) -> str:
        bad = tmp_path / "bad.jsonl"
        bad.write_text("".join(json.dumps(line) + "\n" for line in content), encoding="utf-8")
        with pytest.raises(ResultsError) as err:
            read_results(bad)
        return str(err.value).removeprefix(f"{bad}, ")

    again = len(body) + first_match  # the second copy of the first match line
    assert refused([header, *body, *body, end]) == (
        f"line {again}: match 0 is there already, on line {first_match}"
    )
    assert (
        refused([header, *body, end, *body])
        == f"line {len(lines) + 1}: a round line after the end line"
    )
    beyond = [{**line, "match": 4} for line in _match_lines(lines, 0)]
    assert refused([header, *beyond]) == (
        f"line {first_match}: match 4 is not one of the tournament's 4 matches"
    )
    moved = [{**line, "deal": 2} if line["type"] == "match" else line for line in body]
    assert refused([header, *moved]).startswith(
        f"line {first_match}: match 0 is of deal 2 and seating 0; the tournament plays it as "
        "deal 0 and seating 0"
    )
    # another tournament line, with another seed, over these lines
    romme = Tournament("romme", players=2, bots="greedy,random", matches=4, seed=2)
    other = {**header, **romme.describe()}
    seed = lines[first_match - 1]["seed"]
    assert refused([other, *body, end]).startswith(
        f"line {first_match}: match 0 has seed {seed}, but the tournament's seed 2 gives it "
    )


def test_a_failure_line_is_checked_against_the_schedule_too(tmp_path: Path) -> None:
    t = Tournament("classic", players=2, bots="greedy,sample_bots:RaisingBot", matches=2,
                   seed=1, rounds=3, on_error="continue")  # fmt: skip
    lines = _lines(_written(tmp_path, t))
    at = next(i for i, line in enumerate(lines) if line["type"] == "failure")
    lines[at]["seed"] = 12345
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(ResultsError, match=f"line {at + 1}: match 0 has seed 12345, but "):
        read_results(bad)


def test_a_tournament_line_whose_deals_do_not_fit_is_refused(tmp_path: Path) -> None:
    lines = _lines(_written(tmp_path))
    for change, message in (
        ({"deals": 3}, "'deals' (3) do not fit its 4 matches and 2 seatings"),
        ({"matches": 10**7, "deals": 10**7}, "'matches' must be at most 1,000,000, not 10,000,000"),
    ):
        bad = tmp_path / "bad.jsonl"
        content = [{**lines[0], **change}, *lines[1:]]
        bad.write_text("".join(json.dumps(line) + "\n" for line in content), encoding="utf-8")
        with pytest.raises(ResultsError, match=re.escape(message)):
            read_results(bad)


@pytest.mark.parametrize(
    ("kind", "field", "value", "message"),
    [
        (None, None, "[" * 100_000, "not readable JSON (nested too deeply)"),
        (None, None, '{"type": "round", "seed": ' + "1" * 5000 + "}", "not readable JSON"),
        ("round", "decisions", "123", "round line that cannot be read (TypeError: expected a"),
        ("round", "seconds", "000", "round line that cannot be read (TypeError: expected a"),
        ("match", "totals", "000", "match line that cannot be read (TypeError: expected a"),
    ],
)
def test_a_damaged_line_is_refused_with_its_number_not_a_traceback(
    tmp_path: Path, kind: str | None, field: str | None, value: object, message: str
) -> None:
    # the parser's own ValueError and RecursionError escaped the reading of the file, and a
    # text where a list belongs was read letter by letter: three digits for three players
    good = tmp_path / "r.jsonl"
    assert main([*ARGS, "--json", "--out", str(good)]) == 0
    lines = good.read_text(encoding="utf-8").splitlines()
    if kind is None:
        at = 1
        lines[at] = str(value)
    else:
        at = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)
        doc = json.loads(lines[at])
        doc[field] = value
        lines[at] = json.dumps(doc)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ResultsError) as err:
        read_results(bad)
    assert f"line {at + 1}: " in str(err.value) and message in str(err.value)
    assert main(["report", str(bad)]) == 2
