"""``hand-rummy play`` end to end with scripted input, and its command parser."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import hand_rummy as hr
from hand_rummy.actions import Discard, DrawStock, Exchange, LayDown, LayOff, PassRedeal
from hand_rummy.cards import parse_card
from hand_rummy.cli import main
from hand_rummy.cli_play import (
    CommandError,
    action_for,
    command_text,
    describe_move,
    parse_command,
    render_view,
)
from hand_rummy.match import Match
from hand_rummy.round import Phase, PlayerView
from hand_rummy.rules.presets import build

SEED = 7


def _starter(rules: str, players: int, seed: int) -> int:
    match = Match.new(build(rules), players, seed)
    assert match.current is not None
    return match.current.turn


def _play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    script: str,
    args: list[str],
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    # a terminal wide enough that the messages checked here are printed on one line each
    # (tests/test_cli_play_sessions.py checks the wrapping for narrow ones)
    monkeypatch.setenv("COLUMNS", "200")
    status = main(["play", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_an_illegal_command_is_explained_and_the_next_one_works(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """000: the starter holds 15 cards and only discards on the first turn, so no draw."""
    you = _starter("levant", 4, SEED)
    match = Match.new(build("levant"), 4, SEED)
    while match.current is not None and match.current.phase is Phase.REDEAL:
        match = match.apply(PassRedeal())  # every seat is asked first; the bots keep the deal
    refused = match.check(DrawStock())
    assert not refused.ok
    hand = sorted(match.view(you).hand)
    script = f"draw\ndiscard {hand[-1].ascii}\nquit\n"
    args = ["--rules", "levant", "--players", "4", "--seed", str(SEED), "--you", str(you)]
    status, out, err = _play(monkeypatch, capsys, script, args)
    assert status == 0 and err == ""
    assert "Not allowed: " + refused.violations[0].message in out
    assert f"You discard {hand[-1]}\n" in out
    # the bots play on after the person's move, and the game waits for the next command
    assert f"Seat {(you + 1) % 4} " in out.split(f"You discard {hand[-1]}")[1]
    assert out.rstrip().endswith("You leave the game.")


def test_the_screen_shows_hand_table_piles_wilds_and_scores(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    you = _starter("levant", 4, SEED)
    args = ["--rules", "levant", "--players", "4", "--seed", str(SEED), "--you", str(you)]
    _, out, _ = _play(monkeypatch, capsys, "", args)
    match = Match.new(build("levant"), 4, SEED)
    view = match.view(you)
    assert view.indicator is not None
    assert f"Indicator {view.indicator}. Wild cards: " in out
    assert f"Stock {view.stock_size} cards; discard pile empty" in out
    assert "Table: no melds yet" in out
    assert f"seat {you} (you): 15 cards, total 0" in out
    first = sorted(view.hand)[0]
    assert f"1:{first}" in out  # the hand sorted by suit and rank, numbered
    assert "(end of input: leaving the game)" in out


def test_a_scripted_game_draws_and_discards_for_a_few_turns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A person at seat 0 draws and discards their first card three times, then quits."""
    script = "draw\ndiscard 1\n" * 3 + "quit\n"
    args = ["--rules", "romme", "--players", "3", "--seed", "4", "--bots", "greedy,random"]
    status, out, err = _play(monkeypatch, capsys, script, args)
    assert status == 0 and err == ""
    assert out.count("You draw ") + out.count("You take ") >= 2
    assert out.count("You discard ") == 3
    assert "Seat 1 " in out and "Seat 2 " in out
    assert "Your turn: draw or take > draw" in out  # piped input is echoed as a transcript
    assert "Traceback" not in out


def test_hint_help_and_unparsable_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "hint\nhelp\nfly away\nlayoff 10H\ndiscard QX\n\nshow\n"
    args = ["--rules", "classic", "--players", "2", "--seed", "3"]
    status, out, _ = _play(monkeypatch, capsys, script, args)
    assert status == 0
    assert "Hint: " in out
    assert "layoff 10H 3" in out  # the help text
    assert "unknown command 'fly'; type help for the commands" in out
    assert "usage: layoff CARD MELD" in out
    assert "'QX' is not a card" in out
    assert out.count("== Round 1 of") >= 2  # show draws the table again


