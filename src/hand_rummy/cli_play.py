"""``hand-rummy play``: a person against bots in the terminal, in plain-word commands.

Commands are read one a line from standard input, so the game can be driven
by a script as well as by a person. Cards are typed as ``10H``, ``TH`` or
``10♥``, or by their number in the hand as shown.

>>> parse_command("meld 7H AC=8H 9H / 5S 5D 5C").groups
(('7H', 'AC=8H', '9H'), ('5S', '5D', '5C'))
>>> parse_command("layoff AC=10H 3")
Command(verb='layoff', groups=(('AC=10H',),), target=3, announce=False)
>>> parse_command("discard ks announce")
Command(verb='discard', groups=(('ks',),), target=None, announce=True)
>>> parse_command("fly away")
Traceback (most recent call last):
...
hand_rummy.cli_play.CommandError: unknown command 'fly'; type help for the commands
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import textwrap
import typing
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TextIO

import attrs

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
from hand_rummy.cards import Card, format_cards, parse_card
from hand_rummy.cli_errors import error, refuse
from hand_rummy.errors import SEED_DIGITS, CardParseError, HandRummyError, error_text, shown
from hand_rummy.melds import Meld
from hand_rummy.round import Ending, Phase, PlayerView, Round
from hand_rummy.rules import FirstTurn, Ruleset
from hand_rummy.text import counted, describe_wilds, seat_name, table_lines
from hand_rummy.tournament.lengths import fixed_rounds
from hand_rummy.verdict import Violation

if TYPE_CHECKING:
    from hand_rummy.bots import Bot
    from hand_rummy.match import Match
    from hand_rummy.state import TableMeld

__all__ = [
    "Command",
    "CommandError",
    "Numbering",
    "action_for",
    "command",
    "describe_wilds",
    "parse_command",
    "render_view",
]

_HELP_HEAD = "Commands (cards as 10H, TH or 10♥, or by their number in your hand):"

_HELP_COMMANDS = (
    ("draw", "draw the top card of the stock"),
    ("take", "take the top card of the discard pile"),
    ("meld 7H 8H 9H", "lay down a meld; several with / or +: meld 7H 8H 9H / 5S 5D 5C"),
    ("meld 7H AC=8H 9H", "a wild card's role with ="),
    ("layoff 10H 3", "lay 10H off on table meld 3 (a wild: layoff AC=10H 3)"),
    ("exchange 8H 2", "put 8H into meld 2 and take its wild card"),
    (
        "discard KS",
        "discard, ending the turn (discard KS announce: announce the cards you have left, "
        "where the rules ask it)",
    ),
    ("claim / keep", "claim a redeal of a weak hand, or keep it"),
    ("hint", "show a good move"),
    ("show", "show the table again"),
    ("rules", "the rules of this game in words"),
    ("help", "this list"),
    ("quit", "leave the game"),
)

_HELP_TAIL = (
    "The numbers of your cards hold for the whole turn: a card you draw or take gets the next "
    "number, and the number of a card you play is not given to another one. Each of your turns "
    "starts with the hand sorted and numbered from 1 again."
)


USAGE = {
    "meld": "usage: meld 7H 8H 9H [/ 5S 5D 5C]  (a wild's role: AC=8H)",
    "layoff": "usage: layoff CARD MELD, e.g. layoff 10H 3 (a wild: layoff AC=10H 3)",
    "exchange": "usage: exchange CARD [CARD] MELD, e.g. exchange 8H 2",
    "discard": "usage: discard CARD [announce], e.g. discard KS",
}

_CARD_SPELLING = (
    "write a rank (A, 2-10 or T, J, Q, K) then a suit (C, D, H, S or ♣ ♦ ♥ ♠), JK for a "
    "joker, or the card's number in your hand"
)

_ALIASES = {
    "d": "draw",
    "draw": "draw",
    "stock": "draw",
    "t": "take",
    "take": "take",
    "pick": "take",
    "m": "meld",
    "meld": "meld",
    "lay": "meld",
    "laydown": "meld",
    "l": "layoff",
    "layoff": "layoff",
    "lay-off": "layoff",
    "x": "exchange",
    "exchange": "exchange",
    "swap": "exchange",
    "discard": "discard",
    "throw": "discard",
    "claim": "claim",
    "redeal": "claim",
    "keep": "keep",
    "pass": "keep",
    "hint": "hint",
    "?": "help",
    "h": "help",
    "help": "help",
    "show": "show",
    "look": "show",
    "rules": "rules",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}

_BARE = ("draw", "take", "claim", "keep", "hint", "help", "show", "rules", "quit")
"""The commands that take nothing after them."""

_MAX_DIGITS = 6
"""Longer numbers name no card and no meld (and would be slow to read as integers)."""


class BotFailedError(HandRummyError):
    """A bot at the table raised or chose an illegal action; the game cannot go on."""


class CommandError(HandRummyError):
    """A line that is not a command; the message is a short usage line."""


@attrs.frozen
class Command:
    """One typed command: the verb, groups of card words, a meld number and a flag."""

    verb: str
    groups: tuple[tuple[str, ...], ...] = ()
    target: int | None = None
    announce: bool = False


def _shown(word: str) -> str:
    """A typed word quoted for a message, cut short if it is long."""
    return repr(word if len(word) <= 20 else word[:20] + "…")


def _is_number(word: str) -> bool:
    """Whether ``word`` is written with the digits 0-9 only (``str.isdigit`` also takes ``²``)."""
    return word.isascii() and word.isdigit()


def parse_command(line: str) -> Command:
    """Read one command line; raises :class:`CommandError` with a usage line if it is not one."""
    words = line.replace("/", " / ").replace("+", " + ").split()
    if not words:
        raise CommandError("type a command, or help")
    verb = _ALIASES.get(words[0].lower())
    if verb is None:
        raise CommandError(f"unknown command {_shown(words[0])}; type help for the commands")
    rest = words[1:]
    if verb in _BARE:
        if rest:
            raise CommandError(f"{verb} takes nothing after it")
        return Command(verb)
    if verb == "meld":
        groups: list[tuple[str, ...]] = []
        group: list[str] = []
        for word in [*rest, "/"]:
            if word in ("/", "+"):
                if group:
                    groups.append(tuple(group))
                group = []
            else:
                group.append(word)
        if not groups:
            raise CommandError(USAGE["meld"])
        return Command("meld", tuple(groups))
    if verb == "discard":
        announce = bool(rest) and rest[-1].lower() in ("announce", "!")
        if announce:
            rest = rest[:-1]
        if len(rest) != 1:
            raise CommandError(USAGE["discard"])
        return Command("discard", ((rest[0],),), announce=announce)
    # layoff and exchange: cards, then the meld number
    if len(rest) < 2 or (verb == "layoff" and len(rest) != 2):
        raise CommandError(USAGE[verb])
    last = rest[-1]
    if not _is_number(last):
        raise CommandError(
            f"{_shown(last)} is not a meld number: end with the number shown in [ ] on the "
            f"table; {USAGE[verb]}"
        )
    if len(last) > _MAX_DIGITS:
        raise CommandError(f"there is no meld {_shown(last)} on the table")
    return Command(verb, (tuple(rest[:-1]),), target=int(last))


# --- the numbers of the cards in hand ----------------------------------------------------------


def _spans(numbers: Sequence[int]) -> str:
    """``1-3, 5, 7-9`` for the sorted ``numbers``."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][-1] + 1:
            spans[-1].append(number)
        else:
            spans.append([number])
    return ", ".join(f"{s[0]}-{s[-1]}" if len(s) > 1 else str(s[0]) for s in spans)


