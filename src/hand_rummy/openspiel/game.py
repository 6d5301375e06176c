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

Some rules let a round go on for ever (Gulf Hand renews the stock without end, and
a player may take the discard and throw it back), but an OpenSpiel game has a
longest history (``max_game_length()``): the parameter ``max_moves`` (100,000
actions by default, chance actions included) is that bound, and a round still
going when its history reaches it ends there unscored, every return 0
(:attr:`HandRummyState.cut_short` says so).

>>> import pyspiel
>>> game = pyspiel.load_game("python_hand_rummy", {"rules": "classic", "players": 2})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()
(3572, 53, 2)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any, NamedTuple

from hand_rummy.extras import require

np = require("numpy", "openspiel", "the OpenSpiel game")
require("pyspiel", "openspiel", "the OpenSpiel game")

import pyspiel  # noqa: E402 (after the check above)

from hand_rummy.actions import Action, Discard, DrawStock, TakeDiscard  # noqa: E402
from hand_rummy.cards import CARDS, Card, format_cards  # noqa: E402
from hand_rummy.encoding import (  # noqa: E402
    ActionSpace,
    Decision,
    IdNotLegalError,
    NotToMoveError,
)
from hand_rummy.envs.rewards import round_rewards  # noqa: E402
from hand_rummy.errors import HandRummyError, InvalidStateError  # noqa: E402
from hand_rummy.observation import ObservationLayout, observe  # noqa: E402
from hand_rummy.openspiel import MAX_MOVES  # noqa: E402
from hand_rummy.round import PlayerView, Round  # noqa: E402
from hand_rummy.rules import build  # noqa: E402
from hand_rummy.rules.ruleset import Ruleset  # noqa: E402
from hand_rummy.scoring import score_bound  # noqa: E402
from hand_rummy.state import DEMOTED  # noqa: E402

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
    parameter_specification={
        "rules": "levant",
        "variants": "",
        "players": 4,
        "max_moves": MAX_MOVES,
    },
)


def _ruleset(params: dict[str, Any]) -> tuple[Ruleset, int]:
    """The ruleset and player count of ``params``, whose ``variants`` it rewrites as the
    names joined by "+": commas are read too, but a game string cannot hold them (OpenSpiel
    reads a comma there as the end of the parameter), so the game's own string, which is
    made from these parameters, would not load again."""
    rules = params.get("rules", "levant")
    joined = str(params.get("variants", "")).replace(",", "+")
    variants = [v.strip() for v in joined.split("+") if v.strip()]
    params["variants"] = "+".join(variants)
    ruleset = build(str(rules), variants)
    players = int(params.get("players", 4))
    if not ruleset.players.allows(players):
        raise InvalidStateError(
            f"{ruleset.title} is for {ruleset.players.describe().rstrip('.')}, not {players}"
        )
    return ruleset, players


def _max_moves(params: dict[str, Any]) -> int:
    moves = params.get("max_moves", MAX_MOVES)
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 1:
        # OpenSpiel's parameter is a C int: it refuses a larger one before this runs
        raise InvalidStateError(f"max_moves is a number of actions from 1 up, not {moves!r:.40}")
    return moves


