"""Scoring the end of a round: card penalties, the winner, Hands and their bonuses, teams.

>>> from hand_rummy.cards import parse_cards
>>> from hand_rummy.rules import presets
>>> rules = MeldRules.of(presets.levant, "8C")
>>> hand_value(parse_cards("KS 7D AC"), rules)
32
>>> end = RoundEnd.of([("", True), ("KS 7D AC", True), ("5H", False)], went_out=0)
>>> score_round(end, rules).scores
(-30, 32, 100)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from hand_rummy.cards import Card, format_cards, parse_card
from hand_rummy.errors import InvalidStateError, expect
from hand_rummy.melds import CardsLike, MeldRules, read_cards
from hand_rummy.rules.scoring import PartnershipScoring
from hand_rummy.rules.stock import StockEnd

__all__ = ["PlayerEnd", "RoundEnd", "RoundScore", "card_penalty", "hand_value", "score_round"]


def card_penalty(card: Card, rules: MeldRules) -> int:
    """What ``card`` costs when left in the hand of a player who has opened."""
    expect(card, Card, "the card")
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    penalties = rules.ruleset.penalties
    if rules.is_wild(card):
        return penalties.wild
    return penalties.natural(rules.wilds.natural_as(card))


def hand_value(cards: Iterable[Card], rules: MeldRules) -> int:
    """The penalty points of ``cards`` left in the hand of a player who has opened."""
    return sum(card_penalty(card, rules) for card in read_cards(cards))


@attrs.frozen
class PlayerEnd:
    """One player at the end of a round: the cards still held and whether they had opened."""

    hand: tuple[Card, ...] = ()
    opened: bool = False


@attrs.frozen
class RoundEnd:
    """A described end of round, as the referee's ``round_score`` question gives it.

    ``went_out`` is the seat that got rid of every card, or ``None`` when the
    stock ended the round. ``hand`` marks a Hand finish. ``melded`` are the
    cards the winner laid down in the finishing turn and ``last_discard`` the
    final discard, for bonuses that depend on them. ``teams`` lists the seats
    of each team; by default the ruleset's seating decides.
    """

    players: tuple[PlayerEnd, ...]
    went_out: int | None = None
    hand: bool = False
    melded: tuple[Card, ...] = ()
    last_discard: Card | None = None
    teams: tuple[tuple[int, ...], ...] | None = None

    def __attrs_post_init__(self) -> None:
        if self.went_out is not None and not 0 <= self.went_out < len(self.players):
            raise InvalidStateError(
                f"seat {self.went_out} went out, but there are {len(self.players)} players"
            )
        if self.hand and self.went_out is None:
            raise InvalidStateError("a Hand finish needs the seat that went out")
        if self.went_out is not None and self.players[self.went_out].hand:
            shown = format_cards(self.players[self.went_out].hand)
            raise InvalidStateError(f"seat {self.went_out} went out but still holds {shown}")
        if self.teams is not None:
            seats = sorted(s for team in self.teams for s in team)
            if seats != list(range(len(self.players))):
                raise InvalidStateError("the teams must name every seat exactly once")

    @classmethod
    def of(
        cls,
        players: Sequence[tuple[CardsLike, bool]],
        went_out: int | None,
        *,
        hand: bool = False,
        melded: CardsLike = (),
        last_discard: Card | str | None = None,
        teams: Sequence[Sequence[int]] | None = None,
    ) -> RoundEnd:
        return cls(
            tuple(PlayerEnd(read_cards(cards), opened) for cards, opened in players),
            went_out,
            hand,
            read_cards(melded),
            parse_card(last_discard) if isinstance(last_discard, str) else last_discard,
            tuple(tuple(t) for t in teams) if teams is not None else None,
        )


@attrs.frozen
class RoundScore:
    """The scores of one round, per seat and (in team play) per team."""

    scores: tuple[int, ...]
    team_scores: tuple[int, ...] | None = None
    scored: bool = True
    """False for a round that does not count (ended unscored, or a no-contest)."""
    factor: int = 1
    """The product of the Hand doubling and any bonuses applied."""


def _factor(end: RoundEnd, rules: MeldRules) -> int:
    scoring = rules.ruleset.scoring
    if not end.hand:
        return 1
    factor = scoring.hand_factor
    bonus = scoring.egyptian
    if bonus is None:
        return factor
    if end.last_discard is not None and rules.is_wild(end.last_discard):
        factor *= bonus.wild_discard
    naturals = [rules.wilds.natural_as(c) for c in end.melded if not rules.is_wild(c)]
    if naturals:
        suits = {c.suit for c in naturals}
        colours = {c.suit.is_red for c in naturals if c.suit is not None}
        if len(suits) == 1:
            factor *= bonus.suit_factor * (bonus.colour if bonus.suit_also_colour else 1)
        elif len(colours) == 1:
            factor *= bonus.colour
    return factor


def score_round(end: RoundEnd, rules: MeldRules) -> RoundScore:
    """Score a described end of round under ``rules``."""
    expect(end, RoundEnd, "the end of the round")
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    ruleset = rules.ruleset
    scoring = ruleset.scoring
    count = len(end.players)
    teams = end.teams
    if teams is None and ruleset.players.partnerships and count == 4:
        teams = ruleset.players.teams(count)
    team_of = {seat: t for t, team in enumerate(teams or ()) for seat in team}
    opened = [p.opened for p in end.players]
    if teams is not None and ruleset.opening.shared_by_team and not scoring.personal_never_opened:
        opened = [any(end.players[s].opened for s in teams[team_of[i]]) for i in range(count)]

    def penalty(seat: int) -> int:
        player = end.players[seat]
        if not opened[seat] and scoring.never_opened is not None:
            return scoring.never_opened
        return hand_value(player.hand, rules)

    if end.went_out is None:
        if ruleset.stock.end is not StockEnd.SCORE_HANDS:
            zeros = (0,) * count
            return RoundScore(zeros, (0,) * len(teams) if teams else None, scored=False)
        scores = tuple(penalty(seat) for seat in range(count))
        return RoundScore(scores, _team_totals(scores, teams))

    factor = _factor(end, rules)
    winner = end.went_out
    scores_list = [
        scoring.winner * (factor if scoring.hand_doubles_winner else 1)
        if seat == winner
        else penalty(seat) * factor
        for seat in range(count)
    ]
    if teams is not None and scoring.partnership is PartnershipScoring.WINNER_TEAM:
        for partner in teams[team_of[winner]]:
            if partner != winner:
                scores_list[partner] = 0
    scores = tuple(scores_list)
    return RoundScore(scores, _team_totals(scores, teams), factor=factor)


def _team_totals(
    scores: Sequence[int], teams: Sequence[Sequence[int]] | None
) -> tuple[int, ...] | None:
    if teams is None:
        return None
    return tuple(sum(scores[s] for s in team) for team in teams)
