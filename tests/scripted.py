"""Scripted rounds for the case files: cards and rules by their text, explicit deals, and
moves played in a row."""

from __future__ import annotations

import hand_rummy as hr


def c(text: str) -> hr.Card:
    return hr.parse_card(text)


def cs(text: str) -> tuple[hr.Card, ...]:
    return tuple(hr.parse_cards(text))


def rules(preset: str, *variants: str) -> hr.Ruleset:
    return hr.build(preset, list(variants))


def make_deal(
    ruleset: hr.Ruleset,
    hands: list[str | None],
    *,
    draws: str = "",
    discards: str | None = None,
    indicator: str | None = None,
    dealer: int = 0,
) -> hr.Deal:
    """A whole deal: the hands given (``None``: filled), ``draws`` on top of the stock
    in the order they will be drawn, the rest filled (deck conservation is checked)."""
    order = list(hr.parse_cards(draws)) if draws else []
    return hr.fill_deal(
        ruleset,
        len(hands),
        hands={seat: h for seat, h in enumerate(hands) if h is not None},
        stock=order[::-1],
        discards=discards,
        indicator=indicator,
        dealer=dealer,
    )


def start(
    ruleset: hr.Ruleset,
    hands: list[str | None],
    *,
    draws: str = "",
    discards: str | None = None,
    indicator: str | None = None,
    dealer: int = 0,
) -> hr.Round:
    """The round of :func:`make_deal`, every seat keeping the deal where a redeal may be
    claimed (000 §Setup 4)."""
    deal = make_deal(
        ruleset, hands, draws=draws, discards=discards, indicator=indicator, dealer=dealer
    )
    return deal.round(ruleset, dealer, 0).keep_deal()


def play(game: hr.Round, *actions: hr.Action) -> hr.Round:
    for action in actions:
        game = game.apply(action)
    return game


def dull(game: hr.Round) -> hr.Round:
    """A turn that changes nothing: draw the top of the stock and throw it away."""
    return play(game, hr.DrawStock(), hr.Discard(game.stock[-1]))


def outcome(game: hr.Round) -> hr.Outcome:
    """The outcome of a round that must be over."""
    assert game.is_over and game.outcome is not None
    return game.outcome


def scores(game: hr.Round) -> tuple[int, ...]:
    """The round's score of each seat."""
    return tuple(outcome(game).score.scores)
