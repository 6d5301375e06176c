"""Where the matches are played: in this process, or in local worker processes (the Ray
backend is :mod:`~hand_rummy.tournament.ray_backend`).

A backend takes the tournament and the tables to play and yields each
table's outcome as soon as it is known, in any order; the runner
(:func:`hand_rummy.tournament.run`) puts them back in order. Closing the
iterator early cancels the matches not yet started.

Every backend plays a table with :func:`~hand_rummy.tournament.playing.play_table`,
which depends only on the tournament and the table, so every backend and any
number of workers give the same records.

A Ctrl-C in a terminal interrupts every process of the run: the worker processes ignore
it, so that this process alone stops the run (it cancels the matches not started and waits
for those in play), and a worker whose parent ends without stopping the pool (killed, or
ended by SIGTERM) ends too, instead of waiting for work forever.

A backend that fails under the run (a worker process killed, Ray out of reach) raises
:class:`BackendError`; the records yielded before it stand.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from hand_rummy.errors import HandRummyError
from hand_rummy.tournament.playing import play_table
from hand_rummy.tournament.records import Failure, MatchRecord
from hand_rummy.tournament.schedule import Table, Tournament, TournamentError

__all__ = [
    "BACKENDS",
    "BackendError",
    "TableResult",
    "check_picklable",
    "play_in_process",
    "play_in_workers",
]

TableResult = MatchRecord | Failure
"""What playing one table gives."""

BACKENDS = ("local", "ray")
"""The backends :func:`hand_rummy.tournament.run` knows."""


class BackendError(HandRummyError):
    """The backend failed under the run, through no fault of a bot: a worker process ended
    abruptly (killed, out of memory), Ray could not be started or reached, or lost a task.
    The records handed on before it stand; the run cannot go on."""


def play_in_process(tournament: Tournament, tables: Iterable[Table]) -> Iterator[TableResult]:
    """Play the tables one after the other, here."""
    for table in tables:
        yield play_table(tournament, table)


_WHERE = (
    "Define each bot class or factory at the top level of a module (not at the interactive "
    "prompt or in python -c), or name it as package.module:Name"
)


def check_picklable(tournament: Tournament) -> bytes:
    """The tournament pickled; raise :class:`TournamentError` when it cannot be sent to other
    processes (a bot factory defined inside a function, a lambda...)."""
    try:
        return pickle.dumps(tournament)
    except Exception as err:
        raise TournamentError(
            "the tournament cannot be sent to worker processes: "
            f"{type(err).__name__}: {err}. {_WHERE}"
        ) from None


_WORKER_TOURNAMENT: Tournament | TournamentError | None = None


def _start_worker(pickled: bytes) -> None:
    global _WORKER_TOURNAMENT  # noqa: PLW0603 (one tournament per worker process)
    # the parent handles Ctrl-C; held back while this process started (_interrupts_held)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    try:
        _WORKER_TOURNAMENT = pickle.loads(pickled)
    except Exception as err:
        # raised for each table, so that the run names the cause: had the worker ended here,
        # the run would only learn that the pool broke
        _WORKER_TOURNAMENT = TournamentError(
            f"a worker process cannot load the tournament: {type(err).__name__}: {err}. {_WHERE}"
        )


def _end_with(parent: Any) -> None:
    """End this worker when its parent ends: a parent ended by SIGTERM or killed does not
    stop the pool, and the worker would wait for work forever."""
    parent.join()
    os._exit(1)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold back SIGINT in this thread while it may start a worker process: the worker
    inherits the mask, so that a Ctrl-C while it starts does not interrupt it before it
    ignores SIGINT (a traceback, a broken pool); this process gets the Ctrl-C once the
    block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _play_in_worker(table: Table) -> TableResult:
    if isinstance(_WORKER_TOURNAMENT, TournamentError):
        raise _WORKER_TOURNAMENT
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
    pickled = check_picklable(tournament)
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers, tournament.matches),
        mp_context=context,
        initializer=_start_worker,
        initargs=(pickled,),
    )
    waiting = iter(tables)

    def submit(count: int) -> set[concurrent.futures.Future[TableResult]]:
        # the pool starts its workers as the tables are handed to it
        with _interrupts_held():
            return {pool.submit(_play_in_worker, t) for t in itertools.islice(waiting, count)}

    played = 0
    try:
        pending = submit(AHEAD * workers)
        while pending:
            done, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            pending |= submit(len(done))
            for future in done:
                yield future.result()
                played += 1
    except concurrent.futures.process.BrokenProcessPool:
        message = "a worker process ended abruptly (killed, or out of memory?)"
        if not played:
            # the usual cause when none has played: each worker imports the script that
            # started the run, and one without the guard starts the run again as it does
            message = (
                "a worker process ended before it played a match (a script that runs a "
                'tournament in workers must start it under if __name__ == "__main__":, as '
                "each worker imports the script; or the worker was killed)"
            )
        raise BackendError(f"{message}; the run cannot go on") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
