"""Whole rounds, compositions of variants, end-of-round scoring and match ends.

Every case starts from an explicit deal (:func:`hand_rummy.fill_deal` with every hand
that the scores depend on given card by card, and the cards to be drawn stacked on
top of the stock) or from a :class:`hand_rummy.Position`, and plays through to the
end of the round (or of the match) where it can.

Expected values were worked out by hand from the rule documents (000 Levant, 002
Rommé, 003 Gulf, 004 the app) before the engine was asked; each test's docstring names
the section, and the comments show the arithmetic. Where the documents are silent the
default of the rules matrix is used and its entry (L1, G1, P7, ...) is named, together
with the switch that picks the other reading. No expected value was read back from the
engine.

Seats are numbered in the order of play: in 000/004 the seat after the dealer is the
dealer's right (it holds the 15th card and starts), in 002 the dealer starts, in 003
the seat after the dealer (the dealer's left) starts.
"""

from __future__ import annotations

import pytest

import hand_rummy as hr
from hand_rummy import Code
from hand_rummy.rules.turn import DiscardTake
from scripted import c, dull, make_deal, outcome, play, scores, start

LEVANT = hr.rulesets.levant
ROMME = hr.rulesets.romme
GULF = hr.rulesets.gulf
CLASSIC = hr.rulesets.classic


# --- helpers ------------------------------------------------------------------------


def lay(*texts: str) -> hr.LayDown:
    return hr.LayDown(tuple(hr.Meld.of(t) for t in texts))


def bare(g: hr.Round) -> hr.Round:
    """The starter's first turn in 000/004: discard the first card held."""
    return g.apply(hr.Discard(g.hand(g.turn)[0]))


def ok(g: hr.Round, action: hr.Action) -> None:
    verdict = g.check(action)
    assert verdict.ok, (action, verdict)
    assert action in g.legal_actions()


def no(g: hr.Round, action: hr.Action, code: Code | None = None) -> None:
    verdict = g.check(action)
    assert not verdict.ok, action
    if code is not None:
        assert code in verdict.codes, (action, verdict)
    assert action not in g.legal_actions()


def team_scores(g: hr.Round) -> tuple[int, ...]:
    teams = outcome(g).score.team_scores
    assert teams is not None
    return tuple(teams)


def mplay(m: hr.Match, *actions: hr.Action) -> hr.Match:
    for action in actions:
        m = m.apply(action)
    return m


def mkeep(m: hr.Match) -> hr.Match:
    assert m.current is not None
    while m.current is not None and m.current.phase is hr.Phase.REDEAL:
        m = m.apply(hr.PassRedeal())
    return m


def mdull(m: hr.Match) -> hr.Match:
    assert m.current is not None
    card = m.current.stock[-1]
    return mplay(m, hr.DrawStock(), hr.Discard(card))


def mbare(m: hr.Match) -> hr.Match:
    assert m.current is not None
    return m.apply(hr.Discard(m.current.hand(m.current.turn)[0]))


# =====================================================================================
# Levant (000): whole rounds
# =====================================================================================

# Three players, dealer 0, indicator 8♣ (so both A♣ are wild and the jokers are
# natural A♣). Order of play: 1 (15 cards, bare discard), 2, 0, 1, 2.
L_S0 = "JS QS KS 8H 8S 8D 6H 7H AC 2D 3C JK 9C KD"
L_S1 = "2C 3D 4H 5S 6C 7D 9D 10S JD QC KH 4C 6D 10D QD"
L_S2 = "9H 10H JH QH KH 7S 7D 7C 2S 3S 4S 5D 5H 5C"
L_DRAWS = "10C 4D 9S 6S"


def levant_three_player_round(
    ruleset: hr.Ruleset = LEVANT, indicator: str | None = "8C"
) -> hr.Round:
    g = start(ruleset, [L_S0, L_S1, L_S2], draws=L_DRAWS, indicator=indicator)
    g = g.apply(hr.Discard(c("QD")))  # seat 1: the bare first discard
    # seat 2: 9H-KH (9+10+10+10+10 = 49) + 7S 7D 7C (21) = 70 >= 51
    g = play(g, hr.DrawStock(), lay("9H 10H JH QH KH", "7S 7D 7C"), hr.Discard(c("10C")))
    # seat 0: JS QS KS (30) + 8H 8S 8D (24) = 54 >= 51; draws 4D, discards KD
    g = play(g, hr.DrawStock(), lay("JS QS KS", "8H 8S 8D"), hr.Discard(c("KD")))
    g = dull(g)  # seat 1: 9S
    # seat 2, second turn: 2S 3S 4S + 5D 5H 5C, the drawn 6S is the last discard
    return play(g, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), hr.Discard(c("6S")))


def test_levant_round_over_several_turns_wild_and_natural_joker_in_hand() -> None:
    """000 §Scoring: winner -30, "cards in hand" Ace 11, K Q J 10, others face value,
    wild card 15; never melded 100. §Wild cards: under a non-Ace indicator the jokers
    "count as ordinary Aces of that suit" (matrix L1: a natural joker costs 11)."""
    g = levant_three_player_round()
    out = outcome(g)
    assert out.ending is hr.Ending.WENT_OUT and out.winner == 2
    # seat 0 holds 6H 7H AC 2D 3C JK 9C 4D: 6+7+15 (wild A♣)+2+3+11 (joker = A♣)+9+4 = 57
    # seat 1 never melded: 100; seat 2 went out over two turns (not a hand): -30
    assert scores(g) == (57, 100, -30)


def test_levant_ace_indicator_hand_with_wild_jokers_in_the_opponents_hand() -> None:
    """000 §Wild cards: an Ace indicator makes the jokers wild and all Aces ordinary;
    §End of a round "Hand": all scores are doubled (matrix L2: -60, 2 x cards)."""
    s0 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH"
    s1 = "JK 5C 6C 7C 9H 9S 9C AD 2C 3S 4D 10S JC KS KD"
    g = start(LEVANT, [s0, s1], draws="7D 8C KC", indicator="AS")
    g = g.apply(hr.Discard(c("KD")))  # seat 1's bare discard
    g = dull(g)  # seat 0's first turn (no going out on a first turn)
    # seat 1: 5C 6C 7C 8C (26) + 9H 9S 9C (27) = 53 >= 51; discards KS
    g = play(g, hr.DrawStock(), lay("5C 6C 7C 8C", "9H 9S 9C"), hr.Discard(c("KS")))
    # seat 0 draws KC: 2H-5H (14) + 6S 7S 8S (21) + 9D-QD (39) + QH KH AH (31) = 105,
    # all 14 cards laid in one turn, nothing melded before: a hand
    every = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    g = play(g, hr.DrawStock(), every, hr.Discard(c("KC")))
    assert outcome(g).ending is hr.Ending.HAND
    # seat 1 holds JK AD 2C 3S 4D 10S JC: 15 (wild joker) + 11 + 2+3+4+10+10 = 55 -> 110
    assert scores(g) == (-60, 110)


# Two players, dealer 0: seat 1 (15 cards) bare-discards KD, seat 0 opens on its
# first turn and goes out on its second; seat 1 opens with JS QS KS + 8H 8S 8D (54)
# and keeps eight cards, among them a natural Ace, an A♣ and a joker.
@pytest.mark.parametrize(
    ("variants", "indicator", "s1", "expected"),
    [
        # 8♣ indicator: AH 11, AC wild 15, JK = natural A♣ 11; 2D 3C 9C 4H 6C = 24
        ([], "8C", "JS QS KS 8H 8S 8D AH AC JK 2D 3C 9C KD 4H 6C", 11 + 15 + 11 + 24),
        # "an Ace left in hand counts 10" (L16: natural Aces only; the natural joker is
        # an ordinary Ace of clubs, so it costs 10 too; the wild A♣ still 15)
        (
            ["ace_in_hand_10"],
            "8C",
            "JS QS KS 8H 8S 8D AH AC JK 2D 3C 9C KD 4H 6C",
            10 + 15 + 10 + 24,
        ),
        # without jokers: both A♣ wild (15 each), AH natural 11
        (["no_jokers"], "8C", "JS QS KS 8H 8S 8D AH AC AC 2D 3C 9C KD 4H 6C", 11 + 15 + 15 + 24),
        (
            ["no_jokers", "ace_in_hand_10"],
            "8C",
            "JS QS KS 8H 8S 8D AH AC AC 2D 3C 9C KD 4H 6C",
            10 + 15 + 15 + 24,
        ),
        # jokers only: no indicator, every Ace natural (11), both jokers wild (15);
        # AH AC JK JK + 3C 9C 4H 6C (22)
        (["jokers_only"], None, "JS QS KS 8H 8S 8D AH AC JK JK 3C 9C KD 4H 6C", 11 + 11 + 30 + 22),
        (
            ["jokers_only", "ace_in_hand_10"],
            None,
            "JS QS KS 8H 8S 8D AH AC JK JK 3C 9C KD 4H 6C",
            10 + 10 + 30 + 22,
        ),
    ],
    ids=["base", "ace10", "no_jokers", "no_jokers+ace10", "jokers_only", "jokers_only+ace10"],
)
def test_levant_penalties_of_aces_and_wilds_under_variant_compositions(
    variants: list[str], indicator: str | None, s1: str, expected: int
) -> None:
    """000 §Scoring ("Ace 11 ... wild card 15"), §Wild cards, §Variants "Without jokers",
    "Jokers only", "Ace values" (an Ace left in hand counts 10; matrix L16)."""
    ruleset = hr.build("levant", variants)
    s0 = "9H 10H JH QH KH 7S 7D 7C 2S 3S 4S 5D 5H 5C"
    g = start(ruleset, [s0, s1], draws="10C 4D 6S", indicator=indicator)
    g = g.apply(hr.Discard(c("KD")))
    # seat 0: 9H-KH (49) + 7S 7D 7C (21) = 70
    g = play(g, hr.DrawStock(), lay("9H 10H JH QH KH", "7S 7D 7C"), hr.Discard(c("10C")))
    # seat 1: JS QS KS (30) + 8H 8S 8D (24) = 54; draws 4D and throws it
    g = play(g, hr.DrawStock(), lay("JS QS KS", "8H 8S 8D"), hr.Discard(c("4D")))
    g = play(g, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), hr.Discard(c("6S")))
    assert outcome(g).ending is hr.Ending.WENT_OUT
    assert scores(g) == (-30, expected)


