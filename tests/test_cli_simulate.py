"""``hand-rummy simulate`` as a user runs it: the summary, JSON, workers, and bad arguments."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sample_bots
from hand_rummy.cli import main
from hand_rummy.cli_simulate import tournament_from

QUICK = [
    *["simulate", "--rules", "levant", "--players", "4", "--matches", "4"],
    *["--rounds", "2", "--custom-length"],
]


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


def test_one_seating_is_named_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    """One bot in every seat gives duplicate deals a single seating."""
    args = ["--rules", "classic", "--players", "2", "--matches", "2", "--rounds", "3"]
    assert main(["simulate", *args, "--duplicate", "--bots", "greedy"]) == 0
    assert "(2 duplicate deals x 1 seating)" in capsys.readouterr().out


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
    greedy, random = bots["greedy"]["mean_total"], bots["random"]["mean_total"]
    assert greedy["estimate"] < random["estimate"]
    assert greedy["low"] < greedy["estimate"] < greedy["high"] and greedy["n"] == 4
    rate = bots["greedy"]["win_rate"]
    assert rate["estimate"] == bots["greedy"]["wins"] / 4 and 0 <= rate["low"] < rate["high"] <= 1
    (difference,) = summary["differences"]
    assert (difference["a"], difference["b"]) == ("greedy", "random")
    assert difference["difference"]["estimate"] == pytest.approx(
        greedy["estimate"] - random["estimate"], abs=0.02
    )
    assert summary["follows_rules"] is False
    assert summary["notes"][0].startswith("custom length: the matches ended after 2 rounds")


def test_workers_give_the_same_summary(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        *["simulate", "--rules", "romme", "--players", "3", "--matches", "3", "--rounds", "1"],
        *["--custom-length", "--bots", "greedy,random,random", "--seed", "5"],
    ]
    alone = _json(capsys, args)
    pooled = _json(capsys, [*args, "--jobs", "2"])
    for summary in (alone, pooled):
        for timing in ("seconds", "decisions_per_second"):
            del summary[timing]
        for line in summary["bots"].values():  # type: ignore[attr-defined]
            del line["ms_per_decision"]
    assert alone == pooled


def test_a_single_bot_name_takes_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    summary = _json(capsys, [*QUICK, "--bots", "greedy", "--matches", "1", "--rounds", "1"])
    bots = summary["bots"]
    assert isinstance(bots, dict) and list(bots) == ["greedy"]
    assert bots["greedy"]["seats"] == 4
    assert bots["greedy"]["wins"] == pytest.approx(1)


def test_seats_rotate_from_match_to_match() -> None:
    settings = {"rules": "levant", "variants": (), "players": 3, "matches": 3, "seed": 0}
    t = tournament_from(**settings, bots="greedy,random,random", length=None, jobs=1)
    seatings = [table.seats for table in t.tables()]
    assert seatings == [
        ("greedy", "random", "random"),
        ("random", "random", "greedy"),
        ("random", "greedy", "random"),
    ]
    # over a full turn of the table every bot sits in every seat
    assert {s.index("greedy") for s in seatings} == {0, 1, 2}


def test_your_own_bot_by_module_and_class(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*QUICK, "--bots", "sample_bots:drawing_bot,random", "--matches", "2"]
    summary = _json(capsys, args)
    bots = summary["bots"]
    assert isinstance(bots, dict) and list(bots) == ["sample_bots:drawing_bot", "random"]


def test_a_failing_bot_is_reported_and_the_run_stops(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*QUICK, "--bots", "greedy,sample_bots:RaisingBot"]
    assert main(args) == 1
    captured = capsys.readouterr()
    first, position = captured.err.splitlines()[:2]
    assert first.startswith("hand-rummy simulate: error: match 0 (seed ")
    # RaisingBot sits at seats 1 and 3 of four; one of them fails first
    assert re.search(
        r"round 1: seat [13] \(sample_bots:RaisingBot\) raised: ValueError: the bot gave up$",
        first,
    )
    doc = json.loads(position.removeprefix("  position (round document): "))
    assert doc["format"] == "hand-rummy/round"
    assert "1 failed (left out of the results)" in captured.out
    assert "the run stopped at the first failure" in captured.out


def test_on_error_continue_plays_the_other_matches(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*QUICK, "--bots", "greedy,sample_bots:SometimesRaisingBot", "--matches", "6"]
    assert main([*args, "--on-error", "continue", "--json"]) == 1
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    failed = len(summary["failures"])
    assert 0 < failed < 6 and summary["matches"] == 6 - failed
    assert captured.err.count("hand-rummy simulate: error: match ") == failed


_FAILURE_KEYS = {
    *("code", "message", "detail", "match", "deal", "rotation", "seed"),
    *("round", "decision", "seats", "seat", "bot", "action"),
}


@pytest.mark.parametrize(
    ("bot", "code", "message"),
    [
        ("RaisingBot", "error", "ValueError: the bot gave up"),
        ("IllegalBot", "illegal", "is not in your hand"),
    ],
)
def test_json_failures_are_objects_with_their_context(
    bot: str, code: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json gave each failure as the one line printed on standard error."""
    out = tmp_path / "results.jsonl"
    args = [*QUICK, "--bots", f"greedy,sample_bots:{bot}", "--json", "--out", str(out)]
    assert main(args) == 1
    captured = capsys.readouterr()
    (failure,) = json.loads(captured.out)["failures"]
    assert set(failure) == _FAILURE_KEYS
    assert failure["code"] == code and message in failure["message"]
    assert failure["bot"] == f"sample_bots:{bot}" and failure["seat"] in (1, 3)
    assert failure["seats"] == ["greedy", f"sample_bots:{bot}"] * 2
    assert (failure["match"], failure["deal"], failure["rotation"]) == (0, 0, 0)
    assert failure["round"] == 1 and failure["decision"] == sample_bots.FAIL_AT
    assert (failure["action"] is None) == (code == "error")
    assert failure["detail"]  # the traceback, or the reasons the action was refused
    # the same failure as the line on standard error says it
    seat = f"seat {failure['seat']} (sample_bots:{bot})"
    assert f"match 0 (seed {failure['seed']}), round 1: {seat} " in captured.err
    # report reads the same object back from the results file
    assert main(["report", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["failures"] == [failure]


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
            ["--rules", "levant", "--players", "2", "--bots", "greedy,nowhere:Bot"],
            "--bots: bot 'nowhere:Bot': cannot import 'nowhere'",
        ),
        (["--rules", "levant", "--players", "2", "--time-limit", "0"], "--time-limit must be"),
        (
            ["--rules", "levant", "--players", "2", "--bots", "greedy,random,random"],
            "3 bots for 2 seats",
        ),
        (["--rules", "levant", "--players", "2", "--matches", "0"], "--matches must be positive"),
        (["--rules", "levant", "--players", "2", "--jobs", "0"], "--jobs must be positive"),
        (["--rules", "levant", "--players", "2", "--rounds", "-1"], "--rounds must be positive"),
        (["--rules", "levant", "--players", "0"], "--players must be positive"),
        # the schedule of ten million matches was built before the first one: minutes, gigabytes
        (
            ["--rules", "classic", "--players", "2", "--rounds", "3", "--matches", "10000000"],
            "--matches 10000000: a run plays at most 1,000,000 matches",
        ),
        # an infinite limit passed the option and crashed the timer, blaming the bot
        (
            ["--rules", "levant", "--players", "2", "--time-limit", "inf"],
            "--time-limit inf: a decision may take at most 86400 seconds",
        ),
        (
            ["--rules", "levant", "--players", "2", "--time-limit", "1e300"],
            "--time-limit 1e+300: a decision may take at most 86400 seconds",
        ),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    argv = ["simulate", "--matches", "1", *args]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("hand-rummy simulate: error: ")
    assert message.replace(" must be positive", " must be a positive number") in captured.err
    assert "Traceback" not in captured.err


def test_a_missing_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--rules", "levant", "--players", "2"])
    assert stop.value.code == 2
    assert "--matches" in capsys.readouterr().err


def test_python_dash_m_simulate_writes_no_escape_codes_to_a_pipe() -> None:
    done = subprocess.run(
        [
            *[sys.executable, "-m", "hand_rummy", "simulate", "--rules", "classic"],
            *["--players", "2", "--matches", "2", "--rounds", "3", "--bots", "greedy,random"],
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
    assert main([*args, "--custom-length", "--bots", "greedy,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    words = " ".join(out.split())  # the explanations are wrapped
    assert "(lower is better)" in words
    assert "a Hand finish: going out in a single turn" in words
    assert "multiplied by 2" in words  # 000: a Hand doubles every score of the round
    assert "those rounds were not scored" in words  # 000: a stock ending is not scored
    wins = [line.split()[2] for line in out.splitlines() if line.startswith(("greedy", "random"))]
    assert all(w.isdigit() or "." in w for w in wins) and any(w.isdigit() for w in wins)


def test_the_documented_example_bot_plays_by_reference(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/tournaments.rst: PYTHONPATH=examples ... --bots custom_bot:CautiousBot,greedy."""

    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "examples"))
    args = [
        *["simulate", "--rules", "classic", "--players", "2", "--rounds", "5", "--matches", "4"],
        *["--bots", "custom_bot:CautiousBot,greedy", "--duplicate", "--seed", "1", "--json"],
    ]
    summary = _json(capsys, args[:-1])
    assert list(summary["bots"]) == ["custom_bot:CautiousBot", "greedy"]
    assert summary["units"] == 2 and summary["follows_rules"] is True


def test_the_help_states_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    from hand_rummy.tournament.schedule import MAX_MATCHES, MAX_TIME_LIMIT  # noqa: PLC0415

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert f"matches, at most {MAX_MATCHES:,}" in words
    assert f"at most {MAX_TIME_LIMIT:g} (a day" in words


def test_one_round_is_one_round(capsys: pytest.CaptureFixture[str]) -> None:
    """A custom length of one round was "1 rounds each" and "after 1 rounds"."""
    args = ["simulate", "--rules", "classic", "--players", "2", "--matches", "1", "--rounds", "1"]
    assert main([*args, "--custom-length"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("classic: 1 match of 2 players, 1 round each, seed 0")
    assert "\nmatches end after 1 round; intervals are 95%, over 1 match\n" in out
    assert "the matches ended after 1 round, not as classic's own" in out
    assert "1 rounds" not in out


def test_a_run_stopped_before_any_match_finished_shows_no_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It printed a table of nan and "nan ... no measurable difference"."""
    args = [*QUICK, "--bots", "sample_bots:NotABot,greedy", "--matches", "2"]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "nan" not in out and "no measurable difference" not in out
    assert "no match finished, so there are no wins, totals or differences to show" in out
    assert "seat 0 (sample_bots:NotABot) could not be made" in out


def test_a_run_that_cannot_start_leaves_the_results_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--out emptied the file before the backend was checked: without Ray, a run refused
    with exit 2 had already replaced a precious file with its first line."""
    precious = tmp_path / "precious.jsonl"
    precious.write_text("the results of a week\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    args = [*QUICK, "--bots", "greedy", "--backend", "ray", "--out", str(precious)]
    assert main(args) == 2
    assert "needs Ray" in capsys.readouterr().err
    assert precious.read_text(encoding="utf-8") == "the results of a week\n"
    # an --out that cannot be written is still refused before the run
    for where, message in ((tmp_path, "Is a directory"), (tmp_path / "no" / "r.jsonl", "No such")):
        assert main([*QUICK, "--bots", "greedy", "--out", str(where)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"hand-rummy simulate: error: --out {where}: ") and message in err
    # an empty name was said to be a directory (the current one)
    assert main([*QUICK, "--bots", "greedy", "--out", ""]) == 2
    assert capsys.readouterr().err == "hand-rummy simulate: error: --out : no file named\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_results_file_on_a_full_device_is_one_error(capsys: pytest.CaptureFixture[str]) -> None:
    """The writer's own error was followed by a second one, blamed on "the output", when the
    file was closed with its buffer still unwritten."""
    assert main([*QUICK, "--bots", "greedy", "--out", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert err == "hand-rummy simulate: error: --out /dev/full: No space left on device\n"


def test_a_killed_worker_exits_3_and_leaves_the_matches_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker killed under the run gave a BrokenProcessPool traceback and exit 1, the
    status of a bot failure."""
    from hand_rummy.tournament.results_file import read_results  # noqa: PLC0415

    out = tmp_path / "r.jsonl"
    args = [*QUICK, "--bots", "sample_bots:WorkerKillingBot,greedy", "--matches", "8"]
    assert main([*args, "--jobs", "2", "--out", str(out)]) == 3
    captured = capsys.readouterr()
    first, *rest = captured.err.splitlines()
    assert first.startswith("hand-rummy simulate: error: a worker process ended ")
    assert first.endswith("; the run cannot go on") and captured.out == ""
    if out.exists():  # the matches finished before the worker was killed, if any
        assert rest == [f"  the matches played before it are in {out}"]
        results = read_results(out)
        assert [m.index for m in results.matches] == list(range(len(results.matches)))
    else:
        assert rest == []


def test_rounds_that_contradict_a_length_variant_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """004 §What you need: the host chooses 3, 5, 7 or 9 rounds, which the variant rounds_5
    says; --rounds 3 beside it used to win silently while the title said rounds_5. The two
    must agree (the same length twice is no contradiction)."""
    args = ["simulate", "--rules", "classic", "--players", "4", "--matches", "1"]
    assert main([*args, "--rounds", "3", "--variant", "rounds_5"]) == 2
    err = capsys.readouterr().err
    assert "--rounds 3: the variant rounds_5 makes a match 5 rounds long, not 3" in err
    tournament = tournament_from(
        rules="classic",
        variants=["rounds_5"],
        players=4,
        matches=1,
        bots="random",
        seed=1,
        length=5,
        jobs=1,
    )
    assert tournament.rules.match.length == 5
