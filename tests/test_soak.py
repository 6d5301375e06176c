"""The soak script (benchmarks/soak.py): a short run of it, and proof that its checks bite.

benchmarks/ is not a package, so the script is loaded from its file. The bounded run
plays a few rounds of every preset (and one of each Levant variant) with every
invariant on; the longer runs are for the command line.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import hand_rummy as hr
from benchmark_scripts import load
from hand_rummy import serialize
from hand_rummy.bots import play_round

soak = load("soak")

EVERY_CHECK = soak.Options(sample=None, json_every=10, out=None)
"""Every listed action checked, a JSON round trip every ten decisions."""


# --- a bounded soak -------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(hr.PRESETS))
def test_bounded_soak(preset: str) -> None:
    """Three whole rounds of the preset, every invariant after every transition."""
    tallies, failures = soak.run(
        soak.cases_for([preset], variants=False), 3, 1, options=EVERY_CHECK, report=_ignore
    )
    assert not failures, "\n".join(f.report() for f in failures)
    tally = tallies[preset]
    assert tally.rounds == 3
    assert sum(tally.endings.values()) == 3
    assert tally.decisions > 0
    assert tally.transitions == tally.decisions + 3
    # every decision puts at least the action played to check(), and probes it
    assert tally.checked >= tally.decisions
    assert tally.probes >= tally.decisions
    assert tally.json_trips >= 3
    seconds, seed, step = tally.slowest
    # the slowest decision is one of those counted, timed inside its round: it took no
    # longer than the three rounds together, and it was made at a step a round reached
    assert seconds <= tally.seconds
    assert 0 <= step < tally.decisions
    assert seed in {soak.round_seed(1, soak.Case(preset), n) for n in range(3)}


def test_the_tally_keeps_the_slowest_decision_of_its_rounds() -> None:
    """The summary names the slowest decision by its seconds, round seed and step (for
    ``--repro``): the tally keeps the largest over its rounds, with that round's seed and
    step, neither the last round's nor a sum."""
    tally = soak.Tally()
    for seed, slowest, step in [(11, 0.2, 5), (12, 0.5, 2), (13, 0.1, 9)]:
        result = soak.RoundResult("levant", seed, decisions=10, seconds=1.0)
        result.slowest, result.slowest_step = slowest, step
        tally.add(result)
    # max(0.2, 0.5, 0.1) = 0.5, at step 2 of the round with seed 12
    assert tally.slowest == (0.5, 12, 2)
    # three rounds of 1.0 s and 10 decisions each: 3.0 s and 30 decisions
    assert (tally.rounds, tally.seconds, tally.decisions) == (3, 3.0, 30)


def test_bounded_soak_levant_variants() -> None:
    """One round of every Levant variant (the others are left to the command line)."""
    cases = soak.cases_for(["levant"], variants=True)
    assert len(cases) == 1 + len(hr.variants_for("levant"))
    tallies, failures = soak.run(cases, 1, 2, options=EVERY_CHECK, report=_ignore)
    assert not failures, "\n".join(f.report() for f in failures)
    assert all(tally.rounds == 1 for tally in tallies.values())


@pytest.mark.parametrize(
    "case, seed",
    [
        # 004 §2: seat 1 took a joker, then freed another from a table meld, holding JK JK;
        # one of them is the freed copy and may be discarded, so the turn can end
        ("saudi", 3973432483),
        # RULES-MATRIX R5 with 002's tournament jokers: holding only a joker, seat 0 could
        # take a 7♣ that no meld took, and then neither card could end the turn
        ("romme+no_rediscard_taken+tournament_jokers", 745130613),
    ],
)
def test_rounds_the_soak_once_failed_now_pass(case: str, seed: int) -> None:
    """Rounds the soak found faults in, replayed with every invariant checked."""
    result = soak.play_round(soak.Case.parse(case), seed, EVERY_CHECK)
    assert result.failure is None, result.failure.report()
    assert result.ending is not None


def test_a_joker_melded_twice_in_one_turn_is_counted_once() -> None:
    """Found by the half-greedy soak (30 % greedy): in one turn seat 1 melds a joker, frees
    it by an exchange and melds it again, then goes out; the cards the turn had put on the
    table still held the first joker, so the end of the round counted five jokers of four
    and the discard that went out was refused."""
    case = soak.Case.parse("romme+round_the_corner+wrap_ace_1")
    result = soak.play_round(case, 852381774, EVERY_CHECK, greedy=0.3)
    assert result.failure is None, result.failure.report()
    assert result.ending is not None


def _ignore(*_: object) -> None:
    pass


def test_rounds_are_reproducible() -> None:
    """A seed plays the same round whatever is sampled, so a reported seed replays."""
    case = soak.Case("romme")
    seed = soak.round_seed(5, case, 0)
    assert seed == soak.round_seed(5, case, 0)
    assert seed != soak.round_seed(5, case, 1) != soak.round_seed(5, soak.Case("levant"), 0)
    full = soak.play_round(case, seed, EVERY_CHECK)
    sampled = soak.play_round(case, seed, soak.Options(sample=1, json_every=0, out=None))
    assert full.failure is None and sampled.failure is None
    assert (full.decisions, full.ending) == (sampled.decisions, sampled.ending)
    assert sampled.checked < full.checked
    assert soak.Case.parse("levant+opening_71") == soak.Case("levant", "opening_71")
    assert soak.Case.parse(soak.Case("gulf").label) == soak.Case("gulf")


