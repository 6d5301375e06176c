"""Observation arrays: built from a view alone, fixed in shape, blind to hidden cards."""

from __future__ import annotations

import importlib
import random
import sys

import attrs
import pytest

import hand_rummy as hr
from hand_rummy import encoding
from hand_rummy.testing import player_counts, random_action

np = pytest.importorskip("numpy")

from hand_rummy import observation  # noqa: E402 (after the skip)
from hand_rummy.extras import MissingExtraError  # noqa: E402
from hand_rummy.observation import ObservationLayout, observe  # noqa: E402

PRESETS = sorted(hr.PRESETS)


def positions(ruleset: hr.Ruleset, players: int, seed: int, steps: int) -> list[hr.Round]:
    game = hr.Round.deal(ruleset, players, seed)
    rng = random.Random(seed)
    seen = [game]
    for _ in range(steps):
        if game.is_over:
            break
        game = game.apply(random_action(game, rng))
        seen.append(game)
    return seen


def hidden_from(game: hr.Round, seat: int) -> tuple[object, ...]:
    """What ``seat`` cannot see: each other hand (as the multiset of its cards) and the
    stock in its order."""
    hands = tuple(
        sorted(card.index for card in game.hand(s)) for s in range(game.players) if s != seat
    )
    return (hands, game.stock)


@pytest.mark.parametrize("name", PRESETS)
def test_hidden_cards_do_not_change_the_observation(name: str) -> None:
    """Two rounds that differ only in cards a player cannot see give that player equal arrays."""
    ruleset = hr.build(name, [])
    players = player_counts(ruleset)[-1]
    layout = ObservationLayout.of(ruleset)
    rng = random.Random(7)
    for game in positions(ruleset, players, seed=11, steps=400)[::9]:
        for seat in range(players):
            view = game.view(seat)
            other = view.sample(random.Random(rng.randrange(2**32)))
            # the sample must really be another round, or equal arrays prove nothing: the
            # cards hidden from the seat (other hands and the stock, a dozen cards or more in
            # every position here) are dealt afresh, and a shuffle that puts each one back
            # where it was is too unlikely to happen
            assert hidden_from(other, seat) != hidden_from(game, seat)
            assert other.hand(seat) == game.hand(seat)
            assert other.view(seat) == view
            mine = observe(view)
            assert mine.shape == layout.shape and mine.dtype == np.float32
            assert np.array_equal(observe(other.view(seat)), mine)


@pytest.mark.parametrize("name", ["romme", "levant"])
def test_the_shape_is_fixed_per_ruleset(name: str) -> None:
    ruleset = hr.build(name, [])
    shapes = set()
    for players in player_counts(ruleset):
        for game in positions(ruleset, players, seed=players, steps=60)[::20]:
            shapes.add(observe(game.view(0)).shape)
    assert shapes == {ObservationLayout.of(ruleset).shape}


def test_the_sections_say_what_the_view_shows() -> None:
    levant = hr.rulesets.levant
    game = positions(levant, 4, seed=5, steps=80)[-1]
    assert not game.is_over
    seat = game.turn
    view = game.view(seat)
    layout = ObservationLayout.of(levant)
    array = observe(view)

    def part(name: str) -> list[float]:
        section = layout.section(name)
        return array[section.start : section.stop].tolist()

    hand = [0.0] * 53
    for card in view.hand:
        hand[card.index] += 1
    assert part("hand") == hand
    assert part("to_move")[0] == 1 and sum(part("to_move")) == 1
    assert part("stock_size") == [view.stock_size]
    assert part("hand_size")[:4] == [view.hand_sizes[(seat + i) % 4] for i in range(4)]
    assert view.indicator is not None and part("indicator")[view.indicator.index] == 1
    assert sum(part("table_present")) == len(view.table)
    assert sum(part("table_cards")) == sum(len(m.meld) for m in view.table)
    assert [s.start for s in layout.sections[1:]] == [s.stop for s in layout.sections[:-1]]