@attrs.frozen
class Numbering:
    """The number beside each card of a hand, which holds for a whole turn.

    A turn starts with the hand sorted and numbered from 1 (:meth:`fresh`). As
    the hand changes (:meth:`follow`), a card still held keeps its number, a
    new card gets the next number never used this turn, and the number of a
    card that left is not given out again: a number typed always means the card
    that was shown beside it.

    >>> from hand_rummy.cards import parse_cards
    >>> start = Numbering.fresh(parse_cards("9H 2C 5D"))
    >>> [f"{n}:{c}" for n, c in start.shown()]
    ['1:2♣', '2:5♦', '3:9♥']
    >>> later = start.follow(parse_cards("9H 2C KS"))  # 5♦ played, K♠ drawn
    >>> [f"{n}:{c}" for n, c in later.shown()]
    ['1:2♣', '3:9♥', '4:K♠']
    """

    numbered: tuple[tuple[int, Card], ...]
    """The cards with their numbers, in the order the numbers were given."""
    next: int
    """The number the next new card gets."""

    @classmethod
    def fresh(cls, hand: Sequence[Card]) -> Numbering:
        cards = sorted(hand)
        return cls(tuple(enumerate(cards, start=1)), len(cards) + 1)

    def follow(self, hand: Sequence[Card]) -> Numbering:
        """The numbering of ``hand``, the same hand after some cards came and went."""
        left = Counter(hand)
        kept = []
        for number, card in self.numbered:
            if left[card]:
                left[card] -= 1
                kept.append((number, card))
        new = sorted(left.elements())
        kept.extend(enumerate(new, start=self.next))
        return Numbering(tuple(kept), self.next + len(new))

    def shown(self) -> list[tuple[int, Card]]:
        """The numbered cards in display order: by suit and rank."""
        return sorted(self.numbered, key=lambda item: (item[1], item[0]))

    def since(self, earlier: Numbering) -> list[tuple[int, Card]]:
        """The cards numbered after ``earlier``: the ones that came into the hand since."""
        return [(n, c) for n, c in self.numbered if n >= earlier.next]

    def card(self, word: str) -> Card:
        """The card numbered ``word`` (digits); raises :class:`CommandError` if there is none."""
        number = int(word) if len(word) <= _MAX_DIGITS else 0
        shown = word if len(word) <= _MAX_DIGITS else _shown(word)
        for held, card in self.numbered:
            if held == number:
                return card
        numbers = sorted(n for n, _ in self.numbered)
        if 1 <= number < self.next:
            raise CommandError(
                f"card {number} has left your hand this turn; your cards now are numbered "
                f"{_spans(numbers)} (type show to see them)"
            )
        if not numbers:
            raise CommandError(f"there is no card number {shown}: your hand is empty")
        raise CommandError(
            f"there is no card number {shown} in your hand; your cards are numbered "
            f"{_spans(numbers)}"
        )


