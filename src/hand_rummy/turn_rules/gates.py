"""The checks that several moves of a turn share: obligations, what must be kept, going out."""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set
from contextlib import contextmanager
from contextvars import ContextVar

import attrs

from hand_rummy.actions import Action
from hand_rummy.cards import CARDS, Card
from hand_rummy.finder import FoundMeld
from hand_rummy.finishing import (
    AnyBut,
    FinishRules,
    Way,
    exchange_finish,
    finish_way,
    stuck_beyond,
)
from hand_rummy.meld_growth import LayOffMemo
from hand_rummy.memo import IdentityMemo
from hand_rummy.rulebook import violation
from hand_rummy.rules.opening import OpeningExemption
from hand_rummy.rules.table_setup import FirstTurn
from hand_rummy.rules.turn import FreedWild
from hand_rummy.state import DEMOTED, Obligation, RoundState, TableMeld
from hand_rummy.table import LayoffContext
from hand_rummy.transitions import (
    Exchanged,
    Finish,
    LaidDown,
    LaidOff,
    advance,
)
from hand_rummy.turn_rules.ruling import Ruling, from_problems, refuse
from hand_rummy.verdict import Code, Topic, Violation, told_more

__all__ = [
    "PROMISES",
    "PROMISE_CHECKS",
    "PromiseChecks",
    "bare_turn",
    "can_end_on_one_card",
    "can_still_finish",
    "discard_restricted",
    "discardable_slot",
    "exchanges_in_finish",
    "finish_of",
    "finish_rules",
    "finishing_by_exchange",
    "finishing_melds",
    "finishing_slots",
    "going_out_problems",
    "going_out_still",
    "hand_slot",
    "keep_problems",
    "keeping_the_promise",
    "lay_off_context",
    "may_claim_redeal",
    "may_go_out",
    "may_promise_one_card",
    "obligation_after",
    "obligation_problems",
    "one_card_melds",
    "one_card_plan",
    "one_card_way",
    "only_going_out",
    "promise_checks_counted",
    "promise_way",
    "taken_pays_for_wilds",
    "undiscardable",
    "wild_discard_barred",
    "would_be_hand",
]


PROMISES = frozenset({Obligation.GO_OUT, Obligation.ONE_CARD})
"""The obligations that bind the rest of the turn rather than the next move: a promise made
by an opening below the bar, or by one card on a set of two naturals and a wild."""


class PromiseChecks:
    """A count of the moves checked against a promise, each a search of the turn after it:
    what makes listing a promised turn's moves costly, so a caller that lists them many
    times (the fills of a position) can bound the work by a count, not by the clock."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


PROMISE_CHECKS: ContextVar[PromiseChecks | None] = ContextVar("promise_checks", default=None)
"""Where :func:`keeping_the_promise` counts its checks, when a caller has set one."""


@contextmanager
def promise_checks_counted() -> Iterator[PromiseChecks]:
    """Count in the :class:`PromiseChecks` given the moves checked against a promise while
    the block runs (in this thread or task only)."""
    checks = PromiseChecks()
    token = PROMISE_CHECKS.set(checks)
    try:
        yield checks
    finally:
        PROMISE_CHECKS.reset(token)


def hand_slot(hand: Sequence[int], card: Card, demoted: bool) -> int:
    """The hand slot that ``card``, named in a lay-down, lay-off or discard, leaves from.

    A copy declared ``demoted`` comes from the demoted slot, any other from the
    ordinary one, except where the hand (as it was before the move) holds no
    ordinary copy of that face but a demoted one: identical cards cannot be told
    apart, so the card named can only be that demoted copy, and it is inferred
    (000 §Exchanging wild cards). The slot may be empty; the caller says why.
    """
    index = card.index
    if demoted or (not hand[index] and hand[DEMOTED + index]):
        return DEMOTED + index
    return index


def bare_turn(state: RoundState) -> bool:
    """The starter's first turn where it is a bare discard (000 §Playing a turn)."""
    return state.current.first_turn_bare and state.ruleset.deal.first_turn is FirstTurn.DISCARD_ONLY


