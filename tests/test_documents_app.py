"""Rule document 004: the app's Hand Classic, Hand Partnership, Saudi Hand and
Saudi Hand Partnership.

Every worked example of the document, and each meld-level rule statement, is a
test. Expected values are worked out by hand from the document and the
defaults of RULES-MATRIX §3.5 (arithmetic in comments).
"""

from __future__ import annotations

import pytest

import hand_rummy as hr
from hand_rummy import Code
from hand_rummy.rules import OpeningRecord

APP = ("classic", "partnership", "saudi", "saudi_partnership")


def rules(preset: str = "classic") -> hr.MeldRules:
    return hr.MeldRules.of(hr.PRESETS[preset])


def judge(cards: str, preset: str = "classic") -> hr.MeldJudgement:
    return hr.judge_meld(hr.Meld.of(cards), rules(preset))


# --- §3 Legal melds ------------------------------------------------------------------


@pytest.mark.parametrize("preset", APP)
def test_app_run_and_set_examples(preset: str) -> None:
    """004 §3 Legal melds: 5♥ 6♥ 7♥ is a run and 9♠ 9♥ 9♦ a set."""
    run = judge("5H 6H 7H", preset)
    group = judge("9S 9H 9D", preset)
    assert run.ok
    assert run.kind is hr.MeldKind.RUN
    assert group.ok
    assert group.kind is hr.MeldKind.SET


@pytest.mark.parametrize("preset", APP)
def test_app_set_holds_at_most_four(preset: str) -> None:
    """004 §3 Legal melds: a set holds at most 4 cards."""
    assert judge("9S 9H 9D 9C", preset).ok
    assert not judge("9S 9H 9D 9C JK", preset).ok


@pytest.mark.parametrize("preset", APP)
def test_app_mixed_suits_not_a_run(preset: str) -> None:
    """004 §Common beginner mistakes: 5♥ 6♦ 7♥ is not a run."""
    assert not judge("5H 6D 7H", preset).ok


# --- §The Joker --------------------------------------------------------------------


@pytest.mark.parametrize("preset", APP)
def test_app_one_joker_per_meld(preset: str) -> None:
    """004 §The Joker: only one Joker is allowed per meld."""
    assert judge("5H JK 7H", preset).ok
    j = judge("5H JK JK 8H", preset)
    assert not j.ok
    assert Code.MELD_TOO_MANY_WILDS in j.verdict.codes
    assert not judge("9S 9H JK JK", preset).ok


def test_app_joker_replaced_by_correct_natural_card() -> None:
    """004 §The Joker: after opening, the correct natural card frees a Joker."""
    r = rules()
    run = hr.judge_meld(hr.Meld.of("5H JK 7H"), r).meld
    assert run is not None
    swap = hr.exchange(run, "6H", r)
    assert swap.ok
    assert swap.wild == hr.JOKER
    assert not hr.exchange(run, "8H", r).ok


@pytest.mark.parametrize("card", ["6C", "6D"])
def test_app_set_joker_replaced_by_either_missing_card(card: str) -> None:
    """004 §The Joker, RULES-MATRIX P5: 6♠ 6♥ Joker is exchanged for either missing suit."""
    r = rules()
    group = hr.judge_meld(hr.Meld.of("6S 6H JK"), r).meld
    assert group is not None
    assert hr.exchange(group, card, r).ok


# --- §4 The opening -----------------------------------------------------------------


@pytest.mark.parametrize("preset", APP)
def test_app_opening_example_52(preset: str) -> None:
    """004 §4 The opening: 10♥ J♥ Q♥ K♥ (40) plus 4♠ 4♥ 4♦ (12) is 52, a valid opening."""
    r = rules(preset)
    run = hr.Meld.of("10H JH QH KH")
    fours = hr.Meld.of("4S 4H 4D")
    # 10 + 10 + 10 + 10 = 40
    assert hr.judge_meld(run, r).points == 40
    # 4 + 4 + 4 = 12
    assert hr.judge_meld(fours, r).points == 12
    opening = hr.judge_opening([run, fours], r)
    assert opening.ok
    # 40 + 12 = 52 >= 51
    assert opening.points == 52


def test_app_opening_below_51_refused() -> None:
    """004 §4 The opening: the new melds must reach 51 (10♥ J♥ Q♥ K♥ + 3♠ 3♥ 3♦ = 49)."""
    opening = hr.judge_opening([hr.Meld.of("10H JH QH KH"), hr.Meld.of("3S 3H 3D")], rules())
    # 40 + 9 = 49
    assert opening.points == 49
    assert not opening.ok
    assert Code.OPENING_BELOW_THRESHOLD in opening.verdict.codes


