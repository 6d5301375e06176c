"""Samples of a view where another player is to move and owes a meld (``guessing``).

The player to move took a card from the discard pile that must go into an opening at a high
bar. The real hand can make one; a random guess at its hidden cards almost never can, so
plain guesses failed (a hunt: 15 of 40 samples raised after 1,024 guesses each). These
views are sampled from every other seat, and every sample must be consistent with the view
and leave the player to move the lay-down the rules oblige: 000 §Taking the discard, the
taken card goes into a meld at once; in Saudi Hand the opening must beat the last (003).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import hand_rummy as hr
from benchmark_scripts import load
from case_positions import spot
from hand_rummy.guessing import guess, owed_melds
from hand_rummy.state import Obligation
from hand_rummy.visibility import sampled

WORST = load("worst_cases")


def levant_taken_91() -> hr.Round:
    """Levant with an opening bar of 91: seat 0 took the 4♠ and must meld it, which the
    hand can do only in an opening of 91 points or more."""
    return spot(
        hr.build("levant", ["opening_91"]),
        "AC AC 9D 3D 8D 5S 6D 7D 6S 3S AD 4D 5D 2D 4S",
        others=(14, 14),
        indicator="3C",
        discards="",
        current=hr.PositionTurn(taken=hr.parse_card("4S")),
    )


def saudi_taken_115() -> hr.Round:
    """Saudi Hand after an opening of 114: seat 0 took a joker, so must open now, above
    114 (its clubs and two jokers make exactly 115)."""
    return spot(
        hr.build("saudi"),
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC JK JK",
        table=[(1, 1, "10D JD QD KD AD"), (2, 1, "10S JS QS KS AS"), (3, 1, "4H 4S 4D")],
        others=(14, 14, 14),
        discards="",
        current=hr.PositionTurn(taken=hr.JOKER),
        openings=[(1, 114)],
    )


def levant_promise() -> hr.Round:
    """Levant with a bar of 91 and jokers the only wilds: seat 0 opened below the bar with
    2♥ JK 4♥, which binds it to go out this turn (000 §The first meld, "Exception"), with
    ten older melds to lay off on (``worst_cases.py``'s ``levant-promise``)."""
    return WORST.build("levant-promise")


def deck_of(game: hr.Round) -> Counter[hr.Card]:
    have: Counter[hr.Card] = Counter(game.stock)
    have.update(game.discards)
    for seat in range(game.players):
        have.update(game.hand(seat))
    for meld in game.table:
        have.update(meld.meld.cards)
    if game.indicator is not None:
        have[game.indicator] += 1
    return have


@pytest.mark.parametrize("build", [levant_taken_91, saudi_taken_115])
def test_samples_from_other_seats_leave_the_owed_lay_down(build: object) -> None:
    game = build()  # type: ignore[operator]
    assert isinstance(game, hr.Round)
    taken = game.view(0).current.taken
    assert taken is not None
    assert game.view(0).current.obligation in (Obligation.MELD_TAKEN, Obligation.OPEN)
    deck = deck_of(game)
    for seat in range(1, game.players):
        view = game.view(seat)
        for k in range(6):
            sample = view.sample(random.Random(k))
            assert sample.view(seat) == view
            assert deck_of(sample) == deck
            assert taken in sample.hand(0)
            first = next(iter(sample.legal_actions()))
            # nothing but a lay-down that melds the card taken pays the debt
            assert isinstance(first, hr.LayDown)
            assert any(taken in meld.cards for meld in first.melds)
            assert sample.check(first).ok


def test_samples_under_a_promise_leave_a_way_out() -> None:
    game = levant_promise()
    assert game.view(0).current.obligation is Obligation.GO_OUT
    deck = deck_of(game)
    for seat in (1, 2):
        view = game.view(seat)
        for k in range(2):
            sample = view.sample(random.Random(k))
            assert sample.view(seat) == view
            assert deck_of(sample) == deck
            # the guess can keep the promise: its moves lead to an empty hand this turn
            while sample.turn == 0 and not sample.is_over:
                move = next(iter(sample.legal_actions()))
                assert not isinstance(move, hr.Discard) or len(sample.hand(0)) == 1
                sample = sample.apply(move)
            assert sample.is_over
            assert not sample.hand(0)


def romme_freed_joker_short_hand() -> hr.Round:
    """Rommé: seat 0, opened with three cards left, took the joker from a run by laying the
    10♥ in its place and must use it at once (002), in a meld that fits three cards."""
    return spot(
        hr.build("romme"),
        "4C 6C JK",
        table=[(1, 0, "3H 4H 5H 6H 7H 8H 9H"), (2, 2, "10H JH QH KH AH"), (3, 2, "8C 8D 8S")],
        others=(13, 3),
        discard_size=6,
        me={"opened": True, "melded": True},
        current=hr.PositionTurn(freed=hr.JOKER, melded=(hr.parse_card("10H"),)),
    )


def test_the_melds_dealt_first_fit_a_short_hand() -> None:
    """Found by a hunt: the first meld dealt was not held to the hand's size, so a run of
    four or five was dealt to a hand of three and the sample raised (19 seeds in 300)."""
    game = romme_freed_joker_short_hand()
    assert game.view(0).current.obligation is Obligation.USE_FREED_WILD
    view = game.view(1)
    for k in range(40):
        lead = owed_melds(view, random.Random(k))
        assert lead is None or len(lead) <= 2  # the joker is known to be in the hand
        sample = view.sample(random.Random(k))
        assert hr.JOKER in sample.hand(0)
        assert sample.view(1) == view


def levant_promise_bare_table() -> hr.Round:
    """Levant, nothing on the table: seat 0 opened below the bar with 5♠ 5♦ 5♣ (15 points),
    so it must go out this turn by melds alone (000 §The first meld, "Exception")."""
    game = spot(
        hr.build("levant"),
        "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 5S 5D 5C 2D",
        indicator="8C",
        others=(12, 12),
    )
    return game.apply(hr.LayDown((hr.Meld.of("5S 5D 5C"),)))


def test_a_promise_with_nothing_to_lay_off_on_is_sampled() -> None:
    """Found by a hunt: a random hand of twelve almost never goes out by melds alone, and
    every sample raised after 1,024 guesses; now the melds of a way out are dealt first."""
    game = levant_promise_bare_table()
    assert game.view(0).current.obligation is Obligation.GO_OUT
    for seat in (1, 2):
        view = game.view(seat)
        for k in range(2):
            lead = owed_melds(view, random.Random(k))
            # when found, melds for all of the hand but the discard
            assert lead is None or len(lead) == 11
            sample = view.sample(random.Random(k))
            assert sample.view(seat) == view
            while sample.turn == 0 and not sample.is_over:
                sample = sample.apply(next(iter(sample.legal_actions())))
            assert sample.is_over
            assert not sample.hand(0)


def test_a_hand_that_must_meld_every_card_is_dealt_melds_for_all_of_it() -> None:
    """Found by a hunt: where only a Hand is exempt from the bar and a Hand lays every card
    (RULES-MATRIX G4, R6: no discard ends it), the melds dealt first still left a card for
    a discard, so they were never a way out."""
    game = spot(
        hr.build("classic", ["hand_exempt"]),
        "2C 3C 4C 7C 8C 9C 10C JC 5H 5D 5S JK",
        others=(12, 12),
    )
    game = game.apply(hr.LayDown((hr.Meld.of("2C 3C 4C"),)))
    assert game.view(0).current.obligation is Obligation.GO_OUT
    view = game.view(1)
    leads = [owed_melds(view, random.Random(k)) for k in range(10)]
    assert any(leads)
    assert all(lead is None or len(lead) == 9 for lead in leads)  # the whole hand


def test_owed_melds_are_hidden_cards_that_fit_the_hand() -> None:
    game = levant_taken_91()
    view = game.view(1)
    rng = random.Random(3)
    found = [lead for lead in (owed_melds(view, rng) for _ in range(20)) if lead is not None]
    assert found, "no try found the owed melds"
    unseen = view.unseen() - Counter([view.current.taken])
    for lead in found:
        assert not Counter(lead) - unseen
        assert len(lead) <= 15 - 1 - 1  # the taken card is known; one card is left to discard
        # dealt first, they leave the player to move a legal lay-down
        state = sampled(view, random.Random(len(lead)), lead)
        assert Counter(lead) <= Counter(hr.Round.from_state(state).hand(0))


def test_owed_melds_only_where_a_meld_is_owed() -> None:
    game = hr.Round.deal(hr.build("levant"), players=3, seed=4)
    assert owed_melds(game.view(1), random.Random(0)) is None
    assert owed_melds(game.view(game.turn), random.Random(0)) is None


def test_a_view_that_owes_nothing_is_sampled_as_before() -> None:
    """The first plain guess is the sample whenever it leaves a legal move, so seeded
    samples of ordinary views are what they were before guesses dealt melds first."""
    game = hr.Round.deal(hr.build("romme"), players=3, seed=8)
    for _ in range(12):
        game = game.apply(next(iter(game.legal_actions())))
    for seat in range(3):
        view = game.view(seat)
        expected = sampled(view, random.Random(seat))
        assert view.sample(random.Random(seat)) == hr.Round.from_state(expected)
        assert guess(view, random.Random(seat), dealt_first=False) == expected


def test_cards_dealt_first_must_be_hidden_and_fit() -> None:
    view = levant_taken_91().view(1)
    with pytest.raises(hr.InvalidStateError, match="among the hidden"):
        sampled(view, random.Random(0), view.hand[:1])  # the viewer's own card
    hidden = sorted((view.unseen() - Counter([view.current.taken])).elements())
    with pytest.raises(hr.InvalidStateError, match="fit"):
        sampled(view, random.Random(0), hidden[:15])  # 15 beside the known 4♠
    mover = levant_taken_91().view(0)
    with pytest.raises(hr.InvalidStateError, match="fit"):
        sampled(mover, random.Random(0), sorted(mover.unseen().elements())[:1])  # own view
