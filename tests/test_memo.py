"""The identity memo: keyed by the very objects, bounded, and safe against reused ids."""

from __future__ import annotations

import pytest

from hand_rummy.errors import InvalidStateError
from hand_rummy.memo import IdentityMemo


def test_an_equal_object_is_not_the_same_object() -> None:
    memo: IdentityMemo[str] = IdentityMemo(limit=8)
    table = tuple(["7♥ 8♥ 9♥"])
    twin = tuple(["7♥ 8♥ 9♥"])
    assert table == twin and table is not twin
    memo.put((id(table),), (table,), "answer")
    assert memo.get((id(table),)) == "answer"
    assert memo.get((id(twin),)) is None
    assert memo.get((id(table), 1)) is None  # the rest of the key counts too


def test_the_store_forgets_rather_than_grows() -> None:
    memo: IdentityMemo[int] = IdentityMemo(limit=3)
    held = [object() for _ in range(10)]
    for number, thing in enumerate(held):
        memo.put((id(thing),), (thing,), number)
        assert len(memo) <= 3
    assert memo.get((id(held[-1]),)) == 9
    assert memo.get((id(held[0]),)) is None


def test_an_identity_is_never_reused_while_remembered() -> None:
    # the entry keeps its object alive, so a new object cannot take its id and its answer
    memo: IdentityMemo[str] = IdentityMemo(limit=4)
    table = ["a table"]
    memo.put((id(table),), (table,), "old answer")
    del table
    fresh = [["a table"] for _ in range(10_000)]
    assert all(memo.get((id(thing),)) is None for thing in fresh)


def test_a_key_must_name_every_object_held() -> None:
    memo: IdentityMemo[int] = IdentityMemo(limit=4)
    table, rules = ("a meld",), ("a ruleset",)
    with pytest.raises(InvalidStateError, match="id of every object"):
        memo.put((id(table), 3), (table, rules), 1)
    assert len(memo) == 0