def test_app_illegal_meld_rejects_whole_opening() -> None:
    """004 §4, §Common beginner mistakes: 5♥ 6♦ 7♥ rejects the whole opening."""
    opening = hr.judge_opening(
        [hr.Meld.of("10H JH QH KH"), hr.Meld.of("4S 4H 4D"), hr.Meld.of("5H 6D 7H")], rules()
    )
    # the two legal melds alone are worth 52, yet everything is refused together
    assert not opening.ok
    assert Code.OPENING_BELOW_THRESHOLD not in opening.verdict.codes


def test_app_joker_counts_as_represented_card_in_opening() -> None:
    """004 (silent), RULES-MATRIX P2: 10♥ J♥ Q♥ Joker (= K♥) counts 40 toward the opening."""
    j = judge("10H JH QH JK")
    assert j.ok
    # 10 + 10 + 10 + 10 (the joker as K♥) = 40
    assert j.points == 40


def test_app_classic_ace_11_also_in_a23() -> None:
    """004 §4 The opening: the Ace is worth 11 (A♥ 2♥ 3♥ = 11 + 2 + 3 = 16 in Hand Classic)."""
    assert judge("AH 2H 3H").points == 16
    # Q K A = 10 + 10 + 11 = 31
    assert judge("QH KH AH").points == 31


@pytest.mark.parametrize("preset", ["saudi", "saudi_partnership"])
def test_app_saudi_ace_1_only_in_run_starting_a23(preset: str) -> None:
    """004 §The four variants, Saudi Hand: the Ace is 1 only in a run starting A-2-3."""
    # A-2-3: 1 + 2 + 3 = 6
    assert judge("AH 2H 3H", preset).points == 6
    # A-2-3-4: 1 + 2 + 3 + 4 = 10
    assert judge("AH 2H 3H 4H", preset).points == 10
    # Q-K-A: 10 + 10 + 11 = 31
    assert judge("QH KH AH", preset).points == 31
    # a set of Aces: 11 + 11 + 11 = 33
    assert judge("AS AH AD", preset).points == 33


def test_app_saudi_ace_in_hand_11() -> None:
    """004 §4, RULES-MATRIX P12: in Saudi Hand an Ace left in hand still costs 11."""
    assert hr.hand_value(hr.parse_cards("AH"), rules("saudi")) == 11


def test_app_saudi_escalating_opening() -> None:
    """004 §The four variants, Saudi Hand: first opener 51, then the last accepted opening + 1."""
    bar = hr.rulesets.saudi.opening
    assert bar.required(0, 0, ()) == 51
    # the first opening was worth 60: the next needs 61
    assert bar.required(1, 1, (OpeningRecord(0, 0, 60),)) == 61
    # a second opening of 61 raises the bar to 62
    assert bar.required(2, 2, (OpeningRecord(0, 0, 60), OpeningRecord(1, 1, 61))) == 62
    # the bar returns to 51 each round (no openings yet)
    assert bar.required(3, 3, ()) == 51


def test_app_saudi_escalated_bar_in_judge_opening() -> None:
    """004 §The four variants, Saudi Hand: after a 60 opening, the 52 example is not enough."""
    bar = hr.rulesets.saudi.opening.required(1, 1, (OpeningRecord(0, 0, 60),))
    melds = [hr.Meld.of("10H JH QH KH"), hr.Meld.of("4S 4H 4D")]
    opening = hr.judge_opening(melds, rules("saudi"), required=bar)
    assert not opening.ok
    assert opening.required == 61


def test_app_saudi_partnership_team_opening() -> None:
    """004 §The four variants, Saudi Partnership: 51 first team, first + 1 the other."""
    bar = hr.rulesets.saudi_partnership.opening
    assert bar.required(0, 0, ()) == 51
    first = (OpeningRecord(0, 0, 60),)
    # the other team needs at least the first team's opening + 1 = 61
    assert bar.required(1, 1, first) == 61
    assert bar.required(3, 1, first) == 61
    # the opening belongs to the whole team: the opener's partner needs none
    assert bar.required(2, 0, first) is None
    # once the other team has opened too, its second player needs none either
    both = (OpeningRecord(0, 0, 60), OpeningRecord(1, 1, 65))
    assert bar.required(3, 1, both) is None


# --- §Round scoring, §The "Hand" finish ------------------------------------------------


