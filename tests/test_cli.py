"""The command line as a user runs it: output, exit codes, and no tracebacks on bad input."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hand_rummy.cli import main

MELD = {"rules": "levant", "indicator": "8C", "ask": "meld", "cards": ["7H", "AC", "9H"]}


def _judge(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, object]:
    status = main(["judge", "--compact", *args])
    out = capsys.readouterr().out
    return status, json.loads(out)


def test_judge_reads_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """000 §Wild cards: 7♥ A♣ 9♥ under the 8♣ is a run, the A♣ standing for the 8♥."""
    question = tmp_path / "q.json"
    question.write_text(json.dumps(MELD), encoding="utf-8")
    status, reply = _judge(capsys, [str(question)])
    assert status == 0
    assert reply == {
        "protocol": "hand-rummy/referee/1",
        "ok": True,
        "kind": "run",
        "meld": ["7H", "AC", "9H"],
        "roles": {"1": "8H"},
        "points": 24,
        "violations": [],
    }


def test_judge_answers_an_array_and_fails_on_any_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    question = tmp_path / "q.json"
    question.write_text(json.dumps([MELD, {"rules": "chess", "ask": "meld"}]), encoding="utf-8")
    status, reply = _judge(capsys, [str(question)])
    assert status == 2
    assert isinstance(reply, list)
    assert reply[0]["ok"] is True
    assert reply[1]["error"]["code"] == "UNKNOWN_RULES"


def test_judge_bad_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    question = tmp_path / "q.json"
    question.write_text("{not json", encoding="utf-8")
    status, reply = _judge(capsys, [str(question)])
    assert status == 2
    assert isinstance(reply, dict) and reply["error"]["code"] == "BAD_JSON"


def test_judge_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "/no/such/file.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_rules_show_unknown_preset_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "canasta"]) == 2
    err = capsys.readouterr().err
    assert "unknown rules 'canasta'" in err and "Traceback" not in err


def test_rules_show_unknown_variant_suggests_a_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "levant", "--variant", "opening_70"]) == 2
    assert "did you mean 'opening_71'" in capsys.readouterr().err


def test_rules_show_applies_variants(capsys: pytest.CaptureFixture[str]) -> None:
    """002 §Variants: round the corner makes K-A-2 a run."""
    assert main(["rules", "show", "romme", "--variant", "round_the_corner"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("romme+round_the_corner\n")
    assert "may turn the corner (K-A-2)" in out


def test_rules_list_names_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("levant", "romme", "gulf", "classic", "partnership", "saudi", "saudi_partnership"):
        assert f"\n{name} " in f"\n{out}"
    assert "egyptian_bonuses" in out and "round_the_corner" in out


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["deal"])
    assert stop.value.code == 2


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["judge", "a.json", "b.json"], "usage: hand-rummy judge "),
        (["rules", "show", "levant", "--bogus"], "usage: hand-rummy rules show "),
        (["rules", "list", "extra"], "usage: hand-rummy rules list "),
    ],
)
def test_an_argument_a_command_does_not_know_is_refused_with_its_usage(
    argv: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command's own usage, not the top level's, and the argument named."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage)
    assert f"error: unrecognized arguments: {argv[-1]}" in err


_SIMULATE = ["simulate", "--players", "2", "--matches", "1"]
_PLAY = ["play", "--players", "2"]


@pytest.mark.parametrize(
    ("argv", "command", "message"),
    [
        # argparse's own checks: the command's usage, then the error line
        (["judge", "--bogus"], "judge", "unrecognized arguments: --bogus"),
        (["conformance", "--timeout", "soon"], "conformance", "invalid float value: 'soon'"),
        (["rules", "show"], "rules show", "the following arguments are required: name"),
        ([*_SIMULATE, "--rules", "levant", "--jobs", "x"], "simulate", "invalid int value"),
        (["report"], "report", "the following arguments are required: RESULTS"),
        (["play", "--rules", "levant"], "play", "the following arguments are required"),
        (["replay", "game.json"], "replay", "the following arguments are required: --html"),
        # the commands' own checks and what the library refuses: the error line alone
        (["judge", "/no/such/file.json"], "judge", "cannot read /no/such/file.json: "),
        (["conformance", "--timeout", "0"], "conformance", "--timeout must be a positive"),
        (["conformance", "--rules", "chess"], "conformance", "no vectors for rules 'chess'"),
        (["rules", "show", "chess"], "rules show", "unknown rules 'chess'"),
        ([*_SIMULATE, "--rules", "chess"], "simulate", "unknown rules 'chess'"),
        ([*_SIMULATE, "--rules", "levant", "--jobs", "0"], "simulate", "--jobs must be"),
        (["report", "/no/such/results.jsonl"], "report", "cannot read /no/such/results.jsonl"),
        (["report", "r.jsonl", "--plot", "r.txt"], "report", "--plot r.txt: give a .png"),
        ([*_PLAY, "--rules", "chess"], "play", "unknown rules 'chess'"),
        ([*_PLAY, "--rules", "levant", "--you", "5"], "play", "--you 5: the seats are 0 to 1"),
        (["replay", "/no/such/game.json", "--html", "g.html"], "replay", "cannot read"),
    ],
)
def test_every_command_reports_a_mistake_in_one_form(
    argv: list[str], command: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hand-rummy COMMAND: error: MESSAGE`` on standard error and exit status 2, whether
    argparse or the command found the mistake; argparse adds the command's usage before it."""
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse exits itself
        status = stop.code  # type: ignore[assignment]
    assert status == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[-1].startswith(f"hand-rummy {command}: error: "), captured.err
    assert message in lines[-1]
    assert lines[:-1] == [] or lines[0].startswith(f"usage: hand-rummy {command} "), lines


