"""The referee: one JSON question in, one JSON answer out.

The question format is a public contract, and also the format of the
conformance vectors in ``tests/conformance/``. Every question names the
``"rules"`` (a preset), optional ``"variants"``, the ``"indicator"`` where the
rules turn one, and what it ``"ask"``\\ s. A malformed question is answered with
``{"error": {"code": ..., "message": ...}}``, never with a crash.

Two questions are about a round in play (``"action"`` and
``"legal_actions"``); they carry the round as a document of
:mod:`hand_rummy.serialize`, which names its own rules, so ``"rules"`` is
optional for them (when given, it must agree with the document).

>>> answer({"rules": "levant", "indicator": "8C", "ask": "meld", "cards": ["7H", "AC", "9H"]})
... # doctest: +NORMALIZE_WHITESPACE
{'ok': True, 'kind': 'run', 'meld': ['7H', 'AC', '9H'], 'roles': {'1': '8H'}, 'points': 24,
 'violations': []}
>>> answer({"rules": "levant", "ask": "meld", "cards": ["7H"]})["error"]["code"]
'INDICATOR_REQUIRED'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from hand_rummy.cards import Card, parse_card, parse_cards
from hand_rummy.errors import CardParseError, HandRummyError, InvalidStateError, UnknownRulesError
from hand_rummy.melds import Meld, MeldJudgement, MeldRules, judge_meld
from hand_rummy.opening import judge_opening
from hand_rummy.round import Round
from hand_rummy.rules.opening import OpeningExemption, OpeningRecord
from hand_rummy.rules.presets import PRESETS, build
from hand_rummy.scoring import PlayerEnd, RoundEnd, hand_value, score_round
from hand_rummy.serialize import action_from_json, action_to_json, round_from_json
from hand_rummy.table import LayoffContext, exchange, lay_off
from hand_rummy.verdict import Verdict

__all__ = ["ASKS", "ROUND_ASKS", "QuestionError", "answer", "answer_json"]

JSON = dict[str, Any]

_COMMON = frozenset({"rules", "variants", "indicator", "ask", "id", "note"})


class QuestionError(HandRummyError, ValueError):
    """A referee question that cannot be answered as asked; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- reading a question --------------------------------------------------------


def _field(
    q: Mapping[str, Any], name: str, kind: type | tuple[type, ...], *, required: bool = True
) -> Any:
    if name not in q:
        if required:
            raise QuestionError("MISSING_FIELD", f"the question needs {name!r}")
        return None
    value = q[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise QuestionError(
            "BAD_FIELD", f"{name!r} must be {_article(names)}, not {json.dumps(value)}"
        )
    return value


def _article(names: str) -> str:
    words = {
        "str": "a string",
        "list": "a list",
        "dict": "an object",
        "bool": "true or false",
        "int": "a whole number",
    }
    return " or ".join(words.get(n, n) for n in names.split(" or "))


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise QuestionError(
            "BAD_CARD", f"{where}: a card is written as text like '10H', not {json.dumps(value)}"
        )
    try:
        return parse_card(value)
    except CardParseError as err:
        raise QuestionError("BAD_CARD", f"{where}: {err}") from None


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        try:
            return parse_cards(value)
        except CardParseError as err:
            raise QuestionError("BAD_CARD", f"{where}: {err}") from None
    if not isinstance(value, list):
        raise QuestionError(
            "BAD_FIELD", f"{where} must be a list of cards, not {json.dumps(value)}"
        )
    return tuple(_card(v, f"{where}[{i}]") for i, v in enumerate(value))


def _roles(value: Any, size: int, where: str) -> dict[int, Card]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise QuestionError("BAD_FIELD", f'{where} must be an object like {{"1": "8H"}}')
    roles = {}
    for key, card in value.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) < size):
            raise QuestionError(
                "BAD_FIELD", f"{where}: {key!r} is not a position in the meld (0-{size - 1})"
            )
        roles[int(key)] = _card(card, f"{where}[{key!r}]")
    return roles


