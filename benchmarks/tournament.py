"""The tournament runner's speed: its overhead over the engine's own random play, matches per
second with 1 and 2 local workers, and the Ray backend's overhead per match.

* ``overhead``: the same matches (same seeds) played three ways in this process: the raw
  engine (``list(match.legal_actions())``, a random choice, ``match.apply``), the
  tournament runner with :class:`~hand_rummy.bots.RandomBot` at every seat, and the runner
  with RandomBots that know only the old ``choose(view)`` (each builds a view and lists its
  own legal actions). Decisions per second of each, median of ``--repeats``, and the
  runner's overhead over the raw engine.
* ``workers``: matches per second of a whole run (start-up included) with 1 and 2 local
  worker processes.
* ``ray`` (needs the extra ``ray``): the same run on a local Ray instance with 1 and 2
  workers; the start of Ray is timed apart, and the overhead per match is the Ray run's
  time less the local run's with as many workers, divided by the matches.

    python benchmarks/tournament.py [--sections overhead,workers,ray] [--rules classic]
        [--players 4] [--matches 40] [--rounds 3] [--repeats 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import attrs

import hand_rummy as hr
from hand_rummy.tournament import Tournament, run
from hand_rummy.tournament.schedule import bot_seed


class ViewOnlyRandomBot:
    """RandomBot as bots were written before the runner shared its legal actions: only
    ``choose(view)``, listing the legal actions from the view."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: hr.PlayerView) -> hr.Action:
        return self.rng.choice(list(view.legal_actions()))


def raw_engine(t: Tournament) -> tuple[int, float]:
    """The tournament's matches by random play on the engine alone: (decisions, CPU seconds)."""
    decisions = 0
    start = time.process_time()
    for table in t.tables():
        match = t.new_match(table.seed)
        # a generator a seat, seeded as the runner seeds its RandomBots: the same games
        rngs = [random.Random(bot_seed(table.seed, seat)) for seat in range(t.players)]
        while not match.is_over:
            assert match.current is not None
            rng = rngs[match.current.turn]
            match = match.apply(rng.choice(list(match.legal_actions())))
            decisions += 1
    return decisions, time.process_time() - start


def runner(
    t: Tournament,
    workers: int = 1,
    backend: str = "local",
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[int, float]:
    """The tournament through the runner: (decisions, seconds of the whole run by ``clock``)."""
    start = clock()
    result = run(t, workers=workers, backend=backend)
    seconds = clock() - start
    assert not result.failures, result.failures
    return sum(sum(m.decisions) for m in result.matches), seconds


def overhead(t: Tournament, repeats: int) -> None:
    """The three ways in turn, ``repeats`` times (so that a busy spell of the machine hits
    them all), timed in CPU seconds of this process."""
    random_bots = attrs.evolve(t, bots=("random",))
    view_bots = attrs.evolve(t, bots=(ViewOnlyRandomBot,))
    ways: dict[str, Callable[[], tuple[int, float]]] = {
        "raw": lambda: raw_engine(t),
        "shared": lambda: runner(random_bots, clock=time.process_time),
        "views": lambda: runner(view_bots, clock=time.process_time),
    }
    rates: dict[str, list[float]] = {name: [] for name in ways}
    counts = set()
    for _ in range(repeats):
        for name, measure in ways.items():
            decisions, seconds = measure()
            rates[name].append(decisions / seconds)
            counts.add(decisions)
    assert len(counts) == 1, "the three ways should play the same games"
    raw, shared, views = (statistics.median(rates[name]) for name in ways)
    # the overhead of each repeat over the raw run just before it, so that the machine's
    # load, which drifts, cancels out; then the median of those
    shared_cost = statistics.median(r / s - 1 for r, s in zip(rates["raw"], rates["shared"]))
    views_cost = statistics.median(r / v - 1 for r, v in zip(rates["raw"], rates["views"]))
    decisions = counts.pop()
    print(f"{t.matches} matches, {decisions} decisions each way, CPU time, median of {repeats}:")
    print(f"  raw engine (legal_actions, random choice, apply)  {raw:8,.0f} decisions/s")
    print(
        f"  runner, RandomBot (shared legal actions)          {shared:8,.0f} decisions/s"
        f"  overhead {100 * shared_cost:5.1f} %"
    )
    print(
        f"  runner, a choose(view)-only random bot            {views:8,.0f} decisions/s"
        f"  overhead {100 * views_cost:5.1f} %"
    )


def _ray_started(workers: int) -> bool:
    """Start a local Ray instance of ``workers`` CPUs; False when Ray is not installed."""
    try:
        import ray  # noqa: PLC0415 (optional)
    except ImportError:
        print("  ray: not installed (pip install 'hand-rummy[ray]')")
        return False
    start = time.perf_counter()
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    print(f"  ray.init (a local instance of {workers} CPUs): {time.perf_counter() - start:.2f} s")
    return True


def whole_runs(t: Tournament, repeats: int, with_ray: bool) -> None:
    """Wall seconds of whole runs (worker start-up included) with 1 and 2 local workers and,
    with Ray, 1 and 2 Ray tasks at a time; the ways in turn, ``repeats`` times."""
    ways = [("local", 1), ("local", 2)]
    if with_ray and _ray_started(2):
        first = runner(t, workers=2, backend="ray")[1]
        print(f"  ray, first run (its workers start, the code is shipped): {first:.2f} s")
        ways += [("ray", 1), ("ray", 2)]
    seconds: dict[tuple[str, int], list[float]] = {way: [] for way in ways}
    for _ in range(repeats):
        for backend, count in ways:
            seconds[backend, count].append(runner(t, workers=count, backend=backend)[1])
    for (backend, count), times in seconds.items():
        middle = statistics.median(times)
        line = (
            f"  {backend:<5} {count} worker{'s' if count > 1 else ' '}  "
            f"{t.matches / middle:6.2f} matches/s  ({middle:.2f} s for {t.matches} matches)"
        )
        if backend == "ray":
            # paired with the local run of the same repeat and workers
            extra = [r - lo for r, lo in zip(times, seconds["local", count])]
            line += (
                f"  Ray's overhead {1000 * statistics.median(extra) / t.matches:+.1f} ms a match"
            )
        print(line)
    if with_ray and ("ray", 1) in seconds:
        import ray  # noqa: PLC0415

        ray.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sections", default="overhead,workers,ray")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    t = Tournament(
        args.rules,
        players=args.players,
        bots=("random",),
        matches=args.matches,
        seed=args.seed,
        rounds=args.rounds,
        custom_length=True,
    )
    sections = args.sections.split(",")
    print(f"{args.rules}, {args.players} players, {args.rounds} rounds a match")
    if "overhead" in sections:
        overhead(t, args.repeats)
    if "workers" in sections or "ray" in sections:
        print(f"whole runs of {t.matches} matches, wall time, median of {args.repeats}:")
        whole_runs(t, args.repeats, "ray" in sections)


if __name__ == "__main__":
    main()
