"""Which cards are wild, how many a meld may hold, and what a discarded wild becomes."""

from __future__ import annotations

import enum
import itertools
from typing import Protocol

import attrs

from hand_rummy.cards import JOKER, Card, Rank
from hand_rummy.errors import InvalidStateError, StrictValues
from hand_rummy.verdict import Code, Topic, Violation

__all__ = [
    "AceIndicator",
    "AdjacentWilds",
    "DiscardDemotion",
    "ForbiddenMix",
    "MaxWilds",
    "MaxWildsByLength",
    "MeldKind",
    "MinNaturals",
    "NoWildAtRunEnd",
    "NotAllWild",
    "RoleInference",
    "WildCards",
    "WildConstraint",
    "WildLimits",
    "WildSource",
]


class MeldKind(StrictValues, enum.Enum):
    """The two shapes of a meld."""

    RUN = "run"
    """Cards of one suit in sequence (a sequence, Reihe)."""
    SET = "set"
    """Cards of one rank in different suits (a group, Satz)."""


class AceIndicator(StrictValues, enum.Enum):
    """What an Ace turned up as the indicator means."""

    JOKERS_WILD = "jokers_wild"
    """The jokers are wild and every Ace is natural (000 §Wild cards)."""
    SUIT_ACES_WILD = "suit_aces_wild"
    """The Aces of its suit are wild, as for any other indicator (matrix L13, literal)."""
    NO_WILDS = "no_wilds"
    """The round has no wild cards (matrix L13, alternative)."""
    TURN_AGAIN = "turn_again"
    """An Ace goes back into the stock like a joker, and the next card is turned (L13)."""


class RoleInference(StrictValues, enum.Enum):
    """What an undeclared wild card stands for when more than one reading is legal."""

    DECLARED = "declared"
    """The player must say; the meld is refused as ambiguous until then (matrix L3)."""
    BEST_VALUE = "best_value"
    """The reading worth the most toward an opening is taken, whatever the written order
    (matrix L3, alternative)."""

    def describe(self) -> str:
        if self is RoleInference.DECLARED:
            return (
                "A wild card stands for the card at its written place; when that still leaves "
                "a choice that matters, the player must declare it."
            )
        return (
            "An undeclared wild card takes the reading worth the most toward an opening, "
            "wherever it is written."
        )


@attrs.frozen
class WildCards:
    """This round's wild faces, and what a joker that is not wild counts as.

    >>> from hand_rummy.cards import parse_card
    >>> w = WildSource(indicator=True).resolve(parse_card("8C"), jokers=2)
    >>> w.is_wild(parse_card("AC")), w.is_wild(JOKER), w.natural_as(JOKER)
    (True, False, Card.parse('AC'))
    """

    wild: frozenset[Card] = frozenset()
    joker_as: Card | None = None
    indicator: Card | None = None

    def is_wild(self, card: Card) -> bool:
        return card in self.wild

    def natural_as(self, card: Card) -> Card:
        """The natural card a non-wild ``card`` counts as (itself, or an Ace for a joker)."""
        if card.is_joker and self.joker_as is not None:
            return self.joker_as
        return card

    def describe(self) -> str:
        if not self.wild:
            return "no wild cards"
        names = " and ".join("the jokers" if c.is_joker else f"both {c}" for c in sorted(self.wild))
        extra = f"; the jokers count as {self.joker_as}" if self.joker_as is not None else ""
        return f"{names} are wild{extra}"


