"""The errors of the action encoding, each a :class:`~hand_rummy.errors.HandRummyError`."""

from __future__ import annotations

import operator

from hand_rummy.errors import HandRummyError

__all__ = [
    "EncodingError",
    "IdNotLegalError",
    "NotCoveredError",
    "NotToMoveError",
    "TableTooLargeError",
    "read_id",
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


def read_id(value: object) -> int:
    """``value`` as an action id: any whole number, a numpy integer as the index a learner
    takes from its arrays (``np.argmax``) included; anything else is an :class:`IdNotLegalError`.
    """
    if isinstance(value, bool):  # True is 1 to Python, and no id to a learner
        raise IdNotLegalError("an action id is a whole number, not bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise IdNotLegalError(
            f"an action id is a whole number, not {type(value).__name__}"
        ) from None
