"""Scenario tests of the round engine, one or more per turn rule of RULES-MATRIX §2.1-2.6.

Every test starts from an explicit deal (``Round.from_deal``, through :func:`deal`
below) or a seeded ``Round.deal``, plays a few actions and checks legality, state
or outcome. Expected values are worked out by hand from the rule documents
(arithmetic in comments), never read back from the library.

Seats are numbered in the order of play: the seat after the dealer is the
dealer's right in 000/004 and the dealer's left in 003.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import pytest

import hand_rummy as hr
from citations import citation_problems
from hand_rummy import Code
from hand_rummy.rules.turn import DiscardTake
from hand_rummy.serialize import (
    position_from_json,
    position_to_json,
    round_from_json,
    round_to_json,
)
from hand_rummy.turn_rules import going_out_problems, may_go_out

LEVANT = hr.rulesets.levant
ROMME = hr.rulesets.romme
GULF = hr.rulesets.gulf
CLASSIC = hr.rulesets.classic
SAUDI = hr.rulesets.saudi


# --- helpers ------------------------------------------------------------------------


def cards(text: str | Sequence[str] | None) -> list[hr.Card]:
    if not text:
        return []
    return list(hr.parse_cards(text))


def deal(
    ruleset: hr.Ruleset,
    hands: Sequence[str | None],
    *,
    top: str = "",
    discards: str = "",
    indicator: str | None = None,
    dealer: int = 0,
    asked: bool = False,
) -> hr.Round:
    """A round from the hands we care about; the rest of the deck fills the stock.

    ``None`` hands are filled with spare cards (no Aces, no jokers, spread over the
    deck). ``top`` lists the next stock cards in the order they will be drawn; the
    remaining cards of ``ruleset.deck.cards()`` lie under them in deck order. Every
    seat keeps the deal where a redeal may be claimed, unless ``asked``: then the
    round starts with the asking.
    """
    pool = [p.card for p in ruleset.deck.cards()]

    def take(chosen: Iterable[hr.Card]) -> None:
        for card in chosen:
            pool.remove(card)  # ValueError: the scenario uses a card too often

    fixed = [cards(h) if h is not None else None for h in hands]
    drawn = cards(top)
    pile = cards(discards)
    shown = cards(indicator)
    for chosen in (*[f for f in fixed if f is not None], drawn, pile, shown):
        take(chosen)
    starter = ruleset.deal.starter(dealer, len(hands))
    full: list[list[hr.Card]] = []
    for seat, given in enumerate(fixed):
        hand = given
        if hand is None:
            extra = ruleset.deal.starter_extra_card and seat == starter
            size = ruleset.deal.hand_size + (1 if extra else 0)
            spare = [c for c in pool if not c.is_joker and c.rank is not hr.Rank.ACE]
            hand = []
            i = 0
            while len(hand) < size:
                i = (i + 7) % len(spare)
                if spare[i] not in hand:  # no identical pairs (000 §Setup 4 redeal)
                    hand.append(spare.pop(i))
            take(hand)
        full.append(hand)
    stock = pool + drawn[::-1]
    game = hr.Round.from_deal(
        ruleset, full, stock, discards=pile, indicator=indicator, dealer=dealer
    )
    return game if asked else game.keep_deal()


def c(text: str) -> hr.Card:
    return hr.parse_card(text)


def meld(text: str, **kwargs: object) -> hr.Meld:
    return hr.Meld.of(text, **kwargs)  # type: ignore[arg-type]


def lay(*texts: str) -> hr.LayDown:
    return hr.LayDown(tuple(meld(t) for t in texts))


def play(g: hr.Round, *actions: hr.Action) -> hr.Round:
    for action in actions:
        g = g.apply(action)
    return g


def codes(g: hr.Round, action: hr.Action) -> tuple[Code, ...]:
    """The codes of ``action``'s violations, each of which must cite a rule of ``g``'s preset."""
    verdict = g.check(action)
    assert not citation_problems(g.ruleset, verdict.violations)
    return tuple(verdict.codes)


def refused(g: hr.Round, action: hr.Action, code: Code) -> None:
    """``action`` is illegal for ``code`` and not among the legal actions."""
    assert code in codes(g, action), (action, g.check(action))
    assert action not in g.legal_actions()


def allowed(g: hr.Round, action: hr.Action) -> None:
    assert g.check(action).ok, (action, g.check(action))
    assert action in g.legal_actions()


def table_id(g: hr.Round, text: str) -> int:
    """The id of the table meld whose cards are exactly ``text`` (in table order)."""
    want = cards(text)
    for t in g.table:
        if list(t.meld.cards) == want:
            return t.id
    raise AssertionError(f"no meld {text} on {[str(t) for t in g.table]}")


def draw_discard(g: hr.Round) -> hr.Round:
    """One dull turn: draw the top of the stock and throw that card away."""
    card = g.stock[-1]
    return play(g, hr.DrawStock(), hr.Discard(card))


# --- §2.1 deal sizes, stock sizes and who starts --------------------------------------


@pytest.mark.parametrize(("players", "stock"), [(4, 48), (3, 62), (2, 76)])
def test_levant_deal_sizes_and_indicator(players: int, stock: int) -> None:
    """000 §Setup 2-3: 14 each, the dealer's right 15; indicator turned; stock 106-(14n+1)-1."""
    g = hr.Round.deal(LEVANT, players=players, seed=11, dealer=0)
    sizes = [len(g.hand(s)) for s in range(players)]
    # the starter (seat after the dealer) holds 15, the others 14
    assert sizes == [15 if s == 1 else 14 for s in range(players)]
    # 4 players: 106 - 57 - 1 = 48; 3: 106 - 43 - 1 = 62; 2: 106 - 29 - 1 = 76
    assert len(g.stock) == stock
    assert g.indicator is not None and not g.indicator.is_joker
    assert g.discards == ()
    # every seat is asked about a redeal, the starter first; then the starter plays
    assert g.phase is hr.Phase.REDEAL and g.turn == 1
    assert g.keep_deal().turn == 1


@pytest.mark.parametrize(
    ("variant", "stock", "indicator"), [("jokers_only", 49, False), ("no_jokers", 46, True)]
)
def test_levant_variant_stock_sizes(variant: str, stock: int, indicator: bool) -> None:
    """000 §Variants: jokers only (no indicator): 106-57 = 49; without jokers: 104-57-1 = 46."""
    ruleset = hr.build("levant", [variant])
    g = hr.Round.deal(ruleset, players=4, seed=3)
    assert len(g.stock) == stock
    assert (g.indicator is not None) is indicator


@pytest.mark.parametrize(("players", "stock"), [(4, 55), (6, 29), (2, 81)])
def test_romme_deal_dealer_has_14_and_starts(players: int, stock: int) -> None:
    """002 §Setup 2, §Playing a turn: 13 each, dealer 14 and starts; stock 108-(13n+1)."""
    g = hr.Round.deal(ROMME, players=players, seed=5, dealer=1)
    sizes = [len(g.hand(s)) for s in range(players)]
    assert sizes == [14 if s == 1 else 13 for s in range(players)]
    # 4 players: 108 - 53 = 55; 6: 108 - 79 = 29; 2: 108 - 27 = 81
    assert len(g.stock) == stock
    assert g.turn == 1
    assert g.indicator is None and g.discards == ()


def test_gulf_deal_13_each_and_upcard() -> None:
    """003 §The Deck, §Dealing: 13 each, 56 left, top card turned to start the pile: 55."""
    g = hr.Round.deal(GULF, players=4, seed=9, dealer=3)
    assert [len(g.hand(s)) for s in range(4)] == [13, 13, 13, 13]
    # 108 - 52 = 56; one upcard -> 55 in the stock, 1 in the discard pile
    assert len(g.stock) == 55
    assert len(g.discards) == 1
    # the dealer's left (next seat after the dealer) starts with an ordinary draw
    assert g.turn == 0
    assert g.phase is hr.Phase.DRAW


@pytest.mark.parametrize(
    ("preset", "players", "stock"),
    [
        ("classic", 4, 49),
        ("classic", 2, 77),
        ("partnership", 4, 49),
        ("saudi", 4, 49),
        ("saudi", 2, 77),
        ("saudi_partnership", 4, 49),
    ],
)
def test_app_deal_sizes(preset: str, players: int, stock: int) -> None:
    """004 §1. The deal: 14 each, the dealer's right a 15th; draw pile 106-(14n+1)."""
    ruleset = hr.PRESETS[preset]
    g = hr.Round.deal(ruleset, players=players, seed=2, dealer=0)
    assert [len(g.hand(s)) for s in range(players)] == [
        15 if s == 1 else 14 for s in range(players)
    ]
    # 4 players: 106 - 57 = 49; 2 players: 106 - 29 = 77; no indicator
    assert len(g.stock) == stock
    assert g.indicator is None
    assert g.turn == 1


# --- §2.1 the starter's first turn --------------------------------------------------


LEVANT_OPENER_15 = "JH QH KH 7S 7D 7H 2C 5D 9S 3H 6C 10D 4S KC 9D"


@pytest.mark.parametrize("ruleset", [LEVANT, CLASSIC], ids=["levant", "classic"])
def test_starter_first_turn_is_a_bare_discard(ruleset: hr.Ruleset) -> None:
    """000 §Playing a turn / 004 §1: the 15-card player starts by simply discarding."""
    indicator = "8C" if ruleset.uses_indicator else None
    g = deal(ruleset, [None, LEVANT_OPENER_15], indicator=indicator)
    assert g.turn == 1 and g.phase is hr.Phase.PLAY
    # JH QH KH (30) + 7S 7D 7H (21) = 51 would be an opening, but not now (matrix L8)
    opening = lay("JH QH KH", "7S 7D 7H")
    refused(g, opening, Code.WRONG_PHASE)
    refused(g, hr.DrawStock(), Code.WRONG_PHASE)
    legal = list(g.legal_actions())
    assert legal and all(isinstance(a, hr.Discard) for a in legal)
    after = g.apply(hr.Discard(c("KC")))
    assert after.turn == 0 and after.phase is hr.Phase.DRAW
    assert after.discards == (c("KC"),)


def test_romme_dealer_melds_without_drawing() -> None:
    """002 §Playing a turn: the dealer starts with 14, does not draw, may meld, then discards."""
    dealer_hand = "JS QS KS 4H 4D 4C 2D 6H 9C 10H 5S 7D 8C 3S"
    g = deal(ROMME, [dealer_hand, None], dealer=0)
    assert g.turn == 0 and g.phase is hr.Phase.PLAY
    refused(g, hr.DrawStock(), Code.WRONG_PHASE)
    # JS QS KS (30) + 4H 4D 4C (12) = 42 >= 40
    opening = lay("JS QS KS", "4H 4D 4C")
    allowed(g, opening)
    g = play(g, opening, hr.Discard(c("3S")))
    assert g.opened[0] and g.turn == 1 and g.phase is hr.Phase.DRAW
    assert len(g.hand(0)) == 14 - 6 - 1


def test_gulf_first_player_draws_or_takes_upcard() -> None:
    """003 §Dealing: the dealer's left takes an ordinary turn; the upcard may be taken."""
    g = deal(GULF, [None, None, None, None], discards="9H", dealer=3, top="2S")
    assert g.turn == 0 and g.phase is hr.Phase.DRAW
    allowed(g, hr.DrawStock())
    allowed(g, hr.TakeDiscard())
    refused(g, hr.Discard(g.hand(0)[0]), Code.WRONG_PHASE)
    taken = g.apply(hr.TakeDiscard())
    assert c("9H") in taken.hand(0) and taken.discards == ()
    # no restriction on the taken card (matrix §3 G10): it may go straight back
    allowed(taken, hr.Discard(c("9H")))


# --- §2.2 the wild-card indicator -----------------------------------------------------


def _seed_with_joker_on_top(ruleset: hr.Ruleset, players: int) -> int:
    """A seed whose shuffled deck has a joker where the indicator is turned up."""
    dealt = ruleset.deal.hand_size * players + 1
    for seed in range(5000):
        deck = [p.card for p in ruleset.deck.cards()]
        random.Random(seed).shuffle(deck)
        if deck[len(deck) - dealt - 1].is_joker and not deck[len(deck) - dealt - 2].is_joker:
            return seed
    raise AssertionError("no seed found")


def test_levant_joker_indicator_goes_back_into_the_stock() -> None:
    """000 §Wild cards: a joker indicator is pushed into the middle of the stock; turn the next."""
    seed = _seed_with_joker_on_top(LEVANT, 4)
    deck = [p.card for p in LEVANT.deck.cards()]
    random.Random(seed).shuffle(deck)
    under = deck[len(deck) - 57 - 2]  # the card below the joker
    g = hr.Round.deal(LEVANT, players=4, seed=seed)
    assert g.indicator == under
    # the joker stays in play, in the stock: 106 - 57 - 1 = 48 cards
    assert len(g.stock) == 48
    positions = [i for i, card in enumerate(g.stock) if card.is_joker]
    assert positions, "the joker indicator must go back into the stock"
    assert any(abs(i - len(g.stock) / 2) <= 1 for i in positions)


