"""A round of play: the state, its legal actions, applying them, and scoring the end.

A :class:`Round` is immutable: :meth:`Round.apply` returns the next round and
leaves the old one as it was, so a search can keep every position it visits.
Every rule that acts during a round comes from the ruleset's policies; the
engine never asks which preset it is playing.

>>> from hand_rummy.rules import presets
>>> game = Round.deal(presets.levant, players=4, seed=7)
>>> game.phase, game.turn, len(game.hand(game.turn))
(<Phase.PLAY: 'play'>, 1, 15)
>>> game.legal_actions().count()  # the starter only discards
15
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from hand_rummy.legal import LegalActions
    from hand_rummy.view import PlayerView

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
)
from hand_rummy.cards import CARDS, Card, format_cards
from hand_rummy.errors import IllegalActionError, InvalidStateError
from hand_rummy.finder import MeldFinder
from hand_rummy.melds import Meld, MeldRules, judge_meld
from hand_rummy.melds import _cards as read
from hand_rummy.opening import judge_opening
from hand_rummy.rules.opening import OpeningExemption, OpeningRecord
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.stock import StockEnd, StockTrigger
from hand_rummy.rules.table_setup import FirstTurn
from hand_rummy.rules.turn import FreedWild
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.scoring import PlayerEnd, RoundEnd, RoundScore, score_round
from hand_rummy.table import LayoffContext, exchange, lay_off
from hand_rummy.verdict import Code, Verdict, Violation

__all__ = [
    "Ending",
    "Obligation",
    "Outcome",
    "Phase",
    "Round",
    "TableMeld",
    "TurnState",
]


class Phase(enum.Enum):
    REDEAL = "redeal"
    """Players dealt a weak hand may ask for a new deal."""
    DRAW = "draw"
    PLAY = "play"
    """After drawing: lay down, lay off, exchange, and end the turn with a discard."""
    OVER = "over"


class Obligation(enum.Enum):
    """Something the player must do before the turn may end."""

    MELD_TAKEN = "meld_taken"
    """Lay the taken discard down at once (000 §Playing a turn, 002 variant)."""
    OPEN = "open"
    """Open this turn, having taken the discard unopened (004 §5)."""
    USE_FREED_WILD = "use_freed_wild"
    """Use the wild taken in an exchange at once (002 §Exchanging a joker)."""


class Ending(enum.Enum):
    WENT_OUT = "went_out"
    HAND = "hand"
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

    def __str__(self) -> str:
        return f"{self.id}: {self.meld.describe()}"


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
    melded: tuple[Card, ...] = ()
    first_turn_bare: bool = False
    """The starter's bare first turn (000: discard only)."""


_NO_TURN = TurnState()


_RULE_TURN = (
    "a turn: draw, meld, discard (000 §Playing a turn, 002 §Playing a turn, 003 §Turn Flow)"
)
_RULE_LAYOFF_GATE = (
    "no adding to melds before your first meld (000 §The first meld, 002 §The first meld, 004 §4)"
)
_RULE_EXCHANGE_GATE = "exchanging wild cards (000 §Exchanging wild cards, 002 §Exchanging a joker)"
_RULE_OBLIGATIONS = (
    "what taking the discard or a wild obliges (000 §Playing a turn, 002 §Exchanging a joker, "
    "004 §5)"
)


def _counts(cards: Iterable[Card]) -> tuple[int, ...]:
    vector = [0] * 53
    for card in cards:
        vector[card.index] += 1
    return tuple(vector)


def _cards(vector: Sequence[int]) -> tuple[Card, ...]:
    return tuple(CARDS[i] for i in range(53) for _ in range(vector[i]))


def _rule(text: str) -> str:
    return text


