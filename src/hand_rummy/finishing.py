"""Can a player still get rid of every card this turn? (000 §The first meld, "Exception")

A player who has not melded may open below the bar when the same turn ends
with an empty hand, and the lay-offs made after the opening lands count
(001 §Ende einer Runde, "aus oder an"; RULES-MATRIX L11). The turn rules
accept such an opening only when this search finds a way to finish, and
from then on accept only moves after which a way still exists, so a player
can never be left holding a below-bar opening and no way out.

Any finishing turn can be put in this order: new melds first, then lay-offs
on the melds that were on the table before, then the final discard. (A card
laid off on one of the player's own new melds could have been in that meld
from the start, since the meld finder knows melds of every length.) So the
search takes a card of what is left of the hand (one with the fewest melds
that still fit) and tries each new meld that holds it, or sets it aside for
the lay-offs and the discard; once every card is placed it asks whether the
cards set aside can be laid off, in some order, on the older melds. Every
card has to go somewhere, so any choice of card finds every way; the card
with the fewest ways shows a dead end soonest.

A search that succeeds also says how (:func:`finish_way`): the new melds on
the path that ended in success. The legal-action generator lists the move that
such a way starts with first, where every other move would need a search of
its own to be shown legal.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Sequence, Set
from itertools import compress

import attrs

from hand_rummy.cards import CARDS, Card, Rank, Suit
from hand_rummy.finder import MeldFinder
from hand_rummy.meld_growth import LayOffMemo, lay_off_options, takes
from hand_rummy.melds import Meld, MeldRules
from hand_rummy.memo import IdentityMemo
from hand_rummy.rules.turn import FreedWild, SetSupply
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import DEMOTED, TableMeld
from hand_rummy.table import exchange, exchange_supplies
from hand_rummy.work import charge

__all__ = [
    "AnyBut",
    "FinishRules",
    "Way",
    "bought_back",
    "exchange_finish",
    "finish_way",
    "stuck_beyond",
]

_HIGH = 14

Targets = tuple[tuple[Meld, MeldKind], ...]


@attrs.frozen
class FinishRules:
    """How this turn may end.

    ``final_discard``: the last card must be discarded. Otherwise the hand
    may also empty by melding, and ``may_discard`` says whether one card may
    still end the turn as a discard (a Hand that must meld every card may
    not). ``on_others``: lay-offs on other players' melds count (a Hand
    finish under 000 and 004 adds to no other meld), and so do exchanges on them.
    """

    final_discard: bool
    may_discard: bool = True
    on_others: bool = True
    exchanges: bool = False
    """Wild cards may be taken from table melds on the way (000 lets a player who has opened
    exchange "even in the same turn")."""
    freed_wild: FreedWild = FreedWild.KEEP
    """What the wild freed by such an exchange may do: join the hand (000), or be used by
    the very next move, in a new meld (002 §Exchanging a joker) or also as a lay-off
    (matrix R4). Where it must be used at once, a way holds one exchange, the first move
    of the way, and the wild's use the second: a later exchange would need the hand left
    after that use, which this search does not follow."""
    new_melds: bool = True
    """New melds may still be laid: not once a lay-off has been made where melds come first
    (003 §Turn Flow), so the cards left go out by lay-offs and the discard alone."""
    keep: bool = False
    """The turn ends with one card kept in the hand besides the final discard, not out: the
    promise made by filling a set of two naturals and a wild (000 §Exchanging wild cards)."""


@attrs.frozen
class Way:
    """One way to finish the turn (or to end it on one card) that a search found.

    ``melds``: the new melds, as indices into ``finder.meld_slots(hand)``. ``lay_offs``: for
    a way that takes no wild from the table, the cards each older meld takes, as (its index
    in the table the search was given, the hand slots), in table order; ``None`` for a way
    that starts with an exchange, after which the hand holds other cards.
    """

    melds: tuple[int, ...]
    lay_offs: tuple[tuple[int, tuple[int, ...]], ...] | None
    exchange: tuple[int, tuple[Card, ...]] | None = None
    """For a way that starts with an exchange, that exchange: the index in the table of the
    meld whose wild it takes, and the cards that pay for it."""


Discardable = Callable[[int, int], bool]
"""Whether the card in a hand slot may be the final discard, the card in the other slot
staying in the hand (-1 where none stays)."""


@attrs.frozen
class AnyBut:
    """A :data:`Discardable` of the usual kind: any card may be the final discard but
    ``card`` (the card taken this turn, where it may not go back), whatever card is kept.
    As a value, unlike a function, it lets a search that takes it be remembered."""

    card: Card | None = None

    def __call__(self, slot: int, kept: int) -> bool:
        return self.card is None or CARDS[slot % DEMOTED] != self.card


_WAYS: IdentityMemo[tuple[Way | None, int]] = IdentityMemo(limit=256)
"""The searches without exchanges answered lately, and the steps each took, by their whole
input (the finder by identity, held alive with the answer): a move listed under a promise
is judged by the search of the turn after it, and judged again when applied; a way found
through an exchange is searched again when the exchange is judged."""


def finish_way(
    finder: MeldFinder,
    hand: Sequence[int],
    *,
    table: Iterable[TableMeld],
    seat: int,
    rules: FinishRules,
    discardable: Discardable,
    melding: Set[int] = frozenset(),
    memo: LayOffMemo | None = None,
    remember: bool = False,
) -> Way | None:
    """One way to empty ``hand`` this turn by melds, lay-offs on ``table`` and a discard
    (:class:`Way`), or ``None`` when there is none.

    ``discardable(slot, kept)`` says whether the card in a hand slot may be the
    final discard (``kept``: the slot of the card kept, with ``rules.keep``). The
    melds are indices into ``finder.meld_slots(hand)``, in ascending order (the
    order of the finder's combinations); every card they leave goes out by
    lay-offs on ``table`` and the final discard (but the one kept, with
    ``rules.keep``). With ``melding``, only the ways in which at least one card
    of those hand slots is in a new meld count (the card taken from the discard
    pile, say, which must be melded).
    ``memo`` keeps what the search learns about lay-offs for the caller's next
    searches (a listing asks one for each of its openings below the bar).
    With ``rules.exchanges``, a way may also take wild cards from the melds of
    ``table``; a way found only so is given as no new melds, ``()``: it starts with
    an exchange, after which the hand holds other cards than these. And where
    exchanges may be part of a way and a card of ``melding`` is wild, ``melding``
    is not held to when no way meets it: a wild melded and taken back by an
    exchange leaves no trace of having been melded, so only a search of the moves
    in their order could tell. The one caller that passes ``melding`` asks before
    an opening that must hold the card just taken, to rule out the openings below
    the bar when no way is left at all, and judges each opening it keeps on its
    own: a generous answer is what it needs.
    With ``remember`` (and a ``discardable`` that is an :class:`AnyBut`), the searches
    without exchanges are remembered by their whole input, for a caller that asks the
    same again (a move listed under a promise, judged again when applied).
    """
    table = table if isinstance(table, tuple) else tuple(table)
    search = _searcher(finder, seat, rules, discardable, memo, remember=remember)
    way = search(hand, table, melding=melding)
    if way is not None or not rules.exchanges:
        return way
    free = functools.partial(search, melding=frozenset())
    # only a wild can be melded and taken back: a natural card melded stays in its meld
    wild = finder.rules.is_wild
    taken_back = any(slot < DEMOTED and wild(CARDS[slot]) for slot in melding)
    if taken_back and free(hand, table) is not None:
        return Way((), None)
    # a whole hand, before its opening: most of its cards are often stranded, and a count
    # of them spares most searches after an exchange
    first = _after_exchange(
        finder, hand, table, seat=seat, rules=rules, search=free, seen=set(), count=True
    )
    return None if first is None else Way((), None, first)


def exchange_finish(
    finder: MeldFinder,
    hand: Sequence[int],
    *,
    table: Iterable[TableMeld],
    seat: int,
    rules: FinishRules,
    discardable: Discardable,
    memo: LayOffMemo | None = None,
) -> bool:
    """Whether some way to empty ``hand`` this turn (as :func:`finish_way` has them) takes
    a wild from a meld of ``table``: the part of :func:`finish_way` that a caller who knows
    already that no way without an exchange is left still needs."""
    if not rules.exchanges:
        return False
    search = functools.partial(
        _searcher(finder, seat, rules, discardable, memo), melding=frozenset()
    )
    laid = table if isinstance(table, tuple) else tuple(table)
    found = _after_exchange(finder, hand, laid, seat=seat, rules=rules, search=search, seen=set())
    return found is not None


def bought_back(
    finder: MeldFinder, hand: Sequence[int], melds: tuple[TableMeld, ...], rules: FinishRules
) -> Iterator[tuple[int, list[int]]]:
    """Each exchange that ``hand`` can pay for on ``melds``, the player's own melds laid this
    turn: the index of the meld and the hand after it, with the wild taken back. (Laying
    that meld with the natural card in the first place leaves the same hand, and the same
    table.)"""
    seat = melds[0].owner if melds else 0
    for after, _, (index, _), _ in _exchanges(finder, hand, melds, seat, rules):
        yield index, after


def _searcher(
    finder: MeldFinder,
    seat: int,
    rules: FinishRules,
    discardable: Discardable,
    memo: LayOffMemo | None,
    *,
    remember: bool = False,
) -> Callable[..., Way | None]:
    """The search without exchanges, for a hand and a table (and ``melding``)."""
    return functools.partial(
        _way_without_exchanges,
        finder,
        seat=seat,
        rules=rules,
        discardable=discardable,
        memo=memo,
        remember=remember,
    )


def _way_without_exchanges(
    finder: MeldFinder,
    hand: Sequence[int],
    table: tuple[TableMeld, ...],
    *,
    seat: int,
    rules: FinishRules,
    discardable: Discardable,
    melding: Set[int],
    memo: LayOffMemo | None,
    remember: bool = False,
) -> Way | None:
    """:func:`finish_way` without exchanges."""
    key = None
    if remember and isinstance(discardable, AnyBut):  # else a key would cost more than it saves
        key = (id(finder), tuple(hand), table, seat, rules, discardable, frozenset(melding))
        known = _WAYS.get(key)
        if known is not None:
            # the steps the search took are charged again, so that what a caller's budget
            # allows does not depend on what was asked before
            charge(known[1])
            return known[0]
    found = _searched_without_exchanges(
        finder,
        hand,
        table,
        seat=seat,
        rules=rules,
        discardable=discardable,
        melding=melding,
        memo=memo,
    )
    if key is not None:
        _WAYS.put(key, (finder,), found)
    return found[0]


def _searched_without_exchanges(
    finder: MeldFinder,
    hand: Sequence[int],
    table: tuple[TableMeld, ...],
    *,
    seat: int,
    rules: FinishRules,
    discardable: Discardable,
    melding: Set[int],
    memo: LayOffMemo | None,
) -> tuple[Way | None, int]:
    """:func:`_way_without_exchanges`, searched, and the steps of work the search took."""
    spare = _spare(rules)
    if sum(hand) == 0:
        return None if rules.final_discard or melding or rules.keep else Way((), ()), 0
    # looking at the hand's melds and at what the table could take costs as much as a few
    # steps of the search itself, even where that look is all there is to it
    charge(_LOOK_STEPS)
    older = _older(finder, table, seat, rules)
    in_melds = finder.slots_in_melds(hand) if rules.new_melds else frozenset()
    if melding and melding.isdisjoint(in_melds):
        return None, _LOOK_STEPS
    reach = _placeable(finder, hand, in_melds, older, spare)
    if reach is None:
        return None, _LOOK_STEPS
    search = _Search(
        hand,
        finder.meld_slots(hand) if rules.new_melds else [],
        finder,
        older.targets,
        spare=spare,
        need_discard=rules.final_discard,
        keep=rules.keep,
        discardable=discardable,
        reach=reach,
        melding=melding,
        memo=memo,
    )
    melds = search.start()
    if melds is None:
        return None, _LOOK_STEPS + search.steps
    # the older melds the search was given are the table's that may take cards, in order
    usable = [i for i, m in enumerate(table) if rules.on_others or m.owner == seat]
    laid = tuple((usable[target], slots) for target, slots in search.laid)
    return Way(melds, laid), _LOOK_STEPS + search.steps


def _after_exchange(
    finder: MeldFinder,
    hand: Sequence[int],
    table: tuple[TableMeld, ...],
    *,
    seat: int,
    rules: FinishRules,
    search: Callable[..., Way | None],
    seen: set[tuple[object, ...]],
    count: bool = False,
    stranded: _Stranded | None = None,
) -> tuple[int, tuple[Card, ...]] | None:
    """The first exchange of some way to finish that takes a wild from a meld of ``table``
    (and perhaps more after it, where the freed wild may be kept), as (the meld's index in
    ``table``, the cards that pay), or ``None``: ``search`` answers for a hand and table
    without exchanges (and ``melding``, as :func:`finish_way` has it). With ``count``,
    a hand after exchanges is not searched where too many cards stay :class:`_Stranded`
    for the wilds it holds.

    Only the melds on the table before the finish need be tried: a wild taken back from
    one of the player's new melds leaves the hand and table as laying that meld with the
    natural card would, keeping the wild. Each exchange leaves one wild fewer on the
    table, so the search ends; ``seen`` holds the hands and tables met already.
    """
    keep = rules.freed_wild is FreedWild.KEEP
    for after, laid, taking, wild in _exchanges(finder, hand, table, seat, rules):
        key = (tuple(after), tuple(t.meld for t in laid))
        if key in seen:
            continue
        seen.add(key)
        if count and stranded is None:
            stranded = _Stranded(finder, hand, table, seat, rules)
        # too many stranded cards for the wilds held: only a way with more exchanges is left
        hopeless = stranded is not None and stranded.too_many(
            after, _wild_count(finder.rules, after)
        )
        if keep and not hopeless and search(after, laid) is not None:
            return taking
        if not keep and _freed_used(
            finder,
            after,
            laid,
            wild,
            seat=seat,
            rules=rules,
            search=search,
            seen=seen,
            direct=not hopeless,
        ):
            return taking
        # where the freed wild must be used first, the next exchange comes after that use
        if keep and (
            _after_exchange(
                finder,
                after,
                laid,
                seat=seat,
                rules=rules,
                search=search,
                seen=seen,
                stranded=stranded,
            )
            is not None
        ):
            return taking
    return None


def _freed_used(
    finder: MeldFinder,
    hand: Sequence[int],
    table: tuple[TableMeld, ...],
    wild: Card,
    *,
    seat: int,
    rules: FinishRules,
    search: Callable[..., Way | None],
    seen: set[tuple[object, ...]],
    direct: bool = True,
) -> bool:
    """Whether ``hand``, just after an exchange that freed ``wild`` onto ``table``, can
    finish with the wild used by the next move: in a new meld, or, where the rules allow,
    laid off on a meld of the table as it stands; after that use, the turn may take more
    wilds the same way.

    A new meld holds cards of the hand only, so the way's other new melds may be laid
    with it, in the same move. Without ``direct``, only ways with a further exchange are
    looked for (the hand is known to have too few wilds for any other)."""
    slot = wild.index
    if direct and search(hand, table, melding=frozenset((slot,))) is not None:
        return True
    uses: list[tuple[list[int], tuple[TableMeld, ...]]] = []
    if rules.new_melds:
        options = finder.meld_slots(hand)
        using = [i for i, slots in enumerate(options) if slot in slots]
        for found in finder.melds_at(hand, using):
            rest = list(hand)
            for used in found.used:
                rest[used] -= 1
            uses.append((rest, (*table, TableMeld(-1, seat, found.meld, found.kind))))
    if rules.freed_wild is FreedWild.USE_NOW:
        rest = list(hand)
        rest[slot] -= 1
        for target in table:
            if not rules.on_others and target.owner != seat:
                continue
            for grown in lay_off_options(finder, target.meld, target.kind, slot):
                changed = attrs.evolve(target, meld=grown)
                laid = tuple(changed if t is target else t for t in table)
                if direct and search(rest, laid) is not None:
                    return True
                uses.append((rest, laid))
    # a way with more than one exchange: the next one after this wild's use
    return any(
        _after_exchange(finder, rest, laid, seat=seat, rules=rules, search=search, seen=seen)
        is not None
        for rest, laid in uses
    )


def _wild_count(rules: MeldRules, hand: Sequence[int]) -> int:
    """How many wild cards ``hand`` holds (demoted ones play as natural cards)."""
    return sum(hand[card.index] for card in rules.wilds.wild)


def _table_wilds(table: tuple[TableMeld, ...]) -> int:
    """How many wilds the melds of ``table`` hold, at most (demoted ones are natural)."""
    return sum(
        1
        for target in table
        for index, role in enumerate(target.meld.roles)
        if role is not None and index not in target.meld.demoted
    )


class _Stranded:
    """The natural cards of a hand that no way out can place unless a wild card helps, and
    a count that spares the search of a hand after an exchange.

    Such a card is in no meld of the hand's natural cards, and no older meld could take
    it, even at the end of a chain of lay-offs of natural cards. So in a way out it is
    in a meld with a wild: a new meld, a new meld it is laid off on, or an older meld
    that a wild laid off there links it to. After exchanges the hand holds fewer of
    these natural cards and more wilds, so the cards are still stranded. Each wild is in
    one meld, and a meld holds cards of one rank or of one suit, so ``w`` wilds help the
    cards of ``w`` ranks or suits at most, and the rest must be the final discard. A
    set whose wild is taken may then take other cards, so cards of the rank of a set
    with a wild are left out.
    """

    __slots__ = ("cards", "spare")

    def __init__(
        self,
        finder: MeldFinder,
        hand: Sequence[int],
        table: tuple[TableMeld, ...],
        seat: int,
        rules: FinishRules,
    ) -> None:
        self.spare = _spare(rules)
        meld_rules = finder.rules
        natural = finder.without_wilds(hand)
        in_melds = finder.slots_in_melds(natural) if rules.new_melds else frozenset()
        natural_as = meld_rules.wilds.natural_as
        cards = []
        for slot in compress(range(len(natural)), natural):
            if slot >= DEMOTED or slot in in_melds:
                continue  # (a demoted joker plays as any Ace: not counted)
            card = natural_as(CARDS[slot])
            if card.rank is not None:
                cards.append((slot, card.suit, card.rank))
        self.cards: list[tuple[int, Suit | None, Rank]] = []
        # a hand after exchanges holds no more of a card than this one: where even all the
        # cards in no meld are too few for the wilds it could hold, the table need not be
        # asked about them
        if not self._too_many(cards, hand, _wild_count(meld_rules, hand) + _table_wilds(table)):
            return
        reach = _Reach(finder, natural, _older(finder, table, seat, rules))
        changing = {_set_rank(meld_rules, t.meld) for t in table if t.kind is MeldKind.SET}
        self.cards = [c for c in cards if c[2] not in changing and not reach(c[0])]

    def too_many(self, after: Sequence[int], wilds: int) -> bool:
        """Whether the hand ``after``, this one after exchanges, keeps more of these cards
        than ``wilds`` ranks' or suits' shares and the final discard: then no way out
        with ``wilds`` wild cards is left."""
        return self._too_many(self.cards, after, wilds)

    def _too_many(
        self, cards: list[tuple[int, Suit | None, Rank]], hand: Sequence[int], wilds: int
    ) -> bool:
        total = sum(hand[slot] for slot, _, _ in cards)
        if total <= self.spare + wilds:
            return False  # a share holds one card at least
        if not wilds:
            return True
        suits: Counter[object] = Counter()
        ranks: Counter[object] = Counter()
        for slot, suit, rank in cards:
            count = hand[slot]
            suits[suit] += count
            ranks[rank] += count
        # the largest shares; a suit's and a rank's may hold the same card, counted twice
        # here, which only makes the answer more generous
        shares = sorted((*suits.values(), *ranks.values()), reverse=True)
        return total - sum(shares[:wilds]) > self.spare


def _set_rank(rules: MeldRules, meld: Meld) -> Rank | None:
    """The rank of the cards of a set whose wilds could be taken (``None`` for a set
    without a wild)."""
    if all(role is None for role in meld.roles):
        return None
    for card, role in zip(meld.cards, meld.roles, strict=True):
        plays = role if role is not None else rules.wilds.natural_as(card)
        if plays.rank is not None:
            return plays.rank
    return None


def _spare(rules: FinishRules) -> int:
    """How many cards may be left: for the final discard, and the one kept."""
    return (1 if rules.final_discard or rules.may_discard else 0) + rules.keep


def _exchanges(
    finder: MeldFinder,
    hand: Sequence[int],
    table: tuple[TableMeld, ...],
    seat: int,
    rules: FinishRules,
) -> Iterator[tuple[list[int], tuple[TableMeld, ...], tuple[int, tuple[Card, ...]], Card]]:
    """Each exchange ``hand`` can pay for on ``table``: the hand and the table after it
    (the freed wild in the hand, an ordinary copy), the exchange (the index of the meld in
    ``table``, the cards that pay), and the freed wild. Where what a set's wild costs
    depends on the set's length, the exchange may follow lay-offs of the hand's cards on
    that set (:func:`_as_it_may_grow`): those cards are gone from the hand after it too."""
    meld_rules = finder.rules
    policy = meld_rules.ruleset.exchange
    # under 000, two naturals and a wild give up the wild for both missing cards and three
    # and a wild for the fourth, so a card laid off first pays half: a natural of a missing
    # suit pays as much either way, but a demoted wild (a natural card now) pays only so.
    # Under 002's tournament jokers only a set of four gives its joker up at all
    growing = policy.set_needs_four or (
        policy.set_supply is SetSupply.BOTH_MISSING and any(hand[DEMOTED:])
    )
    for index, target in enumerate(table):
        if not rules.on_others and target.owner != seat:
            continue
        shapes = (
            _as_it_may_grow(finder, hand, target, naturals=policy.set_needs_four)
            if growing
            else ((hand, target.meld),)
        )
        for held, meld in shapes:
            for supply in exchange_supplies(meld, target.kind, meld_rules):
                # most hands hold none of the few cards a meld's wild asks for: look first
                if not all(held[card.index] for card in supply):
                    continue
                paid = Counter(card.index for card in supply)
                if any(held[slot] < count for slot, count in paid.items()):
                    continue
                result = _exchanged(meld, supply, meld_rules)
                if result.wild is None or result.meld is None:
                    continue
                after = list(held)
                for slot, count in paid.items():
                    after[slot] -= count
                after[result.wild.index] += 1
                changed = attrs.evolve(target, meld=result.meld)
                laid = tuple(changed if t is target else t for t in table)
                charge(1)  # a step of work for each exchange a way may start with
                yield after, laid, (index, supply), result.wild


def _as_it_may_grow(
    finder: MeldFinder, hand: Sequence[int], target: TableMeld, *, naturals: bool
) -> Iterator[tuple[Sequence[int], Meld]]:
    """The meld of ``target`` as it lies, with ``hand``; then, for a set holding a wild, each
    set that lay-offs of the hand's demoted cards (and with ``naturals``, of its other
    cards) could make of it, with the hand they leave."""
    yield hand, target.meld
    if target.kind is not MeldKind.SET or not exchange_supplies(
        target.meld, target.kind, finder.rules
    ):
        return
    seen: set[tuple[tuple[int, ...], Meld]] = set()
    waiting = [(hand, target.meld)]
    while waiting:
        held, meld = waiting.pop()
        slots = [DEMOTED + face for face in range(DEMOTED) if held[DEMOTED + face]]
        if naturals:
            slots += [face for face in finder.layoff_options(meld, target.kind) if held[face]]
        for slot in slots:
            rest = list(held)
            rest[slot] -= 1
            for grown in lay_off_options(finder, meld, target.kind, slot):
                key = (tuple(rest), grown)
                if key not in seen:
                    seen.add(key)
                    yield rest, grown
                    waiting.append((rest, grown))


_exchanged = functools.lru_cache(maxsize=1024)(exchange)
""":func:`~hand_rummy.table.exchange`, remembered: it depends only on the meld, the cards and
the rules, and a search asks about the same table melds again and again."""


def _exchange_payable(
    finder: MeldFinder,
    hand: Sequence[int],
    *,
    table: Iterable[TableMeld],
    seat: int,
    rules: FinishRules,
) -> bool:
    """Whether ``hand`` could pay for a wild of ``table`` that a finish may take: where it
    cannot, no way to finish holds an exchange (the hand only loses natural cards)."""
    if not rules.exchanges:
        return False
    laid = table if isinstance(table, tuple) else tuple(table)
    return any(True for _ in _exchanges(finder, hand, laid, seat, rules))


def stuck_beyond(
    finder: MeldFinder,
    hand: Sequence[int],
    *,
    table: Iterable[TableMeld],
    seat: int,
    rules: FinishRules,
    limit: int,
) -> bool:
    """Whether more than ``limit`` cards of ``hand`` could go neither into a new meld nor,
    one lay-off after another, onto ``table``: then no turn gets rid of all but ``limit``
    of them. A quick test, and a generous one: ``False`` proves nothing (and it is given
    wherever a card could pay for a wild that the finish may take)."""
    table = table if isinstance(table, tuple) else tuple(table)
    if _exchange_payable(finder, hand, table=table, seat=seat, rules=rules):
        return False
    older = _older(finder, table, seat, rules)
    in_melds = finder.slots_in_melds(hand) if rules.new_melds else frozenset()
    return _placeable(finder, hand, in_melds, older, limit) is None


def _placeable(
    finder: MeldFinder, hand: Sequence[int], in_melds: Set[int], older: _Older, limit: int
) -> _Reach | None:
    """The test of which cards could be laid off, or ``None`` once more than ``limit`` cards
    are in no meld of the hand and could not be."""
    alone = [slot for slot in compress(range(len(hand)), hand) if slot not in in_melds]
    if not older.targets and sum(hand[slot] for slot in alone) > limit:
        return None  # nothing to lay off on: every card but these must be in a new meld
    # a card no older meld could take can only be the discard (or kept): count those the
    # table alone rules out first, and ask the hand about a gap to a run's end only if that
    # leaves room
    stuck = 0
    gaps = []
    for slot in alone:
        verdict = older.verdict(slot)
        if verdict is None:
            gaps.append(slot)
        elif not verdict:
            stuck += hand[slot]
            if stuck > limit:
                return None
    reach = _Reach(finder, hand, older)
    for slot in gaps:
        if not reach(slot):
            stuck += hand[slot]
            if stuck > limit:
                return None
    return reach


class _Older:
    """The melds on the table before this turn that a finishing player may lay off on, and
    what each card could join there whatever the hand holds.

    A set takes a card of its rank that it has room for (the finder's table of
    the meld's lay-offs says which: other lay-offs only fill a set, so a card
    it cannot take now it never can); a run a card of its suit beyond one of its
    ends, if the cards between can be supplied (which depends on the hand, so
    :class:`_Reach` asks). Only the first and last cards of a meld matter.
    """

    __slots__ = ("any_target", "finder", "known", "rules", "runs", "sets", "targets", "wrap")

    def __init__(self, finder: MeldFinder, targets: Targets) -> None:
        rules = finder.rules
        self.finder = finder
        self.rules = rules
        self.targets = targets
        self.any_target = bool(targets)
        self.wrap = rules.ruleset.runs.wrap
        self.known: dict[int, bool | None] = {}
        natural = rules.wilds.natural_as
        self.sets: dict[Rank | None, list[Meld]] = {}
        self.runs: dict[object, list[tuple[int, int]]] = {}
        for meld, kind in targets:
            role = meld.roles[0]
            start = role if role is not None else natural(meld.cards[0])
            if kind is MeldKind.SET:
                self.sets.setdefault(start.rank, []).append(meld)
                continue
            role = meld.roles[-1]
            end = role if role is not None else natural(meld.cards[-1])
            first, last = start.rank, end.rank
            assert first is not None and last is not None
            low = 1 if first is Rank.ACE else int(first)
            high = _HIGH if last is Rank.ACE else int(last)
            self.runs.setdefault(start.suit, []).append((low, high))

    def verdict(self, slot: int) -> bool | None:
        """Whether some older meld could take the card in ``slot``: ``None`` when only a run
        of its suit could, and then only if the hand can fill the gap to an end."""
        if slot in self.known:
            return self.known[slot]
        rules = self.rules
        card = CARDS[slot % DEMOTED]
        verdict: bool | None
        if slot < DEMOTED and rules.is_wild(card):
            verdict = self.any_target
        elif card.is_joker and slot >= DEMOTED:
            verdict = bool(self.runs) or Rank.ACE in self.sets  # it plays as any Ace
        else:
            plays = rules.wilds.natural_as(card)
            sets = self.sets.get(plays.rank, ())
            if sets and (slot >= DEMOTED or any(slot in self._set_takes(m) for m in sets)):
                verdict = True
            elif plays.suit not in self.runs:
                verdict = False
            else:
                verdict = True if self.wrap else None
        self.known[slot] = verdict
        return verdict

    def _set_takes(self, meld: Meld) -> Container[int]:
        """The faces of the natural cards that the set ``meld`` takes now."""
        return self.finder.layoff_options(meld, MeldKind.SET)


_OLDER: IdentityMemo[_Older] = IdentityMemo(limit=64)


def _older(
    finder: MeldFinder, table: tuple[TableMeld, ...], seat: int, rules: FinishRules
) -> _Older:
    """The :class:`_Older` of ``table``, the same object while the table does not change
    (a round's table passes unchanged from state to state until a meld is laid)."""
    key = (id(finder), id(table), -1 if rules.on_others else seat)
    older = _OLDER.get(key)
    if older is None:
        targets = tuple((m.meld, m.kind) for m in table if rules.on_others or m.owner == seat)
        older = _OLDER.put(key, (finder, table), _Older(finder, targets))
    return older


class _Reach:
    """A generous test of whether a card could ever be laid off on one of the older melds.

    Generous means it never says no to a card that some order of lay-offs
    could place: a set takes its rank, a run the cards of its suit that the
    hand's other cards of that suit (and its wilds) could link to an end. It
    is worked out card by card, since most hands are ruled out by a few.
    """

    def __init__(self, finder: MeldFinder, hand: Sequence[int], older: _Older) -> None:
        self.rules = finder.rules
        self.hand = hand
        self.older = older
        self.known: dict[int, bool] = {}
        self._wilds: int | None = None
        self._suits: dict[object, set[int]] = {}

    def __call__(self, slot: int) -> bool:
        verdict = self.older.verdict(slot)
        if verdict is not None:
            return verdict
        known = self.known.get(slot)
        if known is None:
            plays = self.rules.wilds.natural_as(CARDS[slot % DEMOTED])
            known = any(self._links(low, high, plays) for low, high in self.older.runs[plays.suit])
            self.known[slot] = known
        return known

    def _links(self, low: int, high: int, card: Card) -> bool:
        """Whether held cards of the suit and the wilds could join ``card`` to a run's end."""
        assert card.rank is not None
        held = self._held(card)
        for value in _values(card.rank):
            if value < low:
                between = range(value + 1, low)
            elif value > high:
                between = range(high + 1, value)
            else:
                continue
            if sum(1 for v in between if v not in held) <= self._wild_count():
                return True
        return False

    def _held(self, card: Card) -> set[int]:
        """The run values of the natural cards of ``card``'s suit in the hand."""
        known = self._suits.get(card.suit)
        if known is not None:
            return known
        held: set[int] = set()
        self._suits[card.suit] = held
        rules = self.rules
        assert card.suit is not None
        first = 13 * int(card.suit)
        # the suit's own faces, and the joker, which may count as an Ace of some suit
        for face in (*range(first, first + 13), 52):
            natural = self.hand[face] and not rules.is_wild(CARDS[face])
            if natural or self.hand[DEMOTED + face]:  # a demoted wild plays as natural
                plays = rules.wilds.natural_as(CARDS[face])
                if plays.suit is card.suit:
                    assert plays.rank is not None
                    held.update(_values(plays.rank))
        return held

    def _wild_count(self) -> int:
        if self._wilds is None:
            self._wilds = _wild_count(self.rules, self.hand)
        return self._wilds


def _values(rank: Rank) -> tuple[int, ...]:
    return (1, _HIGH) if rank is Rank.ACE else (int(rank),)


_LOOK_STEPS = 8
"""The steps of work charged for each hand searched, before its first split: setting the
search up and its quick tests cost about as much as that many steps of it (see
:mod:`hand_rummy.work`)."""

_LOOK = 64
"""How many melds the search may look at to choose the card to place next."""

_POOL_AFTER = 8
"""After how many ways of setting cards aside a search works out, once, what the older melds
could take of all the cards (most searches ask about one or two ways, and a few cards)."""


class _Search:
    """The first-card search over new melds, then the lay-offs and the discard.

    The search works on the slots the hand holds, numbered in slot order: a
    hand of fifteen cards has at most fifteen, so what is left of it is one
    integer with a byte of count per held slot, as in the finder's packing. A
    meld's cards are an integer of the same kind, it fits what is left when
    taking it leaves no byte below zero, and taking it is one subtraction:
    the search tries many melds in every position it reaches, so each try
    must cost little.
    """

    def __init__(
        self,
        hand: Sequence[int],
        melds: Sequence[tuple[int, ...]],
        finder: MeldFinder,
        targets: Targets,
        *,
        spare: int,
        need_discard: bool,
        keep: bool = False,
        discardable: Discardable,
        reach: Callable[[int], bool],
        melding: Set[int] = frozenset(),
        memo: LayOffMemo | None = None,
    ) -> None:
        self.slots = list(compress(range(len(hand)), hand))
        self.counts = {slot: hand[slot] for slot in self.slots}
        self.unit = {slot: 1 << (8 * i) for i, slot in enumerate(self.slots)}
        self.start_left = sum(hand[slot] * self.unit[slot] for slot in self.slots)
        self.guard = int.from_bytes(b"\x80" * len(self.slots), "little")
        self.number = number = {slot: i for i, slot in enumerate(self.slots)}
        needs: list[list[int]] = [[] for _ in self.slots]
        codes = [sum(1 << (8 * number[slot]) for slot in used) for used in melds]
        for need, used in zip(codes, melds, strict=True):
            for i in {number[slot] for slot in used}:
                needs[i].append(need)
        self.codes = codes
        self.needs = needs
        self.melding = frozenset(number[slot] for slot in melding if slot in number)
        self.melding_held = sum(hand[slot] for slot in melding if slot in number)
        self.path: list[int] = []  # the melds of the way found, the last laid first
        # the lay-offs of the way found: (index among the targets, the hand slots it takes)
        self.laid: list[tuple[int, tuple[int, ...]]] = []
        # the card to place next is the held one with the fewest melds to try (a card in none
        # first of all): the choice narrows fastest where it has least to choose from
        self.order = sorted(range(len(self.slots)), key=lambda i: len(needs[i]))
        self.finder = finder
        self.targets = targets
        self.spare = spare
        self.need_discard = need_discard
        self.keep = keep
        self.discardable = discardable
        self.reach = reach
        self.memo = memo
        self.seen: dict[object, bool] = {}
        self.leaves = 0  # the ways of setting cards aside asked about so far
        self.pool: tuple[list[list[int]], set[int], list[int]] | None = None
        self.splits: dict[tuple[int, int], bool] = {}
        # where each slot's byte starts in what is left, and which leftovers may end the turn
        self.shifts = [(slot, 8 * i) for i, slot in enumerate(self.slots)]
        self.ended: dict[int, bool] = {}
        self.steps = 0  # the work of the search so far (see :mod:`hand_rummy.work`)

    def start(self) -> tuple[int, ...] | None:
        """The melds (indices, ascending) of one way to place the whole hand, or ``None``."""
        if not self.place(self.start_left, (), 0):
            return None
        # the way found is the one path of the search that ended in success: a success
        # returns at once, so no remembered answer stands in for a part of it; of the melds
        # of the same cards (a wild's other roles), the first stands for all
        first: dict[int, int] = {}
        for index, need in enumerate(self.codes):
            first.setdefault(need, index)
        return tuple(sorted(first[need] for need in self.path))

    def place(self, left: int, aside: tuple[int, ...], stuck: int) -> bool:
        """Whether the cards ``left`` (a count byte per held slot) split into new melds and
        cards that the lay-offs can take, with ``aside`` (hand slots) set aside already,
        ``stuck`` of which no older meld could take."""
        key = (left, aside)
        known = self.seen.get(key)
        if known is None:
            known = self._place(left, aside, stuck)
            self.seen[key] = known
        return known

    def _place(self, left: int, aside: tuple[int, ...], stuck: int) -> bool:
        # a step of work for each way of placing the cards met
        self.steps += 1
        charge(1)
        if not left:
            return self.lay_off(aside, self.targets, self.spare)
        # a meld of what is left is a meld of the whole hand, so the hand's list will do; the
        # card to place is the one with the fewest of them that fit what is left, of the
        # cards that a short look reaches (in a hand of wild cards each card has hundreds)
        guard = self.guard
        guarded = left | guard
        first, fitting, look = -1, None, _LOOK
        for i in self.order:
            if (left >> (8 * i)) & 0xFF:
                needs = self.needs[i]
                here = [need for need in needs if (guarded - need) & guard == guard]
                if fitting is None or len(here) < len(fitting):
                    first, fitting = i, here
                look -= len(needs)
                if len(fitting) <= 1 or look <= 0:
                    break
        assert fitting is not None
        for need in fitting:
            if self.place(left - need, aside, stuck):
                self.path.append(need)
                return True
        # or the first card waits for the lay-offs (or is the discard), unless it is the last
        # card of those that must be melded and none of them is
        if first in self.melding and self._last_to_meld(left, aside):
            return False
        slot = self.slots[first]
        stuck += not self.reach(slot)
        if stuck > self.spare:
            return False
        return self.place(left - (1 << (8 * first)), tuple(sorted((*aside, slot))), stuck)

    def _last_to_meld(self, left: int, aside: tuple[int, ...]) -> bool:
        """Whether what is ``left`` holds one card that must be melded and no other card of
        those is in a new meld (the cards neither left nor ``aside`` are)."""
        remaining = sum((left >> (8 * i)) & 0xFF for i in self.melding)
        waiting = sum(1 for slot in aside if self.number[slot] in self.melding)
        return remaining == 1 and remaining + waiting == self.melding_held

    def lay_off(self, cards: tuple[int, ...], targets: Targets, spare: int) -> bool:
        """Whether ``cards`` can all be laid off on ``targets`` in some order, bar one discard.

        Lay-offs on different melds do not interfere, so this asks which cards
        each meld could take (in some order of its own) and whether those
        shares can split the cards exactly.
        """
        if not cards:
            # a hand placed whole: out, where no discard is owed and no card is to be kept
            self.laid = []
            return not (self.keep or (self.need_discard and spare))
        self.leaves += 1
        if self.leaves > _POOL_AFTER:
            return self._lay_off_pooled(cards)
        # each card gets a byte of one integer, as in the finder's packing: cards, what is
        # left of them and each group a meld could take are integers, and "the group fits"
        # is one subtraction (no byte below zero, so the top bit of each survives)
        shift = {slot: 8 * i for i, slot in enumerate(sorted(set(cards)))}
        guard = int.from_bytes(b"\x80" * len(shift), "little")

        def code(group: Iterable[int]) -> int:
            return sum(1 << shift[slot] for slot in group)

        # what each meld could take of all the cards: a group that needs the card kept for
        # the discard does not fit in what is left, so the same groups serve every choice.
        # Each meld asked is a step of work: on a long table the asking costs more than the
        # split that follows
        self.steps += len(targets)
        charge(len(targets))
        shares = []
        owners = []  # the target of each share
        taken = 0  # a nonzero byte for each card that some meld could take
        for target, (meld, kind) in enumerate(targets):
            groups = takes(self.finder, meld, kind, cards, self.memo)
            if groups:  # a meld that takes none of them has no say in the split
                coded = [code(g) for g in groups]
                shares.append(coded)
                owners.append(target)
                for group in coded:
                    taken |= group  # or-ed, not added: a sum could carry into the next byte
        # a card that no meld could take can only be the discard
        alone = [slot for slot in cards if not (taken >> shift[slot]) & 0xFF]
        units = {slot: 1 << at for slot, at in shift.items()}
        return self._split_bar_one(cards, alone, units, shares, owners, guard=guard, memo={})

    def _lay_off_pooled(self, cards: tuple[int, ...]) -> bool:
        """:meth:`lay_off` for a search that reaches many ways of setting cards aside: the
        groups each older meld could take are worked out once, of every card that some
        older meld might take, and serve every way (whether a meld can take a group depends
        on the group alone), and so does the memo of the split."""
        if self.pool is None:
            self.steps += len(self.targets)  # each older meld asked once, as in lay_off
            charge(len(self.targets))
            self.pool = self._pooled_shares()
        shares, taken, owners = self.pool
        alone = [slot for slot in cards if slot not in taken]
        return self._split_bar_one(
            cards, alone, self.unit, shares, owners, guard=self.guard, memo=self.splits
        )

    def _split_bar_one(
        self,
        cards: tuple[int, ...],
        alone: list[int],
        units: dict[int, int],
        shares: Sequence[list[int]],
        owners: Sequence[int],
        *,
        guard: int,
        memo: dict[tuple[int, int], bool],
    ) -> bool:
        """Whether ``cards`` (each coded as ``units`` says) split into ``shares`` (those of
        the targets ``owners``), bar the discard where the turn has one (and the card kept,
        where it ends on one card); ``alone`` are the cards no share holds, which can only
        be those. Where they do, :attr:`laid` says how."""
        if len(alone) > self.spare:
            return False
        if units is self.unit:  # coded as what is left is: its tables serve
            shifts, known = self.shifts, self.ended
        else:
            shifts = [(slot, units[slot].bit_length() - 1) for slot in sorted(set(cards))]
            known = {}

        def slots(code: int) -> tuple[int, ...]:
            """The hand slots of the cards ``code`` holds, one entry a card."""
            return tuple(slot for slot, at in shifts for _ in range((code >> at) & 0xFF))

        def ends(rest: int) -> bool:
            """Whether the cards ``rest``, which no share takes, may end the turn (never more
            than two cards)."""
            answer = known.get(rest)
            if answer is None:
                answer = known[rest] = self._ends(slots(rest))
            return answer

        every = sum(units[slot] for slot in cards)
        split = _Split(shares, guard, _beyond(shares, guard), 2 if self.keep else 1, ends)
        before = len(memo)
        found = split.leaving(every, 0, memo)
        # a step of work for each split looked at, and one for the cards set aside
        steps = len(memo) - before + 1
        self.steps += steps
        charge(steps)
        if not found:
            return False
        # the split's memo holds every answer on the way to this one: walk it back
        self.laid = [(owners[at], slots(group)) for at, group in split.taken(every, memo)]
        return True

    def _ends(self, left: tuple[int, ...]) -> bool:
        """Whether the hand slots ``left`` (one entry a card) may be what the lay-offs leave:
        none where no discard is owed, the discard, or the discard and the card kept (which
        card may be the discard can depend on the card kept)."""
        if self.keep:
            return len(left) == 2 and (
                self.discardable(left[0], left[1]) or self.discardable(left[1], left[0])
            )
        if not left:
            return not self.need_discard
        return len(left) == 1 and self.spare > 0 and self.discardable(left[0], -1)

    def _pooled_shares(self) -> tuple[list[list[int]], set[int], list[int]]:
        """The groups each older meld could take of the hand's cards that some might
        (coded as what is left is), the cards some group holds, and the target of each
        share."""
        counts = self.counts
        pool = tuple(slot for slot in self.slots if self.reach(slot) for _ in range(counts[slot]))
        unit = self.unit
        shares: list[list[int]] = []
        taken: set[int] = set()
        owners: list[int] = []
        for target, (meld, kind) in enumerate(self.targets):
            groups = takes(self.finder, meld, kind, pool, self.memo)
            if groups:
                shares.append([sum(map(unit.__getitem__, group)) for group in groups])
                owners.append(target)
                taken.update(slot for group in groups for slot in group)
        return shares, taken, owners


def _beyond(shares: Sequence[list[int]], guard: int) -> list[int]:
    """For each share, a mask of the bytes of the cards that neither it nor any later share
    could take (and one more entry, for past the last share: every card's byte)."""
    ones = guard >> 7  # 0x01 in every card's byte
    full = ones * 0xFF
    beyond = [full] * (len(shares) + 1)
    covered = 0
    for at in range(len(shares) - 1, -1, -1):
        for group in shares[at]:
            covered |= group
        # a byte below 0x80 plus 0x7F reaches the top bit exactly when it is not zero, and
        # carries nothing into the next byte
        taken = ((covered + ones * 0x7F) & guard) >> 7
        beyond[at] = full ^ taken * 0xFF
    return beyond


@attrs.frozen
class _Split:
    """The lay-offs' split of the cards left: one group from each share (a group may be
    none), the cards that stay accepted by ``ends`` (at most ``most`` of them). Cards and
    groups are coded as in :meth:`_Search.lay_off`; ``beyond`` is :func:`_beyond`'s."""

    shares: Sequence[list[int]]
    guard: int
    beyond: list[int]
    most: int
    ends: Callable[[int], bool]

    def leaving(self, left: int, at: int, seen: dict[tuple[int, int], bool]) -> bool:
        """Whether the shares from ``at`` on can take cards ``left`` so that what stays may
        end the turn. One pass for every choice of the cards that stay (the discard, say):
        a split asked again for each choice would repeat itself."""
        # what the later shares leave, each taking nothing, may end the turn already (``ends``
        # takes two cards at most, whose counts set two bits at most)
        if left.bit_count() <= 2 and self.ends(left):
            return True
        # more cards than may stay that no later share could take: each count's byte has a
        # bit set, so the bits count no more cards than there are
        if (left & self.beyond[at]).bit_count() > self.most or at == len(self.shares):
            return False
        key = (at, left)
        known = seen.get(key)
        if known is None:
            guard = self.guard
            after = at + 1
            known = self.leaving(left, after, seen) or any(
                self.leaving(left - group, after, seen)
                for group in self.shares[at]
                if ((left | guard) - group) & guard == guard
            )
            seen[key] = known
        return known

    def taken(self, left: int, seen: dict[tuple[int, int], bool]) -> list[tuple[int, int]]:
        """The groups (share index, group) of one split that :meth:`leaving` accepts from the
        start, found the way it searches, its memo ``seen`` answering again."""
        taken = []
        guard = self.guard
        for at in range(len(self.shares)):
            if left.bit_count() <= 2 and self.ends(left):
                break  # the later shares take nothing
            if self.leaving(left, at + 1, seen):
                continue
            group = next(
                g
                for g in self.shares[at]
                if ((left | guard) - g) & guard == guard and self.leaving(left - g, at + 1, seen)
            )
            taken.append((at, group))
            left -= group
        return taken
