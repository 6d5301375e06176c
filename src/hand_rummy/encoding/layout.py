"""The fixed layout of action ids for one ruleset and player count: blocks of consecutive ids.

Nothing here looks at a round: the layout is arithmetic on the ruleset's
policies (run and set shapes, wild limits, announcements, demotion, the deck
size), so two processes with the same ruleset agree on every id.

>>> from hand_rummy.cards import parse_card
>>> from hand_rummy.rules import presets
>>> layout = Layout.of(presets.levant, 4)
>>> layout.size
4037
>>> [(b.name, b.start, b.size) for b in layout.blocks][:5]
[('draw', 0, 1), ('take', 1, 1), ('claim_redeal', 2, 1), ('pass_redeal', 3, 1), ('discard', 4, 212)]
>>> layout.describe(layout.discard(parse_card("7H")))
'discard 7♥'
"""

from __future__ import annotations

import enum
import functools
import itertools

import attrs

from hand_rummy.cards import CARDS, Card, Rank, Suit
from hand_rummy.encoding.errors import (
    IdNotLegalError,
    NotCoveredError,
    TableTooLargeError,
    read_id,
)
from hand_rummy.errors import StrictValues, expect, number
from hand_rummy.melds import MeldRules
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.scoring import seats_refusal

__all__ = [
    "MAX_RUN",
    "Block",
    "Fill",
    "Layout",
    "RunFrame",
    "SetFrame",
    "check_layout",
    "most_table_slots",
]

MAX_RUN = 13
"""A run holds each rank once, so thirteen cards at most."""

_HIGH_ACE = 14
_FACES = 53
_EXCHANGE_CODES = 15
"""Per slot: a run's wild at offset 0-12, or a set's supply as a non-empty set of suits (1-15)."""


class Fill(StrictValues, enum.IntEnum):
    """How a card fills a place of a meld: the kinds of card a lay-off id names."""

    NATURAL = 0
    """The natural card itself (or a joker that counts as it, where jokers are not wild)."""
    WILD = 1
    """This round's wild card, standing for the place."""
    DEMOTED = 2
    """A wild taken from the discard pile, playing as itself (000 §Exchanging wild cards)."""
    DEMOTED_JOKER = 3
    """A joker taken from the discard pile, playing as an Ace."""


@attrs.frozen
class RunFrame:
    """A run's window: its suit, the value of its lowest card (1 or 14 for an Ace) and length."""

    suit: Suit
    start: int
    length: int

    def values(self, wrap: bool) -> tuple[int, ...]:
        """The value at each offset (1-13 taken cyclically when runs turn the corner)."""
        if wrap:
            return tuple((self.start - 1 + k) % 13 + 1 for k in range(self.length))
        return tuple(range(self.start, self.start + self.length))

    def cards(self, wrap: bool) -> tuple[Card, ...]:
        """The card each offset plays as."""
        return tuple(_card(value, self.suit) for value in self.values(wrap))


@attrs.frozen
class SetFrame:
    """A set: its rank, the suits of its natural cards (bits, clubs first) and its wild count."""

    rank: Rank
    suits: int
    wilds: int

    @property
    def natural_suits(self) -> tuple[Suit, ...]:
        return tuple(s for s in Suit if self.suits >> s & 1)

    @property
    def wild_suits(self) -> tuple[Suit, ...]:
        """The suits the wild cards stand for: the missing ones, in suit order."""
        return tuple(s for s in Suit if not self.suits >> s & 1)[: self.wilds]


def _card(value: int, suit: Suit) -> Card:
    return CARDS[int(suit) * 13 + (0 if value == _HIGH_ACE else value - 1)]


@attrs.frozen
class Block:
    """A run of consecutive ids that mean one kind of action."""

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size

    def __contains__(self, action_id: object) -> bool:
        return isinstance(action_id, int) and self.start <= action_id < self.stop


def most_table_slots(ruleset: Ruleset) -> int:
    """The most melds the deck of ``ruleset`` can make: its size over the smallest meld."""
    smallest = max(1, min(ruleset.runs.min_length, ruleset.sets.min_size))
    return ruleset.deck.size // smallest


