"""A check shared by the tests: a violation cites rules of the rulebook page of its ruleset."""

from __future__ import annotations

from collections.abc import Iterable

from hand_rummy import rulebook
from hand_rummy.rules import Ruleset
from hand_rummy.verdict import Violation


def citation_problems(ruleset: Ruleset, violations: Iterable[Violation]) -> list[str]:
    """Why ``violations`` do not cite the rulebook correctly for ``ruleset`` (empty: they do).

    Every violation cites at least one rule; every id exists in the rulebook and lies
    on the page of the ruleset (its preset's page; ``custom`` for any other ruleset),
    so that a refusal under one preset never cites another preset's rule; the words
    are for players (no document numbers or sections).
    """
    page = rulebook.page_of(ruleset)
    known = rulebook.rule_ids()
    problems = []
    for v in violations:
        where = f"{ruleset.title}: {v.code.value} ({v.message})"
        if not v.cites:
            problems.append(f"{where} cites no rule")
        for rule_id in v.rule_ids:
            if rule_id not in known:
                problems.append(f"{where} cites {rule_id}, which the rulebook does not hold")
            elif not rule_id.startswith(f"{page}."):
                problems.append(f"{where} cites {rule_id}, not a rule of the page {page}")
        if "§" in v.rule or "RULES-MATRIX" in v.rule:
            problems.append(f"{where} words its rule as a document reference: {v.rule}")
    return problems
