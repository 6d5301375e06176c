"""Verdicts: the answer to "is this legal?", with every reason for a "no".

A :class:`Verdict` is truthy when the thing judged is legal. Each
:class:`Violation` carries a stable :class:`Code` for programs, a message that
names the cards for people, and the rule it comes from.
"""

from __future__ import annotations

import enum

import attrs

__all__ = ["Code", "Verdict", "Violation"]


class Code(enum.Enum):
    """Stable machine codes for every way something can be illegal.

    The string values are part of the public contract (they appear in referee
    answers and conformance vectors) and never change meaning.
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
    FREED_WILD_NOT_USED = "FREED_WILD_NOT_USED"
    WILD_DISCARD_FORBIDDEN = "WILD_DISCARD_FORBIDDEN"
    PHASE_ORDER = "PHASE_ORDER"
    REDEAL_NOT_ALLOWED = "REDEAL_NOT_ALLOWED"
    ROUND_OVER = "ROUND_OVER"


@attrs.frozen
class Violation:
    """One reason why something is illegal."""

    code: Code
    message: str
    rule: str = ""
    """The rule broken, in words, with its source document and topic."""

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"


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
        return _LEGAL

    @classmethod
    def of(cls, *violations: Violation) -> Verdict:
        return cls(tuple(violations)) if violations else _LEGAL

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def codes(self) -> tuple[Code, ...]:
        return tuple(v.code for v in self.violations)

    def __bool__(self) -> bool:
        return not self.violations

    def __add__(self, other: Verdict) -> Verdict:
        return Verdict.of(*self.violations, *other.violations)

    def __str__(self) -> str:
        return "legal" if self.ok else "; ".join(v.message for v in self.violations)


_LEGAL = Verdict(())
