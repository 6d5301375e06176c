"""Table forms of melds that do not depend on how a player wrote them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hand_rummy as hr
from hand_rummy.melds import MeldRules, judge_meld
from hand_rummy.referee import answer
from hand_rummy.rules import MeldKind, wilds
from hand_rummy.verdict import Code

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


def test_the_same_meld_is_judged_by_each_ruleset_own_limits() -> None:
    """judge_meld remembers answers, keyed by the meld and the rules: asking the same meld
    under rules with other wild limits, in turn and again, gets each ruleset's own answer.

    7♥ JK JK 10♥ is a run of four with two jokers side by side. Hand Classic allows one
    joker per meld (004, "The Joker"); Gulf Hand two in a meld of four or more cards, a
    joker counting 25 towards the opening (003); Rommé two side by side in a run of at
    least four (002), each worth the card it stands for: 7 + 8 + 9 + 10.
    """
    meld = hr.Meld.of("7H JK JK 10H", roles={1: "8H", 2: "9H"})
    expected = {"classic": None, "gulf": 7 + 25 + 25 + 10, "romme": 7 + 8 + 9 + 10}
    for name in ("classic", "gulf", "romme", "classic", "gulf", "romme"):
        judged = judge_meld(meld, MeldRules.of(hr.build(name)))
        if expected[name] is None:
            assert judged.verdict.codes == (Code.MELD_TOO_MANY_WILDS,)
        else:
            assert judged.ok and judged.points == expected[name]


def test_an_empty_meld_is_named_as_such() -> None:
    """The message names the meld by its cards; an empty one has none to show."""
    judged = judge_meld(hr.Meld.of(""), hr.MeldRules.of(hr.rulesets.levant, "8C"))
    assert judged.verdict.codes == (Code.MELD_TOO_SHORT,)
    (violation,) = judged.verdict.violations
    assert violation.message == "an empty meld: a meld needs at least three cards"
    # the referee passes the message on, alone and inside an opening
    question = {"rules": "levant", "indicator": "8C", "ask": "meld", "cards": ""}
    (reply,) = answer(question)["violations"]
    assert reply["message"] == "an empty meld: a meld needs at least three cards"
    opening = {"rules": "levant", "indicator": "8C", "ask": "opening", "melds": [""]}
    (reply,) = answer(opening)["violations"]
    assert reply["message"].startswith("meld 1: an empty meld: a meld needs at least three")
    # a short meld that has cards is still named by them
    short = judge_meld(hr.Meld.of("7H 8H"), hr.MeldRules.of(hr.rulesets.levant, "8C"))
    assert short.verdict.violations[0].message == "7♥ 8♥: a meld needs at least three cards"


# Every limit of every preset and every switch that adds one: the finder's quick question
# must give the verdict of the full check.
_LIMITS = sorted(
    {rules.wild_limits for rules in map(hr.build, hr.PRESETS)}
    | {
        hr.rulesets.levant.wild_limits.with_(wilds.AdjacentWilds(4, in_sets=False)),
        hr.rulesets.levant.wild_limits.with_(wilds.NoWildAtRunEnd(), wilds.MaxWildsByLength()),
        hr.rulesets.levant.wild_limits.with_(wilds.ForbiddenMix(), wilds.MinNaturals(3)),
    },
    key=repr,
)


@given(
    limits=st.sampled_from(_LIMITS),
    kind=st.sampled_from([MeldKind.RUN, MeldKind.SET]),
    mask=st.lists(st.booleans(), min_size=1, max_size=14).map(tuple),
)
def test_allows_is_the_verdict_of_check(
    limits: wilds.WildLimits, kind: MeldKind, mask: tuple[bool, ...]
) -> None:
    assert limits.allows(kind, mask) == (not limits.check(kind, mask, "x"))


class _Unreachable:
    """A limit that fails the test if it is ever asked."""

    def check(self, kind: MeldKind, mask: tuple[bool, ...], shown: str) -> None:
        raise AssertionError("asked after a limit was already broken")

    def describe(self) -> str:
        return "never asked"


def test_allows_stops_at_the_first_broken_limit() -> None:
    # one natural card beside two wilds breaks MinNaturals(2) before the last limit is reached
    limits = wilds.WildLimits((wilds.MinNaturals(2), _Unreachable()))
    assert not limits.allows(MeldKind.RUN, (True, True, False))
    # two naturals pass the first limit, so the second is asked
    with pytest.raises(AssertionError, match="already broken"):
        limits.allows(MeldKind.RUN, (True, False, False))


def test_a_wild_that_stands_for_its_own_face_shows_its_role() -> None:
    # with the 8♣ turned, the A♣ is a wild card (000): in A♣ 2♣ 3♣ it plays as the A♣, yet
    # it is still a wild that an exchange could free, and the table form says so
    levant = MeldRules.of(hr.rulesets.levant, "8C")
    meld = judge_meld(hr.Meld.of("AC 2C 3C"), levant).meld
    assert meld is not None
    assert meld.describe() == "A♣(=A♣) 2♣ 3♣"
    assert judge_meld(hr.Meld.of("7H AC 9H"), levant).meld.describe() == "7♥ A♣(=8♥) 9♥"  # type: ignore[union-attr]
    # a demoted wild plays as a natural card: no role to show where it plays as itself
    demoted = hr.Meld.of("AC 2C 3C", roles={0: "AC"}, demoted=[0])
    assert demoted.describe() == "A♣ 2♣ 3♣"
