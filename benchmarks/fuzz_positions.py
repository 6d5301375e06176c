"""Mutation fuzzer for positions: accepted positions must be working rounds.

Random rounds of every preset (and of some variant compositions) are played with the
engine's own ``legal_actions()``/``apply()``; at random decisions the round is kept as seeds:
its position document (every card listed), the position documents of players' views (other
hands as counts), view documents and, now and then, the round document. Each input is a seed
with one or two *semantic* mutations (a card moved between hands, table, pile and stock; a
meld's card removed or its owner changed; ``opened``/``melded`` flipped; ``turns_played``,
announcements, the obligation, the phase, the mover, the taken or freed card, the pile's
order, the indicator, the rules' variants, the openings changed; ``current.taken_meld`` set
to another meld, to a missing one, removed, or added where nothing was taken; a hand
hidden ...).

The mutant is loaded the way users load it (``position_from_json`` + ``Round.from_position``,
``view_from_json`` and then the view's position, ``round_from_json``; a share of the positions
also goes through the referee). A refusal
with a ``HandRummyError`` is fine and counted by its field. An accepted input is audited:

  crash           an exception that is no HandRummyError, loading or playing
  stuck           no legal action in a round that is not over
  listing-check   a listed action refused by ``check()`` or by ``apply()``
  conservation    hands + table + stock + pile + indicator differ from the deck, or a
                  count is negative
  taken-meld      ``current.taken_meld`` names no meld on the table that holds the card taken
  reload          a round after a listed action does not reload from its own JSON to an
                  equal round (or the reload lists other actions)
  seed            the moves of a fully listed mover change with the fill's seed, or the
                  position is refused under another seed
  view            a view's legal actions differ from those of its position's round or of a
                  round sampled from it (``PlayerView.sample``), which is audited too
  referee         the referee disagrees with the library, or answers INTERNAL_ERROR
  slow            one listing takes more than ``--slow`` seconds (default 2)
  step-cap        random play from the position does not end within ``--step-cap`` moves
                  (where the rules renew the stock without end, only counted)
  timeout         one input takes more than ``--timeout`` seconds in all
  impossible      an accepted position that the rules could not reach (lower rank)

Findings are grouped by kind and message; the first input of each group is written under
``--out`` as JSON with everything needed to replay it.

    python benchmarks/fuzz_positions.py [--seconds 600] [--count N] [--seed 0] [--out findings]
    python benchmarks/fuzz_positions.py --replay findings/<file>.json
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hand_rummy as hr
from hand_rummy import serialize
from hand_rummy.referee import answer
from hand_rummy.rules.stock import StockTrigger

CARD_NAMES = [card.ascii for card in hr.CARDS]
OBLIGATIONS = [o.value for o in hr.Obligation]
STEP_CAP = 2000
APPLY_EACH = 6
"""Listed actions applied (and reloaded) per accepted input."""
CHECK_EACH = 200
"""Listed actions checked with ``check()`` per accepted input (a sample where there are more)."""

JSON = dict[str, Any]


class Finding(Exception):  # noqa: N818 (a finding, not an error of this script)
    """An invariant broken by an accepted input; ``kind`` is one of the module's list."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"[{kind}] {message}")
        self.kind, self.message = kind, message


class Timeout(BaseException):
    """Raised by the alarm; a BaseException so that no handler of the library catches it."""


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout


# --- cases and seeds ------------------------------------------------------------------------


def cases(rng: random.Random, mixes: int) -> list[tuple[str, tuple[str, ...]]]:
    """Every preset, and ``mixes`` compositions of one to three variants per preset."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for preset in sorted(hr.PRESETS):
        out.append((preset, ()))
        names = [v.name for v in hr.variants_for(preset)]
        found = 0
        for _ in range(mixes * 20):
            if found >= mixes:
                break
            chosen = tuple(sorted(rng.sample(names, rng.choice((1, 1, 2, 3)))))
            try:
                hr.build(preset, list(chosen))
            except hr.HandRummyError:
                continue
            if (preset, chosen) not in out:
                out.append((preset, chosen))
                found += 1
    return out


def player_counts(ruleset: hr.Ruleset) -> list[int]:
    players = ruleset.players
    return [n for n in range(players.minimum, players.maximum + 1) if players.allows(n)]


def rare(game: hr.Round) -> float:
    """How much likelier a decision is kept: the turn states that random play seldom shows."""
    current = game.current
    if current.freed is not None or current.obligation not in (None, hr.Obligation.MELD_TAKEN):
        return 20.0
    if current.taken_meld is not None:
        return 20.0
    if current.laid_down or current.laid_off or any(game.demoted) or any(game.announced):
        return 8.0
    if any(game.missed) or game.reshuffles or len(game.stock) < 5:
        return 8.0
    return 1.0


def harvest(case: tuple[str, tuple[str, ...]], rng: random.Random, keep: float) -> list[JSON]:
    """Play one round of ``case`` and keep documents of some of its decisions as seeds."""
    ruleset = hr.build(case[0], list(case[1]))
    players = rng.choice(player_counts(ruleset))
    seed = rng.getrandbits(31)
    game = hr.Round.deal(ruleset, players, seed=seed, dealer=rng.randrange(players))
    bot = hr.GreedyBot(seed)
    greedy = rng.choice((0.0, 0.5, 0.9, 1.0))
    label = "+".join((case[0], *case[1]))
    seeds: list[JSON] = []
    steps = 0
    while not game.is_over and steps < STEP_CAP:
        if game.phase in (hr.Phase.DRAW, hr.Phase.PLAY) and rng.random() < keep * rare(game):
            other = rng.randrange(players)
            where = f"{label} {players}p seed {seed} step {steps}"
            seeds.append(
                {"kind": "position", "doc": serialize.position_to_json(game), "from": where}
            )
            for seat in {game.turn, other}:
                view = game.view(seat)
                seeds.append(
                    {
                        "kind": "position",
                        "doc": serialize.position_to_json(view),
                        "from": f"{where} view {seat}",
                    }
                )
                seeds.append(
                    {
                        "kind": "view",
                        "doc": serialize.view_to_json(view),
                        "from": f"{where} view {seat}",
                    }
                )
            if rng.random() < 0.1:
                seeds.append({"kind": "round", "doc": serialize.round_to_json(game), "from": where})
        legal = list(game.legal_actions())
        if rng.random() < greedy:
            action = bot.decide(hr.Choice(game.turn, game=game, legal=legal))
        else:
            action = rng.choice(legal)
        game = game.apply(action)
        steps += 1
    return seeds


# --- mutations ------------------------------------------------------------------------------


def _places(doc: JSON) -> list[tuple[str, list[Any]]]:
    """The card lists of a position document, by a name that says where they are."""
    out: list[tuple[str, list[Any]]] = []
    for i, seat in enumerate(doc["players"]):
        out.append((f"players[{i}].hand", seat.setdefault("hand", [])))
    out.append(("discards", doc.setdefault("discards", [])))
    out.append(("stock", doc.setdefault("stock", [])))
    for i, meld in enumerate(doc.get("table", [])):
        out.append((f"table[{i}]", meld["meld"]["cards"]))
    return out


def _fix_meld_after_removal(meld: JSON, at: int) -> None:
    """Shift a meld's roles and demoted positions after removing its card at ``at``."""
    roles = meld.get("roles")
    if roles:
        meld["roles"] = {str(int(k) - (int(k) > at)): v for k, v in roles.items() if int(k) != at}
    if meld.get("demoted"):
        meld["demoted"] = [p - (p > at) for p in meld["demoted"] if p != at]


