"""Fuzz the referee through ``hand-rummy judge``: mutated and crafted questions, counted by
answer code, with the slowest and the most memory-hungry ones, and every crash.

Each input is run through the command itself, in this process (``cli.main(["judge",
"--compact"])`` with standard input and output replaced by UTF-8 byte streams, as on a
terminal), so reading bytes, parsing, answering and printing are all exercised. An input
counts as a failure when ``main`` raises, runs longer than ``--timeout``, exits with a status
other than 0 (no error answer) or 2 (some error answer, as documented), or prints anything
but one valid JSON value (``NaN`` and ``Infinity`` are not JSON). An ``INTERNAL_ERROR``
answer is a failure too: it means that the referee hit a bug.

The inputs are:

* mutations of the questions of the conformance vectors (``hand_rummy.conformance``) and
  of round questions (``action``, ``legal_actions``) on random positions of every preset:
  values replaced by odd ones (wrong types, huge or negative numbers, digit-like strings,
  lone surrogates, NaN), fields dropped, added or swapped, lists multiplied, the text cut,
  spliced or given bytes that are not UTF-8;
* crafted questions, each scaled at random: melds of up to a million cards, thousands of
  seats in teams, long Gulf histories, deep nesting, long integers, the hands of
  ``benchmarks/worst_cases.py`` asked for their legal actions at random offsets.

Run it on another copy of the library with ``PYTHONPATH=/path/to/src``.

    python benchmarks/fuzz_referee.py [--seconds 120] [--count N] [--seed 0] [--timeout 10]
"""

from __future__ import annotations

import argparse
import collections
import copy
import heapq
import io
import json
import random
import re
import resource
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import hand_rummy as hr
from hand_rummy import cli
from hand_rummy.serialize import action_to_json, round_to_json

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "src" / "hand_rummy" / "conformance" / "vectors"

FIELDS = [
    "rules", "variants", "indicator", "ask", "id", "note", "cards", "roles", "demoted",
    "melds", "required", "last_opening", "context", "meld", "card_roles", "players",
    "went_out", "finish", "melded", "last_discard", "teams", "round", "action", "offset",
    "limit", "hand", "opened", "type", "target", "card", "role", "announce", "history",
    "deal", "state", "format", "version", "seed", "dealer", "going_out",
]  # fmt: skip

ATOMS: list[Any] = [
    None, True, False, 0, 1, -1, 2, 3, 4, 13, 52, 107, 108, 109, 1000, 2**31, 2**63,
    -(2**63), 10**30, 0.5, -0.0, 1e300, "", " ", "x", "²", "١", "false", "true", "null",
    "0", "01", "-1", "1e3", "10H", "JK", "8C", "AC", "KS", "1OH", "7H 8H 9H", "7H,8H,9H",
    "\ud800", "\x00", "♥", "10♥", "K♠", "jk", "draw", "discard", "lay_down", "lay_off",
    "exchange", "take", "hand", "normal", "meld", "opening", "round_score", "hand_value",
    "legal_actions", "action", "levant", "romme", "gulf", "classic", "partnership", "saudi",
    "saudi_partnership", "hand-rummy/round", "x" * 300,
]  # fmt: skip

CONTAINERS: list[Any] = [
    [], {}, [[]], [{}], {"type": []}, {"type": {}}, {"type": "draw"}, {"": None},
    {"0": "8H"}, {"²": "8H"}, {"1" + "0" * 5000: "8H"}, [0, 0], [-1], [True], [[0], [1]],
    [[False], [True]], [[0]], ["7H"] * 3, ["JK"] * 8, {"going_out": "false"},
    {"hand": 1, "going_out": None}, {"hand": [], "opened": "yes"}, [None], [[None]],
    {"cards": "7H 8H 9H"}, {"preset": "gulf"}, [1.5],
]  # fmt: skip

ASK_NAMES = [
    "meld", "opening", "hand_value", "layoff", "exchange", "round_score", "action",
    "legal_actions",
]  # fmt: skip

