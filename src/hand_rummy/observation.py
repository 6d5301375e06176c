"""Observation arrays for learning: what one player sees, as a flat ``float32`` array.

The array is built from a :class:`~hand_rummy.round.PlayerView` alone (or a
:class:`~hand_rummy.encoding.Decision`, which adds the pending lay-down), so two
rounds that differ only in cards the player cannot see give equal arrays. Its
shape is fixed per ruleset: seats are counted from the observer (0 is the
observer, 1 the next seat in seat order, ...) and padded to the most players the
ruleset allows, and the table has the action space's number of slots. Counts
are raw numbers (a hand's two copies of a card count 2), flags are 0 or 1, and
a one-hot section is all zeros when there is nothing to show.
:class:`ObservationLayout` names every section with its offset and size.

This module imports without numpy; :func:`observe` needs it and says so:
install the ``rl`` extra (``pip install 'hand-rummy[rl]'``).

>>> import hand_rummy as hr
>>> layout = ObservationLayout.of(hr.rulesets.levant)
>>> layout.size, layout.section("hand").size
(4722, 53)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from hand_rummy.cards import Card
from hand_rummy.encoding import Decision, TableTooLargeError
from hand_rummy.encoding.layout import Layout
from hand_rummy.errors import HandRummyError, InvalidStateError, expect, number, shown
from hand_rummy.extras import MissingExtraError
from hand_rummy.melds import Meld, MeldRules
from hand_rummy.memo import IdentityMemo
from hand_rummy.round import Obligation, Phase, PlayerView, TableMeld
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.wilds import MeldKind

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["NumpyMissingError", "ObservationLayout", "Section", "observe"]

_FACES = 53
_PHASES = tuple(Phase)
_OBLIGATIONS = tuple(Obligation)


class NumpyMissingError(MissingExtraError):
    """numpy is not installed; the observations need the ``rl`` extra (a
    :class:`~hand_rummy.extras.MissingExtraError`, as every missing extra is)."""


@attrs.frozen
class Section:
    """A part of the observation array: ``size`` numbers from ``start``, per seat or slot."""

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


_SEAT_FLAGS = ("opened", "melded", "missed", "partner")

_PER_SEAT = (
    ("hand_size", "cards held"),
    ("opened", "has opened"),
    ("melded", "laid anything on the table in an earlier turn"),
    ("announced", "the cards left said at the last announcement (0 if none)"),
    ("missed", "missed an announcement that was due"),
    ("turns_played", "turns played so far"),
    ("partner", "sits in the observer's team (the observer included)"),
)


class ObservationLayout:
    """The sections of the observation of ``ruleset`` (the same for every player count)."""

    def __init__(self, ruleset: Ruleset, table_slots: int | None = None) -> None:
        expect(ruleset, Ruleset, "the ruleset")
        self.ruleset = ruleset
        self.seats = ruleset.players.maximum
        players = next(
            n for n in range(ruleset.players.minimum, self.seats + 1) if ruleset.players.allows(n)
        )
        self.table_slots = Layout.of(ruleset, players, table_slots).table_slots
        seats, slots = self.seats, self.table_slots
        sections: list[Section] = []

        def add(name: str, size: int, meaning: str) -> None:
            start = sections[-1].stop if sections else 0
            sections.append(Section(name, start, size, meaning))

        add("phase", len(_PHASES), "one-hot: redeal, draw, play, over")
        add("to_move", seats, "one-hot: the seat to move, counted from the observer")
        add("hand", _FACES, "the observer's cards, counts per face (53 faces, joker last)")
        add("hand_demoted", _FACES, "of those, the demoted copies (wilds taken from the pile)")
        add("indicator", _FACES, "one-hot: the indicator card")
        add("wild", _FACES, "one-hot: this round's wild face")
        add("discards", _FACES, "the discard pile, counts per face")
        add("discard_top", _FACES, "one-hot: the top of the discard pile")
        add("discard_size", 1, "cards in the discard pile")
        add("stock_size", 1, "cards in the stock")
        add("reshuffles", 1, "times the discard pile became the stock")
        if ruleset.stock.reshuffles != 0:  # rules that renew the stock from the pile
            add(
                "renewed",
                _FACES,
                "the cards turned from the pile into the stock at its last renewal, less "
                "those the observer drew from it since: all the stock can hold, per face",
            )
        for name, meaning in _PER_SEAT:
            add(name, seats, f"per seat from the observer: {meaning}")
        add(
            "shown",
            seats * _FACES,
            "per seat from the observer: the cards everyone knows it holds, per face (taken "
            "from the pile or freed from the table, and not out of the hand since)",
        )
        add("opening_bar", 1, "the points the observer's opening needs now (0 once opened)")
        add("taken", _FACES, "one-hot: the discard taken in the turn being played")
        add("freed", _FACES, "one-hot: the wild freed by an exchange in that turn")
        add(
            "obligation",
            len(_OBLIGATIONS),
            "one-hot: meld the taken card, open, use the freed wild, go out",
        )
        add(
            "turn_flags",
            4,
            "laid down this turn, laid off this turn, bare first turn, the taken card is demoted",
        )
        add("table_present", slots, "per table slot: a meld lies there")
        add("table_run", slots, "per table slot: the meld is a run (else a set)")
        add("table_owner", slots * seats, "per table slot, one-hot: who laid it, from the observer")
        add("table_cards", slots * _FACES, "per table slot: what its cards play as, per face")
        add("table_wilds", slots * _FACES, "per table slot: the faces its wild cards stand for")
        add("pending", 2, "a lay-down is being chosen; the melds chosen so far")
        add("pending_cards", _FACES, "the cards of the pending melds, per face")
        add("pending_plays", _FACES, "what the pending melds' cards play as, per face")
        # a match (all zeros for a round played on its own): the standing a player knows
        add("match_rounds", 1, "rounds of the match finished so far")
        add("match_totals", seats, "per seat from the observer: the match total, if above 0")
        add("match_credits", seats, "per seat from the observer: minus the total, if below 0")
        self.sections = tuple(sections)
        self.size = sections[-1].stop
        self._by_name = {s.name: s for s in sections}
        self._teams: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        self.starts = {s.name: s.start for s in sections}
        """Each section's first place in the array, by name."""

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(ruleset: Ruleset, table_slots: int | None = None) -> ObservationLayout:
        """The layout for ``ruleset`` (cached)."""
        return ObservationLayout(ruleset, table_slots)

    def team(self, players: int, seat: int) -> tuple[int, tuple[int, ...]]:
        """The number of ``seat``'s team among ``players`` seats, and its seats (remembered)."""
        known = self._teams.get((players, seat))
        if known is None:
            teams = self.ruleset.players.teams(players)
            mine = next(team for team in teams if seat in team)
            known = self._teams[players, seat] = (teams.index(mine), mine)
        return known

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def section(self, name: str) -> Section:
        """The section called ``name`` (one of ``[s.name for s in layout.sections]``)."""
        section = self._by_name.get(name)
        if section is None:
            known = ", ".join(self._by_name)
            raise InvalidStateError(f"the observation has no section {name!r}; it has {known}")
        return section


