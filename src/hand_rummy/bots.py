"""Bots: players that choose an action from what one player may see.

A bot is anything with a ``choose(view) -> action`` method (the :class:`Bot`
protocol). It is given a :class:`~hand_rummy.round.PlayerView`, never the
round itself, so it cannot peek at other hands or the stock; it must return
one of ``view.legal_actions()``.

A bot may also have a ``decide(decision) -> action`` method (the
:class:`DecidingBot` protocol). Whoever asks the bot (:func:`play_round`,
:func:`play_match`, the tournament runner) then calls ``decide`` instead,
with a :class:`Choice`: the seat to move, the legal actions and the view,
each worked out only when the bot first reads it. A bot that needs only the
legal actions (as :class:`RandomBot` does) so skips building a view, and no
bot lists the legal actions a second time from a view. ``choose`` stays the
one method every bot must have; :func:`ask` calls whichever a bot offers.

* :class:`RandomBot` picks uniformly among the legal actions.
* :class:`GreedyBot` plays a simple, sensible game: it opens as soon as it
  can with the best opening, lays off whatever fits, keeps its wild cards,
  and discards the card that costs most and helps least.

:func:`play_round` and :func:`play_match` play a whole round or match
between bots, one per seat. Bots that never lay down can keep a round going
for ever where the rules renew the stock, or a match where an unscored round
is dealt again, so both stop at a bound (:data:`MAX_ROUND_DECISIONS`,
:data:`MAX_UNSCORED_IN_A_ROW`, or one of the caller's) with
:class:`EndlessPlayError`, which holds the game as it stood.

>>> from hand_rummy.rules import presets
>>> from hand_rummy.round import Round
>>> game = Round.deal(presets.levant, players=2, seed=3)
>>> done = play_round(game, [GreedyBot(seed=1), RandomBot(seed=2)])
>>> done.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from hand_rummy.actions import (
    Action,
    ClaimRedeal,
    Discard,
    DrawStock,
    Exchange,
    LayDown,
    LayOff,
    PassRedeal,
    TakeDiscard,
)
from hand_rummy.cards import Card, Rank, Suit
from hand_rummy.errors import HandRummyError, InvalidStateError, expect, expect_seed
from hand_rummy.finder import MeldFinder, counts
from hand_rummy.match import Match
from hand_rummy.melds import Meld, MeldRules, judge_meld
from hand_rummy.round import PlayerView, Round
from hand_rummy.scoring import card_penalty
from hand_rummy.state import Phase
from hand_rummy.visibility import screened

if TYPE_CHECKING:
    from hand_rummy.search import SearchBot

__all__ = [
    "MAX_ROUND_DECISIONS",
    "MAX_UNSCORED_IN_A_ROW",
    "Bot",
    "Choice",
    "DecidingBot",
    "EndlessPlayError",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "ask",
    "asker",
    "pays_flat",
    "play_match",
    "play_round",
]


def __getattr__(name: str) -> type[SearchBot]:
    """:class:`~hand_rummy.search.SearchBot`, imported on first use (it builds on this module)."""
    if name == "SearchBot":
        from hand_rummy.search import SearchBot  # noqa: PLC0415 (search imports bots)

        return SearchBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Bot(Protocol):
    """Anything that, given a player's view, chooses one of the legal actions."""

    def choose(self, view: PlayerView) -> Action:
        """One action of ``view.legal_actions()``; called only when it is ``view.seat``'s move."""
        ...