class HandRummyGame(pyspiel.Game):
    """The game of one round of ``rules`` (with ``variants``) for ``players`` players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        ruleset, players = _ruleset(params)
        max_moves = _max_moves(params)
        space = ActionSpace.of(ruleset, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=_FACES,
            num_players=players,
            # no round score, a seat's or a team's, is larger in size than the rules' bound
            min_utility=-score_bound(ruleset, players) / REWARD_SCALE,
            max_utility=score_bound(ruleset, players) / REWARD_SCALE,
            max_game_length=max_moves,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.setup = _Setup(ruleset, players, space, max_moves)
        self.ruleset, self.players, self.space = ruleset, players, space
        self.layout = self.setup.layout

    def new_initial_state(self) -> HandRummyState:
        return HandRummyState(self)

    def deserialize_state(self, text: str) -> HandRummyState:
        """The state that ``text`` (from ``state.serialize()``) describes, rebuilt by
        replaying the history it names from a new initial state.

        Only the ``history=`` and ``move_number=`` lines are read: OpenSpiel's own format
        adds the state's data as a pickle, which this method never loads, so a string
        from elsewhere can neither run code nor give a state that its history does not
        lead to. A malformed string, or a history these rules refuse, is refused with a
        library error. (``pyspiel.deserialize_game_and_state`` is OpenSpiel's own and does
        load the pickle: use it only on strings you wrote.)
        """
        if not isinstance(text, str):
            raise InvalidStateError(f"a serialized state is text, not {type(text).__name__}")
        lines = text.split("\n")
        if not lines[0].startswith("history="):
            raise InvalidStateError("a serialized state starts with a line 'history=...'")
        listed = lines[0].removeprefix("history=")
        entries = listed.split(",") if listed else []
        if len(entries) > self.max_game_length():
            raise InvalidStateError(
                f"the history holds {len(entries)} actions; a round has at most "
                f"{self.max_game_length()}"
            )
        state = self.new_initial_state()
        for at, entry in enumerate(entries):
            player, _, action = entry.partition(":")
            try:
                seat, chosen = int(player), int(action)
            except ValueError:
                raise InvalidStateError(
                    f"history entry {at} is {entry[:40]!r}, not 'player:action'"
                ) from None
            if seat != state.current_player():
                raise InvalidStateError(
                    f"history entry {at} is played by {seat}, but {state.current_player()} "
                    "is to move there"
                )
            state.apply_action(chosen)
        moves = [line for line in lines[1:] if line.startswith("move_number=")]
        if moves and moves[0] != f"move_number={state.move_number()}":
            raise InvalidStateError(
                f"the text says {moves[0]}, but its history makes {state.move_number()} moves"
            )
        return state

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

    def __init__(self, ruleset: Ruleset, players: int, space: ActionSpace, max_moves: int) -> None:
        self.ruleset, self.players, self.space = ruleset, players, space
        self.max_moves = max_moves
        self.layout = ObservationLayout.of(ruleset)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self


_DEAL, _SHOWN, _DRAW, _MOVE = range(4)
"""The kinds of :class:`_Step`: a card dealt to a hand, a card turned up for all to see (the
indicator, one that turns again, the up-card), a draw from the stock, a player's action."""