# --- from words to actions ---------------------------------------------------------------------


def _card(word: str, numbering: Numbering | None) -> Card:
    """A card typed as a face, or as its number in the hand shown (when ``numbering``)."""
    if _is_number(word):
        if numbering is None:
            raise CommandError(f"{_shown(word)}: a wild card's role is a card, e.g. AC=8H")
        return numbering.card(word)
    if word.isnumeric():  # ² or ٣: a number, but not one typed with 0-9
        raise CommandError(
            f"{_shown(word)} is not a card: type a card's number with the digits 0-9"
        )
    try:
        return parse_card(word)
    except CardParseError:
        raise CommandError(f"{_shown(word)} is not a card: {_CARD_SPELLING}") from None


def _card_and_role(word: str, numbering: Numbering) -> tuple[Card, Card | None]:
    if "=" in word:
        face, _, role = word.partition("=")
        if not face or not role:
            raise CommandError(f"{_shown(word)}: write a wild card's role as AC=8H")
        return _card(face, numbering), _card(role, None)
    return _card(word, numbering), None


def _melds(
    groups: Sequence[Sequence[str]], view: PlayerView, numbering: Numbering
) -> tuple[Meld, ...]:
    """The melds typed, with roles, and taken-discard wilds marked as played natural."""
    held = Counter(view.hand)
    demoted = Counter(view.demoted)
    used: Counter[Card] = Counter()
    melds = []
    for group in groups:
        cards: list[Card] = []
        roles: dict[int, Card] = {}
        natural: list[int] = []
        for position, word in enumerate(group):
            card, role = _card_and_role(word, numbering)
            cards.append(card)
            if role is not None:
                roles[position] = role
            used[card] += 1
            # the copies taken from the discard pile play last, and as natural cards
            if demoted[card] and used[card] > held[card] - demoted[card]:
                natural.append(position)
        melds.append(Meld.of(cards, roles=roles, demoted=natural))
    return tuple(melds)


def action_for(
    cmd: Command, view: PlayerView, numbering: Numbering | None = None
) -> tuple[Action, ...]:
    """The actions a command stands for (several lay-downs for an opened player's melds).

    Card numbers are read with ``numbering``; without it, the hand sorted and
    numbered from 1.
    """
    numbers = numbering if numbering is not None else Numbering.fresh(view.hand)
    if cmd.verb == "draw":
        return (DrawStock(),)
    if cmd.verb == "take":
        return (TakeDiscard(),)
    if cmd.verb == "claim":
        return (ClaimRedeal(),)
    if cmd.verb == "keep":
        return (PassRedeal(),)
    if cmd.verb == "discard":
        return (Discard(_card(cmd.groups[0][0], numbers), announce=cmd.announce),)
    if cmd.verb == "meld":
        melds = _melds(cmd.groups, view, numbers)
        if view.opened[view.seat] and len(melds) > 1:
            return tuple(LayDown((m,)) for m in melds)
        return (LayDown(melds),)
    assert cmd.target is not None
    if cmd.verb == "layoff":
        card, role = _card_and_role(cmd.groups[0][0], numbers)
        return (LayOff(cmd.target, card, role),)
    if cmd.verb == "exchange":
        return (Exchange(cmd.target, tuple(_card(w, numbers) for w in cmd.groups[0])),)
    raise CommandError(f"{cmd.verb} is not a move")


def command_text(action: Action) -> str:
    """The command that a person types for ``action``."""
    if isinstance(action, DrawStock):
        return "draw"
    if isinstance(action, TakeDiscard):
        return "take"
    if isinstance(action, ClaimRedeal):
        return "claim"
    if isinstance(action, PassRedeal):
        return "keep"
    if isinstance(action, Discard):
        return f"discard {action.card.ascii}" + (" announce" if action.announce else "")
    if isinstance(action, LayOff):
        role = f"={action.role.ascii}" if action.role is not None else ""
        return f"layoff {action.card.ascii}{role} {action.target}"
    if isinstance(action, Exchange):
        return f"exchange {format_cards(action.cards, ascii=True)} {action.target}"
    groups = []
    for meld in action.melds:
        words = [
            c.ascii + (f"={r.ascii}" if r is not None else "")
            for c, r in zip(meld.cards, meld.roles)
        ]
        groups.append(" ".join(words))
    return "meld " + " / ".join(groups)


