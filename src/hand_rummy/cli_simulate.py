"""``hand-rummy simulate``: many bot matches, in worker processes, summed up in one table.

The matches are independent: match ``i`` is dealt from a seed drawn from the
``--seed`` and played by bots seated by rotating the ``--bots`` list ``i``
places, so the summary does not depend on ``--jobs`` (only the timing does).

>>> settings = Settings("levant", (), 4, 3, ("greedy", "random"), 1, length=1)
>>> seats_for(settings, 0), seats_for(settings, 1)
(('greedy', 'random', 'greedy', 'random'), ('random', 'greedy', 'random', 'greedy'))
>>> mean_and_sd([1.0, 3.0])
(2.0, 1.4142135623730951)
"""

from __future__ import annotations

import concurrent.futures
import json
import math
import multiprocessing
import random
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

import attrs

from hand_rummy.errors import HandRummyError, UnknownRulesError
from hand_rummy.rules.match import MatchEnd
from hand_rummy.rules.presets import build
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.stock import StockEnd

if TYPE_CHECKING:
    from hand_rummy.bots import Bot

__all__ = [
    "BOT_NAMES",
    "MatchResult",
    "Settings",
    "Summary",
    "UsageError",
    "make_bot",
    "mean_and_sd",
    "play_one",
    "run",
    "seat_bots",
    "seats_for",
    "settings_from",
    "summarise",
]

BOT_NAMES = ("greedy", "random")
"""The bots the command line knows, by name."""


class UsageError(HandRummyError):
    """A command-line argument that cannot be used; the command exits 2 with its message."""


def make_bot(name: str, seed: int) -> Bot:
    """A fresh bot named ``name`` (one of :data:`BOT_NAMES`) seeded with ``seed``."""
    from hand_rummy import bots  # noqa: PLC0415 (only the commands that play need the bots)

    if name == "greedy":
        return bots.GreedyBot(seed=seed)
    if name == "random":
        return bots.RandomBot(seed=seed)
    raise UsageError(f"unknown bot {name!r}; the bots are {', '.join(BOT_NAMES)}")


def parse_bots(text: str, players: int, *, what: str = "--bots") -> tuple[str, ...]:
    """The bot names of a comma list: at most one per seat (a shorter list is repeated)."""
    names = tuple(n.strip().lower() for n in text.split(","))
    for name in names:
        if name not in BOT_NAMES:
            shown = name or "(empty)"
            known = ", ".join(BOT_NAMES)
            raise UsageError(f"{what}: unknown bot {shown!r}; the bots are {known}")
    if len(names) > players:
        raise UsageError(
            f"{what}: {len(names)} bots for {players} seats; give at most one name per seat "
            "(a shorter list is repeated round the table)"
        )
    return names


def seat_bots(names: Sequence[str], seats: int, turn: int = 0) -> tuple[str, ...]:
    """The bot at each of ``seats`` seats: ``names`` repeated round the table, turned by
    ``turn`` places.

    >>> seat_bots(("greedy", "random"), 3), seat_bots(("greedy", "random"), 3, turn=1)
    (('greedy', 'random', 'greedy'), ('random', 'greedy', 'random'))
    """
    return tuple(names[(seat + turn) % len(names)] for seat in range(seats))


def ruleset_for(rules: str, variants: Sequence[str], players: int) -> Ruleset:
    """The preset with its variants, checked against the number of players."""
    try:
        ruleset = build(rules, variants)
    except UnknownRulesError as err:
        raise UsageError(str(err)) from None
    if not ruleset.players.allows(players):
        allowed = ruleset.players.describe().rstrip(".")
        raise UsageError(f"--players {players}: {ruleset.title} is for {allowed}")
    return ruleset


def positive(value: int | None, option: str) -> None:
    if value is not None and value < 1:
        raise UsageError(f"{option} must be a positive number, not {value}")


@attrs.frozen
class Settings:
    """What to simulate; everything a worker process needs, and picklable."""

    rules: str
    variants: tuple[str, ...]
    players: int
    matches: int
    bots: tuple[str, ...]
    seed: int
    length: int | None = None


def settings_from(
    *,
    rules: str,
    variants: Sequence[str],
    players: int,
    matches: int,
    bots: str,
    seed: int,
    length: int | None,
    jobs: int,
) -> Settings:
    """Check the arguments of ``simulate``; raises :class:`UsageError` naming the bad one."""
    positive(players, "--players")
    positive(matches, "--matches")
    positive(length, "--rounds")
    positive(jobs, "--jobs")
    ruleset_for(rules, variants, players)
    names = parse_bots(bots, players)
    return Settings(rules, tuple(variants), players, matches, names, seed, length)


def seats_for(settings: Settings, index: int) -> tuple[str, ...]:
    """The bot in each seat for match ``index``: the list repeated round the table and turned
    by ``index`` places, so that every bot sits in every seat equally often."""
    return seat_bots(settings.bots, settings.players, index)


