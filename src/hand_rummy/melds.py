"""Melds: checking a run or set under a ruleset, the roles of its wild cards, and its value.

A :class:`Meld` is cards in order, and for each wild card the card it stands
for (its *role*). :func:`judge_meld` checks one under a :class:`MeldRules` (a
ruleset together with this round's wild cards) and fills in roles that only
one reading allows. Written order is a declaration: in ``5♥ 6♥ W`` the wild
stands for 7♥, in ``W 5♥ 6♥`` for 4♥ (RULES-MATRIX L3).

>>> from hand_rummy.rules import presets
>>> rules = MeldRules.of(presets.levant, parse_card("8C"))
>>> j = judge_meld(Meld.of("7H AC 9H"), rules)
>>> j.ok, j.kind, j.points, j.meld.roles
(True, <MeldKind.RUN: 'run'>, 24, (None, Card.parse('8H'), None))
>>> judge_meld(Meld.of("4H AC AC"), rules).verdict.codes
(<Code.MELD_TOO_MANY_WILDS: 'MELD_TOO_MANY_WILDS'>,)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import attrs

from hand_rummy.cards import (
    CARDS,
    JOKER_INDEX,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from hand_rummy.errors import InvalidStateError, expect, number
from hand_rummy.rulebook import cited, violation
from hand_rummy.rules.opening import AcePlace
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.wilds import MeldKind, RoleInference, WildCards
from hand_rummy.verdict import Code, Topic, Verdict, Violation, told_more

__all__ = [
    "Meld",
    "MeldJudgement",
    "MeldRules",
    "check_copies",
    "judge_meld",
    "meld_points",
    "read_cards",
    "set_free_places",
]

_HIGH_ACE = 14


CardsLike = str | Iterable[Card | str]


def read_cards(value: CardsLike) -> tuple[Card, ...]:
    """Cards given as text (``"7H 8H 9H"``) or as cards and card strings."""
    if isinstance(value, str):
        return parse_cards(value)
    expect(value, Iterable, "cards")
    return tuple(c if isinstance(c, Card) else parse_card(c) for c in value)


@attrs.frozen(cache_hash=True)  # melds key the finder's caches: hash each once
class Meld:
    """Cards in meld order, with the role of each wild card.

    ``roles[i]`` is the card that the wild card at position ``i`` stands for,
    ``None`` for a natural card (or a wild whose role is left to inference).
    ``demoted`` holds the positions of wild cards that were taken from the
    discard pile and so play as natural cards (000 §Exchanging wild cards).

    >>> Meld.of("7H AC 9H", roles={1: "8H"}).roles[1]
    Card.parse('8H')
    """

    cards: tuple[Card, ...]
    roles: tuple[Card | None, ...] = attrs.field()
    demoted: frozenset[int] = frozenset()

    @roles.default
    def _no_roles(self) -> tuple[Card | None, ...]:
        # cards that are not a tuple are refused by __attrs_post_init__, which runs after
        return (None,) * len(self.cards) if isinstance(self.cards, tuple) else ()

    def __attrs_post_init__(self) -> None:
        # a meld built field by field (not by Meld.of) is a caller's value like any other:
        # its fields are checked here once, so no judge meets a card that is not a Card
        expect(self.cards, tuple, "a meld's cards")
        for card in self.cards:
            expect(card, Card, "each card of a meld")
        expect(self.roles, tuple, "a meld's roles")
        if len(self.roles) != len(self.cards):
            raise InvalidStateError("a meld needs one role entry per card")
        for role in self.roles:
            if role is not None:
                expect(role, Card, "a wild card's role")
        expect(self.demoted, frozenset, "a meld's demoted positions")
        for i in self.demoted:
            expect(i, int, "a demoted position")
        if any(not 0 <= i < len(self.cards) for i in self.demoted):
            raise InvalidStateError("a demoted position lies outside the meld")

    @classmethod
    def of(
        cls,
        cards: CardsLike,
        roles: Mapping[int, Card | str] | None = None,
        demoted: Iterable[int] = (),
    ) -> Meld:
        """Build a meld from card text or cards, with roles keyed by position."""
        faces = read_cards(cards)
        table: list[Card | None] = [None] * len(faces)
        expect(roles if roles is not None else {}, Mapping, "roles")
        if isinstance(demoted, str) or not isinstance(demoted, Iterable):
            raise InvalidStateError(
                f"demoted must be the positions of the demoted cards (ints), not "
                f"{type(demoted).__name__}"
            )
        for position, role in (roles or {}).items():
            expect(position, int, "a role's position")
            if not 0 <= position < len(faces):
                raise InvalidStateError(
                    f"role given for position {number(position)}, outside the meld"
                )
            table[position] = role if isinstance(role, Card) else parse_card(role)
        return cls(faces, tuple(table), frozenset(demoted))

    @property
    def plays_as(self) -> tuple[Card, ...]:
        """Each position's card as it plays: the role of a wild card, else the card itself."""
        return tuple(r if r is not None else c for c, r in zip(self.cards, self.roles))

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def describe(self) -> str:
        """The cards with each wild's role, e.g. ``7♥ A♣(=8♥) 9♥``.

        A wild card that stands for its own face shows so too (``A♣(=A♣)``: it is still a
        wild, which an exchange can free); a demoted wild plays as a natural card and
        shows no role unless it stands for another face (a demoted joker as ``JK(=A♠)``).
        """
        return " ".join(
            f"{c}(={r})" if r is not None and (r != c or i not in self.demoted) else str(c)
            for i, (c, r) in enumerate(zip(self.cards, self.roles))
        )

    def _repr_svg_(self) -> str:
        """The meld as a picture, for notebooks (:func:`hand_rummy.svg.meld`)."""
        from hand_rummy import svg  # noqa: PLC0415 (svg imports this module)

        return svg.meld(self)


