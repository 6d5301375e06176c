"""The rulebook: every rule of every preset, with a stable id, in words, and where it comes from.

A :class:`Rule` is one rule of the game as this library plays it: ``key`` names
it (``wilds.one-per-meld``), ``applies`` says from the policies of a ruleset
whether it is in force, ``words`` states it for that ruleset, and ``sources``
says which section of which rule document it was taken from. The rulebook
has one page per preset (and a page ``custom`` for every other ruleset); a
rule's id is its page and its key, ``levant.wilds.one-per-meld``. A page
holds the rules in force in its preset and those that one of its variants or
switches brings in, so a ruleset built with :func:`~hand_rummy.rules.presets.build`
finds all its rules on its own page.

The code that judges a move names the :class:`~hand_rummy.verdict.Topic` of
the rule it applies, and :func:`violation` (or :func:`cite`) turns it into
the rules of the ruleset in use. Nothing here asks which preset is played:
the rule in force comes from the policies, and the page from the ruleset's
name, looked up among the pages.

>>> from hand_rummy.rules import presets
>>> [c.id for c in cite(presets.levant, Topic.WILD_COUNT)]
['levant.wilds.one-per-meld']
>>> [c.id for c in cite(presets.gulf, Topic.WILD_COUNT)]
['gulf.wilds.by-length']
>>> cite(presets.romme, Topic.OPENING_BAR)[0].text
"A player's first meld of a round must be worth at least 40 points in all."
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TypeVar

import attrs

from hand_rummy.errors import UnknownRulesError
from hand_rummy.rules.match import (
    DealerRotation,
    FirstDealer,
    MatchEnd,
    TieRule,
    times_in_words,
)
from hand_rummy.rules.opening import (
    BeatLastOpening,
    FixedOpening,
    OpeningExemption,
    TeamOpening,
    minimum_in_words,
)
from hand_rummy.rules.presets import PRESETS, Variant, build, variants_for
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.scoring import PartnershipScoring
from hand_rummy.rules.table_setup import Direction, FirstTurn
from hand_rummy.rules.turn import FreedWild, SetSupply
from hand_rummy.rules.wilds import (
    AceIndicator,
    AdjacentWilds,
    ForbiddenMix,
    MaxWilds,
    MaxWildsByLength,
    MinNaturals,
    NotAllWild,
    NoWildAtRunEnd,
    RoleInference,
    WildConstraint,
)
from hand_rummy.verdict import Citation, Code, Topic, Violation

__all__ = [
    "AMBIGUITIES",
    "CUSTOM",
    "DEFAULT_READINGS",
    "DOCUMENTS",
    "PAGES",
    "PAGE_DOCUMENTS",
    "PARTS",
    "RULES",
    "PageRule",
    "Rule",
    "Source",
    "cite",
    "cited",
    "lookup",
    "page_keys",
    "page_of",
    "page_rules",
    "rule_ids",
    "rules_in_force",
    "violation",
]

CUSTOM = "custom"
"""The page for a ruleset that is no preset: every rule the library knows."""

Words = str | Callable[[Ruleset], str]


@attrs.frozen(eq=False)
class Rule:
    """One rule: its key, what puts it in force, its words, and the documents it comes from.

    ``sources`` maps a rule document (``"000"``) to the section the rule is
    taken from. ``"section | L3"`` adds the ambiguity whose default reading the
    rule is; an empty section says that the document does not state the rule,
    and the ambiguity explains the reading chosen.
    """

    key: str
    """The id without its page: ``part.rule`` (``wilds.one-per-meld``)."""
    dimension: str
    """The :class:`~hand_rummy.rules.ruleset.Ruleset` field that decides the rule, or the
    part of the game for a rule that every ruleset has (``melds``, ``turn``)."""
    title: str
    words_for: Words = attrs.field(repr=False)
    applies: Callable[[Ruleset], bool] = attrs.field(repr=False)
    policy: str
    """In words: which setting of the policies puts the rule in force."""
    topics: tuple[Topic, ...] = ()
    """The topics for which a violation (or a line of a score) cites this rule."""
    sources: tuple[tuple[str, str], ...] = ()

    def words(self, ruleset: Ruleset) -> str:
        """The rule in words, for ``ruleset``."""
        return self.words_for if isinstance(self.words_for, str) else self.words_for(ruleset)

    def in_force(self, ruleset: Ruleset) -> bool:
        return self.applies(ruleset)


@attrs.frozen
class Source:
    """Where a rule of a page comes from: a section of a rule document, or a named variant."""

    document: str
    """A key of :data:`DOCUMENTS`, ``"matrix"`` for an ambiguity switch, or ``"library"``."""
    sections: tuple[str, ...] = ()
    """The sections of the document, by their headings; none when it does not state the rule."""
    items: tuple[str, ...] = ()
    """Ambiguities (keys of :data:`AMBIGUITIES`) whose default reading the rule follows."""
    variant: str | None = None
    """The variant or switch that brings the rule in, for a rule not in the preset itself."""

    def describe(self) -> str:
        """Where the rule comes from, in words.

        >>> Source("000", ("Setup", "Playing a turn")).describe()
        'Hand Rummy, full rules (... document 000), sections “Setup” and “Playing a turn”'
        """
        if self.document == "library":
            return "hand-rummy's own convention; the rule documents do not speak of it"
        if self.document == "matrix":
            items = ", ".join(self.items)
            return f"the switch {self.variant}, the other reading of ambiguity {items}"
        title = DOCUMENTS[self.document]
        where = " and ".join(f"“{s}”" for s in self.sections)
        sections = f"section {where}" if len(self.sections) == 1 else f"sections {where}"
        if self.variant is not None:
            return f"the variant {self.variant}: {title}, {sections}"
        if self.sections:
            return f"{title}, {sections}"
        if self.items:
            return f"not stated in {title}: hand-rummy's reading, ambiguity {', '.join(self.items)}"
        return f"{title} has no such rule, so none applies"


DOCUMENTS: dict[str, str] = {
    "000": "Hand Rummy, full rules (Jordan, Lebanon and Palestine; document 000)",
    "001": "the German text of the same rules (document 001)",
    "002": "Rummy (Rommé), full rules (document 002)",
    "003": "Hand Card Game Rules (Saudi Arabia and the Gulf; document 003)",
    "004": "the Hand guide of the ERAM CARDS app (document 004)",
}
"""The rule documents, by the number the project gives them."""

PAGE_DOCUMENTS: dict[str, str] = {
    "levant": "000",
    "romme": "002",
    "gulf": "003",
    "classic": "004",
    "partnership": "004",
    "saudi": "004",
    "saudi_partnership": "004",
}
"""The rule document each preset's page follows."""


