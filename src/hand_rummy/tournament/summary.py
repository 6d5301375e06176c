"""The summary of a tournament: per bot, the matches, wins and totals; per run, the rounds
and the speed.

It is computed from the records alone (and the settings, as
:meth:`Tournament.describe <hand_rummy.tournament.schedule.Tournament.describe>`
gives them), so a results file summarises to the same table as the run that
wrote it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from hand_rummy.tournament.records import Failure, MatchRecord

__all__ = ["BotLine", "Summary", "mean_and_sd", "summarise"]


def mean_and_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than two values).

    >>> mean_and_sd([1.0, 3.0])
    (2.0, 1.4142135623730951)
    """
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(var)


@attrs.frozen
class BotLine:
    """One bot's line of the summary."""

    name: str
    seats: int
    """Seats it took, over all matches (a bot may sit at several seats of one match)."""
    matches: int
    wins: float
    """Matches won; a win shared by k seats counts 1/k for each of them."""
    win_rate: float
    mean_total: float
    """Its mean match total per seat: penalty points, lower is better."""
    sd_total: float
    decisions: int
    seconds: float

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


@attrs.frozen
class Summary:
    """Everything the ``simulate`` and ``report`` commands print."""

    settings: Mapping[str, Any] = attrs.field(eq=False)
    bots: tuple[BotLine, ...]
    matches: int
    failures: tuple[Failure, ...]
    stopped: bool
    rounds: int
    hand_rate: float
    stock_rate: float
    decisions: int
    seconds: float

    @property
    def mean_rounds(self) -> float:
        return self.rounds / self.matches if self.matches else 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        s = self.settings
        return {
            "rules": s["rules"],
            "variants": list(s["variants"]),
            "players": s["players"],
            "matches": self.matches,
            "planned_matches": s["matches"],
            "seed": s["seed"],
            "rounds_override": s["rounds"],
            "end_rule": s["end_rule"],
            "bots": {
                b.name: {
                    "seats": b.seats,
                    "matches": b.matches,
                    "wins": round(b.wins, 4),
                    "win_rate": round(b.win_rate, 4),
                    "mean_total": round(b.mean_total, 2),
                    "sd_total": round(b.sd_total, 2),
                    "decisions": b.decisions,
                    "ms_per_decision": round(b.ms_per_decision, 4),
                }
                for b in self.bots
            },
            "failures": [f.describe() for f in self.failures],
            "stopped": self.stopped,
            "rounds": self.rounds,
            "mean_rounds": round(self.mean_rounds, 3),
            "hand_rate": round(self.hand_rate, 4),
            "stock_rate": round(self.stock_rate, 4),
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "decisions_per_second": round(self.decisions_per_second, 1),
        }

    def title(self) -> str:
        s = self.settings
        rules = s["rules"] + "".join(f"+{v}" for v in s["variants"])
        length = f", {s['rounds']} rounds each" if s["rounds"] is not None else ""
        return (
            f"{rules}: {self.matches} matches of {s['players']} players{length}, "
            f"seed {s['seed']}, bots {','.join(s['bots'])}"
        )

    def table(self) -> str:
        width = max(8, *(len(b.name) for b in self.bots))
        lines = [
            self.title(),
            "",
            f"{'bot':<{width}} {'seats':>6} {'wins':>8} {'win %':>6} {'mean total':>11} "
            f"{'sd':>8} {'ms/decision':>12}",
        ]
        for b in self.bots:
            lines.append(
                f"{b.name:<{width}} {b.seats:>6} {b.wins:>8.2f} {100 * b.win_rate:>6.1f} "
                f"{b.mean_total:>11.1f} {b.sd_total:>8.1f} {b.ms_per_decision:>12.3f}"
            )
        lines += [
            "",
            f"rounds per match    {self.mean_rounds:.2f} ({self.rounds} rounds)",
            f"Hand finishes       {100 * self.hand_rate:.1f}% of rounds",
            f"ended by the stock  {100 * self.stock_rate:.1f}% of rounds",
            f"decisions           {self.decisions} in {self.seconds:.1f} s "
            f"({self.decisions_per_second:.0f}/s)",
        ]
        if self.failures:
            lines += ["", f"{len(self.failures)} failed (left out of the results):"]
            lines += [f"  {f.describe()}" for f in self.failures]
            if self.stopped:
                lines.append("  the run stopped at the first failure (--on-error stop)")
        return "\n".join(lines)


def summarise(
    settings: Mapping[str, Any],
    matches: Sequence[MatchRecord],
    failures: Sequence[Failure] = (),
    seconds: float = 0.0,
    stopped: bool = False,
) -> Summary:
    """Sum the matches up: wins per bot (a shared win is split), totals, round endings."""
    names = list(dict.fromkeys(settings["bots"]))
    seats = dict.fromkeys(names, 0)
    played = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0.0)
    decisions = dict.fromkeys(names, 0)
    thinking = dict.fromkeys(names, 0.0)
    totals: dict[str, list[float]] = {n: [] for n in names}
    for record in matches:
        for name in set(record.seats):
            played[name] += 1
        for seat, name in enumerate(record.seats):
            seats[name] += 1
            totals[name].append(float(record.totals[seat]))
            wins[name] += record.win_share(seat)
            decisions[name] += record.decisions[seat]
            thinking[name] += record.seconds[seat]
    lines = []
    for name in names:
        mean, sd = mean_and_sd(totals[name])
        rate = wins[name] / played[name] if played[name] else 0.0
        lines.append(
            BotLine(
                name, seats[name], played[name], wins[name], rate, mean, sd,
                decisions[name], thinking[name],
            )
        )  # fmt: skip
    rounds = [r for record in matches for r in record.rounds]
    return Summary(
        settings=settings,
        bots=tuple(lines),
        matches=len(matches),
        failures=tuple(failures),
        stopped=stopped,
        rounds=len(rounds),
        hand_rate=sum(r.ending == "hand" for r in rounds) / max(len(rounds), 1),
        stock_rate=sum(r.ending == "stock" for r in rounds) / max(len(rounds), 1),
        decisions=sum(sum(r.decisions) for r in rounds),
        seconds=seconds,
    )