def test_levant_egyptian_hand_in_one_colour_ending_on_a_wild_discard() -> None:
    """000 §Variants "Egyptian bonuses": a hand ending with a wild discard counts double
    again, "so does a hand of one colour" (001: red or black), "The doublings combine"."""
    ruleset = hr.build("levant", ["egyptian_bonuses"])
    s0 = "2H 3H 4H 5H 6D 7D 8D 9D 9H 10H JH QH KH AC"
    s1 = "2C 3D 4C 5S 6C 7S 9S 10S JC QC KS 4S 6S 9C KD"
    g = start(ruleset, [s0, s1], draws="5C 3S 10D", indicator="8C")
    g = dull(bare(g).apply(hr.DrawStock()).apply(hr.Discard(c("5C"))))  # seat 0, seat 1
    # seat 0 draws 10D: 2H-5H (14) + 6D-10D (40) + 9H-KH (49) = 103, 14 red natural cards,
    # and throws the wild A♣
    g = play(g, hr.DrawStock(), lay("2H 3H 4H 5H", "6D 7D 8D 9D 10D", "9H 10H JH QH KH"))
    g = g.apply(hr.Discard(c("AC")))
    assert outcome(g).ending is hr.Ending.HAND
    # x2 (hand) x2 (wild discard) x2 (one colour) = x8: -30 x 8 = -240; 100 x 8 = 800
    assert scores(g) == (-240, 800)
    assert outcome(g).score.factor == 8


def test_levant_egyptian_one_suit_hand_that_takes_back_its_wild_and_throws_it() -> None:
    """000 §Exchanging wild cards: from the moment the first meld is down "even in the
    same turn" a wild may be taken back by putting in the card it stands for and kept;
    §End of a round: a hand lays all 14 cards without adding to others' melds;
    §Variants "Egyptian bonuses": one suit counts twice the colour bonus (matrix L12 b:
    x8 in all with the hand's x2), a wild discard doubles again."""
    ruleset = hr.build("levant", ["egyptian_bonuses"])
    s0 = "AH 2H 3H 4H 5H 6H 7H AC 9H 9H 10H JH QH KH"
    g = start(ruleset, [s0, None], draws="5C 3S 8H", indicator="8C")
    g = dull(dull(bare(g)))
    g = g.apply(hr.DrawStock())  # 8H
    # AH-7H A♣(=8H) 9H: 11+2+3+4+5+6+7+8+9 = 55; 9H-KH: 9+10+10+10+10 = 49; 104 >= 51
    g = g.apply(lay("AH 2H 3H 4H 5H 6H 7H AC 9H", "9H 10H JH QH KH"))
    run = next(t.id for t in g.table if len(t.meld) == 9)
    g = g.apply(hr.Exchange(run, (c("8H"),)))
    g = g.apply(hr.Discard(c("AC")))
    assert outcome(g).ending is hr.Ending.HAND
    # 14 natural hearts on the table: x2 (hand) x4 (one suit) x2 (wild discard) = x16
    # seat 0: -30 x 16 = -480; seat 1 never melded: 100 x 16 = 1600
    assert scores(g) == (-480, 1600)


def test_levant_egyptian_colour_counts_a_taken_wild_ace_as_a_natural_club() -> None:
    """000 §Exchanging wild cards "Discarded wild cards": a wild Ace taken from the
    discard pile "counts only as a natural Ace of its suit". §Variants "Egyptian
    bonuses": a hand "of one colour" doubles again (001: red or black; matrix L12 c:
    the natural melded cards are checked, wild cards are neutral). A♥ A♦ A♣ with the
    taken A♣ playing as a natural black Ace is not one colour: only the hand's x2."""
    ruleset = hr.build("levant", ["egyptian_bonuses"])
    s0 = "AH AD 2H 3H 4H 5H 6D 7D 8D 9D 10H JH QH KS"
    s1 = "AC 2S 3D 4C 5S 6D 7C 9S 10D JC QS KD 4S 6S 9C"
    g = start(ruleset, [s0, s1], draws="KC 5C", indicator="8C")
    g = g.apply(hr.Discard(c("2S")))  # seat 1, bare
    g = dull(g)  # seat 0: KC
    g = play(g, hr.DrawStock(), hr.Discard(c("AC")))  # seat 1 throws a wild A♣
    g = g.apply(hr.TakeDiscard())  # seat 0 takes it: a natural A♣ from now on
    # AH AD AC (33) + 2H-5H (14) + 6D-9D (30) + 10H JH QH (30) = 107 >= 51, 14 cards
    g = play(g, lay("AH AD AC", "2H 3H 4H 5H", "6D 7D 8D 9D", "10H JH QH"), hr.Discard(c("KS")))
    assert outcome(g).ending is hr.Ending.HAND
    # red naturals plus the natural (black) A♣: not one colour, not one suit; KS is not
    # wild: the hand's x2 only. Seat 0: -60; seat 1 never melded: 200
    assert scores(g) == (-60, 200)


# Four players, dealer 0: order 1 (15 cards), 2, 3, 0, 1, 2. Seat 2 opens and goes out
# on its second turn; seat 3 and seat 0 open; seat 1 never lays anything down.
P_S0 = "JD QD KD 9S 9D 9C 2H 3H 4C 6C 10S 6D 5S 2C"
P_DRAWS = "10C 4D 10D 3D 6S"


def four_player_round(ruleset: hr.Ruleset, indicator: str | None) -> hr.Round:
    g = start(ruleset, [P_S0, None, L_S2, L_S0], draws=P_DRAWS, indicator=indicator)
    g = bare(g)  # seat 1
    # seat 2: 9H-KH (49) + 7S 7D 7C (21) = 70
    g = play(g, hr.DrawStock(), lay("9H 10H JH QH KH", "7S 7D 7C"), hr.Discard(c("10C")))
    # seat 3: JS QS KS (30) + 8H 8S 8D (24) = 54
    g = play(g, hr.DrawStock(), lay("JS QS KS", "8H 8S 8D"), hr.Discard(c("KD")))
    # seat 0: 10D JD QD KD (40) + 9S 9D 9C (27) = 67
    g = play(g, hr.DrawStock(), lay("10D JD QD KD", "9S 9D 9C"), hr.Discard(c("2C")))
    g = dull(g)  # seat 1
    return play(g, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), hr.Discard(c("6S")))


@pytest.mark.parametrize(
    ("preset", "variants", "indicator", "seats", "teams"),
    [
        # 000 §Variants "Partnership Hand": the winner's team -30, "the winner's partner's
        # cards don't count"; the other team adds both penalties: seat 1 never melded 100,
        # seat 3 6H 7H A♣(wild 15) 2D 3C JK(natural A♣ 11) 9C 4D = 57: 157
        ("levant", ["partnership"], "8C", {1: 100, 2: -30, 3: 57}, (-30, 157)),
        # 004 (matrix P7 default): each player scores by the table, the team adds them:
        # seat 0 2H 3H 4C 6C 10S 6D 5S = 36, seat 2 -30: 6; seat 3 (A♣ 11, Joker 15) 57
        ("partnership", [], None, {0: 36, 1: 100, 2: -30, 3: 57}, (6, 157)),
        # P7 alternative winner_team_scoring: as 000's Partnership Hand
        ("partnership", ["winner_team_scoring"], None, {1: 100, 2: -30, 3: 57}, (-30, 157)),
    ],
    ids=["levant+partnership", "partnership", "partnership+winner_team_scoring"],
)
def test_team_round_scores(
    preset: str,
    variants: list[str],
    indicator: str | None,
    seats: dict[int, int],
    teams: tuple[int, int],
) -> None:
    """000 §Variants "Partnership Hand"; 004 §Round scoring ("the player or team") with
    RULES-MATRIX P7 (default: sum of the per-player table; switch winner_team_scoring).
    Partners sit opposite: teams (0, 2) and (1, 3)."""
    g = four_player_round(hr.build(preset, variants), indicator)
    assert outcome(g).winner == 2 and outcome(g).ending is hr.Ending.WENT_OUT
    got = scores(g)
    assert {seat: got[seat] for seat in seats} == seats
    assert team_scores(g) == teams


def test_levant_partnership_egyptian_hand_multiplies_both_teams() -> None:
    """000 §Variants "Partnership Hand" (-60 for a hand, "400 after a hand if neither had
    melded") with "Egyptian bonuses" (a hand of one colour doubles again; matrix L12 e:
    the team scores are multiplied)."""
    ruleset = hr.build("levant", ["partnership", "egyptian_bonuses"])
    s2 = "2H 3H 4H 5H 6D 7D 8D 9D 9H 10H JH QH KH KS"
    g = start(ruleset, [None, None, s2, None], draws="2C 3C 4C 5C 10D", indicator="8C")
    g = dull(dull(dull(dull(bare(g)))))  # seats 1 (bare), 2, 3, 0, 1
    # seat 2 draws 10D: 2H-5H + 6D-10D + 9H-KH = 14 + 40 + 49 = 103, all red; throws KS
    g = play(g, hr.DrawStock(), lay("2H 3H 4H 5H", "6D 7D 8D 9D 10D", "9H 10H JH QH KH"))
    g = g.apply(hr.Discard(c("KS")))
    assert outcome(g).ending is hr.Ending.HAND
    # x2 (hand) x2 (one colour): team (0, 2) -30 x 4 = -120;
    # team (1, 3): neither melded, (100 + 100) x 4 = 800
    assert team_scores(g) == (-120, 800)
    assert scores(g)[1] == scores(g)[3] == 400


