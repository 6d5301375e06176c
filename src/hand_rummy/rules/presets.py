"""The seven presets and every named variant and ambiguity switch that composes onto them.

A preset is a :class:`~hand_rummy.rules.ruleset.Ruleset`; a variant is a named
function from a ruleset to a ruleset. :func:`build` applies variants by name:

>>> build("levant", ["opening_71"]).opening.required(0, 0, ())
71
>>> build("romme", ["opening_71"])
Traceback (most recent call last):
...
hand_rummy.errors.UnknownRulesError: unknown variant 'opening_71' for romme; ...
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

import attrs

from hand_rummy.errors import InvalidStateError, UnknownRulesError, expect
from hand_rummy.rules.match import DealerRotation, FirstDealer, MatchEnd, MatchPolicy, TieRule
from hand_rummy.rules.opening import (
    BeatLastOpening,
    FixedOpening,
    OpeningExemption,
    OpeningValues,
    TeamOpening,
)
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.scoring import (
    EgyptianBonuses,
    HandFinish,
    PartnershipScoring,
    PenaltyValues,
    RoundScoring,
)
from hand_rummy.rules.shapes import RunPolicy
from hand_rummy.rules.stock import StockEnd, StockExhaustion, StockTrigger
from hand_rummy.rules.table_setup import (
    DealPolicy,
    DeckPolicy,
    Direction,
    FirstTurn,
    Players,
    RedealPolicy,
)
from hand_rummy.rules.turn import (
    DiscardTake,
    ExchangePolicy,
    FreedWild,
    GoingOut,
    LayoffPolicy,
    SetSupply,
)
from hand_rummy.rules.wilds import (
    AceIndicator,
    AdjacentWilds,
    DiscardDemotion,
    ForbiddenMix,
    MaxWilds,
    MaxWildsByLength,
    MinNaturals,
    NotAllWild,
    NoWildAtRunEnd,
    RoleInference,
    WildLimits,
    WildSource,
)

__all__ = [
    "PRESETS",
    "VARIANTS",
    "Refines",
    "Variant",
    "build",
    "classic",
    "gulf",
    "length_variant",
    "levant",
    "partnership",
    "romme",
    "saudi",
    "saudi_partnership",
    "standalone",
    "variants_for",
]

# --- presets ------------------------------------------------------------------

levant = Ruleset(
    name="levant",
    players=Players(2, 4),
    deck=DeckPolicy(packs=2, jokers=2),
    deal=DealPolicy(hand_size=14, packet=2, direction=Direction.ANTICLOCKWISE),
    redeal=RedealPolicy(enabled=True),
    wilds=WildSource(indicator=True),
    wild_limits=WildLimits((NotAllWild(), MaxWilds(1))),
    demotion=DiscardDemotion(enabled=True),
    opening=FixedOpening(51),
    opening_values=OpeningValues(ace=11, ace_low=11),
    opening_exemption=OpeningExemption.GOING_OUT,
    discard_take=DiscardTake(must_meld=True, hand_cards=2),
    layoff=LayoffPolicy(two_plus_wild_rule=True),
    exchange=ExchangePolicy(set_supply=SetSupply.BOTH_MISSING, freed_wild=FreedWild.KEEP),
    going_out=GoingOut(final_discard=True, first_turn_ban=True, announce_at=3),
    hand=HandFinish(no_layoffs=True),
    penalties=PenaltyValues(ace=11, wild=15),
    scoring=RoundScoring(winner=-30, never_opened=100, hand_doubles_winner=True),
    stock=StockExhaustion(StockTrigger.AT_PLAYER_COUNT, 0, StockEnd.UNSCORED),
    match=MatchPolicy(MatchEnd.SCORED_ROUNDS, 7, ties=TieRule.PLAY_ON, lengths=(7,)),
)
"""Hand as played in Jordan, Lebanon and Palestine (rule documents 000 and 001)."""

romme = Ruleset(
    name="romme",
    players=Players(2, 6),
    deck=DeckPolicy(packs=2, jokers=4),
    deal=DealPolicy(
        hand_size=13,
        dealer_starts=True,
        packet=1,
        direction=Direction.CLOCKWISE,
        first_turn=FirstTurn.MAY_MELD,
    ),
    wilds=WildSource(indicator=False),
    wild_limits=WildLimits((NotAllWild(), MinNaturals(2), AdjacentWilds(4))),
    opening=FixedOpening(40),
    opening_values=OpeningValues(ace=11, ace_low=1, ace_wrapped=11),
    opening_exemption=OpeningExemption.HAND,
    exchange=ExchangePolicy(set_supply=SetSupply.EITHER_MISSING, freed_wild=FreedWild.NEW_MELD),
    going_out=GoingOut(final_discard=False),
    hand=HandFinish(no_layoffs=False, first_to_meld=True),
    penalties=PenaltyValues(ace=11, wild=20),
    scoring=RoundScoring(winner=0, never_opened=None, hand_doubles_winner=False),
    stock=StockExhaustion(StockTrigger.EMPTY_ON_DRAW, 0, StockEnd.SCORE_HANDS),
    match=MatchPolicy(
        MatchEnd.PENALTY_LIMIT,
        500,
        inclusive=False,
        ties=TieRule.SHARED,
        first_dealer=FirstDealer.HIGHEST_CARD,
        rotation=DealerRotation.NEXT_PLAYER,
    ),
)
"""German Rommé (rule document 002)."""

gulf = Ruleset(
    name="gulf",
    players=Players(4, 4),
    deck=DeckPolicy(packs=2, jokers=4),
    deal=DealPolicy(
        hand_size=13,
        starter_extra_card=False,
        upcard=True,
        packet=1,
        direction=Direction.CLOCKWISE,
        first_turn=FirstTurn.NORMAL,
    ),
    wilds=WildSource(indicator=False),
    wild_limits=WildLimits((NotAllWild(), MaxWildsByLength(3, 1, 2))),
    opening=FixedOpening(51),
    opening_values=OpeningValues(ace=15, ace_low=15, ace_wrapped=15, wild=25),
    opening_exemption=OpeningExemption.NONE,
    layoff=LayoffPolicy(melds_first=True),
    exchange=ExchangePolicy(allowed=False),
    going_out=GoingOut(final_discard=False),
    hand=HandFinish(no_layoffs=False, all_melded=True),
    penalties=PenaltyValues(ace=15, wild=25),
    scoring=RoundScoring(winner=0, never_opened=None, hand_doubles_winner=False),
    stock=StockExhaustion(StockTrigger.EMPTY_ON_DRAW, None, StockEnd.NO_CONTEST),
    match=MatchPolicy(
        MatchEnd.PENALTY_LIMIT,
        200,
        inclusive=True,
        ties=TieRule.SHARED,
        first_dealer=FirstDealer.HIGHEST_CARD,
        rotation=DealerRotation.NEXT_PLAYER,
    ),
)
"""Hand as played in Saudi Arabia and the Gulf (rule document 003)."""

classic = Ruleset(
    name="classic",
    players=Players(2, 4),
    deck=DeckPolicy(packs=2, jokers=2),
    deal=DealPolicy(hand_size=14, packet=1, direction=Direction.ANTICLOCKWISE),
    wilds=WildSource(indicator=False),
    wild_limits=WildLimits((NotAllWild(), MaxWilds(1))),
    opening=FixedOpening(51),
    opening_values=OpeningValues(ace=11, ace_low=11),
    opening_exemption=OpeningExemption.NONE,
    discard_take=DiscardTake(must_open=True, no_rediscard=True),
    exchange=ExchangePolicy(set_supply=SetSupply.EITHER_MISSING, freed_wild=FreedWild.KEEP),
    going_out=GoingOut(final_discard=False),
    hand=HandFinish(no_layoffs=True, all_melded=True),
    penalties=PenaltyValues(ace=11, wild=15),
    scoring=RoundScoring(winner=-30, never_opened=100, hand_doubles_winner=True),
    stock=StockExhaustion(StockTrigger.EMPTY_ON_DRAW, 3, StockEnd.NO_CONTEST),
    match=MatchPolicy(
        MatchEnd.ROUNDS,
        7,
        ties=TieRule.SHARED,
        rotation=DealerRotation.NEXT_PLAYER,
        lengths=(3, 5, 7, 9),
    ),
)
"""The app's Hand Classic (rule document 004)."""

