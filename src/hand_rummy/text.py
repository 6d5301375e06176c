"""Plain-text pictures of a round and of a player's view: what ``print`` shows.

``str(game)`` draws the whole table with every hand face up (a round knows every
card); ``str(view)`` draws what one player sees, the other hands as card counts.
Both read the state alone, never the preset's name, so they draw every ruleset.

>>> import hand_rummy as hr
>>> game = hr.Round.deal(hr.rulesets.romme, players=2, seed=4)
>>> game = game.apply(hr.Discard(hr.Card.parse("3C"))).apply(hr.DrawStock())
>>> game
<Round romme, 2 players: seat 1 to play, stock 80, 0 melds on the table>
>>> print(game)  # doctest: +NORMALIZE_WHITESPACE
romme, 2 players; seat 0 dealt
Wild cards: the four jokers.
Wild limits: A meld is never all wild. Every meld holds at least 2 natural cards. Two wild
  cards may sit side by side only in a run of 4 or more.
Seat 1 to play; stock 80 cards; discard pile 1 card, 3♣ on top
Table: no melds yet
Seat 0: 13 cards  8♣ 9♣ 10♣ Q♣ A♦ 6♦ 7♦ 5♥ Q♥ K♥ 2♠ Q♠ K♠
Seat 1: 14 cards  4♣ 2♦ 4♦ 10♦ Q♦ 2♥ 3♥ 5♥ 8♥ 9♥ 9♥ 10♥ 8♠ JK
>>> print(game.view(0).hand_sizes, str(game.view(0)).splitlines()[-2:])
(13, 14) ['Seat 0 (you): 13 cards  8♣ 9♣ 10♣ Q♣ A♦ 6♦ 7♦ 5♥ Q♥ K♥ 2♠ Q♠ K♠', 'Seat 1: 14 cards']
"""

from __future__ import annotations

from collections.abc import Sequence

from hand_rummy.cards import JOKER, Card, format_cards
from hand_rummy.errors import expect
from hand_rummy.errors import number as number_text  # counted() has a parameter 'number'
from hand_rummy.match import Match
from hand_rummy.melds import MeldRules
from hand_rummy.round import Ending, Phase, PlayerView, Round
from hand_rummy.state import Outcome, TableMeld

__all__ = [
    "counted",
    "describe_wilds",
    "match_summary",
    "match_text",
    "round_summary",
    "round_text",
    "seat_name",
    "table_lines",
    "view_text",
]

_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def counted(number: int, thing: str) -> str:
    """``1 card``, ``2 cards``."""
    expect(number, int, "the number")
    expect(thing, str, "the thing counted")
    shown = number_text(number)
    return f"{shown} {thing}" if number == 1 else f"{shown} {thing}s"


def _copies(card: Card, copies: int) -> str:
    """Every copy of ``card`` in the deck, in words: ``the two A♠``, ``the four jokers``."""
    if copies == 1:
        return "the joker" if card.is_joker else f"the {card}"
    many = _COUNT_WORDS.get(copies, str(copies))
    return f"the {many} jokers" if card.is_joker else f"the {many} {card}"


def describe_wilds(rules: MeldRules) -> list[str]:
    """This round's wild cards in plain words, and what the jokers are when they are not wild.

    It reads only the rules' own answers (which cards are wild, what a joker
    counts as, the limits on wilds in a meld), never the preset's name.

    >>> from hand_rummy.rules import presets
    >>> for line in describe_wilds(MeldRules.of(presets.levant, indicator="2S")):
    ...     print(line)
    Indicator 2♠. Wild cards: the two A♠.
    The two jokers are not wild this round: each is a natural A♠.
    Wild limits: A meld is never all wild. At most 1 wild card per meld.
    """
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    wilds, deck = rules.wilds, rules.ruleset.deck
    head = f"Indicator {wilds.indicator}. " if wilds.indicator is not None else ""
    wild = sorted(wilds.wild)
    if wild:
        named = " and ".join(_copies(card, deck.copies(card.is_joker)) for card in wild)
        lines = [f"{head}Wild cards: {named}."]
    else:
        lines = [f"{head}No card is wild this round."]
    if deck.jokers and not wilds.is_wild(JOKER):
        jokers = _copies(JOKER, deck.jokers)
        jokers = jokers[0].upper() + jokers[1:]
        verb = "are" if deck.jokers > 1 else "is"
        plays = wilds.natural_as(JOKER)
        if plays != JOKER:
            each = "each is" if deck.jokers > 1 else "it is"
            lines.append(f"{jokers} {verb} not wild this round: {each} a natural {plays}.")
        else:
            lines.append(f"{jokers} {verb} not wild this round.")
    if wild:
        lines.append(f"Wild limits: {rules.ruleset.wild_limits.describe()}")
    return lines


