"""The pieces the generator judges below-bar openings with (hand_rummy.below_bar).

The listings themselves are compared with ``check`` in test_worst_cases.py and the
lay-down oracle; these check the lay-off groups a meld could take, worked out by hand,
and when a meld's groups are worked out at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from hand_rummy.below_bar import BelowBarOpenings, Plan
from hand_rummy.cards import parse_card, parse_cards
from hand_rummy.finder import FoundMeld, MeldFinder, counts
from hand_rummy.meld_growth import LayOffMemo, lay_off_groups
from hand_rummy.melds import MeldRules
from hand_rummy.rules import presets

FINDER = MeldFinder.of(MeldRules.of(presets.romme, None))


def found(hand: str, meld: str) -> FoundMeld:
    cards = sorted(parse_cards(meld))
    return next(f for f in FINDER.melds(counts(parse_cards(hand))) if sorted(f.meld.cards) == cards)


def slots(text: str) -> tuple[int, ...]:
    return tuple(sorted(card.index for card in parse_cards(text)))


def test_a_run_takes_the_cards_next_to_its_ends_one_after_another() -> None:
    run = found("5H 6H 7H", "5H 6H 7H")
    groups = lay_off_groups(FINDER, run.meld, run.kind, slots("4H 8H 9H JH 5S"))
    # 4♥ below, 8♥ above and 9♥ after it; J♥ only after a 10♥, which is not there
    expected = {slots(g) for g in ("4H", "8H", "8H 9H", "4H 8H", "4H 8H 9H")}
    assert groups is not None
    assert set(groups) == expected
    assert len(groups) == len(expected)


def test_a_set_takes_its_rank_and_no_more_than_its_room() -> None:
    three = found("7H 7S 7D", "7H 7S 7D")
    groups = lay_off_groups(FINDER, three.meld, three.kind, slots("7C 7H 8C"))
    # a set of 7s of four suits at most: the 7♣ joins, the second 7♥ would repeat a suit
    assert groups == [slots("7C")]


def test_a_memo_shared_by_many_melds_changes_no_groups() -> None:
    """A listing keeps one memo of the lay-offs tried for all its searches: the groups
    are the same as worked out afresh, for every meld of a hand of jokers (where melds
    grow into the same melds), with and without a limit."""
    corner = finder_of("romme", ["round_the_corner"])
    hand = counts(parse_cards("QH KH AH 2H 3H 4H 5H 6H 7H 8H JK JK JK JK"))
    memo = LayOffMemo()
    melds = corner.melds(hand)[::37]  # a spread of the 2,000-odd melds
    assert len(melds) > 20
    for meld in melds:
        rest = list(hand)
        for slot in meld.used:
            rest[slot] -= 1
        pool = tuple(slot for slot, n in enumerate(rest) for _ in range(n))
        for limit in (None, 40):
            shared = lay_off_groups(corner, meld.meld, meld.kind, pool, limit=limit, memo=memo)
            alone = lay_off_groups(corner, meld.meld, meld.kind, pool, limit=limit)
            assert shared == alone
    assert memo.grown  # the lay-offs tried were kept


def finder_of(preset: str, variants: list[str]) -> MeldFinder:
    return MeldFinder.of(MeldRules.of(presets.build(preset, variants), None))


def test_the_groups_are_refused_past_the_limit_of_lay_offs_tried() -> None:
    run = found("5H 6H 7H", "5H 6H 7H")
    assert lay_off_groups(FINDER, run.meld, run.kind, slots("4H 8H 9H"), limit=2) is None
    assert lay_off_groups(FINDER, run.meld, run.kind, slots("4H 8H 9H"), limit=50) is not None


def test_openings_are_searched_on_their_own_until_their_melds_are_in_several() -> None:
    hand = counts(parse_cards("5H 6H 7H 8H 9H"))
    run = found("5H 6H 7H 8H 9H", "5H 6H 7H")
    asked: list[tuple[int, ...]] = []

    def finish(cards: Sequence[int]) -> Plan | None:
        held = tuple(i for i, n in enumerate(cards) for _ in range(n))
        asked.append(held)
        return () if not held else None  # only an empty hand finishes here

    together = BelowBarOpenings(FINDER, hand, finish)
    alone_calls: list[int] = []

    def alone() -> Plan | None:
        alone_calls.append(1)
        return ()

    for _ in range(3):
        assert together.plan((run,), alone) == ()
    assert len(alone_calls) == 3, "the meld's groups are not worked out for three openings"
    # the fourth: its groups are worked out, and 8♥ 9♥ laid off on 5♥ 6♥ 7♥ leave nothing
    assert together.plan((run,), alone) == ()
    assert len(alone_calls) == 3
    assert () in asked
    assert parse_card("8H").index in asked[0]
