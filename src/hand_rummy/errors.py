"""The exception hierarchy: every error the library raises derives from :class:`HandRummyError`."""

from __future__ import annotations

import enum
import operator
from typing import TYPE_CHECKING, Any, NoReturn, cast

if TYPE_CHECKING:
    from hand_rummy.melds import Meld
    from hand_rummy.verdict import Verdict

__all__ = [
    "SEED_DIGITS",
    "AmbiguousMeldError",
    "CardParseError",
    "HandRummyError",
    "IllegalActionError",
    "InvalidStateError",
    "StrictValues",
    "UnknownRulesError",
    "WorkLimitError",
    "error_text",
    "expect",
    "expect_seed",
    "number",
    "shown",
    "whole",
]


class HandRummyError(Exception):
    """Root of every error raised by hand-rummy.

    Errors pickle and copy with their fields, whatever their constructors take: an error
    raised in a worker process reaches the caller as itself.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        # Exception's own way calls the class with ``args``, which for most errors here are
        # not the constructor's arguments (an IllegalActionError is made from a verdict)
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(kind: type[HandRummyError], args: tuple[Any, ...], fields: dict[str, Any]) -> Any:
    """An error of ``kind`` with these ``args`` and fields, its constructor not called."""
    error = kind.__new__(kind)
    error.args = args
    error.__dict__.update(fields)
    return error


class CardParseError(HandRummyError, ValueError):
    """A card or list of cards could not be read.

    ``text`` is the whole input and ``position`` the character offset where the
    offending token starts, so a caller can point at it.
    """

    def __init__(self, message: str, text: str, position: int) -> None:
        super().__init__(message)
        self.text = text
        self.position = position


class UnknownRulesError(HandRummyError, KeyError):
    """A preset or variant name that the library does not know, or that does not fit."""

    def __str__(self) -> str:
        # KeyError would quote the message; show it as written.
        return str(self.args[0]) if self.args else ""


class IllegalActionError(HandRummyError):
    """An action or a meld was judged and refused; ``verdict`` says why."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__("; ".join(v.message for v in verdict.violations) or "illegal")
        self.verdict = verdict


class AmbiguousMeldError(IllegalActionError):
    """A meld, or an action laying one, refused only because a wild card in it could stand
    for more than one card: the player must say which (give the wild its role).

    ``candidates`` holds the meld's legal readings, each with every role filled in, where
    the refusal came from judging the meld itself (:func:`~hand_rummy.melds.meld_points`).
    """

    def __init__(self, verdict: Verdict, candidates: tuple[Meld, ...] = ()) -> None:
        super().__init__(verdict)
        self.candidates = candidates


class InvalidStateError(HandRummyError, ValueError):
    """A described state (a round, a deal, a document) is impossible or malformed."""


class StrictValues:
    """A mixin for the library's enums: a value that names no member is refused with
    :class:`InvalidStateError`, which names the values there are (Python's own refusal is a
    bare ``ValueError``; this one is still a ``ValueError`` too).

    >>> from hand_rummy import Rank
    >>> Rank("7")
    Traceback (most recent call last):
    ...
    hand_rummy.errors.InvalidStateError: '7' is no Rank; the values are 1, 2, 3, ..., 12, 13
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        values = [repr(member.value) for member in cast("type[enum.Enum]", cls)]
        listed = ", ".join(values[:16]) + (f" and {len(values) - 16} more" if values[16:] else "")
        raise InvalidStateError(f"{shown(value, 40)} is no {cls.__name__}; the values are {listed}")


def expect(value: object, kind: type | tuple[type, ...], what: str) -> None:
    """Raise :class:`InvalidStateError` unless ``value`` is a ``kind`` (``bool`` is no ``int``).

    The public functions call it on what they are given, so that a wrong type
    gives the library's own error instead of a TypeError from deep inside.
    """
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise InvalidStateError(f"{what} must be {names}, not {type(value).__name__}")


SEED_DIGITS = 40
"""The most digits a seed may have. A 128-bit seed has 39; the documents that record a seed
hold it as a JSON number, which the referee reads up to 40 digits (its ``integer_digits``
limit), and Python writes no integer of more than 4,300 digits as text at all."""


_SHOWN_DIGITS = 40
"""The most digits :func:`number` writes out; a longer number is shown by its size."""


def _digits_about(value: int) -> int:
    # from the bit length: str() refuses ints of more than 4,300 digits, and is slow near it
    return int(abs(value).bit_length() * 0.30103) + 1


def number(value: float, *, grouped: bool = False) -> str:
    """``value`` written for a message: its digits, or for an int of more than 40 digits
    its size, ``a number of about 5,001 digits``. A caller's int can be too long for
    ``str()`` (4,300 digits at most), and a message must not fail in the writing. A float
    is written as ``str()`` writes it; ``grouped`` writes an int with thousands separators.

    >>> number(-12), number(2.5), number(10**7, grouped=True), number(10**5000)
    ('-12', '2.5', '10,000,000', 'a number of about 5,001 digits')
    """
    if not isinstance(value, int):
        return str(value)
    if abs(value) < 10**_SHOWN_DIGITS:
        return f"{value:,}" if grouped else str(value)
    sign = "a negative" if value < 0 else "a"
    return f"{sign} number of about {_digits_about(value):,} digits"


def expect_seed(value: object, what: str = "the seed") -> None:
    """Raise :class:`InvalidStateError` unless ``value`` is a seed: an ``int`` of at most
    :data:`SEED_DIGITS` digits (either sign)."""
    expect(value, int, what)
    assert isinstance(value, int)
    if abs(value) >= 10**SEED_DIGITS:
        raise InvalidStateError(
            f"{what} has at most {SEED_DIGITS} digits, not about {_digits_about(value):,}"
        )


def whole(value: object, what: str) -> int:
    """``value`` as an int: an ``int``, or an integer of another type that says it is one
    (numpy's, as a learner takes them from its arrays); ``bool`` is none. Else
    :class:`InvalidStateError`, worded as :func:`expect` words it."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise InvalidStateError(f"{what} must be int, not {type(value).__name__}")


def shown(value: object, limit: int = 80) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters, or the name of its type
    where the repr fails: a message about someone else's object (a bot's choice, say)
    must not fail in the writing. An int is written by :func:`number` (``repr()`` refuses
    one of more than 4,300 digits)."""
    if type(value) is int:
        return number(value)
    try:
        # a str subclass is written as the text it holds: its own repr() may fail
        text = str.__repr__(value) if isinstance(value, str) else repr(value)
    except Exception:  # any failure of foreign code
        return f"an object of type {type(value).__name__} whose repr() failed"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def error_text(err: BaseException) -> str:
    """An exception in one line, ``Type: message``, even where its ``str()`` fails (an
    exception raised by foreign code, a bot's)."""
    try:
        text = str(err)
    except Exception:  # any failure of foreign code
        text = "(its message could not be read)"
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


class WorkLimitError(HandRummyError):
    """A search ran past the work its caller allowed (:func:`hand_rummy.work.work_allowed`):
    the question is too costly to answer within that bound. Nothing changed."""