def test_a_whole_short_match_reports_rounds_and_the_winner(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The person plays the hint every time: the match ends and the winner is named."""
    from hand_rummy.bots import GreedyBot  # noqa: PLC0415
    from hand_rummy.cli_play import Game, play  # noqa: PLC0415

    match = Match.new(build("levant"), 2, 11, length=1, custom_length=True)
    out = io.StringIO()
    game = Game(match, 0, {1: GreedyBot(seed=1)}, out, GreedyBot(seed=2))
    me = GreedyBot(seed=3)

    class Hints(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            return command_text(me.choose(game.match.view(0))) + "\n"

    assert play(game, Hints()) == 0
    text = out.getvalue()
    assert "Not allowed" not in text
    assert "-- Round 1 is over --" in text
    assert "== The match is over ==" in text
    assert text.rstrip().endswith(("wins.", "share the win."))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "chess", "--players", "2"], "unknown rules 'chess'"),
        (["--rules", "romme", "--variant", "corner", "--players", "2"], "unknown variant"),
        (["--rules", "gulf", "--players", "2"], "gulf is for 4 players"),
        (["--rules", "levant", "--players", "2", "--bots", "smart"], "unknown bot 'smart'"),
        (["--rules", "levant", "--players", "2", "--you", "2"], "the seats are 0 to 1"),
    ],
)
def test_bad_arguments_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    status, out, err = _play(monkeypatch, capsys, "", args)
    assert status == 2 and out == ""
    assert err.startswith("hand-rummy play: error: ") and message in err
    assert "Traceback" not in err


# --- the command parser -------------------------------------------------------------------------


def _view(rules: str = "levant", seed: int = SEED) -> PlayerView:
    match = Match.new(build(rules), 4, seed)
    assert match.current is not None
    return match.view(match.current.turn)


def test_cards_are_typed_in_three_ways_or_by_number() -> None:
    view = _view()
    for word in ("10H", "TH", "10♥", "th"):
        assert action_for(parse_command(f"discard {word}"), view) == (Discard(parse_card("10H")),)
    first = sorted(view.hand)[0]
    assert action_for(parse_command("discard 1"), view) == (Discard(first),)
    assert action_for(parse_command("discard KS announce"), view) == (
        Discard(parse_card("KS"), announce=True),
    )


def test_melds_roles_lay_offs_and_exchanges() -> None:
    view = _view()
    (lay,) = action_for(parse_command("meld 7H AC=8H 9H + 5S 5D 5C"), view)
    assert isinstance(lay, LayDown) and len(lay.melds) == 2
    assert lay.melds[0].roles[1] == parse_card("8H")
    assert action_for(parse_command("layoff AC=10H 3"), view) == (
        LayOff(3, parse_card("AC"), parse_card("10H")),
    )
    assert action_for(parse_command("exchange 5H 5C 2"), view) == (
        Exchange(2, (parse_card("5H"), parse_card("5C"))),
    )


@pytest.mark.parametrize(
    "line", ["", "dance", "meld", "meld /", "layoff 10H", "layoff 10H x", "discard", "draw 3"]
)
def test_unparsable_lines(line: str) -> None:
    with pytest.raises(CommandError):
        parse_command(line)


def test_command_text_reads_back() -> None:
    view = _view()
    for line in ("draw", "take", "discard KS", "layoff AC=10H 3", "meld 7H AC=8H 9H / 5S 5D 5C"):
        actions = action_for(parse_command(line), view)
        assert command_text(actions[0]) == line


def test_render_view_has_no_escape_codes() -> None:
    text = render_view(_view("romme", 2), (0, 0, 0, 0), None, 1)
    assert "\x1b" not in text and "Your hand:" in text


def test_render_view_names_each_teams_seats() -> None:
    """In a partnership game the teams' totals say who is in each team, as every other
    mention of a team does."""
    text = render_view(_view("partnership"), (10, 20, 30, 40), (40, 60), 1, width=200)
    assert "team 1 (seats 0 and 2): 40" in text and "team 2 (seats 1 and 3): 60" in text


def test_a_short_bots_list_is_repeated_round_the_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 10: ``--bots greedy,random`` with four players crashed with an IndexError."""
    from hand_rummy import cli_play  # noqa: PLC0415
    from hand_rummy.bots import GreedyBot, RandomBot  # noqa: PLC0415

    seated: dict[int, type] = {}

    def capture(game: cli_play.Game, lines: object) -> int:
        seated.update({seat: type(bot) for seat, bot in game.bots.items()})
        return 0

    monkeypatch.setattr(cli_play, "play", capture)
    args = ["--rules", "levant", "--players", "4", "--bots", "greedy,random", "--you", "1"]
    status, _, err = _play(monkeypatch, capsys, "", args)
    assert status == 0 and err == ""
    assert seated == {0: GreedyBot, 2: RandomBot, 3: GreedyBot}


def test_the_bots_list_is_read_as_simulate_reads_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "quit\n"
    args = ["--rules", "levant", "--players", "4", "--bots", "greedy,random"]
    status, out, err = _play(monkeypatch, capsys, script, args)
    assert status == 0 and err == "" and out.rstrip().endswith("You leave the game.")
    # more names than the other seats is still refused, with the reason
    args = ["--rules", "levant", "--players", "3", "--bots", "greedy,random,greedy"]
    status, out, err = _play(monkeypatch, capsys, script, args)
    assert status == 2 and "3 bots for 2 seats" in err


def test_play_seats_your_own_bot_and_names_a_failing_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same --bots as simulate: a module:Class reference; a bot that raises stops the
    game with its seat and error, not a traceback."""
    args = ["--rules", "levant", "--players", "2", "--bots", "sample_bots:SeedlessBot"]
    status, _, err = _play(monkeypatch, capsys, "quit\n", args)
    assert status == 0 and err == ""
    args = ["--rules", "classic", "--players", "2", "--you", "1"]
    script = "draw\ndiscard 1\n" * 10
    raising = [*args, "--bots", "sample_bots:RaisingBot"]
    status, _, err = _play(monkeypatch, capsys, script, raising)
    # as simulate words it and exits: the bot named by its spec, not its repr; status 1
    assert status == 1
    assert (
        err == "hand-rummy play: error: seat 0 (sample_bots:RaisingBot) raised: ValueError: "
        "the bot gave up\n"
    )
    # an error that cannot say what it is, or a choice that cannot be shown, is still named
    unreadable = [*args, "--bots", "sample_bots:UnreadableErrorBot"]
    status, _, err = _play(monkeypatch, capsys, script, unreadable)
    assert (status, err) == (
        1,
        "hand-rummy play: error: seat 0 (sample_bots:UnreadableErrorBot) raised: "
        "_UnreadableError: (its message could not be read)\n",
    )
    unprintable = [*args, "--bots", "sample_bots:UnprintableChoiceBot"]
    status, _, err = _play(monkeypatch, capsys, script, unprintable)
    assert status == 1 and "returned an object of type _Unprintable whose repr() failed" in err
    status, _, err = _play(monkeypatch, capsys, script, [*args, "--bots", "nowhere:Bot"])
    assert status == 2 and "--bots: bot 'nowhere:Bot': cannot import 'nowhere'" in err


BAD_BOTS = """
class BadInit:
    def __init__(self, seed):
        raise ValueError("no dice")

    def choose(self, view):
        raise AssertionError
"""


@pytest.mark.parametrize(
    ("bot", "why"),
    [
        ("bad_bots:BadInit", "ValueError: no dice"),
        ("builtins:dict", "TypeError: 'int' object is not iterable"),
        ("os:getcwd", "BotLoadError: bot 'os:getcwd' made a str, which has no choose(view) method"),
        ("sample_bots:NotABot", "BotLoadError: bot 'sample_bots:NotABot' made a NotABot, "),
    ],
)
def test_a_bot_that_cannot_be_made_is_reported_as_simulate_reports_it(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    bot: str,
    why: str,
) -> None:
    """A constructor that raises, or a reference to something that is not a bot, printed
    a traceback; simulate reports it as a failed bot (exit 1), and so does play now."""
    (tmp_path / "bad_bots.py").write_text(BAD_BOTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["--rules", "classic", "--players", "2", "--bots", bot]
    status, out, err = _play(monkeypatch, capsys, "quit\n", args)
    assert status == 1 and out == ""
    assert err.startswith(f"hand-rummy play: error: seat 1 ({bot}) could not be made: {why}")
    assert "Traceback" not in err and err.count("\n") == 1


def test_play_says_when_the_length_is_custom(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--custom-length's help says "the summary says so": play said nothing of it."""
    note = (
        "Custom length: the match ends after 1 round, not as levant's own end rule says "
        "(after 7 scored rounds)."
    )
    args = ["--rules", "levant", "--players", "2", "--rounds", "1", "--custom-length"]
    status, out, err = _play(monkeypatch, capsys, "quit\n", args)
    assert status == 0 and err == ""
    assert out.splitlines()[:2] == ["You are seat 0. Type help for the commands.", note]
    status, out, _ = _play(monkeypatch, capsys, "quit\n", ["--rules", "levant", "--players", "2"])
    assert status == 0 and "Custom length" not in out


def _announcing_position() -> hr.Round:
    """Levant: seat 0 holds four cards after drawing; seat 1 went down to three without
    announcing (000 §Playing a turn, "Announcing": it may not go out on its next turn)."""
    return hr.Round.from_position(
        hr.Position(
            build("levant"),
            players=[
                hr.PositionSeat("KS 2H 7D 9C", opened=True, melded=True),
                hr.PositionSeat(hand_size=3, opened=True, melded=True, announced=0, missed=True),
            ],
            turn=0,
            phase=Phase.PLAY,
            table=[
                hr.PositionMeld(1, 0, hr.Meld.of("QC QD QH")),
                hr.PositionMeld(2, 1, hr.Meld.of("5S 6S 7S 8S")),
            ],
            discards="3D",
            indicator="8C",
        )
    )


def test_an_announcement_is_told_with_the_cards_left_and_a_missed_one_is_shown() -> None:
    """000 announces the count of cards left (three here), not "one card"; the screen says
    who missed an announcement, since that player may not go out next turn."""
    game = _announcing_position()
    discard = Discard(parse_card("KS"), announce=True)
    assert game.check(discard).ok
    assert describe_move(0, discard, game.view(0)) == (
        "Seat 0 discards K♠ and announces 3 cards left"
    )
    assert describe_move(0, discard, game.view(0), you=0).startswith("You discard K♠ and ")
    players = next(
        line
        for line in render_view(game.view(0), (0, 0), None, 1, width=200).splitlines()
        if line.startswith("Players:")
    )
    assert "seat 1: 3 cards, opened, missed an announcement" in players


def test_a_terminal_that_cannot_show_suits_gets_escapes_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Output to a stream in a code page without the suit signs (PYTHONIOENCODING=ascii, a
    file in a legacy code page) is escaped rather than ending in UnicodeEncodeError."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr("sys.stdout", stream)
    assert main(["rules", "show", "levant", "--list-variants"]) == 0
    stream.flush()
    text = raw.getvalue().decode("ascii")
    assert "000 \\xa7Variants" in text  # the section sign, escaped


def test_the_starter_s_bare_first_turn_is_prompted_as_a_discard(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """000 §Playing a turn: the player with 15 cards starts by simply discarding one card,
    so the prompt asks for that, not for melds (with seed 93 you are that player)."""
    args = ["--rules", "levant", "--players", "4", "--seed", "93"]
    status, out, err = _play(monkeypatch, capsys, "claim\nquit\n", args)
    assert status == 0 and err == ""
    assert "Your first turn: discard one card (the starter only discards) >" in out
    assert "meld, layoff, exchange, then discard" not in out


def test_play_without_a_standard_input_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Started with standard input closed (``<&-``), play traced back on its first read."""
    monkeypatch.setattr("sys.stdin", None)
    status = main(["play", "--rules", "classic", "--players", "2", "--rounds", "3"])
    captured = capsys.readouterr()
    assert (status, captured.out) == (2, "")
    assert captured.err == "hand-rummy play: error: no standard input to read the commands from\n"


def test_a_seed_of_more_than_40_digits_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was blamed on the first bot, which could not be made with it."""
    args = ["--rules", "classic", "--players", "2", "--rounds", "3", "--seed", str(10**40)]
    status, out, err = _play(monkeypatch, capsys, "quit\n", args)
    assert (status, out, err) == (2, "", "hand-rummy play: error: --seed has at most 40 digits\n")