def test_levant_from_deal_refuses_a_joker_indicator() -> None:
    """000 §Wild cards: a joker is never the indicator."""
    with pytest.raises(hr.InvalidStateError):
        deal(LEVANT, [None, None], indicator="JK")


# --- §2.6 redeal claims ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "claim"),
    [
        # four pairs of identical cards
        ("2S 2S 5H 5H 9D 9D KC KC 3H 6D 7S 10C JH 4D", True),
        # three pairs and a wild card (A♣ with the 8♣ indicator)
        ("2S 2S 5H 5H 9D 9D AC 3H 6D 7S 10C JH 4D KC", True),
        # two pairs and two wild cards
        ("2S 2S 5H 5H AC AC 3H 6D 7S 10C JH 4D KC 9D", True),
        # three pairs only: no claim
        ("2S 2S 5H 5H 9D 9D 3H 6D 7S 10C JH 4D KC QS", False),
    ],
    ids=["four_pairs", "three_pairs_wild", "two_pairs_two_wilds", "three_pairs"],
)
def test_levant_redeal_claim(hand: str, claim: bool) -> None:
    """000 §Setup 4: four pairs, three pairs + a wild, or two pairs + two wilds: a new deal."""
    g = deal(LEVANT, [hand, None], indicator="8C", asked=True)
    # every seat is asked, from the starter (seat 1, whose spare hand holds no pair) on
    assert g.phase is hr.Phase.REDEAL and g.turn == 1
    refused(g, hr.ClaimRedeal(), Code.REDEAL_NOT_ALLOWED)
    refused(g, hr.Discard(g.hand(1)[0]), Code.WRONG_PHASE)
    g = g.apply(hr.PassRedeal())
    assert g.phase is hr.Phase.REDEAL and g.turn == 0
    if not claim:
        refused(g, hr.ClaimRedeal(), Code.REDEAL_NOT_ALLOWED)
        assert list(g.legal_actions()) == [hr.PassRedeal()]
        g = g.apply(hr.PassRedeal())
        assert g.phase is hr.Phase.PLAY and g.turn == 1
        return
    over = g.apply(hr.ClaimRedeal())
    assert over.is_over
    assert over.outcome is not None
    assert over.outcome.ending is hr.Ending.REDEAL
    assert over.outcome.score.scored is False
    kept = g.apply(hr.PassRedeal())
    # keeping the deal: play starts with the 15-card player's bare discard
    assert kept.phase is hr.Phase.PLAY and kept.turn == 1


def test_romme_has_no_redeal() -> None:
    """002 (no redeal rule; matrix §2.6 Redeal: none stated): four pairs just play on."""
    g = deal(ROMME, ["2S 2S 5H 5H 9D 9D KC KC 3H 6D 7S 10C JH 4D", None])
    assert g.phase is hr.Phase.PLAY and g.turn == 0


# --- §2.5 taking the discard: levant --------------------------------------------------

# seat 1 (15 cards) starts; its first discard is 2D
LEV_SEAT1 = "2D 3C 6H 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D"


def test_levant_take_discard_needs_a_new_meld() -> None:
    """000 §Playing a turn: taking the discard needs a new meld of it and two hand cards."""
    seat0 = "JH QH KH 7S 7D 7H 9S 10D KS 3H 6C 5C 2H 4C"
    g = deal(LEVANT, [seat0, LEV_SEAT1], indicator="8C", top="9H")
    g = g.apply(hr.Discard(c("2D")))
    # seat 0 holds 2H only (one hand card for a 2-group) and no 3D/4D/AD for a run:
    # the 2D cannot make a new meld with two hand cards
    refused(g, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)
    allowed(g, hr.DrawStock())


def test_levant_unopened_take_must_reach_51() -> None:
    """000 §Playing a turn: "(and, for your first meld, reach 51 points)"."""
    weak = "2S 2H JH QH 7S 7D 9S 10D KS 3H 6C 5C 4C 9C"
    g = deal(LEVANT, [weak, LEV_SEAT1], indicator="8C", top="9H")
    g = g.apply(hr.Discard(c("2D")))
    # 2D 2S 2H = 6: a meld, but far below 51 with nothing else to add
    refused(g, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)

    strong = "2S 2H JH QH KH 7S 7D 7H 9S 10D KS 3H 6C 5C"
    g = deal(LEVANT, [strong, LEV_SEAT1], indicator="8C", top="9H")
    g = g.apply(hr.Discard(c("2D")))
    allowed(g, hr.TakeDiscard())
    g = g.apply(hr.TakeDiscard())
    # the taken card must be laid down before the discard
    refused(g, hr.Discard(c("KS")), Code.TAKE_DISCARD_NOT_MELDED)
    # JH QH KH (30) + 7S 7D 7H (21) = 51 is an opening, but it leaves the 2D in hand
    refused(g, lay("JH QH KH", "7S 7D 7H"), Code.TAKE_DISCARD_NOT_MELDED)
    # 2D 2S 2H (6) + JH QH KH (30) = 36 < 51
    refused(g, lay("2S 2H 2D", "JH QH KH"), Code.OPENING_BELOW_THRESHOLD)
    # 6 + 30 + 21 = 57 >= 51
    opening = lay("2S 2H 2D", "JH QH KH", "7S 7D 7H")
    allowed(g, opening)
    g = g.apply(opening)
    assert g.opened[0]
    allowed(g, hr.Discard(c("KS")))


SEAT0_OPENS = "JH QH KH 7S 7D 7H 2C 3C 4C 5D 9S 10D KS 6H"


def _levant_opened_seat0(variants: Sequence[str] = (), seat0: str = SEAT0_OPENS) -> hr.Round:
    """Seat 0 opens on its first turn; seat 1 then discards the 5C; seat 0 to move."""
    ruleset = hr.build("levant", list(variants))
    seat1 = "KD 5C 6C 9C 10S QD 4H 6S JC 3S 8H 5S 10H 4D 2D"
    g = deal(ruleset, [seat0, seat1], indicator="8C", top="QC JD")
    # JH QH KH (30) + 7S 7D 7H (21) + 2C 3C 4C (9) = 60 >= 51
    g = play(
        g,
        hr.Discard(c("KD")),
        hr.DrawStock(),
        lay("JH QH KH", "7S 7D 7H", "2C 3C 4C"),
        hr.Discard(c("QC")),
        hr.DrawStock(),
        hr.Discard(c("5C")),
    )
    assert g.turn == 0 and g.opened[0]
    return g


def test_levant_opened_take_and_meld_before_discarding() -> None:
    """000 §Playing a turn: an opened player with 5D 5H may take the 5C, but must meld it first."""
    g = _levant_opened_seat0(seat0="JH QH KH 7S 7D 7H 2C 3C 4C 5D 9S 10D KS 5H")
    allowed(g, hr.TakeDiscard())
    g = g.apply(hr.TakeDiscard())
    refused(g, hr.Discard(c("KS")), Code.TAKE_DISCARD_NOT_MELDED)
    # laying the 5C off instead is not "a new meld" in the base rules
    refused(g, hr.LayOff(table_id(g, "2C 3C 4C"), c("5C")), Code.TAKE_DISCARD_NOT_MELDED)
    g = g.apply(lay("5C 5D 5H"))
    allowed(g, hr.Discard(c("KS")))


def test_levant_take_to_lay_off_only_with_discard_to_table_variant() -> None:
    """000 §Variants "Taking the discard": the taken card may also go onto a table meld."""
    base = _levant_opened_seat0()
    # seat 0 holds 5D but no second 5 and no 6C: only a lay-off on 2C 3C 4C would use the 5C
    refused(base, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)

    g = _levant_opened_seat0(["discard_to_table"])
    allowed(g, hr.TakeDiscard())
    g = g.apply(hr.TakeDiscard())
    refused(g, hr.Discard(c("KS")), Code.TAKE_DISCARD_NOT_MELDED)
    g = g.apply(hr.LayOff(table_id(g, "2C 3C 4C"), c("5C")))
    assert table_id(g, "2C 3C 4C 5C")
    allowed(g, hr.Discard(c("KS")))


# --- §2.5 taking the discard: app -------------------------------------------------

APP_SEAT1 = "2D 3C 6H 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D"


def test_app_unopened_take_needs_an_opening() -> None:
    """004 §5: an unopened player who takes the fire card must open this turn."""
    weak = "JH QH 7S 7D 9S 10D KS 3H 6C 5C 4C 9C 2S 8D"
    g = deal(CLASSIC, [weak, APP_SEAT1], top="9H")
    g = g.apply(hr.Discard(c("2D")))
    refused(g, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_OPENED)
    allowed(g, hr.DrawStock())


def test_app_take_then_open_then_no_rediscard() -> None:
    """004 §2, §5: open before discarding; the taken fire card may not be discarded again."""
    strong = "JH QH KH 7S 7D 7H 9S 10D KS 3H 6C 5C 4C 9C"
    g = deal(CLASSIC, [strong, APP_SEAT1], top="9H")
    g = g.apply(hr.Discard(c("2D")))
    allowed(g, hr.TakeDiscard())
    g = g.apply(hr.TakeDiscard())
    refused(g, hr.Discard(c("KS")), Code.TAKE_DISCARD_NOT_OPENED)
    # JH QH KH (30) + 7S 7D 7H (21) = 51; the taken 2D need not be in it (matrix P4 a)
    g = g.apply(lay("JH QH KH", "7S 7D 7H"))
    refused(g, hr.Discard(c("2D")), Code.REDISCARD_TAKEN_CARD)
    allowed(g, hr.Discard(c("KS")))


def test_app_taken_joker_exchanged_back_is_still_the_taken_card() -> None:
    """004 §2: the taken fire card "may not be discarded again in the same turn". Found by
    fuzzing: a player who held no joker takes the JK, opens with it as the K♠ and exchanges
    it straight back with the K♠ from the hand. The joker freed can only be the one taken
    (the meld was laid this turn from a hand whose only joker was the taken one), so it
    still may not be the discard."""
    seat0 = "QS AS KS 8D 8H 8S 2C 3C 6C 9C JD KD 3S 5H"
    seat1 = "JK 3C 6H 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D"
    g = deal(CLASSIC, [seat0, seat1], top="9H")
    g = g.apply(hr.Discard(hr.JOKER))
    g = g.apply(hr.TakeDiscard())
    # Q♠ JK(=K♠) A♠ (10 + 10 + 11) + 8♦ 8♥ 8♠ (24) = 55, at least 51
    g = g.apply(hr.LayDown((meld("QS JK AS", roles={1: "KS"}), meld("8D 8H 8S"))))
    g = g.apply(hr.Exchange(table_id(g, "QS JK AS"), (c("KS"),)))
    assert hr.JOKER in g.hand(0)
    refused(g, hr.Discard(hr.JOKER), Code.REDISCARD_TAKEN_CARD)
    assert hr.Discard(hr.JOKER) not in list(g.legal_actions())
    allowed(g, hr.Discard(c("2C")))


def _joker_taken_by_an_opened_player() -> hr.Round:
    """Classic: seat 0 opened in its first turn with Q♠ K♠ A♠ and three 8s, held no joker,
    and has just taken the JK that seat 1 discarded and laid it off as the J♠ on that
    run."""
    seat0 = "QS KS AS 8D 8H 8S JS 2C 4D 6H 9C 10D 3H 7H"
    seat1 = "JK 4H 5H 6H 3C 6D 9H 10S QD KD 6S JC 3S 2H 5C"
    g = deal(CLASSIC, [seat0, seat1], top="7C 10C")
    g = play(g, hr.Discard(c("5C")))  # the starter's bare first turn
    # Q♠ K♠ A♠ (10 + 10 + 11) + 8♦ 8♥ 8♠ (24) = 55, at least 51
    g = play(g, hr.DrawStock(), lay("QS KS AS", "8D 8H 8S"), hr.Discard(c("7H")))
    g = play(g, hr.DrawStock(), hr.Discard(hr.JOKER))
    g = g.apply(hr.TakeDiscard())
    run = table_id(g, "QS KS AS")
    return g.apply(hr.LayOff(run, hr.JOKER, role=c("JS")))


def test_app_taken_joker_bought_back_from_an_older_meld_is_still_the_taken_card() -> None:
    """004 §2: the taken fire card "may not be discarded again in the same turn". A player
    who opened in an earlier turn lays the taken joker off on an old meld and buys it
    straight back with the J♠ it stood for: the joker in hand is the one taken (the meld
    held no other), so it may not be the discard."""
    g = _joker_taken_by_an_opened_player()
    g = g.apply(hr.Exchange(table_id(g, "JK QS KS AS"), (c("JS"),)))
    assert g.hand(0).count(hr.JOKER) == 1
    refused(g, hr.Discard(hr.JOKER), Code.REDISCARD_TAKEN_CARD)
    allowed(g, hr.Discard(c("2C")))
    # a round document replays the moves; a position (no history) keeps where the taken
    # card went: rebuilt from either, the round judges the same
    refused(round_from_json(round_to_json(g)), hr.Discard(hr.JOKER), Code.REDISCARD_TAKEN_CARD)
    laid = _joker_taken_by_an_opened_player()
    assert laid.position().current.taken_meld == table_id(laid, "JK QS KS AS")
    again = hr.Round.from_position(position_from_json(position_to_json(laid.position())))
    again = again.apply(hr.Exchange(table_id(again, "JK QS KS AS"), (c("JS"),)))
    refused(again, hr.Discard(hr.JOKER), Code.REDISCARD_TAKEN_CARD)


