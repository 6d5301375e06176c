"""The referee: one JSON question in, one JSON answer out.

The question format is a public contract, and also the format of the
conformance vectors (:mod:`hand_rummy.conformance`). Every question names the
``"rules"`` (a preset), optional ``"variants"``, the ``"indicator"`` where the
rules turn one, and what it ``"ask"``\\ s. A malformed question is answered with
``{"error": {"code": ..., "message": ...}}``, never with a crash, and so is a
question beyond the :class:`Limits` on size (code ``"LIMIT"``), which keep every
answer quick and small.

Two questions are about a round in play (``"action"`` and
``"legal_actions"``); they carry the round as a document of
:mod:`hand_rummy.serialize`, a ``"round"`` (its deal and history) or a
``"position"`` (the round as it stands), which names its own rules, so
``"rules"`` is optional for them (when given, it must agree with the document).

>>> answer({"rules": "levant", "indicator": "8C", "ask": "meld", "cards": ["7H", "AC", "9H"]})
... # doctest: +NORMALIZE_WHITESPACE
{'protocol': 'hand-rummy/referee/1',
 'ok': True, 'kind': 'run', 'meld': ['7H', 'AC', '9H'], 'roles': {'1': '8H'}, 'points': 24,
 'violations': []}
>>> answer({"rules": "levant", "ask": "meld", "cards": ["7H"]})["error"]["code"]
'INDICATOR_REQUIRED'
"""

from __future__ import annotations

import contextvars
import itertools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from hand_rummy.cards import Card, parse_card, parse_cards
from hand_rummy.errors import (
    CardParseError,
    HandRummyError,
    InvalidStateError,
    UnknownRulesError,
    WorkLimitError,
    error_text,
    shown,
)
from hand_rummy.melds import Meld, MeldJudgement, MeldRules, judge_meld
from hand_rummy.opening import judge_opening
from hand_rummy.position import FillBudget, position_state
from hand_rummy.round import Round
from hand_rummy.rules.opening import OpeningExemption, OpeningRecord
from hand_rummy.rules.presets import PRESETS, build
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.scoring import (
    PlayerEnd,
    RoundEnd,
    check_copies,
    check_players,
    hand_value,
    score_round,
)
from hand_rummy.serialize import (
    action_from_json,
    action_to_json,
    breakdown_to_json,
    position_form_from_json,
    round_from_json,
)
from hand_rummy.table import LayoffContext, exchange, lay_off
from hand_rummy.turn_rules.gates import promise_checks_counted
from hand_rummy.verdict import Verdict
from hand_rummy.work import WorkBudget, work_allowed

__all__ = [
    "ASKS",
    "LIMITS",
    "PROTOCOL",
    "ROUND_ASKS",
    "LimitError",
    "Limits",
    "QuestionError",
    "answer",
    "answer_json",
]

JSON = dict[str, Any]

PROTOCOL = "hand-rummy/referee/1"
"""The protocol that this referee speaks, named in every answer as ``"protocol"``: the
question and answer formats, the error codes and the :class:`Limits` of version 1."""

_COMMON = frozenset({"rules", "variants", "indicator", "ask", "id", "note"})


@attrs.frozen
class Limits:
    """How big a question may be: the referee's limits, part of the protocol.

    A question beyond one of them is answered with the error ``LIMIT``; its
    message names the limit and its value, and the error object carries them
    as ``"limit"`` (the name of the attribute here) and ``"max"``. Within the
    limits every question is answered in well under a second and a few tens
    of MiB (see :doc:`/referee`). The number of seats is not a limit of the
    referee but of the rules: a ``round_score`` question must have as many
    players as its rules allow (at most 6), or it gets ``BAD_FIELD``.

    >>> LIMITS.cards, LIMITS.history, LIMITS.actions
    (108, 5000, 1000)
    """

    text_bytes: int = 1 << 20
    """Bytes (UTF-8) of the JSON text that :func:`answer_json` and ``hand-rummy judge`` read:
    one question or an array of them."""
    depth: int = 32
    """Nesting of arrays and objects in that text; a question needs 8 at most."""
    integer_digits: int = 40
    """Digits of one integer in that text (a 128-bit seed has 39)."""
    questions: int = 1000
    """Questions in one array."""
    cards: int = 108
    """Cards in one list of cards (a meld, a hand, the cards laid off, exchanged or melded,
    each list of a round's deal and of a position): the largest deck holds 108."""
    melds: int = 36
    """Melds laid down together (an ``opening``, a ``lay_down`` action), and the melds on a
    position's table: 36 melds of three use 108 cards."""
    variants: int = 32
    """Names in ``variants``."""
    history: int = 5000
    """Actions in the history of a round document; replaying them takes a fraction of a
    second. A round of random play rarely needs more than 2,000."""
    actions: int = 1000
    """Actions in one ``legal_actions`` answer: the default and the largest ``limit``."""
    action_window: int = 3000
    """How far into the list of legal actions a question may reach (``offset + limit``):
    the generator must produce every action before the page."""
    array_actions: int = 3000
    """Legal actions that the ``legal_actions`` questions of one array may list together,
    each counting how far its page reached (``offset`` and the actions answered) and the
    moves its listing checked against a promise to finish the turn (each a search, refused
    ones too: a page of 5 actions may check hundreds): once the array's earlier questions
    have listed that many, the later ones are refused. So an array's answers hold about as
    many actions as one question's window, and cost about as much as it."""
    array_fills: int = 4096
    """The work of the fills that the positions of one array may deal again between them,
    counted as for ``fill_work``."""
    array_answer_bytes: int = 4 << 20
    """Bytes (UTF-8) of the answers to one array in all, each written as compact JSON: a
    small question may get a large answer (an ``opening`` of 36 empty melds, 151 bytes,
    is answered in 32 KB, each meld with its rule texts), so an array of a megabyte could
    be answered in tens of megabytes. Once the answers before a question hold that many,
    it is refused; the answers hold at most one answer more."""
    search_work: int = 200_000
    """Steps of the finishing search that one question may take (:mod:`hand_rummy.work`
    counts them: each split of the cards set aside among the melds that could take them).
    The search judges each move of a turn bound to go out, and each opening below the bar,
    by the rest of the turn: with many melds on the table one listing can take hundreds of
    such searches. 200,000 steps take about a second on the development machine; the
    costliest of the worst cases (``benchmarks/worst_cases.py``) takes 60,000."""
    array_search_work: int = 400_000
    """Steps of the finishing search that the questions of one array may take between them,
    counted as for ``search_work``: an array's searches cost about as much as two
    questions'. The rest of each question's work (a listing, a judgement) is bounded
    question by question, so an array of ten of the costliest positions of
    ``benchmarks/worst_cases.py`` takes two to three seconds."""
    fill_work: int = 4096
    """The work of the fills that one position may deal again: a position whose first fill
    leaves the player to move no legal move is filled again, up to
    :data:`~hand_rummy.position.FILL_ATTEMPTS` times, each time searching that player's
    moves (a tenth of a millisecond or more). Each fill counts 1, and each move its search
    checks against a promise to finish the turn 1 more (a search each: a turn that owes a
    go-out may check dozens of moves a fill), so the work is bounded by a count, not a
    clock: 4,096 take under half a second."""


