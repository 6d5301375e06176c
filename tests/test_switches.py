"""Ambiguity switches added after the first round of tests (RULES-MATRIX §3)."""

from __future__ import annotations

import pytest

import hand_rummy as hr
from case_positions import seat, spot
from hand_rummy.referee import answer
from hand_rummy.rules import OpeningRecord, standalone


def test_beat_last_no_base_lets_the_first_opening_be_small() -> None:
    """RULES-MATRIX L15 (alternative): beat-the-last with no base minimum."""
    default = hr.build("levant", ["beat_last_opening"]).opening
    switched = hr.build("levant", ["beat_last_opening", "beat_last_no_base"]).opening
    assert default.required(0, 0, ()) == 51
    assert switched.required(0, 0, ()) == 1
    # after an opening of 60 the next one must beat it either way: 60 + 1
    assert switched.required(1, 1, (OpeningRecord(0, 0, 60),)) == 61


def test_beat_last_next_seat_with_no_base_leaves_the_others_no_minimum() -> None:
    """P8 (alternative): only the next seat must beat the last opening, anyone else needs the
    base; L15 (alternative): there is no base. Together: after seat 0 opens with 80 in Saudi
    Hand, seat 1 needs 81 and seats 2 and 3 any meld at all."""
    both = hr.build("saudi", ["beat_last_no_base", "beat_last_next_seat"]).opening
    last = (OpeningRecord(0, 0, 80),)
    assert [both.required(s, s, last, 4) for s in (1, 2, 3)] == [81, 1, 1]
    # with the base kept, the others need Saudi Hand's 51
    alone = hr.build("saudi", ["beat_last_next_seat"]).opening
    assert [alone.required(s, s, last, 4) for s in (1, 2, 3)] == [81, 51, 51]


def test_ace_indicator_turn_again_never_leaves_an_ace_as_indicator() -> None:
    """RULES-MATRIX L13 (alternative): without jokers, an Ace indicator is put back."""
    ruleset = hr.build("levant", ["no_jokers", "ace_indicator_turn_again"])
    with pytest.raises(hr.InvalidStateError):
        hr.MeldRules.of(ruleset, "AS")
    for seed in range(60):
        indicator = hr.Round.deal(ruleset, players=4, seed=seed).indicator
        assert indicator is not None and indicator.rank is not hr.Rank.ACE
    # the default reading keeps an Ace indicator: its suit's two Aces are wild
    wilds = hr.MeldRules.of(hr.build("levant", ["no_jokers"]), "AS").wilds
    assert wilds.wild == frozenset({hr.parse_card("AS")})


def _partner_hand(variants: list[str]) -> int:
    reply = answer(
        {
            "rules": "saudi_partnership",
            "variants": variants,
            "ask": "round_score",
            "went_out": 0,
            "players": [
                {"hand": [], "opened": True},
                {"hand": ["9D"], "opened": True},
                {"hand": ["KS", "QS"], "opened": False},
                {"hand": ["3C"], "opened": False},
            ],
        }
    )
    return int(reply["scores"][2])


def test_partner_of_an_opener_scores_cards_by_default() -> None:
    """RULES-MATRIX P9 c: the team has opened, so the partner scores K + Q = 20."""
    assert _partner_hand([]) == 20


def test_partner_pays_never_opened_switch() -> None:
    """RULES-MATRIX P9 c (alternative): a partner who never laid down pays the flat 100."""
    assert _partner_hand(["partner_pays_never_opened"]) == 100


def test_wild_role_best_value_takes_the_richer_reading() -> None:
    """RULES-MATRIX L3 (alternative): an undeclared wild takes the reading worth most.

    6♥ 5♥ A♣ under the 8♣ is not in written order, so the wild could be the 4♥
    (4 + 5 + 6 = 15) or the 7♥ (5 + 6 + 7 = 18).
    """
    meld = hr.Meld.of("6H 5H AC")
    asked = hr.judge_meld(meld, hr.MeldRules.of(hr.rulesets.levant, "8C"))
    assert asked.verdict.codes == (hr.Code.WILD_ROLE_AMBIGUOUS,)
    best = hr.judge_meld(meld, hr.MeldRules.of(hr.build("levant", ["wild_role_best_value"]), "8C"))
    assert best.ok and best.points == 18


