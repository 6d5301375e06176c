"""A fixed amount of engine work, for counting instructions when timings are too noisy.

Plays ``--games`` seeded random rounds of one preset through the public API (the complete
``legal_actions()`` at every decision) and prints the number of decisions. Timings on a
shared machine swing by tens of percent; the number of instructions a run executes does
not. Run it twice under valgrind, once with ``--games 0`` to count the start-up, and divide
the difference by the decisions:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/fixed_work.py --preset levant --games 100 --seed 5

With ``--env`` the same count is made through the PettingZoo environment (``pip install
'hand-rummy[rl]'``), as ``versus_peers.py --env`` drives it: ``env.last()`` for the
observation and the mask, then ``env.step`` with an id drawn uniformly from the mask; it
prints environment steps (a lay-down of several melds takes a step per meld).

With ``--floor`` the players only draw from the stock and discard, and the play phase
lists only the discards (the turn rules' own ``discard_options``, which the generator
lists first): no take of the discard pile is judged and no meld is searched. Its count
per decision is the engine's cost outside the rules' searches (judging and applying a
move, copying the round, listing discards), the part that no faster search can remove.

The games depend on the seed and on the rules; a change to the rules (a new decision, say)
changes the games played, so compare over many games (100 or more: a few positions cost
thousands of times the median).
"""

from __future__ import annotations

import argparse
import random

import hand_rummy as hr
from hand_rummy.state import Phase
from hand_rummy.turn_rules import discard_options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="levant")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--env", action="store_true", help="play through the PettingZoo env")
    parser.add_argument("--floor", action="store_true", help="draw from the stock and discard only")
    args = parser.parse_args()
    if args.env:
        steps = _env_steps(args.preset, args.players, args.games, args.seed)
        print(f"{args.preset} env: {args.games} games, {steps} steps")
        return
    ruleset = hr.build(args.preset)
    rng = random.Random(args.seed)
    listing = _floor_listing if args.floor else _full_listing
    decisions = 0
    for _ in range(args.games):
        game = hr.Round.deal(ruleset, players=args.players, seed=rng.randrange(2**32))
        while not game.is_over:
            game = game.apply(rng.choice(listing(game)))
            decisions += 1
    floor = " (stock draws and discards only)" if args.floor else ""
    print(f"{args.preset}: {args.games} games, {decisions} decisions{floor}")


def _full_listing(game: hr.Round) -> list[hr.Action]:
    return list(game.legal_actions())


_DRAW = hr.DrawStock()


def _floor_listing(game: hr.Round) -> list[hr.Action]:
    if game.phase is Phase.DRAW and game.stock:
        return [_DRAW]
    if game.phase is Phase.PLAY:
        # (a hand with no legal discard, if one ever came, takes the whole listing)
        return list(discard_options(game)) or list(game.legal_actions())
    return list(game.legal_actions())  # a redeal's claim or pass


def _env_steps(preset: str, players: int, games: int, seed: int) -> int:
    from hand_rummy.envs import env, play_masked_random  # noqa: PLC0415 (the rl extra)

    table = env(preset, players=players)
    table.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        table.reset()
        steps += play_masked_random(table, rng)
    return steps


if __name__ == "__main__":
    main()