def may_claim_redeal(state: RoundState, seat: int) -> bool:
    """Whether ``seat``'s dealt hand is weak enough to claim a redeal (000 §Setup 4)."""
    policy = state.ruleset.redeal
    if not policy.enabled:
        return False
    hand = state.hands[seat]
    pairs = wilds = 0
    for index in range(53):
        count = hand[index]
        if not count:
            continue
        if state.rules.is_wild(CARDS[index]):
            if policy.wild_pairs_count and count >= 2:
                pairs += count // 2
            else:
                wilds += count
        else:
            pairs += count // 2
    return policy.allows(pairs, wilds)


def _going_out_bar(state: RoundState) -> tuple[Code, str, Topic] | None:
    """What bars the player to move from going out this turn, if anything (000 §Playing a
    turn): the code, the words and the topic of the refusal."""
    seat = state.turn
    going = state.ruleset.going_out
    if going.first_turn_ban and state.turns_played[seat] == 0:
        return (
            Code.GOING_OUT_FIRST_TURN,
            "nobody may go out on their first turn",
            Topic.FIRST_TURN_BAN,
        )
    if state.missed[seat]:
        return (
            Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT,
            "you forgot to announce your last cards, so you may not go out this turn",
            Topic.ANNOUNCE,
        )
    return None


def may_go_out(state: RoundState) -> bool:
    """Whether the player to move may go out this turn (the yes or no of
    :func:`going_out_problems`, without building its refusal)."""
    return _going_out_bar(state) is None


def going_out_problems(state: RoundState) -> list[Violation]:
    """Why the player to move may not go out this turn (000 §Playing a turn)."""
    bar = _going_out_bar(state)
    return [] if bar is None else [violation(state.ruleset, *bar)]


def undiscardable(state: RoundState) -> Card | None:
    """The card taken from the discard pile this turn, where it may not go back (004 §2).

    Two identical cards cannot be told apart, so a player who already held
    a copy of the taken card may discard that face.
    """
    if not state.ruleset.discard_take.no_rediscard or state.current.had_taken:
        return None
    return state.current.taken


def discardable_slot(
    state: RoundState, slot: int, size: int, hand: Sequence[int], *, by_choice: bool = False
) -> bool:
    """Whether the card in hand ``slot`` may end the turn, the hand holding ``size`` cards
    (``hand``; ``by_choice``: as :func:`wild_discard_barred` has it)."""
    card = CARDS[slot % DEMOTED]
    if card == undiscardable(state):
        return False
    wild = slot < DEMOTED and state.rules.is_wild(card)
    return not (wild and wild_discard_barred(state, hand, size, by_choice=by_choice))


def wild_discard_barred(
    state: RoundState, hand: Sequence[int], size: int, *, by_choice: bool = False
) -> bool:
    """Whether a wild card may not be the discard from ``hand`` of ``size`` cards.

    Under 002's tournament jokers a wild card is discarded only to go out. A hand that
    holds nothing but wild cards may still discard one where the turn cannot go out: the
    documents do not say, and otherwise the turn could not end at all; where it can go
    out, it must. With ``by_choice``, ``hand`` is the one a lay-down, lay-off or exchange
    would leave: no wild may be its discard, so such a move must leave a way out
    (:func:`only_going_out`). Otherwise ``hand`` is the hand of the player to move.
    """
    if size <= 1 or not state.ruleset.going_out.wild_discard_only_to_go_out:
        return False
    if by_choice:
        return True
    is_wild = state.rules.is_wild
    natural = any(hand[i] and not is_wild(CARDS[i]) for i in range(DEMOTED))
    if natural or any(hand[DEMOTED:]):  # a demoted wild plays as a natural card
        return True
    # jokers alone make no meld, so a player who has not opened cannot lay them anywhere
    if not may_go_out(state) or state.required_opening(state.turn) is not None:
        return False
    final = state.ruleset.going_out.final_discard
    return can_still_finish(
        state, FinishRules(final_discard=final, exchanges=exchanges_in_finish(state))
    )


