"""Soak test: many random rounds, every engine invariant checked after every transition.

Each round is dealt from a seed and played by picking a uniformly random action from the
complete legal-action listing at every decision. The checks use the public API only, so
they keep working while the engine's internals change:

  conservation   hands + stock + discard pile + table melds + indicator == the deck, and
                 every hand's size agrees with the public card counts (a negative count
                 that ``hand()`` cannot show still changes the count)
  listing        every listed action passes ``check()`` (all of them, or ``--sample K``),
                 and plays only cards the player holds (always all of them: it is cheap)
  refusal        a few cheap illegal probes are refused by ``check()``, make ``apply()``
                 raise IllegalActionError with the same verdict, and leave the round as it
                 was; applying a legal action leaves the original round as it was too
  shown          the cards a view shows another seat is known to hold are in that hand,
                 the demoted ones demoted
  renewal        after the stock is renewed from the pile, it holds the renewed cards
                 (a view's ``renewal``) less what each seat's view says it drew since
  dead-end       a round that is not over lists at least one action
  determinism    an equal, freshly built round lists the same actions in the same order
  duplicates     the listing has no action twice
  step-cap       the round ends within ``--step-cap`` decisions (where the stock is
                 renewed without end, as in Gulf Hand, a capped round is only counted)
  json           the round serialises to JSON text and loads back to an equal round
  outcome        a finished round has an outcome with one score per seat and no actions
  engine-error   the engine raised where it should not (an internal error, or ``apply``
                 refusing a listed action)

    python benchmarks/soak.py --rounds 2000 [--presets levant,romme] [--variants] [--mixes 20]
        [--seed S] [--jobs J] [--seconds T] [--sample K] [--json-every N] [--keep-going]
        [--greedy P]
    python benchmarks/soak.py --repro levant+opening_71:123456 [--greedy P]

``--rounds`` counts per preset (or preset + variant). Every round's seed comes from
``--seed``, the case and the round number, and the players, dealer and every random
choice come from the round's seed alone, so ``--repro CASE:SEED`` replays a failing round
exactly, whatever the other options were (but ``--greedy``, which is part of how a round
is played and is printed with the reproduction). Uniformly random players seldom get near
going out; with ``--greedy P`` each move is the greedy bot's with probability ``P``, so more
rounds reach the end of a hand, where the rules about the last cards live. On a failure the
last position that passed (and the failing one, when it can still be written) goes to a JSON
file under ``--out``, with the whole history; ``--seconds T`` starts no round after T
seconds.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import attrs

import hand_rummy as hr
from hand_rummy import serialize
from hand_rummy.bots import Choice
from hand_rummy.rules.stock import StockTrigger

STEP_CAP = 3000
"""Decisions after which a round that has not ended counts as a failure."""

JSON_EVERY = 50
"""Decisions between JSON round trips in the middle of a round (each one replays the round)."""

LAST_ACTIONS = 12
"""How many of the last actions a failure report prints (the JSON file holds them all)."""


# --- cases and seeds ------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A preset, optionally with named variants (one, or a composition of several)."""

    preset: str
    variant: str | None = None
    more: tuple[str, ...] = ()
    """Further variants composed with ``variant``."""

    @property
    def variants(self) -> list[str]:
        return [] if self.variant is None else [self.variant, *self.more]

    @property
    def label(self) -> str:
        return "+".join((self.preset, *self.variants))

    @classmethod
    def parse(cls, label: str) -> Case:
        preset, *variants = label.split("+")
        return cls(preset, variants[0], tuple(variants[1:])) if variants else cls(preset)


@functools.cache
def ruleset_of(case: Case) -> hr.Ruleset:
    """The ruleset of ``case`` (cached: a worker plays many rounds of the same case)."""
    return hr.build(case.preset, case.variants)


