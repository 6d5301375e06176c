"""Documents as JSON text: :func:`dumps` writes any of them, :func:`loads` reads one back
and tells by its ``"format"`` (or an action by its ``"type"``) what it is."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from hand_rummy.actions import Action
from hand_rummy.errors import InvalidStateError, shown
from hand_rummy.match import Match
from hand_rummy.position import Position
from hand_rummy.round import PlayerView, Round
from hand_rummy.serialize.common import (
    MATCH_FORMAT,
    POSITION_FORMAT,
    ROUND_FORMAT,
    VIEW_FORMAT,
    show_json,
)
from hand_rummy.serialize.matches import match_from_json, match_to_json
from hand_rummy.serialize.parts import action_from_json, action_to_json
from hand_rummy.serialize.positions import position_from_json, position_to_json
from hand_rummy.serialize.rounds import round_from_json, round_to_json
from hand_rummy.serialize.views import view_from_json, view_to_json


def dumps(value: Match | Round | PlayerView | Position | Action, **options: Any) -> str:
    """JSON text for a match, a round, a player view, a position or an action (``options`` go
    to :func:`json.dumps`)."""
    if isinstance(value, Match):
        doc = match_to_json(value)
    elif isinstance(value, Position):
        doc = position_to_json(value)
    elif isinstance(value, Round):
        doc = round_to_json(value)
    elif isinstance(value, PlayerView):
        doc = view_to_json(value)
    else:
        doc = action_to_json(value)
    return json.dumps(doc, **options)


def loads(
    text: str, kind: Literal["round", "view", "action", "match", "position"] | None = None
) -> Round | PlayerView | Action | Match | Position:
    """Read JSON text written by :func:`dumps`: a ``"round"``, a ``"view"``, an
    ``"action"``, a ``"match"`` or a ``"position"``.

    Without ``kind`` the document says what it is: its ``"format"`` names a round, a
    view, a match or a position, and an object with a ``"type"`` and no format is an
    action. With ``kind``, a document of another kind is refused.
    """
    # a kind of another type is no key (a list could not even be looked up)
    if kind is not None and (not isinstance(kind, str) or kind not in _LOADERS):
        raise InvalidStateError(
            f"unknown kind {shown(kind)}; use 'round', 'view', 'action', 'match' or 'position'"
        )
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidStateError(f"expected JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise InvalidStateError("not valid JSON: arrays and objects nest too deep") from None
    except ValueError as err:  # bad syntax, bytes that are not UTF-8, 4,300 digits or more
        raise InvalidStateError(f"not valid JSON: {err}") from None
    if kind is None:
        return _LOADERS[_kind_of(data)](data)
    if isinstance(data, dict) and data.get("format") != _FORMATS.get(kind):
        other = next((k for k, name in _FORMATS.items() if data.get("format") == name), None)
        if other is not None:  # a document of another kind: say which, and how to read it
            raise InvalidStateError(
                f"kind={kind!r} does not read a {other} document (format "
                f"{_FORMATS[other]!r}): read it with kind={other!r}, or with no kind"
            )
    return _LOADERS[kind](data)


def _kind_of(data: Any) -> str:
    """What a document is, by its own ``"format"`` (or ``"type"``, for an action)."""
    if not isinstance(data, dict):
        raise InvalidStateError(f"expected a JSON object, not {show_json(data)}")
    if "format" in data:
        for kind, name in _FORMATS.items():
            if data["format"] == name:
                return kind
        known = ", ".join(repr(name) for name in _FORMATS.values())
        raise InvalidStateError(f"format: expected one of {known}, not {show_json(data['format'])}")
    if "type" in data:
        return "action"
    raise InvalidStateError(
        "the document has no 'format' (a round, view, match or position) and no 'type' (an action)"
    )


_FORMATS = {
    "round": ROUND_FORMAT,
    "view": VIEW_FORMAT,
    "match": MATCH_FORMAT,
    "position": POSITION_FORMAT,
}

_LOADERS: dict[str, Callable[[Any], Round | PlayerView | Action | Match | Position]] = {
    "round": round_from_json,
    "view": view_from_json,
    "action": action_from_json,
    "match": match_from_json,
    "position": position_from_json,
}
