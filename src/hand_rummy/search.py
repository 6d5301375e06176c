"""A search bot: determinised Monte Carlo search over rounds sampled from a player's view.

:class:`SearchBot` sees what every bot sees, a :class:`~hand_rummy.round.PlayerView`,
and nothing else. At a decision that matters (draw or take the discard, which
lay-down if any, which discard) it

1. lists a few *candidate* actions, pre-filtered by a cheap heuristic: the
   :class:`~hand_rummy.bots.GreedyBot`'s choice and the next best few by the
   same measures (the discard scores of :func:`~hand_rummy.bots.discard_scores`,
   the size and value of a lay-down, and not laying down at all); its
   GreedyBot has ``flat_discards``: a player who would pay a flat penalty
   whatever it holds (:func:`~hand_rummy.bots.pays_flat`) ranks its discards
   without the cards' penalty values;
2. deals the cards it cannot see at random (:meth:`PlayerView.sample
   <hand_rummy.round.PlayerView.sample>`), one *world* per iteration;
3. in each world plays every candidate, then plays the round out with
   GreedyBots in every seat (its own included, with ``flat_discards`` as
   above), the same bots with the same
   seeds for every candidate, so the candidates are compared on the same
   cards and the same later choices (common random numbers);
4. plays the first candidate, the greedy choice, unless another one's mean round
   score of its own seat is better by more than ``margin`` standard errors of
   the paired differences, world by world.

Elsewhere (redeal claims, lay-offs, exchanges, forced moves) it plays as the
GreedyBot does. Lower scores are better; rewards are the negated round score
of the bot's seat over :data:`REWARD_SCALE`.

The budget is a number of worlds (``iterations``), a time limit per decision
(``seconds``), or both (whichever ends first). With ``iterations`` alone the bot
is deterministic given its seed and the view: its generator is reseeded at every
decision from the seed and what the view shows. With ``seconds`` the number
of worlds depends on the machine's speed.

>>> from hand_rummy.rules import presets
>>> from hand_rummy.round import Round
>>> game = Round.deal(presets.levant, players=4, seed=5).keep_deal()
>>> bot = SearchBot(iterations=2, seed=1)
>>> bot.choose(game.view(game.turn)) in game.legal_actions()
True
>>> bot.stats.worlds, bot.stats.candidates
(2, 3)
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

import attrs

from hand_rummy.actions import Action, Discard, DrawStock, LayDown, TakeDiscard
from hand_rummy.bots import MAX_ROUND_DECISIONS, Choice, GreedyBot, discard_scores, pays_flat
from hand_rummy.errors import InvalidStateError, expect, expect_seed, number
from hand_rummy.melds import Meld, judge_meld
from hand_rummy.round import Phase, PlayerView, Round
from hand_rummy.scoring import PlayerEnd, RoundEnd, score_round

__all__ = ["REWARD_SCALE", "SearchBot", "SearchStats"]

REWARD_SCALE = 100.0
"""Round-score points per unit of reward (a Levantine unopened hand costs 100)."""

_SEED_SPACE = 2**31


@attrs.frozen
class SearchStats:
    """What the last decision of a :class:`SearchBot` did."""

    candidates: int
    """How many actions were compared (1: no search, the greedy choice)."""
    worlds: int
    """Sampled rounds on which every candidate was played out."""
    rollouts: int
    """Rounds played out, whole sweeps and any sweep cut short by the time limit."""
    seconds: float
    """Time the decision took, by the wall clock."""
    cpu: float
    """Processor time the decision took (this thread's)."""
    means: tuple[float, ...] = ()
    """The mean reward of each candidate (higher is better), in candidate order."""


class SearchBot:
    """Determinised Monte Carlo search at the root, GreedyBot rollouts (:mod:`~hand_rummy.search`).

    ``iterations`` is the number of sampled worlds per searched decision,
    ``seconds`` a time limit per decision, by the wall clock or, with
    ``clock="cpu"``, in this thread's processor time; give either or both (by
    default 16 worlds). The time limit counts from the start of the decision; a play-out is
    started only while one of the average length so far still fits in it, and a sweep of
    the candidates cut short is not counted.
    ``horizon`` cuts the play-outs short (see :func:`rollout`); ``margin`` is
    how many standard errors a candidate's paired gain over the greedy choice
    must reach for the bot to play it. ``candidates`` caps the actions compared at one decision (at
    least 2). ``seed`` seeds the samples and the rollout bots. ``stats`` holds
    the figures of the last decision.
    """

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        *,
        seed: int = 0,
        candidates: int = 3,
        horizon: int | None = None,
        margin: float = 1.0,
        clock: str = "wall",
    ) -> None:
        if iterations is not None:
            expect(iterations, int, "the number of iterations")
            if iterations < 1:
                raise InvalidStateError(
                    f"the number of iterations must be at least 1, not {number(iterations)}"
                )
        if seconds is not None:
            expect(seconds, (int, float), "the time budget")
            # compared with the largest float: float() of a larger int overflows
            if not 0 < seconds <= sys.float_info.max:
                raise InvalidStateError(
                    f"the time budget must be a positive number of seconds, not {number(seconds)}"
                )
        expect_seed(seed)
        expect(candidates, int, "the number of candidates")
        if candidates < 2:
            raise InvalidStateError(
                f"a search needs at least 2 candidates, not {number(candidates)}"
            )
        if horizon is not None:
            expect(horizon, int, "the horizon")
            if horizon < 1:
                raise InvalidStateError(
                    f"the horizon must be at least 1 turn, not {number(horizon)}"
                )
        expect(margin, (int, float), "the margin")
        if not 0 <= margin <= sys.float_info.max:  # as the time budget is compared
            raise InvalidStateError(
                f"the margin must be a finite number at least 0, not {number(margin)}"
            )
        if clock not in {"wall", "cpu"}:
            raise InvalidStateError(f"the clock is 'wall' or 'cpu', not {clock!r}")
        if iterations is None and seconds is None:
            iterations = 16
        self.iterations = iterations
        self.seconds = None if seconds is None else float(seconds)
        self.seed = seed
        self.candidates = candidates
        self.horizon = horizon
        self.margin = float(margin)
        self.clock = clock
        self.stats = SearchStats(candidates=0, worlds=0, rollouts=0, seconds=0.0, cpu=0.0)

    def __repr__(self) -> str:
        return (
            f"SearchBot(iterations={self.iterations}, seconds={self.seconds}, "
            f"seed={self.seed}, candidates={self.candidates}, horizon={self.horizon}, "
            f"margin={self.margin}, clock={self.clock!r})"
        )

    # --- choosing ---------------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        """The candidate with the best mean round score over sampled worlds."""
        expect(view, PlayerView, "the view")
        start, cpu_start = time.perf_counter(), time.thread_time()
        clock = time.thread_time if self.clock == "cpu" else time.perf_counter
        # the limit counts from the start of the decision, the greedy choice included
        deadline = None if self.seconds is None else clock() + self.seconds
        actions = list(view.legal_actions())
        if not actions:
            why = "the round is over" if view.phase is Phase.OVER else "it is not its move"
            raise InvalidStateError(f"seat {view.seat} has no legal action: {why}")
        rng = random.Random(_decision_key(self.seed, view))
        greedy = GreedyBot(rng.randrange(_SEED_SPACE), flat_discards=True).choose(view)
        pool = candidates(view, actions, greedy, self.candidates)
        if len(pool) < 2:
            self.stats = SearchStats(
                1, 0, 0, time.perf_counter() - start, time.thread_time() - cpu_start
            )
            return greedy
        table: list[list[float]] = []
        worlds = rollouts = 0
        spent = 0.0  # clock time of the play-outs so far
        while self.iterations is None or worlds < self.iterations:
            world = view.sample(rng)
            seeds = [rng.randrange(_SEED_SPACE) for _ in range(view.players)]
            rewards: list[float] = []
            for action in pool:
                now = clock()
                # start a play-out only if one of the average length still fits
                if deadline is not None and now + (spent / rollouts if rollouts else 0) >= deadline:
                    break
                rewards.append(rollout(world.apply(action), view.seat, seeds, self.horizon))
                rollouts += 1
                spent += clock() - now
            if len(rewards) < len(pool):
                break  # out of time in mid-sweep: the part sweep would compare unfairly
            worlds += 1
            table.append(rewards)
        elapsed, cpu = time.perf_counter() - start, time.thread_time() - cpu_start
        if worlds == 0:
            self.stats = SearchStats(len(pool), 0, rollouts, elapsed, cpu)
            return greedy
        means = tuple(sum(row[i] for row in table) / worlds for i in range(len(pool)))
        self.stats = SearchStats(len(pool), worlds, rollouts, elapsed, cpu, means)
        return pool[self._pick(table)]

    def _pick(self, table: Sequence[Sequence[float]]) -> int:
        """The candidate to play: the best one that beats the greedy choice (index 0) clearly.

        Each candidate's gain over the greedy choice is paired world by world;
        a candidate is eligible when its mean gain exceeds ``margin`` standard
        errors of those paired gains (any positive gain when ``margin`` is 0).
        """
        worlds = len(table)
        best, best_gain = 0, 0.0
        for i in range(1, len(table[0])):
            gains = [row[i] - row[0] for row in table]
            mean = sum(gains) / worlds
            spread = (
                math.sqrt(sum((g - mean) ** 2 for g in gains) / (worlds - 1) / worlds)
                if worlds > 1
                else 0.0
            )
            if mean > self.margin * spread and mean > best_gain:
                best, best_gain = i, mean
        return best


