"""Verdicts: the answer to "is this legal?", with the reasons for a "no".

A :class:`Verdict` is truthy when the thing judged is legal. Each
:class:`Violation` carries a stable :class:`Code` for programs, a message that
names the cards for people, and the rules it breaks: the :class:`Topic` that the
code judging it names, and, resolved for the ruleset in use by
:mod:`hand_rummy.rulebook`, the :class:`Citation` of each rule of the rulebook
(its stable id, its statement in words and its place in the documentation).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from hand_rummy.errors import AmbiguousMeldError, IllegalActionError, StrictValues

if TYPE_CHECKING:
    from hand_rummy.melds import Meld

__all__ = ["DOCS_PAGE", "Citation", "Code", "Topic", "Verdict", "Violation", "rule_anchor"]


class Code(StrictValues, enum.Enum):
    """Stable machine codes for every way something can be illegal.

    The string values are part of the public contract (they appear in referee
    answers and conformance vectors) and never change meaning. The table of
    docs/referee.rst, "Violation codes", says when each is given; a new member
    needs its line there (tests/test_docs_codes.py checks).
    """

    # cards and decks
    CARD_NOT_IN_DECK = "CARD_NOT_IN_DECK"
    TOO_MANY_COPIES = "TOO_MANY_COPIES"
    # shapes
    MELD_TOO_SHORT = "MELD_TOO_SHORT"
    MELD_NOT_RUN_OR_SET = "MELD_NOT_RUN_OR_SET"
    RUN_NOT_IN_SEQUENCE = "RUN_NOT_IN_SEQUENCE"
    RUN_ACE_IN_MIDDLE = "RUN_ACE_IN_MIDDLE"
    RUN_TOO_LONG = "RUN_TOO_LONG"
    SET_IDENTICAL_CARDS = "SET_IDENTICAL_CARDS"
    SET_TOO_LARGE = "SET_TOO_LARGE"
    # wild cards
    WILD_ROLE_MISSING = "WILD_ROLE_MISSING"
    WILD_ROLE_AMBIGUOUS = "WILD_ROLE_AMBIGUOUS"
    WILD_ROLE_INVALID = "WILD_ROLE_INVALID"
    NATURAL_CARD_GIVEN_ROLE = "NATURAL_CARD_GIVEN_ROLE"
    DEMOTION_NOT_ALLOWED = "DEMOTION_NOT_ALLOWED"
    MELD_TOO_MANY_WILDS = "MELD_TOO_MANY_WILDS"
    MELD_TOO_FEW_NATURALS = "MELD_TOO_FEW_NATURALS"
    MELD_ALL_WILD = "MELD_ALL_WILD"
    WILDS_ADJACENT = "WILDS_ADJACENT"
    WILD_AT_RUN_END = "WILD_AT_RUN_END"
    # opening
    OPENING_EMPTY = "OPENING_EMPTY"
    OPENING_INVALID_MELD = "OPENING_INVALID_MELD"
    OPENING_BELOW_THRESHOLD = "OPENING_BELOW_THRESHOLD"
    # lay-offs and exchanges
    LAYOFF_EMPTY = "LAYOFF_EMPTY"
    LAYOFF_BREAKS_MELD = "LAYOFF_BREAKS_MELD"
    LAYOFF_TWO_PLUS_WILD = "LAYOFF_TWO_PLUS_WILD"
    EXCHANGE_NOT_ALLOWED = "EXCHANGE_NOT_ALLOWED"
    EXCHANGE_NO_WILD = "EXCHANGE_NO_WILD"
    EXCHANGE_WRONG_CARDS = "EXCHANGE_WRONG_CARDS"
    EXCHANGE_SET_INCOMPLETE = "EXCHANGE_SET_INCOMPLETE"
    # round-level (used by the round engine)
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    NOT_OPENED = "NOT_OPENED"
    NO_SUCH_MELD = "NO_SUCH_MELD"
    STOCK_EMPTY = "STOCK_EMPTY"
    DISCARD_PILE_EMPTY = "DISCARD_PILE_EMPTY"
    TAKE_DISCARD_NOT_MELDED = "TAKE_DISCARD_NOT_MELDED"
    TAKE_DISCARD_NOT_OPENED = "TAKE_DISCARD_NOT_OPENED"
    REDISCARD_TAKEN_CARD = "REDISCARD_TAKEN_CARD"
    MUST_KEEP_A_CARD = "MUST_KEEP_A_CARD"
    GOING_OUT_FIRST_TURN = "GOING_OUT_FIRST_TURN"
    GOING_OUT_AFTER_MISSED_ANNOUNCEMENT = "GOING_OUT_AFTER_MISSED_ANNOUNCEMENT"
    ANNOUNCEMENT_NOT_DUE = "ANNOUNCEMENT_NOT_DUE"
    FREED_WILD_NOT_USED = "FREED_WILD_NOT_USED"
    WILD_DISCARD_FORBIDDEN = "WILD_DISCARD_FORBIDDEN"
    PHASE_ORDER = "PHASE_ORDER"
    REDEAL_NOT_ALLOWED = "REDEAL_NOT_ALLOWED"
    ROUND_OVER = "ROUND_OVER"


class Topic(StrictValues, enum.Enum):
    """What a rule is about, as the code that applies it names it.

    A topic is the same in every ruleset; which rule of the rulebook answers it
    depends on the policies in force (:func:`hand_rummy.rulebook.cite`): a
    ``WILD_COUNT`` violation cites ``levant.wilds.one-per-meld`` under the
    Levant rules and ``gulf.wilds.by-length`` under the Gulf rules.
    """

    # players, cards, deal
    DECK = "deck"
    STARTER = "deal.starter"
    BARE_FIRST_TURN = "deal.bare-first-turn"
    REDEAL = "redeal"
    # wild cards
    WILD_ROLE = "wilds.role"
    WILDS_NOT_ALL = "wilds.not-all"
    WILD_COUNT = "wilds.count"
    WILD_NATURALS = "wilds.naturals"
    WILDS_ADJACENT = "wilds.adjacent"
    WILD_AT_RUN_END = "wilds.run-end"
    DEMOTION = "wilds.demotion"
    # melds
    MELD_SHAPE = "melds.shape"
    RUN = "melds.run"
    RUN_ACE = "melds.run-ace"
    SET = "melds.set"
    # the opening
    OPENING = "opening.together"
    OPENING_BAR = "opening.bar"
    OPENING_EXEMPTION = "opening.exemption"
    # a turn
    TURN = "turn.order"
    OWN_CARDS = "turn.own-cards"
    ONE_MELD_PER_MOVE = "turn.one-meld"
    ROUND_OVER = "turn.round-over"
    PHASE_ORDER = "turn.phase-order"
    TAKE = "take.top"
    TAKE_MELD = "take.meld"
    TAKE_OPEN = "take.open"
    NO_REDISCARD = "take.no-rediscard"
    # laying off and exchanging
    LAYOFF_GATE = "layoff.gate"
    LAYOFF = "layoff.valid"
    TWO_PLUS_WILD = "layoff.two-and-wild"
    EXCHANGE_GATE = "exchange.gate"
    EXCHANGE = "exchange.wild"
    EXCHANGE_SET = "exchange.set"
    EXCHANGE_SET_FOUR = "exchange.set-four"
    FREED_WILD = "exchange.freed"
    # going out
    KEEP_DISCARD = "out.final-discard"
    DISCARD_RESTRICTION = "out.discard-restriction"
    FIRST_TURN_BAN = "out.first-turn"
    ANNOUNCE = "out.announce"
    WILD_DISCARD = "out.wild-discard"
    HAND = "hand"
    # scoring (the lines of a score breakdown)
    SCORE_CARDS = "scoring.cards"
    SCORE_WINNER = "scoring.winner"
    SCORE_NEVER_OPENED = "scoring.never-opened"
    SCORE_HAND = "scoring.hand"
    SCORE_EGYPTIAN = "scoring.egyptian"
    SCORE_TEAMS = "scoring.teams"
    SCORE_TEAM_OPENED = "scoring.team-opened"
    STOCK = "stock"


_NOT_ID = re.compile(r"[^a-z0-9]+")

DOCS_PAGE = "rules/generated/{page}.html"
"""Where a page of the rulebook lies, relative to the root of the HTML documentation."""


def rule_anchor(rule_id: str) -> str:
    """The address of a rule in the HTML documentation, relative to its root.

    >>> rule_anchor("levant.wilds.one-per-meld")
    'rules/generated/levant.html#levant-wilds-one-per-meld'
    """
    page = rule_id.partition(".")[0]
    return DOCS_PAGE.format(page=page) + "#" + _NOT_ID.sub("-", rule_id.lower()).strip("-")


@attrs.frozen
class Citation:
    """One rule of the rulebook, as a violation cites it."""

    id: str
    """The rule's stable id, e.g. ``levant.wilds.one-per-meld``: the page (a preset, or
    ``custom``), the part of the game, the rule."""
    text: str
    """The rule in words, for the ruleset in use (``At most 1 wild card in a meld.``)."""

    @property
    def anchor(self) -> str:
        """Where the rule is written down: :func:`rule_anchor` of its id."""
        return rule_anchor(self.id)


@attrs.frozen
class Violation:
    """One reason why something is illegal.

    ``rule`` says the rules broken in words; ``cites`` names them in the
    rulebook. Both are filled in for the ruleset in use by
    :func:`hand_rummy.rulebook.violation`; a violation built by hand may
    leave them empty.
    """

    code: Code
    message: str
    rule: str = ""
    """The rules broken, in words (the text of each citation, in order)."""
    topics: tuple[Topic, ...] = ()
    """What the rules broken are about, as the code that judged it named them."""
    cites: tuple[Citation, ...] = ()
    """The rules of the rulebook that the violation breaks, for the ruleset in use."""

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The ids of the rules broken (``("levant.wilds.one-per-meld",)``)."""
        return tuple(c.id for c in self.cites)

    @property
    def anchors(self) -> tuple[str, ...]:
        """Where each rule broken is written down in the HTML documentation."""
        return tuple(c.anchor for c in self.cites)

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"


