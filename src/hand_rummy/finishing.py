"""Can a player still get rid of every card this turn? (000 §The first meld, "Exception")

A player who has not melded may open below the bar when the same turn ends
with an empty hand, and the lay-offs made after the opening lands count
(001 §Ende einer Runde, "aus oder an"; RULES-MATRIX L11). The turn rules
accept such an opening only when this search finds a way to finish, and
from then on accept only moves after which a way still exists, so a player
can never be left holding a below-bar opening and no way out.

Any finishing turn can be put in this order: new melds first, then lay-offs
on the melds that were on the table before (a card laid off on one of the
player's own new melds could have been in that meld from the start, since
the meld finder knows melds of every length), then the final discard. So
the search tries each combination of new melds and asks whether the rest
can be laid off, one card at a time, on the older melds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from hand_rummy.cards import CARDS, Card, Rank
from hand_rummy.finder import MeldFinder
from hand_rummy.melds import Meld
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import DEMOTED, TableMeld
from hand_rummy.table import LayoffContext, lay_off

__all__ = ["FinishRules", "can_finish", "lay_off_options"]

_GOING_OUT = LayoffContext(going_out=True)


@attrs.frozen
class FinishRules:
    """How this turn may end.

    ``final_discard``: the last card must be discarded. Otherwise the hand
    may also empty by melding, and ``may_discard`` says whether one card may
    still end the turn as a discard (a Hand that must meld every card may
    not). ``on_others``: lay-offs on other players' melds count (a Hand
    finish under 000 and 004 adds to no other meld).
    """

    final_discard: bool
    may_discard: bool = True
    on_others: bool = True


def can_finish(
    finder: MeldFinder,
    hand: Sequence[int],
    *,
    table: Iterable[TableMeld],
    seat: int,
    rules: FinishRules,
    discardable: Callable[[int], bool],
) -> bool:
    """Whether ``hand`` can be emptied this turn by melds, lay-offs on ``table`` and a discard.

    ``discardable(slot)`` says whether the card in a hand slot may be the
    final discard.
    """
    targets = tuple((m.meld, m.kind) for m in table if rules.on_others or m.owner == seat)
    spare = 1 if rules.final_discard or rules.may_discard else 0
    need_discard = rules.final_discard
    vector = list(hand)
    if not _may_place(finder, vector, targets, spare):
        return False
    search = _LayoffSearch(finder, discardable)
    if search.covers(tuple(vector), targets, spare, need_discard):
        return True
    return any(
        search.covers(_without(vector, combo_slots), targets, spare, need_discard)
        for combo_slots in _combination_slots(finder, vector)
    )


def _combination_slots(finder: MeldFinder, hand: list[int]) -> Iterable[tuple[int, ...]]:
    for combo in finder.combinations(hand):
        yield tuple(slot for found in combo for slot in found.used)


def _without(hand: Sequence[int], slots: Iterable[int]) -> tuple[int, ...]:
    left = list(hand)
    for slot in slots:
        left[slot] -= 1
    return tuple(left)


def _may_place(
    finder: MeldFinder, hand: Sequence[int], targets: Sequence[tuple[Meld, MeldKind]], spare: int
) -> bool:
    """A quick necessary condition: at most ``spare`` cards fit neither a meld nor a lay-off.

    A card can be laid off eventually only on a meld of its rank (a set) or of
    its suit (a run, perhaps after other cards extend it), or anywhere if wild.
    """
    in_melds = {slot for found in finder.melds(hand) for slot in found.used}
    rules = finder.rules
    suits = {m.plays_as[0].suit for m, kind in targets if kind is MeldKind.RUN}
    ranks = {
        next(c for c in m.plays_as if c.rank is not None).rank
        for m, kind in targets
        if kind is MeldKind.SET
    }
    stranded = 0
    for slot, count in enumerate(hand):
        if not count or slot in in_melds:
            continue
        card = CARDS[slot % DEMOTED]
        plays = rules.wilds.natural_as(card)
        wild = rules.is_wild(card) and slot < DEMOTED
        if (wild and targets) or plays.suit in suits or plays.rank in ranks:
            continue
        if card.is_joker and slot >= DEMOTED and (suits or Rank.ACE in ranks):
            continue  # a demoted joker plays as an Ace of any suit
        stranded += count
        if stranded > spare:
            return False
    return True


class _LayoffSearch:
    """Lay every card of a hand off, one at a time, keeping at most one for the discard."""

    def __init__(self, finder: MeldFinder, discardable: Callable[[int], bool]) -> None:
        self.finder = finder
        self.discardable = discardable
        self.seen: dict[object, bool] = {}

    def covers(
        self,
        hand: tuple[int, ...],
        targets: tuple[tuple[Meld, MeldKind], ...],
        spare: int,
        need_discard: bool,
    ) -> bool:
        size = sum(hand)
        if size == 0:
            return not need_discard
        if size == 1 and spare:
            slot = next(i for i, n in enumerate(hand) if n)
            if self.discardable(slot):
                return True
        if not targets:
            return False
        key = (hand, targets, spare, need_discard)
        known = self.seen.get(key)
        if known is not None:
            return known
        found = self._search(hand, targets, spare, need_discard)
        self.seen[key] = found
        return found

    def _search(
        self,
        hand: tuple[int, ...],
        targets: tuple[tuple[Meld, MeldKind], ...],
        spare: int,
        need_discard: bool,
    ) -> bool:
        slot = next(i for i, n in enumerate(hand) if n)
        rest = list(hand)
        rest[slot] -= 1
        left = tuple(rest)
        for i, (meld, kind) in enumerate(targets):
            for after in lay_off_options(self.finder, meld, kind, slot):
                extended = (*targets[:i], (after, kind), *targets[i + 1 :])
                if self.covers(left, extended, spare, need_discard):
                    return True
        # the card that stays for the discard can be any card, so try this one
        return bool(
            spare
            and sum(hand) > 1
            and self.discardable(slot)
            and self._covers_without_discard(left, targets)
        )

    def _covers_without_discard(
        self, hand: tuple[int, ...], targets: tuple[tuple[Meld, MeldKind], ...]
    ) -> bool:
        return self.covers(hand, targets, 0, False)


def lay_off_options(finder: MeldFinder, meld: Meld, kind: MeldKind, slot: int) -> list[Meld]:
    """Every way the card in hand ``slot`` can be laid off on ``meld`` by a finishing player.

    The player goes out this turn, so 000's restriction on a set of two
    naturals and a wild does not apply.
    """
    rules = finder.rules
    card = CARDS[slot % DEMOTED]
    if slot >= DEMOTED:
        roles: list[Card | None] = [None]
        if card.is_joker and kind is MeldKind.RUN:
            roles = [Card(Rank.ACE, s) for s in {c.suit for c in meld.plays_as}]
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
