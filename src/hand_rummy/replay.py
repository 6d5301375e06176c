"""A replay page: one self-contained HTML file that steps through a round or a match.

:func:`html` writes the page; ``hand-rummy replay GAME.json --html OUT.html``
does the same from a round or match document (:mod:`hand_rummy.serialize`).
The page needs nothing but a browser: no network, no external script, font
or picture. It steps forward and back through every action (buttons, a
slider, the arrow keys, or a click in the list of moves), jumps to a turn or
a round, and shows the whole table (every hand face up) or what one seat
sees. Each action is described in words with the rules that permitted it:
an opening and its points against the bar, a lay-off, a take and what it
obliged, how the round ended and what it scored.

The address of the page keeps its place: ``OUT.html#step=12&seat=2`` opens
at step 12 (step 0 is the deal; step *n* is the position after the *n*-th
action of the whole game) as seat 2 sees it, ``seat=all`` shows the table.

The pictures are those of :mod:`hand_rummy.svg`. Each different card, and
each meld in each of its states, is drawn once in Python; the steps are a
compact JSON list that names them, and the page's script puts them
together. A round of Levantine Hand between four bots (about a hundred
actions) makes a page of about 150 kB.

>>> import hand_rummy as hr
>>> from hand_rummy.bots import play_round
>>> bots = [hr.GreedyBot(seat) for seat in range(3)]
>>> game = play_round(hr.Round.deal(hr.rulesets.romme, 3, seed=1), bots)
>>> page = html(game, names=["Anna", "Ben", "Cem"])
>>> page.startswith("<!DOCTYPE html>"), "<script src" in page
(True, False)
>>> first = steps(game, names=["Anna", "Ben", "Cem"])[1]
>>> first.text
'Anna discards ...'
>>> first.rules[0].text
'On that first turn the starter only discards, ...'
"""

from __future__ import annotations

import html as _html
import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from hand_rummy.actions import (
    Action,
    ClaimRedeal,
    Discard,
    DrawStock,
    Exchange,
    LayDown,
    LayOff,
    PassRedeal,
    TakeDiscard,
)
from hand_rummy.cards import Card, format_cards
from hand_rummy.errors import InvalidStateError, expect
from hand_rummy.match import Match
from hand_rummy.melds import MeldRules
from hand_rummy.round import Ending, Obligation, Phase, Round, TableMeld
from hand_rummy.rulebook import cite, rules_in_force
from hand_rummy.rules.ruleset import Ruleset
from hand_rummy.rules.wilds import MeldKind
from hand_rummy.verdict import Citation, Topic

__all__ = ["Step", "html", "steps"]


@attrs.frozen
class Step:
    """One position of a replay: the round after an action, and that action in words."""

    round: int
    """The round's number in the match, from 0 (always 0 for a single round)."""
    number: int
    """The action's number in its round, from 1; 0 for the deal."""
    turn: int
    """The turn of the round this action belongs to, from 1 (the deal belongs to turn 1)."""
    seat: int | None
    """Who acted (``None`` for the deal)."""
    action: Action | None
    text: str
    """What happened, in words that every player may read."""
    private: str
    """What only the acting player (and the whole table) sees: the card drawn, or ``""``."""
    rules: tuple[Citation, ...]
    """The rules in force that permitted the action, or that the position follows from."""
    game: Round
    """The round after the action."""


# --- the words ---------------------------------------------------------------------------


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


