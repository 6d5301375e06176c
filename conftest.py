"""Doctest collection of the modules that need an optional extra, only where it is installed.

``pytest`` imports every module under ``src`` for its doctests; the PettingZoo
environment and the OpenSpiel game refuse to import without their extras (with an
error that names the extra), so they are left out where the extra is missing.
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if not all(importlib.util.find_spec(m) for m in ("numpy", "gymnasium", "pettingzoo")):
    collect_ignore.append("src/hand_rummy/envs/aec.py")
if not importlib.util.find_spec("pyspiel"):
    collect_ignore.append("src/hand_rummy/openspiel/game.py")
