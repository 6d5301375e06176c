"""Positions (hand_rummy.position): disputes about a round as it stands, not as it was dealt.

* situations of the rule documents, each answered by hand from /work/shared/rules and
  RULES-MATRIX.md (the rule is cited beside each test; the arithmetic is in comments),
  starting with the dispute of issue 8: a lay-off after taking a card;
* the wild card taken from the discard pile: named without ``demoted`` where the hand
  holds only the demoted copy, it is that copy; beside an ordinary copy, it is not;
* every refusal of a position, each naming its field, in Python, from JSON and from the
  referee;
* positions of played rounds, and of their players' views, give the played round's legal
  actions (and, with every card listed, the round itself);
* rounds built from positions play on: check, apply, views, serialising;
* the fill rule, fill_deal, and the referee's ``position`` questions.

Every position document the tests write is validated against the schema
(``position.json``, and ``question.json`` for the questions that carry one).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import attrs
import jsonschema
import pytest
import referencing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referencing.jsonschema import DRAFT202012

import hand_rummy as hr
from hand_rummy import Code, schemas
from hand_rummy.position import check_position, fill_cards, position_state
from hand_rummy.referee import answer
from hand_rummy.serialize import (
    dumps,
    loads,
    position_from_json,
    position_to_json,
    round_to_json,
    view_from_json,
    view_to_json,
)
from hand_rummy.testing import random_action, rounds

JSON = dict[str, Any]
BASE = "https://hand-rummy.invalid/schemas/"

LEVANT = hr.rulesets.levant
ROMME = hr.rulesets.romme
GULF = hr.rulesets.gulf
CLASSIC = hr.rulesets.classic
SAUDI = hr.rulesets.saudi


# --- the schema of every document written here ------------------------------------------


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(
        (uri, referencing.Resource.from_contents(schema, default_specification=DRAFT202012))
        for uri, schema in schemas.by_id().items()
    )
    return jsonschema.Draft202012Validator({"$ref": f"{BASE}{name}"}, registry=registry)


def schema_errors(name: str, value: Any) -> list[str]:
    return [e.message[:200] for e in _validator(name).iter_errors(value)]


def written(doc: JSON) -> JSON:
    """A position document that a test writes: it must fit the schema."""
    problems = schema_errors("position.json", doc)
    assert not problems, problems[:3]
    return doc


def ask(question: JSON) -> JSON:
    """The referee's answer; the question and the answer must fit their schemas."""
    reply = answer(question)
    if "error" not in reply:
        assert not schema_errors("question.json", question), schema_errors(
            "question.json", question
        )
    assert not schema_errors("answer.json", reply), schema_errors("answer.json", reply)
    return reply


# --- helpers ------------------------------------------------------------------------------


def c(text: str) -> hr.Card:
    return hr.parse_card(text)


def lay(*texts: str, demoted: tuple[int, ...] = ()) -> hr.LayDown:
    melds = [hr.Meld.of(t) for t in texts]
    if demoted:
        melds[0] = hr.Meld.of(texts[0], demoted=demoted)
    return hr.LayDown(tuple(melds))


def codes(game: hr.Round, action: hr.Action) -> tuple[Code, ...]:
    return tuple(game.check(action).codes)


def allowed(game: hr.Round, action: hr.Action) -> hr.Round:
    assert game.check(action).ok, game.check(action)
    return game.apply(action)


def refused(game: hr.Round, action: hr.Action, code: Code) -> None:
    assert code in codes(game, action), game.check(action)
    with pytest.raises(hr.IllegalActionError):
        game.apply(action)


def build(position: hr.Position) -> hr.Round:
    """The round at ``position``; its document fits the schema and reads back the same."""
    doc = written(position_to_json(position))
    assert position_from_json(json.loads(json.dumps(doc))) == position
    return hr.Round.from_position(position)


def seat(hand: str = "", size: int | None = None, **facts: Any) -> hr.PositionSeat:
    return hr.PositionSeat(hand, size, **facts)


def meld(id_: int, owner: int, text: str, **kwargs: Any) -> hr.PositionMeld:
    return hr.PositionMeld(id_, owner, hr.Meld.of(text, **kwargs))


def dispute(**changes: Any) -> hr.Position:
    """Issue 8's dispute, in the Levant game with the 8♣ turned (so the A♣ is wild).

    Three players; meld 1 (K♠ K♦ K♥) is seat 1's, meld 2 (4♣ 5♣ 6♣) ours (seat 0),
    meld 3 (9♥ 10♥ J♥) seat 2's. We took the 7♥ from the discard pile and hold nine
    cards; seats 1 and 2 hold 9 and 11; the pile holds 20, of which we remember the top.
    """
    fields: dict[str, Any] = {
        "ruleset": LEVANT,
        "indicator": "8C",
        "players": [seat("5H 6H 7H 8H QS QD 2S 3S 4D"), 9, 11],
        "table": [meld(1, 1, "KS KD KH"), meld(2, 0, "4C 5C 6C"), meld(3, 2, "9H 10H JH")],
        "discards": "5D",
        "discard_size": 20,
        "turn": 0,
        "phase": hr.Phase.PLAY,
        "current": hr.PositionTurn(taken="7H"),
    }
    fields.update(changes)
    return hr.Position(**fields)


# --- the dispute of issue 8 ---------------------------------------------------------------


def test_the_dispute_a_lay_off_after_taking_a_card() -> None:
    """000 §Playing a turn, "Taking the discard": the taken card goes down at once, in a new
    meld with at least two cards from the hand. So the 8♥ may not be laid off on meld 3
    before the 7♥ is down; once 5♥ 6♥ 7♥ is (the 7♥ and two cards of the hand), the 8♥ is
    the next card at the low end of 9♥ 10♥ J♥ (000 §Melds), and may be laid off."""
    game = build(dispute())
    assert game.current.obligation is hr.Obligation.MELD_TAKEN
    refused(game, hr.LayOff(3, c("8H")), Code.TAKE_DISCARD_NOT_MELDED)
    refused(game, hr.Discard(c("QS")), Code.TAKE_DISCARD_NOT_MELDED)
    game = allowed(game, lay("5H 6H 7H"))
    game = allowed(game, hr.LayOff(3, c("8H")))
    laid = game.meld(3)
    assert laid is not None and hr.format_cards(laid.meld.cards) == "8♥ 9♥ 10♥ J♥"


def test_the_dispute_worked_out() -> None:
    """What the position leaves out: everyone owns a meld, so everyone has opened (000 §The
    first meld); the stock holds 106 - (9 + 9 + 11) - 9 on the table - 20 discards - 1
    indicator = 47 cards; the pile is the 20 with the 5♦ on top."""
    game = build(dispute())
    assert game.opened == (True, True, True)
    assert game.melded == (True, True, True)
    assert len(game.stock) == 47
    assert len(game.discards) == 20 and game.discards[-1] == c("5D")
    assert [game.hand_size(s) for s in range(3)] == [9, 9, 11]
    assert game.hand(0) == hr.Round.from_position(dispute(seed=5)).hand(0)
    assert game.start == ()


def test_the_dispute_from_the_referee() -> None:
    doc = written(position_to_json(dispute()))
    question = {
        "ask": "action",
        "position": doc,
        "action": {"type": "lay_off", "target": 3, "card": "8H"},
    }
    reply = ask(question)
    assert (reply["ok"], [v["code"] for v in reply["violations"]]) == (
        False,
        ["TAKE_DISCARD_NOT_MELDED"],
    )
    # the three new melds that hold the 7♥ and two cards of the hand: 5-6-7, 5-6-7-8, 6-7-8
    listed = ask({"ask": "legal_actions", "position": doc})
    assert [a["melds"][0]["cards"] for a in listed["actions"]] == [
        ["5H", "6H", "7H"],
        ["5H", "6H", "7H", "8H"],
        ["6H", "7H", "8H"],
    ]
    assert listed["more"] is False


def test_taking_to_lay_off_is_a_variant() -> None:
    """000 §Variants "Taking the discard": at some tables the taken card may go on a meld
    already on the table. Holding no cards that make a new meld with the 8♥, the take is
    legal only under that variant (base rules: "If you can't, draw from the stock"), so the
    position is refused under the base rules, and under the variant the 8♥ goes on meld 3."""
    spot = dispute(
        players=[seat("8H QS QD 2S 3S 4D KC"), 9, 11], current=hr.PositionTurn(taken="8H")
    )
    with pytest.raises(hr.InvalidStateError, match=r"^current\.obligation: .*no legal move"):
        hr.Round.from_position(spot)
    game = build(attrs.evolve(spot, ruleset=hr.build("levant", ["discard_to_table"])))
    refused(game, hr.LayOff(3, c("QS")), Code.TAKE_DISCARD_NOT_MELDED)
    game = allowed(game, hr.LayOff(3, c("8H")))
    assert game.current.obligation is None


def test_romme_taking_obliges_nothing() -> None:
    """002 §Playing a turn: the top discard may be taken with no condition (the Clara
    example), and after coming out single cards may be added to any meld (002 §The first
    meld). The same dispute in Rommé: the 8♥ may be laid off at once."""
    spot = hr.Position(
        ROMME,
        [seat("5H 6H 7H 8H QS QD 2S 3S 4D"), 9, 11],
        0,
        hr.Phase.PLAY,
        table=[meld(1, 1, "KS KD KH"), meld(2, 0, "4C 5C 6C"), meld(3, 2, "9H 10H JH")],
        discards="5D",
        current=hr.PositionTurn(taken="7H"),
    )
    game = build(spot)
    assert game.current.obligation is None
    allowed(game, hr.LayOff(3, c("8H")))
    # before coming out, no lay-off (002 §The first meld)
    unopened = attrs.evolve(spot, table=[meld(1, 1, "KS KD KH"), meld(3, 2, "9H 10H JH")])
    refused(build(unopened), hr.LayOff(3, c("8H")), Code.NOT_OPENED)


# --- more situations of the rule documents --------------------------------------------


def test_app_taking_before_opening_obliges_an_opening() -> None:
    """004 §2 and §5: a player who has not opened and takes the fire card must make a legal
    opening in the same turn and may not discard before; the card taken may not be
    discarded again that turn. J♥ Q♥ K♥ (30) + 7♠ 7♦ 7♥ (21) = 51 reaches the bar."""
    spot = hr.Position(
        CLASSIC,
        [seat("JH QH KH 7S 7D 7H 2C 5D 9S 4C 3H 6S 10D QC KD"), 14],
        0,
        hr.Phase.PLAY,
        discards="8C",
        current=hr.PositionTurn(taken="2C"),
    )
    game = build(spot)
    assert game.current.obligation is hr.Obligation.OPEN
    refused(game, hr.Discard(c("5D")), Code.TAKE_DISCARD_NOT_OPENED)
    game = allowed(game, lay("JH QH KH", "7S 7D 7H"))
    refused(game, hr.Discard(c("2C")), Code.REDISCARD_TAKEN_CARD)
    allowed(game, hr.Discard(c("5D")))


