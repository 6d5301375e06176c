"""Rule document 000 (English) and 001 (German): Hand as played in the Levant.

Every worked example of the documents, and each meld-level rule statement, is a
test. Expected values are worked out by hand from the documents (arithmetic in
comments), never taken from the library's output.
"""

from __future__ import annotations

import pytest

import hand_rummy as hr
from hand_rummy import Code
from hand_rummy.rules import OpeningRecord
from hand_rummy.rules.opening import OpeningExemption

LEVANT = hr.rulesets.levant
ALL_PRESETS = ("levant", "romme", "gulf", "classic", "partnership", "saudi", "saudi_partnership")


def rules(indicator: str = "8C", ruleset: hr.Ruleset = LEVANT) -> hr.MeldRules:
    return hr.MeldRules.of(ruleset, indicator)


def judge(
    cards: str,
    indicator: str = "8C",
    ruleset: hr.Ruleset = LEVANT,
    **kwargs: object,
) -> hr.MeldJudgement:
    return hr.judge_meld(hr.Meld.of(cards, **kwargs), rules(indicator, ruleset))  # type: ignore[arg-type]


def table(cards: str, indicator: str = "8C", ruleset: hr.Ruleset = LEVANT) -> hr.Meld:
    j = judge(cards, indicator, ruleset)
    assert j.ok, j.verdict
    assert j.meld is not None
    return j.meld


def preset_rules(name: str) -> hr.MeldRules:
    ruleset = hr.PRESETS[name]
    return hr.MeldRules.of(ruleset, "8C" if ruleset.uses_indicator else None)


# --- §Wild cards: the 8♣ indicator examples ---------------------------------------


def test_levant_wild_ace_stands_in_middle_of_run() -> None:
    """000 §Wild cards: 7♥ A♣ 9♥ is a sequence (the A♣ stands for the 8♥)."""
    j = judge("7H AC 9H")
    assert j.ok
    assert j.kind is hr.MeldKind.RUN
    assert j.meld is not None
    assert j.meld.roles[1] == hr.parse_card("8H")
    # 7 + 8 + 9 = 24 (the wild counts as the card it stands for)
    assert j.points == 24


def test_levant_wild_ace_completes_group() -> None:
    """000 §Wild cards: 5♠ 5♦ A♣ is a group (the A♣ stands for a third 5)."""
    j = judge("5S 5D AC")
    assert j.ok
    assert j.kind is hr.MeldKind.SET
    assert j.meld is not None
    role = j.meld.roles[j.meld.cards.index(hr.parse_card("AC"))]
    assert role is not None
    assert role.rank is hr.Rank.FIVE
    assert role.suit not in (hr.Suit.SPADES, hr.Suit.DIAMONDS)


def test_levant_joker_is_natural_ace_under_non_ace_indicator() -> None:
    """000 §Wild cards: J♣ Q♣ K♣ joker is a sequence of natural cards (the joker is the A♣)."""
    j = judge("JC QC KC JK")
    assert j.ok
    assert j.kind is hr.MeldKind.RUN
    assert j.meld is not None
    # no card of the meld is wild: every card plays as itself, the joker as A♣
    assert rules().wilds.natural_as(hr.JOKER) == hr.parse_card("AC")
    assert not any(rules().is_wild(c) for c in j.meld.cards)
    # 10 + 10 + 10 + 11 (the joker is an ordinary Ace, 11) = 41
    assert j.points == 41


def test_levant_natural_joker_does_not_count_toward_wild_limit() -> None:
    """000 §Wild cards: with the 8♣ indicator a joker is an A♣, so Q♣ K♣ joker + wild is legal."""
    # J♣(wild A♣) Q♣ K♣ JK(natural A♣): one wild card only
    j = judge("AC QC KC JK", roles={0: "JC"})
    assert j.ok, j.verdict


def test_levant_two_wilds_is_not_a_meld() -> None:
    """000 §Wild cards: 4♥ A♣ A♣ is not a meld: two wild cards."""
    j = judge("4H AC AC")
    assert not j.ok
    assert Code.MELD_TOO_MANY_WILDS in j.verdict.codes


def test_levant_one_wild_per_meld_also_in_long_run() -> None:
    """000 §Wild cards: a meld may contain only one wild card (5♥ A♣ 7♥ A♣ 9♥ is illegal)."""
    j = judge("5H AC 7H AC 9H")
    assert not j.ok
    assert Code.MELD_TOO_MANY_WILDS in j.verdict.codes


