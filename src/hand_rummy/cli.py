"""The ``hand-rummy`` command line: judge rules questions, show the rule systems, simulate
bot matches, play against bots and write replay pages."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import re
import secrets
import stat
import sys
from collections.abc import Sequence
from typing import Any

from hand_rummy import __version__
from hand_rummy.cli_conformance import DESCRIPTION, HELP
from hand_rummy.cli_conformance import configure as configure_conformance
from hand_rummy.cli_errors import refuse
from hand_rummy.errors import HandRummyError
from hand_rummy.referee import LIMITS, answer_json
from hand_rummy.rules.presets import PRESETS, build, standalone, variants_for

__all__ = ["main"]


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _escaped(match: re.Match[str], *, encoding: str) -> str:
    """The character ``match`` holds, or its JSON escape where ``encoding`` cannot write it.
    JSON text holds characters beyond ASCII only inside strings, where an escape means the
    same; one beyond the first plane is written as the two halves of its surrogate pair."""
    char = match.group()
    try:
        char.encode(encoding)
    except UnicodeEncodeError:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
        return f"\\u{code:04x}"
    return char


def _judge(args: argparse.Namespace) -> int:
    # Read bytes, and no more than the limit allows: answer_json decodes them (refusing text
    # that is not UTF-8 with an answer, not a traceback) and refuses what is too long.
    size = LIMITS.text_bytes + 1
    data: str | bytes
    if args.file in (None, "-"):
        if sys.stdin is None:
            return refuse("judge", "no standard input to read")
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read(size) if stream is not None else sys.stdin.read(size)
    else:
        try:
            with open(args.file, "rb") as handle:
                data = handle.read(size)
        except OSError as err:
            return refuse("judge", f"cannot read {args.file}: {err.strerror}")
    result, clean = answer_json(data)
    indent = None if args.compact else 2
    text = json.dumps(result, ensure_ascii=args.ascii, indent=indent)
    encoding = sys.stdout.encoding or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        # a lone surrogate echoed from the question (\ud800), or a terminal that cannot show
        # a character: those characters alone are written as escapes, the same JSON
        text = _NON_ASCII.sub(functools.partial(_escaped, encoding=encoding), text)
    status = 0 if clean else 2
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away: the status still says whether an answer was an error
        _drop_output()
    return status


def _rules_list(args: argparse.Namespace) -> int:
    for name, ruleset in PRESETS.items():
        doc = (ruleset.players.describe(), ruleset.deck.describe())
        print(f"{name:<18} {doc[0]} {doc[1]}")
        variants = [v.name for v in variants_for(name) if not v.switch]
        switches = [v.name for v in variants_for(name) if v.switch]
        if variants:
            print(f"{'':<18} variants: {', '.join(variants)}")
        if switches:
            print(f"{'':<18} switches: {', '.join(switches)}")
    return 0


def _rules_show(args: argparse.Namespace) -> int:
    ruleset = build(args.name, args.variant or ())
    print(ruleset.describe())
    if args.list_variants:
        print()
        for variant in variants_for(args.name):
            kind = "switch " if variant.switch else "variant"
            # a switch that refines another variant's rule is named with that variant
            needs = standalone(args.name, variant.name)[:-1]
            also = f"; with {', '.join(needs)}" if needs else ""
            print(f"{kind} {variant.name:<26} {variant.summary} ({variant.source}{also})")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from hand_rummy import cli_simulate  # noqa: PLC0415 (the playing commands load the engine)

    return cli_simulate.command(
        rules=args.rules,
        variants=args.variant or (),
        players=args.players,
        matches=args.matches,
        bots=args.bots,
        seed=args.seed,
        jobs=args.jobs,
        length=args.rounds,
        as_json=args.json,
        on_error=args.on_error,
        time_limit=args.time_limit,
        duplicate=args.duplicate,
        custom_length=args.custom_length,
        out=args.out,
        backend=args.backend,
        address=args.address,
    )


def _report(args: argparse.Namespace) -> int:
    from hand_rummy import cli_report  # noqa: PLC0415

    return cli_report.command(path=args.file, plot=args.plot, as_json=args.json)


def _play(args: argparse.Namespace) -> int:
    from hand_rummy import cli_play  # noqa: PLC0415

    return cli_play.command(
        rules=args.rules,
        variants=args.variant or (),
        players=args.players,
        seed=args.seed,
        you=args.you,
        bots=args.bots,
        length=args.rounds,
        custom_length=args.custom_length,
    )


def _add_length_options(command: argparse.ArgumentParser, what: str) -> None:
    command.add_argument(
        "--rounds",
        type=int,
        metavar="R",
        help=f"{what} after R rounds. Under the app's presets (classic, saudi, ...) R is "
        "the match length the host chooses: 3, 5, 7 or 9. Any other R, and any R under "
        "the other presets (whose matches end otherwise), is a custom length: add "
        "--custom-length",
    )
    command.add_argument(
        "--custom-length",
        action="store_true",
        help="allow a number of rounds that the rules do not (the summary says so)",
    )


REPLAY_BYTES = 512 * 1024
"""The largest round or match document ``replay`` reads, in bytes. A match of Rommé over
21 rounds between four bots takes about 110 kB and its page about 2.6 MB; the page grows
with every action, and a document of 512 KiB makes one of 5 to 8 MB in 4 to 9 seconds."""


def _write_page(path: str, data: bytes) -> None:
    """Write ``data`` to a new file beside the page at ``path``, then rename it over the
    page: a write that fails (a full disk, say) leaves the page that was there untouched."""
    target = os.path.realpath(path)  # a link to the page stays a link
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        # a device or a pipe (/dev/stdout): nothing to keep, and nothing to rename over
        with open(target, "wb") as handle:
            handle.write(data)
        return
    folder, name = os.path.split(target)
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "xb") as handle:
            handle.write(data)
        if mode is not None:
            os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _replay(args: argparse.Namespace) -> int:
    from hand_rummy import replay, serialize  # noqa: PLC0415 (replaying loads the engine)
    from hand_rummy.match import Match  # noqa: PLC0415
    from hand_rummy.round import Round  # noqa: PLC0415

    # the page is UTF-8: an argument holding bytes that are not UTF-8 (which Python reads
    # as lone surrogates) cannot be written into it
    for option, text in (("--title", args.title), ("--names", args.names)):
        if text is not None and not _is_utf8(text):
            return refuse("replay", f"{option} {text!r} is not UTF-8 text, as the page must be")
    try:
        with open(args.file, "rb") as handle:
            document = handle.read(REPLAY_BYTES + 1)  # one byte past the limit at most
    except OSError as err:
        return refuse("replay", f"cannot read {args.file}: {err.strerror}")
    if len(document) > REPLAY_BYTES:
        return refuse(
            "replay",
            f"{args.file} is larger than {REPLAY_BYTES // 1024} KiB, the most that replay reads "
            "(a match of 21 rounds takes about 110 kB)",
        )
    try:
        text = document.decode("utf-8")
    except UnicodeDecodeError:
        return refuse("replay", f"cannot read {args.file}: not UTF-8 text")
    try:
        kind = json.loads(text).get("format")
    except (ValueError, AttributeError, RecursionError):
        kind = None  # loads says what is wrong with it
    if kind in (serialize.VIEW_FORMAT, serialize.POSITION_FORMAT):
        # a view or a position has no history to step through
        what = "a player's view" if kind == serialize.VIEW_FORMAT else "a position"
        return refuse(
            "replay",
            f"{args.file} is {what} ({kind}); replay steps through the moves of a round or a "
            f"match ({serialize.ROUND_FORMAT}, {serialize.MATCH_FORMAT})",
        )
    try:
        game = serialize.loads(text, "match" if kind == serialize.MATCH_FORMAT else "round")
    except HandRummyError as err:
        # a results file holds one match a line: the other JSON files of the command line
        hint = (
            " (it holds one JSON document a line, as a results file of `hand-rummy simulate` "
            "does: `hand-rummy report` reads those; replay reads one round or match)"
            if kind is None and text.strip().count("\n") and text.lstrip().startswith("{")
            else ""
        )
        return refuse("replay", f"{args.file}: {err}{hint}")
    assert isinstance(game, (Round, Match))
    names = None if args.names is None else [n.strip() for n in args.names.split(",")]
    try:
        page = replay.html(game, names=names, title=args.title)
    except HandRummyError as err:  # the names do not fit the players, say
        return refuse("replay", f"--names {args.names}: {err}")
    try:
        data = page.encode("utf-8")
    except UnicodeEncodeError:  # the options are checked above: any other text, never seen
        return refuse("replay", f"{args.file}: the page would hold text that is not UTF-8")
    try:
        _write_page(args.html, data)
    except OSError as err:
        return refuse("replay", f"cannot write {args.html}: {err.strerror}")
    print(f"wrote {args.html} ({len(data):,} bytes)")
    return 0


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _add_rules_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--rules", required=True, metavar="NAME", help="a preset: " + ", ".join(PRESETS)
    )
    command.add_argument(
        "--variant", "-v", action="append", metavar="V", help="apply a named variant (repeatable)"
    )
    command.add_argument("--players", type=int, required=True, metavar="N", help="players")
    command.add_argument("--seed", type=int, default=0, metavar="S", help="the seed (default 0)")


def _add_bots_option(command: argparse.ArgumentParser, seats: str) -> None:
    # simulate and play read the list alike (hand_rummy.tournament.entrants.parse_bots)
    command.add_argument(
        "--bots",
        default="greedy",
        metavar="B,B,...",
        help=f"the bots {seats}, one a seat: greedy, random, your own as "
        "package.module:Class (or a factory function), or a bot another package installs "
        "(entry-point group hand_rummy.bots); a shorter list is repeated round the table "
        "(default greedy)",
    )


def _command(
    group: argparse._SubParsersAction[argparse.ArgumentParser], name: str, **kwargs: Any
) -> argparse.ArgumentParser:
    """A command's parser that remembers itself, so that arguments it does not know are
    refused with its own usage rather than the top level's."""
    command = group.add_parser(name, **kwargs)
    command.set_defaults(command_parser=command)
    return command


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hand-rummy",
        description="Rules of Hand and Rommé: judge questions, show the rule systems, "
        "simulate bot matches and play against bots.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    judge = _command(
        commands,
        "judge",
        help="answer a JSON rules question (or an array of them)",
        description="Read a JSON question (or an array) in UTF-8 from FILE or standard input "
        "and print the answer as one JSON value, an error answer for input that is not JSON or "
        "is beyond the referee's limits. Exits 2 when any answer is an error.",
    )
    judge.add_argument("file", nargs="?", metavar="FILE", help="a JSON file; - or none for stdin")
    judge.add_argument("--compact", action="store_true", help="print the answer on one line")
    judge.add_argument("--ascii", action="store_true", help="escape non-ASCII characters")
    judge.set_defaults(run=_judge)
    conformance = _command(commands, "conformance", help=HELP, description=DESCRIPTION)
    configure_conformance(conformance)

    rules = _command(commands, "rules", help="list the rule systems or show one in words")
    which = rules.add_subparsers(dest="rules_command", required=True, metavar="list|show")
    listing = _command(which, "list", help="the presets, their variants and switches")
    listing.set_defaults(run=_rules_list)
    show = _command(which, "show", help="every rule of a preset (with variants) in words")
    show.add_argument("name", help="a preset: " + ", ".join(PRESETS))
    show.add_argument(
        "--variant", "-v", action="append", metavar="V", help="apply a named variant (repeatable)"
    )
    show.add_argument(
        "--list-variants", action="store_true", help="also list the variants that fit NAME"
    )
    show.set_defaults(run=_rules_show)

    simulate = _command(
        commands,
        "simulate",
        help="play many matches between bots and sum them up",
        description="Play M matches between bots (seats rotating from match to match) and "
        "print wins per bot, match totals, round endings and speed. Exits 0 when every match "
        "was played, 1 when a bot failed, 2 on bad arguments (or an --out file that cannot be "
        "written), 3 when the backend failed under the run (a worker process killed, Ray out "
        "of reach), 130 when interrupted (Ctrl-C); the results file then holds the matches "
        "played.",
    )
    _add_rules_options(simulate)
    simulate.add_argument(
        "--matches",
        type=int,
        required=True,
        metavar="M",
        help="matches, at most 1,000,000 (split a longer run by --seed)",
    )
    _add_bots_option(simulate, "at every seat")
    simulate.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        metavar="J",
        help="worker processes, or Ray tasks at a time (default 1)",
    )
    simulate.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: worker processes on this machine (default); ray: Ray tasks, on a local "
        "Ray instance or the cluster at --address (needs pip install 'hand-rummy[ray]'); "
        "the results are the same",
    )
    simulate.add_argument(
        "--address",
        metavar="ADDR",
        help="the Ray cluster to run on (auto, or ray://host:10001, which needs pip install "
        "'ray[client]'); default: start a local Ray instance",
    )
    _add_length_options(simulate, "end every match")
    simulate.add_argument(
        "--duplicate",
        action="store_true",
        help="duplicate deals: play every deal once under each seating of the bots, so that "
        "the luck of the cards cancels out (M must be a multiple of the seatings)",
    )
    simulate.add_argument(
        "--out",
        metavar="FILE",
        help="write every round and match to FILE as JSON Lines, as the run goes "
        "(read it again with hand-rummy report); an existing FILE is replaced, not added to, "
        "once the run has started",
    )
    simulate.add_argument(
        "--on-error",
        choices=("stop", "continue"),
        default="stop",
        help="when a bot raises, chooses an illegal action or runs out of time: stop the run "
        "(default), or leave that match out and go on; either way the failure is reported "
        "with its seat, the error and the position, and the exit status is 1",
    )
    simulate.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="the most a bot may take for one decision, at most 86400 (a day; default: no limit)",
    )
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate.set_defaults(run=_simulate)

    report = _command(
        commands,
        "report",
        help="sum up a results file again, and draw it",
        description="Read a results file written by simulate --out (an interrupted run's "
        "too) and print its summary; --plot draws the match totals and win rates "
        "(needs matplotlib: pip install 'hand-rummy[plot]'). Exits 2 on a file it cannot "
        "read.",
    )
    report.add_argument("file", metavar="RESULTS", help="a results file (JSON Lines)")
    report.add_argument(
        "--plot", metavar="FILE", help="draw the totals and win rates into FILE.png or FILE.svg"
    )
    report.add_argument("--json", action="store_true", help="print the summary as JSON")
    report.set_defaults(run=_report)

    play = _command(
        commands,
        "play",
        help="play a match against bots in the terminal",
        description="Play a match against bots, one command a line on standard input "
        "(type help). Exits 2 on bad arguments, 1 when a bot failed.",
    )
    _add_rules_options(play)
    play.add_argument("--you", type=int, default=0, metavar="SEAT", help="your seat (default 0)")
    _add_bots_option(play, "at the other seats")
    _add_length_options(play, "end the match")
    play.set_defaults(run=_play)

    replay = _command(
        commands,
        "replay",
        help="write a web page that steps through a saved round or match",
        description="Read a round or match document (JSON, as hand_rummy.serialize writes it) "
        "and write one self-contained HTML page that steps through it: forward, back, to a "
        "turn, the whole table or one seat's view, each action in words with its rule. "
        "Exits 2 when the document cannot be read or is larger than 512 KiB.",
    )
    replay.add_argument("file", metavar="GAME.json", help="a round or match document")
    replay.add_argument("--html", required=True, metavar="OUT.html", help="the page to write")
    replay.add_argument(
        "--names", metavar="A,B,...", help="the players' names, one a seat (default Seat 0, ...)"
    )
    replay.add_argument("--title", metavar="TEXT", help="the page's heading")
    replay.set_defaults(run=_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for any usage or input error, which
    is reported as ``hand-rummy COMMAND: error: MESSAGE`` on standard error)."""
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    # a stream that cannot show a suit sign (a file written in a legacy code page,
    # PYTHONIOENCODING=ascii), or a UTF-8 one given a lone surrogate (a bot's message about
    # an undecodable file name, read back from a results file), gets an escape instead of a
    # UnicodeEncodeError
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    if unknown:
        args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    # the command as typed after hand-rummy: "simulate", "rules show"
    command = args.command_parser.prog.removeprefix("hand-rummy").strip()
    if sys.stdout is None:  # started with standard output closed
        return refuse(command, "there is no standard output to write to")
    try:
        status: int = args.run(args)
        sys.stdout.flush()  # here, so that a failed write is reported, not left to the exit
    except HandRummyError as err:  # what the library refused, in its own words
        return refuse(command, str(err))
    except BrokenPipeError:
        _drop_output()
        return 0
    except KeyboardInterrupt:
        print(f"hand-rummy {command}: interrupted", file=sys.stderr)
        return 130
    except OSError as err:  # a full disk, a stream that cannot be written
        _drop_output()
        return refuse(command, f"cannot write the output: {err.strerror or err}")
    return status


def _drop_output() -> None:
    """Point standard output at the null device: what is still buffered for a stream that
    failed would otherwise fail again when Python flushes it at exit."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no file descriptor to point anywhere
        pass


if __name__ == "__main__":
    sys.exit(main())
