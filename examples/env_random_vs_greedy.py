"""Masked random agents against GreedyBot, every move through the PettingZoo environment.

Two seats choose uniformly among the ids of their action mask; the other two are
GreedyBots, whose actions are turned into ids with the environment's action space
(a lay-down becomes its melds' ids and ``submit``, one env step each). The seats
swap every round. It prints each side's mean round score (a penalty: lower is
better) with a 95% confidence interval, and the mean reward the environment paid.

    pip install 'hand-rummy[rl]'
    python examples/env_random_vs_greedy.py [--rules levant] [--rounds 40] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

import hand_rummy as hr
from hand_rummy.envs import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="levant")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    table = env(args.rules, players=4)
    space = table.unwrapped.space
    rng = random.Random(args.seed)
    scores: dict[str, list[int]] = {"random": [], "greedy": []}
    rewards: dict[str, list[float]] = {"random": [], "greedy": []}
    steps = 0
    for number in range(args.rounds):
        table.reset(seed=args.seed * 100_003 + number)
        # random agents sit at seats 0 and 2 in even rounds, at 1 and 3 in odd ones
        kind = {
            agent: "random" if seat % 2 == number % 2 else "greedy"
            for seat, agent in enumerate(table.possible_agents)
        }
        bots = {agent: hr.GreedyBot(rng.randrange(2**32)) for agent in table.possible_agents}
        planned: list[int] = []  # the rest of a GreedyBot's lay-down, id by id
        returns = dict.fromkeys(table.possible_agents, 0.0)
        final: tuple[int, ...] = ()
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, info = table.last()
            returns[agent] += reward
            if terminated or truncated:
                final = info.get("round_scores", final)
                table.step(None)
                continue
            if kind[agent] == "random":
                ids = np.flatnonzero(observation["action_mask"])
                action_id = int(ids[rng.randrange(len(ids))])
            else:
                if not planned:
                    view = table.unwrapped.decision.view
                    planned = list(space.encode(bots[agent].choose(view), view))
                action_id = planned.pop(0)
            table.step(action_id)
            steps += 1
        for seat, agent in enumerate(table.possible_agents):
            scores[kind[agent]].append(final[seat])
            rewards[kind[agent]].append(returns[agent])

    print(f"{args.rounds} rounds of {args.rules}, 4 players, {steps} env steps")
    for side in ("random", "greedy"):
        values = scores[side]
        half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
        print(
            f"{side:>6}: mean round score {statistics.mean(values):7.1f} ± {half:5.1f}"
            f"   mean reward {statistics.mean(rewards[side]):+.3f}"
        )


if __name__ == "__main__":
    main()
