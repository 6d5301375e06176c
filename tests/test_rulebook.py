"""The rulebook: its registry agrees with the policies, and every violation cites it rightly.

Two kinds of test. The registry tests compare ``hand_rummy.rulebook`` with the
policies of every preset and variant: each rule in force has a source, each
variant changes some rule, and a dimension's ``describe()`` changes exactly
when one of its rules does. The citation tests drive every violation code
through random rounds, crafted positions and meld questions under every preset
(and every single variant of it), and check that each violation cites rules
that exist in the rulebook and lie on the page of its own preset.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator

import pytest

import hand_rummy as hr
from citations import citation_problems
from hand_rummy import Code, Topic, rulebook
from hand_rummy.actions import (
    Action,
    ClaimRedeal,
    Discard,
    DrawStock,
    Exchange,
    LayDown,
    LayOff,
    PassRedeal,
    TakeDiscard,
)
from hand_rummy.rules import DealPolicy, FirstTurn, FixedOpening, Ruleset, standalone
from hand_rummy.testing import player_counts, random_action
from hand_rummy.verdict import Violation, rule_anchor


def _rulesets() -> list[Ruleset]:
    """Every preset, and every preset with one of its variants or switches."""
    found = []
    for name in hr.PRESETS:
        found.append(hr.build(name))
        found.extend(hr.build(name, standalone(name, v.name)) for v in hr.variants_for(name))
    return found


RULESETS = _rulesets()
PSEUDO_DIMENSIONS = {"melds", "turn"}


# --- the registry and the policies ---------------------------------------------------


def test_every_topic_is_answered_by_some_rule() -> None:
    answered = {t for rule in rulebook.RULES for t in rule.topics}
    assert answered == set(Topic)


def test_rule_keys_are_unique_and_ids_well_formed() -> None:
    keys = [rule.key for rule in rulebook.RULES]
    assert len(keys) == len(set(keys))
    for rule_id in rulebook.rule_ids():
        assert re.fullmatch(r"[a-z_]+\.[a-z]+\.[a-z0-9-]+", rule_id), rule_id
        assert rulebook.lookup(rule_id) is not None
    anchors = [rule_anchor(i) for i in rulebook.rule_ids()]
    assert len(anchors) == len(set(anchors))


def test_anchors_are_the_ids_sphinx_gives_the_labels() -> None:
    nodes = pytest.importorskip("docutils.nodes")
    for rule_id in rulebook.rule_ids():
        page, _, fragment = rule_anchor(rule_id).partition("#")
        assert fragment == nodes.make_id(rule_id)
        assert page == f"rules/generated/{rule_id.split('.')[0]}.html"


def test_every_rule_belongs_to_a_part_of_the_pages() -> None:
    parts = {d for _, dimensions in rulebook.PARTS for d in dimensions}
    fields = {field for field, _, _ in hr.rulesets.levant.dimensions()}
    assert parts == fields | PSEUDO_DIMENSIONS
    assert {rule.dimension for rule in rulebook.RULES} <= parts


def test_sources_name_real_documents_and_ambiguities() -> None:
    for rule in rulebook.RULES:
        for document, text in rule.sources:
            assert document in rulebook.DOCUMENTS or document == "library", rule.key
            for item in text.partition("|")[2].split():
                assert item in rulebook.AMBIGUITIES, (rule.key, item)


def test_every_switch_has_its_default_reading_and_its_ambiguity() -> None:
    switches = {v.name: v for v in hr.VARIANTS.values() if v.switch}
    assert set(rulebook.DEFAULT_READINGS) == set(switches)
    for variant in switches.values():
        item = variant.source.removeprefix("RULES-MATRIX").strip()
        assert item in rulebook.AMBIGUITIES, variant.name


@pytest.mark.parametrize("preset", sorted(hr.PRESETS))
def test_each_rule_of_a_page_says_where_it_comes_from(preset: str) -> None:
    for entry in rulebook.page_rules(preset):
        assert entry.words, entry.id
        assert entry.id == f"{preset}.{entry.rule.key}"
        if entry.in_preset:
            assert entry.rule.in_force(hr.PRESETS[preset])
            # a rule of the preset is taken from its document, or is the library's convention
            documents = {s.document for s in entry.sources}
            assert documents & {rulebook.PAGE_DOCUMENTS[preset], "library"}, entry.id
        else:
            # a rule that only a variant brings in names that variant as its source
            assert entry.variants and {s.variant for s in entry.sources} <= {
                v.name for v in entry.variants
            }


@pytest.mark.parametrize("preset", sorted(hr.PRESETS))
def test_every_variant_changes_some_rule_of_its_page(preset: str) -> None:
    """Each variant and switch stands beside a rule it changes: alone, or (like an Ace's value
    round the corner) together with another variant of the preset."""
    beside = {v.name for entry in rulebook.page_rules(preset) for v in entry.variants}
    assert beside == {v.name for v in hr.variants_for(preset)}


@pytest.mark.parametrize("preset", sorted(hr.PRESETS))
def test_every_variant_changes_the_words_of_describe(preset: str) -> None:
    """``rules show`` prints ``describe()``: a variant that leaves its words as they were
    (``wrap_ace_1`` did, though it makes an Ace round the corner count 1) is a rule the
    printed rules do not state. The app's ``rounds_7`` is the one exception: it fixes the
    default length of 7 as the host's choice, and only a match of another length notices."""
    for variant in hr.variants_for(preset):
        names = standalone(preset, variant.name)
        before = hr.build(preset, names[:-1]).describe().splitlines()[1:]  # past the title
        after = hr.build(preset, names).describe().splitlines()[1:]
        assert (before == after) == (variant.name == "rounds_7"), variant.name