# markers that survive json.dumps and are then replaced by text that json.dumps cannot write
TOKENS = {
    "NAN": "NaN",
    "INF": "Infinity",
    "NINF": "-Infinity",
    "BIGFLOAT": "1e999",
    "BIGINT": "9" * 5000,
    "LONGINT": "1" * 400,
    "DEEP": "[" * 10_000 + "]" * 10_000,
    "DEEPOBJ": '{"a":' * 3000 + "1" + "}" * 3000,
}


def _token(name: str) -> str:
    return f"\x01{name}\x01"


def _encode(value: Any, ascii: bool = True) -> bytes:
    """JSON text; a lone surrogate is written as an escape (``ascii``) or as raw bytes, which
    are not UTF-8."""
    text = json.dumps(value, ensure_ascii=ascii)
    for name, raw in TOKENS.items():
        text = text.replace(json.dumps(_token(name), ensure_ascii=ascii), raw)
    return text.encode("utf-8", "surrogatepass")


# --- seeds -------------------------------------------------------------------------------


def conformance_questions() -> list[tuple[str, Any]]:
    seeds = []
    for path in sorted(VECTORS.glob("*.json")):
        for i, case in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            seeds.append((f"{path.stem}#{i}", case["question"]))
    return seeds


def round_questions(rng: random.Random, per_preset: int = 3) -> list[tuple[str, Any]]:
    """``action`` and ``legal_actions`` questions on positions of random legal play."""
    seeds = []
    for preset in hr.PRESETS:
        ruleset = hr.build(preset)
        for n in range(per_preset):
            players = rng.randint(ruleset.players.minimum, ruleset.players.maximum)
            game = hr.Round.deal(ruleset, players, seed=rng.randrange(10**6))
            for _ in range(rng.randrange(60)):
                if game.is_over:
                    break
                game = game.apply(rng.choice(list(game.legal_actions())))
            doc = round_to_json(game)
            if rng.random() < 0.5:
                del doc["state"]
            actions = [] if game.is_over else list(game.legal_actions())
            action = action_to_json(rng.choice(actions)) if actions else {"type": "draw"}
            seeds.append((f"{preset}-round#{n}", {"ask": "legal_actions", "round": doc}))
            seeds.append(
                (f"{preset}-action#{n}", {"ask": "action", "round": doc, "action": action})
            )
    return seeds


# --- mutations ---------------------------------------------------------------------------