def test_levant_ace_indicator_makes_jokers_wild() -> None:
    """000 §Wild cards: an Ace indicator makes the two jokers wild (7♥ joker 9♥ is a run)."""
    j = judge("7H JK 9H", indicator="AS")
    assert j.ok
    assert j.meld is not None
    assert j.meld.roles[1] == hr.parse_card("8H")
    assert rules("AS").is_wild(hr.JOKER)


def test_levant_ace_indicator_leaves_aces_natural() -> None:
    """000 §Wild cards: under an Ace indicator all Aces are ordinary (7♥ A♣ 9♥ is no run)."""
    assert not judge("7H AC 9H", indicator="AS").ok
    assert not rules("AS").is_wild(hr.parse_card("AC"))
    # three natural Aces make a group, Q♣ K♣ A♣ a run
    assert judge("AS AH AD", indicator="AS").ok
    assert judge("QC KC AC", indicator="AS").ok


def test_levant_ace_indicator_two_jokers_not_a_meld() -> None:
    """000 §Wild cards: under an Ace indicator 4♥ joker joker holds two wild cards."""
    j = judge("4H JK JK", indicator="AS")
    assert not j.ok
    assert Code.MELD_TOO_MANY_WILDS in j.verdict.codes


def test_levant_non_ace_indicator_makes_suit_aces_wild_only() -> None:
    """000 §Wild cards: the 8♣ makes the A♣ wild; the A♥ stays an ordinary card."""
    r = rules("8C")
    assert r.is_wild(hr.parse_card("AC"))
    assert not r.is_wild(hr.parse_card("AH"))
    assert not r.is_wild(hr.JOKER)
    assert not judge("7H AH 9H").ok


def test_levant_joker_cannot_be_the_indicator() -> None:
    """000 §Wild cards: a joker turned as indicator goes back; it never decides the wilds."""
    with pytest.raises(hr.HandRummyError):
        hr.MeldRules.of(LEVANT, "JK")


# --- §Melds ------------------------------------------------------------------------


def test_levant_run_of_four_hearts() -> None:
    """000 §Melds: 8♥ 9♥ 10♥ J♥ is a sequence."""
    j = judge("8H 9H 10H JH")
    assert j.ok
    assert j.kind is hr.MeldKind.RUN
    # 8 + 9 + 10 + 10 = 37
    assert j.points == 37


def test_levant_ace_low_and_high_runs() -> None:
    """000 §Melds: the Ace can be low (A 2 3) or high (Q K A)."""
    assert judge("AH 2H 3H").ok
    assert judge("QH KH AH").ok


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_king_ace_two_is_not_a_run_in_any_preset(preset: str) -> None:
    """000 §Melds, 002 §Melds, 003 §Types of Melds: K A 2 is not a sequence (no wrap)."""
    j = hr.judge_meld(hr.Meld.of("KH AH 2H"), preset_rules(preset))
    assert not j.ok
    assert Code.RUN_ACE_IN_MIDDLE in j.verdict.codes


def test_levant_group_of_three_different_suits() -> None:
    """000 §Melds: 5♠ 5♥ 5♦ is a group."""
    j = judge("5S 5H 5D")
    assert j.ok
    assert j.kind is hr.MeldKind.SET
    # 5 + 5 + 5 = 15
    assert j.points == 15


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_identical_cards_never_in_one_group(preset: str) -> None:
    """000 §Melds: 9♠ 9♠ 9♥ is not a group (two identical cards)."""
    j = hr.judge_meld(hr.Meld.of("9S 9S 9H"), preset_rules(preset))
    assert not j.ok
    assert Code.SET_IDENTICAL_CARDS in j.verdict.codes


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_group_of_three_or_four_cards(preset: str) -> None:
    """000 §Melds, 002 §Melds, 003, 004 §3: a set holds 3 or 4 cards of one rank."""
    r = preset_rules(preset)
    assert hr.judge_meld(hr.Meld.of("5S 5H 5D"), r).ok
    assert hr.judge_meld(hr.Meld.of("5S 5H 5D 5C"), r).ok


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_group_of_five_cards_is_illegal(preset: str) -> None:
    """000 §Melds, 004 §3: a set holds at most 4 cards; 5♠ 5♥ 5♦ 5♣ + a fifth 5 is no meld."""
    r = preset_rules(preset)
    assert not hr.judge_meld(hr.Meld.of("5S 5H 5D 5C 5S"), r).ok
    wild = "AC" if hr.PRESETS[preset].uses_indicator else "JK"
    j = hr.judge_meld(hr.Meld.of(f"5S 5H 5D 5C {wild}"), r)
    assert not j.ok
    assert Code.SET_TOO_LARGE in j.verdict.codes


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_meld_needs_at_least_three_cards(preset: str) -> None:
    """000 §Melds: a meld is a group of at least three cards (7♥ 8♥ is none)."""
    j = hr.judge_meld(hr.Meld.of("7H 8H"), preset_rules(preset))
    assert not j.ok
    assert Code.MELD_TOO_SHORT in j.verdict.codes