def _meld(
    q: Mapping[str, Any], cards_key: str, roles_key: str = "roles", demoted_key: str = "demoted"
) -> Meld:
    cards = _cards(_field(q, cards_key, (list, str)), repr(cards_key))
    roles = _roles(q.get(roles_key), len(cards), repr(roles_key))
    demoted = q.get(demoted_key, [])
    if not isinstance(demoted, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(cards) for i in demoted
    ):
        raise QuestionError("BAD_FIELD", f"{demoted_key!r} must list positions in the meld")
    return Meld.of(cards, roles, demoted)


def _check_keys(q: Mapping[str, Any], allowed: frozenset[str]) -> None:
    extra = sorted(set(q) - _COMMON - allowed)
    if extra:
        raise QuestionError(
            "BAD_FIELD",
            f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))} for "
            f"ask {q['ask']!r}; it takes {', '.join(sorted(allowed)) or 'no other fields'}",
        )


def _rules(q: Mapping[str, Any]) -> MeldRules:
    name = _field(q, "rules", str)
    variants = _field(q, "variants", list, required=False) or []
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
    card = _card(indicator, "'indicator'") if indicator is not None else None
    try:
        return MeldRules.of(ruleset, card)
    except InvalidStateError as err:
        raise QuestionError("BAD_INDICATOR", str(err)) from None


# --- writing an answer ---------------------------------------------------------


def _violations(verdict: Verdict) -> list[JSON]:
    return [
        {"code": v.code.value, "message": v.message, "rule": v.rule} for v in verdict.violations
    ]


def _meld_json(meld: Meld) -> tuple[list[str], dict[str, str]]:
    cards = [c.ascii for c in meld.cards]
    roles = {str(i): r.ascii for i, r in enumerate(meld.roles) if r is not None}
    return cards, roles


def _judgement(j: MeldJudgement) -> JSON:
    out: JSON = {"ok": j.ok, "kind": j.kind.value if j.kind else None}
    if j.meld is not None:
        out["meld"], out["roles"] = _meld_json(j.meld)
    else:
        out["roles"] = {}
    out["points"] = j.points
    out["violations"] = _violations(j.verdict)
    if j.candidates:
        out["candidates"] = []
        for meld in j.candidates:
            cards, roles = _meld_json(meld)
            out["candidates"].append({"meld": cards, "roles": roles})
    return out


# --- the questions -------------------------------------------------------------


def _ask_meld(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"cards", "roles", "demoted"}))
    return _judgement(judge_meld(_meld(q, "cards"), rules))


def _ask_opening(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"melds", "roles", "demoted", "required", "last_opening", "context"}))
    raw = _field(q, "melds", list)
    roles = q.get("roles") or [None] * len(raw)
    demoted = q.get("demoted") or [[] for _ in raw]
    if not isinstance(roles, list) or len(roles) != len(raw):
        raise QuestionError("BAD_FIELD", "'roles' must be a list with one object per meld")
    if not isinstance(demoted, list) or len(demoted) != len(raw):
        raise QuestionError("BAD_FIELD", "'demoted' must be a list with one list per meld")
    melds = [
        _meld({"cards": cards, "roles": r, "demoted": d}, "cards")
        for cards, r, d in zip(raw, roles, demoted)
    ]
    required = _field(q, "required", int, required=False)
    last = _field(q, "last_opening", int, required=False)
    if required is None:
        openings = (OpeningRecord(1, 1, last),) if last is not None else ()
        required = rules.ruleset.opening.required(0, 0, openings)
    context = _field(q, "context", dict, required=False) or {}
    exemption = rules.ruleset.opening_exemption
    hand, going_out = (
        bool(context.get("hand")),
        bool(context.get("going_out")) or bool(context.get("hand")),
    )
    exempt = (exemption is OpeningExemption.GOING_OUT and going_out) or (
        exemption is OpeningExemption.HAND and hand
    )
    judged = judge_opening(melds, rules, required=required, exempt=exempt)
    return {
        "ok": judged.ok,
        "points": judged.points,
        "required": judged.required,
        "violations": _violations(judged.verdict),
        "melds": [_judgement(j) for j in judged.melds],
    }