@attrs.frozen
class _Words:
    """Names the players and cites the rules in force, for one ruleset."""

    ruleset: Ruleset
    names: tuple[str, ...]
    in_force: frozenset[str]

    @classmethod
    def of(cls, ruleset: Ruleset, names: tuple[str, ...]) -> _Words:
        return cls(ruleset, names, frozenset(c.id for c in rules_in_force(ruleset)))

    def who(self, seat: int) -> str:
        return self.names[seat]

    def cite(self, *topics: Topic) -> list[Citation]:
        """The rules that answer ``topics``: those in force, where the rulebook has any."""
        found: list[Citation] = []
        for topic in topics:
            try:
                cited = cite(self.ruleset, topic)
            except KeyError:  # a topic that no rule of the rulebook answers
                continue
            # the rules in force; the rulebook's own answer where it has none in force (a
            # rule of the game that the preset's page does not list, such as Rommé's bare
            # first turn)
            chosen = [c for c in cited if c.id in self.in_force] or list(cited)
            found += [c for c in chosen if c not in found]
        return found

    def meld(self, laid: TableMeld) -> str:
        kind = "a run" if laid.kind is MeldKind.RUN else "a set"
        return f"[{laid.id}] {laid.meld.describe()} ({kind})"


def _new_melds(before: Round, after: Round) -> list[TableMeld]:
    ids = {m.id for m in before.table}
    return [m for m in after.table if m.id not in ids]


def _shape_topics(melds: Sequence[TableMeld]) -> list[Topic]:
    topics = [Topic.MELD_SHAPE]
    if any(m.kind is MeldKind.RUN for m in melds):
        topics.append(Topic.RUN)
    if any(m.kind is MeldKind.SET for m in melds):
        topics.append(Topic.SET)
    if any(r is not None for m in melds for r in m.meld.roles):
        topics += [Topic.WILD_ROLE, Topic.WILD_COUNT]
    return topics


def _lay_down(words: _Words, seat: int, before: Round, after: Round) -> tuple[str, list[Topic]]:
    laid = _new_melds(before, after)
    shown = " + ".join(words.meld(m) for m in laid)
    topics: list[Topic] = []
    bar = before.required_opening(seat)
    if bar is not None and len(after.openings) > len(before.openings):
        points = after.openings[-1].points
        text = f"{words.who(seat)} opens with {_count(points, 'point')}"
        if points >= bar:
            text += f", reaching the bar of {bar}: {shown}"
            topics += [Topic.OPENING, Topic.OPENING_BAR]
        else:
            text += f", below the bar of {bar}, allowed to one who goes out at once: {shown}"
            topics += [Topic.OPENING, Topic.OPENING_EXEMPTION]
        if after.current.obligation is Obligation.GO_OUT:
            text += "; now every card must go this turn"
    elif bar is None:
        text = f"{words.who(seat)} lays down {shown}"
        topics.append(Topic.ONE_MELD_PER_MOVE)
    else:  # a team whose partner opened, or a finish without an opening record
        text = f"{words.who(seat)} lays down {shown}"
    if before.current.obligation is Obligation.MELD_TAKEN and after.current.obligation is None:
        text += f", using the {before.current.taken} taken from the pile as the rule obliged"
        topics.append(Topic.TAKE_MELD)
    if before.current.obligation is Obligation.OPEN and after.current.obligation is None:
        text += f", opening with the {before.current.taken} taken from the pile as obliged"
        topics.append(Topic.TAKE_OPEN)
    if before.current.obligation is Obligation.USE_FREED_WILD and after.current.obligation is None:
        text += f", using the freed {before.current.freed}"
        topics.append(Topic.FREED_WILD)
    return text, topics + _shape_topics(laid)


def _lay_off(
    words: _Words, seat: int, action: LayOff, before: Round, after: Round
) -> tuple[str, list[Topic]]:
    target, now = before.meld(action.target), after.meld(action.target)
    role = f" as {action.role}" if action.role is not None else ""
    text = f"{words.who(seat)} lays off {action.card}{role} on meld {action.target}"
    if target is not None:
        owner = "their own" if target.owner == seat else f"{words.who(target.owner)}'s"
        text += f" ({owner} {'run' if target.kind is MeldKind.RUN else 'set'})"
    if now is not None:
        text += f": now {now.meld.describe()}"
    topics = [Topic.LAYOFF_GATE, Topic.LAYOFF]
    if action.role is not None:
        topics.append(Topic.WILD_ROLE)
    if before.current.obligation is Obligation.USE_FREED_WILD and after.current.obligation is None:
        topics.append(Topic.FREED_WILD)
    return text, topics


