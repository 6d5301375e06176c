"""The JSON Schemas of the protocol (hand_rummy.schemas) against what the library reads and writes.

Every conformance vector, every JSON example of the docs and the documents and
answers of seeded games of every preset must fit the schemas; malformed
documents that the readers refuse must not; the card pattern must accept
exactly what the card grammar of docs/cards.rst names.
"""

from __future__ import annotations

import ast
import copy
import doctest
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
import referencing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referencing.jsonschema import DRAFT202012

import hand_rummy as hr
from hand_rummy import referee, schemas
from hand_rummy.errors import HandRummyError
from hand_rummy.referee import LIMITS, answer, answer_json
from hand_rummy.rules import standalone
from hand_rummy.serialize import (
    action_from_json,
    action_to_json,
    match_from_json,
    match_to_json,
    meld_to_json,
    round_from_json,
    round_to_json,
    view_from_json,
    view_to_json,
)
from hand_rummy.verdict import Code

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "src" / "hand_rummy" / "conformance" / "vectors"
DOCS = ROOT / "docs"
BASE = "https://hand-rummy.invalid/schemas/"
PROTOCOL = "hand-rummy/referee/1"  # docs/referee.rst, "Protocol version"

JSON = dict[str, Any]


# --- validating ---------------------------------------------------------------------------


def _registry(contents: dict[str, JSON]) -> referencing.Registry[Any]:
    resources = [
        (uri, referencing.Resource.from_contents(schema, default_specification=DRAFT202012))
        for uri, schema in contents.items()
    ]
    return referencing.Registry().with_resources(resources)


def _ascii_only() -> dict[str, JSON]:
    """The schemas with every card narrowed to the form the library writes: ASCII, upper case."""
    contents = schemas.by_id()
    defs = contents[BASE + "common.json"]["$defs"]
    ascii_cards = defs["ascii-card"]["enum"]
    defs["card"] = {"enum": ascii_cards}
    defs["natural-card"] = {"enum": [c for c in ascii_cards if c != "JK"]}
    return contents


REGISTRY = _registry(schemas.by_id())
ASCII_REGISTRY = _registry(_ascii_only())


@cache
def _validator(ref: str, strict_cards: bool = False) -> jsonschema.Draft202012Validator:
    """A validator for ``ref``: a schema name, or a name and a pointer (``answer#/$defs/meld``)."""
    name, _, pointer = ref.partition("#")
    schema = {"$ref": f"{BASE}{name}.json" + (f"#{pointer}" if pointer else "")}
    registry = ASCII_REGISTRY if strict_cards else REGISTRY
    return jsonschema.Draft202012Validator(schema, registry=registry)


def _errors(ref: str, value: Any, *, strict_cards: bool = False) -> list[str]:
    found = _validator(ref, strict_cards).iter_errors(value)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:300]}" for e in found]


def _valid(ref: str, value: Any, *, strict_cards: bool = False) -> None:
    problems = _errors(ref, value, strict_cards=strict_cards)
    assert not problems, f"{ref}: {problems[:3]}"


def _answer_ref(question: Any, reply: JSON) -> str:
    """The schema of the answer that ``question`` should get."""
    if "error" in reply:
        return "answer#/$defs/error"
    return f"answer#/$defs/{question['ask']}"


def _check_answer(question: Any, reply: Any) -> None:
    """An answer fits the schema of its ask, and the schema of any answer."""
    _valid("answer", reply)
    _valid(_answer_ref(question, reply), reply)


# --- the schemas themselves ---------------------------------------------------------------


def test_names_and_files() -> None:
    shipped = sorted(p.stem for p in (ROOT / "src" / "hand_rummy" / "schemas").glob("*.json"))
    assert list(schemas.names()) == shipped
    assert {"question", "answer", "round", "view", "match", "position", "action", "common"} <= set(
        shipped
    )


