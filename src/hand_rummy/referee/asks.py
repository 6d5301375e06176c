"""The questions, by their ``"ask"``: about melds, openings, hands, lay-offs, exchanges and
scores (:data:`ASKS`), and about a round in play (:data:`ROUND_ASKS`)."""

from __future__ import annotations

import contextvars
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hand_rummy.cards import Card
from hand_rummy.errors import HandRummyError, InvalidStateError, WorkLimitError
from hand_rummy.melds import MeldRules, judge_meld
from hand_rummy.opening import judge_opening
from hand_rummy.position import FillBudget, position_state
from hand_rummy.referee.limits import JSON, LIMITS, LimitError, QuestionError, clip
from hand_rummy.referee.question import (
    check_keys,
    count_field,
    field,
    judgement_json,
    meld_json,
    name_of,
    question_card,
    question_cards,
    question_context,
    question_meld,
    question_roles,
    show_value,
    violations_json,
)
from hand_rummy.round import Round
from hand_rummy.rules.opening import OpeningExemption, OpeningRecord
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.scoring import (
    PlayerEnd,
    RoundEnd,
    check_copies,
    check_players,
    hand_value,
    score_round,
)
from hand_rummy.serialize import (
    action_from_json,
    action_to_json,
    breakdown_to_json,
    position_form_from_json,
    round_from_json,
)
from hand_rummy.table import LayoffContext, exchange, lay_off

# --- the questions -------------------------------------------------------------


