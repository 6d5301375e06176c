"""How a round is scored: card penalties, the winner's score, the Hand finish and its bonuses."""

from __future__ import annotations

import enum

import attrs

from hand_rummy.cards import Card, Rank
from hand_rummy.errors import StrictValues

__all__ = [
    "EgyptianBonuses",
    "HandFinish",
    "PartnershipScoring",
    "PenaltyValues",
    "RoundScoring",
]


@attrs.frozen
class PenaltyValues:
    """What each card left in a hand costs at the end of a round.

    Number cards cost their face value, 10 J Q K ``court``, a natural Ace
    ``ace``, and a wild card ``wild``. A joker that is not wild this round
    counts as the natural card it plays as (000: an Ace of the indicator suit).
    """

    ace: int = 11
    court: int = 10
    wild: int = 15

    def natural(self, card: Card) -> int:
        rank = card.rank
        if rank is None:
            return self.wild
        if rank is Rank.ACE:
            return self.ace
        return self.court if rank >= Rank.TEN else int(rank)

    def describe(self) -> str:
        return (
            f"Cards left in hand cost: Ace {self.ace}, 10 J Q K {self.court}, other cards their "
            f"face value, a wild card {self.wild}."
        )


@attrs.frozen
class HandFinish:
    """When going out counts as a "Hand" (the big finish that doubles the scores).

    Always: the player had laid nothing down earlier in the round and lays
    everything down in one turn. ``no_layoffs``: without adding to other
    players' melds (000, 004). ``first_to_meld``: before any other player has
    melded (002). ``all_melded``: every card goes onto the table (new melds, or
    lay-offs where those are allowed), with no final discard (003, and 004 by
    matrix P6 a); otherwise a final discard is allowed.
    """

    no_layoffs: bool = True
    first_to_meld: bool = False
    all_melded: bool = False

    def describe(self) -> str:
        text = "A Hand: going out in one turn with nothing laid down earlier in the round"
        if self.no_layoffs:
            text += ", without adding to other players' melds"
        if self.first_to_meld:
            text += ", before any other player has melded"
        text += (
            ", every card going onto the table (in new melds or as lay-offs), with no final "
            "discard."
            if self.all_melded
            else " (a final discard is allowed)."
        )
        return text


@attrs.frozen
class EgyptianBonuses:
    """Extra doublings for special Hands (000 §Variants "Egyptian bonuses").

    A Hand whose final discard is a wild card doubles again; so does a Hand
    whose melded natural cards are all one colour, and one suit counts
    ``suit_factor`` instead of the colour doubling (matrix L12 b: 4, so ×8 in
    all; with ``suit_also_colour`` the colour doubling is counted as well, ×16).
    Wild cards are neutral for colour and suit (L12 c).
    """

    wild_discard: int = 2
    colour: int = 2
    suit_factor: int = 4
    suit_also_colour: bool = False

    def describe(self) -> str:
        both = " (on top of the colour doubling)" if self.suit_also_colour else ""
        return (
            f"Egyptian bonuses: a Hand ending on a wild discard ×{self.wild_discard}; a Hand in "
            f"one colour ×{self.colour}; in one suit ×{self.suit_factor}{both}; they combine."
        )


class PartnershipScoring(StrictValues, enum.Enum):
    """How two partners' round scores make the team's."""

    SUM = "sum"
    """Each player scores as if alone; the team adds its two scores (004, matrix P7)."""
    WINNER_TEAM = "winner_team"
    """The winner's team scores the winner's score only, the partner's cards do not count;
    the other team adds both players' penalties (000 §Variants "Partnership Hand")."""


@attrs.frozen
class RoundScoring:
    """The scores at the end of a round in which someone went out.

    The winner scores ``winner``. A player who has opened scores the
    penalties of the cards in hand; one who never opened scores
    ``never_opened`` flat, or the cards when it is ``None`` (002). A Hand
    multiplies the others' scores by ``hand_factor`` and, with
    ``hand_doubles_winner``, the winner's too (000: −60, 200).
    """

    winner: int = -30
    never_opened: int | None = 100
    hand_factor: int = 2
    hand_doubles_winner: bool = True
    egyptian: EgyptianBonuses | None = None
    partnership: PartnershipScoring = PartnershipScoring.SUM
    personal_never_opened: bool = False
    """Where a team shares its opening, a partner who never laid down still pays the
    never-opened penalty (matrix P9 c, alternative)."""

    def describe(self) -> str:
        never = "the cards in hand" if self.never_opened is None else f"a flat {self.never_opened}"
        who = "everyone's score" if self.hand_doubles_winner else "the others' penalties"
        text = (
            f"The player who goes out scores {self.winner}; a player who has opened scores the "
            f"cards in hand; one who never opened scores {never}. A Hand multiplies {who} by "
            f"{self.hand_factor}."
        )
        if self.egyptian is not None:
            text += " " + self.egyptian.describe()
        if self.partnership is PartnershipScoring.WINNER_TEAM:
            text += (
                " Teams: the winner's team scores the winner's score alone; the other team adds "
                "both players' penalties."
            )
        if self.personal_never_opened:
            text += (
                " A partner who never laid down pays the never-opened score even when the team "
                "has opened."
            )
        return text