class Choice:
    """What a bot is asked to choose from: the seat to move, its legal actions and its view.

    The legal actions and the view are worked out when first read, and kept:
    from the round (:meth:`of_round`) or from a view (:meth:`of_view`). A
    decision made from a round keeps it screened, every card the seat cannot
    see turned into a joker (:func:`~hand_rummy.visibility.screened`): the
    legal actions of the player to move depend only on what that player sees,
    so they are listed from it exactly, and a bot finds no hidden card in what
    it is given.

    >>> from hand_rummy.rules import presets
    >>> game = Round.deal(presets.romme, players=3, seed=1)
    >>> decision = Choice.of_round(game)
    >>> decision.seat == game.turn, decision.legal == tuple(game.legal_actions())
    (True, True)
    >>> decision.view == game.view(game.turn)
    True
    """

    __slots__ = ("_legal", "_screened", "_view", "seat")

    def __init__(
        self,
        seat: int,
        *,
        view: PlayerView | None = None,
        legal: Sequence[Action] | None = None,
        game: Round | None = None,
    ) -> None:
        if view is None and game is None:
            raise InvalidStateError("a decision needs the view or the round it is taken in")
        if view is not None:
            expect(view, PlayerView, "the view (round.view(seat))")
        if game is not None:
            expect(game, Round, "the round")
        self.seat = seat
        """The seat to move."""
        self._view = view
        self._legal = None if legal is None else tuple(legal)
        self._screened = None if game is None else screened(game, seat)

    @classmethod
    def of_round(cls, game: Round, seat: int | None = None) -> Choice:
        """The decision of the player to move in ``game`` (``seat`` when given)."""
        return cls(game.turn if seat is None else seat, game=game)

    @classmethod
    def of_view(cls, view: PlayerView) -> Choice:
        """The decision a view asks for (its legal actions are listed from the view)."""
        expect(view, PlayerView, "the view (round.view(seat))")
        return cls(view.seat, view=view)

    @property
    def legal(self) -> tuple[Action, ...]:
        """The legal actions, in the engine's order (empty when it is not this seat's move)."""
        if self._legal is None:
            game = self._screened
            if game is not None and game.turn == self.seat:
                self._legal = tuple(game.legal_actions())
            else:
                self._legal = tuple(self.view.legal_actions())
        return self._legal

    @property
    def view(self) -> PlayerView:
        """What the seat to move may see."""
        if self._view is None:
            assert self._screened is not None
            self._view = self._screened.view(self.seat)
        return self._view

    def __repr__(self) -> str:
        return f"<Choice of seat {self.seat}>"


class DecidingBot(Bot, Protocol):
    """A bot that may be asked with a :class:`Choice`: its legal actions already listed."""

    def decide(self, decision: Choice) -> Action:
        """One action of ``decision.legal``."""
        ...


def asker(bot: Bot) -> Callable[[Choice], Action]:
    """How to ask ``bot`` for a decision: its ``decide`` method, else ``choose`` with the
    view. Look it up once per bot and call it for every decision."""
    decide = getattr(bot, "decide", None)
    if callable(decide):
        return decide  # type: ignore[no-any-return]
    choose = bot.choose
    return lambda decision: choose(decision.view)


def _no_move(decision: Choice) -> InvalidStateError:
    """Why a bot asked for a move has none: the round is over, or it is another seat's move."""
    if decision.view.phase is Phase.OVER:
        return InvalidStateError(f"seat {decision.seat} has no legal action: the round is over")
    return InvalidStateError(f"seat {decision.seat} has no legal action: it is not its move")


def ask(bot: Bot, decision: Choice) -> Action:
    """``bot``'s action for ``decision`` (through ``decide`` when the bot has it)."""
    return asker(bot)(decision)


class RandomBot:
    """Chooses uniformly among the legal actions, with its own seeded generator.

    Two bots built with the same seed, asked the same questions in the same
    order, give the same answers.
    """

    def __init__(self, seed: int = 0) -> None:
        expect_seed(seed)
        self.seed = seed
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"

    def choose(self, view: PlayerView) -> Action:
        return self.decide(Choice.of_view(view))

    def decide(self, decision: Choice) -> Action:
        """A uniform choice among ``decision.legal`` (the view is not needed)."""
        expect(decision, Choice, "the decision (Choice.of_view(view))")
        actions = decision.legal
        if not actions:
            raise _no_move(decision)
        return self._rng.choice(actions)