@pytest.mark.parametrize("name", schemas.names())
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = schemas.load(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"{BASE}{name}.json" == schemas.BASE_URI + f"{name}.json"
    assert schema["title"].startswith("hand-rummy: ")


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "$ref":
                yield inner
            else:
                yield from _refs(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _refs(inner)


@pytest.mark.parametrize("name", schemas.names())
def test_every_ref_resolves(name: str) -> None:
    """A misspelt ``$ref`` would only fail when a document reaches it."""
    resolver = REGISTRY.resolver(base_uri=f"{BASE}{name}.json")
    refs = set(_refs(schemas.load(name)))
    assert refs or name == "common"
    for ref in refs:
        resolver.lookup(ref)  # raises for a ref that leads nowhere


def test_load_gives_a_fresh_copy_and_refuses_unknown_names() -> None:
    first = schemas.load("round")
    first["properties"].clear()
    assert schemas.load("round")["properties"]["format"] == {"const": "hand-rummy/round"}
    assert json.loads(schemas.text("view")) == schemas.load("view")
    with pytest.raises(hr.InvalidStateError, match="no schema named 'deal'"):
        schemas.load("deal")
    with pytest.raises(hr.InvalidStateError):
        schemas.load(3)  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError):
        schemas.load("../pyproject")


# --- the schemas agree with the library's tables --------------------------------------------


def test_presets_and_variants() -> None:
    common = schemas.load("common")["$defs"]
    assert common["preset"]["enum"] == list(hr.PRESETS)
    for preset in hr.PRESETS:
        names = [v.name for v in hr.variants_for(preset)]
        assert common[f"{preset}-variants"]["items"]["enum"] == names


def test_violation_codes() -> None:
    codes = schemas.load("answer")["$defs"]["violation"]["properties"]["code"]["enum"]
    assert sorted(codes) == sorted(c.value for c in Code)


def _documented_error_codes() -> set[str]:
    """The codes of the table in docs/referee.rst, section Errors."""
    text = (DOCS / "referee.rst").read_text(encoding="utf-8")
    section = text.split(".. _referee-errors:")[1].split(".. _referee-limits:")[0]
    return set(re.findall(r"^   \* - ``([A-Z_]+)``$", section, re.MULTILINE))


def test_error_codes_are_the_documented_ones_and_the_library_errors() -> None:
    codes = set(schemas.load("answer")["$defs"]["error-object"]["properties"]["code"]["enum"])
    documented = _documented_error_codes()
    assert {"BAD_QUESTION", "LIMIT", "BAD_JSON", "INTERNAL_ERROR"} <= documented
    # "an exception name": every error class of hand_rummy.errors, by name
    library = {
        name
        for name, value in vars(hr.errors).items()
        if isinstance(value, type) and issubclass(value, HandRummyError)
    }
    assert "InvalidStateError" in library
    assert codes == documented | library


def test_limits_are_the_referees() -> None:
    error = schemas.load("answer")["$defs"]["error-object"]
    assert error["properties"]["limit"]["enum"] == [f.name for f in attrs.fields(referee.Limits)]
    maxima = {
        rule["if"]["properties"]["limit"]["const"]: rule["then"]["properties"]["max"]["const"]
        for rule in error["then"]["allOf"]
    }
    assert maxima == attrs.asdict(LIMITS)


def test_asks() -> None:
    question = schemas.load("question")
    asks = [*referee.ASKS, *referee.ROUND_ASKS]
    assert question["properties"]["ask"]["enum"] == asks
    assert set(asks) <= set(question["$defs"]) and set(asks) <= set(schemas.load("answer")["$defs"])


def _score_question(preset: str, variants: list[str], players: int) -> JSON:
    question: JSON = {
        "rules": preset,
        "variants": variants,
        "ask": "round_score",
        "went_out": None,
        # the stock ended the round, so everyone holds a card (a different one each)
        "players": [{"hand": [f"{rank}D"], "opened": False} for rank in range(2, 2 + players)],
    }
    if hr.build(preset, variants).uses_indicator:
        question["indicator"] = "8C"
    return question


@pytest.mark.parametrize("preset", hr.PRESETS)
def test_player_counts_and_indicators_follow_the_rules(preset: str) -> None:
    """The schema's table of player counts and indicators is the rules' (every variant tried)."""
    for variant in [None, *(v.name for v in hr.variants_for(preset))]:
        variants = list(standalone(preset, variant)) if variant else []
        ruleset = hr.build(preset, variants)
        for players in range(1, 8):
            question = _score_question(preset, variants, players)
            allowed = "error" not in answer(question)
            assert allowed == ruleset.players.allows(players)
            assert (not _errors("question", question)) == allowed, (variant, players)
        # the indicator: required exactly where the rules turn one
        question = _score_question(preset, variants, ruleset.players.minimum)
        with_indicator = {**question, "indicator": "8C"}
        without = {k: v for k, v in question.items() if k != "indicator"}
        assert (not _errors("question", with_indicator)) == ruleset.uses_indicator
        assert (not _errors("question", without)) == (not ruleset.uses_indicator)
        assert ("error" in answer(with_indicator)) != ruleset.uses_indicator


# --- conformance vectors -------------------------------------------------------------------

# Vectors whose question is refused for a reason that a schema cannot see.
BEYOND_A_SCHEMA = {
    "a history that starts with the Rommé dealer drawing is refused": "replaying the history",
    "three copies of the 7H in one hand": "counting the copies of a card",
    "both 8C in hand while one is the indicator": "counting the copies of a card",
    "three jokers in a hand of the app": "counting the copies of a card",
    "five jokers across the hands of a Rommé round": "counting the copies of a card",
    "a seat named in two teams": "the seats of the teams",
    "went_out names no seat": "the number of seats",
}


def _vectors() -> list[Any]:
    cases = []
    for path in sorted(VECTORS.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            cases.append(pytest.param(case, id=f"{path.stem}: {case['name']}"))
    return cases


def _property_schema(ask: str, key: str) -> str:
    defs = schemas.load("answer")["$defs"]
    if key in defs[ask]["properties"]:
        return f"answer#/$defs/{ask}/properties/{key}"
    assert ask == "meld" and key in defs["judgement"]["properties"], (ask, key)
    return f"answer#/$defs/judgement/properties/{key}"


@pytest.mark.parametrize("case", _vectors())
def test_conformance_vector(case: JSON) -> None:
    """The question fits the schema exactly when the referee answers it, and so do the answer
    and every expected value."""
    question, expect = case["question"], case["expect"]
    reply = answer(question)
    problems = _errors("question", question)
    if "error" in expect and case["name"] not in BEYOND_A_SCHEMA:
        assert problems, "the schema accepts a question that the vector expects refused"
    else:
        assert not problems
    _check_answer(question, reply)
    for key, value in expect.items():
        if key == "error":
            _valid("answer#/$defs/error-object/properties/code", value)
        elif key == "codes":
            for code in value:
                _valid("answer#/$defs/violation/properties/code", code)
        elif "error" in expect:
            _valid(f"answer#/$defs/error/properties/{key}", value)
        else:
            _valid(_property_schema(question["ask"], key), value)


def test_the_vectors_beyond_a_schema_exist() -> None:
    names = {c.values[0]["name"] for c in _vectors()}
    assert set(BEYOND_A_SCHEMA) <= names


# --- the examples of the docs -----------------------------------------------------------------


@attrs.frozen
class Example:
    where: str
    question: Any
    shown: Any = None
    """The answer the docs print, when the example prints the whole of it."""


def _literal(source: str) -> Any:
    try:
        return ast.literal_eval(source)
    except (ValueError, SyntaxError):
        return None


def _doctest_examples(name: str, text: str) -> Iterator[Example]:
    for example in doctest.DocTestParser().get_examples(text):
        try:
            tree = ast.parse(example.source)
        except SyntaxError:
            continue
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
            continue
        node = bare = tree.body[0].value
        while isinstance(node, ast.Subscript):
            node = node.value
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in ("answer", "answer_json") or len(node.args) != 1:
            continue
        argument = _literal(ast.get_source_segment(example.source, node.args[0]) or "")
        shown = _literal(" ".join(example.want.split())) if node is bare else None
        where = f"{name}:{example.lineno + 1}"
        if node.func.id == "answer_json":
            if not isinstance(argument, (str, bytes)):
                continue
            try:
                argument = json.loads(argument)
            except ValueError:
                continue  # an example of text that is not JSON
            shown = shown[0] if isinstance(shown, tuple) else None
        if isinstance(argument, dict):
            yield Example(where, argument, shown)


def _json_blocks(name: str, text: str) -> Iterator[tuple[str, Any]]:
    pattern = re.compile(r"^\.\. code-block:: json\n((?:\n|   .*\n|[ \t]+\n)+)", re.MULTILINE)
    for match in pattern.finditer(text):
        line = text[: match.start()].count("\n") + 1
        yield f"{name}:{line}", json.loads(match.group(1))


def _doc_texts() -> list[tuple[str, str]]:
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(DOCS.glob("*.rst"))]
    texts.append(("README.md", (ROOT / "README.md").read_text(encoding="utf-8")))
    texts.append(("hand_rummy.referee", referee.__doc__ or ""))
    texts += [(f"hand_rummy.referee.{f.__name__}", f.__doc__ or "") for f in (answer, answer_json)]
    return texts


def _doc_examples() -> list[Example]:
    found = []
    for name, text in _doc_texts():
        found += _doctest_examples(name, text)
        # the shell examples: echo '{...}' | hand-rummy judge
        for line, shell in enumerate(text.splitlines(), 1):
            for question in re.findall(r"echo '(\{.*\})' \| hand-rummy judge", shell):
                found.append(Example(f"{name}:{line}", json.loads(question)))
    return found


def _doc_json_blocks() -> list[tuple[str, Any]]:
    return [block for name, text in _doc_texts() for block in _json_blocks(name, text)]


def _doc_json_params() -> list[Any]:
    return [pytest.param(value, id=where) for where, value in _doc_json_blocks()]


def test_the_docs_have_examples_to_check() -> None:
    examples = _doc_examples()
    assert len(examples) >= 20
    assert sum(e.shown is not None for e in examples) >= 10
    assert len(_doc_json_blocks()) >= 4
    assert {e.where.split(":")[0] for e in examples} >= {"referee.rst", "README.md", "protocol.rst"}


@pytest.mark.parametrize("example", _doc_examples(), ids=lambda e: e.where)
def test_doc_example(example: Example) -> None:
    """A question of the docs fits the schema exactly when the referee answers it, and the
    answer that the docs print fits the answer schema."""
    reply = answer(example.question)
    problems = _errors("question", example.question)
    assert bool(problems) == ("error" in reply), (problems[:2], reply)
    _check_answer(example.question, reply)
    if example.shown is not None:
        _check_answer(example.question, example.shown)


def _classify(value: Any) -> str:
    """Which schema a JSON block of the docs is an example of."""
    if isinstance(value, list):
        return "question#/$defs/batch" if value and "ask" in value[0] else "answer#/$defs/batch"
    formats = {
        "hand-rummy/round": "round",
        "hand-rummy/view": "view",
        "hand-rummy/match": "match",
        "hand-rummy/position": "position",
    }
    if "format" in value:
        return formats[value["format"]]
    if "ask" in value:
        return "question"
    if "protocol" in value:
        return "answer"
    assert "type" in value, value
    return "action"


@pytest.mark.parametrize("value", _doc_json_params())
def test_doc_json_block(value: Any) -> None:
    kind = _classify(value)
    _valid(kind, value)
    if kind == "question":
        _check_answer(value, answer(value))
    if kind == "question#/$defs/batch":
        replies, clean = answer_json(json.dumps(value))
        assert clean
        for question, reply in zip(value, replies):
            _check_answer(question, reply)


def test_a_json_answer_of_the_docs_is_the_referees_answer_to_the_question_before_it() -> None:
    blocks = [value for _, value in _doc_json_blocks()]
    pairs = [
        (question, shown)
        for question, shown in itertools.pairwise(blocks)
        if _classify(question) == "question" and _classify(shown) == "answer"
    ]
    assert pairs
    for question, shown in pairs:
        assert answer(question) == shown


# --- answers of every shape -----------------------------------------------------------------

SHAPES: list[tuple[str, JSON]] = [
    (
        "an ambiguous meld, with its candidates",
        {
            "rules": "romme",
            "variants": ["one_natural_three_jokers"],
            "ask": "meld",
            "cards": ["7H", "JK", "JK", "JK"],
        },
    ),
    ("a refused lay-off", {"rules": "romme", "ask": "layoff", "meld": "5H 6H 7H", "cards": "9H"}),
    (
        "a refused exchange",
        {"rules": "romme", "ask": "exchange", "meld": "5H JK 7H", "cards": "6S"},
    ),
    (
        "an opening with a refused meld",
        {"rules": "romme", "ask": "opening", "melds": ["5H 6H 7H", "KS KD 2C"]},
    ),
    (
        "team scores",
        {
            "rules": "partnership",
            "ask": "round_score",
            "went_out": 1,
            "teams": [[0, 2], [1, 3]],
            "players": [
                {"hand": "KS 2C", "opened": True},
                {"hand": [], "opened": True},
                {"hand": "JK", "opened": False},
                {"hand": "5D", "opened": True},
            ],
        },
    ),
    (
        "a Hand",
        {
            "rules": "levant",
            "indicator": "8C",
            "ask": "round_score",
            "went_out": 0,
            "finish": "hand",
            "players": [{"hand": []}, {"hand": "KS"}],
        },
    ),
]


@pytest.mark.parametrize("question", [q for _, q in SHAPES], ids=[n for n, _ in SHAPES])
def test_answers_of_every_shape(question: JSON) -> None:
    reply = answer(question)
    assert "error" not in reply, reply
    _valid("question", question)
    _check_answer(question, reply)


def test_the_shapes_are_what_they_say() -> None:
    replies = [answer(q) for _, q in SHAPES]
    assert len(replies[0]["candidates"]) >= 2
    assert [r.get("ok") for r in replies[1:4]] == [False, False, False]
    assert "team_scores" in replies[4]
    # a refused meld inside an opening: no kind, no points, no meld (docs/referee.rst)
    refused = replies[3]["melds"][1]
    assert (refused["ok"], refused["kind"], refused["points"], "meld" in refused) == (
        False,
        None,
        None,
        False,
    )


# --- documents and answers of played games ---------------------------------------------------


def _questions_about(game: hr.Round) -> Iterator[JSON]:
    """Questions that the referee answers without an error, taken from a position."""
    ruleset = game.ruleset
    rules: JSON = {"rules": ruleset.name, "variants": list(ruleset.variants)}
    if game.indicator is not None:
        rules["indicator"] = game.indicator.ascii
    doc = round_to_json(game)
    yield {"ask": "legal_actions", "round": doc, "limit": 40}
    yield {"ask": "legal_actions", "round": doc, "offset": 3, "limit": 2, **rules}
    actions = list(game.legal_actions())
    if not actions:
        return
    rng = random.Random(len(game.history))
    yield {"ask": "action", "round": doc, "action": action_to_json(rng.choice(actions))}
    others = [c for s in range(game.players) if s != game.turn for c in game.hand(s)]
    stranger = next((c for c in others if c not in game.hand(game.turn)), None)
    if stranger is not None:  # not in the hand: refused
        yield {"ask": "action", "round": doc, "action": {"type": "discard", "card": stranger.ascii}}
    hand = game.hand(game.turn)
    yield {**rules, "ask": "hand_value", "cards": [c.ascii for c in hand]}
    if len(hand) >= 3:
        yield {**rules, "ask": "meld", "cards": " ".join(c.ascii for c in rng.sample(hand, 3))}
    table = {m.id: m for m in game.table}
    for action in actions:
        if isinstance(action, hr.LayDown):
            melds = [meld_to_json(m) for m in action.melds]
            yield {
                **rules,
                "ask": "opening",
                "melds": [m["cards"] for m in melds],
                "roles": [m.get("roles") for m in melds],
            }
            yield {**rules, "ask": "meld", **melds[0]}
        elif isinstance(action, hr.LayOff):
            target = meld_to_json(table[action.target].meld)
            yield {**rules, "ask": "layoff", "meld": target["cards"], "cards": [action.card.ascii]}
        elif isinstance(action, hr.Exchange):
            target = meld_to_json(table[action.target].meld)
            yield {
                **rules,
                "ask": "exchange",
                "meld": target["cards"],
                "roles": target.get("roles"),
                "cards": [c.ascii for c in action.cards],
            }
            yield {**rules, "ask": "exchange", "meld": target["cards"], "cards": ["JK"]}


def _score_of(game: hr.Round) -> JSON:
    """A round_score question about a finished round."""
    ruleset = game.ruleset
    question: JSON = {"rules": ruleset.name, "variants": list(ruleset.variants)}
    if game.indicator is not None:
        question["indicator"] = game.indicator.ascii
    outcome = game.outcome
    assert outcome is not None
    went_out = outcome.winner if outcome.ending.value in ("went_out", "hand") else None
    return {
        **question,
        "ask": "round_score",
        "players": [
            {"hand": [c.ascii for c in game.hand(s)], "opened": game.opened[s]}
            for s in range(game.players)
        ],
        "went_out": went_out,
        "finish": "hand" if outcome.ending.value == "hand" else "normal",
    }


def _check_document(kind: str, doc: JSON, read: Callable[[JSON], Any]) -> None:
    _valid(kind, doc)
    _valid(kind, doc, strict_cards=True)  # and every card written in ASCII
    read(doc)  # the library reads what it wrote


@pytest.mark.parametrize("preset", hr.PRESETS)
def test_played_documents_and_answers(preset: str) -> None:
    """Seeded games of every preset: every document written and every answer given fits."""
    rng = random.Random(f"schemas {preset}")
    ruleset = hr.build(preset)
    counts = [n for n in range(2, 7) if ruleset.players.allows(n)]
    asked: set[str] = set()
    for game_number in range(2):
        players = rng.choice(counts)
        game = hr.Round.deal(ruleset, players, seed=rng.randrange(10**9))
        bots: list[hr.Bot] = [
            hr.GreedyBot(rng.randrange(100)) if s % 2 else hr.RandomBot(s) for s in range(players)
        ]
        step = 0
        while True:
            if step % 23 == game_number:
                _check_document("round", round_to_json(game), round_from_json)
                seat = rng.randrange(players)
                _check_document("view", view_to_json(game.view(seat)), view_from_json)
                for question in _questions_about(game):
                    reply = answer(question)
                    assert "error" not in reply, (question["ask"], reply)
                    _valid("question", question)
                    _check_answer(question, reply)
                    asked.add(question["ask"])
            if game.is_over or step > 600:
                break
            game = game.apply(bots[game.turn].choose(game.view(game.turn)))
            step += 1
        _check_document("round", round_to_json(game), round_from_json)
        _check_document("view", view_to_json(game.view(0)), view_from_json)
        if game.is_over:
            question = _score_of(game)
            reply = answer(question)
            assert "error" not in reply, reply
            _valid("question", question)
            _check_answer(question, reply)
    assert asked >= {"legal_actions", "action", "hand_value", "meld"}
    # a short match: at its start, part-way, and over
    match = hr.Match.new(
        ruleset, counts[0], seed=rng.randrange(10**6), length=1, custom_length=True
    )
    _check_document("match", match_to_json(match), match_from_json)
    bots = [hr.GreedyBot(s) for s in range(match.players)]
    moves = 0
    while not match.is_over and moves < 2000:
        assert match.current is not None
        seat = match.current.turn
        match = match.apply(bots[seat].choose(match.current.view(seat)))
        moves += 1
        if moves == 40:
            _check_document("match", match_to_json(match), match_from_json)
    _check_document("match", match_to_json(match), match_from_json)


def test_every_action_type_fits() -> None:
    actions = [
        hr.DrawStock(),
        hr.TakeDiscard(),
        hr.ClaimRedeal(),
        hr.PassRedeal(),
        hr.LayDown((hr.Meld.of("7H AC 9H", roles={1: "8H"}), hr.Meld.of("JK 5H 6H", demoted=[0]))),
        hr.LayOff(3, hr.parse_card("JK"), role=hr.parse_card("8H"), demoted=True),
        hr.Exchange(2, hr.parse_cards("5H 5C")),
        hr.Discard(hr.parse_card("KS"), announce=True, demoted=True),
    ]
    for action in actions:
        doc = action_to_json(action)
        _check_document("action", doc, action_from_json)
        _valid("answer#/$defs/ascii-action", doc)


# --- malformed documents: refused by the schema and by the reader alike ----------------------


def _base_round() -> JSON:
    game = hr.Round.deal(hr.rulesets.levant, 3, seed=11)
    for _ in range(3):
        game = game.apply(next(iter(game.legal_actions())))
    return round_to_json(game)


def _base_view() -> JSON:
    return view_to_json(hr.Round.deal(hr.rulesets.romme, 2, seed=5).view(1))


def _base_match() -> JSON:
    return match_to_json(hr.Match.new(hr.rulesets.classic, 2, seed=4))


def _changed(base: JSON, change: Callable[[JSON], Any]) -> JSON:
    doc = copy.deepcopy(base)
    change(doc)
    return doc


def _set(path: str, value: Any) -> Callable[[JSON], None]:
    """Set the field at ``path`` (keys and list indexes separated by dots)."""

    def change(doc: JSON) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        for part in parents:
            doc = doc[part]
        doc[last] = value  # type: ignore[index]

    return change


def _drop(key: str) -> Callable[[JSON], None]:
    return lambda doc: doc.pop(key)


BAD_DOCUMENTS: list[tuple[str, str, Callable[[JSON], Any], Callable[[], JSON]]] = [
    ("round: unknown field", "round", _set("colour", "red"), _base_round),
    ("round: version 2", "round", _set("version", 2), _base_round),
    ("round: another format", "round", _set("format", "hand-rummy/view"), _base_round),
    ("round: a missing deal", "round", _drop("deal"), _base_round),
    ("round: a card of no suit", "round", _set("deal.stock.0", "7X"), _base_round),
    ("round: the Ace as 1", "round", _set("deal.stock.0", "1H"), _base_round),
    ("round: a long s for S", "round", _set("deal.hands.0.0", "Qſ"), _base_round),
    ("round: Levant with no indicator", "round", _set("deal.indicator", None), _base_round),
    ("round: a joker indicator", "round", _set("deal.indicator", "JK"), _base_round),
    ("round: seven players", "round", _set("players", 7), _base_round),
    ("round: an unknown variant", "round", _set("rules.variants", ["opening_40"]), _base_round),
    ("round: a variant twice", "round", _set("rules.variants", ["opening_71"] * 2), _base_round),
    ("round: a Rommé variant", "round", _set("rules.variants", ["round_the_corner"]), _base_round),
    ("round: an unknown preset", "round", _set("rules.preset", "canasta"), _base_round),
    ("round: a negative dealer", "round", _set("dealer", -1), _base_round),
    ("round: a seed that is text", "round", _set("seed", "7"), _base_round),
    ("round: an unknown action", "round", _set("history.0", {"type": "fly"}), _base_round),
    (
        "round: an action with a field too many",
        "round",
        _set("history.0", {"type": "draw", "card": "7H"}),
        _base_round,
    ),
    ("round: an unknown phase", "round", _set("state.phase", "finished"), _base_round),
    ("round: a state field missing", "round", lambda d: d["state"].pop("stock"), _base_round),
    (
        "round: taken_demoted written false",
        "round",
        _set("state.current.taken_demoted", False),
        _base_round,
    ),
    ("round: outcome before the end", "round", _set("state.outcome", {}), _base_round),
    ("round: state null", "round", _set("state", None), _base_round),
    ("view: a missing field", "view", _drop("stock_size"), _base_view),
    ("view: over without an outcome", "view", _set("phase", "over"), _base_view),
    ("view: an indicator in Rommé", "view", _set("indicator", "8C"), _base_view),
    ("view: seven players", "view", _set("hand_sizes", [0] * 7), _base_view),
    ("view: a negative stock", "view", _set("stock_size", -1), _base_view),
    ("view: an unknown obligation", "view", _set("current.obligation", "pray"), _base_view),
    ("view: opened as text", "view", _set("opened", ["false", "false"]), _base_view),
    ("match: length 0", "match", _set("length", 0), _base_match),
    ("match: over with a round in play", "match", _set("state.over", True), _base_match),
    ("match: unknown field", "match", _set("score", 3), _base_match),
    ("match: a round that is not a round", "match", _set("current", {}), _base_match),
]


@pytest.mark.parametrize(
    ("kind", "change", "base"), [c[1:] for c in BAD_DOCUMENTS], ids=[c[0] for c in BAD_DOCUMENTS]
)
def test_a_malformed_document_is_refused_by_both(
    kind: str, change: Callable[[JSON], Any], base: Callable[[], JSON]
) -> None:
    original = base()
    _valid(kind, original)
    doc = _changed(original, change)
    assert _errors(kind, doc), "the schema accepts it"
    read = {"round": round_from_json, "view": view_from_json, "match": match_from_json}[kind]
    with pytest.raises(HandRummyError):
        read(doc)


def _meld_question(**fields: Any) -> JSON:
    return {"rules": "romme", "ask": "meld", "cards": ["7H", "JK", "9H"], **fields}


def _round_question(**fields: Any) -> JSON:
    return {"ask": "legal_actions", "round": _base_round(), **fields}


def _score(**fields: Any) -> JSON:
    question = {
        "rules": "classic",
        "ask": "round_score",
        "went_out": 0,
        "players": [{"hand": [], "opened": True}, {"hand": ["KS"], "opened": True}],
    }
    return {**question, **fields}


BAD_QUESTIONS: list[tuple[str, JSON, str]] = [
    ("not an object", [], "BAD_QUESTION"),  # type: ignore[list-item]
    ("no ask", {"rules": "romme", "cards": "7H 8H 9H"}, "MISSING_FIELD"),
    ("an unknown ask", _meld_question(ask="fly"), "UNKNOWN_ASK"),
    ("an ask that is not text", _meld_question(ask=["meld"]), "BAD_FIELD"),
    ("no rules", {"ask": "meld", "cards": "7H 8H 9H"}, "MISSING_FIELD"),
    ("unknown rules", _meld_question(rules="canasta"), "UNKNOWN_RULES"),
    ("a field too many", _meld_question(colour="red"), "BAD_FIELD"),
    ("a variant of another preset", _meld_question(variants=["opening_71"]), "UNKNOWN_VARIANT"),
    ("a variant twice", _meld_question(variants=["joker_30", "joker_30"]), "UNKNOWN_VARIANT"),
    ("variants that are not a list", _meld_question(variants=None), "BAD_FIELD"),
    ("an indicator in Rommé", _meld_question(indicator="8C"), "BAD_INDICATOR"),
    ("Levant with no indicator", _meld_question(rules="levant"), "INDICATOR_REQUIRED"),
    ("a joker indicator", _meld_question(rules="levant", indicator="JK"), "BAD_INDICATOR"),
    ("the Ace as 1", _meld_question(cards=["1H", "2H", "3H"]), "BAD_CARD"),
    ("the Ace as 1 in a string", _meld_question(cards="1H 2H 3H"), "BAD_CARD"),
    ("a card that is a number", _meld_question(cards=[7, "8H", "9H"]), "BAD_CARD"),
    ("cards as an object", _meld_question(cards={"0": "7H"}), "BAD_FIELD"),
    ("109 cards", _meld_question(cards=["7H"] * 109), "LIMIT"),
    ("109 cards in a string", _meld_question(cards="7H " * 109), "LIMIT"),
    ("a role at 01", _meld_question(roles={"01": "8H"}), "BAD_FIELD"),
    ("a role at 1 and a line feed", _meld_question(roles={"1\n": "8H"}), "BAD_FIELD"),
    ("a role at a superscript two", _meld_question(roles={"²": "8H"}), "BAD_FIELD"),
    ("roles as a list", _meld_question(roles=["8H"]), "BAD_FIELD"),
    ("a demoted position twice", _meld_question(demoted=[1, 1]), "BAD_FIELD"),
    ("a demoted position true", _meld_question(demoted=[True]), "BAD_FIELD"),
    (
        "context false as text",
        {"rules": "romme", "ask": "opening", "melds": ["7H 8H 9H"], "context": {"hand": "false"}},
        "BAD_FIELD",
    ),
    (
        "an unknown context field",
        {"rules": "romme", "ask": "opening", "melds": ["7H 8H 9H"], "context": {"lucky": True}},
        "BAD_FIELD",
    ),
    ("37 melds", {"rules": "romme", "ask": "opening", "melds": ["7H 8H 9H"] * 37}, "LIMIT"),
    (
        "a negative bar",
        {"rules": "romme", "ask": "opening", "melds": ["7H 8H 9H"], "required": -1},
        "BAD_FIELD",
    ),
    ("no went_out", {k: v for k, v in _score().items() if k != "went_out"}, "MISSING_FIELD"),
    ("a player too few", _score(players=[{"hand": []}]), "BAD_FIELD"),
    ("a player with a field too many", _score(players=[{"hand": [], "seat": 0}] * 2), "BAD_FIELD"),
    ("opened as text", _score(players=[{"hand": [], "opened": "yes"}] * 2), "BAD_FIELD"),
    ("a finish in capitals", _score(finish="Hand"), "BAD_FIELD"),
    ("a Hand with nobody out", _score(finish="hand", went_out=None), "BAD_FIELD"),
    ("a seat that is true", _score(went_out=True), "BAD_FIELD"),
    ("one team", _score(teams=[[0, 1]]), "BAD_FIELD"),
    ("a team with a boolean seat", _score(teams=[[0], [True]]), "BAD_FIELD"),
    ("a seat twice in a team", _score(teams=[[0, 0], [1]]), "BAD_FIELD"),
    ("an empty team", _score(teams=[[0, 1], []]), "BAD_FIELD"),
    ("a page too long", _round_question(limit=1001), "LIMIT"),
    ("a negative offset", _round_question(offset=-1), "BAD_FIELD"),
    ("variants without rules", _round_question(variants=[]), "BAD_FIELD"),
    ("no round", {"ask": "legal_actions"}, "MISSING_FIELD"),
    ("a round that is text", _round_question(round="levant"), "BAD_FIELD"),
    (
        "a history too long",
        _round_question(round={**_base_round(), "history": [{"type": "draw"}] * 5001}),
        "LIMIT",
    ),
    (
        "an action with an announce that is text",
        {
            "ask": "action",
            "round": _base_round(),
            "action": {"type": "discard", "card": "KS", "announce": "yes"},
        },
        "BAD_ACTION",
    ),
    (
        "a lay-down of 37 melds",
        {
            "ask": "action",
            "round": _base_round(),
            "action": {"type": "lay_down", "melds": [{"cards": ["7H", "8H", "9H"]}] * 37},
        },
        "LIMIT",
    ),
]


@pytest.mark.parametrize(
    ("question", "code"), [c[1:] for c in BAD_QUESTIONS], ids=[c[0] for c in BAD_QUESTIONS]
)
def test_a_malformed_question_is_refused_by_both(question: Any, code: str) -> None:
    assert _errors("question", question), "the schema accepts it"
    reply = answer(question)
    assert reply.get("error", {}).get("code") == code, reply
    _check_answer(question, reply)


def test_the_base_questions_are_accepted() -> None:
    """The malformed questions are each one change away from these, which both accept."""
    for question in (_meld_question(), _round_question(), _score()):
        _valid("question", question)
        reply = answer(question)
        assert "error" not in reply, reply
        _check_answer(question, reply)


def test_error_answers() -> None:
    """The error answers of whole texts, with ids, and of each limit fit the error schema."""
    for text in ("{", b"\xff", "[" * 40, json.dumps([{}] * 1001), "1e999"):
        reply, clean = answer_json(text)
        assert not clean
        _valid("answer#/$defs/error", reply)
    reply = answer({"id": {"any": ["thing"]}, "ask": "fly"})
    _valid("answer#/$defs/error", reply)
    # an error object with limit and max only for LIMIT, and the max of the limit it names
    error = {"code": "BAD_FIELD", "message": "no", "limit": "cards", "max": 108}
    assert _errors("answer#/$defs/error-object", error)
    assert _errors("answer#/$defs/error-object", {"code": "LIMIT", "message": "no"})
    wrong_max = {"code": "LIMIT", "message": "no", "limit": "cards", "max": 107}
    assert _errors("answer#/$defs/error-object", wrong_max)
    assert _errors("answer", {"protocol": "hand-rummy/referee/2", "points": 3})
    assert _errors("answer", {"points": 3})
    _valid("answer", {"protocol": PROTOCOL, "points": 3})


# --- mutated questions ---------------------------------------------------------------------

# Errors about the form of a question, which a question that fits the schema never gets; the
# others (BAD_FIELD, BAD_INDICATOR, BAD_ROUND, BAD_ACTION, LIMIT) can also come from what a
# schema cannot see (see docs/protocol.rst).
FORM_ERRORS = {
    "BAD_QUESTION",
    "MISSING_FIELD",
    "BAD_CARD",
    "UNKNOWN_ASK",
    "UNKNOWN_RULES",
    "UNKNOWN_VARIANT",
    "INDICATOR_REQUIRED",
}


def _answered_vectors() -> list[JSON]:
    cases = [c.values[0] for c in _vectors()]
    return [c["question"] for c in cases if "error" not in c["expect"]]


_cards_text = st.sampled_from(["7H", "10♡", "jk", "1H", "7X", "7H 8H 9H", "JK,QS", "", " KS "])
_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 120) | _cards_text | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)
_keys = st.sampled_from(
    [
        "cards",
        "melds",
        "meld",
        "roles",
        "demoted",
        "players",
        "went_out",
        "finish",
        "context",
        "indicator",
        "variants",
        "rules",
        "required",
        "last_opening",
        "teams",
        "melded",
        "last_discard",
        "card_roles",
        "ask",
        "id",
        "colour",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    question=st.sampled_from(_answered_vectors()),
    changes=st.lists(st.tuples(_keys, st.none() | _values), min_size=1, max_size=3),
)
def test_the_schema_and_the_referee_agree_on_mutated_questions(
    question: JSON, changes: list[tuple[str, Any]]
) -> None:
    """A question that the referee answers fits the schema; one that fits the schema is not
    refused for its form; and every answer fits the answer schema."""
    question = copy.deepcopy(question)
    for key, value in changes:
        if value is None:
            question.pop(key, None)
        else:
            question[key] = value
    reply = answer(question)
    fits = not _errors("question", question)
    if "error" not in reply:
        assert fits, (_errors("question", question)[:2], reply)
    elif fits:
        assert reply["error"]["code"] not in FORM_ERRORS, reply
    _check_answer(question, reply)


# --- the card grammar ----------------------------------------------------------------------

# docs/cards.rst, "The card grammar", written out as sets
RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"}
SUITS = {"C", "D", "H", "S", "♣", "♦", "♥", "♠", "♧", "♢", "♡", "♤"}
JOKER_WORDS = {"JK", "JOKER"}
JOKER_SYMBOLS = {"🃏", "★"}
BLANKS = " \t\n\r"
SEPARATORS = BLANKS + ",;"


def _either_case(text: str) -> set[str]:
    options = [{c, c.lower(), c.upper()} if c.isascii() else {c} for c in text]
    return {"".join(p) for p in itertools.product(*options)}


NATURALS = {t for rank in RANKS for suit in SUITS for t in _either_case(rank + suit)}
JOKERS = {w for word in JOKER_WORDS for w in _either_case(word)} | JOKER_SYMBOLS
# a blank, and characters that are not: vertical tab, form feed, no-break, em and ideographic
# spaces, the byte order mark
AROUND = (" ", "\t", "\n", "\r", "\r\n ", "\x0b", "\x0c", "\u00a0", "\u2003", "\u3000", "\ufeff")


def _grammar_accepts(text: str) -> bool:
    """The grammar of docs/cards.rst, read literally."""
    token = text.strip(BLANKS)
    return token in NATURALS or token in JOKERS


def _parse_accepts(text: str) -> bool:
    try:
        hr.parse_card(text)
    except hr.CardParseError:
        return False
    return True


def _card_strings() -> list[str]:
    tokens = set()
    for rank in [*RANKS, "1", "11", "0", "01", "ſ", "１", "Ａ", ""]:
        for suit in [*SUITS, "X", "ſ", "Ｓ", "♥\ufe0f", "", "♠♠"]:
            tokens |= _either_case(rank + suit)
    tokens |= {w for word in ("JK", "JOKER", "JOKERS", "JKR", "J", "K") for w in _either_case(word)}
    tokens |= JOKER_SYMBOLS | {"☆", "🂠", "🃟", "🃏🃏", "★★"}
    strings = set(tokens)
    for token in ("7H", "JK", "10♥", "🃏"):
        for around in (*AROUND, ",", "x"):
            strings |= {around + token, token + around, around + token + around}
    rng = random.Random(8)
    alphabet = "AaTt1023456789JjQqKkOoEeRrCcDdHhSsX♣♧♦♢♥♡♠♤🃏★ſ \t\n\r\x0b\u00a0,;"
    for _ in range(4000):
        strings.add("".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 7))))
    return sorted(strings)


