"""The plain-text pictures: ``str()`` and ``repr()`` of a round, a view and a match.

Each picture is read back here (cards parsed again, counts compared) against the state it
was drawn from, and a view's picture is checked blind to the cards its player cannot see.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import hand_rummy as hr
from hand_rummy.testing import player_counts, random_action

PRESETS = sorted(hr.PRESETS)


def positions(ruleset: hr.Ruleset, players: int, seed: int) -> list[hr.Round]:
    """Every position of one random round."""
    game = hr.Round.deal(ruleset, players, seed)
    rng = random.Random(seed)
    seen = [game]
    while not game.is_over:
        game = game.apply(random_action(game, rng))
        seen.append(game)
    return seen


def seat_lines(text: str) -> dict[int, str]:
    """The line of each seat in a picture, by seat."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"Seat (\d+)(?: \(you\))?: (.*)$", line)
        if match:
            found[int(match.group(1))] = match.group(2)
    return found


def shown_cards(line: str) -> Counter[hr.Card]:
    """The cards a seat's line lists after its notes (two spaces apart), as a multiset."""
    _, _, cards = line.partition("  ")
    return Counter(hr.parse_cards(cards)) if cards else Counter()


@pytest.mark.parametrize("name", PRESETS)
def test_a_round_shows_every_hand_face_up(name: str) -> None:
    ruleset = hr.build(name, [])
    players = player_counts(ruleset)[-1]
    for game in positions(ruleset, players, seed=5)[::7]:
        lines = seat_lines(str(game))
        assert sorted(lines) == list(range(players))
        for seat, line in lines.items():
            assert shown_cards(line) == Counter(game.hand(seat))
            assert line.startswith(f"{len(game.hand(seat))} card")
            assert ("opened" in line) == game.opened[seat]


@pytest.mark.parametrize("name", PRESETS)
def test_a_view_shows_its_own_hand_and_nothing_hidden(name: str) -> None:
    ruleset = hr.build(name, [])
    players = player_counts(ruleset)[-1]
    rng = random.Random(3)
    for game in positions(ruleset, players, seed=9)[::11]:
        for seat in range(players):
            view = game.view(seat)
            text = str(view)
            lines = seat_lines(text)
            assert shown_cards(lines[seat]) == Counter(game.hand(seat))
            for other in set(range(players)) - {seat}:
                assert shown_cards(lines[other]) == Counter()
                assert lines[other].startswith(f"{len(game.hand(other))} card")
            # a round that differs only in what this seat cannot see draws the same picture
            sample = view.sample(random.Random(rng.randrange(2**32)))
            assert sample.view(seat) == view
            assert str(sample.view(seat)) == text
            assert repr(sample.view(seat)) == repr(view)


def test_the_table_lists_each_meld_with_its_owner() -> None:
    for game in positions(hr.build("levant", []), 4, seed=2):
        if len(game.table) >= 3:
            break
    else:
        pytest.fail("no position with three melds on the table")
    text = str(game)
    for laid in game.table:
        line = next(line for line in text.splitlines() if line.lstrip().startswith(f"[{laid.id}]"))
        assert laid.meld.describe() in line
        assert line.endswith(f"seat {laid.owner}")
    mine = str(game.view(laid.owner))
    assert f"seat {laid.owner} (you)" in mine


@pytest.mark.parametrize("name", PRESETS)
def test_the_summary_says_who_moves_and_how_a_round_ended(name: str) -> None:
    ruleset = hr.build(name, [])
    seen = positions(ruleset, player_counts(ruleset)[0], seed=1)
    doing = {hr.Phase.REDEAL: "to claim or pass a redeal", hr.Phase.DRAW: "to draw"}
    for game in seen[:-1]:
        summary = repr(game)
        assert summary.startswith(f"<Round {ruleset.title}, ")
        assert f"seat {game.turn} {doing.get(game.phase, 'to play')}" in summary
        assert f"stock {len(game.stock)}," in summary
    end = seen[-1]
    assert end.outcome is not None
    outcome = end.outcome
    ended = {
        hr.Ending.WENT_OUT: f": over, seat {outcome.winner} went out, ",
        hr.Ending.HAND: f": over, seat {outcome.winner} went out with a Hand, ",
        hr.Ending.STOCK: ": over, the stock ran out, ",
        hr.Ending.REDEAL: ": over, a redeal was claimed, ",
    }
    assert ended[outcome.ending] in repr(end)
    scores = end.outcome.score.scores
    last = str(end).splitlines()[-1]
    for seat, points in enumerate(scores):
        assert f"seat {seat} {points}" in last
    assert last.startswith("Scores:") == end.outcome.score.scored