def test_levant_run_must_be_one_suit() -> None:
    """000 §Melds: a sequence is three or more cards of the same suit (7♥ 8♠ 9♥ is none)."""
    assert not judge("7H 8S 9H").ok


def test_levant_lay_off_next_card_at_either_end_of_sequence() -> None:
    """000 §Melds: you may add the next card at either end of a sequence."""
    run = table("8H 9H 10H JH")
    low = hr.lay_off(run, "7H", rules())
    high = hr.lay_off(run, "QH", rules())
    assert low.ok
    assert high.ok
    assert low.meld is not None
    assert high.meld is not None
    assert [str(c) for c in low.meld.plays_as] == ["7♥", "8♥", "9♥", "10♥", "J♥"]
    assert [str(c) for c in high.meld.plays_as] == ["8♥", "9♥", "10♥", "J♥", "Q♥"]
    assert not hr.lay_off(run, "5H", rules()).ok
    assert not hr.lay_off(run, "QS", rules()).ok


def test_levant_lay_off_fourth_card_of_group() -> None:
    """000 §Melds: you may add the fourth card of a group (not a duplicate suit)."""
    group = table("5S 5H 5D")
    assert hr.lay_off(group, "5C", rules()).ok
    assert not hr.lay_off(group, "5S", rules()).ok
    full = table("5S 5H 5D 5C")
    assert not hr.lay_off(full, "5C", rules()).ok


def test_levant_lay_off_keeps_one_wild_limit() -> None:
    """000 §Wild cards: adding a second wild card to 7♥ A♣ 9♥ breaks the one-wild rule."""
    run = table("7H AC 9H")
    result = hr.lay_off(run, "AC", rules(), roles={0: "10H"})
    assert not result.ok


# --- §The first meld: 51 points -------------------------------------------------


def test_levant_anna_opening_reaches_51() -> None:
    """000 §The first meld: Anna's 9♥ 10♥ J♥ Q♥ (39) and 4♠ 4♦ A♣ (12) make 51 under 8♣."""
    r = rules("8C")
    run = hr.Meld.of("9H 10H JH QH")
    group = hr.Meld.of("4S 4D AC")
    # 9 + 10 + 10 + 10 = 39
    assert hr.judge_meld(run, r).points == 39
    # 4 + 4 + 4 = 12 (the wild counts as one card of that rank)
    assert hr.judge_meld(group, r).points == 12
    opening = hr.judge_opening([run, group], r)
    assert opening.ok
    # 39 + 12 = 51
    assert opening.points == 51
    assert opening.required == 51


def test_levant_opening_below_51_is_refused() -> None:
    """000 §The first meld: 9♥ 10♥ J♥ Q♥ + 3♠ 3♦ A♣ = 39 + 9 = 48 is not enough."""
    opening = hr.judge_opening([hr.Meld.of("9H 10H JH QH"), hr.Meld.of("3S 3D AC")], rules())
    assert not opening.ok
    # 39 + 3 + 3 + 3 = 48
    assert opening.points == 48
    assert Code.OPENING_BELOW_THRESHOLD in opening.verdict.codes


def test_levant_ace_low_run_counts_11() -> None:
    """000 §The first meld: the Ace in a low sequence A 2 3 still counts 11."""
    # 11 + 2 + 3 = 16
    assert judge("AH 2H 3H").points == 16


def test_levant_ace_high_run_counts_11() -> None:
    """000 §Scoring values counted for the first meld: Q K A = 10 + 10 + 11 = 31."""
    assert judge("QH KH AH").points == 31


def test_levant_low_ace_1_variant_counts_ace_1_in_a23() -> None:
    """000 §Variants Ace values: an Ace in A 2 3 counts only 1 for the first meld."""
    r = rules("8C", hr.build("levant", ["low_ace_1"]))
    # 1 + 2 + 3 = 6
    assert hr.judge_meld(hr.Meld.of("AH 2H 3H"), r).points == 6
    # the Ace of Q K A is not low: 10 + 10 + 11 = 31
    assert hr.judge_meld(hr.Meld.of("QH KH AH"), r).points == 31