# --- the checks detect what they are for ----------------------------------------------------


def _position(preset: str = "levant", seed: int = 3, steps: int = 30) -> hr.Round:
    game: hr.Round
    game, chooser = soak.deal(soak.Case(preset), seed)
    for _ in range(steps):
        game = game.apply(chooser.choice(list(game.legal_actions())))
    assert not game.is_over
    return game


@attrs.define
class Doctored:
    """A round seen through a distorting glass: a stand-in for an engine with a fault."""

    game: hr.Round
    hidden: bool = False
    """hand(0) leaves out its first card and the stock shows it instead, the way a
    negative count hides: the multiset still adds up, the count does not."""
    accepting: bool = False
    """apply() takes anything and returns the round unchanged."""
    repeated: bool = False
    """legal_actions() lists its first action twice."""
    stuck: bool = False
    """legal_actions() lists nothing."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def hand(self, seat: int) -> tuple[hr.Card, ...]:
        cards = self.game.hand(seat)
        return cards[1:] if self.hidden and seat == 0 else cards

    @property
    def stock(self) -> tuple[hr.Card, ...]:
        extra = self.game.hand(0)[:1] if self.hidden else ()
        return (*self.game.stock, *extra)

    def apply(self, action: hr.Action) -> hr.Round:
        return self.game if self.accepting else self.game.apply(action)

    def legal_actions(self) -> Iterator[hr.Action]:
        actions = [] if self.stuck else list(self.game.legal_actions())
        return iter(actions[:1] + actions if self.repeated else actions)


def test_conservation_holds_on_a_real_round() -> None:
    soak.check_conservation(_position())


def test_hidden_card_is_a_conservation_failure() -> None:
    game = _position()
    with pytest.raises(soak.InvariantError) as raised:
        soak.check_conservation(Doctored(game, hidden=True))
    assert raised.value.invariant == "conservation"
    assert "hand sizes" in raised.value.message


def test_accepting_an_illegal_probe_is_reported() -> None:
    game = _position()
    assert soak.check_probes(game) > 0
    with pytest.raises(soak.InvariantError) as raised:
        soak.check_probes(Doctored(game, accepting=True))
    assert raised.value.invariant == "refusal"
    assert "accepts" in raised.value.message


def test_listed_action_refused_by_check_is_reported() -> None:
    game = _position()
    legal = soak.list_actions(game)
    assert soak.check_listed(game, legal) == len(legal)
    absent = next(card for card in hr.CARDS if card not in game.hand(game.turn))
    with pytest.raises(soak.InvariantError) as raised:
        soak.check_listed(game, [*legal, hr.Discard(absent)])
    assert raised.value.invariant == "listing"


def test_listed_action_with_a_card_not_held_is_reported() -> None:
    """The stale-card check: what a listing offers must be in the hand."""
    game = _position()
    soak.check_held(game, soak.list_actions(game))
    hand = game.hand(game.turn)
    absent = next(card for card in hr.CARDS if card not in hand)
    # the Levant deck has two of each card, so nobody holds three
    thrice = hr.LayDown((hr.Meld((hand[0],) * 3),))
    probes = (hr.Discard(absent), hr.LayOff(1, absent), hr.Exchange(1, (absent,)), thrice)
    for action in probes:
        with pytest.raises(soak.InvariantError, match="does not hold"):
            soak.check_held(game, [action])


def test_duplicate_listing_is_reported() -> None:
    with pytest.raises(soak.InvariantError) as raised:
        soak.list_actions(Doctored(_position(), repeated=True))
    assert raised.value.invariant == "duplicates"


def test_dead_end_is_reported() -> None:
    with pytest.raises(soak.InvariantError) as raised:
        soak.list_actions(Doctored(_position(), stuck=True))
    assert raised.value.invariant == "dead-end"


def test_step_cap_is_reported() -> None:
    case = soak.Case("levant")
    result = soak.play_round(case, 11, soak.Options(step_cap=3, out=None))
    assert result.failure is not None
    assert result.failure.invariant == "step-cap"
    assert result.failure.step == 3 == result.decisions


def _corrupt_after(monkeypatch: pytest.MonkeyPatch, applies: int) -> None:
    """Make the ``applies``-th accepted Round.apply slip a joker onto the discard pile."""
    original = hr.Round.apply
    accepted = 0

    def apply(self: hr.Round, action: hr.Action) -> hr.Round:
        nonlocal accepted
        after = original(self, action)  # an illegal action raises here, uncounted
        accepted += 1
        if accepted == applies:
            return attrs.evolve(after, discards=(*after.discards, hr.JOKER))
        return after

    monkeypatch.setattr(hr.Round, "apply", apply)


def test_a_created_card_fails_the_round_with_its_reproduction(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The whole loop: the bad transition is caught at once and reported replayably."""
    _corrupt_after(monkeypatch, 5)
    options = soak.Options(json_every=0, out=str(tmp_path))
    result = soak.play_round(soak.Case("levant"), 11, options)
    failure = result.failure
    assert failure is not None
    assert failure.invariant == "conservation"
    assert "extra [JK]" in failure.message
    assert failure.step == 5 == len(failure.history)
    assert failure.culprit == failure.history[-1]
    assert (failure.case, failure.seed) == ("levant", 11)
    report = failure.report()
    assert "reproduce: python benchmarks/soak.py --repro levant:11" in report
    assert failure.path is not None
    document = json.loads(Path(failure.path).read_text(encoding="utf-8"))
    assert document["invariant"] == "conservation"
    assert len(document["history"]) == 5
    monkeypatch.undo()
    # the saved position is the last good one: it loads, four actions in, and replays
    before = serialize.round_from_json(document["round"])
    assert len(before.history) == 4
    assert serialize.action_to_json(before.history[-1]) == document["history"][3]


