"""The Ruleset: one frozen bundle of rule policies, one per rule dimension."""

from __future__ import annotations

import functools
import typing
from typing import Any

import attrs

from hand_rummy.cards import Card
from hand_rummy.errors import InvalidStateError
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
        unknown = sorted(changes.keys() - attrs.fields_dict(Ruleset).keys())
        if unknown:
            known = ", ".join(attrs.fields_dict(Ruleset))
            raise InvalidStateError(f"a ruleset has no field {unknown[0]!r} (its fields: {known})")
        hints = _field_types()
        for name, value in changes.items():
            kind = hints[name]
            if getattr(kind, "_is_protocol", False):
                # a policy given by its methods (the opening bar): check that they are there
                members = [m for m in ("required", "describe") if not hasattr(value, m)]
                if members:
                    raise InvalidStateError(
                        f"{name} must be an {kind.__name__} (such as FixedOpening(71)), not "
                        f"{type(value).__name__}: it has no {members[0]}()"
                    )
            elif isinstance(kind, type) and (
                not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool)
            ):
                raise InvalidStateError(
                    f"{name} must be {kind.__name__}, not {type(value).__name__}"
                )
        return attrs.evolve(self, **changes)

    @property
    def title(self) -> str:
        """The preset's name with its variants, e.g. ``levant+opening_71``."""
        return "+".join((self.name, *self.variants))

    @property
    def uses_indicator(self) -> bool:
        """Whether a card is turned after the deal to say which cards are wild."""
        return self.wilds.indicator

    @property
    def opening_ceiling(self) -> int:
        """More than any opening is worth: the whole deck, every card at its best value."""
        return self.deck.size * self.opening_values.most

    def wild_cards(self, indicator: Card | None = None) -> WildCards:
        """The wild cards of a round with this ``indicator`` (``None`` when the rules have none)."""
        return self.wilds.resolve(indicator, self.deck.jokers)

    def dimensions(self) -> tuple[tuple[str, str, str], ...]:
        """Every rule dimension: the field's name, its label, and its policy in words."""
        return tuple(
            (field, label, getattr(self, field).describe()) for field, label in _DIMENSIONS
        )

    def __str__(self) -> str:
        """The rules in words (:meth:`describe`): what ``print(ruleset)`` shows."""
        return self.describe()

    def describe(self) -> str:
        """Every policy and parameter in words, one rule dimension a line."""
        lines = [(label, text) for _, label, text in self.dimensions()]
        width = max(len(label) for label, _ in lines)
        head = f"{self.title}\n"
        return head + "\n".join(f"{label:<{width}}  {text}" for label, text in lines)


_DIMENSIONS = (
    ("players", "Players"),
    ("deck", "Deck"),
    ("deal", "Deal"),
    ("redeal", "Redeal"),
    ("wilds", "Wild cards"),
    ("wild_limits", "Wild limits"),
    ("wild_roles", "Wild roles"),
    ("demotion", "Discarded wilds"),
    ("runs", "Runs"),
    ("sets", "Sets"),
    ("opening", "Opening"),
    ("opening_values", "Opening values"),
    ("opening_exemption", "Opening exemption"),
    ("discard_take", "Taking the discard"),
    ("layoff", "Laying off"),
    ("exchange", "Exchanging wilds"),
    ("going_out", "Going out"),
    ("hand", "Hand finish"),
    ("penalties", "Penalties"),
    ("scoring", "Scoring"),
    ("stock", "Stock"),
    ("match", "Match"),
)
"""The rule dimensions in the order :meth:`Ruleset.describe` lists them, with their labels."""


@functools.cache
def _field_types() -> dict[str, Any]:
    """The declared type of each field of :class:`Ruleset`, resolved once."""
    return typing.get_type_hints(Ruleset)
