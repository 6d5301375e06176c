"""The PettingZoo environment: PettingZoo's API and seed tests, lay-downs, rewards, bad input."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

import hand_rummy as hr

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from hand_rummy import encoding  # noqa: E402
from hand_rummy.envs import env, play_masked_random, raw_env  # noqa: E402
from hand_rummy.envs.aec import MAX_STEPS, EpisodeOverError, HandRummyEnv  # noqa: E402
from hand_rummy.envs.rewards import round_rewards  # noqa: E402

PRESETS = sorted(hr.PRESETS)

# PettingZoo's checks warn about dict observations ("{observation, action_mask}") unless the
# environment's name is on their list of PettingZoo's own dict-observation environments, and
# about an all-zero mask, which is what an agent whose round is over gets. The suite turns
# warnings into errors, so these two (and only these) are let through for the API tests.
PETTINGZOO_LIST_WARNINGS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Action mask numpy array is all zeros:UserWarning",
]


def with_warnings(test: Any) -> Any:
    for rule in PETTINGZOO_LIST_WARNINGS:
        test = pytest.mark.filterwarnings(rule)(test)
    return test


def players_of(name: str) -> int:
    return 4 if hr.build(name).players.allows(4) else hr.build(name).players.maximum


@pytest.mark.parametrize("name", ["levant", "romme"])
def test_play_masked_random_plays_a_round_to_its_end(name: str) -> None:
    ours, again = raw_env(name, players=3), raw_env(name, players=3)
    ours.reset(seed=4)
    again.reset(seed=4)
    steps = play_masked_random(ours, random.Random(9))
    assert play_masked_random(again, random.Random(9)) == steps > 0
    assert ours.game is not None and again.game is not None and ours.game.is_over
    assert ours.game.history == again.game.history  # the same generator, the same round
    assert not ours.agents
    moves = sum(len(a.melds) + 1 if isinstance(a, hr.LayDown) else 1 for a in ours.game.history)
    assert steps == moves  # a lay-down takes a step per meld and one to submit


@with_warnings
@pytest.mark.parametrize("name", PRESETS)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    players = players_of(name)
    api_test(env(name, players=players), num_cycles=300)
    seed_test(lambda: env(name, players=players), num_cycles=300)


@with_warnings
def test_api_test_of_a_whole_match() -> None:
    api_test(
        env("classic", players=2, episode="match", match_length=2, custom_length=True),
        num_cycles=400,
    )


def test_a_lay_down_keeps_the_same_agent_selected() -> None:
    """Each meld id of a lay-down is a step of the agent who lays it; submit ends it."""
    table = raw_env("classic", players=4)
    rng = random.Random(2)
    seen = 0
    for round_number in range(40):
        table.reset(seed=round_number)
        while table.agents and seen < 3:
            agent = table.agent_selection
            if table.terminations[agent]:
                table.step(None)
                continue
            decision = table.decision
            assert decision is not None
            ids = decision.legal_ids()
            melds = [i for i in ids if table.space.layout.block_of(i).name in ("run", "set")]
            choice = rng.choice(melds) if melds and rng.random() < 0.9 else rng.choice(ids)
            before = table.game
            table.step(choice)
            if choice in melds:
                seen += not decision.pending
                assert table.agent_selection == agent
                assert table.game is before  # nothing is played until submit
                assert table.decision is not None and table.decision.pending[-1] == choice
                array = table.observe(agent)["observation"]
                pending = table.layout.section("pending")
                assert array[pending.start] == 1
                others = [a for a in table.agents if a != agent]
                assert all(table.observe(a)["action_mask"].sum() == 0 for a in others)
        if seen >= 3:
            break
    assert seen >= 3


def test_rewards_are_minus_the_round_score_over_the_scale() -> None:
    table = raw_env("levant", players=3, reward_scale=10)
    table.reset(seed=5)
    returns = dict.fromkeys(table.agents, 0.0)
    rng = random.Random(5)
    for agent in table.agent_iter():
        observation, reward, terminated, _, _ = table.last()
        returns[agent] += reward
        if terminated:
            table.step(None)
            continue
        ids = np.flatnonzero(observation["action_mask"])
        table.step(int(ids[rng.randrange(len(ids))]))
    game = table.game
    assert game is not None and game.is_over and game.outcome is not None
    scores = game.outcome.score.scores
    assert [returns[f"player_{s}"] for s in range(3)] == [-v / 10 for v in scores]


def test_team_play_gives_each_seat_its_team_score() -> None:
    table = raw_env("partnership", players=4)
    table.reset(seed=1)
    play_masked_random(table, random.Random(1))
    game = table.game
    assert game is not None and game.outcome is not None
    rewards = round_rewards(game)
    assert rewards[0] == rewards[2] and rewards[1] == rewards[3]
    score = game.outcome.score
    team = score.team_scores[0] if score.team_scores else score.scores[0] + score.scores[2]
    assert rewards[0] == -team


def test_a_match_runs_to_its_end_and_the_returns_are_the_totals() -> None:
    table = raw_env(
        "classic", players=2, episode="match", match_length=2, custom_length=True, reward_scale=1
    )
    table.reset(seed=9)
    returns = dict.fromkeys(table.agents, 0.0)
    rng = random.Random(9)
    for agent in table.agent_iter():
        observation, reward, terminated, _, _ = table.last()
        returns[agent] += reward
        if terminated:
            table.step(None)
            continue
        ids = np.flatnonzero(observation["action_mask"])
        table.step(int(ids[rng.randrange(len(ids))]))
    match = table.match
    assert match is not None and match.is_over and len(match.rounds) >= 2
    assert [returns["player_0"], returns["player_1"]] == [-t for t in match.totals]


def test_seeding_repeats_and_varies_the_deal() -> None:
    first, second = raw_env("romme", players=3), raw_env("romme", players=3)
    first.reset(seed=4)
    second.reset(seed=4)
    assert first.game == second.game
    second.reset()
    assert second.game != first.game
    first.reset()
    assert first.game == second.game  # unseeded resets deal on from the same generator


def test_render_ansi_shows_the_view_and_the_pending_melds() -> None:
    table = raw_env("classic", players=2, render_mode="ansi")
    table.reset(seed=0)
    text = table.render()
    assert isinstance(text, str) and "Your hand:" in text
    assert text.startswith(f"{table.agent_selection} (seat ")
    quiet = raw_env("classic", players=2)
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


@pytest.mark.parametrize("name", ["levant", "classic"])
def test_pettingzoo_render_test(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's own render test: it builds the environment with ``render_mode="human"``
    first, then renders in every mode the metadata names ("ansi": text; "human": None)."""
    render_test(lambda render_mode: env(name, players=2, render_mode=render_mode))
    assert "to move" in capsys.readouterr().out  # "human" printed the tables