def cases_for(presets: Iterable[str], variants: bool, mixes: int = 0, seed: int = 0) -> list[Case]:
    """Each preset, and with ``variants`` each preset with each variant that builds; with
    ``mixes``, that many compositions of two or three of a preset's variants, drawn from
    ``seed`` (compositions the library refuses, such as two opening bars, are drawn again).

    A name may also be a single case, ``preset+variant[+variant...]``, taken as it is.
    """
    cases = []
    for preset in presets:
        cases.append(Case.parse(preset))
        if "+" in preset:
            continue
        names = [v.name for v in hr.variants_for(preset)]
        for name in names if variants else ():
            # a switch that refines another variant's rule comes with that variant
            first, *more = hr.rules.standalone(preset, name)
            _add_if_it_builds(cases, Case(preset, first, tuple(more)))
        rng = random.Random(f"{seed}/{preset}/mixes")
        wanted = len(cases) + min(mixes, 2 ** len(names))
        for _ in range(50 * mixes):
            if len(cases) >= wanted or len(names) < 2:
                break
            first, *more = sorted(rng.sample(names, rng.choice((2, 3)) if len(names) > 2 else 2))
            case = Case(preset, first, tuple(more))
            if case not in cases:
                _add_if_it_builds(cases, case)
    return cases


def _add_if_it_builds(cases: list[Case], case: Case) -> None:
    try:
        ruleset_of(case)
    except hr.HandRummyError:
        return  # a combination the library refuses is not a round to play
    cases.append(case)


def round_seed(base: int, case: Case, number: int) -> int:
    """The seed of round ``number`` of ``case``: fixed by ``base``, independent of --jobs."""
    # str seeds are hashed with SHA-512 by random.Random, so this is stable across runs
    return random.Random(f"{base}/{case.label}/{number}").getrandbits(32)


def player_counts(ruleset: hr.Ruleset) -> list[int]:
    """Every player count the ruleset allows."""
    players = ruleset.players
    return [n for n in range(players.minimum, players.maximum + 1) if players.allows(n)]


# --- the invariants -------------------------------------------------------------------------


class InvariantError(Exception):
    """One invariant does not hold; ``invariant`` names it, the message says how."""

    def __init__(self, invariant: str, message: str) -> None:
        super().__init__(f"[{invariant}] {message}")
        self.invariant = invariant
        self.message = message


@functools.cache
def deck_of(ruleset: hr.Ruleset) -> Counter[hr.Card]:
    """The ruleset's deck as a multiset of card faces."""
    return Counter(physical.card for physical in ruleset.deck.cards())


def _hands(game: hr.Round) -> list[tuple[hr.Card, ...]]:
    hands = []
    for seat in range(game.players):
        try:
            hands.append(game.hand(seat))
        except Exception as error:
            raise InvariantError("conservation", f"hand({seat}) raised {error!r}") from error
    return hands


def check_conservation(game: hr.Round) -> None:
    """Invariant 1: every card of the deck is in exactly one place, no hand below zero."""
    hands = _hands(game)
    have: Counter[hr.Card] = Counter()
    for hand in hands:
        have.update(hand)
    have.update(game.stock)
    have.update(game.discards)
    for meld in game.table:
        have.update(meld.meld.cards)
    if game.indicator is not None:
        have[game.indicator] += 1
    want = deck_of(game.ruleset)
    if have != want:
        extra = hr.format_cards(sorted(have - want, key=lambda card: card.index))
        missing = hr.format_cards(sorted(want - have, key=lambda card: card.index))
        raise InvariantError(
            "conservation", f"cards not conserved: extra [{extra}], missing [{missing}]"
        )
    # hand() lists each card as many times as it is held, so a count below zero is
    # invisible there; the public hand sizes are sums of the counts and show it
    sizes = game.view(game.turn).hand_sizes
    listed = tuple(len(hand) for hand in hands)
    if sizes != listed:
        raise InvariantError(
            "conservation",
            f"hand sizes {sizes} disagree with the hands listed ({listed}): "
            "some count is negative or hidden",
        )


