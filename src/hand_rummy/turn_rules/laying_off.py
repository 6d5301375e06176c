"""Laying a card off on a table meld (000 §The first meld, 002 §The first meld, 003 §Turn Flow)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from hand_rummy.actions import LayOff
from hand_rummy.cards import CARDS, Card, Rank, Suit
from hand_rummy.errors import number
from hand_rummy.meld_growth import first_lay_off
from hand_rummy.rulebook import violation
from hand_rummy.rules.turn import FreedWild
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import DEMOTED, Obligation, RoundState, TableMeld
from hand_rummy.table import LayoffContext, LayoffResult, exchange, lay_off
from hand_rummy.transitions import LaidOff, advance
from hand_rummy.turn_rules.gates import (
    PROMISES,
    can_end_on_one_card,
    finish_of,
    finish_rules,
    going_out_still,
    hand_slot,
    keep_problems,
    keeping_the_promise,
    lay_off_context,
    may_promise_one_card,
    obligation_problems,
    only_going_out,
    promise_way,
)
from hand_rummy.turn_rules.ruling import Ruling, from_problems
from hand_rummy.verdict import Code, Topic, Violation, told_more

__all__ = ["judge_lay_off", "lay_offs", "promised_lay_off"]


def _lay_off_gate(state: RoundState, action: LayOff) -> tuple[list[Violation], TableMeld | None]:
    """Everything about a lay-off but the meld itself: turn, opening, the card, what is kept."""
    seat = state.turn
    ruleset = state.ruleset
    current = state.current
    pending = current.obligation
    hand = state.hands[seat]
    slot = hand_slot(hand, action.card, action.demoted)
    demoted = slot >= DEMOTED
    if pending is not None and pending not in PROMISES:
        taken_ok = (
            pending is Obligation.MELD_TAKEN
            and action.card == current.taken
            and demoted == current.taken_demoted
            and state.ruleset.discard_take.may_lay_off
        )
        freed_ok = (
            pending is Obligation.USE_FREED_WILD
            and action.card == current.freed
            and not demoted
            and state.ruleset.exchange.freed_wild is FreedWild.USE_NOW
        )
        if not (taken_ok or freed_ok):
            return obligation_problems(state), None
    if state.ruleset.layoff.needs_opening and not state.opened[seat]:
        message = "lay off only after opening"
        return [violation(ruleset, Code.NOT_OPENED, message, Topic.LAYOFF_GATE)], None
    target = state.meld(action.target)
    if target is None:
        message = f"there is no meld {number(action.target)}"
        return [violation(ruleset, Code.NO_SUCH_MELD, message, Topic.OWN_CARDS)], None
    if not hand[slot]:
        message = (
            f"you hold no {action.card} taken from the discard pile"
            if demoted
            else f"{action.card} is not in your hand"
        )
        return [violation(ruleset, Code.CARD_NOT_IN_HAND, message, Topic.OWN_CARDS)], None
    wild = state.rules.is_wild(action.card) and not demoted
    if action.role is not None and not wild and not (demoted and action.card.is_joker):
        message = f"{action.card} is not wild, so it stands for nothing but itself"
        return [violation(ruleset, Code.NATURAL_CARD_GIVEN_ROLE, message, Topic.WILD_ROLE)], None
    if wild and (action.role is None) != (target.kind is MeldKind.SET):
        # one spelling per move: a wild on a run says what it stands for; on a set it
        # stands for "another card of the rank", whose suit stays free
        message = (
            f"say which card the wild {action.card} stands for at the end of meld {target.id}"
            + _roles_offered(state, target, slot)
            if action.role is None
            else f"a wild laid off on a set takes no role; meld {target.id} is a set: lay the "
            f"{action.card} off without one, and it stands for a suit the set lacks"
        )
        return [violation(ruleset, Code.WILD_ROLE_INVALID, message, Topic.WILD_ROLE)], None
    if state.current.obligation is Obligation.GO_OUT and target.owner != seat:
        rules = finish_rules(state)
        if rules is None or not rules.on_others:
            message = "a Hand adds to no other player's meld, and this turn must end in a Hand"
            topics = (Topic.OPENING_EXEMPTION, Topic.HAND)
            return [violation(ruleset, Code.OPENING_BELOW_THRESHOLD, message, *topics)], None
    return [], target


def _roles_offered(state: RoundState, target: TableMeld, slot: int) -> str:
    """The cards a wild in hand ``slot`` could stand for on the run ``target``, as words."""
    options = state.finder.layoff_options(target.meld, target.kind).get(slot, ())
    roles = sorted({role for role, _ in options if role is not None}, key=lambda c: c.index)
    if not roles:
        return ""
    return " (role=" + " or role=".join(repr(role.ascii) for role in roles) + ")"


def judge_lay_off(state: RoundState, action: LayOff) -> Ruling:
    problems, target = _lay_off_gate(state, action)
    if problems or target is None:
        return from_problems(problems)
    slot = hand_slot(state.hands[state.turn], action.card, action.demoted)
    left = list(state.hands[state.turn])
    left[slot] -= 1
    size_after = sum(left)
    problems = keep_problems(state, size_after, left)
    if problems:
        return from_problems(problems)
    context = lay_off_context(state, size_after)

    def laid(context: LayoffContext) -> LayoffResult:
        return lay_off(
            target.meld,
            [action.card],
            state.rules,
            roles={0: action.role} if action.role is not None else None,
            demoted=(0,) if slot >= DEMOTED else (),
            context=context,
        )

    result = laid(context)
    refused = result
    # 000: one missing card on a set of two naturals and a wild, "only if you go out this
    # turn" or end it on one card: the rest of the turn may still get there, and must
    promised = result.verdict.codes == (Code.LAYOFF_TWO_PLUS_WILD,)
    if promised and may_promise_one_card(state):
        result = laid(attrs.evolve(context, announcing_one_card=True))
    if result.meld is None:
        return from_problems(_with_exchange_hint(state, action, target, refused.verdict.violations))
    on_others = target.owner != state.turn
    pending = state.current.obligation
    obligation = pending if pending in PROMISES else None
    if promised:
        obligation = Obligation.ONE_CARD
    if size_after == 0:
        obligation = None
    change = LaidOff(
        target.id,
        slot,
        result.meld,
        on_others,
        obligation,
        finish_of(state, size_after, on_others=on_others),
    )
    if promised:
        if not can_end_on_one_card(advance(state, action, change)):
            return from_problems(list(refused.verdict.violations))
        ruling = Ruling(change=change)
    else:
        ruling = keeping_the_promise(state, action, change)
    return going_out_still(state, action, ruling, left)


def _with_exchange_hint(
    state: RoundState, action: LayOff, target: TableMeld, problems: tuple[Violation, ...]
) -> list[Violation]:
    """``problems``, the first telling a player who lays a natural card where a wild of the
    meld stands for it that an exchange is the move that puts it there: only where that
    card alone would pay for the wild (not in 000's set of two naturals and a wild, which
    takes both missing cards, nor under rules with no exchange, 003 G7) and the player may
    exchange now."""
    if not problems or action.role is not None:
        return list(problems)
    meld = target.meld
    plays = state.rules.wilds.natural_as(action.card)
    standing = any(
        role == plays and index not in meld.demoted for index, role in enumerate(meld.roles)
    )
    if not standing:
        return list(problems)
    policy = state.ruleset.exchange
    if policy.needs_opening and not state.opened[state.turn]:
        return list(problems)
    if not exchange(meld, (action.card,), state.rules).ok:
        return list(problems)
    hint = (
        f"; a wild of meld {target.id} stands for {action.card}: only an exchange of that "
        "wild puts it there"
    )
    return told_more(problems, after=hint)


def promised_lay_off(state: RoundState) -> LayOff | None:
    """Under a promise (to finish the turn, or to end it on one card), a lay-off that keeps
    it, if the way found to keep it lays no new meld and starts with lay-offs: the generator
    lists it first, as it does a promised lay-down."""
    way = promise_way(state)
    if way is None or way.melds or not way.lay_offs:
        return None
    index, slots = way.lay_offs[0]
    target = state.table[index]
    first = first_lay_off(state.finder, target.meld, target.kind, slots)
    if first is None:
        return None
    slot, role = first
    action = LayOff(target.id, CARDS[slot], role)
    return action if judge_lay_off(state, action).ok else None


def lay_offs(state: RoundState, listed: LayOff | None = None) -> Iterator[LayOff]:
    """Every legal lay-off, from the finder's table of each meld's ends, but ``listed`` (one
    listed already, as :func:`promised_lay_off`'s is)."""
    seat = state.turn
    if state.ruleset.layoff.needs_opening and not state.opened[seat]:
        return
    if not state.table:
        return
    finder = state.finder
    hand = state.hands[seat]
    gate: dict[int, bool | None] = {}
    careful = state.current.obligation in PROMISES
    demoted = [index for index in range(53) if hand[DEMOTED + index]]
    for target in state.table:
        options = finder.layoff_options(target.meld, target.kind)
        # the order of the faces, not of the table, so that the listing is the same however
        # the finder built its table
        for index in sorted(i for i in options if hand[i]):
            card = CARDS[index]
            for role, contextual in options[index]:
                action = LayOff(target.id, card, role)
                if listed is not None and action == listed:
                    continue
                if contextual or careful:
                    if judge_lay_off(state, action).ok:
                        yield action
                    continue
                if index not in gate:
                    gate[index] = _lay_off_opens(state, action)
                open_gate = gate[index]
                if open_gate or (open_gate is None and judge_lay_off(state, action).ok):
                    yield action
        for index in demoted:
            yield from _demoted_lay_offs(state, target, CARDS[index])


def _lay_off_opens(state: RoundState, action: LayOff) -> bool | None:
    """The gate and the keep rules for ``action``, which the finder says fits its meld, for
    every meld the card fits: ``None`` where the card leaves none that may be discarded, so
    that each lay-off of it needs the judge's look at the rest of the turn."""
    problems, _ = _lay_off_gate(state, action)
    if problems:
        return False
    left = list(state.hands[state.turn])
    left[action.card.index] -= 1
    if keep_problems(state, sum(left), left):
        return False
    return None if only_going_out(state, sum(left), left) else True


def _demoted_lay_offs(state: RoundState, target: TableMeld, card: Card) -> Iterator[LayOff]:
    roles: list[Card | None] = [None]
    if card.is_joker and target.kind is MeldKind.RUN:
        roles = [Card(Rank.ACE, suit) for suit in Suit]
    for role in roles:
        action = LayOff(target.id, card, role, demoted=True)
        if judge_lay_off(state, action).ok:
            yield action