NEAR_WEIGHT = 4.0
"""Penalty points one near-meld link (a pair, or a card one or two apart in suit) is worth."""

MELD_WEIGHT = 15.0
"""Penalty points being part of a meld of natural cards is worth."""

FLAT_WEIGHT = 0.1
"""How much a card's penalty value counts, negated, when the hand pays a flat penalty.

A player who has not opened under a flat never-opened penalty (000: 100) pays
the same whatever it holds, so a card's value costs nothing; a high card counts
more toward the opening bar, so among equally useless cards the lowest goes.
"""


class GreedyBot:
    """A simple, sensible player that never looks ahead more than this turn.

    In order of preference, when the engine offers it:

    * keeps a weak deal rather than claiming a redeal;
    * draws from the stock, except that it takes the discard when the card
      completes a meld in its hand (the engine offers the take only when the
      obligations that come with it can be met);
    * opens as soon as it can, with the opening of the highest value (ties:
      the one that leaves the fewest cards in hand);
    * once opened, lays down melds, longest first, then lays off every card
      that fits (a wild card only when it is one of its last two cards);
    * exchanges a table wild when the freed wild then makes a meld in its hand
      (at most twice a turn, so it never loops);
    * discards the card that costs most and helps least: its penalty value
      minus what it adds to near-melds (pairs of a rank in other suits, cards
      one or two apart in a suit, natural melds held back), never a wild card
      unless every discard is wild, nor the card it took from the pile this
      turn unless no other card but a wild may go, announcing whenever it may.

    Ties are broken by a generator seeded with ``seed``, so the bot is
    deterministic given its seed. With ``flat_discards``, a player who
    :func:`pays_flat` scores its discards without their penalty values
    (:func:`discard_scores` with ``flat``), as :class:`~hand_rummy.search.SearchBot`
    does.
    """

    def __init__(self, seed: int = 0, *, flat_discards: bool = False) -> None:
        expect_seed(seed)
        expect(flat_discards, bool, "flat_discards")
        self.seed = seed
        self.flat_discards = flat_discards
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        if self.flat_discards:
            return f"GreedyBot(seed={self.seed}, flat_discards=True)"
        return f"GreedyBot(seed={self.seed})"

    def choose(self, view: PlayerView) -> Action:
        return self.decide(Choice.of_view(view))

    def decide(self, decision: Choice) -> Action:
        """The action described above, from ``decision.legal`` and ``decision.view``."""
        expect(decision, Choice, "the decision (Choice.of_view(view))")
        actions = list(decision.legal)
        if not actions:
            raise _no_move(decision)
        if len(actions) == 1:
            return actions[0]
        if any(isinstance(a, (ClaimRedeal, PassRedeal)) for a in actions):
            return next((a for a in actions if isinstance(a, PassRedeal)), actions[0])
        view = decision.view
        if any(isinstance(a, (DrawStock, TakeDiscard)) for a in actions):
            return self._draw(view, actions)
        rules = view.ruleset_rules()
        lay_downs = [a for a in actions if isinstance(a, LayDown)]
        if lay_downs:
            return self._lay_down(view, rules, lay_downs)
        lay_off = self._lay_off(view, rules, [a for a in actions if isinstance(a, LayOff)])
        if lay_off is not None:
            return lay_off
        exchange = self._exchange(view, rules, [a for a in actions if isinstance(a, Exchange)])
        if exchange is not None:
            return exchange
        discards = [a for a in actions if isinstance(a, Discard)]
        if discards:
            return self._discard(view, rules, discards)
        # what is left must be done (an obligation): any of it will do
        return self._rng.choice(actions)

    # --- drawing --------------------------------------------------------------------------

    def _draw(self, view: PlayerView, actions: list[Action]) -> Action:
        take = next((a for a in actions if isinstance(a, TakeDiscard)), None)
        draw = next((a for a in actions if isinstance(a, DrawStock)), None)
        if take is not None and (draw is None or self._completes_meld(view, view.discards[-1])):
            return take
        assert draw is not None
        return draw

    @staticmethod
    def _completes_meld(view: PlayerView, card: Card) -> bool:
        """Whether ``card`` added to the hand is part of a meld the hand can make."""
        rules = view.ruleset_rules()
        finder = MeldFinder.of(rules)
        hand = counts(view.hand)
        hand[card.index] += 1
        demoted = list(view.demoted)
        taken_as_natural = rules.is_wild(card) and rules.ruleset.demotion.demotes(card, rules.wilds)
        if taken_as_natural:
            demoted.append(card)
        extended = finder.extend(hand, demoted)
        face = 53 + card.index if taken_as_natural else card.index
        return any(face in found.used for found in finder.melds(extended))

    # --- melding --------------------------------------------------------------------------

    def _lay_down(self, view: PlayerView, rules: MeldRules, lay_downs: list[LayDown]) -> Action:
        # the finder has valued every meld of the hand (the lay-downs are made of them)
        finder = MeldFinder.of(rules)
        hand = finder.extend(counts(view.hand), view.demoted)
        values = {found.meld: found.points for found in finder.melds(hand)}

        def value(meld: Meld) -> int:
            points = values.get(meld)
            if points is None:
                points = judge_meld(meld, rules).points or 0
                values[meld] = points
            return points

        def key(action: LayDown) -> tuple[int, int]:
            size = sum(len(m) for m in action.melds)
            if view.opened[view.seat]:
                return size, sum(value(m) for m in action.melds)  # longest melds first
            return sum(value(m) for m in action.melds), size  # the best opening

        best = max(key(a) for a in lay_downs)
        return self._rng.choice([a for a in lay_downs if key(a) == best])

    def _lay_off(self, view: PlayerView, rules: MeldRules, lay_offs: list[LayOff]) -> Action | None:
        wild_ok = len(view.hand) <= 2
        fit = [a for a in lay_offs if wild_ok or not _is_wild(a.card, rules)]
        if not fit:
            return None
        # naturals before wilds; the highest penalty first
        return max(fit, key=lambda a: (not _is_wild(a.card, rules), card_penalty(a.card, rules)))

    def _exchange(
        self, view: PlayerView, rules: MeldRules, exchanges: list[Exchange]
    ) -> Action | None:
        if not exchanges or _exchanges_this_turn(view) >= 2:
            return None
        finder = MeldFinder.of(rules)
        table = {meld.id: meld.meld for meld in view.table}
        for action in exchanges:
            meld = table[action.target]
            wilds = [
                (card, role)
                for i, (card, role) in enumerate(zip(meld.cards, meld.roles))
                if role is not None and i not in meld.demoted and rules.is_wild(card)
            ]
            if not wilds:
                continue
            hand = counts(view.hand)
            for card in action.cards:
                hand[card.index] -= 1
            wild = next((w for w, r in wilds if r in action.cards), wilds[0][0])
            hand[wild.index] += 1
            extended = finder.extend(hand, view.demoted)
            if any(wild.index in found.used for found in finder.melds(extended)):
                return action
        return None

    # --- discarding -----------------------------------------------------------------------

    def _discard(self, view: PlayerView, rules: MeldRules, discards: list[Discard]) -> Action:
        scores = discard_scores(view.hand, rules, flat=self.flat_discards and pays_flat(view))
        natural = [a for a in discards if not _is_wild(a.card, rules)]
        pool = natural or discards
        # the card taken this turn goes back only when nothing else may: two bots that each
        # take a card and throw it back would pass it between them for ever
        kept = [a for a in pool if a.card != view.current.taken]
        pool = kept or pool
        best = max(scores[a.card] for a in pool)
        cards = sorted({a.card for a in pool if scores[a.card] == best})
        card = self._rng.choice(cards)
        chosen = [a for a in pool if a.card == card]
        announced = [a for a in chosen if a.announce]
        return announced[0] if announced else chosen[0]


