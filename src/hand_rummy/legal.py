"""The legal-action generator: every legal action of a round, in a fixed order, lazily.

It is assembled from the turn rules' own gates and option lists
(:mod:`hand_rummy.turn_rules`), so the list and :func:`~hand_rummy.turn_rules.judge`
apply the same rules; the random-play and oracle tests check that they agree
both ways.
"""

from __future__ import annotations

from collections.abc import Iterator

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
    expect_action,
)
from hand_rummy.state import Phase, RoundState
from hand_rummy.turn_rules import (
    bare_turn,
    discard_options,
    exchanges,
    judge,
    lay_downs,
    lay_offs,
    may_claim_redeal,
    may_take,
    promised_exchange,
    promised_lay_down,
    promised_lay_off,
)

__all__ = ["LegalActions", "generate"]

_CLAIM, _PASS, _DRAW, _TAKE = ClaimRedeal(), PassRedeal(), DrawStock(), TakeDiscard()


def generate(state: RoundState) -> Iterator[Action]:
    """Every legal action of the player to move: discards, lay-offs, exchanges, lay-downs.

    The cheap moves come first, so that a caller who wants any legal move (or only to
    know that there is one) never waits for the search of a hand's openings. Under a
    promise (to finish the turn, or to end it on one card), where each move needs a search
    to show that it keeps the promise, the lay-down, lay-off or exchange that one way to keep
    it starts with comes right after the discards; and of the openings below the bar, the one
    that a way to finish lays down.
    Where an opening is owed and the hand holds two wild cards or more, one of natural cards
    alone comes first of the lay-downs.
    """
    if state.phase is Phase.OVER:
        return
    if state.phase is Phase.REDEAL:
        if may_claim_redeal(state, state.turn):
            yield _CLAIM
        yield _PASS
        return
    if state.phase is Phase.DRAW:
        if state.stock:
            yield _DRAW
        if may_take(state):
            yield _TAKE
        return
    yield from discard_options(state)
    if bare_turn(state):
        return
    # under a promise, the first move of the way found to keep it, before the moves that
    # each need a search of their own
    first = promised_lay_down(state)
    offered = None if first is not None else promised_lay_off(state)
    paid = None if first is not None or offered is not None else promised_exchange(state)
    for promised in (first, offered, paid):
        if promised is not None:
            yield promised
    yield from lay_offs(state, offered)
    yield from exchanges(state, paid)
    yield from lay_downs(state, first)


_ACTION_TYPES = (
    DrawStock,
    TakeDiscard,
    LayDown,
    LayOff,
    Exchange,
    Discard,
    ClaimRedeal,
    PassRedeal,
)


class LegalActions:
    """The legal actions of a round, generated lazily (like python-chess's ``legal_moves``).

    Iterating yields actions in a fixed order; ``action in legal`` judges one
    action without generating the rest; :meth:`count` counts them; the object
    is truthy when any action is legal. Anything that is not an action is not in
    it, but an action with a malformed field (a discard that names its card as
    text) is refused with :class:`~hand_rummy.errors.InvalidStateError`, as
    ``check()`` refuses it: answering no would hide the mistake behind a
    verdict on the move.
    """

    __slots__ = ("_state",)

    def __init__(self, state: RoundState | None) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Action]:
        if self._state is None:
            return iter(())
        return generate(self._state)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, _ACTION_TYPES):
            return False
        expect_action(action)  # a malformed action is refused wherever it is asked about
        return self._state is not None and judge(self._state, action).ok

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        shown: list[str] = []
        for action in self:
            if len(shown) == 5:
                shown.append("...")
                break
            shown.append(str(action))
        return f"<LegalActions: {', '.join(shown)}>"