def test_levant_beat_last_opening_still_lets_a_one_turn_hand_go_out_below_the_bar() -> None:
    """000 §Variants "Higher minimum": "each player's first meld must beat the last one
    made"; §The first meld "Exception": a player who gets rid of all cards in one turn
    may do so below the bar; §End of a round: that is a hand (scores doubled)."""
    ruleset = hr.build("levant", ["beat_last_opening"])
    s0 = "2H 3H 4H 2S 3S 4S 2D 3D 4D 2C 3C 4C 5H 9S"
    s1 = "JS QS KS 10H 10D 10C 5D 6S 7C 8H 9C KD QH AH 6D"
    g = start(ruleset, [s0, s1], draws="KC 7S 5C", indicator="8C")
    g = dull(g.apply(hr.Discard(c("KD"))))
    # seat 1: JS QS KS (30) + 10H 10D 10C (30) = 60 >= 51 (the first opening)
    g = play(g, hr.DrawStock(), lay("JS QS KS", "10H 10D 10C"), hr.Discard(c("7S")))
    g = g.apply(hr.DrawStock())  # 5C
    # the bar is now 61; 2H-5H (14) + 2S 3S 4S (9) + 2D 3D 4D (9) + 2C-5C (14) = 46,
    # all 14 cards, the 9S thrown: a one-turn finish, so allowed below the bar
    g = play(g, lay("2H 3H 4H 5H", "2S 3S 4S", "2D 3D 4D", "2C 3C 4C 5C"), hr.Discard(c("9S")))
    assert outcome(g).ending is hr.Ending.HAND
    # seat 1 holds 5D 6S 7C 8H 9C QH AH 6D = 5+6+7+8+9+10+11+6 = 62 -> 124
    assert scores(g) == (-60, 124)


@pytest.mark.parametrize(
    ("variants", "legal"),
    [
        # AS-4S counts 11+2+3+4 = 20: 20 + 30 + 30 = 80 >= 71
        (["opening_71"], True),
        # "an Ace in A 2 3 counts only 1": 1+2+3+4 = 10: 70 < 71
        (["opening_71", "low_ace_1"], False),
        # 70 >= 51
        (["low_ace_1"], True),
        # 80 < 91
        (["opening_91"], False),
    ],
)
def test_levant_higher_minimum_with_low_ace(variants: list[str], legal: bool) -> None:
    """000 §Variants "Higher minimum" (61, 71 or 91) and "Ace values" (an Ace in A 2 3
    counts only 1 for the first meld); the 5D and 9C left cannot go out this turn, so
    the below-bar exception (§The first meld) does not apply."""
    spot = hr.Position(
        hr.build("levant", variants),
        indicator="8C",
        players=[hr.PositionSeat("AS 2S 3S 4S JH QH KH 10C 10D 10S 5D 9C"), 14],
        discards="KD",
        turn=0,
        phase=hr.Phase.PLAY,
    )
    g = hr.Round.from_position(spot)
    opening = lay("AS 2S 3S 4S", "JH QH KH", "10C 10D 10S")
    if legal:
        ok(g, opening)
    else:
        no(g, opening, Code.OPENING_BELOW_THRESHOLD)


def stock_spot() -> hr.Round:
    """Levant, 3 players, seat 0 to draw; the stock holds 4 cards (one more than the
    players): 106 - 1 (indicator) - 23 (hands) - 3 (table) - 75 (pile) = 4."""
    return hr.Round.from_position(
        hr.Position(
            LEVANT,
            indicator="8C",
            players=[hr.PositionSeat("7S 8S 2D 5C KH"), 9, 9],
            table=[hr.PositionMeld(1, 0, "JH QH KH")],
            discards="9S",
            discard_size=75,
            turn=0,
            phase=hr.Phase.DRAW,
        )
    )


def test_levant_stock_is_checked_after_each_turn_and_a_taken_discard_spares_it() -> None:
    """000 §End of a round: "If the stock runs down so that, after a turn, it holds only
    as many cards as there are players, the round ends without a score" (matrix L17).
    Taking the discard leaves the stock at 4 > 3: play goes on; the next turn draws it
    down to 3: the round ends unscored."""
    g = stock_spot()
    assert len(g.stock) == 4
    # 000 §Playing a turn: the taken 9S goes into a new meld with two hand cards
    g = play(g, hr.TakeDiscard(), lay("7S 8S 9S"), hr.Discard(c("2D"), announce=True))
    assert not g.is_over and len(g.stock) == 4
    g = dull(g)  # seat 1 draws: 3 left
    assert outcome(g).ending is hr.Ending.STOCK
    assert not outcome(g).score.scored


def test_levant_stock_drawn_to_the_player_count_ends_the_round_at_once() -> None:
    """000 §End of a round (matrix L17): drawing the stock down to 3 with 3 players ends
    the round after that turn, without a score."""
    g = dull(stock_spot())
    assert outcome(g).ending is hr.Ending.STOCK
    assert not outcome(g).score.scored


@pytest.mark.parametrize(
    ("variants", "indicator", "hand", "claim"),
    [
        # an Ace indicator makes the jokers wild: three pairs and a wild card
        ([], "AS", "2S 2S 5H 5H 9D 9D JK 3H 6D 7S 10C JH 4D KC", True),
        # under the 8♣ the joker is a natural A♣: three pairs only
        ([], "8C", "2S 2S 5H 5H 9D 9D JK 3H 6D 7S 10C JH 4D KC", False),
        # jokers only: the joker is always wild
        (["jokers_only"], None, "2S 2S 5H 5H 9D 9D JK 3H 6D 7S 10C JH 4D KC", True),
        # jokers only: every Ace is natural
        (["jokers_only"], None, "2S 2S 5H 5H 9D 9D AC 3H 6D 7S 10C JH 4D KC", False),
        # without jokers, 8♣ indicator: both A♣ wild: two pairs and two wild cards
        (["no_jokers"], "8C", "2S 2S 5H 5H AC AC 3H 6D 7S 10C JH 4D KC 9D", True),
        # without jokers, A♥ indicator: the other A♥ is wild (matrix L13 default)
        (["no_jokers"], "AH", "2S 2S 5H 5H 9D 9D AH 3H 6D 7S 10C JH 4D KC", True),
        # L13 switch: an Ace indicator leaves the round without wild cards
        (
            ["no_jokers", "ace_indicator_no_wilds"],
            "AH",
            "2S 2S 5H 5H 9D 9D AH 3H 6D 7S 10C JH 4D KC",
            False,
        ),
    ],
    ids=[
        "ace_indicator",
        "natural_joker",
        "jokers_only",
        "jokers_only_ace",
        "no_jokers",
        "no_jokers_ace_indicator",
        "no_wilds",
    ],
)
def test_levant_redeal_claim_depends_on_which_cards_are_wild(
    variants: list[str], indicator: str | None, hand: str, claim: bool
) -> None:
    """000 §Setup 4: "four pairs of identical cards ..., or three such pairs and a wild
    card, or two pairs and two wild cards" may ask for a new deal; which cards are wild
    comes from §Wild cards and §Variants "Jokers only" / "Without jokers" (L13)."""
    ruleset = hr.build("levant", variants)
    g = make_deal(ruleset, [hand, None], indicator=indicator).round(ruleset, 0, 0)
    assert g.phase is hr.Phase.REDEAL and g.turn == 1
    g = g.apply(hr.PassRedeal())
    assert g.phase is hr.Phase.REDEAL and g.turn == 0
    assert (hr.ClaimRedeal() in g.legal_actions()) is claim
    assert g.check(hr.ClaimRedeal()).ok is claim


@pytest.mark.parametrize("hand_only", [False, True])
def test_levant_below_bar_finish_with_a_lay_off_on_another_players_meld(hand_only: bool) -> None:
    """000 §The first meld "Exception" (matrix L11: any one-turn finish, lay-offs after the
    first meld included; not a hand if it added to others' melds). Switch
    exemption_hand_only: only a hand may go out below the bar."""
    ruleset = hr.build("levant", ["exemption_hand_only"] if hand_only else [])
    s0 = "2H 3H 4H 2S 3S 4S 2D 3D 4D 2C 3C 4C 5H 10S"
    s1 = "JS QS KS 10H 10D 10C 5D 6S 7C 8H 9C KD QH AH 6D"
    g = start(ruleset, [s0, s1], draws="KC 7S 9D", indicator="8C")
    g = dull(g.apply(hr.Discard(c("KD"))))
    g = play(g, hr.DrawStock(), lay("JS QS KS", "10H 10D 10C"), hr.Discard(c("7S")))
    g = g.apply(hr.DrawStock())  # 9D
    # 2H-5H (14) + 2S 3S 4S (9) + 2D 3D 4D (9) + 2C 3C 4C (9) = 41 < 51
    opening = lay("2H 3H 4H 5H", "2S 3S 4S", "2D 3D 4D", "2C 3C 4C")
    if hand_only:
        no(g, opening, Code.OPENING_BELOW_THRESHOLD)
        return
    g = g.apply(opening)
    spades = next(t.id for t in g.table if t.meld.cards[0] == c("JS"))
    g = play(g, hr.LayOff(spades, c("10S")), hr.Discard(c("9D")))
    assert outcome(g).ending is hr.Ending.WENT_OUT
    # not a hand (10S added to seat 1's meld): -30; seat 1: 62 (as above)
    assert scores(g) == (-30, 62)


