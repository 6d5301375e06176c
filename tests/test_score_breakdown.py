"""The breakdown of a round's scores, line by line, for settling a scoring dispute.

Every expected value comes from a worked example of a rule document (named in
the test) or is worked out by hand in the comments, never read back from the
library.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import hand_rummy as hr
from hand_rummy import ScoreBasis, rulebook
from hand_rummy.referee import answer
from hand_rummy.testing import player_counts, random_game

LEVANT = hr.MeldRules.of(hr.rulesets.levant, "8C")


def _ids(citations: tuple[hr.Citation, ...]) -> list[str]:
    return [c.id for c in citations]


def _factors(line: hr.PlayerScore) -> list[tuple[str, int]]:
    return [(f.name, f.factor) for f in line.factors]


def test_levant_scoring_example() -> None:
    """000 §Scoring: under the 8♣, Ben goes out (-30), Anna holds K♠ 7♦ A♣ (10 + 7 + 15 =
    32: the A♣ is wild and costs 15), Carla never melded (100)."""
    end = hr.RoundEnd.of([("", True), ("KS 7D AC", True), ("5H 9C", False)], went_out=0)
    ben, anna, carla = hr.score_round(end, LEVANT).breakdown
    assert (ben.basis, ben.base, ben.score, ben.factors) == (ScoreBasis.WENT_OUT, -30, -30, ())
    assert _ids(ben.rules) == ["levant.scoring.winner"]
    assert anna.basis is ScoreBasis.CARDS
    assert anna.cards == hr.parse_cards("KS 7D AC")
    assert (anna.values, anna.cards_total, anna.base, anna.score) == ((10, 7, 15), 32, 32, 32)
    assert _ids(anna.rules) == ["levant.scoring.cards"]
    # Carla's 5 + 9 = 14 in cards is shown, but the flat 100 is what she scores
    assert (carla.basis, carla.values, carla.cards_total) == (ScoreBasis.NEVER_OPENED, (5, 9), 14)
    assert (carla.opened, carla.base, carla.score) == (False, 100, 100)
    assert _ids(carla.rules) == ["levant.scoring.never-opened-flat"]


def test_levant_hand_doubles_every_line() -> None:
    """000 §End of a round: after a hand 'all scores are doubled': -60, 2 × 32, 2 × 100."""
    end = hr.RoundEnd.of([("", True), ("KS 7D AC", True), ("5H", False)], went_out=0, hand=True)
    score = hr.score_round(end, LEVANT)
    assert score.scores == (-60, 64, 200) and score.factor == 2
    for line, base in zip(score.breakdown, (-30, 32, 100)):
        assert line.base == base
        assert _factors(line) == [("hand", 2)]
        assert [f.rule.id for f in line.factors] == ["levant.scoring.hand"]
        assert line.score == base * 2


def test_levant_partnership_hand_is_400_for_a_team_that_never_melded() -> None:
    """000 §Variants (Partnership Hand): the winner's team scores -60 after a hand, the
    partner's cards do not count, and the other team adds both players' penalties: 400
    after a hand if neither had melded (2 × 100 + 2 × 100)."""
    rules = hr.MeldRules.of(hr.build("levant", ["partnership"]), "8C")
    players = [("", True), ("KS 7D", False), ("9H 9D 9S", True), ("AH", False)]
    score = hr.score_round(hr.RoundEnd.of(players, went_out=0, hand=True), rules)
    winner, first, partner, second = score.breakdown
    assert (winner.base, winner.score) == (-30, -60)
    assert (partner.basis, partner.cards_total, partner.score) == (
        ScoreBasis.PARTNER_OF_WINNER,
        27,
        0,
    )
    assert _ids(partner.rules) == ["levant.scoring.teams-winner"]
    assert (first.score, second.score) == (200, 200)
    ours, theirs = score.team_breakdown
    assert (ours.seats, ours.scores, ours.total) == ((0, 2), (-60, 0), -60)
    assert (theirs.seats, theirs.scores, theirs.total) == ((1, 3), (200, 200), 400)
    assert ours.rule.id == theirs.rule.id == "levant.scoring.teams-winner"
    assert score.team_scores == (-60, 400)


@pytest.mark.parametrize(
    ("melded", "last", "factors", "winner"),
    [
        # 000 §Variants: a hand ending on a wild discard doubles again: -120, others 4 ×
        ("7H 8H 9H 5S 5D 5C", "AC", [("hand", 2), ("wild discard", 2)], -120),
        # one colour (hearts and diamonds are red): doubles again, × 4 in all
        ("7H 8H 9H 5D 6D 7D", "2S", [("hand", 2), ("one colour", 2)], -120),
        # one suit 'counts twice that': × 4 in place of the colour doubling, × 8 in all (L12)
        ("7H 8H 9H 10H JH QH", "2S", [("hand", 2), ("one suit", 4)], -240),
    ],
)
def test_egyptian_bonuses_are_separate_factors(
    melded: str, last: str, factors: list[tuple[str, int]], winner: int
) -> None:
    rules = hr.MeldRules.of(hr.build("levant", ["egyptian_bonuses"]), "8C")
    end = hr.RoundEnd.of(
        [("", True), ("KS", True)], went_out=0, hand=True, melded=melded, last_discard=last
    )
    score = hr.score_round(end, rules)
    mine, theirs = score.breakdown
    assert _factors(mine) == _factors(theirs) == factors
    assert mine.score == winner
    assert theirs.score == 10 * winner // -30  # the King's 10, times the same factors
    assert {f.rule.id for f in mine.factors[1:]} == {"levant.scoring.egyptian"}


def test_romme_scoring_example_and_hand_romme() -> None:
    """002 §Scoring: Anna goes out (0); Ben holds K♠ 7♦ A♥ and a joker, 10 + 7 + 11 + 20 =
    48; Clara 3♣ 3♠ 9♥, 15. After a Hand Rommé Ben pays 96, Clara 30, Anna still 0."""
    rules = hr.MeldRules.of(hr.rulesets.romme)
    players = [("", True), ("KS 7D AH JK", True), ("3C 3S 9H", False)]
    plain = hr.score_round(hr.RoundEnd.of(players, went_out=0), rules)
    anna, ben, clara = plain.breakdown
    assert (anna.base, anna.score) == (0, 0)
    assert (ben.values, ben.score) == ((10, 7, 11, 20), 48)
    # Clara never came out: in Rommé the cards count all the same
    assert (clara.basis, clara.values, clara.score) == (ScoreBasis.CARDS, (3, 3, 9), 15)
    assert _ids(clara.rules) == ["romme.scoring.cards", "romme.scoring.never-opened-cards"]
    hand = hr.score_round(hr.RoundEnd.of(players, went_out=0, hand=True), rules)
    anna, ben, clara = hand.breakdown
    assert (anna.factors, anna.score) == ((), 0)  # the winner's score is not doubled
    assert (_factors(ben), ben.score, clara.score) == ([("hand", 2)], 96, 30)


def test_app_hand_finish() -> None:
    """004 §The "Hand" finish: the finisher scores -60, the others' penalties double, a
    player who never opened gets +200. K♥ 4♣ cost 10 + 4 = 14, doubled 28."""
    rules = hr.MeldRules.of(hr.rulesets.classic)
    end = hr.RoundEnd.of([("KH 4C", True), ("", True), ("9S", False)], went_out=1, hand=True)
    first, winner, never = hr.score_round(end, rules).breakdown
    assert (winner.base, winner.score) == (-30, -60)
    assert (first.base, first.score, never.base, never.score) == (14, 28, 100, 200)
    assert _ids(never.rules) == ["classic.scoring.never-opened-flat"]


def test_saudi_partnership_partner_of_an_opener_pays_the_cards() -> None:
    """004 §The four variants: the opening belongs to the team, so a partner who never
    laid down counts as opened (P9 c) and pays for the cards: 5 + 6 = 11, not 100."""
    rules = hr.MeldRules.of(hr.rulesets.saudi_partnership)
    players = [("", True), ("2C", True), ("5H 6H", False), ("3D", False)]
    score = hr.score_round(hr.RoundEnd.of(players, went_out=0), rules)
    partner, lone = score.breakdown[2], score.breakdown[3]
    assert (partner.basis, partner.opened, partner.score) == (ScoreBasis.CARDS, True, 11)
    assert _ids(partner.rules) == [
        "saudi_partnership.scoring.cards",
        "saudi_partnership.scoring.team-opened",
    ]
    # seat 3's partner (seat 1) opened too, so seat 3 pays its 3 rather than 100
    assert lone.score == 3
    team = score.team_breakdown[0]
    assert (team.seats, team.total, team.rule.id) == (
        (0, 2),
        -30 + 11,
        "saudi_partnership.scoring.teams-sum",
    )


def test_the_seat_that_went_out_counts_as_opened() -> None:
    """Going out lays every card down, so the winner has opened even where the description
    says otherwise, and in Saudi Hand Partnership its partner counts as opened through it
    (004 §The four variants, P9 c): after a Hand the partner pays 2 × (5 + 6) = 22, not the
    never-opened 200."""
    rules = hr.MeldRules.of(hr.rulesets.saudi_partnership)
    players = [("", False), ("2C", True), ("5H 6H", False), ("3D", True)]
    score = hr.score_round(hr.RoundEnd.of(players, went_out=0, hand=True), rules)
    winner, partner = score.breakdown[0], score.breakdown[2]
    assert winner.opened and (winner.base, winner.score) == (-30, -60)
    assert (partner.basis, partner.opened, partner.score) == (ScoreBasis.CARDS, True, 22)


def test_stock_ending_lines() -> None:
    """000 §End of a round: a round ended by the stock is not scored; 002 §Going out: when
    the stock runs out everyone scores the cards in hand."""
    end = hr.RoundEnd.of([("KS", True), ("5H", False)], went_out=None)
    lines = hr.score_round(end, LEVANT).breakdown
    assert {(line.basis, line.score) for line in lines} == {(ScoreBasis.NOT_SCORED, 0)}
    assert _ids(lines[0].rules) == ["levant.stock.exhausted"]
    romme = hr.score_round(end, hr.MeldRules.of(hr.rulesets.romme))
    assert romme.scores == (10, 5)
    assert _ids(romme.breakdown[0].rules) == ["romme.stock.exhausted", "romme.scoring.cards"]


def test_referee_round_score_gives_the_breakdown() -> None:
    """The 000 §Scoring example again, as the referee answers it."""
    reply = answer(
        {
            "rules": "levant",
            "indicator": "8C",
            "ask": "round_score",
            "went_out": 0,
            "finish": "hand",
            "players": [
                {"hand": [], "opened": True},
                {"hand": ["KS", "7D", "AC"], "opened": True},
                {"hand": ["5H"], "opened": False},
            ],
        }
    )
    assert reply["scores"] == [-60, 64, 200] and reply["factor"] == 2
    anna = reply["breakdown"][1]
    assert anna == {
        "seat": 1,
        "basis": "cards",
        "cards": ["KS", "7D", "AC"],
        "card_values": [10, 7, 15],
        "cards_total": 32,
        "opened": True,
        "base": 32,
        "factors": [{"name": "hand", "factor": 2, "rule_id": "levant.scoring.hand"}],
        "score": 64,
        "rule_ids": ["levant.scoring.cards"],
    }
    assert "team_breakdown" not in reply


def test_referee_team_breakdown() -> None:
    reply = answer(
        {
            "rules": "partnership",
            "ask": "round_score",
            "went_out": 0,
            "players": [
                {"hand": [], "opened": True},
                {"hand": ["KS"], "opened": True},
                {"hand": ["2C"], "opened": True},
                {"hand": ["5D"], "opened": False},
            ],
        }
    )
    # 004: each partner scores by the table (a player who never opened pays a flat 100,
    # whatever they hold), the team adds them: -30 + 2 and 10 + 100
    assert reply["team_scores"] == [-28, 110]
    assert reply["team_breakdown"] == [
        {
            "seats": [0, 2],
            "scores": [-30, 2],
            "total": -28,
            "rule_id": "partnership.scoring.teams-sum",
        },
        {
            "seats": [1, 3],
            "scores": [10, 100],
            "total": 110,
            "rule_id": "partnership.scoring.teams-sum",
        },
    ]


@pytest.mark.parametrize("preset", sorted(hr.PRESETS))
def test_breakdowns_of_played_rounds_add_up(preset: str) -> None:
    """Whatever the round, each line multiplies out to the score, and cites its own preset."""
    ruleset = hr.PRESETS[preset]
    page = rulebook.page_of(ruleset)
    for seed in range(4):
        game = hr.Round.deal(ruleset, player_counts(ruleset)[-1], seed=seed)
        *_, last = random_game(game, random.Random(seed))
        if last.outcome is None:
            continue
        score = last.outcome.score
        assert tuple(line.score for line in score.breakdown) == score.scores
        for line in score.breakdown:
            factor = 1
            for f in line.factors:
                factor *= f.factor
            assert line.base * factor == line.score
            assert sum(line.values) == line.cards_total
            cited = [c.id for c in line.rules] + [f.rule.id for f in line.factors]
            assert cited and all(i.startswith(f"{page}.") for i in cited)
            assert set(cited) <= rulebook.rule_ids()


# --- ends that the rules make impossible ---------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: hr.RoundEnd.of([("",), ("KS", True)], went_out=0),
            "players[0] must be a pair (cards, opened) or a triple (cards, opened, demoted), "
            "not ('',)",
        ),
        (
            lambda: hr.RoundEnd.of([("", True), ("KS", True)], went_out="0"),
            "went_out (the seat that went out, or None) must be int, not str",
        ),
        (
            # "no" is a non-empty string: read as a truth value it would say opened
            lambda: hr.RoundEnd.of([("", True), ("KS", "no")], went_out=0),
            "players[1].opened must be bool, not str",
        ),
        (
            lambda: hr.RoundEnd.of([("", True), ("KS", True)], 0, teams=[[0], [True]]),
            "each seat of a team must be int, not bool",
        ),
        (
            lambda: hr.RoundEnd.of([("", True), ("KS", True)], 0, teams=[[0, 1]]),
            "the teams must be two or more, each of one seat or more",
        ),
        (
            lambda: hr.RoundEnd((hr.PlayerEnd(("KS",), True),), None),  # type: ignore[arg-type]
            "each card of players[0].hand must be Card, not str",
        ),
    ],
)
def test_a_wrongly_typed_round_end_names_the_field(make: Any, message: str) -> None:
    with pytest.raises(hr.InvalidStateError) as refused:
        make()
    assert str(refused.value) == message


def _end(*hands: str, opened: bool = True) -> hr.RoundEnd:
    return hr.RoundEnd.of([("", True), *((h, opened) for h in hands)], went_out=0)


# Each end below is refused by the rules, by the library and the referee alike: Levant Hand
# is for 2 to 4 players and Rommé for 2 to 6 (000, 002 §Overview); a two-pack deck holds two
# of each card (000: 106 cards), the 8♣ turned as the indicator being one of them; without
# jokers (000 §Variants) the deck holds none.
IMPOSSIBLE: list[tuple[str, hr.RoundEnd, hr.MeldRules, str]] = [
    (
        "one Levant player",
        hr.RoundEnd.of([("", True)], went_out=0),
        LEVANT,
        "levant is for 2 to 4 players, each for themselves, not 1",
    ),
    (
        "seven Rommé players",
        _end(*["2H"] * 6),
        hr.MeldRules.of(hr.rulesets.romme),
        "romme is for 2 to 6 players, each for themselves, not 7",
    ),
    (
        "three K♠ in one hand",
        _end("KS KS KS"),
        LEVANT,
        "the hands, the cards melded, the last discard and the indicator hold 3 × K♠, "
        "but the deck has only 2",
    ),
    (
        "two 8♣ held beside the 8♣ indicator",
        _end("8C", "8C"),
        LEVANT,
        "the hands, the cards melded, the last discard and the indicator hold 3 × 8♣, "
        "but the deck has only 2",
    ),
    (
        "a joker in a deck without jokers",
        _end("JK"),
        hr.MeldRules.of(hr.build("levant", ["no_jokers"]), "8C"),
        "the hands, the cards melded, the last discard and the indicator hold 1 × JK, "
        "but the deck has none",
    ),
]


@pytest.mark.parametrize(("end", "rules", "message"), [c[1:] for c in IMPOSSIBLE])
def test_score_round_refuses_what_the_rules_make_impossible(
    end: hr.RoundEnd, rules: hr.MeldRules, message: str
) -> None:
    with pytest.raises(hr.InvalidStateError) as refused:
        hr.score_round(end, rules)
    assert str(refused.value) == message


@pytest.mark.parametrize(("end", "rules", "message"), [c[1:] for c in IMPOSSIBLE])
def test_the_referee_refuses_the_same_ends(
    end: hr.RoundEnd, rules: hr.MeldRules, message: str
) -> None:
    ruleset = rules.ruleset
    question: dict[str, Any] = {
        "rules": ruleset.name,
        "variants": list(ruleset.variants),
        "ask": "round_score",
        "went_out": end.went_out,
        "players": [{"hand": [c.ascii for c in p.hand], "opened": p.opened} for p in end.players],
    }
    if rules.wilds.indicator is not None:
        question["indicator"] = rules.wilds.indicator.ascii
    error = answer(question)["error"]
    assert error["code"] == "BAD_FIELD"
    assert error["message"].endswith(message)


def test_the_referee_names_wrong_types_in_json_terms() -> None:
    """A JSON question is told what JSON value was wanted: true or false, a number, null."""
    players = [{"hand": [], "opened": True}, {"hand": ["KS"], "opened": "no"}]
    question = {"rules": "classic", "ask": "round_score", "went_out": 0, "players": players}
    assert answer(question)["error"] == {
        "code": "BAD_FIELD",
        "message": "'players'[1].opened must be true or false, not \"no\"",
    }
    players[1]["opened"] = True
    for went_out, shown in (("0", '"0"'), (True, "true"), (1.0, "1.0")):
        assert answer({**question, "went_out": went_out})["error"] == {
            "code": "BAD_FIELD",
            "message": f"'went_out' must be a seat number or null, not {shown}",
        }
    wrong_seat = answer({**question, "teams": [[0], [True]]})["error"]
    assert wrong_seat["code"] == "BAD_FIELD"
    assert "each a list of seat numbers" in wrong_seat["message"]
    # the library's own check of the same, for Python callers, names Python types
    with pytest.raises(hr.InvalidStateError, match="must be bool, not str"):
        hr.RoundEnd((hr.PlayerEnd(), hr.PlayerEnd((hr.parse_card("KS"),), "no")), 0)  # type: ignore[arg-type]


def test_only_the_seat_that_went_out_holds_no_card() -> None:
    """The round ends the moment a hand empties (004 §Round scoring; 000, 002, 003 end it
    with that player going out), so no other seat can end it with an empty hand."""
    king = (hr.parse_card("KS"),)
    with pytest.raises(hr.InvalidStateError, match="seat 1 holds no card, but seat 0 went out"):
        hr.RoundEnd((hr.PlayerEnd(), hr.PlayerEnd()), went_out=0)
    with pytest.raises(hr.InvalidStateError, match="seat 0 holds no card, but the stock ended"):
        hr.RoundEnd((hr.PlayerEnd(), hr.PlayerEnd(king)), went_out=None)
    assert hr.RoundEnd((hr.PlayerEnd(), hr.PlayerEnd(king)), went_out=0).went_out == 0
    for went_out, players in (
        (0, [{"hand": [], "opened": True}, {"hand": [], "opened": True}]),
        (None, [{"hand": ["KS"], "opened": True}, {"hand": [], "opened": True}]),
    ):
        question = {"rules": "classic", "ask": "round_score", "went_out": went_out}
        reply = answer({**question, "players": players})
        assert reply["error"]["code"] == "BAD_FIELD"
        assert "seat 1 holds no card" in reply["error"]["message"]


def test_teams_are_refused_where_the_rules_have_none() -> None:
    """004 §Players: Hand Classic is everyone for themselves, so a round end that names
    teams describes no round of it; the same end scores under Hand Partnership (two teams
    of two), the team totals being the sums of its players (P7 default)."""
    players = [("", True), ("2C", True), ("5H 6H", True), ("3D", True)]
    teams = [[0, 2], [1, 3]]
    end = hr.RoundEnd.of(players, went_out=0, teams=teams)
    with pytest.raises(hr.InvalidStateError, match="each for themselves, without teams"):
        hr.score_round(end, hr.MeldRules.of(hr.rulesets.classic))
    team_scores = hr.score_round(end, hr.MeldRules.of(hr.rulesets.partnership)).team_scores
    assert team_scores == (-30 + 11, 2 + 3)
    question = {"rules": "classic", "ask": "round_score", "went_out": 0, "teams": teams}
    players_json = [{"hand": cards.split(), "opened": opened} for cards, opened in players]
    reply = answer({**question, "players": players_json})
    assert reply["error"] == {
        "code": "BAD_FIELD",
        "message": "classic is played each for themselves, without teams",
    }


# --- demoted cards: wild cards taken from the discard pile ----------------------------


def test_a_demoted_wild_left_in_hand_costs_a_natural_ace() -> None:
    """000 §Exchanging wild cards ("Discarded wild cards": a wild Ace taken from the pile
    "counts only as a natural Ace of its suit") and RULES-MATRIX L5 (its penalty: a
    natural Ace, 11). Indicator 8♣ makes A♣ wild (15); one copy here is demoted, one not:
    11 + 15 + 10 = 36, the demoted copy's line saying 11."""
    end = hr.RoundEnd.of([("", True), ("AC AC KD", True, "AC")], went_out=0)
    line = hr.score_round(end, LEVANT).breakdown[1]
    assert line.values == (11, 15, 10)
    assert line.score == 36
    # the same hand with neither copy demoted: 15 + 15 + 10
    plain = hr.RoundEnd.of([("", True), ("AC AC KD", True)], went_out=0)
    assert hr.score_round(plain, LEVANT).scores[1] == 40
    assert hr.card_penalty(hr.parse_card("AC"), LEVANT, demoted=True) == 11


