"""Reading the fields of a question, each refused with the code and place of its fault, and
writing the parts of an answer (verdicts, melds, judgements) as JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hand_rummy.cards import Card, parse_card, parse_cards
from hand_rummy.errors import CardParseError, InvalidStateError, UnknownRulesError, shown
from hand_rummy.melds import Meld, MeldJudgement, MeldRules
from hand_rummy.referee.limits import COMMON_FIELDS, JSON, LIMITS, LimitError, QuestionError, clip
from hand_rummy.rules.presets import PRESETS, build
from hand_rummy.verdict import Verdict

# --- reading a question --------------------------------------------------------


def show_value(value: Any) -> str:
    """A value as JSON for a message, cut short: a question may hold a megabyte of it. A
    Python caller's object that JSON has no kind for is named by its type (a tuple would
    be written as a list, the very kind the message may be asking for)."""
    if not isinstance(value, _JSON_KINDS):
        return f"a {type(value).__name__}"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # a container holding such an object
        text = f"a {type(value).__name__}"
    return clip(text, 60)


_JSON_KINDS = (dict, list, str, int, float, type(None))
"""What JSON text reads into (``bool`` is an ``int``)."""


def name_of(key: Any) -> str:
    return clip(shown(key, 40), 40)


def field(
    q: Mapping[str, Any], name: str, kind: type | tuple[type, ...], *, required: bool = True
) -> Any:
    if name not in q:
        if required:
            raise QuestionError("MISSING_FIELD", f"the question needs {name!r}")
        return None
    value = q[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (int in kinds and isinstance(value, bool)):
        names = " or ".join(k.__name__ for k in kinds)
        raise QuestionError(
            "BAD_FIELD", f"{name!r} must be {_article(names)}, not {show_value(value)}"
        )
    return value


def count_field(q: Mapping[str, Any], name: str, low: int = 0) -> int | None:
    """An optional whole-number field that may not be below ``low``."""
    number: int | None = field(q, name, int, required=False)
    if number is not None and number < low:
        raise QuestionError("BAD_FIELD", f"{name!r} must be at least {low}, not {number}")
    return number


def _article(names: str) -> str:
    words = {
        "str": "a string",
        "list": "a list",
        "dict": "an object",
        "bool": "true or false",
        "int": "a whole number",
    }
    return " or ".join(words.get(n, n) for n in names.split(" or "))


def question_card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise QuestionError(
            "BAD_CARD", f"{where}: a card is written as text like '10H', not {show_value(value)}"
        )
    try:
        return parse_card(value)
    except CardParseError as err:
        raise QuestionError("BAD_CARD", f"{where}: {err}") from None


def question_cards(value: Any, where: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        # a card takes at most 5 characters with its separator ("10♥, "); this bound lets
        # through any list within the limit and stops a megabyte of text before it is read
        if len(value) > 16 * LIMITS.cards:
            raise LimitError("cards", f"{where} is {len(value)} characters long")
        try:
            cards = parse_cards(value)
        except CardParseError as err:
            raise QuestionError("BAD_CARD", f"{where}: {err}") from None
        if len(cards) > LIMITS.cards:
            raise LimitError("cards", f"{where} holds {len(cards)} cards")
        return cards
    if not isinstance(value, list):
        raise QuestionError(
            "BAD_FIELD", f"{where} must be a list of cards, not {show_value(value)}"
        )
    if len(value) > LIMITS.cards:
        raise LimitError("cards", f"{where} holds {len(value)} cards")
    return tuple(question_card(v, f"{where}[{i}]") for i, v in enumerate(value))


def question_roles(value: Any, size: int, where: str) -> dict[int, Card]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise QuestionError("BAD_FIELD", f'{where} must be an object like {{"1": "8H"}}')
    # the positions written as JSON keys: plain ASCII digits without a leading zero, so
    # that "²", "01" or a thousand-digit key are refused rather than given to int()
    positions = {str(i): i for i in range(size)}
    roles = {}
    for key, card in value.items():
        if key not in positions:
            span = f"0-{size - 1}" if size else "the meld is empty"
            raise QuestionError(
                "BAD_FIELD", f"{where}: {name_of(key)} is not a position in the meld ({span})"
            )
        roles[positions[key]] = question_card(card, f"{where}[{key!r}]")
    return roles


def _positions(value: Any, size: int, where: str) -> list[int]:
    if not isinstance(value, list):
        raise QuestionError("BAD_FIELD", f"{where} must list positions in the meld")
    seen: set[int] = set()
    for i in value:
        if not (isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size) or i in seen:
            raise QuestionError(
                "BAD_FIELD",
                f"{where} must list positions in the meld, each once, not {show_value(i)}",
            )
        seen.add(i)
    return value


def question_meld(
    q: Mapping[str, Any], cards_key: str, roles_key: str = "roles", demoted_key: str = "demoted"
) -> Meld:
    cards = question_cards(field(q, cards_key, (list, str)), repr(cards_key))
    roles = question_roles(q.get(roles_key), len(cards), repr(roles_key))
    demoted = _positions(q.get(demoted_key, []), len(cards), repr(demoted_key))
    return Meld.of(cards, roles, demoted)


def check_keys(q: Mapping[str, Any], allowed: frozenset[str]) -> None:
    extra = sorted(set(q) - COMMON_FIELDS - allowed)
    if extra:
        raise QuestionError(
            "BAD_FIELD",
            f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(map(name_of, extra[:5]))} "
            f"for ask {q['ask']!r}; it takes {', '.join(sorted(allowed)) or 'no other fields'}",
        )


def question_context(q: Mapping[str, Any], allowed: tuple[str, ...]) -> dict[str, bool]:
    """The ``context`` object: only the named switches, each true or false."""
    context = field(q, "context", dict, required=False) or {}
    for key, value in context.items():
        if key not in allowed:
            raise QuestionError(
                "BAD_FIELD",
                f"unknown context field {name_of(key)}; it takes {', '.join(allowed)}",
            )
        if not isinstance(value, bool):
            # "false" is a non-empty string: reading it as a truth value would say yes
            raise QuestionError(
                "BAD_FIELD", f"'context'.{key} must be true or false, not {show_value(value)}"
            )
    return dict(context)


def question_rules(q: Mapping[str, Any]) -> MeldRules:
    name = field(q, "rules", str)
    variants = field(q, "variants", list, required=False) or []
    if len(variants) > LIMITS.variants:
        raise LimitError("variants", f"'variants' names {len(variants)} variants")
    if not all(isinstance(v, str) for v in variants):
        raise QuestionError("BAD_FIELD", "'variants' must be a list of variant names")
    try:
        ruleset = build(name, variants)
    except UnknownRulesError as err:
        code = "UNKNOWN_RULES" if name not in PRESETS else "UNKNOWN_VARIANT"
        raise QuestionError(code, str(err)) from None
    indicator = q.get("indicator")
    if ruleset.uses_indicator and indicator is None:
        raise QuestionError(
            "INDICATOR_REQUIRED", f"{ruleset.title} turns an indicator card: give 'indicator'"
        )
    if not ruleset.uses_indicator and indicator is not None:
        raise QuestionError("BAD_INDICATOR", f"{ruleset.title} turns no indicator card")
    card = question_card(indicator, "'indicator'") if indicator is not None else None
    try:
        return MeldRules.of(ruleset, card)
    except InvalidStateError as err:
        raise QuestionError("BAD_INDICATOR", str(err)) from None


# --- writing an answer ---------------------------------------------------------


def violations_json(verdict: Verdict) -> list[JSON]:
    return [
        {
            "code": v.code.value,
            "message": v.message,
            "rule": v.rule,
            "rule_ids": list(v.rule_ids),
            "rule_anchors": list(v.anchors),
        }
        for v in verdict.violations
    ]


def meld_json(meld: Meld) -> tuple[list[str], dict[str, str]]:
    cards = [c.ascii for c in meld.cards]
    roles = {str(i): r.ascii for i, r in enumerate(meld.roles) if r is not None}
    return cards, roles


def judgement_json(j: MeldJudgement) -> JSON:
    out: JSON = {"ok": j.ok, "kind": j.kind.value if j.kind else None}
    if j.meld is not None:
        out["meld"], out["roles"] = meld_json(j.meld)
    else:
        out["roles"] = {}
    out["points"] = j.points
    out["violations"] = violations_json(j.verdict)
    if j.candidates:
        out["candidates"] = []
        for meld in j.candidates:
            cards, roles = meld_json(meld)
            out["candidates"].append({"meld": cards, "roles": roles})
    return out