def pays_flat(view: PlayerView) -> bool:
    """Whether the player would pay a flat penalty, whatever it holds, if the round ended now.

    So it is under a flat never-opened penalty (000: 100) while the player has
    not opened (with ``personal_never_opened``, laid no meld itself, whatever its
    partner did); its cards' penalty values then cost it nothing.
    """
    scoring = view.ruleset.scoring
    if scoring.never_opened is None:
        return False
    if scoring.personal_never_opened:
        return not any(meld.owner == view.seat for meld in view.table)
    return not view.opened[view.seat]


def discard_scores(
    hand: Sequence[Card], rules: MeldRules, *, flat: bool = False
) -> dict[Card, float]:
    """How much each card of ``hand`` is worth discarding: higher is a better discard.

    A card's penalty value, less :data:`NEAR_WEIGHT` for every near-meld link
    it has (another card of its rank in a different suit; a card of its suit
    one or two ranks away, half as much for two) and less :data:`MELD_WEIGHT`
    when it is part of a meld of natural cards. Wild cards score ``-inf``.
    With ``flat`` (the hand pays a flat penalty, see :data:`FLAT_WEIGHT`) the
    penalty value counts ``-FLAT_WEIGHT`` times instead of once.
    """
    weight = -FLAT_WEIGHT if flat else 1.0
    finder = MeldFinder.of(rules)
    naturals = [c for c in hand if not _is_wild(c, rules)]
    in_meld = {
        face
        for found in finder.melds(counts(naturals))
        for face in found.used
        if not any(_is_wild(c, rules) for c in found.meld.cards)
    }
    # each other natural card counts once, however many copies are held
    suits_of: dict[Rank, set[Suit]] = {}
    ranks_of: dict[Suit, set[Rank]] = {}
    for other in set(naturals):
        if other.rank is not None and other.suit is not None:
            suits_of.setdefault(other.rank, set()).add(other.suit)
            ranks_of.setdefault(other.suit, set()).add(other.rank)
    scores: dict[Card, float] = {}
    for card in set(hand):
        if _is_wild(card, rules):
            scores[card] = float("-inf")
            continue
        links = 0.0
        if card.rank is not None and card.suit is not None:
            links += len(suits_of.get(card.rank, set()) - {card.suit})
            for rank in ranks_of.get(card.suit, ()):
                gap = _gap(card.rank, rank)
                if gap == 1:
                    links += 1
                elif gap == 2:
                    links += 0.5
        score = weight * card_penalty(card, rules) - NEAR_WEIGHT * links
        if card.index in in_meld:
            score -= MELD_WEIGHT
        scores[card] = score
    return scores