LIMITS = Limits()
"""The limits that this referee applies."""


class QuestionError(HandRummyError, ValueError):
    """A referee question that cannot be answered as asked; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def to_json(self) -> JSON:
        """The ``"error"`` object of the answer."""
        return {"code": self.code, "message": _clip(str(self), 1000)}


class LimitError(QuestionError):
    """A question beyond one of the :class:`Limits`: ``limit`` names it, ``max`` is its value."""

    def __init__(self, limit: str, what: str) -> None:
        self.limit = limit
        self.max: int = getattr(LIMITS, limit)
        super().__init__("LIMIT", f"{what}; the referee takes at most {self.max} ({limit})")

    def to_json(self) -> JSON:
        return {**super().to_json(), "limit": self.limit, "max": self.max}


# --- reading a question --------------------------------------------------------


def _clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def _show(value: Any) -> str:
    """A value as JSON for a message, cut short: a question may hold a megabyte of it."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON: a Python caller's object
        text = f"a {type(value).__name__}"
    return _clip(text, 60)


def _name(key: Any) -> str:
    return _clip(shown(key, 40), 40)


def _field(
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
        raise QuestionError("BAD_FIELD", f"{name!r} must be {_article(names)}, not {_show(value)}")
    return value


def _count(q: Mapping[str, Any], name: str, low: int = 0) -> int | None:
    """An optional whole-number field that may not be below ``low``."""
    number: int | None = _field(q, name, int, required=False)
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


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise QuestionError(
            "BAD_CARD", f"{where}: a card is written as text like '10H', not {_show(value)}"
        )
    try:
        return parse_card(value)
    except CardParseError as err:
        raise QuestionError("BAD_CARD", f"{where}: {err}") from None


def _cards(value: Any, where: str) -> tuple[Card, ...]:
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
        raise QuestionError("BAD_FIELD", f"{where} must be a list of cards, not {_show(value)}")
    if len(value) > LIMITS.cards:
        raise LimitError("cards", f"{where} holds {len(value)} cards")
    return tuple(_card(v, f"{where}[{i}]") for i, v in enumerate(value))


def _roles(value: Any, size: int, where: str) -> dict[int, Card]:
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
                "BAD_FIELD", f"{where}: {_name(key)} is not a position in the meld ({span})"
            )
        roles[positions[key]] = _card(card, f"{where}[{key!r}]")
    return roles


def _positions(value: Any, size: int, where: str) -> list[int]:
    if not isinstance(value, list):
        raise QuestionError("BAD_FIELD", f"{where} must list positions in the meld")
    seen: set[int] = set()
    for i in value:
        if not (isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size) or i in seen:
            raise QuestionError(
                "BAD_FIELD", f"{where} must list positions in the meld, each once, not {_show(i)}"
            )
        seen.add(i)
    return value


def _meld(
    q: Mapping[str, Any], cards_key: str, roles_key: str = "roles", demoted_key: str = "demoted"
) -> Meld:
    cards = _cards(_field(q, cards_key, (list, str)), repr(cards_key))
    roles = _roles(q.get(roles_key), len(cards), repr(roles_key))
    demoted = _positions(q.get(demoted_key, []), len(cards), repr(demoted_key))
    return Meld.of(cards, roles, demoted)