def _meld_on(table: Sequence[TableMeld], target: int) -> TableMeld | None:
    return next((m for m in table if m.id == target), None)


def describe_move(
    seat: int,
    action: Action,
    before: PlayerView,
    after: PlayerView | None = None,
    *,
    you: int | None = None,
) -> str:
    """A move as the players see it happen: ``Seat 2 discards K♠``, ``You meld ...``.

    With ``after`` (a view of the round once the move is made), melds are shown
    as they lie on the table, every wild card with the card it stands for.
    """
    person = seat == you
    who = "You" if person else f"Seat {seat}"

    def says(base: str, third: str) -> str:
        return f"{who} {base if person else third}"

    if isinstance(action, DrawStock):
        return says("draw", "draws") + " from the stock"
    if isinstance(action, TakeDiscard):
        top = before.discards[-1] if before.discards else None
        return says("take", "takes") + f" {top} from the discard pile"
    if isinstance(action, ClaimRedeal):
        return says("claim", "claims") + " a redeal"
    if isinstance(action, PassRedeal):
        return says("keep", "keeps") + " the deal"
    if isinstance(action, Discard):
        left = counted(before.hand_sizes[seat] - 1, "card")
        announce = (" and announce" if person else " and announces") + f" {left} left"
        return (
            says("discard", "discards") + f" {action.card}" + (announce if action.announce else "")
        )
    if isinstance(action, LayOff):
        role = f" (as {action.role})" if action.role is not None else ""
        text = says("lay off", "lays off") + f" {action.card}{role} on meld {action.target}"
        laid = _meld_on(after.table, action.target) if after is not None else None
        return text + (f": now {laid.meld.describe()}" if laid is not None else "")
    if isinstance(action, Exchange):
        text = (
            says("exchange", "exchanges")
            + f" {format_cards(action.cards)} for the wild card in meld {action.target}"
        )
        old = _meld_on(before.table, action.target)
        new = _meld_on(after.table, action.target) if after is not None else None
        if old is None or new is None:
            return text
        freed = Counter(old.meld.cards) + Counter(action.cards) - Counter(new.meld.cards)
        taken = f", taking {format_cards(sorted(freed.elements()))}" if freed else ""
        return text + f": now {new.meld.describe()}{taken}"
    laid_ids = {m.id for m in before.table}
    new_melds = [m for m in after.table if m.id not in laid_ids] if after is not None else []
    if new_melds:
        shown = " + ".join(f"[{m.id}] {m.meld.describe()}" for m in new_melds)
    else:
        shown = " + ".join(m.describe() for m in action.melds)
    return says("meld", "melds") + " " + shown


# --- showing the game ------------------------------------------------------------------------


def _team_name(number: int) -> str:
    """Partners sit opposite: team 1 is seats 0 and 2, team 2 seats 1 and 3."""
    return f"team {number + 1} (seats {number} and {number + 2})"


