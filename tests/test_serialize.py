"""JSON documents for actions, rounds and views (hand_rummy.serialize)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import hand_rummy as hr
from hand_rummy.melds import MeldRules, judge_meld
from hand_rummy.rules import FixedOpening
from hand_rummy.serialize import (
    action_from_json,
    action_to_json,
    dumps,
    loads,
    meld_from_json,
    meld_to_json,
    round_from_json,
    round_to_json,
    rules_from_json,
    rules_to_json,
    view_from_json,
    view_to_json,
)

C = hr.parse_card

ACTIONS: list[hr.Action] = [
    hr.DrawStock(),
    hr.TakeDiscard(),
    hr.LayDown((hr.Meld.of("7H AC 9H", roles={1: "8H"}), hr.Meld.of("5S 5D 5C"))),
    hr.LayDown((hr.Meld.of("JK 5H 6H", roles={0: "4H"}, demoted=[0]),)),
    hr.LayOff(3, C("10H")),
    hr.LayOff(2, C("JK"), role=C("8H")),
    hr.Exchange(2, (C("5H"), C("5C"))),
    hr.Discard(C("KS")),
    hr.Discard(C("KS"), announce=True),
    hr.ClaimRedeal(),
    hr.PassRedeal(),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_action_round_trip(action: hr.Action) -> None:
    doc = action_to_json(action)
    assert action_from_json(json.loads(json.dumps(doc))) == action
    assert loads(dumps(action), "action") == action


def test_action_shapes() -> None:
    assert action_to_json(hr.TakeDiscard()) == {"type": "take"}
    assert action_to_json(hr.LayOff(3, C("10H"))) == {"type": "lay_off", "target": 3, "card": "10H"}
    assert action_to_json(hr.Discard(C("KS"), announce=True)) == {
        "type": "discard",
        "card": "KS",
        "announce": True,
    }
    assert meld_to_json(hr.Meld.of("7H AC 9H", roles={1: "8H"}, demoted=[1])) == {
        "cards": ["7H", "AC", "9H"],
        "roles": {"1": "8H"},
        "demoted": [1],
    }


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ({"type": "fly"}, "unknown action type"),
        ({"card": "KS"}, "missing field 'type'"),
        ({"type": "discard"}, "missing field 'card'"),
        ({"type": "discard", "card": "KS", "colour": 1}, "unknown field 'colour'"),
        ({"type": "lay_off", "target": "3", "card": "10H"}, "action.target"),
        ({"type": "lay_off", "target": True, "card": "10H"}, "action.target"),
        ({"type": "discard", "card": "KS", "announce": "yes"}, "action.announce"),
        ({"type": "lay_down", "melds": {}}, "action.melds"),
        ({"type": "lay_down", "melds": [{"cards": ["5H"], "roles": {"4": "8H"}}]}, "position 4"),
        ({"type": "lay_down", "melds": [{"cards": ["5H"], "demoted": [0, 0]}]}, "twice"),
        ("draw", "expected an object"),
    ],
)
def test_bad_actions(doc: Any, words: str) -> None:
    with pytest.raises(hr.InvalidStateError, match=words):
        action_from_json(doc)


def test_bad_card_in_action() -> None:
    with pytest.raises(hr.CardParseError, match=r"action\.cards\[1\]: '5X'"):
        action_from_json({"type": "exchange", "target": 1, "cards": ["5H", "5X"]})
    with pytest.raises(hr.CardParseError, match=r"meld\.cards\[0\]"):
        meld_from_json({"cards": [5]})


def test_rules() -> None:
    ruleset = hr.build("levant", ["opening_71", "jokers_only"])
    assert rules_from_json(rules_to_json(ruleset)) == ruleset
    assert rules_from_json({"preset": "romme"}) == hr.rulesets.romme
    with pytest.raises(hr.InvalidStateError, match="with_"):
        rules_to_json(hr.rulesets.levant.with_(opening=FixedOpening(60)))
    with pytest.raises(hr.InvalidStateError, match="unknown rules 'levnt'"):
        rules_from_json({"preset": "levnt"})
    with pytest.raises(hr.InvalidStateError, match="unknown variant 'opening_72'"):
        rules_from_json({"preset": "levant", "variants": ["opening_72"]})


# --- rounds -----------------------------------------------------------------------------


def _played(ruleset: hr.Ruleset, players: int, seed: int, steps: int) -> hr.Round:
    rng = random.Random(seed)
    game = hr.Round.deal(ruleset, players, seed=seed, dealer=seed % players)
    for _ in range(steps):
        actions = list(game.legal_actions())
        if not actions:
            break
        game = game.apply(rng.choice(actions))
    return game


ROUNDS = [
    pytest.param(name, players, seed, id=f"{name}-{players}p-seed{seed}")
    for name, ruleset in hr.PRESETS.items()
    for players in sorted({ruleset.players.minimum, ruleset.players.maximum})
    for seed in range(3)
]


@pytest.mark.parametrize(("name", "players", "seed"), ROUNDS)
def test_round_round_trip(name: str, players: int, seed: int) -> None:
    steps = random.Random(f"{name}{players}{seed}").randrange(201)
    game = _played(hr.PRESETS[name], players, seed, steps)
    doc = round_to_json(game)
    assert round_from_json(doc) == game
    text = json.dumps(doc)
    assert round_from_json(json.loads(text)) == game
    assert loads(dumps(game)) == game
    without_state = {k: v for k, v in doc.items() if k != "state"}
    assert round_from_json(without_state) == game
    for seat in range(players):
        view = game.view(seat)
        assert view_from_json(json.loads(json.dumps(view_to_json(view)))) == view
    assert loads(dumps(game.view(0)), "view") == game.view(0)


def test_round_with_variants_and_every_phase() -> None:
    ruleset = hr.build("romme", ["opening_35"])
    game = _played(ruleset, 2, 0, 3000)  # to the end of the round
    assert game.is_over
    doc = round_to_json(game)
    assert doc["rules"] == {"preset": "romme", "variants": ["opening_35"]}
    assert doc["state"]["outcome"]["scores"] == list(game.outcome.score.scores)  # type: ignore[union-attr]
    assert round_from_json(doc) == game


@pytest.mark.parametrize("redeal", [hr.ClaimRedeal(), hr.PassRedeal()], ids=str)
def test_redeal_round_trip(redeal: hr.Action) -> None:
    # every seat is asked, the starter (seat 1) first; seat 0's deal may be redealt
    game = hr.Round.deal(hr.rulesets.levant, 2, seed=14).apply(hr.PassRedeal())
    assert game.phase is hr.Phase.REDEAL and game.turn == 0
    game = game.apply(redeal)
    doc = json.loads(json.dumps(round_to_json(game)))
    assert doc["history"] == [action_to_json(hr.PassRedeal()), action_to_json(redeal)]
    assert round_from_json(doc) == game
    assert view_from_json(view_to_json(game.view(0))) == game.view(0)


def test_round_document_shape() -> None:
    game = hr.Round.deal(hr.rulesets.levant, 4, seed=7)
    doc = round_to_json(game)
    assert doc["format"] == "hand-rummy/round"
    assert doc["version"] == 1
    assert doc["players"] == 4
    assert doc["deal"]["indicator"] == game.indicator.ascii  # type: ignore[union-attr]
    assert doc["deal"]["stock"] == [c.ascii for c in game.stock]
    assert doc["state"]["hands"][1] == [c.ascii for c in game.hand(1)]
    assert doc["state"]["turn"] == 1


def test_ruleset_with_changes_cannot_be_written() -> None:
    ruleset = hr.rulesets.romme.with_(opening=FixedOpening(10))
    game = hr.Round.deal(ruleset, 2, seed=1)
    with pytest.raises(hr.InvalidStateError, match="only a preset with named variants"):
        round_to_json(game)


# --- rejections ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played() -> tuple[hr.Round, dict[str, Any]]:
    game = _played(hr.rulesets.levant, 3, 11, 40)
    assert not game.is_over and len(game.history) == 40
    return game, round_to_json(game)


def _rejects(doc: dict[str, Any], words: str, error: type[Exception] = hr.InvalidStateError) -> str:
    with pytest.raises(error, match=words) as info:
        round_from_json(doc)
    return str(info.value)


def test_tampered_hand_in_state(played: tuple[hr.Round, dict[str, Any]]) -> None:
    game, doc = played
    doc = copy.deepcopy(doc)
    hand = doc["state"]["hands"][2]
    other = next(c.ascii for c in game.stock if c.ascii not in hand)
    hand[0] = other
    _rejects(doc, r"state\.hands\[2\] does not match the replayed round")


def test_state_hand_order_does_not_matter(played: tuple[hr.Round, dict[str, Any]]) -> None:
    game, doc = played
    doc = copy.deepcopy(doc)
    doc["state"]["hands"][0].reverse()
    doc["state"]["hands"][0] = [c.lower() for c in doc["state"]["hands"][0]]
    assert round_from_json(doc) == game


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (("stock",), [], r"state\.stock does not match"),
        (("turn",), 0, r"state\.turn does not match"),
        (("phase",), "over", r"state\.phase does not match"),
        (("opened", 0), 1, r"state\.opened\[0\] does not match"),
        (("current", "laid_down"), None, r"state\.current\.laid_down does not match"),
        (("outcome",), {"ending": "hand"}, r"state\.outcome does not match"),
        (("table",), "none", r"state\.table does not match"),
    ],
)
def test_tampered_state(
    played: tuple[hr.Round, dict[str, Any]], path: tuple[Any, ...], value: Any, words: str
) -> None:
    doc = copy.deepcopy(played[1])
    where = doc["state"]
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    _rejects(doc, words)


def test_state_with_missing_or_extra_field(played: tuple[hr.Round, dict[str, Any]]) -> None:
    doc = copy.deepcopy(played[1])
    del doc["state"]["reshuffles"]
    _rejects(doc, r"state: missing field 'reshuffles'")
    doc = copy.deepcopy(played[1])
    doc["state"]["colour"] = "red"
    _rejects(doc, r"state: unknown field 'colour'")


def test_card_moved_between_hands_in_the_deal(played: tuple[hr.Round, dict[str, Any]]) -> None:
    doc = copy.deepcopy(played[1])
    doc["deal"]["hands"][1].append(doc["deal"]["hands"][0].pop())
    message = _rejects(doc, r"deal: seat \d holds \d+ cards; the deal gives")
    assert "seat" in message


def test_card_replaced_in_the_deal(played: tuple[hr.Round, dict[str, Any]]) -> None:
    doc = copy.deepcopy(played[1])
    hand = doc["deal"]["hands"][0]
    hand[0] = hand[1] if hand[1] != hand[0] else hand[2]
    _rejects(doc, r"deal: the cards do not make up the 106-card deck: too many .*; missing")


def test_illegal_action_in_history(played: tuple[hr.Round, dict[str, Any]]) -> None:
    doc = copy.deepcopy(played[1])
    # three seats keep the deal, the starter discards, the next seat draws and discards
    assert doc["history"][5]["type"] == "discard"
    doc["history"][5] = {"type": "draw"}
    message = _rejects(doc, r"history\[5\]: draw .* is illegal in the replayed round")
    assert "WRONG_PHASE" in message
    doc = copy.deepcopy(played[1])
    doc["history"].insert(4, doc["history"][3])  # the starter's discard, twice
    _rejects(doc, r"history\[4\]")


def test_history_and_state_disagree(played: tuple[hr.Round, dict[str, Any]]) -> None:
    doc = copy.deepcopy(played[1])
    doc["history"] = doc["history"][:-1]
    with pytest.raises(hr.InvalidStateError, match="does not match the replayed round"):
        round_from_json(doc)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(version=2), r"version: unsupported version 2"),
        (lambda d: d.update(version="1"), r"version: unsupported version"),
        (lambda d: d.update(format="hand-rummy/view"), r"format: expected 'hand-rummy/round'"),
        (lambda d: d.pop("format"), r"missing field 'format'"),
        (lambda d: d.pop("history"), r"document: missing field 'history'"),
        (lambda d: d.pop("deal"), r"document: missing field 'deal'"),
        (lambda d: d["deal"].pop("stock"), r"deal: missing field 'stock'"),
        (lambda d: d.update(extra=1), r"document: unknown field 'extra'"),
        (lambda d: d.update(players=5), r"players: .* is for .*, not 5"),
        (lambda d: d.update(dealer=3), r"dealer: 3 is out of range"),
        (lambda d: d.update(seed=1.5), r"seed: expected a whole number"),
        (lambda d: d["deal"].update(indicator=None), r"deal\.indicator: .* it is missing"),
        (
            lambda d: (d.update(rules={"preset": "romme"}), d["deal"].update(indicator=None)),
            r"deal: the cards do not make up the 108-card deck",
        ),
        (lambda d: d["deal"]["hands"].pop(), r"deal\.hands: has 2 hands"),
        (lambda d: d.update(history={}), r"history: expected a list"),
        (lambda d: d["history"].__setitem__(0, {"type": "jump"}), r"history\[0\]\.type"),
        (lambda d: d.update(state=[]), r"state does not match"),
    ],
)
def test_malformed_round(played: tuple[hr.Round, dict[str, Any]], change: Any, words: str) -> None:
    doc = copy.deepcopy(played[1])
    change(doc)
    _rejects(doc, words)


def test_bad_card_string(played: tuple[hr.Round, dict[str, Any]]) -> None:
    doc = copy.deepcopy(played[1])
    doc["deal"]["stock"][7] = "1OH"
    _rejects(doc, r"deal\.stock\[7\]: '1OH' at position 0 is not a card", hr.CardParseError)
    doc = copy.deepcopy(played[1])
    doc["deal"]["hands"][0][0] = 10
    _rejects(doc, r"deal\.hands\[0\]\[0\]: a card is a string", hr.CardParseError)


def test_not_a_document() -> None:
    with pytest.raises(hr.InvalidStateError, match="expected an object"):
        round_from_json([1, 2])
    with pytest.raises(hr.InvalidStateError, match="not valid JSON"):
        loads("{", "round")


# --- views ----------------------------------------------------------------------------------


def test_a_view_that_no_round_in_play_fits_is_refused(view_doc: dict[str, Any]) -> None:
    """A view is checked as a position is (docs/positions.rst, "What is checked"): a seat
    said to have opened with no meld of theirs on the table fits no round."""
    doc = copy.deepcopy(view_doc)
    assert doc["phase"] in ("draw", "play")
    owners = {m["owner"] for m in doc["table"]}
    seat = next(s for s in range(len(doc["opened"])) if s not in owners)
    doc["opened"][seat] = True
    with pytest.raises(
        hr.InvalidStateError, match=rf"no round in play fits this view: players\[{seat}\].opened"
    ):
        view_from_json(doc)


def test_a_views_table_melds_are_read_in_table_form() -> None:
    """A set's joker written as the 7♠ beside 7♣ 7♦ stands for whichever suit the table gives
    it (002 §Melds: a set's joker is any missing card of its rank): the view holds the meld as
    a lay-down would leave it, so a round rebuilt from the view holds the same table."""
    game = _played(hr.rulesets.romme, 3, 2, 30)
    doc = view_to_json(game.view(1))
    meld = {"cards": ["7C", "7D", "JK"], "roles": {"2": "7S"}}
    doc["table"].append({"id": 99, "owner": 0, "meld": meld, "kind": "set"})
    doc["stock_size"] -= 3
    if not doc["opened"][0]:  # the meld is seat 0's: so is an opening
        doc["opened"][0] = doc["melded"][0] = True
        doc["openings"].append({"seat": 0, "team": 0, "points": 40})
    view = view_from_json(doc)
    laid = view.table[-1].meld
    assert laid == judge_meld(hr.Meld.of("7C 7D JK"), MeldRules.of(hr.rulesets.romme)).meld
    assert hr.Round.from_position(view.position()).table == view.table


@pytest.fixture(scope="module")
def view_doc() -> dict[str, Any]:
    game = _played(hr.rulesets.romme, 3, 2, 30)
    return view_to_json(game.view(1))


def test_view_fields(view_doc: dict[str, Any]) -> None:
    assert view_doc["format"] == "hand-rummy/view"
    assert len(view_doc["hand"]) == view_doc["hand_sizes"][1]
    assert set(view_doc["current"]) >= {"taken", "obligation", "freed", "first_turn_bare"}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["hand"].pop(), r"hand: holds \d+ cards, but hand_sizes\[1\] is"),
        (lambda d: d.update(seat=3), r"seat: 3 is out of range"),
        (lambda d: d.update(turn=-1), r"turn: -1 is out of range"),
        (lambda d: d["opened"].pop(), r"opened: has 2 entries"),
        (lambda d: d.update(stock_size=d["stock_size"] + 1), r"hold \d+ cards; the deck has 108"),
        (lambda d: d["hand"].__setitem__(0, "ZZ"), r"hand\[0\]: 'ZZ'"),
        (lambda d: d.update(version=7), r"unsupported version 7"),
        (lambda d: d.pop("current"), r"missing field 'current'"),
        (lambda d: d["current"].update(obligation="later"), r"current\.obligation"),
        (lambda d: d.update(indicator="8C"), r"indicator: .* turns no indicator"),
        (lambda d: d.update(phase="over"), r"outcome: a round has an outcome exactly when"),
        (
            lambda d: (d.update(phase="draw"), d["current"].update(taken="5H")),
            r"current: the turn has not begun",
        ),
        (
            lambda d: d["table"].append(
                {"id": 99, "owner": 0, "meld": {"cards": ["2C", "5D", "9S"]}, "kind": "set"}
            ),
            r"table\[\d+\]\.meld: 2♣ 5♦ 9♠ is not a legal meld",
        ),
    ],
)
def test_malformed_view(view_doc: dict[str, Any], change: Any, words: str) -> None:
    doc = copy.deepcopy(view_doc)
    change(doc)
    with pytest.raises((hr.InvalidStateError, hr.CardParseError), match=words):
        view_from_json(doc)


def test_loads_reads_each_kind_by_its_own_format() -> None:
    match = hr.Match.new(hr.rulesets.classic, 3, seed=1, length=3)
    game = match.current
    assert game is not None
    position = game.position()
    for value in (match, game, game.view(1), position, hr.DrawStock()):
        text = dumps(value)
        assert type(loads(text)) is type(value)
        assert loads(text) == value
    # with a kind, a document of another kind is refused, and the message says how to read it
    with pytest.raises(
        hr.InvalidStateError,
        match=r"kind='round' does not read a match document .* read it with kind='match'",
    ):
        loads(dumps(match), "round")
    for text, message in [
        ('{"format": "hand-rummy/deal"}', "format: expected one of 'hand-rummy/round'"),
        ("[1, 2]", "expected a JSON object, not"),
        ('{"version": 1}', "no 'format' .* and no 'type'"),
    ]:
        with pytest.raises(hr.InvalidStateError, match=message):
            loads(text)
    with pytest.raises(hr.InvalidStateError, match="unknown kind 'deal'"):
        loads("{}", "deal")  # type: ignore[arg-type]
    # a kind that is no string: a list raised TypeError (unhashable) from the lookup
    for kind, seen in (([], r"\[\]"), (1, "1"), (b"round", "b'round'")):
        with pytest.raises(hr.InvalidStateError, match=f"unknown kind {seen}; use 'round'"):
            loads("{}", kind)  # type: ignore[arg-type]


def test_a_finished_rounds_view_keeps_the_scores_line_by_line() -> None:
    # a view cannot be replayed, so its document carries the breakdown, in the referee's
    # round_score shape; scores compare without it, so the test compares it itself
    from hand_rummy.bots import GreedyBot, play_round  # noqa: PLC0415

    for preset, players in (("romme", 3), ("partnership", 4)):
        game = play_round(
            hr.Round.deal(hr.build(preset), players, seed=4),
            [GreedyBot(seat) for seat in range(players)],
        )
        view = game.view(1)
        assert view.outcome is not None and view.outcome.score.breakdown
        back = loads(dumps(view))
        assert isinstance(back, hr.PlayerView) and back.outcome is not None
        assert back.outcome.score.breakdown == view.outcome.score.breakdown
        assert back.outcome.score.team_breakdown == view.outcome.score.team_breakdown
        assert bool(back.outcome.score.team_breakdown) is (preset == "partnership")
    document = view_to_json(game.view(1))
    line = document["outcome"]["breakdown"][0]
    for change, message in [
        ({"score": line["score"] + 1}, r"outcome.breakdown\[0\].score: .*, but the scores give"),
        ({"rule_ids": ["levant.nothing"]}, r"no rule of the rulebook has the id"),
        ({"card_values": [*line["card_values"], 5]}, r"values for .* cards"),
    ]:
        broken = copy.deepcopy(document)
        broken["outcome"]["breakdown"][0].update(change)
        with pytest.raises(hr.InvalidStateError, match=message):
            view_from_json(broken)
