"""What a tournament is: the rules, the bots round the table, the matches and their seeds.

A :class:`Tournament` is a frozen, picklable description; nothing is played
until :func:`hand_rummy.tournament.run` plays it. It lists its matches as
:class:`Table` entries, each with its own seed and seating, so that any match
can be played alone, in any process, in any order, with the same result.

Seats rotate: match ``i`` turns the list of bots ``i`` places round the table,
so every bot sits in every seat equally often. With *duplicate deals* the
same match seed (the same first dealer and the same shuffle for every round)
is played once under each seating, so that the luck of the cards falls on
every bot alike.

>>> t = Tournament("levant", players=4, bots=("greedy", "random"), matches=4, seed=1)
>>> [(table.deal, table.seats) for table in t.tables()][:2]
[(0, ('greedy', 'random', 'greedy', 'random')), (1, ('random', 'greedy', 'random', 'greedy'))]
>>> d = attrs.evolve(t, duplicate=True)
>>> [(table.deal, table.rotation) for table in d.tables()]
[(0, 0), (0, 1), (1, 0), (1, 1)]
>>> len({table.seed for table in d.tables()})
2
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from hand_rummy.errors import SEED_DIGITS, HandRummyError, number, shown
from hand_rummy.rules.presets import build
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.tournament.entrants import BotFactory, Entrant, entrant, seat_bots
from hand_rummy.tournament.lengths import (
    LengthError,
    check_length,
    end_rule,
    fixed_rounds,
    follows_rules,
)

if TYPE_CHECKING:
    from hand_rummy.match import Match

__all__ = [
    "MAX_MATCHES",
    "MAX_TIME_LIMIT",
    "ON_ERROR",
    "Table",
    "Tournament",
    "TournamentError",
    "bot_seed",
    "match_seeds",
]

ON_ERROR = ("stop", "continue")
"""What a run does when a bot fails: stop at the first failure, or leave that match out
and go on."""


MAX_MATCHES = 1_000_000
"""The most matches one tournament plays. Every record stays in memory until the run ends,
so a longer run is several tournaments with different seeds, each with its results file."""

MAX_ROUNDS = 10_000
"""The most rounds a match may be set to last (``rounds``): far more than any rules ask for,
and still a run that ends."""

MAX_TIME_LIMIT = 86_400.0
"""The longest time limit for one decision, in seconds (a day); a longer one limits nothing
and is more than the platform's timer holds."""


class TournamentError(HandRummyError):
    """A tournament that cannot be played as described; the message says what to change."""


def _ruleset(value: Ruleset | str) -> Ruleset:
    if isinstance(value, Ruleset):
        return value
    if isinstance(value, str):
        return build(value)
    raise TournamentError(f"the rules are a Ruleset or a preset name, not {value!r}")


def _entrants(values: Sequence[Entrant | str | BotFactory] | str) -> tuple[Entrant, ...]:
    if isinstance(values, str):
        values = values.split(",")
    if not isinstance(values, (list, tuple)):
        raise TournamentError(
            f"the bots are a list (or a comma-separated string), not a {type(values).__name__}"
        )
    return tuple(entrant(v) for v in values)


def _changed(ruleset: Ruleset) -> bool:
    """Whether ``ruleset`` is not a preset with named variants (changed with ``with_()``)."""
    try:
        return build(ruleset.name, ruleset.variants) != ruleset
    except HandRummyError:
        return True


def match_seeds(seed: int, count: int) -> list[int]:
    """The first ``count`` match seeds of a tournament seeded with ``seed``."""
    return list(itertools.islice(_seeds(seed), count))


