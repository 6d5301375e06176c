"""What an action does to a round, as a record, and applying that record.

The turn rules (:mod:`hand_rummy.turn_rules`) judge an action and, when it is
legal, describe its effect as one of the records below: which hand slots
leave the hand, the table meld as it will lie, the obligation that follows,
whether the player goes out and with a Hand. :func:`advance` applies a record
and judges nothing, so an action is never judged twice and applying can never
accept what checking refused.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeAlias, TypeVar, Union

import attrs

from hand_rummy.actions import Action
from hand_rummy.cards import CARDS, Card
from hand_rummy.melds import Meld
from hand_rummy.rules.opening import OpeningRecord
from hand_rummy.rules.stock import StockEnd, StockTrigger
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.scoring import PlayerEnd, RoundEnd, RoundScore, score_round
from hand_rummy.state import (
    DEMOTED,
    NO_TURN,
    Ending,
    Obligation,
    Outcome,
    Phase,
    RoundState,
    TableMeld,
    TurnState,
)

__all__ = [
    "Discarded",
    "Drawn",
    "Exchanged",
    "Finish",
    "LaidDown",
    "LaidOff",
    "Redealt",
    "Taken",
    "Transition",
    "advance",
    "laid_melds",
]

_S = TypeVar("_S", bound=RoundState)
_T = TypeVar("_T")


@attrs.frozen
class Finish:
    """The player gets rid of the last card with this action; ``hand`` marks a Hand finish."""

    hand: bool


@attrs.frozen
class Redealt:
    """A redeal claimed (the round ends unscored) or passed (the next seat is asked)."""

    claimed: bool


@attrs.frozen
class Drawn:
    """The top card of the stock goes to the player."""


@attrs.frozen
class Taken:
    """The top discard goes to the player, into a demoted slot if it loses its wildness."""

    card: Card
    demoted: bool
    obligation: Obligation | None


@attrs.frozen
class LaidDown:
    """Melds go from the hand to the table; ``opening`` records a first meld."""

    melds: tuple[tuple[Meld, MeldKind], ...]
    slots: tuple[int, ...]
    """The hand slots the melds take, one per card (demoted slots for demoted cards)."""
    opening: OpeningRecord | None
    obligation: Obligation | None
    finish: Finish | None


@attrs.frozen
class LaidOff:
    """One card from ``slot`` joins table meld ``target``, which then lies as ``meld``."""

    target: int
    slot: int
    meld: Meld
    on_others: bool
    obligation: Obligation | None
    finish: Finish | None


@attrs.frozen
class Exchanged:
    """Natural cards from ``slots`` replace the wild ``freed`` in table meld ``target``."""

    target: int
    slots: tuple[int, ...]
    freed: Card
    meld: Meld
    obligation: Obligation | None
    on_others: bool
    """The meld is another player's."""


@attrs.frozen
class Discarded:
    """A card from ``slot`` goes onto the discard pile and the turn ends."""

    slot: int
    card: Card
    announced: int
    """The count announced (0 for none)."""
    missed: bool
    """An announcement was due and not made, so the player may not go out next turn."""
    finish: Finish | None


Transition: TypeAlias = Union[  # noqa: UP007 (used at run time, on Python 3.10)
    Redealt, Drawn, Taken, LaidDown, LaidOff, Exchanged, Discarded
]


def advance(state: _S, action: Action, change: Transition) -> _S:
    """The round after ``action``, whose effect the turn rules described as ``change``."""
    history = state.history.then(action)
    if isinstance(change, Discarded):
        return _discarded(state, change, history)
    if isinstance(change, Drawn):
        return _drawn(state, history)
    if isinstance(change, Taken):
        return _taken(state, change, history)
    if isinstance(change, LaidDown):
        return _laid_down(state, change, history)
    if isinstance(change, LaidOff):
        return _laid_off(state, change, history)
    if isinstance(change, Exchanged):
        return _exchanged(state, change, history)
    return _redealt(state, change, history)


