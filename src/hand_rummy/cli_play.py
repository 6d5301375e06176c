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

import sys
from collections import Counter
from collections.abc import Iterator, Sequence
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
from hand_rummy.cli_simulate import fixed_rounds
from hand_rummy.errors import CardParseError, HandRummyError
from hand_rummy.melds import Meld
from hand_rummy.round import Ending, Phase, PlayerView, Round

if TYPE_CHECKING:
    from hand_rummy.bots import Bot
    from hand_rummy.match import Match

__all__ = ["Command", "CommandError", "action_for", "command", "parse_command", "render_view"]

HELP = """\
Commands (cards as 10H, TH or 10♥, or by their number in your hand):
  draw                          draw the top card of the stock
  take                          take the top card of the discard pile
  meld 7H 8H 9H                 lay down a meld; several with / or +: meld 7H 8H 9H / 5S 5D 5C
  meld 7H AC=8H 9H              a wild card's role with =
  layoff 10H 3                  lay 10H off on table meld 3 (a wild: layoff AC=10H 3)
  exchange 8H 2                 put 8H into meld 2 and take its wild card
  discard KS                    discard, ending the turn (discard KS announce: announce one card)
  claim / keep                  claim a redeal of a weak hand, or keep it
  hint                          show a good move
  show                          show the table again
  help                          this list
  quit                          leave the game"""

USAGE = {
    "meld": "usage: meld 7H 8H 9H [/ 5S 5D 5C]  (a wild's role: AC=8H)",
    "layoff": "usage: layoff CARD MELD, e.g. layoff 10H 3 (a wild: layoff AC=10H 3)",
    "exchange": "usage: exchange CARD [CARD] MELD, e.g. exchange 8H 2",
    "discard": "usage: discard CARD [announce], e.g. discard KS",
}

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
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}


class CommandError(HandRummyError):
    """A line that is not a command; the message is a short usage line."""


@attrs.frozen
class Command:
    """One typed command: the verb, groups of card words, a meld number and a flag."""

    verb: str
    groups: tuple[tuple[str, ...], ...] = ()
    target: int | None = None
    announce: bool = False


def parse_command(line: str) -> Command:
    """Read one command line; raises :class:`CommandError` with a usage line if it is not one."""
    words = line.replace("/", " / ").replace("+", " + ").split()
    if not words:
        raise CommandError("type a command, or help")
    verb = _ALIASES.get(words[0].lower())
    if verb is None:
        raise CommandError(f"unknown command {words[0]!r}; type help for the commands")
    rest = words[1:]
    if verb in ("draw", "take", "claim", "keep", "hint", "help", "show", "quit"):
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
    if len(rest) < 2 or not rest[-1].isdigit() or (verb == "layoff" and len(rest) != 2):
        raise CommandError(USAGE[verb])
    return Command(verb, (tuple(rest[:-1]),), target=int(rest[-1]))


# --- from words to actions ---------------------------------------------------------------------


def _card(word: str, hand: Sequence[Card]) -> Card:
    """A card typed as a face, or as its number in the sorted hand shown."""
    if word.isdigit():
        number = int(word)
        if not 1 <= number <= len(hand):
            raise CommandError(f"there is no card number {number} in your hand (1-{len(hand)})")
        return hand[number - 1]
    try:
        return parse_card(word)
    except CardParseError as err:
        raise CommandError(f"{word!r} is not a card: {err}") from None


def _card_and_role(word: str, hand: Sequence[Card]) -> tuple[Card, Card | None]:
    if "=" in word:
        face, _, role = word.partition("=")
        if not face or not role:
            raise CommandError(f"{word!r}: write a wild card's role as AC=8H")
        return _card(face, hand), _card(role, ())
    return _card(word, hand), None


