"""Tournaments between bots: your own bots, fair seatings, repeatable results.

A :class:`Tournament` says what to play (the rules, the bots round the
table, how many matches, the seed); :func:`run` plays it, in this process,
in worker processes or on Ray, and returns a :class:`TournamentResult` with a
record of every match and round and a
:class:`~hand_rummy.tournament.summary.Summary`. One match alone is
``play_table(t, t.tables()[i])``. The same tournament gives the same records
whatever the number of workers and the backend. :doc:`/tournaments` shows it
at work.

>>> import hand_rummy as hr
>>> from hand_rummy import tournament
>>> class Drawer:
...     '''Draws from the stock whenever it may, else plays as GreedyBot.'''
...     def __init__(self, seed: int) -> None:
...         self.greedy = hr.GreedyBot(seed)
...     def choose(self, view: hr.PlayerView) -> hr.Action:
...         if hr.DrawStock() in view.legal_actions():
...             return hr.DrawStock()
...         return self.greedy.choose(view)
>>> t = tournament.Tournament(
...     "classic", players=2, bots=[Drawer, "random"], matches=2, seed=1, rounds=3
... )
>>> result = tournament.run(t)
>>> [m.seats for m in result.matches]
[('Drawer', 'random'), ('random', 'Drawer')]
>>> [len(m.rounds) for m in result.matches]
[3, 3]
"""

from __future__ import annotations

from hand_rummy.tournament.backends import BackendError
from hand_rummy.tournament.entrants import (
    BUILTIN_BOTS,
    ENTRY_POINT_GROUP,
    BotFactory,
    BotLoadError,
    Entrant,
    entrant,
    parse_bots,
)
from hand_rummy.tournament.playing import play_table
from hand_rummy.tournament.records import Failure, MatchRecord, RoundRecord
from hand_rummy.tournament.runner import TournamentResult, run
from hand_rummy.tournament.schedule import Table, Tournament, TournamentError
from hand_rummy.tournament.summary import BotLine, Summary, summarise

__all__ = [
    "BUILTIN_BOTS",
    "ENTRY_POINT_GROUP",
    "BackendError",
    "BotFactory",
    "BotLine",
    "BotLoadError",
    "Entrant",
    "Failure",
    "MatchRecord",
    "RoundRecord",
    "Summary",
    "Table",
    "Tournament",
    "TournamentError",
    "TournamentResult",
    "entrant",
    "parse_bots",
    "play_table",
    "run",
    "summarise",
]
