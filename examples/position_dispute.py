"""Settle an argument about a position, without replaying the round.

Three friends play Levantine Hand with the 8♣ turned. Meld 3 on the table is
9♥ 10♥ J♥. Sami has opened, took the 7♥ from the discard pile and now holds
5♥ 6♥ 7♥ 8♥ Q♠ Q♦ 2♠ 3♠ 4♦. May he lay off the 8♥ on meld 3 first? Nobody
remembers the deal, the other hands or the discard pile below its top card,
and nobody needs to: the position is enough.

Run it: ``python examples/position_dispute.py``.
"""

from __future__ import annotations

import hand_rummy as hr


def main() -> None:
    spot = hr.Position(
        hr.rulesets.levant,
        indicator="8C",
        players=[hr.PositionSeat("5H 6H 7H 8H QS QD 2S 3S 4D"), 9, 11],
        table=[
            hr.PositionMeld(1, 1, "KS KD KH"),
            hr.PositionMeld(2, 0, "4C 5C 6C"),
            hr.PositionMeld(3, 2, "9H 10H JH"),
        ],
        discards="5D",
        discard_size=20,
        turn=0,
        phase=hr.Phase.PLAY,
        current=hr.PositionTurn(taken="7H"),
    )
    game = hr.Round.from_position(spot)
    eight = hr.LayOff(3, hr.parse_card("8H"))
    verdict = game.check(eight)
    print(f"Sami lays off 8♥ on meld 3 now: {'allowed' if verdict.ok else 'refused'}")
    for violation in verdict.violations:
        print(f"  {violation.code.value}: {violation.message}")
    print("What he may do instead:")
    for action in game.legal_actions():
        print(f"  {action}")
    game = game.apply(hr.LayDown((hr.Meld.of("5H 6H 7H"),)))
    after = "allowed" if game.check(eight).ok else "refused"
    print(f"After laying down 5♥ 6♥ 7♥, the 8♥ on meld 3: {after}")


if __name__ == "__main__":
    main()