def _melds(groups: Sequence[Sequence[str]], view: PlayerView) -> tuple[Meld, ...]:
    """The melds typed, with roles, and taken-discard wilds marked as played natural."""
    hand = sorted(view.hand)
    held = Counter(view.hand)
    demoted = Counter(view.demoted)
    used: Counter[Card] = Counter()
    melds = []
    for group in groups:
        cards: list[Card] = []
        roles: dict[int, Card] = {}
        natural: list[int] = []
        for position, word in enumerate(group):
            card, role = _card_and_role(word, hand)
            cards.append(card)
            if role is not None:
                roles[position] = role
            used[card] += 1
            # the copies taken from the discard pile play last, and as natural cards
            if demoted[card] and used[card] > held[card] - demoted[card]:
                natural.append(position)
        melds.append(Meld.of(cards, roles=roles, demoted=natural))
    return tuple(melds)


def action_for(cmd: Command, view: PlayerView) -> tuple[Action, ...]:
    """The actions a command stands for (several lay-downs for an opened player's melds)."""
    hand = sorted(view.hand)
    if cmd.verb == "draw":
        return (DrawStock(),)
    if cmd.verb == "take":
        return (TakeDiscard(),)
    if cmd.verb == "claim":
        return (ClaimRedeal(),)
    if cmd.verb == "keep":
        return (PassRedeal(),)
    if cmd.verb == "discard":
        return (Discard(_card(cmd.groups[0][0], hand), announce=cmd.announce),)
    if cmd.verb == "meld":
        melds = _melds(cmd.groups, view)
        if view.opened[view.seat] and len(melds) > 1:
            return tuple(LayDown((m,)) for m in melds)
        return (LayDown(melds),)
    assert cmd.target is not None
    if cmd.verb == "layoff":
        card, role = _card_and_role(cmd.groups[0][0], hand)
        return (LayOff(cmd.target, card, role),)
    if cmd.verb == "exchange":
        return (Exchange(cmd.target, tuple(_card(w, hand) for w in cmd.groups[0])),)
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


def describe_move(seat: int, action: Action, before: PlayerView) -> str:
    """A move as the other players see it happen: ``Seat 2 discards K♠``."""
    who = f"Seat {seat}"
    if isinstance(action, DrawStock):
        return f"{who} draws from the stock"
    if isinstance(action, TakeDiscard):
        top = before.discards[-1] if before.discards else None
        return f"{who} takes {top} from the discard pile"
    if isinstance(action, ClaimRedeal):
        return f"{who} claims a redeal"
    if isinstance(action, PassRedeal):
        return f"{who} keeps the deal"
    if isinstance(action, Discard):
        return f"{who} discards {action.card}" + (
            " and announces one card" if action.announce else ""
        )
    if isinstance(action, LayOff):
        role = f" (as {action.role})" if action.role is not None else ""
        return f"{who} lays off {action.card}{role} on meld {action.target}"
    if isinstance(action, Exchange):
        return (
            f"{who} exchanges {format_cards(action.cards)} for the wild card in meld "
            f"{action.target}"
        )
    return f"{who} melds " + " + ".join(m.describe() for m in action.melds)


# --- showing the game ------------------------------------------------------------------------


def _team_name(number: int) -> str:
    """Partners sit opposite: team 1 is seats 0 and 2, team 2 seats 1 and 3."""
    return f"team {number + 1} (seats {number} and {number + 2})"


def _seat_name(seat: int, you: int) -> str:
    return f"seat {seat} (you)" if seat == you else f"seat {seat}"


