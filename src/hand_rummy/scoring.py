"""Scoring the end of a round: card penalties, the winner, Hands and their bonuses, teams.

>>> from hand_rummy.cards import parse_cards
>>> from hand_rummy.rules import presets
>>> rules = MeldRules.of(presets.levant, "8C")
>>> hand_value(parse_cards("KS 7D AC"), rules)
32
>>> end = RoundEnd.of([("", True), ("KS 7D AC", True), ("5H", False)], went_out=0)
>>> score = score_round(end, rules)
>>> score.scores
(-30, 32, 100)

Every score comes with its breakdown: what each card left costs, what the
score starts from, each multiplier, and the rules applied:

>>> anna = score.breakdown[1]
>>> anna.basis.value, anna.values, anna.base, anna.factors, anna.score
('cards', (10, 7, 15), 32, (), 32)
>>> [rule.id for rule in score.breakdown[2].rules]
['levant.scoring.never-opened-flat']
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Iterable, Sequence

import attrs

from hand_rummy.cards import JOKER, Card, Rank, Suit, format_cards, parse_card
from hand_rummy.errors import InvalidStateError, StrictValues, expect, number
from hand_rummy.melds import CardsLike, MeldRules, read_cards
from hand_rummy.rulebook import cite
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.scoring import PartnershipScoring
from hand_rummy.rules.stock import StockEnd
from hand_rummy.verdict import Citation, Topic

__all__ = [
    "PlayerEnd",
    "PlayerScore",
    "RoundEnd",
    "RoundScore",
    "ScoreBasis",
    "ScoreFactor",
    "TeamScore",
    "card_penalty",
    "check_copies",
    "check_players",
    "hand_value",
    "score_bound",
    "score_round",
    "seats_refusal",
]


def card_penalty(card: Card, rules: MeldRules, *, demoted: bool = False) -> int:
    """What ``card`` costs when left in the hand of a player who has opened.

    A ``demoted`` card is a wild taken from the discard pile, which plays as a natural
    Ace from then on (000), so it costs what a natural Ace costs (RULES-MATRIX L5).
    """
    expect(card, Card, "the card")
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    penalties = rules.ruleset.penalties
    if demoted:
        return penalties.natural(_ACE)
    if rules.is_wild(card):
        return penalties.wild
    return penalties.natural(rules.wilds.natural_as(card))


_ACE = Card(Rank.ACE, Suit.SPADES)
"""An Ace: what a demoted card costs does not depend on its suit."""


def hand_value(cards: Iterable[Card], rules: MeldRules) -> int:
    """The penalty points of ``cards`` left in the hand of a player who has opened.

    A hand that holds a face more often than the deck does, the turned indicator
    counted, is refused: no deal could give it.
    """
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    held = read_cards(cards)
    indicator = rules.wilds.indicator
    if indicator is None:
        check_copies(held, rules.ruleset, "the cards")
    else:
        check_copies((*held, indicator), rules.ruleset, "the cards and the indicator")
    return sum(card_penalty(card, rules) for card in held)


def check_players(count: int, ruleset: Ruleset) -> None:
    """Raise :class:`InvalidStateError` unless ``ruleset`` seats ``count`` players.

    >>> from hand_rummy.rules import presets
    >>> check_players(7, presets.romme)
    Traceback (most recent call last):
    ...
    hand_rummy.errors.InvalidStateError: romme is for 2 to 6 players, each for themselves, not 7
    """
    if not ruleset.players.allows(count):
        raise InvalidStateError(seats_refusal(count, ruleset))


def seats_refusal(count: int, ruleset: Ruleset) -> str:
    """Why ``ruleset`` does not seat ``count`` players, in words: the players it is for."""
    return f"{ruleset.title} is for {ruleset.players.describe().rstrip('.')}, not {number(count)}"


def check_copies(cards: Iterable[Card], ruleset: Ruleset, where: str) -> None:
    """Raise :class:`InvalidStateError` if ``cards`` hold a face more often than the deck of
    ``ruleset`` does: no physical deal could show them. ``where`` names the cards.

    >>> from hand_rummy.rules import presets
    >>> check_copies(read_cards("KS KS 7D KS"), presets.classic, "the hands")
    Traceback (most recent call last):
    ...
    hand_rummy.errors.InvalidStateError: the hands hold 3 × K♠, but the deck has only 2
    """
    deck = ruleset.deck
    counts = Counter(cards)
    # score_round checks every round the engine ends: the common case is counted in C, and
    # only a refusal sorts the cards, to name the first in their order
    if counts[JOKER] <= deck.jokers and max(counts.values(), default=0) <= deck.packs:
        return
    for card, count in sorted(counts.items()):
        held = deck.copies(card.is_joker)
        if count > held:
            has = f"only {held}" if held else "none"
            raise InvalidStateError(f"{where} hold {count} × {card}, but the deck has {has}")


@attrs.frozen
class PlayerEnd:
    """One player at the end of a round: the cards still held and whether they had opened.

    ``demoted`` are the cards of ``hand`` that are wild cards taken from the discard pile
    (000 §Exchanging wild cards): they play as natural Aces, and cost as much.
    """

    hand: tuple[Card, ...] = ()
    opened: bool = False
    demoted: tuple[Card, ...] = ()


@attrs.frozen
class RoundEnd:
    """A described end of round, as the referee's ``round_score`` question gives it.

    ``went_out`` is the seat that got rid of every card, or ``None`` when the
    stock ended the round. ``hand`` marks a Hand finish. ``melded`` are the
    cards the winner put on the table in the finishing turn (its new melds, as
    lay-offs and exchanges left them, in a Hand) and ``last_discard`` the
    final discard, for bonuses that depend on them. ``teams`` lists the seats
    of each team; by default the ruleset's seating decides.

    A wild card taken from the discard pile plays as a natural Ace (000): where
    such a card is among ``melded``, ``melded_demoted`` names the Ace it plays as
    (a wild Ace itself, a joker the Ace its meld gives it), which the colour and
    suit bonuses count in place of the card; ``last_discard_demoted`` says that
    the last discard was such a card, so not a wild one.
    """

    players: tuple[PlayerEnd, ...]
    went_out: int | None = None
    hand: bool = False
    melded: tuple[Card, ...] = ()
    last_discard: Card | None = None
    teams: tuple[tuple[int, ...], ...] | None = None
    melded_demoted: tuple[Card, ...] = ()
    last_discard_demoted: bool = False

    def __attrs_post_init__(self) -> None:
        if not self._plainly_typed():
            self._expect_types()
        if self.went_out is not None and not 0 <= self.went_out < len(self.players):
            raise InvalidStateError(
                f"seat {self.went_out} went out, but there are {len(self.players)} players"
            )
        if self.hand and self.went_out is None:
            raise InvalidStateError("a Hand finish needs the seat that went out")
        for seat, player in enumerate(self.players):
            if player.demoted and Counter(player.demoted) - Counter(player.hand):
                raise InvalidStateError(
                    f"players[{seat}].demoted names {format_cards(player.demoted)}, "
                    f"which the hand {format_cards(player.hand) or '(empty)'} does not hold"
                )
        for card in self.melded_demoted:
            if card.rank is not Rank.ACE:
                raise InvalidStateError(
                    f"melded_demoted names {card}: a card taken from the discard pile plays "
                    "as an Ace"
                )
        if self.last_discard_demoted and self.last_discard is None:
            raise InvalidStateError("last_discard_demoted is set, but there is no last discard")
        if self.went_out is not None and self.players[self.went_out].hand:
            shown = format_cards(self.players[self.went_out].hand)
            raise InvalidStateError(f"seat {self.went_out} went out but still holds {shown}")
        for seat, player in enumerate(self.players):
            # the round ends the moment a hand empties, and that player went out
            if not player.hand and seat != self.went_out:
                ended = (
                    "the stock ended the round"
                    if self.went_out is None
                    else f"seat {self.went_out} went out"
                )
                raise InvalidStateError(
                    f"seat {seat} holds no card, but {ended}: only the seat that goes out "
                    "ends a round with an empty hand"
                )
        if self.teams is not None:
            if len(self.teams) < 2 or not all(self.teams):
                raise InvalidStateError("the teams must be two or more, each of one seat or more")
            seats = sorted(s for team in self.teams for s in team)
            if seats != list(range(len(self.players))):
                raise InvalidStateError("the teams must name every seat exactly once")

    def _plainly_typed(self) -> bool:
        """Whether every field has exactly the type that the engine gives it.

        One quick pass, so that the round ends the engine scores (every round, and every
        estimate of a search) skip the checks field by field; those accept more (lists,
        subclasses) and name what is wrong.
        """
        return (
            type(self.players) is tuple
            and all(
                type(p) is PlayerEnd
                and type(p.opened) is bool
                and type(p.hand) is tuple
                and all(type(c) is Card for c in p.hand)
                and type(p.demoted) is tuple
                and all(type(c) is Card for c in p.demoted)
                for p in self.players
            )
            and (self.went_out is None or type(self.went_out) is int)
            and type(self.hand) is bool
            and type(self.melded) is tuple
            and all(type(c) is Card for c in self.melded)
            and (self.last_discard is None or type(self.last_discard) is Card)
            and type(self.melded_demoted) is tuple
            and all(type(c) is Card for c in self.melded_demoted)
            and type(self.last_discard_demoted) is bool
            and (
                self.teams is None
                or (
                    type(self.teams) is tuple
                    and all(type(t) is tuple and all(type(s) is int for s in t) for t in self.teams)
                )
            )
        )

    def _expect_types(self) -> None:
        expect(self.players, (tuple, list), "the players")
        for seat, player in enumerate(self.players):
            expect(player, PlayerEnd, f"players[{seat}]")
            _expect_cards(player.hand, f"players[{seat}].hand")
            expect(player.opened, bool, f"players[{seat}].opened")
            _expect_cards(player.demoted, f"players[{seat}].demoted")
        if self.went_out is not None:
            expect(self.went_out, int, "went_out (the seat that went out, or None)")
        expect(self.hand, bool, "hand (whether the round ended with a Hand)")
        _expect_cards(self.melded, "melded")
        if self.last_discard is not None:
            expect(self.last_discard, Card, "last_discard")
        _expect_cards(self.melded_demoted, "melded_demoted")
        expect(self.last_discard_demoted, bool, "last_discard_demoted")
        if self.teams is not None:
            expect(self.teams, (tuple, list), "the teams")
            for team in self.teams:
                expect(team, (tuple, list), "each team")
                for seat in team:
                    expect(seat, int, "each seat of a team")

    @classmethod
    def of(
        cls,
        players: Sequence[tuple[CardsLike, bool]],
        went_out: int | None,
        *,
        hand: bool = False,
        melded: CardsLike = (),
        last_discard: Card | str | None = None,
        teams: Sequence[Sequence[int]] | None = None,
        melded_demoted: CardsLike = (),
        last_discard_demoted: bool = False,
    ) -> RoundEnd:
        """A round end from card text or cards: ``players`` holds one ``(cards, opened)``
        pair per seat, or ``(cards, opened, demoted)`` where the hand holds demoted cards."""
        if isinstance(players, str) or not isinstance(players, Iterable):
            raise InvalidStateError(
                f"the players must be a list of (cards, opened) pairs, not {type(players).__name__}"
            )
        ends = []
        for seat, player in enumerate(players):
            # unpacked here, so that a wrong entry is named by its seat, not by Python
            if (
                isinstance(player, str)
                or not isinstance(player, Sequence)
                or len(player) not in (2, 3)
            ):
                raise InvalidStateError(
                    f"players[{seat}] must be a pair (cards, opened) or a triple (cards, opened, "
                    f"demoted), not {player!r:.60}"
                )
            demoted = read_cards(player[2]) if len(player) == 3 else ()
            ends.append(PlayerEnd(read_cards(player[0]), player[1], demoted))
        seats: list[tuple[int, ...]] | None = None
        if teams is not None:
            expect(teams, Iterable, "the teams")
            seats = []
            for team in teams:
                expect(team, Iterable, "each team")
                seats.append(tuple(team))
        return cls(
            tuple(ends),
            went_out,
            hand,
            read_cards(melded),
            parse_card(last_discard) if isinstance(last_discard, str) else last_discard,
            tuple(seats) if seats is not None else None,
            read_cards(melded_demoted),
            last_discard_demoted,
        )


def _expect_cards(cards: Iterable[object], what: str) -> None:
    expect(cards, (tuple, list), what)
    for card in cards:
        expect(card, Card, f"each card of {what}")


class ScoreBasis(StrictValues, enum.Enum):
    """What a player's score for the round starts from, before any multiplier."""

    WENT_OUT = "went_out"
    """The player went out and scores the winner's score."""
    CARDS = "cards"
    """The player pays for the cards left in hand."""
    NEVER_OPENED = "never_opened"
    """The player never opened and scores the flat never-opened penalty."""
    PARTNER_OF_WINNER = "partner_of_winner"
    """The winner's partner, whose cards do not count where the winner's team scores alone."""
    NOT_SCORED = "not_scored"
    """The round does not count."""