def table_lines(
    table: Sequence[TableMeld], you: int | None = None, *, width: int | None = None
) -> list[str]:
    """The melds on the table, one a line: its number, its cards (a wild with the card it
    stands for) and who laid it (``you`` is the seat the picture is drawn for). A line
    longer than ``width`` puts the owner on a line of its own."""
    expect(table, Sequence, "the table")
    for laid in table:
        expect(laid, TableMeld, "a table meld")
    _expect_you(you)
    if width is not None:
        expect(width, int, "the width")
    if not table:
        return ["Table: no melds yet"]
    ids = [f"[{laid.id}]" for laid in table]
    melds = [laid.meld.describe() for laid in table]
    id_width, meld_width = max(map(len, ids)), max(map(len, melds))
    lines = ["Table:"]
    for number, meld, laid in zip(ids, melds, table, strict=True):
        owner = seat_name(laid.owner, you)
        row = f"  {number:>{id_width}} {meld:<{meld_width}}  {owner}"
        if width is not None and len(row) > width:
            lines.append(f"  {number:>{id_width}} {meld}")
            row = f"  {'':>{id_width}} {owner}"
        lines.append(row)
    return lines


def seat_name(seat: int, you: int | None = None) -> str:
    """``seat 2``, or ``seat 2 (you)`` for the seat a picture is drawn for."""
    expect(seat, int, "the seat")
    _expect_you(you)
    return f"seat {number_text(seat)} (you)" if seat == you else f"seat {number_text(seat)}"


def _expect_you(you: object) -> None:
    if you is not None:
        expect(you, int, "you (the seat the picture is drawn for)")


def round_text(game: Round) -> str:
    """The whole round in plain text, every hand face up (what ``str(game)`` gives)."""
    expect(game, Round, "the round")
    hands = [format_cards(game.hand(seat)) for seat in range(game.players)]
    return _picture(game, len(game.stock), hands, None)


def view_text(view: PlayerView) -> str:
    """What ``view.seat`` sees in plain text: its own hand, the other hands as counts (what
    ``str(view)`` gives)."""
    expect(view, PlayerView, "the view")
    hands: list[str | None] = [None] * view.players
    hands[view.seat] = format_cards(view.hand)
    return _picture(view, view.stock_size, hands, view.seat)


def round_summary(seen: Round | PlayerView) -> str:
    """One line on where a round stands (the ``repr`` of a round and of a view)."""
    expect(seen, (Round, PlayerView), "the round or view")
    name = "Round" if isinstance(seen, Round) else f"PlayerView of seat {seen.seat},"
    stock = len(seen.stock) if isinstance(seen, Round) else seen.stock_size
    table = counted(len(seen.table), "meld")
    players = counted(seen.players, "player")
    where = _where(seen)
    return f"<{name} {seen.ruleset.title}, {players}: {where}, stock {stock}, {table} on the table>"


def _where(seen: Round | PlayerView) -> str:
    """Who is to do what, or how the round ended."""
    if seen.outcome is not None:
        return _ending(seen.outcome)
    doing = {Phase.REDEAL: "to claim or pass a redeal", Phase.DRAW: "to draw"}
    return f"seat {seen.turn} {doing.get(seen.phase, 'to play')}"


def _ending(outcome: Outcome) -> str:
    winner = outcome.winner
    if outcome.ending is Ending.HAND:
        return f"over, seat {winner} went out with a Hand"
    if outcome.ending is Ending.WENT_OUT:
        return f"over, seat {winner} went out"
    if outcome.ending is Ending.STOCK:
        return "over, the stock ran out"
    return "over, a redeal was claimed"


