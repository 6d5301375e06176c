"""The PettingZoo AEC environment of a round (or a whole match) of Hand or Rommé.

Needs the ``rl`` extra (``pip install 'hand-rummy[rl]'``); importing this
module without it raises :class:`~hand_rummy.extras.MissingExtraError`.

The agents are ``player_0`` to ``player_{n-1}``, one per seat. An action is
an id of :class:`~hand_rummy.encoding.ActionSpace` (``Discrete(space.size)``);
an observation is a dict of ``observation``, the ``float32`` array of
:func:`~hand_rummy.observation.observe`, and ``action_mask``, an ``int8``
array of the space's size, 1 for each legal id (all zeros for an agent that
is not to move). A lay-down of several melds is chosen meld by meld: each meld
id is one step of the same agent, which stays selected until it submits; the
pending melds are part of its observation. Rewards come at the end of a round:
minus the round's score divided by ``reward_scale`` (scores are penalties, so
lower is better and going out earns a positive reward where the rules give a
negative score); in team play each seat gets its team's score. When a round ends, each
agent's ``info`` holds ``round_scores`` (the round's score of each seat) and ``ending``
(how it ended, the value of a :class:`~hand_rummy.state.Ending`) until that agent's next
step, as its reward is paid once.

>>> from hand_rummy.envs import env
>>> table = env("classic", players=2)
>>> table.reset(seed=3)
>>> table.agent_selection, table.observe("player_0")["observation"].shape
('player_1', (4775,))
"""

from __future__ import annotations

import numbers
import random
import sys
from collections.abc import Iterable
from typing import Any, Literal

from hand_rummy.extras import require

np = require("numpy", "rl", "the PettingZoo environment")
_gymnasium = require("gymnasium", "rl", "the PettingZoo environment")
_pettingzoo = require("pettingzoo", "rl", "the PettingZoo environment")

from gymnasium import spaces  # noqa: E402 (after the checks above)
from gymnasium.utils import seeding  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from hand_rummy.actions import Action  # noqa: E402
from hand_rummy.cli_play import render_view  # noqa: E402
from hand_rummy.encoding import (  # noqa: E402
    ActionSpace,
    Decision,
    IdNotLegalError,
    TableTooLargeError,
)
from hand_rummy.envs.rewards import round_rewards  # noqa: E402
from hand_rummy.errors import (  # noqa: E402
    HandRummyError,
    InvalidStateError,
    expect,
    expect_seed,
    shown,
    whole,
)
from hand_rummy.match import Match  # noqa: E402
from hand_rummy.observation import ObservationLayout, observe  # noqa: E402
from hand_rummy.round import Round  # noqa: E402
from hand_rummy.rules import build  # noqa: E402
from hand_rummy.rules.ruleset import Ruleset  # noqa: E402
from hand_rummy.scoring import seats_refusal  # noqa: E402

__all__ = ["EpisodeOverError", "HandRummyEnv", "play_masked_random", "round_rewards", "wrap"]

Episode = Literal["round", "match"]


def _real(value: object) -> float | None:
    """Another type's real number (numpy's float32) as a float, or ``None`` for none."""
    return float(value) if isinstance(value, numbers.Real) else None


class EpisodeOverError(HandRummyError, RuntimeError):
    """A step with no episode under way: call ``reset()`` first, or again."""


MAX_STEPS = 100_000
"""The steps after which an episode that has not ended is truncated, unless the environment
is made with another ``max_steps`` (the OpenSpiel game's ``max_moves`` has the same default,
counted in actions of one round, chance actions included). Random agents end
a four-player Levantine round in about a hundred steps and a whole match (seven scored
rounds, about 210 dealt) in 10,000 to 30,000."""