def discard_restricted(state: RoundState) -> bool:
    """Whether some card may not end the turn; if none may be barred, any card left will do."""
    return undiscardable(state) is not None or state.ruleset.going_out.wild_discard_only_to_go_out


def keep_problems(
    state: RoundState, size_after: int, left: Sequence[int] | None = None
) -> list[Violation]:
    """A lay-down or lay-off must leave the cards the rest of the turn needs.

    Where every turn ends with a discard, one card stays for it; where the
    player may not go out this turn, one more stays so that the discard
    does not empty the hand. And some card left must be one the rules let
    the player discard (not the card just taken where 004 forbids that).
    """
    final = state.ruleset.going_out.final_discard
    if final and size_after == 0:
        return [
            violation(
                state.ruleset,
                Code.MUST_KEEP_A_CARD,
                "keep one card to discard: every turn ends with a discard",
                Topic.KEEP_DISCARD,
            )
        ]
    if size_after <= (1 if final else 0):
        problems = going_out_problems(state)
        if size_after:
            # the move itself does not go out: say that it is the discard it leaves that would
            problems = told_more(
                problems, before="this leaves one card, and its discard would go out; "
            )
        if problems:
            return problems
    if _nothing_to_discard(state, size_after, left) and (final or not may_go_out(state)):
        return [
            violation(
                state.ruleset,
                Code.MUST_KEEP_A_CARD,
                "keep a card that you may discard to end the turn",
                Topic.DISCARD_RESTRICTION,
            )
        ]
    return []


def _nothing_to_discard(state: RoundState, size_after: int, left: Sequence[int] | None) -> bool:
    """Whether the cards ``left`` (``size_after`` of them, none when ``left`` is ``None``)
    hold no card that the rules let the player discard to end the turn."""
    return (
        left is not None
        and size_after > 0
        and discard_restricted(state)
        and not any(
            left[slot] and discardable_slot(state, slot, size_after, left, by_choice=True)
            for slot in range(len(left))
        )
    )


def only_going_out(state: RoundState, size_after: int, left: Sequence[int] | None) -> bool:
    """Whether a move that leaves the hand ``left`` (``size_after`` cards) leaves no card
    that may be discarded, where the turn may still end without a discard: by laying every
    card left (004, 002: no final discard; RULES-MATRIX X7). :func:`keep_problems` lets
    such a move pass, and it is legal exactly when the turn can still go out after it
    (:func:`going_out_still`): the rules forbid the discard, not the lay-down or lay-off,
    and a player who then goes out has ended the turn as any other."""
    return (
        not state.ruleset.going_out.final_discard
        and _nothing_to_discard(state, size_after, left)
        and may_go_out(state)
    )


def going_out_still(
    state: RoundState, action: Action, ruling: Ruling, left: Sequence[int]
) -> Ruling:
    """``ruling`` on a lay-down, lay-off or exchange that leaves the hand ``left``, with the
    last check such a move needs where it leaves no card to discard (:func:`only_going_out`):
    that the rest of the turn can lay every card left, on the table as it then stands.

    Nothing needs to bind the turn to that way out: no card left may be the discard, so
    the turn ends only by going out, and each later move is judged the same way. The way
    out may start with an exchange (:func:`_rules_to_go_out`).
    """
    change = ruling.change
    if change is None or not only_going_out(state, sum(left), left):
        return ruling
    after = advance(state, action, change)
    if can_still_finish(after, _rules_to_go_out(after)):
        return ruling
    return refuse(
        state.ruleset,
        Code.MUST_KEEP_A_CARD,
        "keep a card that you may discard to end the turn, or lay down or off every card "
        "left this turn: the cards this leaves may not be discarded and cannot all be laid",
        Topic.DISCARD_RESTRICTION,
    )


