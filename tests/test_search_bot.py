"""SearchBot: legal choices in every phase, no peeking at hidden cards, budgets kept."""

from __future__ import annotations

import math
import random

import pytest

import hand_rummy as hr
from hand_rummy import search
from hand_rummy.actions import LayDown
from hand_rummy.bots import GreedyBot, RandomBot, SearchBot
from hand_rummy.errors import HandRummyError
from hand_rummy.round import Phase, Round
from hand_rummy.search import candidates, estimate, rollout


def _players(ruleset: hr.Ruleset) -> int:
    return 4 if ruleset.players.allows(4) else ruleset.players.minimum


def _positions(preset: str, seed: int, every: int = 4) -> list[Round]:
    """Positions of one round between greedy and random bots, every ``every``-th move."""
    ruleset = hr.build(preset)
    players = _players(ruleset)
    game = Round.deal(ruleset, players, seed)
    bots = [GreedyBot(seed + i) if i % 2 else RandomBot(seed + i) for i in range(players)]
    found: list[Round] = []
    moves = 0
    while not game.is_over:
        if moves % every == 0 or game.phase is Phase.REDEAL:
            found.append(game)
        game = game.apply(bots[game.turn].choose(game.view(game.turn)))
        moves += 1
    return found


def test_search_is_exported_from_bots() -> None:
    from hand_rummy import search  # noqa: PLC0415

    assert SearchBot is search.SearchBot
    with pytest.raises(AttributeError):
        _ = hr.bots.NoSuchBot  # type: ignore[attr-defined]


@pytest.mark.parametrize("preset", hr.PRESETS)
def test_a_legal_action_in_every_phase(preset: str) -> None:
    phases: set[Phase] = set()
    searched = 0
    for seed in (1, 2):
        for number, game in enumerate(_positions(preset, seed, every=6)):
            bot = SearchBot(iterations=1, seed=number, candidates=3, horizon=1)
            view = game.view(game.turn)
            action = bot.choose(view)
            assert action in game.legal_actions(), (preset, seed, game.phase, action)
            assert bot.stats.candidates <= 3
            searched += bot.stats.candidates > 1
            phases.add(game.phase)
    assert {Phase.DRAW, Phase.PLAY} <= phases
    assert searched > 0


def test_candidates_are_legal_distinct_and_greedy_first() -> None:
    laid = 0
    for preset in ("levant", "romme"):
        for seed in range(4):
            for game in _positions(preset, seed, every=1):
                if game.phase is not Phase.PLAY:
                    continue
                view = game.view(game.turn)
                actions = list(view.legal_actions())
                greedy = GreedyBot(seed).choose(view)
                pool = candidates(view, actions, greedy, 4)
                assert pool[0] == greedy
                assert len(pool) == len(set(pool)) <= 4
                assert all(a in actions for a in pool)
                if isinstance(greedy, LayDown) and len(pool) > 1:
                    laid += 1
    assert laid > 0  # some lay-downs were searched against the alternatives


def test_the_round_outside_the_view_does_not_matter() -> None:
    rng = random.Random(5)
    for preset in ("levant", "romme", "gulf"):
        positions = [g for g in _positions(preset, 3, every=3) if g.phase is not Phase.REDEAL]
        for game in positions[:4]:
            seat = game.turn
            view = game.view(seat)
            other = view.sample(rng)  # the same view, other hidden cards
            assert other.view(seat) == view
            assert [other.hand(s) for s in range(game.players)] != [
                game.hand(s) for s in range(game.players)
            ]
            first = SearchBot(iterations=2, seed=9, candidates=3, horizon=1)
            second = SearchBot(iterations=2, seed=9, candidates=3, horizon=1)
            second.choose(other.view(seat))  # an earlier question leaves no trace
            assert first.choose(view) == second.choose(other.view(seat))
            assert first.stats.means == second.stats.means


def test_it_is_given_a_view_only() -> None:
    game = Round.deal(hr.rulesets.levant, 4, 1).keep_deal()
    with pytest.raises(HandRummyError):
        SearchBot(iterations=1).choose(game)  # type: ignore[arg-type]
    waiting = game.view((game.turn + 1) % game.players)
    with pytest.raises(HandRummyError):
        SearchBot(iterations=1).choose(waiting)


def _searched_position() -> Round:
    """A position where the bot compares several discards."""
    game = Round.deal(hr.rulesets.levant, 4, 11).keep_deal()
    assert game.phase is Phase.PLAY  # the starter discards
    return game


def test_the_iteration_budget_is_counted() -> None:
    game = _searched_position()
    for iterations in (1, 3):
        bot = SearchBot(iterations=iterations, candidates=3, horizon=1)
        bot.choose(game.view(game.turn))
        assert bot.stats.candidates == 3
        assert bot.stats.worlds == iterations
        assert bot.stats.rollouts == 3 * iterations
        assert len(bot.stats.means) == 3


