"""What every document reader shares: the formats and their version, and the readers of
JSON values that name the place of a problem in the error (``history[3].card: ...``)."""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn, TypeVar

from hand_rummy.cards import Card, parse_card
from hand_rummy.errors import CardParseError, InvalidStateError, expect_seed, number, shown

JSON = dict[str, Any]

ROUND_FORMAT = "hand-rummy/round"
"""The ``"format"`` of a round document."""
VIEW_FORMAT = "hand-rummy/view"
"""The ``"format"`` of a player-view document."""
MATCH_FORMAT = "hand-rummy/match"
"""The ``"format"`` of a match document."""
POSITION_FORMAT = "hand-rummy/position"
"""The ``"format"`` of a position document."""
VERSION = 1
"""The version of the round, view, match and position documents that this library writes and
reads."""

_E = TypeVar("_E", bound=enum.Enum)


# --- reading helpers -----------------------------------------------------------------


def fail(where: str, message: str) -> NoReturn:
    """Refuse a document: :class:`InvalidStateError` with the place of the problem first."""
    raise InvalidStateError(f"{where}: {message}")


def show_json(value: Any) -> str:
    """A value as the document wrote it, for a message (a value that is no JSON, given from
    Python, by its type)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON: given from Python
        return f"a {type(value).__name__}"


def read_object(value: Any, where: str) -> Mapping[str, Any]:
    """The JSON object ``value``, or a refusal naming ``where``."""
    if not isinstance(value, dict):
        fail(where, f"expected an object, not {show_json(value)}")
    return value


def read_fields(
    value: Any, where: str, required: Sequence[str], optional: Sequence[str] = ()
) -> Mapping[str, Any]:
    """The JSON object ``value`` with every ``required`` field and no field outside
    ``required`` and ``optional``."""
    obj = read_object(value, where)
    missing = [k for k in required if k not in obj]
    if missing:
        fail(where, "missing field " + ", ".join(repr(k) for k in missing))
    unknown = sorted(shown(k) for k in obj if k not in required and k not in optional)
    if unknown:
        fail(where, "unknown field " + ", ".join(unknown))
    return obj


def read_list(value: Any, where: str) -> list[Any]:
    """The JSON array ``value``."""
    if not isinstance(value, list):
        fail(where, f"expected a list, not {show_json(value)}")
    return value


def read_int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """The whole number ``value`` (``true`` is none), within ``low`` and ``high`` where given."""
    if not isinstance(value, int) or isinstance(value, bool):
        fail(where, f"expected a whole number, not {show_json(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low}" if high is None else f"from {low} to {high}"
        fail(where, f"{number(value)} is out of range ({span})")
    return value


def read_seed(value: Any, where: str) -> int:
    # a seed as Round.deal takes one: a document's longer seed names no deal the library
    # makes, and one of more than 4,300 digits could not be written back
    """A seed as :meth:`Round.deal <hand_rummy.round.Round.deal>` takes one."""
    seed = read_int(value, where)
    try:
        expect_seed(seed)
    except InvalidStateError as err:
        fail(where, str(err))
    return seed


def read_seat(value: Any, where: str, players: int) -> int:
    """A seat of a round of ``players``."""
    return read_int(value, where, 0, players - 1)


def read_bool(value: Any, where: str) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        fail(where, f"expected true or false, not {show_json(value)}")
    return value


def read_str(value: Any, where: str) -> str:
    """A string."""
    if not isinstance(value, str):
        fail(where, f"expected a string, not {show_json(value)}")
    return value


def read_enum(kind: type[_E], value: Any, where: str) -> _E:
    """The member of ``kind`` whose value is the string ``value``."""
    text = read_str(value, where)
    for member in kind:
        if member.value == text:
            return member
    known = ", ".join(repr(m.value) for m in kind)
    fail(where, f"{show_json(value)} is not one of {known}")


def card_from_json(value: Any, where: str = "card") -> Card:
    """Read one card written as a string; ``where`` names it in error messages.

    >>> card_from_json("10H"), card_from_json("jk")
    (Card.parse('10H'), Card.parse('JK'))
    >>> card_from_json("1OH", "deal.stock[4]")
    Traceback (most recent call last):
    ...
    hand_rummy.errors.CardParseError: deal.stock[4]: '1OH' at position 0 is not a card: ...
    """
    if not isinstance(value, str):
        raise CardParseError(
            f"{where}: a card is a string like '10H', not {show_json(value)}", show_json(value), 0
        )
    try:
        return parse_card(value)
    except CardParseError as err:
        raise CardParseError(f"{where}: {err}", err.text, err.position) from None


def read_cards(value: Any, where: str) -> tuple[Card, ...]:
    """An array of cards, each named by its place in errors (``hand[3]``)."""
    return tuple(card_from_json(v, f"{where}[{i}]") for i, v in enumerate(read_list(value, where)))


def read_opt_card(value: Any, where: str) -> Card | None:
    """A card, or ``None`` for ``null``."""
    return None if value is None else card_from_json(value, where)


def read_ints(value: Any, where: str, low: int = 0) -> tuple[int, ...]:
    """An array of whole numbers of at least ``low``."""
    return tuple(read_int(v, f"{where}[{i}]", low) for i, v in enumerate(read_list(value, where)))


def read_bools(value: Any, where: str) -> tuple[bool, ...]:
    """An array of ``true`` and ``false``."""
    return tuple(read_bool(v, f"{where}[{i}]") for i, v in enumerate(read_list(value, where)))


def check_sized(values: tuple[Any, ...], where: str, players: int) -> None:
    """Refuse a per-seat array that has not an entry for each of ``players``."""
    if len(values) != players:
        fail(where, f"has {len(values)} entries; the round has {players} players")


def check_format(obj: Mapping[str, Any], want: str) -> None:
    """Refuse a document that is not of the format ``want`` in the version this library reads."""
    if "format" not in obj:
        fail("document", f"missing field 'format' (expected {want!r})")
    if obj["format"] != want:
        fail("format", f"expected {want!r}, not {show_json(obj['format'])}")
    if "version" not in obj:
        fail("document", "missing field 'version'")
    version = obj["version"]
    if version != VERSION or isinstance(version, bool):
        fail(
            "version",
            f"unsupported version {show_json(version)} of {want}; this library reads {VERSION}",
        )


def read_opt_bool(obj: Mapping[str, Any], key: str, where: str = "") -> bool | None:
    """An optional field: ``None`` when it is left out (a ``null`` is no boolean)."""
    at = f"{where}.{key}" if where else key
    return None if key not in obj else read_bool(obj[key], at)


def read_opt_int(obj: Mapping[str, Any], key: str, where: str = "") -> int | None:
    """An optional field of a whole number of at least 0: ``None`` when it is left out."""
    at = f"{where}.{key}" if where else key
    return None if key not in obj else read_int(obj[key], at, 0)


def read_opt_cards(obj: Mapping[str, Any], key: str, where: str) -> tuple[Card, ...] | None:
    """An optional field of cards: ``None`` when it is left out."""
    return None if key not in obj else read_cards(obj[key], f"{where}.{key}")
