"""The frozen data of a round: hands, stock, discard pile, table, whose turn, and the turn so far.

This module holds data and the questions that only read it. What is legal
lives in :mod:`hand_rummy.turn_rules`, what an action does in
:mod:`hand_rummy.transitions`, and the game's face in :mod:`hand_rummy.round`.

A hand is a vector of 106 counts. Entry ``i < 53`` counts the copies of
face ``i`` (:attr:`Card.index`); entry ``53 + i`` counts the copies of face
``i`` that are *demoted*: wild cards taken from the discard pile, which play
only as natural cards (000 §Exchanging wild cards). A demoted copy is a
different slot, so it moves with its physical card through every lay-down,
lay-off and discard, and no separate record can drift from the hand.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain, compress, repeat
from typing import Any, TypeVar

import attrs

from hand_rummy.cards import CARDS, Card, format_cards
from hand_rummy.errors import InvalidStateError, StrictValues, expect, number
from hand_rummy.finder import MeldFinder
from hand_rummy.history import ActionLog
from hand_rummy.melds import Meld, MeldRules
from hand_rummy.rules.opening import OpeningRecord
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.scoring import RoundScore

__all__ = [
    "DEMOTED",
    "Ending",
    "Obligation",
    "Outcome",
    "Phase",
    "RoundState",
    "TableMeld",
    "TurnState",
    "cards_at",
    "cards_of",
    "counts_of",
    "slots_of",
    "taken_meld_problem",
]

DEMOTED = 53
"""Offset of the demoted slots in a hand vector."""

SLOTS = 2 * DEMOTED


class Phase(StrictValues, enum.Enum):
    """Where the round stands: which kind of move the player to move makes next."""

    REDEAL = "redeal"
    """Players dealt a weak hand may ask for a new deal."""
    DRAW = "draw"
    """The turn begins: draw from the stock or take the top discard."""
    PLAY = "play"
    """After drawing: lay down, lay off, exchange, and end the turn with a discard."""
    OVER = "over"
    """The round has ended; its outcome says how."""


class Obligation(StrictValues, enum.Enum):
    """Something the player must do before the turn may end."""

    MELD_TAKEN = "meld_taken"
    """Lay the taken discard down at once (000 §Playing a turn, 002 variant)."""
    OPEN = "open"
    """Open this turn, having taken the discard unopened (004 §5)."""
    USE_FREED_WILD = "use_freed_wild"
    """Use the wild taken in an exchange at once (002 §Exchanging a joker)."""
    GO_OUT = "go_out"
    """Get rid of every card this turn: the opening went below the bar on that promise
    (000 §The first meld, "Exception"; RULES-MATRIX L11)."""
    ONE_CARD = "one_card"
    """End this turn out, or holding one card after the discard: one missing card went onto
    a set of two naturals and a wild on that promise (000 §Exchanging wild cards; RULES-MATRIX
    L10)."""


class Ending(StrictValues, enum.Enum):
    """How a round ended."""

    WENT_OUT = "went_out"
    """A player got rid of every card over several turns."""
    HAND = "hand"
    """A player who had laid nothing before melded the whole hand in one turn: a Hand,
    which doubles the scores."""
    STOCK = "stock"
    """The stock ran out; the ruleset's stock policy says how it scores."""
    REDEAL = "redeal"
    """A redeal was claimed; the round does not count."""


@attrs.frozen
class Outcome:
    """How a round ended and what it scored."""

    ending: Ending
    score: RoundScore
    winner: int | None = None


