"""The OpenSpiel game: OpenSpiel's random simulation test, chance nodes, resampling, ISMCTS."""

from __future__ import annotations

import base64
import pickle
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

import hand_rummy as hr

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from hand_rummy import encoding  # noqa: E402
from hand_rummy.observation import ObservationLayout  # noqa: E402
from hand_rummy.openspiel import GAME_NAME, load_game  # noqa: E402
from hand_rummy.openspiel.game import HandRummyState  # noqa: E402
from hand_rummy.scoring import score_bound  # noqa: E402

PRESETS = sorted(hr.PRESETS)


def players_of(name: str) -> int:
    allowed = hr.build(name).players
    return 3 if allowed.allows(3) else allowed.maximum


def play_randomly(state: Any, rng: random.Random, steps: int) -> list[Any]:
    """Play ``steps`` moves, chance by its probabilities; every state met."""
    seen = [state.clone()]
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize("name", PRESETS)
def test_openspiel_random_sim_test(name: str) -> None:
    game = load_game(name, players=players_of(name))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_game_has_its_parameters() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "romme", "variants": "round_the_corner"})
    assert game.num_players() == 4
    assert (
        game.num_distinct_actions()
        == encoding.ActionSpace.of(hr.build("romme", ["round_the_corner"]), 4).size
    )
    size = ObservationLayout.of(hr.build("romme", ["round_the_corner"])).size
    assert game.observation_tensor_size() == game.information_state_tensor_size() == size


def test_a_round_that_reaches_max_moves_ends_there_unscored() -> None:
    # Gulf Hand renews the stock without end: a round may never end by the rules, and an
    # OpenSpiel game must keep its histories within max_game_length()
    assert load_game("gulf", players=4).max_game_length() == 100_000
    game = load_game("gulf", players=4, max_moves=150)
    assert game.max_game_length() == 150
    state = game.new_initial_state()
    seen = play_randomly(state, random.Random(3), 1000)
    assert len(seen) == 151 and state.is_terminal() and state.cut_short
    assert len(state.history()) == 150 and state.view(0).outcome is None
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0] * 4 and state.legal_actions() == []
    assert not any(s.is_terminal() for s in seen[:-1])
    with pytest.raises(encoding.NotToMoveError):
        state.apply_action(state.history()[-1])
    again = game.deserialize_state(state.serialize())
    assert again.is_terminal() and again.cut_short
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # a round the rules end first is not cut short
    ended = load_game("levant", players=4).new_initial_state()
    play_randomly(ended, random.Random(1), 100_000)
    assert ended.is_terminal() and not ended.cut_short


@pytest.mark.parametrize("moves", [0, -5, 2**31, 1.5, True, "100"])
def test_max_moves_is_a_count_of_actions(moves: object) -> None:
    with pytest.raises(hr.InvalidStateError, match="max_moves"):
        load_game("gulf", players=4, max_moves=moves)  # type: ignore[arg-type]


def test_chance_nodes_deal_every_card_with_its_probability() -> None:
    game = load_game("levant", players=2)
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 53 and sum(outcomes.values()) == pytest.approx(1.0)
    # two copies of each card and two jokers in 106 cards
    assert list(outcomes.values()) == [pytest.approx(2 / 106)] * 53
    state.apply_action(0)
    assert dict(state.chance_outcomes())[0] == pytest.approx(1 / 105)
    deals = 0
    while state.is_chance_node():
        state.apply_action(random.Random(deals).choice(state.chance_outcomes())[0])
        deals += 1
    # 14 + 15 cards dealt, the indicator (perhaps after a joker) and no up-card
    assert deals >= 29
    assert state._s.game is not None and state._s.game.indicator is not None


def test_a_draw_from_the_stock_is_a_chance_node_over_the_unseen_cards() -> None:
    game = load_game("classic", players=2)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            if state._s.game is not None:  # a draw: the stock's cards, by their share
                stock = state._s.game.stock
                outcomes = dict(state.chance_outcomes())
                counts: dict[int, int] = {}
                for card in stock:
                    counts[card.index] = counts.get(card.index, 0) + 1
                assert outcomes == {i: pytest.approx(n / len(stock)) for i, n in counts.items()}
                choice = rng.choice(sorted(outcomes))
                player = state._s.game.turn
                state.apply_action(choice)
                assert hr.cards.CARDS[choice] in state._s.game.hand(player)
                return
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            legal = state.legal_actions()
            draw = encoding.ActionSpace.of(hr.rulesets.classic, 2).layout.draw
            state.apply_action(draw if draw in legal else rng.choice(legal))
    pytest.fail("no draw from the stock")


