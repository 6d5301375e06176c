"""How many may play, as the documents say it (RULES-MATRIX §2.1, "Players"), asked of a
round being dealt: the counts below are the documents', not the library's table.

* 000 §Overview: 2-4 players; its Partnership Hand variant: four, in two teams.
* 002 §Overview: 2-6 players.
* 003 §Overview: "Four players compete individually".
* 004 §What you need: 2 to 4 in Hand Classic and Saudi Hand, exactly 4 in the two
  partnership variants.
"""

from __future__ import annotations

import pytest

import hand_rummy as hr

ALLOWED = {
    "levant": {2, 3, 4},
    "levant+partnership": {4},
    "romme": {2, 3, 4, 5, 6},
    "gulf": {4},
    "classic": {2, 3, 4},
    "saudi": {2, 3, 4},
    "partnership": {4},
    "saudi_partnership": {4},
}


def test_every_preset_is_covered() -> None:
    assert set(hr.PRESETS) <= set(ALLOWED)


@pytest.mark.parametrize(("spec", "allowed"), sorted(ALLOWED.items()))
def test_a_round_deals_to_exactly_the_players_the_document_allows(
    spec: str, allowed: set[int]
) -> None:
    preset, *variants = spec.split("+")
    ruleset = hr.build(preset, variants)
    for players in range(1, 9):
        if players in allowed:
            game = hr.Round.deal(ruleset, players=players, seed=players)
            assert sum(1 for seat in range(players) if game.hand(seat)) == players
        else:
            with pytest.raises(hr.HandRummyError, match=str(players)):
                hr.Round.deal(ruleset, players=players, seed=players)