def check_shown(game: hr.Round) -> None:
    """The cards everyone knows a seat holds (a view's ``shown``) are in that hand, and the
    demoted ones among them are demoted there."""
    view = game.view(game.turn)
    if not view.shown:
        return
    for seat, (cards, demoted) in enumerate(zip(view.shown, view.shown_demoted, strict=True)):
        missing = Counter(cards) - Counter(game.hand(seat))
        missing += Counter(demoted) - Counter(game.hand_demoted(seat))
        if missing:
            text = hr.format_cards(sorted(missing.elements(), key=lambda card: card.index))
            raise InvariantError("shown", f"seat {seat} is shown to hold [{text}], not held")


def check_renewal(game: hr.Round) -> None:
    """A renewed stock holds the cards turned into it less every seat's draws since."""
    renewal = game.view(0).renewal
    if not renewal:
        return
    drawn = [game.view(seat).drawn for seat in range(game.players)]
    left = Counter(renewal)
    for cards in drawn:
        left.subtract(cards)
    if -left or Counter(game.stock) != +left:
        raise InvariantError(
            "renewal",
            f"the stock holds {len(game.stock)} cards; {len(renewal)} were renewed, "
            f"{sum(map(len, drawn))} drawn since, and they are not the same cards",
        )


def snapshot(game: hr.Round) -> tuple[object, ...]:
    """The round's compared fields, to see later that nothing changed them.

    Only the fields that take part in equality: caches may fill in without changing
    the round. The values are immutable, so holding them is a deep enough copy.
    """
    return attrs.astuple(game, recurse=False, filter=lambda attribute, _: bool(attribute.eq))


def list_actions(game: hr.Round) -> list[hr.Action]:
    """The complete listing; invariants 4 (no duplicates, deterministic) on the way."""
    try:
        legal = list(game.legal_actions())
    except Exception as error:
        raise InvariantError("engine-error", f"legal_actions() raised {error!r}") from error
    if not legal:
        raise InvariantError("dead-end", f"no legal action in phase {game.phase.value}")
    if len(set(legal)) != len(legal):
        twice = [str(a) for a, n in Counter(legal).items() if n > 1]
        raise InvariantError("duplicates", "listed more than once: " + "; ".join(twice))
    # a round caches its listing, so asking the same object again proves nothing;
    # an equal round built afresh has to compute it again
    again = list(attrs.evolve(game).legal_actions())
    if again != legal:
        first = next(
            (i for i, (a, b) in enumerate(zip(legal, again)) if a != b), min(len(legal), len(again))
        )
        raise InvariantError(
            "determinism",
            f"an equal round lists {len(again)} actions, this one {len(legal)}; "
            f"they first differ at position {first}",
        )
    return legal


def check_listed(game: hr.Round, actions: Iterable[hr.Action]) -> int:
    """Invariant 2: check() accepts every one of ``actions``; returns how many were checked."""
    checked = 0
    for action in actions:
        verdict = game.check(action)
        if not verdict.ok:
            codes = ", ".join(code.value for code in verdict.codes)
            raise InvariantError(
                "listing", f"listed action {action} refused by check(): {verdict} [{codes}]"
            )
        checked += 1
    return checked


def cards_used(action: hr.Action) -> Counter[hr.Card]:
    """The cards ``action`` takes from the player's hand."""
    if isinstance(action, hr.LayDown):
        return Counter(card for meld in action.melds for card in meld.cards)
    if isinstance(action, (hr.LayOff, hr.Discard)):
        return Counter([action.card])
    if isinstance(action, hr.Exchange):
        return Counter(action.cards)
    return Counter()


def check_held(game: hr.Round, actions: Iterable[hr.Action]) -> None:
    """Invariant 2, cheaply: a listed action plays only cards the player holds.

    A card the engine still believes in after it left the hand (a stale record of a
    demoted wild, say) shows up here at the first listing that offers it, before a
    later transition turns it into a conservation failure.
    """
    held = Counter(game.hand(game.turn))
    for action in actions:
        lacking = cards_used(action) - held
        if lacking:
            cards = hr.format_cards(sorted(lacking.elements(), key=lambda card: card.index))
            raise InvariantError(
                "listing",
                f"listed {action} plays {cards}, which seat {game.turn} does not hold "
                f"(hand: {hr.format_cards(game.hand(game.turn))})",
            )