def _exchange(
    words: _Words, seat: int, action: Exchange, before: Round, after: Round
) -> tuple[str, list[Topic]]:
    old, new = before.meld(action.target), after.meld(action.target)
    text = (
        f"{words.who(seat)} puts {format_cards(action.cards)} into meld {action.target} "
        "in place of its wild card"
    )
    topics = [Topic.EXCHANGE_GATE, Topic.EXCHANGE]
    if old is not None and new is not None:
        freed = Counter(old.meld.cards) + Counter(action.cards) - Counter(new.meld.cards)
        if freed:
            text += f", taking {format_cards(sorted(freed.elements()))}"
        text += f": now {new.meld.describe()}"
        if old.kind is MeldKind.SET:
            topics.append(Topic.EXCHANGE_SET)
    if after.current.obligation is Obligation.USE_FREED_WILD:
        text += "; the wild won must be used this turn"
    topics.append(Topic.FREED_WILD)
    return text, topics


def _take(words: _Words, seat: int, before: Round, after: Round) -> tuple[str, list[Topic]]:
    text = f"{words.who(seat)} takes {before.discards[-1]} from the discard pile"
    topics = [Topic.TAKE]
    turn = after.current
    if turn.taken_demoted:
        text += "; a wild card taken from the pile plays as a natural card"
        topics.append(Topic.DEMOTION)
    if turn.obligation is Obligation.MELD_TAKEN:
        text += ", and must lay it down in a new meld this turn"
        topics.append(Topic.TAKE_MELD)
    elif turn.obligation is Obligation.OPEN:
        text += ", and, not having opened, must open with it this turn"
        topics.append(Topic.TAKE_OPEN)
    if before.ruleset.discard_take.no_rediscard and not turn.had_taken:
        text += "; it may not be discarded again this turn"
        topics.append(Topic.NO_REDISCARD)
    return text, topics


def _ending(words: _Words, after: Round) -> tuple[str, list[Topic]]:
    outcome = after.outcome
    if outcome is None:
        return "", []
    names = words.names
    topics: list[Topic] = [Topic.ROUND_OVER]
    if outcome.ending is Ending.REDEAL:
        return "The round does not count: the cards are dealt again.", [Topic.REDEAL]
    if outcome.ending is Ending.STOCK:
        text = "The stock has run out: the round is over"
        topics.append(Topic.STOCK)
    else:
        winner = names[outcome.winner] if outcome.winner is not None else "nobody"
        hand = outcome.ending is Ending.HAND
        text = f"{winner} has no card left and goes out" + (" with a Hand" if hand else "")
        topics.append(Topic.SCORE_WINNER)
        if hand:
            topics += [Topic.HAND, Topic.SCORE_HAND]
    score = outcome.score
    if score.scored:
        scores = ", ".join(f"{names[s]} {p}" for s, p in enumerate(score.scores))
        text += f". Scores (lower is better): {scores}"
        topics += [Topic.SCORE_CARDS, Topic.SCORE_NEVER_OPENED]
        if score.team_scores is not None:
            text += "; teams " + ", ".join(str(p) for p in score.team_scores)
            topics.append(Topic.SCORE_TEAMS)
    else:
        text += ", and it is not scored"
    return text + ".", topics


