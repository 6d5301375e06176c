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
from typing import Any, TypeVar

import attrs

from hand_rummy.actions import Action
from hand_rummy.cards import JOKER, Card
from hand_rummy.errors import InvalidStateError, expect, number
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
    slots_of,
)

_S = TypeVar("_S", bound=RoundState)

__all__ = ["Seen", "redacted", "sampled", "screened"]


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
    shown: tuple[tuple[Card, ...], ...] = ()
    """The cards each seat is known by all to hold (empty for every seat where nothing is):
    taken from the discard pile, or freed from the table, and not out of that hand since
    (:attr:`RoundState.shown <hand_rummy.state.RoundState.shown>`)."""
    shown_demoted: tuple[tuple[Card, ...], ...] = ()
    """Which of :attr:`shown` are demoted wilds, per seat."""
    renewal: tuple[Card, ...] = ()
    """The cards turned from the discard pile into the stock at its last renewal (empty
    before any): the stock holds none but these
    (:attr:`RoundState.renewal <hand_rummy.state.RoundState.renewal>`)."""
    drawn: tuple[Card, ...] = ()
    """The cards this player has drawn from the stock since its last renewal: the stock
    holds :attr:`renewal` less these and less what the others drew."""

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @classmethod
    def fields_of(cls, state: RoundState, seat: int) -> dict[str, Any]:
        """What ``seat`` may see of ``state``, as the fields of a view."""
        expect(seat, int, "the seat")
        if not 0 <= seat < state.players:
            raise InvalidStateError(
                f"there is no seat {number(seat)} in a round of {state.players}"
            )
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
            **_shown_fields(state),
            **_renewal_fields(state, seat),
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

    def held_by_others(self) -> dict[int, tuple[Counter[Card], tuple[Card, ...]]]:
        """For each other seat known to hold some cards, those cards and the demoted ones
        among them: :attr:`shown`, and for the player to move :meth:`known_to_all` too."""
        held: dict[int, tuple[Counter[Card], tuple[Card, ...]]] = {}
        for seat, cards in enumerate(self.shown):
            if seat != self.seat and cards:
                held[seat] = (Counter(cards), self.shown_demoted[seat])
        if self.turn != self.seat and self.phase is not Phase.OVER:
            # the card taken this turn is shown too, unless a copy of it has left the hand:
            # only this turn's record tells that it is still there then
            known, demoted = self.known_to_all()
            shown, marked = held.get(self.turn, (Counter(), ()))
            both, either = shown | Counter(known), Counter(marked) | Counter(demoted)
            if both != shown or either != Counter(marked):
                held[self.turn] = (both, tuple(sorted(either.elements())))
        return held

    def renewed_left(self) -> Counter[Card]:
        """The cards the stock may still hold, where the view knows them: the renewed cards
        (:attr:`renewal`) that this player did not draw and that are still hidden, less
        those another seat is known to hold. Empty before any renewal."""
        if not self.renewal:
            return Counter()
        hidden = self.unseen()
        for cards, _ in self.held_by_others().values():
            hidden -= cards
        return (Counter(self.renewal) - Counter(self.drawn)) & hidden

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


def screened(state: _S, seat: int) -> _S:
    """``state`` with every card ``seat`` cannot see a joker (the other hands, the stock) and
    no deal or seed: its view of ``seat`` is ``state``'s, and so are its legal actions when
    ``seat`` is to move. One copy of the round, where :func:`redacted` builds it from a
    view: for a caller that may never need the view."""
    hands = tuple(h if s == seat else _jokers(sum(h)) for s, h in enumerate(state.hands))
    current = state.current if seat == state.turn else attrs.evolve(state.current, had_taken=False)
    drawn = tuple(d if s == seat else () for s, d in enumerate(state.drawn))
    return state.replace(
        hands=hands,
        stock=(JOKER,) * len(state.stock),
        start=(),
        seed=0,
        current=current,
        drawn=drawn,
    )


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
        renewal=seen.renewal,
        drawn=tuple(seen.drawn if s == seen.seat else () for s in range(seen.players))
        if seen.renewal
        else (),
    )


