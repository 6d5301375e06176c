"""Position documents (``"format": "hand-rummy/position"``): a round as it stands, without
its deal or history, unknown cards left out (:doc:`/positions`)."""

from __future__ import annotations

from typing import Any

from hand_rummy.errors import expect
from hand_rummy.position import (
    AUTO,
    Auto,
    Position,
    PositionMeld,
    PositionSeat,
    PositionTurn,
    position_of,
    position_state,
)
from hand_rummy.round import Obligation, Phase, PlayerView, Round
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.scoring import seats_refusal
from hand_rummy.serialize.common import (
    JSON,
    POSITION_FORMAT,
    VERSION,
    check_format,
    fail,
    read_bool,
    read_cards,
    read_enum,
    read_fields,
    read_int,
    read_list,
    read_object,
    read_opt_bool,
    read_opt_card,
    read_opt_cards,
    read_opt_int,
    read_seat,
    read_seed,
)
from hand_rummy.serialize.parts import (
    card_list,
    meld_from_json,
    meld_to_json,
    rules_from_json,
    rules_to_json,
)

_POSITION_REQUIRED = ("format", "version", "rules", "players", "turn", "phase")
_POSITION_OPTIONAL = (
    "indicator",
    "dealer",
    "seed",
    "table",
    "discards",
    "discard_size",
    "stock",
    "stock_size",
    "current",
    "openings",
    "reshuffles",
)
_SEAT_FIELDS = (
    "hand",
    "hand_size",
    "demoted",
    "opened",
    "melded",
    "turns_played",
    "announced",
    "missed",
)
_POSITION_TURN_FIELDS = (
    "taken",
    "taken_demoted",
    "had_taken",
    "obligation",
    "freed",
    "laid_down",
    "laid_off",
    "laid_off_on_others",
    "exchanged_on_others",
    "melded",
    "first_turn_bare",
    "taken_meld",
)


def _seat_to_json(seat: PositionSeat) -> JSON:
    out: JSON = {}
    if seat.hand or seat.hand_size is None:
        out["hand"] = card_list(seat.hand)
    if seat.hand_size is not None:
        out["hand_size"] = seat.hand_size
    if seat.demoted is not None:
        out["demoted"] = card_list(seat.demoted)
    for name in ("opened", "melded", "turns_played", "announced"):
        if getattr(seat, name) is not None:
            out[name] = getattr(seat, name)
    if seat.missed:
        out["missed"] = True
    return out


def _position_turn_to_json(turn: PositionTurn) -> JSON:
    out: JSON = {}
    for name in ("taken", "freed"):
        card = getattr(turn, name)
        if card is not None:
            out[name] = card.ascii
    for name in ("taken_demoted", "had_taken"):
        if getattr(turn, name) is not None:
            out[name] = getattr(turn, name)
    if turn.obligation != AUTO:
        out["obligation"] = None if turn.obligation is None else turn.obligation.value
    for name in ("laid_down", "laid_off", "laid_off_on_others", "exchanged_on_others"):
        if getattr(turn, name):
            out[name] = True
    if turn.melded is not None:
        out["melded"] = card_list(turn.melded)
    if turn.first_turn_bare is not None:
        out["first_turn_bare"] = turn.first_turn_bare
    if turn.taken_meld is not None:
        out["taken_meld"] = turn.taken_meld
    return out