def test_app_other_joker_bought_back_may_be_discarded() -> None:
    """004 §2 bars the taken card, not its face: with the taken joker lying on the
    player's run, a joker bought from another meld is another card, and may go."""
    g = _joker_taken_by_an_opened_player()
    assert g.current.taken_meld == table_id(g, "JK QS KS AS")
    assert g.check(hr.Discard(c("2C"))).ok
    # no other joker is on the table here: seat 1 holds none, so only the taken one can
    # come back, from the run it joined
    assert all(hr.JOKER not in t.meld.cards for t in g.table if t.owner == 1)


def test_app_opened_player_takes_freely() -> None:
    """004 §5: "If you are already opened, you simply continue your turn normally"."""
    seat0 = "JH QH KH 7S 7D 7H 9S 10D KS 3H 6C 5C 4C 9C"
    g = deal(CLASSIC, [seat0, APP_SEAT1], top="2H 3D")
    g = play(
        g,
        hr.Discard(c("2D")),
        hr.DrawStock(),
        lay("JH QH KH", "7S 7D 7H"),
        hr.Discard(c("2H")),
        hr.DrawStock(),
        hr.Discard(c("QD")),
    )
    # the QD fits nothing of seat 0's, and seat 0 has opened: the take is free
    allowed(g, hr.TakeDiscard())
    g = g.apply(hr.TakeDiscard())
    refused(g, hr.Discard(c("QD")), Code.REDISCARD_TAKEN_CARD)
    allowed(g, hr.Discard(c("KS")))


# --- §2.5 taking the discard: romme ---------------------------------------------------

ROMME_DEALER = "5C 2D 6H 9S 10H 3S 7D 8C QS KD 4H JC 3H 9D"


@pytest.mark.parametrize(
    ("seat1", "plain", "only_to_meld"),
    [
        # nothing fits the 5C
        ("2S 3D 7H 8D 10C JD QH KS 4S 6D 9H 8S JH", True, False),
        # 5C 5D 5H (15) + JS QS KS (30) = 45 >= 40: the take counts toward the opening
        ("5D 5H JS QS KS 2S 3D 7H 8D 10C JD 9H 8S", True, True),
        # 5C 5D 5H = 15 < 40 and nothing else: not meldable before coming out
        ("5D 5H 2S 3D 7H 8D 10C JD QH KS 4S 9H 8S", True, False),
    ],
    ids=["useless", "opens_with_it", "too_little"],
)
def test_romme_take_discard_policies(seat1: str, plain: bool, only_to_meld: bool) -> None:
    """002 §Playing a turn (free take) and §Variants "Discard pile only for melding"."""
    for ruleset, legal in (
        (ROMME, plain),
        (hr.build("romme", ["discard_only_to_meld"]), only_to_meld),
    ):
        g = deal(ruleset, [ROMME_DEALER, seat1], top="2C")
        g = g.apply(hr.Discard(c("5C")))
        if legal:
            allowed(g, hr.TakeDiscard())
        else:
            refused(g, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)


def test_romme_taken_discard_may_be_discarded_again() -> None:
    """002 (not stated; matrix §3 R5 default): re-discarding the taken card is allowed."""
    g = deal(ROMME, [ROMME_DEALER, "2S 3D 7H 8D 10C JD QH KS 4S 6D 9H 8S JH"], top="2C")
    g = play(g, hr.Discard(c("5C")), hr.TakeDiscard())
    allowed(g, hr.Discard(c("5C")))


def test_romme_discard_only_to_meld_obliges_the_meld() -> None:
    """002 §Variants: the taken discard must be melded at once; it counts toward the 40."""
    ruleset = hr.build("romme", ["discard_only_to_meld"])
    g = deal(ruleset, [ROMME_DEALER, "5D 5H JS QS KS 2S 3D 7H 8D 10C JD 9H 8S"], top="2C")
    g = play(g, hr.Discard(c("5C")), hr.TakeDiscard())
    refused(g, hr.Discard(c("2S")), Code.TAKE_DISCARD_NOT_MELDED)
    # without the 5C: JS QS KS = 30 < 40
    assert not g.check(lay("JS QS KS")).ok
    # 5C 5D 5H (15) + JS QS KS (30) = 45
    g = g.apply(lay("5C 5D 5H", "JS QS KS"))
    allowed(g, hr.Discard(c("2S")))


# --- §2.4 before / after opening in the same turn; lay-offs; §2.5 levant exchange ------


def _levant_table_with_wilds() -> hr.Round:
    """Seat 0 opens JH QH A♣(=KH) + 7S 7D 7H + 5S 5D A♣ (8♣ indicator); seat 1 to play."""
    seat0 = "JH QH AC 7S 7D 7H 5S 5D AC 2C 9S 10D 3H 6C"
    seat1 = "2D 9S 10S JS QS 4S 4D 4H KH 5H 5C 10H 6D 3D 9H"
    g = deal(LEVANT, [seat0, seat1], indicator="8C", top="KC 2H")
    # JH QH A♣=KH (30) + 7S 7D 7H (21) + 5S 5D A♣=5 (15) = 66
    return play(
        g,
        hr.Discard(c("2D")),
        hr.DrawStock(),
        lay("JH QH AC", "7S 7D 7H", "5S 5D AC"),
        hr.Discard(c("KC")),
        hr.DrawStock(),
    )


def test_levant_lay_off_and_exchange_need_opening_even_in_same_turn() -> None:
    """000 §The first meld: no adding or taking wilds before the first meld; from then on, yes."""
    g = _levant_table_with_wilds()
    run, group = table_id(g, "JH QH AC"), table_id(g, "5S 5D AC")
    assert g.turn == 1 and not g.opened[1]
    refused(g, hr.LayOff(run, c("10H")), Code.NOT_OPENED)
    refused(g, hr.Exchange(run, (c("KH"),)), Code.NOT_OPENED)
    # 9S 10S JS QS (39) + 4S 4D 4H (12) = 51
    g = g.apply(lay("9S 10S JS QS", "4S 4D 4H"))
    allowed(g, hr.LayOff(run, c("10H")))
    allowed(g, hr.Exchange(run, (c("KH"),)))
    allowed(g, hr.Exchange(group, (c("5H"), c("5C"))))


def test_levant_exchange_keeps_the_wild() -> None:
    """000 §Exchanging wild cards: put in the card for the position; keep or reuse the wild."""
    g = _levant_table_with_wilds()
    run = table_id(g, "JH QH AC")
    g = play(g, lay("9S 10S JS QS", "4S 4D 4H"), hr.Exchange(run, (c("KH"),)))
    assert table_id(g, "JH QH KH") == run
    assert c("AC") in g.hand(1)
    # the wild may stay in hand: the turn ends with any discard
    allowed(g, hr.Discard(c("6D")))
    g = g.apply(hr.Discard(c("6D")))
    assert c("AC") in g.hand(1)


def test_levant_group_exchange_needs_both_missing_cards() -> None:
    """000 §Exchanging wild cards: in a group of two + wild, put down both missing cards."""
    g = _levant_table_with_wilds()
    group = table_id(g, "5S 5D AC")
    g = g.apply(lay("9S 10S JS QS", "4S 4D 4H"))
    assert not g.check(hr.Exchange(group, (c("5H"),))).ok
    assert hr.Exchange(group, (c("5H"),)) not in g.legal_actions()
    g = g.apply(hr.Exchange(group, (c("5H"), c("5C"))))
    assert c("AC") in g.hand(1)
    laid = next(t.meld for t in g.table if t.id == group)
    assert sorted(map(str, laid.cards)) == sorted(map(str, cards("5S 5D 5H 5C")))


def test_levant_two_plus_wild_group_takes_one_card_only_when_going_out() -> None:
    """000 §Exchanging wild cards: adding one missing card to 2 + wild only when going out etc."""
    g = _levant_table_with_wilds()
    group = table_id(g, "5S 5D AC")
    g = g.apply(lay("9S 10S JS QS", "4S 4D 4H"))
    # seat 1 holds 10 cards; adding the 5H neither goes out nor leads to "one card"
    refused(g, hr.LayOff(group, c("5H")), Code.LAYOFF_TWO_PLUS_WILD)
    # the other players' melds are open to lay-offs: 10H on seat 0's J Q (K) run
    allowed(g, hr.LayOff(table_id(g, "JH QH AC"), c("10H")))


# --- §2.4 romme, app and gulf: same-turn lay-offs --------------------------------------


def test_romme_lay_off_in_the_coming_out_turn() -> None:
    """002 §The first meld: from the same turn on, lay off to any meld (here the own run)."""
    dealer = "JS QS KS 4H 4D 4C 10S 2D 6H 9C 10H 5S 7D 3C"
    g = deal(ROMME, [dealer, None])
    refused(g, hr.LayOff(1, c("10S")), Code.NOT_OPENED)
    g = g.apply(lay("JS QS KS", "4H 4D 4C"))
    allowed(g, hr.LayOff(table_id(g, "JS QS KS"), c("10S")))


def test_app_lay_off_only_after_opening() -> None:
    """004 §4: before opening no adding to melds; after opening add to any meld, even opponents'."""
    seat0 = "JH QH KH 7S 7D 7H 9S 10D KS 3H 6C 5C 4C 9C"
    seat1 = "2D 10H 6H 9D 10S QD KD 4H 6S JC 3S 8H 5S 8D 4D"
    g = deal(CLASSIC, [seat0, seat1], top="2H 2C")
    g = play(
        g,
        hr.Discard(c("2D")),
        hr.DrawStock(),
        lay("JH QH KH", "7S 7D 7H"),
        hr.Discard(c("2H")),
        hr.DrawStock(),
    )
    run = table_id(g, "JH QH KH")
    refused(g, hr.LayOff(run, c("10H")), Code.NOT_OPENED)


def test_gulf_lay_off_needs_51_and_comes_after_melds() -> None:
    """003 §First Meld Requirement, §Turn Flow: lay-offs after meeting 51, in the LAY OFF phase."""
    seat0 = "JH QH KH 7S 7D 7H 2C 3C 4C 10H 9S 6D 8D"
    g = deal(GULF, [seat0, None, None, None], discards="KC", dealer=3, top="5C")
    g = g.apply(hr.DrawStock())
    # 30 + 21 = 51 (no Ace or joker involved)
    g = g.apply(lay("JH QH KH", "7S 7D 7H"))
    run = table_id(g, "JH QH KH")
    g = g.apply(hr.LayOff(run, c("10H")))
    # MELD comes before LAY OFF "in order" (matrix §3 G6 default)
    refused(g, lay("2C 3C 4C 5C"), Code.PHASE_ORDER)


def test_gulf_has_no_wild_exchange() -> None:
    """003 (no exchange; matrix §3 G7 default): taking a joker off the table is not allowed."""
    seat0 = "JH QH JK 7S 7D 7H 2C 3C 4C 10H 9S 6D 8D"
    seat1 = "KH 2S 3D 5H 6C 8S 9C 10C JD QS 4D 6H 5S"
    g = deal(GULF, [seat0, seat1, None, None], discards="KC", dealer=3, top="2H 3H")
    # JH QH JK(=KH): 10 + 10 + 25 (joker flat 25) = 45; + 7S 7D 7H 21 = 66
    g = play(g, hr.DrawStock(), lay("JH QH JK", "7S 7D 7H"), hr.Discard(c("2H")))
    g = g.apply(hr.DrawStock())
    refused(g, hr.Exchange(table_id(g, "JH QH JK"), (c("KH"),)), Code.EXCHANGE_NOT_ALLOWED)


# --- §2.4 escalating and team openings --------------------------------------------------


def test_saudi_second_opener_needs_last_plus_one() -> None:
    """004 §The four variants, Saudi Hand: later openers need the last accepted opening + 1."""
    seat0 = "JH QH KH 7S 7D 7C 9S 10D 3H 6C 5C 2H 8D 9C"
    seat1 = "2D 10S JS QS KS 4H 4D 4C 7H 7D 7C 6H 3S 8H 5S"
    g = deal(SAUDI, [seat0, seat1], top="KC 2C")
    assert g.required_opening(0) == 51
    # JH QH KH (30) + 7S 7D 7C (21) = 51
    g = play(
        g,
        hr.Discard(c("2D")),
        hr.DrawStock(),
        lay("JH QH KH", "7S 7D 7C"),
        hr.Discard(c("KC")),
        hr.DrawStock(),
    )
    # 51 + 1 = 52
    assert g.required_opening(1) == 52
    # JS QS KS (30) + 7H 7D 7C (21) = 51 < 52
    refused(g, lay("JS QS KS", "7H 7D 7C"), Code.OPENING_BELOW_THRESHOLD)
    # 10S JS QS KS (40) + 4H 4D 4C (12) = 52
    allowed(g, lay("10S JS QS KS", "4H 4D 4C"))


