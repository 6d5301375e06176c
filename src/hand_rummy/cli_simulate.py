"""``hand-rummy simulate``: the command-line face of :mod:`hand_rummy.tournament`.

It reads the arguments into a :class:`~hand_rummy.tournament.Tournament`
(refusing bad ones with exit status 2 and a message naming the option),
runs it with a progress line on standard error, writes every round and match
to a results file (``--out``, JSON Lines) as the run goes, and prints the
summary. A bot that fails is reported on standard error with its match, seat
and error, and the position as a round document (in the results file, when
there is one); the exit status is then 1. A backend that fails under the run
(a worker process killed, Ray out of reach) ends it with exit status 3. The
results file is replaced only once the first match is in, so that a run that
cannot start leaves it as it was.
"""

from __future__ import annotations

import errno
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from hand_rummy.cli_errors import error, refuse
from hand_rummy.errors import HandRummyError, UnknownRulesError
from hand_rummy.rules.presets import build
from hand_rummy.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from hand_rummy.tournament import Failure, MatchRecord, Tournament
    from hand_rummy.tournament.results_file import ResultsWriter

__all__ = [
    "BACKEND_FAILED",
    "UsageError",
    "command",
    "report_failure",
    "ruleset_for",
    "tournament_from",
]

BACKEND_FAILED = 3
"""The exit status of a run that the backend failed under (a worker process killed, Ray out
of reach): neither a bot's fault (1) nor a bad argument (2)."""


class UsageError(HandRummyError):
    """A command-line argument that cannot be used; the command exits 2 with its message."""


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


def positive(value: float | None, option: str) -> None:
    if value is not None and not value > 0:
        raise UsageError(f"{option} must be a positive number, not {value:g}")


def tournament_from(
    *,
    rules: str,
    variants: Sequence[str],
    players: int,
    matches: int,
    bots: str,
    seed: int,
    length: int | None,
    jobs: int,
    on_error: str = "stop",
    time_limit: float | None = None,
    duplicate: bool = False,
    custom_length: bool = False,
) -> Tournament:
    """Check the arguments of ``simulate``; raises :class:`UsageError` naming the bad one."""
    from hand_rummy.tournament import BotLoadError, Tournament, TournamentError  # noqa: PLC0415
    from hand_rummy.tournament.entrants import parse_bots  # noqa: PLC0415
    from hand_rummy.tournament.schedule import MAX_MATCHES, MAX_TIME_LIMIT  # noqa: PLC0415

    positive(players, "--players")
    positive(matches, "--matches")
    positive(length, "--rounds")
    positive(jobs, "--jobs")
    positive(time_limit, "--time-limit")
    if matches > MAX_MATCHES:
        raise UsageError(
            f"--matches {matches}: a run plays at most {MAX_MATCHES:,} matches; play more as "
            "several runs with different --seed values"
        )
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit <= MAX_TIME_LIMIT):
        raise UsageError(
            f"--time-limit {time_limit:g}: a decision may take at most {MAX_TIME_LIMIT:g} "
            "seconds (a day)"
        )
    ruleset = ruleset_for(rules, variants, players)
    try:
        entrants = parse_bots(bots, players)
    except BotLoadError as err:
        raise UsageError(str(err)) from None
    try:
        return Tournament(
            ruleset,
            players=players,
            bots=entrants,
            matches=matches,
            seed=seed,
            rounds=length,
            custom_length=custom_length,
            duplicate=duplicate,
            time_limit=time_limit,
            on_error=on_error,
        )
    except TournamentError as err:
        message = str(err).replace("(custom_length=True)", "(--custom-length)")
        if "duplicate deals" in message:
            message = f"--matches {matches}: {message}"
        elif "custom length" in message or "give the length once" in message:
            message = f"--rounds {length}: {message}"
        raise UsageError(message) from None


def _unwritable(path: str) -> str | None:
    """Why a results file cannot be written at ``path``, or ``None``: checked before the
    run, which writes the file only once it has started."""
    if not path:
        return "no file named"
    target = Path(path)
    if target.is_dir():
        return os.strerror(errno.EISDIR)
    if not target.parent.is_dir():
        return os.strerror(errno.ENOENT)
    if not os.access(target if target.exists() else target.parent, os.W_OK):
        return os.strerror(errno.EACCES)
    return None


