"""Optional dependencies: a clear error, naming the extra to install, when one is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from hand_rummy.errors import HandRummyError

__all__ = ["MissingExtraError", "require"]


class MissingExtraError(HandRummyError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError` saying to install ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingExtraError(
            f"{what} needs {module.partition('.')[0]}: install the {extra} extra "
            f"(pip install 'hand-rummy[{extra}]')"
        ) from error
