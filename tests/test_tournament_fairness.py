"""Fair, repeatable tournaments: duplicate deals, the rules' match lengths, and the summary's
intervals checked against numbers computed by hand."""

from __future__ import annotations

import math

import attrs
import pytest

import hand_rummy as hr
from hand_rummy.cli import main
from hand_rummy.tournament import MatchRecord, RoundRecord, Tournament, TournamentError, run
from hand_rummy.tournament.intervals import mean_interval, t_quantile, wilson
from hand_rummy.tournament.summary import summarise

# --- duplicate deals ------------------------------------------------------------------------


def test_every_deal_is_played_under_every_seating() -> None:
    t = Tournament(
        "classic", players=3, bots="greedy,random,random", matches=6, seed=4, duplicate=True
    )
    assert (t.seatings, t.deals) == (3, 2)
    result = run(attrs.evolve(t, rounds=3))
    by_deal: dict[int, list[MatchRecord]] = {}
    for record in result.matches:
        by_deal.setdefault(record.deal, []).append(record)
    assert sorted(by_deal) == [0, 1]
    for records in by_deal.values():
        # one match per seating, and greedy in every seat once
        assert sorted(r.rotation for r in records) == [0, 1, 2]
        assert sorted(r.seats.index("greedy") for r in records) == [0, 1, 2]
        # the same deal: the match seed, the first dealer and the first round's cards
        assert len({r.seed for r in records}) == 1
        assert len({r.first_dealer for r in records}) == 1
        assert len({r.rounds[0].seed for r in records}) == 1
        starts = {t.new_match(r.seed).current.start for r in records}  # type: ignore[union-attr]
        assert len(starts) == 1
    assert by_deal[0][0].seed != by_deal[1][0].seed


def test_each_bot_plays_the_same_hands_as_the_other_in_a_duplicate_deal() -> None:
    """With two bots at two seats, the first round's hands are swapped between the bots."""
    t = Tournament("levant", players=2, bots="greedy,random", matches=2, duplicate=True)
    first, second = (t.new_match(table.seed) for table in t.tables())
    assert first.current is not None and second.current is not None
    assert first.current.start == second.current.start  # greedy held seat 0's hand, then random


def test_duplicate_matches_must_fill_every_seating() -> None:
    with pytest.raises(TournamentError, match=r"multiple of 2 \(not 5: 4 or 6\?\)"):
        Tournament("levant", players=4, bots="greedy,random", matches=5, duplicate=True)
    # below the first multiple there is one to offer, not "2 or 2"
    with pytest.raises(TournamentError, match=r"multiple of 2 \(not 1: 2\?\)"):
        Tournament("levant", players=4, bots="greedy,random", matches=1, duplicate=True)
    # a list that repeats itself has fewer seatings than names
    t = Tournament("levant", players=4, bots="greedy,random,greedy,random", matches=2)
    assert t.seatings == 2


def test_one_and_two_workers_give_the_same_duplicate_results() -> None:
    t = Tournament(
        "saudi", players=3, bots="greedy,random", matches=4, seed=9, duplicate=True, rounds=3
    )
    alone, pooled = run(t), run(t, workers=2)
    assert [m.without_times() for m in alone.matches] == [m.without_times() for m in pooled.matches]
    a, b = alone.summary().to_json(), pooled.summary().to_json()
    for doc in (a, b):
        for key in ("seconds", "decisions_per_second"):
            del doc[key]
        for line in doc["bots"].values():
            del line["ms_per_decision"]
    assert a == b


# --- match lengths ----------------------------------------------------------------------------


def test_the_app_allows_3_5_7_or_9_rounds_and_nothing_else_unasked() -> None:
    for rounds in (3, 5, 7, 9):
        assert Tournament("classic", players=2, bots="greedy", matches=1, rounds=rounds)
    with pytest.raises(TournamentError, match="classic matches last 3, 5, 7 or 9 rounds, not 6"):
        Tournament("classic", players=2, bots="greedy", matches=1, rounds=6)
    with pytest.raises(TournamentError, match=r"levant matches end after 7 scored rounds"):
        Tournament("levant", players=2, bots="greedy", matches=1, rounds=3)
    custom = Tournament(
        "classic", players=2, bots="greedy", matches=1, rounds=6, custom_length=True
    )
    assert not custom.follows_rules
    assert Tournament("classic", players=2, bots="greedy", matches=1, rounds=5).follows_rules
    assert Tournament("gulf", players=4, bots="greedy", matches=1).follows_rules