@pytest.mark.parametrize(
    ("end", "rules", "message"),
    [
        (
            lambda: hr.RoundEnd.of([("", True), ("KD", True, "AC")], went_out=0),
            LEVANT,
            "players\\[1\\].demoted names A♣, which the hand K♦ does not hold",
        ),
        (
            # Rommé demotes nothing (002: a discarded joker stays wild)
            lambda: hr.RoundEnd.of([("", True), ("JK 5H", True, "JK")], went_out=0),
            hr.MeldRules.of(hr.rulesets.romme),
            "JK is named as taken from the discard pile and demoted, but these rules demote",
        ),
        (
            lambda: hr.RoundEnd.of(
                [("", False), ("2S", True)],
                went_out=0,
                hand=True,
                melded="2H 3H 4H",
                melded_demoted="KH",
            ),
            LEVANT,
            "melded_demoted names K♥: a card taken from the discard pile plays as an Ace",
        ),
        (
            # A♥ is natural under indicator 8♣, and no joker was melded: nothing demoted
            lambda: hr.RoundEnd.of(
                [("", False), ("2S", True)],
                went_out=0,
                hand=True,
                melded="AH 2H 3H",
                melded_demoted="AH",
            ),
            LEVANT,
            "melded_demoted names A♥, but the cards melded hold no card taken from the",
        ),
        (
            lambda: hr.RoundEnd.of(
                [("", True), ("2S", True)],
                went_out=0,
                last_discard="KS",
                last_discard_demoted=True,
            ),
            LEVANT,
            "the last discard K♠ is named as demoted, but these rules demote no such card",
        ),
        (
            lambda: hr.RoundEnd.of(
                [("", True), ("2S", True)], went_out=0, last_discard_demoted=True
            ),
            LEVANT,
            "last_discard_demoted is set, but there is no last discard",
        ),
    ],
)
def test_impossible_demoted_cards_are_refused(end: Any, rules: hr.MeldRules, message: str) -> None:
    """A card can be demoted only where the rules demote it (000; none in 002), only an
    Ace is played by one, and only a card held or melded can be named."""
    with pytest.raises(hr.InvalidStateError, match=message):
        hr.score_round(end(), rules)