@attrs.frozen(cache_hash=True)
class MeldRules:
    """A ruleset together with one round's wild cards: all a meld check needs."""

    ruleset: Ruleset
    wilds: WildCards

    @classmethod
    def of(cls, ruleset: Ruleset, indicator: Card | str | None = None) -> MeldRules:
        """The meld rules of ``ruleset`` in a round with ``indicator`` turned (``None``
        where the rules turn none)."""
        expect(ruleset, Ruleset, "the ruleset")
        if indicator is not None and not isinstance(indicator, (Card, str)):
            expect(indicator, Card, "the indicator")
        if isinstance(indicator, str):
            indicator = parse_card(indicator)
        return _meld_rules(ruleset, indicator)

    def is_wild(self, card: Card) -> bool:
        """Whether ``card`` is wild in this round."""
        return self.wilds.is_wild(card)


@functools.lru_cache(maxsize=256)
def _meld_rules(ruleset: Ruleset, indicator: Card | None) -> MeldRules:
    # one object per ruleset and indicator, so the caches keyed on it (the finders, the
    # action layouts) find it by identity instead of comparing two rulesets field by field
    return MeldRules(ruleset, ruleset.wild_cards(indicator))


@attrs.frozen
class MeldJudgement:
    """The answer about one meld.

    ``meld`` is the meld as it lies on the table (runs low to high, every
    wild's role filled in) when exactly one reading is legal; ``candidates``
    lists the readings when a wild's role is ambiguous.
    """

    verdict: Verdict
    meld: Meld | None = None
    kind: MeldKind | None = None
    points: int | None = None
    candidates: tuple[Meld, ...] = ()

    @property
    def ok(self) -> bool:
        return self.verdict.ok


# --- resolution ----------------------------------------------------------------


@attrs.frozen
class _Slot:
    """One position: the card, what it plays as (None until inferred), whether it is wild."""

    card: Card
    plays: Card | None
    wild: bool
    counts_as_wild: bool
    demoted: bool = False
    ace_only: bool = False
    """A demoted joker: it may only stand for an Ace."""


