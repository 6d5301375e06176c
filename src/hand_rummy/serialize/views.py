"""Player-view documents (``"format": "hand-rummy/view"``): everything one player sees, a
finished round's score lines included, checked as they are read."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from hand_rummy.cards import Card
from hand_rummy.errors import InvalidStateError, expect
from hand_rummy.legal import LegalActions
from hand_rummy.melds import MeldRules
from hand_rummy.position import check_position, position_of, table_form
from hand_rummy.round import Phase, PlayerView, TableMeld, TurnState
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.scoring import seats_refusal
from hand_rummy.serialize.common import (
    JSON,
    VERSION,
    VIEW_FORMAT,
    check_format,
    check_sized,
    fail,
    read_bools,
    read_cards,
    read_enum,
    read_fields,
    read_int,
    read_ints,
    read_list,
    read_object,
    read_opt_card,
    read_seat,
)
from hand_rummy.serialize.parts import (
    card_list,
    history_from_json,
    history_to_json,
    openings_from_json,
    openings_to_json,
    outcome_from_json,
    outcome_to_json,
    rules_from_json,
    rules_to_json,
    rules_with_indicator,
    table_from_json,
    table_to_json,
    turn_from_json,
    turn_to_json,
)
from hand_rummy.state import cards_at, counts_of, slots_of, taken_meld_problem
from hand_rummy.visibility import sampled

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
        "hand": card_list(view.hand),
        "demoted": card_list(view.demoted),
        "table": table_to_json(view.table),
        "discards": card_list(view.discards),
        "indicator": view.indicator.ascii if view.indicator is not None else None,
        "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size,
        "opened": list(view.opened),
        "melded": list(view.melded),
        "openings": openings_to_json(view.openings),
        "turns_played": list(view.turns_played),
        "announced": list(view.announced),
        "missed": list(view.missed),
        "reshuffles": view.reshuffles,
        "current": turn_to_json(view.current),
        "redeal_queue": list(view.redeal_queue),
        "history": history_to_json(view.history),
        "outcome": outcome_to_json(view.outcome, breakdown=True),
        **_shown_to_json(view),
        **_renewal_to_json(view),
    }


def _shown_to_json(view: PlayerView) -> JSON:
    """The view's ``shown`` fields, written only where some seat is known to hold a card."""
    if not view.shown:
        return {}
    return {
        "shown": [card_list(cards) for cards in view.shown],
        "shown_demoted": [card_list(cards) for cards in view.shown_demoted],
    }


def _renewal_to_json(view: PlayerView) -> JSON:
    """The view's ``renewal`` fields, written only once the stock has been renewed."""
    if not view.renewal:
        return {}
    return {"renewal": card_list(view.renewal), "drawn": card_list(view.drawn)}