@pytest.mark.parametrize("name", ["levant", "romme"])
def test_resampling_keeps_the_information_state(name: str) -> None:
    game = load_game(name, players=players_of(name))
    rng = random.Random(11)
    states = play_randomly(game.new_initial_state(), rng, 400)
    checked = 0
    for state in states[::5]:
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        sample = state.resample_from_infostate(player, sampler)
        assert isinstance(sample, HandRummyState)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", ["classic", "romme"])
def test_resampling_for_any_player_keeps_that_players_information_state(name: str) -> None:
    # every player, at every kind of node: another player's lay-down half chosen (its melds
    # are hidden, and the sampled hand may not hold them) and a draw from the stock included
    game = load_game(name, players=2)
    rng = random.Random(3)
    states = play_randomly(game.new_initial_state(), rng, 600)
    kinds = set()
    for state in states[20:]:
        if state.is_terminal():
            continue
        pending = state._s.decision is not None and bool(state._s.decision.pending)
        kinds.add("chance" if state.is_chance_node() else "pending" if pending else "move")
        for player in range(2):
            sample = state.resample_from_infostate(player, random.Random(rng.random()).random)
            assert sample.information_state_string(player) == (
                state.information_state_string(player)
            )
            assert sample.observation_tensor(player) == state.observation_tensor(player)
    assert kinds == {"chance", "pending", "move"}


def test_ismcts_plays_a_whole_round() -> None:
    """OpenSpiel's information-set MCTS bot, at seat 0, plays a whole round to its end."""
    from open_spiel.python.algorithms import ismcts, mcts  # noqa: PLC0415

    game = load_game("levant", players=2)
    rng = np.random.RandomState(5)

    class Cheap(mcts.Evaluator):  # type: ignore[misc]
        """A uniform prior and a value of 0: the tree search itself, without rollouts."""

        def evaluate(self, state: Any) -> Any:
            return np.zeros(game.num_players())

        def prior(self, state: Any) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    bot = ismcts.ISMCTSBot(
        game, Cheap(), uct_c=2.0, max_simulations=8, random_state=rng, use_observation_string=False
    )
    state, moves = _bot_at_seat_0(game, bot, random.Random(5))
    assert moves > 10
    assert len(state.returns()) == 2 and state._s.game is not None and state._s.game.is_over


def test_ismcts_with_its_default_settings_and_rollouts() -> None:
    """The bot as OpenSpiel's examples build it: it keys its nodes by information-state
    strings and meets resampled states at other seats' moves (it failed with KeyError
    while a resample left those strings without cards)."""
    from open_spiel.python.algorithms import ismcts, mcts  # noqa: PLC0415

    game = load_game("classic", players=2)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)
    _, moves = _bot_at_seat_0(game, bot, random.Random(2), limit=6)
    assert moves == 6


