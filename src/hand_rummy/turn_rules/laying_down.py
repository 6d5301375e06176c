"""Laying melds down: an opening as a whole, or one meld once opened (000, 004 §4)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence, Set

import attrs

from hand_rummy.actions import LayDown
from hand_rummy.below_bar import BelowBarOpenings, Plan
from hand_rummy.cards import format_cards
from hand_rummy.finder import FoundMeld
from hand_rummy.finishing import bought_back
from hand_rummy.meld_growth import LayOffMemo
from hand_rummy.melds import Meld, judge_meld
from hand_rummy.opening import judge_opening
from hand_rummy.rulebook import violation
from hand_rummy.rules.opening import OpeningExemption, OpeningRecord
from hand_rummy.rules.turn import FreedWild
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import DEMOTED, Obligation, RoundState, TableMeld
from hand_rummy.transitions import (
    Finish,
    LaidDown,
    laid_melds,
)
from hand_rummy.turn_rules.gates import (
    PROMISES,
    discard_restricted,
    finish_of,
    finish_rules,
    finishing_by_exchange,
    finishing_melds,
    finishing_slots,
    going_out_problems,
    going_out_still,
    hand_slot,
    keep_problems,
    keeping_the_promise,
    obligation_after,
    obligation_problems,
    only_going_out,
    promise_way,
)
from hand_rummy.turn_rules.ruling import Ruling, from_problems, refuse
from hand_rummy.verdict import Code, Topic, Violation
from hand_rummy.work import charge_once, counting

__all__ = ["judge_lay_down", "lay_downs", "obliged_slots", "promised_lay_down"]


def _slots_of(
    state: RoundState, melds: Sequence[Meld]
) -> tuple[list[int], tuple[Meld, ...], list[Violation]]:
    """The hand slots that ``melds`` take and the melds as they will be judged, or why the
    hand does not hold them.

    A demoted position takes a demoted copy; any other position takes an
    ordinary copy, or, where the hand holds only demoted copies of that face,
    a demoted one (:func:`~hand_rummy.turn_rules.gates.hand_slot`), and the
    position is then judged as demoted.
    """
    held = state.hands[state.turn]
    hand = list(held)
    rules = state.ruleset
    slots: list[int] = []
    spelled: list[Meld] = []
    every = [c for m in melds for c in m.cards]
    for meld in melds:
        inferred: list[int] = []
        for i, card in enumerate(meld.cards):
            demoted = i in meld.demoted
            slot = hand_slot(held, card, demoted)
            if slot >= DEMOTED and not demoted:
                inferred.append(i)
            if hand[slot] == 0:
                if demoted:
                    message = f"{card} was not taken from the discard pile, so it stays wild"
                    return (
                        [],
                        (),
                        [violation(rules, Code.DEMOTION_NOT_ALLOWED, message, Topic.DEMOTION)],
                    )
                if hand[DEMOTED + card.index]:
                    message = (
                        f"{card} came from the discard pile, so it plays only as a natural card"
                    )
                    return (
                        [],
                        (),
                        [violation(rules, Code.DEMOTION_NOT_ALLOWED, message, Topic.DEMOTION)],
                    )
                missing = Counter(every) - Counter(state.hand(state.turn))
                shown = format_cards(sorted(missing.elements())) if missing else str(card)
                return (
                    [],
                    (),
                    [
                        violation(
                            rules,
                            Code.CARD_NOT_IN_HAND,
                            f"{format_cards(every)} are not all in your hand (missing {shown})",
                            Topic.OWN_CARDS,
                        )
                    ],
                )
            hand[slot] -= 1
            slots.append(slot)
        marked = meld.demoted | set(inferred)
        spelled.append(attrs.evolve(meld, demoted=marked) if inferred else meld)
    return slots, tuple(spelled), []


def _uses_taken(state: RoundState, meld: Meld) -> bool:
    """Whether ``meld`` holds the card taken this turn, with enough cards from the hand."""
    taken = state.current.taken
    if taken is None or len(meld.cards) - 1 < state.ruleset.discard_take.hand_cards:
        return False
    demoted = state.current.taken_demoted
    return any(c == taken and (i in meld.demoted) == demoted for i, c in enumerate(meld.cards))


def judge_lay_down(state: RoundState, action: LayDown) -> Ruling:
    seat = state.turn
    rules = state.ruleset
    if not action.melds:
        return refuse(rules, Code.OPENING_EMPTY, "lay down at least one meld", Topic.OPENING)
    slots, melds, problems = _slots_of(state, action.melds)
    if problems:
        return from_problems(problems)
    action = LayDown(melds)  # with the demoted positions that the hand implies
    if rules.layoff.melds_first and state.current.laid_off:
        return refuse(rules, Code.PHASE_ORDER, "new melds come before lay-offs", Topic.PHASE_ORDER)
    left = list(state.hands[seat])
    for slot in slots:
        left[slot] -= 1
    size_after = sum(left)
    pending = state.current.obligation
    if pending is Obligation.USE_FREED_WILD and state.ruleset.exchange.freed_wild is FreedWild.KEEP:
        return from_problems(obligation_problems(state))
    problems = keep_problems(state, size_after, left)
    if problems:
        return from_problems(problems)
    if pending is Obligation.MELD_TAKEN and not any(_uses_taken(state, m) for m in action.melds):
        return refuse(
            rules,
            Code.TAKE_DISCARD_NOT_MELDED,
            f"the taken {state.current.taken} must go into a new meld with at least "
            f"{rules.discard_take.hand_cards} cards from your hand"
            + (
                " or onto a table meld"
                if rules.discard_take.may_lay_off and state.opened[seat]
                else ""
            ),
            Topic.TAKE_MELD,
        )
    if pending is Obligation.USE_FREED_WILD:
        assert state.current.freed is not None
        if not any(state.current.freed in m.cards for m in action.melds):
            return from_problems(obligation_problems(state))
    required = state.required_opening(seat)
    if required is None:
        ruling = _lay_down_opened(state, action, slots, size_after)
    else:
        ruling = _lay_down_opening(state, action, slots, size_after, required)
    return going_out_still(state, action, ruling, left)


def _lay_down_opened(
    state: RoundState, action: LayDown, slots: list[int], size_after: int
) -> Ruling:
    if len(action.melds) != 1:
        return refuse(
            state.ruleset,
            Code.WRONG_PHASE,
            "after opening, lay down one meld at a time",
            Topic.ONE_MELD_PER_MOVE,
        )
    judged = judge_meld(action.melds[0], state.rules)
    if not judged.ok:
        return from_problems(list(judged.verdict.violations))
    assert judged.meld is not None and judged.kind is not None
    change = LaidDown(
        ((judged.meld, judged.kind),),
        tuple(slots),
        None,
        obligation_after(state, size_after),
        finish_of(state, size_after),
    )
    return keeping_the_promise(state, action, change)


def _lay_down_opening(
    state: RoundState, action: LayDown, slots: list[int], size_after: int, required: int
) -> Ruling:
    opening = judge_opening(list(action.melds), state.rules, required=required)
    below = opening.verdict.codes == (Code.OPENING_BELOW_THRESHOLD,)
    if not opening.ok and not below:
        return from_problems(list(opening.verdict.violations))
    pending = state.current.obligation
    taken = state.current.taken
    if (
        pending is Obligation.OPEN
        and state.ruleset.discard_take.in_opening
        and taken is not None
        and not any(taken in m.cards for m in action.melds)
    ):
        return refuse(
            state.ruleset,
            Code.TAKE_DISCARD_NOT_OPENED,
            f"the opening must use the taken {taken}",
            Topic.TAKE_OPEN,
        )
    melds = tuple((j.meld, j.kind) for j in opening.melds if j.meld is not None and j.kind)
    change = _opening(state, melds, opening.points, slots, size_after, below=below)
    if not below and pending is Obligation.ONE_CARD:
        return keeping_the_promise(state, action, change)
    if not below or _promise_kept(state, change):
        return Ruling(change=change)
    if state.ruleset.opening_exemption is OpeningExemption.NONE:
        return from_problems(list(opening.verdict.violations))
    return _not_exempt(state, opening.points, required)


def _not_exempt(state: RoundState, points: int, required: int) -> Ruling:
    """The refusal of an opening below the bar that the exemption for going out at once
    does not cover, saying why not (L11): a player told only that the bar was missed would
    not learn that, say, the first turn's ban on going out is what stands in the way."""
    hand_only = state.ruleset.opening_exemption is OpeningExemption.HAND
    exempt = "a player who makes a Hand" if hand_only else "a player who goes out this turn"
    barred = going_out_problems(state)
    topics: tuple[Topic, ...] = ()
    if barred:
        why, topics = barred[0].message, barred[0].topics
    elif finish_rules(state) is None:  # only a Hand is exempt, and this turn is none now
        why = "this turn can no longer be a Hand"
    else:
        how = " in a Hand" if hand_only else ""
        why = f"the cards it leaves cannot all go out this turn{how}"
    return refuse(
        state.ruleset,
        Code.OPENING_BELOW_THRESHOLD,
        f"the opening is worth {points} points; it needs {required}. Only {exempt} may open "
        f"below the bar, and {why}",
        Topic.OPENING_BAR,
        Topic.OPENING_EXEMPTION,
        *topics,
    )