def test_render_human_prints_what_ansi_returns(capsys: pytest.CaptureFixture[str]) -> None:
    shown, told = (raw_env("romme", players=3, render_mode=m) for m in ("human", "ansi"))
    shown.reset(seed=5)
    told.reset(seed=5)
    assert shown.render() is None
    text = told.render()
    assert isinstance(text, str) and "Your hand:" in text
    assert capsys.readouterr().out == text + "\n"


def test_an_id_outside_the_mask_is_refused_and_nothing_changes() -> None:
    table = raw_env("levant", players=4)
    table.reset(seed=3)
    agent, game = table.agent_selection, table.game
    mask = table.observe(agent)["action_mask"].copy()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(encoding.IdNotLegalError, match="not legal"):
        table.step(illegal)
    with pytest.raises(encoding.IdNotLegalError, match="no action id"):
        table.step(table.space.size)
    with pytest.raises(encoding.IdNotLegalError, match="integer id"):
        table.step("draw")
    with pytest.raises(encoding.IdNotLegalError, match="integer id"):
        table.step(True)
    assert table.agent_selection == agent and table.game is game
    assert np.array_equal(table.observe(agent)["action_mask"], mask)
    table.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are ids too


def test_bad_setup_and_steps_after_the_end_are_refused() -> None:
    with pytest.raises(hr.UnknownRulesError):
        raw_env("hearts")
    with pytest.raises(hr.InvalidStateError, match="not 7"):
        raw_env("levant", players=7)
    with pytest.raises(hr.InvalidStateError, match="episode"):
        raw_env("levant", episode="season")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match="render_mode"):
        raw_env("levant", render_mode="rgb_array")
    with pytest.raises(hr.InvalidStateError, match="variants"):
        HandRummyEnv(hr.rulesets.levant, 4, ["opening_71"])
    table = raw_env("classic", players=2)
    with pytest.raises(EpisodeOverError):
        table.step(0)
    table.reset(seed=1)
    play_masked_random(table, random.Random(1))
    assert not table.agents
    with pytest.raises(EpisodeOverError, match="reset"):
        table.step(0)


