"""Who plays, with what deck, and how the cards are dealt."""

from __future__ import annotations

import enum
from collections.abc import Callable

import attrs

from hand_rummy.cards import MAX_JOKERS, MAX_PACKS, PhysicalCard, build_deck
from hand_rummy.errors import InvalidStateError, StrictValues, expect, number

__all__ = ["DealPolicy", "DeckPolicy", "Direction", "FirstTurn", "Players", "RedealPolicy"]


def _in_range(
    minimum: int, maximum: int | None = None
) -> Callable[[object, attrs.Attribute[int], int], None]:
    def check(_: object, attribute: attrs.Attribute[int], value: int) -> None:
        expect(value, int, attribute.name)
        if value < minimum:
            raise InvalidStateError(
                f"{attribute.name} must be at least {minimum}, not {number(value)}"
            )
        if maximum is not None and value > maximum:
            raise InvalidStateError(
                f"{attribute.name} must be at most {maximum}, not {number(value)}"
            )

    return check


@attrs.frozen
class DeckPolicy:
    """How many 52-card packs and jokers are shuffled together."""

    packs: int = attrs.field(default=2, validator=_in_range(1, MAX_PACKS))
    jokers: int = attrs.field(default=2, validator=_in_range(0, MAX_JOKERS))

    @property
    def size(self) -> int:
        return 52 * self.packs + self.jokers

    def cards(self) -> tuple[PhysicalCard, ...]:
        """Every physical card, unshuffled."""
        return build_deck(self.packs, self.jokers)

    def copies(self, is_joker: bool) -> int:
        """How many physical copies of one face the deck holds."""
        return self.jokers if is_joker else self.packs

    def describe(self) -> str:
        packs = "1 pack of 52" if self.packs == 1 else f"{self.packs} packs of 52"
        jokers = {0: "no jokers", 1: "1 joker"}.get(self.jokers, f"{self.jokers} jokers")
        return f"{self.size} cards: {packs} and {jokers}."


@attrs.frozen
class Players:
    """How many may play, and whether they play in two teams of partners sitting opposite."""

    minimum: int = attrs.field(default=2, validator=_in_range(2))
    maximum: int = attrs.field(default=4, validator=_in_range(2))
    partnerships: bool = False

    def __attrs_post_init__(self) -> None:
        if self.maximum < self.minimum:
            raise InvalidStateError("the maximum number of players is below the minimum")
        if self.partnerships and (self.minimum, self.maximum) != (4, 4):
            raise InvalidStateError("partnership play needs exactly four players")

    def allows(self, count: int) -> bool:
        return self.minimum <= count <= self.maximum

    def teams(self, count: int) -> tuple[tuple[int, ...], ...]:
        """The teams for ``count`` seats: partners sit opposite (seats 0 and 2, 1 and 3)."""
        if self.partnerships:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(count))

    def describe(self) -> str:
        span = (
            f"{self.minimum}"
            if self.minimum == self.maximum
            else f"{self.minimum} to {self.maximum}"
        )
        if self.partnerships:
            return f"{span} players in two teams; partners sit opposite."
        return f"{span} players, each for themselves."


class Direction(StrictValues, enum.Enum):
    """The way play goes round the table; the engine numbers seats in that order."""

    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"


class FirstTurn(StrictValues, enum.Enum):
    """What the player who starts the round does on that first turn."""

    DISCARD_ONLY = "discard_only"
    """Holds the extra card, does not draw, and only discards (000 §Playing a turn)."""
    MAY_MELD = "may_meld"
    """Holds the extra card, does not draw, may meld, then discards (002 §Playing a turn)."""
    NORMAL = "normal"
    """An ordinary turn: draw, meld, discard (003 §Dealing: an upcard starts the pile)."""


@attrs.frozen
class DealPolicy:
    """Hand sizes, who starts, and how the discard pile begins.

    Seats are numbered in the order of play, so "the dealer's right" (000) and
    "the dealer's left" (003) are both the next seat after the dealer.
    """

    hand_size: int = attrs.field(default=14, validator=_in_range(1))
    dealer_starts: bool = False
    """True: the dealer starts (002); False: the next seat after the dealer starts."""
    starter_extra_card: bool = True
    """The starter is dealt one card more than the others and does not draw on the first turn."""
    upcard: bool = False
    """The stock's top card is turned face up to start the discard pile (003)."""
    packet: int = attrs.field(default=2, validator=_in_range(1))
    """Cards dealt at a time; only the look of the deal, never the result of a seeded shuffle."""
    direction: Direction = Direction.ANTICLOCKWISE
    first_turn: FirstTurn = FirstTurn.DISCARD_ONLY

    @property
    def most_held(self) -> int:
        """The most cards one hand ever holds: a deal's, and the card drawn (an exchange
        brings a wild back for the card or cards it pays)."""
        return self.hand_size + 1

    def starter(self, dealer: int, players: int) -> int:
        return dealer if self.dealer_starts else (dealer + 1) % players

    def describe(self) -> str:
        who = "the dealer" if self.dealer_starts else "the player after the dealer"
        extra = f"; {who} gets one more and starts" if self.starter_extra_card else ""
        up = "; the stock's top card starts the discard pile" if self.upcard else ""
        first = {
            FirstTurn.DISCARD_ONLY: "the starter's first turn is a bare discard",
            FirstTurn.MAY_MELD: "the starter does not draw on the first turn but may meld",
            FirstTurn.NORMAL: f"{who} starts with an ordinary turn",
        }[self.first_turn]
        return (
            f"{self.hand_size} cards each, {self.packet} at a time, {self.direction.value}"
            f"{extra}{up}; {first}."
        )


@attrs.frozen
class RedealPolicy:
    """When a player may show a weak deal and ask for a new one (000 §Setup 4).

    The claim needs ``pairs`` pairs of identical cards, or one pair fewer for
    each wild card held (four pairs, three pairs and a wild, two pairs and two
    wilds). Two identical wild cards count as wilds, not as a pair, unless
    ``wild_pairs_count`` (matrix L6 b).
    """

    enabled: bool = False
    pairs: int = 4
    wild_pairs_count: bool = False

    def allows(self, pairs: int, wilds: int) -> bool:
        return self.enabled and pairs + min(wilds, 2) >= self.pairs and pairs >= self.pairs - 2

    def weak_deals(self) -> str:
        """The deals weak enough for a claim, in words."""
        return (
            f"{self.pairs} pairs of identical cards, {self.pairs - 1} pairs and a wild card, "
            f"or {self.pairs - 2} pairs and two wild cards"
        )

    def describe(self) -> str:
        if not self.enabled:
            return "No redeal claims."
        return (
            f"A player dealt {self.weak_deals()} may ask for a new deal "
            "before the first discard; the same dealer deals again. Two identical wild cards "
            + ("count as a pair." if self.wild_pairs_count else "are two wild cards, not a pair.")
        )
