"""The rules of a turn: each check named for its rule and citing it, and what a legal action does.

:func:`judge` answers one action with a :class:`Ruling`: the violations, and
for a legal action the :mod:`~hand_rummy.transitions` record that applying it
uses, so nothing is judged twice. The legal-action generator
(:mod:`hand_rummy.legal`) is built from the same functions: the gates
(:func:`bare_turn`, :func:`going_out_problems`, :func:`keep_problems`, ...)
and the option lists (:func:`lay_downs`, :func:`lay_offs`, :func:`exchanges`).

Every rule comes from the ruleset's policies; no function here asks which
preset it is playing.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

import attrs

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
from hand_rummy.cards import CARDS, Card, Rank, Suit, format_cards
from hand_rummy.errors import InvalidStateError
from hand_rummy.finder import FoundMeld
from hand_rummy.finishing import FinishRules, can_finish
from hand_rummy.melds import Meld, judge_meld
from hand_rummy.opening import judge_opening
from hand_rummy.rules.opening import OpeningExemption, OpeningRecord
from hand_rummy.rules.table_setup import FirstTurn
from hand_rummy.rules.turn import FreedWild
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import DEMOTED, Obligation, Phase, RoundState, TableMeld
from hand_rummy.table import LayoffContext, exchange, lay_off
from hand_rummy.transitions import (
    Discarded,
    Drawn,
    Exchanged,
    Finish,
    LaidDown,
    LaidOff,
    Redealt,
    Taken,
    Transition,
    advance,
)
from hand_rummy.verdict import Code, Verdict, Violation

__all__ = [
    "Ruling",
    "bare_turn",
    "discard_options",
    "exchanges",
    "going_out_problems",
    "judge",
    "keep_problems",
    "lay_downs",
    "lay_offs",
    "may_claim_redeal",
    "take_problems",
]

_RULE_TURN = (
    "a turn: draw, meld, discard (000 §Playing a turn, 002 §Playing a turn, 003 §Turn Flow)"
)
_RULE_LAYOFF_GATE = (
    "no adding to melds before your first meld (000 §The first meld, 002 §The first meld, 004 §4)"
)
_RULE_EXCHANGE_GATE = "exchanging wild cards (000 §Exchanging wild cards, 002 §Exchanging a joker)"
_RULE_OBLIGATIONS = (
    "what taking the discard or a wild obliges (000 §Playing a turn, 002 §Exchanging a joker, "
    "004 §5)"
)
_RULE_DEMOTION = "discarded wild cards (000 §Exchanging wild cards)"
_RULE_EXEMPTION = (
    "going out below the bar in one turn (000 §The first meld, Exception; 001 §Ende einer "
    "Runde; RULES-MATRIX L11)"
)


@attrs.frozen
class Ruling:
    """The answer to one action: why it is illegal, or what applying it does."""

    problems: tuple[Violation, ...] = ()
    change: Transition | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def verdict(self) -> Verdict:
        return Verdict.of(*self.problems)


def _no(code: Code, message: str, rule: str) -> Ruling:
    return Ruling((Violation(code, message, rule),))


def _problems(ruling: Ruling | list[Violation]) -> Ruling:
    return ruling if isinstance(ruling, Ruling) else Ruling(tuple(ruling))


# --- the whole turn --------------------------------------------------------------------------


def judge(state: RoundState, action: Action) -> Ruling:
    """Whether ``action`` is legal now, every reason if not, and what it does if so."""
    if state.phase is Phase.OVER:
        return _no(Code.ROUND_OVER, "the round is over", "end of a round")
    if state.phase is Phase.REDEAL:
        if isinstance(action, (ClaimRedeal, PassRedeal)):
            return Ruling(change=Redealt(isinstance(action, ClaimRedeal)))
        return _no(
            Code.WRONG_PHASE,
            f"seat {state.turn} must first claim a redeal or keep the deal",
            "redeal (000 §Setup 4)",
        )
    if isinstance(action, (ClaimRedeal, PassRedeal)):
        return _no(
            Code.REDEAL_NOT_ALLOWED,
            "a redeal may be claimed only before play, with a weak deal",
            "redeal (000 §Setup 4)",
        )
    if state.phase is Phase.DRAW:
        if isinstance(action, DrawStock):
            if not state.stock:
                return _no(Code.STOCK_EMPTY, "the stock is empty", "stock")
            return Ruling(change=Drawn())
        if isinstance(action, TakeDiscard):
            return _judge_take(state)
        return _no(
            Code.WRONG_PHASE,
            f"{action} comes after drawing: draw from the stock or take the discard first",
            _RULE_TURN,
        )
    if isinstance(action, (DrawStock, TakeDiscard)):
        message = (
            "the starter holds the extra card and does not draw on the first turn"
            if state.current.first_turn_bare
            else "this turn's card has been drawn already"
        )
        return _no(Code.WRONG_PHASE, message, _RULE_TURN)
    if bare_turn(state) and not isinstance(action, Discard):
        return _no(
            Code.WRONG_PHASE,
            "the starter's first turn is a bare discard",
            "the first turn (000 §Playing a turn)",
        )
    if isinstance(action, Discard):
        return _judge_discard(state, action)
    if isinstance(action, LayDown):
        return _judge_lay_down(state, action)
    if isinstance(action, LayOff):
        return _judge_lay_off(state, action)
    if isinstance(action, Exchange):
        return _judge_exchange(state, action)
    raise InvalidStateError(f"not an action: {action!r}")


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


# --- shared gates ------------------------------------------------------------------------


def going_out_problems(state: RoundState) -> list[Violation]:
    """Why the player to move may not go out this turn (000 §Playing a turn)."""
    seat = state.turn
    going = state.ruleset.going_out
    if going.first_turn_ban and state.turns_played[seat] == 0:
        return [
            Violation(
                Code.GOING_OUT_FIRST_TURN,
                "nobody may go out on their first turn",
                "not on your first turn (000 §Playing a turn)",
            )
        ]
    if state.missed[seat]:
        return [
            Violation(
                Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT,
                "you forgot to announce your last cards, so you may not go out this turn",
                "announcements (000 §Playing a turn)",
            )
        ]
    return []


def undiscardable(state: RoundState) -> Card | None:
    """The card taken from the discard pile this turn, where it may not go back (004 §2).

    Two identical cards cannot be told apart, so a player who already held
    a copy of the taken card may discard that face.
    """
    if not state.ruleset.discard_take.no_rediscard or state.current.had_taken:
        return None
    return state.current.taken


def _discardable_slot(state: RoundState, slot: int, size: int) -> bool:
    """Whether the card in hand ``slot`` may end the turn, the hand holding ``size`` cards."""
    card = CARDS[slot % DEMOTED]
    if card == undiscardable(state):
        return False
    wild = slot < DEMOTED and state.rules.is_wild(card)
    return not (wild and size > 1 and state.ruleset.going_out.wild_discard_only_to_go_out)


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
            Violation(
                Code.MUST_KEEP_A_CARD,
                "keep one card to discard: every turn ends with a discard",
                "always discard (000 §Playing a turn)",
            )
        ]
    if size_after <= (1 if final else 0):
        problems = going_out_problems(state)
        if problems:
            return problems
    if (
        left is not None
        and size_after > 0
        and not any(
            left[slot] and _discardable_slot(state, slot, size_after) for slot in range(len(left))
        )
    ):
        return [
            Violation(
                Code.MUST_KEEP_A_CARD,
                "keep a card that you may discard to end the turn",
                "every turn ends with a discard",
            )
        ]
    return []


def obligation_problems(state: RoundState) -> list[Violation]:
    """What the turn still owes before it may end or turn to something else."""
    pending = state.current.obligation
    if pending is None:
        return []
    message = {
        Obligation.MELD_TAKEN: f"first lay down the taken {state.current.taken}",
        Obligation.OPEN: "first open: you took the discard before opening",
        Obligation.USE_FREED_WILD: f"first use the freed {state.current.freed} in a meld",
        Obligation.GO_OUT: "you opened below the bar, so this turn must get rid of every card",
    }[pending]
    code = {
        Obligation.MELD_TAKEN: Code.TAKE_DISCARD_NOT_MELDED,
        Obligation.OPEN: Code.TAKE_DISCARD_NOT_OPENED,
        Obligation.USE_FREED_WILD: Code.FREED_WILD_NOT_USED,
        Obligation.GO_OUT: Code.OPENING_BELOW_THRESHOLD,
    }[pending]
    rule = _RULE_EXEMPTION if pending is Obligation.GO_OUT else _RULE_OBLIGATIONS
    return [Violation(code, message, rule)]


def _lay_off_context(state: RoundState, size_after: int) -> LayoffContext:
    going_out = (
        size_after == 0
        or (size_after == 1 and state.ruleset.going_out.final_discard)
        or state.current.obligation is Obligation.GO_OUT
    )
    return LayoffContext(
        going_out=going_out,
        one_card_announced=any(a == 1 for a in state.announced),
        announcing_one_card=size_after == 2,
    )


# --- going out ------------------------------------------------------------------------------


def would_be_hand(state: RoundState, *, final_discard: bool, on_others: bool = False) -> bool:
    """Whether going out now makes a Hand (000 §End of a round, 002 §Scoring, 003, 004 §6)."""
    seat = state.turn
    hand = state.ruleset.hand
    if state.melded[seat]:
        return False
    if hand.no_layoffs and (state.current.laid_off_on_others or on_others):
        return False
    if hand.first_to_meld and any(m.owner != seat for m in state.table):
        return False
    return not (hand.all_melded and final_discard)


def _finish_rules(state: RoundState) -> FinishRules | None:
    """How a below-bar opening must finish the turn, or ``None`` if no such opening is allowed."""
    exemption = state.ruleset.opening_exemption
    if exemption is OpeningExemption.NONE or going_out_problems(state):
        return None
    final = state.ruleset.going_out.final_discard
    if exemption is OpeningExemption.GOING_OUT:
        return FinishRules(final_discard=final)
    hand = state.ruleset.hand
    seat = state.turn
    if state.melded[seat] or (hand.first_to_meld and any(m.owner != seat for m in state.table)):
        return None
    if hand.all_melded and final:
        return None  # a Hand that melds every card cannot end on a required discard
    return FinishRules(
        final_discard=final, may_discard=not hand.all_melded, on_others=not hand.no_layoffs
    )


def _can_still_finish(state: RoundState, rules: FinishRules) -> bool:
    seat = state.turn
    hand = state.hands[seat]
    size = sum(hand)
    return can_finish(
        state.finder,
        hand,
        table=state.table,
        seat=seat,
        rules=rules,
        discardable=lambda slot: _discardable_slot(state, slot, 1) and size >= 1,
    )


def may_finish_below_bar(state: RoundState) -> bool:
    """A quick yes-or-no: could any below-bar opening of this hand finish the turn?"""
    rules = _finish_rules(state)
    return rules is not None and _can_still_finish(state, rules)


# --- drawing -------------------------------------------------------------------------------


def take_problems(state: RoundState) -> list[Violation]:
    """Why the top discard may not be taken now (the draw phase is assumed)."""
    return list(_judge_take(state).problems)


def _judge_take(state: RoundState) -> Ruling:
    if not state.discards:
        return _no(Code.DISCARD_PILE_EMPTY, "the discard pile is empty", "taking the discard")
    policy = state.ruleset.discard_take
    card = state.discards[-1]
    seat = state.turn
    opened = state.opened[seat]
    must_open = policy.must_open and not opened
    obligation = None
    if policy.must_meld:
        obligation = Obligation.MELD_TAKEN
    elif must_open:
        obligation = Obligation.OPEN
    change = Taken(card, state.ruleset.demotion.demotes(card, state.rules.wilds), obligation)
    if obligation is None:
        return Ruling(change=change)
    # the take is legal when the turn can go on to meet what it obliges: try it
    after = advance(state, TakeDiscard(), change)
    if _take_is_possible(after) and (
        any(True for _ in lay_downs(after)) or any(True for _ in lay_offs(after))
    ):
        return Ruling(change=change)
    if policy.must_meld:
        return _no(
            Code.TAKE_DISCARD_NOT_MELDED,
            f"{card} can be taken only to lay it down at once"
            + ("" if opened else ", in an opening that reaches the bar")
            + "; this hand cannot",
            "taking the discard (000 §Playing a turn; 002 §Variants)",
        )
    return _no(
        Code.TAKE_DISCARD_NOT_OPENED,
        f"taking {card} obliges you to open this turn, and this hand cannot reach "
        f"{state.required_opening(seat)}",
        "taking from the fire pile (004 §5)",
    )


def _take_is_possible(after: RoundState) -> bool:
    """A quick necessary condition for a take whose card must be melded (or opened with)."""
    seat = after.turn
    policy = after.ruleset.discard_take
    opened = after.opened[seat]
    if policy.must_meld and policy.may_lay_off and opened and after.table:
        return True
    finder = after.finder
    hand = after.hands[seat]
    card = after.current.taken
    assert card is not None
    if policy.must_meld:
        slot = card.index + (DEMOTED if after.current.taken_demoted else 0)
        least = policy.hand_cards + 1
        if not any(len(f.used) >= least and slot in f.used for f in finder.melds(hand)):
            return False
    required = after.required_opening(seat)
    if required is not None and after.ruleset.opening_exemption is OpeningExemption.NONE:
        return finder.opening_bound(hand) >= required and finder.best_opening_value(hand) >= (
            required
        )
    return True


# --- discarding ----------------------------------------------------------------------------


def _judge_discard(state: RoundState, action: Discard) -> Ruling:
    seat, card = state.turn, action.card
    hand = state.hands[seat]
    left = sum(hand) - 1
    pending = state.current.obligation
    if pending is not None and not (pending is Obligation.GO_OUT and left == 0):
        return _problems(obligation_problems(state))
    slot = card.index + (DEMOTED if action.demoted else 0)
    if not hand[slot]:
        if action.demoted:
            return _no(
                Code.CARD_NOT_IN_HAND,
                f"you hold no {card} taken from the discard pile",
                "discarding",
            )
        return _no(Code.CARD_NOT_IN_HAND, f"{card} is not in your hand", "discarding")
    if card == undiscardable(state):
        return _no(
            Code.REDISCARD_TAKEN_CARD,
            f"{card} was taken from the discard pile this turn and may not go back",
            "the fire pile (004 §2)",
        )
    going = state.ruleset.going_out
    wild = not action.demoted and state.rules.is_wild(card)
    if going.wild_discard_only_to_go_out and wild and left > 0:
        return _no(
            Code.WILD_DISCARD_FORBIDDEN,
            f"a joker may be discarded only to go out ({card})",
            "tournament jokers (002 §Variants)",
        )
    if left == 0:
        problems = going_out_problems(state)
        if problems:
            return _problems(problems)
    due = bool(going.announce_at) and 0 < left <= going.announce_at
    if action.announce and not due:
        return _no(
            Code.WRONG_PHASE,
            f"there is nothing to announce with {left} cards left",
            "announcements (000 §Playing a turn)",
        )
    finish = Finish(would_be_hand(state, final_discard=True)) if left == 0 else None
    return Ruling(
        change=Discarded(
            slot, card, left if action.announce else 0, due and not action.announce, finish
        )
    )


def discard_options(state: RoundState) -> Iterator[Discard]:
    """Every legal discard, decided once for the whole hand (the same rules as above)."""
    hand = state.hands[state.turn]
    left = sum(hand) - 1
    pending = state.current.obligation
    if pending is not None and not (pending is Obligation.GO_OUT and left == 0):
        return
    if left == 0 and going_out_problems(state):
        return
    going = state.ruleset.going_out
    barred = undiscardable(state)
    wild_barred = going.wild_discard_only_to_go_out and left > 0
    announce = bool(going.announce_at) and 0 < left <= going.announce_at
    is_wild = state.rules.is_wild
    for index in range(53):
        card = CARDS[index]
        if card == barred:
            continue
        if hand[index] and not (wild_barred and is_wild(card)):
            yield _DISCARDS[index]
            if announce:
                yield _ANNOUNCED[index]
        if hand[DEMOTED + index]:
            yield _DEMOTED_DISCARDS[index]
            if announce:
                yield _DEMOTED_ANNOUNCED[index]


_DISCARDS = tuple(Discard(card) for card in CARDS)
_ANNOUNCED = tuple(Discard(card, announce=True) for card in CARDS)
_DEMOTED_DISCARDS = tuple(Discard(card, demoted=True) for card in CARDS)
_DEMOTED_ANNOUNCED = tuple(Discard(card, announce=True, demoted=True) for card in CARDS)


# --- laying down ---------------------------------------------------------------------------


def _slots_of(state: RoundState, melds: Sequence[Meld]) -> tuple[list[int], list[Violation]]:
    """The hand slots that ``melds`` take, or why the hand does not hold them.

    A demoted position takes a demoted copy; any other position takes an
    ordinary copy. Identical cards cannot be told apart, so a face whose
    only copies in hand are demoted plays only as demoted.
    """
    hand = list(state.hands[state.turn])
    slots: list[int] = []
    every = [c for m in melds for c in m.cards]
    for meld in melds:
        for i, card in enumerate(meld.cards):
            demoted = i in meld.demoted
            slot = card.index + (DEMOTED if demoted else 0)
            if hand[slot] == 0:
                if demoted:
                    message = f"{card} was not taken from the discard pile, so it stays wild"
                    return [], [Violation(Code.DEMOTION_NOT_ALLOWED, message, _RULE_DEMOTION)]
                if hand[DEMOTED + card.index]:
                    message = (
                        f"{card} came from the discard pile, so it plays only as a natural card"
                    )
                    return [], [Violation(Code.DEMOTION_NOT_ALLOWED, message, _RULE_DEMOTION)]
                missing = Counter(every) - Counter(state.hand(state.turn))
                shown = format_cards(sorted(missing.elements())) if missing else str(card)
                return [], [
                    Violation(
                        Code.CARD_NOT_IN_HAND,
                        f"{format_cards(every)} are not all in your hand (missing {shown})",
                        "laying down",
                    )
                ]
            hand[slot] -= 1
            slots.append(slot)
    return slots, []


def _uses_taken(state: RoundState, meld: Meld) -> bool:
    """Whether ``meld`` holds the card taken this turn, with enough cards from the hand."""
    taken = state.current.taken
    if taken is None or len(meld.cards) - 1 < state.ruleset.discard_take.hand_cards:
        return False
    demoted = state.current.taken_demoted
    return any(c == taken and (i in meld.demoted) == demoted for i, c in enumerate(meld.cards))


def _judge_lay_down(state: RoundState, action: LayDown) -> Ruling:
    seat = state.turn
    if not action.melds:
        return _no(Code.OPENING_EMPTY, "lay down at least one meld", "laying down")
    slots, problems = _slots_of(state, action.melds)
    if problems:
        return _problems(problems)
    if state.ruleset.layoff.melds_first and state.current.laid_off:
        return _no(Code.PHASE_ORDER, "new melds come before lay-offs", "turn flow (003 §Turn Flow)")
    left = list(state.hands[seat])
    for slot in slots:
        left[slot] -= 1
    size_after = sum(left)
    pending = state.current.obligation
    if pending is Obligation.USE_FREED_WILD and state.ruleset.exchange.freed_wild is FreedWild.KEEP:
        return _problems(obligation_problems(state))
    problems = keep_problems(state, size_after, left)
    if problems:
        return _problems(problems)
    if pending is Obligation.MELD_TAKEN and not any(_uses_taken(state, m) for m in action.melds):
        return _no(
            Code.TAKE_DISCARD_NOT_MELDED,
            f"the taken {state.current.taken} must go into a new meld with at least "
            f"{state.ruleset.discard_take.hand_cards} cards from your hand",
            "taking the discard (000 §Playing a turn)",
        )
    if pending is Obligation.USE_FREED_WILD:
        assert state.current.freed is not None
        if not any(state.current.freed in m.cards for m in action.melds):
            return _problems(obligation_problems(state))
    required = state.required_opening(seat)
    if required is None:
        return _lay_down_opened(state, action, slots, size_after)
    return _lay_down_opening(state, action, slots, size_after, required)


def _lay_down_opened(
    state: RoundState, action: LayDown, slots: list[int], size_after: int
) -> Ruling:
    if len(action.melds) != 1:
        return _no(
            Code.WRONG_PHASE,
            "after opening, lay down one meld at a time",
            "laying down (one meld per action)",
        )
    judged = judge_meld(action.melds[0], state.rules)
    if not judged.ok:
        return _problems(list(judged.verdict.violations))
    assert judged.meld is not None and judged.kind is not None
    change = LaidDown(
        ((judged.meld, judged.kind),),
        tuple(slots),
        None,
        _obligation_after(state, size_after),
        _finish(state, size_after),
    )
    return _keeping_the_promise(state, action, change)


def _lay_down_opening(
    state: RoundState, action: LayDown, slots: list[int], size_after: int, required: int
) -> Ruling:
    seat = state.turn
    opening = judge_opening(list(action.melds), state.rules, required=required)
    below = opening.verdict.codes == (Code.OPENING_BELOW_THRESHOLD,)
    if not opening.ok and not below:
        return _problems(list(opening.verdict.violations))
    pending = state.current.obligation
    taken = state.current.taken
    if (
        pending is Obligation.OPEN
        and state.ruleset.discard_take.in_opening
        and taken is not None
        and not any(taken in m.cards for m in action.melds)
    ):
        return _no(
            Code.TAKE_DISCARD_NOT_OPENED,
            f"the opening must use the taken {taken}",
            "taking from the fire pile (RULES-MATRIX P4 a)",
        )
    melds = tuple((j.meld, j.kind) for j in opening.melds if j.meld is not None and j.kind)
    record = OpeningRecord(seat, state.team_of(seat), opening.points)
    finish = _finish(state, size_after)
    obligation = Obligation.GO_OUT if below and size_after else _obligation_after(state, size_after)
    change = LaidDown(melds, tuple(slots), record, obligation, finish)
    if not below or _promise_kept(state, action, change):
        return Ruling(change=change)
    return _problems(list(opening.verdict.violations))


def _promise_kept(state: RoundState, action: LayDown, change: LaidDown) -> bool:
    """Whether a below-bar opening finishes this turn, or can still finish it (L11)."""
    rules = _finish_rules(state)
    if rules is None:
        return False
    if change.finish is not None:
        hand_only = state.ruleset.opening_exemption is OpeningExemption.HAND
        return change.finish.hand or not hand_only
    return _can_still_finish(advance(state, action, change), rules)


def _obligation_after(state: RoundState, size_after: int) -> Obligation | None:
    """A lay-down meets what taking the discard or a wild obliged; a finish promise stays."""
    pending = state.current.obligation
    return pending if pending is Obligation.GO_OUT and size_after > 0 else None


def _finish(state: RoundState, size_after: int, *, on_others: bool = False) -> Finish | None:
    if size_after:
        return None
    return Finish(would_be_hand(state, final_discard=False, on_others=on_others))


def _keeping_the_promise(state: RoundState, action: Action, change: LaidDown | LaidOff) -> Ruling:
    """Under a below-bar opening, a move is legal only if the turn can still finish."""
    if state.current.obligation is not Obligation.GO_OUT or change.finish is not None:
        return Ruling(change=change)
    rules = _finish_rules(state)
    if rules is not None and _can_still_finish(advance(state, action, change), rules):
        return Ruling(change=change)
    return _problems(obligation_problems(state))


def lay_downs(state: RoundState) -> Iterator[LayDown]:
    """Every legal lay-down, from the meld finder's melds (the rules are the ones above)."""
    seat = state.turn
    pending = state.current.obligation
    if pending is Obligation.USE_FREED_WILD and state.ruleset.exchange.freed_wild is FreedWild.KEEP:
        return
    if state.ruleset.layoff.melds_first and state.current.laid_off:
        return
    finder = state.finder
    hand = state.hands[seat]
    required = state.required_opening(seat)
    size = sum(hand)
    if required is None:
        for found in finder.melds(hand):
            if pending is not None and not _meets(state, (found,)):
                continue
            left = _minus(hand, found.used)
            if keep_problems(state, size - len(found.used), left):
                continue
            action = LayDown((found.meld,))
            if pending is Obligation.GO_OUT and not judge(state, action).ok:
                continue
            yield action
        return
    below_bar = may_finish_below_bar(state)
    bound = 0 if below_bar else required
    for combo in finder.combinations(hand, min_points=bound):
        if pending is not None and not _meets(state, combo):
            continue
        left = _minus(hand, [slot for found in combo for slot in found.used])
        size_after = sum(left)
        if keep_problems(state, size_after, left):
            continue
        action = LayDown(tuple(f.meld for f in combo))
        if sum(f.points for f in combo) < required and not judge(state, action).ok:
            continue
        yield action


