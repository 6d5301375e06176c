"""Wrong Python types given to the public functions raise the library's own errors.

A caller who passes a number where a meld goes, or text where a card object goes,
gets a :class:`~hand_rummy.HandRummyError` that names what was wrong, never a
TypeError or AttributeError from deep inside.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import hand_rummy as hr
from hand_rummy import serialize

LEVANT = hr.MeldRules.of(hr.rulesets.levant, "8C")
RUN = hr.Meld.of("7H 8H 9H")
GAME = hr.Round.deal(hr.rulesets.romme, 2, seed=1)

CALLS: dict[str, Callable[[], object]] = {
    "parse_cards(None)": lambda: hr.parse_cards(None),  # type: ignore[arg-type]
    "parse_cards(5)": lambda: hr.parse_cards(5),  # type: ignore[arg-type]
    "Meld.of(5)": lambda: hr.Meld.of(5),  # type: ignore[arg-type]
    "Meld.of(None)": lambda: hr.Meld.of(None),  # type: ignore[arg-type]
    "Meld.of roles keyed by text": lambda: hr.Meld.of("7H 8H 9H", roles={"1": "8H"}),  # type: ignore[dict-item]
    "Meld.of(roles=5)": lambda: hr.Meld.of("7H 8H 9H", roles=5),  # type: ignore[arg-type]
    "Meld.of(demoted=5)": lambda: hr.Meld.of("7H 8H 9H", demoted=5),  # type: ignore[arg-type]
    "MeldRules.of('levant')": lambda: hr.MeldRules.of("levant"),  # type: ignore[arg-type]
    "MeldRules.of(levant, 5)": lambda: hr.MeldRules.of(hr.rulesets.levant, 5),  # type: ignore[arg-type]
    "judge_meld(123, rules)": lambda: hr.judge_meld(123, LEVANT),  # type: ignore[arg-type]
    "judge_meld(text, rules)": lambda: hr.judge_meld("7H 8H 9H", LEVANT),  # type: ignore[arg-type]
    "judge_meld(meld, 'levant')": lambda: hr.judge_meld(RUN, "levant"),  # type: ignore[arg-type]
    "judge_opening(5, rules)": lambda: hr.judge_opening(5, LEVANT),  # type: ignore[arg-type]
    "judge_opening([5], rules)": lambda: hr.judge_opening([5], LEVANT),  # type: ignore[list-item]
    "judge_opening(required='x')": lambda: hr.judge_opening([RUN], LEVANT, required="x"),  # type: ignore[arg-type]
    # a flag given as text would read as true and let a below-bar opening through
    "judge_opening(exempt='no')": lambda: hr.judge_opening([RUN], LEVANT, exempt="no"),  # type: ignore[arg-type]
    "judge_opening(required=-1)": lambda: hr.judge_opening([RUN], LEVANT, required=-1),
    "LayoffContext(going_out='no')": lambda: hr.LayoffContext(going_out="no"),  # type: ignore[arg-type]
    "LayoffContext(one_card_announced=1)": lambda: hr.LayoffContext(one_card_announced=1),  # type: ignore[arg-type]
    "LayoffContext(announcing_one_card=None)": lambda: hr.LayoffContext(announcing_one_card=None),  # type: ignore[arg-type]
    "hand_value(5, rules)": lambda: hr.hand_value(5, LEVANT),  # type: ignore[arg-type]
    "hand_value([5], rules)": lambda: hr.hand_value([5], LEVANT),  # type: ignore[list-item]
    "card_penalty('KS', rules)": lambda: hr.card_penalty("KS", LEVANT),  # type: ignore[arg-type]
    "score_round(5, rules)": lambda: hr.score_round(5, LEVANT),  # type: ignore[arg-type]
    "lay_off(meld, 5, rules)": lambda: hr.lay_off(RUN, 5, LEVANT),  # type: ignore[arg-type]
    "exchange(5, [], rules)": lambda: hr.exchange(5, [], LEVANT),  # type: ignore[arg-type]
    "build(5)": lambda: hr.build(5),  # type: ignore[arg-type]
    "build('levant', 5)": lambda: hr.build("levant", 5),  # type: ignore[arg-type]
    "build('levant', [5])": lambda: hr.build("levant", [5]),  # type: ignore[list-item]
    "build('levant', 'opening_71')": lambda: hr.build("levant", "opening_71"),
    "Round.deal('x', 2, 1)": lambda: hr.Round.deal("x", 2, 1),  # type: ignore[arg-type]
    "Round.deal(romme, 'x', 1)": lambda: hr.Round.deal(hr.rulesets.romme, "x", 1),  # type: ignore[arg-type]
    "Round.deal(dealer='x')": lambda: hr.Round.deal(hr.rulesets.romme, 2, 1, dealer="x"),  # type: ignore[arg-type]
    "Round.from_deal(romme, 5, [])": lambda: hr.Round.from_deal(hr.rulesets.romme, 5, []),  # type: ignore[arg-type]
    "game.view('x')": lambda: GAME.view("x"),  # type: ignore[arg-type]
    "game.hand('x')": lambda: GAME.hand("x"),  # type: ignore[arg-type]
    "game.hand(9)": lambda: GAME.hand(9),
    "apply(Discard(None))": lambda: GAME.apply(hr.Discard(None)),  # type: ignore[arg-type]
    "apply(Discard('6C'))": lambda: GAME.apply(hr.Discard("6C")),  # type: ignore[arg-type]
    "apply(LayDown(5))": lambda: GAME.apply(hr.LayDown(5)),  # type: ignore[arg-type]
    "Match.new('x', 2, 1)": lambda: hr.Match.new("x", 2, 1),  # type: ignore[arg-type]
    "Match.new(romme, 'x', 1)": lambda: hr.Match.new(hr.rulesets.romme, "x", 1),  # type: ignore[arg-type]
    "MeldFinder.of(5)": lambda: hr.MeldFinder.of(5),  # type: ignore[arg-type]
    "meld_to_json(5)": lambda: serialize.meld_to_json(5),  # type: ignore[arg-type]
    "round_to_json(5)": lambda: serialize.round_to_json(5),  # type: ignore[arg-type]
    "rules_to_json(5)": lambda: serialize.rules_to_json(5),  # type: ignore[arg-type]
    "view_to_json(5)": lambda: serialize.view_to_json(5),  # type: ignore[arg-type]
    "match_to_json(5)": lambda: serialize.match_to_json(5),  # type: ignore[arg-type]
    "position_to_json(5)": lambda: serialize.position_to_json(5),  # type: ignore[arg-type]
    "Round.from_position(5)": lambda: hr.Round.from_position(5),  # type: ignore[arg-type]
    "Position('levant', ...)": lambda: hr.Round.from_position(
        hr.Position("levant", [14, 14], 0, hr.Phase.DRAW)  # type: ignore[arg-type]
    ),
    "Position(players=5)": lambda: hr.Position(hr.rulesets.romme, 5, 0, hr.Phase.DRAW),  # type: ignore[arg-type]
    "Position(phase='draw')": lambda: hr.Round.from_position(
        hr.Position(hr.rulesets.romme, [13, 13], 0, "draw")  # type: ignore[arg-type]
    ),
    "Position(table=[5])": lambda: hr.Round.from_position(
        hr.Position(hr.rulesets.romme, [13, 13], 0, hr.Phase.DRAW, table=[5])  # type: ignore[list-item]
    ),
    "Position(openings=[(0, 'x')])": lambda: hr.Position(
        hr.rulesets.romme,
        [13, 13],
        0,
        hr.Phase.DRAW,
        openings=[(0, "x")],  # type: ignore[list-item]
    ),
    "PositionSeat(5)": lambda: hr.PositionSeat(5),  # type: ignore[arg-type]
    "PositionSeat(hand_size='3')": lambda: hr.Round.from_position(
        hr.Position(hr.rulesets.romme, [hr.PositionSeat(hand_size="3"), 13], 0, hr.Phase.DRAW)  # type: ignore[arg-type]
    ),
    "PositionMeld(1, 0, 5)": lambda: hr.PositionMeld(1, 0, 5),  # type: ignore[arg-type]
    "PositionTurn(taken=5)": lambda: hr.PositionTurn(taken=5),  # type: ignore[arg-type]
    "fill_deal(5, 2)": lambda: hr.fill_deal(5, 2),  # type: ignore[arg-type]
    "fill_deal(hands={0: 5})": lambda: hr.fill_deal(hr.rulesets.romme, 2, hands={0: 5}),  # type: ignore[dict-item]
    "view.sample(5)": lambda: GAME.view(0).sample(5),  # type: ignore[arg-type]
    "view.sample(None)": lambda: GAME.view(0).sample(None),  # type: ignore[arg-type]
    "hand_value(cards, ruleset)": lambda: hr.hand_value("KS", hr.rulesets.levant),  # type: ignore[arg-type]
    "parse_cards(b'7H')": lambda: hr.parse_cards(b"7H"),  # type: ignore[arg-type]
    "parse_cards(['7H', 5])": lambda: hr.parse_cards(["7H", 5]),  # type: ignore[list-item]
    "svg.view(round)": lambda: _svg().view(GAME),  # type: ignore[arg-type]
    "dumps(Discard('KS'))": lambda: serialize.dumps(hr.Discard("KS")),  # type: ignore[arg-type]
    "dumps(LayOff(1, 'KS'))": lambda: serialize.dumps(hr.LayOff(1, "KS")),  # type: ignore[arg-type]
    "dumps(LayDown(None))": lambda: serialize.dumps(hr.LayDown(None)),  # type: ignore[arg-type]
    "action_to_json(Exchange(1, ['KS']))": lambda: serialize.action_to_json(
        hr.Exchange(1, ["KS"])  # type: ignore[arg-type]
    ),
}


def _svg() -> Any:
    from hand_rummy import svg  # noqa: PLC0415

    return svg


def test_a_wrong_type_names_what_to_pass() -> None:
    # the messages name the public type or the argument's place, not an internal one
    with pytest.raises(hr.InvalidStateError, match=r"random generator \(random.Random"):
        GAME.view(0).sample(5)  # type: ignore[arg-type]
    with pytest.raises(hr.CardParseError, match="got bytes"):
        hr.parse_cards(b"7H")  # type: ignore[arg-type]
    with pytest.raises(hr.CardParseError, match="item 1 of the list is int 5"):
        hr.parse_cards(["7H", 5])  # type: ignore[list-item]
    with pytest.raises(hr.CardParseError, match="'1OH' at item 2 of the list"):
        hr.parse_cards(["7H", "8H", "1OH"])
    with pytest.raises(hr.InvalidStateError, match="must be a PlayerView"):
        _svg().view(GAME)


def test_a_malformed_action_is_refused_not_answered() -> None:
    # membership answers for moves; an action that names its card as text is a mistake in
    # the asking, which a plain "no" would hide, so it is refused as check() refuses it
    legal = GAME.legal_actions()
    waiting = GAME.view((GAME.turn + 1) % GAME.players).legal_actions()  # lists nothing
    assert None not in legal and None not in waiting
    for malformed in (hr.Discard("2C"), hr.LayDown(5)):  # type: ignore[arg-type]
        for listing in (legal, waiting):
            with pytest.raises(hr.InvalidStateError, match="must be"):
                assert malformed in listing
    assert all(action in legal for action in legal)