def test_app_rediscarding_a_face_held_twice() -> None:
    """004 §2 forbids discarding the taken card again; a player who already held a copy of
    it cannot be told to keep that one, so the face may go (the library's reading, see
    turn_rules.gates.undiscardable). Two K♠ in hand: had_taken by default."""
    table = [meld(1, 0, "JH QH KH 10H")]
    spot = hr.Position(
        CLASSIC,
        [seat("KS KS 4C 9D"), 14],
        0,
        hr.Phase.PLAY,
        table=table,
        discards="3D",
        current=hr.PositionTurn(taken="KS"),
        openings=[(0, 51)],
    )
    game = build(spot)
    assert game.current.had_taken
    allowed(game, hr.Discard(c("KS")))
    once = attrs.evolve(spot, players=[seat("KS 4C 9D 5S"), 14])
    refused(build(once), hr.Discard(c("KS")), Code.REDISCARD_TAKEN_CARD)


def test_romme_a_freed_joker_is_used_at_once() -> None:
    """002 §Exchanging a joker: the joker taken from the table must go straight into a new
    meld and may not stay in the hand. Still holding it, the turn owes it (by default):
    no discard, no other meld; 9♦ 10♦ J♦ with the joker as the J♦ uses it."""
    spot = hr.Position(
        ROMME,
        [seat("JK 9D 10D 4C 2S 5H 7C"), 10],
        0,
        hr.Phase.PLAY,
        table=[meld(1, 0, "5C 6C 7C 8C"), meld(2, 1, "3H 4H 5H 6H 7H")],
        discards="KS",
        current=hr.PositionTurn(freed="JK"),
    )
    game = build(spot)
    assert game.current.obligation is hr.Obligation.USE_FREED_WILD
    refused(game, hr.Discard(c("2S")), Code.FREED_WILD_NOT_USED)
    game = allowed(game, lay("9D 10D JK"))
    assert game.current.obligation is None
    allowed(game, hr.Discard(c("2S")))
    # said to be used already in a lay-down (the hand held another joker): no obligation
    used = hr.PositionTurn(freed="JK", obligation=None, laid_down=True)
    kept = attrs.evolve(
        spot, current=used, players=[seat("JK 9D 10D 4C 2S 5H 7C", melded=True), 10]
    )
    allowed(build(kept), hr.Discard(c("2S")))
    # nothing laid since the exchange: the joker in the hand is the freed one, and owed
    with pytest.raises(hr.InvalidStateError, match=r"^current\.obligation: null, but the JK"):
        build(attrs.evolve(spot, current=hr.PositionTurn(freed="JK", obligation=None)))


def test_another_seat_sees_the_freed_joker_still_owed() -> None:
    """002 §Exchanging a joker: everyone saw the joker leave the table for the mover's hand,
    and while it is owed to a new meld it is still there; so the position of another seat's
    view lists it among the mover's cards, and that position loads (found by random play:
    it was refused as a hand that lacks the freed joker)."""
    spot = hr.Position(
        ROMME,
        [seat("JK 9D 10D 4C 2S 5H 7C"), 10],
        0,
        hr.Phase.PLAY,
        table=[meld(1, 0, "5C 6C 7C 8C"), meld(2, 1, "3H 4H 5H 6H 7H")],
        discards="KS",
        current=hr.PositionTurn(freed="JK"),
    )
    game = build(spot)
    theirs = game.view(1).position()
    assert theirs.players[0].hand == (hr.JOKER,) and theirs.players[0].hand_size == 7
    back = hr.Round.from_position(theirs)
    assert back.current.obligation is hr.Obligation.USE_FREED_WILD
    assert back.view(1) == attrs.evolve(game.view(1), history=())


def test_levant_nobody_goes_out_on_their_first_turn() -> None:
    """000 §Playing a turn, "Not on your first turn". Seat 2 opened this turn (its first,
    turns_played 0) and holds 5♥ 6♥ 7♥ 2♣: laying 5-6-7 down leaves the 2♣, whose
    discard would go out, so it is refused; a turn later it is not."""
    table = [meld(1, 2, "KS KD KH"), meld(2, 2, "10C JC QC KC")]
    first = seat("5H 6H 7H 2C", melded=False, turns_played=0)
    spot = hr.Position(
        LEVANT,
        [12, 13, first],
        2,
        hr.Phase.PLAY,
        indicator="8C",
        table=table,
        discards="9S",
        discard_size=9,
        current=hr.PositionTurn(laid_down=True),
    )
    refused(build(spot), lay("5H 6H 7H"), Code.GOING_OUT_FIRST_TURN)
    later = attrs.evolve(spot, players=[12, 13, seat("5H 6H 7H 2C", melded=False)])
    allowed(build(later), lay("5H 6H 7H"))


def test_levant_a_forgotten_announcement_bars_going_out() -> None:
    """000 §Playing a turn, "Announce": a player who forgets to announce may not go out on
    the next turn. With 7♥ 8♥ 9♥ K♠ and the announcement missed, 7-8-9 would leave the K♠
    to go out with; refused, and allowed when nothing was missed."""
    spot = hr.Position(
        LEVANT,
        [seat("7H 8H 9H KS", missed=True), 11],
        0,
        hr.Phase.PLAY,
        indicator="8C",
        table=[meld(1, 0, "QS QD QC"), meld(2, 1, "2D 3D 4D")],
        discards="6C",
    )
    refused(build(spot), lay("7H 8H 9H"), Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT)
    allowed(build(attrs.evolve(spot, players=[seat("7H 8H 9H KS"), 11])), lay("7H 8H 9H"))


def test_levant_announcements_at_rest_are_worked_out() -> None:
    """000 §Playing a turn: three cards or fewer after discarding are announced. Seat 1
    holds two cards between turns: it announced "two cards" (by default), or missed it.
    Seat 0, to move, has drawn a fourth card to the three its last discard left: it
    announced "three cards" then."""
    spot = hr.Position(
        LEVANT,
        [seat("7H 8H 9H KS"), 2],
        0,
        hr.Phase.PLAY,
        indicator="8C",
        table=[meld(1, 0, "QS QD QC"), meld(2, 1, "2D 3D 4D 5D")],
        discards="6C",
    )
    assert build(spot).announced == (3, 2)
    missed = attrs.evolve(spot, players=[seat("7H 8H 9H KS"), seat(size=2, missed=True)])
    game = build(missed)
    assert (game.announced, game.missed) == ((3, 0), (False, True))
    # five cards to move: four after the last discard, so nothing was due to be missed
    five = attrs.evolve(spot, players=[seat("7H 8H 9H KS 2C", missed=True), 2])
    with pytest.raises(hr.InvalidStateError, match=r"players\[0\]\.missed: true, but .* 4 cards"):
        build(five)


def test_what_the_turn_has_done_must_show_in_the_hand() -> None:
    """Facts of the turn so far that the hand contradicts are refused (a fuzzed referee
    approved moves in them):

    * 000 §Playing a turn: a card taken from the discard pile must go down at once, and
      blocks every other move until it does; with melds laid since, the one 7♥ cannot
      still be in the hand (the referee let it be discarded again);
    * 002 §Exchanging a joker: a freed joker goes into a meld or the hand, and with
      nothing laid since it must be in the hand;
    * a player with a meld laid in an earlier turn has played a turn.
    """
    spot = hr.Position(
        LEVANT,
        [seat("7H 9D KS 2H 5C", melded=True), 9, 9],
        0,
        hr.Phase.PLAY,
        indicator="8C",
        table=[meld(1, 0, "2S 3S 4S"), meld(2, 1, "QS QD QC")],
        discards="KD",
        current=hr.PositionTurn(taken="7H", laid_down=True),
    )
    with pytest.raises(hr.InvalidStateError, match=r"^players\[0\]\.hand: holds the 7♥ taken"):
        build(spot)
    # a copy held before the take may stay
    before = hr.PositionTurn(taken="7H", had_taken=True, laid_down=True)
    assert build(attrs.evolve(spot, current=before)).hand(0).count(hr.parse_card("7H")) == 1
    earlier = attrs.evolve(
        spot, current=hr.PositionTurn(), players=[seat("7H 9D KS", turns_played=0), 9, 9]
    )
    with pytest.raises(hr.InvalidStateError, match=r"turns_played: 0, but a meld on the table"):
        build(earlier)
    freed = hr.Position(
        ROMME,
        [seat("5C 9D KS 2H", melded=True), 9],
        0,
        hr.Phase.PLAY,
        table=[meld(1, 0, "7H 8H 9H"), meld(2, 1, "QS QD QC")],
        discards="KD",
        current=hr.PositionTurn(freed="JK"),
    )
    with pytest.raises(hr.InvalidStateError, match=r"lacks the freed JK, and nothing has been"):
        build(freed)
    laid = attrs.evolve(freed, current=hr.PositionTurn(freed="JK", laid_off=True))
    assert build(laid).current.freed == hr.JOKER


def test_a_view_after_an_exchange_is_a_position() -> None:
    """000 §Exchanging wild cards: the A♣ freed from 6♥ A♣ 8H may stay in the hand. Seat 1's
    view does not show seat 0's hand, so it is not refused for lacking the A♣ (it was)."""
    spot = hr.Position(
        LEVANT,
        [seat("7H 9S 2D 3D"), 6],
        0,
        hr.Phase.PLAY,
        indicator="8C",
        table=[meld(1, 0, "10C JC QC KC"), meld(2, 1, "6H AC 8H")],
        discards="KS",
    )
    game = build(spot).apply(hr.Exchange(2, (hr.parse_card("7H"),)))
    assert hr.Round.from_position(game.view(1).position()).current.freed == hr.parse_card("AC")


