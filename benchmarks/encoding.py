"""The cost of the action encoding per decision, next to the engine's own legal-action listing.

Random rounds of each preset are played through the encoding (a random legal id at every
step, lay-downs meld by meld). At every decision of the player to move it times, each on a fresh
view after one warm-up listing (so the meld finder's caches are warm for both):
``legal_actions()`` listed in full (the engine's cost, which the mask cannot avoid), the
mask (``action_mask(view)``, that listing included), a whole decision made through the
encoding (mask and decode at every step of a lay-down), and, when numpy is installed, the
observation. Figures are medians in microseconds, with the means of the listing and the mask
beside them (a few positions with thousands of lay-downs make the mean); ``ids/act`` is
how many ids an action took on average.

    python benchmarks/encoding.py [--rounds 10] [--presets levant,romme] [--seed 0]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable

import hand_rummy as hr
from hand_rummy import encoding
from hand_rummy.observation import observe


def _timed(call: Callable[[hr.PlayerView], object], view: hr.PlayerView) -> float:
    begin = time.perf_counter()
    call(view)
    return (time.perf_counter() - begin) * 1e6


def _listing(view: hr.PlayerView) -> list[hr.Action]:
    return list(view.legal_actions())


def measure(name: str, rounds: int, seed: int, with_numpy: bool) -> dict[str, float]:
    ruleset = hr.build(name, [])
    players = 4 if ruleset.players.allows(4) else ruleset.players.minimum
    space = encoding.ActionSpace.of(ruleset, players)
    legal_us: list[float] = []
    mask_us: list[float] = []
    step_us: list[float] = []
    observe_us: list[float] = []
    decisions = steps = 0
    rng = random.Random(seed)
    for number in range(rounds):
        game = hr.Round.deal(ruleset, players, seed + number)
        while not game.is_over:
            list(game.view(game.turn).legal_actions())  # the meld finder's caches warm
            legal_us.append(_timed(_listing, game.view(game.turn)))
            fresh = game.view(game.turn)
            mask_us.append(_timed(space.action_mask, fresh))
            if with_numpy:
                observe_us.append(_timed(observe, fresh))
            decision: encoding.Step = space.decision(game.view(game.turn))
            decisions += 1
            begin = time.perf_counter()
            while isinstance(decision, encoding.Decision):
                ids = decision.legal_ids()
                decision = decision.decode(rng.choice(ids))
                steps += 1
            step_us.append((time.perf_counter() - begin) * 1e6)
            game = game.apply(decision)
    figures = {
        "decisions": decisions,
        "ids per action": steps / decisions,
        "legal_actions µs": statistics.median(legal_us),
        "legal_actions µs mean": statistics.fmean(legal_us),
        "mask µs": statistics.median(mask_us),
        "mask µs mean": statistics.fmean(mask_us),
        "decide µs": statistics.median(step_us),
        "size": space.size,
    }
    if observe_us:
        figures["observe µs"] = statistics.median(observe_us)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--presets", default=",".join(sorted(hr.PRESETS)))
    args = parser.parse_args()
    with_numpy = importlib.util.find_spec("numpy") is not None
    header = (
        f"{'preset':<18}{'ids':>6}{'decisions':>10}{'ids/act':>8}{'legal µs':>10}{'(mean)':>8}"
        f"{'mask µs':>9}{'(mean)':>8}{'decide µs':>10}"
        + (f"{'observe µs':>11}" if with_numpy else "")
    )
    print(header)
    for name in args.presets.split(","):
        f = measure(name, args.rounds, args.seed, with_numpy)
        line = (
            f"{name:<18}{f['size']:>6.0f}{f['decisions']:>10.0f}{f['ids per action']:>8.2f}"
            f"{f['legal_actions µs']:>10.0f}{f['legal_actions µs mean']:>8.0f}"
            f"{f['mask µs']:>9.0f}{f['mask µs mean']:>8.0f}"
            f"{f['decide µs']:>10.0f}"
        )
        if "observe µs" in f:
            line += f"{f['observe µs']:>11.0f}"
        print(line)


if __name__ == "__main__":
    main()