partnership = classic.with_(name="partnership", players=Players(4, 4, partnerships=True))
"""The app's Hand Partnership: two teams, a personal 51 opening each (004)."""

saudi = classic.with_(
    name="saudi",
    opening=BeatLastOpening(51),
    opening_values=OpeningValues(ace=11, ace_low=1),
)
"""The app's Saudi Hand: escalating opening, Ace 1 in a run starting A-2-3 (004)."""

saudi_partnership = saudi.with_(
    name="saudi_partnership",
    players=Players(4, 4, partnerships=True),
    opening=TeamOpening(51),
)
"""The app's Saudi Hand Partnership: the opening belongs to the team (004)."""

PRESETS: Mapping[str, Ruleset] = MappingProxyType(
    {r.name: r for r in (levant, romme, gulf, classic, partnership, saudi, saudi_partnership)}
)
"""Every preset by name. Read-only: :func:`build` and the referee read it, so a change
made by mistake would change the rules for the whole process."""

# --- variants and switches ----------------------------------------------------

_APP = frozenset({"classic", "partnership", "saudi", "saudi_partnership"})
_ALL_PRESETS = ("levant", "romme", "gulf", *sorted(_APP))


@attrs.frozen
class Refines:
    """The rule that a switch reads differently: whether a ruleset has it, the rule in
    words, and the variant that brings it where the preset has not."""

    has: Callable[[Ruleset], bool] = attrs.field(repr=False)
    rule: str
    variant: str | None
    """The variant that brings the rule, or ``None`` where the preset has it and only other
    variants take it away (then the switch is left out)."""