def test_the_turn_so_far_cannot_contradict_the_rules_it_follows() -> None:
    """Three facts of a turn that its rules rule out:

    * 004 §2: a taker who held a copy before holds two until something is laid, so
      ``had_taken`` with one 5♥ in an untouched hand is refused (it let the taken card be
      discarded again);
    * 002 §Exchanging a joker: a freed joker still in the hand, nothing laid, is owed to a
      meld, so an explicit ``obligation: null`` is refused;
    * 000 §The first meld, "Exception": only a first meld goes below the bar, so a player
      who melded in an earlier turn owes no ``go_out``.
    """
    classic = hr.Position(
        CLASSIC,
        [seat("5H 5D 7S 9C 2D"), 9],
        0,
        hr.Phase.PLAY,
        table=[meld(1, 0, "9H 10H JH QH"), meld(2, 1, "KS KD KH")],
        discards="2C",
        current=hr.PositionTurn(taken="5H", had_taken=True),
    )
    with pytest.raises(hr.InvalidStateError, match=r"^current\.had_taken: true, but .* 1 × 5♥"):
        build(classic)
    twice = attrs.evolve(classic, players=[seat("5H 5H 7S 9C 2D"), 9])
    assert build(twice).current.had_taken
    romme = hr.Position(
        ROMME,
        [seat("5H 6H JK 3D 8S"), 9],
        0,
        hr.Phase.PLAY,
        table=[meld(1, 0, "9H 10H JH"), meld(2, 1, "KS KD KC")],
        discards="2C",
        current=hr.PositionTurn(freed="JK", obligation=None),
    )
    with pytest.raises(hr.InvalidStateError, match=r"^current\.obligation: null, but the JK"):
        build(romme)
    owed = build(attrs.evolve(romme, current=hr.PositionTurn(freed="JK")))
    assert owed.current.obligation is hr.Obligation.USE_FREED_WILD
    levant = hr.Position(
        LEVANT,
        [seat("5H 6H 7H 2D", melded=True), 9],
        0,
        hr.Phase.PLAY,
        indicator="8C",
        table=[meld(1, 0, "2C 3C 4C"), meld(2, 1, "KS KD KH")],
        discards="KC",
        current=hr.PositionTurn(laid_down=True, obligation=hr.Obligation.GO_OUT),
    )
    with pytest.raises(hr.InvalidStateError, match=r"who had not melded before"):
        build(levant)


def test_the_pile_is_empty_only_on_the_starters_first_turn() -> None:
    """000 §Playing a turn: the starter (seat 1 when seat 0 deals) starts by discarding, and
    every turn ends with a discard, so only that first turn sees an empty pile (and draws
    nothing); an empty pile before a draw, or after it for another seat, is refused."""
    hand = "7H 8H 2S 4D 9C KS QD 3C 5S 6D JH 10C 2D AD"
    starter = hr.Position(LEVANT, [14, seat(hand + " 5C")], 1, hr.Phase.PLAY, indicator="8C")
    assert build(starter).current.first_turn_bare
    other = hr.Position(LEVANT, [seat(hand), 14], 0, hr.Phase.PLAY, indicator="8C")
    with pytest.raises(hr.InvalidStateError, match=r"^discard_size: 0 cards, .* \(seat 1,"):
        build(other)
    drawing = hr.Position(LEVANT, [14, seat(hand)], 1, hr.Phase.DRAW, indicator="8C")
    with pytest.raises(hr.InvalidStateError, match=r"^discard_size: 0, but a player about"):
        build(drawing)


def test_the_fill_deals_no_copy_of_a_card_taken_without_one() -> None:
    """A view lists the taken 5♣ of a mover who held none before (``had_taken`` false); the
    fill dealt a second 5♣ to that hand for 9 seeds of 40, and the round's own position was
    then refused. It now deals the first cards of its order that are not the 5♣."""
    five = hr.parse_card("5C")
    for number in range(40):
        spot = hr.Position(
            hr.rulesets.gulf,
            [seat("5C", size=14), 13, 13, 13],
            0,
            hr.Phase.PLAY,
            discards="2H",
            discard_size=3,
            seed=number,
            current=hr.PositionTurn(taken="5C", had_taken=False),
        )
        game = build(spot)
        assert game.hand(0).count(five) == 1, number
        assert build(game.position()).hand(0) == game.hand(0)


def test_a_take_that_owes_an_opening_needs_a_hand_that_could_reach_it() -> None:
    """004 §5: taking the fire card unopened obliges an opening of 51 this turn, and 004
    exempts no one from the bar. Three cards are worth 33 at most, so a position in which a
    three-card hand took the 2♦ is refused, however the fill deals the hidden cards (it
    gave a round with no legal move)."""
    spot = hr.Position(
        CLASSIC,
        [9, seat("2D", size=3)],
        1,
        hr.Phase.PLAY,
        table=[meld(1, 0, "KS KD KH")],
        discards="5C",
        current=hr.PositionTurn(taken="2D"),
    )
    with pytest.raises(hr.InvalidStateError, match=r"'open', but 3 cards are worth 33 at most"):
        build(spot)
    bigger = attrs.evolve(spot, players=[9, seat("2D", size=8)])
    assert build(bigger).current.obligation is hr.Obligation.OPEN


def test_the_top_discard_is_listed_where_it_may_be_taken() -> None:
    """Before the draw the top discard lies face up and may be taken, so a position that
    leaves it to the fill would let the seed decide the moves (seed 0 gave no take, seed 7
    one): refused. After the draw it may be left out."""
    players = [seat("7H 8H 2S 4D 9C KS QD 3C 5S 6D JH 10C 2D"), 13]
    spot = hr.Position(LEVANT, players, 0, hr.Phase.DRAW, indicator="8C", discard_size=6)
    with pytest.raises(hr.InvalidStateError, match=r"^discards: empty, but the pile holds 6"):
        build(spot)
    assert build(attrs.evolve(spot, discards="9H")).discards[-1] == hr.parse_card("9H")
    playing = [seat("7H 8H 2S 4D 9C KS QD 3C 5S 6D JH 10C 2D AD"), 13]
    assert build(attrs.evolve(spot, players=playing, phase=hr.Phase.PLAY))


def test_the_cards_laid_this_turn_came_from_the_hand() -> None:
    """A Levant hand holds 15 cards at most in a turn (000 §Setup 2), so 15 in the hand
    beside a set of three laid this turn are 18: refused; 12 beside it are 15."""
    table = [meld(1, 0, "KS KD KC")]
    hand = "7H 8H 2S 4D 9C 3C 5S 6D JH 10C 2D AD"
    turn = hr.PositionTurn(laid_down=True)
    mover = seat(hand, melded=False)
    spot = hr.Position(
        LEVANT,
        [mover, 13],
        0,
        hr.Phase.PLAY,
        indicator="8C",
        table=table,
        discards="9C",
        current=turn,
    )
    assert build(spot).current.laid_down
    more = attrs.evolve(spot, players=[seat(hand + " 9H 10H JS", melded=False), 13])
    with pytest.raises(hr.InvalidStateError, match=r"15 cards beside the 3 laid this turn"):
        build(more)


def test_levant_going_out_below_the_bar() -> None:
    """000 §The first meld, "Exception": a player who gets rid of every card in one turn may
    open below 51. 5♥ 6♥ 7♥ (18) + 2♠ 2♦ 2♣ (6) = 24 leaves the K♠ to discard: allowed, and
    the turn must then finish. With one more card left over it cannot finish: refused."""
    spot = hr.Position(
        LEVANT,
        [seat("5H 6H 7H 2S 2D 2C KS"), 12],
        0,
        hr.Phase.PLAY,
        indicator="8C",
        table=[meld(1, 1, "10S JS QS KS")],
        discards="9D",
    )
    game = allowed(build(spot), lay("5H 6H 7H", "2S 2D 2C"))
    assert game.current.obligation is hr.Obligation.GO_OUT
    done = allowed(game, hr.Discard(c("KS")))
    assert done.is_over and done.outcome is not None and done.outcome.winner == 0
    longer = attrs.evolve(spot, players=[seat("5H 6H 7H 2S 2D 2C KS QD"), 12])
    refused(build(longer), lay("5H 6H 7H", "2S 2D 2C"), Code.OPENING_BELOW_THRESHOLD)
    # the position in the middle of that turn, as a document: the promise is stated
    middle = written(position_to_json(game))
    assert middle["current"]["obligation"] == "go_out"
    assert hr.Round.from_position(position_from_json(middle)).legal_actions().count() >= 1


def test_saudi_each_opening_beats_the_last() -> None:
    """004 §The four variants, Saudi Hand: the next opener needs the last accepted opening
    + 1. 10♥ J♥ Q♥ K♥ (40) + 7♠ 7♦ 7♣ (21) = 61: enough after an opening of 60, not after
    61. Without the openings listed, seat 1 is taken to have opened with the least its bar
    allowed (51), so 52 would do."""
    hand = seat("10H JH QH KH 7S 7D 7C 2S 4D 9C 5H 3D 8S 6C")
    spot = hr.Position(
        SAUDI,
        [hand, 13],
        0,
        hr.Phase.PLAY,
        table=[meld(1, 1, "9S 9D 9H 9C"), meld(2, 1, "10S JS QS KS")],
        discards="2H",
        openings=[(1, 60)],
    )
    assert build(spot).required_opening(0) == 61
    allowed(build(spot), lay("10H JH QH KH", "7S 7D 7C"))
    higher = build(attrs.evolve(spot, openings=[(1, 61)]))
    refused(higher, lay("10H JH QH KH", "7S 7D 7C"), Code.OPENING_BELOW_THRESHOLD)
    assert build(attrs.evolve(spot, openings=None)).required_opening(0) == 52


def test_an_opening_is_worth_no_more_than_the_whole_deck() -> None:
    """A position need not show every meld of an opening, but no opening is worth more than
    all 106 cards at their best (11 each under 004): listed at 10**30, seat 1's opening would
    raise the next bar beyond any hand (004 §The four variants, Saudi Hand). It is refused;
    1,166 is the most that stands."""
    hand = seat("10H JH QH KH 7S 7D 7C 2S 4D 9C 5H 3D 8S 6C")
    table = [meld(1, 1, "9S 9D 9H 9C"), meld(2, 1, "10S JS QS")]
    spot = hr.Position(
        SAUDI, [hand, 13], 0, hr.Phase.PLAY, table=table, discards="2H", openings=[(1, 10**30)]
    )
    with pytest.raises(hr.InvalidStateError, match=r"^openings\[0\]\.points: 1000.* \(1166\)"):
        build(spot)
    with pytest.raises(hr.InvalidStateError, match=r"whole deck"):
        build(attrs.evolve(spot, openings=[(1, 1167)]))
    assert build(attrs.evolve(spot, openings=[(1, 1166)])).required_opening(0) == 1167


def test_levant_beat_the_last_opening() -> None:
    """000 §Variants "Higher minimum": each first meld must beat the last one made (strictly,
    matrix L15). After openings of 51 and 58 the bar is 59. (40 alone is refused: it could
    only go below the bar by finishing the turn, 000 §The first meld "Exception", and the
    five cards left cannot all go.)"""
    ruleset = hr.build("levant", ["beat_last_opening"])
    spot = hr.Position(
        ruleset,
        [seat("10H JH QH KH 7S 7D 7C 2S 5D"), 10, 9],
        0,
        hr.Phase.PLAY,
        indicator="8C",
        table=[meld(1, 1, "9S 9D 9H"), meld(2, 1, "10S JS QS KS"), meld(3, 2, "3D 4D 5D 6D")],
        discards="2H",
        openings=[(2, 51), (1, 58)],
    )
    game = build(spot)
    assert game.required_opening(0) == 59
    allowed(game, lay("10H JH QH KH", "7S 7D 7C"))  # 61
    refused(game, lay("10H JH QH KH"), Code.OPENING_BELOW_THRESHOLD)  # 40


