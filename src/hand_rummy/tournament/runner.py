"""Running a tournament: every match played, put in order, and the result.

:func:`run` plays the tournament's tables on a backend, hands each record to
``on_record`` in match order as soon as every earlier one is in (so that a
results file is written as the run goes, and is the same whatever the number
of workers), and returns a :class:`TournamentResult`.

When a bot fails and the tournament says ``on_error="stop"``, the run stops
at the failing match with the lowest number: the matches before it are kept,
those after it are dropped even if a worker had already played them, so the
result is the same as one worker playing in order would give.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator

import attrs

from hand_rummy.errors import number, shown
from hand_rummy.tournament.backends import (
    BACKENDS,
    TableResult,
    check_picklable,
    play_in_process,
    play_in_workers,
)
from hand_rummy.tournament.records import Failure, MatchRecord
from hand_rummy.tournament.schedule import Table, Tournament, TournamentError
from hand_rummy.tournament.summary import Summary, summarise

__all__ = ["TournamentResult", "run"]


@attrs.frozen
class TournamentResult:
    """What a run left: the matches played, the failures, and how long it took."""

    tournament: Tournament
    matches: tuple[MatchRecord, ...]
    """The finished matches, in order."""
    failures: tuple[Failure, ...]
    """The bots that failed, in match order (at most one when the run stopped at it)."""
    seconds: float = attrs.field(eq=False)
    stopped: bool = False
    """Whether the run stopped at a failure (``on_error="stop"``)."""

    def summary(self) -> Summary:
        """Wins, totals, intervals and speed per bot (see :mod:`~hand_rummy.tournament.summary`)."""
        return summarise(
            self.tournament.describe(),
            self.matches,
            self.failures,
            seconds=self.seconds,
            stopped=self.stopped,
        )


def _backend(
    tournament: Tournament,
    tables: Iterable[Table],
    workers: int,
    backend: str,
    address: str | None,
) -> Iterator[TableResult]:
    if backend == "local":
        if address is not None:
            raise TournamentError("an address is for the ray backend")
        if workers == 1 or tournament.matches == 1:
            return play_in_process(tournament, tables)
        return play_in_workers(tournament, tables, workers)
    if backend == "ray":
        from hand_rummy.tournament.ray_backend import play_on_ray  # noqa: PLC0415 (optional)

        check_picklable(tournament)
        return play_on_ray(tournament, tuple(tables), workers, address)
    raise TournamentError(f"unknown backend {backend!r}; the backends are {', '.join(BACKENDS)}")


def local_workers_limit() -> int:
    """The most worker processes the local backend starts: four a processor. Each holds
    its own copy of the engine, so a thousand of them would exhaust the memory long before
    they sped anything up."""
    return 4 * (os.cpu_count() or 1)


def run(
    tournament: Tournament,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    on_record: Callable[[MatchRecord | Failure], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play every match of ``tournament`` and return the result.

    ``workers`` processes play the matches (``backend="local"``: this process
    alone when 1), or Ray tasks at most ``workers`` at a time
    (``backend="ray"``, on a local Ray instance, or the cluster at
    ``address``). ``on_record`` receives each record and failure in match
    order; ``on_progress`` receives (matches done, matches in all) after each
    match.
    """
    if not isinstance(tournament, Tournament):
        raise TournamentError(
            f"run() plays a Tournament(rules, players=..., bots=..., matches=...), not "
            f"{type(tournament).__name__}"
        )
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise TournamentError(
            f"the number of workers must be a positive number, not {shown(workers)}"
        )
    if backend == "local" and workers > local_workers_limit():
        raise TournamentError(
            f"the local backend starts at most {local_workers_limit()} worker processes (four "
            f"a processor), not {number(workers, grouped=True)}; a larger run is for the Ray "
            "backend"
        )
    for callback, what in ((on_record, "on_record"), (on_progress, "on_progress")):
        # before any match: a wrong one would fail only after the first was played
        if callback is not None and not callable(callback):
            raise TournamentError(
                f"{what} must be a function or None, not {type(callback).__name__}"
            )
    # the schedule is read as the matches are played, so the first starts at once
    tables = tournament.iter_tables()
    total = tournament.matches
    start = time.perf_counter()
    done: dict[int, TableResult] = {}
    stop_at: int | None = None  # the lowest failing match, when the run stops at failures
    written = 0

    def flush() -> None:
        nonlocal written
        while written in done and (stop_at is None or written <= stop_at):
            if on_record is not None:
                on_record(done[written])
            written += 1

    outcomes = _backend(tournament, tables, workers, backend, address)
    try:
        for outcome in outcomes:
            index = outcome.index if isinstance(outcome, MatchRecord) else outcome.match
            if stop_at is not None and index > stop_at:
                continue
            done[index] = outcome
            if isinstance(outcome, Failure) and tournament.on_error == "stop":
                stop_at = index
            flush()
            if on_progress is not None:
                on_progress(len(done), total)
            if stop_at is not None and all(i in done for i in range(stop_at + 1)):
                break
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:
            close()
    seconds = time.perf_counter() - start
    kept = [done[i] for i in sorted(done) if stop_at is None or i <= stop_at]
    return TournamentResult(
        tournament=tournament,
        matches=tuple(o for o in kept if isinstance(o, MatchRecord)),
        failures=tuple(o for o in kept if isinstance(o, Failure)),
        seconds=seconds,
        stopped=stop_at is not None,
    )
