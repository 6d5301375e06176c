"""The work a caller allows the engine's long searches, counted rather than timed.

A referee that answers questions from anyone must bound what one question costs, and the
same question must get the same answer on any machine. So the search that can run long on
a small question, the finishing search (which judges each move of a turn bound to finish,
and each opening below the bar), counts its steps into a budget that the caller sets, and
stops with :class:`~hand_rummy.errors.WorkLimitError` once the budget is spent. A round is
never changed by a search, so a stopped one leaves everything as it was. Where no budget
is set, nothing is counted: a program that plays rounds is never stopped.

>>> from hand_rummy.errors import WorkLimitError
>>> with work_allowed(10) as budget:
...     charge(4)
...     budget.spent
4
>>> with work_allowed(10):
...     charge(11)
Traceback (most recent call last):
...
hand_rummy.errors.WorkLimitError: the search took more than the 10 steps of work allowed
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from hand_rummy.errors import WorkLimitError, expect

__all__ = ["WorkBudget", "charge", "work_allowed"]


class WorkBudget:
    """Steps of search allowed (``allowed``) and taken so far (``spent``)."""

    __slots__ = ("allowed", "spent")

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        self.spent = 0


_BUDGET: ContextVar[WorkBudget | None] = ContextVar("work_budget", default=None)


@contextmanager
def work_allowed(steps: int) -> Iterator[WorkBudget]:
    """Allow the searches run in the block (in this thread or task) ``steps`` steps of
    work between them; the budget says how many they took."""
    expect(steps, int, "the steps of work allowed")
    budget = WorkBudget(steps)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


def charge(steps: int) -> None:
    """Count ``steps`` of work against the budget set, if any; past it, raise
    :class:`~hand_rummy.errors.WorkLimitError`."""
    budget = _BUDGET.get()
    if budget is None:
        return
    budget.spent += steps
    if budget.spent > budget.allowed:
        raise WorkLimitError(
            f"the search took more than the {budget.allowed} steps of work allowed"
        )