def _check_keys(q: Mapping[str, Any], allowed: frozenset[str]) -> None:
    extra = sorted(set(q) - _COMMON - allowed)
    if extra:
        raise QuestionError(
            "BAD_FIELD",
            f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(map(_name, extra[:5]))} "
            f"for ask {q['ask']!r}; it takes {', '.join(sorted(allowed)) or 'no other fields'}",
        )


def _context(q: Mapping[str, Any], allowed: tuple[str, ...]) -> dict[str, bool]:
    """The ``context`` object: only the named switches, each true or false."""
    context = _field(q, "context", dict, required=False) or {}
    for key, value in context.items():
        if key not in allowed:
            raise QuestionError(
                "BAD_FIELD",
                f"unknown context field {_name(key)}; it takes {', '.join(allowed)}",
            )
        if not isinstance(value, bool):
            # "false" is a non-empty string: reading it as a truth value would say yes
            raise QuestionError(
                "BAD_FIELD", f"'context'.{key} must be true or false, not {_show(value)}"
            )
    return dict(context)


def _rules(q: Mapping[str, Any]) -> MeldRules:
    name = _field(q, "rules", str)
    variants = _field(q, "variants", list, required=False) or []
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
    card = _card(indicator, "'indicator'") if indicator is not None else None
    try:
        return MeldRules.of(ruleset, card)
    except InvalidStateError as err:
        raise QuestionError("BAD_INDICATOR", str(err)) from None


# --- writing an answer ---------------------------------------------------------


def _violations(verdict: Verdict) -> list[JSON]:
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


def _per_meld(q: Mapping[str, Any], name: str, count: int, what: str) -> list[Any]:
    value = q.get(name)
    if value is None:
        return [None] * count
    if not isinstance(value, list) or len(value) != count:
        raise QuestionError("BAD_FIELD", f"{name!r} must be a list with {what} per meld")
    return value


def _ask_opening(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"melds", "roles", "demoted", "required", "last_opening", "context"}))
    raw = _field(q, "melds", list)
    if len(raw) > LIMITS.melds:
        raise LimitError("melds", f"'melds' holds {len(raw)} melds")
    roles = _per_meld(q, "roles", len(raw), "one object")
    demoted = [[] if d is None else d for d in _per_meld(q, "demoted", len(raw), "one list")]
    melds = [
        _meld({"cards": cards, "roles": r, "demoted": d}, "cards")
        for cards, r, d in zip(raw, roles, demoted)
    ]
    _check_held([c for m in melds for c in m.cards], rules.ruleset, "'melds'")
    required = _count(q, "required")
    last = _count(q, "last_opening")
    opening = rules.ruleset.opening
    if last is not None and not opening.follows_openings:
        raise QuestionError(
            "BAD_FIELD",
            "'last_opening' applies only where each opening must beat the last one, "
            f"not under {rules.ruleset.title}: {opening.describe()}",
        )
    if last is not None and required is not None:
        raise QuestionError(
            "BAD_FIELD", "give 'required' or 'last_opening', not both: 'required' sets the bar"
        )
    if last is not None:
        _check_last_opening(last, rules.ruleset)
    context = _context(q, ("going_out", "hand"))
    if required is None:
        # the asker is the player seated next after the last opener (seat 0 after seat 1 of
        # two), whom every reading of a beat-the-last bar binds
        openings = (OpeningRecord(1, 1, last),) if last is not None else ()
        required = opening.required(0, 0, openings, 2)
    exemption = rules.ruleset.opening_exemption
    hand = context.get("hand", False)
    going_out = context.get("going_out", False) or hand
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


def _check_last_opening(last: int, ruleset: Ruleset) -> None:
    """Refuse a last opening that no player could have laid: below the first opener's bar
    (a below-bar opening goes out, and the bar starts again with the next round), or worth
    more than the whole deck at its best values."""
    base = ruleset.opening.required(0, 0, (), 2)
    if base is not None and last < base:
        raise QuestionError(
            "BAD_FIELD", f"'last_opening' is {last}, below the {base} that any opening needs"
        )
    most = ruleset.opening_ceiling
    if last > most:
        raise QuestionError(
            "BAD_FIELD",
            f"'last_opening' is {last}, more than the whole deck could be worth in an opening "
            f"({most})",
        )


def _ask_hand_value(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"cards"}))
    cards = _cards(_field(q, "cards", (list, str)), "'cards'")
    _check_held(cards, rules.ruleset, "'cards'")
    # the turned indicator is a card that no hand can also hold
    indicator = rules.wilds.indicator
    shown, where = cards, "'cards'"
    if indicator is not None:
        shown, where = (*cards, indicator), "'cards' and 'indicator'"
    try:
        check_copies(shown, rules.ruleset, where)
    except InvalidStateError as err:
        raise QuestionError("BAD_FIELD", str(err)) from None
    return {"points": hand_value(cards, rules)}