def _describe(
    words: _Words, action: Action, before: Round, after: Round
) -> tuple[str, str, list[Citation]]:
    """The action in public words, the private words (the card drawn), and its rules."""
    seat = before.turn
    who = words.who(seat)
    private = ""
    topics: list[Topic]
    if isinstance(action, PassRedeal):
        text, topics = f"{who} keeps the deal", [Topic.REDEAL]
    elif isinstance(action, ClaimRedeal):
        text, topics = f"{who} shows a weak deal and claims a new one", [Topic.REDEAL]
    elif isinstance(action, DrawStock):
        text = f"{who} draws from the stock, {_count(len(after.stock), 'card')} left"
        topics = [Topic.TURN]
        if after.reshuffles > before.reshuffles:
            text += " (the discard pile was shuffled into a new stock)"
            topics.append(Topic.STOCK)
        drawn = Counter(after.hand(seat)) - Counter(before.hand(seat))
        if drawn:
            private = f"{who} drew {format_cards(sorted(drawn.elements()))}"
    elif isinstance(action, TakeDiscard):
        text, topics = _take(words, seat, before, after)
    elif isinstance(action, LayDown):
        text, topics = _lay_down(words, seat, before, after)
    elif isinstance(action, LayOff):
        text, topics = _lay_off(words, seat, action, before, after)
    elif isinstance(action, Exchange):
        text, topics = _exchange(words, seat, action, before, after)
    else:
        text = f"{who} discards {action.card}"
        topics = [Topic.BARE_FIRST_TURN] if before.current.first_turn_bare else [Topic.TURN]
        if action.announce:
            text += f" and announces {_count(after.hand_size(seat), 'card')} left"
            topics.append(Topic.ANNOUNCE)
    if after.outcome is not None and before.outcome is None:
        ending, more = _ending(words, after)
        text += ". " + ending
        topics += more
    elif not text.endswith("."):
        text += "."
    return text, private, words.cite(*topics)


def _deal_words(words: _Words, game: Round, number: int, of: int) -> tuple[str, list[Citation]]:
    title = game.ruleset.title
    head = f"Round {number + 1} of {of}" if of > 1 else "The deal"
    text = f"{head} ({title}): {words.who(game.dealer)} deals"
    topics = [Topic.DECK, Topic.STARTER]
    if game.indicator is not None:
        text += f"; the indicator is {game.indicator}"
    text += f"; {game.rules.wilds.describe()}"
    if game.phase is Phase.REDEAL:
        text += f"; each seat may first claim a new deal, {words.who(game.turn)} first"
        topics.append(Topic.REDEAL)
    else:
        text += f"; {words.who(game.turn)} starts"
    return text + ".", words.cite(*topics)


def _rounds(game: Round | Match) -> list[Round]:
    if isinstance(game, Round):
        return [game]
    return [*game.rounds, *(() if game.current is None else (game.current,))]


def _names(names: Sequence[str] | None, players: int) -> tuple[str, ...]:
    if names is None:
        return tuple(f"Seat {s}" for s in range(players))
    expect(names, (list, tuple), "the names")
    for name in names:
        expect(name, str, "a player's name")
    if len(names) != players:
        raise InvalidStateError(f"{len(names)} names given for {players} players")
    return tuple(names)


def steps(game: Round | Match, *, names: Sequence[str] | None = None) -> tuple[Step, ...]:
    """Every position of ``game`` from the deal on, each action in words with its rules.

    A match gives the steps of each of its rounds in turn, each round starting with its
    deal (``number`` 0).
    """
    expect(game, (Round, Match), "the round or match")
    rounds = _rounds(game)
    seat_names = _names(names, rounds[0].players)
    words = _Words.of(rounds[0].ruleset, seat_names)
    out: list[Step] = []
    for index, played in enumerate(rounds):
        current = played.restart()
        text, rules = _deal_words(words, current, index, len(rounds))
        turn = 1
        out.append(Step(index, 0, turn, None, None, text, "", tuple(rules), current))
        for number, action in enumerate(played.history, 1):
            after = current.apply(action)
            text, private, rules = _describe(words, action, current, after)
            out.append(
                Step(index, number, turn, current.turn, action, text, private, tuple(rules), after)
            )
            if isinstance(action, Discard):  # a turn ends with its discard
                turn += 1
            current = after
    return tuple(out)


