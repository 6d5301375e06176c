"""What a meld on the table can take from a hand, one lay-off after another.

A finishing player may lay several cards off on one meld, each growing it for
the next (a run grows an end at a time; a wild may come first and make room for
natural cards). The search of a finishing turn (:mod:`hand_rummy.finishing`)
and the below-bar openings judged together (:mod:`hand_rummy.below_bar`) ask
the same question again and again, of the same melds and the same few cards:
which groups of these cards could this meld take? The answers depend only on
the rules, the meld and the cards, so they are kept, in bounded stores shared
by every search and in a :class:`LayOffMemo` a caller keeps for one listing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TypeVar

from hand_rummy.cards import CARDS, Card, Rank
from hand_rummy.finder import MeldFinder
from hand_rummy.melds import Meld
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import DEMOTED
from hand_rummy.table import LayoffContext, lay_off

__all__ = [
    "LayOffMemo",
    "first_lay_off",
    "lay_off_codes",
    "lay_off_groups",
    "lay_off_options",
    "takes",
]

_GOING_OUT = LayoffContext(going_out=True)
"""Lay-offs of a player going out this turn (000's set of two naturals and a wild may grow)."""

_V = TypeVar("_V")


def takes(
    finder: MeldFinder,
    meld: Meld,
    kind: MeldKind,
    cards: tuple[int, ...],
    memo: LayOffMemo | None = None,
) -> list[tuple[int, ...]]:
    """:func:`lay_off_groups`, remembered: it depends only on the rules, the meld and the
    cards, and the same older melds are asked about the same few cards in search after
    search (in ``memo`` too, where the caller keeps one)."""
    if memo is not None:
        mine = memo.groups.get((meld, kind, cards))
        if mine is not None:
            return mine
    key = (finder.rules, meld, kind, cards)
    known = _TAKES.get(key)
    if known is None:
        groups = lay_off_groups(finder, meld, kind, cards, memo=memo)
        assert groups is not None  # no limit
        known = _kept(_TAKES, key, groups)
    if memo is not None:
        memo.groups[meld, kind, cards] = known
    return known


class LayOffMemo:
    """What searches learn about lay-offs on melds, kept by a caller for its next searches.

    The memos of this module are shared by every search and bounded, and a full one
    forgets everything. One listing of a hand rich in wild cards can ask about more
    grown melds than they hold, each many times over (every opening below the bar
    searches the rest of the turn, and many meet the same melds): a listing keeps one
    of these for itself, and it goes when the listing does. Under one finder only.
    """

    __slots__ = ("groups", "grown", "melds", "numbers")

    def __init__(self) -> None:
        self.numbers: dict[tuple[Meld, MeldKind], int] = {}
        """A number for each meld (and kind) met: a search of lay-offs keys what it has
        seen by these, since hashing and comparing melds costs more than numbers."""
        self.melds: list[Meld] = []
        """The melds by their numbers."""
        self.grown: dict[tuple[int, int], list[int]] = {}
        """:func:`lay_off_options` by the meld's number and the hand slot, as numbers."""
        self.groups: dict[tuple[Meld, MeldKind, tuple[int, ...]], list[tuple[int, ...]]] = {}
        """:func:`lay_off_groups` by meld, kind and cards, without a limit."""

    def number(self, meld: Meld, kind: MeldKind) -> int:
        """The number of ``meld`` read as ``kind``, given when first met."""
        number = self.numbers.get((meld, kind))
        if number is None:
            number = self.numbers[meld, kind] = len(self.melds)
            self.melds.append(meld)
        return number


_STORE_LIMIT = 4096
"""How many answers each of the memos below holds; a full one forgets everything, so
none grows without end."""


_TAKES: dict[tuple[object, ...], list[tuple[int, ...]]] = {}


def _kept(store: dict[tuple[object, ...], _V], key: tuple[object, ...], value: _V) -> _V:
    """``value``, stored under ``key`` in a bounded ``store``."""
    if len(store) >= _STORE_LIMIT:
        store.clear()
    store[key] = value
    return value


def lay_off_groups(
    finder: MeldFinder,
    meld: Meld,
    kind: MeldKind,
    cards: Sequence[int],
    *,
    limit: int | None = None,
    memo: LayOffMemo | None = None,
) -> list[tuple[int, ...]] | None:
    """Every group of ``cards`` (hand slots, ascending) that ``meld`` could take from a
    finishing player, one lay-off after another, as ascending hand slots; ``None`` if
    that takes more than ``limit`` lay-offs tried (wild cards can place a group in many
    orders and roles, and each way is a meld to try the cards on). ``memo``, the
    caller's own, keeps the lay-offs tried (:class:`LayOffMemo`).
    """
    order = sorted(set(cards))
    shift = {slot: 8 * i for i, slot in enumerate(order)}
    units = {slot: 1 << at for slot, at in shift.items()}
    codes = lay_off_codes(finder, meld, kind, cards, units, limit=limit, memo=memo)
    if codes is None:
        return None
    return [
        tuple(slot for slot in order for _ in range((code >> shift[slot]) & 0xFF)) for code in codes
    ]


def lay_off_codes(
    finder: MeldFinder,
    meld: Meld,
    kind: MeldKind,
    cards: Sequence[int],
    units: Mapping[int, int],
    *,
    limit: int | None = None,
    memo: LayOffMemo | None = None,
) -> list[int] | None:
    """:func:`lay_off_groups`, each group coded as the caller codes hands: one integer with
    a byte of count per slot, the slot's byte being ``units[slot]`` (a power of 256). The
    search works on these codes (growing a group is one addition, and a group is its own
    key), so a caller that codes hands so too takes them as they are."""
    memo = LayOffMemo() if memo is None else memo
    known = memo.grown
    tries = [
        (slot, units[slot], count * units[slot], 0xFF * units[slot])
        for slot, count in Counter(cards).items()
    ]
    found: dict[int, None] = {}
    seen: set[tuple[int, int]] = set()  # each grown meld met (its number), with its group
    stack = [(memo.number(meld, kind), 0)]
    budget = -1 if limit is None else limit
    while stack:
        now, used = stack.pop()
        for slot, unit, full, mask in tries:
            if used & mask >= full:
                continue
            if not budget:
                return None
            budget -= 1
            options = known.get((now, slot))
            if options is None:
                options = known[now, slot] = [
                    memo.number(after, kind)
                    for after in lay_off_options(finder, memo.melds[now], kind, slot)
                ]
            grown = used + unit
            for after in options:
                if (after, grown) in seen:
                    continue
                seen.add((after, grown))
                found[grown] = None
                stack.append((after, grown))
    return list(found)


def lay_off_options(finder: MeldFinder, meld: Meld, kind: MeldKind, slot: int) -> list[Meld]:
    """Every way the card in hand ``slot`` can be laid off on ``meld`` by a finishing player.

    The player goes out this turn, so 000's restriction on a set of two
    naturals and a wild does not apply. The answer depends only on the
    rules, the meld and the card, so it is remembered under exactly those.
    """
    key = (finder.rules, meld, kind, slot)
    known = _LAID_OFF.get(key)
    if known is None:
        known = _kept(_LAID_OFF, key, _lay_off_options(finder, meld, kind, slot))
    return known


_LAID_OFF: dict[tuple[object, ...], list[Meld]] = {}


def _lay_off_options(finder: MeldFinder, meld: Meld, kind: MeldKind, slot: int) -> list[Meld]:
    rules = finder.rules
    card = CARDS[slot % DEMOTED]
    if slot >= DEMOTED:
        roles: list[Card | None] = [None]
        if card.is_joker and kind is MeldKind.RUN:
            # it plays as the Ace of the run's suit; a joker in the run that is not wild is
            # an Ace of the indicator's suit, and has no suit of its own to go by
            suits = {rules.wilds.natural_as(c).suit for c in meld.plays_as}
            roles = [Card(Rank.ACE, s) for s in suits if s is not None]
        candidates = [(role, True) for role in roles]
    else:
        options = finder.layoff_options(meld, kind).get(slot, ())
        candidates = [(role, False) for role, _ in options]
    found = []
    for role, demoted in candidates:
        result = lay_off(
            meld,
            [card],
            rules,
            roles={0: role} if role is not None else None,
            demoted=(0,) if demoted else (),
            context=_GOING_OUT,
        )
        if result.meld is not None:
            found.append(result.meld)
    return found


def first_lay_off(
    finder: MeldFinder, meld: Meld, kind: MeldKind, slots: Sequence[int]
) -> tuple[int, Card | None] | None:
    """A card of hand ``slots`` that can go on ``meld`` first, and its role, such that the
    others can follow one after another; ``None`` if none can (or if the first would have to
    be a demoted card, whose roles this does not try). Lay-offs as a finishing player's."""
    held = sorted(slots)
    for slot in dict.fromkeys(held):
        if slot >= DEMOTED:
            continue
        rest = list(held)
        rest.remove(slot)
        card = CARDS[slot]
        for role, _ in finder.layoff_options(meld, kind).get(slot, ()):
            grown = lay_off(
                meld,
                [card],
                finder.rules,
                roles={0: role} if role is not None else None,
                context=_GOING_OUT,
            ).meld
            if grown is not None and _follow(finder, grown, kind, rest):
                return slot, role
    return None


def _follow(finder: MeldFinder, meld: Meld, kind: MeldKind, slots: list[int]) -> bool:
    """Whether the cards of ``slots`` can be laid off on ``meld`` one after another."""
    if not slots:
        return True
    for slot in dict.fromkeys(slots):
        rest = list(slots)
        rest.remove(slot)
        if any(
            _follow(finder, grown, kind, rest)
            for grown in lay_off_options(finder, meld, kind, slot)
        ):
            return True
    return False