def _opening(
    state: RoundState,
    melds: tuple[tuple[Meld, MeldKind], ...],
    points: int,
    slots: Sequence[int],
    size_after: int,
    *,
    below: bool,
) -> LaidDown:
    """What laying down a first meld does; one below the bar promises to finish the turn."""
    seat = state.turn
    record = OpeningRecord(seat, state.team_of(seat), points)
    finish = finish_of(state, size_after)
    obligation = Obligation.GO_OUT if below and size_after else obligation_after(state, size_after)
    return LaidDown(melds, tuple(slots), record, obligation, finish)


def _promise_kept(state: RoundState, change: LaidDown) -> bool:
    """Whether a below-bar opening finishes this turn, or can still finish it (L11)."""
    return _promise_plan(state, change, _minus(state.hands[state.turn], change.slots)) is not None


def _promise_plan(
    state: RoundState, change: LaidDown, left: Sequence[int], memo: LayOffMemo | None = None
) -> Plan | None:
    """How a below-bar opening, which leaves the hand ``left``, finishes the turn (the new
    melds after it), or ``None``: the search of the rest of the turn, with the opening's
    melds among those to lay off on (a listing's searches share its ``memo``)."""
    rules = finish_rules(state)
    if rules is None:
        return None
    if change.finish is not None:
        hand_only = state.ruleset.opening_exemption is OpeningExemption.HAND
        return () if change.finish.hand or not hand_only else None
    return finishing_slots(state, rules, left, state.table + laid_melds(state, change), memo)


