"""Melds as ids: a meld in table form is a shape id, then its modifiers, in ascending order.

A run's shape is its suit, lowest card and length, with the offset of its first
wild card (or none); a set's shape is its rank, the suits of its natural cards
and its number of wild cards (a set's wilds stand for the missing suits in suit
order, as the engine lays them). Modifiers say what the shape leaves open: a
run's further wild cards (``extra_wild``) and the natural places filled by a
demoted copy or a demoted joker (``demoted``). Every other place holds its
natural card: the card itself, or the joker where it counts as that card.

>>> from hand_rummy.melds import Meld, MeldRules
>>> from hand_rummy.rules import presets
>>> layout = Layout.of(presets.levant, 4)
>>> rules = MeldRules.of(presets.levant, "8C")
>>> tokens = meld_tokens(Meld.of("7H AC 9H", roles={1: "8H"}), rules, layout)
>>> [layout.describe(t) for t in tokens]
['run 7♥-9♥, wild at offset 1']
>>> meld_of_tokens(tokens, rules, layout).describe()
'7♥ A♣(=8♥) 9♥'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from hand_rummy.cards import JOKER, Card, Suit
from hand_rummy.encoding.errors import NotCoveredError
from hand_rummy.encoding.layout import MAX_RUN, Layout, RunFrame, SetFrame
from hand_rummy.melds import Meld, MeldRules

__all__ = ["meld_of_tokens", "meld_tokens", "natural_fill", "split_melds", "wild_face"]

_HIGH_ACE = 14


def natural_fill(card: Card, rules: MeldRules) -> Card | None:
    """The card that plays as the natural ``card`` here: itself, or the joker counting as it."""
    if not rules.is_wild(card):
        return card
    wilds = rules.wilds
    if wilds.joker_as == card and not rules.is_wild(JOKER):
        return JOKER
    return None


def wild_face(rules: MeldRules) -> Card:
    """This round's one wild face; the encoding covers rules with one wild face at most."""
    wild = rules.wilds.wild
    if len(wild) != 1:
        raise NotCoveredError(
            "no wild card this round" if not wild else "the encoding covers one wild face a round"
        )
    return next(iter(wild))


def _suit(card: Card) -> int:
    assert card.suit is not None
    return int(card.suit)


def _uncovered(meld: Meld, why: str) -> NotCoveredError:
    return NotCoveredError(f"the meld {meld.describe()} has no ids: {why}")


@functools.lru_cache(maxsize=65536)
def meld_tokens(meld: Meld, rules: MeldRules, layout: Layout) -> tuple[int, ...]:
    """The ids of ``meld`` (in table form, as the engine lays it): its shape, then modifiers."""
    wilds = rules.wilds
    plays = tuple(
        r if r is not None else wilds.natural_as(c) for c, r in zip(meld.cards, meld.roles)
    )
    if any(p.rank is None or p.suit is None for p in plays) or len(plays) < 2:
        raise _uncovered(meld, "not every card plays as a natural card")
    wild_at = [rules.is_wild(c) and i not in meld.demoted for i, c in enumerate(meld.cards)]
    is_set = len({p.rank for p in plays}) == 1
    places: list[int] = []
    for i, (card, role, plays_as) in enumerate(zip(meld.cards, meld.roles, plays)):
        places.append(_suit(plays_as) if is_set else i)
        if wild_at[i]:
            continue
        if i in meld.demoted:
            if card.is_joker != (role is not None) or (not card.is_joker and card != plays_as):
                raise _uncovered(meld, f"the demoted {card} at {i} plays as nothing this names")
        elif card != natural_fill(plays_as, rules) or role not in (None, plays_as):
            raise _uncovered(meld, f"{card} at {i} is not the natural {plays_as}")
    modifiers = sorted(
        layout.demoted(places[i], meld.cards[i].is_joker) for i in sorted(meld.demoted)
    )
    if is_set:
        rank = plays[0].rank
        assert rank is not None
        suits = 0
        for i, plays_as in enumerate(plays):
            if not wild_at[i]:
                bit = 1 << _suit(plays_as)
                if suits & bit:
                    raise _uncovered(meld, "two natural cards of one suit")
                suits |= bit
        shape = layout.set_ids.get(SetFrame(rank, suits, sum(wild_at)))
        if shape is None:
            raise _uncovered(meld, "no set shape of this ruleset has it")
        return (shape, *modifiers)
    suit = plays[0].suit
    assert suit is not None and plays[0].rank is not None
    frame = RunFrame(Suit(suit), int(plays[0].rank), len(plays))
    # a run not written from low to high may start too high for its length (K♠ J♠ Q♠)
    past_ace = not layout.wrap and frame.start + frame.length - 1 > _HIGH_ACE
    if len(plays) > MAX_RUN or past_ace or frame.cards(layout.wrap) != plays:
        raise _uncovered(meld, "its cards are not a run from low to high")
    offsets = [i for i, wild in enumerate(wild_at) if wild]
    shape = layout.run_ids.get((frame, offsets[0] if offsets else None))
    if shape is None:
        raise _uncovered(meld, "no run shape of this ruleset has it")
    extras = [layout.extra_wild(i) for i in offsets[1:]]
    return (shape, *extras, *modifiers)


def split_melds(tokens: Sequence[int], layout: Layout) -> list[tuple[int, ...]]:
    """The melds of a lay-down's ids (a shape id starts each), without the submit id."""
    melds: list[list[int]] = []
    for token in tokens:
        if token == layout.submit:
            break
        if layout.is_meld_start(token) or not melds:
            melds.append([token])
        else:
            melds[-1].append(token)
    return [tuple(m) for m in melds]


def meld_of_tokens(tokens: Sequence[int], rules: MeldRules, layout: Layout) -> Meld:
    """The meld that ``tokens`` (a shape id and its modifiers) name, in table form."""
    if not tokens or not layout.is_meld_start(tokens[0]):
        raise NotCoveredError("a meld's ids start with a run or set shape")
    shape = tokens[0]
    extra = layout.block("extra_wild")
    demoted_block = layout.block("demoted")
    more_wilds = {t - extra.start + 1 for t in tokens[1:] if t in extra}
    demoted = {
        (t - demoted_block.start) % MAX_RUN: (t - demoted_block.start) >= MAX_RUN
        for t in tokens[1:]
        if t in demoted_block
    }
    runs = layout.block("run")
    cards: list[Card] = []
    roles: list[Card | None] = []
    positions: set[int] = set()

    def natural(plays_as: Card, place: int) -> None:
        if place in demoted:
            positions.add(len(cards))
            joker = demoted[place]
            cards.append(JOKER if joker else plays_as)
            roles.append(plays_as if joker else None)
            return
        fill = natural_fill(plays_as, rules)
        cards.append(plays_as if fill is None else fill)
        roles.append(None)

    if shape in runs:
        frame, first = layout.run_of[shape - runs.start]
        wild_offsets = more_wilds | ({first} if first is not None else set())
        for i, plays_as in enumerate(frame.cards(layout.wrap)):
            if i in wild_offsets:
                cards.append(wild_face(rules))
                roles.append(plays_as)
            else:
                natural(plays_as, i)
    else:
        set_frame = layout.set_of[shape - layout.block("set").start]
        for suit in set_frame.natural_suits:
            natural(Card(set_frame.rank, suit), int(suit))
        for suit in set_frame.wild_suits:
            cards.append(wild_face(rules))
            roles.append(Card(set_frame.rank, suit))
    return Meld(tuple(cards), tuple(roles), frozenset(positions))
