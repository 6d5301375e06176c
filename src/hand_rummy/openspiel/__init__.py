"""The rules as an OpenSpiel game, ``python_hand_rummy`` (needs the ``openspiel`` extra).

:func:`register` registers the game with ``pyspiel.register_game`` (importing
:mod:`hand_rummy.openspiel.game` does it too); :func:`load_game` registers it and
loads it with the parameters ``rules`` (a preset name), ``variants`` (variant
names joined by ``+``), ``players`` and ``max_moves`` (the longest history; a
round that reaches it ends unscored). This package imports without OpenSpiel;
its functions say which extra to install when it is missing
(``pip install 'hand-rummy[openspiel]'``). The "Learning and search" page
describes the chance nodes, the information states and the resampling.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hand_rummy.errors import InvalidStateError, expect, number, whole
from hand_rummy.extras import MissingExtraError, require

__all__ = ["GAME_NAME", "MAX_MOVES", "MissingExtraError", "load_game", "register"]

GAME_NAME = "python_hand_rummy"
MAX_MOVES = 100_000
"""The default ``max_moves``: the most actions (chance actions too) a round's history
holds; a round still going then ends there, unscored."""

_C_INT = 2**31
_MOST_MOVES = _C_INT - 1
"""The longest ``max_moves``: OpenSpiel holds a game's length in a C int."""


def register() -> None:
    """Register ``python_hand_rummy`` with OpenSpiel (once; later calls do nothing)."""
    require("pyspiel", "openspiel", "the OpenSpiel game")
    require("hand_rummy.openspiel.game", "openspiel", "the OpenSpiel game")


def load_game(
    rules: str = "levant",
    players: int = 4,
    variants: str | Iterable[str] = (),
    max_moves: int = MAX_MOVES,
) -> Any:
    """The ``pyspiel.Game`` of ``rules`` with ``variants`` for ``players`` players.

    ``variants`` is a list of variant names, or one string of names joined by ``+``, as
    the game's parameter takes them (``"round_the_corner+wrap_ace_1"``): the game's string,
    ``str(game)``, then loads the same game again. ``max_moves`` is the game's
    ``max_game_length()``: a round whose history reaches it ends there, every return 0.
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
    max_moves = whole(max_moves, "max_moves")
    if not 1 <= max_moves <= _MOST_MOVES:
        raise InvalidStateError(
            f"max_moves is a number of actions from 1 to {_MOST_MOVES:,}, not {number(max_moves)}"
        )
    params = {"rules": rules, "variants": names, "players": players, "max_moves": max_moves}
    return pyspiel.load_game(GAME_NAME, params)