def _gap(a: Rank | None, b: Rank | None) -> int:
    """The distance between two ranks in a run, the Ace counting low or high."""
    if a is None or b is None:
        return 99
    gap = abs(int(a) - int(b))
    return min(gap, 13 - gap) if Rank.ACE in (a, b) else gap


def _is_wild(card: Card, rules: MeldRules) -> bool:
    return rules.is_wild(card)


def _exchanges_this_turn(view: PlayerView) -> int:
    """How many exchanges the player to move has made since drawing."""
    made = 0
    for action in reversed(view.history):
        if isinstance(action, (DrawStock, TakeDiscard)):
            break
        made += isinstance(action, Exchange)
    return made


# --- playing whole rounds and matches ---------------------------------------------------------


def _askers(bots: Sequence[Bot], players: int, what: str) -> list[Callable[[Choice], Action]]:
    """How to ask each seat's bot, once ``bots`` are checked to be one bot per seat."""
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidStateError(f"the bots must be a list, one per seat, not {type(bots).__name__}")
    if len(bots) != players:
        raise InvalidStateError(f"{len(bots)} bots for {what} of {players} players")
    for seat, bot in enumerate(bots):
        # refused now rather than when the seat first moves, maybe deep into the game
        if not callable(getattr(bot, "choose", None)):
            raise InvalidStateError(
                f"the bot of seat {seat} is not a bot: {bot!r:.60} has no choose(view) method"
            )
    return [asker(bot) for bot in bots]