def test_describe_words_a_deck_without_jokers_and_a_single_deal() -> None:
    """000's "Without jokers" deck has none, so no joker is said to count as an Ace; 002's
    "everyone has dealt" once."""
    levant = hr.build("levant", ["no_jokers"]).describe()
    assert "104 cards: 2 packs of 52 and no jokers." in levant
    assert "the jokers count" not in levant and "any jokers count" in levant
    deals = hr.build("romme", ["everyone_deals"])
    assert "everyone has dealt once;" in deals.describe()
    match_rules = [e for e in rulebook.page_rules("romme") if e.rule.dimension == "match"]
    worded = [e.rule.words(deals) for e in match_rules if e.rule.in_force(deals)]
    assert any("everyone has dealt once" in w for w in worded), worded
    assert not any("1 times" in w for w in worded)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.title)
def test_describe_and_the_rulebook_agree(ruleset: Ruleset) -> None:
    """What a variant changes in ``describe()``, it changes in the rulebook, and the other way.

    A dimension whose ``describe()`` changes has a rule that changes; a variant that
    changes a rule changes ``describe()``. (A rule may depend on another dimension too,
    as the value of a joker that is not wild depends on the indicator.)
    """
    base = hr.PRESETS[ruleset.name]
    described = {
        field
        for (field, _, before), (_, _, after) in zip(base.dimensions(), ruleset.dimensions())
        if before != after
    }
    ruled = {
        rule.dimension
        for rule in rulebook.RULES
        if rule.in_force(base) != rule.in_force(ruleset)
        or (rule.in_force(base) and rule.words(base) != rule.words(ruleset))
    }
    assert described <= ruled
    assert bool(described) == bool(ruled)


def test_every_rule_is_in_some_preset_or_variant_but_the_custom_only_ones() -> None:
    on_pages = {e.rule.key for page in hr.PRESETS for e in rulebook.page_rules(page)}
    custom_only = {rule.key for rule in rulebook.RULES} - on_pages
    # no preset or variant plays without any wild card
    assert custom_only == {"wilds.none"}
    assert {e.rule.key for e in rulebook.page_rules(rulebook.CUSTOM)} == {
        r.key for r in rulebook.RULES
    }


def test_rules_in_force_cover_every_dimension() -> None:
    for ruleset in RULESETS:
        cited = rulebook.rules_in_force(ruleset)
        keys = {c.id.split(".", 1)[1] for c in cited}
        dimensions = {rulebook.lookup(c.id).rule.dimension for c in cited}  # type: ignore[union-attr]
        assert dimensions == {d for _, ds in rulebook.PARTS for d in ds}, ruleset.title
        assert all(c.id.startswith(f"{ruleset.name}.") for c in cited)
        assert len(keys) == len(cited)