def _decision_key(seed: int, view: PlayerView) -> str:
    """A text that seeds one decision: the bot's seed and what the view shows of the moment."""
    return f"{seed}|{view.seat}|{len(view.history)}|{view.hand}|{view.discards[-3:]}"


def candidates(
    view: PlayerView, actions: Sequence[Action], greedy: Action, limit: int
) -> list[Action]:
    """The actions worth comparing, ``greedy`` first, at most ``limit``; one means no search.

    * drawing: draw from the stock and take the discard, when both are legal;
    * when the greedy choice is a discard: the ``limit`` best discards by
      :func:`~hand_rummy.bots.discard_scores` (never a wild card unless the
      greedy bot would), announced when that is allowed; without the cards'
      penalty values (``flat``) when the player
      :func:`~hand_rummy.bots.pays_flat`;
    * when it is a lay-down: the greedy one, the others that lay the most
      cards and points, and the best discard instead (holding the melds back);
    * anything else (redeal claims, lay-offs, exchanges): the greedy choice alone.
    """
    if view.phase is Phase.DRAW:
        drawing = [a for a in actions if isinstance(a, (DrawStock, TakeDiscard))]
        return [greedy, *(a for a in drawing if a != greedy)]
    if view.phase is not Phase.PLAY:
        return [greedy]
    rules = view.ruleset_rules()
    discards = [a for a in actions if isinstance(a, Discard)]
    if isinstance(greedy, Discard):
        return [greedy, *_best_discards(view, discards, greedy, limit - 1)]
    if isinstance(greedy, LayDown):
        values: dict[Meld, int] = {}

        def points(meld: Meld) -> int:
            if meld not in values:
                values[meld] = judge_meld(meld, rules).points or 0
            return values[meld]

        def value(action: LayDown) -> tuple[int, int]:
            return sum(len(m) for m in action.melds), sum(points(m) for m in action.melds)

        others = sorted(
            (a for a in actions if isinstance(a, LayDown) and a != greedy), key=value, reverse=True
        )
        held_back = _best_discards(view, discards, None, 1)
        room = max(limit - 1 - len(held_back), 0)
        return [greedy, *others[:room], *held_back]
    return [greedy]