def _resize(doc: JSON, name: str, delta: int, rng: random.Random) -> None:
    """Keep an explicit size field in step with a list that grew or shrank (mostly)."""
    if rng.random() < 0.2:
        return
    if name.startswith("players["):
        seat = doc["players"][int(name[8 : name.index("]")])]
        if "hand_size" in seat:
            seat["hand_size"] += delta
    elif name == "discards" and "discard_size" in doc:
        doc["discard_size"] += delta
    elif name == "stock" and "stock_size" in doc:
        doc["stock_size"] += delta


def m_move_card(doc: JSON, rng: random.Random) -> str | None:
    places = _places(doc)
    sources = [p for p in places if p[1]]
    if not sources:
        return None
    name, cards = rng.choice(sources)
    at = rng.randrange(len(cards))
    card = cards.pop(at)
    if name.startswith("table"):
        _fix_meld_after_removal(doc["table"][int(name[6:-1])]["meld"], at)
    _resize(doc, name, -1, rng)
    dest_name, dest = rng.choice(
        [p for p in places if p[0] != name and not p[0].startswith("table")]
    )
    dest.insert(rng.randrange(len(dest) + 1) if rng.random() < 0.3 else len(dest), card)
    _resize(doc, dest_name, +1, rng)
    return f"move {card} from {name} to {dest_name}"


def m_swap_cards(doc: JSON, rng: random.Random) -> str | None:
    sources = [p for p in _places(doc) if p[1]]
    if len(sources) < 2:
        return None
    (a, la), (b, lb) = rng.sample(sources, 2)
    i, j = rng.randrange(len(la)), rng.randrange(len(lb))
    la[i], lb[j] = lb[j], la[i]
    return f"swap {lb[j]} of {a} with {la[i]} of {b}"


def m_meld_add(doc: JSON, rng: random.Random) -> str | None:
    table = doc.get("table") or []
    hands = [(i, s) for i, s in enumerate(doc["players"]) if s.get("hand")]
    if not table or not hands:
        return None
    i, seat = rng.choice(hands)
    card = seat["hand"].pop(rng.randrange(len(seat["hand"])))
    if "hand_size" in seat:
        seat["hand_size"] -= 1
    k = rng.randrange(len(table))
    meld = table[k]["meld"]
    if rng.random() < 0.5:
        meld["cards"].append(card)
    else:
        meld["cards"].insert(0, card)
        if meld.get("roles"):
            meld["roles"] = {str(int(p) + 1): v for p, v in meld["roles"].items()}
        if meld.get("demoted"):
            meld["demoted"] = [p + 1 for p in meld["demoted"]]
    return f"add {card} of players[{i}] to table[{k}]"


def m_meld_remove(doc: JSON, rng: random.Random) -> str | None:
    table = doc.get("table") or []
    if not table:
        return None
    k = rng.randrange(len(table))
    meld = table.pop(k)
    to = rng.choice(("owner", "discards", "gone"))
    if to == "owner" and meld["owner"] < len(doc["players"]):
        seat = doc["players"][meld["owner"]]
        seat.setdefault("hand", []).extend(meld["meld"]["cards"])
        if "hand_size" in seat:
            seat["hand_size"] += len(meld["meld"]["cards"])
    elif to != "gone":
        doc.setdefault("discards", [])[:0] = meld["meld"]["cards"]
        if "discard_size" in doc:
            doc["discard_size"] += len(meld["meld"]["cards"])
    return f"remove table[{k}] (cards to {to})"


