"""Rule document 003: Hand as played in Saudi Arabia and the Gulf.

Every worked example of the document, and each meld-level rule statement, is a
test. Expected values are worked out by hand from the document and the
defaults of RULES-MATRIX §3.4 (arithmetic in comments).
"""

from __future__ import annotations

import pytest

import hand_rummy as hr
from hand_rummy import Code
from hand_rummy.rules.opening import OpeningExemption

GULF = hr.rulesets.gulf


def rules(ruleset: hr.Ruleset = GULF) -> hr.MeldRules:
    return hr.MeldRules.of(ruleset)


def judge(cards: str, ruleset: hr.Ruleset = GULF) -> hr.MeldJudgement:
    return hr.judge_meld(hr.Meld.of(cards), rules(ruleset))


def table(cards: str, ruleset: hr.Ruleset = GULF) -> hr.Meld:
    j = judge(cards, ruleset)
    assert j.ok, j.verdict
    assert j.meld is not None
    return j.meld


# --- §Types of Melds ----------------------------------------------------------------


def test_gulf_set_example() -> None:
    """003 §Types of Melds: 7♠ 7♥ 7♦ is a set."""
    j = judge("7S 7H 7D")
    assert j.ok
    assert j.kind is hr.MeldKind.SET


def test_gulf_run_example() -> None:
    """003 §Types of Melds: 5♥ 6♥ 7♥ 8♥ is a run."""
    j = judge("5H 6H 7H 8H")
    assert j.ok
    assert j.kind is hr.MeldKind.RUN
    # 5 + 6 + 7 + 8 = 26
    assert j.points == 26


def test_gulf_ace_high_or_low_never_wrapped() -> None:
    """003 §Types of Melds: Ace high (Q-K-A) or low (A-2-3); K-A-2 is invalid."""
    assert judge("QH KH AH").ok
    assert judge("AH 2H 3H").ok
    assert not judge("KH AH 2H").ok


def test_gulf_set_different_suits_at_most_four() -> None:
    """003 §Types of Melds: a set is 3 or 4 cards of one rank from different suits."""
    assert judge("7S 7H 7D 7C").ok
    assert not judge("7S 7S 7H").ok
    assert not judge("7S 7H 7D 7C JK").ok


# --- §Jokers -----------------------------------------------------------------------


def test_gulf_one_joker_in_three_card_meld() -> None:
    """003 §Jokers: a 3-card meld may hold one joker (5♥ Joker 7♥, 7♠ 7♥ Joker)."""
    assert judge("5H JK 7H").ok
    assert judge("7S 7H JK").ok


@pytest.mark.parametrize("cards", ["5H JK JK", "JK 5H JK", "7S JK JK"])
def test_gulf_two_jokers_in_three_card_meld_illegal(cards: str) -> None:
    """003 §Jokers: maximum 1 joker allowed in a 3-card meld."""
    j = judge(cards)
    assert j.verdict.codes == (Code.MELD_TOO_MANY_WILDS,)


@pytest.mark.parametrize("cards", ["5H JK JK 8H", "5H 6H JK JK", "7S 7H JK JK", "5H JK 7H JK 9H"])
def test_gulf_two_jokers_in_meld_of_four_or_more(cards: str) -> None:
    """003 §Jokers: maximum 2 jokers in a meld of 4 or more cards."""
    assert judge(cards).ok


@pytest.mark.parametrize("cards", ["5H JK JK JK", "5H JK JK JK 9H", "JK 6H JK 8H JK"])
def test_gulf_three_jokers_illegal(cards: str) -> None:
    """003 §Jokers: a meld of 4 or more cards may hold at most 2 jokers."""
    j = judge(cards)
    assert not j.ok
    assert Code.MELD_TOO_MANY_WILDS in j.verdict.codes


@pytest.mark.parametrize("cards", ["JK JK JK", "JK JK JK JK"])
def test_gulf_meld_never_all_jokers(cards: str) -> None:
    """003 §Jokers: a meld cannot consist entirely of jokers."""
    assert not judge(cards).ok


# --- §First Meld Requirement --------------------------------------------------------


def test_gulf_opening_ace_15_joker_25_reaches_51() -> None:
    """003 §First Meld Requirement: Ace 15, Joker 25: A♥ 2♥ 3♥ + 3♣ 3♦ Joker = 20 + 31 = 51."""
    run = hr.Meld.of("AH 2H 3H")
    threes = hr.Meld.of("3C 3D JK")
    # 15 (Ace, no A-2-3 exception, matrix G12) + 2 + 3 = 20
    assert hr.judge_meld(run, rules()).points == 20
    # 3 + 3 + 25 (a joker is a flat 25) = 31
    assert hr.judge_meld(threes, rules()).points == 31
    opening = hr.judge_opening([run, threes], rules())
    assert opening.required == 51
    assert opening.ok
    # 20 + 31 = 51 (with Ace 11 and the joker as a 3 it would be only 16 + 9 = 25)
    assert opening.points == 51