def _bot_at_seat_0(
    game: Any, bot: Any, choices: random.Random, limit: int | None = None
) -> tuple[Any, int]:
    """The state after ``bot`` plays seat 0 (``limit`` moves, or to the end) against random
    moves, and how many moves it made."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and (limit is None or moves < limit):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(choices.choices(outcomes, probabilities)[0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(choices.choice(state.legal_actions()))
    return state, moves


def test_bad_input() -> None:
    with pytest.raises(hr.UnknownRulesError):
        load_game("hearts")
    with pytest.raises(hr.InvalidStateError, match="not 7"):
        load_game("levant", players=7)
    game = load_game("classic", players=2)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probabilities)[0])
    before = state.information_state_string(state.current_player())
    illegal = next(i for i in range(game.num_distinct_actions()) if i not in state.legal_actions())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert state.information_state_string(state.current_player()) == before


def test_the_package_imports_without_its_extra_and_names_it() -> None:
    code = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"
        "import hand_rummy.openspiel as game\n"
        "try:\n"
        "    game.load_game('levant')\n"
        "except game.MissingExtraError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "hand-rummy[openspiel]" in out


def test_variants_are_a_list_or_the_parameters_string() -> None:
    # load_game takes the variants as the game parameter does (names joined by "+") too
    listed = load_game("romme", players=3, variants=["round_the_corner", "wrap_ace_1"])
    joined = load_game("romme", players=3, variants="round_the_corner+wrap_ace_1")
    assert str(listed) == str(joined)
    assert "variants=round_the_corner+wrap_ace_1" in str(joined)
    with pytest.raises(hr.HandRummyError, match="unknown variant 'nope'"):
        load_game("romme", players=3, variants="nope")


def test_a_game_of_two_variants_loads_again_from_its_string() -> None:
    """pyspiel reads a game back from its string (serialize_game_and_state does): with two
    variants joined by a comma the second was read as a parameter of its own."""
    game = load_game("romme", players=3, variants=["round_the_corner", "wrap_ace_1"])
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.ruleset == game.ruleset
    state = game.new_initial_state()
    for _ in range(20):
        state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert str(copy) == str(state)


@pytest.mark.parametrize(
    "variants",
    [
        "round_the_corner,wrap_ace_1",
        ["round_the_corner,wrap_ace_1"],
        "round_the_corner, wrap_ace_1,",
    ],
)
def test_variants_joined_by_commas_are_written_back_with_plus(variants: object) -> None:
    """Commas are read as "+", but the game's string must use "+": OpenSpiel would read a
    comma there as the end of the parameter, and the string would not load again."""
    game = load_game("romme", players=3, variants=variants)  # type: ignore[arg-type]
    assert "," not in game.get_parameters()["variants"]
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.ruleset == game.ruleset
    assert again.ruleset.variants == game.ruleset.variants != ()


def test_a_chance_action_that_is_no_card_face_is_refused() -> None:
    state = load_game("classic", players=2).new_initial_state()
    with pytest.raises(encoding.IdNotLegalError, match="from 0 to 52, not 53"):
        state.apply_action(53)
    assert state.history() == []


def test_the_declared_utilities_hold_the_largest_returns() -> None:
    """OpenSpiel algorithms scale by the game's utilities, so no return may pass them. In
    Partnership Hand with Egyptian bonuses and the ×16 suit (000 §Variants), a one-suit
    Hand ended on a wild: ×2 (Hand) ×2 (wild discard) ×4 (one suit) ×2 (its colour) = ×32,
    so each opponent who never opened scores 100 × 32 = 3200 and their team 6400, a return
    of -64 (the utilities were ±50); the winner's -30 × 32 = -960 gives +9.6."""
    variants = ["partnership", "egyptian_bonuses", "egyptian_suit_x16"]
    ruleset = hr.build("levant", variants)
    end = hr.RoundEnd.of(
        [("", True), ("KS 7D", False), ("2C", True), ("9C", False)],
        went_out=0,
        hand=True,
        melded="2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        last_discard="AC",  # the wild under the 8♣
    )
    score = hr.score_round(end, hr.MeldRules.of(ruleset, hr.parse_card("8C")))
    assert score.team_scores == (-960, 6400)
    game = load_game("levant", players=4, variants=variants)
    assert game.min_utility() <= -64.0 and game.max_utility() >= 9.6
    assert game.max_utility() == -game.min_utility() == score_bound(ruleset, 4) / 100


def test_an_observer_of_public_information_alone_is_refused() -> None:
    """A view is the public facts and the player's own cards together; asked for public
    information alone, the observer gave the hand too, so it is refused, not leaked."""
    from open_spiel.python.observation import make_observation  # noqa: PLC0415

    game = load_game("classic", players=2)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(hr.HandRummyError, match="private_info=NONE"):
        make_observation(game, public)
    every = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(hr.HandRummyError, match="private_info=ALL_PLAYERS"):
        make_observation(game, every)
    assert make_observation(game).tensor.size == game.observation_tensor_size()


