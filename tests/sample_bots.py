"""Bots for the tournament tests: well-behaved ones made in different ways, and bots that
fail in every way a tournament must report. Importable as ``sample_bots`` (tests/ is on
the path), so they can be named as ``sample_bots:Name`` and sent to worker processes."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time

import hand_rummy as hr

FAIL_AT = 5
"""The decision of a match (counted over the whole match) at which the failing bots fail."""


class SeedlessBot:
    """Takes no seed: the factory is called without arguments."""

    def __init__(self) -> None:
        self.random = hr.RandomBot(0)

    def choose(self, view: hr.PlayerView) -> hr.Action:
        return self.random.choose(view)


class PassiveBot:
    """Never lays anything down: keeps the deal, draws from the stock and discards the first
    card it may. Under 000 its rounds end unscored when the stock runs out, for ever."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: hr.PlayerView) -> hr.Action:
        # no phase offers two of these kinds, so the first one listed is the one wanted; the
        # listing is lazy and lists discards first, so a hand of jokers is not searched
        for action in view.legal_actions():
            if isinstance(action, (hr.PassRedeal, hr.DrawStock, hr.Discard)):
                return action
        return next(iter(view.legal_actions()))


def drawing_bot(seed: int) -> hr.Bot:
    """A factory function: draws from the stock when it may, else plays as GreedyBot."""
    return _Drawer(seed)


class _Drawer:
    def __init__(self, seed: int) -> None:
        self.greedy = hr.GreedyBot(seed)

    def choose(self, view: hr.PlayerView) -> hr.Action:
        if hr.DrawStock() in view.legal_actions():
            return hr.DrawStock()
        return self.greedy.choose(view)


class _Failing:
    """Plays at random, then fails at its FAIL_AT-th decision of the match."""

    def __init__(self, seed: int = 0) -> None:
        self.random = hr.RandomBot(seed)
        self.decisions = 0

    def choose(self, view: hr.PlayerView) -> hr.Action:
        self.decisions += 1
        if self.decisions == FAIL_AT:
            return self.fail(view)
        return self.random.choose(view)

    def fail(self, view: hr.PlayerView) -> hr.Action:
        raise NotImplementedError


class RaisingBot(_Failing):
    def fail(self, view: hr.PlayerView) -> hr.Action:
        raise ValueError("the bot gave up")


class IllegalBot(_Failing):
    """Chooses to discard a card it does not hold."""

    def fail(self, view: hr.PlayerView) -> hr.Action:
        held = set(view.hand)
        card = next(c for c in hr.parse_cards("2H 3H 4H 5H 6H 7H 8H 9H") if c not in held)
        return hr.Discard(card)


class WordBot(_Failing):
    """Answers with a word, not an action."""

    def fail(self, view: hr.PlayerView) -> hr.Action:
        return "draw"  # type: ignore[return-value]


class _UnreadableError(Exception):
    """An exception whose message cannot be read."""

    def __str__(self) -> str:
        raise RuntimeError("no message")


class UnreadableErrorBot(_Failing):
    """Raises an exception whose ``str()`` raises too."""

    def fail(self, view: hr.PlayerView) -> hr.Action:
        raise _UnreadableError


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class UnprintableChoiceBot(_Failing):
    """Answers with an object whose ``repr()`` raises."""

    def fail(self, view: hr.PlayerView) -> hr.Action:
        return _Unprintable()  # type: ignore[return-value]


class SlowBot(_Failing):
    """Takes half a second over one decision."""

    def fail(self, view: hr.PlayerView) -> hr.Action:
        time.sleep(0.5)
        return self.random.choose(view)


class StubbornBot(_Failing):
    """Takes half a second and swallows every exception meanwhile (the timer's too, were it
    an Exception)."""

    def fail(self, view: hr.PlayerView) -> hr.Action:
        end = time.perf_counter() + 0.5
        while time.perf_counter() < end:
            with contextlib.suppress(Exception):
                time.sleep(0.01)
        return self.random.choose(view)


class SeatZeroRaisingBot(_Failing):
    """Fails (raises) at seat 0 of a match whose seed is even: with duplicate deals, in one
    seating of half the deals."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.fails = seed % 31 == 0 and seed // 31 % 2 == 0  # bot_seed: match seed * 31 + seat

    def fail(self, view: hr.PlayerView) -> hr.Action:
        if self.fails:
            raise RuntimeError("seat 0 of an even seed")
        return self.random.choose(view)


class ExitingBot(_Failing):
    """Calls sys.exit (raises SystemExit, which ``except Exception`` lets through)."""

    def fail(self, view: hr.PlayerView) -> hr.Action:
        raise SystemExit(3)


class NotABot:
    """Has no choose method."""

    def __init__(self, seed: int) -> None:
        self.seed = seed


class SometimesRaisingBot(_Failing):
    """Fails (raises) only when its seed is odd."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.odd = seed % 2 == 1

    def fail(self, view: hr.PlayerView) -> hr.Action:
        if self.odd:
            raise RuntimeError("odd seed")
        return self.random.choose(view)


class WorkerKillingBot(_Failing):
    """Kills the worker process it plays in (as the kernel kills one out of memory) when its
    seed is odd; it refuses to play anywhere but in a worker process."""

    def __init__(self, seed: int = 0) -> None:
        if multiprocessing.parent_process() is None:
            raise RuntimeError("WorkerKillingBot plays in worker processes only")
        super().__init__(seed)
        self.odd = seed % 2 == 1

    def fail(self, view: hr.PlayerView) -> hr.Action:
        if self.odd:
            os.kill(os.getpid(), signal.SIGKILL)
        return self.random.choose(view)
