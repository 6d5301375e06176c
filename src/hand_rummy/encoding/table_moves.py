"""Lay-offs and exchanges as ids: a table slot (the meld's place on the table) and a code.

A lay-off's code is the kind of card laid (:class:`~hand_rummy.encoding.layout.Fill`)
and the place it goes: 0 for the low end of a run and 1 for the high end, or the
suit a set gains (0 for a wild or a demoted joker, which name none). When the
same card fits both ends of a run (an Ace on a run of twelve), the engine puts it
where it goes and the id names the low end. An exchange's code is the offset of
the run's wild card that the natural card replaces, or, for a set, the suits of
the cards put in as bits (clubs 1, diamonds 2, hearts 4, spades 8) less one. A
joker that is not wild pays as the Ace it plays as; that Ace is itself wild
(000 §Wild cards) and so can never pay, which keeps the codes apart.
"""

from __future__ import annotations

from hand_rummy.actions import Exchange, LayOff
from hand_rummy.cards import CARDS, Card
from hand_rummy.encoding.errors import NotCoveredError
from hand_rummy.encoding.layout import Fill, Layout
from hand_rummy.melds import MeldRules
from hand_rummy.round import TableMeld
from hand_rummy.rules.wilds import MeldKind

__all__ = ["exchange_code", "lay_off_code", "run_ends"]

_HIGH_ACE = 14


def run_ends(meld: TableMeld, rules: MeldRules, wrap: bool) -> tuple[Card | None, Card | None]:
    """The cards just below and just above a run on the table (``None`` past the Ace)."""
    plays = [
        r if r is not None else rules.wilds.natural_as(c)
        for c, r in zip(meld.meld.cards, meld.meld.roles)
    ]
    first, last = plays[0], plays[-1]
    assert first.rank is not None and last.rank is not None and first.suit is not None
    suit = int(first.suit)
    low, high = int(first.rank), int(last.rank)
    if wrap:
        return CARDS[suit * 13 + (low - 2) % 13], CARDS[suit * 13 + high % 13]
    if high == 1 and len(plays) > 1:
        high = _HIGH_ACE
    below = CARDS[suit * 13 + low - 2] if low >= 2 else None
    above = CARDS[suit * 13 + (0 if high == 13 else high)] if high < _HIGH_ACE else None
    return below, above


def lay_off_code(action: LayOff, target: TableMeld, rules: MeldRules, layout: Layout) -> int:
    """The lay-off's code within its slot: ``fill * 4 + place``."""
    card = action.card
    if action.demoted:
        fill = Fill.DEMOTED_JOKER if card.is_joker else Fill.DEMOTED
    else:
        fill = Fill.WILD if rules.is_wild(card) else Fill.NATURAL
    plays = action.role if action.role is not None else rules.wilds.natural_as(card)
    if target.kind is MeldKind.SET:
        place = 0 if fill in (Fill.WILD, Fill.DEMOTED_JOKER) or plays.suit is None else plays.suit
    else:
        below, above = run_ends(target, rules, layout.wrap)
        if plays == below:
            place = 0
        elif plays == above:
            place = 1
        else:
            raise NotCoveredError(f"{action} adds to neither end of meld {target.id}")
    return int(fill) * 4 + int(place)


def exchange_code(action: Exchange, target: TableMeld, rules: MeldRules) -> int:
    """The exchange's code within its slot (see the module docstring)."""
    meld = target.meld
    paid = [rules.wilds.natural_as(card) for card in action.cards]
    if target.kind is MeldKind.RUN:
        if len(paid) == 1:
            for i, (card, role) in enumerate(zip(meld.cards, meld.roles)):
                if role == paid[0] and rules.is_wild(card) and i not in meld.demoted:
                    return i
        raise NotCoveredError(f"{action} replaces no wild card of meld {target.id}")
    suits = 0
    for card in paid:
        if card.suit is None or suits >> card.suit & 1:
            raise NotCoveredError(f"{action} is not one card of each of some suits")
        suits |= 1 << card.suit
    if not suits:
        raise NotCoveredError(f"{action} puts in no card")
    return suits - 1
