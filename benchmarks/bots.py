"""GreedyBot against RandomBot: mean scores and win rates per preset (lower scores are better).

Every deal is played twice with the bots' seats swapped (Greedy, Random, Greedy, ...
then Random, Greedy, ...), so the seat does not favour either bot; in partnership
presets this puts the two GreedyBots on one team. A round is won by the player who
goes out (rounds ended by the stock or a redeal count for no one; unscored rounds
are left out of the means); a match by the seats the match names as winners.

    python benchmarks/bots.py [--rounds 200] [--matches 50] [--presets levant,romme] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import hand_rummy as hr
from hand_rummy.bots import Bot, GreedyBot, RandomBot, play_match, play_round


def seating(players: int, seed: int, greedy_first: bool) -> list[Bot]:
    """GreedyBots and RandomBots in alternate seats, each seeded from ``seed``."""
    return [
        GreedyBot(seed * 10 + i) if (i % 2 == 0) == greedy_first else RandomBot(seed * 10 + i)
        for i in range(players)
    ]


class Tally:
    """Scores and wins of one kind of bot."""

    def __init__(self) -> None:
        self.scores: list[int] = []
        self.wins = 0

    def mean(self) -> float:
        return statistics.fmean(self.scores) if self.scores else float("nan")


def rounds(ruleset: hr.Ruleset, players: int, count: int, seed: int) -> dict[str, Tally]:
    tallies = {"greedy": Tally(), "random": Tally()}
    for number in range(count):
        deal = hr.Round.deal(ruleset, players, seed + number)
        bots = seating(players, seed + number, greedy_first=number % 2 == 0)
        for swapped in (False, True):
            if swapped:
                bots = seating(players, seed + number, greedy_first=number % 2 == 1)
            outcome = play_round(deal, bots).outcome
            assert outcome is not None
            if outcome.score.scored:
                for bot, score in zip(bots, outcome.score.scores):
                    tallies[_kind(bot)].scores.append(score)
            if outcome.winner is not None:
                tallies[_kind(bots[outcome.winner])].wins += 1
    return tallies


def matches(ruleset: hr.Ruleset, players: int, count: int, seed: int) -> dict[str, Tally]:
    tallies = {"greedy": Tally(), "random": Tally()}
    for number in range(count):
        bots = seating(players, seed + number, greedy_first=number % 2 == 0)
        done = play_match(hr.Match.new(ruleset, players, seed + number), bots)
        for bot, total in zip(bots, done.totals):
            tallies[_kind(bot)].scores.append(total)
        for kind in {_kind(bots[seat]) for seat in done.winners}:
            tallies[kind].wins += 1
    return tallies


def _kind(bot: Bot) -> str:
    return "greedy" if isinstance(bot, GreedyBot) else "random"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="deals per preset (x2 seatings)")
    parser.add_argument("--matches", type=int, default=50, help="matches per preset")
    parser.add_argument("--presets", default=",".join(hr.PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    header = (
        f"{'preset':<18}{'players':>8}{'rounds':>8}{'greedy':>9}{'random':>9}{'G wins':>8}"
        f"{'matches':>9}{'greedy':>9}{'random':>9}{'G wins':>8}{'secs':>7}"
    )
    print("mean score per seat (lower is better); G wins = share of decided rounds / matches")
    print(header)
    print("-" * len(header))
    for name in args.presets.split(","):
        ruleset = hr.build(name)
        players = 4 if ruleset.players.allows(4) else ruleset.players.minimum
        start = time.perf_counter()
        r = rounds(ruleset, players, args.rounds, args.seed)
        decided = r["greedy"].wins + r["random"].wins
        m = matches(ruleset, players, args.matches, args.seed) if args.matches else None
        line = (
            f"{name:<18}{players:>8}{2 * args.rounds:>8}{r['greedy'].mean():>9.1f}"
            f"{r['random'].mean():>9.1f}{r['greedy'].wins / max(decided, 1):>8.0%}"
        )
        if m is not None:
            won = m["greedy"].wins + m["random"].wins
            line += (
                f"{args.matches:>9}{m['greedy'].mean():>9.1f}{m['random'].mean():>9.1f}"
                f"{m['greedy'].wins / max(won, 1):>8.0%}"
            )
        else:
            line += " " * 35
        print(line + f"{time.perf_counter() - start:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
