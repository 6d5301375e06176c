"""Guesses at the cards a player cannot see that leave the player to move a legal move.

A view of another player's turn is a round the real hands can play on: that
player has a legal move. A guess at the hidden cards need not leave one. Where
the turn owes a meld (an opening that holds the card just taken, say), the
player to move made that debt on a hand that could pay it, and at a high bar a
random hand almost never can. So the plain guesses, dealt at random and kept
when the round they make has a legal move, are joined after a few by guesses
that deal the owed meld first: melds built from a random share of the hidden
cards, then the rest dealt at random. A turn bound to finish (or to end on one
card) after an opening below the bar is a debt of the whole hand: those guesses
deal melds that fill it but the discard. Either kind is judged by the engine's
own legal-action generator before it is kept; the second only proposes. (Where
the turn is bound to finish, a guess without a way to finish has no legal move,
and is dealt again after that one search.)

The guesses that deal a meld first are not drawn from the exact posterior (the
deals consistent with the view in which the player to move has a legal move):
they favour hands of that meld. A search bot loses little by that; a caller who
needs the posterior itself can keep the plain guesses of :func:`guess`.
"""

from __future__ import annotations

import random
from collections import Counter

from hand_rummy.cards import Card
from hand_rummy.errors import InvalidStateError
from hand_rummy.finder import FoundMeld
from hand_rummy.legal import LegalActions
from hand_rummy.state import Obligation, Phase, RoundState, counts_of
from hand_rummy.turn_rules.gates import PROMISES, finish_rules, promise_way
from hand_rummy.turn_rules.laying_down import obliged_slots
from hand_rummy.visibility import Seen, redacted, sampled

__all__ = ["GUESSES", "PLAIN_GUESSES", "guess", "owed_melds"]

GUESSES = 1024
"""How many guesses :func:`guess` makes before it gives up."""

PLAIN_GUESSES = 8
"""How many guesses are dealt wholly at random before every other one deals an owed meld
first (most views need one guess; a turn that owes a meld at a high bar needs thousands)."""

_OWED = frozenset((Obligation.OPEN, Obligation.MELD_TAKEN, Obligation.USE_FREED_WILD, *PROMISES))

_SHARE = 2
"""The melds dealt first are built from this many hands' worth of the hidden cards: a
larger share finds a meld more often, and costs more to search."""

_CHOICES = 3
"""Each meld added to reach the bar is drawn from the few that are worth the most for the
cards they use: the best alone would give the same melds again and again."""


def guess(seen: Seen, rng: random.Random, *, dealt_first: bool = True) -> RoundState:
    """A full round consistent with ``seen`` in which the player to move has a legal move,
    the hidden cards dealt by ``rng``.

    With ``dealt_first`` (the default), after :data:`PLAIN_GUESSES` plain guesses every
    other guess deals a meld that the turn owes first (:func:`owed_melds`). Raises
    :class:`~hand_rummy.errors.InvalidStateError` when none of :data:`GUESSES` guesses
    leaves a legal move.
    """
    if seen.turn == seen.seat or seen.phase is Phase.OVER:
        return sampled(seen, rng)  # what the viewer sees decides the moves: nothing to guess
    for attempt in range(GUESSES):
        lead: tuple[Card, ...] | None = None
        if dealt_first and attempt >= PLAIN_GUESSES and attempt % 2:
            lead = owed_melds(seen, rng)
        state = sampled(seen, rng, lead or ())  # a try that finds no melds deals at random
        if _hopeless(state):
            continue
        if LegalActions(state):
            return state
    raise InvalidStateError(
        f"none of {GUESSES} guesses at the hidden cards leaves seat {seen.turn} a legal move"
    )


