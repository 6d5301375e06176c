"""What one player may see of a round, and rounds rebuilt from that alone.

A player sees their own hand, the table, the discard pile, the indicator
and public counts. :func:`redacted` rebuilds a round in which every card the
player cannot see is a joker: the legal actions of the player to move depend
only on what that player sees, so it answers them exactly and can leak
nothing. :func:`sampled` deals the unseen cards at random instead, for
search bots.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs

from hand_rummy.actions import Action
from hand_rummy.cards import JOKER, Card
from hand_rummy.errors import InvalidStateError, expect
from hand_rummy.history import ActionLog
from hand_rummy.melds import MeldRules
from hand_rummy.rules.opening import OpeningRecord
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.state import (
    Obligation,
    Outcome,
    Phase,
    RoundState,
    TableMeld,
    TurnState,
    counts_of,
)

__all__ = ["Seen", "redacted", "sampled"]


def _log(actions: Iterable[Action]) -> ActionLog:
    return actions if isinstance(actions, ActionLog) else ActionLog(actions)


@attrs.frozen
class Seen:
    """A round as seen by ``seat``: everything public, and that player's own hand.

    Two rounds that differ only in cards this player cannot see are seen the same.
    """

    seat: int
    ruleset: Ruleset
    dealer: int
    turn: int
    phase: Phase
    hand: tuple[Card, ...]
    demoted: tuple[Card, ...]
    """Cards in this hand that were wild but came from the discard pile, so play as natural."""
    table: tuple[TableMeld, ...]
    discards: tuple[Card, ...]
    indicator: Card | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    opened: tuple[bool, ...]
    melded: tuple[bool, ...]
    openings: tuple[OpeningRecord, ...]
    turns_played: tuple[int, ...]
    announced: tuple[int, ...]
    missed: tuple[bool, ...]
    reshuffles: int
    current: TurnState
    redeal_queue: tuple[int, ...]
    history: ActionLog = attrs.field(converter=_log)
    outcome: Outcome | None

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @classmethod
    def fields_of(cls, state: RoundState, seat: int) -> dict[str, Any]:
        """What ``seat`` may see of ``state``, as the fields of a view."""
        expect(seat, int, "the seat")
        if not 0 <= seat < state.players:
            raise InvalidStateError(f"there is no seat {seat} in a round of {state.players}")
        return {
            "seat": seat,
            "ruleset": state.ruleset,
            "dealer": state.dealer,
            "turn": state.turn,
            "phase": state.phase,
            "hand": state.hand(seat),
            "demoted": state.hand_demoted(seat),
            "table": state.table,
            "discards": state.discards,
            "indicator": state.indicator,
            "hand_sizes": tuple(map(sum, state.hands)),
            "stock_size": len(state.stock),
            "opened": state.opened,
            "melded": state.melded,
            "openings": state.openings,
            "turns_played": state.turns_played,
            "announced": state.announced,
            "missed": state.missed,
            "reshuffles": state.reshuffles,
            # whether the taker already held a copy of the taken card is known to the
            # taker alone (it tells which card stays barred from the discard)
            "current": state.current
            if seat == state.turn
            else attrs.evolve(state.current, had_taken=False),
            "redeal_queue": state.redeal_queue,
            "history": state.history,
            "outcome": state.outcome,
        }

    def known_to_all(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The cards that everyone saw go into the hand of the player to move and knows are
        still there, and which of them are demoted: the card taken from the discard pile
        this turn, until anything leaves the hand, and a wild freed from the table, which
        only a lay-down or a lay-off takes out again (and none has, while it is owed)."""
        current = self.current
        if self.phase is not Phase.PLAY:
            return (), ()
        known: list[Card] = []
        demoted: tuple[Card, ...] = ()
        laid = current.laid_down or current.laid_off
        if current.taken is not None and not laid and current.freed is None:
            known.append(current.taken)
            demoted = (current.taken,) if current.taken_demoted else ()
        owed = current.obligation is Obligation.USE_FREED_WILD
        if current.freed is not None and (owed or not laid):
            known.append(current.freed)
        return tuple(known), demoted

    def unseen(self) -> Counter[Card]:
        """The cards this player cannot see: in other hands or in the stock."""
        shown = Counter(self.hand)
        shown.update(self.discards)
        for meld in self.table:
            shown.update(meld.meld.cards)
        if self.indicator is not None:
            shown[self.indicator] += 1
        deck = Counter(p.card for p in self.ruleset.deck.cards())
        return deck - shown


