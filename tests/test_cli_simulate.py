"""``hand-rummy simulate`` as a user runs it: the summary, JSON, workers, and bad arguments."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from hand_rummy.cli import main
from hand_rummy.cli_simulate import Progress, Settings, seats_for

QUICK = ["simulate", "--rules", "levant", "--players", "4", "--matches", "4", "--rounds", "2"]


def _json(capsys: pytest.CaptureFixture[str], args: list[str]) -> dict[str, object]:
    assert main([*args, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert isinstance(summary, dict)
    return summary


def test_simulate_prints_the_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*QUICK, "--bots", "greedy,random", "--seed", "1"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert out.startswith("levant: 4 matches of 4 players, 2 rounds each, seed 1")
    for label in ("greedy", "random", "rounds per match", "Hand finishes", "ended by the stock"):
        assert label in out
    assert "decisions" in out and "/s)" in out
    assert captured.err == ""  # no progress bar: capsys is not a terminal


def test_simulate_json_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    summary = _json(capsys, [*QUICK, "--bots", "greedy,random", "--seed", "1"])
    bots = summary["bots"]
    assert isinstance(bots, dict) and set(bots) == {"greedy", "random"}
    # two of each bot at four seats, four matches; a shared win is split
    assert [bots[name]["seats"] for name in ("greedy", "random")] == [8, 8]
    assert sum(b["wins"] for b in bots.values()) == pytest.approx(4)
    assert summary["matches"] == 4 and summary["rounds_override"] == 2
    rounds = summary["rounds"]
    assert isinstance(rounds, int) and rounds >= 8  # at least two scored rounds a match
    assert summary["mean_rounds"] == pytest.approx(rounds / 4, abs=1e-3)
    for rate in ("hand_rate", "stock_rate"):
        value = summary[rate]
        assert isinstance(value, float) and 0 <= value <= 1
    decisions = summary["decisions"]
    assert isinstance(decisions, int) and decisions > 0
    # GreedyBot beats RandomBot clearly, even in four short matches
    assert bots["greedy"]["wins"] > bots["random"]["wins"]
    assert bots["greedy"]["mean_total"] < bots["random"]["mean_total"]


def test_workers_give_the_same_summary(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        *["simulate", "--rules", "romme", "--players", "3", "--matches", "3", "--rounds", "1"],
        *["--bots", "greedy,random,random", "--seed", "5"],
    ]
    alone = _json(capsys, args)
    pooled = _json(capsys, [*args, "--jobs", "2"])
    for timing in ("seconds", "decisions_per_second"):
        del alone[timing], pooled[timing]
    assert alone == pooled


def test_a_single_bot_name_takes_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    summary = _json(capsys, [*QUICK, "--bots", "greedy", "--matches", "1", "--rounds", "1"])
    bots = summary["bots"]
    assert isinstance(bots, dict) and list(bots) == ["greedy"]
    assert bots["greedy"]["seats"] == 4
    assert bots["greedy"]["wins"] == pytest.approx(1)


def test_seats_rotate_from_match_to_match() -> None:
    settings = Settings("levant", (), 3, 3, ("greedy", "random", "random"), 0)
    seatings = [seats_for(settings, i) for i in range(3)]
    assert seatings == [
        ("greedy", "random", "random"),
        ("random", "random", "greedy"),
        ("random", "greedy", "random"),
    ]
    # over a full turn of the table every bot sits in every seat
    assert {s.index("greedy") for s in seatings} == {0, 1, 2}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "chess", "--players", "4"], "unknown rules 'chess'"),
        (
            ["--rules", "levant", "--variant", "opening_70", "--players", "4"],
            "did you mean 'opening_71'",
        ),
        (["--rules", "gulf", "--players", "2"], "--players 2: gulf is for 4 players"),
        (["--rules", "levant", "--players", "9"], "--players 9: levant is for 2 to"),
        (["--rules", "levant", "--players", "2", "--bots", "smart"], "unknown bot 'smart'"),
        (
            ["--rules", "levant", "--players", "2", "--bots", "greedy,random,random"],
            "3 bots for 2 seats",
        ),
        (["--rules", "levant", "--players", "2", "--matches", "0"], "--matches must be positive"),
        (["--rules", "levant", "--players", "2", "--jobs", "0"], "--jobs must be positive"),
        (["--rules", "levant", "--players", "2", "--rounds", "-1"], "--rounds must be positive"),
        (["--rules", "levant", "--players", "0"], "--players must be positive"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    argv = ["simulate", "--matches", "1", *args]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("hand-rummy simulate: ")
    assert message.replace(" must be positive", " must be a positive number") in captured.err
    assert "Traceback" not in captured.err


def test_a_missing_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--rules", "levant", "--players", "2"])
    assert stop.value.code == 2
    assert "--matches" in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_draws_only_on_a_terminal() -> None:
    terminal, pipe = _Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        bar = Progress(4, stream, width=8)
        for done in range(5):
            bar.show(done)
        bar.close()
    assert "\r[####----] 2/4 matches" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\x1b[K")
    assert pipe.getvalue() == ""


def test_python_dash_m_simulate_writes_no_escape_codes_to_a_pipe() -> None:
    done = subprocess.run(
        [
            *[sys.executable, "-m", "hand_rummy", "simulate", "--rules", "classic"],
            *["--players", "2", "--matches", "2", "--rounds", "1", "--bots", "greedy,random"],
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "greedy" in done.stdout and "random" in done.stdout
    assert "\x1b" not in done.stdout and "\r" not in done.stdout
    assert done.stderr == ""


def test_the_summary_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--rules", "levant", "--players", "4", "--matches", "2", "--rounds", "1"]
    assert main([*args, "--bots", "greedy,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "lower totals are better" in out
    assert "A Hand finish is going out in a single turn" in out
    assert "those rounds were not scored" in out
    wins = [line.split()[2] for line in out.splitlines() if line.startswith(("greedy", "random"))]
    assert all(w.isdigit() or "." in w for w in wins) and any(w.isdigit() for w in wins)