def test_saudi_ace_counts_one_in_a_low_run() -> None:
    """004 §The four variants: in Saudi Hand the Ace is 1 only in a run starting A-2-3."""
    seat0 = "AS 2S 3S JD QD KD 2C 2D 2H 9C 6C 8S 10C 4H"
    for ruleset, legal in ((CLASSIC, True), (SAUDI, False)):
        g = deal(ruleset, [seat0, APP_SEAT1], top="5H")
        g = play(g, hr.Discard(c("2D")), hr.DrawStock())
        opening = lay("AS 2S 3S", "JD QD KD", "2C 2D 2H")
        # classic: 11+2+3 (16) + 30 + 6 = 52 >= 51; saudi: 1+2+3 (6) + 30 + 6 = 42 < 51
        if legal:
            allowed(g, opening)
        else:
            refused(g, opening, Code.OPENING_BELOW_THRESHOLD)


@pytest.mark.parametrize(
    ("preset", "partner_may_lay_off", "other_bar"),
    [("saudi_partnership", True, 52), ("partnership", False, 51)],
)
def test_team_opening(preset: str, partner_may_lay_off: bool, other_bar: int) -> None:
    """004 §The four variants: Saudi Partnership's opening belongs to the team (51, then +1)."""
    ruleset = hr.PRESETS[preset]
    seat2 = "JH QH KH 7S 7D 7C 9S 3D 6C 5C 2H 8D 9C 4S"
    seat0 = "10H 2S 3H 5D 6H 8C 9H JC QC 4D 6S 8S KD 10C"
    g = deal(ruleset, [seat0, None, seat2, None], top="KC 2C 3C")
    # seat 1 starts; teams (0, 2) and (1, 3)
    g = play(
        g,
        hr.Discard(g.hand(1)[0]),
        hr.DrawStock(),
        lay("JH QH KH", "7S 7D 7C"),  # 30 + 21 = 51
        hr.Discard(c("KC")),
    )
    assert g.turn == 3
    # saudi partnership: the first team's opening + 1 = 52; partnership: a personal 51
    assert g.required_opening(3) == other_bar
    g = play(g, hr.DrawStock(), hr.Discard(c("2C")), hr.DrawStock())
    assert g.turn == 0
    lay_off = hr.LayOff(table_id(g, "JH QH KH"), c("10H"))
    if partner_may_lay_off:
        allowed(g, lay_off)
        assert g.required_opening(0) is None
    else:
        refused(g, lay_off, Code.NOT_OPENED)


def test_levant_beat_last_opening_variant() -> None:
    """000 §Variants "Higher minimum": each first meld must beat the last one made."""
    ruleset = hr.build("levant", ["beat_last_opening"])
    seat0 = "JH QH KH 7S 7D 7C 9S 10D 3H 6C 5C 2H 8D 9C"
    seat1 = "2D 10S JS QS KS 4H 4D 4C 7H 7D 7C 6H 3S 8H 5S"
    g = deal(ruleset, [seat0, seat1], indicator="8H", top="KC 2C")
    g = play(
        g,
        hr.Discard(c("2D")),
        hr.DrawStock(),
        lay("JH QH KH", "7S 7D 7C"),  # 51
        hr.Discard(c("KC")),
        hr.DrawStock(),
    )
    refused(g, lay("JS QS KS", "7H 7D 7C"), Code.OPENING_BELOW_THRESHOLD)  # 51, not > 51
    allowed(g, lay("10S JS QS KS", "4H 4D 4C"))  # 52 > 51


# --- §2.5 romme exchange: the freed joker must be used at once ------------------------


def _romme_joker_on_table(seat1: str, variants: Sequence[str] = ()) -> hr.Round:
    """The dealer opens 9C 10C JK(=JC) QC + 6S 6H JK; seat 1 then opens and may exchange."""
    ruleset = hr.build("romme", list(variants))
    dealer = "9C 10C JK QC 6S 6H JK 2D 5H 8S 10D 3H KD 4C"
    g = deal(ruleset, [dealer, seat1], top="4S")
    # 9 + 10 + 10 (JK = JC) + 10 = 39; 6 + 6 + 6 = 18 -> 57 >= 40
    return play(g, lay("9C 10C JK QC", "6S 6H JK"), hr.Discard(c("KD")), hr.DrawStock())


def test_romme_freed_joker_must_go_into_a_new_meld() -> None:
    """002 §Exchanging a joker: the joker must be used straight away in a new meld."""
    seat1 = "JS QS KS 4H 4D 4C JC 7S 7H 2H 9D 5S 8D"
    g = _romme_joker_on_table(seat1)
    run = table_id(g, "9C 10C JK QC")
    refused(g, hr.Exchange(run, (c("JC"),)), Code.NOT_OPENED)
    g = g.apply(lay("JS QS KS", "4H 4D 4C"))  # 30 + 12 = 42
    g = g.apply(hr.Exchange(run, (c("JC"),)))
    refused(g, hr.Discard(c("2H")), Code.FREED_WILD_NOT_USED)
    g = g.apply(lay("7S 7H JK"))
    allowed(g, hr.Discard(c("2H")))


def test_romme_exchange_refused_when_the_joker_cannot_be_used() -> None:
    """002 §Exchanging a joker: "it may not go into your hand" - no new meld, no exchange."""
    seat1 = "JS QS KS 4H 4D 4C JC 7S 2H 10D 5C KH 8C"
    g = _romme_joker_on_table(seat1)
    g = g.apply(lay("JS QS KS", "4H 4D 4C"))
    # left after the exchange: 7S 2H 10D 5C KH 8C 4S: no two naturals make a meld with a joker
    refused(g, hr.Exchange(table_id(g, "9C 10C JK QC"), (c("JC"),)), Code.FREED_WILD_NOT_USED)


def test_romme_set_exchange_either_missing_suit_and_tournament_jokers() -> None:
    """002 §Exchanging a joker (either missing suit) and §Variants "Tournament jokers"."""
    seat1 = "JS QS KS 4H 4D 4C 6C 7S 7H 2H 9D 5S 8D"
    g = _romme_joker_on_table(seat1)
    g = g.apply(lay("JS QS KS", "4H 4D 4C"))
    group = table_id(g, "6S 6H JK")
    allowed(g, hr.Exchange(group, (c("6C"),)))

    t = _romme_joker_on_table(seat1, ["tournament_jokers"])
    t = t.apply(lay("JS QS KS", "4H 4D 4C"))
    # a joker leaves a set only once the set has four cards
    refused(t, hr.Exchange(group, (c("6C"),)), Code.EXCHANGE_SET_INCOMPLETE)


def test_romme_tournament_jokers_discard_only_to_go_out() -> None:
    """002 §Variants "Tournament jokers": a joker may be discarded only to go out."""
    dealer = "JK 2D 5H 8S 10D 3H KD 4C 9C 6S 7D QH JS 2C"
    for variants, ok in (((), True), (("tournament_jokers",), False)):
        g = deal(hr.build("romme", list(variants)), [dealer, None])
        if ok:
            allowed(g, hr.Discard(c("JK")))
        else:
            refused(g, hr.Discard(c("JK")), Code.WILD_DISCARD_FORBIDDEN)


# --- §2.5 going out -------------------------------------------------------------------

LEVANT_FULL = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH"
# 2H 3H 4H 5H (14) + 6S 7S 8S (21) + 9D 10D JD QD (39) + QH KH AH (31) = 105, 14 cards


def test_levant_no_going_out_on_the_first_turn() -> None:
    """000 §Playing a turn: nobody may go out on their first turn."""
    g = deal(LEVANT, [LEVANT_FULL, None], indicator="8C", top="KC")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock())
    every = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    refused(g, every, Code.GOING_OUT_FIRST_TURN)


def test_levant_must_keep_a_card_to_discard() -> None:
    """000 §Playing a turn: every turn ends with a discard, so keep one card."""
    g = deal(LEVANT, [LEVANT_FULL, None], indicator="8C", top="6H")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock())
    # 15 cards, all in melds: 2H-6H (5 cards) + 6S 7S 8S + 9D-QD + QH KH AH
    refused(g, lay("2H 3H 4H 5H 6H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH"), Code.MUST_KEEP_A_CARD)


def test_levant_hand_finish_doubles_everything() -> None:
    """000 §End of a round: all 14 laid in one turn, no earlier melds: a hand, scores doubled."""
    seat2 = "JC QC KC 9S 9H 9C 2S 3D 4C 6D 10C 10S 5C 9D"
    g = deal(LEVANT, [LEVANT_FULL, None, seat2], indicator="8C", top="3S KC 4D 7C 6H")
    # order of play: 1 (bare discard), 2, 0, 1, 2, 0
    g = play(
        g,
        hr.Discard(g.hand(1)[0]),
        hr.DrawStock(),
        lay("JC QC KC", "9S 9H 9C"),  # 30 + 27 = 57
        hr.Discard(c("3S")),
    )
    g = g.apply(hr.DrawStock())  # seat 0 draws KC
    every = lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH")
    refused(g, every, Code.GOING_OUT_FIRST_TURN)
    g = play(g, hr.Discard(c("KC")))
    g = draw_discard(g)  # seat 1: 4D
    g = draw_discard(g)  # seat 2: 7C
    assert g.turn == 0
    g = g.apply(hr.DrawStock())  # 6H
    refused(g, lay("2H 3H 4H 5H 6H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH"), Code.MUST_KEEP_A_CARD)
    g = play(g, every, hr.Discard(c("6H")))
    assert g.outcome is not None
    assert g.outcome.ending is hr.Ending.HAND
    assert g.outcome.winner == 0
    # seat 0: -30 x 2 = -60; seat 1 never melded: 100 x 2 = 200;
    # seat 2 holds 2S 3D 4C 6D 10C 10S 5C 9D = 2+3+4+6+10+10+5+9 = 49 -> 98
    assert g.outcome.score.scores == (-60, 200, 98)
    assert g.outcome.score.scored


def test_levant_going_out_below_51_in_one_turn() -> None:
    """000 §The first meld, Exception: all cards in one turn may go below 51 (here a hand)."""
    low = "2H 3H 4H 5H 2S 3S 4S 2D 3D 4D 2C 3C 4C 9H"
    g = deal(LEVANT, [low, None], indicator="8C", top="KC 6S 5C")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock(), hr.Discard(c("KC")))
    g = draw_discard(g)
    g = g.apply(hr.DrawStock())  # 5C
    # finishing: 14 + 9 + 9 + 2C-5C (14) = 46 < 51, 14 cards laid, 9H left to discard
    every = lay("2H 3H 4H 5H", "2S 3S 4S", "2D 3D 4D", "2C 3C 4C 5C")
    allowed(g, every)
    finished = play(g, every, hr.Discard(c("9H")))
    assert finished.outcome is not None and finished.outcome.ending is hr.Ending.HAND
    # -30 x 2 = -60; seat 1 never melded: 100 x 2 = 200
    assert finished.outcome.score.scores == (-60, 200)
    # L11: 2H-5H (14) + 2S 3S 4S (9) + 2D 3D 4D (9) = 32 < 51 may open too, since 2C-5C
    # and the 9H discard can still finish the turn; it then must finish
    part = lay("2H 3H 4H 5H", "2S 3S 4S", "2D 3D 4D")
    allowed(g, part)
    g = g.apply(part)
    assert g.current.obligation is hr.Obligation.GO_OUT
    refused(g, hr.Discard(c("9H")), Code.OPENING_BELOW_THRESHOLD)
    g = play(g, lay("2C 3C 4C 5C"), hr.Discard(c("9H")))
    assert g.outcome is not None and g.outcome.ending is hr.Ending.HAND
    assert g.outcome.score.scores == (-60, 200)
    # the last card may also go onto one of the player's own new melds: still a Hand
    before = list(finished.history)[:-2]  # up to the lay-down and the discard
    g = play(finished.restart(), *before, part, lay("2C 3C 4C"))
    meld = g.table[-1].id
    g = play(g, hr.LayOff(meld, c("5C")), hr.Discard(c("9H")))
    assert g.outcome is not None and g.outcome.ending is hr.Ending.HAND


def test_levant_below_51_refused_when_the_turn_cannot_finish() -> None:
    """000 §The first meld, Exception: a below-bar opening must leave a way to go out."""
    low = "2H 3H 4H 5H 2S 3S 4S 2D 3D 4D 2C 3C KD 9H"
    g = deal(LEVANT, [low, None], indicator="8C", top="KC 6S 5C")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock(), hr.Discard(c("KC")))
    g = draw_discard(g)
    g = g.apply(hr.DrawStock())  # 5C
    # 32 < 51, and 2C 3C 5C KD 9H can neither be melded nor laid off: no finish
    refused(g, lay("2H 3H 4H 5H", "2S 3S 4S", "2D 3D 4D"), Code.OPENING_BELOW_THRESHOLD)