def test_levant_egyptian_wild_discard_does_not_multiply_an_ordinary_going_out() -> None:
    """000 §Variants "Egyptian bonuses": "a hand ending with a wild card as the discard
    counts double again" - only a hand (matrix L12 d). Seat 0 melded a turn earlier."""
    ruleset = hr.build("levant", ["egyptian_bonuses"])
    s0 = "9H 10H JH QH KH 7S 7D 7C 2S 3S 4S 5D 5H 5C"
    s1 = "JS QS KS 8H 8S 8D AH AC JK 2D 3C 9C KD 4H 6C"
    g = start(ruleset, [s0, s1], draws="10C 4D AC", indicator="8C")
    g = g.apply(hr.Discard(c("KD")))
    g = play(g, hr.DrawStock(), lay("9H 10H JH QH KH", "7S 7D 7C"), hr.Discard(c("10C")))
    g = play(g, hr.DrawStock(), lay("JS QS KS", "8H 8S 8D"), hr.Discard(c("4D")))
    # seat 0 draws the wild A♣ and throws it as its last card
    g = play(g, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), hr.Discard(c("AC")))
    assert outcome(g).ending is hr.Ending.WENT_OUT
    # no multiplier: -30; seat 1 AH 11 + AC 15 + JK 11 + 2D 3C 9C 4H 6C 24 = 61
    assert scores(g) == (-30, 61)
    assert outcome(g).score.factor == 1


@pytest.mark.parametrize("may_meld", [False, True])
def test_levant_starter_may_meld_switch_still_bars_going_out_on_the_first_turn(
    may_meld: bool,
) -> None:
    """000 §Playing a turn: the 15-card player "starts by simply discarding" (matrix L8
    default: no meld; switch starter_may_meld) and "nobody may go out on their first
    turn"; §End of a round: a player who melded before makes no hand."""
    ruleset = hr.build("levant", ["starter_may_meld"] if may_meld else [])
    s1 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH KC"
    g = start(ruleset, [None, s1], draws="9C 5C", indicator="8C")
    part = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD")  # 14 + 21 + 39 = 74
    if not may_meld:
        no(g, part)
        return
    every = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    no(g, every, Code.GOING_OUT_FIRST_TURN)
    # 15 - 11 = 4 cards; after the discard 3: "three cards" is announced
    g = play(g, part, hr.Discard(c("KC"), announce=True))
    g = dull(g)
    g = play(g, hr.DrawStock(), lay("QH KH AH"), hr.Discard(c("5C")))
    assert outcome(g).ending is hr.Ending.WENT_OUT
    # not a hand (seat 1 melded on its first turn): -30; seat 0 never melded 100
    assert scores(g) == (100, -30)


def test_levant_position_demoted_wild_left_in_another_hand_costs_a_natural_ace() -> None:
    """000 §Exchanging wild cards "Discarded wild cards": a wild Ace taken from the
    discard pile "counts only as a natural Ace of its suit"; matrix L5: "The penalty
    value of a demoted wild ... Default there: natural Ace, 11". In Levantine Hand the
    taken card goes down at once, so only the player to move ever holds one; with that rule
    changed by hand (a taken card may be kept), seat 1 holds such an A♣ when seat 0 goes
    out."""
    keeping = LEVANT.with_(discard_take=DiscardTake())
    spot = hr.Position(
        keeping,
        indicator="8C",
        players=[
            hr.PositionSeat("2S 3S 4S 9H 6C", turns_played=2),
            hr.PositionSeat("AC KD 5C", demoted="AC"),
        ],
        table=[hr.PositionMeld(1, 1, "10H JH QH"), hr.PositionMeld(2, 0, "5H 5S 5D")],
        discards="2D",
        turn=0,
        phase=hr.Phase.PLAY,
    )
    g = hr.Round.from_position(spot)
    assert g.demoted[1] == (c("AC"),)
    g = play(g, lay("2S 3S 4S"), hr.LayOff(1, c("9H")), hr.Discard(c("6C")))
    # seat 0 -30; seat 1: A♣ as a natural Ace 11 + KD 10 + 5C 5 = 26
    assert scores(g) == (-30, 26)


# --- Levant matches -----------------------------------------------------------------


def test_levant_match_worst_scorer_deals_and_totals_may_go_below_zero() -> None:
    """000 §Setup 1 (after the first round "the player with the highest (worst) score in
    the last round deals"), §Winning the game ("The lowest total wins; scores can go
    below zero"); the match length is set to two scored rounds for the test."""
    d1 = make_deal(LEVANT, [L_S0, L_S1, L_S2], draws=L_DRAWS, indicator="8C")
    # round 1 scores (57, 100, -30) (see above): seat 1 deals round 2; seat 2 holds 15
    r2_s0 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH"
    r2_s2 = "JS QS KS 8H 8S 8D 6H 7H AC 2D 3C JK 9C KD 4C"
    d2 = make_deal(LEVANT, [r2_s0, None, r2_s2], draws="5C 3S 10S KC", indicator="8C", dealer=1)
    m = hr.Match.new(LEVANT, 3, seed=0, dealer=0, deals=[d1, d2], length=2, custom_length=True)
    m = mkeep(m)
    m = m.apply(hr.Discard(c("QD")))
    m = mplay(m, hr.DrawStock(), lay("9H 10H JH QH KH", "7S 7D 7C"), hr.Discard(c("10C")))
    m = mplay(m, hr.DrawStock(), lay("JS QS KS", "8H 8S 8D"), hr.Discard(c("KD")))
    m = mdull(m)
    m = mplay(m, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), hr.Discard(c("6S")))
    assert m.totals == (57, 100, -30)
    assert m.dealer == 1
    m = mkeep(m)
    assert m.current is not None and m.current.turn == 2
    m = m.apply(hr.Discard(c("KD")))  # seat 2, bare
    m = mdull(mdull(m))  # seats 0 and 1
    # seat 2: JS QS KS + 8H 8S 8D = 54; keeps 6H 7H AC 2D 3C JK 9C 4C
    m = mplay(m, hr.DrawStock(), lay("JS QS KS", "8H 8S 8D"), hr.Discard(c("10S")))
    # seat 0 draws KC and lays all 14 (105 points) in one turn: a hand
    every = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    m = mplay(m, hr.DrawStock(), every, hr.Discard(c("KC")))
    # round 2: seat 0 -60; seat 1 never melded 200; seat 2 6+7+15+2+3+11+9+4 = 57 -> 114
    assert m.rounds[1].outcome is not None
    assert tuple(m.rounds[1].outcome.score.scores) == (-60, 200, 114)
    # totals: 57-60 = -3, 100+200 = 300, -30+114 = 84; two scored rounds: over
    assert m.totals == (-3, 300, 84)
    assert m.is_over and m.winners == (0,)


@pytest.mark.parametrize(("variants", "next_dealer"), [([], 0), (["rotating_deal"], 1)])
def test_levant_next_dealer_after_a_hand_by_the_starter(
    variants: list[str], next_dealer: int
) -> None:
    """000 §Setup 1: the worst scorer of the last round deals (here the dealer itself,
    who never melded: 200); §Variants "Rotating deal": "the deal simply passes to the
    right after each scored round" (the next seat in the order of play)."""
    ruleset = hr.build("levant", variants)
    s1 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH KC"
    d = make_deal(ruleset, [None, s1], draws="9C 5C", indicator="8C")
    m = hr.Match.new(ruleset, 2, seed=0, dealer=0, deals=[d], length=3, custom_length=True)
    m = mkeep(m).apply(hr.Discard(c("KC")))
    m = mdull(m)
    every = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    m = mplay(m, hr.DrawStock(), every, hr.Discard(c("5C")))
    # seat 1's hand: -30 x 2 = -60; seat 0 never melded: 100 x 2 = 200
    assert m.totals == (200, -60)
    assert not m.is_over and m.dealer == next_dealer


def test_levant_rotating_deal_redeal_claim_keeps_the_dealer() -> None:
    """000 §Setup 4 (a weak deal "may ... ask for a new deal"; matrix L6 c: the same
    dealer deals again) with §Variants "Rotating deal", which moves the deal only "after
    each scored round"."""
    ruleset = hr.build("levant", ["rotating_deal"])
    pairs = "3H 3H 5C 5C 7D 7D 9S 9S JH QH KH 2C 4C 6D 8S"
    d = make_deal(ruleset, [None, pairs], indicator="8C")
    m = hr.Match.new(ruleset, 2, seed=0, dealer=0, deals=[d], length=3, custom_length=True)
    assert m.current is not None and m.current.turn == 1
    m = m.apply(hr.ClaimRedeal())
    first = m.rounds[0].outcome
    assert first is not None and first.ending is hr.Ending.REDEAL and not first.score.scored
    assert m.dealer == 0 and m.totals == (0, 0)


# =====================================================================================
# Rommé (002)
# =====================================================================================

# Three players, dealer 0 starts with 14 cards and no draw; order 0, 1, 2, 0, 1.
R_S0 = "KS AS 2S 8H 8D 8C JK 5C 9D 4H QC 7S 3D 6H"
R_S1 = "10H JH QH KH 9S 9C 9H 3C 4C 5C 6S 6D 2H"
R_S2 = "JK 2D 3H 4S 5D 7C 8S 10C JD QD KC AH 7D"