@pytest.mark.parametrize(
    ("written", "default", "best"),
    [
        # L3's own figures: W 5♥ 6♥ is 4-5-6 (15) as written, 5-6-7 (18) at best
        ("AC 5H 6H", 15, 18),
        # and W Q♥ K♥ is J-Q-K (30) as written, Q-K-A (31) at best
        ("AC QH KH", 30, 31),
        ("QH KH AC", 31, 31),
    ],
)
def test_wild_role_best_value_is_the_engine_s_choice_whatever_the_order(
    written: str, default: int, best: int
) -> None:
    """RULES-MATRIX L3: by default a wild stands for the card at its written place; the
    alternative lets the engine choose the reading worth most, so the order no longer
    declares anything."""
    meld = hr.Meld.of(written)
    declared = hr.judge_meld(meld, hr.MeldRules.of(hr.rulesets.levant, "8C"))
    chosen = hr.judge_meld(
        meld, hr.MeldRules.of(hr.build("levant", ["wild_role_best_value"]), "8C")
    )
    assert (declared.points, chosen.points) == (default, best)


def test_beat_last_switches_keep_the_saudi_partnership_team_opening() -> None:
    """RULES-MATRIX L15 composed with P9: the switches change how the other team must beat
    the first team's opening (strictly, or equal is enough; 51 or no minimum first), and
    the opening still belongs to the team (P9 a: an opened partner needs no opening)."""
    first = (OpeningRecord(0, 0, 60),)
    default = hr.build("saudi_partnership").opening
    assert default.required(2, 0, first) is None  # the partner of the opener
    assert default.required(1, 1, first) == 61

    equal = hr.build("saudi_partnership", ["beat_last_or_equal"]).opening
    assert equal.required(2, 0, first) is None
    assert equal.required(1, 1, first) == 60
    assert equal.required(1, 1, ()) == 51

    no_base = hr.build("saudi_partnership", ["beat_last_no_base"]).opening
    assert no_base.required(1, 1, ()) == 1
    assert no_base.required(2, 0, (OpeningRecord(0, 0, 20),)) is None
    assert no_base.required(1, 1, (OpeningRecord(0, 0, 20),)) == 21

    both = hr.build("saudi_partnership", ["beat_last_no_base", "personal_team_opening"])
    # P9 alternative: the partner opens personally, against the team's bar, which for the
    # first team is the base (here no minimum), not what the partner opened with
    assert both.opening.required(2, 0, (OpeningRecord(0, 0, 20),)) == 1
    assert both.opening.required(1, 1, (OpeningRecord(0, 0, 20),)) == 21
    assert both.opening.required(1, 1, ()) == 1
    assert "no minimum" in both.opening.describe()


def test_personal_team_opening_keeps_the_first_team_s_bar() -> None:
    """004 §The four variants: "51 for the first team, and at least the first team's
    opening + 1 for the other", with each player opening personally (RULES-MATRIX P9 a,
    alternative). Seat 0 opened 60 first, then seat 1 of the other team 69: seat 0's
    partner still needs 51, and seat 1's partner 61 (the first team's 60 + 1), not 70."""
    personal = hr.build("saudi_partnership", ["personal_team_opening"]).opening
    openings = (OpeningRecord(0, 0, 60), OpeningRecord(1, 1, 69))
    assert personal.required(2, 0, openings[:1]) == 51
    assert personal.required(2, 0, openings) == 51
    assert personal.required(3, 1, openings) == 61
    assert personal.required(1, 1, openings[:1]) == 61


def test_a_list_of_variants_means_one_ruleset_in_any_order() -> None:
    """Variants compose: every two variants of a preset give the same ruleset in either
    order, or are refused together in either order: as alternatives (two opening bars, two
    match lengths, jokers and no jokers...), or as a switch that the other variant leaves
    nothing to change. A switch that refines another variant's rule comes with that variant
    (``standalone``)."""
    idle = []
    for preset in hr.PRESETS:
        names = [v.name for v in hr.variants_for(preset)]
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                chosen = list(
                    dict.fromkeys((*standalone(preset, first), *standalone(preset, second)))
                )
                try:
                    one = hr.build(preset, chosen)
                except hr.UnknownRulesError as refusal:
                    reason = "choose one" if "choose one" in str(refusal) else "leave it out"
                    assert reason in str(refusal), refusal
                    with pytest.raises(hr.UnknownRulesError, match=reason):
                        hr.build(preset, chosen[::-1])
                    if reason == "leave it out":
                        idle.append((preset, first, second))
                    continue
                assert hr.build(preset, chosen[::-1]) == one, (preset, first, second)
    # L4 needs jokers that are not wild, which 000's jokers_only and no_jokers take away (the
    # Ace indicator switches come with no_jokers); R8 a limit, which everyone_deals replaces
    assert sorted(idle) == [
        ("levant", "joker_demotion_always", "ace_indicator_no_wilds"),
        ("levant", "joker_demotion_always", "ace_indicator_turn_again"),
        ("levant", "jokers_only", "joker_demotion_always"),
        ("levant", "no_jokers", "joker_demotion_always"),
        ("romme", "everyone_deals", "limit_reached"),
    ]


