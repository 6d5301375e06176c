"""What everyone knows of a stock renewed from the discard pile (``view.renewal``,
``view.drawn``).

Where the rules turn the pile into a new stock (002 "Fresh stock", 003, 004), everyone saw
which cards went into it, and each player knows which of them it drew since. The record is
checked here against the real stock at the moment of the renewal and against the cards
each draw took off its top, and every sample of a view must deal its stock from the
renewed cards that the viewer did not draw.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

import pytest

import hand_rummy as hr
from hand_rummy.serialize import view_from_json, view_to_json
from hand_rummy.visibility import screened


def _play_to_renewals(
    preset: str, players: int, seed: int, moves: int = 1500
) -> list[tuple[hr.Round, list[list[hr.Card]]]]:
    """The rounds of one random game of ``preset`` (a name and variants joined by ``+``)
    from its first renewal on, each with the cards every seat drew since the last renewal,
    worked out here from the stock's top card."""
    name, *variants = preset.split("+")
    game = hr.Round.deal(hr.build(name, variants), players=players, seed=seed)
    rng = random.Random(seed)
    drawn: list[list[hr.Card]] | None = None
    seen: list[tuple[hr.Round, list[list[hr.Card]]]] = []
    for _ in range(moves):
        if game.is_over:
            break
        action = rng.choice(list(game.legal_actions()))
        top = game.stock[-1] if game.stock else None
        seat = game.turn
        after = game.apply(action)
        if after.reshuffles > game.reshuffles:
            # the renewal comes as the turn passes, or right after a draw takes the last
            # card of the old stock: either way nothing has been drawn from the new one yet
            drawn = [[] for _ in range(players)]
            assert sorted(after.stock) == list(after.view(0).renewal)
        elif drawn is not None and isinstance(action, hr.DrawStock):
            assert top is not None
            drawn[seat].append(top)
        game = after
        if drawn is not None:
            seen.append((game, [list(d) for d in drawn]))
    return seen


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("classic", 4),
        ("gulf", 4),
        ("saudi", 2),
        # Rommé renews the stock as the last card is drawn, not as the next player draws
        ("romme+fresh_stock+stock_out_after_last_draw", 3),
    ],
)
def test_the_renewal_and_each_seat_s_draws_follow_the_stock(preset: str, players: int) -> None:
    checked = 0
    for seed in range(3):
        for game, drawn in _play_to_renewals(preset, players, seed):
            renewal = Counter(game.view(0).renewal)
            for seat in range(players):
                view = game.view(seat)
                assert Counter(view.renewal) == renewal  # public: the same for everyone
                assert Counter(view.drawn) == Counter(drawn[seat])  # the drawer's own
                renewal_left = renewal
            for seat in range(players):
                renewal_left = renewal_left - Counter(drawn[seat])
            assert Counter(game.stock) == renewal_left
            checked += 1
    assert checked > 40


@pytest.mark.parametrize(("preset", "players"), [("classic", 4), ("gulf", 4)])
def test_samples_deal_the_stock_from_the_renewed_cards(preset: str, players: int) -> None:
    rng = random.Random(5)
    checked = 0
    for game, _ in _play_to_renewals(preset, players, seed=1)[::5]:
        for seat in range(players):
            view = game.view(seat)
            left = Counter(view.renewal) - Counter(view.drawn)
            for _ in range(3):
                sample = view.sample(rng)
                assert sample.view(seat) == view
                assert not Counter(sample.stock) - left
                checked += 1
    assert checked > 50


def test_a_screened_round_holds_no_other_seat_s_draws() -> None:
    game, drawn = _play_to_renewals("classic", 4, seed=0)[40]
    assert any(drawn[s] for s in range(4))
    for seat in range(4):
        kept = screened(game, seat)
        assert kept.drawn[seat] == game.drawn[seat]
        assert all(not kept.drawn[s] for s in range(4) if s != seat)


def _renewed_document() -> tuple[hr.PlayerView, dict[str, object]]:
    game, drawn = _play_to_renewals("classic", 4, seed=0)[40]
    seat = max(range(4), key=lambda s: len(drawn[s]))
    view = game.view(seat)
    assert view.drawn
    return view, json.loads(json.dumps(view_to_json(view)))