def match_seeds(seed: int, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(count)]


@attrs.frozen
class MatchResult:
    """What one match left for the summary."""

    index: int
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    hands: int
    stock_ends: int
    decisions: int


def fixed_rounds(ruleset: Ruleset, rounds: int | None) -> Ruleset:
    """``ruleset`` with matches of exactly ``rounds`` rounds (for quick runs), if given."""
    if rounds is None:
        return ruleset
    match = attrs.evolve(ruleset.match, end=MatchEnd.ROUNDS, length=rounds)
    return ruleset.with_(match=match)


def play_one(settings: Settings, index: int, seed: int) -> MatchResult:
    """Play match ``index`` from ``seed``; runs in a worker process (or in-process)."""
    from hand_rummy.match import Match  # noqa: PLC0415 (keeps ``judge`` and ``rules`` light)
    from hand_rummy.round import Ending  # noqa: PLC0415

    ruleset = build(settings.rules, settings.variants)
    seats = seats_for(settings, index)
    bots = [make_bot(name, seed * 31 + seat) for seat, name in enumerate(seats)]
    match = Match.new(fixed_rounds(ruleset, settings.length), settings.players, seed)
    decisions = 0
    while not match.is_over:
        game = match.current
        assert game is not None
        seat = game.turn
        action = bots[seat].choose(match.view(seat))
        match = match.apply(action)
        decisions += 1
    endings = [r.outcome.ending for r in match.rounds if r.outcome is not None]
    return MatchResult(
        index=index,
        seats=seats,
        totals=tuple(match.totals),
        winners=tuple(match.winners),
        rounds=len(match.rounds),
        hands=endings.count(Ending.HAND),
        stock_ends=endings.count(Ending.STOCK),
        decisions=decisions,
    )


def _play_task(task: tuple[Settings, int, int]) -> MatchResult:
    return play_one(*task)


# --- the summary ---------------------------------------------------------------------------


def mean_and_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than two values)."""
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(var)


@attrs.frozen
class BotLine:
    name: str
    seats: int
    wins: float
    win_rate: float
    mean_total: float
    sd_total: float


@attrs.frozen
class Summary:
    settings: Settings
    bots: tuple[BotLine, ...]
    matches: int
    rounds: int
    mean_rounds: float
    hand_rate: float
    stock_rate: float
    decisions: int
    seconds: float

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        s = self.settings
        return {
            "rules": s.rules,
            "variants": list(s.variants),
            "players": s.players,
            "matches": self.matches,
            "seed": s.seed,
            "rounds_override": s.length,
            "bots": {
                b.name: {
                    "seats": b.seats,
                    "wins": round(b.wins, 4),
                    "win_rate": round(b.win_rate, 4),
                    "mean_total": round(b.mean_total, 2),
                    "sd_total": round(b.sd_total, 2),
                }
                for b in self.bots
            },
            "rounds": self.rounds,
            "mean_rounds": round(self.mean_rounds, 3),
            "hand_rate": round(self.hand_rate, 4),
            "stock_rate": round(self.stock_rate, 4),
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "decisions_per_second": round(self.decisions_per_second, 1),
        }

    def table(self) -> str:
        s = self.settings
        title = s.rules + "".join(f"+{v}" for v in s.variants)
        length = f", {s.length} rounds each" if s.length is not None else ""
        lines = [
            f"{title}: {self.matches} matches of {s.players} players{length}, seed {s.seed}, "
            f"bots {','.join(s.bots)}",
            "",
            f"{'bot':<8} {'seats':>6} {'wins':>8} {'win %':>6} {'mean total':>11} {'sd':>8}",
        ]
        for b in self.bots:
            lines.append(
                f"{b.name:<8} {b.seats:>6} {_wins(b.wins):>8} {100 * b.win_rate:>6.1f} "
                f"{b.mean_total:>11.1f} {b.sd_total:>8.1f}"
            )
        lines += [
            "",
            f"rounds per match    {self.mean_rounds:.2f} ({self.rounds} rounds)",
            f"Hand finishes       {100 * self.hand_rate:.1f}% of rounds",
            f"ended by the stock  {100 * self.stock_rate:.1f}% of rounds",
            f"decisions           {self.decisions} in {self.seconds:.1f} s "
            f"({self.decisions_per_second:.0f}/s)",
        ]
        return "\n".join([*lines, "", *explain(self)])


def _wins(wins: float) -> str:
    """A count of wins: whole where it is whole, else with the shared wins' fractions."""
    return str(int(wins)) if float(wins).is_integer() else f"{wins:.2f}"


