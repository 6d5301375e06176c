"""The referee against hostile input: the failures found by fuzzing, kept as regressions, and
a bounded fuzz of mutated conformance questions (``benchmarks/fuzz_referee.py`` runs longer).

What every answer must be: JSON (no NaN), never ``INTERNAL_ERROR``, and within the referee's
limits: a question beyond them is refused with ``LIMIT`` rather than answered slowly.
"""

from __future__ import annotations

import copy
import decimal
import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hand_rummy as hr
from hand_rummy.position import FillBudget, position_state
from hand_rummy.referee import LIMITS, LimitError, answer, answer_json
from hand_rummy.serialize import (
    action_to_json,
    match_from_json,
    match_to_json,
    position_form_from_json,
    position_to_json,
    round_from_json,
    round_to_json,
    view_from_json,
    view_to_json,
)

VECTORS = Path(__file__).parent.parent / "src" / "hand_rummy" / "conformance" / "vectors"


def _code(reply: Any) -> str | None:
    error = reply.get("error") if isinstance(reply, dict) else None
    return error["code"] if error else None


def _error(text: str | bytes) -> dict[str, Any]:
    reply, clean = answer_json(text)
    assert not clean
    assert isinstance(reply, dict)
    error: dict[str, Any] = reply["error"]
    return error


def _limit(text: str | bytes) -> str:
    error = _error(text)
    assert error["code"] == "LIMIT", error
    assert error["limit"] in error["message"] and str(error["max"]) in error["message"]
    name: str = error["limit"]
    return name


def _gulf(moves: int) -> hr.Round:
    """A legal Gulf round of ``moves`` draws and discards: the stock is reshuffled for ever."""
    game = hr.Round.deal(hr.rulesets.gulf, 4, seed=0)
    top = None
    while len(game.history) < moves:
        if game.phase is hr.Phase.DRAW:
            top = game.stock[-1]
            game = game.apply(hr.DrawStock())
        elif game.phase is hr.Phase.PLAY and top is not None:
            game = game.apply(hr.Discard(top))
        else:
            game = game.apply(hr.PassRedeal())
    return game


def _romme_jokers() -> hr.Round:
    """The Rommé dealer starts holding a run of hearts and four jokers: 97,205 legal actions."""
    ruleset = hr.rulesets.romme
    mine = list(hr.parse_cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH JK JK JK JK"))
    pool = [p.card for p in ruleset.deck.cards()]
    for card in mine:
        pool.remove(card)
    return hr.Round.from_deal(ruleset, [mine, pool[:13]], pool[13:])


# --- the JSON text ---------------------------------------------------------------------


def test_deep_nesting_is_a_limit() -> None:
    """Was a RecursionError traceback (10,000 nested brackets)."""
    assert _limit("[" * 10_000 + "]" * 10_000) == "depth"
    assert _limit('{"a":' * 3000 + "1" + "}" * 3000) == "depth"
    assert _limit("[" * 10_000) == "depth"
    deep: Any = 1
    for _ in range(LIMITS.depth - 1):
        deep = [deep]
    question = {"rules": "classic", "ask": "hand_value", "cards": [], "id": deep}
    assert answer_json(json.dumps(question))[1] is True
    question["id"] = [deep]
    assert _limit(json.dumps(question)) == "depth"


def test_long_integer_is_a_limit() -> None:
    """Was a ValueError traceback (a 5,000-digit integer)."""
    text = '{"rules": "classic", "ask": "hand_value", "cards": [], "id": %s}'
    assert _limit(text % ("9" * 5000)) == "integer_digits"
    assert _limit(text % ("-" + "9" * 41)) == "integer_digits"
    # the message counts digits, not the minus sign (it said 42 here)
    assert _error(text % ("-" + "9" * 41))["message"].startswith("an integer has 41 digits;")
    assert answer_json(text % ("-" + "9" * 40)) == (
        {"id": -int("9" * 40), "protocol": "hand-rummy/referee/1", "points": 0},
        True,
    )


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "-1e400"])
def test_nan_and_infinity_are_not_json(number: str) -> None:
    """NaN was echoed in the answer's ``id``, which made the answer invalid JSON."""
    text = '{"rules": "classic", "ask": "meld", "id": ' + number + "}"
    assert _error(text)["code"] == "BAD_JSON"


def test_lone_surrogate_is_answered_and_printable() -> None:
    """A lone surrogate is valid JSON text; echoing it broke the output (UnicodeEncodeError)."""
    reply, clean = answer_json(
        '{"id": "\\ud800", "rules": "classic", "ask": "hand_value", "cards": []}'
    )
    assert clean and reply == {"id": "\ud800", "protocol": "hand-rummy/referee/1", "points": 0}
    assert json.loads(json.dumps(reply)) == reply


def test_lone_surrogates_in_an_array_are_answered_each() -> None:
    """Found by a fuzzer: the size of an array's answers was counted as strict UTF-8, which
    a lone surrogate in an answer (an echoed ``id``, a message quoting a field) broke, so
    the whole array came back as one INTERNAL_ERROR."""
    text = (
        '[{"rules": "classic", "ask": "hand_value", "cards": []},'
        ' {"id": "\\udfff", "rules": "classic", "ask": "hand_value", "cards": []},'
        ' {"rules": "classic", "ask": "round_score", "players": [{"hand": []}, {"hand": []}],'
        ' "went_out": "\\ud800"}]'
    )
    replies, clean = answer_json(text)
    assert not clean and isinstance(replies, list) and len(replies) == 3
    assert replies[0] == {"protocol": "hand-rummy/referee/1", "points": 0}
    assert replies[1] == {"id": "\udfff", "protocol": "hand-rummy/referee/1", "points": 0}
    assert replies[2]["error"]["code"] == "BAD_FIELD"
    assert "\ud800" in replies[2]["error"]["message"]