def _meets(state: RoundState, combo: Sequence[FoundMeld]) -> bool:
    """Whether laying ``combo`` down does what the turn owes (the checks above say the same)."""
    pending = state.current.obligation
    if pending is Obligation.MELD_TAKEN:
        return any(_uses_taken(state, f.meld) for f in combo)
    if pending is Obligation.OPEN:
        taken = state.current.taken
        if state.ruleset.discard_take.in_opening and taken is not None:
            return any(taken in f.meld.cards for f in combo)
        return True
    if pending is Obligation.USE_FREED_WILD:
        return any(state.current.freed in f.meld.cards for f in combo)
    return True


def _minus(hand: Sequence[int], used: Sequence[int]) -> list[int]:
    left = list(hand)
    for slot in used:
        left[slot] -= 1
    return left


# --- laying off ----------------------------------------------------------------------------


def _lay_off_gate(state: RoundState, action: LayOff) -> tuple[list[Violation], TableMeld | None]:
    """Everything about a lay-off but the meld itself: turn, opening, the card, what is kept."""
    seat = state.turn
    current = state.current
    pending = current.obligation
    if pending is not None and pending is not Obligation.GO_OUT:
        taken_ok = (
            pending is Obligation.MELD_TAKEN
            and action.card == current.taken
            and action.demoted == current.taken_demoted
            and state.ruleset.discard_take.may_lay_off
        )
        freed_ok = (
            pending is Obligation.USE_FREED_WILD
            and action.card == current.freed
            and not action.demoted
            and state.ruleset.exchange.freed_wild is FreedWild.USE_NOW
        )
        if not (taken_ok or freed_ok):
            return obligation_problems(state), None
    if state.ruleset.layoff.needs_opening and not state.opened[seat]:
        return [Violation(Code.NOT_OPENED, "lay off only after opening", _RULE_LAYOFF_GATE)], None
    target = state.meld(action.target)
    if target is None:
        message = f"there is no meld {action.target}"
        return [Violation(Code.NO_SUCH_MELD, message, "laying off")], None
    hand = state.hands[seat]
    if action.demoted and not hand[DEMOTED + action.card.index]:
        message = f"you hold no {action.card} taken from the discard pile"
        return [Violation(Code.CARD_NOT_IN_HAND, message, "laying off")], None
    if not action.demoted and not hand[action.card.index]:
        if hand[DEMOTED + action.card.index]:
            message = (
                f"{action.card} came from the discard pile, so it plays only as a natural card"
            )
            return [Violation(Code.DEMOTION_NOT_ALLOWED, message, _RULE_DEMOTION)], None
        message = f"{action.card} is not in your hand"
        return [Violation(Code.CARD_NOT_IN_HAND, message, "laying off")], None
    wild = state.rules.is_wild(action.card) and not action.demoted
    if action.role is not None and not wild and not (action.demoted and action.card.is_joker):
        message = f"{action.card} is not wild, so it stands for nothing but itself"
        return [Violation(Code.NATURAL_CARD_GIVEN_ROLE, message, "laying off")], None
    if wild and (action.role is None) != (target.kind is MeldKind.SET):
        # one spelling per move: a wild on a run says what it stands for; on a set it
        # stands for "another card of the rank", whose suit stays free
        message = (
            f"say which card the wild {action.card} stands for at the end of meld {target.id}"
            if action.role is None
            else f"a wild laid off on a set takes no role; meld {target.id} is a set"
        )
        return [Violation(Code.WILD_ROLE_INVALID, message, "laying off")], None
    if state.current.obligation is Obligation.GO_OUT and target.owner != seat:
        rules = _finish_rules(state)
        if rules is None or not rules.on_others:
            message = "a Hand adds to no other player's meld, and this turn must end in a Hand"
            return [Violation(Code.OPENING_BELOW_THRESHOLD, message, _RULE_EXEMPTION)], None
    return [], target


