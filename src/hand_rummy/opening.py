"""Judging a first meld (an opening): every meld legal, and enough points together.

>>> from hand_rummy.rules import presets
>>> rules = MeldRules.of(presets.levant, "8C")
>>> anna = judge_opening([Meld.of("9H 10H JH QH"), Meld.of("4S 4D AC")], rules)
>>> anna.ok, anna.points, anna.required
(True, 51, 51)
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from hand_rummy.errors import InvalidStateError, expect, number
from hand_rummy.melds import Meld, MeldJudgement, MeldRules, check_copies, judge_meld
from hand_rummy.rulebook import cited, violation
from hand_rummy.verdict import Code, Topic, Verdict, Violation

__all__ = ["OpeningJudgement", "judge_opening"]


@attrs.frozen
class OpeningJudgement:
    """The verdict on an opening, its total value, the bar it had to reach, and each meld's."""

    verdict: Verdict
    points: int
    required: int | None
    melds: tuple[MeldJudgement, ...] = ()

    @property
    def ok(self) -> bool:
        return self.verdict.ok


def judge_opening(
    melds: Sequence[Meld],
    rules: MeldRules,
    *,
    required: int | None = None,
    exempt: bool = False,
) -> OpeningJudgement:
    """Judge melds laid down together as a player's first meld.

    ``required`` is the bar; by default the ruleset's bar for a round in which
    nobody has opened yet. The melds are accepted or refused together (004
    §4). ``exempt`` skips the bar, for a finish that the ruleset's opening
    exemption covers.
    """
    expect(melds, (list, tuple), "the melds")
    for meld in melds:
        expect(meld, Meld, "each meld")
    if required is not None:
        expect(required, int, "required")
        if required < 0:
            raise InvalidStateError(f"required must be 0 or more, not {number(required)}")
    expect(exempt, bool, "exempt")
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    if required is None:
        required = rules.ruleset.opening.required(0, 0, ())
    if not melds:
        return OpeningJudgement(
            Verdict.of(
                violation(
                    rules.ruleset,
                    Code.OPENING_EMPTY,
                    "an opening needs at least one meld",
                    Topic.OPENING,
                )
            ),
            0,
            required,
        )
    judged = tuple(judge_meld(m, rules) for m in melds)
    problems: list[Violation] = []
    for place, judgement in enumerate(judged, start=1):
        for v in judgement.verdict.violations:
            # the meld's own message names its cards already
            message = f"meld {place}: {v.message}; the whole opening is refused"
            problems.append(cited(attrs.evolve(v, message=message), rules.ruleset, Topic.OPENING))
    problems += check_copies([c for m in melds for c in m.cards], rules)
    points = sum(j.points or 0 for j in judged)
    if not problems and not exempt and required is not None and points < required:
        problems.append(
            violation(
                rules.ruleset,
                Code.OPENING_BELOW_THRESHOLD,
                f"the opening is worth {points} points; it needs {required}",
                Topic.OPENING_BAR,
            )
        )
    return OpeningJudgement(Verdict.of(*problems), points, required, judged)