@pytest.mark.parametrize(
    ("card", "value"),
    [("AH", 11), ("KS", 10), ("QS", 10), ("JS", 10), ("10S", 10), ("2D", 2), ("JK", 15)],
)
def test_app_card_values_in_hand(card: str, value: int) -> None:
    """004 §4, §The Joker: 2-10 face value, J Q K 10, Ace 11, a Joker left in hand 15."""
    assert hr.hand_value(hr.parse_cards(card), rules()) == value


def classic_end(*, hand: bool) -> hr.RoundEnd:
    return hr.RoundEnd.of(
        [("", True), ("KS 7D JK", True), ("9S 9D", False), ("AH 2C", True)],
        went_out=0,
        hand=hand,
    )


def test_app_round_scoring_table() -> None:
    """004 §Round scoring: went out −30, opened + cards in hand, never opened +100."""
    score = hr.score_round(classic_end(hand=False), rules())
    # 10 + 7 + 15 = 32; flat 100; 11 + 2 = 13
    assert score.scores == (-30, 32, 100, 13)


def test_app_hand_finish_scoring() -> None:
    """004 §The "Hand" finish: −60, the others' penalties ×2, never opened +200."""
    score = hr.score_round(classic_end(hand=True), rules())
    # 32 × 2 = 64; 200; 13 × 2 = 26
    assert score.scores == (-60, 64, 200, 26)


def partnership_end(*, hand: bool) -> hr.RoundEnd:
    # partners sit opposite: seats 0 and 2, seats 1 and 3
    return hr.RoundEnd.of(
        [("", True), ("KS 7D JK", True), ("QH 5C", True), ("9S 9D", False)],
        went_out=0,
        hand=hand,
    )


def test_app_partnership_team_score_is_sum_of_players() -> None:
    """004 §Round scoring, RULES-MATRIX P7: a team's round score is the sum of its two players."""
    score = hr.score_round(partnership_end(hand=False), rules("partnership"))
    # seats: −30, 32, 15 (10 + 5), 100; teams: −30 + 15 = −15 and 32 + 100 = 132
    assert score.scores == (-30, 32, 15, 100)
    assert score.team_scores == (-15, 132)


def test_app_partnership_hand_team_sum() -> None:
    """004 §The "Hand" finish, RULES-MATRIX P7: per-player Hand table, then summed."""
    score = hr.score_round(partnership_end(hand=True), rules("partnership"))
    # −60 + 2 × 15 = −30; 2 × 32 + 200 = 264
    assert score.team_scores == (-30, 264)


def test_app_partnership_winner_team_scoring_switch() -> None:
    """RULES-MATRIX P7 switch winner_team_scoring: 000-style, the partner's cards don't count."""
    r = hr.MeldRules.of(hr.build("partnership", ["winner_team_scoring"]))
    score = hr.score_round(partnership_end(hand=False), r)
    # team 0: −30 alone; team 1: 32 + 100 = 132
    assert score.team_scores == (-30, 132)


def test_app_saudi_partnership_partner_of_opener_scores_cards() -> None:
    """004 Saudi Hand Partnership, RULES-MATRIX P9 c: the team has opened, so cards, not +100."""
    end = hr.RoundEnd.of(
        [("", True), ("KS 7D", True), ("QH 5C", False), ("9S 9D", False)],
        went_out=0,
    )
    score = hr.score_round(end, rules("saudi_partnership"))
    # seat 2 never laid down but seat 0 (partner) opened: 10 + 5 = 15;
    # seat 3's partner seat 1 opened: 9 + 9 = 18
    assert score.scores == (-30, 17, 15, 18)
    assert score.team_scores == (-15, 35)


@pytest.mark.parametrize("preset", ["saudi", "saudi_partnership"])
def test_app_saudi_ace_1_with_joker_in_a23(preset: str) -> None:
    """004 Saudi Hand: A♥ Joker(=2♥) 3♥ starts A-2-3, so 1 + 2 + 3 = 6."""
    assert judge("AH JK 3H", preset).points == 6
    # Joker(=A♥) 2♥ 3♥: the joker counts as the card it stands for, the low Ace, 1
    assert judge("JK 2H 3H", preset).points == 6


@pytest.mark.parametrize("preset", APP)
def test_app_king_ace_two_not_a_run(preset: str) -> None:
    """004 (silent), RULES-MATRIX P1: as in 000/002/003 the Ace does not wrap (K-A-2)."""
    assert not judge("KH AH 2H", preset).ok
    assert judge("AH 2H 3H", preset).ok
    assert judge("QH KH AH", preset).ok