def render_view(
    view: PlayerView,
    totals: Sequence[int] | None = None,
    team_totals: Sequence[int] | None = None,
    round_number: int | None = None,
) -> str:
    """The table as ``view.seat`` sees it, in plain text (card symbols, no colour codes)."""
    rules = view.ruleset_rules()
    you = view.seat
    lines = []
    head = f"Round {round_number}" if round_number is not None else "Round"
    lines.append(f"== {head} of {view.ruleset.title}; seat {view.dealer} dealt ==")
    if view.indicator is not None:
        lines.append(f"Indicator {view.indicator}: {rules.wilds.describe()}")
    else:
        lines.append(f"Wild cards: {rules.wilds.describe()}")
    pile = (
        f"discard pile top {view.discards[-1]} ({len(view.discards)} cards)"
        if view.discards
        else "discard pile empty"
    )
    lines.append(f"Stock {view.stock_size} cards; {pile}")
    if view.table:
        lines.append("Table:")
        for meld in view.table:
            lines.append(f"  [{meld.id}] {meld.meld.describe():<32} seat {meld.owner}")
    else:
        lines.append("Table: no melds yet")
    players = []
    for seat, size in enumerate(view.hand_sizes):
        notes = []
        if view.opened[seat]:
            notes.append("opened")
        if view.announced[seat]:
            notes.append("announced")
        extra = f", {', '.join(notes)}" if notes else ""
        score = f", total {totals[seat]}" if totals is not None else ""
        cards = "1 card" if size == 1 else f"{size} cards"
        players.append(f"{_seat_name(seat, you)}: {cards}{extra}{score}")
    lines.append("Players: " + "; ".join(players))
    if team_totals is not None:
        lines.append("Teams: " + "; ".join(f"team {i + 1}: {t}" for i, t in enumerate(team_totals)))
    lines.append("Your hand:")
    lines.extend(_hand_lines(view))
    return "\n".join(lines)


def _hand_lines(view: PlayerView) -> Iterator[str]:
    rules = view.ruleset_rules()
    demoted = Counter(view.demoted)
    hand = sorted(view.hand)
    row: list[str] = []
    suit = hand[0].suit if hand else None
    for number, card in enumerate(hand, 1):
        if card.suit != suit and row:
            yield "  " + "  ".join(row)
            row = []
        suit = card.suit
        mark = ""
        if rules.is_wild(card):
            if demoted[card]:
                demoted[card] -= 1
                mark = "°"
            else:
                mark = "*"
        row.append(f"{number}:{card}{mark}")
    if row:
        yield "  " + "  ".join(row)
    if any(rules.is_wild(c) for c in hand):
        taken = "; ° a wild taken from the discard pile, natural now" if view.demoted else ""
        yield f"  (* wild{taken})"