def _ask_layoff(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    _check_keys(q, frozenset({"meld", "roles", "demoted", "cards", "card_roles", "context"}))
    meld = _meld(q, "meld")
    cards = _cards(_field(q, "cards", (list, str)), "'cards'")
    roles = _roles(q.get("card_roles"), len(cards), "'card_roles'")
    context = _context(q, ("going_out", "one_card_announced", "announcing_one_card"))
    result = lay_off(meld, cards, rules, roles=roles, context=LayoffContext(**context))
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
    _check_keys(
        q,
        frozenset(
            {
                "players",
                "went_out",
                "finish",
                "melded",
                "last_discard",
                "teams",
                "melded_demoted",
                "last_discard_demoted",
            }
        ),
    )
    raw = _field(q, "players", list)
    # counted before any hand is read: the seats are bounded by the rules, teams or not
    try:
        check_players(len(raw), rules.ruleset)
    except InvalidStateError as err:
        raise QuestionError("BAD_FIELD", f"'players': {err}") from None
    players = []
    for i, p in enumerate(raw):
        if not isinstance(p, dict) or "hand" not in p:
            raise QuestionError(
                "BAD_FIELD", f"'players'[{i}] must be an object with 'hand' and 'opened'"
            )
        unknown = sorted(map(str, set(p) - {"hand", "opened", "demoted"}))
        if unknown:
            raise QuestionError(
                "BAD_FIELD",
                f"'players'[{i}]: unknown field {', '.join(map(_name, unknown[:5]))}; "
                "a player has 'hand', 'opened' and 'demoted'",
            )
        opened = p.get("opened", False)
        if not isinstance(opened, bool):
            raise QuestionError(
                "BAD_FIELD", f"'players'[{i}].opened must be true or false, not {_show(opened)}"
            )
        players.append(
            PlayerEnd(
                _cards(p["hand"], f"'players'[{i}].hand"),
                opened,
                _cards(p.get("demoted", []), f"'players'[{i}].demoted"),
            )
        )
    if "went_out" not in q:
        raise QuestionError("MISSING_FIELD", "the question needs 'went_out' (a seat, or null)")
    went_out = q["went_out"]
    if went_out is not None and (not isinstance(went_out, int) or isinstance(went_out, bool)):
        raise QuestionError(
            "BAD_FIELD", f"'went_out' must be a seat number or null, not {_show(went_out)}"
        )
    last_demoted = _field(q, "last_discard_demoted", bool, required=False) or False
    finish = q.get("finish", "normal")
    if finish not in ("normal", "hand"):
        raise QuestionError("BAD_FIELD", '\'finish\' must be "normal" or "hand"')
    melded = _cards(q.get("melded", []), "'melded'")
    melded_demoted = _cards(q.get("melded_demoted", []), "'melded_demoted'")
    last = q.get("last_discard")
    last_card = _card(last, "'last_discard'") if last is not None else None
    teams = q.get("teams")
    if teams is not None and not (
        isinstance(teams, list)
        and all(
            isinstance(t, list)
            and all(isinstance(seat, int) and not isinstance(seat, bool) for seat in t)
            for t in teams
        )
    ):
        raise QuestionError(
            "BAD_FIELD",
            "'teams' must be a list of two or more teams, each a list of seat numbers",
        )
    _check_round_end(
        rules.ruleset,
        players,
        went_out=went_out,
        hand=finish == "hand",
        melded=melded,
        last_discard=last_card,
    )
    # the library checks the rest (the seats, the cards shown against the deck, who may
    # hold no card) and the referee answers its refusal as such
    try:
        end = RoundEnd(
            tuple(players),
            went_out,
            finish == "hand",
            melded,
            last_card,
            tuple(tuple(t) for t in teams) if teams is not None else None,
            melded_demoted,
            last_demoted,
        )
        score = score_round(end, rules)
    except InvalidStateError as err:
        raise QuestionError("BAD_FIELD", str(err)) from None
    out: JSON = {"scores": list(score.scores)}
    if score.team_scores is not None:
        out["team_scores"] = list(score.team_scores)
    out["scored"] = score.scored
    out["factor"] = score.factor
    return {**out, **breakdown_to_json(score)}


def _check_held(cards: Sequence[Card], ruleset: Ruleset, where: str) -> None:
    """Refuse more cards than one hand could hold (an opening, a hand's value, a seat's cards
    at the end of a round)."""
    most = ruleset.deal.most_held
    if len(cards) > most:
        raise QuestionError(
            "BAD_FIELD",
            f"{where} holds {len(cards)} cards; a hand holds at most {most} under {ruleset.title}",
        )


def _check_round_end(
    ruleset: Ruleset,
    players: Sequence[PlayerEnd],
    *,
    went_out: Any,
    hand: bool,
    melded: Sequence[Card],
    last_discard: Card | None,
) -> None:
    """Refuse an end of round that no round under ``ruleset`` reaches: a seat holding more
    cards than a hand can, or a Hand that its rules rule out (the library's scoring takes
    a described end as given; a round played by the engine never reaches these)."""
    for seat, player in enumerate(players):
        _check_held(player.hand, ruleset, f"'players'[{seat}].hand")
    if not hand or not isinstance(went_out, int) or not 0 <= went_out < len(players):
        return
    rule = ruleset.hand
    if rule.first_to_meld:
        others = [seat for seat, p in enumerate(players) if p.opened and seat != went_out]
        if others:
            raise QuestionError(
                "BAD_FIELD",
                f"a Hand goes out before any other player has melded, but seat "
                f"{others[0]} has opened",
            )
    if rule.all_melded and last_discard is not None:
        raise QuestionError(
            "BAD_FIELD",
            f"a Hand under {ruleset.title} lays every card on the table: it has no 'last_discard'",
        )
    laid = len(melded) + (last_discard is not None)
    if laid > ruleset.deal.most_held:
        raise QuestionError(
            "BAD_FIELD",
            f"a Hand lays one hand of at most {ruleset.deal.most_held} cards on the table "
            f"('melded' and 'last_discard'), not {laid}",
        )


ASKS: dict[str, Callable[[Mapping[str, Any], MeldRules], JSON]] = {
    "meld": _ask_meld,
    "opening": _ask_opening,
    "hand_value": _ask_hand_value,
    "layoff": _ask_layoff,
    "exchange": _ask_exchange,
    "round_score": _ask_round_score,
}
"""The questions about rules that the referee answers, by their ``"ask"``."""


def _action_limits(action: Any, where: str) -> None:
    """Refuse an action object too big to judge, before the serialiser reads it."""
    if not isinstance(action, dict):
        return
    melds = action.get("melds")
    if isinstance(melds, list):
        if len(melds) > LIMITS.melds:
            raise LimitError("melds", f"{where}.melds holds {len(melds)} melds")
        for i, meld in enumerate(melds):
            cards = meld.get("cards") if isinstance(meld, dict) else None
            if isinstance(cards, list) and len(cards) > LIMITS.cards:
                raise LimitError("cards", f"{where}.melds[{i}].cards holds {len(cards)} cards")
    cards = action.get("cards")
    if isinstance(cards, list) and len(cards) > LIMITS.cards:
        raise LimitError("cards", f"{where}.cards holds {len(cards)} cards")


def _round_limits(doc: Mapping[str, Any]) -> None:
    """Refuse a round document too big to replay; its types are the serialiser's to check."""
    deal = doc.get("deal")
    if isinstance(deal, dict):
        lists = [("stock", deal.get("stock")), ("discards", deal.get("discards"))]
        hands = deal.get("hands")
        if isinstance(hands, list):
            lists += [(f"hands[{i}]", h) for i, h in enumerate(hands[: LIMITS.cards + 1])]
        for name, cards in lists:
            if isinstance(cards, list) and len(cards) > LIMITS.cards:
                raise LimitError("cards", f"'round'.deal.{name} holds {len(cards)} cards")
    history = doc.get("history")
    if isinstance(history, list):
        if len(history) > LIMITS.history:
            raise LimitError("history", f"'round'.history holds {len(history)} actions")
        for i, action in enumerate(history):
            _action_limits(action, f"'round'.history[{i}]")


def _cards_limit(cards: Any, where: str) -> None:
    if isinstance(cards, list) and len(cards) > LIMITS.cards:
        raise LimitError("cards", f"{where} holds {len(cards)} cards")


def _position_limits(doc: Mapping[str, Any]) -> None:
    """Refuse a position document too big to read; its types are the serialiser's to check."""
    for name in ("discards", "stock"):
        _cards_limit(doc.get(name), f"'position'.{name}")
    players = doc.get("players")
    if isinstance(players, list):
        for i, player in enumerate(players[: LIMITS.cards + 1]):
            if isinstance(player, dict):
                for name in ("hand", "demoted"):
                    _cards_limit(player.get(name), f"'position'.players[{i}].{name}")
    table = doc.get("table")
    if isinstance(table, list):
        if len(table) > LIMITS.melds:
            raise LimitError("melds", f"'position'.table holds {len(table)} melds")
        for i, entry in enumerate(table):
            meld = entry.get("meld") if isinstance(entry, dict) else None
            if isinstance(meld, dict):
                _cards_limit(meld.get("cards"), f"'position'.table[{i}].meld.cards")
    current = doc.get("current")
    if isinstance(current, dict):
        _cards_limit(current.get("melded"), "'position'.current.melded")


def _read_game(q: Mapping[str, Any]) -> tuple[Round, str]:
    """The round of a question, from its ``round`` or its ``position`` document."""
    if "round" in q and "position" in q:
        raise QuestionError("BAD_FIELD", "give 'round' or 'position', not both")
    if "position" in q:
        doc = _field(q, "position", dict)
        _position_limits(doc)
        shared = _FILLS.get()
        # the question's own work, or what the array has left when that is less
        left = LIMITS.fill_work if shared is None else min(LIMITS.fill_work, shared.left)
        budget = FillBudget(left)
        try:
            state = position_state(position_form_from_json(doc), budget=budget)
        except WorkLimitError:
            raise  # the question's cost, not its form: refused as a limit
        except HandRummyError as err:
            if budget.spent:
                if shared is not None and shared.left < LIMITS.fill_work:
                    raise LimitError(
                        "array_fills",
                        "the positions before this one in the array and its own fills took "
                        f"the work of {LIMITS.array_fills} fills",
                    ) from None
                raise LimitError(
                    "fill_work",
                    f"the fills of the unlisted cards took the work of {LIMITS.fill_work} fills "
                    "and found none that leaves a legal move",
                ) from None
            raise QuestionError("BAD_POSITION", f"'position': {err}") from None
        finally:
            if shared is not None:
                shared.left -= left - budget.left
        return Round.from_state(state), "position"
    if "round" not in q:
        raise QuestionError("MISSING_FIELD", "the question needs 'round' or 'position'")
    doc = _field(q, "round", dict)
    _round_limits(doc)
    try:
        return round_from_json(doc), "round"
    except WorkLimitError:
        raise  # the question's cost, not its form: refused as a limit
    except HandRummyError as err:
        raise QuestionError("BAD_ROUND", f"'round': {err}") from None


def _round(q: Mapping[str, Any]) -> Round:
    """The round (or position) document of a question, checked against its optional rules
    fields."""
    game, kind = _read_game(q)
    if "rules" in q:
        ruleset = game.ruleset
        variants = _field(q, "variants", list, required=False) or []
        name = _field(q, "rules", str)
        # variants apply in the catalogue's order whatever order they are named in, so the
        # question may name them in any order
        same = (
            name == ruleset.name
            and all(isinstance(v, str) for v in variants)
            and sorted(variants) == sorted(ruleset.variants)
        )
        if not same:
            given = "+".join([name, *map(_show, variants[:5])])
            raise QuestionError(
                "BAD_FIELD",
                f"'rules' and 'variants' say {_clip(given, 80)}, "
                f"but the {kind} is played under {ruleset.title}",
            )
    elif "variants" in q:
        raise QuestionError("BAD_FIELD", f"'variants' without 'rules'; the {kind} names its rules")
    if "indicator" in q:
        card = _card(q["indicator"], "'indicator'") if q["indicator"] is not None else None
        if card != game.indicator:
            raise QuestionError(
                "BAD_INDICATOR", f"'indicator' differs from the indicator of the {kind}"
            )
    return game


def _ask_action(q: Mapping[str, Any]) -> JSON:
    _check_keys(q, frozenset({"round", "position", "action"}))
    raw = _field(q, "action", dict)
    _action_limits(raw, "'action'")
    game = _round(q)
    try:
        action = action_from_json(raw)
    except WorkLimitError:
        raise  # the question's cost, not its form: refused as a limit
    except HandRummyError as err:
        raise QuestionError("BAD_ACTION", f"'action': {err}") from None
    verdict = game.check(action)
    return {"ok": verdict.ok, "violations": _violations(verdict)}


def _ask_legal_actions(q: Mapping[str, Any]) -> JSON:
    _check_keys(q, frozenset({"round", "position", "offset", "limit"}))
    offset = _count(q, "offset") or 0
    limit = _count(q, "limit")
    if limit is None:
        limit = LIMITS.actions
    if limit > LIMITS.actions:
        raise LimitError("actions", f"'limit' asks for {limit} actions")
    if offset + limit > LIMITS.action_window:
        raise LimitError(
            "action_window", f"'offset' + 'limit' reaches action {offset + limit} of the list"
        )
    game = _round(q)
    # the generator is lazy: take the page and one more action, to say whether more follow,
    # without listing the rest (a crafted hand can have tens of thousands of lay-downs)
    page = list(itertools.islice(game.legal_actions(), offset, offset + limit + 1))
    return {
        "actions": [action_to_json(a) for a in page[:limit]],
        "offset": offset,
        "limit": limit,
        "more": len(page) > limit,
    }


ROUND_ASKS: dict[str, Callable[[Mapping[str, Any]], JSON]] = {
    "action": _ask_action,
    "legal_actions": _ask_legal_actions,
}
"""The questions about a round in play, by their ``"ask"``: the round or position document
names the rules."""


def answer(question: Any) -> JSON:
    """Answer one question (a dict decoded from JSON).

    Never raises: anything that is not a question, from JSON or from Python,
    gets an error answer. A question built in Python is held to the limits
    that reading JSON text applies (the length of the text it would be, its
    nesting, the digits of an integer), and may hold only what JSON can (no
    ``NaN``).

    >>> answer(object())["error"]["code"]
    'BAD_QUESTION'
    >>> answer({"rules": "classic", "ask": "meld", "cards": "7H 8H 9H", "id": 10**50})["error"]
    ... # doctest: +NORMALIZE_WHITESPACE
    {'code': 'LIMIT', 'message': 'an integer has more than 40 digits; the referee takes at
     most 40 (integer_digits)', 'limit': 'integer_digits', 'max': 40}
    """
    try:
        _as_json_would_be(question)
    except QuestionError as err:
        return {"protocol": PROTOCOL, "error": err.to_json()}
    except Exception as err:
        # a Python caller's object that fails when it is read: a dict or list subclass
        # whose iteration raises, a str subclass whose len() does
        message = f"the question holds a value that cannot be read ({_describe(err)})"
        return {"protocol": PROTOCOL, "error": {"code": "BAD_QUESTION", "message": message}}
    return _answer(question)


def _describe(err: BaseException) -> str:
    """An exception as text for a message, cut short, even one that cannot be printed."""
    return _clip(error_text(err), 900)


_BIGGEST = 10**LIMITS.integer_digits


def _as_json_would_be(question: Any) -> None:
    """Refuse a question from Python that JSON text within the limits could not hold.

    The text is counted at the fewest bytes each value could take. A list or object met
    again (shared, in memory) is not walked again: its count and its height are known, so
    a few objects shared many times over (millions of values as text) cost a walk of the
    few, and are refused as too long."""
    walked: dict[int, tuple[int, int]] = {}
    """Each list and object walked: (bytes of its text at least, levels of nesting)."""

    def walk(value: Any, depth: int) -> tuple[int, int]:
        if isinstance(value, (dict, list, tuple)):
            known = walked.get(id(value))
            if known is not None or depth > LIMITS.depth:
                if known is None or depth + known[1] - 1 > LIMITS.depth:
                    raise LimitError(
                        "depth", f"arrays and objects nest more than {LIMITS.depth} deep"
                    )
                return known
            if isinstance(value, dict) and not all(isinstance(key, str) for key in value):
                raise QuestionError("BAD_QUESTION", "the field names of an object are strings")
            # brackets and commas; for an object, each name in quotes and its colon
            size = 1 + len(value)
            if isinstance(value, dict):
                size += sum(len(key) + 3 for key in value)
            height = 1
            for item in value.values() if isinstance(value, dict) else value:
                more, below = walk(item, depth + 1)
                size += more
                height = max(height, below + 1)
                if size > LIMITS.text_bytes:
                    raise LimitError(
                        "text_bytes",
                        f"the question as JSON text would be longer than {LIMITS.text_bytes} bytes",
                    )
            walked[id(value)] = (size, height)
            return size, height
        if isinstance(value, str):
            return len(value) + 2, 0
        if isinstance(value, int) and not isinstance(value, bool):
            if not -_BIGGEST < value < _BIGGEST:
                raise LimitError(
                    "integer_digits", f"an integer has more than {LIMITS.integer_digits} digits"
                )
        elif isinstance(value, float) and not math.isfinite(value):
            raise QuestionError("BAD_FIELD", f"a field holds {value}, which is no JSON number")
        elif depth > 1 and not (value is None or isinstance(value, (bool, float))):
            # bytes, a set, a Decimal...: JSON text cannot hold it, so no answer could echo it
            # (a question that is no object at all is refused as such, later)
            raise QuestionError(
                "BAD_FIELD", f"a field holds a {type(value).__name__}, which JSON cannot hold"
            )
        return 1, 0

    size, _ = walk(question, 1)
    if size > LIMITS.text_bytes:  # a long string at the top, say
        raise LimitError(
            "text_bytes",
            f"the question as JSON text would be longer than {LIMITS.text_bytes} bytes",
        )


def _answer(question: Any) -> JSON:
    """:func:`answer`, for a question read from JSON text within the limits."""
    try:
        if not isinstance(question, dict):
            raise QuestionError("BAD_QUESTION", "a question is a JSON object")
        if not all(isinstance(key, str) for key in question):
            raise QuestionError("BAD_QUESTION", "the field names of a question are strings")
        ask = _field(question, "ask", str)
        round_handler = ROUND_ASKS.get(ask)
        handler = ASKS.get(ask)
        if round_handler is None and handler is None:
            known = ", ".join([*ASKS, *ROUND_ASKS])
            raise QuestionError("UNKNOWN_ASK", f"unknown ask {_name(ask)}; known: {known}")
        shared = _WORK.get()  # in an array, the steps its questions have taken so far
        allowed = LIMITS.search_work
        if shared is not None:
            allowed = min(allowed, shared.allowed - shared.spent)
        try:
            with work_allowed(allowed) as work:
                if round_handler is not None:
                    result = round_handler(question)
                else:
                    assert handler is not None
                    result = handler(question, _rules(question))
        except WorkLimitError:
            raise _work_refused(allowed, shared) from None
        finally:
            if shared is not None:
                shared.spent += work.spent
    except QuestionError as err:
        result = {"error": err.to_json()}
    except HandRummyError as err:
        result = {"error": {"code": type(err).__name__, "message": _clip(str(err), 1000)}}
    except Exception as err:  # the contract: a question is never answered by a crash
        message = f"the referee failed on this question ({_describe(err)}); please report it"
        result = {"error": {"code": "INTERNAL_ERROR", "message": _clip(message, 1000)}}
    result = {"protocol": PROTOCOL, **result}
    if isinstance(question, dict) and "id" in question:
        result = {"id": question["id"], **result}
    return result


def _work_refused(allowed: int, shared: WorkBudget | None) -> LimitError:
    if shared is not None and allowed < LIMITS.search_work:
        return LimitError(
            "array_search_work",
            f"the questions of the array took more than {LIMITS.array_search_work} steps of "
            "search between them",
        )
    return LimitError("search_work", f"the question took more than {allowed} steps of search")


_WORK: contextvars.ContextVar[WorkBudget | None] = contextvars.ContextVar("work", default=None)
"""The steps of search that the questions of the array being answered may take together."""


# --- reading JSON text -----------------------------------------------------------


def _parse_int(text: str) -> int:
    # Python refuses to read more than 4,300 digits, and reading many costs time; a
    # question needs far fewer
    digits = len(text) - text.startswith("-")  # a minus sign is no digit
    if digits > LIMITS.integer_digits:
        raise LimitError("integer_digits", f"an integer has {digits} digits")
    return int(text)


def _parse_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise QuestionError("BAD_JSON", f"the number {_clip(text, 20)} is too large to read")
    return number


def _parse_constant(name: str) -> Any:
    # Python reads NaN and Infinity, but they are not JSON: an answer echoing one would
    # not be JSON either
    raise QuestionError("BAD_JSON", f"{name} is not a JSON value")


# A JSON string: on text that json.loads has accepted, every string ends, so this matches
# without backtracking and strips all strings in one pass.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_SQUARE = str.maketrans("{}", "[]")


def _too_deep(text: str, limit: int) -> bool:
    """Whether arrays and objects in ``text`` (valid JSON) nest more than ``limit`` deep.

    Each pass of ``replace`` removes the innermost pairs of brackets, so nesting of at most
    ``limit`` is gone after ``limit`` passes; all of it runs in C, unlike a walk of the
    decoded value, which takes a third of a second on a megabyte of small lists.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_SQUARE)
    for passes in range(limit):
        if len(brackets) <= 2 * (limit - passes):  # too few brackets left to nest deeper
            return False
        brackets = brackets.replace("[]", "")
    return bool(brackets)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when it names a field twice: JSON leaves the meaning open, and
    readers differ (some keep the first value, Python the last), so the question would be
    read one way here and another way elsewhere."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise QuestionError("BAD_JSON", f"an object names the field {_name(key)} twice")
            seen.add(key)
    return data


def _read_json(text: Any) -> Any:
    size = LIMITS.text_bytes
    if isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        if len(data) > size:
            raise LimitError("text_bytes", f"the text holds more than {size} bytes")
        if data.startswith(b"\xef\xbb\xbf"):  # a byte order mark, as some editors write
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise QuestionError(
                "BAD_JSON",
                f"the text is not UTF-8: byte 0x{data[err.start]:02x} at offset {err.start}",
            ) from None
    elif isinstance(text, str):
        # at most 4 bytes a character: encode only when the count alone cannot decide
        if len(text) > size or (
            len(text) * 4 > size and len(text.encode("utf-8", "surrogatepass")) > size
        ):
            raise LimitError("text_bytes", f"the text holds more than {size} bytes")
    else:
        raise QuestionError(
            "BAD_JSON", f"expected JSON text (str or bytes), not {type(text).__name__}"
        )
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as err:
        raise QuestionError("BAD_JSON", f"not valid JSON: {err}") from None
    except RecursionError:
        # the decoder recurses once per level; far beyond the limit, it gives up first
        raise LimitError(
            "depth", f"arrays and objects nest more than {LIMITS.depth} deep"
        ) from None
    # counting brackets, strings included, bounds the depth cheaply for most questions
    if text.count("[") + text.count("{") > LIMITS.depth and _too_deep(text, LIMITS.depth):
        raise LimitError("depth", f"arrays and objects nest more than {LIMITS.depth} deep")
    return data


_FILLS: contextvars.ContextVar[FillBudget | None] = contextvars.ContextVar("fills", default=None)
"""The fills that the positions of the array being answered may still deal again."""


def _answer_array(questions: list[Any]) -> list[JSON]:
    """The answers to an array of questions, its ``legal_actions`` pages and its positions'
    fills bounded together."""
    token = _FILLS.set(FillBudget(LIMITS.array_fills))
    work = _WORK.set(WorkBudget(LIMITS.array_search_work))
    try:
        return _answer_each(questions)
    finally:
        _WORK.reset(work)
        _FILLS.reset(token)


def _answer_each(questions: list[Any]) -> list[JSON]:
    answers = []
    listed = 0
    written = 0  # the bytes of the answers so far, as compact JSON
    for question in questions:
        if written >= LIMITS.array_answer_bytes:
            error = LimitError(
                "array_answer_bytes",
                f"the answers to the questions before this one in the array hold {written} bytes",
            )
            answers.append({"protocol": PROTOCOL, "error": error.to_json()})
            continue
        asks_actions = isinstance(question, dict) and question.get("ask") == "legal_actions"
        if asks_actions and listed >= LIMITS.array_actions:
            error = LimitError(
                "array_actions",
                f"the questions before this one in the array listed {listed} legal actions, "
                "counting the moves checked against a promise",
            )
            answers.append({"protocol": PROTOCOL, "error": error.to_json()})
            continue
        # under a promise the listing checks each move by a search, the refused ones too: a
        # short page can cost hundreds of them, so they count as actions listed
        with promise_checks_counted() as checks:
            reply = _answer(question)
        if asks_actions:
            listed += checks.count
        if asks_actions and "actions" in reply:
            listed += reply["offset"] + len(reply["actions"])
        text = json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
        # an answer may echo half of a surrogate pair, valid in JSON (written as an escape)
        written += len(text.encode("utf-8", "surrogatepass"))
        answers.append(reply)
    return answers


def answer_json(text: str | bytes) -> tuple[Any, bool]:
    """Answer a JSON document holding one question or an array of them.

    ``text`` is a string, or bytes in UTF-8. Returns the answer (an object,
    or an array of objects) and whether every question was answered without
    an error. It never raises: text that is not JSON, or beyond the
    :class:`Limits`, gets an error answer.

    >>> answer_json('{"rules": "classic", "ask": "hand_value", "cards": "KS 5D"}')
    ({'protocol': 'hand-rummy/referee/1', 'points': 15}, True)
    >>> answer_json(b'{"rules": "classic", "ask": "meld", "id": NaN}')[0]["error"]["code"]
    'BAD_JSON'
    """
    try:
        data = _read_json(text)
        if isinstance(data, list):
            if len(data) > LIMITS.questions:
                raise LimitError("questions", f"the array holds {len(data)} questions")
            answers = _answer_array(data)
            return answers, all("error" not in a for a in answers)
    except QuestionError as err:
        return {"protocol": PROTOCOL, "error": err.to_json()}, False
    except Exception as err:  # the contract again: no text is answered by a crash
        message = f"the referee failed on this text ({_describe(err)}); please report it"
        error = {"code": "INTERNAL_ERROR", "message": _clip(message, 1000)}
        return {"protocol": PROTOCOL, "error": error}, False
    single = _answer(data)
    return single, "error" not in single
