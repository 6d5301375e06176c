"""``hand-rummy play`` as a person meets it: scripted sessions checked by what they print,
and runs inside a pseudo-terminal for line editing and the pause between rounds.

The positions are explicit deals, so each test knows the hands; the bot that
sits opposite changes nothing on the table (it draws and throws its card away).
"""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import hand_rummy as hr
from hand_rummy.actions import Action, DrawStock, LayOff, PassRedeal
from hand_rummy.bots import GreedyBot
from hand_rummy.cards import JOKER
from hand_rummy.cli_play import Game, describe_wilds, play, render_view
from hand_rummy.match import Deal, Match
from hand_rummy.melds import MeldRules
from hand_rummy.round import PlayerView
from hand_rummy.rules.presets import PRESETS
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.state import TableMeld

LEVANT = hr.rulesets.levant
OPENER = "9H 10H JH QH 4S 4D AC AC 2S 5S 7D 9S KC 3D"
"""With the 8♣ indicator the A♣ are wild: 9♥-Q♥ and 4♠ 4♦ A♣ open with 51."""


def _deal(
    ruleset: hr.Ruleset,
    players: int,
    dealer: int,
    hands: dict[int, str],
    *,
    indicator: str | None = None,
) -> Deal:
    """The given hands; the other seats get the first cards left in deck order."""
    pool = Counter(p.card for p in ruleset.deck.cards())
    given_hands = {s: hr.parse_cards(h) for s, h in hands.items()}
    for cards in (*given_hands.values(), hr.parse_cards(indicator or "")):
        pool.subtract(cards)
    assert not -pool, "the scenario uses more copies than the deck has"
    rest = sorted(pool.elements(), key=lambda c: (c.is_joker, c.suit or 0, c.rank or 0))
    starter = ruleset.deal.starter(dealer, players)
    out: list[tuple[hr.Card, ...]] = []
    for seat in range(players):
        if seat in given_hands:
            out.append(given_hands[seat])
            continue
        extra = ruleset.deal.starter_extra_card and seat == starter
        size = ruleset.deal.hand_size + (1 if extra else 0)
        out.append(tuple(rest[:size]))
        del rest[:size]
    return Deal(out, rest, (), indicator)