# --- the page ----------------------------------------------------------------------------


def _status(words: _Words, game: Round) -> str:
    if game.outcome is not None or game.phase is Phase.OVER:
        return "The round is over."
    doing = {
        Phase.REDEAL: "may claim a new deal",
        Phase.DRAW: "to draw",
        Phase.PLAY: "to play: meld, lay off, exchange, then discard",
    }[game.phase]
    return f"{words.who(game.turn)} {doing}."


class _Pool:
    """Each different picture once; the steps name them by number."""

    def __init__(self) -> None:
        self.items: list[list[Any]] = []
        self._index: dict[str, int] = {}

    def add(self, key: str, *item: Any) -> int:
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.items)
            self.items.append(list(item))
        return found


def _data(game: Round | Match, names: Sequence[str] | None, title: str) -> dict[str, Any]:
    from hand_rummy import svg  # noqa: PLC0415 (svg imports the engine)

    every = steps(game, names=names)
    first = every[0].game
    seat_names = _names(names, first.players)
    words = _Words.of(first.ruleset, seat_names)
    cards, melds, rules = _Pool(), _Pool(), _Pool()
    # every card in a hand and every meld on the table is shown again at every step, and
    # drawing its picture again each time took nearly all of a long game's time: each card
    # and each state of a meld is drawn once under each round's rules
    drawn_cards: dict[tuple[Card, MeldRules, bool], int] = {}
    drawn_melds: dict[tuple[TableMeld, MeldRules], int] = {}

    def card(face: Card, game: Round, demoted: bool = False) -> int:
        key = (face, game.rules, demoted)
        found = drawn_cards.get(key)
        if found is None:
            picture = svg.card(face, rules=game.rules, demoted=demoted)
            wild = not demoted and game.rules.is_wild(face)
            mark = "~" if demoted else ("*" if wild else "")
            found = cards.add(picture, face.ascii + mark, str(face), str(picture))
            drawn_cards[key] = found
        return found

    def hand(game: Round, seat: int) -> list[int]:
        left = Counter(game.demoted[seat])
        out = []
        for face in game.hand(seat):
            demoted = left[face] > 0
            left[face] -= demoted
            out.append(card(face, game, demoted))
        return out

    def meld(game: Round, laid: TableMeld) -> int:
        key = (laid, game.rules)
        found = drawn_melds.get(key)
        if found is None:
            picture = svg.meld(laid, rules=game.rules, names=seat_names)
            text = " ".join(c.ascii for c in laid.meld.cards)
            describe = laid.meld.describe()
            found = melds.add(picture, laid.id, laid.owner, text, describe, str(picture))
            drawn_melds[key] = found
        return found

    rounds: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    for step in every:
        game_now = step.game
        if step.number == 0:
            rounds.append(
                {
                    "first": len(out),
                    "dealer": game_now.dealer,
                    "indicator": (
                        None if game_now.indicator is None else card(game_now.indicator, game_now)
                    ),
                    "wild": game_now.rules.wilds.describe(),
                }
            )
        pile = game_now.discards
        out.append(
            {
                "r": step.round,
                "n": step.number,
                "t": step.turn,
                "a": step.seat,
                "d": step.text,
                "x": step.private,
                "c": [rules.add(c.id, c.id, c.text, c.anchor) for c in step.rules],
                "s": _status(words, game_now),
                "m": None if game_now.is_over else game_now.turn,
                "k": len(game_now.stock),
                "p": [card(c, game_now) for c in pile[-6:]],
                "pn": len(pile),
                "h": [hand(game_now, s) for s in range(game_now.players)],
                "o": [int(o) for o in game_now.opened],
                "tb": [meld(game_now, m) for m in game_now.table],
            }
        )
    return {
        "title": title,
        "names": list(seat_names),
        "rules": first.ruleset.title,
        "back": str(svg.back()),
        "cards": cards.items,
        "melds": melds.items,
        "cites": rules.items,
        "rounds": rounds,
        "steps": out,
    }


