"""Mid-turn rules, case by case: exchanges, lay-offs, going out, redeals and wild cards.

What this covers: the moves made between the draw and the discard, and the ones
that end a turn, in every preset that has a rule about them:

* taking a wild card from a table meld (what must be put in for it, when the
  exchange is allowed, what happens to the freed wild, and how an exchange on
  another player's meld spoils a Hand);
* laying off (before and after the opening, 000's set of two naturals and a
  wild, other players' and partners' melds, wild cards at the end of a run,
  long runs, round-the-corner runs, 003's order of melds before lay-offs);
* going out (the final discard, the first-turn ban, announcements and a
  forgotten one, discards that 002's tournament jokers and 004's fire card
  forbid, moves after which no legal discard would be left, and what
  ``Round.going_out_melds`` answers);
* the redeal claim of 000 §Setup 4, what the indicator makes wild, and wild
  cards taken from the discard pile (000 "Discarded wild cards", RULES-MATRIX
  L4 and L5);
* the referee's own ``layoff`` and ``exchange`` questions, against the Python
  functions ``lay_off`` and ``exchange``.

How the expected values were found: every expected answer was worked out by
hand from the rule documents (000 to 004, cited by section in each test's
docstring), and where the documents are silent from the default reading of
RULES-MATRIX §3 (the entry and its switch are named). No expected value was
read back from the library. A refused move names the code it must be refused with
(``hand_rummy.Code``), the one for the rule the case cites; where many rules share a code
(a lay-off that would break its meld), the topic of the rule broken as well. Each move
is judged three ways that must agree:
``Round.check`` (and ``apply``, which raises on a refused move), whether the
move appears in ``Round.legal_actions()``, and the JSON referee
(``hand_rummy.referee.answer``) asked about the same position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

import hand_rummy as hr
from case_positions import spot
from hand_rummy import Code, Topic
from hand_rummy.referee import answer
from scripted import c, cs, rules
from three_ways import ok, refused

PLAY = hr.Phase.PLAY


# --- helpers ------------------------------------------------------------------------


def meld(text: str, roles: Mapping[int, str] | None = None, demoted: Iterable[int] = ()) -> hr.Meld:
    return hr.Meld.of(text, roles=roles, demoted=demoted)


# the moves, from card text (the library's own constructors)
lay = hr.LayDown.of
off = hr.LayOff.of
swap = hr.Exchange.of
discard = hr.Discard.of


Refusal = Code | tuple[Code, Topic] | None
"""What a case expects of its move: ``LEGAL``; or the code it must be refused with; or,
for a code that many rules share, the code and the topic of the rule broken."""

LEGAL: Refusal = None
"""The move is legal: there is no refusal to name."""


def breaks(topic: Topic) -> Refusal:
    """A lay-off refused because the meld it would make breaks the rule about ``topic``.
    Such a refusal carries LAYOFF_BREAKS_MELD whatever rule of melds is broken (the
    tutorial, "Laying off and exchanging": 7♥ A♣ 9♥ + Q♥), and names that rule among the
    topics of its violation."""
    return (Code.LAYOFF_BREAKS_MELD, topic)


def expect(game: hr.Round, action: hr.Action, refusal: Refusal) -> hr.Round | None:
    """The move is legal (``LEGAL``: the round after it) or refused, three ways, for the
    reason ``refusal`` names."""
    if refusal is None:
        return ok(game, action)
    code, topic = refusal if isinstance(refusal, tuple) else (refusal, None)
    refused(game, action, code)
    if topic is not None:
        broken = [v.topics for v in game.check(action).violations if v.code is code]
        assert any(topic in topics for topics in broken), broken
    return None


def hand_of(game: hr.Round, seat: int = 0) -> Counter[hr.Card]:
    return Counter(game.hand(seat))


LEVANT = hr.rulesets.levant
ROMME = hr.rulesets.romme
GULF = hr.rulesets.gulf
CLASSIC = hr.rulesets.classic

# With the 8♣ turned in the Levant game both A♣ are wild and the jokers are
# plain Aces of clubs (000 §Wild cards, "the indicator is the 8♣" example).
EIGHT_CLUBS = "8C"


# --- A. exchanging wild cards -------------------------------------------------------


def _levant_exchange_table(hand: str) -> hr.Round:
    """Seat 0 has opened (meld 2 is its own); seat 1 owns a run and two sets with a wild."""
    return spot(
        LEVANT,
        hand,
        table=[
            (1, 1, "7H AC 9H"),
            (2, 0, "JD QD KD"),
            (3, 1, "5H 5S AC"),
        ],
        indicator=EIGHT_CLUBS,
    )


@pytest.mark.parametrize(
    ("given", "refusal"),
    # the wrong card for the wild's place: the tutorial's own 7♥ A♣ 9♥ + 8♦ example
    [("8H", LEGAL), ("8D", Code.EXCHANGE_WRONG_CARDS)],
)
def test_levant_run_exchange_takes_the_card_for_the_wilds_place(
    given: str, refusal: Refusal
) -> None:
    """000 §Exchanging wild cards: "in a sequence, the card for its position (7♥ wild
    9♥: put down the 8♥)". The 8♦ is not the card the A♣ stands for."""
    game = _levant_exchange_table("8H 8D 4S 6S 2C")
    after = expect(game, swap(1, given), refusal)
    if after is not None:
        # the freed A♣ is now in the hand, the 8♥ in the run
        assert hand_of(after)[c("AC")] == 1 and hand_of(after)[c("8H")] == 0


@pytest.mark.parametrize(
    ("given", "refusal"),
    # one of the two missing cards is not what the exchange asks for (the tutorial's
    # 5♥ 5♠ A♣ + 5♦ example)
    [("5D", Code.EXCHANGE_WRONG_CARDS), ("5C", Code.EXCHANGE_WRONG_CARDS), ("5D 5C", LEGAL)],
)
def test_levant_two_plus_wild_set_exchange_needs_both_missing_cards(
    given: str, refusal: Refusal
) -> None:
    """000 §Exchanging wild cards: "in a group of two cards + wild, both missing cards
    (5♠ 5♦ wild: put down 5♥ and 5♣)". 5♥ 5♠ A♣ misses the 5♦ and the 5♣; one of
    them alone does not free the wild."""
    game = _levant_exchange_table("5D 5C KS 3C 9S")
    expect(game, swap(3, given), refusal)


@pytest.mark.parametrize(
    ("given", "refusal"),
    # the 5♥ is not the missing fourth card: the wrong card for the exchange
    [("5C", LEGAL), ("5H", Code.EXCHANGE_WRONG_CARDS)],
)
def test_levant_three_plus_wild_set_exchange_needs_the_fourth(given: str, refusal: Refusal) -> None:
    """000 §Exchanging wild cards: "in a group of three cards + wild, the missing fourth
    card". 5♥ 5♠ 5♦ A♣ misses only the 5♣; a second 5♥ cannot go in ("Two identical
    cards may not be in one group", §Melds)."""
    game = spot(
        LEVANT,
        "5C 5H KS 3C 9S",
        table=[(1, 1, "5H 5S 5D AC"), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )
    expect(game, swap(1, given), refusal)


def test_levant_exchange_before_opening_is_refused() -> None:
    """000 §The first meld: "Before your first meld you may not add to other melds or
    take wild cards from the table." Seat 0 owns no meld, so it has not opened."""
    game = spot(LEVANT, "8H 4S 6S 2C KS", table=[(1, 1, "7H AC 9H")], indicator=EIGHT_CLUBS)
    assert game.opened[0] is False
    refused(game, swap(1, "8H"), Code.NOT_OPENED)


def test_levant_exchange_in_the_same_turn_as_the_opening() -> None:
    """000 §The first meld: "From the moment it is down – even in the same turn – you
    may." The opening 10♠ J♠ Q♠ K♠ (40) + 4♥ 4♦ 4♣ (12) = 52 reaches 51; the exchange
    on seat 1's run is then allowed."""
    game = spot(
        LEVANT,
        "10S JS QS KS 4H 4D 4C 8H 2C 3D",
        table=[(1, 1, "7H AC 9H")],
        indicator=EIGHT_CLUBS,
    )
    refused(game, swap(1, "8H"), Code.NOT_OPENED)
    opened = ok(game, lay("10S JS QS KS", "4H 4D 4C"))
    after = ok(opened, swap(1, "8H"))
    assert hand_of(after) == Counter(cs("2C 3D AC"))


def test_levant_freed_wild_may_be_kept_in_the_hand() -> None:
    """000 §Exchanging wild cards: "You may use the wild card again right away or keep it
    in your hand." After the exchange the turn may end with a discard of another card,
    and the A♣ stays in the hand."""
    game = _levant_exchange_table("8H 4S 6S 2C KS")
    after = ok(game, swap(1, "8H"))
    ended = ok(after, discard("KS"))
    assert c("AC") in ended.hand(0)


def test_levant_freed_wild_may_be_used_again_at_once() -> None:
    """000 §Exchanging wild cards: "You may use the wild card again right away": the
    freed A♣ stands for the 5♠ in a new run 4♠ A♣ 6♠ (one wild, §Wild cards)."""
    game = _levant_exchange_table("8H 4S 6S 2C KS")
    after = ok(game, swap(1, "8H"))
    laid = ok(after, lay("4S AC 6S"))
    assert hand_of(laid) == Counter(cs("2C KS"))


@pytest.mark.parametrize("given", ["6C", "6D"])
def test_romme_two_plus_joker_set_exchange_takes_either_missing_suit(given: str) -> None:
    """002 §Exchanging a joker: "In a set of three with a joker (e.g. 6♠ 6♥ Joker), the
    joker can be exchanged for either missing suit – here 6♣ or 6♦." The joker is then
    used at once in 7♠ 7♥ Joker (the Dana example's new set)."""
    game = spot(
        ROMME,
        f"{given} 7S 7H 2C",
        table=[(1, 1, "6S 6H JK"), (2, 0, "KS KD KH")],
    )
    after = ok(game, swap(1, given))
    ok(after, lay("7S 7H JK"))


def test_romme_dana_example_exchange_then_new_set() -> None:
    """002 §Exchanging a joker, the example: on the table 9♣ 10♣ Joker Q♣; Dana, who has
    come out, holds J♣ 7♠ 7♥, puts the J♣ in, takes the joker and lays 7♠ 7♥ Joker.
    "You must use the joker straight away in a new meld – it may not go into your
    hand": before the new set, no discard may end the turn."""
    game = spot(
        ROMME,
        "JC 7S 7H 4D",
        table=[(1, 1, "9C 10C JK QC"), (2, 0, "KS KD KH")],
    )
    after = ok(game, swap(1, "JC"))
    refused(after, discard("4D"), Code.FREED_WILD_NOT_USED)
    laid = ok(after, lay("7S 7H JK"))
    ok(laid, discard("4D"))


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # by default the freed joker is owed to a new meld: a lay-off leaves it unused
    [((), Code.FREED_WILD_NOT_USED), (("freed_joker_may_lay_off",), LEGAL)],
)
def test_romme_freed_joker_laid_off(variants: tuple[str, ...], refusal: Refusal) -> None:
    """002 §Exchanging a joker: the joker must be used "straight away in a new meld".
    RULES-MATRIX R4: by default it may not be laid off on a meld already on the table;
    the switch ``freed_joker_may_lay_off`` allows it. Seat 0 holds 7♠ 7♥, so a new
    meld is possible either way and the exchange itself is legal."""
    game = spot(
        rules("romme", *variants),
        "JC 7S 7H 4D",
        table=[(1, 1, "9C 10C JK QC"), (2, 0, "4H 5H 6H")],
    )
    after = ok(game, swap(1, "JC"))
    expect(after, off(2, "JK", role="7H"), refusal)


