"""The meld finder alone: crafted worst cases, random hands, and the memory its caches hold.

Sections (all by default):

- ``identical``: hands whose best opening lays the same meld twice; the value found.
- ``worst``: crafted hands with many wild cards or two packs of a suit: how many melds and
  lay-down combinations each has, and the time of ``best_opening``, of the first
  combination and of the whole enumeration with every cache emptied first; and of the
  first combination for a hand that is new while the finder's tables are not (it has
  just seen the hand with one card fewer, as the engine does from one turn to the next).
- ``engine``: the same worst hands as lay-downs from ``Round.legal_actions()``, where the
  dealer may lay down on the first turn (Rommé and Gulf rules).
- ``random``: random 15-card Levant hands (indicator 8C): median and p99 of
  ``best_opening`` for a new hand each time (the caches as earlier hands left them, like
  ``benchmarks/random_play.py``), for a new hand with every cache emptied, and for the
  same hand again; of ``melds`` and of the first combination for a new hand.
- ``memory``: resident memory after many finder calls over random hands and every indicator.
- ``rounds``: resident memory of a fresh process playing random Levant rounds (about a
  minute per thousand rounds), printed at each checkpoint.

Times are CPU time of this process (``time.process_time``), so other work on a shared
machine does not count; a random hand's figure is the least of ``--replays`` replays of
the whole sequence (each replay starting with empty caches), which keeps a hand that was
interrupted from passing for a slow one.

    python benchmarks/finder.py [--sections worst,random] [--hands 2000] [--repeats 3]
                                [--replays 3] [--calls 20000] [--rounds 500,3000]
"""

from __future__ import annotations

import argparse
import functools
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import hand_rummy as hr
from hand_rummy.cards import parse_cards
from hand_rummy.finder import MeldFinder, counts

# (name, preset, indicator, hand): hands whose best opening lays the same meld twice
IDENTICAL = [
    ("levant two 9-K heart runs", "levant", "8C", "9H 10H JH QH KH 9H 10H JH QH KH 5S 6S 7S 8S 2D"),
    ("levant two 4-6 spade runs", "levant", "8C", "4S 5S 6S 4S 5S 6S"),
    ("romme two sets of sevens", "romme", None, "7H 7S 7D 7H 7S 7D 2C"),
]

