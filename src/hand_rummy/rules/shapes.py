"""The shapes of a meld: runs (with the Ace's places) and sets."""

from __future__ import annotations

import attrs

__all__ = ["RunPolicy", "SetPolicy"]


@attrs.frozen
class RunPolicy:
    """Runs: three or more cards of one suit in sequence.

    The Ace may sit below the 2 (``ace_low``) or above the King
    (``ace_high``). With ``wrap`` a run may also turn the corner, K-A-2
    (002 §Variants "Round the corner"); without it the Ace never sits in the
    middle.
    """

    min_length: int = 3
    ace_low: bool = True
    ace_high: bool = True
    wrap: bool = False

    def describe(self) -> str:
        places = [
            p for p, on in (("low (A-2-3)", self.ace_low), ("high (Q-K-A)", self.ace_high)) if on
        ]
        corner = "; a run may turn the corner (K-A-2)" if self.wrap else "; never K-A-2"
        return (
            f"A run is {self.min_length} or more cards of one suit in sequence; the Ace plays "
            f"{' or '.join(places) or 'nowhere'}{corner}."
        )


@attrs.frozen
class SetPolicy:
    """Sets: cards of one rank, each of a different suit, so never two identical cards."""

    min_size: int = 3
    max_size: int = 4

    def describe(self) -> str:
        return (
            f"A set is {self.min_size} to {self.max_size} cards of one rank in different suits; "
            "two identical cards never sit in one set."
        )