def test_gulf_takes_freely_and_melds_before_laying_off() -> None:
    """003 §Turn Flow: DRAW, MELD, LAY OFF, DISCARD in order; the top discard may be taken
    with no condition. A turn that has laid off may lay no new meld."""
    spot = hr.Position(
        GULF,
        [seat("5H 6H 7H 9C 9D 9S 2C 3C 4D KS QS JD 8H"), 13, 13, 13],
        0,
        hr.Phase.DRAW,
        discards="10C",
        discard_size=3,
    )
    game = build(spot)
    game = allowed(game, hr.TakeDiscard())
    assert game.current.obligation is None
    opened = hr.Position(
        GULF,
        [seat("5H 6H 7H 9C 9D 9S 2C 3C 4D KS QS", melded=True), 13, 13, 13],
        0,
        hr.Phase.PLAY,
        table=[meld(1, 0, "AS KS QS JS 10S"), meld(2, 1, "8D 9D 10D")],
        discards="10C",
        current=hr.PositionTurn(laid_off=True),
    )
    refused(build(opened), lay("5H 6H 7H"), Code.PHASE_ORDER)
    allowed(build(attrs.evolve(opened, current=hr.PositionTurn())), lay("5H 6H 7H"))


def test_levant_stock_at_the_number_of_players_ended_the_round() -> None:
    """000 §End of a round: when, after a turn, the stock holds only as many cards as there
    are players, the round ends unscored. Four hands of 14, the indicator and 45 discards
    leave 106 - 56 - 1 - 45 = 4 cards: no such position is in play; with 44 discards, 5."""
    hands = [seat("5H 6H 7H 9C 9D 9S 2C 3C 4D KS QS JD 8H 10H"), 14, 14, 14]
    spot = hr.Position(
        LEVANT, hands, 0, hr.Phase.DRAW, indicator="8C", discards="KD", discard_size=45
    )
    with pytest.raises(hr.InvalidStateError, match=r"^stock_size: 4 cards among 4 players"):
        hr.Round.from_position(spot)
    game = build(attrs.evolve(spot, discard_size=44))
    assert len(game.stock) == 5
    allowed(game, hr.DrawStock())


def test_the_starters_bare_first_turn() -> None:
    """000 §Playing a turn: the player with 15 cards starts by simply discarding. A position
    before the first discard (empty pile, nothing taken) is that turn by default."""
    starter = seat("5H 6H 7H 9C 9D 9S 2C 3C 4D KS QS JD 8H 10H 4S")
    spot = hr.Position(LEVANT, [14, starter, 14], 1, hr.Phase.PLAY, indicator="8C")
    game = build(spot)
    assert game.current.first_turn_bare and game.turns_played == (0, 0, 0)
    refused(game, lay("5H 6H 7H"), Code.WRONG_PHASE)
    after = allowed(game, hr.Discard(c("KS")))
    assert after.turn == 2 and after.discards == (c("KS"),)


# --- a wild card taken from the discard pile ----------------------------------------------


def _taken_ace(hand: str, ruleset: hr.Ruleset = LEVANT, **changes: Any) -> hr.Position:
    """Levant, 8♣ turned: seat 0 took the A♣, a wild that lost its wildness in the taking
    (000 §Exchanging wild cards, "Discarded wild cards": it counts only as the A♣)."""
    fields: dict[str, Any] = {
        "ruleset": ruleset,
        "players": [seat(hand), 9],
        "turn": 0,
        "phase": hr.Phase.PLAY,
        "indicator": "8C",
        "table": [meld(1, 0, "QH QS QD"), meld(2, 1, "JC QC KC")],
        "discards": "5S",
        "current": hr.PositionTurn(taken="AC"),
    }
    fields.update(changes)
    return hr.Position(**fields)


def test_a_taken_wild_is_demoted_in_the_position() -> None:
    game = build(_taken_ace("AC 2C 3C KS KD 9H"))
    assert game.current.taken_demoted
    assert game.demoted[0] == (c("AC"),)
    assert game.current.obligation is hr.Obligation.MELD_TAKEN


def test_the_only_copy_is_the_demoted_one_in_a_lay_down() -> None:
    """Only the demoted A♣ is in the hand, so "A♣ 2♣ 3♣" can only mean that copy: it plays
    as the natural A♣ (a low run), melds the taken card, and lies on the table marked
    demoted, exactly as if it had said so; as the wild it is not (K♠ K♦ A♣ is no set of a
    natural Ace and two Kings)."""
    game = build(_taken_ace("AC 2C 3C KS KD 9H"))
    inferred = allowed(game, lay("AC 2C 3C"))
    declared = allowed(game, lay("AC 2C 3C", demoted=(0,)))
    assert inferred.table == declared.table
    assert inferred.hands == declared.hands and inferred.demoted[0] == ()
    assert inferred.table[-1].meld.demoted == frozenset({0})
    assert not game.check(lay("KS KD AC")).ok


def test_beside_an_ordinary_copy_the_undeclared_card_is_the_ordinary_one() -> None:
    """Holding a wild A♣ as well, "A♣ 2♣ 3♣" names the wild one (it stands for the A♣ of
    the run), which leaves the taken card in the hand: refused; the demoted copy is named
    with ``demoted``."""
    game = build(_taken_ace("AC AC 2C 3C KS KD 9H"))
    assert game.current.had_taken
    refused(game, lay("AC 2C 3C"), Code.TAKE_DISCARD_NOT_MELDED)
    after = allowed(game, lay("AC 2C 3C", demoted=(0,)))
    assert after.demoted[0] == () and after.hand(0).count(c("AC")) == 1


def test_the_only_copy_is_the_demoted_one_in_a_lay_off() -> None:
    """000 §Variants "Taking the discard": the taken A♣ may go on J♣ Q♣ K♣, as its natural
    Ace (Q K A, 000 §Melds). Named without ``demoted``, it is that copy; beside a wild A♣,
    the undeclared one is the wild, which is not the taken card."""
    variant = hr.build("levant", ["discard_to_table"])
    game = build(_taken_ace("AC 5S 9H KD", variant))
    inferred = allowed(game, hr.LayOff(2, c("AC")))
    assert inferred.table == allowed(game, hr.LayOff(2, c("AC"), demoted=True)).table
    laid = inferred.meld(2)
    assert laid is not None and laid.meld.demoted == frozenset({3})
    both = build(_taken_ace("AC AC 5S 9H KD", variant))
    refused(both, hr.LayOff(2, c("AC")), Code.TAKE_DISCARD_NOT_MELDED)
    allowed(both, hr.LayOff(2, c("AC"), demoted=True))


def test_the_only_copy_is_the_demoted_one_in_a_discard() -> None:
    """A demoted A♣ kept in the hand is discarded by naming it; with a wild A♣ beside it, the
    undeclared discard is the wild one and the demoted one stays. (In Levantine Hand the taken
    card goes down at once, so it is kept only where a taken card need not be melded.)"""
    keeping = attrs.evolve(LEVANT, discard_take=attrs.evolve(LEVANT.discard_take, must_meld=False))
    spot = _taken_ace(
        "AC 5S 9H KD",
        keeping,
        current=hr.PositionTurn(),
        players=[seat("AC 5S 9H KD", demoted="AC"), 9],
    )
    game = hr.Round.from_position(spot)  # (a ruleset changed by hand has no document)
    gone = allowed(game, hr.Discard(c("AC")))
    assert gone.demoted[0] == () and c("AC") not in gone.hand(0)
    assert gone.hands == allowed(game, hr.Discard(c("AC"), demoted=True)).hands
    both = hr.Round.from_position(
        attrs.evolve(spot, players=[seat("AC AC 5S 9H KD", demoted="AC"), 9])
    )
    kept = allowed(both, hr.Discard(c("AC")))
    assert kept.demoted[0] == (c("AC"),)
    assert hr.Discard(c("AC"), demoted=True) in list(both.legal_actions())
    assert hr.Discard(c("AC"), demoted=True) in list(game.legal_actions())


# --- refusals, each naming its field -----------------------------------------------------


def base_doc() -> JSON:
    return position_to_json(dispute())


def romme_doc() -> JSON:
    """Rommé, two players; seat 0 (to move, after drawing) owns meld 1."""
    return {
        "format": "hand-rummy/position",
        "version": 1,
        "rules": {"preset": "romme"},
        "players": [{"hand": ["5H", "6H", "7H", "8H", "KS"]}, {"hand_size": 9}],
        "table": [{"id": 1, "owner": 0, "meld": {"cards": ["9S", "10S", "JS"]}}],
        "discards": ["KD"],
        "turn": 0,
        "phase": "play",
    }


def _set(path: str, value: Any) -> Callable[[JSON], None]:
    """Set the field at a dotted path (list indexes as numbers), or delete it for ``...``."""

    def change(doc: JSON) -> None:
        *parents, last = path.split(".")
        target: Any = doc
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        key_: Any = int(last) if last.isdigit() else last
        if value is ...:
            del target[key_]
        else:
            target[key_] = value

    return change


def _many(*changes: Callable[[JSON], None]) -> Callable[[JSON], None]:
    def change(doc: JSON) -> None:
        for one in changes:
            one(doc)

    return change


LEVANT_DRAW = _many(_set("phase", "draw"), _set("current", ...))

