"""A brute-force oracle for :func:`hand_rummy.finishing.finish_plan`.

``finish_plan`` answers whether a player can get rid of every card this turn, and with
which new melds. It is
fast because it relies on two arguments: any finishing turn may be reordered so that
the new melds come first, then the lay-offs on older melds, then the discard; and a
card laid off on the player's own new meld could have been part of that meld from the
start. It also prunes with the meld finder's tables and a reachability test.

The oracle here relies on none of that and shares no code with ``finishing`` or the
finder. It walks every sequence of moves a finishing turn could make, one move at a
time, with only :func:`~hand_rummy.melds.judge_meld` (for a new meld) and
:func:`~hand_rummy.table.lay_off` (for a single lay-off, going out) as judges:

* a new meld: any sub-multiset of the cards still held, three or more, with every
  plausible role for each wild card (a card of the rank or of the suit that the
  fixed cards share, or no role at all and let the judge infer one); a demoted joker
  is tried as each Ace and with no role. The judged table form goes on the table,
  owned by the player;
* a lay-off: any single held card on any table meld the rules let the player use
  (new ones included), a wild with every role sharing a rank or suit with the meld
  and with none, a demoted card as a demoted card;
* the discard: the last card, when the rules want or allow one and it may go.

It succeeds when the hand is empty and the discard rule is met. States are
(remaining hand, table) pairs, remembered, and the positions are small (at most
eight cards in hand, at most three melds on the table) so that this stays cheap.

``HR_ORACLE_SCALE=10`` multiplies the number of generated examples.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, given, note, settings
from hypothesis import strategies as st

from hand_rummy.cards import CARDS, JOKER, NATURAL_CARDS, Card, Rank, Suit, parse_card, parse_cards
from hand_rummy.finder import MeldFinder
from hand_rummy.finishing import FinishRules, Way, finish_way
from hand_rummy.melds import Meld, MeldRules, judge_meld
from hand_rummy.rules import presets
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.turn import FreedWild
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import DEMOTED, TableMeld
from hand_rummy.table import LayoffContext, exchange, lay_off

SCALE = float(os.environ.get("HR_ORACLE_SCALE", "1"))
EXAMPLES = max(1, round(600 * SCALE))
"""Generated examples per rule configuration."""

SEAT = 0
GOING_OUT = LayoffContext(going_out=True)

CONFIGS: dict[str, tuple[Ruleset, bool]] = {
    # name: (ruleset, whether an indicator card is turned)
    "levant": (presets.levant, True),
    "levant+demoted_wild_counts": (presets.build("levant", ["demoted_wild_counts"]), True),
    "romme": (presets.romme, False),
    "romme+round_the_corner": (presets.build("romme", ["round_the_corner"]), False),
    "gulf": (presets.gulf, False),
}

Entry = tuple[Meld, MeldKind, int]
"""A meld on the table as the oracle keeps it: table form, kind, owner."""
State = tuple[tuple[int, ...], tuple[Entry, ...]]
"""The hand slots still held (sorted, one entry per card) and the table (sorted)."""
NEW = -1
"""The owner the oracle gives the melds laid this turn (the player's own)."""
_OWED: Entry = (Meld.of("2C 3C 4C"), MeldKind.RUN, -2)
"""The last entry of a table while a card that must be melded is not: a marker, no meld."""


def finish_plan(*args: Any, **kwargs: Any) -> tuple[int, ...] | None:
    """The new melds of :func:`~hand_rummy.finishing.finish_way`'s way, or ``None``."""
    way: Way | None = finish_way(*args, **kwargs)
    return None if way is None else way.melds


# --- the oracle -----------------------------------------------------------------------


def _fixed_play(slot: int, rules: MeldRules) -> Card | None:
    """The natural card a hand slot plays as, or ``None`` when that is not settled by the
    card alone (a wild card, or a demoted joker that may be any Ace)."""
    card = CARDS[slot % DEMOTED]
    if slot >= DEMOTED:
        return None if card.is_joker else card
    if rules.is_wild(card):
        return None
    return rules.wilds.natural_as(card)


def _is_wild_slot(slot: int, rules: MeldRules) -> bool:
    return slot < DEMOTED and rules.is_wild(CARDS[slot])


def _readings(slots: Sequence[int], rules: MeldRules) -> Iterator[Meld]:
    """Every way to write ``slots`` as a meld that has a chance of being legal."""
    fixed = [p for p in (_fixed_play(s, rules) for s in slots) if p is not None]
    wild_at = [i for i, s in enumerate(slots) if _is_wild_slot(s, rules)]
    loose_jokers = [i for i, s in enumerate(slots) if s >= DEMOTED and CARDS[s - DEMOTED].is_joker]
    if not fixed and not loose_jokers:
        return  # all wild: no preset allows it (checked in test_all_wild_melds_are_refused)
    ranks = {c.rank for c in fixed} | ({Rank.ACE} if loose_jokers else set())
    suits = {c.suit for c in fixed}
    options: list[Card] = []
    if len(ranks) == 1:
        (rank,) = ranks
        assert rank is not None
        options += [Card(rank, s) for s in Suit]
    if len(suits) == 1:
        (suit,) = suits
        assert suit is not None
        options += [Card(r, suit) for r in Rank]
    elif not suits:
        options += list(NATURAL_CARDS)  # only demoted jokers are fixed: any suit will do
    if wild_at and not options:
        return  # the fixed cards share neither a rank nor a suit: no run, no set
    # a meld never holds the same card twice, so a wild never doubles a fixed card
    wild_roles: list[Card | None] = [None, *(c for c in dict.fromkeys(options) if c not in fixed)]
    joker_roles: list[Card | None] = [None, *(Card(Rank.ACE, s) for s in Suit)]
    cards = tuple(CARDS[s % DEMOTED] for s in slots)
    demoted = frozenset(i for i, s in enumerate(slots) if s >= DEMOTED)
    seen: set[object] = set()
    per_wild = [wild_roles] * len(wild_at)
    per_joker = [joker_roles] * len(loose_jokers)
    for chosen in itertools.product(*per_wild, *per_joker):
        given = [r for r in chosen if r is not None]
        if len(given) != len(set(given)):
            continue
        roles: list[Card | None] = [None] * len(slots)
        for at, role in zip((*wild_at, *loose_jokers), chosen):
            roles[at] = role
        # identical wild cards are interchangeable: keep one assignment of each kind
        key = tuple(sorted((slots[i], -1 if r is None else r.index) for i, r in enumerate(roles)))
        if key in seen:
            continue
        seen.add(key)
        yield Meld(cards, tuple(roles), demoted)


_MELDS: dict[tuple[MeldRules, tuple[int, ...]], tuple[tuple[Meld, MeldKind], ...]] = {}
_LAYOFFS: dict[tuple[MeldRules, Meld, int], tuple[Meld, ...]] = {}


def legal_melds(slots: tuple[int, ...], rules: MeldRules) -> tuple[tuple[Meld, MeldKind], ...]:
    """Every table form a new meld of exactly these hand slots can take."""
    key = (rules, slots)
    found = _MELDS.get(key)
    if found is None:
        out: dict[tuple[Meld, MeldKind], None] = {}
        for reading in _readings(slots, rules):
            judged = judge_meld(reading, rules)
            if judged.ok:
                assert judged.meld is not None and judged.kind is not None
                out[(judged.meld, judged.kind)] = None
        found = tuple(out)
        if len(_MELDS) > 200_000:
            _MELDS.clear()
        _MELDS[key] = found
    return found


def layoff_results(meld: Meld, slot: int, rules: MeldRules) -> tuple[Meld, ...]:
    """Every way the meld can lie after the card in ``slot`` is laid off on it, going out."""
    key = (rules, meld, slot)
    found = _LAYOFFS.get(key)
    if found is not None:
        return found
    card = CARDS[slot % DEMOTED]
    roles: list[Card | None] = [None]
    if slot >= DEMOTED and card.is_joker:
        roles += [Card(Rank.ACE, s) for s in Suit]
    elif _is_wild_slot(slot, rules):
        plays = [
            r if r is not None else rules.wilds.natural_as(c)
            for c, r in zip(meld.cards, meld.roles)
        ]
        roles += [
            c for c in NATURAL_CARDS if any(c.rank == p.rank or c.suit == p.suit for p in plays)
        ]
    out: dict[Meld, None] = {}
    for role in roles:
        result = lay_off(
            meld,
            [card],
            rules,
            roles=None if role is None else {0: role},
            demoted=(0,) if slot >= DEMOTED else (),
            context=GOING_OUT,
        )
        if result.ok:
            assert result.meld is not None
            out[result.meld] = None
    found = tuple(out)
    if len(_LAYOFFS) > 200_000:
        _LAYOFFS.clear()
    _LAYOFFS[key] = found
    return found


def _entry_key(entry: Entry) -> tuple[object, ...]:
    meld, kind, owner = entry
    return (
        kind.value,
        tuple(c.index for c in meld.cards),
        tuple(-1 if r is None else r.index for r in meld.roles),
        tuple(sorted(meld.demoted)),
        owner,
    )


def _sub_multisets(
    hand: tuple[int, ...], least: int
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each sub-multiset of ``hand`` with at least ``least`` cards, with what is left."""
    have = Counter(hand)
    faces = sorted(have)
    for picked in itertools.product(*(range(have[f] + 1) for f in faces)):
        if sum(picked) < least:
            continue
        chosen = tuple(f for f, n in zip(faces, picked) for _ in range(n))
        rest = tuple(f for f, n in zip(faces, picked) for _ in range(have[f] - n))
        yield chosen, rest


def _drop(hand: tuple[int, ...], slot: int) -> tuple[int, ...]:
    at = hand.index(slot)
    return hand[:at] + hand[at + 1 :]


def _show(slot: int) -> str:
    return str(CARDS[slot % DEMOTED]) + ("(demoted)" if slot >= DEMOTED else "")


class Oracle:
    """Every sequence of moves of a finishing turn, with memory of the states seen."""

    def __init__(
        self,
        rules: MeldRules,
        finish: FinishRules,
        discardable: Callable[[int], bool],
        seat: int = SEAT,
        *,
        new_melds: bool = True,
        melding: frozenset[int] = frozenset(),
    ) -> None:
        self.rules = rules
        self.finish = finish
        self.discardable = discardable
        self.seat = seat
        self.new_melds = new_melds
        """Whether the turn may lay new melds (without, only lay-offs and the discard)."""
        self.melding = melding
        """Hand slots of which one card must end in a new meld (laid in it, or laid off on
        it); the table then carries a marker entry until one does."""
        self.known: dict[State, bool] = {}
        self.step: dict[State, tuple[str, State | None]] = {}
        """For each state known to finish, the move that does it and the state after."""

    def __call__(self, hand: Sequence[int], table: Sequence[TableMeld]) -> bool:
        return self.solve(*self._start(hand, table))

    def _start(self, hand: Sequence[int], table: Sequence[TableMeld]) -> State:
        slots = tuple(slot for slot, n in enumerate(hand) for _ in range(n))
        entries = tuple(sorted(((m.meld, m.kind, m.owner) for m in table), key=_entry_key))
        if self.melding:
            entries = (*entries, _OWED)
        return slots, entries

    def plan(self, hand: Sequence[int], table: Sequence[TableMeld]) -> list[str]:
        """The moves of one way to finish that the oracle found (after a True answer)."""
        key: State | None = self._start(hand, table)
        moves = []
        while key is not None and key in self.step:
            move, key = self.step[key]
            moves.append(move)
        return moves

    def usable(self, owner: int) -> bool:
        return self.finish.on_others or owner in (self.seat, NEW)

    def solve(self, hand: tuple[int, ...], table: tuple[Entry, ...]) -> bool:
        key = (hand, table)
        known = self.known.get(key)
        if known is None:
            known = self._solve(hand, table)
            self.known[key] = known
        return known

    def _solve(self, hand: tuple[int, ...], table: tuple[Entry, ...]) -> bool:
        finish = self.finish
        key = (hand, table)
        owed = bool(table) and table[-1] is _OWED
        if owed:
            table = table[:-1]
        if not hand:
            return not finish.final_discard and not owed and not finish.keep
        if owed:
            pass  # the discard cannot be the last card: one card of ``melding`` is not melded
        elif finish.keep:
            # the turn ends on one card: two are left, one discarded and the other kept
            if len(hand) == 2:
                for discard, kept in (hand, hand[::-1]):
                    if self.discardable(discard):
                        self.step[key] = (f"discard {_show(discard)}, keep {_show(kept)}", None)
                        return True
        elif (
            len(hand) == 1
            and (finish.final_discard or finish.may_discard)
            and self.discardable(hand[0])
        ):
            self.step[key] = (f"discard {_show(hand[0])}", None)
            return True
        for slot in sorted(set(hand)):
            rest = _drop(hand, slot)
            for meld, after, owner, laid in self._lay_offs(table, slot):
                still_owed = owed and not (slot in self.melding and owner == NEW)
                changed = (*laid, _OWED) if still_owed else laid
                if self.solve(rest, changed):
                    self.step[key] = (
                        f"lay off {_show(slot)} on {meld.describe()} -> {after.describe()}",
                        (rest, changed),
                    )
                    return True
        if finish.exchanges and self._exchange(key, hand, table, owed):
            return True
        if not self.new_melds:
            return False
        for chosen, rest in _sub_multisets(hand, 3):
            for meld, kind in legal_melds(chosen, self.rules):
                grown = tuple(sorted((*table, (meld, kind, NEW)), key=_entry_key))
                if owed and self.melding.isdisjoint(chosen):
                    grown = (*grown, _OWED)
                if self.solve(rest, grown):
                    self.step[key] = (f"meld {meld.describe()}", (rest, grown))
                    return True
        return False

    def _exchange(
        self, key: State, hand: tuple[int, ...], table: tuple[Entry, ...], owed: bool
    ) -> bool:
        """A wild taken from any meld on the table (the turn's new melds too) by one or two
        ordinary cards of the hand, as :func:`~hand_rummy.table.exchange` judges, the freed
        wild joining the hand, or used by the very next move where the rules say so."""
        plain = tuple(slot for slot in hand if slot < DEMOTED)
        supplies = {(slot,) for slot in plain} | set(itertools.combinations(plain, 2))
        for i, (meld, kind, owner) in enumerate(table):
            if not self.usable(owner):
                continue
            for supply in sorted(supplies):
                result = exchange(meld, [CARDS[slot] for slot in supply], self.rules)
                if result.wild is None or result.meld is None:
                    continue
                rest = list(hand)
                for slot in supply:
                    rest.remove(slot)
                after = tuple(sorted((*rest, result.wild.index)))
                entry = (result.meld, kind, owner)
                changed = tuple(sorted((*table[:i], entry, *table[i + 1 :]), key=_entry_key))
                if owed:
                    changed = (*changed, _OWED)
                if self.finish.freed_wild is not FreedWild.KEEP:
                    if self._use_freed(key, after, changed, result.wild.index):
                        return True
                    continue
                if self.solve(after, changed):
                    shown = " ".join(_show(slot) for slot in supply)
                    self.step[key] = (f"exchange {shown} on {meld.describe()}", (after, changed))
                    return True
        return False

    def _use_freed(
        self, key: State, hand: tuple[int, ...], table: tuple[Entry, ...], wild: int
    ) -> bool:
        """The move right after an exchange that freed the wild in hand slot ``wild``, where
        it must be used at once: a new meld that holds it, or (``USE_NOW``) a lay-off of it
        on any meld the player may use. (The oracle asks this without ``melding``.)"""
        for chosen, rest in _sub_multisets(hand if self.new_melds else (), 3):
            if wild not in chosen:
                continue
            for meld, kind in legal_melds(chosen, self.rules):
                grown = tuple(sorted((*table, (meld, kind, NEW)), key=_entry_key))
                if self.solve(rest, grown):
                    self.step[key] = (f"exchange, then meld {meld.describe()}", (rest, grown))
                    return True
        if self.finish.freed_wild is not FreedWild.USE_NOW:
            return False
        rest = _drop(hand, wild)
        for meld, _, _, changed in self._lay_offs(table, wild):
            if self.solve(rest, changed):
                self.step[key] = (f"exchange, then lay it off on {meld.describe()}", None)
                return True
        return False

    def _lay_offs(
        self, table: tuple[Entry, ...], slot: int
    ) -> Iterator[tuple[Meld, Meld, int, tuple[Entry, ...]]]:
        """Each lay-off of the card in ``slot`` on a meld the player may use: the meld, the
        meld after it, its owner, and the table after it."""
        for i, (meld, kind, owner) in enumerate(table):
            if not self.usable(owner):
                continue
            for after in layoff_results(meld, slot, self.rules):
                entry = (after, kind, owner)
                changed = tuple(sorted((*table[:i], entry, *table[i + 1 :]), key=_entry_key))
                yield meld, after, owner, changed


# --- building positions ------------------------------------------------------------


def hand_vector(cards: Sequence[Card], demoted: Sequence[Card] = ()) -> tuple[int, ...]:
    """A 106-slot hand: ``cards`` plus ``demoted`` copies in the demoted slots."""
    vector = [0] * (2 * DEMOTED)
    for card in cards:
        vector[card.index] += 1
    for card in demoted:
        vector[DEMOTED + card.index] += 1
    return tuple(vector)


def table_meld(
    number: int, text: str, rules: MeldRules, owner: int = 1, roles: dict[int, str] | None = None
) -> TableMeld:
    judged = judge_meld(Meld.of(text, roles), rules)
    assert judged.ok and judged.meld is not None and judged.kind is not None, judged.verdict
    return TableMeld(number, owner, judged.meld, judged.kind)


def _rank_at(value: int) -> Rank:
    """The rank at a place in the cycle A 2 ... K A 2 ...: 1 and 14 are both the Ace."""
    return Rank((value - 1) % 13 + 1)


def _as_natural(card: Card, rules: MeldRules) -> Card | None:
    """The face that plays as ``card`` without being wild (the joker for a wild Ace in levant)."""
    if not rules.is_wild(card):
        return card
    if rules.wilds.joker_as == card:
        return JOKER
    return None


@attrs.frozen
class Position:
    config: str
    rules: MeldRules
    hand: tuple[int, ...]
    table: tuple[TableMeld, ...]
    finish: FinishRules
    forbidden: Card | None

    def discardable(self, slot: int) -> bool:
        return self.forbidden is None or CARDS[slot % DEMOTED] != self.forbidden

    def discardable_beside(self, slot: int, kept: int) -> bool:
        """:meth:`discardable` as the search asks it (here the card kept makes no odds)."""
        return self.discardable(slot)

    def describe(self) -> str:
        held = " ".join(_show(s) for s, n in enumerate(self.hand) for _ in range(n))
        table = "; ".join(
            f"{m.kind.value} {m.meld.describe()} (owner {m.owner})" for m in self.table
        )
        indicator = self.rules.wilds.indicator
        return (
            f"{self.config}, indicator {indicator}, wild {self.rules.wilds.describe()}\n"
            f"hand: {held}\ntable: {table or '(empty)'}\n{self.finish}, seat {SEAT}, "
            f"may not discard: {self.forbidden}"
        )


@st.composite
def positions(draw: st.DrawFn, config: str) -> Position:
    """A small position: a few legal table melds and a hand that is often close to them.

    The cards gather around one or two suits and a few neighbouring ranks (often near
    the Ace, where wild Aces, jokers counting as Aces and demoted cards belong), so that
    runs, sets and lay-offs exist; whole pieces (a run, a set, the cards that extend a
    table meld) are often spoilt by one card, so that near misses are as common as
    finishes. No face is used more often than the deck holds it.
    """
    ruleset, with_indicator = CONFIGS[config]
    copies: Counter[Card] = Counter()

    def room(cards: Sequence[Card]) -> bool:
        wanted = Counter(cards)
        return all(copies[c] + n <= ruleset.deck.copies(c.is_joker) for c, n in wanted.items())

    suits = draw(st.permutations(list(Suit)))[: draw(st.integers(1, 2))]
    centre = draw(st.one_of(st.integers(1, 14), st.sampled_from((1, 2, 3, 12, 13))))
    indicator = None
    if with_indicator:
        # the wild Aces are of the indicator's suit, often a suit in play; now and then the
        # indicator is an Ace, and then the jokers are wild (and can be demoted) instead
        suit = draw(st.sampled_from(suits if draw(st.booleans()) else list(Suit)))
        rank = Rank.ACE if draw(st.integers(0, 4)) == 0 else draw(st.sampled_from(list(Rank)[1:]))
        indicator = Card(rank, suit)
    rules = MeldRules.of(ruleset, indicator)
    # ranks near the centre, going round the corner (K A 2) when the centre is near it:
    # most rules refuse such runs, round_the_corner does not
    values = list(range(centre - 3, centre + 4))
    set_ranks = draw(
        st.lists(st.sampled_from(sorted({_rank_at(v) for v in values})), min_size=1, max_size=2)
    )
    wilds = sorted(rules.wilds.wild)
    jokers_demote = ruleset.demotion.demotes(JOKER, rules.wilds)
    # a card that plays only as an Ace (a demoted wild, a joker counting as an Ace) is laid
    # off only on a run with an Ace end or a set of Aces: build those now and then
    aces = sorted(
        {c.suit for c in wilds if c.suit is not None} | (set(Suit) if jokers_demote else set())
    )

    table: list[TableMeld] = []
    extensions: list[list[Card]] = []  # cards that extend a table meld, in the order they go on
    for number in range(draw(st.sampled_from((1, 2, 3, 0)))):
        to_aces = bool(aces) and draw(st.integers(0, 2)) == 0
        if draw(st.booleans()):
            suit = draw(st.sampled_from(aces if to_aces else suits))
            low = draw(
                st.sampled_from((2, 11, 12)) if to_aces else st.integers(centre - 4, centre + 2)
            )
            length = draw(st.integers(3, 5))
            shown = [Card(_rank_at(v), suit) for v in range(low, low + length)]
            ways = [
                [Card(_rank_at(low - k), suit) for k in range(1, 4)],
                [Card(_rank_at(low + length - 1 + k), suit) for k in range(1, 4)],
            ]
        else:
            rank = Rank.ACE if to_aces else draw(st.sampled_from(set_ranks))
            order = draw(st.permutations(list(Suit)))
            shown = [Card(rank, s) for s in order[: draw(st.integers(3, 4))]]
            ways = [[Card(rank, s) for s in order if Card(rank, s) not in shown]]
        # each shown card is played by a face: itself, or (for a wild Ace of levant) a joker
        # counting as that Ace or a demoted copy; now and then a wild takes one place
        faces: list[Card] = []
        roles: list[Card | None] = []
        downs: set[int] = set()
        for at, card in enumerate(shown):
            choices: list[tuple[Card, Card | None, bool]] = []
            if not rules.is_wild(card):
                choices.append((card, None, False))
            elif rules.wilds.joker_as == card:
                choices.append((JOKER, None, False))
            if ruleset.demotion.demotes(card, rules.wilds):
                choices.append((card, None, True))
            if card.rank is Rank.ACE and jokers_demote:
                choices.append((JOKER, card, True))
            if not choices:
                break
            face, role, down = choices[draw(st.integers(0, len(choices) - 1))]
            faces.append(face)
            roles.append(role)
            if down:
                downs.add(at)
        if len(faces) < len(shown):
            continue
        if wilds and draw(st.integers(0, 2)) == 0:
            at = draw(st.integers(0, len(shown) - 1))
            faces[at] = draw(st.sampled_from(wilds))
            roles[at] = shown[at]
            downs.discard(at)
        judged = judge_meld(Meld(tuple(faces), tuple(roles), frozenset(downs)), rules)
        if not judged.ok or not room(faces):
            continue
        assert judged.meld is not None and judged.kind is not None
        copies.update(faces)
        table.append(TableMeld(number, draw(st.integers(0, 3)), judged.meld, judged.kind))
        extensions += [way for way in ways if way]

    focus = [Card(_rank_at(v), s) for s in suits for v in values]
    near = [*focus, *(c for way in extensions for c in way[:2])]
    picks: list[Card] = []
    for _ in range(draw(st.integers(1, 3))):
        piece = draw(st.sampled_from(("extend", "run", "extend", "set", "extend", "loose", "wild")))
        if piece == "extend" and extensions:
            way = draw(st.sampled_from(extensions))
            picks += way[: draw(st.integers(1, len(way)))]
        elif piece == "run":
            suit = draw(st.sampled_from(suits))
            low = draw(st.sampled_from(values))
            picks += [Card(_rank_at(v), suit) for v in range(low, low + draw(st.integers(3, 4)))]
        elif piece == "set":
            rank = draw(st.sampled_from(set_ranks))
            picks += [Card(rank, s) for s in draw(st.permutations(list(Suit)))[:3]]
        elif piece == "wild" and wilds:
            picks.append(draw(st.sampled_from(wilds)))
        else:
            picks += draw(st.lists(st.sampled_from(near), min_size=1, max_size=3))
    # spoil the pieces a little: lose a card, add a stray one (a wild, a joker, any card)
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()) and picks:
            del picks[draw(st.integers(0, len(picks) - 1))]
        else:
            picks.insert(
                draw(st.integers(0, len(picks))),
                draw(st.sampled_from([*wilds, JOKER, *near, *CARDS])),
            )
    plain: list[Card] = []
    demoted: list[Card] = []
    for pick in picks[:8]:
        # the joker is the other card that plays as a levant wild Ace
        swap = rules.wilds.joker_as == pick and draw(st.integers(0, 3)) == 0
        card = JOKER if swap else pick
        if not room([card]):
            continue
        copies[card] += 1
        if ruleset.demotion.demotes(card, rules.wilds) and draw(st.booleans()):
            demoted.append(card)
        else:
            plain.append(card)
    exchanges = draw(st.booleans())
    finish = FinishRules(
        final_discard=draw(st.booleans()),
        may_discard=draw(st.booleans()),
        on_others=draw(st.booleans()),
        exchanges=exchanges,
        new_melds=draw(st.integers(0, 3)) > 0,
        # the wild an exchange frees: kept, or used by the next move (002, matrix R4)
        freed_wild=draw(st.sampled_from(FreedWild)) if exchanges else FreedWild.KEEP,
    )
    forbidden: Card | None = None
    if (plain or demoted) and draw(st.integers(0, 3)) == 0:
        forbidden = draw(st.sampled_from([*plain, *demoted]))
    return Position(config, rules, hand_vector(plain, demoted), tuple(table), finish, forbidden)


def check(position: Position, melding: frozenset[int] = frozenset()) -> bool:
    """Compare ``finish_plan`` (with ``melding``) with the oracle on one position, and check
    the way it finds: its melds are legal, fit the hand, meld a card of ``melding``, and
    leave cards that go out without a new meld. Return the answer."""
    finder = MeldFinder.of(position.rules)
    oracle = Oracle(
        position.rules,
        position.finish,
        position.discardable,
        melding=melding,
        new_melds=position.finish.new_melds,
    )
    want = oracle(position.hand, position.table)
    way = finish_way(
        finder,
        position.hand,
        table=position.table,
        seat=SEAT,
        rules=position.finish,
        discardable=position.discardable_beside,
        melding=melding,
    )
    plan = None if way is None else way.melds
    how = oracle.plan(position.hand, position.table) if want else []
    got = plan is not None
    if got and not want and melding and position.finish.exchanges:
        # where exchanges may be part of a way and a card of ``melding`` is wild, ``melding``
        # is not held to when no way meets it (finish_plan says why): then some way out
        # exists without that condition
        free = Oracle(
            position.rules,
            position.finish,
            position.discardable,
            new_melds=position.finish.new_melds,
        )
        assert plan == () and free(position.hand, position.table), position.describe()
        event("a way out with melding aside, exchanges counting")
        return want
    assert got == want, (
        f"finish_plan says {got}, the oracle {want} (melding {sorted(melding)})\n"
        f"{position.describe()}\n" + (f"oracle's way out: {'; '.join(how)}" if how else "")
    )
    if plan is None:
        return want
    if plan == () and position.finish.exchanges:
        # a way that starts with an exchange is given as no melds: the oracle's answer above
        # is the check of it (the plan's shape is checked where the way needs no exchange)
        plain = attrs.evolve(position.finish, exchanges=False)
        if (
            finish_plan(
                finder,
                position.hand,
                table=position.table,
                seat=SEAT,
                rules=plain,
                discardable=position.discardable_beside,
                melding=melding,
            )
            is None
        ):
            if currently_in_test_context():  # (the hand-worked examples call this too)
                event(f"finishes only by an exchange, freed wild: {position.finish.freed_wild}")
            return want
    assert list(plan) == sorted(plan)
    melds = finder.melds_at(position.hand, plan)
    left = list(position.hand)
    for found in melds:
        assert judge_meld(found.meld, position.rules).ok, found.meld.describe()
        for slot in found.used:
            left[slot] -= 1
    assert min(left) >= 0, "the melds use cards the hand does not hold"
    assert not melding or any(slot in melding for found in melds for slot in found.used)
    lay_offs_only = Oracle(position.rules, position.finish, position.discardable, new_melds=False)
    assert lay_offs_only(tuple(left), position.table), (
        f"the plan's melds {[f.meld.describe() for f in melds]} leave cards that do not go out"
        f"\n{position.describe()}"
    )
    assert way is not None
    check_way(position, position.finish, left, way)
    return want


def _takes_in_order(meld: Meld, slots: tuple[int, ...], rules: MeldRules) -> bool:
    """Whether the cards of hand ``slots`` (sorted) can be laid off on ``meld`` one after
    another, in some order, by the oracle's own lay-offs."""
    if not slots:
        return True
    return any(
        _takes_in_order(after, _drop(slots, slot), rules)
        for slot in sorted(set(slots))
        for after in layoff_results(meld, slot, rules)
    )


def check_way(position: Position, finish: FinishRules, left: list[int], way: Way) -> None:
    """The lay-offs of ``way`` (where it takes no wild from the table): each group goes on
    its older meld in some order, and what the melds (which leave ``left``) and the groups
    leave may end the turn (no card, the discard, or the discard and the card kept)."""
    if way.lay_offs is None:
        return
    rest = list(left)
    for index, slots in way.lay_offs:
        target = position.table[index]
        assert finish.on_others or target.owner == SEAT
        assert _takes_in_order(target.meld, slots, position.rules), (
            f"{target.meld.describe()} cannot take {[_show(s) for s in slots]}"
        )
        for slot in slots:
            rest[slot] -= 1
    assert min(rest) >= 0, "the lay-offs use cards the melds took or the hand lacks"
    ends = tuple(slot for slot, count in enumerate(rest) for _ in range(count))
    if finish.keep:
        assert len(ends) == 2 and any(map(position.discardable, ends)), ends
    elif ends:
        assert len(ends) == 1 and (finish.final_discard or finish.may_discard), ends
        assert position.discardable(ends[0])
    else:
        assert not finish.final_discard


EACH_CONFIG = pytest.mark.parametrize("config", sorted(CONFIGS))
ORACLE_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
"""The oracle tests' Hypothesis settings: the positions are slow to draw and to solve."""


@EACH_CONFIG
@ORACLE_SETTINGS
@given(data=st.data())
def test_can_finish_agrees_with_the_oracle(config: str, data: st.DataObject) -> None:
    position = data.draw(positions(config))
    note(position.describe())
    answer = check(position)
    held = [slot for slot, count in enumerate(position.hand) if count]
    # (a card owed to a new meld and a freed wild owed to the next move are not asked together)
    melding = None
    if held and position.finish.freed_wild is FreedWild.KEEP:
        melding = frozenset(data.draw(st.lists(st.sampled_from(held), max_size=2)))
    if melding:
        event(f"finishes, melding one of {len(melding)}: {check(position, melding)}")
    event(f"finishes: {answer}")
    event(f"cards: {sum(position.hand)}, melds: {len(position.table)}")


@st.composite
def exchange_positions(draw: st.DrawFn, config: str) -> Position:
    """A position of :func:`positions` in which exchanges count and the hand holds the
    natural card that a wild of the table stands for (where the deck has a copy left),
    so that ways out through exchanges, rare among the positions above, are common."""
    position = draw(positions(config))
    ruleset, _ = CONFIGS[config]
    roles = [
        role
        for target in position.table
        for index, role in enumerate(target.meld.roles)
        if role is not None and index not in target.meld.demoted
    ]
    used = Counter(card for target in position.table for card in target.meld.cards)
    used.update(CARDS[slot % DEMOTED] for slot, n in enumerate(position.hand) for _ in range(n))
    hand = list(position.hand)
    for role in draw(st.lists(st.sampled_from(roles), max_size=2)) if roles else []:
        if used[role] < ruleset.deck.copies(role.is_joker) and sum(hand) < 8:
            used[role] += 1
            hand[role.index] += 1
    finish = attrs.evolve(
        position.finish, exchanges=True, freed_wild=draw(st.sampled_from(FreedWild))
    )
    return attrs.evolve(position, hand=tuple(hand), finish=finish)


@EACH_CONFIG
@settings(ORACLE_SETTINGS, max_examples=max(1, EXAMPLES // 2))  # each costs the oracle more
@given(data=st.data())
def test_finishing_through_exchanges_agrees_with_the_oracle(
    config: str, data: st.DataObject
) -> None:
    """The search where wilds may be taken from the table, the freed wild kept (000) or
    used by the very next move (002; matrix R4), against the oracle, which tries every
    order of moves."""
    position = data.draw(exchange_positions(config))
    note(position.describe())
    event(f"finishes: {check(position)}")


@EACH_CONFIG
@ORACLE_SETTINGS
@given(data=st.data())
def test_ending_on_one_card_agrees_with_the_oracle(config: str, data: st.DataObject) -> None:
    """The search with ``keep`` (the promise to end the turn holding one card, 000
    §Exchanging wild cards) against the oracle: every card but two goes by melds and
    lay-offs, then one of the two is discarded and the other kept."""
    position = data.draw(positions(config))
    finish = attrs.evolve(position.finish, final_discard=True, keep=True)
    note(position.describe())
    oracle = Oracle(position.rules, finish, position.discardable, new_melds=finish.new_melds)
    want = oracle(position.hand, position.table)
    way = finish_way(
        MeldFinder.of(position.rules),
        position.hand,
        table=position.table,
        seat=SEAT,
        rules=finish,
        discardable=position.discardable_beside,
    )
    plan = None if way is None else way.melds
    how = oracle.plan(position.hand, position.table) if want else []
    assert (plan is not None) == want, (
        f"finish_plan says {plan is not None}, the oracle {want}\n{position.describe()}\n"
        + (f"oracle's way: {'; '.join(how)}" if how else "")
    )
    event(f"ends on one card: {want}")
    if plan is not None:
        left = list(position.hand)
        for found in MeldFinder.of(position.rules).melds_at(position.hand, plan):
            for slot in found.used:
                left[slot] -= 1
        assert way is not None
        check_way(position, finish, left, way)


# --- worked by hand ---------------------------------------------------------------------

LEVANT_8C = MeldRules.of(presets.levant, "8C")
"""Levant with 8♣ turned: both A♣ are wild, and the jokers are ordinary A♣."""
ROMME = MeldRules.of(presets.romme)
"""Rommé: the jokers are wild."""

MUST_DISCARD = FinishRules(final_discard=True)
MELD_ALL = FinishRules(final_discard=False, may_discard=False)
EITHER = FinishRules(final_discard=False, may_discard=True)
OWN_ONLY = FinishRules(final_discard=True, on_others=False)

GULF = MeldRules.of(presets.gulf)
"""Gulf: the jokers are wild, one in a three-card meld and two in a longer one."""
ROMME_WRAP = MeldRules.of(presets.build("romme", ["round_the_corner"]))
"""Rommé in which a run may turn the corner, K-A-2."""

TableSpec = tuple[str, dict[int, str] | None, int]
"""A table meld in a worked example: its cards, the roles of its wilds, its owner."""
Worked = tuple[MeldRules, list[TableSpec], str, str, FinishRules, bool]

RUN_5H_7H: TableSpec = ("5H 6H 7H", None, 1)
RUN_4H_7H: TableSpec = ("4H 5H 6H 7H", None, 1)
RUN_10S_JK: TableSpec = ("10S JS JK", {2: "QS"}, 1)
USE_NOW = FinishRules(
    final_discard=False, may_discard=False, exchanges=True, freed_wild=FreedWild.USE_NOW
)
NEW_MELD = FinishRules(
    final_discard=False, may_discard=False, exchanges=True, freed_wild=FreedWild.NEW_MELD
)
SET_7S_7C: TableSpec = ("7S 7D 7C", None, 1)
KEEP_FREED = FinishRules(final_discard=True, exchanges=True)
"""000: exchanges are part of a way out, and the freed wild may stay in the hand."""

# rules, table melds as (cards, roles of wilds, owner), the hand (and the demoted part of
# it), the finish rules and the answer; the player is seat 0, and each comment says why
HAND_WORKED: dict[str, Worked] = {
    # 8♥ goes on the high end, then 9♥ on the new high end; K♠ is the discard.
    "run-two-up": (LEVANT_8C, [RUN_5H_7H], "8H 9H KS", "", MUST_DISCARD, True),
    # 9♥ does not touch 5♥-7♥ without 8♥, and two cards cannot both be the one discard.
    "run-gap": (LEVANT_8C, [RUN_5H_7H], "9H KS", "", MUST_DISCARD, False),
    # 4♥ goes below 5♥, then 3♥ below 4♥: lay-offs build down as well as up.
    "run-two-down": (LEVANT_8C, [RUN_5H_7H], "3H 4H KS", "", MUST_DISCARD, True),
    # The order of the hand does not matter: 8♥, 9♥, 10♥ in turn, then the discard.
    "run-chain": (LEVANT_8C, [RUN_5H_7H], "10H 9H 8H KS", "", MUST_DISCARD, True),
    # 7♥ is the set's missing suit; K♠ is the discard.
    "set-missing-suit": (LEVANT_8C, [SET_7S_7C], "7H KS", "", MUST_DISCARD, True),
    # After one 7♥ the set holds all four suits (a set has at most four cards, one per
    # suit), so the second 7♥ has nowhere to go; 7♥ 7♥ K♠ is no meld either, and two
    # cards are left for the single discard.
    "set-second-copy": (LEVANT_8C, [SET_7S_7C], "7H 7H KS", "", MUST_DISCARD, False),
    # ... unless there is another home for the second copy: the run 4♥-6♥ takes it.
    "set-and-run": (
        LEVANT_8C,
        [SET_7S_7C, ("4H 5H 6H", None, 1)],
        "7H 7H KS",
        "",
        MUST_DISCARD,
        True,
    ),
    # The run belongs to seat 1 and lay-offs on other players' melds are not allowed:
    # 8♥ 9♥ K♠ is no meld, so three cards stay.
    "not-on-others": (LEVANT_8C, [RUN_5H_7H], "8H 9H KS", "", OWN_ONLY, False),
    # The same, but the run is the player's own from an earlier turn: it may take them.
    "own-meld": (LEVANT_8C, [("5H 6H 7H", None, 0)], "8H 9H KS", "", OWN_ONLY, True),
    # Without a required discard and with none allowed, 8♥ and 9♥ lay off and the hand is
    # empty; with K♠ as well there is no way to lose K♠ ...
    "meld-all-empty": (LEVANT_8C, [RUN_5H_7H], "8H 9H", "", MELD_ALL, True),
    "meld-all-stuck": (LEVANT_8C, [RUN_5H_7H], "8H 9H KS", "", MELD_ALL, False),
    # ... but when a discard is allowed, K♠ can be it.
    "discard-allowed": (LEVANT_8C, [RUN_5H_7H], "8H 9H KS", "", EITHER, True),
    # A required discard needs a card left over: melding 4♠ 5♠ 6♠ empties the hand with
    # no discard, and discarding one of them leaves two that make nothing.
    "three-no-discard": (LEVANT_8C, [], "4S 5S 6S", "", MUST_DISCARD, False),
    # With four, meld three of them and discard the fourth (4♠ or 7♠).
    "four-one-discard": (LEVANT_8C, [], "4S 5S 6S 7S", "", MUST_DISCARD, True),
    # The same four cards go out in one meld when no discard is allowed.
    "four-all-melded": (LEVANT_8C, [], "4S 5S 6S 7S", "", MELD_ALL, True),
    # The wild A♣ stands for 8♥, then 9♥ follows; K♠ is the discard.
    "wild-bridge": (LEVANT_8C, [RUN_5H_7H], "AC 9H KS", "", MUST_DISCARD, True),
    # With 10♥ the wild can only be 4♥ or 8♥, and neither lets 10♥ (which needs 9♥) on:
    # two cards stay.
    "wild-too-short": (LEVANT_8C, [RUN_5H_7H], "AC 10H KS", "", MUST_DISCARD, False),
    # 7♠ 7♦ and a wild A♣ is two naturals and a wild; 000 lets such a set take one missing
    # card only in some turns, and going out is one of them: 7♣ goes on (the wild moves to
    # a suit still missing), and K♠ is the discard.
    "two-plus-wild-going-out": (
        LEVANT_8C,
        [("7S 7D AC", {2: "7H"}, 1)],
        "7C KS",
        "",
        MUST_DISCARD,
        True,
    ),
    # A demoted A♣ (a wild taken from the discard pile) plays as a natural A♣: it goes
    # below 2♣ 3♣ 4♣, and K♠ is the discard.
    "demoted-ace-natural": (LEVANT_8C, [("2C 3C 4C", None, 1)], "KS", "AC", MUST_DISCARD, True),
    # A demoted A♣ is no longer wild, so it cannot be a fourth 9; two cards stay ...
    "demoted-ace-not-wild": (LEVANT_8C, [("9S 9D 9H", None, 1)], "KS", "AC", MUST_DISCARD, False),
    # ... while an A♣ still wild becomes 9♣ in that set.
    "wild-ace-in-set": (LEVANT_8C, [("9S 9D 9H", None, 1)], "AC KS", "", MUST_DISCARD, True),
    # With 8♣ turned the joker is an ordinary A♣: it goes on top of J♣ Q♣ K♣ ...
    "joker-as-club-ace": (LEVANT_8C, [("JC QC KC", None, 1)], "JK KS", "", MUST_DISCARD, True),
    # ... but not on top of J♥ Q♥ K♥, since it is the A♣ and nothing else.
    "joker-not-heart-ace": (LEVANT_8C, [("JH QH KH", None, 1)], "JK KS", "", MUST_DISCARD, False),
    # Rommé: the joker is wild; as 8♥ it lets 9♥ follow, and nothing needs discarding.
    "romme-joker-bridge": (ROMME, [RUN_5H_7H], "JK 9H", "", MELD_ALL, True),
    # Rommé needs two naturals in every meld: 9♥ JK JK is no meld, and with no run on the
    # table the cards cannot go anywhere.
    "romme-one-natural": (ROMME, [], "9H JK JK", "", MELD_ALL, False),
    # Two naturals and a joker make a meld, 8♥ 9♥ JK(=10♥) or JK(=7♥) 8♥ 9♥.
    "romme-two-naturals": (ROMME, [], "8H 9H JK", "", MELD_ALL, True),
    # 5♥ 6♥ 7♥ is a meld, the joker goes on as 8♥ and 9♥ after it (or all five are
    # one meld from the start): nothing is left.
    "romme-long-run": (ROMME, [], "5H 6H 7H JK 9H", "", MELD_ALL, True),
    # Q♥ K♥ A♥ ends at the Ace: 2♥ and 3♥ fit nowhere in plain Rommé ...
    "romme-no-corner": (ROMME, [("QH KH AH", None, 1)], "2H 3H", "", MELD_ALL, False),
    # ... and turn the corner where K-A-2 is a run.
    "romme-corner": (ROMME_WRAP, [("QH KH AH", None, 1)], "2H 3H", "", MELD_ALL, True),
    # Gulf allows two wilds in a meld of four: the joker becomes 8♥ next to the one that
    # is 6♥, and K♠ is the discard ...
    "gulf-second-wild": (GULF, [("5H JK 7H", {1: "6H"}, 1)], "JK KS", "", EITHER, True),
    # ... while Levant allows one wild per meld, so the second wild A♣ stays with K♠.
    "levant-second-wild": (
        LEVANT_8C,
        [("5H AC 7H", {1: "6H"}, 1)],
        "AC KS",
        "",
        MUST_DISCARD,
        False,
    ),
    # Q♠ takes the joker of 10♠ J♠ JK; laid off at once (matrix R4's switch), the joker goes
    # onto 4♥-7♥ as 3♥ or 8♥ and the hand is empty ...
    "romme-freed-joker-laid-off": (ROMME, [RUN_4H_7H, RUN_10S_JK], "QS", "", USE_NOW, True),
    # ... but where it must start a new meld (002 §Exchanging a joker), a lone joker cannot;
    "romme-freed-joker-alone": (ROMME, [RUN_4H_7H, RUN_10S_JK], "QS", "", NEW_MELD, False),
    # with 8♣ 9♣ in hand it can: 8♣ 9♣ JK.
    "romme-freed-joker-melded": (ROMME, [RUN_4H_7H, RUN_10S_JK], "QS 8C 9C", "", NEW_MELD, True),
    # Two exchanges, each joker melded before the next is taken: Q♠ frees one, melded with
    # 7♥ 8♥; 4♦ frees the other from 3♦ JK 5♦, melded with 9♣ 10♣. No way takes fewer.
    "romme-two-freed-jokers": (
        ROMME,
        [RUN_10S_JK, ("3D JK 5D", {1: "4D"}, 1)],
        "QS 4D 7H 8H 9C 10C",
        "",
        NEW_MELD,
        True,
    ),
    # 000: a set of two naturals and a wild gives its wild up for both missing cards only,
    # three and a wild for the fourth. A♠ A♦ A♣(=A♥) misses A♥ and A♣; the hand's A♣ was
    # taken from the discard pile (a natural A♣ now), which pays for nothing, but laid off
    # it makes the set three and a wild, whose wild the A♥ then buys: the wild A♣ becomes
    # the 10♥ of 9♥ A♣ J♥, and K♠ is the discard. (The search tried exchanges only on the
    # table's melds as they lay, before any lay-off, and found no way.)
    "levant-lay-off-then-exchange": (
        LEVANT_8C,
        [("AS AD AC", {2: "AH"}, 1)],
        "AH 9H JH KS",
        "AC",
        KEEP_FREED,
        True,
    ),
    # Without the exchange the wild stays on the table: the A♥ fills the set, and 9♥ J♥
    # and the A♣ have nowhere to go.
    "levant-lay-off-no-exchange": (
        LEVANT_8C,
        [("AS AD AC", {2: "AH"}, 1)],
        "AH 9H JH KS",
        "AC",
        MUST_DISCARD,
        False,
    ),
    # Without exchanges neither Q♠ nor 4♦ goes anywhere.
    "romme-two-jokers-not-taken": (
        ROMME,
        [RUN_10S_JK, ("3D JK 5D", {1: "4D"}, 1)],
        "QS 4D 7H 8H 9C 10C",
        "",
        MELD_ALL,
        False,
    ),
}


@pytest.mark.parametrize("name", sorted(HAND_WORKED))
def test_hand_worked_examples(name: str) -> None:
    rules, melds, held, demoted, finish, expected = HAND_WORKED[name]
    table = tuple(
        table_meld(number, cards, rules, owner=owner, roles=roles)
        for number, (cards, roles, owner) in enumerate(melds)
    )
    hand = hand_vector(parse_cards(held), parse_cards(demoted))
    position = Position("hand-worked", rules, hand, table, finish, None)
    oracle = Oracle(rules, finish, position.discardable)
    assert oracle(hand, table) is expected, "the oracle itself is wrong here"
    assert check(position) is expected


def test_a_forbidden_discard_counts() -> None:
    # 8♥ goes on 5♥ 6♥ 7♥ and K♠ is the discard. Barring 8♥ from the discard changes
    # nothing; barring K♠ leaves it stuck, since it fits no meld.
    table = (table_meld(0, "5H 6H 7H", LEVANT_8C),)
    hand = hand_vector(parse_cards("8H KS"))
    for barred, expected in ((None, True), ("8H", True), ("KS", False)):
        face = None if barred is None else parse_card(barred)
        position = Position("hand-worked", LEVANT_8C, hand, table, MUST_DISCARD, face)
        assert check(position) is expected, barred


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_all_wild_melds_are_refused(config: str) -> None:
    # The oracle never tries a meld made of wild cards alone; that is safe only because
    # every configuration here refuses one. Try every indicator suit for the levant ones.
    ruleset, with_indicator = CONFIGS[config]
    indicators = [Card(Rank.EIGHT, s) for s in Suit] + [Card(Rank.ACE, Suit.HEARTS)]
    for indicator in indicators if with_indicator else [None]:
        rules = MeldRules.of(ruleset, indicator)
        for wild in rules.wilds.wild:
            for roles in ("7C 7D 7H 7S", "5H 6H 7H 8H"):
                for size in (3, 4):
                    meld = Meld((wild,) * size, parse_cards(roles)[:size])
                    assert not judge_meld(meld, rules).ok, meld.describe()