def _together(state: RoundState, hand: Sequence[int], memo: LayOffMemo) -> BelowBarOpenings | None:
    """The below-bar openings of ``hand``, judged together, or ``None`` if the turn allows
    none; each judgment is :func:`_promise_plan`'s, taken apart (:mod:`~hand_rummy.below_bar`)."""
    rules = finish_rules(state)
    if rules is None:
        return None
    finish = rules

    def laid(melds: Sequence[FoundMeld]) -> tuple[TableMeld, ...]:
        return tuple(TableMeld(-1 - i, state.turn, f.meld, f.kind) for i, f in enumerate(melds))

    def exchanging(melds: Sequence[FoundMeld], cards: Sequence[int]) -> bool:
        return finishing_by_exchange(state, finish, cards, state.table + laid(melds), memo)

    def buying_back(
        melds: Sequence[FoundMeld], cards: Sequence[int]
    ) -> Iterator[tuple[int, list[int]]]:
        return bought_back(state.finder, cards, laid(melds), finish)

    return BelowBarOpenings(
        state.finder,
        hand,
        lambda cards: finishing_slots(state, finish, cards, memo=memo),
        memo=memo,
        exchanging=exchanging if rules.exchanges else None,
        bought_back=buying_back if rules.exchanges else None,
    )


def lay_downs(
    state: RoundState, listed: LayDown | None = None, *, in_order: bool = True
) -> Iterator[LayDown]:
    """Every legal lay-down, from the meld finder's melds (the rules are the ones above),
    but ``listed`` (one listed already, as :func:`promised_lay_down`'s is).

    ``in_order=False`` is for a caller that asks only whether there is one: the order is
    then the search's own, without a way to finish looked for first where a lay-down is
    owed (which spares the legal-action generator's first move a long search, but costs a
    search of its own where an opening reaches the bar at once)."""
    seat = state.turn
    pending = state.current.obligation
    if pending is Obligation.USE_FREED_WILD and state.ruleset.exchange.freed_wild is FreedWild.KEEP:
        return
    if state.ruleset.layoff.melds_first and state.current.laid_off:
        return
    finder = state.finder
    hand = state.hands[seat]
    if counting():
        # a listing (or a take's check) of a hand's lay-downs costs about a step for each
        # meld the hand holds, whether or not its melds were found for an earlier question
        charge_once((finder, hand), 1 + len(finder.meld_slots(hand)))
    required = state.required_opening(seat)
    size = sum(hand)
    if required is None:
        # a meld that must hold a card is among the melds that use its hand slot
        using = obliged_slots(state)
        for found in finder.iter_melds_using(hand, using) if using else finder.iter_melds(hand):
            if pending is not None and not _meets(state, (found,)):
                continue
            left = _minus(hand, found.used)
            size_after = size - len(found.used)
            if keep_problems(state, size_after, left):
                continue
            action = LayDown((found.meld,))
            if listed is not None and action == listed:
                continue
            judged = pending in PROMISES or only_going_out(state, size_after, left)
            if judged and not judge_lay_down(state, action).ok:
                continue
            yield action
        return
    openings = _opening_lay_downs(state, hand, required, in_order)
    if pending is Obligation.ONE_CARD:
        # a promise made by a lay-off before opening (rules that allow both): each opening
        # must keep it, which the judge asks
        openings = (action for action in openings if judge_lay_down(state, action).ok)
    yield from openings