def position_to_json(value: Position | Round | PlayerView) -> JSON:
    """A position as a versioned document (``"format": "hand-rummy/position"``, version 1).

    A :class:`~hand_rummy.round.Round` or :class:`~hand_rummy.round.PlayerView`
    is written as its position (:func:`~hand_rummy.position.position_of`): a
    round with every card listed, a view with what its player sees. Fields at
    their defaults are left out, so the document says what the position says.

    >>> import hand_rummy as hr
    >>> doc = position_to_json(hr.Position(hr.rulesets.romme, ["KS QS", 12], turn=0,
    ...                                    phase=hr.Phase.DRAW, discards="2C"))
    >>> doc  # doctest: +NORMALIZE_WHITESPACE
    {'format': 'hand-rummy/position', 'version': 1, 'rules': {'preset': 'romme', 'variants': []},
     'players': [{'hand': ['KS', 'QS']}, {'hand_size': 12}], 'table': [], 'discards': ['2C'],
     'turn': 0, 'phase': 'draw'}
    >>> position_from_json(doc) == hr.Position(hr.rulesets.romme, ["KS QS", 12], turn=0,
    ...                                        phase=hr.Phase.DRAW, discards="2C")
    True
    """
    if isinstance(value, (Round, PlayerView)):
        value = position_of(value)
    expect(value, Position, "the position")
    doc: JSON = {"format": POSITION_FORMAT, "version": VERSION}
    doc["rules"] = rules_to_json(value.ruleset)
    if value.indicator is not None:
        doc["indicator"] = value.indicator.ascii
    if value.dealer:
        doc["dealer"] = value.dealer
    if value.seed:
        doc["seed"] = value.seed
    doc["players"] = [_seat_to_json(seat) for seat in value.players]
    doc["table"] = [
        {
            "id": m.id,
            "owner": m.owner,
            "meld": meld_to_json(m.meld),
            **({"kind": m.kind.value} if m.kind is not None else {}),
        }
        for m in value.table
    ]
    doc["discards"] = card_list(value.discards)
    if value.discard_size is not None:
        doc["discard_size"] = value.discard_size
    if value.stock:
        doc["stock"] = card_list(value.stock)
    if value.stock_size is not None:
        doc["stock_size"] = value.stock_size
    doc["turn"] = value.turn
    doc["phase"] = value.phase.value
    current = _position_turn_to_json(value.current)
    if current:
        doc["current"] = current
    if value.openings is not None:
        doc["openings"] = [{"seat": seat, "points": points} for seat, points in value.openings]
    if value.reshuffles:
        doc["reshuffles"] = value.reshuffles
    return doc


def _seat_from_json(value: Any, where: str) -> PositionSeat:
    obj = read_fields(value, where, (), _SEAT_FIELDS)
    if "hand" not in obj and "hand_size" not in obj:
        fail(where, "missing field 'hand' or 'hand_size': give the cards, or how many")
    return PositionSeat(
        hand=read_cards(obj.get("hand", []), f"{where}.hand"),
        hand_size=read_opt_int(obj, "hand_size", where),
        demoted=read_opt_cards(obj, "demoted", where),
        opened=read_opt_bool(obj, "opened", where),
        melded=read_opt_bool(obj, "melded", where),
        turns_played=read_opt_int(obj, "turns_played", where),
        announced=read_opt_int(obj, "announced", where),
        missed=read_bool(obj.get("missed", False), f"{where}.missed"),
    )


def _position_table_from_json(value: Any, where: str, players: int) -> tuple[PositionMeld, ...]:
    table = []
    for i, raw in enumerate(read_list(value, where)):
        at = f"{where}[{i}]"
        obj = read_fields(raw, at, ["id", "owner", "meld"], ["kind"])
        kind = obj.get("kind")
        table.append(
            PositionMeld(
                read_int(obj["id"], f"{at}.id", 1),
                read_seat(obj["owner"], f"{at}.owner", players),
                meld_from_json(obj["meld"], f"{at}.meld"),
                None if kind is None else read_enum(MeldKind, kind, f"{at}.kind"),
            )
        )
    return tuple(table)


