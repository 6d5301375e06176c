"""Where the matches are played: in this process, or in local worker processes (the Ray
backend is :mod:`~hand_rummy.tournament.ray_backend`).

A backend takes the tournament and the tables to play and yields each
table's outcome as soon as it is known, in any order; the runner
(:func:`hand_rummy.tournament.run`) puts them back in order. Closing the
iterator early cancels the matches not yet started.

Every backend plays a table with :func:`~hand_rummy.tournament.playing.play_table`,
which depends only on the tournament and the table, so every backend and any
number of workers give the same records.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import multiprocessing
import pickle
from collections.abc import Iterable, Iterator

from hand_rummy.tournament.playing import play_table
from hand_rummy.tournament.records import Failure, MatchRecord
from hand_rummy.tournament.schedule import Table, Tournament, TournamentError

__all__ = ["BACKENDS", "TableResult", "check_picklable", "play_in_process", "play_in_workers"]

TableResult = MatchRecord | Failure
"""What playing one table gives."""

BACKENDS = ("local", "ray")
"""The backends :func:`hand_rummy.tournament.run` knows."""


def play_in_process(tournament: Tournament, tables: Iterable[Table]) -> Iterator[TableResult]:
    """Play the tables one after the other, here."""
    for table in tables:
        yield play_table(tournament, table)


def check_picklable(tournament: Tournament) -> None:
    """Raise :class:`TournamentError` when the tournament cannot be sent to other processes
    (a bot factory defined inside a function, a lambda...)."""
    try:
        pickle.dumps(tournament)
    except Exception as err:
        raise TournamentError(
            "the tournament cannot be sent to worker processes: "
            f"{type(err).__name__}: {err}. Define each bot class or factory at the top level "
            "of a module, or name it as package.module:Name"
        ) from None


_WORKER_TOURNAMENT: Tournament | None = None


def _start_worker(tournament: Tournament) -> None:
    global _WORKER_TOURNAMENT  # noqa: PLW0603 (one tournament per worker process)
    _WORKER_TOURNAMENT = tournament


def _play_in_worker(table: Table) -> TableResult:
    assert _WORKER_TOURNAMENT is not None
    return play_table(_WORKER_TOURNAMENT, table)


AHEAD = 4
"""Tables handed to the pool per worker before earlier ones come back: enough to keep every
worker busy, few enough that a long run holds no more than a handful of them."""


def play_in_workers(
    tournament: Tournament, tables: Iterable[Table], workers: int
) -> Iterator[TableResult]:
    """Play the tables in ``workers`` local processes (started with ``spawn``: the same on
    every platform, and no fork of a threaded parent). Each worker receives the tournament
    once."""
    check_picklable(tournament)
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers, tournament.matches),
        mp_context=context,
        initializer=_start_worker,
        initargs=(tournament,),
    )
    waiting = iter(tables)
    try:
        pending = {
            pool.submit(_play_in_worker, t) for t in itertools.islice(waiting, AHEAD * workers)
        }
        while pending:
            done, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for table in itertools.islice(waiting, len(done)):
                pending.add(pool.submit(_play_in_worker, table))
            for future in done:
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