def test_romme_exchange_in_the_coming_out_turn() -> None:
    """002 §The first meld: "Once your first meld is on the table (from the same turn
    on)"; RULES-MATRIX R4 default: the joker exchange too is allowed in the turn of
    coming out. J♥ Q♥ K♥ (30) + 5♠ 5♦ 5♣ (15) = 45 reaches 40."""
    game = spot(
        ROMME,
        "JH QH KH 5S 5D 5C JC 7S 7H 2D",
        table=[(1, 1, "9C 10C JK QC")],
    )
    refused(game, swap(1, "JC"), Code.NOT_OPENED)
    opened = ok(game, lay("JH QH KH", "5S 5D 5C"))
    after = ok(opened, swap(1, "JC"))
    ok(after, lay("7S 7H JK"))


@pytest.mark.parametrize(
    ("table", "given", "refusal"),
    [
        # the set is not yet three naturals and the joker: not "completed to four"
        ("6S 6H JK", "6C", Code.EXCHANGE_SET_INCOMPLETE),
        ("6S 6H 6D JK", "6C", LEGAL),
        ("9C 10C JK QC", "JC", LEGAL),
    ],
)
def test_romme_tournament_jokers_set_gives_up_its_joker_only_at_four(
    table: str, given: str, refusal: Refusal
) -> None:
    """002 §Variants, Tournament jokers: "a joker in a set can only be taken once the set
    is completed to four cards" (RULES-MATRIX R10: only a 3-natural + joker set). A run's
    joker is not touched by the variant (002 §Exchanging a joker still applies)."""
    game = spot(
        rules("romme", "tournament_jokers"),
        f"{given} 7S 7H 2C",
        table=[(1, 1, table), (2, 0, "KS KD KH")],
    )
    expect(game, swap(1, given), refusal)


@pytest.mark.parametrize(
    ("variants", "given", "refusal"),
    [
        ((), "6C", LEGAL),
        # one card where both missing ones are asked for: the wrong cards (as in 000)
        (("exchange_both_missing",), "6C", Code.EXCHANGE_WRONG_CARDS),
        (("exchange_both_missing",), "6C 6D", LEGAL),
    ],
)
def test_classic_set_exchange_either_missing_or_both(
    variants: tuple[str, ...], given: str, refusal: Refusal
) -> None:
    """004 §The Joker: "you may take a Joker out of a meld by putting the correct natural
    card in its place". RULES-MATRIX P5: for 6♠ 6♥ Joker the correct card is either
    missing suit by default; ``exchange_both_missing`` asks for both (as 000)."""
    game = spot(
        rules("classic", *variants),
        f"{given} 2C 9S",
        table=[(1, 1, "6S 6H JK"), (2, 0, "KS KD KH")],
    )
    expect(game, swap(1, given), refusal)


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # a discard while the freed joker is owed to a new meld
    [((), LEGAL), (("freed_joker_must_meld",), Code.FREED_WILD_NOT_USED)],
)
def test_classic_freed_joker_goes_to_the_hand(variants: tuple[str, ...], refusal: Refusal) -> None:
    """004 is silent on the freed Joker; RULES-MATRIX P5 default: it goes to the hand, so
    the turn may end with a discard. With ``freed_joker_must_meld`` it must go into a new
    meld at once; 5♠ 5♦ Joker is possible, so the exchange is legal but a discard
    before that meld is not."""
    game = spot(
        rules("classic", *variants),
        "JC 5S 5D 2C",
        table=[(1, 1, "9C 10C JK QC"), (2, 0, "KS KD KH")],
    )
    after = ok(game, swap(1, "JC"))
    expect(after, discard("2C"), refusal)
    if refusal is not LEGAL:
        ok(ok(after, lay("5S 5D JK")), discard("2C"))


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # no exchange at all in these rules
    [((), Code.EXCHANGE_NOT_ALLOWED), (("joker_exchange",), LEGAL)],
)
def test_gulf_joker_exchange_only_with_the_switch(
    variants: tuple[str, ...], refusal: Refusal
) -> None:
    """003 never mentions taking a joker from the table (§Turn Flow lists draw, meld, lay
    off, discard). RULES-MATRIX G7: not allowed by default; ``joker_exchange`` allows the
    app-style replacement."""
    game = spot(
        rules("gulf", *variants),
        "JC 5S 2C 8D",
        table=[(1, 1, "9C 10C JK QC"), (2, 0, "KS KD KH")],
        others=(9, 9, 9),
    )
    expect(game, swap(1, "JC"), refusal)


def _levant_hand_finish(exchange_on: str) -> hr.Round:
    """Seat 0 has not melded before and finishes in one turn; its exchange puts a card into
    seat 1's run (``others``) or into its own meld laid this turn (``own``)."""
    if exchange_on == "others":
        game = spot(
            LEVANT,
            "10S JS QS KS 4H 4D 4C 8H KD",
            table=[(1, 1, "7H AC 9H")],
            indicator=EIGHT_CLUBS,
        )
        game = ok(game, lay("10S JS QS KS", "4H 4D 4C"))
        game = ok(game, swap(1, "8H"))
    else:
        game = spot(
            LEVANT,
            "10S JS AC KS QS 4H 4D 4C KD",
            table=[(1, 1, "7H 8H 9H")],
            indicator=EIGHT_CLUBS,
        )
        game = ok(game, lay("10S JS AC KS", "4H 4D 4C"))
        run = next(m.id for m in game.table if m.owner == 0 and len(m.meld.cards) == 4)
        game = ok(game, swap(run, "QS"))
    # the freed A♣ goes on the 4♥ 4♦ 4♣ just laid, as a fourth 4
    fours = next(m.id for m in game.table if m.owner == 0 and len(m.meld.cards) == 3)
    game = ok(game, off(fours, "AC"))
    return ok(game, discard("KD"))


@pytest.mark.parametrize(("exchange_on", "score"), [("others", -30), ("own", -60)])
def test_levant_exchange_on_another_players_meld_spoils_a_hand(
    exchange_on: str, score: int
) -> None:
    """000 §End of a round: a hand is laying everything down in one turn "without adding
    any to other players' melds"; §Exchanging wild cards: the exchange puts the natural
    card into the meld. The 8♥ put into seat 1's run adds to another player's meld: an
    ordinary finish, -30 (000 §Scoring). The Q♠ put into seat 0's own run does not:
    a hand, all scores doubled, -60. Both openings are 40 + 12 = 52."""
    game = _levant_hand_finish(exchange_on)
    assert game.outcome is not None
    assert game.outcome.winner == 0
    assert game.outcome.score.scores[0] == score


# --- B. laying off ------------------------------------------------------------------


def test_levant_lay_off_before_opening_is_refused() -> None:
    """000 §The first meld: "Before your first meld you may not add to other melds";
    §Melds: "Once you have made your first meld, you may also add cards to any meld"."""
    game = spot(LEVANT, "10H 4S 6S 2C KS", table=[(1, 1, "7H 8H 9H")], indicator=EIGHT_CLUBS)
    refused(game, off(1, "10H"), Code.NOT_OPENED)


def test_levant_lay_off_on_an_opponents_meld_after_opening_in_the_same_turn() -> None:
    """000 §The first meld: "From the moment it is down – even in the same turn – you
    may"; §Melds: add "to any meld on the table – your own or another player's". The
    opening is 10♠ J♠ Q♠ K♠ (40) + 4♥ 4♦ 4♣ (12) = 52."""
    game = spot(
        LEVANT,
        "10S JS QS KS 4H 4D 4C 10H 2C 3D",
        table=[(1, 1, "7H 8H 9H")],
        indicator=EIGHT_CLUBS,
    )
    opened = ok(game, lay("10S JS QS KS", "4H 4D 4C"))
    after = ok(opened, off(1, "10H"))
    assert [str(card) for card in after.table[0].meld.cards][-1] == "10♥"


@pytest.mark.parametrize(
    ("seat0_opened", "refusal"),
    # not opened: "Before your first meld you may not add to other melds"
    [(True, LEGAL), (False, Code.NOT_OPENED)],
)
def test_levant_partnership_lay_off_on_the_partners_meld(
    seat0_opened: bool, refusal: Refusal
) -> None:
    """000 §Variants, Partnership Hand: partners sit opposite (seats 0 and 2). §Melds:
    "Once you have made your first meld, you may also add cards to any meld";
    RULES-MATRIX L18: partners may lay off on each other's melds. The first meld stays
    each player's own (000 §The first meld: "Your first meld ... must be worth at least
    51"; the partnership variant changes only the scoring), so an unopened seat 0 may
    not lay off even on the partner's meld."""
    table = [(1, 2, "7H 8H 9H")] + ([(2, 0, "JD QD KD")] if seat0_opened else [])
    game = spot(
        rules("levant", "partnership"),
        "10H 4S 6S 2C",
        table=table,
        others=(9, 9, 9),
        indicator=EIGHT_CLUBS,
    )
    expect(game, off(1, "10H"), refusal)


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # the lay-off waits for the opening (G5 default)
    [((), Code.NOT_OPENED), (("layoff_before_opening",), LEGAL)],
)
def test_gulf_lay_off_before_meeting_51(variants: tuple[str, ...], refusal: Refusal) -> None:
    """003 §First Meld Requirement: "After meeting this requirement, you can meld freely";
    it does not say whether lay-offs wait for it. RULES-MATRIX G5 default: forbidden;
    ``layoff_before_opening`` allows it."""
    game = spot(
        rules("gulf", *variants),
        "10H 4S 6S 2C",
        table=[(1, 1, "7H 8H 9H")],
        others=(9, 9, 9),
    )
    expect(game, off(1, "10H"), refusal)


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # a meld after a lay-off goes back a phase (G6 default)
    [((), Code.PHASE_ORDER), (("free_phase_order",), LEGAL)],
)
def test_gulf_no_new_meld_after_a_lay_off(variants: tuple[str, ...], refusal: Refusal) -> None:
    """003 §Turn Flow: "Each turn consists of four phases in order: ... 2. MELD ...
    3. LAY OFF". RULES-MATRIX G6 default: the order is enforced, so after a lay-off no
    new meld; ``free_phase_order`` lets them interleave."""
    game = spot(
        rules("gulf", *variants),
        "10H 4S 5S 6S 2C",
        table=[(1, 1, "7H 8H 9H"), (2, 0, "KS KD KH")],
        others=(9, 9, 9),
    )
    after = ok(game, off(1, "10H"))
    expect(after, lay("4S 5S 6S"), refusal)


