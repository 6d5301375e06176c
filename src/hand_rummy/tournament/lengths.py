"""How long a tournament's matches last: the ruleset's own end rule, or a number of rounds.

Ending every match after a number of rounds follows the rules only where the
ruleset's matches last a number of rounds and it allows that number (the
app's 3, 5, 7 or 9, 004 §What you need). Any other number is a *custom
length*: refused unless asked for, and named in the summary.

>>> import hand_rummy as hr
>>> end_rule(hr.rulesets.levant, None)
'after 7 scored rounds'
>>> end_rule(hr.rulesets.levant, 3), follows_rules(hr.rulesets.levant, 3)
('after 3 rounds', False)
>>> follows_rules(hr.rulesets.classic, 5), follows_rules(hr.rulesets.classic, 6)
(True, False)
>>> check_length(hr.rulesets.classic, 6, custom=False)
Traceback (most recent call last):
...
hand_rummy.tournament.lengths.LengthError: classic matches last 3, 5, 7 or 9 rounds, not 6; ...
"""

from __future__ import annotations

import attrs

from hand_rummy.errors import HandRummyError
from hand_rummy.rules.match import MatchEnd, MatchPolicy
from hand_rummy.rules.presets import length_variant
from hand_rummy.rules.ruleset import Ruleset

__all__ = ["LengthError", "check_length", "end_rule", "fixed_rounds", "follows_rules"]


class LengthError(HandRummyError):
    """A match length that the rules do not allow, asked for without ``custom_length``
    (``custom`` is then true: a custom length would lift it), or one that contradicts the
    length a variant of the ruleset chose (``custom`` false)."""

    def __init__(self, message: str, *, custom: bool = True) -> None:
        super().__init__(message)
        self.custom = custom


def _end(policy: MatchPolicy) -> str:
    one = policy.length == 1
    return {
        MatchEnd.SCORED_ROUNDS: f"after {policy.length} scored round{'' if one else 's'}",
        MatchEnd.ROUNDS: f"after {policy.length} round{'' if one else 's'}",
        MatchEnd.PENALTY_LIMIT: (
            f"when a total {'reaches' if policy.inclusive else 'passes'} {policy.length}"
        ),
        MatchEnd.DEALS_PER_PLAYER: (
            f"when everyone has dealt {'once' if one else f'{policy.length} times'}"
        ),
    }[policy.end]


def follows_rules(ruleset: Ruleset, rounds: int | None) -> bool:
    """Whether matches ended after ``rounds`` rounds (``None``: by the ruleset's own end
    rule) are matches as the rules describe them."""
    policy = ruleset.match
    return rounds is None or (policy.end is MatchEnd.ROUNDS and policy.allows(rounds))


def check_length(ruleset: Ruleset, rounds: int | None, *, custom: bool) -> None:
    """Raise :class:`LengthError` when ``rounds`` is a custom length and ``custom`` is false,
    or when a variant of ``ruleset`` chose another length (the app's ``rounds_5``, say):
    the two would disagree about how long a match is."""
    chosen = length_variant(ruleset)
    if rounds is not None and chosen is not None and rounds != ruleset.match.length:
        raise LengthError(
            f"the variant {chosen} makes a match {ruleset.match.length} rounds long, not "
            f"{rounds}; give the length once",
            custom=False,
        )
    if custom or follows_rules(ruleset, rounds):
        return
    policy = ruleset.match
    if policy.end is MatchEnd.ROUNDS:
        rule = f"{ruleset.title} matches last {policy.allowed()}, not {rounds}"
    else:
        rule = (
            f"{ruleset.title} matches end {_end(policy)}, not after a number of rounds ({rounds})"
        )
    raise LengthError(f"{rule}; ask for a custom length to play such matches anyway")


def fixed_rounds(ruleset: Ruleset, rounds: int | None) -> Ruleset:
    """``ruleset`` with matches of exactly ``rounds`` rounds, if given (a tie may still be
    played off, as the ruleset's tie rule says). A custom length lifts the ruleset's list
    of allowed lengths."""
    if rounds is None:
        return ruleset
    if follows_rules(ruleset, rounds):
        return ruleset.with_(match=attrs.evolve(ruleset.match, length=rounds))
    match = attrs.evolve(ruleset.match, end=MatchEnd.ROUNDS, length=rounds, lengths=None)
    return ruleset.with_(match=match)


def end_rule(ruleset: Ruleset, rounds: int | None) -> str:
    """When the matches end, in words: the ruleset's rule, or after ``rounds`` rounds."""
    return _end(fixed_rounds(ruleset, rounds).match)
