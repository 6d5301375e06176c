"""What happens when the stock runs out."""

from __future__ import annotations

import enum

import attrs

from hand_rummy.errors import StrictValues

__all__ = ["StockEnd", "StockExhaustion", "StockTrigger"]


class StockTrigger(StrictValues, enum.Enum):
    """When the stock counts as exhausted."""

    AT_PLAYER_COUNT = "at_player_count"
    """After a turn, the stock holds no more cards than there are players (000, matrix L17)."""
    EMPTY_ON_DRAW = "empty_on_draw"
    """A player must draw from the stock and it is empty (002, matrix R7)."""
    LAST_CARD_DRAWN = "last_card_drawn"
    """Right after the last stock card is drawn (matrix R7, alternative)."""


class StockEnd(StrictValues, enum.Enum):
    """How a round ends when the stock is exhausted and cannot be renewed."""

    UNSCORED = "unscored"
    """No score; the same dealer deals again; the round does not count (000)."""
    SCORE_HANDS = "score_hands"
    """Everyone scores the cards in hand (002)."""
    NO_CONTEST = "no_contest"
    """A no-contest: every score is zero (004)."""


@attrs.frozen
class StockExhaustion:
    """The stock-exhaustion rule: an optional renewal from the discard pile, then an end.

    ``reshuffles`` is how many times per round the discard pile, all but its
    top card, is shuffled into a new stock (``None``: as often as needed).
    """

    trigger: StockTrigger = StockTrigger.AT_PLAYER_COUNT
    reshuffles: int | None = 0
    end: StockEnd = StockEnd.UNSCORED

    def describe(self) -> str:
        when = {
            StockTrigger.AT_PLAYER_COUNT: (
                "When, after a turn, the stock holds no more cards than there are players"
            ),
            StockTrigger.EMPTY_ON_DRAW: (
                "When a player must draw and the stock is empty (that is, as soon as the turn "
                "that drew its last card ends: the next player may not take the top discard "
                "instead)"
            ),
            StockTrigger.LAST_CARD_DRAWN: "When the last card of the stock has been drawn",
        }[self.trigger]
        renew = ""
        if self.reshuffles is None:
            renew = (
                ", the discard pile except its top card is shuffled into a new stock; once that "
                "cannot be done"
            )
        elif self.reshuffles:
            renew = (
                f", the discard pile except its top card is shuffled into a new stock, up to "
                f"{self.reshuffles} times; after that"
            )
        end = {
            StockEnd.UNSCORED: "the round ends without a score and the same dealer deals again",
            StockEnd.SCORE_HANDS: "the round ends and everyone scores the cards in hand",
            StockEnd.NO_CONTEST: "the round is a no-contest and every score is zero",
        }[self.end]
        return f"{when}{renew}, {end}."
