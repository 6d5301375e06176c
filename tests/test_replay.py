"""The replay page without a browser: the steps in words, the page's data, escaping, the CLI.

``tests/test_replay_browser.py`` opens the page in headless Chromium.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import stat
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import hand_rummy as hr
from hand_rummy import replay, serialize, svg
from hand_rummy.bots import play_match, play_round
from hand_rummy.cli import main

GAME = play_round(
    hr.Round.deal(hr.rulesets.levant, players=4, seed=3),
    [hr.GreedyBot(1), hr.GreedyBot(2), hr.RandomBot(3), hr.GreedyBot(4)],
)
ROMME = play_round(hr.Round.deal(hr.rulesets.romme, 3, seed=0), [hr.GreedyBot(s) for s in range(3)])


def _data(page: str) -> dict[str, object]:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page)
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


def test_one_step_for_the_deal_and_one_for_each_action() -> None:
    steps = replay.steps(GAME)
    assert len(steps) == len(GAME.history) + 1
    assert steps[0].action is None and steps[0].number == 0
    assert [s.action for s in steps[1:]] == list(GAME.history)
    assert steps[-1].game == GAME
    for before, step in itertools.pairwise(steps):
        assert step.game == before.game.apply(step.action)  # type: ignore[arg-type]
        assert step.seat == before.game.turn
        assert step.text and step.rules, step


def test_an_opening_says_its_points_against_the_bar() -> None:
    step = next(s for s in replay.steps(GAME) if isinstance(s.action, hr.LayDown))
    record = step.game.openings[-1]
    assert f"opens with {record.points} points, reaching the bar of 51" in step.text
    assert [c.id for c in step.rules][:3] == [
        "levant.opening.together",
        "levant.opening.minimum",
        "levant.opening.values",
    ]


def test_a_take_an_exchange_and_the_end_say_what_they_did() -> None:
    steps = replay.steps(ROMME, names=["Anna", "Ben", "Cem"])
    take = next(s for s in steps if isinstance(s.action, hr.TakeDiscard))
    assert take.text.startswith(f"{['Anna', 'Ben', 'Cem'][take.seat or 0]} takes 10♣ from")
    assert "romme.take.top-card" in [c.id for c in take.rules]
    # the card taken may not go straight back (unless the player held a copy already)
    rediscard = "may not be discarded again" in take.text
    assert rediscard == (
        hr.rulesets.romme.discard_take.no_rediscard and not take.game.current.had_taken
    )
    swap = next(s for s in steps if isinstance(s.action, hr.Exchange))
    assert "in place of its wild card, taking JK" in swap.text
    assert "romme.exchange.wild" in [c.id for c in swap.rules]
    last = steps[-1]
    assert last.game.outcome is not None
    assert "Scores (lower is better)" in last.text or "not scored" in last.text


def test_a_draw_names_the_card_only_privately() -> None:
    draw = next(s for s in replay.steps(GAME) if isinstance(s.action, hr.DrawStock))
    assert "drew" not in draw.text and draw.private.startswith(f"Seat {draw.seat} drew ")


def test_the_page_is_self_contained_and_small() -> None:
    page = replay.html(GAME)
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<script src" not in page and "<link" not in page
    assert len(page.encode()) < 400_000
    data = _data(page)
    assert len(data["steps"]) == len(GAME.history) + 1  # type: ignore[arg-type]


def test_each_card_and_meld_is_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # every card of every hand and every meld on the table was drawn again at every step
    # (then dropped as a copy): nearly all the time of a page, 85 s for 20,000 actions
    drawn: Counter[str] = Counter()

    def counted(draw: Callable[..., svg.Svg]) -> Callable[..., svg.Svg]:
        def drawing(*args: object, **options: object) -> svg.Svg:
            drawn[draw.__name__] += 1
            return draw(*args, **options)

        return drawing

    monkeypatch.setattr(svg, "card", counted(svg.card))
    monkeypatch.setattr(svg, "meld", counted(svg.meld))
    data = _data(replay.html(ROMME))
    assert drawn["card"] == len(data["cards"])  # type: ignore[arg-type]
    assert drawn["meld"] == len(data["melds"])  # type: ignore[arg-type]


def test_a_match_page_has_every_round() -> None:
    match = play_match(
        hr.Match.new(hr.rulesets.levant, 4, seed=5, length=2, custom_length=True),
        [hr.GreedyBot(s) for s in range(4)],
    )
    data = _data(replay.html(match))
    rounds = data["rounds"]
    assert isinstance(rounds, list) and len(rounds) == len(match.rounds)
    assert len(data["steps"]) == sum(len(g.history) + 1 for g in match.rounds)  # type: ignore[arg-type]


def test_names_and_titles_cannot_break_out_of_the_page() -> None:
    evil = ["</script><script>alert(1)</script>", "<!--", "a & b\u2028", '"><img onerror=x>']
    page = replay.html(GAME, names=evil, title="</title><script>alert(2)</script>")
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert "<img" not in page and "<!--" not in page
    data = _data(page)
    assert data["names"] == evil
    assert data["title"] == "</title><script>alert(2)</script>"


def test_wrong_names_are_refused() -> None:
    with pytest.raises(hr.InvalidStateError, match="2 names given for 4 players"):
        replay.html(GAME, names=["a", "b"])
    with pytest.raises(hr.InvalidStateError):
        replay.html("not a round")  # type: ignore[arg-type]


def test_the_command_writes_the_page_of_a_round_or_a_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    round_file, match_file = tmp_path / "round.json", tmp_path / "match.json"
    round_file.write_text(serialize.dumps(GAME), encoding="utf-8")
    match = hr.Match.new(hr.rulesets.romme, 3, seed=2)  # a match just dealt
    match_file.write_text(serialize.dumps(match), encoding="utf-8")
    out = tmp_path / "out.html"
    assert main(["replay", str(round_file), "--html", str(out), "--names", "A,B,C,D"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert _data(out.read_text(encoding="utf-8"))["names"] == ["A", "B", "C", "D"]
    assert main(["replay", str(match_file), "--html", str(out)]) == 0
    assert len(_data(out.read_text(encoding="utf-8"))["steps"]) == 1  # type: ignore[arg-type]


def test_the_command_refuses_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hand-rummy/round"}', encoding="utf-8")
    out = tmp_path / "out.html"
    assert main(["replay", str(bad), "--html", str(out)]) == 2
    assert "missing field" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "none.json"), "--html", str(out)]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad.write_text("not json", encoding="utf-8")
    assert main(["replay", str(bad), "--html", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hand-rummy replay: error: {bad}: not valid JSON")
    # a results file of simulate (one JSON document a line) is named as such
    lines = tmp_path / "results.jsonl"
    lines.write_text('{"kind": "round"}\n{"kind": "match"}\n', encoding="utf-8")
    assert main(["replay", str(lines), "--html", str(out)]) == 2
    assert "hand-rummy report` reads those" in capsys.readouterr().err
    # a view has no moves to step through: said in the command's words, not the API's
    view = tmp_path / "view.json"
    game = hr.Round.deal(hr.rulesets.levant, players=4, seed=7)
    view.write_text(serialize.dumps(game.view(0)), encoding="utf-8")
    assert main(["replay", str(view), "--html", str(out)]) == 2
    err = capsys.readouterr().err
    assert "is a player's view (hand-rummy/view); replay steps through the moves" in err
    assert "kind=" not in err
    # names that do not fit the players are refused by the command, which says so
    rounds = tmp_path / "round.json"
    rounds.write_text(serialize.dumps(game), encoding="utf-8")
    assert main(["replay", str(rounds), "--html", str(out), "--names", "A,B"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hand-rummy replay: error: --names A,B: 2 names given for 4 players")
    assert not out.exists()


@pytest.mark.parametrize(("option", "value"), [("--title", "\udcff"), ("--names", "\udcff,B,C,D")])
def test_the_command_refuses_text_that_is_not_utf8_and_keeps_the_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    # Python reads an argument's bytes that are not UTF-8 as lone surrogates ($'\xff' gives
    # U+DCFF): the page was opened, emptied, then failed to encode with a traceback
    game = tmp_path / "round.json"
    game.write_text(serialize.dumps(GAME), encoding="utf-8")
    out = tmp_path / "out.html"
    assert main(["replay", str(game), "--html", str(out)]) == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert main(["replay", str(game), "--html", str(out), option, value]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"hand-rummy replay: error: {option} {value!r} is not UTF-8 text, as the page must be\n"
    )
    assert out.read_bytes() == before


def test_a_page_that_cannot_be_written_leaves_the_old_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tmp_path / "round.json"
    game.write_text(serialize.dumps(GAME), encoding="utf-8")
    out = tmp_path / "out.html"
    out.write_text("the page before", encoding="utf-8")
    out.chmod(0o640)

    def full(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    # the new page goes to a file beside the old one, renamed over it once written whole
    monkeypatch.setattr("hand_rummy.cli.os.replace", full)
    assert main(["replay", str(game), "--html", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"hand-rummy replay: error: cannot write {out}: No space left on device\n"
    )
    assert out.read_text(encoding="utf-8") == "the page before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.html", "round.json"]
    monkeypatch.undo()
    assert main(["replay", str(game), "--html", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert out.stat().st_mode & 0o777 == 0o640  # the page keeps its permissions
    # a device is written into, not renamed over
    assert main(["replay", str(game), "--html", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_the_command_refuses_a_document_over_its_size_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a round of 20,000 actions (0.5 MB) took 85 s and made a page of 5.6 MB: the page grows
    # with every action, so the command reads no document larger than 512 KiB
    document = serialize.dumps(GAME).encode("utf-8")
    game = tmp_path / "round.json"
    game.write_bytes(document + b" " * (512 * 1024 + 1 - len(document)))  # still JSON
    out = tmp_path / "out.html"
    assert main(["replay", str(game), "--html", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"hand-rummy replay: error: {game} is larger than 512 KiB, the most that replay reads "
        "(a match of 21 rounds takes about 110 kB)\n"
    )
    assert not out.exists()
    game.write_bytes(document + b" " * (512 * 1024 - len(document)))  # the limit itself
    assert main(["replay", str(game), "--html", str(out)]) == 0