# --- citing ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.title)
def test_a_topic_cites_only_rules_of_its_own_page(ruleset: Ruleset) -> None:
    for topic in Topic:
        if not any(r.in_force(ruleset) for r in rulebook.RULES if topic in r.topics):
            continue  # nothing under these rules can raise it
        for citation in rulebook.cite(ruleset, topic):
            assert citation.id in rulebook.rule_ids()
            assert citation.id.startswith(f"{ruleset.name}."), (topic, citation)


def test_the_same_topic_cites_each_presets_own_rule() -> None:
    def cited(name: str, topic: Topic) -> str:
        return rulebook.cite(hr.PRESETS[name], topic)[0].id

    limits = {name: cited(name, Topic.WILD_COUNT) for name in hr.PRESETS if name != "romme"}
    assert limits == {
        "levant": "levant.wilds.one-per-meld",
        "gulf": "gulf.wilds.by-length",
        "classic": "classic.wilds.one-per-meld",
        "partnership": "partnership.wilds.one-per-meld",
        "saudi": "saudi.wilds.one-per-meld",
        "saudi_partnership": "saudi_partnership.wilds.one-per-meld",
    }
    # Rommé has no count of wild cards, but two natural cards in every meld
    assert cited("romme", Topic.WILD_NATURALS) == "romme.wilds.two-naturals"
    # K-A-2: Levant and Rommé refuse it with their own rule
    assert cited("levant", Topic.RUN_ACE) == "levant.melds.ace-at-ends"
    assert cited("romme", Topic.RUN_ACE) == "romme.melds.ace-at-ends"


def test_words_follow_the_ruleset_in_use() -> None:
    text = rulebook.cite(hr.build("levant", ["opening_71"]), Topic.OPENING_BAR)[0]
    assert (text.id, text.text) == (
        "levant.opening.minimum",
        "A player's first meld of a round must be worth at least 71 points in all.",
    )


def test_a_ruleset_changed_by_hand_cites_the_custom_page() -> None:
    gulf_limits = hr.rulesets.gulf.wild_limits
    levant = hr.rulesets.levant.with_(wild_limits=gulf_limits)
    rules = hr.MeldRules.of(levant, "8C")
    (violation,) = hr.judge_meld(hr.Meld.of("7H AC AC"), rules).verdict.violations
    # the by-length limit is no Levant rule: the Levant page does not hold it
    assert violation.rule_ids == ("custom.wilds.by-length",)
    plain = Ruleset()
    assert rulebook.cite(plain, Topic.OPENING_BAR)[0].id == "custom.opening.minimum"


def test_a_violation_breaking_several_rules_cites_each() -> None:
    rules = hr.MeldRules.of(hr.rulesets.romme)
    judged = hr.judge_opening([hr.Meld.of("2H 3H 4H")], rules)
    (violation,) = judged.verdict.violations
    assert violation.code is Code.OPENING_BELOW_THRESHOLD
    assert violation.rule_ids == ("romme.opening.minimum", "romme.opening.values")
    assert violation.rule == " ".join(c.text for c in violation.cites)
    refused = hr.judge_opening([hr.Meld.of("KH AH 2H"), hr.Meld.of("9S 10S JS")], rules)
    assert refused.verdict.violations[0].rule_ids == (
        "romme.melds.ace-at-ends",
        "romme.opening.together",
    )


# --- driving every code ---------------------------------------------------------------


def _indicators(ruleset: Ruleset) -> list[str | None]:
    if not ruleset.uses_indicator:
        return [None]
    return [i for i in ("8C", "AD") if not ruleset.wilds.turns_again(hr.Card.parse(i))]


_MELDS = (
    "7H",
    "7H 8H",
    "7H 8D 9H",
    "7H 9H 10H",
    "KH AH 2H",
    "7S 7S 7H",
    "7S 7H 7D 7C 7S",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "7H 7H 7H",
    "JK JK JK",
    "JK JK 7H",
    "7H JK JK 10H",
    "5S 5D JK JK",
    "JK 8H 9H",
    "7H AC AC",
    "AC AC AC",
    "5H 6H JK",
    "5H 6H AC",
)