@attrs.frozen
class TableMeld:
    """A meld on the table: its number, who laid it, the meld in table form and its kind."""

    id: int
    owner: int
    meld: Meld
    kind: MeldKind

    def __attrs_post_init__(self) -> None:
        # the pictures and the text take table melds from callers: a wrong field is refused
        # here rather than deep inside them (the searches build many: one test when right)
        if (
            type(self.id) is int
            and type(self.owner) is int
            and type(self.meld) is Meld
            and type(self.kind) is MeldKind
        ):
            return
        expect(self.id, int, "a table meld's number")
        expect(self.owner, int, "a table meld's owner")
        expect(self.meld, Meld, "a table meld's meld")
        expect(self.kind, MeldKind, "a table meld's kind")

    def __str__(self) -> str:
        return f"{self.id}: {self.meld.describe()}"

    def _repr_svg_(self) -> str:
        """The meld with its number and owner, for notebooks (:func:`hand_rummy.svg.meld`)."""
        from hand_rummy import svg  # noqa: PLC0415 (svg imports this module)

        return svg.meld(self)


@attrs.frozen
class TurnState:
    """What has happened so far in the current turn."""

    taken: Card | None = None
    had_taken: bool = False
    """The player already held a copy of the taken card."""
    obligation: Obligation | None = None
    freed: Card | None = None
    laid_down: bool = False
    laid_off: bool = False
    laid_off_on_others: bool = False
    exchanged_on_others: bool = False
    """A wild exchange put a card of the hand into another player's meld."""
    melded: tuple[Card, ...] = ()
    """The cards this turn has put on the table (laid down, laid off, or put in for a
    wild), less a wild taken back into the hand: each lies on the table, so the end of
    the round counts them once; in a Hand they are the cards of its melds."""
    first_turn_bare: bool = False
    """The starter's bare first turn (000: discard only)."""
    taken_demoted: bool = False
    """The taken card is a wild that lost its wildness (it sits in a demoted slot)."""
    taken_meld: int | None = None
    """The number of the table meld that the taken card went into this turn, while it lies
    there: a wild bought back from that meld by an exchange can then be known to be the
    taken card itself (004 §2 bars it from the discard). A copy of the taken face is the
    taken card when the player held none before the take; where they held one, either may
    be the discard, so the meld the first copy joined is recorded."""


NO_TURN = TurnState()


def taken_meld_problem(
    taken: Card | None, meld_id: int, table: Iterable[TableMeld], *, laid: bool
) -> str | None:
    """Why the card ``taken`` this turn cannot lie in table meld ``meld_id`` (the turn has
    ``laid`` something: put cards on the table or bought a wild), or ``None``; the words
    follow the field's name, as a loader reports them."""
    if taken is None:
        return f"names meld {meld_id}, but no card was taken"
    meld = next((m for m in table if m.id == meld_id), None)
    if meld is None:
        return f"names meld {meld_id}, which is not on the table"
    if taken not in meld.meld.cards:
        return f"names meld {meld_id}, which holds no {taken}, the card taken"
    if not laid:
        return f"names meld {meld_id}, but nothing has left the hand this turn"
    return None


_S = TypeVar("_S", bound="RoundState")


