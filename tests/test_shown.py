"""The cards every player knows another holds (``RoundState.shown``, a view's ``shown``).

A card taken from the discard pile, or a wild freed from the table, went into a hand in
view of everyone; it is known to be there until a card of the same face (and the same
demotion) leaves that hand, since nobody can tell which copy went. The record is checked
against a count worked out here from the hands alone, move by move, and the samples of a
view must leave each such card with its holder.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import hand_rummy as hr
from hand_rummy.serialize import view_from_json, view_to_json


def _count_move(known: list[Counter[hr.Card]], before: hr.Round, action: hr.Action) -> hr.Round:
    """Play ``action`` and update each seat's known cards, worked out from the hands alone:
    what a take or an exchange put into the hand in view of all, less what any move put out
    of it since."""
    seat = before.turn
    held = Counter(before.hand(seat))
    taken = before.discards[-1] if isinstance(action, hr.TakeDiscard) else None
    after = before.apply(action)
    if isinstance(action, hr.DrawStock):
        return after  # a card nobody else saw
    now = Counter(after.hand(seat))
    for card, count in (held - now).items():
        known[seat][card] = max(0, known[seat][card] - count)
    if taken is not None:
        known[seat][taken] += 1
    if isinstance(action, hr.Exchange):
        known[seat] += now - held  # the freed wild, face up on the table a moment ago
    return after


@pytest.mark.parametrize("preset", sorted(hr.PRESETS))
def test_the_known_cards_follow_the_hands(preset: str) -> None:
    ruleset = hr.build(preset)
    rng = random.Random(7)
    checked = 0
    for _ in range(6):
        game = hr.Round.deal(ruleset, players=ruleset.players.minimum, seed=rng.randrange(99))
        known: list[Counter[hr.Card]] = [Counter() for _ in range(game.players)]
        # takes are favoured, and a take followed by a discard can go on for ever where it
        # obliges nothing: a round is cut off after a few hundred moves
        for _ in range(400):
            if game.is_over:
                break
            for seat in range(game.players):
                view = game.view((seat + 1) % game.players)
                shown = view.shown[seat] if view.shown else ()
                assert Counter(shown) == +known[seat]
                checked += bool(+known[seat])
            legal = list(game.legal_actions())
            # lay-downs, lay-offs and takes first now and then, so that cards go both ways
            moves = [a for a in legal if not isinstance(a, (hr.Discard, hr.DrawStock))]
            action = rng.choice(moves if moves and rng.random() < 0.6 else legal)
            game = _count_move(known, game, action)
    assert checked > 0  # some card was known to be held


@pytest.mark.parametrize("preset", ["romme", "gulf", "classic", "levant"])
def test_samples_leave_the_known_cards_with_their_holders(preset: str) -> None:
    ruleset = hr.build(preset)
    rng = random.Random(3)
    sampled = 0
    for _ in range(4):
        game = hr.Round.deal(ruleset, ruleset.players.minimum, seed=rng.randrange(99))
        for _ in range(300):
            if game.is_over:
                break
            for seat in range(game.players):
                view = game.view(seat)
                if not view.shown or not any(view.shown):
                    continue
                sample = view.sample(random.Random(sampled))
                sampled += 1
                assert sample.view(seat) == view
                for other, cards in enumerate(view.shown):
                    assert not Counter(cards) - Counter(sample.hand(other))
                    demoted = Counter(view.shown_demoted[other])
                    assert not demoted - Counter(sample.hand_demoted(other))
            legal = list(game.legal_actions())
            takes = [a for a in legal if isinstance(a, hr.TakeDiscard)]
            game = game.apply(takes[0] if takes else rng.choice(legal))
    assert sampled > 0


def test_a_view_document_keeps_the_known_cards() -> None:
    game = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
    while not (game.view(0).shown and any(game.view(0).shown)):
        legal = list(game.legal_actions())
        takes = [a for a in legal if isinstance(a, hr.TakeDiscard)]
        game = game.apply(takes[0] if takes else legal[0])
    view = game.view(0)
    document = json.loads(json.dumps(view_to_json(view)))
    assert view_from_json(document) == view
    holder = next(s for s, cards in enumerate(view.shown) if cards)
    bad = dict(document)
    bad["shown"] = [list(cards) for cards in document["shown"]]
    bad["shown"][holder] += ["AS"] * 20
    with pytest.raises(hr.InvalidStateError, match=rf"shown\[{holder}\]"):
        view_from_json(bad)
    alone = {k: v for k, v in document.items() if k != "shown_demoted"}
    with pytest.raises(hr.InvalidStateError, match="come together"):
        view_from_json(alone)


def test_the_observation_counts_the_known_cards_of_each_seat() -> None:
    pytest.importorskip("numpy")
    from hand_rummy.observation import ObservationLayout, observe  # noqa: PLC0415

    ruleset = hr.rulesets.romme
    layout = ObservationLayout.of(ruleset)
    part = layout.section("shown")
    game = hr.Round.deal(ruleset, players=3, seed=1)
    rng = random.Random(1)
    seen = 0
    for _ in range(200):
        if game.is_over:
            break
        for seat in range(game.players):
            view = game.view(seat)
            rows = observe(view, layout)[part.start : part.stop].reshape(layout.seats, 53)
            for other in range(game.players):
                shown = Counter(view.shown[other]) if view.shown else Counter()
                row = rows[(other - seat) % game.players]
                assert {hr.CARDS[i]: int(n) for i, n in enumerate(row) if n} == dict(shown)
                seen += bool(shown)
        legal = list(game.legal_actions())
        takes = [a for a in legal if isinstance(a, hr.TakeDiscard)]
        game = game.apply(takes[0] if takes else rng.choice(legal))
    assert seen > 0


def _romme_document() -> dict[str, object]:
    game = hr.Round.deal(hr.rulesets.romme, players=2, seed=1)
    document: dict[str, object] = json.loads(json.dumps(view_to_json(game.view(0))))
    return document


def test_a_view_document_reads_the_known_cards_in_one_order() -> None:
    # the same cards listed in another order are the same facts, and must make equal views
    # (and samples whose views are the view)
    one, two = _romme_document(), _romme_document()
    one["shown"], one["shown_demoted"] = [[], ["KH", "3H"]], [[], []]
    two["shown"], two["shown_demoted"] = [[], ["3H", "KH"]], [[], []]
    first, second = view_from_json(one), view_from_json(two)
    assert first == second
    assert first.sample(random.Random(0)).view(0) == first


@pytest.mark.parametrize(
    ("shown", "demoted", "message"),
    [
        # Rommé demotes no card: a joker from the pile stays wild (002)
        ([[], ["5H"]], [[], ["5H"]], r"shown_demoted\[1\]: 5♥ is no wild card"),
        ([[], ["JK"]], [[], ["JK"]], r"shown_demoted\[1\]: JK is no wild card"),
        # the viewer's own cards are in the hand
        ([["AS", "AS", "AS"], []], [[], []], r"shown\[0\]: lists cards that are not in the"),
    ],
)
def test_a_view_document_refuses_known_cards_that_cannot_be(
    shown: list[list[str]], demoted: list[list[str]], message: str
) -> None:
    document = _romme_document()
    document["shown"], document["shown_demoted"] = shown, demoted
    with pytest.raises(hr.InvalidStateError, match=message):
        view_from_json(document)


def test_a_player_to_move_whose_every_card_is_known_has_a_move() -> None:
    # Levant: seat 1 took the top discard, which it must meld at once with two cards of its
    # hand (000 §Taking the discard); a document showing a whole hand of which no card melds
    # with it describes a take that was never legal
    game = hr.Round.deal(hr.rulesets.levant, players=2, seed=3)
    rng = random.Random(3)
    while not (game.turn == 1 and hr.TakeDiscard() in game.legal_actions()):
        game = game.apply(rng.choice([a for a in game.legal_actions() if a != hr.TakeDiscard()]))
    taken = game.apply(hr.TakeDiscard())
    card = taken.current.taken
    assert card is not None and not taken.rules.is_wild(card)
    document = json.loads(json.dumps(view_to_json(taken.view(0))))
    document["shown"] = [[], [c.ascii for c in taken.hand(1)]]
    document["shown_demoted"] = [[], [c.ascii for c in taken.hand_demoted(1)]]
    assert view_from_json(document).shown[1] == taken.hand(1)  # the real hand: it may move
    # as many hidden cards, of other suits and ranks and not wild, beside the taken card
    hidden = sorted(taken.view(0).unseen().elements(), key=lambda c: c.index)
    far = [
        c
        for c in hidden
        if c.suit != card.suit and c.rank != card.rank and not taken.rules.is_wild(c)
    ]
    document["shown"] = [[], [c.ascii for c in far[: taken.hand_size(1) - 1]] + [card.ascii]]
    document["shown_demoted"] = [[], []]
    with pytest.raises(hr.InvalidStateError, match="every card is known, would have no legal"):
        view_from_json(document)