class _Step(NamedTuple):
    """One entry of a state's history, as a resample needs it to deal other cards."""

    kind: int
    seat: int
    """The seat dealt to, drawing or acting (-1 for a card turned up)."""
    stock: int = 0
    """The stock a card is dealt or drawn from: 0, the deck, or ``n`` after the ``n``-th
    reshuffle."""
    before: tuple[int, ...] = ()
    after: tuple[int, ...] = ()
    """A player's action: the mover's hand vector before and after it (kept as they are,
    shared with the rounds, and compared only by a resample: :meth:`moved`)."""
    pile: bool = False
    """Whether the action took the card that came from the discard pile, or discarded."""
    action: Action | None = None
    """The action a player's id played (``None`` for a meld chosen of a lay-down not yet
    submitted): a resample, replaying the ids, applies it without decoding them again."""

    def moved(self) -> tuple[Counter[Card], Counter[Card]]:
        """The cards a player's action put into the mover's hand and took out, all seen:
        taken from the pile or the table, drawn from a known place of the stock; laid
        down, laid off, discarded."""
        change: Counter[Card] = Counter()
        for slot, (old, new) in enumerate(zip(self.before, self.after)):
            if old != new:
                change[CARDS[slot % DEMOTED]] += new - old  # a demoted copy is the same face
        came = Counter({card: n for card, n in change.items() if n > 0})
        return came, Counter({card: -n for card, n in change.items() if n < 0})


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
    steps: list[_Step]
    renewed: list[tuple[Card, ...]]
    known: Action | None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        copy = _Core.__new__(_Core)
        copy.__dict__.update(self.__dict__)
        copy.unknown = Counter(self.unknown)
        copy.dealt = [list(h) for h in self.dealt]
        copy.slots = list(self.slots)
        copy.draws = [list(d) for d in self.draws]
        copy.turned = list(self.turned)
        copy.steps = list(self.steps)
        copy.renewed = list(self.renewed)
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
        self._s.steps = []
        """One :class:`_Step` for each action of the history, in order."""
        self._s.renewed = []
        """The stock after each reshuffle (the old pile, its faces seen by all)."""
        self._s.known = None
        """The action the next id is known to play, from a replayed history (a resample)."""

    # --- whose move -----------------------------------------------------------------------

    def _dealing(self) -> bool:
        return self._s.game is None

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._s.game is None or self._s.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        return self._s.game.turn

    def is_terminal(self) -> bool:
        return (self._s.game is not None and self._s.game.is_over) or self.cut_short

    @property
    def cut_short(self) -> bool:
        """Whether the round ended unscored because its history reached the game's
        ``max_moves`` actions before the rules ended it."""
        return len(self._s.steps) >= self._s._game.max_moves and not (
            self._s.game is not None and self._s.game.is_over
        )

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
                dealt = self._dealing_to()
                self._deal(card)
            else:
                dealt = _Step(_DRAW, self._s.game.turn, self._s.game.reshuffles)
                self._draw(card)
            self._s.steps.append(dealt)
            return
        decision = self._s.decision
        assert decision is not None and self._s.game is not None
        seat, before = decision.view.seat, self._s.game
        known, self._s.known = self._s.known, None
        step: Action | Decision
        if known is not None and decision.means(action, known):
            # a replayed id (a resample): the round judges the action as it is applied, so
            # the legal actions need not be listed to decode it
            step = known
        else:
            step = decision.decode(action)
        if isinstance(step, Decision):
            self._s.decision = step
        elif isinstance(step, DrawStock) and self._s.slots and self._s.slots[-1] is None:
            if step is known and not before.check(step).ok:
                raise IdNotLegalError(f"{step} is not legal here")
            self._s.drawing = True
            self._s.decision = None
        else:
            self._play(step)
        self._s.steps.append(_moved(seat, before, self._s.game, step))

    def _dealing_to(self) -> _Step:
        """The step of the next card of the deal: to the first hand still short, or shown."""
        for seat, hand in enumerate(self._s.dealt):
            if len(hand) < self._s.sizes[seat]:
                return _Step(_DEAL, seat)
        return _Step(_SHOWN, -1)

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
            self._s.renewed.append(self._s.game.stock)
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

    def serialize(self) -> str:
        """The state as text: its history (each entry ``player:action``) and its move count,
        the lines of OpenSpiel's format that :meth:`HandRummyGame.deserialize_state` reads.
        The same state always gives the same text, a few hundred bytes; OpenSpiel's
        default would add a pickle of the state's data (over 100 kB) that nothing here
        loads."""
        entries = ",".join(f"{step.player}:{step.action}" for step in self.full_history())
        return f"history={entries}\nmove_number={self.move_number()}\n"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HandRummyState:
        """A state ``player_id`` cannot tell from this one, the hidden cards dealt at random,
        with a history that deals them.

        The other hands are those of :meth:`PlayerView.sample
        <hand_rummy.round.PlayerView.sample>` (seeded from ``probability_sampler``, the
        stock's known places kept: :meth:`_sample_stock`) as far as the public record
        allows, and the history's chance outcomes are made up to deal them
        (:meth:`_history_for`): every action and every card ``player_id`` saw stays as it
        was, and the cards dealt to the others and drawn by them from the stock are
        chosen anew. The sample is that history replayed from the start, so its
        ``history()``, ``serialize()`` and every string describe the sample and tell
        nothing of the hidden cards of this state. The melds another player to move has
        chosen of a lay-down not yet submitted are hidden from ``player_id`` too: the
        sample starts that lay-down afresh.
        """
        players = self._s._game.players
        if isinstance(player_id, bool) or not isinstance(player_id, int):
            raise InvalidStateError(f"a player is a seat number, not {player_id!r:.40}")
        if not 0 <= player_id < players:
            raise InvalidStateError(
                f"there is no player {player_id}: seats run from 0 to {players - 1}"
            )
        if not callable(probability_sampler):  # before any work, as a wrong player is
            raise InvalidStateError(
                "the sampler must be a function that gives a number from 0 to 1, not "
                f"{type(probability_sampler).__name__}"
            )
        game = self.get_game()
        for _ in range(_SAMPLE_TRIES):
            rng = random.Random(_seed_from(probability_sampler))
            wanted: dict[int, Counter[Card]] = {}
            if self._s.game is not None:
                sample, _ = self._sample_stock(player_id, probability_sampler)
                wanted = {s: Counter(sample.hand(s)) for s in range(self._s._game.players)}
            history = self._history_for(player_id, wanted, rng)
            if history is None:
                continue
            state: HandRummyState = game.new_initial_state()
            steps = self._s.steps
            try:
                for at, action in enumerate(history):
                    # each player's id plays the action it played here (the table is public)
                    state._s.known = steps[at].action
                    state.apply_action(action)
            except HandRummyError:
                # a past move whose legality hangs on more than the cards it shows (a take
                # that needs a meld the hand can finish, say) that the cards chosen refuse
                continue
            decision = state._s.decision
            if decision is None or decision.view.seat == player_id or decision.legal_ids():
                return state
        raise InvalidStateError(
            f"no sample in {_SAMPLE_TRIES} tries deals cards that the actions so far allow"
        )

    def _history_for(
        self, player_id: int, wanted: dict[int, Counter[Card]], rng: random.Random
    ) -> list[int] | None:
        """This state's history with the cards dealt to the other players and drawn by them
        from the stock chosen anew, near the hands ``wanted``; ``None`` when no choice
        found lets every card played have been in its hand.

        Each hidden card (one dealt to another hand, or drawn by another player from the
        stock) is a *token*, of its seat, its time and its stock (the deck, or the pile
        turned into the stock by a reshuffle). Each stock has the faces that
        ``player_id`` cannot place in it: the deck less ``player_id``'s cards and those
        turned up, a reshuffled pile less ``player_id``'s draws from it. A card another
        player lays down, lays off or discards is one it was seen to take and still
        holds, or else it *needs* a token of its seat from before with that face, which
        the token's stock must have (:func:`_allot`). Then each seat's tokens left take
        the faces of its ``wanted`` hand that their stocks still have (the player to move
        first, whose sampled hand has a legal move), the rest at random, and what the
        stocks have left lies in the stock. So every card is played by a hand that held
        it, every stock deals what it held, and the new hands are the sample's wherever
        the public record does not say otherwise (a card taken from the pile and kept
        stays with its taker; after a reshuffle the stock holds cards of the old pile).
        """
        real = self.history()
        steps = self._s.steps
        players = self._s._game.players
        stocks = [Counter(p.card for p in self._s._game.ruleset.deck.cards())]
        stocks.extend(Counter(renewed) for renewed in self._s.renewed)
        for at, step in enumerate(steps):
            # the cards player_id saw dealt or turned up are in no token's stock
            if step.kind == _SHOWN or (step.kind != _MOVE and step.seat == player_id):
                stocks[step.stock][CARDS[real[at]]] -= 1
        tokens: list[list[int]] = [[] for _ in range(players)]
        needs: list[tuple[int, int, Card]] = []
        """(when, seat, card): a card played that a token of the seat from before must be."""
        held: list[Counter[Card]] = [Counter() for _ in range(players)]
        fresh: list[Counter[Card]] = [Counter() for _ in range(players)]
        barred = self._s._game.ruleset.discard_take.no_rediscard
        last = -1
        for at, step in enumerate(steps):
            if step.kind in (_DEAL, _DRAW) and step.seat != player_id:
                tokens[step.seat].append(at)
            if step.kind not in (_DRAW, _MOVE):
                continue
            seat = step.seat
            if seat != last:
                fresh[seat].clear()  # a new turn
                last = seat
            if step.kind == _DRAW or seat == player_id:
                continue
            came, went = step.moved()
            for card in sorted(went.elements()):  # before what came: none goes as it comes
                # a card seen to come is still there, and goes first, one that came before
                # this turn the first of all; but where the rules bar the card taken from
                # the pile from going back this turn, a discard of its face is a copy held
                # before (004 §2), dealt or drawn if no copy came before
                earlier = held[seat][card] - fresh[seat][card]
                again = step.pile and not earlier and barred
                if held[seat][card] > 0 and not again:
                    held[seat][card] -= 1
                    if not earlier:
                        fresh[seat][card] -= 1
                else:
                    needs.append((at, seat, card))
            held[seat].update(came)
            if step.pile:
                fresh[seat].update(came)
        faces = list(real)
        allotted = _allot(needs, tokens, steps, stocks, rng)
        if allotted is None:
            return None
        for token, card in allotted.items():
            faces[token] = card.index
            stocks[steps[token].stock][card] -= 1
        mover = self._s.game.turn if self._s.game is not None else player_id
        for seat in sorted(range(players), key=lambda s: s != mover):
            if seat == player_id:
                continue
            want = wanted.get(seat, Counter()) - held[seat]
            free = [t for t in tokens[seat] if t not in allotted]
            rng.shuffle(free)
            for token in sorted(free, key=lambda t: not (want & stocks[steps[t].stock])):
                stock = stocks[steps[token].stock]
                fits = sorted((want & stock).elements()) or sorted(stock.elements())
                card = rng.choice(fits)
                want[card] -= 1
                stock[card] -= 1
                faces[token] = card.index
        decision = self._s.decision
        if decision is not None and decision.view.seat != player_id and decision.pending:
            # another player's melds of a lay-down not yet submitted: hidden, and perhaps
            # not in the hand sampled
            del faces[len(faces) - len(decision.pending) :]
        return faces

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
            rng = random.Random(_seed_from(probability_sampler))
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