def test_levant_going_out_exempts_from_51() -> None:
    """000 §The first meld: getting rid of all cards in one turn is allowed below 51."""
    assert LEVANT.opening_exemption is OpeningExemption.GOING_OUT
    melds = [hr.Meld.of("2H 3H 4H"), hr.Meld.of("5S 5D 5C")]
    # 2 + 3 + 4 + 5 + 5 + 5 = 24
    assert not hr.judge_opening(melds, rules()).ok
    exempt = hr.judge_opening(melds, rules(), exempt=True)
    assert exempt.ok
    assert exempt.points == 24


@pytest.mark.parametrize(
    ("variant", "bar"), [("opening_61", 61), ("opening_71", 71), ("opening_91", 91)]
)
def test_levant_higher_minimum_variants(variant: str, bar: int) -> None:
    """000 §Variants Higher minimum: 61, 71 or even 91 points for the first meld."""
    ruleset = hr.build("levant", [variant])
    r = rules("8C", ruleset)
    anna = hr.judge_opening([hr.Meld.of("9H 10H JH QH"), hr.Meld.of("4S 4D AC")], r)
    assert anna.required == bar
    # Anna's 51 is below every higher bar
    assert not anna.ok
    assert Code.OPENING_BELOW_THRESHOLD in anna.verdict.codes


def test_levant_beat_last_opening_variant() -> None:
    """000 §Variants Higher minimum: each player's first meld must beat the last one made."""
    opening = hr.build("levant", ["beat_last_opening"]).opening
    assert opening.required(0, 0, ()) == 51
    # the last first meld was worth 60: the next needs more, 61
    assert opening.required(1, 1, (OpeningRecord(0, 0, 60),)) == 61


# --- §Exchanging wild cards ------------------------------------------------------


def test_levant_exchange_in_run_needs_card_for_its_position() -> None:
    """000 §Exchanging wild cards: from 7♥ wild 9♥ put down the 8♥."""
    run = table("7H AC 9H")
    swap = hr.exchange(run, "8H", rules())
    assert swap.ok
    assert swap.wild == hr.parse_card("AC")
    assert swap.meld is not None
    assert str(swap.meld) == "7♥ 8♥ 9♥"
    wrong = hr.exchange(run, "10H", rules())
    assert not wrong.ok
    assert Code.EXCHANGE_WRONG_CARDS in wrong.verdict.codes


def test_levant_exchange_two_plus_wild_group_needs_both_missing_cards() -> None:
    """000 §Exchanging wild cards: from 5♠ 5♦ wild put down 5♥ and 5♣."""
    group = table("5S 5D AC")
    one = hr.exchange(group, "5H", rules())
    assert not one.ok
    assert Code.EXCHANGE_WRONG_CARDS in one.verdict.codes
    both = hr.exchange(group, "5H 5C", rules())
    assert both.ok
    assert both.wild == hr.parse_card("AC")
    assert both.meld is not None
    assert sorted(str(c) for c in both.meld.cards) == sorted(["5♠", "5♦", "5♥", "5♣"])


def test_levant_exchange_in_a_group_holding_a_joker_that_is_an_ace() -> None:
    """000 §Wild cards: under the 7♥ the A♥ are wild and the jokers "count as ordinary Aces
    of that suit"; so JK A♠ A♥ is A♥ A♠ and a wild, and §Exchanging wild cards frees the wild
    for both missing Aces, A♣ and A♦, whichever card the group is written with first."""
    for written in ("JK AS AH", "AH AS JK", "AS JK AH"):
        group = table(written, "7H")
        swap = hr.exchange(group, "AC AD", rules("7H"))
        assert swap.ok, (written, swap.verdict)
        assert swap.wild == hr.parse_card("AH")
        one = hr.exchange(group, "AC", rules("7H"))
        assert one.verdict.codes == (Code.EXCHANGE_WRONG_CARDS,)


def test_levant_exchange_three_plus_wild_group_needs_fourth_card() -> None:
    """000 §Exchanging wild cards: from a group of three cards + wild put down the fourth."""
    group = table("5S 5D 5H AC")
    swap = hr.exchange(group, "5C", rules())
    assert swap.ok
    assert swap.wild == hr.parse_card("AC")
    assert swap.meld is not None
    assert sorted(str(c) for c in swap.meld.cards) == sorted(["5♠", "5♦", "5♥", "5♣"])
    assert not hr.exchange(group, "5S", rules()).ok


def test_levant_natural_joker_cannot_be_exchanged() -> None:
    """000 §Wild cards: under 8♣ the joker in J♣ Q♣ K♣ joker is a natural Ace, not a wild."""
    swap = hr.exchange(table("JC QC KC JK"), "AC", rules())
    assert not swap.ok


