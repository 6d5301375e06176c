"""The Ray backend: the matches as Ray tasks, on a local Ray instance or on a cluster.

Needs the optional extra ``ray`` (``pip install 'hand-rummy[ray]'``).
:func:`play_on_ray` connects to the cluster at ``address`` (``"auto"`` for
one started on this machine with ``ray start --head``, ``"ray://host:10001"``
for a remote one), or starts a local instance with ``workers`` CPUs when
there is no address and Ray is not already initialised, and shuts down only
what it started. The tournament is put in Ray's object store once; each task
plays a few tables with :func:`~hand_rummy.tournament.playing.play_table`, at
most ``workers`` tasks at a time, so the records are the same as the local
backend's.

On a local instance the tasks see this process's import path (the
``PYTHONPATH`` of the instance is set to it), so bots named
``package.module:Class`` import as they do here. On a cluster, every node must
be able to import hand-rummy and the bots: install them there, or give Ray a
runtime environment (``ray.init(runtime_env=...)`` before the run). A ``ray://``
address needs Ray's client (``pip install 'ray[client]'``).

Ray that cannot be started or reached, or a task that Ray loses (its worker
crashed, its node left), raises :class:`~hand_rummy.tournament.backends.BackendError`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from hand_rummy.tournament.backends import BackendError
from hand_rummy.tournament.playing import play_table
from hand_rummy.tournament.records import Failure, MatchRecord
from hand_rummy.tournament.schedule import Table, Tournament, TournamentError

__all__ = ["batches", "play_on_ray"]

BATCH = 4
"""The most tables one task plays: fewer tasks, less of Ray's work per match, and still
several tasks a worker for a fair share of the matches."""


def batches(tables: Sequence[Table], workers: int) -> list[tuple[Table, ...]]:
    """The tables cut into tasks of at most :data:`BATCH` tables, in order, small enough that
    every worker gets at least four tasks.

    >>> [len(b) for b in batches([Table(i, i, 0, i, ("greedy",)) for i in range(10)], 2)]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    >>> [len(b) for b in batches([Table(i, i, 0, i, ("greedy",)) for i in range(40)], 2)]
    [4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    """
    size = max(1, min(BATCH, len(tables) // (4 * workers)))
    return [tuple(tables[i : i + size]) for i in range(0, len(tables), size)]


def _play_batch(tournament: Tournament, tables: tuple[Table, ...]) -> list[MatchRecord | Failure]:
    """A Ray task: play ``tables`` one after the other."""
    return [play_table(tournament, table) for table in tables]


def _ray() -> Any:
    try:
        import ray  # noqa: PLC0415 (an optional extra)
    except ImportError:
        raise TournamentError("the ray backend needs Ray: pip install 'hand-rummy[ray]'") from None
    return ray


def _first_line(err: BaseException) -> str:
    """The error in one line (Ray's carry the remote traceback after it)."""
    cause = getattr(err, "cause", None)  # what a task raised, under Ray's wrapping
    err = cause if isinstance(cause, BaseException) else err
    lines = str(err).strip().splitlines()
    return f"{type(err).__name__}: {lines[0]}" if lines else type(err).__name__


def play_on_ray(
    tournament: Tournament, tables: Sequence[Table], workers: int, address: str | None
) -> Iterator[MatchRecord | Failure]:
    """Play the tables as Ray tasks, at most ``workers`` at a time; yield each table's
    outcome as its task ends (a task's tables in order)."""
    ray = _ray()
    started = False
    if not ray.is_initialized():
        try:
            if address is None:
                # a local instance: the tasks import from this process's path
                path = os.pathsep.join(p for p in sys.path if p)
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    runtime_env={"env_vars": {"PYTHONPATH": path}},
                )
            else:
                ray.init(address=address, log_to_driver=False)
        except Exception as err:  # Ray's own errors: ConnectionError, ValueError, ...
            where = "start Ray" if address is None else f"reach Ray at {address}"
            raise BackendError(f"cannot {where}: {_first_line(err)}") from None
        started = True
    pending: dict[Any, tuple[Table, ...]] = {}
    try:
        task = ray.remote(num_cpus=1)(_play_batch)
        shared = ray.put(tournament)
        waiting = batches(tables, workers)
        waiting.reverse()
        while waiting or pending:
            while waiting and len(pending) < workers:
                batch = waiting.pop()
                pending[task.remote(shared, batch)] = batch
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                del pending[ref]
                try:
                    played = ray.get(ref)
                except ray.exceptions.RayError as err:
                    raise BackendError(f"a Ray task failed: {_first_line(err)}") from None
                yield from played
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()
