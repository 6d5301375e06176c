"""Audit of variant compositions: two or three variants or switches that meet in one move,
one turn or one round.

What this covers (and what the earlier case files did not): the Saudi escalating bar with
the low Ace, the joker's opening value and the Hand exemption; the team opening with the
fire-card obligation; the app's fire-card obligation with a Hand below the bar; Levant's
low-Ace variant with every source of wild cards; Gulf exchanges against the meld-first
phase order and the length-based joker limits; Rommé's round-the-corner runs with the Hand
Rommé, the lower openings, joker exchanges and lay-offs, and "discard pile only for
melding" with the Hand Rommé and the empty stock; Levant's table variant for the taken
discard with the set of two naturals and a wild and the announcements; Levant's below-bar
finish through that set; the Egyptian colour bonus with natural jokers and wild Aces;
partnership Hands that add to a partner's meld; stock sizes per composition; stock
endings, dealers and the Saudi bar across rounds of a match; redeal claims under the
joker variants; beat-the-last with partners; Gulf's Hand with a final discard that may
not be the taken card.

How the expected values were found: by hand from the rule documents 000-004 (cited by
section in each docstring or comment), from RULES-MATRIX §3's default readings where the
documents are silent (entry named), and from the library's own documented readings
(docs/rules/index.rst, docs/rounds.rst) where those apply (said so). No expected value
was read back from the engine. Single moves are judged three ways that must agree
(tests/three_ways.py: ``check``, the listing, the referee).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

import hand_rummy as hr
from case_positions import seat, spot
from hand_rummy import Code
from scripted import c, make_deal, outcome, play, rules, scores
from three_ways import expect, ok, refused

PLAY = hr.Phase.PLAY
DRAW = hr.Phase.DRAW

lay = hr.LayDown.of
off = hr.LayOff.of
swap = hr.Exchange.of
discard = hr.Discard.of

EIGHT_CLUBS = "8C"


# =====================================================================================
# 1. Saudi (004): the Ace-1 rule with the joker's opening value
# =====================================================================================


def _saudi(variants: Iterable[str], hand: str, **kw: Any) -> hr.Round:
    return spot(
        rules("saudi", *variants),
        hand,
        others=[seat("KC 5D 6D 7D 8D")],
        me={"turns_played": 1},
        discards="KH",
        **kw,
    )


@pytest.mark.parametrize(
    ("variants", "hand", "melds", "legal"),
    [
        # A 2 3 4 (1+2+3+4 = 10, "The Ace is 1 only in a run starting A-2-3") + 10♠-K♠ (40)
        # = 50 < 51
        ([], "AH 2H 3H 4H 10S JS QS KS 9C 5C", ("AH 2H 3H 4H", "10S JS QS KS"), False),
        # with 5♥ on the run: 15 + 40 = 55
        ([], "AH 2H 3H 4H 5H 10S JS QS KS 9C", ("AH 2H 3H 4H 5H", "10S JS QS KS"), True),
        # the joker as the Ace of a run starting A-2-3 counts as the card it stands for
        # (P2 default): 1 -> 50 < 51
        ([], "JK 2H 3H 4H 10S JS QS KS 9C 5C", ("JK 2H 3H 4H", "10S JS QS KS"), False),
        # joker_opening_25: the joker counts 25 wherever it stands: 25 + 9 + 40 = 74
        (
            ["joker_opening_25"],
            "JK 2H 3H 4H 10S JS QS KS 9C 5C",
            ("JK 2H 3H 4H", "10S JS QS KS"),
            True,
        ),
        # joker_opening_15: 15 + 9 + 40 = 64
        (
            ["joker_opening_15"],
            "JK 2H 3H 4H 10S JS QS KS 9C 5C",
            ("JK 2H 3H 4H", "10S JS QS KS"),
            True,
        ),
        # the joker as the 2 of A-2-3: the natural Ace still starts A-2-3: 1 + 2 + 3 = 6;
        # + 40 = 46 < 51 (with Ace 11 it would be 56)
        ([], "AH JK 3H 10S JS QS KS 5C 5D 5S 9C", ("AH JK 3H", "10S JS QS KS"), False),
        # + 5♣ 5♦ 5♠ (15): 61
        (
            [],
            "AH JK 3H 10S JS QS KS 5C 5D 5S 9C",
            ("AH JK 3H", "10S JS QS KS", "5C 5D 5S"),
            True,
        ),
        # an Ace that does not start A-2-3 counts 11 (P1/P12): Q K A = 31, + 9♠-Q♠ 39 = 70
        ([], "QH KH AH 10S JS QS 9S 9C 5C", ("QH KH AH", "9S 10S JS QS"), True),
        # a set of Aces is no run: 33 + 2♣-5♣ 14 = 47 < 51
        ([], "AH AS AD 2C 3C 4C 5C 9S 9D 9C KD", ("AH AS AD", "2C 3C 4C 5C"), False),
        ([], "AH AS AD 2C 3C 4C 5C 9S 9D 9C KD", ("AH AS AD", "2C 3C 4C 5C", "9S 9D 9C"), True),
    ],
    ids=[
        "A-4-is-10",
        "A-5-is-15",
        "joker-ace-is-1",
        "joker25-ace",
        "joker15-ace",
        "joker-two-natural-ace",
        "joker-two-natural-ace-plus-fives",
        "QKA-ace-11",
        "ace-set-33-short",
        "ace-set-33-enough",
    ],
)
def test_saudi_low_ace_with_the_jokers_opening_value(
    variants: list[str], hand: str, melds: tuple[str, ...], legal: bool
) -> None:
    """004 §The four variants, Saudi Hand: "The Ace is 1 only in a run starting A-2-3";
    §4 (Ace 11 otherwise); matrix P2 (a joker counts as the card it represents; switches
    15 and 25). The 9♣/5♣ left in hand keep the turn from finishing."""
    expect(_saudi(variants, hand), lay(*melds), legal, Code.OPENING_BELOW_THRESHOLD)


@pytest.mark.parametrize(
    ("variants", "last", "legal"),
    [
        # 1+2+3+4+5 (15) + 10♠-K♠ (40) = 55; the last accepted opening was 54 -> 55 needed
        ([], 54, True),
        ([], 55, False),
        # beat_last_or_equal: 55 is enough after 55
        (["beat_last_or_equal"], 55, True),
        # the joker at the Ace's place counts 25 under the switch: 25 + 14 + 40 = 79
        (["joker_opening_25"], 78, True),
        (["joker_opening_25"], 79, False),
    ],
)
def test_saudi_low_ace_against_the_escalated_bar(
    variants: list[str], last: int, legal: bool
) -> None:
    """004 Saudi Hand: "the next player needs the last accepted opening + 1" (P8) with the
    Ace-1 rule and the P2/L15 switches. The run is A♥ (or the joker) 2♥-5♥."""
    ace = "JK" if "joker_opening_25" in variants else "AH"
    game = _saudi(
        variants,
        f"{ace} 2H 3H 4H 5H 10S JS QS KS 9C",
        table=[(1, 1, "QD QS QC")],
        openings=[(1, last)],
    )
    expect(game, lay(f"{ace} 2H 3H 4H 5H", "10S JS QS KS"), legal, Code.OPENING_BELOW_THRESHOLD)


# =====================================================================================
# 2. Saudi Partnership (004): inherited low Ace, the team bar, the fire card
# =====================================================================================

SP_OTHERS = [seat("KC 5D 6D 7D 8D"), seat("AS 9H 10D JD"), seat("QD 8S 8D 2C")]


def _sp(variants: Iterable[str], hand: str, **kw: Any) -> hr.Round:
    defaults: dict[str, Any] = {
        "others": SP_OTHERS,
        "me": {"turns_played": 1},
        "discards": "KH",
    }
    defaults.update(kw)
    return spot(rules("saudi_partnership", *variants), hand, **defaults)


@pytest.mark.parametrize(
    ("hand", "melds", "table", "openings", "legal"),
    [
        # nobody opened: the first team needs 51. A-2-3-4 counts 10 (P9 b: the Ace-1 rule
        # is inherited), + 40 = 50
        ("AH 2H 3H 4H 10S JS QS KS 9C 5C", ("AH 2H 3H 4H", "10S JS QS KS"), [], None, False),
        # the other team opened at 55: "at least the first team's opening + 1" = 56.
        # A-2-3-4-5 (15) + 40 = 55 < 56
        (
            "AH 2H 3H 4H 5H 10S JS QS KS 9C",
            ("AH 2H 3H 4H 5H", "10S JS QS KS"),
            [(1, 1, "QD QS QC")],
            [(1, 55)],
            False,
        ),
        # ... Q K A (31, the Ace not in A-2-3) + 40 = 71 >= 56
        (
            "QH KH AH 10S JS QS KS 9C",
            ("QH KH AH", "10S JS QS KS"),
            [(1, 1, "QD QS QC")],
            [(1, 55)],
            True,
        ),
    ],
)
def test_saudi_partnership_low_ace_and_the_team_bar(
    hand: str,
    melds: tuple[str, ...],
    table: list[tuple[int, int, str]],
    openings: list[tuple[int, int]] | None,
    legal: bool,
) -> None:
    """004 §The four variants, Saudi Hand Partnership: "51 for the first team, and at
    least the first team's opening + 1 for the other"; the Saudi Ace-1 rule inherited
    (matrix P9 b default)."""
    game = _sp([], hand, table=table, openings=openings)
    expect(game, lay(*melds), legal, Code.OPENING_BELOW_THRESHOLD)


def _sp_take(variants: Iterable[str], hand: str, top: str) -> hr.Round:
    """Seat 2 (seat 0's partner) has opened with 10♠-K♠ and 9♥ 9♦ 9♠ (67); seat 0 is to
    draw and ``top`` is the fire card."""
    return _sp(
        variants,
        hand,
        table=[(1, 2, "10S JS QS KS"), (2, 2, "9H 9D 9S")],
        openings=[(2, 67)],
        discards=top,
        phase=DRAW,
    )


def test_saudi_partnership_team_opened_fire_card_has_no_obligation() -> None:
    """004 §5: "If you are already opened, you simply continue your turn normally"; P9 a
    default: once one partner has opened, the team has. Seat 0 takes the 5♣ (which fits
    nothing), may end the turn with another card, but "you may not discard it again in
    the same turn" (§2)."""
    game = _sp_take([], "4H 7C KS 2D", "5C")
    ok(game, hr.TakeDiscard())
    taken = game.apply(hr.TakeDiscard())
    ok(taken, discard("KS"))
    refused(taken, discard("5C"), Code.REDISCARD_TAKEN_CARD)


def test_saudi_partnership_team_opened_fire_card_laid_off_on_the_partners_meld() -> None:
    """004 §4: after opening a player may "add to any legal meld on the table"; with the
    team's opening (P9 a) seat 0 takes the 9♣ and lays it off on the partner's 9♥ 9♦
    9♠."""
    game = _sp_take([], "4H 7C KS 2D", "9C")
    taken = game.apply(hr.TakeDiscard())
    ok(taken, off(2, "9C"))


@pytest.mark.parametrize(
    ("hand", "legal"),
    [
        # personal_team_opening (P9 a switch): seat 0 must open personally against the
        # team's bar (51, its team opened first) once it takes the card; 4♥ 7♣ K♠ 2♦ + 5♣
        # make no opening
        ("4H 7C KS 2D", False),
        # J♣ Q♣ K♣ (30) + 7♣ 7♦ 7♥ (21) = 51 with the 5♣? no: 5♣ fits none; the opening
        # need not use it (P4 a default): 51 >= 51 and 4♥ remains to discard
        ("JC QC KC 7C 7D 7H 4H", True),
    ],
)
def test_saudi_partnership_personal_opening_fire_card(hand: str, legal: bool) -> None:
    """004 §5 ("taking the fire card obliges you to make a legal opening in the same
    turn") with the switch personal_team_opening (P9 a): the partner's opening does not
    open seat 0."""
    game = _sp_take(["personal_team_opening"], hand, "5C")
    expect(game, hr.TakeDiscard(), legal, Code.TAKE_DISCARD_NOT_OPENED)


def test_saudi_partnership_earlier_lay_off_spoils_a_later_hand() -> None:
    """004 §The "Hand" finish: a Hand needs "having played nothing in your earlier turns
    of the round". Seat 0's team opened through seat 2 (P9 a), and seat 0 laid off in an
    earlier turn (melded); laying down every card now is an ordinary going out: -30."""
    game = _sp(
        [],
        "2H 3H 4H 2S 3S 4S 2D 3D 4D",
        table=[(1, 2, "10S JS QS KS"), (2, 2, "9H 9D 9S 9C")],
        openings=[(2, 67)],
        me={"turns_played": 2, "melded": True},
    )
    done = play(game, lay("2H 3H 4H"), lay("2S 3S 4S"), lay("2D 3D 4D"))
    assert outcome(done).ending is hr.Ending.WENT_OUT
    assert scores(done)[0] == -30


def test_saudi_partnership_partner_hand_without_earlier_play() -> None:
    """The same position, but seat 0 has laid nothing in earlier turns: by the library's
    documented reading (docs/rules/index.rst, "A partner's Hand after the team has
    opened") the Hand condition is read for the player alone: a Hand, -60."""
    game = _sp(
        [],
        "2H 3H 4H 2S 3S 4S 2D 3D 4D",
        table=[(1, 2, "10S JS QS KS"), (2, 2, "9H 9D 9S 9C")],
        openings=[(2, 67)],
        me={"turns_played": 2, "melded": False},
    )
    done = play(game, lay("2H 3H 4H"), lay("2S 3S 4S"), lay("2D 3D 4D"))
    assert outcome(done).ending is hr.Ending.HAND
    assert scores(done)[0] == -60


# =====================================================================================
# 3. The app: the fire-card obligation with a Hand below the bar
# =====================================================================================


@pytest.mark.parametrize(
    ("variants", "hand", "top", "legal"),
    [
        # 2♥ 3♥ + 4♥ taken: 2♥-4♥, 2♠-4♠, 2♦-4♦ = 27 < 51, every card laid: a Hand (P6 a),
        # which hand_exempt (P6 c switch) lets open below the bar; the take obliges "a legal
        # opening in the same turn" (§5), and this one is legal
        (["hand_exempt"], "2H 3H 2S 3S 4S 2D 3D 4D", "4H", True),
        # without the switch the Hand needs 51: no legal opening, so no take
        ([], "2H 3H 2S 3S 4S 2D 3D 4D", "4H", False),
        # hand_with_final_discard (P6 a switch): the Hand may end by throwing the 9♣
        (["hand_exempt", "hand_with_final_discard"], "2H 3H 2S 3S 4S 2D 3D 4D 9C", "4H", True),
        # but not by throwing the card just taken (§2 "you may not discard it again in the
        # same turn"): the 9♣ taken can only be thrown, so no legal opening follows
        (["hand_exempt", "hand_with_final_discard"], "2H 3H 4H 2S 3S 4S 2D 3D 4D", "9C", False),
    ],
    ids=["exempt-hand", "no-exemption", "final-discard", "final-discard-is-taken-card"],
)
def test_classic_fire_card_taken_for_a_hand_below_the_bar(
    variants: list[str], hand: str, top: str, legal: bool
) -> None:
    """004 §5 "Taking from the fire pile" with §The "Hand" finish and the switches
    hand_exempt and hand_with_final_discard."""
    game = spot(
        rules("classic", *variants),
        hand,
        others=[seat("KC 5D 6D 7D JK")],
        me={"turns_played": 1},
        discards=top,
        phase=DRAW,
    )
    expect(game, hr.TakeDiscard(), legal, Code.TAKE_DISCARD_NOT_OPENED)


def test_classic_fire_card_hand_below_the_bar_scores_a_hand() -> None:
    """The first case played out: the Hand scores -60 and a player who never opened +200
    (004 §The "Hand" finish)."""
    game = spot(
        rules("classic", "hand_exempt"),
        "2H 3H 2S 3S 4S 2D 3D 4D",
        others=[seat("KC 5D 6D 7D JK")],
        me={"turns_played": 1},
        discards="4H",
        phase=DRAW,
    )
    done = play(game, hr.TakeDiscard(), lay("2H 3H 4H", "2S 3S 4S", "2D 3D 4D"))
    assert outcome(done).ending is hr.Ending.HAND
    assert scores(done) == (-60, 200)


HAND_12 = "2H 3H 4H 2S 3S 4S 2D 3D 4D 5C 6C 7C"
HAND_12_MELDS = ("2H 3H 4H", "2S 3S 4S", "2D 3D 4D", "5C 6C 7C")


@pytest.mark.parametrize(
    ("variants", "extra", "legal"),
    [
        # 9 + 9 + 9 + 18 = 45, every card laid: a Hand; the escalated bar is 71
        (["hand_exempt"], "", True),
        ([], "", False),
        # a 9♠ to throw: no Hand under the P6 a default, so the bar applies
        (["hand_exempt"], " 9S", False),
        (["hand_exempt", "hand_with_final_discard"], " 9S", True),
    ],
)
def test_saudi_hand_below_the_escalated_bar(variants: list[str], extra: str, legal: bool) -> None:
    """004 Saudi Hand (the bar is the last opening + 1 = 71) with hand_exempt (P6 c) and
    hand_with_final_discard (P6 a)."""
    game = _saudi(
        variants,
        HAND_12 + extra,
        table=[(1, 1, "10S JS QS KS")],
        openings=[(1, 70)],
    )
    expect(game, lay(*HAND_12_MELDS), legal, Code.OPENING_BELOW_THRESHOLD)
    if legal:
        done = game.apply(lay(*HAND_12_MELDS))
        if extra:
            done = done.apply(discard("9S"))
        assert outcome(done).ending is hr.Ending.HAND
        # -60; seat 1 opened and holds K♣ 5♦ 6♦ 7♦ 8♦ = 36 -> 72
        assert scores(done) == (-60, 72)


# =====================================================================================
# 4. Levant (000): the low-Ace variant with every source of wild cards
# =====================================================================================


def _levant(variants: Iterable[str], hand: str, indicator: str | None = EIGHT_CLUBS, **kw: Any):
    defaults: dict[str, Any] = {"others": [seat("KD 5D 6D 7D 8D")], "me": {"turns_played": 1}}
    defaults.update(kw)
    return spot(rules("levant", *variants), hand, indicator=indicator, **defaults)


@pytest.mark.parametrize(
    ("variants", "indicator", "run", "legal"),
    [
        # Ace indicator: the jokers are wild (000 §Wild cards); the joker stands for the A♥
        # of A-2-3: base 11 + 2 + 3 = 16, + 40 = 56 >= 51
        ([], "AS", "JK 2H 3H", True),
        # low_ace_1 ("an Ace in A 2 3 counts only 1"): a wild counts as the card it stands
        # for (§The first meld): 6 + 40 = 46
        (["low_ace_1"], "AS", "JK 2H 3H", False),
        # Jokers only: the same
        (["jokers_only"], None, "JK 2H 3H", True),
        (["jokers_only", "low_ace_1"], None, "JK 2H 3H", False),
        # 8♣ indicator: the joker is a natural A♣ ("J♣ Q♣ K♣ joker is a sequence of
        # natural cards"), so JK 2♣ 3♣ is a natural low run: 16 + 40 = 56, or 6 + 40
        ([], "8C", "JK 2C 3C", True),
        (["low_ace_1"], "8C", "JK 2C 3C", False),
        # a wild A♣ standing for the A♥ of A-2-3
        ([], "8C", "AC 2H 3H", True),
        (["low_ace_1"], "8C", "AC 2H 3H", False),
        # no_jokers: the wild A♣ likewise
        (["no_jokers", "low_ace_1"], "8C", "AC 2H 3H", False),
        (["no_jokers"], "8C", "AC 2H 3H", True),
    ],
)
def test_levant_low_ace_with_each_wild_source(
    variants: list[str], indicator: str | None, run: str, legal: bool
) -> None:
    """000 §Variants "Ace values" (an Ace in A 2 3 counts 1 for the first meld) with
    §Wild cards (indicator, natural jokers) and the variants "Jokers only" and "Without
    jokers". The opening adds 10♠ J♠ Q♠ K♠ (40); two cards stay in hand."""
    hand = f"{run} 10S JS QS KS 9D 5H" if "5H" not in run else f"{run} 10S JS QS KS 9D 6C"
    game = _levant(variants, hand, indicator)
    expect(game, lay(run, "10S JS QS KS"), legal, Code.OPENING_BELOW_THRESHOLD)


@pytest.mark.parametrize(
    ("variants", "hand", "melds", "legal"),
    [
        # Q K A is no A-2-3: 31 + 10♠ J♠ Q♠ 30 = 61 >= 61
        (["low_ace_1", "opening_61"], "QH KH AH 10S JS QS 9D 5H", ("QH KH AH", "10S JS QS"), True),
        (["low_ace_1", "opening_71"], "QH KH AH 10S JS QS 9D 5H", ("QH KH AH", "10S JS QS"), False),
        # A-5 run: 11 + 14 = 25, + 40 = 65 >= 61; low Ace: 1 + 14 + 40 = 55 < 61
        (
            ["opening_61"],
            "AH 2H 3H 4H 5H 10S JS QS KS 9D 5C",
            ("AH 2H 3H 4H 5H", "10S JS QS KS"),
            True,
        ),
        (
            ["low_ace_1", "opening_61"],
            "AH 2H 3H 4H 5H 10S JS QS KS 9D 5C",
            ("AH 2H 3H 4H 5H", "10S JS QS KS"),
            False,
        ),
    ],
)
def test_levant_low_ace_with_a_higher_minimum(
    variants: list[str], hand: str, melds: tuple[str, ...], legal: bool
) -> None:
    """000 §Variants "Ace values" with "Higher minimum" 61 or 71."""
    expect(_levant(variants, hand), lay(*melds), legal, Code.OPENING_BELOW_THRESHOLD)


# =====================================================================================
# 5. Gulf (003): joker exchanges against the phase order and the length-based limits
# =====================================================================================


def _gulf(variants: Iterable[str], hand: str, table: list[tuple[int, int, str]], **kw: Any):
    defaults: dict[str, Any] = {
        "others": [seat("KS 3D 7D 8D 9D"), 9, 9],
        "me": {"turns_played": 1},
        "discards": "KH",
    }
    defaults.update(kw)
    return spot(rules("gulf", *variants), hand, table=table, **defaults)


TWO_JOKER_TABLE = [(1, 1, "9C JK JK QC"), (2, 0, "JD QD KD"), (3, 1, "5H 6H 7H")]
ONE_JOKER_TABLE = [(1, 1, "9C JK JK QC"), (2, 0, "JD QD KD"), (3, 1, "5S 6S JK")]


@pytest.mark.parametrize("free", [False, True], ids=["phase-order", "free_phase_order"])
@pytest.mark.parametrize(
    ("after", "legal"),
    [
        # an exchange is no lay-off (003 §Turn Flow names MELD and LAY OFF; the exchange is
        # 004's Joker replacement, brought in by the switch): a new meld may follow it
        (lay("4S 5S JK"), True),
        # the freed joker laid off as the 8♥ on 5♥ 6♥ 7♥ (one joker in 4 cards)
        (off(3, "JK", "8H"), True),
        (off(3, "JK", "4H"), True),
        # the 2♦ thrown with the joker kept: no rule makes the freed joker go anywhere
        (discard("2D"), True),
    ],
)
def test_gulf_exchange_then_the_freed_joker(free: bool, after: hr.Action, legal: bool) -> None:
    """Switch joker_exchange (G7, 004 §The Joker: "putting the correct natural card in its
    place"; P5 default: the freed joker goes to the hand) with the MELD-before-LAY-OFF
    order of 003 §Turn Flow (G6) and its switch. The 10♣ frees a joker of 9♣ JK JK Q♣."""
    variants = ["joker_exchange", *(["free_phase_order"] if free else [])]
    game = _gulf(variants, "10C 4S 5S 2D 8S", TWO_JOKER_TABLE).apply(swap(1, "10C"))
    expect(game, after, legal)


@pytest.mark.parametrize("free", [False, True], ids=["phase-order", "free_phase_order"])
def test_gulf_exchange_after_a_lay_off(free: bool) -> None:
    """After the LAY OFF phase has begun (the 4♥ on 5♥ 6♥ 7♥), an exchange is still a
    joker replacement, not a new meld: allowed in either order (G6 only orders melds
    before lay-offs)."""
    variants = ["joker_exchange", *(["free_phase_order"] if free else [])]
    game = _gulf(variants, "10C 4H 5S 2D 8S", TWO_JOKER_TABLE).apply(off(3, "4H"))
    ok(game, swap(1, "10C"))


@pytest.mark.parametrize(
    ("role", "legal"),
    [
        # 003 §Jokers: "maximum 2 jokers in a meld of 4 or more cards": 5♠ 6♠ JK + JK = 4
        # cards, two jokers
        ("8S", True),
        ("4S", True),
    ],
)
def test_gulf_freed_joker_as_second_joker_of_a_three_card_meld(role: str, legal: bool) -> None:
    """The joker freed by the 10♣ goes onto 5♠ 6♠ JK(7♠): four cards with two jokers,
    within 003's limit by length."""
    game = _gulf(["joker_exchange"], "10C 4H 2D 8H", ONE_JOKER_TABLE).apply(swap(1, "10C"))
    expect(game, off(3, "JK", role), legal)


@pytest.mark.parametrize(
    ("variants", "card", "legal", "code"),
    [
        # the 7♠ the joker of 5♠ 6♠ JK stands for
        (["joker_exchange"], "7S", True, None),
        # a card the joker does not stand for
        (["joker_exchange"], "8S", False, Code.EXCHANGE_WRONG_CARDS),
        # no exchange in 003 by default (G7)
        ([], "7S", False, Code.EXCHANGE_NOT_ALLOWED),
    ],
)
def test_gulf_exchange_from_a_three_card_meld(
    variants: list[str], card: str, legal: bool, code: Code | None
) -> None:
    """G7 and its switch: the natural card for the joker's place, and only that."""
    game = _gulf(variants, f"{card} 4H 2D 8H", ONE_JOKER_TABLE)
    expect(game, swap(3, card), legal, code)


@pytest.mark.parametrize(
    ("variants", "legal"),
    [
        # final_discard_required (G4 switch): a Hand melds all but the discard; hand_exempt
        # (G8 switch): a Hand needs no 51. 45 points, the 9♠ thrown: allowed
        (["final_discard_required", "hand_exempt"], True),
        # no_rediscard_taken (G10 switch): the 9♠ was just taken and may not be thrown; no
        # other card can end the turn out, so the below-bar opening has no finish
        (["final_discard_required", "hand_exempt", "no_rediscard_taken"], False),
    ],
)
def test_gulf_hand_with_a_final_discard_that_was_just_taken(
    variants: list[str], legal: bool
) -> None:
    """003 §Hand Bonus and §Turn Flow with the G4, G8 and G10 switches. Seat 0 takes the
    9♠ (003's take is free) and holds 2♥-4♥, 2♠-4♠, 2♦-4♦, 3♣-6♣ and the 9♠."""
    game = _gulf(
        variants,
        "2H 3H 4H 2S 3S 4S 2D 3D 4D 3C 4C 5C 6C",
        [(1, 1, "7H 8H 9H")],
        discards="9S",
        phase=DRAW,
    )
    game = game.apply(hr.TakeDiscard())
    melds = lay("2H 3H 4H", "2S 3S 4S", "2D 3D 4D", "3C 4C 5C 6C")
    # refused for the card it would leave (MUST_KEEP_A_CARD) or for the bar: either names
    # the rule at stake, so no code is asked for
    expect(game, melds, legal)
    if legal:
        done = play(game, melds, discard("9S"))
        assert outcome(done).ending is hr.Ending.HAND


# =====================================================================================
# 6. Rommé (002): round the corner, the Hand Rommé, lower openings, exchanges
# =====================================================================================


def _romme(variants: Iterable[str], hand: str, table: Iterable[Any] = (), **kw: Any):
    defaults: dict[str, Any] = {"others": [seat("KD 6D 7D 8D 9D")], "me": {"turns_played": 1}}
    defaults.update(kw)
    return spot(rules("romme", *variants), hand, table=list(table), **defaults)


OTHER_MELDED = [(1, 1, "QH QD QC")]


@pytest.mark.parametrize(
    ("variants", "run", "table", "legal"),
    [
        # K♠ A♠ 2♠ (R3 default: the wrapped Ace 11: 23) + 3♥ 3♦ 3♣ (9) = 32 < 40; nobody
        # has melded and everything but the 9♣ goes down: a Hand Rommé, "The 40-point
        # minimum does not apply"
        (["round_the_corner"], "KS AS 2S", [], True),
        # another player has melded: no Hand Rommé, the 40 applies
        (["round_the_corner"], "KS AS 2S", OTHER_MELDED, False),
        # "Lower opening" 30: 32 >= 30
        (["round_the_corner", "opening_30"], "KS AS 2S", OTHER_MELDED, True),
        # wrap_ace_1 (R3 switch): 10 + 1 + 2 + 9 = 22 < 30
        (["round_the_corner", "opening_30", "wrap_ace_1"], "KS AS 2S", OTHER_MELDED, False),
        # the joker as the wrapped Ace "is worth the card it replaces": 11 (R3), 1 (switch)
        (["round_the_corner", "opening_30"], "KS JK 2S", OTHER_MELDED, True),
        (["round_the_corner", "opening_30", "wrap_ace_1"], "KS JK 2S", OTHER_MELDED, False),
        # wrap_ace_1 and opening_35: 22 < 35, but with nobody melded a Hand Rommé
        (["round_the_corner", "opening_35", "wrap_ace_1"], "KS AS 2S", [], True),
    ],
)
def test_romme_round_the_corner_with_hand_romme_and_lower_bars(
    variants: list[str], run: str, table: list[Any], legal: bool
) -> None:
    """002 §Variants "Round the corner" and "Lower opening", §Scoring "Hand Rommé",
    matrix R3 (the wrapped Ace's opening value and its switch)."""
    game = _romme(variants, f"{run} 3H 3D 3C 9C", table)
    expect(game, lay(run, "3H 3D 3C"), legal, Code.OPENING_BELOW_THRESHOLD)


def test_romme_round_the_corner_hand_romme_scores() -> None:
    """The first case played out: a Hand Rommé, the winner 0, seat 1's K♦ 6♦ 7♦ 8♦ 9♦ =
    40 doubled (002 §Scoring)."""
    game = _romme(["round_the_corner"], "KS AS 2S 3H 3D 3C 9C")
    done = play(game, lay("KS AS 2S", "3H 3D 3C"), discard("9C"))
    assert outcome(done).ending is hr.Ending.HAND
    assert scores(done) == (0, 80)


def _romme_wrap_table(variants: Iterable[str], hand: str) -> hr.Round:
    """Seat 1 owns K♠ JK 2♠ (1; the joker is the wrapped A♠); seat 0 has opened (2)."""
    return _romme(variants, hand, [(1, 1, "KS JK 2S"), (2, 0, "QH QD QC")])


@pytest.mark.parametrize(
    ("variants", "after", "legal", "code"),
    [
        # 002 §Exchanging a joker: the joker "must be used straight away in a new meld"
        (["round_the_corner"], lay("7H 7D JK"), True, None),
        (["round_the_corner"], discard("4C"), False, Code.FREED_WILD_NOT_USED),
        # R4 default: not laid off on an existing meld (a wild laid off on a set takes no
        # role: it stands for a missing suit, docs/api)
        (["round_the_corner"], off(2, "JK"), False, None),
        (["round_the_corner", "freed_joker_may_lay_off"], off(2, "JK"), True, None),
    ],
)
def test_romme_round_the_corner_exchange_of_the_wrapped_ace(
    variants: list[str], after: hr.Action, legal: bool, code: Code | None
) -> None:
    """002 §Variants "Round the corner" with §Exchanging a joker: the A♠ buys the joker
    that stands for it in K♠ JK 2♠; R4 and its switch decide where the joker may go."""
    game = _romme_wrap_table(variants, "AS 7H 7D 4C")
    ok(game, swap(1, "AS"))
    expect(game.apply(swap(1, "AS")), after, legal, code)


@pytest.mark.parametrize(
    ("variants", "card", "legal"),
    [
        (["round_the_corner", "tournament_jokers"], "AS", True),
        # a card the joker does not stand for
        (["round_the_corner", "tournament_jokers"], "3S", False),
    ],
)
def test_romme_round_the_corner_tournament_jokers_run_exchange(
    variants: list[str], card: str, legal: bool
) -> None:
    """002 §Variants "Tournament jokers" limits only sets ("a joker in a set can only be
    taken once the set is completed to four cards"); a wrapped run gives its joker up
    for the A♠ it stands for."""
    expect(_romme_wrap_table(variants, f"{card} 7H 7D 4C"), swap(1, card), legal)


@pytest.mark.parametrize(
    ("variants", "table", "card", "legal"),
    [
        (["round_the_corner"], "KS AS 2S", "3S", True),
        (["round_the_corner"], "KS AS 2S", "QS", True),
        # the A♠ of A-2-3 takes the K♠ only round the corner
        (["round_the_corner"], "AS 2S 3S", "KS", True),
        ([], "AS 2S 3S", "KS", False),
        # and Q♠ K♠ A♠ takes the 2♠ only round the corner
        ([], "QS KS AS", "2S", False),
        (["round_the_corner"], "QS KS AS", "2S", True),
    ],
)
def test_romme_round_the_corner_lay_offs(
    variants: list[str], table: str, card: str, legal: bool
) -> None:
    """002 §The first meld (lay off single cards to any meld "as long as" it stays a
    meld) with §Melds (no K-A-2) and its variant "Round the corner"."""
    game = _romme(variants, f"{card} 9C 4D", [(1, 1, table), (2, 0, "QH QD QC")])
    expect(game, off(1, card), legal, Code.LAYOFF_BREAKS_MELD)


@pytest.mark.parametrize(
    ("variants", "table", "legal"),
    [
        # nobody has melded: 2♠ 3♠ + 4♠ taken, 2♥ 2♦ 2♣ = 15 < 40, the 9♣ thrown: a Hand
        # Rommé; "Discard pile only for melding": the take is melded at once
        (["discard_only_to_meld"], [], True),
        # another player has melded: the 40 applies and the take cannot be melded
        (["discard_only_to_meld"], OTHER_MELDED, False),
        # the lower opening does not reach 15 either
        (["discard_only_to_meld", "opening_30"], OTHER_MELDED, False),
        # discard_new_meld_only changes nothing for a card that goes into a new meld
        (["discard_only_to_meld", "discard_new_meld_only"], [], True),
    ],
)
def test_romme_discard_only_to_meld_for_a_hand_romme(
    variants: list[str], table: list[Any], legal: bool
) -> None:
    """002 §Variants "Discard pile only for melding" ("you may take the top discard only
    if you meld it immediately") with §Scoring "Hand Rommé"."""
    game = _romme(variants, "2S 3S 2H 2D 2C 9C", table, discards="4S", phase=DRAW)
    expect(game, hr.TakeDiscard(), legal, Code.TAKE_DISCARD_NOT_MELDED)
    if legal:
        done = play(game, hr.TakeDiscard(), lay("2S 3S 4S", "2H 2D 2C"), discard("9C"))
        assert outcome(done).ending is hr.Ending.HAND
        # seat 1: K♦ 6♦ 7♦ 8♦ 9♦ = 40, doubled
        assert scores(done) == (0, 80)


@pytest.mark.parametrize("variants", [["discard_only_to_meld"], []])
def test_romme_empty_stock_ends_the_round_before_a_meldable_discard(variants: list[str]) -> None:
    """002 §Going out: "If the stock runs out before anyone goes out, the round ends:
    everyone scores the cards in their hand"; matrix R7 default: the player who must draw
    from the empty stock may not take the top discard instead. Seat 0 draws the last card
    (8♣) and throws the 7♥, which seat 1 (7♣ 7♦) could meld at once: the round ends all
    the same. Seat 0: K♠ 10 + JK 20 + 5♦ + 8♣ = 43; seat 1: A♥ 11 + 7♣ + 7♦ + JK 20 = 45."""
    game = hr.Round.from_position(
        hr.Position(
            rules("romme", *variants),
            players=[seat("KS JK 5D 7H"), seat("AH 7C 7D JK")],
            turn=0,
            phase=DRAW,
            discards="9S",
            discard_size=93,
            stock="8C",
            stock_size=1,
            table=[hr.PositionMeld(1, 0, "QH QD QC"), hr.PositionMeld(2, 1, "JH JD JC")],
        )
    )
    done = play(game, hr.DrawStock(), discard("7H"))
    assert outcome(done).ending is hr.Ending.STOCK
    assert scores(done) == (43, 45)


# =====================================================================================
# 7. Levant: the taken discard on the table, the set of two and a wild, announcements
# =====================================================================================

TWO_PLUS_WILD = [(1, 1, "5S 5D AC"), (2, 0, "JD QD KD")]


@pytest.mark.parametrize(
    ("variants", "hand", "me", "others", "legal"),
    [
        # the 5♥ laid off on 5♠ 5♦ A♣ leaves 9♠ 7♥ K♠: one thrown, two held: neither out nor
        # "one card": the lay-off is barred, and no other use of the 5♥ exists
        (["discard_to_table"], "9S 7H KS", {}, None, False),
        # two held: one thrown, "one card" announced after this turn
        (["discard_to_table"], "9S 7H", {}, None, True),
        # someone "has already announced one card"
        (["discard_to_table"], "9S 7H KS", {}, [seat("KD", announced=1)], True),
        # forgot the last announcement: no going out, but "one card" is still possible
        (["discard_to_table"], "9S 7H", {"missed": True}, None, True),
        # one held: going out is the only way, and it is barred after a forgotten call
        (["discard_to_table"], "9S", {}, None, True),
        (["discard_to_table"], "9S", {"missed": True}, None, False),
        # without the table variant the taken card must start a new meld with two hand cards
        ([], "9S 7H", {}, None, False),
    ],
    ids=["three-left", "two-left", "announced", "missed-two", "out", "missed-out", "base"],
)
def test_levant_taken_card_on_a_set_of_two_and_a_wild(
    variants: list[str],
    hand: str,
    me: dict[str, Any],
    others: list[Any] | None,
    legal: bool,
) -> None:
    """000 §Variants "Taking the discard" (001 "auch": the taken card may also be laid off)
    with §Exchanging wild cards (one missing card on a set of two and a wild "only if you
    go out this turn, or if someone has already announced 'one card' (or you will
    announce it after this turn)") and §Playing a turn "Announce" (a player who forgot
    "may not go out on your next turn"). Seat 0 has opened (J♦ Q♦ K♦); the 5♥ is on the
    pile."""
    game = _levant(
        variants,
        hand,
        table=TWO_PLUS_WILD,
        discards="5H",
        phase=DRAW,
        me={"turns_played": 1, **me},
        **({"others": others} if others else {"others": [seat("KD 6D 7D 8D 9D")]}),
    )
    expect(game, hr.TakeDiscard(), legal, Code.TAKE_DISCARD_NOT_MELDED)
    if legal:
        ok(game.apply(hr.TakeDiscard()), off(1, "5H"))


@pytest.mark.parametrize(
    ("variants", "legal", "expected"),
    [
        # 2♥-4♥ + 2♠-4♠ = 18 < 51: the exception ("if you can get rid of all your cards in
        # one turn") lets it open; the 5♣ then goes onto 5♠ 5♦ A♣ (allowed: "you go out this
        # turn"), the 9♦ is thrown. Not a Hand (it added to another player's meld): -30;
        # seat 1 (K♦ 6♦ 7♦ 8♦ 9♦ = 40)
        ([], True, (-30, 40)),
        (["opening_71"], True, (-30, 40)),
        (["beat_last_opening"], True, (-30, 40)),
        # exemption_hand_only (L11 switch): the finish adds to another player's meld, so it
        # is no Hand and may not go below the bar
        (["exemption_hand_only"], False, None),
    ],
)
def test_levant_below_bar_finish_through_a_set_of_two_and_a_wild(
    variants: list[str], legal: bool, expected: tuple[int, int] | None
) -> None:
    """000 §The first meld "Exception" with §Exchanging wild cards (the set of two and a
    wild) and §Variants "Higher minimum"; two promises meet: going out (below the bar)
    and going out (for the single missing card)."""
    game = _levant(
        variants,
        "2H 3H 4H 2S 3S 4S 5C 9D",
        table=[(1, 1, "5S 5D AC")],
        others=[seat("KD 6D 7D 8D 9D")],
    )
    opening = lay("2H 3H 4H", "2S 3S 4S")
    expect(game, opening, legal, Code.OPENING_BELOW_THRESHOLD)
    if legal:
        after = game.apply(opening)
        ok(after, off(1, "5C"))
        after = after.apply(off(1, "5C"))
        # the promise to go out still binds: a discard must be the last card
        done = after.apply(discard("9D"))
        assert outcome(done).ending is hr.Ending.WENT_OUT
        assert scores(done) == expected


@pytest.mark.parametrize(
    ("hand", "legal"),
    [
        # after 10♠-K♠ + 5♠ 5♦ A♣ (40 + 15 = 55) the 5♥ on the own set leaves 9♦ 7♣ 2♥:
        # neither out nor one card
        ("JS QS KS 10S 5S 5D AC 5H 9D 7C 2H", False),
        # leaves 9♦ 7♣: one thrown, one held
        ("JS QS KS 10S 5S 5D AC 5H 9D 7C", True),
    ],
)
def test_levant_own_set_of_two_and_a_wild_laid_in_the_opening(hand: str, legal: bool) -> None:
    """000 §Exchanging wild cards: "A group of two cards and a wild card normally only
    changes when both missing cards arrive" applies to the player's own new set too."""
    game = _levant([], hand).apply(lay("10S JS QS KS", "5S 5D AC"))
    expect(game, off(2, "5H"), legal, Code.LAYOFF_TWO_PLUS_WILD)


# =====================================================================================
# 8. Levant: the Egyptian colour bonus with natural jokers and wild Aces
# =====================================================================================


@pytest.mark.parametrize(
    ("third", "last", "factor"),
    [
        # 8♣ indicator: the joker is a natural A♣ (black): the melds are not one colour;
        # a Hand only: x2
        ("JK", "5S", 2),
        # the wild A♣ has no colour (L12 c): the melds are red: x2 x2
        ("AC", "5S", 4),
        # a black natural joker, but the last discard is the wild A♣: x2 x2
        ("JK", "AC", 4),
        # the A♠ is black; the wild discard doubles: x4
        ("AS", "AC", 4),
        # red melds with the wild A♣; the discard is a natural joker (no wild): x4
        ("AC", "JK", 4),
    ],
)
def test_levant_egyptian_colour_with_natural_jokers_and_wild_aces(
    third: str, last: str, factor: int
) -> None:
    """000 §Variants "Egyptian bonuses" ("a hand ending with a wild card as the discard
    counts double again ... so does a hand of one colour"; 001: red or black) with
    §Wild cards (under the 8♣ the jokers are natural A♣, the A♣ are wild). Seat 0 lays
    9♥-K♥, 2♦ 3♦ 4♦, A♥ A♦ + third, 6♦ 7♦ 8♦ (14 cards) and throws the 15th. Seat 1
    never melded: 100."""
    game = _levant(
        ["egyptian_bonuses"],
        f"9H 10H JH QH KH 2D 3D 4D AH AD {third} 6D 7D 8D {last}",
        others=[seat("KD 6S 7S 8S 9S")],
    )
    melds = lay("9H 10H JH QH KH", "2D 3D 4D", f"AH AD {third}", "6D 7D 8D")
    done = play(game, melds, discard(last))
    assert outcome(done).ending is hr.Ending.HAND
    assert scores(done) == (-30 * factor, 100 * factor)


# =====================================================================================
# 9. Partnerships: a finish that adds to the partner's meld is no Hand
# =====================================================================================

PARTNER_HAND = "2H 3H 4H 5H 2S 3S 4S 2D 3D 4D 4C 5C 6C 7C KS"
PARTNER_MELDS = ("2H 3H 4H 5H", "2S 3S 4S", "2D 3D 4D", "4C 5C 6C 7C")


@pytest.mark.parametrize(
    ("variants", "expected", "teams"),
    [
        # 004 P7 default: per player, summed. Seat 0 -30 (the K♠ went onto the partner's
        # 10♠ J♠ Q♠: "without adding to anyone else's melds" fails: no Hand). Seat 1
        # opened (meld 2): K♣ 5♦ 6♦ 7♦ JK = 10+5+6+7+15 = 43; seat 2 opened: A♠ 9♥ = 20;
        # seat 3 never opened: 100
        ([], (-30, 43, 20, 100), (-10, 143)),
        # winner_team_scoring: the winner's team scores -30 alone
        (["winner_team_scoring"], (-30, 43, 0, 100), (-30, 143)),
    ],
)
def test_partnership_finish_on_the_partners_meld_is_no_hand(
    variants: list[str], expected: tuple[int, ...], teams: tuple[int, int]
) -> None:
    """004 §The "Hand" finish ("without adding to anyone else's melds": a partner is
    someone else) with the partnership scoring (P7 and its switch). 14 + 9 + 9 + 22 = 54
    >= 51."""
    game = spot(
        rules("partnership", *variants),
        PARTNER_HAND,
        others=[seat("KC 5D 6D 7D JK"), seat("AS 9H"), seat("QD 8S 8D")],
        table=[(1, 2, "10S JS QS"), (2, 1, "9D 10D JD")],
        openings=[(2, 51), (1, 60)],
        me={"turns_played": 1},
        discards="KH",
    )
    done = play(game, lay(*PARTNER_MELDS), off(1, "KS"))
    assert outcome(done).ending is hr.Ending.WENT_OUT
    assert scores(done) == expected
    assert tuple(outcome(done).score.team_scores or ()) == teams


def test_levant_partnership_finish_on_the_partners_meld_is_no_hand() -> None:
    """000 §End of a round: a Hand lays down all 14 cards "without adding any to other
    players' melds"; §Variants "Partnership Hand": the winner's team -30 (not -60), the
    other team adds both players' penalties. Seat 0 lays 2♥-5♥, 2♠-4♠, 2♦-4♦, 4♣-6♣ (14 +
    9 + 9 + 15 = 47 < 51: §The first meld "Exception", any one-turn finish, L11 default),
    lays the K♠ off on the partner's 10♠ J♠ Q♠ and throws the 7♣."""
    game = spot(
        rules("levant", "partnership"),
        "2H 3H 4H 5H 2S 3S 4S 2D 3D 4D 4C 5C 6C 7C KS",
        indicator=EIGHT_CLUBS,
        others=[seat("KC 5D 6D 7D"), seat("AS 9H KH"), seat("QD 8S 8D")],
        table=[(1, 2, "10S JS QS"), (2, 1, "9D 10D JD")],
        me={"turns_played": 1},
    )
    # lay 13 of the 15 cards plus the K♠ on the partner's meld, throw the 7♣
    melds = lay("2H 3H 4H 5H", "2S 3S 4S", "2D 3D 4D", "4C 5C 6C")
    done = play(game, melds, off(1, "KS"), discard("7C"))
    assert outcome(done).ending is hr.Ending.WENT_OUT
    # team (0, 2): -30; team (1, 3): seat 1 opened: K♣ 5♦ 6♦ 7♦ = 28; seat 3 never: 100
    assert tuple(outcome(done).score.team_scores or ()) == (-30, 128)


# =====================================================================================
# 10. Stock sizes of the compositions
# =====================================================================================


@pytest.mark.parametrize(
    ("preset", "variants", "players", "stock"),
    [
        # 000 §Setup: 106 - (14n + 1) - 1 (the indicator)
        ("levant", [], 4, 48),
        # "Jokers only": no indicator: 106 - 57 = 49
        ("levant", ["jokers_only"], 4, 49),
        ("levant", ["jokers_only", "partnership"], 4, 49),
        # "Without jokers": 104 - 57 - 1 = 46; 104 - 29 - 1 = 74; 104 - 43 - 1 = 60
        ("levant", ["no_jokers"], 4, 46),
        ("levant", ["no_jokers"], 2, 74),
        ("levant", ["no_jokers"], 3, 60),
        ("levant", ["no_jokers", "ace_indicator_turn_again"], 4, 46),
        # 003: 108 - 52 = 56, less the upcard: 55
        ("gulf", [], 4, 55),
        # 004: 106 - 57 = 49
        ("saudi_partnership", [], 4, 49),
        # 002: 108 - (13 x 6 + 1) = 29
        ("romme", ["round_the_corner"], 6, 29),
    ],
)
def test_stock_after_the_deal(preset: str, variants: list[str], players: int, stock: int) -> None:
    """The deal of each rule document with the deck variants (matrix §2.1 "Deal size")."""
    game = hr.Round.deal(rules(preset, *variants), players=players, seed=5)
    assert len(game.stock) == stock


# =====================================================================================
# 11. Matches: stock endings, dealers and the Saudi bar from round to round
# =====================================================================================


def _run_out(match: hr.Match) -> hr.Match:
    """Dull turns (draw and throw the card drawn) until the round in play ends."""
    rounds = len(match.rounds)
    while len(match.rounds) == rounds:
        current = match.current
        assert current is not None
        if current.phase is hr.Phase.REDEAL:
            match = match.apply(hr.PassRedeal())
        elif current.phase is PLAY:  # the starter's bare first turn
            match = match.apply(hr.Discard(current.hand(current.turn)[0]))
        else:
            drawn = current.stock[-1]
            match = match.apply(hr.DrawStock())
            if len(match.rounds) == rounds and match.current is not None:
                match = match.apply(hr.Discard(drawn))
    return match


def test_levant_partnership_rotating_deal_after_an_unscored_round() -> None:
    """000 §End of a round: when the stock after a turn holds only as many cards as there
    are players (4) "the round ends without a score, and the same dealer deals again";
    "Rotating deal" moves the deal only "after each scored round"; §Winning the game:
    rounds without a score don't count."""
    match = hr.Match.new(rules("levant", "partnership", "rotating_deal"), 4, seed=1, dealer=0)
    match = _run_out(match)
    first = match.rounds[0]
    assert first.outcome is not None and first.outcome.ending is hr.Ending.STOCK
    assert len(first.stock) == 4
    assert not first.outcome.score.scored
    assert match.current is not None and match.current.dealer == 0
    assert match.team_totals == (0, 0) and not match.scored_rounds


def test_saudi_partnership_no_contest_counts_as_a_round() -> None:
    """004 §Quick questions: the draw pile is renewed "up to 3 times"; then "it is a
    no-contest and every score is zero"; the library's documented reading (docs/rules,
    "A no-contest round in the app's fixed-length matches") counts it among the rounds."""
    match = hr.Match.new(rules("saudi_partnership", "rounds_3"), 4, seed=1, dealer=0)
    match = _run_out(match)
    first = match.rounds[0]
    assert first.outcome is not None and first.outcome.ending is hr.Ending.STOCK
    assert tuple(first.outcome.score.scores) == (0, 0, 0, 0)
    assert match.round_number == 2 and match.team_totals == (0, 0)


def test_saudi_bar_returns_to_51_in_the_next_round() -> None:
    """004 Saudi Hand: "the bar returns to 51 each round". Round 1 (dealer 0, seat 1
    starts): seat 0 opens with 102 and goes out (-30; seat 1 never opened: +100). Round 2
    (the deal passes: dealer 1, seat 0 starts with 15 cards): seat 1 opens with 10♠ J♠
    Q♠ + 9♥ 9♦ 9♣ = 57, above 51 though far below 103."""
    ruleset = rules("saudi", "rounds_3")
    d1 = hr.fill_deal(
        ruleset, 2, hands={0: "10S JS QS KS 9H 9D 9C 2C 3C 4C 5D 6D 7D 8D"}, stock=[c("KH")]
    )
    d2 = hr.fill_deal(
        ruleset,
        2,
        hands={1: "10S JS QS 9H 9D 9C 2H 5C 8S 7H KD 4S 3D 6C"},
        stock=[c("QH")],
        dealer=1,
    )
    match = hr.Match.new(ruleset, 2, seed=0, dealer=0, deals=[d1, d2])
    assert match.current is not None
    match = match.apply(hr.Discard(match.current.hand(1)[0]))
    match = match.apply(hr.DrawStock())
    match = match.apply(lay("10S JS QS KS", "9H 9D 9C", "2C 3C 4C", "5D 6D 7D 8D"))
    match = match.apply(discard("KH"))
    assert match.rounds[0].outcome is not None
    assert tuple(match.rounds[0].outcome.score.scores) == (-30, 100)
    assert match.current is not None and match.current.dealer == 1
    match = match.apply(hr.Discard(match.current.hand(0)[0]))
    match = match.apply(hr.DrawStock())
    assert match.current is not None
    ok(match.current, lay("10S JS QS", "9H 9D 9C"))


# =====================================================================================
# 12. Redeal claims under the joker variants; beat-the-last with partners
# =====================================================================================


@pytest.mark.parametrize(
    ("variants", "indicator", "hand", "claim"),
    [
        # "Jokers only": three natural pairs and two jokers: "three such pairs and a wild
        # card" (L6 b default: two identical wilds are two wild cards)
        (["jokers_only"], None, "2S 2S 5H 5H 9D 9D JK JK 6D 7S 10C JH 4D KC", True),
        # redeal_wild_pairs: the two jokers are a fourth pair: "four pairs"
        (
            ["jokers_only", "redeal_wild_pairs"],
            None,
            "2S 2S 5H 5H 9D 9D JK JK 6D 7S 10C JH 4D KC",
            True,
        ),
        # "Without jokers", 8♣: one pair, one wild A♣: weak in no way
        (["no_jokers"], "8C", "2S 2S 5H 6H 9D 10D AC 3H 6D 7S 10C JH 4D KC", False),
        # three natural pairs and both wild A♣, with the switch: four pairs
        (
            ["no_jokers", "redeal_wild_pairs"],
            "8C",
            "2S 2S 5H 5H 9D 9D AC AC 6D 7S 10C JH 4D KC",
            True,
        ),
    ],
)
def test_levant_redeal_claims_under_the_joker_variants(
    variants: list[str], indicator: str | None, hand: str, claim: bool
) -> None:
    """000 §Setup 4 (four pairs, three pairs and a wild, two pairs and two wilds) with the
    variants "Jokers only" / "Without jokers" and the L6 b switch."""
    ruleset = hr.build("levant", variants)
    game = make_deal(ruleset, [hand, None], indicator=indicator).round(ruleset, 0, 0)
    game = game.apply(hr.PassRedeal())  # the starter (seat 1) keeps the deal
    assert game.phase is hr.Phase.REDEAL and game.turn == 0
    assert (hr.ClaimRedeal() in game.legal_actions()) is claim
    assert game.check(hr.ClaimRedeal()).ok is claim


@pytest.mark.parametrize(
    ("variants", "last", "legal"),
    [
        # "each player's first meld must beat the last one made": the partner's 66 is the
        # last one; 10♠-K♠ (40) + 9♥ 9♦ 9♣ (27) = 67 > 66
        (["partnership", "beat_last_opening"], 66, True),
        (["partnership", "beat_last_opening"], 67, False),
        (["partnership", "beat_last_opening", "beat_last_or_equal"], 67, True),
    ],
)
def test_levant_partnership_beat_the_last_counts_the_partners_opening(
    variants: list[str], last: int, legal: bool
) -> None:
    """000 §Variants "Higher minimum" (beat the last one made; L15: strictly) with
    "Partnership Hand": the opening stays personal (each player's first meld), and the
    partner's opening is a first meld made like any other."""
    game = spot(
        rules("levant", *variants),
        "10S JS QS KS 9H 9D 9C 5D 7C 2H",
        indicator=EIGHT_CLUBS,
        others=[seat("KD 5H 6D"), seat("2C 3C"), seat("4D 4H")],
        table=[(1, 2, "QS QD QH")],
        me={"turns_played": 1},
        openings=[(2, last)],
    )
    expect(game, lay("10S JS QS KS", "9H 9D 9C"), legal, Code.OPENING_BELOW_THRESHOLD)
