"""Positions: a round described as it stands now, not as it was dealt and played.

People argue about positions: "these melds are on the table, I hold these
cards, I took the 7♥ from the discard pile; may I lay off the 8♥ on meld 3?"
A :class:`Position` says what such a dispute needs to say, and no more: the
table melds with their owners, each player's hand (or only how many cards
it holds), the discard pile (or only its top), the stock's size, whose turn
it is and what this turn has done so far. :func:`position_state` checks it
and builds the round's state (the face of it is
:meth:`Round.from_position <hand_rummy.round.Round.from_position>`);
:func:`position_of` describes a round, or a player's view, as a position.

What a position leaves out is worked out or filled in:

* Facts that follow from others have defaults, computed from the position
  (who has opened follows from the owners of the table melds; the
  obligation of a taken card from the rules). A fact that is given must
  agree with the rest, or the position is refused.
* Cards that are not listed (other hands, the stock, the lower discards) are
  the deck less every listed card. They are filled by one documented rule,
  :func:`fill_cards`: in the library's card order, shuffled with the
  position's ``seed``, then dealt to the hands in seat order, then under the
  listed discards, then under the listed stock.

Every refusal is an :class:`~hand_rummy.errors.InvalidStateError` whose
message starts with the field, written as in the JSON document
(``players[1].hand_size: ...``, ``table[0].meld: ...``).

>>> import hand_rummy as hr
>>> spot = Position(
...     hr.rulesets.romme,
...     players=[PositionSeat("5H 6H 7H 8H KS"), PositionSeat(hand_size=9)],
...     table=[PositionMeld(1, 1, "9S 10S JS")],
...     discards="KD",
...     turn=0,
...     phase=hr.Phase.PLAY,
... )
>>> state = position_state(spot)
>>> state.opened, len(state.stock), state.hand(0)[-1]
((False, True), 90, Card.parse('KS'))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

import attrs

from hand_rummy.cards import Card, format_cards, parse_card
from hand_rummy.errors import InvalidStateError, expect, expect_seed, number
from hand_rummy.history import ActionLog
from hand_rummy.legal import generate
from hand_rummy.melds import CardsLike, Meld, MeldRules, judge_meld, read_cards
from hand_rummy.rules.opening import OpeningExemption, OpeningRecord
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.stock import StockTrigger
from hand_rummy.rules.table_setup import FirstTurn
from hand_rummy.rules.turn import FreedWild
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import (
    Obligation,
    Phase,
    RoundState,
    TableMeld,
    TurnState,
    taken_meld_problem,
)
from hand_rummy.state import counts_of as _counts_of
from hand_rummy.turn_rules.gates import promise_checks_counted
from hand_rummy.visibility import Seen

__all__ = [
    "AUTO",
    "FILL_ATTEMPTS",
    "Auto",
    "FillBudget",
    "Position",
    "PositionMeld",
    "PositionSeat",
    "PositionTurn",
    "check_position",
    "fill_cards",
    "position_of",
    "position_state",
    "table_form",
]

Auto = Literal["auto"]
AUTO: Auto = "auto"
"""The obligation of a :class:`PositionTurn` that is worked out from the rules."""


# --- converters: cards may be written as text --------------------------------------------


def _cards(value: CardsLike) -> tuple[Card, ...]:
    return read_cards(value)


def _hand(value: CardsLike) -> tuple[Card, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        # a bare count stands for a hidden hand in Position.players, not here
        raise InvalidStateError(
            f"a seat's hand is its cards, not {value}: a hand of hidden cards is "
            f"PositionSeat(hand_size={value}), or a bare {value} in Position.players"
        )
    return read_cards(value)


def _opt_cards(value: CardsLike | None) -> tuple[Card, ...] | None:
    return None if value is None else read_cards(value)


def _card(value: Card | str | None) -> Card | None:
    if value is None or isinstance(value, Card):
        return value
    expect(value, str, "a card")
    return parse_card(value)


def _meld(value: Meld | CardsLike) -> Meld:
    return value if isinstance(value, Meld) else Meld.of(value)


def _tuple(value: Iterable[object], what: str) -> tuple[object, ...]:
    if isinstance(value, (str, bytes, Mapping)):
        raise InvalidStateError(f"{what} must be a list, not {type(value).__name__}")
    expect(value, Iterable, what)
    return tuple(value)


@attrs.frozen
class PositionSeat:
    """One player of a position: the cards known to be in the hand, and the public facts.

    ``hand`` lists the cards known to be held; ``hand_size`` is how many the
    player holds (by default as many as listed; more, and the rest are filled).
    Every other field is worked out when left at ``None``:

    ``demoted``
        The cards of ``hand`` that are wild cards taken from the discard pile
        and play as natural. Default: the card taken this turn, when the rules
        demote it and it is still in the hand; else none.
    ``opened``
        Whether the player has opened. Default: a meld on the table is theirs
        (or their partner's, where the opening belongs to the team).
    ``melded``
        Whether the player laid cards on the table in an *earlier* turn (a
        Hand needs not). Default: a meld on the table is theirs; for the
        player to move after laying melds down this turn there is no default.
    ``turns_played``
        Turns finished this round; only 0 matters (nobody goes out on their
        first turn, where the rules say so). Default 1, and 0 for everyone on
        the starter's bare first turn.
    ``announced``
        The count of cards announced with the player's last discard (rules
        with announcements). Default: what the rules made them announce.
    ``missed``
        The player forgot an announcement that was due, and may not go out
        on their next turn.
    """

    hand: tuple[Card, ...] = attrs.field(default=(), converter=_hand)
    hand_size: int | None = None
    demoted: tuple[Card, ...] | None = attrs.field(default=None, converter=_opt_cards)
    opened: bool | None = None
    melded: bool | None = None
    turns_played: int | None = None
    announced: int | None = None
    missed: bool = False


@attrs.frozen
class PositionMeld:
    """A meld on the table: its number, the seat that laid it, the meld and (optionally) its kind.

    The meld is judged as a meld under the position's rules, and lies on the
    table in table form (a run from low to high, every wild's role filled in).
    """

    id: int
    owner: int
    meld: Meld = attrs.field(converter=_meld)
    kind: MeldKind | None = None


@attrs.frozen
class PositionTurn:
    """What the player to move has done so far this turn (phase ``play``).

    ``taken`` is the card taken from the discard pile (``None``: the turn drew
    from the stock, or is the starter's bare first turn). ``taken_demoted``
    (whether the taken card lost its wildness) follows from the rules;
    ``had_taken`` (the player held a copy before taking it, so may discard
    that face) defaults to whether the hand holds two copies or more.
    ``obligation`` is what the turn still owes; :data:`AUTO` works it out:
    what taking the card obliges, while nothing has been laid; using the freed
    wild, where the rules want it used at once and the hand still holds it;
    else nothing.
    ``freed`` is a wild taken from a table meld in an exchange, and
    ``exchanged_on_others`` says that an exchange this turn paid another
    player's meld (so the turn is no Hand where adding to others' melds spoils
    one). ``laid_down``, ``laid_off`` and ``laid_off_on_others`` say what has
    been laid; ``melded`` lists the cards this turn has put on the table, by
    lay-downs, lay-offs and exchanges, less a wild taken back (only the Egyptian
    bonuses look at them; default: the cards of the mover's melds when
    ``melded`` of that seat is false and the turn has laid down).
    ``first_turn_bare`` marks the starter's first turn, on which the extra card
    is held and nothing drawn; by default it holds when the discard pile is
    empty and nothing was taken.
    ``taken_meld`` is the id of the table meld that the taken card went into this
    turn, while it lies there: a wild bought back from it is then the taken card
    itself, which 004 §2 bars from the discard; left out, a wild bought back is
    taken for another copy of its face.
    """

    taken: Card | None = attrs.field(default=None, converter=_card)
    taken_demoted: bool | None = None
    had_taken: bool | None = None
    obligation: Obligation | Auto | None = AUTO
    freed: Card | None = attrs.field(default=None, converter=_card)
    laid_down: bool = False
    laid_off: bool = False
    laid_off_on_others: bool = False
    exchanged_on_others: bool = False
    melded: tuple[Card, ...] | None = attrs.field(default=None, converter=_opt_cards)
    first_turn_bare: bool | None = None
    taken_meld: int | None = None

    @property
    def untouched(self) -> bool:
        """Nothing has left the hand this turn: nothing laid down or off, no exchange."""
        return not (self.laid_down or self.laid_off or self.freed is not None)


_NOTHING_DONE = PositionTurn()


def _seats(values: Iterable[PositionSeat | CardsLike | int]) -> tuple[PositionSeat, ...]:
    out = []
    for value in _tuple(values, "the players"):
        if isinstance(value, PositionSeat):
            out.append(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            out.append(PositionSeat(hand_size=value))
        else:
            out.append(PositionSeat(value))  # type: ignore[arg-type]
    return tuple(out)


def _table(values: Iterable[PositionMeld]) -> tuple[PositionMeld, ...]:
    return _tuple(values, "the table")  # type: ignore[return-value]


def _openings(
    values: Iterable[tuple[int, int]] | None,
) -> tuple[tuple[int, int], ...] | None:
    if values is None:
        return None
    out = []
    for i, value in enumerate(_tuple(values, "the openings")):
        pair = _tuple(value, f"openings[{i}]")  # type: ignore[arg-type]
        if len(pair) != 2:
            raise InvalidStateError(f"openings[{i}]: an opening is a (seat, points) pair")
        seat, points = pair
        out.append((_whole(seat, f"openings[{i}].seat"), _whole(points, f"openings[{i}].points")))
    return tuple(out)


@attrs.frozen
class Position:
    """A round as it stands: what a dispute about it says (see the module docstring).

    ``players`` holds one :class:`PositionSeat` per seat (a card text or a
    list of cards is read as a known hand, a number as a hand of that many
    unknown cards). ``discards`` and ``stock`` list the known cards at the
    top of the discard pile and of the stock, bottom first, top last;
    ``discard_size`` and ``stock_size`` say how many cards each holds (by
    default: as many as listed, and for the stock the rest of the deck).
    ``openings`` lists the first melds made this round as ``(seat, points)``
    in the order made, for the rules whose bar depends on them; by default
    each seat that has opened made the least opening its bar allowed, in
    seat order. ``seed`` fills the unknown cards and seeds any reshuffle.
    """

    ruleset: Ruleset
    players: tuple[PositionSeat, ...] = attrs.field(converter=_seats)
    turn: int
    phase: Phase
    table: tuple[PositionMeld, ...] = attrs.field(default=(), converter=_table)
    discards: tuple[Card, ...] = attrs.field(default=(), converter=_cards)
    discard_size: int | None = None
    stock: tuple[Card, ...] = attrs.field(default=(), converter=_cards)
    stock_size: int | None = None
    indicator: Card | None = attrs.field(default=None, converter=_card)
    dealer: int = 0
    current: PositionTurn = _NOTHING_DONE
    openings: tuple[tuple[int, int], ...] | None = attrs.field(default=None, converter=_openings)
    reshuffles: int = 0
    seed: int = 0


# --- the fill rule ---------------------------------------------------------------------


FILL_ATTEMPTS = 1024
"""How many fills a position tries before it is refused (the first, then attempts 1 to 1023):
each new fill is needed only where the unlisted cards dealt to the player to move left that
player no legal move."""


@attrs.define
class FillBudget:
    """The work that the fills dealt again may take, beyond each position's first fill.

    A fill dealt again costs a search of the mover's moves, so a batch of positions that
    no fill can make playable would cost :data:`FILL_ATTEMPTS` searches each; the referee
    gives each question and each array of questions a budget. The work is counted, not
    timed: each fill takes 1, and each move its search checks against a promise to finish
    the turn (a search of the turn after that move) 1 more, so a turn that owes a go-out,
    whose fills may each check dozens of moves, spends it faster. ``spent`` says that a
    position was refused because the budget ran out, not because no fill would do.
    """

    left: int
    spent: bool = False


def fill_cards(cards: Iterable[Card], seed: int, *, attempt: int = 0) -> list[Card]:
    """The cards that a fill deals, in the order it deals them.

    The rule, which positions and :func:`~hand_rummy.deals.fill_deal` share:
    the cards are put in the library's card order (:data:`~hand_rummy.cards.CARDS`:
    clubs, diamonds, hearts, spades, each Ace to King, then the joker) and
    shuffled by Python's ``random.Random(f"{seed}:fill")``, or for a later
    ``attempt`` (a position's fill dealt again) ``random.Random(f"{seed}:fill:{attempt}")``.

    >>> from hand_rummy.cards import parse_cards
    >>> fill_cards(parse_cards("KS 2C JK 2C"), seed=1) == fill_cards(parse_cards("2C JK 2C KS"), 1)
    True
    """
    expect(seed, int, "the seed")
    expect(attempt, int, "the attempt")
    order = sorted(cards, key=lambda card: card.index)
    random.Random(f"{seed}:fill:{attempt}" if attempt else f"{seed}:fill").shuffle(order)
    return order


# --- checking and building -------------------------------------------------------------


def _fail(where: str, message: str) -> InvalidStateError:
    return InvalidStateError(f"{where}: {message}")


def _whole(value: object, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(where, f"expected a whole number, not {type(value).__name__}")
    if value < low:
        raise _fail(where, f"{value} is below {low}")
    return value


def _flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, f"expected true or false, not {type(value).__name__}")
    return value


def _opt_flag(value: object, where: str) -> bool | None:
    return None if value is None else _flag(value, where)


def _expect_types(position: Position) -> None:
    """Wrong Python types are the caller's error, reported as the library's own."""
    expect(position, Position, "the position")
    expect(position.ruleset, Ruleset, "the ruleset")
    expect(position.phase, Phase, "the phase")
    _whole(position.turn, "turn")
    _whole(position.dealer, "dealer")
    _whole(position.reshuffles, "reshuffles")
    expect_seed(position.seed, "seed")  # the seed of the round it makes, as Round.deal's
    if position.discard_size is not None:
        _whole(position.discard_size, "discard_size")
    if position.stock_size is not None:
        _whole(position.stock_size, "stock_size")
    expect(position.current, PositionTurn, "current")
    for i, seat in enumerate(position.players):
        where = f"players[{i}]"
        expect(seat, PositionSeat, where)
        if seat.hand_size is not None:
            _whole(seat.hand_size, f"{where}.hand_size")
        for name in ("opened", "melded"):
            _opt_flag(getattr(seat, name), f"{where}.{name}")
        for name in ("turns_played", "announced"):
            if getattr(seat, name) is not None:
                _whole(getattr(seat, name), f"{where}.{name}")
        _flag(seat.missed, f"{where}.missed")
    for i, meld in enumerate(position.table):
        expect(meld, PositionMeld, f"table[{i}]")
        _whole(meld.id, f"table[{i}].id", 1)
        _whole(meld.owner, f"table[{i}].owner")
        if meld.kind is not None:
            expect(meld.kind, MeldKind, f"table[{i}].kind")
    current = position.current
    for name in ("laid_down", "laid_off", "laid_off_on_others", "exchanged_on_others"):
        _flag(getattr(current, name), f"current.{name}")
    for name in ("taken_demoted", "had_taken", "first_turn_bare"):
        _opt_flag(getattr(current, name), f"current.{name}")
    if current.taken_meld is not None:
        _whole(current.taken_meld, "current.taken_meld", 1)
    if current.obligation is not AUTO and current.obligation is not None:
        expect(current.obligation, Obligation, "current.obligation")
    for i, record in enumerate(position.openings or ()):
        _whole(record[0], f"openings[{i}].seat")
        _whole(record[1], f"openings[{i}].points")


@attrs.frozen
class _Facts:
    """What the checks have established so far, shared by the checks that follow."""

    position: Position
    rules: MeldRules
    table: tuple[TableMeld, ...]
    sizes: tuple[int, ...]
    pile: int
    stock: int

    @property
    def ruleset(self) -> Ruleset:
        return self.position.ruleset

    @property
    def players(self) -> int:
        return len(self.position.players)

    @property
    def mover(self) -> int:
        return self.position.turn

    def owns(self, seat: int) -> bool:
        return any(meld.owner == seat for meld in self.table)

    def team(self, seat: int) -> tuple[int, ...]:
        return next(t for t in self.ruleset.players.teams(self.players) if seat in t)

    def team_number(self, seat: int) -> int:
        return self.ruleset.players.teams(self.players).index(self.team(seat))

    def at_rest(self, seat: int) -> bool:
        """Whether the seat's hand is as that player's last turn left it."""
        return seat != self.mover or self.position.phase is Phase.DRAW


def _seat_range(value: int, where: str, players: int) -> int:
    if not 0 <= value < players:
        raise _fail(where, f"there is no seat {number(value)} among {players} players")
    return value


def _rules_of(position: Position) -> MeldRules:
    ruleset, indicator = position.ruleset, position.indicator
    if ruleset.uses_indicator and indicator is None:
        raise _fail("indicator", f"{ruleset.title} turns an indicator card; it is missing")
    if not ruleset.uses_indicator and indicator is not None:
        raise _fail("indicator", f"{ruleset.title} turns no indicator card, but one is given")
    try:
        return MeldRules.of(ruleset, indicator)
    except InvalidStateError as err:
        raise _fail("indicator", str(err)) from None


def _table_of(position: Position, rules: MeldRules) -> tuple[TableMeld, ...]:
    """The table melds, each judged as a meld and laid in table form."""
    players = len(position.players)
    seen: dict[int, int] = {}
    table = []
    for i, given in enumerate(position.table):
        where = f"table[{i}]"
        if given.id in seen:
            raise _fail(f"{where}.id", f"table[{seen[given.id]}] has the id {given.id} already")
        seen[given.id] = i
        _seat_range(given.owner, f"{where}.owner", players)
        meld, kind = table_form(given.meld, given.kind, rules, where)
        table.append(TableMeld(given.id, given.owner, meld, kind))
    return tuple(table)


def table_form(
    meld: Meld, kind: MeldKind | None, rules: MeldRules, where: str
) -> tuple[Meld, MeldKind]:
    """``meld`` judged and in the form a table holds it (every wild's role worked out as a
    lay-down gives it), refused unless it is a legal meld of ``kind`` (``None``: any kind).

    Raises :class:`~hand_rummy.errors.InvalidStateError` naming ``where``.
    """
    judged = judge_meld(meld, rules)
    if not judged.ok or judged.meld is None or judged.kind is None:
        words = "; ".join(v.message for v in judged.verdict.violations)
        codes = ", ".join(v.code.value for v in judged.verdict.violations)
        raise _fail(f"{where}.meld", f"{meld} is not a legal meld: {words} [{codes}]")
    if kind is not None and kind is not judged.kind:
        raise _fail(f"{where}.kind", f"{kind.value!r}, but {meld} is a {judged.kind.value}")
    return judged.meld, judged.kind


def _listed(position: Position) -> Counter[Card]:
    """Every listed card, place by place; the first one listed more often than the deck holds
    it is refused where it is listed."""
    deck = position.ruleset.deck
    places: list[tuple[str, Sequence[Card]]] = []
    if position.indicator is not None:
        places.append(("indicator", (position.indicator,)))
    places += [(f"table[{i}].meld.cards", m.meld.cards) for i, m in enumerate(position.table)]
    places += [("discards", position.discards), ("stock", position.stock)]
    places += [(f"players[{i}].hand", s.hand) for i, s in enumerate(position.players)]
    listed: Counter[Card] = Counter()
    for where, cards in places:
        for i, card in enumerate(cards):
            listed[card] += 1
            held = deck.copies(card.is_joker)
            if listed[card] > held:
                at = where if where == "indicator" else f"{where}[{i}]"
                copies = "none" if held == 0 else f"only {held}"
                raise _fail(at, f"{card} is listed {listed[card]} times; the deck has {copies}")
    return listed


def _within_deck(size: int, where: str, what: str, ruleset: Ruleset) -> None:
    # first, so that the sums below and their messages stay the size of a deck
    if size > ruleset.deck.size:
        deck = ruleset.deck.size
        raise _fail(where, f"{what} {number(size)} cards, more than the {deck}-card deck")


def _sizes(position: Position) -> tuple[tuple[int, ...], int, int]:
    """Each hand's size, the discard pile's and the stock's, counted against the deck."""
    ruleset = position.ruleset
    sizes = []
    for i, seat in enumerate(position.players):
        size = len(seat.hand) if seat.hand_size is None else seat.hand_size
        _within_deck(size, "players", f"seat {i} holds", ruleset)
        if size < len(seat.hand):
            raise _fail(
                f"players[{i}].hand_size", f"{size}, but the hand lists {len(seat.hand)} cards"
            )
        sizes.append(size)
    pile = len(position.discards) if position.discard_size is None else position.discard_size
    _within_deck(pile, "discard_size", "the discard pile holds", ruleset)
    if pile < len(position.discards):
        listed = len(position.discards)
        raise _fail(
            "discard_size", f"{pile}, but discards lists {listed} card{'s' * (listed != 1)}"
        )
    on_table = sum(len(m.meld.cards) for m in position.table)
    shown = 1 if position.indicator is not None else 0
    deck = ruleset.deck.size
    left = deck - sum(sizes) - on_table - pile - shown
    counted = f"the hands hold {sum(sizes)} cards, the table {on_table}, the discard pile {pile}"
    counted += ", the indicator 1" if shown else ""
    if position.stock_size is None:
        if left < len(position.stock):
            raise _fail(
                "players",
                f"{counted}: that leaves {left} of the {deck}-card deck for the stock, and "
                f"stock lists {len(position.stock)}",
            )
        return tuple(sizes), pile, left
    _within_deck(position.stock_size, "stock_size", "the stock holds", ruleset)
    if position.stock_size < len(position.stock):
        raise _fail(
            "stock_size",
            f"{position.stock_size}, but stock lists {len(position.stock)} cards",
        )
    if position.stock_size != left:
        raise _fail(
            "stock_size",
            f"{position.stock_size}, but {counted}, which leaves {left} of the {deck}-card deck "
            "for the stock",
        )
    return tuple(sizes), pile, left


def _check_hand_sizes(facts: _Facts) -> None:
    deal = facts.ruleset.deal
    for seat, size in enumerate(facts.sizes):
        where = f"players[{seat}].hand_size"
        if size == 0:
            raise _fail(where, "0: a player who has got rid of every card has ended the round")
        rest = facts.at_rest(seat)
        most = deal.hand_size if rest else deal.most_held
        if size > most:
            during = "between turns" if rest else "during their turn"
            raise _fail(where, f"{size}; a player holds at most {most} cards {during} here")


def _check_stock(facts: _Facts) -> None:
    """A stock on which the rules would have renewed it or ended the round before now."""
    policy = facts.ruleset.stock
    draw = facts.position.phase is Phase.DRAW
    players, stock = facts.players, facts.stock
    if policy.trigger is StockTrigger.AT_PLAYER_COUNT:
        if stock < players + (1 if draw else 0):
            raise _fail(
                "stock_size",
                f"{stock} cards among {players} players: under these rules the round ends when, "
                "after a turn, the stock holds no more cards than there are players",
            )
    elif stock == 0 and (draw or policy.trigger is StockTrigger.LAST_CARD_DRAWN):
        when = (
            "the last card of the stock is drawn"
            if policy.trigger is StockTrigger.LAST_CARD_DRAWN
            else "the player to move must draw from an empty stock"
        )
        raise _fail(
            "stock_size", f"0: under these rules the stock is renewed or the round ends when {when}"
        )
    limit = policy.reshuffles
    if limit is not None and facts.position.reshuffles > limit:
        raise _fail(
            "reshuffles",
            f"{facts.position.reshuffles}, but these rules reshuffle at most {limit} times",
        )


def _opened(facts: _Facts) -> tuple[bool, ...]:
    shared = facts.ruleset.opening.shared_by_team
    out = []
    for seat, given in enumerate(facts.position.players):
        where = f"players[{seat}].opened"
        laid = any(facts.owns(s) for s in (facts.team(seat) if shared else (seat,)))
        if given.opened is None:
            out.append(laid)
        elif given.opened and not laid:
            whose = "their team's" if shared else "theirs"
            raise _fail(where, f"true, but no meld on the table is {whose}")
        elif not given.opened and laid:
            why = "theirs" if facts.owns(seat) else "their partner's, and the opening is the team's"
            raise _fail(where, f"false, but a meld on the table is {why}")
        else:
            out.append(given.opened)
    return tuple(out)


def _melded(facts: _Facts, opened: Sequence[bool]) -> tuple[bool, ...]:
    laid_down = facts.position.current.laid_down
    out = []
    for seat, given in enumerate(facts.position.players):
        where = f"players[{seat}].melded"
        if given.melded and not opened[seat] and facts.ruleset.layoff.needs_opening:
            # a lay-down is an opening, and these rules let no one lay off before it
            raise _fail(where, "true, but the player has not opened, so has laid nothing")
        this_turn = seat == facts.mover and laid_down
        if given.melded is None:
            if this_turn:
                raise _fail(
                    where,
                    "needed: this turn has laid melds down (current.laid_down), so say whether "
                    "the player had melded in an earlier turn (a Hand needs not)",
                )
            out.append(facts.owns(seat))
        elif not given.melded and facts.owns(seat) and not this_turn:
            raise _fail(where, "false, but a meld on the table is theirs, laid in an earlier turn")
        else:
            out.append(given.melded)
    return tuple(out)


def _opening_records(
    facts: _Facts, opened: Sequence[bool], melded: Sequence[bool], obligation: Obligation | None
) -> tuple[OpeningRecord, ...]:
    policy = facts.ruleset.opening
    records: list[OpeningRecord] = []
    given = facts.position.openings
    mover = facts.mover
    # a lay-down this turn by a player who had laid nothing before is their opening: the
    # latest of the round, so the last record (where the bar follows the openings before)
    opening_now = facts.position.current.laid_down and not melded[mover]
    if given is None:
        # the least that each seat's bar allowed, in seat order, an opening of this turn last;
        # where partners share an opening, it is one who has melded: a seat that has laid
        # nothing down holds no opening of its own
        order = [s for s in range(facts.players) if not (opening_now and s == mover)]
        order.sort(key=lambda s: not melded[s])
        for seat in order + ([mover] if opening_now else []):
            bar = policy.required(seat, facts.team_number(seat), records, facts.players)
            if opened[seat] and bar is not None:
                records.append(OpeningRecord(seat, facts.team_number(seat), bar))
        return tuple(records)
    for i, (seat, points) in enumerate(given):
        where = f"openings[{i}]"
        _seat_range(seat, f"{where}.seat", facts.players)
        if not opened[seat]:
            raise _fail(f"{where}.seat", f"seat {seat} has not opened")
        if any(r.seat == seat for r in records):
            raise _fail(f"{where}.seat", f"seat {seat} has an opening listed already")
        team = facts.team_number(seat)
        bar = policy.required(seat, team, records, facts.players)
        if bar is None:
            raise _fail(f"{where}.seat", f"seat {seat}'s team had opened already")
        promised = obligation is Obligation.GO_OUT and seat == facts.mover
        if points < bar and not promised:
            raise _fail(f"{where}.points", f"{points}, below the {bar} that this opening needed")
        # a position need not show every meld of an opening, but no opening is worth more
        # than the whole deck at its best values (a bar beyond that would bar every hand)
        most = facts.ruleset.opening_ceiling
        if points > most:
            raise _fail(
                f"{where}.points",
                f"{points}, more than the whole deck could be worth in an opening ({most})",
            )
        records.append(OpeningRecord(seat, team, points))
    for seat in range(facts.players):
        owners = facts.team(seat) if policy.shared_by_team else (seat,)
        if opened[seat] and not any(r.seat in owners for r in records):
            raise _fail("openings", f"seat {seat} has opened, but no opening of theirs is listed")
    mine = [i for i, r in enumerate(records) if r.seat == mover]
    if opening_now and mine and mine[0] != len(records) - 1:
        raise _fail(
            f"openings[{mine[0]}]",
            f"seat {mover} opened this turn (laid_down, and melded nothing before), so theirs "
            f"is the latest opening, but seat {records[-1].seat}'s is listed after it",
        )
    return tuple(records)


def _nothing_done(current: PositionTurn) -> bool:
    return (
        current.taken is None
        and current.freed is None
        and current.untouched
        and not current.laid_off_on_others
        and not current.exchanged_on_others
        and not current.melded
        and not current.taken_demoted
        and not current.had_taken
        and not current.first_turn_bare
        and current.taken_meld is None
        and current.obligation in (AUTO, None)
    )


def _bare_turn(facts: _Facts) -> bool:
    """The starter's first turn (extra card held, nothing drawn): given, or by default when
    the discard pile is empty and nothing has been taken or laid."""
    position, deal = facts.position, facts.ruleset.deal
    current = position.current
    given = current.first_turn_bare
    # where the starter may meld on the first turn (002), melding does not end it
    discard_only = deal.first_turn is FirstTurn.DISCARD_ONLY
    if given is None:
        if current.taken is not None or facts.pile:
            return False
        # every turn ends with a discard, a renewed stock keeps the top card, and a take
        # leaves the taker's discard: after the draw the pile is empty only on the starter's
        # first turn, which draws nothing
        starter = deal.starter(position.dealer, facts.players)
        if not deal.starter_extra_card or facts.mover != starter:
            where = "discards" if position.discards else "discard_size"
            raise _fail(
                where,
                "0 cards, but the pile is empty after the draw only on the first turn of the "
                f"starter (seat {starter}, who holds an extra card under these rules)"
                if deal.starter_extra_card
                else "0 cards, but under these rules the pile is never empty after the draw",
            )
        if discard_only and not current.untouched:
            raise _fail(
                "current",
                "the pile is empty, so this is the starter's first turn, which lays nothing",
            )
        return True
    if given:
        where = "current.first_turn_bare"
        starter = deal.starter(position.dealer, facts.players)
        if not deal.starter_extra_card:
            raise _fail(where, "true, but these rules deal the starter no extra card")
        if facts.mover != starter:
            raise _fail(where, f"true, but seat {starter} starts when seat {position.dealer} deals")
        if current.taken is not None:
            raise _fail("current.taken", "the starter takes nothing on the first turn")
        if facts.pile:
            where = "discards" if position.discards else "discard_size"
            raise _fail(where, "the starter's first discard starts the pile, so it is empty")
        if discard_only and not current.untouched:
            raise _fail(where, "true, but the bare first turn lays nothing down or off")
    return given


def _obligation(
    facts: _Facts, opened: Sequence[bool], melded: Sequence[bool], held: Counter[Card]
) -> Obligation | None:
    """What the turn owes: given, or by default what the taken card obliges while nothing has
    left the hand (those obligations block every other move, so they are exactly that), or,
    after an exchange under rules that want the freed wild used at once, while the hand still
    holds it, using it."""
    position, ruleset = facts.position, facts.ruleset
    current = position.current
    taken = current.taken
    owed: Obligation | None = None
    if taken is not None and current.untouched:
        if held[taken] == 0:  # everyone saw it taken: a hand filled in cannot lose it
            raise _fail(
                f"players[{facts.mover}].hand",
                f"lacks the {taken} taken this turn, which nothing has laid since",
            )
        if ruleset.discard_take.must_meld:
            owed = Obligation.MELD_TAKEN
        elif ruleset.discard_take.must_open and not opened[facts.mover]:
            owed = Obligation.OPEN
    given = current.obligation
    freed = current.freed
    obligation = owed if given == AUTO else given
    must_use = ruleset.exchange.freed_wild is not FreedWild.KEEP
    unused = owed is None and freed is not None and must_use and held[freed]
    if given == AUTO and unused:
        obligation = Obligation.USE_FREED_WILD
    elif given is None and unused and not (current.laid_down or current.laid_off):
        raise _fail(
            "current.obligation",
            f"null, but the {freed} freed this turn is still in the hand, and these rules want "
            "it used at once",
        )
    where = "current.obligation"
    if obligation is not owed:
        if owed is not None:
            raise _fail(
                where,
                f"{_shown(obligation)}, but taking {taken} obliges {owed.value!r}, and nothing "
                "has been laid since",
            )
        if obligation is Obligation.MELD_TAKEN or obligation is Obligation.OPEN:
            raise _fail(
                where,
                f"{_shown(obligation)}, but that follows only from taking a card that these "
                "rules oblige, with nothing laid since",
            )
    if obligation is Obligation.USE_FREED_WILD:
        if freed is None:
            raise _fail(where, "'use_freed_wild', but no wild was freed (current.freed)")
        if ruleset.exchange.freed_wild is FreedWild.KEEP:
            raise _fail(where, "'use_freed_wild', but these rules let the player keep a freed wild")
        if held[freed] == 0:
            raise _fail(
                f"players[{facts.mover}].hand", f"lacks the freed {freed} that is owed to a meld"
            )
    if obligation is Obligation.ONE_CARD:
        if not ruleset.layoff.two_plus_wild_rule:
            raise _fail(
                where,
                "'one_card', but under these rules a set of two naturals and a wild takes any card",
            )
        if not current.laid_off:
            raise _fail(where, "'one_card' follows a lay-off made this turn (laid_off)")
        if not any(_filled_set(facts.rules, m) for m in facts.table):
            # the promise paid for one missing card of two naturals and a wild: that set
            # now holds three naturals at least (an exchange since only adds a fourth)
            raise _fail(
                where,
                "'one_card' follows one missing card laid on a set of two naturals and a "
                "wild, but no set on the table has the four cards, three of them natural, "
                "that such a lay-off leaves",
            )
    if obligation is Obligation.GO_OUT:
        if ruleset.opening_exemption is OpeningExemption.NONE:
            raise _fail(where, "'go_out', but these rules let no opening go below the bar")
        if not (current.laid_down and opened[facts.mover]) or melded[facts.mover]:
            raise _fail(
                where,
                "'go_out' follows an opening below the bar laid down this turn (laid_down), "
                "by a player who had not melded before",
            )
    return obligation


def _filled_set(rules: MeldRules, meld: TableMeld) -> bool:
    """A set that could be one of two naturals and a wild with one missing card laid on it."""
    cards = meld.meld.cards
    demoted = meld.meld.demoted
    naturals = sum(1 for i, c in enumerate(cards) if i in demoted or not rules.is_wild(c))
    return meld.kind is MeldKind.SET and naturals >= 3 and len(cards) >= 4


def _whole_hand(facts: _Facts) -> bool:
    """Whether the position lists every card of the mover's hand (a view of another player
    lists only the cards everyone saw)."""
    listed = facts.position.players[facts.mover]
    return listed.hand_size is None or listed.hand_size == len(listed.hand)


def _shown(obligation: Obligation | None) -> str:
    return "null" if obligation is None else repr(obligation.value)


def _turn_state(
    facts: _Facts, opened: Sequence[bool], melded: Sequence[bool], held: Counter[Card]
) -> TurnState:
    """The turn so far, from the position's :class:`PositionTurn`, checked against the rest."""
    position, ruleset, rules = facts.position, facts.ruleset, facts.rules
    current, mover = position.current, facts.mover
    if position.phase is Phase.DRAW:
        if not _nothing_done(current):
            raise _fail("current", "the turn has not begun (phase 'draw'), so it has done nothing")
        return TurnState()
    bare = _bare_turn(facts)
    taken = current.taken
    demoted = taken is not None and ruleset.demotion.demotes(taken, rules.wilds)
    if current.taken_demoted is not None and current.taken_demoted != demoted:
        if taken is None:
            raise _fail("current.taken_demoted", "true, but no card was taken")
        does = "demote" if demoted else "do not demote"
        raise _fail(
            "current.taken_demoted",
            f"{str(current.taken_demoted).lower()}, but these rules {does} a taken {taken}",
        )
    copies = 0 if taken is None else held[taken]
    had = copies >= 2 if current.had_taken is None else current.had_taken
    if taken is None and had:
        raise _fail("current.had_taken", "true, but no card was taken")
    if taken is not None and had and copies < 2 and current.untouched and _whole_hand(facts):
        raise _fail(
            "current.had_taken",
            f"true, but the hand holds {copies} × {taken}, and nothing was laid since the take",
        )
    if taken is not None and not had and copies >= 2:
        raise _fail(
            "current.had_taken",
            f"false, but the hand holds {copies} × {taken}, and only one was taken",
        )
    obligation = _obligation(facts, opened, melded, held)
    freed = current.freed
    if freed is not None:
        exchange = ruleset.exchange
        if not rules.is_wild(freed):
            raise _fail("current.freed", f"{freed} is not wild under these rules")
        if not exchange.allowed:
            raise _fail("current.freed", "these rules have no wild exchange")
        if exchange.needs_opening and not opened[mover]:
            raise _fail("current.freed", "a wild is taken from the table only after opening")
    if current.laid_down and not facts.owns(mover):
        raise _fail("current.laid_down", f"true, but no meld on the table is seat {mover}'s")
    # a card taken to be melded at once blocks every other move until it is laid, so once
    # anything is laid, it has left the hand
    still_held = copies > (1 if had else 0)  # the taken copy, beside any held before
    if (
        taken is not None
        and ruleset.discard_take.must_meld
        and not current.untouched
        and still_held
    ):
        raise _fail(
            f"players[{mover}].hand",
            f"holds the {taken} taken this turn, which had to be laid before anything else",
        )
    # a freed wild goes to the hand, and leaves it only by a lay-down or a lay-off (a view
    # of another player lists the hand only in part)
    laid_since = current.laid_down or current.laid_off
    if freed is not None and _whole_hand(facts) and not laid_since and not held[freed]:
        raise _fail(
            f"players[{mover}].hand", f"lacks the freed {freed}, and nothing has been laid since"
        )
    if current.laid_off and ruleset.layoff.needs_opening and not opened[mover]:
        raise _fail("current.laid_off", "true, but the player has not opened")
    if current.laid_off_on_others and not current.laid_off:
        raise _fail("current.laid_off_on_others", "true, but current.laid_off is false")
    if current.laid_off_on_others and all(m.owner == mover for m in facts.table):
        raise _fail("current.laid_off_on_others", "true, but every meld on the table is theirs")
    if current.exchanged_on_others and current.freed is None:
        raise _fail("current.exchanged_on_others", "true, but current.freed names no wild")
    if current.exchanged_on_others and all(m.owner == mover for m in facts.table):
        raise _fail("current.exchanged_on_others", "true, but every meld on the table is theirs")
    laid = current.melded
    if laid is None:
        mine = (c for m in facts.table if m.owner == mover for c in m.meld.cards)
        laid = tuple(mine) if current.laid_down and not melded[mover] else ()
    elif laid and not (current.laid_down or current.laid_off or current.freed is not None):
        raise _fail("current.melded", "lists cards, but this turn has put none on the table")
    else:
        # they are cards on the table, which the end of the round counts beside the hands
        on_table = Counter(c for m in facts.table for c in m.meld.cards)
        missing = [card for card, count in Counter(laid).items() if count > on_table[card]]
        if missing:
            shown = format_cards(sorted(missing))
            raise _fail("current.melded", f"lists {shown} more often than the table holds it")
    # the cards laid this turn came from the hand, which held at most one card more than
    # a deal gives (an exchange, which sets ``freed``, brings a wild back for what it pays)
    most = ruleset.deal.most_held
    if freed is None and facts.sizes[mover] + len(laid) > most:
        raise _fail(
            f"players[{mover}].hand",
            f"{facts.sizes[mover]} cards beside the {len(laid)} laid this turn: a player holds "
            f"at most {most} cards in a turn",
        )
    _check_taken_meld(facts, current, had, copies)
    return TurnState(
        taken=taken,
        had_taken=had,
        obligation=obligation,
        freed=freed,
        laid_down=current.laid_down,
        laid_off=current.laid_off,
        laid_off_on_others=current.laid_off_on_others,
        exchanged_on_others=current.exchanged_on_others,
        melded=laid,
        first_turn_bare=bare,
        taken_demoted=demoted,
        taken_meld=current.taken_meld,
    )


def _check_taken_meld(facts: _Facts, current: PositionTurn, had: bool, copies: int) -> None:
    """Refuses a place of the taken card that cannot be where it lies."""
    meld_id, taken = current.taken_meld, current.taken
    if meld_id is None:
        return
    where = "current.taken_meld"
    problem = taken_meld_problem(taken, meld_id, facts.table, laid=not current.untouched)
    if problem is not None:
        raise _fail(where, problem)
    if not had and copies and _whole_hand(facts):
        raise _fail(
            where,
            f"names meld {meld_id}, but the hand still holds the {taken} taken, its only copy",
        )


def _demoted(facts: _Facts, turn: TurnState) -> tuple[tuple[Card, ...], ...]:
    """Each seat's demoted cards, and the taken card in the slot its demotion gives it."""
    rules, mover = facts.rules, facts.mover
    keeps_taken = turn.taken is not None and facts.position.current.untouched
    out = []
    for seat, given in enumerate(facts.position.players):
        where = f"players[{seat}].demoted"
        demoted = given.demoted
        if demoted is None:
            default = seat == mover and keeps_taken and turn.taken_demoted
            demoted = (turn.taken,) if default and turn.taken in given.hand else ()
        for i, card in enumerate(demoted):
            if not facts.ruleset.demotion.demotes(card, rules.wilds):
                raise _fail(f"{where}[{i}]", f"{card} is no wild card that these rules demote")
        extra = Counter(demoted) - Counter(given.hand)
        if extra:
            shown = format_cards(sorted(extra.elements()))
            raise _fail(where, f"lists {shown}, which the hand does not list")
        just_taken = seat == mover and keeps_taken and tuple(demoted) == (turn.taken,)
        if demoted and facts.ruleset.discard_take.must_meld and not just_taken:
            # a card taken from the pile goes down before anything else, and on the table a
            # demoted card is a natural one that no exchange takes back
            raise _fail(
                where,
                f"lists {format_cards(demoted)}, but under these rules a card taken from the "
                "pile is laid at once, so only the card just taken can be held demoted",
            )
        if seat == mover and keeps_taken and turn.taken in given.hand:
            ordinary = given.hand.count(turn.taken) - demoted.count(turn.taken)
            if turn.taken_demoted and turn.taken not in demoted:
                raise _fail(
                    where,
                    f"the taken {turn.taken} lost its wildness and is still in the hand; list it",
                )
            if not turn.taken_demoted and ordinary == 0:
                raise _fail(where, f"the taken {turn.taken} is no demoted card under these rules")
        out.append(tuple(c for c in demoted if c is not None))
    return tuple(out)


def _turns_played(facts: _Facts, bare: bool, melded: Sequence[bool]) -> tuple[int, ...]:
    """Each seat's finished turns. Play goes round from the starter, so while the player to
    move is on their first turn, they and the seats after them (up to the starter) have
    played none and the seats before them one; after it, everyone has played."""
    position, mover, players = facts.position, facts.mover, facts.players
    starter = facts.ruleset.deal.starter(position.dealer, players)
    first_round = bare or position.players[mover].turns_played == 0

    def unplayed(seat: int) -> bool:
        return first_round and (seat - starter) % players >= (mover - starter) % players

    out = []
    for seat, given in enumerate(position.players):
        where = f"players[{seat}].turns_played"
        played = given.turns_played
        if played is None:
            played = 0 if unplayed(seat) else 1
        elif bare and played:
            raise _fail(where, f"{played}, but the starter's bare first turn is the round's first")
        elif unplayed(seat) and played:
            raise _fail(
                where,
                f"{played}, but seat {mover} is on their first turn, and seat {seat} plays "
                f"after them (play starts at seat {starter})",
            )
        elif not unplayed(seat) and not played:
            why = (
                f"plays before seat {mover}, who is on their first turn (play starts at seat "
                f"{starter})"
                if first_round
                else f"seat {mover} has played a turn, and everyone plays once before anyone "
                "plays twice"
            )
            raise _fail(where, f"0, but {why}")
        if melded[seat] and not played:
            raise _fail(
                f"players[{seat}].turns_played",
                "0, but a meld on the table is theirs, laid in an earlier turn",
            )
        out.append(played)
    return tuple(out)


def _announcements(facts: _Facts, bare: bool) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """What each player announced with their last discard, and who missed an announcement.

    A hand at rest is as the last discard left it: it announced its size exactly when the
    rules asked (three cards or fewer in 000), unless the player forgot (``missed``).
    """
    limit = facts.ruleset.going_out.announce_at
    announced, missed = [], []
    current = facts.position.current
    for seat, given in enumerate(facts.position.players):
        where = f"players[{seat}]"
        size = facts.sizes[seat]
        # the mover who has only drawn holds one card more than the last discard left
        drawn = not facts.at_rest(seat) and current.untouched and not bare
        said = given.announced
        if (said or given.missed) and not limit:
            field = "missed" if given.missed else "announced"
            raise _fail(f"{where}.{field}", "these rules have no announcements")
        if said and said > limit:
            raise _fail(
                f"{where}.announced", f"{said}, but only {limit} cards or fewer are announced"
            )
        if said and given.missed:
            raise _fail(f"{where}.missed", "true, but the player announced")
        if (facts.at_rest(seat) or drawn) and limit:
            if drawn:
                size -= 1
                held = f"held {size} cards after their last discard (and has drawn since)"
            else:
                held = f"holds {size} cards and has not played since"
            due = 0 < size <= limit
            if said is None:
                said = size if due and not given.missed else 0
            if said not in (0, size):
                raise _fail(f"{where}.announced", f"{said}, but the player {held}")
            if due and not said and not given.missed:
                raise _fail(
                    f"{where}.announced",
                    f"0, but the player {held}, which the rules make them announce "
                    "(or say missed: true)",
                )
            if not due and given.missed:
                raise _fail(f"{where}.missed", f"true, but the player {held}: nothing was due")
        announced.append(said or 0)
        missed.append(given.missed)
    return tuple(announced), tuple(missed)


def _dealt_first(order: Sequence[Card], at: int, count: int, face: Card) -> list[Card]:
    """``order`` with ``count`` cards that are not ``face`` moved, in their order, to ``at``
    (the rest keeps its order after them)."""
    rest = list(order[at:])
    chosen = [card for card in rest if card != face][:count]
    if len(chosen) < count:
        raise _fail(
            "players", f"the cards left to deal are copies of {face}, which the mover lacks"
        )
    for card in chosen:
        rest.remove(card)
    return [*order[:at], *chosen, *rest]


def position_state(position: Position, *, budget: FillBudget | None = None) -> RoundState:
    """The round's state at ``position``: checked, its defaults worked out and its unknown
    cards filled (see the module docstring). It has no deal: ``start`` is empty. The work of
    each fill dealt again (:class:`FillBudget` says how it is counted) is taken from
    ``budget``, where one is given.

    Raises :class:`~hand_rummy.errors.InvalidStateError` naming the field at fault.
    """
    first = _first_fill(position)
    state, facts, turn = first.state, first.facts, first.turn
    if _has_move(state):
        return state
    owed = f" (the turn owes {turn.obligation.value!r})" if turn.obligation else ""
    where = "current.obligation" if turn.obligation else "current"
    if _whole_hand(facts):
        raise _no_move(position, turn)
    # The cards filled into the mover's hand decide the move: a turn that owes a meld was
    # taken on a hand that could make it, so the fill is dealt again until its hand can.
    # Only the mover's hand decides whether the mover has a move (the stock and the pile
    # below its listed top count by their sizes alone), so a hand tried once is not searched
    # again: with few cards unlisted, most fills repeat one
    tried = {state.hands[position.turn]}
    for attempt in range(1, FILL_ATTEMPTS):
        if budget is not None:
            if budget.left <= 0:
                budget.spent = True
                raise _fail(
                    where,
                    f"after {attempt} fills of seat {position.turn}'s unlisted cards, none "
                    f"leaving a legal move{owed}, the work allowed to fills is used up",
                )
            budget.left -= 1
        order = fill_cards(first.unlisted.elements(), position.seed, attempt=attempt)
        hands, discards, stock_cards = _filled(facts, turn, first.demoted, order)
        if hands[position.turn] in tried:
            continue
        tried.add(hands[position.turn])
        state = state.replace(hands=hands, discards=discards, stock=stock_cards)
        with promise_checks_counted() as checks:
            found = _has_move(state)
        if found:
            return state
        if budget is not None:
            # under a promise each move listed is checked by a search: those are the cost
            budget.left -= checks.count
    raise _fail(
        where,
        f"none of {FILL_ATTEMPTS} fills of seat {position.turn}'s unlisted cards leaves a legal "
        f"move{owed}; list that hand whole",
    )


def check_position(position: Position) -> None:
    """Every check of :func:`position_state` but one: that some fill of the unlisted cards
    leaves the player to move a legal move, which a partly listed hand cannot settle (a
    player's view of another seat's turn, say, where a fill may be hard to find though the
    real hand had its move). With that hand listed whole, that is checked too.

    Raises :class:`~hand_rummy.errors.InvalidStateError` naming the field at fault.
    """
    first = _first_fill(position)
    if _whole_hand(first.facts) and not _has_move(first.state):
        raise _no_move(position, first.turn)


def _no_move(position: Position, turn: TurnState) -> InvalidStateError:
    owed = f" (the turn owes {turn.obligation.value!r})" if turn.obligation else ""
    return _fail(
        "current.obligation" if turn.obligation else "current",
        f"seat {position.turn} has no legal move here{owed}: play cannot reach this position",
    )


@attrs.frozen
class _FirstFill:
    """A checked position and the round of its first fill, with what a later fill needs."""

    state: RoundState
    facts: _Facts
    turn: TurnState
    demoted: tuple[tuple[Card, ...], ...]
    unlisted: Counter[Card]


def _first_fill(position: Position) -> _FirstFill:
    """Every check of a position, and its round with the unlisted cards dealt by the fill."""
    _expect_types(position)
    ruleset = position.ruleset
    players = len(position.players)
    if not ruleset.players.allows(players):
        raise _fail(
            "players",
            f"{players} players, but {ruleset.title} is for "
            f"{ruleset.players.describe().rstrip('.').lower()}",
        )
    _seat_range(position.turn, "turn", players)
    _seat_range(position.dealer, "dealer", players)
    if position.phase not in (Phase.DRAW, Phase.PLAY):
        raise _fail(
            "phase",
            f"{position.phase.value!r}: a position is a round in play, in phase 'draw' or 'play' "
            "(a redeal is asked of a deal; a finished round asks nothing)",
        )
    rules = _rules_of(position)
    table = _table_of(position, rules)
    listed = _listed(position)
    sizes, pile, stock = _sizes(position)
    facts = _Facts(position, rules, table, sizes, pile, stock)
    if position.phase is Phase.DRAW and not pile:
        # every turn ends with a discard (the starter's first one too), a take leaves the
        # taker's discard, and a renewed stock keeps the top card
        raise _fail("discard_size", "0, but a player about to draw always finds a discard")
    if position.phase is Phase.DRAW and not position.discards:
        # the player to move may take it: a card filled in there would decide the moves
        raise _fail(
            "discards",
            f"empty, but the pile holds {pile} cards: the top card lies face up, and the player "
            "to move may take it, so list it (the last card of discards is the top)",
        )
    _check_hand_sizes(facts)
    _check_stock(facts)
    opened = _opened(facts)
    melded = _melded(facts, opened)
    held = Counter(position.players[position.turn].hand)
    turn = _turn_state(facts, opened, melded, held)
    openings = _opening_records(facts, opened, melded, turn.obligation)
    demoted = _demoted(facts, turn)
    announced, missed = _announcements(facts, turn.first_turn_bare)
    if turn.obligation is Obligation.ONE_CARD and 1 in announced:
        # once "one card" is announced, the set takes its missing card with no promise
        raise _fail(
            "current.obligation",
            f"'one_card', but seat {announced.index(1)} has announced one card, so the lay-off "
            "on a set of two naturals and a wild needed no promise",
        )
    unlisted = Counter(p.card for p in ruleset.deck.cards()) - listed
    hands, discards, stock_cards = _filled(
        facts, turn, demoted, fill_cards(unlisted.elements(), position.seed)
    )
    state = RoundState(
        ruleset=ruleset,
        rules=rules,
        dealer=position.dealer,
        seed=position.seed,
        start=(),
        hands=hands,
        stock=stock_cards,
        discards=discards,
        table=table,
        turn=position.turn,
        phase=position.phase,
        opened=opened,
        melded=melded,
        openings=openings,
        turns_played=_turns_played(facts, turn.first_turn_bare, melded),
        announced=announced,
        missed=missed,
        current=turn,
        reshuffles=position.reshuffles,
        redeal_queue=(),
        history=ActionLog(),
        outcome=None,
        indicator=position.indicator,
    )
    bar = state.required_opening(position.turn)
    obligation = turn.obligation
    exempt = ruleset.opening_exemption is not OpeningExemption.NONE
    owes_opening = obligation is Obligation.OPEN or obligation is Obligation.MELD_TAKEN
    if owes_opening and obligation is not None and bar is not None and not exempt:
        # whatever cards the fill deals, they must open at once: a hand too small for the bar
        # could never have taken the card
        most = sizes[position.turn] * ruleset.opening_values.most
        if most < bar:
            raise _fail(
                "current.obligation",
                f"{obligation.value!r}, but {sizes[position.turn]} cards are worth {most} "
                f"at most, short of the {bar} that the opening owed needs",
            )
    return _FirstFill(state, facts, turn, demoted, unlisted)


def _has_move(state: RoundState) -> bool:
    return any(True for _ in generate(state))


def _filled(
    facts: _Facts, turn: TurnState, demoted: Sequence[tuple[Card, ...]], order: list[Card]
) -> tuple[tuple[tuple[int, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """The hands, the discard pile and the stock, with the unlisted cards dealt in ``order``
    (the rule of the module docstring)."""
    position, sizes = facts.position, facts.sizes
    at = 0
    hands = []
    for seat, given in enumerate(position.players):
        more = sizes[seat] - len(given.hand)
        if seat == position.turn and turn.taken is not None and not turn.had_taken and more:
            # the mover held no copy of the card taken this turn: deal them none
            order = _dealt_first(order, at, more, turn.taken)
        hands.append(_counts_of((*given.hand, *order[at : at + more]), demoted[seat]))
        at += more
    lower = facts.pile - len(position.discards)
    discards = (*order[at : at + lower], *position.discards)
    at += lower
    return tuple(hands), discards, (*order[at:], *position.stock)


# --- describing a round as a position ----------------------------------------------------


def _turn_of(turn: TurnState) -> PositionTurn:
    return PositionTurn(
        taken=turn.taken,
        taken_demoted=turn.taken_demoted,
        had_taken=turn.had_taken,
        obligation=turn.obligation,
        freed=turn.freed,
        laid_down=turn.laid_down,
        laid_off=turn.laid_off,
        laid_off_on_others=turn.laid_off_on_others,
        exchanged_on_others=turn.exchanged_on_others,
        melded=turn.melded,
        first_turn_bare=turn.first_turn_bare,
        taken_meld=turn.taken_meld,
    )


def position_of(source: RoundState | Seen) -> Position:
    """``source`` described as a position: every card of a round, or what a player's view shows.

    From a round, every hand, the whole discard pile and the whole stock are
    listed, so :func:`position_state` gives the round back (without its deal and
    history). From a view, the other hands are card counts and the stock a
    size, to be filled; what everyone saw go into the hand of the player to move
    and knows is still there (:meth:`~hand_rummy.visibility.Seen.known_to_all`: the
    card taken this turn, a wild freed from the table) is listed in that hand.

    Raises :class:`~hand_rummy.errors.InvalidStateError` for a round that is not
    in phase ``draw`` or ``play``.
    """
    expect(source, (RoundState, Seen), "the round or view")
    if source.phase not in (Phase.DRAW, Phase.PLAY):
        raise InvalidStateError(
            f"a position is a round in play (phase 'draw' or 'play'); this one is in phase "
            f"{source.phase.value!r}"
        )
    current = source.current
    in_draw = source.phase is Phase.DRAW
    turn = PositionTurn() if in_draw else _turn_of(current)
    table = tuple(PositionMeld(m.id, m.owner, m.meld, m.kind) for m in source.table)

    def seat(
        s: int, hand: tuple[Card, ...], size: int | None, demoted: tuple[Card, ...]
    ) -> PositionSeat:
        return PositionSeat(
            hand,
            size,
            demoted=demoted,
            opened=source.opened[s],
            melded=source.melded[s],
            turns_played=source.turns_played[s],
            announced=source.announced[s],
            missed=source.missed[s],
        )

    if isinstance(source, RoundState):
        seats = [seat(s, source.hand(s), None, source.demoted[s]) for s in range(source.players)]
        stock, stock_size, seed = source.stock, None, source.seed
    else:
        seats = []
        seen, demoted = source.known_to_all()
        for s in range(source.players):
            if s == source.seat:
                seats.append(seat(s, source.hand, None, source.demoted))
            elif s == source.turn and seen:
                seats.append(seat(s, tuple(seen), source.hand_sizes[s], demoted))
            else:
                seats.append(seat(s, (), source.hand_sizes[s], ()))
        stock, stock_size, seed = (), source.stock_size, 0
    return Position(
        source.ruleset,
        seats,
        source.turn,
        source.phase,
        table=table,
        discards=source.discards,
        stock=stock,
        stock_size=stock_size,
        indicator=source.indicator,
        dealer=source.dealer,
        current=turn,
        openings=tuple((r.seat, r.points) for r in source.openings),
        reshuffles=source.reshuffles,
        seed=seed,
    )
