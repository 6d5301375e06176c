"""Environments for reinforcement learning: a PettingZoo AEC environment of a round or a match.

:func:`env` builds the environment (the ``rl`` extra brings PettingZoo,
Gymnasium and numpy: ``pip install 'hand-rummy[rl]'``). This package imports
without them; :func:`env` and :class:`raw_env` say which extra to install when
they are missing. The environment itself is :class:`hand_rummy.envs.aec.HandRummyEnv`;
the "Learning and search" page documents its observations, rewards and
episodes.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from hand_rummy.errors import InvalidStateError
from hand_rummy.extras import MissingExtraError, require
from hand_rummy.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from hand_rummy.envs.aec import HandRummyEnv

__all__ = ["MissingExtraError", "env", "play_masked_random", "raw_env"]


def _aec() -> Any:
    for module in ("numpy", "gymnasium", "pettingzoo"):
        require(module, "rl", "the PettingZoo environment")
    return require("hand_rummy.envs.aec", "rl", "the PettingZoo environment")


def _make(
    module: Any,
    rules: str | Ruleset,
    players: int,
    variants: Iterable[str],
    options: dict[str, Any],
) -> HandRummyEnv:
    """The environment, refusing an option it does not take by name (not a TypeError)."""
    known = [
        p.name
        for p in inspect.signature(module.HandRummyEnv).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    unknown = sorted(set(options) - set(known))
    if unknown:
        hint = "; the seed goes to reset(seed=...)" if "seed" in unknown else ""
        raise InvalidStateError(
            f"unknown option {unknown[0]!r} for the environment (the options are "
            f"{', '.join(known)}){hint}"
        )
    environment: HandRummyEnv = module.HandRummyEnv(rules, players, variants, **options)
    return environment


def raw_env(
    rules: str | Ruleset = "levant",
    players: int = 4,
    variants: Iterable[str] = (),
    **options: Any,
) -> HandRummyEnv:
    """The environment without PettingZoo's order-enforcing wrapper (see :func:`env`)."""
    return _make(_aec(), rules, players, variants, options)


def env(
    rules: str | Ruleset = "levant",
    players: int = 4,
    variants: Iterable[str] = (),
    **options: Any,
) -> Any:
    """A PettingZoo AEC environment of ``rules`` (a preset name, or a ruleset) for ``players``.

    ``variants`` are applied to a preset by name. The keyword ``options`` are
    those of :class:`~hand_rummy.envs.aec.HandRummyEnv`: ``episode`` (``"round"``
    or ``"match"``), ``match_length``, ``custom_length``, ``reward_scale``, ``render_mode``
    (``"ansi"`` or ``"human"``), ``table_slots`` and ``max_steps`` (a truncation).
    The environment is wrapped in PettingZoo's ``OrderEnforcingWrapper``, as
    PettingZoo's own environments are; illegal ids
    are refused with :class:`~hand_rummy.encoding.IdNotLegalError`, never
    turned into a penalty.
    """
    module = _aec()
    return module.wrap(_make(module, rules, players, variants, options))


def play_masked_random(table: Any, rng: random.Random, limit: int = 100_000) -> int:
    """Play an environment (reset already) to its end with ids drawn uniformly from each
    mask by ``rng``, a baseline agent for every seat; the number of steps taken.

    >>> import random
    >>> table = env("classic", players=2)
    >>> table.reset(seed=1)
    >>> play_masked_random(table, random.Random(1)) > 0, table.agents
    (True, [])
    """
    steps: int = _aec().play_masked_random(table, rng, limit)
    return steps