def illegal_probes(game: hr.Round) -> Iterator[hr.Action]:
    """Actions that no ruleset allows in this position, cheap to build."""
    hand = game.hand(game.turn)
    held = set(hand)
    absent = next((card for card in hr.CARDS if card not in held), None)
    if absent is not None:
        yield hr.Discard(absent)
        if game.table:
            # a real target, so the lay-off rules get as far as the missing card
            yield hr.LayOff(game.table[0].id, absent)
    if hand:
        yield hr.LayOff(10_000, hand[0])
        yield hr.Exchange(10_000, (hand[0],))
    yield hr.LayDown(())
    if game.phase is not hr.Phase.DRAW:
        yield hr.DrawStock()
    if game.phase is not hr.Phase.REDEAL:
        yield hr.ClaimRedeal()


def check_refused(game: hr.Round, action: hr.Action) -> None:
    """Invariant 3: ``check`` refuses ``action`` and ``apply`` raises, changing nothing."""
    before = snapshot(game)
    verdict = game.check(action)
    if verdict.ok:
        raise InvariantError("refusal", f"check() accepts the illegal probe {action}")
    try:
        game.apply(action)
    except hr.IllegalActionError as refused:
        if refused.verdict != verdict:
            raise InvariantError(
                "refusal",
                f"apply({action}) raised with another verdict than check(): "
                f"{refused.verdict.codes} != {verdict.codes}",
            ) from None
    except Exception as error:
        raise InvariantError(
            "refusal", f"apply({action}) raised {error!r}, not IllegalActionError"
        ) from error
    else:
        raise InvariantError("refusal", f"apply() accepts {action}, which check() refuses")
    if snapshot(game) != before:
        raise InvariantError("refusal", f"refusing {action} changed the round")


def check_probes(game: hr.Round) -> int:
    """Every probe of :func:`illegal_probes` refused; returns how many were tried."""
    probes = 0
    for action in illegal_probes(game):
        check_refused(game, action)
        probes += 1
    return probes


def apply_checked(game: hr.Round, action: hr.Action) -> hr.Round:
    """Apply a listed action: the result records it and the original stays as it was."""
    before = snapshot(game)
    try:
        after = game.apply(action)
    except hr.IllegalActionError as error:
        raise InvariantError("engine-error", f"apply() refuses listed {action}: {error}") from error
    except Exception as error:
        raise InvariantError("engine-error", f"apply({action}) raised {error!r}") from error
    if snapshot(game) != before:
        raise InvariantError("refusal", f"applying {action} changed the round it was applied to")
    if after.history != (*game.history, action):
        raise InvariantError("engine-error", f"the history does not end with {action}")
    return after


def check_json(game: hr.Round) -> None:
    """Invariant 6: JSON text of the round loads back to an equal round."""
    try:
        text = serialize.dumps(game)
        loaded = serialize.loads(text)
    except hr.HandRummyError as error:
        raise InvariantError("json", f"the round does not survive JSON: {error}") from error
    if loaded != game:
        raise InvariantError("json", "the round loaded from JSON differs from the round saved")


def check_end(game: hr.Round) -> None:
    """Invariant 7: a finished round has an outcome, one score per seat, nothing to do."""
    outcome = game.outcome
    if outcome is None:
        raise InvariantError("outcome", "the round is over but has no outcome")
    scores = outcome.score.scores
    if len(scores) != game.players:
        raise InvariantError("outcome", f"{len(scores)} scores for {game.players} seats: {scores}")
    leftover = list(game.legal_actions())
    if leftover:
        raise InvariantError("outcome", f"a finished round lists {leftover[0]} and more")


# --- one round ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """How thoroughly to check; none of it changes which round a seed plays."""

    sample: int | None = None
    """Check only this many listed actions per decision (and the one played); None: all."""
    json_every: int = JSON_EVERY
    """Decisions between JSON round trips mid-round; 0: only at the end."""
    step_cap: int = STEP_CAP
    out: str | None = None
    """Directory for the JSON of failing rounds; None: do not write any."""