def check_layout(ruleset: Ruleset, players: int, table_slots: int | None) -> int:
    """Refuse what no layout is made of; the number of table slots, filled in if ``None``."""
    expect(ruleset, Ruleset, "the ruleset")
    expect(players, int, "the number of players")
    if not ruleset.players.allows(players):
        raise NotCoveredError(seats_refusal(players, ruleset))
    most = most_table_slots(ruleset)
    if table_slots is None:
        return most
    expect(table_slots, int, "the number of table slots")
    if table_slots < 1:
        raise NotCoveredError(f"the table needs at least one slot, not {number(table_slots)}")
    if table_slots > most:
        # more slots could never be filled, and each one adds ids (and observation rows)
        raise NotCoveredError(
            f"the table needs at most {most} slots, the most melds a deck of "
            f"{ruleset.deck.size} cards can make, not {number(table_slots)}"
        )
    return table_slots


class Layout:
    """Every id of the action space of ``ruleset`` with ``players`` players.

    Build it with :meth:`of` (cached). ``table_slots`` bounds the table melds
    that lay-off and exchange ids can name; by default it is the most melds
    the deck can make (its size over the smallest meld), so no table ever
    exceeds it, and more slots are refused (they could never be filled). A smaller
    bound makes the space smaller, and a table beyond it
    raises :class:`~hand_rummy.encoding.errors.TableTooLargeError`.
    """

    def __init__(self, ruleset: Ruleset, players: int, table_slots: int | None = None) -> None:
        self.table_slots = check_layout(ruleset, players, table_slots)
        self.ruleset = ruleset
        self.players = players
        runs = ruleset.runs
        self.wrap = runs.wrap
        self.has_wilds = ruleset.uses_indicator or ruleset.deck.jokers > 0
        self.announces = bool(ruleset.going_out.announce_at)
        self.demotes = ruleset.demotion.enabled
        self.extra_wilds = self.has_wilds and _runs_take_two_wilds(ruleset)
        self.fills = 4 if self.demotes else 2
        blocks: list[Block] = []

        def block(name: str, size: int, meaning: str) -> int:
            start = blocks[-1].stop if blocks else 0
            blocks.append(Block(name, start, size, meaning))
            return start

        self.draw = block("draw", 1, "draw from the stock")
        self.take = block("take", 1, "take the top of the discard pile")
        self.claim_redeal = block("claim_redeal", 1, "claim a redeal")
        self.pass_redeal = block("pass_redeal", 1, "keep the deal")
        copies = (2 if self.announces else 1) * (2 if self.demotes else 1)
        self._discard = block(
            "discard",
            _FACES * copies,
            "discard a face (53 faces, joker last)"
            + ("; then the same with the announcement" if self.announces else "")
            + ("; then all of it again for a demoted copy" if self.demotes else ""),
        )
        self.run_frames = _run_frames(ruleset)
        variants = (lambda length: length + 1) if self.has_wilds else (lambda length: 1)
        run_size = 4 * sum(variants(f.length) for f in self.run_frames)
        self._runs = block(
            "run",
            run_size,
            "lay a run: suit, lowest card and length, then no wild or the first wild's offset",
        )
        self.run_ids: dict[tuple[RunFrame, int | None], int] = {}
        self.run_of: list[tuple[RunFrame, int | None]] = []
        for suit in Suit:
            for frame in self.run_frames:
                framed = RunFrame(suit, frame.start, frame.length)
                wilds = range(frame.length) if self.has_wilds else ()
                for first in (None, *wilds):
                    self.run_ids[(framed, first)] = self._runs + len(self.run_of)
                    self.run_of.append((framed, first))
        set_frames = _set_frames(ruleset, self.has_wilds)
        self._sets = block(
            "set", len(set_frames), "lay a set: rank, natural suits and the number of wilds"
        )
        self.set_ids = {frame: self._sets + i for i, frame in enumerate(set_frames)}
        self.set_of = set_frames
        self._extra = block(
            "extra_wild",
            MAX_RUN - 1 if self.extra_wilds else 0,
            "another wild in the run being laid, at offset 1-12 (after the ones so far)",
        )
        self._demoted = block(
            "demoted",
            2 * MAX_RUN if self.demotes else 0,
            "in the meld being laid, the natural at a run offset or set suit is a demoted copy "
            "(13), or a demoted joker (13)",
        )
        self.submit = block("submit", 1, "lay down the melds chosen so far")
        self._lay_off = block(
            "lay_off",
            self.table_slots * 4 * self.fills,
            "lay off on a table slot: fill (natural, wild"
            + (", demoted, demoted joker" if self.demotes else "")
            + ") times place (a run's low or high end, or a set's suit)",
        )
        self._exchange = block(
            "exchange",
            self.table_slots * _EXCHANGE_CODES,
            "exchange a wild at a table slot: a run's wild by offset, a set's by suits paid",
        )
        self._rules: dict[Card | None, MeldRules] = {}
        self.blocks = tuple(blocks)
        self.size = blocks[-1].stop
        self._by_name = {b.name: b for b in blocks}

    @staticmethod
    def of(ruleset: Ruleset, players: int, table_slots: int | None = None) -> Layout:
        """The layout for ``ruleset`` and ``players`` (cached)."""
        # checked before the cache: 3.0 or True equal and hash as a cached 3 or 1 would
        check_layout(ruleset, players, table_slots)
        return _layout_of(ruleset, players, table_slots)

    @property
    def key(self) -> tuple[Ruleset, int, int]:
        """What the layout is made from: two layouts with one key number every id alike."""
        return (self.ruleset, self.players, self.table_slots)

    def rules(self, indicator: Card | None) -> MeldRules:
        """The ruleset with the wild cards that ``indicator`` makes (remembered)."""
        rules = self._rules.get(indicator)
        if rules is None:
            rules = self._rules[indicator] = MeldRules.of(self.ruleset, indicator)
        return rules

    def block(self, name: str) -> Block:
        """The block called ``name`` (see :attr:`blocks`)."""
        return self._by_name[name]

    def block_of(self, action_id: int) -> Block:
        """The block that holds ``action_id``."""
        for candidate in self.blocks:
            if action_id in candidate:
                return candidate
        # the error of an id outside the mask, as decoding such an id gives
        raise IdNotLegalError(
            f"there is no action id {number(action_id)}; ids run from 0 to {self.size - 1}"
        )

    # --- ids ------------------------------------------------------------------------

    def discard(self, card: Card, announce: bool = False, demoted: bool = False) -> int:
        if announce and not self.announces:
            raise NotCoveredError(f"{self.ruleset.title} has no announcements")
        if demoted and not self.demotes:
            raise NotCoveredError(f"{self.ruleset.title} demotes no wild cards")
        copies = 2 if self.announces else 1
        return self._discard + card.index + _FACES * (int(announce) + copies * int(demoted))

    def extra_wild(self, offset: int) -> int:
        if not self.extra_wilds or not 1 <= offset < MAX_RUN:
            raise NotCoveredError(f"{self.ruleset.title} has no id for a wild at offset {offset}")
        return self._extra + offset - 1

    def demoted(self, place: int, joker: bool) -> int:
        if not self.demotes or not 0 <= place < MAX_RUN:
            raise NotCoveredError(f"{self.ruleset.title} has no id for a demoted card there")
        return self._demoted + place + (MAX_RUN if joker else 0)

    def lay_off(self, slot: int, place: int, fill: Fill) -> int:
        self.check_slot(slot)
        if fill >= self.fills or not 0 <= place < 4:
            raise NotCoveredError(f"{self.ruleset.title} has no lay-off id for {fill.name}")
        return self._lay_off + slot * 4 * self.fills + int(fill) * 4 + place

    def lay_off_id(self, slot: int, code: int) -> int:
        """The id of a lay-off at ``slot`` with ``code`` (``fill * 4 + place``)."""
        self.check_slot(slot)
        if not 0 <= code < 4 * self.fills:
            raise NotCoveredError(f"{self.ruleset.title} has no lay-off code {code}")
        return self._lay_off + slot * 4 * self.fills + code

    def exchange(self, slot: int, code: int) -> int:
        self.check_slot(slot)
        return self._exchange + slot * _EXCHANGE_CODES + code

    def check_slot(self, slot: int) -> None:
        if slot >= self.table_slots:
            raise TableTooLargeError(
                f"table meld {slot + 1} is beyond the {self.table_slots} table slots of this "
                "action space; build it with more table_slots"
            )

    def is_meld_start(self, action_id: int) -> bool:
        """Whether ``action_id`` starts a meld (a run or set shape)."""
        return self._runs <= action_id < self._extra

    # --- meanings ----------------------------------------------------------------------

    def describe(self, action_id: int) -> str:
        """What ``action_id`` means, in words (table slots by number, from 0)."""
        action_id = read_id(action_id)
        found = self.block_of(action_id)
        at = action_id - found.start
        name = found.name
        if name in ("draw", "take", "claim_redeal", "pass_redeal", "submit"):
            return found.meaning
        if name == "discard":
            card = CARDS[at % _FACES]
            copies = at // _FACES
            announce = self.announces and copies % 2 == 1
            demoted = copies >= (2 if self.announces else 1)
            return (
                f"discard {card}"
                + (" (taken, natural)" if demoted else "")
                + (" and announce" if announce else "")
            )
        if name == "run":
            frame, first = self.run_of[at]
            cards = frame.cards(self.wrap)
            text = f"run {cards[0]}-{cards[-1]}"
            return text + ("" if first is None else f", wild at offset {first}")
        if name == "set":
            shape = self.set_of[at]
            suits = "".join(s.symbol for s in shape.natural_suits)
            return f"set of {shape.rank.label} {suits}" + (
                f" and {shape.wilds} wild" if shape.wilds else ""
            )
        if name == "extra_wild":
            return f"another wild at offset {at + 1}"
        if name == "demoted":
            kind = "demoted joker" if at >= MAX_RUN else "demoted copy"
            return f"a {kind} at place {at % MAX_RUN}"
        if name == "lay_off":
            slot, code = divmod(at, 4 * self.fills)
            fill, place = divmod(code, 4)
            return f"lay off a {Fill(fill).name.lower()} card at place {place} of slot {slot}"
        slot, code = divmod(at, _EXCHANGE_CODES)
        return f"exchange the wild of slot {slot} (code {code})"