@attrs.frozen
class Variant:
    """A named change to a preset: an optional variant of a rule document, or a switch
    that picks the other reading of an ambiguity listed in RULES-MATRIX §3."""

    name: str
    summary: str
    source: str
    presets: frozenset[str]
    change: Callable[[Ruleset], Ruleset] = attrs.field(repr=False)
    switch: bool = False
    """True for an ambiguity switch, False for a variant the documents list."""
    sets: frozenset[str] = frozenset()
    """What the variant decides outright (the opening bar, the match length...): two
    variants that decide one thing are alternatives, and :func:`build` takes one only."""
    refines: Refines | None = attrs.field(default=None, repr=False)
    """For a switch that only changes how another rule reads, that rule: a switch never
    silently does nothing."""

    def apply(self, ruleset: Ruleset) -> Ruleset:
        return attrs.evolve(self.change(ruleset), variants=(*ruleset.variants, self.name))


def _replace(**changes: Callable[[Ruleset], object]) -> Callable[[Ruleset], Ruleset]:
    """A change that sets each named policy to ``f(ruleset)``."""
    return lambda r: r.with_(**{field: make(r) for field, make in changes.items()})


def _threshold(points: int) -> Callable[[Ruleset], Ruleset]:
    """The first meld needs ``points``; under beat-the-last, the first opening of a round."""

    def change(r: Ruleset) -> Ruleset:
        if isinstance(r.opening, (BeatLastOpening, TeamOpening)):
            return r.with_(opening=attrs.evolve(r.opening, base=points))
        return r.with_(opening=FixedOpening(points))

    return change


def _beat_last(
    *, base: int | None = None, strict: bool | None = None
) -> Callable[[Ruleset], Ruleset]:
    """Beat-the-last openings from the bar the ruleset has so far, with a new ``base`` or
    ``strict`` where given (a team opening stays one)."""

    def change(r: Ruleset) -> Ruleset:
        opening = r.opening
        if not isinstance(opening, (BeatLastOpening, TeamOpening)):
            opening = BeatLastOpening(opening.points if isinstance(opening, FixedOpening) else 51)
        if base is not None:
            opening = attrs.evolve(opening, base=base)
        if strict is not None:
            opening = attrs.evolve(opening, strict=strict)
        return r.with_(opening=opening)

    return change


def _next_seat_only(r: Ruleset) -> Ruleset:
    """Only the seat after the last opener must beat it (P8); a ruleset whose bar does not
    follow the openings is left as it is, for the variant's refinement check to refuse."""
    if isinstance(r.opening, BeatLastOpening):
        return r.with_(opening=attrs.evolve(r.opening, next_seat_only=True))
    return r


def _rounds(n: int) -> Callable[[Ruleset], Ruleset]:
    return lambda r: r.with_(match=attrs.evolve(r.match, end=MatchEnd.ROUNDS, length=n))


def _variant(
    name: str,
    summary: str,
    source: str,
    presets: Iterable[str],
    change: Callable[[Ruleset], Ruleset],
    *,
    switch: bool = False,
    sets: Iterable[str] = (),
    refines: Refines | None = None,
) -> Variant:
    return Variant(
        name, summary, source, frozenset(presets), change, switch, frozenset(sets), refines
    )


_BEAT_LAST = Refines(
    lambda r: r.opening.follows_openings, "a beat-the-last opening", "beat_last_opening"
)
_BEAT_LAST_ALONE = Refines(
    lambda r: isinstance(r.opening, BeatLastOpening),
    "a beat-the-last opening of each player's own",
    "beat_last_opening",
)
_NO_JOKERS = Refines(lambda r: r.deck.jokers == 0, "a deck without jokers", "no_jokers")


_L, _R, _G = ("levant",), ("romme",), ("gulf",)