def test_levant_two_plus_wild_group_refuses_single_missing_card() -> None:
    """000 §Exchanging wild cards: 5♠ 5♦ wild changes only when both missing cards come."""
    group = table("5S 5D AC")
    result = hr.lay_off(group, "5H", rules())
    assert not result.ok
    assert Code.LAYOFF_TWO_PLUS_WILD in result.verdict.codes


@pytest.mark.parametrize(
    "context",
    [
        hr.LayoffContext(going_out=True),
        hr.LayoffContext(one_card_announced=True),
        hr.LayoffContext(announcing_one_card=True),
    ],
    ids=["going_out", "one_card_announced", "announcing_one_card"],
)
def test_levant_two_plus_wild_group_single_card_exceptions(context: hr.LayoffContext) -> None:
    """000 §Exchanging wild cards: 5♠ 5♦ wild takes one card when going out or at "one card"."""
    group = table("5S 5D AC")
    result = hr.lay_off(group, "5H", rules(), context=context)
    assert result.ok
    assert result.meld is not None
    assert len(result.meld) == 4


def test_levant_three_plus_wild_group_is_full() -> None:
    """000 §Melds: a group holds four cards, so 5♠ 5♦ 5♥ wild takes no further card."""
    assert not hr.lay_off(table("5S 5D 5H AC"), "5C", rules()).ok


# --- discarded wild cards (demotion) -----------------------------------------------


def test_levant_demoted_wild_ace_is_natural_ace_of_its_suit() -> None:
    """000 §Exchanging wild cards: a discarded wild Ace is only a natural Ace."""
    # the A♣ cannot stand for the 8♥ once it was taken from the discard pile
    assert not judge("7H AC 9H", demoted=[1]).ok
    # but it plays as the A♣ itself: A♣ 2♣ 3♣
    j = judge("AC 2C 3C", demoted=[0])
    assert j.ok, j.verdict


def test_levant_demoted_wild_does_not_count_toward_one_wild_limit() -> None:
    """000 §Exchanging wild cards, RULES-MATRIX L5: A♣ (from the discard) 2♣ A♣(=3♣) is legal."""
    j = judge("AC 2C AC", demoted=[0], roles={2: "3C"})
    assert j.ok, j.verdict


def test_levant_demoted_wild_counts_switch() -> None:
    """RULES-MATRIX L5 switch demoted_wild_counts: discarded A♣ 2♣ A♣(=3♣) has two wilds."""
    ruleset = hr.build("levant", ["demoted_wild_counts"])
    j = judge("AC 2C AC", ruleset=ruleset, demoted=[0], roles={2: "3C"})
    assert not j.ok
    assert Code.MELD_TOO_MANY_WILDS in j.verdict.codes


def test_levant_demoted_joker_counts_only_as_an_ace() -> None:
    """000 §Exchanging wild cards: a discarded joker is only an Ace (any suit)."""
    # under an Ace indicator the jokers are wild; taken from the discard pile ...
    assert judge("QH KH JK", indicator="AS", demoted=[2]).ok  # ... it may be the A♥
    assert judge("JK 2D 3D", indicator="AS", demoted=[0]).ok  # ... or the A♦
    assert not judge("7H JK 9H", indicator="AS", demoted=[1]).ok  # but never the 8♥


def _aces_on_the_table(meld: hr.Meld) -> hr.Round:
    """Seat 0 (opened) holds A♣ A♠ to put into ``meld``, a set of Aces of seat 1 holding a
    joker taken from the discard pile; the indicator is an Ace, so the jokers are wild."""
    return hr.Round.from_position(
        hr.Position(
            hr.rulesets.levant,
            indicator="AC",
            players=[hr.PositionSeat("AC AS 7S 8S 9S KD"), 9],
            table=[hr.PositionMeld(1, 1, meld), hr.PositionMeld(2, 0, "QH QS QC")],
            discards="5C",
            discard_size=10,
            turn=0,
            phase=hr.Phase.PLAY,
        )
    )


@pytest.mark.parametrize("roles", [{2: "AS", 3: "AC"}, {2: "AC", 3: "AS"}])
@pytest.mark.parametrize("card", ["AC", "AS"])
def test_levant_demoted_joker_of_a_set_leaves_either_suit_free(
    roles: dict[int, str], card: str
) -> None:
    """000 §Exchanging wild cards: a joker taken from the discard pile is "an Ace (of any
    suit)", and the wild of a group of three cards + wild is bought by "the missing fourth
    card". In A♥ A♦ JK JK, the first joker from the discard pile (no wild, RULES-MATRIX L5)
    and the second wild, the missing Aces are A♣ and A♠ whatever suit each joker was named:
    either buys the wild, the other joker then playing as the Ace left."""
    meld = hr.Meld.of("AH AD JK JK", roles=roles, demoted=[2])
    game = _aces_on_the_table(meld)
    action = hr.Exchange.of(1, card)
    assert game.check(action).ok, game.check(action)
    assert action in set(game.legal_actions())
    after = game.apply(action)
    assert hr.JOKER in after.hand(0)
    assert hr.parse_card(card) in after.table[0].meld.cards