def test_a_bad_match_length_is_refused_at_construction() -> None:
    """Not at the first reset(): 004 plays 3, 5, 7 or 9 rounds, and no match lasts 0."""
    with pytest.raises(hr.InvalidStateError) as refused:
        env("classic", players=2, episode="match", match_length=0)
    assert str(refused.value) == "a match needs a length of at least 1, not 0"
    with pytest.raises(hr.InvalidStateError) as refused:
        raw_env("classic", players=2, episode="match", match_length=4)
    assert str(refused.value) == (
        "classic matches last 3, 5, 7 or 9 rounds, not 4; "
        "pass custom_length=True for another length"
    )
    table = raw_env("classic", players=2, episode="match", match_length=4, custom_length=True)
    table.reset(seed=1)
    assert table.match is not None and table.match.length == 4


@pytest.mark.parametrize(
    ("seed", "message"),
    [(-1, "the seed must be non-negative, not -1"), ("1", "the seed must be int, not str")],
)
def test_a_bad_seed_is_refused_and_changes_nothing(seed: Any, message: str) -> None:
    """Gymnasium seeds from 0 up; the refusal is the library's own error."""
    table = raw_env("classic", players=2)
    table.reset(seed=1)
    game, agent = table.game, table.agent_selection
    with pytest.raises(hr.InvalidStateError) as refused:
        table.reset(seed=seed)
    assert str(refused.value) == message
    assert table.game is game and table.agent_selection == agent