_ALL_VARIANTS = (
    # 000 §Variants
    _variant(
        "rotating_deal",
        "The deal passes to the next player after each scored round.",
        "000 §Variants",
        _L,
        _replace(match=lambda r: attrs.evolve(r.match, rotation=DealerRotation.NEXT_PLAYER)),
    ),
    _variant(
        "partnership",
        "Four players in two teams, partners opposite; the winner's team scores the winner's "
        "score, the other team adds both players' penalties.",
        "000 §Variants",
        _L,
        _replace(
            players=lambda r: Players(4, 4, partnerships=True),
            scoring=lambda r: attrs.evolve(r.scoring, partnership=PartnershipScoring.WINNER_TEAM),
        ),
    ),
    _variant(
        "jokers_only",
        "No indicator: the two jokers are always the only wild cards.",
        "000 §Variants",
        _L,
        _replace(wilds=lambda r: WildSource(indicator=False)),
        sets=("jokers", "Ace indicator"),
    ),
    _variant(
        "no_jokers",
        "104 cards; the two Aces of the indicator's suit are wild.",
        "000 §Variants",
        _L,
        _replace(
            deck=lambda r: attrs.evolve(r.deck, jokers=0),
            wilds=lambda r: attrs.evolve(r.wilds, ace_indicator=AceIndicator.SUIT_ACES_WILD),
        ),
        sets=("jokers",),
    ),
    _variant(
        "ace_in_hand_10",
        "A natural Ace left in hand costs 10.",
        "000 §Variants",
        _L,
        _replace(penalties=lambda r: attrs.evolve(r.penalties, ace=10)),
    ),
    _variant(
        "low_ace_1",
        "An Ace in a run starting A-2-3 counts 1 toward the opening.",
        "000 §Variants",
        _L,
        _replace(opening_values=lambda r: attrs.evolve(r.opening_values, ace_low=1)),
    ),
    _variant(
        "opening_61",
        "The first meld needs 61 points.",
        "000 §Variants",
        _L,
        _threshold(61),
        sets=("opening bar",),
    ),
    _variant(
        "opening_71",
        "The first meld needs 71 points.",
        "000 §Variants",
        _L,
        _threshold(71),
        sets=("opening bar",),
    ),
    _variant(
        "opening_91",
        "The first meld needs 91 points.",
        "000 §Variants",
        _L,
        _threshold(91),
        sets=("opening bar",),
    ),
    _variant(
        "beat_last_opening",
        "Each first meld must beat the last one made (the first still needs 51).",
        "000 §Variants",
        _L,
        _beat_last(),
    ),
    _variant(
        "discard_to_table",
        "A taken discard may also be laid off on a meld already on the table.",
        "000 §Variants",
        _L,
        _replace(discard_take=lambda r: attrs.evolve(r.discard_take, may_lay_off=True)),
    ),
    _variant(
        "worst_team_deals",
        "In partnership play the worst team deals next: the first of its players going "
        "round from the last dealer (000 §Setup names 'the player with the highest (worst) "
        "score'; whose score, under team scoring, it leaves open). No change under "
        "rotating_deal, where the deal passes on.",
        "Q2",
        _L,
        _replace(match=lambda r: attrs.evolve(r.match, worst_team_deals=True)),
        switch=True,
        refines=Refines(
            lambda r: r.players.partnerships, "partners scored as a team", "partnership"
        ),
    ),
    _variant(
        "discard_pays_for_wild",
        "Under 'discard_to_table', paying for a wild card on the table with the taken card "
        "also adds it to that meld (000 §Exchanging wild cards puts the card in the wild's "
        "place).",
        "Q1",
        _L,
        _replace(discard_take=lambda r: attrs.evolve(r.discard_take, may_exchange=True)),
        switch=True,
        refines=Refines(
            lambda r: r.discard_take.may_lay_off,
            "a taken discard that may be laid off on the table",
            "discard_to_table",
        ),
    ),
    _variant(
        "egyptian_bonuses",
        "A Hand ending on a wild discard, or in one colour, doubles again; one suit counts "
        "twice the colour bonus.",
        "000 §Variants",
        _L,
        _replace(
            scoring=lambda r: attrs.evolve(
                r.scoring, egyptian=r.scoring.egyptian or EgyptianBonuses()
            )
        ),
    ),
    # 002 §Variants
    _variant(
        "opening_30",
        "The first meld needs 30 points.",
        "002 §Variants",
        _R,
        _threshold(30),
        sets=("opening bar",),
    ),
    _variant(
        "opening_35",
        "The first meld needs 35 points.",
        "002 §Variants",
        _R,
        _threshold(35),
        sets=("opening bar",),
    ),
    _variant(
        "discard_only_to_meld",
        "The top discard may be taken only to meld it at once (a new meld, or a lay-off once "
        "opened); it counts toward the opening.",
        "002 §Variants",
        _R,
        _replace(
            discard_take=lambda r: attrs.evolve(
                r.discard_take, must_meld=True, hand_cards=2, may_lay_off=True
            )
        ),
    ),
    _variant(
        "round_the_corner",
        "K-A-2 is a run.",
        "002 §Variants",
        _R,
        _replace(runs=lambda r: RunPolicy(wrap=True)),
    ),
    _variant(
        "tournament_jokers",
        "A joker leaves a set only once the set has four cards; a joker may be discarded only "
        "to go out.",
        "002 §Variants",
        _R,
        _replace(
            exchange=lambda r: attrs.evolve(r.exchange, set_needs_four=True),
            going_out=lambda r: attrs.evolve(r.going_out, wild_discard_only_to_go_out=True),
        ),
    ),
    _variant(
        "joker_30",
        "A joker left in hand costs 30.",
        "002 §Variants",
        _R,
        _replace(penalties=lambda r: attrs.evolve(r.penalties, wild=30)),
    ),
    _variant(
        "fresh_stock",
        "When the stock runs out the discard pile, except its top card, becomes a new stock.",
        "002 §Variants",
        _R,
        _replace(stock=lambda r: attrs.evolve(r.stock, reshuffles=None)),
    ),
    # 002 names two ways to agree how long to play: a penalty total (the preset's 500), or
    # until everyone has dealt the same number of times
    _variant(
        "everyone_deals",
        "The match ends when everyone has dealt equally often: once, or as many times as the "
        "match length says.",
        "002 §Winning the game",
        _R,
        _replace(match=lambda r: attrs.evolve(r.match, end=MatchEnd.DEALS_PER_PLAYER, length=1)),
        sets=("match end",),
    ),
    # 004: the host's choice of match length
    *(
        _variant(
            f"rounds_{n}",
            f"The match lasts {n} rounds.",
            "004 §What you need",
            _APP,
            _rounds(n),
            sets=("match length",),
        )
        for n in (3, 5, 7, 9)
    ),
    # ambiguity switches (RULES-MATRIX §3)
    _variant(
        "starter_may_meld",
        "The starter's bare first turn may also meld (L8).",
        "RULES-MATRIX L8",
        _L,
        _replace(deal=lambda r: attrs.evolve(r.deal, first_turn=FirstTurn.MAY_MELD)),
        switch=True,
    ),
    _variant(
        "joker_demotion_always",
        "A joker taken from the discard pile counts only as an Ace of any suit, even when "
        "jokers are not wild (L4).",
        "RULES-MATRIX L4",
        _L,
        _replace(demotion=lambda r: attrs.evolve(r.demotion, jokers_always=True)),
        switch=True,
        # without an indicator the jokers are always wild, and without jokers there are none
        refines=Refines(
            lambda r: r.deck.jokers > 0 and r.wilds.indicator,
            "jokers that are not wild under some indicators",
            None,
        ),
    ),
    _variant(
        "demoted_wild_counts",
        "A wild taken from the discard pile still counts toward the one-wild limit (L5).",
        "RULES-MATRIX L5",
        _L,
        _replace(demotion=lambda r: attrs.evolve(r.demotion, counts_as_wild=True)),
        switch=True,
    ),
    _variant(
        "redeal_wild_pairs",
        "Two identical wild cards count as a pair for a redeal claim, not as two wild cards "
        "(L6 b), so two pairs and two identical wild cards are no longer enough.",
        "RULES-MATRIX L6",
        _L,
        _replace(redeal=lambda r: attrs.evolve(r.redeal, wild_pairs_count=True)),
        switch=True,
    ),
    _variant(
        "dealer_draw_ace_low",
        "In the draw for first dealer the Ace is the lowest card (L7).",
        "RULES-MATRIX L7",
        _L,
        _replace(match=lambda r: attrs.evolve(r.match, ace_high_for_dealer=False)),
        switch=True,
    ),
    _variant(
        "exemption_hand_only",
        "Only a Hand may go out below the opening bar (L11).",
        "RULES-MATRIX L11",
        _L,
        _replace(opening_exemption=lambda r: OpeningExemption.HAND),
        switch=True,
    ),
    _variant(
        "egyptian_suit_x16",
        "With Egyptian bonuses, a one-suit Hand also counts the one-colour doubling (×16) (L12 b).",
        "RULES-MATRIX L12",
        _L,
        _replace(
            scoring=lambda r: attrs.evolve(
                r.scoring,
                egyptian=attrs.evolve(
                    r.scoring.egyptian or EgyptianBonuses(), suit_also_colour=True
                ),
            )
        ),
        switch=True,
        refines=Refines(
            lambda r: r.scoring.egyptian is not None, "the Egyptian bonuses", "egyptian_bonuses"
        ),
    ),
    _variant(
        "ace_indicator_no_wilds",
        "Without jokers, an Ace indicator means the round has no wild cards (L13).",
        "RULES-MATRIX L13",
        _L,
        _replace(wilds=lambda r: attrs.evolve(r.wilds, ace_indicator=AceIndicator.NO_WILDS)),
        switch=True,
        refines=_NO_JOKERS,
        sets=("Ace indicator",),
    ),
    _variant(
        "beat_last_or_equal",
        "Under beat-the-last, an opening equal to the last one is enough (L15).",
        "RULES-MATRIX L15",
        (*_L, "saudi", "saudi_partnership"),
        _beat_last(strict=False),
        switch=True,
        refines=_BEAT_LAST,
    ),
    _variant(
        "beat_last_no_base",
        "Under beat-the-last, the first opening of a round needs no minimum (L15).",
        "RULES-MATRIX L15",
        (*_L, "saudi", "saudi_partnership"),
        _beat_last(base=1),
        switch=True,
        refines=_BEAT_LAST,
        sets=("opening bar",),
    ),
    _variant(
        "beat_last_next_seat",
        "Under beat-the-last, only the player seated next after the last opener must beat "
        "that opening; anyone else opening needs the base (P8, alternative), which with "
        "beat_last_no_base is no minimum at all.",
        "RULES-MATRIX P8",
        (*_L, "saudi"),
        _next_seat_only,
        switch=True,
        refines=_BEAT_LAST_ALONE,
    ),
    _variant(
        "ace_indicator_turn_again",
        "Without jokers, an Ace indicator goes back into the stock and another card is turned "
        "(L13).",
        "RULES-MATRIX L13",
        _L,
        _replace(wilds=lambda r: attrs.evolve(r.wilds, ace_indicator=AceIndicator.TURN_AGAIN)),
        switch=True,
        refines=_NO_JOKERS,
        sets=("Ace indicator",),
    ),
    _variant(
        "wild_role_best_value",
        "An undeclared wild whose reading changes the value takes the best one (L3).",
        "RULES-MATRIX L3",
        _ALL_PRESETS,
        _replace(wild_roles=lambda r: RoleInference.BEST_VALUE),
        switch=True,
    ),
    _variant(
        "one_natural_three_jokers",
        "Only one natural with exactly two jokers is banned; 1 + 3 jokers is a meld (R2).",
        "RULES-MATRIX R2",
        _R,
        _replace(
            wild_limits=lambda r: r.wild_limits.with_(ForbiddenMix(1, 2), without=(MinNaturals,))
        ),
        switch=True,
    ),
    _variant(
        "no_two_jokers_in_set",
        "A set may not hold two jokers (R2).",
        "RULES-MATRIX R2",
        _R,
        _replace(
            wild_limits=lambda r: r.wild_limits.with_(
                AdjacentWilds(4, in_sets=False), without=(AdjacentWilds,)
            )
        ),
        switch=True,
    ),
    _variant(
        "wrap_ace_1",
        "An Ace inside a round-the-corner run counts 1 toward the opening (R3).",
        "RULES-MATRIX R3",
        _R,
        _replace(opening_values=lambda r: attrs.evolve(r.opening_values, ace_wrapped=1)),
        switch=True,
        refines=Refines(lambda r: r.runs.wrap, "runs that turn the corner", "round_the_corner"),
    ),
    _variant(
        "freed_joker_may_lay_off",
        "A joker taken in an exchange may also be laid off at once, not only put in a new "
        "meld (R4).",
        "RULES-MATRIX R4",
        _R,
        _replace(exchange=lambda r: attrs.evolve(r.exchange, freed_wild=FreedWild.USE_NOW)),
        switch=True,
    ),
    _variant(
        "no_rediscard_taken",
        "The card taken from the discard pile may not be discarded in the same turn (R5, G10).",
        "RULES-MATRIX R5",
        (*_R, *_G),
        _replace(discard_take=lambda r: attrs.evolve(r.discard_take, no_rediscard=True)),
        switch=True,
    ),
    _variant(
        "hand_all_melded",
        "A Hand must meld every card, with no final discard (R6).",
        "RULES-MATRIX R6",
        _R,
        _replace(hand=lambda r: attrs.evolve(r.hand, all_melded=True)),
        switch=True,
    ),
    _variant(
        "stock_out_after_last_draw",
        "The round ends as soon as the last stock card is drawn (R7).",
        "RULES-MATRIX R7",
        _R,
        _replace(stock=lambda r: attrs.evolve(r.stock, trigger=StockTrigger.LAST_CARD_DRAWN)),
        switch=True,
    ),
    _variant(
        "limit_reached",
        "The match ends when a total reaches the limit, not only when it passes it (R8).",
        "RULES-MATRIX R8",
        _R,
        _replace(match=lambda r: attrs.evolve(r.match, inclusive=True)),
        switch=True,
        refines=Refines(
            lambda r: r.match.end is MatchEnd.PENALTY_LIMIT, "a match that ends at a limit", None
        ),
    ),
    _variant(
        "ties_play_on",
        "A tie for the lowest total is played off with more rounds (R8, G11).",
        "RULES-MATRIX R8",
        (*_R, *_G, *_APP),
        _replace(match=lambda r: attrs.evolve(r.match, ties=TieRule.PLAY_ON)),
        switch=True,
    ),
    _variant(
        "discard_new_meld_only",
        "Under 'discard pile only for melding', the taken card must go into a new meld (R9).",
        "RULES-MATRIX R9",
        _R,
        _replace(discard_take=lambda r: attrs.evolve(r.discard_take, may_lay_off=False)),
        switch=True,
        refines=Refines(
            lambda r: r.discard_take.may_lay_off,
            "a taken discard that may be laid off",
            "discard_only_to_meld",
        ),
    ),
    _variant(
        "discard_pays_for_joker",
        "Under 'discard pile only for melding', paying for a joker on the table with the "
        "taken card also melds it (R9; 002 §Playing a turn counts exchanges as melding).",
        "RULES-MATRIX R9",
        _R,
        _replace(discard_take=lambda r: attrs.evolve(r.discard_take, may_exchange=True)),
        switch=True,
        refines=Refines(
            lambda r: r.discard_take.must_meld,
            "a taken discard that must be melded",
            "discard_only_to_meld",
        ),
    ),
    _variant(
        "levant_penalties",
        "Cards in hand cost Ace 11 and joker 15 (G1).",
        "RULES-MATRIX G1",
        _G,
        _replace(penalties=lambda r: PenaltyValues(ace=11, wild=15)),
        switch=True,
        sets=("card penalties",),
    ),
    _variant(
        "romme_penalties",
        "Cards in hand cost Ace 11 and joker 20 (G1).",
        "RULES-MATRIX G1",
        _G,
        _replace(penalties=lambda r: PenaltyValues(ace=11, wild=20)),
        switch=True,
        sets=("card penalties",),
    ),
    _variant(
        "winner_minus_30",
        "The player who goes out scores -30 (G1).",
        "RULES-MATRIX G1",
        _G,
        _replace(scoring=lambda r: attrs.evolve(r.scoring, winner=-30)),
        switch=True,
    ),
    _variant(
        "never_opened_100",
        "A player who never opened scores a flat 100 (G1).",
        "RULES-MATRIX G1",
        _G,
        _replace(scoring=lambda r: attrs.evolve(r.scoring, never_opened=100)),
        switch=True,
    ),
    _variant(
        "final_discard_required",
        "Going out needs a final discard; a Hand melds all but that card (G4).",
        "RULES-MATRIX G4",
        _G,
        _replace(
            going_out=lambda r: attrs.evolve(r.going_out, final_discard=True),
            hand=lambda r: attrs.evolve(r.hand, all_melded=False),
        ),
        switch=True,
    ),
    _variant(
        "hand_no_layoffs",
        "A Hand adds no card to another player's meld: every card is melded (G4, X9).",
        "RULES-MATRIX G4",
        _G,
        _replace(hand=lambda r: attrs.evolve(r.hand, no_layoffs=True)),
        switch=True,
    ),
    _variant(
        "layoff_before_opening",
        "Cards may be laid off before the player has opened (G5).",
        "RULES-MATRIX G5",
        _G,
        _replace(layoff=lambda r: attrs.evolve(r.layoff, needs_opening=False)),
        switch=True,
    ),
    _variant(
        "free_phase_order",
        "Melds and lay-offs may come in any order within a turn (G6).",
        "RULES-MATRIX G6",
        _G,
        _replace(layoff=lambda r: attrs.evolve(r.layoff, melds_first=False)),
        switch=True,
    ),
    _variant(
        "joker_exchange",
        "A joker on the table may be exchanged for the card it stands for, as in the app (G7).",
        "RULES-MATRIX G7",
        _G,
        _replace(
            exchange=lambda r: ExchangePolicy(
                allowed=True, set_supply=SetSupply.EITHER_MISSING, freed_wild=FreedWild.KEEP
            )
        ),
        switch=True,
    ),
    _variant(
        "hand_exempt",
        "A Hand finish does not need to reach the opening bar (G8, P6 c).",
        "RULES-MATRIX G8",
        (*_G, *_APP),
        _replace(opening_exemption=lambda r: OpeningExemption.HAND),
        switch=True,
    ),
    _variant(
        "stock_out_unscored",
        "When the stock runs out the round ends unscored and is dealt again (G9).",
        "RULES-MATRIX G9",
        _G,
        _replace(stock=lambda r: StockExhaustion(StockTrigger.EMPTY_ON_DRAW, 0, StockEnd.UNSCORED)),
        switch=True,
        sets=("end of the stock",),
    ),
    _variant(
        "stock_out_score_hands",
        "When the stock runs out everyone scores the cards in hand (G9).",
        "RULES-MATRIX G9",
        _G,
        _replace(
            stock=lambda r: StockExhaustion(StockTrigger.EMPTY_ON_DRAW, 0, StockEnd.SCORE_HANDS)
        ),
        switch=True,
        sets=("end of the stock",),
    ),
    _variant(
        "joker_opening_15",
        "A joker counts 15 toward the opening (P2).",
        "RULES-MATRIX P2",
        _APP,
        _replace(opening_values=lambda r: attrs.evolve(r.opening_values, wild=15)),
        switch=True,
        sets=("joker's opening value",),
    ),
    _variant(
        "joker_opening_25",
        "A joker counts 25 toward the opening (P2).",
        "RULES-MATRIX P2",
        _APP,
        _replace(opening_values=lambda r: attrs.evolve(r.opening_values, wild=25)),
        switch=True,
        sets=("joker's opening value",),
    ),
    _variant(
        "joker_inside_only",
        "A joker may stand only inside a run, not at its ends (P3).",
        "RULES-MATRIX P3",
        _APP,
        _replace(wild_limits=lambda r: r.wild_limits.with_(NoWildAtRunEnd())),
        switch=True,
    ),
    _variant(
        "taken_card_in_opening",
        "An unopened player who takes the fire card must open with a meld that uses it (P4 a).",
        "RULES-MATRIX P4",
        _APP,
        _replace(discard_take=lambda r: attrs.evolve(r.discard_take, in_opening=True)),
        switch=True,
    ),
    _variant(
        "exchange_both_missing",
        "Taking the joker from a set of two needs both missing cards (P5).",
        "RULES-MATRIX P5",
        _APP,
        _replace(exchange=lambda r: attrs.evolve(r.exchange, set_supply=SetSupply.BOTH_MISSING)),
        switch=True,
    ),
    _variant(
        "freed_joker_must_meld",
        "A joker taken in an exchange must go into a new meld at once (P5).",
        "RULES-MATRIX P5",
        _APP,
        _replace(exchange=lambda r: attrs.evolve(r.exchange, freed_wild=FreedWild.NEW_MELD)),
        switch=True,
    ),
    _variant(
        "hand_with_final_discard",
        "A Hand may end with a final discard (P6 a).",
        "RULES-MATRIX P6",
        _APP,
        _replace(hand=lambda r: attrs.evolve(r.hand, all_melded=False)),
        switch=True,
    ),
    _variant(
        "winner_team_scoring",
        "Teams score as in 000's Partnership Hand: the winner's team scores the winner's score, "
        "the other team adds both players' penalties (P7).",
        "RULES-MATRIX P7",
        ("partnership", "saudi_partnership"),
        _replace(
            scoring=lambda r: attrs.evolve(r.scoring, partnership=PartnershipScoring.WINNER_TEAM)
        ),
        switch=True,
    ),
    _variant(
        "partner_pays_never_opened",
        "A partner who never laid down pays the never-opened penalty, even when the team has "
        "opened (P9 c).",
        "RULES-MATRIX P9",
        ("saudi_partnership",),
        _replace(scoring=lambda r: attrs.evolve(r.scoring, personal_never_opened=True)),
        switch=True,
    ),
    _variant(
        "personal_team_opening",
        "Each partner still opens personally, against the team's bar (P9 a).",
        "RULES-MATRIX P9",
        ("saudi_partnership",),
        _replace(
            opening=lambda r: (
                attrs.evolve(r.opening, shared=False)
                if isinstance(r.opening, TeamOpening)
                else TeamOpening(51, shared=False)
            )
        ),
        switch=True,
    ),
)

