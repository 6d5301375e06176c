"""A promise to finish the turn where new melds come before lay-offs (003 §Turn Flow:
melds, then "add individual cards from your hand to any existing melds", then the discard).

Once a lay-off is made, no new meld may follow it, so a way out that still needs a new meld
is gone: a lay-off after which the rest of the turn could go out only by laying a meld
breaks the promise, and is refused. (A fuzz run found the turn left with no legal move.)
"""

from __future__ import annotations

import hand_rummy as hr
from hand_rummy import Code, Phase, Position
from hand_rummy import PositionMeld as M
from hand_rummy import PositionSeat as S
from scripted import c
from three_ways import ok, refused

SEVENS = M(1, 2, hr.Meld.of("7D 7H 7S"))
SPADES = M(2, 1, hr.Meld.of("10S JS QS"))


def _opened_below_the_bar() -> hr.Round:
    # Gulf Hand with a Hand exempt from the bar of 51 (G8's switch) and a last discard
    # wanted: 4♣-8♣ (30) and 2♣ 2♦ 2♥ (6) make 36, legal only as the start of a Hand, which
    # the rest makes: 4♦ 4♥ 4♠, the 7♣ and 9♠ laid off, the 6♦ discarded (003 §Hand Bonus)
    ruleset = hr.build("gulf", ["hand_exempt", "final_discard_required"])
    hand = "4C 5C 6C 7C 8C 2C 2D 2H 7C 9S 4D 6D 4H 4S"
    position = Position(
        ruleset,
        [S(hand, turns_played=2), 9, 9, 9],
        turn=0,
        phase=Phase.PLAY,
        discards="KD",
        table=[SEVENS, SPADES],
    )
    game = hr.Round.from_position(position)
    return ok(game, hr.LayDown.of("4C 5C 6C 7C 8C", "2C 2D 2H"))


def test_a_lay_off_that_would_leave_a_meld_unlaid_is_refused() -> None:
    game = _opened_below_the_bar()
    # laying the 7♣ off now would forbid the 4♦ 4♥ 4♠ the way out needs
    refused(game, hr.LayOff.of(1, "7C"), Code.OPENING_BELOW_THRESHOLD)
    refused(game, hr.LayOff.of(2, "9S"), Code.OPENING_BELOW_THRESHOLD)


def test_the_way_out_in_its_order_is_legal() -> None:
    game = _opened_below_the_bar()
    game = ok(game, hr.LayDown.of("4D 4H 4S"))
    game = ok(ok(game, hr.LayOff.of(1, "7C")), hr.LayOff.of(2, "9S"))
    assert ok(game, hr.Discard(c("6D"))).is_over