def test_numbers_past_a_byte_are_kept_whole() -> None:
    # a long Gulf round can pass 255 turns; the array must hold the number, not a byte of it
    game = positions(hr.rulesets.levant, 4, seed=5, steps=20)[-1]
    view = attrs.evolve(game.view(game.turn), turns_played=(300, 256, 255, 0))
    layout = ObservationLayout.of(hr.rulesets.levant)
    section = layout.section("turns_played")
    seat = view.seat
    played = observe(view)[section.start : section.stop].tolist()
    assert played[:4] == [float(view.turns_played[(seat + i) % 4]) for i in range(4)]
    assert sorted(played[:4]) == [0.0, 255.0, 256.0, 300.0]


def test_the_pending_lay_down_is_in_the_observation() -> None:
    classic = hr.rulesets.classic
    game = hr.Round.deal(classic, 2, seed=0)
    rng = random.Random(0)
    while not any(isinstance(a, hr.LayDown) for a in game.legal_actions()):
        game = game.apply(random_action(game, rng))
    decision = encoding.ActionSpace.of(classic, 2).decision(game.view(game.turn))
    start = next(i for i in decision.legal_ids() if decision.layout.is_meld_start(i))
    pending = decision.decode(start)
    assert isinstance(pending, encoding.Decision)
    layout = ObservationLayout.of(classic)
    before, after = observe(decision), observe(pending)
    section = layout.section("pending")
    assert before[section.start : section.stop].tolist() == [0, 0]
    assert after[section.start : section.stop].tolist() == [1, 1]
    (meld,) = pending.pending_melds()
    cards = layout.section("pending_cards")
    assert after[cards.start : cards.stop].sum() == len(meld)
    assert np.array_equal(observe(decision.view), before)


def test_without_numpy_the_module_imports_and_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the reload runs the module again in the same module object; its names are put back
    # afterwards, so that the classes other modules imported stay the module's own (a layout
    # pickled later, by OpenSpiel's serialize(), is looked up by its class's name)
    saved = dict(vars(observation))
    monkeypatch.setitem(sys.modules, "numpy", None)
    fresh = importlib.reload(observation)
    try:
        layout = fresh.ObservationLayout.of(hr.rulesets.romme)
        assert layout.size > 0
        game = hr.Round.deal(hr.rulesets.romme, 2, seed=1)
        with pytest.raises(fresh.NumpyMissingError, match=r"hand-rummy\[rl\]") as raised:
            fresh.observe(game.view(0))
        assert isinstance(raised.value, hr.HandRummyError)
        # install.rst: a face that needs an extra raises MissingExtraError
        assert isinstance(raised.value, MissingExtraError)
    finally:
        monkeypatch.undo()
        vars(observation).clear()
        vars(observation).update(saved)
    assert observation.ObservationLayout is ObservationLayout


def test_an_unknown_section_is_refused_with_the_names_there_are() -> None:
    layout = ObservationLayout.of(hr.rulesets.levant)
    assert layout.section("hand").name == "hand"
    with pytest.raises(hr.InvalidStateError, match="no section 'nope'; it has phase, to_move"):
        layout.section("nope")


def test_a_match_standing_must_name_every_seat() -> None:
    game = hr.Round.deal(hr.rulesets.levant, 3, seed=2)
    layout = ObservationLayout.of(hr.rulesets.levant)
    view = game.view(1)
    array = observe(view, layout, totals=(40, -30, 0), rounds=2)
    totals, credits = layout.section("match_totals"), layout.section("match_credits")
    # seats counted from the observer (seat 1): itself, seat 2, seat 0, then padding
    assert array[totals.start : totals.stop].tolist() == [0.0, 0.0, 40.0, 0.0]
    assert array[credits.start : credits.stop].tolist() == [30.0, 0.0, 0.0, 0.0]
    assert array[layout.section("match_rounds").start] == 2
    for totals_given, rounds in (((40, -30), 2), ((0, 0, 0), -1)):
        with pytest.raises(hr.InvalidStateError, match="a match standing needs 3 totals"):
            observe(view, layout, totals=totals_given, rounds=rounds)
