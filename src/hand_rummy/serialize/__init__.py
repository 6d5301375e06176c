"""Versioned JSON documents for actions, rounds, player views, positions and matches.

Everything here turns library values into plain JSON values (``dict``,
``list``, ``str``, ``int``, ``bool``, ``None``) and back. Cards are written in
ASCII notation (``"10H"``, ``"JK"``); reading accepts any notation that
:func:`~hand_rummy.cards.parse_card` accepts.

* A meld is ``{"cards": [...], "roles": {"1": "8H"}, "demoted": [...]}``
  (``roles`` and ``demoted`` are left out when empty).
* An action is an object with a ``"type"``: ``draw``, ``take``, ``lay_down``
  (``melds``), ``lay_off`` (``target``, ``card``, optional ``role``),
  ``exchange`` (``target``, ``cards``), ``discard`` (``card``, optional
  ``announce``), ``claim_redeal`` or ``pass_redeal``.
* A ruleset is ``{"preset": "levant", "variants": ["opening_71"]}``. Only a
  preset with named variants can be written: a ruleset changed with
  :meth:`~hand_rummy.rules.ruleset.Ruleset.with_` has no name to write.
* A round (``"format": "hand-rummy/round"``, version 1) is its rules, the
  deal, the history of actions and a snapshot of the current position
  (``"state"``). Reading deals again with
  :meth:`~hand_rummy.round.Round.from_deal`, replays the history with
  :meth:`~hand_rummy.round.Round.apply` and checks that the snapshot (when
  present) matches the replayed position, so a document whose parts disagree
  is refused.
* A player view (``"format": "hand-rummy/view"``, version 1) is everything
  in a :class:`~hand_rummy.round.PlayerView`, a finished round's scores line by
  line included (as :func:`breakdown_to_json` writes them), since no replay can
  rebuild them from a view.
* A position (``"format": "hand-rummy/position"``, version 1) is a
  :class:`~hand_rummy.position.Position`: a round as it stands, without its deal
  or history, in which unknown cards may be left out (:doc:`/positions`).

Reading a malformed document raises
:class:`~hand_rummy.errors.InvalidStateError`, or
:class:`~hand_rummy.errors.CardParseError` for a card that cannot be read;
the message starts with where the problem is (``history[3].card: ...``).

The package has a module for each kind of document (:mod:`.rounds`, :mod:`.views`,
:mod:`.positions`, :mod:`.matches`), one for the parts they share (:mod:`.parts`), one
for the readers of JSON values (:mod:`.common`) and one for JSON text (:mod:`.json_text`);
every public name is here too.

>>> import hand_rummy as hr
>>> action_to_json(hr.LayOff(3, hr.parse_card("JK"), role=hr.parse_card("8H")))
{'type': 'lay_off', 'target': 3, 'card': 'JK', 'role': '8H'}
>>> action_from_json({"type": "discard", "card": "KS"})
Discard(card=Card.parse('KS'), announce=False, demoted=False)
>>> game = hr.Round.deal(hr.rulesets.romme, 2, seed=1)
>>> game = game.apply(hr.Discard(hr.parse_card("6C")))
>>> doc = round_to_json(game)
>>> doc["format"], doc["version"], doc["rules"], doc["history"]
('hand-rummy/round', 1, {'preset': 'romme', 'variants': []}, [{'type': 'discard', 'card': '6C'}])
>>> round_from_json(doc) == game
True
>>> doc["state"]["turn"] = 0
>>> round_from_json(doc)
Traceback (most recent call last):
...
hand_rummy.errors.InvalidStateError: state.turn does not match the replayed round: 0 here, 1 in ...
"""

from __future__ import annotations

from hand_rummy.serialize.common import (
    MATCH_FORMAT,
    POSITION_FORMAT,
    ROUND_FORMAT,
    VERSION,
    VIEW_FORMAT,
    card_from_json,
)
from hand_rummy.serialize.json_text import dumps, loads
from hand_rummy.serialize.matches import match_from_json, match_to_json
from hand_rummy.serialize.parts import (
    action_from_json,
    action_to_json,
    breakdown_to_json,
    meld_from_json,
    meld_to_json,
    rules_from_json,
    rules_to_json,
)
from hand_rummy.serialize.positions import (
    position_form_from_json,
    position_from_json,
    position_to_json,
)
from hand_rummy.serialize.rounds import round_from_json, round_to_json
from hand_rummy.serialize.views import view_from_json, view_to_json

__all__ = [
    "MATCH_FORMAT",
    "POSITION_FORMAT",
    "ROUND_FORMAT",
    "VERSION",
    "VIEW_FORMAT",
    "action_from_json",
    "action_to_json",
    "breakdown_to_json",
    "card_from_json",
    "dumps",
    "loads",
    "match_from_json",
    "match_to_json",
    "meld_from_json",
    "meld_to_json",
    "position_form_from_json",
    "position_from_json",
    "position_to_json",
    "round_from_json",
    "round_to_json",
    "rules_from_json",
    "rules_to_json",
    "view_from_json",
    "view_to_json",
]