def _position_turn_from_json(value: Any, where: str) -> PositionTurn:
    obj = read_fields(value, where, (), _POSITION_TURN_FIELDS)
    obligation: Obligation | Auto | None = AUTO
    if "obligation" in obj:
        raw = obj["obligation"]
        obligation = None if raw is None else read_enum(Obligation, raw, f"{where}.obligation")
    return PositionTurn(
        taken=read_opt_card(obj.get("taken"), f"{where}.taken"),
        taken_demoted=read_opt_bool(obj, "taken_demoted", where),
        had_taken=read_opt_bool(obj, "had_taken", where),
        obligation=obligation,
        freed=read_opt_card(obj.get("freed"), f"{where}.freed"),
        laid_down=read_bool(obj.get("laid_down", False), f"{where}.laid_down"),
        laid_off=read_bool(obj.get("laid_off", False), f"{where}.laid_off"),
        laid_off_on_others=read_bool(
            obj.get("laid_off_on_others", False), f"{where}.laid_off_on_others"
        ),
        exchanged_on_others=read_bool(
            obj.get("exchanged_on_others", False), f"{where}.exchanged_on_others"
        ),
        melded=read_opt_cards(obj, "melded", where),
        first_turn_bare=read_opt_bool(obj, "first_turn_bare", where),
        taken_meld=read_opt_int(obj, "taken_meld", where),
    )


def _position_openings_from_json(
    value: Any, where: str, ruleset: Ruleset, players: int
) -> tuple[tuple[int, int], ...]:
    teams = ruleset.players.teams(players)
    out = []
    for i, raw in enumerate(read_list(value, where)):
        at = f"{where}[{i}]"
        obj = read_fields(raw, at, ["seat", "points"], ["team"])
        seat = read_seat(obj["seat"], f"{at}.seat", players)
        if "team" in obj:
            team = read_int(obj["team"], f"{at}.team", 0)
            if team >= len(teams) or seat not in teams[team]:
                fail(f"{at}.team", f"{team}, but seat {seat} does not play in team {team}")
        out.append((seat, read_int(obj["points"], f"{at}.points", 0)))
    return tuple(out)


def position_from_json(value: Any) -> Position:
    """Read a position document: its form, and then the position itself.

    Checked: ``format`` and ``version``; every field, its type and no unknown
    field; the rules; the number of players (allowed by the rules); card
    strings; seats in range; and then everything that
    :func:`~hand_rummy.position.position_state` checks (the cards against the
    deck, the phase, the turn so far, the table melds, ...), each refusal
    naming its field (``players[1].hand_size: ...``).
    """
    position = position_form_from_json(value)
    position_state(position)
    return position


def position_form_from_json(value: Any) -> Position:
    """Read a position document's form only, as :func:`position_from_json` does before it
    checks the position itself: for a caller who builds the round with
    :func:`~hand_rummy.position.position_state` next, which checks it then (once)."""
    obj = read_object(value, "document")
    check_format(obj, POSITION_FORMAT)
    obj = read_fields(obj, "document", _POSITION_REQUIRED, _POSITION_OPTIONAL)
    ruleset = rules_from_json(obj["rules"])
    raw_players = read_list(obj["players"], "players")
    players = len(raw_players)
    if not ruleset.players.allows(players):
        fail("players", seats_refusal(players, ruleset))
    return Position(
        ruleset,
        [_seat_from_json(p, f"players[{i}]") for i, p in enumerate(raw_players)],
        read_seat(obj["turn"], "turn", players),
        read_enum(Phase, obj["phase"], "phase"),
        table=_position_table_from_json(obj.get("table", []), "table", players),
        discards=read_cards(obj.get("discards", []), "discards"),
        discard_size=read_opt_int(obj, "discard_size"),
        stock=read_cards(obj.get("stock", []), "stock"),
        stock_size=read_opt_int(obj, "stock_size"),
        indicator=read_opt_card(obj.get("indicator"), "indicator"),
        dealer=read_seat(obj.get("dealer", 0), "dealer", players),
        current=_position_turn_from_json(obj.get("current", {}), "current"),
        openings=None
        if "openings" not in obj
        else _position_openings_from_json(obj["openings"], "openings", ruleset, players),
        reshuffles=read_int(obj.get("reshuffles", 0), "reshuffles", 0),
        seed=read_seed(obj.get("seed", 0), "seed"),
    )
