"""The bots: they only play legal actions, are deterministic given their seeds, and
GreedyBot plays as its documentation says and beats RandomBot in every preset."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import hand_rummy as hr
from hand_rummy.bots import (
    Bot,
    EndlessPlayError,
    GreedyBot,
    RandomBot,
    discard_scores,
    pays_flat,
    play_match,
    play_round,
)
from sample_bots import PassiveBot

CI = bool(os.environ.get("CI"))
PRESETS = sorted(hr.PRESETS)
EXAMPLES = Path(__file__).parent.parent / "examples"


def _players(ruleset: hr.Ruleset) -> int:
    return 4 if ruleset.players.allows(4) else ruleset.players.minimum


class Checked:
    """Wraps a bot: asserts every choice is legal and records the decisions."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.wild_discards_avoided = 0

    def choose(self, view: hr.PlayerView) -> hr.Action:
        legal = list(view.legal_actions())
        action = self.bot.choose(view)
        assert action in legal, f"{self.bot!r} chose {action}, not among {legal}"
        assert action in view.legal_actions()
        if isinstance(self.bot, GreedyBot) and isinstance(action, hr.Discard):
            rules = view.ruleset_rules()
            others = [a for a in legal if isinstance(a, hr.Discard) and not rules.is_wild(a.card)]
            if others:
                assert not rules.is_wild(action.card), f"discarded wild {action.card}: {legal}"
                if any(rules.is_wild(c) for c in view.hand):
                    self.wild_discards_avoided += 1
            announced = [a for a in legal if a == hr.Discard(action.card, announce=True)]
            assert action.announce or not announced, "GreedyBot did not announce"
        return action


def _bots(players: int, seed: int, greedy_first: bool) -> list[Bot]:
    return [
        GreedyBot(seed * 10 + i) if (i % 2 == 0) == greedy_first else RandomBot(seed * 10 + i)
        for i in range(players)
    ]


@pytest.mark.parametrize("name", PRESETS)
def test_bots_choose_legal_actions_and_greedy_keeps_wilds(name: str) -> None:
    ruleset = hr.build(name)
    avoided = 0
    counts = sorted({ruleset.players.minimum, _players(ruleset)})
    for players in counts:
        for seed in range(3):
            bots = [Checked(b) for b in _bots(players, seed, greedy_first=seed % 2 == 0)]
            game = play_round(hr.Round.deal(ruleset, players, seed), bots)
            assert game.is_over
            assert game.replay() == game
            avoided += sum(b.wild_discards_avoided for b in bots)
    assert avoided > 0, "no position where GreedyBot held a wild while discarding"


@pytest.mark.parametrize("name", ["levant", "romme", "saudi_partnership"])
def test_bots_are_deterministic_given_their_seeds(name: str) -> None:
    ruleset = hr.build(name)

    def history(seed: int) -> tuple[hr.Action, ...]:
        bots: list[Bot] = [GreedyBot(seed), RandomBot(seed), GreedyBot(seed + 1), RandomBot(7)]
        return play_round(hr.Round.deal(ruleset, 4, 11), bots).history

    assert history(5) == history(5)
    game = hr.Round.deal(ruleset, 4, 1)
    view = game.view(game.turn)
    assert GreedyBot(2).choose(view) == GreedyBot(2).choose(view)


def test_random_bot_differs_with_the_seed() -> None:
    game = hr.Round.deal(hr.rulesets.romme, 2, 4)
    histories = {play_round(game, [RandomBot(s), RandomBot(s + 100)]).history for s in range(4)}
    assert len(histories) > 1


def _rest_of_deck(ruleset: hr.Ruleset, *hands: str) -> list[hr.Card]:
    deck = Counter(p.card for p in ruleset.deck.cards())
    for hand in hands:
        deck.subtract(hr.parse_cards(hand))
    assert all(n >= 0 for n in deck.values())
    return sorted(deck.elements())


