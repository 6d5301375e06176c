"""Playing one match of a tournament, and catching a bot that fails.

:func:`play_table` makes a fresh bot for every seat, plays the match (asking
each bot through :func:`~hand_rummy.bots.asker`: ``decide`` with a
:class:`~hand_rummy.bots.Choice` when the bot has it, else ``choose`` with
the view), and returns its :class:`~hand_rummy.tournament.records.MatchRecord`,
or a :class:`~hand_rummy.tournament.records.Failure` when a bot raises
(SystemExit too: only KeyboardInterrupt stops the run), chooses an action the
rules refuse, or takes longer than the tournament's time limit for one
decision. Nothing here depends on the process it runs in, so the same table
gives the same record everywhere.

A time limit interrupts a bot that overruns it where the platform allows
(a timer signal, in the main thread of a process on POSIX systems) and is in
any case checked when the bot answers.
"""

from __future__ import annotations

import signal
import threading
import time
import traceback
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from hand_rummy.actions import Action
from hand_rummy.bots import MAX_ROUND_DECISIONS, MAX_UNSCORED_IN_A_ROW, Bot, Choice, asker
from hand_rummy.errors import HandRummyError, IllegalActionError, error_text, shown
from hand_rummy.tournament.records import Failure, MatchRecord, RoundRecord
from hand_rummy.tournament.schedule import Table, Tournament, bot_seed

if TYPE_CHECKING:
    from hand_rummy.match import Match
    from hand_rummy.round import Round
    from hand_rummy.verdict import Verdict

__all__ = ["play_table", "position_document"]


_ACTION_TYPES = frozenset(typing.get_args(Action))


class _Overtime(BaseException):
    """Raised in a bot by the timer; a BaseException, so ``except Exception`` lets it through."""


def _interrupt(signum: int, frame: Any) -> None:
    raise _Overtime


def _can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def _timer(limit: float | None) -> Iterator[None]:
    """Interrupt the block with :class:`_Overtime` after ``limit`` seconds, where possible."""
    if limit is None or not _can_interrupt():
        yield
        return
    previous = signal.signal(signal.SIGALRM, _interrupt)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def position_document(game: Round, tournament: Tournament) -> dict[str, Any] | None:
    """``game`` as a round document, under the tournament's own rules (a round plays the same
    whatever the match length); ``None`` when the rules cannot be written (a changed ruleset)."""
    from hand_rummy.round import Round  # noqa: PLC0415
    from hand_rummy.serialize import round_to_json  # noqa: PLC0415

    try:
        if game.ruleset != tournament.rules:
            *hands, stock, pile = game.start
            named = Round.from_deal(
                tournament.rules,
                hands,
                stock,
                discards=pile,
                indicator=game.indicator,
                dealer=game.dealer,
                seed=game.seed,
            )
            for action in game.history:
                named = named.apply(action)
            game = named
        return round_to_json(game)
    except HandRummyError:
        return None


class _Tally:
    """Decisions and thinking time per seat, for the round in play."""

    def __init__(self, players: int) -> None:
        self.decisions = [0] * players
        self.seconds = [0.0] * players

    def record(self, game: Round, number: int) -> RoundRecord:
        outcome = game.outcome
        assert outcome is not None
        record = RoundRecord(
            number=number,
            seed=game.seed,
            dealer=game.dealer,
            ending=outcome.ending.value,
            scored=outcome.score.scored,
            scores=outcome.score.scores,
            team_scores=outcome.score.team_scores,
            winner=outcome.winner,
            decisions=tuple(self.decisions),
            seconds=tuple(self.seconds),
        )
        self.decisions = [0] * len(self.decisions)
        self.seconds = [0.0] * len(self.seconds)
        return record


def _failure(table: Table, seat: int, kind: str, message: str, **more: Any) -> Failure:
    return Failure(
        match=table.index,
        deal=table.deal,
        rotation=table.rotation,
        seed=table.seed,
        seats=table.seats,
        seat=seat,
        bot=table.seats[seat],
        kind=kind,
        message=message,
        **more,
    )


def _make_bots(tournament: Tournament, table: Table) -> list[Bot] | Failure:
    bots: list[Bot] = []
    for seat, name in enumerate(table.seats):
        try:
            bots.append(tournament.entrant(name).make(bot_seed(table.seed, seat)))
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # SystemExit too: a bot does not end the run
            return _failure(table, seat, "setup", error_text(err), detail=traceback.format_exc())
    return bots


_Problem = tuple[str, str, dict[str, str]]
"""What went wrong: the failure's kind, its message, and more fields of the failure."""


