"""JSON Schemas (draft 2020-12) of the referee protocol and of the serialised documents.

The schemas ship inside the package as JSON files, one per kind of value:

``question``, ``answer``
    A question to the referee and its answer (protocol ``hand-rummy/referee/1``,
    :data:`hand_rummy.referee.limits.PROTOCOL`). The answer to each ask, and the error
    answer, are also under ``$defs`` by name (``answer.json#/$defs/meld``,
    ``answer.json#/$defs/error``), and so is each ask's question.
``round``, ``view``, ``match``, ``position``, ``action``
    The documents of :mod:`hand_rummy.serialize` (``hand-rummy/round``,
    ``hand-rummy/view``, ``hand-rummy/match`` and ``hand-rummy/position``,
    version 1) and an action.
``common``
    Cards, melds, rulesets and the parts of a position that the others share:
    the card grammar of :func:`~hand_rummy.cards.parse_card` as a ``pattern``.
    A document of a new kind adds one file that refers to these parts, and
    :func:`names` lists it.

Each schema's ``$id`` is :data:`BASE_URI` followed by its file name, and the
schemas refer to each other by those names (``"$ref": "common.json#/$defs/card"``).
The ids are names, not addresses: nothing is served there, so a validator
is given all the schemas at once (:func:`by_id`).

This module only reads the files; validating needs a JSON Schema library,
which is not a dependency of hand-rummy. With ``jsonschema`` and
``referencing``::

    import jsonschema, referencing
    from hand_rummy import schemas

    registry = referencing.Registry().with_resources(
        (uri, referencing.Resource.from_contents(schema)) for uri, schema in schemas.by_id().items()
    )
    jsonschema.Draft202012Validator(schemas.load("question"), registry=registry).validate(question)

>>> names()
('action', 'answer', 'common', 'match', 'position', 'question', 'round', 'view')
>>> round_schema = load("round")
>>> round_schema["$id"], round_schema["properties"]["format"]
('https://hand-rummy.invalid/schemas/round.json', {'const': 'hand-rummy/round'})
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from hand_rummy.errors import InvalidStateError

__all__ = ["BASE_URI", "by_id", "load", "names", "text"]

BASE_URI = "https://hand-rummy.invalid/schemas/"
"""The start of every schema's ``$id``; the rest is the file name (``round.json``)."""


def names() -> tuple[str, ...]:
    """The names of the schemas that the package holds, sorted."""
    files = resources.files(__name__)
    return tuple(
        sorted(f.name[: -len(".json")] for f in files.iterdir() if f.name.endswith(".json"))
    )


def text(name: str) -> str:
    """The JSON text of the schema ``name`` (one of :func:`names`), as shipped.

    Raises :class:`~hand_rummy.errors.InvalidStateError` for a name that is not
    a schema.
    """
    if not isinstance(name, str) or name not in names():
        raise InvalidStateError(f"no schema named {name!r}; the schemas are {', '.join(names())}")
    return resources.files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8")


def load(name: str) -> dict[str, Any]:
    """The schema ``name`` (one of :func:`names`) as a new ``dict``, which the caller may change.

    >>> load("common")["$defs"]["card"]["type"]
    'string'
    >>> load("deal")
    Traceback (most recent call last):
    ...
    hand_rummy.errors.InvalidStateError: no schema named 'deal'; the schemas are action, ...
    """
    schema: dict[str, Any] = json.loads(text(name))
    return schema


def by_id() -> dict[str, dict[str, Any]]:
    """Every schema, keyed by its ``$id``: what a validator needs to follow the ``$ref``\\ s.

    >>> sorted(by_id())[0]
    'https://hand-rummy.invalid/schemas/action.json'
    """
    return {BASE_URI + f"{name}.json": load(name) for name in names()}
