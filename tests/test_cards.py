"""Cards: notation, ordering, identity of physical copies, and deck sizes."""

import pickle

import pytest

import hand_rummy as hr
from hand_rummy import Card, Rank, Suit

TEN_OF_HEARTS = Card(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10h", "10♥", "10♡", " 10H "])
def test_parse_every_spelling_of_ten_of_hearts(text: str) -> None:
    assert hr.parse_card(text) == TEN_OF_HEARTS


@pytest.mark.parametrize("text", ["JK", "jk", "joker", "Joker", "JOKER", "🃏", "★"])
def test_parse_every_spelling_of_the_joker(text: str) -> None:
    card = hr.parse_card(text)
    assert card is hr.JOKER
    assert card.is_joker
    assert card.rank is None and card.suit is None


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AC", Rank.ACE, Suit.CLUBS),
        ("ac", Rank.ACE, Suit.CLUBS),
        ("A♧", Rank.ACE, Suit.CLUBS),
        ("5♢", Rank.FIVE, Suit.DIAMONDS),
        ("kS", Rank.KING, Suit.SPADES),
        ("j♤", Rank.JACK, Suit.SPADES),
        ("2D", Rank.TWO, Suit.DIAMONDS),
        ("9♦", Rank.NINE, Suit.DIAMONDS),
        ("JS", Rank.JACK, Suit.SPADES),
        ("q♠", Rank.QUEEN, Suit.SPADES),
        ("KH", Rank.KING, Suit.HEARTS),
        ("K♣", Rank.KING, Suit.CLUBS),
    ],
)
def test_parse_ranks_and_suits(text: str, rank: Rank, suit: Suit) -> None:
    assert hr.parse_card(text) == Card(rank, suit)


def test_parse_returns_shared_instances() -> None:
    assert hr.parse_card("7H") is hr.parse_card("7♥")
    assert hr.parse_card("7H") is hr.CARDS[hr.parse_card("7H").index]


def test_format_symbol_and_ascii() -> None:
    assert str(TEN_OF_HEARTS) == "10♥"
    assert TEN_OF_HEARTS.ascii == "10H"
    assert f"{TEN_OF_HEARTS:ascii}" == "10H"
    assert f"{TEN_OF_HEARTS:symbol}" == "10♥"
    assert f"{TEN_OF_HEARTS}" == "10♥"
    assert str(hr.JOKER) == hr.JOKER.ascii == "JK"
    assert repr(TEN_OF_HEARTS) == "Card.parse('10H')"
    cards = hr.parse_cards("7H AC 9H JK")
    assert hr.format_cards(cards) == "7♥ A♣ 9♥ JK"
    assert hr.format_cards(cards, ascii=True) == "7H AC 9H JK"


def test_format_rejects_an_unknown_spec() -> None:
    with pytest.raises(ValueError, match="unknown card format"):
        f"{TEN_OF_HEARTS:fancy}"


def test_parse_cards_separators_and_lists() -> None:
    expected = hr.parse_cards("9H 10H JH")
    assert hr.parse_cards("9H,10H;JH") == expected
    assert hr.parse_cards("  9H   10H\tJH ") == expected
    assert hr.parse_cards(["9H", "TH", "jh"]) == expected
    assert hr.parse_cards("") == ()


def test_parse_cards_error_names_text_and_position() -> None:
    with pytest.raises(hr.CardParseError) as info:
        hr.parse_cards("9H 1OH JH")
    assert info.value.position == 3
    assert "'1OH'" in str(info.value)
    assert "position 3" in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "1C",  # the Ace is A only: 1H is too close to a mistyped 10H
        "1c",
        "01H",
        "Qſ",  # a long s is not an S, although str.upper() makes it one
        "10Ｈ",  # a fullwidth letter is not a suit
        "7H\u00a0",  # only space, tab, CR and LF surround a card
        "\u30007H",
        "7H\f",
        "7♥\ufe0f",  # the emoji form of the heart symbol is not in the grammar
        "J K",
        "jokers",
        "🂱",  # a playing-card character other than the black joker
        "☆",
        "7H8H",
    ],
)
def test_parse_card_refuses_what_the_grammar_does_not_name(text: str) -> None:
    """docs/cards.rst: the grammar lists every spelling; nothing outside it is a card."""
    with pytest.raises(hr.CardParseError):
        hr.parse_card(text)


def test_parse_cards_separators_are_blanks_commas_and_semicolons() -> None:
    assert hr.parse_cards("\r\n9H;;10H ,\tJH,") == hr.parse_cards("9H 10H JH")
    # a no-break space separates nothing: "9H\u00a010H" is one token, and not a card
    with pytest.raises(hr.CardParseError):
        hr.parse_cards("9H\u00a010H")


def test_parse_cards_error_position_in_a_list() -> None:
    with pytest.raises(hr.CardParseError) as info:
        hr.parse_cards(["9H", "XX", "JH"])
    assert info.value.position == 3
    assert "'XX'" in str(info.value)