def _illegal(action: object, verdict: Verdict | None) -> _Problem:
    """The failure of a bot that chose ``action``, refused with ``verdict`` (or no action)."""
    if verdict is None:
        return ("illegal", f"returned {shown(action)}, which is not an action", {})
    reasons = "; ".join(v.message for v in verdict.violations)
    detail = "\n".join(f"{v.code.value}: {v.message}" for v in verdict.violations)
    more = {"detail": detail, "action": str(action)}
    return ("illegal", f"{action} is not legal now: {reasons}", more)


def _bot_failed(
    tournament: Tournament,
    table: Table,
    match: Match,
    game: Round,
    tally: _Tally,
    *,
    problem: _Problem,
    counted: bool = False,
) -> Failure:
    """The failure of the bot to move in ``game``; ``counted`` when its failing decision
    is already in the tally."""
    kind, message, more = problem
    seat = game.turn
    return _failure(
        table,
        seat,
        kind,
        message,
        round=len(match.rounds) + 1,
        decision=tally.decisions[seat] + (0 if counted else 1),
        position=position_document(game, tournament),
        **more,
    )


def _endless_match(unscored: int) -> _Problem:
    return (
        "endless",
        f"{unscored} unscored rounds in a row: the match may never end, and the runner gives "
        f"up after {MAX_UNSCORED_IN_A_ROW} (MAX_UNSCORED_IN_A_ROW)",
        {},
    )


def _endless_round(number: int, decisions: int) -> _Problem:
    return (
        "endless",
        f"round {number} has taken {decisions:,} decisions without ending, and the runner "
        f"gives up after {MAX_ROUND_DECISIONS:,} (MAX_ROUND_DECISIONS)",
        {},
    )


def play_table(
    tournament: Tournament, table: Table, clock: Callable[[], float] = time.perf_counter
) -> MatchRecord | Failure:
    """Play the match ``table`` describes; its record, or the failure that ended it."""
    bots = _make_bots(tournament, table)
    if isinstance(bots, Failure):
        return bots
    askers = [asker(bot) for bot in bots]
    limit = tournament.time_limit
    match = tournament.new_match(table.seed)
    tally = _Tally(tournament.players)
    rounds: list[RoundRecord] = []
    unscored = 0  # the unscored rounds just played, in a row
    # the loop below runs once a decision: it does as little as it can besides asking
    while (game := match.current) is not None:
        seat = game.turn
        if sum(tally.decisions) >= MAX_ROUND_DECISIONS:
            endless = _endless_round(len(match.rounds) + 1, sum(tally.decisions))
            return _bot_failed(tournament, table, match, game, tally, problem=endless)
        decision = Choice(seat, game=game)
        start = clock()
        try:
            if limit is None:
                action = askers[seat](decision)
            else:
                with _timer(limit):
                    action = askers[seat](decision)
        except _Overtime:
            problem: _Problem = ("timeout", f"no answer within {limit:g} s", {})
            return _bot_failed(tournament, table, match, game, tally, problem=problem)
        except KeyboardInterrupt:
            raise  # the user stops the run
        except BaseException as err:  # SystemExit too: it would end the run, or a Ray worker
            problem = ("error", error_text(err), {"detail": traceback.format_exc()})
            return _bot_failed(tournament, table, match, game, tally, problem=problem)
        spent = clock() - start
        tally.decisions[seat] += 1
        tally.seconds[seat] += spent
        if limit is not None and spent > limit:
            problem = ("timeout", f"answered after {spent:.3f} s; the limit is {limit:g} s", {})
            return _bot_failed(tournament, table, match, game, tally, problem=problem, counted=True)
        if action.__class__ not in _ACTION_TYPES:
            problem = _illegal(action, None)
            return _bot_failed(tournament, table, match, game, tally, problem=problem, counted=True)
        try:
            match = match.apply(action)
        except IllegalActionError as err:
            problem = _illegal(action, err.verdict)
            return _bot_failed(tournament, table, match, game, tally, problem=problem, counted=True)
        if len(match.rounds) != len(rounds):
            rounds.append(tally.record(match.rounds[-1], len(match.rounds)))
            unscored = 0 if rounds[-1].scored else unscored + 1
            if unscored >= MAX_UNSCORED_IN_A_ROW and match.current is not None:
                endless = _endless_match(unscored)
                return _bot_failed(tournament, table, match, match.current, tally, problem=endless)
    return MatchRecord(
        index=table.index,
        deal=table.deal,
        rotation=table.rotation,
        seed=table.seed,
        seats=table.seats,
        first_dealer=match.first_dealer,
        totals=match.totals,
        team_totals=match.team_totals,
        winners=match.winners,
        rounds=tuple(rounds),
    )
