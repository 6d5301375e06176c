"""Whole deals from a part of one, for tests and scenarios: :func:`fill_deal`.

A scenario usually cares about a few cards: the hand of the player to move,
the next card of the stock, the indicator. :func:`fill_deal` takes those and
deals the rest of the deck by the fill rule that positions use
(:func:`~hand_rummy.position.fill_cards`: the missing cards in the library's
card order, shuffled with the seed), so the same arguments always give the
same deal, and :meth:`Deal.round <hand_rummy.match.Deal.round>` (or
:meth:`Round.from_deal <hand_rummy.round.Round.from_deal>`) starts the round.

>>> import hand_rummy as hr
>>> deal = fill_deal(hr.rulesets.levant, 3, hands={1: "7H 8H 9H AC"}, stock="KS", indicator="8C")
>>> [len(h) for h in deal.hands], hr.format_cards(deal.hands[1][:4]), deal.stock[-1], deal.indicator
([14, 15, 14], '7♥ 8♥ 9♥ A♣', Card.parse('KS'), Card.parse('8C'))
>>> game = deal.round(hr.rulesets.levant, dealer=0, seed=0).keep_deal()
>>> game.turn, len(game.hand(1))
(1, 15)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from hand_rummy.cards import Card, format_cards
from hand_rummy.errors import InvalidStateError, expect, expect_seed, number
from hand_rummy.match import Deal
from hand_rummy.melds import CardsLike, read_cards
from hand_rummy.position import fill_cards
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.scoring import seats_refusal

__all__ = ["fill_deal"]


def fill_deal(
    ruleset: Ruleset,
    players: int,
    *,
    hands: Mapping[int, CardsLike] | None = None,
    stock: CardsLike = (),
    discards: CardsLike | None = None,
    indicator: Card | str | None = None,
    dealer: int = 0,
    seed: int = 0,
) -> Deal:
    """A whole deal for ``players`` under ``ruleset``, of which some cards are given.

    ``hands`` maps seats to cards they are dealt (all of their hand, or the
    first cards of it); ``stock`` lists cards at the top of the stock, bottom
    first, so the last is drawn first; ``discards`` is the discard pile as
    dealt (by default one card where the rules turn an upcard, else empty);
    ``indicator`` is the turned indicator (by default the first filled card
    that may be one). The ``dealer`` decides who is dealt the starter's extra
    card. Every other card is filled by
    :func:`~hand_rummy.position.fill_cards` with ``seed``, in this order: the
    hands in seat order, the indicator, the upcard, then the stock under the
    given cards.

    Raises :class:`~hand_rummy.errors.InvalidStateError` for a card given more
    often than the deck holds it, a hand given more cards than the deal gives
    it, or an indicator where the rules turn none.
    """
    expect(ruleset, Ruleset, "the ruleset")
    expect(players, int, "the number of players")
    expect(dealer, int, "the dealer")
    expect_seed(seed)
    if not ruleset.players.allows(players):
        raise InvalidStateError(seats_refusal(players, ruleset))
    if not 0 <= dealer < players:
        raise InvalidStateError(
            f"the dealer must be a seat from 0 to {players - 1}, not {number(dealer)}"
        )
    if hands is not None:
        expect(hands, Mapping, "the hands")
    given_hands = dict(hands or {})
    for seat in given_hands:
        expect(seat, int, "a seat of the hands")
        if not 0 <= seat < players:
            raise InvalidStateError(f"hands: there is no seat {seat} among {players} players")
    known = {seat: read_cards(cards) for seat, cards in given_hands.items()}
    top = read_cards(stock)
    pile = None if discards is None else read_cards(discards)
    if indicator is not None and not ruleset.uses_indicator:
        raise InvalidStateError(f"{ruleset.title} turns no indicator card")
    shown = None if indicator is None else read_cards([indicator])[0]
    if shown is not None and ruleset.wilds.turns_again(shown):
        raise InvalidStateError(f"{shown} cannot be the indicator: it would be turned again")
    deal = ruleset.deal
    starter = deal.starter(dealer, players)
    sizes = [
        deal.hand_size + (1 if deal.starter_extra_card and s == starter else 0)
        for s in range(players)
    ]
    for seat, cards in known.items():
        if len(cards) > sizes[seat]:
            raise InvalidStateError(
                f"hands[{seat}]: {len(cards)} cards; the deal gives seat {seat} {sizes[seat]}"
            )
    listed = [card for s in sorted(known) for card in known[s]]
    listed += [*top, *(pile or ()), *([shown] if shown is not None else [])]
    deck = Counter(p.card for p in ruleset.deck.cards())
    extra = Counter(listed) - deck
    if extra:
        raise InvalidStateError(
            f"the deck does not hold so many of {format_cards(sorted(extra.elements()))}"
        )
    order = fill_cards((deck - Counter(listed)).elements(), seed)
    dealt = []
    for seat in range(players):
        cards = known.get(seat, ())
        more = sizes[seat] - len(cards)
        dealt.append((*cards, *order[:more]))
        del order[:more]
    if ruleset.uses_indicator and shown is None:
        at = next((i for i, c in enumerate(order) if not ruleset.wilds.turns_again(c)), None)
        if at is None:
            raise InvalidStateError("no card is left to turn as the indicator")
        shown = order.pop(at)
    if pile is None:
        pile = (order.pop(0),) if deal.upcard and order else ()
    if len(order) + len(top) == 0:
        raise InvalidStateError("no card is left for the stock")
    return Deal(tuple(dealt), (*order, *top), pile, shown)
