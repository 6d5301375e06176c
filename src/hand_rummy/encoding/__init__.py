"""A fixed integer action space for learning and search, in pure Python.

For one ruleset and player count, every move has an integer id in a fixed,
documented layout (:class:`~hand_rummy.encoding.layout.Layout`, described on the
"Learning and search" page). Most moves are one id. A lay-down is chosen meld
by meld, as OpenSpiel's gin rummy declares its melds: each meld is a shape from
a fixed catalogue (with modifiers where the shape leaves something open), the
melds come in ascending order of their ids, and ``submit`` lays them down. The
melds chosen so far are part of the :class:`Decision` the ids are read
against, so ``decode`` of a meld id gives the next decision, and ``decode`` of
any other legal id gives the action to apply.

>>> import hand_rummy as hr
>>> from hand_rummy import encoding
>>> game = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
>>> view = game.view(game.turn)
>>> space = encoding.ActionSpace.of(hr.rulesets.romme, 3)
>>> space.size
3607
>>> len(space.legal_ids(view)) == game.legal_actions().count()
True
>>> discard = hr.Discard(view.hand[0])
>>> ids = space.encode(discard, view)
>>> ids, space.describe(ids[0])
((9,), 'discard 6♣')
>>> space.decode(9, view) == discard
True

Every function takes a :class:`~hand_rummy.round.PlayerView` or a
:class:`Decision`; a view starts a decision with nothing pending. Ask the
player to move only: a view of another seat, or of a round that is over,
raises :class:`~hand_rummy.encoding.errors.NotToMoveError`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from hand_rummy.actions import Action
from hand_rummy.encoding.decision import Decision, Step, walk
from hand_rummy.encoding.errors import (
    EncodingError,
    IdNotLegalError,
    NotCoveredError,
    NotToMoveError,
    TableTooLargeError,
)
from hand_rummy.encoding.layout import Block, Fill, Layout, check_layout
from hand_rummy.errors import expect
from hand_rummy.round import PlayerView, Round
from hand_rummy.rules.ruleset import Ruleset

__all__ = [
    "ActionSpace",
    "Block",
    "Decision",
    "EncodingError",
    "Fill",
    "IdNotLegalError",
    "Layout",
    "NotCoveredError",
    "NotToMoveError",
    "Step",
    "TableTooLargeError",
    "action_mask",
    "decode",
    "encode",
    "legal_ids",
]

ViewLike = PlayerView | Decision


class ActionSpace:
    """The action ids of ``ruleset`` with ``players`` players; build with :meth:`of`."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    @staticmethod
    def of(ruleset: Ruleset, players: int, table_slots: int | None = None) -> ActionSpace:
        """The action space (cached); ``table_slots`` bounds the table melds ids can name."""
        # checked before the cache: 3.0 or True equal and hash as a cached 3 or 1 would
        check_layout(ruleset, players, table_slots)
        return _space_of(ruleset, players, table_slots)

    @classmethod
    def for_view(cls, view: ViewLike) -> ActionSpace:
        """The default action space of the view's ruleset and player count."""
        if isinstance(view, Decision):
            return cls(view.layout)
        expect(view, PlayerView, "the view")
        return cls.of(view.ruleset, view.players)

    @property
    def size(self) -> int:
        """The number of ids: they run from 0 to ``size - 1``."""
        return self.layout.size

    @property
    def blocks(self) -> tuple[Block, ...]:
        return self.layout.blocks

    def decision(self, view: ViewLike) -> Decision:
        """The decision of the player who sees ``view`` (a decision is returned as it is)."""
        return Decision.of(view, self.layout)  # type: ignore[arg-type]

    def decision_in(self, game: Round) -> Decision:
        """The decision of the player to move in ``game``, as :meth:`decision` gives it for
        that player's view (listed from the round: the way for a program that holds it)."""
        return Decision.in_round(game, self.layout)

    def legal_ids(self, view: ViewLike) -> tuple[int, ...]:
        """The legal ids, ascending."""
        return self.decision(view).legal_ids()

    def action_mask(self, view: ViewLike) -> bytearray:
        """``size`` bytes, 1 for each legal id (``numpy.frombuffer`` reads it without a copy)."""
        return self.decision(view).action_mask()

    def decode(self, action_id: int, view: ViewLike) -> Step:
        """The action ``action_id`` means, or the decision that continues a lay-down."""
        return self.decision(view).decode(action_id)

    def encode(self, action: Action, view: ViewLike) -> tuple[int, ...]:
        """The ids that lead to ``action``: one id, or the lay-down's ids and ``submit``."""
        return self.decision(view).encode(action)

    def walk(self, ids: Sequence[int], view: ViewLike) -> Step:
        """Decode ``ids`` one after the other: ``walk(encode(a, v), v) == a``."""
        return walk(self.decision(view), ids)

    def describe(self, action_id: int) -> str:
        """What ``action_id`` means in this layout, in words."""
        return self.layout.describe(action_id)


def legal_ids(view: ViewLike) -> tuple[int, ...]:
    """The legal ids of the view's default action space, ascending."""
    return ActionSpace.for_view(view).legal_ids(view)


def action_mask(view: ViewLike) -> bytearray:
    """The mask of the view's default action space (see :meth:`ActionSpace.action_mask`)."""
    return ActionSpace.for_view(view).action_mask(view)


def decode(action_id: int, view: ViewLike) -> Step:
    """See :meth:`ActionSpace.decode`."""
    return ActionSpace.for_view(view).decode(action_id, view)


def encode(action: Action, view: ViewLike) -> tuple[int, ...]:
    """See :meth:`ActionSpace.encode`."""
    return ActionSpace.for_view(view).encode(action, view)


@functools.lru_cache(maxsize=64)
def _space_of(ruleset: Ruleset, players: int, table_slots: int | None) -> ActionSpace:
    return ActionSpace(Layout.of(ruleset, players, table_slots))
