"""Rule document 002: German Rommé.

Every worked example of the document, and each meld-level rule statement, is a
test. Expected values are worked out by hand from the document (arithmetic in
comments), never taken from the library's output.
"""

from __future__ import annotations

import pytest

import hand_rummy as hr
from hand_rummy import Code
from hand_rummy.rules.opening import OpeningExemption

ROMME = hr.rulesets.romme


def rules(ruleset: hr.Ruleset = ROMME) -> hr.MeldRules:
    return hr.MeldRules.of(ruleset)


def judge(cards: str, ruleset: hr.Ruleset = ROMME, **kwargs: object) -> hr.MeldJudgement:
    return hr.judge_meld(hr.Meld.of(cards, **kwargs), rules(ruleset))  # type: ignore[arg-type]


def table(cards: str, ruleset: hr.Ruleset = ROMME, **kwargs: object) -> hr.Meld:
    j = judge(cards, ruleset, **kwargs)
    assert j.ok, j.verdict
    assert j.meld is not None
    return j.meld


# --- §Melds ----------------------------------------------------------------------


@pytest.mark.parametrize("cards", ["KH KD KC", "3S 3H 3D 3C"])
def test_romme_set_of_three_or_four(cards: str) -> None:
    """002 §Melds: K♥ K♦ K♣ and 3♠ 3♥ 3♦ 3♣ are sets."""
    j = judge(cards)
    assert j.ok
    assert j.kind is hr.MeldKind.SET


def test_romme_identical_cards_never_in_one_set() -> None:
    """002 §Melds: two identical cards (two 7♠) can never be in the same set."""
    j = judge("7S 7S 7H")
    assert not j.ok
    assert Code.SET_IDENTICAL_CARDS in j.verdict.codes


def test_romme_run_of_four_diamonds() -> None:
    """002 §Melds: 8♦ 9♦ 10♦ J♦ is a run."""
    j = judge("8D 9D 10D JD")
    assert j.ok
    assert j.kind is hr.MeldKind.RUN


def test_romme_ace_at_either_end_of_run() -> None:
    """002 §Melds: the Ace can be at either end: A-2-3 (low) or Q-K-A (high)."""
    assert judge("AH 2H 3H").ok
    assert judge("QH KH AH").ok


def test_romme_no_round_the_corner() -> None:
    """002 §Melds: the Ace cannot go round the corner: K-A-2 is not a run."""
    j = judge("KH AH 2H")
    assert not j.ok
    assert Code.RUN_ACE_IN_MIDDLE in j.verdict.codes


def test_romme_clara_takes_discard_for_run() -> None:
    """002 §Playing a turn: Clara's 5♣ 6♣ and the discarded 7♣ make the run 5♣ 6♣ 7♣."""
    j = judge("5C 6C 7C")
    assert j.ok
    assert j.kind is hr.MeldKind.RUN
    # 5 + 6 + 7 = 18
    assert j.points == 18


# --- §Jokers ---------------------------------------------------------------------


def test_romme_joker_stands_for_king_in_run() -> None:
    """002 §Jokers: J♣ Q♣ Joker A♣ (the joker is the K♣)."""
    j = judge("JC QC JK AC")
    assert j.ok
    assert j.kind is hr.MeldKind.RUN
    assert j.meld is not None
    assert j.meld.roles[2] == hr.parse_card("KC")
    # 10 + 10 + 10 (joker = K♣) + 11 (high Ace) = 41
    assert j.points == 41


def test_romme_joker_is_third_card_of_set() -> None:
    """002 §Jokers: 6♠ 6♥ Joker (the joker is a third 6)."""
    j = judge("6S 6H JK")
    assert j.ok
    assert j.kind is hr.MeldKind.SET
    assert j.meld is not None
    role = j.meld.roles[j.meld.cards.index(hr.JOKER)]
    assert role is not None
    assert role.rank is hr.Rank.SIX
    # 6 + 6 + 6 = 18
    assert j.points == 18


