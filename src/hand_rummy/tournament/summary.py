"""The summary of a tournament: per bot, wins and totals with their 95% intervals; per pair
of bots, the difference of their totals with its interval; per run, rounds and speed.

It is computed from the records alone and the settings (as
:meth:`Tournament.describe <hand_rummy.tournament.schedule.Tournament.describe>`
gives them), so a results file summarises to the same table as the run that
wrote it.

The unit of every interval is the match, or with duplicate deals the deal
(the matches of one deal, one per seating, averaged): the matches of one deal
are played from the same cards, so they are not independent of each other.
With duplicate deals, a deal with a failed match is left out of every figure
(:func:`counted_matches`): its other seatings alone would give the bots the
luck of the cards that the deal's missing seating was to balance.

* A bot's **win rate** is the share of matches it won (a win shared by k
  seats counts 1/k for each seat; a bot at several seats adds them up), with
  its Wilson interval (over the deals, each counting its share of wins).
* Its **mean total** is its match total (penalty points: lower is better),
  averaged over its seats in each match, then over the matches or deals, with
  the Student t interval.
* A **difference** "A − B" is, match by match (or deal by deal), A's mean
  total less B's, averaged with its t interval: when the interval lies below 0,
  A scores measurably fewer points than B.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from hand_rummy.tournament.intervals import Interval, mean_interval, wilson
from hand_rummy.tournament.records import Failure, MatchRecord

__all__ = ["BotLine", "Difference", "Summary", "counted_matches", "summarise"]


@attrs.frozen
class BotLine:
    """One bot's line of the summary."""

    name: str
    seats: int
    """Seats it took, over all matches (a bot may sit at several seats of one match)."""
    matches: int
    wins: float
    """Matches won; a win shared by k seats counts 1/k for each of them."""
    win_rate: Interval
    mean_total: Interval
    """Its mean match total (penalty points, lower is better) with its interval."""
    sd_total: float
    """The spread (standard deviation) of its totals, seat by seat."""
    decisions: int
    seconds: float

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


@attrs.frozen
class Difference:
    """The mean total of bot ``a`` less that of bot ``b``, unit by unit, with its interval."""

    a: str
    b: str
    difference: Interval

    def verdict(self) -> str:
        d = self.difference
        if d.n == 0:
            return "not measured"
        if d.n < 2 or not d.excludes(0.0):
            return "no measurable difference"
        better, worse = (self.a, self.b) if d.estimate < 0 else (self.b, self.a)
        return f"{better} scores fewer points than {worse}"


def _json_interval(value: Interval, digits: int) -> dict[str, Any]:
    """An interval as JSON: no figures (null) where nothing measured it, as the table shows
    none; a win rate of no match would otherwise read as 0."""

    def number(x: float) -> float | None:
        return round(x, digits) if value.n and math.isfinite(x) else None

    return {"estimate": number(value.estimate), "low": number(value.low),
            "high": number(value.high), "n": value.n}  # fmt: skip


def _wins(wins: float) -> str:
    """A count of wins: whole where it is whole, else with the fractions of shared wins."""
    return str(int(wins)) if float(wins).is_integer() else f"{wins:.2f}"


def _count(number: int, thing: str) -> str:
    """``1 round``, ``2 rounds``; ``1 match``, ``2 matches``."""
    if number == 1:
        return f"1 {thing}"
    return f"{number} {thing}es" if thing.endswith("ch") else f"{number} {thing}s"


def _estimate(value: Interval, scale: float = 1.0) -> str:
    """An interval's estimate, or ``-`` when nothing measured it (not ``nan``)."""
    return "-" if value.n == 0 else f"{scale * value.estimate:.1f}"


def _show(value: Interval, scale: float = 1.0, digits: int = 1) -> str:
    if value.n == 0:
        return "-"
    if not (math.isfinite(value.low) and math.isfinite(value.high)):
        return "[one unit]"
    return f"[{scale * value.low:.{digits}f}, {scale * value.high:.{digits}f}]"