MAX_ROUND_DECISIONS = 20_000
"""Decisions after which :func:`play_round`, :func:`play_match` and the tournament runner
give up a round that has not ended: a stock renewed without end (Gulf Hand, Rommé's fresh
stock) lets players who never lay down play one round for ever. Random rounds end within
about 2,000 decisions."""

MAX_UNSCORED_IN_A_ROW = 1_000
"""Unscored rounds in a row after which :func:`play_match` and the tournament runner give a
match up. Under 000 a round whose stock runs out does not count and the same dealer deals
again, so players who never lay down play for ever. Random players in four-player Levantine
Hand leave about 97 % of rounds unscored (a match of seven scored rounds takes about 210),
and a thousand in a row comes less than once in 10^12 matches."""


class EndlessPlayError(HandRummyError):
    """Bots played past a bound without ending the round or the match.

    ``game`` is the :class:`~hand_rummy.round.Round` or :class:`~hand_rummy.match.Match` as
    it stood when play stopped, so nothing played is lost.
    """

    def __init__(self, message: str, game: Round | Match) -> None:
        super().__init__(message)
        self.game = game


def _bound(value: int | None, what: str) -> int | None:
    if value is not None:
        expect(value, int, what)
        if value < 1:
            raise InvalidStateError(f"{what} must be at least 1 (or None), not {value}")
    return value


def play_round(
    game: Round, bots: Sequence[Bot], *, max_decisions: int | None = MAX_ROUND_DECISIONS
) -> Round:
    """Play ``game`` to its end, seat ``i`` choosing with ``bots[i]``; the finished round.

    Raises :class:`EndlessPlayError` if ``max_decisions`` decisions (``None``: no bound)
    leave the round unfinished.
    """
    expect(game, Round, "the round")
    askers = _askers(bots, game.players, "a round")
    limit = _bound(max_decisions, "max_decisions")
    decisions = 0
    while not game.is_over:
        if decisions == limit:
            raise EndlessPlayError(
                f"the round has not ended after {limit:,} decisions (max_decisions)", game
            )
        game = game.apply(askers[game.turn](Choice.of_round(game)))
        decisions += 1
    return game


def play_match(
    match: Match,
    bots: Sequence[Bot],
    *,
    max_decisions: int | None = MAX_ROUND_DECISIONS,
    max_unscored: int | None = MAX_UNSCORED_IN_A_ROW,
) -> Match:
    """Play ``match`` to its end, seat ``i`` choosing with ``bots[i]``; the finished match.

    Raises :class:`EndlessPlayError` if a round lasts ``max_decisions`` decisions without
    ending, or ``max_unscored`` rounds in a row end unscored and the match goes on (``None``:
    no bound).
    """
    expect(match, Match, "the match")
    askers = _askers(bots, match.players, "a match")
    limit = _bound(max_decisions, "max_decisions")
    unscored_limit = _bound(max_unscored, "max_unscored")
    decisions = unscored = 0
    played = len(match.rounds)
    while (game := match.current) is not None:
        if decisions == limit:
            raise EndlessPlayError(
                f"round {played + 1} has not ended after {limit:,} decisions (max_decisions)",
                match,
            )
        match = match.apply(askers[game.turn](Choice.of_round(game)))
        decisions += 1
        if len(match.rounds) != played:
            played, decisions = len(match.rounds), 0
            outcome = match.rounds[-1].outcome
            assert outcome is not None
            unscored = 0 if outcome.score.scored else unscored + 1
            if unscored == unscored_limit and match.current is not None:
                raise EndlessPlayError(
                    f"{unscored:,} rounds in a row ended unscored (max_unscored)", match
                )
    return match