def test_the_summary_says_when_the_matches_did_not_follow_the_end_rule() -> None:
    custom = Tournament(
        "classic", players=2, bots="greedy,random", matches=2, rounds=2, custom_length=True
    )
    result = run(custom)
    assert all(len(m.rounds) == 2 for m in result.matches)
    table = result.summary().table()
    assert (
        "custom length: the matches ended after 2 rounds, not as classic's own end rule says "
        "(after 7 rounds)" in table
    )
    own = run(attrs.evolve(custom, rounds=3, custom_length=False)).summary()
    assert not any("custom length" in n for n in own.notes())


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_the_command_line_refuses_a_length_the_rules_do_not_allow(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [command, "--rules", "classic", "--players", "2", "--rounds", "6"]
    if command == "simulate":
        args += ["--matches", "1"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "--rounds 6: classic matches last 3, 5, 7 or 9 rounds, not 6" in err
    assert "(--custom-length)" in err


# --- intervals, against numbers worked out by hand -------------------------------------------


def test_wilson_intervals() -> None:
    z = 1.959963984540054
    # 8 of 10: centre (0.8 + z²/20) / (1 + z²/10), half z/(1 + z²/10) √(0.016 + z²/400)
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z / (1 + z * z / 10) * math.sqrt(0.8 * 0.2 / 10 + z * z / 400)
    w = wilson(8, 10)
    assert w.estimate == 0.8 and w.n == 10
    assert w.low == pytest.approx(centre - half) == pytest.approx(0.4902, abs=1e-4)
    assert w.high == pytest.approx(centre + half) == pytest.approx(0.9433, abs=1e-4)
    # none and all of 10: z²/(n + z²) from the edge
    assert wilson(0, 10).low == 0 and wilson(0, 10).high == pytest.approx(z * z / (10 + z * z))
    assert wilson(10, 10).high == 1 and wilson(10, 10).low == pytest.approx(10 / (10 + z * z))
    # a fractional count (shared wins), and no trials at all
    assert wilson(2.5, 5).estimate == 0.5
    assert wilson(2.5, 5).low == pytest.approx(1 - wilson(2.5, 5).high)
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("df", "quantile"),
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (10, 2.2281), (30, 2.0423), (120, 1.9799)],
)
def test_student_t_quantiles_match_the_tables(df: int, quantile: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(quantile, abs=1e-4)
    assert t_quantile(0.025, df) == pytest.approx(-quantile, abs=1e-4)


def test_mean_intervals() -> None:
    # 1, 2, 3, 4: mean 2.5, sd √(5/3), half-width t(0.975, 3) · sd / 2
    m = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 3.182446305284263 * math.sqrt(5 / 3) / 2
    assert m.estimate == 2.5
    assert (m.low, m.high) == (pytest.approx(2.5 - half), pytest.approx(2.5 + half))
    assert math.isinf(mean_interval([7.0]).high) and mean_interval([]).n == 0


def _record(index: int, seats: tuple[str, ...], totals: tuple[int, ...], deal: int) -> MatchRecord:
    winner = min(range(len(totals)), key=lambda s: totals[s])
    game = RoundRecord(1, 0, 0, "went_out", True, totals, None, winner, (1, 1), (0.5, 0.25))
    return MatchRecord(index, deal, index % 2, deal, seats, 0, totals, None, (winner,), (game,))


def test_the_summary_by_hand() -> None:
    """Two bots, four matches; the figures below are worked out on paper."""
    settings = Tournament("levant", players=2, bots="greedy,random", matches=4).describe()
    settings["bots"] = ["A", "B"]
    records = [
        _record(0, ("A", "B"), (-30, 70), 0),  # A - B = -100, A wins
        _record(1, ("B", "A"), (-30, 50), 1),  # A - B = 80, B wins
        _record(2, ("A", "B"), (10, 40), 2),  # -30, A wins
        _record(3, ("B", "A"), (60, -30), 3),  # -90, A wins
    ]
    summary = summarise(settings, records)
    a, b = summary.bots
    assert (a.matches, a.seats, a.wins) == (4, 4, 3.0)
    assert a.win_rate == wilson(3, 4) and b.win_rate == wilson(1, 4)
    assert a.mean_total.estimate == (-30 + 50 + 10 - 30) / 4
    assert a.mean_total == mean_interval([-30, 50, 10, -30])
    (diff,) = summary.differences
    assert (diff.a, diff.b) == ("A", "B")
    assert diff.difference == mean_interval([-100, 80, -30, -90])
    assert diff.difference.estimate == -35.0
    assert diff.verdict() == "no measurable difference"  # the interval holds 0
    assert a.decisions == 4 and a.ms_per_decision == pytest.approx(375.0)  # (.5+.25+.5+.25)/4


def test_duplicate_units_average_the_seatings_of_a_deal() -> None:
    settings = Tournament(
        "levant", players=2, bots="greedy,random", matches=4, duplicate=True
    ).describe()
    records = [
        _record(0, ("greedy", "random"), (-30, 70), 0),
        _record(1, ("random", "greedy"), (-30, 50), 0),
        _record(2, ("greedy", "random"), (10, 40), 1),
        _record(3, ("random", "greedy"), (60, -30), 1),
    ]
    summary = summarise(settings, records)
    assert summary.units == 2 and "over 2 deals" in summary.table()
    greedy, _ = summary.bots
    # deal 0: greedy's mean (-30 + 50)/2 = 10, wins 1/2; deal 1: (10 - 30)/2 = -10, wins 1
    assert greedy.mean_total == mean_interval([10.0, -10.0])
    assert greedy.win_rate == wilson(1.5, 2)
    (diff,) = summary.differences
    assert diff.difference == mean_interval(
        [((-30 - 70) + (50 + 30)) / 2, ((10 - 40) + (-30 - 60)) / 2]
    )


def test_the_table_explains_its_columns_and_measured_differences() -> None:
    t = Tournament("gulf", players=4, bots="greedy,random", matches=6, seed=2)
    table = run(t).summary().table()
    assert "mean total: its match total in penalty points (lower is better)" in table
    assert "win %: share of its matches won, with its 95% Wilson interval" in table
    assert "greedy - random" in table and "greedy scores fewer points than random" in table
    assert "matches end when a total reaches 200; intervals are 95%, over 6 matches" in table
    assert hr.rulesets.gulf.match.length == 200
