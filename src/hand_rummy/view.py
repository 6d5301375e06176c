"""What one player may see of a round, and legal actions asked of that view.

>>> from hand_rummy.rules import presets
>>> from hand_rummy.round import Round
>>> game = Round.deal(presets.romme, players=3, seed=1)
>>> view = game.view(game.turn)
>>> len(view.hand), view.hand_sizes, view.stock_size
(14, (14, 13, 13), 68)
>>> list(view.legal_actions()) == list(game.legal_actions())
True
"""

from __future__ import annotations

import random
from collections import Counter

import attrs

from hand_rummy.actions import Action
from hand_rummy.cards import JOKER, Card
from hand_rummy.errors import InvalidStateError
from hand_rummy.legal import LegalActions
from hand_rummy.melds import MeldRules
from hand_rummy.round import Outcome, Phase, Round, TableMeld, TurnState, _counts
from hand_rummy.rules.opening import OpeningRecord
from hand_rummy.rules.ruleset import Ruleset

__all__ = ["PlayerView"]


@attrs.frozen
class PlayerView:
    """A round as seen by ``seat``: everything public, and that player's own hand.

    Two rounds that differ only in cards this player cannot see give equal views.
    """

    seat: int
    ruleset: Ruleset
    dealer: int
    turn: int
    phase: Phase
    hand: tuple[Card, ...]
    demoted: tuple[Card, ...]
    """Cards in this hand that were wild but came from the discard pile, so play as natural."""
    table: tuple[TableMeld, ...]
    discards: tuple[Card, ...]
    indicator: Card | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    opened: tuple[bool, ...]
    melded: tuple[bool, ...]
    openings: tuple[OpeningRecord, ...]
    turns_played: tuple[int, ...]
    announced: tuple[int, ...]
    missed: tuple[bool, ...]
    reshuffles: int
    current: TurnState
    redeal_queue: tuple[int, ...]
    history: tuple[Action, ...]
    outcome: Outcome | None

    @classmethod
    def of(cls, game: Round, seat: int) -> PlayerView:
        if not 0 <= seat < game.players:
            raise InvalidStateError(f"there is no seat {seat} in a round of {game.players}")
        return cls(
            seat=seat,
            ruleset=game.ruleset,
            dealer=game.dealer,
            turn=game.turn,
            phase=game.phase,
            hand=game.hand(seat),
            demoted=game.demoted[seat],
            table=game.table,
            discards=game.discards,
            indicator=game.indicator,
            hand_sizes=tuple(sum(h) for h in game.hands),
            stock_size=len(game.stock),
            opened=game.opened,
            melded=game.melded,
            openings=game.openings,
            turns_played=game.turns_played,
            announced=game.announced,
            missed=game.missed,
            reshuffles=game.reshuffles,
            current=game.current,
            redeal_queue=game.redeal_queue,
            history=game.history,
            outcome=game.outcome,
        )

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def _redacted(self) -> Round:
        """A round built from this view alone, other hands and the stock filled with jokers.

        Legal actions of the player to move depend only on what that player
        sees, so this round answers them exactly; it never leaks a hidden card
        because it never had one.
        """
        hands = []
        for seat, size in enumerate(self.hand_sizes):
            if seat == self.seat:
                hands.append(_counts(self.hand))
            else:
                hands.append(_counts([JOKER] * size))
        demoted = tuple(self.demoted if s == self.seat else () for s in range(self.players))
        return Round(
            ruleset=self.ruleset,
            rules=self.ruleset_rules(),
            dealer=self.dealer,
            seed=0,
            start=(),
            hands=tuple(hands),
            stock=(JOKER,) * self.stock_size,
            discards=self.discards,
            table=self.table,
            turn=self.turn,
            phase=self.phase,
            opened=self.opened,
            melded=self.melded,
            openings=self.openings,
            turns_played=self.turns_played,
            announced=self.announced,
            missed=self.missed,
            demoted=demoted,
            current=self.current,
            reshuffles=self.reshuffles,
            redeal_queue=self.redeal_queue,
            history=self.history,
            outcome=self.outcome,
            indicator=self.indicator,
        )

    def ruleset_rules(self) -> MeldRules:
        """The ruleset with this round's wild cards."""
        return MeldRules.of(self.ruleset, self.indicator)

    def legal_actions(self) -> LegalActions:
        """The legal actions, exactly as the round gives them, when it is this player's move."""
        if self.turn != self.seat:
            return LegalActions(None)
        return self._redacted().legal_actions()

    def unseen(self) -> Counter[Card]:
        """The cards this player cannot see: in other hands or in the stock."""
        seen = Counter(self.hand)
        seen.update(self.discards)
        for meld in self.table:
            seen.update(meld.meld.cards)
        if self.indicator is not None:
            seen[self.indicator] += 1
        deck = Counter(p.card for p in self.ruleset.deck.cards())
        return deck - seen

    def sample(self, rng: random.Random) -> Round:
        """A full round consistent with this view, the hidden cards dealt at random.

        For search bots: the sample's other hands and stock are a guess, so it
        is not a replay of the real round (its recorded deal is the guess too).
        """
        hidden = list(self.unseen().elements())
        hidden.sort()
        rng.shuffle(hidden)
        base = self._redacted()
        hands = list(base.hands)
        at = 0
        for seat, size in enumerate(self.hand_sizes):
            if seat != self.seat:
                hands[seat] = _counts(hidden[at : at + size])
                at += size
        stock = tuple(hidden[at:])
        if len(stock) != self.stock_size:
            raise InvalidStateError("the view's card counts do not add up to the deck")
        return attrs.evolve(base, hands=tuple(hands), stock=stock, seed=rng.randrange(2**31))
