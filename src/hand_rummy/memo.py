"""A bounded memo keyed by the identity of frozen objects.

Some answers depend on an object that passes unchanged, the very same object,
from one round state to the next: a table's tuple of melds lies there until a
meld is laid or grown, and a round state is asked about twice (listed, then
applied). Hashing such an object field by field on every question would cost
more than the answer; its identity costs nothing. An identity is only safe to
key by while the object is alive, so each entry holds the objects it is keyed
by: no other object can take their identities while the entry is kept.

The store is bounded: when it is full it forgets everything, which for these
uses (a few tables alive at a time) is as good as least-recently-used and
cheaper.

>>> memo: IdentityMemo[int] = IdentityMemo(limit=2)
>>> table = ("a meld",)
>>> memo.get((id(table), "seat 0")) is None
True
>>> memo.put((id(table), "seat 0"), (table,), 7)
7
>>> memo.get((id(table), "seat 0")), memo.get((id(("a meld",)), "seat 0"))
(7, None)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

from hand_rummy.errors import InvalidStateError

__all__ = ["IdentityMemo"]

V = TypeVar("V")


class IdentityMemo(Generic[V]):
    """Values remembered under keys made of the identities (``id``) of ``held`` objects,
    and anything else hashable.

    Only frozen objects may be held: the value must depend on nothing that
    could change while the object lives. The caller builds the key, so that a
    question costs one lookup; :meth:`put` checks that the key names every
    object it holds.
    """

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: dict[Hashable, tuple[tuple[object, ...], V]] = {}

    def get(self, key: Hashable) -> V | None:
        """The value put under ``key``, or ``None``."""
        entry = self._entries.get(key)
        return None if entry is None else entry[1]

    def put(self, key: tuple[Hashable, ...], held: tuple[object, ...], value: V) -> V:
        """Remember ``value`` under ``key`` (which holds ``id(o)`` for each ``o`` in
        ``held``), keeping ``held`` alive with it; returns ``value``."""
        for thing in held:
            if id(thing) not in key:
                raise InvalidStateError(
                    "an identity memo's key must hold the id of every object held"
                )
        if len(self._entries) >= self.limit:
            self._entries.clear()  # a bounded store: forget everything rather than grow
        # the entry keeps ``held`` alive, so the identities in the key stay theirs
        self._entries[key] = (held, value)
        return value

    def __len__(self) -> int:
        return len(self._entries)