@pytest.mark.parametrize(
    ("preset", "switch", "rule"),
    [
        ("levant", "beat_last_or_equal", "beat_last_opening"),
        ("levant", "beat_last_no_base", "beat_last_opening"),
        ("levant", "egyptian_suit_x16", "egyptian_bonuses"),
        ("levant", "ace_indicator_no_wilds", "no_jokers"),
        ("levant", "ace_indicator_turn_again", "no_jokers"),
        ("romme", "wrap_ace_1", "round_the_corner"),
        ("romme", "discard_new_meld_only", "discard_only_to_meld"),
        ("romme", "discard_pays_for_joker", "discard_only_to_meld"),
        ("levant", "discard_pays_for_wild", "discard_to_table"),
        ("levant", "worst_team_deals", "partnership"),
    ],
)
def test_a_switch_without_the_rule_it_refines_is_refused(
    preset: str, switch: str, rule: str
) -> None:
    """RULES-MATRIX L12, L13, L15, R3, R9: each of these switches reads a rule that only a
    variant brings (the Ace of a turning-the-corner run, say); alone it would change
    nothing, so it is refused with the variant to add, and taken with it."""
    with pytest.raises(hr.UnknownRulesError, match=f"refines .* add '{rule}'"):
        hr.build(preset, [switch])
    assert standalone(preset, switch) == (rule, switch)
    assert hr.build(preset, [switch, rule]).variants == (rule, switch)


def test_variants_that_refine_a_rule_compose_with_the_rule() -> None:
    """000 §Variants lists a higher first-meld minimum and beat-the-last; together the
    first opening of a round needs the higher minimum and each later one must beat the
    last (RULES-MATRIX L15 says how: strictly, or with the switch an equal value)."""
    for order in (["opening_71", "beat_last_opening"], ["beat_last_opening", "opening_71"]):
        opening = hr.build("levant", order).opening
        assert opening.required(0, 0, ()) == 71
        assert opening.required(1, 1, (OpeningRecord(0, 0, 80),)) == 81
    equal = hr.build("levant", ["beat_last_or_equal", "opening_91", "beat_last_opening"]).opening
    assert equal.required(0, 0, ()) == 91
    assert equal.required(1, 1, (OpeningRecord(0, 0, 95),)) == 95
    # 000 §Variants (Egyptian) and its switch L12 b, in either order
    for order in (
        ["egyptian_suit_x16", "egyptian_bonuses"],
        ["egyptian_bonuses", "egyptian_suit_x16"],
    ):
        egyptian = hr.build("levant", order).scoring.egyptian
        assert egyptian is not None and egyptian.suit_also_colour
    # 000 §Variants (no jokers) and L13's reading of an Ace indicator without jokers
    for order in (["ace_indicator_no_wilds", "no_jokers"], ["no_jokers", "ace_indicator_no_wilds"]):
        assert hr.build("levant", order).wilds.ace_indicator is hr.rules.AceIndicator.NO_WILDS


def test_alternatives_are_refused_together() -> None:
    with pytest.raises(hr.UnknownRulesError, match="'opening_61' and 'opening_71' both decide"):
        hr.build("levant", ["opening_61", "opening_71"])
    with pytest.raises(hr.UnknownRulesError, match="match length"):
        hr.build("classic", ["rounds_3", "rounds_9"])
    with pytest.raises(hr.UnknownRulesError, match="opening bar"):
        hr.build("levant", ["beat_last_opening", "beat_last_no_base", "opening_61"])