@attrs.frozen
class WildSource:
    """Where this round's wild cards come from.

    Without an indicator the jokers are the wild cards. With one, the two Aces
    of the indicator's suit are wild and the jokers become ordinary Aces of
    that suit; an Ace indicator is handled by ``ace_indicator``. A joker is
    never an indicator: the dealer puts it back and turns the next card.
    """

    indicator: bool = False
    ace_indicator: AceIndicator = AceIndicator.JOKERS_WILD

    def turns_again(self, card: Card) -> bool:
        """Whether a card turned as the indicator goes back into the stock for another."""
        return card.is_joker or (
            card.rank is Rank.ACE and self.ace_indicator is AceIndicator.TURN_AGAIN
        )

    def resolve(self, indicator: Card | None, jokers: int) -> WildCards:
        """The wild cards for a round with this ``indicator`` and number of jokers in the deck."""
        if not self.indicator:
            if indicator is not None:
                raise InvalidStateError("these rules turn no indicator card")
            return WildCards(frozenset({JOKER}) if jokers else frozenset())
        if indicator is None:
            raise InvalidStateError("these rules need an indicator card to know the wild cards")
        if indicator.is_joker:
            raise InvalidStateError(
                "a joker cannot be the indicator: it goes back into the stock and the next "
                "card is turned (000 §Wild cards)"
            )
        if self.turns_again(indicator):
            raise InvalidStateError(
                f"{indicator} cannot be the indicator under these rules: it goes back into the "
                "stock and the next card is turned"
            )
        assert indicator.suit is not None
        suit_ace = Card(Rank.ACE, indicator.suit)
        if indicator.rank is Rank.ACE:
            if self.ace_indicator is AceIndicator.JOKERS_WILD:
                return WildCards(frozenset({JOKER}) if jokers else frozenset(), None, indicator)
            if self.ace_indicator is AceIndicator.NO_WILDS:
                return WildCards(frozenset(), None, indicator)
        return WildCards(frozenset({suit_ace}), suit_ace if jokers else None, indicator)

    def describe(self) -> str:
        if not self.indicator:
            return "The jokers are the wild cards; there is no indicator."
        ace = {
            AceIndicator.JOKERS_WILD: "an Ace indicator makes the jokers wild instead",
            AceIndicator.SUIT_ACES_WILD: "an Ace indicator makes the Aces of its suit wild",
            AceIndicator.NO_WILDS: "an Ace indicator means no wild cards",
            AceIndicator.TURN_AGAIN: "an Ace indicator goes back and another card is turned",
        }[self.ace_indicator]
        return (
            # the deck is another policy's: "any" keeps the words true of a deck without jokers
            "A card turned after the deal is the indicator: the two Aces of its suit are wild "
            f"and any jokers count as ordinary Aces of that suit; {ace}; a joker turned as the "
            "indicator goes back into the stock."
        )


@attrs.frozen
class DiscardDemotion:
    """What a wild card becomes when a player takes it from the discard pile (000 §Exchanging).

    A taken wild Ace plays only as a natural Ace of its suit; a taken joker
    plays only as a natural Ace of any suit. By default (matrix L4) this applies
    to jokers only when they are wild; ``jokers_always`` extends it. A demoted
    card is natural, so it does not count toward the wild limit unless
    ``counts_as_wild`` (matrix L5).
    """

    enabled: bool = False
    jokers_always: bool = False
    counts_as_wild: bool = False

    def demotes(self, card: Card, wilds: WildCards) -> bool:
        if not self.enabled:
            return False
        return wilds.is_wild(card) or (self.jokers_always and card.is_joker)

    def describe(self) -> str:
        if not self.enabled:
            return "A wild card taken from the discard pile stays wild."
        return (
            "A wild card taken from the discard pile loses its wildness: a wild Ace counts "
            "only as a natural Ace of its suit, a joker only as an Ace of any suit"
            + (" (jokers even when they are not wild)" if self.jokers_always else "")
            + ("; it still counts toward the wild limit." if self.counts_as_wild else ".")
        )


_NOT_ALL = (Topic.WILDS_NOT_ALL,)
_COUNT = (Topic.WILD_COUNT,)
_NATURALS = (Topic.WILD_NATURALS,)
_ADJACENT = (Topic.WILDS_ADJACENT,)
_RUN_END = (Topic.WILD_AT_RUN_END,)


class WildConstraint(Protocol):
    """One limit on the wild cards in a meld: returns a violation or ``None``.

    The violation names its :class:`~hand_rummy.verdict.Topic`; the meld check
    (:func:`hand_rummy.melds.judge_meld`) cites the rule for the ruleset in use.
    """

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> Violation | None: ...

    def describe(self) -> str: ...


@attrs.frozen
class NotAllWild:
    """A meld needs at least one natural card (every document)."""

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> Violation | None:
        if all(wilds):
            return Violation(Code.MELD_ALL_WILD, f"{shown} is all wild cards", topics=_NOT_ALL)
        return None

    def describe(self) -> str:
        return "A meld is never all wild."


@attrs.frozen
class MaxWilds:
    """At most ``limit`` wild cards in any meld (000 §Wild cards; 004 §The Joker)."""

    limit: int = 1

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> Violation | None:
        count = sum(wilds)
        if count > self.limit:
            return Violation(
                Code.MELD_TOO_MANY_WILDS,
                f"{shown} holds {count} wild cards; at most {self.limit} is allowed",
                topics=_COUNT,
            )
        return None

    def describe(self) -> str:
        return f"At most {self.limit} wild card{'s' if self.limit != 1 else ''} per meld."