@pytest.mark.parametrize(
    ("variants", "expected"),
    [
        # joker 20: seat 0 JK 5C 9D 4H 7S 3D 6H = 20+5+9+4+7+3+6 = 54;
        # seat 2 JK + 2+3+4+5+7+8+10+10+10+10+11 (AH)+7 = 20 + 87 = 107
        (["round_the_corner"], (54, 0, 107)),
        # "Joker 30": 64 and 117
        (["round_the_corner", "joker_30"], (64, 0, 117)),
    ],
)
def test_romme_round_the_corner_opening_and_joker_penalties(
    variants: list[str], expected: tuple[int, ...]
) -> None:
    """002 §Variants "Round the corner" (K-A-2 allowed; matrix R3: the Ace in it counts 11
    for the opening), "Joker 30"; §Scoring: the player who went out 0, everyone else the
    cards in hand (Ace 11, joker 20), no flat penalty for not coming out."""
    ruleset = hr.build("romme", variants)
    g = start(ruleset, [R_S0, R_S1, R_S2], draws="KD 2C 10S 6C")
    # seat 0: K♠ A♠ 2♠ = 10+11+2 = 23, 8H 8D 8C = 24: 47 >= 40
    g = play(g, lay("KS AS 2S", "8H 8D 8C"), hr.Discard(c("QC")))
    # seat 1: 10H JH QH KH (40) + 9S 9C 9H (27) = 67
    g = play(g, hr.DrawStock(), lay("10H JH QH KH", "9S 9C 9H"), hr.Discard(c("KD")))
    g = dull(dull(g))  # seats 2 and 0
    # seat 1 draws 6C: 3C 4C 5C and 6S 6D 6C, then discards its last card
    g = play(g, hr.DrawStock(), lay("3C 4C 5C"), lay("6S 6D 6C"), hr.Discard(c("2H")))
    assert outcome(g).ending is hr.Ending.WENT_OUT and outcome(g).winner == 1
    assert scores(g) == expected


@pytest.mark.parametrize(
    ("variants", "legal"),
    [
        # 002 §Melds: K-A-2 is not a run
        ([], False),
        # matrix R3 switch wrap_ace_1: 10+1+2 = 13, + 24 = 37 < 40
        (["round_the_corner", "wrap_ace_1"], False),
        # ... but 37 >= 35 under "Lower opening" 35
        (["round_the_corner", "wrap_ace_1", "opening_35"], True),
    ],
)
def test_romme_round_the_corner_ace_value_against_the_bar(variants: list[str], legal: bool) -> None:
    """002 §Melds, §The first meld (40), §Variants "Round the corner", "Lower opening"
    (30, sometimes 35); matrix R3 (wrap_ace_1: the Ace in K-A-2 counts 1)."""
    g = start(hr.build("romme", variants), [R_S0, R_S1, R_S2], draws="KD 2C 10S 6C")
    opening = lay("KS AS 2S", "8H 8D 8C")
    if legal:
        ok(g, opening)
    else:
        no(g, opening)


@pytest.mark.parametrize(("variants", "s1_score"), [([], 252), (["joker_30"], 292)])
def test_romme_hand_romme_doubles_jokers_left_in_hand(variants: list[str], s1_score: int) -> None:
    """002 §Scoring "Hand Rommé": the dealer lays all 14 cards in its first turn (35 < 40:
    "The 40-point minimum does not apply"), the others' penalties are doubled;
    §Variants "Joker 30"."""
    ruleset = hr.build("romme", variants)
    s0 = "AH 2H 3H 2S 3S 4S AD 2D 3D 4D AC 2C 3C 4C"
    s1 = "JK JK 5S 6D 7H 8C 9S 10D JH QC KS 5H 6C"
    g = start(ruleset, [s0, s1])
    # A-2-3 runs: the Ace counts 1: 6 + 9 + 10 + 10 = 35
    g = g.apply(lay("AH 2H 3H", "2S 3S 4S", "AD 2D 3D 4D", "AC 2C 3C 4C"))
    assert outcome(g).ending is hr.Ending.HAND
    # seat 1: 5+6+7+8+9+10+10+10+10+5+6 = 86, two jokers: 86 + 40 = 126 -> 252,
    # or 86 + 60 = 146 -> 292
    assert scores(g) == (0, s1_score)


ROMME_DEALER = "JH QH KH 7S 7D 7C 2C 5D 9S 10C 4H 6S 8D KC"
# seat 1's hand, the card it draws, the melds of its one-turn finish and its last discard
ROMME_LOW = (
    "AS 2S 3S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C",
    "KS",
    ("AS 2S 3S", "2H 3H 4H", "2D 3D 4D", "2C 3C 4C 5C"),
    "KS",
)
ROMME_HIGH = (
    "2S 3S 4S 5S 9H 9D 9C QS QD QC 6H 7H 3D",
    "8H",
    ("2S 3S 4S 5S", "9H 9D 9C", "QS QD QC", "6H 7H 8H"),
    "3D",
)


@pytest.mark.parametrize(
    ("dealer_melds", "finish", "expected"),
    [
        # AS 2S 3S (6) + 2H 3H 4H (9) + 2D 3D 4D (9) + 2C-5C (14) = 38 < 40 after the
        # dealer has melded: not a Hand Rommé, so no exemption
        (True, ROMME_LOW, None),
        # the same with nobody melded before: a Hand Rommé, exempt; the dealer's 13 cards
        # JH QH KH 7S 7D 7C 2C 5D 9S 10C 4H 6S 8D = 95, doubled: 190
        (False, ROMME_LOW, (190, 0)),
        # 2S-5S (14) + 9H 9D 9C (27) + QS QD QC (30) + 6H 7H 8H (21) = 92 >= 40 after the
        # dealer melded: an ordinary going out; the dealer keeps 2C 5D 9S 10C 4H 6S 8D = 44
        (True, ROMME_HIGH, (44, 0)),
    ],
    ids=["after_a_meld_below_40", "hand_romme_below_40", "after_a_meld_above_40"],
)
def test_romme_one_turn_finish_is_a_hand_romme_only_before_anyone_melded(
    dealer_melds: bool,
    finish: tuple[str, str, tuple[str, ...], str],
    expected: tuple[int, int] | None,
) -> None:
    """002 §Scoring "Hand Rommé": "without having melded anything before and before any
    other player has melded"; only then "The 40-point minimum does not apply" and the
    others' penalties are doubled (a final discard is allowed, matrix R6)."""
    s1, draw, melds, last = finish
    g = start(ROMME, [ROMME_DEALER, s1], draws=draw)
    if dealer_melds:
        # JH QH KH (30) + 7S 7D 7C (21) = 51
        g = g.apply(lay("JH QH KH", "7S 7D 7C"))
    g = play(g, hr.Discard(c("KC")), hr.DrawStock())
    if expected is None:
        no(g, lay(*melds), Code.OPENING_BELOW_THRESHOLD)
        return
    g = play(g, lay(*melds), hr.Discard(c(last)))
    assert outcome(g).ending is (hr.Ending.WENT_OUT if dealer_melds else hr.Ending.HAND)
    assert scores(g) == expected


def test_romme_hand_all_melded_switch_makes_a_finish_with_a_discard_ordinary() -> None:
    """002 §Scoring "Hand Rommé" with matrix R6's alternative (hand_all_melded: every card
    must be melded, no final discard): the dealer's one-turn finish with a discard is an
    ordinary going out, not doubled, and the 40 applies to it."""
    ruleset = hr.build("romme", ["hand_all_melded"])
    s1 = "5S 6D 7H 8C 9S 10D JH QC KS 5H 6C 7S 8D"
    high = start(ruleset, ["JH QH KH 2S 3S 4S AD 2D 3D 4D AC 2C 3C KS", s1])
    # JH QH KH (30) + 2S 3S 4S (9) + AD-4D (10) + AC 2C 3C (6) = 55 >= 40
    g = play(high, lay("JH QH KH", "2S 3S 4S", "AD 2D 3D 4D", "AC 2C 3C"), hr.Discard(c("KS")))
    assert outcome(g).ending is hr.Ending.WENT_OUT
    # seat 1: 5+6+7+8+9+10+10+10+10+5+6+7+8 = 101, not doubled
    assert scores(g) == (0, 101)
    low = start(ruleset, ["AH 2H 3H 2S 3S 4S AD 2D 3D 4D AC 2C 3C KS", s1])
    # 6 + 9 + 10 + 6 = 31 < 40, and with the KS to discard it cannot be a Hand
    no(low, lay("AH 2H 3H", "2S 3S 4S", "AD 2D 3D 4D", "AC 2C 3C"), Code.OPENING_BELOW_THRESHOLD)


@pytest.mark.parametrize(("variants", "s1_score"), [([], 109), (["joker_30"], 119)])
def test_romme_stock_runs_out_everyone_pays_the_cards_in_hand(
    variants: list[str], s1_score: int
) -> None:
    """002 §Going out: "If the stock runs out before anyone goes out, the round ends:
    everyone scores the cards in their hand" (matrix R7: when the next player would
    have to draw); §Scoring values, §Variants "Joker 30"."""
    ruleset = hr.build("romme", variants)
    s1 = "JK 5S 6D 7H 8C 9S 10D JH QC KS 5H 6C 3D"
    s2 = "AS AD 2H 3H 4D 5C 6H 7C 8S 9H 10S QD KD"
    g = start(ruleset, [ROMME_DEALER, s1, s2])
    g = play(g, lay("JH QH KH", "7S 7D 7C"), hr.Discard(c("KC")))
    # 108 - (14 + 13 + 13) = 68 cards in the stock; each dull turn takes one
    assert len(g.stock) == 68
    for _ in range(67):
        g = dull(g)
    assert not g.is_over and len(g.stock) == 1
    g = dull(g)
    assert outcome(g).ending is hr.Ending.STOCK and outcome(g).score.scored
    # seat 0 (came out): 2C 5D 9S 10C 4H 6S 8D = 44
    # seat 1: 5+6+7+8+9+10+10+10+10+5+6+3 = 89 + joker (20 or 30)
    # seat 2 (never came out, no flat penalty): 11+11+2+3+4+5+6+7+8+9+10+10+10 = 96
    assert scores(g) == (44, s1_score, 96)