def test_bytes_that_are_not_utf8_are_bad_json() -> None:
    error = _error(b'{"rules": "classic", "ask": "meld", "cards": "7H\xff"}')
    assert error["code"] == "BAD_JSON" and "0xff at offset 48" in error["message"]
    assert _error(b'{"id": "\xed\xa0\x80"}')["code"] == "BAD_JSON"  # a surrogate in UTF-8


def test_byte_order_mark_is_accepted() -> None:
    text = b'\xef\xbb\xbf{"rules": "classic", "ask": "hand_value", "cards": ["KS"]}'
    assert answer_json(text) == ({"protocol": "hand-rummy/referee/1", "points": 10}, True)


def test_text_beyond_the_size_limit() -> None:
    pad = "x" * LIMITS.text_bytes
    text = json.dumps({"rules": "classic", "ask": "hand_value", "cards": [], "note": pad})
    assert _limit(text) == "text_bytes"
    assert _limit(text.encode()) == "text_bytes"
    # counted in UTF-8 bytes: a third as many three-byte characters is as long
    assert _limit('"%s"' % ("♥" * (LIMITS.text_bytes // 3 + 1))) == "text_bytes"


def test_array_beyond_the_question_limit() -> None:
    one = {"rules": "classic", "ask": "hand_value", "cards": ["KS"]}
    assert _limit(json.dumps([one] * (LIMITS.questions + 1))) == "questions"
    replies, clean = answer_json(json.dumps([one] * LIMITS.questions))
    assert clean and len(replies) == LIMITS.questions


# --- internal errors ------------------------------------------------------------------


@pytest.mark.parametrize("key", ["²", "١", "01", "-1", " 1", "1" + "0" * 5000, "3"])
def test_role_key_that_is_not_a_position(key: str) -> None:
    """ "²".isdigit() is true but int("²") fails: it was an INTERNAL_ERROR."""
    question = {
        "rules": "classic",
        "ask": "meld",
        "cards": ["7H", "JK", "9H"],
        "roles": {key: "8H"},
    }
    assert _code(answer(question)) == "BAD_FIELD"


def test_history_entry_with_a_list_for_its_type() -> None:
    """{"type": []} raised TypeError (unhashable) inside action_from_json."""
    doc = round_to_json(hr.Round.deal(hr.rulesets.romme, 2, seed=1))
    doc["history"] = [{"type": []}]
    reply = answer({"ask": "legal_actions", "round": doc})
    assert _code(reply) == "BAD_ROUND" and "history[0].type" in reply["error"]["message"]
    doc["history"] = []
    assert _code(answer({"ask": "action", "round": doc, "action": {"type": {}}})) == "BAD_ACTION"


def test_python_values_that_are_not_json() -> None:
    """answer() is for decoded JSON, but a Python caller's objects get an answer too."""
    assert _code(answer(object())) == "BAD_QUESTION"
    assert _code(answer({1: "meld"})) == "BAD_QUESTION"
    assert _code(answer({"rules": "classic", "ask": "meld", "cards": object()})) == "BAD_FIELD"
    tupled = answer({"rules": "classic", "ask": "meld", "cards": ("7H", "8H", "9H")})
    # named as a tuple, not written as the list the message asks for
    assert tupled["error"] == {
        "code": "BAD_FIELD",
        "message": "'cards' must be a list or a string, not a tuple",
    }
    nan = {"rules": "classic", "ask": "round_score", "players": [], "went_out": float("nan")}
    assert _code(answer(nan)) == "BAD_FIELD"
    assert _code(answer_json(None)[0]) == "BAD_JSON"  # type: ignore[arg-type]
    assert _code(answer_json(5)[0]) == "BAD_JSON"  # type: ignore[arg-type]
    # values JSON cannot hold were echoed in an answer that could not then be written, and
    # 200 MB of bytes in an id passed the limit on the text (a 2 MB string did not)
    meld = {"rules": "classic", "ask": "hand_value", "cards": "KS"}
    for value in ({1, 2}, b"x" * (200 << 20), decimal.Decimal("1.5"), 1 + 2j, object()):
        error = answer({**meld, "id": value})["error"]
        assert error["code"] == "BAD_FIELD", error
        assert error["message"].endswith("which JSON cannot hold")
    assert answer({**meld, "id": None})["id"] is None


class _ValuesRaise(dict):  # type: ignore[type-arg]
    def values(self) -> Any:
        raise ValueError("boom")


class _IterRaises(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        raise RuntimeError("boom")


class _LenRaises(str):
    def __len__(self) -> int:
        raise OverflowError("boom")


class _UnprintableError(Exception):
    def __str__(self) -> str:
        raise ValueError("no text")


class _GetRaises(dict):  # type: ignore[type-arg]
    def get(self, *args: Any) -> Any:
        raise _UnprintableError


def test_python_objects_that_fail_when_read_get_an_answer() -> None:
    """answer() never raises, but a dict or list subclass whose iteration raised, or a str
    subclass whose len() did, made the check of the question's size raise out of it; and an
    error that could not be printed escaped the handler that answers INTERNAL_ERROR."""
    meld = {"rules": "romme", "ask": "meld", "cards": ["7H", "8H", "9H"]}
    for question in (
        _ValuesRaise(meld),
        {**meld, "note": _IterRaises([1])},
        {**meld, "id": _LenRaises("x")},
    ):
        error = answer(question)["error"]
        assert error["code"] == "BAD_QUESTION", error
        assert "boom" in error["message"]
    error = answer(_GetRaises(meld))["error"]
    assert error["code"] == "INTERNAL_ERROR" and "_UnprintableError" in error["message"]


class _ReprRaises(str):
    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __str__(self) -> str:
        raise RuntimeError("no str")


def test_a_field_name_whose_repr_fails_is_named_by_its_text() -> None:
    """A field name or an ask that is a str subclass whose repr() fails was named in the
    message with repr(), which raised: answer() said INTERNAL_ERROR, and a document reader
    let the RuntimeError out."""
    meld = {"rules": "romme", "ask": "meld", "cards": ["7H", "8H", "9H"]}
    error = answer({**meld, _ReprRaises("colour"): 1})["error"]
    assert error["code"] == "BAD_FIELD" and "'colour'" in error["message"], error
    error = answer({**meld, "ask": _ReprRaises("fly")})["error"]
    assert error["code"] == "UNKNOWN_ASK" and "'fly'" in error["message"], error
    document = view_to_json(hr.Round.deal(hr.rulesets.romme, 2, seed=1).view(0))
    with pytest.raises(hr.InvalidStateError, match="unknown field 'colour'"):
        view_from_json({**document, _ReprRaises("colour"): 1})


@pytest.mark.parametrize("field", ["id", "offset", "went_out", "seed"])
def test_python_integers_are_held_to_the_json_limit(field: str) -> None:
    """From Python, an integer of 5,000 digits was an INTERNAL_ERROR (Python will not print
    it in a message) or, as an ``id``, an answer that could not be written as JSON; from
    JSON text it is refused with the limit on digits, and now from Python too."""
    huge = 10**5000
    questions = {
        "id": {"rules": "classic", "ask": "meld", "cards": "7H 8H 9H", "id": huge},
        "offset": {"ask": "legal_actions", "offset": -huge, "round": {}},
        "went_out": {"rules": "classic", "ask": "round_score", "players": [], "went_out": huge},
        "seed": {"ask": "action", "action": {}, "position": {"seed": huge}},
    }
    error = answer(questions[field])["error"]
    assert (error["code"], error["limit"]) == ("LIMIT", "integer_digits")
    nested = {"rules": "classic", "ask": "meld", "cards": "7H 8H 9H", "roles": {2: "9H"}}
    assert _code(answer(nested)) == "BAD_QUESTION"
    deep: list[Any] = []
    for _ in range(LIMITS.depth + 1):
        deep = [deep]
    assert answer({"rules": "classic", "ask": "meld", "cards": deep})["error"]["limit"] == "depth"


def test_python_questions_are_held_to_the_json_text_limit() -> None:
    """From Python, a question can share one list many times over: 24 lists, each holding
    the last one twice, are 2**24 values as JSON text, and the check of the question walked
    them all (35 s). Now each list is walked once and the question is refused as longer than
    the text a JSON question may have; so is one long string, and a list that holds itself
    nests too deep. A list shared within the limits is still answered."""
    note: list[Any] = []
    for _ in range(24):
        note = [note, note]
    meld = {"rules": "classic", "ask": "meld", "cards": "7H 8H 9H"}
    assert answer({**meld, "note": note})["error"]["limit"] == "text_bytes"
    assert answer({**meld, "note": "x" * LIMITS.text_bytes})["error"]["limit"] == "text_bytes"
    loop: list[Any] = []
    loop.append(loop)
    assert answer({**meld, "note": loop})["error"]["limit"] == "depth"
    shared = ["x"]
    deep: list[Any] = shared
    for _ in range(LIMITS.depth - 3):
        deep = [deep]
    assert answer({**meld, "note": [shared, deep]})["roles"] == {}
    assert answer({**meld, "note": [shared, [deep]]})["error"]["limit"] == "depth"


# --- values that were accepted -----------------------------------------------------------


@pytest.mark.parametrize("value", ["false", 0, 1, None, [], "true"])
def test_context_values_must_be_booleans(value: Any) -> None:
    """ "false" was read as true: any non-empty string is truthy."""
    opening = {"rules": "romme", "ask": "opening", "melds": ["7H 8H 9H"]}
    assert _code(answer({**opening, "context": {"going_out": value}})) == "BAD_FIELD"
    layoff = {"rules": "classic", "ask": "layoff", "meld": "7H 8H 9H", "cards": ["10H"]}
    assert _code(answer({**layoff, "context": {"going_out": value}})) == "BAD_FIELD"


def test_unknown_context_keys_are_refused() -> None:
    opening = {"rules": "romme", "ask": "opening", "melds": ["7H 8H 9H"]}
    reply = answer({**opening, "context": {"goingout": True}})
    assert _code(reply) == "BAD_FIELD" and "'goingout'" in reply["error"]["message"]
    assert answer({**opening, "context": {"going_out": True, "hand": False}})["ok"] is False


def test_more_copies_than_the_deck_holds() -> None:
    assert _code(answer({"rules": "classic", "ask": "hand_value", "cards": ["KS"] * 3})) == (
        "BAD_FIELD"
    )
    assert answer({"rules": "classic", "ask": "hand_value", "cards": ["KS"] * 2}) == {
        "protocol": "hand-rummy/referee/1",
        "points": 20,
    }
    # the turned indicator is one of the two 8♣
    levant = {"rules": "levant", "indicator": "8C", "ask": "hand_value"}
    assert _code(answer({**levant, "cards": ["8C", "8C"]})) == "BAD_FIELD"
    assert "points" in answer({**levant, "cards": ["8C"]})
    score = {
        "rules": "classic",
        "ask": "round_score",
        "went_out": 0,
        "players": [{"hand": [], "opened": True}, {"hand": ["JK", "JK"], "opened": True}],
    }
    assert "scores" in answer(score)
    assert _code(answer({**score, "last_discard": "JK"})) == "BAD_FIELD"
    assert _code(answer({**score, "melded": ["JK"]})) == "BAD_FIELD"


@pytest.mark.parametrize(
    "teams",
    [
        [[0, 1, 2, 3]],
        [[0, 2], [1]],
        [[False, True], [2, 3]],
        [[0, 2], [1, True]],
        [[0, 1, 2, 3], []],
        [[0, 2], "13"],
        [[0, 2], [1, 3.0]],
    ],
)
def test_teams_that_are_not_teams_of_seats(teams: Any) -> None:
    players = [{"hand": [card], "opened": True} for card in ("KS", "5D", "7H", "2C")]
    question = {"rules": "partnership", "ask": "round_score", "went_out": None, "players": players}
    assert "scores" in answer({**question, "teams": [[0, 2], [1, 3]]})
    assert _code(answer({**question, "teams": teams})) == "BAD_FIELD"
    # under rules without teams, even well-formed teams are refused
    classic = {**question, "rules": "classic", "players": players[:2]}
    assert _code(answer({**classic, "teams": [[0], [1]]})) == "BAD_FIELD"


def test_one_player_game_with_teams() -> None:
    """Teams used to lift the rules' player count."""
    question = {
        "rules": "classic",
        "ask": "round_score",
        "went_out": None,
        "players": [{"hand": ["KS"], "opened": True}],
        "teams": [[0]],
    }
    assert _code(answer(question)) == "BAD_FIELD"


def test_unknown_player_field() -> None:
    players = [{"hand": [], "opened": True}, {"hand": ["KS"], "open": True}]
    question = {"rules": "classic", "ask": "round_score", "went_out": 0, "players": players}
    assert _code(answer(question)) == "BAD_FIELD"


# --- the cost limits -------------------------------------------------------------------------


def test_legal_actions_on_a_crafted_romme_hand_are_paged() -> None:
    """A 2 KB question used to list 63,375 actions (47 s); here the hand has 97,205."""
    game = _romme_jokers()
    doc = round_to_json(game)
    first = answer({"ask": "legal_actions", "round": doc})
    assert (first["offset"], first["limit"], first["more"]) == (0, LIMITS.actions, True)
    assert len(first["actions"]) == LIMITS.actions
    second = answer({"ask": "legal_actions", "round": doc, "offset": 1000, "limit": 1000})
    assert second["more"] is True
    expected = itertools.islice(game.legal_actions(), 2 * LIMITS.actions)
    assert first["actions"] + second["actions"] == [action_to_json(a) for a in expected]


def test_a_field_named_twice_is_refused() -> None:
    """Python's reader keeps the last of two values, others the first: the question
    ``"ask": "legal_actions", "ask": "meld"`` was answered as a meld question."""
    text = '{"rules": "classic", "ask": "legal_actions", "ask": "meld", "cards": "7H 8H 9H"}'
    reply, clean = answer_json(text)
    assert not clean and reply["error"] == {
        "code": "BAD_JSON",
        "message": "an object names the field 'ask' twice",
    }
    # deeper down, in an array: the text as a whole cannot be read
    roles = '{"1": "8H", "1": "9H"}'
    inner = f'[{{"rules": "classic", "ask": "meld", "cards": "7H 8H 9H", "roles": {roles}}}]'
    reply, clean = answer_json(inner)
    assert not clean and reply["error"]["code"] == "BAD_JSON"


def test_an_array_lists_about_one_window_of_actions() -> None:
    """Each page of a crafted hand is within the limits, but an array of a hundred of them
    (43 KB) took 18 s and 348 MiB and printed 23 MB: the array's pages are now bounded
    together, and the questions past the bound are refused, each on its own."""
    question = {"ask": "legal_actions", "round": round_to_json(_romme_jokers())}
    small = {"rules": "classic", "ask": "hand_value", "cards": "KS 5D"}
    replies, clean = answer_json(json.dumps([question] * 5 + [small]))
    assert not clean
    pages = LIMITS.array_actions // LIMITS.actions
    assert all(len(r["actions"]) == LIMITS.actions for r in replies[:pages])
    for refused in replies[pages:5]:
        assert refused["error"]["code"] == "LIMIT"
        assert (refused["error"]["limit"], refused["error"]["max"]) == ("array_actions", 3000)
    assert replies[5]["points"] == 15  # other questions are answered as ever
    # a page reaching far counts as far as it reached
    far = {**question, "offset": 2500, "limit": 500}
    replies, _ = answer_json(json.dumps([far, question]))
    assert len(replies[0]["actions"]) == 500 and replies[1]["error"]["limit"] == "array_actions"


def test_an_array_of_hopeless_fills_is_bounded_together() -> None:
    """A Levant position under the 91 bar where the 5♣ just taken must go down, thirteen low
    cards listed and one left to fill: no fill can make the meld, so each copy of it tries
    every fill (1,023 searches after the first). In one array they share ``array_fills``:
    four copies use 4,092 of the 4,096, the fifth runs out, and so does every later one
    that needs a fill; a position whose first fill will do is answered as ever."""
    hopeless = hr.Position(
        hr.build("levant", ["opening_91"]),
        players=[hr.PositionSeat("5C 2D 3H 4S 6D 7H 8S 9C 2H 3S 4D 6C 7S", 15), 14, 14, 14],
        turn=0,
        phase=hr.Phase.PLAY,
        indicator="3C",
        current=hr.PositionTurn(taken="5C"),
    )
    question = {"ask": "legal_actions", "position": position_to_json(hopeless)}
    fine = {
        "ask": "legal_actions",
        "position": position_to_json(
            attrs.evolve(hopeless, current=hr.PositionTurn(), discards="KD")
        ),
    }
    replies, clean = answer_json(json.dumps([question] * 7 + [fine]))
    assert not clean
    for reply in replies[:4]:
        assert reply["error"]["code"] == "BAD_POSITION"
        assert "none of 1024 fills of seat 0's unlisted cards" in reply["error"]["message"]
    for reply in replies[4:7]:
        assert (reply["error"]["limit"], reply["error"]["max"]) == ("array_fills", 4096)
    assert replies[7]["actions"]  # no obligation: the first fill leaves moves
    # alone, each question has every fill
    assert answer(question)["error"]["code"] == "BAD_POSITION"


def test_legal_actions_paging_fields() -> None:
    doc = round_to_json(hr.Round.deal(hr.rulesets.romme, 2, seed=1))
    every = answer({"ask": "legal_actions", "round": doc})
    assert every["more"] is False and every["actions"]
    some = answer({"ask": "legal_actions", "round": doc, "offset": 1, "limit": 2})
    assert some == {
        "protocol": "hand-rummy/referee/1",
        "actions": every["actions"][1:3],
        "offset": 1,
        "limit": 2,
        "more": True,
    }
    none = answer({"ask": "legal_actions", "round": doc, "limit": 0})
    assert none == {
        "protocol": "hand-rummy/referee/1",
        "actions": [],
        "offset": 0,
        "limit": 0,
        "more": True,
    }
    past = answer({"ask": "legal_actions", "round": doc, "offset": 2000})
    assert past == {
        "protocol": "hand-rummy/referee/1",
        "actions": [],
        "offset": 2000,
        "limit": 1000,
        "more": False,
    }
    base = {"ask": "legal_actions", "round": doc}
    assert _code(answer({**base, "limit": LIMITS.actions + 1})) == "LIMIT"
    assert answer({**base, "offset": LIMITS.action_window, "limit": 1})["error"]["limit"] == (
        "action_window"
    )
    for bad in ({"offset": -1}, {"limit": -1}, {"offset": "1"}, {"limit": True}):
        assert _code(answer({**base, **bad})) == "BAD_FIELD"


def test_meld_of_a_million_cards() -> None:
    """Was 31 s, 956 MiB and a 267 MB answer (each violation repeated the meld). A million
    cards are more text than a question may be, from Python as from JSON; a few hundred are
    within it, and more cards than a deck holds."""
    faces = [c.ascii for c in hr.CARDS]
    cards = [faces[i % len(faces)] for i in range(10**6)]
    for held in (cards, " ".join(cards)):
        reply = answer({"rules": "romme", "ask": "meld", "cards": held})
        assert reply["error"]["limit"] == "text_bytes"
    assert _limit(json.dumps({"rules": "romme", "ask": "meld", "cards": cards})) == "text_bytes"
    for held in (cards[:500], " ".join(cards[:500])):
        reply = answer({"rules": "romme", "ask": "meld", "cards": held})
        assert reply["error"]["limit"] == "cards"


def test_card_lists_at_the_limit() -> None:
    full = [p.card.ascii for p in hr.rulesets.romme.deck.cards()]
    assert len(full) == LIMITS.cards
    reply = answer({"rules": "romme", "ask": "meld", "cards": full})
    assert reply["ok"] is False and "error" not in reply
    assert _code(answer({"rules": "romme", "ask": "meld", "cards": [*full, "7H"]})) == "LIMIT"
    # a list of cards at the limit, but more cards than a hand holds (13, and the draw)
    reply = answer({"rules": "romme", "ask": "hand_value", "cards": full})
    assert _code(reply) == "BAD_FIELD" and "at most 14" in reply["error"]["message"]
    assert answer({"rules": "romme", "ask": "hand_value", "cards": full[:14]})["points"] > 0
    melds = [["7H", "8H", "9H"]] * (LIMITS.melds + 1)
    opening = {"rules": "romme", "ask": "opening", "melds": melds}
    assert answer(opening)["error"]["limit"] == "melds"


def test_descriptions_no_round_reaches_are_refused() -> None:
    """The stateless questions held what no round could: a classic hand of 40 cards (004:
    14 cards dealt, one drawn), an opening of 39, a Rommé Hand after another player had
    melded (002 §Scoring: "before any other player has melded"), a Gulf Hand with a final
    discard (003: a Hand melds every card), a Saudi last opening of 3 (below the 51 of
    the first) or of 10**30. Each is now BAD_FIELD; one card fewer, or the Hand as its
    rules have it, is answered."""
    suit = [card.ascii for card in hr.CARDS if card.suit is not None][:39]

    def score(rules: str, finish: str, players: list[Any], **more: Any) -> Any:
        question = {"rules": rules, "ask": "round_score", "went_out": 0, "finish": finish}
        return answer({**question, "players": players, **more})

    for held, code in ((suit[:16], "BAD_FIELD"), (suit[:15], None)):
        reply = score("classic", "normal", [{"hand": [], "opened": True}, {"hand": held}])
        assert _code(reply) == code if code else "scores" in reply
    three_runs = [" ".join(suit[:13]), " ".join(suit[13:26]), " ".join(suit[26:39])]
    reply = answer({"rules": "classic", "ask": "opening", "melds": three_runs})
    assert _code(reply) == "BAD_FIELD" and "at most 15" in reply["error"]["message"]
    others = [{"hand": ["KS"], "opened": True}, {"hand": ["5D"], "opened": False}]
    assert _code(score("romme", "hand", [{"hand": [], "opened": False}, *others])) == "BAD_FIELD"
    others[0]["opened"] = False
    assert score("romme", "hand", [{"hand": [], "opened": False}, *others])["factor"] == 2
    gulf = [{"hand": []}, {"hand": ["KS"]}, {"hand": ["5D"]}, {"hand": ["2C"]}]
    assert _code(score("gulf", "hand", gulf, last_discard="5H")) == "BAD_FIELD"
    assert "scores" in score("gulf", "hand", gulf)
    for last, code in ((3, "BAD_FIELD"), (10**30, "BAD_FIELD"), (51, None)):
        question = {"rules": "saudi", "ask": "opening", "last_opening": last}
        reply = answer({**question, "melds": ["9H 10H JH QH", "4S 4D 4C"]})
        assert _code(reply) == code if code else reply["required"] == 52


def test_round_score_with_20000_seats() -> None:
    """40,000 seats were 76 s: team scoring is quadratic in the seats; the rules bound them.
    (As text, 40,000 seats are now longer than a question may be; 20,000 fit.)"""
    players = [{"hand": [], "opened": True}] + [{"hand": ["KS"], "opened": False}] * 19_999
    question = {
        "rules": "saudi_partnership",
        "ask": "round_score",
        "went_out": 0,
        "players": players,
        "teams": [[*range(1, 20_000), 0]],
    }
    reply = answer(question)
    assert _code(reply) == "BAD_FIELD" and "20000" in reply["error"]["message"]


def test_gulf_history_of_20000_moves() -> None:
    """80,000 moves were 17 s of replay: the history is refused before it is read. (As
    text, 80,000 moves are now longer than a question may be; 20,000 fit.)"""
    doc = round_to_json(hr.Round.deal(hr.rulesets.gulf, 4, seed=0))
    del doc["state"]
    doc["history"] = [{"type": "draw"}, {"type": "discard", "card": "KS"}] * 10_000
    reply = answer({"ask": "action", "round": doc, "action": {"type": "draw"}})
    assert reply["error"]["limit"] == "history"


def test_gulf_history_at_the_limit_is_replayed() -> None:
    game = _gulf(LIMITS.history)
    doc = round_to_json(game)
    assert len(doc["history"]) == LIMITS.history
    assert answer({"ask": "action", "round": doc, "action": {"type": "draw"}})["ok"] is True


def test_actions_too_big_to_judge() -> None:
    doc = round_to_json(_romme_jokers())
    meld = {"cards": ["7H", "8H", "9H"]}
    laydown = {"type": "lay_down", "melds": [meld] * (LIMITS.melds + 1)}
    reply = answer({"ask": "action", "round": doc, "action": laydown})
    assert reply["error"]["limit"] == "melds"
    laydown = {"type": "lay_down", "melds": [{"cards": ["7H"] * (LIMITS.cards + 1)}]}
    assert answer({"ask": "action", "round": doc, "action": laydown})["error"]["limit"] == "cards"
    doc["history"] = [laydown]
    assert answer({"ask": "legal_actions", "round": doc})["error"]["limit"] == "cards"
    doc["history"], doc["deal"]["stock"] = [], doc["deal"]["stock"] * 2
    assert answer({"ask": "legal_actions", "round": doc})["error"]["limit"] == "cards"


def test_limit_error_names_the_limit() -> None:
    err = LimitError("history", "'round'.history holds 6000 actions")
    assert err.code == "LIMIT" and err.max == LIMITS.history
    assert err.to_json() == {
        "code": "LIMIT",
        "message": "'round'.history holds 6000 actions; the referee takes at most 5000 (history)",
        "limit": "history",
        "max": 5000,
    }


# --- the command line --------------------------------------------------------------------


def _judge(data: bytes, *args: str) -> tuple[int, Any, str]:
    done = subprocess.run(
        [sys.executable, "-m", "hand_rummy", "judge", "--compact", *args],
        input=data,
        capture_output=True,
        timeout=60,
        check=False,
    )
    out = done.stdout.decode("utf-8")
    assert out.count("\n") == 1 and out.endswith("\n"), out[:200]
    return done.returncode, json.loads(out), done.stderr.decode("utf-8", "replace")


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'{"rules": "classic", "ask": "meld", "cards": "7H \xff"}', "BAD_JSON"),
        (b"[" * 100_000, "LIMIT"),
        (b'{"rules": "classic", "ask": "meld", "id": ' + b"7" * 5000 + b"}", "LIMIT"),
        (b'{"rules": "classic", "ask": "meld", "id": NaN}', "BAD_JSON"),
        (b'{"note": "' + b"x" * (2 * LIMITS.text_bytes) + b'"}', "LIMIT"),
        (b"", "BAD_JSON"),
    ],
)
def test_judge_answers_bad_input_with_one_json_object(data: bytes, code: str) -> None:
    status, reply, err = _judge(data)
    assert status == 2 and reply["error"]["code"] == code
    assert "Traceback" not in err


def test_judge_prints_a_lone_surrogate_as_an_escape(tmp_path: Path) -> None:
    question = b'{"id": "\\ud800", "rules": "classic", "ask": "hand_value", "cards": ["KS"]}'
    status, reply, err = _judge(question)
    assert (status, reply, err) == (
        0,
        {"id": "\ud800", "protocol": "hand-rummy/referee/1", "points": 10},
        "",
    )
    path = tmp_path / "q.json"
    path.write_bytes(b"\xff" + question)
    status, reply, err = _judge(b"", str(path))
    assert status == 2 and reply["error"]["code"] == "BAD_JSON" and err == ""


def test_judge_escapes_only_the_characters_it_cannot_print() -> None:
    """One lone surrogate in an array made every non-ASCII character of the whole output an
    escape; the other answers' é and 😀 are now printed as they are."""
    question = (
        '[{"id": "é😀", "rules": "classic", "ask": "hand_value", "cards": ["KS"]},'
        ' {"id": "\\ud800", "rules": "classic", "ask": "hand_value", "cards": ["KS"]}]'
    ).encode()

    def printed(encoding: str) -> bytes:
        return subprocess.run(
            [sys.executable, "-m", "hand_rummy", "judge", "--compact"],
            input=question,
            capture_output=True,
            timeout=60,
            check=True,
            env={**os.environ, "PYTHONIOENCODING": encoding},
        ).stdout

    out = printed("utf-8").decode("utf-8")
    assert '"id": "é😀"' in out and '"id": "\\ud800"' in out
    assert [a["id"] for a in json.loads(out)] == ["é😀", "\ud800"]
    # where the output takes ASCII alone, the same JSON comes as escapes
    ascii_only = printed("ascii")
    assert ascii_only.isascii()
    assert [a["id"] for a in json.loads(ascii_only)] == ["é😀", "\ud800"]


# --- fuzzing ----------------------------------------------------------------------------------


def _seeds() -> list[Any]:
    seeds = []
    for path in sorted(VECTORS.glob("*.json")):
        seeds += [case["question"] for case in json.loads(path.read_text(encoding="utf-8"))]
    rng = random.Random(5)
    for preset in hr.PRESETS:
        ruleset = hr.build(preset)
        game = hr.Round.deal(ruleset, ruleset.players.minimum, seed=rng.randrange(100))
        for _ in range(rng.randrange(2, 30)):
            game = game.apply(rng.choice(list(game.legal_actions())))
        doc = round_to_json(game)
        seeds.append({"ask": "legal_actions", "round": doc, "limit": 20})
        seeds.append({"ask": "action", "round": doc, "action": {"type": "draw"}})
    return seeds


SEEDS = _seeds()

ODD: list[Any] = [
    None, True, False, 0, 1, -1, 2, 107, 108, 2**31, -(2**63), 10**40, 0.5, -0.0, "", "x",
    "²", "١", "false", "true", "0", "01", "-1", "10H", "JK", "8C", "1OH", "7H 8H 9H",
    "\ud800", "\x00", "♥", "draw", "lay_down", "levant", "romme", "x" * 200, [], {}, [[]],
    {"type": []}, {"": None}, {"0": "8H"}, {"²": "8H"}, [0, 0], [True], [[0], [1]],
    [[False], [True]], ["JK"] * 5, {"going_out": "false"},
]  # fmt: skip
odd_values = st.sampled_from(ODD).map(copy.deepcopy)  # a mutation may change it in place
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 120) | st.text(max_size=6) | odd_values,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "rules", "variants", "indicator", "ask", "cards", "roles", "demoted", "melds", "required",
    "last_opening", "context", "meld", "card_roles", "players", "went_out", "finish", "melded",
    "last_discard", "teams", "round", "action", "offset", "limit", "type", "history",
]  # fmt: skip