def _opening_lay_downs(
    state: RoundState, hand: Sequence[int], required: int, in_order: bool = True
) -> Iterator[LayDown]:
    """The openings of ``hand``: those that reach the bar first, then those below it if a
    finish is possible at all; where a lay-down is owed (and ``in_order``), the opening of
    a way to go out below the bar comes before them all."""
    finder = state.finder
    using = obliged_slots(state)
    # what the searches of the openings below the bar learn about lay-offs, for each other
    memo = LayOffMemo()
    rules = finish_rules(state)
    plan: tuple[FoundMeld, ...] | None = None
    asked = False  # whether ``plan`` is the finishing search's answer yet
    early = _witness(state, hand, required, using, memo)
    planned = False  # whether ``early`` is the opening of a way to finish
    owed = state.current.obligation is not None
    if early is None and owed and in_order and rules is not None:
        # a lay-down is owed, so a lay-down is the first legal move: where the hand can go
        # out this turn below the bar, the opening of that way comes first, since showing
        # that no opening reaches the bar, as the openings that do come first otherwise, can
        # take thousands of steps
        plan, asked = finishing_melds(state, rules, using), True
        if plan and sum(f.points for f in plan) < required:
            early = next(_openings(state, hand, (plan,), required, memo), None)
            planned = early is not None
    if early is not None:
        yield early
    reaching = finder.combinations(hand, min_points=required, using=using)
    openings = _openings(state, hand, reaching, required, memo)
    yield from openings if early is None else (o for o in openings if o != early)
    if rules is None:
        return
    if not asked:
        plan = finishing_melds(state, rules, using)
    if plan is None:
        return
    # the way to finish that was found lays its new melds down as one opening, which then
    # finishes: below the bar, it comes first, so that the first below-bar opening listed
    # does not wait for the many that cannot finish (the same check judges it)
    first = plan if plan and sum(f.points for f in plan) < required else None
    if first is not None and not planned:
        yield from _openings(state, hand, (first,), required, memo)
    below = finder.combinations(hand, using=using, below=required)
    yield from _openings(state, hand, (c for c in below if c != first), required, memo)


def _witness(
    state: RoundState, hand: Sequence[int], required: int, using: Set[int], memo: LayOffMemo
) -> LayDown | None:
    """Where the turn owes an opening and the hand holds two wild cards or more, one that
    reaches the bar with natural cards alone, if there is one: the generator lists it first.

    Nothing else is legal until the opening is laid, and the search of a hand with
    wild cards must build every place each wild could take before its first opening
    (hundreds, with four jokers); the natural cards' melds are few. Each of them is a meld
    of the whole hand, built the same, so the opening is judged as the others are and
    comes once.
    """
    pending = state.current.obligation
    if pending is None or pending in PROMISES:
        return None
    natural = state.finder.without_wilds(hand)
    if sum(hand) - sum(natural) < 2:
        return None  # the places of one wild card are few: no search is saved
    if state.finder.opening_bound(natural) < required:
        return None  # every natural card that is in a meld, at its best, is still too few
    reaching = state.finder.combinations(natural, min_points=required, using=using)
    return next(_openings(state, hand, reaching, required, memo), None)


def promised_lay_down(state: RoundState) -> LayDown | None:
    """Under a promise (to finish the turn, or to end it on one card), a lay-down that keeps
    it, if the way found to keep it starts with one: the generator lists it first, since
    most moves may break the promise and each needs a search to say so."""
    way = promise_way(state)
    if way is None or not way.melds:
        return None
    found = state.finder.melds_at(state.hands[state.turn], way.melds[:1])
    action = LayDown((found[0].meld,))
    return action if judge_lay_down(state, action).ok else None