def test_gulf_lay_off_after_a_new_meld() -> None:
    """003 §Turn Flow: MELD comes before LAY OFF, so a lay-off after a new meld keeps
    the order."""
    game = spot(
        GULF,
        "10H 4S 5S 6S 2C",
        table=[(1, 1, "7H 8H 9H"), (2, 0, "KS KD KH")],
        others=(9, 9, 9),
    )
    ok(ok(game, lay("4S 5S 6S")), off(1, "10H"))


@pytest.mark.parametrize(
    ("hand", "announced", "refusal"),
    [
        # after the lay-off three cards are left; the discard leaves two: no exception,
        # the rule for a set of two cards and a wild refuses it
        ("5D KS QS JH", 0, Code.LAYOFF_TWO_PLUS_WILD),
        # the discard will leave one card: "or you will announce it after this turn"
        ("5D KS QS", 0, LEGAL),
        # the discard of the K♠ goes out: "only if you go out this turn"
        ("5D KS", 0, LEGAL),
        # seat 1 has already announced "one card"
        ("5D KS QS JH", 1, LEGAL),
    ],
)
def test_levant_two_plus_wild_set_takes_one_card_only_near_the_end(
    hand: str, announced: int, refusal: Refusal
) -> None:
    """000 §Exchanging wild cards: "A group of two cards and a wild card normally only
    changes when both missing cards arrive. Adding just one of them is allowed only if
    you go out this turn, or if someone has already announced "one card" (or you will
    announce it after this turn)". RULES-MATRIX L10: "will announce it" = one card
    left after the discard."""
    other = hr.PositionSeat(hand_size=1, announced=1) if announced else hr.PositionSeat(hand_size=9)
    game = spot(
        LEVANT,
        hand,
        table=[(1, 1, "5H 5S AC"), (2, 0, "JD QD KD")],
        others=(other,),
        indicator=EIGHT_CLUBS,
    )
    expect(game, off(1, "5D"), refusal)


