"""What a player may do during a turn: take the discard, lay off, exchange wilds, go out."""

from __future__ import annotations

import enum

import attrs

from hand_rummy.errors import StrictValues

__all__ = [
    "DiscardTake",
    "ExchangePolicy",
    "FreedWild",
    "GoingOut",
    "LayoffPolicy",
    "SetSupply",
]


@attrs.frozen
class DiscardTake:
    """The conditions on taking the top card of the discard pile.

    * ``must_meld``: the taken card must be laid down this turn, in a new meld
      with at least ``hand_cards`` cards from the hand (000 §Playing a turn),
      or, with ``may_lay_off``, added to a table meld (000 variant "Taking the
      discard"; 002 variant "Discard pile only for melding").
    * ``must_open``: a player who has not opened must open this turn, and may
      not discard before doing so (004 §5).
    * ``may_exchange``: with ``must_meld``, paying with the taken card for a wild on
      the table also meets it (002 §Playing a turn counts exchanges among the moves of
      its "Meld" step; a reading of "Discard pile only for melding" that its variant
      text leaves open).
    * ``in_opening``: that opening must use the taken card (matrix P4 a, alternative).
    * ``no_rediscard``: the taken card may not be discarded again this turn (004 §2).
    """

    must_meld: bool = False
    hand_cards: int = 2
    may_lay_off: bool = False
    may_exchange: bool = False
    must_open: bool = False
    in_opening: bool = False
    no_rediscard: bool = False

    def describe(self) -> str:
        parts = []
        if self.must_meld:
            parts.append(
                "a taken discard must be laid down at once, in a new meld with at least "
                f"{self.hand_cards} cards from the hand"
                + (" or on a table meld" if self.may_lay_off else "")
                + (", or pay for a wild card on the table" if self.may_exchange else "")
            )
        if self.must_open:
            parts.append(
                "a player who has not opened and takes the discard must open that turn"
                + (" with a meld that uses it" if self.in_opening else "")
            )
        if self.no_rediscard:
            parts.append("the taken card may not be discarded again in the same turn")
        if not parts:
            return "The top discard may be taken freely."
        text = "; ".join(parts)
        return text[0].upper() + text[1:] + "."


@attrs.frozen
class LayoffPolicy:
    """Adding cards to melds on the table.

    Only a player who has opened may lay off (``needs_opening``), from the
    turn of the opening on. ``two_plus_wild_rule`` is 000's rule for a set of
    two naturals and a wild: adding only one of its two missing cards is
    allowed just when the player goes out this turn, someone has announced
    "one card", or the player will hold one card after discarding.
    ``melds_first`` enforces 003's phase order: no new melds after a lay-off.
    """

    needs_opening: bool = True
    two_plus_wild_rule: bool = False
    melds_first: bool = False

    def describe(self) -> str:
        who = "after opening (from the same turn on)" if self.needs_opening else "at any time"
        text = f"Cards may be laid off on any meld on the table {who}, if it stays a valid meld."
        if self.two_plus_wild_rule:
            text += (
                " A set of two naturals and a wild takes a single missing card only when that "
                "player goes out this turn or 'one card' is (or will be) announced."
            )
        if self.melds_first:
            text += " New melds come before lay-offs in a turn."
        return text


class SetSupply(StrictValues, enum.Enum):
    """What a player must put into a set to take its wild card."""

    BOTH_MISSING = "both_missing"
    """Two naturals + wild: both missing cards; three + wild: the fourth (000)."""
    EITHER_MISSING = "either_missing"
    """Any one missing card of the set's rank (002 §Exchanging a joker)."""


class FreedWild(StrictValues, enum.Enum):
    """What happens to a wild card taken from a table meld."""

    KEEP = "keep"
    """It may be used again at once or kept in the hand (000 §Exchanging wild cards)."""
    NEW_MELD = "new_meld"
    """It must go into a new meld straight away, never into the hand (002 §Exchanging)."""
    USE_NOW = "use_now"
    """It must be used at once, in a new meld or as a lay-off (matrix R4, alternative)."""


@attrs.frozen
class ExchangePolicy:
    """Taking a wild card from a table meld by putting in the natural card(s) it stands for.

    In a run the supplied card is always the one for the wild's place. In a
    set, ``set_supply`` decides; ``set_needs_four`` allows it only from a set
    of three naturals and a wild (002 variant "Tournament jokers", matrix R10).
    """

    allowed: bool = True
    needs_opening: bool = True
    set_supply: SetSupply = SetSupply.BOTH_MISSING
    set_needs_four: bool = False
    freed_wild: FreedWild = FreedWild.KEEP

    def describe(self) -> str:
        if not self.allowed:
            return "Wild cards on the table cannot be exchanged."
        supply = {
            SetSupply.BOTH_MISSING: (
                "in a set of two naturals and a wild both missing cards, in a set of three "
                "and a wild the fourth"
            ),
            SetSupply.EITHER_MISSING: "in a set any one missing card of its rank",
        }[self.set_supply]
        four = (
            " Only a set of three naturals and a wild gives up its wild."
            if self.set_needs_four
            else ""
        )
        freed = {
            FreedWild.KEEP: "The freed wild may be used at once or kept in the hand.",
            FreedWild.NEW_MELD: "The freed wild must go into a new meld at once.",
            FreedWild.USE_NOW: "The freed wild must be used at once, in a meld or a lay-off.",
        }[self.freed_wild]
        who = "After opening, a" if self.needs_opening else "A"
        return (
            f"{who} player may take a wild from a table meld by putting in the card it stands "
            f"for: in a run the card for its place; {supply}.{four} {freed}"
        )


@attrs.frozen
class GoingOut:
    """How a round is won by getting rid of every card.

    ``final_discard``: the last card must be discarded (000), or the player
    may also meld it and end without a discard (002, 004). ``first_turn_ban``:
    nobody goes out on their own first turn (000). ``announce_at``: a player
    left with that many cards or fewer after discarding must announce it, and
    one who forgets may not go out on the next turn (000); 0 turns this off.
    ``wild_discard_only_to_go_out``: a joker may be discarded only as the last
    card (002 variant "Tournament jokers"), or from a hand of nothing but wild cards
    (the document is silent there, and the turn could not end otherwise).
    """

    final_discard: bool = True
    first_turn_ban: bool = False
    announce_at: int = 0
    wild_discard_only_to_go_out: bool = False

    def describe(self) -> str:
        text = (
            "A player goes out by melding all but one card and discarding the last."
            if self.final_discard
            else "A player goes out by getting rid of every card, with or without a final discard."
        )
        if self.first_turn_ban:
            text += " Nobody may go out on their first turn."
        if self.announce_at:
            text += (
                f" With {self.announce_at} cards or fewer after discarding a player announces it;"
                " one who forgets may not go out on the next turn."
            )
        if self.wild_discard_only_to_go_out:
            text += (
                " A wild card may be discarded only to go out, or from a hand of nothing but"
                " wild cards."
            )
        return text