class HandRummyObserver:
    """Observations and information states, for OpenSpiel's observer interface.

    The tensor is :func:`~hand_rummy.observation.observe` of the player's view (with
    the pending lay-down when that player is choosing one); during the deal only
    its ``hand``, ``indicator`` and ``discard_top`` sections are filled. The
    information-state string has perfect recall: the seat, the dealt hand, the cards
    turned up as the indicator and put back, every public action in order with the
    player's own draws from the stock, and the pending ids. (A resampled state has a
    history that deals its own cards, so these say what each seat holds in it too.)
    The information-state tensor is the observation tensor (it does not recall the
    order of past events).
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


def _allot(
    needs: list[tuple[int, int, Card]],
    tokens: list[list[int]],
    steps: list[_Step],
    stocks: list[Counter[Card]],
    rng: random.Random,
) -> dict[int, Card] | None:
    """A face for a token of each need (when, seat, card): one of the seat's tokens from
    before it, whose stock has that card; ``None`` if none is found for every need.

    Which token a need takes can starve a later one (a card kept from the deal for most
    of the round, played after the seat's other dealt tokens went to cards that a
    reshuffled pile could also give). So the needs are met in order as a matching is
    grown, by augmenting paths: a need that finds no token free with its card in the
    stock takes one from an earlier need that can move to another token, or takes the
    stock's copy from an earlier need of that card that can move to another stock.
    """
    left = [Counter(stock) for stock in stocks]
    holder: dict[int, int] = {}
    """token: the need it meets."""
    token_of: dict[int, int] = {}
    placed: dict[tuple[int, Card], set[int]] = {}
    """(stock, card): the needs that took that card from that stock."""

    def put(need: int, token: int) -> None:
        card = needs[need][2]
        holder[token], token_of[need] = need, token
        left[steps[token].stock][card] -= 1
        placed.setdefault((steps[token].stock, card), set()).add(need)

    def take(need: int) -> int:
        card, token = needs[need][2], token_of.pop(need)
        del holder[token]
        left[steps[token].stock][card] += 1
        placed[steps[token].stock, card].discard(need)
        return token

    def place(need: int, seen: set[int]) -> bool:
        when, seat, card = needs[need]
        mine = [t for t in tokens[seat] if t < when]
        rng.shuffle(mine)
        for token in mine:
            if token not in holder and left[steps[token].stock][card] > 0:
                put(need, token)
                return True
        for token in mine:
            stock = steps[token].stock
            other = holder.get(token)
            # move another need off this token, or off this stock's copy of the card
            movers = [other] if other is not None else sorted(placed.get((stock, card), ()))
            for moved in movers:
                if moved in seen:
                    continue
                seen.add(moved)
                was = take(moved)
                if left[stock][card] > 0 and token not in holder:
                    put(need, token)
                    if place(moved, seen):
                        return True
                    take(need)
                put(moved, was)
        return False

    order = list(range(len(needs)))
    for _ in range(_ALLOT_TRIES):
        for need in order:
            if not place(need, {need}):
                break
        else:
            return {token: needs[need][2] for need, token in token_of.items()}
        # the paths searched are not all there are: try again, the needs met in another order
        for need in list(token_of):
            take(need)
        rng.shuffle(order)
    return None


_ALLOT_TRIES = 8
"""How many orders of the needs :func:`_allot` tries."""


def _seed_from(probability_sampler: Any) -> int:
    """A seed from OpenSpiel's probability sampler: a number drawn from 0 to 1."""
    value = probability_sampler()
    try:
        drawn = float(value)
    except (TypeError, ValueError):
        raise InvalidStateError(f"the sampler gave {value!r:.40}, not a number") from None
    if not 0.0 <= drawn <= 1.0:
        raise InvalidStateError(f"the sampler gave {value!r:.40}, not a number from 0 to 1")
    return int(drawn * 2**52)