def explain(summary: Summary) -> list[str]:
    """What the summary's columns and lines mean, for someone who has never seen one."""
    from hand_rummy.rulebook import cite  # noqa: PLC0415 (only the text summary needs it)
    from hand_rummy.verdict import Topic  # noqa: PLC0415

    s = summary.settings
    ruleset = ruleset_for(s.rules, s.variants, s.players)
    stock = {
        StockEnd.UNSCORED: "those rounds were not scored, and the same dealer dealt again",
        StockEnd.SCORE_HANDS: "everyone then scored the cards left in hand",
        StockEnd.NO_CONTEST: "those rounds were a no-contest: every score was zero",
    }[ruleset.stock.end]
    hand = " ".join(c.text for c in cite(ruleset, Topic.SCORE_HAND))
    paragraphs = [
        "What it means: each bot played the number of seats under 'seats' (the seats rotate "
        "from match to match). 'wins' counts the matches it won (a win shared by several "
        "players is split between them) and 'win %' is that share of the matches. Scores are "
        "penalty points, so lower totals are better: 'mean total' is the bot's average match "
        "total and 'sd' how much it varies from match to match.",
        "A Hand finish is going out in a single turn, having laid nothing down before in the "
        f"round. {hand}",
        "A round ended by the stock ran out of cards to draw before anyone went out; under "
        f"these rules {stock}.",
    ]
    return [line for text in paragraphs for line in [*textwrap.wrap(text, 88), ""]][:-1]


def summarise(settings: Settings, results: Sequence[MatchResult], seconds: float) -> Summary:
    """Sum the matches up: wins per bot (a shared win is split), totals, round endings."""
    names = list(dict.fromkeys(settings.bots))
    seats = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0.0)
    totals: dict[str, list[float]] = {n: [] for n in names}
    for result in results:
        for seat, name in enumerate(result.seats):
            seats[name] += 1
            totals[name].append(float(result.totals[seat]))
        for seat in result.winners:
            wins[result.seats[seat]] += 1 / len(result.winners)
    lines = []
    for name in names:
        mean, sd = mean_and_sd(totals[name])
        lines.append(
            BotLine(name, seats[name], wins[name], wins[name] / max(len(results), 1), mean, sd)
        )
    rounds = sum(r.rounds for r in results)
    return Summary(
        settings=settings,
        bots=tuple(lines),
        matches=len(results),
        rounds=rounds,
        mean_rounds=rounds / max(len(results), 1),
        hand_rate=sum(r.hands for r in results) / max(rounds, 1),
        stock_rate=sum(r.stock_ends for r in results) / max(rounds, 1),
        decisions=sum(r.decisions for r in results),
        seconds=seconds,
    )


# --- running -------------------------------------------------------------------------------


class Progress:
    """A one-line progress bar on a terminal; silent when ``stream`` is not one."""

    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total = total
        self.stream = stream
        self.width = width
        self.enabled = _is_terminal(stream)
        self.start = time.perf_counter()

    def show(self, done: int) -> None:
        if not self.enabled:
            return
        filled = self.width * done // max(self.total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        elapsed = time.perf_counter() - self.start
        self.stream.write(f"\r[{bar}] {done}/{self.total} matches {elapsed:5.1f} s")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def run(
    settings: Settings,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play every match (in ``jobs`` worker processes when above 1) and sum them up."""
    seeds = match_seeds(settings.seed, settings.matches)
    tasks = [(settings, i, seed) for i, seed in enumerate(seeds)]
    results: list[MatchResult] = []
    start = time.perf_counter()
    if jobs == 1 or settings.matches == 1:
        for task in tasks:
            results.append(_play_task(task))
            if on_progress is not None:
                on_progress(len(results))
    else:
        # spawn: the same behaviour on every platform, and no fork of a threaded parent
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(
            max_workers=min(jobs, settings.matches), mp_context=context
        ) as pool:
            pending = [pool.submit(_play_task, task) for task in tasks]
            for future in concurrent.futures.as_completed(pending):
                results.append(future.result())
                if on_progress is not None:
                    on_progress(len(results))
    seconds = time.perf_counter() - start
    results.sort(key=lambda r: r.index)
    return summarise(settings, results, seconds)


def command(
    *,
    rules: str,
    variants: Sequence[str],
    players: int,
    matches: int,
    bots: str,
    seed: int,
    jobs: int,
    length: int | None,
    as_json: bool,
) -> int:
    """The ``simulate`` command; returns the exit status."""
    try:
        settings = settings_from(
            rules=rules,
            variants=variants,
            players=players,
            matches=matches,
            bots=bots,
            seed=seed,
            length=length,
            jobs=jobs,
        )
    except UsageError as err:
        print(f"hand-rummy simulate: {err}", file=sys.stderr)
        return 2
    progress = Progress(settings.matches, sys.stderr)
    progress.show(0)
    try:
        summary = run(settings, jobs, progress.show)
    finally:
        progress.close()
    if as_json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        print(summary.table())
    return 0
