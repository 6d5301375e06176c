"""GreedyBot with ``flat_discards`` against the plain GreedyBot, in duplicate (lower is better).

Every deal is played twice: once with ``GreedyBot(seed, flat_discards=True)`` in one
seat and plain GreedyBots in the others, once with a plain GreedyBot of the same seed
in that seat; the seat rotates from deal to deal. The paired difference of that seat's
round score (flat minus plain) is what scoring discards without their penalty values
while the hand pays a flat never-opened penalty is worth; its 95% confidence interval
is a normal one. Rounds that count for no one are left out in pairs. Only presets with
a flat never-opened penalty differ at all.

    python benchmarks/flat_discards.py [--rounds 1500] [--presets levant,classic] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import hand_rummy as hr
from hand_rummy.bots import GreedyBot, play_round

PLAYERS = 4


def paired(preset: str, number: int, seed: int) -> int | None:
    """The flat bot's score minus the plain bot's on deal ``number``, or None if unscored."""
    deal = hr.Round.deal(hr.build(preset), PLAYERS, seed + number)
    seat = number % PLAYERS
    scores = []
    for flat in (True, False):
        bots = [GreedyBot(seed * 10 + i, flat_discards=flat and i == seat) for i in range(PLAYERS)]
        outcome = play_round(deal, bots).outcome
        assert outcome is not None
        if not outcome.score.scored:
            return None
        scores.append(outcome.score.scores[seat])
    return scores[0] - scores[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1500, help="deals per preset")
    parser.add_argument("--presets", default="levant,classic")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for preset in args.presets.split(","):
        start = time.perf_counter()
        found = [paired(preset, n, args.seed) for n in range(args.rounds)]
        diffs = [d for d in found if d is not None]
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        print(
            f"{preset}: {len(diffs)} of {args.rounds} deals scored in both plays; paired "
            f"difference {mean:.2f}, 95% CI [{mean - half:.2f}, {mean + half:.2f}]; "
            f"wall {time.perf_counter() - start:.0f} s"
        )


if __name__ == "__main__":
    main()
