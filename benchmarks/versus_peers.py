"""Random-play speed of hand-rummy next to OpenSpiel and RLCard, measured side by side.

Three engines play uniformly random legal moves, each in its own long-lived subprocess:

- ``levant``: hand-rummy, 4-player Levantine Hand; every decision enumerates the complete
  ``legal_actions()`` and applies one chosen uniformly;
- ``openspiel``: OpenSpiel's ``gin_rummy``; chance nodes are sampled by their
  probabilities and only player nodes count as decisions;
- ``rlcard-game``: RLCard's ``GinRummyGame`` object (not the env): legal actions from its
  judge at every step, then ``game.step``.

With ``--env`` two more engines run: ``rlcard-env`` drives RLCard's gin-rummy through its
env API (``rlcard.make``, ``env.reset``, ``env.step`` with an action from
``state['legal_actions']``), and ``levant-env`` drives hand-rummy's PettingZoo environment
(``hand_rummy.envs.env``, 4-player ``levant``: ``env.last()`` for the observation array and
the action mask, then ``env.step`` with an id chosen uniformly from the mask; each meld of a
lay-down is one step, as each of RLCard's steps is one decision). Their ratio is printed as
``levant-env/rlcard-env``.

A benchmark round gives each engine about ``--seconds`` of play (whole games, repeated until
the time is up), one engine after the other, so the runs go A, B, C, A, B, C and a busy
spell on the machine hits every engine alike. It prints decisions/s per engine as median
[min-max] over the rounds, then the medians of the per-round ratios hand-rummy/peer; the
last line is ``levant/openspiel decisions ratio: R``.

    pip install -e '.[bench]'
    python benchmarks/versus_peers.py [--rounds 5] [--seconds 4] [--seed 0] [--env]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from typing import IO, Any

EXTRA_HINT = "pip install 'hand-rummy[bench]'"
PEER_MODULES = {"open_spiel": "pyspiel", "rlcard": "rlcard"}

# One whole random game: takes the worker's RNG, returns the decisions made.
PlayGame = Callable[[random.Random], int]


def levant_engine(seed: int) -> tuple[str, PlayGame]:
    """hand-rummy, 4-player ``levant``, complete legal-action generation at each decision."""
    import hand_rummy as hr  # noqa: PLC0415 - each engine is imported only in its own worker

    ruleset = hr.build("levant")

    def play(rng: random.Random) -> int:
        game = hr.Round.deal(ruleset, players=4, seed=rng.randrange(2**32))
        decisions = 0
        while not game.is_over:
            actions = list(game.legal_actions())
            game = game.apply(rng.choice(actions))
            decisions += 1
        return decisions

    return f"hand-rummy {version('hand-rummy')}: levant, 4 players, full legal_actions()", play


def openspiel_engine(seed: int) -> tuple[str, PlayGame]:
    """OpenSpiel ``gin_rummy`` playout; chance nodes do not count as decisions."""
    import pyspiel  # noqa: PLC0415

    game = pyspiel.load_game("gin_rummy")

    def play(rng: random.Random) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return f"open_spiel {version('open_spiel')}: gin_rummy, 2 players, chance sampled", play


def rlcard_game_engine(seed: int) -> tuple[str, PlayGame]:
    """RLCard's ``GinRummyGame`` object stepped directly, bypassing the env's encoding."""
    import numpy as np  # noqa: PLC0415
    from rlcard.games.gin_rummy.game import GinRummyGame  # noqa: PLC0415

    game = GinRummyGame()
    # The game shuffles and picks the dealer with its own numpy generator; seeding it once
    # makes the whole run reproducible without paying for a fresh generator per game.
    game.np_random = np.random.RandomState(seed)

    def play(rng: random.Random) -> int:
        game.init_game()
        decisions = 0
        while not game.is_over():
            game.step(rng.choice(game.judge.get_legal_actions()))
            decisions += 1
        return decisions

    return f"rlcard {version('rlcard')}: GinRummyGame object, 2 players", play


def rlcard_env_engine(seed: int) -> tuple[str, PlayGame]:
    """RLCard gin-rummy through its env API, observation encoding included."""
    import rlcard  # noqa: PLC0415

    env = rlcard.make("gin-rummy", config={"seed": seed})

    def play(rng: random.Random) -> int:
        state, _ = env.reset()
        decisions = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            decisions += 1
        return decisions

    return f"rlcard {version('rlcard')}: gin-rummy env (rlcard.make), 2 players", play


def levant_env_engine(seed: int) -> tuple[str, PlayGame]:
    """hand-rummy's PettingZoo env, 4-player ``levant``: observation and mask at every step."""
    from hand_rummy.envs import env, play_masked_random  # noqa: PLC0415

    table = env("levant", players=4)
    table.reset(seed=seed)

    def play(rng: random.Random) -> int:
        table.reset()  # no seed: the next deal of the generator seeded above
        return play_masked_random(table, rng)

    return (
        f"hand-rummy {version('hand-rummy')}: PettingZoo env, levant, 4 players, "
        "observation and mask every step",
        play,
    )