def test_levant_set_of_four_takes_no_fifth_card() -> None:
    """000 §Melds: a group is "three or four cards of the same rank"; a lay-off adds "the
    fourth card of a group". 5♥ 5♠ 5♦ A♣ already has four cards, so the 5♣ can only
    go in by exchange (§Exchanging wild cards), not as a lay-off."""
    game = spot(
        LEVANT,
        "5C KS QS JH",
        table=[(1, 1, "5H 5S 5D AC"), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )
    # a fifth card breaks the rule of sets (three or four cards)
    expect(game, off(1, "5C"), breaks(Topic.SET))
    ok(game, swap(1, "5C"))


@pytest.mark.parametrize(
    ("target", "role", "refusal"),
    [
        (1, "10H", LEGAL),  # 7♥ 8♥ 9♥ A♣(=10♥)
        (1, "6H", LEGAL),  # A♣(=6♥) 7♥ 8♥ 9♥
        # 7♠ A♣ 9♠ already holds a wild: a second breaks the one-wild limit
        (2, "10S", breaks(Topic.WILD_COUNT)),
    ],
)
def test_levant_wild_laid_off_at_a_runs_end(target: int, role: str, refusal: Refusal) -> None:
    """000 §Wild cards: "A wild card can stand in for any card in a meld – but a meld
    may contain only one wild card"; §Melds: a lay-off is "the next card at either end
    of a sequence". With the 8♣ turned the A♣ is wild."""
    game = spot(
        LEVANT,
        "AC 4D 2C KS",
        table=[(1, 1, "7H 8H 9H"), (2, 1, "7S AC 9S"), (3, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )
    expect(game, off(target, "AC", role=role), refusal)


@pytest.mark.parametrize(
    ("table", "variants", "refusal"),
    [
        # a run of four may hold two jokers side by side: 5♥ 6♥ JK JK
        ("5H 6H JK", (), LEGAL),
        # RULES-MATRIX R2 default: two naturals and two jokers make a valid set
        ("6S 6H JK", (), LEGAL),
        # R2's alternative reads "next to each other only in a run" as no two in a set:
        # the rule on jokers side by side is the one broken
        ("6S 6H JK", ("no_two_jokers_in_set",), breaks(Topic.WILDS_ADJACENT)),
    ],
)
def test_romme_second_joker_laid_off(
    table: str, variants: tuple[str, ...], refusal: Refusal
) -> None:
    """002 §Jokers: "Two jokers may sit directly next to each other only in a run of at
    least four cards, e.g. 3♠ Joker Joker 6♠"; only "one natural card plus two jokers"
    is banned. RULES-MATRIX R2: 2 naturals + 2 jokers in a set is valid by default,
    refused under ``no_two_jokers_in_set``; R12: a joker may be laid off."""
    game = spot(
        rules("romme", *variants),
        "JK 4D 2C",
        table=[(1, 1, table), (2, 0, "KS KD KH")],
    )
    role = "8H" if table.startswith("5H") else None
    expect(game, off(1, "JK", role=role), refusal)


THIRTEEN = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


@pytest.mark.parametrize(
    ("table", "card", "refusal"),
    [
        # 2♥ to K♥ takes the A♥ (at either end): a run of all thirteen ranks
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH", LEGAL),
        # A♥ to K♥ has every rank: a second A♥ would put the Ace at both ends, so the
        # lay-off would break the run (which of the run rules names it, the Ace's place
        # or the length, the documents do not say: the code alone is checked)
        (THIRTEEN, "AH", Code.LAYOFF_BREAKS_MELD),
        (THIRTEEN, "JK", Code.LAYOFF_BREAKS_MELD),
    ],
)
def test_romme_thirteen_card_run(table: str, card: str, refusal: Refusal) -> None:
    """002 §Melds: "The Ace can be at either end of a run: A-2-3 (low) or Q-K-A (high). It
    cannot go "round the corner": K-A-2 is not a run." A run A♥..K♥ already holds the
    low Ace; no fourteenth card fits either end. (The documents never show a run of
    fourteen; reading the Ace as low *or* high, not both.)"""
    game = spot(ROMME, f"{card} 4D 2C", table=[(1, 1, table), (2, 0, "KS KD KC")])
    role = None if card != "JK" else "AH"
    expect(game, off(1, card, role=role), refusal)


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # K-A-2 puts the Ace in the middle: the rule on the Ace's place in a run
    [((), breaks(Topic.RUN_ACE)), (("round_the_corner",), LEGAL)],
)
def test_romme_round_the_corner_lay_off(variants: tuple[str, ...], refusal: Refusal) -> None:
    """002 §Melds: "It cannot go "round the corner": K-A-2 is not a run"; §Variants,
    Round the corner: "K-A-2 is allowed as a run". Q♥ K♥ A♥ + 2♥ makes Q-K-A-2, which
    contains K-A-2 (RULES-MATRIX R3: longer wraps allowed)."""
    game = spot(
        rules("romme", *variants), "2H 4D 2C", table=[(1, 1, "QH KH AH"), (2, 0, "KS KD KC")]
    )
    expect(game, off(1, "2H"), refusal)


# --- C. going out ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "variants", "others", "refusal"),
    [
        # 000 §Playing a turn: "you must always keep one card in your hand to throw away"
        ("levant", (), (9,), Code.MUST_KEEP_A_CARD),
        # 002 §Going out: "If you can meld your very last card, you don't need to discard."
        ("romme", (), (9,), LEGAL),
        # 004 §2: discard "unless the round ends because you got rid of all your cards"
        ("classic", (), (9,), LEGAL),
        # RULES-MATRIX G4 default: a Gulf player may meld the last card ...
        ("gulf", (), (9, 9, 9), LEGAL),
        # ... and ``final_discard_required`` asks for the discard: keep a card for it
        ("gulf", ("final_discard_required",), (9, 9, 9), Code.MUST_KEEP_A_CARD),
    ],
)
def test_laying_off_the_last_card(
    preset: str, variants: tuple[str, ...], others: tuple[int, ...], refusal: Refusal
) -> None:
    """Seat 0 has opened and holds 10♥ J♥; seat 1's run 7♥ 8♥ 9♥ takes both. After the
    10♥, laying off the J♥ empties the hand: a finish without a discard."""
    ruleset = rules(preset, *variants)
    game = spot(
        ruleset,
        "10H JH",
        table=[(1, 1, "7H 8H 9H"), (2, 0, "KS KD KC")],
        others=others,
        indicator=EIGHT_CLUBS if ruleset.uses_indicator else None,
    )
    after = ok(game, off(1, "10H"))
    last = expect(after, off(1, "JH"), refusal)
    if last is not None:
        assert last.outcome is not None and last.outcome.winner == 0
    else:
        # the discard is the way out
        out = ok(after, discard("JH"))
        assert out.outcome is not None and out.outcome.winner == 0


FIRST_TURN_OPENING = ("10S JS QS KS", "4H 4D 4C")  # 40 + 12 = 52


@pytest.mark.parametrize(
    ("hand", "refusal"),
    [
        # the lay-down would leave only a discard that goes out: the first-turn ban
        ("10S JS QS KS 4H 4D 4C KD", Code.GOING_OUT_FIRST_TURN),
        ("10S JS QS KS 4H 4D 4C KD 2C", LEGAL),
    ],
)
def test_levant_first_turn_lay_down_that_would_force_going_out(hand: str, refusal: Refusal) -> None:
    """000 §Playing a turn: "Not on your first turn: nobody may go out on their first
    turn", and "every turn ends with a discard". Laying down 10♠ J♠ Q♠ K♠ + 4♥ 4♦ 4♣
    (52) from eight cards leaves only the K♦, whose discard would go out: the turn could
    not end, so the lay-down is refused. With a ninth card it leaves two, and the turn
    ends with a discard that keeps one (announced: 000 "one card")."""
    game = spot(LEVANT, hand, indicator=EIGHT_CLUBS, me={"turns_played": 0})
    after = expect(game, lay(*FIRST_TURN_OPENING), refusal)
    if after is not None:
        ended = ok(after, discard("KD", announce=True))
        assert ended.outcome is None and len(ended.hand(0)) == 1


def test_classic_may_go_out_on_the_first_turn() -> None:
    """004 states no first-turn ban (RULES-MATRIX P11): the same eight cards go out on the
    player's first turn, by the opening (52 ≥ 51) and the discard of the K♦."""
    game = spot(CLASSIC, "10S JS QS KS 4H 4D 4C KD", me={"turns_played": 0})
    after = ok(game, lay(*FIRST_TURN_OPENING))
    out = ok(after, discard("KD"))
    assert out.outcome is not None and out.outcome.winner == 0


@pytest.mark.parametrize("announce", [True, False])
def test_levant_announcing_is_the_players_to_forget(announce: bool) -> None:
    """000 §Playing a turn: "Announce: when you have three cards or fewer after
    discarding, say so ... If you forget, you may not go out on your next turn."
    Forgetting is not an illegal discard but has a consequence: both discards of the
    K♠ (leaving three cards) are legal, and only the silent one bars the next finish."""
    game = spot(
        LEVANT,
        "10H KS QS JS",
        table=[(1, 1, "7H 8H 9H"), (2, 0, "KD KH KC")],
        indicator=EIGHT_CLUBS,
    )
    after = ok(game, discard("KS", announce=announce))
    assert after.missed[0] is (not announce)


def _missed(hand: str) -> hr.Round:
    """Seat 0 forgot to announce "one card" last turn and has drawn a second card."""
    return spot(
        LEVANT,
        hand,
        table=[(1, 1, "7H 8H 9H"), (2, 0, "KD KH KC")],
        indicator=EIGHT_CLUBS,
        me={"missed": True, "announced": 0},
    )


def test_levant_missed_announcement_bars_going_out_this_turn() -> None:
    """000 §Playing a turn: "If you forget, you may not go out on your next turn." Laying
    off the 10♥ would leave the K♠ alone, and its discard would go out: the lay-off
    leaves no legal end of the turn and is refused. Discarding the 10♥ (keeping the
    K♠) is legal, announced this time."""
    game = _missed("10H KS")
    refused(game, off(1, "10H"), Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT)
    ok(game, discard("10H", announce=True))


def test_levant_missed_announcement_does_not_bar_other_moves() -> None:
    """000 §Playing a turn: the forgotten announcement bars only going out. With three
    cards, the 10♥ goes on seat 1's run and a discard keeps one card."""
    game = _missed("10H KS QS")
    after = ok(game, off(1, "10H"))
    ended = ok(after, discard("QS", announce=True))
    assert ended.outcome is None


@pytest.mark.parametrize(
    ("variants", "hand", "refusal"),
    [
        # a joker discarded with two cards left does not go out
        (("tournament_jokers",), "JK KS QS", Code.WILD_DISCARD_FORBIDDEN),
        ((), "JK KS QS", LEGAL),
    ],
)
def test_romme_joker_discard(variants: tuple[str, ...], hand: str, refusal: Refusal) -> None:
    """002 §Variants, Tournament jokers: "a joker may be discarded only to go out". The
    base rules forbid nothing (002 §Tips: a discarded joker "helps the next player"),
    so the joker may be thrown with two cards left."""
    game = spot(rules("romme", *variants), hand, table=[(1, 1, "7H 8H 9H"), (2, 0, "KD KH KC")])
    expect(game, discard("JK"), refusal)


def test_romme_tournament_joker_discarded_to_go_out() -> None:
    """002 §Variants, Tournament jokers: "a joker may be discarded only to go out". After
    the 10♥ is laid off, the joker is the last card: its discard goes out (002 §Going
    out: "discard that last card")."""
    game = spot(
        rules("romme", "tournament_jokers"),
        "JK 10H",
        table=[(1, 1, "7H 8H 9H"), (2, 0, "KD KH KC")],
    )
    after = ok(game, off(1, "10H"))
    out = ok(after, discard("JK"))
    assert out.outcome is not None and out.outcome.winner == 0


@pytest.mark.parametrize(
    ("table", "refusal"),
    [
        # the jokers could go nowhere after the 7♥: only a joker's discard would end the
        # turn, without going out
        ([(1, 1, "7C 7D 7S"), (2, 0, "KD KH KC KS")], Code.MUST_KEEP_A_CARD),
        # the jokers can follow onto 9♠ 10♠ J♠ (as Q♠ and K♠): the player goes out
        ([(1, 1, "7C 7D 7S"), (2, 0, "9S 10S JS")], LEGAL),
    ],
)
def test_romme_tournament_jokers_a_move_that_leaves_only_jokers(
    table: list[tuple[int, int, str]], refusal: Refusal
) -> None:
    """002 §Variants, Tournament jokers: "a joker may be discarded only to go out". Seat 0
    holds JK JK 7♥; laying the 7♥ off on 7♣ 7♦ 7♠ leaves two jokers, neither of which may
    be discarded (a discard of one leaves the other: it does not go out). The move is legal
    only where both jokers can still be laid this turn. Discarding the 7♥ is always legal."""
    game = spot(rules("romme", "tournament_jokers"), "JK JK 7H", table=table)
    ok(game, discard("7H"))
    after = expect(game, off(1, "7H"), refusal)
    if after is not None:
        refused(after, discard("JK"), Code.WILD_DISCARD_FORBIDDEN)
        out = ok(ok(after, off(2, "JK", "QS")), off(2, "JK", "KS"))
        assert out.outcome is not None and out.outcome.winner == 0


@pytest.mark.parametrize(
    ("spades", "refusal"), [(True, Code.WILD_DISCARD_FORBIDDEN), (False, LEGAL)]
)
def test_romme_tournament_jokers_a_hand_of_jokers_alone(spades: bool, refusal: Refusal) -> None:
    """002 §Variants, Tournament jokers: "a joker may be discarded only to go out". Seat 0
    drew into a hand of two jokers. Where they can go onto 9♠ 10♠ J♠ the player can go
    out, so a joker thrown with the other kept is refused; where they can go nowhere, the
    turn could end no other way (the documents do not say; the library's reading), and
    the throw is allowed."""
    table = [(1, 1, "7C 7D 7S 7H"), (2, 0, "9S 10S JS" if spades else "KD KH KC KS")]
    game = spot(rules("romme", "tournament_jokers"), "JK JK", table=table)
    expect(game, discard("JK"), refusal)
    assert (discard("JK") in game.legal_actions()) is (refusal is LEGAL)


def test_romme_tournament_jokers_alone_before_opening() -> None:
    """The same rule for a player who has not opened (a position written by hand; play does
    not shrink such a hand): jokers alone make no meld (002 §Melds), and lay-offs wait for
    the first meld, so the jokers cannot go out even beside 5♥ 6♥ 7♥, and one may be thrown."""
    game = spot(
        rules("romme", "tournament_jokers"),
        "JK JK",
        table=[(1, 1, "5H 6H 7H"), (2, 1, "KH KD KC")],
        me={"opened": False},
    )
    ok(game, discard("JK"))
    assert list(game.legal_actions()) == [discard("JK")]


def _took_queen(ruleset: hr.Ruleset, hand: str, had_taken: bool | None = None) -> hr.Round:
    """Seat 0 has opened and took the Q♠ from the discard pile this turn."""
    return spot(
        ruleset,
        hand,
        table=[(1, 1, "4H 5H 6H"), (2, 0, "KD KH KC")],
        current=hr.PositionTurn(taken=c("QS"), had_taken=had_taken),
        discards="9D",
    )


@pytest.mark.parametrize(
    ("ruleset", "refusal"),
    [
        # 004 §2: "you may not discard it again in the same turn"
        (CLASSIC, Code.REDISCARD_TAKEN_CARD),
        # RULES-MATRIX R5 default: not stated, allowed; the switch forbids it
        (ROMME, LEGAL),
        (rules("romme", "no_rediscard_taken"), Code.REDISCARD_TAKEN_CARD),
    ],
)
def test_rediscarding_the_taken_card(ruleset: hr.Ruleset, refusal: Refusal) -> None:
    """004 §2 "Only the top fire card can be taken, and you may not discard it again in
    the same turn"; 002 is silent (RULES-MATRIX R5, switch ``no_rediscard_taken``).
    Discarding another card is always legal."""
    game = _took_queen(ruleset, "QS 7S 2C")
    expect(game, discard("QS"), refusal)
    ok(game, discard("2C"))


def test_classic_discarding_the_other_copy_of_the_taken_card() -> None:
    """004 §2: "you may not discard it again" forbids the card that was taken. Seat 0
    already held a Q♠ of the other pack; that card was not taken this turn, so it may be
    discarded."""
    game = _took_queen(CLASSIC, "QS QS 2C", had_taken=True)
    ok(game, discard("QS"))


def test_classic_lay_off_that_would_leave_only_the_taken_card() -> None:
    """004 §2: the taken card may not be discarded again this turn, and the turn ends with
    a discard unless the hand is empty. Laying off the 7♥ on 4♥ 5♥ 6♥ would leave only
    the taken Q♠, which fits no meld and may not be discarded: the turn could not end,
    so the lay-off is refused. Discarding the 7♥ is legal."""
    game = _took_queen(CLASSIC, "QS 7H")
    refused(game, off(1, "7H"), Code.MUST_KEEP_A_CARD)
    ok(game, discard("7H"))


@pytest.mark.parametrize(
    ("ruleset", "queen_fits"),
    [
        # 004: no final discard ("unless the round ends because you got rid of all your
        # cards"), so a hand that may discard nothing may still go out
        (CLASSIC, True),
        (CLASSIC, False),
        # 002 (RULES-MATRIX R5 switch): the same where Rommé forbids the taken card
        (rules("romme", "no_rediscard_taken"), True),
        # 003 with the G4 and G10 switches: every turn ends with a discard, and the Q♠
        # may not be it, so laying off the 7♥ strands the turn even though the Q♠ fits
        (rules("gulf", "final_discard_required", "no_rediscard_taken"), None),
    ],
)
def test_lay_off_leaving_only_the_taken_card_that_can_still_go_out(
    ruleset: hr.Ruleset, queen_fits: bool | None
) -> None:
    """004 §2 (and the switches that bring it to 002 and 003): the taken Q♠ may not be
    discarded again, but nothing forbids laying it off. Seat 0 holds Q♠ 7♥; laying the 7♥
    off on 4♥ 5♥ 6♥ leaves the Q♠. Where a spade run 9♠ 10♠ J♠ lies on the table, the
    Q♠ then goes onto it and seat 0 is out: the lay-off is legal (and the discard of the
    7♥ still is). Where only K♦ K♥ K♣ lies there, the Q♠ has nowhere to go and the turn
    could not end: refused. Under a required final discard the Q♠ could only end the turn
    as the discard, which it may not be."""
    spades = "9S 10S JS" if queen_fits is not False else "KD KH KC"
    game = spot(
        ruleset,
        "QS 7H",
        table=[(1, 1, "4H 5H 6H"), (2, 0, spades)],
        others=[9, 9, 9] if ruleset.players.minimum > 2 else [9],
        current=hr.PositionTurn(taken=c("QS")),
        discards="9D",
    )
    ok(game, discard("7H"))
    if not queen_fits:
        refused(game, off(1, "7H"), Code.MUST_KEEP_A_CARD)
        return
    after = ok(game, off(1, "7H"))
    assert after.hand(0) == (c("QS"),)
    refused(after, discard("QS"), Code.REDISCARD_TAKEN_CARD)
    out = ok(after, off(2, "QS"))
    assert out.outcome is not None and out.outcome.winner == 0


@pytest.mark.parametrize(
    ("variants", "refusal"),
    [
        # RULES-MATRIX R4 switch: the freed joker may also be laid off at once
        (("no_rediscard_taken", "freed_joker_may_lay_off"), LEGAL),
        # 002 §Exchanging a joker: the freed joker must start a new meld, and a joker alone
        # is none
        (("no_rediscard_taken",), Code.MUST_KEEP_A_CARD),
    ],
)
def test_romme_lay_off_leaving_only_the_taken_card_that_goes_out_by_an_exchange(
    variants: tuple[str, ...], refusal: Refusal
) -> None:
    """Rommé with ``no_rediscard_taken`` (RULES-MATRIX R5): seat 0, opened, took the Q♠
    and holds Q♠ 7♥. Laying the 7♥ off on 4♥ 5♥ 6♥ leaves only the Q♠, which may not be
    discarded and fits no meld as it is, but pays for the joker in 10♠ J♠ JK(=Q♠) (002
    §Exchanging a joker). Where the freed joker may be laid off at once, it goes on the
    heart run (as 3♥ or 8♥) and seat 0 is out, so the lay-off is legal; where it must
    start a new meld, a lone joker cannot, and the lay-off is refused."""
    game = spot(
        rules("romme", *variants),
        "QS 7H",
        table=[
            (9, 0, "KH KD KC KS"),
            (1, 1, "4H 5H 6H"),
            (2, 1, hr.Meld.of("10S JS JK", {2: "QS"})),
        ],
        others=[9],
        current=hr.PositionTurn(taken=c("QS")),
        discards="9D",
    )
    ok(game, discard("7H"))
    expect(game, off(1, "7H"), refusal)
    if refusal is not LEGAL:
        return
    after = ok(game, off(1, "7H"))
    assert after.hand(0) == (c("QS"),)
    refused(after, discard("QS"), Code.REDISCARD_TAKEN_CARD)
    freed = ok(after, hr.Exchange.of(2, "QS"))
    assert freed.hand(0) == (c("JK"),)
    out = ok(freed, off(1, "JK", "8H"))
    assert out.outcome is not None and out.outcome.winner == 0


def test_classic_opening_that_leaves_only_the_taken_card() -> None:
    """004 §2 and §4: seat 0 took the A♥ before opening, so must open this turn (the taken
    card need not be in the opening), and may not discard the A♥ again. Laying down
    10♥ J♥ Q♥ K♥ (40) + 4♠ 4♥ 4♦ 4♣ (16) + 7♦ 7♥ 7♣ (21) + J♣ J♠ J♦ (30) = 107 ≥ 51
    leaves only the A♥, which may then go onto the new heart run after the K♥ and end the
    round: legal. The same opening is legal without the J♣ J♠ J♦, which then follow the
    A♥ onto the table as a meld of their own."""
    game = spot(
        CLASSIC,
        "10H JH QH KH 4S 4H 4D 4C 7D 7H 7C JC JS JD",
        table=[(1, 1, "3D 4D 5D")],
        me={"turns_played": 2},
        discards="AH",
        discard_size=5,
        phase=hr.Phase.DRAW,
    )
    game = ok(game, hr.TakeDiscard())
    every = lay("10H JH QH KH", "4S 4H 4D 4C", "7D 7H 7C", "JC JS JD")
    after = ok(game, every)
    assert after.hand(0) == (c("AH"),)
    opened_meld = next(m for m in after.table if m.owner == 0 and c("KH") in m.meld.cards)
    out = ok(after, off(opened_meld.id, "AH"))
    assert out.outcome is not None and out.outcome.winner == 0
    ok(game, lay("10H JH QH KH", "4S 4H 4D 4C", "7D 7H 7C"))


def _left_after(game: hr.Round, melds: tuple[hr.Meld, ...]) -> Counter[hr.Card]:
    """The cards of seat 0's hand that ``melds`` do not use."""
    left = hand_of(game)
    left.subtract(card for m in melds for card in m.cards)
    assert not -left, "the melds use cards the hand does not hold"
    return +left


@pytest.mark.parametrize(
    ("me", "going_out"),
    [
        # 000 §Playing a turn: "nobody may go out on their first turn"
        ({"turns_played": 0}, False),
        # a later turn: nothing bars it
        ({}, True),
    ],
)
def test_going_out_melds_levant_keep_one_card_and_wait_a_turn(
    me: dict[str, Any], going_out: bool
) -> None:
    """``Round.going_out_melds`` in the Levant game. 10♠ J♠ Q♠ K♠ 4♥ 4♦ 4♣ K♦: the only
    melds are the spade run (or three of its cards) and the three 4s; the K♦ fits none
    (one King of another suit is no set). 000 §Playing a turn, "Always discard": one card
    is kept for the discard, so the melds must use the other seven, which only the run of
    four and the 4s do: 40 + 12 = 52 ≥ 51 (§The first meld). On the first turn the ban
    leaves no way out."""
    game = spot(LEVANT, "10S JS QS KS 4H 4D 4C KD", indicator=EIGHT_CLUBS, me=me)
    melds = game.going_out_melds()
    if not going_out:
        assert melds is None
        return
    assert melds is not None
    assert sorted(sorted(card.index for card in m.cards) for m in melds) == sorted(
        sorted(card.index for card in cs(text)) for text in FIRST_TURN_OPENING
    )
    assert _left_after(game, melds) == Counter(cs("KD"))
    # and they are a way out: laid down, the discard of the K♦ ends the round
    out = ok(ok(game, hr.LayDown(melds)), discard("KD"))
    assert out.outcome is not None and out.outcome.winner == 0


def test_going_out_melds_levant_leave_one_card_of_a_hand_that_all_melds() -> None:
    """7♠ 8♠ 9♠ 10♠ 4♥ 4♦ 4♣ would all go into the run of four and the 4s, but 000 §Playing
    a turn asks for a discard at the end of every turn: the melds leave exactly one card,
    an end of the run (7♠ or 10♠), for it. Either way the melds are worth less than 51
    (8 + 9 + 10 + 12 = 39, 7 + 8 + 9 + 12 = 36), which the "Exception" of §The first meld
    allows to a player who gets rid of every card this turn."""
    game = spot(LEVANT, "7S 8S 9S 10S 4H 4D 4C", indicator=EIGHT_CLUBS)
    melds = game.going_out_melds()
    assert melds is not None
    (last,) = _left_after(game, melds).elements()
    assert last in cs("7S 10S")
    out = ok(ok(game, hr.LayDown(melds)), discard(last))
    assert out.outcome is not None and out.outcome.winner == 0


@pytest.mark.parametrize(
    ("hand", "me"),
    [
        # two cards, the 9♣ and the K♦, fit no meld, and only one may be the discard
        ("10S JS QS KS 4H 4D 9C KD", {}),
        # 2♠ 3♠ 4♠ and the 9♣ discarded would go out (9 < 51, allowed by the "Exception"
        # of §The first meld), but a forgotten announcement bars going out this turn
        ("2S 3S 4S 9C", {"missed": True, "announced": 0}),
    ],
)
def test_going_out_melds_levant_none_where_no_way_out(hand: str, me: dict[str, Any]) -> None:
    """000 §Playing a turn ("Always discard", "Announce": "If you forget, you may not go out
    on your next turn"): no melds get rid of every card this turn."""
    game = spot(LEVANT, hand, indicator=EIGHT_CLUBS, me=me)
    assert game.going_out_melds() is None


def test_going_out_melds_levant_below_the_bar_by_the_exception() -> None:
    """000 §The first meld, "Exception: if you can get rid of all your cards in one turn, you
    may do so even with less than 51 points". 2♠ 3♠ 4♠ (2 + 3 + 4 = 9) and the 9♣ for the
    discard, on a turn that may go out."""
    game = spot(LEVANT, "2S 3S 4S 9C", indicator=EIGHT_CLUBS)
    melds = game.going_out_melds()
    assert melds is not None
    assert [sorted(card.index for card in m.cards) for m in melds] == [
        sorted(card.index for card in cs("2S 3S 4S"))
    ]
    assert _left_after(game, melds) == Counter(cs("9C"))


ROMME_LOW = "AH 2H 3H 4S 4D 4C 6C 7C 8C"
"""Three melds worth 1 + 2 + 3 = 6 (002 §The first meld: "an Ace in A-2-3 is worth only
1"), 4 + 4 + 4 = 12 and 6 + 7 + 8 = 21: 6 + 12 + 21 = 39, one short of 40."""


@pytest.mark.parametrize(
    ("hand", "others_melded", "going_out"),
    [
        # a Hand Rommé: all cards in one turn, nobody has melded: "The 40-point minimum
        # does not apply"; the last card is melded, so no discard (002 §Going out)
        (ROMME_LOW, False, True),
        # seat 1 has melded: no Hand Rommé, and 39 < 40 may not come out (§The first meld:
        # "If you can't reach 40, you must keep your cards in your hand")
        (ROMME_LOW, True, False),
        # with J♥ Q♥ K♥ (30) as well: 39 + 30 = 69 ≥ 40, an ordinary finish in one turn
        (f"{ROMME_LOW} JH QH KH", True, True),
    ],
)
def test_going_out_melds_romme_hand(hand: str, others_melded: bool, going_out: bool) -> None:
    """``Round.going_out_melds`` in Rommé (002 §Scoring "Hand Rommé", §The first meld,
    §Going out): every card goes into the melds, and they are a legal way out."""
    table = [(1, 1, "KS KD KH")] if others_melded else []
    game = spot(ROMME, hand, table=table)
    melds = game.going_out_melds()
    if not going_out:
        assert melds is None
        return
    assert melds is not None
    assert not _left_after(game, melds)
    out = ok(game, hr.LayDown(melds))
    assert out.outcome is not None and out.outcome.winner == 0
    hand_romme = not others_melded
    assert (out.outcome.ending is hr.Ending.HAND) is hand_romme


def test_romme_hand_with_a_final_discard_goes_out() -> None:
    """002 §Going out and RULES-MATRIX R6 (a Hand Rommé may end with a discard): the melds
    of ROMME_LOW, 39 < 40, laid by a player who has not melded while nobody else has, and
    the K♦ discarded, go out in a Hand Rommé."""
    game = spot(ROMME, f"{ROMME_LOW} KD")
    out = ok(ok(game, lay("AH 2H 3H", "4S 4D 4C", "6C 7C 8C")), discard("KD"))
    assert out.outcome is not None and out.outcome.winner == 0
    assert out.outcome.ending is hr.Ending.HAND


def test_going_out_melds_romme_hand_with_a_final_discard() -> None:
    """002 §Going out: "Usually you meld or lay off everything but one card and discard that
    last card"; RULES-MATRIX R6 default: a Hand Rommé is a normal one-turn finish, "so a
    final discard is allowed". The 39 points of ROMME_LOW and the K♦ discarded get rid of
    every card this turn as a Hand Rommé (the engine accepts exactly that play: the test
    above), so the melds are the three of ROMME_LOW, leaving the K♦."""
    game = spot(ROMME, f"{ROMME_LOW} KD")
    melds = game.going_out_melds()
    assert melds is not None
    assert _left_after(game, melds) == Counter(cs("KD"))


def test_going_out_melds_classic_leaves_a_card_to_discard() -> None:
    """004 §2: a turn ends with a discard unless the player got rid of every card, so a
    discard is allowed without being wanted. 10♠ J♠ Q♠ K♠ (40) and 4♥ 4♦ 4♣ (12) make 52,
    over the bar of 51 (004 §4), and leave the K♦ for the last discard."""
    game = spot(hr.rulesets.classic, "10S JS QS KS 4H 4D 4C KD")
    melds = game.going_out_melds()
    assert melds is not None
    assert _left_after(game, melds) == Counter(cs("KD"))


# --- D. the redeal claim, the indicator and demoted wild cards ------------------------


NOT_WEAK = Code.REDEAL_NOT_ALLOWED
"""A claim refused because the deal is not one of 000 §Setup 4's weak deals."""

NATURAL = Code.NATURAL_CARD_GIVEN_ROLE
"""A natural card laid off as the 10♥ (000 §Wild cards): it stands for nothing but itself."""


def _asked(ruleset: hr.Ruleset, hand: str, indicator: str | None, seat: int = 1) -> hr.Round:
    """A two-player Levant deal (dealer 0, so seat 1 holds 15 cards and is asked first)
    in which ``seat`` holds ``hand``; the round stops at that seat's redeal question."""
    kwargs = {"indicator": indicator} if indicator else {}
    deal = hr.fill_deal(ruleset, 2, hands={seat: hand}, dealer=0, seed=5, **kwargs)
    game = deal.round(ruleset, dealer=0, seed=5)
    while game.phase is hr.Phase.REDEAL and game.turn != seat:
        game = game.apply(hr.PassRedeal())
    assert game.phase is hr.Phase.REDEAL and game.turn == seat
    return game


@pytest.mark.parametrize(
    ("hand", "indicator", "variants", "refusal"),
    [
        # four pairs of identical cards
        ("5H 5H 6S 6S 7D 7D 9C 9C 2S 3D 4H 10C JD QS KH", "8C", (), LEGAL),
        # RULES-MATRIX L6 a: "four pairs" read as at least four (five here)
        ("5H 5H 6S 6S 7D 7D 9C 9C 10C 10C 2S 3D 4H JD QS", "8C", (), LEGAL),
        # three pairs and a wild card (the A♣ under the 8♣)
        ("5H 5H 6S 6S 7D 7D AC 2S 3D 4H 9C 10C JD QS KH", "8C", (), LEGAL),
        # two pairs and two wild cards
        ("5H 5H 6S 6S AC AC 2S 3D 4H 7D 9C 10C JD QS KH", "8C", (), LEGAL),
        # three pairs and no wild card: not weak enough
        ("5H 5H 6S 6S 7D 7D 2S 3D 4H 9C 10C JD QS KH 8S", "8C", (), NOT_WEAK),
        # two pairs and one wild card: not weak enough
        ("5H 5H 6S 6S AC 2S 3D 4H 7D 9C 10C JD QS KH 8S", "8C", (), NOT_WEAK),
        # under the 8♣ the two jokers are identical natural A♣: a fourth pair (L6 b)
        ("5H 5H 6S 6S 7D 7D JK JK 2S 3D 4H 9C 10C QS KH", "8C", (), LEGAL),
        # an Ace indicator makes the jokers wild: three pairs and a joker
        ("5H 5H 6S 6S 7D 7D JK 2S 3D 4H 9C 10C JD QS KH", "AS", (), LEGAL),
        # ... and every Ace ordinary: three pairs and a natural A♣
        ("5H 5H 6S 6S 7D 7D AC 2S 3D 4H 9C 10C JD QS KH", "AS", (), NOT_WEAK),
        # Jokers only: the jokers are the wild cards, the A♣ is natural
        ("5H 5H 6S 6S 7D 7D JK 2S 3D 4H 9C 10C JD QS KH", None, ("jokers_only",), LEGAL),
        ("5H 5H 6S 6S 7D 7D AC 2S 3D 4H 9C 10C JD QS KH", None, ("jokers_only",), NOT_WEAK),
    ],
)
def test_levant_redeal_claim_by_the_starter(
    hand: str, indicator: str | None, variants: tuple[str, ...], refusal: Refusal
) -> None:
    """000 §Setup 4: "a player dealt four pairs of identical cards (e.g. 5♥ 5♥), or three
    such pairs and a wild card, or two pairs and two wild cards, may show them and ask
    for a new deal". §Wild cards decides the wild cards: a non-Ace indicator makes its
    suit's Aces wild and the jokers "ordinary Aces of that suit"; an Ace indicator makes
    the jokers wild and all Aces ordinary; §Variants "Jokers only". The 15-card starter
    may claim too (RULES-MATRIX L6 e)."""
    ruleset = rules("levant", *variants)
    game = _asked(ruleset, hand, indicator)
    after = expect(game, hr.ClaimRedeal(), refusal)
    ok(game, hr.PassRedeal())
    if after is not None:
        assert after.outcome is not None and after.outcome.ending is hr.Ending.REDEAL


def test_levant_redeal_claim_by_the_dealer() -> None:
    """000 §Setup 4: "a player dealt four pairs ..." – any player, so the dealer (seat 0,
    fourteen cards, asked after the starter) may claim as well."""
    game = _asked(LEVANT, "5H 5H 6S 6S 7D 7D 9C 9C 2S 3D 4H 10C JD QS", "8C", seat=0)
    ok(game, hr.ClaimRedeal())


@pytest.mark.parametrize(
    ("setup", "card", "target", "refusal"),
    [
        # 8♣: the A♣ is wild and may be the 10♥
        (("8C",), "AC", 1, LEGAL),
        # 8♣: a joker is a natural A♣, which does not fit 7♥ 8♥ 9♥ ...
        (("8C",), "JK", 1, NATURAL),
        # ... but ends J♣ Q♣ K♣ as its high Ace ("J♣ Q♣ K♣ joker is a sequence")
        (("8C",), "JK", 2, LEGAL),
        # A♠: the jokers are wild ...
        (("AS",), "JK", 1, LEGAL),
        # ... and the A♣ is an ordinary Ace: it fits J♣ Q♣ K♣, not 7♥ 8♥ 9♥
        (("AS",), "AC", 2, LEGAL),
        (("AS",), "AC", 1, NATURAL),
        # Jokers only: the joker is wild, the A♣ natural
        ((None, "jokers_only"), "JK", 1, LEGAL),
        ((None, "jokers_only"), "AC", 1, NATURAL),
    ],
)
def test_levant_indicator_decides_what_is_wild(
    setup: tuple[str | None, ...], card: str, target: int, refusal: Code | None
) -> None:
    """000 §Wild cards: "If it is not an Ace, the two Aces of its suit are wild for this
    round. The two jokers then take their place and count as ordinary Aces of that
    suit. If it is an Ace, the two jokers are wild, and all Aces are ordinary cards";
    §Variants, Jokers only: "the two jokers are always the only wild cards". On the
    heart run a wild card is laid off as the 10♥; a natural Ace fits it in no way
    (neither as the 10♥ nor as itself)."""
    indicator, *variants = setup
    game = spot(
        rules("levant", *[v for v in variants if v]),
        f"{card} 4D 2C",
        table=[(1, 1, "7H 8H 9H"), (2, 1, "JC QC KC"), (3, 0, "5D 5H 5S")],
        indicator=indicator,
    )
    if target == 2:
        expect(game, off(2, card), refusal)
    elif refusal is LEGAL:
        ok(game, off(1, card, role="10H"))
    else:
        # a natural card named as the 10♥ stands for nothing but itself ...
        refused(game, off(1, card, role="10H"), refusal)
        # ... and as itself an Ace of clubs breaks the heart run: neither a run (two
        # suits) nor a set (three ranks)
        expect(game, off(1, card), breaks(Topic.MELD_SHAPE))


def _took_wild(taken: str, hand: str, indicator: str, *variants: str) -> hr.Round:
    """Seat 0 has opened and took ``taken`` (a wild card) from the discard pile."""
    return spot(
        rules("levant", *variants),
        hand,
        table=[(1, 0, "KS KD KH"), (2, 1, "QD QC QH")],
        indicator=indicator,
        current=hr.PositionTurn(taken=c(taken)),
        discards="9D",
    )


@pytest.mark.parametrize(
    ("taken", "indicator", "variants", "new_meld", "refusal"),
    [
        # a wild A♣ taken from the pile "counts only as a natural Ace of its suit"
        ("AC", "8C", (), "AC 2C 3C", LEGAL),
        # 7♥ A♣ 9♥ as natural cards: two suits and three ranks, neither a run nor a set
        ("AC", "8C", (), "7H AC 9H", Code.MELD_NOT_RUN_OR_SET),
        # under an Ace indicator a joker from the pile "counts only as an Ace (of any suit)"
        ("JK", "AS", (), "JK 2H 3H", LEGAL),
        ("JK", "AS", (), "QD KD JK", LEGAL),
        # even as the A♥, 7♥ A♥ 9♥ is one suit whose ranks do not follow each other
        ("JK", "AS", (), "7H JK 9H", Code.RUN_NOT_IN_SEQUENCE),
        # RULES-MATRIX L4 default: under a non-Ace indicator the joker stays the natural A♣
        ("JK", "8C", (), "JK 2C 3C", LEGAL),
        # A♣ 2♥ 3♥: two suits and three ranks, neither a run nor a set
        ("JK", "8C", (), "JK 2H 3H", Code.MELD_NOT_RUN_OR_SET),
        # ... while ``joker_demotion_always`` lets it be an Ace of any suit
        ("JK", "8C", ("joker_demotion_always",), "JK 2H 3H", LEGAL),
    ],
)
def test_levant_wild_taken_from_the_discard_pile(
    taken: str, indicator: str, variants: tuple[str, ...], new_meld: str, refusal: Refusal
) -> None:
    """000 §Exchanging wild cards, "Discarded wild cards: a wild Ace taken from the discard
    pile counts only as a natural Ace of its suit; a joker taken from the discard pile
    counts only as an Ace (of any suit)". 000 §Playing a turn: the taken card goes at once
    into a new meld with two cards from the hand. The hand also holds 2♣ 3♣ (or 2♥ 3♥),
    so the taken card has some legal meld whatever the answer here."""
    rest = [card for card in new_meld.split() if card != taken]
    spare = "2H 3H" if (taken, indicator) == ("JK", "AS") else "2C 3C"
    extra = [card for card in spare.split() if card not in rest]
    game = _took_wild(taken, " ".join([taken, *rest, *extra, "4S", "6S"]), indicator, *variants)
    # the hand holds one copy of the taken face, so naming it plays the taken copy
    expect(game, lay(new_meld), refusal)


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # counting the taken A♣ too, the meld holds two wild cards where one is allowed
    [((), LEGAL), (("demoted_wild_counts",), Code.MELD_TOO_MANY_WILDS)],
)
def test_levant_demoted_wild_and_the_one_wild_limit(
    variants: tuple[str, ...], refusal: Refusal
) -> None:
    """000 §Wild cards: "a meld may contain only one wild card"; the A♣ taken from the pile
    "counts only as a natural Ace". RULES-MATRIX L5 default: so A♣ (taken) 2♣ A♣ (wild,
    as the 3♣) holds one wild and is valid; ``demoted_wild_counts`` counts the taken
    one too, and the meld holds two."""
    game = _took_wild("AC", "AC AC 2C 3C 4S 6S", "8C", *variants)
    expect(game, hr.LayDown((meld("AC 2C AC", demoted=[0]),)), refusal)


