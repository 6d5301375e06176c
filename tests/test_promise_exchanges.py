"""Exchanges in a turn bound by a promise (000 §The first meld, §Exchanging wild cards;
RULES-MATRIX L10, L11).

A below-bar opening binds the rest of the turn to going out, and one missing card laid on
a set of two naturals and a wild binds it to ending out or on one card. Neither promise
forbids taking a wild from the table: 000 lets an opened player do so "from the moment
[the first meld] is down – even in the same turn", and under 000 the freed wild may be kept
in the hand. So an exchange is legal under a promise exactly when the turn can still keep
the promise after it.

The indicator is the 8♣ throughout, so the two A♣ are wild (000 §Wild cards).
"""

from __future__ import annotations

import attrs

import hand_rummy as hr
from hand_rummy import Code, Phase, Position
from hand_rummy import PositionMeld as M
from hand_rummy import PositionSeat as S
from hand_rummy.rules.turn import FreedWild
from scripted import c, cs
from three_ways import ok, refused

HEARTS = M(1, 1, hr.Meld.of("7H AC 9H"))  # seat 1's run; its A♣ is the 8♥


def _position(spec: str | hr.Ruleset, hand: str, table: list[M]) -> hr.Round:
    if isinstance(spec, str):
        preset, *variants = spec.split("+")
        spec = hr.build(preset, variants)
    seats = [S(hand, turns_played=2), 9, 9]  # seat 0 to play, past its first turn
    return hr.Round.from_position(
        Position(
            spec,
            seats,
            turn=0,
            phase=Phase.PLAY,
            indicator="8C",
            discards="9S",
            table=table,
        )
    )


def test_an_exchange_that_keeps_a_below_bar_promise() -> None:
    game = _position("levant", "2S 3S 4S 5D 6D 7D 8H 8S 8D KC", [HEARTS])
    # 2 + 3 + 4 = 9 points, under 51: legal because the rest can go out this turn
    # (5♦ 6♦ 7♦, 8♥ 8♠ 8♦, then the K♣ as the last discard)
    game = ok(game, hr.LayDown.of("2S 3S 4S"))
    # the 8♥ buys seat 1's A♣; the turn can still go out: 5♦ 6♦ 7♦, 8♠ 8♦ A♣, discard K♣
    after = ok(game, hr.Exchange.of(1, "8H"))
    assert sorted(after.hand(0)) == sorted(cs("5D 6D 7D 8S 8D AC KC"))
    assert after.table[0].meld.cards == cs("7H 8H 9H")
    # the promise still binds the turn: seven cards cannot end it with one discard
    refused(after, hr.Discard(c("KC")), Code.OPENING_BELOW_THRESHOLD)
    ok(ok(ok(after, hr.LayDown.of("5D 6D 7D")), hr.LayDown.of("8S 8D AC")), hr.Discard(c("KC")))


def test_a_hand_may_take_no_wild_from_another_players_meld() -> None:
    # with only a Hand exempt from the bar (000 §Variants), the same opening stands, since
    # its three new melds and a discard make a Hand; but a Hand adds to no other player's
    # meld (000 §End of a round), and the exchange puts the 8♥ into seat 1's run
    game = _position("levant+exemption_hand_only", "2S 3S 4S 5D 6D 7D 8H 8S 8D KC", [HEARTS])
    game = ok(game, hr.LayDown.of("2S 3S 4S"))
    refused(game, hr.Exchange.of(1, "8H"), Code.OPENING_BELOW_THRESHOLD)


def test_an_exchange_that_keeps_the_one_card_promise() -> None:
    # seat 1's 5♥ 5♠ A♣ misses the 5♣ and the 5♦; laying the 5♣ alone binds the turn to
    # end out or on one card (000 §Exchanging wild cards, L10)
    table = [
        M(1, 1, hr.Meld.of("5H 5S AC")),
        M(2, 2, hr.Meld.of("7H AC 9H")),
        M(3, 0, hr.Meld.of("JD QD KD")),  # seat 0's own: it has opened
    ]
    game = _position("levant", "5C 8H 6D 7D 8D KS", table)
    game = ok(game, hr.LayOff.of(1, "5C"))
    # after the exchange the hand is 6♦ 7♦ 8♦ K♠ A♣: 6♦ 7♦ 8♦ down, a discard, one card left
    after = ok(game, hr.Exchange.of(2, "8H"))
    assert sorted(after.hand(0)) == sorted(cs("6D 7D 8D KS AC"))
    # still bound: discarding now would leave four cards
    refused(after, hr.Discard(c("KS")), Code.LAYOFF_TWO_PLUS_WILD)
    ok(ok(after, hr.LayDown.of("6D 7D 8D")), hr.Discard(c("KS")))