def _judge_lay_off(state: RoundState, action: LayOff) -> Ruling:
    problems, target = _lay_off_gate(state, action)
    if problems or target is None:
        return _problems(problems)
    slot = action.card.index + (DEMOTED if action.demoted else 0)
    left = list(state.hands[state.turn])
    left[slot] -= 1
    size_after = sum(left)
    problems = keep_problems(state, size_after, left)
    if problems:
        return _problems(problems)
    result = lay_off(
        target.meld,
        [action.card],
        state.rules,
        roles={0: action.role} if action.role is not None else None,
        demoted=(0,) if action.demoted else (),
        context=_lay_off_context(state, size_after),
    )
    if result.meld is None:
        return _problems(list(result.verdict.violations))
    on_others = target.owner != state.turn
    pending = state.current.obligation
    obligation = None if pending is not Obligation.GO_OUT else pending
    if size_after == 0:
        obligation = None
    change = LaidOff(
        target.id,
        slot,
        result.meld,
        on_others,
        obligation,
        _finish(state, size_after, on_others=on_others),
    )
    return _keeping_the_promise(state, action, change)


def lay_offs(state: RoundState) -> Iterator[LayOff]:
    """Every legal lay-off, from the finder's table of each meld's ends."""
    seat = state.turn
    if state.ruleset.layoff.needs_opening and not state.opened[seat]:
        return
    if not state.table:
        return
    finder = state.finder
    hand = state.hands[seat]
    gate: dict[int, bool] = {}
    careful = state.current.obligation is Obligation.GO_OUT
    for target in state.table:
        options = finder.layoff_options(target.meld, target.kind)
        for index in range(53):
            if not hand[index] or index not in options:
                continue
            card = CARDS[index]
            for role, contextual in options[index]:
                action = LayOff(target.id, card, role)
                if contextual or careful:
                    if judge(state, action).ok:
                        yield action
                    continue
                open_gate = gate.get(index)
                if open_gate is None:
                    open_gate = _lay_off_opens(state, action)
                    gate[index] = open_gate
                if open_gate:
                    yield action
        for index in range(53):
            if hand[DEMOTED + index]:
                yield from _demoted_lay_offs(state, target, CARDS[index])


