"""The openings below the bar of one hand, judged together (000 §The first meld,
"Exception"; RULES-MATRIX L11).

An opening below the bar stands only if the turn can still finish after it,
and a listing asks that of every such opening of the hand: hundreds or
thousands where the hand is rich in melds. Asked one at a time, each is a
finishing search (:mod:`~hand_rummy.finishing`) over the cards the opening
leaves, with its own melds among those to lay off on. Asked together, most of
the searches become lookups, for this reason.

Lay-offs on different melds do not interact, and what a finishing player lays
off on one of the opening's melds is a group of cards that the meld takes one
lay-off after another (:func:`~hand_rummy.meld_growth.lay_off_groups`). So a
way to finish after an opening is a group for each of its melds (perhaps
none), which together make the opening's *growth*, and a way to finish from
the cards left less the growth that lays nothing on the opening's melds; and
each such pair is a way to finish. The second part is a question about cards
alone, on the table as it was before the opening: it is asked once per hand
of cards in a listing, and the answer serves every opening and growth that
reach that hand. The answers are exact, not estimates: this is the finishing
search's own question taken apart, and :func:`~hand_rummy.turn_rules.judge`
still asks it whole (so the tests compare the two).

A way that takes a wild card from the table is not seen by the parts, and is
asked for last. Where the wild comes back from one of the opening's own melds,
paid with the natural card it stood for, the hand and table are as if that meld
had been laid with the natural card in the first place: a way to finish from
the hand after the exchange, with growths on the opening's other melds, is a
way for this opening. Those are questions about cards alone again, mostly
answered already (many openings lead to the same hand), so they are asked
before the search through every exchange; only where they find no way does
that search decide.

Working out a meld's groups can cost more than the searches it saves: a run
among four jokers takes its groups in hundreds of orders and roles, and may
be in a few openings only. So an opening is searched on its own, as the judge
does, until each of its melds has been in a few openings that needed their
growths; a meld's groups are then worked out with a budget of lay-offs that
grows with those openings, and asked for again, with twice the budget, each
time their number doubles. A meld in many openings gets its groups, and a
meld in few costs at most about twice the searches it would have had anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import compress

from hand_rummy.finder import FoundMeld, MeldFinder
from hand_rummy.meld_growth import LayOffMemo, lay_off_codes

__all__ = ["BelowBarOpenings", "Plan"]

Plan = tuple[tuple[int, ...], ...]
"""The hand slots of each new meld of one way to finish the turn."""


_RENT = 4
"""How many openings that need their growths a meld must be in before its groups are
first worked out (the module's docstring says why)."""

_TRIES = 32
"""Lay-offs tried in working out a meld's groups, per opening of the meld that needed
them: in time, about two of the openings' own searches. Of the settings tried on the hard
hands of ``benchmarks/README.md`` (section hunt.py), this one and ``_RENT`` did best."""


class BelowBarOpenings:
    """Whether, and how, the openings of ``hand`` finish the turn.

    ``finish(cards)`` is the way to finish from the hand ``cards`` (a count per
    hand slot) on the table before the opening, as the hand slots of its new
    melds, or ``None``. ``exchanging(melds, cards)``, where a finish may take wild
    cards from the table, says whether ``cards`` go out by a way that takes one
    from the table after laying ``melds``: the parts taken apart cannot see such
    a way and see every other, so it is asked last. ``bought_back(melds, cards)``
    gives the hands after each exchange that takes a wild back from one of ``melds``
    (paid from ``cards``); a way to finish from one of them is such a way. Hands
    of cards are integers with a byte of count per slot that ``hand`` holds, as
    in the finishing search: a growth is taken from what an opening leaves by
    one subtraction. ``memo`` is the caller's
    :class:`~hand_rummy.meld_growth.LayOffMemo`, which its other searches share.
    """

    __slots__ = (
        "_asked",
        "_bought_back",
        "_codes",
        "_exchanging",
        "_finder",
        "_finish",
        "_groups",
        "_guard",
        "_hand",
        "_held",
        "_memo",
        "_size",
        "_unit",
        "_ways",
    )

    def __init__(
        self,
        finder: MeldFinder,
        hand: Sequence[int],
        finish: Callable[[Sequence[int]], Plan | None],
        *,
        memo: LayOffMemo | None = None,
        exchanging: Callable[[Sequence[FoundMeld], Sequence[int]], bool] | None = None,
        bought_back: Callable[
            [Sequence[FoundMeld], Sequence[int]], Iterable[tuple[int, Sequence[int]]]
        ]
        | None = None,
    ) -> None:
        self._finder = finder
        self._finish = finish
        self._exchanging = exchanging
        self._bought_back = bought_back
        self._size = len(hand)
        self._held = list(compress(range(len(hand)), hand))
        self._unit = {slot: 1 << (8 * i) for i, slot in enumerate(self._held)}
        self._guard = int.from_bytes(b"\x80" * len(self._held), "little")
        self._hand = sum(hand[slot] * unit for slot, unit in self._unit.items())
        self._ways: dict[int, Plan | None] = {}
        self._codes: dict[FoundMeld, int] = {}
        # the codes of the groups a meld could take of the rest of the hand, once worked out,
        # and how many openings have needed them so far
        self._groups: dict[FoundMeld, list[int]] = {}
        self._asked: dict[FoundMeld, int] = {}
        # the lay-offs tried on each meld, grown or not: the groups of different melds, and
        # of one meld with a bigger budget, go through many of the same grown melds
        self._memo = LayOffMemo() if memo is None else memo

    def plan(self, melds: Sequence[FoundMeld], alone: Callable[[], Plan | None]) -> Plan | None:
        """The new melds of one way to finish the turn after laying ``melds`` down (their
        growth goes out as lay-offs on them), or ``None`` when there is none.

        ``alone()`` answers the same by a search of this opening's own, with its melds on
        the table: for an opening with a meld whose groups are not worked out (yet).
        """
        left = self._hand - sum(self._code(found) for found in melds)
        plan = self._way(left)
        if plan is not None:
            return plan
        groups = []
        for found in melds:
            # the melds after the first without groups are not asked: the opening is searched
            # on its own whatever they have, so it is no opening that needed theirs
            known = self._growths(found)
            if known is None:
                return alone()
            groups.append(known)
        plan = self._grown(groups, 0, left, left, set())
        if (
            plan is None
            and self._exchanging is not None
            and self._exchanging_way(melds, groups, left)
        ):
            # a way out that takes a wild from the table (one of these melds' own, say), which
            # the parts taken apart do not see; every way without one they have seen
            return ()
        return plan

    def _exchanging_way(
        self, melds: Sequence[FoundMeld], groups: Sequence[list[int]], left: int
    ) -> bool:
        """Whether the cards ``left`` after laying ``melds`` (which take ``groups``) go out
        by a way that takes a wild from the table: first the ways that buy one back from
        these melds and finish with the other melds' growths (questions about cards, mostly
        remembered: the meld bought from is left to take nothing), then any way at all (the
        caller's ``exchanging``)."""
        assert self._exchanging is not None
        cards = self._counts(left)
        if self._bought_back is not None:
            for index, after in self._bought_back(melds, cards):
                coded = self._coded(after)
                if coded is None:
                    continue
                if self._way(coded) is not None:
                    return True
                # (the growths below leave out the one without any, asked just now)
                others = [[] if i == index else known for i, known in enumerate(groups)]
                if self._grown(others, 0, coded, coded, set()) is not None:
                    return True
        return self._exchanging(melds, cards)

    def _grown(
        self,
        groups: Sequence[list[int]],
        at: int,
        left: int,
        rest: int,
        seen: set[tuple[int, int]],
    ) -> Plan | None:
        """A way to finish from ``rest``, what the cards ``left`` keep after a group of each
        of the first ``at`` melds went onto it, once the other melds take a group each."""
        if (at, rest) in seen:
            return None
        seen.add((at, rest))
        guard = self._guard
        guarded = rest | guard
        if at == len(groups) - 1:  # the last meld: each of its groups is a growth to ask about
            plan = None if rest == left else self._way(rest)  # no growth was asked already
            for group in groups[at]:
                if plan is not None:
                    break
                if (guarded - group) & guard == guard:  # no count below zero: the group is held
                    plan = self._way(rest - group)
            return plan
        plan = self._grown(groups, at + 1, left, rest, seen)
        for group in groups[at]:
            if plan is not None:
                break
            if (guarded - group) & guard == guard:
                plan = self._grown(groups, at + 1, left, rest - group, seen)
        return plan

    def _way(self, cards: int) -> Plan | None:
        if cards in self._ways:
            return self._ways[cards]
        plan = self._ways[cards] = self._finish(self._counts(cards))
        return plan

    def _counts(self, cards: int) -> list[int]:
        """The hand of the coded ``cards``, a count per hand slot."""
        counts = [0] * self._size
        for i, slot in enumerate(self._held):
            counts[slot] = (cards >> (8 * i)) & 0xFF
        return counts

    def _coded(self, cards: Sequence[int]) -> int | None:
        """The hand ``cards`` coded, or ``None`` if it holds a card the hand does not."""
        unit = self._unit
        coded = 0
        for slot in compress(range(len(cards)), cards):
            if slot not in unit:
                return None
            coded += cards[slot] * unit[slot]
        return coded

    def _code(self, found: FoundMeld) -> int:
        code = self._codes.get(found)
        if code is None:
            code = self._codes[found] = sum(self._unit[slot] for slot in found.used)
        return code

    def _growths(self, found: FoundMeld) -> list[int] | None:
        known = self._groups.get(found)
        if known is not None:
            return known
        asked = self._asked[found] = self._asked.get(found, 0) + 1
        if asked < _RENT or asked & (asked - 1):
            return None  # asked again at each power of two, with twice the lay-offs
        # what the meld could take of the cards it leaves: those of any opening it is in
        rest = self._hand - self._code(found)
        pool = [slot for i, slot in enumerate(self._held) for _ in range((rest >> (8 * i)) & 0xFF)]
        codes = lay_off_codes(
            self._finder,
            found.meld,
            found.kind,
            pool,
            self._unit,
            limit=asked * _TRIES,
            memo=self._memo,
        )
        if codes is not None:
            self._groups[found] = codes
        return codes