def m_meld_field(doc: JSON, rng: random.Random) -> str | None:
    table = doc.get("table") or []
    if not table:
        return None
    k = rng.randrange(len(table))
    entry = table[k]
    what = rng.choice(("owner", "id", "roles", "demoted", "kind", "order"))
    if what == "owner":
        entry["owner"] = rng.randrange(len(doc["players"]))
    elif what == "id":
        entry["id"] = rng.choice([m["id"] for m in table] + [entry["id"] + 1, 99])
    elif what == "roles":
        meld = entry["meld"]
        if meld.get("roles") and rng.random() < 0.5:
            del meld["roles"]
        else:
            at = rng.randrange(len(meld["cards"]))
            meld["roles"] = {**meld.get("roles", {}), str(at): rng.choice(CARD_NAMES[:-1])}
    elif what == "demoted":
        meld = entry["meld"]
        meld["demoted"] = sorted({*meld.get("demoted", []), rng.randrange(len(meld["cards"]))})
    elif what == "kind":
        entry["kind"] = rng.choice(("run", "set"))
    else:
        rng.shuffle(entry["meld"]["cards"])
        entry["meld"].pop("roles", None)
    return f"table[{k}].{what} -> {json.dumps(entry)[:80]}"


def m_seat_field(doc: JSON, rng: random.Random) -> str | None:
    i = rng.randrange(len(doc["players"]))
    seat = doc["players"][i]
    name = rng.choice(("opened", "melded", "missed", "turns_played", "announced"))
    if name in ("opened", "melded", "missed"):
        value: Any = rng.choice((True, False, None))
    else:
        value = rng.choice((0, 0, 1, 2, 3, 4, None))
    if value is None:
        seat.pop(name, None)
    else:
        seat[name] = value
    return f"players[{i}].{name} = {value}"


def m_seat_hand(doc: JSON, rng: random.Random) -> str | None:
    i = rng.randrange(len(doc["players"]))
    seat = doc["players"][i]
    hand = seat.get("hand", [])
    size = seat.get("hand_size", len(hand))
    what = rng.choice(("hide", "hide_some", "size+1", "size-1", "demote", "undemote"))
    if what == "hide":
        seat["hand"], seat["hand_size"] = [], size
        seat.pop("demoted", None)
    elif what == "hide_some" and hand:
        keep = rng.sample(hand, rng.randrange(len(hand)))
        seat["hand"], seat["hand_size"] = keep, size
        seat.pop("demoted", None)
    elif what == "size+1":
        seat["hand_size"] = size + 1
    elif what == "size-1":
        seat["hand_size"] = max(size - 1, 0)
    elif what == "demote" and hand:
        seat["demoted"] = [*seat.get("demoted", []), rng.choice(hand)]
    elif what == "undemote":
        seat.pop("demoted", None) if rng.random() < 0.5 else seat.update(demoted=[])
    else:
        return None
    return f"players[{i}] {what}"


def m_current(doc: JSON, rng: random.Random) -> str | None:
    current = doc.setdefault("current", {})
    hand = doc["players"][doc["turn"]].get("hand", [])
    name = rng.choice(("taken", "obligation", "freed", "laid_down", "laid_off",
                       "laid_off_on_others", "exchanged_on_others", "melded",
                       "first_turn_bare", "taken_demoted", "had_taken", "clear"))  # fmt: skip
    value: Any
    if name in ("taken", "freed"):
        pool = [*hand, "JK", rng.choice(CARD_NAMES)] if hand else CARD_NAMES
        value = rng.choice([*pool, None])
    elif name == "obligation":
        value = rng.choice([*OBLIGATIONS, "null", None])
    elif name == "melded":
        table = [c for m in doc.get("table", []) for c in m["meld"]["cards"]]
        value = rng.sample(table, min(len(table), rng.randrange(4))) if rng.random() < 0.8 else None
    elif name == "clear":
        doc.pop("current")
        return "current cleared"
    else:
        value = rng.choice((True, False, None))
    if value is None:
        current.pop(name, None)
    else:
        current[name] = None if value == "null" else value
    return f"current.{name} = {value}"


def _taken_meld_value(doc: JSON, current: JSON, rng: random.Random) -> tuple[str, Any]:
    """A new ``taken_meld`` for ``current``: another meld, a missing one, none, or one where
    nothing was taken; now and then a value of the wrong type."""
    table = doc.get("table") or []
    ids = [m["id"] for m in table]
    now = current.get("taken_meld")
    taken = current.get("taken")
    holding = [m["id"] for m in table if taken is not None and taken in m["meld"]["cards"]]
    choices = ["other", "missing", "remove", "add", "holding", "type"]
    what = rng.choice(choices)
    if what == "other" and ids:
        others = [i for i in ids if i != now] or ids
        return what, rng.choice(others)
    if what == "missing":
        return what, rng.choice((0, max(ids, default=0) + 1, max(ids, default=0) + 7, 99))
    if what == "remove":
        return what, None
    if what == "add":
        # where nothing was taken: drop the taken card and name a meld
        if doc.get("format") == "hand-rummy/view":
            current["taken"], current["had_taken"] = None, False
        else:
            current.pop("taken", None)
            current.pop("had_taken", None)
        return what, rng.choice(ids) if ids else 1
    if what == "holding" and holding:
        return what, rng.choice(holding)
    if what == "type":
        return what, rng.choice((-1, "1", True, 1.5, [1]))
    return "other", rng.choice(ids) if ids else 1


def m_taken_meld(doc: JSON, rng: random.Random) -> str | None:
    """Changes ``current.taken_meld`` (the meld that the taken card went into this turn)."""
    current = doc.setdefault("current", {})
    what, value = _taken_meld_value(doc, current, rng)
    if value is None:
        if "taken_meld" not in current:
            return None
        del current["taken_meld"]
    else:
        current["taken_meld"] = value
    return f"current.taken_meld {what} -> {value}"