def _redealt(state: _S, change: Redealt, history: object) -> _S:
    if change.claimed:
        zeros = (0,) * state.players
        teams = state.teams()
        team_zeros = (0,) * len(teams) if teams is not None else None
        outcome = Outcome(Ending.REDEAL, RoundScore(zeros, team_zeros, scored=False))
        return state.replace(phase=Phase.OVER, outcome=outcome, history=history)
    queue = state.redeal_queue[1:]
    if queue:
        return state.replace(turn=queue[0], redeal_queue=queue, history=history)
    phase = Phase.PLAY if state.ruleset.deal.starter_extra_card else Phase.DRAW
    return state.replace(turn=state.starter, phase=phase, redeal_queue=(), history=history)


def _drawn(state: _S, history: object) -> _S:
    card = state.stock[-1]
    # after a renewal the drawer alone knows which of the pile's cards left the stock
    drawn = (
        _put(state.drawn, state.turn, (*state.drawn[state.turn], card))
        if state.renewal
        else state.drawn
    )
    after = state.replace(
        hands=_moved(state.hands, state.turn, (), (card.index,)),
        stock=state.stock[:-1],
        phase=Phase.PLAY,
        history=history,
        current=NO_TURN,
        drawn=drawn,
    )
    if not after.stock and state.ruleset.stock.trigger is StockTrigger.LAST_CARD_DRAWN:
        # the stock counts as run out now: renewed from the pile where the rules allow it
        # (002 "Fresh stock"), else the round ends
        return _renew_stock(after)
    return after


def _taken(state: _S, change: Taken, history: object) -> _S:
    card = change.card
    slot = card.index + (DEMOTED if change.demoted else 0)
    hand = state.hands[state.turn]
    return state.replace(
        hands=_moved(state.hands, state.turn, (), (slot,)),
        shown=_shown(state, state.turn, (), (slot,)),
        discards=state.discards[:-1],
        phase=Phase.PLAY,
        current=TurnState(
            taken=card,
            had_taken=hand[card.index] + hand[DEMOTED + card.index] > 0,
            obligation=change.obligation,
            taken_demoted=change.demoted,
        ),
        history=history,
    )


def laid_melds(state: RoundState, change: LaidDown) -> tuple[TableMeld, ...]:
    """The melds that ``change`` puts on the table: the mover's, numbered on from the
    highest number there."""
    seat = state.turn
    next_id = max((m.id for m in state.table), default=0) + 1
    return tuple(
        TableMeld(next_id + i, seat, meld, kind) for i, (meld, kind) in enumerate(change.melds)
    )


def _laid_down(state: _S, change: LaidDown, history: object) -> _S:
    seat = state.turn
    laid = laid_melds(state, change)
    opened, openings = state.opened, state.openings
    if change.opening is not None:
        shared = state.ruleset.opening.shared_by_team
        team = state.ruleset.players.teams(state.players)[change.opening.team] if shared else ()
        opened = tuple(o or s == seat or s in team for s, o in enumerate(opened))
        openings = (*openings, change.opening)
    current = attrs.evolve(
        state.current,
        obligation=change.obligation,
        laid_down=True,
        melded=(*state.current.melded, *(c for meld, _ in change.melds for c in meld.cards)),
        taken_meld=_taken_laid(
            state.current, change.slots, [(m.id, len(m.meld.cards)) for m in laid]
        ),
    )
    after = state.replace(
        hands=_moved(state.hands, seat, change.slots, ()),
        shown=_shown(state, seat, change.slots, ()),
        table=state.table + laid,
        opened=opened,
        openings=openings,
        current=current,
        history=history,
    )
    return _went_out(after, change.finish, None)


def _laid_off(state: _S, change: LaidOff, history: object) -> _S:
    seat = state.turn
    current = attrs.evolve(
        state.current,
        obligation=change.obligation,
        laid_off=True,
        laid_off_on_others=state.current.laid_off_on_others or change.on_others,
        melded=(*state.current.melded, CARDS[change.slot % DEMOTED]),
        taken_meld=_taken_laid(state.current, (change.slot,), [(change.target, 1)]),
    )
    after = state.replace(
        hands=_moved(state.hands, seat, (change.slot,), ()),
        shown=_shown(state, seat, (change.slot,), ()),
        table=_replaced(state.table, change.target, change.meld),
        current=current,
        history=history,
    )
    return _went_out(after, change.finish, None)


def _taken_slot(turn: TurnState) -> int | None:
    """The hand slot of the card taken this turn, while it is in the hand."""
    if turn.taken is None or turn.taken_meld is not None:
        return None
    return turn.taken.index + (DEMOTED if turn.taken_demoted else 0)


