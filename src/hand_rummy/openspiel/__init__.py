"""The rules as an OpenSpiel game, ``python_hand_rummy`` (needs the ``openspiel`` extra).

:func:`register` registers the game with ``pyspiel.register_game`` (importing
:mod:`hand_rummy.openspiel.game` does it too); :func:`load_game` registers it and
loads it with the parameters ``rules`` (a preset name), ``variants`` (variant
names joined by ``+``) and ``players``. This package imports without OpenSpiel;
its functions say which extra to install when it is missing
(``pip install 'hand-rummy[openspiel]'``). The "Learning and search" page
describes the chance nodes, the information states and the resampling.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hand_rummy.errors import InvalidStateError, expect, number, whole
from hand_rummy.extras import MissingExtraError, require

__all__ = ["GAME_NAME", "MissingExtraError", "load_game", "register"]

GAME_NAME = "python_hand_rummy"

_C_INT = 2**31


def register() -> None:
    """Register ``python_hand_rummy`` with OpenSpiel (once; later calls do nothing)."""
    require("pyspiel", "openspiel", "the OpenSpiel game")
    require("hand_rummy.openspiel.game", "openspiel", "the OpenSpiel game")


def load_game(rules: str = "levant", players: int = 4, variants: str | Iterable[str] = ()) -> Any:
    """The ``pyspiel.Game`` of ``rules`` with ``variants`` for ``players`` players.

    ``variants`` is a list of variant names, or one string of names joined by ``+``, as
    the game's parameter takes them (``"round_the_corner+wrap_ace_1"``): the game's string,
    ``str(game)``, then loads the same game again.
    """
    register()
    pyspiel = require("pyspiel", "openspiel", "the OpenSpiel game")
    # OpenSpiel would refuse a wrong type with its own SpielError; say it in the library's terms
    expect(rules, str, "the rules (a preset name)")
    players = whole(players, "the number of players")  # a numpy integer too
    if not -_C_INT <= players < _C_INT:
        # OpenSpiel holds the count in a C int, and its binding fails on a larger one with a
        # RuntimeError; no ruleset seats so many (the game refuses a smaller count itself)
        raise InvalidStateError(f"no ruleset seats {number(players)} players")
    expect(variants, (str, Iterable), "the variants (names, or one string joined by '+')")
    if isinstance(variants, str):
        names = variants
    else:
        listed = list(variants)
        for name in listed:
            expect(name, str, "a variant name")
        names = "+".join(listed)
    return pyspiel.load_game(GAME_NAME, {"rules": rules, "variants": names, "players": players})