def m_turn(doc: JSON, rng: random.Random) -> str | None:
    name = rng.choice(("turn", "phase", "dealer", "reshuffles", "seed"))
    if name == "phase":
        doc["phase"] = "play" if doc["phase"] == "draw" else "draw"
    elif name in ("turn", "dealer"):
        doc[name] = rng.randrange(len(doc["players"]))
    elif name == "reshuffles":
        doc["reshuffles"] = rng.choice((0, 1, 2, 5))
    else:
        doc["seed"] = rng.randrange(1000)
    return f"{name} = {doc[name]}"


def m_pile(doc: JSON, rng: random.Random) -> str | None:
    pile = doc.setdefault("discards", [])
    what = rng.choice(("shuffle", "swap_top", "top_to_bottom", "truncate", "size", "stock_size",
                       "stock_to_pile", "stock_empty"))  # fmt: skip
    if what == "shuffle":
        rng.shuffle(pile)
    elif what == "swap_top" and len(pile) >= 2:
        pile[-1], pile[-2] = pile[-2], pile[-1]
    elif what == "top_to_bottom" and pile:
        pile.insert(0, pile.pop())
    elif what == "truncate" and pile:
        doc["discard_size"] = doc.get("discard_size", len(pile))
        del pile[: rng.randrange(len(pile) + 1)]
    elif what == "size":
        doc["discard_size"] = max(0, doc.get("discard_size", len(pile)) + rng.choice((-1, 1)))
    elif what == "stock_size":
        if "stock_size" in doc and rng.random() < 0.5:
            del doc["stock_size"]
        else:
            doc["stock_size"] = rng.choice((0, 1, 2, len(doc.get("stock", []))))
    elif what == "stock_to_pile" and doc.get("stock"):
        pile.insert(0, doc["stock"].pop())
        for key in ("discard_size", "stock_size"):
            if key in doc:
                doc[key] += 1 if key == "discard_size" else -1
    elif what == "stock_empty" and doc.get("stock"):
        pile[:0] = doc["stock"]
        doc["stock"] = []
        doc.pop("stock_size", None)
        doc.pop("discard_size", None)
    else:
        return None
    return f"pile {what}"


def m_indicator(doc: JSON, rng: random.Random) -> str | None:
    if "indicator" in doc and rng.random() < 0.7:
        # swap it with a card listed somewhere, so the counts still add up
        sources = [p for p in _places(doc) if p[1]]
        name, cards = rng.choice(sources)
        i = rng.randrange(len(cards))
        cards[i], doc["indicator"] = doc["indicator"], cards[i]
        return f"indicator swapped with {name}: now {doc['indicator']}"
    if "indicator" in doc:
        del doc["indicator"]
        return "indicator removed"
    doc["indicator"] = rng.choice(CARD_NAMES)
    return f"indicator = {doc['indicator']}"


def m_rules(doc: JSON, rng: random.Random) -> str | None:
    rules = doc["rules"]
    names = [v.name for v in hr.variants_for(rules["preset"])]
    variants = list(rules.get("variants", []))
    what = rng.choice(("add", "add", "remove", "preset"))
    if what == "add" and names:
        variants.append(rng.choice(names))
    elif what == "remove" and variants:
        variants.pop(rng.randrange(len(variants)))
    elif what == "preset":
        rules["preset"] = rng.choice(sorted(hr.PRESETS))
        variants = []
    else:
        return None
    rules["variants"] = variants
    return f"rules = {rules['preset']}+{'+'.join(variants)}"


def m_openings(doc: JSON, rng: random.Random) -> str | None:
    openings = doc.get("openings")
    what = rng.choice(("drop", "reorder", "points", "remove", "add", "team"))
    if what == "drop" and openings is not None:
        del doc["openings"]
    elif openings is None:
        return None
    elif what == "reorder" and len(openings) >= 2:
        rng.shuffle(openings)
    elif what == "points" and openings:
        entry = rng.choice(openings)
        entry["points"] = max(0, entry["points"] + rng.choice((-30, -1, 1, 40, 500)))
    elif what == "remove" and openings:
        openings.pop(rng.randrange(len(openings)))
    elif what == "add":
        openings.append(
            {"seat": rng.randrange(len(doc["players"])), "points": rng.choice((51, 81))}
        )
    elif what == "team" and openings:
        entry = rng.choice(openings)
        entry["team"] = rng.randrange(2)
    else:
        return None
    return f"openings {what}"


def m_seats(doc: JSON, rng: random.Random) -> str | None:
    players = doc["players"]
    if rng.random() < 0.5 and len(players) > 2:
        gone = players.pop(rng.randrange(len(players)))
        doc.setdefault("discards", [])[:0] = gone.get("hand", [])
        if "discard_size" in doc:
            doc["discard_size"] += len(gone.get("hand", []))
        if doc.get("stock_size") is not None:
            doc["stock_size"] += gone.get("hand_size", len(gone.get("hand", []))) - len(
                gone.get("hand", [])
            )
        for key in ("turn", "dealer"):
            doc[key] = min(doc.get(key, 0), len(players) - 1)
        return "a seat removed"
    stock = doc.get("stock", [])
    take = min(len(stock), rng.choice((3, 13, 14)))
    hand = [stock.pop() for _ in range(take)]
    players.append({"hand": hand})
    return "a seat added"


def m_wilds_to_mover(doc: JSON, rng: random.Random) -> str | None:
    """Give the player to move jokers (or other cards) from the stock or the pile, swapped for
    cards of the hand: hands with many wilds are the expensive ones to list."""
    hand = doc["players"][doc["turn"]].get("hand", [])
    if not hand:
        return None
    wanted = "JK" if rng.random() < 0.7 else rng.choice(hand)
    moved = 0
    for name in ("stock", "discards"):
        pool = doc.get(name, [])
        for i, card in enumerate(pool):
            if card == wanted and moved < rng.choice((1, 2, 4)):
                j = rng.randrange(len(hand))
                pool[i], hand[j] = hand[j], card
                moved += 1
    return f"{moved} × {wanted} swapped into the mover's hand" if moved else None


