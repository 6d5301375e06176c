"""benchmarks/flat_discards.py compares the two discard rules on the same deals.

Where a never-opened hand pays its cards (Rommé), ``flat_discards`` changes nothing, so
every paired difference is zero; where it pays a flat 100 (Levant) some deals differ.
"""

from __future__ import annotations

from benchmark_scripts import load

FLAT = load("flat_discards")


def test_no_difference_where_a_hand_pays_its_cards() -> None:
    assert {FLAT.paired("romme", number, 0) for number in range(8)} == {0}


def test_some_difference_where_a_hand_pays_a_flat_penalty() -> None:
    found = [FLAT.paired("levant", number, 0) for number in range(12)]
    assert any(d not in (None, 0) for d in found)