def _moved(
    seat: int, before: Round | None, after: Round | None, action: Action | Decision
) -> _Step:
    """The step of an action of ``seat`` that turned ``before`` into ``after`` (a draw
    waiting for its chance node, or a meld chosen of a lay-down not yet submitted, moves
    no card). It keeps the hand's vectors, not the cards that moved: every action of
    every state pays for this, and only a resample needs the cards."""
    played = None if isinstance(action, Decision) else action
    if before is None or after is None or after is before:
        return _Step(_MOVE, seat, action=played)
    pile = isinstance(action, (TakeDiscard, Discard))
    return _Step(_MOVE, seat, 0, before.hands[seat], after.hands[seat], pile, played)


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
    # the section "renewed": what the stock can hold, as the observer knows it
    renewed = Counter(view.renewal) - Counter(view.drawn)
    parts = [
        f"seat {player} (team {team})",
        f"{view.phase.value}, seat {view.turn} to move",
        f"hand {format_cards(view.hand)}",
        f"demoted {format_cards(view.demoted)}",
        f"indicator {view.indicator}",
        f"pile {format_cards(view.discards)}",
        f"stock {view.stock_size}",
        f"reshuffles {view.reshuffles}",
        *([f"renewed {format_cards(sorted(renewed.elements()))}"] if view.renewal else []),
        f"hands {list(view.hand_sizes)}",
        f"opened {[int(o) for o in view.opened]}",
        f"melded {[int(m) for m in view.melded]}",
        f"missed {[int(m) for m in view.missed]}",
        f"announced {list(view.announced)}",
        f"turns {list(view.turns_played)}",
        *(
            [f"shown {' | '.join(format_cards(c) or '-' for c in view.shown)}"]
            if any(view.shown)
            else []
        ),
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