def _slots(value: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key) below ``value``, so a mutation can pick one."""
    if isinstance(value, dict):
        for key in value:
            out.append((value, key))
            _slots(value[key], out)
    elif isinstance(value, list):
        for index in range(len(value)):
            out.append((value, index))
            _slots(value[index], out)
    return out


def random_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(ATOMS)
    if roll < 0.7:
        return copy.deepcopy(rng.choice(CONTAINERS))
    if roll < 0.72:
        return _token(rng.choice(list(TOKENS)))
    if roll < 0.85:
        return rng.choice([c.ascii for c in hr.CARDS])
    if depth < 2 and roll < 0.93:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if depth < 2:
        return {rng.choice(FIELDS): random_value(rng, depth + 1) for _ in range(rng.randrange(3))}
    return rng.randint(-3, 60)


def mutate_value(question: Any, rng: random.Random) -> Any:
    question = copy.deepcopy(question)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        slots = _slots(question, [])
        op = rng.random()
        if not slots or op < 0.05:
            if isinstance(question, dict):
                question[rng.choice(FIELDS)] = random_value(rng)
            continue
        holder, key = rng.choice(slots)
        if op < 0.45:
            holder[key] = random_value(rng)
        elif op < 0.55 and isinstance(holder, dict):
            del holder[key]
        elif op < 0.62 and isinstance(holder, dict):
            holder[rng.choice(FIELDS)] = random_value(rng)
        elif op < 0.7 and isinstance(holder[key], list):
            # repeated references: a later mutation of one element changes every copy
            holder[key] = holder[key] * rng.choice((2, 3, 10, 100, 1000))
        elif op < 0.75 and isinstance(holder[key], list) and holder[key]:
            holder[key] = holder[key][: rng.randrange(len(holder[key]))]
        elif op < 0.8 and isinstance(holder[key], int) and not isinstance(holder[key], bool):
            holder[key] = rng.choice((holder[key] + 1, holder[key] - 1, -holder[key], 10**12))
        elif op < 0.85:
            holder[key] = rng.choice(([holder[key]], {"x": holder[key]}))
        elif op < 0.9 and isinstance(holder[key], list) and holder[key]:
            if all(isinstance(v, str) for v in holder[key]):
                holder[key] = " ".join(holder[key])
        elif op < 0.95 and isinstance(question, dict):
            question["ask"] = rng.choice(ASK_NAMES)
        else:
            # copies: one of the two may hold the other, and a swap would make a cycle
            other_holder, other_key = rng.choice(slots)
            mine, other = copy.deepcopy(holder[key]), copy.deepcopy(other_holder[other_key])
            holder[key], other_holder[other_key] = other, mine
    return question


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data) + 1)
    op = rng.random()
    if op < 0.25:
        return data[:at]
    if op < 0.5:
        junk = rng.choice([b"\xff", b"\x00", b"\x80", b'"', b"[", b"{", b",", b":", b"\\", b"]"])
        return data[:at] + junk + data[at:]
    if op < 0.65:
        return data[:at] + data[at + rng.randrange(1, 20) :]
    if op < 0.8:
        end = min(len(data), at + rng.randrange(1, 200))
        return data[:end] + data[at:end] * rng.choice((2, 10, 1000)) + data[end:]
    if op < 0.9:
        return b"\xef\xbb\xbf" + data
    return data[:at] + rng.choice([b"NaN", b"-Infinity", b"1e999", b"9" * 5000]) + data[at:]


# --- crafted questions ----------------------------------------------------------------------


class Crafter:
    """Questions built to be expensive, each scaled at random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._gulf: list[Any] | None = None
        self._gulf_deal: Any = None
        self._worst: dict[str, Any] = {}

    def meld(self) -> tuple[str, Any]:
        n = self.rng.choice((200, 10_000, 100_000, 1_000_000))
        faces = [c.ascii for c in hr.CARDS]
        cards = [faces[(i * 7) % len(faces)] for i in range(n)]
        body = cards if self.rng.random() < 0.5 else " ".join(cards)
        return f"meld of {n} cards", {"rules": "romme", "ask": "meld", "cards": body}

    def opening(self) -> tuple[str, Any]:
        n = self.rng.choice((40, 1000, 20_000))
        melds = [["7H", "8H", "9H"]] * n
        return f"opening of {n} melds", {"rules": "romme", "ask": "opening", "melds": melds}

    def teams(self) -> tuple[str, Any]:
        n = self.rng.choice((6, 100, 5_000, 40_000))
        players = [{"hand": [], "opened": True}] + [{"hand": ["KS"], "opened": False}] * (n - 1)
        question = {
            "rules": "saudi_partnership",
            "ask": "round_score",
            "went_out": 0,
            "players": players,
            "teams": [[*range(1, n), 0]],
        }
        return f"round_score with {n} seats in one team", question

    def hand_value(self) -> tuple[str, Any]:
        n = self.rng.choice((10, 1000, 200_000))
        return f"hand_value of {n} cards", {
            "rules": "gulf",
            "ask": "hand_value",
            "cards": ["KS"] * n,
        }

    def gulf_history(self) -> tuple[str, Any]:
        if self._gulf is None:
            game = hr.Round.deal(hr.rulesets.gulf, 4, seed=0)
            top = None
            while len(game.history) < 20_000:
                if game.phase is hr.Phase.DRAW:
                    top = game.stock[-1]
                    game = game.apply(hr.DrawStock())
                elif game.phase is hr.Phase.PLAY and top is not None:
                    game = game.apply(hr.Discard(top))
                else:
                    game = game.apply(hr.PassRedeal())
            doc = round_to_json(game)
            del doc["state"]
            self._gulf, self._gulf_deal = doc["history"], doc
        n = self.rng.choice((2_000, 5_000, 5_001, 10_000, 20_000))
        # a history that ends after a discard, so the action question asks about a draw
        doc = {**self._gulf_deal, "history": self._gulf[: n - n % 2]}
        question = {"ask": "action", "round": doc, "action": {"type": "draw"}}
        return f"Gulf history of {n - n % 2} moves", question

    def legal_actions(self) -> tuple[str, Any]:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import worst_cases  # noqa: PLC0415 (a sibling script, loaded only when needed)

        name = self.rng.choice(sorted(worst_cases.CASES))
        if name not in self._worst:
            self._worst[name] = round_to_json(worst_cases.position(*worst_cases.CASES[name]))
        question: dict[str, Any] = {"ask": "legal_actions", "round": self._worst[name]}
        label = f"legal_actions on {name}"
        if self.rng.random() < 0.6:
            question["offset"] = self.rng.choice((0, 1000, 2000, 2999, 5000, 60_000))
            question["limit"] = self.rng.choice((0, 1, 100, 1000, 1001))
            label += f" offset {question['offset']} limit {question['limit']}"
        return label, question

    def nesting(self) -> tuple[str, bytes]:
        n = self.rng.choice((33, 100, 10_000, 1_000_000))
        opener, closer = self.rng.choice((("[", "]"), ('{"a":', "}")))
        inner = "1" if opener != "[" else ""
        return f"{n} nested {opener}", (opener * n + inner + closer * n).encode()

    def integer(self) -> tuple[str, bytes]:
        n = self.rng.choice((41, 5_000, 1_000_000))
        text = '{"rules": "classic", "ask": "hand_value", "cards": [], "id": ' + "7" * n + "}"
        return f"an integer of {n} digits", text.encode()

    def big_text(self) -> tuple[str, bytes]:
        n = self.rng.choice((1_048_577, 5_000_000))
        text = '{"rules": "classic", "ask": "hand_value", "cards": [], "note": "' + "x" * n + '"}'
        return f"a question of {len(text)} bytes", text.encode()

    def many_questions(self) -> tuple[str, bytes]:
        n = self.rng.choice((1000, 1001, 20_000))
        one = {"rules": "classic", "ask": "hand_value", "cards": ["KS"]}
        return f"an array of {n} questions", json.dumps([one] * n).encode()

    def make(self) -> tuple[str, bytes]:
        kinds: list[Callable[[], tuple[str, Any]]] = [
            self.meld, self.opening, self.teams, self.hand_value, self.gulf_history,
            self.legal_actions, self.nesting, self.integer, self.big_text,
            self.many_questions,
        ]  # fmt: skip
        label, question = self.rng.choice(kinds)()
        data = question if isinstance(question, bytes) else _encode(question)
        return f"crafted: {label}", data