def owed_melds(seen: Seen, rng: random.Random) -> tuple[Card, ...] | None:
    """Hidden cards that, dealt to the player to move beside the cards known to be there,
    make melds that pay what the turn owes, or ``None`` when this try finds none.

    For a debt of one meld, the melds hold a card the turn must meld (the card taken,
    a freed wild) and, for a player who has not opened, reach the bar, leaving a card
    to discard where the turn must end with one. For a promise, they fill the hand but
    that discard (and, for a turn that may end on one card, the card kept), so that the
    turn can go out by melds alone. They are found among a random share of the hidden
    cards, so each call may give others, and they always fit the hand; whether they make
    legal moves is for the engine to judge once they are dealt.
    """
    pending = seen.current.obligation
    if seen.turn == seen.seat or pending not in _OWED:
        return None
    held = seen.held_by_others()
    mine, demoted = held.get(seen.turn, (Counter(), ()))
    known = tuple(mine.elements())
    fixed: Counter[Card] = Counter()
    for cards, _ in held.values():
        fixed.update(cards)  # no other hand's known cards can be dealt to this one
    size = seen.hand_sizes[seen.turn]
    hidden = sorted((seen.unseen() - fixed).elements())
    rng.shuffle(hidden)
    share = counts_of((*known, *hidden[: _SHARE * size]), demoted)
    state = _holding(redacted(seen), seen.turn, share)
    melds = state.finder.melds(state.hands[seen.turn])
    must = obliged_slots(state)
    required = state.required_opening(seen.turn) or 0
    # a card is left to discard where the turn must end with one; a finish by melds alone
    # (a Hand that lays every card) leaves none
    finish = finish_rules(state) if pending in PROMISES else None
    discard = state.ruleset.going_out.final_discard
    if finish is not None:
        discard = finish.final_discard and finish.may_discard
    room = size - discard
    # the cards the melds must cover: a promise leaves only the discard (and the card kept)
    fill = room - (pending is Obligation.ONE_CARD) if pending in PROMISES else 0
    if pending in PROMISES and fill < 3:
        return None  # too few cards for a meld: the plain guesses will do
    done = room - fill  # the room left once the melds cover enough
    left = Counter({slot: count for slot, count in enumerate(state.hands[seen.turn]) if count})
    points = 0
    chosen: list[FoundMeld] = []
    while not chosen or points < required or room > done:
        fits = [m for m in melds if len(m.used) <= room and not Counter(m.used) - left]
        if not chosen and must:
            fits = [m for m in fits if not must.isdisjoint(m.used)]
        if fill:
            # no meld is shorter than three cards: a room of one or two stays unfilled
            fits = [m for m in fits if not done < room - len(m.used) < 3]
        if not fits:
            return None
        if points < required:
            # toward the bar, the melds worth the most for their cards
            fits.sort(key=lambda m: m.points / len(m.used), reverse=True)
            fits = fits[:_CHOICES]
        pick = rng.choice(fits)
        chosen.append(pick)
        left -= Counter(pick.used)
        room -= len(pick.used)
        points += pick.points
    lead = Counter(card for found in chosen for card in found.meld.cards) - mine
    if sum(lead.values()) > size - len(known):
        return None  # the known cards left out of the melds take the room
    # the melds may not take cards that a stock renewed from the pile must hold: a copy
    # taken leaves the renewed cards one fewer only where no other hidden copy is left
    if seen.renewal and (
        (seen.renewed_left() & (seen.unseen() - fixed - lead)).total() < seen.stock_size
    ):
        return None
    return tuple(sorted(lead.elements()))


def _hopeless(state: RoundState) -> bool:
    """Whether a guess leaves a promise that no way keeps: then no move does (a move that
    keeps it starts such a way), and one search says so where the listing would judge
    every move by a search of its own before finding none."""
    return state.current.obligation in PROMISES and promise_way(state) is None


def _holding(state: RoundState, seat: int, hand: tuple[int, ...]) -> RoundState:
    hands = list(state.hands)
    hands[seat] = hand
    return state.replace(hands=tuple(hands))