def _prompt(view: PlayerView) -> str:
    if view.phase is Phase.REDEAL:
        return "Your hand may be redealt: claim or keep"
    if view.phase is Phase.DRAW:
        return "Your turn: draw or take"
    if view.current.obligation is not None:
        return f"Your turn (you still must: {view.current.obligation.value.replace('_', ' ')})"
    return "Your turn: meld, layoff, exchange, then discard"


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
        lines.append(f"{_seat_name(winner, you).capitalize()} went out{how}.")
    if not outcome.score.scored:
        lines.append("The round is not scored.")
    else:
        for seat, score in enumerate(outcome.score.scores):
            left = format_cards(game.hand(seat)) or "-"
            lines.append(f"  {_seat_name(seat, you):<15} {score:>5}   left: {left}")
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

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

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
            )
        )
        self.shown = True

    def advance(self, actions: Sequence[Action]) -> None:
        """Apply ``actions`` (one move, or an opened player's melds one by one)."""
        before = len(self.match.rounds)
        number = self.match.round_number
        match = self.match
        for action in actions:
            match = match.apply(action)
            if len(match.rounds) != before:
                break
        self.match = match
        self.shown = False
        if len(match.rounds) != before:
            for line in _round_report(match.rounds[-1], number, self.you):
                self.say(line)
            self.say(
                "Totals: "
                + "; ".join(
                    f"{_seat_name(s, self.you)} {t}" for s, t in enumerate(self.match.totals)
                )
            )
            if self.match.team_totals is not None:
                self.say(
                    "Teams: "
                    + "; ".join(
                        f"{_team_name(i)} {t}" for i, t in enumerate(self.match.team_totals)
                    )
                )

    def check(self, actions: Sequence[Action]) -> list[str]:
        """Why ``actions`` cannot be played, in the verdict's words (empty when they can)."""
        match = self.match
        for action in actions:
            verdict = match.check(action)
            if not verdict.ok:
                return [v.message for v in verdict.violations] or ["that is not allowed now"]
            match = match.apply(action)
        return []

    def bot_moves(self) -> None:
        while not self.match.is_over:
            game = self.match.current
            assert game is not None
            seat = game.turn
            if seat == self.you:
                return
            view = self.match.view(seat)
            action = self.bots[seat].choose(view)
            self.say(describe_move(seat, action, view))
            self.advance((action,))

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
            self.say(HELP)
            return True
        if cmd.verb == "show":
            self.show()
            return True
        if cmd.verb == "hint":
            action = self.hint_bot.choose(view)
            self.say(f"Hint: {command_text(action)}   ({action})")
            return True
        try:
            actions = action_for(cmd, view)
        except CommandError as err:
            self.say(str(err))
            return True
        problems = self.check(actions)
        if problems:
            self.say("Not allowed: " + "; ".join(problems))
            return True
        hand = Counter(view.hand)
        if isinstance(actions[0], TakeDiscard) and view.discards:
            self.say(f"You take {view.discards[-1]} from the discard pile")
        elif not isinstance(actions[0], DrawStock):
            self.say("You " + " and ".join(str(a) for a in actions))
        self.advance(actions)
        if isinstance(actions[0], DrawStock):
            game = self.match.current
            drawn = Counter(game.hand(self.you)) - hand if game is not None else Counter()
            self.say(f"You draw {format_cards(drawn.elements())}" if drawn else "You draw")
        return True

    def finish(self) -> None:
        totals = self.match.totals
        self.say()
        self.say("== The match is over ==")
        for seat, total in enumerate(totals):
            self.say(f"  {_seat_name(seat, self.you):<15} {total:>5}")
        if self.match.team_totals is not None:
            for i, total in enumerate(self.match.team_totals):
                self.say(f"  {_team_name(i):<15} {total:>5}")
        winners = set(self.match.winners)
        teams = self.match.teams or tuple((s,) for s in range(self.match.players))
        sides = [
            _team_name(i) if len(team) > 1 else _seat_name(team[0], self.you)
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


def play(game: Game, lines: TextIO) -> int:
    """Run the match, reading the person's commands from ``lines``; returns the exit status."""
    interactive = _is_terminal(lines)
    game.say(f"You are seat {game.you}. Type help for the commands.")
    while True:
        game.bot_moves()
        if game.match.is_over:
            game.finish()
            return 0
        if not game.shown:
            game.show()
        prompt = _prompt(game.match.view(game.you)) + " > "
        if interactive:
            game.out.write(prompt)
            game.out.flush()
        line = lines.readline()
        if not line:
            game.say(("\n" if interactive else "") + "(end of input: leaving the game)")
            return 0
        if not interactive:
            game.say(prompt + line.strip())  # a transcript reads like the game
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
) -> int:
    """The ``play`` command; returns the exit status."""
    from hand_rummy.bots import GreedyBot  # noqa: PLC0415 (only the playing commands need bots)
    from hand_rummy.cli_simulate import (  # noqa: PLC0415
        UsageError,
        make_bot,
        parse_bots,
        ruleset_for,
        seat_bots,
    )
    from hand_rummy.match import Match  # noqa: PLC0415

    try:
        if players < 1:
            raise UsageError(f"--players must be a positive number, not {players}")
        ruleset = ruleset_for(rules, variants, players)
        if not 0 <= you < players:
            raise UsageError(f"--you {you}: the seats are 0 to {players - 1}")
        names = parse_bots(bots, players - 1, what="--bots")
        if length is not None and length < 1:
            raise UsageError(f"--rounds must be a positive number, not {length}")
    except UsageError as err:
        print(f"hand-rummy play: {err}", file=sys.stderr)
        return 2
    others = [s for s in range(players) if s != you]
    seated: dict[int, Bot] = {
        seat: make_bot(name, seed * 31 + seat)
        for seat, name in zip(others, seat_bots(names, len(others)), strict=True)
    }
    match = Match.new(fixed_rounds(ruleset, length), players, seed)
    game = Game(match, you, seated, sys.stdout, GreedyBot(seed=seed))
    return play(game, sys.stdin)