@attrs.frozen
class ScoreFactor:
    """One multiplier of a player's score: the Hand doubling or an Egyptian bonus."""

    name: str
    """``hand``, ``wild discard``, ``one colour`` or ``one suit``."""
    factor: int
    rule: Citation


@attrs.frozen
class PlayerScore:
    """One player's score for the round, line by line, so that a dispute can follow it.

    ``values`` is what each card left in ``cards`` costs, ``cards_total`` their
    sum; ``base`` is what the score starts from (by ``basis``), and ``score`` is
    ``base`` times every factor of ``factors``. ``rules`` cites the rules that
    give the base (and, in team play, a team's opening).
    """

    seat: int
    basis: ScoreBasis
    cards: tuple[Card, ...]
    values: tuple[int, ...]
    cards_total: int
    opened: bool
    """Whether the player counts as opened (in team play, maybe through the partner)."""
    base: int
    factors: tuple[ScoreFactor, ...]
    score: int
    rules: tuple[Citation, ...]


@attrs.frozen
class TeamScore:
    """A team's score for the round: its players' scores and how they make the team's."""

    seats: tuple[int, ...]
    scores: tuple[int, ...]
    total: int
    rule: Citation


@attrs.frozen
class RoundScore:
    """The scores of one round, per seat and (in team play) per team.

    ``breakdown`` and ``team_breakdown`` explain the scores line by line; they are
    worked out with them, so they are left out when scores are compared.
    """

    scores: tuple[int, ...]
    team_scores: tuple[int, ...] | None = None
    scored: bool = True
    """False for a round that does not count (ended unscored, or a no-contest)."""
    factor: int = 1
    """The product of the Hand doubling and any bonuses applied."""
    breakdown: tuple[PlayerScore, ...] = attrs.field(default=(), eq=False, repr=False)
    """One line per seat: cards and their values, the base, each multiplier, the rules."""
    team_breakdown: tuple[TeamScore, ...] = attrs.field(default=(), eq=False, repr=False)
    """One line per team, in team play."""