@attrs.frozen
class Round:
    """One round: build it with :meth:`deal` (a seeded shuffle) or :meth:`from_deal`."""

    ruleset: Ruleset
    rules: MeldRules
    dealer: int
    seed: int
    start: tuple[tuple[Card, ...], ...]
    """The deal: every hand, then the stock (top last), then the discard pile, as dealt."""
    hands: tuple[tuple[int, ...], ...]
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
    demoted: tuple[tuple[Card, ...], ...]
    current: TurnState
    reshuffles: int
    redeal_queue: tuple[int, ...]
    history: tuple[Action, ...]
    outcome: Outcome | None
    indicator: Card | None
    finder: MeldFinder = attrs.field(eq=False, repr=False)
    _listed: list[tuple[tuple[Action, ...], frozenset[Action]]] = attrs.field(
        factory=list, eq=False, repr=False, init=False
    )
    """The legal actions once fully listed: ``apply`` then need not judge them again."""

    @finder.default
    def _finder(self) -> MeldFinder:
        return MeldFinder.of(self.rules)

    # --- creation -------------------------------------------------------------------

    @classmethod
    def deal(cls, ruleset: Ruleset, players: int, seed: int, dealer: int = 0) -> Round:
        """Shuffle the ruleset's deck with ``seed`` and deal, as the rules say."""
        if not ruleset.players.allows(players):
            raise InvalidStateError(
                f"{ruleset.title} is for {ruleset.players.describe().rstrip('.')}, not {players}"
            )
        if not 0 <= dealer < players:
            raise InvalidStateError(
                f"the dealer must be a seat from 0 to {players - 1}, not {dealer}"
            )
        cards = [p.card for p in ruleset.deck.cards()]
        random.Random(seed).shuffle(cards)
        deal = ruleset.deal
        starter = deal.starter(dealer, players)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for seat in range(players):
            extra = 1 if deal.starter_extra_card and seat == starter else 0
            for _ in range(deal.hand_size + extra):
                hands[seat].append(cards.pop())
        stock = cards
        indicator = None
        if ruleset.uses_indicator:
            indicator = stock.pop()
            while ruleset.wilds.turns_again(indicator):
                # a joker indicator goes back into the middle of the stock (000 §Wild cards)
                stock.insert(len(stock) // 2, indicator)
                indicator = stock.pop()
        discards = [stock.pop()] if deal.upcard else []
        return cls.from_deal(
            ruleset, hands, stock, discards=discards, indicator=indicator, dealer=dealer, seed=seed
        )

    @classmethod
    def from_deal(
        cls,
        ruleset: Ruleset,
        hands: Sequence[Iterable[Card | str] | str],
        stock: Iterable[Card | str] | str,
        *,
        discards: Iterable[Card | str] | str = (),
        indicator: Card | str | None = None,
        dealer: int = 0,
        seed: int = 0,
    ) -> Round:
        """A round from an explicit deal; ``stock`` lists the cards bottom first (top last).

        The deal is checked: every card of the ruleset's deck is in exactly one place.
        """
        players = len(hands)
        if not ruleset.players.allows(players):
            raise InvalidStateError(f"{ruleset.title} cannot be played by {players} players")
        if not 0 <= dealer < players:
            raise InvalidStateError(
                f"the dealer must be a seat from 0 to {players - 1}, not {dealer}"
            )
        hand_cards = tuple(read(h) for h in hands)
        stock_cards, pile = read(stock), read(discards)
        shown = read([indicator]) if isinstance(indicator, (str, Card)) else ()
        _check_conservation(ruleset, [*hand_cards, stock_cards, pile, shown])
        try:
            rules = MeldRules.of(ruleset, shown[0] if shown else None)
        except InvalidStateError:
            raise
        deal = ruleset.deal
        starter = deal.starter(dealer, players)
        sizes = [len(h) for h in hand_cards]
        for seat, size in enumerate(sizes):
            want = deal.hand_size + (1 if deal.starter_extra_card and seat == starter else 0)
            if size != want:
                raise InvalidStateError(f"seat {seat} holds {size} cards; the deal gives {want}")
        bare = deal.starter_extra_card
        phase = Phase.PLAY if bare else Phase.DRAW
        hands_v = tuple(_counts(h) for h in hand_cards)
        game = cls(
            ruleset=ruleset,
            rules=rules,
            dealer=dealer,
            seed=seed,
            start=(*hand_cards, stock_cards, pile),
            hands=hands_v,
            stock=stock_cards,
            discards=pile,
            table=(),
            turn=starter,
            phase=phase,
            opened=(False,) * players,
            melded=(False,) * players,
            openings=(),
            turns_played=(0,) * players,
            announced=(0,) * players,
            missed=(False,) * players,
            demoted=((),) * players,
            current=TurnState(first_turn_bare=bare),
            reshuffles=0,
            redeal_queue=(),
            history=(),
            outcome=None,
            indicator=shown[0] if shown else None,
        )
        queue = tuple(s for s in _seats_from(starter, players) if game._may_claim_redeal(s))
        if queue:
            game = game._with(phase=Phase.REDEAL, turn=queue[0], redeal_queue=queue)
        return game

    def _with(self, **changes: object) -> Round:
        """A copy with some fields changed: ``attrs.evolve`` without re-running defaults.

        Rounds are copied on every action, so this is on the hot path.
        """
        new = object.__new__(Round)
        for name in _ROUND_FIELDS:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        object.__setattr__(new, "_listed", [])
        return new

    def restart(self) -> Round:
        """The round as it was dealt, before any action."""
        if not self.start:
            raise InvalidStateError("this round was sampled from a view and has no deal to replay")
        *hands, stock, pile = self.start
        return Round.from_deal(
            self.ruleset,
            hands,
            stock,
            discards=pile,
            indicator=self.indicator,
            dealer=self.dealer,
            seed=self.seed,
        )

    def replay(self) -> Round:
        """Replay the history from the deal; equals this round (the tests check it)."""
        game = self.restart()
        for action in self.history:
            game = game.apply(action)
        return game

    # --- reading the state ------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def starter(self) -> int:
        return self.ruleset.deal.starter(self.dealer, self.players)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, sorted by suit and rank."""
        return _cards(self.hands[seat])

    def team_of(self, seat: int) -> int:
        for number, team in enumerate(self.ruleset.players.teams(self.players)):
            if seat in team:
                return number
        raise InvalidStateError(f"no seat {seat}")

    def best_opening(self, seat: int | None = None) -> tuple[int, tuple[Meld, ...]]:
        """The most that ``seat`` (by default the player to move) could open with now."""
        seat = self.turn if seat is None else seat
        finder = self.finder
        points, found = finder.best_opening(finder.extend(self.hands[seat], self.demoted[seat]))
        return points, tuple(f.meld for f in found)

    def going_out_melds(self) -> tuple[Meld, ...] | None:
        """Melds with which the player to move gets rid of every card this turn, or ``None``.

        Only new melds from the hand are searched (lay-offs are not); where
        the rules want a final discard, one card is left for it. The melds
        must reach the player's opening bar unless the rules exempt such a
        finish. Call it after drawing.
        """
        seat = self.turn
        finder = self.finder
        hand = finder.extend(self.hands[seat], self.demoted[seat])
        keep = 1 if self.ruleset.going_out.final_discard else 0
        if self._going_out_problems():
            return None
        required = self.required_opening(seat)
        for combo in finder.covers(hand, keep=keep):
            action = LayDown(tuple(f.meld for f in combo))
            enough = required is None or sum(f.points for f in combo) >= required
            if enough or self._exempt_finish(keep, action):
                return action.melds
        return None

    def going_out_is_hand(self, final_discard: bool) -> bool:
        """Whether the player to move, going out this turn, would make a Hand."""
        return self._would_be_hand(final_discard=final_discard)

    def required_opening(self, seat: int) -> int | None:
        """The bar ``seat``'s opening must reach now, or ``None`` if that player need not open."""
        if self.opened[seat]:
            return None
        return self.ruleset.opening.required(seat, self.team_of(seat), self.openings)

    def _is_opened(self, seat: int) -> bool:
        return self.opened[seat]

    def _hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def _may_claim_redeal(self, seat: int) -> bool:
        policy = self.ruleset.redeal
        if not policy.enabled:
            return False
        hand = self.hands[seat]
        pairs = wilds = 0
        for index in range(53):
            count = hand[index]
            if not count:
                continue
            if self.rules.is_wild(CARDS[index]):
                if policy.wild_pairs_count and count >= 2:
                    pairs += count // 2
                else:
                    wilds += count
            else:
                pairs += count // 2
        return policy.allows(pairs, wilds)

    # --- checking an action --------------------------------------------------------------

    def check(self, action: Action) -> Verdict:
        """Whether ``action`` is legal now, and if not, every reason why."""
        problems = self._problems(action)
        return Verdict.of(*problems)

    def apply(self, action: Action) -> Round:
        """The round after ``action``; raises :class:`IllegalActionError` if it is illegal."""
        if not (self._listed and action in self._listed[0][1]):
            verdict = self.check(action)
            if not verdict.ok:
                raise IllegalActionError(verdict)
        return self._after(action)

    def legal_actions(self) -> LegalActions:
        """Every legal action for the player to move, lazily (iterate, ``in``, ``count()``)."""
        from hand_rummy.legal import LegalActions  # noqa: PLC0415 (legal.py builds on this module)

        return LegalActions(self)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: own hand, the table and piles, and public counts."""
        from hand_rummy.view import PlayerView  # noqa: PLC0415 (the view module builds on this one)

        return PlayerView.of(self, seat)

    def _no(self, code: Code, message: str, rule: str) -> list[Violation]:
        return [Violation(code, message, rule)]

    def _problems(self, action: Action) -> list[Violation]:
        if self.phase is Phase.OVER:
            return self._no(Code.ROUND_OVER, "the round is over", "end of a round")
        if self.phase is Phase.REDEAL:
            if isinstance(action, (ClaimRedeal, PassRedeal)):
                return []
            return self._no(
                Code.WRONG_PHASE,
                f"seat {self.turn} must first claim a redeal or keep the deal",
                "redeal (000 §Setup 4)",
            )
        if isinstance(action, (ClaimRedeal, PassRedeal)):
            return self._no(
                Code.REDEAL_NOT_ALLOWED,
                "a redeal may be claimed only before play, with a weak deal",
                "redeal (000 §Setup 4)",
            )
        if self.phase is Phase.DRAW:
            if isinstance(action, DrawStock):
                return self._check_draw()
            if isinstance(action, TakeDiscard):
                return self._check_take()
            return self._no(
                Code.WRONG_PHASE,
                f"{action} comes after drawing: draw from the stock or take the discard first",
                _RULE_TURN,
            )
        if isinstance(action, (DrawStock, TakeDiscard)):
            message = (
                "the starter holds the extra card and does not draw on the first turn"
                if self.current.first_turn_bare
                else "this turn's card has been drawn already"
            )
            return self._no(Code.WRONG_PHASE, message, _RULE_TURN)
        if self._bare_turn() and not isinstance(action, Discard):
            return self._no(
                Code.WRONG_PHASE,
                "the starter's first turn is a bare discard",
                "the first turn (000 §Playing a turn)",
            )
        if isinstance(action, Discard):
            return self._check_discard(action)
        if isinstance(action, LayDown):
            return self._check_lay_down(action)
        if isinstance(action, LayOff):
            return self._check_lay_off(action)
        if isinstance(action, Exchange):
            return self._check_exchange(action)
        raise InvalidStateError(f"not an action: {action!r}")

    def _bare_turn(self) -> bool:
        """The starter's first turn where it is a bare discard (000 §Playing a turn)."""
        return (
            self.current.first_turn_bare and self.ruleset.deal.first_turn is FirstTurn.DISCARD_ONLY
        )

    def _check_draw(self) -> list[Violation]:
        if not self.stock:
            return self._no(Code.STOCK_EMPTY, "the stock is empty", "stock")
        return []

    def _check_take(self) -> list[Violation]:
        if not self.discards:
            return self._no(
                Code.DISCARD_PILE_EMPTY, "the discard pile is empty", "taking the discard"
            )
        policy = self.ruleset.discard_take
        card = self.discards[-1]
        seat = self.turn
        must_open = policy.must_open and not self._is_opened(seat)
        if not (policy.must_meld or must_open):
            return []
        # the take is legal when the turn can go on to meet its obligation: try it, after a
        # cheap look at the melds the hand could make with the card
        if self._take_is_possible(card, must_open):
            after = self._after(TakeDiscard())
            from hand_rummy.legal import generate  # noqa: PLC0415 (it builds on this module)

            if any(isinstance(a, (LayDown, LayOff)) for a in generate(after)):
                return []
        if policy.must_meld:
            return self._no(
                Code.TAKE_DISCARD_NOT_MELDED,
                f"{card} can be taken only to lay it down at once"
                + ("" if self._is_opened(seat) else ", in an opening that reaches the bar")
                + "; this hand cannot",
                "taking the discard (000 §Playing a turn; 002 §Variants)",
            )
        return self._no(
            Code.TAKE_DISCARD_NOT_OPENED,
            f"taking {card} obliges you to open this turn, and this hand cannot reach "
            f"{self.required_opening(seat)}",
            "taking from the fire pile (004 §5)",
        )

    def _take_is_possible(self, card: Card, must_open: bool) -> bool:
        """A quick necessary condition for a take whose card must be melded (or opened with)."""
        seat = self.turn
        policy = self.ruleset.discard_take
        if policy.must_meld and policy.may_lay_off and self._is_opened(seat) and self.table:
            return True
        finder = self.finder
        demoted = list(self.demoted[seat])
        if self.ruleset.demotion.demotes(card, self.rules.wilds):
            demoted.append(card)
        hand = list(self.hands[seat])
        hand[card.index] += 1
        extended = finder.extend(hand, demoted)
        candidates = finder._candidates(extended)
        if policy.must_meld:
            faces = (
                {card.index, 53 + card.index, 105}
                if card.is_joker
                else {card.index, 53 + card.index}
            )
            least = policy.hand_cards + 1
            if not any(len(c[1]) >= least and faces.intersection(c[1]) for c in candidates):
                return False
        required = self.required_opening(seat)
        if required is not None and (policy.must_meld or must_open):
            exempt = self.ruleset.opening_exemption is not OpeningExemption.NONE
            if not exempt and (
                finder.opening_bound(extended) < required
                or finder.best_opening_value(extended) < required
            ):
                return False
        return True

    def _check_discard(self, action: Discard) -> list[Violation]:
        seat, card = self.turn, action.card
        problems = self._obligation_problems()
        if problems:
            return problems
        if not self.hands[seat][card.index]:
            return self._no(Code.CARD_NOT_IN_HAND, f"{card} is not in your hand", "discarding")
        left = self._hand_size(seat) - 1
        if card == self._undiscardable():
            return self._no(
                Code.REDISCARD_TAKEN_CARD,
                f"{card} was taken from the discard pile this turn and may not go back",
                "the fire pile (004 §2)",
            )
        going = self.ruleset.going_out
        if going.wild_discard_only_to_go_out and self.rules.is_wild(card) and left > 0:
            return self._no(
                Code.WILD_DISCARD_FORBIDDEN,
                f"a joker may be discarded only to go out ({card})",
                "tournament jokers (002 §Variants)",
            )
        if left == 0:
            problems = self._going_out_problems()
            if problems:
                return problems
        if action.announce and not (going.announce_at and 0 < left <= going.announce_at):
            return self._no(
                Code.WRONG_PHASE,
                f"there is nothing to announce with {left} cards left",
                "announcements (000 §Playing a turn)",
            )
        return []

    def _going_out_problems(self) -> list[Violation]:
        seat = self.turn
        going = self.ruleset.going_out
        if going.first_turn_ban and self.turns_played[seat] == 0:
            return self._no(
                Code.GOING_OUT_FIRST_TURN,
                "nobody may go out on their first turn",
                "not on your first turn (000 §Playing a turn)",
            )
        if self.missed[seat]:
            return self._no(
                Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT,
                "you forgot to announce your last cards, so you may not go out this turn",
                "announcements (000 §Playing a turn)",
            )
        return []

    def _keep_problems(self, size_after: int, left: Sequence[int] | None = None) -> list[Violation]:
        """A lay-down or lay-off must leave the cards the rest of the turn needs.

        Where every turn ends with a discard, one card stays for it; where the
        player may not go out this turn, one more stays so that the discard
        does not empty the hand. And some card left must be one the rules let
        the player discard (not the card just taken where 004 forbids that).
        """
        final = self.ruleset.going_out.final_discard
        if final and size_after == 0:
            return self._no(
                Code.MUST_KEEP_A_CARD,
                "keep one card to discard: every turn ends with a discard",
                "always discard (000 §Playing a turn)",
            )
        if size_after <= (1 if final else 0):
            problems = self._going_out_problems()
            if problems:
                return problems
        if left is not None and size_after > 0 and not self._discardable(left, size_after):
            return self._no(
                Code.MUST_KEEP_A_CARD,
                "keep a card that you may discard to end the turn",
                "every turn ends with a discard",
            )
        return []

    def _undiscardable(self) -> Card | None:
        """The card taken from the discard pile this turn, where it may not go back (004 §2).

        Two identical cards cannot be told apart, so a player who already held
        a copy of the taken card may discard that face.
        """
        if not self.ruleset.discard_take.no_rediscard or self.current.had_taken:
            return None
        return self.current.taken

    def _discardable(self, left: Sequence[int], size: int) -> bool:
        taken = self._undiscardable()
        wild_needs_out = self.ruleset.going_out.wild_discard_only_to_go_out and size > 1
        for index in range(53):
            card = CARDS[index]
            if left[index] and card != taken and not (wild_needs_out and self.rules.is_wild(card)):
                return True
        return False

    def _obligation_problems(self) -> list[Violation]:
        pending = self.current.obligation
        if pending is None:
            return []
        message = {
            Obligation.MELD_TAKEN: f"first lay down the taken {self.current.taken}",
            Obligation.OPEN: "first open: you took the discard before opening",
            Obligation.USE_FREED_WILD: f"first use the freed {self.current.freed} in a meld",
        }[pending]
        code = {
            Obligation.MELD_TAKEN: Code.TAKE_DISCARD_NOT_MELDED,
            Obligation.OPEN: Code.TAKE_DISCARD_NOT_OPENED,
            Obligation.USE_FREED_WILD: Code.FREED_WILD_NOT_USED,
        }[pending]
        return self._no(code, message, _RULE_OBLIGATIONS)

    def _hand_after(self, cards: Iterable[Card]) -> list[int] | None:
        """The current player's hand without ``cards``, or ``None`` if they are not all held."""
        hand = list(self.hands[self.turn])
        for card in cards:
            if hand[card.index] == 0:
                return None
            hand[card.index] -= 1
        return hand

    def _check_lay_down(self, action: LayDown) -> list[Violation]:
        seat = self.turn
        if not action.melds:
            return self._no(Code.OPENING_EMPTY, "lay down at least one meld", "laying down")
        all_cards = [c for m in action.melds for c in m.cards]
        left = self._hand_after(all_cards)
        if left is None:
            return self._no(
                Code.CARD_NOT_IN_HAND,
                f"{format_cards(all_cards)} are not all in your hand",
                "laying down",
            )
        demoted_used = [m.cards[i] for m in action.melds for i in sorted(m.demoted)]
        available = list(self.demoted[seat])
        for card in demoted_used:
            if card not in available:
                return self._no(
                    Code.DEMOTION_NOT_ALLOWED,
                    f"{card} was not taken from the discard pile, so it stays wild",
                    "discarded wild cards (000 §Exchanging wild cards)",
                )
            available.remove(card)
        # identical cards cannot be told apart: a face whose only copies in hand are demoted
        # must be played as demoted (a taken wild Ace stays a natural Ace)
        as_wild = Counter(
            m.cards[i] for m in action.melds for i in range(len(m)) if i not in m.demoted
        )
        demoted_held = Counter(self.demoted[seat])
        for card, uses in as_wild.items():
            if demoted_held[card] and uses > self.hands[seat][card.index] - demoted_held[card]:
                return self._no(
                    Code.DEMOTION_NOT_ALLOWED,
                    f"{card} came from the discard pile, so it plays only as a natural card",
                    "discarded wild cards (000 §Exchanging wild cards)",
                )
        if self.ruleset.layoff.melds_first and self.current.laid_off:
            return self._no(
                Code.PHASE_ORDER, "new melds come before lay-offs", "turn flow (003 §Turn Flow)"
            )
        size_after = sum(left)
        problems = self._keep_problems(size_after, left)
        if problems:
            return problems
        pending = self.current.obligation
        if pending is Obligation.MELD_TAKEN:
            assert self.current.taken is not None
            if not any(_uses(m, self.current.taken, self.ruleset) for m in action.melds):
                return self._no(
                    Code.TAKE_DISCARD_NOT_MELDED,
                    f"the taken {self.current.taken} must go into a new meld with at least "
                    f"{self.ruleset.discard_take.hand_cards} cards from your hand",
                    "taking the discard (000 §Playing a turn)",
                )
        if pending is Obligation.USE_FREED_WILD:
            assert self.current.freed is not None
            if not any(self.current.freed in m.cards for m in action.melds):
                return self._obligation_problems()
        required = self.required_opening(seat)
        if required is None:
            if len(action.melds) != 1:
                return self._no(
                    Code.WRONG_PHASE,
                    "after opening, lay down one meld at a time",
                    "laying down (one meld per action)",
                )
            judged = judge_meld(action.melds[0], self.rules)
            return list(judged.verdict.violations)
        exempt = self._exempt_finish(size_after, action)
        judged_opening = judge_opening(
            list(action.melds), self.rules, required=required, exempt=exempt
        )
        problems = list(judged_opening.verdict.violations)
        if (
            not problems
            and pending is Obligation.OPEN
            and self.ruleset.discard_take.in_opening
            and self.current.taken is not None
            and not any(self.current.taken in m.cards for m in action.melds)
        ):
            problems = self._no(
                Code.TAKE_DISCARD_NOT_OPENED,
                f"the opening must use the taken {self.current.taken}",
                "taking from the fire pile (RULES-MATRIX P4 a)",
            )
        return problems

    def _exempt_finish(self, size_after: int, action: LayDown) -> bool:
        """Whether this lay-down may go below the bar because it finishes the round."""
        exemption = self.ruleset.opening_exemption
        if exemption is OpeningExemption.NONE:
            return False
        # one card left is a finish too: it is discarded to go out
        finishing = size_after <= 1
        if not finishing or self._going_out_problems():
            return False
        if exemption is OpeningExemption.GOING_OUT:
            return True
        return self._would_be_hand(final_discard=size_after == 1)

    def _would_be_hand(self, *, final_discard: bool) -> bool:
        seat = self.turn
        hand = self.ruleset.hand
        if self.melded[seat]:
            return False
        if hand.no_layoffs and self.current.laid_off_on_others:
            return False
        if hand.first_to_meld and any(m.owner != seat for m in self.table):
            return False
        return not (hand.all_melded and final_discard)

    def _check_lay_off(self, action: LayOff) -> list[Violation]:
        problems, target, size_after = self._lay_off_gate(action)
        if problems or target is None:
            return problems
        context = LayoffContext(
            going_out=size_after == 0 or (size_after == 1 and self.ruleset.going_out.final_discard),
            one_card_announced=any(a == 1 for a in self.announced),
            announcing_one_card=size_after == 2,
        )
        roles = {0: action.role} if action.role is not None else None
        result = lay_off(target.meld, [action.card], self.rules, roles=roles, context=context)
        return list(result.verdict.violations)

    def _lay_off_gate(self, action: LayOff) -> tuple[list[Violation], TableMeld | None, int]:
        """Everything about a lay-off but the meld itself: turn, opening, the card, what is kept."""
        seat = self.turn
        problems = self._obligation_problems()
        pending = self.current.obligation
        if problems and not (
            (
                pending is Obligation.MELD_TAKEN
                and action.card == self.current.taken
                and self.ruleset.discard_take.may_lay_off
            )
            or (
                pending is Obligation.USE_FREED_WILD
                and action.card == self.current.freed
                and self.ruleset.exchange.freed_wild is FreedWild.USE_NOW
            )
        ):
            return problems, None, 0
        if self.ruleset.layoff.needs_opening and not self._is_opened(seat):
            return (
                self._no(Code.NOT_OPENED, "lay off only after opening", _RULE_LAYOFF_GATE),
                None,
                0,
            )
        target = self._meld(action.target)
        if target is None:
            message = f"there is no meld {action.target}"
            return self._no(Code.NO_SUCH_MELD, message, "laying off"), None, 0
        left = self._hand_after([action.card])
        if left is None:
            message = f"{action.card} is not in your hand"
            return self._no(Code.CARD_NOT_IN_HAND, message, "laying off"), None, 0
        if action.role is not None and not self.rules.is_wild(action.card):
            message = f"{action.card} is not wild, so it stands for nothing but itself"
            return self._no(Code.NATURAL_CARD_GIVEN_ROLE, message, "laying off"), None, 0
        if self.rules.is_wild(action.card) and (action.role is None) != (
            target.kind is MeldKind.SET
        ):
            # one spelling per move: a wild on a run says what it stands for; on a set it
            # stands for "another card of the rank", whose suit stays free
            message = (
                f"say which card the wild {action.card} stands for at the end of meld {target.id}"
                if action.role is None
                else f"a wild laid off on a set takes no role; meld {target.id} is a set"
            )
            return self._no(Code.WILD_ROLE_INVALID, message, "laying off"), None, 0
        size_after = sum(left)
        return self._keep_problems(size_after, left), target, size_after

    def _check_exchange(self, action: Exchange) -> list[Violation]:
        seat = self.turn
        problems = self._obligation_problems()
        if problems:
            return problems
        if not self.ruleset.exchange.allowed:
            return self._no(
                Code.EXCHANGE_NOT_ALLOWED, "these rules have no wild exchange", _RULE_EXCHANGE_GATE
            )
        if self.ruleset.exchange.needs_opening and not self._is_opened(seat):
            return self._no(
                Code.NOT_OPENED, "exchange wild cards only after opening", _RULE_EXCHANGE_GATE
            )
        target = self._meld(action.target)
        if target is None:
            return self._no(Code.NO_SUCH_MELD, f"there is no meld {action.target}", "exchange")
        left = self._hand_after(action.cards)
        if left is None:
            return self._no(
                Code.CARD_NOT_IN_HAND,
                f"{format_cards(action.cards)} are not all in your hand",
                "exchange",
            )
        result = exchange(target.meld, action.cards, self.rules)
        if not result.ok or result.wild is None:
            return list(result.verdict.violations)
        freed = self.ruleset.exchange.freed_wild
        if freed is not FreedWild.KEEP:
            left[result.wild.index] += 1
            finder = self.finder
            usable = any(result.wild in f.meld.cards for f in finder.melds(left))
            if not usable and freed is FreedWild.USE_NOW:
                wild = result.wild.index
                usable = any(
                    wild in finder.layoff_options(t.meld, t.kind)
                    for t in self.table
                    if t.id != target.id
                )
            if not usable:
                return self._no(
                    Code.FREED_WILD_NOT_USED,
                    f"the freed {result.wild} must be used at once, and this hand cannot",
                    "exchanging a joker (002 §Exchanging a joker)",
                )
        return []

    def _meld(self, meld_id: int) -> TableMeld | None:
        for meld in self.table:
            if meld.id == meld_id:
                return meld
        return None

    # --- applying a legal action -------------------------------------------------------------

    def _after(self, action: Action) -> Round:
        history = (*self.history, action)
        if isinstance(action, ClaimRedeal):
            zeros = (0,) * self.players
            teams = self._teams()
            team_zeros = (0,) * len(teams) if teams is not None else None
            outcome = Outcome(Ending.REDEAL, RoundScore(zeros, team_zeros, scored=False))
            return self._with(phase=Phase.OVER, outcome=outcome, history=history)
        if isinstance(action, PassRedeal):
            queue = self.redeal_queue[1:]
            if queue:
                return self._with(turn=queue[0], redeal_queue=queue, history=history)
            start_phase = Phase.PLAY if self.ruleset.deal.starter_extra_card else Phase.DRAW
            return self._with(
                turn=self.starter, phase=start_phase, redeal_queue=(), history=history
            )
        if isinstance(action, DrawStock):
            card = self.stock[-1]
            hands = _add(self.hands, self.turn, card)
            game = self._with(
                hands=hands,
                stock=self.stock[:-1],
                phase=Phase.PLAY,
                history=history,
                current=_NO_TURN,
            )
            if not game.stock and self.ruleset.stock.trigger is StockTrigger.LAST_CARD_DRAWN:
                return game._stock_end()
            return game
        if isinstance(action, TakeDiscard):
            card = self.discards[-1]
            policy = self.ruleset.discard_take
            obligation = None
            if policy.must_meld:
                obligation = Obligation.MELD_TAKEN
            elif policy.must_open and not self._is_opened(self.turn):
                obligation = Obligation.OPEN
            demoted = self.demoted
            if self.ruleset.demotion.demotes(card, self.rules.wilds):
                demoted = _replace(demoted, self.turn, (*demoted[self.turn], card))
            return self._with(
                hands=_add(self.hands, self.turn, card),
                discards=self.discards[:-1],
                phase=Phase.PLAY,
                demoted=demoted,
                current=TurnState(
                    taken=card,
                    had_taken=self.hands[self.turn][card.index] > 0,
                    obligation=obligation,
                ),
                history=history,
            )
        if isinstance(action, LayDown):
            return self._after_lay_down(action, history)
        if isinstance(action, LayOff):
            return self._after_lay_off(action, history)
        if isinstance(action, Exchange):
            return self._after_exchange(action, history)
        assert isinstance(action, Discard)
        return self._after_discard(action, history)

    def _after_lay_down(self, action: LayDown, history: tuple[Action, ...]) -> Round:
        seat = self.turn
        hand = list(self.hands[seat])
        demoted = list(self.demoted[seat])
        table = list(self.table)
        next_id = max((m.id for m in table), default=0) + 1
        points = 0
        for meld in action.melds:
            judged = judge_meld(meld, self.rules)
            assert judged.meld is not None and judged.kind is not None
            points += judged.points or 0
            for card in meld.cards:
                hand[card.index] -= 1
            for i in meld.demoted:
                demoted.remove(meld.cards[i])
            table.append(TableMeld(next_id, seat, judged.meld, judged.kind))
            next_id += 1
        opened, openings = self.opened, self.openings
        if not self.opened[seat]:
            opened = self._opened_after(seat)
            openings = (*openings, OpeningRecord(seat, self.team_of(seat), points))
        current = self.current
        obligation = current.obligation
        if obligation is Obligation.MELD_TAKEN:
            obligation = None
        if obligation is Obligation.OPEN:
            obligation = None
        if obligation is Obligation.USE_FREED_WILD:
            obligation = None
        current = attrs.evolve(
            current,
            obligation=obligation,
            laid_down=True,
            melded=(*current.melded, *(c for m in action.melds for c in m.cards)),
        )
        game = self._with(
            hands=_replace(self.hands, seat, tuple(hand)),
            demoted=_replace(self.demoted, seat, tuple(demoted)),
            table=tuple(table),
            opened=opened,
            openings=openings,
            current=current,
            history=history,
        )
        if sum(hand) == 0:
            return game._went_out(last_discard=None)
        return game

    def _opened_after(self, seat: int) -> tuple[bool, ...]:
        shared = self.ruleset.opening.shared_by_team
        team = self.ruleset.players.teams(self.players)[self.team_of(seat)] if shared else (seat,)
        return tuple(o or s in team for s, o in enumerate(self.opened))

    def _after_lay_off(self, action: LayOff, history: tuple[Action, ...]) -> Round:
        seat = self.turn
        target = self._meld(action.target)
        assert target is not None
        size_after = self._hand_size(seat) - 1
        context = LayoffContext(
            going_out=size_after == 0 or (size_after == 1 and self.ruleset.going_out.final_discard),
            one_card_announced=any(a == 1 for a in self.announced),
            announcing_one_card=size_after == 2,
        )
        roles = {0: action.role} if action.role is not None else None
        result = lay_off(target.meld, [action.card], self.rules, roles=roles, context=context)
        assert result.meld is not None
        table = tuple(
            attrs.evolve(m, meld=result.meld) if m.id == target.id else m for m in self.table
        )
        hand = list(self.hands[seat])
        hand[action.card.index] -= 1
        current = self.current
        obligation = current.obligation
        if obligation is not None and action.card in (current.taken, current.freed):
            obligation = None
        current = attrs.evolve(
            current,
            obligation=obligation,
            laid_off=True,
            laid_off_on_others=current.laid_off_on_others or target.owner != seat,
        )
        game = self._with(
            hands=_replace(self.hands, seat, tuple(hand)),
            table=table,
            current=current,
            history=history,
        )
        if sum(hand) == 0:
            return game._went_out(last_discard=None)
        return game

    def _after_exchange(self, action: Exchange, history: tuple[Action, ...]) -> Round:
        seat = self.turn
        target = self._meld(action.target)
        assert target is not None
        result = exchange(target.meld, action.cards, self.rules)
        assert result.meld is not None and result.wild is not None
        hand = list(self.hands[seat])
        for card in action.cards:
            hand[card.index] -= 1
        hand[result.wild.index] += 1
        table = tuple(
            attrs.evolve(m, meld=result.meld) if m.id == target.id else m for m in self.table
        )
        freed = self.ruleset.exchange.freed_wild
        current = attrs.evolve(
            self.current,
            freed=result.wild,
            obligation=None if freed is FreedWild.KEEP else Obligation.USE_FREED_WILD,
        )
        return self._with(
            hands=_replace(self.hands, seat, tuple(hand)),
            table=table,
            current=current,
            history=history,
        )

    def _after_discard(self, action: Discard, history: tuple[Action, ...]) -> Round:
        seat = self.turn
        hand = list(self.hands[seat])
        hand[action.card.index] -= 1
        demoted = self.demoted
        if action.card in demoted[seat]:
            mine = list(demoted[seat])
            mine.remove(action.card)
            demoted = _replace(demoted, seat, tuple(mine))
        left = sum(hand)
        going = self.ruleset.going_out
        announced, missed = self.announced, self.missed
        if going.announce_at:
            due = 0 < left <= going.announce_at
            announced = _replace(announced, seat, left if action.announce else 0)
            missed = _replace(missed, seat, due and not action.announce)
        changes = {
            "hands": _replace(self.hands, seat, tuple(hand)),
            "discards": (*self.discards, action.card),
            "demoted": demoted,
            "announced": announced,
            "missed": missed,
            "history": history,
        }
        if left == 0:
            return self._with(**changes)._went_out(last_discard=action.card)
        return self._next_turn(changes)

    def _end_turn_flags(self) -> tuple[tuple[bool, ...], tuple[int, ...]]:
        seat = self.turn
        did_meld = self.current.laid_down or self.current.laid_off
        melded = _replace(self.melded, seat, self.melded[seat] or did_meld)
        played = _replace(self.turns_played, seat, self.turns_played[seat] + 1)
        return melded, played

    def _next_turn(self, changes: Mapping[str, object]) -> Round:
        """The turn passes on; ``changes`` are the ending turn's own (one copy of the round)."""
        melded, played = self._end_turn_flags()
        nxt = (self.turn + 1) % self.players
        game = self._with(
            melded=melded,
            turns_played=played,
            turn=nxt,
            phase=Phase.DRAW,
            current=_NO_TURN,
            **changes,
        )
        stock = self.ruleset.stock
        if stock.trigger is StockTrigger.AT_PLAYER_COUNT and len(game.stock) <= self.players:
            return game._stock_end()
        if not game.stock and stock.trigger is StockTrigger.EMPTY_ON_DRAW:
            return game._renew_stock()
        return game

    def _renew_stock(self) -> Round:
        policy = self.ruleset.stock
        can_renew = policy.reshuffles is None or self.reshuffles < policy.reshuffles
        if not can_renew or len(self.discards) < 2:
            return self._stock_end()
        pile = list(self.discards[:-1])
        random.Random(f"{self.seed}:reshuffle:{self.reshuffles}").shuffle(pile)
        return self._with(
            stock=tuple(pile), discards=self.discards[-1:], reshuffles=self.reshuffles + 1
        )

    def _stock_end(self) -> Round:
        end = RoundEnd(
            tuple(self._player_end(s) for s in range(self.players)),
            None,
            teams=self._teams(),
        )
        score = score_round(end, self.rules)
        if self.ruleset.stock.end is StockEnd.UNSCORED:
            score = attrs.evolve(score, scored=False)
        return self._with(phase=Phase.OVER, outcome=Outcome(Ending.STOCK, score))

    def _teams(self) -> tuple[tuple[int, ...], ...] | None:
        if not self.ruleset.players.partnerships:
            return None
        return self.ruleset.players.teams(self.players)

    def _player_end(self, seat: int) -> PlayerEnd:
        # a player has opened personally when some meld on the table is theirs; whether a
        # partner's opening counts too is the scoring policy's call
        personal = any(meld.owner == seat for meld in self.table)
        return PlayerEnd(self.hand(seat), personal)

    def _went_out(self, last_discard: Card | None) -> Round:
        seat = self.turn
        hand_finish = self._would_be_hand(final_discard=last_discard is not None)
        end = RoundEnd(
            tuple(self._player_end(s) for s in range(self.players)),
            seat,
            hand_finish,
            self.current.melded,
            last_discard,
            self._teams(),
        )
        score = score_round(end, self.rules)
        melded, played = self._end_turn_flags()
        ending = Ending.HAND if hand_finish else Ending.WENT_OUT
        return self._with(
            melded=melded,
            turns_played=played,
            phase=Phase.OVER,
            outcome=Outcome(ending, score, seat),
        )


def _uses(meld: Meld, card: Card, ruleset: Ruleset) -> bool:
    """Whether ``meld`` is a new meld for the taken ``card`` with enough cards from the hand."""
    return card in meld.cards and len(meld.cards) - 1 >= ruleset.discard_take.hand_cards


def _minus(hand: Sequence[int], used: Sequence[int]) -> list[int]:
    """The first 53 counts of ``hand`` without the faces in ``used`` (demoted ones included)."""
    left = list(hand[:53])
    for face in used:
        left[face % 53] -= 1
    if len(hand) > 53:
        for face in range(53, len(hand)):
            left[face - 53] += hand[face]
    return left


def _add(hands: tuple[tuple[int, ...], ...], seat: int, card: Card) -> tuple[tuple[int, ...], ...]:
    hand = list(hands[seat])
    hand[card.index] += 1
    return _replace(hands, seat, tuple(hand))


def _replace(values: tuple[object, ...], seat: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*values[:seat], value, *values[seat + 1 :])


def _seats_from(first: int, players: int) -> list[int]:
    return [(first + i) % players for i in range(players)]


def _check_conservation(ruleset: Ruleset, places: Sequence[Sequence[Card]]) -> None:
    have = Counter(c for place in places for c in place)
    want = Counter(p.card for p in ruleset.deck.cards())
    if have != want:
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


_ROUND_FIELDS = tuple(f.name for f in attrs.fields(Round))
