"""hand_rummy.tournament from Python: bots by name, reference, factory and entry point; bots
that fail, reported with their seat, the error and the position; the same results with any
number of workers."""

from __future__ import annotations

import functools
import pickle
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import hand_rummy as hr
import sample_bots
from hand_rummy.serialize import round_from_json
from hand_rummy.tournament import (
    BackendError,
    BotLoadError,
    Entrant,
    Failure,
    Tournament,
    TournamentError,
    entrant,
    parse_bots,
    run,
)
from hand_rummy.tournament.entrants import resolve


def quick(bots: object = "greedy,random", **changes: object) -> Tournament:
    """Short Hand Classic matches between two players."""
    settings: dict[str, object] = {
        "players": 2,
        "bots": bots,
        "matches": 4,
        "seed": 3,
        "rounds": 1,
        "custom_length": True,
    }
    settings.update(changes)
    return Tournament("classic", **settings)  # type: ignore[arg-type]


def comparable(result: object) -> list[object]:
    """The records without their times."""
    return [m.without_times() for m in result.matches]  # type: ignore[attr-defined]


# --- naming the bots ------------------------------------------------------------------------


def test_bots_by_built_in_name_reference_and_factory() -> None:
    assert entrant("Greedy").name == "greedy"
    assert repr(entrant("random").make(4)) == "RandomBot(seed=4)"
    assert repr(entrant("hand_rummy.bots:GreedyBot").make(9)) == "GreedyBot(seed=9)"
    # a class without a seed, a factory function, a partial
    assert isinstance(entrant("sample_bots:SeedlessBot").make(1), sample_bots.SeedlessBot)
    drawer = entrant(sample_bots.drawing_bot)
    assert drawer.name == "drawing_bot"
    assert drawer.make(2).greedy.seed == 2  # type: ignore[attr-defined]
    partial = entrant(functools.partial(hr.GreedyBot))
    assert partial.name == "GreedyBot" and repr(partial.make(5)) == "GreedyBot(seed=5)"
    assert Entrant("mine", hr.RandomBot).make(1).seed == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("smart", "unknown bot 'smart'; the bots are greedy, random"),
        ("", "unknown bot '(empty)'"),
        ("no_such_module:Bot", "cannot import 'no_such_module'"),
        ("sample_bots:Missing", "module 'sample_bots' has no 'Missing'"),
        ("sample_bots:FAIL_AT", "is a int, not a class or a function"),
        ("sample_bots:", "write a reference as package.module:Name"),
    ],
)
def test_a_bot_that_cannot_be_found_is_named_in_the_error(text: str, message: str) -> None:
    with pytest.raises(BotLoadError, match="--bots: ") as err:
        parse_bots(f"greedy,{text}", 4)
    assert message in str(err.value)


def test_a_factory_that_makes_no_bot_is_refused_when_the_bot_is_made() -> None:
    result = run(quick("sample_bots:NotABot,greedy"))
    (failure,) = result.failures
    assert failure.kind == "setup" and failure.seat == 0
    assert "made a NotABot, which has no choose(view) method" in failure.message
    assert result.matches == () and result.stopped


def test_a_short_list_is_repeated_round_the_table_and_a_long_one_refused() -> None:
    t = Tournament("levant", players=4, bots="greedy,random,random", matches=3)
    assert [table.seats for table in t.tables()] == [
        ("greedy", "random", "random", "greedy"),
        ("random", "random", "greedy", "random"),
        ("random", "greedy", "random", "random"),
    ]
    with pytest.raises(BotLoadError, match="3 bots for 2 seats"):
        parse_bots("greedy,random,random", 2)
    with pytest.raises(TournamentError, match="3 bots for 2 seats"):
        Tournament("levant", players=2, bots="greedy,random,random", matches=1)


def test_two_bots_of_one_name_must_be_the_same_bot() -> None:
    same = Tournament(
        "levant", players=2, bots=[hr.GreedyBot, "hand_rummy.bots:GreedyBot"], matches=1
    )
    assert same.names == ("GreedyBot", "hand_rummy.bots:GreedyBot")

    with pytest.raises(TournamentError, match=r"name them apart with Entrant\(name, factory\)"):
        Tournament(
            "levant",
            players=2,
            bots=[Entrant("mine", hr.GreedyBot), Entrant("mine", hr.RandomBot)],
            matches=1,
        )


