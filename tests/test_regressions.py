"""Cases that once went wrong, each with the rule that decides it."""

from __future__ import annotations

from typing import Any

import pytest

import hand_rummy as hr
from hand_rummy.serialize import position_from_json, position_to_json


def test_run_never_holds_the_same_card_twice() -> None:
    """000 §Wild cards: under the 8♣ the joker is the natural A♣, so a run from it up to the
    K♣ cannot take a wild standing for a second A♣ on top (a run holds each rank once)."""
    rules = hr.MeldRules.of(hr.rulesets.levant, "8C")
    run = hr.judge_meld(hr.Meld.of("JK 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"), rules)
    assert run.ok and run.meld is not None
    assert not hr.lay_off(run.meld, "AC", rules).ok
    fourteen = hr.Meld.of("JK 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", roles={13: "AC"})
    assert hr.judge_meld(fourteen, rules).verdict.codes == (hr.Code.RUN_TOO_LONG,)


@pytest.mark.parametrize(
    ("run", "legal"),
    [
        # A♠ to Q♠ and the joker as K♠: all thirteen ranks, so the Ace may be read high
        # (2♠ ... K♠ A♠), and there the joker stands inside the run
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS", True),
        # 2♠ to Q♠: the joker as K♠ (or as A♠) would stand at an end however it is read
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS", False),
    ],
)
def test_a_joker_completing_all_thirteen_ranks_is_inside_a_run(run: str, legal: bool) -> None:
    """Found by random play: under joker_inside_only (RULES-MATRIX P3) the engine accepted
    this lay-off but did not list it, reading the grown run only with its Ace low."""
    ruleset = hr.build("saudi_partnership", ["joker_inside_only"])
    mover = (ruleset.deal.starter(0, 4) + 1) % 4  # not the starter, whose first turn is bare
    seats: list[hr.PositionSeat | int] = [8, 8, 8, 8]
    seats[mover] = hr.PositionSeat("JK 4H 9D", opened=True)
    spot = hr.Position(
        ruleset,
        players=seats,
        table=[hr.PositionMeld(1, mover, run)],
        discards="9C",
        turn=mover,
        phase=hr.Phase.PLAY,
    )
    game = hr.Round.from_position(spot)
    lay_off = hr.LayOff(1, hr.parse_card("JK"), role=hr.parse_card("KS"))
    assert game.check(lay_off).ok is legal
    assert (lay_off in set(game.legal_actions())) is legal
    jokers = [a for a in game.legal_actions() if isinstance(a, hr.LayOff) and a.card.is_joker]
    assert [a.role for a in jokers] == ([hr.parse_card("KS")] if legal else [])


def _lone_joker(variants: list[str], table: str | None) -> hr.Round:
    """Seat 0 has opened and holds only a joker; the 7♣ is on top of the discard pile."""
    ruleset = hr.build("romme", variants)
    melds = [hr.PositionMeld(1, 0, "JH QH KH"), *([hr.PositionMeld(2, 0, table)] if table else [])]
    spot = hr.Position(
        ruleset,
        players=[hr.PositionSeat("JK", opened=True), 9, 9],
        table=melds,
        discards="7C",
        turn=0,
        phase=hr.Phase.DRAW,
        openings=[(0, 40)],
    )
    return hr.Round.from_position(spot)


def test_a_take_that_leaves_nothing_to_discard_is_refused() -> None:
    """Found by the soak (romme+no_rediscard_taken+tournament_jokers, seed 745130613): with
    only a joker in hand, taking the 7♣ left no legal move. Under no_rediscard_taken the 7♣
    may not go back this turn (RULES-MATRIX R5), under tournament_jokers the joker may be
    discarded only to go out (002 §Variants), and no meld takes the 7♣, so neither card
    could end the turn. The take is refused; drawing from the stock stays legal."""
    game = _lone_joker(["no_rediscard_taken", "tournament_jokers"], None)
    verdict = game.check(hr.TakeDiscard())
    assert verdict.codes == (hr.Code.MUST_KEEP_A_CARD,)
    assert "7♣" in verdict.violations[0].message
    assert set(game.legal_actions()) == {hr.DrawStock()}
    with pytest.raises(hr.IllegalActionError):
        game.apply(hr.TakeDiscard())


