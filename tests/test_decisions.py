"""The bot protocol's second method, ``decide(decision)``: the legal actions are listed once
and shared, the view is built only for a bot that reads it, and bots with ``choose`` alone
play as before."""

from __future__ import annotations

import random

import pytest

import hand_rummy as hr
from hand_rummy import legal
from hand_rummy.bots import Choice, GreedyBot, RandomBot, ask, play_match, play_round
from hand_rummy.tournament import Tournament, run


class ChooseOnly:
    """A bot written before ``decide``: it lists the legal actions from its view."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: hr.PlayerView) -> hr.Action:
        return self.rng.choice(list(view.legal_actions()))


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the listings of legal actions and the views built."""
    calls = {"listings": 0, "views": 0}
    generate, view = legal.generate, hr.Round.view

    def counted_generate(state: object) -> object:
        calls["listings"] += 1
        return generate(state)  # type: ignore[arg-type]

    def counted_view(self: hr.Round, seat: int) -> hr.PlayerView:
        calls["views"] += 1
        return view(self, seat)

    monkeypatch.setattr(legal, "generate", counted_generate)
    monkeypatch.setattr(hr.Round, "view", counted_view)
    return calls


def test_the_runner_lists_the_legal_actions_once_and_builds_no_view_for_random_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = Tournament("classic", players=3, bots="random", matches=2, seed=1, rounds=3)
    calls = _counting(monkeypatch)
    result = run(t)
    decisions = sum(sum(m.decisions) for m in result.matches)
    assert decisions > 100
    assert calls == {"listings": decisions, "views": 0}


def test_a_choose_only_bot_still_gets_its_view(monkeypatch: pytest.MonkeyPatch) -> None:
    t = Tournament("classic", players=2, bots=[ChooseOnly], matches=1, seed=1, rounds=3)
    calls = _counting(monkeypatch)
    result = run(t)
    decisions = sum(sum(m.decisions) for m in result.matches)
    # one view a decision, its legal actions listed from it once
    assert calls == {"listings": decisions, "views": decisions}


def test_both_ways_of_asking_a_bot_give_the_same_games() -> None:
    """RandomBot through decide plays exactly as a choose-only random bot seeded alike."""
    t = Tournament("levant", players=4, bots="random", matches=3, seed=2, rounds=2,
                   custom_length=True)  # fmt: skip
    deciding = run(t)
    choosing = run(Tournament("levant", players=4, bots=[ChooseOnly], matches=3, seed=2,
                              rounds=2, custom_length=True))  # fmt: skip
    assert [m.totals for m in deciding.matches] == [m.totals for m in choosing.matches]
    assert [m.decisions for m in deciding.matches] == [m.decisions for m in choosing.matches]


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot])
def test_choose_and_decide_agree(bot: type[RandomBot | GreedyBot]) -> None:
    game = hr.Round.deal(hr.rulesets.levant, players=3, seed=5).keep_deal()
    for _ in range(30):
        if game.is_over:
            break
        seat = game.turn
        by_view = bot(seed=7).choose(game.view(seat))
        by_decision = bot(seed=7).decide(Choice.of_round(game))
        assert by_view == by_decision
        game = game.apply(by_view)


def test_a_decision_works_out_what_it_is_asked_for() -> None:
    game = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
    from_round = Choice.of_round(game)
    from_view = Choice.of_view(game.view(game.turn))
    assert from_round.legal == from_view.legal == tuple(game.legal_actions())
    assert from_round.view == from_view.view
    # not this seat's move: no legal action
    other = (game.turn + 1) % 3
    assert Choice.of_round(game, other).legal == ()
    with pytest.raises(hr.InvalidStateError, match="needs the view or the round"):
        Choice(0)
    with pytest.raises(hr.InvalidStateError, match="has no legal action"):
        RandomBot(1).decide(Choice.of_round(game, other))


def test_play_round_and_play_match_ask_either_kind_of_bot() -> None:
    game = hr.Round.deal(hr.rulesets.classic, players=3, seed=4)
    done = play_round(game, [RandomBot(1), ChooseOnly(2), GreedyBot(3)])  # type: ignore[list-item]
    assert done.is_over and done.replay() == done
    match = hr.Match.new(hr.rulesets.classic, 2, seed=4, length=3)
    finished = play_match(match, [ChooseOnly(1), GreedyBot(2)])  # type: ignore[list-item]
    assert finished.is_over and len(finished.rounds) >= 3
    assert ask(ChooseOnly(3), Choice.of_round(game)) in game.legal_actions()  # type: ignore[arg-type]