@pytest.mark.parametrize(
    "command",
    [
        ["judge"],
        ["conformance"],
        ["rules", "list"],
        ["rules", "show"],
        ["simulate"],
        ["report"],
        ["play"],
        ["replay"],
    ],
)
def test_the_short_option_v_means_variant_wherever_it_is_offered(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """conformance took -v for --verbose, the commands that play for --variant."""
    monkeypatch.setenv("COLUMNS", "100")  # one option a line in the help
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    shown = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    short = [line for line in shown if re.search(r"(^|, )-v\b", line)]
    offered = command in (["rules", "show"], ["simulate"], ["play"])
    assert short == (["--variant V, -v V apply a named variant (repeatable)"] if offered else [])


def test_python_dash_m_reads_stdin() -> None:
    """The installed entry point and ``python -m hand_rummy`` are the same program."""
    done = subprocess.run(
        [sys.executable, "-m", "hand_rummy", "judge", "--compact"],
        input=json.dumps(MELD),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["roles"] == {"1": "8H"}


@pytest.mark.parametrize(("question", "status"), [(MELD, 0), ({"rules": "nope"}, 2)])
def test_the_judge_keeps_its_status_when_its_reader_is_gone(
    question: dict[str, object], status: int
) -> None:
    """A reader that closed its end (``| head -c1`` on a long answer) made every status 0,
    as if no answer were an error."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # gone before the first write
    try:
        done = subprocess.run(
            [sys.executable, "-m", "hand_rummy", "judge", "--compact"],
            input=json.dumps(question).encode("utf-8"),
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (status, b"")


@pytest.mark.parametrize("where", ["closed", "full"])
def test_output_that_cannot_be_written_is_reported_not_traced(where: str) -> None:
    """Standard output closed, or on a full device: the judge says so on standard error and
    exits with 2, as for any refused input, instead of a Python traceback."""
    if where == "full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    redirect = ">&-" if where == "closed" else ">/dev/full"
    done = subprocess.run(
        f"{shlex.quote(sys.executable)} -m hand_rummy judge {redirect}",
        shell=True,
        input=json.dumps(MELD),
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("hand-rummy judge: error: ")
    assert "Traceback" not in done.stderr


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("hand-rummy 0.")