@pytest.mark.parametrize("name", ["levant", "saudi_partnership"])
def test_equal_observation_strings_mean_equal_tensors(name: str) -> None:
    """The docs: the observation string lists the facts of the tensor in words. So two
    states a player observes alike in words must give that player one tensor (an
    announcement, a demoted card, an owner or the turn's state was missing from the words)."""
    game = load_game(name, players=4)
    seen: dict[str, bytes] = {}
    for deal in range(3):
        state = game.new_initial_state()
        for met in play_randomly(state, random.Random(deal), 400):
            for player in range(4):
                words = met.observation_string(player)
                tensor = np.asarray(met.observation_tensor(player), np.float32).tobytes()
                assert seen.setdefault(words, tensor) == tensor, words
    assert len(seen) > 300


def test_an_announcement_is_in_the_observation_string() -> None:
    # the audit's pair: one discard with the announcement of one card and one without
    game = load_game("levant", players=2)
    start = game.space.layout.block("discard").start
    rng, state = random.Random(1), game.new_initial_state()
    while True:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
            continue
        legal = set(state.legal_actions())
        ids = sorted(i for i in legal if start <= i < start + 53 and i + 53 in legal)
        if ids:
            break
        state.apply_action(rng.choice(sorted(legal)))
    quiet, loud = state.clone(), state.clone()
    quiet.apply_action(ids[0])
    loud.apply_action(ids[0] + 53)  # the same discard, announcing one card
    assert quiet.observation_tensor(1) != loud.observation_tensor(1)
    assert quiet.observation_string(1) != loud.observation_string(1)


def test_chance_questions_off_chance_nodes_get_the_library_errors() -> None:
    game = load_game("classic", players=np.int64(2))
    state = game.new_initial_state()
    with pytest.raises(encoding.IdNotLegalError, match="from 0 to 52, not 99"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 99)
    rng = random.Random(2)
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probabilities)[0])
    with pytest.raises(hr.HandRummyError, match="for chance nodes"):
        state.chance_outcomes()


def _same_state(a: Any, b: Any, players: int) -> None:
    """Two states alike in everything the game keeps: the round (hands, stock in order,
    table, history), the deal and draws, the stock's known places, the decision, and every
    seat's information state."""
    assert a.history() == b.history()
    assert a._s.game == b._s.game
    assert (a._s.dealt, a._s.draws, a._s.slots) == (b._s.dealt, b._s.draws, b._s.slots)
    assert (a._s.unknown, a._s.upcard, a._s.indicator) == (
        b._s.unknown,
        b._s.upcard,
        b._s.indicator,
    )
    assert str(a) == str(b) and a.current_player() == b.current_player()
    if not a.is_terminal() and not a.is_chance_node():
        assert a.legal_actions() == b.legal_actions()
    for seat in range(players):
        assert a.information_state_string(seat) == b.information_state_string(seat)


def _resampled_states(name: str, seeds: range, every: int) -> tuple[Any, int, list[Any]]:
    """The game, its number of players and states met every ``every`` steps of random
    rounds (one state per round on the way to a reshuffle, where the rules have one)."""
    players = players_of(name)
    game = load_game(name, players=players)
    states = []
    for seed in seeds:
        met = play_randomly(game.new_initial_state(), random.Random(seed), 700)
        states += [s for s in met[1::every] if not s.is_terminal()]
    return game, players, states


@pytest.mark.parametrize("name", ["classic", "levant", "romme", "gulf", "saudi_partnership"])
def test_a_resampled_state_is_its_own_history_replayed(name: str) -> None:
    """A resample's history deals the sample (it dealt the real hidden cards, and
    serialize() gave the real state back): replayed from the start, or read back from
    serialize(), it is the sample, and its player sees what it saw in the real state."""
    game, players, states = _resampled_states(name, range(2), 61)
    rng = random.Random(7)
    differ = 0
    for state in states:
        for player in range(players):
            sample = state.resample_from_infostate(player, random.Random(rng.random()).random)
            assert sample.information_state_string(player) == (
                state.information_state_string(player)
            )
            assert sample.observation_tensor(player) == state.observation_tensor(player)
            replayed = game.new_initial_state()
            for action in sample.history():
                replayed.apply_action(action)
            _same_state(replayed, sample, players)
            _same_state(game.deserialize_state(sample.serialize()), sample, players)
            if sample._s.game is not None:
                hands = [sorted(sample._s.game.hand(s)) for s in range(players) if s != player]
                real = [sorted(state._s.game.hand(s)) for s in range(players) if s != player]
                differ += hands != real
    assert differ > len(states)  # most samples deal other hands than the real ones


