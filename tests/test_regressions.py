"""Cases that once went wrong, each with the rule that decides it."""

from __future__ import annotations

import hand_rummy as hr


def test_run_never_holds_the_same_card_twice() -> None:
    """000 §Wild cards: under the 8♣ the joker is the natural A♣, so a run from it up to the
    K♣ cannot take a wild standing for a second A♣ on top (a run holds each rank once)."""
    rules = hr.MeldRules.of(hr.rulesets.levant, "8C")
    run = hr.judge_meld(hr.Meld.of("JK 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"), rules)
    assert run.ok and run.meld is not None
    assert not hr.lay_off(run.meld, "AC", rules).ok
    fourteen = hr.Meld.of("JK 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", roles={13: "AC"})
    assert hr.judge_meld(fourteen, rules).verdict.codes == (hr.Code.RUN_TOO_LONG,)
