"""First melds, drawing and meld shapes, case by case, in every preset and variant.

What this covers (the two earlier case files, ``test_whole_rounds.py`` and
``test_turn_rules_cases.py``, cover scoring, whole rounds, exchanges, lay-offs, going
out, redeals and discarded wild cards):

* the opening (first meld): the bar of each system (51 in 000, 40 in 002, 51 with
  Ace 15 and Joker 25 in 003, 51 in 004 Classic and Partnership, 004 Saudi's
  escalating bar and Saudi Partnership's team bar) and of every variant (000's 61, 71,
  91 and beat-the-last, 002's 30 and 35); what counts toward it (the card a wild
  stands for, the Ace low or high, natural jokers under 000's indicator); several melds
  laid together, an illegal meld among them, lay-offs made in the opening turn; the
  exemption of 000 §The first meld "Exception" (RULES-MATRIX L11 and its switch
  ``exemption_hand_only``), of 002's Hand Rommé, and the switch ``hand_exempt`` of
  003/004;
* drawing: taking the top of the discard pile in each system (000's new meld with two
  hand cards, its variant "Taking the discard", 002's free take and its variant
  "Discard pile only for melding", 003's free take, 004's obligation to open and its
  ban on discarding the fire card again), the starter's first turn with the extra
  card, and drawing when the stock is used up;
* meld shapes: runs (Ace low and high, never in the middle, round the corner under
  002's variant, three cards at least), sets (three or four cards of
  distinct suits), the wild limits of each system (one wild per meld in 000 and 004,
  002's joker rules, 003's limit by length), and what 000's indicator makes wild
  (including its variants "Jokers only" and "Without jokers");
* compositions of the variants and switches of each preset.

How the expected values were found: every expected answer was worked out by hand from
the rule documents (000 to 004, cited by section in each test's docstring), and where
the documents are silent from the default reading of RULES-MATRIX §3 (its entry and
switch are named). The arithmetic is in the comments. No expected value was read back
from the library. A move in a round is judged three ways that must agree:
``Round.check`` (and ``apply``, which raises on a refused move), whether the move is in
``Round.legal_actions()``, and the JSON referee (``hand_rummy.referee.answer``) asked
about the same position; a meld or an opening on its own is judged by ``judge_meld`` /
``judge_opening`` and by the referee's ``meld`` / ``opening`` questions.

Where the documents leave a question open and the rules matrix gives no default (a run
of fourteen cards with an Ace at each end, say), no case locks either reading in.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import hand_rummy as hr
from case_positions import spot
from hand_rummy import Code
from hand_rummy.referee import answer
from three_ways import expect, ok, refused

PLAY = hr.Phase.PLAY
DRAW = hr.Phase.DRAW

# With the 8♣ turned in the Levant game both A♣ are wild and the jokers are plain
# Aces of clubs (000 §Wild cards, the "indicator is the 8♣" example).
EIGHT_CLUBS = "8C"


# --- helpers ------------------------------------------------------------------------


def c(text: str) -> hr.Card:
    return hr.parse_card(text)


def rules(preset: str, *variants: str) -> hr.Ruleset:
    return hr.build(preset, list(variants))


def lay(*texts: str) -> hr.LayDown:
    return hr.LayDown(tuple(hr.Meld.of(t) for t in texts))


def off(target: int, card: str, role: str | None = None) -> hr.LayOff:
    return hr.LayOff(target, c(card), c(role) if role else None)


def discard(card: str, announce: bool = False) -> hr.Discard:
    return hr.Discard(c(card), announce=announce)


def meld_rules(ruleset: hr.Ruleset, indicator: str | None) -> hr.MeldRules:
    return hr.MeldRules.of(ruleset, indicator) if indicator else hr.MeldRules.of(ruleset)


def question(ruleset: hr.Ruleset, indicator: str | None, ask: str, **fields: Any) -> Any:
    """A referee question about ``ruleset`` (a preset with its variants)."""
    base = ruleset.name
    q: dict[str, Any] = {"rules": base, "variants": list(ruleset.variants), "ask": ask}
    if indicator:
        q["indicator"] = indicator
    q.update(fields)
    return answer(q)


LEVANT = hr.rulesets.levant
ROMME = hr.rulesets.romme
GULF = hr.rulesets.gulf
CLASSIC = hr.rulesets.classic
SAUDI = hr.rulesets.saudi


def _players(ruleset: hr.Ruleset) -> int:
    return ruleset.players.minimum


def _others(ruleset: hr.Ruleset, size: int = 9) -> tuple[int, ...]:
    return (size,) * (_players(ruleset) - 1)


def _indicator(ruleset: hr.Ruleset, indicator: str | None) -> str | None:
    """The 8♣ where the rules turn an indicator and the case names none."""
    if indicator is None and ruleset.wilds.indicator:
        return EIGHT_CLUBS
    return indicator


def _fits_deck(ruleset: hr.Ruleset, cards: str) -> bool:
    """Whether a deck of ``ruleset`` holds all of ``cards`` at once."""
    held = Counter(hr.parse_cards(cards))
    return all(n <= ruleset.deck.copies(card.is_joker) for card, n in held.items())


# =====================================================================================
# A. Meld shapes
# =====================================================================================

# (preset, variants, indicator, cards, ok, opening points or the expected code)
SHAPES: list[tuple[str, tuple[str, ...], str | None, str, bool, int | Code]] = [
    # --- 000 Levant, 8♣ turned: both A♣ wild, jokers natural A♣ -------------------
    # §Melds: "The Ace can be low (A 2 3)"; §The first meld: "The Ace in a low sequence
    # A 2 3 still counts 11": 11 + 2 + 3 = 16
    ("levant", (), None, "AH 2H 3H", True, 16),
    # §Melds: "or high (Q K A)": 10 + 10 + 11 = 31
    ("levant", (), None, "QH KH AH", True, 31),
    # §Melds: "K A 2 is not a sequence"
    ("levant", (), None, "KH AH 2H", False, Code.RUN_ACE_IN_MIDDLE),
    # §Melds: "at least three cards"
    ("levant", (), None, "8H 9H", False, Code.MELD_TOO_SHORT),
    # §Melds: "three or four cards of the same rank in different suits": 5 × 4 = 20
    ("levant", (), None, "5S 5H 5D 5C", True, 20),
    # a fifth card is too many (three or four), even a wild
    ("levant", (), None, "5S 5H 5D 5C AC", False, Code.SET_TOO_LARGE),
    # §Melds: "9♠ 9♠ 9♥ is not a group"
    ("levant", (), None, "9S 9S 9H", False, Code.SET_IDENTICAL_CARDS),
    # mixed suits and ranks
    ("levant", (), None, "5H 6D 7H", False, Code.MELD_NOT_RUN_OR_SET),
    # §Wild cards example: "7♥ A♣ 9♥ is a sequence": 7 + 8 + 9 = 24
    ("levant", (), None, "7H AC 9H", True, 24),
    # §Wild cards example: "5♠ 5♦ A♣ is a group"; §The first meld: the wild "counts
    # as one card of that rank": 5 × 3 = 15
    ("levant", (), None, "5S 5D AC", True, 15),
    # §Wild cards example: "J♣ Q♣ K♣ joker is a sequence of natural cards": 30 + 11
    ("levant", (), None, "JC QC KC JK", True, 41),
    # §Wild cards example: "4♥ A♣ A♣ is not a meld: two wild cards"
    ("levant", (), None, "4H AC AC", False, Code.MELD_TOO_MANY_WILDS),
    # two wilds in a longer run are still two
    ("levant", (), None, "7H AC 9H 10H AC", False, Code.MELD_TOO_MANY_WILDS),
    # the natural joker (A♣) beside one wild A♣: one wild only; A♣ 2♣ 3♣ = 11 + 2 + 3
    ("levant", (), None, "JK AC 3C", True, 16),
    # the joker is the natural A♣, so it may begin A-2-3: 11 + 2 + 3
    ("levant", (), None, "JK 2C 3C", True, 16),
    # two jokers are two identical A♣ (§Melds: no identical cards in a group)
    ("levant", (), None, "AS JK JK", False, Code.SET_IDENTICAL_CARDS),
    # A♠ A♥ and the joker as the natural A♣: 11 × 3
    ("levant", (), None, "AS AH JK", True, 33),
    # a wild at a run's end stands for the card at its written place (L3): 2 3 4 = 9
    ("levant", (), None, "2H 3H AC", True, 9),
    # the longest run, A to K: 11 + (2 + ... + 9 = 44) + 10 × 4 = 95
    ("levant", (), None, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", True, 95),
    # §Wild cards: an Ace indicator makes the jokers wild ("JK 5H 6H": 4 + 5 + 6) ...
    ("levant", (), "AH", "JK 5H 6H", True, 15),
    # ... and only one of them per meld
    ("levant", (), "AH", "JK JK 5H", False, Code.MELD_TOO_MANY_WILDS),
    # ... and every Ace is ordinary: A♣ 2♣ 3♣ is natural, 11 + 2 + 3
    ("levant", (), "AH", "AC 2C 3C", True, 16),
    # ... so two identical A♦ cannot share a group
    ("levant", (), "AH", "AD AD AS", False, Code.SET_IDENTICAL_CARDS),
    # with the 5♠ turned the A♠ is wild, the A♣ natural
    ("levant", (), "5S", "7H AS 9H", True, 24),
    ("levant", (), "5S", "7H AC 9H", False, Code.MELD_NOT_RUN_OR_SET),
    # §Variants "Jokers only": no indicator, the jokers are the only wild cards
    ("levant", ("jokers_only",), None, "JK 5H 6H", True, 15),
    ("levant", ("jokers_only",), None, "AC 5H 6H", False, Code.MELD_NOT_RUN_OR_SET),
    # §Variants "Without jokers": the A♣ (8♣ turned) is wild; there is no joker
    ("levant", ("no_jokers",), None, "AC 5H 6H", True, 15),
    ("levant", ("no_jokers",), None, "JK 5H 6H", False, Code.CARD_NOT_IN_DECK),
    # Without jokers, A♥ turned: the other A♥ is wild (L13 literal) ...
    ("levant", ("no_jokers",), "AH", "5S 5D AH", True, 15),
    # ... or the round has no wild cards (L13 switch ace_indicator_no_wilds)
    (
        "levant",
        ("no_jokers", "ace_indicator_no_wilds"),
        "AH",
        "5S 5D AH",
        False,
        Code.MELD_NOT_RUN_OR_SET,
    ),
    # --- 002 Rommé -------------------------------------------------------------------
    # §Jokers example "J♣ Q♣ Joker A♣ (the joker is the K♣)": 10 + 10 + 10 + 11
    ("romme", (), None, "JC QC JK AC", True, 41),
    # §Jokers example "6♠ 6♥ Joker (the joker is a third 6)": 18
    ("romme", (), None, "6S 6H JK", True, 18),
    # §Jokers: "A meld may not consist of one natural card plus two jokers"
    ("romme", (), None, "JK 5S JK", False, Code.MELD_TOO_FEW_NATURALS),
    ("romme", (), None, "5S JK JK", False, Code.MELD_TOO_FEW_NATURALS),
    # §Jokers example "3♠ Joker Joker 6♠": 3 + 4 + 5 + 6 = 18
    ("romme", (), None, "3S JK JK 6S", True, 18),
    # two jokers side by side at the end of a run of four: 3 + 4 + 5 + 6
    ("romme", (), None, "3S 4S JK JK", True, 18),
    # R2 default: three jokers side by side in a run of five with two naturals
    ("romme", (), None, "3S JK JK JK 7S", True, 25),
    # R2 default: two naturals and two jokers in a set (no order, so never "adjacent")
    ("romme", (), None, "5S 5H JK JK", True, 20),
    # R2 switch: a set may not hold two jokers
    ("romme", ("no_two_jokers_in_set",), None, "5S 5H JK JK", False, Code.WILDS_ADJACENT),
    # R2 default: one natural and three jokers is no meld
    ("romme", (), None, "JK JK JK 6S", False, Code.MELD_TOO_FEW_NATURALS),
    # §The first meld: "an Ace in A-2-3 is worth only 1": 1 + 2 + 3
    ("romme", (), None, "AH 2H 3H", True, 6),
    # "a joker is worth the card it replaces", here the Ace of A-2-3: 1 + 2 + 3
    ("romme", (), None, "JK 2H 3H", True, 6),
    # Q-K-A: the Ace high counts 11 (§Card values, §Scoring)
    ("romme", (), None, "QH KH AH", True, 31),
    # §Melds: "It cannot go round the corner: K-A-2 is not a run"
    ("romme", (), None, "KH AH 2H", False, Code.RUN_ACE_IN_MIDDLE),
    # §Variants "Round the corner": K-A-2 allowed; R3: the Ace counts 11: 10 + 11 + 2
    ("romme", ("round_the_corner",), None, "KH AH 2H", True, 23),
    # R3 switch wrap_ace_1: 10 + 1 + 2
    ("romme", ("round_the_corner", "wrap_ace_1"), None, "KH AH 2H", True, 13),
    # R3 default: longer wraps are allowed: 10 + 10 + 11 + 2 + 3
    ("romme", ("round_the_corner",), None, "QH KH AH 2H 3H", True, 36),
    # a round-the-corner run still starting A-2-3 is a low run: 1 + 2 + 3
    ("romme", ("round_the_corner",), None, "AH 2H 3H", True, 6),
    # §Melds: sets of 3 or 4
    ("romme", (), None, "6S 6H 6D 6C JK", False, Code.SET_TOO_LARGE),
    # --- 003 Gulf ------------------------------------------------------------------------
    # §Jokers: "Maximum 1 joker allowed in a 3-card meld"; §First Meld: Joker 25
    ("gulf", (), None, "JK 5S 6S", True, 36),
    ("gulf", (), None, "5S JK JK", False, Code.MELD_TOO_MANY_WILDS),
    # "maximum 2 jokers in a meld of 4 or more cards": 25 + 25 + 5 + 6
    ("gulf", (), None, "JK JK 5S 6S", True, 61),
    ("gulf", (), None, "JK 5S JK 7S", True, 62),
    ("gulf", (), None, "5S 5H JK JK", True, 60),
    ("gulf", (), None, "JK JK JK 5S 6S", False, Code.MELD_TOO_MANY_WILDS),
    # "A meld cannot consist entirely of jokers"
    ("gulf", (), None, "JK JK JK", False, Code.MELD_ALL_WILD),
    # §First Meld: Ace = 15 (no exception for A-2-3, G12): 15 + 2 + 3
    ("gulf", (), None, "AH 2H 3H", True, 20),
    ("gulf", (), None, "AS AH AD", True, 45),
    # §Types of Melds: "cannot wrap around (K-A-2 is invalid)"
    ("gulf", (), None, "KH AH 2H", False, Code.RUN_ACE_IN_MIDDLE),
    ("gulf", (), None, "9S 9H 9D 9C JK", False, Code.SET_TOO_LARGE),
    # --- 004 the app ---------------------------------------------------------------
    # §The Joker: "only one Joker is allowed per meld"
    ("classic", (), None, "JK JK 5S 6S", False, Code.MELD_TOO_MANY_WILDS),
    # §3: "A set holds at most 4 cards"
    ("classic", (), None, "9S 9H 9D 9C", True, 36),
    ("classic", (), None, "9S 9H 9D 9C JK", False, Code.SET_TOO_LARGE),
    ("classic", (), None, "9S 9S 9H", False, Code.SET_IDENTICAL_CARDS),
    # §Common beginner mistakes: "5♥ 6♦ 7♥ is not a run"
    ("classic", (), None, "5H 6D 7H", False, Code.MELD_NOT_RUN_OR_SET),
    # P1 default: Ace low or high, no wrap; §4: Ace 11 (also in A-2-3 in Classic)
    ("classic", (), None, "AH 2H 3H", True, 16),
    ("classic", (), None, "QH KH AH", True, 31),
    ("classic", (), None, "KH AH 2H", False, Code.RUN_ACE_IN_MIDDLE),
    # P2 default: the joker counts as the card it stands for: 4 + 5 + 6
    ("classic", (), None, "JK 5S 6S", True, 15),
    # P3 default: the joker may stand at a run's end; switch joker_inside_only
    ("classic", ("joker_inside_only",), None, "JK 5S 6S", False, Code.WILD_AT_RUN_END),
    ("classic", ("joker_inside_only",), None, "5S JK 7S", True, 18),
    # P2 switches: the joker counts 15 or 25 toward the opening
    ("classic", ("joker_opening_15",), None, "JK 5S 6S", True, 26),
    ("classic", ("joker_opening_25",), None, "JK 5S 6S", True, 36),
    # §The four variants, Saudi Hand: "The Ace is 1 only in a run starting A-2-3"
    ("saudi", (), None, "AH 2H 3H", True, 6),
    ("saudi", (), None, "AH 2H 3H 4H", True, 10),
    ("saudi", (), None, "JK 2H 3H", True, 6),
    ("saudi", (), None, "QH KH AH", True, 31),
    ("saudi", (), None, "AS AH AD", True, 33),
    ("saudi_partnership", (), None, "AH 2H 3H", True, 6),
    ("partnership", (), None, "AH 2H 3H", True, 16),
]


Shape = tuple[str, tuple[str, ...], str | None, str, bool, int | Code]


@pytest.mark.parametrize(
    "case",
    SHAPES,
    ids=[f"{p}{'+' + '+'.join(v) if v else ''}-{cards}" for p, v, _, cards, _, _ in SHAPES],
)
def test_meld_shape_and_value(case: Shape) -> None:
    """000 §Melds, §Wild cards, §The first meld, §Variants; 002 §Melds, §Jokers, §The
    first meld, §Variants; 003 §Types of Melds, §Jokers, §First Meld Requirement; 004 §3,
    §4, §The Joker, §The four variants (each row's comment cites its sentence). The
    meld is judged by ``judge_meld`` and the referee's ``meld`` question, and laid down
    by a player who has opened (check, listing, referee)."""
    preset, variants, indicator, cards, legal, expected = case
    ruleset = rules(preset, *variants)
    turned = _indicator(ruleset, indicator)
    judgement = hr.judge_meld(hr.Meld.of(cards), meld_rules(ruleset, turned))
    reply = question(ruleset, turned, "meld", cards=cards)
    assert judgement.ok is legal, judgement.verdict
    assert reply["ok"] is legal, reply
    if legal:
        assert judgement.points == expected
        assert reply["points"] == expected
    else:
        assert expected in judgement.verdict.codes
        assert isinstance(expected, Code) and expected.value in [
            v["code"] for v in reply["violations"]
        ]
    if not _fits_deck(ruleset, f"{cards} 2D 7S 10S 10D 10C {turned or ''}"):
        return  # no round can hold more copies of a card than the deck has
    # seat 0 has opened (it owns meld 1) and lays the meld down, keeping two cards
    game = spot(
        ruleset,
        f"{cards} 2D 7S",
        table=[(1, 0, "10S 10D 10C")],
        others=_others(ruleset),
        indicator=turned,
    )
    expect(game, lay(cards), legal)


# =====================================================================================
# B. The opening: bars and values
# =====================================================================================

# The cards an unopened player keeps beside the opening: three cards that make no meld
# and, on an empty table, cannot be laid off, so no opening here can go out at once.
LEFT = "2C 7S KD"

# (preset, variants, indicator, melds, legal, points, bar)
Opening = tuple[str, tuple[str, ...], str | None, tuple[str, ...], bool, int, int]
OPENINGS: list[Opening] = [
    # 000 §The first meld, Anna: 9♥-Q♥ (39) + 4♠ 4♦ A♣ (12) = 51, "enough"
    ("levant", (), None, ("9H 10H JH QH", "4S 4D AC"), True, 51, 51),
    # 39 + 3♠ 3♦ 3♥ (9) = 48 < 51
    ("levant", (), None, ("9H 10H JH QH", "3S 3D 3H"), False, 48, 51),
    # "The Ace in a low sequence A 2 3 still counts 11": A-5♥ 11+2+3+4+5 = 25 + 30 = 55
    ("levant", (), None, ("AH 2H 3H 4H 5H", "QS QD QH"), True, 55, 51),
    # §Variants "Ace values": "an Ace in A 2 3 counts only 1": 15 + 30 = 45 < 51
    ("levant", ("low_ace_1",), None, ("AH 2H 3H 4H 5H", "QS QD QH"), False, 45, 51),
    # a wild at the high end of Q K W stands for the A♥ (L3: its written place):
    # 10 + 10 + 11 = 31, + 2♠-6♠ (20) = 51
    ("levant", (), None, ("QH KH AC", "2S 3S 4S 5S 6S"), True, 51, 51),
    # written first it stands for the J♥: 10 + 10 + 10 = 30, + 20 = 50 < 51
    ("levant", (), None, ("AC QH KH", "2S 3S 4S 5S 6S"), False, 50, 51),
    # L3 switch wild_role_best_value: the richer reading (A♥) whatever the order: 51
    ("levant", ("wild_role_best_value",), None, ("AC QH KH", "2S 3S 4S 5S 6S"), True, 51, 51),
    # the natural joker is an A♣ worth 11 (matrix L1), not a wild worth 15:
    # J♣ Q♣ K♣ JK = 41, + 2♦ 3♦ 4♦ (9) = 50 < 51; + 3♦ 4♦ 5♦ (12) = 53
    ("levant", (), None, ("JC QC KC JK", "2D 3D 4D"), False, 50, 51),
    ("levant", (), None, ("JC QC KC JK", "3D 4D 5D"), True, 53, 51),
    # A♥ turned, jokers wild: 5♠-9♠ (35) + JK 5♥ 6♥ (4 + 5 + 6 = 15) = 50 < 51
    ("levant", (), "AH", ("5S 6S 7S 8S 9S", "JK 5H 6H"), False, 50, 51),
    # §Variants "Higher minimum": 61 / 71 / 91
    ("levant", ("opening_61",), None, ("9H 10H JH QH", "4S 4D AC"), False, 51, 61),
    # 10♠-K♠ (40) + 7♥ 7♦ 7♣ (21) = 61
    ("levant", ("opening_61",), None, ("10S JS QS KS", "7H 7D 7C"), True, 61, 61),
    # 40 + 10♥ 10♦ 10♣ (30) = 70 < 71
    ("levant", ("opening_71",), None, ("10S JS QS KS", "10H 10D 10C"), False, 70, 71),
    # A-5♥ (25) + J♠ J♦ J♥ (30) + 7♦ 8♦ 9♦ (24) = 79 ≥ 71 ...
    ("levant", ("opening_71",), None, ("AH 2H 3H 4H 5H", "JS JD JH", "7D 8D 9D"), True, 79, 71),
    # ... but with the low Ace at 1: 15 + 30 + 24 = 69 < 71
    (
        "levant",
        ("opening_71", "low_ace_1"),
        None,
        ("AH 2H 3H 4H 5H", "JS JD JH", "7D 8D 9D"),
        False,
        69,
        71,
    ),
    # 40 + 30 + 16 (A♥ 2♥ 3♥) = 86 < 91; 10♠-A♠ (51) + 30 + 3♥ 4♥ 5♥ (12) = 93
    ("levant", ("opening_91",), None, ("10S JS QS KS", "10H 10D 10C", "AH 2H 3H"), False, 86, 91),
    ("levant", ("opening_91",), None, ("10S JS QS KS AS", "10H 10D 10C", "3H 4H 5H"), True, 93, 91),
    # L15 default: under beat-the-last the first opener still needs 51
    ("levant", ("beat_last_opening",), None, ("9H 10H JH QH", "3S 3D 3H"), False, 48, 51),
    # L15 switch beat_last_no_base: the first opening needs no minimum
    ("levant", ("beat_last_opening", "beat_last_no_base"), None, ("3S 3D 3H",), True, 9, 1),
    # a higher minimum with beat-the-last: the first opener needs 61
    (
        "levant",
        ("opening_61", "beat_last_opening"),
        None,
        ("9H 10H JH QH", "4S 4D AC"),
        False,
        51,
        61,
    ),
    # 002 §The first meld, Ben: A♦-4♦ (1 + 2 + 3 + 4 = 10) + J♠ J♥ J♣ (30) = 40
    ("romme", (), None, ("AD 2D 3D 4D", "JS JH JC"), True, 40, 40),
    # "Without the 4♦ he would only have 36"
    ("romme", (), None, ("AD 2D 3D", "JS JH JC"), False, 36, 40),
    # "a joker is worth the card it replaces": JK 2♥ 3♥ = 1 + 2 + 3 = 6, + 30 = 36
    ("romme", (), None, ("JK 2H 3H", "JS JH JC"), False, 36, 40),
    ("romme", (), None, ("JK 2H 3H 4H", "JS JH JC"), True, 40, 40),
    # a joker in a set counts as the rank: K♠ K♥ JK = 30, + 10♦ J♦ Q♦ (30) = 60
    ("romme", (), None, ("KS KH JK", "10D JD QD"), True, 60, 40),
    # §Variants "Lower opening": 30 (sometimes 35): 6♠ 7♠ 8♠ (21) + A♦-3♦ (6) = 27 < 30
    ("romme", ("opening_30",), None, ("6S 7S 8S", "AD 2D 3D"), False, 27, 30),
    ("romme", ("opening_30",), None, ("6S 7S 8S", "AD 2D 3D 4D"), True, 31, 30),
    ("romme", ("opening_35",), None, ("6S 7S 8S", "AD 2D 3D 4D"), False, 31, 35),
    ("romme", ("opening_35",), None, ("6S 7S 8S 9S", "AD 2D 3D"), True, 36, 35),
    # §Variants "Round the corner" (R3: the Ace in K-A-2 counts 11): 23 + 21 = 44 ≥ 40
    ("romme", ("round_the_corner",), None, ("KH AH 2H", "6S 7S 8S"), True, 44, 40),
    # R3 switch wrap_ace_1: 13 + 21 = 34 < 40
    ("romme", ("round_the_corner", "wrap_ace_1"), None, ("KH AH 2H", "6S 7S 8S"), False, 34, 40),
    # 003 §First Meld: Ace 15: A♠ A♥ A♦ (45) + 2♣ 3♣ 4♣ (9) = 54 (Ace 11 would be 42)
    ("gulf", (), None, ("AS AH AD", "2C 3C 4C"), True, 54, 51),
    # A-2-3 at 15 + 2 + 3 = 20, + 7♣-10♣ (34) = 54 (Ace 11: 50; Ace 1: 40)
    ("gulf", (), None, ("AH 2H 3H", "7C 8C 9C 10C"), True, 54, 51),
    # 20 + Q♠ Q♦ Q♥ (30) = 50 < 51
    ("gulf", (), None, ("AH 2H 3H", "QS QD QH"), False, 50, 51),
    # Joker = 25: JK 5♠ 6♠ = 36, + 7♣ 8♣ 9♣ (24) = 60 (as the 4♠: 39)
    ("gulf", (), None, ("JK 5S 6S", "7C 8C 9C"), True, 60, 51),
    ("gulf", (), None, ("JK 5S 6S", "2C 3C 4C"), False, 45, 51),
    # two jokers in a meld of four: 25 + 25 + 5 + 6 = 61
    ("gulf", (), None, ("JK JK 5S 6S",), True, 61, 51),
    # 004 §4 example: 10♥ J♥ Q♥ K♥ (40) + 4♠ 4♥ 4♦ (12) = 52
    ("classic", (), None, ("10H JH QH KH", "4S 4H 4D"), True, 52, 51),
    ("partnership", (), None, ("10H JH QH KH", "4S 4H 4D"), True, 52, 51),
    # Classic: "the Ace (A) is worth 11": A-5♥ 25 + 30 = 55
    ("classic", (), None, ("AH 2H 3H 4H 5H", "QS QD QH"), True, 55, 51),
    # Saudi: "The Ace is 1 only in a run starting A-2-3": 15 + 30 = 45 < 51
    ("saudi", (), None, ("AH 2H 3H 4H 5H", "QS QD QH"), False, 45, 51),
    ("saudi_partnership", (), None, ("AH 2H 3H 4H 5H", "QS QD QH"), False, 45, 51),
    # Saudi: a high Ace still 11: Q♥ K♥ A♥ (31) + 6♠ 7♠ (J)... 31 + 7♦ 8♦ 9♦ (24) = 55
    ("saudi", (), None, ("QH KH AH", "7D 8D 9D"), True, 55, 51),
    # P2 default: the joker counts as the card it stands for: 35 + 15 = 50 < 51
    ("classic", (), None, ("5S 6S 7S 8S 9S", "JK 5H 6H"), False, 50, 51),
    # P2 switches: 35 + (15 + 5 + 6) = 61; 35 + (25 + 5 + 6) = 71
    ("classic", ("joker_opening_15",), None, ("5S 6S 7S 8S 9S", "JK 5H 6H"), True, 61, 51),
    ("classic", ("joker_opening_25",), None, ("5S 6S 7S 8S 9S", "JK 5H 6H"), True, 71, 51),
    # a match length changes no opening
    ("classic", ("rounds_3",), None, ("10H JH QH KH", "4S 4H 4D"), True, 52, 51),
]


def _opening_id(
    row: tuple[str, tuple[str, ...], str | None, tuple[str, ...], bool, int, int],
) -> str:
    preset, variants, indicator, melds, *_ = row
    name = "+".join((preset, *variants))
    return f"{name}{'@' + indicator if indicator else ''}-{'|'.join(melds)}"


@pytest.mark.parametrize("case", OPENINGS, ids=[_opening_id(row) for row in OPENINGS])
def test_opening_bar_and_value(case: Opening) -> None:
    """000 §The first meld and §Variants "Ace values", "Higher minimum"; 002 §The first
    meld and §Variants "Lower opening", "Round the corner"; 003 §First Meld Requirement;
    004 §4 and §The four variants (each row's comment cites its sentence and shows the
    sum). ``judge_opening`` and the referee's ``opening`` question give the total and
    the bar; an unopened player lays the melds down together (check, listing, referee),
    keeping three cards that cannot go out this turn."""
    preset, variants, indicator, melds, legal, points, bar = case
    ruleset = rules(preset, *variants)
    turned = _indicator(ruleset, indicator)
    judgement = hr.judge_opening([hr.Meld.of(m) for m in melds], meld_rules(ruleset, turned))
    assert (judgement.ok, judgement.points, judgement.required) == (legal, points, bar)
    reply = question(ruleset, turned, "opening", melds=list(melds))
    assert (reply["ok"], reply["points"], reply["required"]) == (legal, points, bar), reply
    if not legal:
        assert Code.OPENING_BELOW_THRESHOLD in judgement.verdict.codes
    hand = f"{' '.join(melds)} {LEFT}"
    assert _fits_deck(ruleset, f"{hand} {turned or ''}")
    game = spot(ruleset, hand, others=_others(ruleset), indicator=turned)
    expect(game, lay(*melds), legal, Code.OPENING_BELOW_THRESHOLD)


def test_opening_with_one_illegal_meld_is_refused_whole() -> None:
    """004 §4: "Melds submitted together are accepted or rejected together"; §Common
    beginner mistakes: "Including an illegal meld: the whole opening is rejected; 5♥ 6♦
    7♥ is not a run". 10♥-K♥ (40) + 4♠ 4♥ 4♦ (12) would be 52 on its own."""
    melds = ("10H JH QH KH", "4S 4H 4D", "5H 6D 7H")
    judgement = hr.judge_opening([hr.Meld.of(m) for m in melds], meld_rules(CLASSIC, None))
    assert not judgement.ok and Code.MELD_NOT_RUN_OR_SET in judgement.verdict.codes
    reply = question(CLASSIC, None, "opening", melds=list(melds))
    assert reply["ok"] is False
    game = spot(CLASSIC, f"{' '.join(melds)} {LEFT}")
    refused(game, lay(*melds), Code.MELD_NOT_RUN_OR_SET)
    ok(game, lay(*melds[:2]))


def test_levant_opening_may_hold_one_wild_in_each_of_two_melds() -> None:
    """000 §Wild cards: "a meld may contain only one wild card" (per meld, not per
    opening); §The first meld: "several sequences and groups laid down in the same
    turn". 7♥ A♣ 9♥ (24) + 5♠ 5♦ A♣ (15) + 10♠ J♠ Q♠ (30) = 69 ≥ 51."""
    melds = ("7H AC 9H", "5S 5D AC", "10S JS QS")
    judgement = hr.judge_opening([hr.Meld.of(m) for m in melds], meld_rules(LEVANT, "8C"))
    assert (judgement.ok, judgement.points) == (True, 69)
    game = spot(LEVANT, f"{' '.join(melds)} {LEFT}", indicator="8C")
    ok(game, lay(*melds))


def test_levant_opening_cannot_use_more_copies_than_the_deck() -> None:
    """000 §Overview: two decks, so two copies of each card; an opening naming a third
    K♥ is refused (and no hand could hold it)."""
    melds = [hr.Meld.of("KS KH KD"), hr.Meld.of("JH QH KH"), hr.Meld.of("10H JH QH KH")]
    judgement = hr.judge_opening(melds, meld_rules(LEVANT, "8C"))
    assert not judgement.ok and Code.TOO_MANY_COPIES in judgement.verdict.codes


def test_levant_opening_cannot_use_the_turned_indicator() -> None:
    """000 §Setup 3: the indicator lies face up beside the stock, so of the two 8♣ only one
    can be in anyone's melds. 8♣ 9♣ 10♣ with 8♣ 8♦ 8♥ names both: refused, by the library
    and by the referee (whose hand_value and round_score count the indicator too); one
    8♣ is fine."""
    rules = meld_rules(LEVANT, EIGHT_CLUBS)
    both = [hr.Meld.of("8C 9C 10C"), hr.Meld.of("8C 8D 8H")]
    judgement = hr.judge_opening(both, rules)
    assert not judgement.ok and Code.TOO_MANY_COPIES in judgement.verdict.codes
    one = [hr.Meld.of("8C 9C 10C"), hr.Meld.of("8S 8D 8H")]
    assert hr.judge_opening(one, rules).ok
    reply = question(LEVANT, EIGHT_CLUBS, "opening", melds=["8C 9C 10C", "8C 8D 8H"])
    assert not reply["ok"] and "TOO_MANY_COPIES" in [v["code"] for v in reply["violations"]]


def test_levant_opening_melds_must_be_laid_together() -> None:
    """000 §The first meld: the first meld "can be made of several sequences and groups
    laid down in the same turn" and must be worth 51 in all. 9♥-Q♥ (39) alone is below
    the bar and this turn cannot go out, so it is refused; laid with 4♠ 4♦ A♣ (12) it
    makes 51."""
    game = spot(LEVANT, f"9H 10H JH QH 4S 4D AC {LEFT}", indicator="8C")
    refused(game, lay("9H 10H JH QH"), Code.OPENING_BELOW_THRESHOLD)
    after = ok(game, lay("9H 10H JH QH", "4S 4D AC"))
    # once opened, more melds of any value (here 9 points) may follow in the same turn
    assert after.opened[0]


def test_romme_lay_offs_in_the_opening_turn_do_not_count() -> None:
    """002 §The first meld: "Cards you lay off in the turn you come out don't count
    toward the 40." A♦ 2♦ 3♦ (6) + J♠ J♥ J♣ (30) = 36: the 8♥ that would fit seat 1's
    5♥ 6♥ 7♥ cannot make up the 4 points, neither before the opening (no lay-off before
    coming out) nor by counting it. Seat 1 has melded, so this is no Hand Rommé."""
    game = spot(
        ROMME,
        "AD 2D 3D JS JH JC 8H 9C 2S KD",
        table=[(1, 1, "5H 6H 7H")],
    )
    refused(game, off(1, "8H"), Code.NOT_OPENED)
    refused(game, lay("AD 2D 3D", "JS JH JC"), Code.OPENING_BELOW_THRESHOLD)
    # with the 4♦ it would be 40; the 8♥ goes on afterwards and counts for nothing
    game = spot(
        ROMME,
        "AD 2D 3D 4D JS JH JC 8H 9C 2S",
        table=[(1, 1, "5H 6H 7H")],
    )
    after = ok(game, lay("AD 2D 3D 4D", "JS JH JC"))
    ok(after, off(1, "8H"))


def test_levant_lay_offs_in_the_opening_turn_do_not_count() -> None:
    """000 §The first meld: the first meld is made "using only cards from your hand (and
    the card you just drew)", of "sequences and groups"; adding to other melds is allowed
    only "from the moment it is down". 9♥-Q♥ (39) + 3♠ 3♦ 3♥ (9) = 48 < 51, and a K♥
    for seat 1's run cannot count; this turn cannot go out (three cards left besides)."""
    game = spot(
        LEVANT,
        "9H 10H JH QH 3S 3D 3H KC 2C 7S 5D",
        table=[(1, 1, "8C 9C 10C JC QC")],
        indicator="4H",
    )
    refused(game, off(1, "KC"), Code.NOT_OPENED)
    refused(game, lay("9H 10H JH QH", "3S 3D 3H"), Code.OPENING_BELOW_THRESHOLD)


def test_gulf_no_lay_off_before_the_opening_and_after_it_meld_first() -> None:
    """003 §First Meld Requirement: "After meeting this requirement, you can meld freely"
    (matrix G5 default: no lay-off before); §Turn Flow: MELD before LAY OFF "in order"
    (G6 default). A♠ A♥ A♦ (45) + 2♣ 3♣ 4♣ (9) = 54 opens; the 5♣ may then go on the
    own run; after that lay-off no new meld may follow."""
    game = spot(GULF, "AS AH AD 2C 3C 4C 5C 9S 9H 9D KD", others=(9, 9, 9))
    refused(game, off(1, "5C"), Code.NOT_OPENED)
    opened = ok(game, lay("AS AH AD", "2C 3C 4C"))
    ids = [t.id for t in opened.table]
    laid_off = ok(opened, off(ids[1], "5C"))
    refused(laid_off, lay("9S 9H 9D"), Code.PHASE_ORDER)
    # G6 switch free_phase_order: the new meld may still come
    free = spot(
        rules("gulf", "free_phase_order"), "AS AH AD 2C 3C 4C 5C 9S 9H 9D KD", others=(9, 9, 9)
    )
    free = ok(free, lay("AS AH AD", "2C 3C 4C"))
    free = ok(free, off(ids[1], "5C"))
    ok(free, lay("9S 9H 9D"))


def test_gulf_lay_off_before_the_opening_is_refused_unless_switched() -> None:
    """003 §First Meld Requirement (matrix G5: lay-offs only after the 51 is met; switch
    layoff_before_opening). Seat 1's 6♥ 7♥ 8♥ takes the 9♥."""
    table = [(1, 1, "6H 7H 8H")]
    game = spot(GULF, "9H 2C 5D KS", table=table, others=(9, 9, 9))
    refused(game, off(1, "9H"), Code.NOT_OPENED)
    game = spot(
        rules("gulf", "layoff_before_opening"), "9H 2C 5D KS", table=table, others=(9, 9, 9)
    )
    ok(game, off(1, "9H"))


# =====================================================================================
# C. Bars that depend on earlier openings: beat-the-last, Saudi, team openings
# =====================================================================================


@pytest.mark.parametrize(
    ("preset", "variants", "last", "melds", "legal"),
    [
        # 004 Saudi: "the next player needs the last accepted opening + 1": 61 after 60.
        # 10♥-K♥ (40) + 2♠-6♠ (20) = 60 < 61
        ("saudi", (), 60, ("10H JH QH KH", "2S 3S 4S 5S 6S"), False),
        # 40 + 7♠ 7♦ 7♣ (21) = 61
        ("saudi", (), 60, ("10H JH QH KH", "7S 7D 7C"), True),
        # after an opening of 51 the bar is 52: 40 + 4♠ 4♥ 4♦ (12) = 52
        ("saudi", (), 51, ("10H JH QH KH", "4S 4H 4D"), True),
        # 9♥-Q♥ (39) + 4♠ 4♦ 4♣ (12) = 51, not more than 51
        ("saudi", (), 51, ("9H 10H JH QH", "4S 4D 4C"), False),
        # L15 switch beat_last_or_equal: equal is enough: 60 after 60
        ("saudi", ("beat_last_or_equal",), 60, ("10H JH QH KH", "2S 3S 4S 5S 6S"), True),
        # 000 §Variants "each player's first meld must beat the last one made"
        ("levant", ("beat_last_opening",), 60, ("10H JH QH KH", "2S 3S 4S 5S 6S"), False),
        ("levant", ("beat_last_opening",), 60, ("10H JH QH KH", "7S 7D 7H"), True),
        # a fixed bar ignores earlier openings: 52 ≥ 51 after 60
        ("classic", (), 60, ("10H JH QH KH", "4S 4H 4D"), True),
        ("levant", (), 60, ("10H JH QH KH", "4S 4H 4D"), True),
    ],
)
def test_bar_after_an_earlier_opening(
    preset: str, variants: tuple[str, ...], last: int, melds: tuple[str, ...], legal: bool
) -> None:
    """004 §The four variants (Saudi Hand); 000 §Variants "Higher minimum"; RULES-MATRIX
    P8 (any later opener) and L15 (strictly more; switch beat_last_or_equal). Seat 1
    opened earlier this round with ``last`` points; seat 0 opens now (three players)."""
    ruleset = rules(preset, *variants)
    turned = _indicator(ruleset, None)
    game = spot(
        ruleset,
        f"{' '.join(melds)} {LEFT}",
        table=[(1, 1, "9S 9D 9C")],
        others=(9, 9),
        indicator=turned,
        openings=[(1, last)],
    )
    expect(game, lay(*melds), legal, Code.OPENING_BELOW_THRESHOLD)
    if ruleset.opening.follows_openings:
        reply = question(ruleset, turned, "opening", melds=list(melds), last_opening=last)
        assert reply["ok"] is legal, reply


@pytest.mark.parametrize(
    ("variants", "opener", "melds", "legal"),
    [
        # 004 Saudi Hand Partnership: "51 for the first team, and at least the first
        # team's opening + 1 for the other". Seat 1 (team 1/3) opened 60; seat 0 (team
        # 0/2) needs 61: 60 is refused, 61 accepted
        ((), 1, ("10H JH QH KH", "2S 3S 4S 5S 6S"), False),
        ((), 1, ("10H JH QH KH", "7S 7D 7C"), True),
        # L15 switch: "at least" the first team's opening
        (("beat_last_or_equal",), 1, ("10H JH QH KH", "2S 3S 4S 5S 6S"), True),
        # P9 a switch personal_team_opening: seat 2 (seat 0's partner) opened first, so
        # seat 0 belongs to the first team and needs 51: 52 is enough
        (("personal_team_opening",), 2, ("10H JH QH KH", "4S 4H 4D"), True),
        # 9♥-Q♥ (39) + 3♠ 3♦ 3♣ (9) = 48 < 51
        (("personal_team_opening",), 2, ("9H 10H JH QH", "3S 3D 3C"), False),
    ],
)
def test_saudi_partnership_team_bar(
    variants: tuple[str, ...], opener: int, melds: tuple[str, ...], legal: bool
) -> None:
    """004 §The four variants, Saudi Hand Partnership; RULES-MATRIX P9 a (the team's
    opening is shared by default; switch personal_team_opening). The opener laid 60."""
    ruleset = rules("saudi_partnership", *variants)
    game = spot(
        ruleset,
        f"{' '.join(melds)} {LEFT}",
        table=[(1, opener, "9S 9D 9C")],
        others=(9, 9, 9),
        openings=[(opener, 60)],
    )
    expect(game, lay(*melds), legal, Code.OPENING_BELOW_THRESHOLD)


def test_saudi_partnership_partner_of_the_opener_may_lay_off_without_laying_down() -> None:
    """004 §The four variants: "the opening belongs to the whole team" (matrix P9 a
    default: once one partner opens the team has opened). Seat 2 opened; seat 0 lays
    the 10♠ off on its partner's 7♠ 8♠ 9♠ and may take the fire card without having to
    open (004 §5 binds only a player who "is not opened")."""
    table = [(1, 2, "7S 8S 9S")]
    game = spot(
        hr.rulesets.saudi_partnership,
        "10S 2C 5D KH",
        table=table,
        others=(9, 9, 9),
        openings=[(2, 60)],
    )
    assert game.required_opening(0) is None
    ok(game, off(1, "10S"))
    drawing = spot(
        hr.rulesets.saudi_partnership,
        "10S 2C 5D KH",
        table=table,
        others=(9, 9, 9),
        openings=[(2, 60)],
        phase=DRAW,
        discards="QD",
    )
    taken = ok(drawing, hr.TakeDiscard())
    # no obligation: any card but the taken one may end the turn (004 §2)
    ok(taken, discard("2C"))
    refused(taken, discard("QD"), Code.REDISCARD_TAKEN_CARD)


@pytest.mark.parametrize(
    ("preset", "variants"),
    [
        ("saudi_partnership", ("personal_team_opening",)),
        ("partnership", ()),
        ("levant", ("partnership",)),
    ],
)
def test_partner_of_an_opener_must_open_personally(preset: str, variants: tuple[str, ...]) -> None:
    """004 §The four variants, Hand Partnership: "a personal 51 opening each"; 000
    §Variants "Partnership Hand" changes only the scoring, so §The first meld still
    binds each player; matrix P9 a switch personal_team_opening. Seat 0 may not lay
    off on its partner's (seat 2's) meld before its own opening."""
    ruleset = rules(preset, *variants)
    turned = _indicator(ruleset, None)
    game = spot(
        ruleset,
        "10S 2C 5D KH",
        table=[(1, 2, "7S 8S 9S")],
        others=(9, 9, 9),
        indicator=turned,
    )
    refused(game, off(1, "10S"), Code.NOT_OPENED)


# =====================================================================================
# D. The below-bar exemption
# =====================================================================================


@pytest.mark.parametrize(
    ("preset", "variants", "context", "legal"),
    [
        # 000 §The first meld "Exception": any one-turn finish (matrix L11)
        ("levant", (), {"going_out": True}, True),
        ("levant", (), {}, False),
        # L11 switch exemption_hand_only: only a Hand
        ("levant", ("exemption_hand_only",), {"going_out": True}, False),
        ("levant", ("exemption_hand_only",), {"hand": True}, True),
        # 002 §Scoring, Hand Rommé: "The 40-point minimum does not apply" (Hand only)
        ("romme", (), {"going_out": True}, False),
        ("romme", (), {"hand": True}, True),
        # 003 and 004: no exemption stated (matrix G8, P6 c) ...
        ("gulf", (), {"hand": True}, False),
        ("classic", (), {"hand": True}, False),
        ("saudi", (), {"hand": True}, False),
        # ... unless switched on (hand_exempt)
        ("gulf", ("hand_exempt",), {"hand": True}, True),
        ("classic", ("hand_exempt",), {"hand": True}, True),
        ("classic", ("hand_exempt",), {"going_out": True}, False),
    ],
)
def test_referee_opening_exemption_context(
    preset: str, variants: tuple[str, ...], context: dict[str, bool], legal: bool
) -> None:
    """000 §The first meld "Exception"; 002 §Scoring (Hand Rommé); 003/004 silent
    (matrix L11, G8, P6 c and their switches). 2♠ 3♠ 4♠ + 2♦ 3♦ 4♦ = 18 is below
    every bar; the referee's ``opening`` question says whether the finish described by
    ``context`` lets it down anyway."""
    ruleset = rules(preset, *variants)
    turned = _indicator(ruleset, None)
    melds = ["2S 3S 4S", "2D 3D 4D"]
    reply = question(ruleset, turned, "opening", melds=melds, context=context)
    assert (reply["ok"], reply["points"]) == (legal, 18), reply


@pytest.mark.parametrize("hand_only", [False, True])
def test_levant_below_bar_finish_laying_off_on_its_own_new_meld(hand_only: bool) -> None:
    """000 §The first meld "Exception" and §End of a round ("Hand": "without adding any
    to other players' melds"); matrix L11. 2♠-4♠ (9) + 7♥ 8♥ 9♥ (24) = 33 < 51; the
    5♠ then goes on the player's own new run and the K♦ is discarded: out in one turn,
    and a Hand, so the switch exemption_hand_only allows it too."""
    ruleset = rules("levant", *(("exemption_hand_only",) if hand_only else ()))
    game = spot(ruleset, "2S 3S 4S 7H 8H 9H 5S KD", indicator="8C")
    opened = ok(game, lay("2S 3S 4S", "7H 8H 9H"))
    # the promise to finish: a discard that leaves cards is refused
    refused(opened, discard("KD"), Code.OPENING_BELOW_THRESHOLD)
    run = next(t.id for t in opened.table if t.meld.cards[0] == c("2S"))
    after = ok(opened, off(run, "5S"))
    done = ok(after, discard("KD"))
    assert done.is_over


@pytest.mark.parametrize("hand_only", [False, True])
def test_levant_below_bar_finish_after_taking_the_discard(hand_only: bool) -> None:
    """000 §Playing a turn ("Taking the discard": a new meld with two hand cards) and
    §The first meld "Exception" (matrix L11). The taken 9♥ makes 7♥ 8♥ 9♥; with 2♠ 3♠
    4♠ that is 24 + 9 = 33 < 51, and the turn can still go out: the 10♣ onto seat 1's
    J♣ Q♣ K♣ and the 5♦ discarded. That lay-off is on another player's meld, so the
    finish is no Hand: under exemption_hand_only the take itself is refused (no
    opening it could make would reach the bar or make a Hand)."""
    ruleset = rules("levant", *(("exemption_hand_only",) if hand_only else ()))
    game = spot(
        ruleset,
        "7H 8H 2S 3S 4S 10C 5D",
        indicator="4D",
        phase=DRAW,
        discards="9H",
        table=[(1, 1, "JC QC KC")],
    )
    if hand_only:
        refused(game, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)
        ok(game, hr.DrawStock())
        return
    taken = ok(game, hr.TakeDiscard())
    refused(taken, lay("2S 3S 4S"), Code.TAKE_DISCARD_NOT_MELDED)
    opened = ok(taken, lay("7H 8H 9H", "2S 3S 4S"))
    refused(opened, discard("10C"), Code.OPENING_BELOW_THRESHOLD)
    after = ok(opened, off(1, "10C"))
    assert ok(after, discard("5D")).is_over


@pytest.mark.parametrize(
    ("me", "refusal"),
    [
        # 000 §Playing a turn: "nobody may go out on their first turn"
        ({"turns_played": 0}, Code.GOING_OUT_FIRST_TURN),
        # "If you forget, you may not go out on your next turn"
        ({"announced": 0, "missed": True}, Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT),
        ({}, None),
    ],
)
def test_levant_below_bar_exemption_needs_a_turn_that_may_go_out(
    me: dict[str, Any], refusal: Code | None
) -> None:
    """000 §The first meld "Exception" with §Playing a turn "Not on your first turn" and
    "Announce" (matrix L9, L10, L11). 2♠-4♠ = 9 < 51 goes out with the 9♣ discarded, but
    only on a turn that may go out. (Three cards after the last discard were due to be
    announced; the fourth was drawn this turn.)"""
    game = spot(LEVANT, "2S 3S 4S 9C", indicator="8C", me=me)
    # Refused for the reason that bars going out: laying down 2♠ 3♠ 4♠ leaves the 9♣
    # alone, and the discard that must end the turn ("Always discard") would go out,
    # which the first turn or the forgotten announcement forbids.
    expect(game, lay("2S 3S 4S"), refusal is None, refusal)


@pytest.mark.parametrize(
    ("preset", "variants", "discarding", "legal"),
    [
        # 003 (matrix G8): the 51 applies to a Hand too
        ("gulf", (), False, False),
        # G8 switch hand_exempt; G4: a Gulf Hand melds every card
        ("gulf", ("hand_exempt",), False, True),
        ("gulf", ("hand_exempt",), True, False),
        # 004 (P6 c default: the bar applies to a Hand)
        ("classic", (), False, False),
        ("classic", ("hand_exempt",), False, True),
        # P6 a default: a Hand lays down every card; switch hand_with_final_discard
        ("classic", ("hand_exempt",), True, False),
        ("classic", ("hand_exempt", "hand_with_final_discard"), True, True),
        ("saudi", ("hand_exempt",), False, True),
    ],
)
def test_hand_below_the_bar_in_gulf_and_app(
    preset: str, variants: tuple[str, ...], discarding: bool, legal: bool
) -> None:
    """003 §Hand Bonus, §First Meld Requirement; 004 §The "Hand" finish; matrix G4, G8,
    P6 a, P6 c. 2♠-4♠ + 2♦-4♦ + 7♥ 8♥ 9♥ = 9 + 9 + 24 = 42 < 51. Without a discard
    every card is laid; with one, the K♣ is left to throw."""
    ruleset = rules(preset, *variants)
    hand = "2S 3S 4S 2D 3D 4D 7H 8H 9H" + (" KC" if discarding else "")
    others = _others(ruleset)
    game = spot(ruleset, hand, others=others)
    expect(game, lay("2S 3S 4S", "2D 3D 4D", "7H 8H 9H"), legal, Code.OPENING_BELOW_THRESHOLD)


@pytest.mark.parametrize(("others_melded", "legal"), [(False, True), (True, False)])
def test_romme_hand_romme_below_40_only_before_anyone_melded(
    others_melded: bool, legal: bool
) -> None:
    """002 §Scoring: Hand Rommé is going out in one turn "without having melded
    anything before and before any other player has melded"; then "The 40-point
    minimum does not apply". 2♠-4♠ + 2♦-4♦ + A♥ 2♥ 3♥ = 9 + 9 + 6 = 24 < 40, the K♣
    discarded (matrix R6 default)."""
    table = [(1, 1, "QS QH QD")] if others_melded else []
    game = spot(ROMME, "2S 3S 4S 2D 3D 4D AH 2H 3H KC", table=table)
    expect(game, lay("2S 3S 4S", "2D 3D 4D", "AH 2H 3H"), legal, Code.OPENING_BELOW_THRESHOLD)


def test_romme_dealer_may_make_a_hand_romme_on_the_first_turn() -> None:
    """002 §Playing a turn: the dealer "does not draw: they may meld (if they can) and
    then discard"; §Scoring, Hand Rommé (matrix R6: nothing forbids it on the dealer's
    first turn). 9 + 9 + 9 + (1 + 2 + 3 + 4 = 10) = 37 < 40, the K♦ discarded."""
    deal = hr.fill_deal(ROMME, 2, hands={0: "2S 3S 4S 2C 3C 4C 2D 3D 4D AH 2H 3H 4H KD"}, seed=1)
    game = deal.round(ROMME, 0, 0)
    assert game.turn == 0 and len(game.hand(0)) == 14
    opened = ok(game, lay("2S 3S 4S", "2C 3C 4C", "2D 3D 4D", "AH 2H 3H 4H"))
    assert ok(opened, discard("KD")).is_over


# =====================================================================================
# E. Drawing: the discard pile, the starter's first turn, an empty stock
# =====================================================================================


def test_levant_unopened_take_must_open_with_the_taken_card() -> None:
    """000 §Playing a turn: "if you take the top card of the discard pile, you must lay
    it down at once in a new meld with at least two cards from your hand (and, for your
    first meld, reach 51 points)". The 9♥ makes 9♥-K♥ (49) + 7♠ 7♦ 7♣ (21) = 70."""
    game = spot(LEVANT, "10H JH QH KH 7S 7D 7C 2C 5D", indicator="8C", phase=DRAW, discards="9H")
    taken = ok(game, hr.TakeDiscard())
    refused(taken, discard("2C"), Code.TAKE_DISCARD_NOT_MELDED)
    # 10♥-K♥ (40) + 7♠ 7♦ 7♣ (21) = 61 reaches 51 but leaves the 9♥ unmelded
    refused(taken, lay("10H JH QH KH", "7S 7D 7C"), Code.TAKE_DISCARD_NOT_MELDED)
    opened = ok(taken, lay("9H 10H JH QH KH", "7S 7D 7C"))
    ok(opened, discard("2C"))


def test_levant_unopened_take_refused_when_no_opening_can_use_it() -> None:
    """000 §Playing a turn: "If you can't, draw from the stock." The 9♥ fits 7♥ 8♥ but
    7♥ 8♥ 9♥ (24) + 4♠ 4♦ 4♣ (12) = 36 < 51, and the turn cannot go out."""
    game = spot(LEVANT, "7H 8H 4S 4D 4C 2C 5D KS", indicator="8C", phase=DRAW, discards="9H")
    refused(game, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)
    ok(game, hr.DrawStock())


@pytest.mark.parametrize(
    ("hand", "legal"),
    [
        # two hand cards, but laying all three would leave nothing to discard
        ("7H 8H", False),
        ("7H 8H 2C", True),
        # one hand card and a wild: still two cards from the hand
        ("7H AC 2C", True),
        # one fitting hand card only
        ("8H 2C 5D", False),
    ],
)
def test_levant_opened_take_needs_a_new_meld_with_two_hand_cards(hand: str, legal: bool) -> None:
    """000 §Playing a turn: the taken card goes "in a new meld with at least two cards
    from your hand"; "Always discard: ... you must always keep one card in your hand to
    throw away". Seat 0 has opened (it owns K♠ K♦ K♥); the top discard is the 9♥."""
    game = spot(
        LEVANT,
        hand,
        indicator="8C",
        phase=DRAW,
        discards="9H",
        table=[(1, 0, "KS KD KH")],
    )
    expect(game, hr.TakeDiscard(), legal, Code.TAKE_DISCARD_NOT_MELDED)


@pytest.mark.parametrize("variant", [False, True])
def test_levant_taken_card_onto_a_table_meld_only_under_the_variant(variant: bool) -> None:
    """000 §Playing a turn (a new meld only) and §Variants "Taking the discard": "you may
    add a card taken from the discard pile to a meld already on the table" (001: "auch",
    also). Seat 0 has opened; the 9♥ fits only seat 1's 10♥ J♥ Q♥."""
    ruleset = rules("levant", *(("discard_to_table",) if variant else ()))
    game = spot(
        ruleset,
        "5D 2C 6S",
        indicator="8C",
        phase=DRAW,
        discards="9H",
        table=[(1, 1, "10H JH QH"), (2, 0, "KS KD KH")],
    )
    if not variant:
        refused(game, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)
        return
    taken = ok(game, hr.TakeDiscard())
    refused(taken, discard("5D"), Code.TAKE_DISCARD_NOT_MELDED)
    after = ok(taken, off(1, "9H"))
    ok(after, discard("5D"))


@pytest.mark.parametrize("variants", [(), ("no_rediscard_taken",)])
def test_romme_take_is_free(variants: tuple[str, ...]) -> None:
    """002 §Playing a turn: draw "either the top card of the stock or the top card of
    the discard pile", with no condition (matrix: ROM free). R5 default: the taken card
    may be discarded again; switch no_rediscard_taken forbids it."""
    ruleset = rules("romme", *variants)
    game = spot(ruleset, "AD 2D 3D JS 9S 5C 6H", phase=DRAW, discards="JC")
    taken = ok(game, hr.TakeDiscard())
    expect(taken, discard("JC"), not variants, Code.REDISCARD_TAKEN_CARD)
    ok(taken, discard("5C"))


def test_romme_clara_takes_the_discard_to_complete_a_run() -> None:
    """002 §Playing a turn, Clara: "holds 5♣ 6♣ and the top discard is 7♣. She takes it
    – now she has a run 5♣ 6♣ 7♣ – and ends her turn by discarding ... the 2♥". Clara
    has come out already (she owns K♠ K♦ K♥), so the run of 18 may go down."""
    game = spot(
        ROMME,
        "5C 6C 2H 9D",
        phase=DRAW,
        discards="7C",
        table=[(1, 0, "KS KD KH")],
    )
    taken = ok(game, hr.TakeDiscard())
    laid = ok(taken, lay("5C 6C 7C"))
    ok(laid, discard("2H"))


def test_romme_discard_only_for_melding_counts_toward_the_40() -> None:
    """002 §Variants "Discard pile only for melding": "you may take the top discard only
    if you meld it immediately. Before your first meld, it then counts toward the 40."
    Ben's A♦-4♦ (10) + J♠ J♥ and the taken J♣ (30) = 40."""
    ruleset = rules("romme", "discard_only_to_meld")
    game = spot(ruleset, "AD 2D 3D 4D JS JH 9S 9H 9C 5C", phase=DRAW, discards="JC")
    taken = ok(game, hr.TakeDiscard())
    refused(taken, discard("5C"), Code.TAKE_DISCARD_NOT_MELDED)
    # A♦-4♦ (10) + 9♠ 9♥ 9♣ (27) = 37: below 40 and without the J♣ anyway
    refused(taken, lay("AD 2D 3D 4D", "9S 9H 9C"))
    ok(taken, lay("AD 2D 3D 4D", "JS JH JC"))
    # without the 4♦ the J♣ could only open with 36 < 40: the take is refused
    short = spot(ruleset, "AD 2D 3D JS JH 9S 5C 6H", phase=DRAW, discards="JC")
    refused(short, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)


@pytest.mark.parametrize(("variants", "legal"), [((), True), (("discard_new_meld_only",), False)])
def test_romme_discard_only_for_melding_lay_off_once_opened(
    variants: tuple[str, ...], legal: bool
) -> None:
    """002 §Variants "Discard pile only for melding" ("meld it immediately"); matrix R9:
    by default a player who has come out may lay the card off; switch
    discard_new_meld_only. The 8♥ fits seat 1's 5♥ 6♥ 7♥ only."""
    ruleset = rules("romme", "discard_only_to_meld", *variants)
    game = spot(
        ruleset,
        "2C 9D KS",
        phase=DRAW,
        discards="8H",
        table=[(1, 1, "5H 6H 7H"), (2, 0, "QS QD QH")],
    )
    expect(game, hr.TakeDiscard(), legal, Code.TAKE_DISCARD_NOT_MELDED)


@pytest.mark.parametrize("variants", [(), ("no_rediscard_taken",)])
def test_gulf_take_is_free_including_the_upcard(variants: tuple[str, ...]) -> None:
    """003 §Dealing: "The top card is turned face-up to begin the discard pile. The player
    to the dealer's left goes first"; §Turn Flow: "Take the top card from the draw pile OR
    the top card from the discard pile" (no condition; G10 default: it may go back;
    switch no_rediscard_taken)."""
    ruleset = rules("gulf", *variants)
    deal = hr.fill_deal(ruleset, 4, hands={1: "10S JS QS KS 7H 7D 7C 2C 3C 4C 5D 6D 9H"}, seed=1)
    game = deal.round(ruleset, 0, 0)
    assert game.turn == 1 and len(game.hand(1)) == 13 and len(game.discards) == 1
    top = game.discards[-1]
    refused(game, lay("10S JS QS KS", "7H 7D 7C"), Code.WRONG_PHASE)
    ok(game, hr.DrawStock())
    taken = ok(game, hr.TakeDiscard())
    expect(taken, hr.Discard(top), not variants, Code.REDISCARD_TAKEN_CARD)


def test_classic_unopened_take_obliges_an_opening_before_any_discard() -> None:
    """004 §5: "If you are not opened, taking the fire card obliges you to make a legal
    opening in the same turn, and you may not discard before meeting the requirement";
    §2: "you may not discard it again in the same turn". Matrix P4 a default: the
    opening need not use the taken card. 10♥ J♥ Q♥ (30) + 4♠ 4♥ 4♦ (12) + 7♠ 8♠ 9♠
    (24) = 66 without the 5♣."""
    game = spot(CLASSIC, "10H JH QH 4S 4H 4D 2C 7S 8S 9S", phase=DRAW, discards="5C")
    taken = ok(game, hr.TakeDiscard())
    refused(taken, discard("2C"), Code.TAKE_DISCARD_NOT_OPENED)
    opened = ok(taken, lay("10H JH QH", "4S 4H 4D", "7S 8S 9S"))
    refused(opened, discard("5C"), Code.REDISCARD_TAKEN_CARD)
    ok(opened, discard("2C"))


def test_classic_taken_card_in_opening_switch() -> None:
    """Matrix P4 a switch taken_card_in_opening: the opening must use the fire card. The
    6♠ extends 7♠ 8♠ 9♠; an opening without it (66) is refused, with it (30 + 12 + 30 =
    72) accepted. A 5♣ that no opening can use may not be taken at all."""
    ruleset = rules("classic", "taken_card_in_opening")
    game = spot(ruleset, "10H JH QH 4S 4H 4D 2C 7S 8S 9S", phase=DRAW, discards="6S")
    taken = ok(game, hr.TakeDiscard())
    refused(taken, lay("10H JH QH", "4S 4H 4D", "7S 8S 9S"), Code.TAKE_DISCARD_NOT_OPENED)
    ok(taken, lay("10H JH QH", "4S 4H 4D", "6S 7S 8S 9S"))
    useless = spot(ruleset, "10H JH QH 4S 4H 4D 2C 7S 8S 9S", phase=DRAW, discards="5C")
    refused(useless, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_OPENED)


@pytest.mark.parametrize(
    ("preset", "last", "legal"),
    [
        # 10♥-K♥ (40) + 4♠ 4♥ 4♦ (12) = 52 ≥ 51 with the taken K♥
        ("classic", None, True),
        ("saudi", None, True),
        # Saudi after an opening of 60 the bar is 61 (matrix P4 c): 52 is not enough
        ("saudi", 60, False),
        # a personal 51 in Classic, whatever was opened before
        ("classic", 60, True),
    ],
)
def test_app_take_when_unopened_against_the_current_bar(
    preset: str, last: int | None, legal: bool
) -> None:
    """004 §5 and §The four variants (Saudi Hand); matrix P4 c: "In APP_SAUDI the
    obligation is to meet the current escalated bar"."""
    ruleset = rules(preset)
    table = [(1, 1, "9S 9D 9C")] if last is not None else []
    game = spot(
        ruleset,
        "10H JH QH 4S 4H 4D 2C 7S",
        phase=DRAW,
        discards="KH",
        table=table,
        others=(9, 9),
        openings=[(1, last)] if last is not None else None,
    )
    expect(game, hr.TakeDiscard(), legal, Code.TAKE_DISCARD_NOT_OPENED)
    ok(game, hr.DrawStock())


def test_classic_opened_take_has_no_obligation_but_no_rediscard() -> None:
    """004 §5: "If you are already opened, you simply continue your turn normally"; §2:
    "you may not discard it again in the same turn"."""
    game = spot(CLASSIC, "2C 7S 9D", phase=DRAW, discards="5C", table=[(1, 0, "KS KD KH")])
    taken = ok(game, hr.TakeDiscard())
    refused(taken, discard("5C"), Code.REDISCARD_TAKEN_CARD)
    ok(taken, discard("2C"))


@pytest.mark.parametrize(
    ("preset", "variants", "action", "legal"),
    [
        # 000 §Playing a turn: "The player with 15 cards starts by simply discarding"
        ("levant", (), hr.DrawStock(), False),
        ("levant", (), hr.TakeDiscard(), False),
        ("levant", (), lay("10S JS QS KS", "7H 7D 7C"), False),
        ("levant", (), discard("2S"), True),
        # L8 switch starter_may_meld: 10♠-K♠ (40) + 7♥ 7♦ 7♣ (21) = 61 may go down
        ("levant", ("starter_may_meld",), lay("10S JS QS KS", "7H 7D 7C"), True),
        ("levant", ("starter_may_meld",), hr.DrawStock(), False),
        # 004 §1: the 15-card player "starts the round by discarding one card"
        ("classic", (), hr.DrawStock(), False),
        ("classic", (), lay("10S JS QS KS", "7H 7D 7C"), False),
        ("classic", (), discard("2S"), True),
        ("saudi", (), discard("2S"), True),
    ],
)
def test_starter_first_turn_with_the_extra_card(
    preset: str, variants: tuple[str, ...], action: hr.Action, legal: bool
) -> None:
    """000 §Playing a turn (matrix L8 and its switch); 004 §1 The deal. Two players,
    dealer 0: seat 1 holds 15 cards and starts without drawing."""
    ruleset = rules(preset, *variants)
    deal = hr.fill_deal(
        ruleset,
        2,
        hands={1: "10S JS QS KS 7H 7D 7C 2C 3C 4C 5D 6D 9H KH 2S"},
        indicator=_indicator(ruleset, None),
        seed=1,
    )
    game = deal.round(ruleset, 0, 0)
    while game.phase is hr.Phase.REDEAL:
        game = game.apply(hr.PassRedeal())
    assert game.turn == 1 and len(game.hand(1)) == 15
    expect(game, action, legal, Code.WRONG_PHASE if action != discard("2S") else None)


@pytest.mark.parametrize(
    ("action", "legal"),
    [
        (hr.DrawStock(), False),
        (hr.TakeDiscard(), False),
        # 10♠-K♠ (40) + 7♥ 7♦ 7♣ (21) = 61 ≥ 40
        (lay("10S JS QS KS", "7H 7D 7C"), True),
        # 2♣ 3♣ 4♣ = 9 < 40, and no Hand Rommé can follow
        (lay("2C 3C 4C"), False),
        (discard("2C"), True),
    ],
)
def test_romme_dealer_first_turn(action: hr.Action, legal: bool) -> None:
    """002 §Playing a turn: "The dealer starts. Because they already have 14 cards, they
    do not draw: they may meld (if they can) and then discard"."""
    deal = hr.fill_deal(ROMME, 2, hands={0: "10S JS QS KS 7H 7D 7C 2C 3C 4C 5D 6D 9H KH"}, seed=1)
    game = deal.round(ROMME, 0, 0)
    assert game.turn == 0 and len(game.hand(0)) == 14
    expect(game, action, legal)


def _last_stock_card(ruleset: hr.Ruleset, pile: int, reshuffles: int = 0) -> hr.Round:
    """Two players; seat 0 draws the stock's last card (the 10♥) and discards the K♠."""
    game = hr.Round.from_position(
        hr.Position(
            ruleset,
            players=[hr.PositionSeat("5H 6H 7H 2C 9D KS"), hr.PositionSeat("8H 9H 3C 4C 5C 9S")],
            turn=0,
            phase=DRAW,
            discards="4D",
            discard_size=pile,
            stock="10H",
            stock_size=1,
            reshuffles=reshuffles,
        )
    )
    game = ok(game, hr.DrawStock())
    return ok(game, discard("KS"))


def test_romme_empty_stock_ends_the_round_and_scores_the_hands() -> None:
    """002 §Going out: "If the stock runs out before anyone goes out, the round ends:
    everyone scores the cards in their hand" (matrix R7: when a player must draw from an
    empty stock, without taking the discard instead). Seat 0: 5 + 6 + 7 + 2 + 9 + 10 =
    39; seat 1: 8 + 9 + 3 + 4 + 5 + 9 = 38. 108 − 12 − 1 = 95 in the pile."""
    game = _last_stock_card(ROMME, 95)
    assert game.is_over and game.outcome is not None
    assert game.outcome.score.scores == (39, 38)


@pytest.mark.parametrize(("reshuffles", "renewed"), [(2, True), (3, False)])
def test_app_empty_stock_is_renewed_up_to_three_times(reshuffles: int, renewed: bool) -> None:
    """004 §Quick questions: "The older fire cards are shuffled into a new draw pile, up to
    3 times. If the round still cannot continue, it is a no-contest and every score is
    zero" (matrix P10: all but the top fire card). 106 − 12 − 1 = 93 in the pile: after
    the K♠ the pile holds 94, of which 93 become the stock."""
    game = _last_stock_card(CLASSIC, 93, reshuffles)
    if renewed:
        assert not game.is_over
        assert (len(game.stock), len(game.discards)) == (93, 1)
        assert game.discards[-1] == c("KS")
        ok(game, hr.DrawStock())
    else:
        assert game.is_over and game.outcome is not None
        assert not game.outcome.score.scored
        assert game.outcome.score.scores == (0, 0)
