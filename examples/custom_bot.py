"""Write your own bot: copy this file and change ``choose``.

A bot is any object with a ``choose(view)`` method that returns one of
``view.legal_actions()``. The view shows what one player may see (the own
hand, the table, the discard pile, card counts), never the other hands.

``CautiousBot`` below plays like ``GreedyBot`` but never takes the discard
(so it never shows the table what it collects) and always throws its
highest card. It plays a short match of Levantine Hand against a
``RandomBot`` and a ``GreedyBot``.

Run it: ``python examples/custom_bot.py``.
"""

from __future__ import annotations

import hand_rummy as hr
from hand_rummy.bots import play_match


class CautiousBot:
    """GreedyBot's melding, but no discard takes and the highest card out."""

    def __init__(self, seed: int = 0) -> None:
        self.greedy = hr.GreedyBot(seed)

    def choose(self, view: hr.PlayerView) -> hr.Action:
        actions = list(view.legal_actions())
        # 1. draw from the stock whenever that is allowed
        if hr.DrawStock() in actions:
            return hr.DrawStock()
        # 2. when discarding, throw the card that costs most (keeping wild cards)
        discards = [a for a in actions if isinstance(a, hr.Discard)]
        if len(discards) == len(actions):
            rules = view.ruleset_rules()
            return max(
                discards,
                key=lambda a: (
                    not rules.is_wild(a.card),
                    hr.card_penalty(a.card, rules),
                    a.announce,
                ),
            )
        # 3. everything else (opening, melding, laying off): do what GreedyBot does
        return self.greedy.choose(view)


def main() -> None:
    names = ["Cautious", "Random", "Greedy"]
    bots: list[hr.Bot] = [CautiousBot(seed=1), hr.RandomBot(seed=2), hr.GreedyBot(seed=3)]
    match = hr.Match.new(hr.rulesets.levant, players=3, seed=2024)  # seven scored rounds, 000
    match = play_match(match, bots)
    print(f"{match.ruleset.title}: {len(match.rounds)} rounds")
    for number, game in enumerate(match.rounds, start=1):
        assert game.outcome is not None
        outcome = game.outcome
        scores = "  ".join(f"{n} {s:+d}" for n, s in zip(names, outcome.score.scores))
        print(f"round {number} ({outcome.ending.value}): {scores}")
    print("totals: " + "  ".join(f"{n} {t}" for n, t in zip(names, match.totals)))
    print("winner: " + ", ".join(names[seat] for seat in match.winners))


if __name__ == "__main__":
    main()
