"""Hunt for slow positions: random dense, wild-heavy hands of every preset, each timed.

The fixed cases of ``worst_cases.py`` are hands someone thought of. This script looks for
the ones nobody did: for each preset (and with ``--variants`` each preset with each of its
variants) it deals ``--hands`` hands of the size a player holds after drawing, built to
make the meld finder work hard: up to six wild cards (jokers, or the round's wild face
where an indicator or the rules name one), the rest drawn from one or two suits within a
few ranks, sometimes with the copies of one rank added. The mover has not opened, as in
``worst_cases.position``. Each hand is timed three ways on a fresh finder: the first
legal action, the complete listing (abandoned once it passes ``--cap`` seconds, and shown
as ``>cap``), and ``best_opening``, each after a garbage collection, so that none pays for
the garbage of the one before. The slowest hands of each measure are timed ``--repeats``
times more (a slow first timing can be the machine's doing), and printed by the median of
those with everything needed to replay them (paste a row into ``worst_cases.CASES``).

    python benchmarks/hunt.py [--presets levant,romme] [--variants] [--hands 20]
        [--seed 0] [--cap 5] [--top 5] [--repeats 3]

The targets of the engine issue are 5 ms for a first action, 1.5 s for a listing and
20 ms for ``best_opening``; the last lines say how the slowest hand found compares.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import hand_rummy as hr
from hand_rummy.errors import HandRummyError

sys.path.insert(0, str(Path(__file__).resolve().parent))
import worst_cases  # a sibling script, found once its folder is on the path

MEASURES = ("first", "listing", "best")
TARGETS = {"first": 0.005, "listing": 1.5, "best": 0.020}
"""Seconds each measure should stay under (the engine issue's targets)."""


@dataclass
class Hunted:
    """One hand as timed: its case (preset and variants), cards and indicator."""

    case: str
    hand: str
    indicator: str | None
    seconds: dict[str, float]
    actions: int | None  # None when the listing ran past the cap
    best: int | None

    def replay(self) -> str:
        """The hand as a row of ``worst_cases.CASES``."""
        return f'("{self.case}", "{self.hand}", {self.indicator!r})'


def cases(presets: list[str], variants: bool) -> Iterator[str]:
    """Each preset, then (with ``variants``) the preset with each variant that builds alone."""
    for preset in presets:
        yield preset
        if variants:
            for variant in hr.variants_for(preset):
                try:
                    names = hr.rules.standalone(preset, variant.name)
                    hr.build(preset, names)
                except HandRummyError:
                    continue  # alternatives the library refuses together
                yield "+".join((preset, *names))


def deal_hand(case: str, rng: random.Random) -> tuple[str, str | None] | None:
    """A dense, wild-heavy hand for ``case`` and the indicator it needs (or None)."""
    name, *variants = case.split("+")
    ruleset = hr.build(name, variants)
    deck = [placed.card for placed in ruleset.deck.cards()]
    naturals = [card for card in deck if not card.is_joker]
    indicator = None
    try:
        probe = worst_cases.position(case, _plain(naturals, ruleset), None)
    except HandRummyError:
        indicator = rng.choice(naturals)
        deck.remove(indicator)
        try:
            probe = worst_cases.position(case, _plain(deck, ruleset), indicator.ascii)
        except HandRummyError:
            return None
    wilds = [card for card in deck if probe.rules.is_wild(card)]
    rng.shuffle(wilds)
    size = len(probe.view(probe.turn).hand)
    suits = rng.sample(list(hr.Suit), rng.choice((1, 1, 2)))
    low = rng.randrange(1, 10)
    high = low + rng.randrange(4, 13)
    pool = [
        card
        for card in deck
        if card.suit in suits
        and (low <= int(card.rank or 0) <= high or (high > 13 and int(card.rank or 0) <= high - 13))
        and not probe.rules.is_wild(card)
    ]
    if rng.random() < 0.3:
        rank = rng.choice(list(hr.Rank))
        pool += [c for c in deck if c.rank is rank and c not in pool and not probe.rules.is_wild(c)]
    wild_count = min(len(wilds), rng.randrange(0, 7))
    if len(pool) < size - wild_count:
        return None
    hand = wilds[:wild_count] + rng.sample(pool, size - wild_count)
    return " ".join(card.ascii for card in hand), None if indicator is None else indicator.ascii


def _plain(cards: list[hr.Card], ruleset: hr.Ruleset) -> str:
    """Some hand of the right size, only to learn the round's wild cards."""
    size = ruleset.deal.hand_size + 1
    return " ".join(card.ascii for card in cards[:: max(1, len(cards) // size)][:size])


def listed(game: hr.Round, cap: float) -> int | None:
    """How many actions ``game`` lists, or ``None`` if the listing passes ``cap`` seconds.

    The clock is read between actions, so the listing stops at a point the engine
    chose; an alarm that broke into it could leave the engine's shared tables half
    written for whatever runs next.
    """
    deadline = time.perf_counter() + cap
    count = 0
    for _ in game.legal_actions():
        count += 1
        if time.perf_counter() > deadline:
            return None
    return count


def time_hand(
    case: str, hand: str, indicator: str | None, cap: float, measures: Iterable[str] = MEASURES
) -> Hunted:
    """The seconds of each measure of one hand; ``best_opening`` and the first action run
    to the end, the listing until ``cap``."""
    game = worst_cases.position(case, hand, indicator)
    seconds: dict[str, float] = {}
    actions = best = None
    for measure in measures:
        copy = worst_cases.fresh(game)
        gc.collect()  # so that no measure pays for collecting what the one before left
        start = time.perf_counter()
        if measure == "first":
            next(iter(copy.legal_actions()), None)
        elif measure == "listing":
            actions = listed(copy, cap)
        else:
            best = copy.best_opening()[0]
        seconds[measure] = time.perf_counter() - start
    return Hunted(case, hand, indicator, seconds, actions, best)


def show(seconds: float, measure: str) -> str:
    return f"{seconds:.3f} s" if measure == "listing" else f"{1000 * seconds:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presets", default=",".join(hr.PRESETS))
    parser.add_argument("--variants", action="store_true", help="also each preset + variant")
    parser.add_argument("--hands", type=int, default=20, help="hands per case")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap", type=float, default=5.0, help="seconds a listing may take")
    parser.add_argument("--top", type=int, default=5, help="slowest hands shown per measure")
    parser.add_argument("--repeats", type=int, default=3, help="timings of each slowest hand")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    found: list[Hunted] = []
    started = time.perf_counter()
    for case in cases(args.presets.split(","), args.variants):
        dealt = 0
        for _ in range(4 * args.hands):
            if dealt == args.hands:
                break
            hand = deal_hand(case, rng)
            if hand is None:
                continue
            dealt += 1
            found.append(time_hand(case, *hand, args.cap))
    print(
        f"{len(found)} hands in {time.perf_counter() - started:.0f} s "
        f"(seed {args.seed}, cap {args.cap:g} s)"
    )
    worst: dict[str, tuple[float, Hunted]] = {}
    for measure in MEASURES:
        print(f"\nslowest {measure} (median of {args.repeats} more runs each):")
        slowest = sorted(found, key=lambda h: h.seconds[measure], reverse=True)[: args.top]
        again = [(retime(h, measure, args.cap, args.repeats), h) for h in slowest]
        again.sort(key=lambda pair: pair[0], reverse=True)
        worst[measure] = again[0]
        for seconds, hunted in again:
            over = seconds >= args.cap
            figure = f">{args.cap:g} s" if over else show(seconds, measure)
            counted = f", {hunted.actions} actions" if measure == "listing" and not over else ""
            print(f"  {figure:>10}{counted}  {hunted.replay()}")
    print()
    for measure in MEASURES:
        seconds, _ = worst[measure]
        verdict = "within" if seconds < TARGETS[measure] else "OVER"
        print(
            f"worst {measure}: {show(seconds, measure)}, "
            f"{verdict} the target of {show(TARGETS[measure], measure)}"
        )


def retime(hunted: Hunted, measure: str, cap: float, repeats: int) -> float:
    """The median of ``repeats`` more timings of one measure of a hand (a slow first
    timing may have been the machine's doing)."""
    runs = [
        time_hand(hunted.case, hunted.hand, hunted.indicator, cap, (measure,)).seconds[measure]
        for _ in range(repeats)
    ]
    return statistics.median(runs)


if __name__ == "__main__":
    main()