def test_romme_tournament_jokers_the_last_card_may_be_a_joker() -> None:
    """002 §Variants "Tournament jokers": "a joker may be discarded only to go out";
    §Going out: the last card is discarded; §Scoring."""
    ruleset = hr.build("romme", ["tournament_jokers"])
    s0 = "JH QH KH 7S 7D 7C 2S 3S 4S 9D 9C 9H JK 5C"
    s1 = "AS 2H 3D 4C 5H 6S 7H 8C 10D JC QS KD 6D"
    g = start(ruleset, [s0, s1], draws="KC 5S")
    g = g.apply(lay("JH QH KH", "7S 7D 7C"))  # 51
    no(g, hr.Discard(c("JK")))  # not going out
    g = dull(g.apply(hr.Discard(c("5C"))))
    g = play(g, hr.DrawStock(), lay("2S 3S 4S 5S"), lay("9D 9C 9H"))
    ok(g, hr.Discard(c("JK")))
    g = g.apply(hr.Discard(c("JK")))
    assert outcome(g).ending is hr.Ending.WENT_OUT
    # seat 1: 11+2+3+4+5+6+7+8+10+10+10+10+6 = 92
    assert scores(g) == (0, 92)


@pytest.mark.parametrize(
    ("variants", "over"), [(["joker_30"], False), (["joker_30", "limit_reached"], True)]
)
def test_romme_match_limit_passed_or_reached(variants: list[str], over: bool) -> None:
    """002 §Winning the game: "until one player passes an agreed penalty total" (matrix R8:
    strictly greater; switch limit_reached: reaching it is enough); §Setup 1: "the deal
    passes to the left" (the next seat)."""
    ruleset = hr.build("romme", variants)
    s0 = "AH 2H 3H 2S 3S 4S AD 2D 3D 4D AC 2C 3C 4C"
    s1 = "JK JK 5S 6D 7H 8C 9S 10D JH QC KS 5H 6C"
    d = make_deal(ruleset, [s0, s1])
    m = hr.Match.new(ruleset, 2, seed=0, dealer=0, deals=[d], length=292)
    m = m.apply(lay("AH 2H 3H", "2S 3S 4S", "AD 2D 3D 4D", "AC 2C 3C 4C"))
    # a Hand Rommé: seat 1 pays (86 + 2 x 30) x 2 = 292, the limit itself
    assert m.totals == (0, 292)
    assert m.is_over is over
    if over:
        assert m.winners == (0,)
    else:
        assert m.dealer == 1


# =====================================================================================
# Gulf (003)
# =====================================================================================

# Dealer 3, so seat 0 (the dealer's left) starts; 10H is the upcard.
G_S0 = "JH QH KH AH 7S 7D 7C 2S 3S 4S 5D 5H 5C"
G_S1 = "10S JS QS KS 8H 8S 8D JK AS 2D 3C 9H 4C"
G_S2 = "AC 2H 3D 4H 6C 7H 9D 10C JD QC KC 6D 8C"
G_S3 = "JK 2C 3H 4D 5S 6H 8C 9S 10D JC QD KH AD"


@pytest.mark.parametrize(
    ("variants", "expected"),
    [
        # matrix G1 defaults: winner 0; 003's table Ace 15, 10-K 10, Joker 25, for
        # everyone (never-opened too). Seat 1: JK AS 2D 3C 9H 4C = 25+15+2+3+9+4 = 58;
        # seat 2: 15+2+3+4+6+7+9+10+10+10+10+6+8 = 100; seat 3: 25+2+3+4+5+6+8+9+40+15 = 117
        ([], (0, 58, 100, 117)),
        # G1 switches: winner -30, never opened a flat 100
        (["winner_minus_30", "never_opened_100"], (-30, 58, 100, 100)),
        # levant_penalties (Ace 11, joker 15): 15+11+18 = 44; 100-15+11 = 96;
        # 117-25+15-15+11 = 103
        (["levant_penalties"], (0, 44, 96, 103)),
        # romme_penalties (Ace 11, joker 20): 20+11+18 = 49; 96; 117-25+20-15+11 = 108
        (["romme_penalties"], (0, 49, 96, 108)),
        (
            ["levant_penalties", "winner_minus_30", "never_opened_100"],
            (-30, 44, 100, 100),
        ),
    ],
)
def test_gulf_round_over_two_turns(variants: list[str], expected: tuple[int, ...]) -> None:
    """003 §Dealing (the dealer's left goes first, upcard), §Turn Flow, §First Meld
    Requirement (Ace 15), §Scoring (the penalty list is missing: matrix G1 defaults and
    switches)."""
    ruleset = hr.build("gulf", variants)
    g = start(
        ruleset,
        [G_S0, G_S1, G_S2, G_S3],
        discards="10H",
        draws="9C KD 7H 3S 6S",
        dealer=3,
    )
    assert g.turn == 0
    # seat 0: JH QH KH AH (10+10+10+15 = 45) + 7S 7D 7C (21) = 66 >= 51
    g = play(g, hr.DrawStock(), lay("JH QH KH AH", "7S 7D 7C"), hr.Discard(c("9C")))
    # seat 1: 10S-KS (40) + 8H 8S 8D (24) = 64
    g = play(g, hr.DrawStock(), lay("10S JS QS KS", "8H 8S 8D"), hr.Discard(c("KD")))
    g = dull(dull(g))  # seats 2 and 3 never open
    g = play(g, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), hr.Discard(c("6S")))
    assert outcome(g).ending is hr.Ending.WENT_OUT and outcome(g).winner == 0
    assert scores(g) == expected


GH_S0 = "10H JH QH KH 7S 7D 7H 2C 3C 4C 9S 9D 9C"
GH_S2 = "AC 2H 3D 4H 6C 7H 9D 10C JD QC KC 6D 5D"


def gulf_hand_round(ruleset: hr.Ruleset) -> hr.Round:
    g = start(ruleset, [GH_S0, G_S1, GH_S2, G_S3], discards="6S", draws="8C KD 3S 4S 5C", dealer=3)
    g = dull(g)  # seat 0 melds nothing on its first turn
    g = play(g, hr.DrawStock(), lay("10S JS QS KS", "8H 8S 8D"), hr.Discard(c("KD")))
    g = dull(dull(g))
    return g.apply(hr.DrawStock())  # seat 0 draws 5C


@pytest.mark.parametrize(
    ("variants", "expected"),
    [
        # doubled: seat 1 58 x 2 = 116; seat 2 15+2+3+4+6+7+9+10+10+10+10+6+5 = 97 -> 194;
        # seat 3 117 -> 234; the winner 0
        ([], (0, 116, 194, 234)),
        # the winner's -30 is not a penalty of "all other players": not doubled;
        # never opened: 100 x 2 = 200
        (["winner_minus_30", "never_opened_100"], (-30, 116, 200, 200)),
    ],
)
def test_gulf_hand_melding_every_card(variants: list[str], expected: tuple[int, ...]) -> None:
    """003 §Hand Bonus: "melds ALL their cards in a single turn (having never melded
    before in this round) ... penalty points for all other players are DOUBLED";
    matrix G1 (winner's score and never-opened penalty, with their switches), G4."""
    g = gulf_hand_round(hr.build("gulf", variants))
    # 10H-KH (40) + 7S 7D 7H (21) + 2C-5C (14) + 9S 9D 9C (27) = 102, all 14 cards
    g = g.apply(lay("10H JH QH KH", "7S 7D 7H", "2C 3C 4C 5C", "9S 9D 9C"))
    assert outcome(g).ending is hr.Ending.HAND
    assert scores(g) == expected


def test_gulf_final_discard_required_switch_a_hand_keeps_one_card_to_discard() -> None:
    """Matrix G4 alternative (final_discard_required): "a final discard is mandatory, and
    a Hand = all but the discard melded in one turn"; 003 §Hand Bonus doubling."""
    g = gulf_hand_round(hr.build("gulf", ["final_discard_required"]))
    no(g, lay("10H JH QH KH", "7S 7D 7H", "2C 3C 4C 5C", "9S 9D 9C"))
    # 40 + 21 + 9 + 27 = 97 >= 51, 13 cards, the 5C thrown
    g = play(g, lay("10H JH QH KH", "7S 7D 7H", "2C 3C 4C", "9S 9D 9C"), hr.Discard(c("5C")))
    assert outcome(g).ending is hr.Ending.HAND
    assert scores(g) == (0, 116, 194, 234)


def gulf_quiet_round(ruleset: hr.Ruleset) -> hr.Round:
    return start(ruleset, [G_S0, G_S1, G_S2, G_S3], discards="10H", dealer=3)


def test_gulf_stock_is_renewed_from_the_discard_pile_as_often_as_needed() -> None:
    """003 is silent on the stock running out (matrix G9: reshuffle the discard pile
    except its top card, as 002 "Fresh stock" and 004; no limit stated)."""
    g = gulf_quiet_round(GULF)
    # 108 - 52 - 1 (upcard) = 55
    assert len(g.stock) == 55
    for _ in range(5):  # more renewals than the app's three
        for _ in range(55):
            g = dull(g)
        assert not g.is_over
        # the pile held 56 cards: 55 become the stock, the top one stays
        assert len(g.stock) == 55 and len(g.discards) == 1