def test_a_time_budget_returns_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # play-outs of 0.02 s on a clock that only they move: two make a world of two candidates
    # by 0.04 s, and a third would end at 0.06 s, past the limit of 0.05 s, so none starts
    for clock_name in ("wall", "cpu"):
        clock = _FakeTime(step=0.02)

        def play_out(
            game: Round, seat: int, seeds: object, horizon: object = None, clock: _FakeTime = clock
        ) -> float:
            clock.now += clock.step
            return 0.0

        monkeypatch.setattr(search, "time", clock)
        monkeypatch.setattr(search, "rollout", play_out)
        game = _searched_position()
        bot = SearchBot(seconds=0.05, candidates=2, clock=clock_name)
        action = bot.choose(game.view(game.turn))
        assert action in game.legal_actions()
        assert (bot.stats.worlds, bot.stats.rollouts) == (1, 2)
        measured = bot.stats.cpu if clock_name == "cpu" else bot.stats.seconds
        assert measured == pytest.approx(0.04)
    # both limits: the first one reached ends the search
    monkeypatch.undo()
    bot = SearchBot(iterations=2, seconds=30.0, candidates=2, horizon=1)
    bot.choose(game.view(game.turn))
    assert bot.stats.worlds == 2


class _FakeTime:
    """A clock that only play-outs move, by ``step`` seconds each."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        return self.now

    def thread_time(self) -> float:
        return self.now


def test_a_play_out_starts_only_if_one_of_average_length_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _FakeTime(step=0.03)

    def play_out(game: Round, seat: int, seeds: object, horizon: object = None) -> float:
        clock.now += clock.step
        return 0.0

    monkeypatch.setattr(search, "time", clock)
    monkeypatch.setattr(search, "rollout", play_out)
    game = _searched_position()
    bot = SearchBot(seconds=0.1, candidates=3)
    bot.choose(game.view(game.turn))
    # three play-outs of 0.03 s make one world by 0.09 s; a fourth would end at 0.12 s, past
    # the limit, so it is not started (the limit counts from the start of the decision)
    assert (bot.stats.worlds, bot.stats.rollouts) == (1, 3)
    assert clock.now == pytest.approx(0.09)
    assert bot.stats.seconds == pytest.approx(0.09)


@pytest.mark.parametrize(
    "budget",
    [
        {"iterations": 0},
        {"iterations": -3},
        {"iterations": 1.5},
        {"iterations": True},
        {"iterations": "8"},
        {"seconds": 0},
        {"seconds": -0.1},
        {"seconds": math.nan},
        {"seconds": math.inf},
        {"seconds": "0.2"},
        {"candidates": 1},
        {"horizon": 0},
        {"seed": "x"},
        {"margin": -1},
        {"margin": math.inf},
        {"clock": "sundial"},
    ],
)
def test_bad_budgets_are_refused(budget: dict[str, object]) -> None:
    with pytest.raises(HandRummyError):
        SearchBot(**budget)  # type: ignore[arg-type]


def test_rollouts_and_estimates() -> None:
    game = _searched_position()
    seat = game.turn
    # a finished round gives its own score; the estimate is what a player would pay
    reward = rollout(game, seat, [1, 2, 3, 4])
    # the seat plays as the SearchBot's default, the others as plain GreedyBots
    done = hr.bots.play_round(
        game, [GreedyBot(s, flat_discards=i == seat) for i, s in enumerate((1, 2, 3, 4))]
    )
    assert done.outcome is not None
    assert reward == -done.outcome.score.scores[seat] / 100
    assert estimate(game, seat) == 100  # not opened: the Levantine flat penalty
    assert -1.0 <= rollout(game, seat, [1, 2, 3, 4], horizon=1) <= 0.0


def test_a_play_out_that_runs_long_is_estimated() -> None:
    """Bots may never end a round whose stock is renewed; the play-out stops at ``most``."""
    game = _searched_position()
    seat = game.turn
    bots = [GreedyBot(s, flat_discards=i == seat) for i, s in enumerate((1, 2, 3, 4))]
    played = game
    for _ in range(7):
        played = played.apply(bots[played.turn].decide(hr.bots.Choice.of_round(played)))
    assert not played.is_over
    cut = rollout(game, seat, [1, 2, 3, 4], most=7)
    assert cut == -estimate(played, seat) / 100
    assert cut != rollout(game, seat, [1, 2, 3, 4])  # played to its end, it scores otherwise
    for bad in (0, -1, 1.5, "3"):
        with pytest.raises(hr.InvalidStateError, match="play-out"):
            rollout(game, seat, [1, 2, 3, 4], most=bad)  # type: ignore[arg-type]


def test_plays_a_whole_round() -> None:
    game = Round.deal(hr.rulesets.romme, 4, 2)
    bots: list[hr.Bot] = [SearchBot(iterations=1, seed=3, horizon=1), *map(GreedyBot, (1, 2, 3))]
    done = hr.bots.play_round(game, bots)
    assert done.is_over
    assert repr(bots[0]).startswith("SearchBot(iterations=1")
