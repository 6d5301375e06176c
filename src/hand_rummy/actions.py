"""The moves of a round, as frozen values named as the game names them.

>>> from hand_rummy.cards import parse_card
>>> str(Discard(parse_card("KS"))), str(LayOff(3, parse_card("10H")))
('discard K♠', 'lay off 10♥ on meld 3')
"""

from __future__ import annotations

from typing import TypeAlias, Union

import attrs

from hand_rummy.cards import Card, format_cards
from hand_rummy.melds import Meld

__all__ = [
    "Action",
    "ClaimRedeal",
    "Discard",
    "DrawStock",
    "Exchange",
    "LayDown",
    "LayOff",
    "PassRedeal",
    "TakeDiscard",
]


@attrs.frozen
class DrawStock:
    """Draw the top card of the stock."""

    def __str__(self) -> str:
        return "draw"


@attrs.frozen
class TakeDiscard:
    """Take the top card of the discard pile (with the obligations the rules attach)."""

    def __str__(self) -> str:
        return "take the discard"


@attrs.frozen
class LayDown:
    """Lay melds from the hand on the table.

    A player who has not opened lays down the whole opening at once (judged as
    a whole); a player who has opened lays down one meld per action.
    """

    melds: tuple[Meld, ...]

    def __str__(self) -> str:
        return "meld " + " + ".join(m.describe() for m in self.melds)


@attrs.frozen
class LayOff:
    """Add one card from the hand to the table meld ``target``; ``role`` for a wild card.

    ``demoted`` lays off a copy that was taken from the discard pile as a wild
    and so plays as a natural card (000 §Exchanging wild cards).
    """

    target: int
    card: Card
    role: Card | None = None
    demoted: bool = False

    def __str__(self) -> str:
        role = f"(={self.role})" if self.role is not None else ""
        taken = " (taken, natural)" if self.demoted else ""
        return f"lay off {self.card}{role}{taken} on meld {self.target}"


@attrs.frozen
class Exchange:
    """Take the wild card from table meld ``target`` by putting in ``cards`` from the hand."""

    target: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"exchange {format_cards(self.cards)} for the wild in meld {self.target}"


@attrs.frozen
class Discard:
    """Discard a card, ending the turn; ``announce`` says the cards left, where rules ask it.

    ``demoted`` discards a copy that was taken from the discard pile as a wild
    (so it played as natural), where the hand also holds an ordinary copy.
    """

    card: Card
    announce: bool = False
    demoted: bool = False

    def __str__(self) -> str:
        taken = " (taken, natural)" if self.demoted else ""
        return f"discard {self.card}{taken}" + (" and announce" if self.announce else "")


@attrs.frozen
class ClaimRedeal:
    """Show a weak deal and ask for a new one (000 §Setup 4)."""

    def __str__(self) -> str:
        return "claim a redeal"


@attrs.frozen
class PassRedeal:
    """Keep a hand that would allow a redeal claim."""

    def __str__(self) -> str:
        return "keep the deal"


Action: TypeAlias = Union[  # noqa: UP007 (the alias is also used at run time, on Python 3.10)
    DrawStock, TakeDiscard, LayDown, LayOff, Exchange, Discard, ClaimRedeal, PassRedeal
]
"""Any move of a round."""