def _taken_laid(
    turn: TurnState, slots: Sequence[int], melds: Sequence[tuple[int, int]]
) -> int | None:
    """Where the taken card lies once cards from hand ``slots`` have gone to the table,
    into ``melds`` (each a table meld's number and how many of the slots it takes, in the
    order of the slots): the meld that the first card of the taken card's slot joined, or
    wherever it lay before."""
    slot = _taken_slot(turn)
    if slot is None or slot not in slots:
        return turn.taken_meld
    at = slots.index(slot)
    for meld_id, size in melds:
        if at < size:
            return meld_id
        at -= size
    raise AssertionError("a slot beyond the melds it went into")


def _frees_the_taken(state: RoundState, change: Exchanged) -> bool:
    """Whether the wild ``change`` frees is the very card taken from the pile this turn: it
    comes from the meld the taken card went into, which holds no other wild copy of it."""
    turn = state.current
    if turn.taken_meld != change.target or change.freed != turn.taken:
        return False
    meld = next(m.meld for m in state.table if m.id == change.target)
    wild = state.rules.is_wild
    copies = sum(
        1
        for i, card in enumerate(meld.cards)
        if card == change.freed and i not in meld.demoted and wild(card)
    )
    return copies == 1


def _exchanged(state: _S, change: Exchanged, history: object) -> _S:
    # a freed copy of the face taken from the pile that is not the taken card itself is
    # another copy, which may be discarded (as one held before the take would be); the
    # taken card back in the hand stays the card not to be discarded
    back = _frees_the_taken(state, change)
    current = attrs.evolve(
        state.current,
        freed=change.freed,
        obligation=change.obligation,
        had_taken=state.current.had_taken or (change.freed == state.current.taken and not back),
        taken_meld=None
        if back
        else _taken_laid(state.current, change.slots, [(change.target, len(change.slots))]),
        exchanged_on_others=state.current.exchanged_on_others or change.on_others,
        melded=_exchanged_cards(state.current.melded, change),
    )
    return state.replace(
        hands=_moved(state.hands, state.turn, change.slots, (change.freed.index,)),
        shown=_shown(state, state.turn, change.slots, (change.freed.index,)),
        table=_replaced(state.table, change.target, change.meld),
        current=current,
        history=history,
    )


def _exchanged_cards(melded: tuple[Card, ...], change: Exchanged) -> tuple[Card, ...]:
    """The cards this turn has put on the table, after an exchange: the natural cards go
    in, and the freed wild leaves, if the turn had put one of its face there.

    So they stay cards that lie on the table, each counted once (the end of the round
    counts them with the hands), and in a Hand, whose every exchange is on a meld it laid
    this turn, they are its melds' cards exactly.
    """
    cards = list(melded)
    if change.freed in cards:
        cards.remove(change.freed)
    return (*cards, *(CARDS[slot % DEMOTED] for slot in change.slots))


def _discarded(state: _S, change: Discarded, history: object) -> _S:
    seat = state.turn
    changes = {
        "hands": _moved(state.hands, seat, (change.slot,), ()),
        "shown": _shown(state, seat, (change.slot,), ()),
        "discards": (*state.discards, change.card),
        "history": history,
    }
    if state.ruleset.going_out.announce_at:
        changes["announced"] = _put(state.announced, seat, change.announced)
        changes["missed"] = _put(state.missed, seat, change.missed)
    if change.finish is not None:
        demoted = change.slot >= DEMOTED
        return _went_out(state.replace(**changes), change.finish, change.card, demoted)
    return _next_turn(state, changes)


def _end_turn_flags(state: RoundState) -> dict[str, object]:
    seat = state.turn
    did_meld = state.current.laid_down or state.current.laid_off
    return {
        "melded": _put(state.melded, seat, state.melded[seat] or did_meld),
        "turns_played": _put(state.turns_played, seat, state.turns_played[seat] + 1),
    }


