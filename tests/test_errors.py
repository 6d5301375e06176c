"""Every error the library raises derives from one root, HandRummyError."""

from __future__ import annotations

import subprocess
import sys

import pytest

import hand_rummy as hr
from hand_rummy.bots import RandomBot, play_round


@pytest.mark.parametrize(
    "make",
    [
        lambda: hr.parse_card("ZZ"),
        lambda: hr.build("canasta"),
        lambda: hr.Meld.of("7H 8H", roles={5: "9H"}),
        lambda: hr.Card(hr.Rank.SEVEN, None),
        lambda: hr.RoundEnd.of([("", True), ("KS", True)], went_out=1),
        lambda: hr.Round.deal(hr.rulesets.gulf, players=2, seed=0),
        lambda: hr.Round.deal(hr.rulesets.romme, players=2, seed=0).apply(hr.DrawStock()),
        lambda: play_round(hr.Round.deal(hr.rulesets.romme, players=2, seed=0), [RandomBot()]),
        lambda: hr.rulesets.levant.with_(match=hr.rules.MatchPolicy(length=0)),
        lambda: hr.Round.deal(hr.rulesets.romme, players=2, seed=0).replace(turns=1),
    ],
)
def test_errors_share_one_root(make: object) -> None:
    """A caller can catch every refusal and every bad input with one except clause."""
    with pytest.raises(hr.HandRummyError):
        make()  # type: ignore[operator]


@pytest.mark.parametrize("field", ["ace", "ace_low", "ace_wrapped", "court", "wild"])
def test_a_card_worth_less_than_nothing_toward_an_opening_is_refused(field: str) -> None:
    """A meld's opening value never falls as cards are added; a negative value would make
    it, so the rules refuse one (zero stays allowed)."""
    with pytest.raises(hr.InvalidStateError, match=f"{field} must be 0 or more, not -1"):
        hr.rules.OpeningValues(**{field: -1})
    assert getattr(hr.rules.OpeningValues(**{field: 0}), field) == 0


def test_replace_changes_only_the_fields_named() -> None:
    game = hr.Round.deal(hr.rulesets.romme, players=2, seed=0)
    other = game.replace(turn=1 - game.turn, reshuffles=2)
    assert type(other) is hr.Round
    assert (other.turn, other.reshuffles) == (1 - game.turn, 2)
    assert game.reshuffles == 0 and game.turn != other.turn  # the original is untouched
    for field in ("hands", "stock", "discards", "table", "phase", "history", "finder"):
        assert getattr(other, field) is getattr(game, field)


def test_the_testing_module_without_hypothesis_names_the_extra() -> None:
    """As the other extras do: MissingExtraError, which is both HandRummyError and ImportError."""
    code = (
        "import sys\n"
        "sys.modules['hypothesis'] = None\n"
        "from hand_rummy.extras import MissingExtraError\n"
        "try:\n"
        "    import hand_rummy.testing\n"
        "except MissingExtraError as error:\n"
        "    print(isinstance(error, ImportError), error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout == (
        "True hand_rummy.testing needs hypothesis: install the test extra "
        "(pip install 'hand-rummy[test]')\n"
    )


def test_hand_value_refuses_a_hand_no_deal_could_give() -> None:
    # two packs hold two K♠; with the 8♣ turned as the indicator only one 8♣ is left to hold
    # (the referee's hand_value refuses the same hands)
    levant = hr.MeldRules.of(hr.rulesets.levant, "8C")
    assert hr.hand_value("KS KS 8C", levant) == 28
    with pytest.raises(hr.InvalidStateError, match="hold 3 × K♠, but the deck has only 2"):
        hr.hand_value("KS KS KS", levant)
    with pytest.raises(hr.InvalidStateError, match="hold 3 × 8♣, but the deck has only 2"):
        hr.hand_value("8C 8C", levant)


def test_a_seat_given_a_count_for_its_hand_is_told_how_to_hide_it() -> None:
    """A bare count stands for a hidden hand in ``Position.players``; given to a seat as its
    hand, it used to fail with "cards must be Iterable, not int"."""
    with pytest.raises(hr.InvalidStateError, match=r"PositionSeat\(hand_size=9\)"):
        hr.PositionSeat(9)  # type: ignore[arg-type]
    assert hr.PositionSeat(hand_size=9).hand_size == 9