def _factors(end: RoundEnd, rules: MeldRules) -> list[ScoreFactor]:
    """The multipliers of a Hand: its own doubling, then the Egyptian bonuses that apply."""
    ruleset = rules.ruleset
    scoring = ruleset.scoring
    if not end.hand:
        return []
    factors = [ScoreFactor("hand", scoring.hand_factor, cite(ruleset, Topic.SCORE_HAND)[0])]
    bonus = scoring.egyptian
    if bonus is None:
        return factors
    egyptian = cite(ruleset, Topic.SCORE_EGYPTIAN)[0]
    last = end.last_discard
    if last is not None and rules.is_wild(last) and not end.last_discard_demoted:
        factors.append(ScoreFactor("wild discard", bonus.wild_discard, egyptian))
    # a demoted card counts as the natural Ace it plays as, its face as nothing
    faces = _demoted_faces(end.melded_demoted, end.melded, rules)
    naturals = [rules.wilds.natural_as(c) for c in faces if not rules.is_wild(c)]
    naturals += end.melded_demoted
    if naturals:
        suits = {c.suit for c in naturals}
        colours = {c.suit.is_red for c in naturals if c.suit is not None}
        if len(suits) == 1:
            if bonus.suit_also_colour:
                factors.append(ScoreFactor("one colour", bonus.colour, egyptian))
            factors.append(ScoreFactor("one suit", bonus.suit_factor, egyptian))
        elif len(colours) == 1:
            factors.append(ScoreFactor("one colour", bonus.colour, egyptian))
    return factors