def test_a_view_document_keeps_the_renewal() -> None:
    view, document = _renewed_document()
    assert document["renewal"] == [c.ascii for c in view.renewal]
    assert view_from_json(document) == view
    # the same cards in another order are the same facts
    document["renewal"] = list(reversed(document["renewal"]))  # type: ignore[call-overload]
    document["drawn"] = list(reversed(document["drawn"]))  # type: ignore[call-overload]
    assert view_from_json(document) == view


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("drawn"), "'renewal' and 'drawn' come together"),
        (lambda d: d.update(renewal=[]), "renewal: is written only once the stock has been"),
        (lambda d: d.update(reshuffles=0), "reshuffles is 0"),
        (lambda d: d.update(drawn=[*d["drawn"], "JK", "JK", "JK"]), "drawn: lists cards that"),
        (lambda d: d.update(renewal=[*d["renewal"], *["5H"] * 3]), "more copies than the deck"),
        (lambda d: d.update(renewal=d["drawn"]), "cannot leave"),
    ],
)
def test_a_view_document_refuses_a_renewal_that_cannot_be(change: object, message: str) -> None:
    _, document = _renewed_document()
    change(document)  # type: ignore[operator]
    with pytest.raises(hr.InvalidStateError, match=message):
        view_from_json(document)


def test_a_view_document_refuses_a_renewal_whose_cards_are_in_sight() -> None:
    # the renewed cards still hidden must fill the stock: a renewal of cards whose every
    # copy the viewer sees (on the table, on the pile, in the hand) leaves none for it
    deck = Counter(p.card for p in hr.rulesets.classic.deck.cards())
    for game, _ in _play_to_renewals("classic", 4, seed=0):
        view = game.view(0)
        seen = Counter(view.hand) + Counter(view.discards)
        for meld in view.table:
            seen.update(meld.meld.cards)
        renewal = Counter(view.drawn) | Counter(c for c in seen.elements() if seen[c] == deck[c])
        if 0 < view.stock_size <= renewal.total() - len(view.drawn):
            break
    else:
        pytest.fail("no view with a stock small enough")
    document = json.loads(json.dumps(view_to_json(view)))
    document["renewal"] = sorted(c.ascii for c in renewal.elements())
    with pytest.raises(hr.InvalidStateError, match="too few for the stock"):
        view_from_json(document)


def test_a_view_s_picture_names_the_renewed_cards() -> None:
    view, _ = _renewed_document()
    renewed = hr.format_cards(view.renewal)
    assert (
        f"Stock renewed from the pile: {renewed}; you drew {hr.format_cards(view.drawn)} of them"
        in str(view)
    )
    game, _ = _play_to_renewals("classic", 4, seed=0)[40]
    assert "renewed" not in str(game)  # the picture of a round lists no stock


def test_the_observation_holds_what_a_renewed_stock_can_hold() -> None:
    pytest.importorskip("numpy")
    from hand_rummy.observation import ObservationLayout, observe  # noqa: PLC0415

    layout = ObservationLayout.of(hr.rulesets.classic)
    part = layout.section("renewed")
    for game, drawn in _play_to_renewals("classic", 4, seed=2)[::25]:
        for seat in range(4):
            row = observe(game.view(seat), layout)[part.start : part.stop]
            # worked out from the real stock: it holds the renewed cards less what each
            # seat drew, so the stock and the others' draws are what the observer did not draw
            expected = Counter(game.stock)
            for other in range(4):
                if other != seat:
                    expected.update(drawn[other])
            assert {hr.CARDS[i]: int(n) for i, n in enumerate(row) if n} == dict(expected)
    # rules that never renew the stock (Levant ends the round instead) have no such section
    assert "renewed" not in {s.name for s in ObservationLayout.of(hr.rulesets.levant).sections}