# (name, preset, indicator, hand): hands that make the search work hardest
WORST = [
    ("romme 2-J hearts + 4 jokers", "romme", None, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH JK JK JK JK"),
    ("romme 3-9 hearts twice", "romme", None, "3H 4H 5H 6H 7H 8H 9H 3H 4H 5H 6H 7H 8H 9H"),
    ("romme two suits + 4 jokers", "romme", None, "3H 4H 5H 6H 7H 3S 4S 5S 6S 7S JK JK JK JK"),
    ("romme sets 7-9 + 4 jokers", "romme", None, "7H 7S 7D 8H 8S 8D 9H 9S 9D 9C JK JK JK JK"),
    ("gulf 5-K hearts + 4 jokers", "gulf", None, "5H 6H 7H 8H 9H 10H JH QH KH JK JK JK JK"),
    ("gulf 2-7 twice + 2 jokers", "gulf", None, "2H 3H 4H 5H 6H 7H 2H 3H 4H 5H 6H 7H JK JK"),
    ("levant 2-8H twice + AC", "levant", "8C", "2H 3H 4H 5H 6H 7H 8H 2H 3H 4H 5H 6H 7H 8H AC"),
    ("levant 2 AC + 2 JK", "levant", "8C", "5H 6H 7H 8H 9H 10H JH QH KH AC AC JK JK 9S 9D"),
    ("classic 2-KH + 2 JK", "classic", None, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK"),
]

# (name, preset, hand of the dealer, who may lay down at once): worst hands through the engine
ENGINE = [
    ("romme 2-J hearts + 4 jokers", "romme", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH JK JK JK JK"),
    ("romme two suits + 4 jokers", "romme", "3H 4H 5H 6H 7H 3S 4S 5S 6S 7S JK JK JK JK"),
    ("romme sets 7-9 + 4 jokers", "romme", "7H 7S 7D 8H 8S 8D 9H 9S 9D 9C JK JK JK JK"),
]


def rules_of(preset: str, indicator: str | None) -> hr.MeldRules:
    return hr.MeldRules.of(hr.build(preset), indicator)


def emptied(rules: hr.MeldRules) -> MeldFinder:
    """A finder with every cache empty, so a figure counts the whole search."""
    clear = getattr(MeldFinder, "cache_clear", None)
    if clear is None:
        return MeldFinder(rules)  # a finder without shared caches starts cold when new
    clear()
    return MeldFinder.of(rules)


def seconds(action: Callable[[], object]) -> float:
    begin = time.process_time()
    action()
    return time.process_time() - begin


def cold_seconds(rules: hr.MeldRules, ask: Callable[[MeldFinder], object], repeats: int) -> float:
    """The median time of ``ask`` on a finder with every cache emptied (outside the timing)."""
    timings = []
    for _ in range(repeats):
        finder = emptied(rules)
        timings.append(seconds(functools.partial(ask, finder)))
    return statistics.median(timings)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def resident_mib() -> float:
    """The resident memory of this process now (peak memory where /proc is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10


def opening_bar(rules: hr.MeldRules) -> int:
    bar = rules.ruleset.opening.required(0, 0, ())
    assert bar is not None
    return bar


def show_identical() -> None:
    print("Identical melds: best opening value")
    for name, preset, indicator, text in IDENTICAL:
        finder = emptied(rules_of(preset, indicator))
        points, melds = finder.best_opening(counts(parse_cards(text)))
        print(f"  {name:<34}{points:>5}  " + " | ".join(f.meld.describe() for f in melds))
    print()


def first_combination(hand: list[int], bar: int, finder: MeldFinder) -> object:
    return next(finder.combinations(hand, min_points=bar, max_left=1), None)


def all_combinations(hand: list[int], bar: int, finder: MeldFinder) -> int:
    return sum(1 for _ in finder.combinations(hand, min_points=bar, max_left=1))


def best_opening(hand: list[int], finder: MeldFinder) -> object:
    return finder.best_opening(hand)


def after_smaller(rules: hr.MeldRules, cards: tuple[hr.Card, ...], repeats: int) -> float:
    """The first combination of ``cards``, the finder having just seen them less the last."""
    hand, bar = counts(cards), opening_bar(rules)
    timings = []
    for _ in range(repeats):
        finder = emptied(rules)
        first_combination(counts(cards[:-1]), bar, finder)
        timings.append(seconds(functools.partial(first_combination, hand, bar, finder)))
    return statistics.median(timings)


def worst_row(name: str, rules: hr.MeldRules, cards: tuple[hr.Card, ...], repeats: int) -> str:
    """One line of the worst-case table: sizes, then the time of each question."""
    hand, bar = counts(cards), opening_bar(rules)
    best_s = cold_seconds(rules, functools.partial(best_opening, hand), repeats)
    first_s = cold_seconds(rules, functools.partial(first_combination, hand, bar), repeats)
    next_s = after_smaller(rules, cards, repeats)
    finder = emptied(rules)
    begin = time.process_time()
    total = all_combinations(hand, bar, finder)
    all_s = time.process_time() - begin
    melds = len(finder.melds(hand))
    points = finder.best_opening_value(hand)
    return (
        f"  {name:<30}{melds:>6}{total:>8}{points:>5}"
        f"{best_s * 1e3:>9.2f}{first_s * 1e3:>8.2f}{next_s * 1e3:>8.2f}{all_s:>7.2f}"
    )


def show_worst(repeats: int) -> None:
    print("Worst cases: melds, lay-downs (bar or going out), best opening; times in ms, s")
    print(
        f"  {'hand':<30}{'melds':>6}{'combos':>8}{'best':>5}"
        f"{'best ms':>9}{'1st ms':>8}{'next ms':>8}{'all s':>7}"
    )
    for name, preset, indicator, text in WORST:
        print(worst_row(name, rules_of(preset, indicator), parse_cards(text), repeats))
    print("  (best, 1st, all: every cache emptied; next: the same hand less one card seen just")
    print("  before; medians of the repeats)")
    print()


def engine_round(preset: str, text: str) -> hr.Round:
    """A two-player round in which the dealer, to move, holds ``text``."""
    ruleset = hr.build(preset)
    hand = list(parse_cards(text))
    rest = [p.card for p in ruleset.deck.cards()]
    for card in hand:
        rest.remove(card)
    size = ruleset.deal.hand_size
    return hr.Round.from_deal(ruleset, [hand, rest[:size]], rest[size:])


def show_engine() -> None:
    print("Worst hands through Round.legal_actions() (the dealer may lay down at once)")
    print(f"  {'hand':<30}{'actions':>9}{'1st ms':>9}{'all s':>8}")
    for name, preset, text in ENGINE:
        game = engine_round(preset, text)
        emptied(game.rules)
        begin = time.process_time()
        next(iter(game.legal_actions()))
        first_s = time.process_time() - begin
        emptied(game.rules)
        begin = time.process_time()
        actions = sum(1 for _ in game.legal_actions())
        all_s = time.process_time() - begin
        print(f"  {name:<30}{actions:>9}{first_s * 1e3:>9.2f}{all_s:>8.2f}")
    print()


def levant_hands(count: int, seed: int, size: int = 15) -> list[list[int]]:
    indicator = hr.parse_card("8C")
    deck = [p.card for p in hr.build("levant").deck.cards() if p.card != indicator]
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        rng.shuffle(deck)
        hands.append(counts(deck[:size]))
    return hands


def replayed(
    rules: hr.MeldRules,
    hands: list[list[int]],
    ask: Callable[[MeldFinder, list[int]], object],
    replays: int,
    *,
    empty_each: bool = False,
) -> list[float]:
    """Per hand, the least time of ``ask`` over ``replays`` replays of the whole sequence,
    each from empty caches (or, with ``empty_each``, emptied before every hand)."""
    least: list[float] = []
    for replay in range(replays):
        finder = emptied(rules)
        timings = []
        for hand in hands:
            if empty_each:
                finder = emptied(rules)
            timings.append(seconds(functools.partial(ask, finder, hand)))
        least = timings if replay == 0 else list(map(min, least, timings))
    return least


def ask_best(finder: MeldFinder, hand: list[int]) -> object:
    return finder.best_opening(hand)


def ask_melds(finder: MeldFinder, hand: list[int]) -> object:
    return finder.melds(hand)


def ask_first(finder: MeldFinder, hand: list[int]) -> object:
    return first_combination(hand, 51, finder)


def show_random(hands: int, replays: int) -> None:
    rules = rules_of("levant", "8C")
    print(f"Random 15-card Levant hands, indicator 8C ({hands} hands, least of {replays}): µs")
    print(f"  {'question':<50}{'median':>9}{'p99':>9}{'max':>9}")
    sequence = levant_hands(hands, 2)
    rows = {
        "best_opening, new hand (caches of earlier hands)": replayed(
            rules, sequence, ask_best, replays
        ),
        "best_opening, new hand, every cache emptied": replayed(
            rules, sequence, ask_best, replays, empty_each=True
        ),
    }
    finder = MeldFinder.of(rules)
    for hand in sequence:
        finder.best_opening(hand)
    rows["best_opening, the same hand again"] = [
        min(seconds(functools.partial(finder.best_opening, hand)) for _ in range(replays))
        for hand in sequence
    ]
    rows["melds, new hand"] = replayed(rules, levant_hands(hands, 5), ask_melds, replays)
    rows["first combination (51 or going out), new hand"] = replayed(
        rules, levant_hands(hands, 6), ask_first, replays
    )
    for question, timings in rows.items():
        print(
            f"  {question:<50}{statistics.median(timings) * 1e6:>9.1f}"
            f"{percentile(timings, 0.99) * 1e6:>9.1f}{max(timings) * 1e6:>9.1f}"
        )
    print()


def show_memory(calls: int) -> None:
    ruleset = hr.build("levant")
    indicators = [c for c in hr.CARDS if not c.is_joker]
    deck = [p.card for p in ruleset.deck.cards()]
    rng = random.Random(6)
    print(f"Resident memory over {calls} finder calls, random hands and all 52 indicators")
    print(f"  {'calls':>8}{'MiB':>9}")
    print(f"  {0:>8}{resident_mib():>9.1f}")
    for call in range(1, calls + 1):
        indicator = rng.choice(indicators)
        finder = MeldFinder.of(hr.MeldRules.of(ruleset, indicator))
        rng.shuffle(deck)
        hand = counts(c for c in deck[:15] if c != indicator)
        finder.best_opening(hand)
        finder.melds(hand)
        for _ in zip(range(20), finder.combinations(hand, min_points=51, max_left=1)):
            pass
        if call % (calls // 4) == 0:
            print(f"  {call:>8}{resident_mib():>9.1f}")
    print()


def play_rounds(checkpoints: list[int]) -> None:
    """Random Levant rounds in this process, printing resident memory at each checkpoint."""
    ruleset = hr.build("levant")
    decisions = 0
    begin = time.perf_counter()
    for number in range(1, max(checkpoints) + 1):
        game = hr.Round.deal(ruleset, 4, number)
        rng = random.Random(number)
        while not game.is_over:
            game = game.apply(rng.choice(list(game.legal_actions())))
            decisions += 1
        if number in checkpoints:
            rate = decisions / (time.perf_counter() - begin)
            print(f"  {number:>8}{resident_mib():>9.1f}{rate:>13.0f}", flush=True)


def show_rounds(checkpoints: list[int]) -> None:
    print("Resident memory of a fresh process playing random Levant rounds")
    print(f"  {'rounds':>8}{'MiB':>9}{'decisions/s':>13}", flush=True)
    spec = ",".join(map(str, checkpoints))
    subprocess.run([sys.executable, __file__, "--play-rounds", spec], check=True)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sections", default="identical,worst,engine,random,memory,rounds")
    parser.add_argument("--hands", type=int, default=2000, help="random hands")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of each worst case")
    parser.add_argument("--replays", type=int, default=3, help="replays of the random hands")
    parser.add_argument("--calls", type=int, default=20_000, help="finder calls for memory")
    parser.add_argument("--rounds", default="500,3000", help="round-count checkpoints")
    parser.add_argument("--play-rounds", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play_rounds:
        play_rounds([int(n) for n in args.play_rounds.split(",")])
        return
    shows: dict[str, Callable[[], None]] = {
        "identical": show_identical,
        "worst": functools.partial(show_worst, args.repeats),
        "engine": show_engine,
        "random": functools.partial(show_random, args.hands, args.replays),
        "memory": functools.partial(show_memory, args.calls),
        "rounds": functools.partial(show_rounds, [int(n) for n in args.rounds.split(",")]),
    }
    for section in args.sections.split(","):
        shows[section]()


if __name__ == "__main__":
    main()