# --- E. more exchanges, lay-offs and endings ------------------------------------------


def test_levant_wild_standing_for_the_natural_ace_is_taken_with_a_joker() -> None:
    """000 §Wild cards: under the 8♣ the jokers "take their place and count as ordinary
    Aces of that suit". In Q♣ K♣ A♣ the wild A♣ stands for the high Ace of clubs, so
    the natural card it stands for is a joker (000 §Exchanging wild cards: "putting the
    natural card(s) it stands for in its place")."""
    game = spot(
        LEVANT,
        "JK 4D 6S 2C",
        table=[(1, 1, meld("QC KC AC", roles={2: "AC"})), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )
    after = ok(game, swap(1, "JK"))
    assert c("AC") in after.hand(0) and c("JK") not in after.hand(0)


def test_levant_demoted_ace_on_the_table_is_no_wild_to_take() -> None:
    """000 §Exchanging wild cards: a wild Ace taken from the discard pile "counts only as
    a natural Ace of its suit". Seat 1's A♣ 2♣ 3♣ was laid with such an A♣, so it holds
    no wild card, and nothing can be taken from it, not even for a joker (the natural
    A♣ under the 8♣)."""
    game = spot(
        LEVANT,
        "JK 4D 6S 2H",
        table=[(1, 1, meld("AC 2C 3C", demoted=[0])), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )
    refused(game, swap(1, "JK"), Code.EXCHANGE_NO_WILD)


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # two naturals and two jokers are not three naturals and a joker: not "completed"
    [((), LEGAL), (("tournament_jokers",), Code.EXCHANGE_SET_INCOMPLETE)],
)
def test_romme_two_naturals_two_jokers_set_exchange(
    variants: tuple[str, ...], refusal: Refusal
) -> None:
    """002 §Exchanging a joker: a joker in a set "can be exchanged for either missing
    suit"; RULES-MATRIX R2: 6♠ 6♥ JK JK is a valid set. §Variants, Tournament jokers:
    "only once the set is completed to four cards"; RULES-MATRIX R10: only a set of
    three naturals and a joker, so two naturals and two jokers give none up."""
    game = spot(
        rules("romme", *variants),
        "6C 7S 7H 2D",
        table=[(1, 1, "6S 6H JK JK"), (2, 0, "KS KD KH")],
    )
    expect(game, swap(1, "6C"), refusal)


def test_romme_run_with_two_jokers_gives_up_one() -> None:
    """002 §Exchanging a joker: "If a meld on the table contains a joker and you hold the
    real card the joker stands for, you may put your card in its place and take the
    joker." In 3♠ JK JK 6♠ (002 §Jokers' own example) the first joker is the 4♠; the
    freed joker goes at once into 7♥ 7♦ JK."""
    game = spot(
        ROMME,
        "4S 7H 7D 2D",
        table=[(1, 1, "3S JK JK 6S"), (2, 0, "KS KD KH")],
    )
    after = ok(game, swap(1, "4S"))
    ok(after, lay("7H 7D JK"))
    assert sorted(after.table[0].meld.cards, key=lambda card: card.index).count(c("4S")) == 1


def test_classic_exchange_in_the_opening_turn() -> None:
    """004 §4: "before opening you may not add to melds or replace Jokers"; "After
    opening, you can ... replace Jokers". RULES-MATRIX P5: "Replacement in the same turn
    as opening: default yes." The opening is 10♠..K♠ (40) + 4♥ 4♦ 4♣ (12) = 52."""
    game = spot(
        CLASSIC,
        "10S JS QS KS 4H 4D 4C JC 2D",
        table=[(1, 1, "9C 10C JK QC")],
    )
    refused(game, swap(1, "JC"), Code.NOT_OPENED)
    opened = ok(game, lay("10S JS QS KS", "4H 4D 4C"))
    ok(opened, swap(1, "JC"))


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # opening personally, seat 0 has not opened: no Joker replacement before that
    [((), LEGAL), (("personal_team_opening",), Code.NOT_OPENED)],
)
def test_saudi_partnership_exchange_on_the_teams_opening(
    variants: tuple[str, ...], refusal: Refusal
) -> None:
    """004 §The four variants: in Saudi Hand Partnership "the opening belongs to the whole
    team". RULES-MATRIX P9 a default: once the partner (seat 2) has opened, seat 0 may
    replace Jokers without laying down; ``personal_team_opening`` makes each partner
    open personally (004 §4: no Joker replacement before opening)."""
    game = spot(
        rules("saudi_partnership", *variants),
        "JC 2D 5S 8H",
        table=[(1, 1, "9C 10C JK QC"), (2, 2, "KS KD KH")],
        others=(9, 9, 9),
    )
    expect(game, swap(1, "JC"), refusal)