COLUMNS = (
    "matches: matches the bot played (it may fill several seats of one match)",
    "wins: matches won; a win shared by k seats counts 1/k to each seat",
    "win %: share of its matches won, with its 95% Wilson interval",
    "mean total: its match total in penalty points (lower is better), its seats averaged "
    "in each match, with its 95% t interval",
    "sd: the spread of its totals, seat by seat",
    "ms/dec: its mean thinking time per decision, in milliseconds",
)
"""What each column of the table means (printed under it)."""


@attrs.frozen
class Summary:
    """Everything the ``simulate`` and ``report`` commands print."""

    settings: Mapping[str, Any] = attrs.field(eq=False)
    bots: tuple[BotLine, ...]
    differences: tuple[Difference, ...]
    matches: int
    units: int
    """The matches, or with duplicate deals the complete deals, that the intervals count."""
    failures: tuple[Failure, ...]
    stopped: bool
    finished: bool
    """False for a results file of a run that was interrupted."""
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

    @property
    def unit(self) -> str:
        return "deals" if self.settings.get("duplicate") else "matches"

    def endings_explained(self) -> list[str]:
        """What a Hand finish and a round ended by the stock are, under the rules played."""
        from hand_rummy.rulebook import cite  # noqa: PLC0415 (only the text needs the rulebook)
        from hand_rummy.rules.presets import build  # noqa: PLC0415
        from hand_rummy.rules.stock import StockEnd  # noqa: PLC0415
        from hand_rummy.verdict import Topic  # noqa: PLC0415

        s = self.settings
        lines = [
            "  a Hand finish: going out in a single turn with nothing laid down before in the round"
        ]
        if s.get("changed_rules"):
            return [*lines, "  ended by the stock: nobody went out before the stock ran out"]
        ruleset = build(s["rules"], s["variants"])
        hand = " ".join(c.text for c in cite(ruleset, Topic.SCORE_HAND))
        stock = {
            StockEnd.UNSCORED: "those rounds were not scored, and the same dealer dealt again",
            StockEnd.SCORE_HANDS: "everyone then scored the cards left in hand",
            StockEnd.NO_CONTEST: "those rounds were a no-contest: every score was zero",
        }[ruleset.stock.end]
        return [
            *lines,
            *textwrap.wrap(hand, 88, initial_indent="    ", subsequent_indent="    "),
            *textwrap.wrap(
                "ended by the stock: nobody went out before the stock ran out; under these "
                f"rules {stock}",
                90,
                initial_indent="  ",
                subsequent_indent="    ",
            ),
        ]

    def notes(self) -> list[str]:
        """What a reader must know to read the figures: custom lengths, changed rules,
        failures, a run that stopped early."""
        s = self.settings
        notes = []
        if not s.get("follows_rules", True):
            notes.append(
                f"custom length: the matches ended {s['end_rule']}, not as {s['rules']}'s own "
                f"end rule says ({s['own_end_rule']})"
            )
        if s.get("changed_rules"):
            notes.append(f"the rules were changed from the {s['rules']} preset")
        if not self.finished:
            notes.append("the results file has no end line: the run was interrupted")
        if self.matches < s["matches"]:
            notes.append(f"{self.matches} of the {s['matches']} matches planned are counted")
        if self.failures:
            notes.append(f"{len(self.failures)} failed (left out of the results):")
            notes += [f"  {f.describe()}" for f in self.failures]
            if self.stopped:
                notes.append("  the run stopped at the first failure (on-error: stop)")
            if s.get("duplicate"):
                notes.append("  a deal with a failed match is left out as a whole")
        return notes

    def title(self) -> str:
        s = self.settings
        rules = s["rules"] + "".join(f"+{v}" for v in s["variants"])
        length = f", {_count(s['rounds'], 'round')} each" if s["rounds"] is not None else ""
        dup = ""
        if s.get("duplicate"):
            deals, seatings = s["deals"], s["seatings"]
            dup = (
                f" ({deals} duplicate deal{'s' * (deals != 1)} x "
                f"{seatings} seating{'s' * (seatings != 1)})"
            )
        return (
            f"{rules}: {_count(self.matches, 'match')}{dup} of {s['players']} players{length}, "
            f"seed {s['seed']}, bots {','.join(s['bots'])}"
        )

    def table(self) -> str:
        if not self.matches:
            # every figure would be a mean of nothing: say so instead of printing nan
            lines = [
                self.title(),
                f"matches end {self.settings['end_rule']}",
                "",
                "no match finished, so there are no wins, totals or differences to show",
            ]
            notes = self.notes()
            return "\n".join([*lines, "", *notes] if notes else lines)
        width = max(8, *(len(b.name) for b in self.bots))
        lines = [
            self.title(),
            f"matches end {self.settings['end_rule']}; intervals are 95%, over "
            f"{_count(self.units, self.unit.removesuffix('es').removesuffix('s'))}",
            "",
            f"{'bot':<{width}} {'matches':>7} {'wins':>7} {'win %':>6} {'95% interval':>14} "
            f"{'mean total':>10} {'95% interval':>16} {'sd':>6} {'ms/dec':>7}",
        ]
        for b in self.bots:
            lines.append(
                f"{b.name:<{width}} {b.matches:>7} {_wins(b.wins):>7} "
                f"{_estimate(b.win_rate, 100):>6} {_show(b.win_rate, 100):>14} "
                f"{_estimate(b.mean_total):>10} {_show(b.mean_total):>16} "
                f"{b.sd_total:>6.1f} {b.ms_per_decision:>7.3f}"
            )
        if self.differences:
            lines += ["", f"differences of mean totals, {self.unit} paired (lower is better):"]
            labels = [f"{d.a} - {d.b}" for d in self.differences]
            wide = max(len(label) for label in labels)
            for label, d in zip(labels, self.differences):
                lines.append(
                    f"  {label:<{wide}} {_estimate(d.difference):>8} "
                    f"{_show(d.difference):>18}  {d.verdict()}"
                )
        lines += ["", *COLUMNS]
        lines += [
            "",
            f"rounds per match    {self.mean_rounds:.2f} ({_count(self.rounds, 'round')})",
            f"Hand finishes       {100 * self.hand_rate:.1f}% of rounds",
            f"ended by the stock  {100 * self.stock_rate:.1f}% of rounds",
            f"decisions           {self.decisions} in {self.seconds:.1f} s "
            f"({self.decisions_per_second:.0f}/s)",
            *self.endings_explained(),
        ]
        notes = self.notes()
        if notes:
            lines += ["", *notes]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        s = self.settings
        return {
            "rules": s["rules"],
            "variants": list(s["variants"]),
            "players": s["players"],
            "matches": self.matches,
            "planned_matches": s["matches"],
            "seed": s["seed"],
            "duplicate": bool(s.get("duplicate")),
            "units": self.units,
            "rounds_override": s["rounds"],
            "end_rule": s["end_rule"],
            "follows_rules": s.get("follows_rules", True),
            "bots": {
                b.name: {
                    "seats": b.seats,
                    "matches": b.matches,
                    "wins": round(b.wins, 4),
                    "win_rate": _json_interval(b.win_rate, 4),
                    "mean_total": _json_interval(b.mean_total, 2),
                    "sd_total": round(b.sd_total, 2),
                    "decisions": b.decisions,
                    "ms_per_decision": round(b.ms_per_decision, 4),
                }
                for b in self.bots
            },
            "differences": [
                {"a": d.a, "b": d.b, "difference": _json_interval(d.difference, 2)}
                for d in self.differences
            ],
            "notes": self.notes(),
            "failures": [_failure_json(f) for f in self.failures],
            "stopped": self.stopped,
            "finished": self.finished,
            "rounds": self.rounds,
            "mean_rounds": round(self.mean_rounds, 3),
            "hand_rate": round(self.hand_rate, 4),
            "stock_rate": round(self.stock_rate, 4),
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "decisions_per_second": round(self.decisions_per_second, 1),
        }


