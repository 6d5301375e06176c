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
    expect_action,
)
from hand_rummy.errors import InvalidStateError, expect, number
from hand_rummy.state import Phase, RoundState
from hand_rummy.transitions import Drawn, Redealt
from hand_rummy.turn_rules.discarding import discard_options, judge_discard
from hand_rummy.turn_rules.drawing import judge_take, may_take, take_problems
from hand_rummy.turn_rules.exchanging import exchanges, judge_exchange, promised_exchange
from hand_rummy.turn_rules.gates import (
    bare_turn,
    going_out_problems,
    keep_problems,
    may_claim_redeal,
    may_go_out,
    obligation_problems,
    would_be_hand,
)
from hand_rummy.turn_rules.laying_down import judge_lay_down, lay_downs, promised_lay_down
from hand_rummy.turn_rules.laying_off import judge_lay_off, lay_offs, promised_lay_off
from hand_rummy.turn_rules.ruling import Ruling, refuse
from hand_rummy.verdict import Code, Topic

__all__ = [
    "Ruling",
    "bare_turn",
    "discard_options",
    "exchanges",
    "going_out_problems",
    "judge",
    "judge_discard",
    "judge_exchange",
    "judge_lay_down",
    "judge_lay_off",
    "judge_take",
    "keep_problems",
    "lay_downs",
    "lay_offs",
    "may_claim_redeal",
    "may_go_out",
    "may_take",
    "obligation_problems",
    "promised_exchange",
    "promised_lay_down",
    "promised_lay_off",
    "take_problems",
    "would_be_hand",
]


def judge(state: RoundState, action: Action, seat: int | None = None) -> Ruling:
    """Whether ``action`` is legal now, the reasons of the first check that refuses it if
    not, and what it does if so.

    With ``seat``, the action is that seat's: refused unless it is the seat to move, and
    then before anything else is judged, so that the answer tells another seat nothing
    about the mover's hand.
    """
    expect_action(action)
    rules = state.ruleset
    if seat is not None:
        expect(seat, int, "the seat")
        if not 0 <= seat < state.players:
            raise InvalidStateError(
                f"there is no seat {number(seat)} in a round of {state.players}"
            )
        if state.phase is not Phase.OVER and seat != state.turn:
            return refuse(
                rules,
                Code.NOT_YOUR_TURN,
                f"it is seat {state.turn}'s turn, not seat {seat}'s",
                Topic.TURN,
            )
    if state.phase is Phase.OVER:
        return refuse(rules, Code.ROUND_OVER, "the round is over", Topic.ROUND_OVER)
    if state.phase is Phase.REDEAL:
        if isinstance(action, PassRedeal):
            return Ruling(change=Redealt(claimed=False))
        if isinstance(action, ClaimRedeal):
            if may_claim_redeal(state, state.turn):
                return Ruling(change=Redealt(claimed=True))
            return refuse(
                rules,
                Code.REDEAL_NOT_ALLOWED,
                "this deal is not weak enough for a redeal: it takes "
                + state.ruleset.redeal.weak_deals(),
                Topic.REDEAL,
            )
        return refuse(
            rules,
            Code.WRONG_PHASE,
            f"seat {state.turn} must first claim a redeal or keep the deal",
            Topic.REDEAL,
        )
    if isinstance(action, (ClaimRedeal, PassRedeal)):
        return refuse(
            rules,
            Code.REDEAL_NOT_ALLOWED,
            "a redeal may be claimed only before play, with a weak deal",
            Topic.REDEAL,
        )
    if state.phase is Phase.DRAW:
        if isinstance(action, DrawStock):
            if not state.stock:
                return refuse(rules, Code.STOCK_EMPTY, "the stock is empty", Topic.STOCK)
            return Ruling(change=Drawn())
        if isinstance(action, TakeDiscard):
            return judge_take(state)
        return refuse(
            rules,
            Code.WRONG_PHASE,
            f"{action} comes after drawing: draw from the stock or take the discard first",
            Topic.TURN,
        )
    if isinstance(action, (DrawStock, TakeDiscard)):
        if state.current.first_turn_bare:
            message = "the starter holds the extra card and does not draw on the first turn"
            return refuse(rules, Code.WRONG_PHASE, message, Topic.STARTER)
        message = "this turn's card has been drawn already"
        return refuse(rules, Code.WRONG_PHASE, message, Topic.TURN)
    if bare_turn(state) and not isinstance(action, Discard):
        return refuse(
            rules,
            Code.WRONG_PHASE,
            "the starter's first turn is a bare discard",
            Topic.BARE_FIRST_TURN,
        )
    if isinstance(action, Discard):
        return judge_discard(state, action)
    if isinstance(action, LayDown):
        return judge_lay_down(state, action)
    if isinstance(action, LayOff):
        return judge_lay_off(state, action)
    if isinstance(action, Exchange):
        return judge_exchange(state, action)
    raise InvalidStateError(f"not an action: {action!r}")