def _lay_off_opens(state: RoundState, action: LayOff) -> bool:
    """The gate and the keep rules for ``action``, which the finder says fits its meld."""
    problems, _ = _lay_off_gate(state, action)
    if problems:
        return False
    left = list(state.hands[state.turn])
    left[action.card.index] -= 1
    return not keep_problems(state, sum(left), left)


def _demoted_lay_offs(state: RoundState, target: TableMeld, card: Card) -> Iterator[LayOff]:
    roles: list[Card | None] = [None]
    if card.is_joker and target.kind is MeldKind.RUN:
        roles = [Card(Rank.ACE, suit) for suit in Suit]
    for role in roles:
        action = LayOff(target.id, card, role, demoted=True)
        if judge(state, action).ok:
            yield action


# --- exchanging a wild -----------------------------------------------------------------------


def _judge_exchange(state: RoundState, action: Exchange) -> Ruling:
    seat = state.turn
    problems = obligation_problems(state)
    if problems:
        return _problems(problems)
    policy = state.ruleset.exchange
    if not policy.allowed:
        return _no(
            Code.EXCHANGE_NOT_ALLOWED, "these rules have no wild exchange", _RULE_EXCHANGE_GATE
        )
    if policy.needs_opening and not state.opened[seat]:
        return _no(Code.NOT_OPENED, "exchange wild cards only after opening", _RULE_EXCHANGE_GATE)
    target = state.meld(action.target)
    if target is None:
        return _no(Code.NO_SUCH_MELD, f"there is no meld {action.target}", "exchange")
    left = list(state.hands[seat])
    for card in action.cards:
        # an exchange is paid with ordinary copies: a demoted wild is no natural card
        if left[card.index] == 0:
            return _no(
                Code.CARD_NOT_IN_HAND,
                f"{format_cards(action.cards)} are not all in your hand (no {card})",
                "exchange",
            )
        left[card.index] -= 1
    result = exchange(target.meld, action.cards, state.rules)
    if not result.ok or result.wild is None or result.meld is None:
        return _problems(list(result.verdict.violations))
    freed = policy.freed_wild
    if freed is not FreedWild.KEEP:
        left[result.wild.index] += 1
        finder = state.finder
        usable = any(result.wild in f.meld.cards for f in finder.melds(left))
        if not usable and freed is FreedWild.USE_NOW:
            wild = result.wild.index
            usable = any(
                wild in finder.layoff_options(t.meld, t.kind)
                for t in state.table
                if t.id != target.id
            )
        if not usable:
            return _no(
                Code.FREED_WILD_NOT_USED,
                f"the freed {result.wild} must be used at once, and this hand cannot",
                "exchanging a joker (002 §Exchanging a joker)",
            )
    obligation = None if freed is FreedWild.KEEP else Obligation.USE_FREED_WILD
    slots = tuple(card.index for card in action.cards)
    return Ruling(change=Exchanged(target.id, slots, result.wild, result.meld, obligation))


def exchanges(state: RoundState) -> Iterator[Exchange]:
    """Every legal wild exchange: each wild on the table with each supply that could pay."""
    seat = state.turn
    policy = state.ruleset.exchange
    if not policy.allowed or (policy.needs_opening and not state.opened[seat]):
        return
    if state.current.obligation is not None:
        return
    hand = state.hands[seat]
    for target in state.table:
        meld = target.meld
        wilds = [
            i
            for i, (c, r) in enumerate(zip(meld.cards, meld.roles))
            if r is not None and i not in meld.demoted and state.rules.is_wild(c)
        ]
        if not wilds:
            continue
        for supply in _supplies(state, target, wilds):
            if all(hand[c.index] >= supply.count(c) for c in supply):
                action = Exchange(target.id, supply)
                if judge(state, action).ok:
                    yield action


def _supplies(state: RoundState, target: TableMeld, wilds: list[int]) -> list[tuple[Card, ...]]:
    meld = target.meld
    if target.kind is MeldKind.RUN:
        return list(dict.fromkeys((r,) for i in wilds if (r := meld.roles[i]) is not None))
    plays = [
        r or state.rules.wilds.natural_as(c)
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
