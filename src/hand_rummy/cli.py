"""The ``hand-rummy`` command line: judge rules questions and show the rule systems."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from hand_rummy.errors import HandRummyError
from hand_rummy.referee import answer_json
from hand_rummy.rules.presets import PRESETS, build, variants_for

__all__ = ["main"]


def _judge(args: argparse.Namespace) -> int:
    if args.file in (None, "-"):
        text = sys.stdin.read()
    else:
        try:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as err:
            print(f"hand-rummy judge: cannot read {args.file}: {err.strerror}", file=sys.stderr)
            return 2
    result, clean = answer_json(text)
    print(json.dumps(result, ensure_ascii=args.ascii, indent=None if args.compact else 2))
    return 0 if clean else 2


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
            print(f"{kind} {variant.name:<26} {variant.summary} ({variant.source})")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hand-rummy",
        description="Rules of Hand and Rommé: judge questions, show the rule systems.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    judge = commands.add_parser(
        "judge",
        help="answer a JSON rules question (or an array of them)",
        description="Read a JSON question (or an array) from FILE or standard input and print "
        "the answer. Exits 2 when a question is malformed.",
    )
    judge.add_argument("file", nargs="?", metavar="FILE", help="a JSON file; - or none for stdin")
    judge.add_argument("--compact", action="store_true", help="print the answer on one line")
    judge.add_argument("--ascii", action="store_true", help="escape non-ASCII characters")
    judge.set_defaults(run=_judge)

    rules = commands.add_parser("rules", help="list the rule systems or show one in words")
    which = rules.add_subparsers(dest="rules_command", required=True, metavar="list|show")
    listing = which.add_parser("list", help="the presets, their variants and switches")
    listing.set_defaults(run=_rules_list)
    show = which.add_parser("show", help="every rule of a preset (with variants) in words")
    show.add_argument("name", help="a preset: " + ", ".join(PRESETS))
    show.add_argument(
        "--variant", "-v", action="append", metavar="V", help="apply a named variant (repeatable)"
    )
    show.add_argument(
        "--list-variants", action="store_true", help="also list the variants that fit NAME"
    )
    show.set_defaults(run=_rules_show)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for any usage or input error)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except HandRummyError as err:
        print(f"hand-rummy: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
