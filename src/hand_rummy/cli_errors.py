"""How every ``hand-rummy`` command reports a mistake: one line on standard error in the
form argparse gives its own, ``hand-rummy COMMAND: error: MESSAGE``.

argparse reports what it finds itself (a missing or unknown option, a number that is not
one) with the command's usage line and then such a line, exiting 2. The checks that argparse
cannot make (a preset that does not exist, a file that cannot be read, a document the library
refuses) print the same line without the usage, and exit with :data:`USAGE`, 2, as well.
"""

from __future__ import annotations

import sys
from typing import TextIO

__all__ = ["USAGE", "error", "refuse"]

USAGE = 2
"""The exit status of a usage error and of input refused: a bad argument (argparse's own
status), a file that cannot be read or written, a document or name the library refuses."""


def error(command: str, message: str, stream: TextIO | None = None) -> None:
    """Print ``hand-rummy COMMAND: error: MESSAGE`` on standard error (or ``stream``).

    ``command`` is the command's name as typed, ``rules show`` for a subcommand; empty for
    the top level.
    """
    prog = f"hand-rummy {command}" if command else "hand-rummy"
    print(f"{prog}: error: {message}", file=sys.stderr if stream is None else stream)


def refuse(command: str, message: str) -> int:
    """:func:`error`, then the exit status of a usage error or refused input (:data:`USAGE`)."""
    error(command, message)
    return USAGE