def _slots(meld: Meld, rules: MeldRules) -> tuple[list[_Slot], list[Violation]]:
    wilds, demotion = rules.wilds, rules.ruleset.demotion
    ruleset = rules.ruleset
    slots, problems = [], []
    for i, (card, role) in enumerate(zip(meld.cards, meld.roles)):
        if card.is_joker and rules.ruleset.deck.jokers == 0:
            problems.append(
                violation(
                    ruleset, Code.CARD_NOT_IN_DECK, "these rules play without jokers", Topic.DECK
                )
            )
            continue
        if i in meld.demoted:
            if not demotion.demotes(card, wilds):
                problems.append(
                    violation(
                        ruleset,
                        Code.DEMOTION_NOT_ALLOWED,
                        f"{card} cannot play as a demoted discard under these rules",
                        Topic.DEMOTION,
                    )
                )
                continue
            counts = demotion.counts_as_wild
            if card.is_joker:
                if role is not None and role.rank is not Rank.ACE:
                    problems.append(
                        violation(
                            ruleset,
                            Code.WILD_ROLE_INVALID,
                            f"a joker taken from the discard pile counts only as an Ace, "
                            f"not {role}",
                            Topic.DEMOTION,
                        )
                    )
                    continue
                slots.append(_Slot(card, role, False, counts, demoted=True, ace_only=True))
            else:
                slots.append(_Slot(card, card, False, counts, demoted=True))
            continue
        if wilds.is_wild(card):
            if role is not None and role.is_joker:
                problems.append(
                    violation(
                        ruleset,
                        Code.WILD_ROLE_INVALID,
                        f"the wild {card} must stand for a natural card, not a joker",
                        Topic.WILD_ROLE,
                    )
                )
                continue
            slots.append(_Slot(card, role, True, True))
            continue
        natural = wilds.natural_as(card)
        if role is not None and role != natural:
            problems.append(
                violation(
                    ruleset,
                    Code.NATURAL_CARD_GIVEN_ROLE,
                    f"{card} is not wild here and cannot stand for {role}",
                    Topic.WILD_ROLE,
                )
            )
            continue
        slots.append(_Slot(card, natural, False, False))
    return slots, problems


def _rank(card: Card) -> Rank:
    """The rank of a natural card (wild roles and natural plays are never jokers)."""
    assert card.rank is not None
    return card.rank


def _suit(card: Card) -> Suit:
    assert card.suit is not None
    return card.suit


def _index(card: Card | None) -> int:
    return -1 if card is None else card.index


def _values(rank: Rank, wrap: bool) -> tuple[int, ...]:
    if rank is Rank.ACE and not wrap:
        return (1, _HIGH_ACE)
    return (int(rank),)


def _run_windows(slots: Sequence[_Slot], suit: Suit, rules: MeldRules) -> list[list[int]]:
    """Every way to give each position of a run a rank value: one list of values per reading.

    Without wrap, values run 1 (Ace low) to 14 (Ace high); with wrap they
    are 1-13 taken cyclically. Fixed cards keep their rank; open wild cards
    fill the gaps and ends, in written order when that order fits.
    """
    policy = rules.ruleset.runs
    n = len(slots)
    wrap = policy.wrap
    if n > 13:
        return []  # a run never holds the same card twice, so thirteen cards at most
    # the values each fixed card could take (None for an open wild), the same in every window
    fixed = [None if slot.plays is None else _values(_rank(slot.plays), wrap) for slot in slots]
    if wrap:
        # a window holds every fixed card: value v lies in the window from s when it is
        # fewer than n steps round from s (one bit a start, as _WRAP_STARTS has them)
        fitting = _EVERY_START
        for choices in fixed:
            if choices is not None:
                fitting &= _WRAP_STARTS[n][choices[0]]
        starts: Sequence[int] = [s for s in range(1, 14) if fitting >> s & 1]
    else:
        low = 1 if policy.ace_low else 2
        high = _HIGH_ACE if policy.ace_high else 13
        # a window holds every fixed card: those of one value (not an Ace) bound its start
        known = [choices[0] for choices in fixed if choices is not None and len(choices) == 1]
        if known:
            low, high = max(low, max(known) - n + 1), min(high, min(known) + n - 1)
        starts = range(low, high - n + 2)
    ace_only = any(slot.ace_only for slot in slots)
    readings = []
    for start in starts:
        window = [((start - 1 + k) % 13) + 1 if wrap else start + k for k in range(n)]
        free = set(window)
        taken: list[int | None] = []
        for choices in fixed:
            if choices is None:
                taken.append(None)
                continue
            # the first of its values that the window has free (an Ace may have two)
            value = choices[0] if choices[0] in free else choices[-1]
            if value not in free:
                break
            free.discard(value)
            taken.append(value)
        if len(taken) < n:
            continue  # a fixed card has no place in this window
        # open slots: prefer the written position, else the remaining values in order
        positional = [window[i] if v is None else v for i, v in enumerate(taken)]
        if positional == window:
            values = positional
        else:
            rest = iter(sorted(free, key=window.index))
            values = [next(rest) if v is None else v for v in taken]
        if ace_only and any(s.ace_only and v not in (1, _HIGH_ACE) for s, v in zip(slots, values)):
            continue
        readings.append(values)
    return readings


