"""A match: rounds under one ruleset, with running totals, dealers and an end.

A :class:`Match` is immutable, like a :class:`~hand_rummy.round.Round`:
:meth:`Match.apply` returns a new match. Finishing a round records it,
decides the next dealer and either ends the match or deals the next round.
Every rule comes from the ruleset's :class:`~hand_rummy.rules.match.MatchPolicy`:

* the end (``MatchEnd``): a number of scored rounds (unscored ones do not
  count, 000), a number of rounds fixed at the start (004), a penalty limit
  reached (003: 200) or passed (002: 500), or a number of deals per player (002);
* ties for the lowest total (``TieRule``): played off with more rounds (000)
  or shared;
* the first dealer (``FirstDealer``): the lowest or the highest card drawn
  from the shuffled deck (seeded; jokers and ties are drawn again);
* the next dealer (``DealerRotation``): the worst scorer of the last round
  (000) or the next player (002); after an unscored round (stock exhausted in
  Levant Hand, a redeal claimed) the same dealer deals again.

Each round is dealt from a seed derived from the match seed and the round's
index, so a match is reproducible from ``(ruleset, players, seed)``; the
first rounds may instead be explicit deals.

>>> import hand_rummy as hr
>>> m = hr.Match.new(hr.rulesets.romme, 3, seed=5, length=1)
>>> m.first_dealer, m.dealer, m.round_number, m.totals
(0, 0, 1, (0, 0, 0))
>>> m.is_over, m.turn, m.phase  # in Rommé the dealer holds a card more and starts by playing
(False, 0, <Phase.PLAY: 'play'>)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from hand_rummy.actions import Action
from hand_rummy.cards import Card, Rank, parse_card, parse_cards
from hand_rummy.errors import InvalidStateError, expect, expect_seed, number
from hand_rummy.legal import LegalActions
from hand_rummy.round import PlayerView, Round
from hand_rummy.rulebook import violation
from hand_rummy.rules.match import (
    MAX_LENGTH,
    DealerRotation,
    FirstDealer,
    MatchEnd,
    MatchPolicy,
    TieRule,
)
from hand_rummy.rules.presets import length_variant
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.scoring import seats_refusal
from hand_rummy.state import Phase
from hand_rummy.verdict import Code, Topic, Verdict

__all__ = ["Deal", "Match", "draw_for_dealer", "round_seed"]


def _cards(value: Iterable[Card | str] | str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value)
    return tuple(c if isinstance(c, Card) else parse_card(c) for c in value)


def _hands(hands: Iterable[Iterable[Card | str] | str]) -> tuple[tuple[Card, ...], ...]:
    return tuple(_cards(h) for h in hands)


def _card(value: Card | str | None) -> Card | None:
    return value if value is None or isinstance(value, Card) else parse_card(value)


@attrs.frozen
class Deal:
    """An explicit deal for one round of a match: the hands, the stock (bottom first,
    top last), the discard pile and the indicator, as :meth:`Round.from_deal` takes
    them. Cards may be given as text (``"7H 8H 9H"``)."""

    hands: tuple[tuple[Card, ...], ...] = attrs.field(converter=_hands)
    stock: tuple[Card, ...] = attrs.field(converter=_cards)
    discards: tuple[Card, ...] = attrs.field(default=(), converter=_cards)
    indicator: Card | None = attrs.field(default=None, converter=_card)

    @classmethod
    def of(cls, value: Deal | Mapping[str, Any]) -> Deal:
        """A deal from a :class:`Deal` or a mapping with the same keys."""
        if isinstance(value, Deal):
            return value
        expect(value, Mapping, "a deal (a Deal or a mapping with hands and stock)")
        unknown = sorted(set(value) - {"hands", "stock", "discards", "indicator"}, key=str)
        if unknown:
            raise InvalidStateError(f"a deal has no field {', '.join(map(repr, unknown))}")
        missing = [key for key in ("hands", "stock") if key not in value]
        if missing:
            raise InvalidStateError(f"a deal needs the field {', '.join(map(repr, missing))}")
        return cls(
            value["hands"],
            value["stock"],
            value.get("discards", ()),
            value.get("indicator"),
        )

    def round(self, ruleset: Ruleset, dealer: int, seed: int) -> Round:
        return Round.from_deal(
            ruleset,
            self.hands,
            self.stock,
            discards=self.discards,
            indicator=self.indicator,
            dealer=dealer,
            seed=seed,
        )


def round_seed(seed: int, index: int) -> int:
    """The seed of round ``index`` (from 0) of a match played with ``seed``."""
    return random.Random(f"{seed}:{index}").randrange(2**31)


def _draw_value(card: Card, ace_high: bool) -> int:
    assert card.rank is not None
    if card.rank is Rank.ACE and ace_high:
        return 14
    return int(card.rank)


def draw_for_dealer(
    ruleset: Ruleset, players: int, seed: int
) -> tuple[int, tuple[tuple[tuple[int, Card], ...], ...]]:
    """Draw cards for the first deal, as ``ruleset.match.first_dealer`` says.

    Every player draws a card from the shuffled deck; the lowest (or highest)
    deals. A joker is put aside and its player draws again; players tied for
    the best card draw again among themselves. An Ace ranks high unless
    ``ace_high_for_dealer`` is off (matrix L7). Returns the dealer and the
    draws, one tuple of ``(seat, card)`` per drawing round.
    """
    policy = ruleset.match
    rng = random.Random(f"{seed}:first-dealer")
    deck: list[Card] = []
    contenders = list(range(players))
    draws: list[tuple[tuple[int, Card], ...]] = []
    lowest = policy.first_dealer is FirstDealer.LOWEST_CARD
    while True:
        drawn: list[tuple[int, Card]] = []
        for seat in contenders:
            while True:
                if not deck:
                    deck = [p.card for p in ruleset.deck.cards()]
                    rng.shuffle(deck)
                card = deck.pop()
                drawn.append((seat, card))
                if not card.is_joker:
                    break
        draws.append(tuple(drawn))
        values = {
            seat: _draw_value(card, policy.ace_high_for_dealer)
            for seat, card in drawn
            if not card.is_joker
        }
        best = min(values.values()) if lowest else max(values.values())
        contenders = [seat for seat in contenders if values[seat] == best]
        if len(contenders) == 1:
            return contenders[0], tuple(draws)


@attrs.frozen
class Match:
    """A match in progress or over. Create one with :meth:`Match.new`."""

    ruleset: Ruleset
    players: int
    seed: int
    first_dealer: int
    """The seat that dealt the first round (drawn by the policy, or given)."""
    rounds: tuple[Round, ...]
    """The finished rounds in order, unscored ones included."""
    current: Round | None
    """The round in play; ``None`` once the match is over."""
    length: int
    """The match length in force: ``ruleset.match.length`` unless overridden."""
    deals: tuple[Deal, ...] = ()
    """Explicit deals used for the first rounds, if any."""

    # --- creation -----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        players: int,
        seed: int,
        *,
        dealer: int | None = None,
        length: int | None = None,
        custom_length: bool = False,
        deals: Sequence[Deal | Mapping[str, Any]] | None = None,
    ) -> Match:
        """Start a match: draw for the first dealer (unless ``dealer`` is given) and deal.

        ``length`` overrides ``ruleset.match.length`` (rounds, scored rounds,
        points or deals per player, as the policy counts). Where the rules
        name the lengths allowed (the app's 3, 5, 7 or 9 rounds, 004), another
        length is refused unless ``custom_length`` is true; where a variant chose the
        length (``rounds_5``), any other is refused, custom or not. ``deals`` are
        explicit deals (:class:`Deal` or mappings with ``hands``, ``stock``,
        ``discards``, ``indicator``) for the first rounds; later rounds are
        dealt from seeds derived from ``seed``.
        """
        expect(ruleset, Ruleset, "the ruleset")
        expect(players, int, "the number of players")
        expect_seed(seed)
        if not ruleset.players.allows(players):
            raise InvalidStateError(seats_refusal(players, ruleset))
        chosen = length_variant(ruleset)
        if length is None:
            length = ruleset.match.length
        expect(length, int, "the match length")
        if chosen is not None and length != ruleset.match.length:
            raise InvalidStateError(
                f"the variant {chosen} makes a match {ruleset.match.length} rounds long, not "
                f"{number(length)}; give the length once"
            )
        expect(custom_length, bool, "custom_length")
        if deals is not None and not isinstance(deals, (list, tuple)):
            raise InvalidStateError(
                f"the deals must be a list of deals, one per round, not {type(deals).__name__}"
            )
        if length < 1:
            raise InvalidStateError(f"a match needs a length of at least 1, not {number(length)}")
        if length > MAX_LENGTH:
            # a custom length too: a longer match would never end, nor could its length be
            # written (Python writes no int of more than 4,300 digits)
            raise InvalidStateError(
                f"a match lasts at most {MAX_LENGTH:,} (rounds, points or deals each), "
                f"not {number(length)}"
            )
        if not custom_length and not ruleset.match.allows(length):
            raise InvalidStateError(
                f"{ruleset.title} matches last {ruleset.match.allowed()}, not {number(length)}; "
                "pass custom_length=True for another length"
            )
        if dealer is None:
            dealer, _ = draw_for_dealer(ruleset, players, seed)
        else:
            expect(dealer, int, "the dealer")
        if not 0 <= dealer < players:
            raise InvalidStateError(
                f"the dealer must be a seat from 0 to {players - 1}, not {number(dealer)}"
            )
        match = cls(
            ruleset=ruleset,
            players=players,
            seed=seed,
            first_dealer=dealer,
            rounds=(),
            current=None,
            length=length,
            deals=tuple(Deal.of(d) for d in deals or ()),
        )
        return attrs.evolve(match, current=match._deal(0, dealer))

    def _deal(self, index: int, dealer: int) -> Round:
        seed = round_seed(self.seed, index)
        if index < len(self.deals):
            game = self.deals[index].round(self.ruleset, dealer, seed)
            if game.players != self.players:
                raise InvalidStateError(
                    f"deal {index} has {game.players} hands; the match has {self.players} players"
                )
            return game
        return Round.deal(self.ruleset, self.players, seed, dealer)

    # --- playing ------------------------------------------------------------------------

    def _last(self) -> Round:
        return self.current if self.current is not None else self.rounds[-1]

    def legal_actions(self) -> LegalActions:
        """The legal actions of the current round (none once the match is over)."""
        return self.current.legal_actions() if self.current is not None else LegalActions(None)

    def check(self, action: Action, *, seat: int | None = None) -> Verdict:
        """Whether ``action`` is legal now (``seat`` as in :meth:`Round.check
        <hand_rummy.round.Round.check>`); after the match, every action is refused."""
        if self.current is None:
            return self._over()
        return self.current.check(action, seat=seat)

    def _over(self) -> Verdict:
        """The refusal of any move once the match has ended: its rounds are all played."""
        played = len(self.rounds)
        message = f"the match is over after {played} round{'' if played == 1 else 's'}"
        return Verdict.of(violation(self.ruleset, Code.ROUND_OVER, message, Topic.ROUND_OVER))

    def apply(self, action: Action, *, seat: int | None = None) -> Match:
        """Play ``action`` in the current round; finishing the round records it and
        either ends the match or deals the next round."""
        if self.current is None:
            raise self._over().refusal()
        game = self.current.apply(action, seat=seat)
        if not game.is_over:
            return attrs.evolve(self, current=game)
        done = attrs.evolve(self, rounds=(*self.rounds, game), current=None)
        if done._ended():
            return done
        return attrs.evolve(done, current=done._deal(len(done.rounds), done._next_dealer()))

    def view(self, seat: int) -> PlayerView:
        """The current round (the last one once the match is over) as ``seat`` sees it."""
        return self._last().view(seat)

    def restart(self) -> Match:
        """The match as it started, before any action."""
        return Match.new(
            self.ruleset,
            self.players,
            self.seed,
            dealer=self.first_dealer,
            length=self.length,
            custom_length=True,
            deals=self.deals,
        )

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action of the match in order, round after round."""
        games = (*self.rounds, *(() if self.current is None else (self.current,)))
        return tuple(a for g in games for a in g.history)

    def replay(self) -> Match:
        """Replay every action from the start; equals this match (the tests check it)."""
        match = self.restart()
        for action in self.history:
            match = match.apply(action)
        return match

    @property
    def custom_length(self) -> bool:
        """Whether the match length is one the rules do not allow (asked for explicitly)."""
        return not self.ruleset.match.allows(self.length)

    @property
    def policy(self) -> MatchPolicy:
        """The match policy in force: the ruleset's, with this match's length (which
        ``length=`` may have chosen), so that ``describe()`` tells this match's end.

        >>> import hand_rummy as hr
        >>> m = hr.Match.new(hr.rulesets.classic, 3, seed=1, length=3)
        >>> print(m.policy.describe().split(";")[0])
        The match ends after 3 rounds (chosen before the start: 3, 5, 7 or 9)
        """
        policy = self.ruleset.match
        if self.length == policy.length:
            return policy
        lengths = None if self.custom_length else policy.lengths
        return attrs.evolve(policy, length=self.length, lengths=lengths)

    # --- scores and state ---------------------------------------------------------------

    @property
    def scored_rounds(self) -> tuple[Round, ...]:
        """The finished rounds that were scored."""
        return tuple(g for g in self.rounds if g.outcome is not None and g.outcome.score.scored)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total: the sum of its scores in the scored rounds."""
        totals = [0] * self.players
        for game in self.scored_rounds:
            assert game.outcome is not None
            for seat, score in enumerate(game.outcome.score.scores):
                totals[seat] += score
        return tuple(totals)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """The seats of each team in a partnership game, else ``None``."""
        if not self.ruleset.players.partnerships:
            return None
        return self.ruleset.players.teams(self.players)

    @property
    def team_totals(self) -> tuple[int, ...] | None:
        """Each team's total in a partnership game (the sum of its round team scores)."""
        teams = self.teams
        if teams is None:
            return None
        totals = [0] * len(teams)
        for game in self.scored_rounds:
            assert game.outcome is not None
            score = game.outcome.score
            for team_number, team in enumerate(teams):
                if score.team_scores is not None:
                    totals[team_number] += score.team_scores[team_number]
                else:
                    totals[team_number] += sum(score.scores[s] for s in team)
        return tuple(totals)

    def _sides(self) -> tuple[tuple[tuple[int, ...], int], ...]:
        """Each side (a player, or a team) with its total."""
        teams = self.teams
        team_totals = self.team_totals
        if teams is None or team_totals is None:
            return tuple(((seat,), total) for seat, total in enumerate(self.totals))
        return tuple(zip(teams, team_totals))

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the lowest total now (all seats of the lowest team(s))."""
        sides = self._sides()
        best = min(total for _, total in sides)
        return tuple(sorted(s for seats, total in sides if total == best for s in seats))

    def __str__(self) -> str:
        """The match in plain text (:func:`hand_rummy.text.match_text`)."""
        from hand_rummy import text  # noqa: PLC0415 (text imports this module)

        return text.match_text(self)

    def __repr__(self) -> str:
        from hand_rummy import text  # noqa: PLC0415 (text imports this module)

        return text.match_summary(self)

    @property
    def is_over(self) -> bool:
        return self.current is None

    @property
    def turn(self) -> int | None:
        """The seat to move in the round in play; ``None`` once the match is over."""
        return None if self.current is None else self.current.turn

    @property
    def phase(self) -> Phase:
        """The phase of the round in play; ``Phase.OVER`` once the match is over."""
        return Phase.OVER if self.current is None else self.current.phase

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (the lowest total, or the lowest team's seats); ``()`` until
        the match is over. Several seats share the win when the tie rule says so."""
        return self.leaders if self.is_over else ()

    @property
    def dealer(self) -> int:
        """The dealer of the current round (of the last round once the match is over)."""
        return self._last().dealer

    @property
    def round_number(self) -> int:
        """The current round's number from 1, unscored rounds included (the last one's
        once the match is over)."""
        return len(self.rounds) + (1 if self.current is not None else 0)

    # --- policy ---------------------------------------------------------------------------

    def _end_reached(self, rounds: Sequence[Round]) -> bool:
        """Whether the policy's end condition holds after ``rounds``, ties aside."""
        policy = self.ruleset.match
        scored = [g for g in rounds if g.outcome is not None and g.outcome.score.scored]
        if policy.end is MatchEnd.ROUNDS:
            return len(rounds) >= self.length
        if policy.end is MatchEnd.SCORED_ROUNDS:
            return len(scored) >= self.length
        if policy.end is MatchEnd.DEALS_PER_PLAYER:
            dealt = [0] * self.players
            for game in scored:
                dealt[game.dealer] += 1
            return min(dealt) >= self.length
        # PENALTY_LIMIT: the limit once reached (or passed) stays reached
        partial = attrs.evolve(self, rounds=tuple(rounds), current=None)
        for total in (t for _, t in partial._sides()):
            if total >= self.length if policy.inclusive else total > self.length:
                return True
        return False

    def _ended(self) -> bool:
        """Whether the match is over after its recorded rounds."""
        policy = self.ruleset.match
        if policy.end is MatchEnd.PENALTY_LIMIT:
            reached = any(
                self._end_reached(self.rounds[:i]) for i in range(1, len(self.rounds) + 1)
            )
        else:
            reached = self._end_reached(self.rounds)
        if not reached:
            return False
        if policy.ties is TieRule.SHARED:
            return True
        # PLAY_ON: a tie for the lowest total is played off (000 §Winning the game)
        sides = self._sides()
        best = min(total for _, total in sides)
        return sum(1 for _, total in sides if total == best) == 1

    def _next_dealer(self) -> int:
        """Who deals after the last recorded round."""
        last = self.rounds[-1]
        assert last.outcome is not None
        if not last.outcome.score.scored:
            return last.dealer  # 000 §End of a round: the same dealer deals again
        if self.ruleset.match.rotation is DealerRotation.NEXT_PLAYER:
            return (last.dealer + 1) % self.players
        # WORST_SCORER: the highest round score deals; among tied seats, the first one
        # reached going round in play order after the previous dealer (matrix L7). Where
        # the switch reads "score" as the team's, partners are tied on theirs
        score = last.outcome.score
        scores = score.scores
        if self.ruleset.match.worst_team_deals and score.team_scores is not None:
            teams = self.ruleset.players.teams(self.players)
            scores = tuple(
                score.team_scores[next(t for t, team in enumerate(teams) if seat in team)]
                for seat in range(self.players)
            )
        worst = max(scores)
        order = [(last.dealer + i) % self.players for i in range(1, self.players + 1)]
        return next(seat for seat in order if scores[seat] == worst)
