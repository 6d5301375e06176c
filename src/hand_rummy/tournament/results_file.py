"""Results files: a tournament as JSON Lines, written as it is played and read back.

One JSON object a line, each with a ``"type"``:

* ``tournament`` (the first line): ``"format": "hand-rummy/results"``, its
  ``version``, the library's version, and the settings (rules, variants,
  players, matches, seed, duplicate deals and seatings, the bots round the
  table and what each name refers to, the end rule in force and whether it
  is the ruleset's own);
* ``round``: one finished round of a match (match number, round number, seed
  and dealer, how it ended, the scores, who went out, each seat's decisions
  and thinking time in seconds);
* ``match``: one finished match, after its rounds (deal, seating rotation,
  seed, the bots in their seats, first dealer, totals, team totals, winners,
  decisions and seconds per seat);
* ``failure``: a bot that failed, with its seat, the error and the position
  as a round document;
* ``end`` (the last line): the matches and failures written, whether the run
  stopped at a failure, and its duration. A file without it is from a run
  that did not finish (interrupted); what it holds can still be read.

Records come in match order, whatever the number of workers, so two runs of
the same tournament write the same lines but for the times.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

import attrs

from hand_rummy.errors import HandRummyError, UnknownRulesError
from hand_rummy.rules.presets import build
from hand_rummy.tournament.records import Failure, MatchRecord, RoundRecord
from hand_rummy.tournament.schedule import MAX_MATCHES, match_seeds

__all__ = ["FORMAT", "VERSION", "Results", "ResultsError", "ResultsWriter", "read_results"]

FORMAT = "hand-rummy/results"
VERSION = 1


class ResultsError(HandRummyError):
    """A results file that cannot be read; the message names the line and what is wrong."""


_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point: UTF-8 has no encoding for it."""