def _demoted_faces(plays: Sequence[Card], melded: Sequence[Card], rules: MeldRules) -> list[Card]:
    """``melded`` less the demoted cards that play as ``plays``: for each, the wild Ace it
    names, or else a joker (which plays as any Ace); refused where ``melded`` holds neither
    as a card that these rules demote."""
    faces = list(melded)
    for ace in plays:
        face = next(
            (
                f
                for f in (ace, JOKER)
                if f in faces and rules.ruleset.demotion.demotes(f, rules.wilds)
            ),
            None,
        )
        if face is None:
            raise InvalidStateError(
                f"melded_demoted names {ace}, but the cards melded hold no card taken from the "
                "discard pile that could play as it"
            )
        faces.remove(face)
    return faces


def _product(factors: Sequence[ScoreFactor]) -> int:
    return math.prod(f.factor for f in factors)


def _values(player: PlayerEnd, rules: MeldRules) -> tuple[int, ...]:
    """What each card of ``player``'s hand costs, the demoted ones as natural Aces."""
    if not player.demoted:
        return tuple(card_penalty(card, rules) for card in player.hand)
    demotion = rules.ruleset.demotion
    waiting = Counter(player.demoted)
    values = []
    for card in player.hand:
        demoted = waiting[card] > 0
        if demoted:
            if not demotion.demotes(card, rules.wilds):
                raise InvalidStateError(
                    f"{card} is named as taken from the discard pile and demoted, but these "
                    "rules demote no such card"
                )
            waiting[card] -= 1
        values.append(card_penalty(card, rules, demoted=demoted))
    return tuple(values)