POSITION_MUTATORS: list[tuple[float, Callable[[JSON, random.Random], str | None]]] = [
    (4, m_move_card), (2, m_swap_cards), (2, m_meld_add), (1.5, m_meld_remove),
    (3, m_meld_field), (4, m_seat_field), (2.5, m_seat_hand), (5, m_current), (3, m_turn),
    (2.5, m_pile), (1, m_indicator), (1.5, m_rules), (1.5, m_openings), (0.5, m_seats),
    (1.5, m_wilds_to_mover), (3, m_taken_meld),
]  # fmt: skip


def mutate_position(doc: JSON, rng: random.Random) -> list[str]:
    done: list[str] = []
    wanted = 1 if rng.random() < 0.55 else 2
    weights = [w for w, _ in POSITION_MUTATORS]
    for _ in range(20):
        if len(done) >= wanted:
            break
        ((_, mutator),) = rng.choices(POSITION_MUTATORS, weights)
        said = mutator(doc, rng)
        if said:
            done.append(said)
    return done


def mutate_view(doc: JSON, rng: random.Random) -> list[str]:
    """Mutations of a view document that keep its card counts adding up (mostly)."""
    done: list[str] = []
    players = len(doc["hand_sizes"])
    for _ in range(1 if rng.random() < 0.55 else 2):
        what = rng.choice(("hand_to_pile", "pile_to_hand", "other_to_pile", "meld_to_hand",
                           "flag", "ints", "current", "turn", "phase", "seat", "demoted",
                           "owner", "stock_to_hand", "openings"))  # fmt: skip
        seat = rng.randrange(players)
        if what == "hand_to_pile" and doc["hand"]:
            doc["discards"].append(doc["hand"].pop(rng.randrange(len(doc["hand"]))))
            doc["hand_sizes"][doc["seat"]] -= 1
        elif what == "pile_to_hand" and doc["discards"]:
            doc["hand"].append(doc["discards"].pop())
            doc["hand_sizes"][doc["seat"]] += 1
        elif what == "other_to_pile" and doc["hand_sizes"][seat] and seat != doc["seat"]:
            doc["hand_sizes"][seat] -= 1
            doc["discards"].append(rng.choice(CARD_NAMES))
        elif what == "meld_to_hand" and doc["table"]:
            meld = rng.choice(doc["table"])["meld"]
            at = rng.randrange(len(meld["cards"]))
            doc["hand"].append(meld["cards"].pop(at))
            _fix_meld_after_removal(meld, at)
            doc["hand_sizes"][doc["seat"]] += 1
        elif what == "stock_to_hand" and doc["stock_size"]:
            doc["stock_size"] -= 1
            doc["hand_sizes"][seat] += 1
            if seat == doc["seat"]:
                doc["hand"].append(rng.choice(CARD_NAMES))
        elif what == "flag":
            name = rng.choice(("opened", "melded", "missed"))
            doc[name][seat] = not doc[name][seat]
        elif what == "ints":
            name = rng.choice(("turns_played", "announced"))
            doc[name][seat] = rng.choice((0, 1, 2, 3))
        elif what == "current":
            current = doc["current"]
            name = rng.choice(("taken", "had_taken", "obligation", "freed", "laid_down",
                               "laid_off", "laid_off_on_others", "first_turn_bare",
                               "taken_meld", "taken_meld"))  # fmt: skip
            if name == "taken_meld":
                _, value = _taken_meld_value(doc, current, rng)
                if value is None:
                    current.pop("taken_meld", None)
                else:
                    current["taken_meld"] = value
            elif name in ("taken", "freed"):
                current[name] = rng.choice([*doc["hand"], "JK", None])
            elif name == "obligation":
                current[name] = rng.choice([*OBLIGATIONS, None])
            else:
                current[name] = not current[name]
        elif what in ("turn", "seat"):
            doc[what] = seat
            if what == "seat":
                continue  # the hand would no longer match; counted as refused, mostly
        elif what == "phase":
            doc["phase"] = "play" if doc["phase"] == "draw" else "draw"
        elif what == "demoted" and doc["hand"]:
            doc["demoted"] = [*doc["demoted"], rng.choice(doc["hand"])]
        elif what == "owner" and doc["table"]:
            rng.choice(doc["table"])["owner"] = seat
        elif what == "openings" and doc["openings"]:
            rng.choice(doc["openings"])["points"] += rng.choice((-20, 1, 30))
        else:
            continue
        done.append(f"view {what} (seat {seat})")
    return done


def mutate_round(doc: JSON, rng: random.Random) -> list[str]:
    """Mutations of a round document: its history or its deal (the snapshot is dropped)."""
    doc.pop("state", None)
    history, deal = doc["history"], doc["deal"]
    what = rng.choice(("truncate", "drop", "swap", "duplicate", "deal_swap"))
    if what == "truncate" and history:
        del history[rng.randrange(len(history)) :]
    elif what == "drop" and history:
        history.pop(rng.randrange(len(history)))
    elif what == "swap" and len(history) >= 2:
        i = rng.randrange(len(history) - 1)
        history[i], history[i + 1] = history[i + 1], history[i]
    elif what == "duplicate" and history:
        i = rng.randrange(len(history))
        history.insert(i, copy.deepcopy(history[i]))
    else:
        lists = [h for h in deal["hands"] if h] + [x for x in (deal["stock"],) if x]
        if len(lists) >= 2:
            a, b = rng.sample(lists, 2)
            i, j = rng.randrange(len(a)), rng.randrange(len(b))
            a[i], b[j] = b[j], a[i]
        what = "deal_swap"
    return [f"round {what}"]