@pytest.mark.parametrize(("text", "position"), [("11H", 0), ("  ZZ", 2), ("1OH", 0), ("", 0)])
def test_parse_card_error_names_text_and_position(text: str, position: int) -> None:
    with pytest.raises(hr.CardParseError) as info:
        hr.parse_card(text)
    assert info.value.position == position
    assert info.value.text == text
    assert repr(text.strip()) in str(info.value)


def test_parse_error_is_a_hand_rummy_error() -> None:
    with pytest.raises(hr.HandRummyError):
        hr.parse_card("nonsense")


def test_cards_order_by_suit_then_rank_with_the_joker_last() -> None:
    shuffled = hr.parse_cards("JK 2S AH KC 10D AC 3H AS")
    assert hr.format_cards(sorted(shuffled), ascii=True) == "AC KC 10D AH 3H AS 2S JK"
    assert hr.parse_card("KC") < hr.parse_card("AD")
    assert hr.parse_card("KS") < hr.JOKER
    assert hr.parse_card("AH") <= hr.parse_card("AH")
    assert hr.JOKER.__gt__(hr.parse_card("KS"))
    assert hr.JOKER >= hr.JOKER
    assert list(hr.CARDS) == sorted(hr.CARDS)
    assert hr.CARDS[-1] is hr.JOKER


def test_hash_and_equality() -> None:
    assert Card(Rank.SEVEN, Suit.HEARTS) == hr.parse_card("7H")
    assert hash(Card(Rank.SEVEN, Suit.HEARTS)) == hash(hr.parse_card("7H"))
    assert Card(None, None) == hr.JOKER
    assert hr.parse_card("7H") != hr.parse_card("7D")
    assert hr.parse_card("7H") != "7H"
    assert len({hr.parse_card("7H"), Card(Rank.SEVEN, Suit.HEARTS), hr.parse_card("7♥")}) == 1
    assert len(set(hr.CARDS)) == 53


def test_a_card_needs_both_rank_and_suit_or_neither() -> None:
    with pytest.raises(ValueError, match="both a rank and a suit"):
        Card(Rank.ACE, None)
    with pytest.raises(ValueError, match="both a rank and a suit"):
        Card(None, Suit.SPADES)


def test_physical_cards_of_a_double_deck_are_distinct_with_the_same_face() -> None:
    deck = hr.build_deck(2, 2)
    sevens = [p for p in deck if p.card == hr.parse_card("7H")]
    assert len(sevens) == 2
    first, second = sevens
    assert first != second
    assert first.card == second.card
    assert {first.copy, second.copy} == {0, 1}
    assert len(set(deck)) == len(deck)
    assert str(first) == "7♥"
    assert hr.PhysicalCard(hr.parse_card("7H"), 1) == second


@pytest.mark.parametrize(
    ("ruleset", "size", "jokers"),
    [
        (hr.rulesets.levant, 106, 2),
        (hr.rulesets.romme, 108, 4),
        (hr.build("levant", ["no_jokers"]), 104, 0),
    ],
)
def test_deck_sizes(ruleset: hr.Ruleset, size: int, jokers: int) -> None:
    cards = ruleset.deck.cards()
    assert len(cards) == size == ruleset.deck.size
    assert sum(1 for p in cards if p.card.is_joker) == jokers
    assert len(set(cards)) == size
    faces = [p.card for p in cards if not p.card.is_joker]
    assert all(faces.count(face) == 2 for face in hr.NATURAL_CARDS)


@pytest.mark.parametrize("card", hr.CARDS, ids=lambda c: c.ascii)
def test_pickle_round_trip(card: Card) -> None:
    restored = pickle.loads(pickle.dumps(card))
    assert restored == card
    assert restored is card


def test_pickle_physical_card() -> None:
    physical = hr.PhysicalCard(hr.parse_card("QS"), 1)
    assert pickle.loads(pickle.dumps(physical)) == physical


def test_format_cards_reads_text_as_parse_cards_does() -> None:
    """A string is one list of cards, not a sequence of characters ('A H   K H')."""
    assert hr.format_cards("AH KH") == "A♥ K♥"
    assert hr.format_cards("ah, 10h;JK", ascii=True) == "AH 10H JK"
    assert hr.format_cards(["QS", hr.JOKER]) == "Q♠ JK"
    assert hr.format_cards("") == ""


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (None, "expected cards as text or a list, got NoneType"),
        (7, "expected cards as text or a list, got int"),
        (["QS", 7], "expected a card as text, got int"),
    ],
)
def test_format_cards_refuses_what_is_no_list_of_cards(cards: object, message: str) -> None:
    with pytest.raises(hr.CardParseError) as refused:
        hr.format_cards(cards)  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_format_cards_names_a_card_it_cannot_read() -> None:
    with pytest.raises(hr.CardParseError, match="'1OH' at position 3 is not a card"):
        hr.format_cards("9H 1OH")
