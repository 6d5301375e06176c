"""Properties of the meld, lay-off, exchange, opening and scoring rules, checked with hypothesis."""

from collections import Counter

from hypothesis import assume, example, given
from hypothesis import strategies as st

import hand_rummy as hr
from hand_rummy import Code, Meld, MeldRules
from hand_rummy.testing import (
    cards,
    hands,
    meld_rules,
    melds,
    natural_cards,
    runs,
    sets,
)

# The longest run a property draws (13: every rank of a suit).
SHORT = 13


def _naturals(meld: Meld, rules: MeldRules) -> int:
    """How many cards of a meld play as natural cards."""
    return sum(
        1 for i, card in enumerate(meld.cards) if not rules.is_wild(card) or i in meld.demoted
    )


def _fits_deck(all_cards: list[hr.Card], rules: MeldRules) -> bool:
    """Whether the deck holds these cards, beside the turned indicator."""
    deck, indicator = rules.ruleset.deck, rules.wilds.indicator
    return all(
        n + (card == indicator) <= deck.copies(card.is_joker)
        for card, n in Counter(all_cards).items()
    )


@given(st.lists(cards(), max_size=12))
def test_format_parse_round_trip(faces: list[hr.Card]) -> None:
    """Card notation: what format_cards writes, symbols or ASCII, parse_cards reads back."""
    assert hr.parse_cards(hr.format_cards(faces)) == tuple(faces)
    assert hr.parse_cards(hr.format_cards(faces, ascii=True)) == tuple(faces)
    for face in faces:
        assert hr.parse_card(str(face)) is face
        assert hr.parse_card(face.ascii.lower()) is face


@given(st.data(), meld_rules())
def test_set_verdict_ignores_card_order(data: st.DataObject, rules: MeldRules) -> None:
    """A set has no order (sets, 000 §Melds): permuting its cards never changes the verdict."""
    if data.draw(st.booleans(), label="generated set"):
        meld = data.draw(sets(rules), label="set")
    else:
        rank = data.draw(st.sampled_from(list(hr.Rank)), label="rank")
        suits = data.draw(st.lists(st.sampled_from(list(hr.Suit)), min_size=3, max_size=4))
        meld = Meld.of([hr.Card(rank, suit) for suit in suits])
    order = data.draw(st.permutations(range(len(meld))), label="order")
    shuffled = Meld(
        tuple(meld.cards[i] for i in order),
        tuple(meld.roles[i] for i in order),
    )
    before, after = hr.judge_meld(meld, rules), hr.judge_meld(shuffled, rules)
    assert before.ok == after.ok
    assert before.verdict.codes == after.verdict.codes
    assert before.points == after.points


@given(st.data(), meld_rules())
def test_set_never_holds_two_identical_natural_cards(data: st.DataObject, rules: MeldRules) -> None:
    """Two identical cards never sit in one set (000 §Melds: 9♠ 9♠ 9♥ is not a group)."""
    meld = data.draw(sets(rules), label="set")
    natural_at = [i for i, card in enumerate(meld.cards) if not rules.is_wild(card)]
    assume(natural_at)
    twin = data.draw(st.sampled_from(natural_at), label="duplicated position")
    cards = [*meld.cards, meld.cards[twin]]
    roles = [*meld.roles, None]
    if len(cards) > 4 and data.draw(st.booleans(), label="replace instead of add"):
        # keep the set within its size: the duplicate replaces another card
        drop = data.draw(st.sampled_from([i for i in range(len(meld)) if i != twin]))
        del cards[drop], roles[drop]
    order = data.draw(st.permutations(range(len(cards))), label="order")
    duplicated = Meld(tuple(cards[i] for i in order), tuple(roles[i] for i in order))
    judgement = hr.judge_meld(duplicated, rules)
    assert not judgement.ok, duplicated.describe()
    assert judgement.verdict.codes
    if not any(rules.is_wild(c) for c in duplicated.cards) and len(duplicated) <= 4:
        assert set(judgement.verdict.codes) & {Code.SET_IDENTICAL_CARDS, Code.TOO_MANY_COPIES}


def _check_legal(rules: MeldRules, meld: Meld) -> None:
    judgement = hr.judge_meld(meld, rules)
    assert judgement.ok, (meld.describe(), judgement.verdict.codes, str(judgement.verdict))
    assert judgement.meld is not None
    assert judgement.points is not None and judgement.points > 0
    assert Counter(judgement.meld.cards) == Counter(meld.cards)


