"""Reading a question's JSON text within the :class:`~hand_rummy.referee.Limits`: its
nesting is measured before it is parsed, and numbers and names are checked as they are read."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from hand_rummy.referee.limits import LIMITS, LimitError, QuestionError, clip
from hand_rummy.referee.question import name_of

# --- reading JSON text -----------------------------------------------------------


def _parse_int(text: str) -> int:
    # Python refuses to read more than 4,300 digits, and reading many costs time; a
    # question needs far fewer
    digits = len(text) - text.startswith("-")  # a minus sign is no digit
    if digits > LIMITS.integer_digits:
        raise LimitError("integer_digits", f"an integer has {digits} digits")
    return int(text)


def _parse_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise QuestionError("BAD_JSON", f"the number {clip(text, 20)} is too large to read")
    return number


def _parse_constant(name: str) -> Any:
    # Python reads NaN and Infinity, but they are not JSON: an answer echoing one would
    # not be JSON either
    raise QuestionError("BAD_JSON", f"{name} is not a JSON value")


# A JSON string: on text that json.loads has accepted, every string ends, so this matches
# without backtracking and strips all strings in one pass.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_SQUARE = str.maketrans("{}", "[]")


def _too_deep(text: str, limit: int) -> bool:
    """Whether arrays and objects in ``text`` (valid JSON) nest more than ``limit`` deep.

    Each pass of ``replace`` removes the innermost pairs of brackets, so nesting of at most
    ``limit`` is gone after ``limit`` passes; all of it runs in C, unlike a walk of the
    decoded value, which takes a third of a second on a megabyte of small lists.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_SQUARE)
    for passes in range(limit):
        if len(brackets) <= 2 * (limit - passes):  # too few brackets left to nest deeper
            return False
        brackets = brackets.replace("[]", "")
    return bool(brackets)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when it names a field twice: JSON leaves the meaning open, and
    readers differ (some keep the first value, Python the last), so the question would be
    read one way here and another way elsewhere."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise QuestionError("BAD_JSON", f"an object names the field {name_of(key)} twice")
            seen.add(key)
    return data


def read_json(text: Any) -> Any:
    size = LIMITS.text_bytes
    if isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        if len(data) > size:
            raise LimitError("text_bytes", f"the text holds more than {size} bytes")
        if data.startswith(b"\xef\xbb\xbf"):  # a byte order mark, as some editors write
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise QuestionError(
                "BAD_JSON",
                f"the text is not UTF-8: byte 0x{data[err.start]:02x} at offset {err.start}",
            ) from None
    elif isinstance(text, str):
        # at most 4 bytes a character: encode only when the count alone cannot decide
        if len(text) > size or (
            len(text) * 4 > size and len(text.encode("utf-8", "surrogatepass")) > size
        ):
            raise LimitError("text_bytes", f"the text holds more than {size} bytes")
    else:
        raise QuestionError(
            "BAD_JSON", f"expected JSON text (str or bytes), not {type(text).__name__}"
        )
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as err:
        raise QuestionError("BAD_JSON", f"not valid JSON: {err}") from None
    except RecursionError:
        # the decoder recurses once per level; far beyond the limit, it gives up first
        raise LimitError(
            "depth", f"arrays and objects nest more than {LIMITS.depth} deep"
        ) from None
    # counting brackets, strings included, bounds the depth cheaply for most questions
    if text.count("[") + text.count("{") > LIMITS.depth and _too_deep(text, LIMITS.depth):
        raise LimitError("depth", f"arrays and objects nest more than {LIMITS.depth} deep")
    return data
