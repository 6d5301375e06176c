"""What a turn rule answers: the violations, or the record of what a legal action does."""

from __future__ import annotations

import attrs

from hand_rummy.rulebook import violation
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.transitions import Transition
from hand_rummy.verdict import Code, Topic, Verdict, Violation

__all__ = ["Ruling", "from_problems", "refuse"]


@attrs.frozen
class Ruling:
    """The answer to one action: why it is illegal, or what applying it does."""

    problems: tuple[Violation, ...] = ()
    change: Transition | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def verdict(self) -> Verdict:
        return Verdict.of(*self.problems)


def refuse(ruleset: Ruleset, code: Code, message: str, *topics: Topic) -> Ruling:
    """A refusal for breaking the rules of ``ruleset`` that answer ``topics``."""
    return Ruling((violation(ruleset, code, message, *topics),))


def from_problems(ruling: Ruling | list[Violation]) -> Ruling:
    return ruling if isinstance(ruling, Ruling) else Ruling(tuple(ruling))