@pytest.mark.parametrize("card", ["AC", "AS"])
def test_levant_demoted_joker_of_a_set_takes_either_missing_ace(card: str) -> None:
    """000 §Melds (the fourth card of a group may be added) with the same joker: A♥ A♦ and a
    joker from the discard pile, named the A♠, still take the A♣ or the A♠."""
    game = _aces_on_the_table(hr.Meld.of("AH AD JK", roles={2: "AS"}, demoted=[2]))
    action = hr.LayOff(1, hr.parse_card(card))
    assert game.check(action).ok, game.check(action)
    assert action in set(game.legal_actions())


# --- §Scoring ------------------------------------------------------------------------


def test_levant_scoring_example_ben_anna_carla() -> None:
    """000 §Scoring: Ben goes out −30, Anna holds K♠ 7♦ A♣ = 32, Carla never melded 100."""
    end = hr.RoundEnd.of(
        [("", True), ("KS 7D AC", True), ("9S 9D 3C 4C", False)],
        went_out=0,
    )
    score = hr.score_round(end, rules("8C"))
    # Anna: 10 + 7 + 15 (A♣ is wild under the 8♣) = 32; Carla a flat 100
    assert score.scores == (-30, 32, 100)


def test_levant_hand_finish_doubles_everything() -> None:
    """000 §End of a round, 001 D1: after a hand all scores are doubled (−60, 2 × 32, 200)."""
    end = hr.RoundEnd.of(
        [("", True), ("KS 7D AC", True), ("9S 9D 3C 4C", False)],
        went_out=0,
        hand=True,
    )
    score = hr.score_round(end, rules("8C"))
    # −30 × 2 = −60; 32 × 2 = 64; 100 × 2 = 200
    assert score.scores == (-60, 64, 200)


def test_levant_never_melded_is_flat_100_whatever_the_cards() -> None:
    """000 §Tips: if someone goes out before you melded you score a flat 100."""
    end = hr.RoundEnd.of([("", True), ("KS KH KD QS QH QD JS", False)], went_out=0)
    assert hr.score_round(end, rules()).scores == (-30, 100)


@pytest.mark.parametrize(
    ("card", "indicator", "value"),
    [
        ("AH", "8C", 11),  # Ace 11
        ("KS", "8C", 10),  # K Q J 10 count 10
        ("QS", "8C", 10),
        ("JS", "8C", 10),
        ("10S", "8C", 10),
        ("9S", "8C", 9),  # others face value
        ("2D", "8C", 2),
        ("AC", "8C", 15),  # the wild card 15
        ("JK", "8C", 11),  # a joker under a non-Ace indicator is a natural A♣
        ("JK", "AS", 15),  # under an Ace indicator the joker is wild
        ("AC", "AS", 11),  # and the A♣ is natural
    ],
)
def test_levant_card_values_in_hand(card: str, indicator: str, value: int) -> None:
    """000 §Scoring: cards in hand count Ace 11, K Q J 10, others face value, wild card 15."""
    assert hr.hand_value(hr.parse_cards(card), rules(indicator)) == value


def test_levant_wild_in_hand_costs_15() -> None:
    """000 §Tips: a wild card left in your hand costs 15."""
    assert hr.card_penalty(hr.parse_card("AC"), rules("8C")) == 15


def test_levant_ace_in_hand_10_variant() -> None:
    """000 §Variants Ace values: an Ace left in hand counts 10 (a wild Ace still 15, matrix L16)."""
    r = rules("8C", hr.build("levant", ["ace_in_hand_10"]))
    assert hr.hand_value(hr.parse_cards("AH"), r) == 10
    assert hr.hand_value(hr.parse_cards("AC"), r) == 15
    # Anna's K♠ 7♦ A♣ is unchanged: 10 + 7 + 15 = 32; K♠ 7♦ A♥ becomes 10 + 7 + 10 = 27
    assert hr.hand_value(hr.parse_cards("KS 7D AC"), r) == 32
    assert hr.hand_value(hr.parse_cards("KS 7D AH"), r) == 27


# --- §Variants: Partnership Hand ----------------------------------------------------