@dataclass
class Failure:
    """Everything needed to reproduce one failed invariant."""

    case: str
    seed: int
    players: int
    dealer: int
    step: int
    """How many actions had been applied when the failure was seen."""
    invariant: str
    message: str
    history: list[str]
    culprit: str | None = None
    """The action whose transition failed, when the failure came after one."""
    path: str | None = None
    greedy: float = 0.0
    """The share of greedy moves the round was played with (``--greedy``)."""

    def report(self, last: int = LAST_ACTIONS) -> str:
        shown = self.history[-last:]
        skipped = len(self.history) - len(shown)
        lines = [
            f"FAILURE [{self.invariant}] {self.case} seed={self.seed} players={self.players} "
            f"dealer={self.dealer} step={self.step}",
            f"  {self.message}",
        ]
        if self.culprit is not None:
            lines.append(f"  after action #{self.step}: {self.culprit}")
        lines.append(f"  last {len(shown)} of {len(self.history)} actions:")
        lines.extend(f"    {skipped + i + 1:>4}. {text}" for i, text in enumerate(shown))
        if self.path is not None:
            lines.append(f"  round JSON: {self.path}")
        policy = f" --greedy {self.greedy}" if self.greedy else ""
        lines.append(
            f"  reproduce: python benchmarks/soak.py --repro {self.case}:{self.seed}{policy}"
        )
        return "\n".join(lines)


@dataclass
class RoundResult:
    """What one round did and checked."""

    case: str
    seed: int
    decisions: int = 0
    transitions: int = 0
    """States checked for conservation: the deal and the state after every action."""
    checked: int = 0
    """Listed actions put to check()."""
    probes: int = 0
    json_trips: int = 0
    ending: str | None = None
    seconds: float = 0.0
    slowest: float = 0.0
    """Seconds of the slowest decision, every check included."""
    slowest_step: int = 0
    """The history length of the position where that decision was made."""
    failure: Failure | None = None


def stock_renews_forever(ruleset: hr.Ruleset) -> bool:
    """Whether the discard pile becomes a new stock as often as needed (Gulf Hand, 003 §G9).

    Under such rules random players can keep a round going for ever (nobody is
    obliged to go out), so hitting the step cap there is no fault; the round
    is counted as ``capped``.
    """
    stock = ruleset.stock
    return stock.trigger is StockTrigger.EMPTY_ON_DRAW and stock.reshuffles is None


def deal(case: Case, seed: int) -> tuple[hr.Round, random.Random]:
    """The round ``seed`` deals for ``case``, and the random source that chooses its actions."""
    ruleset = ruleset_of(case)
    chooser = random.Random(seed)
    players = chooser.choice(player_counts(ruleset))
    dealer = chooser.randrange(players)
    return hr.Round.deal(ruleset, players=players, seed=seed, dealer=dealer), chooser


def _dump(failure: Failure, good: hr.Round, bad: hr.Round | None, out: str) -> str:
    """Write the last good round (and the bad one, if it can be written) as JSON."""
    document: dict[str, Any] = {
        "case": failure.case,
        "seed": failure.seed,
        "step": failure.step,
        "invariant": failure.invariant,
        "message": failure.message,
        "culprit": failure.culprit,
        "history": [serialize.action_to_json(a) for a in (good if bad is None else bad).history],
        "round": serialize.round_to_json(good),
    }
    if bad is not None:
        try:
            document["failing_round"] = serialize.round_to_json(bad)
        except Exception as error:  # a broken round may not even write
            document["failing_round"] = f"could not be written: {error!r}"
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{failure.case}-{failure.seed}-step{failure.step}.json")
    with open(path, "w", encoding="utf-8") as file:
        json.dump(document, file, indent=1)
    return path


