"""Drawing: the stock, or the top discard and what taking it obliges (000, 004 §5)."""

from __future__ import annotations

from hand_rummy.actions import TakeDiscard
from hand_rummy.cards import Card
from hand_rummy.memo import IdentityMemo
from hand_rummy.rules.opening import OpeningExemption
from hand_rummy.state import DEMOTED, Obligation, RoundState
from hand_rummy.transitions import (
    Taken,
    advance,
)
from hand_rummy.turn_rules.discarding import discard_options
from hand_rummy.turn_rules.exchanging import exchanges
from hand_rummy.turn_rules.gates import discard_restricted, taken_pays_for_wilds
from hand_rummy.turn_rules.laying_down import lay_downs
from hand_rummy.turn_rules.laying_off import lay_offs
from hand_rummy.turn_rules.ruling import Ruling, refuse
from hand_rummy.verdict import Code, Topic, Violation
from hand_rummy.work import charge_once, counting

__all__ = ["judge_take", "may_take", "take_problems"]


def take_problems(state: RoundState) -> list[Violation]:
    """Why the top discard may not be taken now (the draw phase is assumed)."""
    return list(judge_take(state).problems)


def may_take(state: RoundState) -> bool:
    """Whether the top discard may be taken now: the judgement of :func:`judge_take`,
    without the wording of a refusal (the legal-action generator asks this)."""
    return bool(state.discards) and _taking(state) is not None


_LAST: IdentityMemo[tuple[Taken | None]] = IdentityMemo(limit=1)
"""The last round asked about and its answer (in a 1-tuple, as the answer may be ``None``):
the listing asks, and then applying the take asks again of the same round."""


def _taking(state: RoundState) -> Taken | None:
    """What taking the top discard does, or ``None`` when the turn could not then meet
    what the take obliges (the discard pile is not empty)."""
    key = (id(state),)
    known = _LAST.get(key)
    if known is None:
        known = _LAST.put(key, (state,), (_judge_taking(state),))
    return known[0]


def _obligation(state: RoundState) -> Obligation | None:
    """What taking the top discard obliges the player to do this turn."""
    policy = state.ruleset.discard_take
    if policy.must_meld:
        return Obligation.MELD_TAKEN
    if policy.must_open and not state.opened[state.turn]:
        return Obligation.OPEN
    return None


def _judge_taking(state: RoundState) -> Taken | None:
    card = state.discards[-1]
    obligation = _obligation(state)
    change = Taken(card, state.ruleset.demotion.demotes(card, state.rules.wilds), obligation)
    if counting():
        # the take is judged by the melds of the hand with the card, which cost about a
        # step each to find and search (and may be found for an earlier question already)
        hand = list(state.hands[state.turn])
        hand[card.index + (DEMOTED if change.demoted else 0)] += 1
        charge_once((state.finder, tuple(hand)), 1 + len(state.finder.meld_slots(hand)))
    if obligation is None:
        return change if _turn_can_end(state, change) else None
    # the take is legal when the turn can go on to meet what it obliges: after a cheap
    # look at the melds the hand could make with the card, try it
    if _take_is_possible(state, change):
        after = advance(state, TakeDiscard(), change)
        # only whether there is a move: the search's own order is the cheapest way to one
        if any(True for _ in lay_downs(after, in_order=False)):
            return change
        if any(True for _ in lay_offs(after)):
            return change
        if taken_pays_for_wilds(after) and any(True for _ in exchanges(after)):
            return change
    return None


def _turn_can_end(state: RoundState, change: Taken) -> bool:
    """Whether the turn can still end after a take that obliges nothing.

    Where some cards may not be the discard (the taken card under 004 §2, a joker under
    002's tournament jokers), a hand could hold nothing it may discard after the take:
    a lone joker and the taken card, say. Every lay-down, lay-off and exchange keeps a
    card that may be discarded, or leaves a hand that can still go out, so the turn can end
    exactly when the round after the take has some legal move.
    """
    after = advance(state, TakeDiscard(), change)
    return not discard_restricted(after) or any(
        True
        for options in (discard_options, lay_offs, lay_downs, exchanges)
        for _ in options(after)
    )


def judge_take(state: RoundState) -> Ruling:
    rules = state.ruleset
    if not state.discards:
        return refuse(rules, Code.DISCARD_PILE_EMPTY, "the discard pile is empty", Topic.TAKE)
    change = _taking(state)
    if change is not None:
        return Ruling(change=change)
    card = state.discards[-1]
    seat = state.turn
    opened = state.opened[seat]
    obligation = _obligation(state)
    if obligation is None:
        return refuse(
            rules,
            Code.MUST_KEEP_A_CARD,
            f"after taking {card} no card in your hand could be discarded and no move "
            "could change that, so the turn could not end",
            Topic.DISCARD_RESTRICTION,
        )
    if obligation is Obligation.MELD_TAKEN:
        return refuse(
            rules,
            Code.TAKE_DISCARD_NOT_MELDED,
            f"{card} can be taken only to lay it down at once"
            + ("" if opened else ", in an opening that reaches the bar")
            + (" or to pay for a wild with it" if rules.discard_take.may_exchange else "")
            + "; this hand cannot",
            *((Topic.TAKE_MELD,) if opened else (Topic.TAKE_MELD, Topic.OPENING_BAR)),
        )
    return refuse(
        rules,
        Code.TAKE_DISCARD_NOT_OPENED,
        _why_no_opening(state, card),
        Topic.TAKE_OPEN,
        Topic.OPENING_BAR,
    )


def _why_no_opening(state: RoundState, card: Card) -> str:
    """Why a take that obliges an opening is refused: the hand cannot reach the bar at all,
    or it can, but not with the taken card in it (matrix P4 a, alternative), or not in a way
    that lets the turn end (the opening would leave only cards that may not be discarded)."""
    seat = state.turn
    required = state.required_opening(seat)
    taking = f"taking {card} obliges you to open this turn"
    hand = list(state.hands[seat])
    demoted = state.ruleset.demotion.demotes(card, state.rules.wilds)
    hand[card.index + (DEMOTED if demoted else 0)] += 1
    if required is None or state.finder.best_opening_value(hand) < required:
        return f"{taking}, and this hand cannot reach {required}"
    if state.ruleset.discard_take.in_opening:
        return (
            f"{taking} with a meld that uses it, and no opening with {card} reaches {required} "
            "and still lets the turn end"
        )
    return (
        f"{taking}; this hand reaches {required}, but every such opening leaves no card you "
        "may discard and no way out, so the turn could not end"
    )


def _take_is_possible(state: RoundState, change: Taken) -> bool:
    """A quick necessary condition for a take whose card must be melded (or opened with)."""
    seat = state.turn
    policy = state.ruleset.discard_take
    opened = state.opened[seat]
    exchange = state.ruleset.exchange
    may_exchange = (
        policy.may_exchange and exchange.allowed and (opened or not exchange.needs_opening)
    )
    if policy.must_meld and state.table and ((policy.may_lay_off and opened) or may_exchange):
        return True  # a lay-off or an exchange may meet it: the searches below would not see
    finder = state.finder
    slot = change.card.index + (DEMOTED if change.demoted else 0)
    hand = list(state.hands[seat])
    hand[slot] += 1
    if policy.must_meld:
        least = policy.hand_cards + 1
        if not any(len(used) >= least for used in finder.melds_using(hand, slot)):
            return False
    required = state.required_opening(seat)
    if required is not None and state.ruleset.opening_exemption is OpeningExemption.NONE:
        return finder.opening_bound(hand) >= required and finder.best_opening_value(hand) >= (
            required
        )
    return True
