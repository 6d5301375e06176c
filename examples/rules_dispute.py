"""Settle a table argument with the library.

Four friends play Levantine Hand; the indicator is the 8♣, so the two A♣ are
wild. On the table lies 5♠ 5♦ A♣ (the wild stands for a third five). Dina
holds 5♥ and wants to add it; Omar says she may not. Who is right? And may
Dina take the A♣ by putting down the 5♥ and the 5♣?

Run it: ``python examples/rules_dispute.py``.
"""

from __future__ import annotations

import hand_rummy as hr


def main() -> None:
    rules = hr.MeldRules.of(hr.rulesets.levant, indicator="8C")
    table = hr.judge_meld(hr.Meld.of("5S 5D AC"), rules)
    assert table.meld is not None
    print(f"On the table: {table.meld.describe()} ({table.kind.value if table.kind else '?'})")

    plain = hr.lay_off(table.meld, "5H", rules)
    print(f"Dina lays off 5♥ in an ordinary turn: {'allowed' if plain.ok else 'refused'}")
    for violation in plain.verdict.violations:
        print(f"  {violation.code.value}: {violation.message}")
        print(f"  rule: {violation.rule} [{', '.join(violation.rule_ids)}]")

    going_out = hr.lay_off(table.meld, "5H", rules, context=hr.LayoffContext(going_out=True))
    print(f"...and when it lets her go out: {'allowed' if going_out.ok else 'refused'}")

    swap = hr.exchange(table.meld, "5H 5C", rules)
    if swap.ok and swap.meld is not None:
        print(f"Putting down 5♥ and 5♣ frees the {swap.wild}: the meld becomes {swap.meld}")


if __name__ == "__main__":
    main()