def below_bar_refusal(
    ruleset: hr.Ruleset, seat: hr.PositionSeat, others: int = 1, **spot: object
) -> hr.Violation:
    """The one violation of opening 2♠ 3♠ 4♠ (9 points) from ``seat``'s hand, the next
    player (of ``others``, 9 cards each) having laid 10♥ J♥ Q♥."""
    g = hr.Round.from_position(
        hr.Position(
            ruleset,
            players=[seat, *[9] * others],
            table=[hr.PositionMeld(1, 1, "10H JH QH")],
            turn=0,
            phase=hr.Phase.PLAY,
            discards="2D",
            **spot,  # type: ignore[arg-type]
        )
    )
    action = lay("2S 3S 4S")
    refused(g, action, Code.OPENING_BELOW_THRESHOLD)
    (violation,) = g.check(action).violations
    return violation


@pytest.mark.parametrize(
    ("seat", "why", "rule"),
    [
        # the 9♥ would go onto 10♥ J♥ Q♥ and the 5♦ be the discard, but not on a first turn
        (
            hr.PositionSeat("2S 3S 4S 9H 5D", turns_played=0),
            "nobody may go out on their first turn",
            "levant.out.not-first-turn",
        ),
        # (nor after a forgotten announcement: but a hand that forgot one holds four cards
        # at most, so its opening leaves one card and is refused as going out at once, with
        # GOING_OUT_AFTER_MISSED_ANNOUNCEMENT, in test_opening_draw_shape_cases.py)
        # the 9♣ has nowhere to go
        (
            hr.PositionSeat("2S 3S 4S 9C 5D", turns_played=2),
            "the cards it leaves cannot all go out this turn",
            None,
        ),
    ],
)
def test_levant_below_51_refusal_says_why_the_exception_does_not_apply(
    seat: hr.PositionSeat, why: str, rule: str | None
) -> None:
    """000 §The first meld, Exception, and §Playing a turn: a below-bar opening stands only
    in a turn that goes out, and the refusal names what stands in the way: the ban on going
    out in a first turn or after a forgotten announcement, or the cards left."""
    violation = below_bar_refusal(LEVANT, seat, indicator="8C", openings=[(1, 51)])
    assert violation.message.startswith("the opening is worth 9 points; it needs 51. ")
    assert "Only a player who goes out this turn may open below the bar" in violation.message
    assert why in violation.message
    assert "levant.opening.exempt-going-out" in violation.rule_ids
    assert rule is None or rule in violation.rule_ids


def test_levant_below_51_after_the_first_turn_goes_out_by_a_lay_off() -> None:
    """000 §The first meld, Exception: the hand of the first case above, a turn later,
    opens with 2♠ 3♠ 4♠, lays the 9♥ off on 10♥ J♥ Q♥ and goes out with the 5♦."""
    spot = hr.Position(
        LEVANT,
        indicator="8C",
        players=[hr.PositionSeat("2S 3S 4S 9H 5D", turns_played=2), 9],
        table=[hr.PositionMeld(1, 1, "10H JH QH")],
        turn=0,
        phase=hr.Phase.PLAY,
        discards="2D",
        openings=[(1, 51)],
    )
    g = hr.Round.from_position(spot)
    g = play(g, lay("2S 3S 4S"), hr.LayOff(1, c("9H")), hr.Discard(c("5D")))
    assert g.outcome is not None and g.outcome.winner == 0


def test_romme_below_40_refusal_says_no_hand_is_left() -> None:
    """002 §Scoring "Hand Rommé": only a Hand may open below 40, and a Hand needs that nobody
    has melded before; the other player's 10♥ J♥ Q♥ on the table rules it out."""
    violation = below_bar_refusal(ROMME, hr.PositionSeat("2S 3S 4S 9D 5C"), openings=[(1, 40)])
    assert violation.message == (
        "the opening is worth 9 points; it needs 40. Only a player who makes a Hand may open "
        "below the bar, and this turn can no longer be a Hand"
    )


def test_gulf_below_51_refusal_is_the_bar_alone() -> None:
    """003 (matrix L11, G8): no opening below 51 at all, so the refusal names only the bar."""
    seat = hr.PositionSeat("2S 3S 4S 9H 5D")
    violation = below_bar_refusal(GULF, seat, others=3, openings=[(1, 51)])
    assert violation.message == "the opening is worth 9 points; it needs 51"


def test_levant_announcement_and_missed_announcement() -> None:
    """000 §Playing a turn "Announce": forgetting it bars going out on the next turn."""
    seat0 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD KC 3S 4S"
    # 2H-5H (14) + 6S 7S 8S (21) + 9D 10D JD QD (39) = 74
    for announce in (False, True):
        g = deal(LEVANT, [seat0, None], indicator="8C", top="5S 7C 9C")
        g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock())
        g = g.apply(lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD"))
        # 4 cards left (KC 3S 4S 5S): discarding leaves 3
        g = g.apply(hr.Discard(c("KC"), announce=announce))
        assert g.announced[0] == (3 if announce else 0)
        assert g.missed[0] is (not announce)
        g = draw_discard(g)  # seat 1
        g = g.apply(hr.DrawStock())  # 9C
        going_out = lay("3S 4S 5S")
        if announce:
            g = play(g, going_out, hr.Discard(c("9C")))
            assert g.outcome is not None and g.outcome.ending is hr.Ending.WENT_OUT
            # winner -30; seat 1 never melded: flat 100
            assert g.outcome.score.scores == (-30, 100)
        else:
            refused(g, going_out, Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT)


def test_levant_announce_only_with_three_or_fewer() -> None:
    """000 §Playing a turn: announce when three cards or fewer are left after discarding."""
    g = deal(LEVANT, [LEVANT_FULL, None], indicator="8C", top="KC")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock())
    refused(g, hr.Discard(c("KC"), announce=True), Code.ANNOUNCEMENT_NOT_DUE)
    g = g.apply(lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD"))
    # 15 - 11 = 4 cards; after the discard 3
    allowed(g, hr.Discard(c("KC"), announce=True))


def test_an_announcement_the_rules_do_not_have_says_so() -> None:
    """004 states no announcements (matrix, "Going out"; P11), and the app presets play
    without them: an announcing discard is refused, and the message names the missing
    rule rather than the card count."""
    g = deal(CLASSIC, ["2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH", APP_SEAT1], top="KC")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock())
    verdict = g.check(hr.Discard(c("KC"), announce=True))
    assert verdict.codes == (Code.ANNOUNCEMENT_NOT_DUE,)
    assert "these rules have no announcements" in str(verdict)
    # under 000 the count is the reason: 15 cards less the discard leave 14, over three
    g = deal(LEVANT, [LEVANT_FULL, None], indicator="8C", top="KC")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock())
    assert "with 14 cards left: only with 3 or fewer" in str(
        g.check(hr.Discard(c("KC"), announce=True))
    )


def test_app_going_out_by_melding_the_last_card() -> None:
    """004 §2: the turn ends with a discard "unless ... you got rid of all your cards"."""
    seat0 = "JH QH KH 7S 7D 7H 3C 4C 5C 9S 9D 9H 2C 6C"
    g = deal(CLASSIC, [seat0, APP_SEAT1], top="KS 8D 10H")
    # JH QH KH (30) + 7S 7D 7H (21) + 3C 4C 5C (12) + 9S 9D 9H (27) = 90
    g = play(
        g,
        hr.Discard(c("2D")),
        hr.DrawStock(),
        lay("JH QH KH", "7S 7D 7H", "3C 4C 5C", "9S 9D 9H"),
        hr.Discard(c("KS")),
    )
    g = draw_discard(g)
    g = g.apply(hr.DrawStock())  # 10H
    clubs, hearts = table_id(g, "3C 4C 5C"), table_id(g, "JH QH KH")
    g = play(g, hr.LayOff(clubs, c("2C")), hr.LayOff(clubs, c("6C")))
    g = g.apply(hr.LayOff(hearts, c("10H")))
    assert g.is_over and g.outcome is not None
    assert g.outcome.ending is hr.Ending.WENT_OUT and g.outcome.winner == 0
    # went out -30; seat 1 never opened +100
    assert g.outcome.score.scores == (-30, 100)


def test_app_hand_finish_without_discard() -> None:
    """004 §The "Hand" finish: all cards laid in one turn, nothing played before: -60, x2, +200."""
    seat0 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH"
    g = deal(CLASSIC, [seat0, APP_SEAT1], top="6H")
    g = play(g, hr.Discard(c("2D")), hr.DrawStock())
    # 15 cards: 2H-6H (20) + 6S 7S 8S (21) + 9D-QD (39) + QH KH AH (31) = 111 >= 51
    g = g.apply(lay("2H 3H 4H 5H 6H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH"))
    assert g.is_over and g.outcome is not None
    assert g.outcome.ending is hr.Ending.HAND
    # finisher -60; seat 1 never opened: +200
    assert g.outcome.score.scores == (-60, 200)


def test_romme_hand_romme_below_40_on_the_dealers_turn() -> None:
    """002 §Scoring "Hand Rommé": all cards in one turn, nobody melded before: 40 waived, x2."""
    dealer = "AH 2H 3H 2S 3S 4S AD 2D 3D 4D AC 2C 3C 4C"
    seat1 = "5S 6D 7H 8C 9S 10D JH QC KS 5H 6C 7S 8D"
    g = deal(ROMME, [dealer, seat1])
    # 1+2+3 (6) + 2+3+4 (9) + 1+2+3+4 (10) + 10 = 35 < 40: allowed as a Hand Rommé
    g = g.apply(lay("AH 2H 3H", "2S 3S 4S", "AD 2D 3D 4D", "AC 2C 3C 4C"))
    assert g.is_over and g.outcome is not None
    assert g.outcome.ending is hr.Ending.HAND
    # winner 0; seat 1: 5+6+7+8+9+10+10+10+10+5+6+7+8 = 101 -> doubled 202
    assert g.outcome.score.scores == (0, 202)


def test_gulf_hand_melds_all_cards() -> None:
    """003 §Hand Bonus: melding ALL cards in one turn (never melded before) doubles the others."""
    seat0 = "JH QH KH 7S 7D 7H 2C 3C 4C 5C 9S 9D 9C"
    seat1 = "2S 3D 5H 6C 8S 10C JD QS 4D 6H 5S KD AH"
    seat2 = "2D 3S 4H 6S 8C 10S JC QD KH 5D 7C 9H 3H"
    seat3 = "2H 4S 6D 8H 10D JS QC KC 3D 5S 7D 9D JK"
    g = deal(GULF, [seat0, seat1, seat2, seat3], discards="10H", dealer=3)
    g = g.apply(hr.TakeDiscard())
    # 10H JH QH KH (40) + 7S 7D 7H (21) + 2C-5C (14) + 9S 9D 9C (27) = 102 >= 51, all 14 cards
    g = g.apply(lay("10H JH QH KH", "7S 7D 7H", "2C 3C 4C 5C", "9S 9D 9C"))
    assert g.is_over and g.outcome is not None
    assert g.outcome.ending is hr.Ending.HAND
    # 003 values (matrix G1): Ace 15, joker 25, 10-K 10, others face; doubled, winner 0
    # seat 1: 2+3+5+6+8+10+10+10+4+6+5+10+15 = 94 -> 188
    # seat 2: 2+3+4+6+8+10+10+10+10+5+7+9+3 = 87 -> 174
    # seat 3: 2+4+6+8+10+10+10+10+3+5+7+9+25 = 109 -> 218
    assert g.outcome.score.scores == (0, 188, 174, 218)


# --- §2.6 stock exhaustion ------------------------------------------------------------


def test_levant_stock_at_player_count_ends_unscored() -> None:
    """000 §End of a round: after a turn the stock holds as many cards as players: no score."""
    g = hr.Round.deal(LEVANT, players=4, seed=21)
    while g.phase is hr.Phase.REDEAL:
        g = g.apply(hr.PassRedeal())
    g = g.apply(hr.Discard(g.hand(g.turn)[0]))
    assert len(g.stock) == 48
    # each dull turn takes one card; 48 - 43 = 5 > 4 players: the round goes on
    for _ in range(43):
        g = draw_discard(g)
    assert not g.is_over and len(g.stock) == 5
    g = draw_discard(g)  # 4 cards left = 4 players
    assert g.is_over and g.outcome is not None
    assert g.outcome.ending is hr.Ending.STOCK
    assert g.outcome.score.scored is False


def test_romme_empty_stock_scores_every_hand() -> None:
    """002 §Going out: the stock runs out before anyone goes out: everyone scores their hand."""
    dealer = "2C 3D 4H 5S 6C 7D 8H 9S 10C JD QH KS AC JK"
    seat1 = "2D 3H 4S 5C 6D 7H 8S 9C 10D JH QS KC JK"
    g = deal(ROMME, [dealer, seat1])
    g = g.apply(hr.Discard(c("JK")))
    # 108 - 27 = 81 cards in the stock
    assert len(g.stock) == 81
    for _ in range(80):
        g = draw_discard(g)
    assert not g.is_over and len(g.stock) == 1
    g = draw_discard(g)
    assert g.is_over and g.outcome is not None
    assert g.outcome.ending is hr.Ending.STOCK
    # dealer: 2+3+4+5+6+7+8+9+10+10+10+10+11 = 95; seat 1: 2+...+9 (44) + 10*4 + 20 = 104
    assert g.outcome.score.scores == (95, 104)
    assert g.outcome.score.scored