def play_round(
    case: Case, seed: int, options: Options = Options(), greedy: float = 0.0
) -> RoundResult:
    """Deal ``case`` with ``seed``, play random legal actions, check every invariant.

    With ``greedy``, that share of the moves (drawn from the round's own random source)
    is the greedy bot's choice among the listed actions. Returns the counts; a failed
    invariant (or an engine error) ends the round early and is returned as
    ``result.failure`` rather than raised.
    """
    result = RoundResult(case.label, seed)
    start = time.perf_counter()
    try:
        game, chooser = deal(case, seed)
    except Exception as error:
        message = f"dealing raised {error!r}"
        result.failure = Failure(case.label, seed, 0, 0, 0, "engine-error", message, [])
        return result
    # a separate source for sampling, so that --sample never changes the actions played
    sampler = random.Random(seed ^ 0x5EED)
    bot = hr.GreedyBot(seed) if greedy else None
    good, bad = game, None
    try:
        check_conservation(game)
        check_shown(game)
        check_renewal(game)
        result.transitions += 1
        endless = stock_renews_forever(game.ruleset)
        while not game.is_over:
            if result.decisions >= options.step_cap:
                if endless:
                    break  # nothing in these rules ends a round that nobody goes out of
                raise InvariantError("step-cap", f"not over after {options.step_cap} decisions")
            good, bad = game, None
            begun = time.perf_counter()
            legal = list_actions(game)
            check_held(game, legal)
            if bot is not None and chooser.random() < greedy:
                action = bot.decide(Choice(game.turn, game=game, legal=legal))
            else:
                action = chooser.choice(legal)
            if options.sample is None or options.sample >= len(legal):
                result.checked += check_listed(game, legal)
            else:
                picked = sampler.sample(legal, options.sample)
                result.checked += check_listed(game, [*picked, action])
            result.probes += check_probes(game)
            bad = game = apply_checked(game, action)
            result.decisions += 1
            check_conservation(game)
            check_shown(game)
            check_renewal(game)
            result.transitions += 1
            if options.json_every and result.decisions % options.json_every == 0:
                check_json(game)
                result.json_trips += 1
            # a pathological position is a fault of its own kind (a listing that takes
            # seconds), so the worst one is kept to be named in the summary
            spent = time.perf_counter() - begun
            if spent > result.slowest:
                result.slowest, result.slowest_step = spent, result.decisions - 1
        good, bad = game, None
        check_json(game)
        result.json_trips += 1
        if not game.is_over:
            result.ending = "capped"
            return result
        check_end(game)
        assert game.outcome is not None
        result.ending = game.outcome.ending.value
    except Exception as error:
        if isinstance(error, InvariantError):
            invariant, message = error.invariant, error.message
        else:
            invariant, message = "engine-error", repr(error)
        failure = Failure(
            case=case.label,
            seed=seed,
            players=game.players,
            dealer=game.dealer,
            step=len(game.history),
            invariant=invariant,
            message=message,
            history=[str(a) for a in game.history],
            culprit=str(game.history[-1]) if bad is not None else None,
            greedy=greedy,
        )
        if options.out is not None:
            try:
                failure.path = _dump(failure, good, bad, options.out)
            except Exception as dump_error:
                failure.message += f" (writing the JSON failed: {dump_error!r})"
        result.failure = failure
    result.seconds = time.perf_counter() - start
    return result


# --- many rounds ----------------------------------------------------------------------------


@dataclass
class Tally:
    """The sums over the rounds of one case."""

    rounds: int = 0
    decisions: int = 0
    transitions: int = 0
    checked: int = 0
    probes: int = 0
    json_trips: int = 0
    failures: int = 0
    seconds: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)
    slowest: tuple[float, int, int] = (0.0, 0, 0)
    """The slowest decision: seconds, round seed, step."""

    def add(self, result: RoundResult) -> None:
        self.rounds += 1
        self.decisions += result.decisions
        self.transitions += result.transitions
        self.checked += result.checked
        self.probes += result.probes
        self.json_trips += result.json_trips
        self.failures += result.failure is not None
        self.seconds += result.seconds
        if result.slowest > self.slowest[0]:
            self.slowest = (result.slowest, result.seed, result.slowest_step)
        if result.ending is not None:
            self.endings[result.ending] += 1