VARIANTS: Mapping[str, Variant] = MappingProxyType({v.name: v for v in _ALL_VARIANTS})
"""Every variant and switch by name, in the catalogue's order. Read-only, as :data:`PRESETS`."""
_CATALOGUE_ORDER = {v: i for i, v in enumerate(_ALL_VARIANTS)}


def variants_for(preset: str) -> tuple[Variant, ...]:
    """The variants and switches that compose onto ``preset``."""
    expect(preset, str, "the preset name")
    if preset not in PRESETS:
        raise UnknownRulesError(f"unknown rules {preset!r}{_suggest(preset, PRESETS)}")
    return tuple(v for v in _ALL_VARIANTS if preset in v.presets)


def length_variant(ruleset: Ruleset) -> str | None:
    """The variant of ``ruleset`` that chose how many rounds its matches last (the app's
    ``rounds_5``, say), or ``None``: a match given another length would contradict it."""
    return next(
        (
            name
            for name in ruleset.variants
            if name in VARIANTS and "match length" in VARIANTS[name].sets
        ),
        None,
    )


def standalone(preset: str, variant: str) -> tuple[str, ...]:
    """The variant names that make ``variant`` a ruleset of its own on ``preset``: the
    variant alone, or after the variant that brings the rule it refines where the preset
    lacks it (``wrap_ace_1`` on Rommé comes with ``round_the_corner``).

    >>> standalone("romme", "wrap_ace_1"), standalone("saudi", "beat_last_or_equal")
    (('round_the_corner', 'wrap_ace_1'), ('beat_last_or_equal',))
    """
    needs = VARIANTS[variant].refines
    if needs is None or needs.has(PRESETS[preset]):
        return (variant,)
    if needs.variant is None:
        raise InvalidStateError(f"{variant!r} refines {needs.rule}, which {preset} lacks")
    return (needs.variant, variant)