def test_romme_fresh_stock_reshuffles_the_discard_pile() -> None:
    """002 §Variants "Fresh stock": shuffle the discard pile except its top as a new stock."""
    ruleset = hr.build("romme", ["fresh_stock"])
    g = deal(ruleset, [None, None])
    g = g.apply(hr.Discard(g.hand(0)[0]))
    for _ in range(81):
        g = draw_discard(g)
    assert not g.is_over
    # the pile had 1 + 81 = 82 cards; 81 go back as the stock, the top stays
    assert len(g.stock) == 81
    assert len(g.discards) == 1


def test_app_reshuffles_three_times_then_no_contest() -> None:
    """004 §Quick questions: older fire cards reshuffled up to 3 times, then a no-contest, all 0."""
    g = deal(CLASSIC, [None, None])
    g = g.apply(hr.Discard(g.hand(1)[0]))
    # 106 - 29 = 77 in the draw pile
    assert len(g.stock) == 77
    for renewal in (1, 2, 3):
        for _ in range(77):
            g = draw_discard(g)
        assert not g.is_over
        top = g.history[-1]
        assert isinstance(top, hr.Discard)
        # the pile held 1 + 77 = 78 cards; 77 reshuffled, the top fire card stays
        assert len(g.stock) == 77, renewal
        assert g.discards == (top.card,)
    for _ in range(77):
        g = draw_discard(g)
    assert g.is_over and g.outcome is not None
    assert g.outcome.ending is hr.Ending.STOCK
    assert g.outcome.score.scores == (0, 0)
    assert g.outcome.score.scored is False


def test_deal_refuses_a_dealer_seat_that_does_not_exist() -> None:
    """002 §Setup 2: the dealer is one of the players; seat 2 does not exist with 2 players."""
    with pytest.raises(hr.InvalidStateError):
        hr.Round.deal(ROMME, players=2, seed=5, dealer=2)


def test_romme_hand_romme_with_a_final_discard_is_exempt_from_40() -> None:
    """002 §Scoring "Hand Rommé": no 40 minimum (matrix R6: a final discard is allowed)."""
    dealer = "AH 2H 3H 2S 3S 4S AD 2D 3D 4D AC 2C 3C KS"
    seat1 = "5S 6D 7H 8C 9S 10D JH QC KS 5H 6C 7S 8D"
    g = deal(ROMME, [dealer, seat1])
    # 1+2+3 (6) + 2+3+4 (9) + 1+2+3+4 (10) + 1+2+3 (6) = 31 < 40, 13 cards, KS discarded
    every = lay("AH 2H 3H", "2S 3S 4S", "AD 2D 3D 4D", "AC 2C 3C")
    allowed(g, every)
    g = play(g, every, hr.Discard(c("KS")))
    assert g.outcome is not None and g.outcome.ending is hr.Ending.HAND
    # seat 1: 5+6+7+8+9+10+10+10+10+5+6+7+8 = 101 -> 202
    assert g.outcome.score.scores == (0, 202)


def test_romme_hand_romme_with_a_final_discard_scores_double() -> None:
    """002 §Scoring (matrix R6 default): a one-turn finish with a final discard is a Hand Rommé."""
    dealer = "JH QH KH 2S 3S 4S AD 2D 3D 4D AC 2C 3C KS"
    seat1 = "5S 6D 7H 8C 9S 10D JH QC KS 5H 6C 7S 8D"
    g = deal(ROMME, [dealer, seat1])
    # 30 + 9 + 10 + 6 = 55 >= 40
    g = play(g, lay("JH QH KH", "2S 3S 4S", "AD 2D 3D 4D", "AC 2C 3C"), hr.Discard(c("KS")))
    assert g.outcome is not None and g.outcome.ending is hr.Ending.HAND
    assert g.outcome.score.scores == (0, 202)


def test_levant_two_natural_jokers_are_a_pair_for_redeal() -> None:
    """000 §Setup 4 with §Wild cards: under the 8♣ the jokers are identical natural A♣ (L6 b)."""
    hand = "2S 2S 5H 5H 9D 9D JK JK 3H 6D 7S 10C JH 4D"
    g = deal(LEVANT, [hand, None], indicator="8C", asked=True).apply(hr.PassRedeal())
    assert g.phase is hr.Phase.REDEAL and g.turn == 0
    assert hr.ClaimRedeal() in g.legal_actions()


@pytest.mark.parametrize(
    ("hand", "default", "switched"),
    [
        # two pairs and the two wild A♣ (8♣ turned): two pairs and two wild cards by default;
        # under the switch the A♣ pair is a third pair and no wild card is left
        ("2S 2S 5H 5H AC AC 3H 6D 7S 10C JH 4D KC 9D", True, False),
        # three pairs and the two wild A♣: three pairs and a wild, or four pairs
        ("2S 2S 5H 5H 9D 9D AC AC 3H 6D 7S 10C JH 4D", True, True),
        # one pair and the two wild A♣: one pair and two wilds, or two pairs alone
        ("2S 2S AC AC 5H 3H 6D 7S 10C JH 4D KC 9D QS", False, False),
    ],
    ids=["two_pairs_two_wild_aces", "three_pairs_two_wild_aces", "one_pair_two_wild_aces"],
)
def test_levant_redeal_wild_pairs_switch(hand: str, default: bool, switched: bool) -> None:
    """000 §Setup 4 (four pairs, three pairs and a wild card, or two pairs and two wild
    cards) and matrix L6 b: two identical wild Aces are the two wild cards by default, and
    a pair under ``redeal_wild_pairs``. Without jokers in play, so the A♣ are the only
    wild cards."""
    for variants, claim in (((), default), (("redeal_wild_pairs",), switched)):
        ruleset = hr.build("levant", ("no_jokers", *variants))
        g = deal(ruleset, [hand, None], indicator="8C", asked=True).apply(hr.PassRedeal())
        assert g.phase is hr.Phase.REDEAL and g.turn == 0
        if claim:
            allowed(g, hr.ClaimRedeal())
        else:
            refused(g, hr.ClaimRedeal(), Code.REDEAL_NOT_ALLOWED)


def test_levant_two_plus_wild_one_card_when_announcing_one_card() -> None:
    """000 §Exchanging wild cards: one missing card on 2 + wild if you will announce "one
    card" after this turn (matrix L10: one card left after the discard), a condition on the
    whole turn: the lay-off may come before the melds that bring the hand down to it."""
    seat0 = "5S 5D AC JH QH KH 7S 7D 7H 9C 10C JC 5H 2D"
    g = deal(LEVANT, [seat0, None], indicator="8C", top="KS 9H 6D")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock())
    # 5S 5D A♣ (15) + JH QH KH (30) + 7S 7D 7H (21) = 66
    g = g.apply(lay("5S 5D AC", "JH QH KH", "7S 7D 7H"))
    group = table_id(g, "5S 5D AC")
    # 15 - 9 = 6 cards: after the 5H, 9C 10C JC can still go down and the discard leave one
    allowed(g, hr.LayOff(group, c("5H")))
    promised = g.apply(hr.LayOff(group, c("5H")))
    assert promised.current.obligation is hr.Obligation.ONE_CARD
    # discarding now would leave four cards, breaking the condition the lay-off was made on
    refused(promised, hr.Discard(c("KS"), announce=True), Code.LAYOFF_TWO_PLUS_WILD)
    g = play(promised, lay("9C 10C JC"), hr.Discard(c("KS"), announce=True))
    assert g.announced[0] == 1
    assert g.hand(0) == (c("2D"),)


def test_levant_lay_off_on_others_is_not_a_hand() -> None:
    """000 §End of a round: a hand is "without adding any to other players' melds"."""
    seat0 = "2H 3H 4H 5H 6S 7S 8S 9S 9D 10D JD QD KD 10C"
    seat2 = "JC QC KC 9S 9H 9C 2S 3D 4C 6D 10S 5C 9D 8H"
    g = deal(LEVANT, [seat0, None, seat2], indicator="8C", top="3S KC 4D 7C 6H")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock(), lay("JC QC KC", "9S 9H 9C"))
    g = g.apply(hr.Discard(c("3S")))
    g = play(g, hr.DrawStock(), hr.Discard(c("KC")))
    g = draw_discard(g)
    g = draw_discard(g)
    g = g.apply(hr.DrawStock())  # 6H
    # 2H-5H (14) + 6S-9S (30) + 9D-KD (49) = 93; then 10C onto seat 2's J Q K of clubs
    g = g.apply(lay("2H 3H 4H 5H", "6S 7S 8S 9S", "9D 10D JD QD KD"))
    g = play(g, hr.LayOff(table_id(g, "JC QC KC"), c("10C")), hr.Discard(c("6H")))
    assert g.outcome is not None
    assert g.outcome.ending is hr.Ending.WENT_OUT
    # not doubled: -30; seat 1 never melded 100; seat 2: 2+3+4+6+10+5+9+8 = 47
    assert g.outcome.score.scores == (-30, 100, 47)


def test_levant_missed_announcement_bars_only_the_next_turn() -> None:
    """000 §Playing a turn "Announce": "you may not go out on your next turn" - only that one."""
    seat0 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD KC 3S 4S"
    g = deal(LEVANT, [seat0, None], indicator="8C", top="5S 7C 9C 8D 10H")
    g = play(g, hr.Discard(g.hand(1)[0]), hr.DrawStock())
    g = play(g, lay("2H 3H 4H 5H", "6S 7S 8S", "9D 10D JD QD"), hr.Discard(c("KC")))
    g = draw_discard(g)
    g = g.apply(hr.DrawStock())  # 9C
    refused(g, lay("3S 4S 5S"), Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT)
    g = g.apply(hr.Discard(c("9C"), announce=True))
    g = draw_discard(g)
    g = g.apply(hr.DrawStock())  # 10H
    allowed(g, lay("3S 4S 5S"))


def test_app_starter_hand_after_the_bare_discard() -> None:
    """004 §The "Hand" finish (matrix P6 b): the starter's first discard is not "playing"."""
    seat1 = "2H 3H 4H 5H 6S 7S 8S 9D 10D JD QD QH KH AH KC"
    seat0 = "2D 3C 6H 9C 10S QS KD 4H 6D JC 3S 8H 5S 10H"
    g = deal(CLASSIC, [seat0, seat1], top="2S 6H")
    g = play(g, hr.Discard(c("KC")))
    g = draw_discard(g)
    g = g.apply(hr.DrawStock())
    # 2H-6H (20) + 6S 7S 8S (21) + 9D-QD (39) + QH KH AH (31) = 111, all 15 cards
    g = g.apply(lay("2H 3H 4H 5H 6H", "6S 7S 8S", "9D 10D JD QD", "QH KH AH"))
    assert g.outcome is not None and g.outcome.ending is hr.Ending.HAND
    assert g.outcome.score.scores == (200, -60)


def test_app_exchange_after_opening_keeps_the_joker() -> None:
    """004 §The Joker: after opening, take a Joker out by putting the correct natural card in."""
    seat0 = "JH QH JK 7S 7D 7H 9S 10D KS 3C 4C 6H 2S 8D"
    seat1 = "2D KH 10S JS QS KS 4H 4D 4S 6S 3S 8H 5C 9D 6C"
    g = deal(CLASSIC, [seat0, seat1], top="5D 2H")
    # JH QH JK(=KH) (30) + 7S 7D 7H (21) = 51
    g = play(g, hr.Discard(c("2D")), hr.DrawStock(), lay("JH QH JK", "7S 7D 7H"))
    g = play(g, hr.Discard(c("5D")), hr.DrawStock())
    run = table_id(g, "JH QH JK")
    refused(g, hr.Exchange(run, (c("KH"),)), Code.NOT_OPENED)
    # 10S JS QS KS (40) + 4H 4D 4S (12) = 52
    g = g.apply(lay("10S JS QS KS", "4H 4D 4S"))
    g = g.apply(hr.Exchange(run, (c("KH"),)))
    assert table_id(g, "JH QH KH") == run
    assert c("JK") in g.hand(1)
    # the freed Joker may stay in hand (matrix P5 default)
    allowed(g, hr.Discard(c("3S")))


def test_app_hand_still_needs_51() -> None:
    """004 §4 / §The "Hand" finish (matrix P6 c default): no exemption from the 51 for a Hand."""
    seat0 = "2H 3H 4H 2H 3H 4H 2S 3S 4S 2S 3S 4S 2D 3D"
    seat1 = "KD 3C 6H 9C 10S QD 5D 4C 6S JC 7S 8H 5S 10H 9D"
    g = deal(CLASSIC, [seat0, seat1], top="4D")
    g = play(g, hr.Discard(c("KD")), hr.DrawStock())
    # all 15 cards: 9 + 9 + 9 + 9 + 9 = 45 < 51
    refused(
        g,
        lay("2H 3H 4H", "2H 3H 4H", "2S 3S 4S", "2S 3S 4S", "2D 3D 4D"),
        Code.OPENING_BELOW_THRESHOLD,
    )


