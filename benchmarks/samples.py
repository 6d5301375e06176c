"""Samples of a view from the seats that are not to move, on the worst cases' positions.

``PlayerView.sample`` must leave the player to move a legal move, so where that player owes
a meld or is bound to finish the turn, a guess at the hidden cards is dealt again until it
does (:mod:`hand_rummy.guessing`). This prints, for each case whose mover owes something,
the milliseconds per sample from each other seat (median and max over ``--samples`` seeds,
each sample on a fresh copy of the round) and how many samples raised.

    python benchmarks/samples.py [--samples 20] [--cases levant-promise,saudi-taken-115]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import hand_rummy as hr

sys.path.insert(0, str(Path(__file__).resolve().parent))
import worst_cases  # a sibling script, found once its folder is on the path


def timings(game: hr.Round, seat: int, samples: int) -> tuple[list[float], int]:
    """Seconds per sample of ``game`` seen from ``seat``, and how many raised."""
    view = game.view(seat)
    seconds, failed = [], 0
    for seed in range(samples):
        start = time.perf_counter()
        try:
            view.sample(random.Random(seed))
        except hr.HandRummyError:
            failed += 1
        seconds.append(time.perf_counter() - start)
    return seconds, failed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    args = parser.parse_args(argv)
    names = args.cases.split(",") if args.cases else worst_cases.case_names()
    print(f"{'case':<26} {'owes':<15} {'seat':>4} {'median ms':>10} {'max ms':>8} {'raised':>7}")
    for name in names:
        game = worst_cases.build(name)
        owed = game.current.obligation
        if owed is None:
            continue
        for seat in range(game.players):
            if seat == game.turn:
                continue
            seconds, failed = timings(game, seat, args.samples)
            print(
                f"{name:<26} {owed.value:<15} {seat:>4} {statistics.median(seconds) * 1000:>10.1f}"
                f" {max(seconds) * 1000:>8.1f} {failed:>4}/{args.samples}"
            )


if __name__ == "__main__":
    main()