_EVERY_START = sum(1 << s for s in range(1, 14))
_WRAP_STARTS = [
    [sum(1 << s for s in range(1, 14) if (v - s) % 13 < n) for v in range(14)] for n in range(14)
]
"""By a run's length and a card's value (1-13), the starts (bits 1-13) of the windows that
turn the corner and hold the value."""


def _readings(slots: list[_Slot], rules: MeldRules) -> list[tuple[MeldKind, list[_Slot], bool]]:
    """Every complete reading of the slots as a set or a run.

    Each reading is (kind, slots in table order, written order matches).
    """
    fixed = [s.plays for s in slots if s.plays is not None]
    if not fixed:
        return []
    readings: list[tuple[MeldKind, list[_Slot], bool]] = []
    ranks = {c.rank for c in fixed}
    suits = {c.suit for c in fixed}
    sets = rules.ruleset.sets
    distinct = len(fixed) == len({c.suit for c in fixed})
    if len(ranks) == 1 and distinct and sets.min_size <= len(slots) <= sets.max_size:
        rank = _rank(fixed[0])
        used = [c.suit for c in fixed]
        missing = [s for s in Suit if s not in used]
        filled, ok = [], True
        for slot in slots:
            if slot.plays is None:
                if (slot.ace_only and rank is not Rank.ACE) or not missing:
                    ok = False
                    break
                filled.append(attrs.evolve(slot, plays=Card(rank, missing.pop(0))))
            else:
                filled.append(slot)
        if ok:
            readings.append((MeldKind.SET, _canonical_set(filled, rank), True))
    run_length_ok = len(slots) >= rules.ruleset.runs.min_length
    if len(suits) == 1 and run_length_ok and len(fixed) == len({c.index for c in fixed}):
        suit = _suit(fixed[0])
        for values in _run_windows(slots, suit, rules):
            order = _run_order(values, rules)
            placed = [
                slots[i] if slots[i].plays is not None else _playing(slots[i], values[i], suit)
                for i in order
            ]
            readings.append((MeldKind.RUN, placed, order == list(range(len(slots)))))
    return readings


def _playing(slot: _Slot, value: int, suit: Suit) -> _Slot:
    """The open wild ``slot`` of a run, playing as the card of ``value`` in ``suit`` (as
    ``attrs.evolve`` would make it, which costs more, and runs are judged by the thousand)."""
    plays = CARDS[13 * int(suit) + (value - 1) % 13]
    return _Slot(slot.card, plays, slot.wild, slot.counts_as_wild, slot.demoted, slot.ace_only)


def _canonical_set(filled: list[_Slot], rank: Rank) -> list[_Slot]:
    """A set's wilds stand for its missing suits in suit order, whatever was declared.

    In a set a wild counts as "one card of that rank" (000 §The first meld);
    which missing suit it names changes nothing in the game, so a set has one
    table form and one lay-down, not one per naming.
    """
    free = [s for s in filled if s.wild or s.ace_only]
    if not free:
        return filled
    taken = {_suit(s.plays) for s in filled if not (s.wild or s.ace_only) and s.plays is not None}
    missing = iter(s for s in Suit if s not in taken)
    return [
        attrs.evolve(s, plays=Card(rank, next(missing))) if s.wild or s.ace_only else s
        for s in filled
    ]