@pytest.mark.parametrize("cards", ["6S JK JK", "JK 6S JK", "JK JK 6S"])
def test_romme_one_natural_two_jokers_illegal(cards: str) -> None:
    """002 §Jokers: a meld may not consist of one natural card plus two jokers."""
    assert not judge(cards).ok


def test_romme_two_adjacent_jokers_in_four_card_run() -> None:
    """002 §Jokers: 3♠ Joker Joker 6♠ is legal (two jokers side by side in a run of four)."""
    j = judge("3S JK JK 6S")
    assert j.ok
    assert j.kind is hr.MeldKind.RUN
    assert j.meld is not None
    assert j.meld.roles[1:3] == (hr.parse_card("4S"), hr.parse_card("5S"))
    # 3 + 4 + 5 + 6 = 18
    assert j.points == 18


def test_romme_two_adjacent_jokers_illegal_in_three_card_run() -> None:
    """002 §Jokers: two jokers may sit next to each other only in a run of at least four.

    A run of three with two jokers side by side is one natural card and two jokers, which
    the sentence before bans outright, so that is the reason given."""
    j = judge("5S JK JK")
    assert j.verdict.codes == (Code.MELD_TOO_FEW_NATURALS,)
    # the same two jokers apart, in a run of five, are fine: 5♠ JK 7♠ JK 9♠
    assert judge("5S JK 7S JK 9S").ok


def test_romme_joker_in_a23_counts_1() -> None:
    """002 §The first meld: a joker is worth the card it replaces (Joker 2♦ 3♦: joker = A♦ = 1)."""
    j = judge("JK 2D 3D")
    assert j.ok
    # 1 + 2 + 3 = 6
    assert j.points == 6


# --- §The first meld ---------------------------------------------------------------


def test_romme_ben_opening_exactly_40() -> None:
    """002 §The first meld: Ben's A♦ 2♦ 3♦ 4♦ (10) + J♠ J♥ J♣ (30) = 40 may come out."""
    run = hr.Meld.of("AD 2D 3D 4D")
    jacks = hr.Meld.of("JS JH JC")
    # an Ace in A-2-3 is worth 1: 1 + 2 + 3 + 4 = 10
    assert hr.judge_meld(run, rules()).points == 10
    # 10 + 10 + 10 = 30
    assert hr.judge_meld(jacks, rules()).points == 30
    opening = hr.judge_opening([run, jacks], rules())
    assert opening.ok
    assert opening.points == 40
    assert opening.required == 40


def test_romme_ben_without_four_has_36() -> None:
    """002 §The first meld: without the 4♦ Ben would have only 36 and would have to wait."""
    opening = hr.judge_opening([hr.Meld.of("AD 2D 3D"), hr.Meld.of("JS JH JC")], rules())
    assert not opening.ok
    # 1 + 2 + 3 + 30 = 36
    assert opening.points == 36
    assert opening.verdict.codes == (Code.OPENING_BELOW_THRESHOLD,)


@pytest.mark.parametrize(("variant", "bar"), [("opening_30", 30), ("opening_35", 35)])
def test_romme_lower_opening_variants(variant: str, bar: int) -> None:
    """002 §Variants Lower opening: the first meld needs only 30 (sometimes 35)."""
    r = rules(hr.build("romme", [variant]))
    # Ben's 36 without the 4♦ now suffices
    opening = hr.judge_opening([hr.Meld.of("AD 2D 3D"), hr.Meld.of("JS JH JC")], r)
    assert opening.required == bar
    assert opening.ok
    # 2♥ 3♥ 4♥ + 7♠ 7♥ 7♦ = 9 + 21 = 30: enough for 30, not for 35
    small = hr.judge_opening([hr.Meld.of("2H 3H 4H"), hr.Meld.of("7S 7H 7D")], r)
    assert small.points == 30
    assert small.ok is (bar <= 30)


