"""Packaging invariants: runtime dependencies and the PEP 561 marker."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _requirement_name(requirement: str) -> str:
    """Return the normalised project name of a PEP 508 requirement string."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match is not None, requirement
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def test_runtime_dependencies_are_exactly_attrs_and_typing_extensions() -> None:
    tomllib = pytest.importorskip("tomllib")
    with (ROOT / "pyproject.toml").open("rb") as f:
        pyproject = tomllib.load(f)
    names = sorted(_requirement_name(r) for r in pyproject["project"]["dependencies"])
    assert names == ["attrs", "typing-extensions"]


def test_py_typed_marker_exists() -> None:
    assert (ROOT / "src" / "hand_rummy" / "py.typed").is_file()