AMBIGUITIES: dict[str, str] = {
    "L1": (
        "The Levant text leaves its card-value section empty. Its scoring section gives Ace 11, "
        "10 J Q K 10 and the other cards their face value, and it says the values count twice, "
        "so the same values count toward the opening; a wild card counts as the card it stands "
        "for, and a joker that is not wild as the Ace it plays as."
    ),
    "L2": (
        "The Levant text has no scoring table. Its example gives -30 for the player who goes "
        "out, the cards for one who has melded and 100 for one who never did; its tips call the "
        "100 flat. After a Hand 'all scores are doubled', the winner's too (-60, and 200 for "
        "never having melded), which its partnership figures confirm."
    ),
    "L3": (
        "A wild card at the end of a run could stand for the card below or above it, and the "
        "choice changes the meld's value and what a later exchange needs. The written order is "
        "taken as the player's declaration: the wild stands for the card at its place. Where a "
        "choice that matters is still left, the player must name the card."
    ),
    "L4": (
        "The text that makes a joker from the discard pile only an Ace stands under 'discarded "
        "wild cards', so it is read as applying only when the jokers are wild. Under another "
        "indicator a joker is already a natural Ace and stays one."
    ),
    "L5": (
        "A wild card taken from the discard pile plays as a natural card, so it is not counted "
        "as the meld's one wild card."
    ),
    "L6": (
        "'Four pairs' is read as four or more. Two identical wild cards count as two wild cards, "
        "not as a pair. The claim comes before the first discard, and the same dealer deals again."
    ),
    "L7": (
        "For the draw that picks the first dealer the text gives no ranking: the Ace ranks high "
        "(it is worth 11), and jokers and ties draw again. When several players share the worst "
        "score of a round, the first of them in the order of play after the last dealer deals."
    ),
    "L8": ("The starter 'simply discards' on the first turn: read as neither drawing nor melding."),
    "L9": (
        "'Nobody may go out on their first turn' is read per player: each player's own first turn."
    ),
    "L10": (
        "Forgetting any of the announcements (three, two or one card) bars going out on the "
        "next turn."
    ),
    "L11": (
        "'If you can get rid of all your cards in one turn' is read as any finish in a single "
        "turn by a player who had not opened, not only a Hand."
    ),
    "L12": (
        "'Colour' means red or black (the German text says so). A Hand in one suit counts four "
        "times in place of the colour doubling (eight times in all with the Hand's own "
        "doubling), and wild cards are neither colour nor suit."
    ),
    "L13": (
        "Without jokers the Aces of the indicator's suit are wild; when the indicator is itself an "
        "Ace, the text is read literally: the two Aces of its suit are wild, one of them being "
        "the turned card."
    ),
    "L14": (
        "The indicator lies face up beside the stock and is out of play for the round: it is "
        "never drawn."
    ),
    "L15": (
        "Under 'beat the last one', the first opening of a round still needs 51, and beating "
        "means being worth more."
    ),
    "L17": (
        "Whether the stock is nearly spent is checked after every turn: the round ends once it "
        "holds no more cards than there are players."
    ),
    "R1": (
        "The Rommé text never gives the Queen a value; like the Jack and the King, it counts 10."
    ),
    "R2": (
        "Only one natural with two jokers is banned in so many words. One natural card cannot "
        "carry a meld, so one natural with three jokers is refused too, and so are jokers alone. "
        "Jokers 'next to each other' is about runs: a set has no order, so two naturals and two "
        "jokers make a set."
    ),
    "R3": "In a run round the corner the Ace counts 11 toward the opening; longer wraps are runs.",
    "R4": (
        "A joker won in an exchange goes into a new meld: it is not laid off on an old one. The "
        "exchange is allowed in the turn of coming out, as the other rights after coming out are."
    ),
    "R5": "Nothing forbids discarding the card just taken from the discard pile, so it may be.",
    "R6": "A Hand Rommé is an ordinary finish in one turn, so it may end with a final discard.",
    "R7": (
        "The round ends when a player has to draw from the stock and the stock is empty; that "
        "player may not take the discard instead."
    ),
    "R8": (
        "A match to a penalty total ends when a total passes it (goes above it). Players tied "
        "for the lowest total share the win."
    ),
    "R9": (
        "Under 'discard pile only for melding' the taken card goes into a new meld, or, once the "
        "player has come out, may be laid off."
    ),
    "R10": (
        "Under the tournament jokers a set gives up its joker only when it holds three natural "
        "cards and the joker, for the missing fourth."
    ),
    "R11": (
        "For the draw that picks the first dealer the Ace ranks high; jokers and ties draw again."
    ),
    "G1": (
        "The Gulf text's list of penalties is lost. Its only value table (Ace 15, 10 J Q K 10, "
        "number cards their face value, joker 25) is used for the cards left in hand; only the "
        "'other players' are charged, so the player who goes out scores 0; a player who never "
        "opened pays for the cards held."
    ),
    "G2": (
        "Of the 56 cards left after the deal, the top one starts the discard pile, so the stock "
        "holds 55."
    ),
    "G3": (
        "Direction and the next dealer are not stated. The dealer's left starts, so play goes "
        "clockwise, and the deal passes to the next player."
    ),
    "G4": (
        "Every turn ends with a discard, yet a Hand 'melds all their cards'. A player may go out "
        "either way, by a final discard or by melding the last card; a Hand puts every card "
        "on the table, with no final discard. "
        "Lay-offs on other players' melds in a Hand are not mentioned (X9): they are allowed."
    ),
    "G5": "Laying off before the 51 is met is not mentioned: it is not allowed.",
    "G6": "The phases come 'in order', so no new meld is laid down after a lay-off in a turn.",
    "G7": "Exchanging a joker on the table is not mentioned: it is not allowed.",
    "G8": "No exemption from the 51 is stated, so a Hand must reach it too.",
    "G9": (
        "The text does not say what happens when the stock runs out. The discard pile below its "
        "top card is shuffled into a new stock, as often as needed; if even that is impossible "
        "the round is a no-contest."
    ),
    "G11": "Ties at the end of the match are not stated: tied players share the win.",
    "P1": (
        "The app does not say where an Ace may sit in a run: as in the other documents, at "
        "either end (A-2-3, Q-K-A) but not round the corner."
    ),
    "P2": "The app gives no value for a Joker in the opening: it counts as the card it stands for.",
    "P3": (
        "A Joker 'stands in for a missing card inside a run or set': 'inside' is read as "
        "'within', so it may also stand at an end of a run."
    ),
    "P4": (
        "A player who has not opened and takes the fire card must open that turn, with or "
        "without the card; taking it is refused when the hand cannot open."
    ),
    "P5": (
        "For a set the app only asks for 'the correct natural card': any one missing card of the "
        "rank frees the Joker, and the freed Joker may stay in the hand."
    ),
    "P6": (
        "A 'Hand' lays down every card, with no final discard; discarding (the starter's first "
        "discard included) is not 'playing'; and a Hand still has to reach the opening bar."
    ),
    "P7": (
        "The app gives only the table for one player: each partner is scored by it and a "
        "team's score is the sum of its two players."
    ),
    "P8": (
        "'The next player' who opens is whoever opens next, and must beat the latest opening "
        "accepted in the round."
    ),
    "P9": (
        "The opening 'belongs to the whole team': once one partner has opened, the other may lay "
        "off and exchange without laying down, and pays for the cards held rather than the "
        "never-opened score. The Ace counts 1 in A-2-3 here too, as in Saudi Hand."
    ),
    "P10": (
        "'The older fire cards' are all but the top one, and 'up to 3 times' is at most three "
        "new stocks in a round."
    ),
    "P11": (
        "The app does not state these. The dealer's right starts, so play goes anticlockwise; "
        "the deal passes to the next player; tied players share the win; partners sit opposite; "
        "and there are no announcements, first-turn ban or redeal."
    ),
    "P12": "In Saudi Hand an Ace left in hand costs 11: the value 1 belongs to a run on the table.",
    "Q1": (
        "Under Levant's 'Taking the discard' the taken card may be added to a table meld; "
        "putting it in a wild card's place (an exchange) does not count as adding it."
    ),
    "Q2": (
        "In Levantine partnership play 'the player with the highest (worst) score' deals: "
        "each player's own score of the round, the winner's partner counting 0, not the "
        "team's."
    ),
}
"""Where a rule document is silent, unclear or contradicts itself: the reading this library
follows, and why. The keys are the items of the project's rules matrix, and ``Q`` items for
questions the matrix does not list (found since by the library's audits; the matrix's own
``X`` items compare the systems, and are no keys here)."""