def obliged_slots(state: RoundState) -> frozenset[int]:
    """The hand slots of which an opening must meld one to do what the turn owes (no
    limit when empty); :func:`_meets` has the exact test."""
    current = state.current
    pending = current.obligation
    if pending is Obligation.MELD_TAKEN and current.taken is not None:
        return frozenset((current.taken.index + (DEMOTED if current.taken_demoted else 0),))
    if pending is Obligation.OPEN and state.ruleset.discard_take.in_opening:
        card = current.taken
    elif pending is Obligation.USE_FREED_WILD:
        card = current.freed
    else:
        return frozenset()
    return frozenset() if card is None else frozenset((card.index, DEMOTED + card.index))


def _openings(
    state: RoundState,
    hand: Sequence[int],
    combos: Iterable[tuple[FoundMeld, ...]],
    required: int,
    memo: LayOffMemo,
) -> Iterator[LayDown]:
    pending = state.current.obligation
    size = sum(hand)
    # the cards left matter to the keep rule only where some card may not be the discard
    restricted = discard_restricted(state)
    # the below-bar openings judged last, one of each number of melds: the finder lists an
    # opening right before those that add melds to it, which can take its judgment over
    judged: list[tuple[tuple[FoundMeld, ...], Plan | None]] = []
    together: BelowBarOpenings | None = None  # made for the first opening that needs it
    for combo in combos:
        del judged[len(combo) - 1 :]
        if pending is not None and not _meets(state, combo):
            continue
        size_after = size - sum(len(found.used) for found in combo)
        points = sum(f.points for f in combo)
        below = points < required
        left = _minus(hand, _slots(combo)) if restricted else None
        if keep_problems(state, size_after, left):
            continue
        action = LayDown(tuple(f.meld for f in combo))
        if only_going_out(state, size_after, left):
            # the rare opening that leaves no card to discard: the judge searches the rest
            # of the turn for a way out (a below-bar one's promise included)
            if judge_lay_down(state, action).ok:
                yield action
            continue
        if below:
            # the finder has judged each meld; the promise to finish is the rule's own check,
            # and the opening's change is made only where it is searched on its own (_alone)
            finish = finish_of(state, size_after)
            plan = _inherited(judged, combo, finish)
            if plan is _UNKNOWN:
                alone = functools.partial(
                    _alone, state, hand, combo, points=points, size_after=size_after, memo=memo
                )
                if finish is not None:
                    plan = alone()
                else:
                    together = together or _together(state, hand, memo)
                    plan = None if together is None else together.plan(combo, alone)
            if len(judged) == len(combo) - 1:
                judged.append((combo, plan))
            if plan is None:
                continue
        yield action


_UNKNOWN: Plan = ((-1,),)
"""What :func:`_inherited` returns when the opening one meld shorter says nothing."""


def _alone(
    state: RoundState,
    hand: Sequence[int],
    combo: tuple[FoundMeld, ...],
    *,
    points: int,
    size_after: int,
    memo: LayOffMemo,
) -> Plan | None:
    """:func:`_promise_plan` of the below-bar opening ``combo`` of the finder's melds."""
    slots = _slots(combo)
    melds = tuple((f.meld, f.kind) for f in combo)
    change = _opening(state, melds, points, slots, size_after, below=True)
    return _promise_plan(state, change, _minus(hand, slots), memo)


def _slots(combo: Sequence[FoundMeld]) -> list[int]:
    """The hand slots that the finder's melds ``combo`` take."""
    return [slot for found in combo for slot in found.used]


def _inherited(
    judged: Sequence[tuple[tuple[FoundMeld, ...], Plan | None]],
    combo: tuple[FoundMeld, ...],
    finish: Finish | None,
) -> Plan | None:
    """The judgment of a below-bar opening that the same opening without its last meld
    decides (``judged`` holds it, if it was judged), or :data:`_UNKNOWN`.

    Without a way to finish after the shorter opening there is none after this one
    either: any way to finish after this one is a way after the shorter one, in which
    the last meld, grown by whatever is laid off on it, is one of the new melds. And if
    a way to finish after the shorter opening lays that meld, the rest of that way
    finishes after this one.
    """
    count = len(combo)
    if finish is not None or count < 2 or len(judged) < count - 1:
        return _UNKNOWN
    shorter, plan = judged[count - 2]
    if any(a is not b for a, b in zip(shorter, combo[:-1], strict=True)):
        return _UNKNOWN
    if plan is None:
        return None
    last = combo[-1].used
    if last not in plan:
        return _UNKNOWN
    rest = list(plan)
    rest.remove(last)
    return tuple(rest)


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