Task = tuple[Case, int, float | None, Options, float]
"""A case, a round seed, the wall-clock deadline (time.time()), the options and the share of
greedy moves."""


def _run_task(task: Task) -> RoundResult | None:
    case, seed, deadline, options, greedy = task
    if deadline is not None and time.time() > deadline:
        return None
    return play_round(case, seed, options, greedy)


def tasks(
    cases: Sequence[Case],
    rounds: int,
    base: int,
    deadline: float | None,
    options: Options,
    *,
    greedy: float = 0.0,
) -> Iterator[Task]:
    """Round 0 of every case, then round 1 of every case, ...: a time limit cuts all alike."""
    for number in range(rounds):
        if deadline is not None and time.time() > deadline:
            return  # the workers also check, for the tasks already queued
        for case in cases:
            yield case, round_seed(base, case, number), deadline, options, greedy


def run(
    cases: Sequence[Case],
    rounds: int,
    base: int,
    *,
    jobs: int = 1,
    seconds: float | None = None,
    keep_going: bool = False,
    options: Options = Options(),
    report: Any = print,
    progress: float | None = None,
    greedy: float = 0.0,
) -> tuple[dict[str, Tally], list[Failure]]:
    """Play ``rounds`` rounds of every case; stop at the first failure unless ``keep_going``.

    ``report`` is given each failure's report and, every ``progress`` seconds, a line
    saying how far the run has got.
    """
    tallies = {case.label: Tally() for case in cases}
    failures: list[Failure] = []
    begin = last = time.perf_counter()
    done = 0
    deadline = None if seconds is None else time.time() + seconds
    work = tasks(cases, rounds, base, deadline, options, greedy=greedy)
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        results: Iterable[RoundResult | None] = (
            map(_run_task, work) if pool is None else pool.imap_unordered(_run_task, work, 4)
        )
        for result in results:
            if result is None:
                continue
            tallies[result.case].add(result)
            done += 1
            if progress is not None and time.perf_counter() - last >= progress:
                last = time.perf_counter()
                report(
                    f"... {done} of {rounds * len(cases)} rounds, {len(failures)} failures, "
                    f"{last - begin:.0f} s"
                )
            if result.failure is not None:
                failures.append(result.failure)
                report(result.failure.report())
                if not keep_going:
                    break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return tallies, failures


def table(tallies: dict[str, Tally], wall: float, greedy: float = 0.0) -> str:
    """The summary: one line per case and a total (``greedy``: the rounds' share of greedy
    moves, for the reproduction of the slowest decision)."""
    width = max([len("total"), *map(len, tallies)]) + 2
    header = (
        f"{'case':<{width}}{'rounds':>7}{'decisions':>10}{'transitions':>12}{'checked':>10}"
        f"{'probes':>9}{'json':>6}{'fails':>6}{'rounds/s':>9}{'ms/round':>9}{'worst ms':>9}"
        "  endings"
    )
    lines = [header, "-" * (len(header) + 20)]
    total = Tally()
    worst = ""
    for label, tally in tallies.items():
        lines.append(_row(label, tally, width))
        total.rounds += tally.rounds
        total.decisions += tally.decisions
        total.transitions += tally.transitions
        total.checked += tally.checked
        total.probes += tally.probes
        total.json_trips += tally.json_trips
        total.failures += tally.failures
        total.seconds += tally.seconds
        total.endings.update(tally.endings)
        if tally.slowest > total.slowest:
            total.slowest = tally.slowest
            worst = label
    if len(tallies) > 1:
        lines.append("-" * (len(header) + 20))
        lines.append(_row("total", total, width))
    rate = total.rounds / wall if wall > 0 else 0.0
    lines.append(
        f"{total.rounds} rounds in {wall:.1f} s wall clock ({rate:.1f} rounds/s); "
        "rounds/s and ms/round above are per process"
    )
    if worst:
        spent, seed, step = total.slowest
        lines.append(
            f"slowest decision: {1000 * spent:.0f} ms, {worst} seed={seed} at step {step} "
            f"(--repro {worst}:{seed}{f' --greedy {greedy}' if greedy else ''})"
        )
    return "\n".join(lines)