@given(st.data(), meld_rules())
def test_generated_melds_are_legal(data: st.DataObject, rules: MeldRules) -> None:
    """Every run (up to 12 cards) and set the strategies build is legal (000 §Melds, 002 §Melds)."""
    _check_legal(rules, data.draw(melds(rules, max_length=SHORT), label="meld"))


@given(st.data(), meld_rules())
def test_legal_layoff_keeps_the_meld_valid(data: st.DataObject, rules: MeldRules) -> None:
    """Laying off (000 §Melds, 002 §The first meld): an accepted lay-off leaves a legal meld
    made of the old cards plus the new one, and a run's wild keeps its role."""
    meld = data.draw(melds(rules, max_length=SHORT), label="meld")
    table = hr.judge_meld(meld, rules)
    assert table.meld is not None and table.kind is not None
    context = data.draw(
        st.builds(hr.LayoffContext, st.booleans(), st.booleans(), st.booleans()), label="context"
    )
    for card in hr.NATURAL_CARDS:
        result = hr.lay_off(table.meld, [card], rules, context=context)
        if not result.ok:
            continue
        assert result.meld is not None
        after = hr.judge_meld(result.meld, rules)
        assert after.ok, (table.meld.describe(), card, result.meld.describe())
        assert after.kind is table.kind
        assert Counter(result.meld.cards) == Counter(table.meld.cards) + Counter([card])
        if table.kind is hr.MeldKind.RUN:
            old_roles = Counter(r for r in table.meld.roles if r is not None)
            new_roles = Counter(r for r in result.meld.roles if r is not None)
            assert not old_roles - new_roles


@given(st.data(), meld_rules())
def test_exchange_returns_a_legal_meld_and_a_wild(data: st.DataObject, rules: MeldRules) -> None:
    """Exchanging a wild (000 §Exchanging wild cards): a successful exchange leaves a legal meld
    with no fewer natural cards and hands back a wild card that was in the meld."""
    meld = data.draw(melds(rules, wild=True, max_length=SHORT), label="meld")
    table = hr.judge_meld(meld, rules).meld
    assert table is not None
    roles = [r for r in table.roles if r is not None]
    supplies = [[role] for role in roles]
    supplies.append(data.draw(st.lists(natural_cards(), min_size=1, max_size=2), label="cards"))
    if table.plays_as and len({c.rank for c in table.plays_as}) == 1:
        rank = table.plays_as[0].rank
        present = {c.suit for i, c in enumerate(table.plays_as) if table.roles[i] is None}
        missing = [hr.Card(rank, s) for s in hr.Suit if s not in present]
        supplies.append(missing)
        supplies.extend([card] for card in missing)
    for supply in supplies:
        result = hr.exchange(table, supply, rules)
        if not result.ok:
            continue
        assert result.meld is not None
        assert result.wild is not None
        assert rules.is_wild(result.wild)
        assert result.wild in table.cards
        after = hr.judge_meld(result.meld, rules)
        assert after.ok, (table.describe(), supply, result.meld.describe())
        assert _naturals(result.meld, rules) >= _naturals(table, rules)
        assert Counter(result.meld.cards)[result.wild] < Counter(table.cards)[result.wild]


@given(st.data(), meld_rules())
def test_opening_value_is_the_sum_of_meld_values(data: st.DataObject, rules: MeldRules) -> None:
    """The first meld (000 §The first meld, 004 §4): melds laid together are worth the sum of
    their values, and are accepted exactly when that sum reaches the bar."""
    chosen = data.draw(
        st.lists(melds(rules, max_length=SHORT), min_size=1, max_size=3), label="melds"
    )
    assume(_fits_deck([c for m in chosen for c in m.cards], rules))
    opening = hr.judge_opening(chosen, rules)
    values = [hr.judge_meld(m, rules).points for m in chosen]
    assert None not in values
    assert opening.points == sum(v for v in values if v is not None)
    required = rules.ruleset.opening.required(0, 0, ())
    assert opening.ok == (required is None or opening.points >= required)
    assert hr.judge_opening(chosen, rules, exempt=True).ok