@attrs.frozen
class MaxWildsByLength:
    """At most ``short`` wilds in a meld of ``short_length`` cards, ``long`` if longer (003)."""

    short_length: int = 3
    short: int = 1
    long: int = 2

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> Violation | None:
        count = sum(wilds)
        limit = self.short if len(wilds) <= self.short_length else self.long
        if count > limit:
            return Violation(
                Code.MELD_TOO_MANY_WILDS,
                f"{shown} holds {count} wild cards; a meld of {len(wilds)} cards may hold {limit}",
                topics=_COUNT,
            )
        return None

    def describe(self) -> str:
        return (
            f"At most {self.short} wild card in a meld of {self.short_length} cards and "
            f"{self.long} in a longer one."
        )


@attrs.frozen
class MinNaturals:
    """A meld needs at least ``count`` natural cards (002 §Jokers, matrix R2 default)."""

    count: int = 2

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> Violation | None:
        naturals = len(wilds) - sum(wilds)
        if 0 < naturals < self.count:
            return Violation(
                Code.MELD_TOO_FEW_NATURALS,
                f"{shown} has {naturals} natural card; a meld needs {self.count}",
                topics=_NATURALS,
            )
        return None

    def describe(self) -> str:
        return f"Every meld holds at least {self.count} natural cards."


@attrs.frozen
class ForbiddenMix:
    """Exactly ``naturals`` natural cards with exactly ``wilds`` wild cards is not a meld (002)."""

    naturals: int = 1
    wilds: int = 2

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> Violation | None:
        count = sum(wilds)
        if count == self.wilds and len(wilds) - count == self.naturals:
            return Violation(
                Code.MELD_TOO_FEW_NATURALS,
                f"{shown} is {self.naturals} natural card with {self.wilds} wild cards",
                topics=_NATURALS,
            )
        return None

    def describe(self) -> str:
        return f"{self.naturals} natural card with exactly {self.wilds} wild cards is not a meld."


@attrs.frozen
class AdjacentWilds:
    """Two wild cards side by side only in a run of ``min_run`` or more cards (002 §Jokers).

    A set has no order, so by default (matrix R2) its wild cards are never
    "adjacent"; ``in_sets=False`` forbids two wilds in a set altogether.
    """

    min_run: int = 4
    in_sets: bool = True

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> Violation | None:
        if kind is MeldKind.SET:
            if not self.in_sets and sum(wilds) >= 2:
                return Violation(
                    Code.WILDS_ADJACENT, f"{shown} has two wilds in a set", topics=_ADJACENT
                )
            return None
        if len(wilds) >= self.min_run:
            return None
        if any(a and b for a, b in itertools.pairwise(wilds)):
            return Violation(
                Code.WILDS_ADJACENT,
                f"{shown} has two wild cards side by side in a run shorter than {self.min_run}",
                topics=_ADJACENT,
            )
        return None

    def describe(self) -> str:
        sets = "" if self.in_sets else "; a set may not hold two wild cards"
        return f"Two wild cards may sit side by side only in a run of {self.min_run} or more{sets}."


@attrs.frozen
class NoWildAtRunEnd:
    """A wild card only inside a run, never at its ends (matrix P3, alternative reading)."""

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> Violation | None:
        if kind is MeldKind.RUN and (wilds[0] or wilds[-1]):
            return Violation(
                Code.WILD_AT_RUN_END, f"{shown} has a wild card at an end", topics=_RUN_END
            )
        return None

    def describe(self) -> str:
        return "A wild card may stand only inside a run, not at either end."


@attrs.frozen
class WildLimits:
    """Every limit on the wild cards of one meld, checked in order."""

    constraints: tuple[WildConstraint, ...] = (NotAllWild(), MaxWilds(1))

    def check(self, kind: MeldKind, wilds: tuple[bool, ...], shown: str) -> list[Violation]:
        found = (c.check(kind, wilds, shown) for c in self.constraints)
        return [v for v in found if v is not None]

    def allows(self, kind: MeldKind, wilds: tuple[bool, ...]) -> bool:
        """Whether a meld of ``kind`` with wild cards at ``wilds`` breaks no limit: the
        judgment of :meth:`check`, which stops at the first limit broken (the meld finder
        asks this of thousands of placements)."""
        # a plain loop: all() over a generator costs the finder 4 % more on wild-heavy hands
        for constraint in self.constraints:  # noqa: SIM110
            if constraint.check(kind, wilds, "") is not None:
                return False
        return True

    def with_(self, *extra: WildConstraint, without: tuple[type, ...] = ()) -> WildLimits:
        kept = tuple(c for c in self.constraints if not isinstance(c, without))
        return WildLimits((*kept, *extra))

    def describe(self) -> str:
        return " ".join(c.describe() for c in self.constraints)