def _row(label: str, tally: Tally, width: int) -> str:
    rate = tally.rounds / tally.seconds if tally.seconds > 0 else 0.0
    per = 1000 * tally.seconds / tally.rounds if tally.rounds else 0.0
    endings = " ".join(f"{name}={count}" for name, count in sorted(tally.endings.items()))
    return (
        f"{label:<{width}}{tally.rounds:>7}{tally.decisions:>10}{tally.transitions:>12}"
        f"{tally.checked:>10}{tally.probes:>9}{tally.json_trips:>6}{tally.failures:>6}"
        f"{rate:>9.1f}{per:>9.1f}{1000 * tally.slowest[0]:>9.0f}  {endings}"
    )


# --- command line ---------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds per case")
    parser.add_argument(
        "--presets", default=",".join(hr.PRESETS), help="comma-separated; PRESET+VARIANT too"
    )
    parser.add_argument("--variants", action="store_true", help="also each named variant")
    parser.add_argument(
        "--mixes", type=int, default=0, help="also this many compositions of variants per preset"
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed of every round seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seconds", type=float, help="start no round after this many seconds")
    parser.add_argument("--sample", type=int, help="listed actions to check per decision")
    parser.add_argument("--json-every", type=int, default=JSON_EVERY, help="0: at the end only")
    parser.add_argument("--step-cap", type=int, default=STEP_CAP)
    parser.add_argument("--keep-going", action="store_true", help="count failures, go on")
    parser.add_argument(
        "--out",
        default=os.path.join(tempfile.gettempdir(), "hand-rummy-soak"),
        help="where the JSON of failing rounds goes",
    )
    parser.add_argument("--progress", type=float, default=60.0, help="seconds between notes")
    parser.add_argument("--repro", metavar="CASE:SEED", help="play one round, print its fate")
    parser.add_argument(
        "--greedy", type=float, default=0.0, help="share of moves the greedy bot chooses (0-1)"
    )
    args = parser.parse_args(argv)
    if not 0.0 <= args.greedy <= 1.0:
        parser.error(f"--greedy is a share of the moves, from 0 to 1, not {args.greedy}")
    options = Options(args.sample, args.json_every, args.step_cap, args.out)

    if args.repro is not None:
        label, _, seed = args.repro.rpartition(":")
        result = play_round(Case.parse(label), int(seed), options, args.greedy)
        if result.failure is None:
            print(f"{label}:{seed}: no failure in {result.decisions} decisions ({result.ending})")
            return 0
        print(result.failure.report(last=len(result.failure.history)))
        return 1

    names = args.presets.split(",")
    for name in names:
        try:
            ruleset_of(Case.parse(name))
        except hr.HandRummyError as error:
            parser.error(str(error))
    cases = cases_for(names, args.variants, args.mixes, args.seed)
    print(
        f"soak: {len(cases)} case(s) x {args.rounds} rounds, seed {args.seed}, "
        f"jobs {args.jobs}, checking {'all' if args.sample is None else args.sample} "
        f"listed actions per decision"
        + (f", {args.greedy:.0%} of the moves greedy" if args.greedy else ""),
        flush=True,
    )
    begin = time.perf_counter()
    try:
        tallies, failures = run(
            cases,
            args.rounds,
            args.seed,
            jobs=args.jobs,
            seconds=args.seconds,
            keep_going=args.keep_going,
            options=options,
            report=functools.partial(print, flush=True),
            progress=args.progress or None,
            greedy=args.greedy,
        )
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(table(tallies, time.perf_counter() - begin, args.greedy))
    if failures:
        kinds = Counter(f.invariant for f in failures)
        print(f"{len(failures)} failure(s): " + ", ".join(f"{k}={n}" for k, n in kinds.items()))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