@pytest.mark.parametrize(
    ("variants", "table"),
    [
        # either restriction alone leaves a card to discard: the joker, or the 7♣
        (["no_rediscard_taken"], None),
        (["tournament_jokers"], None),
        # both, but the 7♣ can be laid off on 4♣ 5♣ 6♣, and the joker then goes out
        (["no_rediscard_taken", "tournament_jokers"], "4C 5C 6C"),
    ],
)
def test_a_take_that_leaves_a_way_to_end_the_turn_stays_legal(
    variants: list[str], table: str | None
) -> None:
    game = _lone_joker(variants, table)
    assert game.check(hr.TakeDiscard()).ok
    assert hr.TakeDiscard() in set(game.legal_actions())
    after = game.apply(hr.TakeDiscard())
    assert any(True for _ in after.legal_actions())


def test_an_exchange_on_another_player_s_meld_spoils_a_hand() -> None:
    """000 §End of a round: a Hand lays down every card in one turn "without adding any to
    other players' melds". Paying for seat 1's wild A♣ with the 8♥ puts a card of seat 0's
    hand into seat 1's meld, so going out afterwards is an ordinary finish (winner -30, not
    the Hand's -60); the position written in the middle of the turn keeps that fact."""
    spot = hr.Position(
        hr.rulesets.levant,
        indicator="8C",
        players=[
            hr.PositionSeat("8H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KD KC 9D"),
            hr.PositionSeat(hand_size=9),
            hr.PositionSeat(hand_size=14),
        ],
        table=[hr.PositionMeld(1, 1, "7H AC 9H")],
        discards="4D",
        discard_size=10,
        turn=0,
        phase=hr.Phase.PLAY,
    )
    game = hr.Round.from_position(spot)
    game = game.apply(hr.LayDown((hr.Meld.of("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"),)))
    assert game.going_out_is_hand(final_discard=True)
    game = game.apply(hr.Exchange(1, (hr.parse_card("8H"),)))
    assert not game.going_out_is_hand(final_discard=True)
    again = hr.Round.from_position(position_from_json(position_to_json(game)))
    assert again.current.exchanged_on_others and not again.going_out_is_hand(final_discard=True)
    game = game.apply(hr.LayDown((hr.Meld.of("KD KC AC"),)))
    game = game.apply(hr.Discard(hr.parse_card("9D")))
    assert game.outcome is not None
    assert game.outcome.ending is hr.Ending.WENT_OUT
    assert game.outcome.score.scores[0] == -30


@pytest.mark.parametrize(
    ("current", "wrong"),
    [
        (hr.PositionTurn(exchanged_on_others=True), "current.freed names no wild"),
        (hr.PositionTurn(freed="AC", exchanged_on_others=True), "every meld on the table is"),
    ],
)
def test_a_position_s_exchange_on_others_needs_an_exchange_and_another_s_meld(
    current: hr.PositionTurn, wrong: str
) -> None:
    spot = hr.Position(
        hr.rulesets.levant,
        indicator="8C",
        # the A♣ would be the wild freed this turn, kept in the hand
        players=[hr.PositionSeat("8H 2S 3S 9D AC", opened=True), 14, 14],
        table=[hr.PositionMeld(1, 0, "7H 8H 9H")],
        discards="KD",
        openings=[(0, 51)],
        turn=0,
        phase=hr.Phase.PLAY,
        current=current,
    )
    with pytest.raises(hr.InvalidStateError, match=wrong):
        hr.Round.from_position(spot)


