"""The referee protocol: every preset and variant is accepted, and nothing crashes it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hand_rummy as hr
from hand_rummy.referee import ASKS, answer, answer_json
from hand_rummy.rules import standalone


def _question(preset: str, variants: list[str], **rest: Any) -> dict[str, Any]:
    ruleset = hr.build(preset, variants)
    question: dict[str, Any] = {"rules": preset, "variants": variants, **rest}
    if ruleset.uses_indicator:
        question["indicator"] = "8C"
    return question


@pytest.mark.parametrize(
    ("preset", "variant"),
    [(p, v.name) for p in hr.PRESETS for v in hr.variants_for(p)] + [(p, None) for p in hr.PRESETS],
)
def test_every_preset_and_variant_is_judged(preset: str, variant: str | None) -> None:
    """Every preset with each of its named variants answers a plain run of hearts."""
    variants = list(standalone(preset, variant)) if variant else []
    reply = answer(_question(preset, variants, ask="meld", cards=["6H", "7H", "8H"]))
    assert "error" not in reply, reply
    assert reply["ok"] is True
    assert reply["points"] == 21


def test_question_id_is_echoed() -> None:
    reply = answer({"id": 7, "rules": "classic", "ask": "hand_value", "cards": ["KS"]})
    assert reply == {"id": 7, "protocol": "hand-rummy/referee/1", "points": 10}


def test_ambiguous_wild_is_its_own_outcome() -> None:
    """RULES-MATRIX L3: a wild whose role changes the answer is not guessed."""
    reply = answer(
        {
            "rules": "romme",
            "variants": ["one_natural_three_jokers"],
            "ask": "meld",
            "cards": ["7H", "JK", "JK", "JK"],
        }
    )
    assert reply["ok"] is False
    assert [v["code"] for v in reply["violations"]] == ["WILD_ROLE_AMBIGUOUS"]
    readings = {tuple(c["roles"].values()) for c in reply["candidates"]}
    assert ("8H", "9H", "10H") in readings


def test_declared_role_settles_the_ambiguity() -> None:
    reply = answer(
        {
            "rules": "romme",
            "variants": ["one_natural_three_jokers"],
            "ask": "meld",
            "cards": ["7H", "JK", "JK", "JK"],
            "roles": {"1": "8H", "2": "9H", "3": "10H"},
        }
    )
    assert reply["ok"] is True and reply["kind"] == "run"
    # 7 + 8 + 9 + 10: the jokers count as the cards they stand for (002 §The first meld)
    assert reply["points"] == 34


card_text = st.sampled_from([c.ascii for c in hr.CARDS])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=6) | card_text,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)


@given(
    rules=st.sampled_from([*hr.PRESETS, "nope"]),
    ask=st.sampled_from([*ASKS, "other"]),
    fields=st.dictionaries(
        st.sampled_from(
            [
                "cards",
                "melds",
                "meld",
                "roles",
                "players",
                "went_out",
                "finish",
                "context",
                "indicator",
                "variants",
                "required",
                "teams",
                "last_discard",
                "melded",
                "demoted",
            ]
        ),
        json_values,
        max_size=5,
    ),
)
def test_no_question_crashes_the_referee(rules: str, ask: str, fields: dict[str, Any]) -> None:
    """A malformed question gets an error answer, never an exception or an internal error."""
    reply = answer({"rules": rules, "ask": ask, **fields})
    assert isinstance(reply, dict)
    if "error" in reply:
        assert reply["error"]["code"] != "INTERNAL_ERROR", reply


@given(st.text(max_size=40))
def test_no_document_crashes_the_referee(text: str) -> None:
    reply, clean = answer_json(text)
    assert isinstance(reply, (dict, list))
    if not clean and isinstance(reply, dict):
        assert reply["error"]["code"] != "INTERNAL_ERROR"


def test_every_answer_names_the_protocol() -> None:
    """docs/referee.rst §Protocol version: answers, errors and whole-text errors alike."""
    expected = "hand-rummy/referee/1"
    assert answer({"rules": "classic", "ask": "hand_value", "cards": "KS"})["protocol"] == expected
    assert answer({"rules": "classic", "ask": "fly"})["protocol"] == expected
    assert answer([1, 2])["protocol"] == expected
    replies, clean = answer_json('[{"rules": "romme", "ask": "meld", "cards": "7H 8H 9H"}, 3]')
    assert not clean and [r["protocol"] for r in replies] == [expected, expected]
    for text in ("{", b"\xff", "[" * 40):
        reply, clean = answer_json(text)
        assert not clean and reply["protocol"] == expected and "error" in reply
    # the id stays in front, so that answers line up with their questions
    assert list(answer({"id": "q", "rules": "classic", "ask": "hand_value", "cards": []})) == [
        "id",
        "protocol",
        "points",
    ]


# --- fields that do not apply are refused, never ignored ---------------------------------


def test_last_opening_is_refused_where_the_opening_bar_is_fixed() -> None:
    """docs/referee.rst: 'last_opening' is for rules where each opening must beat the last one.

    Rommé's opening is a fixed 40 (002), Levant's a fixed 51 (000): the field would be
    ignored there, so it is refused.
    """
    romme = {"rules": "romme", "ask": "opening", "melds": ["5H 5S 5D"], "last_opening": 51}
    assert answer(romme)["error"] == {
        "code": "BAD_FIELD",
        "message": "'last_opening' applies only where each opening must beat the last one, "
        "not under romme: Each player's first meld of a round is worth at least 40 points.",
    }
    levant = {**romme, "rules": "levant", "indicator": "8C"}
    assert answer(levant)["error"]["code"] == "BAD_FIELD"
    assert "not under levant" in answer(levant)["error"]["message"]


@pytest.mark.parametrize(
    ("rules", "variants"),
    [("saudi", []), ("saudi_partnership", []), ("levant", ["beat_last_opening"])],
)
def test_last_opening_raises_the_bar_where_openings_beat_the_last(
    rules: str, variants: list[str]
) -> None:
    """004 Saudi, Saudi Partnership and 000's Higher-minimum variant: after 51 the next
    opening needs more than 51, so 52; the run 9♥-K♥ is 9 + 10 + 10 + 10 + 10 = 49."""
    reply = answer(
        _question(rules, variants, ask="opening", melds=["9H 10H JH QH KH"], last_opening=51)
    )
    assert (reply["ok"], reply["points"], reply["required"]) == (False, 49, 52)


def test_required_and_last_opening_together_are_refused() -> None:
    """'required' sets the bar outright, so a 'last_opening' beside it would be ignored."""
    question = {"rules": "saudi", "ask": "opening", "melds": ["9H 10H JH QH KH"]}
    assert answer({**question, "required": 30})["required"] == 30
    reply = answer({**question, "required": 30, "last_opening": 51})
    assert reply["error"] == {
        "code": "BAD_FIELD",
        "message": "give 'required' or 'last_opening', not both: 'required' sets the bar",
    }
