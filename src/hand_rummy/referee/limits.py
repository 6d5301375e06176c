"""The referee's protocol name, its :class:`Limits` on the size and cost of a question,
the errors that refuse a question, the fields every question may have, and how a message
is cut short."""

from __future__ import annotations

from typing import Any

import attrs

from hand_rummy.errors import HandRummyError

JSON = dict[str, Any]

PROTOCOL = "hand-rummy/referee/1"
"""The protocol that this referee speaks, named in every answer as ``"protocol"``: the
question and answer formats, the error codes and the :class:`Limits` of version 1."""

COMMON_FIELDS = frozenset({"rules", "variants", "indicator", "ask", "id", "note"})
"""The fields any question may have, whatever it asks."""


@attrs.frozen
class Limits:
    """How big a question may be: the referee's limits, part of the protocol.

    A question beyond one of them is answered with the error ``LIMIT``; its
    message names the limit and its value, and the error object carries them
    as ``"limit"`` (the name of the attribute here) and ``"max"``. Within the
    limits every question is answered in well under a second and a few tens
    of MiB (see :doc:`/referee`). The number of seats is not a limit of the
    referee but of the rules: a ``round_score`` question must have as many
    players as its rules allow (at most 6), or it gets ``BAD_FIELD``.

    >>> LIMITS.cards, LIMITS.history, LIMITS.actions
    (108, 5000, 1000)
    """

    text_bytes: int = 1 << 20
    """Bytes (UTF-8) of the JSON text that :func:`answer_json` and ``hand-rummy judge`` read:
    one question or an array of them."""
    depth: int = 32
    """Nesting of arrays and objects in that text; a question needs 8 at most."""
    integer_digits: int = 40
    """Digits of one integer in that text (a 128-bit seed has 39)."""
    questions: int = 1000
    """Questions in one array."""
    cards: int = 108
    """Cards in one list of cards (a meld, a hand, the cards laid off, exchanged or melded,
    each list of a round's deal and of a position): the largest deck holds 108."""
    melds: int = 36
    """Melds laid down together (an ``opening``, a ``lay_down`` action), and the melds on a
    position's table: 36 melds of three use 108 cards."""
    variants: int = 32
    """Names in ``variants``."""
    history: int = 5000
    """Actions in the history of a round document; replaying them takes a fraction of a
    second. A round of random play rarely needs more than 2,000."""
    actions: int = 1000
    """Actions in one ``legal_actions`` answer: the default and the largest ``limit``."""
    action_window: int = 3000
    """How far into the list of legal actions a question may reach (``offset + limit``):
    the generator must produce every action before the page."""
    array_actions: int = 3000
    """Legal actions that the ``legal_actions`` questions of one array may list together,
    each counting how far its page reached (``offset`` and the actions answered) and the
    moves its listing checked against a promise to finish the turn (each a search, refused
    ones too: a page of 5 actions may check hundreds): once the array's earlier questions
    have listed that many, the later ones are refused. So an array's answers hold about as
    many actions as one question's window, and cost about as much as it."""
    array_fills: int = 4096
    """The work of the fills that the positions of one array may deal again between them,
    counted as for ``fill_work``."""
    array_answer_bytes: int = 4 << 20
    """Bytes (UTF-8) of the answers to one array in all, each written as compact JSON: a
    small question may get a large answer (an ``opening`` of 36 empty melds, 151 bytes,
    is answered in 32 KB, each meld with its rule texts), so an array of a megabyte could
    be answered in tens of megabytes. Once the answers before a question hold that many,
    it is refused; the answers hold at most one answer more."""
    search_work: int = 150_000
    """Steps of the finishing search that one question may take (:mod:`hand_rummy.work`
    counts them: each split of the cards set aside among the melds that could take them).
    The search judges each move of a turn bound to go out, and each opening below the bar,
    by the rest of the turn: with many melds on the table one listing can take hundreds of
    such searches. A step costs 3 to 17 µs, by the kind of search and the machine (an older
    meld asked about cards it has not seen yet costs more than one asked again), so
    150,000 take from half a second to two seconds; the costliest question about the
    worst cases (``benchmarks/worst_cases.py``), the first page of the moves of
    ``gulf-promise-exchanges``, takes about 121,000."""
    array_search_work: int = 300_000
    """Steps of the finishing search that the questions of one array may take between them,
    counted as for ``search_work``: an array's searches cost about as much as two
    questions'. The rest of each question's work (a listing, a judgement) is bounded
    question by question, so an array of ten of the costliest positions of
    ``benchmarks/worst_cases.py`` takes two to three seconds."""
    fill_work: int = 4096
    """The work of the fills that one position may deal again: a position whose first fill
    leaves the player to move no legal move is filled again, up to
    :data:`~hand_rummy.position.FILL_ATTEMPTS` times, each time searching that player's
    moves (a tenth of a millisecond or more). Each fill counts 1, and each move its search
    checks against a promise to finish the turn 1 more (a search each: a turn that owes a
    go-out may check dozens of moves a fill), so the work is bounded by a count, not a
    clock: 4,096 take under half a second."""


LIMITS = Limits()
"""The limits that this referee applies."""


class QuestionError(HandRummyError, ValueError):
    """A referee question that cannot be answered as asked; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def to_json(self) -> JSON:
        """The ``"error"`` object of the answer."""
        return {"code": self.code, "message": clip(str(self), 1000)}


class LimitError(QuestionError):
    """A question beyond one of the :class:`Limits`: ``limit`` names it, ``max`` is its value."""

    def __init__(self, limit: str, what: str) -> None:
        self.limit = limit
        self.max: int = getattr(LIMITS, limit)
        super().__init__("LIMIT", f"{what}; the referee takes at most {self.max} ({limit})")

    def to_json(self) -> JSON:
        return {**super().to_json(), "limit": self.limit, "max": self.max}


def clip(text: str, size: int) -> str:
    """``text`` cut to ``size`` characters, an ellipsis marking the cut: a question may hold
    a megabyte, and no message repeats it."""
    return text if len(text) <= size else text[: size - 1] + "…"
