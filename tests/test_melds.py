"""Table forms of melds that do not depend on how a player wrote them."""

from __future__ import annotations

import hand_rummy as hr

ROMME = hr.MeldRules.of(hr.rulesets.romme)


def test_a_sets_wild_names_the_first_missing_suit_whatever_was_declared() -> None:
    """000 §The first meld: in a group a wild counts as one card of that rank.

    Q♣ Q♥ and a joker miss Q♦ and Q♠; suits go clubs, diamonds, hearts, spades,
    so the table form names Q♦ whether the player declared Q♦, Q♠ or nothing.
    """
    forms = {
        hr.judge_meld(hr.Meld.of("QC QH JK", roles=roles), ROMME).meld
        for roles in ({}, {2: "QD"}, {2: "QS"})
    }
    assert len(forms) == 1
    (form,) = forms
    assert form is not None and form.roles[2] == hr.parse_card("QD")


def test_a_set_wild_may_not_name_a_suit_already_there() -> None:
    """A set holds each suit once (000 §Melds), so the joker cannot be the Q♣ beside Q♣."""
    assert not hr.judge_meld(hr.Meld.of("QC QH JK", roles={2: "QC"}), ROMME).ok