# --- the audit ------------------------------------------------------------------------------


def deck_of(ruleset: hr.Ruleset) -> Counter[hr.Card]:
    return Counter(p.card for p in ruleset.deck.cards())


def check_conservation(game: hr.Round, where: str) -> None:
    have: Counter[hr.Card] = Counter()
    for seat in range(game.players):
        if any(n < 0 for n in game.hands[seat]):
            raise Finding("conservation", f"{where}: seat {seat} holds a negative count")
        have.update(game.hand(seat))
    have.update(game.stock)
    have.update(game.discards)
    for meld in game.table:
        have.update(meld.meld.cards)
    if game.indicator is not None:
        have[game.indicator] += 1
    want = deck_of(game.ruleset)
    if have != want:
        extra = hr.format_cards(sorted(have - want, key=lambda c: c.index))
        missing = hr.format_cards(sorted(want - have, key=lambda c: c.index))
        raise Finding("conservation", f"{where}: extra [{extra}], missing [{missing}]")


def check_taken_meld(game: hr.Round, where: str) -> None:
    """``current.taken_meld`` names a meld on the table that holds the card taken."""
    current = game.current
    if current.taken_meld is None:
        return
    meld = next((m for m in game.table if m.id == current.taken_meld), None)
    if current.taken is None or meld is None or current.taken not in meld.meld.cards:
        raise Finding("taken-meld", f"{where}: taken_meld {current.taken_meld} does not hold "
                      f"the taken {current.taken}")  # fmt: skip


def listing(game: hr.Round, where: str, slow: float) -> list[hr.Action]:
    began = time.perf_counter()
    legal = list(game.legal_actions())
    took = time.perf_counter() - began
    if took > slow:
        raise Finding("slow", f"{where}: listing {len(legal)} actions took {took:.1f} s")
    if not legal and not game.is_over:
        raise Finding("stuck", f"{where}: no legal action in phase {game.phase.value}, "
                      f"seat {game.turn}, obligation {game.current.obligation}")  # fmt: skip
    return legal


STATE_FIELDS = ("hands", "stock", "discards", "table", "turn", "phase", "opened", "melded",
                "openings", "turns_played", "announced", "missed", "current", "reshuffles",
                "indicator", "dealer")  # fmt: skip


def reload(game: hr.Round) -> hr.Round | None:
    """The round read back from its own JSON (a position where it has no deal)."""
    if game.is_over or game.phase not in (hr.Phase.DRAW, hr.Phase.PLAY):
        if len(game.start) == game.players + 2:
            return serialize.round_from_json(serialize.round_to_json(game))
        return None
    if len(game.start) == game.players + 2 and len(game.history) < 60:
        return serialize.round_from_json(serialize.round_to_json(game))
    doc = serialize.position_to_json(game)
    return hr.Round.from_position(serialize.position_from_json(json.loads(json.dumps(doc))))


def check_reload(game: hr.Round, where: str, lists: bool) -> None:
    try:
        again = reload(game)
    except hr.HandRummyError as err:
        raise Finding("reload", f"{where}: its own JSON is refused: {err}") from None
    if again is None:
        return
    for name in STATE_FIELDS:
        if getattr(again, name) != getattr(game, name):
            raise Finding("reload", f"{where}: reloaded round differs in {name}")
    if lists and not game.is_over and list(again.legal_actions()) != list(game.legal_actions()):
        raise Finding("reload", f"{where}: the reloaded round lists other actions")


def endless(ruleset: hr.Ruleset) -> bool:
    stock = ruleset.stock
    return stock.reshuffles is None and stock.trigger is not StockTrigger.AT_PLAYER_COUNT


def audit_round(game: hr.Round, rng: random.Random, args: argparse.Namespace) -> str:
    """Every invariant of the module docstring on ``game``; returns how the playout ended."""
    check_conservation(game, "loaded")
    check_taken_meld(game, "loaded")
    if game.is_over:
        return "over"
    legal = listing(game, "loaded", args.slow)
    sample = legal if len(legal) <= CHECK_EACH else rng.sample(legal, CHECK_EACH)
    for action in sample:
        verdict = game.check(action)
        if not verdict.ok:
            codes = ", ".join(c.value for c in verdict.codes)
            raise Finding("listing-check", f"listed {action} refused by check(): [{codes}]")
    for n, action in enumerate(rng.sample(legal, min(APPLY_EACH, len(legal)))):
        try:
            after = game.apply(action)
        except hr.IllegalActionError as err:
            raise Finding("listing-check", f"listed {action} refused by apply(): {err}") from None
        check_conservation(after, f"after {action}")
        check_taken_meld(after, f"after {action}")
        check_reload(after, f"after {action}", lists=n == 0)
    # random play to the end, the greedy bot's move half of the time
    bot = hr.GreedyBot(rng.getrandbits(31))
    steps = 0
    while not game.is_over:
        if steps >= args.step_cap:
            if endless(game.ruleset):
                return "capped"
            raise Finding("step-cap", f"not over after {steps} moves from the position")
        legal = listing(game, f"playout step {steps}", args.slow)
        if rng.random() < 0.5:
            action = bot.decide(hr.Choice(game.turn, game=game, legal=legal))
        else:
            action = rng.choice(legal)
        try:
            game = game.apply(action)
        except hr.IllegalActionError as err:
            raise Finding("listing-check", f"playout step {steps}: listed {action} refused by "
                          f"apply(): {err}") from None  # fmt: skip
        steps += 1
        check_conservation(game, f"playout step {steps} after {action}")
        check_taken_meld(game, f"playout step {steps} after {action}")
    return "over"


