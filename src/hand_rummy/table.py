"""Changing a meld on the table: laying off cards and exchanging a wild card.

Both are pure functions from a table meld (as :func:`~hand_rummy.melds.judge_meld`
returns it, every role filled in) to the meld after the change. The cards
already on the table keep their places and roles: melds are never rearranged
(000 §Exchanging wild cards).

>>> from hand_rummy.rules import presets
>>> rules = MeldRules.of(presets.levant, "8C")
>>> run = judge_meld(Meld.of("7H AC 9H"), rules).meld
>>> lay_off(run, "10H", rules).meld.describe()
'7♥ A♣(=8♥) 9♥ 10♥'
>>> swap = exchange(run, "8H", rules)
>>> str(swap.meld), swap.wild
('7♥ 8♥ 9♥', Card.parse('AC'))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping

import attrs

from hand_rummy.cards import JOKER, Card, Rank, Suit, format_cards
from hand_rummy.errors import expect
from hand_rummy.melds import (
    CardsLike,
    Meld,
    MeldJudgement,
    MeldRules,
    judge_meld,
    read_cards,
    set_free_places,
)
from hand_rummy.rulebook import violation
from hand_rummy.rules.turn import SetSupply
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.verdict import Code, Topic, Verdict

__all__ = [
    "ExchangeResult",
    "LayoffContext",
    "LayoffResult",
    "exchange",
    "exchange_supplies",
    "lay_off",
]


@attrs.frozen
class LayoffContext:
    """What the 000 rule for a set of two naturals and a wild needs to know about the turn."""

    going_out: bool = False
    """The player gets rid of every card this turn."""
    one_card_announced: bool = False
    """Some player has already announced "one card"."""
    announcing_one_card: bool = False
    """The player will hold exactly one card after discarding, and so announce it."""

    def __attrs_post_init__(self) -> None:
        # a flag given as a string ("no") would read as true and change the verdict
        expect(self.going_out, bool, "going_out")
        expect(self.one_card_announced, bool, "one_card_announced")
        expect(self.announcing_one_card, bool, "announcing_one_card")


@attrs.frozen
class LayoffResult:
    """The verdict on a lay-off and, when it is legal, the meld as it then lies."""

    verdict: Verdict
    meld: Meld | None = None

    @property
    def ok(self) -> bool:
        return self.verdict.ok


@attrs.frozen
class ExchangeResult:
    """The verdict on a wild exchange and, when legal, the meld after it and the freed wild."""

    verdict: Verdict
    meld: Meld | None = None
    wild: Card | None = None
    """The wild card freed from the meld."""

    @property
    def ok(self) -> bool:
        return self.verdict.ok


def _with_roles(cards: CardsLike, roles: Mapping[int, Card | str] | None) -> Meld:
    return Meld.of(cards, roles)


def lay_off(
    meld: Meld,
    cards: CardsLike,
    rules: MeldRules,
    *,
    roles: Mapping[int, Card | str] | None = None,
    demoted: Iterable[int] = (),
    context: LayoffContext = LayoffContext(),
) -> LayoffResult:
    """Add ``cards`` to a table meld; ``roles`` give the roles of added wilds by their index.

    ``demoted`` lists the added cards (by index) that are wilds taken from the
    discard pile, which play as natural cards. The result must be a legal
    meld with the old cards unchanged: in a run the new cards extend its
    ends, a set takes its missing suits.
    """
    expect(meld, Meld, "the table meld")
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    expect(context, LayoffContext, "the context (LayoffContext(going_out=...))")
    ruleset = rules.ruleset
    added = attrs.evolve(_with_roles(cards, roles), demoted=frozenset(demoted))
    if not added.cards:
        return LayoffResult(
            Verdict.of(violation(ruleset, Code.LAYOFF_EMPTY, "no cards to lay off", Topic.LAYOFF))
        )
    before = judge_meld(meld, rules)
    if not before.ok or before.meld is None or before.kind is None:
        return LayoffResult(before.verdict)
    old = before.meld
    if before.kind is MeldKind.SET:
        # the suits that the set's wilds (and demoted jokers) name are free to move
        free = set_free_places(old, rules)
        old = Meld(
            old.cards, tuple(None if i in free else r for i, r in enumerate(old.roles)), old.demoted
        )
    shifted = {len(old) + i for i in added.demoted}
    combined = Meld(old.cards + added.cards, old.roles + added.roles, old.demoted | shifted)
    after = judge_meld(combined, rules)
    # each refusal words its own message: a finishing search tries thousands of lay-offs
    if not after.ok or after.meld is None:
        shown = _shown(added, old)
        reasons = "; ".join(v.message for v in after.verdict.violations)
        code = (
            after.verdict.violations[0].code
            if after.verdict.codes == (Code.WILD_ROLE_AMBIGUOUS,)
            else Code.LAYOFF_BREAKS_MELD
        )
        # the lay-off rule, and the rules of melds that the meld would break
        broken = (t for v in after.verdict.violations for t in v.topics)
        message = f"{shown} does not make a legal meld: {reasons}"
        return LayoffResult(Verdict.of(violation(ruleset, code, message, Topic.LAYOFF, *broken)))
    if after.kind is not before.kind:
        return LayoffResult(
            Verdict.of(
                violation(
                    ruleset,
                    Code.LAYOFF_BREAKS_MELD,
                    f"{_shown(added, old)} would change the kind of meld",
                    Topic.LAYOFF,
                )
            )
        )
    if _two_plus_wild_blocks(old, before, added, rules, context):
        return LayoffResult(
            Verdict.of(
                violation(
                    ruleset,
                    Code.LAYOFF_TWO_PLUS_WILD,
                    f"{_shown(added, old)}: a set of two cards and a wild takes one missing card "
                    "only when you go out this turn or 'one card' has been (or will now be) "
                    "announced",
                    Topic.TWO_PLUS_WILD,
                )
            )
        )
    return LayoffResult(Verdict.legal(), after.meld)


def _shown(added: Meld, old: Meld) -> str:
    return f"{format_cards(added.cards)} on {old.describe()}"


def _two_plus_wild_blocks(
    old: Meld, before: MeldJudgement, added: Meld, rules: MeldRules, context: LayoffContext
) -> bool:
    if not rules.ruleset.layoff.two_plus_wild_rule or before.kind is not MeldKind.SET:
        return False
    wilds = sum(1 for i, c in enumerate(old.cards) if rules.is_wild(c) and i not in old.demoted)
    naturals = len(old) - wilds
    if (naturals, wilds) != (2, 1) or len(added) != 1:
        return False
    return not (context.going_out or context.one_card_announced or context.announcing_one_card)


def exchange(meld: Meld, supplied: CardsLike, rules: MeldRules) -> ExchangeResult:
    """Take a wild card from a table meld by putting in the natural card(s) it stands for."""
    expect(meld, Meld, "the table meld")
    expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    policy = rules.ruleset.exchange
    if not policy.allowed:
        return _refuse(
            rules,
            Code.EXCHANGE_NOT_ALLOWED,
            "these rules do not let a wild be exchanged",
            Topic.EXCHANGE_GATE,
        )
    before = judge_meld(meld, rules)
    if not before.ok or before.meld is None:
        return ExchangeResult(before.verdict)
    table = before.meld
    wild_at = [
        i
        for i, (c, r) in enumerate(zip(table.cards, table.roles))
        if r is not None and i not in table.demoted
    ]
    if not wild_at:
        return _refuse(rules, Code.EXCHANGE_NO_WILD, f"{table} holds no wild card to exchange")
    given = read_cards(supplied)
    if not given or any(
        rules.is_wild(c) or (c.is_joker and rules.wilds.joker_as is None) for c in given
    ):
        return _refuse(rules, Code.EXCHANGE_WRONG_CARDS, "an exchange is paid with natural cards")
    natural = tuple(rules.wilds.natural_as(c) for c in given)
    if before.kind is MeldKind.RUN:
        return _exchange_in_run(table, wild_at, given, natural, rules)
    return _exchange_in_set(table, wild_at, given, natural, rules)


def _refuse(
    rules: MeldRules, code: Code, message: str, topic: Topic = Topic.EXCHANGE
) -> ExchangeResult:
    return ExchangeResult(Verdict.of(violation(rules.ruleset, code, message, topic)))


def _exchange_in_run(
    table: Meld,
    wild_at: list[int],
    given: tuple[Card, ...],
    natural: tuple[Card, ...],
    rules: MeldRules,
) -> ExchangeResult:
    if len(given) != 1:
        return _refuse(
            rules, Code.EXCHANGE_WRONG_CARDS, "a wild in a run is exchanged for exactly one card"
        )
    for i in wild_at:
        if table.roles[i] == natural[0]:
            cards = (*table.cards[:i], *given, *table.cards[i + 1 :])
            roles = (*table.roles[:i], None, *table.roles[i + 1 :])
            return _finish(Meld(cards, roles, table.demoted), table.cards[i], rules)
    stands = ", ".join(str(table.roles[i]) for i in wild_at)
    return _refuse(
        rules,
        Code.EXCHANGE_WRONG_CARDS,
        f"the wild in {table.describe()} stands for {stands}, not {given[0]}",
    )


def _exchange_in_set(
    table: Meld,
    wild_at: list[int],
    given: tuple[Card, ...],
    natural: tuple[Card, ...],
    rules: MeldRules,
) -> ExchangeResult:
    policy = rules.ruleset.exchange
    # a joker that is no wild plays as its Ace (000 §Wild cards) with no role written, so
    # the set's cards are read through the wild rules, not as written
    plays = [
        r if r is not None else rules.wilds.natural_as(c) for c, r in zip(table.cards, table.roles)
    ]
    rank = plays[wild_at[0]].rank
    free = set_free_places(table, rules)
    if policy.set_needs_four and (len(table) - len(wild_at), len(wild_at)) != (3, 1):
        return _refuse(
            rules,
            Code.EXCHANGE_SET_INCOMPLETE,
            f"a wild leaves a set only once it holds three natural cards and the wild "
            f"({table.describe()})",
            Topic.EXCHANGE_SET_FOUR,
        )
    present = {plays[i].suit for i in range(len(table)) if i not in free}
    suits = [c.suit for c in natural]
    if (
        any(c.rank != rank for c in natural)
        or len(set(suits)) != len(suits)
        or present & set(suits)
    ):
        missing = (
            " ".join(str(Card(Rank(rank), s)) for s in Suit if s not in present) if rank else ""
        )
        return _refuse(
            rules,
            Code.EXCHANGE_WRONG_CARDS,
            f"{format_cards(given)} cannot replace the wild in {table.describe()}; "
            f"it is missing {missing}",
            Topic.EXCHANGE_SET,
        )
    if policy.set_supply is SetSupply.BOTH_MISSING:
        full = rules.ruleset.sets.max_size
        if len(table) - 1 + len(given) != full:
            need = full - len(table) + 1
            return _refuse(
                rules,
                Code.EXCHANGE_WRONG_CARDS,
                f"to take the wild from {table.describe()} put in all {need} missing card"
                f"{'s' if need != 1 else ''}",
                Topic.EXCHANGE_SET,
            )
    elif len(given) != 1:
        return _refuse(
            rules,
            Code.EXCHANGE_WRONG_CARDS,
            "a wild in a set is exchanged for one missing card",
            Topic.EXCHANGE_SET,
        )
    # the wild that leaves is the one standing for a card put in, where one does (002: "the
    # real card the joker stands for"), else any; the suits of those that stay are free,
    # and the judge names them again
    i = next((i for i in wild_at if table.roles[i] in natural), wild_at[0])
    cards = table.cards[:i] + table.cards[i + 1 :] + given
    kept = tuple(None if at in free else r for at, r in enumerate(table.roles))
    roles = kept[:i] + kept[i + 1 :] + (None,) * len(given)
    demoted = frozenset(d - (d > i) for d in table.demoted)
    return _finish(Meld(cards, roles, demoted), table.cards[i], rules)


def _finish(after: Meld, wild: Card, rules: MeldRules) -> ExchangeResult:
    judged = judge_meld(after, rules)
    if not judged.ok:
        return ExchangeResult(judged.verdict)
    return ExchangeResult(Verdict.legal(), judged.meld, wild)


@functools.lru_cache(maxsize=1024)
def exchange_supplies(meld: Meld, kind: MeldKind, rules: MeldRules) -> tuple[tuple[Card, ...], ...]:
    """The cards that could pay for a wild of the table meld ``meld`` (none if it holds no
    wild that can be taken): in a run the card for the wild's place, in a set any of its
    missing cards, each card spelt by every face that plays as it (a joker that is not wild
    plays as a natural Ace of the indicator suit, 000 §Wild cards). Which of them the rules
    accept is :func:`exchange`'s to say. Remembered: a table meld is asked about at every
    turn until it changes."""
    wilds = [
        i
        for i, (c, r) in enumerate(zip(meld.cards, meld.roles))
        if r is not None and i not in meld.demoted and rules.is_wild(c)
    ]
    if not wilds:
        return ()
    joker_plays = None if rules.is_wild(JOKER) else rules.wilds.joker_as
    spelt: list[tuple[Card, ...]] = []
    for supply in _needed(meld, kind, rules, wilds):
        faces = [(c, JOKER) if c == joker_plays else (c,) for c in supply]
        spelt.extend(itertools.product(*faces))
    return tuple(dict.fromkeys(tuple(sorted(s)) for s in spelt))


def _needed(
    meld: Meld, kind: MeldKind, rules: MeldRules, wilds: list[int]
) -> list[tuple[Card, ...]]:
    if kind is MeldKind.RUN:
        return list(dict.fromkeys((r,) for i in wilds if (r := meld.roles[i]) is not None))
    plays = [r or rules.wilds.natural_as(c) for c, r in zip(meld.cards, meld.roles)]
    rank = plays[0].rank
    free = set_free_places(meld, rules)
    present = {c.suit for i, c in enumerate(plays) if i not in free}
    assert rank is not None
    missing = [Card(rank, suit) for suit in Suit if suit not in present]
    options: list[tuple[Card, ...]] = []
    for size in range(1, len(missing) + 1):
        options.extend(itertools.combinations(missing, size))
    return options
