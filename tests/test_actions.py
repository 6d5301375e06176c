"""The moves' ``of`` constructors read card text as the card parser does, and refuse the rest.

The expected moves are written out with :class:`Card` values, so each case compares the
text form with the plain constructor; the errors are the library's own.
"""

from __future__ import annotations

import pytest

import hand_rummy as hr
from hand_rummy import Discard, Exchange, LayDown, LayOff, Meld
from hand_rummy.cards import Card


def card(text: str) -> Card:
    return Card.parse(text)


def test_discard_reads_text_and_keeps_its_flags() -> None:
    assert Discard.of("ks") == Discard(card("KS"))
    assert Discard.of(" 10♥ ", announce=True) == Discard(card("10H"), announce=True)
    assert Discard.of(card("JK"), demoted=True) == Discard(card("JK"), demoted=True)


def test_lay_off_reads_its_card_and_role() -> None:
    assert LayOff.of(3, "10H") == LayOff(3, card("10H"))
    assert LayOff.of(0, "JK", role="8H") == LayOff(0, card("JK"), card("8H"))
    assert LayOff.of(1, "AH", demoted=True) == LayOff(1, card("AH"), None, True)


def test_exchange_reads_one_card_or_several() -> None:
    assert Exchange.of(2, "8H") == Exchange(2, (card("8H"),))
    assert Exchange.of(2, ["5S", card("5D")]) == Exchange(2, (card("5S"), card("5D")))


def test_lay_down_takes_melds_or_their_cards() -> None:
    run = Meld((card("7H"), card("JK"), card("9H")), (None, card("8H"), None))
    expected = LayDown((run, Meld((card("5S"), card("5D"), card("5C")))))
    assert LayDown.of(run, "5S 5D 5C") == expected
    assert LayDown.of(run, ["5S", "5D", "5C"]) == expected
    assert LayDown.of("7H JK 9H").melds[0].roles == (None, None, None)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Discard.of("1H"), "'1H' at position 0 is not a card"),
        (lambda: Discard.of(7), "the card must be Card or str, not int"),  # type: ignore[arg-type]
        (lambda: Discard.of("KS", announce=1), "announce must be bool, not int"),  # type: ignore[arg-type]
        (lambda: LayOff.of("3", "KS"), "the target meld must be int, not str"),  # type: ignore[arg-type]
        (lambda: LayOff.of(True, "KS"), "the target meld must be int, not bool"),
        (lambda: LayOff.of(3, "KS", role=8), "the role must be Card or str, not int"),  # type: ignore[arg-type]
        (lambda: Exchange.of(1, "8H 9Q"), "'9Q' at position 3 is not a card"),
        (lambda: LayDown.of("5S 5D", 5), "cards must be Iterable, not int"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_is_the_librarys_error(build: object, message: str) -> None:
    with pytest.raises(hr.HandRummyError, match=message.replace("(", r"\(")):
        build()  # type: ignore[operator]


def test_a_move_built_from_text_plays_like_the_listed_one() -> None:
    game = hr.Round.deal(hr.build("romme"), players=3, seed=5)
    listed = next(a for a in game.legal_actions() if isinstance(a, Discard))
    assert Discard.of(str(listed.card)) == listed
    assert game.apply(Discard.of(listed.card.ascii)) == game.apply(listed)