def test_romme_hand_romme_exempt_from_40() -> None:
    """002 §Scoring: for a Hand Rommé the 40-point minimum does not apply."""
    assert ROMME.opening_exemption is OpeningExemption.HAND
    melds = [hr.Meld.of("2H 3H 4H"), hr.Meld.of("7S 7H 7D")]
    # 9 + 21 = 30 < 40
    assert not hr.judge_opening(melds, rules()).ok
    assert hr.judge_opening(melds, rules(), exempt=True).ok


def test_romme_lay_off_both_ends_of_run() -> None:
    """002 §The first meld: with 2♥ 3♥ 4♥ on the table, you may add A♥ and 5♥."""
    run = table("2H 3H 4H")
    low = hr.lay_off(run, "AH", rules())
    high = hr.lay_off(run, "5H", rules())
    assert low.ok
    assert high.ok
    assert low.meld is not None
    assert high.meld is not None
    assert str(low.meld) == "A♥ 2♥ 3♥ 4♥"
    assert str(high.meld) == "2♥ 3♥ 4♥ 5♥"
    both = hr.lay_off(low.meld, "5H", rules())
    assert both.ok
    assert both.meld is not None
    assert str(both.meld) == "A♥ 2♥ 3♥ 4♥ 5♥"


# --- §Exchanging a joker ----------------------------------------------------------


def test_romme_dana_exchanges_joker_for_jack() -> None:
    """002 §Exchanging a joker: Dana puts J♣ into 9♣ 10♣ Joker Q♣ and takes the joker."""
    run = table("9C 10C JK QC")
    assert run.roles[2] == hr.parse_card("JC")
    swap = hr.exchange(run, "JC", rules())
    assert swap.ok
    assert swap.wild == hr.JOKER
    assert swap.meld is not None
    assert str(swap.meld) == "9♣ 10♣ J♣ Q♣"
    # ... and lays out 7♠ 7♥ Joker as a new set
    assert judge("7S 7H JK").ok


def test_romme_exchange_needs_the_real_card() -> None:
    """002 §Exchanging a joker: only the real card the joker stands for frees it."""
    swap = hr.exchange(table("9C 10C JK QC"), "KC", rules())
    assert not swap.ok
    assert Code.EXCHANGE_WRONG_CARDS in swap.verdict.codes


@pytest.mark.parametrize("card", ["6C", "6D"])
def test_romme_set_joker_exchanged_for_either_missing_suit(card: str) -> None:
    """002 §Exchanging a joker: 6♠ 6♥ Joker gives up the joker for 6♣ or 6♦."""
    swap = hr.exchange(table("6S 6H JK"), card, rules())
    assert swap.ok
    assert swap.wild == hr.JOKER
    assert swap.meld is not None
    assert sorted(str(c) for c in swap.meld.cards) == sorted(["6♠", "6♥", str(hr.parse_card(card))])


@pytest.mark.parametrize(("card", "kept"), [("7C", "7♦"), ("7D", "7♣")])
def test_romme_either_joker_of_a_set_of_two_jokers_is_exchanged(card: str, kept: str) -> None:
    """002 §Exchanging a joker: "you hold the real card the joker stands for". In 7♠ 7♥
    JK(=7♣) JK(=7♦) (two jokers in a set: 002 §Jokers) the 7♦ takes the joker standing for
    it, and the other joker stays as the 7♣ it stood for, and the other way round."""
    romme = rules()
    meld = table("7S 7H JK JK", roles={2: "7C", 3: "7D"})
    swap = hr.exchange(meld, card, romme)
    assert swap.ok, swap.verdict
    assert swap.wild == hr.JOKER
    assert swap.meld is not None
    assert sorted(map(str, swap.meld.cards)) == sorted(["7♠", "7♥", "JK", str(hr.parse_card(card))])
    assert [str(r) for r in swap.meld.roles if r is not None] == [kept]