@functools.lru_cache(maxsize=1)
def _numpy() -> Any:
    """numpy, imported once (a failed import is not remembered, so it is tried again)."""
    try:
        import numpy  # noqa: PLC0415 (numpy is optional)
    except ImportError as error:
        raise NumpyMissingError(
            "the observations need numpy: install the rl extra (pip install 'hand-rummy[rl]')"
        ) from error
    return numpy


def observe(
    view: PlayerView | Decision,
    layout: ObservationLayout | None = None,
    *,
    totals: Sequence[int] = (),
    rounds: int = 0,
) -> npt.NDArray[Any]:
    """The observation of ``view`` (a view, or a decision with its pending lay-down).

    In a match, ``totals`` are the match totals by seat (``match.totals``) and ``rounds``
    the rounds finished (``len(match.rounds)``); a round on its own leaves them out.
    """
    np = _numpy()
    decision = view if isinstance(view, Decision) else None
    seen = view.view if isinstance(view, Decision) else view
    expect(seen, PlayerView, "the view")
    if layout is None:
        layout = ObservationLayout.of(seen.ruleset)
    if seen.ruleset is not layout.ruleset and seen.ruleset != layout.ruleset:
        raise HandRummyError(f"this observation layout is for {layout.ruleset.title}")
    if len(seen.table) > layout.table_slots:
        raise TableTooLargeError(
            f"the table holds {len(seen.table)} melds; the observation has "
            f"{layout.table_slots} table slots"
        )
    # the array is mostly zeros and small counts: count into bytes, which Python does
    # cheaply, and turn them into floats in one numpy call; a number above 255 (a long
    # round's turns, say) goes in afterwards
    at = layout.starts
    out = bytearray(layout.size)
    numbers: list[tuple[int, int]] = []
    players, me = seen.players, seen.seat

    def count(name: str, cards: Iterable[Card]) -> None:
        base = at[name]
        for card in cards:
            out[base + card.index] += 1

    def one(name: str, card: Card | None) -> None:
        if card is not None:
            out[at[name] + card.index] = 1

    out[at["phase"] + _PHASES.index(seen.phase)] = 1
    out[at["to_move"] + (seen.turn - me) % players] = 1
    count("hand", seen.hand)
    count("hand_demoted", seen.demoted)
    rules = decision.rules if decision is not None else MeldRules.of(seen.ruleset, seen.indicator)
    one("indicator", seen.indicator)
    count("wild", rules.wilds.wild)
    if seen.discards:
        low = at["discards"]
        out[low : low + _FACES] = _pile(seen.discards)
        out[at["discard_top"] + seen.discards[-1].index] = 1
    numbers.append((at["discard_size"], len(seen.discards)))
    numbers.append((at["stock_size"], seen.stock_size))
    numbers.append((at["reshuffles"], seen.reshuffles))
    if seen.renewal:
        if "renewed" not in at:
            raise InvalidStateError(
                f"the view has a stock renewed from the pile, which {layout.ruleset.title} "
                "never renews"
            )
        count("renewed", (Counter(seen.renewal) - Counter(seen.drawn)).elements())
    team, mine = layout.team(players, me)
    opened, melded, missed, partner = (at[name] for name in _SEAT_FLAGS)
    sizes, announced, played = at["hand_size"], at["announced"], at["turns_played"]
    for s in range(players):
        r = (s - me) % players
        numbers.append((sizes + r, seen.hand_sizes[s]))
        numbers.append((announced + r, seen.announced[s]))
        numbers.append((played + r, seen.turns_played[s]))
        out[opened + r] = seen.opened[s]
        out[melded + r] = seen.melded[s]
        out[missed + r] = seen.missed[s]
        out[partner + r] = s in mine
    if seen.shown:
        for s, cards in enumerate(seen.shown):
            base = at["shown"] + ((s - me) % players) * _FACES
            for card in cards:
                out[base + card.index] += 1
    if not seen.opened[me]:
        bar = seen.ruleset.opening.required(me, team, seen.openings, seen.players)
        numbers.append((at["opening_bar"], bar or 0))
    current = seen.current
    # the turn in progress, whoever plays it: everyone at the table sees it
    one("taken", current.taken)
    one("freed", current.freed)
    if current.obligation is not None:
        out[at["obligation"] + _OBLIGATIONS.index(current.obligation)] = 1
    flags = at["turn_flags"]
    out[flags : flags + 4] = bytes(
        (current.laid_down, current.laid_off, current.first_turn_bare, current.taken_demoted)
    )
    if seen.table:
        low = at["table_present"]
        block = _table_block(seen.table, rules, layout, me, players)
        out[low : low + len(block)] = block
    if decision is not None and decision.pending:
        melds = decision.pending_melds()
        out[at["pending"]] = 1
        numbers.append((at["pending"] + 1, len(melds)))
        for pending in melds:
            count("pending_cards", pending.cards)
            count("pending_plays", _plays(pending, rules)[0])
    try:
        totals = tuple(totals)
    except TypeError:
        raise InvalidStateError(
            f"the match totals must be a list of whole numbers, not {shown(totals, 60)}"
        ) from None
    if totals or rounds:
        expect(rounds, int, "the rounds finished")
        if len(totals) != players or rounds < 0:
            raise InvalidStateError(
                f"a match standing needs {players} totals and rounds of 0 or more, not "
                f"{len(totals)} totals and {number(rounds)} rounds"
            )
        _within_float32(rounds, "the rounds finished")
        numbers.append((at["match_rounds"], rounds))
        for s, total in enumerate(totals):
            expect(total, int, "a match total")
            _within_float32(total, "a match total")
            r = (s - me) % players
            numbers.append((at["match_totals"] + r, max(total, 0)))
            numbers.append((at["match_credits"] + r, max(-total, 0)))
    large = []
    for place, value in numbers:
        if 0 <= value < 256:
            out[place] = value
        else:
            large.append((place, value))
    result: npt.NDArray[Any] = np.frombuffer(out, dtype=np.uint8).astype(np.float32)
    for place, value in large:
        result[place] = value
    return result


