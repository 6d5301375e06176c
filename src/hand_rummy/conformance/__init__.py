"""The conformance kit: rules questions with answers worked out by hand, for any referee.

The vectors ship inside the package as JSON files, one per theme (``levant``,
``romme``, ``gulf``, ``app``, ``melds``, ``openings``, ``layoffs``, ``scoring``,
``errors``, ``rounds``, ``positions``: :func:`files`). Each vector is a question
in the referee's format (:mod:`hand_rummy.referee`), the fields of the answer
that matter, and the source the answer was derived from: a rule document and
its section, or the default reading of an ambiguity in RULES-MATRIX §3. No
expected value was copied from this library's output.

:func:`run` puts every vector to a referee and compares. The referee is this
library's own :func:`~hand_rummy.referee.answer` unless another is given: a
Python function from a list of questions to a list of answers, or, through
:func:`command_referee`, any program that reads a JSON array of questions on
standard input and writes the JSON array of its answers on standard output
(``hand-rummy judge`` does exactly that). ``hand-rummy conformance`` is the
command-line face.

>>> report = run(rules="gulf")
>>> report.passed == report.total > 0
True
>>> print(report.table().splitlines()[0])
file      vectors  passed  failed
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

import attrs

from hand_rummy.errors import InvalidStateError
from hand_rummy.referee import LIMITS, answer
from hand_rummy.rules.presets import PRESETS

__all__ = [
    "MAX_OUTPUT",
    "MAX_TIMEOUT",
    "FileResult",
    "Report",
    "Vector",
    "command_referee",
    "compare",
    "files",
    "run",
    "timeout_problem",
    "vectors",
]

JSON = Any
Referee = Callable[[list[JSON]], list[JSON]]
"""Answers a list of questions, in order."""


@attrs.frozen
class Vector:
    """One case: a question, the fields of the answer that matter, and where they come from."""

    file: str
    name: str
    source: str
    question: JSON
    expect: dict[str, JSON]

    @property
    def rules(self) -> str | None:
        """The preset the question is asked under (its ``rules``, or its round's); ``None`` for
        a question that names none (or is not even an object)."""
        if not isinstance(self.question, dict):
            return None
        rules = self.question.get("rules")
        if isinstance(rules, str):
            return rules
        document = self.question.get("round") or self.question.get("position")
        if isinstance(document, dict):
            preset = document.get("rules", {}).get("preset")
            return preset if isinstance(preset, str) else None
        return None


def files() -> tuple[str, ...]:
    """The names of the vector files, sorted (``app``, ``errors``, ...)."""
    folder = resources.files(__name__).joinpath("vectors")
    return tuple(
        sorted(f.name[: -len(".json")] for f in folder.iterdir() if f.name.endswith(".json"))
    )


def vectors(rules: str | None = None, file: str | None = None) -> list[Vector]:
    """Every vector, in file order; only those asked under the preset ``rules``, or of ``file``."""
    if file is not None and file not in files():
        raise InvalidStateError(f"no vector file {file!r}; the files are {', '.join(files())}")
    found = []
    for name in files() if file is None else (file,):
        path = resources.files(__name__).joinpath("vectors").joinpath(f"{name}.json")
        found += _read(name, path.read_bytes())
    if rules is not None:
        # a negative vector may name rules that do not exist, to be refused: not a preset
        known = {name for name in PRESETS if any(v.rules == name for v in found)}
        if rules not in known:
            presets = ", ".join(sorted(known))
            raise InvalidStateError(f"no vectors for rules {rules!r}; there are some for {presets}")
        found = [v for v in found if v.rules == rules]
    return found


_KEYS = ("name", "source", "question", "expect")


def _read(name: str, data: bytes) -> list[Vector]:
    """The vectors of the file ``name``, or :class:`~hand_rummy.errors.InvalidStateError`
    saying what is wrong with it (a damaged file is an error, not a traceback).

    >>> _read("mine", b'[{"name": "n", "source": "s", "question": {}}]')
    Traceback (most recent call last):
    ...
    hand_rummy.errors.InvalidStateError: vector file mine.json, vector 0: needs name, ...
    """
    try:
        cases = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise InvalidStateError(f"vector file {name}.json is not JSON: {error}") from error
    if not isinstance(cases, list):
        raise InvalidStateError(f"vector file {name}.json is not a JSON array of vectors")
    found = []
    for index, case in enumerate(cases):
        where = f"vector file {name}.json, vector {index}"
        if not isinstance(case, dict) or sorted(case) != sorted(_KEYS):
            has = ", ".join(sorted(case)) if isinstance(case, dict) else type(case).__name__
            raise InvalidStateError(
                f"{where}: needs name, source, question and expect (and no other field); "
                f"it has {has}"
            )
        if not (
            isinstance(case["name"], str)
            and isinstance(case["source"], str)
            and isinstance(case["expect"], dict)
            and case["expect"]
        ):
            raise InvalidStateError(
                f"{where}: name and source are strings and expect a non-empty object"
            )
        found.append(Vector(name, case["name"], case["source"], case["question"], case["expect"]))
    return found


def _same(want: JSON, got: JSON) -> bool:
    """Equality of JSON values, where ``true`` is not ``1`` and ``false`` is not ``0`` (as
    Python's ``==`` has it): a referee that writes ``"ok": 1`` does not speak the protocol.

    >>> _same({"ok": True, "scores": [0, 1]}, {"ok": True, "scores": [0, 1]})
    True
    >>> _same(True, 1), _same([0], [False]), _same(24, 24.0)
    (False, False, True)
    """
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(want, bool) and isinstance(got, bool) and want == got
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_same(w, g) for w, g in zip(want, got))
    if isinstance(want, dict) and isinstance(got, dict):
        return want.keys() == got.keys() and all(_same(want[k], got[k]) for k in want)
    if isinstance(want, (list, dict)) or isinstance(got, (list, dict)):
        return False
    return bool(want == got)


def _field(reply: JSON, key: str) -> JSON:
    """The part of an answer that an ``expect`` key names."""
    if not isinstance(reply, dict):
        return None
    if key == "codes":
        violations = reply.get("violations")
        if not isinstance(violations, list):
            return None
        codes = [v.get("code") if isinstance(v, dict) else None for v in violations]
        # which codes an answer holds is the protocol's (docs/referee.rst, "Several
        # violations in one answer"); their order is one implementation's order of checks
        return sorted(codes, key=repr)
    if key == "error":
        error = reply.get("error")
        return error.get("code") if isinstance(error, dict) else None
    return reply.get(key)


def compare(vector: Vector, reply: JSON) -> list[str]:
    """How ``reply`` differs from what ``vector`` expects, one line per field (none: a pass).

    ``codes`` stands for the violation codes, compared as a multiset (in any order, each
    as often as expected), ``error`` for the code of an error answer; any other key is a
    field of the answer.
    """
    wrong = []
    for key, expected in vector.expect.items():
        got = _field(reply, key)
        want = (
            sorted(expected, key=repr)
            if key == "codes" and isinstance(expected, list)
            else expected
        )
        if not _same(want, got):
            wrong.append(f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}")
    return wrong


MAX_TIMEOUT = 86_400.0
"""The longest timeout a referee program may be given for one batch, in seconds (a day):
longer ones overflow the clock that waits for it."""

MAX_OUTPUT = 64 * 2**20
"""The most a referee program may write to standard output for one batch, in bytes. This
library's answers to a batch take at most :attr:`~hand_rummy.referee.Limits.array_answer_bytes`
(4 MiB) and one answer more; a program past 64 MiB is stopped and the batch fails."""


def command_referee(command: Sequence[str], timeout: float = 60.0) -> Referee:
    """A referee that is a program: the questions go to its standard input as one JSON
    array, and its standard output must be the JSON array of the answers, in order.

    A program that fails, runs longer than ``timeout`` seconds (at most
    :data:`MAX_TIMEOUT`), writes more than :data:`MAX_OUTPUT` bytes or answers
    something else raises :class:`~hand_rummy.errors.InvalidStateError`, and
    :func:`run` fails every vector of that batch with the reason.
    """
    program = list(command)
    if not program or not all(isinstance(part, str) for part in program):
        raise InvalidStateError("the referee command is a non-empty list of strings")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise InvalidStateError(f"the timeout is a number of seconds, not {timeout!r}")
    problem = timeout_problem(timeout)
    if problem:
        raise InvalidStateError(f"the timeout {problem}")

    def ask(questions: list[JSON]) -> list[JSON]:
        data = json.dumps(questions, ensure_ascii=False).encode("utf-8")
        status, output, said = _run(program, data, timeout)
        try:
            answers = json.loads(output.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            # RecursionError: arrays nested thousands deep, which json cannot read either
            shown = f" (exit status {status})" if status else ""
            raise InvalidStateError(f"the output is not JSON{shown}: {error}{said}") from error
        if not isinstance(answers, list) or len(answers) != len(questions):
            raise InvalidStateError(
                f"expected a JSON array of {len(questions)} answers, got "
                + (f"{len(answers)}" if isinstance(answers, list) else type(answers).__name__)
            )
        return answers

    return ask


def timeout_problem(timeout: float) -> str | None:
    """What is wrong with ``timeout`` (seconds) as a referee program's timeout, or ``None``."""
    if not (math.isfinite(timeout) and timeout > 0):
        # subprocess would time out at once (0, negative) or fail inside (nan, inf)
        return f"must be a positive, finite number of seconds, not {timeout:g}"
    if timeout > MAX_TIMEOUT:
        return f"is at most {MAX_TIMEOUT:g} seconds (a day), not {timeout:g}"
    return None


_TOO_MUCH = f"the referee wrote more than {MAX_OUTPUT:,} bytes for one batch (MAX_OUTPUT)"

_CHECK_EVERY = 0.2
"""How often, in seconds, the output of a running referee program is measured."""


def _run(program: list[str], data: bytes, timeout: float) -> tuple[int, bytes, str]:
    """Run ``program`` on ``data``: its exit status, its standard output, and the end of its
    standard error worded for a message. Its output goes to files, measured as it grows,
    so that a program that writes without end is stopped at :data:`MAX_OUTPUT`."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            process = subprocess.Popen(program, stdin=subprocess.PIPE, stdout=out, stderr=err)
        except OSError as error:
            raise InvalidStateError(f"cannot run {program[0]}: {error.strerror}") from error
        with process:
            deadline = time.monotonic() + timeout
            sent: bytes | None = data  # the questions go in once; a retry only waits
            while True:
                left = deadline - time.monotonic()
                try:
                    process.communicate(sent, timeout=max(0.0, min(_CHECK_EVERY, left)))
                    break
                except subprocess.TimeoutExpired:
                    sent = None
                    if os.fstat(out.fileno()).st_size > MAX_OUTPUT:
                        process.kill()
                        raise InvalidStateError(_TOO_MUCH) from None
                    if left <= 0:
                        process.kill()
                        raise InvalidStateError(f"no answer within {timeout:g} s") from None
        if os.fstat(out.fileno()).st_size > MAX_OUTPUT:
            raise InvalidStateError(_TOO_MUCH)
        out.seek(0)
        output = out.read()
        err.seek(max(0, os.fstat(err.fileno()).st_size - 4096))
        return process.returncode, output, _said(err.read())


def _said(stderr: bytes, limit: int = 300) -> str:
    """The end of what a referee program wrote to standard error, to show with a failure
    (a program that cannot start, say, tells why there), or nothing."""
    text = stderr.decode("utf-8", "backslashreplace").strip()
    if not text:
        return ""
    return "; it wrote to standard error: " + (text if len(text) <= limit else "…" + text[-limit:])


def _own(questions: list[JSON]) -> list[JSON]:
    return [answer(question) for question in questions]


@attrs.frozen
class FileResult:
    """The outcome of one vector file: each failure is (vector, what differed)."""

    file: str
    total: int
    failures: tuple[tuple[Vector, tuple[str, ...]], ...]

    @property
    def passed(self) -> int:
        return self.total - len(self.failures)


@attrs.frozen
class Report:
    """The outcome of a run, file by file."""

    files: tuple[FileResult, ...]

    @property
    def total(self) -> int:
        return sum(f.total for f in self.files)

    @property
    def passed(self) -> int:
        return sum(f.passed for f in self.files)

    @property
    def ok(self) -> bool:
        return self.passed == self.total

    def table(self) -> str:
        """A pass/fail table, one row per file, then the totals."""
        width = max([len("file"), len("total")] + [len(f.file) for f in self.files])
        rows = [f"{'file':<{width}}  vectors  passed  failed"]
        for f in self.files:
            rows.append(f"{f.file:<{width}}  {f.total:7}  {f.passed:6}  {len(f.failures):6}")
        rows.append(
            f"{'total':<{width}}  {self.total:7}  {self.passed:6}  {self.total - self.passed:6}"
        )
        return "\n".join(rows)


def run(referee: Referee | None = None, *, rules: str | None = None) -> Report:
    """Put every vector (of the preset ``rules`` only, if given) to ``referee`` and compare.

    Questions go in batches of at most the referee's question limit
    (:data:`~hand_rummy.referee.limits.LIMITS`), one file at a time.
    """
    ask = _own if referee is None else referee
    chosen = vectors(rules)
    results = []
    for name in dict.fromkeys(v.file for v in chosen):
        cases = [v for v in chosen if v.file == name]
        failures: list[tuple[Vector, tuple[str, ...]]] = []
        for start in range(0, len(cases), LIMITS.questions):
            batch = cases[start : start + LIMITS.questions]
            try:
                replies = ask([v.question for v in batch])
            except InvalidStateError as error:
                failures += [(v, (f"no answer: {error}",)) for v in batch]
                continue
            for vector, reply in zip(batch, replies):
                wrong = compare(vector, reply)
                if wrong:
                    failures.append((vector, tuple(wrong)))
        results.append(FileResult(name, len(cases), tuple(failures)))
    return Report(tuple(results))