# (name, base document, change, field named, the schema refuses it too)
REFUSALS: list[tuple[str, Callable[[], JSON], Callable[[JSON], None], str, bool]] = [
    # the form
    ("another format", base_doc, _set("format", "hand-rummy/round"), "format", True),
    ("version 2", base_doc, _set("version", 2), "version", True),
    ("an unknown field", base_doc, _set("history", []), "document", True),
    ("no turn", base_doc, _set("turn", ...), "document", True),
    ("unknown rules", base_doc, _set("rules", {"preset": "canasta"}), "rules.preset", True),
    ("one player", base_doc, _set("players", [{"hand_size": 9}]), "players", True),
    ("a player with a colour", base_doc, _set("players.1.colour", "red"), "players[1]", True),
    ("a player of nothing", base_doc, _set("players.1", {}), "players[1]", True),
    ("a null hand size", base_doc, _set("players.1.hand_size", None), "players[1].hand_size", True),
    (
        "a negative hand size",
        base_doc,
        _set("players.1.hand_size", -1),
        "players[1].hand_size",
        True,
    ),
    ("the Ace as 1", base_doc, _set("players.0.hand.2", "1H"), "players[0].hand[2]", True),
    ("opened as text", base_doc, _set("players.1.opened", "yes"), "players[1].opened", True),
    ("a turn out of range", base_doc, _set("turn", 3), "turn", False),
    ("a dealer out of range", base_doc, _set("dealer", 5), "dealer", False),
    ("phase over", base_doc, _set("phase", "over"), "phase", True),
    ("phase redeal", base_doc, _set("phase", "redeal"), "phase", True),
    ("a meld owner out of range", base_doc, _set("table.0.owner", 3), "table[0].owner", False),
    ("a meld id 0", base_doc, _set("table.0.id", 0), "table[0].id", True),
    ("a kind that is no kind", base_doc, _set("table.0.kind", "pair"), "table[0].kind", True),
    ("an unknown turn field", base_doc, _set("current.drawn", True), "current", True),
    (
        "an obligation that is none",
        base_doc,
        _set("current.obligation", "pray"),
        "current.obligation",
        True,
    ),
    ("a null seed", base_doc, _set("seed", None), "seed", True),
    ("a negative discard size", base_doc, _set("discard_size", -2), "discard_size", True),
    ("an opening without points", base_doc, _set("openings", [{"seat": 1}]), "openings[0]", True),
    # the cards against the deck
    (
        "a third 7H",
        base_doc,
        _set("players.0.hand", ["7H", "7H", "7H", "8H", "QS", "QD", "2S", "3S", "4D"]),
        "players[0].hand[2]",
        False,
    ),
    (
        "a third KS",
        romme_doc,
        _set("players.0.hand", ["KS", "KS", "KS"]),
        "players[0].hand[2]",
        False,
    ),
    (
        "a K on the table and two in hand",
        base_doc,
        _set("players.0.hand", ["KS", "KS", "7H", "8H", "QS", "QD", "2S", "3S", "4D"]),
        "players[0].hand[1]",
        False,
    ),
    ("a joker indicator", base_doc, _set("indicator", "JK"), "indicator", True),
    ("no indicator in Levant", base_doc, _set("indicator", ...), "indicator", True),
    ("an indicator in Rommé", romme_doc, _set("indicator", "8C"), "indicator", True),
    (
        "a hand size below the hand",
        base_doc,
        _set("players.0.hand_size", 3),
        "players[0].hand_size",
        False,
    ),
    ("fewer discards than listed", base_doc, _set("discard_size", 0), "discard_size", False),
    (
        "a stock size that the deck does not leave",
        base_doc,
        _set("stock_size", 40),
        "stock_size",
        False,
    ),
    (
        "more stock listed than its size",
        base_doc,
        _many(_set("stock", ["2H", "3H"]), _set("stock_size", 1)),
        "stock_size",
        False,
    ),
    ("hands beyond the deck", romme_doc, _set("players.1.hand_size", 120), "players", False),
    # the table
    (
        "a meld that is none",
        base_doc,
        _set("table.1.meld.cards", ["4C", "5C", "7C"]),
        "table[1].meld",
        False,
    ),
    (
        "two wilds in a Levant meld",
        base_doc,
        _set("table.1.meld.cards", ["4C", "AC", "AC"]),
        "table[1].meld",
        False,
    ),
    ("a set said to be a run", base_doc, _set("table.0.kind", "run"), "table[0].kind", False),
    ("two melds numbered 1", base_doc, _set("table.2.id", 1), "table[2].id", False),
    # the players
    ("an empty hand", romme_doc, _set("players.1.hand_size", 0), "players[1].hand_size", False),
    (
        "a hand too large between turns",
        romme_doc,
        _set("players.1.hand_size", 14),
        "players[1].hand_size",
        False,
    ),
    (
        "a hand too large in the turn",
        romme_doc,
        _set(
            "players.0.hand",
            [
                "5H",
                "6H",
                "7H",
                "8H",
                "KS",
                "2C",
                "3C",
                "4C",
                "5C",
                "6C",
                "7C",
                "8C",
                "9C",
                "10C",
                "JC",
            ],
        ),
        "players[0].hand_size",
        False,
    ),
    (
        "opened without a meld",
        base_doc,
        _many(
            _set("table", [{"id": 2, "owner": 0, "meld": {"cards": ["4C", "5C", "6C"]}}]),
            _set("players.1.opened", True),
        ),
        "players[1].opened",
        False,
    ),
    (
        "not opened with a meld",
        base_doc,
        _set("players.1.opened", False),
        "players[1].opened",
        False,
    ),
    (
        "not melded with an old meld",
        base_doc,
        _set("players.2.melded", False),
        "players[2].melded",
        False,
    ),
    (
        # 000 §Playing a turn: the taken card goes down at once, so no one keeps it to a
        # later turn, demoted or not
        "a demoted card at rest",
        base_doc,
        _many(_set("players.1", {"hand": ["AC"], "hand_size": 9, "demoted": ["AC"]})),
        "players[1].demoted",
        False,
    ),
    (
        # 000 §Laying off: only a player who has opened lays off, and laying down opens
        "melded without opening",
        romme_doc,
        _set("players.1.melded", True),
        "players[1].melded",
        False,
    ),
    (
        "laid down, melded unsaid",
        base_doc,
        _many(_set("current.taken", ...), _set("current.laid_down", True)),
        "players[0].melded",
        False,
    ),
    (
        "an opening of a player who has not opened",
        romme_doc,
        _set("openings", [{"seat": 1, "points": 40}]),
        "openings[0].seat",
        False,
    ),
    (
        "an opening below the bar",
        romme_doc,
        _set("openings", [{"seat": 0, "points": 35}]),
        "openings[0].points",
        False,
    ),
    (
        "an opening of the wrong team",
        romme_doc,
        _set("openings", [{"seat": 0, "team": 1, "points": 45}]),
        "openings[0].team",
        False,
    ),
    (
        "an opener left out",
        base_doc,
        _set("openings", [{"seat": 0, "points": 51}, {"seat": 1, "points": 60}]),
        "openings",
        False,
    ),
    (
        "an opening listed twice",
        base_doc,
        _set("openings", [{"seat": 0, "points": 51}, {"seat": 0, "points": 60}]),
        "openings[1].seat",
        False,
    ),
    (
        "announced in Rommé",
        romme_doc,
        _set("players.1.announced", 2),
        "players[1].announced",
        False,
    ),
    ("missed in Rommé", romme_doc, _set("players.1.missed", True), "players[1].missed", False),
    (
        "announced more than the rules ask",
        base_doc,
        _set("players.1.announced", 4),
        "players[1].announced",
        False,
    ),
    (
        "announced another count",
        base_doc,
        _many(_set("players.1.hand_size", 3), _set("players.1.announced", 2)),
        "players[1].announced",
        False,
    ),
    (
        "not announced, not missed",
        base_doc,
        _many(_set("players.1.hand_size", 3), _set("players.1.announced", 0)),
        "players[1].announced",
        False,
    ),
    (
        "missed with nothing due",
        base_doc,
        _set("players.1.missed", True),
        "players[1].missed",
        False,
    ),
    (
        "a demoted card that is not wild",
        base_doc,
        _set("players.0.demoted", ["7H"]),
        "players[0].demoted[0]",
        False,
    ),
    (
        "a demoted card not in the hand",
        base_doc,
        _set("players.0.demoted", ["AC"]),
        "players[0].demoted",
        False,
    ),
    # the phase and the turn
    ("a turn begun in phase draw", base_doc, _set("phase", "draw"), "current", False),
    (
        "a take that the rules do not demote, said demoted",
        base_doc,
        _set("current.taken_demoted", True),
        "current.taken_demoted",
        False,
    ),
    (
        "a taken card held twice, not had",
        base_doc,
        _many(
            _set("players.0.hand", ["5H", "6H", "7H", "7H", "8H", "QS", "2S", "3S", "4D"]),
            _set("current.had_taken", False),
        ),
        "current.had_taken",
        False,
    ),
    (
        "had without a take",
        base_doc,
        _many(_set("current.taken", ...), _set("current.had_taken", True)),
        "current.had_taken",
        False,
    ),
    (
        "a taken card not in the hand",
        base_doc,
        _set("current.taken", "9D"),
        "players[0].hand",
        False,
    ),
    (
        "no obligation after a take to meld",
        base_doc,
        _set("current.obligation", None),
        "current.obligation",
        False,
    ),
    (
        "an obligation without a take",
        base_doc,
        _many(_set("current.taken", ...), _set("current.obligation", "meld_taken")),
        "current.obligation",
        False,
    ),
    (
        "a freed wild owed, none freed",
        base_doc,
        _many(_set("current.taken", ...), _set("current.obligation", "use_freed_wild")),
        "current.obligation",
        False,
    ),
    (
        "a freed card that is not wild",
        base_doc,
        _many(_set("current.taken", ...), _set("current.freed", "7H")),
        "current.freed",
        False,
    ),
    (
        "going out below the bar in Gulf",
        lambda: {
            **romme_doc(),
            "rules": {"preset": "gulf"},
            "players": [
                {"hand": ["5H", "6H", "7H", "8H", "KS"]},
                {"hand_size": 9},
                {"hand_size": 9},
                {"hand_size": 9},
            ],
        },
        _many(
            _set("current", {"obligation": "go_out", "laid_down": True}),
            _set("players.0.melded", False),
        ),
        "current.obligation",
        False,
    ),
    (
        "laid down with no meld of one's own",
        base_doc,
        _many(
            _set("current.taken", ...),
            _set("current.laid_down", True),
            _set("table.1.owner", 1),
            _set("players.0.melded", False),
        ),
        "current.laid_down",
        False,
    ),
    (
        "laid off on others without laying off",
        base_doc,
        _many(_set("current.taken", ...), _set("current.laid_off_on_others", True)),
        "current.laid_off_on_others",
        False,
    ),
    (
        "melded cards without a lay-down",
        base_doc,
        _many(_set("current.taken", ...), _set("current.melded", ["7H"])),
        "current.melded",
        False,
    ),
    (
        "the bare turn of a player who does not start",
        base_doc,
        _many(
            _set("current", {"first_turn_bare": True}),
            _set("discards", []),
            _set("discard_size", 0),
        ),
        "current.first_turn_bare",
        False,
    ),
    (
        "the bare turn with a discard pile",
        base_doc,
        _many(
            _set("turn", 1),
            _set("players.1", {"hand_size": 15}),
            _set("players.0", {"hand_size": 9}),
            _set("current", {"first_turn_bare": True}),
        ),
        "discards",
        False,
    ),
    (
        "a turn played before the bare turn",
        lambda: {
            "format": "hand-rummy/position",
            "version": 1,
            "rules": {"preset": "romme"},
            "players": [
                {
                    "hand": [
                        "5H",
                        "6H",
                        "7H",
                        "8H",
                        "KS",
                        "2C",
                        "3C",
                        "4C",
                        "5C",
                        "6C",
                        "7C",
                        "8C",
                        "9C",
                        "10C",
                    ]
                },
                {"hand_size": 13},
            ],
            "turn": 0,
            "phase": "play",
        },
        _set("players.1.turns_played", 2),
        "players[1].turns_played",
        False,
    ),
    (
        "a stock the Levant round would have ended on",
        base_doc,
        _set("discard_size", 65),
        "stock_size",
        False,
    ),
    (
        "more reshuffles than the app allows",
        lambda: {
            **romme_doc(),
            "rules": {"preset": "classic"},
            "players": [{"hand": ["5H", "6H", "7H", "8H", "KS"]}, {"hand_size": 9}],
        },
        _set("reshuffles", 4),
        "reshuffles",
        False,
    ),
    (
        "the taken card in a meld not on the table",
        base_doc,
        _set("current.taken_meld", 9),
        "current.taken_meld",
        False,
    ),
    (
        "the taken card in a meld without it",
        base_doc,
        _set("current.taken_meld", 1),
        "current.taken_meld",
        False,
    ),
    (
        "the taken card in a meld, nothing taken",
        base_doc,
        _many(_set("current.taken", ...), _set("current.taken_meld", 3)),
        "current.taken_meld",
        False,
    ),
    (
        "the taken card in meld 0",
        base_doc,
        _set("current.taken_meld", 0),
        "current.taken_meld",
        True,
    ),
    (
        "the taken card in a meld, nothing laid",
        base_doc,
        _many(
            _set("table.2.meld.cards", ["7H", "8H", "9H"]),
            _set("players.0.hand", ["5H", "6H", "7H", "10H", "QS", "QD", "2S", "3S", "4D"]),
            _set("current.taken_meld", 3),
        ),
        "current.taken_meld",
        False,
    ),
    (
        "a take that could not be melded",
        base_doc,
        _set("players.0.hand", ["7H", "QS", "QD", "2S", "3S", "4D", "KC", "9C", "10D"]),
        "current.obligation",
        False,
    ),
]


