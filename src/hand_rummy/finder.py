"""The meld finder: every meld a hand can make, the best opening, and going-out covers.

This is the engine's hot path, so it works on count vectors (a hand is 53
counts, indexed by :attr:`Card.index`) and on tables built once per
:class:`~hand_rummy.melds.MeldRules`. Everything it yields is a legal meld by
:func:`~hand_rummy.melds.judge_meld`; the tests check that, and that nothing
legal is missed.

Which of a hand's melds fit in it together, and what they are worth, is a
packing problem over its cards, which :mod:`hand_rummy.packing` solves; the
finder turns each hand into one (its melds as the cards they use and their
points) and each packing back into melds.

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
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence, Set
from typing import TypeVar

import attrs

from hand_rummy.cards import CARDS, JOKER, Card, Rank, Suit
from hand_rummy.errors import expect
from hand_rummy.melds import Meld, MeldRules, judge_meld, set_free_places
from hand_rummy.packing import Counts, Goal, Packing
from hand_rummy.packing import cache_clear as packing_cache_clear
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.shapes import RunPolicy
from hand_rummy.rules.wilds import MeldKind

__all__ = ["FoundMeld", "MeldFinder", "check_found", "counts"]

_T = TypeVar("_T")
_RANKS = tuple(Rank)
_SUITS = range(4)
# (kind, suit or rank, run start, wild mask, set suits): enough to build the meld later
_Spec = tuple[int, int, int, tuple[bool, ...], tuple[int, ...]]
_Candidate = tuple[int, tuple[int, ...], _Spec]
# (wild mask, wild positions, natural positions): where a run's wild cards are
_Places = tuple[tuple[bool, ...], tuple[int, ...], tuple[int, ...]]
_UNJUDGED: _Places = ((), (), ())
"""Marks a wild placement not yet judged, in :attr:`MeldFinder._placements`."""
_NOT = operator.not_
_PLACEMENTS = 8192
"""How many wild placements a finder keeps before it starts afresh (a hand of four jokers
uses about 1,500)."""
_HIGH = 14
_RUN, _SET = 0, 1
"""A spec's kind, as an index into ``_KINDS``: a tuple of plain numbers is left alone by the
garbage collector, which matters when thousands of melds are cached."""
_KINDS = (MeldKind.RUN, MeldKind.SET)


def counts(cards: Iterable[Card]) -> list[int]:
    """A hand as 53 counts, one per face (the two copies of a face count 2)."""
    vector = [0] * 53
    for card in cards:
        vector[card.index] += 1
    return vector


def _face(suit: int, value: int) -> int:
    """The index of the natural card of ``suit`` at run value ``value`` (14 is the Ace)."""
    return suit * 13 + (0 if value == _HIGH else value - 1)


@attrs.frozen(cache_hash=True)  # it keys the below-bar judgments of a listing
class FoundMeld:
    """A meld the hand can make: the table form, its kind, its opening value, the faces used."""

    meld: Meld
    kind: MeldKind
    points: int
    used: tuple[int, ...]
    """Face indices used, one entry per card."""


# --- the caches ---------------------------------------------------------------------------


class _Cache:
    """One bounded store for everything the finders remember, shared by the whole process.

    Two generations approximate least-recently-used at the cost of a dict
    lookup: entries go into the young one, a hit in the old one moves the entry
    back, and when the young one has taken in half the budget the old one is
    forgotten. An entry weighs about what it holds (a list of melds weighs its
    length), so the whole store holds at most ``budget`` units however many
    rulesets, indicators and hands pass through. Keys name what a value depends
    on: a finder's token (its rules, wild cards included) or a ruleset's, and
    the inputs.
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._young: dict[object, tuple[object, int]] = {}
        self._old: dict[object, tuple[object, int]] = {}
        self._weight = 0

    def get(self, key: object) -> object | None:
        entry = self._young.get(key)
        if entry is None:
            entry = self._old.pop(key, None)
            if entry is None:
                return None
            self._store(key, entry)
        return entry[0]

    def put(self, key: object, value: object, weight: int = 1) -> None:
        self._store(key, (value, weight))

    def _store(self, key: object, entry: tuple[object, int]) -> None:
        self._weight += entry[1]
        if self._weight > self.budget // 2:
            self._old, self._young, self._weight = self._young, {}, entry[1]
        self._young[key] = entry

    def clear(self) -> None:
        self._young.clear()
        self._old.clear()
        self._weight = 0


_CACHE = _Cache(budget=60_000)
"""About 300 bytes a unit: some 20 MiB in all."""
_RUN_CODES: dict[RunPolicy, int] = {}
"""A number for each run policy met (there are few)."""
_RUNNABLE: dict[tuple[int, int, int], int] = {}
"""The cards of a suit that can be in a run, by run rules, the suit's cards and a number of
wild cards below the shortest run's length: bounded by those (8,192 suits by a few wild
counts for each of the few run rules)."""
_TOKENS = itertools.count()
_RULESET_TOKENS: dict[Ruleset, int] = {}


