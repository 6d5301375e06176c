"""Random legal play: rounds/s, decisions/s, legal actions per decision, and the cost of
``legal_actions()`` and of the best-opening search.

Each decision enumerates every legal action (so the bot can pick uniformly) and applies
one. Figures are medians over repeats, since machines are shared and noisy.

    python benchmarks/random_play.py [--rounds 20] [--repeats 3] [--presets levant,romme]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import hand_rummy as hr
from hand_rummy.finder import MeldFinder, counts


def play_rounds(ruleset: hr.Ruleset, players: int, rounds: int, seed: int) -> tuple[int, float]:
    """Play ``rounds`` random rounds; return the decisions made and the seconds taken."""
    decisions = 0
    start = time.perf_counter()
    for number in range(rounds):
        game = hr.Round.deal(ruleset, players, seed + number)
        rng = random.Random(seed + number)
        while not game.is_over:
            actions = list(game.legal_actions())
            game = game.apply(rng.choice(actions))
            decisions += 1
    return decisions, time.perf_counter() - start


def legal_action_costs(ruleset: hr.Ruleset, players: int, positions: int) -> tuple[float, float]:
    """Median µs of a full ``legal_actions()`` enumeration, and mean actions per position."""
    timings, sizes = [], []
    rng = random.Random(1)
    game = hr.Round.deal(ruleset, players, 1)
    while len(timings) < positions:
        if game.is_over:
            game = hr.Round.deal(ruleset, players, rng.randrange(10**6))
        begin = time.perf_counter()
        actions = list(game.legal_actions())
        timings.append(time.perf_counter() - begin)
        sizes.append(len(actions))
        game = game.apply(rng.choice(actions))
    return statistics.median(timings) * 1e6, statistics.fmean(sizes)


def best_opening_cost(ruleset: hr.Ruleset, hands: int, size: int = 15) -> float:
    """Median µs of the best-opening search for random hands of ``size`` cards."""
    indicator = hr.parse_card("8C") if ruleset.uses_indicator else None
    finder = MeldFinder.of(hr.MeldRules.of(ruleset, indicator))
    deck = [p.card for p in ruleset.deck.cards() if p.card != indicator]
    rng = random.Random(2)
    timings = []
    for _ in range(hands):
        rng.shuffle(deck)
        hand = counts(deck[:size])
        begin = time.perf_counter()
        finder.best_opening(hand)
        timings.append(time.perf_counter() - begin)
    return statistics.median(timings) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="random rounds per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--presets", default=",".join(hr.PRESETS))
    args = parser.parse_args()
    header = (
        f"{'preset':<18}{'players':>8}{'rounds/s':>10}{'decisions/s':>13}"
        f"{'actions/dec':>13}{'legal µs':>10}{'best-open µs':>14}"
    )
    print(header)
    print("-" * len(header))
    for name in args.presets.split(","):
        ruleset = hr.build(name)
        players = 4 if ruleset.players.allows(4) else ruleset.players.minimum
        rates, round_rates = [], []
        for repeat in range(args.repeats):
            decisions, seconds = play_rounds(ruleset, players, args.rounds, seed=1000 * repeat)
            rates.append(decisions / seconds)
            round_rates.append(args.rounds / seconds)
        legal_us, mean_actions = legal_action_costs(ruleset, players, positions=400)
        best_us = best_opening_cost(ruleset, hands=500)
        print(
            f"{name:<18}{players:>8}{statistics.median(round_rates):>10.1f}"
            f"{statistics.median(rates):>13.0f}{mean_actions:>13.1f}{legal_us:>10.0f}{best_us:>14.0f}"
        )


if __name__ == "__main__":
    main()