def _slots(value: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    if isinstance(value, dict):
        for key in value:
            out.append((value, key))
            _slots(value[key], out)
    elif isinstance(value, list):
        for index in range(len(value)):
            out.append((value, index))
            _slots(value[index], out)
    return out


@st.composite
def mutated_questions(draw: st.DrawFn) -> Any:
    """A conformance (or round) question with one to three parts changed."""
    question = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        slots = _slots(question, [])
        if not slots:  # every field was deleted
            break
        holder, key = draw(st.sampled_from(slots))
        op = draw(st.sampled_from(["replace", "delete", "add", "repeat", "ask", "wrap"]))
        if op == "replace":
            holder[key] = draw(json_values)
        elif op == "delete" and isinstance(holder, dict):
            del holder[key]
        elif op == "add" and isinstance(holder, dict):
            holder[draw(st.sampled_from(FIELDS))] = draw(json_values)
        elif op == "repeat" and isinstance(holder[key], list):
            holder[key] = holder[key] * draw(st.sampled_from([2, 40, 200]))
        elif op == "ask":
            question["ask"] = draw(st.sampled_from(["meld", "opening", "layoff", "action"]))
        elif op == "wrap":
            holder[key] = [holder[key]]
    return question


def _check(reply: Any) -> None:
    """An answer that is JSON, within the limits, and no internal error."""
    text = json.dumps(reply, allow_nan=False)
    assert json.loads(text) == reply
    for one in reply if isinstance(reply, list) else [reply]:
        assert isinstance(one, dict)
        assert _code(one) != "INTERNAL_ERROR", one
        if "error" in one:
            assert len(one["error"]["message"]) <= 1000
        assert len(one.get("actions", ())) <= LIMITS.actions
        assert len(one.get("meld") or ()) <= LIMITS.cards
        assert len(one.get("melds", ())) <= LIMITS.melds


_fuzz = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_fuzz
@given(mutated_questions(), st.booleans())
def test_fuzz_mutated_questions(question: Any, as_bytes: bool) -> None:
    text = json.dumps(question)  # NaN and surrogates (as escapes) may be in it
    reply, clean = answer_json(text.encode() if as_bytes else text)
    _check(reply)
    assert clean == ("error" not in reply)


@_fuzz
@given(mutated_questions(), st.data())
def test_fuzz_mutated_text(question: Any, data: st.DataObject) -> None:
    raw = json.dumps(question).encode()
    at = data.draw(st.integers(0, len(raw)))
    junk = data.draw(
        st.sampled_from([b"", b"\xff", b"[", b"]", b'"', b"{", b",", b"NaN", b"9" * 50, b"\\"])
    )
    cut = data.draw(st.integers(0, 3))
    reply, _ = answer_json(raw[:at] + junk + raw[at + cut :])
    _check(reply)


@_fuzz
@given(json_values)
def test_fuzz_any_json_value(value: Any) -> None:
    _check(answer_json(json.dumps(value))[0])
    if isinstance(value, dict):
        _check(answer(value))


def _documents() -> list[tuple[str, Any]]:
    docs: list[tuple[str, Any]] = []
    rng = random.Random(9)
    for preset in ("levant", "romme", "gulf"):
        ruleset = hr.build(preset)
        game = hr.Round.deal(ruleset, ruleset.players.minimum, seed=3)
        for _ in range(20):
            game = game.apply(rng.choice(list(game.legal_actions())))
        docs.append(("round", round_to_json(game)))
        docs.append(("view", view_to_json(game.view(game.turn))))
        match = hr.Match.new(ruleset, ruleset.players.minimum, seed=3, length=2, custom_length=True)
        for _ in range(10):
            assert match.current is not None
            match = match.apply(rng.choice(list(match.current.legal_actions())))
        docs.append(("match", match_to_json(match)))
    return docs


DOCUMENTS = _documents()
READERS = {"round": round_from_json, "view": view_from_json, "match": match_from_json}


@st.composite
def mutated_documents(draw: st.DrawFn) -> tuple[str, Any]:
    kind, doc = draw(st.sampled_from(DOCUMENTS))
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 2))):
        holder, key = draw(st.sampled_from(_slots(doc, [])))
        if draw(st.booleans()) or not isinstance(holder, dict):
            holder[key] = draw(json_values)
        else:
            del holder[key]
    return kind, doc