def _rules_to_go_out(state: RoundState) -> FinishRules:
    """How the player to move, owing nothing and with no card that may be discarded, may
    still go out: by laying every card, after taking wilds from the table where the rules
    let the player exchange now, the freed wild used as the rules say (kept, or used by
    the next move: Rommé, ``freed_joker_may_lay_off``)."""
    policy = state.ruleset.exchange
    if policy.freed_wild is FreedWild.KEEP:
        return FinishRules(final_discard=False, exchanges=exchanges_in_finish(state))
    # a wild that must be used at once is an obligation of its own: none may be pending
    exchanging = (
        policy.allowed
        and (state.opened[state.turn] or not policy.needs_opening)
        and state.current.obligation is None
    )
    return FinishRules(final_discard=False, exchanges=exchanging, freed_wild=policy.freed_wild)


def taken_pays_for_wilds(state: RoundState) -> bool:
    """Whether the player to move, owing the meld of the card just taken, may meet it by
    paying for a wild on the table with that card (the switch ``discard_pays_for_joker``):
    where the rules allow it, and the player may exchange now."""
    rules = state.ruleset
    return (
        state.current.obligation is Obligation.MELD_TAKEN
        and rules.discard_take.may_exchange
        and rules.exchange.allowed
        and (state.opened[state.turn] or not rules.exchange.needs_opening)
        and not state.current.taken_demoted
    )


def obligation_problems(state: RoundState) -> list[Violation]:
    """What the turn still owes before it may end or turn to something else."""
    pending = state.current.obligation
    if pending is None:
        return []
    rules = state.ruleset
    # say every way the turn can pay what it owes: a player told only of one would try no other
    taken_off = rules.discard_take.may_lay_off and state.opened[state.turn]
    taken_pays = taken_pays_for_wilds(state)
    freed_off = rules.exchange.freed_wild is FreedWild.USE_NOW
    message = {
        Obligation.MELD_TAKEN: f"first lay down the taken {state.current.taken}"
        + (" in a new meld or lay it off on a table meld" if taken_off else "")
        + (", or pay for a wild on the table with it" if taken_pays else ""),
        Obligation.OPEN: "first open: you took the discard before opening",
        Obligation.USE_FREED_WILD: f"first use the freed {state.current.freed} in a new meld"
        + (" or lay it off" if freed_off else ""),
        Obligation.GO_OUT: "you opened below the bar, so this turn must get rid of every card"
        + (" in a Hand" if state.ruleset.opening_exemption is OpeningExemption.HAND else ""),
        Obligation.ONE_CARD: "you laid one missing card on a set of two cards and a wild, so "
        "this turn must end with you out or holding one card",
    }[pending]
    code = {
        Obligation.MELD_TAKEN: Code.TAKE_DISCARD_NOT_MELDED,
        Obligation.OPEN: Code.TAKE_DISCARD_NOT_OPENED,
        Obligation.USE_FREED_WILD: Code.FREED_WILD_NOT_USED,
        Obligation.GO_OUT: Code.OPENING_BELOW_THRESHOLD,
        Obligation.ONE_CARD: Code.LAYOFF_TWO_PLUS_WILD,
    }[pending]
    topics = {
        Obligation.MELD_TAKEN: (Topic.TAKE_MELD,),
        Obligation.OPEN: (Topic.TAKE_OPEN, Topic.OPENING_BAR),
        Obligation.USE_FREED_WILD: (Topic.FREED_WILD,),
        Obligation.GO_OUT: (Topic.OPENING_EXEMPTION, Topic.OPENING_BAR),
        Obligation.ONE_CARD: (Topic.TWO_PLUS_WILD,),
    }[pending]
    return [violation(state.ruleset, code, message, *topics)]


def lay_off_context(state: RoundState, size_after: int) -> LayoffContext:
    """What 000's rule for a set of two naturals and a wild asks of a lay-off that leaves
    ``size_after`` cards, as far as the hand tells: the turn goes out, or will end on one
    card, or is bound to by a promise already made (the rest of the turn may still get
    there: :func:`can_end_on_one_card`)."""
    pending = state.current.obligation
    going_out = (
        size_after == 0
        or (size_after == 1 and state.ruleset.going_out.final_discard)
        or pending is Obligation.GO_OUT
    )
    return LayoffContext(
        going_out=going_out,
        one_card_announced=any(a == 1 for a in state.announced),
        announcing_one_card=size_after == 2 or pending is Obligation.ONE_CARD,
    )


