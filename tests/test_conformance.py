"""The conformance vectors shipped in the package, and the kit that runs them."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from hand_rummy import conformance, rulebook
from hand_rummy.cli import main
from hand_rummy.errors import InvalidStateError
from hand_rummy.referee import answer

JUDGE = [sys.executable, "-m", "hand_rummy", "judge", "--compact"]


def _cases() -> list[Any]:
    return [pytest.param(v, id=f"{v.file}: {v.name}") for v in conformance.vectors()]


@pytest.mark.parametrize("vector", _cases())
def test_vector(vector: conformance.Vector) -> None:
    reply = answer(vector.question)
    assert conformance.compare(vector, reply) == [], (
        f"{vector.source}: {json.dumps(reply, ensure_ascii=False)}"
    )
    # every violation cites rules of the rulebook, on the page of the question's preset
    known = rulebook.rule_ids()
    for violation in reply.get("violations", []):
        assert violation["rule_ids"], violation
        assert len(violation["rule_anchors"]) == len(violation["rule_ids"])
        for rule_id in violation["rule_ids"]:
            assert rule_id in known and rule_id.split(".")[0] == vector.rules, (rule_id, violation)


def test_every_preset_has_vectors() -> None:
    """Each preset is exercised by at least one vector."""
    named = {v.rules for v in conformance.vectors()}
    presets = {"levant", "romme", "gulf", "classic", "partnership", "saudi", "saudi_partnership"}
    assert presets <= named


def test_every_vector_names_its_source() -> None:
    for vector in conformance.vectors():
        assert vector.source.strip() and vector.expect, vector.name


def test_the_library_passes_its_own_kit() -> None:
    report = conformance.run()
    assert report.ok and report.total == len(conformance.vectors())
    assert [f.file for f in report.files] == list(conformance.files())


def test_a_program_as_the_referee() -> None:
    """``hand-rummy judge`` reads a JSON array and answers one: the kit drives it as a program."""
    report = conformance.run(conformance.command_referee(JUDGE), rules="romme")
    assert report.ok and report.total == len(conformance.vectors(rules="romme"))


def test_a_wrong_referee_fails_with_what_differed() -> None:
    def no_violations(questions: list[Any]) -> list[Any]:
        return [{"ok": True, "violations": []} for _ in questions]

    report = conformance.run(no_violations, rules="gulf")
    assert not report.ok
    refused = [v for v in conformance.vectors(rules="gulf") if v.expect.get("ok") is False]
    failed = {v.name for f in report.files for v, _ in f.failures}
    assert refused and {v.name for v in refused} <= failed
    reasons = [line for f in report.files for _, lines in f.failures for line in lines]
    assert any(line.startswith("ok: expected false, got true") for line in reasons)


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ([sys.executable, "-c", "print('no json')"], "the output is not JSON"),
        ([sys.executable, "-c", "print('[]')"], "expected a JSON array of"),
        ([sys.executable, "-c", "import time; time.sleep(5)"], "no answer within 0.5 s"),
        (["/nonexistent/referee"], "cannot run /nonexistent/referee"),
    ],
    ids=["not-json", "too-few", "too-slow", "missing"],
)
def test_a_broken_program_fails_every_vector_with_the_reason(
    program: list[str], reason: str
) -> None:
    # only the slow program is timed out; the others get time to start on a busy machine
    timeout = 0.5 if "within" in reason else 10
    report = conformance.run(conformance.command_referee(program, timeout=timeout), rules="gulf")
    assert report.passed == 0 and report.total > 0
    for result in report.files:
        for _, lines in result.failures:
            assert len(lines) == 1 and reason in lines[0], lines


def test_a_program_that_writes_without_end_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its output was kept in memory whole: 1.5 GB of it took 2.96 GB and 35 s. Now the output
    goes to a file that is measured as it grows (the limit made small here)."""
    monkeypatch.setattr(conformance, "MAX_OUTPUT", 10_000)
    endless = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n"
    report = conformance.run(
        conformance.command_referee([sys.executable, "-c", endless]), rules="gulf"
    )
    assert report.passed == 0 and report.total > 0
    for result in report.files:
        for _, lines in result.failures:
            assert len(lines) == 1 and "bytes for one batch (MAX_OUTPUT)" in lines[0], lines


