"""benchmarks/samples.py times the cases whose mover owes something, from every other seat."""

from __future__ import annotations

import pytest

from benchmark_scripts import load

SAMPLES = load("samples")


def test_it_prints_a_row_for_each_other_seat_of_an_owed_case(
    capsys: pytest.CaptureFixture[str],
) -> None:
    SAMPLES.main(["--samples", "2", "--cases", "levant-taken-91,levant-double-run"])
    rows = capsys.readouterr().out.splitlines()[1:]
    # levant-double-run owes nothing; levant-taken-91 (three seats) is seen from two
    assert [row.split()[:3] for row in rows] == [
        ["levant-taken-91", "meld_taken", "1"],
        ["levant-taken-91", "meld_taken", "2"],
    ]
    assert all(row.split()[-1] == "0/2" for row in rows)