def _script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` at all."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for bad, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(bad, escape)
    return text


def html(
    game: Round | Match, *, names: Sequence[str] | None = None, title: str | None = None
) -> str:
    """The replay page of a round or a match: one HTML document, with everything inline.

    ``names`` names the seats (``Seat 0``, ``Seat 1``, ... by default) and
    ``title`` heads the page. Every text is escaped: a name is shown as it is
    written and never read as markup or script.
    """
    expect(game, (Round, Match), "the round or match (hand_rummy.Round or hand_rummy.Match)")
    ruleset = game.ruleset
    if title is None:
        kind = "match" if isinstance(game, Match) else "round"
        title = f"A {kind} of {ruleset.title}"
    expect(title, str, "the title")
    parts = {
        "TITLE": _html.escape(title),
        "CSS": _CSS,
        "JS": _JS,
        "DATA": _script_json(_data(game, names, title)),
    }
    # one pass, so that nothing put in is read again as a placeholder
    return re.sub(r"@([A-Z]+)@", lambda m: parts[m.group(1)], _PAGE)


_CSS = """
body{font-family:sans-serif;margin:0 auto;max-width:1100px;padding:8px 12px;color:#222;
background:#fafaf7}
h1{font-size:1.3em;margin:.2em 0}
#controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;padding:6px 0;
position:sticky;top:0;background:#fafaf7;border-bottom:1px solid #ddd;z-index:2}
#controls button{font-size:1em;min-width:2.4em}
#step-range{flex:1;min-width:160px}
#turn-input{width:4em}
#where{font-weight:bold;min-width:12em}
#desc{font-size:1.08em;margin:.6em 0 .2em}
#private{color:#1f6feb;margin:.1em 0}
#rules{margin:.2em 0 .6em;padding-left:1.2em;color:#555;font-size:.9em}
#rules code{color:#333}
#status{font-weight:bold;color:#1f6feb}
.row{display:flex;flex-wrap:wrap;gap:22px;align-items:flex-start;margin:.5em 0}
.cards{display:flex;align-items:flex-start}
.cards .card+.card{margin-left:-26px}
.card svg,.meld svg{display:block}
.label{font-size:.85em;color:#555;margin-bottom:3px}
.seat{margin:.5em 0;padding:4px 6px;border:1px solid #e0e0d8;border-radius:6px;background:#fff}
.seat.moving{border-color:#1f6feb;box-shadow:0 0 0 1px #1f6feb}
.seat .label{font-weight:bold;color:#222}
.hidden-hand{display:flex;align-items:center;gap:8px}
#table{display:flex;flex-wrap:wrap;gap:14px}
#moves{font-size:.88em;max-height:18em;overflow:auto;border:1px solid #e0e0d8;
background:#fff;padding:4px 4px 4px 2.6em;margin:.4em 0}
#moves li{cursor:pointer;padding:1px 2px}
#moves li.now{background:#dbe8ff}
#moves li:hover{text-decoration:underline}
"""

_JS = r"""
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  var S = D.steps, at = 0, seat = -1, listed = -1;
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function cardEl(i) {
    var c = D.cards[i], e = el("span", "card");
    e.innerHTML = c[2];
    e.setAttribute("data-card", c[0]);
    return e;
  }
  function cardsEl(list) {
    var row = el("div", "cards");
    list.forEach(function (i) { row.appendChild(cardEl(i)); });
    return row;
  }
  function labelled(text, child) {
    var box = el("div");
    box.appendChild(el("div", "label", text));
    box.appendChild(child);
    return box;
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function fill(id, nodes) {
    var box = $(id);
    while (box.firstChild) box.removeChild(box.firstChild);
    nodes.forEach(function (n) { box.appendChild(n); });
  }
  function moves(r) {
    var list = [];
    S.forEach(function (s, i) {
      if (s.r !== r) return;
      var li = el("li", "", s.d);
      li.setAttribute("data-step", i);
      li.value = s.n;
      li.addEventListener("click", function () { go(i); });
      list.push(li);
    });
    fill("moves", list);
    listed = r;
  }
  function render() {
    var s = S[at], round = D.rounds[s.r], shown = seat < 0 ? "all" : String(seat);
    document.body.setAttribute("data-step", at);
    document.body.setAttribute("data-seat", shown);
    $("step-range").value = at;
    $("turn-input").value = s.t;
    $("round-select").value = s.r;
    $("seat-select").value = shown;
    $("where").textContent = (D.rounds.length > 1 ? "Round " + (s.r + 1) + ", " : "") +
      (s.n === 0 ? "the deal" : "action " + s.n) + ", turn " + s.t +
      " (step " + at + " of " + (S.length - 1) + ")";
    $("desc").textContent = s.d;
    $("private").textContent = (s.x && (seat < 0 || seat === s.a)) ? s.x : "";
    fill("rules", s.c.map(function (i) {
      var c = D.cites[i], li = el("li");
      li.appendChild(el("code", "", c[0]));
      li.appendChild(document.createTextNode(": " + c[1]));
      li.setAttribute("data-rule", c[0]);
      return li;
    }));
    $("status").textContent = s.s;
    var piles = [];
    var stock = el("div", "hidden-hand");
    stock.appendChild(el("span", "card"));
    stock.firstChild.innerHTML = D.back;
    stock.appendChild(el("span", "", s.k));
    piles.push(labelled("Stock (" + plural(s.k, "card") + ")", stock));
    var pile = s.p.length ? cardsEl(s.p) : el("div", "", "empty");
    pile.id = "discards";
    piles.push(labelled("Discard pile (" + plural(s.pn, "card") +
      (s.pn > s.p.length ? ", the top " + s.p.length + " shown" : "") + ")", pile));
    if (round.indicator !== null) piles.push(labelled("Indicator", cardsEl([round.indicator])));
    piles.push(labelled("Wild cards", el("div", "", round.wild)));
    fill("piles", piles);
    fill("seats", s.h.map(function (h, i) {
      var box = el("div", "seat" + (s.m === i ? " moving" : ""));
      box.setAttribute("data-seat", i);
      var line = D.names[i] + (seat === i ? " (you)" : "") + " · " + plural(h.length, "card") +
        " · " + (s.o[i] ? "opened" : "not opened") + (s.m === i ? " · to move" : "");
      box.appendChild(el("div", "label", line));
      if (seat < 0 || seat === i) {
        var row = cardsEl(h);
        row.className += " hand";
        box.appendChild(row);
      } else {
        var back = el("div", "hidden-hand");
        back.appendChild(el("span", "card"));
        back.firstChild.innerHTML = D.back;
        back.appendChild(el("span", "", plural(h.length, "card") + ", face down"));
        box.appendChild(back);
      }
      return box;
    }));
    fill("table", s.tb.length ? s.tb.map(function (i) {
      var m = D.melds[i], box = el("div", "meld");
      box.innerHTML = m[4];
      box.setAttribute("data-meld", m[0]);
      box.setAttribute("data-owner", m[1]);
      box.setAttribute("data-cards", m[2]);
      box.setAttribute("title", "Meld " + m[0] + ": " + m[3]);
      return box;
    }) : [el("div", "label", "No melds on the table yet")]);
    if (listed !== s.r) moves(s.r);
    Array.prototype.forEach.call($("moves").children, function (li) {
      var now = Number(li.getAttribute("data-step")) === at;
      li.className = now ? "now" : "";
      if (now && li.scrollIntoView) li.scrollIntoView({block: "nearest"});
    });
    try { history.replaceState(null, "", "#step=" + at + "&seat=" + shown); } catch (e) {}
  }
  function go(i) {
    at = Math.max(0, Math.min(S.length - 1, Number(i) || 0));
    render();
  }
  function read() {
    var q = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var p = kv.split("=");
      if (p.length === 2) q[decodeURIComponent(p[0])] = decodeURIComponent(p[1]);
    });
    if (q.seat !== undefined) {
      var n = parseInt(q.seat, 10);
      seat = (n >= 0 && n < D.names.length) ? n : -1;
    }
    if (q.step !== undefined) go(parseInt(q.step, 10)); else render();
  }
  function jumpTurn() {
    var r = S[at].r, t = parseInt($("turn-input").value, 10);
    for (var i = 0; i < S.length; i++) {
      if (S[i].r === r && S[i].t >= t) { go(i); return; }
    }
  }
  document.title = D.title;
  $("heading").textContent = D.title;
  $("ruleset").textContent = D.rules + " · " + plural(D.names.length, "player") + ": " +
    D.names.join(", ");
  var seats = $("seat-select");
  seats.appendChild(el("option", "", "The whole table")).value = "all";
  D.names.forEach(function (name, i) {
    seats.appendChild(el("option", "", "What " + name + " sees")).value = String(i);
  });
  var rounds = $("round-select");
  D.rounds.forEach(function (r, i) {
    rounds.appendChild(el("option", "", "Round " + (i + 1))).value = String(i);
  });
  if (D.rounds.length < 2) rounds.hidden = true;
  $("step-range").max = S.length - 1;
  $("first").addEventListener("click", function () { go(0); });
  $("back").addEventListener("click", function () { go(at - 1); });
  $("forward").addEventListener("click", function () { go(at + 1); });
  $("last").addEventListener("click", function () { go(S.length - 1); });
  $("step-range").addEventListener("input", function () { go(this.value); });
  $("turn-go").addEventListener("click", jumpTurn);
  $("turn-input").addEventListener("keydown", function (e) { if (e.key === "Enter") jumpTurn(); });
  rounds.addEventListener("change", function () { go(D.rounds[Number(this.value)].first); });
  seats.addEventListener("change", function () {
    seat = this.value === "all" ? -1 : Number(this.value);
    render();
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && /INPUT|SELECT/.test(e.target.tagName) && e.target.type !== "range") return;
    if (e.key === "ArrowRight") go(at + 1);
    else if (e.key === "ArrowLeft") go(at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(S.length - 1);
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", read);
  read();
  document.body.setAttribute("data-ready", "1");
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>@TITLE@</title>
<style>@CSS@</style>
</head>
<body>
<h1 id="heading">@TITLE@</h1>
<div id="ruleset"></div>
<noscript><p>This replay page needs JavaScript to step through the game.</p></noscript>
<div id="controls">
<button id="first" type="button" title="The deal (Home)">|◀◀</button>
<button id="back" type="button" title="One action back (←)">◀</button>
<button id="forward" type="button" title="One action forward (→)">▶</button>
<button id="last" type="button" title="The last action (End)">▶▶|</button>
<input id="step-range" type="range" min="0" value="0" aria-label="Step">
<label>Turn <input id="turn-input" type="number" min="1" value="1"></label>
<button id="turn-go" type="button">Go</button>
<select id="round-select" aria-label="Round"></select>
<select id="seat-select" aria-label="Whose view"></select>
<span id="where"></span>
</div>
<p id="desc"></p>
<p id="private"></p>
<ul id="rules"></ul>
<p id="status"></p>
<div id="piles" class="row"></div>
<div id="seats"></div>
<h2 class="label">Table</h2>
<div id="table"></div>
<h2 class="label">Moves of this round</h2>
<ol id="moves"></ol>
<script id="replay-data" type="application/json">@DATA@</script>
<script>@JS@</script>
</body>
</html>
"""
