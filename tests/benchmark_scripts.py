"""Loading a script of benchmarks/ as a module (benchmarks/ is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py``, imported as ``hand_rummy_<name>``."""
    spec = importlib.util.spec_from_file_location(f"hand_rummy_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules while the class is being built
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