def test_a_taken_card_s_refusal_names_the_lay_off_where_it_is_allowed() -> None:
    """002 §Variants, "discard pile only for melding": once opened, the taken card may also
    be laid off, so a lay-down without it is refused with both ways named."""
    spot = hr.Position(
        hr.build("romme", ["discard_only_to_meld"]),
        players=[hr.PositionSeat("5C 6C 7C 2H 3H 4H 9S", opened=True), 13],
        table=[hr.PositionMeld(1, 0, "QS QH QD")],
        openings=[(0, 40)],
        discards="8S",
        turn=0,
        phase=hr.Phase.PLAY,
        current=hr.PositionTurn(taken="7C"),
    )
    verdict = hr.Round.from_position(spot).check(hr.LayDown((hr.Meld.of("2H 3H 4H"),)))
    assert verdict.codes == (hr.Code.TAKE_DISCARD_NOT_MELDED,)
    assert "7♣" in verdict.violations[0].message
    assert verdict.violations[0].message.endswith("or onto a table meld")


# found by fuzz_positions (seed 40): Levant with the 9♠ turned, so the A♠ is wild and the
# jokers are natural Aces of spades; seat 2 has taken a joker, demoted, and must meld it
_NATURAL_JOKER_RUN: dict[str, Any] = {
    "format": "hand-rummy/position",
    "version": 1,
    "rules": {"preset": "levant", "variants": ["joker_demotion_always"]},
    "indicator": "9S",
    "dealer": 2,
    "seed": 139176873,
    "players": [
        {
            "hand": ["QC", "KC", "5D", "JD", "KD", "5H", "QS"],
            "demoted": [],
            "opened": True,
            "melded": True,
            "turns_played": 2,
            "announced": 0,
        },
        {
            "hand": ["3C", "4C", "2H", "10H"],
            "demoted": [],
            "opened": True,
            "melded": True,
            "turns_played": 2,
            "announced": 0,
        },
        {
            "hand": [
                "AC",
                "7C",
                "9C",
                "10C",
                "6D",
                "8D",
                "3H",
                "4H",
                "5H",
                "5S",
                "9S",
                "JS",
                "QS",
                "KS",
                "JK",
            ],
            "demoted": ["JK"],
            "opened": False,
            "melded": False,
            "turns_played": 1,
            "announced": 0,
        },
        {
            "hand": [
                "AC",
                "2C",
                "5C",
                "JC",
                "6D",
                "7D",
                "9D",
                "AH",
                "3H",
                "6H",
                "7H",
                "JH",
                "QH",
                "4S",
            ],
            "demoted": [],
            "opened": False,
            "melded": False,
            "turns_played": 2,
            "announced": 0,
        },
    ],
    "table": [
        {"id": 1, "owner": 1, "meld": {"cards": ["AD", "2D", "3D"]}, "kind": "run"},
        {"id": 2, "owner": 1, "meld": {"cards": ["9D", "10D", "JD", "QD"]}, "kind": "run"},
        {"id": 3, "owner": 1, "meld": {"cards": ["JK", "2S", "3S"]}, "kind": "run"},
        {
            "id": 4,
            "owner": 0,
            "meld": {"cards": ["7S", "8S", "AS", "10S"], "roles": {"2": "9S"}},
            "kind": "run",
        },
        {"id": 5, "owner": 0, "meld": {"cards": ["6C", "6H", "6S"]}, "kind": "set"},
    ],
    "discards": ["2S", "5D", "10C", "7D", "8S", "JH"],
    "stock": [
        "QD",
        "AH",
        "JS",
        "4D",
        "7S",
        "6S",
        "8H",
        "8C",
        "4D",
        "4H",
        "6C",
        "KH",
        "7C",
        "7H",
        "QC",
        "5C",
        "KC",
        "8C",
        "2D",
        "3C",
        "8H",
        "4C",
        "5S",
        "KH",
        "8D",
        "AS",
        "10D",
        "KS",
        "10S",
        "KD",
        "10H",
        "AD",
        "9C",
        "QH",
        "2C",
        "JC",
        "9H",
        "9H",
        "4S",
        "3D",
        "2H",
        "3S",
    ],
    "turn": 2,
    "phase": "play",
    "current": {
        "taken": "JK",
        "taken_demoted": True,
        "had_taken": False,
        "obligation": "meld_taken",
        "melded": [],
        "first_turn_bare": False,
    },
    "openings": [{"seat": 1, "points": 71}, {"seat": 0, "points": 52}],
}