def may_promise_one_card(state: RoundState) -> bool:
    """A quick test, before a card goes onto a set of two naturals and a wild, of whether
    the turn could still end out or on one card after it: ``False`` when more than three
    cards of the hand (that card among them, perhaps) could go neither into a new meld nor
    onto the table. A card that cannot now cannot after one card less in hand and one set
    filled, and this hand's melds are the listing's own, so the test costs little.
    """
    key = (id(state),)
    known = _PROMISABLE.get(key)
    if known is None:
        stuck = stuck_beyond(
            state.finder,
            state.hands[state.turn],
            table=state.table,
            seat=state.turn,
            rules=FinishRules(final_discard=True, exchanges=exchanges_in_finish(state)),
            limit=3,
        )
        known = _PROMISABLE.put(key, (state,), not stuck)
    return known


_PROMISABLE: IdentityMemo[bool] = IdentityMemo(limit=1)
"""The last round asked about: a listing asks it of each card that fits such a set."""


def can_end_on_one_card(state: RoundState) -> bool:
    """Whether the player to move can still end this turn out, or holding one card after the
    discard (the promise of :attr:`~hand_rummy.state.Obligation.ONE_CARD`)."""
    return one_card_plan(state) is not None


def one_card_melds(state: RoundState) -> tuple[FoundMeld, ...] | None:
    """The new melds of one way for the player to move to end this turn out or on one card
    (none where the hand holds two cards or fewer, or where the way starts with an
    exchange), or ``None`` when there is no such way."""
    plan = one_card_plan(state)
    return None if plan is None else state.finder.melds_at(state.hands[state.turn], plan)


def one_card_plan(state: RoundState) -> tuple[int, ...] | None:
    """:func:`one_card_melds` as indices into the finder's melds of the hand."""
    way = one_card_way(state)
    return None if way is None else way.melds


def one_card_way(state: RoundState) -> Way | None:
    """One way for the player to move to end this turn out or on one card, or ``None``.

    The hand never grows after the draw, so two cards or fewer will do. Otherwise one search
    places every card but two, one kept and one discarded (whichever they are: a wild taken
    from the table by an exchange may be the one kept), or the whole hand goes out.
    """
    hand = state.hands[state.turn]
    if sum(hand) <= 2:
        return Way((), ())
    exchanging = exchanges_in_finish(state)
    rest = _as_the_turn_stands(state, FinishRules(final_discard=True, exchanges=exchanging))
    if stuck_beyond(state.finder, hand, table=state.table, seat=state.turn, rules=rest, limit=2):
        return None  # more cards than the kept one and the discard can go nowhere

    def discardable(card: int, kept: int) -> bool:
        # the discard is made from a hand of two cards, the one kept and the one discarded
        at_discard = [0] * len(hand)
        at_discard[kept] += 1
        at_discard[card] += 1
        return discardable_slot(state, card, 2, at_discard)

    # ending on one card first: most hands that can go out can also keep a card back, and
    # a search that fails must look everywhere
    way = finish_way(
        state.finder,
        hand,
        table=state.table,
        seat=state.turn,
        rules=attrs.evolve(rest, keep=True),
        discardable=discardable,
    )
    if way is not None or not may_go_out(state):
        return way
    final = state.ruleset.going_out.final_discard
    return _finish_way(state, FinishRules(final_discard=final, exchanges=exchanging))


def promise_way(state: RoundState) -> Way | None:
    """Under a promise (to finish the turn, or to end it on one card), one way the player
    to move can still keep it; ``None`` without a promise or a way. The generator lists
    the first move of this way first, and asks twice (a lay-down, then a lay-off): the last
    round asked about is remembered."""
    if state.current.obligation not in PROMISES:
        return None  # most turns: nothing to remember
    key = (id(state),)
    known = _PROMISE_WAYS.get(key)
    if known is None:
        known = _PROMISE_WAYS.put(key, (state,), (_promise_way(state),))
    return known[0]


