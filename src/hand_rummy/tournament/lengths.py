"""How long a tournament's matches last: the ruleset's own end rule, or a number of rounds.

>>> import hand_rummy as hr
>>> end_rule(hr.rulesets.levant, None)
'after 7 scored rounds'
>>> end_rule(hr.rulesets.levant, 3)
'after 3 rounds'
"""

from __future__ import annotations

import attrs

from hand_rummy.rules.match import MatchEnd, MatchPolicy
from hand_rummy.rules.ruleset import Ruleset

__all__ = ["end_rule", "fixed_rounds"]


def _end(policy: MatchPolicy) -> str:
    return {
        MatchEnd.SCORED_ROUNDS: f"after {policy.length} scored rounds",
        MatchEnd.ROUNDS: f"after {policy.length} rounds",
        MatchEnd.PENALTY_LIMIT: (
            f"when a total {'reaches' if policy.inclusive else 'passes'} {policy.length}"
        ),
        MatchEnd.DEALS_PER_PLAYER: f"when everyone has dealt {policy.length} times",
    }[policy.end]


def fixed_rounds(ruleset: Ruleset, rounds: int | None) -> Ruleset:
    """``ruleset`` with matches of exactly ``rounds`` rounds, if given (a tie may still be
    played off, as the ruleset's tie rule says)."""
    if rounds is None:
        return ruleset
    match = attrs.evolve(ruleset.match, end=MatchEnd.ROUNDS, length=rounds)
    return ruleset.with_(match=match)


def end_rule(ruleset: Ruleset, rounds: int | None) -> str:
    """When the matches end, in words: the ruleset's rule, or after ``rounds`` rounds."""
    return _end(fixed_rounds(ruleset, rounds).match)
