"""Cards, their notation, and decks that keep track of physical copies.

A :class:`Card` is a face: a rank and a suit, or the joker. The two 7♥ of a
double deck are the same face; when the difference matters (dealing, card
conservation) the deck hands out :class:`PhysicalCard` values, which carry the
copy number as well.

>>> parse_card("10H")
Card.parse('10H')
>>> str(parse_card("th")), parse_card("10♥").ascii
('10♥', '10H')
>>> format_cards(parse_cards("7H AC 9H"))
'7♥ A♣ 9♥'
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable

import attrs

from hand_rummy.errors import CardParseError, InvalidStateError, StrictValues, number

__all__ = [
    "CARDS",
    "JOKER",
    "MAX_JOKERS",
    "MAX_PACKS",
    "NATURAL_CARDS",
    "Card",
    "PhysicalCard",
    "Rank",
    "Suit",
    "build_deck",
    "format_cards",
    "parse_card",
    "parse_cards",
]


class Suit(StrictValues, enum.IntEnum):
    """The four suits, in the order cards are sorted for display (♣ ♦ ♥ ♠)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(StrictValues, enum.IntEnum):
    """Ranks numbered as they run in a sequence with the Ace low."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]


_RANK_LABELS = {r: str(int(r)) for r in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}

JOKER_INDEX = 52


@attrs.frozen(eq=False, order=False, repr=False)
class Card:
    """A card face: ``rank`` and ``suit``, both ``None`` for the joker.

    Cards compare and hash by ``index`` (0-51 for the natural cards, suit-major,
    and 52 for the joker), and the parsers hand out shared instances. ``index``
    is also the card's place in the tables the meld finder uses.
    Cards order by suit, then rank, with the joker last.
    """

    rank: Rank | None
    suit: Suit | None
    index: int = attrs.field(init=False)

    @index.default
    def _index(self) -> int:
        if self.rank is None and self.suit is None:
            return JOKER_INDEX
        if self.rank is None or self.suit is None:
            raise InvalidStateError("a card has both a rank and a suit, or neither (the joker)")
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise InvalidStateError(
                f"a card's rank must be a Rank and its suit a Suit, not {self.rank!r} and "
                f"{self.suit!r}: write Card(Rank.SEVEN, Suit.HEARTS), or parse_card('7H')"
            )
        return int(self.suit) * 13 + int(self.rank) - 1

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card; see :func:`parse_card`."""
        return parse_card(text)

    @property
    def is_joker(self) -> bool:
        """Whether this is the joker (wild or not depends on the rules)."""
        return self.index == JOKER_INDEX

    @property
    def ascii(self) -> str:
        """The card in ASCII notation: ``10H``, ``AC``, ``JK``."""
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.label + self.suit.letter

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.label + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.ascii!r})"

    def __format__(self, spec: str) -> str:
        if spec == "ascii":
            return self.ascii
        if spec in ("", "symbol"):
            return str(self)
        raise InvalidStateError(f"unknown card format {spec!r}; use 'ascii' or 'symbol'")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Unpickle to the interned instance, so identity survives worker processes.
        return (_card_at, (self.index,))

    def _repr_svg_(self) -> str:
        """The card as a picture, for notebooks (:func:`hand_rummy.svg.card`)."""
        from hand_rummy import svg  # noqa: PLC0415 (svg imports this module)

        return svg.card(self)


def _card_at(index: int) -> Card:
    return CARDS[index]