class Plain:
    """A bot that keeps its deal, draws from the stock and discards its last card."""

    def choose(self, view: PlayerView) -> Action:
        legal = list(view.legal_actions())
        for wanted in (PassRedeal(), DrawStock()):
            if wanted in legal:
                return wanted
        return legal[-1]


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sessions print to a terminal 200 columns wide, whatever runs the tests, so that
    a message is read whole off one line; the tests of narrow terminals set their own."""
    monkeypatch.setenv("COLUMNS", "200")


def _game(hand: str = OPENER, *, length: int = 1) -> tuple[Game, io.StringIO]:
    """The person at seat 1 with ``hand``; the bot at seat 0 starts (15 cards) and discards."""
    deal = _deal(LEVANT, 2, 1, {1: hand}, indicator="8C")
    match = Match.new(LEVANT, 2, seed=1, dealer=1, deals=[deal], length=length, custom_length=True)
    out = io.StringIO()
    return Game(match, 1, {0: Plain()}, out, GreedyBot(seed=1)), out


def _session(script: str, hand: str = OPENER) -> str:
    game, out = _game(hand)
    assert play(game, io.StringIO(script)) == 0
    return out.getvalue()


def _after(text: str, marker: str) -> str:
    """What was printed after the last ``marker``."""
    assert marker in text, f"{marker!r} not printed"
    return text.rsplit(marker, 1)[1]


# --- malformed input: a message, never a traceback ----------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("discard ²", "'²' is not a card: type a card's number with the digits 0-9"),
        ("discard ٣", "'٣' is not a card: type a card's number with the digits 0-9"),
        ("discard ½", "'½' is not a card: type a card's number with the digits 0-9"),
        ("discard 1OH", "'1OH' is not a card: write a rank"),
        ("layoff 10H ³", "'³' is not a meld number: end with the number shown in [ ] on the"),
        ("exchange 8H ²", "'²' is not a meld number"),
        ("discard 99", "there is no card number 99 in your hand; your cards are numbered 1-14"),
        ("discard 0", "there is no card number 0 in your hand"),
        ("discard " + "9" * 5000, "there is no card number '99999999999999999999…' in your hand"),
        ("layoff 10H " + "7" * 5000, "there is no meld '77777777777777777777…' on the table"),
        ("meld AC=3 2C 3C", "'3': a wild card's role is a card, e.g. AC=8H"),
        ("meld =8H 9H 10H", "'=8H': write a wild card's role as AC=8H"),
        ("meld 9H AC=Z 10H", "'Z' is not a card: write a rank"),
        ("\x1b[A", "unknown command '\\x1b[A'; type help for the commands"),
        ("x" * 5000, "unknown command 'xxxxxxxxxxxxxxxxxxxx…'"),
    ],
)
def test_a_malformed_line_gets_a_message_not_a_traceback(line: str, message: str) -> None:
    game, out = _game()
    game.bot_moves()
    assert game.person(line) is True
    said = out.getvalue().strip().splitlines()[-1]
    assert message in said and len(said) < 200


def test_a_bad_card_is_explained_once() -> None:
    """It used to say "'ZZ' is not a card: 'ZZ' at position 0 is not a card: ..."."""
    game, out = _game()
    game.bot_moves()
    game.person("discard ZZ")
    said = out.getvalue().strip().splitlines()[-1]
    assert said.count("is not a card") == 1 and "position" not in said
    assert said.startswith("'ZZ' is not a card: write a rank (A, 2-10 or T, J, Q, K)")
    assert said.endswith("or the card's number in your hand")


_VERBS = ["draw", "take", "meld", "layoff", "exchange", "discard", "claim", "keep", "hint"]
_WORDS = st.sampled_from(
    [*_VERBS, "9H", "AC", "AC=8H", "=", "/", "+", "announce", "JK", "1", "3", "15", "0", "²", "٣"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(_WORDS, st.text(max_size=6)), max_size=6))
def test_no_line_raises(words: list[str]) -> None:
    """Whatever is typed, the game answers in words and goes on."""
    line = " ".join(words)
    assume(not {"q", "quit", "exit"} & set(line.lower().split()[:1]))
    game, out = _game()
    game.bot_moves()
    assert game.person(line) is True  # a line that is not "quit" never ends the game
    assert "Traceback" not in out.getvalue()


# --- refusals: what is wrong, which card, and the rule -----------------------------------------


def test_a_refusal_names_the_missing_card_and_shows_the_rule() -> None:
    out = _session("draw\nmeld 7D 8D 9D\nquit\n")
    said = _after(out, "> meld 7D 8D 9D\n").splitlines()
    assert said[0] == "Not allowed: 7♦ 8♦ 9♦ are not all in your hand (missing 8♦ 9♦)"
    # the rule in words, then its id in the rulebook: playing only one's own cards
    assert said[1].startswith("  (rule: Only the player whose turn it is plays")
    assert said[1].endswith(" [levant.turn.own-cards])")


def test_a_refusal_shows_the_rule_in_words_and_its_id() -> None:
    game, out = _game()
    game.bot_moves()
    game.person("draw")
    refused = game.match.check(LayOff(1, hr.Card.parse("9H")))
    (violation,) = refused.violations
    # before opening nothing is laid off (000 §The first meld): the Levant rule, not another's
    assert violation.rule_ids == ("levant.layoff.after-opening",)
    assert "§" not in violation.rule  # words for a player, not a document reference
    game.person("layoff 9H 1")
    assert out.getvalue().endswith(
        f"Not allowed: {violation.message}\n"
        f"  (rule: {violation.rule} [levant.layoff.after-opening])\n"
    )


def test_counts_of_one_are_singular() -> None:
    """The pile holds the bot's one discard: "(1 card)", never "(1 cards)"."""
    out = _session("quit\n")
    assert "discard pile top " in out and "(1 card)" in out
    assert "1 cards" not in out


# --- what is wild, in plain words --------------------------------------------------------------


def test_a_two_of_spades_indicator_says_the_jokers_are_not_wild() -> None:
    """Issue 11: "the jokers count as A♠" read as if jokers were wild."""
    lines = describe_wilds(MeldRules.of(LEVANT, indicator="2S"))
    assert lines[0] == "Indicator 2♠. Wild cards: the two A♠."
    assert lines[1] == "The two jokers are not wild this round: each is a natural A♠."
    assert lines[2].startswith("Wild limits: ") and "At most 1 wild card per meld" in lines[2]
    assert not any("count as" in line for line in lines)


