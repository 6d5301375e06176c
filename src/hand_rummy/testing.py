"""Hypothesis strategies for cards, rulesets and legal melds, for testing code built on hand-rummy.

This module needs `hypothesis <https://hypothesis.readthedocs.io>`_, which is not a
runtime dependency: install the ``test`` extra (``pip install 'hand-rummy[test]'``).

>>> from hypothesis import given, settings
>>> from hand_rummy import judge_meld
>>> @settings(max_examples=20, deadline=None)
... @given(st.data(), meld_rules())
... def test_runs_are_legal(data, rules):
...     assert judge_meld(data.draw(runs(rules)), rules).ok
>>> test_runs_are_legal()
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from hand_rummy.actions import Action, ClaimRedeal, Exchange, LayDown, LayOff, PassRedeal
from hand_rummy.cards import CARDS, JOKER, NATURAL_CARDS, Card, Rank, Suit, build_deck
from hand_rummy.errors import HandRummyError, InvalidStateError
from hand_rummy.extras import require
from hand_rummy.melds import Meld, MeldRules
from hand_rummy.round import Phase, Round
from hand_rummy.rules import PRESETS, MeldKind, Ruleset, build, variants_for

# hypothesis is a test tool, not a dependency: without it, the error names the extra that
# brings it, as for the other extras
require("hypothesis", "test", "hand_rummy.testing")

from hypothesis import assume  # noqa: E402 (after the check above)
from hypothesis import strategies as st  # noqa: E402

__all__ = [
    "cards",
    "hands",
    "meld_rules",
    "melds",
    "natural_cards",
    "player_counts",
    "random_action",
    "random_game",
    "rounds",
    "rulesets",
    "runs",
    "sets",
]

_HIGH_ACE = 14


def cards() -> st.SearchStrategy[Card]:
    """Any card face, the joker included."""
    return st.sampled_from(CARDS)


def natural_cards() -> st.SearchStrategy[Card]:
    """Any of the 52 natural faces (never the joker)."""
    return st.sampled_from(NATURAL_CARDS)


@st.composite
def rulesets(draw: st.DrawFn, presets: Sequence[str] | None = None) -> Ruleset:
    """A preset (one of ``presets``, by default any) with a random set of its variants applied.

    Variant combinations that :func:`~hand_rummy.rules.build` refuses are rejected.
    """
    name = draw(st.sampled_from(sorted(presets if presets is not None else PRESETS)))
    names = [v.name for v in variants_for(name)]
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=4)) if names else []
    try:
        return build(name, chosen)
    except HandRummyError:
        assume(False)
        raise  # pragma: no cover - assume(False) never returns


@st.composite
def meld_rules(draw: st.DrawFn, presets: Sequence[str] | None = None) -> MeldRules:
    """A ruleset from :func:`rulesets` with a valid indicator card when its rules turn one."""
    ruleset = draw(rulesets(presets))
    if not ruleset.uses_indicator:
        return MeldRules.of(ruleset)
    indicator = draw(natural_cards())
    try:
        return MeldRules.of(ruleset, indicator)
    except HandRummyError:
        assume(False)
        raise  # pragma: no cover - assume(False) never returns


def _natural(face: Card, rules: MeldRules) -> Card:
    """The card that plays ``face`` as a natural card here: itself, or a joker counting as it."""
    if not rules.is_wild(face):
        return face
    if rules.wilds.joker_as == face and not rules.is_wild(JOKER):
        return JOKER
    assume(False)
    raise AssertionError("unreachable")  # pragma: no cover


@st.composite
def _with_wild(
    draw: st.DrawFn,
    faces: list[Card],
    kind: MeldKind,
    rules: MeldRules,
    wild: bool | None,
) -> Meld:
    """``faces`` as natural cards, one of them maybe replaced by a wild with its role declared."""
    cards = [_natural(face, rules) for face in faces]
    wild_faces = sorted(rules.wilds.wild)
    limits = rules.ruleset.wild_limits
    allowed = [
        i
        for i in range(len(faces))
        if not limits.check(kind, tuple(j == i for j in range(len(faces))), "meld")
    ]
    use_wild = bool(wild_faces and allowed) and (draw(st.booleans()) if wild is None else wild)
    if wild and not use_wild:
        assume(False)
    if not use_wild:
        return Meld(tuple(cards), (None,) * len(cards))
    position = draw(st.sampled_from(allowed))
    cards[position] = draw(st.sampled_from(wild_faces))
    roles = tuple(face if i == position else None for i, face in enumerate(faces))
    return Meld(tuple(cards), roles)


@st.composite
def runs(
    draw: st.DrawFn, rules: MeldRules, *, wild: bool | None = None, max_length: int = 13
) -> Meld:
    """A legal run, written low to high; ``wild`` asks for (True) or forbids (False) a wild.

    A wild card replaces one card and has its role declared; its place respects the
    ruleset's wild limits. Runs are at most ``max_length`` cards long.
    """
    policy = rules.ruleset.runs
    suit = draw(st.sampled_from(list(Suit)))
    top = min(max_length, 13)
    assume(policy.min_length <= top)
    length = draw(st.integers(policy.min_length, top))
    if policy.wrap:
        start = draw(st.integers(1, 13))
        values = [(start - 1 + k) % 13 + 1 for k in range(length)]
    else:
        low = 1 if policy.ace_low else 2
        high = _HIGH_ACE if policy.ace_high else 13
        assume(high - low + 1 >= length)
        start = draw(st.integers(low, high - length + 1))
        values = [start + k for k in range(length)]
    faces = [Card(Rank.ACE if v == _HIGH_ACE else Rank(v), suit) for v in values]
    return draw(_with_wild(faces, MeldKind.RUN, rules, wild))


@st.composite
def sets(draw: st.DrawFn, rules: MeldRules, *, wild: bool | None = None) -> Meld:
    """A legal set in any order; ``wild`` asks for (True) or forbids (False) a wild card."""
    policy = rules.ruleset.sets
    rank = draw(st.sampled_from(list(Rank)))
    top = min(policy.max_size, 4)
    assume(policy.min_size <= top)
    size = draw(st.integers(policy.min_size, top))
    suits = draw(st.permutations(list(Suit)))[:size]
    faces = [Card(rank, suit) for suit in suits]
    return draw(_with_wild(faces, MeldKind.SET, rules, wild))


def melds(
    rules: MeldRules, *, wild: bool | None = None, max_length: int = 13
) -> st.SearchStrategy[Meld]:
    """A legal run or set (see :func:`runs` and :func:`sets`)."""
    return st.one_of(runs(rules, wild=wild, max_length=max_length), sets(rules, wild=wild))


@st.composite
def hands(draw: st.DrawFn, size: int, ruleset: Ruleset | None = None) -> tuple[Card, ...]:
    """``size`` cards dealt from the deck of ``ruleset`` (by default two packs and two jokers)."""
    deck = build_deck(2, 2) if ruleset is None else ruleset.deck.cards()
    dealt = draw(st.permutations(deck))[:size]
    assume(len(dealt) == size)
    return tuple(physical.card for physical in dealt)


def player_counts(ruleset: Ruleset) -> list[int]:
    """Every number of players ``ruleset`` allows, fewest first."""
    players = ruleset.players
    return [n for n in range(players.minimum, players.maximum + 1) if players.allows(n)]


def random_action(game: Round, rng: random.Random, *, meld_bias: float = 0.75) -> Action:
    """A legal action of ``game`` chosen with ``rng``, for random play.

    Uniform over the legal actions, except that melding actions (lay-downs,
    lay-offs, exchanges) are preferred with probability ``meld_bias`` so that
    random rounds reach openings and finishes, and a redeal is claimed only
    one time in ten. Raises :class:`~hand_rummy.errors.InvalidStateError` when
    a round that is not over has no legal action.
    """
    actions = list(game.legal_actions())
    if not actions:
        raise InvalidStateError(f"no legal action in a round in phase {game.phase.value}")
    if game.phase is Phase.REDEAL:
        keep = [a for a in actions if isinstance(a, PassRedeal)]
        claim = [a for a in actions if isinstance(a, ClaimRedeal)]
        if keep and (not claim or rng.random() < 0.9):
            return keep[0]
    melding = [a for a in actions if isinstance(a, (LayDown, LayOff, Exchange))]
    if melding and rng.random() < meld_bias:
        return rng.choice(melding)
    return rng.choice(actions)


def random_game(
    game: Round, rng: random.Random, max_steps: int = 3000, *, meld_bias: float = 0.75
) -> Iterator[Round]:
    """The rounds reached by playing :func:`random_action` from ``game``, ``game`` first.

    Stops when the round is over or after ``max_steps`` actions.
    """
    yield game
    for _ in range(max_steps):
        if game.is_over:
            return
        game = game.apply(random_action(game, rng, meld_bias=meld_bias))
        yield game


@st.composite
def rounds(
    draw: st.DrawFn,
    ruleset: Ruleset | None = None,
    *,
    players: int | None = None,
    max_steps: int = 200,
    presets: Sequence[str] | None = None,
) -> Round:
    """A round dealt with a drawn seed and played at random for up to ``max_steps`` actions.

    The ruleset is ``ruleset`` or one from :func:`rulesets` (of ``presets``); the
    number of players is ``players`` or one the ruleset allows. The number of
    actions is drawn too, so some rounds are fresh deals and some are over.
    """
    chosen = ruleset if ruleset is not None else draw(rulesets(presets))
    count = players if players is not None else draw(st.sampled_from(player_counts(chosen)))
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    dealer = draw(st.integers(0, count - 1), label="dealer")
    steps = draw(st.integers(0, max_steps), label="steps")
    dealt = Round.deal(chosen, players=count, seed=seed, dealer=dealer)
    *_, last = random_game(dealt, random.Random(seed), steps)
    return last