@given(st.data(), meld_rules())
def test_hand_value_is_additive(data: st.DataObject, rules: MeldRules) -> None:
    """Penalties (000 §Scoring): a hand costs the sum of its cards, so values add up."""
    whole = data.draw(hands(data.draw(st.integers(0, 28)), rules.ruleset), label="cards")
    indicator = rules.wilds.indicator
    if indicator is not None:  # the turned indicator is one of the deck's copies of its face
        copies = sum(physical.card == indicator for physical in rules.ruleset.deck.cards())
        assume(whole.count(indicator) < copies)
    cut = data.draw(st.integers(0, len(whole)), label="cut")
    a, b = whole[:cut], whole[cut:]
    assert hr.hand_value(a + b, rules) == hr.hand_value(a, rules) + hr.hand_value(b, rules)
    assert hr.hand_value(a, rules) == sum(hr.card_penalty(c, rules) for c in a)
    assert all(hr.card_penalty(c, rules) > 0 for c in a)
    assert hr.hand_value((), rules) == 0


@given(meld_rules(), st.lists(cards(), max_size=8))
def test_judge_meld_never_raises(rules: MeldRules, faces: list[hr.Card]) -> None:
    """Robustness: any 0-8 cards under any rules get a verdict, never an exception."""
    judgement = hr.judge_meld(Meld.of(faces), rules)
    assert judgement.ok == (judgement.meld is not None)
    assert judgement.ok or judgement.verdict.codes


@given(st.data(), meld_rules(), st.lists(cards(), max_size=8))
def test_judge_meld_never_raises_with_roles(
    data: st.DataObject, rules: MeldRules, faces: list[hr.Card]
) -> None:
    """Robustness: declared roles and demoted positions, however wrong, get a verdict too."""
    roles = data.draw(
        st.lists(st.none() | cards(), min_size=len(faces), max_size=len(faces)), label="roles"
    )
    demoted = data.draw(st.sets(st.sampled_from(range(len(faces)))) if faces else st.just(set()))
    judgement = hr.judge_meld(Meld(tuple(faces), tuple(roles), frozenset(demoted)), rules)
    assert judgement.ok or judgement.verdict.codes


def _check_order_free(rules: MeldRules, meld: Meld, order: list[int]) -> None:
    shuffled = Meld(tuple(meld.cards[i] for i in order), tuple(meld.roles[i] for i in order))
    before, after = hr.judge_meld(meld, rules), hr.judge_meld(shuffled, rules)
    assert before.ok == after.ok, (meld.describe(), shuffled.describe(), after.verdict.codes)
    assert before.verdict.codes == after.verdict.codes
    if len(meld) == 13 and not rules.ruleset.runs.wrap:
        # all thirteen ranks: the written order alone says whether the Ace is low or high
        return
    assert before.points == after.points
    assert before.meld == after.meld


@given(st.data(), meld_rules())
def test_declared_run_verdict_ignores_card_order(data: st.DataObject, rules: MeldRules) -> None:
    """Written order only declares undeclared wild roles (RULES-MATRIX L3): a run with every
    wild's role declared gets the same verdict in any order."""
    meld = data.draw(runs(rules, max_length=SHORT), label="run")
    _check_order_free(rules, meld, data.draw(st.permutations(range(len(meld))), label="order"))


# --- full-length runs -------------------------------------------------------------------------

ALL_CLUBS = Meld.of("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC")
ROUND_THE_CORNER = MeldRules.of(hr.build("romme", ["round_the_corner"]))


def _run_cases() -> st.SearchStrategy[tuple[MeldRules, Meld, list[int]]]:
    """Rules, a generated run of any length (13 included), and an order for its cards."""
    return meld_rules().flatmap(
        lambda rules: runs(rules).flatmap(
            lambda run: st.tuples(st.just(rules), st.just(run), st.permutations(range(len(run))))
        )
    )


@example((ROUND_THE_CORNER, ALL_CLUBS, []))
@given(_run_cases())
def test_generated_runs_of_any_length_are_legal(case: tuple[MeldRules, Meld, list[int]]) -> None:
    """Runs (000 §Melds, 002 §Variants "Round the corner"): a run of all 13 ranks is legal."""
    rules, meld, _ = case
    _check_legal(rules, meld)


@example((MeldRules.of(hr.rulesets.classic), ALL_CLUBS, [*range(11), 12, 11]))
@given(_run_cases())
def test_declared_runs_of_any_length_ignore_card_order(
    case: tuple[MeldRules, Meld, list[int]],
) -> None:
    """Written order only declares undeclared wild roles (RULES-MATRIX L3), for runs of all
    13 ranks too."""
    _check_order_free(*case)