@pytest.mark.parametrize(("run", "legal"), [("10S", True), ("9S", False)])
def test_saudi_take_obliges_the_escalated_opening(run: str, legal: bool) -> None:
    """004 §5 with Saudi Hand (matrix P4 c): the fire-card obligation is the current bar."""
    seat0 = "JH QH KH 7S 7D 7C 9S 10D 3H 6C 5C 2H 8D 4C"
    seat1 = f"2D {run} JS QS KS 4H 4D 9H 6H 3S 8H 5S QD 2S 6D"
    g = deal(SAUDI, [seat0, seat1], top="KC 2C")
    # seat 0 opens with JH QH KH (30) + 7S 7D 7C (21) = 51 and discards the 4C
    g = play(
        g, hr.Discard(c("2D")), hr.DrawStock(), lay("JH QH KH", "7S 7D 7C"), hr.Discard(c("4C"))
    )
    assert g.required_opening(1) == 52
    # with 10S: 10S JS QS KS (40) + 4H 4D 4C (12) = 52; with 9S: JS QS KS (30) + 12 = 42
    if legal:
        allowed(g, hr.TakeDiscard())
    else:
        refused(g, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_OPENED)


def test_levant_stock_two_players_ends_at_two_cards() -> None:
    """000 §End of a round: two players, the round ends once the stock holds 2 after a turn."""
    g = deal(LEVANT, [None, None], indicator="8C")
    g = g.apply(hr.Discard(g.hand(1)[0]))
    # 106 - 29 - 1 = 76; 76 - 73 = 3 > 2
    assert len(g.stock) == 76
    for _ in range(73):
        g = draw_discard(g)
    assert not g.is_over
    g = draw_discard(g)
    assert g.is_over and g.outcome is not None
    assert g.outcome.ending is hr.Ending.STOCK and not g.outcome.score.scored


def test_gulf_going_out_by_discarding_the_last_card() -> None:
    """003 §Scoring "empties their hand" (matrix G4 default: a last discard also goes out)."""
    seat0 = "JH QH KH 7S 7D 7H 2C 3C 4C 9S 9D 9H 8D"
    seat1 = "2S 3D 5H 6C 8S 10C JD QS 4D 6H 5S KD AH"
    seat2 = "2D 3S 4H 6S 8C 10S JC QD KH 5D 7C 9H 3H"
    seat3 = "2H 4S 6D 8H 10D JS QC KC 3D 5S 7D 9C JK"
    g = deal(GULF, [seat0, seat1, seat2, seat3], discards="10H", dealer=3)
    g = g.apply(hr.TakeDiscard())
    # 10H JH QH KH (40) + 7S 7D 7H (21) + 2C 3C 4C (9) + 9S 9D 9H (27) = 97; 8D left
    g = play(g, lay("10H JH QH KH", "7S 7D 7H", "2C 3C 4C", "9S 9D 9H"), hr.Discard(c("8D")))
    assert g.outcome is not None
    # a final discard: not "melds ALL their cards" (matrix G4), so no doubling
    assert g.outcome.ending is hr.Ending.WENT_OUT and g.outcome.winner == 0
    # 003 values (matrix G1): 94, 87, 109 as in test_gulf_hand_melds_all_cards
    assert g.outcome.score.scores == (0, 94, 87, 109)


# --- §2.2 wild taken from the discard pile; §2.3 all-or-nothing openings ---------------

DEMOTION_SEAT1 = "AC 3C 6H 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D"


def test_levant_taken_wild_ace_needs_a_natural_use() -> None:
    """000 §Exchanging wild cards "Discarded wild cards": a taken wild Ace is only a natural Ace."""
    # 7H 9H would need the A♣ as the 8H - not allowed for a discarded wild; no natural use
    seat0 = "7H 9H 7S 7D 7C JH QH KH 9S 10D 2H 5C 6D 2S"
    g = deal(LEVANT, [seat0, DEMOTION_SEAT1], indicator="8C")
    g = g.apply(hr.Discard(c("AC")))
    refused(g, hr.TakeDiscard(), Code.TAKE_DISCARD_NOT_MELDED)

    # with QC KC the A♣ makes a natural run Q K A: 10 + 10 + 11 = 31; + 7s 21 + JH QH KH 30
    seat0 = "7H 9H 7S 7D 7C JH QH KH 9S QC KC 2H 5C 6D"
    g = deal(LEVANT, [seat0, DEMOTION_SEAT1], indicator="8C")
    g = play(g, hr.Discard(c("AC")), hr.TakeDiscard())
    natural = hr.LayDown((meld("QC KC AC", demoted=[2]), meld("7S 7D 7C"), meld("JH QH KH")))
    allowed(g, natural)


def test_levant_taken_wild_ace_cannot_stand_in_for_another_card() -> None:
    """000 §Exchanging wild cards: the discarded A♣ "counts only as a natural Ace of its suit"."""
    seat0 = "7H 9H 7S 7D 7C JH QH KH 9S QC KC 2H 5C 6D"
    g = deal(LEVANT, [seat0, DEMOTION_SEAT1], indicator="8C")
    g = play(g, hr.Discard(c("AC")), hr.TakeDiscard())
    # the only A♣ in hand is the demoted one: 7H A♣(=8H) 9H must be refused
    assert not g.check(lay("7H AC 9H", "7S 7D 7C", "JH QH KH")).ok


def test_levant_taken_wild_ace_is_the_one_that_must_be_melded() -> None:
    """000 §Playing a turn and "Discarded wild cards": the taken A♣ itself goes down at once.

    Seat 0 also holds an ordinary (wild) A♣. A lay-down that uses that one as the
    8♥ leaves the taken, demoted copy in the hand, so it does not meld the taken card.
    """
    seat0 = "7H 9H 7S 7D 7C JH QH KH AC QC KC 2H 5C 6D"
    g = deal(LEVANT, [seat0, DEMOTION_SEAT1], indicator="8C")
    g = play(g, hr.Discard(c("AC")), hr.TakeDiscard())
    assert g.demoted[0] == (c("AC"),)
    # 7 + 8 + 9 (24) + 21 + 30 = 75, but the A♣ in it is the wild copy
    refused(g, lay("7H AC 9H", "7S 7D 7C", "JH QH KH"), Code.TAKE_DISCARD_NOT_MELDED)
    natural = hr.LayDown((meld("QC KC AC", demoted=[2]), meld("7S 7D 7C"), meld("JH QH KH")))
    g = g.apply(natural)
    # the demoted copy went to the table with its mark; the wild copy stays in the hand
    assert g.demoted[0] == ()
    assert g.hand(0).count(c("AC")) == 1
    assert g.table[0].meld.demoted == frozenset({2})


def test_levant_taken_wild_ace_laid_off_moves_with_its_card() -> None:
    """000 §Variants "Taking the discard": a taken wild Ace laid off on a run plays as the Ace.

    The demoted mark follows the card onto the table: the hand keeps no record of it
    (the fault that once left a negative count of A♣ and a card from nowhere).
    """
    ruleset = hr.build("levant", ["discard_to_table"])
    seat0 = "JH QH KH 7S 7D 7H JC QC KC 5D 9S 10D KS 6H"
    g = deal(ruleset, [seat0, DEMOTION_SEAT1], indicator="8C", top="2S 3D")
    # JH QH KH (30) + 7S 7D 7H (21) + JC QC KC (30) = 81 >= 51
    g = play(
        g,
        hr.Discard(c("4D")),
        hr.DrawStock(),
        lay("JH QH KH", "7S 7D 7H", "JC QC KC"),
        hr.Discard(c("KS")),
        hr.DrawStock(),
        hr.Discard(c("AC")),
        hr.TakeDiscard(),
    )
    run = table_id(g, "JC QC KC")
    # the hand's only A♣ is the taken one, which plays only as itself: named without
    # ``demoted`` it is that copy all the same (inferred), and it takes no role
    allowed(g, hr.LayOff(run, c("AC")))
    assert (
        g.apply(hr.LayOff(run, c("AC"))).table
        == g.apply(hr.LayOff(run, c("AC"), demoted=True)).table
    )
    refused(g, hr.LayOff(run, c("AC"), role=c("AC")), Code.NATURAL_CARD_GIVEN_ROLE)
    allowed(g, hr.LayOff(run, c("AC"), demoted=True))
    g = g.apply(hr.LayOff(run, c("AC"), demoted=True))
    assert g.demoted[0] == ()
    assert c("AC") not in g.hand(0)
    laid = g.meld(run)
    assert laid is not None and laid.meld.demoted == frozenset({3})
    assert all(count >= 0 for hand in g.hands for count in hand)
    allowed(g, hr.Discard(c("9S")))
    assert round_from_json(round_to_json(g)) == g


def test_app_opening_is_accepted_or_rejected_as_a_whole() -> None:
    """004 §4: melds submitted together are accepted or rejected together (5H 6D 7C is no run)."""
    seat0 = "JH QH KH 7S 7D 7H 5H 6D 10D KS 3H 6C 5C 4C"
    seat1 = "2D 3C 9D 9C 10S QD KD 4H 6S JC 3S 8H 5S 10H 4D"
    g = deal(CLASSIC, [seat0, seat1], top="7C")
    g = play(g, hr.Discard(c("2D")), hr.DrawStock())
    # JH QH KH (30) + 7S 7D 7H (21) = 51 would do alone, but the bad third meld sinks it
    bad = lay("JH QH KH", "7S 7D 7H", "5H 6D 7C")
    assert not g.check(bad).ok
    with pytest.raises(hr.IllegalActionError):
        g.apply(bad)
    assert g.table == () and not g.opened[0]
    allowed(g, lay("JH QH KH", "7S 7D 7H"))


def test_levant_exchange_pays_with_a_joker_that_plays_as_the_missing_ace() -> None:
    """000 §Wild cards: under the 8♣ the A♣ are wild and a joker is a natural A♣; 000
    §Exchanging wild cards: a set of three naturals and a wild gives up the wild for the
    missing fourth card. So the joker pays for the wild A♣ in A♦ A♥ A♠ A♣, and the
    generator lists it (found by a long random-play run: check() accepted it, the list
    left it out)."""
    spot = hr.Position(
        LEVANT,
        indicator="8C",
        players=[hr.PositionSeat("JK 5D 6D 9S"), 9],
        table=[
            hr.PositionMeld(1, 0, hr.Meld.of("AD AH AS AC", roles={3: "AC"})),
            hr.PositionMeld(2, 1, "KS KD KH"),
        ],
        discards="5H",
        discard_size=10,
        turn=0,
        phase=hr.Phase.PLAY,
    )
    g = hr.Round.from_position(spot)
    pay = hr.Exchange(1, (hr.JOKER,))
    allowed(g, pay)
    assert pay in list(g.legal_actions())


def test_romme_an_exchange_whose_freed_joker_cannot_be_used_is_refused() -> None:
    """002 §Exchanging a joker: the joker won from the table must go straight into a new meld.
    With no_rediscard_taken the K♦ just taken may not be the discard. Exchanging the J♠ for
    the joker of 10♠ JK Q♠ leaves 4♣ 4♦ K♦ JK: the only meld with the joker, 4♣ 4♦ JK,
    leaves K♦ alone, which can be neither melded nor discarded, so the exchange is refused
    (found by the soak script as a position with no legal move). Without the variant the
    K♦ may be discarded and the same exchange is legal."""

    def spot(variants: list[str]) -> hr.Round:
        return hr.Round.from_position(
            hr.Position(
                hr.build("romme", variants),
                players=[9, hr.PositionSeat("4C 4D JS KD", opened=True), 9],
                table=[
                    hr.PositionMeld(1, 0, hr.Meld.of("10S JK QS", roles={1: "JS"})),
                    hr.PositionMeld(2, 1, "JC QC KC AC"),
                ],
                discards="5H",
                discard_size=6,
                turn=1,
                phase=hr.Phase.PLAY,
                current=hr.PositionTurn(taken="KD"),
            )
        )

    swap = hr.Exchange(1, (hr.parse_card("JS"),))
    refused(spot(["no_rediscard_taken"]), swap, Code.FREED_WILD_NOT_USED)
    assert swap not in list(spot(["no_rediscard_taken"]).legal_actions())
    free = spot([])
    allowed(free, swap)
    assert swap in list(free.legal_actions())
    # then only a meld with the joker is legal: 4♣ 4♦ and the joker as a third 4
    (only,) = free.apply(swap).legal_actions()
    assert isinstance(only, hr.LayDown) and [m.cards for m in only.melds] == [
        hr.parse_cards("4C 4D JK")
    ]


