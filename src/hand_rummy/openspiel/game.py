"""``python_hand_rummy``: one round of Hand or Rommé as a Python OpenSpiel game.

Importing this module registers the game (it needs the ``openspiel`` extra:
``pip install 'hand-rummy[openspiel]'``). Player actions are the ids of
:class:`~hand_rummy.encoding.ActionSpace`, a lay-down chosen meld by meld as in
the encoding (so the same player moves again while it is pending). Chance
actions are card faces (:attr:`Card.index <hand_rummy.cards.Card.index>`,
0 to 52):

* the deal is one chance node per card, each hand in seat order, then the
  indicator (again while it is a card that turns again, which goes back into
  the middle of the stock, where everyone knows it lies), then the up-card; each
  outcome has the probability of its face among the cards not yet dealt;
* every draw from the stock is a chance node over the cards whose place in the
  stock nobody knows, each face with its share of them (a card known to lie on
  top, like a turned-again indicator, is drawn without one); after a reshuffle
  the stock is the old discard pile, whose faces are known, in unknown order.

The engine deals from an explicit order, so the game keeps a real
:class:`~hand_rummy.round.Round` whose stock holds the right cards in some
order, and before each draw puts the face the chance node chose on top (it
swaps two cards of the stock whose places nobody knows, which leaves every
view as it was). Rounds that the engine would deal from a seed and rounds dealt
by these chance nodes have the same distribution.

Returns are minus the round score over 100 at the end of the round (in team
play, the team's score), 0 before.

>>> import pyspiel
>>> game = pyspiel.load_game("python_hand_rummy", {"rules": "classic", "players": 2})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()
(3572, 53, 2)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from hand_rummy.extras import require

np = require("numpy", "openspiel", "the OpenSpiel game")
require("pyspiel", "openspiel", "the OpenSpiel game")

import pyspiel  # noqa: E402 (after the check above)

from hand_rummy.actions import Action, DrawStock  # noqa: E402
from hand_rummy.cards import CARDS, Card, format_cards  # noqa: E402
from hand_rummy.encoding import (  # noqa: E402
    ActionSpace,
    Decision,
    IdNotLegalError,
    NotToMoveError,
)
from hand_rummy.envs.rewards import round_rewards  # noqa: E402
from hand_rummy.errors import InvalidStateError  # noqa: E402
from hand_rummy.observation import ObservationLayout, observe  # noqa: E402
from hand_rummy.round import PlayerView, Round  # noqa: E402
from hand_rummy.rules import build  # noqa: E402
from hand_rummy.rules.ruleset import Ruleset  # noqa: E402
from hand_rummy.scoring import score_bound  # noqa: E402

__all__ = ["GAME_NAME", "HandRummyGame", "HandRummyObserver", "HandRummyState"]

GAME_NAME = "python_hand_rummy"
REWARD_SCALE = 100.0
"""Returns are minus the round score divided by this."""

_FACES = 53

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Hand and Rommé (hand-rummy)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "levant", "variants": "", "players": 4},
)


def _ruleset(params: dict[str, Any]) -> tuple[Ruleset, int]:
    rules = params.get("rules", "levant")
    # names joined by "+"; commas too, though a game string cannot hold them (OpenSpiel
    # reads a comma there as the end of the parameter)
    joined = str(params.get("variants", "")).replace(",", "+")
    variants = [v for v in joined.split("+") if v.strip()]
    ruleset = build(str(rules), [v.strip() for v in variants])
    players = int(params.get("players", 4))
    if not ruleset.players.allows(players):
        raise InvalidStateError(
            f"{ruleset.title} is for {ruleset.players.describe().rstrip('.')}, not {players}"
        )
    return ruleset, players


class HandRummyGame(pyspiel.Game):
    """The game of one round of ``rules`` (with ``variants``) for ``players`` players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        ruleset, players = _ruleset(params)
        space = ActionSpace.of(ruleset, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=_FACES,
            num_players=players,
            # no round score, a seat's or a team's, is larger in size than the rules' bound
            min_utility=-score_bound(ruleset, players) / REWARD_SCALE,
            max_utility=score_bound(ruleset, players) / REWARD_SCALE,
            max_game_length=100_000,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.setup = _Setup(ruleset, players, space)
        self.ruleset, self.players, self.space = ruleset, players, space
        self.layout = self.setup.layout

    def new_initial_state(self) -> HandRummyState:
        return HandRummyState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> HandRummyObserver:
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            # a view holds the public facts and the player's own cards, together: an
            # observer of less (or of every hand) would have to be another observation
            raise InvalidStateError(
                "this game observes what one player sees: public information and that "
                "player's own cards (public_info=True, private_info=SINGLE_PLAYER), not "
                f"public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info.name}"
            )
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return HandRummyObserver(self.layout, perfect_recall, params)


class _Setup:
    """What every state of one game shares; never copied (OpenSpiel deep-copies a state's
    attributes to clone it, and the game object it would copy is an empty shell)."""

    def __init__(self, ruleset: Ruleset, players: int, space: ActionSpace) -> None:
        self.ruleset, self.players, self.space = ruleset, players, space
        self.layout = ObservationLayout.of(ruleset)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self


class _Core:
    """A state's data. The rounds and decisions in it are immutable, so a copy shares
    them and copies only the lists and counters around them."""

    _game: _Setup
    sizes: list[int]
    unknown: Counter[Card]
    dealt: list[list[Card]]
    indicator: Card | None
    upcard: Card | None
    slots: list[Card | None]
    game: Round | None
    decision: Decision | None
    drawing: bool
    draws: list[list[tuple[int, Card]]]
    turned: list[Card]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        copy = _Core.__new__(_Core)
        copy.__dict__.update(self.__dict__)
        copy.unknown = Counter(self.unknown)
        copy.dealt = [list(h) for h in self.dealt]
        copy.slots = list(self.slots)
        copy.draws = [list(d) for d in self.draws]
        copy.turned = list(self.turned)
        return copy


class HandRummyState(pyspiel.State):
    """A position: the deal so far, or a round with its stock's known places and a decision."""

    def __init__(self, game: HandRummyGame) -> None:
        super().__init__(game)
        self._s = _Core()
        self._s._game = game.setup
        ruleset, players = game.ruleset, game.players
        deal = ruleset.deal
        starter = deal.starter(0, players)
        self._s.sizes = [
            deal.hand_size + (1 if deal.starter_extra_card and s == starter else 0)
            for s in range(players)
        ]
        self._s.unknown = Counter(p.card for p in ruleset.deck.cards())
        """The cards whose place nobody knows: undealt, or in the stock at an unknown place."""
        self._s.dealt = [[] for _ in range(players)]
        self._s.indicator = None
        self._s.upcard = None
        self._s.slots = []
        """The stock as known to all, bottom first: a card where its place is known."""
        self._s.game = None
        self._s.decision = None
        self._s.drawing = False
        """A draw from the stock is waiting for its chance node."""
        self._s.draws = [[] for _ in range(players)]
        """Each seat's draws from the stock: (actions played before it, the card)."""
        self._s.turned = []
        """The cards turned up as the indicator that went back into the stock, seen by all."""

    # --- whose move -----------------------------------------------------------------------

    def _dealing(self) -> bool:
        return self._s.game is None

    def current_player(self) -> int:
        if self._s.game is None or self._s.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        if self._s.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._s.game.turn

    def is_terminal(self) -> bool:
        return self._s.game is not None and self._s.game.is_over

    def _legal_actions(self, player: int) -> list[int]:
        assert self._s.decision is not None and player == self._s.decision.view.seat
        return list(self._s.decision.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            # a player's move or the end: no card is dealt here
            raise NotToMoveError("chance_outcomes() is for chance nodes; this one is not")
        total = sum(self._s.unknown.values())
        return [
            (card.index, count / total)
            for card, count in sorted(self._s.unknown.items())
            if count > 0
        ]

    # --- moves --------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise NotToMoveError("the round is over: nobody has a move to make")
        if self.is_chance_node():
            if not 0 <= action < len(CARDS):  # a negative id would count from the end
                raise IdNotLegalError(
                    f"a chance action is a card face from 0 to {len(CARDS) - 1}, not {action}"
                )
            card = CARDS[action]
            if self._s.unknown[card] <= 0:
                raise IdNotLegalError(f"{card} is not among the cards still unseen")
            self._s.unknown[card] -= 1
            if self._s.game is None:
                self._deal(card)
            else:
                self._draw(card)
            return
        assert self._s.decision is not None
        step = self._s.decision.decode(action)
        if isinstance(step, Decision):
            self._s.decision = step
        elif isinstance(step, DrawStock) and self._s.slots and self._s.slots[-1] is None:
            self._s.drawing = True
            self._s.decision = None
        else:
            self._play(step)

    def _deal(self, card: Card) -> None:
        ruleset = self._s._game.ruleset
        for seat, hand in enumerate(self._s.dealt):
            if len(hand) < self._s.sizes[seat]:
                hand.append(card)
                if seat == len(self._s.dealt) - 1 and len(hand) == self._s.sizes[seat]:
                    self._s.slots = [None] * sum(self._s.unknown.values())
                    self._deal_known()
                return
        if ruleset.uses_indicator and self._s.indicator is None:
            self._s.slots.pop()
            if ruleset.wilds.turns_again(card):
                # 000 §Wild cards: it goes back into the middle of the stock, face up
                self._s.slots.insert(len(self._s.slots) // 2, card)
                self._s.turned.append(card)
            else:
                self._s.indicator = card
            self._deal_known()
            return
        self._s.slots.pop()
        self._s.upcard = card
        self._start()

    def _deal_known(self) -> None:
        """Deal on without chance while the next card to turn up lies on top, known."""
        ruleset = self._s._game.ruleset
        needs_indicator = ruleset.uses_indicator and self._s.indicator is None
        if not needs_indicator and not ruleset.deal.upcard:
            self._start()
            return
        top = self._s.slots[-1] if self._s.slots else None
        if top is not None:  # only in a tiny stock: the known card turns up
            self._s.unknown[top] += 1
            self._deal(top)
            self._s.unknown[top] -= 1

    def _start(self) -> None:
        ruleset = self._s._game.ruleset
        rest = sorted(self._s.unknown.elements())
        stock = [card if card is not None else rest.pop() for card in self._s.slots]
        discards = [self._s.upcard] if self._s.upcard is not None else []
        self._s.game = Round.from_deal(
            ruleset, self._s.dealt, stock, discards=discards, indicator=self._s.indicator
        )
        self._decide()

    def _draw(self, card: Card) -> None:
        assert self._s.game is not None
        stock = list(self._s.game.stock)
        if stock[-1] != card:
            place = next(i for i, c in enumerate(stock) if c == card and self._s.slots[i] is None)
            stock[place], stock[-1] = stock[-1], stock[place]
            self._s.game = self._s.game.replace(stock=tuple(stock))
        self._s.drawing = False
        self._play(DrawStock(), drawn=card)

    def _play(self, action: Action, drawn: Card | None = None) -> None:
        assert self._s.game is not None
        before = self._s.game
        if isinstance(action, DrawStock):
            top = self._s.slots.pop()
            if drawn is None:
                assert top is not None
                drawn = top
            self._s.draws[before.turn].append((len(before.history), drawn))
        self._s.game = before.apply(action)
        if self._s.game.reshuffles != before.reshuffles:
            # the old pile, shuffled: its faces are known to all, their order to nobody
            self._s.slots = [None] * len(self._s.game.stock)
            self._s.unknown = Counter(self._s.game.stock)
        self._decide()

    def _decide(self) -> None:
        assert self._s.game is not None
        if self._s.game.is_over:
            self._s.decision = None
        else:
            seat = self._s.game.turn
            self._s.decision = self._s._game.space.decision(self._s.game.view(seat))

    # --- results and text ---------------------------------------------------------------

    def returns(self) -> list[float]:
        if self._s.game is None or not self._s.game.is_over:
            return [0.0] * self._s._game.players
        return list(round_rewards(self._s.game, REWARD_SCALE))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            if not 0 <= action < len(CARDS):
                raise IdNotLegalError(f"a chance action is a card face from 0 to 52, not {action}")
            return f"Deal:{CARDS[action]}"
        return self._s._game.space.describe(action)

    def view(self, player: int) -> PlayerView | None:
        """What ``player`` sees of the round (``None`` during the deal)."""
        return None if self._s.game is None else self._s.game.view(player)

    def __str__(self) -> str:
        if self._s.game is None:
            hands = "; ".join(format_cards(h) for h in self._s.dealt)
            return f"dealing: {hands}"
        hands = "; ".join(format_cards(self._s.game.hand(s)) for s in range(self._s._game.players))
        pending = list(self._s.decision.pending) if self._s.decision else []
        return (
            f"turn {self._s.game.turn} ({self._s.game.phase.value}); hands {hands}; "
            f"stock {len(self._s.game.stock)}; pending {pending}"
        )

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HandRummyState:
        """A state ``player_id`` cannot tell from this one, the hidden cards dealt at random.

        The other hands and the stock come from :meth:`PlayerView.sample
        <hand_rummy.round.PlayerView.sample>`, seeded from ``probability_sampler``,
        with the stock's known places kept (:meth:`_sample_stock`). The other players' own draws are
        not known to ``player_id``, so the sample forgets them, and so are the melds
        another player to move has chosen of a lay-down not yet submitted: the sample
        starts that lay-down afresh. Its ``history()`` is this state's (no history that
        would deal the sampled cards is made up), so ``serialize()`` gives this state back.
        """
        if self._s.game is None:
            return self._resample_deal(player_id, probability_sampler)
        sample, stock = self._sample_stock(player_id, probability_sampler)
        clone: HandRummyState = self.clone()
        clone._s.game = sample.replace(stock=tuple(stock))
        hidden = Counter(c for c, slot in zip(stock, self._s.slots) if slot is None)
        clone._s.unknown = hidden
        clone._s.draws = [d if s == player_id else [] for s, d in enumerate(self._s.draws)]
        clone._s.dealt = [h if s == player_id else [] for s, h in enumerate(self._s.dealt)]
        if self._s.decision is None:
            # over, or a chance node (a draw from the stock): no decision until it is dealt
            clone._s.decision = None
            return clone
        clone._decide()
        assert clone._s.decision is not None
        if self._s.decision.view.seat == player_id:
            # the pending melds are the mover's own: only the mover's sample keeps them (to
            # another player they are hidden, and the sampled hand may not hold them)
            for action_id in self._s.decision.pending:
                step = clone._s.decision.decode(action_id)
                assert isinstance(step, Decision)
                clone._s.decision = step
        return clone

    def _sample_stock(self, player_id: int, probability_sampler: Any) -> tuple[Round, list[Card]]:
        """A round ``player_id`` cannot tell from this one, and its stock with every card
        whose place all know (a turned-again indicator) in that place.

        The view does not know those places, so its samples may put such a card in
        another hand, or anywhere in the stock. A sample is kept with a chance in
        proportion to how likely it makes the known places (the ways its stock's
        unknown places, with the known ones, could hold the known cards there), and
        the known cards then change places with copies drawn at random from those
        places: the samples kept have the distribution of rounds given everything
        ``player_id`` knows.
        """
        assert self._s.game is not None
        view = self._s.game.view(player_id)
        slots = self._s.slots
        wanted = Counter(card for card in slots if card is not None)
        for _ in range(_SAMPLE_TRIES):
            rng = random.Random(int(float(probability_sampler()) * 2**52))
            sample = view.sample(rng)
            stock = list(sample.stock)
            if not wanted:
                return sample, stock
            held = Counter(
                card
                for seat in range(len(self._s.dealt))
                if seat != player_id
                for card in sample.hand(seat)
            )
            here = Counter(stock)
            chance = 1.0
            for card, count in wanted.items():
                most = here[card] + held[card]  # every copy the player cannot see
                chance *= _falling(here[card], count) / _falling(most, count)
            if rng.random() >= chance:
                continue
            for place, known in enumerate(slots):
                if known is None or stock[place] == known:
                    continue
                copies = [i for i, card in enumerate(stock) if card == known and slots[i] != known]
                other = rng.choice(copies)
                stock[place], stock[other] = stock[other], stock[place]
            return sample, stock
        raise InvalidStateError(
            f"no sample in {_SAMPLE_TRIES} tries puts the cards whose places are known in them"
        )

    def _resample_deal(self, player_id: int, probability_sampler: Any) -> HandRummyState:
        rng = random.Random(int(float(probability_sampler()) * 2**52))
        clone: HandRummyState = self.clone()
        pool = list(self._s.unknown.elements())
        for seat, hand in enumerate(self._s.dealt):
            if seat != player_id:
                pool.extend(hand)
        rng.shuffle(pool)
        for seat, hand in enumerate(self._s.dealt):
            if seat != player_id:
                clone._s.dealt[seat] = [pool.pop() for _ in hand]
        clone._s.unknown = Counter(pool)
        return clone


class HandRummyObserver:
    """Observations and information states, for OpenSpiel's observer interface.

    The tensor is :func:`~hand_rummy.observation.observe` of the player's view (with
    the pending lay-down when that player is choosing one); during the deal only
    its ``hand``, ``indicator`` and ``discard_top`` sections are filled. The
    information-state string has perfect recall: the seat, the dealt hand, the cards
    turned up as the indicator and put back, every public action in order with the
    player's own draws from the stock, and the pending ids (for a seat whose deal a
    resample forgot, the cards it holds). The information-state tensor is the observation tensor (it
    does not recall the order of past events).
    """

    def __init__(
        self, layout: ObservationLayout, perfect_recall: bool, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise InvalidStateError(f"the observer takes no parameters, not {params}")
        self.layout = layout
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HandRummyState, player: int) -> None:
        self.tensor.fill(0)
        if state._s.game is None:
            at = {name: self.layout.section(name).start for name in ("hand", "indicator")}
            for card in state._s.dealt[player]:
                self.tensor[at["hand"] + card.index] += 1
            if state._s.indicator is not None:
                self.tensor[at["indicator"] + state._s.indicator.index] = 1
            return
        decision = state._s.decision
        if decision is not None and decision.view.seat == player:
            self.tensor[:] = observe(decision, self.layout)
        else:
            self.tensor[:] = observe(state._s.game.view(player), self.layout)

    def string_from(self, state: HandRummyState, player: int) -> str:
        if self.perfect_recall:
            return _information_state(state, player)
        return _observation(state, player)


_SAMPLE_TRIES = 1000
"""Samples drawn at most for one resample (each is kept with a chance of about a half or
more: a known card is most often in the stock, where everyone knows it lies)."""


def _falling(n: int, k: int) -> int:
    """``n (n - 1) ... (n - k + 1)``: the ways to fill ``k`` places from ``n`` copies."""
    return math.perm(n, k) if n >= k else 0


def _information_state(state: HandRummyState, player: int) -> str:
    parts = [f"seat {player}", f"dealt {format_cards(state._s.dealt[player])}"]
    if state._s.turned:
        parts.append(f"turned again {format_cards(state._s.turned)}")
    if state._s.game is None:
        if state._s.indicator is not None:
            parts.append(f"indicator {state._s.indicator}")
        return "; ".join(parts)
    game = state._s.game
    parts.append(f"indicator {game.indicator}" if game.indicator else "no indicator")
    if state._s.upcard is not None:
        parts.append(f"up-card {state._s.upcard}")
    draws = dict(state._s.draws[player])
    for number, action in enumerate(game.history):
        drawn = draws.get(number)
        parts.append(f"{action} {drawn}" if drawn is not None else str(action))
    if not state._s.dealt[player]:
        # a state resampled for another player forgets this player's deal and draws: what
        # it holds now stands in for them, so that two samples in which it could move
        # differently never share an information state
        current = game.current
        parts.append(
            f"holds {format_cards(sorted(game.hand(player)))}"
            f" demoted {format_cards(sorted(game.hand_demoted(player)))}"
            + (" had the taken card" if current.had_taken and game.turn == player else "")
        )
    if state._s.decision is not None and state._s.decision.view.seat == player:
        parts.append(f"pending {list(state._s.decision.pending)}")
    return "; ".join(parts)


def _observation(state: HandRummyState, player: int) -> str:
    """The facts of the observation tensor in words: every section of it has its part."""
    if state._s.game is None:
        return f"seat {player}; dealing; hand {format_cards(sorted(state._s.dealt[player]))}"
    view = state._s.game.view(player)
    current = view.current
    team, _ = state._s._game.layout.team(view.players, player)
    table = " | ".join(f"{m.owner}: {m.kind.value} {m.meld.describe()}" for m in view.table)
    turn = [
        f"taken {current.taken}" if current.taken is not None else "",
        "demoted" if current.taken_demoted else "",
        f"freed {current.freed}" if current.freed is not None else "",
        f"owes {current.obligation.value}" if current.obligation is not None else "",
        "laid down" if current.laid_down else "",
        "laid off" if current.laid_off else "",
        "bare first turn" if current.first_turn_bare else "",
    ]
    parts = [
        f"seat {player} (team {team})",
        f"{view.phase.value}, seat {view.turn} to move",
        f"hand {format_cards(view.hand)}",
        f"demoted {format_cards(view.demoted)}",
        f"indicator {view.indicator}",
        f"pile {format_cards(view.discards)}",
        f"stock {view.stock_size}",
        f"reshuffles {view.reshuffles}",
        f"hands {list(view.hand_sizes)}",
        f"opened {[int(o) for o in view.opened]}",
        f"melded {[int(m) for m in view.melded]}",
        f"missed {[int(m) for m in view.missed]}",
        f"announced {list(view.announced)}",
        f"turns {list(view.turns_played)}",
        f"turn {', '.join(t for t in turn if t) or 'nothing yet'}",
        f"table {table}",
    ]
    if not view.opened[player]:
        bar = view.ruleset.opening.required(player, team, view.openings, view.players)
        parts.append(f"bar {bar}")
    if state._s.decision is not None and state._s.decision.view.seat == player:
        parts.append(f"pending {list(state._s.decision.pending)}")
    return "; ".join(parts)


pyspiel.register_game(_GAME_TYPE, HandRummyGame)
