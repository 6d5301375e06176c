"""What a tournament keeps of each round and match, and of each bot that failed.

The records are plain data (picklable, comparable) and each has a JSON form,
one line of a results file (:mod:`hand_rummy.tournament.results_file`):

* :class:`RoundRecord`: the round's seed and dealer, how it ended, the scores,
  who went out, and each seat's decisions and thinking time;
* :class:`MatchRecord`: which deal and seating, the bots in their seats, the
  totals and winners, and its rounds;
* :class:`Failure`: a bot that raised, returned an illegal action or ran out
  of time, with its seat, the error and the position (a round document, see
  :func:`hand_rummy.serialize.round_to_json`).

Times are the only fields that differ between two runs of the same tournament:
:meth:`MatchRecord.without_times` drops them, for comparisons.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["Failure", "MatchRecord", "RoundRecord"]


def _list(value: Any) -> list[Any] | tuple[Any, ...]:
    """A list or tuple (a JSON array), the only form a list field may take: a text such as
    ``""`` from a damaged file would otherwise be read letter by letter, to the wrong length."""
    if not isinstance(value, list | tuple):
        raise TypeError(f"expected a list, not {type(value).__name__}")
    return value


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in _list(value))


def _floats(value: Any) -> tuple[float, ...]:
    return tuple(float(v) for v in _list(value))


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in _list(value))


def _round_records(value: Any) -> tuple[RoundRecord, ...]:
    return tuple(value)


def _opt_ints(value: Any) -> tuple[int, ...] | None:
    return None if value is None else _ints(value)


@attrs.frozen
class RoundRecord:
    """One finished round of a match."""

    number: int
    """Its number in the match, from 1 (unscored rounds count)."""
    seed: int
    """The seed it was dealt from (with the rules, the players and the dealer, the deal)."""
    dealer: int
    ending: str
    """How it ended: ``went_out``, ``hand``, ``stock`` or ``redeal``."""
    scored: bool
    scores: tuple[int, ...] = attrs.field(converter=_ints)
    team_scores: tuple[int, ...] | None = attrs.field(converter=_opt_ints)
    winner: int | None
    """The seat that went out, if anyone did."""
    decisions: tuple[int, ...] = attrs.field(converter=_ints)
    """Each seat's decisions (actions chosen) in the round."""
    seconds: tuple[float, ...] = attrs.field(converter=_floats, eq=False)
    """Each seat's time spent choosing, in seconds (not compared: it varies from run to run)."""

    def to_json(self, match: int) -> dict[str, Any]:
        return {
            "type": "round",
            "match": match,
            "round": self.number,
            "seed": self.seed,
            "dealer": self.dealer,
            "ending": self.ending,
            "scored": self.scored,
            "scores": list(self.scores),
            "team_scores": None if self.team_scores is None else list(self.team_scores),
            "went_out": self.winner,
            "decisions": list(self.decisions),
            "seconds": [round(s, 6) for s in self.seconds],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> RoundRecord:
        return cls(
            number=int(doc["round"]),
            seed=int(doc["seed"]),
            dealer=int(doc["dealer"]),
            ending=str(doc["ending"]),
            scored=bool(doc["scored"]),
            scores=doc["scores"],
            team_scores=doc.get("team_scores"),
            winner=doc.get("went_out"),
            decisions=doc["decisions"],
            seconds=doc["seconds"],
        )


@attrs.frozen
class MatchRecord:
    """One finished match of a tournament."""

    index: int
    """Its number in the tournament, from 0."""
    deal: int
    """The deal it was played from: matches with the same deal have the same seed (duplicate
    deals); without duplicate deals every match has its own."""
    rotation: int
    """How many places the list of bots was turned round the table for this match."""
    seed: int
    """The match seed: it gives the first dealer and every round's deal."""
    seats: tuple[str, ...] = attrs.field(converter=_strs)
    """The bot (entrant name) at each seat."""
    first_dealer: int
    totals: tuple[int, ...] = attrs.field(converter=_ints)
    """Each seat's match total: penalty points, lower is better."""
    team_totals: tuple[int, ...] | None = attrs.field(converter=_opt_ints)
    winners: tuple[int, ...] = attrs.field(converter=_ints)
    """The winning seats (several when the win is shared, or a team wins)."""
    rounds: tuple[RoundRecord, ...] = attrs.field(converter=_round_records)

    @property
    def decisions(self) -> tuple[int, ...]:
        """Each seat's decisions over the match."""
        return tuple(sum(r.decisions[s] for r in self.rounds) for s in range(len(self.seats)))

    @property
    def seconds(self) -> tuple[float, ...]:
        """Each seat's time spent choosing over the match, in seconds."""
        return tuple(sum(r.seconds[s] for r in self.rounds) for s in range(len(self.seats)))

    def win_share(self, seat: int) -> float:
        """The part of the win that ``seat`` takes: 1/k when k seats share it, else 0.

        A team's win is shared by its two seats, so a bot that fills both seats
        of the winning team takes the whole win."""
        return 1 / len(self.winners) if seat in self.winners else 0.0

    def without_times(self) -> dict[str, Any]:
        """The JSON form without the times: equal for equal play, whatever the machine."""
        doc = self.to_json()
        doc.pop("seconds")
        return doc

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "match",
            "match": self.index,
            "deal": self.deal,
            "rotation": self.rotation,
            "seed": self.seed,
            "seats": list(self.seats),
            "first_dealer": self.first_dealer,
            "totals": list(self.totals),
            "team_totals": None if self.team_totals is None else list(self.team_totals),
            "winners": list(self.winners),
            "rounds": len(self.rounds),
            "decisions": list(self.decisions),
            "seconds": [round(s, 6) for s in self.seconds],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], rounds: tuple[RoundRecord, ...]) -> MatchRecord:
        return cls(
            index=int(doc["match"]),
            deal=int(doc["deal"]),
            rotation=int(doc["rotation"]),
            seed=int(doc["seed"]),
            seats=doc["seats"],
            first_dealer=int(doc["first_dealer"]),
            totals=doc["totals"],
            team_totals=doc.get("team_totals"),
            winners=doc["winners"],
            rounds=rounds,
        )