def _install_entry_point(root: Path, name: str, target: str) -> None:
    info = root / "fake_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-bots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[hand_rummy.bots]\n{name} = {target}\n")


def test_bots_that_other_packages_register_under_the_entry_point_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install_entry_point(tmp_path, "seedless", "sample_bots:SeedlessBot")
    monkeypatch.syspath_prepend(str(tmp_path))
    resolve.cache_clear()
    try:
        (bot,) = parse_bots("seedless", 2)
        assert bot.name == "seedless"
        assert isinstance(bot.make(1), sample_bots.SeedlessBot)
        with pytest.raises(BotLoadError, match="the bots are greedy, random, seedless"):
            entrant("smart")
        result = run(quick("seedless,greedy", matches=2))
        assert [m.seats for m in result.matches] == [("seedless", "greedy"), ("greedy", "seedless")]
    finally:
        resolve.cache_clear()


# --- a bot that fails -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bot", "kind", "message"),
    [
        ("RaisingBot", "error", "ValueError: the bot gave up"),
        ("IllegalBot", "illegal", "is not legal now: "),
        ("WordBot", "illegal", "returned 'draw', which is not an action"),
        # the runner's own message once failed on these, ending the run with a traceback
        ("UnreadableErrorBot", "error", "_UnreadableError: (its message could not be read)"),
        (
            "UnprintableChoiceBot",
            "illegal",
            "returned an object of type _Unprintable whose repr() failed, which is not an action",
        ),
    ],
)
def test_a_failing_bot_is_reported_with_its_seat_the_error_and_the_position(
    bot: str, kind: str, message: str
) -> None:
    t = quick(f"greedy,sample_bots:{bot}")
    result = run(t)
    (failure,) = result.failures
    assert isinstance(failure, Failure) and result.stopped and result.matches == ()
    assert (failure.match, failure.seat, failure.bot) == (0, 1, f"sample_bots:{bot}")
    assert failure.kind == kind and message in failure.message
    assert failure.round == 1 and failure.decision == sample_bots.FAIL_AT
    assert f"seat 1 (sample_bots:{bot})" in failure.describe()
    # the position is the round just before the failing decision, as a round document
    assert failure.position is not None
    game = round_from_json(failure.position)
    assert game.turn == 1 and not game.is_over
    assert sum(1 for _ in game.history) >= sample_bots.FAIL_AT
    if kind == "error":
        assert "Traceback" in failure.detail
        assert ("the bot gave up" in failure.detail) == (bot == "RaisingBot")
    if bot == "IllegalBot":
        assert failure.action is not None and failure.action.startswith("discard ")
        assert "CARD_NOT_IN_HAND: " in failure.detail  # the referee's code for each reason


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_exits_is_reported_as_a_failure(workers: int) -> None:
    """SystemExit from a bot ended the whole run with the bot's exit code (on Ray, crashed
    the worker, and Ray tried again)."""
    result = run(quick("greedy,sample_bots:ExitingBot", matches=2), workers=workers)
    (failure,) = result.failures
    assert (failure.kind, failure.seat, failure.message) == ("error", 1, "SystemExit: 3")
    assert failure.decision == sample_bots.FAIL_AT and "Traceback" in failure.detail