def test_a_demoted_joker_beside_a_run_of_a_natural_joker() -> None:
    """000 §Wild cards: a demoted joker plays as an Ace, on a run as the Ace of the run's
    suit. The finishing search asked it of the run JK 2♠ 3♠, whose joker is the natural A♠,
    and took the suit of a joker (none) for the run's: the listing raised InvalidStateError."""
    game = hr.Round.from_position(position_from_json(_NATURAL_JOKER_RUN))
    listed = list(game.legal_actions())
    assert listed
    assert all(game.check(action).ok for action in listed)


def test_a_partner_who_never_melded_holds_no_opening_of_the_team() -> None:
    """RULES-MATRIX P9 a: once one partner opens, the team has opened. A position that
    leaves the openings out gets one per team, and it is a partner who has melded that made
    it: seat 0 has laid nothing down, so after its first meld the round's own position
    reloads (it did not, the team's opening having been given to seat 0)."""
    seat = hr.PositionSeat
    position = hr.Position(
        hr.build("saudi_partnership"),
        [
            seat("5C 5H 5D 9S KD", opened=True, melded=False, turns_played=3),
            seat("2C 3C 4D 8H 9H", opened=True, melded=True, turns_played=3),
            seat("QC 3D KH", opened=True, melded=True, turns_played=3),
            seat("2D 7C 8C 10S", opened=True, melded=False, turns_played=3),
        ],
        turn=0,
        phase=hr.Phase.PLAY,
        discards="4S",
        table=[
            hr.PositionMeld(1, 2, hr.Meld.of("JS QS KS AS")),
            hr.PositionMeld(2, 2, hr.Meld.of("6D 7D 8D 9D 10D JD")),
            hr.PositionMeld(3, 1, hr.Meld.of("4H 4C 4S")),
            hr.PositionMeld(4, 1, hr.Meld.of("JH QH KH")),
        ],
    )
    game = hr.Round.from_position(position)
    assert [record.seat for record in game.openings] == [1, 2]
    after = game.apply(hr.LayDown.of("5C 5H 5D"))
    again = hr.Round.from_position(position_from_json(position_to_json(after)))
    assert again.openings == after.openings and again.hand(0) == after.hand(0)


@pytest.mark.parametrize(
    ("variants", "hand", "table", "says"),
    [
        # KKK QQQ (60) reaches 51, but it would leave only the taken 2♦, which may not be
        # discarded again (004 §2), and the turn could not end
        ([], "KS KH KD QS QH QD", "5H 6H 7H", "every such opening leaves no card you may discard"),
        # KKK QQQ 777 (81) reaches 51, but not with the taken 2♦ (matrix P4 a, alternative)
        (
            ["taken_card_in_opening"],
            "KS KH KD QS QH QD 7S 7H 7C 4C 9D",
            "5H 6H 7H",
            "no opening with 2♦",
        ),
        # a hand that cannot reach the bar keeps the plain reason
        ([], "2C 5D 9H KS 3S 7C JD", "5H 6H 7H", "this hand cannot reach 51"),
    ],
)
def test_a_refused_take_says_why_no_opening_is_possible(
    variants: list[str], hand: str, table: str, says: str
) -> None:
    """Audit of the turn rules: an unopened player whose hand does reach 51 was refused the
    fire card with "this hand cannot reach 51". The take is rightly refused (004 §5: it
    obliges an opening this turn; §2: the taken card may not be discarded again), but the
    reason must not deny that the hand reaches the bar."""
    game = hr.Round.from_position(
        hr.Position(
            hr.build("classic", variants),
            players=[hr.PositionSeat(hand), 9],
            table=[hr.PositionMeld(1, 1, table)],
            turn=0,
            phase=hr.Phase.DRAW,
            discards="2D",
            discard_size=10,
        )
    )
    verdict = game.check(hr.TakeDiscard())
    assert verdict.codes == (hr.Code.TAKE_DISCARD_NOT_OPENED,)
    assert says in str(verdict)
    assert hr.TakeDiscard() not in game.legal_actions()


