"""Versioned JSON documents for actions, rounds and player views.

Everything here turns library values into plain JSON values (``dict``,
``list``, ``str``, ``int``, ``bool``, ``None``) and back. Cards are written in
ASCII notation (``"10H"``, ``"JK"``); reading accepts any notation that
:func:`~hand_rummy.cards.parse_card` accepts.

* A meld is ``{"cards": [...], "roles": {"1": "8H"}, "demoted": [...]}``
  (``roles`` and ``demoted`` are left out when empty).
* An action is an object with a ``"type"``: ``draw``, ``take``, ``lay_down``
  (``melds``), ``lay_off`` (``target``, ``card``, optional ``role``),
  ``exchange`` (``target``, ``cards``), ``discard`` (``card``, optional
  ``announce``), ``claim_redeal`` or ``pass_redeal``.
* A ruleset is ``{"preset": "levant", "variants": ["opening_71"]}``. Only a
  preset with named variants can be written: a ruleset changed with
  :meth:`~hand_rummy.rules.ruleset.Ruleset.with_` has no name to write.
* A round (``"format": "hand-rummy/round"``, version 1) is its rules, the
  deal, the history of actions and a snapshot of the current position
  (``"state"``). Reading deals again with
  :meth:`~hand_rummy.round.Round.from_deal`, replays the history with
  :meth:`~hand_rummy.round.Round.apply` and checks that the snapshot (when
  present) matches the replayed position, so a document whose parts disagree
  is refused.
* A player view (``"format": "hand-rummy/view"``, version 1) is everything
  in a :class:`~hand_rummy.round.PlayerView`, a finished round's scores line by
  line included (as :func:`breakdown_to_json` writes them), since no replay can
  rebuild them from a view.
* A position (``"format": "hand-rummy/position"``, version 1) is a
  :class:`~hand_rummy.position.Position`: a round as it stands, without its deal
  or history, in which unknown cards may be left out (:doc:`/positions`).

Reading a malformed document raises
:class:`~hand_rummy.errors.InvalidStateError`, or
:class:`~hand_rummy.errors.CardParseError` for a card that cannot be read;
the message starts with where the problem is (``history[3].card: ...``).

>>> import hand_rummy as hr
>>> action_to_json(hr.LayOff(3, hr.parse_card("JK"), role=hr.parse_card("8H")))
{'type': 'lay_off', 'target': 3, 'card': 'JK', 'role': '8H'}
>>> action_from_json({"type": "discard", "card": "KS"})
Discard(card=Card.parse('KS'), announce=False, demoted=False)
>>> game = hr.Round.deal(hr.rulesets.romme, 2, seed=1)
>>> game = game.apply(hr.Discard(hr.parse_card("6C")))
>>> doc = round_to_json(game)
>>> doc["format"], doc["version"], doc["rules"], doc["history"]
('hand-rummy/round', 1, {'preset': 'romme', 'variants': []}, [{'type': 'discard', 'card': '6C'}])
>>> round_from_json(doc) == game
True
>>> doc["state"]["turn"] = 0
>>> round_from_json(doc)
Traceback (most recent call last):
...
hand_rummy.errors.InvalidStateError: state.turn does not match the replayed round: 0 here, 1 in ...
"""

from __future__ import annotations

import enum
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NoReturn, TypeVar

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
from hand_rummy.cards import Card, parse_card
from hand_rummy.errors import (
    SEED_DIGITS,
    CardParseError,
    IllegalActionError,
    InvalidStateError,
    UnknownRulesError,
    expect,
    expect_seed,
    number,
    shown,
)
from hand_rummy.legal import LegalActions
from hand_rummy.match import Deal, Match
from hand_rummy.melds import Meld, MeldRules
from hand_rummy.position import (
    AUTO,
    Auto,
    Position,
    PositionMeld,
    PositionSeat,
    PositionTurn,
    check_position,
    position_of,
    position_state,
    table_form,
)
from hand_rummy.round import (
    Ending,
    Obligation,
    Outcome,
    Phase,
    PlayerView,
    Round,
    TableMeld,
    TurnState,
)
from hand_rummy.rulebook import lookup
from hand_rummy.rules.match import MAX_LENGTH
from hand_rummy.rules.opening import OpeningRecord
from hand_rummy.rules.presets import PRESETS, build
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.scoring import (
    PlayerScore,
    RoundScore,
    ScoreBasis,
    ScoreFactor,
    TeamScore,
    seats_refusal,
)
from hand_rummy.state import cards_at, counts_of, slots_of, taken_meld_problem
from hand_rummy.verdict import Citation
from hand_rummy.visibility import sampled

__all__ = [
    "MATCH_FORMAT",
    "POSITION_FORMAT",
    "ROUND_FORMAT",
    "VERSION",
    "VIEW_FORMAT",
    "action_from_json",
    "action_to_json",
    "breakdown_to_json",
    "card_from_json",
    "dumps",
    "loads",
    "match_from_json",
    "match_to_json",
    "meld_from_json",
    "meld_to_json",
    "position_form_from_json",
    "position_from_json",
    "position_to_json",
    "round_from_json",
    "round_to_json",
    "rules_from_json",
    "rules_to_json",
    "view_from_json",
    "view_to_json",
]

JSON = dict[str, Any]

ROUND_FORMAT = "hand-rummy/round"
"""The ``"format"`` of a round document."""
VIEW_FORMAT = "hand-rummy/view"
"""The ``"format"`` of a player-view document."""
MATCH_FORMAT = "hand-rummy/match"
"""The ``"format"`` of a match document."""
POSITION_FORMAT = "hand-rummy/position"
"""The ``"format"`` of a position document."""
VERSION = 1
"""The version of the round, view, match and position documents that this library writes and
reads."""

_E = TypeVar("_E", bound=enum.Enum)


# --- reading helpers -----------------------------------------------------------------


def _fail(where: str, message: str) -> NoReturn:
    raise InvalidStateError(f"{where}: {message}")


