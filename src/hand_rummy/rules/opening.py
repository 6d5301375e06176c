"""The first meld of a round: how much it must be worth and how it is counted."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Protocol

import attrs

from hand_rummy.cards import Rank
from hand_rummy.errors import InvalidStateError, StrictValues

__all__ = [
    "AcePlace",
    "BeatLastOpening",
    "FixedOpening",
    "OpeningExemption",
    "OpeningRecord",
    "OpeningThreshold",
    "OpeningValues",
    "TeamOpening",
    "minimum_in_words",
]


@attrs.frozen
class OpeningRecord:
    """An accepted opening of this round: who made it and what it was worth."""

    seat: int
    team: int
    points: int


class OpeningThreshold(Protocol):
    """How many points a player's first meld must reach, given the openings made so far."""

    def required(
        self,
        seat: int,
        team: int,
        openings: Sequence[OpeningRecord],
        players: int | None = None,
    ) -> int | None:
        """The bar for ``seat``, or ``None`` when that player need not open (their team has).

        ``players`` is the number of seats at the table: a bar that follows the seat order
        (:attr:`BeatLastOpening.next_seat_only`) needs it, the others ignore it."""
        ...

    def describe(self) -> str: ...

    @property
    def shared_by_team(self) -> bool:
        """Whether one partner's opening counts as the whole team's."""
        ...

    @property
    def follows_openings(self) -> bool:
        """Whether the bar depends on the openings made before (beat-the-last, team bars)."""
        ...


@attrs.frozen
class FixedOpening:
    """Every player's first meld must reach ``points`` (000: 51; 002: 40; variants 30-91)."""

    points: int = 51

    shared_by_team = False
    follows_openings = False

    def required(
        self,
        seat: int,
        team: int,
        openings: Sequence[OpeningRecord],
        players: int | None = None,
    ) -> int | None:
        return self.points

    def describe(self) -> str:
        return f"Each player's first meld of a round is worth at least {self.points} points."


@attrs.frozen
class BeatLastOpening:
    """The first opener needs ``base``; each later one must beat the last opening (004 Saudi).

    "Beat" means strictly more by default (``last + 1``, matrix L15 and P8);
    ``strict=False`` accepts an equal value. The bar starts again each round.

    By default (matrix P8) whoever opens next, in any seat, must beat the last
    opening; with ``next_seat_only`` only the player seated next after the last
    opener must, and everyone else needs ``base`` (the matrix's alternative reading
    of 004's "the next player needs the last accepted opening + 1").
    """

    base: int = 51
    strict: bool = True
    next_seat_only: bool = False
    shared_by_team = False
    follows_openings = True

    def required(
        self,
        seat: int,
        team: int,
        openings: Sequence[OpeningRecord],
        players: int | None = None,
    ) -> int | None:
        if not openings:
            return self.base
        last = openings[-1]
        if self.next_seat_only:
            if players is None:
                raise InvalidStateError(
                    "this opening bar follows the seat order: say how many players there are"
                )
            if seat != (last.seat + 1) % players:
                return self.base
        return max(self.base, last.points + 1 if self.strict else last.points)

    def describe(self) -> str:
        beat = "more than" if self.strict else "at least"
        bar = minimum_in_words(self.base)
        if self.next_seat_only:
            return (
                f"Each opening of a round needs {bar}, and the player seated next after "
                f"the last opener must open with {beat} that opening."
            )
        return (
            f"The first opening of a round needs {bar}; every later opening "
            f"must be worth {beat} the last one made."
        )