def _meld_questions(rules: hr.MeldRules) -> Iterator[list[Violation]]:
    """Meld, opening, lay-off and exchange questions that break every kind of meld rule."""
    melds = [hr.Meld.of(text) for text in _MELDS] + [
        hr.Meld.of("7H 8H 9H", demoted=[0]),
        hr.Meld.of("JK 8H 9H", demoted=[0], roles={0: "7H"}),
        hr.Meld.of("7H 8H 9H", roles={0: "5H"}),
        hr.Meld.of("JK 8H 9H", roles={0: "JK"}),
        hr.Meld.of("AC 8H 9H", roles={0: "JK"}),
    ]
    for meld in melds:
        yield list(hr.judge_meld(meld, rules).verdict.violations)
    yield list(hr.judge_opening([], rules).verdict.violations)
    yield list(hr.judge_opening([hr.Meld.of("2H 3H 4H")], rules).verdict.violations)
    yield list(hr.judge_opening([hr.Meld.of("2H 3H 4H"), melds[2]], rules).verdict.violations)
    tables = [hr.judge_meld(hr.Meld.of(t), rules).meld for t in ("5S 5D JK", "7H JK 9H")]
    tables += [hr.judge_meld(hr.Meld.of(t), rules).meld for t in ("5S 5D AC", "7H AC 9H")]
    tables += [hr.judge_meld(hr.Meld.of(t), rules).meld for t in ("5S 5D 5H", "7H 8H 9H")]
    for table in tables:
        if table is None:
            continue
        for cards in ("", "10H", "6H", "5C", "JK", "2C", "5H 5C", "8H", "8S", "JK 10H"):
            yield list(hr.lay_off(table, cards, rules).verdict.violations)
            if cards:
                yield list(hr.exchange(table, cards, rules).verdict.violations)


def _probes(game: hr.Round, rng: random.Random) -> Iterator[Action]:
    """Moves to try in a position, legal or not."""
    hand = list(game.hand(game.turn))
    yield from (DrawStock(), TakeDiscard(), ClaimRedeal(), PassRedeal(), LayDown(()))
    yield LayDown((hr.Meld.of("KH AH 2H"),))
    yield Discard(hr.Card.parse("2C"))
    for card in sorted(set(hand)):
        yield Discard(card)
        yield Discard(card, announce=True)
        yield Discard(card, demoted=True)
    yield LayOff(99, hand[0]) if hand else DrawStock()
    for target in game.table:
        for card in sorted(set(hand)):
            yield LayOff(target.id, card)
            yield LayOff(target.id, card, role=hr.Card.parse("5H"))
            yield Exchange(target.id, (card,))
        for pair in itertools.combinations(sorted(set(hand)), 2):
            if rng.random() < 0.05:
                yield Exchange(target.id, pair)
    for _ in range(4):
        if len(hand) >= 3:
            yield LayDown((hr.Meld.of(rng.sample(hand, 3)),))
        if len(hand) >= 6:
            six = rng.sample(hand, 6)
            yield LayDown((hr.Meld.of(six[:3]), hr.Meld.of(six[3:])))


def _round_violations(ruleset: Ruleset, seed: int, chance: float) -> Iterator[list[Violation]]:
    rng = random.Random(seed)
    game = hr.Round.deal(ruleset, player_counts(ruleset)[0], seed=seed)
    for _ in range(400):
        if game.is_over:
            break
        if rng.random() < chance:
            for action in _probes(game, rng):
                yield list(game.check(action).violations)
            # a move sent by a seat that is not to move
            other = (game.turn + 1) % game.players
            yield list(game.check(random_action(game, rng), seat=other).violations)
        game = game.apply(random_action(game, rng))
    for action in (DrawStock(), Discard(hr.Card.parse("2C"))):
        yield list(game.check(action).violations)