def test_the_card_pattern_matches_exactly_what_parse_card_accepts() -> None:
    card = schemas.load("common")["$defs"]["card"]["pattern"]
    strings = _card_strings()
    accepted = [s for s in strings if _parse_accepts(s)]
    assert len(accepted) > 300 and len(strings) - len(accepted) > 2000  # both sides tested
    for text in strings:
        grammar = _grammar_accepts(text)
        assert _parse_accepts(text) == grammar, repr(text)
        assert (re.search(card, text) is not None) == grammar, repr(text)
        assert (not _errors("common#/$defs/card", text)) == grammar, repr(text)
        natural = grammar and not hr.parse_card(text).is_joker
        assert (not _errors("common#/$defs/natural-card", text)) == natural, repr(text)


def test_the_card_list_pattern_matches_exactly_what_parse_cards_reads() -> None:
    """One string of cards in a question: cards separated by blanks, commas or semicolons."""
    listed = schemas.load("question")["$defs"]["card-list"]["anyOf"][1]
    rng = random.Random(9)
    pieces = ["7H", "10♡", "jk", "★", "Qs", "1H", "7X", "JOKERS", "ſ", "7H8H"]
    separators = [" ", ",", ";", "\t", "\r\n", ", ", "\u00a0", "\x0b", ".", ""]
    strings = {"", " ", ",;", "7H", "7H,", " 7H 8H\n"}
    for _ in range(3000):
        parts = [rng.choice(pieces) for _ in range(rng.randrange(0, 5))]
        gaps = [rng.choice(separators) for _ in range(len(parts) + 1)]
        strings.add("".join(g + p for g, p in zip(gaps, [*parts, ""])))
    for text in sorted(strings):
        tokens = [t for t in re.split(f"[{re.escape(SEPARATORS)}]+", text) if t]
        expected = all(_grammar_accepts(t) for t in tokens)
        try:
            hr.parse_cards(text)
            parsed = True
        except hr.CardParseError:
            parsed = False
        assert parsed == expected, repr(text)
        assert (re.search(listed["pattern"], text) is not None) == expected, repr(text)
    # as many cards as the limit allows, and not one more
    assert re.search(listed["pattern"], " ".join(["7H"] * LIMITS.cards))
    assert not re.search(listed["pattern"], " ".join(["7H"] * (LIMITS.cards + 1)))
    assert listed["maxLength"] == 16 * LIMITS.cards


def test_cards_are_written_as_the_ascii_enum_says() -> None:
    ascii_cards = schemas.load("common")["$defs"]["ascii-card"]["enum"]
    assert ascii_cards == [c.ascii for c in hr.CARDS]
    assert all(_grammar_accepts(c) for c in ascii_cards)


def test_a_view_after_a_renewal_fits_the_schema() -> None:
    game = hr.Round.deal(hr.rulesets.classic, 4, seed=0)
    rng = random.Random(0)
    while not game.view(0).drawn:  # renewed, and seat 0 has drawn from it since
        game = game.apply(rng.choice(list(game.legal_actions())))
    document = view_to_json(game.view(0))
    assert document["renewal"] and document["drawn"]
    _valid("view", document)
    assert _errors("view", {k: v for k, v in document.items() if k != "drawn"})
    assert _errors("view", {**document, "renewal": []})