def _levant_play(seat: hr.PositionSeat, *melds: tuple[int, int, str]) -> hr.Round:
    """Seat 0 to play in a three-handed Levant round with the 8♣ turned (the A♣ wild), its
    own Q♠ K♠ A♠ (meld 2) on the table beside ``melds`` (id, owner, cards)."""
    table = [(2, 0, "QS KS AS"), *melds]
    return hr.Round.from_position(
        hr.Position(
            hr.build("levant"),
            [seat, 9, 9],
            turn=0,
            phase=hr.Phase.PLAY,
            indicator="8C",
            discards="9S",
            table=[hr.PositionMeld(i, o, hr.Meld.of(m)) for i, o, m in sorted(table)],
        )
    )


def test_a_card_laid_where_a_wild_stands_for_it_is_pointed_to_the_exchange() -> None:
    """Audit of the turn rules: laying the 8♥ off on 7♥ A♣ 9♥, whose wild A♣ (the
    indicator is the 8♣) stands for the 8♥, was refused only as "the cards of a run must
    follow each other", with no word of the exchange that puts the 8♥ there (000 §Exchanging
    wild cards). A card the meld's wild does not stand for gets no such word."""
    game = _levant_play(hr.PositionSeat("8H 10H 5C KD", turns_played=2), (1, 1, "7H AC 9H"))
    verdict = game.check(hr.LayOff(1, hr.Card.parse("8H")))
    assert not verdict.ok
    assert "stands for 8♥" in str(verdict) and "exchange" in str(verdict)
    assert game.check(hr.Exchange.of(1, "8H")).ok
    other = game.check(hr.LayOff(1, hr.Card.parse("5C")))
    assert not other.ok and "exchange" not in str(other)


@pytest.mark.parametrize(
    ("preset", "hand", "table", "card"),
    [
        # 000 §Exchanging wild cards: the wild of a set of two naturals and a wild is taken
        # only for "both missing cards", so the 5♣ alone buys nothing
        ("levant", "5C 2S 7D 9C JS KH", [(1, 1, "5H 5S AC"), (9, 0, "JD QD KD")], "5C"),
        # 003 never mentions an exchange (RULES-MATRIX G7: none without joker_exchange)
        ("gulf", "8H 2S 5D KC", [(2, 1, "7H JK 9H"), (1, 0, "JD QD KD")], "8H"),
    ],
)
def test_no_exchange_hint_where_the_card_alone_cannot_buy_the_wild(
    preset: str, hand: str, table: list[tuple[int, int, str]], card: str
) -> None:
    """Audit of the turn rules (second): the hint added for the 8♥ on 7♥ A♣ 9♥ also told a
    player to "exchange that wild" for the 5♣ on 5♥ 5♠ A♣, whose wild 000 gives up only for
    both missing cards, and under Gulf rules, which have no exchange at all (003, G7). The
    hint must name only a move the rules allow."""
    ruleset = hr.build(preset)
    players = 3 if preset == "levant" else 4
    game = hr.Round.from_position(
        hr.Position(
            ruleset,
            [hr.PositionSeat(hand, turns_played=2), *([9] * (players - 1))],
            turn=0,
            phase=hr.Phase.PLAY,
            indicator="8C" if preset == "levant" else None,
            discards="9S",
            table=[hr.PositionMeld(i, o, hr.Meld.of(m)) for i, o, m in table],
        )
    )
    target = table[0][0]
    verdict = game.check(hr.LayOff(target, hr.Card.parse(card)))
    assert not verdict.ok
    assert "exchange" not in str(verdict)
    assert not game.check(hr.Exchange.of(target, card)).ok


def test_a_lay_down_barred_by_the_discard_it_leaves_says_so() -> None:
    """Audit of the turn rules (second): a lay-down that leaves one card, whose discard would
    go out, was refused only as "you forgot to announce your last cards, so you may not go
    out this turn", though the lay-down itself does not go out (000 §Playing a turn: a
    player who forgot the announcement may not go out that turn)."""
    game = _levant_play(hr.PositionSeat("5C 6C 7C 9D", turns_played=3, missed=True))
    verdict = game.check(hr.LayDown.of("5C 6C 7C"))
    assert verdict.codes == (hr.Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT,)
    assert "this leaves one card, and its discard would go out" in str(verdict)
    assert hr.LayDown.of("5C 6C 7C") not in game.legal_actions()