def test_the_hand_shows_what_a_joker_that_is_not_wild_is() -> None:
    out = _session("quit\n", hand=OPENER.replace("KC", "JK"))
    assert re.search(r"\d+:JK\(=A♣\)", out)  # JK(=A♣): a natural A♣ this round
    assert re.search(r"\d+:A♣\*", out)  # the wild A♣ is marked


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_wild_words_follow_the_rules_not_the_preset(name: str) -> None:
    """Whatever the preset or indicator, the words name exactly the cards the rules make
    wild, and say what the jokers are when they are not wild."""
    ruleset = PRESETS[name]
    for indicator in ("2S", "AH", "KD") if ruleset.uses_indicator else (None,):
        try:
            rules = MeldRules.of(ruleset, indicator)
        except hr.HandRummyError:  # an indicator these rules turn again
            continue
        lines = describe_wilds(rules)
        wild = rules.wilds.wild
        if wild:
            assert "Wild cards: " in lines[0]
            for card in wild:
                assert ("jokers" if card.is_joker else str(card)) in lines[0]
        else:
            assert "No card is wild this round." in lines[0]
        joker_line = [line for line in lines if line.startswith("The ") and "joker" in line]
        not_wild = ruleset.deck.jokers > 0 and not rules.is_wild(JOKER)
        assert bool(joker_line) == not_wild
        if joker_line and rules.wilds.natural_as(JOKER) != JOKER:
            assert f"a natural {rules.wilds.natural_as(JOKER)}" in joker_line[0]


# --- a laid wild shows its role wherever the meld is shown ------------------------------------


def test_the_meld_line_shows_each_wild_card_and_what_it_stands_for() -> None:
    out = _session("draw\nmeld 9H 10H JH QH / 4S 4D AC\nlayoff AC=KH 1\nquit\n")
    assert "You meld [1] 9♥ 10♥ J♥ Q♥ + [2] 4♠ 4♦ A♣(=4♣)\n" in out
    assert "You lay off A♣ (as K♥) on meld 1: now 9♥ 10♥ J♥ Q♥ A♣(=K♥)\n" in out


# --- card numbers hold for the turn ------------------------------------------------------------


def _numbers(screen: str) -> dict[str, list[int]]:
    """Card -> the numbers shown beside it in the last hand printed."""
    hand = _after(screen, "Your hand:\n").split("\nYour turn")[0]
    found: dict[str, list[int]] = {}
    for number, card in re.findall(r"(\d+):(\S+?)(?:\*|°|\(=\S+\))?(?=\s|$)", hand):
        found.setdefault(card, []).append(int(number))
    return found


def test_a_drawn_card_gets_the_next_number_and_the_others_keep_theirs() -> None:
    game, out = _game()
    game.bot_moves()
    game.show()
    before = _numbers(out.getvalue())
    assert sorted(n for ns in before.values() for n in ns) == list(range(1, 15))
    game.person("draw")
    (drawn,) = Counter(game.match.view(1).hand) - Counter(hr.parse_cards(OPENER))
    assert f"You draw from the stock: {drawn}, card 15 in your hand" in out.getvalue()
    game.show()
    after = _numbers(out.getvalue())
    assert after.pop(str(drawn))[-1] == 15
    assert {c: ns for c, ns in after.items() if c in before} == before
    # after a lay-down the cards left keep their numbers, and "15" still means the drawn card
    game.person("meld 7 8 9 10 / 12 13 2")  # 9♥-Q♥ and 4♠ 4♦ A♣, typed by number
    game.show()
    left = {(n, c) for c, ns in _numbers(out.getvalue()).items() for n in ns}
    assert left - {(n, c) for c, ns in before.items() for n in ns} == {(15, str(drawn))}
    game.person("discard 8")
    assert (
        out.getvalue()
        .rstrip()
        .endswith(
            "card 8 has left your hand this turn; your cards now are numbered 1, 3-6, 11, 14-15 "
            "(type show to see them)"
        )
    )
    game.person("discard 15")
    assert f"You discard {drawn}\n" in out.getvalue()


def test_each_turn_starts_with_the_hand_numbered_from_one() -> None:
    out = _session("draw\ndiscard 1\ndraw\nquit\n")
    last = _numbers(out)
    assert sorted(n for ns in last.values() for n in ns) == list(range(1, 16))
    assert "a card you draw or take gets the next" in _session("help\nquit\n")


# --- the screen fits the terminal --------------------------------------------------------------


def _view() -> PlayerView:
    match = Match.new(hr.rulesets.levant, 4, 7)
    return match.view(0)


def test_the_players_line_fits_the_width() -> None:
    view = _view()
    wide = render_view(view, (0, 0, 0, 0), None, 1, width=200).splitlines()
    assert any(line.startswith("Players: seat 0 (you): ") and "; seat 3: " in line for line in wide)
    narrow = render_view(view, (0, 0, 0, 0), None, 1, width=60).splitlines()
    assert "Players:" in narrow
    assert all(len(line) <= 60 for line in narrow), [line for line in narrow if len(line) > 60]


