"""The fixed action encoding: masks, ids and the meld-by-meld lay-downs against the engine.

Random rounds of every preset are played through the encoding itself (a random legal id at
each step). At every position the mask must hold exactly the first ids of the legal
actions, every legal action must come back from its ids, and walking every id of the mask
(a lay-down's ids to the end) must reach every legal action once and nothing else, each
accepted by ``apply``. Crafted positions add many lay-downs, demoted cards and bad input.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hand_rummy as hr
from hand_rummy import encoding
from hand_rummy.encoding import ActionSpace, Decision, Fill
from hand_rummy.encoding.layout import Layout
from hand_rummy.encoding.shapes import meld_of_tokens, meld_tokens
from hand_rummy.encoding.table_moves import lay_off_code
from hand_rummy.testing import player_counts

c = hr.parse_card

FULL_WALK_LIMIT = 400
"""Walk every path of the trie when a position has at most this many lay-downs."""


def deal(
    ruleset: hr.Ruleset, hands: list[str], indicator: str | None = None, top: str = ""
) -> hr.Round:
    """A round from the given hands; the rest of the deck is the stock, ``top`` drawn first."""
    pool = [p.card for p in ruleset.deck.cards()]
    fixed = [list(hr.parse_cards(h)) for h in hands]
    shown = list(hr.parse_cards(indicator)) if indicator else []
    drawn = list(hr.parse_cards(top))
    for group in (*fixed, shown, drawn):
        for card in group:
            pool.remove(card)
    game = hr.Round.from_deal(ruleset, fixed, pool + drawn[::-1], indicator=indicator)
    return game.keep_deal() if game.phase is hr.Phase.REDEAL else game


def lay(game: hr.Round, *melds: str) -> hr.LayDown:
    judged = [hr.judge_meld(hr.Meld.of(text), game.rules).meld for text in melds]
    assert all(m is not None for m in judged)
    return hr.LayDown(tuple(m for m in judged if m is not None))


def reach(decision: Decision) -> Iterable[hr.Action]:
    """Every action reached by walking every id of the mask, lay-downs to the end."""
    ids = decision.legal_ids()
    assert ids, f"a dead end after {decision.pending}"
    for action_id in ids:
        step = decision.decode(action_id)
        if isinstance(step, Decision):
            assert step.in_lay_down
            yield from reach(step)
        else:
            yield step


def check_position(game: hr.Round, rng: random.Random) -> hr.Action:
    """Every property of one position; returns an action chosen by a random walk of ids."""
    view = game.view(game.turn)
    space = ActionSpace.of(game.ruleset, game.players)
    decision = space.decision(view)
    legal = list(game.legal_actions())
    mask = decision.action_mask()
    ids = decision.legal_ids()
    assert len(mask) == space.size
    assert [i for i, bit in enumerate(mask) if bit] == list(ids)
    firsts = set()
    lay_downs = [a for a in legal if isinstance(a, hr.LayDown)]
    for action in legal:
        path = decision.encode(action)
        firsts.add(path[0])
        assert space.walk(path, decision) == action
        if isinstance(action, hr.LayDown):
            assert path[-1] == space.layout.submit
            for meld in action.melds:
                tokens = meld_tokens(meld, decision.rules, space.layout)
                assert meld_of_tokens(tokens, decision.rules, space.layout) == meld
        else:
            assert len(path) == 1
    assert firsts == set(ids), "the mask is not the set of the legal actions' first ids"
    # ``means`` ties an id to the one single action it stands for, without a listing
    singles = {decision.encode(a)[0]: a for a in legal if not isinstance(a, hr.LayDown)}
    for action_id, action in singles.items():
        assert decision.means(action_id, action)
        assert not any(decision.means(other, action) for other in ids if other != action_id)
    assert not any(decision.means(path[0], a) for a in lay_downs for path in [decision.encode(a)])
    # listed from the round itself, the decision offers the same ids and means the same
    held = space.decision_in(game)
    assert held == decision
    assert held.action_mask() == mask
    assert {held.decode(i) for i in ids if not isinstance(held.decode(i), Decision)} == {
        decision.decode(i) for i in ids if not isinstance(decision.decode(i), Decision)
    }
    if len(lay_downs) <= FULL_WALK_LIMIT:
        reached = list(reach(decision))
        assert len(reached) == len(legal)
        assert set(reached) == set(legal)
        for action in reached:
            assert game.check(action).ok
    step: encoding.Step = decision
    while isinstance(step, Decision):
        step = step.decode(rng.choice(step.legal_ids()))
    assert step in legal
    return step


def play_through_encoding(ruleset: hr.Ruleset, players: int, seed: int, steps: int) -> int:
    game = hr.Round.deal(ruleset, players, seed)
    rng = random.Random(seed)
    for done in range(steps):
        if game.is_over:
            return done
        game = game.apply(check_position(game, rng))
    return steps


def test_means_reads_an_id_without_judging_it() -> None:
    """``Decision.means`` says which action an id stands for, legal or not, and nothing while
    a lay-down is being chosen: the caller's round judges the action. Seat 0, after the
    starter's bare discard and its own draw, holds no K♠, yet the K♠'s discard id stands
    for its discard."""
    game = deal(
        hr.rulesets.classic,
        [
            "10H JH QH KH 5S 5D 5C 5H 9D 9C 9H JD QD KD",
            "3C 4C 5C 6C 7C 8C 9S 10S JS QS KC AD 2D 3D 2S",
        ],
        top="4S",
    )
    game = game.apply(hr.Discard(hr.Card.parse("2S"))).apply(hr.DrawStock())
    assert game.turn == 0 and game.phase is hr.Phase.PLAY
    space = ActionSpace.of(game.ruleset, game.players)
    decision = space.decision(game.view(game.turn))
    king, diamond = hr.Discard(hr.Card.parse("KS")), hr.Discard(hr.Card.parse("KD"))
    assert not game.check(king).ok and game.check(diamond).ok
    assert decision.means(space.layout.discard(king.card), king)
    assert not decision.means(space.layout.discard(diamond.card), king)
    opening = lay(game, "10H JH QH KH", "5S 5D 5C 5H", "9D 9C 9H")
    path = decision.encode(opening)
    assert not decision.means(path[0], opening)
    started = decision.decode(path[0])
    assert isinstance(started, Decision)
    assert not started.means(space.layout.discard(diamond.card), diamond)


PRESETS = sorted(hr.PRESETS)


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_play_through_the_encoding(name: str, seed: int, data: st.DataObject) -> None:
    ruleset = hr.build(name, [])
    players = data.draw(st.sampled_from(player_counts(ruleset)))
    assert play_through_encoding(ruleset, players, seed, steps=250) > 0


@pytest.mark.parametrize(
    ("name", "variants"),
    [
        ("levant", ["joker_demotion_always", "demoted_wild_counts"]),
        ("levant", ["no_jokers", "ace_indicator_no_wilds"]),
        ("romme", ["round_the_corner"]),
        # a taken card that buys a joker: an exchange while the card is owed to a meld
        ("romme", ["discard_only_to_meld", "discard_pays_for_joker"]),
        ("gulf", []),
    ],
)
def test_variants_through_the_encoding(name: str, variants: list[str]) -> None:
    ruleset = hr.build(name, variants)
    players = player_counts(ruleset)[-1]
    for seed in range(2):
        play_through_encoding(ruleset, players, seed, steps=200)


# --- many lay-downs --------------------------------------------------------------------


def test_a_hand_of_many_openings_reaches_exactly_the_legal_ones() -> None:
    """Rommé: a heart run, three jokers and two sets make 5,000 lay-downs, many with 2 wilds."""
    romme = hr.rulesets.romme
    hands = [
        "2H 3H 4H 5H 6H 7H JK JK JK 5S 5D 9C 9S 9D",
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    ]
    game = deal(romme, hands)
    assert game.turn == 0 and game.phase is hr.Phase.PLAY
    legal = list(game.legal_actions())
    lay_downs = [a for a in legal if isinstance(a, hr.LayDown)]
    assert len(lay_downs) > 5000
    assert any(sum(card.is_joker for card in m.cards) >= 2 for a in lay_downs for m in a.melds)
    space = ActionSpace.of(romme, 2)
    decision = space.decision(game.view(0))
    reached = list(reach(decision))
    assert len(reached) == len(legal) and set(reached) == set(legal)
    for action in lay_downs[:: len(lay_downs) // 40]:
        assert space.walk(decision.encode(action), decision) == action
        assert game.check(action).ok


def test_pending_lay_down_offers_only_melds_that_complete() -> None:
    """After each meld of an opening, only melds that still lead to a legal opening are offered."""
    levant = hr.rulesets.levant
    seat0 = "9H 10H JH QH 4S 4D AC 2C 7S 8S 5D 6D KC QS"
    game = deal(levant, [seat0, "2D 3D 4H 5H 6H 7H 8H 9S 10S JS KS 3C 4C 5C JD"], "8C")
    game = game.apply(hr.Discard(game.hand(game.turn)[0]))
    game = game.apply(hr.DrawStock())
    view = game.view(game.turn)
    decision = ActionSpace.of(levant, 2).decision(view)
    opening = next(a for a in game.legal_actions() if isinstance(a, hr.LayDown))
    path = decision.encode(opening)
    step: encoding.Step = decision
    for depth, action_id in enumerate(path[:-1]):
        assert isinstance(step, Decision)
        step = step.decode(action_id)
        assert isinstance(step, Decision) and step.pending == path[: depth + 1]
        completions = set(step.actions())
        assert completions and all(isinstance(a, hr.LayDown) for a in completions)
        assert all(game.check(a).ok for a in completions)
        # nothing but this lay-down's ids: no discard, no lay-off, while it is pending
        assert all(
            space_id == step.layout.submit
            or step.layout.block_of(space_id).name in ("run", "set", "extra_wild", "demoted")
            for space_id in step.legal_ids()
        )
    assert isinstance(step, Decision)
    assert step.decode(path[-1]) == opening


# --- demoted cards ---------------------------------------------------------------------

DEMOTION_SEAT1 = "AC 3C 6H 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D"


def test_a_demoted_wild_in_an_opening() -> None:
    levant = hr.rulesets.levant
    game = deal(levant, ["7H 9H 7S 7D 7C JH QH KH AC QC KC 2H 5C 6D", DEMOTION_SEAT1], "8C")
    game = game.apply(hr.Discard(c("AC"))).apply(hr.TakeDiscard())
    assert game.demoted[0] == (c("AC"),)
    check_position(game, random.Random(0))
    space = ActionSpace.of(levant, 2)
    natural = lay(game, "7S 7D 7C", "JH QH KH")
    demoted = hr.Meld.of("QC KC AC", demoted=[2])
    action = hr.LayDown((demoted, *natural.melds))
    path = space.encode(action, game.view(0))
    words = [space.describe(i) for i in path]
    assert "a demoted copy at place 2" in words
    laid = space.walk(path, game.view(0))
    assert laid in list(game.legal_actions())
    assert isinstance(laid, hr.LayDown) and demoted in laid.melds
    assert sorted(len(m) for m in laid.melds) == [3, 3, 3]


def test_a_demoted_joker_and_a_demoted_lay_off() -> None:
    ruleset = hr.build("levant", ["joker_demotion_always"])
    seat1 = "JK 3C 6H 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D"
    game = deal(ruleset, ["7H 9H 7S 7D 7C JH QH KH AS QC KC 2H 5C 6D", seat1], "8C")
    game = game.apply(hr.Discard(c("JK"))).apply(hr.TakeDiscard())
    check_position(game, random.Random(0))
    decision = ActionSpace.of(ruleset, 2).decision(game.view(0))
    words = {decision.layout.describe(i) for a in decision.actions() for i in decision.encode(a)}
    assert "a demoted joker at place 2" in words

    ruleset = hr.build("levant", ["discard_to_table"])
    game = deal(
        ruleset, ["JH QH KH 7S 7D 7H JC QC KC 5D 9S 10D KS 6H", DEMOTION_SEAT1], "8C", top="2S 3D"
    )
    game = game.apply(hr.Discard(c("4D"))).apply(hr.DrawStock())
    game = game.apply(lay(game, "JH QH KH", "7S 7D 7H", "JC QC KC"))
    for action in (hr.Discard(c("KS")), hr.DrawStock(), hr.Discard(c("AC")), hr.TakeDiscard()):
        game = game.apply(action)
    check_position(game, random.Random(0))
    decision = ActionSpace.of(ruleset, 2).decision(game.view(0))
    (only,) = decision.legal_ids()
    assert decision.decode(only) == hr.LayOff(game.table[2].id, c("AC"), demoted=True)
    assert decision.layout.describe(only) == "lay off a demoted card at place 1 of slot 2"


def test_a_joker_that_plays_as_the_missing_ace_pays_for_a_wild() -> None:
    """000 §Wild cards: under the 8♣ the A♣ are wild and a joker is a natural A♣, so the
    joker is what pays for a wild A♣ in a set of Aces and at the top of a club run. The
    id of each exchange is the one a natural A♣ would have: the A♣ itself is wild and
    can never pay, so no two legal exchanges share it."""
    levant = hr.rulesets.levant
    spot = hr.Position(
        levant,
        indicator="8C",
        players=[hr.PositionSeat("JK JK 5D 9S"), 9],
        table=[
            hr.PositionMeld(1, 0, hr.Meld.of("AD AH AS AC", roles={3: "AC"})),
            hr.PositionMeld(2, 1, hr.Meld.of("QC KC AC", roles={2: "AC"})),
        ],
        discards="5H",
        discard_size=10,
        turn=0,
        phase=hr.Phase.PLAY,
    )
    game = hr.Round.from_position(spot)
    decision = ActionSpace.of(levant, 2).decision(game.view(0))
    by_id = {i: decision.decode(i) for i in decision.legal_ids()}
    pays = {i: a for i, a in by_id.items() if isinstance(a, hr.Exchange)}
    assert sorted(pays.values(), key=lambda a: a.target) == [
        hr.Exchange(1, (hr.JOKER,)),
        hr.Exchange(2, (hr.JOKER,)),
    ]
    layout = decision.layout
    clubs = 1 << hr.Suit.CLUBS
    assert {layout.describe(i) for i in pays} == {
        f"exchange the wild of slot 0 (code {clubs - 1})",
        "exchange the wild of slot 1 (code 2)",
    }
    for action_id, action in pays.items():
        assert decision.encode(action) == (action_id,)


# --- lay-offs at either end ------------------------------------------------------------


def test_an_ace_that_fits_both_ends_names_the_low_end() -> None:
    rules = hr.MeldRules.of(hr.rulesets.classic)
    run = hr.judge_meld(hr.Meld.of("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"), rules).meld
    assert run is not None
    target = hr.TableMeld(1, 0, run, hr.MeldKind.RUN)
    layout = Layout.of(hr.rulesets.classic, 2)
    assert lay_off_code(hr.LayOff(1, c("AS")), target, rules, layout) == Fill.NATURAL * 4 + 0
    short = hr.judge_meld(hr.Meld.of("2S 3S 4S"), rules).meld
    assert short is not None
    target = hr.TableMeld(1, 0, short, hr.MeldKind.RUN)
    assert lay_off_code(hr.LayOff(1, c("5S")), target, rules, layout) == Fill.NATURAL * 4 + 1
    assert lay_off_code(hr.LayOff(1, c("JK"), c("AS")), target, rules, layout) == Fill.WILD * 4


# --- the layout --------------------------------------------------------------------------

SIZES = {
    "classic": 3572,
    "gulf": 3607,
    "levant": 4037,
    "partnership": 3572,
    "romme": 3607,
    "saudi": 3572,
    "saudi_partnership": 3572,
}


@pytest.mark.parametrize("name", PRESETS)
def test_layout_is_fixed_and_every_id_has_a_meaning(name: str) -> None:
    ruleset = hr.build(name, [])
    sizes = {ActionSpace.of(ruleset, n).size for n in player_counts(ruleset)}
    assert sizes == {SIZES[name]}
    layout = Layout.of(ruleset, player_counts(ruleset)[0])
    assert [b.start for b in layout.blocks[1:]] == [b.stop for b in layout.blocks[:-1]]
    assert layout.blocks[-1].stop == layout.size
    words = [layout.describe(i) for i in range(layout.size)]
    assert all(words)
    meld_ids = [i for i in range(layout.size) if layout.is_meld_start(i)]
    assert len(set(words[i] for i in meld_ids)) == len(meld_ids)
    # an id beyond the space is refused as decoding refuses it
    for beyond in (-1, layout.size):
        with pytest.raises(encoding.IdNotLegalError, match="ids run from 0 to"):
            layout.describe(beyond)


# --- bad input -----------------------------------------------------------------------------


def started(name: str = "levant", players: int = 4) -> hr.Round:
    game = hr.Round.deal(hr.build(name, []), players, seed=3)
    game = game.keep_deal() if game.phase is hr.Phase.REDEAL else game
    game = game.apply(hr.Discard(game.hand(game.turn)[0]))
    return game


def test_an_id_outside_the_mask_is_refused_and_changes_nothing() -> None:
    game = started()
    view = game.view(game.turn)
    space = ActionSpace.of(game.ruleset, 4)
    decision = space.decision(view)
    before = (decision.legal_ids(), view, decision.pending)
    illegal = next(i for i in range(space.size) if i not in set(decision.legal_ids()))
    for bad in (illegal, space.layout.submit, space.size, -1):
        with pytest.raises(encoding.IdNotLegalError) as raised:
            decision.decode(bad)
        assert isinstance(raised.value, hr.HandRummyError)
    with pytest.raises(encoding.IdNotLegalError, match="ids run from 0 to 4036"):
        space.decode(4037, view)
    # every refusal of an id is an EncodingError, a wrongly typed one too (learning.rst)
    for wrong in ("3", True, 3.0, None):
        with pytest.raises(encoding.IdNotLegalError, match="an action id is a whole number"):
            decision.decode(wrong)  # type: ignore[arg-type]
    absent = next(card for card in hr.CARDS if card not in view.hand)
    for action in (hr.Discard(absent), hr.LayOff(99, view.hand[0]), hr.ClaimRedeal()):
        with pytest.raises(encoding.IdNotLegalError):
            decision.encode(action)
    with pytest.raises(encoding.IdNotLegalError):
        decision.encode(hr.LayDown((hr.Meld.of("2H 2H 2H"),)))
    for wrong in ("discard", hr.Discard("KS"), hr.LayDown(("7H",))):  # type: ignore[arg-type]
        with pytest.raises(hr.InvalidStateError):
            decision.encode(wrong)  # type: ignore[arg-type]
    assert (decision.legal_ids(), view, decision.pending) == before
    assert game.view(game.turn) == view


def test_a_numpy_integer_is_an_id_like_any_other() -> None:
    # a learner takes its ids from arrays (np.argmax, np.flatnonzero)
    np = pytest.importorskip("numpy")
    game = started()
    view = game.view(game.turn)
    space = ActionSpace.of(game.ruleset, 4)
    decision = space.decision(view)
    legal = decision.legal_ids()[0]
    assert decision.decode(np.int64(legal)) == decision.decode(legal)
    assert space.decode(np.int32(legal), view) == space.decode(legal, view)
    assert space.describe(np.int16(legal)) == space.describe(legal)
    with pytest.raises(encoding.IdNotLegalError, match="not float64"):
        decision.decode(np.float64(legal))  # type: ignore[arg-type]


def classic_after_a_draw() -> hr.Round:
    """Classic Hand, seat 0 to play with 15 cards, two melds worth 51 among them."""
    game = deal(
        hr.rulesets.classic,
        [
            "JH QH KH 7S 7D 7H 5H 6D 10D KS 3H 6C 5C 4C",
            "2D 3C 9D 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D",
        ],
    )
    return game.apply(hr.Discard(c("2D"))).apply(hr.DrawStock())


def test_a_pending_lay_down_takes_only_its_own_ids() -> None:
    game = classic_after_a_draw()
    space = ActionSpace.of(game.ruleset, 2)
    decision = space.decision(game.view(game.turn))
    start = next(i for i in decision.legal_ids() if space.layout.is_meld_start(i))
    pending = decision.decode(start)
    assert isinstance(pending, Decision)
    discard = next(a for a in decision.actions() if isinstance(a, hr.Discard))
    with pytest.raises(encoding.IdNotLegalError, match="being chosen"):
        pending.encode(discard)
    with pytest.raises(encoding.IdNotLegalError, match="while a lay-down is being chosen"):
        pending.decode(decision.encode(discard)[0])
    assert decision.pending == () and pending.pending == (start,)


def test_views_of_other_seats_and_finished_rounds_are_refused() -> None:
    game = started()
    other = game.view((game.turn + 1) % 4)
    with pytest.raises(encoding.NotToMoveError, match="is not to move"):
        encoding.action_mask(other)
    with pytest.raises(encoding.NotToMoveError):
        encoding.encode(hr.DrawStock(), other)
    with pytest.raises(encoding.NotToMoveError):
        encoding.decode(0, other)
    over = game
    rng = random.Random(1)
    while not over.is_over:
        over = over.apply(rng.choice(list(over.legal_actions())))
    for seat in range(4):
        with pytest.raises(encoding.NotToMoveError, match="round is over"):
            encoding.legal_ids(over.view(seat))
    space = ActionSpace.of(game.ruleset, 4)
    with pytest.raises(encoding.NotToMoveError, match="round is over"):
        space.decision_in(over)
    with pytest.raises(hr.HandRummyError, match="the round"):
        space.decision_in(other)  # type: ignore[arg-type]


def test_rulesets_and_tables_it_does_not_cover() -> None:
    with pytest.raises(encoding.NotCoveredError):
        ActionSpace.of(hr.rulesets.romme, 7)
    with pytest.raises(encoding.NotCoveredError):
        ActionSpace.of(hr.rulesets.gulf, 2)
    game = started()
    with pytest.raises(encoding.NotCoveredError, match="action space is for romme"):
        ActionSpace.of(hr.rulesets.romme, 4).legal_ids(game.view(game.turn))
    with pytest.raises(hr.InvalidStateError):
        ActionSpace.of("levant", 4)  # type: ignore[arg-type]
    # a table beyond the slots of a small space
    classic = hr.rulesets.classic
    game = classic_after_a_draw()
    opening = next(
        a for a in game.legal_actions() if isinstance(a, hr.LayDown) and len(a.melds) == 2
    )
    game = game.apply(opening)
    game = game.apply(hr.Discard(game.hand(game.turn)[0]))
    small = ActionSpace.of(classic, 2, table_slots=1)
    assert small.size < ActionSpace.of(classic, 2).size
    game = game.apply(hr.DrawStock())
    with pytest.raises(encoding.TableTooLargeError, match="1 table slots"):
        small.legal_ids(game.view(game.turn))
    for error in (encoding.TableTooLargeError, encoding.NotToMoveError, encoding.IdNotLegalError):
        assert issubclass(error, encoding.EncodingError)
        assert issubclass(error, hr.HandRummyError)


def test_the_arguments_are_checked_whatever_the_cache_holds() -> None:
    """3.0 and True equal and hash as 3 and 1: once those were cached, of() took them."""
    saudi = hr.rulesets.saudi
    for _ in range(2):  # the second time the equal int keys are in the cache
        with pytest.raises(hr.InvalidStateError, match="number of players must be int, not float"):
            ActionSpace.of(saudi, 3.0)  # type: ignore[arg-type]
        with pytest.raises(hr.InvalidStateError, match="table slots must be int, not bool"):
            ActionSpace.of(saudi, 3, True)
        ActionSpace.of(saudi, 3)
        ActionSpace.of(saudi, 3, 1)
    with pytest.raises(hr.InvalidStateError, match="the ruleset must be Ruleset, not list"):
        ActionSpace.of([], 3)  # type: ignore[arg-type]


def test_table_slots_are_at_most_the_melds_a_deck_can_make() -> None:
    """10**40 slots were taken, and the environment then failed inside numpy."""
    classic = hr.rulesets.classic  # 106 cards, melds of at least 3
    assert ActionSpace.of(classic, 2, 35).size == ActionSpace.of(classic, 2).size
    for slots in (36, 10**40):
        with pytest.raises(
            encoding.NotCoveredError, match="at most 35 slots, the most melds a deck of 106 cards"
        ):
            ActionSpace.of(classic, 2, slots)


def test_walk_refuses_ids_that_are_no_sequence() -> None:
    game = started()
    space = ActionSpace.of(game.ruleset, game.players)
    for ids in (None, 5, "12"):
        with pytest.raises(encoding.IdNotLegalError, match="a sequence of action ids, not"):
            space.walk(ids, game.view(game.turn))  # type: ignore[arg-type]


@pytest.mark.parametrize("spades", ["KS JS QS", "QS KS JS", "JS QS KS"])
def test_a_run_written_out_of_order_encodes_as_its_table_form(spades: str) -> None:
    """The docs: melds written in another order encode to the path of the legal lay-down
    they name. K♠ J♠ Q♠ read from its first card would run K, A, and a place past the Ace
    (the last suit's cards are the deck's last, so it raised IndexError)."""
    classic = hr.rulesets.classic
    hands = [
        "JS QS KS 7S 7D 7H 5H 6D 10D KH 3H 6C 5C 4C",
        "2D 3C 9D 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D",
    ]
    stock = [p.card for p in classic.deck.cards()]
    for card in hr.parse_cards(" ".join(hands)):
        stock.remove(card)
    game = hr.Round.from_deal(classic, hands, stock)
    game = game.apply(hr.Discard(hr.parse_card("2D"))).apply(hr.DrawStock())
    space, view = ActionSpace.of(classic, 2), game.view(0)
    written = hr.LayDown.of("4C 5C 6C", spades, "7D 7H 7S")
    assert written in game.legal_actions()
    table_form = hr.LayDown.of("4C 5C 6C", "JS QS KS", "7D 7H 7S")
    assert space.encode(written, view) == space.encode(table_form, view)