def build(preset: str, variants: Iterable[str] = ()) -> Ruleset:
    """The named preset with the named variants.

    The variants are applied in the catalogue's order (:data:`VARIANTS`: the documents'
    variants first, then the switches, which refine them), whatever order they are named
    in, so that a list of variants means one ruleset. Two variants that decide the same
    thing outright (two opening bars, two match lengths) are refused together, and so is a
    switch that would change nothing: one whose rule the preset lacks (the message names
    the variant to add) or another variant takes away (the message says to leave it out).
    """
    expect(preset, str, "the preset name")
    if isinstance(variants, str) or not isinstance(variants, Iterable):
        raise InvalidStateError(f"variants must be a list of names, not {type(variants).__name__}")
    variants = list(variants)  # read once: a generator would be empty the second time
    for name in variants:
        expect(name, str, "a variant name")
    base = PRESETS.get(preset)
    if base is None:
        raise UnknownRulesError(f"unknown rules {preset!r}{_suggest(preset, PRESETS)}")
    chosen: list[Variant] = []
    for name in variants:
        variant = VARIANTS.get(name)
        if variant is None or preset not in variant.presets:
            known = {v.name: v for v in variants_for(preset)}
            raise UnknownRulesError(f"unknown variant {name!r} for {preset}{_suggest(name, known)}")
        if variant in chosen:
            raise UnknownRulesError(f"variant {name!r} is given twice")
        for other in chosen:
            shared = variant.sets & other.sets
            if shared:
                raise UnknownRulesError(
                    f"variants {other.name!r} and {name!r} both decide the "
                    f"{' and '.join(sorted(shared))}; choose one"
                )
        chosen.append(variant)
    ruleset = base
    for variant in sorted(chosen, key=_CATALOGUE_ORDER.__getitem__):
        needs = variant.refines
        if needs is not None and not needs.has(ruleset):
            remedy = "leave it out" if needs.variant is None else f"add {needs.variant!r}"
            raise UnknownRulesError(
                f"variant {variant.name!r} refines {needs.rule}, which {preset} does not have"
                f"{' with these variants' if chosen[1:] else ''}: {remedy}"
            )
        ruleset = variant.apply(ruleset)
    return ruleset


def _suggest(name: str, known: Iterable[str]) -> str:
    names = sorted(known)
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{hint} (known: {', '.join(names)})"