@attrs.frozen
class Failure:
    """A bot that could not go on: the match it was in is left out of the results."""

    match: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[str, ...] = attrs.field(converter=_strs)
    seat: int
    """The seat of the bot that failed."""
    bot: str
    kind: str
    """``error`` (it raised), ``illegal`` (it chose an action the rules refuse),
    ``timeout`` (it took longer than the time limit) or ``setup`` (it could not be made)."""
    message: str
    """The error in one line: the exception and its message, or the referee's reasons."""
    detail: str = ""
    """More: the traceback of an exception, or the reasons an action was refused (those of
    the first check that refused it)."""
    round: int | None = None
    """The round of the match (from 1) in which it failed."""
    decision: int | None = None
    """Which of the bot's decisions in that round failed (from 1)."""
    action: str | None = None
    """The action it returned, for an illegal action."""
    position: Mapping[str, Any] | None = attrs.field(default=None, eq=False)
    """The round up to the failure, as a round document (``None`` when it cannot be written)."""

    def describe(self) -> str:
        """One line for the terminal: the match, the seat and bot, what went wrong."""
        where = f"match {self.match} (seed {self.seed})"
        if self.round is not None:
            where += f", round {self.round}"
        what = {
            "error": "raised",
            "illegal": "chose an illegal action",
            "timeout": "ran out of time",
            "setup": "could not be made",
            "endless": "was to move when the runner gave the match up",
        }.get(self.kind, self.kind)
        return f"{where}: seat {self.seat} ({self.bot}) {what}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "failure",
            "match": self.match,
            "deal": self.deal,
            "rotation": self.rotation,
            "seed": self.seed,
            "seats": list(self.seats),
            "seat": self.seat,
            "bot": self.bot,
            "kind": self.kind,
            "message": self.message,
            "detail": self.detail,
            "round": self.round,
            "decision": self.decision,
            "action": self.action,
            "position": None if self.position is None else dict(self.position),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Failure:
        return cls(
            match=int(doc["match"]),
            deal=int(doc["deal"]),
            rotation=int(doc["rotation"]),
            seed=int(doc["seed"]),
            seats=doc["seats"],
            seat=int(doc["seat"]),
            bot=str(doc["bot"]),
            kind=str(doc["kind"]),
            message=str(doc["message"]),
            detail=str(doc.get("detail", "")),
            round=doc.get("round"),
            decision=doc.get("decision"),
            action=doc.get("action"),
            position=doc.get("position"),
        )