def whole_mover(doc: JSON) -> bool:
    seat = doc["players"][doc["turn"]]
    return "hand_size" not in seat or seat["hand_size"] == len(seat.get("hand", []))


def check_seed(doc: JSON, game: hr.Round) -> None:
    """The moves of a fully listed mover do not depend on how the rest was filled."""
    if not whole_mover(doc):
        return
    other = copy.deepcopy(doc)
    other["seed"] = doc.get("seed", 0) + 7919
    try:
        again = hr.Round.from_position(serialize.position_from_json(other))
    except hr.HandRummyError as err:
        raise Finding("seed", f"refused under seed {other['seed']}, accepted under "
                      f"{doc.get('seed', 0)}: {err}") from None  # fmt: skip
    if again.hand(again.turn) != game.hand(game.turn):
        return  # a taken card's fill moved cards of the mover: not comparable
    mine, theirs = list(game.legal_actions()), list(again.legal_actions())
    if Counter(mine) != Counter(theirs):
        gone = [str(a) for a in (Counter(mine) - Counter(theirs))][:3]
        new = [str(a) for a in (Counter(theirs) - Counter(mine))][:3]
        raise Finding("seed", f"another fill seed changes the mover's moves: lost {gone}, "
                      f"gained {new}")  # fmt: skip


def check_referee(doc: JSON, game: hr.Round | None, error: str | None) -> None:
    reply = answer({"ask": "legal_actions", "position": doc, "limit": 50})
    if "error" in reply:
        code = reply["error"].get("code")
        if code == "INTERNAL_ERROR":
            raise Finding("referee", f"INTERNAL_ERROR: {reply['error'].get('message')}"[:300])
        if game is not None and code in ("BAD_POSITION", "BAD_FIELD", "BAD_CARD"):
            raise Finding("referee", f"the library accepts, the referee answers {code}: "
                          f"{reply['error'].get('message')}"[:300])  # fmt: skip
        return
    if game is None:
        raise Finding("referee", f"the library refuses ({error}), the referee lists actions")
    mine = [serialize.action_to_json(a) for a in list(game.legal_actions())[:50]]
    if reply["actions"] != mine:
        raise Finding("referee", "the referee's first page differs from legal_actions()")


def impossible(game: hr.Round) -> None:
    """Rules facts that play could not give (a lower-ranked finding)."""
    partners = game.ruleset.opening.shared_by_team
    for seat in range(game.players):
        team = [s for s in range(game.players) if game.team_of(s) == game.team_of(seat)]
        owners = team if partners else [seat]
        owns = any(m.owner in owners for m in game.table)
        if game.opened[seat] and not owns:
            raise Finding("impossible", "a seat has opened but no meld of theirs is on the table")
        if any(m.owner == seat for m in game.table) and not game.opened[seat]:
            raise Finding("impossible", "a seat owns a meld but has not opened")
        if game.melded[seat] and not game.opened[seat] and game.ruleset.layoff.needs_opening:
            raise Finding("impossible", "a seat has melded but not opened")
    opened = sum(game.opened)
    needs_record = game.ruleset.opening.required(0, 0, ()) is not None
    if needs_record and not partners and len(game.openings) != opened:
        raise Finding("impossible", f"{opened} seats opened, {len(game.openings)} openings listed")
    if game.phase is hr.Phase.DRAW and game.current != hr.TurnState():
        raise Finding("impossible", "the turn has done something before its draw")


def audit(entry: JSON, rng: random.Random, args: argparse.Namespace) -> str:
    """Load the mutant as its kind says; returns 'refused: <field>' or the audit's end."""
    kind, doc = entry["kind"], entry["doc"]
    if kind == "round":
        try:
            game = serialize.round_from_json(doc)
        except hr.HandRummyError as err:
            return "refused: " + refusal_key(err)
        impossible_ok = False
    elif kind == "view":
        try:
            view = serialize.view_from_json(doc)
        except hr.HandRummyError as err:
            return "refused: " + refusal_key(err)
        if view.phase not in (hr.Phase.DRAW, hr.Phase.PLAY):
            return "accepted: view of a round not in play"
        try:
            game = hr.Round.from_position(
                serialize.position_from_json(serialize.position_to_json(view))
            )
        except hr.HandRummyError as err:
            # view_from_json checks the form and the card counts only (by design), so a
            # view that no position fits is refused here, not audited
            return "refused: view, as a position: " + refusal_key(err)
        try:
            sampled = view.sample(rng)
        except hr.HandRummyError as err:
            raise Finding("view", f"view accepted, sample() refuses it: {err}"[:300]) from None
        if view.turn == view.seat:
            mine = list(view.legal_actions())
            if mine != list(game.legal_actions()):
                raise Finding("view", "the view's legal actions differ from its position's")
            if mine != list(sampled.legal_actions()):
                raise Finding("view", "the view's legal actions differ from its sample's")
        # the sample is a round too: the same audit, its playout shortened
        try:
            audit_round(sampled, rng, argparse.Namespace(**{**vars(args), "step_cap": 300}))
        except Finding as finding:
            if finding.kind != "step-cap":
                finding.message = "sample(): " + finding.message
                raise
        impossible_ok = True
    else:
        error = None
        try:
            game = hr.Round.from_position(serialize.position_from_json(doc))
        except hr.HandRummyError as err:
            error = refusal_key(err)
            game = None
        if rng.random() < args.referee:
            check_referee(doc, game, error)
        if game is None:
            return "refused: " + str(error)
        check_seed(doc, game)
        impossible_ok = True
    if impossible_ok:
        try:
            impossible(game)
        except Finding as finding:
            low = finding
        else:
            low = None
    else:
        low = None
    ended = audit_round(game, rng, args)
    if low is not None:
        raise low
    return "accepted: " + ended