@attrs.frozen(slots=False)
class RoundState:
    """Every fact of a round at one moment; :class:`~hand_rummy.round.Round` adds the game.

    Not slotted: every action copies the state with a few fields changed, and copying an
    instance dictionary is one call where slots would take one per field.
    """

    ruleset: Ruleset
    rules: MeldRules
    dealer: int
    seed: int
    start: tuple[tuple[Card, ...], ...]
    """The deal: every hand, then the stock (top last), then the discard pile, as dealt."""
    hands: tuple[tuple[int, ...], ...]
    """Each seat's hand as 106 counts (see the module docstring for the demoted slots)."""
    stock: tuple[Card, ...]
    discards: tuple[Card, ...]
    table: tuple[TableMeld, ...]
    turn: int
    phase: Phase
    opened: tuple[bool, ...]
    melded: tuple[bool, ...]
    """Whether each player laid anything on the table in an earlier turn."""
    openings: tuple[OpeningRecord, ...]
    turns_played: tuple[int, ...]
    announced: tuple[int, ...]
    missed: tuple[bool, ...]
    current: TurnState
    reshuffles: int
    redeal_queue: tuple[int, ...]
    history: ActionLog
    outcome: Outcome | None
    indicator: Card | None
    shown: tuple[tuple[int, ...], ...] = ()
    """The hand slots of the cards each seat is known by all to hold (one entry a card,
    ascending; empty for every seat where nothing is known): cards taken from the discard
    pile and wilds freed from the table, less any card of the same slot that has left that
    hand since, as nobody can tell which copy went. A round built from a position knows
    nothing of earlier turns."""
    renewal: tuple[Card, ...] = ()
    """The cards turned from the discard pile into the stock at its last renewal, sorted
    (empty before any): everyone saw them go, so the stock holds none but these."""
    drawn: tuple[tuple[Card, ...], ...] = ()
    """Per seat, the cards it has drawn from the stock since the stock's last renewal, each
    known to its drawer alone (empty before any renewal). In a round played from its
    deal the stock is :attr:`renewal` less every seat's ``drawn``; a round sampled from a
    view (or screened for a seat) knows only that seat's draws, the others' left empty, so
    its stock is a part of :attr:`renewal` less that seat's ``drawn``. A round built from
    a position knows of no renewal."""
    finder: MeldFinder = attrs.field(eq=False, repr=False)

    @finder.default
    def _finder(self) -> MeldFinder:
        return MeldFinder.of(self.rules)

    def replace(self: _S, **changes: Any) -> _S:
        """A copy with some fields changed, of the same class: the hot path of every action.

        It checks the names of the fields and nothing else, so a state made with it may
        break the rules (a card twice, a hand of the wrong size); the transitions make
        every new state this way from one they have judged. A state written by hand goes
        through :class:`~hand_rummy.position.Position`, which checks it.
        """
        if not changes.keys() <= _FIELD_SET:
            unknown = sorted(changes.keys() - _FIELD_SET)
            raise InvalidStateError(f"a round has no field {unknown[0]!r}")
        new = object.__new__(type(self))
        # a frozen class refuses setattr; its instance dictionary takes the values at once
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return new

    # --- reading ---------------------------------------------------------------------

    @property
    def players(self) -> int:
        """How many players the round is dealt to."""
        return len(self.hands)

    @property
    def starter(self) -> int:
        """The seat that plays first: the dealer's neighbour, or the dealer, as the rules say."""
        return self.ruleset.deal.starter(self.dealer, self.players)

    @property
    def is_over(self) -> bool:
        """Whether the round has ended (its ``outcome`` is then set)."""
        return self.phase is Phase.OVER

    @property
    def demoted(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's demoted cards: wilds taken from the discard pile that play as natural."""
        return tuple(_demoted_of(hand) for hand in self.hands)

    def hand_demoted(self, seat: int) -> tuple[Card, ...]:
        """The demoted cards ``seat`` holds (``demoted[seat]``, without the other seats')."""
        return _demoted_of(self._vector(seat))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (demoted copies included), sorted by suit and rank."""
        return cards_of(self._vector(seat))

    def _vector(self, seat: int) -> tuple[int, ...]:
        """The hand vector of ``seat``, refusing a seat that is not there."""
        expect(seat, int, "the seat")
        if not 0 <= seat < len(self.hands):
            raise InvalidStateError(
                f"there is no seat {number(seat)} in a round of {len(self.hands)}"
            )
        return self.hands[seat]

    def shown_cards(self, seat: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The cards ``seat`` is known by all to hold (:attr:`shown`), and which of them are
        demoted."""
        self._vector(seat)  # refuses a seat that is not there
        return cards_at(self.shown[seat] if self.shown else ())

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds."""
        return sum(self._vector(seat))

    def team_of(self, seat: int) -> int:
        """The number of ``seat``'s team: the seat itself where everyone plays alone."""
        if not self.ruleset.players.partnerships and 0 <= seat < len(self.hands):
            return seat  # each player is a team of one, numbered by seat
        for team_number, team in enumerate(self.ruleset.players.teams(self.players)):
            if seat in team:
                return team_number
        raise InvalidStateError(f"no seat {seat}")

    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """The seats of each team in a partnership game, else ``None``."""
        if not self.ruleset.players.partnerships:
            return None
        return self.ruleset.players.teams(self.players)

    def required_opening(self, seat: int) -> int | None:
        """The bar ``seat``'s opening must reach now, or ``None`` if that player need not open."""
        if self.opened[seat]:
            return None
        return self.ruleset.opening.required(seat, self.team_of(seat), self.openings, self.players)

    def meld(self, meld_id: int) -> TableMeld | None:
        """The table meld numbered ``meld_id``, if there is one."""
        for meld in self.table:
            if meld.id == meld_id:
                return meld
        return None


_FIELDS = tuple(f.name for f in attrs.fields(RoundState))


_FIELD_SET = frozenset(_FIELDS)


def counts_of(cards: Iterable[Card], demoted: Iterable[Card] = ()) -> tuple[int, ...]:
    """A hand vector of ``cards``, of which the ``demoted`` ones sit in the demoted slots."""
    vector = [0] * SLOTS
    for card in cards:
        vector[card.index] += 1
    for card in demoted:
        if vector[card.index] == 0:
            raise InvalidStateError(f"the demoted {card} is not in the hand")
        vector[card.index] -= 1
        vector[DEMOTED + card.index] += 1
    return tuple(vector)


_FACES = CARDS[:DEMOTED]


def cards_of(vector: Sequence[int]) -> tuple[Card, ...]:
    """The cards of a hand vector, sorted, each demoted copy beside its face."""
    naturals = vector[:DEMOTED]
    if max(naturals) < 2 and not any(vector[DEMOTED:]):
        return tuple(compress(_FACES, naturals))  # most hands: one copy of each card held
    counts = map(operator.add, naturals, vector[DEMOTED:])
    return tuple(chain.from_iterable(map(repeat, _FACES, counts)))


def slots_of(vector: Sequence[int]) -> tuple[int, ...]:
    """The hand slots of a hand vector, one entry a card, ascending."""
    return tuple(slot for slot, count in enumerate(vector) for _ in range(count))


def cards_at(slots: Iterable[int]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The cards in hand ``slots`` (ascending: the naturals, then the demoted copies), and
    the demoted ones among them."""
    ordered = sorted(slots)
    return tuple(CARDS[s % DEMOTED] for s in ordered), tuple(
        CARDS[s % DEMOTED] for s in ordered if s >= DEMOTED
    )


def _demoted_of(vector: Sequence[int]) -> tuple[Card, ...]:
    demoted = vector[DEMOTED:]
    if not any(demoted):
        return ()
    return tuple(CARDS[i] for i in compress(range(DEMOTED), demoted) for _ in range(demoted[i]))


def check_conservation(ruleset: Ruleset, places: Sequence[Sequence[Card]]) -> None:
    """Every card of the ruleset's deck is in exactly one of ``places``."""
    faces = [0] * 53
    for place in places:
        for card in place:
            faces[card.index] += 1
    if tuple(faces) != _deck_faces(ruleset.deck.packs, ruleset.deck.jokers):
        have = Counter(c for place in places for c in place)
        want = Counter(p.card for p in ruleset.deck.cards())
        extra = have - want
        missing = want - have
        parts = []
        if extra:
            parts.append("too many " + format_cards(sorted(extra.elements())))
        if missing:
            parts.append("missing " + format_cards(sorted(missing.elements())))
        raise InvalidStateError(
            f"the cards do not make up the {ruleset.deck.size}-card deck: " + "; ".join(parts)
        )


@functools.lru_cache(maxsize=16)
def _deck_faces(packs: int, jokers: int) -> tuple[int, ...]:
    """How many copies of each face (by :attr:`Card.index`) a deck holds."""
    return (packs,) * 52 + (jokers,)