def score_bound(ruleset: Ruleset, players: int) -> int:
    """A bound on the size of any round score of ``ruleset`` with ``players`` seats, of a
    seat or of a team: for a game that declares the range of its returns (OpenSpiel's
    utilities), not a figure any round comes near.

    No seat holds more than the deck, every card of which costs at most the dearest
    penalty; a seat's base is that, the flat penalty of one who never opened, or the
    winner's score, whichever is largest in size; a Hand multiplies it by its own factor
    and by every Egyptian bonus that can come together (a wild discard, and one suit with
    its colour where both count); and a team adds its seats' scores.
    """
    expect(ruleset, Ruleset, "the ruleset")
    expect(players, int, "the number of players")
    penalties, scoring = ruleset.penalties, ruleset.scoring
    dearest = max(penalties.ace, penalties.court, penalties.wild, 9)  # 2 to 9: face value
    base = max(len(ruleset.deck.cards()) * dearest, abs(scoring.winner), scoring.never_opened or 0)
    factor = scoring.hand_factor
    bonus = scoring.egyptian
    if bonus is not None:
        suit = bonus.suit_factor * (bonus.colour if bonus.suit_also_colour else 1)
        factor *= bonus.wild_discard * max(bonus.colour, suit)
    team = max(map(len, ruleset.players.teams(players)))
    return base * factor * team


