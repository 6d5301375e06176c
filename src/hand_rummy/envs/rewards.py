"""Rewards from round scores, shared by the PettingZoo environment and the OpenSpiel game."""

from __future__ import annotations

from hand_rummy.errors import InvalidStateError
from hand_rummy.round import Round

__all__ = ["round_rewards"]


def round_rewards(game: Round, scale: float = 1.0) -> tuple[float, ...]:
    """Each seat's reward for the finished round ``game``: minus its score over ``scale``.

    In team play a seat's score is its team's (the team score where the rules
    give one, else the sum of the partners' scores). A round that does not
    count (a claimed redeal, a no-contest) gives every seat 0.
    """
    outcome = game.outcome
    if outcome is None:
        raise InvalidStateError("the round is not over: it has no score yet")
    score = outcome.score
    players = game.players
    if not score.scored:
        return (0.0,) * players
    values = list(score.scores)
    ruleset = game.ruleset
    if ruleset.players.partnerships:
        for number, team in enumerate(ruleset.players.teams(players)):
            total = (
                score.team_scores[number]
                if score.team_scores is not None
                else sum(score.scores[s] for s in team)
            )
            for seat in team:
                values[seat] = total
    return tuple(0.0 - value / scale for value in values)