@pytest.mark.parametrize("name", ["classic", "levant", "partnership"])
def test_a_resample_depends_on_nothing_its_player_cannot_see(name: str) -> None:
    """Two states a player cannot tell apart (a state and a sample of it) resample alike
    for that player, history and all: the real hidden cards leave no trace in a sample
    (its history gave the real deal and the other players' real draws)."""
    _, players, states = _resampled_states(name, range(2), 53)
    rng = random.Random(3)
    reshuffled = moved = 0
    for state in states:
        reshuffled += state._s.game is not None and state._s.game.reshuffles > 0
        for player in range(players):
            other = state.resample_from_infostate(player, random.Random(rng.random()).random)
            seed = rng.random()
            first = state.resample_from_infostate(player, random.Random(seed).random)
            second = other.resample_from_infostate(player, random.Random(seed).random)
            assert first.history() == second.history()
            assert first.serialize() == second.serialize()
            moved += first.history() != state.history()[: len(first.history())]
    assert moved > len(states)  # the samples' histories deal other cards than the real one
    if name != "levant":  # a Levant round ends before its stock does
        assert reshuffled


def test_a_sample_keeps_the_public_record_of_other_hands() -> None:
    """A card another player took from the pile and has not played since is in its hand
    in every sample, and after a reshuffle the stock holds only cards of the old pile."""
    _, players, states = _resampled_states("classic", range(4), 29)
    rng = random.Random(5)
    checked = renewals = 0
    for state in states:
        if state._s.game is None:
            continue
        kept, renewed = _public_record(state)
        renewals += renewed is not None
        for player in range(players):
            sample = state.resample_from_infostate(player, random.Random(rng.random()).random)
            for seat in range(players):
                assert not kept[seat] - Counter(sample._s.game.hand(seat))
                checked += bool(kept[seat]) and seat != player
            if renewed is not None:
                assert not Counter(sample._s.game.stock) - renewed
    assert renewals
    assert checked > 10


def _public_record(state: Any) -> tuple[list[Counter[Any]], Counter[Any] | None]:
    """What the round replayed shows of the hidden cards: for each seat the cards it was
    seen to take (from the pile or the table) and not seen to give up since, as far as
    faces tell (the public moves' changes to its hand, all but draws from the stock,
    added up); and the stock made by the last reshuffle, if any."""
    players = state.get_game().num_players()
    kept: list[Counter[Any]] = [Counter() for _ in range(players)]
    renewed = None
    replay = state.get_game().new_initial_state()
    for action in state.history():
        before = replay._s.game
        mover = replay.current_player()
        replay.apply_action(action)
        after = replay._s.game
        if before is None or after is before:
            continue
        if after.reshuffles != before.reshuffles:
            renewed = Counter(after.stock)
        if mover < 0 or isinstance(after.history[-1], hr.DrawStock):
            continue
        old, new = Counter(before.hand(mover)), Counter(after.hand(mover))
        kept[mover] -= old - new
        kept[mover].update(new - old)
    return kept, renewed