@pytest.mark.parametrize(
    ("base", "change", "field", "by_schema"),
    [r[1:] for r in REFUSALS],
    ids=[r[0] for r in REFUSALS],
)
def test_a_refused_position_names_its_field(
    base: Callable[[], JSON], change: Callable[[JSON], None], field: str, by_schema: bool
) -> None:
    original = base()
    written(original)
    assert hr.Round.from_position(position_from_json(original)) is not None
    doc = copy.deepcopy(original)
    change(doc)
    with pytest.raises(hr.HandRummyError) as raised:
        position_from_json(doc)
    assert str(raised.value).startswith(f"{field}: "), str(raised.value)
    # the schema refuses what is wrong in form; what only the engine can see, it lets by
    assert bool(schema_errors("position.json", doc)) == by_schema, schema_errors(
        "position.json", doc
    )
    reply = ask({"ask": "legal_actions", "position": doc})
    assert reply["error"]["code"] == "BAD_POSITION"
    assert reply["error"]["message"].startswith(f"'position': {field}: ")


def test_refusals_from_python_name_the_field_too() -> None:
    """The Python description is checked by the same code, and wrong types get the
    library's own error (not a TypeError)."""
    with pytest.raises(hr.InvalidStateError, match=r"^players\[0\]\.hand_size: 3, but"):
        hr.Round.from_position(dispute(players=[seat("5H 6H 7H 8H QS QD 2S 3S 4D", 3), 9, 11]))
    with pytest.raises(hr.InvalidStateError, match=r"^turn: "):
        hr.Round.from_position(dispute(turn="0"))
    with pytest.raises(hr.InvalidStateError, match="the ruleset must be Ruleset"):
        hr.Round.from_position(dispute(ruleset="levant"))
    with pytest.raises(hr.InvalidStateError, match="the position must be Position"):
        hr.Round.from_position({"turn": 0})  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match=r"^openings\[0\]"):
        dispute(openings=[(0, 51, 3)])
    with pytest.raises(hr.HandRummyError):
        dispute(players=[seat("5H 6H 7X"), 9, 11])
    with pytest.raises(hr.InvalidStateError, match="the players must be a list"):
        dispute(players="5H 6H")
    with pytest.raises(hr.InvalidStateError, match=r"^current\.obligation"):
        hr.Round.from_position(dispute(current=hr.PositionTurn(taken="7H", obligation="x")))  # type: ignore[arg-type]


# --- positions of played rounds -------------------------------------------------------------

# a position holds no record of earlier turns: neither the history nor what it shows of the
# hands (the cards taken from the pile and still held) nor what a renewed stock was made of
_EARLIER = ("start", "history", "shown", "renewal", "drawn", "finder")
_COMPARED = [f.name for f in attrs.fields(hr.Round) if f.name not in _EARLIER]


def _check_played(game: hr.Round) -> None:
    """The position of a played round (every card listed) is that round, without its deal and
    history; its players' views give positions with the same legal actions for the mover."""
    doc = written(position_to_json(game))
    back = hr.Round.from_position(position_from_json(json.loads(json.dumps(doc))))
    for name in _COMPARED:
        assert getattr(back, name) == getattr(game, name), name
    legal = list(game.legal_actions())
    assert list(back.legal_actions()) == legal
    mine = written(position_to_json(game.view(game.turn)))
    seen = hr.Round.from_position(position_from_json(mine))
    assert list(seen.legal_actions()) == legal
    assert seen.view(game.turn) == attrs.evolve(
        game.view(game.turn), history=(), shown=(), shown_demoted=(), renewal=(), drawn=()
    )
    for other in range(game.players):
        if other != game.turn:  # the mover's hand is filled: only the public facts must hold
            theirs = hr.Round.from_position(game.view(other).position())
            assert theirs.view(other) == attrs.evolve(
                game.view(other), history=(), shown=(), shown_demoted=(), renewal=(), drawn=()
            )


@pytest.mark.parametrize("preset", sorted(hr.PRESETS))
def test_positions_of_played_rounds(preset: str) -> None:
    ruleset = hr.build(preset, [])
    for seed in range(2):
        players = ruleset.players.maximum if seed else ruleset.players.minimum
        game = hr.Round.deal(ruleset, players, seed=seed).keep_deal()
        rng = random.Random(seed)
        for _ in range(40):
            if game.is_over:
                break
            _check_played(game)
            game = game.apply(random_action(game, rng))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=rounds(max_steps=150))
def test_positions_of_rounds_of_every_variant(game: hr.Round) -> None:
    if game.phase not in (hr.Phase.DRAW, hr.Phase.PLAY):
        with pytest.raises(hr.InvalidStateError, match="a position is a round in play"):
            game.position()
        return
    _check_played(game)


def test_redeal_and_finished_rounds_are_no_positions() -> None:
    dealt = hr.Round.deal(LEVANT, 3, seed=2)
    assert dealt.phase is hr.Phase.REDEAL
    with pytest.raises(hr.InvalidStateError, match="phase 'redeal'"):
        position_to_json(dealt)
    assert written(position_to_json(dealt.keep_deal()))["phase"] == "play"


# --- rounds built from positions play on -----------------------------------------------------


def test_a_position_round_plays_to_the_end() -> None:
    """check, apply, legal actions, views and serialising all work on a round without a deal;
    a round document cannot hold it, and says why."""
    game = hr.Round.from_position(dispute(seed=11))
    rng = random.Random(4)
    steps = 0
    while not game.is_over and steps < 2000:
        view = game.view(game.turn)
        assert list(view.legal_actions()) == list(game.legal_actions())
        assert view_from_json(view_to_json(view)) == view
        text = dumps(game.position())
        assert loads(text, "position") == game.position()
        written(json.loads(text))
        action = random_action(game, rng)
        assert game.check(action).ok
        game = game.apply(action)
        steps += 1
    assert game.is_over and game.outcome is not None
    assert len(game.history) == steps
    for round_like in (game, hr.Round.from_position(dispute())):
        with pytest.raises(hr.InvalidStateError, match="write it as a position document"):
            round_to_json(round_like)
        with pytest.raises(hr.InvalidStateError, match="no deal to replay"):
            round_like.replay()
        with pytest.raises(hr.InvalidStateError, match="write it as a position document"):
            dumps(round_like)
    assert view_from_json(view_to_json(game.view(0))) == game.view(0)


def test_a_view_of_a_position_round_samples() -> None:
    game = hr.Round.from_position(dispute())
    sample = game.view(0).sample(random.Random(1))
    assert sample.view(0) == game.view(0)
    assert list(sample.legal_actions()) == list(game.legal_actions())


# --- the fill -------------------------------------------------------------------------------


def _owed_turns(games: int) -> Iterator[tuple[hr.Round, int]]:
    """Seeded random Levant play, at each turn where the card just taken must be melded (000
    §Taking the discard), with a seat that watches: its view knows the taken card and not
    the rest of the mover's hand."""
    rng = random.Random(20261206)
    for _ in range(games):
        game = hr.Round.deal(LEVANT, players=4, seed=rng.randrange(2**32))
        while not game.is_over:
            if game.current.obligation is hr.Obligation.MELD_TAKEN:
                yield game, (game.turn + 1) % 4
            game = game.apply(rng.choice(list(game.legal_actions())))


def test_a_watchers_view_of_a_meld_owed_loads_into_a_turn_that_can_make_it() -> None:
    # A random 15-card hand seldom holds an opening of 51 with the taken card (about one
    # deal in five does here), so the first fill alone left most of these rounds with no
    # move at all. The player did take the card, so some hand could make the meld.
    loaded = 0
    for game, seat in _owed_turns(12):
        view = game.view(seat)
        try:
            spot = hr.Round.from_position(view.position())
        except hr.InvalidStateError as refused:  # the documented end of the fills
            assert "fills of seat" in str(refused) and "list that hand whole" in str(refused)
            continue
        loaded += 1
        assert spot.legal_actions()
        assert spot.view(seat).position() == view.position()
        assert spot.current.obligation is hr.Obligation.MELD_TAKEN
        assert game.current.taken in spot.hand(game.turn)
    assert loaded >= 20


def test_a_sample_of_a_watchers_view_leaves_the_mover_a_move() -> None:
    seen = 0
    for game, seat in _owed_turns(6):
        view, rng = game.view(seat), random.Random(seen)
        for _ in range(3):
            sample = view.sample(rng)
            assert sample.legal_actions() and sample.view(seat) == view
        seen += 1
    assert seen >= 10


def test_a_watcher_knows_the_mover_holds_a_kept_freed_wild() -> None:
    """000 §Exchanging wild cards: the wild taken from a meld goes to the hand, and Levantine
    Hand lets the player keep it; everyone saw it taken, and only a lay-down or a lay-off
    would take it out again. So a watcher's view lists it in the mover's hand, and the rounds
    built from that view deal it there."""
    rng, seen = random.Random(7), 0
    for _ in range(30):
        game = hr.Round.deal(LEVANT, players=4, seed=rng.randrange(2**32))
        while not game.is_over:
            now = game.current
            if game.phase is hr.Phase.PLAY and now.freed and not (now.laid_down or now.laid_off):
                assert now.obligation is None  # kept, not owed
                view = game.view((game.turn + 1) % 4)
                assert now.freed in view.position().players[game.turn].hand
                assert now.freed in hr.Round.from_position(view.position()).hand(game.turn)
                assert now.freed in view.sample(random.Random(seen)).hand(game.turn)
                seen += 1
            game = game.apply(rng.choice(list(game.legal_actions())))
    assert seen >= 3