def test_romme_both_exchanges_of_a_set_of_two_jokers_are_listed() -> None:
    """The same set laid in a round: the player who holds 7♣ 7♦ (and has come out) is
    offered both exchanges, each paid by one card."""
    deal = hr.fill_deal(
        ROMME,
        2,
        hands={
            0: "7S 7H JK JK 10H JH QH 2C 4C 6C 8C 9S 5H AS",
            1: "KS KD KC 9C 10C JC 7D 2D 3D 5S 6S 7C 4H",
        },
        stock=list(hr.parse_cards("QS")),
        dealer=0,
    )
    game = deal.round(ROMME, 0, 0)
    for action in (
        # the jokers count as the sevens they stand for: 7+7+7+7 + 10+10+10 = 58 >= 40
        hr.LayDown.of("7S 7H JK JK", "10H JH QH"),
        hr.Discard.of("AS"),
        hr.DrawStock(),
        hr.LayDown.of("KS KD KC", "9C 10C JC"),  # 30 + 29 = 59 >= 40
    ):
        game = game.apply(action)
    offered = {a for a in game.legal_actions() if isinstance(a, hr.Exchange)}
    assert offered == {hr.Exchange.of(1, "7C"), hr.Exchange.of(1, "7D")}
    after = game.apply(hr.Exchange.of(1, "7D"))
    assert hr.JOKER in after.hand(1)


def test_romme_set_joker_not_exchanged_for_present_suit() -> None:
    """002 §Exchanging a joker: 6♠ 6♥ Joker needs a missing suit, not a second 6♠."""
    assert not hr.exchange(table("6S 6H JK"), "6S", rules()).ok


def test_romme_tournament_jokers_refuse_exchange_from_set_of_three() -> None:
    """002 §Variants Tournament jokers: a set's joker can be taken only once it has four cards."""
    r = rules(hr.build("romme", ["tournament_jokers"]))
    swap = hr.exchange(table("6S 6H JK"), "6C", r)
    assert not swap.ok
    assert Code.EXCHANGE_SET_INCOMPLETE in swap.verdict.codes


def test_romme_tournament_jokers_allow_exchange_from_full_set() -> None:
    """002 §Variants Tournament jokers: 6♠ 6♥ 6♦ Joker gives up the joker for the 6♣."""
    ruleset = hr.build("romme", ["tournament_jokers"])
    swap = hr.exchange(table("6S 6H 6D JK", ruleset), "6C", rules(ruleset))
    assert swap.ok
    assert swap.wild == hr.JOKER


def test_romme_tournament_jokers_leave_runs_alone() -> None:
    """002 §Variants Tournament jokers: the set rule does not touch runs (Dana's exchange)."""
    ruleset = hr.build("romme", ["tournament_jokers"])
    assert hr.exchange(table("9C 10C JK QC", ruleset), "JC", rules(ruleset)).ok


# --- §Variants: round the corner ---------------------------------------------------


def test_romme_round_the_corner_allows_king_ace_two() -> None:
    """002 §Variants Round the corner: K-A-2 is allowed as a run."""
    r = rules(hr.build("romme", ["round_the_corner"]))
    j = hr.judge_meld(hr.Meld.of("KH AH 2H"), r)
    assert j.ok
    assert j.kind is hr.MeldKind.RUN
    # RULES-MATRIX R3: the Ace in K-A-2 counts 11: 10 + 11 + 2 = 23
    assert j.points == 23


def test_romme_round_the_corner_wrap_ace_1_switch() -> None:
    """RULES-MATRIX R3 switch wrap_ace_1: the Ace in K-A-2 counts 1 (10 + 1 + 2 = 13)."""
    r = rules(hr.build("romme", ["round_the_corner", "wrap_ace_1"]))
    assert hr.judge_meld(hr.Meld.of("KH AH 2H"), r).points == 13


# --- §Scoring ------------------------------------------------------------------------


def anna_goes_out(*, hand: bool = False) -> hr.RoundEnd:
    return hr.RoundEnd.of(
        [("", True), ("KS 7D AH JK", True), ("3C 3S 9H", True)],
        went_out=0,
        hand=hand,
    )


