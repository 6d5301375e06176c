"""The actions of a round so far, as a log that grows by one action in constant time.

Every :meth:`Round.apply <hand_rummy.round.Round.apply>` makes a new round
with one more action in its history. Copying a tuple each time would make a
stored game quadratic in its length, so the log is a chain of links shared
between the rounds: the new round's log points at the old one.

>>> from hand_rummy.actions import DrawStock, PassRedeal
>>> log = ActionLog().then(PassRedeal()).then(DrawStock())
>>> len(log), log[-1], list(log) == [PassRedeal(), DrawStock()]
(2, DrawStock(), True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from hand_rummy.actions import Action

__all__ = ["ActionLog"]


class ActionLog(Sequence[Action]):
    """An immutable sequence of actions; :meth:`then` gives the log with one more."""

    __slots__ = ("_before", "_last", "_length")

    _before: ActionLog | None
    _last: Action | None
    _length: int

    def __init__(self, actions: Iterable[Action] = ()) -> None:
        self._before, self._last, self._length = None, None, 0
        for action in actions:
            self._before, self._last, self._length = self._link(), action, self._length + 1

    def _link(self) -> ActionLog | None:
        if self._length == 0:
            return None
        link = ActionLog.__new__(ActionLog)
        link._before, link._last, link._length = self._before, self._last, self._length
        return link

    def then(self, action: Action) -> ActionLog:
        """This log with ``action`` appended (the old log is unchanged and shared)."""
        log = ActionLog.__new__(ActionLog)
        log._before = self if self._length else None
        log._last, log._length = action, self._length + 1
        return log

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[Action]:
        return iter(self._tuple())

    def _tuple(self) -> tuple[Action, ...]:
        backwards: list[Action] = []
        link: ActionLog | None = self
        while link is not None and link._length:
            assert link._last is not None
            backwards.append(link._last)
            link = link._before
        return tuple(reversed(backwards))

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, index: int | slice) -> Action | tuple[Action, ...]:
        if isinstance(index, slice):
            return self._tuple()[index]
        if index == -1 and self._last is not None:
            return self._last
        return self._tuple()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            return self is other or (
                self._length == other._length and self._tuple() == other._tuple()
            )
        if isinstance(other, tuple):
            return self._tuple() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._tuple())

    def __repr__(self) -> str:
        return f"ActionLog({list(self._tuple())!r})"

    def __reduce__(self) -> tuple[type[ActionLog], tuple[tuple[Action, ...]]]:
        # pickling a long chain link by link would recurse once per action
        return (ActionLog, (self._tuple(),))