@pytest.mark.parametrize(
    ("variants", "scored", "expected"),
    [
        # G9 switch stock_out_score_hands (as 002): the cards in hand at 003's values:
        # seat 0 10+10+10+15+7+7+7+2+3+4+5+5+5 = 90; seat 1 40+24+58 = 122; 100; 117
        (["stock_out_score_hands"], True, (90, 122, 100, 117)),
        # G9 switch stock_out_unscored (as 000): no score
        (["stock_out_unscored"], False, None),
    ],
)
def test_gulf_stock_out_switches_in_a_match(
    variants: list[str], scored: bool, expected: tuple[int, ...] | None
) -> None:
    """Matrix G9 switches; G3: the deal passes to the next player after a scored round,
    and (as 000) the same dealer deals again after an unscored one."""
    ruleset = hr.build("gulf", variants)
    d = make_deal(ruleset, [G_S0, G_S1, G_S2, G_S3], discards="10H", dealer=3)
    m = hr.Match.new(ruleset, 4, seed=0, dealer=3, deals=[d])
    for _ in range(55):
        m = mdull(m)
    assert len(m.rounds) == 1
    first = m.rounds[0].outcome
    assert first is not None and first.ending is hr.Ending.STOCK
    assert first.score.scored is scored
    if expected is not None:
        assert tuple(first.score.scores) == expected
        assert m.totals == expected and m.dealer == 0
    else:
        assert m.totals == (0, 0, 0, 0) and m.dealer == 3
    assert not m.is_over


# =====================================================================================
# The app (004)
# =====================================================================================


def test_classic_round_over_several_turns_joker_15_ace_11() -> None:
    """004 §Round scoring: went out -30, opened "+ total value of the cards left in hand"
    (Ace 11, J/Q/K 10; §The Joker: "A Joker left in your hand ... counts 15"), never
    opened +100; §2: the last card may be discarded to go out."""
    g = levant_three_player_round(CLASSIC, indicator=None)
    assert outcome(g).ending is hr.Ending.WENT_OUT
    # seat 0: 6H 7H AC 2D 3C JK 9C 4D = 6+7+11+2+3+15+9+4 = 57
    assert scores(g) == (57, 100, -30)


@pytest.mark.parametrize(
    ("preset", "variants", "ending", "expected"),
    [
        # matrix P6 a default: a Hand lays down every card, no final discard
        ("classic", [], hr.Ending.WENT_OUT, (-30, 100)),
        ("saudi", [], hr.Ending.WENT_OUT, (-30, 100)),
        # P6 a alternative hand_with_final_discard: -60, never opened +200
        ("classic", ["hand_with_final_discard"], hr.Ending.HAND, (-60, 200)),
    ],
)
def test_app_one_turn_finish_with_a_final_discard(
    preset: str, variants: list[str], ending: hr.Ending, expected: tuple[int, int]
) -> None:
    """004 §The "Hand" finish: "lay down all your cards in a single turn" (matrix P6 a;
    P6 b: the earlier discard is not "playing"); §Round scoring."""
    s0 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH"
    g = start(hr.build(preset, variants), [s0, None], draws="9C 3S KC")
    g = dull(dull(bare(g)))  # seat 1 bare, seat 0, seat 1
    # seat 0 draws KC: 2H-5H (14) + 6S 7S 8S (21) + 9D-QD (39) + QH KH AH (31) = 105
    every = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    g = play(g, hr.DrawStock(), every, hr.Discard(c("KC")))
    assert outcome(g).ending is ending
    assert scores(g) == expected


@pytest.mark.parametrize("exempt", [False, True])
def test_classic_hand_below_51_only_with_hand_exempt(exempt: bool) -> None:
    """004 §4 (51 opening) and §The "Hand" finish; matrix P6 c: the bar applies to a Hand
    by default, switch hand_exempt waives it."""
    ruleset = hr.build("classic", ["hand_exempt"] if exempt else [])
    s0 = "2H 3H 4H 2S 3S 4S 2D 3D 4D 2C 3C 4C 2H 2S"
    g = start(ruleset, [s0, None], draws="9C 3S 2D")
    g = dull(dull(bare(g)))
    g = g.apply(hr.DrawStock())  # 2D
    # four runs of 2-3-4 (9 each, 36) + 2H 2S 2D (6) = 42 < 51, all 15 cards
    every = lay("2H 3H 4H", "2S 3S 4S", "2D 3D 4D", "2C 3C 4C", "2H 2S 2D")
    if not exempt:
        no(g, every, Code.OPENING_BELOW_THRESHOLD)
        return
    g = g.apply(every)
    assert outcome(g).ending is hr.Ending.HAND
    assert scores(g) == (-60, 200)


@pytest.mark.parametrize(
    ("preset", "variants", "legal"),
    [
        # P1/P2 defaults; 004 "Saudi Hand": the Ace is 1 in a run starting A-2-3:
        # AS-5S = 1+2+3+4+5 = 15, 9D-QD = 39: 54, not above the last opening (54)
        ("saudi", [], False),
        # matrix L15 switch beat_last_or_equal: equal is enough
        ("saudi", ["beat_last_or_equal"], True),
    ],
)
def test_saudi_escalating_openings_in_a_three_player_round(
    preset: str, variants: list[str], legal: bool
) -> None:
    """004 §The four variants "Saudi Hand": "the first to open needs 51, then the next
    player needs the last accepted opening + 1"; the Ace is 1 only in a run starting
    A-2-3 (and 11 in hand, matrix P12); §Round scoring."""
    ruleset = hr.build(preset, variants)
    s0 = "AS 2S 3S 4S 5S 10D JD QD KD 6H 7H AH 6C 2D"
    s2 = "JH QH KH 8S 8D 8C 2S 3S 4S 5D 5H 5C 9C 10C"
    g = start(ruleset, [s0, None, s2], draws="KS 9D 3H JC")
    g = bare(g)  # seat 1
    # seat 2: JH QH KH (30) + 8S 8D 8C (24) = 54 >= 51
    g = play(g, hr.DrawStock(), lay("JH QH KH", "8S 8D 8C"), hr.Discard(c("KS")))
    g = g.apply(hr.DrawStock())  # seat 0: 9D
    equal = lay("9D 10D JD QD", "AS 2S 3S 4S 5S")
    if legal:
        ok(g, equal)
    else:
        no(g, equal, Code.OPENING_BELOW_THRESHOLD)
    # 9D-KD (49) + AS-5S (15) = 64 > 54
    g = play(g, lay("9D 10D JD QD KD", "AS 2S 3S 4S 5S"), hr.Discard(c("2D")))
    g = dull(g)  # seat 1 never opens
    # seat 2 draws JC and melds its last card: no discard needed (004 §2)
    g = play(g, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), lay("9C 10C JC"))
    assert outcome(g).ending is hr.Ending.WENT_OUT
    # seat 0: 6H 7H AH 6C = 6+7+11+6 = 30; seat 1 never opened 100; seat 2 -30
    assert scores(g) == (30, 100, -30)


@pytest.mark.parametrize(
    ("preset", "variants", "expected"),
    [
        # 51 fixed: 51 is enough; seat 1 keeps 5D 6S 7C 8H 9C QH AH 6D = 62 -> 124
        ("classic", [], (-60, 124)),
        # Saudi: seat 1 opened with 60, so the bar is 61 (P6 c: it applies to a Hand)
        ("saudi", [], None),
        ("saudi", ["hand_exempt"], (-60, 124)),
    ],
)
def test_saudi_hand_against_the_escalated_bar(
    preset: str, variants: list[str], expected: tuple[int, int] | None
) -> None:
    """004 §The four variants "Saudi Hand" (escalating opening), §The "Hand" finish;
    matrix P6 c (the bar applies to a Hand; switch hand_exempt)."""
    ruleset = hr.build(preset, variants)
    s0 = "2H 3H 4H 5H 2S 3S 4S 5S 2D 3D 4D 2C 3C 4C"
    s1 = "JS QS KS 10H 10D 10C 5D 6S 7C 8H 9C KD QH AH 6D"
    g = start(ruleset, [s0, s1], draws="KC 7S 5D")
    g = dull(g.apply(hr.Discard(c("KD"))))
    # seat 1: JS QS KS (30) + 10H 10D 10C (30) = 60
    g = play(g, hr.DrawStock(), lay("JS QS KS", "10H 10D 10C"), hr.Discard(c("7S")))
    g = g.apply(hr.DrawStock())  # 5D
    # 2H-5H + 2S-5S + 2D-5D (14 each) + 2C 3C 4C (9) = 51, all 15 cards
    every = lay("2H 3H 4H 5H", "2S 3S 4S 5S", "2D 3D 4D 5D", "2C 3C 4C")
    if expected is None:
        no(g, every, Code.OPENING_BELOW_THRESHOLD)
        return
    g = g.apply(every)
    assert outcome(g).ending is hr.Ending.HAND
    assert scores(g) == expected


PH_S0 = "3C 5D 7C 9H JC KS 4D 6H 8C 10S QC 2S 4S 6D"


@pytest.mark.parametrize(
    ("preset", "variants", "seats", "teams"),
    [
        # P7 default: per-player Hand table, summed: seat 2 -60, everyone else never
        # opened +200: team (0, 2) 140, team (1, 3) 400
        ("partnership", [], (200, 200, -60, 200), (140, 400)),
        # P7 switch winner_team_scoring: the winner's team scores -60 alone
        ("partnership", ["winner_team_scoring"], None, (-60, 400)),
        # P9 c default: the opening belongs to the team, so seat 0 pays its cards,
        # 3+5+7+9+10+10+4+6+8+10+10+2+4+6 = 94, doubled 188: team (0, 2) 128
        ("saudi_partnership", [], (188, 200, -60, 200), (128, 400)),
        # P9 c switch partner_pays_never_opened: seat 0 pays +200 after all
        ("saudi_partnership", ["partner_pays_never_opened"], (200, 200, -60, 200), (140, 400)),
    ],
)
def test_app_partnership_hand(
    preset: str,
    variants: list[str],
    seats: tuple[int, ...] | None,
    teams: tuple[int, int],
) -> None:
    """004 §The "Hand" finish (-60, x2, never opened +200), §Round scoring ("the player or
    team"); matrix P7 (team score) and P9 c (a partner of an opened team)."""
    ruleset = hr.build(preset, variants)
    s2 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH"
    g = start(ruleset, [PH_S0, None, s2, None], draws="KC 2C 3D 5S 6H")
    g = dull(dull(dull(dull(bare(g)))))  # seats 1 (bare), 2, 3, 0, 1
    # seat 2 draws 6H: 2H-6H (20) + 6S 7S 8S (21) + 9D-QD (39) + QH KH AH (31) = 111
    g = play(g, hr.DrawStock(), lay("2H 3H 4H 5H 6H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH"))
    assert outcome(g).ending is hr.Ending.HAND
    if seats is not None:
        assert scores(g) == seats
    assert team_scores(g) == teams