def partnership_end(
    *, hand: bool, opened: tuple[bool, bool, bool] = (True, True, False)
) -> hr.RoundEnd:
    # seats 0 and 2 are partners (opposite), 1 and 3 the other team; seat 0 goes out
    return hr.RoundEnd.of(
        [
            ("", True),
            ("KS 7D AC", opened[0]),
            ("QH QD 9C", opened[1]),
            ("5S 6S", opened[2]),
        ],
        went_out=0,
        hand=hand,
        teams=[[0, 2], [1, 3]],
    )


def test_levant_partnership_winner_team_scores_minus_30() -> None:
    """000 §Variants Partnership Hand: the winner's team −30, the other team adds both players."""
    r = rules("8C", hr.build("levant", ["partnership"]))
    score = hr.score_round(partnership_end(hand=False), r)
    assert score.team_scores is not None
    # team 0: −30 (the partner's Q♥ Q♦ 9♣ do not count); team 1: 32 + 100 = 132
    assert score.team_scores == (-30, 132)


def test_levant_partnership_hand_scores_minus_60() -> None:
    """000 §Variants Partnership Hand: −60 for a hand; the other team's penalties doubled."""
    r = rules("8C", hr.build("levant", ["partnership"]))
    score = hr.score_round(partnership_end(hand=True), r)
    assert score.team_scores is not None
    # team 0: −60; team 1: 2 × 32 + 200 = 264
    assert score.team_scores == (-60, 264)


def test_levant_partnership_hand_neither_melded_400() -> None:
    """000 §Variants Partnership Hand: 400 after a hand if neither opponent had melded."""
    r = rules("8C", hr.build("levant", ["partnership"]))
    score = hr.score_round(partnership_end(hand=True, opened=(False, True, False)), r)
    assert score.team_scores is not None
    # 200 + 200 = 400
    assert score.team_scores[1] == 400


def test_levant_partnership_winner_partner_cards_do_not_count() -> None:
    """000 §Variants Partnership Hand: the winner's partner's cards don't count."""
    r = rules("8C", hr.build("levant", ["partnership"]))
    never = hr.score_round(partnership_end(hand=False, opened=(True, False, False)), r)
    assert never.team_scores is not None
    # the partner never melded, yet the team scores only the winner's −30
    assert never.team_scores[0] == -30


# --- §Variants: Egyptian bonuses -----------------------------------------------------

MIXED_HAND = "2H 3H 4H 5S 5D 5C 9C 10C JC QC KS KH KD 7H"
RED_HAND = "2H 3H 4H 5H 5D 6D 7D 8D 9D 10H JH QH KH KD"
HEART_HAND = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
"""Fourteen hearts melded: with the wild A♣ as the last discard and another in seat 1's
hand, the two A♣ of the two packs are both accounted for."""


def egyptian_end(melded: str, discard: str) -> hr.RoundEnd:
    return hr.RoundEnd.of(
        [("", True), ("KS 7D AC", True), ("9S 9D", False)],
        went_out=0,
        hand=True,
        melded=melded,
        last_discard=discard,
    )


def egyptian(*extra: str) -> hr.MeldRules:
    return rules("8C", hr.build("levant", ["egyptian_bonuses", *extra]))


def test_levant_egyptian_wild_discard_doubles_again() -> None:
    """000 §Variants Egyptian bonuses: a hand ending on a wild: −120, others 4 ×."""
    score = hr.score_round(egyptian_end(MIXED_HAND, "AC"), egyptian())
    # −30 × 2 × 2 = −120; 32 × 4 = 128; 100 × 4 = 400
    assert score.scores == (-120, 128, 400)


def test_levant_egyptian_one_colour_doubles_again() -> None:
    """000 §Variants Egyptian bonuses, 001 D9: a hand of one colour (all red) doubles again."""
    score = hr.score_round(egyptian_end(RED_HAND, "5S"), egyptian())
    # −30 × 2 × 2 = −120; 32 × 4 = 128; 100 × 4 = 400
    assert score.scores == (-120, 128, 400)


def test_levant_egyptian_one_suit_counts_twice_colour() -> None:
    """000 §Variants Egyptian bonuses: one suit is twice the colour (×8, matrix L12 b)."""
    score = hr.score_round(egyptian_end(HEART_HAND, "5S"), egyptian())
    # hand ×2, one suit ×4 (twice the colour's ×2) = ×8: −240, 32 × 8 = 256, 800
    assert score.scores == (-240, 256, 800)
    assert score.factor == 8