def test_a_fill_that_can_never_meet_the_owed_meld_is_refused() -> None:
    # 000 §Taking the discard with the 91 bar: the 5♣ taken must go into an opening of 91,
    # but these fourteen low cards and any one more reach nowhere near it
    rules = hr.build("levant", ["opening_91"])
    junk = "5C 2D 3H 4S 6D 7H 8S 9C 2H 3S 4D 6C 7S"

    def spot(hand: str) -> hr.Position:
        return hr.Position(
            rules,
            players=[hr.PositionSeat(hand, hand_size=15), 14, 14, 14],
            turn=0,
            phase=hr.Phase.PLAY,
            indicator="3C",
            current=hr.PositionTurn(taken=c("5C")),
        )

    with pytest.raises(hr.InvalidStateError, match="none of 1024 fills of seat 0's unlisted"):
        hr.Round.from_position(spot(junk))
    with pytest.raises(hr.InvalidStateError, match="seat 0 has no legal move here"):
        hr.Round.from_position(spot(junk + " 8D 9H"))  # listed whole, nothing to fill
    # checking alone leaves the unlisted cards to the fill, but not a hand listed whole
    check_position(spot(junk))
    with pytest.raises(hr.InvalidStateError, match="seat 0 has no legal move here"):
        check_position(spot(junk + " 8D 9H"))


def test_a_player_who_laid_off_before_opening_has_melded_without_opening() -> None:
    # RULES-MATRIX G5: with the switch, a Gulf player lays off before opening, so has melded

    def spot(variants: list[str]) -> hr.Position:
        return hr.Position(
            hr.build("gulf", variants),
            players=[
                hr.PositionSeat(hand_size=10),
                hr.PositionSeat(hand_size=13, melded=True),
                13,
                13,
            ],
            table=[hr.PositionMeld(1, 0, "9S 10S JS")],
            discards="KD",
            turn=1,
            phase=hr.Phase.DRAW,
        )

    game = hr.Round.from_position(spot(["layoff_before_opening"]))
    assert game.melded[:2] == (True, True) and game.opened[:2] == (True, False)
    with pytest.raises(hr.InvalidStateError, match=r"players\[1\].melded: true, but the player"):
        hr.Round.from_position(spot([]))


def test_one_card_is_owed_only_after_the_lay_off_that_promises_it() -> None:
    """000 §Exchanging wild cards (RULES-MATRIX L10): one missing card laid on a set of two
    naturals and a wild (5♠ 5♦ and the wild A♣ under the 8♣) binds the turn to end out or on
    one card, unless someone has announced one card already."""

    def spot(
        set_cards: str, hand: str, announced: int | None = None, other: int = 14
    ) -> hr.Position:
        return hr.Position(
            LEVANT,
            players=[
                seat(hand, melded=False),
                hr.PositionSeat(hand_size=other, announced=announced),
            ],
            table=[
                hr.PositionMeld(1, 0, set_cards),
                hr.PositionMeld(2, 0, "JH QH KH"),
                hr.PositionMeld(3, 0, "7S 7D 7H"),
            ],
            discards="6D",
            indicator="8C",
            turn=0,
            phase=hr.Phase.PLAY,
            current=hr.PositionTurn(
                laid_down=True, laid_off=True, obligation=hr.Obligation.ONE_CARD
            ),
        )

    promised = hr.Round.from_position(spot("5S 5D AC 5H", "9C 10C JC 2D KS"))
    assert promised.current.obligation is hr.Obligation.ONE_CARD
    # the 9♣ 10♣ J♣ can still go down, and the discard leave one card
    assert list(promised.legal_actions()) == [lay("9C 10C JC")]
    with pytest.raises(hr.InvalidStateError, match="no set on the table has the four cards"):
        hr.Round.from_position(spot("5S 5D AC", "9C 10C JC 2D KS 5H"))
    with pytest.raises(hr.InvalidStateError, match="seat 1 has announced one card"):
        hr.Round.from_position(spot("5S 5D AC 5H", "9C 10C JC 2D KS", announced=1, other=1))


def test_turns_played_follow_the_order_of_play() -> None:
    """Play goes round from the starter, the seat after the dealer (000 §Setup): with seat 0
    dealing, seat 1 starts, so when seat 2 is on its first turn, seat 1 has played one turn
    and seats 3 and 0 none (000 §End of a round: no one goes out on their first turn)."""

    def spot(*played: int | None) -> hr.Position:
        seats = [hr.PositionSeat(hand_size=14, turns_played=n) for n in played]
        return hr.Position(
            LEVANT, seats, turn=2, phase=hr.Phase.DRAW, discards="5D", dealer=0, indicator="8C"
        )

    assert hr.Round.from_position(spot(None, None, 0, None)).turns_played == (0, 1, 0, 0)
    assert hr.Round.from_position(spot(None, None, None, None)).turns_played == (1, 1, 1, 1)
    with pytest.raises(hr.InvalidStateError, match=r"players\[3\].turns_played: 1, but seat 2 is"):
        hr.Round.from_position(spot(None, None, 0, 1))
    with pytest.raises(hr.InvalidStateError, match=r"players\[1\].turns_played: 0, but plays"):
        hr.Round.from_position(spot(None, 0, 0, None))
    with pytest.raises(hr.InvalidStateError, match="everyone plays once before anyone"):
        hr.Round.from_position(spot(0, None, 2, None))


def test_an_opening_laid_this_turn_is_the_latest() -> None:
    """004 §The four variants (Saudi, matrix P8): each opening must beat the last one made.
    Seat 0 laid its first melds this turn, so seat 1's opening came before it, whatever
    seat numbers say: by default seat 1's is the 51 and seat 0's the 52 that beat it, and a
    list putting seat 0's first is refused even where each value beats the one before."""

    def spot(openings: list[tuple[int, int]] | None) -> hr.Position:
        return hr.Position(
            hr.rulesets.saudi,
            players=[seat("2C 9D", 5, melded=False), 8],
            table=[
                meld(1, 1, "JS JD JC"),
                meld(2, 1, "10S 10D 10C"),
                meld(3, 0, "KS KD KH"),
                meld(4, 0, "9H 10H JH QH"),
            ],
            discards="4S",
            turn=0,
            phase=hr.Phase.PLAY,
            current=hr.PositionTurn(laid_down=True),
            openings=openings,
        )

    default = hr.Round.from_position(spot(None)).openings
    assert [(r.seat, r.points) for r in default] == [(1, 51), (0, 52)]
    given = hr.Round.from_position(spot([(1, 60), (0, 69)])).openings
    assert [(r.seat, r.points) for r in given] == [(1, 60), (0, 69)]
    with pytest.raises(hr.InvalidStateError, match=r"openings\[0\]: seat 0 opened this turn"):
        hr.Round.from_position(spot([(0, 69), (1, 70)]))


def test_a_later_fill_attempt_shuffles_with_its_own_seed() -> None:
    cards = sorted(Counter(p.card for p in LEVANT.deck.cards()).elements(), key=lambda k: k.index)
    again = list(cards)
    random.Random("7:fill:3").shuffle(again)
    assert fill_cards(cards, 7, attempt=3) == again != fill_cards(cards, 7)


def test_the_fill_follows_its_documented_rule() -> None:
    """docs/positions.rst, "The fill": the unlisted cards in card order, shuffled with
    random.Random(f"{seed}:fill"), dealt to the hands in seat order, then under the listed
    discards, then under the listed stock."""
    spot = dispute(seed=7, stock="2H 3H")
    game = hr.Round.from_position(spot)
    listed = Counter(spot.players[0].hand) + Counter(spot.discards) + Counter(spot.stock)
    listed[c("8C")] += 1
    for m in spot.table:
        listed.update(m.meld.cards)
    unknown = sorted((Counter(p.card for p in LEVANT.deck.cards()) - listed).elements())
    order = list(unknown)
    random.Random("7:fill").shuffle(order)
    assert order == fill_cards(unknown, 7)
    assert Counter(game.hand(1)) == Counter(order[:9])
    assert Counter(game.hand(2)) == Counter(order[9:20])
    assert game.discards == (*order[20:39], c("5D"))
    assert game.stock == (*order[39:], c("2H"), c("3H"))
    assert game.stock[-1] == c("3H")  # the next card drawn


def test_the_fill_is_deterministic_and_the_seed_moves_only_what_is_left_out() -> None:
    first, again = hr.Round.from_position(dispute(seed=3)), hr.Round.from_position(dispute(seed=3))
    other = hr.Round.from_position(dispute(seed=4))
    assert first == again
    assert first.hands[1:] != other.hands[1:]
    assert first.hands[0] == other.hands[0] and first.discards[-1] == other.discards[-1]
    assert first.discards[:-1] != other.discards[:-1]  # the 19 discards nobody remembers
    assert attrs.evolve(first.view(0), discards=()) == attrs.evolve(other.view(0), discards=())
    assert list(first.legal_actions()) == list(other.legal_actions())


def test_position_state_is_the_state_of_from_position() -> None:
    spot = dispute()
    assert hr.Round.from_state(position_state(spot)) == hr.Round.from_position(spot)


# --- fill_deal ------------------------------------------------------------------------------


def test_fill_deal_places_the_given_cards_and_fills_the_rest() -> None:
    deal = hr.fill_deal(
        LEVANT, 3, hands={1: "7H 8H 9H AC", 2: "KS"}, stock="2C 3C", indicator="8C", seed=5
    )
    # dealer 0: seat 1 starts with the 15th card (000 §Setup 2)
    assert [len(h) for h in deal.hands] == [14, 15, 14]
    assert deal.hands[1][:4] == hr.parse_cards("7H 8H 9H AC") and deal.hands[2][0] == c("KS")
    assert deal.stock[-2:] == hr.parse_cards("2C 3C") and deal.indicator == c("8C")
    assert deal.discards == ()
    assert deal == hr.fill_deal(
        LEVANT, 3, hands={1: "7H 8H 9H AC", 2: "KS"}, stock="2C 3C", indicator="8C", seed=5
    )
    game = deal.round(LEVANT, dealer=0, seed=5).keep_deal()
    assert game.turn == 1 and game.legal_actions().count() == 15


def test_fill_deal_turns_an_indicator_and_an_upcard_where_the_rules_do() -> None:
    for seed in range(20):
        levant = hr.fill_deal(LEVANT, 4, seed=seed)
        assert levant.indicator is not None and not levant.indicator.is_joker
        gulf = hr.fill_deal(GULF, 4, seed=seed)
        assert gulf.indicator is None and len(gulf.discards) == 1  # 003 §The Deck
        assert len(gulf.stock) == 108 - 4 * 13 - 1  # 55 (RULES-MATRIX G2)
        hr.Round.from_deal(GULF, gulf.hands, gulf.stock, discards=gulf.discards)