@attrs.frozen
class TeamOpening:
    """The opening belongs to the team: 51 for the first team, more than that for the other.

    With ``shared`` (matrix P9 a) one partner's opening opens the team, so the
    partner may lay off without laying down; otherwise each player still opens
    personally against the team's bar. ``strict`` and ``base`` read as in
    :class:`BeatLastOpening` (matrix L15): ``strict=False`` lets the second team
    open with as much as the first, and a base of 1 asks no minimum of the first.
    """

    base: int = 51
    shared: bool = True
    strict: bool = True

    follows_openings = True

    @property
    def shared_by_team(self) -> bool:
        return self.shared

    def required(
        self,
        seat: int,
        team: int,
        openings: Sequence[OpeningRecord],
        players: int | None = None,
    ) -> int | None:
        if self.shared and any(o.team == team for o in openings):
            return None
        # the first team is the one that opened first; its players' bar stays the base,
        # whichever team opens after it
        if not openings or openings[0].team == team:
            return self.base
        return max(self.base, openings[0].points + (1 if self.strict else 0))

    def describe(self) -> str:
        who = (
            "once one partner has opened, the whole team has"
            if self.shared
            else "each partner still opens personally"
        )
        beat = "more than" if self.strict else "at least"
        bar = minimum_in_words(self.base)
        return (
            f"The opening belongs to the team: the first team needs {bar} and "
            f"the other team {beat} the first team's opening; {who}."
        )


def minimum_in_words(base: int) -> str:
    """A first opening's minimum in words: ``"51 points"``, or ``"no minimum"`` for 1."""
    return "no minimum" if base <= 1 else f"{base} points"


class AcePlace(StrictValues, enum.Enum):
    """Where an Ace sits, which decides what it is worth in an opening."""

    LOW = "low"
    HIGH = "high"
    WRAPPED = "wrapped"
    SET = "set"


@attrs.frozen
class OpeningValues:
    """What each card is worth toward the first meld.

    Number cards count their face value and 10, J, Q, K count ``court``. The
    Ace counts ``ace``, or ``ace_low`` when it is the 1 of a run starting
    A-2-3, or ``ace_wrapped`` inside a round-the-corner run. A wild card counts
    as the card it stands for, unless ``wild`` gives it a flat value (003: 25).
    """

    ace: int = 11
    ace_low: int = 11
    ace_wrapped: int = 11
    court: int = 10
    wild: int | None = None

    def __attrs_post_init__(self) -> None:
        # the meld finder cuts a search branch once it passes a bar, which is exact only
        # because adding a meld never makes a combination worth less
        for name in ("ace", "ace_low", "ace_wrapped", "court", "wild"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise InvalidStateError(f"opening value {name} must be 0 or more, not {value}")

    @property
    def most(self) -> int:
        """The most that one card can count, whatever it is and wherever it lies."""
        return max(self.ace, self.ace_low, self.ace_wrapped, self.court, 9, self.wild or 0)

    def of(self, rank: Rank, place: AcePlace = AcePlace.SET) -> int:
        if rank is Rank.ACE:
            if place is AcePlace.LOW:
                return self.ace_low
            if place is AcePlace.WRAPPED:
                return self.ace_wrapped
            return self.ace
        return self.court if rank >= Rank.TEN else int(rank)

    def describe(self) -> str:
        wild = (
            "a wild card counts as the card it stands for"
            if self.wild is None
            else f"a wild card counts {self.wild}"
        )
        low = (
            f"; an Ace in a run starting A-2-3 counts {self.ace_low}"
            if self.ace_low != self.ace
            else ""
        )
        wrapped = (
            f"; an Ace inside a run that turns the corner (K-A-2) counts {self.ace_wrapped}"
            if self.ace_wrapped != self.ace
            else ""
        )
        return (
            f"Opening values: Ace {self.ace}, 10 J Q K {self.court}, other cards their face "
            f"value{low}{wrapped}; {wild}."
        )


class OpeningExemption(StrictValues, enum.Enum):
    """Which finishes may go out with a first meld below the bar."""

    NONE = "none"
    """The bar always applies (003, 004: none stated; matrix G8, P6 c)."""
    GOING_OUT = "going_out"
    """Any player who gets rid of every card in one turn (000 §The first meld, matrix L11)."""
    HAND = "hand"
    """Only a Hand finish (002 §Scoring: "the 40-point minimum does not apply")."""

    def describe(self) -> str:
        return {
            OpeningExemption.NONE: "The opening bar applies to every first meld.",
            OpeningExemption.GOING_OUT: (
                "A player who gets rid of all their cards in one turn may do so below the bar."
            ),
            OpeningExemption.HAND: "A Hand finish is exempt from the opening bar.",
        }[self]