@settings(max_examples=200, deadline=None)
@given(mutated_documents())
def test_fuzz_documents_raise_only_library_errors(case: tuple[str, Any]) -> None:
    """Wrong JSON types in a document give InvalidStateError or CardParseError, with a path."""
    kind, doc = case
    try:
        READERS[kind](doc)
    except (hr.InvalidStateError, hr.CardParseError) as err:
        assert str(err)


_OTHER_SEATS = [{"hand_size": 8}, {"hand_size": 12}, {"hand_size": 13}]
_OTHER_MELDS = [
    {"id": 1, "owner": 3, "meld": {"cards": ["4D", "4S", "4C", "4H"]}},
    {"id": 2, "owner": 3, "meld": {"cards": ["QC", "QH", "QS"]}},
]

_GO_OUT_OWED = {
    "format": "hand-rummy/position",
    "version": 1,
    "rules": {
        "preset": "romme",
        "variants": [
            "freed_joker_may_lay_off",
            "hand_all_melded",
            "one_natural_three_jokers",
            "round_the_corner",
        ],
    },
    "players": [{"hand": ["JK", "JK", "JK"], "melded": False, "hand_size": 10}, *_OTHER_SEATS],
    "table": [*_OTHER_MELDS, {"id": 3, "owner": 0, "meld": {"cards": ["9S", "10S", "JS", "QS"]}}],
    "turn": 0,
    "phase": "play",
    "current": {"laid_down": True, "obligation": "go_out"},
    "seed": 723,
    "discards": ["7C"],
}
"""A turn that owes a go-out, three of the mover's ten cards listed: no fill leaves a legal
move, and each fill's search checks dozens of lay-downs against the promise."""