def inputs(rng: random.Random, seeds: list[tuple[str, Any]]) -> Iterator[tuple[str, bytes]]:
    crafter = Crafter(rng)
    while True:
        roll = rng.random()
        if roll < 0.03:
            yield crafter.make()
            continue
        name, question = rng.choice(seeds)
        if roll < 0.08:
            yield f"seed: {name}", _encode(question)
            continue
        data = _encode(mutate_value(question, rng), ascii=rng.random() < 0.9)
        if rng.random() < 0.2:
            data = mutate_bytes(data, rng)
        yield f"mutated: {name}", data


# --- running --------------------------------------------------------------------------------


class Timeout(BaseException):
    """Raised by the alarm; a BaseException so that the referee's own handlers let it by."""


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout


class Outcome:
    def __init__(self, codes: list[str], status: int, problem: str | None, out_bytes: int):
        self.codes, self.status, self.problem, self.out_bytes = codes, status, problem, out_bytes


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} in the output")


def judge(data: bytes, timeout: float) -> Outcome:
    """Run ``hand-rummy judge --compact`` on ``data``; what it answered and any problem."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    raw_out, raw_err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(raw_out, encoding="utf-8", newline="\n")
    stderr = io.TextIOWrapper(raw_err, encoding="utf-8", errors="backslashreplace")
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        status = cli.main(["judge", "--compact"])
    except Timeout:
        return Outcome([], -1, "timeout", 0)
    except BaseException as err:  # a crash is what we count
        frame = traceback.extract_tb(err.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return Outcome([], -1, f"crash: {type(err).__name__} at {where}: {err}"[:300], 0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdin, sys.stdout, sys.stderr = saved
        stdout.flush()
    out = raw_out.getvalue()
    try:
        reply = json.loads(out.decode("utf-8"), parse_constant=_reject_constant)
    except ValueError as err:
        return Outcome([], status, f"invalid output: {err}"[:300], len(out))
    replies = reply if isinstance(reply, list) else [reply]
    codes = []
    for one in replies:
        if not isinstance(one, dict):
            return Outcome([], status, "an answer that is not an object", len(out))
        error = one.get("error")
        codes.append(error.get("code", "?") if isinstance(error, dict) else "answer")
    erred = any(code != "answer" for code in codes)
    if status != (2 if erred else 0):
        return Outcome(codes, status, f"exit status {status} with codes {codes[:5]}", len(out))
    if "INTERNAL_ERROR" in codes:
        messages = [r["error"]["message"] for r in replies if "error" in r]
        internal = next(m for m in messages if "referee failed" in m)
        return Outcome(codes, status, f"INTERNAL_ERROR: {internal}"[:300], len(out))
    return Outcome(codes, status, None, len(out))


def _kind(problem: str) -> str:
    """A problem without the details that vary from input to input, to count alike ones."""
    if problem.startswith("crash"):
        return ": ".join(problem.split(": ", 2)[:2])
    if problem.startswith("INTERNAL_ERROR"):
        return re.sub(r"'[^']*'|\d+", "…", problem)[:140]
    return problem.split(":", 1)[0]


def _max_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="run this long (default 60)")
    parser.add_argument("--count", type=int, help="stop after this many inputs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per input")
    parser.add_argument("--top", type=int, default=10, help="slowest inputs to list")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    rng = random.Random(args.seed)
    seeds = conformance_questions() + round_questions(rng)
    codes: collections.Counter[str] = collections.Counter()
    problems: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    slowest: list[tuple[float, int, str, int, str]] = []
    memory: list[tuple[float, str, int]] = []
    count = 0
    start = time.perf_counter()
    for label, data in inputs(rng, seeds):
        if time.perf_counter() - start > args.seconds or count == args.count:
            break
        count += 1
        rss_before = _max_rss_mib()
        began = time.perf_counter()
        outcome = judge(data, args.timeout)
        seconds = time.perf_counter() - began
        rise = _max_rss_mib() - rss_before
        codes.update(outcome.codes or ["(none)"])
        first = outcome.codes[0] if outcome.codes else outcome.problem or "?"
        if outcome.problem is not None:
            key = _kind(outcome.problem)
            problems[key] += 1
            examples.setdefault(key, f"{label}: {data[:160]!r}")
        entry = (seconds, len(data), label, outcome.out_bytes, first[:40])
        if len(slowest) < args.top:
            heapq.heappush(slowest, entry)
        else:
            heapq.heappushpop(slowest, entry)
        if rise > 1:
            memory.append((rise, label, len(data)))
    elapsed = time.perf_counter() - start
    print(f"{count:,} inputs in {elapsed:.0f} s ({count / elapsed:.0f}/s), seed {args.seed}")
    print("\nanswer codes (an array counts each of its answers):")
    for code, n in codes.most_common():
        print(f"  {code:<24}{n:>8,}")
    print(f"\nfailures: {sum(problems.values())}")
    for key, n in problems.most_common():
        print(f"  {n:>6} × {key}\n         e.g. {examples[key]}")
    print(f"\nslowest {args.top}:")
    for seconds, size, label, out, first in sorted(slowest, reverse=True):
        print(f"  {seconds:7.3f} s  in {size:>10,} B  out {out:>11,} B  {first:<16} {label[:90]}")
    print(f"\nmax RSS: {_max_rss_mib():.0f} MiB")
    for rise, label, size in sorted(memory, reverse=True)[:5]:
        print(f"  +{rise:.0f} MiB on {label[:90]} ({size:,} B)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
