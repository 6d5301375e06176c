"""A fixed amount of engine work, for counting instructions when timings are too noisy.

Plays ``--games`` seeded random rounds of one preset through the public API (the complete
``legal_actions()`` at every decision) and prints the number of decisions. Timings on a
shared machine swing by tens of percent; the number of instructions a run executes does
not. Run it twice under valgrind, once with ``--games 0`` to count the start-up, and divide
the difference by the decisions:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/fixed_work.py --preset levant --games 100 --seed 5

The games depend on the seed and on the rules; a change to the rules (a new decision, say)
changes the games played, so compare over many games (100 or more: a few positions cost
thousands of times the median).
"""

from __future__ import annotations

import argparse
import random

import hand_rummy as hr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="levant")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    ruleset = hr.build(args.preset)
    rng = random.Random(args.seed)
    decisions = 0
    for _ in range(args.games):
        game = hr.Round.deal(ruleset, players=args.players, seed=rng.randrange(2**32))
        while not game.is_over:
            game = game.apply(rng.choice(list(game.legal_actions())))
            decisions += 1
    print(f"{args.preset}: {args.games} games, {decisions} decisions")


if __name__ == "__main__":
    main()
