"""Taking a wild from a table meld by putting in the card it stands for (000, 002 §Exchanging)."""

from __future__ import annotations

from collections.abc import Iterator

from hand_rummy.actions import Exchange
from hand_rummy.cards import Card, format_cards
from hand_rummy.errors import number
from hand_rummy.rules.turn import FreedWild
from hand_rummy.state import Obligation, RoundState, TableMeld
from hand_rummy.table import exchange, exchange_supplies
from hand_rummy.transitions import Exchanged, advance
from hand_rummy.turn_rules.gates import (
    PROMISES,
    exchanges_in_finish,
    going_out_still,
    keep_problems,
    keeping_the_promise,
    obligation_problems,
    promise_way,
    taken_pays_for_wilds,
)
from hand_rummy.turn_rules.laying_down import lay_downs
from hand_rummy.turn_rules.laying_off import lay_offs
from hand_rummy.turn_rules.ruling import Ruling, from_problems, refuse
from hand_rummy.verdict import Code, Topic

__all__ = ["exchanges", "judge_exchange", "promised_exchange"]


def judge_exchange(state: RoundState, action: Exchange) -> Ruling:
    seat = state.turn
    rules = state.ruleset
    policy = rules.exchange
    pending = state.current.obligation
    promised = _promise_allows_exchanges(state)
    # the card just taken may pay for the wild, and so be melded (discard_pays_for_joker)
    paid_with_taken = taken_pays_for_wilds(state) and state.current.taken in action.cards
    if not promised and not paid_with_taken:
        problems = obligation_problems(state)
        if problems:
            return from_problems(problems)
    if not policy.allowed:
        return refuse(
            rules,
            Code.EXCHANGE_NOT_ALLOWED,
            "these rules have no wild exchange",
            Topic.EXCHANGE_GATE,
        )
    if policy.needs_opening and not state.opened[seat]:
        return refuse(
            rules, Code.NOT_OPENED, "exchange wild cards only after opening", Topic.EXCHANGE_GATE
        )
    target = state.meld(action.target)
    if target is None:
        message = f"there is no meld {number(action.target)}"
        return refuse(rules, Code.NO_SUCH_MELD, message, Topic.OWN_CARDS)
    left = list(state.hands[seat])
    for card in action.cards:
        # an exchange is paid with ordinary copies: a demoted wild is no natural card
        if left[card.index] == 0:
            return refuse(
                rules,
                Code.CARD_NOT_IN_HAND,
                f"{format_cards(action.cards)} are not all in your hand (no {card})",
                Topic.OWN_CARDS,
            )
        left[card.index] -= 1
    result = exchange(target.meld, action.cards, state.rules)
    if not result.ok or result.wild is None or result.meld is None:
        return from_problems(list(result.verdict.violations))
    freed = policy.freed_wild
    obligation = (
        (pending if promised else None) if freed is FreedWild.KEEP else Obligation.USE_FREED_WILD
    )
    slots = tuple(card.index for card in action.cards)
    change = Exchanged(target.id, slots, result.wild, result.meld, obligation, target.owner != seat)
    left[result.wild.index] += 1
    if freed is FreedWild.KEEP:
        # nothing more is owed, so the hand as it now stands must still end the turn: paying
        # two cards for one wild can leave a lone card whose discard would go out where
        # going out is barred (a missed announcement, 000)
        problems = keep_problems(state, sum(left), left)
        if problems:
            return from_problems(problems)
        ruling = keeping_the_promise(state, action, change) if promised else Ruling(change=change)
        return going_out_still(state, action, ruling, left)
    # a wild that must be used: a cheap look at the melds the hand could make with it, then
    # the question itself: after the exchange, does the turn have a move that uses it? (a
    # meld with the wild may still be refused, as when it leaves only the taken card)
    elif not _may_use(state, target, result.wild, left) or not _uses_freed(
        advance(state, action, change)
    ):
        return refuse(
            rules,
            Code.FREED_WILD_NOT_USED,
            f"the freed {result.wild} must be used at once, and this hand cannot",
            Topic.FREED_WILD,
        )
    return Ruling(change=change)


def _promise_allows_exchanges(state: RoundState) -> bool:
    """Whether the turn is bound by a promise (a below-bar opening's, or one card's on a set
    of two naturals and a wild) under which an exchange may be one of the moves that keep
    it: a promise binds the rest of the turn, not the next move, and 000 lets an opened
    player take wild cards from the table "even in the same turn"
    (:func:`~hand_rummy.turn_rules.gates.exchanges_in_finish` says where)."""
    return state.current.obligation in PROMISES and exchanges_in_finish(state)


def _may_use(state: RoundState, target: TableMeld, wild: Card, left: list[int]) -> bool:
    """A quick necessary condition: some meld of the hand, or a lay-off, could take ``wild``."""
    finder = state.finder
    if finder.melds_using(left, wild.index):
        return True
    return state.ruleset.exchange.freed_wild is FreedWild.USE_NOW and any(
        wild.index in finder.layoff_options(t.meld, t.kind)
        for t in state.table
        if t.id != target.id
    )


def _uses_freed(after: RoundState) -> bool:
    """Whether the turn can go on after an exchange: only moves that use the freed wild are
    legal then, and the lay-down and lay-off rules say which."""
    return any(True for _ in lay_downs(after, in_order=False)) or any(True for _ in lay_offs(after))


def promised_exchange(state: RoundState) -> Exchange | None:
    """Under a promise (to finish the turn, or to end it on one card), an exchange that
    keeps it, if the way found to keep it starts with one: the generator lists it first, as
    it does a promised lay-down."""
    way = promise_way(state)
    if way is None or way.exchange is None:
        return None
    index, cards = way.exchange
    action = Exchange(state.table[index].id, cards)
    return action if judge_exchange(state, action).ok else None


def exchanges(state: RoundState, listed: Exchange | None = None) -> Iterator[Exchange]:
    """Every legal wild exchange: each wild on the table with each supply that could pay,
    but ``listed`` (one listed already, as :func:`promised_exchange`'s is)."""
    seat = state.turn
    policy = state.ruleset.exchange
    if not policy.allowed or (policy.needs_opening and not state.opened[seat]):
        return
    taken = state.current.taken if taken_pays_for_wilds(state) else None
    if (
        state.current.obligation is not None
        and taken is None
        and not _promise_allows_exchanges(state)
    ):
        return
    hand = state.hands[seat]
    for target in state.table:
        for supply in exchange_supplies(target.meld, target.kind, state.rules):
            if taken is not None and taken not in supply:
                continue  # the taken card is owed to a meld: only it may pay
            if all(hand[c.index] >= supply.count(c) for c in supply):
                action = Exchange(target.id, supply)
                if (listed is None or action != listed) and judge_exchange(state, action).ok:
                    yield action
