"""Under a promise the generator lists first the first move of the way it found to keep it:
a lay-down, a lay-off or an exchange (``turn_rules.promised_*``), so that the first legal move
does not wait for the moves that each need a search of their own to be shown legal.

Seeded rounds of Levant below the bar of 91 and in partnership, mostly greedy moves (which
reach the end of a hand), are played through the public API; at every decision under a
promise the promised move must be legal by ``check()``, listed exactly once, and listed
before every lay-off, exchange and lay-down that is not it.
"""

from __future__ import annotations

import random
from collections import Counter

import hand_rummy as hr
from hand_rummy.bots import Choice
from hand_rummy.state import Obligation
from hand_rummy.turn_rules import promised_exchange, promised_lay_down, promised_lay_off

PROMISES = (Obligation.GO_OUT, Obligation.ONE_CARD)


def test_the_promised_move_is_legal_and_listed_first() -> None:
    kinds: Counter[str] = Counter()
    for preset in ("levant+opening_91", "levant+partnership"):
        name, *variants = preset.split("+")
        ruleset = hr.build(name, variants)
        rng = random.Random(preset)
        bot = hr.GreedyBot(2)
        players = ruleset.players.minimum if ruleset.players.partnerships else 4
        for _ in range(12):
            game = hr.Round.deal(ruleset, players=players, seed=rng.randrange(2**32))
            while not game.is_over:
                legal = list(game.legal_actions())
                assert len(legal) == len(set(legal)), "an action listed twice"
                if game.current.obligation in PROMISES and game.phase is hr.Phase.PLAY:
                    promised = [
                        move
                        for move in (
                            promised_lay_down(game),
                            promised_lay_off(game),
                            promised_exchange(game),
                        )
                        if move is not None
                    ]
                    for move in promised:
                        kinds[type(move).__name__] += 1
                        assert game.check(move).ok, move
                        moves = [a for a in legal if not isinstance(a, hr.Discard)]
                        assert moves[0] == move, (move, moves[:3])
                choice = Choice(game.turn, game=game, legal=legal)
                action = bot.decide(choice) if rng.random() < 0.7 else rng.choice(legal)
                game = game.apply(action)
    # the rounds reach promises kept each way: the test asks about all three
    assert kinds["LayDown"] and kinds["LayOff"] and kinds["Exchange"], kinds