def _next_turn(state: _S, changes: dict[str, object]) -> _S:
    """The turn passes on; ``changes`` are the ending turn's own (one copy of the round)."""
    after = state.replace(
        turn=(state.turn + 1) % state.players,
        phase=Phase.DRAW,
        current=NO_TURN,
        **_end_turn_flags(state),
        **changes,
    )
    stock = state.ruleset.stock
    if stock.trigger is StockTrigger.AT_PLAYER_COUNT and len(after.stock) <= state.players:
        return _stock_end(after)
    if not after.stock and stock.trigger is StockTrigger.EMPTY_ON_DRAW:
        return _renew_stock(after)
    return after


def _renew_stock(state: _S) -> _S:
    policy = state.ruleset.stock
    can_renew = policy.reshuffles is None or state.reshuffles < policy.reshuffles
    if not can_renew or len(state.discards) < 2:
        return _stock_end(state)
    pile = list(state.discards[:-1])
    random.Random(f"{state.seed}:reshuffle:{state.reshuffles}").shuffle(pile)
    return state.replace(
        stock=tuple(pile),
        discards=state.discards[-1:],
        reshuffles=state.reshuffles + 1,
        renewal=tuple(sorted(pile)),
        drawn=((),) * state.players,
    )


def _player_end(state: RoundState, seat: int) -> PlayerEnd:
    # a player has opened personally when some meld on the table is theirs; whether a
    # partner's opening counts too is the scoring policy's call
    personal = any(meld.owner == seat for meld in state.table)
    return PlayerEnd(state.hand(seat), personal, state.hand_demoted(seat))


def _stock_end(state: _S) -> _S:
    ends = tuple(_player_end(state, s) for s in range(state.players))
    score = score_round(RoundEnd(ends, None, teams=state.teams()), state.rules)
    if state.ruleset.stock.end is StockEnd.UNSCORED:
        score = attrs.evolve(score, scored=False)
    return state.replace(phase=Phase.OVER, outcome=Outcome(Ending.STOCK, score))


def _went_out(
    state: _S, finish: Finish | None, last_discard: Card | None, demoted: bool = False
) -> _S:
    if finish is None:
        return state
    seat = state.turn
    end = RoundEnd(
        tuple(_player_end(state, s) for s in range(state.players)),
        seat,
        finish.hand,
        state.current.melded,
        last_discard,
        state.teams(),
        _demoted_plays(state, seat) if finish.hand else (),
        demoted,
    )
    ending = Ending.HAND if finish.hand else Ending.WENT_OUT
    return state.replace(
        **_end_turn_flags(state),
        phase=Phase.OVER,
        outcome=Outcome(ending, score_round(end, state.rules), seat),
    )


def _demoted_plays(state: RoundState, seat: int) -> tuple[Card, ...]:
    """What the demoted cards of ``seat``'s melds play as: in a Hand, every meld of the seat
    was laid this turn, so these are the demoted cards among the turn's melded cards."""
    return tuple(
        meld.roles[i] or meld.cards[i]
        for table_meld in state.table
        if table_meld.owner == seat
        for meld in (table_meld.meld,)
        for i in sorted(meld.demoted)
    )


def _moved(
    hands: tuple[tuple[int, ...], ...], seat: int, out: tuple[int, ...], into: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    hand = list(hands[seat])
    for slot in out:
        hand[slot] -= 1
    for slot in into:
        hand[slot] += 1
    return (*hands[:seat], tuple(hand), *hands[seat + 1 :])


def _shown(
    state: RoundState, seat: int, out: tuple[int, ...], into: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """:attr:`RoundState.shown` after ``seat`` puts the slots ``out`` on the table or the
    pile and takes ``into`` in view of all. A card out of a slot that holds known cards may
    be one of them: the others cannot tell, so it counts against them."""
    shown = state.shown
    mine = shown[seat] if shown else ()
    if not mine and not into:
        return shown  # most moves: nothing known of this hand
    known = list(mine)
    for slot in out:
        if slot in known:
            known.remove(slot)
    known.extend(into)
    known.sort()
    every = shown or ((),) * state.players
    return _put(every, seat, tuple(known))


def _replaced(table: tuple[TableMeld, ...], meld_id: int, meld: Meld) -> tuple[TableMeld, ...]:
    return tuple(attrs.evolve(m, meld=meld) if m.id == meld_id else m for m in table)


def _put(values: tuple[_T, ...], seat: int, value: _T) -> tuple[_T, ...]:
    return (*values[:seat], value, *values[seat + 1 :])
