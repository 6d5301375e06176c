"""How long OpenSpiel's ``resample_from_infostate`` takes on the registered game.

Information-set searches (OpenSpiel's ISMCTS among them) resample the hidden cards once
per simulation, so this is the price of every simulation they run. For each preset the
script plays seeded random rounds through the OpenSpiel game (chance outcomes drawn with
their probabilities, a legal id drawn uniformly at each decision), stops at decision
nodes every ``--every`` steps, resamples for the player to move ``--repeats`` times, and
prints the median time per resample with the range, and the median length of the history
each resample replays. Needs ``pip install 'hand-rummy[openspiel]'``.

    python benchmarks/resample.py --presets levant,romme --rounds 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from hand_rummy.openspiel import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="levant,classic,romme,gulf")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--every", type=int, default=40, help="steps between resampled states")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.presets.split(","):
        times, lengths = _measure(name, args)
        print(
            f"{name}: {len(times)} resamples, {statistics.median(times) * 1e3:.1f} ms median "
            f"[{min(times) * 1e3:.1f}-{max(times) * 1e3:.1f}], history of "
            f"{statistics.median(lengths):.0f} ids (median)"
        )


def _measure(name: str, args: argparse.Namespace) -> tuple[list[float], list[int]]:
    game = load_game(name, players=args.players)
    rng = random.Random(args.seed)
    times: list[float] = []
    lengths: list[int] = []
    for _ in range(args.rounds):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                ids, weights = zip(*outcomes, strict=True)
                state.apply_action(rng.choices(ids, weights)[0])
                continue
            steps += 1
            if steps % args.every == 0:
                player = state.current_player()
                for _ in range(args.repeats):
                    sampler = random.Random(rng.random()).random
                    start = time.perf_counter()
                    state.resample_from_infostate(player, sampler)
                    times.append(time.perf_counter() - start)
                    lengths.append(len(state.history()))
            state.apply_action(rng.choice(state.legal_actions()))
    return times, lengths


if __name__ == "__main__":
    main()
