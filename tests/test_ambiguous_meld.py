"""A wild card whose role is all that is wrong: AmbiguousMeldError (000 §Wild cards,
RULES-MATRIX L3).

With the 8♣ as the Levant indicator the two A♣ are wild (000 §Wild cards). Written in
order, a wild at the end of a run stands for the card at its position (L3's default); a run
written out of order leaves it open: ``6♥ 5♥ A♣`` is 4♥ 5♥ 6♥ (15 points) or 5♥ 6♥ 7♥ (18).
"""

from __future__ import annotations

import pytest

import hand_rummy as hr
from hand_rummy.melds import MeldRules, meld_points
from scripted import cs, play, rules, start

LEVANT_8C = MeldRules.of(hr.build("levant"), "8C")


def test_meld_points_of_a_legal_meld() -> None:
    # 000 §Wild cards: 7♥ A♣ 9♥ is a run with the A♣ as the 8♥: 7 + 8 + 9
    assert meld_points(hr.Meld.of("7H AC 9H"), LEVANT_8C) == 24


def test_meld_points_of_an_ambiguous_meld_names_its_readings() -> None:
    with pytest.raises(hr.AmbiguousMeldError) as raised:
        meld_points(hr.Meld.of("6H 5H AC"), LEVANT_8C)
    error = raised.value
    assert isinstance(error, hr.IllegalActionError)  # a refusal like any other
    assert error.verdict.codes == (hr.Code.WILD_ROLE_AMBIGUOUS,)
    readings = {m.describe() for m in error.candidates}
    assert readings == {"A♣(=4♥) 5♥ 6♥", "5♥ 6♥ A♣(=7♥)"}
    # naming the role mends it: 5 + 6 + 7
    assert meld_points(hr.Meld.of("6H 5H AC", roles={2: "7H"}), LEVANT_8C) == 18


def test_an_illegal_meld_is_not_called_ambiguous() -> None:
    # 000 §Wild cards: 4♥ A♣ A♣ is no meld (two wild cards)
    with pytest.raises(hr.IllegalActionError) as raised:
        meld_points(hr.Meld.of("4H AC AC"), LEVANT_8C)
    assert not isinstance(raised.value, hr.AmbiguousMeldError)
    assert raised.value.verdict.codes != (hr.Code.WILD_ROLE_AMBIGUOUS,)


def test_apply_of_an_opening_with_an_unnamed_role() -> None:
    # seat 2 opens with 9♥ 10♥ J♥ Q♥ (39) and 6♠ 5♠ A♣, 15 or 18 points: 54 or 57, over
    # the bar of 51 either way (000 §The first meld), but which card the A♣ is stays open
    hand = "9H 10H JH QH 6S 5S AC 2D 2D 3C 7D 8D KS KC"
    game = start(rules("levant"), [None, None, hand, None], indicator="8C", draws="3D")
    game = play(game, hr.Discard(game.hand(1)[0]), hr.DrawStock())
    assert game.turn == 2
    open_as_written = hr.LayDown((hr.Meld.of("9H 10H JH QH"), hr.Meld.of("6S 5S AC")))
    with pytest.raises(hr.AmbiguousMeldError) as raised:
        game.apply(open_as_written)
    assert raised.value.verdict.codes == (hr.Code.WILD_ROLE_AMBIGUOUS,)
    assert len(game.hand(2)) == 15
    named = hr.LayDown((hr.Meld.of("9H 10H JH QH"), hr.Meld.of("6S 5S AC", roles={2: "7S"})))
    after = game.apply(named)
    assert sorted(after.hand(2)) == sorted(cs("2D 2D 3C 7D 8D KS KC 3D"))