def test_gulf_opening_without_ace_falls_short() -> None:
    """003 §First Meld Requirement: 2♥ 3♥ 4♥ + 3♣ 3♦ Joker = 9 + 31 = 40 is below 51."""
    opening = hr.judge_opening([hr.Meld.of("2H 3H 4H"), hr.Meld.of("3C 3D JK")], rules())
    assert not opening.ok
    assert opening.points == 40
    assert Code.OPENING_BELOW_THRESHOLD in opening.verdict.codes


def test_gulf_opening_court_cards_10() -> None:
    """003 §First Meld Requirement: King/Queen/Jack/10 = 10 (Q♥ K♥ A♥ = 10 + 10 + 15 = 35)."""
    assert judge("QH KH AH").points == 35
    # 10 + 10 + 10 = 30
    assert judge("10S 10H 10D").points == 30


def test_gulf_hand_not_exempt_from_51_by_default() -> None:
    """003 §First Meld Requirement, RULES-MATRIX G8: no exemption is stated; 51 applies."""
    assert GULF.opening_exemption is OpeningExemption.NONE
    # G8's alternative, a switch: exempt, as 000 and 002 have it
    exempt = hr.build("gulf", ["hand_exempt"]).opening_exemption
    assert exempt is OpeningExemption.HAND


# --- exchange (not mentioned: RULES-MATRIX G7) ---------------------------------------


def test_gulf_no_joker_exchange_by_default() -> None:
    """003 (silent), RULES-MATRIX G7: a joker on the table may not be exchanged."""
    swap = hr.exchange(table("5H JK 7H"), "6H", rules())
    assert not swap.ok
    assert swap.verdict.codes == (Code.EXCHANGE_NOT_ALLOWED,)


def test_gulf_joker_exchange_switch() -> None:
    """RULES-MATRIX G7 switch joker_exchange: 5♥ Joker 7♥ gives up the joker for the 6♥."""
    ruleset = hr.build("gulf", ["joker_exchange"])
    swap = hr.exchange(table("5H JK 7H", ruleset), "6H", rules(ruleset))
    assert swap.ok
    assert swap.wild == hr.JOKER
    assert swap.meld is not None
    assert str(swap.meld) == "5♥ 6♥ 7♥"


# --- §Scoring, §Hand Bonus ------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "value"),
    [("AH", 15), ("KS", 10), ("QS", 10), ("JS", 10), ("10S", 10), ("9D", 9), ("JK", 25)],
)
def test_gulf_card_values_in_hand(card: str, value: int) -> None:
    """003 §Scoring, RULES-MATRIX G1: cards in hand count Ace 15, 10-K 10, Joker 25."""
    assert hr.hand_value(hr.parse_cards(card), rules()) == value


def gulf_end(*, hand: bool) -> hr.RoundEnd:
    return hr.RoundEnd.of(
        [("", True), ("KS 7D AH JK", True), ("3C 3S 9H", False), ("QD", True)],
        went_out=0,
        hand=hand,
    )


def test_gulf_round_scoring_winner_zero_others_cards() -> None:
    """003 §Scoring, RULES-MATRIX G1: the others score their cards; the winner 0."""
    score = hr.score_round(gulf_end(hand=False), rules())
    # 10 + 7 + 15 + 25 = 57; never opened: cards, 3 + 3 + 9 = 15; 10
    assert score.scores == (0, 57, 15, 10)


def test_gulf_hand_doubles_others_penalties() -> None:
    """003 §Hand Bonus: penalty points for all other players are DOUBLED (winner 0, G1)."""
    score = hr.score_round(gulf_end(hand=True), rules())
    # 57 × 2 = 114; 15 × 2 = 30; 10 × 2 = 20
    assert score.scores == (0, 114, 30, 20)


def test_gulf_joker_counts_25_wherever_it_stands() -> None:
    """003 §First Meld Requirement: Joker = 25 (Q♥ K♥ Joker = 10 + 10 + 25 = 45)."""
    assert judge("QH KH JK").points == 45
    # 2♥ Joker 4♥: 2 + 25 + 4 = 31
    assert judge("2H JK 4H").points == 31


def test_gulf_set_of_aces_counts_15_each() -> None:
    """003 §First Meld Requirement: Ace = 15 (A♠ A♥ A♦ = 45)."""
    assert judge("AS AH AD").points == 45