class HandRummyEnv(AECEnv):
    """One round (``episode="round"``) or one match (``episode="match"``) as an AEC game.

    ``rules`` is a preset name (with ``variants`` applied by name) or a
    :class:`~hand_rummy.rules.ruleset.Ruleset`. ``reset(seed=...)`` seeds the
    environment's generator, which deals every round and, for a single round,
    draws the dealer; ``reset()`` without a seed deals on from the same
    generator. A match ends by the ruleset's match policy (``match_length``
    sets its length among those the rules allow, and with ``custom_length`` any
    length, as :meth:`~hand_rummy.match.Match.new` takes them); its rewards
    come round by round, so an agent's return is minus its match total over
    ``reward_scale``. A claimed redeal
    ends a single-round episode with every reward 0 (the round does not count);
    in a match the same dealer deals again. With ``table_slots`` fewer than the
    deck could fill, a move that lays more melds on the table than the slots is
    played and the episode is then truncated (``infos[agent]["truncated"]`` says
    why; the agents' last observation is of the position before that move).
    An episode that has taken ``max_steps`` steps (each id played counts, a meld of a
    pending lay-down too; :data:`MAX_STEPS` unless given, ``None`` for no bound) without
    ending is truncated, the reason in each agent's ``infos[agent]["truncated"]``: agents
    that never lay down can play a Gulf or Rommé round, whose stock is renewed, or a
    Levantine match, whose rounds without a winner do not count, for ever.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "name": "hand_rummy_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Ruleset = "levant",
        players: int = 4,
        variants: Iterable[str] = (),
        *,
        episode: Episode = "round",
        match_length: int | None = None,
        custom_length: bool = False,
        reward_scale: float = 100.0,
        render_mode: str | None = None,
        table_slots: int | None = None,
        max_steps: int | None = MAX_STEPS,
    ) -> None:
        super().__init__()
        if isinstance(rules, Ruleset):
            if tuple(variants):
                raise InvalidStateError("variants are applied to a preset name, not a ruleset")
            ruleset = rules
        else:
            expect(rules, str, "the rules")
            ruleset = build(rules, variants)
        players = whole(players, "the number of players")
        if not ruleset.players.allows(players):
            raise InvalidStateError(seats_refusal(players, ruleset))
        if episode not in ("round", "match"):
            raise InvalidStateError(f"episode must be 'round' or 'match', not {episode!r}")
        if (match_length is not None or custom_length) and episode != "match":
            given = "match_length" if match_length is not None else "custom_length"
            raise InvalidStateError(f"{given} is for episode='match'")
        if episode == "match":
            # the match's own checks of its length, run once now so that a bad length is
            # refused here rather than at the first reset()
            Match.new(
                ruleset, players, 0, dealer=0, length=match_length, custom_length=custom_length
            )
        # any real number, numpy's float32 too; an int compared as it is, for float() of a
        # huge one overflows; the value shown by repr, so that "1" shows as text
        asked: object = reward_scale  # any object: numpy's float32 is no float to mypy
        scale = asked if isinstance(asked, (bool, int, float)) else _real(asked)
        if isinstance(scale, bool) or scale is None or not 0 < scale <= sys.float_info.max:
            raise InvalidStateError(f"reward_scale must be a positive number, not {shown(asked)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidStateError(
                f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}"
            )
        if max_steps is not None:
            max_steps = whole(max_steps, "max_steps")
            if max_steps < 1:
                raise InvalidStateError(f"max_steps must be at least 1, not {shown(max_steps)}")
        self.ruleset = ruleset
        self.players = players
        self.max_steps = max_steps
        self.steps = 0
        """The steps taken in this episode (ids played, dead steps apart)."""
        self.episode: Episode = episode
        self.match_length = match_length
        self.custom_length = custom_length
        self.reward_scale = float(scale)  # at most the largest float: no overflow
        self.render_mode = render_mode
        self.space = ActionSpace.of(ruleset, players, table_slots)
        self.layout = ObservationLayout.of(ruleset, table_slots)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=np.inf, shape=self.layout.shape, dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8),
            }
        )
        # one space object per agent, so that seeding one does not seed another
        self.observation_spaces = {
            agent: observation if seat == 0 else _copy_dict_space(observation)
            for seat, agent in enumerate(self.possible_agents)
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.space.size) for agent in self.possible_agents
        }
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self.match: Match | None = None
        self.game: Round | None = None
        self.decision: Decision | None = None
        self._seen: dict[str, dict[str, Any]] = {}
        self._fitting: Round | None = None  # the round before the last move
        self._cut: str = ""  # why the episode was cut short, for render() once agents leave
        self._zeros = np.zeros(self.space.size, dtype=np.int8)

    # --- the spaces ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: object) -> str:
        """``agent``, if it is one of the possible agents."""
        if not isinstance(agent, str) or agent not in self._seat:
            known = ", ".join(self.possible_agents)
            raise InvalidStateError(f"there is no agent {agent!r}; the agents are {known}")
        return agent

    # --- the episode --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode; ``seed`` (a non-negative whole number) seeds the generator anew."""
        if seed is not None:
            seed = whole(seed, "the seed")
            # Gymnasium seeds from 0 up; refused here with the library's own error
            expect_seed(seed)
            if seed < 0:
                raise InvalidStateError(f"the seed must be non-negative, not {seed}")
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        deal_seed = int(self.np_random.integers(2**62))
        if self.episode == "match":
            self.match = Match.new(
                self.ruleset,
                self.players,
                deal_seed,
                length=self.match_length,
                custom_length=self.custom_length,
            )
            assert self.match.current is not None
            self.game = self.match.current
        else:
            self.match = None
            dealer = int(self.np_random.integers(self.players))
            self.game = Round.deal(self.ruleset, self.players, deal_seed, dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.steps = 0
        self._cut = ""
        self._to_move()

    def _to_move(self) -> None:
        """Select the player to move of the current round and start its decision."""
        assert self.game is not None
        self._seen.clear()
        if self.game.is_over:
            self.decision = None
            return
        self.agent_selection = self.possible_agents[self.game.turn]
        try:
            self.decision = self.space.decision_in(self.game)
        except TableTooLargeError as error:
            # a space built with fewer table slots than the deck could fill has no ids for
            # this table: the round goes on without the agents, so the episode is cut short
            self._truncate(str(error))

    def step(self, action: Any) -> None:
        """Play ``action`` (an id in the mask) for ``agent_selection``.

        A meld id of a lay-down leaves the same agent selected, with the meld
        pending; ``submit`` and every other id play the move. An id outside the
        mask raises :class:`~hand_rummy.encoding.IdNotLegalError` and changes
        nothing; so does any id for an agent whose round has ended (terminated or
        truncated), whose only action is ``None`` (PettingZoo's dead step).
        """
        if not self.agents:
            raise EpisodeOverError("the episode is over: call reset() to start another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                # PettingZoo's own check would raise a bare ValueError; this one is both
                ended = "terminated" if self.terminations[agent] else "truncated"
                raise IdNotLegalError(
                    f"{agent} is {ended}: its only action is None, which removes it"
                )
            self._was_dead_step(action)
            return
        assert self.decision is not None
        if isinstance(action, (np.integer, np.ndarray)) and np.ndim(action) == 0:
            action = action.item() if np.asarray(action).dtype.kind in "iu" else action
        if isinstance(action, bool) or not isinstance(action, int):
            raise IdNotLegalError(f"an action is an integer id, not {type(action).__name__}")
        step = self.decision.decode(action)  # refuses an id outside the mask
        self._cumulative_rewards[agent] = 0.0
        # the ended round's facts were this agent's to see once, like its reward
        self.infos[agent] = _without_round_end(self.infos[agent])
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if isinstance(step, Decision):
            self.decision = step
            self._seen.clear()
        else:
            self._play(step)
        self.steps += 1
        if self.max_steps is not None and self.steps >= self.max_steps:
            self._out_of_steps()
        self._accumulate_rewards()

    def _out_of_steps(self) -> None:
        """Truncate the episode at ``max_steps`` unless it has ended: the agents see the
        position as it stands (a pending lay-down is dropped), with an empty mask."""
        if self.decision is None or any(self.terminations.values()):
            return  # over, or cut short already
        self._seen.clear()
        self._truncate(f"the episode reached max_steps={self.max_steps} steps")

    def _truncate(self, reason: str) -> None:
        """Cut the episode short: no decision, every agent truncated, the reason in its
        info (and kept for render(), as the agents leave one by one)."""
        self.decision = None
        self._cut = reason
        self.truncations = dict.fromkeys(self.agents, True)
        for agent in self.agents:
            self.infos[agent] = {**self.infos[agent], "truncated": reason}

    def _play(self, action: Action) -> None:
        assert self.game is not None
        self._fitting = self.game  # its table had slots enough: it had a decision
        finished: Round | None = None
        if self.match is not None:
            before = len(self.match.rounds)
            self.match = self.match.apply(action)
            if len(self.match.rounds) > before:
                finished = self.match.rounds[-1]
            self.game = self.match.current or self.match.rounds[-1]
            over = self.match.is_over
        else:
            self.game = self.game.apply(action)
            finished = self.game if self.game.is_over else None
            over = self.game.is_over
        if finished is not None:
            assert finished.outcome is not None
            rewards = round_rewards(finished, self.reward_scale)
            outcome = finished.outcome
            for agent, reward in zip(self.possible_agents, rewards):
                self.rewards[agent] = reward
                self.infos[agent] = {
                    "round_scores": outcome.score.scores,
                    "ending": outcome.ending.value,
                }
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        self._to_move()

    # --- what the agents see ------------------------------------------------------------

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``, refused before the first ``reset()`` as ``observe()`` is
        (PettingZoo's own would fail on the agent not yet selected)."""
        if self.game is None:
            raise EpisodeOverError("call reset() before last()")
        return super().last(observe)  # type: ignore[no-any-return]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation dict; computed once per step and agent, then kept."""
        seen = self._seen.get(self._agent(agent))
        if seen is not None:
            return seen
        if self.game is None:
            raise EpisodeOverError("call reset() before observing")
        seat = self._seat[agent]
        # in a match, the standing before the round in play (or the one just ended)
        match = self.match
        standing: dict[str, Any] = (
            {} if match is None else {"totals": match.totals, "rounds": len(match.rounds)}
        )
        if self.decision is not None and self.decision.view.seat == seat:
            array = observe(self.decision, self.layout, **standing)
            mask = np.frombuffer(self.decision.action_mask(), dtype=np.int8)
        elif len(self.game.table) > self.layout.table_slots and self._fitting is not None:
            # cut short by a table the layout has no slots for: the last position it shows
            array = observe(self._fitting.view(seat), self.layout, **standing)
            mask = self._zeros.copy()
        else:
            array = observe(self.game.view(seat), self.layout, **standing)
            mask = self._zeros.copy()
        seen = {"observation": array, "action_mask": mask}
        self._seen[agent] = seen
        return seen

    def render(self) -> str | None:
        """The table as the player to move sees it, with the pending melds; at the end, the
        round's scores: returned as text (``render_mode="ansi"``) or printed
        (``render_mode="human"``, which returns ``None``, as PettingZoo's render test
        asks of that mode)."""
        if self.render_mode is None:
            _gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = self._table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _table_text(self) -> str:
        if self.game is None:
            return "no round yet: call reset()"
        totals = self.match.totals if self.match is not None else None
        number = self.match.round_number if self.match is not None else None
        if self.decision is None and self.game.outcome is None:
            # cut short by a table the layout has no slots for: the round as its player to
            # move sees it, and why the agents left it
            seat = self.game.turn
            reason = self._cut or "cut short"
            text = (
                f"Episode truncated: {reason}\n{self.possible_agents[seat]} (seat {seat}) to move\n"
            )
            return text + render_view(self.game.view(seat), totals, None, number, width=100)
        if self.decision is None:
            assert self.game.outcome is not None
            scores = ", ".join(
                f"seat {s}: {v}" for s, v in enumerate(self.game.outcome.score.scores)
            )
            lines = [f"Round over ({self.game.outcome.ending.value}); scores {scores}"]
            if totals is not None:
                lines.append(f"Match totals: {', '.join(map(str, totals))}")
            return "\n".join(lines)
        seat = self.decision.view.seat
        text = f"{self.possible_agents[seat]} (seat {seat}) to move\n" + render_view(
            self.decision.view, totals, None, number, width=100
        )
        if self.decision.pending:
            melds = " + ".join(m.describe() for m in self.decision.pending_melds())
            text += f"\nPending lay-down: {melds}"
        return text

    def close(self) -> None:
        """Nothing to release; here because PettingZoo asks for it beside ``render``."""


def _copy_dict_space(space: Any) -> Any:
    return spaces.Dict(
        {
            key: spaces.Box(low=box.low, high=box.high, shape=box.shape, dtype=box.dtype)
            for key, box in space.spaces.items()
        }
    )


_ROUND_END = ("round_scores", "ending")
"""The keys of an agent's info that describe the round that just ended."""


def _without_round_end(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` without the keys of an ended round (the same dict where it has none)."""
    if not any(key in info for key in _ROUND_END):
        return info
    return {key: value for key, value in info.items() if key not in _ROUND_END}


def play_masked_random(table: Any, rng: random.Random, limit: int = 100_000) -> int:
    """Play ``table`` (reset already) to its end, each agent choosing uniformly among the ids
    of its mask with ``rng``; the number of steps taken (those of finished agents apart).
    ``limit`` bounds the loop, as PettingZoo's ``agent_iter`` does."""
    steps = 0
    for _ in table.agent_iter(limit):
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        ids = np.flatnonzero(observation["action_mask"])
        table.step(int(ids[rng.randrange(len(ids))]))
        steps += 1
    return steps


def wrap(environment: HandRummyEnv) -> Any:
    """``environment`` in PettingZoo's ``OrderEnforcingWrapper`` (what :func:`env` returns)."""
    return wrappers.OrderEnforcingWrapper(environment)