def set_free_places(meld: Meld, rules: MeldRules) -> frozenset[int]:
    """The places of a set whose suit is free: each wild card, which counts as one more
    card of the set's rank (000 §The first meld), and each joker taken from the discard
    pile, which counts as an Ace of any suit (000 §Exchanging wild cards, "Discarded wild
    cards").

    A set's table form names them the missing suits in suit order (which suit changes
    nothing in the game), so a lay-off or an exchange may give them others: the 7♣ goes
    onto 7♠ 7♥ JK(=7♣), the joker then standing for the 7♦. Every other card of a set plays
    as itself, and its suit is taken.
    """
    demoted = meld.demoted
    return frozenset(
        i
        for i, card in enumerate(meld.cards)
        if (card.is_joker and i in demoted) or (i not in demoted and rules.is_wild(card))
    )


def _run_order(values: Sequence[int], rules: MeldRules) -> list[int]:
    """The places of a run's cards (valued ``values``) from its low end to its high end."""
    if not rules.ruleset.runs.wrap:
        return sorted(range(len(values)), key=values.__getitem__)
    # a wrapped run starts after its gap: rotate so the lowest value after the gap comes first
    present = set(values)
    start = (
        next(v for v in sorted(present) if (v - 2) % 13 + 1 not in present)
        if len(present) < 13
        else 1
    )
    return sorted(range(len(values)), key=[(v - start) % 13 for v in values].__getitem__)


def _shape_violations(slots: Sequence[_Slot], rules: MeldRules, shown: str) -> list[Violation]:
    """Why no reading works: the first broken shape rule, worded for the cards given."""
    ruleset = rules.ruleset
    if len(slots) < min(ruleset.runs.min_length, ruleset.sets.min_size):
        return [
            violation(
                ruleset,
                Code.MELD_TOO_SHORT,
                f"{shown or 'an empty meld'}: a meld needs at least three cards",
                Topic.MELD_SHAPE,
            )
        ]
    fixed = [s.plays for s in slots if s.plays is not None]
    ranks = {c.rank for c in fixed}
    suits = {c.suit for c in fixed}
    if len(ranks) == 1:
        size = rules.ruleset.sets.max_size
        if len(slots) > size:
            return [
                violation(
                    ruleset,
                    Code.SET_TOO_LARGE,
                    f"{shown}: a set holds at most {size} cards",
                    Topic.SET,
                )
            ]
        return [
            violation(
                ruleset,
                Code.SET_IDENTICAL_CARDS,
                f"{shown}: a set needs a different suit for every card; two identical cards "
                "never sit in one set",
                Topic.SET,
            )
        ]
    if len(suits) == 1:
        if len(slots) > 13:
            return [
                violation(
                    ruleset,
                    Code.RUN_TOO_LONG,
                    f"{shown}: a run holds each rank once, so thirteen cards at most",
                    Topic.RUN,
                )
            ]
        if not rules.ruleset.runs.wrap and Rank.ACE in ranks and _wraps(fixed, len(slots)):
            return [
                violation(
                    ruleset,
                    Code.RUN_ACE_IN_MIDDLE,
                    f"{shown}: the Ace may end a run (A-2-3 or Q-K-A) but not sit in the middle",
                    Topic.RUN_ACE,
                )
            ]
        return [
            violation(
                ruleset,
                Code.RUN_NOT_IN_SEQUENCE,
                f"{shown}: the cards of a run must follow each other in rank",
                Topic.RUN,
            )
        ]
    return [
        violation(
            ruleset,
            Code.MELD_NOT_RUN_OR_SET,
            f"{shown} is neither a run (one suit) nor a set (one rank)",
            Topic.MELD_SHAPE,
        )
    ]