def test_a_match_shows_its_totals_and_its_winners() -> None:
    match = hr.Match.new(hr.build("partnership", []), 4, seed=1, length=3)
    assert (
        repr(match) == "<Match partnership, 4 players: round 1, seat 0 to play, totals 0, 0, 0, 0>"
    )
    rng = random.Random(2)
    while not match.is_over:
        match = match.apply(rng.choice(list(match.legal_actions())))
    text = str(match)
    totals = ", ".join(f"seat {seat} {total}" for seat, total in enumerate(match.totals))
    assert f"Totals: {totals}" in text
    assert match.team_totals is not None
    for total in match.team_totals:
        assert f" {total}" in text.splitlines()[-2]
    winners = match.winners
    assert winners and all(f"{seat}" in text.splitlines()[-1] for seat in winners)
    assert repr(match).startswith("<Match partnership, 4 players: over, seat")


def test_a_ruleset_prints_as_its_rules_in_words() -> None:
    gulf = hr.build("gulf", ["joker_exchange"])
    assert str(gulf) == gulf.describe()
    assert str(gulf).splitlines()[0] == "gulf+joker_exchange"


def test_each_function_refuses_what_it_cannot_draw() -> None:
    """The text functions checked nothing: a view given for a round failed with TypeError,
    None and a ruleset with AttributeError, and a round given for a view with a CardParseError
    about its cards."""
    from hand_rummy import text  # noqa: PLC0415

    game = hr.Round.deal(hr.rulesets.classic, players=2, seed=1)
    run = hr.TableMeld(1, 0, hr.Meld.of("7H 8H 9H"), hr.MeldKind.RUN)
    calls = {
        "the round must be Round, not PlayerView": lambda: text.round_text(game.view(0)),
        "the view must be PlayerView, not Round": lambda: text.view_text(game),
        "the round or view must be Round or PlayerView, not NoneType": lambda: text.round_summary(
            None
        ),
        "the match must be Match, not Round": lambda: text.match_text(game),
        "the match must be Match, not str": lambda: text.match_summary("match"),
        "the rules (MeldRules.of(ruleset, indicator)) must be MeldRules, not Ruleset": lambda: (
            text.describe_wilds(hr.rulesets.classic)
        ),
        "a table meld must be TableMeld, not NoneType": lambda: text.table_lines([None]),
        "the table must be Sequence, not int": lambda: text.table_lines(5),
        "the width must be int, not str": lambda: text.table_lines([run], width="80"),
        "you (the seat the picture is drawn for) must be int, not str": lambda: text.table_lines(
            [run], "0"
        ),
        "the seat must be int, not str": lambda: text.seat_name("2"),
        "the number must be int, not float": lambda: text.counted(1.5, "card"),
    }
    for message, call in calls.items():
        with pytest.raises(hr.InvalidStateError) as refused:
            call()
        assert str(refused.value) == message
    assert text.table_lines([run], 0, width=80) == ["Table:", "  [1] 7♥ 8♥ 9♥  seat 0 (you)"]


def test_a_view_says_which_cards_another_seat_is_known_to_hold() -> None:
    # a card taken from the pile went into that hand in view of everyone
    game = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
    rng = random.Random(1)
    while True:
        legal = list(game.legal_actions())
        if hr.TakeDiscard() in legal:
            card, taker = game.discards[-1], game.turn
            game = game.apply(hr.TakeDiscard())
            break
        game = game.apply(rng.choice([a for a in legal if a != hr.TakeDiscard()]))
    viewer = (taker + 1) % game.players
    lines = str(game.view(viewer)).splitlines()
    line = next(text for text in lines if text.startswith(f"Seat {taker}:"))
    assert line.startswith(f"Seat {taker}: {game.hand_size(taker)} cards")
    assert line.endswith(f"known to hold {card}")  # and no other card of the hidden hand
    assert "known to hold" not in str(game)  # the whole round shows every hand as it is