@functools.lru_cache(maxsize=256)
def _jokers(size: int) -> tuple[int, ...]:
    """A hand vector of ``size`` jokers: what a redacted round holds for a hidden hand."""
    return counts_of([JOKER] * size)


def redacted(seen: Seen) -> RoundState:
    """A round built from ``seen`` alone, the other hands and the stock filled with jokers."""
    hands = tuple(
        counts_of(seen.hand, seen.demoted) if seat == seen.seat else _jokers(size)
        for seat, size in enumerate(seen.hand_sizes)
    )
    return RoundState(
        ruleset=seen.ruleset,
        rules=MeldRules.of(seen.ruleset, seen.indicator),
        dealer=seen.dealer,
        seed=0,
        start=(),
        hands=hands,
        stock=(JOKER,) * seen.stock_size,
        discards=seen.discards,
        table=seen.table,
        turn=seen.turn,
        phase=seen.phase,
        opened=seen.opened,
        melded=seen.melded,
        openings=seen.openings,
        turns_played=seen.turns_played,
        announced=seen.announced,
        missed=seen.missed,
        current=seen.current,
        reshuffles=seen.reshuffles,
        redeal_queue=seen.redeal_queue,
        history=seen.history,
        outcome=seen.outcome,
        indicator=seen.indicator,
    )


def _held_before(seen: Seen, known: tuple[Card, ...], dealt: Iterable[Card]) -> bool:
    """Whether a sample that deals ``dealt`` to the player to move (beside ``known``) gives
    that player a copy of the card taken this turn that was held before the take.

    Only one card was taken, so a copy dealt beside it (known to be in the hand) was held
    before, and so is one of two copies dealt. A copy dealt where the taken card is known
    to have left the hand (it lies in a meld, ``taken_meld``; or the rules had it melded
    before anything else, and something was laid) is one too. Otherwise a lone copy dealt
    may be the taken card itself, and the view's answer stands.
    """
    current = seen.current
    taken = current.taken
    if taken is None:
        return False
    copies = sum(1 for card in dealt if card == taken)
    if taken in known:
        return copies >= 1
    laid = current.laid_down or current.laid_off or current.freed is not None
    gone = current.taken_meld is not None or (seen.ruleset.discard_take.must_meld and laid)
    return copies >= 2 or (gone and copies >= 1)


def sampled(seen: Seen, rng: random.Random, lead: Iterable[Card] = ()) -> RoundState:
    """A full round consistent with ``seen``, the hidden cards dealt at random by ``rng``;
    ``lead``, hidden cards too, go to the player to move before the others are dealt."""
    known, demoted = seen.known_to_all() if seen.turn != seen.seat else ((), ())
    first = Counter(lead)
    unseen = seen.unseen() - Counter(known)
    if first - unseen:
        raise InvalidStateError("the cards dealt first must be among the hidden ones")
    room = seen.hand_sizes[seen.turn] - len(known)
    if first and (seen.turn == seen.seat or sum(first.values()) > room):
        raise InvalidStateError("the cards dealt first must fit in another player's hand")
    hidden = sorted((unseen - first).elements())
    rng.shuffle(hidden)
    # dealt from the front: the player to move's share starts with them
    at = sum(seen.hand_sizes[seat] for seat in range(seen.turn) if seat != seen.seat)
    hidden[at:at] = sorted(first.elements())
    base = redacted(seen)
    hands = list(base.hands)
    current = base.current
    at = 0
    for seat, size in enumerate(seen.hand_sizes):
        if seat == seen.seat:
            continue
        dealt = hidden[at : at + size - len(known)] if seat == seen.turn else hidden[at : at + size]
        at += len(dealt)
        if seat == seen.turn:
            hands[seat] = counts_of((*known, *dealt), demoted)
            if _held_before(seen, known, dealt):
                current = attrs.evolve(current, had_taken=True)
        else:
            hands[seat] = counts_of(dealt)
    stock = tuple(hidden[at:])
    if len(stock) != seen.stock_size:
        raise InvalidStateError("the view's card counts do not add up to the deck")
    return base.replace(hands=tuple(hands), stock=stock, current=current, seed=rng.randrange(2**31))