def _failure_json(failure: Failure) -> dict[str, Any]:
    """A failure in the JSON summary: what went wrong (``code``, ``message``, ``detail``) and
    where (the match and its deal, seating and seed, the round and decision, the bots in
    their seats and the seat that failed, the action refused). The position is left out: it
    is in the results file, or on standard error when there is none."""
    return {
        "code": failure.kind,
        "message": failure.message,
        "match": failure.match,
        "deal": failure.deal,
        "rotation": failure.rotation,
        "seed": failure.seed,
        "round": failure.round,
        "decision": failure.decision,
        "seats": list(failure.seats),
        "seat": failure.seat,
        "bot": failure.bot,
        "action": failure.action,
        "detail": failure.detail,
    }


@attrs.frozen
class _Unit:
    """One unit of the intervals: each bot's mean total and its share of the wins."""

    totals: dict[str, float]
    wins: dict[str, float]


def _match_unit(record: MatchRecord) -> _Unit:
    """Each bot's total in ``record`` averaged over its seats, and its win share."""
    seats: dict[str, list[int]] = {}
    wins: dict[str, float] = {}
    for seat, name in enumerate(record.seats):
        seats.setdefault(name, []).append(record.totals[seat])
        wins[name] = wins.get(name, 0.0) + record.win_share(seat)
    return _Unit({name: sum(v) / len(v) for name, v in seats.items()}, wins)


