"""Round documents (``"format": "hand-rummy/round"``): the rules, the deal, the history and
a snapshot of the position, which reading checks against the replayed round."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, NoReturn

from hand_rummy.cards import parse_card
from hand_rummy.errors import CardParseError, IllegalActionError, InvalidStateError, expect
from hand_rummy.round import Round
from hand_rummy.scoring import seats_refusal
from hand_rummy.serialize.common import (
    JSON,
    ROUND_FORMAT,
    VERSION,
    check_format,
    fail,
    read_cards,
    read_fields,
    read_int,
    read_list,
    read_object,
    read_opt_card,
    read_seat,
    read_seed,
    show_json,
)
from hand_rummy.serialize.parts import (
    action_to_json,
    card_list,
    history_from_json,
    history_to_json,
    openings_to_json,
    outcome_to_json,
    rules_from_json,
    rules_to_json,
    rules_with_indicator,
    table_to_json,
    turn_to_json,
)


def _state(game: Round) -> JSON:
    return {
        "turn": game.turn,
        "phase": game.phase.value,
        "hands": [card_list(game.hand(s)) for s in range(game.players)],
        "stock": card_list(game.stock),
        "discards": card_list(game.discards),
        "table": table_to_json(game.table),
        "opened": list(game.opened),
        "melded": list(game.melded),
        "openings": openings_to_json(game.openings),
        "turns_played": list(game.turns_played),
        "announced": list(game.announced),
        "missed": list(game.missed),
        "demoted": [card_list(d) for d in game.demoted],
        "current": turn_to_json(game.current),
        "reshuffles": game.reshuffles,
        "redeal_queue": list(game.redeal_queue),
        "outcome": outcome_to_json(game.outcome),
    }


def round_to_json(game: Round) -> JSON:
    """A round as a versioned document: rules, deal, history and a snapshot of the position.

    The ``"deal"`` holds every hand as dealt, the stock bottom first (top
    last), the discard pile and the indicator. ``"state"`` repeats the
    current position (hands sorted, table melds in table form, the outcome
    once the round is over), so that a reader without the engine can show it;
    :func:`round_from_json` checks it against the replay.
    """
    expect(game, Round, "the round")
    if len(game.start) != game.players + 2:
        raise InvalidStateError(
            "this round has no recorded deal (it was built from a position, or sampled from a "
            "view), so it cannot be written as a round document, which is replayed from its "
            "deal; write it as a position document with position_to_json"
        )
    *hands, stock, discards = game.start
    return {
        "format": ROUND_FORMAT,
        "version": VERSION,
        "rules": rules_to_json(game.ruleset),
        "players": game.players,
        "dealer": game.dealer,
        "seed": game.seed,
        "deal": {
            "hands": [card_list(h) for h in hands],
            "stock": card_list(stock),
            "discards": card_list(discards),
            "indicator": game.indicator.ascii if game.indicator is not None else None,
        },
        "history": history_to_json(game.history),
        "state": _state(game),
    }


def round_from_json(value: Any) -> Round:
    """Read a round document: validate it, deal, replay the history, check the snapshot.

    Checked, in order: ``format`` and ``version``; that every field is
    present with the right type and no unknown field is given; the rules;
    the player count (allowed by the rules), dealer seat and seed; every card
    string; the indicator (present exactly where the rules turn one); the deal
    (every card of the deck exactly once, hand sizes as the rules deal them,
    both by :meth:`~hand_rummy.round.Round.from_deal`); every action of the
    history, which must be legal in turn (an illegal one is reported with its
    index and the verdict); and, when ``"state"`` is given, that every part of
    it equals the replayed position (hands compared as sets of cards).
    """
    obj = read_object(value, "document")
    check_format(obj, ROUND_FORMAT)
    obj = read_fields(
        obj,
        "document",
        ["format", "version", "rules", "players", "dealer", "seed", "deal", "history"],
        ["state"],
    )
    ruleset = rules_from_json(obj["rules"])
    players = read_int(obj["players"], "players")
    if not ruleset.players.allows(players):
        fail("players", seats_refusal(players, ruleset))
    dealer = read_seat(obj["dealer"], "dealer", players)
    seed = read_seed(obj["seed"], "seed")
    deal = read_fields(obj["deal"], "deal", ["hands", "stock", "discards", "indicator"])
    raw_hands = read_list(deal["hands"], "deal.hands")
    if len(raw_hands) != players:
        fail("deal.hands", f"has {len(raw_hands)} hands; the document has {players} players")
    hands = [read_cards(h, f"deal.hands[{i}]") for i, h in enumerate(raw_hands)]
    stock = read_cards(deal["stock"], "deal.stock")
    discards = read_cards(deal["discards"], "deal.discards")
    indicator = read_opt_card(deal["indicator"], "deal.indicator")
    rules_with_indicator(ruleset, indicator, "deal.indicator")
    try:
        game = Round.from_deal(
            ruleset, hands, stock, discards=discards, indicator=indicator, dealer=dealer, seed=seed
        )
    except InvalidStateError as err:
        fail("deal", str(err))
    for index, action in enumerate(history_from_json(obj["history"], "history")):
        try:
            game = game.apply(action)
        except IllegalActionError as err:
            codes = ", ".join(v.code.value for v in err.verdict.violations)
            fail(
                f"history[{index}]",
                f"{action} ({show_json(action_to_json(action))}) is illegal in the replayed round "
                f"(seat {game.turn} to move, phase {game.phase.value}): {err} [{codes}]",
            )
    if "state" in obj:
        compare_snapshot(obj["state"], _state(game), "state")
    return game


_MULTISET = re.compile(r"state\.hands\[\d+\]")


def _canonical(value: Any) -> Any:
    """A string that reads as a card, in ASCII notation; anything else unchanged."""
    if isinstance(value, str):
        try:
            return parse_card(value).ascii
        except CardParseError:
            return value
    return value


def _mismatch(where: str, given: Any, replayed: Any) -> NoReturn:
    raise InvalidStateError(
        f"{where} does not match the replayed round: {show_json(given)} here, "
        f"{show_json(replayed)} in the replay"
    )


def compare_snapshot(given: Any, replayed: Any, where: str) -> None:
    """Refuse a snapshot (``given``) that differs from the ``replayed`` round's anywhere,
    naming the first place (a hand compared as a multiset, card names in any notation)."""
    if isinstance(replayed, dict):
        if not isinstance(given, dict):
            _mismatch(where, given, replayed)
        obj = read_fields(given, where, list(replayed))
        for key, value in replayed.items():
            compare_snapshot(obj[key], value, f"{where}.{key}")
        return
    if isinstance(replayed, list):
        if not isinstance(given, list):
            _mismatch(where, given, replayed)
        if all(isinstance(v, str) for v in replayed) and all(isinstance(v, str) for v in given):
            ours = [_canonical(v) for v in given]
            if _MULTISET.fullmatch(where):
                if Counter(ours) != Counter(replayed):
                    _mismatch(where, given, replayed)
            elif ours != replayed:
                _mismatch(where, given, replayed)
            return
        if len(given) != len(replayed):
            _mismatch(where, given, replayed)
        for i, (mine, theirs) in enumerate(zip(given, replayed)):
            compare_snapshot(mine, theirs, f"{where}[{i}]")
        return
    same_type = type(given) is type(replayed)
    if not same_type or _canonical(given) != replayed:
        _mismatch(where, given, replayed)