def score_round(end: RoundEnd, rules: MeldRules) -> RoundScore:
    """Score a described end of round under ``rules``, with the breakdown of every score.

    An end that the rules make impossible is refused: a number of players that
    they do not seat (:func:`check_players`), or cards shown (hands, the cards
    melded, the last discard and the turned indicator) more often than the deck
    holds them (:func:`check_copies`).
    """
    expect(end, RoundEnd, "the end of the round")
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    ruleset = rules.ruleset
    scoring = ruleset.scoring
    count = len(end.players)
    check_players(count, ruleset)
    if end.teams is not None and not ruleset.players.partnerships:
        # teams would add a team total that these rules never score
        raise InvalidStateError(f"{ruleset.title} is played each for themselves, without teams")
    if end.teams is not None:
        seated = sorted(map(len, ruleset.players.teams(count)))
        if sorted(map(len, end.teams)) != seated:
            # the seats may be numbered otherwise, but the teams are the rules' own
            shape = " and ".join(str(size) for size in seated)
            given = " and ".join(str(len(team)) for team in end.teams)
            raise InvalidStateError(
                f"{ruleset.title} seats {count} players in teams of {shape}, not {given}"
            )
    shown = [card for player in end.players for card in player.hand]
    shown += end.melded
    where = "the hands, the cards melded and the last discard"
    if end.last_discard is not None:
        shown.append(end.last_discard)
    if rules.wilds.indicator is not None:
        # the indicator lies face up beside the stock all round: no hand can hold it too
        shown.append(rules.wilds.indicator)
        where = "the hands, the cards melded, the last discard and the indicator"
    check_copies(shown, ruleset, where)
    _demoted_faces(end.melded_demoted, end.melded, rules)  # refuses what could not be so
    last = end.last_discard
    if end.last_discard_demoted and last and not ruleset.demotion.demotes(last, rules.wilds):
        raise InvalidStateError(
            f"the last discard {last} is named as demoted, but these rules demote no such card"
        )
    teams = end.teams
    if teams is None and ruleset.players.partnerships and count == 4:
        teams = ruleset.players.teams(count)
    team_of = {seat: t for t, team in enumerate(teams or ()) for seat in team}
    # going out lays every card on the table, so the seat that went out has opened, whatever
    # the description says (in team play its partner counts as opened through it)
    opened = [p.opened or seat == end.went_out for seat, p in enumerate(end.players)]
    shared = ruleset.opening.shared_by_team and not scoring.personal_never_opened
    if shared and teams is not None:
        opened = [any(opened[s] for s in teams[team_of[i]]) for i in range(count)]
    winner = end.went_out
    scored = winner is not None or ruleset.stock.end is StockEnd.SCORE_HANDS
    factors = _factors(end, rules) if winner is not None else []
    partners: set[int] = set()
    winner_team = scoring.partnership is PartnershipScoring.WINNER_TEAM
    if teams is not None and winner is not None and winner_team:
        partners = set(teams[team_of[winner]]) - {winner}

    def line(seat: int) -> PlayerScore:
        player = end.players[seat]
        values = _values(player, rules)
        total = sum(values)
        own: tuple[ScoreFactor, ...] = tuple(factors)
        topics: tuple[Topic, ...]
        if not scored:
            basis, base, own, topics = ScoreBasis.NOT_SCORED, 0, (), (Topic.STOCK,)
        elif seat == winner:
            basis, base, topics = ScoreBasis.WENT_OUT, scoring.winner, (Topic.SCORE_WINNER,)
            if not scoring.hand_doubles_winner:
                own = ()
        elif seat in partners:
            basis, base, own, topics = ScoreBasis.PARTNER_OF_WINNER, 0, (), (Topic.SCORE_TEAMS,)
        elif not opened[seat] and scoring.never_opened is not None:
            basis, base = ScoreBasis.NEVER_OPENED, scoring.never_opened
            topics = (Topic.SCORE_NEVER_OPENED,)
        else:
            basis, base = ScoreBasis.CARDS, total
            topics = (Topic.SCORE_CARDS,)
            if not player.opened:
                # a player who never laid down: the cards count (by the rules, or the team)
                topics += (
                    (Topic.SCORE_TEAM_OPENED,) if opened[seat] else (Topic.SCORE_NEVER_OPENED,)
                )
        if winner is None and scored:
            topics = (Topic.STOCK, *topics)
        return PlayerScore(
            seat,
            basis,
            player.hand,
            values,
            total,
            opened[seat],
            base,
            own,
            base * _product(own),
            cite(ruleset, *topics),
        )

    lines = tuple(line(seat) for seat in range(count))
    scores = tuple(p.score for p in lines)
    team_lines: tuple[TeamScore, ...] = ()
    if teams is not None:
        team_rule = cite(ruleset, Topic.SCORE_TEAMS)[0]
        team_lines = tuple(
            TeamScore(
                tuple(team), tuple(scores[s] for s in team), sum(scores[s] for s in team), team_rule
            )
            for team in teams
        )
    return RoundScore(
        scores,
        tuple(t.total for t in team_lines) if teams is not None else None,
        scored=scored,
        factor=_product(factors),
        breakdown=lines,
        team_breakdown=team_lines,
    )
