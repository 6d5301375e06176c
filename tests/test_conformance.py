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
    report = conformance.run(conformance.command_referee(program, timeout=0.5), rules="gulf")
    assert report.passed == 0 and report.total > 0
    for result in report.files:
        for _, lines in result.failures:
            assert len(lines) == 1 and reason in lines[0], lines


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