def test_greedy_opens_with_the_highest_value_opening() -> None:
    ruleset = hr.rulesets.romme
    mine = "10H JH QH KH 10S 10D 10C 2C 3C 4C 5S 7D 9S 4H"
    rest = _rest_of_deck(ruleset, mine)
    other, stock = rest[:13], rest[13:]
    game = hr.Round.from_deal(ruleset, [mine, other], stock, dealer=0)
    assert game.turn == 0 and game.phase is hr.Phase.PLAY
    rules = game.rules
    openings = [a for a in game.legal_actions() if isinstance(a, hr.LayDown)]

    def value(action: hr.LayDown) -> int:
        judged = hr.judge_opening(list(action.melds), rules)
        assert judged.ok
        return judged.points

    values = {value(a) for a in openings}
    assert len(values) > 2, "the position should offer openings of different values"
    chosen = GreedyBot().choose(game.view(0))
    assert isinstance(chosen, hr.LayDown)
    assert value(chosen) == max(values) == game.best_opening(0)[0]


def test_greedy_discards_a_natural_card_rather_than_a_wild() -> None:
    ruleset = hr.rulesets.romme
    mine = "JK 2H 5C 9D KS QD 7C 3S 8H 6D JC 4S AD 10C"
    rest = _rest_of_deck(ruleset, mine)
    game = hr.Round.from_deal(ruleset, [mine, rest[:13]], rest[13:], dealer=0)
    action = GreedyBot().choose(game.view(0))
    assert isinstance(action, hr.Discard)
    assert not game.rules.is_wild(action.card)


def _mean_scores(name: str, rounds: int) -> tuple[float, float]:
    """Mean per-seat score of GreedyBot and RandomBot over seat-rotated scored rounds."""
    ruleset = hr.build(name)
    players = _players(ruleset)
    greedy: list[int] = []
    random_: list[int] = []
    for seed in range(rounds):
        deal = hr.Round.deal(ruleset, players, 1000 + seed)
        for greedy_first in (True, False):
            bots = _bots(players, seed, greedy_first)
            outcome = play_round(deal, bots).outcome
            assert outcome is not None
            if not outcome.score.scored:
                continue
            for bot, score in zip(bots, outcome.score.scores):
                (greedy if isinstance(bot, GreedyBot) else random_).append(score)
    return statistics.fmean(greedy), statistics.fmean(random_)


@pytest.mark.parametrize("name", PRESETS)
def test_greedy_beats_random(name: str) -> None:
    greedy, random_ = _mean_scores(name, rounds=20 if CI else 10)
    assert greedy < random_, f"{name}: GreedyBot {greedy:.1f} vs RandomBot {random_:.1f}"


@pytest.mark.parametrize("name", PRESETS)
def test_play_match_plays_a_match_to_its_end(name: str) -> None:
    ruleset = hr.build(name)
    players = _players(ruleset)
    match = hr.Match.new(ruleset, players, seed=3)
    done = play_match(match, _bots(players, 3, greedy_first=True))
    assert done.is_over and done.winners
    assert done.totals == tuple(
        sum(g.outcome.score.scores[s] for g in done.scored_rounds if g.outcome is not None)
        for s in range(players)
    )


def test_play_round_wants_one_bot_per_seat() -> None:
    with pytest.raises(ValueError, match="2 bots for a round of 4"):
        play_round(hr.Round.deal(hr.rulesets.levant, 4, 1), [RandomBot(), RandomBot()])


def test_a_seat_without_a_bot_is_named_before_play() -> None:
    """Refused up front as the library's error, not as an AttributeError on its first move."""
    game = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
    with pytest.raises(hr.InvalidStateError) as refused:
        play_round(game, [1, 2, 3])  # type: ignore[list-item]
    assert str(refused.value) == "the bot of seat 0 is not a bot: 1 has no choose(view) method"
    bots = [RandomBot(), RandomBot(), "GreedyBot"]
    with pytest.raises(hr.InvalidStateError) as refused:
        play_round(game, bots)  # type: ignore[arg-type]
    assert str(refused.value) == (
        "the bot of seat 2 is not a bot: 'GreedyBot' has no choose(view) method"
    )
    match = hr.Match.new(hr.rulesets.romme, 3, seed=1)
    with pytest.raises(hr.InvalidStateError, match="the bot of seat 1 is not a bot: None"):
        play_match(match, [RandomBot(), None, RandomBot()])  # type: ignore[list-item]