def _run_frames(ruleset: Ruleset) -> tuple[RunFrame, ...]:
    """Every window of one suit (the suit left as clubs), lowest card first, then length."""
    runs = ruleset.runs
    frames = []
    if runs.wrap:
        for start in range(1, 14):
            for length in range(runs.min_length, MAX_RUN + 1):
                frames.append(RunFrame(Suit.CLUBS, start, length))
        return tuple(frames)
    low = 1 if runs.ace_low else 2
    high = _HIGH_ACE if runs.ace_high else 13
    for start in range(low, high + 1):
        for length in range(max(runs.min_length, 1), min(MAX_RUN, high - start + 1) + 1):
            frames.append(RunFrame(Suit.CLUBS, start, length))
    return tuple(frames)


def _set_frames(ruleset: Ruleset, has_wilds: bool) -> tuple[SetFrame, ...]:
    sets = ruleset.sets
    top = min(sets.max_size, 4)
    frames = []
    for rank in Rank:
        for suits in range(1, 16):
            naturals = bin(suits).count("1")
            for wilds in range(0, 4 - naturals + 1 if has_wilds else 1):
                if sets.min_size <= naturals + wilds <= top:
                    frames.append(SetFrame(rank, suits, wilds))
    return tuple(frames)


def _runs_take_two_wilds(ruleset: Ruleset) -> bool:
    """Whether some run may hold two or more wild cards under the wild limits and the deck."""
    copies = max(ruleset.deck.jokers, ruleset.deck.packs)
    limits = ruleset.wild_limits
    for length in range(max(ruleset.runs.min_length, 2), MAX_RUN + 1):
        for count in range(2, min(copies, length - 1) + 1):
            for places in itertools.combinations(range(length), count):
                mask = tuple(i in places for i in range(length))
                if not limits.check(MeldKind.RUN, mask, ""):
                    return True
    return False


@functools.lru_cache(maxsize=64)
def _layout_of(ruleset: Ruleset, players: int, table_slots: int | None) -> Layout:
    return Layout(ruleset, players, table_slots)