def test_the_package_imports_without_its_extra_and_names_it() -> None:
    code = (
        "import sys\n"
        "sys.modules['pettingzoo'] = None\n"
        "import hand_rummy.envs as envs\n"
        "try:\n"
        "    envs.env('levant')\n"
        "except envs.MissingExtraError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "hand-rummy[rl]" in out and "pettingzoo" in out


@pytest.mark.parametrize("table_slots", [None, 1])
def test_an_id_for_an_agent_whose_round_has_ended_is_refused(table_slots: int | None) -> None:
    """Once the round is over (or the episode cut short by a table beyond the slots), each
    agent's only step is None, which removes it. An id was refused by PettingZoo's bare
    ValueError; now by the library's IdNotLegalError (a ValueError too), and nothing
    changes."""
    table = raw_env("classic", players=2, table_slots=table_slots)
    table.reset(seed=3)
    rng = random.Random(3)
    while True:
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            break
        table.step(rng.choice([i for i, bit in enumerate(observation["action_mask"]) if bit]))
    assert table.game is not None
    history, agents = table.game.history, list(table.agents)
    for action in (0, 5, np.int64(0)):
        with pytest.raises(encoding.IdNotLegalError, match="only action is None"):
            table.step(action)
    assert table.game.history == history and table.agents == agents
    table.step(None)
    assert len(table.agents) == len(agents) - 1


@with_warnings
def test_a_table_beyond_the_slots_cuts_the_episode_short() -> None:
    # with 2 table slots the third meld on the table has no ids: the move that lays it is
    # legal and is played, and then the episode ends truncated, never with a wrong id or a
    # round the environment can no longer step
    table = raw_env("romme", players=4, table_slots=2)
    table.reset(seed=0)
    steps = play_masked_random(table, random.Random(0))
    assert table.game is not None and not table.game.is_over
    assert len(table.game.table) > 2
    assert steps > 0 and not table.agents  # each agent stepped None and left
    api_test(env("romme", players=4, table_slots=2), num_cycles=300)


def test_a_truncated_episode_renders_and_says_why() -> None:
    # render() drew the end of a round only, and an episode cut short has none
    table = raw_env("romme", players=4, table_slots=2, render_mode="ansi")
    table.reset(seed=0)
    rng = random.Random(0)
    while not any(table.truncations.values()):
        ids = np.flatnonzero(table.observe(table.agent_selection)["action_mask"])
        table.step(int(ids[rng.randrange(len(ids))]))
    assert table.game is not None
    text = table.render()
    assert text is not None
    melds = len(table.game.table)
    assert text.startswith(
        f"Episode truncated: the table holds {melds} melds; this action space has 2 table slots"
    )
    assert f"seat {table.game.turn}) to move" in text


def test_the_agents_see_the_last_position_that_fits_and_why_the_episode_ended() -> None:
    from hand_rummy.observation import observe  # noqa: PLC0415 (numpy is checked above)

    table = raw_env("romme", players=4, table_slots=2)
    table.reset(seed=0)
    rng = random.Random(0)
    before = table.game
    while not any(table.truncations.values()):
        ids = np.flatnonzero(table.observe(table.agent_selection)["action_mask"])
        before = table.game
        table.step(int(ids[rng.randrange(len(ids))]))
    assert table.game is not None and before is not None and not table.game.is_over
    melds = len(table.game.table)
    assert melds > 2 >= len(before.table)
    assert table.agents == table.possible_agents
    for seat, agent in enumerate(table.agents):
        assert table.truncations[agent] and not table.terminations[agent]
        assert table.infos[agent]["truncated"] == (
            f"the table holds {melds} melds; this action space has 2 table slots"
        )
        seen = table.observe(agent)
        assert (seen["observation"] == observe(before.view(seat), table.layout)).all()
        assert not seen["action_mask"].any()
        assert table.observation_space(agent).contains(seen)


def test_a_match_episode_shows_each_agent_the_standing() -> None:
    # the totals and rounds finished are public at the table; in a match they matter to every
    # choice, so the observation carries them (a total below zero, as a Levant winner's -30,
    # in its own section, since no number of the array is negative)
    table = raw_env("levant", players=3, episode="match", match_length=3, custom_length=True)
    layout = table.layout
    table.reset(seed=5)
    rng = random.Random(5)
    checked = set()
    while table.agents:
        agent = table.agent_selection
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        match = table.match
        assert match is not None
        seat = table.possible_agents.index(agent)
        array = observation["observation"]
        rounds = layout.section("match_rounds")
        assert array[rounds.start] == len(match.rounds)
        for name, sign in (("match_totals", 1), ("match_credits", -1)):
            part = array[layout.section(name).start : layout.section(name).stop]
            for s, total in enumerate(match.totals):
                assert part[(s - seat) % 3] == max(sign * total, 0)
        if any(match.totals):
            checked.add("totals")
        if any(total < 0 for total in match.totals):
            checked.add("credits")
        assert table.observation_space(agent).contains(observation)
        ids = np.flatnonzero(observation["action_mask"])
        table.step(int(ids[rng.randrange(len(ids))]))
    assert checked == {"totals", "credits"}
    # a round on its own shows no standing
    alone = raw_env("levant", players=3)
    alone.reset(seed=5)
    array = alone.observe(alone.agent_selection)["observation"]
    assert not array[layout.section("match_rounds").start :].any()


def test_bad_arguments_get_the_library_errors() -> None:
    """An audit's list: each of these raised a bare Python error, or was taken."""
    from hand_rummy.observation import observe  # noqa: PLC0415 (numpy is checked above)

    table = raw_env("classic", players=2)
    table.reset(seed=1)
    with pytest.raises(hr.InvalidStateError, match="there is no agent 'player_9'"):
        table.observe("player_9")
    with pytest.raises(hr.InvalidStateError, match="there is no agent"):
        table.action_space("nobody")
    assert table.game is not None
    view = table.game.view(0)
    with pytest.raises(hr.InvalidStateError, match="a match standing needs 2 totals"):
        observe(view, totals=np.array([1, 2, 3]), rounds=1)
    with pytest.raises(hr.InvalidStateError, match="the match totals must be a list"):
        observe(view, totals=7, rounds=1)  # type: ignore[arg-type]
    for scale in (float("inf"), True, float("nan")):
        with pytest.raises(hr.InvalidStateError, match="reward_scale must be a positive number"):
            raw_env("classic", players=2, reward_scale=scale)
    with pytest.raises(hr.InvalidStateError, match="custom_length is for episode='match'"):
        raw_env("classic", players=2, custom_length=True)
    # numpy integers are whole numbers, as the ids are
    numpy_players = raw_env("classic", players=np.int64(2))
    numpy_players.reset(seed=np.int64(3))
    assert numpy_players.players == 2


def test_each_agent_sees_an_ended_rounds_scores_once_in_its_info() -> None:
    """In a match the episode goes on after a round ends: an agent's info holds that round's
    scores and ending until its next step, as its reward is paid once, so an info with
    scores always means a round that ended since the agent last moved."""
    table = raw_env(
        "classic", players=3, episode="match", match_length=3, custom_length=True, reward_scale=1
    )
    table.reset(seed=4)
    rng = random.Random(4)
    seen: dict[str, list[tuple[list[int], str]]] = {agent: [] for agent in table.agents}
    for agent in table.agent_iter():
        observation, _, terminated, _, info = table.last()
        if "round_scores" in info:
            seen[agent].append((list(info["round_scores"]), info["ending"]))
        if terminated:
            table.step(None)
            continue
        ids = np.flatnonzero(observation["action_mask"])
        assert table.match is not None
        before = len(table.match.rounds)
        table.step(int(ids[rng.randrange(len(ids))]))
        # after its own step an agent's info has scores only of a round that step ended
        assert ("round_scores" in table.infos[agent]) == (len(table.match.rounds) > before)
    match = table.match
    assert match is not None and match.is_over and len(match.rounds) >= 3
    rounds = [
        (list(r.outcome.score.scores), r.outcome.ending.value)
        for r in match.rounds
        if r.outcome is not None
    ]
    # every agent saw every ended round once, in order (the last at the end of the episode)
    assert all(views == rounds for views in seen.values())


def _masked_step(table: HandRummyEnv, rng: random.Random) -> None:
    ids = np.flatnonzero(table.observe(table.agent_selection)["action_mask"])
    table.step(int(ids[rng.randrange(len(ids))]))


@pytest.mark.parametrize("episode", ["round", "match"])
def test_max_steps_truncates_an_episode_that_has_not_ended(episode: str) -> None:
    from hand_rummy.observation import observe  # noqa: PLC0415 (numpy is checked above)

    table = raw_env("levant", players=4, episode=episode, max_steps=25, render_mode="ansi")
    table.reset(seed=4)
    rng = random.Random(4)
    for step in range(25):
        # a Levant round between random agents takes about a hundred decisions (and this
        # seed claims no redeal, which would end a single-round episode at once)
        assert not any(table.truncations.values()), step
        _masked_step(table, rng)
    assert table.steps == 25
    assert table.game is not None and not table.game.is_over
    reason = "the episode reached max_steps=25 steps"
    for seat, agent in enumerate(table.agents):
        assert table.truncations[agent] and not table.terminations[agent]
        assert table.infos[agent]["truncated"] == reason
        seen = table.observe(agent)
        assert not seen["action_mask"].any()
        # a match's observation also carries the standing
        match = table.match
        standing = {} if match is None else {"totals": match.totals, "rounds": len(match.rounds)}
        expected = observe(table.game.view(seat), table.layout, **standing)
        assert (seen["observation"] == expected).all()
    text = table.render()
    assert text is not None and text.startswith(f"Episode truncated: {reason}")
    agent = table.agent_selection
    with pytest.raises(encoding.IdNotLegalError, match="truncated"):
        table.step(0)
    assert table.agent_selection == agent and table.steps == 25
    while table.agents:
        table.step(None)
        # the agents leave one by one; the picture still says why the episode ended
        text = table.render()
        assert text is not None and text.startswith(f"Episode truncated: {reason}")


def test_an_episode_that_ends_first_is_terminated_not_truncated() -> None:
    table = raw_env("classic", players=2, max_steps=100_000)
    table.reset(seed=1)
    steps = play_masked_random(table, random.Random(1))
    assert steps == table.steps < 100_000
    assert table.game is not None and table.game.is_over


def test_an_episode_is_bounded_unless_asked_not_to_be() -> None:
    """Agents that never lay down would play a Gulf round for ever."""
    assert raw_env("gulf").max_steps == 100_000 == MAX_STEPS
    assert raw_env("classic", players=2, max_steps=None).max_steps is None


@pytest.mark.parametrize("bad", [0, -3, True, 2.5, "10"])
def test_max_steps_must_be_a_positive_whole_number(bad: object) -> None:
    with pytest.raises(hr.HandRummyError, match="max_steps"):
        raw_env("levant", max_steps=bad)


@with_warnings
def test_pettingzoo_api_test_passes_with_a_step_limit() -> None:
    api_test(env("gulf", players=4, max_steps=40), num_cycles=200)


def test_reward_scale_takes_numpy_floats_and_shows_text_as_text() -> None:
    """np.float32(1) was refused as "not 1.0", and "1" as "not 1": the message hid the type."""
    assert raw_env("classic", players=2, reward_scale=np.float32(2)).reward_scale == 2.0
    with pytest.raises(
        hr.InvalidStateError, match=r"reward_scale must be a positive number, not '1'$"
    ):
        raw_env("classic", players=2, reward_scale="1")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match="not a number of about 401 digits"):
        raw_env("classic", players=2, reward_scale=10**400)


def test_last_before_reset_says_to_reset() -> None:
    """last() before reset() raised AttributeError (no agent selected), where observe()
    raised EpisodeOverError."""
    table = raw_env("classic", players=2)
    with pytest.raises(EpisodeOverError, match=r"call reset\(\) before last\(\)"):
        table.last()
    table.reset(seed=1)
    assert table.last()[1] == 0