def test_the_referee_reads_demoted_cards() -> None:
    """The round_score question's ``demoted``, ``melded_demoted`` and
    ``last_discard_demoted`` fields, with the expectations of the tests above: a demoted
    A♣ left in hand costs 11 (matrix L5), and a melded one counts as a natural black Ace,
    so red cards beside it are no one-colour Hand (000 Egyptian bonuses; matrix L12 c):
    the Hand's ×2 alone, 2 × 2 for the 2♠ left."""
    left = {
        "rules": "levant",
        "indicator": "8C",
        "ask": "round_score",
        "went_out": 0,
        "players": [
            {"hand": [], "opened": True},
            {"hand": ["AC", "KD"], "opened": True, "demoted": ["AC"]},
        ],
    }
    assert answer(left)["scores"] == [-30, 21]
    melded = {
        "rules": "levant",
        "variants": ["egyptian_bonuses"],
        "indicator": "8C",
        "ask": "round_score",
        "went_out": 0,
        "finish": "hand",
        "melded": ["AH", "AD", "AC", "2H", "3H", "4H"],
        "players": [{"hand": [], "opened": False}, {"hand": ["2S"], "opened": True}],
    }
    # without the field, the A♣ is a neutral wild and the rest is red: ×2 × 2 (colour)
    assert answer(melded)["factor"] == 4
    reply = answer({**melded, "melded_demoted": ["AC"]})
    assert (reply["scores"], reply["factor"]) == ([-60, 4], 2)
    wrong = answer({**melded, "last_discard_demoted": "yes"})
    assert wrong["error"]["code"] == "BAD_FIELD"
    assert wrong["error"]["message"] == "'last_discard_demoted' must be true or false, not \"yes\""


@pytest.mark.parametrize("teams", [[[0, 1, 2], [3]], [[0], [1], [2], [3]]])
@pytest.mark.parametrize("preset", ["partnership", "saudi_partnership"])
def test_teams_are_the_rules_own_two_of_two(preset: str, teams: list[list[int]]) -> None:
    """004 §What you need and 000 §Variants (Partnership Hand): four players in two teams of
    two. A split of three and one, or four teams of one, was scored as if a round could end
    so; the seats may be numbered otherwise (0 and 1 against 2 and 3), the teams' sizes not."""
    players = [("", True), ("5H", True), ("2C", True), ("3C", True)]
    rules = hr.MeldRules.of(hr.build(preset, []))
    given = " and ".join(str(len(team)) for team in teams)
    with pytest.raises(hr.InvalidStateError, match=f"in teams of 2 and 2, not {given}$"):
        hr.score_round(hr.RoundEnd.of(players, 0, teams=teams), rules)
    other = hr.score_round(hr.RoundEnd.of(players, 0, teams=[[0, 1], [2, 3]]), rules)
    assert other.team_scores is not None and len(other.team_scores) == 2
