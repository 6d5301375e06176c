"""A check shared by the case files: a move judged three ways that must agree.

``Round.check`` (with ``apply``, which must raise exactly when ``check`` refuses),
whether the move is in ``Round.legal_actions()``, and the JSON referee asked about the
same position (``action`` and ``legal_actions``).
"""

from __future__ import annotations

from typing import Any

import pytest

import hand_rummy as hr
from hand_rummy import Code
from hand_rummy.referee import answer
from hand_rummy.serialize import action_to_json, position_to_json, round_to_json


def _key(action: hr.Action) -> Any:
    """What makes two actions the same move, but for the roles of wild cards: a lay-down's
    melds and an exchange's cards in any order, a lay-off's card and target."""
    if isinstance(action, hr.LayDown):
        return ("lay_down", sorted(sorted(card.index for card in m.cards) for m in action.melds))
    if isinstance(action, hr.Exchange):
        return ("exchange", action.target, sorted(card.index for card in action.cards))
    if isinstance(action, hr.LayOff):
        return ("lay_off", action.target, action.card, action.demoted)
    return action


def _plays_as(meld: hr.Meld) -> list[tuple[int, int]]:
    """Each card of ``meld`` with the card it plays as (itself, or the one a wild stands for)."""
    return sorted(
        (card.index, (card if role is None else role).index)
        for card, role in zip(meld.cards, meld.roles, strict=True)
    )


def _reading(meld: hr.Meld, rules: hr.MeldRules) -> list[tuple[int, int]] | None:
    """What ``meld`` plays as, read as written (the roles it names, or those its order
    implies), or ``None`` where it cannot be read so (a wild card taken from the discard
    pile, say, which plays as a natural card)."""
    judged = hr.judge_meld(meld, rules).meld
    return None if judged is None else _plays_as(judged)


def same_move(mine: hr.Action, listed: hr.Action, rules: hr.MeldRules) -> bool:
    """Whether the listed action is the move ``mine`` describes: for a lay-down, its melds
    hold the same cards, each playing as ``mine`` names it or its written order implies."""
    if _key(mine) != _key(listed):
        return False
    if isinstance(mine, hr.LayOff) and mine.role is not None:
        assert isinstance(listed, hr.LayOff)
        return listed.role in (None, mine.role)
    if isinstance(mine, hr.LayDown):
        assert isinstance(listed, hr.LayDown)
        readings = [_plays_as(meld) for meld in listed.melds]
        for meld in mine.melds:
            reading = _reading(meld, rules)
            if reading is not None:
                if reading not in readings:
                    return False
                readings.remove(reading)
    return True


def _referee_document(game: hr.Round) -> dict[str, Any]:
    if game.phase is hr.Phase.REDEAL or game.history:
        try:
            return {"round": round_to_json(game)}
        except hr.InvalidStateError:
            pass  # a round built from a position has no deal to replay
    return {"position": position_to_json(game.position())}


def judged(game: hr.Round, action: hr.Action) -> hr.Verdict:
    """``check``, ``legal_actions`` and the referee, asked about ``action``: they must
    agree. ``apply`` must raise exactly when ``check`` refuses."""
    verdict = game.check(action)
    listed = list(game.legal_actions())
    assert verdict.ok == any(same_move(action, other, game.rules) for other in listed), (
        f"check says {verdict.ok} for {action}, legal_actions lists {[str(a) for a in listed]}"
    )
    document = _referee_document(game)
    reply = answer({"ask": "action", "action": action_to_json(action), **document})
    assert reply["ok"] == verdict.ok, reply
    assert [v["code"] for v in reply["violations"]] == [code.value for code in verdict.codes]
    page = answer({"ask": "legal_actions", "limit": 1000, **document})
    assert page["actions"] == [action_to_json(a) for a in listed[:1000]]
    if verdict.ok:
        game.apply(action)
    else:
        with pytest.raises(hr.IllegalActionError):
            game.apply(action)
    return verdict


def ok(game: hr.Round, action: hr.Action) -> hr.Round:
    """The move is legal (all three ways); the round after it."""
    verdict = judged(game, action)
    assert verdict.ok, f"{action} refused: {verdict}"
    return game.apply(action)


def refused(game: hr.Round, action: hr.Action, code: Code | None = None) -> None:
    """The move is illegal (all three ways), for the reason ``code`` when one is given."""
    verdict = judged(game, action)
    assert not verdict.ok, f"{action} was accepted"
    if code is not None:
        assert code in verdict.codes, verdict.codes


def expect(game: hr.Round, action: hr.Action, legal: bool, code: Code | None = None) -> None:
    """The move is legal three ways, or refused three ways (for ``code``, when given)."""
    if legal:
        ok(game, action)
    else:
        refused(game, action, code)