def _width() -> int:
    """The width to fit the output to: ``COLUMNS`` where it is set, else the terminal's (80
    when the output is not a terminal), and never less than 40 columns."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def _wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _fit(text: str, width: int) -> list[str]:
    """The lines of ``text`` wrapped at spaces to ``width`` columns, a line's continuations
    indented two columns further than it (a word longer than the width is cut).

    >>> _fit("Not allowed: 7♦ 8♦ 9♦ are not all in your hand\\n  (rule: play your own cards)", 30)
    ['Not allowed: 7♦ 8♦ 9♦ are not', '  all in your hand', '  (rule: play your own cards)']
    """
    lines = []
    for line in text.split("\n"):
        indent = line[: len(line) - len(line.lstrip(" "))]
        lines.extend(_wrap(line, width, indent + "  ") if line.strip() else [""])
    return lines


_NARROW_TEXT = 30
"""Fewer columns than this left beside the labels, and each text goes under its label."""


def _columns(rows: Sequence[tuple[str, str]], width: int, indent: str = "") -> list[str]:
    """Labels and their texts in two columns, each text wrapped within its column; where the
    column would be narrower than :data:`_NARROW_TEXT`, each text under its label."""
    column = len(indent) + max(len(label) for label, _ in rows) + 2
    lines = []
    for label, text in rows:
        if width - column >= _NARROW_TEXT:
            first, *rest = _wrap(text, width - column, "")
            lines.append(f"{indent}{label:<{column - len(indent)}}{first}")
            lines.extend(" " * column + line for line in rest)
        else:
            lines.append(f"{indent}{label}")
            deeper = indent + "    "
            lines.extend(deeper + line for line in _wrap(text, width - len(deeper), ""))
    return lines


def _help_lines(width: int) -> list[str]:
    """The ``help`` of the game, fitted to ``width`` columns."""
    return [
        *_wrap(_HELP_HEAD, width),
        *_columns(_HELP_COMMANDS, width, indent="  "),
        *_wrap(_HELP_TAIL, width, ""),
    ]


def _rules_lines(ruleset: Ruleset, width: int) -> list[str]:
    """``ruleset.describe()`` fitted to ``width`` columns: the same words, each rule's text
    wrapped in its column."""
    rows = [(label, text) for _, label, text in ruleset.dimensions()]
    return [*_wrap(ruleset.title, width), *_columns(rows, width)]


def render_view(
    view: PlayerView,
    totals: Sequence[int] | None = None,
    team_totals: Sequence[int] | None = None,
    round_number: int | None = None,
    *,
    numbering: Numbering | None = None,
    width: int | None = None,
) -> str:
    """The table as ``view.seat`` sees it, in plain text (card symbols, no colour codes).

    The hand is numbered by ``numbering`` (by default sorted and numbered from
    1); lines are fitted to ``width`` columns (by default the terminal's).
    """
    width = width if width is not None else _width()
    rules = view.ruleset_rules()
    you = view.seat
    lines = []
    head = f"Round {round_number}" if round_number is not None else "Round"
    lines.extend(_wrap(f"== {head} of {view.ruleset.title}; seat {view.dealer} dealt ==", width))
    for line in describe_wilds(rules):
        lines.extend(_wrap(line, width))
    pile = (
        f"discard pile top {view.discards[-1]} ({counted(len(view.discards), 'card')})"
        if view.discards
        else "discard pile empty"
    )
    lines.extend(_wrap(f"Stock {counted(view.stock_size, 'card')}; {pile}", width))
    lines.extend(table_lines(view.table, view.seat, width=width))
    players = []
    for seat, size in enumerate(view.hand_sizes):
        notes = []
        if view.opened[seat]:
            notes.append("opened")
        if view.announced[seat]:
            notes.append("announced")
        if view.missed[seat]:
            notes.append("missed an announcement: may not go out next turn")
        extra = f", {', '.join(notes)}" if notes else ""
        score = f", total {totals[seat]}" if totals is not None else ""
        players.append(f"{seat_name(seat, you)}: {counted(size, 'card')}{extra}{score}")
    lines.extend(_fitted("Players:", players, width))
    if team_totals is not None:
        teams = [f"{_team_name(i)}: {t}" for i, t in enumerate(team_totals)]
        lines.extend(_fitted("Teams:", teams, width))
    lines.append("Your hand:")
    lines.extend(_hand_lines(view, numbering or Numbering.fresh(view.hand), width))
    return "\n".join(lines)


def _fitted(label: str, items: Sequence[str], width: int) -> list[str]:
    """``label`` and the items on one line when it fits ``width``, else one item a line."""
    line = f"{label} " + "; ".join(items)
    if len(line) <= width:
        return [line]
    return [label, *(f"  {item}" for item in items)]


def _hand_lines(view: PlayerView, numbering: Numbering, width: int) -> Iterator[str]:
    rules = view.ruleset_rules()
    demoted = Counter(view.demoted)
    rows: list[list[str]] = []
    suit: object = None
    for number, card in numbering.shown():
        if not rows or card.suit != suit:
            rows.append([])
        suit = card.suit
        mark = ""
        if rules.is_wild(card):
            if demoted[card]:
                demoted[card] -= 1
                mark = "°"
            else:
                mark = "*"
        elif rules.wilds.natural_as(card) != card:  # a joker that is not wild: what it is
            mark = f"(={rules.wilds.natural_as(card)})"
        rows[-1].append(f"{number}:{card}{mark}")
    for row in rows:
        for part in _wrap("  ".join(row), width - 2, indent=""):
            yield f"  {part}"
    if any(rules.is_wild(c) for c in view.hand):
        taken = "; ° a wild taken from the discard pile, natural now" if view.demoted else ""
        yield f"  (* wild{taken})"


def _prompt(view: PlayerView) -> str:
    if view.phase is Phase.REDEAL:
        return "Your hand may be redealt: claim or keep"
    if view.phase is Phase.DRAW:
        return "Your turn: draw or take"
    if view.current.obligation is not None:
        return f"Your turn (you still must: {view.current.obligation.value.replace('_', ' ')})"
    if view.current.first_turn_bare and view.ruleset.deal.first_turn is FirstTurn.DISCARD_ONLY:
        return "Your first turn: discard one card (the starter only discards)"
    return "Your turn: meld, layoff, exchange, then discard"


def _numbered(new: Sequence[tuple[int, Card]], move: Action) -> str:
    """What a move that brought cards into the hand adds: which cards, and their numbers."""
    if not new:
        return ""
    cards = format_cards(c for _, c in new)
    numbers = ", ".join(str(n) for n, _ in new)
    which = f"card {numbers}" if len(new) == 1 else f"cards {numbers}"
    if isinstance(move, DrawStock):
        return f": {cards}, {which} in your hand"
    return f"; {cards} {'is' if len(new) == 1 else 'are'} {which} in your hand"


def _refusal(violations: Sequence[Violation]) -> list[str]:
    """A refused move in words: what is wrong, then each rule it breaks, with its id."""
    lines = ["Not allowed: " + "; ".join(v.message for v in violations)]
    rules = [(c.text, c.id) for v in violations for c in v.cites] or [
        (v.rule, "") for v in violations if v.rule
    ]
    for text, rule_id in dict.fromkeys(rules):
        lines.append(f"  (rule: {text} [{rule_id}])" if rule_id else f"  (rule: {text})")
    return lines


def _round_report(game: Round, number: int, you: int) -> list[str]:
    outcome = game.outcome
    lines = [f"-- Round {number} is over --"]
    if outcome is None:
        return lines
    winner = outcome.winner
    if outcome.ending is Ending.REDEAL:
        lines.append("A redeal was claimed: the round does not count.")
    elif outcome.ending is Ending.STOCK:
        lines.append("The stock ran out.")
    elif winner is not None:
        how = " with a Hand" if outcome.ending is Ending.HAND else ""
        lines.append(f"{seat_name(winner, you).capitalize()} went out{how}.")
    if not outcome.score.scored:
        lines.append("The round is not scored.")
    else:
        for seat, score in enumerate(outcome.score.scores):
            left = format_cards(game.hand(seat)) or "-"
            lines.append(f"  {seat_name(seat, you):<15} {score:>5}   left: {left}")
    return lines


# --- the game loop ---------------------------------------------------------------------------


@attrs.define
class Game:
    """A match in progress between a person at ``you`` and bots at the other seats."""

    match: Match
    you: int
    bots: dict[int, Bot]
    out: TextIO
    hint_bot: Bot
    shown: bool = False
    numbering: Numbering | None = None
    """The numbers of the person's cards this turn; ``None`` until the turn shows them."""
    round_over: bool = False
    """A round has just ended, and its summary is the last thing on the screen."""
    names: dict[int, str] = attrs.Factory(dict)
    """Each bot as ``--bots`` named it, for messages (its repr where none is given)."""
    length_note: str | None = None
    """Said at the start and in the summary: the match has a custom length."""

    def bot_name(self, seat: int) -> str:
        return self.names.get(seat) or shown(self.bots[seat])

    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Print ``text``, each line wrapped to the terminal's width unless ``wrap`` is off
        (for lines already fitted, which a second wrapping must not break)."""
        if wrap:
            text = "\n".join(_fit(text, _width()))
        print(text, file=self.out, flush=True)

    def prompt(self, text: str) -> str:
        """The prompt for a line, ``text`` then ``" > "``: when it does not fit the width,
        all its lines but the last are said here, and the last is returned as the prompt
        (one line, as line editing needs)."""
        lines = _wrap(text, _width() - 3)
        if len(lines) > 1:
            self.say("\n".join(lines[:-1]), wrap=False)
        return f"{lines[-1]} > "

    def numbers(self) -> Numbering:
        """The person's card numbers this turn (a turn starts with the hand sorted)."""
        if self.numbering is None:
            self.numbering = Numbering.fresh(self.match.view(self.you).hand)
        return self.numbering

    def show(self) -> None:
        game = self.match.current
        assert game is not None
        self.say()
        self.say(
            render_view(
                self.match.view(self.you),
                self.match.totals,
                self.match.team_totals,
                self.match.round_number,
                numbering=self.numbers(),
            ),
            wrap=False,  # fitted to the width already, but for a table row that must not break
        )
        self.shown = True

    def advance(self, seat: int, actions: Sequence[Action]) -> None:
        """Apply ``actions`` of ``seat`` (one move, or an opened player's melds one by one),
        say what happened, and sum up the round if it ended."""
        before = self.match.view(self.you)
        rounds = len(self.match.rounds)
        number = self.match.round_number
        match = self.match
        for action in actions:
            match = match.apply(action)
            if len(match.rounds) != rounds:
                break
        self.match = match
        self.shown = False
        ended = len(match.rounds) != rounds
        game = match.rounds[-1] if ended else match.current
        assert game is not None
        after = game.view(self.you)
        earlier = self.numbering
        if ended or game.turn != self.you or earlier is None:
            self.numbering = None  # the next turn of the person numbers the hand afresh
        else:
            self.numbering = earlier.follow(after.hand)
        move = actions[0]
        if len(actions) > 1:  # an opened player's melds, laid one by one: shown as one move
            move = LayDown(tuple(m for a in actions if isinstance(a, LayDown) for m in a.melds))
        text = describe_move(seat, move, before, after, you=self.you)
        if earlier is not None and self.numbering is not None:
            text += _numbered(self.numbering.since(earlier), move)
        if not isinstance(move, PassRedeal):  # every seat keeps most deals: no news
            self.say(text)
        if ended:
            self.round_over = True
            self.say()
            for line in _round_report(match.rounds[-1], number, self.you):
                self.say(line)
            totals = [f"{seat_name(s, self.you)}: {t}" for s, t in enumerate(match.totals)]
            for line in _fitted("Totals:", totals, _width()):
                self.say(line)
            if match.team_totals is not None:
                teams = [f"{_team_name(i)}: {t}" for i, t in enumerate(match.team_totals)]
                for line in _fitted("Teams:", teams, _width()):
                    self.say(line)

    def check(self, actions: Sequence[Action]) -> tuple[Violation, ...]:
        """Why ``actions`` cannot be played (empty when they can)."""
        match = self.match
        for action in actions:
            verdict = match.check(action)
            if not verdict.ok:
                return verdict.violations
            match = match.apply(action)
        return ()

    def bot_moves(self) -> None:
        """Let the bots play until it is the person's turn, a round ends or the match does."""
        while not self.match.is_over and not self.round_over:
            game = self.match.current
            assert game is not None
            seat = game.turn
            if seat == self.you:
                # every seat is asked about a redeal; a deal too strong to claim one is kept
                # without a question (the bots pass in the same way)
                if game.phase is not Phase.REDEAL or ClaimRedeal() in game.legal_actions():
                    return
                self.advance(seat, (PassRedeal(),))
                continue
            bot = self.bots[seat]
            # worded as simulate words a failure (records.Failure.describe)
            who = f"seat {seat} ({self.bot_name(seat)})"
            try:
                action = bot.choose(self.match.view(seat))
            except Exception as err:
                raise BotFailedError(f"{who} raised: {error_text(err)}") from err
            verdict = (
                self.match.check(action) if isinstance(action, typing.get_args(Action)) else None
            )
            if verdict is None:
                returned = shown(action)
                raise BotFailedError(
                    f"{who} chose an illegal action: returned {returned}, which is not an action"
                )
            if not verdict.ok:
                reasons = "; ".join(v.message for v in verdict.violations)
                raise BotFailedError(
                    f"{who} chose an illegal action: {action} is not legal now: {reasons}"
                )
            self.advance(seat, (action,))

    def person(self, line: str) -> bool:
        """Handle one typed line; False when the person quits."""
        try:
            cmd = parse_command(line)
        except CommandError as err:
            self.say(str(err))
            return True
        view = self.match.view(self.you)
        if cmd.verb == "quit":
            return False
        if cmd.verb == "help":
            self.say("\n".join(_help_lines(_width())))
            return True
        if cmd.verb == "rules":
            self.say("\n".join(_rules_lines(view.ruleset, _width())))
            return True
        if cmd.verb == "show":
            self.show()
            return True
        if cmd.verb == "hint":
            action = self.hint_bot.choose(view)
            self.say(f"Hint: {command_text(action)}   ({action})")
            return True
        try:
            actions = action_for(cmd, view, self.numbers())
            problems = self.check(actions)
        except HandRummyError as err:  # a move the library cannot even build, e.g. a bad meld
            self.say(str(err))
            return True
        if problems:
            for text in _refusal(problems):
                self.say(text)
            return True
        self.advance(self.you, actions)
        return True

    def finish(self) -> None:
        totals = self.match.totals
        self.say()
        self.say("== The match is over ==")
        if self.length_note is not None:
            self.say(self.length_note)
        for seat, total in enumerate(totals):
            self.say(f"  {seat_name(seat, self.you):<15} {total:>5}")
        if self.match.team_totals is not None:
            for i, total in enumerate(self.match.team_totals):
                self.say(f"  {_team_name(i):<15} {total:>5}")
        winners = set(self.match.winners)
        teams = self.match.teams or tuple((s,) for s in range(self.match.players))
        sides = [
            _team_name(i) if len(team) > 1 else seat_name(team[0], self.you)
            for i, team in enumerate(teams)
            if winners.intersection(team)
        ]
        verb = "wins" if len(sides) == 1 else "share the win"
        names = " and ".join(sides)
        self.say(f"{names[0].upper()}{names[1:]} {verb}.")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _line_editing() -> None:
    """Turn on line editing and history (the arrow keys) for ``input()``, where Python has
    the readline module; without it, lines are read plainly."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401, PLC0415 (importing it is what makes input() edit lines)


def _reader(lines: TextIO, out: TextIO) -> Callable[[str], str | None]:
    """A function that shows a prompt and returns the next line typed, ``None`` at the end.

    On a terminal the prompt is shown and, for the standard streams, the line
    is read with ``input()`` and readline's editing; from a pipe or a file,
    each line is echoed after its prompt, so the output reads as a transcript.
    """
    if not _is_terminal(lines):

        def scripted(prompt: str) -> str | None:
            line = lines.readline()
            if not line:
                return None
            print(f"{prompt}{line.strip()}", file=out, flush=True)
            return line

        return scripted
    if lines is sys.stdin and out is sys.stdout:
        _line_editing()

        def edited(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                print(file=out)
                return None

        return edited

    def typed(prompt: str) -> str | None:
        out.write(prompt)
        out.flush()
        line = lines.readline()
        if not line:
            print(file=out)
        return line or None

    return typed


_QUIT = frozenset(word for word, verb in _ALIASES.items() if verb == "quit")


def play(game: Game, lines: TextIO) -> int:
    """Run the match, reading the person's commands from ``lines``; returns the exit status.

    On a terminal, the summary of a round waits for Enter before the next
    round starts; from a pipe or a file nothing waits, and the end of the
    input ends the game.
    """
    read = _reader(lines, game.out)
    interactive = _is_terminal(lines)
    game.say(f"You are seat {game.you}. Type help for the commands.")
    if game.length_note is not None:
        game.say(game.length_note)
    while True:
        game.bot_moves()
        if game.match.is_over:
            game.finish()
            return 0
        if game.round_over:
            game.round_over = False
            if interactive:
                answer = read(
                    game.prompt(f"Press Enter for round {game.match.round_number} (or quit)")
                )
                if answer is None:
                    game.say("(end of input: leaving the game)")
                    return 0
                if answer.strip().lower() in _QUIT:
                    game.say("You leave the game.")
                    return 0
            continue
        if not game.shown:
            game.show()
        line = read(game.prompt(_prompt(game.match.view(game.you))))
        if line is None:
            game.say("(end of input: leaving the game)")
            return 0
        if not line.strip():
            continue
        if not game.person(line):
            game.say("You leave the game.")
            return 0


def command(
    *,
    rules: str,
    variants: Sequence[str],
    players: int,
    seed: int,
    you: int,
    bots: str,
    length: int | None = None,
    custom_length: bool = False,
) -> int:
    """The ``play`` command; returns the exit status."""
    from hand_rummy.bots import GreedyBot  # noqa: PLC0415 (only the playing commands need bots)
    from hand_rummy.cli_simulate import UsageError, ruleset_for  # noqa: PLC0415
    from hand_rummy.match import Match  # noqa: PLC0415
    from hand_rummy.tournament.entrants import BotLoadError, parse_bots, seat_bots  # noqa: PLC0415
    from hand_rummy.tournament.lengths import (  # noqa: PLC0415
        LengthError,
        check_length,
        end_rule,
        follows_rules,
    )
    from hand_rummy.tournament.schedule import bot_seed  # noqa: PLC0415

    try:
        if players < 1:
            raise UsageError(f"--players must be a positive number, not {players}")
        if abs(seed) >= 10**SEED_DIGITS:
            raise UsageError(f"--seed has at most {SEED_DIGITS} digits")
        ruleset = ruleset_for(rules, variants, players)
        if not 0 <= you < players:
            raise UsageError(f"--you {you}: the seats are 0 to {players - 1}")
        entrants = parse_bots(bots, players - 1, what="--bots")
        if length is not None and length < 1:
            raise UsageError(f"--rounds must be a positive number, not {length}")
        try:
            check_length(ruleset, length, custom=custom_length)
        except LengthError as err:
            hint = " (--custom-length)" if err.custom else ""
            raise UsageError(f"--rounds {length}: {err}{hint}") from None
    except (UsageError, BotLoadError) as err:
        return refuse("play", str(err))
    if sys.stdin is None:
        return refuse("play", "no standard input to read the commands from")
    others = [s for s in range(players) if s != you]
    names = dict(zip(others, seat_bots([e.name for e in entrants], len(others)), strict=True))
    seated: dict[int, Bot] = {}
    for seat, bot in zip(others, seat_bots(entrants, len(others)), strict=True):
        try:
            seated[seat] = bot.make(bot_seed(seed, seat))
        except Exception as err:
            # a bot's own code failed, not the arguments: exit 1, as simulate does
            error("play", f"seat {seat} ({bot.name}) could not be made: {error_text(err)}")
            return 1
    note = None
    if not follows_rules(ruleset, length):
        note = (
            f"Custom length: the match ends {end_rule(ruleset, length)}, not as "
            f"{ruleset.name}'s own end rule says ({end_rule(ruleset, None)})."
        )
    match = Match.new(fixed_rounds(ruleset, length), players, seed)
    game = Game(match, you, seated, sys.stdout, GreedyBot(seed=seed), names=names, length_note=note)
    try:
        return play(game, sys.stdin)
    except BotFailedError as err:
        error("play", str(err))
        return 1