def _json_line(doc: Mapping[str, Any]) -> str:
    """``doc`` as one line of JSON that UTF-8 can always encode.

    Texts from outside the library, such as a bot's error message holding a file name that
    ``os.fsdecode`` decoded, may hold lone surrogates. Each is written as the text of its
    escape (a backslash, ``u`` and four hex digits, as Python shows it), so the line reads
    back as printable text instead of failing to be written at all."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    # json.dumps leaves surrogates as they are with ensure_ascii=False, and they can only
    # stand inside a string, where "\\" is a backslash
    return _SURROGATE.sub(lambda found: f"\\\\u{ord(found[0]):04x}", text)


class ResultsWriter(AbstractContextManager["ResultsWriter"]):
    """Writes a results file line by line, flushing each, so that a long run leaves a log."""

    def __init__(self, path: str | Path, settings: Mapping[str, Any]) -> None:
        from hand_rummy import __version__  # noqa: PLC0415 (the package imports the engine)

        self.path = Path(path)
        self._file: TextIO = self.path.open("w", encoding="utf-8")
        self.matches = 0
        self.failures = 0
        header = {"type": "tournament", "format": FORMAT, "version": VERSION}
        self._line({**header, "hand_rummy": __version__, **settings})

    def _line(self, doc: Mapping[str, Any]) -> None:
        self._file.write(_json_line(doc) + "\n")

    def write(self, record: MatchRecord | Failure) -> None:
        """A match (its rounds first) or a failure."""
        if isinstance(record, MatchRecord):
            for game in record.rounds:
                self._line(game.to_json(record.index))
            self._line(record.to_json())
            self.matches += 1
        else:
            self._line(record.to_json())
            self.failures += 1
        self._file.flush()

    def finish(self, *, stopped: bool, seconds: float) -> None:
        """The end line: the run finished (or stopped at a failure)."""
        self._line(
            {
                "type": "end",
                "matches": self.matches,
                "failures": self.failures,
                "stopped": stopped,
                "seconds": round(seconds, 3),
            }
        )
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


@attrs.frozen
class Results:
    """A results file read back."""

    settings: Mapping[str, Any] = attrs.field(eq=False)
    matches: tuple[MatchRecord, ...]
    failures: tuple[Failure, ...]
    finished: bool
    """Whether the file has its end line (the run was not interrupted)."""
    stopped: bool
    seconds: float


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ResultsError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise ResultsError(f"{path} is not a UTF-8 text file") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
        except json.JSONDecodeError as err:
            if number == len(text.splitlines()) and not text.endswith("\n"):
                return  # a last line cut short by an interrupted run
            raise ResultsError(f"{path}, line {number}: not JSON ({err.msg})") from None
        except (ValueError, RecursionError) as err:
            # JSON that the parser will not build: an integer of more digits than Python
            # converts, or arrays nested deeper than its stack
            problem = "nested too deeply" if isinstance(err, RecursionError) else str(err)
            problem = problem.split(";")[0]  # not Python's advice on raising its limit
            raise ResultsError(f"{path}, line {number}: not readable JSON ({problem})") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("type"), str):
            raise ResultsError(f"{path}, line {number}: not an object with a 'type'")
        yield number, doc


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value: Any, least: int) -> bool:
    return _int(value) and value >= least


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


_SETTINGS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "rules": ("a preset name", lambda v: isinstance(v, str)),
    "variants": ("a list of variant names", _texts),
    "players": ("a whole number of at least 1", lambda v: _whole(v, 1)),
    "matches": ("a whole number of at least 1", lambda v: _whole(v, 1)),
    "seed": ("a whole number", _int),
    "seatings": ("a whole number of at least 1", lambda v: _whole(v, 1)),
    "deals": ("a whole number of at least 1", lambda v: _whole(v, 1)),
    "bots": ("a non-empty list of bot names", lambda v: _texts(v) and len(v) > 0),
    "rounds": ("null or a whole number of at least 1", lambda v: v is None or _whole(v, 1)),
    "end_rule": ("a text", lambda v: isinstance(v, str)),
}
"""The settings the summary reads, each with what it must be and a test of it."""

_FLAGS = ("duplicate", "custom_length", "follows_rules", "changed_rules")
"""Settings that are true or false where the file has them (older files may lack some)."""


def _check_settings(path: Path, number: int, settings: Mapping[str, Any]) -> None:
    """Refuse a tournament line the summary could not use, naming the field, so that a
    damaged file gives this message and not a traceback from deep in the summary."""
    where = f"{path}, line {number}: the tournament line's"
    for key, (what, test) in _SETTINGS.items():
        if key not in settings:
            raise ResultsError(f"{where} {key!r} is missing")
        value = settings[key]
        if not test(value):
            shown = json.dumps(value)
            shown = shown if len(shown) <= 40 else shown[:40] + "..."
            raise ResultsError(f"{where} {key!r} must be {what}, not {shown}")
    for key in _FLAGS:
        if not isinstance(settings.get(key, False), bool):
            raise ResultsError(f"{where} {key!r} must be true or false")
    if not settings.get("follows_rules", True) and not isinstance(
        settings.get("own_end_rule"), str
    ):
        raise ResultsError(f"{where} 'own_end_rule' must be a text")
    if not settings.get("changed_rules"):
        try:
            build(settings["rules"], settings["variants"])
        except UnknownRulesError as err:
            raise ResultsError(f"{where} rules cannot be built: {err}") from None
    matches, seatings = settings["matches"], settings["seatings"]
    if matches > MAX_MATCHES:
        raise ResultsError(f"{where} 'matches' must be at most {MAX_MATCHES:,}, not {matches:,}")
    deals = matches // seatings if settings.get("duplicate") else matches
    if settings["deals"] != deals or (settings.get("duplicate") and matches % seatings):
        raise ResultsError(
            f"{where} 'deals' ({settings['deals']}) do not fit its {matches} matches and "
            f"{seatings} seatings"
        )


class _Schedule:
    """The matches the tournament line plans, each with its deal, seating and seed: every
    match or failure line must be one of them, and only once. Lines of another run (another
    seed, or more matches) or repeated lines would otherwise be counted as this run's."""

    def __init__(self, path: Path, settings: Mapping[str, Any]) -> None:
        self.path = path
        self.matches: int = settings["matches"]
        self.seatings: int = settings["seatings"]
        self.duplicate = bool(settings.get("duplicate"))
        self.seed: int = settings["seed"]
        self.deals: int = settings["deals"]
        self.seeds: list[int] | None = None  # worked out at the first match line
        self.lines: dict[int, int] = {}  # the line of each match read

    def check(self, number: int, index: int, deal: int, rotation: int, seed: int) -> None:
        where = f"{self.path}, line {number}: match {index}"
        if not 0 <= index < self.matches:
            raise ResultsError(f"{where} is not one of the tournament's {self.matches} matches")
        if index in self.lines:
            raise ResultsError(f"{where} is there already, on line {self.lines[index]}")
        planned = divmod(index, self.seatings) if self.duplicate else (index, index % self.seatings)
        if (deal, rotation) != planned:
            raise ResultsError(
                f"{where} is of deal {deal} and seating {rotation}; the tournament plays it "
                f"as deal {planned[0]} and seating {planned[1]}"
            )
        if self.seeds is None:
            self.seeds = match_seeds(self.seed, self.deals)
        if seed != self.seeds[deal]:
            raise ResultsError(
                f"{where} has seed {seed}, but the tournament's seed {self.seed} gives it "
                f"{self.seeds[deal]}: the line is from another run"
            )
        self.lines[index] = number