def test_play_round_and_play_match_check_what_they_are_given() -> None:
    game = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
    with pytest.raises(hr.InvalidStateError) as refused:
        play_round(game, None)  # type: ignore[arg-type]
    assert str(refused.value) == "the bots must be a list, one per seat, not NoneType"
    with pytest.raises(hr.InvalidStateError) as refused:
        play_round(None, [RandomBot()])  # type: ignore[arg-type]
    assert str(refused.value) == "the round must be Round, not NoneType"
    with pytest.raises(hr.InvalidStateError) as refused:
        play_match(game, [RandomBot()] * 3)  # type: ignore[arg-type]
    assert str(refused.value) == "the match must be Match, not Round"


def test_custom_bot_example_plays_a_match() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "custom_bot.py")],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=60,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("levant:") and "rounds" in lines[0]
    assert any(line.startswith("round 1 (") for line in lines)
    assert lines[-2].startswith("totals: Cautious ")
    assert lines[-1].startswith("winner: ")


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # no natural meld: penalty less 4 per link (a rank in another suit, a card of the
        # suit one apart; half for two apart); a second K♦ is no link; the joker is wild
        (
            "5H 6H 8H 5S KD KD AC JK",
            {"5H": -3, "6H": 0, "8H": 6, "5S": 1, "KD": 10, "AC": 11, "JK": float("-inf")},
        ),
        # 5♥ 6♥ 7♥ is a natural run: 15 more off each of its cards
        ("5H 6H 7H QS QC", {"5H": -16, "6H": -17, "7H": -14, "QS": 6, "QC": 6}),
        # the Ace links to the King above and the Two below
        ("AD KD 2D", {"AD": 3, "KD": 6, "2D": -2}),
    ],
)
def test_discard_scores_by_hand(hand: str, expected: dict[str, float]) -> None:
    rules = hr.MeldRules.of(hr.build("romme"), None)
    scores = discard_scores(hr.parse_cards(hand), rules)
    assert {card.ascii: score for card, score in scores.items()} == expected


def test_discard_scores_under_a_flat_penalty_let_the_low_card_go() -> None:
    # the links as in the first case above; the penalty counts -0.1 times, so a link
    # outweighs any card's value, and of the two cards with no link (K♦, A♣) the lower goes
    rules = hr.MeldRules.of(hr.build("romme"), None)
    scores = discard_scores(hr.parse_cards("5H 6H 8H 5S KD KD AC JK"), rules, flat=True)
    expected = {"5H": -8.5, "6H": -6.6, "8H": -2.8, "5S": -4.5, "KD": -1.0, "AC": -1.1}
    assert {c.ascii: s for c, s in scores.items() if c.ascii != "JK"} == pytest.approx(expected)
    assert max(scores, key=scores.__getitem__).ascii == "KD"


def test_flat_discards_rank_by_links_only_while_the_hand_pays_a_flat_penalty() -> None:
    flat_seen = opened_seen = 0
    for preset in ("levant", "romme"):
        ruleset = hr.build(preset)
        for seed in range(3):
            game = hr.Round.deal(ruleset, 4, seed)
            bots = [GreedyBot(seed + i) for i in range(4)]
            while not game.is_over:
                view = game.view(game.turn)
                # Levant charges a flat 100 to a hand that has not opened; Rommé the cards
                unopened_levant = preset == "levant" and not view.opened[view.seat]
                assert pays_flat(view) == unopened_levant
                plain = GreedyBot(7).choose(view)
                flat = GreedyBot(7, flat_discards=True).choose(view)
                if isinstance(flat, hr.Discard) and unopened_levant:
                    rules = view.ruleset_rules()
                    scores = discard_scores(view.hand, rules, flat=True)
                    naturals = [
                        a.card
                        for a in game.legal_actions()
                        if isinstance(a, hr.Discard) and not rules.is_wild(a.card)
                    ]
                    if naturals:
                        assert scores[flat.card] == max(scores[card] for card in naturals)
                        flat_seen += 1
                else:
                    assert flat == plain  # the same seed, the same choice
                    opened_seen += isinstance(flat, hr.Discard)
                game = game.apply(bots[game.turn].choose(view))
    assert flat_seen > 0
    assert opened_seen > 0


