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

The package has a module for the protocol's limits and errors (:mod:`.limits`), one for
reading a question's fields and writing the parts of an answer (:mod:`.question`), one
for the questions themselves (:mod:`.asks`) and one for reading JSON text within the
limits (:mod:`.bounded_json`); this module answers a question or an array of them, and
holds every public name.

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
import json
import math
from typing import Any

from hand_rummy.errors import HandRummyError, WorkLimitError, error_text
from hand_rummy.position import FillBudget
from hand_rummy.referee.asks import ASKS, FILLS, ROUND_ASKS
from hand_rummy.referee.bounded_json import read_json
from hand_rummy.referee.limits import (
    JSON,
    LIMITS,
    PROTOCOL,
    LimitError,
    Limits,
    QuestionError,
    clip,
)
from hand_rummy.referee.question import field, name_of, question_rules
from hand_rummy.turn_rules.gates import promise_checks_counted
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
    return clip(error_text(err), 900)


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
        ask = field(question, "ask", str)
        round_handler = ROUND_ASKS.get(ask)
        handler = ASKS.get(ask)
        if round_handler is None and handler is None:
            known = ", ".join([*ASKS, *ROUND_ASKS])
            raise QuestionError("UNKNOWN_ASK", f"unknown ask {name_of(ask)}; known: {known}")
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
                    result = handler(question, question_rules(question))
        except WorkLimitError:
            raise _work_refused(allowed, shared) from None
        finally:
            if shared is not None:
                shared.spent += work.spent
    except QuestionError as err:
        result = {"error": err.to_json()}
    except HandRummyError as err:
        result = {"error": {"code": type(err).__name__, "message": clip(str(err), 1000)}}
    except Exception as err:  # the contract: a question is never answered by a crash
        message = f"the referee failed on this question ({_describe(err)}); please report it"
        result = {"error": {"code": "INTERNAL_ERROR", "message": clip(message, 1000)}}
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


def _answer_array(questions: list[Any]) -> list[JSON]:
    """The answers to an array of questions, its ``legal_actions`` pages and its positions'
    fills bounded together."""
    token = FILLS.set(FillBudget(LIMITS.array_fills))
    work = _WORK.set(WorkBudget(LIMITS.array_search_work))
    try:
        return _answer_each(questions)
    finally:
        _WORK.reset(work)
        FILLS.reset(token)


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
        data = read_json(text)
        if isinstance(data, list):
            if len(data) > LIMITS.questions:
                raise LimitError("questions", f"the array holds {len(data)} questions")
            answers = _answer_array(data)
            return answers, all("error" not in a for a in answers)
    except QuestionError as err:
        return {"protocol": PROTOCOL, "error": err.to_json()}, False
    except Exception as err:  # the contract again: no text is answered by a crash
        message = f"the referee failed on this text ({_describe(err)}); please report it"
        error = {"code": "INTERNAL_ERROR", "message": clip(message, 1000)}
        return {"protocol": PROTOCOL, "error": error}, False
    single = _answer(data)
    return single, "error" not in single