def _renewal_from_json(
    obj: Mapping[str, Any], reshuffles: int, stock_size: int, ruleset: Ruleset
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The ``renewal`` and ``drawn`` of a view document (both or neither; empty where
    neither), checked on their own, the count of renewals already checked against the rules:
    a renewal that count allows, of cards the deck has, enough of
    them left for the stock once this player's draws are gone."""
    if ("renewal" in obj) != ("drawn" in obj):
        fail("document", "'renewal' and 'drawn' come together")
    if "renewal" not in obj:
        return (), ()
    renewal = read_cards(obj["renewal"], "renewal")
    drawn = read_cards(obj["drawn"], "drawn")
    if not renewal:
        fail("renewal", "is written only once the stock has been renewed, with its cards")
    if reshuffles < 1:
        fail("renewal", "the stock has not been renewed (reshuffles is 0)")
    deck = Counter(p.card for p in ruleset.deck.cards())
    extra = Counter(renewal) - deck
    if extra:
        named = ", ".join(sorted(c.ascii for c in extra))
        fail("renewal", f"holds more copies than the deck has of {named}")
    if Counter(drawn) - Counter(renewal):
        fail("drawn", "lists cards that were not renewed into the stock")
    if len(renewal) - len(drawn) < stock_size:
        fail(
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
        fail("document", "'shown' and 'shown_demoted' come together")
    if "shown" not in obj:
        return {}
    players = len(sizes)
    shown = tuple(
        read_cards(cards, f"shown[{i}]") for i, cards in enumerate(read_list(obj["shown"], "shown"))
    )
    demoted = tuple(
        read_cards(cards, f"shown_demoted[{i}]")
        for i, cards in enumerate(read_list(obj["shown_demoted"], "shown_demoted"))
    )
    check_sized(shown, "shown", players)
    check_sized(demoted, "shown_demoted", players)
    for i, (cards, marked) in enumerate(zip(shown, demoted, strict=True)):
        if len(cards) > sizes[i]:
            fail(f"shown[{i}]", f"lists {len(cards)} cards; the hand holds {sizes[i]}")
        if Counter(marked) - Counter(cards):
            fail(f"shown_demoted[{i}]", f"lists cards that are not in shown[{i}]")
        for card in marked:
            if not rules.ruleset.demotion.demotes(card, rules.wilds):
                fail(f"shown_demoted[{i}]", f"{card} is no wild card that these rules demote")
    hand, hand_demoted = hands
    mine = counts_of(shown[seat], demoted[seat])
    if any(n > held for n, held in zip(mine, counts_of(hand, hand_demoted), strict=True)):
        fail(f"shown[{seat}]", "lists cards that are not in the viewer's hand as it holds them")
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
    obj = read_object(value, "document")
    check_format(obj, VIEW_FORMAT)
    obj = read_fields(obj, "document", _VIEW_FIELDS, ("shown", "shown_demoted", "renewal", "drawn"))
    ruleset = rules_from_json(obj["rules"])
    sizes = read_ints(obj["hand_sizes"], "hand_sizes")
    players = len(sizes)
    if not ruleset.players.allows(players):
        fail("hand_sizes", seats_refusal(players, ruleset))
    seat = read_seat(obj["seat"], "seat", players)
    hand = read_cards(obj["hand"], "hand")
    if len(hand) != sizes[seat]:
        fail("hand", f"holds {len(hand)} cards, but hand_sizes[{seat}] is {sizes[seat]}")
    demoted = read_cards(obj["demoted"], "demoted")
    if Counter(demoted) - Counter(hand):
        fail("demoted", "lists cards that are not in the hand")
    indicator = read_opt_card(obj["indicator"], "indicator")
    rules_with_indicator(ruleset, indicator, "indicator")
    rules = MeldRules.of(ruleset, indicator)
    table = tuple(
        TableMeld(m.id, m.owner, *table_form(m.meld, m.kind, rules, f"table[{i}]"))
        for i, m in enumerate(table_from_json(obj["table"], "table", players))
    )
    discards = read_cards(obj["discards"], "discards")
    stock_size = read_int(obj["stock_size"], "stock_size", 0)
    per_seat: dict[str, tuple[Any, ...]] = {
        "opened": read_bools(obj["opened"], "opened"),
        "melded": read_bools(obj["melded"], "melded"),
        "turns_played": read_ints(obj["turns_played"], "turns_played"),
        "announced": read_ints(obj["announced"], "announced"),
        "missed": read_bools(obj["missed"], "missed"),
    }
    for name, values in per_seat.items():
        check_sized(values, name, players)
    phase = read_enum(Phase, obj["phase"], "phase")
    outcome = outcome_from_json(obj["outcome"], "outcome", players, ruleset)
    if (phase is Phase.OVER) != (outcome is not None):
        fail("outcome", "a round has an outcome exactly when its phase is 'over'")
    current = turn_from_json(obj["current"], "current")
    if phase is Phase.DRAW and current != TurnState():
        fail("current", f"the turn has not begun (phase {phase.value!r}), so it has done nothing")
    if current.taken_meld is not None:
        laid = current.laid_down or current.laid_off or current.freed is not None
        problem = taken_meld_problem(current.taken, current.taken_meld, table, laid=laid)
        if problem is not None:
            fail("current.taken_meld", problem)
    queue = tuple(
        read_seat(s, f"redeal_queue[{i}]", players)
        for i, s in enumerate(read_list(obj["redeal_queue"], "redeal_queue"))
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
        fail(
            "document",
            f"shows more copies than the deck has of {', '.join(sorted(c.ascii for c in extra))}",
        )
    reshuffles = read_int(obj["reshuffles"], "reshuffles", 0)
    limit = ruleset.stock.reshuffles
    if limit is not None and reshuffles > limit:
        # checked here for every phase, as a round that is over is not checked as a position
        fail("reshuffles", f"{reshuffles}, but these rules reshuffle at most {limit} times")
    renewal, drawn = _renewal_from_json(obj, reshuffles, stock_size, ruleset)
    total = sum(seen.values()) - len(hand) + sum(sizes) + stock_size
    if total != ruleset.deck.size:
        fail(
            "document",
            f"the hands, stock, discards, table and indicator hold {total} cards; "
            f"the deck has {ruleset.deck.size}",
        )
    view = PlayerView(
        seat=seat,
        ruleset=ruleset,
        dealer=read_seat(obj["dealer"], "dealer", players),
        turn=read_seat(obj["turn"], "turn", players),
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
        openings=openings_from_json(obj["openings"], "openings", players),
        turns_played=per_seat["turns_played"],
        announced=per_seat["announced"],
        missed=per_seat["missed"],
        reshuffles=reshuffles,
        current=current,
        redeal_queue=queue,
        history=history_from_json(obj["history"], "history"),
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
            fail(f"shown[{other}]", f"with the card taken this turn, passes {sizes[other]} cards")
        fixed.update(cards)
    missing = fixed - view.unseen()
    if missing:
        named = ", ".join(sorted(c.ascii for c in missing))
        fail("shown", f"lists {named}, which no hidden place could hold")
    left = view.renewed_left().total()
    if renewal and left < stock_size:
        fail(
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
            fail("shown", f"seat {mover}, whose every card is known, would have no legal move")
    if phase in (Phase.DRAW, Phase.PLAY):
        # a round in play must be one that a position can describe: the same checks of the
        # turn so far, the table's owners, the openings and the announcements
        try:
            check_position(position_of(view))
        except InvalidStateError as err:
            fail("document", f"no round in play fits this view: {err}")
    return view
