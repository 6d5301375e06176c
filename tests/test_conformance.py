"""Run the conformance vectors in tests/conformance/ through the referee."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hand_rummy import rulebook
from hand_rummy.referee import answer

VECTORS = Path(__file__).parent / "conformance"


def _cases() -> list[Any]:
    cases = []
    for path in sorted(VECTORS.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            cases.append(pytest.param(case, id=f"{path.stem}: {case['name']}"))
    return cases


def _field(reply: dict[str, Any], key: str) -> Any:
    if key == "codes":
        return [v["code"] for v in reply.get("violations", [])]
    if key == "error":
        return reply.get("error", {}).get("code")
    return reply.get(key)


def _preset(question: dict[str, Any]) -> Any:
    """The preset a question is asked under: its ``rules``, or its round document's."""
    if "rules" in question:
        return question["rules"]
    round_doc = question.get("round")
    return round_doc.get("rules", {}).get("preset") if isinstance(round_doc, dict) else None


@pytest.mark.parametrize("case", _cases())
def test_vector(case: dict[str, Any]) -> None:
    reply = answer(case["question"])
    got = {key: _field(reply, key) for key in case["expect"]}
    assert got == case["expect"], f"{case['source']}: {json.dumps(reply, ensure_ascii=False)}"
    # every violation cites rules of the rulebook, on the page of the question's preset
    preset = _preset(case["question"])
    known = rulebook.rule_ids()
    for violation in reply.get("violations", []):
        assert violation["rule_ids"], violation
        assert len(violation["rule_anchors"]) == len(violation["rule_ids"])
        for rule_id in violation["rule_ids"]:
            assert rule_id in known and rule_id.split(".")[0] == preset, (rule_id, violation)


def test_every_preset_has_vectors() -> None:
    """Each preset is exercised by at least one vector."""
    named = {c.values[0]["question"]["rules"] for c in _cases()}
    assert {
        "levant",
        "romme",
        "gulf",
        "classic",
        "partnership",
        "saudi",
        "saudi_partnership",
    } <= named