def test_romme_scoring_example_ben_and_clara() -> None:
    """002 §Scoring: Anna goes out (0); Ben K♠ 7♦ A♥ joker = 48; Clara 3♣ 3♠ 9♥ = 15."""
    score = hr.score_round(anna_goes_out(), rules())
    # Ben: 10 + 7 + 11 + 20 = 48; Clara: 3 + 3 + 9 = 15
    assert score.scores == (0, 48, 15)


def test_romme_hand_romme_doubles_others() -> None:
    """002 §Scoring: with a Hand Rommé Ben would get 96 and Clara 30; the winner scores 0."""
    score = hr.score_round(anna_goes_out(hand=True), rules())
    # 48 × 2 = 96; 15 × 2 = 30
    assert score.scores == (0, 96, 30)


def test_romme_no_flat_penalty_for_not_coming_out() -> None:
    """002 §Scoring: everyone else adds up the cards in hand, even cards that form a meld."""
    end = hr.RoundEnd.of([("", True), ("5H 6H 7H KS", False)], went_out=0)
    # 5 + 6 + 7 + 10 = 28, whether or not the player came out
    assert hr.score_round(end, rules()).scores == (0, 28)


@pytest.mark.parametrize(
    ("card", "value"),
    [("AH", 11), ("KS", 10), ("QS", 10), ("JS", 10), ("10S", 10), ("7D", 7), ("JK", 20)],
)
def test_romme_card_values_in_hand(card: str, value: int) -> None:
    """002 §Card values, §Scoring: Ace 11 always, K Q J 10 count 10, joker 20."""
    assert hr.hand_value(hr.parse_cards(card), rules()) == value


def test_romme_joker_30_variant() -> None:
    """002 §Variants Joker 30: a joker left in hand costs 30 instead of 20."""
    r = rules(hr.build("romme", ["joker_30"]))
    assert hr.card_penalty(hr.JOKER, r) == 30
    # Ben: 10 + 7 + 11 + 30 = 58
    assert hr.score_round(anna_goes_out(), r).scores == (0, 58, 15)


def test_romme_one_natural_three_jokers_illegal_by_default() -> None:
    """002 §Jokers, RULES-MATRIX R2: 1 natural + 3 jokers is no meld by default."""
    assert not judge("5H JK JK JK").ok


def test_romme_one_natural_three_jokers_switch() -> None:
    """RULES-MATRIX R2 switch one_natural_three_jokers: only 1 + 2 jokers is banned."""
    ruleset = hr.build("romme", ["one_natural_three_jokers"])
    # 5♥ + three jokers could be a run or a set of 5s: the roles say which
    assert judge("5H JK JK JK", ruleset, roles={1: "6H", 2: "7H", 3: "8H"}).ok
    assert not judge("5H JK JK", ruleset).ok


@pytest.mark.parametrize("cards", ["JK JK JK", "JK JK JK JK"])
def test_romme_all_jokers_illegal(cards: str) -> None:
    """002 §Jokers, RULES-MATRIX R2: a meld of jokers only is no meld."""
    assert not judge(cards).ok


def test_romme_two_jokers_in_set_of_four() -> None:
    """002 §Jokers, RULES-MATRIX R2: 2 naturals + 2 jokers in a set is valid by default."""
    assert judge("5S 5H JK JK").ok
    assert not judge("5S 5H JK JK", hr.build("romme", ["no_two_jokers_in_set"])).ok


def test_romme_joker_as_low_ace_counts_1_with_wild_two() -> None:
    """002 §The first meld: A♦ Joker(=2♦) 3♦ counts 1 + 2 + 3 = 6."""
    j = judge("AD JK 3D")
    assert j.ok
    assert j.points == 6


def test_romme_round_the_corner_longer_wrap() -> None:
    """002 §Variants Round the corner, RULES-MATRIX R3: Q-K-A-2-3 is also allowed."""
    assert judge("QH KH AH 2H 3H", hr.build("romme", ["round_the_corner"])).ok
    assert not judge("QH KH AH 2H 3H").ok