class _ResultsFile:
    """The results file of ``--out``, opened when the first match is in: a run that cannot
    start (no Ray, no cluster to reach) leaves a file of that name as it was."""

    def __init__(self, path: str, tournament: Tournament) -> None:
        self.path = path
        self.tournament = tournament
        self.writer: ResultsWriter | None = None
        self.failed = False  # a write failed, and was reported

    def _open(self) -> ResultsWriter:
        if self.writer is None:
            from hand_rummy.tournament.results_file import ResultsWriter  # noqa: PLC0415

            self.writer = ResultsWriter(self.path, self.tournament.describe())
        return self.writer

    def write(self, record: MatchRecord | Failure) -> None:
        try:
            self._open().write(record)
        except OSError as err:
            raise self._failed(err) from None

    def finish(self, *, stopped: bool, seconds: float) -> None:
        try:
            self._open().finish(stopped=stopped, seconds=seconds)
        except OSError as err:
            raise self._failed(err) from None

    def close(self) -> None:
        if self.writer is None:
            return
        try:
            self.writer.close()
        except OSError as err:
            # what is still buffered fails again on a full disk: said once, not twice
            if not self.failed:
                raise self._failed(err) from None

    def _failed(self, err: OSError) -> UsageError:
        self.failed = True
        return UsageError(f"--out {self.path}: {err.strerror}")


def report_failure(failure: Failure, stream: TextIO, out: str | None = None) -> None:
    """A failed bot on ``stream``: one error line, then the position as a one-line round document
    (or where to find it, when the results file holds it)."""
    error("simulate", failure.describe(), stream)
    if failure.position is None:
        return
    if out is not None:
        print(f"  the position (a round document) is in {out}", file=stream)
    else:
        print(f"  position (round document): {json.dumps(failure.position)}", file=stream)


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
    on_error: str = "stop",
    time_limit: float | None = None,
    duplicate: bool = False,
    custom_length: bool = False,
    out: str | None = None,
    backend: str = "local",
    address: str | None = None,
) -> int:
    """The ``simulate`` command; returns the exit status."""
    from hand_rummy.tournament import run  # noqa: PLC0415 (only the playing commands need it)
    from hand_rummy.tournament.backends import BackendError  # noqa: PLC0415
    from hand_rummy.tournament.progress import Progress  # noqa: PLC0415

    try:
        tournament = tournament_from(
            rules=rules,
            variants=variants,
            players=players,
            matches=matches,
            bots=bots,
            seed=seed,
            length=length,
            jobs=jobs,
            on_error=on_error,
            time_limit=time_limit,
            duplicate=duplicate,
            custom_length=custom_length,
        )
        if address is not None and backend != "ray":
            raise UsageError("--address is for --backend ray")
    except UsageError as err:
        return refuse("simulate", str(err))
    problem = None if out is None else _unwritable(out)
    if problem is not None:
        return refuse("simulate", f"--out {out}: {problem}")
    writer = None if out is None else _ResultsFile(out, tournament)
    progress = Progress(tournament.matches, sys.stderr)
    try:
        result = run(
            tournament,
            workers=jobs,
            backend=backend,
            address=address,
            on_progress=progress.show,
            on_record=None if writer is None else writer.write,
        )
        if writer is not None:
            writer.finish(stopped=result.stopped, seconds=result.seconds)
    except BackendError as err:
        error("simulate", str(err))
        if writer is not None and writer.writer is not None:
            print(f"  the matches played before it are in {out}", file=sys.stderr)
        return BACKEND_FAILED
    except HandRummyError as err:
        return refuse("simulate", str(err))
    finally:
        progress.close()
        if writer is not None:
            writer.close()
    for failure in result.failures:
        report_failure(failure, sys.stderr, out)
    summary = result.summary()
    if as_json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        print(summary.table())
    return 1 if result.failures else 0