def _eight_of_hearts_on_the_pile(variants: list[str], top: str = "8H") -> hr.Round:
    """Rommé, both players out (come out): seat 1's 7♥ JK 9♥ holds the joker as the 8♥,
    which seat 1 has just thrown. Seat 0 holds 3♠ 4♠ K♦ 2♣ 9♣: no meld takes the 8♥
    (its place in the run is the joker's, and 6♥ or 10♥ would be its next card)."""
    return hr.Round.from_position(
        hr.Position(
            hr.build("romme", variants),
            players=[
                hr.PositionSeat("3S 4S KD 2C 9C", opened=True, melded=True),
                hr.PositionSeat(hand_size=8, opened=True, melded=True),
            ],
            turn=0,
            phase=hr.Phase.DRAW,
            table=[
                hr.PositionMeld(1, 0, hr.Meld.of("QC QD QH QS")),
                hr.PositionMeld(2, 1, hr.Meld.of("7H JK 9H", roles={1: "8H"})),
            ],
            discards=top,
        )
    )


def test_discard_only_to_meld_does_not_count_paying_for_a_joker() -> None:
    """002 §Variants, "Discard pile only for melding": the taken card must be melded at
    once. By default (docs/rules, questions left open) putting it into a meld in exchange
    for the joker there does not count, so a hand that can do nothing else may not take
    it."""
    g = _eight_of_hearts_on_the_pile(["discard_only_to_meld"])
    assert hr.Code.TAKE_DISCARD_NOT_MELDED in g.check(hr.TakeDiscard()).codes
    assert hr.TakeDiscard() not in g.legal_actions()


def test_discard_pays_for_joker_lets_the_taken_card_buy_the_joker() -> None:
    """The switch reads 002 §Playing a turn, whose "Meld" step names exchanging jokers: the
    8♥ taken may pay for the joker of 7♥ JK 9♥, which meets the duty to meld it. Until it
    does, nothing else is legal (the card is owed to a meld, so no discard and no other
    exchange); then the freed joker must start a new meld at once (002 §Exchanging a
    joker), here with 3♠ 4♠."""
    g = _eight_of_hearts_on_the_pile(["discard_only_to_meld", "discard_pays_for_joker"])
    assert g.check(hr.TakeDiscard()).ok
    g = g.apply(hr.TakeDiscard())
    pay = hr.Exchange(2, (hr.parse_card("8H"),))
    assert list(g.legal_actions()) == [pay]
    assert hr.Code.TAKE_DISCARD_NOT_MELDED in g.check(hr.Discard(hr.parse_card("2C"))).codes
    g = g.apply(pay)
    assert g.table[1].meld.cards == hr.Meld.of("7H 8H 9H").cards
    assert g.current.obligation is hr.Obligation.USE_FREED_WILD
    assert g.current.taken_meld == 2  # where the taken card now lies
    lay_downs = [a for a in g.legal_actions() if isinstance(a, hr.LayDown)]
    assert lay_downs and all(hr.JOKER in a.melds[0].cards for a in lay_downs)
    assert not [a for a in g.legal_actions() if isinstance(a, hr.Discard)]


def test_discard_pays_for_joker_needs_a_joker_the_card_can_buy() -> None:
    """With the switch, a hand that could neither meld the taken card nor pay for a joker
    with it still may not take it: here the only joker stands for the 8♥, and the card on
    the pile is the 8♦."""
    other = _eight_of_hearts_on_the_pile(
        ["discard_only_to_meld", "discard_pays_for_joker"], top="8D"
    )
    assert hr.Code.TAKE_DISCARD_NOT_MELDED in other.check(hr.TakeDiscard()).codes
    assert "or to pay for a wild with it" in str(other.check(hr.TakeDiscard()))


def _levant_eight_of_hearts_on_the_pile(variants: list[str]) -> hr.Round:
    """Levant, the 8♣ turned (the A♣ are wild): seat 0 has opened, and the 8♥ on the pile
    could only go into seat 1's 7♥ A♣(=8♥) 9♥, in the wild's place."""
    return spot(
        hr.build("levant", variants),
        "2S 3S 9D 9C 4H KD",
        others=[seat("KC 5D 6D 7D 8D")],
        table=[(1, 0, "4S 5S 6S"), (2, 1, hr.Meld.of("7H AC 9H", roles={1: "8H"}))],
        indicator="8C",
        discards="8H",
        phase=hr.Phase.DRAW,
        me={"turns_played": 1},
    )