#: For every switch: the reading the presets follow when the switch is off.
DEFAULT_READINGS: dict[str, str] = {
    "starter_may_meld": "The starter's first turn is only a discard: no draw and no meld.",
    "joker_demotion_always": (
        "A discarded joker is demoted to an Ace of any suit only while jokers are wild; "
        "under a non-Ace indicator it stays the natural Ace of the indicator's suit."
    ),
    "demoted_wild_counts": (
        "A wild taken from the discard pile is a natural card and does not use up the "
        "meld's one wild."
    ),
    "redeal_wild_pairs": (
        "Two identical wild cards are two wilds, not a pair, when a redeal is claimed."
    ),
    "dealer_draw_ace_low": "In the draw for first dealer the Ace ranks high.",
    "exemption_hand_only": (
        "Any finish made in a single turn by a player who had not opened may fall short "
        "of the opening bar."
    ),
    "egyptian_suit_x16": (
        "A one-suit Hand earns its own bonus, and the one-colour doubling is not added "
        "on top (×8 in all)."
    ),
    "ace_indicator_no_wilds": (
        "Without jokers, an Ace indicator still makes the two Aces of its suit wild, the "
        "turned card being one of them."
    ),
    "beat_last_or_equal": (
        "Under beat-the-last, each opening must be strictly higher than the previous one."
    ),
    "beat_last_next_seat": (
        "Under beat-the-last, whoever opens next, in any seat, must beat the latest opening."
    ),
    "one_natural_three_jokers": (
        "Every meld needs at least two natural cards, so one natural with three jokers is refused."
    ),
    "no_two_jokers_in_set": (
        "A set has no order, so two naturals and two jokers make a valid set."
    ),
    "wrap_ace_1": "An Ace in a K-A-2 run counts 11 toward the opening.",
    "freed_joker_may_lay_off": (
        "A joker won in an exchange must start a new meld; it may not be laid off."
    ),
    "no_rediscard_taken": "The card taken from the discard pile may be thrown again at once.",
    "hand_all_melded": "A Hand Rommé may still end with a final discard.",
    "stock_out_after_last_draw": (
        "The round ends only when a player has to draw and the stock is empty."
    ),
    "limit_reached": "The match ends only once a total goes past the limit.",
    "ties_play_on": "Players tied for the lowest total share the win.",
    "discard_new_meld_only": (
        "A discard taken to meld may start a new meld, or be laid off once the player has opened."
    ),
    "discard_pays_for_joker": (
        "A discard taken to meld must go into a meld; paying for a joker with it does not count."
    ),
    "discard_pays_for_wild": (
        "A discard taken under 'discard_to_table' goes into a new meld or is laid off; paying "
        "for a wild card on the table with it does not count."
    ),
    "worst_team_deals": (
        "In partnership play the player with the worst score of the round, by each player's "
        "own score (the winner's partner 0), deals next."
    ),
    "levant_penalties": "Cards in hand cost what document 003 gives elsewhere: Ace 15, joker 25.",
    "romme_penalties": "Cards in hand cost what document 003 gives elsewhere: Ace 15, joker 25.",
    "winner_minus_30": "The player who goes out scores 0; only the others are charged.",
    "never_opened_100": "A player who never opened pays the value of the cards held.",
    "final_discard_required": (
        "A player may go out by discarding the last card or by melding every card."
    ),
    "hand_no_layoffs": (
        "A Hand may end with lay-offs on other players' melds: 003 does not say otherwise."
    ),
    "layoff_before_opening": "Nothing may be laid off before the player has opened.",
    "free_phase_order": "In a turn, new melds come first and lay-offs after them.",
    "joker_exchange": "A joker on the table cannot be exchanged.",
    "hand_exempt": "A Hand still has to reach the opening bar.",
    "stock_out_unscored": (
        "The discard pile below its top card is shuffled into a new stock; when that "
        "is impossible the round is a no-contest."
    ),
    "stock_out_score_hands": (
        "The discard pile below its top card is shuffled into a new stock; when that "
        "is impossible the round is a no-contest."
    ),
    "joker_opening_15": "A joker counts as the card it stands for toward the opening.",
    "joker_opening_25": "A joker counts as the card it stands for toward the opening.",
    "joker_inside_only": "A joker may also stand at either end of a run.",
    "taken_card_in_opening": (
        "A player who has not opened and takes the fire card must open that turn, but "
        "the opening need not use it."
    ),
    "exchange_both_missing": (
        "A joker leaves a set of two naturals for either one of the missing cards."
    ),
    "freed_joker_must_meld": "A joker won in an exchange may be kept in the hand.",
    "hand_with_final_discard": "A Hand lays down every card, with no final discard.",
    "winner_team_scoring": (
        "Every player scores by the ordinary table and a team's score is the sum of its "
        "two players."
    ),
    "personal_team_opening": "Once one partner has opened, the whole team counts as opened.",
    "wild_role_best_value": (
        "A wild stands for the card at its written place; if a choice that changes the "
        "answer remains, the meld is refused as ambiguous until the player declares it."
    ),
    "partner_pays_never_opened": (
        "Once the team has opened, a partner who never laid down scores the cards in hand."
    ),
    "beat_last_no_base": (
        "Under beat-the-last, the first opening of a round still needs the base minimum (51)."
    ),
    "ace_indicator_turn_again": (
        "Without jokers, an Ace indicator makes the Aces of its suit wild (one of them is the "
        "indicator)."
    ),
}


# --- the words of the rules ----------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


_C = TypeVar("_C", bound=WildConstraint)


def _constraint(ruleset: Ruleset, kind: type[_C], default: _C) -> _C:
    """The ruleset's wild constraint of ``kind``, or ``default`` when it has none."""
    found = [c for c in ruleset.wild_limits.constraints if isinstance(c, kind)]
    return found[0] if found else default


def _has(kind: type) -> Callable[[Ruleset], bool]:
    return lambda r: any(isinstance(c, kind) for c in r.wild_limits.constraints)


def _starter(r: Ruleset) -> str:
    return "the dealer" if r.deal.dealer_starts else "the player after the dealer"


def _players(r: Ruleset) -> str:
    low, high = r.players.minimum, r.players.maximum
    return f"{low}" if low == high else f"{low} to {high}"


def _deck(r: Ruleset) -> str:
    jokers = _plural(r.deck.jokers, "joker") if r.deck.jokers else "no jokers"
    copies = f"a joker {r.deck.jokers} times" if r.deck.jokers else "and there is no joker to hold"
    return (
        f"The pack is {r.deck.size} cards: {r.deck.packs} standard packs of 52 and {jokers}. "
        f"No meld or hand can hold a card more often than the pack does: each card "
        f"{r.deck.packs} times, {copies}."
    )


def _deal(r: Ruleset) -> str:
    way = (
        "clockwise (to the left)"
        if r.deal.direction is Direction.CLOCKWISE
        else "anticlockwise (to the right)"
    )
    return (
        f"Each player is dealt {r.deal.hand_size} cards, {r.deal.packet} at a time, and play "
        f"goes {way} round the table."
    )


def _indicator(r: Ruleset) -> str:
    jokers = r.deck.jokers > 0
    ace = {
        AceIndicator.JOKERS_WILD: "an Ace turned up makes the jokers the wild cards instead, "
        "and then every Ace is natural",
        AceIndicator.SUIT_ACES_WILD: "an Ace turned up makes the Aces of its own suit wild, the "
        "turned Ace being one of them",
        AceIndicator.NO_WILDS: "an Ace turned up means the round has no wild cards",
        AceIndicator.TURN_AGAIN: "an Ace turned up goes back into the stock and another card "
        "is turned",
    }[r.wilds.ace_indicator]
    joker_as = ", and the jokers play as ordinary Aces of that suit" if jokers else ""
    joker_up = "; a joker turned up goes back into the stock and the next card is turned"
    return (
        "After the deal the top card of the stock is turned face up as the indicator; it stays "
        "beside the stock, out of play, for the whole round. Unless it is an Ace, the two Aces "
        f"of its suit are the wild cards{joker_as}; {ace}{joker_up if jokers else ''}."
    )


def _opening_values(r: Ruleset) -> str:
    v = r.opening_values
    text = (
        f"Toward the opening, number cards count their face value, 10 J Q K count {v.court} "
        f"and an Ace {v.ace}"
    )
    if v.ace_low != v.ace:
        text += f", but {v.ace_low} as the low end of a run A-2-3"
    if r.runs.wrap and v.ace_wrapped != v.ace:
        text += f" and {v.ace_wrapped} inside a run round the corner"
    if v.wild is None:
        text += (
            "; a wild card counts as the card it stands for (in a set, as one more card of its "
            "rank)"
        )
    else:
        text += f"; a wild card counts {v.wild}"
    if r.wilds.indicator and r.deck.jokers:
        text += ", and a joker that is not wild as the Ace it plays as"
    return text + "."


def _by_length(r: Ruleset) -> str:
    c = _constraint(r, MaxWildsByLength, MaxWildsByLength())
    return (
        f"A meld of {c.short_length} cards may hold {_plural(c.short, 'wild card')}; a longer "
        f"meld may hold {c.long}."
    )


def _forbidden_mix(r: Ruleset) -> str:
    c = _constraint(r, ForbiddenMix, ForbiddenMix())
    return (
        f"{_plural(c.naturals, 'natural card')} with exactly {_plural(c.wilds, 'wild card')} "
        "is not a meld; with more wild cards it can be."
    )


def _side_by_side(r: Ruleset) -> str:
    c = _constraint(r, AdjacentWilds, AdjacentWilds())
    sets = (
        "a set, which has no order, may hold two."
        if c.in_sets
        else "a set may not hold two wild cards at all."
    )
    return f"Two wild cards may sit next to each other only in a run of {c.min_run} or more; {sets}"


def _beat_last(r: Ruleset) -> str:
    o = r.opening if isinstance(r.opening, BeatLastOpening) else BeatLastOpening()
    beat = "more than" if o.strict else "at least"
    bar = minimum_in_words(o.base)
    if o.next_seat_only:
        return (
            f"Every opening of a round needs {bar}, and the player seated next after the "
            f"player who opened last must open with {beat} that opening; anyone else "
            "needs only the base. The bar starts again each round."
        )
    return (
        f"The first player to open in a round needs {bar}; every later opening of "
        f"the round must be worth {beat} the last one accepted. The bar starts again "
        "each round."
    )


def _team_opening(r: Ruleset) -> str:
    o = r.opening if isinstance(r.opening, TeamOpening) else TeamOpening()
    who = (
        "once one partner has opened, the other counts as opened too and may lay off and "
        "exchange without laying down."
        if o.shared
        else "each partner still opens personally, against the team's bar."
    )
    beat = "more than" if o.strict else "at least as much as"
    return (
        f"The first team to open needs {minimum_in_words(o.base)}, the other team {beat} the first "
        f"team's opening; {who}"
    )


def _exemption(text: str) -> Callable[[Ruleset], bool]:
    value = OpeningExemption(text)
    return lambda r: r.opening_exemption is value


