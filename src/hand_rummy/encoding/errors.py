"""The errors of the action encoding, each a :class:`~hand_rummy.errors.HandRummyError`."""

from __future__ import annotations

from hand_rummy.errors import HandRummyError

__all__ = [
    "EncodingError",
    "IdNotLegalError",
    "NotCoveredError",
    "NotToMoveError",
    "TableTooLargeError",
]


class EncodingError(HandRummyError, ValueError):
    """An action, id or view that the encoding cannot take, and why."""


class IdNotLegalError(EncodingError):
    """An id that is not in the mask, or an action that is not legal, at this decision."""


class TableTooLargeError(EncodingError):
    """The table holds more melds than the action space has slots for."""


class NotCoveredError(EncodingError):
    """A ruleset, player count or meld that this encoding has no ids for."""


class NotToMoveError(EncodingError):
    """The view is not of the player to move, or the round is over."""
