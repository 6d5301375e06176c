"""Match documents (``"format": "hand-rummy/match"``): the rounds played, each a round
document, and the match's state, which reading checks against the replay."""

from __future__ import annotations

from typing import Any

from hand_rummy.errors import CardParseError, InvalidStateError, expect
from hand_rummy.match import Deal, Match
from hand_rummy.round import Round
from hand_rummy.rules.match import MAX_LENGTH
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.scoring import seats_refusal
from hand_rummy.serialize.common import (
    JSON,
    MATCH_FORMAT,
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
)
from hand_rummy.serialize.parts import card_list, rules_from_json, rules_to_json
from hand_rummy.serialize.rounds import compare_snapshot, round_from_json, round_to_json


def _deal_to_json(deal: Deal) -> JSON:
    return {
        "hands": [card_list(h) for h in deal.hands],
        "stock": card_list(deal.stock),
        "discards": card_list(deal.discards),
        "indicator": None if deal.indicator is None else deal.indicator.ascii,
    }


def _deal_from_json(value: Any, where: str) -> Deal:
    obj = read_fields(value, where, ["hands", "stock", "discards", "indicator"])
    hands = read_list(obj["hands"], f"{where}.hands")
    return Deal(
        tuple(read_cards(h, f"{where}.hands[{i}]") for i, h in enumerate(hands)),
        read_cards(obj["stock"], f"{where}.stock"),
        read_cards(obj["discards"], f"{where}.discards"),
        read_opt_card(obj["indicator"], f"{where}.indicator"),
    )


def _match_state(match: Match) -> JSON:
    team_totals = match.team_totals
    return {
        "over": match.is_over,
        "totals": list(match.totals),
        "team_totals": None if team_totals is None else list(team_totals),
        "winners": list(match.winners),
    }


def match_to_json(match: Match) -> JSON:
    """A match as a versioned document (``"format": "hand-rummy/match"``, version 1).

    It holds the rules, the player count, the seed, the first dealer, the
    length in force, the explicit deals (``"deals"``, only when the match was
    started from some), every finished round (``"rounds"``) and the round in
    play (``"current"``, ``null`` once the match is over), each as a round
    document (:func:`round_to_json`), and a snapshot of the totals
    (``"state"``) that :func:`match_from_json` checks against the replay.

    >>> import hand_rummy as hr
    >>> m = hr.Match.new(hr.rulesets.gulf, 4, seed=3, length=100)
    >>> doc = match_to_json(m)
    >>> doc["format"], doc["first_dealer"], doc["length"], len(doc["rounds"])
    ('hand-rummy/match', 0, 100, 0)
    >>> match_from_json(doc) == m
    True
    """
    expect(match, Match, "the match")
    doc: JSON = {
        "format": MATCH_FORMAT,
        "version": VERSION,
        "rules": rules_to_json(match.ruleset),
        "players": match.players,
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "length": match.length,
    }
    if match.deals:
        doc["deals"] = [_deal_to_json(d) for d in match.deals]
    doc["rounds"] = [round_to_json(g) for g in match.rounds]
    doc["current"] = None if match.current is None else round_to_json(match.current)
    doc["state"] = _match_state(match)
    return doc


def _match_round(value: Any, where: str, ruleset: Ruleset) -> Round:
    try:
        game = round_from_json(value)
    except InvalidStateError as err:
        fail(where, str(err))
    except CardParseError as err:
        raise CardParseError(f"{where}: {err}", err.text, err.position) from None
    if game.ruleset != ruleset:
        fail(f"{where}.rules", "the round is played under other rules than the match")
    return game


def _same_deal(game: Round, expected: Round, where: str) -> None:
    if game.dealer != expected.dealer:
        fail(
            f"{where}.dealer",
            f"seat {game.dealer} deals here, but the match rules give the deal to seat "
            f"{expected.dealer}",
        )
    if game.seed != expected.seed:
        fail(
            f"{where}.seed",
            f"{game.seed} here, but the match deals this round with seed {expected.seed}",
        )
    if game.start != expected.start or game.indicator != expected.indicator:
        fail(f"{where}.deal", "is not the deal that the match's seed (or deals) gives")


def match_from_json(value: Any) -> Match:
    """Read a match document: validate it, start the match again and replay every round.

    Checked, besides every field and its type: the rules, the player count,
    the first dealer, the length and the explicit deals; that each round
    document is valid on its own (:func:`round_from_json`), is played under
    the match's rules, and is the round the match deals at that point (its
    dealer, by the match's rotation, its seed and its deal); that every round
    in ``"rounds"`` is finished and the match goes on after it except after
    the last one when ``"current"`` is ``null``; that ``"current"`` is in play;
    and that the ``"state"`` snapshot (when given) equals the replayed totals.
    """
    obj = read_object(value, "document")
    check_format(obj, MATCH_FORMAT)
    obj = read_fields(
        obj,
        "document",
        ["format", "version", "rules", "players", "seed", "first_dealer", "length", "rounds"],
        ["deals", "current", "state"],
    )
    ruleset = rules_from_json(obj["rules"])
    players = read_int(obj["players"], "players")
    if not ruleset.players.allows(players):
        fail("players", seats_refusal(players, ruleset))
    seed = read_seed(obj["seed"], "seed")
    first_dealer = read_seat(obj["first_dealer"], "first_dealer", players)
    length = read_int(obj["length"], "length", 1, MAX_LENGTH)
    deals = tuple(
        _deal_from_json(d, f"deals[{i}]")
        for i, d in enumerate(read_list(obj.get("deals", []), "deals"))
    )
    for i, deal in enumerate(deals):
        if len(deal.hands) != players:
            fail(f"deals[{i}].hands", f"has {len(deal.hands)} hands; the match has {players}")
    try:
        # a document records the length its match was played to, custom or not
        match = Match.new(
            ruleset,
            players,
            seed,
            dealer=first_dealer,
            length=length,
            custom_length=True,
            deals=deals,
        )
    except InvalidStateError as err:
        fail("deals[0]", str(err))
    raw_rounds = read_list(obj["rounds"], "rounds")
    current = obj.get("current")
    docs = [(f"rounds[{i}]", r, True) for i, r in enumerate(raw_rounds)]
    if current is not None:
        docs.append(("current", current, False))
    for where, raw, finished in docs:
        game = _match_round(raw, where, ruleset)
        if match.current is None:
            fail(where, f"the match was over after {len(match.rounds)} rounds")
        _same_deal(game, match.current, where)
        if finished and not game.is_over:
            fail(where, "is not finished; the round in play belongs in 'current'")
        if not finished and game.is_over:
            fail(where, "is finished; a finished round belongs in 'rounds'")
        played = len(match.rounds)
        try:
            for action in game.history:
                match = match.apply(action)
        except InvalidStateError as err:
            # the next round's explicit deal does not fit its dealer
            fail(f"deals[{played + 1}]", str(err))
    if match.current is not None and current is None:
        fail(
            "current",
            f"is missing, but the match is not over after {len(match.rounds)} rounds "
            f"(totals {list(match.totals)})",
        )
    if "state" in obj:
        try:
            compare_snapshot(obj["state"], _match_state(match), "state")
        except InvalidStateError as err:
            raise InvalidStateError(str(err).replace("replayed round", "replayed match")) from None
    return match
