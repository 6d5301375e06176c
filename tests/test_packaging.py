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


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [("hand_rummy.testing", "hypothesis", "test")],
)
def test_an_optional_module_names_the_extra_to_install(
    module: str, missing: str, extra: str
) -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    # a fresh interpreter in which importing ``missing`` fails, as where it is not installed
    code = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        f"try:\n    import {module}\n"
        "except ImportError as e:\n    print(e)\nelse:\n    print('imported')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert f"pip install 'hand-rummy[{extra}]'" in done.stdout, done.stdout


def test_observations_without_numpy_name_the_rl_extra() -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import hand_rummy as hr\nfrom hand_rummy import observation\n"
        "game = hr.Round.deal(hr.rulesets.levant, 4, seed=1)\n"
        "try:\n    observation.observe(game.view(0))\n"
        "except ImportError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert "pip install 'hand-rummy[rl]'" in done.stdout, done.stdout