def told_more(problems: Sequence[Violation], before: str = "", after: str = "") -> list[Violation]:
    """``problems`` with words put before and after the first one's message: what a caller
    knows of the move that the rule which refused it does not (its code and rule stay)."""
    if not problems:
        return []
    first, *rest = problems
    return [attrs.evolve(first, message=before + first.message + after), *rest]


@attrs.frozen
class Verdict:
    """The answer to "is this legal?": legal when there are no violations.

    >>> Verdict.legal().ok, bool(Verdict.legal())
    (True, True)
    >>> v = Verdict.of(Violation(Code.MELD_TOO_SHORT, "a meld needs three cards"))
    >>> v.ok, v.codes
    (False, (<Code.MELD_TOO_SHORT: 'MELD_TOO_SHORT'>,))
    """

    violations: tuple[Violation, ...] = ()

    @classmethod
    def legal(cls) -> Verdict:
        """The verdict with no violation."""
        return _LEGAL

    @classmethod
    def of(cls, *violations: Violation) -> Verdict:
        return cls(tuple(violations)) if violations else _LEGAL

    @property
    def ok(self) -> bool:
        """Whether nothing is wrong: no violation."""
        return not self.violations

    @property
    def codes(self) -> tuple[Code, ...]:
        """The code of each violation, in order."""
        return tuple(v.code for v in self.violations)

    def __bool__(self) -> bool:
        return not self.violations

    def __add__(self, other: Verdict) -> Verdict:
        return Verdict.of(*self.violations, *other.violations)

    def refusal(self, candidates: tuple[Meld, ...] = ()) -> IllegalActionError:
        """The error to raise for refusing with this verdict: an
        :class:`~hand_rummy.errors.AmbiguousMeldError` (with the meld's readings, where
        known) when a wild card's role is all that is wrong, which the player mends by
        naming it; an :class:`~hand_rummy.errors.IllegalActionError` otherwise."""
        if self.codes == (Code.WILD_ROLE_AMBIGUOUS,):
            return AmbiguousMeldError(self, candidates)
        return IllegalActionError(self)

    def __str__(self) -> str:
        return "legal" if self.ok else "; ".join(v.message for v in self.violations)


_LEGAL = Verdict(())