@pytest.mark.parametrize("name", ["classic", "romme"])
def test_openspiel_random_sim_test_with_serialization(name: str) -> None:
    game = load_game(name, players=players_of(name))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_deserialize_state_replays_the_history_and_never_loads_the_pickle(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``game.deserialize_state`` rebuilds a state from the history its text names.
    OpenSpiel's format adds the state's data as a pickle, which a string from elsewhere
    could fill with code (here, a print) or with another state's data: neither is loaded.
    A history the rules refuse, a move count that does not match the history, or text that
    is not a serialized state is refused with a library error."""
    game = load_game("classic", players=2)
    state = play_randomly(game.new_initial_state(), random.Random(0), 40)[-1]
    text = state.serialize()
    history, moves, _ = text.split("\n", 2)
    _same_state(game.deserialize_state(text), state, 2)
    # the text is the state's history and move count alone: the same for the same state
    assert text == f"{history}\n{moves}\n" and len(text) < 1000
    assert game.deserialize_state(text).serialize() == text == state.clone().serialize()

    class Loud:
        def __reduce__(self) -> tuple[Any, ...]:
            return (print, ("the pickle ran",))

    payload = base64.b64encode(pickle.dumps({"_s": Loud()})).decode()
    rebuilt = game.deserialize_state(f"{history}\n{moves}\n__dict__={payload}")
    _same_state(rebuilt, state, 2)
    _same_state(game.deserialize_state(f"{history}\n{moves}\n__dict__={payload[:20]}"), state, 2)
    assert "the pickle ran" not in capsys.readouterr().out
    shorter = history.rsplit(",", 1)[0]
    for bad in (f"{shorter}\n{moves}\n", f"{history},0:9999\n{moves}\n", "moves", "history=x:y"):
        with pytest.raises(hr.HandRummyError):
            game.deserialize_state(bad)


@pytest.mark.parametrize("player", [-1, 2, 1.5, "0", None, True])
def test_resample_refuses_a_player_who_is_not_at_the_table(player: Any) -> None:
    game = load_game("classic", players=2)
    for steps in (5, 60):  # during the deal, and in play
        state = play_randomly(game.new_initial_state(), random.Random(0), steps)[-1]
        with pytest.raises(hr.InvalidStateError):
            state.resample_from_infostate(player, random.Random(1).random)


@pytest.mark.parametrize("drawn", [float("nan"), float("inf"), -0.5, None, "x"])
def test_resample_refuses_a_sampler_that_gives_no_probability(drawn: Any) -> None:
    game = load_game("classic", players=2)
    state = play_randomly(game.new_initial_state(), random.Random(0), 60)[-1]
    with pytest.raises(hr.InvalidStateError, match="sampler"):
        state.resample_from_infostate(0, lambda: drawn)


@pytest.mark.parametrize("sampler", [None, 0.5, "random"])
def test_resample_refuses_a_sampler_that_is_no_function(sampler: Any) -> None:
    """None raised TypeError ('NoneType' object is not callable) from inside the sampling."""
    game = load_game("classic", players=2)
    state = play_randomly(game.new_initial_state(), random.Random(0), 60)[-1]
    with pytest.raises(hr.InvalidStateError, match=r"the sampler must be a function .* not "):
        state.resample_from_infostate(0, sampler)


def test_load_game_checks_the_variants_and_a_count_openspiel_cannot_hold() -> None:
    """variants=None raised TypeError, and 2**31 players pybind11's RuntimeError."""
    with pytest.raises(hr.InvalidStateError, match=r"the variants .* must be str or Iterable"):
        load_game("levant", 4, None)  # type: ignore[arg-type]
    for players in (2**31, -(2**31) - 1, 10**5000):
        with pytest.raises(hr.InvalidStateError, match=r"no ruleset seats .* players"):
            load_game("levant", players)
    with pytest.raises(hr.InvalidStateError, match="levant is for 2 to 4 players"):
        load_game("levant", 2**31 - 1)


def test_the_observation_string_names_what_a_renewed_stock_can_hold() -> None:
    # the words list every section of the tensor, the section "renewed" too
    game = load_game("gulf", players=4)
    rng, state = random.Random(0), game.new_initial_state()
    while state.is_chance_node() or state._s.game is None or not state._s.game.renewal:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for player in range(4):
        view = state.view(player)
        left = sorted((Counter(view.renewal) - Counter(view.drawn)).elements())
        assert f"; renewed {hr.format_cards(left)};" in state.observation_string(player)


def test_the_observation_string_names_the_cards_a_seat_is_known_to_hold() -> None:
    # the section "shown" of the tensor: a card taken from the pile is seen by all
    game = load_game("levant", players=3)
    rng, state = random.Random(2), game.new_initial_state()
    while state.is_chance_node() or state._s.game is None or not any(state.view(0).shown):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    taker = next(s for s, cards in enumerate(state.view(0).shown) if cards)
    for player in range(3):
        shown = state.view(player).shown
        assert shown[taker]
        words = [hr.format_cards(cards) or "-" for cards in shown]
        assert f"; shown {' | '.join(words)};" in state.observation_string(player)
