"""The Ruleset: one frozen bundle of rule policies, one per rule dimension."""

from __future__ import annotations

from typing import Any

import attrs

from hand_rummy.cards import Card
from hand_rummy.rules.match import MatchPolicy
from hand_rummy.rules.opening import (
    FixedOpening,
    OpeningExemption,
    OpeningThreshold,
    OpeningValues,
)
from hand_rummy.rules.scoring import HandFinish, PenaltyValues, RoundScoring
from hand_rummy.rules.shapes import RunPolicy, SetPolicy
from hand_rummy.rules.stock import StockExhaustion
from hand_rummy.rules.table_setup import DealPolicy, DeckPolicy, Players, RedealPolicy
from hand_rummy.rules.turn import DiscardTake, ExchangePolicy, GoingOut, LayoffPolicy
from hand_rummy.rules.wilds import (
    DiscardDemotion,
    RoleInference,
    WildCards,
    WildLimits,
    WildSource,
)

__all__ = ["Ruleset"]


@attrs.frozen(kw_only=True, cache_hash=True)
class Ruleset:
    """Every rule of one system, as a bundle of small policies.

    Nothing in the engine asks which system it is playing: every difference
    lives in one of these fields. Build a variant by replacing policies:

    >>> from hand_rummy.rules import presets
    >>> strict = presets.levant.with_(opening=FixedOpening(71))
    >>> strict.opening.required(0, 0, ()), presets.levant.opening.required(0, 0, ())
    (71, 51)
    """

    name: str = "custom"
    """A label for people; the engine never reads it."""
    variants: tuple[str, ...] = ()
    """The named variants applied to the preset, in order (a label, like ``name``)."""
    players: Players = Players()
    deck: DeckPolicy = DeckPolicy()
    deal: DealPolicy = DealPolicy()
    redeal: RedealPolicy = RedealPolicy()
    wilds: WildSource = WildSource()
    wild_limits: WildLimits = WildLimits()
    wild_roles: RoleInference = RoleInference.DECLARED
    demotion: DiscardDemotion = DiscardDemotion()
    runs: RunPolicy = RunPolicy()
    sets: SetPolicy = SetPolicy()
    opening: OpeningThreshold = FixedOpening(51)
    opening_values: OpeningValues = OpeningValues()
    opening_exemption: OpeningExemption = OpeningExemption.NONE
    discard_take: DiscardTake = DiscardTake()
    layoff: LayoffPolicy = LayoffPolicy()
    exchange: ExchangePolicy = ExchangePolicy()
    going_out: GoingOut = GoingOut()
    hand: HandFinish = HandFinish()
    penalties: PenaltyValues = PenaltyValues()
    scoring: RoundScoring = RoundScoring()
    stock: StockExhaustion = StockExhaustion()
    match: MatchPolicy = MatchPolicy()

    def with_(self, **changes: Any) -> Ruleset:
        """A copy with some policies replaced (``ruleset.with_(opening=FixedOpening(71))``)."""
        return attrs.evolve(self, **changes)

    @property
    def title(self) -> str:
        """The preset's name with its variants, e.g. ``levant+opening_71``."""
        return "+".join((self.name, *self.variants))

    @property
    def uses_indicator(self) -> bool:
        return self.wilds.indicator

    def wild_cards(self, indicator: Card | None = None) -> WildCards:
        """The wild cards of a round with this ``indicator`` (``None`` when the rules have none)."""
        return self.wilds.resolve(indicator, self.deck.jokers)

    def describe(self) -> str:
        """Every policy and parameter in words, one rule dimension a line."""
        lines = [
            ("Players", self.players.describe()),
            ("Deck", self.deck.describe()),
            ("Deal", self.deal.describe()),
            ("Redeal", self.redeal.describe()),
            ("Wild cards", self.wilds.describe()),
            ("Wild limits", self.wild_limits.describe()),
            ("Wild roles", self.wild_roles.describe()),
            ("Discarded wilds", self.demotion.describe()),
            ("Runs", self.runs.describe()),
            ("Sets", self.sets.describe()),
            ("Opening", self.opening.describe()),
            ("Opening values", self.opening_values.describe()),
            ("Opening exemption", self.opening_exemption.describe()),
            ("Taking the discard", self.discard_take.describe()),
            ("Laying off", self.layoff.describe()),
            ("Exchanging wilds", self.exchange.describe()),
            ("Going out", self.going_out.describe()),
            ("Hand finish", self.hand.describe()),
            ("Penalties", self.penalties.describe()),
            ("Scoring", self.scoring.describe()),
            ("Stock", self.stock.describe()),
            ("Match", self.match.describe()),
        ]
        width = max(len(label) for label, _ in lines)
        head = f"{self.title}\n"
        return head + "\n".join(f"{label:<{width}}  {text}" for label, text in lines)