ENGINES: dict[str, Callable[[int], tuple[str, PlayGame]]] = {
    "levant": levant_engine,
    "openspiel": openspiel_engine,
    "rlcard-game": rlcard_game_engine,
    "rlcard-env": rlcard_env_engine,
    "levant-env": levant_env_engine,
}


def play_for(play: PlayGame, rng: random.Random, seconds: float) -> dict[str, float]:
    """Play whole games until ``seconds`` have passed; the last game is always finished."""
    decisions = games = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        decisions += play(rng)
        games += 1
        elapsed = time.perf_counter() - start
    return {"decisions": decisions, "games": games, "seconds": elapsed}


def worker(name: str, seed: int) -> None:
    """Serve ``run SECONDS`` requests on stdin with one JSON line each, until ``quit``."""
    # The protocol owns the real stdout; anything a library prints (from Python or C) is
    # sent to stderr instead, where it cannot be mistaken for a reply.
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # Ctrl-C is the parent's to handle: it asks every worker to quit in turn, so a worker
    # should not die mid-reply with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        description, play = ENGINES[name](seed)
    except ImportError as error:
        hints = {"levant": "", "levant-env": "; pip install 'hand-rummy[rl]'"}
        hint = hints.get(name, f"; {EXTRA_HINT}")
        replies.write(json.dumps({"error": f"{error}{hint}"}) + "\n")
        return
    rng = random.Random(seed)
    # One unmeasured game first, so lazy imports and first-use caches are not billed to
    # the first round.
    play(rng)
    replies.write(json.dumps({"ready": description}) + "\n")
    for line in sys.stdin:
        command, *rest = line.split()
        if command == "quit":
            break
        replies.write(json.dumps(play_for(play, rng, float(rest[0]))) + "\n")


class Worker:
    """The parent's handle on one engine's subprocess."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", name, "--seed", str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.description = ""

    def receive(self) -> dict[str, Any]:
        stdout: IO[str] | None = self.process.stdout
        line = stdout.readline() if stdout else ""
        if not line:
            raise SystemExit(f"the {self.name} worker exited (code {self.process.wait()})")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise SystemExit(f"the {self.name} worker failed: {reply['error']}")
        return reply

    def wait_ready(self) -> None:
        self.description = self.receive()["ready"]

    def run(self, seconds: float) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"run {seconds}\n")
        self.process.stdin.flush()
        return self.receive()

    def close(self) -> None:
        if self.process.poll() is None and self.process.stdin is not None:
            try:
                self.process.stdin.write("quit\n")
                self.process.stdin.close()
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def spread(values: list[float]) -> str:
    """``median [min-max]`` of decisions/s, whole numbers with thousands separators."""
    return f"{statistics.median(values):,.0f} [{min(values):,.0f}-{max(values):,.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="benchmark rounds (at least 5)")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds per engine a round")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--env", action="store_true", help="also time RLCard's env API and hand-rummy's env"
    )
    parser.add_argument("--worker", choices=ENGINES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.seed)
        return
    if args.rounds < 5:
        parser.error("--rounds must be at least 5, so the median means something")
    missing = [
        dist for dist, module in PEER_MODULES.items() if not importlib.util.find_spec(module)
    ]
    if missing:
        raise SystemExit(f"{' and '.join(missing)} not installed; run: {EXTRA_HINT}")

    names = ["levant", "openspiel", "rlcard-game"] + (
        ["rlcard-env", "levant-env"] if args.env else []
    )
    workers = [Worker(name, args.seed) for name in names]
    try:
        for each in workers:
            each.wait_ready()
        print(
            f"{args.rounds} rounds of ~{args.seconds:g} s per engine, interleaved; "
            f"Python {platform.python_version()}, {os.cpu_count()} CPUs"
        )
        for each in workers:
            print(f"  {each.name:<12} {each.description}")
        rates: dict[str, list[float]] = {name: [] for name in names}
        totals: dict[str, list[int]] = {name: [0, 0] for name in names}
        for number in range(1, args.rounds + 1):
            for each in workers:
                result = each.run(args.seconds)
                rates[each.name].append(result["decisions"] / result["seconds"])
                totals[each.name][0] += result["decisions"]
                totals[each.name][1] += result["games"]
            print(
                f"round {number}: "
                + "  ".join(f"{name} {rates[name][-1]:,.0f}/s" for name in names)
            )
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
    finally:
        for each in workers:
            each.close()

    print(f"{'engine':<12} {'decisions/s median [min-max]':>32} {'decisions/game':>15}")
    for name in names:
        print(f"{name:<12} {spread(rates[name]):>32} {totals[name][0] / totals[name][1]:>15.1f}")
    # Ratios are taken round by round, where the engines shared the same machine weather,
    # and only then summarised; the OpenSpiel one is printed last on purpose.
    pairs = [("levant", peer) for peer in ("rlcard-game", "rlcard-env") if peer in names]
    if "levant-env" in names:
        pairs.append(("levant-env", "rlcard-env"))
    for ours, peer in [*pairs, ("levant", "openspiel")]:
        ratios = [a / b for a, b in zip(rates[ours], rates[peer])]
        print(f"{ours}/{peer} decisions ratio: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
