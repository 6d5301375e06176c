"""Resampled states keep every seat's information state a key OpenSpiel's searches can use;
a finished round refuses a move with the library's error."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from hand_rummy import encoding  # noqa: E402
from hand_rummy.openspiel import load_game  # noqa: E402


def _play_to(state: Any, rng: random.Random, done: Any) -> Any:
    while not done(state):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["classic", "levant", "romme"])
def test_samples_for_one_seat_give_other_seats_consistent_keys(name: str) -> None:
    # ISMCTS keys its nodes by the information state of the player to move: two samples
    # in which that player could move differently must not share it
    game = load_game(name, players=2)
    rng = random.Random(1)
    state = _play_to(
        game.new_initial_state(),
        rng,
        lambda s: (
            s.is_terminal()
            or (not s.is_chance_node() and s.current_player() == 1 and len(s.history()) > 40)
        ),
    )
    assert not state.is_terminal()
    keys: dict[str, list[int]] = {}
    for seed in range(12):
        sample = state.resample_from_infostate(0, random.Random(seed).random)
        assert sample.information_state_string(0) == state.information_state_string(0)
        key = sample.information_state_string(1)
        assert keys.setdefault(key, sample.legal_actions()) == sample.legal_actions()
    assert len(keys) > 1


def test_a_move_after_the_round_is_refused() -> None:
    game = load_game("classic", players=2)
    state = _play_to(game.new_initial_state(), random.Random(3), lambda s: s.is_terminal())
    before = (str(state), state.history())
    with pytest.raises(encoding.NotToMoveError, match="over"):
        state.apply_action(0)
    assert (str(state), state.history()) == before


def _levant_with_a_joker_turned(turned: bool, players: int = 4) -> Any:
    """A Levant deal whose hands hold no joker; with ``turned``, the first card turned as
    the indicator is a joker, which goes back into the stock face up (000 §Wild cards)."""
    from hand_rummy.cards import JOKER, parse_card  # noqa: PLC0415

    game = load_game("levant", players=players)
    state = game.new_initial_state()
    rng = random.Random(4)
    while sum(map(len, state._s.dealt)) < sum(state._s.sizes):
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes() if a != JOKER.index]))
    if turned:
        state.apply_action(JOKER.index)
    state.apply_action(parse_card("9H").index)
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probabilities)[0])
    return state


def test_a_turned_joker_is_in_the_information_state() -> None:
    turned, direct = _levant_with_a_joker_turned(True), _levant_with_a_joker_turned(False)
    for seat in range(4):
        assert turned.information_state_string(seat) != direct.information_state_string(seat)
        assert "turned again JK" in turned.information_state_string(seat)


def test_samples_keep_a_turned_joker_in_its_place_with_the_right_odds() -> None:
    # seat 0 holds no joker and knows where one of the two lies in the stock; the other
    # could be in any place seat 0 cannot see: in the stock's other places with the chance
    # (stock - 1) / (hidden - 1), whatever the sampler does
    from hand_rummy.cards import JOKER  # noqa: PLC0415

    state = _levant_with_a_joker_turned(True)
    place = state._s.slots.index(JOKER)
    stock = len(state._s.game.stock)
    hidden = stock + sum(len(state._s.game.hand(seat)) for seat in (1, 2, 3))
    expected = (stock - 1) / (hidden - 1)
    key = state.information_state_string(0)
    both = 0
    tries = 1500
    for seed in range(tries):
        sample = state.resample_from_infostate(0, random.Random(seed).random)
        assert sample._s.game.stock[place] == JOKER
        assert sample.information_state_string(0) == key
        both += sample._s.game.stock.count(JOKER) == 2
    spread = 4 * (expected * (1 - expected) / tries) ** 0.5
    assert abs(both / tries - expected) < spread
