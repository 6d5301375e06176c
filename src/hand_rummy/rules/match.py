"""How a match of several rounds is played: its end, ties and the dealer."""

from __future__ import annotations

import enum

import attrs

from hand_rummy.errors import InvalidStateError, StrictValues, number

__all__ = ["MAX_LENGTH", "DealerRotation", "FirstDealer", "MatchEnd", "MatchPolicy", "TieRule"]

MAX_LENGTH = 10_000
"""The longest match, whatever it counts (rounds, points or deals each): twenty times the
longest the rules name (Rommé's 500 points), and still a match that ends and a length that
can be written. A custom length is held to it too."""


class MatchEnd(StrictValues, enum.Enum):
    SCORED_ROUNDS = "scored_rounds"
    """After ``length`` scored rounds; unscored rounds do not count (000)."""
    ROUNDS = "rounds"
    """After ``length`` rounds, fixed before the start (004: 3, 5, 7 or 9). Every round
    dealt counts, a no-contest too: 004 does not set it apart, and it was played."""
    PENALTY_LIMIT = "penalty_limit"
    """When a total reaches (``inclusive``) or passes ``length`` points (003: 200; 002: 500)."""
    DEALS_PER_PLAYER = "deals_per_player"
    """When everyone has dealt ``length`` times (002)."""


class TieRule(StrictValues, enum.Enum):
    PLAY_ON = "play_on"
    """A tie for the lowest total is played off with more rounds (000)."""
    SHARED = "shared"
    """Tied players share the win (matrix R8, G11)."""


class FirstDealer(StrictValues, enum.Enum):
    LOWEST_CARD = "lowest_card"
    HIGHEST_CARD = "highest_card"


class DealerRotation(StrictValues, enum.Enum):
    WORST_SCORER = "worst_scorer"
    """The player with the worst score of the last round deals next (000)."""
    NEXT_PLAYER = "next_player"
    """The deal passes to the next player (002; 000 variant "Rotating deal")."""


def _choices(lengths: tuple[int, ...]) -> str:
    shown = [str(n) for n in lengths]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


@attrs.frozen
class MatchPolicy:
    """End, tie and dealer rules of a match."""

    end: MatchEnd = MatchEnd.SCORED_ROUNDS
    length: int = 7
    inclusive: bool = True
    ties: TieRule = TieRule.PLAY_ON
    first_dealer: FirstDealer = FirstDealer.LOWEST_CARD
    ace_high_for_dealer: bool = True
    rotation: DealerRotation = DealerRotation.WORST_SCORER
    worst_team_deals: bool = False
    """Under :attr:`DealerRotation.WORST_SCORER` with teams: whether a seat's score for the
    deal is its team's (000 is silent; the rulebook's ambiguity Q2) rather than its own."""
    lengths: tuple[int, ...] | None = None
    """The lengths the rules let the players choose from, when they name them (000: seven
    scored rounds; 004: 3, 5, 7 or 9 rounds, chosen before the start and never changed);
    ``None`` when the rules
    leave the length open (002: "agree before you start how long to play"; 003's 200 is a
    default)."""

    def __attrs_post_init__(self) -> None:
        if self.length < 1:
            raise InvalidStateError("a match needs a length of at least 1")
        if self.length > MAX_LENGTH:
            raise InvalidStateError(
                f"a match lasts at most {MAX_LENGTH:,}, not {number(self.length)}"
            )
        if self.lengths is not None and self.length not in self.lengths:
            raise InvalidStateError(
                f"a match length of {self.length} is not one the rules allow "
                f"({_choices(self.lengths)})"
            )

    def allows(self, length: int) -> bool:
        """Whether the rules allow matches of ``length`` (rounds, points, deals...)."""
        return self.lengths is None or length in self.lengths

    def allowed(self) -> str:
        """The lengths allowed, in words (``"3, 5, 7 or 9 rounds"``; ``"any"`` when open)."""
        if self.lengths is None:
            return "any"
        unit = {
            MatchEnd.SCORED_ROUNDS: "scored rounds",
            MatchEnd.ROUNDS: "rounds",
            MatchEnd.PENALTY_LIMIT: "points",
            MatchEnd.DEALS_PER_PLAYER: "deals each",
        }[self.end]
        return f"{_choices(self.lengths)} {unit}"

    def describe(self) -> str:
        end = {
            MatchEnd.SCORED_ROUNDS: f"after {self.length} scored rounds",
            MatchEnd.ROUNDS: f"after {self.length} rounds",
            MatchEnd.PENALTY_LIMIT: (
                f"when a player's total {'reaches' if self.inclusive else 'passes'} {self.length}"
            ),
            MatchEnd.DEALS_PER_PLAYER: f"when everyone has dealt {times_in_words(self.length)}",
        }[self.end]
        if self.lengths is not None and len(self.lengths) > 1:
            end += f" (chosen before the start: {_choices(self.lengths)})"
        ties = (
            "a tie for lowest is played off"
            if self.ties is TieRule.PLAY_ON
            else "tied players share the win"
        )
        first = "lowest" if self.first_dealer is FirstDealer.LOWEST_CARD else "highest"
        ace = "high" if self.ace_high_for_dealer else "low"
        rotation = (
            (
                "the first player, going round from the last dealer, of the team with the worst "
                "score of the last round deals next"
                if self.worst_team_deals
                else "the worst scorer of the last round deals next"
            )
            if self.rotation is DealerRotation.WORST_SCORER
            else "the deal passes to the next player"
        )
        return (
            f"The match ends {end}; the lowest total wins and {ties}. The {first} card drawn "
            f"(Ace {ace}) deals first; then {rotation}, and the same dealer deals again after an "
            "unscored round."
        )


def times_in_words(count: int) -> str:
    """``count`` times, in words where English has one ("once", "twice", "3 times"): the
    rule texts of a match's length say it so."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")