def test_levant_egyptian_suit_x16_switch() -> None:
    """RULES-MATRIX L12 b switch egyptian_suit_x16: the colour doubling also counts (×16)."""
    score = hr.score_round(egyptian_end(HEART_HAND, "5S"), egyptian("egyptian_suit_x16"))
    # ×2 (hand) × 2 (colour) × 4 (suit) = ×16: −480, 32 × 16 = 512, 1600
    assert score.scores == (-480, 512, 1600)


def test_levant_egyptian_doublings_combine() -> None:
    """000 §Variants Egyptian bonuses: the doublings combine (one suit + wild discard)."""
    score = hr.score_round(egyptian_end(HEART_HAND, "AC"), egyptian())
    # ×2 (hand) × 4 (suit) × 2 (wild discard) = ×16: −30 × 16 = −480, 32 × 16 = 512
    assert score.scores[:2] == (-480, 512)


def test_levant_egyptian_bonuses_only_for_a_hand() -> None:
    """000 §Variants Egyptian bonuses: they double a hand; an ordinary finish stays −30."""
    end = hr.RoundEnd.of(
        [("", True), ("KS 7D AC", True), ("9S 9D", False)],
        went_out=0,
        melded=HEART_HAND,
        last_discard="AC",
    )
    assert hr.score_round(end, egyptian()).scores == (-30, 32, 100)


# --- other §Variants on the meld level ----------------------------------------------


def test_levant_jokers_only_variant() -> None:
    """000 §Variants Jokers only: no indicator, the jokers are the only wild cards."""
    r = hr.MeldRules.of(hr.build("levant", ["jokers_only"]))
    assert r.is_wild(hr.JOKER)
    assert not r.is_wild(hr.parse_card("AC"))
    assert hr.judge_meld(hr.Meld.of("7H JK 9H"), r).ok
    assert not hr.judge_meld(hr.Meld.of("7H AC 9H"), r).ok


def test_levant_without_jokers_variant() -> None:
    """000 §Variants Without jokers: the Aces of the indicator suit are wild; no joker exists."""
    r = rules("8C", hr.build("levant", ["no_jokers"]))
    assert r.is_wild(hr.parse_card("AC"))
    assert hr.judge_meld(hr.Meld.of("7H AC 9H"), r).ok
    assert not hr.judge_meld(hr.Meld.of("JC QC KC JK"), r).ok


def test_levant_wild_ace_may_stand_for_an_ace() -> None:
    """000 §Wild cards: a wild stands in for any card: Q♥ K♥ A♣ (= A♥) counts 10 + 10 + 11."""
    j = judge("QH KH AC")
    assert j.ok
    assert j.meld is not None
    assert j.meld.roles[2] == hr.parse_card("AH")
    # 10 + 10 + 11 = 31
    assert j.points == 31


def test_levant_wild_as_fourth_card_of_group_lay_off() -> None:
    """000 §Melds, §Wild cards: a wild may be added as the fourth card of a natural group."""
    result = hr.lay_off(table("5S 5H 5D"), "AC", rules())
    assert result.ok


def test_levant_wild_extends_run_lay_off() -> None:
    """000 §Melds: the next card at either end: 8♥ 9♥ 10♥ J♥ takes a wild as the Q♥."""
    result = hr.lay_off(table("8H 9H 10H JH"), "AC", rules(), roles={0: "QH"})
    assert result.ok
    assert result.meld is not None
    assert result.meld.plays_as[-1] == hr.parse_card("QH")


def test_levant_low_ace_1_variant_wild_two() -> None:
    """000 §Variants Ace values: A♥ A♣(=2♥) 3♥ under low_ace_1 counts 1 + 2 + 3 = 6."""
    r = rules("8C", hr.build("levant", ["low_ace_1"]))
    j = hr.judge_meld(hr.Meld.of("AH AC 3H", roles={1: "2H"}), r)
    assert j.ok
    assert j.points == 6


def test_levant_natural_joker_pays_for_wild_standing_for_ace_of_clubs() -> None:
    """000 §Wild cards, §Exchanging: under 8♣ a joker (natural A♣) frees a wild A♣ (= A♣)."""
    run = table("QC KC AC")
    swap = hr.exchange(run, "JK", rules())
    assert swap.ok
    assert swap.wild == hr.parse_card("AC")


def test_levant_egyptian_natural_joker_is_a_club() -> None:
    """000 §Wild cards, §Variants Egyptian: under 8♣ hearts + joker (= A♣) are not one suit."""
    end = hr.RoundEnd.of(
        [("", True), ("KS", True)],
        went_out=0,
        hand=True,
        melded="2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",
        last_discard="5S",
    )
    # only the Hand doubling: −30 × 2 = −60, 10 × 2 = 20
    assert hr.score_round(end, egyptian()).scores == (-60, 20)
