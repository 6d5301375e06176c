"""benchmarks/hunt.py deals the hands it says it deals, and gives up on a measure at its cap.

The script times random dense, wild-heavy hands; its figures are only worth reading if each
hand is what the docstring promises (the mover holds it after drawing, has not opened, and
its cards are wild or from one or two suits, a window of ranks and perhaps one rank's
copies), and a listing past the cap is stopped rather than waited for.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import hand_rummy as hr
from benchmark_scripts import load

HUNT = load("hunt")
WORST = load("worst_cases")


@pytest.mark.parametrize("preset", hr.PRESETS)
def test_each_dealt_hand_is_dense_and_wild_heavy(preset: str) -> None:
    rng = random.Random(preset)
    dealt = [hand for hand in (HUNT.deal_hand(preset, rng) for _ in range(30)) if hand]
    assert len(dealt) >= 10
    many_wilds = 0
    for text, indicator in dealt:
        game = WORST.position(preset, text, indicator)
        mover = game.turn
        assert not game.opened[mover]
        cards = hr.parse_cards(text)
        assert Counter(game.hand(mover)) == Counter(cards)
        wilds = [c for c in cards if game.rules.is_wild(c)]
        assert len(wilds) <= 6
        many_wilds += len(wilds) >= 2
        naturals = [c for c in cards if not game.rules.is_wild(c)]
        suits = Counter(c.suit for c in naturals)
        # one or two suits, but the added copies of one rank may bring the others in
        main = [s for s, _ in suits.most_common(2)]
        strays = [c for c in naturals if c.suit not in main]
        assert len({c.rank for c in strays}) <= 1
    assert many_wilds > 0  # where the rules have wild cards to give, some hands get them


def test_a_listing_past_the_cap_is_reported_as_unfinished() -> None:
    preset, hand, indicator = WORST.CASES["romme-jokers"]
    hunted = HUNT.time_hand(preset, hand, indicator, cap=0.01)
    assert hunted.actions is None  # some 95,000 lay-downs do not list in 10 ms
    game = WORST.position(*WORST.CASES["levant-double-run"])
    assert HUNT.listed(game, cap=600) == sum(1 for _ in game.legal_actions()) > 100