_PROMISE_WAYS: IdentityMemo[tuple[Way | None]] = IdentityMemo(limit=1)


def _promise_way(state: RoundState) -> Way | None:
    pending = state.current.obligation
    if pending is Obligation.ONE_CARD:
        return one_card_way(state)
    if pending is not Obligation.GO_OUT or state.required_opening(state.turn) is not None:
        return None
    rules = finish_rules(state)
    return None if rules is None else _finish_way(state, rules)


def would_be_hand(state: RoundState, *, final_discard: bool, on_others: bool = False) -> bool:
    """Whether going out now makes a Hand (000 §End of a round, 002 §Scoring, 003, 004 §6)."""
    seat = state.turn
    hand = state.ruleset.hand
    if state.melded[seat]:
        return False
    # an exchange adds a card of the hand to the meld it pays, as a lay-off does
    current = state.current
    if hand.no_layoffs and (current.laid_off_on_others or current.exchanged_on_others or on_others):
        return False
    if hand.first_to_meld and any(m.owner != seat for m in state.table):
        return False
    return not (hand.all_melded and final_discard)


def finish_rules(state: RoundState) -> FinishRules | None:
    """How a below-bar opening must finish the turn, or ``None`` if no such opening is allowed."""
    exemption = state.ruleset.opening_exemption
    if exemption is OpeningExemption.NONE or not may_go_out(state):
        return None
    final = state.ruleset.going_out.final_discard
    if exemption is OpeningExemption.GOING_OUT:
        return FinishRules(final_discard=final, exchanges=exchanges_in_finish(state))
    hand = state.ruleset.hand
    # only a Hand is exempt: the conditions of a Hand that hold already must hold now
    if not would_be_hand(state, final_discard=final):
        return None
    return FinishRules(
        final_discard=final,
        may_discard=not hand.all_melded,
        on_others=not hand.no_layoffs,
        exchanges=exchanges_in_finish(state),
    )


def _as_the_turn_stands(state: RoundState, rules: FinishRules) -> FinishRules:
    """``rules`` for the rest of this turn: where new melds come before lay-offs (003 §Turn
    Flow), a turn that has laid off lays no new meld, so its way out may hold none."""
    if rules.new_melds and state.ruleset.layoff.melds_first and state.current.laid_off:
        return attrs.evolve(rules, new_melds=False)
    return rules


def exchanges_in_finish(state: RoundState) -> bool:
    """Whether a turn bound to finish may take wild cards from the table on its way: where
    the rules have exchanges and the freed wild may stay in the hand (000). Where it must
    be used at once, that duty would stand beside the promise, and a turn records one
    obligation only, so there the promise comes first and no exchange is part of a way."""
    policy = state.ruleset.exchange
    return policy.allowed and policy.freed_wild is FreedWild.KEEP


def can_still_finish(state: RoundState, rules: FinishRules) -> bool:
    """Whether the player to move can still get rid of every card this turn."""
    return _finish_way(state, rules) is not None


def finishing_melds(
    state: RoundState, rules: FinishRules, melding: Set[int] = frozenset()
) -> tuple[FoundMeld, ...] | None:
    """The new melds of one way for the player to move to finish this turn, or ``None``.

    Every card the melds leave goes out by lay-offs on the table and the
    final discard; with ``melding``, one card of those hand slots is in a
    new meld. Before an opening below the bar, ``None`` says that no such
    opening can finish (whatever it lays, the whole turn is one of these
    ways, its melds grown by the lay-offs onto them).
    """
    way = _finish_way(state, rules, melding)
    return None if way is None else state.finder.melds_at(state.hands[state.turn], way.melds)