def test_fill_deal_refusals() -> None:
    with pytest.raises(hr.InvalidStateError, match="does not hold so many"):
        hr.fill_deal(ROMME, 2, hands={0: "KS KS KS"})
    with pytest.raises(hr.InvalidStateError, match=r"hands\[1\]: 16 cards; the deal gives"):
        hr.fill_deal(
            LEVANT,
            2,
            hands={
                1: ["KS"] * 2 + list(hr.parse_cards("2C 3C 4C 5C 6C 7C 9C 10C JC QC KC 2D 3D 4D"))
            },
        )
    with pytest.raises(hr.InvalidStateError, match="no seat 2"):
        hr.fill_deal(ROMME, 2, hands={2: "KS"})
    with pytest.raises(hr.InvalidStateError, match="turns no indicator"):
        hr.fill_deal(ROMME, 2, indicator="8C")
    with pytest.raises(hr.InvalidStateError, match="turned again"):
        hr.fill_deal(LEVANT, 2, indicator="JK")
    with pytest.raises(hr.InvalidStateError, match=r"is for .*, not 7"):
        hr.fill_deal(ROMME, 7)
    with pytest.raises(hr.InvalidStateError, match="the hands must be Mapping"):
        hr.fill_deal(ROMME, 2, hands=["KS"])  # type: ignore[arg-type]


# --- the referee's position questions --------------------------------------------------------


def test_referee_positions_and_rounds_give_the_same_answers() -> None:
    game = hr.Round.deal(ROMME, 3, seed=9)
    rng = random.Random(9)
    for _ in range(40):
        game = game.apply(random_action(game, rng))
    as_round = {"ask": "legal_actions", "round": round_to_json(game), "limit": 50}
    as_position = {"ask": "legal_actions", "position": written(position_to_json(game)), "limit": 50}
    assert ask(as_round) == ask(as_position)
    action = json.loads(dumps(next(iter(game.legal_actions()))))
    for key in ("round", "position"):
        question = {
            "ask": "action",
            key: as_position[key] if key == "position" else as_round[key],
            "action": action,
        }
        assert ask(question)["ok"] is True


def test_referee_position_pages_and_rules() -> None:
    doc = written(position_to_json(dispute()))
    page = ask({"ask": "legal_actions", "position": doc, "offset": 1, "limit": 1})
    assert page["actions"] == [{"type": "lay_down", "melds": [{"cards": ["5H", "6H", "7H", "8H"]}]}]
    assert page["more"] is True
    same = {"rules": "levant", "indicator": "8C"}
    assert "error" not in ask({"ask": "legal_actions", "position": doc, **same})
    other = ask({"ask": "legal_actions", "position": doc, "rules": "romme"})
    assert (
        other["error"]["code"] == "BAD_FIELD"
        and "the position is played under" in other["error"]["message"]
    )
    wrong = ask({"ask": "legal_actions", "position": doc, "indicator": "9C"})
    assert wrong["error"]["code"] == "BAD_INDICATOR"


def test_referee_takes_a_position_s_variants_in_any_order() -> None:
    """Variants apply in the catalogue's order whatever order they are named in, so a
    question naming a position's variants in another order asks about the same rules;
    a missing or extra variant is still refused."""
    ruleset = hr.build("romme", ["no_rediscard_taken", "tournament_jokers"])
    spot = hr.Position(ruleset, [seat("5C 6C 2H 9S"), 13], 0, hr.Phase.DRAW, discards="7C")
    doc = written(position_to_json(spot))
    for variants in (["no_rediscard_taken", "tournament_jokers"], list(ruleset.variants)):
        question = {"ask": "legal_actions", "position": doc, "rules": "romme"}
        assert "error" not in ask({**question, "variants": variants})
    for variants in (["no_rediscard_taken"], [*ruleset.variants, "joker_30"], [7]):
        reply = ask({**question, "variants": variants})
        assert reply["error"]["code"] == "BAD_FIELD", variants


def test_referee_wants_a_round_or_a_position() -> None:
    doc = written(position_to_json(dispute()))
    both = {
        "ask": "legal_actions",
        "position": doc,
        "round": round_to_json(hr.Round.deal(ROMME, 2, seed=1)),
    }
    assert ask(both)["error"]["code"] == "BAD_FIELD" and schema_errors("question.json", both)
    neither = {"ask": "action", "action": {"type": "draw"}}
    assert ask(neither)["error"]["code"] == "MISSING_FIELD" and schema_errors(
        "question.json", neither
    )
    text = {"ask": "legal_actions", "position": "levant"}
    assert ask(text)["error"]["code"] == "BAD_FIELD"


def test_referee_position_limits() -> None:
    doc = written(position_to_json(dispute()))
    big = copy.deepcopy(doc)
    big["players"][1] = {"hand": ["2H"] * 109}
    assert ask({"ask": "legal_actions", "position": big})["error"]["limit"] == "cards"
    many = copy.deepcopy(doc)
    many["table"] = [
        {"id": i, "owner": 0, "meld": {"cards": ["2H", "3H", "4H"]}} for i in range(1, 38)
    ]
    reply = ask({"ask": "legal_actions", "position": many})
    assert (reply["error"]["code"], reply["error"]["limit"]) == ("LIMIT", "melds")
    for question in (
        {"ask": "legal_actions", "position": big},
        {"ask": "legal_actions", "position": many},
    ):
        assert schema_errors("question.json", question)


def test_a_huge_hand_size_is_refused_before_anything_is_built() -> None:
    doc = written(position_to_json(dispute()))
    doc["players"][1] = {"hand_size": 10**39}
    reply = ask({"ask": "legal_actions", "position": doc})
    assert (
        reply["error"]["code"] == "BAD_POSITION"
        and "'position': players:" in reply["error"]["message"]
    )


def test_position_documents_in_json_text() -> None:
    text = dumps(dispute())
    assert loads(text, "position") == dispute()
    written(json.loads(text))
    with pytest.raises(hr.InvalidStateError, match="'position'"):
        loads(text, "deal")  # type: ignore[arg-type]
    with pytest.raises(
        hr.InvalidStateError, match="kind='position' does not read a round document"
    ):
        loads(dumps(hr.Round.deal(ROMME, 2, seed=1)), "position")


# --- mutated position documents ------------------------------------------------------------

_ODD_VALUES = st.sampled_from(
    [None, True, False, 0, 1, -1, 3, 10**6, "7H", "JK", "x", "", "draw", "meld_taken", "AC", 1.5]
) | st.lists(st.sampled_from(["7H", "AC", "JK", "KS", 2]), max_size=3)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:4]):
            yield from _paths(inner, (*prefix, index))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), base=st.sampled_from([base_doc, romme_doc]))
def test_mutated_position_questions(data: st.DataObject, base: Callable[[], JSON]) -> None:
    """Whatever a position document holds, the referee answers it without failing inside;
    a question that it answers fits the schema, and one that fits the schema is refused,
    if at all, only for what a schema cannot see."""
    doc = base()
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_paths(doc))))
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        if isinstance(target, dict) and data.draw(st.booleans()):
            del target[path[-1]]
        else:
            target[path[-1]] = data.draw(_ODD_VALUES)
    question = {"ask": "legal_actions", "position": doc}
    reply = ask(question)
    if "error" in reply:
        assert reply["error"]["code"] in ("BAD_POSITION", "BAD_FIELD", "LIMIT"), reply
        if not schema_errors("question.json", question):
            assert reply["error"]["code"] == "BAD_POSITION", reply


# --- the cards a turn has put on the table ----------------------------------------------------


def _on_table(game: hr.Round) -> Counter[hr.Card]:
    return Counter(card for meld in game.table for card in meld.meld.cards)


def test_the_cards_a_turn_melded_follow_a_joker_freed_and_melded_again() -> None:
    """Rommé, seat 0 has not melded: it opens with three melds (a joker as the 6♦), lays the
    8♦ off on its own run, puts the 6♦ in for the joker and melds the joker again as the
    2♣, then discards its last card. Every card this turn put on the table lies there once,
    and the freed joker is not counted twice when the round ends."""
    spot = hr.Position(
        hr.rulesets.romme,
        players=[hr.PositionSeat("10C JC QC 5D JK 7D 6D AC 3C KC KD KH 8D 2D"), 13],
        discards="4S",
        discard_size=1,
        turn=0,
        phase=hr.Phase.PLAY,
    )
    game = hr.Round.from_position(spot)
    run = hr.Meld.of("5D JK 7D", roles={1: "6D"})
    game = game.apply(hr.LayDown((hr.Meld.of("10C JC QC"), run, hr.Meld.of("KC KD KH"))))
    game = game.apply(hr.LayOff(2, hr.parse_card("8D")))
    assert Counter(game.current.melded) == _on_table(game)
    game = game.apply(hr.Exchange(2, (hr.parse_card("6D"),)))
    assert hr.parse_card("JK") in game.hand(0)
    assert Counter(game.current.melded) == _on_table(game)  # the joker is back in the hand
    game = game.apply(hr.LayDown((hr.Meld.of("AC JK 3C", roles={1: "2C"}),)))
    assert Counter(game.current.melded) == _on_table(game)
    assert sorted(game.current.melded).count(hr.parse_card("JK")) == 1
    game = game.apply(hr.Discard(hr.parse_card("2D")))
    assert game.is_over and game.outcome is not None and game.outcome.winner == 0


def test_a_position_s_melded_cards_must_lie_on_the_table() -> None:
    """``current.melded`` names cards on the table: a card no meld holds is refused, as the
    end of the round would count it beside the hands."""
    base = {
        "players": [hr.PositionSeat("2D 9S 4H", melded=False), 13],
        "table": [hr.PositionMeld(1, 0, "10C JC QC")],
        "discards": "4S",
        "discard_size": 1,
        "turn": 0,
        "phase": hr.Phase.PLAY,
    }
    laid = hr.PositionTurn(laid_down=True, melded="10C JC QC")
    assert hr.Round.from_position(hr.Position(hr.rulesets.romme, current=laid, **base))
    extra = hr.PositionTurn(laid_down=True, melded="10C JC QC JK")
    with pytest.raises(hr.InvalidStateError, match=r"current.melded: lists JK more often"):
        hr.Round.from_position(hr.Position(hr.rulesets.romme, current=extra, **base))
    earlier = {**base, "players": [hr.PositionSeat("2D 9S 4H", melded=True), 13]}
    nothing = hr.PositionTurn(melded="10C JC QC")
    with pytest.raises(hr.InvalidStateError, match="this turn has put none on the table"):
        hr.Round.from_position(hr.Position(hr.rulesets.romme, current=nothing, **earlier))