def counted_matches(
    settings: Mapping[str, Any], matches: Sequence[MatchRecord], failures: Sequence[Failure]
) -> tuple[MatchRecord, ...]:
    """The matches the summary counts: all of them, but with duplicate deals none of a deal
    where a match failed."""
    if not settings.get("duplicate"):
        return tuple(matches)
    failed = {f.deal for f in failures}
    return tuple(m for m in matches if m.deal not in failed)


def _units(matches: Sequence[MatchRecord], settings: Mapping[str, Any]) -> list[_Unit]:
    """The units of the intervals: the matches, or with duplicate deals the complete deals
    (their matches averaged)."""
    if not settings.get("duplicate"):
        return [_match_unit(m) for m in matches]
    deals: dict[int, list[MatchRecord]] = {}
    for record in matches:
        deals.setdefault(record.deal, []).append(record)
    units = []
    for group in deals.values():
        if len(group) != settings["seatings"]:
            continue  # the run stopped part-way through this deal
        parts = [_match_unit(m) for m in group]
        names = parts[0].totals
        units.append(
            _Unit(
                {n: sum(p.totals[n] for p in parts) / len(parts) for n in names},
                {n: sum(p.wins[n] for p in parts) / len(parts) for n in names},
            )
        )
    return units


def summarise(
    settings: Mapping[str, Any],
    matches: Sequence[MatchRecord],
    failures: Sequence[Failure] = (),
    *,
    seconds: float = 0.0,
    stopped: bool = False,
    finished: bool = True,
) -> Summary:
    """Sum the matches up: wins and totals per bot with intervals, differences between bots,
    round endings and speed."""
    matches = counted_matches(settings, matches, failures)
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
    units = _units(matches, settings)
    lines = []
    for name in names:
        counted = [u for u in units if name in u.totals]
        lines.append(
            BotLine(
                name=name,
                seats=seats[name],
                matches=played[name],
                wins=wins[name],
                win_rate=wilson(sum(u.wins[name] for u in counted), len(counted)),
                mean_total=mean_interval([u.totals[name] for u in counted]),
                sd_total=_sd(totals[name]),
                decisions=decisions[name],
                seconds=thinking[name],
            )
        )
    differences = tuple(
        Difference(
            a,
            b,
            mean_interval([u.totals[a] - u.totals[b] for u in units if {a, b} <= u.totals.keys()]),
        )
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    )
    rounds = [r for record in matches for r in record.rounds]
    return Summary(
        settings=settings,
        bots=tuple(lines),
        differences=differences,
        matches=len(matches),
        units=len(units),
        failures=tuple(failures),
        stopped=stopped,
        finished=finished,
        rounds=len(rounds),
        hand_rate=sum(r.ending == "hand" for r in rounds) / max(len(rounds), 1),
        stock_rate=sum(r.ending == "stock" for r in rounds) / max(len(rounds), 1),
        decisions=sum(sum(r.decisions) for r in rounds),
        seconds=seconds,
    )


def _sd(values: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))