def finishing_by_exchange(
    state: RoundState,
    rules: FinishRules,
    hand: Sequence[int],
    table: tuple[TableMeld, ...],
    memo: LayOffMemo | None = None,
) -> bool:
    """Whether the player to move, holding ``hand`` with ``table`` on the table, can finish
    by a way that takes a wild from one of its melds (for a caller that knows no other
    way is left: :func:`~hand_rummy.finishing.exchange_finish`)."""
    return exchange_finish(
        state.finder,
        hand,
        table=table,
        seat=state.turn,
        rules=_as_the_turn_stands(state, rules),
        discardable=AnyBut(undiscardable(state)),
        memo=memo,
    )


def finishing_slots(
    state: RoundState,
    rules: FinishRules,
    hand: Sequence[int] | None = None,
    table: tuple[TableMeld, ...] | None = None,
    memo: LayOffMemo | None = None,
) -> tuple[tuple[int, ...], ...] | None:
    """The hand slots of each new meld of one way to finish (as :func:`finishing_melds`,
    without building the melds), or ``None``.

    With ``hand`` (and ``table``), the player to move holds ``hand`` instead (and the
    table is ``table``): before a lay-down, what it leaves (and the table after it).
    Nothing else the search reads changes with a lay-down (which card may be the
    discard depends on the card taken this turn), so this is the answer for the round
    after the lay-down, without that round being built. With ``hand`` alone it is an
    answer for every opening that leaves ``hand``, whatever melds it lays: those only
    add places to lay off on. ``memo`` keeps what the search learns about lay-offs for
    the caller's next searches.
    """
    held = state.hands[state.turn] if hand is None else hand
    way = _finish_way(state, rules, hand=held, table=table, memo=memo)
    if way is None:
        return None
    slots = state.finder.meld_slots(held)
    return tuple(slots[index] for index in way.melds)


def _finish_way(
    state: RoundState,
    rules: FinishRules,
    melding: Set[int] = frozenset(),
    *,
    hand: Sequence[int] | None = None,
    table: tuple[TableMeld, ...] | None = None,
    memo: LayOffMemo | None = None,
) -> Way | None:
    seat = state.turn
    held = state.hands[seat] if hand is None else hand
    rules = _as_the_turn_stands(state, rules)
    return finish_way(
        state.finder,
        held,
        table=state.table if table is None else table,
        seat=seat,
        rules=rules,
        discardable=AnyBut(undiscardable(state)),
        melding=melding,
        memo=memo,
        # under a promise each move listed is judged by this search, and judged again
        # when applied
        remember=state.current.obligation in PROMISES,
    )


def obligation_after(state: RoundState, size_after: int) -> Obligation | None:
    """A lay-down meets what taking the discard or a wild obliged; a promise stays."""
    pending = state.current.obligation
    return pending if pending in PROMISES and size_after > 0 else None


def finish_of(state: RoundState, size_after: int, *, on_others: bool = False) -> Finish | None:
    if size_after:
        return None
    return Finish(would_be_hand(state, final_discard=False, on_others=on_others))


def keeping_the_promise(
    state: RoundState, action: Action, change: LaidDown | LaidOff | Exchanged
) -> Ruling:
    """Under a promise, a move is legal only if the turn can still keep it: after a
    below-bar opening, finish; after a single card on a set of two naturals and a wild,
    end out or on one card."""
    pending = state.current.obligation
    finished = not isinstance(change, Exchanged) and change.finish is not None
    if pending not in PROMISES:
        return Ruling(change=change)
    checks = PROMISE_CHECKS.get()
    if checks is not None:
        checks.count += 1
    if finished:  # an exchange never empties the hand
        return Ruling(change=change)
    after = advance(state, action, change)
    if pending is Obligation.ONE_CARD:
        kept = can_end_on_one_card(after)
    else:
        rules = finish_rules(state)
        # a finish that may add to no other player's meld (a Hand's) may take no wild from one
        spoilt = isinstance(change, Exchanged) and change.on_others
        kept = (
            rules is not None
            and not (spoilt and not rules.on_others)
            and can_still_finish(after, rules)
        )
    return Ruling(change=change) if kept else from_problems(obligation_problems(state))