NATURAL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The 52 natural faces, in index order."""

JOKER = Card(None, None)

CARDS: tuple[Card, ...] = (*NATURAL_CARDS, JOKER)
"""Every face, in the order of their ``index``."""


@attrs.frozen(order=True)
class PhysicalCard:
    """One physical card of a deck: a face and which copy of that face it is.

    The two 7♥ of a double deck are ``PhysicalCard(7♥, 0)`` and
    ``PhysicalCard(7♥, 1)``: different cards with the same face.

    >>> a, b = PhysicalCard(parse_card("7H"), 0), PhysicalCard(parse_card("7H"), 1)
    >>> a == b, a.card == b.card
    (False, True)
    """

    card: Card = attrs.field(order=lambda c: c.index)
    copy: int = 0

    def __str__(self) -> str:
        return str(self.card)


MAX_PACKS = 8
"""The most packs a deck may hold: the engine counts the copies of a card in a byte, and
no rummy plays with more."""

MAX_JOKERS = 16
"""The most jokers a deck may hold."""


def build_deck(decks: int, jokers: int) -> tuple[PhysicalCard, ...]:
    """``decks`` full 52-card packs plus ``jokers`` jokers, in a fixed (unshuffled) order
    (at most :data:`MAX_PACKS` packs and :data:`MAX_JOKERS` jokers).

    >>> len(build_deck(2, 2)), len(build_deck(2, 4)), len(build_deck(2, 0))
    (106, 108, 104)
    """
    for count, what, most in (
        (decks, "the number of packs", MAX_PACKS),
        (jokers, "the number of jokers", MAX_JOKERS),
    ):
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidStateError(f"{what} must be int, not {type(count).__name__}")
        if not 0 <= count <= most:
            raise InvalidStateError(f"{what} must be from 0 to {most}, not {number(count)}")
    return _deck(decks, jokers)


@functools.lru_cache(maxsize=16)
def _deck(decks: int, jokers: int) -> tuple[PhysicalCard, ...]:
    naturals = [PhysicalCard(card, copy) for copy in range(decks) for card in NATURAL_CARDS]
    return (*naturals, *(PhysicalCard(JOKER, copy) for copy in range(jokers)))


# --- notation -----------------------------------------------------------------
#
# The grammar is written out in docs/cards.rst, and the JSON Schema card pattern
# (hand_rummy/schemas/common.json) must agree with it; tests/test_schemas.py checks both.
# Letters are matched in either case through these tables rather than str.upper(),
# which would also turn "ſ" (long s) into "S".

_SUITS_BY_TEXT = {
    text: suit
    for suit, spellings in (
        (Suit.CLUBS, "Cc♣♧"),
        (Suit.DIAMONDS, "Dd♦♢"),
        (Suit.HEARTS, "Hh♥♡"),
        (Suit.SPADES, "Ss♠♤"),
    )
    for text in spellings
}
_RANKS_BY_TEXT = {
    text: rank
    for rank, label in _RANK_LABELS.items()
    for text in {label, label.lower(), *(("T", "t") if rank is Rank.TEN else ())}
}
_JOKER_WORDS = frozenset({"JK", "JOKER"})
"""Joker spellings in ASCII letters, matched in either case."""
_JOKER_SYMBOLS = frozenset({"🃏", "★"})
_BLANKS = " \t\n\r"
"""What may surround a card: space, tab, line feed, carriage return (JSON's whitespace)."""
_TOKEN = re.compile(r"[^ \t\n\r,;]+")


def _read(token: str) -> Card | None:
    if token in _JOKER_SYMBOLS or (token.isascii() and token.upper() in _JOKER_WORDS):
        return JOKER
    rank = _RANKS_BY_TEXT.get(token[:-1])
    suit = _SUITS_BY_TEXT.get(token[-1:])
    if rank is None or suit is None:
        return None
    return CARDS[int(suit) * 13 + int(rank) - 1]


def parse_card(text: str) -> Card:
    """Read one card: ``10H``, ``TH``, ``th``, ``10♥``, ``AC``, ``JK`` or ``joker``.

    The whole grammar, aliases included, is in :doc:`/cards`: a rank
    (``A``, ``2``-``10``, ``T``, ``J``, ``Q``, ``K``) then a suit (a letter
    ``C D H S``, or a symbol ``♣ ♦ ♥ ♠`` or ``♧ ♢ ♡ ♤``), or a joker (``JK``,
    ``joker``, ``🃏`` or ``★``). Letters may be in either case; spaces, tabs
    and line breaks around the card are ignored.

    >>> parse_card("qs"), parse_card("joker"), parse_card(" 10♡ ")
    (Card.parse('QS'), Card.parse('JK'), Card.parse('10H'))
    >>> parse_card("11H")
    Traceback (most recent call last):
    ...
    hand_rummy.errors.CardParseError: '11H' at position 0 is not a card: ...
    >>> parse_card("1H")  # the Ace is A, never 1: "1H" is too close to a mistyped "10H"
    Traceback (most recent call last):
    ...
    hand_rummy.errors.CardParseError: '1H' at position 0 is not a card: ...
    """
    if not isinstance(text, str):
        raise CardParseError(f"expected a card as text, got {type(text).__name__}", str(text), 0)
    stripped = text.strip(_BLANKS)
    card = _read(stripped)
    if card is None:
        position = len(text) - len(text.lstrip(_BLANKS))
        raise CardParseError(_explain(stripped, f"position {position}"), text, position)
    return card


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read several cards, given as a list of strings or as one string.

    In one string, the cards are separated by spaces, tabs, line breaks,
    commas or semicolons, in any number; a list holds one card per string
    (each read by :func:`parse_card`).

    >>> parse_cards("9H 10H, JH")
    (Card.parse('9H'), Card.parse('10H'), Card.parse('JH'))
    >>> parse_cards("9H 1OH JH")
    Traceback (most recent call last):
    ...
    hand_rummy.errors.CardParseError: '1OH' at position 3 is not a card: ...
    """
    if isinstance(text, str):
        return tuple(_read_token(m.group(), m.start(), text) for m in _TOKEN.finditer(text))
    if isinstance(text, (bytes, bytearray)) or not isinstance(text, Iterable):
        shown = type(text).__name__
        raise CardParseError(f"expected cards as text or a list, got {shown}", str(text), 0)
    items = list(text)
    whole = " ".join(str(item) for item in items)
    cards, at = [], 0
    for index, item in enumerate(items):
        if isinstance(item, Card):
            cards.append(item)
            at += len(str(item)) + 1
            continue
        if not isinstance(item, str):
            raise CardParseError(
                f"item {index} of the list is {type(item).__name__} {item!r}, not a card's text",
                whole,
                at,
            )
        cards.append(_read_token(item, at, whole, f"item {index} of the list"))
        at += len(item) + 1
    return tuple(cards)


def _read_token(token: str, position: int, whole: str, where: str = "") -> Card:
    """The card ``token`` names; ``position`` is where it starts in ``whole``, and ``where``
    says where it stands (by default, that position)."""
    card = _read(token.strip(_BLANKS))
    if card is None:
        raise CardParseError(_explain(token, where or f"position {position}"), whole, position)
    return card


def _explain(token: str, where: str) -> str:
    return (
        f"{token!r} at {where} is not a card: write a rank "
        "(A, 2-10 or T, J, Q, K) then a suit (C, D, H, S or ♣ ♦ ♥ ♠), or JK for the joker"
    )


def format_cards(cards: str | Iterable[Card | str], *, ascii: bool = False) -> str:
    """Cards separated by spaces, with suit symbols or in ASCII.

    The cards are cards, card strings, or one string of cards as :func:`parse_cards`
    reads it.

    >>> format_cards("ah, 10h", ascii=True), format_cards(["QS", parse_card("JK")])
    ('AH 10H', 'Q♠ JK')
    """
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        # parse_cards reads a string whole, and refuses what is not a list of cards
        cards = parse_cards(cards)
    faces = (card if isinstance(card, Card) else parse_card(card) for card in cards)
    return " ".join(card.ascii if ascii else str(card) for card in faces)
