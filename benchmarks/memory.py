"""Resident memory of one process over many random rounds: does it stay flat?

Plays random legal rounds of a preset (the complete ``legal_actions()`` at every decision)
in one process and prints the resident set size after each checkpoint, then the ratio of the
last checkpoint to the first. Caches that grow without a bound show up as a ratio well above
1; the engine's target is at most 1.3 between 500 and 3,000 Levant rounds.

    python benchmarks/memory.py [--preset levant] [--checkpoints 500,1000,2000,3000]
"""

from __future__ import annotations

import argparse
import random
import time

import hand_rummy as hr


def resident_mib() -> float:
    """The resident set size of this process now (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    import resource  # noqa: PLC0415 (Unix only, as /proc is)

    return pages * resource.getpagesize() / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="levant")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--checkpoints", default="500,1000,2000,3000")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    checkpoints = sorted(int(n) for n in args.checkpoints.split(","))
    ruleset = hr.build(args.preset)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    figures: list[tuple[int, float]] = []
    for number in range(1, checkpoints[-1] + 1):
        game = hr.Round.deal(ruleset, args.players, seed=rng.randrange(2**32))
        while not game.is_over:
            game = game.apply(rng.choice(list(game.legal_actions())))
        if number in checkpoints:
            figures.append((number, resident_mib()))
            elapsed = time.perf_counter() - start
            print(f"after {number:>6} rounds: {figures[-1][1]:8.1f} MiB  ({elapsed:6.0f} s)")
    first, last = figures[0], figures[-1]
    print(f"memory ratio {last[0]}/{first[0]} rounds: {last[1] / first[1]:.2f}")


if __name__ == "__main__":
    main()
