"""The meld finder's shortcuts agree with its full enumeration.

The full list of a hand's melds (:meth:`MeldFinder.meld_slots`) is checked against
a brute force in ``test_laydown_oracle``; the questions here answer part of it
from a smaller search, and must give exactly that part.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hand_rummy import finder as finder_module
from hand_rummy.cards import CARDS, parse_card
from hand_rummy.finder import MeldFinder
from hand_rummy.melds import MeldRules
from hand_rummy.rules import presets
from hand_rummy.state import DEMOTED

RULES = (
    MeldRules.of(presets.levant, parse_card("5H")),
    MeldRules.of(presets.build("levant", ["demoted_wild_counts"]), parse_card("KS")),
    MeldRules.of(presets.romme, None),
    MeldRules.of(presets.build("romme", ["round_the_corner"]), None),
    MeldRules.of(presets.gulf, None),
    MeldRules.of(presets.saudi, None),
)


@st.composite
def hands(draw: st.DrawFn) -> tuple[MeldRules, list[int]]:
    """A hand of up to 16 cards, wild-heavy and with demoted copies, under some rules."""
    rules = draw(st.sampled_from(RULES))
    wild = [c.index for c in CARDS if rules.is_wild(c)]
    # cards near each other make runs and sets likely
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    ranks = draw(st.integers(0, 9))
    faces = [s * 13 + r for s in suits for r in range(ranks, ranks + 4)]
    faces += [s * 13 + ranks for s in range(4)] + [52] + wild
    hand = [0] * (2 * DEMOTED)
    for face in draw(st.lists(st.sampled_from(faces), min_size=1, max_size=16)):
        if hand[face] < 2:
            hand[face] += 1
    for face in draw(st.lists(st.sampled_from([*wild, 52]), max_size=2)):
        hand[DEMOTED + face] += 1  # wilds taken from the discard pile
    return rules, hand


@given(hands())
@settings(max_examples=400, deadline=None)
def test_melds_using_a_card_are_the_melds_that_hold_it(case: tuple[MeldRules, list[int]]) -> None:
    rules, hand = case
    finder = MeldFinder.of(rules)
    every = finder.meld_slots(hand)
    for slot, count in enumerate(hand):
        if count:
            assert finder.melds_using(hand, slot) == [u for u in every if slot in u], slot


@given(hands(), st.integers(0, 40))
@settings(max_examples=200, deadline=None)
def test_the_melds_built_one_at_a_time_are_the_melds(
    case: tuple[MeldRules, list[int]], stop: int
) -> None:
    """A new finder each time, so that no earlier call built the list: a first look that
    stops after ``stop`` melds sees their start, and a whole pass sees all of them."""
    rules, hand = case
    fresh = MeldFinder(rules)
    first = [f for _, f in zip(range(stop), fresh.iter_melds(hand))]
    whole = list(fresh.iter_melds(hand))
    expected = MeldFinder(rules).melds(hand)
    assert whole == expected
    assert first == expected[:stop]
    assert list(fresh.iter_melds(hand)) == expected  # from the list the whole pass kept


def test_a_finder_forgets_wild_placements_beyond_its_bound_and_finds_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 2♥-J♥ and four jokers: about 1,500 wild placements for its runs
    hand = [0] * 53
    for text in ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH"]:
        hand[parse_card(text).index] += 1
    hand[52] = 4
    rules = MeldRules.of(presets.romme, None)
    MeldFinder.cache_clear()
    unbounded = MeldFinder(rules)
    expected = (unbounded.best_opening_value(hand), len(unbounded.melds(hand)))
    kept = len(unbounded._placements)
    assert kept > 1_000
    monkeypatch.setattr(finder_module, "_PLACEMENTS", 100)
    MeldFinder.cache_clear()
    bounded = MeldFinder(rules)
    assert (bounded.best_opening_value(hand), len(bounded.melds(hand))) == expected
    # it started afresh at the bound, so it ends holding fewer than the finder without one
    assert len(bounded._placements) < kept
