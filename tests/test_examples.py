"""The example programs run and print what the rule documents say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent.parent / "examples"


def _run(name: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=120,
    )
    return done.stdout


def test_rules_dispute_settles_the_two_plus_wild_question() -> None:
    """000 §Exchanging wild cards: one missing card on 2 + wild only when going out."""
    out = _run("rules_dispute.py")
    assert "Dina lays off 5♥ in an ordinary turn: refused" in out
    assert "LAYOFF_TWO_PLUS_WILD" in out
    assert "...and when it lets her go out: allowed" in out
    assert "frees the A♣: the meld becomes 5♠ 5♦ 5♥ 5♣" in out


def test_position_dispute_needs_the_taken_card_melded_first() -> None:
    """000 §Playing a turn: a card taken from the discard pile goes down at once in a new meld
    with two cards of the hand; then the 8♥ is the next card of 9♥ 10♥ J♥ (000 §Melds)."""
    out = _run("position_dispute.py")
    assert "Sami lays off 8♥ on meld 3 now: refused" in out
    assert "TAKE_DISCARD_NOT_MELDED" in out
    assert "meld 5♥ 6♥ 7♥" in out
    assert "After laying down 5♥ 6♥ 7♥, the 8♥ on meld 3: allowed" in out


def test_env_example_plays_random_agents_against_greedy_bots() -> None:
    """Every move, GreedyBot's included, goes through the PettingZoo environment."""
    pytest.importorskip("pettingzoo")
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "env_random_vs_greedy.py"), "--rounds", "4"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=120,
    )
    assert "4 rounds of levant, 4 players" in done.stdout
    assert "random: mean round score" in done.stdout
    assert "greedy: mean round score" in done.stdout
