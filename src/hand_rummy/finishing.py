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
search takes the hand's first card and tries each new meld that holds it,
or sets it aside for the lay-offs and the discard; once every card is placed
it asks whether the cards set aside can be laid off, in some order, on the
older melds.
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
_HIGH = 14

Targets = tuple[tuple[Meld, MeldKind], ...]


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
    if sum(hand) == 0:
        return not rules.final_discard
    reach = _Reach(finder, hand, targets)
    in_melds = {slot for found in finder.melds(hand) for slot in found.used}
    stranded = sum(
        n for slot, n in enumerate(hand) if n and slot not in in_melds and not reach(slot)
    )
    if stranded > spare:
        return False
    search = _Search(
        finder,
        targets,
        spare=spare,
        need_discard=rules.final_discard,
        discardable=discardable,
        reach=reach,
    )
    return search.place(tuple(hand), ())


class _Reach:
    """A generous test of whether a card could ever be laid off on one of the older melds.

    Generous means it never says no to a card that some order of lay-offs
    could place: a set takes its rank, a run the cards of its suit that the
    hand's other cards of that suit (and its wilds) could link to an end.
    """

    def __init__(self, finder: MeldFinder, hand: Sequence[int], targets: Targets) -> None:
        rules = finder.rules
        self.rules = rules
        self.any_target = bool(targets)
        wilds = sum(hand[f] for f in range(53) if rules.is_wild(CARDS[f]))
        self.ranks: set[Rank | None] = set()
        self.values: dict[int, set[int]] = {}
        held: dict[int, set[int]] = {}
        for face in range(52):
            if hand[face] or hand[DEMOTED + face]:
                plays = rules.wilds.natural_as(CARDS[face])
                assert plays.suit is not None and plays.rank is not None
                held.setdefault(int(plays.suit), set()).update(_values(plays.rank))
        if hand[52] and not rules.is_wild(CARDS[52]):
            plays = rules.wilds.natural_as(CARDS[52])
            assert plays.suit is not None and plays.rank is not None
            held.setdefault(int(plays.suit), set()).update(_values(plays.rank))
        for meld, kind in targets:
            laid = [c for c in meld.plays_as if c.rank is not None]
            if kind is MeldKind.SET:
                self.ranks.add(laid[0].rank)
                continue
            suit = laid[0].suit
            assert suit is not None
            reached = self.values.setdefault(int(suit), set())
            reached.update(_linked(laid, held.get(int(suit), set()), wilds))

    def __call__(self, slot: int) -> bool:
        card = CARDS[slot % DEMOTED]
        if slot < DEMOTED and self.rules.is_wild(card):
            return self.any_target
        if card.is_joker and slot >= DEMOTED:
            return Rank.ACE in self.ranks or any(
                {1, _HIGH} & values for values in self.values.values()
            )
        plays = self.rules.wilds.natural_as(card)
        assert plays.suit is not None and plays.rank is not None
        if plays.rank in self.ranks:
            return True
        return bool(set(_values(plays.rank)) & self.values.get(int(plays.suit), set()))


def _values(rank: Rank) -> tuple[int, ...]:
    return (1, _HIGH) if rank is Rank.ACE else (int(rank),)


def _linked(plays: Sequence[Card], held: set[int], wilds: int) -> set[int]:
    """Run values beyond a run's ends that held cards and ``wilds`` gap-fillers could reach."""
    values: set[int] = set()
    for card in plays:
        assert card.rank is not None
        values.update(_values(card.rank))
    low, high = min(values), max(values)
    reached: set[int] = set()
    for step, start in ((-1, low), (1, high)):
        gaps, value = wilds, start + step
        while 1 <= value <= _HIGH:
            if value in held:
                reached.add(value)
            elif gaps:
                gaps -= 1
            else:
                break
            value += step
    return reached


class _Search:
    """The first-card search over new melds, then the lay-offs and the discard."""

    def __init__(
        self,
        finder: MeldFinder,
        targets: Targets,
        *,
        spare: int,
        need_discard: bool,
        discardable: Callable[[int], bool],
        reach: Callable[[int], bool],
    ) -> None:
        self.finder = finder
        self.targets = targets
        self.spare = spare
        self.need_discard = need_discard
        self.discardable = discardable
        self.reach = reach
        self.seen: dict[object, bool] = {}

    def place(self, hand: tuple[int, ...], aside: tuple[int, ...]) -> bool:
        """Whether ``hand`` splits into new melds and cards that the lay-offs can take."""
        key = (hand, aside)
        known = self.seen.get(key)
        if known is None:
            known = self._place(hand, aside)
            self.seen[key] = known
        return known

    def _place(self, hand: tuple[int, ...], aside: tuple[int, ...]) -> bool:
        first = next((i for i, n in enumerate(hand) if n), None)
        if first is None:
            return self.lay_off(aside, self.targets, self.spare)
        rest = list(hand)
        rest[first] -= 1
        stuck = sum(1 for slot in aside if not self.reach(slot))
        if stuck + (not self.reach(first)) <= self.spare and self.place(
            tuple(rest), tuple(sorted((*aside, first)))
        ):
            return True
        for found in self.finder.melds(hand):
            if first in found.used:
                left = list(hand)
                for slot in found.used:
                    left[slot] -= 1
                if self.place(tuple(left), aside):
                    return True
        return False

    def lay_off(self, cards: tuple[int, ...], targets: Targets, spare: int) -> bool:
        """Whether ``cards`` can all be laid off on ``targets`` in some order, bar one discard."""
        if not cards:
            return not (self.need_discard and spare)
        key = (cards, targets, spare)
        known = self.seen.get(key)
        if known is not None:
            return known
        found = False
        if len(cards) == 1 and spare and self.discardable(cards[0]):
            found = True
        for at, slot in enumerate(cards):
            if found:
                break
            rest = cards[:at] + cards[at + 1 :]
            # the discard comes last in the turn, but any one card may be it
            if spare and self.discardable(slot) and self.lay_off(rest, targets, 0):
                found = True
                break
            for i, (meld, kind) in enumerate(targets):
                for after in lay_off_options(self.finder, meld, kind, slot):
                    if self.lay_off(rest, (*targets[:i], (after, kind), *targets[i + 1 :]), spare):
                        found = True
                        break
                if found:
                    break
        self.seen[key] = found
        return found


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