def _ask_hand_value(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"cards"}))
    return {"points": hand_value(_cards(_field(q, "cards", (list, str)), "'cards'"), rules)}


def _ask_layoff(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"meld", "roles", "demoted", "cards", "card_roles", "context"}))
    meld = _meld(q, "meld")
    cards = _cards(_field(q, "cards", (list, str)), "'cards'")
    roles = _roles(q.get("card_roles"), len(cards), "'card_roles'")
    context = _field(q, "context", dict, required=False) or {}
    unknown = set(context) - {"going_out", "one_card_announced", "announcing_one_card"}
    if unknown:
        raise QuestionError("BAD_FIELD", f"unknown context field(s): {', '.join(sorted(unknown))}")
    result = lay_off(
        meld,
        cards,
        rules,
        roles=roles,
        context=LayoffContext(**{k: bool(v) for k, v in context.items()}),
    )
    out: JSON = {"ok": result.ok}
    if result.meld is not None:
        out["meld"], out["roles"] = _meld_json(result.meld)
    else:
        out["meld"], out["roles"] = None, {}
    out["violations"] = _violations(result.verdict)
    return out


def _ask_exchange(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"meld", "roles", "demoted", "cards"}))
    result = exchange(_meld(q, "meld"), _cards(_field(q, "cards", (list, str)), "'cards'"), rules)
    out: JSON = {"ok": result.ok}
    if result.meld is not None:
        out["meld"], out["roles"] = _meld_json(result.meld)
    else:
        out["meld"], out["roles"] = None, {}
    out["wild"] = result.wild.ascii if result.wild is not None else None
    out["violations"] = _violations(result.verdict)
    return out


def _ask_round_score(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"players", "went_out", "finish", "melded", "last_discard", "teams"}))
    players = []
    for i, p in enumerate(_field(q, "players", list)):
        if not isinstance(p, dict) or "hand" not in p:
            raise QuestionError(
                "BAD_FIELD", f"'players'[{i}] must be an object with 'hand' and 'opened'"
            )
        opened = p.get("opened", False)
        if not isinstance(opened, bool):
            raise QuestionError("BAD_FIELD", f"'players'[{i}].opened must be true or false")
        players.append(PlayerEnd(_cards(p["hand"], f"'players'[{i}].hand"), opened))
    if not rules.ruleset.players.allows(len(players)) and q.get("teams") is None:
        raise QuestionError(
            "BAD_FIELD",
            f"{rules.ruleset.title} is for {rules.ruleset.players.describe()[:-1].lower()}; "
            f"the question has {len(players)}",
        )
    if "went_out" not in q:
        raise QuestionError("MISSING_FIELD", "the question needs 'went_out' (a seat, or null)")
    went_out = q["went_out"]
    if went_out is not None and (not isinstance(went_out, int) or isinstance(went_out, bool)):
        raise QuestionError("BAD_FIELD", "'went_out' must be a seat number or null")
    finish = q.get("finish", "normal")
    if finish not in ("normal", "hand"):
        raise QuestionError("BAD_FIELD", '\'finish\' must be "normal" or "hand"')
    melded = _cards(q.get("melded", []), "'melded'")
    last = q.get("last_discard")
    last_card = _card(last, "'last_discard'") if last is not None else None
    teams = q.get("teams")
    if teams is not None and not (
        isinstance(teams, list)
        and all(isinstance(t, list) and all(isinstance(s, int) for s in t) for t in teams)
    ):
        raise QuestionError("BAD_FIELD", "'teams' must be a list of lists of seats")
    try:
        end = RoundEnd(
            tuple(players),
            went_out,
            finish == "hand",
            melded,
            last_card,
            tuple(tuple(t) for t in teams) if teams is not None else None,
        )
    except ValueError as err:
        raise QuestionError("BAD_FIELD", str(err)) from None
    score = score_round(end, rules)
    out: JSON = {"scores": list(score.scores)}
    if score.team_scores is not None:
        out["team_scores"] = list(score.team_scores)
    out["scored"] = score.scored
    return out