def _ask_meld(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    check_keys(q, frozenset({"cards", "roles", "demoted"}))
    return judgement_json(judge_meld(question_meld(q, "cards"), rules))


def _per_meld(q: Mapping[str, Any], name: str, count: int, what: str) -> list[Any]:
    value = q.get(name)
    if value is None:
        return [None] * count
    if not isinstance(value, list) or len(value) != count:
        raise QuestionError("BAD_FIELD", f"{name!r} must be a list with {what} per meld")
    return value


def _ask_opening(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    check_keys(q, frozenset({"melds", "roles", "demoted", "required", "last_opening", "context"}))
    raw = field(q, "melds", list)
    if len(raw) > LIMITS.melds:
        raise LimitError("melds", f"'melds' holds {len(raw)} melds")
    roles = _per_meld(q, "roles", len(raw), "one object")
    demoted = [[] if d is None else d for d in _per_meld(q, "demoted", len(raw), "one list")]
    melds = [
        question_meld({"cards": cards, "roles": r, "demoted": d}, "cards")
        for cards, r, d in zip(raw, roles, demoted)
    ]
    _check_held([c for m in melds for c in m.cards], rules.ruleset, "'melds'")
    required = count_field(q, "required")
    last = count_field(q, "last_opening")
    opening = rules.ruleset.opening
    if last is not None and not opening.follows_openings:
        raise QuestionError(
            "BAD_FIELD",
            "'last_opening' applies only where each opening must beat the last one, "
            f"not under {rules.ruleset.title}: {opening.describe()}",
        )
    if last is not None and required is not None:
        raise QuestionError(
            "BAD_FIELD", "give 'required' or 'last_opening', not both: 'required' sets the bar"
        )
    if last is not None:
        _check_last_opening(last, rules.ruleset)
    context = question_context(q, ("going_out", "hand"))
    if required is None:
        # the asker is the player seated next after the last opener (seat 0 after seat 1 of
        # two), whom every reading of a beat-the-last bar binds
        openings = (OpeningRecord(1, 1, last),) if last is not None else ()
        required = opening.required(0, 0, openings, 2)
    exemption = rules.ruleset.opening_exemption
    hand = context.get("hand", False)
    going_out = context.get("going_out", False) or hand
    exempt = (exemption is OpeningExemption.GOING_OUT and going_out) or (
        exemption is OpeningExemption.HAND and hand
    )
    judged = judge_opening(melds, rules, required=required, exempt=exempt)
    return {
        "ok": judged.ok,
        "points": judged.points,
        "required": judged.required,
        "violations": violations_json(judged.verdict),
        "melds": [judgement_json(j) for j in judged.melds],
    }


def _check_last_opening(last: int, ruleset: Ruleset) -> None:
    """Refuse a last opening that no player could have laid: below the first opener's bar
    (a below-bar opening goes out, and the bar starts again with the next round), or worth
    more than the whole deck at its best values."""
    base = ruleset.opening.required(0, 0, (), 2)
    if base is not None and last < base:
        raise QuestionError(
            "BAD_FIELD", f"'last_opening' is {last}, below the {base} that any opening needs"
        )
    most = ruleset.opening_ceiling
    if last > most:
        raise QuestionError(
            "BAD_FIELD",
            f"'last_opening' is {last}, more than the whole deck could be worth in an opening "
            f"({most})",
        )


def _ask_hand_value(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    check_keys(q, frozenset({"cards"}))
    cards = question_cards(field(q, "cards", (list, str)), "'cards'")
    _check_held(cards, rules.ruleset, "'cards'")
    # the turned indicator is a card that no hand can also hold
    indicator = rules.wilds.indicator
    shown, where = cards, "'cards'"
    if indicator is not None:
        shown, where = (*cards, indicator), "'cards' and 'indicator'"
    try:
        check_copies(shown, rules.ruleset, where)
    except InvalidStateError as err:
        raise QuestionError("BAD_FIELD", str(err)) from None
    return {"points": hand_value(cards, rules)}


def _ask_layoff(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    check_keys(q, frozenset({"meld", "roles", "demoted", "cards", "card_roles", "context"}))
    meld = question_meld(q, "meld")
    cards = question_cards(field(q, "cards", (list, str)), "'cards'")
    roles = question_roles(q.get("card_roles"), len(cards), "'card_roles'")
    context = question_context(q, ("going_out", "one_card_announced", "announcing_one_card"))
    result = lay_off(meld, cards, rules, roles=roles, context=LayoffContext(**context))
    out: JSON = {"ok": result.ok}
    if result.meld is not None:
        out["meld"], out["roles"] = meld_json(result.meld)
    else:
        out["meld"], out["roles"] = None, {}
    out["violations"] = violations_json(result.verdict)
    return out


def _ask_exchange(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    check_keys(q, frozenset({"meld", "roles", "demoted", "cards"}))
    result = exchange(
        question_meld(q, "meld"), question_cards(field(q, "cards", (list, str)), "'cards'"), rules
    )
    out: JSON = {"ok": result.ok}
    if result.meld is not None:
        out["meld"], out["roles"] = meld_json(result.meld)
    else:
        out["meld"], out["roles"] = None, {}
    out["wild"] = result.wild.ascii if result.wild is not None else None
    out["violations"] = violations_json(result.verdict)
    return out


def _ask_round_score(q: Mapping[str, Any], rules: MeldRules) -> JSON:
    check_keys(
        q,
        frozenset(
            {
                "players",
                "went_out",
                "finish",
                "melded",
                "last_discard",
                "teams",
                "melded_demoted",
                "last_discard_demoted",
            }
        ),
    )
    raw = field(q, "players", list)
    # counted before any hand is read: the seats are bounded by the rules, teams or not
    try:
        check_players(len(raw), rules.ruleset)
    except InvalidStateError as err:
        raise QuestionError("BAD_FIELD", f"'players': {err}") from None
    players = []
    for i, p in enumerate(raw):
        if not isinstance(p, dict) or "hand" not in p:
            raise QuestionError(
                "BAD_FIELD", f"'players'[{i}] must be an object with 'hand' and 'opened'"
            )
        unknown = sorted(map(str, set(p) - {"hand", "opened", "demoted"}))
        if unknown:
            raise QuestionError(
                "BAD_FIELD",
                f"'players'[{i}]: unknown field {', '.join(map(name_of, unknown[:5]))}; "
                "a player has 'hand', 'opened' and 'demoted'",
            )
        opened = p.get("opened", False)
        if not isinstance(opened, bool):
            raise QuestionError(
                "BAD_FIELD",
                f"'players'[{i}].opened must be true or false, not {show_value(opened)}",
            )
        players.append(
            PlayerEnd(
                question_cards(p["hand"], f"'players'[{i}].hand"),
                opened,
                question_cards(p.get("demoted", []), f"'players'[{i}].demoted"),
            )
        )
    if "went_out" not in q:
        raise QuestionError("MISSING_FIELD", "the question needs 'went_out' (a seat, or null)")
    went_out = q["went_out"]
    if went_out is not None and (not isinstance(went_out, int) or isinstance(went_out, bool)):
        raise QuestionError(
            "BAD_FIELD", f"'went_out' must be a seat number or null, not {show_value(went_out)}"
        )
    last_demoted = field(q, "last_discard_demoted", bool, required=False) or False
    finish = q.get("finish", "normal")
    if finish not in ("normal", "hand"):
        raise QuestionError("BAD_FIELD", '\'finish\' must be "normal" or "hand"')
    melded = question_cards(q.get("melded", []), "'melded'")
    melded_demoted = question_cards(q.get("melded_demoted", []), "'melded_demoted'")
    last = q.get("last_discard")
    last_card = question_card(last, "'last_discard'") if last is not None else None
    teams = q.get("teams")
    if teams is not None and not (
        isinstance(teams, list)
        and all(
            isinstance(t, list)
            and all(isinstance(seat, int) and not isinstance(seat, bool) for seat in t)
            for t in teams
        )
    ):
        raise QuestionError(
            "BAD_FIELD",
            "'teams' must be a list of two or more teams, each a list of seat numbers",
        )
    _check_round_end(
        rules.ruleset,
        players,
        went_out=went_out,
        hand=finish == "hand",
        melded=melded,
        last_discard=last_card,
    )
    # the library checks the rest (the seats, the cards shown against the deck, who may
    # hold no card) and the referee answers its refusal as such
    try:
        end = RoundEnd(
            tuple(players),
            went_out,
            finish == "hand",
            melded,
            last_card,
            tuple(tuple(t) for t in teams) if teams is not None else None,
            melded_demoted,
            last_demoted,
        )
        score = score_round(end, rules)
    except InvalidStateError as err:
        raise QuestionError("BAD_FIELD", str(err)) from None
    out: JSON = {"scores": list(score.scores)}
    if score.team_scores is not None:
        out["team_scores"] = list(score.team_scores)
    out["scored"] = score.scored
    out["factor"] = score.factor
    return {**out, **breakdown_to_json(score)}


def _check_held(cards: Sequence[Card], ruleset: Ruleset, where: str) -> None:
    """Refuse more cards than one hand could hold (an opening, a hand's value, a seat's cards
    at the end of a round)."""
    most = ruleset.deal.most_held
    if len(cards) > most:
        raise QuestionError(
            "BAD_FIELD",
            f"{where} holds {len(cards)} cards; a hand holds at most {most} under {ruleset.title}",
        )


def _check_round_end(
    ruleset: Ruleset,
    players: Sequence[PlayerEnd],
    *,
    went_out: Any,
    hand: bool,
    melded: Sequence[Card],
    last_discard: Card | None,
) -> None:
    """Refuse an end of round that no round under ``ruleset`` reaches: a seat holding more
    cards than a hand can, or a Hand that its rules rule out (the library's scoring takes
    a described end as given; a round played by the engine never reaches these)."""
    for seat, player in enumerate(players):
        _check_held(player.hand, ruleset, f"'players'[{seat}].hand")
    if not hand or not isinstance(went_out, int) or not 0 <= went_out < len(players):
        return
    rule = ruleset.hand
    if rule.first_to_meld:
        others = [seat for seat, p in enumerate(players) if p.opened and seat != went_out]
        if others:
            raise QuestionError(
                "BAD_FIELD",
                f"a Hand goes out before any other player has melded, but seat "
                f"{others[0]} has opened",
            )
    if rule.all_melded and last_discard is not None:
        raise QuestionError(
            "BAD_FIELD",
            f"a Hand under {ruleset.title} lays every card on the table: it has no 'last_discard'",
        )
    laid = len(melded) + (last_discard is not None)
    if laid > ruleset.deal.most_held:
        raise QuestionError(
            "BAD_FIELD",
            f"a Hand lays one hand of at most {ruleset.deal.most_held} cards on the table "
            f"('melded' and 'last_discard'), not {laid}",
        )


ASKS: dict[str, Callable[[Mapping[str, Any], MeldRules], JSON]] = {
    "meld": _ask_meld,
    "opening": _ask_opening,
    "hand_value": _ask_hand_value,
    "layoff": _ask_layoff,
    "exchange": _ask_exchange,
    "round_score": _ask_round_score,
}
"""The questions about rules that the referee answers, by their ``"ask"``."""


def _action_limits(action: Any, where: str) -> None:
    """Refuse an action object too big to judge, before the serialiser reads it."""
    if not isinstance(action, dict):
        return
    melds = action.get("melds")
    if isinstance(melds, list):
        if len(melds) > LIMITS.melds:
            raise LimitError("melds", f"{where}.melds holds {len(melds)} melds")
        for i, meld in enumerate(melds):
            cards = meld.get("cards") if isinstance(meld, dict) else None
            if isinstance(cards, list) and len(cards) > LIMITS.cards:
                raise LimitError("cards", f"{where}.melds[{i}].cards holds {len(cards)} cards")
    cards = action.get("cards")
    if isinstance(cards, list) and len(cards) > LIMITS.cards:
        raise LimitError("cards", f"{where}.cards holds {len(cards)} cards")


def _round_limits(doc: Mapping[str, Any]) -> None:
    """Refuse a round document too big to replay; its types are the serialiser's to check."""
    deal = doc.get("deal")
    if isinstance(deal, dict):
        lists = [("stock", deal.get("stock")), ("discards", deal.get("discards"))]
        hands = deal.get("hands")
        if isinstance(hands, list):
            lists += [(f"hands[{i}]", h) for i, h in enumerate(hands[: LIMITS.cards + 1])]
        for name, cards in lists:
            if isinstance(cards, list) and len(cards) > LIMITS.cards:
                raise LimitError("cards", f"'round'.deal.{name} holds {len(cards)} cards")
    history = doc.get("history")
    if isinstance(history, list):
        if len(history) > LIMITS.history:
            raise LimitError("history", f"'round'.history holds {len(history)} actions")
        for i, action in enumerate(history):
            _action_limits(action, f"'round'.history[{i}]")


def _cards_limit(cards: Any, where: str) -> None:
    if isinstance(cards, list) and len(cards) > LIMITS.cards:
        raise LimitError("cards", f"{where} holds {len(cards)} cards")


def _position_limits(doc: Mapping[str, Any]) -> None:
    """Refuse a position document too big to read; its types are the serialiser's to check."""
    for name in ("discards", "stock"):
        _cards_limit(doc.get(name), f"'position'.{name}")
    players = doc.get("players")
    if isinstance(players, list):
        for i, player in enumerate(players[: LIMITS.cards + 1]):
            if isinstance(player, dict):
                for name in ("hand", "demoted"):
                    _cards_limit(player.get(name), f"'position'.players[{i}].{name}")
    table = doc.get("table")
    if isinstance(table, list):
        if len(table) > LIMITS.melds:
            raise LimitError("melds", f"'position'.table holds {len(table)} melds")
        for i, entry in enumerate(table):
            meld = entry.get("meld") if isinstance(entry, dict) else None
            if isinstance(meld, dict):
                _cards_limit(meld.get("cards"), f"'position'.table[{i}].meld.cards")
    current = doc.get("current")
    if isinstance(current, dict):
        _cards_limit(current.get("melded"), "'position'.current.melded")


def _read_game(q: Mapping[str, Any]) -> tuple[Round, str]:
    """The round of a question, from its ``round`` or its ``position`` document."""
    if "round" in q and "position" in q:
        raise QuestionError("BAD_FIELD", "give 'round' or 'position', not both")
    if "position" in q:
        doc = field(q, "position", dict)
        _position_limits(doc)
        shared = FILLS.get()
        # the question's own work, or what the array has left when that is less
        left = LIMITS.fill_work if shared is None else min(LIMITS.fill_work, shared.left)
        budget = FillBudget(left)
        try:
            state = position_state(position_form_from_json(doc), budget=budget)
        except WorkLimitError:
            raise  # the question's cost, not its form: refused as a limit
        except HandRummyError as err:
            if budget.spent:
                if shared is not None and shared.left < LIMITS.fill_work:
                    raise LimitError(
                        "array_fills",
                        "the positions before this one in the array and its own fills took "
                        f"the work of {LIMITS.array_fills} fills",
                    ) from None
                raise LimitError(
                    "fill_work",
                    f"the fills of the unlisted cards took the work of {LIMITS.fill_work} fills "
                    "and found none that leaves a legal move",
                ) from None
            raise QuestionError("BAD_POSITION", f"'position': {err}") from None
        finally:
            if shared is not None:
                shared.left -= left - budget.left
        return Round.from_state(state), "position"
    if "round" not in q:
        raise QuestionError("MISSING_FIELD", "the question needs 'round' or 'position'")
    doc = field(q, "round", dict)
    _round_limits(doc)
    try:
        return round_from_json(doc), "round"
    except WorkLimitError:
        raise  # the question's cost, not its form: refused as a limit
    except HandRummyError as err:
        raise QuestionError("BAD_ROUND", f"'round': {err}") from None


def _round(q: Mapping[str, Any]) -> Round:
    """The round (or position) document of a question, checked against its optional rules
    fields."""
    game, kind = _read_game(q)
    if "rules" in q:
        ruleset = game.ruleset
        variants = field(q, "variants", list, required=False) or []
        name = field(q, "rules", str)
        # variants apply in the catalogue's order whatever order they are named in, so the
        # question may name them in any order
        same = (
            name == ruleset.name
            and all(isinstance(v, str) for v in variants)
            and sorted(variants) == sorted(ruleset.variants)
        )
        if not same:
            given = "+".join([name, *map(show_value, variants[:5])])
            raise QuestionError(
                "BAD_FIELD",
                f"'rules' and 'variants' say {clip(given, 80)}, "
                f"but the {kind} is played under {ruleset.title}",
            )
    elif "variants" in q:
        raise QuestionError("BAD_FIELD", f"'variants' without 'rules'; the {kind} names its rules")
    if "indicator" in q:
        card = question_card(q["indicator"], "'indicator'") if q["indicator"] is not None else None
        if card != game.indicator:
            raise QuestionError(
                "BAD_INDICATOR", f"'indicator' differs from the indicator of the {kind}"
            )
    return game


def _ask_action(q: Mapping[str, Any]) -> JSON:
    check_keys(q, frozenset({"round", "position", "action"}))
    raw = field(q, "action", dict)
    _action_limits(raw, "'action'")
    game = _round(q)
    try:
        action = action_from_json(raw)
    except WorkLimitError:
        raise  # the question's cost, not its form: refused as a limit
    except HandRummyError as err:
        raise QuestionError("BAD_ACTION", f"'action': {err}") from None
    verdict = game.check(action)
    return {"ok": verdict.ok, "violations": violations_json(verdict)}


def _ask_legal_actions(q: Mapping[str, Any]) -> JSON:
    check_keys(q, frozenset({"round", "position", "offset", "limit"}))
    offset = count_field(q, "offset") or 0
    limit = count_field(q, "limit")
    if limit is None:
        limit = LIMITS.actions
    if limit > LIMITS.actions:
        raise LimitError("actions", f"'limit' asks for {limit} actions")
    if offset + limit > LIMITS.action_window:
        raise LimitError(
            "action_window", f"'offset' + 'limit' reaches action {offset + limit} of the list"
        )
    game = _round(q)
    # the generator is lazy: take the page and one more action, to say whether more follow,
    # without listing the rest (a crafted hand can have tens of thousands of lay-downs)
    page = list(itertools.islice(game.legal_actions(), offset, offset + limit + 1))
    return {
        "actions": [action_to_json(a) for a in page[:limit]],
        "offset": offset,
        "limit": limit,
        "more": len(page) > limit,
    }


ROUND_ASKS: dict[str, Callable[[Mapping[str, Any]], JSON]] = {
    "action": _ask_action,
    "legal_actions": _ask_legal_actions,
}
"""The questions about a round in play, by their ``"ask"``: the round or position document
names the rules."""


FILLS: contextvars.ContextVar[FillBudget | None] = contextvars.ContextVar("fills", default=None)
"""The fills that the positions of the array being answered may still deal again."""