def _with_natural_notes(problems: list[Violation], slots: Sequence[_Slot]) -> list[Violation]:
    """``problems``, the first saying which cards that look wild play as natural cards here
    (a joker that is not wild, 000 §Wild cards; a wild taken from the discard pile, 000
    "Discarded wild cards"): a player who counted them as wild cannot see the fault."""
    notes = []
    for slot in slots:
        if slot.wild:
            continue
        if slot.demoted:
            plays = "an Ace" if slot.ace_only else "itself"
            notes.append(f"the {slot.card} taken from the discard pile plays only as {plays}")
        elif slot.card.is_joker and slot.plays is not None:
            notes.append(f"the {slot.card} is not wild here: it plays as a natural {slot.plays}")
    return told_more(problems, after=f" ({'; '.join(notes)})") if notes else problems


def _wraps(fixed: Sequence[Card], length: int) -> bool:
    """Would these cards make a run if it could turn the corner (K-A-2)?"""
    values = sorted({int(c.rank) for c in fixed if c.rank is not None})
    if len(values) != len(fixed):
        return False
    return any(all(((v - start) % 13) < length for v in values) for start in range(1, 14))


def _limits(
    kind: MeldKind, placed: Sequence[_Slot], rules: MeldRules, meld: Meld
) -> list[Violation]:
    ruleset = rules.ruleset
    wilds = tuple(s.counts_as_wild for s in placed)
    if ruleset.wild_limits.allows(kind, wilds):
        return []  # the usual answer, without wording a refusal (lay-off searches judge many)
    found = ruleset.wild_limits.check(kind, wilds, str(meld))
    return [cited(v, ruleset) for v in found]


def _to_meld(placed: Sequence[_Slot]) -> Meld:
    roles = tuple(s.plays if s.wild or s.ace_only else None for s in placed)
    demoted = frozenset(i for i, s in enumerate(placed) if s.demoted)
    return Meld(tuple(s.card for s in placed), roles, demoted)


def _place(rank: Rank, kind: MeldKind, index: int, placed: Sequence[_Slot]) -> AcePlace:
    if rank is not Rank.ACE or kind is MeldKind.SET:
        return AcePlace.SET
    if index == 0 and placed[1].plays is not None and placed[1].plays.rank is Rank.TWO:
        return AcePlace.LOW
    if index == len(placed) - 1:
        return AcePlace.HIGH
    return AcePlace.WRAPPED


def _points(kind: MeldKind, placed: Sequence[_Slot], rules: MeldRules) -> int:
    values = rules.ruleset.opening_values
    total = 0
    for i, slot in enumerate(placed):
        if slot.wild and values.wild is not None:
            total += values.wild
            continue
        assert slot.plays is not None and slot.plays.rank is not None
        total += values.of(slot.plays.rank, _place(slot.plays.rank, kind, i, placed))
    return total


def judge_meld(meld: Meld, rules: MeldRules) -> MeldJudgement:
    """Check one meld and, when it is legal, give its table form, kind and opening value."""
    expect(meld, Meld, "the meld")
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    return _judged(meld, rules)