def test_levant_an_exchange_may_not_leave_a_lone_card_that_cannot_go_out() -> None:
    """000 §Exchanging wild cards: two naturals and a wild give the wild up for both missing
    cards; under an Ace indicator the jokers are the wild cards (000 §Wild cards). So paying
    7♣ 7♠ for the joker of 7♦ 7♥ JK leaves the joker alone in the hand. Its
    discard would go out, and a player who missed an announcement may not go out (000
    §Ending a round), so that exchange would leave no legal move: it is refused. Without
    the missed announcement it is legal (found by random play: the turn was left stuck)."""

    def spot(missed: bool) -> hr.Round:
        return hr.Round.from_position(
            hr.Position(
                LEVANT,
                indicator="AH",
                players=[
                    hr.PositionSeat("7C 7S", opened=True, missed=missed),
                    hr.PositionSeat((), 9, opened=True),
                ],
                table=[
                    hr.PositionMeld(1, 1, hr.Meld.of("7D 7H JK", roles={2: "7C"})),
                    hr.PositionMeld(2, 0, "QS KS AS"),
                    hr.PositionMeld(3, 0, "2D 3D 4D"),
                ],
                discards="5H",
                discard_size=10,
                turn=0,
                phase=hr.Phase.PLAY,
            )
        )

    pay = hr.Exchange(1, hr.parse_cards("7C 7S"))
    refused(spot(missed=True), pay, Code.GOING_OUT_AFTER_MISSED_ANNOUNCEMENT)
    free = spot(missed=False)
    allowed(free, pay)
    after = free.apply(pay)
    assert hr.Discard(hr.JOKER) in after.legal_actions()


def test_romme_tournament_jokers_a_hand_of_jokers_may_still_discard_one() -> None:
    """002 §Variants, tournament jokers: a joker may be discarded only to go out. Holding
    J♦ and a joker, the J♦ must be the discard. A hand of two jokers with nowhere to lay
    them off could otherwise never end its turn; the document is silent, and the library
    lets it discard a joker (found while checking for turns without a legal move)."""
    rules = hr.build("romme", ["tournament_jokers"])

    def spot(hand: str) -> hr.Round:
        return hr.Round.from_position(
            hr.Position(
                rules,
                players=[hr.PositionSeat(hand, opened=True), hr.PositionSeat((), 9, opened=True)],
                table=[
                    hr.PositionMeld(1, 1, "7D 7H 7C 7S"),
                    hr.PositionMeld(2, 0, "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"),
                    hr.PositionMeld(3, 0, "8D 8H 8C 8S"),
                ],
                discards="5H",
                discard_size=10,
                turn=0,
                phase=hr.Phase.PLAY,
            )
        )

    mixed = spot("JK JD")
    refused(mixed, hr.Discard(hr.JOKER), Code.WILD_DISCARD_FORBIDDEN)
    assert list(mixed.legal_actions()) == [hr.Discard(hr.parse_card("JD"))]
    jokers = spot("JK JK")
    assert list(jokers.legal_actions()) == [hr.Discard(hr.JOKER)]
    allowed(jokers, hr.Discard(hr.JOKER))


@pytest.mark.parametrize("preset", ["levant", "partnership"])
def test_team_of_numbers_the_teams_in_seat_order(preset: str) -> None:
    # partners sit opposite (004): seats 0 and 2 are the first team, 1 and 3 the second;
    # without partnerships each seat is a team of its own
    game = hr.Round.deal(hr.build(preset), players=4, seed=1)
    expected = [0, 1, 0, 1] if preset == "partnership" else [0, 1, 2, 3]
    assert [game.team_of(seat) for seat in range(4)] == expected
    with pytest.raises(hr.HandRummyError):
        game.team_of(4)


def test_a_seats_demoted_cards_are_its_share_of_every_seats() -> None:
    """``hand_demoted(seat)`` is ``demoted[seat]``: seat 1 holds an A♣ taken from the discard
    pile, which with the 8♣ turned plays as a natural card (000 §Exchanging wild cards), and
    an ordinary A♣ besides; the other seats hold none. A seat that is not there is refused.
    (Levantine Hand lays a taken card at once, so the rules are changed by hand to let seat 1
    keep it past its turn.)"""
    keeping = hr.rulesets.levant.with_(discard_take=DiscardTake())
    spot = hr.Position(
        keeping,
        indicator="8C",
        players=[
            hr.PositionSeat("5H 6H 7H 8H QS QD 2S 3S 4D"),
            hr.PositionSeat("AC AC 9D 9S 4H", demoted="AC"),
            10,
        ],
        table=[hr.PositionMeld(1, 1, "KS KD KH")],
        discards="5D",
        discard_size=20,
        turn=0,
        phase=hr.Phase.PLAY,
    )
    game = hr.Round.from_position(spot)
    assert game.demoted == ((), (hr.parse_card("AC"),), ())
    for seat in range(3):
        assert game.hand_demoted(seat) == game.demoted[seat]
    with pytest.raises(hr.InvalidStateError):
        game.hand_demoted(3)


def test_taking_the_discard_is_judged_the_same_however_often_and_in_what_order() -> None:
    """The answer to "may I take the discard?" is kept for the round last asked: two rounds
    asked in turn, and a fresh copy of each (an equal round, another object), always get
    the same answer, and a listed take is applied."""
    rng = random.Random(11)
    take = hr.TakeDiscard()
    games = [hr.Round.deal(hr.rulesets.levant, players=4, seed=s) for s in (21, 22)]
    asked = legal = 0
    while not any(g.is_over for g in games) and asked < 400:
        for i, game in enumerate(games):
            listed = take in list(game.legal_actions())
            other = games[1 - i]
            other.check(take)  # the other round is asked in between
            copy = round_from_json(round_to_json(game))
            assert copy is not game and copy == game
            assert game.check(take).ok is listed is copy.check(take).ok
            asked += 1
            legal += listed
            if listed and rng.random() < 0.5:
                games[i] = game.apply(take)
            else:
                games[i] = game.apply(rng.choice(list(game.legal_actions())))
    assert asked > 100 and legal > 0


@pytest.mark.parametrize("name", sorted(hr.PRESETS))
def test_may_go_out_is_the_yes_or_no_of_going_out_problems(name: str) -> None:
    ruleset = hr.build(name)
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    for seed in range(4):
        game = hr.Round.deal(ruleset, 4 if ruleset.players.allows(4) else 2, seed)
        for _ in range(300):
            if game.is_over:
                break
            allowed_now = may_go_out(game)
            assert allowed_now == (not going_out_problems(game))
            # the ban on going out in a first turn, where the ruleset has one (000)
            if ruleset.going_out.first_turn_ban and game.turns_played[game.turn] == 0:
                assert not allowed_now
            seen[allowed_now] += 1
            game = game.apply(rng.choice(list(game.legal_actions())))
    assert seen[True] > 0


@pytest.mark.parametrize("room", [True, False])
def test_levant_below_51_finish_needs_room_in_the_older_set(room: bool) -> None:
    """000 §The first meld, Exception, with a lay-off (RULES-MATRIX L11): 2♣ 3♣ 4♣ (9 points)
    may open below 51 only if the 3♥ can then go onto the older set of 3s and the 9♦ be the
    final discard. A set holding all four suits has no room for a 3♥ (000 §Melds: a set has
    no two cards of one suit), so there the turn cannot finish and the opening is refused."""
    older = "3S 3C 3D" if room else "3S 3C 3H 3D"
    game = hr.Round.from_position(
        hr.Position(
            LEVANT,
            indicator="8H",
            players=[hr.PositionSeat("2C 3C 4C 3H 9D"), hr.PositionSeat((), 12)],
            table=[hr.PositionMeld(1, 1, older)],
            discards="KS",
            discard_size=10,
            turn=0,
            phase=hr.Phase.PLAY,
        )
    )
    opening = lay("2C 3C 4C")
    if not room:
        refused(game, opening, Code.OPENING_BELOW_THRESHOLD)
        assert opening not in list(game.legal_actions())
        return
    assert opening in list(game.legal_actions())
    game = play(game, opening, hr.LayOff(1, c("3H")), hr.Discard(c("9D")))
    assert game.outcome is not None and game.outcome.ending is hr.Ending.WENT_OUT


def test_levant_under_a_promise_a_lay_down_that_keeps_it_comes_first() -> None:
    """000 §The first meld, Exception; L11: after 2♥ 3♥ 4♥ (9, far below 51) the turn must
    finish, and the listing starts with a lay-down that keeps the promise.

    Worked by hand: the hand left is 6♠ 7♠ 8♠ 9♠ K♦, seat 1 owns 10♠ J♠ Q♠ and K♣ K♥ K♠,
    and the last card must be discarded (000 §Going out). No discard is legal (five cards
    are left); 9♠ may go onto 10♠ J♠ Q♠ (6♠ 7♠ 8♠ then meld, K♦ is the discard) and K♦
    onto the Kings (6♠ 7♠ 8♠ meld, 9♠ the discard); 6♠ 7♠ 8♠ may be laid (9♠ goes on),
    and so may 7♠ 8♠ 9♠ (6♠ goes onto it) and 6♠-9♠ (K♦ the discard). Without the order,
    the two lay-offs, each judged by a search, would come before any lay-down.
    """
    spot = hr.Position(
        LEVANT,
        indicator=hr.parse_card("8C"),
        players=[hr.PositionSeat("2H 3H 4H 6S 7S 8S 9S KD"), 12, 12],
        table=[hr.PositionMeld(1, 1, "10S JS QS"), hr.PositionMeld(2, 1, "KC KH KS")],
        discards="AD",
        discard_size=10,
        turn=0,
        phase=hr.Phase.PLAY,
    )
    g = hr.Round.from_position(spot).apply(lay("2H 3H 4H"))
    assert g.current.obligation is hr.Obligation.GO_OUT
    listed = list(g.legal_actions())
    want = {
        lay("6S 7S 8S"),
        lay("7S 8S 9S"),
        lay("6S 7S 8S 9S"),
        hr.LayOff(1, c("9S")),
        hr.LayOff(2, c("KD")),
    }
    assert set(listed) == want and len(listed) == len(want)
    assert isinstance(listed[0], hr.LayDown)
    assert g.check(listed[0]).ok


def test_the_quick_test_of_a_promised_card_refuses_only_what_the_search_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The one missing card on a set of two naturals and a wild binds the turn to end out
    or on one card (000 §Exchanging wild cards, matrix L10); a quick test of the cards that
    could go nowhere refuses most such lay-offs before the search. Over random Levant
    rounds, every such lay-off is judged with and without that test: the same answers."""
    from hand_rummy.turn_rules import laying_off  # noqa: PLC0415 (the module under test)

    rng = random.Random(11)
    checked = accepted = 0
    for _ in range(40):
        game = hr.Round.deal(LEVANT, players=4, seed=rng.randrange(2**32))
        while not game.is_over:
            if game.phase is hr.Phase.PLAY and game.opened[game.turn]:
                hand = game.hands[game.turn]
                for target in game.table:
                    options = game.finder.layoff_options(target.meld, target.kind)
                    for index, ways in options.items():
                        for role, contextual in ways:
                            if not (contextual and hand[index]):
                                continue
                            action = hr.LayOff(target.id, hr.CARDS[index], role)
                            quick = laying_off.judge_lay_off(game, action).ok
                            with monkeypatch.context() as patch:
                                patch.setattr(laying_off, "may_promise_one_card", lambda _: True)
                                full = laying_off.judge_lay_off(game, action).ok
                            assert quick == full, (game.hand(game.turn), action)
                            checked += 1
                            accepted += quick
            actions = list(game.legal_actions())
            lay_offs = [a for a in actions if isinstance(a, hr.LayOff)]
            # lay off often, so that sets of two naturals and a wild meet their cards
            pick = lay_offs if lay_offs and rng.random() < 0.5 else actions
            game = game.apply(rng.choice(pick))
    assert checked > 60 and 0 < accepted < checked, (checked, accepted)


def test_a_move_from_a_seat_not_to_move_is_refused_without_a_word_on_the_hand() -> None:
    """A server passes the sender's seat: another seat's move is refused for the turn
    (000 §Playing a turn: play passes from seat to seat) before it is judged, so a card the
    mover holds and one it does not get the same answer."""
    g = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
    held, absent = g.hand(0)[0], next(c for c in hr.CARDS if c not in g.hand(0))
    assert g.turn == 0 and g.check(hr.Discard(held), seat=0).ok
    for card in (held, absent):
        verdict = g.check(hr.Discard(card), seat=1)
        assert verdict.codes == (Code.NOT_YOUR_TURN,)
        assert str(verdict.violations[0].message) == "it is seat 0's turn, not seat 1's"
        with pytest.raises(hr.IllegalActionError) as raised:
            g.apply(hr.Discard(card), seat=2)
        assert raised.value.verdict.codes == (Code.NOT_YOUR_TURN,)
    assert g.apply(hr.Discard(held), seat=0) == g.apply(hr.Discard(held))
    with pytest.raises(hr.InvalidStateError, match="no seat 3"):
        g.check(hr.Discard(held), seat=3)
    match = hr.Match.new(hr.rulesets.romme, 3, seed=1)
    other = ((match.turn or 0) + 1) % 3
    assert match.check(hr.DrawStock(), seat=other).codes == (Code.NOT_YOUR_TURN,)
