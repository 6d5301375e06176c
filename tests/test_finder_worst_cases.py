"""The meld finder's combination search: each multiset of melds once, and the hard hands.

Expected values are worked out by hand in the comments. Opening values (000, 002,
003): number cards count their face value, 10 J Q K count 10; the Ace 11 (Rommé: 1 in
A-2-3; Gulf: 15); a wild card counts as the card it stands for (Gulf: a flat 25).
Timings live in ``benchmarks/finder.py``, never here.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import hand_rummy as hr
from hand_rummy.cards import parse_cards
from hand_rummy.finder import FoundMeld, MeldFinder, _Cache, counts
from hand_rummy.testing import meld_rules


def finder_for(preset: str, indicator: str | None = None) -> MeldFinder:
    return MeldFinder.of(hr.MeldRules.of(hr.build(preset), indicator))


def hand_of(text: str) -> list[int]:
    return counts(parse_cards(text))


def shapes(combo: Sequence[FoundMeld]) -> list[str]:
    return sorted(f.meld.describe() for f in combo)


def points(combo: Sequence[FoundMeld]) -> int:
    return sum(f.points for f in combo)


def cards(combo: Sequence[FoundMeld]) -> int:
    return sum(len(f.used) for f in combo)


# --- the same meld twice --------------------------------------------------------------------


def test_best_opening_lays_the_same_run_twice() -> None:
    """Levant, indicator 8♣ (the A♣ are wild; none held, the hand has no wild card).

    9♥ 10♥ J♥ Q♥ K♥ is worth 9 + 10 + 10 + 10 + 10 = 49 and the hand holds it twice:
    98; 5♠ 6♠ 7♠ 8♠ adds 5 + 6 + 7 + 8 = 26: 124, every card but the 2♦, which fits no
    meld, at its face value, so nothing can do better. Using each meld once could reach
    only 49 + 40 (10♥-K♥) + 26 = 115.
    """
    finder = finder_for("levant", "8C")
    value, melds = finder.best_opening(hand_of("9H 10H JH QH KH 9H 10H JH QH KH 5S 6S 7S 8S 2D"))
    assert value == 124
    assert shapes(melds) == ["5♠ 6♠ 7♠ 8♠", "9♥ 10♥ J♥ Q♥ K♥", "9♥ 10♥ J♥ Q♥ K♥"]
    assert points(melds) == value


def test_best_opening_lays_the_same_set_twice() -> None:
    """Rommé: 7♥ 7♠ 7♦ is worth 21; the hand holds it twice, 42 (the 2♣ fits nothing)."""
    finder = finder_for("romme")
    value, melds = finder.best_opening(hand_of("7H 7S 7D 7H 7S 7D 2C"))
    assert value == 42
    assert shapes(melds) == ["7♦ 7♥ 7♠", "7♦ 7♥ 7♠"]


def test_combinations_repeat_a_meld_when_every_card_is_doubled() -> None:
    """Levant 8♣: 4♠ 5♠ 6♠ twice makes one meld, the run, so the combinations are the run
    once and the run twice, in that order (a combination before its extensions)."""
    finder = finder_for("levant", "8C")
    combos = list(finder.combinations(hand_of("4S 5S 6S 4S 5S 6S")))
    assert [shapes(c) for c in combos] == [["4♠ 5♠ 6♠"], ["4♠ 5♠ 6♠", "4♠ 5♠ 6♠"]]
    assert finder.best_opening_value(hand_of("4S 5S 6S 4S 5S 6S")) == 30  # 15 twice


DOUBLED = "4S 5S 6S 7S 4S 5S 6S 7S"


def test_every_multiset_of_melds_comes_once() -> None:
    """4♠-7♠ twice: the melds are A = 4-6, B = 5-7 and C = 4-7 (8 cards allow two melds at
    most). Singles A, B, C; pairs AA, BB, CC, AB, AC, BC all fit in two copies of each
    card: 9 combinations, none twice."""
    finder = finder_for("levant", "8C")
    combos = list(finder.combinations(hand_of(DOUBLED)))
    assert len(combos) == 9
    assert len({tuple(shapes(c)) for c in combos}) == 9


def test_covers_each_once() -> None:
    """Of those nine, CC uses all 8 cards; AC and BC use 7; AA, BB and AB use 6."""
    finder = finder_for("levant", "8C")
    hand = hand_of(DOUBLED)
    run = {3: "4♠ 5♠ 6♠", 4: "4♠ 5♠ 6♠ 7♠"}
    assert [shapes(c) for c in finder.covers(hand)] == [[run[4], run[4]]]
    assert sorted(shapes(c) for c in finder.covers(hand, keep=1)) == sorted(
        [[run[3], run[4]], ["4♠ 5♠ 6♠ 7♠", "5♠ 6♠ 7♠"]]
    )
    assert len(list(finder.covers(hand, keep=2))) == 3


def test_a_meld_offered_twice_is_one_option() -> None:
    finder = finder_for("levant", "8C")
    hand = hand_of("4S 5S 6S 4S 5S 6S")
    (run,) = finder.melds(hand)
    assert len(list(finder.combinations(hand, [run, run]))) == 2  # once, twice


# --- worst cases ----------------------------------------------------------------------------

JOKER_RUN = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH JK JK JK JK"


def test_romme_four_jokers_best_opening() -> None:
    """Rommé, 2♥-J♥ and four jokers (jokers are wild; a meld keeps two natural cards).

    The naturals are worth 2 + ... + 9 + 10 + 10 = 64 and all fit in runs. A joker counts
    as the card it stands for, at most 11 (the Ace above the King); a run holds each rank
    once, so two Aces high would need two runs reaching A from the J, five jokers. So the
    jokers add at most 11 + 10 + 10 + 10 = 41: 105, reached by 10♥ J♥ JK JK JK (Q K A:
    51) with 2♥-9♥ JK (as 10♥: 54).
    """
    finder = finder_for("romme")
    value, melds = finder.best_opening(hand_of(JOKER_RUN))
    assert value == 105 == points(melds)
    assert finder.best_opening_value(hand_of(JOKER_RUN)) == 105


def test_romme_four_jokers_lay_downs_are_distinct_and_wanted() -> None:
    """Every lay-down found reaches 40 or leaves at most one card, and none comes twice."""
    finder = finder_for("romme")
    hand = hand_of(JOKER_RUN)
    seen = set()
    for combo in itertools.islice(finder.combinations(hand, min_points=40, max_left=1), 5000):
        assert points(combo) >= 40 or 14 - cards(combo) <= 1
        key = tuple(sorted((f.used, f.meld.roles) for f in combo))
        assert key not in seen
        seen.add(key)
    assert len(seen) == 5000


def test_gulf_four_jokers_best_opening() -> None:
    """Gulf, 5♥-K♥ and four jokers: a joker counts a flat 25, and a meld of four or more
    may hold two. The naturals are 5 + 6 + 7 + 8 + 9 + 4 × 10 = 75 and the jokers 100: 175
    if every card is melded, which two runs of two jokers each do."""
    finder = finder_for("gulf")
    value, melds = finder.best_opening(hand_of("5H 6H 7H 8H 9H 10H JH QH KH JK JK JK JK"))
    assert value == 175
    assert sum(len(f.used) for f in melds) == 13


def test_levant_two_wild_aces_best_opening() -> None:
    """Levant 8♣: the two A♣ are wild and the jokers are natural A♣, which fit no meld
    here (no clubs, and two A♣ cannot share a set). The naturals 5♥-K♥ and 9♠ 9♦ are worth
    35 + 40 + 18 = 93, all melded; one meld holds one wild, so the two wilds go in two
    melds, standing at best for A♥ (11, after the K♥) and a court card (10): 114."""
    finder = finder_for("levant", "8C")
    hand = hand_of("5H 6H 7H 8H 9H 10H JH QH KH AC AC JK JK 9S 9D")
    assert finder.best_opening_value(hand) == 114


def test_levant_runs_doubled_with_a_wild() -> None:
    """Levant 8♣: 2♥-8♥ twice (2 + ... + 8 = 35 each) and one wild A♣, which adds most as
    the Ace below the 2 (11): 35 + 35 + 11 = 81."""
    finder = finder_for("levant", "8C")
    hand = hand_of("2H 3H 4H 5H 6H 7H 8H 2H 3H 4H 5H 6H 7H 8H AC")
    assert finder.best_opening_value(hand) == 81


# --- against a plain enumeration --------------------------------------------------------------


def every_multiset(hand: Sequence[int], melds: Sequence[FoundMeld]) -> list[tuple[FoundMeld, ...]]:
    """Every non-empty multiset of ``melds`` that fits in ``hand``, the slow way."""
    left = list(hand)
    found: list[tuple[FoundMeld, ...]] = []

    def extend(start: int, chosen: list[FoundMeld]) -> None:
        for i in range(start, len(melds)):
            used = melds[i].used
            if all(left[f] >= used.count(f) for f in set(used)):
                for f in used:
                    left[f] -= 1
                chosen.append(melds[i])
                found.append(tuple(chosen))
                extend(i, chosen)
                chosen.pop()
                for f in used:
                    left[f] += 1

    extend(0, [])
    return found


def key(combo: Sequence[FoundMeld]) -> tuple[object, ...]:
    return tuple(sorted((f.used, f.meld.roles, f.points) for f in combo))


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[hr.MeldRules, list[int]]:
    """Rules of any preset and variants, and up to 10 cards from one or two suits (so that
    melds are likely), jokers and demoted wild cards included."""
    rules = draw(meld_rules())
    suits = draw(st.sets(st.sampled_from(list(hr.Suit)), min_size=1, max_size=2))
    pool = [
        p.card
        for p in rules.ruleset.deck.cards()
        if (p.card.is_joker or p.card.suit in suits) and p.card != rules.wilds.indicator
    ]
    cards = draw(st.lists(st.sampled_from(range(len(pool))), unique=True, max_size=10))
    held = [pool[i] for i in cards]
    demoted = []
    if rules.ruleset.demotion.enabled and draw(st.booleans()):
        demoted = [c for c in held if rules.ruleset.demotion.demotes(c, rules.wilds)][:1]
    return rules, MeldFinder.extend(counts(held), demoted)


@settings(max_examples=150, deadline=None)
@given(small_hands(), st.sampled_from([0, 10, 30, 40, 51]), st.sampled_from([None, 0, 1]))
def test_combinations_match_a_plain_enumeration(
    case: tuple[hr.MeldRules, list[int]], min_points: int, max_left: int | None
) -> None:
    rules, hand = case
    finder = MeldFinder.of(rules)
    melds = finder.melds(hand)
    every = every_multiset(hand, melds)
    got = list(finder.combinations(hand))
    assert sorted(map(key, got)) == sorted(map(key, every))
    assert len(set(map(key, got))) == len(got)
    size = sum(hand)
    bounded = min_points > 0 or max_left is not None
    wanted = [
        c
        for c in every
        if not bounded
        or points(c) >= min_points
        or (max_left is not None and size - cards(c) <= max_left)
    ]
    got = list(finder.combinations(hand, min_points=min_points, max_left=max_left))
    assert sorted(map(key, got)) == sorted(map(key, wanted))
    for keep in (0, 1):
        covers = [c for c in every if cards(c) == size - keep]
        assert sorted(map(key, finder.covers(hand, keep))) == sorted(map(key, covers))
    best = max(map(points, every), default=0)
    value, chosen = finder.best_opening(hand)
    assert value == best == finder.best_opening_value(hand) == points(chosen)
    assert value <= finder.opening_bound(hand)


@settings(max_examples=150, deadline=None)
@given(small_hands(), st.sampled_from([1, 10, 30, 40, 51, 1000]))
def test_combinations_below_a_bar_are_the_plain_ones_below_it_in_order(
    case: tuple[hr.MeldRules, list[int]], below: int
) -> None:
    """The combinations worth less than ``below`` are the plain enumeration's ones under
    that bar, none missing and none added, in the order the unbounded listing gives them."""
    rules, hand = case
    finder = MeldFinder.of(rules)
    wanted = [c for c in every_multiset(hand, finder.melds(hand)) if points(c) < below]
    got = list(finder.combinations(hand, below=below))
    assert sorted(map(key, got)) == sorted(map(key, wanted))
    assert got == [c for c in finder.combinations(hand) if points(c) < below]


@settings(max_examples=150, deadline=None)
@given(small_hands(), st.data())
def test_combinations_using_a_card_are_the_plain_ones_holding_it(
    case: tuple[hr.MeldRules, list[int]], data: st.DataObject
) -> None:
    """With ``using``, the combinations are the plain enumeration's that have a meld
    holding one of those hand slots (a card taken this turn, say), none missing or added;
    with none given, every combination."""
    rules, hand = case
    held = [slot for slot, count in enumerate(hand) if count]
    using = (
        frozenset(data.draw(st.lists(st.sampled_from(held), max_size=2))) if held else frozenset()
    )
    finder = MeldFinder.of(rules)
    wanted = [
        c
        for c in every_multiset(hand, finder.melds(hand))
        if not using or any(slot in using for found in c for slot in found.used)
    ]
    got = list(finder.combinations(hand, using=using))
    assert sorted(map(key, got)) == sorted(map(key, wanted))
    assert len(set(map(key, got))) == len(got)


# --- caches ---------------------------------------------------------------------------------


def test_caches_keep_indicators_apart() -> None:
    """The same hand under two indicators: 8♣ makes the A♣ wild, 8♦ the A♦. Asked one after
    the other, each finder answers as it would with nothing remembered."""
    hand = hand_of("AC AD 7H 9H 5S 5D")
    answers = {}
    for indicator in ("8C", "8D", "8C"):
        finder = finder_for("levant", indicator)
        answers.setdefault(indicator, []).append(
            (finder.best_opening(hand)[0], [f.meld for f in finder.melds(hand)])
        )
    MeldFinder.cache_clear()
    for indicator, seen in answers.items():
        finder = finder_for("levant", indicator)
        fresh = (finder.best_opening(hand)[0], [f.meld for f in finder.melds(hand)])
        assert all(answer == fresh for answer in seen)
    assert answers["8C"][0] != answers["8D"][0]


def test_the_cache_is_bounded_and_keeps_what_is_used() -> None:
    """The store the finders share holds at most its budget (an entry weighs what it
    holds), and an entry asked for again survives the turnover."""
    cache = _Cache(budget=100)
    cache.put("kept", 1)
    for number in range(1000):
        cache.put(number, number, weight=3)
        assert cache.get("kept") == 1
        held = [k for k in (*cache._young, *cache._old) if k != "kept"]
        assert 3 * len(held) <= 100 + 3
    assert cache.get(0) is None  # long gone
    assert cache.get(999) == 999


def best_by_recursion(hand: Sequence[int], melds: Sequence[FoundMeld]) -> int:
    """The most a packing of ``melds`` into ``hand`` is worth, by plain recursion: the
    lowest card held is either left out or used by one meld that holds it."""
    holding = [meld for meld in melds if meld.points > 0]
    seen: dict[tuple[int, ...], int] = {}

    def most(left: tuple[int, ...]) -> int:
        if left in seen:
            return seen[left]
        face = next((f for f, n in enumerate(left) if n), None)
        if face is None:
            return 0
        out = list(left)
        out[face] -= 1
        best = most(tuple(out))
        for meld in holding:
            if face not in meld.used:
                continue
            rest = list(left)
            for f in meld.used:
                rest[f] -= 1
            if min(rest) >= 0:
                best = max(best, meld.points + most(tuple(rest)))
        seen[left] = best
        return best

    return most(tuple(hand))


@st.composite
def dense_hands(draw: st.DrawFn) -> tuple[hr.MeldRules, list[int]]:
    """Rules of any preset and variants, and 11 to 14 cards close together in one or two
    suits with several wild cards: hands with many melds that combine in many ways."""
    rules = draw(meld_rules())
    suits = draw(st.sets(st.sampled_from(list(hr.Suit)), min_size=1, max_size=2))
    low = draw(st.integers(1, 9))
    near = [hr.Rank(r if r <= 13 else 1) for r in range(low, low + 6)]
    pool = [
        p.card
        for p in rules.ruleset.deck.cards()
        if p.card != rules.wilds.indicator
        and (
            rules.is_wild(p.card)
            or p.card.is_joker
            or (p.card.suit in suits and p.card.rank in near)
        )
    ]
    size = min(len(pool), draw(st.integers(11, 14)))
    cards = draw(
        st.lists(st.sampled_from(range(len(pool))), unique=True, min_size=size, max_size=size)
    )
    return rules, counts([pool[i] for i in cards])


@settings(max_examples=120, deadline=None)
@given(dense_hands())
def test_best_opening_of_dense_hands_matches_plain_recursion(
    case: tuple[hr.MeldRules, list[int]],
) -> None:
    """The packing search skips branches by bounds; the recursion tries every one."""
    rules, hand = case
    finder = MeldFinder.of(rules)
    best = best_by_recursion(hand, finder.melds(hand))
    value, chosen = finder.best_opening(hand)
    assert value == best == finder.best_opening_value(hand) == points(chosen)
    used = [f for meld in chosen for f in meld.used]
    assert all(used.count(f) <= hand[f] for f in set(used))