def _show(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON: given from Python
        return f"a {type(value).__name__}"


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        _fail(where, f"expected an object, not {_show(value)}")
    return value


def _fields(
    value: Any, where: str, required: Sequence[str], optional: Sequence[str] = ()
) -> Mapping[str, Any]:
    obj = _obj(value, where)
    missing = [k for k in required if k not in obj]
    if missing:
        _fail(where, "missing field " + ", ".join(repr(k) for k in missing))
    unknown = sorted(shown(k) for k in obj if k not in required and k not in optional)
    if unknown:
        _fail(where, "unknown field " + ", ".join(unknown))
    return obj


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        _fail(where, f"expected a list, not {_show(value)}")
    return value


def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        _fail(where, f"expected a whole number, not {_show(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low}" if high is None else f"from {low} to {high}"
        _fail(where, f"{number(value)} is out of range ({span})")
    return value


def _seed(value: Any, where: str) -> int:
    # a seed as Round.deal takes one: a document's longer seed names no deal the library
    # makes, and one of more than 4,300 digits could not be written back
    seed = _int(value, where)
    try:
        expect_seed(seed)
    except InvalidStateError as err:
        _fail(where, str(err))
    return seed


def _seat(value: Any, where: str, players: int) -> int:
    return _int(value, where, 0, players - 1)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        _fail(where, f"expected true or false, not {_show(value)}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        _fail(where, f"expected a string, not {_show(value)}")
    return value


def _enum(kind: type[_E], value: Any, where: str) -> _E:
    text = _str(value, where)
    for member in kind:
        if member.value == text:
            return member
    known = ", ".join(repr(m.value) for m in kind)
    _fail(where, f"{_show(value)} is not one of {known}")


def card_from_json(value: Any, where: str = "card") -> Card:
    """Read one card written as a string; ``where`` names it in error messages.

    >>> card_from_json("10H"), card_from_json("jk")
    (Card.parse('10H'), Card.parse('JK'))
    >>> card_from_json("1OH", "deal.stock[4]")
    Traceback (most recent call last):
    ...
    hand_rummy.errors.CardParseError: deal.stock[4]: '1OH' at position 0 is not a card: ...
    """
    if not isinstance(value, str):
        raise CardParseError(
            f"{where}: a card is a string like '10H', not {_show(value)}", _show(value), 0
        )
    try:
        return parse_card(value)
    except CardParseError as err:
        raise CardParseError(f"{where}: {err}", err.text, err.position) from None


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    return tuple(card_from_json(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


def _opt_card(value: Any, where: str) -> Card | None:
    return None if value is None else card_from_json(value, where)


def _ints(value: Any, where: str, low: int = 0) -> tuple[int, ...]:
    return tuple(_int(v, f"{where}[{i}]", low) for i, v in enumerate(_list(value, where)))


def _bools(value: Any, where: str) -> tuple[bool, ...]:
    return tuple(_bool(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


def _sized(values: tuple[Any, ...], where: str, players: int) -> None:
    if len(values) != players:
        _fail(where, f"has {len(values)} entries; the round has {players} players")


def _format(obj: Mapping[str, Any], want: str) -> None:
    if "format" not in obj:
        _fail("document", f"missing field 'format' (expected {want!r})")
    if obj["format"] != want:
        _fail("format", f"expected {want!r}, not {_show(obj['format'])}")
    if "version" not in obj:
        _fail("document", "missing field 'version'")
    version = obj["version"]
    if version != VERSION or isinstance(version, bool):
        _fail(
            "version",
            f"unsupported version {_show(version)} of {want}; this library reads {VERSION}",
        )


# --- cards, melds, rules -----------------------------------------------------------------


def _card_list(cards: Sequence[Card]) -> list[str]:
    return [c.ascii for c in cards]


def meld_to_json(meld: Meld) -> JSON:
    """A meld as ``{"cards": [...], "roles": {...}, "demoted": [...]}`` (empty parts left out).

    >>> import hand_rummy as hr
    >>> meld_to_json(hr.Meld.of("7H AC 9H", roles={1: "8H"}))
    {'cards': ['7H', 'AC', '9H'], 'roles': {'1': '8H'}}
    """
    expect(meld, Meld, "the meld")
    out: JSON = {"cards": _card_list(meld.cards)}
    roles = {str(i): r.ascii for i, r in enumerate(meld.roles) if r is not None}
    if roles:
        out["roles"] = roles
    if meld.demoted:
        out["demoted"] = sorted(meld.demoted)
    return out


def meld_from_json(value: Any, where: str = "meld") -> Meld:
    """Read a meld written by :func:`meld_to_json`."""
    obj = _fields(value, where, ["cards"], ["roles", "demoted"])
    cards = _cards(obj["cards"], f"{where}.cards")
    roles: list[Card | None] = [None] * len(cards)
    raw_roles = _obj(obj.get("roles", {}), f"{where}.roles")
    for key, role in raw_roles.items():
        if not (isinstance(key, str) and re.fullmatch(r"0|[1-9][0-9]*", key)):
            _fail(f"{where}.roles", f"{key!r} is not a position in the meld")
        # the length first: int() refuses keys of more than 4,300 digits
        if len(key) > len(str(len(cards))) or int(key) >= len(cards):
            place = key if len(key) <= 20 else f"{key[:20]}…"
            _fail(f"{where}.roles", f"position {place} lies outside the {len(cards)}-card meld")
        roles[int(key)] = card_from_json(role, f"{where}.roles[{key!r}]")
    demoted = _ints(obj.get("demoted", []), f"{where}.demoted")
    for i, position in enumerate(demoted):
        if position >= len(cards):
            _fail(
                f"{where}.demoted[{i}]",
                f"position {position} lies outside the {len(cards)}-card meld",
            )
    if len(set(demoted)) != len(demoted):
        _fail(f"{where}.demoted", "lists a position twice")
    return Meld(cards, tuple(roles), frozenset(demoted))


def rules_to_json(ruleset: Ruleset) -> JSON:
    """A ruleset by name: ``{"preset": ..., "variants": [...]}``.

    Raises :class:`~hand_rummy.errors.InvalidStateError` for a ruleset that
    is not a preset with named variants applied (one changed with ``with_``).

    >>> import hand_rummy as hr
    >>> rules_to_json(hr.build("levant", ["opening_71"]))
    {'preset': 'levant', 'variants': ['opening_71']}
    >>> from hand_rummy.rules import FixedOpening
    >>> rules_to_json(hr.rulesets.levant.with_(opening=FixedOpening(60)))
    Traceback (most recent call last):
    ...
    hand_rummy.errors.InvalidStateError: cannot serialise the ruleset 'levant': ...
    """
    expect(ruleset, Ruleset, "the ruleset")
    try:
        named = build(ruleset.name, ruleset.variants)
    except UnknownRulesError as err:
        raise InvalidStateError(
            f"cannot serialise the ruleset {ruleset.title!r}: only a preset with named "
            f"variants can be written ({err})"
        ) from None
    if named != ruleset:
        raise InvalidStateError(
            f"cannot serialise the ruleset {ruleset.title!r}: it differs from the preset with "
            "those variants (changed with with_()?); only a preset with named variants "
            "can be written"
        )
    return {"preset": ruleset.name, "variants": list(ruleset.variants)}


def rules_from_json(value: Any, where: str = "rules") -> Ruleset:
    """Read a ruleset written by :func:`rules_to_json` (``variants`` may be left out)."""
    obj = _fields(value, where, ["preset"], ["variants"])
    preset = _str(obj["preset"], f"{where}.preset")
    raw = _list(obj.get("variants", []), f"{where}.variants")
    variants = [_str(v, f"{where}.variants[{i}]") for i, v in enumerate(raw)]
    if preset not in PRESETS:
        _fail(f"{where}.preset", str(UnknownRulesError(f"unknown rules {preset!r}")))
    try:
        return build(preset, variants)
    except UnknownRulesError as err:
        _fail(f"{where}.variants", str(err))


# --- actions ---------------------------------------------------------------------------

_SIMPLE: dict[str, type[DrawStock | TakeDiscard | ClaimRedeal | PassRedeal]] = {
    "draw": DrawStock,
    "take": TakeDiscard,
    "claim_redeal": ClaimRedeal,
    "pass_redeal": PassRedeal,
}
_TYPES = (
    "draw",
    "take",
    "lay_down",
    "lay_off",
    "exchange",
    "discard",
    "claim_redeal",
    "pass_redeal",
)


def _target(target: int) -> int:
    # as a seed is held: the referee reads numbers of up to 40 digits, and Python writes
    # none of more than 4,300
    if abs(target) >= 10**SEED_DIGITS:
        raise InvalidStateError(
            f"there is no meld {number(target)}: a document holds meld numbers of at most "
            f"{SEED_DIGITS} digits"
        )
    return target


def action_to_json(action: Action) -> JSON:
    """An action as a JSON object with a ``"type"``.

    >>> import hand_rummy as hr
    >>> action_to_json(hr.DrawStock())
    {'type': 'draw'}
    >>> action_to_json(hr.LayDown((hr.Meld.of("5H 6H 7H"),)))
    {'type': 'lay_down', 'melds': [{'cards': ['5H', '6H', '7H']}]}
    """
    expect_action(action)
    for name, kind in _SIMPLE.items():
        if isinstance(action, kind):
            return {"type": name}
    if isinstance(action, LayDown):
        return {"type": "lay_down", "melds": [meld_to_json(m) for m in action.melds]}
    if isinstance(action, LayOff):
        out: JSON = {"type": "lay_off", "target": _target(action.target), "card": action.card.ascii}
        if action.role is not None:
            out["role"] = action.role.ascii
        if action.demoted:
            out["demoted"] = True
        return out
    if isinstance(action, Exchange):
        target = _target(action.target)
        return {"type": "exchange", "target": target, "cards": _card_list(action.cards)}
    if isinstance(action, Discard):
        out = {"type": "discard", "card": action.card.ascii}
        if action.announce:
            out["announce"] = True
        if action.demoted:
            out["demoted"] = True
        return out
    raise InvalidStateError(f"not an action: {action!r}")


def action_from_json(value: Any, where: str = "action") -> Action:
    """Read an action written by :func:`action_to_json`; unknown fields are refused."""
    obj = _obj(value, where)
    if "type" not in obj:
        _fail(where, "missing field 'type'")
    kind = obj["type"]
    if not isinstance(kind, str):  # a list or an object cannot be looked up by name
        _fail(f"{where}.type", f"expected the name of an action type, not {_show(kind)}")
    if kind in _SIMPLE:
        _fields(obj, where, ["type"])
        return _SIMPLE[kind]()
    if kind == "lay_down":
        _fields(obj, where, ["type", "melds"])
        raw = _list(obj["melds"], f"{where}.melds")
        return LayDown(tuple(meld_from_json(m, f"{where}.melds[{i}]") for i, m in enumerate(raw)))
    if kind == "lay_off":
        _fields(obj, where, ["type", "target", "card"], ["role", "demoted"])
        return LayOff(
            _int(obj["target"], f"{where}.target"),
            card_from_json(obj["card"], f"{where}.card"),
            _opt_card(obj.get("role"), f"{where}.role"),
            _bool(obj.get("demoted", False), f"{where}.demoted"),
        )
    if kind == "exchange":
        _fields(obj, where, ["type", "target", "cards"])
        return Exchange(
            _int(obj["target"], f"{where}.target"), _cards(obj["cards"], f"{where}.cards")
        )
    if kind == "discard":
        _fields(obj, where, ["type", "card"], ["announce", "demoted"])
        return Discard(
            card_from_json(obj["card"], f"{where}.card"),
            _bool(obj.get("announce", False), f"{where}.announce"),
            _bool(obj.get("demoted", False), f"{where}.demoted"),
        )
    _fail(f"{where}.type", f"unknown action type {_show(kind)}; known: {', '.join(_TYPES)}")


# --- the parts of a position -------------------------------------------------------------


def _table_to_json(table: Sequence[TableMeld]) -> list[JSON]:
    return [
        {"id": m.id, "owner": m.owner, "meld": meld_to_json(m.meld), "kind": m.kind.value}
        for m in table
    ]


def _table_from_json(value: Any, where: str, players: int) -> tuple[TableMeld, ...]:
    table = []
    for i, raw in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        obj = _fields(raw, at, ["id", "owner", "meld", "kind"])
        table.append(
            TableMeld(
                _int(obj["id"], f"{at}.id", 1),
                _seat(obj["owner"], f"{at}.owner", players),
                meld_from_json(obj["meld"], f"{at}.meld"),
                _enum(MeldKind, obj["kind"], f"{at}.kind"),
            )
        )
    ids = [m.id for m in table]
    if len(set(ids)) != len(ids):
        _fail(where, "two melds have the same id")
    return tuple(table)


def _openings_to_json(openings: Sequence[OpeningRecord]) -> list[JSON]:
    return [{"seat": o.seat, "team": o.team, "points": o.points} for o in openings]


def _openings_from_json(value: Any, where: str, players: int) -> tuple[OpeningRecord, ...]:
    out = []
    for i, raw in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        obj = _fields(raw, at, ["seat", "team", "points"])
        out.append(
            OpeningRecord(
                _seat(obj["seat"], f"{at}.seat", players),
                _int(obj["team"], f"{at}.team", 0),
                _int(obj["points"], f"{at}.points"),
            )
        )
    return tuple(out)


_TURN_FIELDS = (
    "taken",
    "had_taken",
    "obligation",
    "freed",
    "laid_down",
    "laid_off",
    "laid_off_on_others",
    "melded",
    "first_turn_bare",
)


def _turn_to_json(turn: TurnState) -> JSON:
    return {
        "taken": turn.taken.ascii if turn.taken is not None else None,
        "had_taken": turn.had_taken,
        "obligation": turn.obligation.value if turn.obligation is not None else None,
        "freed": turn.freed.ascii if turn.freed is not None else None,
        "laid_down": turn.laid_down,
        "laid_off": turn.laid_off,
        "laid_off_on_others": turn.laid_off_on_others,
        "melded": _card_list(turn.melded),
        "first_turn_bare": turn.first_turn_bare,
        **({"taken_demoted": True} if turn.taken_demoted else {}),
        **({"exchanged_on_others": True} if turn.exchanged_on_others else {}),
        **({"taken_meld": turn.taken_meld} if turn.taken_meld is not None else {}),
    }


def _turn_from_json(value: Any, where: str) -> TurnState:
    obj = _fields(
        value, where, _TURN_FIELDS, ["taken_demoted", "exchanged_on_others", "taken_meld"]
    )
    obligation = obj["obligation"]
    return TurnState(
        taken=_opt_card(obj["taken"], f"{where}.taken"),
        had_taken=_bool(obj["had_taken"], f"{where}.had_taken"),
        obligation=None
        if obligation is None
        else _enum(Obligation, obligation, f"{where}.obligation"),
        freed=_opt_card(obj["freed"], f"{where}.freed"),
        laid_down=_bool(obj["laid_down"], f"{where}.laid_down"),
        laid_off=_bool(obj["laid_off"], f"{where}.laid_off"),
        laid_off_on_others=_bool(obj["laid_off_on_others"], f"{where}.laid_off_on_others"),
        exchanged_on_others=_bool(
            obj.get("exchanged_on_others", False), f"{where}.exchanged_on_others"
        ),
        melded=_cards(obj["melded"], f"{where}.melded"),
        first_turn_bare=_bool(obj["first_turn_bare"], f"{where}.first_turn_bare"),
        taken_demoted=_bool(obj.get("taken_demoted", False), f"{where}.taken_demoted"),
        taken_meld=_opt_int(obj, "taken_meld", where),
    )


def _outcome_to_json(outcome: Outcome | None, *, breakdown: bool = False) -> JSON | None:
    """The outcome; with ``breakdown``, the score's lines too (a view carries them, as no
    replay can rebuild them from it; a round document's replay does)."""
    if outcome is None:
        return None
    score = outcome.score
    doc: JSON = {
        "ending": outcome.ending.value,
        "winner": outcome.winner,
        "scores": list(score.scores),
        "team_scores": list(score.team_scores) if score.team_scores is not None else None,
        "scored": score.scored,
        "factor": score.factor,
    }
    if breakdown and score.breakdown:
        doc.update(breakdown_to_json(score))
    return doc


def breakdown_to_json(score: RoundScore) -> JSON:
    """A round's scores line by line, every player's then every team's (in team play), as
    the referee's ``round_score`` answer and a finished round's view document give them."""
    players = [
        {
            "seat": p.seat,
            "basis": p.basis.value,
            "cards": [c.ascii for c in p.cards],
            "card_values": list(p.values),
            "cards_total": p.cards_total,
            "opened": p.opened,
            "base": p.base,
            "factors": [
                {"name": f.name, "factor": f.factor, "rule_id": f.rule.id} for f in p.factors
            ],
            "score": p.score,
            "rule_ids": [c.id for c in p.rules],
        }
        for p in score.breakdown
    ]
    teams = [
        {"seats": list(t.seats), "scores": list(t.scores), "total": t.total, "rule_id": t.rule.id}
        for t in score.team_breakdown
    ]
    return {"breakdown": players, "team_breakdown": teams} if teams else {"breakdown": players}


def _citation_from_json(value: Any, where: str, ruleset: Ruleset) -> Citation:
    """The rule ``value`` names, in the words it has in ``ruleset``."""
    rule_id = _str(value, where)
    found = lookup(rule_id)
    if found is None:
        _fail(where, f"no rule of the rulebook has the id {_show(rule_id)}")
    return Citation(rule_id, found.rule.words(ruleset))


_SCORE_LINE = (
    "seat",
    "basis",
    "cards",
    "card_values",
    "cards_total",
    "opened",
    "base",
    "factors",
    "score",
    "rule_ids",
)


def _score_lines_from_json(
    value: Any, where: str, scores: Sequence[int], ruleset: Ruleset
) -> tuple[PlayerScore, ...]:
    lines = []
    raw = _list(value, where)
    _sized(tuple(raw), where, len(scores))
    for seat, item in enumerate(raw):
        at = f"{where}[{seat}]"
        obj = _fields(item, at, _SCORE_LINE)
        if _int(obj["seat"], f"{at}.seat") != seat:
            _fail(f"{at}.seat", f"the line of seat {seat} names seat {_show(obj['seat'])}")
        cards = _cards(obj["cards"], f"{at}.cards")
        values = tuple(
            _int(v, f"{at}.card_values[{i}]")
            for i, v in enumerate(_list(obj["card_values"], f"{at}.card_values"))
        )
        if len(values) != len(cards):
            _fail(f"{at}.card_values", f"has {len(values)} values for {len(cards)} cards")
        factors = []
        for i, raw_factor in enumerate(_list(obj["factors"], f"{at}.factors")):
            f = _fields(raw_factor, f"{at}.factors[{i}]", ["name", "factor", "rule_id"])
            factors.append(
                ScoreFactor(
                    _str(f["name"], f"{at}.factors[{i}].name"),
                    _int(f["factor"], f"{at}.factors[{i}].factor"),
                    _citation_from_json(f["rule_id"], f"{at}.factors[{i}].rule_id", ruleset),
                )
            )
        score = _int(obj["score"], f"{at}.score")
        if score != scores[seat]:
            _fail(f"{at}.score", f"{score}, but the scores give seat {seat} {scores[seat]}")
        rules = tuple(
            _citation_from_json(c, f"{at}.rule_ids[{i}]", ruleset)
            for i, c in enumerate(_list(obj["rule_ids"], f"{at}.rule_ids"))
        )
        lines.append(
            PlayerScore(
                seat,
                _enum(ScoreBasis, obj["basis"], f"{at}.basis"),
                tuple(cards),
                values,
                _int(obj["cards_total"], f"{at}.cards_total"),
                _bool(obj["opened"], f"{at}.opened"),
                _int(obj["base"], f"{at}.base"),
                tuple(factors),
                score,
                rules,
            )
        )
    return tuple(lines)


def _team_lines_from_json(
    value: Any, where: str, players: int, ruleset: Ruleset
) -> tuple[TeamScore, ...]:
    teams = []
    for i, item in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        obj = _fields(item, at, ["seats", "scores", "total", "rule_id"])
        seats = tuple(
            _seat(v, f"{at}.seats[{j}]", players)
            for j, v in enumerate(_list(obj["seats"], f"{at}.seats"))
        )
        scores = tuple(
            _int(v, f"{at}.scores[{j}]") for j, v in enumerate(_list(obj["scores"], f"{at}.scores"))
        )
        if len(scores) != len(seats):
            _fail(f"{at}.scores", f"has {len(scores)} scores for {len(seats)} seats")
        total = _int(obj["total"], f"{at}.total")
        rule = _citation_from_json(obj["rule_id"], f"{at}.rule_id", ruleset)
        teams.append(TeamScore(seats, scores, total, rule))
    return tuple(teams)


def _outcome_from_json(value: Any, where: str, players: int, ruleset: Ruleset) -> Outcome | None:
    if value is None:
        return None
    obj = _fields(
        value,
        where,
        ["ending", "winner", "scores", "team_scores", "scored", "factor"],
        ["breakdown", "team_breakdown"],
    )
    scores = tuple(
        _int(v, f"{where}.scores[{i}]")
        for i, v in enumerate(_list(obj["scores"], f"{where}.scores"))
    )
    _sized(scores, f"{where}.scores", players)
    teams = obj["team_scores"]
    team_scores = (
        None
        if teams is None
        else tuple(
            _int(v, f"{where}.team_scores[{i}]")
            for i, v in enumerate(_list(teams, f"{where}.team_scores"))
        )
    )
    winner = obj["winner"]
    lines = (
        ()
        if obj.get("breakdown") is None
        else _score_lines_from_json(obj["breakdown"], f"{where}.breakdown", scores, ruleset)
    )
    team_lines = (
        ()
        if obj.get("team_breakdown") is None
        else _team_lines_from_json(
            obj["team_breakdown"], f"{where}.team_breakdown", players, ruleset
        )
    )
    return Outcome(
        _enum(Ending, obj["ending"], f"{where}.ending"),
        RoundScore(
            scores,
            team_scores,
            _bool(obj["scored"], f"{where}.scored"),
            _int(obj["factor"], f"{where}.factor"),
            lines,
            team_lines,
        ),
        None if winner is None else _seat(winner, f"{where}.winner", players),
    )


def _history_to_json(history: Sequence[Action]) -> list[JSON]:
    return [action_to_json(a) for a in history]


def _history_from_json(value: Any, where: str) -> tuple[Action, ...]:
    raw = _list(value, where)
    return tuple(action_from_json(a, f"{where}[{i}]") for i, a in enumerate(raw))


def _rules_with_indicator(ruleset: Ruleset, indicator: Card | None, where: str) -> MeldRules:
    if ruleset.uses_indicator and indicator is None:
        _fail(where, f"{ruleset.title} turns an indicator card; it is missing")
    if not ruleset.uses_indicator and indicator is not None:
        _fail(where, f"{ruleset.title} turns no indicator card, but one is given")
    try:
        return MeldRules.of(ruleset, indicator)
    except InvalidStateError as err:
        _fail(where, str(err))


# --- rounds ------------------------------------------------------------------------------


def _state(game: Round) -> JSON:
    return {
        "turn": game.turn,
        "phase": game.phase.value,
        "hands": [_card_list(game.hand(s)) for s in range(game.players)],
        "stock": _card_list(game.stock),
        "discards": _card_list(game.discards),
        "table": _table_to_json(game.table),
        "opened": list(game.opened),
        "melded": list(game.melded),
        "openings": _openings_to_json(game.openings),
        "turns_played": list(game.turns_played),
        "announced": list(game.announced),
        "missed": list(game.missed),
        "demoted": [_card_list(d) for d in game.demoted],
        "current": _turn_to_json(game.current),
        "reshuffles": game.reshuffles,
        "redeal_queue": list(game.redeal_queue),
        "outcome": _outcome_to_json(game.outcome),
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
            "hands": [_card_list(h) for h in hands],
            "stock": _card_list(stock),
            "discards": _card_list(discards),
            "indicator": game.indicator.ascii if game.indicator is not None else None,
        },
        "history": _history_to_json(game.history),
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
    obj = _obj(value, "document")
    _format(obj, ROUND_FORMAT)
    obj = _fields(
        obj,
        "document",
        ["format", "version", "rules", "players", "dealer", "seed", "deal", "history"],
        ["state"],
    )
    ruleset = rules_from_json(obj["rules"])
    players = _int(obj["players"], "players")
    if not ruleset.players.allows(players):
        _fail("players", seats_refusal(players, ruleset))
    dealer = _seat(obj["dealer"], "dealer", players)
    seed = _seed(obj["seed"], "seed")
    deal = _fields(obj["deal"], "deal", ["hands", "stock", "discards", "indicator"])
    raw_hands = _list(deal["hands"], "deal.hands")
    if len(raw_hands) != players:
        _fail("deal.hands", f"has {len(raw_hands)} hands; the document has {players} players")
    hands = [_cards(h, f"deal.hands[{i}]") for i, h in enumerate(raw_hands)]
    stock = _cards(deal["stock"], "deal.stock")
    discards = _cards(deal["discards"], "deal.discards")
    indicator = _opt_card(deal["indicator"], "deal.indicator")
    _rules_with_indicator(ruleset, indicator, "deal.indicator")
    try:
        game = Round.from_deal(
            ruleset, hands, stock, discards=discards, indicator=indicator, dealer=dealer, seed=seed
        )
    except InvalidStateError as err:
        _fail("deal", str(err))
    for index, action in enumerate(_history_from_json(obj["history"], "history")):
        try:
            game = game.apply(action)
        except IllegalActionError as err:
            codes = ", ".join(v.code.value for v in err.verdict.violations)
            _fail(
                f"history[{index}]",
                f"{action} ({_show(action_to_json(action))}) is illegal in the replayed round "
                f"(seat {game.turn} to move, phase {game.phase.value}): {err} [{codes}]",
            )
    if "state" in obj:
        _compare(obj["state"], _state(game), "state")
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
        f"{where} does not match the replayed round: {_show(given)} here, "
        f"{_show(replayed)} in the replay"
    )


def _compare(given: Any, replayed: Any, where: str) -> None:
    if isinstance(replayed, dict):
        if not isinstance(given, dict):
            _mismatch(where, given, replayed)
        obj = _fields(given, where, list(replayed))
        for key, value in replayed.items():
            _compare(obj[key], value, f"{where}.{key}")
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
            _compare(mine, theirs, f"{where}[{i}]")
        return
    same_type = type(given) is type(replayed)
    if not same_type or _canonical(given) != replayed:
        _mismatch(where, given, replayed)


# --- player views ------------------------------------------------------------------------

_VIEW_FIELDS = (
    "format",
    "version",
    "rules",
    "seat",
    "dealer",
    "turn",
    "phase",
    "hand",
    "demoted",
    "table",
    "discards",
    "indicator",
    "hand_sizes",
    "stock_size",
    "opened",
    "melded",
    "openings",
    "turns_played",
    "announced",
    "missed",
    "reshuffles",
    "current",
    "redeal_queue",
    "history",
    "outcome",
)


def view_to_json(view: PlayerView) -> JSON:
    """A player's view as a versioned document (``"format": "hand-rummy/view"``)."""
    expect(view, PlayerView, "the view")
    return {
        "format": VIEW_FORMAT,
        "version": VERSION,
        "rules": rules_to_json(view.ruleset),
        "seat": view.seat,
        "dealer": view.dealer,
        "turn": view.turn,
        "phase": view.phase.value,
        "hand": _card_list(view.hand),
        "demoted": _card_list(view.demoted),
        "table": _table_to_json(view.table),
        "discards": _card_list(view.discards),
        "indicator": view.indicator.ascii if view.indicator is not None else None,
        "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size,
        "opened": list(view.opened),
        "melded": list(view.melded),
        "openings": _openings_to_json(view.openings),
        "turns_played": list(view.turns_played),
        "announced": list(view.announced),
        "missed": list(view.missed),
        "reshuffles": view.reshuffles,
        "current": _turn_to_json(view.current),
        "redeal_queue": list(view.redeal_queue),
        "history": _history_to_json(view.history),
        "outcome": _outcome_to_json(view.outcome, breakdown=True),
        **_shown_to_json(view),
        **_renewal_to_json(view),
    }


def _shown_to_json(view: PlayerView) -> JSON:
    """The view's ``shown`` fields, written only where some seat is known to hold a card."""
    if not view.shown:
        return {}
    return {
        "shown": [_card_list(cards) for cards in view.shown],
        "shown_demoted": [_card_list(cards) for cards in view.shown_demoted],
    }


def _renewal_to_json(view: PlayerView) -> JSON:
    """The view's ``renewal`` fields, written only once the stock has been renewed."""
    if not view.renewal:
        return {}
    return {"renewal": _card_list(view.renewal), "drawn": _card_list(view.drawn)}


def _renewal_from_json(
    obj: Mapping[str, Any], reshuffles: int, stock_size: int, ruleset: Ruleset
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The ``renewal`` and ``drawn`` of a view document (both or neither; empty where
    neither), checked on their own, the count of renewals already checked against the rules:
    a renewal that count allows, of cards the deck has, enough of
    them left for the stock once this player's draws are gone."""
    if ("renewal" in obj) != ("drawn" in obj):
        _fail("document", "'renewal' and 'drawn' come together")
    if "renewal" not in obj:
        return (), ()
    renewal = _cards(obj["renewal"], "renewal")
    drawn = _cards(obj["drawn"], "drawn")
    if not renewal:
        _fail("renewal", "is written only once the stock has been renewed, with its cards")
    if reshuffles < 1:
        _fail("renewal", "the stock has not been renewed (reshuffles is 0)")
    deck = Counter(p.card for p in ruleset.deck.cards())
    extra = Counter(renewal) - deck
    if extra:
        named = ", ".join(sorted(c.ascii for c in extra))
        _fail("renewal", f"holds more copies than the deck has of {named}")
    if Counter(drawn) - Counter(renewal):
        _fail("drawn", "lists cards that were not renewed into the stock")
    if len(renewal) - len(drawn) < stock_size:
        _fail(
            "renewal",
            f"{len(renewal)} cards renewed, {len(drawn)} of them drawn by this player, "
            f"cannot leave {stock_size} in the stock",
        )
    return tuple(sorted(renewal)), tuple(sorted(drawn))


def _shown_from_json(
    obj: Mapping[str, Any],
    sizes: tuple[int, ...],
    seat: int,
    hands: tuple[tuple[Card, ...], tuple[Card, ...]],
    rules: MeldRules,
) -> dict[str, tuple[tuple[Card, ...], ...]]:
    """The ``shown`` fields of a view document (both or neither), checked against the
    hands: each seat's shown cards fit its hand, the viewer's are in it (demoted where
    the hand holds them demoted), and the demoted ones are among them and are wilds the
    rules demote. Each seat's cards come in the order a round keeps them (naturals, then
    the demoted ones, by face), so that equal documents make equal views."""
    if ("shown" in obj) != ("shown_demoted" in obj):
        _fail("document", "'shown' and 'shown_demoted' come together")
    if "shown" not in obj:
        return {}
    players = len(sizes)
    shown = tuple(
        _cards(cards, f"shown[{i}]") for i, cards in enumerate(_list(obj["shown"], "shown"))
    )
    demoted = tuple(
        _cards(cards, f"shown_demoted[{i}]")
        for i, cards in enumerate(_list(obj["shown_demoted"], "shown_demoted"))
    )
    _sized(shown, "shown", players)
    _sized(demoted, "shown_demoted", players)
    for i, (cards, marked) in enumerate(zip(shown, demoted, strict=True)):
        if len(cards) > sizes[i]:
            _fail(f"shown[{i}]", f"lists {len(cards)} cards; the hand holds {sizes[i]}")
        if Counter(marked) - Counter(cards):
            _fail(f"shown_demoted[{i}]", f"lists cards that are not in shown[{i}]")
        for card in marked:
            if not rules.ruleset.demotion.demotes(card, rules.wilds):
                _fail(f"shown_demoted[{i}]", f"{card} is no wild card that these rules demote")
    hand, hand_demoted = hands
    mine = counts_of(shown[seat], demoted[seat])
    if any(n > held for n, held in zip(mine, counts_of(hand, hand_demoted), strict=True)):
        _fail(f"shown[{seat}]", "lists cards that are not in the viewer's hand as it holds them")
    if not any(shown):
        return {}  # nothing known: as a view without the fields
    ordered = [cards_at(slots_of(counts_of(c, d))) for c, d in zip(shown, demoted, strict=True)]
    return {
        "shown": tuple(c for c, _ in ordered),
        "shown_demoted": tuple(d for _, d in ordered),
    }


def view_from_json(value: Any) -> PlayerView:
    """Read a player-view document written by :func:`view_to_json`.

    Checked: ``format``, ``version``, every field and its type, card strings,
    the rules and indicator, seats in range (``seat``, ``dealer``, ``turn``,
    meld owners, openings, the redeal queue, the winner), one entry per player
    in every per-seat list, that the hand holds ``hand_sizes[seat]`` cards and
    its demoted cards, that each table meld is a legal meld (read in the form a
    table holds it, every wild's role as a lay-down gives it), that no card is
    seen more often than the deck has it and that all counts add up to the
    deck, that a turn in phase ``draw`` has done nothing, and that the phase
    is ``over`` exactly when there is an outcome. A view of a round in play is
    then checked as its position would be
    (:func:`~hand_rummy.position.check_position`: who has opened and melded,
    the turn so far, the openings, the announcements, ...). The history is read
    but not replayed: a view does not hold the deal.
    """
    obj = _obj(value, "document")
    _format(obj, VIEW_FORMAT)
    obj = _fields(obj, "document", _VIEW_FIELDS, ("shown", "shown_demoted", "renewal", "drawn"))
    ruleset = rules_from_json(obj["rules"])
    sizes = _ints(obj["hand_sizes"], "hand_sizes")
    players = len(sizes)
    if not ruleset.players.allows(players):
        _fail("hand_sizes", seats_refusal(players, ruleset))
    seat = _seat(obj["seat"], "seat", players)
    hand = _cards(obj["hand"], "hand")
    if len(hand) != sizes[seat]:
        _fail("hand", f"holds {len(hand)} cards, but hand_sizes[{seat}] is {sizes[seat]}")
    demoted = _cards(obj["demoted"], "demoted")
    if Counter(demoted) - Counter(hand):
        _fail("demoted", "lists cards that are not in the hand")
    indicator = _opt_card(obj["indicator"], "indicator")
    _rules_with_indicator(ruleset, indicator, "indicator")
    rules = MeldRules.of(ruleset, indicator)
    table = tuple(
        TableMeld(m.id, m.owner, *table_form(m.meld, m.kind, rules, f"table[{i}]"))
        for i, m in enumerate(_table_from_json(obj["table"], "table", players))
    )
    discards = _cards(obj["discards"], "discards")
    stock_size = _int(obj["stock_size"], "stock_size", 0)
    per_seat: dict[str, tuple[Any, ...]] = {
        "opened": _bools(obj["opened"], "opened"),
        "melded": _bools(obj["melded"], "melded"),
        "turns_played": _ints(obj["turns_played"], "turns_played"),
        "announced": _ints(obj["announced"], "announced"),
        "missed": _bools(obj["missed"], "missed"),
    }
    for name, values in per_seat.items():
        _sized(values, name, players)
    phase = _enum(Phase, obj["phase"], "phase")
    outcome = _outcome_from_json(obj["outcome"], "outcome", players, ruleset)
    if (phase is Phase.OVER) != (outcome is not None):
        _fail("outcome", "a round has an outcome exactly when its phase is 'over'")
    current = _turn_from_json(obj["current"], "current")
    if phase is Phase.DRAW and current != TurnState():
        _fail("current", f"the turn has not begun (phase {phase.value!r}), so it has done nothing")
    if current.taken_meld is not None:
        laid = current.laid_down or current.laid_off or current.freed is not None
        problem = taken_meld_problem(current.taken, current.taken_meld, table, laid=laid)
        if problem is not None:
            _fail("current.taken_meld", problem)
    queue = tuple(
        _seat(s, f"redeal_queue[{i}]", players)
        for i, s in enumerate(_list(obj["redeal_queue"], "redeal_queue"))
    )
    shown = _shown_from_json(obj, sizes, seat, (hand, demoted), rules)
    seen = Counter(hand) + Counter(discards)
    for meld in table:
        seen.update(meld.meld.cards)
    if indicator is not None:
        seen[indicator] += 1
    deck = Counter(p.card for p in ruleset.deck.cards())
    # the cards others are known to hold count too: they are in no other place
    known = Counter(
        c for at, cards in enumerate(shown.get("shown", ())) if at != seat for c in cards
    )
    extra = seen + known - deck
    if extra:
        _fail(
            "document",
            f"shows more copies than the deck has of {', '.join(sorted(c.ascii for c in extra))}",
        )
    reshuffles = _int(obj["reshuffles"], "reshuffles", 0)
    limit = ruleset.stock.reshuffles
    if limit is not None and reshuffles > limit:
        # checked here for every phase, as a round that is over is not checked as a position
        _fail("reshuffles", f"{reshuffles}, but these rules reshuffle at most {limit} times")
    renewal, drawn = _renewal_from_json(obj, reshuffles, stock_size, ruleset)
    total = sum(seen.values()) - len(hand) + sum(sizes) + stock_size
    if total != ruleset.deck.size:
        _fail(
            "document",
            f"the hands, stock, discards, table and indicator hold {total} cards; "
            f"the deck has {ruleset.deck.size}",
        )
    view = PlayerView(
        seat=seat,
        ruleset=ruleset,
        dealer=_seat(obj["dealer"], "dealer", players),
        turn=_seat(obj["turn"], "turn", players),
        phase=phase,
        hand=hand,
        demoted=demoted,
        table=table,
        discards=discards,
        indicator=indicator,
        hand_sizes=sizes,
        stock_size=stock_size,
        opened=per_seat["opened"],
        melded=per_seat["melded"],
        openings=_openings_from_json(obj["openings"], "openings", players),
        turns_played=per_seat["turns_played"],
        announced=per_seat["announced"],
        missed=per_seat["missed"],
        reshuffles=reshuffles,
        current=current,
        redeal_queue=queue,
        history=_history_from_json(obj["history"], "history"),
        outcome=outcome,
        renewal=renewal,
        drawn=drawn,
        **shown,
    )
    # what the others are known to hold, with the card taken this turn, must be among the
    # hidden cards and fit each hand (a sample deals it to them)
    held = view.held_by_others()
    fixed: Counter[Card] = Counter()
    for other, (cards, _) in held.items():
        if cards.total() > sizes[other]:
            _fail(f"shown[{other}]", f"with the card taken this turn, passes {sizes[other]} cards")
        fixed.update(cards)
    missing = fixed - view.unseen()
    if missing:
        named = ", ".join(sorted(c.ascii for c in missing))
        _fail("shown", f"lists {named}, which no hidden place could hold")
    left = view.renewed_left().total()
    if renewal and left < stock_size:
        _fail(
            "renewal",
            f"leaves {left} of its cards hidden and not known to be held, too few for the "
            f"stock of {stock_size}",
        )
    mover = view.turn
    if phase in (Phase.DRAW, Phase.PLAY) and mover != seat and mover in held:
        # a player to move whose every card is known has the moves that hand has: a round
        # that leaves none (an owed meld the hand cannot make) was never reached by play
        whole = held[mover][0].total() == sizes[mover]
        if whole and not LegalActions(sampled(view, random.Random(0))):
            _fail("shown", f"seat {mover}, whose every card is known, would have no legal move")
    if phase in (Phase.DRAW, Phase.PLAY):
        # a round in play must be one that a position can describe: the same checks of the
        # turn so far, the table's owners, the openings and the announcements
        try:
            check_position(position_of(view))
        except InvalidStateError as err:
            _fail("document", f"no round in play fits this view: {err}")
    return view


# --- positions ---------------------------------------------------------------------------

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
        out["hand"] = _card_list(seat.hand)
    if seat.hand_size is not None:
        out["hand_size"] = seat.hand_size
    if seat.demoted is not None:
        out["demoted"] = _card_list(seat.demoted)
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
        out["melded"] = _card_list(turn.melded)
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
    doc["discards"] = _card_list(value.discards)
    if value.discard_size is not None:
        doc["discard_size"] = value.discard_size
    if value.stock:
        doc["stock"] = _card_list(value.stock)
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


def _opt_bool(obj: Mapping[str, Any], key: str, where: str = "") -> bool | None:
    """An optional field: ``None`` when it is left out (a ``null`` is no boolean)."""
    at = f"{where}.{key}" if where else key
    return None if key not in obj else _bool(obj[key], at)


def _opt_int(obj: Mapping[str, Any], key: str, where: str = "") -> int | None:
    at = f"{where}.{key}" if where else key
    return None if key not in obj else _int(obj[key], at, 0)


def _opt_cards(obj: Mapping[str, Any], key: str, where: str) -> tuple[Card, ...] | None:
    return None if key not in obj else _cards(obj[key], f"{where}.{key}")


def _seat_from_json(value: Any, where: str) -> PositionSeat:
    obj = _fields(value, where, (), _SEAT_FIELDS)
    if "hand" not in obj and "hand_size" not in obj:
        _fail(where, "missing field 'hand' or 'hand_size': give the cards, or how many")
    return PositionSeat(
        hand=_cards(obj.get("hand", []), f"{where}.hand"),
        hand_size=_opt_int(obj, "hand_size", where),
        demoted=_opt_cards(obj, "demoted", where),
        opened=_opt_bool(obj, "opened", where),
        melded=_opt_bool(obj, "melded", where),
        turns_played=_opt_int(obj, "turns_played", where),
        announced=_opt_int(obj, "announced", where),
        missed=_bool(obj.get("missed", False), f"{where}.missed"),
    )


def _position_table_from_json(value: Any, where: str, players: int) -> tuple[PositionMeld, ...]:
    table = []
    for i, raw in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        obj = _fields(raw, at, ["id", "owner", "meld"], ["kind"])
        kind = obj.get("kind")
        table.append(
            PositionMeld(
                _int(obj["id"], f"{at}.id", 1),
                _seat(obj["owner"], f"{at}.owner", players),
                meld_from_json(obj["meld"], f"{at}.meld"),
                None if kind is None else _enum(MeldKind, kind, f"{at}.kind"),
            )
        )
    return tuple(table)


def _position_turn_from_json(value: Any, where: str) -> PositionTurn:
    obj = _fields(value, where, (), _POSITION_TURN_FIELDS)
    obligation: Obligation | Auto | None = AUTO
    if "obligation" in obj:
        raw = obj["obligation"]
        obligation = None if raw is None else _enum(Obligation, raw, f"{where}.obligation")
    return PositionTurn(
        taken=_opt_card(obj.get("taken"), f"{where}.taken"),
        taken_demoted=_opt_bool(obj, "taken_demoted", where),
        had_taken=_opt_bool(obj, "had_taken", where),
        obligation=obligation,
        freed=_opt_card(obj.get("freed"), f"{where}.freed"),
        laid_down=_bool(obj.get("laid_down", False), f"{where}.laid_down"),
        laid_off=_bool(obj.get("laid_off", False), f"{where}.laid_off"),
        laid_off_on_others=_bool(
            obj.get("laid_off_on_others", False), f"{where}.laid_off_on_others"
        ),
        exchanged_on_others=_bool(
            obj.get("exchanged_on_others", False), f"{where}.exchanged_on_others"
        ),
        melded=_opt_cards(obj, "melded", where),
        first_turn_bare=_opt_bool(obj, "first_turn_bare", where),
        taken_meld=_opt_int(obj, "taken_meld", where),
    )


def _position_openings_from_json(
    value: Any, where: str, ruleset: Ruleset, players: int
) -> tuple[tuple[int, int], ...]:
    teams = ruleset.players.teams(players)
    out = []
    for i, raw in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        obj = _fields(raw, at, ["seat", "points"], ["team"])
        seat = _seat(obj["seat"], f"{at}.seat", players)
        if "team" in obj:
            team = _int(obj["team"], f"{at}.team", 0)
            if team >= len(teams) or seat not in teams[team]:
                _fail(f"{at}.team", f"{team}, but seat {seat} does not play in team {team}")
        out.append((seat, _int(obj["points"], f"{at}.points", 0)))
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
    obj = _obj(value, "document")
    _format(obj, POSITION_FORMAT)
    obj = _fields(obj, "document", _POSITION_REQUIRED, _POSITION_OPTIONAL)
    ruleset = rules_from_json(obj["rules"])
    raw_players = _list(obj["players"], "players")
    players = len(raw_players)
    if not ruleset.players.allows(players):
        _fail("players", seats_refusal(players, ruleset))
    return Position(
        ruleset,
        [_seat_from_json(p, f"players[{i}]") for i, p in enumerate(raw_players)],
        _seat(obj["turn"], "turn", players),
        _enum(Phase, obj["phase"], "phase"),
        table=_position_table_from_json(obj.get("table", []), "table", players),
        discards=_cards(obj.get("discards", []), "discards"),
        discard_size=_opt_int(obj, "discard_size"),
        stock=_cards(obj.get("stock", []), "stock"),
        stock_size=_opt_int(obj, "stock_size"),
        indicator=_opt_card(obj.get("indicator"), "indicator"),
        dealer=_seat(obj.get("dealer", 0), "dealer", players),
        current=_position_turn_from_json(obj.get("current", {}), "current"),
        openings=None
        if "openings" not in obj
        else _position_openings_from_json(obj["openings"], "openings", ruleset, players),
        reshuffles=_int(obj.get("reshuffles", 0), "reshuffles", 0),
        seed=_seed(obj.get("seed", 0), "seed"),
    )


# --- matches -----------------------------------------------------------------------------


def _deal_to_json(deal: Deal) -> JSON:
    return {
        "hands": [_card_list(h) for h in deal.hands],
        "stock": _card_list(deal.stock),
        "discards": _card_list(deal.discards),
        "indicator": None if deal.indicator is None else deal.indicator.ascii,
    }


def _deal_from_json(value: Any, where: str) -> Deal:
    obj = _fields(value, where, ["hands", "stock", "discards", "indicator"])
    hands = _list(obj["hands"], f"{where}.hands")
    return Deal(
        tuple(_cards(h, f"{where}.hands[{i}]") for i, h in enumerate(hands)),
        _cards(obj["stock"], f"{where}.stock"),
        _cards(obj["discards"], f"{where}.discards"),
        _opt_card(obj["indicator"], f"{where}.indicator"),
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
        _fail(where, str(err))
    except CardParseError as err:
        raise CardParseError(f"{where}: {err}", err.text, err.position) from None
    if game.ruleset != ruleset:
        _fail(f"{where}.rules", "the round is played under other rules than the match")
    return game


def _same_deal(game: Round, expected: Round, where: str) -> None:
    if game.dealer != expected.dealer:
        _fail(
            f"{where}.dealer",
            f"seat {game.dealer} deals here, but the match rules give the deal to seat "
            f"{expected.dealer}",
        )
    if game.seed != expected.seed:
        _fail(
            f"{where}.seed",
            f"{game.seed} here, but the match deals this round with seed {expected.seed}",
        )
    if game.start != expected.start or game.indicator != expected.indicator:
        _fail(f"{where}.deal", "is not the deal that the match's seed (or deals) gives")


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
    obj = _obj(value, "document")
    _format(obj, MATCH_FORMAT)
    obj = _fields(
        obj,
        "document",
        ["format", "version", "rules", "players", "seed", "first_dealer", "length", "rounds"],
        ["deals", "current", "state"],
    )
    ruleset = rules_from_json(obj["rules"])
    players = _int(obj["players"], "players")
    if not ruleset.players.allows(players):
        _fail("players", seats_refusal(players, ruleset))
    seed = _seed(obj["seed"], "seed")
    first_dealer = _seat(obj["first_dealer"], "first_dealer", players)
    length = _int(obj["length"], "length", 1, MAX_LENGTH)
    deals = tuple(
        _deal_from_json(d, f"deals[{i}]")
        for i, d in enumerate(_list(obj.get("deals", []), "deals"))
    )
    for i, deal in enumerate(deals):
        if len(deal.hands) != players:
            _fail(f"deals[{i}].hands", f"has {len(deal.hands)} hands; the match has {players}")
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
        _fail("deals[0]", str(err))
    raw_rounds = _list(obj["rounds"], "rounds")
    current = obj.get("current")
    docs = [(f"rounds[{i}]", r, True) for i, r in enumerate(raw_rounds)]
    if current is not None:
        docs.append(("current", current, False))
    for where, raw, finished in docs:
        game = _match_round(raw, where, ruleset)
        if match.current is None:
            _fail(where, f"the match was over after {len(match.rounds)} rounds")
        _same_deal(game, match.current, where)
        if finished and not game.is_over:
            _fail(where, "is not finished; the round in play belongs in 'current'")
        if not finished and game.is_over:
            _fail(where, "is finished; a finished round belongs in 'rounds'")
        played = len(match.rounds)
        try:
            for action in game.history:
                match = match.apply(action)
        except InvalidStateError as err:
            # the next round's explicit deal does not fit its dealer
            _fail(f"deals[{played + 1}]", str(err))
    if match.current is not None and current is None:
        _fail(
            "current",
            f"is missing, but the match is not over after {len(match.rounds)} rounds "
            f"(totals {list(match.totals)})",
        )
    if "state" in obj:
        try:
            _compare(obj["state"], _match_state(match), "state")
        except InvalidStateError as err:
            raise InvalidStateError(str(err).replace("replayed round", "replayed match")) from None
    return match


# --- text --------------------------------------------------------------------------------


def dumps(value: Match | Round | PlayerView | Position | Action, **options: Any) -> str:
    """JSON text for a match, a round, a player view, a position or an action (``options`` go
    to :func:`json.dumps`)."""
    if isinstance(value, Match):
        doc = match_to_json(value)
    elif isinstance(value, Position):
        doc = position_to_json(value)
    elif isinstance(value, Round):
        doc = round_to_json(value)
    elif isinstance(value, PlayerView):
        doc = view_to_json(value)
    else:
        doc = action_to_json(value)
    return json.dumps(doc, **options)


def loads(
    text: str, kind: Literal["round", "view", "action", "match", "position"] | None = None
) -> Round | PlayerView | Action | Match | Position:
    """Read JSON text written by :func:`dumps`: a ``"round"``, a ``"view"``, an
    ``"action"``, a ``"match"`` or a ``"position"``.

    Without ``kind`` the document says what it is: its ``"format"`` names a round, a
    view, a match or a position, and an object with a ``"type"`` and no format is an
    action. With ``kind``, a document of another kind is refused.
    """
    # a kind of another type is no key (a list could not even be looked up)
    if kind is not None and (not isinstance(kind, str) or kind not in _LOADERS):
        raise InvalidStateError(
            f"unknown kind {shown(kind)}; use 'round', 'view', 'action', 'match' or 'position'"
        )
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidStateError(f"expected JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise InvalidStateError("not valid JSON: arrays and objects nest too deep") from None
    except ValueError as err:  # bad syntax, bytes that are not UTF-8, 4,300 digits or more
        raise InvalidStateError(f"not valid JSON: {err}") from None
    if kind is None:
        return _LOADERS[_kind_of(data)](data)
    if isinstance(data, dict) and data.get("format") != _FORMATS.get(kind):
        other = next((k for k, name in _FORMATS.items() if data.get("format") == name), None)
        if other is not None:  # a document of another kind: say which, and how to read it
            raise InvalidStateError(
                f"kind={kind!r} does not read a {other} document (format "
                f"{_FORMATS[other]!r}): read it with kind={other!r}, or with no kind"
            )
    return _LOADERS[kind](data)


def _kind_of(data: Any) -> str:
    """What a document is, by its own ``"format"`` (or ``"type"``, for an action)."""
    if not isinstance(data, dict):
        raise InvalidStateError(f"expected a JSON object, not {_show(data)}")
    if "format" in data:
        for kind, name in _FORMATS.items():
            if data["format"] == name:
                return kind
        known = ", ".join(repr(name) for name in _FORMATS.values())
        raise InvalidStateError(f"format: expected one of {known}, not {_show(data['format'])}")
    if "type" in data:
        return "action"
    raise InvalidStateError(
        "the document has no 'format' (a round, view, match or position) and no 'type' (an action)"
    )


_FORMATS = {
    "round": ROUND_FORMAT,
    "view": VIEW_FORMAT,
    "match": MATCH_FORMAT,
    "position": POSITION_FORMAT,
}

_LOADERS: dict[str, Callable[[Any], Round | PlayerView | Action | Match | Position]] = {
    "round": round_from_json,
    "view": view_from_json,
    "action": action_from_json,
    "match": match_from_json,
    "position": position_from_json,
}
