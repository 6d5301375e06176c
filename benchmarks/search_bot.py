"""SearchBot against three GreedyBots, in duplicate: mean round scores, 95% CIs (lower is better).

Every deal is played twice: once with a SearchBot in one seat and GreedyBots in
the others, once with a GreedyBot in that seat instead (the other seats' bots
have the same seeds in both plays). The seat rotates from deal to deal. The
paired difference (the SearchBot's score minus the GreedyBot's, same deal, same
seat) is what the search adds; its 95% confidence interval is a normal one
(1.96 standard errors). Rounds that do not count (the ruleset scores no one,
e.g. when the stock runs out) are left out in pairs.

The budget is per decision, by default 0.2 s of the searching thread's
processor time (``--clock cpu``), so a busy machine slows the run down but does
not weaken the bot; ``--clock wall`` uses the wall clock.

    python benchmarks/search_bot.py [--rounds 200] [--presets levant,romme] [--seconds 0.2]
        [--iterations N] [--candidates 3] [--horizon 0] [--margin 1] [--clock cpu]
        [--seed 0] [--jobs 2]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs

import hand_rummy as hr
from hand_rummy.bots import Bot, GreedyBot
from hand_rummy.search import SearchBot

PLAYERS = 4


@attrs.frozen
class Deal:
    """One deal played both ways."""

    number: int
    seat: int
    search: int
    """The SearchBot's score."""
    greedy: int
    """The GreedyBot's score from the same seat on the same deal."""
    opponents: tuple[int, ...]
    """The other seats' GreedyBots' scores in the SearchBot's round."""
    searched: int
    """Decisions at which the SearchBot compared candidates."""
    decisions: int
    """All the SearchBot's decisions."""
    seconds: float
    """The SearchBot's thinking time, in total, by the wall clock."""
    cpu: float
    """The same in processor time."""
    worlds: int
    scored: bool


@attrs.frozen
class Job:
    preset: str
    number: int
    seed: int
    seconds: float | None
    iterations: int | None
    candidates: int
    horizon: int | None
    margin: float
    clock: str


def play(job: Job) -> Deal:
    ruleset = hr.build(job.preset)
    deal = hr.Round.deal(ruleset, PLAYERS, job.seed + job.number)
    seat = job.number % PLAYERS
    search = SearchBot(
        iterations=job.iterations,
        seconds=job.seconds,
        seed=job.seed * 1000 + job.number,
        candidates=job.candidates,
        horizon=job.horizon,
        margin=job.margin,
        clock=job.clock,
    )
    greedy: list[Bot] = [GreedyBot(job.seed * 10 + i) for i in range(PLAYERS)]
    mixed = list(greedy)
    mixed[seat] = search
    game = deal
    searched = decisions = worlds = 0
    thinking = cpu = 0.0
    while not game.is_over:
        turn = game.turn
        action = mixed[turn].choose(game.view(turn))
        if turn == seat:
            decisions += 1
            thinking += search.stats.seconds
            cpu += search.stats.cpu
            searched += search.stats.candidates > 1
            worlds += search.stats.worlds
        game = game.apply(action)
    base = hr.bots.play_round(deal, [GreedyBot(job.seed * 10 + i) for i in range(PLAYERS)])
    assert game.outcome is not None and base.outcome is not None
    scores, baseline = game.outcome.score, base.outcome.score
    return Deal(
        number=job.number,
        seat=seat,
        search=scores.scores[seat],
        greedy=baseline.scores[seat],
        opponents=tuple(s for i, s in enumerate(scores.scores) if i != seat),
        searched=searched,
        decisions=decisions,
        seconds=thinking,
        cpu=cpu,
        worlds=worlds,
        scored=scores.scored and baseline.scored,
    )


def interval(values: Sequence[float]) -> str:
    """``mean ± half-width`` of a normal 95% confidence interval."""
    if len(values) < 2:
        return f"{statistics.fmean(values) if values else float('nan'):7.2f}"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):7.2f} ± {half:5.2f}"


def report(preset: str, deals: list[Deal], wall: float) -> None:
    counted = [d for d in deals if d.scored]
    print(f"\n{preset}: {len(deals)} deals, {len(counted)} scored in both plays")
    print(f"  {'seat':<8}{'n':>4}  {'SearchBot':>15}  {'GreedyBot':>15}  {'difference':>15}")
    for seat in [*range(PLAYERS), None]:
        part = [d for d in counted if seat is None or d.seat == seat]
        if not part:
            continue
        label = "all" if seat is None else str(seat)
        print(
            f"  {label:<8}{len(part):>4}  {interval([d.search for d in part]):>15}"
            f"  {interval([d.greedy for d in part]):>15}"
            f"  {interval([d.search - d.greedy for d in part]):>15}"
        )
    opponents = [s for d in counted for s in d.opponents]
    diffs = [d.search - d.greedy for d in counted]
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    mean = statistics.fmean(diffs) if diffs else math.nan
    verdict = "better" if mean + half < 0 else "worse" if mean - half > 0 else "no clear difference"
    decisions = sum(d.decisions for d in deals)
    searched = sum(d.searched for d in deals)
    thinking = sum(d.seconds for d in deals)
    cpu = sum(d.cpu for d in deals)
    worlds = sum(d.worlds for d in deals)
    print(f"  the GreedyBot opponents at the SearchBot's table: {interval(opponents)}")
    print(
        f"  paired difference {mean:.2f}, 95% CI [{mean - half:.2f}, {mean + half:.2f}]: "
        f"SearchBot {verdict}"
    )
    print(
        f"  SearchBot decisions {decisions} ({searched} searched), "
        f"{decisions / thinking:.1f} decisions/s, "
        f"{1000 * thinking / decisions:.1f} ms per decision, "
        f"{1000 * thinking / max(searched, 1):.1f} ms per searched decision, "
        f"({1000 * cpu / max(searched, 1):.1f} ms of processor time), "
        f"{worlds / max(searched, 1):.1f} worlds per searched decision; wall {wall:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rounds", type=int, default=200, help="deals per preset, each played twice"
    )
    parser.add_argument("--presets", default="levant,romme")
    parser.add_argument("--seconds", type=float, default=0.2, help="time budget per decision")
    parser.add_argument("--iterations", type=int, default=None, help="worlds per decision")
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--horizon", type=int, default=0, help="turns played out (0: to the end)")
    parser.add_argument("--margin", type=float, default=1.0, help="standard errors to beat greedy")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="cpu", help="budget clock")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    seconds = args.seconds if args.seconds > 0 else None
    print(
        f"budget: seconds={seconds} iterations={args.iterations} candidates={args.candidates} "
        f"horizon={args.horizon or None} margin={args.margin} clock={args.clock} "
        f"jobs={args.jobs} seed={args.seed}"
    )
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for preset in args.presets.split(","):
            start = time.perf_counter()
            jobs = [
                Job(
                    preset,
                    n,
                    args.seed,
                    seconds,
                    args.iterations,
                    args.candidates,
                    args.horizon or None,
                    args.margin,
                    args.clock,
                )
                for n in range(args.rounds)
            ]
            deals = list(pool.map(play, jobs, chunksize=1))
            report(preset, deals, time.perf_counter() - start)


if __name__ == "__main__":
    main()
