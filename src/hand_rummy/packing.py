"""Packings: which multisets of a hand's melds fit in the hand at once, and what they are worth.

The meld finder (:mod:`hand_rummy.finder`) hands this module a hand's candidate
melds as the cards each uses and the points each is worth; what it asks back is
a packing problem that knows nothing of suits, ranks or wild cards.
:class:`Packing` gives every card a byte of one integer, so a hand, what is left
of it and what a meld takes are integers and "the meld fits" is one
subtraction. The best packing branches on the lowest card left (one copy of it
stays out of every meld, or it is in a meld it starts) and depends on what is
left alone, so it is remembered. Combinations are listed in the order of their
melds, a meld repeating when the cards allow, so each multiset comes once; the
best packings bound the search, so a branch from which no wanted combination
can come is cut.

Two melds of three cards from a hand holding two copies of each, worth 6 and 9:

>>> hand = [2, 2, 2, 2]
>>> packing = Packing(hand, [6, 9], [(0, 1, 2), (1, 2, 3)], most=[3, 3, 3, 3])
>>> packing.best()
(18, [1, 1])
>>> [list(c) for c in packing.search(lambda i: "abc"[i], Goal(points=15))]
[['a', 'b'], ['b', 'b']]
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Iterator, Sequence, Set
from typing import Literal, TypeVar

import attrs

__all__ = ["Counts", "Goal", "Packing", "cache_clear"]

Counts = Sequence[int]
"""A hand as a count per face (the finder's hand vectors)."""

M = TypeVar("M")

_SMALL = 30
"""A packing of this many melds or fewer is searched without bounds."""

_UNBOUNDED_STEPS = 64
"""How many branches a search of a larger packing takes before it starts bounding them.

A bound needs tables over every meld (thousands, in a hand of jokers), and a
search that soon finds what it wants never needs one; bounding only skips
branches that yield nothing, so the combinations and their order are the same.
"""

_UNBOUNDED = 1 << 62
"""An ``enough`` no packing reaches: ask for the exact best."""


@attrs.frozen
class Goal:
    """The combinations a search wants: worth ``points`` or more, or leaving at most ``left``
    cards (either will do; -1 for no such limit); or, for a cover, leaving exactly ``keep``;
    and in any case worth less than ``below``, if it is given.

    The default wants every combination.
    """

    points: int = 0
    left: int = -1
    keep: int | None = None
    below: int | None = None


class _Scale:
    """One way to weigh a packing (points toward an opening, or cards), and what is known.

    ``by_slot[s]`` lists the melds whose lowest card is slot ``s`` as (need,
    weight, slack), heaviest first, where slack is what the meld's cards could
    weigh at most less what the meld weighs; ``weights`` is the most each card
    can weigh, ``copies`` how many of each card the hand holds, and ``live``
    has a byte of ones for each slot some meld starts at. ``exact`` and
    ``lower`` remember, per hand left, the best packing and a packing found
    good enough.
    """

    __slots__ = (
        "by_slot",
        "choice",
        "copies",
        "exact",
        "fits",
        "live",
        "lower",
        "visits",
        "weights",
    )

    def __init__(
        self,
        by_slot: dict[int, list[tuple[int, int, int]]],
        weights: tuple[int, ...],
        copies: bytes,
    ) -> None:
        live = 0
        for slot, entries in by_slot.items():
            entries.sort(key=_heaviest)
            live |= 0xFF << (8 * slot)
        self.by_slot = by_slot
        self.weights = weights
        self.copies = copies
        self.live = live
        self.exact: dict[int, int] = {}
        self.choice: dict[int, int] = {}
        self.lower: dict[int, int] = {}
        self.fits: dict[int, list[tuple[int, list[int]]]] = {}
        self.visits: dict[int, int] = {}

    def candidates(self, slot: int, left: int) -> list[tuple[int, int, int]]:
        """The entries of the long list ``by_slot[slot]`` that may fit ``left``, in their
        order.

        A hand of many wilds has hundreds of melds starting at one card, and
        most do not fit what a search has left: masks rule them out a card at a
        time instead of a meld at a time. A short list is cheaper to test meld
        by meld (the caller does not ask), and so is a long one until the
        search has come to it often enough to repay making its masks: until
        then it is given whole.
        """
        entries = self.by_slot[slot]
        fits = self.fits.get(slot)
        if fits is None:
            visits = self.visits[slot] = self.visits.get(slot, 0) + 1
            if visits < _VISITS:
                return entries
            columns = _fit_columns([entry[0] for entry in entries], self.copies)
            every = (1 << len(entries)) - 1
            # a card that no meld here needs rules none out
            fits = [(8 * at, masks) for at, masks in enumerate(columns) if masks[0] != every]
            self.fits[slot] = fits
        melds = (1 << len(entries)) - 1
        for at, masks in fits:
            melds &= masks[(left >> at) & 0xFF]
        found = []
        while melds:
            low = melds & -melds
            melds ^= low
            found.append(entries[low.bit_length() - 1])
        return found

    def forget(self) -> None:
        self.exact.clear()
        self.choice.clear()
        self.lower.clear()


_MASKED = 24
"""From how many melds starting at one card :meth:`_Scale.candidates` uses masks."""
_VISITS = 4
"""After how many visits to such a card :meth:`_Scale.candidates` makes its masks."""


class Packing:
    """The melds of one hand as a packing problem over its cards.

    Each face some meld uses gets a slot, in face order, and a byte of an
    integer: ``have`` holds the hand's count of each, a meld's need its own. A
    meld fits what is left when no byte of ``left - need`` goes below zero,
    which one subtraction shows: with the top bit of every byte (``guard``)
    set first, they all survive exactly when it fits (counts stay below 128).

    Melds that need the same cards form a class (they differ in the roles of
    their wild cards or in points); the best packing weighs classes, grouped by
    their lowest slot. The tables for each question are built when it is first
    asked.
    """

    __slots__ = (
        "_best_of",
        "_by_cards",
        "_by_points",
        "_classes",
        "_fit_masks",
        "_hand",
        "_most_of",
        "_points",
        "_slot_of",
        "_used",
        "cap",
        "copies",
        "faces",
        "guard",
        "have",
        "needs",
        "width",
    )

    def __init__(
        self,
        hand: Counts,
        points: Sequence[int],
        used: Sequence[tuple[int, ...]],
        most: Sequence[int],
        used_faces: Set[int] | None = None,
    ) -> None:
        # the faces of ``used``, unless the caller has them already (a hand's melds do)
        faces = sorted(set().union(*used) if used_faces is None else used_faces)
        self.faces = faces
        self.width = width = len(faces)
        self._slot_of = {face: slot for slot, face in enumerate(faces)}
        bit = [0] * len(hand)
        for slot, face in enumerate(faces):
            bit[face] = 1 << (8 * slot)
        # counts stay below 128: a deck holds a few copies of a face
        self.copies = bytes(map(hand.__getitem__, faces))
        self.have = int.from_bytes(self.copies, "little")
        self.guard = int.from_bytes(b"\x80" * width, "little")
        unit = bit.__getitem__
        self.needs = [sum(map(unit, faces_used)) for faces_used in used]
        self.cap = 8 * len(used) + 1024
        self._hand, self._points, self._used, self._most_of = hand, points, used, most
        self._classes: dict[int, list[int]] | None = None
        self._best_of: dict[int, int] = {}
        self._by_points: _Scale | None = None
        self._by_cards: _Scale | None = None
        self._fit_masks: list[list[int]] | None = None

    def classes(self) -> dict[int, list[int]]:
        """The melds (indices) of each need, the most points first (then in order)."""
        if self._classes is None:
            classes: dict[int, list[int]] = {}
            for index, need in enumerate(self.needs):
                members = classes.get(need)
                if members is None:
                    classes[need] = [index]
                else:
                    members.append(index)
            points = self._points.__getitem__
            for members in classes.values():
                if len(members) > 1:
                    members.sort(key=points, reverse=True)  # stable, even reversed
            self._classes = classes
        return self._classes

    def points_scale(self) -> _Scale:
        """Opening points: each class weighs what its best member is worth, and a card at
        most its best value."""
        if self._by_points is None:
            points, used, best_of = self._points, self._used, self._best_of
            most = self._most_of.__getitem__
            by_slot: dict[int, list[tuple[int, int, int]]] = {}
            for need, members in self.classes().items():
                top = best_of[need] = members[0]
                value = points[top]
                slack = sum(map(most, used[top])) - value
                slot = ((need & -need).bit_length() - 1) >> 3
                by_slot.setdefault(slot, []).append((need, value, slack))
            self._by_points = _Scale(by_slot, tuple(map(most, self.faces)), self.copies)
        return self._by_points

    def cards_scale(self) -> _Scale:
        """Cards melded: every card weighs one."""
        if self._by_cards is None:
            used = self._used
            by_slot: dict[int, list[tuple[int, int, int]]] = {}
            for need, members in self.classes().items():
                slot = ((need & -need).bit_length() - 1) >> 3
                by_slot.setdefault(slot, []).append((need, len(used[members[0]]), 0))
            self._by_cards = _Scale(by_slot, (1,) * self.width, self.copies)
        return self._by_cards

    def fit_masks(self) -> list[list[int]]:
        """Per slot, indexed by how many copies of its card are left (up to what the hand
        holds), the melds that still fit that card, as bits by meld index."""
        if self._fit_masks is None:
            self._fit_masks = _fit_columns(self.needs, self.copies)
        return self._fit_masks

    def holding(self, faces: Set[int]) -> int:
        """The melds (bits by index) that use a card of one of ``faces``."""
        slots = [slot for slot in map(self._slot_of.get, faces) if slot is not None]
        if not slots:
            return 0
        if len(self.needs) <= _SMALL:  # without the tables a large packing has anyway
            bytes_at = sum(0xFF << (8 * slot) for slot in slots)
            return sum(1 << i for i, need in enumerate(self.needs) if need & bytes_at)
        every = (1 << len(self.needs)) - 1
        melds = 0
        for slot in slots:
            melds |= every & ~self.fit_masks()[slot][0]  # all but those needing none
        return melds

    # --- the best packing ---

    def most(self, scale: _Scale, left: int, enough: int = _UNBOUNDED) -> int:
        """The most a packing of ``left`` weighs on ``scale``, exactly when below ``enough``;
        once some packing reaches ``enough`` the search stops and returns its weight.

        Branch on the lowest card that some meld starts at (the cards below it
        are in no meld that fits): one copy of it stays out of every meld, or
        all of them are in melds, one of them in a meld it starts. The first
        branch, worked out first, also bounds the others: a meld takes that
        card, so what the meld leaves can weigh no more than that branch, and a
        meld that cannot beat the best so far even then is skipped (melds come
        heaviest first, so the rest are skipped with it). So the answer, and
        what is remembered, is still exact.
        """
        live = scale.live
        starts = left & live
        if not starts:
            return 0
        slot = ((starts & -starts).bit_length() - 1) >> 3
        left &= -(1 << (8 * slot))
        best = scale.exact.get(left)
        if best is not None:
            return best
        best = scale.lower.get(left, 0)
        if best >= enough:
            return best
        rest = left - (1 << (8 * slot))
        without = self.most(scale, rest, enough) if rest & live else 0
        pick = -1  # the branch of the best: 0 for one copy out, else the meld's need
        if without > best:
            best, pick = without, 0
        if best < enough:
            guard = self.guard
            guarded = left | guard
            bound = -1
            entries = scale.by_slot[slot]
            if len(entries) > _MASKED:
                entries = scale.candidates(slot, left)
            for need, weight, slack in entries:
                if weight + without <= best:
                    break  # what the meld leaves weighs at most ``without``
                if (guarded - need) & guard != guard:
                    continue
                if bound < 0:
                    held = left.to_bytes(self.width, "little")
                    bound = sum(map(operator.mul, held, scale.weights))
                if bound - slack <= best:
                    continue  # even every card at its most could not beat the best
                rest = left - need
                value = weight + self.most(scale, rest, enough - weight) if rest & live else weight
                if value > best:
                    best, pick = value, need
                    if best >= enough:
                        break
        if len(scale.exact) + len(scale.lower) >= self.cap:
            scale.forget()  # bounded: what is forgotten is found again
        if best >= enough:
            scale.lower[left] = best
            return best
        scale.exact[left] = best
        if pick >= 0:
            scale.choice[left] = pick
        return best

    def best(self) -> tuple[int, list[int]]:
        """The best opening value and the melds (candidate indices) of one packing reaching it."""
        scale = self.points_scale()
        total = want = self.most(scale, self.have)
        left, chosen = self.have, []
        while want > 0:
            starts = left & scale.live
            slot = _lowest_slot(starts)
            left &= -(1 << (8 * slot))
            pick = scale.choice.get(left)
            if pick is None:
                pick = self._branch(scale, left, slot, want)
            if pick:
                index = self._best_of[pick]
                chosen.append(index)
                left -= pick
                want -= self._points[index]
            else:
                left -= 1 << (8 * slot)
        return total, chosen

    def _branch(self, scale: _Scale, left: int, slot: int, want: int) -> int:
        """The branch of a best packing of ``left`` (worth ``want``) when it was not
        remembered: the need of its meld that starts at ``slot``, or 0 for none."""
        guard = self.guard
        guarded = left | guard
        for need, weight, _ in scale.by_slot[slot]:
            if (guarded - need) & guard == guard and weight + self.most(scale, left - need) == want:
                return need
        return 0

    # --- enumeration ---

    def search(
        self, meld: Callable[[int], M], goal: Goal, wanted: int = 0
    ) -> Iterator[tuple[M, ...]]:
        """Every combination the goal wants, each multiset of melds once; with ``wanted``
        (bits by meld index), only those holding one of those melds.

        A combination lists its melds in their order, a meld repeating itself
        when the cards allow, so every multiset has one path; the search runs
        in that order, so the combinations come in the order of their melds. The
        melds that still fit are bits by meld index, and a meld's cards leave
        only the ones that need no more of them than are left. A branch that no
        wanted combination can come from is cut: one that no goal can be met
        from, or one without a wanted meld whose later melds hold none.
        """
        met, reachable = self._tests(goal)
        size = sum(self._hand)
        if not reachable(0, size, self.have):
            return
        needs, points, used = self.needs, self._points, self._used
        slot_of = self._slot_of
        # no meld is worth less than nothing, so a combination at the cap only grows past it:
        # its branch holds nothing wanted
        cap = _UNBOUNDED if goal.below is None else goal.below
        touched: list[list[int] | None] = [None] * len(needs)  # the slots of each meld
        chosen: list[int] = []  # the melds' indices on the path
        # the built melds of the path's first melds: a meld is built when a combination that
        # holds it is met, and most branches of a bounded search meet none
        shown: list[M] = []

        if len(needs) > _SMALL:
            fit_masks = self.fit_masks()

            def fitting(left: int, melds: int, slots: list[int]) -> int:
                """Of ``melds``, those that fit ``left``, which changed only at ``slots``."""
                for slot in slots:
                    masks = fit_masks[slot]
                    melds &= masks[(left >> (8 * slot)) & 0xFF]
                return melds

        else:
            # a few melds are tried one by one for less than the tables of every slot cost
            guard = self.guard

            def fitting(left: int, melds: int, slots: list[int]) -> int:
                """Of ``melds``, those that fit ``left``."""
                guarded = left | guard
                fit = 0
                while melds:
                    lowest = melds & -melds
                    melds ^= lowest
                    if (guarded - needs[lowest.bit_length() - 1]) & guard == guard:
                        fit |= lowest
                return fit

        # depth first, with a stack of the outer branches' states instead of nested
        # generators: a combination is then handed out from one frame, not passed up
        # through a generator per meld in it
        outer: list[tuple[int, int, int, int, bool]] = []
        every = fitting(self.have, (1 << len(needs)) - 1, list(range(self.width)))
        left, melds, worth, cards_left, held = self.have, every, 0, size, not wanted
        while True:
            if not melds or (not held and not melds & wanted):
                # this branch is done (or holds no wanted meld): back to the one around it
                if not outer:
                    return
                left, melds, worth, cards_left, held = outer.pop()
                chosen.pop()
                if len(shown) > len(chosen):
                    shown.pop()
                continue
            lowest = melds & -melds
            index = lowest.bit_length() - 1
            melds ^= lowest
            total = worth + points[index]
            if total >= cap:
                continue
            rest = left - needs[index]
            after = cards_left - len(used[index])
            now = held or bool(lowest & wanted)
            chosen.append(index)
            if now and met(total, after):
                while len(shown) < len(chosen):
                    shown.append(meld(chosen[len(shown)]))
                yield tuple(shown)
            if reachable(total, after, rest):
                slots = touched[index]
                if slots is None:
                    slots = touched[index] = sorted({slot_of[face] for face in used[index]})
                later = fitting(rest, melds | lowest, slots)  # this meld again, or later
                if later:
                    outer.append((left, melds, worth, cards_left, held))
                    left, melds, worth, cards_left, held = rest, later, total, after, now
                    continue
            chosen.pop()
            if len(shown) > len(chosen):
                shown.pop()

    def _tests(
        self, goal: Goal
    ) -> tuple[Callable[[int, int], bool], Callable[[int, int, int], bool]]:
        """Whether a combination worth ``points`` that leaves ``left`` cards is one the goal
        wants; and whether adding melds from ``rest`` (the cards later melds may use) to it
        can make one."""
        keep, least, most_left = goal.keep, goal.points, goal.left
        # with few melds, trying every combination costs less than bounding the branches
        bounded = len(self.needs) > _SMALL
        if keep is not None:

            def cover(points: int, left: int) -> bool:
                return left == keep

            def may_cover(points: int, left: int, rest: int) -> bool:
                missing = left - keep
                if missing <= 0 or not bounded:
                    return missing > 0
                return self.most(self.cards_scale(), rest, missing) >= missing

            return cover, may_cover

        def wanted(points: int, left: int) -> bool:
            return points >= least or left <= most_left

        free = _UNBOUNDED_STEPS

        def may_want(points: int, left: int, rest: int) -> bool:
            nonlocal free
            if points >= least or left <= most_left or not bounded:
                return True  # and so is every larger combination
            if free:
                free -= 1
                return True
            short = least - points
            if self.most(self.points_scale(), rest, short) >= short:
                return True
            missing = left - most_left
            return most_left >= 0 and self.most(self.cards_scale(), rest, missing) >= missing

        return wanted, may_want


_LITTLE: Literal["little"] = "little"
"""The byte order of a packing's integers, typed as ``int.to_bytes`` takes it (for ``map``)."""


def _fit_columns(needs: Sequence[int], copies: bytes) -> list[list[int]]:
    """Per slot, indexed by how many copies of its card are left (0 up to ``copies[slot]``,
    what the hand holds), which needs still fit that card, as bits: the first need is the
    lowest bit."""
    # a row of bytes per need; each slot's column read as binary digits, the last need
    # first, once the counts are turned into digits
    width = len(copies)
    grid = b"".join(map(int.to_bytes, needs, itertools.repeat(width), itertools.repeat(_LITTLE)))
    every = (1 << len(needs)) - 1
    columns = []
    for slot, held in enumerate(copies):
        column = grid[slot::width][::-1]
        masks = []
        for left in range(held + 1):
            mask = int(column.translate(_at_most(left)), 2)
            masks.append(mask)
            if mask == every:  # so it stays with more left
                masks += [every] * (held - left)
                break
        columns.append(masks)
    return columns


@functools.lru_cache(maxsize=128)
def _at_most(copies: int) -> bytes:
    """Turns a count, as a byte, into the digit 1 when it is ``copies`` or fewer, else 0."""
    return bytes(ord("1") if count <= copies else ord("0") for count in range(256))


def _heaviest(entry: tuple[int, int, int]) -> int:
    return -entry[1]


def _lowest_slot(packed: int) -> int:
    """The slot of the lowest non-zero byte of ``packed``."""
    return ((packed & -packed).bit_length() - 1) >> 3


def cache_clear() -> None:
    """Empty the tables this module keeps for every packing (a new process's start)."""
    _at_most.cache_clear()