def _take_meld(r: Ruleset) -> str:
    take = r.discard_take
    where = (
        ", or laid off on a meld on the table once the player has opened"
        if take.may_lay_off
        else ""
    )
    pays = (
        ", or put in a meld on the table in exchange for a wild card there"
        if take.may_exchange
        else ""
    )
    return (
        "A card taken from the discard pile must be laid down in the same turn, in a new meld "
        f"with at least {take.hand_cards} cards from the hand{where}{pays}; a player who has "
        "not opened must lay it down in an opening that reaches the bar. A hand that cannot "
        "do so draws from the stock instead."
    )


def _demotion(r: Ruleset) -> str:
    d = r.demotion
    scope = (
        " (a joker even in a round where the jokers are not wild)"
        if d.jokers_always
        else "; this last only in a round where the jokers are wild"
    )
    limit = (
        "It still counts toward the meld's limit of wild cards."
        if d.counts_as_wild
        else "Being natural now, it does not count toward the meld's limit of wild cards."
    )
    return (
        "A wild card taken from the discard pile loses its power: a wild Ace plays only as a "
        f"natural Ace of its suit, and a joker only as a natural Ace of any suit{scope}. {limit}"
    )


def _hand(r: Ruleset) -> str:
    h = r.hand
    text = (
        "A Hand is going out in a single turn by a player who had laid nothing down earlier in "
        "the round"
    )
    if h.no_layoffs:
        text += ", without adding any card to another player's meld"
    if h.first_to_meld:
        text += ", before any other player has melded"
    text += (
        "; every card goes onto the table, in new melds or as lay-offs, with no final discard."
        if h.all_melded
        else "; the last card may be discarded."
    )
    return text


def _penalties(r: Ruleset) -> str:
    p = r.penalties
    text = (
        "At the end of a round each card left in the hand of a player who has opened costs "
        f"points: number cards their face value, 10 J Q K {p.court}, an Ace {p.ace} and a "
        f"wild card {p.wild}"
    )
    if r.wilds.indicator and r.deck.jokers:
        text += "; a joker that is not wild this round costs what the Ace it plays as costs"
    return text + "."


def _hand_score(r: Ruleset) -> str:
    s = r.scoring
    if s.hand_doubles_winner:
        return (
            f"After a Hand every score of the round is multiplied by {s.hand_factor}, the "
            "winner's included."
        )
    return (
        f"After a Hand the other players' scores are multiplied by {s.hand_factor}; the winner "
        f"still scores {s.winner}."
    )


def _egyptian(r: Ruleset) -> str:
    e = r.scoring.egyptian
    if e is None:
        return "A Hand earns no extra bonus."
    both = ", on top of the colour doubling" if e.suit_also_colour else ""
    return (
        f"Egyptian bonuses multiply a Hand's scores again: ×{e.wild_discard} when its final "
        f"discard is a wild card, and ×{e.colour} when its natural melded cards are all of one "
        f"colour (red or black), or ×{e.suit_factor} in its place when they are all of one "
        f"suit{both}. The factors multiply, and wild cards have neither colour nor suit."
    )


def _match_length(r: Ruleset) -> str:
    m = r.match
    end = {
        MatchEnd.SCORED_ROUNDS: f"after {m.length} scored rounds (a round without a score "
        "does not count)",
        MatchEnd.ROUNDS: f"after {m.length} rounds, fixed before the start",
        MatchEnd.PENALTY_LIMIT: (
            f"as soon as a player's total {'reaches' if m.inclusive else 'passes'} "
            f"{m.length} points"
        ),
        MatchEnd.DEALS_PER_PLAYER: f"when everyone has dealt {times_in_words(m.length)}",
    }[m.end]
    ties = (
        "a tie for the lowest is played off with more rounds"
        if m.ties is TieRule.PLAY_ON
        else "players tied for the lowest share the win"
    )
    return f"The match ends {end}. The lowest total wins (totals may go below zero); {ties}."


def _dealer(r: Ruleset) -> str:
    m = r.match
    first = "lowest" if m.first_dealer is FirstDealer.LOWEST_CARD else "highest"
    ace = "high" if m.ace_high_for_dealer else "low"
    then = (
        (
            "the first player, going round from the last dealer, of the team with the worst "
            "score of that round deals next"
            if m.worst_team_deals
            else "the player with the worst score of that round deals next"
        )
        if m.rotation is DealerRotation.WORST_SCORER
        else "the deal passes to the next player"
    )
    return (
        f"For the first deal everyone draws a card and the {first} card deals (the Ace ranks "
        f"{ace}; a joker or a tie draws again). After each round {then}; after a round without "
        "a score the same dealer deals again."
    )


def _rule(  # noqa: PLR0917 (one call a row of the table below)
    key: str,
    dimension: str,
    title: str,
    words: Words,
    applies: Callable[[Ruleset], bool],
    policy: str,
    topics: Sequence[Topic] = (),
    **sources: str,
) -> Rule:
    """A rule; ``sources`` are keyed ``d000`` ... ``d004`` (or ``library``)."""
    cited = tuple((k.removeprefix("d"), v) for k, v in sources.items())
    return Rule(key, dimension, title, words, applies, policy, tuple(topics), cited)


def _always(_: Ruleset) -> bool:
    return True


_T = Topic