def test_main_exits_non_zero_on_a_failure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--presets", "levant", "--rounds", "1", "--out", str(tmp_path)]
    assert soak.main(arguments) == 0
    out = capsys.readouterr().out
    assert "FAILURE" not in out
    assert "1 rounds in" in out
    _corrupt_after(monkeypatch, 2)
    assert soak.main(arguments) == 1
    out = capsys.readouterr().out
    assert "FAILURE [conservation] levant" in out
    assert "1 failure(s): conservation=1" in out


def test_greedy_moves_are_the_greedy_bot_s() -> None:
    """With every move greedy, a soaked round is the round that greedy bots play through the
    bots' own loop; with a share of them, a seed still plays one round only."""
    case, seed = soak.Case("levant"), 11
    game, _ = soak.deal(case, seed)
    played = play_round(game, [hr.GreedyBot(seed)] * game.players)
    assert played.outcome is not None
    quick = soak.Options(sample=1, json_every=0, out=None)
    result = soak.play_round(case, seed, quick, greedy=1.0)
    assert result.failure is None, result.failure.report()
    assert (result.decisions, result.ending) == (len(played.history), played.outcome.ending.value)
    mixed = [soak.play_round(case, seed, quick, greedy=0.5) for _ in range(2)]
    assert mixed[0].failure is None
    assert (mixed[0].decisions, mixed[0].ending) == (mixed[1].decisions, mixed[1].ending)


def test_a_greedy_failure_reproduces_with_its_share(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _corrupt_after(monkeypatch, 3)
    failure = soak.play_round(soak.Case("levant"), 11, soak.Options(out=None), 0.25).failure
    assert failure is not None and failure.greedy == 0.25
    assert "--repro levant:11 --greedy 0.25" in failure.report()
    monkeypatch.undo()
    with pytest.raises(SystemExit):
        soak.main(["--greedy", "1.5"])
    assert "--greedy is a share of the moves, from 0 to 1, not 1.5" in capsys.readouterr().err


def test_mixes_are_compositions_of_variants_that_build() -> None:
    cases = soak.cases_for(["levant", "classic"], False, mixes=4, seed=3)
    mixed = [c for c in cases if c.variant is not None]
    assert [c.label for c in cases if c.variant is None] == ["levant", "classic"]
    assert len(mixed) == 8 and len(set(mixed)) == 8
    for case in mixed:
        assert 2 <= len(case.variants) <= 3
        assert sorted(soak.ruleset_of(case).variants) == sorted(case.variants)
        assert soak.Case.parse(case.label) == case
    assert soak.cases_for(["levant", "classic"], False, mixes=4, seed=3) == cases
    assert soak.cases_for(["levant", "classic"], False, mixes=4, seed=4) != cases


def test_the_shown_check_bites() -> None:
    # a record of known cards that has drifted from the hand (a card shown that left it)
    game = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
    soak.check_shown(game)  # nothing shown yet
    elsewhere = next(card for card in game.hand(1) if card not in game.hand(2))
    drifted = game.replace(shown=((), (), (elsewhere.index,)))
    with pytest.raises(soak.InvariantError, match=r"\[shown\] seat 2 is shown to hold"):
        soak.check_shown(drifted)


def test_the_renewal_check_bites() -> None:
    # a stock that holds a card the renewal did not put in (drawn twice, say)
    game = hr.Round.deal(hr.rulesets.classic, players=4, seed=0)
    rng = random.Random(0)
    while not game.view(0).renewal:
        game = game.apply(rng.choice(list(game.legal_actions())))
    soak.check_renewal(game)
    stray = next(card for card in game.hand(1) if card not in game.stock)
    drifted = game.replace(stock=(*game.stock[:-1], stray))
    with pytest.raises(soak.InvariantError, match=r"\[renewal\] the stock holds"):
        soak.check_renewal(drifted)