def test_fills_of_a_promised_turn_are_bounded_by_their_work() -> None:
    """Was 1,024 fills each followed by a search checking every lay-down against the promise
    (4-9 s for these 611 bytes, 17 s for an array of them): the fills' work is now counted,
    fills and checks alike, and a position that spends ``fill_work`` is refused with it."""
    question = {"ask": "legal_actions", "position": _GO_OUT_OWED}
    error = answer(question)["error"]
    assert (error["code"], error["limit"], error["max"]) == ("LIMIT", "fill_work", 4096)
    assert error["message"].endswith("(fill_work)")
    # in an array the first spends the array's work too, and the next is refused for that
    replies, clean = answer_json(json.dumps([question, question]))
    assert not clean
    assert [r["error"]["limit"] for r in replies] == ["fill_work", "array_fills"]
    # each fill's checks are counted: a budget of 200 lasts a few fills, not 200
    budget = FillBudget(200)
    with pytest.raises(hr.InvalidStateError, match="the work allowed to fills is used up") as err:
        position_state(position_form_from_json(_GO_OUT_OWED), budget=budget)
    assert budget.spent and int(str(err.value).split("after ")[1].split(" ")[0]) < 20


def test_the_answers_to_an_array_are_bounded_in_size() -> None:
    """An ``opening`` of 36 empty melds (151 bytes) is answered in 32 KB of rule texts: an
    array of a thousand of them was answered in 32 MB (a 560 KB array in 63-86 MB, using
    600 MiB). The answers are now counted as they are written, and the questions after
    ``array_answer_bytes`` of them are refused, each on its own."""
    question = {"rules": "romme", "ask": "opening", "melds": [""] * 36}
    one = len(json.dumps(answer(question), ensure_ascii=False, separators=(",", ":")))
    assert one > 16_000  # alone, it is answered as ever
    replies, clean = answer_json(json.dumps([question] * 1000))
    assert not clean and len(replies) == 1000
    kept = [r for r in replies if "error" not in r]
    refused = replies[len(kept) :]
    assert kept and refused
    for reply in refused:
        assert (reply["error"]["limit"], reply["error"]["max"]) == ("array_answer_bytes", 4 << 20)
    size = sum(len(json.dumps(r, ensure_ascii=False, separators=(",", ":"))) for r in kept)
    assert LIMITS.array_answer_bytes <= size < LIMITS.array_answer_bytes + one