@pytest.mark.parametrize("preset", ["levant", "romme"])
def test_a_decision_taken_from_a_round_holds_no_hidden_card(preset: str) -> None:
    # a bot is given a view, never the round: whatever the decision keeps is the bot's to read
    import gc  # noqa: PLC0415

    from hand_rummy.bots import Choice  # noqa: PLC0415
    from hand_rummy.state import RoundState  # noqa: PLC0415

    game = hr.Round.deal(hr.build(preset), players=3, seed=4)
    for _ in range(12):
        choice = Choice.of_round(game)
        assert choice.legal == tuple(game.legal_actions())
        assert choice.view == game.view(game.turn)
        for value in gc.get_referents(choice):
            if isinstance(value, RoundState):  # screened: no card the seat cannot see
                others = [value.hand(s) for s in range(value.players) if s != choice.seat]
                assert {card for hand in others for card in hand} <= {hr.JOKER}
                assert set(value.stock) <= {hr.JOKER} and value.start == ()
        game = game.apply(choice.legal[0])


def test_greedy_bots_never_throw_back_the_card_they_took() -> None:
    # two GreedyBots in this Rommé match each took the A♠ (it made a meld in the hand, too
    # small to open) and threw it back, for ever: the stock never shrank and play_match
    # never returned
    match = hr.Match.new(
        hr.build("romme", ["limit_reached"]), 2, seed=160, length=100, custom_length=True
    )
    bots = [hr.GreedyBot(160), hr.GreedyBot(161)]
    thrown_back = 0
    moves = 0
    while not match.is_over:
        game = match.current
        assert game is not None
        action = bots[game.turn].decide(hr.Choice.of_round(game))
        taken = game.current.taken
        if isinstance(action, hr.Discard) and taken is not None:
            others = [
                a for a in game.legal_actions() if isinstance(a, hr.Discard) and a.card != taken
            ]
            thrown_back += action.card == taken and bool(others)
        match = match.apply(action)
        moves += 1
        assert moves < 20_000, "the bots are passing a card between them"
    assert thrown_back == 0
    assert len(match.rounds) >= 10


def test_play_round_gives_up_a_round_that_never_ends() -> None:
    """Gulf Hand renews the stock without end, so players who never meld never finish."""
    game = hr.Round.deal(hr.rulesets.gulf, 4, seed=2)
    with pytest.raises(EndlessPlayError) as stopped:
        play_round(game, [PassiveBot(s) for s in range(4)], max_decisions=600)
    assert str(stopped.value) == "the round has not ended after 600 decisions (max_decisions)"
    left = stopped.value.game
    assert isinstance(left, hr.Round) and not left.is_over
    assert len(left.history) == 600  # every decision kept: the round can be replayed
    assert left.replay() == left


def test_play_match_gives_up_after_unscored_rounds_in_a_row() -> None:
    """Under 000 a round whose stock runs out is not scored and is dealt again."""
    match = hr.Match.new(hr.rulesets.levant, 4, seed=5)
    with pytest.raises(EndlessPlayError) as stopped:
        play_match(match, [PassiveBot(s) for s in range(4)], max_unscored=3)
    assert str(stopped.value) == "3 rounds in a row ended unscored (max_unscored)"
    left = stopped.value.game
    assert isinstance(left, hr.Match) and not left.is_over and left.current is not None
    assert len(left.rounds) == 3
    assert not any(r.outcome.score.scored for r in left.rounds if r.outcome is not None)
    gulf = hr.Match.new(hr.rulesets.gulf, 4, seed=2)
    with pytest.raises(EndlessPlayError, match="round 1 has not ended after 50 decisions"):
        play_match(gulf, [PassiveBot(s) for s in range(4)], max_decisions=50)


@pytest.mark.parametrize("bound", [0, -3, True, 2.5, "10"])
def test_play_bounds_are_checked(bound: object) -> None:
    game = hr.Round.deal(hr.rulesets.levant, 4, 1)
    bots = [RandomBot(s) for s in range(4)]
    with pytest.raises(hr.InvalidStateError, match="max_decisions"):
        play_round(game, bots, max_decisions=bound)  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match="max_unscored"):
        play_match(hr.Match.new(hr.rulesets.levant, 4, seed=1), bots, max_unscored=bound)  # type: ignore[arg-type]
