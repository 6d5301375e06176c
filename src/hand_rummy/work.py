"""The work a caller allows the engine's long searches, counted rather than timed.

A referee that answers questions from anyone must bound what one question costs, and the
same question must get the same answer on any machine. So the search that can run long on
a small question, the finishing search (which judges each move of a turn bound to finish,
and each opening below the bar), counts its steps into a budget that the caller sets, and
stops with :class:`~hand_rummy.errors.WorkLimitError` once the budget is spent; and a
listing of a hand's lay-downs, or a take judged by them, costs a step for each meld of the
hand, once per budget (:func:`charge_once`). A round is
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

__all__ = ["WorkBudget", "charge", "charge_once", "counting", "work_allowed"]


class WorkBudget:
    """Steps of search allowed (``allowed``) and taken so far (``spent``)."""

    __slots__ = ("allowed", "charged", "spent")

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        self.spent = 0
        self.charged: set[object] = set()
        """The keys of the work charged once (:func:`charge_once`)."""


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


def counting() -> bool:
    """Whether a budget is set: a caller whose charge takes work to work out asks first."""
    return _BUDGET.get() is not None


def charge_once(key: object, steps: int) -> None:
    """:func:`charge` ``steps`` for the work named by ``key``, the first time that work is
    asked for under the budget set: work the engine keeps for later (a hand's melds) costs
    its caller once, whether or not an earlier question had it built already, so what a
    budget allows does not depend on what was asked before."""
    budget = _BUDGET.get()
    if budget is None or key in budget.charged:
        return
    budget.charged.add(key)
    charge(steps)