def _check_seats(path: Path, number: int, seats: tuple[str, ...], bots: set[str]) -> None:
    unknown = sorted(set(seats) - bots)
    if unknown:
        raise ResultsError(
            f"{path}, line {number}: bot {unknown[0]!r} is not one of the tournament line's bots"
        )


def _check_match(path: Path, number: int, record: MatchRecord, settings: Mapping[str, Any]) -> None:
    """Refuse a match line that does not fit the tournament line: the summary counts its
    seats, totals, winners and deal as the tournament's, and would miscount or fail."""
    where = f"{path}, line {number}: match {record.index}"
    players, deals = settings["players"], settings["deals"]
    for name, values in (("seats", record.seats), ("totals", record.totals)):
        if len(values) != players:
            raise ResultsError(f"{where} has {len(values)} {name} for {players} players")
    if not record.winners or any(not 0 <= seat < players for seat in record.winners):
        raise ResultsError(f"{where} names winners {list(record.winners)} of {players} seats")
    if not 0 <= record.deal < deals:
        raise ResultsError(f"{where} is of deal {record.deal}; the tournament has {deals} deals")
    for game in record.rounds:
        for name in ("scores", "decisions", "seconds"):
            size = len(getattr(game, name))
            if size != players:
                raise ResultsError(
                    f"{where}, round {game.number}, has {size} {name} for {players} players"
                )


MAX_NUMBER = 10**15
"""The largest size, either way, of a count of points or decisions on a round or match line.
No run comes near it (a million decisions a second would take thirty years to reach it),
while a larger one, such as 10**400, is more than a float holds, and the summary, which
averages and divides these numbers as floats, would fail on it."""


def _check_sizes(
    path: Path, number: int, kind: str, fields: Mapping[str, tuple[int, ...] | None]
) -> None:
    """Refuse a line holding a number of points or decisions beyond :data:`MAX_NUMBER`."""
    for name, values in fields.items():
        for value in values or ():
            if abs(value) > MAX_NUMBER:
                digits = len(str(abs(value)))
                shown = str(value) if digits <= 20 else f"a number of {digits} digits"
                raise ResultsError(
                    f"{path}, line {number}: the {kind} line's {name!r} holds {shown}; no run "
                    f"reaches more than 10**15 either way"
                )


def _is_seconds(value: Any) -> bool:
    """Whether ``value`` is a time a run can take: a number from 0 to :data:`MAX_NUMBER`
    seconds. NaN and the infinities that Python's JSON reader accepts are not: summed into
    the summary, they would make ``report --json`` print something that is not JSON."""
    return (
        not isinstance(value, bool) and isinstance(value, (int, float)) and 0 <= value <= MAX_NUMBER
    )