def test_a_match_that_would_never_end_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under 000 an unscored round does not count, so two players who never lay down played
    one Levantine match for ever (simulate hung, and nothing reached --out); a stock renewed
    without end does the same to one Rommé round. The limits are made small here."""
    from hand_rummy.tournament import playing  # noqa: PLC0415

    monkeypatch.setattr(playing, "MAX_UNSCORED_IN_A_ROW", 3)
    passive = Tournament("levant", players=2, bots="sample_bots:PassiveBot", matches=1)
    (failure,) = run(passive).failures
    assert (failure.kind, failure.round) == ("endless", 4)
    assert failure.message.startswith("3 unscored rounds in a row: the match may never end")
    assert "was to move when the runner gave the match up" in failure.describe()
    monkeypatch.setattr(playing, "MAX_ROUND_DECISIONS", 400)
    fresh = Tournament(
        hr.build("romme", ["fresh_stock"]), players=2, bots="sample_bots:PassiveBot", matches=1
    )
    (failure,) = run(fresh).failures
    assert (failure.kind, failure.round) == ("endless", 1)
    assert failure.message.startswith("round 1 has taken 400 decisions without ending")
    with pytest.raises(TournamentError, match="a match lasts at most 10,000 rounds, not 10,001"):
        quick(rounds=10_001)


def test_the_position_of_a_failure_replays_to_the_same_choice() -> None:
    """The round document is the real position: a fresh bot given it fails the same way."""
    (failure,) = run(quick("sample_bots:IllegalBot,greedy")).failures
    assert failure.position is not None
    game = round_from_json(failure.position)
    bot = sample_bots.IllegalBot(0)
    bot.decisions = sample_bots.FAIL_AT - 1
    action = bot.choose(game.view(game.turn))
    assert str(action) == failure.action
    assert not game.check(action).ok


@pytest.mark.parametrize("bot", ["SlowBot", "StubbornBot"])
def test_a_bot_over_the_time_limit_is_stopped(bot: str) -> None:
    result = run(quick(f"sample_bots:{bot},random", matches=1, time_limit=0.1))
    (failure,) = result.failures
    assert failure.kind == "timeout" and failure.seat == 0
    assert failure.decision == sample_bots.FAIL_AT
    # the timer interrupts the bot, even one that catches every Exception
    assert failure.message == "no answer within 0.1 s"


def test_without_a_timer_the_time_limit_is_checked_when_the_bot_answers() -> None:
    """Outside the main thread no timer signal can interrupt the bot."""
    results = []
    t = quick("sample_bots:SlowBot,random", matches=1, time_limit=0.1)
    thread = threading.Thread(target=lambda: results.append(run(t)))
    thread.start()
    thread.join()
    (failure,) = results[0].failures
    assert failure.kind == "timeout"
    assert failure.message.startswith("answered after 0.5")
    assert failure.message.endswith(" s; the limit is 0.1 s")


def test_on_error_continue_leaves_the_failed_matches_out() -> None:
    t = quick("sample_bots:SometimesRaisingBot,greedy", matches=8, on_error="continue")
    result = run(t)
    failed = {f.match for f in result.failures}
    kept = {m.index for m in result.matches}
    assert failed and kept and failed | kept == set(range(8)) and not failed & kept
    assert not result.stopped
    summary = result.summary()
    assert summary.matches == len(kept)
    assert f"{len(failed)} failed (left out of the results)" in summary.table()


def test_with_duplicate_deals_a_deal_with_a_failure_is_left_out_of_every_figure() -> None:
    """The intervals left out a deal with a failed match, as the summary says, but its other
    seatings still counted in the matches, wins, spread, rounds and decisions (and the
    picture: test_report.py)."""
    t = quick("sample_bots:SeatZeroRaisingBot,greedy", matches=12, duplicate=True,
              on_error="continue")  # fmt: skip
    result = run(t)
    failed = {f.deal for f in result.failures}
    kept = [m for m in result.matches if m.deal not in failed]
    assert failed and kept and len(kept) < len(result.matches)  # a failed deal's other seating
    summary = result.summary()
    assert (summary.matches, summary.units) == (len(kept), len(kept) // 2)
    assert [b.matches for b in summary.bots] == [len(kept), len(kept)]
    assert sum(b.wins for b in summary.bots) == pytest.approx(len(kept))
    assert summary.rounds == sum(len(m.rounds) for m in kept)
    assert sum(b.decisions for b in summary.bots) == summary.decisions
    assert summary.decisions == sum(sum(m.decisions) for m in kept)


def test_on_error_stop_keeps_the_matches_before_the_first_failure() -> None:
    t = quick("sample_bots:SometimesRaisingBot,greedy", matches=8)
    everything = run(attrs_evolve(t, on_error="continue"))
    first = min(f.match for f in everything.failures)
    stopped = run(t)
    assert stopped.stopped and [f.match for f in stopped.failures] == [first]
    assert [m.index for m in stopped.matches] == list(range(first))


def attrs_evolve(t: Tournament, **changes: object) -> Tournament:
    import attrs  # noqa: PLC0415

    return attrs.evolve(t, **changes)  # type: ignore[arg-type]


# --- the same results everywhere ------------------------------------------------------------


def test_one_and_two_workers_give_the_same_records() -> None:
    t = quick("greedy,sample_bots:SeedlessBot,random", players=3, matches=6, seed=11)
    alone, pooled = run(t), run(t, workers=2)
    assert comparable(alone) == comparable(pooled)
    assert len(alone.matches) == 6 and alone.matches == pooled.matches


def test_stopping_gives_the_same_result_with_workers() -> None:
    t = quick("sample_bots:SometimesRaisingBot,greedy", matches=8)
    alone, pooled = run(t), run(t, workers=2)
    assert comparable(alone) == comparable(pooled)
    assert alone.failures == pooled.failures


def test_the_tournament_is_picklable_and_a_local_factory_is_refused_for_workers() -> None:
    t = quick(["greedy", sample_bots.drawing_bot])
    assert pickle.loads(pickle.dumps(t)) == t

    class Local(hr.RandomBot):
        pass

    with pytest.raises(TournamentError, match="cannot be sent to worker processes"):
        run(quick([Local, "greedy"]), workers=2)


def test_records_are_written_in_match_order_as_they_come() -> None:
    seen: list[int] = []
    t = quick(matches=5)
    run(t, workers=2, on_record=lambda r: seen.append(r.index))  # type: ignore[union-attr]
    assert seen == [0, 1, 2, 3, 4]


def test_a_count_given_as_text_is_shown_as_text() -> None:
    """players="2" was refused as "not 2", which reads as if 2 were wrong."""
    with pytest.raises(
        TournamentError, match="number of players must be a positive number, not '2'"
    ):
        quick(players="2")
    with pytest.raises(
        TournamentError, match="number of workers must be a positive number, not '2'"
    ):
        run(quick(), workers="2")  # type: ignore[arg-type]


def test_run_checks_its_callbacks_before_any_match() -> None:
    """on_record=5 raised TypeError ('int' object is not callable) after the first match."""
    for callback in ("on_record", "on_progress"):
        for wrong, kind in ((5, "int"), ("x", "str")):
            with pytest.raises(
                TournamentError, match=f"{callback} must be a function or None, not {kind}"
            ):
                run(quick(), **{callback: wrong})  # type: ignore[arg-type]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(TournamentError, match="is for 2 to 4 players, each for themselves, not 5"):
        quick(players=5)
    with pytest.raises(TournamentError, match="number of matches must be a positive number"):
        quick(matches=0)
    with pytest.raises(TournamentError, match="on_error is 'stop' or 'continue'"):
        quick(on_error="ignore")
    with pytest.raises(TournamentError, match="time limit must be positive"):
        quick(time_limit=0)
    with pytest.raises(TournamentError, match="number of workers"):
        run(quick(), workers=0)
    # a thousand worker processes, each with its own engine, would exhaust the memory
    from hand_rummy.tournament.runner import local_workers_limit  # noqa: PLC0415

    most = local_workers_limit()
    with pytest.raises(TournamentError, match=f"at most {most} worker processes .* not 100,000"):
        run(quick(), workers=100_000)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rounds": "3"}, "the rounds of a match are a whole number, not a str"),
        ({"rounds": 3.0}, "the rounds of a match are a whole number, not a float"),
        ({"rounds": True}, "the rounds of a match are a whole number, not a bool"),
        ({"bots": None}, r"the bots are a list \(or a comma-separated string\), not a NoneType"),
        ({"custom_length": "yes"}, "custom_length is True or False, not 'yes'"),
        ({"duplicate": 1}, "duplicate is True or False, not 1"),
    ],
)
def test_settings_of_the_wrong_type_are_refused(changes: dict[str, object], message: str) -> None:
    """Some raised a bare TypeError; others were taken, played, and wrote a results file that
    the reader then refused."""
    with pytest.raises(TournamentError, match=f"^{message}$"):
        quick(**changes)


def test_an_entrant_needs_a_name_and_a_factory() -> None:
    with pytest.raises(BotLoadError, match="a bot's name is a non-empty text, not 5"):
        Entrant(5, hr.GreedyBot)  # type: ignore[arg-type]
    with pytest.raises(BotLoadError, match="a bot's name is a non-empty text, not ' '"):
        Entrant(" ", hr.GreedyBot)
    with pytest.raises(BotLoadError, match="bot 'x': its factory is a name, a reference or a"):
        Entrant("x", 7)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [None, "abc", 1.5, True])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    """None seeded the schedule from the system, so t.tables() changed from one call to the
    next and a match could not be played again; the others gave results files that the
    reader then refused."""
    with pytest.raises(TournamentError, match=r"^the seed must be a whole number, not "):
        quick(seed=seed)
    assert quick(seed=-7).tables() == quick(seed=-7).tables()


def test_too_many_matches_and_an_endless_time_limit_are_refused() -> None:
    """Ten million matches built the whole schedule before the first one (minutes,
    gigabytes); an infinite time limit crashed the timer and was blamed on a bot."""
    from hand_rummy.tournament.schedule import MAX_MATCHES, MAX_TIME_LIMIT  # noqa: PLC0415

    assert quick(matches=MAX_MATCHES).matches == MAX_MATCHES
    with pytest.raises(TournamentError, match="at most 1,000,000 matches, not 10,000,000"):
        quick(matches=10_000_000)
    assert quick(time_limit=MAX_TIME_LIMIT).time_limit == MAX_TIME_LIMIT
    for limit in (float("inf"), 1e300, MAX_TIME_LIMIT + 1):
        with pytest.raises(TournamentError, match=r"time limit is at most 86400 seconds"):
            quick(time_limit=limit)
    with pytest.raises(TournamentError, match="time limit must be positive, not nan"):
        quick(time_limit=float("nan"))
    with pytest.raises(TournamentError, match="time limit is a number of seconds, not a str"):
        quick(time_limit="1")


def test_the_schedule_is_read_as_the_run_goes() -> None:
    """The first match of the longest tournament starts at once, in this process or in
    workers: the schedule is not built whole beforehand."""
    from hand_rummy.tournament.schedule import MAX_MATCHES  # noqa: PLC0415

    t = quick(matches=MAX_MATCHES)
    first = next(t.iter_tables())
    assert (first.index, first.deal, first.seats) == (0, 0, ("greedy", "random"))
    small = quick(matches=6, duplicate=True)
    assert tuple(small.iter_tables()) == small.tables()

    class EnoughError(Exception):
        pass

    def stop(record: object) -> None:
        raise EnoughError

    for workers in (1, 2):
        with pytest.raises(EnoughError):
            run(t, workers=workers, on_record=stop)


def test_a_deal_not_played_under_every_seating_gives_no_figures() -> None:
    """With duplicate deals a run that stopped inside the first deal has matches but no
    unit: the table printed nan for every estimate."""
    from hand_rummy.tournament import summarise  # noqa: PLC0415

    t = quick(matches=4, duplicate=True)
    result = run(t)
    summary = summarise(t.describe(), result.matches[:1])
    table = summary.table()
    assert summary.units == 0 and "nan" not in table
    assert re.search(r"\n  greedy - random +- +-  not measured\n", table)
    assert "\ngreedy         1       1      -              -          -" in table


# --- a backend that fails -------------------------------------------------------------------


def test_a_worker_process_killed_ends_the_run_with_a_backend_error() -> None:
    """A worker killed under the run gave BrokenProcessPool, a traceback that the command
    line reported as a bot failure (exit 1)."""
    t = quick("sample_bots:WorkerKillingBot,greedy", matches=8)
    seen: list[int] = []
    with pytest.raises(BackendError, match=r"^a worker process ended .*; the run cannot go on$"):
        run(t, workers=2, on_record=lambda r: seen.append(r.index))  # type: ignore[union-attr]
    assert seen == list(range(len(seen)))  # what was played before it, in order


def test_a_bot_the_workers_cannot_import_is_a_tournament_error() -> None:
    """A bot defined in ``python -c`` pickles by name, but no worker can find it: the pool
    broke (BrokenProcessPool) without saying why."""
    script = (
        "import hand_rummy as hr\n"
        "from hand_rummy import tournament\n"
        "class Mine(hr.GreedyBot): pass\n"
        "t = tournament.Tournament('classic', players=2, bots=[Mine, 'greedy'], matches=2,"
        " rounds=3)\n"
        "try:\n"
        "    tournament.run(t, workers=2)\n"
        "except tournament.TournamentError as err:\n"
        "    print(err)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.startswith(
        "a worker process cannot load the tournament: AttributeError: Can't get attribute 'Mine'"
    )
    assert "not at the interactive prompt or in python -c" in done.stdout


def test_a_script_without_the_main_guard_is_told_so(tmp_path: Path) -> None:
    """Each worker imports the script that started the run; without the guard it starts
    the run again and ends, and the pool broke without a word of why."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from hand_rummy import tournament\n"
        "t = tournament.Tournament('classic', players=2, bots='greedy', matches=2, rounds=3)\n"
        "tournament.run(t, workers=2)\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 1
    assert (
        "BackendError: a worker process ended before it played a match (a script that runs a "
        'tournament in workers must start it under if __name__ == "__main__":'
    ) in done.stderr
