"""A round of play, and one player's view of it: the public face of the engine.

A :class:`Round` is immutable: :meth:`Round.apply` returns the next round and
leaves the old one as it was, so a search can keep every position it visits.
The parts behind it each have one job: :mod:`~hand_rummy.state` holds the
data, :mod:`~hand_rummy.turn_rules` judges actions, :mod:`~hand_rummy.transitions`
applies them, :mod:`~hand_rummy.legal` lists them and
:mod:`~hand_rummy.visibility` decides what a player sees.

>>> from hand_rummy.rules import presets
>>> game = Round.deal(presets.levant, players=4, seed=7)
>>> game.phase, game.turn  # first every seat may claim a redeal of a weak deal
(<Phase.REDEAL: 'redeal'>, 1)
>>> game = game.keep_deal()
>>> game.phase, game.turn, len(game.hand(game.turn))
(<Phase.PLAY: 'play'>, 1, 15)
>>> game.legal_actions().count()  # the starter only discards
15
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import attrs

from hand_rummy.actions import Action, Discard, LayDown, PassRedeal
from hand_rummy.cards import Card
from hand_rummy.errors import InvalidStateError, expect, expect_seed, number
from hand_rummy.guessing import guess
from hand_rummy.history import ActionLog
from hand_rummy.legal import LegalActions
from hand_rummy.melds import Meld, MeldRules, read_cards
from hand_rummy.position import Position, position_of, position_state
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.scoring import seats_refusal
from hand_rummy.state import (
    Ending,
    Obligation,
    Outcome,
    Phase,
    RoundState,
    TableMeld,
    TurnState,
    check_conservation,
    counts_of,
)
from hand_rummy.transitions import advance
from hand_rummy.turn_rules import judge, may_go_out, would_be_hand
from hand_rummy.verdict import Verdict
from hand_rummy.visibility import Seen, redacted

__all__ = [
    "Ending",
    "Obligation",
    "Outcome",
    "Phase",
    "PlayerView",
    "Round",
    "TableMeld",
    "TurnState",
]


def _expect_setup(ruleset: Ruleset, players: int, dealer: int) -> None:
    expect(ruleset, Ruleset, "the ruleset")
    expect(players, int, "the number of players")
    expect(dealer, int, "the dealer")


@attrs.frozen(slots=False)
class Round(RoundState):
    """One round: build it with :meth:`deal` (a seeded shuffle) or :meth:`from_deal`."""

    # --- creation -------------------------------------------------------------------

    @classmethod
    def deal(cls, ruleset: Ruleset, players: int, seed: int, dealer: int = 0) -> Round:
        """Shuffle the ruleset's deck with ``seed`` and deal, as the rules say."""
        _expect_setup(ruleset, players, dealer)
        expect_seed(seed)
        if not ruleset.players.allows(players):
            raise InvalidStateError(seats_refusal(players, ruleset))
        if not 0 <= dealer < players:
            raise InvalidStateError(
                f"the dealer must be a seat from 0 to {players - 1}, not {number(dealer)}"
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
        expect(hands, (list, tuple), "the hands")
        players = len(hands)
        _expect_setup(ruleset, players, dealer)
        # as deal() checks it: a round's documents record its seed and must read back
        expect_seed(seed)
        if not ruleset.players.allows(players):
            raise InvalidStateError(seats_refusal(players, ruleset))
        if not 0 <= dealer < players:
            raise InvalidStateError(
                f"the dealer must be a seat from 0 to {players - 1}, not {number(dealer)}"
            )
        hand_cards = tuple(read_cards(h) for h in hands)
        stock_cards, pile = read_cards(stock), read_cards(discards)
        shown = read_cards([indicator]) if isinstance(indicator, (str, Card)) else ()
        check_conservation(ruleset, [*hand_cards, stock_cards, pile, shown])
        rules = MeldRules.of(ruleset, shown[0] if shown else None)
        deal = ruleset.deal
        starter = deal.starter(dealer, players)
        for seat, cards in enumerate(hand_cards):
            want = deal.hand_size + (1 if deal.starter_extra_card and seat == starter else 0)
            if len(cards) != want:
                raise InvalidStateError(
                    f"seat {seat} holds {len(cards)} cards; the deal gives {want}"
                )
        bare = deal.starter_extra_card
        game = cls(
            ruleset=ruleset,
            rules=rules,
            dealer=dealer,
            seed=seed,
            start=(*hand_cards, stock_cards, pile),
            hands=tuple(counts_of(h) for h in hand_cards),
            stock=stock_cards,
            discards=pile,
            table=(),
            turn=starter,
            phase=Phase.PLAY if bare else Phase.DRAW,
            opened=(False,) * players,
            melded=(False,) * players,
            openings=(),
            turns_played=(0,) * players,
            announced=(0,) * players,
            missed=(False,) * players,
            current=TurnState(first_turn_bare=bare),
            reshuffles=0,
            redeal_queue=(),
            history=ActionLog(),
            outcome=None,
            indicator=shown[0] if shown else None,
        )
        if ruleset.redeal.enabled:
            # every seat is asked in turn, weak deal or not, so that being asked (or the
            # round starting at once) tells nobody anything about another hand
            queue = tuple((starter + i) % players for i in range(players))
            game = game.replace(phase=Phase.REDEAL, turn=queue[0], redeal_queue=queue)
        return game

    @classmethod
    def from_position(cls, position: Position) -> Round:
        """The round that stands at ``position``: checked, its defaults worked out and the
        cards it does not list filled in by its seed (:mod:`hand_rummy.position`).

        The round has no deal (``start`` is empty), so it cannot be restarted or
        replayed, nor written as a round document; :meth:`position` describes it.
        Raises :class:`~hand_rummy.errors.InvalidStateError` naming the field at fault.
        """
        return cls.from_state(position_state(position))

    @classmethod
    def from_state(cls, state: RoundState) -> Round:
        """The round whose data is ``state`` (for instance a round rebuilt from a view)."""
        if isinstance(state, Round):
            return state
        return cls(**{f.name: getattr(state, f.name) for f in attrs.fields(RoundState)})

    def restart(self) -> Round:
        """The round as it was dealt, before any action."""
        if not self.start:
            raise InvalidStateError(
                "this round has no deal to replay: it was built from a position or sampled "
                "from a view"
            )
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

    def keep_deal(self) -> Round:
        """The round after every seat still to be asked about a redeal keeps the deal (the
        round itself when nobody is asked): a short way past the asking when building a
        position from a deal.

        Every seat is asked, weak deal or not (000 §Setup 4), so that the asking
        tells nobody anything about another hand.
        """
        game = self
        while game.phase is Phase.REDEAL:
            game = game.apply(PassRedeal())
        return game

    def replay(self) -> Round:
        """Replay the history from the deal; equals this round (the tests check it)."""
        game = self.restart()
        for action in self.history:
            game = game.apply(action)
        return game

    # --- playing ----------------------------------------------------------------------

    def check(self, action: Action, *, seat: int | None = None) -> Verdict:
        """Whether ``action`` is legal now, and if not, why: the checks run in a fixed order,
        and the first that refuses gives the reasons it found (a move that breaks several
        rules may be refused for one of them: :doc:`/referee`, "Several violations in one
        answer").

        Give ``seat`` when the move comes from a seat that may not be the one to move (a
        server's client, say): another seat's move is refused with ``NOT_YOUR_TURN``
        before it is judged, so that the answer says nothing about the mover's hand.
        Without it, the move is the mover's.
        """
        return judge(self, action, seat).verdict

    def apply(self, action: Action, *, seat: int | None = None) -> Round:
        """The round after ``action``; raises :class:`IllegalActionError` if it is illegal
        (its kind :class:`~hand_rummy.errors.AmbiguousMeldError` where all that is wrong
        is a wild card whose role the action must name; ``seat`` as in :meth:`check`).

        The action is judged by the same rule that :meth:`check` uses, and the
        ruling's record of what the action does is what gets applied.
        """
        ruling = judge(self, action, seat)
        if ruling.change is None:
            raise ruling.verdict.refusal()
        return advance(self, action, ruling.change)

    def legal_actions(self) -> LegalActions:
        """Every legal action for the player to move, lazily (iterate, ``in``, ``count()``)."""
        return LegalActions(self)

    def position(self) -> Position:
        """The round as it stands now, every card listed, as a
        :class:`~hand_rummy.position.Position`; :meth:`from_position` gives it back (without
        the deal and the history)."""
        return position_of(self)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: own hand, the table and piles, and public counts."""
        expect(seat, int, "the seat")
        return PlayerView.of(self, seat)

    # --- questions for bots -------------------------------------------------------------

    def best_opening(self, seat: int | None = None) -> tuple[int, tuple[Meld, ...]]:
        """The most that ``seat`` (by default the player to move) could open with now."""
        hand = self.hands[self.turn] if seat is None else self._vector(seat)
        points, found = self.finder.best_opening(hand)
        return points, tuple(f.meld for f in found)

    def going_out_melds(self) -> tuple[Meld, ...] | None:
        """Melds with which the player to move gets rid of every card this turn, or ``None``.

        Only new melds from the hand are searched (lay-offs are not). Where the
        rules want a final discard, one card is left for it; where they allow one
        without wanting it (002, 004), melds of every card are looked for first, then
        melds that leave one card, which must then be a legal last discard. The melds
        must reach the player's opening bar unless the rules exempt such a finish.
        Call it after drawing.
        """
        if not may_go_out(self):
            return None
        hand = self.hands[self.turn]
        required = self.required_opening(self.turn)
        keeps = (1,) if self.ruleset.going_out.final_discard else (0, 1)
        for keep in keeps:
            for combo in self.finder.covers(hand, keep=keep):
                melds = tuple(f.meld for f in combo)
                enough = required is None or sum(f.points for f in combo) >= required
                if enough and not keep:
                    return melds
                # below the bar the lay-down itself is the question; a card kept must then go
                lay_down = LayDown(melds)
                ruling = judge(self, lay_down)
                if ruling.change is None:
                    continue
                if not keep or self._last_discard_legal(advance(self, lay_down, ruling.change)):
                    return melds
        return None

    def _last_discard_legal(self, after: Round) -> bool:
        """Whether the one card ``after`` leaves the player to move may end the round as the
        discard: the card taken this turn, say, may not go back under 004."""
        (last,) = after.hand(self.turn)
        return after.check(Discard(last)).ok

    def going_out_is_hand(self, final_discard: bool) -> bool:
        """Whether the player to move, going out this turn, would make a Hand."""
        return would_be_hand(self, final_discard=final_discard)

    def __str__(self) -> str:
        """The whole round in plain text, every hand shown (:func:`hand_rummy.text.round_text`)."""
        from hand_rummy import text  # noqa: PLC0415 (text imports this module)

        return text.round_text(self)

    def __repr__(self) -> str:
        from hand_rummy import text  # noqa: PLC0415 (text imports this module)

        return text.round_summary(self)

    def _repr_svg_(self) -> str:
        """The round with every hand face up, for notebooks (:func:`hand_rummy.svg.whole_round`)."""
        from hand_rummy import svg  # noqa: PLC0415 (svg imports the engine)

        return svg.whole_round(self)


@attrs.frozen
class PlayerView(Seen):
    """A round as seen by ``seat``: everything public, and that player's own hand.

    Two rounds that differ only in cards this player cannot see give equal views.

    >>> from hand_rummy.rules import presets
    >>> game = Round.deal(presets.romme, players=3, seed=1)
    >>> view = game.view(game.turn)
    >>> len(view.hand), view.hand_sizes, view.stock_size
    (14, (14, 13, 13), 68)
    >>> list(view.legal_actions()) == list(game.legal_actions())
    True
    """

    @classmethod
    def of(cls, game: RoundState, seat: int) -> PlayerView:
        return cls(**Seen.fields_of(game, seat))

    def ruleset_rules(self) -> MeldRules:
        """The ruleset with this round's wild cards."""
        return MeldRules.of(self.ruleset, self.indicator)

    def legal_actions(self) -> LegalActions:
        """The legal actions, exactly as the round gives them, when it is this player's move."""
        if self.turn != self.seat:
            return LegalActions(None)
        return LegalActions(redacted(self))

    def position(self) -> Position:
        """What this player sees, as a :class:`~hand_rummy.position.Position`: the other hands
        as card counts and the stock as a size, which :meth:`Round.from_position` fills."""
        return position_of(self)

    def sample(self, rng: random.Random) -> Round:
        """A full round consistent with this view, the hidden cards dealt at random.

        For search bots: the sample's other hands and stock are a guess, so it
        is not a replay of the real round (its recorded deal is the guess too).
        When another player is to move, the guess leaves them a legal move: a turn
        that owes a meld was taken on a hand that could make it. A guess that leaves
        none is dealt again; after a few, every other guess deals an owed meld first,
        found among the hidden cards (:func:`hand_rummy.guessing.guess` says how).
        After :data:`~hand_rummy.guessing.GUESSES` guesses,
        :class:`~hand_rummy.errors.InvalidStateError`.

        The guess keeps what the view holds: this hand, the table, the discard
        pile, every count, the cards each other player is known to hold
        (:attr:`shown`), which stay in their hands, and a stock renewed from the
        pile is dealt from the cards that went into it (:attr:`renewal`) less
        those this player drew (:attr:`drawn`). It does not read the history, so
        it does not weigh which of those cards the others are likely to have
        drawn; OpenSpiel's ``resample_from_infostate``
        (:mod:`hand_rummy.openspiel`), which replays the whole history, does.
        """
        expect(rng, random.Random, "the random generator (random.Random(seed))")
        return Round.from_state(guess(self, rng))

    def __str__(self) -> str:
        """What this player sees in plain text (:func:`hand_rummy.text.view_text`)."""
        from hand_rummy import text  # noqa: PLC0415 (text imports this module)

        return text.view_text(self)

    def __repr__(self) -> str:
        from hand_rummy import text  # noqa: PLC0415 (text imports this module)

        return text.round_summary(self)

    def _repr_svg_(self) -> str:
        """What this player sees, as a picture for notebooks (:func:`hand_rummy.svg.view`)."""
        from hand_rummy import svg  # noqa: PLC0415 (svg imports the engine)

        return svg.view(self)