@pytest.mark.parametrize(
    ("table", "refusal"),
    # a second wild in 5♥ 5♠ A♣ breaks the one-wild limit
    [("5H 5S 5D", LEGAL), ("5H 5S AC", breaks(Topic.WILD_COUNT))],
)
def test_levant_wild_as_the_fourth_card_of_a_set(table: str, refusal: Refusal) -> None:
    """000 §Melds: a lay-off may be "the fourth card of a group"; §Wild cards: "a meld may
    contain only one wild card". The A♣ (wild under the 8♣) completes 5♥ 5♠ 5♦, but not
    5♥ 5♠ A♣, which holds a wild already."""
    game = spot(
        LEVANT,
        "AC 4D 2C 9S",
        table=[(1, 1, table), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )
    expect(game, off(1, "AC"), refusal)


def _two_plus_wild(hand: str) -> hr.Round:
    return spot(
        LEVANT,
        hand,
        table=[(1, 1, "5H 5S AC"), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )


def test_levant_two_plus_wild_lay_off_first_then_go_out() -> None:
    """000 §Exchanging wild cards: adding just one missing card is allowed "only if you go
    out this turn". The 5♦ may go first: 7♠ 8♠ 9♠ and the discard of the K♠ still get
    rid of every card this turn."""
    game = _two_plus_wild("5D 7S 8S 9S KS")
    after = ok(game, off(1, "5D"))
    after = ok(after, lay("7S 8S 9S"))
    out = ok(after, discard("KS"))
    assert out.outcome is not None and out.outcome.winner == 0


@pytest.mark.parametrize("hand", ["5D 7S 8S 9S KS", "5D 7S 8S 9S KS QS"])
def test_levant_two_plus_wild_lay_off_then_stopping_short(hand: str) -> None:
    """000 §Exchanging wild cards: the single missing card is allowed "only if you go out
    this turn, or if someone has already announced "one card" (or you will announce it
    after this turn)". Nobody has announced. The lay-off of the 5♦ first is legal: with
    7♠ 8♠ 9♠ laid next, the discard goes out (five cards) or leaves one (six cards),
    001 "wenn du in diesem Zug fertig wirst". Having laid off the 5♦, a discard that
    leaves four or five cards neither goes out nor leaves one card: the turn would
    break the condition the lay-off was allowed on, so that discard is refused."""
    game = _two_plus_wild(hand)
    after = ok(game, off(1, "5D"))
    # the discard breaks the condition of the rule for a set of two cards and a wild
    refused(after, discard("KS"), Code.LAYOFF_TWO_PLUS_WILD)


def test_levant_two_plus_wild_lay_off_refused_when_the_turn_cannot_end_on_one_card() -> None:
    """000 §Exchanging wild cards: one missing card on 5♥ 5♠ A♣ "only if you go out this
    turn, or ... (you will announce it after this turn)" (RULES-MATRIX L10: one card left
    after the discard). After the 5♦, 7♠ 2♣ 9♥ K♠ remain: no meld among them and nothing
    on the table takes one, so the discard would leave three cards. Refused; and once the
    5♦ is laid off last, after the other cards went, it is the usual lay-off."""
    game = _two_plus_wild("5D 7S 2C 9H KS")
    refused(game, off(1, "5D"), Code.LAYOFF_TWO_PLUS_WILD)
    # with 7♠ 8♠ 9♠ it can: lay the run down, then the 5♦ leaves the K♠ to discard
    game = _two_plus_wild("5D 7S 8S 9S KS")
    game = ok(game, lay("7S 8S 9S"))
    assert game.current.obligation is None
    ok(game, off(1, "5D"))


def test_levant_two_plus_wild_lay_off_binds_the_rest_of_the_turn() -> None:
    """The 5♦ on 5♥ 5♠ A♣ first, with 7♠ 8♠ 9♠ K♠ Q♠ left (000 §Exchanging wild cards,
    matrix L10): the turn must now end out or on one card. Discarding the K♠ at once
    would leave four, so the listing holds no discard; it holds the lay-down of 7♠ 8♠ 9♠,
    after which a discard leaves one card, announced (000 §Playing a turn)."""
    game = ok(_two_plus_wild("5D 7S 8S 9S KS QS"), off(1, "5D"))
    assert game.current.obligation is hr.Obligation.ONE_CARD
    listed = list(game.legal_actions())
    assert not any(isinstance(a, hr.Discard) for a in listed)
    assert lay("7S 8S 9S") in listed
    game = ok(game, lay("7S 8S 9S"))
    after = ok(game, discard("KS", announce=True))
    assert after.hand(0) == (hr.parse_card("QS"),)


def test_levant_missed_three_cards_bars_going_out() -> None:
    """000 §Playing a turn: "when you have three cards or fewer after discarding, say so –
    "three cards", "two cards" or "one card". If you forget, you may not go out on your
    next turn" (RULES-MATRIX L10: any of the three). Seat 0 forgot "three cards" and drew
    a fourth: the 10♥ and J♥ go on seat 1's run, but the Q♥ would leave only the K♠,
    whose discard would go out."""
    game = _missed("10H JH QH KS")
    game = ok(game, off(1, "10H"))
    game = ok(game, off(1, "JH"))
    refused(game, off(1, "QH"), Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT)
    ok(game, discard("QH", announce=True))


def test_levant_redeal_claimed_only_before_play() -> None:
    """000 §Setup 4: the claim is part of the setup ("may show them and ask for a new
    deal"); RULES-MATRIX L6 d: before the first discard. Once every seat has kept the
    deal and the starter plays, a claim is refused, even with four pairs."""
    hand = "5H 5H 6S 6S 7D 7D 9C 9C 2S 3D 4H 10C JD QS KH"
    game = _asked(LEVANT, hand, "8C").keep_deal()
    assert game.phase is PLAY
    refused(game, hr.ClaimRedeal(), Code.REDEAL_NOT_ALLOWED)


def test_levant_two_plus_wild_lay_off_after_a_missed_announcement() -> None:
    """000 §Exchanging wild cards: one missing card goes on 5♥ 5♠ A♣ "only if you go out
    this turn"; §Playing a turn: after a forgotten announcement "you may not go out on
    your next turn". Laying off the 5♦ would leave the K♠, whose discard would go out:
    barred, so the lay-off has no legal end of turn and is refused."""
    game = spot(
        LEVANT,
        "5D KS",
        table=[(1, 1, "5H 5S AC"), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
        me={"missed": True, "announced": 0},
    )
    refused(game, off(1, "5D"), Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT)
    ok(game, discard("5D", announce=True))


def test_levant_lay_down_of_the_whole_hand_is_refused() -> None:
    """000 §Playing a turn: "Always discard: every turn ends with a discard, so you must
    always keep one card in your hand to throw away." Seat 0 has opened and holds only
    7♠ 8♠ 9♠: laying them down would leave nothing to discard."""
    game = spot(LEVANT, "7S 8S 9S", table=[(1, 0, "JD QD KD")], indicator=EIGHT_CLUBS)
    refused(game, lay("7S 8S 9S"), Code.MUST_KEEP_A_CARD)
    ok(game, discard("9S", announce=True))


@pytest.mark.parametrize(
    ("variants", "refusal"),
    [((), LEGAL), (("no_rediscard_taken",), Code.REDISCARD_TAKEN_CARD)],
)
def test_gulf_rediscarding_the_taken_card(variants: tuple[str, ...], refusal: Refusal) -> None:
    """003 §Turn Flow puts no condition on the card taken from the discard pile
    (RULES-MATRIX G10: re-discarding it is allowed); ``no_rediscard_taken`` forbids it."""
    game = spot(
        rules("gulf", *variants),
        "QS 7S 2C",
        table=[(1, 1, "4H 5H 6H"), (2, 0, "KD KH KC")],
        others=(9, 9, 9),
        current=hr.PositionTurn(taken=c("QS")),
        discards="9D",
    )
    expect(game, discard("QS"), refusal)


def _classic_hand_finish(exchange_on: str) -> hr.Round:
    """Seat 0 has played nothing before and gets rid of every card this turn, taking the
    joker from seat 1's run (``others``) or from its own run laid this turn (``own``)."""
    if exchange_on == "others":
        game = spot(
            CLASSIC,
            "10S JS QS KS 4H 4D 4C JC 5S 5D",
            table=[(1, 1, "9C 10C JK QC")],
        )
        game = ok(game, lay("10S JS QS KS", "4H 4D 4C"))
        game = ok(game, swap(1, "JC"))
    else:
        game = spot(
            CLASSIC,
            "10S JS JK KS QS 4H 4D 4C 5S 5D",
            table=[(1, 1, "9C 10C JC QC")],
        )
        game = ok(game, lay("10S JS JK KS", "4H 4D 4C"))
        run = next(m.id for m in game.table if m.owner == 0 and len(m.meld.cards) == 4)
        game = ok(game, swap(run, "QS"))
    return ok(game, lay("5S 5D JK"))


@pytest.mark.parametrize(("exchange_on", "score"), [("others", -30), ("own", -60)])
def test_classic_exchange_on_another_players_meld_spoils_a_hand(
    exchange_on: str, score: int
) -> None:
    """004 §The "Hand" finish: "If you lay down all your cards in a single turn without
    adding to anyone else's melds, having played nothing in your earlier turns": -60;
    §Round scoring: an ordinary finish is -30. Replacing seat 1's Joker puts the J♣
    into seat 1's run; replacing the Joker of one's own run does not. The opening is
    40 + 12 = 52 either way, and the last meld 5♠ 5♦ Joker empties the hand (004 §2:
    no discard needed)."""
    game = _classic_hand_finish(exchange_on)
    assert game.outcome is not None and game.outcome.winner == 0
    assert game.outcome.score.scores[0] == score


# --- F. the referee's own questions -------------------------------------------------------


@pytest.mark.parametrize(
    ("context", "legal"),
    [
        ({}, False),
        ({"going_out": True}, True),
        ({"one_card_announced": True}, True),
        ({"announcing_one_card": True}, True),
    ],
)
def test_referee_layoff_two_plus_wild_context(context: dict[str, bool], legal: bool) -> None:
    """000 §Exchanging wild cards: one missing card goes on a group of two and a wild
    "only if you go out this turn, or if someone has already announced "one card" (or
    you will announce it after this turn)". The referee's ``layoff`` question and
    ``hr.lay_off`` with the same ``LayoffContext`` must both say so."""
    reply = answer(
        {
            "rules": "levant",
            "indicator": EIGHT_CLUBS,
            "ask": "layoff",
            "meld": ["5H", "5S", "AC"],
            "cards": ["5D"],
            "context": context,
        }
    )
    mrules = hr.MeldRules.of(LEVANT, EIGHT_CLUBS)
    table = hr.judge_meld(meld("5H 5S AC"), mrules).meld
    assert table is not None, "5♥ 5♠ A♣ is a legal meld"
    direct = hr.lay_off(table, "5D", mrules, context=hr.LayoffContext(**context))
    assert reply["ok"] is legal
    assert direct.ok is legal


@pytest.mark.parametrize(
    ("preset", "variants", "table", "given", "legal"),
    [
        # 000: both missing cards of a group of two and a wild
        ("levant", (), "5H 5S AC", "5D", False),
        ("levant", (), "5H 5S AC", "5D 5C", True),
        # 000: a run takes the card for the wild's place
        ("levant", (), "7H AC 9H", "8H", True),
        # 002: either missing suit; tournament jokers only from a set of four
        ("romme", (), "6S 6H JK", "6C", True),
        ("romme", ("tournament_jokers",), "6S 6H JK", "6C", False),
        ("romme", ("tournament_jokers",), "6S 6H 6D JK", "6C", True),
        # 003 / RULES-MATRIX G7: no exchange by default
        ("gulf", (), "9C 10C JK QC", "JC", False),
    ],
)
def test_referee_exchange_question(
    preset: str, variants: tuple[str, ...], table: str, given: str, legal: bool
) -> None:
    """000 §Exchanging wild cards, 002 §Exchanging a joker and §Variants (Tournament
    jokers), RULES-MATRIX G7: the referee's ``exchange`` question and ``hr.exchange``
    agree with the documents (the meld alone, without a round: no opening gate)."""
    question: dict[str, Any] = {
        "rules": preset,
        "variants": list(variants),
        "ask": "exchange",
        "meld": table.split(),
        "cards": given.split(),
    }
    indicator = EIGHT_CLUBS if preset == "levant" else None
    if indicator:
        question["indicator"] = indicator
    reply = answer(question)
    mrules = hr.MeldRules.of(rules(preset, *variants), indicator)
    on_table = hr.judge_meld(meld(table), mrules).meld
    assert on_table is not None, f"{table} is a legal meld"
    direct = hr.exchange(on_table, given, mrules)
    assert reply["ok"] is legal, reply
    assert direct.ok is legal
    if legal:
        assert reply["wild"] == ("AC" if preset == "levant" else "JK")


# --- G. further edges ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "refusal"),
    # the 6♥ is not the card the wild stands for: the wrong card for the exchange
    [("9H", LEGAL), ("6H", Code.EXCHANGE_WRONG_CARDS)],
)
def test_levant_exchange_at_a_runs_end_takes_the_written_place(
    given: str, refusal: Refusal
) -> None:
    """000 §Exchanging wild cards: "in a sequence, the card for its position".
    RULES-MATRIX L3: the wild at the end of 7♥ 8♥ A♣ stands for the card at its written
    place, the 9♥; the 6♥ at the other end is not the card it stands for."""
    game = spot(
        LEVANT,
        f"{given} 4S 2C KS",
        table=[(1, 1, "7H 8H AC"), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )
    expect(game, swap(1, given), refusal)


def test_levant_exchange_that_would_force_going_out_after_a_missed_announcement() -> None:
    """000 §Exchanging wild cards: 5♥ 5♠ A♣ gives up its wild for the 5♦ and the 5♣ (two
    cards in, one out). From 5♦ 5♣ that leaves only the A♣, whose discard would go out,
    which §Playing a turn bars on the turn after a forgotten announcement: the exchange
    has no legal end of turn and is refused."""
    game = spot(
        LEVANT,
        "5D 5C",
        table=[(1, 1, "5H 5S AC"), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
        me={"missed": True, "announced": 0},
    )
    refused(game, swap(1, "5D 5C"), Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT)


def test_levant_exchange_then_discard_the_wild_to_go_out() -> None:
    """000 §Exchanging wild cards (both missing cards for 5♥ 5♠ A♣; the wild may be kept)
    and §End of a round: "melding all but one and discarding the last". From 5♦ 5♣ the
    exchange leaves the A♣, and discarding it goes out."""
    game = spot(
        LEVANT,
        "5D 5C",
        table=[(1, 1, "5H 5S AC"), (2, 0, "JD QD KD")],
        indicator=EIGHT_CLUBS,
    )
    after = ok(game, swap(1, "5D 5C"))
    out = ok(after, discard("AC"))
    assert out.outcome is not None and out.outcome.winner == 0


@pytest.mark.parametrize(
    ("variants", "refusal"),
    # under the switch the Joker as the 10♥ would end the run: the run-end rule
    [((), LEGAL), (("joker_inside_only",), breaks(Topic.WILD_AT_RUN_END))],
)
def test_classic_joker_laid_off_at_a_runs_end(variants: tuple[str, ...], refusal: Refusal) -> None:
    """004 §The Joker: "The Joker stands in for a missing card inside a run or set".
    RULES-MATRIX P3 default: "inside" means within the meld, ends included;
    ``joker_inside_only`` allows interior gaps only, so 7♥ 8♥ 9♥ + Joker as the 10♥
    is refused there."""
    game = spot(
        rules("classic", *variants),
        "JK 4D 2C",
        table=[(1, 1, "7H 8H 9H"), (2, 0, "KS KD KC")],
    )
    expect(game, off(1, "JK", role="10H"), refusal)


@pytest.mark.parametrize(
    ("table", "role", "refusal"),
    [
        # 6♥ JK 8♥ + JK (9♥): four cards, two jokers
        ("6H JK 8H", "9H", LEGAL),
        # 6♥ JK 8♥ JK + JK (10♥): five cards, three jokers, over the limit of two
        ("6H JK 8H JK", "10H", breaks(Topic.WILD_COUNT)),
    ],
)
def test_gulf_jokers_laid_off_by_meld_length(table: str, role: str, refusal: Refusal) -> None:
    """003 §Jokers: "Maximum 1 joker allowed in a 3-card meld, and maximum 2 jokers in a
    meld of 4 or more cards." A third joker never fits."""
    game = spot(
        GULF,
        "JK 4D 2C",
        table=[(1, 1, table), (2, 0, "KS KD KC")],
        others=(9, 9, 9),
    )
    expect(game, off(1, "JK", role=role), refusal)


@pytest.mark.parametrize("preset", ["classic", "partnership"])
def test_app_exchange_on_another_players_meld_spoils_a_hand(preset: str) -> None:
    """004 §The "Hand" finish: all cards down in one turn "without adding to anyone else's
    melds" is a Hand (-60, the others doubled, +200 for never opened). The 8♠ put into seat
    1's 7♠ JK 9♠ adds to that meld, so going out so is ordinary: -30 for the winner, seat 1
    (opened: the meld is its own) pays K♦ 5♦ = 15, seats 2 and 3 (never opened) 100 each
    (004 §Round scoring). The opening 10♥ J♥ Q♥ K♥ A♥ is 51; the round ends when the hand
    is empty, with no discard (004 §2)."""
    position = hr.Position(
        hr.build(preset),
        players=[
            hr.PositionSeat("10H JH QH KH AH 8S 5C 6C", turns_played=1),
            hr.PositionSeat("KD 5D"),
            5,
            6,
        ],
        table=[hr.PositionMeld(1, 1, "7S JK 9S")],
        discards="5D",
        discard_size=10,
        turn=0,
        phase=hr.Phase.PLAY,
    )
    game = hr.Round.from_position(position)
    for action in (
        hr.LayDown.of("10H JH QH KH AH"),
        hr.Exchange.of(1, "8S"),
        hr.LayDown.of("5C 6C JK"),
    ):
        game = game.apply(action)
    assert game.outcome is not None and game.outcome.ending is not hr.Ending.HAND
    assert game.outcome.score.scores == (-30, 15, 100, 100)