_EXACT = 2**24
"""The largest whole number a float32, the observation's type, holds exactly."""


def _within_float32(value: int, what: str) -> None:
    # a larger number would be rounded in the observation, and one past 3.4e38 overflow it
    if not -_EXACT <= value <= _EXACT:
        raise InvalidStateError(
            f"{what} must be from {-_EXACT:,} to {_EXACT:,} (what a float32 holds exactly), "
            f"not {number(value)}"
        )


_PILES: IdentityMemo[bytes] = IdentityMemo(limit=16)


def _pile(discards: tuple[Card, ...]) -> bytes:
    """The discard pile's counts per face; remembered by the pile's identity, since one pile
    is seen at several steps (the draw and the play of a turn, every seat's observation)."""
    key = (id(discards),)
    counts = _PILES.get(key)
    if counts is None:
        tally = bytearray(_FACES)
        for card in discards:
            tally[card.index] += 1
        counts = _PILES.put(key, (discards,), bytes(tally))
    return counts


_TABLE_BLOCKS: IdentityMemo[bytes] = IdentityMemo(limit=64)


def _table_block(
    table: tuple[TableMeld, ...],
    rules: MeldRules,
    layout: ObservationLayout,
    me: int,
    players: int,
) -> bytes:
    """The table's sections of the array (from ``table_present`` up to ``pending``), as
    seen from seat ``me``; remembered by the identity of the table, which lies unchanged
    for many observations (every seat's, at every step until a meld is laid or grown)."""
    key = (id(table), id(rules), id(layout), me, players)
    block = _TABLE_BLOCKS.get(key)
    if block is not None:
        return block
    at = layout.starts
    low = at["table_present"]
    seats = layout.seats
    places = bytearray(at["pending"] - low)
    for slot, meld in enumerate(table):
        places[slot] = 1  # table_present opens the block
        if meld.kind is MeldKind.RUN:
            places[at["table_run"] - low + slot] = 1
        places[at["table_owner"] - low + slot * seats + (meld.owner - me) % players] = 1
        plays, wilds = _plays(meld.meld, rules)
        cards = at["table_cards"] - low + slot * _FACES
        wild = at["table_wilds"] - low + slot * _FACES
        for card in plays:
            places[cards + card.index] += 1
        for card in wilds:
            places[wild + card.index] += 1
    return _TABLE_BLOCKS.put(key, (table, rules, layout), bytes(places))


@functools.lru_cache(maxsize=1024)
def _plays(meld: Meld, rules: MeldRules) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """What each card of ``meld`` plays as, and what its wild cards stand for (remembered:
    a meld stays on the table for many observations)."""
    plays = tuple(
        r if r is not None else rules.wilds.natural_as(c) for c, r in zip(meld.cards, meld.roles)
    )
    wilds = tuple(
        p
        for i, (c, p) in enumerate(zip(meld.cards, plays))
        if rules.is_wild(c) and i not in meld.demoted
    )
    return tuple(p for p in plays if p.index < _FACES), wilds
