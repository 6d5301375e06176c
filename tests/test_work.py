"""The work a caller allows the finishing search (``hand_rummy.work``), and the referee's
limits on it: a fuzzer grew a 2.5 KB question (a Gulf turn bound to go out, with 22 melds on
the table) whose first page of legal actions took 2-3 s, and 30 copies in one array 48 s."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import hand_rummy as hr
from hand_rummy.errors import WorkLimitError
from hand_rummy.finder import MeldFinder
from hand_rummy.referee import LIMITS, answer_json
from hand_rummy.serialize import position_from_json
from hand_rummy.work import work_allowed

QUESTION = json.loads((Path(__file__).parent / "data" / "costly_promise_question.json").read_text())


def costly_round() -> hr.Round:
    return hr.Round.from_position(position_from_json(QUESTION["position"]))


def test_a_search_past_its_budget_stops_and_changes_nothing() -> None:
    game = costly_round()
    assert game.current.obligation is hr.Obligation.GO_OUT
    first = next(iter(game.legal_actions()))  # no budget: nothing is counted
    with work_allowed(2_000) as budget, pytest.raises(WorkLimitError, match="2000 steps"):
        list(game.legal_actions())
    assert budget.spent > 2_000
    assert next(iter(game.legal_actions())) == first
    assert game.check(first).ok


def test_each_older_meld_asked_what_it_could_take_is_a_step() -> None:
    """A fuzzer's question (1.7 KB): Levant with an opening of 91, a hand of two jokers and
    a run of hearts below the bar, 18 older melds on the table. Each way of setting cards
    aside asked every older meld what it could take, which was not counted: the question
    took 199,000 steps, under the limit of then (200,000), in 2-3 s (three times the cost
    of a step that the limit assumed). Counting each meld asked, it is refused."""
    question = json.loads((Path(__file__).parent / "data" / "long_table_question.json").read_text())
    reply, clean = answer_json(json.dumps(question))
    assert not clean and reply["error"]["limit"] == "search_work", reply


def test_the_work_of_a_first_move_is_counted() -> None:
    game = costly_round()
    with work_allowed(10**9) as budget:
        next(iter(game.legal_actions()))
    assert budget.spent > 0  # the first move of a turn bound to go out waits for a search


def test_the_referee_refuses_a_costly_question_with_the_limit_it_broke() -> None:
    reply, clean = answer_json(json.dumps(QUESTION))
    assert not clean
    assert reply["error"]["code"] == "LIMIT"
    assert reply["error"]["limit"] == "search_work"
    assert reply["error"]["max"] == LIMITS.search_work == 150_000
    # a page that stops before the costly moves is answered
    reply, clean = answer_json(json.dumps({**QUESTION, "limit": 1}))
    assert clean and len(reply["actions"]) == 1 and reply["more"]


def test_an_array_shares_its_search_work() -> None:
    cheap = {"rules": "classic", "ask": "hand_value", "cards": ["KS"]}
    replies, clean = answer_json(json.dumps([QUESTION, QUESTION, QUESTION, cheap]))
    assert not clean
    assert [r.get("error", {}).get("limit") for r in replies] == [
        "search_work",
        "array_search_work",
        "array_search_work",
        None,
    ]
    assert replies[3]["points"] == 10  # a question that needs no search is answered


def test_the_steps_charged_do_not_depend_on_what_was_asked_before() -> None:
    """The finishing search remembers its latest answers; a remembered answer is charged the
    steps its search took, so a question costs the same in a new process and in one that has
    just asked it (else the referee could refuse a question once and answer it the next time)."""
    spent = []
    base = costly_round()
    # a finder of its own: nothing remembered for it yet, as in a new process; then the
    # same round again, as the referee builds it for each question
    finder = MeldFinder(base.rules)
    for _ in range(3):
        game = hr.Round.from_state(base.replace(finder=finder))
        with work_allowed(10**9) as budget:
            actions = list(itertools.islice(game.legal_actions(), 5))
        spent.append((budget.spent, actions))
    assert spent[0][0] > 0
    assert spent[0] == spent[1] == spent[2]
    first, again = (answer_json(json.dumps(QUESTION)) for _ in range(2))
    assert first == again


def _owed_opening(suits: str) -> dict[str, object]:
    """A Levant turn that owes an opening of 91 with the 4♠ just taken (suits renamed by
    ``suits``): only 88 lay-downs are legal, found after judging about 2,700 openings below
    the bar, each with the exchanges that could follow."""

    def card(text: str) -> str:
        return text[:-1] + suits["CDHS".index(text[-1])]

    hand = [
        "AC",
        "AC",
        "6S",
        "3D",
        "6H",
        "5S",
        "6D",
        "7S",
        "3S",
        "3S",
        "AD",
        "4D",
        "5D",
        "7D",
        "4S",
    ]
    return {
        "ask": "legal_actions",
        "offset": 88,
        "limit": 0,
        "position": {
            "format": "hand-rummy/position",
            "version": 1,
            "rules": {"preset": "levant", "variants": ["opening_91"]},
            "indicator": card("8C"),
            "players": [{"hand": [card(c) for c in hand]}, {"hand_size": 13}],
            "turn": 0,
            "phase": "play",
            "discards": [card("KH")],
            "current": {"taken": card("4S")},
        },
    }


def test_the_quick_looks_of_the_finishing_search_are_counted() -> None:
    """The budget counted only the splits of the search: these questions took 0.4 s each and
    were charged 3,600 steps, so 48 of them in one array (17 KB) took 15 s. Each hand searched,
    each way of placing its cards and each exchange tried are counted now, and the array stops
    at its budget."""
    # the same question charges the same steps each time (a remembered search is charged
    # again), about 50,000
    replies, clean = answer_json(json.dumps([_owed_opening("CDHS")] * 10))
    assert not clean
    limits = [r.get("error", {}).get("limit") for r in replies]
    answered = limits.count(None)
    assert all(r["offset"] == 88 and r["actions"] == [] for r in replies[:answered])
    assert 3 <= answered <= 6 and limits[answered:] == ["array_search_work"] * (10 - answered)


_JOKER_TAKE = {
    "ask": "action",
    "action": {"type": "take"},
    "position": {
        "format": "hand-rummy/position",
        "version": 1,
        "rules": {
            "preset": "romme",
            "variants": ["discard_only_to_meld", "round_the_corner", "wrap_ace_1"],
        },
        "players": [
            {
                "hand": [
                    "JK",
                    "7S",
                    "6S",
                    "AS",
                    "JK",
                    "JK",
                    "5S",
                    "8S",
                    "3S",
                    "4S",
                    "KS",
                    "JK",
                    "2S",
                ]
            },
            {"hand_size": 12},
        ],
        "discards": ["9D"],
        "turn": 0,
        "phase": "draw",
    },
}


def test_the_melds_of_a_hand_are_counted_each_time_a_question_lists_them() -> None:
    """Four jokers and a run of spades hold thousands of melds, and each take of the 9♦ is
    judged by them: 1,000 such questions in one array (368 KB) took 10 s, charged nothing,
    since the meld finder's work went uncounted and its cache served the repeats. Each
    question now pays a step per meld of the hands it lists, cached or not."""
    game = hr.Round.from_position(position_from_json(_JOKER_TAKE["position"]))
    melds = len(game.finder.meld_slots(game.hands[0]))
    with work_allowed(10**9) as budget:
        game.check(hr.TakeDiscard())
    assert budget.spent > melds > 1_000  # the hand after the take holds more
    replies, clean = answer_json(json.dumps([_JOKER_TAKE] * 300))
    assert not clean
    answered = [r for r in replies if "error" not in r]
    refused = [r["error"].get("limit") for r in replies if "error" in r]
    assert answered and refused and set(refused) == {"array_search_work"}
    assert len(answered) <= LIMITS.array_search_work // melds
