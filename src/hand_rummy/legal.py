"""The legal-action generator: every legal action of a round, in a fixed order, lazily.

It yields exactly what :meth:`Round.apply <hand_rummy.round.Round.apply>`
accepts (the random-play tests check both ways), using the meld finder's
tables instead of judging every candidate: the discards are decided once for
the whole hand, lay-downs come from the finder's melds and bounded
combinations, lay-offs from the table meld's precomputed ends.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence

from hand_rummy.actions import (
    Action,
    ClaimRedeal,
    Discard,
    DrawStock,
    Exchange,
    LayDown,
    LayOff,
    PassRedeal,
    TakeDiscard,
)
from hand_rummy.cards import CARDS, Card, Suit
from hand_rummy.finder import FoundMeld
from hand_rummy.round import Obligation, Phase, Round, TableMeld, _minus, _uses
from hand_rummy.rules.opening import OpeningExemption
from hand_rummy.rules.turn import FreedWild
from hand_rummy.rules.wilds import MeldKind

__all__ = ["LegalActions", "generate"]


def generate(game: Round) -> Iterator[Action]:
    """Every legal action of the player to move, in a fixed order."""
    if game.phase is Phase.OVER:
        return
    if game.phase is Phase.REDEAL:
        yield ClaimRedeal()
        yield PassRedeal()
        return
    if game.phase is Phase.DRAW:
        if game.stock:
            yield DrawStock()
        if game.discards and not game._check_take():
            yield TakeDiscard()
        return
    if not game._bare_turn():
        yield from _gen_lay_downs(game)
        yield from _gen_lay_offs(game)
        yield from _gen_exchanges(game)
    yield from _gen_discards(game)


def _gen_discards(game: Round) -> Iterator[Action]:
    # the same conditions as _check_discard, decided once for the whole hand
    if game.current.obligation is not None:
        return
    hand = game.hands[game.turn]
    left = sum(hand) - 1
    if left == 0 and game._going_out_problems():
        return
    going = game.ruleset.going_out
    barred = game._undiscardable()
    wild_barred = going.wild_discard_only_to_go_out and left > 0
    announce = bool(going.announce_at) and 0 < left <= going.announce_at
    is_wild = game.rules.is_wild
    for index in range(53):
        if not hand[index]:
            continue
        card = CARDS[index]
        if card == barred or (wild_barred and is_wild(card)):
            continue
        yield _DISCARDS[index]
        if announce:
            yield _ANNOUNCED_DISCARDS[index]


def _gen_lay_downs(game: Round) -> Iterator[Action]:
    seat = game.turn
    pending = game.current.obligation
    if pending is Obligation.USE_FREED_WILD and game.ruleset.exchange.freed_wild is FreedWild.KEEP:
        return
    if game.ruleset.layoff.melds_first and game.current.laid_off:
        return
    finder = game.finder
    hand = finder.extend(game.hands[seat], game.demoted[seat])
    meets = functools.partial(_meets_obligation, game)
    required = game.required_opening(seat)
    if required is None:
        size = sum(hand)
        for found in finder.melds(hand):
            if pending is not None and not meets((found,)):
                continue
            if not game._keep_problems(size - len(found.used), _minus(hand, found.used)):
                yield LayDown((found.meld,))
        return
    for combo in _openings(game, hand, required, exemption=True):
        if pending is None or meets(combo):
            yield LayDown(tuple(f.meld for f in combo))


def _meets_obligation(game: Round, combo: Sequence[FoundMeld]) -> bool:
    """Whether laying ``combo`` down does what the turn owes (the checks say the same)."""
    pending = game.current.obligation
    if pending is Obligation.MELD_TAKEN:
        taken = game.current.taken
        assert taken is not None
        return any(_uses(f.meld, taken, game.ruleset) for f in combo)
    if pending is Obligation.OPEN:
        taken = game.current.taken
        if game.ruleset.discard_take.in_opening and taken is not None:
            return any(taken in f.meld.cards for f in combo)
        return True
    if pending is Obligation.USE_FREED_WILD:
        return any(game.current.freed in f.meld.cards for f in combo)
    return True


def _openings(
    game: Round, hand: Sequence[int], required: int, *, exemption: bool = False
) -> Iterator[tuple[FoundMeld, ...]]:
    """Combinations of melds worth at least ``required`` (or finishing, where exempt)."""
    finder = game.finder
    size = sum(hand)
    finishing = (
        1 if exemption and game.ruleset.opening_exemption is not OpeningExemption.NONE else None
    )
    for combo in finder.combinations(hand, min_points=required, max_left=finishing):
        left = size - sum(len(f.used) for f in combo)
        if game._keep_problems(left, _minus(hand, [f for m in combo for f in m.used])):
            continue
        if sum(f.points for f in combo) >= required or (
            exemption
            and left <= 1
            and game._exempt_finish(left, LayDown(tuple(f.meld for f in combo)))
        ):
            yield combo


def _gen_lay_offs(game: Round) -> Iterator[Action]:
    seat = game.turn
    if game.ruleset.layoff.needs_opening and not game._is_opened(seat):
        return
    if not game.table:
        return
    finder = game.finder
    hand = game.hands[seat]
    gate: dict[int, bool] = {}
    for target in game.table:
        options = finder.layoff_options(target.meld, target.kind)
        for index in range(53):
            if not hand[index] or index not in options:
                continue
            card = CARDS[index]
            for role, contextual in options[index]:
                action = LayOff(target.id, card, role)
                if contextual:
                    if not game._check_lay_off(action):
                        yield action
                    continue
                open_gate = gate.get(index)
                if open_gate is None:
                    open_gate = not game._lay_off_gate(action)[0]
                    gate[index] = open_gate
                if open_gate:
                    yield action


def _gen_exchanges(game: Round) -> Iterator[Action]:
    seat = game.turn
    policy = game.ruleset.exchange
    if not policy.allowed or (policy.needs_opening and not game._is_opened(seat)):
        return
    if game.current.obligation is not None:
        return
    hand = game.hands[seat]
    for target in game.table:
        meld = target.meld
        wilds = [
            i
            for i, (c, r) in enumerate(zip(meld.cards, meld.roles))
            if r is not None and i not in meld.demoted and game.rules.is_wild(c)
        ]
        if not wilds:
            continue
        for supply in _supplies(game, target, wilds):
            if all(hand[c.index] >= supply.count(c) for c in supply):
                action = Exchange(target.id, supply)
                if not game._check_exchange(action):
                    yield action


def _supplies(game: Round, target: TableMeld, wilds: list[int]) -> list[tuple[Card, ...]]:
    meld = target.meld
    if target.kind is MeldKind.RUN:
        return list(dict.fromkeys((r,) for i in wilds if (r := meld.roles[i]) is not None))
    plays = [
        r or game.rules.wilds.natural_as(c)
        for i, (c, r) in enumerate(zip(meld.cards, meld.roles))
        if i not in wilds
    ]
    rank = plays[0].rank
    present = {c.suit for c in plays}
    assert rank is not None
    missing = [Card(rank, suit) for suit in Suit if suit not in present]
    options: list[tuple[Card, ...]] = []
    for size in range(1, len(missing) + 1):
        options.extend(itertools.combinations(missing, size))
    return options


_DISCARDS = tuple(Discard(card) for card in CARDS)
_ANNOUNCED_DISCARDS = tuple(Discard(card, announce=True) for card in CARDS)

_ACTION_TYPES = (
    DrawStock,
    TakeDiscard,
    LayDown,
    LayOff,
    Exchange,
    Discard,
    ClaimRedeal,
    PassRedeal,
)


class LegalActions:
    """The legal actions of a round, generated lazily (like python-chess's ``legal_moves``).

    Iterating yields actions in a fixed order; ``action in legal`` checks one
    action without generating the rest; :meth:`count` counts them; the object
    is truthy when any action is legal.
    """

    def __init__(self, game: Round | None) -> None:
        self._round = game

    def __iter__(self) -> Iterator[Action]:
        if self._round is None:
            return iter(())
        return self._listed(self._round)

    @staticmethod
    def _listed(game: Round) -> Iterator[Action]:
        # a full listing is remembered on the round, so applying one of its actions
        # does not judge it a second time (the generator is sound; the tests check it)
        if game._listed:
            yield from game._listed[0][0]
            return
        seen: list[Action] = []
        for action in generate(game):
            seen.append(action)
            yield action
        if not game._listed:
            game._listed.append((tuple(seen), frozenset(seen)))

    def __contains__(self, action: object) -> bool:
        if self._round is None or not isinstance(action, _ACTION_TYPES):
            return False
        return self._round.check(action).ok

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        shown = ", ".join(str(a) for a in list(self)[:5])
        return f"<LegalActions: {shown}{', ...' if self.count() > 5 else ''}>"