ASKS: dict[str, Callable[[Mapping[str, Any], MeldRules], JSON]] = {
    "meld": _ask_meld,
    "opening": _ask_opening,
    "hand_value": _ask_hand_value,
    "layoff": _ask_layoff,
    "exchange": _ask_exchange,
    "round_score": _ask_round_score,
}
"""The questions about rules that the referee answers, by their ``"ask"``."""


def _round(q: Mapping[str, Any]) -> Round:
    """The round document of a question, checked against its optional rules fields."""
    doc = _field(q, "round", dict)
    try:
        game = round_from_json(doc)
    except (InvalidStateError, CardParseError) as err:
        raise QuestionError("BAD_ROUND", f"'round': {err}") from None
    if "rules" in q:
        ruleset = game.ruleset
        named = (_field(q, "rules", str), _field(q, "variants", list, required=False) or [])
        if named != (ruleset.name, list(ruleset.variants)):
            raise QuestionError(
                "BAD_FIELD",
                f"'rules' and 'variants' say {'+'.join([named[0], *map(str, named[1])])}, "
                f"but the round is played under {ruleset.title}",
            )
    elif "variants" in q:
        raise QuestionError("BAD_FIELD", "'variants' without 'rules'; the round names its rules")
    if "indicator" in q:
        card = _card(q["indicator"], "'indicator'") if q["indicator"] is not None else None
        if card != game.indicator:
            raise QuestionError(
                "BAD_INDICATOR", "'indicator' differs from the indicator of the round"
            )
    return game


def _ask_action(q: Mapping[str, Any]) -> JSON:
    _check_keys(q, frozenset({"round", "action"}))
    game = _round(q)
    try:
        action = action_from_json(_field(q, "action", dict))
    except (InvalidStateError, CardParseError) as err:
        raise QuestionError("BAD_ACTION", f"'action': {err}") from None
    verdict = game.check(action)
    return {"ok": verdict.ok, "violations": _violations(verdict)}


def _ask_legal_actions(q: Mapping[str, Any]) -> JSON:
    _check_keys(q, frozenset({"round"}))
    game = _round(q)
    return {"actions": [action_to_json(a) for a in game.legal_actions()]}


ROUND_ASKS: dict[str, Callable[[Mapping[str, Any]], JSON]] = {
    "action": _ask_action,
    "legal_actions": _ask_legal_actions,
}
"""The questions about a round in play, by their ``"ask"``: the round document names the rules."""


def answer(question: Any) -> JSON:
    """Answer one question (a dict decoded from JSON)."""
    try:
        if not isinstance(question, dict):
            raise QuestionError("BAD_QUESTION", "a question is a JSON object")
        ask = _field(question, "ask", str)
        round_handler = ROUND_ASKS.get(ask)
        handler = ASKS.get(ask)
        if round_handler is not None:
            result = round_handler(question)
        elif handler is not None:
            result = handler(question, _rules(question))
        else:
            known = ", ".join([*ASKS, *ROUND_ASKS])
            raise QuestionError("UNKNOWN_ASK", f"unknown ask {ask!r}; known: {known}")
    except QuestionError as err:
        result = {"error": {"code": err.code, "message": str(err)}}
    except HandRummyError as err:
        result = {"error": {"code": type(err).__name__, "message": str(err)}}
    except Exception as err:  # the contract: a question is never answered by a crash
        message = (
            f"the referee failed on this question ({type(err).__name__}: {err}); please report it"
        )
        result = {"error": {"code": "INTERNAL_ERROR", "message": message}}
    if isinstance(question, dict) and "id" in question:
        result = {"id": question["id"], **result}
    return result


def answer_json(text: str) -> tuple[Any, bool]:
    """Answer a JSON document holding one question or an array of them.

    Returns the answer (an object, or an array of objects) and whether every
    question was answered without an error.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return {"error": {"code": "BAD_JSON", "message": f"not valid JSON: {err}"}}, False
    if isinstance(data, list):
        answers = [answer(q) for q in data]
        return answers, all("error" not in a for a in answers)
    single = answer(data)
    return single, "error" not in single