def _seeds(seed: int) -> Iterator[int]:
    """The match seeds of a tournament seeded with ``seed``, one deal after another."""
    rng = random.Random(seed)
    while True:
        yield rng.randrange(2**31)


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a match seeded with ``match_seed``."""
    return match_seed * 31 + seat


@attrs.frozen
class Table:
    """One scheduled match: where it stands in the tournament, its seed and who sits where."""

    index: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    """The entrant name at each seat."""


def _nearest(low: int, step: int) -> str:
    """The multiples of ``step`` around a count just above ``low``, a multiple of it."""
    return f"{low} or {low + step}" if low else f"{step}"


def _period(names: Sequence[str]) -> int:
    """The number of different seatings that turning ``names`` round the table gives."""
    size = len(names)
    for period in range(1, size + 1):
        if size % period == 0 and all(names[i] == names[(i + period) % size] for i in range(size)):
            return period
    return size


@attrs.frozen
class Tournament:
    """Matches between bots under one ruleset: everything a worker needs to play them.

    ``rules`` is a :class:`~hand_rummy.rules.ruleset.Ruleset` or a preset
    name; ``bots`` lists one entrant a seat at most (names, references,
    factories or :class:`~hand_rummy.tournament.entrants.Entrant`; a shorter
    list is repeated round the table). ``matches`` counts every match played,
    each seating of a duplicate deal included. ``seed``, a whole number, gives every match
    its seed: the same tournament plays the same matches.

    ``rounds`` ends every match after that many rounds, whatever the ruleset's
    own end rule, and needs ``custom_length=True`` unless the ruleset's matches
    last a number of rounds that it allows (the app's 3, 5, 7 or 9); the
    summary names a custom length.

    A bot that fails (raises, chooses an illegal action, or takes longer than
    ``time_limit`` seconds for one decision) is reported; ``on_error`` says
    whether the run then stops or leaves that match out and goes on.
    """

    rules: Ruleset = attrs.field(converter=_ruleset)
    players: int
    bots: tuple[Entrant, ...] = attrs.field(converter=_entrants)
    matches: int
    seed: int = 0
    duplicate: bool = False
    """Play each deal once under every seating (duplicate deals)."""
    rounds: int | None = None
    custom_length: bool = False
    """Allow a match length that the rules do not (for quick runs)."""
    time_limit: float | None = None
    """Seconds a bot may take for one decision; ``None`` for no limit."""
    on_error: str = "stop"
    """``stop`` or ``continue``: see :data:`ON_ERROR`."""

    def __attrs_post_init__(self) -> None:
        for value, what in (
            (self.players, "players"),
            (self.matches, "matches"),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                # repr: "2" given as text must show as text, not as the number it reads as
                raise TournamentError(
                    f"the number of {what} must be a positive number, not {shown(value)}"
                )
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            # None seeded from the system: the schedule changed with every look at it
            raise TournamentError(f"the seed must be a whole number, not {self.seed!r}")
        if abs(self.seed) >= 10**SEED_DIGITS:
            raise TournamentError(f"the seed has at most {SEED_DIGITS} digits")
        if self.matches > MAX_MATCHES:
            raise TournamentError(
                f"a tournament plays at most {MAX_MATCHES:,} matches, "
                f"not {number(self.matches, grouped=True)}; "
                "play more as several tournaments with different seeds"
            )
        if not self.rules.players.allows(self.players):
            allowed = self.rules.players.describe().rstrip(".")
            raise TournamentError(
                f"{self.rules.title} is for {allowed}, not {number(self.players)}"
            )
        if not self.bots:
            raise TournamentError("a tournament needs at least one bot")
        if len(self.bots) > self.players:
            raise TournamentError(
                f"{len(self.bots)} bots for {self.players} seats; give at most one a seat "
                "(a shorter list is repeated round the table)"
            )
        by_name: dict[str, Entrant] = {}
        for bot in self.bots:
            seen = by_name.setdefault(bot.name, bot)
            if seen.factory != bot.factory:
                raise TournamentError(
                    f"two different bots are both named {bot.name!r}; name them apart with "
                    "Entrant(name, factory)"
                )
        if self.on_error not in ON_ERROR:
            raise TournamentError(f"on_error is 'stop' or 'continue', not {self.on_error!r}")
        if self.time_limit is not None:
            limit = self.time_limit
            if isinstance(limit, bool) or not isinstance(limit, (int, float)):
                kind = type(limit).__name__
                raise TournamentError(f"the time limit is a number of seconds, not a {kind}")
            if not limit > 0:
                raise TournamentError(f"the time limit must be positive, not {number(limit)}")
            # compared before isfinite(), which would convert a huge int to float and overflow
            if limit > MAX_TIME_LIMIT or not math.isfinite(limit):
                raise TournamentError(
                    f"the time limit is at most {MAX_TIME_LIMIT:g} seconds (a day), "
                    f"not {number(limit)}"
                )
        if self.rounds is not None:
            if isinstance(self.rounds, bool) or not isinstance(self.rounds, int):
                kind = type(self.rounds).__name__
                raise TournamentError(f"the rounds of a match are a whole number, not a {kind}")
            if self.rounds < 1:
                raise TournamentError(f"a match needs at least 1 round, not {number(self.rounds)}")
            if self.rounds > MAX_ROUNDS:
                raise TournamentError(
                    f"a match lasts at most {MAX_ROUNDS:,} rounds, "
                    f"not {number(self.rounds, grouped=True)}"
                )
        for flag, what in ((self.duplicate, "duplicate"), (self.custom_length, "custom_length")):
            if not isinstance(flag, bool):
                raise TournamentError(f"{what} is True or False, not {shown(flag)}")
        try:
            check_length(self.rules, self.rounds, custom=self.custom_length)
        except LengthError as err:
            raise TournamentError(
                f"{err} (custom_length=True)" if err.custom else str(err)
            ) from None
        if self.duplicate and self.matches % self.seatings:
            low = self.matches - self.matches % self.seatings
            raise TournamentError(
                f"duplicate deals play every deal under {self.seatings} seatings, so the "
                f"number of matches must be a multiple of {self.seatings} "
                f"(not {self.matches}: {_nearest(low, self.seatings)}?)"
            )

    # --- the table ------------------------------------------------------------------------

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """The different bots, in the order of their first seat."""
        return tuple({b.name: b for b in reversed(self.bots)}[n] for n in self.names)

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the different bots, in the order of their first seat."""
        return tuple(dict.fromkeys(b.name for b in self.bots))

    def entrant(self, name: str) -> Entrant:
        return next(b for b in self.bots if b.name == name)

    @property
    def seatings(self) -> int:
        """How many different seatings turning the bots round the table gives."""
        return _period([b.name for b in self.bots])

    @property
    def deals(self) -> int:
        """How many different deals (match seeds) the tournament plays."""
        return self.matches // self.seatings if self.duplicate else self.matches

    def tables(self) -> tuple[Table, ...]:
        """Every match in order: its deal, seating and seed."""
        return tuple(self.iter_tables())

    def iter_tables(self) -> Iterator[Table]:
        """The matches of :meth:`tables`, one at a time: a run starts with the first match
        instead of waiting for the whole schedule."""
        names = [b.name for b in self.bots]
        seatings = self.seatings
        # one seating for each rotation: a long run would otherwise rebuild them per match
        seats = [seat_bots(names, self.players, rotation) for rotation in range(seatings)]
        seeds = _seeds(self.seed)
        seed = 0
        for index in range(self.matches):
            if self.duplicate:
                deal, rotation = divmod(index, seatings)
            else:
                deal, rotation = index, index % seatings
            if not self.duplicate or rotation == 0:
                seed = next(seeds)
            yield Table(index, deal, rotation, seed, seats[rotation])

    # --- the matches ----------------------------------------------------------------------

    @property
    def match_rules(self) -> Ruleset:
        """The ruleset the matches are played under: ``rules`` with ``rounds`` applied."""
        return fixed_rounds(self.rules, self.rounds)

    @property
    def follows_rules(self) -> bool:
        """Whether the matches end as the ruleset's own end rule says (no custom length)."""
        return follows_rules(self.rules, self.rounds)

    def new_match(self, seed: int) -> Match:
        """A match of this tournament, dealt from ``seed``."""
        from hand_rummy.match import Match  # noqa: PLC0415 (keeps the import of this module light)

        return Match.new(self.match_rules, self.players, seed)

    def describe(self) -> dict[str, Any]:
        """The settings, as the first line of a results file holds them."""
        return {
            "rules": self.rules.name,
            "title": self.rules.title,
            "variants": list(self.rules.variants),
            "players": self.players,
            "matches": self.matches,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "seatings": self.seatings,
            "deals": self.deals,
            "bots": [b.name for b in self.bots],
            "entrants": {
                b.name: b.factory if isinstance(b.factory, str) else repr(b.factory)
                for b in self.entrants
            },
            "rounds": self.rounds,
            "custom_length": self.custom_length,
            "end_rule": end_rule(self.rules, self.rounds),
            "own_end_rule": end_rule(self.rules, None),
            "follows_rules": self.follows_rules,
            "changed_rules": _changed(self.rules),
            "time_limit": self.time_limit,
            "on_error": self.on_error,
        }