def _owing_views(seeds: int) -> Iterator[tuple[hr.PlayerView, random.Random]]:
    """Views, from the next seat, of another player whose turn owes something after the
    stock was renewed, in 4-player classic rounds where takes are favoured (they make the
    debts), with the generator that plays them."""
    for seed in range(seeds):
        game = hr.Round.deal(hr.rulesets.classic, 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over:
                break
            legal = list(game.legal_actions())
            takes = [a for a in legal if isinstance(a, hr.TakeDiscard)]
            game = game.apply(takes[0] if takes and rng.random() < 0.5 else rng.choice(legal))
            view = game.view((game.turn + 1) % 4)
            if view.renewal and view.current.obligation is not None:
                yield view, rng


def test_melds_dealt_first_leave_the_stock_its_renewed_cards() -> None:
    # a guess that deals the player to move the melds its turn owes took them from the
    # hidden cards, and could take cards that a renewed stock must hold: the sample then
    # had too few of them for the stock and raised
    from hand_rummy import guessing  # noqa: PLC0415
    from hand_rummy.visibility import sampled  # noqa: PLC0415

    leads = 0
    for view, rng in _owing_views(8):
        for k in range(20):
            lead = guessing.owed_melds(view, random.Random(k))
            if lead:
                leads += 1
                sample = sampled(view, random.Random(k), lead)
                left = Counter(view.renewal) - Counter(view.drawn)
                assert not Counter(sample.stock) - left
        view.sample(rng)
    assert leads > 20


def test_a_view_document_refuses_a_renewal_under_rules_that_never_renew() -> None:
    # a round that is over is not checked as a position, so its reshuffles went unchecked:
    # a renewal there was read, and observe() then met a layout without a "renewed"
    # section (a KeyError)
    game = hr.Round.deal(hr.rulesets.levant, 4, seed=1).keep_deal()
    rng = random.Random(0)
    while not game.is_over:
        game = game.apply(rng.choice(list(game.legal_actions())))
    document = json.loads(json.dumps(view_to_json(game.view(0))))
    document.update(reshuffles=1, renewal=sorted(c.ascii for c in game.stock) or ["5H"], drawn=[])
    with pytest.raises(
        hr.InvalidStateError, match="reshuffles: 1, but these rules reshuffle at most 0"
    ):
        view_from_json(document)


def test_a_finished_view_document_holds_no_more_reshuffles_than_its_rules_allow() -> None:
    # 004: "shuffled into a new draw pile, up to 3 times"
    game = hr.Round.deal(hr.rulesets.classic, 2, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game = game.apply(rng.choice(list(game.legal_actions())))
    document = json.loads(json.dumps(view_to_json(game.view(1))))
    assert view_from_json({**document, "reshuffles": 3}).reshuffles == 3
    with pytest.raises(
        hr.InvalidStateError, match="reshuffles: 4, but these rules reshuffle at most 3"
    ):
        view_from_json({**document, "reshuffles": 4})


def test_the_observation_of_a_renewal_its_rules_never_make_is_refused() -> None:
    pytest.importorskip("numpy")
    import attrs  # noqa: PLC0415

    from hand_rummy.observation import observe  # noqa: PLC0415

    game = hr.Round.deal(hr.rulesets.levant, 4, seed=1).keep_deal()
    view = attrs.evolve(game.view(0), reshuffles=1, renewal=tuple(sorted(game.stock)), drawn=())
    with pytest.raises(hr.InvalidStateError, match="never renews"):
        observe(view)


def test_melds_dealt_first_are_refused_only_where_the_stock_could_not_be_filled() -> None:
    # a lead that takes a copy of a renewed card leaves that card to the stock where another
    # hidden copy is left: the guard refused such leads (about one in five) all the same
    import attrs  # noqa: PLC0415

    from hand_rummy import guessing  # noqa: PLC0415
    from hand_rummy.visibility import sampled  # noqa: PLC0415

    kept = 0
    for view, _ in _owing_views(3):
        for k in range(10):
            # the same try with the renewal unknown: the lead before the guard
            lead = guessing.owed_melds(attrs.evolve(view, renewal=(), drawn=()), random.Random(k))
            if not lead:
                continue
            try:
                sampled(view, random.Random(k), lead)
            except hr.InvalidStateError:
                continue  # the stock could not be filled: refusing it is right
            assert guessing.owed_melds(view, random.Random(k)) == lead
            kept += 1
    assert kept > 10
