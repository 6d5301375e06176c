"""One decision of the player to move as the encoding sees it: a view and the pending lay-down.

A :class:`Decision` wraps a :class:`~hand_rummy.round.PlayerView` and the ids
of a lay-down chosen so far (none at first). It lists the legal actions once,
gives each its path of ids, and answers the mask, decoding and encoding from
that: a single id for every move but a lay-down, and for a lay-down the ids of
its melds in ascending order (each a shape and its modifiers) and then
``submit``. The ids offered next are exactly the next ids of the legal
lay-downs' paths that start with the pending ids, so an agent never meets a
dead end, reaches every legal lay-down one way only, and reaches nothing else.
Decisions are immutable: decoding a meld id gives a new decision.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Union

from hand_rummy.actions import (
    Action,
    ClaimRedeal,
    Discard,
    DrawStock,
    Exchange,
    LayDown,
    LayOff,
    PassRedeal,
    TakeDiscard,
)
from hand_rummy.encoding.errors import (
    EncodingError,
    IdNotLegalError,
    NotCoveredError,
    NotToMoveError,
    TableTooLargeError,
    read_id,
)
from hand_rummy.encoding.layout import Layout
from hand_rummy.encoding.shapes import meld_of_tokens, meld_tokens, split_melds
from hand_rummy.encoding.table_moves import exchange_code, lay_off_code
from hand_rummy.errors import expect, number
from hand_rummy.melds import Meld, MeldRules, judge_meld
from hand_rummy.round import Phase, PlayerView, Round

__all__ = ["Decision", "Step", "walk"]

_Path = tuple[int, ...]
_Paths = list[tuple[_Path, LayDown]]

_ACTIONS = (DrawStock, TakeDiscard, LayDown, LayOff, Exchange, Discard, ClaimRedeal, PassRedeal)

Step = Union[Action, "Decision"]
"""What an id decodes to: an action to apply, or the decision that continues a lay-down."""


class Decision:
    """The player to move, seen through ``view``, with the lay-down ids chosen so far.

    Build one with :meth:`of`; :meth:`decode` gives the next. Everything is
    worked out on first use and kept, so asking the mask and then decoding
    lists the legal actions once.
    """

    __slots__ = (
        "_listing",
        "_next",
        "_paths",
        "_singles",
        "layout",
        "pending",
        "rules",
        "view",
    )

    def __init__(
        self,
        view: PlayerView,
        layout: Layout,
        pending: tuple[int, ...],
        paths: _Paths | None,
        rules: MeldRules,
    ) -> None:
        self.view = view
        self.layout = layout
        self.pending = pending
        """The ids of the lay-down chosen so far (empty when none is being chosen)."""
        self.rules = rules
        """The ruleset with this round's wild cards."""
        self._paths = paths
        self._singles: dict[int, Action] | None = None if paths is None else {}
        self._next: dict[int, Step | _Paths] | None = None
        self._listing: Iterable[Action] | None = None

    @classmethod
    def of(cls, view: PlayerView, layout: Layout) -> Decision:
        """The decision of the player who sees ``view``; refused unless that player is to move."""
        if isinstance(view, Decision):
            if view.layout is not layout and view.layout.key != layout.key:
                raise NotCoveredError("this decision was made in another action space")
            return view
        expect(view, PlayerView, "the view")
        if (
            view.ruleset is not layout.ruleset and view.ruleset != layout.ruleset
        ) or view.players != layout.players:
            raise NotCoveredError(
                f"this action space is for {layout.ruleset.title} with {layout.players} players, "
                f"not {view.ruleset.title} with {view.players}"
            )
        if view.phase is Phase.OVER:
            raise NotToMoveError("the round is over: nobody has a decision to make")
        if view.seat != view.turn:
            raise NotToMoveError(f"seat {view.seat} is not to move; seat {view.turn} is")
        if len(view.table) > layout.table_slots:
            raise TableTooLargeError(
                f"the table holds {len(view.table)} melds; this action space has "
                f"{layout.table_slots} table slots"
            )
        rules = layout.rules(view.indicator)
        if len(rules.wilds.wild) > 1:
            raise NotCoveredError("the encoding covers rules with one wild face a round")
        return cls(view, layout, (), None, rules)

    @classmethod
    def in_round(cls, game: Round, layout: Layout) -> Decision:
        """The decision of the player to move in ``game``: equal to the decision of that
        player's view, but listed from the round itself, which is cheaper than from the view
        (the view rebuilds a round of its own to list from; both list the same actions)."""
        expect(game, Round, "the round")
        if game.is_over:
            raise NotToMoveError("the round is over: nobody has a decision to make")
        decision = cls.of(game.view(game.turn), layout)
        decision._listing = game.legal_actions()
        return decision

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.view, self.layout, self.pending) == (other.view, other.layout, other.pending)

    def __hash__(self) -> int:
        return hash((self.view.seat, len(self.view.history), self.pending))

    def __repr__(self) -> str:
        return f"<Decision seat {self.view.seat}, pending {list(self.pending)}>"

    # --- what is legal ------------------------------------------------------------------

    @property
    def in_lay_down(self) -> bool:
        """Whether a lay-down is being chosen (then only its ids are legal)."""
        return bool(self.pending)

    def legal_ids(self) -> tuple[int, ...]:
        """The ids that are legal now, in ascending order."""
        return tuple(sorted(self._table()))

    def action_mask(self) -> bytearray:
        """One byte per id of the action space: 1 where the id is legal now, else 0."""
        mask = bytearray(self.layout.size)
        for action_id in self._table():
            mask[action_id] = 1
        return mask

    def actions(self) -> Iterator[Action]:
        """The legal actions this decision can still end in (only lay-downs when pending)."""
        self._table()
        assert self._singles is not None and self._paths is not None
        yield from self._singles.values()
        for _, action in self._paths:
            yield action

    def pending_melds(self) -> tuple[Meld, ...]:
        """The melds of the pending lay-down, the last as far as its ids go."""
        return tuple(
            meld_of_tokens(tokens, self.rules, self.layout)
            for tokens in split_melds(self.pending, self.layout)
        )

    # --- ids and actions ------------------------------------------------------------------

    def decode(self, action_id: int) -> Step:
        """The action ``action_id`` means here, or the decision after it in a lay-down."""
        action_id = read_id(action_id)
        entry = self._table().get(action_id)
        if entry is None:
            raise IdNotLegalError(self._not_legal(action_id))
        if isinstance(entry, list):
            return Decision(self.view, self.layout, (*self.pending, action_id), entry, self.rules)
        return entry

    def means(self, action_id: int, action: Action) -> bool:
        """Whether ``action_id`` stands for ``action`` here, legal or not, without listing the
        legal actions: for a caller that knows the action already (a history replayed) and
        leaves its judgment to the round it is applied to. A lay-down, chosen meld by meld,
        never matches; nor does anything while one is being chosen."""
        if self.pending or isinstance(action, LayDown):
            return False
        try:
            return self._single_id(action) == read_id(action_id)
        except EncodingError:
            return False

    def encode(self, action: Action) -> tuple[int, ...]:
        """The ids that lead from here to ``action``: one id, or a lay-down's remaining ids."""
        expect(action, _ACTIONS, "the action")
        # the engine's own judgement, which also refuses wrongly typed fields
        if action not in self.view.legal_actions():
            raise IdNotLegalError(f"{action} is not legal here")
        table = self._table()
        if isinstance(action, LayDown):
            path = self._lay_down_path(action)
            depth = len(self.pending)
            if path[:depth] == self.pending:
                assert self._paths is not None
                if any(known == path for known, _ in self._paths):
                    return path[depth:]
            raise IdNotLegalError(f"{action} is not a legal lay-down here")
        if self.pending:
            raise IdNotLegalError(
                f"{action}: a lay-down is being chosen, so only its ids are legal"
            )
        action_id = self._single_id(action)
        if table.get(action_id) != action:
            raise IdNotLegalError(f"{action} is not legal here")
        return (action_id,)

    # --- building ------------------------------------------------------------------------

    def _table(self) -> dict[int, Step | _Paths]:
        if self._next is not None:
            return self._next
        if self._paths is None:
            self._list()
        assert self._paths is not None and self._singles is not None
        table: dict[int, Step | _Paths] = dict(self._singles)
        depth = len(self.pending)
        submit = self.layout.submit
        for entry in self._paths:
            path = entry[0]
            token = path[depth]
            if token == submit:
                table[token] = entry[1]
                continue
            group = table.get(token)
            if group is None:
                table[token] = [entry]
            else:
                assert isinstance(group, list)
                group.append(entry)
        self._next = table
        return table

    def _list(self) -> None:
        singles: dict[int, Action] = {}
        paths: _Paths = []
        seen: set[_Path] = set()
        layout = self.layout
        discards = layout.block("discard").start
        copies = 53 * (2 if layout.announces else 1)
        submit = layout.submit
        known: dict[int, tuple[int, ...]] = {}
        listing = self.view.legal_actions() if self._listing is None else self._listing
        actions = list(listing)  # alive while ``known`` uses their ids
        for action in actions:
            if type(action) is Discard:  # the most common move, its id worked out here
                action_id = (
                    discards + action.card.index + 53 * action.announce + copies * action.demoted
                )
                if action_id in singles:
                    raise EncodingError(f"{singles[action_id]} and {action} share an id")
                singles[action_id] = action
            elif isinstance(action, LayDown):
                # the finder hands out one meld object per meld, shared by every lay-down
                # that holds it: its ids are worked out once per listing
                keys = []
                for meld in action.melds:
                    key = known.get(id(meld))
                    if key is None:
                        key = known[id(meld)] = self._meld_key(meld)
                    keys.append(key)
                keys.sort()
                path = (*itertools.chain.from_iterable(keys), submit)
                if path in seen:
                    raise EncodingError(f"two legal lay-downs share the ids {list(path)}")
                seen.add(path)
                paths.append((path, action))
            else:
                action_id = self._single_id(action)
                if action_id in singles:
                    raise EncodingError(
                        f"{singles[action_id]} and {action} share the id {action_id}"
                    )
                singles[action_id] = action
        self._singles = singles
        self._paths = paths

    def _lay_down_path(self, action: LayDown) -> _Path:
        keys = sorted(self._meld_key(m) for m in action.melds)
        return (*(token for key in keys for token in key), self.layout.submit)

    def _meld_key(self, meld: Meld) -> tuple[int, ...]:
        try:
            return meld_tokens(meld, self.rules, self.layout)
        except NotCoveredError:
            judged = judge_meld(meld, self.rules)
            if judged.meld is None or judged.meld == meld:
                raise IdNotLegalError(f"{meld.describe()} is not a legal meld here") from None
            return meld_tokens(judged.meld, self.rules, self.layout)

    def _single_id(self, action: Action) -> int:
        layout = self.layout
        if isinstance(action, Discard):
            if (action.announce and not layout.announces) or (
                action.demoted and not layout.demotes
            ):
                raise IdNotLegalError(f"{action} is never legal under {layout.ruleset.title}")
            return layout.discard(action.card, action.announce, action.demoted)
        if isinstance(action, (LayOff, Exchange)):
            slot = self._slot(action.target)
            target = self.view.table[slot]
            if isinstance(action, LayOff):
                return layout.lay_off_id(slot, lay_off_code(action, target, self.rules, layout))
            return layout.exchange(slot, exchange_code(action, target, self.rules))
        if isinstance(action, DrawStock):
            return layout.draw
        if isinstance(action, TakeDiscard):
            return layout.take
        if isinstance(action, ClaimRedeal):
            return layout.claim_redeal
        if isinstance(action, PassRedeal):
            return layout.pass_redeal
        raise IdNotLegalError(f"not an action: {action!r}")

    def _slot(self, meld_id: int) -> int:
        for slot, meld in enumerate(self.view.table):
            if meld.id == meld_id:
                return slot
        raise IdNotLegalError(f"there is no meld {number(meld_id)} on the table")

    def _not_legal(self, action_id: int) -> str:
        if not 0 <= action_id < self.layout.size:
            top = self.layout.size - 1
            return f"there is no action id {number(action_id)}; ids run from 0 to {top}"
        meaning = self.layout.describe(action_id)
        where = "while a lay-down is being chosen" if self.pending else "here"
        return f"id {action_id} ({meaning}) is not legal {where}"


def walk(decision: Decision, ids: Sequence[int]) -> Step:
    """Decode ``ids`` one after the other from ``decision``; the last step's result."""
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
        raise IdNotLegalError(f"the ids must be a sequence of action ids, not {type(ids).__name__}")
    step: Step = decision
    for action_id in ids:
        if not isinstance(step, Decision):
            raise IdNotLegalError("the ids go on after an action")
        step = step.decode(action_id)
    return step
