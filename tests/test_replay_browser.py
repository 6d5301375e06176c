"""The replay page in a real browser: headless Chromium, driven over the DevTools protocol.

The test writes the page of a round and of a match, opens it in Chromium
(``tests/devtools.py`` talks to the browser through a pipe, with the standard
library only), steps through it with the page's own controls (mouse clicks
on its buttons and its list of moves, the arrow keys, its selects, the
address's ``#step=N&seat=S``) and checks what the page shows at each step
against the round: every hand's cards, the table's melds, the discard pile,
the stock, the description and the rules it cites.

Without Chromium the tests are skipped, unless ``HR_REQUIRE_CHROMIUM`` is set
(as ``.ci/run`` does): then they fail.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hand_rummy as hr
from devtools import Browser
from hand_rummy import replay
from hand_rummy.bots import play_match, play_round
from test_svg_browser import BROWSER

NAMES = ["Anna", "Ben", "Cem", "Dina"]
GAME = play_round(
    hr.Round.deal(hr.rulesets.levant, players=4, seed=3),
    [hr.GreedyBot(1), hr.GreedyBot(2), hr.RandomBot(3), hr.GreedyBot(4)],
)
STEPS = replay.steps(GAME, names=NAMES)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    if BROWSER is None:
        if os.environ.get("HR_REQUIRE_CHROMIUM"):
            pytest.fail("HR_REQUIRE_CHROMIUM is set but no Chromium was found")
        pytest.skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
    with Browser(BROWSER) as browser:
        yield browser


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "round.html"
    path.write_text(replay.html(GAME, names=NAMES), encoding="utf-8")
    return path


# What the page shows, read from its DOM in one go.
SHOWN = """(function () {
  function all(sel, f) { return Array.prototype.map.call(document.querySelectorAll(sel), f); }
  function code(e) { return e.getAttribute("data-card").replace(/[*~]$/, ""); }
  return {
    step: Number(document.body.getAttribute("data-step")),
    seat: document.body.getAttribute("data-seat"),
    hash: location.hash,
    desc: document.getElementById("desc").textContent,
    private: document.getElementById("private").textContent,
    status: document.getElementById("status").textContent,
    rules: all("#rules [data-rule]", function (e) { return e.getAttribute("data-rule"); }),
    hands: all("#seats .seat", function (s) {
      return {seat: Number(s.getAttribute("data-seat")),
              label: s.querySelector(".label").textContent,
              cards: all('#seats .seat[data-seat="' + s.getAttribute("data-seat") +
                         '"] [data-card]', code)};
    }),
    table: all("#table [data-meld]", function (m) {
      return [Number(m.getAttribute("data-meld")), Number(m.getAttribute("data-owner")),
              m.getAttribute("data-cards"), m.querySelectorAll("svg title").length > 0];
    }),
    discards: all("#discards [data-card]", code),
    piles: document.getElementById("piles").textContent,
    cardTitles: all("#seats [data-card] svg > title", function (t) { return t.textContent; })
  };
})()"""


def shown(browser: Browser) -> dict[str, Any]:
    found: dict[str, Any] = browser.evaluate(SHOWN)
    return found


def check(found: dict[str, Any], index: int, seat: int | None) -> None:
    """What the page shows is step ``index`` of the round, seen by ``seat`` (None: all)."""
    step = STEPS[index]
    game = step.game
    assert found["step"] == index
    assert found["seat"] == ("all" if seat is None else str(seat))
    assert found["desc"] == step.text
    assert found["rules"] == [c.id for c in step.rules]
    if step.private and (seat is None or seat == step.seat):
        assert found["private"] == step.private
    else:
        assert found["private"] == ""
    hands = {h["seat"]: h for h in found["hands"]}
    assert sorted(hands) == list(range(game.players))
    for s in range(game.players):
        count = game.hand_size(s)
        assert f"{count} card" in hands[s]["label"]
        if seat is None or seat == s:
            assert hands[s]["cards"] == [c.ascii for c in game.hand(s)], (index, s)
        else:
            assert hands[s]["cards"] == [], "another player's cards are shown"
    assert [tuple(m[:3]) for m in found["table"]] == [
        (m.id, m.owner, " ".join(c.ascii for c in m.meld.cards)) for m in game.table
    ]
    assert all(m[3] for m in found["table"]), "a meld without its picture"
    assert found["discards"] == [c.ascii for c in game.discards[-6:]]
    assert f"Stock ({len(game.stock)} card" in found["piles"]
    assert found["hash"] == f"#step={index}&seat={'all' if seat is None else seat}"


def first_step(kind: type, **where: Any) -> int:
    for i, step in enumerate(STEPS):
        if isinstance(step.action, kind) and all(
            getattr(step.action, k) == v for k, v in where.items()
        ):
            return i
    raise AssertionError(f"no {kind.__name__} in the round")


def test_the_round_has_what_the_checks_need() -> None:
    kinds = {type(s.action) for s in STEPS}
    assert {hr.LayDown, hr.LayOff, hr.DrawStock, hr.Discard} <= kinds
    assert any(s.game.table for s in STEPS)


def test_the_address_opens_a_step_as_a_seat_sees_it(chromium: Browser, page: Path) -> None:
    opening = first_step(hr.LayDown)
    chromium.open(page.as_uri() + f"#step={opening}&seat=2")
    chromium.wait_for("document.body && document.body.getAttribute('data-ready') === '1'")
    found = shown(chromium)
    check(found, opening, 2)
    assert "opens with" in found["desc"] and "reaching the bar of 51" in found["desc"]
    assert "levant.opening.minimum" in found["rules"]
    # the cards are the SVG pictures, each with its name for screen readers
    assert any("(seven of" in t or "of hearts" in t for t in found["cardTitles"])
    # the page's own hash change: the whole table at the last step
    last = len(STEPS) - 1
    chromium.evaluate(f"location.hash = '#step={last}&seat=all'")
    chromium.wait_for(f"document.body.getAttribute('data-step') === '{last}'")
    check(shown(chromium), last, None)


def test_the_controls_step_through_the_round(chromium: Browser, page: Path) -> None:
    chromium.open(page.as_uri())
    chromium.wait_for("document.body && document.body.getAttribute('data-ready') === '1'")
    check(shown(chromium), 0, None)
    for i in range(1, 8):  # the redeal questions, the starter's discard, draws and discards
        chromium.click("#forward")
        check(shown(chromium), i, None)
    chromium.click("#back")
    check(shown(chromium), 6, None)
    chromium.press("ArrowRight", 39)
    chromium.press("ArrowRight", 39)
    check(shown(chromium), 8, None)
    chromium.press("ArrowLeft", 37)
    check(shown(chromium), 7, None)
    # the list of moves: a click jumps to that action
    lay_off = first_step(hr.LayOff)
    chromium.click(f'#moves li[data-step="{lay_off}"]')
    found = shown(chromium)
    check(found, lay_off, None)
    assert "lays off" in found["desc"] and "levant.layoff.keep-valid" in found["rules"]
    # one seat's view: only that hand face up
    chromium.evaluate(
        "(function(){var s=document.getElementById('seat-select');s.value='1';"
        "s.dispatchEvent(new Event('change'));})()"
    )
    check(shown(chromium), lay_off, 1)
    # jump to a turn: the first action of turn 9
    chromium.evaluate("document.getElementById('turn-input').value = '9'")
    chromium.click("#turn-go")
    turn = next(i for i, s in enumerate(STEPS) if s.turn >= 9)
    check(shown(chromium), turn, 1)
    chromium.click("#last")
    check(shown(chromium), len(STEPS) - 1, 1)
    chromium.click("#first")
    check(shown(chromium), 0, 1)


def test_a_match_page_steps_from_round_to_round(chromium: Browser, tmp_path: Path) -> None:
    match = play_match(
        hr.Match.new(hr.rulesets.levant, 4, seed=5, length=2, custom_length=True),
        [hr.GreedyBot(s) for s in range(4)],
    )
    every = replay.steps(match)
    path = tmp_path / "match.html"
    path.write_text(replay.html(match), encoding="utf-8")
    second = next(i for i, s in enumerate(every) if s.round == 1)
    chromium.open(path.as_uri())
    chromium.wait_for("document.body && document.body.getAttribute('data-ready') === '1'")
    chromium.evaluate(
        "(function(){var s=document.getElementById('round-select');s.value='1';"
        "s.dispatchEvent(new Event('change'));})()"
    )
    found = shown(chromium)
    assert found["step"] == second
    assert found["desc"] == every[second].text and found["desc"].startswith("Round 2 of ")
    chromium.click("#back")  # back over the border: the end of round 1
    found = shown(chromium)
    assert found["desc"] == every[second - 1].text
    assert every[second - 1].game.is_over


def test_names_are_shown_as_text_never_run(chromium: Browser, tmp_path: Path) -> None:
    names = [
        "</script><script>window.pwned = 1</script>",
        '<img src="x" onerror="window.pwned = 2">',
        "Dina & \u2028 <!-- -->",
        "]]></title><script>window.pwned=3</script>",
    ]
    path = tmp_path / "names.html"
    path.write_text(replay.html(GAME, names=names, title="<b>" + names[0]), encoding="utf-8")
    chromium.open(path.as_uri() + "#step=30&seat=all")
    chromium.wait_for("document.body && document.body.getAttribute('data-ready') === '1'")
    assert chromium.evaluate("typeof window.pwned") == "undefined"
    assert chromium.evaluate("document.scripts.length") == 2
    assert chromium.evaluate("document.querySelectorAll('img').length") == 0
    labels = json.dumps(shown(chromium)["hands"], ensure_ascii=False)
    for name in names:
        assert json.dumps(name, ensure_ascii=False)[1:-1] in labels
    assert chromium.evaluate("document.title") == "<b>" + names[0]