def _renewal_fields(state: RoundState, seat: int) -> dict[str, tuple[Card, ...]]:
    """The view's fields of the stock's last renewal (none before any)."""
    if not state.renewal:
        return {}
    return {"renewal": state.renewal, "drawn": tuple(sorted(state.drawn[seat]))}


def _shown_fields(state: RoundState) -> dict[str, tuple[tuple[Card, ...], ...]]:
    """The view's fields of what each seat is known to hold (none where nothing is)."""
    if not any(state.shown):
        return {}
    pairs = [state.shown_cards(seat) for seat in range(state.players)]
    return {"shown": tuple(p[0] for p in pairs), "shown_demoted": tuple(p[1] for p in pairs)}


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
    ``lead``, hidden cards too, go to the player to move before the others are dealt.
    The cards another seat is known to hold (:meth:`Seen.held_by_others`) stay in that
    hand."""
    known, _ = seen.known_to_all() if seen.turn != seen.seat else ((), ())
    held = seen.held_by_others()
    fixed: Counter[Card] = Counter()
    for cards, _ in held.values():
        fixed.update(cards)
    first = Counter(lead)
    unseen = seen.unseen()
    if fixed - unseen:
        raise InvalidStateError("the view's cards known to be held are not among the hidden ones")
    unseen -= fixed
    if first - unseen:
        raise InvalidStateError("the cards dealt first must be among the hidden ones")
    mine = held.get(seen.turn, (Counter(), ()))[0]
    room = seen.hand_sizes[seen.turn] - mine.total()
    if first and (seen.turn == seen.seat or sum(first.values()) > room):
        raise InvalidStateError("the cards dealt first must fit in another player's hand")
    unseen -= first
    stock = _renewed_stock(seen, unseen, rng)
    hidden = sorted((unseen - Counter(stock)).elements())
    rng.shuffle(hidden)
    # dealt from the front: the player to move's share starts with them
    at = sum(
        seen.hand_sizes[seat] - held.get(seat, (Counter(), ()))[0].total()
        for seat in range(seen.turn)
        if seat != seen.seat
    )
    hidden[at:at] = sorted(first.elements())
    base = redacted(seen)
    hands = list(base.hands)
    current = base.current
    at = 0
    for seat, size in enumerate(seen.hand_sizes):
        if seat == seen.seat:
            continue
        cards, demoted = held.get(seat, (Counter(), ()))
        dealt = hidden[at : at + size - cards.total()]
        at += len(dealt)
        hands[seat] = counts_of((*cards.elements(), *dealt), demoted)
        # this turn's taken card is weighed by _held_before; the other known cards are
        # copies held beside it, as a dealt copy would be
        if seat == seen.turn and _held_before(
            seen, known, (*(cards - Counter(known)).elements(), *dealt)
        ):
            current = attrs.evolve(current, had_taken=True)
    stock += tuple(hidden[at:])
    if len(stock) != seen.stock_size:
        raise InvalidStateError("the view's card counts do not add up to the deck")
    return base.replace(
        hands=tuple(hands),
        stock=stock,
        current=current,
        shown=_slots_shown(seen),
        seed=rng.randrange(2**31),
    )


def _renewed_stock(seen: Seen, hidden: Counter[Card], rng: random.Random) -> tuple[Card, ...]:
    """The stock of a sample, where the view knows it came from a renewal: as many of the
    renewed cards still ``hidden`` (less those this player drew) as the stock holds, in a
    random order; before any renewal none (the stock is dealt with the hands)."""
    if not seen.renewal:
        return ()
    left = seen.renewed_left() & hidden
    if left.total() < seen.stock_size:
        raise InvalidStateError(
            f"the stock holds {seen.stock_size} cards, but only {left.total()} of the cards "
            f"renewed from the pile can still be in it"
        )
    return tuple(rng.sample(sorted(left.elements()), seen.stock_size))


def _slots_shown(seen: Seen) -> tuple[tuple[int, ...], ...]:
    """:attr:`Seen.shown` as a round holds it: hand slots, the demoted ones apart."""
    if not seen.shown:
        return ()
    return tuple(
        slots_of(counts_of(cards, demoted))
        for cards, demoted in zip(seen.shown, seen.shown_demoted, strict=True)
    )