def _best_discards(
    view: PlayerView, discards: Sequence[Discard], greedy: Discard | None, count: int
) -> list[Action]:
    """Up to ``count`` discards other than ``greedy``, best first, one per card."""
    if count <= 0 or not discards:
        return []
    rules = view.ruleset_rules()
    scores = discard_scores(view.hand, rules, flat=pays_flat(view))
    allow_wild = greedy is not None and rules.is_wild(greedy.card)
    by_card: dict[object, Discard] = {}
    for action in discards:
        if greedy is not None and action.card == greedy.card:
            continue
        if (
            rules.is_wild(action.card)
            and not allow_wild
            and any(not rules.is_wild(a.card) for a in discards)
        ):
            continue
        held = by_card.get(action.card)
        if held is None or (action.announce and not held.announce):
            by_card[action.card] = action
    ranked = sorted(by_card.values(), key=lambda a: (-scores[a.card], str(a.card)))
    return list(ranked[:count])


def rollout(
    game: Round,
    seat: int,
    seeds: Sequence[int],
    horizon: int | None = None,
    *,
    most: int = MAX_ROUND_DECISIONS,
) -> float:
    """Play ``game`` on with GreedyBots seeded ``seeds``; ``seat``'s reward (higher is better).

    ``seat`` plays as the SearchBot's default does (``flat_discards``), the others as plain
    GreedyBots. The round is played to its end, or with a ``horizon`` until ``seat`` is
    about to draw for the ``horizon``-th time, and then :func:`estimate` scores
    it as if another player went out there. So is a play-out still going after ``most``
    moves: where the rules renew the stock, bots may never end a round, and a time limit
    is only looked at between play-outs.
    """
    expect(most, int, "the most moves of a play-out")
    if most < 1:
        raise InvalidStateError(f"a play-out needs at least 1 move, not {number(most)}")
    bots = [GreedyBot(s, flat_discards=i == seat) for i, s in enumerate(seeds)]
    turns = moves = 0
    while not game.is_over:
        if game.turn == seat and game.phase is Phase.DRAW and horizon is not None:
            turns += 1
            if turns >= horizon:
                return -estimate(game, seat) / REWARD_SCALE
        if moves >= most:
            return -estimate(game, seat) / REWARD_SCALE
        moves += 1
        # the world is a sample, so its bots may be asked through the round itself
        game = game.apply(bots[game.turn].decide(Choice.of_round(game)))
    outcome = game.outcome
    assert outcome is not None
    if not outcome.score.scored:
        return 0.0
    return -outcome.score.scores[seat] / REWARD_SCALE


def estimate(game: Round, seat: int) -> float:
    """What ``seat`` would score if another player went out now, its best melds laid first
    (or, if those melds take every card, what it would score going out itself).

    The melds are those of :meth:`Round.best_opening`; they count as laid only
    when the player has opened or they reach the opening bar. The score is
    the ruleset's own (:func:`~hand_rummy.scoring.score_round`), so a player
    who has not opened pays what the rules make such a player pay. The others
    hold what they hold now.
    """
    hand = Counter(game.hand(seat))
    points, melds = game.best_opening(seat)
    required = game.required_opening(seat)
    opened = game.opened[seat] or required is None or points >= required
    if opened:
        for meld in melds:
            hand.subtract(meld.cards)
    left = tuple(sorted(hand.elements()))
    winner = (seat + 1) % game.players if left else seat
    players = tuple(
        PlayerEnd(left, opened)
        if i == seat
        else PlayerEnd((), True)
        if i == winner
        else PlayerEnd(game.hand(i), game.opened[i], game.hand_demoted(i))
        for i in range(game.players)
    )
    return float(score_round(RoundEnd(players, went_out=winner), game.rules).scores[seat])