@pytest.mark.parametrize("variants", [[], ["discard_to_table"]])
def test_a_levant_take_that_could_only_pay_for_a_wild_is_refused(variants: list[str]) -> None:
    """000 §Playing a turn: a taken discard goes at once into a new meld with two cards of
    the hand; under "Taking the discard" (000 §Variants) it may also be added to a table
    meld. The 8♥ makes no meld with 2♠ 3♠ 9♦ 9♣ 4♥ K♦ and extends neither 4♠ 5♠ 6♠ nor
    7♥ A♣ 9♥ (whose 8 is the wild); whether putting it in the wild's place adds it to that
    meld is left open, and by default it does not (docs/rules, questions left open)."""
    game = _levant_eight_of_hearts_on_the_pile(variants)
    assert hr.Code.TAKE_DISCARD_NOT_MELDED in game.check(hr.TakeDiscard()).codes
    assert hr.TakeDiscard() not in game.legal_actions()


def test_discard_pays_for_wild_lets_the_taken_card_buy_a_levant_wild() -> None:
    """With the switch the 8♥ may be taken to pay for the A♣ of 7♥ A♣ 9♥, which is then
    the only move; the freed A♣ may be kept or played (000 §Exchanging wild cards: "use
    the wild card again right away or keep it in your hand"), so the turn may end on a
    discard."""
    game = _levant_eight_of_hearts_on_the_pile(["discard_to_table", "discard_pays_for_wild"])
    assert game.check(hr.TakeDiscard()).ok
    game = game.apply(hr.TakeDiscard())
    pay = hr.Exchange.of(2, "8H")
    assert list(game.legal_actions()) == [pay]
    game = game.apply(pay)
    assert game.table[1].meld.cards == hr.parse_cards("7H 8H 9H")
    assert hr.parse_card("AC") in game.hand(0) and game.current.obligation is None
    assert hr.Discard.of("KD") in game.legal_actions()


def test_beat_last_next_seat_raises_only_the_bar_of_the_seat_after_the_opener() -> None:
    """RULES-MATRIX P8: 004's Saudi Hand, "then the next player needs the last accepted
    opening + 1". By default whoever opens next, in any seat, needs 60 + 1 after an opening
    of 60; with ``beat_last_next_seat`` only the seat after the opener (seat 2 after seat 1,
    of four) does, and seats 3 and 0 need the base of 51."""
    after = (OpeningRecord(1, 1, 60),)
    default = hr.build("saudi").opening
    switched = hr.build("saudi", ["beat_last_next_seat"]).opening
    assert [default.required(s, s, after, 4) for s in (2, 3, 0)] == [61, 61, 61]
    assert [switched.required(s, s, after, 4) for s in (2, 3, 0)] == [61, 51, 51]
    assert switched.required(0, 0, (), 4) == 51  # nobody has opened: the base
    # the seat after the last seat is seat 0
    assert switched.required(0, 0, (OpeningRecord(3, 3, 70),), 4) == 71
    with pytest.raises(hr.InvalidStateError, match="how many players"):
        switched.required(2, 2, after)
    # composed with L15's switch, the seat after the opener may equal it
    equal = hr.build("saudi", ["beat_last_next_seat", "beat_last_or_equal"]).opening
    assert [equal.required(s, s, after, 4) for s in (2, 3)] == [60, 51]


@pytest.mark.parametrize(("mover", "legal"), [(2, False), (3, True)])
def test_beat_last_next_seat_in_a_round(mover: int, legal: bool) -> None:
    """The switch in play: seat 1 opened with 60 this round; the player to move holds
    5♥ 6♥ 7♥ (18) + K♠ K♦ K♥ (30) + 2♣ 3♣ 4♣ (9) = 57, which reaches the base of 51 but not
    61. Seat 3 may lay it down; seat 2, seated next after the opener, may not."""
    ruleset = hr.build("saudi", ["beat_last_next_seat"])
    hand = "5H 6H 7H KS KD KH 2C 3C 4C 9S JD"
    seats = [hr.PositionSeat(hand_size=11) for _ in range(4)]
    seats[mover] = hr.PositionSeat(hand)
    game = hr.Round.from_position(
        hr.Position(
            ruleset,
            players=seats,
            turn=mover,
            phase=hr.Phase.PLAY,
            table=[hr.PositionMeld(1, 1, "10S JS QS KS AS")],
            discards="8D",
            openings=[(1, 60)],
        )
    )
    opening = hr.LayDown.of("5H 6H 7H", "KS KD KH", "2C 3C 4C")
    verdict = game.check(opening)
    assert verdict.ok is legal
    if not legal:
        assert verdict.codes == (hr.Code.OPENING_BELOW_THRESHOLD,)
    assert (opening in game.legal_actions()) is legal