def test_a_below_bar_opening_whose_only_way_out_takes_a_wild() -> None:
    # 2♠ 3♠ 4♠ is 9 points. What it leaves, 8♥ 5♦ 6♦ K♣, goes out only by taking seat 1's
    # A♣ with the 8♥ and laying 5♦ 6♦ A♣ (the A♣ as the 7♦), then discarding the K♣: no
    # meld or lay-off takes the 8♥, 5♦ or 6♦ otherwise. So the opening stands (L11)
    game = _position("levant", "2S 3S 4S 8H 5D 6D KC", [HEARTS])
    game = ok(game, hr.LayDown.of("2S 3S 4S"))
    game = ok(game, hr.Exchange.of(1, "8H"))
    game = ok(game, hr.LayDown((hr.Meld.of("5D 6D AC", roles={2: "7D"}),)))
    done = ok(game, hr.Discard(c("KC")))
    assert done.is_over


def test_where_the_freed_wild_must_be_melded_at_once_no_way_out_takes_one() -> None:
    # the same hand under rules that make a freed wild go into a new meld at once (002's
    # rule, here on Levant): that duty and the promise cannot both be owed, so the exchange
    # cannot be part of a way out, and the opening that needs it is refused (docs/rounds.rst)
    levant = hr.build("levant")
    strict = levant.with_(exchange=attrs.evolve(levant.exchange, freed_wild=FreedWild.NEW_MELD))
    game = _position(strict, "2S 3S 4S 8H 5D 6D KC", [HEARTS])
    opening = hr.LayDown.of("2S 3S 4S")
    # (a ruleset changed by hand has no JSON form, so the referee is not asked here)
    assert game.check(opening).codes == (Code.OPENING_BELOW_THRESHOLD,)
    assert opening not in game.legal_actions()


def test_a_freed_wild_helps_the_cards_of_one_suit_or_of_one_rank() -> None:
    """Below the bar, the only way out takes seat 1's A♣ (the 8♥) with the 8♥ and melds it
    with two cards that nothing else would place: they must share a suit (9♦ A♣ J♦) or a
    rank (9♦ 9♣ A♣), since one wild goes into one meld. Two such cards of different suits
    and ranks leave one card too many for the discard."""
    for rest, meld in (("9D JD", "9D AC JD"), ("9D 9C", "9D 9C AC")):
        game = _position("levant", f"2S 3S 4S 8H {rest} KS", [HEARTS])
        assert hr.LayDown.of("2S 3S 4S") in game.legal_actions()
        game = ok(ok(game, hr.LayDown.of("2S 3S 4S")), hr.Exchange.of(1, "8H"))
        done = ok(ok(game, hr.LayDown.of(meld)), hr.Discard(c("KS")))
        assert done.is_over
    game = _position("levant", "2S 3S 4S 8H 9D JC KS", [HEARTS])
    assert not any(isinstance(a, hr.LayDown) for a in game.legal_actions())
    refused(game, hr.LayDown.of("2S 3S 4S"), Code.OPENING_BELOW_THRESHOLD)


def test_a_wild_held_and_a_freed_one_help_two_suits_or_ranks() -> None:
    """With a wild in hand as well, the hand after the exchange holds two (the A♣ and seat
    1's A♣), and two wilds may help the cards of two suits or ranks: 9♦ A♣ J♦ and 5♣ 5♥ A♣,
    then the K♠ as the discard. A count that let the wilds of a hand help one suit or rank
    between them would refuse the opening."""
    game = _position("levant", "2S 3S 4S 8H AC 9D JD 5C 5H KS", [HEARTS])
    assert hr.LayDown.of("2S 3S 4S") in game.legal_actions()
    game = ok(ok(game, hr.LayDown.of("2S 3S 4S")), hr.Exchange.of(1, "8H"))
    game = ok(game, hr.LayDown((hr.Meld.of("9D AC JD", roles={1: "10D"}),)))
    done = ok(ok(game, hr.LayDown.of("5C 5H AC")), hr.Discard(c("KS")))
    assert done.is_over