def test_an_array_counts_the_moves_its_listings_checked_against_a_promise() -> None:
    """A turn that owes a go-out with ten cards listed: a page of 5 legal actions checks
    hundreds of lay-downs against the promise, each a search (0.1 s a question), and the
    array counted only the 5, so a thousand such questions (640 KB) took 79 s. The checks
    now count as actions listed, and the questions past ``array_actions`` are refused."""
    position = {
        **_GO_OUT_OWED,
        "rules": {
            "preset": "romme",
            "variants": [
                "hand_all_melded",
                "one_natural_three_jokers",
                "opening_30",
                "round_the_corner",
                "tournament_jokers",
            ],
        },
        "players": [
            {
                "hand": ["JK", "JK", "JK", "JK", "5H", "6H", "7H", "8H", "9H", "10H"],
                "melded": False,
            },
            *_OTHER_SEATS,
        ],
        "table": [
            *_OTHER_MELDS,
            {"id": 3, "owner": 0, "meld": {"cards": ["AC", "2C", "3C", "4C"]}},
        ],
    }
    question = {"ask": "legal_actions", "position": position, "limit": 5}
    alone = answer(question)
    assert len(alone["actions"]) == 5  # alone, it is answered as ever
    replies, clean = answer_json(json.dumps([question] * 40))
    assert not clean
    answered = [r for r in replies if "actions" in r]
    assert 0 < len(answered) < 10 and replies[: len(answered)] == [alone] * len(answered)
    for reply in replies[len(answered) :]:
        assert (reply["error"]["limit"], reply["error"]["max"]) == ("array_actions", 3000)
