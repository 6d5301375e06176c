"""The meld finder: every meld a hand can make, the best opening, and going-out covers.

This is the engine's hot path, so it works on count vectors (a hand is 53
counts, indexed by :attr:`Card.index`) and on tables built once per
:class:`~hand_rummy.melds.MeldRules`. Everything it yields is a legal meld by
:func:`~hand_rummy.melds.judge_meld`; the tests check that, and that nothing
legal is missed.

>>> from hand_rummy.cards import parse_cards
>>> from hand_rummy.rules import presets
>>> rules = MeldRules.of(presets.levant, "8C")
>>> finder = MeldFinder.of(rules)
>>> hand = counts(parse_cards("9H 10H JH QH 4S 4D AC 2C"))
>>> [f.meld.describe() for f in finder.melds(hand) if f.meld.cards[0].ascii == "9H"][:3]
['9♥ 10♥ J♥', '9♥ A♣(=10♥) J♥', '9♥ 10♥ A♣(=J♥)']
>>> points, melds = finder.best_opening(hand)
>>> points, [f.meld.describe() for f in melds]
(51, ['9♥ 10♥ J♥ Q♥', '4♦ 4♠ A♣(=4♣)'])
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

import attrs

from hand_rummy.cards import CARDS, JOKER, Card, Rank, Suit
from hand_rummy.melds import Meld, MeldRules, judge_meld
from hand_rummy.rules.wilds import MeldKind

__all__ = ["FoundMeld", "MeldFinder", "check_found", "counts"]

Counts = Sequence[int]
_RANKS = tuple(Rank)
# (kind, suit or rank, run start, wild mask, set suits): enough to build the meld later
_Spec = tuple[MeldKind, int, int, tuple[bool, ...], tuple[int, ...]]
_Candidate = tuple[int, tuple[int, ...], _Spec]
_HIGH = 14


def counts(cards: Iterable[Card]) -> list[int]:
    """A hand as 53 counts, one per face (the two copies of a face count 2)."""
    vector = [0] * 53
    for card in cards:
        vector[card.index] += 1
    return vector


def _face(suit: int, value: int) -> int:
    """The index of the natural card of ``suit`` at run value ``value`` (14 is the Ace)."""
    return suit * 13 + (0 if value == _HIGH else value - 1)


@attrs.frozen
class FoundMeld:
    """A meld the hand can make: the table form, its kind, its opening value, the faces used."""

    meld: Meld
    kind: MeldKind
    points: int
    used: tuple[int, ...]
    """Face indices used, one entry per card."""


class MeldFinder:
    """Finds melds in count vectors under one :class:`MeldRules` (build with :meth:`of`)."""

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        ruleset = rules.ruleset
        self._wild_faces = tuple(sorted(c.index for c in rules.wilds.wild))
        # a natural face plays as itself unless it is wild; a joker that is not wild plays as
        # an ordinary Ace of the indicator suit (000 §Wild cards)
        self._plays_as = tuple(() if rules.is_wild(c) else (c.index,) for c in CARDS[:52])
        joker_as = rules.wilds.joker_as
        self._joker_as = joker_as.index if joker_as is not None and not rules.is_wild(JOKER) else -1
        self._runs = ruleset.runs
        self._sets = ruleset.sets
        self._limits: dict[tuple[MeldKind, tuple[bool, ...]], bool] = {}
        self._values: dict[tuple[int, int], tuple[int, ...]] = {}
        self._layoffs: dict[Meld, dict[int, tuple[tuple[Card | None, bool], ...]]] = {}
        self._suit_cache: dict[object, list[_Candidate]] = {}
        self._rank_cache: dict[object, list[_Candidate]] = {}
        self._built: dict[_Candidate, FoundMeld] = {}
        self._hand_cache: dict[tuple[int, ...], list[_Candidate]] = {}
        values = ruleset.opening_values
        top = max(values.ace, values.ace_low, values.ace_wrapped, values.court)
        wild_top = values.wild if values.wild is not None else top
        ace_top = max(values.ace, values.ace_low, values.ace_wrapped)

        def most(face: int) -> int:
            if face in (52, 105):
                return max(wild_top, ace_top)
            rank = CARDS[face % 53].rank
            assert rank is not None
            natural = ace_top if rank is Rank.ACE else values.of(rank)
            return max(natural, wild_top) if rules.is_wild(CARDS[face % 53]) else natural

        self._most = tuple(most(face) for face in range(106))
        self._best_cache: dict[tuple[int, ...], tuple[int, tuple[_Candidate, ...]]] = {}

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(rules: MeldRules) -> MeldFinder:
        """The finder for ``rules`` (cached: one per ruleset and indicator)."""
        return MeldFinder(rules)

    def _limit_ok(self, kind: MeldKind, mask: tuple[bool, ...]) -> bool:
        key = (kind, mask)
        ok = self._limits.get(key)
        if ok is None:
            ok = not self.rules.ruleset.wild_limits.check(kind, mask, "")
            self._limits[key] = ok
        return ok

    # --- enumeration ------------------------------------------------------------

    @staticmethod
    def extend(hand: Counts, demoted: Sequence[Card] = ()) -> list[int]:
        """A hand vector in which ``demoted`` cards (wilds taken from the discard pile, which
        play as natural cards) sit apart, at ``53 + index``."""
        vector = [*hand[:53], *([0] * 53)] if len(hand) == 53 else list(hand)
        for card in demoted:
            vector[card.index] -= 1
            vector[53 + card.index] += 1
        return vector

    def _naturals(self, hand: Counts) -> list[tuple[int, ...]]:
        """For each natural card (0-51), the faces in the hand that can play as it."""
        table: list[tuple[int, ...]] = [()] * 52
        plays_as = self._plays_as
        for face in range(52):
            if hand[face]:
                table[face] = plays_as[face]
        if hand[52] and self._joker_as >= 0:
            table[self._joker_as] = (*table[self._joker_as], 52)
        if len(hand) > 53 and any(hand[53:]):
            # a demoted wild Ace plays as itself; a demoted joker as an Ace of any suit
            for face in range(52):
                if hand[53 + face]:
                    table[face] = (*table[face], 53 + face)
            if hand[105]:
                for suit in range(4):
                    table[suit * 13] = (*table[suit * 13], 105)
        return table

    def _candidates(self, hand: Counts) -> list[_Candidate]:
        """Every legal meld as a light tuple (points, faces used, how to build it)."""
        return _memo(self._hand_cache, tuple(hand), self._find, hand)

    def _find(self, hand: Counts) -> list[_Candidate]:
        table = self._naturals(hand)
        pool = [f for f in self._wild_faces for _ in range(hand[f])]
        out: list[_Candidate] = []
        self._run_candidates(table, pool, out)
        self._set_candidates(table, pool, out)
        if len(hand) > 53 and any(hand[53:]):
            out = [c for c in out if self._demoted_fit(hand, c)]
        return out

    def _demoted_fit(self, hand: Counts, candidate: _Candidate) -> bool:
        used = candidate[1]
        pseudo = [f for f in used if f >= 53]
        if any(pseudo.count(f) > hand[f] for f in pseudo):
            return False
        if pseudo and self.rules.ruleset.demotion.counts_as_wild:
            mask = tuple(m or f >= 53 for m, f in zip(candidate[2][3], used))
            return self._limit_ok(candidate[2][0], mask)
        return True

    def _run_candidates(
        self, table: list[tuple[int, ...]], pool: list[int], out: list[_Candidate]
    ) -> None:
        wild_key = tuple(pool)
        for suit in range(4):
            base = suit * 13
            # a suit's runs depend only on its own cards and the wild cards: most turns
            # change one suit, so the others come from the cache
            key = (suit, wild_key, *table[base : base + 13])
            cached = self._suit_cache.get(key)
            if cached is not None:
                out.extend(cached)
                continue
            mark = len(out)
            self._suit_runs(suit, table, pool, out)
            self._remember(self._suit_cache, key, out[mark:])

    def _suit_runs(
        self, suit: int, table: list[tuple[int, ...]], pool: list[int], out: list[_Candidate]
    ) -> None:
        policy = self._runs
        wrap = policy.wrap
        wild_total = len(pool)
        base = suit * 13
        held = sum(1 for i in range(13) if table[base + i])
        if held == 0 or held + wild_total < policy.min_length:
            return
        present: list[tuple[int, ...]] = [()] * 15
        for value in range(1, 15):
            if value == 1 and not (policy.ace_low or wrap):
                continue
            if value == _HIGH and (wrap or not policy.ace_high):
                continue
            present[value] = table[_face(suit, value)]
        if not wild_total and not wrap:
            self._natural_runs(suit, present, out)
            return
        for start in range(1, 14) if wrap else range(1, 15):
            if not wild_total and not present[start]:
                continue
            max_len = 13 if wrap else min(13, _HIGH - start + 1)
            gaps = 0
            window: list[tuple[int, ...]] = []
            for length in range(1, max_len + 1):
                value = (start + length - 2) % 13 + 1 if wrap else start + length - 1
                choices = present[value]
                window.append(choices)
                if not choices:
                    gaps += 1
                    if gaps > wild_total:
                        break
                if length >= policy.min_length:
                    self._fill_run(suit, start, window, pool, out)

    def _natural_runs(
        self, suit: int, present: list[tuple[int, ...]], out: list[_Candidate]
    ) -> None:
        """Runs without wild cards: every window inside a stretch of held cards."""
        shortest = self._runs.min_length
        value = 1
        while value <= _HIGH:
            if not present[value]:
                value += 1
                continue
            end = value
            while end < _HIGH and present[end + 1]:
                end += 1
            for start in range(value, end - shortest + 2):
                for stop in range(start + shortest - 1, end + 1):
                    window = present[start : stop + 1]
                    points = sum(self._run_values(start, stop - start + 1))
                    mask = (False,) * (stop - start + 1)
                    for naturals in itertools.product(*window):
                        out.append((points, naturals, (MeldKind.RUN, suit, start, mask, ())))
            value = end + 1

    def _fill_run(
        self,
        suit: int,
        start: int,
        window: list[tuple[int, ...]],
        pool: list[int],
        out: list[_Candidate],
    ) -> None:
        length = len(window)
        values = self._run_values(start, length)
        if not pool:
            # the common case: no wild cards in hand, so every place holds a natural
            points = sum(values)
            for naturals in itertools.product(*window):
                out.append((points, naturals, (MeldKind.RUN, suit, start, (False,) * length, ())))
            return
        gaps = [i for i, c in enumerate(window) if not c]
        held = [i for i, c in enumerate(window) if c]
        flat = self.rules.ruleset.opening_values.wild
        for extra in range(len(pool) - len(gaps) + 1):
            for swapped in itertools.combinations(held, extra) if extra else ((),):
                wild_at = set(gaps).union(swapped)
                mask = tuple(i in wild_at for i in range(length))
                if not self._limit_ok(MeldKind.RUN, mask):
                    continue
                points = sum(
                    flat if mask[i] and flat is not None else values[i] for i in range(length)
                )
                options = [window[i] for i in range(length) if not mask[i]]
                for wilds in _choose(pool, len(wild_at)):
                    for naturals in itertools.product(*options):
                        used = _interleave(mask, wilds, naturals)
                        out.append((points, used, (MeldKind.RUN, suit, start, mask, ())))

    def _run_values(self, start: int, length: int) -> tuple[int, ...]:
        key = (start, length)
        cached = self._values.get(key)
        if cached is None:
            wrap = self._runs.wrap
            cached = tuple(
                self._value(
                    CARDS[_face(0, (start + i - 1) % 13 + 1 if wrap else start + i)],
                    i,
                    length,
                    wrap,
                )
                for i in range(length)
            )
            self._values[key] = cached
        return cached

    def _value(self, plays: Card, position: int, length: int, wrap: bool) -> int:
        values = self.rules.ruleset.opening_values
        rank = plays.rank
        assert rank is not None
        if rank is not Rank.ACE:
            return values.court if rank >= Rank.TEN else int(rank)
        if position == 0 and length > 1:
            return values.ace_low
        if position == length - 1:
            return values.ace
        return values.ace_wrapped if wrap else values.ace

    def _set_candidates(
        self, table: list[tuple[int, ...]], pool: list[int], out: list[_Candidate]
    ) -> None:
        policy = self._sets
        values = self.rules.ruleset.opening_values
        wild_total = len(pool)
        wild_key = tuple(pool)
        least = policy.min_size - wild_total
        for rank in _RANKS:
            at = rank - 1
            clubs, diamonds, hearts, spades = (
                table[at],
                table[13 + at],
                table[26 + at],
                table[39 + at],
            )
            if (clubs != ()) + (diamonds != ()) + (hearts != ()) + (spades != ()) < max(least, 1):
                continue  # too few cards of this rank for any set
            key = (at, wild_key, clubs, diamonds, hearts, spades)
            cached = self._rank_cache.get(key)
            if cached is not None:
                out.extend(cached)
                continue
            mark = len(out)
            held = [(s, table[at + 13 * s]) for s in range(4) if table[at + 13 * s]]
            if not held or len(held) + wild_total < policy.min_size:
                self._remember(self._rank_cache, key, [])
                continue
            natural_value = values.of(rank)
            wild_value = values.wild if values.wild is not None else natural_value
            for size in range(policy.min_size, policy.max_size + 1):
                for wild_count in range(min(wild_total, size) + 1):
                    natural_count = size - wild_count
                    if natural_count > len(held) or natural_count < 1:
                        continue
                    mask = (False,) * natural_count + (True,) * wild_count
                    if not self._limit_ok(MeldKind.SET, mask):
                        continue
                    points = natural_count * natural_value + wild_count * wild_value
                    for chosen in itertools.combinations(held, natural_count):
                        suits = tuple(s for s, _ in chosen)
                        for wilds in _choose(pool, wild_count):
                            for faces in itertools.product(*(c for _, c in chosen)):
                                out.append(
                                    (
                                        points,
                                        (*faces, *wilds),
                                        (MeldKind.SET, int(rank), 0, mask, suits),
                                    )
                                )
            self._remember(self._rank_cache, key, out[mark:])

    @staticmethod
    def _remember(
        cache: dict[object, list[_Candidate]], key: object, found: list[_Candidate]
    ) -> None:
        if len(cache) > 50_000:
            cache.clear()  # a bounded cache: forget everything rather than grow without end
        cache[key] = found

    def _build(self, candidate: _Candidate) -> FoundMeld:
        built = self._built.get(candidate)
        if built is None:
            built = self._make(candidate)
            if len(self._built) > 50_000:
                self._built.clear()
            self._built[candidate] = built
        return built

    def _make(self, candidate: _Candidate) -> FoundMeld:
        points, used, (kind, key, start, mask, suits) = candidate
        cards = tuple(CARDS[f % 53] for f in used)
        roles: tuple[Card | None, ...]
        if kind is MeldKind.RUN:
            suit = key
            wrap = self._runs.wrap
            roles = tuple(
                CARDS[_face(suit, (start + i - 1) % 13 + 1 if wrap else start + i)]
                if wild
                else None
                for i, wild in enumerate(mask)
            )
        else:
            rank = key
            missing = [s for s in range(4) if s not in suits]
            roles = (None,) * len(suits) + tuple(
                CARDS[s * 13 + rank - 1] for s in missing[: len(mask) - len(suits)]
            )
        demoted = frozenset(i for i, f in enumerate(used) if f >= 53)
        if demoted:
            # a demoted joker states which Ace it plays as; a demoted wild Ace is itself
            plays = self._plays(kind, key, start, suits, len(used))
            roles = tuple(plays[i] if used[i] == 105 else r for i, r in enumerate(roles))
        return FoundMeld(Meld(cards, roles, demoted), kind, points, used)

    def _plays(
        self, kind: MeldKind, key: int, start: int, suits: tuple[int, ...], size: int
    ) -> tuple[Card, ...]:
        if kind is MeldKind.RUN:
            wrap = self._runs.wrap
            return tuple(
                CARDS[_face(key, (start + i - 1) % 13 + 1 if wrap else start + i)]
                for i in range(size)
            )
        return tuple(CARDS[s * 13 + key - 1] for s in suits) + (CARDS[key - 1],) * (
            size - len(suits)
        )

    def melds(self, hand: Counts) -> list[FoundMeld]:
        """Every legal meld the hand can make, runs first, in a fixed order."""
        return [self._build(c) for c in self._candidates(hand)]

    # --- lay-offs ------------------------------------------------------------------

    def layoff_options(
        self, meld: Meld, kind: MeldKind
    ) -> dict[int, tuple[tuple[Card | None, bool], ...]]:
        """The single cards that extend a table meld: face index -> (role, depends on the turn).

        A run takes the next card at either end (a wild card standing for
        it), a set a card of a missing suit or a wild card, where the wild
        limits allow. ``True`` marks a lay-off that 000's rule for a set of two
        naturals and a wild allows only in some turns. Cached per meld, since a
        table meld is asked about on every turn until it changes.
        """
        cached = self._layoffs.get(meld)
        if cached is not None:
            return cached
        rules = self.rules
        counts_as_wild = rules.ruleset.demotion.counts_as_wild
        plays = [
            r if r is not None else rules.wilds.natural_as(c)
            for c, r in zip(meld.cards, meld.roles)
        ]
        wild_at = [rules.is_wild(c) and i not in meld.demoted for i, c in enumerate(meld.cards)]
        mask = tuple(w or (i in meld.demoted and counts_as_wild) for i, w in enumerate(wild_at))
        found: dict[int, list[tuple[Card | None, bool]]] = {}

        def add(face: int, role: Card | None, contextual: bool) -> None:
            options = found.setdefault(face, [])
            if (role, contextual) not in options:
                options.append((role, contextual))

        def naturals_as(target: Card) -> list[int]:
            faces = [] if rules.is_wild(target) else [target.index]
            if self._joker_as == target.index:
                faces.append(52)
            return faces

        if kind is MeldKind.RUN:
            for target, new_mask in self._run_ends(plays, mask):
                for face in naturals_as(target):
                    add(face, None, False)
                if self._limit_ok(MeldKind.RUN, new_mask):
                    for face in self._wild_faces:
                        add(face, target, False)
        elif len(meld) < self._sets.max_size:
            rank = plays[0].rank
            assert rank is not None
            natural_suits = {plays[i].suit for i in range(len(meld)) if not wild_at[i]}
            wilds = sum(wild_at)
            restricted = rules.ruleset.layoff.two_plus_wild_rule and (len(meld) - wilds, wilds) == (
                2,
                1,
            )
            for suit in range(4):
                if Suit(suit) not in natural_suits:
                    for face in naturals_as(CARDS[suit * 13 + rank - 1]):
                        add(face, None, restricted)
            if self._limit_ok(MeldKind.SET, (*mask, True)):
                for face in self._wild_faces:
                    add(face, None, restricted)
        table = {face: tuple(options) for face, options in found.items()}
        self._layoffs[meld] = table
        return table

    def _run_ends(
        self, plays: Sequence[Card], mask: tuple[bool, ...]
    ) -> list[tuple[Card, tuple[bool, ...]]]:
        """The cards just below and just above a run, with the wild mask if a wild went there."""
        policy = self._runs
        suit = plays[0].suit
        assert suit is not None
        length = len(plays)
        first, last = plays[0].rank, plays[-1].rank
        assert first is not None and last is not None
        below_mask, above_mask = (True, *mask), (*mask, True)
        ends: list[tuple[Card, tuple[bool, ...]]] = []
        if policy.wrap:
            if length < 13:
                below = (int(first) - 2) % 13 + 1
                above = int(last) % 13 + 1
                ends.append((CARDS[_face(suit, below)], below_mask))
                ends.append((CARDS[_face(suit, above)], above_mask))
            return ends
        low = 1 if first is Rank.ACE else int(first)
        high = _HIGH if last is Rank.ACE and length > 1 else int(last)
        if length >= 13:
            return ends  # every rank is in it: a run never holds the same card twice
        if low > 2 or (low == 2 and policy.ace_low):
            ends.append((CARDS[_face(suit, low - 1)], below_mask))
        if high < 13 or (high == 13 and policy.ace_high):
            ends.append((CARDS[_face(suit, high + 1)], above_mask))
        return ends

    # --- combinations ---------------------------------------------------------------

    def combinations(
        self,
        hand: Counts,
        found: Sequence[FoundMeld] | None = None,
        *,
        min_points: int = 0,
        max_left: int | None = None,
    ) -> Iterator[tuple[FoundMeld, ...]]:
        """Every non-empty combination of melds that the hand can hold at once.

        With ``min_points`` or ``max_left``, only the combinations worth at
        least ``min_points`` or leaving at most ``max_left`` cards in hand
        (either will do), searched with both bounds to skip hopeless branches.
        """
        size = sum(hand)
        bounded = min_points > 0 or max_left is not None
        need_cards = size - max_left if max_left is not None else size + 1
        if bounded and found is None and not self._may_reach(hand, min_points, need_cards):
            return
        options = list(self.melds(hand) if found is None else found)
        left = list(hand)
        points_after = [0] * (len(options) + 1)
        cards_after = [0] * (len(options) + 1)
        for i in range(len(options) - 1, -1, -1):
            points_after[i] = points_after[i + 1] + options[i].points
            cards_after[i] = cards_after[i + 1] + len(options[i].used)

        def extend(
            start: int, chosen: list[FoundMeld], points: int, cards: int
        ) -> Iterator[tuple[FoundMeld, ...]]:
            for i in range(start, len(options)):
                if (
                    bounded
                    and points + points_after[i] < min_points
                    and cards + cards_after[i] < need_cards
                ):
                    return
                meld = options[i]
                if not _take(left, meld.used):
                    continue
                chosen.append(meld)
                total, used = points + meld.points, cards + len(meld.used)
                if not bounded or total >= min_points or used >= need_cards:
                    yield tuple(chosen)
                yield from extend(i + 1, chosen, total, used)
                chosen.pop()
                _give(left, meld.used)

        yield from extend(0, [], 0, 0)

    def _may_reach(self, hand: Counts, min_points: int, need_cards: int) -> bool:
        """Cheap bounds: can some combination be worth ``min_points`` or use ``need_cards``?"""
        faces = {face for candidate in self._candidates(hand) for face in candidate[1]}
        if sum(hand[face] for face in faces) >= need_cards:
            return True
        return (
            min_points > 0
            and self.opening_bound(hand) >= min_points
            and self.best_opening_value(hand) >= min_points
        )

    def opening_bound(self, hand: Counts) -> int:
        """An upper bound on any opening: every card that is in some meld, at its best value."""
        faces = {face for candidate in self._candidates(hand) for face in candidate[1]}
        return sum(hand[face] * self._most[face] for face in faces)

    def best_opening_value(self, hand: Counts) -> int:
        """The value of the best opening (the search of :meth:`best_opening`, cached)."""
        return _memo(self._best_cache, tuple(hand), self._best, hand)[0]

    def best_opening(self, hand: Counts) -> tuple[int, tuple[FoundMeld, ...]]:
        """The highest opening value the hand can lay down at once, and one way to do it."""
        points, melds = _memo(self._best_cache, tuple(hand), self._best, hand)
        return points, tuple(self._build(c) for c in melds)

    def _best(self, hand: Counts) -> tuple[int, tuple[_Candidate, ...]]:
        options = sorted(self._candidates(hand), key=lambda m: -m[0])
        if not options:
            return 0, ()
        left = list(hand)
        best_total = 0
        best: tuple[_Candidate, ...] = ()
        suffix = [0] * (len(options) + 1)
        for i in range(len(options) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + options[i][0]
        chosen: list[_Candidate] = []

        def search(start: int, total: int) -> None:
            nonlocal best_total, best
            if total > best_total:
                best_total, best = total, tuple(chosen)
            for i in range(start, len(options)):
                if total + suffix[i] <= best_total:
                    return
                meld = options[i]
                if _take(left, meld[1]):
                    chosen.append(meld)
                    search(i + 1, total + meld[0])
                    chosen.pop()
                    _give(left, meld[1])

        search(0, 0)
        return best_total, best

    def covers(self, hand: Counts, keep: int = 0) -> Iterator[tuple[FoundMeld, ...]]:
        """Combinations of melds that use every card of the hand but ``keep`` of them."""
        size = sum(hand)
        for combo in self.combinations(hand):
            if sum(len(m.used) for m in combo) == size - keep:
                yield combo


_T = TypeVar("_T")


def _memo(
    cache: dict[tuple[int, ...], _T],
    key: tuple[int, ...],
    make: Callable[[Counts], _T],
    hand: Counts,
) -> _T:
    """``make(hand)``, remembered under ``key`` in a bounded cache (cleared when full)."""
    found = cache.get(key)
    if found is None:
        found = make(hand)
        if len(cache) > 4096:
            cache.clear()
        cache[key] = found
    return found


def _choose(pool: list[int], k: int) -> list[tuple[int, ...]]:
    """Distinct ways to pick ``k`` wild cards from ``pool`` (face indices)."""
    if k == 0:
        return [()]
    if k > len(pool):
        return []
    return sorted(set(itertools.combinations(pool, k)))


def _interleave(
    mask: tuple[bool, ...], wilds: tuple[int, ...], naturals: tuple[int, ...]
) -> tuple[int, ...]:
    w, n = iter(wilds), iter(naturals)
    return tuple(next(w) if is_wild else next(n) for is_wild in mask)


def _take(left: list[int], used: Sequence[int]) -> bool:
    for i, face in enumerate(used):
        if left[face] == 0:
            for back in used[:i]:
                left[back] += 1
            return False
        left[face] -= 1
    return True


def _give(left: list[int], used: Sequence[int]) -> None:
    for face in used:
        left[face] += 1


def check_found(found: FoundMeld, rules: MeldRules) -> bool:
    """Whether the exact checker agrees that ``found`` is a legal meld (used by the tests)."""
    judged = judge_meld(found.meld, rules)
    return judged.ok and judged.points == found.points