RULES: tuple[Rule, ...] = (
    # --- players, cards and the deal ---------------------------------------------------
    _rule(
        "players.seats",
        "players",
        "Players",
        lambda r: f"{_players(r)} players, each playing for themselves.",
        lambda r: not r.players.partnerships,
        "players without partnerships",
        d000="Overview",
        d002="Overview",
        d003="Overview",
        d004="What you need",
    ),
    _rule(
        "players.teams",
        "players",
        "Two teams of partners",
        "Four players in two teams of two; partners sit opposite each other, so turns "
        "alternate between the teams.",
        lambda r: r.players.partnerships,
        "players with partnerships",
        d004="What you need | P11",
    ),
    _rule(
        "deck.cards",
        "deck",
        "The pack",
        _deck,
        _always,
        "deck",
        (_T.DECK,),
        d000="Overview",
        d002="Overview",
        d003="The Deck",
        d004="What you need",
    ),
    _rule(
        "deal.hands",
        "deal",
        "The deal and the direction of play",
        _deal,
        _always,
        "deal",
        d000="Overview; Setup",
        d002="Setup; Playing a turn",
        d003="Dealing | G3",
        d004="1. The deal | P11",
    ),
    _rule(
        "deal.extra-card",
        "deal",
        "The starter's extra card",
        lambda r: (
            f"{_starter(r).capitalize()} is dealt one card more ({r.deal.hand_size + 1}) and "
            "starts the round; holding the extra card, the starter does not draw on that first "
            "turn."
        ),
        lambda r: r.deal.starter_extra_card,
        "deal.starter_extra_card",
        (_T.STARTER,),
        d000="Setup; Playing a turn",
        d002="Setup; Playing a turn",
        d004="1. The deal",
    ),
    _rule(
        "deal.upcard",
        "deal",
        "The upcard",
        lambda r: (
            "After the deal the top card of the stock is turned face up to start the discard "
            f"pile, and {_starter(r)} begins with an ordinary turn: draw, meld, discard."
        ),
        lambda r: r.deal.upcard,
        "deal.upcard",
        d003="The Deck; Dealing | G2",
    ),
    _rule(
        "deal.bare-first-turn",
        "deal",
        "The starter's first turn is a bare discard",
        "On that first turn the starter only discards, which starts the discard pile: no "
        "draw and no meld.",
        lambda r: r.deal.starter_extra_card and r.deal.first_turn is FirstTurn.DISCARD_ONLY,
        "deal.first_turn = DISCARD_ONLY",
        (_T.BARE_FIRST_TURN,),
        d000="Playing a turn | L8",
        d004="1. The deal",
    ),
    _rule(
        "deal.starter-may-meld",
        "deal",
        "The starter may meld at once",
        "On that first turn the starter may lay down melds before discarding.",
        lambda r: r.deal.starter_extra_card and r.deal.first_turn is FirstTurn.MAY_MELD,
        "deal.first_turn = MAY_MELD",
        d002="Playing a turn",
    ),
    _rule(
        "redeal.weak-hand",
        "redeal",
        "A redeal for a weak hand",
        lambda r: (
            f"A player dealt {r.redeal.pairs} pairs of identical cards, {r.redeal.pairs - 1} "
            f"pairs and a wild card, or {r.redeal.pairs - 2} pairs and two wild cards may show "
            "them and ask for a new deal, before the first discard; the same dealer deals "
            "again. "
            + (
                "Two identical wild cards count as a pair."
                if r.redeal.wild_pairs_count
                else "Two identical wild cards count as two wild cards, not as a pair."
            )
        ),
        lambda r: r.redeal.enabled,
        "redeal.enabled",
        (_T.REDEAL,),
        d000="Setup | L6",
    ),
    _rule(
        "redeal.none",
        "redeal",
        "No redeal",
        "Nobody may ask for a new deal because the cards dealt are weak.",
        lambda r: not r.redeal.enabled,
        "redeal not enabled",
        (_T.REDEAL,),
        d002="",
        d003="",
        d004=" | P11",
    ),
    # --- wild cards -----------------------------------------------------------------------
    _rule(
        "wilds.indicator",
        "wilds",
        "The indicator decides the wild cards",
        _indicator,
        lambda r: r.wilds.indicator,
        "wilds.indicator",
        d000="Wild cards | L14 L13",
    ),
    _rule(
        "wilds.jokers",
        "wilds",
        "The jokers are wild",
        lambda r: (
            f"The {_plural(r.deck.jokers, 'joker')} are the wild cards; no indicator is turned."
        ),
        lambda r: not r.wilds.indicator and r.deck.jokers > 0,
        "wilds without an indicator, in a deck with jokers",
        d002="Jokers",
        d003="Jokers",
        d004="The Joker",
    ),
    _rule(
        "wilds.none",
        "wilds",
        "No wild cards",
        "There are no wild cards: no indicator is turned and the pack holds no jokers.",
        lambda r: not r.wilds.indicator and r.deck.jokers == 0,
        "wilds without an indicator, in a deck without jokers",
    ),
    _rule(
        "wilds.declared-roles",
        "wild_roles",
        "A wild card stands for a card the player names",
        "A wild card stands for the card whose place it takes: in a run the card at its "
        "written position, in a set one more card of the set's rank. Where that still leaves "
        "a choice that changes something, the player must say which card it is.",
        lambda r: r.wild_roles is RoleInference.DECLARED,
        "wild_roles = DECLARED",
        (_T.WILD_ROLE,),
        d000="The first meld: 51 points | L3",
        d002="Jokers | L3",
        d003="Jokers | L3",
        d004="The Joker | L3",
    ),
    _rule(
        "wilds.best-value-roles",
        "wild_roles",
        "An undeclared wild takes its best reading",
        "A wild card stands for the card whose place it takes; where several readings are "
        "legal and the player names none, the one worth most toward an opening is taken.",
        lambda r: r.wild_roles is RoleInference.BEST_VALUE,
        "wild_roles = BEST_VALUE",
        (_T.WILD_ROLE,),
    ),
    _rule(
        "wilds.not-all-wild",
        "wild_limits",
        "Never wild cards alone",
        "A meld needs at least one natural card: wild cards alone are never a meld.",
        _has(NotAllWild),
        "wild_limits holds NotAllWild",
        (_T.WILDS_NOT_ALL,),
        d000="Wild cards",
        d002="Jokers | R2",
        d003="Jokers",
        d004="The Joker",
    ),
    _rule(
        "wilds.one-per-meld",
        "wild_limits",
        "One wild card per meld",
        lambda r: (
            "A meld may hold at most "
            f"{_plural(_constraint(r, MaxWilds, MaxWilds()).limit, 'wild card')}."
        ),
        _has(MaxWilds),
        "wild_limits holds MaxWilds",
        (_T.WILD_COUNT,),
        d000="Wild cards",
        d004="The Joker",
    ),
    _rule(
        "wilds.by-length",
        "wild_limits",
        "Wild cards by the length of the meld",
        _by_length,
        _has(MaxWildsByLength),
        "wild_limits holds MaxWildsByLength",
        (_T.WILD_COUNT,),
        d003="Jokers",
    ),
    _rule(
        "wilds.two-naturals",
        "wild_limits",
        "Two natural cards in every meld",
        lambda r: (
            f"Every meld holds at least {_constraint(r, MinNaturals, MinNaturals()).count} "
            "natural cards, so one natural card with two or more jokers is never a meld."
        ),
        _has(MinNaturals),
        "wild_limits holds MinNaturals",
        (_T.WILD_NATURALS,),
        d002="Jokers | R2",
    ),
    _rule(
        "wilds.not-one-and-two",
        "wild_limits",
        "Not one natural card with two jokers",
        _forbidden_mix,
        _has(ForbiddenMix),
        "wild_limits holds ForbiddenMix",
        (_T.WILD_NATURALS,),
    ),
    _rule(
        "wilds.side-by-side",
        "wild_limits",
        "Two wild cards side by side",
        _side_by_side,
        _has(AdjacentWilds),
        "wild_limits holds AdjacentWilds",
        (_T.WILDS_ADJACENT,),
        d002="Jokers | R2",
    ),
    _rule(
        "wilds.inside-runs",
        "wild_limits",
        "A wild card only inside a run",
        "In a run a wild card may stand only between natural cards, never at either end.",
        _has(NoWildAtRunEnd),
        "wild_limits holds NoWildAtRunEnd",
        (_T.WILD_AT_RUN_END,),
    ),
    _rule(
        "wilds.demoted-discard",
        "demotion",
        "A wild card from the discard pile is natural",
        _demotion,
        lambda r: r.demotion.enabled,
        "demotion.enabled",
        (_T.DEMOTION,),
        d000="Exchanging wild cards | L4 L5",
    ),
    _rule(
        "wilds.discard-stays-wild",
        "demotion",
        "A wild card from the discard pile stays wild",
        "A wild card taken from the discard pile stays wild.",
        lambda r: not r.demotion.enabled,
        "demotion not enabled",
        (_T.DEMOTION,),
        d002="Tips for beginners",
        d003="",
        d004="",
    ),
    # --- melds ------------------------------------------------------------------------------
    _rule(
        "melds.shape",
        "melds",
        "Runs and sets",
        lambda r: (
            f"A meld is at least {min(r.runs.min_length, r.sets.min_size)} cards laid face up "
            "together, either a run or a set."
        ),
        _always,
        "every ruleset",
        (_T.MELD_SHAPE,),
        d000="Melds",
        d002="Melds",
        d003="Types of Melds",
        d004="3. Legal melds",
    ),
    _rule(
        "melds.runs",
        "runs",
        "Runs",
        lambda r: (
            f"A run is {r.runs.min_length} or more cards of one suit whose ranks follow each "
            "other without a gap; it holds each rank once at most, so thirteen cards at most."
        ),
        _always,
        "runs",
        (_T.RUN,),
        d000="Melds",
        d002="Melds",
        d003="Types of Melds",
        d004="3. Legal melds",
    ),
    _rule(
        "melds.ace-at-ends",
        "runs",
        "The Ace ends a run",
        "The Ace can start a run below the 2 (A-2-3) or end it above the King (Q-K-A), but "
        "it never sits in the middle: K-A-2 is no run.",
        lambda r: not r.runs.wrap,
        "runs.wrap off",
        (_T.RUN_ACE,),
        d000="Melds",
        d002="Melds",
        d003="Types of Melds",
        d004=" | P1",
    ),
    _rule(
        "melds.round-the-corner",
        "runs",
        "Runs round the corner",
        "A run may go round the corner from the King over the Ace to the 2 (K-A-2, "
        "Q-K-A-2-3 and so on).",
        lambda r: r.runs.wrap,
        "runs.wrap",
        (_T.RUN_ACE,),
    ),
    _rule(
        "melds.sets",
        "sets",
        "Sets",
        lambda r: (
            f"A set is {r.sets.min_size} to {r.sets.max_size} cards of one rank, each of a "
            "different suit: the pack holds two of every card, but two identical cards never "
            "sit in one set."
        ),
        _always,
        "sets",
        (_T.SET,),
        d000="Melds",
        d002="Melds",
        d003="Types of Melds",
        d004="3. Legal melds",
    ),
    # --- the opening ------------------------------------------------------------------------
    _rule(
        "opening.together",
        "opening",
        "The opening is judged as a whole",
        "A player's first meld may be several melds laid down in the same turn. They are "
        "judged together: an opening holds at least one meld, and one illegal meld refuses "
        "the whole opening.",
        _always,
        "every ruleset",
        (_T.OPENING,),
        d000="The first meld: 51 points",
        d002="The first meld",
        d003="First Meld Requirement",
        d004="4. The opening; Common beginner mistakes",
    ),
    _rule(
        "opening.minimum",
        "opening",
        "The opening bar",
        lambda r: (
            "A player's first meld of a round must be worth at least "
            f"{r.opening.points if isinstance(r.opening, FixedOpening) else 51} points in all."
        ),
        lambda r: isinstance(r.opening, FixedOpening),
        "opening = FixedOpening",
        (_T.OPENING_BAR,),
        d000="The first meld: 51 points",
        d002="The first meld",
        d003="First Meld Requirement",
        d004="4. The opening; The four variants in brief",
    ),
    _rule(
        "opening.beat-the-last",
        "opening",
        "Each opening beats the last",
        _beat_last,
        lambda r: isinstance(r.opening, BeatLastOpening),
        "opening = BeatLastOpening",
        (_T.OPENING_BAR,),
        d004="The four variants in brief | P8",
    ),
    _rule(
        "opening.team",
        "opening",
        "The opening belongs to the team",
        _team_opening,
        lambda r: isinstance(r.opening, TeamOpening),
        "opening = TeamOpening",
        (_T.OPENING_BAR,),
        d004="The four variants in brief | P9",
    ),
    _rule(
        "opening.values",
        "opening_values",
        "What the cards count toward the opening",
        _opening_values,
        _always,
        "opening_values",
        (_T.OPENING_BAR,),
        d000="The first meld: 51 points; Scoring | L1",
        d002="The first meld | R1",
        d003="First Meld Requirement",
        d004="4. The opening; The four variants in brief | P2",
    ),
    _rule(
        "opening.exempt-going-out",
        "opening_exemption",
        "Going out at once needs no bar",
        "A player who has not opened and gets rid of every card in a single turn may do so "
        "with a first meld below the bar.",
        _exemption("going_out"),
        "opening_exemption = GOING_OUT",
        (_T.OPENING_EXEMPTION,),
        d000="The first meld: 51 points | L11",
    ),
    _rule(
        "opening.exempt-hand",
        "opening_exemption",
        "A Hand needs no bar",
        "A Hand (see the Hand finish) need not reach the opening bar; any other first meld must.",
        _exemption("hand"),
        "opening_exemption = HAND",
        (_T.OPENING_EXEMPTION,),
        d002="Scoring",
    ),
    _rule(
        "opening.no-exemption",
        "opening_exemption",
        "No exemption from the bar",
        "Every first meld must reach the bar, even one that goes out at once.",
        _exemption("none"),
        "opening_exemption = NONE",
        (_T.OPENING_EXEMPTION,),
        d003=" | G8",
        d004=" | P6",
    ),
    # --- a turn ---------------------------------------------------------------------------
    _rule(
        "turn.order",
        "turn",
        "A turn: draw, meld, discard",
        "A turn is: draw one card, from the top of the stock or the top of the discard pile; "
        "then, if the player wishes, lay down melds, lay off cards or exchange wild cards as "
        "the rules allow; then discard one card face up, which ends the turn.",
        _always,
        "every ruleset",
        (_T.TURN,),
        d000="Playing a turn",
        d002="Playing a turn",
        d003="Turn Flow",
        d004="2. Your turn: three steps",
    ),
    _rule(
        "turn.own-cards",
        "turn",
        "One's own cards, on one's own turn",
        "Only the player whose turn it is plays, and only with cards from their own hand (the "
        "card just drawn or taken included), on melds that are on the table.",
        _always,
        "every ruleset",
        (_T.OWN_CARDS,),
        d000="Playing a turn",
        d002="Playing a turn",
        d003="Turn Flow",
        d004="2. Your turn: three steps",
    ),
    _rule(
        "turn.one-meld-per-move",
        "turn",
        "After the opening, one meld per move",
        "Once a player has opened, each further meld is laid down as a move of its own. This "
        "is how the library records a turn; it changes nothing in what a turn may do.",
        _always,
        "every ruleset",
        (_T.ONE_MELD_PER_MOVE,),
        library="",
    ),
    _rule(
        "turn.round-over",
        "turn",
        "The end of the round",
        "The round ends as soon as a player has no card left, or when the stock rule ends it; "
        "after that nobody moves.",
        _always,
        "every ruleset",
        (_T.ROUND_OVER,),
        d000="End of a round",
        d002="Going out",
        d003="Scoring",
        d004="Round scoring",
    ),
    _rule(
        "turn.melds-before-layoffs",
        "layoff",
        "New melds before lay-offs",
        "Within a turn new melds come before lay-offs: once a card has been laid off, no new "
        "meld is laid down in that turn.",
        lambda r: r.layoff.melds_first,
        "layoff.melds_first",
        (_T.PHASE_ORDER,),
        d003="Turn Flow | G6",
    ),
    _rule(
        "take.top-card",
        "discard_take",
        "Taking the top discard",
        "Instead of drawing from the stock a player may take the top card of the discard "
        "pile, and only the top card.",
        _always,
        "every ruleset",
        (_T.TAKE,),
        d000="Playing a turn",
        d002="Playing a turn",
        d003="Turn Flow",
        d004="2. Your turn: three steps",
    ),
    _rule(
        "take.must-meld",
        "discard_take",
        "A taken discard is melded at once",
        _take_meld,
        lambda r: r.discard_take.must_meld,
        "discard_take.must_meld",
        (_T.TAKE_MELD,),
        d000="Playing a turn",
    ),
    _rule(
        "take.must-open",
        "discard_take",
        "Taking the fire card obliges an opening",
        "A player who has not opened and takes the top discard must open in that same turn "
        "and may not discard before doing so; the card can be taken only by a hand that can "
        "then open.",
        lambda r: r.discard_take.must_open,
        "discard_take.must_open",
        (_T.TAKE_OPEN,),
        d004="5. Taking from the fire pile | P4",
    ),
    _rule(
        "take.in-opening",
        "discard_take",
        "The opening uses the taken card",
        "The opening that taking the discard obliges must use the card taken.",
        lambda r: r.discard_take.in_opening,
        "discard_take.in_opening",
        (_T.TAKE_OPEN,),
    ),
    _rule(
        "take.no-rediscard",
        "discard_take",
        "The taken card does not go back",
        "The card taken from the discard pile may not be discarded again in the same turn "
        "(another copy of it that the player already held may). Where that would leave no "
        "card that may end the turn and no move that could change it (a lone joker under "
        "tournament jokers, say), the discard may not be taken.",
        lambda r: r.discard_take.no_rediscard,
        "discard_take.no_rediscard",
        (_T.NO_REDISCARD, _T.DISCARD_RESTRICTION),
        d004="2. Your turn: three steps",
    ),
    # --- laying off -----------------------------------------------------------------------
    _rule(
        "layoff.after-opening",
        "layoff",
        "Laying off after the opening",
        "Only a player who has opened may lay off cards, from the turn of the opening on.",
        lambda r: r.layoff.needs_opening,
        "layoff.needs_opening",
        (_T.LAYOFF_GATE,),
        d000="The first meld: 51 points",
        d002="The first meld",
        d003="First Meld Requirement | G5",
        d004="4. The opening",
    ),
    _rule(
        "layoff.any-time",
        "layoff",
        "Laying off before the opening",
        "A player may lay off cards before having opened.",
        lambda r: not r.layoff.needs_opening,
        "layoff.needs_opening off",
        (_T.LAYOFF_GATE,),
    ),
    _rule(
        "layoff.keep-valid",
        "layoff",
        "A lay-off keeps the meld legal",
        "A card may be added to any meld on the table, the player's own or another's, as long "
        "as it stays a legal meld of the same kind: a run takes the next card at either end, "
        "a set a missing suit. The cards already on the table keep their places.",
        _always,
        "every ruleset",
        (_T.LAYOFF,),
        d000="Melds; Exchanging wild cards",
        d002="The first meld",
        d003="Turn Flow",
        d004="4. The opening",
    ),
    _rule(
        "layoff.two-and-wild",
        "layoff",
        "A set of two cards and a wild",
        "A set of two natural cards and a wild takes just one of its two missing cards only "
        "when the player goes out in this turn, when someone has already announced one card, "
        "or when the player will hold one card after discarding.",
        lambda r: r.layoff.two_plus_wild_rule,
        "layoff.two_plus_wild_rule",
        (_T.TWO_PLUS_WILD,),
        d000="Exchanging wild cards | L10",
    ),
    # --- exchanging wild cards ------------------------------------------------------------
    _rule(
        "exchange.none",
        "exchange",
        "No exchanges",
        "A wild card on the table stays where it is: it cannot be exchanged.",
        lambda r: not r.exchange.allowed,
        "exchange.allowed off",
        (_T.EXCHANGE_GATE,),
        d003=" | G7",
    ),
    _rule(
        "exchange.after-opening",
        "exchange",
        "Exchanging after the opening",
        "Only a player who has opened may exchange a wild card, on their own turn, from the "
        "turn of the opening on.",
        lambda r: r.exchange.allowed and r.exchange.needs_opening,
        "exchange.allowed and exchange.needs_opening",
        (_T.EXCHANGE_GATE,),
        d000="The first meld: 51 points; Exchanging wild cards",
        d002="Exchanging a joker | R4",
        d004="4. The opening; The Joker",
    ),
    _rule(
        "exchange.wild",
        "exchange",
        "Taking a wild card from the table",
        "A wild card in a meld on the table can be taken by putting the natural card it stands "
        "for in its place; in a run that is the card for the wild's position. Melds are never "
        "rearranged in any other way.",
        lambda r: r.exchange.allowed,
        "exchange.allowed",
        (_T.EXCHANGE,),
        d000="Exchanging wild cards",
        d002="Exchanging a joker",
        d004="The Joker",
    ),
    _rule(
        "exchange.set-both-missing",
        "exchange",
        "A set's wild for all its missing cards",
        "To take the wild from a set of two natural cards and a wild, put in both missing "
        "cards; from a set of three natural cards and a wild, the missing fourth.",
        lambda r: r.exchange.allowed and r.exchange.set_supply is SetSupply.BOTH_MISSING,
        "exchange.set_supply = BOTH_MISSING",
        (_T.EXCHANGE_SET,),
        d000="Exchanging wild cards",
    ),
    _rule(
        "exchange.set-one-missing",
        "exchange",
        "A set's wild for one missing card",
        "To take the wild from a set, put in any one missing card of its rank.",
        lambda r: r.exchange.allowed and r.exchange.set_supply is SetSupply.EITHER_MISSING,
        "exchange.set_supply = EITHER_MISSING",
        (_T.EXCHANGE_SET,),
        d002="Exchanging a joker",
        d004="The Joker | P5",
    ),
    _rule(
        "exchange.set-of-four",
        "exchange",
        "Only a full set gives up its wild",
        "A set gives up its wild card only once it holds three natural cards and the wild, "
        "for the missing fourth.",
        lambda r: r.exchange.allowed and r.exchange.set_needs_four,
        "exchange.set_needs_four",
        (_T.EXCHANGE_SET_FOUR,),
    ),
    _rule(
        "exchange.freed-keep",
        "exchange",
        "The freed wild may be kept",
        "The wild card won in an exchange may be used at once or kept in the hand.",
        lambda r: r.exchange.allowed and r.exchange.freed_wild is FreedWild.KEEP,
        "exchange.freed_wild = KEEP",
        (_T.FREED_WILD,),
        d000="Exchanging wild cards",
        d004="The Joker | P5",
    ),
    _rule(
        "exchange.freed-new-meld",
        "exchange",
        "The freed wild goes into a new meld",
        "The wild card won in an exchange must go straight into a new meld in the same turn; "
        "it may not stay in the hand.",
        lambda r: r.exchange.allowed and r.exchange.freed_wild is FreedWild.NEW_MELD,
        "exchange.freed_wild = NEW_MELD",
        (_T.FREED_WILD,),
        d002="Exchanging a joker | R4",
    ),
    _rule(
        "exchange.freed-use-now",
        "exchange",
        "The freed wild is used at once",
        "The wild card won in an exchange must be used at once, in a new meld or laid off on "
        "a meld on the table.",
        lambda r: r.exchange.allowed and r.exchange.freed_wild is FreedWild.USE_NOW,
        "exchange.freed_wild = USE_NOW",
        (_T.FREED_WILD,),
    ),
    # --- going out and the Hand -------------------------------------------------------------
    _rule(
        "out.final-discard",
        "going_out",
        "Going out with a discard",
        "Every turn ends with a discard, so a player goes out by melding all but one card and "
        "discarding the last; a move that would leave nothing to discard is refused.",
        lambda r: r.going_out.final_discard,
        "going_out.final_discard",
        (_T.KEEP_DISCARD,),
        d000="Playing a turn; End of a round",
    ),
    _rule(
        "out.meld-last",
        "going_out",
        "Going out by melding the last card",
        "A player goes out when the last card leaves the hand, as the final discard or by "
        "melding it; then no discard follows.",
        lambda r: not r.going_out.final_discard,
        "going_out.final_discard off",
        d002="Going out",
        d003="Scoring | G4",
        d004="2. Your turn: three steps; Round scoring",
    ),
    _rule(
        "out.not-first-turn",
        "going_out",
        "Not out on the first turn",
        "Nobody may go out on their own first turn of the round.",
        lambda r: r.going_out.first_turn_ban,
        "going_out.first_turn_ban",
        (_T.FIRST_TURN_BAN,),
        d000="Playing a turn | L9",
    ),
    _rule(
        "out.announce",
        "going_out",
        "Announcing the last cards",
        lambda r: (
            f"A player left with {r.going_out.announce_at} cards or fewer after discarding "
            "announces how many; one who forgets may not go out on their next turn."
        ),
        lambda r: r.going_out.announce_at > 0,
        "going_out.announce_at",
        (_T.ANNOUNCE,),
        d000="Playing a turn | L10",
    ),
    _rule(
        "out.no-announcements",
        "going_out",
        "No announcements",
        "Nobody announces how many cards are left; there is nothing to announce.",
        lambda r: r.going_out.announce_at == 0,
        "going_out.announce_at = 0",
        (_T.ANNOUNCE,),
        d002="",
        d003="",
        d004=" | P11",
    ),
    _rule(
        "out.wild-discard-only",
        "going_out",
        "A wild card is discarded only to go out",
        "A wild card may be discarded only as the last card, to go out, or from a hand that "
        "holds nothing but wild cards and cannot go out this turn; a lay-down, lay-off or "
        "exchange that would leave only wild cards must leave a way out.",
        lambda r: r.going_out.wild_discard_only_to_go_out,
        "going_out.wild_discard_only_to_go_out",
        (_T.WILD_DISCARD, _T.DISCARD_RESTRICTION),
    ),
    _rule(
        "hand.finish",
        "hand",
        "The Hand",
        _hand,
        _always,
        "hand",
        (_T.HAND,),
        d000="End of a round",
        d002="Scoring | R6",
        d003="Hand Bonus | G4",
        d004="The “Hand” finish | P6",
    ),
    # --- scoring -------------------------------------------------------------------------
    _rule(
        "scoring.cards",
        "penalties",
        "What the cards left in hand cost",
        _penalties,
        _always,
        "penalties",
        (_T.SCORE_CARDS,),
        d000="Scoring | L1",
        d002="Scoring; Card values | R1",
        d003="Scoring | G1",
        d004="Round scoring; 4. The opening; The Joker | P12",
    ),
    _rule(
        "scoring.winner",
        "scoring",
        "The winner's score",
        lambda r: f"The player who goes out scores {r.scoring.winner}.",
        _always,
        "scoring.winner",
        (_T.SCORE_WINNER,),
        d000="Scoring | L2",
        d002="Scoring",
        d003="Scoring | G1",
        d004="Round scoring",
    ),
    _rule(
        "scoring.never-opened-flat",
        "scoring",
        "Never opened: a flat score",
        lambda r: (
            f"A player who never opened in the round scores a flat {r.scoring.never_opened}, "
            "whatever cards are left."
        ),
        lambda r: r.scoring.never_opened is not None,
        "scoring.never_opened set",
        (_T.SCORE_NEVER_OPENED,),
        d000="Scoring; Tips for beginners | L2",
        d004="Round scoring",
    ),
    _rule(
        "scoring.never-opened-cards",
        "scoring",
        "Never opened: the cards count",
        "A player who never opened pays for the cards left in hand, like everyone else.",
        lambda r: r.scoring.never_opened is None,
        "scoring.never_opened = None",
        (_T.SCORE_NEVER_OPENED,),
        d002="Scoring",
        d003="Scoring | G1",
    ),
    _rule(
        "scoring.hand",
        "scoring",
        "A Hand doubles",
        _hand_score,
        _always,
        "scoring.hand_factor",
        (_T.SCORE_HAND,),
        d000="End of a round | L2",
        d002="Scoring",
        d003="Hand Bonus | G1",
        d004="The “Hand” finish",
    ),
    _rule(
        "scoring.egyptian",
        "scoring",
        "Egyptian bonuses",
        _egyptian,
        lambda r: r.scoring.egyptian is not None,
        "scoring.egyptian set",
        (_T.SCORE_EGYPTIAN,),
    ),
    _rule(
        "scoring.teams-sum",
        "scoring",
        "A team scores the sum of its players",
        "Each partner is scored as if playing alone, and a team's round score is the sum of "
        "its two players' scores.",
        lambda r: r.players.partnerships and r.scoring.partnership is PartnershipScoring.SUM,
        "partnerships, scoring.partnership = SUM",
        (_T.SCORE_TEAMS,),
        d004="Round scoring | P7",
    ),
    _rule(
        "scoring.teams-winner",
        "scoring",
        "The winner's team scores the winner",
        "When a player goes out, that player's team scores the winner's score alone (the "
        "partner's cards do not count); the other team's score is the sum of its two players'.",
        lambda r: (
            r.players.partnerships and r.scoring.partnership is PartnershipScoring.WINNER_TEAM
        ),
        "partnerships, scoring.partnership = WINNER_TEAM",
        (_T.SCORE_TEAMS,),
    ),
    _rule(
        "scoring.team-opened",
        "scoring",
        "A team opens together",
        "Once one partner has opened, both count as opened at the end of the round: a "
        "partner who never laid down pays for the cards held, not the never-opened score.",
        lambda r: (
            r.players.partnerships
            and r.opening.shared_by_team
            and not r.scoring.personal_never_opened
        ),
        "partnerships with an opening shared by the team",
        (_T.SCORE_TEAM_OPENED,),
        d004="The four variants in brief | P9",
    ),
    _rule(
        "stock.exhausted",
        "stock",
        "When the stock runs out",
        lambda r: r.stock.describe(),
        _always,
        "stock",
        (_T.STOCK,),
        d000="End of a round; Winning the game | L17",
        d002="Going out | R7",
        d003=" | G9",
        d004="Quick questions | P10",
    ),
    # --- the match --------------------------------------------------------------------------
    _rule(
        "match.length",
        "match",
        "The length of the match",
        _match_length,
        _always,
        "match",
        d000="Winning the game",
        d002="Winning the game | R8",
        d003="Winning the Game | G11",
        d004="What you need; Round scoring | P11",
    ),
    _rule(
        "match.dealer",
        "match",
        "Who deals",
        _dealer,
        _always,
        "match",
        d000="Setup | L7",
        d002="Setup | R11",
        d003=" | G3",
        d004=" | P11",
    ),
)
"""Every rule the library knows, in the order of the rulebook's pages."""

PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Players, cards and the deal", ("players", "deck", "deal", "redeal")),
    ("Wild cards", ("wilds", "wild_roles", "wild_limits", "demotion")),
    ("Melds", ("melds", "runs", "sets")),
    ("The opening", ("opening", "opening_values", "opening_exemption")),
    ("A turn", ("turn", "discard_take")),
    ("Laying off", ("layoff",)),
    ("Exchanging wild cards", ("exchange",)),
    ("Going out and the Hand", ("going_out", "hand")),
    ("Scoring", ("penalties", "scoring", "stock")),
    ("The match", ("match",)),
)
"""The parts of a page of the rulebook, each with the dimensions of the rules it holds."""

_BY_TOPIC: dict[Topic, tuple[Rule, ...]] = {
    topic: tuple(r for r in RULES if topic in r.topics) for topic in Topic
}


# --- pages ------------------------------------------------------------------------------


@attrs.frozen(eq=False)
class PageRule:
    """One rule as a page of the rulebook states it."""

    id: str
    rule: Rule
    words: str
    """The rule in words: for the preset, or under the first variant that brings it in."""
    sources: tuple[Source, ...]
    in_preset: bool
    """In force in the preset itself; otherwise only under one of ``variants``."""
    variants: tuple[Variant, ...]
    """The variants and switches of the preset that change the rule, or bring it in."""


