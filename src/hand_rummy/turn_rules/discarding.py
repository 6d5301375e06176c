"""Ending a turn with a discard (000 §Playing a turn, 004 §2, 002 §Variants)."""

from __future__ import annotations

import operator
from collections.abc import Iterator
from itertools import compress

from hand_rummy.actions import Discard
from hand_rummy.cards import CARDS
from hand_rummy.rules.opening import OpeningExemption
from hand_rummy.state import DEMOTED, Obligation, RoundState
from hand_rummy.transitions import (
    Discarded,
    Finish,
)
from hand_rummy.turn_rules.gates import (
    going_out_problems,
    hand_slot,
    may_go_out,
    obligation_problems,
    undiscardable,
    wild_discard_barred,
    would_be_hand,
)
from hand_rummy.turn_rules.ruling import Ruling, from_problems, refuse
from hand_rummy.verdict import Code, Topic

__all__ = ["discard_options", "judge_discard"]


def judge_discard(state: RoundState, action: Discard) -> Ruling:
    seat, card = state.turn, action.card
    rules = state.ruleset
    hand = state.hands[seat]
    left = sum(hand) - 1
    pending = state.current.obligation
    if pending is not None and not _keeps(state, pending, left):
        return from_problems(obligation_problems(state))
    slot = hand_slot(hand, card, action.demoted)
    if not hand[slot]:
        if slot >= DEMOTED:
            return refuse(
                rules,
                Code.CARD_NOT_IN_HAND,
                f"you hold no {card} taken from the discard pile",
                Topic.OWN_CARDS,
            )
        return refuse(rules, Code.CARD_NOT_IN_HAND, f"{card} is not in your hand", Topic.OWN_CARDS)
    if card == undiscardable(state):
        return refuse(
            rules,
            Code.REDISCARD_TAKEN_CARD,
            f"{card} was taken from the discard pile this turn and may not go back",
            Topic.NO_REDISCARD,
        )
    going = rules.going_out
    wild = slot < DEMOTED and state.rules.is_wild(card)
    if wild and wild_discard_barred(state, hand, left + 1):
        return refuse(
            rules,
            Code.WILD_DISCARD_FORBIDDEN,
            f"a joker may be discarded only to go out ({card})",
            Topic.WILD_DISCARD,
        )
    if left == 0:
        problems = going_out_problems(state)
        if problems:
            return from_problems(problems)
    due = bool(going.announce_at) and 0 < left <= going.announce_at
    if action.announce and not due:
        return refuse(
            rules,
            Code.ANNOUNCEMENT_NOT_DUE,
            (
                f"nothing is announced with {left} {'card' if left == 1 else 'cards'} left: "
                f"only with {going.announce_at} or fewer"
                if going.announce_at
                else "these rules have no announcements"
            ),
            Topic.ANNOUNCE,
        )
    finish = Finish(would_be_hand(state, final_discard=True)) if left == 0 else None
    return Ruling(
        change=Discarded(
            slot, card, left if action.announce else 0, due and not action.announce, finish
        )
    )


def _keeps(state: RoundState, pending: Obligation, left: int) -> bool:
    """Whether a discard that leaves ``left`` cards keeps the promise ``pending`` (a
    discard meets no other obligation)."""
    if pending is Obligation.GO_OUT:
        # where only a Hand may open below the bar, the finish must still be one: a Hand
        # that must lay every card ends with no discard (002 R6, 003 G4, 004 P6 a)
        hand_only = state.ruleset.opening_exemption is OpeningExemption.HAND
        return left == 0 and (not hand_only or would_be_hand(state, final_discard=True))
    return pending is Obligation.ONE_CARD and left <= 1


def discard_options(state: RoundState) -> Iterator[Discard]:
    """Every legal discard, decided once for the whole hand (the same rules as above)."""
    hand = state.hands[state.turn]
    left = sum(hand) - 1
    pending = state.current.obligation
    if pending is not None and not _keeps(state, pending, left):
        return
    if left == 0 and not may_go_out(state):
        return
    going = state.ruleset.going_out
    barred = undiscardable(state)
    wild_barred = wild_discard_barred(state, hand, left + 1)
    announce = bool(going.announce_at) and 0 < left <= going.announce_at
    is_wild = state.rules.is_wild
    demoted = hand[DEMOTED:]
    # the faces held, in order: the natural copies, and (rarely) demoted ones
    held = compress(range(DEMOTED), map(operator.or_, hand, demoted) if any(demoted) else hand)
    barred_index = -1 if barred is None else barred.index
    for index in held:
        if index == barred_index:
            continue
        if hand[index] and not (wild_barred and is_wild(CARDS[index])):
            yield _DISCARDS[index]
            if announce:
                yield _ANNOUNCED[index]
        if demoted[index]:
            yield _DEMOTED_DISCARDS[index]
            if announce:
                yield _DEMOTED_ANNOUNCED[index]


_DISCARDS = tuple(Discard(card) for card in CARDS)


_ANNOUNCED = tuple(Discard(card, announce=True) for card in CARDS)


_DEMOTED_DISCARDS = tuple(Discard(card, demoted=True) for card in CARDS)


_DEMOTED_ANNOUNCED = tuple(Discard(card, announce=True, demoted=True) for card in CARDS)