def refusal_key(err: Exception) -> str:
    """A refusal without its details: the error type and the field at fault."""
    text = str(err)
    field = re.sub(r"\[\d+\]", "[]", text.split(":", 1)[0])[:60]
    return f"{type(err).__name__} {field}"


def partial_mover(entry: JSON) -> bool:
    """Whether the input leaves cards of the player to move to the fill."""
    doc = entry["doc"]
    if entry["kind"] == "view":
        return doc["seat"] != doc["turn"]
    return entry["kind"] == "position" and not whole_mover(doc)


def annotate(finding: Finding, entry: JSON) -> None:
    """Mark a stuck round whose mover's hand was filled, so that it groups apart."""
    if finding.kind == "stuck" and partial_mover(entry):
        ruleset = serialize.rules_from_json(entry["doc"]["rules"])
        exempt = ruleset.opening_exemption.name != "NONE"
        finding.message += f" (fill of the mover's hand, {'exempt' if exempt else 'no exemption'})"


def finding_key(kind: str, message: str) -> str:
    text = re.sub(r"step \d+|\d+(\.\d+)? s\b|\[[^\]]*\]|\b\d+\b", "…", message)
    text = re.sub(r"after \S+( \S+)?:", "after …:", text)
    return f"{kind}: {text[:110]}"


def run_one(entry: JSON, audit_seed: int, args: argparse.Namespace) -> tuple[str, Finding | None]:
    rng = random.Random(audit_seed)
    signal.setitimer(signal.ITIMER_REAL, args.timeout)
    try:
        return audit(entry, rng, args), None
    except Finding as finding:
        return "finding", finding
    except Timeout:
        return "finding", Finding("timeout", f"more than {args.timeout} s on one input")
    except Exception as err:  # any other exception is a crash of the library
        frame = traceback.extract_tb(err.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return "finding", Finding("crash", f"{type(err).__name__} at {where}: {err}"[:300])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


RANK = ["crash", "timeout", "stuck", "step-cap", "listing-check", "conservation", "taken-meld",
        "reload", "seed", "view", "referee", "slow", "impossible"]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=300.0, help="run this long (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, help="stop after this many inputs")
    parser.add_argument("--mixes", type=int, default=3, help="variant compositions per preset")
    parser.add_argument("--out", default="findings", help="directory for the findings' inputs")
    parser.add_argument("--slow", type=float, default=2.0, help="seconds a listing may take")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per input")
    parser.add_argument("--step-cap", type=int, default=STEP_CAP)
    parser.add_argument("--referee", type=float, default=0.15, help="share sent to the referee")
    parser.add_argument("--replay", help="replay one finding's JSON file and print what it does")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    if args.replay:
        saved = json.loads(Path(args.replay).read_text())
        outcome, finding = run_one(saved["input"], saved["audit_seed"], args)
        print(finding if finding is not None else outcome)
        sys.exit(1 if finding is not None else 0)

    rng = random.Random(args.seed)
    start = time.perf_counter()
    all_cases = cases(rng, args.mixes)
    seeds: list[JSON] = []
    for case in all_cases:
        seeds += harvest(case, rng, keep=0.04)
    harvest_time = time.perf_counter() - start
    print(f"{len(seeds)} seeds from {len(all_cases)} cases in {harvest_time:.0f} s")

    out = Path(args.out)
    counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    findings: dict[str, list[Any]] = {}
    inputs = 0
    while time.perf_counter() - start < args.seconds and (
        args.count is None or inputs < args.count
    ):
        if rng.random() < 0.05 and len(seeds) < 20_000:
            seeds += harvest(rng.choice(all_cases), rng, keep=0.04)
        seed = rng.choice(seeds)
        entry = {"kind": seed["kind"], "doc": copy.deepcopy(seed["doc"]), "from": seed["from"]}
        mutate = {"position": mutate_position, "view": mutate_view, "round": mutate_round}
        entry["mutations"] = mutate[seed["kind"]](entry["doc"], rng)
        audit_seed = rng.getrandbits(32)
        inputs += 1
        kinds[entry["kind"]] += 1
        outcome, finding = run_one(entry, audit_seed, args)
        if finding is None:
            counts[outcome] += 1
            continue
        annotate(finding, entry)
        counts[f"finding: {finding.kind}"] += 1
        key = finding_key(finding.kind, finding.message)
        if key not in findings:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"{finding.kind}-{len(findings):03d}.json"
            saved = {"finding": finding.kind, "message": finding.message, "audit_seed": audit_seed,
                     "input": entry}  # fmt: skip
            path.write_text(json.dumps(saved, indent=1))
            findings[key] = [0, str(path), finding.message]
            print(f"  new {key}\n      -> {path}", flush=True)
        findings[key][0] += 1
    elapsed = time.perf_counter() - start
    accepted = sum(n for k, n in counts.items() if k.startswith("accepted"))
    refused = sum(n for k, n in counts.items() if k.startswith("refused"))
    found = sum(n for k, n in counts.items() if k.startswith("finding"))
    print(f"\n{inputs:,} inputs in {elapsed:.0f} s (seed {args.seed}): {dict(kinds)}")
    print(f"accepted {accepted:,}, refused {refused:,}, findings {found:,}")
    print("\noutcomes:")
    for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:>7,}  {key}")
    print(f"\nfindings: {len(findings)} kinds")
    ordered = sorted(findings.items(), key=lambda kv: (RANK.index(kv[0].split(":")[0]), -kv[1][0]))
    for key, (n, path, message) in ordered:
        print(f"  {n:>5} × {key}\n          {path}: {message[:200]}")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