def _positions() -> Iterator[tuple[Ruleset, list[Violation]]]:
    """Crafted positions for the codes that random play meets rarely or never."""
    # an empty discard pile: a start with neither an extra card nor an upcard
    blank = hr.rulesets.gulf.with_(
        deal=DealPolicy(13, starter_extra_card=False, upcard=False, first_turn=FirstTurn.NORMAL)
    )
    game = hr.Round.deal(blank, 4, seed=3)
    yield blank, list(game.check(TakeDiscard()).violations)
    # an empty stock: every card not in a hand lies in the discard pile
    deck = [p.card for p in hr.rulesets.gulf.deck.cards()]
    hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
    game = hr.Round.from_deal(hr.rulesets.gulf, hands, [], discards=deck[52:])
    yield hr.rulesets.gulf, list(game.check(DrawStock()).violations)
    # going out on the first turn (000): the starter's neighbour holds 13 cards in melds
    levant = hr.rulesets.levant
    pool = [p.card for p in levant.deck.cards()]
    mine = hr.parse_cards("2H 3H 4H 5H 2S 3S 4S 5S 6S 7D 8D 9D 10D JD")
    for card in mine:
        pool.remove(card)
    pool.remove(hr.Card.parse("8C"))
    others = [pool[:15], list(mine)]
    stock = pool[15:]
    game = hr.Round.from_deal(levant, others, stock, indicator="8C", dealer=1).keep_deal()
    game = game.apply(Discard(game.hand(0)[0]))
    game = game.apply(DrawStock())
    melds = [hr.Meld.of("2H 3H 4H 5H"), hr.Meld.of("2S 3S 4S 5S 6S"), hr.Meld.of("7D 8D 9D 10D JD")]
    yield levant, list(game.check(LayDown(tuple(melds))).violations)
    # a joker discarded while cards are left, under Rommé's tournament jokers
    tournament = hr.build("romme", ["tournament_jokers"])
    for seed in range(50):
        game = hr.Round.deal(tournament, 2, seed=seed)
        if hr.JOKER in game.hand(game.turn):
            yield tournament, list(game.check(Discard(hr.JOKER)).violations)
            break


@pytest.fixture(scope="module")
def driven() -> list[tuple[Ruleset, list[Violation]]]:
    """Every violation met by driving the rules, with the ruleset it was met under."""
    found: list[tuple[Ruleset, list[Violation]]] = []
    for ruleset in RULESETS:
        for indicator in _indicators(ruleset):
            rules = hr.MeldRules.of(ruleset, indicator)
            found.extend((ruleset, v) for v in _meld_questions(rules))
    for number, ruleset in enumerate(RULESETS):
        base = ruleset.variants == ()
        # every preset gets two probed rounds, each variant one round probed more lightly
        for seed in (number, number + 1000) if base else (number,):
            found.extend(
                (ruleset, v) for v in _round_violations(ruleset, seed, 0.3 if base else 0.05)
            )
    found.extend(_positions())
    return found


def test_every_violation_cites_its_own_presets_rules(
    driven: list[tuple[Ruleset, list[Violation]]],
) -> None:
    problems = sorted({p for ruleset, vs in driven for p in citation_problems(ruleset, vs)})
    assert not problems, "\n".join(problems[:20])


NEVER_RAISED = {Code.OPENING_INVALID_MELD, Code.WILD_ROLE_MISSING}
"""Codes kept in the contract that no check of the library raises: a refused meld of an
opening keeps its own code, and an undeclared wild either gets its only role or is
ambiguous."""


def test_the_drive_meets_every_code(driven: list[tuple[Ruleset, list[Violation]]]) -> None:
    met = {v.code for _, vs in driven for v in vs}
    assert met == set(Code) - NEVER_RAISED, sorted(c.value for c in set(Code) - met)


def test_a_preset_rule_changed_by_hand_is_cited_on_the_custom_page() -> None:
    """docs/referee.rst: rule ids are on the preset's page, or ``custom`` for a ruleset
    that is none. Levant with an 81-point bar set by hand is no preset: its violations
    must not point to the Levant page, which states 51."""
    changed = hr.rulesets.levant.with_(opening=FixedOpening(81))
    assert rulebook.page_of(changed) == "custom"
    ids = [c.id for c in rulebook.cite(changed, Topic.OPENING_BAR)]
    assert "custom.opening.minimum" in ids
    assert all(not i.startswith("levant.") for i in ids)
    # a preset with its variants keeps its own page, whichever way it was built
    assert rulebook.page_of(hr.build("levant", ["opening_71"])) == "levant"
    assert rulebook.page_of(hr.rulesets.levant.with_(opening=FixedOpening(51))) == "levant"


@pytest.mark.parametrize("page", rulebook.PAGES)
def test_page_keys_are_the_keys_of_the_pages_rules(page: str) -> None:
    """A citation picks its page from ``page_keys``, worked out without the page's words
    and cross-references: the keys must be exactly those of ``page_rules``."""
    assert rulebook.page_keys(page) == {p.rule.key for p in rulebook.page_rules(page)}