PAGES: tuple[str, ...] = (*PRESETS, CUSTOM)
"""Every page of the rulebook: one per preset, then ``custom``."""


def page_of(ruleset: Ruleset) -> str:
    """The page of the rulebook that a ruleset's rules are on: its preset's, or ``custom``
    for one that is no preset with its variants (made with :meth:`Ruleset.with_`, say,
    whose numbers the preset's page would misstate)."""
    return ruleset.name if _as_built(ruleset) else CUSTOM


@functools.lru_cache(maxsize=256)
def _as_built(ruleset: Ruleset) -> bool:
    """Whether ``ruleset`` is its preset with its variants, as :func:`build` makes it."""
    if ruleset.name not in PRESETS:
        return False
    try:
        return build(ruleset.name, ruleset.variants) == ruleset
    except UnknownRulesError:
        return False


def _sources(rule: Rule, document: str) -> tuple[Source, ...]:
    wanted = {document, "library"}
    out = []
    for doc, text in rule.sources:
        if doc not in wanted:
            continue
        section, _, items = text.partition("|")
        sections = tuple(s.strip() for s in section.split(";") if s.strip())
        out.append(Source(doc, sections, tuple(items.split())))
    return tuple(out)


def _variant_source(variant: Variant) -> Source:
    """Where a variant's rule comes from, from the variant's own source (``000 §Variants``)."""
    if variant.source.startswith("RULES-MATRIX") or variant.source in AMBIGUITIES:
        return Source("matrix", items=(variant.source.split()[-1],), variant=variant.name)
    document, _, section = variant.source.partition(" §")
    return Source(document, (section,), variant=variant.name)


