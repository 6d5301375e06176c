"""``hand-rummy conformance``: the conformance vectors against this library or another referee."""

from __future__ import annotations

import argparse
import shlex
import shutil

from hand_rummy.cli_errors import refuse
from hand_rummy.conformance import Report, command_referee, run, timeout_problem

__all__ = ["DESCRIPTION", "HELP", "configure"]

HELP = "run the conformance vectors against this library or another referee"
DESCRIPTION = (
    "Put every conformance vector to a referee and print a pass/fail table per vector file. "
    "The referee is this library unless --referee names a program, which reads a JSON array "
    "of questions on standard input and writes the JSON array of its answers on standard "
    "output. Exits 1 when a vector fails, 2 on bad arguments."
)


def configure(conformance: argparse.ArgumentParser) -> None:
    """The options of the ``conformance`` subcommand."""
    conformance.add_argument(
        "--referee",
        metavar="CMD",
        help="the program to ask, as one shell-quoted string (for example "
        '"hand-rummy judge --compact")',
    )
    conformance.add_argument("--rules", metavar="NAME", help="only the vectors of one preset")
    conformance.add_argument(
        "--timeout", type=float, default=60.0, metavar="S", help="seconds per batch (default 60)"
    )
    conformance.add_argument(
        "--all-failures",
        "--verbose",
        dest="all_failures",
        action="store_true",
        help="show every failing vector and why (by default the first 10)",
    )
    # -v is --variant in the commands that play. It used to mean --verbose here: refuse it
    # with a pointer to the new spelling, not as an argument nobody knows
    conformance.add_argument("-v", action=_NoShortVerbose, nargs=0, help=argparse.SUPPRESS)
    conformance.set_defaults(run=_conformance)


class _NoShortVerbose(argparse.Action):
    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        parser.error(
            "-v is --variant in the other commands, and conformance has no variants; "
            "--all-failures (or --verbose) shows every failing vector"
        )


def _conformance(args: argparse.Namespace) -> int:
    referee = None
    problem = timeout_problem(args.timeout)
    if problem:
        return _usage(f"--timeout {problem}")
    if args.referee is not None:
        try:
            words = shlex.split(args.referee)
        except ValueError as err:  # shlex says what is unbalanced: "No closing quotation"
            return _usage(f"--referee {args.referee!r} cannot be read as a command: {err}")
        if not words:
            return _usage("--referee names no program")
        if shutil.which(words[0]) is None:
            # else every batch would fail with the same reason, as if the referee were wrong
            return _usage(f"--referee: no program {words[0]!r} to run")
        referee = command_referee(words, timeout=args.timeout)
    report = run(referee, rules=args.rules)
    print(report.table())
    _failures(report, every=args.all_failures)
    return 0 if report.ok else 1


def _usage(problem: str) -> int:
    return refuse("conformance", problem)


def _failures(report: Report, *, every: bool) -> None:
    shown = 0
    for result in report.files:
        for vector, wrong in result.failures:
            if not every and shown == 10:
                print("... (--all-failures shows every failure)")
                return
            print(f"\nFAIL {vector.file}: {vector.name} ({vector.source})")
            for line in wrong:
                print(f"  {line}")
            shown += 1