def _ruleset_token(ruleset: Ruleset) -> int:
    """A number for ``ruleset``, the same for every indicator, so caches keyed by it are shared.

    Numbers are never reused: forgetting the table (it is bounded) only means
    new numbers, and entries under the old ones age out of the cache.
    """
    token = _RULESET_TOKENS.get(ruleset)
    if token is None:
        if len(_RULESET_TOKENS) >= 256:
            _RULESET_TOKENS.clear()
        token = _RULESET_TOKENS[ruleset] = next(_TOKENS)
    return token


@functools.lru_cache(maxsize=1024)
def _choose(pool: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Distinct ways to pick ``k`` wild cards from ``pool`` (face indices)."""
    if k == 0:
        return ((),)
    return tuple(sorted(set(itertools.combinations(pool, k))))


_POINTS = operator.itemgetter(0)
_USED = operator.itemgetter(1)
"""A candidate's points and the faces it uses, as functions (for ``map``)."""


class _HandMelds:
    """What the finder knows about one hand: its melds, built lazily, and their packing."""

    __slots__ = ("_faces", "_hand", "best", "candidates", "found", "packing", "tried")

    def __init__(self, candidates: list[_Candidate], hand: tuple[int, ...]) -> None:
        self.candidates = candidates
        self._hand = hand
        self.found: list[FoundMeld] | None = None
        self.packing: Packing | None = None
        self.best: tuple[int, list[int]] | None = None
        self.tried = False  # whether the direct search for the best was tried
        self._faces: frozenset[int] | None = None

    def faces(self) -> frozenset[int]:
        """The faces some meld uses."""
        if self._faces is None:
            # the melds seldom leave a held card out: once they hold every one, the rest of
            # thousands of melds can add none (so they are read a block at a time)
            held = len(self._hand) - self._hand.count(0)
            candidates = self.candidates
            faces: set[int] = set()
            for start in range(0, len(candidates), _FACES_BLOCK):
                faces.update(*map(_USED, candidates[start : start + _FACES_BLOCK]))
                if len(faces) == held:
                    break
            self._faces = frozenset(faces)
        return self._faces


_FACES_BLOCK = 128
"""How many melds :meth:`_HandMelds.faces` reads between checks for every held card."""

_ALONE = tuple((face,) for face in range(52))
_DIGITS = bytes([ord("0")] + [ord("1")] * 255)
"""Turns a count, as a byte, into the digit 1 when it is not zero."""


class _Held:
    """The natural cards a hand can play, as the meld generators want them.

    ``natural`` has a bit per natural card (0-51) held that is not wild;
    ``extras`` gives, per natural card, the other faces that play as it (a
    joker counting as an Ace of the indicator suit, a demoted wild), which is
    rare; ``present`` is every natural card some face plays as.
    """

    __slots__ = ("demoted", "extras", "natural", "present")

    def __init__(self, hand: Counts, natural_bits: int, joker_as: int) -> None:
        try:
            # a bit per held face, in C: the counts as bytes, face 51 first, read as binary
            held = int(bytes(hand[51::-1]).translate(_DIGITS), 2)
        except ValueError:
            # a count below zero: the engine's vector for a demoted card it no longer holds
            held = sum(1 << face for face in range(52) if hand[face] > 0)
        self.natural = held & natural_bits
        extras: dict[int, tuple[int, ...]] = {}
        if hand[52] > 0 and joker_as >= 0:
            extras[joker_as] = (52,)
        self.demoted = len(hand) > 53 and any(hand[53:])
        if self.demoted:
            # a demoted wild Ace plays as itself; a demoted joker as an Ace of any suit
            for face in range(52):
                if hand[53 + face] > 0:
                    extras[face] = (*extras.get(face, ()), 53 + face)
            if hand[105] > 0:
                for ace in range(0, 52, 13):
                    extras[ace] = (*extras.get(ace, ()), 105)
        self.extras = extras
        self.present = self.natural
        for face in extras:
            self.present |= 1 << face

    def choices(self, face: int, natural: int = -1) -> tuple[int, ...]:
        """The faces in the hand that can play as the natural card ``face`` (of the natural
        cards, only those in ``natural``, bits by face)."""
        own = _ALONE[face] if (self.natural & natural) >> face & 1 else ()
        more = self.extras.get(face)
        return own + more if more else own

    def row(self, suit: int, cards: int) -> tuple[tuple[int, ...], ...]:
        """The faces that play as each card of ``suit``, of its natural cards only ``cards``
        (bits, the Ace at bit 0)."""
        natural = cards << (13 * suit)
        return tuple(self.choices(13 * suit + i, natural) for i in range(13))

    def key(self, suit: int, cards: int) -> tuple[object, ...]:
        """What :meth:`row` depends on."""
        bits = (self.natural >> (13 * suit)) & cards
        if not self.extras:
            return (bits,)
        return (bits, *(item for item in sorted(self.extras.items()) if item[0] // 13 == suit))


class MeldFinder:
    """Finds melds in count vectors under one :class:`MeldRules` (build with :meth:`of`)."""

    def __init__(self, rules: MeldRules) -> None:
        expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
        self.rules = rules
        ruleset = rules.ruleset
        self._token = next(_TOKENS)
        self._shape = _ruleset_token(ruleset)
        self._wild_faces = tuple(sorted(c.index for c in rules.wilds.wild))
        # a natural face plays as itself unless it is wild; a joker that is not wild plays as
        # an ordinary Ace of the indicator suit (000 §Wild cards)
        self._natural_bits = sum(1 << c.index for c in CARDS[:52] if not rules.is_wild(c))
        joker_as = rules.wilds.joker_as
        self._joker_as = joker_as.index if joker_as is not None and not rules.is_wild(JOKER) else -1
        self._runs = ruleset.runs
        self._run_code = _RUN_CODES.setdefault(ruleset.runs, len(_RUN_CODES))
        self._sets = ruleset.sets
        self._limits: dict[tuple[int, tuple[bool, ...]], bool] = {}
        # per run length and wild places, the placement, or None where the limits forbid it
        self._placements: dict[tuple[int, tuple[int, ...]], _Places | None] = {}
        self._naturals: dict[int, int] = {}
        self._values: dict[tuple[int, int], tuple[int, ...]] = {}
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

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(rules: MeldRules) -> MeldFinder:
        """The finder for ``rules`` (cached: one per ruleset and indicator)."""
        return MeldFinder(rules)

    @staticmethod
    def cache_clear() -> None:
        """Forget every meld, opening and lay-off remembered (benchmarks measure cold with it).

        The memory the finders use is bounded whether or not this is called.
        """
        _CACHE.clear()
        _RUNNABLE.clear()
        _choose.cache_clear()
        packing_cache_clear()

    def _limit_ok(self, kind: int, mask: tuple[bool, ...]) -> bool:
        """Whether the wild limits allow a meld of ``kind`` (``_RUN`` or ``_SET``) with wild
        cards at ``mask``."""
        key = (kind, mask)
        ok = self._limits.get(key)
        if ok is None:
            ok = self.rules.ruleset.wild_limits.allows(_KINDS[kind], mask)
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

    def _hand(self, hand: Counts) -> _HandMelds:
        vector = tuple(hand)
        key = (self._token, vector)
        known = _CACHE.get(key)
        if known is None:
            known = _HandMelds(self._find(hand), vector)
            # the key and the vectors, and per meld its tuple, its built form and its packing
            _CACHE.put(key, known, 16 + 3 * len(known.candidates))
        assert isinstance(known, _HandMelds)
        return known

    def _candidates(self, hand: Counts) -> list[_Candidate]:
        """Every legal meld as a light tuple (points, faces used, how to build it)."""
        return self._hand(hand).candidates

    def _held(self, hand: Counts) -> tuple[_Held, tuple[int, ...]]:
        """The natural cards of ``hand`` as the generators want them, and its wild cards."""
        pool: tuple[int, ...] = ()
        for face in self._wild_faces:
            pool += (face,) * hand[face]
        return _Held(hand, self._natural_bits, self._joker_as), pool

    def _find(self, hand: Counts) -> list[_Candidate]:
        held, pool = self._held(hand)
        out: list[_Candidate] = []
        self._run_candidates(held, pool, out)
        self._set_candidates(held, pool, out)
        if held.demoted:
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
        self,
        held: _Held,
        pool: tuple[int, ...],
        out: list[_Candidate],
        suits: Iterable[int] = _SUITS,
    ) -> None:
        for suit in suits:
            runnable = self._runnable((held.present >> (13 * suit)) & 0x1FFF, len(pool))
            if not runnable:
                continue
            # a suit's runs depend only on its own cards and the wild cards: most turns
            # change one suit, so the others come from the cache
            key = ("runs", self._shape, suit, pool, *held.key(suit, runnable))
            cached = _CACHE.get(key)
            if isinstance(cached, list):
                out.extend(cached)
                continue
            mark = len(out)
            self._suit_runs(suit, held.row(suit, runnable), pool, out)
            _CACHE.put(key, out[mark:], 1 + len(out) - mark)

    def _runnable(self, held: int, wilds: int) -> int:
        """The cards of a suit (bits, the Ace at bit 0) that can be in a run with ``wilds``
        wild cards; 0 when no run is possible.

        A card in a run lies in a window of the shortest run length inside it,
        and that window holds enough natural cards for the wilds to fill: the
        cards of no such window are in no run, so the runs, and the cache key,
        leave them out.
        """
        policy = self._runs
        shortest = policy.min_length
        if not held or held.bit_count() + wilds < shortest:
            return 0
        if wilds >= shortest:
            return held
        key = (self._run_code, held, wilds)
        known = _RUNNABLE.get(key)
        if known is None:
            known = _RUNNABLE[key] = self._windows(held, wilds)
        return known

    def _windows(self, held: int, wilds: int) -> int:
        """:meth:`_runnable` worked out, for fewer wild cards than the shortest run."""
        policy = self._runs
        shortest = policy.min_length
        values = held << 1  # bit v is run value v: the Ace low at 1
        if policy.wrap:
            values |= values << 13  # two laps, so a window may turn the corner
        else:
            if held & 1 and policy.ace_high:
                values |= 1 << _HIGH
            if not policy.ace_low:
                values &= ~2
        cover = 0
        if not wilds:
            starts = values
            for _ in range(shortest - 1):
                starts &= starts >> 1  # bit v stays while v, v + 1, ... are all held
            for offset in range(shortest):
                cover |= starts << offset
        else:
            need = shortest - wilds
            window = (1 << shortest) - 1
            for low in range(values.bit_length()):
                if ((values >> low) & window).bit_count() >= need:
                    cover |= window << low
        cover &= values
        # back to cards: value v is bit v - 1; 14 (and, going round, 14 + v) is the Ace again
        return ((cover >> 1) | (cover >> 14)) & 0x1FFF

    def _suit_runs(
        self,
        suit: int,
        row: tuple[tuple[int, ...], ...],
        pool: tuple[int, ...],
        out: list[_Candidate],
    ) -> None:
        """The runs of one suit; ``row`` holds the faces that play as each of its cards."""
        policy = self._runs
        wrap = policy.wrap
        wild_total = len(pool)
        present: list[tuple[int, ...]] = [()] * 15
        for value in range(1, 15):
            if value == 1 and not (policy.ace_low or wrap):
                continue
            if value == _HIGH and (wrap or not policy.ace_high):
                continue
            present[value] = row[0 if value == _HIGH else value - 1]
        if not wild_total and not wrap:
            self._natural_runs(suit, present, out)
            return
        # place k plays as run value k; with wrap the values go round twice, for K-A-2
        seq = present[:14] + present[1:14] if wrap else present
        missing = sum(1 << k for k in range(1, len(seq)) if not seq[k])
        shortest = policy.min_length
        first = (1 << shortest) - 1
        for start in range(1, 14) if wrap else range(1, 15):
            if ((missing >> start) & first).bit_count() > wild_total:
                continue  # the wilds cannot fill even the shortest run from here
            if not wild_total and not seq[start]:
                continue
            max_len = 13 if wrap else min(13, _HIGH - start + 1)
            gaps = (missing >> start) & ((1 << max_len) - 1)
            beyond = gaps
            for _ in range(wild_total):
                beyond &= beyond - 1  # the wilds may fill the first gaps...
            longest = (beyond & -beyond).bit_length() - 1 if beyond else max_len  # ...not this
            for length in range(shortest, longest + 1):
                window = seq[start : start + length]
                gap_bits = gaps & ((1 << length) - 1)
                self._fill_run(suit, start, window, gaps=gap_bits, pool=pool, out=out)

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
                    spec = (_RUN, suit, start, (False,) * (stop - start + 1), ())
                    for naturals in itertools.product(*window):
                        out.append((points, naturals, spec))
            value = end + 1

    def _fill_run(
        self,
        suit: int,
        start: int,
        window: list[tuple[int, ...]],
        *,
        gaps: int,
        pool: tuple[int, ...],
        out: list[_Candidate],
    ) -> None:
        """Every run on ``window`` (the faces held for each place; ``gaps`` marks the empty
        places as bits), the wild cards of ``pool`` filling the gaps and maybe more places."""
        masks = self._wild_masks(len(window), gaps, len(pool))
        if not masks:
            return
        values = self._run_values(start, len(window))
        flat = self.rules.ruleset.opening_values.wild
        total = sum(values)
        if len(set(pool)) < 2 and all(len(c) < 2 for c in window):
            # the usual case: one face per place and one kind of wild, so one run per mask
            faces = [c[0] if c else -1 for c in window]
            wild = pool[0] if pool else -1
            for mask, wild_at, _ in masks:
                used = faces.copy()
                for at in wild_at:
                    used[at] = wild
                points = total if flat is None else total + sum(flat - values[i] for i in wild_at)
                out.append((points, tuple(used), (_RUN, suit, start, mask, ())))
            return
        for mask, wild_at, natural_at in masks:
            points = total if flat is None else total + sum(flat - values[i] for i in wild_at)
            spec = (_RUN, suit, start, mask, ())
            options = [window[i] for i in natural_at]
            for wilds in _choose(pool, len(wild_at)):
                for naturals in itertools.product(*options):
                    used = list(naturals)
                    for at, wild in zip(wild_at, wilds):
                        used.insert(at, wild)  # ascending places: earlier ones stay put
                    out.append((points, tuple(used), spec))

    def _wild_masks(self, length: int, gap_bits: int, wilds: int) -> list[_Places]:
        """The places a run of ``length`` may hold wild cards (every gap, maybe some held
        places too) within the wild limits: the same for every window and suit, so kept per
        ruleset."""
        key = ("masks", self._shape, length, gap_bits, wilds)
        cached = _CACHE.get(key)
        if isinstance(cached, list):
            return cached
        gaps = tuple(i for i in range(length) if gap_bits >> i & 1)
        if not wilds:  # without wild cards there is nothing to limit
            return [((False,) * length, (), tuple(range(length)))] if not gaps else []
        held = tuple(i for i in range(length) if not gap_bits >> i & 1)
        masks = []
        placements = self._placements
        if len(placements) >= _PLACEMENTS:
            placements.clear()  # bounded, as a finder lives as long as its rules: made again
        # a hand may hold thousands of these, all new to a new process, and windows of one
        # length share most of them: each is made and judged once per finder
        for extra in range(wilds - len(gaps) + 1):
            for swapped in itertools.combinations(held, extra):
                wild_at = tuple(sorted(gaps + swapped)) if gaps and swapped else gaps or swapped
                placement = placements.get((length, wild_at), _UNJUDGED)
                if placement is _UNJUDGED:
                    marks = [False] * length
                    for at in wild_at:
                        marks[at] = True
                    mask = tuple(marks)
                    placement = None
                    if self.rules.ruleset.wild_limits.allows(MeldKind.RUN, mask):
                        natural_at = tuple(itertools.compress(range(length), map(_NOT, marks)))
                        placement = (mask, wild_at, natural_at)
                    placements[length, wild_at] = placement
                if placement is not None:
                    masks.append(placement)
        _CACHE.put(key, masks, 1 + len(masks))
        return masks

    def _run_values(self, start: int, length: int) -> tuple[int, ...]:
        """What each place of the run of ``length`` from run value ``start`` counts toward an
        opening: the rank's value, and an Ace's by where it stands."""
        key = (start, length)
        cached = self._values.get(key)
        if cached is None:
            values = self.rules.ruleset.opening_values
            wrap = self._runs.wrap
            last = length - 1
            places = []
            for position in range(length):
                value = start + position
                # run values go 1 (the Ace low) to 14 (the Ace high); going round, 14 is the
                # Ace and 15 on are 2, 3, ... again
                rank = (value - 1) % 13 + 1 if wrap else 1 if value == _HIGH else value
                if rank != 1:
                    places.append(values.court if rank >= 10 else rank)
                elif position == 0 and last:
                    places.append(values.ace_low)
                elif position == last:
                    places.append(values.ace)
                else:
                    places.append(values.ace_wrapped if wrap else values.ace)
            cached = self._values[key] = tuple(places)
        return cached

    def _set_candidates(
        self, held: _Held, pool: tuple[int, ...], out: list[_Candidate], ranks: int = 0x1FFF
    ) -> None:
        """The sets of the ranks in ``ranks`` (bit ``rank - 1``)."""
        policy = self._sets
        values = self.rules.ruleset.opening_values
        wild_total = len(pool)
        ranks &= _ranks_held(held.present, self._set_naturals(wild_total))
        while ranks:
            at = (ranks & -ranks).bit_length() - 1
            ranks &= ranks - 1
            by_suit: tuple[tuple[int, ...], ...] | None = None
            if held.extras:
                by_suit = tuple(held.choices(s * 13 + at) for s in range(4))
                key: tuple[object, ...] = ("sets", self._shape, at, pool, *by_suit)
            else:
                # only natural cards play as themselves: the four suits' bits of the rank say
                # which are held (bit s is suit s, taken from bit 13 * s + at)
                natural = held.natural
                suits_held = (
                    natural >> at & 1
                    | natural >> (at + 12) & 2
                    | natural >> (at + 24) & 4
                    | natural >> (at + 36) & 8
                )
                key = ("sets", self._shape, at, pool, suits_held)
            cached = _CACHE.get(key)
            if isinstance(cached, list):
                out.extend(cached)
                continue
            rank = _RANKS[at]
            if by_suit is None:
                by_suit = tuple(held.choices(s * 13 + at) for s in range(4))
            mark = len(out)
            suits = [(s, c) for s, c in enumerate(by_suit) if c]
            natural_value = values.of(rank)
            wild_value = values.wild if values.wild is not None else natural_value
            for size in range(policy.min_size, policy.max_size + 1):
                for wild_count in range(min(wild_total, size) + 1):
                    natural_count = size - wild_count
                    if natural_count > len(suits) or natural_count < 1:
                        continue
                    mask = (False,) * natural_count + (True,) * wild_count
                    if not self._limit_ok(_SET, mask):
                        continue
                    points = natural_count * natural_value + wild_count * wild_value
                    for chosen in itertools.combinations(suits, natural_count):
                        spec = (_SET, int(rank), 0, mask, tuple(s for s, _ in chosen))
                        for wilds in _choose(pool, wild_count):
                            for faces in itertools.product(*(c for _, c in chosen)):
                                out.append((points, (*faces, *wilds), spec))
            _CACHE.put(key, out[mark:], 1 + len(out) - mark)

    def _set_naturals(self, wilds: int) -> int:
        """The fewest natural cards a set can hold beside at most ``wilds`` wild cards, within
        the wild limits (5 when there is no such set): a rank held in fewer suits has none,
        so its sets are not looked for."""
        known = self._naturals.get(wilds)
        if known is None:
            policy = self._sets
            known = 5
            for size in range(policy.min_size, policy.max_size + 1):
                for wild_count in range(min(wilds, size) + 1):
                    natural = size - wild_count
                    mask = (False,) * natural + (True,) * wild_count
                    if 1 <= natural < known and self._limit_ok(_SET, mask):
                        known = natural
            self._naturals[wilds] = known
        return known

    def _build(self, candidate: _Candidate) -> FoundMeld:
        key = ("meld", self._shape, candidate)
        built = _CACHE.get(key)
        if not isinstance(built, FoundMeld):
            built = self._make(candidate)
            _CACHE.put(key, built, 2)
        return built

    def _make(self, candidate: _Candidate) -> FoundMeld:
        points, used, (code, key, start, mask, suits) = candidate
        kind = _KINDS[code]
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

    def meld_slots(self, hand: Counts) -> list[tuple[int, ...]]:
        """The hand slots each legal meld uses, in the order of :meth:`melds` (none is built)."""
        return list(map(_USED, self._hand(hand).candidates))

    def melds_using(self, hand: Counts, slot: int) -> list[tuple[int, ...]]:
        """The hand slots of each legal meld that uses hand ``slot``, in the order of
        :meth:`meld_slots` (which this filters).

        Only the melds a card can be in are looked at: the runs of the suit it
        plays in and the sets of its rank, unless it is wild and may be in any.
        """
        if slot in self._wild_faces:
            return [c[1] for c in self._hand(hand).candidates if slot in c[1]]
        if slot == 105:
            suits: Iterable[int] = _SUITS  # a demoted joker plays as an Ace of any suit
            face = 0
        else:
            face = self._joker_as if slot == 52 else slot % 53
            if face < 0:
                return []
            suits = (face // 13,)
        held, pool = self._held(hand)
        out: list[_Candidate] = []
        self._run_candidates(held, pool, out, suits)
        self._set_candidates(held, pool, out, 1 << face % 13)
        return [
            c[1] for c in out if slot in c[1] and (not held.demoted or self._demoted_fit(hand, c))
        ]

    def without_wilds(self, hand: Counts) -> list[int]:
        """``hand`` without its wild cards. Each meld of what is left is a meld of the whole
        hand, and built the same; without the wild cards' many places they are few."""
        natural = list(hand)
        for face in self._wild_faces:
            natural[face] = 0
        return natural

    def slots_in_melds(self, hand: Counts) -> frozenset[int]:
        """The hand slots that some legal meld uses."""
        return self._hand(hand).faces()

    def melds(self, hand: Counts) -> list[FoundMeld]:
        """Every legal meld the hand can make, runs first, in a fixed order."""
        known = self._hand(hand)
        if known.found is None:
            known.found = [self._build(c) for c in known.candidates]
        return list(known.found)

    def iter_melds(self, hand: Counts) -> Iterator[FoundMeld]:
        """The melds of :meth:`melds`, in its order, each built when it is reached: a caller
        that stops after a few (the first legal lay-down) does not wait for the thousands a
        hand of wild cards has."""
        known = self._hand(hand)
        if known.found is not None:
            yield from known.found
            return
        built = []
        for candidate in known.candidates:
            found = self._build(candidate)
            built.append(found)
            yield found
        known.found = built

    def iter_melds_using(self, hand: Counts, slots: Set[int]) -> Iterator[FoundMeld]:
        """The melds of :meth:`melds` that use a card of one of hand ``slots``, in its order;
        only those are built (a card that must be melded is in few of a hand's melds)."""
        known = self._hand(hand)
        meld = self._meld_of(known)
        for index, candidate in enumerate(known.candidates):
            if not slots.isdisjoint(candidate[1]):
                yield meld(index)

    def melds_at(self, hand: Counts, indices: Iterable[int]) -> tuple[FoundMeld, ...]:
        """The melds of :meth:`melds` at ``indices`` (only those are built)."""
        meld = self._meld_of(self._hand(hand))
        return tuple(meld(index) for index in indices)

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
        key = ("layoffs", self._token, meld, kind)
        cached = _CACHE.get(key)
        if isinstance(cached, dict):
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
            for target, new_mask, first in self._run_ends(plays, mask):
                for face in naturals_as(target):
                    add(face, None, False)
                if any(self._limit_ok(_RUN, m) for m in self._readings(first, new_mask)):
                    for face in self._wild_faces:
                        add(face, target, False)
        elif len(meld) < self._sets.max_size:
            rank = plays[0].rank
            assert rank is not None
            free = set_free_places(meld, rules)
            natural_suits = {plays[i].suit for i in range(len(meld)) if i not in free}
            wilds = sum(wild_at)
            restricted = rules.ruleset.layoff.two_plus_wild_rule and (len(meld) - wilds, wilds) == (
                2,
                1,
            )
            for suit in range(4):
                if Suit(suit) not in natural_suits:
                    for face in naturals_as(CARDS[suit * 13 + rank - 1]):
                        add(face, None, restricted)
            if self._limit_ok(_SET, (*mask, True)):
                for face in self._wild_faces:
                    add(face, None, restricted)
        table = {face: tuple(options) for face, options in found.items()}
        _CACHE.put(key, table, 1 + len(table))
        return table

    def _readings(self, first: Card, mask: tuple[bool, ...]) -> list[tuple[bool, ...]]:
        """The wild masks of a run that starts with a card playing as ``first`` (``mask`` in
        the order laid), one per way to read it: a run of all thirteen ranks may put its Ace
        at either end where the rules allow both, and a wild card at one end of it is inside
        in the other reading."""
        policy = self._runs
        if len(mask) != 13 or policy.wrap or not (policy.ace_low and policy.ace_high):
            return [mask]
        # the Ace moves from the front to the back, or from the back to the front
        other = mask[1:] + mask[:1] if first.rank is Rank.ACE else mask[-1:] + mask[:-1]
        return [mask, other]

    def _run_ends(
        self, plays: Sequence[Card], mask: tuple[bool, ...]
    ) -> list[tuple[Card, tuple[bool, ...], Card]]:
        """The cards just below and just above a run, each with the wild mask if a wild went
        there and what the first card of the grown run plays as."""
        policy = self._runs
        suit = plays[0].suit
        assert suit is not None
        length = len(plays)
        first, last = plays[0].rank, plays[-1].rank
        assert first is not None and last is not None
        below_mask, above_mask = (True, *mask), (*mask, True)
        ends: list[tuple[Card, tuple[bool, ...], Card]] = []
        if policy.wrap:
            if length < 13:
                below = CARDS[_face(suit, (int(first) - 2) % 13 + 1)]
                ends.append((below, below_mask, below))
                ends.append((CARDS[_face(suit, int(last) % 13 + 1)], above_mask, plays[0]))
            return ends
        low = 1 if first is Rank.ACE else int(first)
        high = _HIGH if last is Rank.ACE and length > 1 else int(last)
        if length >= 13:
            return ends  # every rank is in it: a run never holds the same card twice
        if low > 2 or (low == 2 and policy.ace_low):
            below = CARDS[_face(suit, low - 1)]
            ends.append((below, below_mask, below))
        if high < 13 or (high == 13 and policy.ace_high):
            ends.append((CARDS[_face(suit, high + 1)], above_mask, plays[0]))
        return ends

    # --- combinations ---------------------------------------------------------------

    def _packing(self, hand: Counts, known: _HandMelds) -> Packing:
        if known.packing is None:
            candidates = known.candidates
            known.packing = Packing(
                hand,
                list(map(_POINTS, candidates)),
                list(map(_USED, candidates)),
                self._most,
                known.faces(),
            )
        return known.packing

    def _meld_of(self, known: _HandMelds) -> Callable[[int], FoundMeld]:
        """The found meld of each candidate, built the first time a combination holds it."""
        if known.found is not None:
            return known.found.__getitem__
        candidates = known.candidates
        built: list[FoundMeld | None] = [None] * len(candidates)

        def meld(index: int) -> FoundMeld:
            found = built[index]
            if found is None:
                found = built[index] = self._build(candidates[index])
            return found

        return meld

    def combinations(
        self,
        hand: Counts,
        found: Sequence[FoundMeld] | None = None,
        *,
        min_points: int = 0,
        max_left: int | None = None,
        using: Set[int] = frozenset(),
        below: int | None = None,
    ) -> Iterator[tuple[FoundMeld, ...]]:
        """Every non-empty combination of melds that the hand can hold at once.

        A combination is a multiset of melds: when the hand holds two copies of
        a meld's cards, the meld may come twice, and no combination comes twice
        (in another order either). With ``min_points`` or ``max_left``, only the
        combinations worth at least ``min_points`` or leaving at most
        ``max_left`` cards in hand (either will do), searched with both bounds
        to skip hopeless branches. With ``using``, only the combinations with a
        meld that uses one of those hand slots (a card taken this turn that
        must be melded, say). With ``below``, only the combinations worth less
        than that (the openings below a bar), in the order they would have come.
        """
        bounded = min_points > 0 or max_left is not None
        goal = Goal(min_points, -1 if max_left is None else max_left, below=below)
        if found is not None:
            options = list(dict.fromkeys(found))  # the same meld twice is one option
            packing = Packing(
                hand, [f.points for f in options], [f.used for f in options], self._most
            )
            return packing.search(options.__getitem__, goal, packing.holding(using))
        known = self._hand(hand)
        if bounded and not self._may_reach(hand, known, min_points, max_left):
            return iter(())
        if using and using.isdisjoint(known.faces()):
            return iter(())  # no meld uses those cards
        packing = self._packing(hand, known)
        return packing.search(self._meld_of(known), goal, packing.holding(using))

    def _may_reach(
        self, hand: Counts, known: _HandMelds, min_points: int, max_left: int | None
    ) -> bool:
        """Cheap bounds first: can some combination be worth ``min_points`` or leave at most
        ``max_left`` cards?"""
        if min_points <= 0:
            return True  # every combination is worth that much
        faces = known.faces()
        if max_left is not None and sum(hand) - sum(hand[face] for face in faces) <= max_left:
            return True
        if sum(hand[face] * self._most[face] for face in faces) < min_points:
            return False
        direct = self._direct_best(hand, known)
        # otherwise the search bounds its own branches, once it is big enough to need it
        return direct is None or direct[0] >= min_points

    def opening_bound(self, hand: Counts) -> int:
        """An upper bound on any opening: every card that is in some meld, at its best value."""
        faces = self._hand(hand).faces()
        return sum(hand[face] * self._most[face] for face in faces)

    def _best(self, hand: Counts, known: _HandMelds) -> tuple[int, list[int]]:
        """The best opening value and the melds (candidate indices) of one way to reach it."""
        best = self._direct_best(hand, known)
        if best is None:
            best = known.best = self._packing(hand, known).best()
        return best

    def _direct_best(self, hand: Counts, known: _HandMelds) -> tuple[int, list[int]] | None:
        """The best opening if known, or found by :func:`_best_directly` (tried once)."""
        if known.best is None and not known.tried:
            known.tried = True
            known.best = _best_directly(hand, known.candidates)
        return known.best

    def best_opening_value(self, hand: Counts) -> int:
        """The value of the best opening (the search of :meth:`best_opening`, remembered)."""
        return self._best(hand, self._hand(hand))[0]

    def best_opening(self, hand: Counts) -> tuple[int, tuple[FoundMeld, ...]]:
        """The highest opening value the hand can lay down at once, and one way to do it."""
        known = self._hand(hand)
        points, chosen = self._best(hand, known)
        melds = sorted((self._build(known.candidates[i]) for i in chosen), key=_by_points)
        return points, tuple(melds)

    def covers(self, hand: Counts, keep: int = 0) -> Iterator[tuple[FoundMeld, ...]]:
        """Combinations of melds that use every card of the hand but ``keep`` of them."""
        known = self._hand(hand)
        faces = known.faces()
        if sum(hand) - sum(hand[face] for face in faces) > keep:
            return iter(())  # some card is in no meld at all
        return self._packing(hand, known).search(self._meld_of(known), Goal(keep=keep))


_TRIES = 50
"""How many melds the direct search may try to take before it leaves the hand to a packing."""


def _best_directly(hand: Counts, candidates: Sequence[_Candidate]) -> tuple[int, list[int]] | None:
    """The best opening found by trying every multiset of melds that fits, or ``None`` when
    that takes more than ``_TRIES`` tries (the packing's search is then cheaper).

    Most hands have a few melds that hardly combine, and setting up a packing costs
    more than trying them all.
    """
    if len(candidates) > _TRIES:
        return None
    left = list(hand)
    order = sorted(range(len(candidates)), key=lambda i: -candidates[i][0])
    best_total, best = 0, []
    chosen: list[int] = []
    tries = 0

    def search(start: int, total: int) -> bool:
        nonlocal best_total, best, tries
        if total > best_total:
            best_total, best = total, list(chosen)
        tries += len(order) - start
        if tries > _TRIES:
            return False
        for k in range(start, len(order)):
            index = order[k]
            points, used, _ = candidates[index]
            if _take(left, used):
                chosen.append(index)
                finished = search(k, total + points)  # from k again: the meld may come twice
                chosen.pop()
                _give(left, used)
                if not finished:
                    return False
        return True

    return (best_total, best) if search(0, 0) else None


def _take(left: list[int], used: Sequence[int]) -> bool:
    """Take ``used`` from ``left`` if every card is there (and leave ``left`` as it was if not)."""
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


def _by_points(found: FoundMeld) -> int:
    return -found.points


def _ranks_held(present: int, least: int) -> int:
    """The ranks (bit ``rank - 1``) that the natural cards ``present`` hold in ``least`` suits."""
    c, d, h, s = present & 0x1FFF, present >> 13 & 0x1FFF, present >> 26 & 0x1FFF, present >> 39
    if least <= 1:
        return c | d | h | s
    if least == 2:
        return (c & (d | h | s)) | (d & (h | s)) | (h & s)
    if least == 3:
        return (c & d & (h | s)) | (h & s & (c | d))
    return c & d & h & s if least == 4 else 0


def check_found(found: FoundMeld, rules: MeldRules) -> bool:
    """Whether the exact checker agrees that ``found`` is a legal meld (used by the tests)."""
    judged = judge_meld(found.meld, rules)
    return judged.ok and judged.points == found.points