def test_unknown_rules_and_files_are_refused() -> None:
    with pytest.raises(InvalidStateError, match="no vectors for rules 'chess'"):
        conformance.vectors(rules="chess")
    with pytest.raises(InvalidStateError, match="no vector file 'nope'"):
        conformance.vectors(file="nope")
    with pytest.raises(InvalidStateError, match="non-empty list of strings"):
        conformance.command_referee([])


def test_the_command_prints_a_table_and_exits_by_the_outcome(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["conformance", "--rules", "levant"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["file", "vectors", "passed", "failed"]
    total = len(conformance.vectors(rules="levant"))
    assert out.splitlines()[-1].split() == ["total", str(total), str(total), "0"]
    broken = f"{sys.executable} -c \"print('[]')\""
    assert main(["conformance", "--rules", "gulf", "--referee", broken]) == 1
    out = capsys.readouterr().out
    assert "FAIL gulf: " in out and "expected a JSON array of" in out
    assert main(["conformance", "--rules", "chess"]) == 2


def test_the_command_shows_ten_failures_unless_asked_for_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    broken = f"{sys.executable} -c \"print('[]')\""
    total = len(conformance.vectors(rules="gulf"))
    assert total > 10
    assert main(["conformance", "--rules", "gulf", "--referee", broken]) == 1
    out = capsys.readouterr().out
    assert out.count("\nFAIL ") == 10
    assert out.rstrip().endswith("... (--all-failures shows every failure)")
    # --verbose, the option's name before, still works
    for every in ("--all-failures", "--verbose"):
        assert main(["conformance", "--rules", "gulf", "--referee", broken, every]) == 1
        out = capsys.readouterr().out
        assert out.count("\nFAIL ") == total and "--all-failures shows" not in out


def test_the_short_v_is_not_verbose_and_says_what_to_type(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """-v is --variant in simulate, play and rules show; here it meant --verbose."""
    with pytest.raises(SystemExit) as stop:
        main(["conformance", "--rules", "gulf", "-v"])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[-1] == (
        "hand-rummy conformance: error: -v is --variant in the other commands, and conformance "
        "has no variants; --all-failures (or --verbose) shows every failing vector"
    )


def test_only_real_presets_are_offered() -> None:
    """A negative vector asks under rules named "canasta" to be refused; the list of presets
    with vectors offered it as if it were one."""
    from hand_rummy.rules import PRESETS  # noqa: PLC0415

    with pytest.raises(InvalidStateError) as err:
        conformance.vectors(rules="nope")
    offered = str(err.value).split("there are some for ")[1].split(", ")
    assert "canasta" not in offered and set(offered) <= set(PRESETS)
    assert set(offered) == {p for p in PRESETS if conformance.vectors(rules=p)}
    with pytest.raises(InvalidStateError, match="no vectors for rules 'canasta'"):
        conformance.vectors(rules="canasta")


@pytest.mark.parametrize("timeout", [0, -1, float("inf"), float("nan")])
def test_a_timeout_that_is_no_time_is_refused(timeout: float) -> None:
    with pytest.raises(
        InvalidStateError, match="timeout must be a positive, finite number of seconds"
    ):
        conformance.command_referee([sys.executable], timeout=timeout)


@pytest.mark.parametrize("timeout", [conformance.MAX_TIMEOUT + 1, 2_200_000, 1e300])
def test_a_timeout_past_a_day_is_refused(timeout: float) -> None:
    """Past about 24.8 days subprocess's clock overflowed: a traceback from the CLI."""
    with pytest.raises(InvalidStateError, match=r"timeout is at most 86400 seconds \(a day\)"):
        conformance.command_referee([sys.executable], timeout=timeout)
    assert conformance.command_referee([sys.executable], timeout=conformance.MAX_TIMEOUT)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--referee", "'unterminated"],
            '--referee "\'unterminated" cannot be read as a command: No closing quotation',
        ),
        (["--referee", "  "], "--referee names no program"),
        (
            ["--referee", "no-such-referee-program --x"],
            "--referee: no program 'no-such-referee-program' to run",
        ),
        (["--timeout", "0"], "--timeout must be a positive, finite number of seconds, not 0"),
        (["--timeout", "-1"], "--timeout must be a positive, finite number of seconds, not -1"),
        (
            ["--timeout", "inf", "--referee", "x"],
            "--timeout must be a positive, finite number of seconds, not inf",
        ),
        (
            ["--timeout", "2200000", "--referee", "x"],
            "--timeout is at most 86400 seconds (a day), not 2.2e+06",
        ),
    ],
)
def test_bad_options_exit_2_with_a_usage_message(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """An unbalanced quote ended in shlex's traceback; a timeout of 0 or -1 was taken."""
    assert main(["conformance", "--rules", "gulf", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"hand-rummy conformance: error: {message}\n"


def test_unknown_rules_on_the_command_line_list_real_presets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["conformance", "--rules", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "hand-rummy conformance: error: no vectors for rules 'nope'; there are some for classic"
    )
    assert "canasta" not in err


def test_true_is_not_one_in_an_answer() -> None:
    """JSON's true and 1 are different values: a referee that answers ``"ok": 1`` (or scores
    ``false`` for 0) fails, though Python's ``==`` would let it pass."""

    def ints_for_booleans(questions: list[Any]) -> list[Any]:
        def bend(value: Any) -> Any:
            if isinstance(value, bool):
                return int(value)
            if isinstance(value, list):
                return [bend(v) for v in value]
            if isinstance(value, dict):
                return {k: bend(v) for k, v in value.items()}
            return value

        return [bend(answer(q)) for q in questions]

    report = conformance.run(ints_for_booleans, rules="gulf")
    reasons = [line for f in report.files for _, lines in f.failures for line in lines]
    assert not report.ok and "ok: expected true, got 1" in reasons
    # and an answer that is right passes, numbers compared by value
    (vector,) = [v for v in conformance.vectors(rules="gulf") if v.name == "never all jokers"]
    assert conformance.compare(vector, answer(vector.question)) == []


def test_a_referee_that_writes_json_nested_too_deep_fails_with_the_reason() -> None:
    program = [sys.executable, "-c", "print('[' * 100000 + ']' * 100000)"]
    report = conformance.run(conformance.command_referee(program), rules="gulf")
    assert report.passed == 0 and report.total > 0
    for result in report.files:
        for _, lines in result.failures:
            assert len(lines) == 1 and "the output is not JSON" in lines[0], lines


def test_a_referee_that_fails_to_start_shows_what_it_wrote_to_standard_error() -> None:
    """A referee program that cannot do its work (a missing module, say) explains on
    standard error; that explanation, not only the exit status, is in each failure."""
    program = [sys.executable, "-c", "import sys; sys.exit('cannot find module my-referee')"]
    report = conformance.run(conformance.command_referee(program), rules="gulf")
    assert report.passed == 0 and report.total > 0
    for result in report.files:
        for _, lines in result.failures:
            assert "exit status 1" in lines[0], lines
            assert "it wrote to standard error: cannot find module my-referee" in lines[0]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (b'[{"name": "x",', "vector file t.json is not JSON"),
        (b"\xff", "vector file t.json is not JSON"),
        (b'{"name": "x"}', "is not a JSON array of vectors"),
        (b'[{"name": "x", "source": "s", "question": {}}]', "vector 0: needs name, source"),
        (b'[{"name": 1, "source": "s", "question": {}, "expect": {"ok": true}}]', "vector 0:"),
        (b'[{"name": "x", "source": "s", "question": {}, "expect": {}}]', "non-empty object"),
    ],
    ids=["truncated", "not-utf8", "object", "no-expect", "name-number", "empty-expect"],
)
def test_a_damaged_vector_file_is_an_error_that_names_it(text: bytes, reason: str) -> None:
    with pytest.raises(InvalidStateError, match=reason):
        conformance._read("t", text)


def test_violation_codes_are_compared_in_any_order() -> None:
    """A referee owes every broken rule, not this library's order of checks: the codes of a
    vector are a multiset, so the same codes reversed pass and one code short fails."""
    (vector,) = [v for v in conformance.vectors(rules="gulf") if v.name == "never all jokers"]
    want = vector.expect["codes"]
    assert isinstance(want, list) and len(set(map(str, want))) > 1  # an order to get wrong

    def reply(codes: list[Any]) -> dict[str, Any]:
        return {**answer(vector.question), "violations": [{"code": c} for c in codes]}

    assert conformance.compare(vector, reply(list(reversed(want)))) == []
    assert conformance.compare(vector, reply(want[1:])) != []
    assert conformance.compare(vector, reply([*want, want[0]])) != []
