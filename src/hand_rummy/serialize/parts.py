"""The parts documents are made of: melds, rulesets, actions, and the pieces of a round
(its table, openings, turn, outcome with its score lines, and history); a single card is
read by :func:`~hand_rummy.serialize.common.card_from_json`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

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
from hand_rummy.cards import Card
from hand_rummy.errors import SEED_DIGITS, InvalidStateError, UnknownRulesError, expect, number
from hand_rummy.melds import Meld, MeldRules
from hand_rummy.round import Ending, Obligation, Outcome, TableMeld, TurnState
from hand_rummy.rulebook import lookup
from hand_rummy.rules.opening import OpeningRecord
from hand_rummy.rules.presets import PRESETS, build
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.scoring import PlayerScore, RoundScore, ScoreBasis, ScoreFactor, TeamScore
from hand_rummy.serialize.common import (
    JSON,
    card_from_json,
    check_sized,
    fail,
    read_bool,
    read_cards,
    read_enum,
    read_fields,
    read_int,
    read_ints,
    read_list,
    read_object,
    read_opt_card,
    read_opt_int,
    read_seat,
    read_str,
    show_json,
)
from hand_rummy.verdict import Citation

# --- cards, melds, rules -----------------------------------------------------------------


def card_list(cards: Sequence[Card]) -> list[str]:
    """Cards in ASCII notation, as documents write them."""
    return [c.ascii for c in cards]


def meld_to_json(meld: Meld) -> JSON:
    """A meld as ``{"cards": [...], "roles": {...}, "demoted": [...]}`` (empty parts left out).

    >>> import hand_rummy as hr
    >>> meld_to_json(hr.Meld.of("7H AC 9H", roles={1: "8H"}))
    {'cards': ['7H', 'AC', '9H'], 'roles': {'1': '8H'}}
    """
    expect(meld, Meld, "the meld")
    out: JSON = {"cards": card_list(meld.cards)}
    roles = {str(i): r.ascii for i, r in enumerate(meld.roles) if r is not None}
    if roles:
        out["roles"] = roles
    if meld.demoted:
        out["demoted"] = sorted(meld.demoted)
    return out


def meld_from_json(value: Any, where: str = "meld") -> Meld:
    """Read a meld written by :func:`meld_to_json`."""
    obj = read_fields(value, where, ["cards"], ["roles", "demoted"])
    cards = read_cards(obj["cards"], f"{where}.cards")
    roles: list[Card | None] = [None] * len(cards)
    raw_roles = read_object(obj.get("roles", {}), f"{where}.roles")
    for key, role in raw_roles.items():
        if not (isinstance(key, str) and re.fullmatch(r"0|[1-9][0-9]*", key)):
            fail(f"{where}.roles", f"{key!r} is not a position in the meld")
        # the length first: int() refuses keys of more than 4,300 digits
        if len(key) > len(str(len(cards))) or int(key) >= len(cards):
            place = key if len(key) <= 20 else f"{key[:20]}…"
            fail(f"{where}.roles", f"position {place} lies outside the {len(cards)}-card meld")
        roles[int(key)] = card_from_json(role, f"{where}.roles[{key!r}]")
    demoted = read_ints(obj.get("demoted", []), f"{where}.demoted")
    for i, position in enumerate(demoted):
        if position >= len(cards):
            fail(
                f"{where}.demoted[{i}]",
                f"position {position} lies outside the {len(cards)}-card meld",
            )
    if len(set(demoted)) != len(demoted):
        fail(f"{where}.demoted", "lists a position twice")
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
    obj = read_fields(value, where, ["preset"], ["variants"])
    preset = read_str(obj["preset"], f"{where}.preset")
    raw = read_list(obj.get("variants", []), f"{where}.variants")
    variants = [read_str(v, f"{where}.variants[{i}]") for i, v in enumerate(raw)]
    if preset not in PRESETS:
        fail(f"{where}.preset", str(UnknownRulesError(f"unknown rules {preset!r}")))
    try:
        return build(preset, variants)
    except UnknownRulesError as err:
        fail(f"{where}.variants", str(err))


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
        return {"type": "exchange", "target": target, "cards": card_list(action.cards)}
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
    obj = read_object(value, where)
    if "type" not in obj:
        fail(where, "missing field 'type'")
    kind = obj["type"]
    if not isinstance(kind, str):  # a list or an object cannot be looked up by name
        fail(f"{where}.type", f"expected the name of an action type, not {show_json(kind)}")
    if kind in _SIMPLE:
        read_fields(obj, where, ["type"])
        return _SIMPLE[kind]()
    if kind == "lay_down":
        read_fields(obj, where, ["type", "melds"])
        raw = read_list(obj["melds"], f"{where}.melds")
        return LayDown(tuple(meld_from_json(m, f"{where}.melds[{i}]") for i, m in enumerate(raw)))
    if kind == "lay_off":
        read_fields(obj, where, ["type", "target", "card"], ["role", "demoted"])
        return LayOff(
            read_int(obj["target"], f"{where}.target"),
            card_from_json(obj["card"], f"{where}.card"),
            read_opt_card(obj.get("role"), f"{where}.role"),
            read_bool(obj.get("demoted", False), f"{where}.demoted"),
        )
    if kind == "exchange":
        read_fields(obj, where, ["type", "target", "cards"])
        return Exchange(
            read_int(obj["target"], f"{where}.target"), read_cards(obj["cards"], f"{where}.cards")
        )
    if kind == "discard":
        read_fields(obj, where, ["type", "card"], ["announce", "demoted"])
        return Discard(
            card_from_json(obj["card"], f"{where}.card"),
            read_bool(obj.get("announce", False), f"{where}.announce"),
            read_bool(obj.get("demoted", False), f"{where}.demoted"),
        )
    fail(f"{where}.type", f"unknown action type {show_json(kind)}; known: {', '.join(_TYPES)}")


# --- the parts of a position -------------------------------------------------------------


def table_to_json(table: Sequence[TableMeld]) -> list[JSON]:
    """The melds on the table, each with its id, owner, kind and meld."""
    return [
        {"id": m.id, "owner": m.owner, "meld": meld_to_json(m.meld), "kind": m.kind.value}
        for m in table
    ]


def table_from_json(value: Any, where: str, players: int) -> tuple[TableMeld, ...]:
    """The melds on the table of a round of ``players``, as :func:`table_to_json` writes them."""
    table = []
    for i, raw in enumerate(read_list(value, where)):
        at = f"{where}[{i}]"
        obj = read_fields(raw, at, ["id", "owner", "meld", "kind"])
        table.append(
            TableMeld(
                read_int(obj["id"], f"{at}.id", 1),
                read_seat(obj["owner"], f"{at}.owner", players),
                meld_from_json(obj["meld"], f"{at}.meld"),
                read_enum(MeldKind, obj["kind"], f"{at}.kind"),
            )
        )
    ids = [m.id for m in table]
    if len(set(ids)) != len(ids):
        fail(where, "two melds have the same id")
    return tuple(table)


def openings_to_json(openings: Sequence[OpeningRecord]) -> list[JSON]:
    """Each opening made, in order: its seat, team and points (later bars may depend on them)."""
    return [{"seat": o.seat, "team": o.team, "points": o.points} for o in openings]


def openings_from_json(value: Any, where: str, players: int) -> tuple[OpeningRecord, ...]:
    """The openings as :func:`openings_to_json` writes them."""
    out = []
    for i, raw in enumerate(read_list(value, where)):
        at = f"{where}[{i}]"
        obj = read_fields(raw, at, ["seat", "team", "points"])
        out.append(
            OpeningRecord(
                read_seat(obj["seat"], f"{at}.seat", players),
                read_int(obj["team"], f"{at}.team", 0),
                read_int(obj["points"], f"{at}.points"),
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


def turn_to_json(turn: TurnState) -> JSON:
    """What the turn in progress has done and owes (the rarer flags only where set)."""
    return {
        "taken": turn.taken.ascii if turn.taken is not None else None,
        "had_taken": turn.had_taken,
        "obligation": turn.obligation.value if turn.obligation is not None else None,
        "freed": turn.freed.ascii if turn.freed is not None else None,
        "laid_down": turn.laid_down,
        "laid_off": turn.laid_off,
        "laid_off_on_others": turn.laid_off_on_others,
        "melded": card_list(turn.melded),
        "first_turn_bare": turn.first_turn_bare,
        **({"taken_demoted": True} if turn.taken_demoted else {}),
        **({"exchanged_on_others": True} if turn.exchanged_on_others else {}),
        **({"taken_meld": turn.taken_meld} if turn.taken_meld is not None else {}),
    }


def turn_from_json(value: Any, where: str) -> TurnState:
    """The turn in progress as :func:`turn_to_json` writes it, checked field by field."""
    obj = read_fields(
        value, where, _TURN_FIELDS, ["taken_demoted", "exchanged_on_others", "taken_meld"]
    )
    obligation = obj["obligation"]
    return TurnState(
        taken=read_opt_card(obj["taken"], f"{where}.taken"),
        had_taken=read_bool(obj["had_taken"], f"{where}.had_taken"),
        obligation=None
        if obligation is None
        else read_enum(Obligation, obligation, f"{where}.obligation"),
        freed=read_opt_card(obj["freed"], f"{where}.freed"),
        laid_down=read_bool(obj["laid_down"], f"{where}.laid_down"),
        laid_off=read_bool(obj["laid_off"], f"{where}.laid_off"),
        laid_off_on_others=read_bool(obj["laid_off_on_others"], f"{where}.laid_off_on_others"),
        exchanged_on_others=read_bool(
            obj.get("exchanged_on_others", False), f"{where}.exchanged_on_others"
        ),
        melded=read_cards(obj["melded"], f"{where}.melded"),
        first_turn_bare=read_bool(obj["first_turn_bare"], f"{where}.first_turn_bare"),
        taken_demoted=read_bool(obj.get("taken_demoted", False), f"{where}.taken_demoted"),
        taken_meld=read_opt_int(obj, "taken_meld", where),
    )


def outcome_to_json(outcome: Outcome | None, *, breakdown: bool = False) -> JSON | None:
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
    rule_id = read_str(value, where)
    found = lookup(rule_id)
    if found is None:
        fail(where, f"no rule of the rulebook has the id {show_json(rule_id)}")
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
    raw = read_list(value, where)
    check_sized(tuple(raw), where, len(scores))
    for seat, item in enumerate(raw):
        at = f"{where}[{seat}]"
        obj = read_fields(item, at, _SCORE_LINE)
        if read_int(obj["seat"], f"{at}.seat") != seat:
            fail(f"{at}.seat", f"the line of seat {seat} names seat {show_json(obj['seat'])}")
        cards = read_cards(obj["cards"], f"{at}.cards")
        values = tuple(
            read_int(v, f"{at}.card_values[{i}]")
            for i, v in enumerate(read_list(obj["card_values"], f"{at}.card_values"))
        )
        if len(values) != len(cards):
            fail(f"{at}.card_values", f"has {len(values)} values for {len(cards)} cards")
        factors = []
        for i, raw_factor in enumerate(read_list(obj["factors"], f"{at}.factors")):
            f = read_fields(raw_factor, f"{at}.factors[{i}]", ["name", "factor", "rule_id"])
            factors.append(
                ScoreFactor(
                    read_str(f["name"], f"{at}.factors[{i}].name"),
                    read_int(f["factor"], f"{at}.factors[{i}].factor"),
                    _citation_from_json(f["rule_id"], f"{at}.factors[{i}].rule_id", ruleset),
                )
            )
        score = read_int(obj["score"], f"{at}.score")
        if score != scores[seat]:
            fail(f"{at}.score", f"{score}, but the scores give seat {seat} {scores[seat]}")
        rules = tuple(
            _citation_from_json(c, f"{at}.rule_ids[{i}]", ruleset)
            for i, c in enumerate(read_list(obj["rule_ids"], f"{at}.rule_ids"))
        )
        lines.append(
            PlayerScore(
                seat,
                read_enum(ScoreBasis, obj["basis"], f"{at}.basis"),
                tuple(cards),
                values,
                read_int(obj["cards_total"], f"{at}.cards_total"),
                read_bool(obj["opened"], f"{at}.opened"),
                read_int(obj["base"], f"{at}.base"),
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
    for i, item in enumerate(read_list(value, where)):
        at = f"{where}[{i}]"
        obj = read_fields(item, at, ["seats", "scores", "total", "rule_id"])
        seats = tuple(
            read_seat(v, f"{at}.seats[{j}]", players)
            for j, v in enumerate(read_list(obj["seats"], f"{at}.seats"))
        )
        scores = tuple(
            read_int(v, f"{at}.scores[{j}]")
            for j, v in enumerate(read_list(obj["scores"], f"{at}.scores"))
        )
        if len(scores) != len(seats):
            fail(f"{at}.scores", f"has {len(scores)} scores for {len(seats)} seats")
        total = read_int(obj["total"], f"{at}.total")
        rule = _citation_from_json(obj["rule_id"], f"{at}.rule_id", ruleset)
        teams.append(TeamScore(seats, scores, total, rule))
    return tuple(teams)


def outcome_from_json(value: Any, where: str, players: int, ruleset: Ruleset) -> Outcome | None:
    """A finished round's outcome (``None`` for ``null``), with its score lines where the
    document has them."""
    if value is None:
        return None
    obj = read_fields(
        value,
        where,
        ["ending", "winner", "scores", "team_scores", "scored", "factor"],
        ["breakdown", "team_breakdown"],
    )
    scores = tuple(
        read_int(v, f"{where}.scores[{i}]")
        for i, v in enumerate(read_list(obj["scores"], f"{where}.scores"))
    )
    check_sized(scores, f"{where}.scores", players)
    teams = obj["team_scores"]
    team_scores = (
        None
        if teams is None
        else tuple(
            read_int(v, f"{where}.team_scores[{i}]")
            for i, v in enumerate(read_list(teams, f"{where}.team_scores"))
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
        read_enum(Ending, obj["ending"], f"{where}.ending"),
        RoundScore(
            scores,
            team_scores,
            read_bool(obj["scored"], f"{where}.scored"),
            read_int(obj["factor"], f"{where}.factor"),
            lines,
            team_lines,
        ),
        None if winner is None else read_seat(winner, f"{where}.winner", players),
    )


def history_to_json(history: Sequence[Action]) -> list[JSON]:
    """The actions played, in order."""
    return [action_to_json(a) for a in history]


def history_from_json(value: Any, where: str) -> tuple[Action, ...]:
    """The actions played, as :func:`history_to_json` writes them."""
    raw = read_list(value, where)
    return tuple(action_from_json(a, f"{where}[{i}]") for i, a in enumerate(raw))


def rules_with_indicator(ruleset: Ruleset, indicator: Card | None, where: str) -> MeldRules:
    """The meld rules of ``ruleset`` with ``indicator``, refused where the rules turn no
    indicator and one is given, or turn one and none is."""
    if ruleset.uses_indicator and indicator is None:
        fail(where, f"{ruleset.title} turns an indicator card; it is missing")
    if not ruleset.uses_indicator and indicator is not None:
        fail(where, f"{ruleset.title} turns no indicator card, but one is given")
    try:
        return MeldRules.of(ruleset, indicator)
    except InvalidStateError as err:
        fail(where, str(err))