@functools.lru_cache(maxsize=4096)
def _judged(meld: Meld, rules: MeldRules) -> MeldJudgement:
    """:func:`judge_meld`'s answer, remembered: it depends on nothing but the two frozen
    values, and a table meld is judged again at every turn that asks what it could take or
    give up (each of its lay-offs and exchanges judges it first)."""
    slots, problems = _slots(meld, rules)
    if problems:
        return MeldJudgement(Verdict.of(*problems))
    copies = check_copies(meld.cards, rules)
    if copies:
        return MeldJudgement(Verdict.of(*copies))
    readings = _readings(slots, rules) if len(slots) >= 3 else []
    legal: list[tuple[MeldKind, list[_Slot], bool]] = []
    first_failure: list[Violation] = []
    for kind, placed, in_order in readings:
        broken = _limits(kind, placed, rules, meld)
        if broken:
            first_failure = first_failure or broken
        else:
            legal.append((kind, placed, in_order))
    if not legal:
        if first_failure:
            return MeldJudgement(Verdict.of(*first_failure))
        shown = str(meld)
        if slots and all(s.plays is None for s in slots):
            every = (True,) * len(slots)
            ruleset = rules.ruleset
            wild_only = [
                cited(v, ruleset) for v in ruleset.wild_limits.check(MeldKind.SET, every, shown)
            ] or [
                violation(
                    ruleset, Code.MELD_ALL_WILD, f"{shown} is all wild cards", Topic.WILDS_NOT_ALL
                )
            ]
            return MeldJudgement(Verdict.of(*wild_only))
        shape = _shape_violations(slots, rules, shown)
        return MeldJudgement(Verdict.of(*_with_natural_notes(shape, slots)))
    if len(legal) > 1:
        # readings that give every card the same part are one reading (a 13-card run read
        # from another start); keep the one in written order
        unique: dict[object, tuple[MeldKind, list[_Slot], bool]] = {}
        for reading in legal:
            parts = sorted((s.card.index, _index(s.plays), s.wild) for s in reading[1])
            key = (reading[0], tuple(parts))
            if key not in unique or (reading[2] and not unique[key][2]):
                unique[key] = reading
        legal = list(unique.values())
    best_value = rules.ruleset.wild_roles is RoleInference.BEST_VALUE
    # by default (matrix L3) written order declares a run's wild roles: drop the run
    # readings it contradicts; under the alternative the richest reading is taken whatever
    # the order, written order breaking a tie
    if not best_value and len(legal) > 1 and any(r[0] is MeldKind.RUN and r[2] for r in legal):
        legal = [r for r in legal if r[0] is MeldKind.SET or r[2]]
    if len(legal) > 1 and best_value:
        legal = [max(legal, key=lambda r: (_points(r[0], r[1], rules), r[2]))]
    if len(legal) > 1:
        shown = str(meld)
        candidates = tuple(_to_meld(placed) for _, placed, _ in legal)
        options = "; ".join(
            f"{c.describe()} ({_points(k, p, rules)} points)"
            for c, (k, p, _) in zip(candidates, legal)
        )
        return MeldJudgement(
            Verdict.of(
                violation(
                    rules.ruleset,
                    Code.WILD_ROLE_AMBIGUOUS,
                    f"{shown}: say what the wild card stands for; it could be {options}",
                    Topic.WILD_ROLE,
                )
            ),
            candidates=candidates,
        )
    kind, placed, _ = legal[0]
    return MeldJudgement(Verdict.legal(), _to_meld(placed), kind, _points(kind, placed, rules))


def meld_points(meld: Meld, rules: MeldRules) -> int:
    """The opening value of a legal meld.

    Raises :class:`~hand_rummy.errors.IllegalActionError` for an illegal one, and its kind
    :class:`~hand_rummy.errors.AmbiguousMeldError`, with the meld's readings, where a wild
    card could stand for more than one card.
    """
    judgement = judge_meld(meld, rules)
    if judgement.points is None:
        raise judgement.verdict.refusal(judgement.candidates)
    return judgement.points


def check_copies(cards: Iterable[Card], rules: MeldRules) -> list[Violation]:
    """More copies of a face than the deck holds (two packs: at most two 7♥), the turned
    indicator being one copy that lies beside the stock, in no meld or hand."""
    deck = rules.ruleset.deck
    indicator = rules.wilds.indicator
    cards = tuple(cards)
    # the usual answers, by index (cards hash and compare in Python, and a search of lay-offs
    # judges runs with jokers by the thousand), without wording a refusal
    faces = [card.index for card in cards]
    spare = -1 if indicator is None else indicator.index  # the indicator is one copy less
    if (
        len(set(faces)) == len(faces)
        and (deck.jokers or JOKER_INDEX not in faces)
        and (deck.packs > 1 or spare not in faces)
    ):
        return []  # no face twice, and every face is in the deck
    if all(
        count <= (deck.jokers if face == JOKER_INDEX else deck.packs) - (face == spare)
        for face, count in Counter(faces).items()
    ):
        return []  # a face twice (jokers, or two packs), but no more often than the deck has it
    problems = []
    for card, count in sorted(Counter(cards).items()):
        have = deck.copies(card.is_joker)
        if card == indicator:
            have -= 1
        if count > have:
            where = " besides the indicator" if card == indicator else ""
            problems.append(
                violation(
                    rules.ruleset,
                    Code.TOO_MANY_COPIES,
                    f"{count} × {card}, but the deck holds only {have}{where}",
                    Topic.DECK,
                )
            )
    return problems
