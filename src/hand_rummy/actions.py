"""The moves of a round, as frozen values named as the game names them.

Each move holds :class:`~hand_rummy.cards.Card` values; the ``of`` constructors
read card text as well (the constructors themselves stay plain, since the
generator builds thousands of moves a decision).

>>> from hand_rummy.cards import parse_card
>>> str(Discard(parse_card("KS"))), str(LayOff.of(3, "10H"))
('discard K♠', 'lay off 10♥ on meld 3')
>>> str(LayDown.of("7H JK 9H", "5S 5D 5C")), str(Exchange.of(2, "8H"))
('meld 7♥ JK 9♥ + 5♠ 5♦ 5♣', 'exchange 8♥ for the wild in meld 2')
"""

from __future__ import annotations

from typing import TypeAlias, Union, get_args

import attrs

from hand_rummy.cards import Card, format_cards, parse_card
from hand_rummy.errors import InvalidStateError, expect, number
from hand_rummy.melds import CardsLike, Meld, read_cards

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
    "expect_action",
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

    @classmethod
    def of(cls, *melds: Meld | CardsLike) -> LayDown:
        """Lay ``melds``, each a :class:`~hand_rummy.melds.Meld` or its cards as text or a list
        (a wild card's role is then left to the judge, as in :meth:`Meld.of`)."""
        return cls(tuple(m if isinstance(m, Meld) else Meld.of(m) for m in melds))

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

    @classmethod
    def of(
        cls, target: int, card: Card | str, role: Card | str | None = None, demoted: bool = False
    ) -> LayOff:
        """The lay-off with its cards given as text or as cards."""
        expect(target, int, "the target meld")
        expect(demoted, bool, "demoted")
        return cls(
            target,
            _card(card, "the card"),
            None if role is None else _card(role, "the role"),
            demoted,
        )

    def __str__(self) -> str:
        role = f"(={self.role})" if self.role is not None else ""
        taken = " (taken, natural)" if self.demoted else ""
        return f"lay off {self.card}{role}{taken} on meld {number(self.target)}"


@attrs.frozen
class Exchange:
    """Take the wild card from table meld ``target`` by putting in ``cards`` from the hand."""

    target: int
    cards: tuple[Card, ...]

    @classmethod
    def of(cls, target: int, cards: CardsLike) -> Exchange:
        """The exchange with the cards put in given as text (``"8H"``) or as a list."""
        expect(target, int, "the target meld")
        return cls(target, read_cards(cards))

    def __str__(self) -> str:
        return f"exchange {format_cards(self.cards)} for the wild in meld {number(self.target)}"


@attrs.frozen
class Discard:
    """Discard a card, ending the turn; ``announce`` says the cards left, where rules ask it.

    ``demoted`` discards a copy that was taken from the discard pile as a wild
    (so it played as natural), where the hand also holds an ordinary copy.
    """

    card: Card
    announce: bool = False
    demoted: bool = False

    @classmethod
    def of(cls, card: Card | str, announce: bool = False, demoted: bool = False) -> Discard:
        """The discard with its card given as text (``"KS"``) or as a card."""
        expect(announce, bool, "announce")
        expect(demoted, bool, "demoted")
        return cls(_card(card, "the card"), announce, demoted)

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


def _card(value: Card | str, what: str) -> Card:
    if isinstance(value, Card):
        return value
    expect(value, (Card, str), what)
    return parse_card(value)


Action: TypeAlias = Union[  # noqa: UP007 (the alias is also used at run time, on Python 3.10)
    DrawStock, TakeDiscard, LayDown, LayOff, Exchange, Discard, ClaimRedeal, PassRedeal
]
"""Any move of a round."""


_ACTIONS: tuple[type, ...] = get_args(Action)


def expect_action(action: object) -> None:
    """Raise :class:`~hand_rummy.errors.InvalidStateError` unless ``action`` is an action
    whose fields have their types (a card a :class:`~hand_rummy.cards.Card`, not its text).

    A wrongly typed action is a caller's mistake: the turn rules, the listing's membership
    test and the writers of documents all refuse it so, before any rule is asked.

    >>> expect_action(Discard("KS"))  # type: ignore[arg-type]
    Traceback (most recent call last):
    ...
    hand_rummy.errors.InvalidStateError: the discarded card must be Card, not str
    """
    if not isinstance(action, _ACTIONS):
        kinds = ", ".join(kind.__name__ for kind in _ACTIONS)
        shown = f"{action!r:.60}"
        raise InvalidStateError(f"not an action: {shown} (an action is one of {kinds})")
    if isinstance(action, Discard):
        expect(action.card, Card, "the discarded card")
        expect(action.announce, bool, "announce")
        expect(action.demoted, bool, "demoted")
    elif isinstance(action, LayOff):
        expect(action.target, int, "the target meld")
        expect(action.card, Card, "the card laid off")
        if action.role is not None:
            expect(action.role, Card, "the role")
        expect(action.demoted, bool, "demoted")
    elif isinstance(action, Exchange):
        expect(action.target, int, "the target meld")
        expect(action.cards, tuple, "the cards put in")
        for card in action.cards:
            expect(card, Card, "each card put in")
    elif isinstance(action, LayDown):
        expect(action.melds, tuple, "the melds")
        for meld in action.melds:
            expect(meld, Meld, "each meld")