def test_the_width_is_the_terminals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert any(line.startswith("Players: seat 0") for line in render_view(_view()).splitlines())
    monkeypatch.setenv("COLUMNS", "60")
    assert "Players:" in render_view(_view()).splitlines()


NARROW_SCRIPT = (
    "help\nrules\nhint\nmeld 7D 8D 9D\ndiscard ZZ\ndraw\nmeld 9H 10H JH QH / 4S 4D AC\n"
    "layoff AC=KH 1\ndiscard 2S\nquit\n"
)


def _too_wide(transcript: list[str], width: int) -> list[str]:
    """The lines wider than ``width``; of a prompt and the command typed after it, the
    prompt alone counts (a terminal wraps what the person types)."""
    printed = (line.split(" > ", 1)[0] + " > " if " > " in line else line for line in transcript)
    return [line for line in printed if len(line) > width]


@pytest.mark.parametrize("width", [40, 52, 80])
def test_on_a_narrow_terminal_no_line_is_wider_than_it(
    width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    narrow = _session(NARROW_SCRIPT)
    monkeypatch.setenv("COLUMNS", "200")
    wide = _session(NARROW_SCRIPT)
    assert _too_wide(wide.splitlines(), width)  # else there was nothing to wrap
    assert not _too_wide(narrow.splitlines(), width), _too_wide(narrow.splitlines(), width)
    # wrapped at spaces: the messages keep every word, in order
    words = " ".join(narrow.split())
    for line in wide.splitlines():
        if line.startswith(("Not allowed:", "  (rule:", "'ZZ' is not a card", "You meld")):
            assert " ".join(line.split()) in words
    assert " ".join(LEVANT.describe().split()) in words
    assert "the number of a card you play is not given to another one." in words


def test_a_terminal_narrower_than_40_columns_gets_40(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "12")
    lines = _session("help\nquit\n").splitlines()
    assert not _too_wide(lines, 40)
    assert max(map(len, lines)) > 30  # not wrapped at 12


def test_help_keeps_its_columns_when_it_is_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    help_text = _after(_session("help\nquit\n"), "> help\n").split("\nYour first")[0]
    lines = help_text.splitlines()
    assert "  meld 7H 8H 9H     lay down a meld; several with / or +:" in lines
    assert "                    meld 7H 8H 9H / 5S 5D 5C" in lines
    assert not _too_wide(lines, 60)


def test_table_rows_line_up_past_meld_9() -> None:
    table = tuple(
        TableMeld(number, number % 4, hr.Meld.of(cards), MeldKind.RUN)
        for number, cards in enumerate(["2H 3H 4H", "9S 10S JS QS KS"] * 6, start=1)
    )
    view = attrs.evolve(_view(), table=table)
    rows = [line for line in render_view(view, width=100).splitlines() if "] " in line]
    assert [row.index("] ") for row in rows] == [rows[0].index("] ")] * len(rows)
    assert len({row.index("seat") for row in rows}) == 1
    assert rows[8].startswith("   [9] ") and rows[9].startswith("  [10] ")


# --- the round summary waits on a terminal, never in a pipe -------------------------------------

PAIRS = "3H 3H 5C 5C 7D 7D 9S 9S JH QH KH 2C 4C 6D"
"""Four pairs: the person may claim a redeal (000 §Setup 4), which ends the round at once."""


class Terminal(io.StringIO):
    """Typed lines, answering to isatty() as a terminal does; records each prompt."""

    def __init__(self, lines: list[str], out: io.StringIO) -> None:
        super().__init__("".join(lines))
        self.out = out
        self.prompts: list[str] = []

    def isatty(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.prompts.append(self.out.getvalue().rsplit("\n", 1)[-1])
        return super().readline()


def _redeal_game() -> tuple[Game, io.StringIO]:
    deal = _deal(LEVANT, 2, 1, {1: PAIRS}, indicator="8C")
    match = Match.new(LEVANT, 2, seed=1, dealer=1, deals=[deal], length=2, custom_length=True)
    out = io.StringIO()
    return Game(match, 1, {0: Plain()}, out, GreedyBot(seed=1)), out


def test_on_a_terminal_the_round_summary_waits_for_enter() -> None:
    game, out = _redeal_game()
    typed = Terminal(["claim\n", "\n", "quit\n"], out)
    assert play(game, typed) == 0
    assert typed.prompts[1] == "Press Enter for round 2 (or quit) > "
    text = out.getvalue()
    summary = text.index("-- Round 1 is over --")
    pause = text.index("Press Enter for round 2")
    assert "Seat 0 " not in text[summary:pause]  # nothing of round 2 before Enter
    assert "== Round 2 of" in text[pause:]


def test_the_end_of_input_at_the_pause_ends_the_game() -> None:
    game, out = _redeal_game()
    assert play(game, Terminal(["claim\n"], out)) == 0
    text = out.getvalue()
    assert text.rstrip().endswith("(end of input: leaving the game)")
    assert "== Round 2 of" not in text


def test_piped_input_does_not_pause() -> None:
    game, out = _redeal_game()
    assert play(game, io.StringIO("claim\nquit\n")) == 0
    text = out.getvalue()
    assert "-- Round 1 is over --" in text and "Press Enter" not in text
    assert "== Round 2 of" in text and text.rstrip().endswith("You leave the game.")


# --- inside a real terminal --------------------------------------------------------------------


class Pty:
    """``hand-rummy play`` running in a pseudo-terminal, typed into as a person types."""

    def __init__(self, *args: str) -> None:
        import pty  # noqa: PLC0415 (POSIX only)

        self.master, slave = pty.openpty()
        src = str(Path(hr.__file__).resolve().parents[1])
        path = os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "TERM": "xterm", "PYTHONPATH": path, "COLUMNS": "100"}
        command = [sys.executable, "-m", "hand_rummy", "play", *args]
        self.process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env)
        os.close(slave)
        self.seen = b""

    def wait_for(self, text: str, count: int = 1, timeout: float = 60) -> str:
        """Read until ``text`` has been printed ``count`` times; everything printed so far."""
        token, end = text.encode(), time.monotonic() + timeout
        while self.seen.count(token) < count and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:  # the game has ended and closed the terminal
                    break
        shown = self.seen.decode(errors="replace")
        assert self.seen.count(token) >= count, f"{text!r} x{count} not shown:\n{shown}"
        return shown

    def drain(self, seconds: float) -> str:
        """Everything printed so far, after ``seconds`` more of reading."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:
                    break
        return self.seen.decode(errors="replace")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        try:
            return self.process.wait(timeout=30)
        finally:
            os.close(self.master)


pty_only = pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(os, "openpty"), reason="needs a POSIX terminal"
)


@pty_only
def test_in_a_terminal_the_up_arrow_brings_back_the_last_command() -> None:
    pytest.importorskip("readline")
    game = Pty("--rules", "levant", "--players", "2", "--seed", "3")
    try:
        game.wait_for("(the starter only discards) > ")  # seed 3: you start
        game.type("hint\r")
        game.wait_for("Hint: ")
        game.type("\x1b[A\r")  # Up, then Enter: the same command again
        shown = game.wait_for("Hint: ", count=2)
        assert "unknown command" not in shown
        game.type("quit\r")
        game.wait_for("You leave the game.")
    finally:
        assert game.close() == 0


@pty_only
def test_in_a_terminal_the_round_summary_waits_for_enter() -> None:
    """Seed 3 deals seat 1 a hand that may claim a redeal: claiming ends round 1 at once."""
    game = Pty("--rules", "levant", "--players", "2", "--seed", "3", "--you", "1")
    try:
        game.wait_for("claim or keep > ")
        game.type("claim\r")
        game.wait_for("Press Enter for round 2 (or quit) > ")
        shown = game.drain(1.0)  # had the game gone on, round 2 would be printed by now
        assert "-- Round 1 is over --" in shown and "== Round 2" not in shown
        game.type("\r")
        game.wait_for("== Round 2 of levant")
        game.type("quit\r")
        game.wait_for("You leave the game.")
    finally:
        assert game.close() == 0


def test_rules_shows_the_rules_of_the_game_in_words() -> None:
    out = _after(_session("rules\nquit\n"), "> rules\n")
    # the words of describe(), each rule's text wrapped in its column where it is long
    assert " ".join(out.split()).startswith(" ".join(LEVANT.describe().split()))
    lines = out.splitlines()
    text_column = max(len(label) for _, label, _ in LEVANT.dimensions()) + 2
    for _, label, text in LEVANT.dimensions():
        (first,) = [line for line in lines if line.startswith(f"{label:<{text_column}}")]
        assert text.startswith(first[text_column:])
    assert all(len(line) <= 200 for line in lines)