@pytest.mark.parametrize(
    ("variants", "seats", "teams"),
    [
        # P9 a/c defaults: seat 0 (never laid down, team opened) pays its cards:
        # 2H 6S 9D JC QC 4C 7H 8D KC 3S 5S 6C 4D = 84; seat 1 likewise (seat 3 opened):
        # AS 4S 6H 8S JD KH 3D 7S QH 6C 2S 10C JS 4D = 101; seat 3: 4H 2C 3H 9H 8H = 26
        ([], (84, 101, -30, 26), (54, 127)),
        # P9 c switch: a partner who never laid down pays +100
        (["partner_pays_never_opened"], (100, 100, -30, 26), (70, 126)),
    ],
)
def test_saudi_partnership_team_opening_round(
    variants: list[str], seats: tuple[int, ...], teams: tuple[int, int]
) -> None:
    """004 §The four variants "Saudi Hand Partnership": "the opening belongs to the whole
    team: 51 for the first team, and at least the first team's opening + 1 for the
    other"; matrix P9 a (the partner may lay off without laying down) and P9 c."""
    ruleset = hr.build("saudi_partnership", variants)
    s0 = "AH 2H 6S 9D JC QC 4C 7H 8D KC 3S 5S 6C 4D"
    s1 = "AS 4S 6H 8S JD KH 3D 7S QH 6C 2S 10C JS 4D 5H"
    s2 = "JH QH KH 10S 10D 10C 2S 3S 4S 5D 5H 5C 9C 8C"
    s3 = "JS QS KS 10H 10D 10S 5D 6D 7D 4H 2C 3H 9H KD"
    g = start(ruleset, [s0, s1, s2, s3], draws="2D 8H 9S QD 7C")
    g = g.apply(hr.Discard(c("5H")))  # seat 1, bare
    # seat 2: JH QH KH (30) + 10S 10D 10C (30) = 60: team (0, 2) has opened
    g = play(g, hr.DrawStock(), lay("JH QH KH", "10S 10D 10C"), hr.Discard(c("2D")))
    g = g.apply(hr.DrawStock())  # seat 3: 8H
    # the other team needs at least 60 + 1: JS QS KS + 10H 10D 10S = 60 is refused
    no(g, lay("JS QS KS", "10H 10D 10S"), Code.OPENING_BELOW_THRESHOLD)
    # + 5D 6D 7D (18) = 78
    g = play(g, lay("JS QS KS", "10H 10D 10S", "5D 6D 7D"), hr.Discard(c("KD")))
    g = g.apply(hr.DrawStock())  # seat 0: 9S
    hearts = next(t.id for t in g.table if t.meld.cards[0] == c("JH"))
    g = play(g, hr.LayOff(hearts, c("AH")), hr.Discard(c("9S")))
    g = dull(g)  # seat 1
    g = play(g, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), lay("7C 8C 9C"))
    assert outcome(g).ending is hr.Ending.WENT_OUT and outcome(g).winner == 2
    assert scores(g) == seats
    assert team_scores(g) == teams


def test_classic_three_round_match() -> None:
    """004 §What you need (3, 5, 7 or 9 rounds chosen by the host), §Round scoring
    ("lowest total after the chosen number of rounds"), §The "Hand" finish (P6 d: a Hand
    on the first turn is allowed; P6 a: with a final discard it is no Hand); who deals next
    is not stated (matrix P11), and the library's documented default (the rule
    ``classic.match.dealer``) passes the deal to the next player, as 000's "Rotating
    deal" does: with two players, seat 0, then 1, then 0."""
    ruleset = hr.build("classic", ["rounds_3"])
    hand = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH"
    d1 = make_deal(ruleset, [hand, None], draws="6H", dealer=0)
    d2 = make_deal(ruleset, [None, hand], draws="6H", dealer=1)
    d3 = make_deal(ruleset, [hand, None], draws="KC", dealer=0)
    m = hr.Match.new(ruleset, 2, seed=0, dealer=0, deals=[d1, d2, d3])
    all15 = lay("2H 3H 4H 5H 6H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    # round 1: seat 1 bare; seat 0 draws 6H and lays all 15 (111): -60, +200
    m = mplay(mbare(m), hr.DrawStock(), all15)
    assert m.totals == (-60, 200) and m.dealer == 1
    # round 2: seat 0 bare; seat 1 the same: +200, -60
    m = mplay(mbare(m), hr.DrawStock(), all15)
    assert m.totals == (140, 140) and m.dealer == 0
    # round 3: seat 0 draws KC, lays 14 (105) and throws the KC: -30, +100
    every = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    m = mplay(mbare(m), hr.DrawStock(), every, hr.Discard(c("KC")))
    # totals: -60+200-30 = 110, 200-60+100 = 240
    assert m.totals == (110, 240)
    assert m.is_over and m.winners == (0,) and len(m.rounds) == 3


def test_saudi_partnership_hand_by_the_partner_of_an_opener() -> None:
    """004 §The four variants "Saudi Hand Partnership" (the opening belongs to the team;
    matrix P9 a: no bar for the partner), §The "Hand" finish ("having played nothing in
    your earlier turns", without adding to anyone else's melds: -60, x2, never opened
    +200); P9 c: the opener's cards count."""
    ruleset = hr.rulesets.saudi_partnership
    s0 = "JH QH KH 10S 10D 10C 3C 5D 7C 9H JC KS 4D 6D"
    s2 = "2H 3H 4H 2S 3S 4S 2D 3D 4D 2C 3C 4C 2H 2S"
    g = start(ruleset, [s0, None, s2, None], draws="KC 8S 9D 5C 2D")
    g = dull(dull(bare(g)))  # seats 1 (bare), 2, 3
    # seat 0: JH QH KH (30) + 10S 10D 10C (30) = 60: the team has opened
    g = play(g, hr.DrawStock(), lay("JH QH KH", "10S 10D 10C"), hr.Discard(c("9D")))
    g = dull(g)  # seat 1
    g = g.apply(hr.DrawStock())  # seat 2: 2D; 15 cards, 42 points, nothing played before
    for meld in ("2H 3H 4H", "2S 3S 4S", "2D 3D 4D", "2C 3C 4C", "2H 2S 2D"):
        g = g.apply(lay(meld))
    assert outcome(g).ending is hr.Ending.HAND and outcome(g).winner == 2
    # seat 0: 3C 5D 7C 9H JC KS 4D 6D = 3+5+7+9+10+10+4+6 = 54 -> 108; seat 2 -60;
    # seats 1 and 3 never opened: 200 each. Teams: 108 - 60 = 48; 400
    assert scores(g) == (108, 200, -60, 200)
    assert team_scores(g) == (48, 400)


def test_partnership_match_is_won_by_a_team() -> None:
    """004 §Round scoring: "the match winner is the player or team with the lowest total";
    one round (a custom length) of the team round above: teams (0, 2) 6, (1, 3) 157."""
    ruleset = hr.rulesets.partnership
    d = make_deal(ruleset, [P_S0, None, L_S2, L_S0], draws=P_DRAWS)
    m = hr.Match.new(ruleset, 4, seed=0, dealer=0, deals=[d], length=1, custom_length=True)
    m = mbare(m)
    m = mplay(m, hr.DrawStock(), lay("9H 10H JH QH KH", "7S 7D 7C"), hr.Discard(c("10C")))
    m = mplay(m, hr.DrawStock(), lay("JS QS KS", "8H 8S 8D"), hr.Discard(c("KD")))
    m = mplay(m, hr.DrawStock(), lay("10D JD QD KD", "9S 9D 9C"), hr.Discard(c("2C")))
    m = mdull(m)
    m = mplay(m, hr.DrawStock(), lay("2S 3S 4S"), lay("5D 5H 5C"), hr.Discard(c("6S")))
    assert m.team_totals == (6, 157)
    assert m.is_over and m.winners == (0, 2)


@pytest.mark.parametrize(("variants", "over"), [([], True), (["ties_play_on"], False)])
def test_gulf_limit_reached_with_a_tie_for_lowest(variants: list[str], over: bool) -> None:
    """003 §Winning the Game: ends when any player "reaches the penalty limit" (here 110),
    the lowest total wins; ties not stated (matrix G11: shared; switch ties_play_on).
    The round ends on the stock under the G9 switch stock_out_score_hands."""
    ruleset = hr.build("gulf", ["stock_out_score_hands", *variants])
    s2 = "AC 2H 3D 4H 6C 7H 9D 10C JD QC 2C 4S 8C"
    d = make_deal(ruleset, [G_S0, G_S1, s2, G_S3], discards="10H", dealer=3)
    m = hr.Match.new(ruleset, 4, seed=0, dealer=3, deals=[d], length=110)
    for _ in range(55):
        m = mdull(m)
    # 90 and 122 as above; seat 2: 15+2+3+4+6+7+9+10+10+10+2+4+8 = 90; seat 3: 117
    assert m.totals == (90, 122, 90, 117)
    assert m.is_over is over
    if over:
        assert m.winners == (0, 2)
