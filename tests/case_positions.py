"""The position the case files start from: seat 0 to move, holding a hand they name."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import hand_rummy as hr


def spot(
    ruleset: hr.Ruleset,
    hand: str,
    *,
    table: Sequence[tuple[int, int, Any]] = (),
    others: Sequence[int | hr.PositionSeat] = (9,),
    indicator: str | None = None,
    me: Mapping[str, Any] | None = None,
    current: hr.PositionTurn | None = None,
    discards: str = "2D",
    discard_size: int = 12,
    phase: hr.Phase = hr.Phase.PLAY,
    openings: Iterable[tuple[int, int]] | None = None,
    stock: str = "",
    stock_size: int | None = None,
) -> hr.Round:
    """Seat 0 to move (in the play phase unless ``phase`` says otherwise), holding ``hand``
    with the facts ``me``; ``table`` holds ``(id, owner, meld)`` triples; ``others`` are
    the other seats (hand sizes or seats)."""
    players = [hr.PositionSeat(hand, **(me or {})), *others]
    return hr.Round.from_position(
        hr.Position(
            ruleset,
            players=players,
            turn=0,
            phase=phase,
            table=[hr.PositionMeld(i, owner, m) for i, owner, m in table],
            discards=discards,
            discard_size=discard_size,
            indicator=indicator,
            current=current or hr.PositionTurn(),
            openings=openings,
            stock=stock,
            stock_size=stock_size,
        )
    )


def seat(hand: str, **facts: Any) -> hr.PositionSeat:
    """Another player, who has played a turn already (``turns_played=0`` says otherwise)."""
    return hr.PositionSeat(hand, turns_played=facts.pop("turns_played", 1), **facts)
