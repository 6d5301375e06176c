"""The card a wild stands for takes that wild from the table, in every meld that can hold it.

000 §Exchanging wild cards and 002 §Exchanging a joker say the same thing in their own
words: a player who holds the real card that a wild on the table stands for may put it
in the wild's place and take the wild. So for every legal table meld with one or two
wild cards, built here by trying every small set and run (not by the meld finder), and
for each wild in it, the card named by that wild's role must buy it, where the rules
allow an exchange of one card on that meld at all (``ExchangePolicy``: Levant's set of
three asks for both missing cards, 000; tournament jokers ask for a full set, 002
§Variants). The meld left must hold the card put in, keep every other wild with its
role, and be legal. A fault of this kind went unseen for long: in a set of two jokers
the first one always left, so the card standing for the second was refused.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

import hand_rummy as hr
from hand_rummy.rules.turn import SetSupply

RULES = {
    "levant": hr.MeldRules.of(hr.rulesets.levant, hr.parse_card("8C")),
    "romme": hr.MeldRules.of(hr.rulesets.romme),
    "romme+tournament_jokers": hr.MeldRules.of(hr.build("romme", ["tournament_jokers"])),
    "gulf+joker_exchange": hr.MeldRules.of(hr.build("gulf", ["joker_exchange"])),
    "classic": hr.MeldRules.of(hr.rulesets.classic),
}

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def wild_melds(rules: hr.MeldRules) -> Iterator[hr.Meld]:
    """Every legal set of sevens and run of diamonds up to six cards with one or two of the
    rules' wild cards, each wild's role declared, in table form."""
    wilds = sorted(rules.wilds.wild, key=str)
    pairs = list(itertools.combinations_with_replacement(wilds, 2))
    for count in (1, 2):
        choices = [(w,) for w in wilds] if count == 1 else pairs
        # sets: the naturals are some suits of the seven, the wilds stand for others
        for size in range(1, 4):
            for naturals in itertools.combinations(SUITS, size):
                missing = [s for s in SUITS if s not in naturals]
                for roles in itertools.permutations(missing, count):
                    for faces in choices:
                        cards = [f"7{s}" for s in naturals] + [str(f) for f in faces]
                        declared = {size + k: f"7{s}" for k, s in enumerate(roles)}
                        yield from _judged(cards, declared, rules)
        # runs: diamonds from any rank, the wilds at any places
        for length in range(3, 7):
            for start in range(0, 13 - length + 1):
                ranks = RANKS[start : start + length]
                for places in itertools.combinations(range(length), count):
                    for faces in choices:
                        cards = [f"{r}D" for r in ranks]
                        declared = {}
                        for place, face in zip(places, faces, strict=True):
                            cards[place] = str(face)
                            declared[place] = f"{ranks[place]}D"
                        yield from _judged(cards, declared, rules)


def _judged(cards: list[str], roles: dict[int, str], rules: hr.MeldRules) -> Iterator[hr.Meld]:
    judged = hr.judge_meld(hr.Meld.of(" ".join(cards), roles=roles), rules)
    if judged.ok and judged.meld is not None:
        yield judged.meld


def takes_one_card(meld: hr.Meld, rules: hr.MeldRules) -> bool:
    """Whether the rules let one card buy a wild of ``meld`` (a set may ask for more)."""
    policy = rules.ruleset.exchange
    if not policy.allowed:
        return False
    if hr.judge_meld(meld, rules).kind is hr.MeldKind.RUN:
        return True
    wilds = sum(role is not None for role in meld.roles)
    if policy.set_needs_four and (len(meld) - wilds, wilds) != (3, 1):
        return False
    full = len(meld) == rules.ruleset.sets.max_size
    return policy.set_supply is not SetSupply.BOTH_MISSING or full


@pytest.mark.parametrize("name", list(RULES))
def test_the_card_a_wild_stands_for_takes_it(name: str) -> None:
    rules = RULES[name]
    tried = 0
    for meld in wild_melds(rules):
        if not takes_one_card(meld, rules):
            continue
        for place, role in enumerate(meld.roles):
            if role is None or place in meld.demoted or rules.is_wild(role):
                continue  # a wild standing for a wild face is paid for by no natural card
            swap = hr.exchange(meld, str(role), rules)
            assert swap.ok, f"{name}: {role} for the wild of {meld.describe()}: {swap.verdict}"
            assert swap.wild == meld.cards[place]
            assert swap.meld is not None
            assert hr.judge_meld(swap.meld, rules).ok
            assert role in swap.meld.cards
            others = sorted(
                str(r) for at, r in enumerate(meld.roles) if r is not None and at != place
            )
            assert sorted(str(r) for r in swap.meld.roles if r is not None) == others
            tried += 1
    assert tried > 0  # the rules hold melds with wilds that one card may buy