@functools.cache
def page_rules(page: str) -> tuple[PageRule, ...]:
    """Every rule on a page: a preset's rules and its variants' (``custom``: every rule)."""
    if page == CUSTOM:
        # the words as the first preset (or variant) that has the rule states them
        examples = [
            ruleset
            for name, preset in PRESETS.items()
            for ruleset in (preset, *(v.apply(preset) for v in variants_for(name)))
        ]
        return tuple(
            PageRule(
                f"{CUSTOM}.{r.key}",
                r,
                r.words(next((x for x in examples if r.in_force(x)), Ruleset())),
                (),
                in_preset=False,
                variants=(),
            )
            for r in RULES
        )
    base = PRESETS[page]
    changed = [(v, v.apply(base)) for v in variants_for(page)]
    document = PAGE_DOCUMENTS[page]
    idle = [v for v, alone in changed if not any(_changes(r, base, alone) for r in RULES)]
    out = []
    for rule in RULES:
        here = rule.in_force(base)
        words = rule.words(base) if here else ""
        beside = [v for v, ruleset in changed if _changes(rule, base, ruleset)]
        # a switch that only matters together with another variant (the Ace of a run round
        # the corner, without the corner) stands beside the rules it changes in that pair
        beside += [
            v for v in idle if any(_changes(rule, r, v.apply(r)) for u, r in changed if u is not v)
        ]
        bringing = [v for v, r in changed if not here and rule.in_force(r)]
        if not here and not bringing:
            continue
        if here:
            sources = _sources(rule, document)
        else:
            sources = tuple(_variant_source(v) for v in bringing)
            words = rule.words(bringing[0].apply(base))
        out.append(PageRule(f"{page}.{rule.key}", rule, words, sources, here, tuple(beside)))
    return tuple(out)


def _changes(rule: Rule, before: Ruleset, after: Ruleset) -> bool:
    """Whether going from ``before`` to ``after`` brings ``rule`` in, takes it out or rewords it."""
    here = rule.in_force(before)
    if here != rule.in_force(after):
        return True
    return here and rule.words(before) != rule.words(after)


@functools.cache
def page_keys(page: str) -> frozenset[str]:
    """The keys of the rules on a page (those of :func:`page_rules`): a rule in force in the
    preset or in the preset with one of its variants. A citation needs only these, which
    cost a small part of the page's words and cross-references."""
    if page == CUSTOM:
        return frozenset(r.key for r in RULES)
    base = PRESETS[page]
    rulesets = [base, *(v.apply(base) for v in variants_for(page))]
    return frozenset(r.key for r in RULES if any(r.in_force(x) for x in rulesets))


@functools.cache
def _ids() -> dict[str, PageRule]:
    return {p.id: p for page in PAGES for p in page_rules(page)}


def rule_ids() -> frozenset[str]:
    """Every rule id in the rulebook, on every page."""
    return frozenset(_ids())


def lookup(rule_id: str) -> PageRule | None:
    """The rule with this id, as its page states it, or ``None``."""
    return _ids().get(rule_id)


def rules_in_force(ruleset: Ruleset) -> tuple[Citation, ...]:
    """Every rule of the rulebook in force in ``ruleset``, with its id and words."""
    return tuple(_citation(ruleset, r) for r in RULES if r.in_force(ruleset))


# --- citing -----------------------------------------------------------------------------


def _citation(ruleset: Ruleset, rule: Rule) -> Citation:
    page = page_of(ruleset)
    where = page if rule.key in page_keys(page) else CUSTOM
    return Citation(f"{where}.{rule.key}", rule.words(ruleset))


@functools.lru_cache(maxsize=4096)
def cite(ruleset: Ruleset, *topics: Topic) -> tuple[Citation, ...]:
    """The rules of ``ruleset`` that answer ``topics``, in order and each once.

    A topic is answered by the rules in force; a rule that is on the ruleset's
    page has that page's id, any other rule (a ruleset changed by hand) its id
    on the page ``custom``.
    """
    found: list[Citation] = []
    for topic in topics:
        candidates = _BY_TOPIC[topic]
        rules = [r for r in candidates if r.in_force(ruleset)] or list(candidates)
        for rule in rules:
            citation = _citation(ruleset, rule)
            if citation not in found:
                found.append(citation)
    return tuple(found)


def violation(ruleset: Ruleset, code: Code, message: str, *topics: Topic) -> Violation:
    """A violation of the rules that answer ``topics`` in ``ruleset``, cited and in words."""
    cites = cite(ruleset, *topics)
    return Violation(code, message, " ".join(c.text for c in cites), topics, cites)


def cited(found: Violation, ruleset: Ruleset, *more: Topic) -> Violation:
    """``found`` (named by topic, as a policy reports it) cited for ``ruleset``.

    ``more`` adds topics, for a rule that refuses a move because of another's
    violation (an opening refused for one illegal meld).
    """
    topics = tuple(dict.fromkeys((*found.topics, *more)))
    cites = cite(ruleset, *topics)
    return attrs.evolve(
        found, rule=" ".join(c.text for c in cites) or found.rule, topics=topics, cites=cites
    )
