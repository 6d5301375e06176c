"""The code tables of ``docs/referee.rst``, checked against the source.

An implementer of the referee protocol learns from that page when each violation
code and each error code is given; the conformance vectors expect those codes.
These tests read the tables from the page itself, so that a code added to
:class:`~hand_rummy.verdict.Code` (or to the referee's errors) without a line on
the page, or a line left behind for a code that is gone, fails here.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from hand_rummy import referee
from hand_rummy.verdict import Code

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "referee.rst"
REFEREE = ROOT / "src" / "hand_rummy" / "referee"

# the first cell of a list-table row: "   * - ``CODE``"; the other cells start with "     - "
_FIRST_CELL = re.compile(r"^\s*\* - ``([A-Za-z_]+)``\s*$")
_UNDERLINE = re.compile(r"^(-{3,}|={3,})$")


def _section(label: str) -> list[str]:
    """The lines of the page's section that ``.. _label:`` opens, to the next section
    of the same level or above (its subsections, underlined with ``~``, included)."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index(f".. _{label}:")
    # the section's own title and underline come right after the label
    title = next(i for i in range(start + 1, len(lines)) if lines[i].strip())
    assert _UNDERLINE.match(lines[title + 1]), f"no section title after .. _{label}:"
    body = title + 2
    end = next(
        (
            i - 1
            for i in range(body + 1, len(lines))
            if _UNDERLINE.match(lines[i]) and lines[i - 1].strip()
        ),
        len(lines),
    )
    # the next section's labels belong to it, not to this one
    while end > body and (not lines[end - 1].strip() or lines[end - 1].startswith(".. _")):
        end -= 1
    return lines[body:end]


def _table_codes(label: str) -> list[str]:
    """The codes named in the first column of every table of a section, in order."""
    return [m.group(1) for line in _section(label) if (m := _FIRST_CELL.match(line))]


def test_the_violation_codes_table_names_every_code_once() -> None:
    listed = _table_codes("violation-codes")
    twice = sorted(code for code, n in Counter(listed).items() if n > 1)
    assert not twice, f"listed more than once: {twice}"
    # an answer carries the value; for Code the value is the name, which the page relies on
    assert all(member.name == member.value for member in Code)
    known = {member.value for member in Code}
    assert not known - set(listed), f"codes missing from the page: {sorted(known - set(listed))}"
    assert not set(listed) - known, f"no such code: {sorted(set(listed) - known)}"


def _error_codes_in_source() -> set[str]:
    """The error codes that the referee can answer with: the upper-case string constants of
    its modules (every error code is written out as one), less the names of its ``__all__``."""
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in REFEREE.glob("*.py")]
    assert len(trees) > 1, REFEREE
    constants = {
        node.value
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"[A-Z][A-Z_]+", node.value)
    }
    return constants - set(referee.__all__)


def test_the_errors_table_names_every_error_code() -> None:
    listed = _table_codes("referee-errors")
    assert len(listed) == len(set(listed)), "an error code is listed twice"
    made = _error_codes_in_source()
    assert "BAD_FIELD" in made and "LIMIT" in made  # the source is read as this test means
    missing, stale = sorted(made - set(listed)), sorted(set(listed) - made)
    assert not missing, f"error codes missing from the page: {missing}"
    assert not stale, f"no such error code: {stale}"


def test_the_sections_are_read_whole() -> None:
    # a table the parser missed would let a code go unlisted unnoticed: the violation
    # codes section holds one table per group, and ends before the errors begin
    section = _section("violation-codes")
    assert sum(line.strip() == ".. list-table::" for line in section) == 6
    assert not any("_referee-errors" in line for line in section)