def _demoted(seen: Round | PlayerView, seat: int) -> tuple[Card, ...]:
    """The wilds taken from the discard pile that ``seat`` holds, as far as ``seen`` shows."""
    if isinstance(seen, Round):
        return seen.hand_demoted(seat)
    if seat == seen.seat:
        return seen.demoted
    return seen.shown_demoted[seat] if seen.shown else ()


def _known(seen: Round | PlayerView, seat: int) -> tuple[Card, ...]:
    """The cards another seat of a view is known by all to hold (a round shows every hand
    whole)."""
    if isinstance(seen, Round) or seat == seen.seat or not seen.shown:
        return ()
    return seen.shown[seat]


def match_text(match: Match) -> str:
    """A match in plain text: its rules, the totals, and the round in play or the winners
    (what ``str(match)`` gives; ``str(match.current)`` draws the round in play)."""
    expect(match, Match, "the match")
    lines = [f"{match.ruleset.title}, {counted(match.players, 'player')}", match.policy.describe()]
    scored = len(match.scored_rounds)
    lines.append(f"{counted(len(match.rounds), 'round')} played, {scored} of them scored")
    lines.append("Totals: " + ", ".join(f"seat {s} {t}" for s, t in enumerate(match.totals)))
    if match.team_totals is not None and match.teams is not None:
        lines.append(
            "Teams: "
            + "; ".join(
                f"seats {' and '.join(map(str, team))} {total}"
                for team, total in zip(match.teams, match.team_totals, strict=True)
            )
        )
    where = _match_where(match)
    lines.append(f"{where[0].upper()}{where[1:]}")
    return "\n".join(lines)


def match_summary(match: Match) -> str:
    """One line on where a match stands (the ``repr`` of a match)."""
    expect(match, Match, "the match")
    totals = ", ".join(map(str, match.totals))
    players = counted(match.players, "player")
    return f"<Match {match.ruleset.title}, {players}: {_match_where(match)}, totals {totals}>"


def _match_where(match: Match) -> str:
    if match.current is None:
        winners = match.winners
        if len(winners) == 1:
            return f"over, seat {winners[0]} wins"
        return f"over, seats {', '.join(map(str, winners[:-1]))} and {winners[-1]} win"
    return f"round {match.round_number}, {_where(match.current)}"


def _picture(
    seen: Round | PlayerView, stock: int, hands: Sequence[str | None], you: int | None
) -> str:
    lines = [f"{seen.ruleset.title}, {counted(seen.players, 'player')}; seat {seen.dealer} dealt"]
    lines.extend(describe_wilds(MeldRules.of(seen.ruleset, seen.indicator)))
    pile = (
        f"discard pile {counted(len(seen.discards), 'card')}, {seen.discards[-1]} on top"
        if seen.discards
        else "discard pile empty"
    )
    where = _where(seen)
    lines.append(f"{where[0].upper()}{where[1:]}; stock {counted(stock, 'card')}; {pile}")
    if isinstance(seen, PlayerView) and seen.renewal:
        # what a player knows of a stock it cannot see (a round's picture lists no stock)
        drew = f"; you drew {format_cards(seen.drawn)} of them" if seen.drawn else ""
        lines.append(f"Stock renewed from the pile: {format_cards(seen.renewal)}{drew}")
    lines.extend(table_lines(seen.table, you))
    for seat, cards in enumerate(hands):
        held = seen.hand_size(seat) if isinstance(seen, Round) else seen.hand_sizes[seat]
        notes = [counted(held, "card")]
        if seen.opened[seat]:
            notes.append("opened")
        demoted = _demoted(seen, seat)
        if demoted:
            notes.append(f"{format_cards(demoted)} taken from the pile (natural)")
        known = _known(seen, seat)
        if known:
            notes.append(f"known to hold {format_cards(known)}")
        if seen.announced[seat]:
            notes.append("announced")
        shown = f"  {cards}" if cards else ""
        lines.append(f"{seat_name(seat, you).capitalize()}: {', '.join(notes)}{shown}")
    if seen.outcome is not None:
        score = seen.outcome.score
        scores = ", ".join(f"seat {seat} {points}" for seat, points in enumerate(score.scores))
        lines.append(f"Scores: {scores}" if score.scored else f"Not scored ({scores})")
    return "\n".join(lines)
