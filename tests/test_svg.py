"""The SVG pictures: every drawing is well-formed XML and shows what it must, and no more.

Each test parses the drawing with :mod:`xml.etree.ElementTree` and reads what a
person or a screen reader would get from it: the ``<title>`` of every card and
of the drawing, the text, the colours. The view tests check that a player's
picture never shows a card that player cannot see.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hand_rummy as hr
from hand_rummy import svg, testing
from hand_rummy.bots import GreedyBot, play_round

NS = "{http://www.w3.org/2000/svg}"
LEVANT = hr.MeldRules.of(hr.rulesets.levant, "8C")
ROMME = hr.MeldRules.of(hr.rulesets.romme)
RED, BLACK, PURPLE = "#c8102e", "#1b1b1b", "#6a1b9a"
CARD_TITLE = re.compile(r"^(\S+) \((?:joker|\w+ of \w+)\)")


def parse(picture: str) -> ET.Element:
    """The drawing as XML, after the checks every drawing must pass."""
    assert isinstance(picture, svg.Svg)
    assert picture._repr_svg_() == picture
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    assert root.get("role") == "img"
    assert root.get("aria-label")
    assert root.get("viewBox", "").startswith("0 0 ")
    assert float(root.get("width", "0")) > 0 and float(root.get("height", "0")) > 0
    first = root[0]
    assert first.tag == f"{NS}title" and first.text
    assert root.get("font-family") == "sans-serif"
    for element in root.iter():
        # no scripts, no style sheets, no fetched images or fonts
        assert element.tag not in (f"{NS}script", f"{NS}style", f"{NS}image", f"{NS}foreignObject")
        for name, value in element.attrib.items():
            assert "href" not in name
            assert "url(" not in value
        if element.get("font-family"):
            assert element.get("font-family") in ("sans-serif", "serif", "monospace")
    return root


def titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}title")]


def card_titles(root: ET.Element) -> list[str]:
    """The titles of the cards drawn face up, in drawing order."""
    found = []
    for group in root.iter(f"{NS}g"):
        title = group.find(f"{NS}title")
        if title is not None and CARD_TITLE.match(title.text or ""):
            found.append(title.text or "")
    return found


def cards_shown(root: ET.Element) -> list[hr.Card]:
    found = []
    for title in card_titles(root):
        match = CARD_TITLE.match(title)
        assert match is not None
        found.append(hr.parse_card(match.group(1)))
    return found


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text")]


def fills(root: ET.Element) -> set[str]:
    return {e.get("fill", "") for e in root.iter()}


# --- cards -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "colour"),
    [
        ("7H", "7♥ (seven of hearts)", RED),
        ("QD", "Q♦ (queen of diamonds)", RED),
        ("10S", "10♠ (ten of spades)", BLACK),
        ("AC", "A♣ (ace of clubs)", BLACK),
        ("JK", "JK (joker)", PURPLE),
    ],
)
def test_a_card_names_itself_and_has_its_suit_colour(text: str, name: str, colour: str) -> None:
    card = hr.parse_card(text)
    root = parse(svg.card(card))
    assert titles(root) == [name]  # the card's title is the drawing's
    assert colour in fills(root)
    other = {RED, BLACK, PURPLE} - {colour}
    assert not other & fills(root)
    rank = "JK" if card.is_joker else text[:-1]
    assert rank in texts(root)


def test_card_repr_svg_is_the_drawing() -> None:
    card = hr.parse_card("7H")
    assert card._repr_svg_() == svg.card(card)


def test_a_wild_card_shows_its_role() -> None:
    root = parse(svg.card("AC", rules=LEVANT, role="8H"))
    assert titles(root)[0] == "A♣ (ace of clubs), wild, stands for 8♥ (eight of hearts)"
    assert "8" in texts(root)  # the role, under the card
    assert RED in fills(root)  # in the colour of the hearts


def test_with_the_rules_a_wild_is_marked_even_without_a_role() -> None:
    assert titles(parse(svg.card("AC", rules=LEVANT)))[0] == "A♣ (ace of clubs), wild"
    assert titles(parse(svg.card("AC")))[0] == "A♣ (ace of clubs)"
    assert titles(parse(svg.card("AH", rules=LEVANT)))[0] == "A♥ (ace of hearts)"


def test_a_joker_that_is_not_wild_says_what_it_counts_as() -> None:
    # With the 8♣ turned the jokers are not wild: each plays as the A♣
    root = parse(svg.card(hr.JOKER, rules=LEVANT))
    assert titles(root)[0] == "JK (joker), counts as A♣ (ace of clubs)"


def test_a_demoted_card_is_marked() -> None:
    root = parse(svg.card("AC", rules=LEVANT, demoted=True))
    title = titles(root)[0]
    assert title.startswith("A♣ (ace of clubs), demoted")
    assert "wild" not in title.split(", demoted")[0]
    assert "natural" in texts(root)
    assert any(e.get("stroke-dasharray") for e in root.iter(f"{NS}rect"))


def test_the_back_of_a_card_shows_no_face() -> None:
    root = parse(svg.back())
    assert card_titles(root) == []
    assert texts(root) == []


# --- hands and melds -------------------------------------------------------------------


def test_a_hand_shows_every_card_in_order() -> None:
    cards = hr.parse_cards("2C 7C 10D QD 8H AC JK 10S KS")
    root = parse(svg.hand(cards, rules=LEVANT))
    assert cards_shown(root) == list(cards)
    wild = [t for t in card_titles(root) if ", wild" in t]
    assert wild == ["A♣ (ace of clubs), wild"]
    assert "A hand of 9 cards" in titles(root)[0]


def test_a_hand_marks_its_demoted_copies_only() -> None:
    root = parse(svg.hand("AC AC 7H", rules=LEVANT, demoted="AC"))
    marks = [("demoted" in t, ", wild" in t) for t in card_titles(root)]
    assert sorted(marks) == [(False, False), (False, True), (True, False)]


def test_a_hand_cannot_demote_a_card_it_does_not_hold() -> None:
    with pytest.raises(hr.InvalidStateError, match="demoted"):
        svg.hand("7H 8H", demoted="AC")


def test_an_empty_hand_is_drawn() -> None:
    root = parse(svg.hand([]))
    assert titles(root)[0] == "A hand of 0 cards"


def test_a_meld_shows_each_wild_role() -> None:
    run = hr.judge_meld(hr.Meld.of("7H AC 9H"), LEVANT).meld
    assert run is not None
    root = parse(svg.meld(run))
    assert card_titles(root) == [
        "7♥ (seven of hearts)",
        "A♣ (ace of clubs), wild, stands for 8♥ (eight of hearts)",
        "9♥ (nine of hearts)",
    ]
    assert "A meld: 7♥ A♣(=8♥) 9♥" in titles(root)
    assert run._repr_svg_() == svg.meld(run)


def test_a_joker_in_a_romme_set_shows_its_role() -> None:
    fives = hr.judge_meld(hr.Meld.of("5S 5H JK"), ROMME).meld
    assert fives is not None
    root = parse(svg.meld(fives, rules=ROMME))
    assert card_titles(root)[-1] == "JK (joker), wild, stands for 5♣ (five of clubs)"


def test_a_demoted_wild_in_a_meld_is_marked() -> None:
    rules = hr.MeldRules.of(hr.rulesets.levant, "5S")  # the A♠ are wild
    laid = hr.Meld.of("AS 2S 3S", demoted=[0])
    root = parse(svg.meld(laid, rules=rules))
    first = card_titles(root)[0]
    assert first.startswith("A♠ (ace of spades), demoted")
    assert "natural" in texts(root)
    assert "A♠(demoted)" in titles(root)[0]


def test_a_table_meld_shows_its_number_and_owner() -> None:
    laid = hr.TableMeld(7, 2, hr.Meld.of("9S 9H 9D"), hr.MeldKind.SET)
    root = parse(svg.meld(laid))
    assert titles(root)[0] == "Meld 7, a set laid by Seat 2: 9♠ 9♥ 9♦"
    assert {"7", "Seat 2 · set"} <= set(texts(root))
    named = parse(svg.meld(laid, names=["Anna", "Ben", "Cem"]))
    assert "Cem · set" in texts(named)
    assert laid._repr_svg_() == svg.meld(laid)


def test_the_table_numbers_every_meld_and_names_its_owner() -> None:
    melds = [
        hr.TableMeld(1, 0, hr.Meld.of("7H 8H 9H"), hr.MeldKind.RUN),
        hr.TableMeld(2, 3, hr.Meld.of("KS KD KC"), hr.MeldKind.SET),
        hr.TableMeld(4, 1, hr.Meld.of("2C 3C 4C 5C"), hr.MeldKind.RUN),
    ]
    root = parse(svg.table(melds, names=["Anna", "Ben", "Cem", "Dana"]))
    words = texts(root)
    for number, owner in (("1", "Anna · run"), ("2", "Dana · set"), ("4", "Ben · run")):
        assert number in words and owner in words
    assert "Meld 2, a set laid by Dana: K♠ K♦ K♣" in titles(root)
    assert cards_shown(root) == [c for m in melds for c in m.meld.cards]


def test_a_bare_table() -> None:
    root = parse(svg.table([]))
    assert titles(root)[0] == "The table: no melds yet"


def test_names_and_text_are_escaped() -> None:
    names = ['<b>"Anna" & Ben</b>', "Cem\x00\x1b's", "Dana"]
    laid = hr.TableMeld(1, 0, hr.Meld.of("7H 8H 9H"), hr.MeldKind.RUN)
    picture = svg.table([laid], names=names)
    root = parse(picture)
    assert '<b>"Anna" & Ben</b> · run' in texts(root)
    assert "<b>" not in picture
    game = hr.Round.deal(hr.rulesets.levant, players=3, seed=3)
    root = parse(svg.view(game.view(0), names=names))
    assert "Cem's" in texts(root)  # the control characters are dropped


@pytest.mark.parametrize(
    "call",
    [
        lambda: svg.card(5),
        lambda: svg.card("ZZ"),
        lambda: svg.card("7H", scale=0),
        lambda: svg.card("7H", scale=float("nan")),
        lambda: svg.card("7H", rules="levant"),
        lambda: svg.meld("7H 8H 9H"),
        lambda: svg.table([hr.Meld.of("7H 8H 9H")]),
        lambda: svg.table([], names=[1, 2]),
        lambda: svg.view(hr.Round.deal(hr.rulesets.romme, 2, seed=1)),
        lambda: svg.whole_round(hr.Round.deal(hr.rulesets.romme, 2, seed=1).view(0)),
    ],
)
def test_wrong_arguments_raise_the_librarys_errors(call: object) -> None:
    with pytest.raises(hr.HandRummyError):
        call()  # type: ignore[operator]


def test_scale_sets_the_size_only() -> None:
    small, big = parse(svg.card("7H")), parse(svg.card("7H", scale=2))
    assert float(big.get("width", "0")) == 2 * float(small.get("width", "0"))
    assert big.get("viewBox") == small.get("viewBox")


@pytest.mark.parametrize(
    ("scale", "shown"),
    [(1e308, "1e+308"), (float("inf"), "inf"), (101, "101"), (0.001, "0.001"), (-1, "-1")],
)
def test_a_scale_beyond_the_sizes_a_viewer_takes_is_refused(scale: float, shown: str) -> None:
    """1e308 used to write width="inf"; a card at 0.001 would be 0.05 pixels wide."""
    with pytest.raises(hr.InvalidStateError) as refused:
        svg.card("QS", scale=scale)
    assert str(refused.value) == f"the scale must be a number from 0.01 to 100, not {shown}"


@pytest.mark.parametrize(
    ("width", "shown"),
    [
        (float("nan"), "nan"),
        (float("-inf"), "-inf"),
        (-5, "-5"),
        (0.5, "0.5"),
        (10**400, "a number of about 401 digits"),
    ],
    ids=["nan", "-inf", "-5", "0.5", "10**400"],
)
def test_a_table_width_no_table_can_wrap_at_is_refused(width: float, shown: str) -> None:
    """NaN, -inf and -5 were drawn as if nothing were wrong; 10**400 overflowed in float()."""
    with pytest.raises(hr.InvalidStateError) as refused:
        svg.table([], width=width)
    assert str(refused.value).startswith(
        f"the width must be a number from 1 to 100000, not {shown}"
    )
    assert svg.table([], width=1) and svg.table([], width=100_000)


def test_the_smallest_and_largest_scales_are_drawn() -> None:
    """A card is 50 × 70 units: 0.5 × 0.7 pixels at 0.01, 5000 × 7000 at 100."""
    small, large = parse(svg.card("QS", scale=0.01)), parse(svg.card("QS", scale=100))
    assert (small.get("width"), small.get("height")) == ("0.5", "0.7")
    assert (large.get("width"), large.get("height")) == ("5000", "7000")


# --- views and rounds ------------------------------------------------------------------


def played(ruleset: hr.Ruleset, players: int, seed: int, melds: int) -> hr.Round:
    """A round played by greedy bots until the table holds ``melds`` melds (or it is over)."""
    game = hr.Round.deal(ruleset, players=players, seed=seed)
    bots = [GreedyBot(seat) for seat in range(players)]
    while len(game.table) < melds and not game.is_over:
        game = game.apply(bots[game.turn].choose(game.view(game.turn)))
    return game


GAME = played(hr.rulesets.levant, 4, seed=7, melds=3)


def visible(view: hr.PlayerView) -> Counter[hr.Card]:
    rules = view.ruleset_rules()
    seen = Counter(view.hand)
    seen.update(view.discards)
    for laid in view.table:
        seen.update(laid.meld.cards)
    if view.indicator is not None:
        seen[view.indicator] += 1
    seen.update(rules.wilds.wild)
    return seen


def test_a_view_shows_what_the_player_may_know() -> None:
    view = GAME.view(0)
    root = parse(svg.view(view))
    words = " | ".join(titles(root) + texts(root))
    for seat in (1, 2, 3):
        assert f"Seat {seat} holds {view.hand_sizes[seat]} cards" in words
    assert f"stock {view.stock_size} cards" in root.get("aria-label", "")
    assert f"Stock ({view.stock_size} cards)" in texts(root)
    assert f"Your hand (Seat 0), {len(view.hand)} cards" in words
    assert f"the indicator: {view.indicator}" in words
    assert f"Seat {view.turn} to " in words
    assert len(view.table) == 3
    for laid in view.table:
        assert f"Meld {laid.id}, a {laid.kind.value} laid by Seat {laid.owner}" in words
    shown = Counter(cards_shown(root))
    assert not shown - visible(view)
    own = cards_shown(root)[-len(view.hand) :]
    assert own == list(view.hand)
    assert view._repr_svg_() == svg.view(view)


def test_views_of_rounds_that_differ_only_in_hidden_cards_are_the_same_picture() -> None:
    view = GAME.view(0)
    first, second = view.sample(random.Random(1)), view.sample(random.Random(2))
    assert first.hand(1) != second.hand(1)  # the hidden cards differ
    assert first.view(0) == second.view(0) == view
    pictures = {svg.view(first.view(0)), svg.view(second.view(0)), svg.view(view)}
    assert len(pictures) == 1
    assert svg.whole_round(first) != svg.whole_round(second)


def test_views_of_two_deals_that_differ_only_in_the_stock_and_another_hand() -> None:
    game = hr.Round.deal(hr.rulesets.romme, players=3, seed=5)
    *hands, stock, pile = game.start
    swap = next(i for i, c in enumerate(stock) if c not in hands[1])
    other_hands = [list(h) for h in hands]
    other_stock = list(stock)
    other_hands[1][0], other_stock[swap] = other_stock[swap], other_hands[1][0]
    other = hr.Round.from_deal(
        game.ruleset, other_hands, other_stock, discards=pile, dealer=game.dealer
    )
    assert other.hand(1) != game.hand(1)
    assert svg.view(other.view(0)) == svg.view(game.view(0))
    assert svg.view(other.view(2)) == svg.view(game.view(2))
    assert svg.view(other.view(1)) != svg.view(game.view(1))


def test_the_whole_round_shows_every_hand() -> None:
    root = parse(svg.whole_round(GAME, names=["Anna", "Ben", "Cem", "Dana"]))
    words = titles(root)
    for seat, name in enumerate(["Anna", "Ben", "Cem", "Dana"]):
        assert f"{name}'s hand, {GAME.hand_size(seat)} cards" in " | ".join(words)
    shown = Counter(cards_shown(root))
    every = Counter(c for seat in range(4) for c in GAME.hand(seat))
    assert not every - shown
    assert GAME._repr_svg_() == svg.whole_round(GAME)


def test_the_picture_of_a_finished_round_says_how_it_ended() -> None:
    game = hr.Round.deal(hr.rulesets.romme, players=2, seed=3)
    done = play_round(game, [GreedyBot(0), GreedyBot(1)])
    assert done.outcome is not None
    pictures = [svg.whole_round(done), svg.view(done.view(0)), svg.view(done.view(1))]
    for picture in pictures:
        (status,) = [w for w in texts(parse(picture)) if w.startswith("Round over: ")]
        assert ("Scores: " in status) == done.outcome.score.scored
        assert " to move" not in picture


def test_demoted_cards_in_a_view_are_marked() -> None:
    view = GAME.view(0)
    wild = sorted(view.ruleset_rules().wilds.wild)[0]
    holding = attrs.evolve(view, hand=tuple(sorted((*view.hand, wild))), demoted=(wild,))
    root = parse(svg.view(holding))
    demoted = [t for t in card_titles(root) if "demoted" in t]
    assert len(demoted) == 1 and demoted[0].startswith(f"{wild} (")


# --- properties ------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.data(), testing.meld_rules())
def test_any_legal_meld_is_drawn_with_its_cards_and_roles(
    data: st.DataObject, rules: hr.MeldRules
) -> None:
    judged = hr.judge_meld(data.draw(testing.melds(rules)), rules)
    assert judged.meld is not None
    laid = judged.meld
    root = parse(svg.meld(laid, rules=rules))
    assert cards_shown(root) == list(laid.cards)
    for title, card, role in zip(card_titles(root), laid.cards, laid.roles):
        if role is not None and rules.is_wild(card):
            assert title.endswith(f"wild, stands for {svg._name(role)}")
    table_meld = hr.TableMeld(3, 1, laid, judged.kind or hr.MeldKind.RUN)
    assert titles(parse(svg.meld(table_meld, rules=rules)))[0].startswith("Meld 3, a ")


@settings(max_examples=60, deadline=None)
@given(st.lists(testing.cards(), max_size=20), testing.meld_rules())
def test_any_hand_is_drawn_card_by_card(cards: list[hr.Card], rules: hr.MeldRules) -> None:
    root = parse(svg.hand(cards, rules=rules))
    assert cards_shown(root) == cards
    for title, card in zip(card_titles(root), cards):
        assert (", wild" in title) == rules.is_wild(card)


@settings(max_examples=25, deadline=None)
@given(testing.rounds(max_steps=80))
def test_a_view_never_shows_a_card_its_player_cannot_see(game: hr.Round) -> None:
    parse(svg.whole_round(game))
    for seat in range(game.players):
        view = game.view(seat)
        root = parse(svg.view(view))
        assert not Counter(cards_shown(root)) - visible(view)
        hidden = view.sample(random.Random(seat))
        assert svg.view(hidden.view(seat)) == svg.view(view)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30))
def test_any_name_gives_well_formed_xml(name: str) -> None:
    laid = hr.TableMeld(1, 0, hr.Meld.of("7H 8H 9H"), hr.MeldKind.RUN)
    root = parse(svg.table([laid], names=[name]))
    assert titles(root)[0].startswith("The table, 1 meld: Meld 1, a run laid by ")


def test_names_must_be_one_a_seat() -> None:
    """As the replay command refuses it: a list of names one short would leave a seat
    without one (shown as "Seat N" beside the others' names), one long names nobody."""
    game = hr.Round.deal(hr.rulesets.levant, players=3, seed=7)
    assert "What Ann sees" in svg.view(game.view(0), names=["Ann", "Ben", "Cem"])
    for names in (["Ann", "Ben"], ["Ann", "Ben", "Cem", "Dee"]):
        with pytest.raises(hr.InvalidStateError, match=f"{len(names)} names given for 3"):
            svg.view(game.view(0), names=names)
        with pytest.raises(hr.InvalidStateError, match="one a seat"):
            svg.whole_round(game, names=names)