@pytest.mark.parametrize(
    ("meld", "note"),
    [
        # 000 §Wild cards: a joker that is not wild plays as a natural Ace of the indicator's
        # suit, here the A♣
        (hr.Meld.of("7H JK 9H"), "the JK is not wild here: it plays as a natural A♣"),
        # 000 "Discarded wild cards": the wild A♣ taken from the pile plays as itself
        (hr.Meld.of("7H AC 9H", demoted=[1]), "the A♣ taken from the discard pile plays only"),
    ],
)
def test_a_refused_meld_says_which_cards_that_look_wild_play_as_natural(
    meld: hr.Meld, note: str
) -> None:
    """Audit of the turn rules (second): "7♥ JK 9♥ is neither a run nor a set" did not say
    that under the 8♣ indicator the joker is no wild card; a player who counted it as one
    could not see the fault. A meld with no such card gets no note."""
    rules = hr.MeldRules.of(hr.build("levant"), hr.Card.parse("8C"))
    verdict = hr.judge_meld(meld, rules).verdict
    assert verdict.codes == (hr.Code.MELD_NOT_RUN_OR_SET,)
    assert note in str(verdict)
    plain = hr.judge_meld(hr.Meld.of("7H 2C 9H"), rules).verdict
    assert "wild" not in str(plain) and "discard pile" not in str(plain)


def test_a_wild_laid_off_with_or_without_a_role_is_told_the_spelling() -> None:
    """Two audits of the turn rules: a wild laid off at a run's end without a role was told
    to "say which card the wild stands for" without the choices, and one given a role on a
    set only that a set takes none. The run 7♥ 8♥ 9♥ takes the wild A♣ (the indicator is the
    8♣) as the 6♥ or the 10♥ (000 §Melds); a set's wild stands for a missing suit."""
    game = _levant_play(
        hr.PositionSeat("AC 10H 5C KD", turns_played=2), (1, 1, "7H 8H 9H"), (3, 1, "5D 5H 5S")
    )
    bare = game.check(hr.LayOff(1, hr.Card.parse("AC")))
    assert bare.codes == (hr.Code.WILD_ROLE_INVALID,)
    assert "(role='6H' or role='10H')" in str(bare)
    assert game.check(hr.LayOff.of(1, "AC", role="10H")).ok
    on_set = game.check(hr.LayOff.of(3, "AC", role="5C"))
    assert on_set.codes == (hr.Code.WILD_ROLE_INVALID,)
    assert "lay the A♣ off without one" in str(on_set)
    assert game.check(hr.LayOff.of(3, "AC")).ok


@pytest.mark.parametrize(("preset", "seeds"), [("saudi", range(2)), ("levant", range(3))])
def test_samples_after_the_taken_card_left_the_hand_describe_real_positions(
    preset: str, seeds: range
) -> None:
    """Found by fuzzing: another seat's view, mid-turn once the card taken from the pile
    had gone into a meld, sampled rounds that dealt the mover a copy of that face yet said
    the mover held none before the take. Their positions were refused ("the hand still
    holds the 10♥ taken, its only copy"; in Levant, where the taken card is melded before
    anything else, "holds the J♠ taken this turn") and they barred the discard of a copy
    that cannot be the taken card. Every sample must be a round its own position gives
    back, with the same moves for the mover."""
    import random  # noqa: PLC0415

    checked = 0
    for seed in seeds:
        game = hr.Round.deal(hr.build(preset), 3, seed=seed)
        bot = hr.GreedyBot(seed)
        while not game.is_over:
            current = game.current
            if current.taken is not None and (current.laid_down or current.laid_off):
                for seat in (s for s in range(game.players) if s != game.turn):
                    for k in range(8):
                        sample = game.view(seat).sample(random.Random(k))
                        again = hr.Round.from_position(sample.position())
                        assert set(again.legal_actions()) == set(sample.legal_actions())
                        checked += 1
            legal = list(game.legal_actions())
            game = game.apply(bot.decide(hr.Choice(game.turn, game=game, legal=legal)))
    assert checked > 0