def _check_seconds(path: Path, number: int, kind: str, values: Any) -> None:
    """Refuse a round or match line whose seconds, seat by seat, are not all times."""
    for value in values if isinstance(values, (list, tuple)) else [values]:
        if not _is_seconds(value):
            raise ResultsError(
                f"{path}, line {number}: the {kind} line's 'seconds' must be numbers from 0 "
                f"to 10**15, not {json.dumps(value)[:40]}"
            )


def _check_end(path: Path, number: int, end: Mapping[str, Any]) -> None:
    """Refuse an end line whose duration the summary cannot read."""
    seconds = end.get("seconds")
    if not _is_seconds(seconds):
        shown = "missing" if "seconds" not in end else f"not {json.dumps(seconds)[:40]}"
        where = f"{path}, line {number}: the end line's 'seconds'"
        raise ResultsError(f"{where} must be a number of seconds, {shown}")


def read_results(path: str | Path) -> Results:
    """Read a results file; raises :class:`ResultsError` naming the line of a problem."""
    path = Path(path)
    lines = _lines(path)
    first = next(lines, None)
    if first is None or first[1].get("format") != FORMAT:
        raise ResultsError(f"{path} is not a hand-rummy results file (no {FORMAT!r} first line)")
    settings = first[1]
    if settings.get("version") != VERSION:
        raise ResultsError(
            f"{path} is a results file of version {settings.get('version')!r}; this library "
            f"reads version {VERSION}"
        )
    _check_settings(path, first[0], settings)
    bots = set(settings["bots"])
    schedule = _Schedule(path, settings)
    matches: list[MatchRecord] = []
    failures: list[Failure] = []
    rounds: dict[int, list[RoundRecord]] = {}
    end: dict[str, Any] | None = None
    for number, doc in lines:
        try:
            kind = doc["type"]
            if end is not None:
                raise ResultsError(f"{path}, line {number}: a {kind} line after the end line")
            if kind == "round":
                game = RoundRecord.from_json(doc)
                sizes = {"scores": game.scores, "team_scores": game.team_scores}
                _check_sizes(path, number, kind, {**sizes, "decisions": game.decisions})
                _check_seconds(path, number, kind, game.seconds)
                rounds.setdefault(int(doc["match"]), []).append(game)
            elif kind == "match":
                index = int(doc["match"])
                record = MatchRecord.from_json(doc, tuple(rounds.pop(index, ())))
                if len(record.rounds) != int(doc["rounds"]):
                    raise ResultsError(
                        f"{path}, line {number}: match {index} has {doc['rounds']} rounds, "
                        f"but {len(record.rounds)} round lines come before it"
                    )
                _check_seats(path, number, record.seats, bots)
                _check_match(path, number, record, settings)
                sizes = {"totals": record.totals, "team_totals": record.team_totals}
                _check_sizes(path, number, kind, sizes)
                # the reader sums the match's seconds from its rounds; these must still be times
                _check_seconds(path, number, kind, doc.get("seconds", []))
                schedule.check(number, index, record.deal, record.rotation, record.seed)
                matches.append(record)
            elif kind == "failure":
                failure = Failure.from_json(doc)
                _check_seats(path, number, failure.seats, bots)
                f = failure
                schedule.check(number, f.match, f.deal, f.rotation, f.seed)
                failures.append(failure)
            elif kind == "end":
                _check_end(path, number, doc)
                end = doc
            else:
                raise ResultsError(f"{path}, line {number}: unknown type {kind!r}")
        except (KeyError, TypeError, ValueError, OverflowError) as err:
            problem = f"no {err}" if isinstance(err, KeyError) else f"{type(err).__name__}: {err}"
            raise ResultsError(
                f"{path}, line {number}: a {doc['type']} line that cannot be read ({problem})"
            ) from None
    return Results(
        settings=settings,
        matches=tuple(matches),
        failures=tuple(failures),
        finished=end is not None,
        stopped=bool(end and end.get("stopped")),
        seconds=float(end["seconds"]) if end else sum(sum(m.seconds) for m in matches),
    )
