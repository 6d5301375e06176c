"""Pictures: cards, hands, melds, the table and a player's view, drawn as SVG.

Every function here returns an :class:`Svg`, a complete SVG document as a
string. Write it to a ``.svg`` file, put it into a web page, or leave it as
the last value of a notebook cell: notebooks show it as a picture. Cards,
melds, table melds, rounds and views have a ``_repr_svg_`` method that calls
these functions, so they show themselves as pictures too.

>>> import hand_rummy as hr
>>> from hand_rummy import svg
>>> picture = svg.card(hr.parse_card("7H"))
>>> picture.startswith("<svg"), "7♥ (seven of hearts)" in picture
(True, True)

The drawings need nothing but a viewer of SVG: no fonts or images are
fetched (the text uses the viewer's generic sans-serif family, the suit
signs are drawn as shapes), hearts and diamonds are red, spades and clubs
black, and the joker purple. A wild card has a golden frame and a star under
its index; in a meld, a label under it names the card it stands for (its
*role*). A wild taken from the discard pile, which plays as a natural card
(a *demoted* wild), has a grey dashed frame and a crossed-out star. Every
drawing and every card in it carries a ``<title>``, and the document an
``aria-label``, so screen readers can say what is shown.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Sequence

import attrs

from hand_rummy.cards import Card, Rank, Suit
from hand_rummy.errors import InvalidStateError, expect, number
from hand_rummy.melds import CardsLike, Meld, MeldRules, read_cards
from hand_rummy.state import Ending, Outcome, Phase, RoundState, TableMeld
from hand_rummy.visibility import Seen

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "Svg",
    "back",
    "card",
    "hand",
    "meld",
    "table",
    "view",
    "whole_round",
]

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

CARD_WIDTH = 50
"""The width of a card, in the drawings' own units (pixels at ``scale=1``)."""
CARD_HEIGHT = 70
"""The height of a card, in the same units."""

_HAND_STEP = 24  # a hand's cards overlap, leaving each one's index in view
_MELD_STEP = CARD_WIDTH + 4  # a meld's cards lie side by side
_BADGE_GAP = 3
_BADGE_HEIGHT = 15
_PAD = 8

_RED = "#c8102e"
_BLACK = "#1b1b1b"
_JOKER = "#6a1b9a"
_GOLD = "#b8860b"
_WILD_FILL = "#fff6d5"
_GREY = "#6b6b6b"
_BORDER = "#8a8a8a"
_BACK = "#2e5c99"
_TEXT = "#222222"
_MUTED = "#5c5c5c"
_PAPER = "#f5f5f0"
_TURN = "#1f6feb"
_FONT = "sans-serif"

_RANK_NAMES = {
    Rank.ACE: "ace",
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
}
_SUIT_NAMES = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}


def _fmt(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _circle(cx: float, cy: float, r: float) -> str:
    """A circle as a path: two half arcs."""
    return f"M{cx - r} {cy}a{r} {r} 0 1 0 {2 * r} 0a{r} {r} 0 1 0 {-2 * r} 0Z"


def _star_path(cx: float = 50, cy: float = 53, outer: float = 48, inner: float = 20) -> str:
    points = []
    for k in range(10):
        radius = outer if k % 2 == 0 else inner
        angle = math.pi * k / 5 - math.pi / 2
        points.append(
            f"{_fmt(cx + radius * math.cos(angle))} {_fmt(cy + radius * math.sin(angle))}"
        )
    return "M" + "L".join(points) + "Z"


# Each suit sign drawn in a 100 x 100 box.
_SUIT_PATHS = {
    Suit.HEARTS: (
        "M50 92C22 70 2 52 2 30C2 14 14 4 28 4C38 4 46 10 50 20C54 10 62 4 72 4"
        "C86 4 98 14 98 30C98 52 78 70 50 92Z"
    ),
    Suit.DIAMONDS: "M50 2L88 50L50 98L12 50Z",
    Suit.SPADES: (
        "M50 4C32 26 4 42 4 64C4 78 15 86 28 86C37 86 44 82 47 76C46 86 42 92 34 98"
        "L66 98C58 92 54 86 53 76C56 82 63 86 72 86C85 86 96 78 96 64C96 42 68 26 50 4Z"
    ),
    Suit.CLUBS: (
        _circle(50, 27, 21)
        + _circle(26, 60, 21)
        + _circle(74, 60, 21)
        + _circle(50, 55, 12)
        + "M46 58C46 80 42 90 34 98L66 98C58 90 54 80 54 58Z"
    ),
}
_STAR = _star_path()


class Svg(str):
    """An SVG document as text. Notebooks show it as a picture (``_repr_svg_``)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


# --- words ------------------------------------------------------------------------------


def _name(card: Card) -> str:
    """The card and its name in words, e.g. ``7♥ (seven of hearts)``."""
    if card.rank is None or card.suit is None:
        return "JK (joker)"
    return f"{card} ({_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card.suit]})"


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _colour(card: Card) -> str:
    if card.suit is None:
        return _JOKER
    return _RED if card.suit.is_red else _BLACK


def _clean(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (control characters, lone surrogates)."""
    return "".join(
        c
        for c in text
        if c in "\t\n\r"
        or "\x20" <= c <= "\ud7ff"
        or "\ue000" <= c <= "\ufffd"
        or c >= "\U00010000"
    )


def _width_of(text: str, size: float) -> float:
    """A generous guess at the width of ``text`` in a sans-serif font of ``size``."""
    return len(text) * size * 0.55


# --- elements and boxes -----------------------------------------------------------------


def _el(parent: ET.Element, tag: str, **attributes: str | float) -> ET.Element:
    """A child element; ``font_size`` becomes ``font-size`` and numbers are written short."""
    element = ET.SubElement(parent, tag)
    for key, value in attributes.items():
        element.set(key.replace("_", "-"), value if isinstance(value, str) else _fmt(value))
    return element


def _title(parent: ET.Element, text: str) -> None:
    ET.SubElement(parent, "title").text = _clean(text)


def _text(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    *,
    size: float = 12,
    fill: str = _TEXT,
    bold: bool = False,
    anchor: str = "start",
    italic: bool = False,
) -> ET.Element:
    element = _el(parent, "text", x=x, y=y, font_size=size, fill=fill)
    if bold:
        element.set("font-weight", "bold")
    if italic:
        element.set("font-style", "italic")
    if anchor != "start":
        element.set("text-anchor", anchor)
    element.text = _clean(text)
    return element


class _Box:
    """A group of drawing with its size, to be placed inside a larger one."""

    __slots__ = ("g", "height", "width")

    def __init__(self, width: float, height: float, title: str | None = None) -> None:
        self.g = ET.Element("g")
        self.width = width
        self.height = height
        if title is not None:
            _title(self.g, title)

    def put(self, child: _Box, x: float, y: float, scale: float = 1) -> None:
        moves = []
        if x or y:
            moves.append(f"translate({_fmt(x)} {_fmt(y)})")
        if scale != 1:
            moves.append(f"scale({_fmt(scale)})")
        if moves:
            child.g.set("transform", " ".join(moves))
        self.g.append(child.g)


def _row(boxes: Sequence[_Box], gap: float) -> _Box:
    out = _Box(
        sum(b.width for b in boxes) + gap * max(len(boxes) - 1, 0),
        max((b.height for b in boxes), default=0),
    )
    x = 0.0
    for box in boxes:
        out.put(box, x, 0)
        x += box.width + gap
    return out


def _column(boxes: Sequence[_Box], gap: float) -> _Box:
    out = _Box(
        max((b.width for b in boxes), default=0),
        sum(b.height for b in boxes) + gap * max(len(boxes) - 1, 0),
    )
    y = 0.0
    for box in boxes:
        out.put(box, 0, y)
        y += box.height + gap
    return out


def _flow(boxes: Sequence[_Box], width: float, gap: float) -> _Box:
    """Boxes left to right, starting a new line where the next one would pass ``width``."""
    lines: list[list[_Box]] = [[]]
    used = 0.0
    for box in boxes:
        if lines[-1] and used + gap + box.width > width:
            lines.append([])
            used = 0.0
        used += (gap if lines[-1] else 0) + box.width
        lines[-1].append(box)
    return _column([_row(line, gap) for line in lines if line], gap)


def _label(text: str, *, size: float = 11, fill: str = _MUTED, bold: bool = False) -> _Box:
    box = _Box(_width_of(text, size), size * 1.3)
    _text(box.g, 0, size, text, size=size, fill=fill, bold=bold)
    return box


def _labelled(label: str, content: _Box, *, title: str | None = None) -> _Box:
    inner = _column([_label(label), content], 4)
    out = _Box(inner.width, inner.height, title)
    out.put(inner, 0, 0)
    return out


# --- cards ------------------------------------------------------------------------------


@attrs.frozen
class _Face:
    """One card as drawn: whether it is wild or demoted, and what it stands for."""

    card: Card
    wild: bool = False
    demoted: bool = False
    role: Card | None = None
    """The card a wild stands for (or the Ace a demoted joker stands for)."""
    counts_as: Card | None = None
    """A joker that is not wild: the natural card it counts as."""

    @property
    def badge(self) -> bool:
        return self.role is not None or self.counts_as is not None or self.demoted

    def describe(self) -> str:
        parts = [_name(self.card)]
        if self.wild:
            parts.append("wild")
        if self.demoted:
            parts.append("demoted: taken from the discard pile, it plays as a natural card")
        if self.role is not None:
            parts.append(f"stands for {_name(self.role)}")
        elif self.counts_as is not None:
            parts.append(f"counts as {_name(self.counts_as)}")
        return ", ".join(parts)

    def short(self) -> str:
        """The card in the short notation, with its role: ``A♣(=8♥)``."""
        text = str(self.card)
        if self.role is not None:
            text += f"(={self.role})"
        elif self.counts_as is not None:
            text += f"(={self.counts_as})"
        if self.demoted:
            text += "(demoted)"
        return text


def _pip(parent: ET.Element, card: Card, x: float, y: float, *, size: float, fill: str) -> None:
    """The suit sign of ``card`` (a star for the joker) in a ``size`` square at ``x``, ``y``."""
    shape = _STAR if card.suit is None else _SUIT_PATHS[card.suit]
    _el(
        parent,
        "path",
        d=shape,
        fill=fill,
        transform=f"translate({_fmt(x)} {_fmt(y)}) scale({_fmt(size / 100)})",
    )


def _rank_text(card: Card) -> str:
    return "JK" if card.rank is None else card.rank.label


def _corner(parent: ET.Element, card: Card) -> ET.Element:
    """The index in a card's corner: rank above suit sign."""
    corner = _el(parent, "g")
    label = _rank_text(card)
    text = _text(corner, 4, 17, label, size=13 if card.is_joker else 15, fill=_colour(card))
    text.set("font-weight", "bold")
    if len(label) > 1:
        text.set("letter-spacing", "-1")
    _pip(corner, card, 4, 20, size=10, fill=_colour(card))
    return corner


def _marker(parent: ET.Element, face: _Face) -> None:
    """Under the index: a gold star for a wild, a crossed-out grey star for a demoted one."""
    if face.wild:
        _el(
            parent,
            "path",
            d=_STAR,
            fill=_GOLD,
            transform="translate(4 33) scale(0.1)",
        )
    elif face.demoted:
        _el(
            parent,
            "path",
            d=_STAR,
            fill="none",
            stroke=_GREY,
            stroke_width=8,
            transform="translate(4 33) scale(0.1)",
        )
        _el(parent, "path", d="M3 44L15 32", stroke=_GREY, stroke_width=1.5)


def _badge(parent: ET.Element, face: _Face) -> None:
    """The label under a card in a meld: the card it stands for, or "natural"."""
    shown = face.role if face.role is not None else face.counts_as
    wild = face.wild
    top = CARD_HEIGHT + _BADGE_GAP
    _el(
        parent,
        "rect",
        x=2,
        y=top + 0.5,
        width=CARD_WIDTH - 4,
        height=_BADGE_HEIGHT - 1,
        rx=3,
        fill="#fff1c1" if wild else "#ececec",
        stroke=_GOLD if wild else _GREY,
        stroke_width=1,
    )
    base = top + 11.5
    if shown is None:
        _text(parent, CARD_WIDTH / 2, base, "natural", size=9.5, fill=_GREY, anchor="middle")
        return
    label = _rank_text(shown)
    width = 8 + _width_of(label, 12) * 0.9 + 10
    x = (CARD_WIDTH - width) / 2
    _text(parent, x, base, "=", size=11, fill=_MUTED)
    rank = _text(parent, x + 8, base, label, size=12, fill=_colour(shown), bold=True)
    if len(label) > 1:
        rank.set("letter-spacing", "-1")
    _pip(
        parent, shown, x + 8 + _width_of(label, 12) * 0.9 + 1, top + 3, size=9, fill=_colour(shown)
    )


def _card_box(face: _Face, *, badge: bool = False) -> _Box:
    card = face.card
    with_badge = badge and face.badge
    box = _Box(CARD_WIDTH, CARD_HEIGHT + (_BADGE_GAP + _BADGE_HEIGHT if with_badge else 0))
    _title(box.g, face.describe())
    stroke, width = (_GOLD, 2.0) if face.wild else ((_GREY, 1.5) if face.demoted else (_BORDER, 1))
    frame = _el(
        box.g,
        "rect",
        x=width / 2,
        y=width / 2,
        width=CARD_WIDTH - width,
        height=CARD_HEIGHT - width,
        rx=5,
        fill=_WILD_FILL if face.wild else "#ffffff",
        stroke=stroke,
        stroke_width=width,
    )
    if face.demoted:
        frame.set("stroke-dasharray", "4 2")
    _corner(box.g, card)
    _corner(box.g, card).set("transform", f"rotate(180 {CARD_WIDTH / 2} {CARD_HEIGHT / 2})")
    size = 24 if card.is_joker else 20
    _pip(
        box.g,
        card,
        (CARD_WIDTH - size) / 2,
        (CARD_HEIGHT - size) / 2 + 1,
        size=size,
        fill=_colour(card),
    )
    _marker(box.g, face)
    if with_badge:
        _badge(box.g, face)
    return box


def _back_box(title: str = "a face-down card") -> _Box:
    box = _Box(CARD_WIDTH, CARD_HEIGHT, title)
    _el(
        box.g,
        "rect",
        x=0.5,
        y=0.5,
        width=CARD_WIDTH - 1,
        height=CARD_HEIGHT - 1,
        rx=5,
        fill=_BACK,
        stroke="#1d3d69",
        stroke_width=1,
    )
    _el(
        box.g,
        "rect",
        x=4,
        y=4,
        width=CARD_WIDTH - 8,
        height=CARD_HEIGHT - 8,
        rx=3,
        fill="none",
        stroke="#c9d6ea",
        stroke_width=1.2,
    )
    mid_x, mid_y = CARD_WIDTH / 2, CARD_HEIGHT / 2
    _el(
        box.g,
        "path",
        d=f"M{mid_x} {mid_y - 14}L{mid_x + 10} {mid_y}L{mid_x} {mid_y + 14}L{mid_x - 10} {mid_y}Z",
        fill="none",
        stroke="#c9d6ea",
        stroke_width=1.2,
    )
    return box


def _empty_box(text: str) -> _Box:
    """A dashed outline where a card would lie, for an empty hand or pile."""
    box = _Box(CARD_WIDTH, CARD_HEIGHT, text)
    _el(
        box.g,
        "rect",
        x=0.5,
        y=0.5,
        width=CARD_WIDTH - 1,
        height=CARD_HEIGHT - 1,
        rx=5,
        fill="none",
        stroke="#b0b0b0",
        stroke_dasharray="4 3",
    )
    _text(box.g, CARD_WIDTH / 2, CARD_HEIGHT / 2 + 4, "none", size=10, fill=_MUTED, anchor="middle")
    return box


def _faces_row(faces: Sequence[_Face], step: float, *, badges: bool) -> _Box:
    if not faces:
        return _empty_box("no cards")
    with_badge = badges and any(f.badge for f in faces)
    row = _Box(
        step * (len(faces) - 1) + CARD_WIDTH,
        CARD_HEIGHT + (_BADGE_GAP + _BADGE_HEIGHT if with_badge else 0),
    )
    for i, face in enumerate(faces):
        row.put(_card_box(face, badge=badges), i * step, 0)
    return row


def _meld_faces(cards: Meld, rules: MeldRules | None) -> list[_Face]:
    faces = []
    for i, (card, declared) in enumerate(zip(cards.cards, cards.roles)):
        demoted = i in cards.demoted
        if rules is not None:
            wild = not demoted and rules.is_wild(card)
        else:
            wild = not demoted and declared is not None
        role, counts_as = declared, None
        if not wild and not demoted:
            natural = declared or (rules.wilds.natural_as(card) if rules is not None else card)
            role, counts_as = None, (natural if natural != card else None)
        faces.append(_Face(card, wild=wild, demoted=demoted, role=role, counts_as=counts_as))
    return faces


def _hand_faces(
    cards: Sequence[Card], rules: MeldRules | None, demoted: Iterable[Card]
) -> list[_Face]:
    left = Counter(demoted)
    faces = []
    for card in cards:
        is_demoted = left[card] > 0
        if is_demoted:
            left[card] -= 1
        wild = not is_demoted and rules is not None and rules.is_wild(card)
        natural = rules.wilds.natural_as(card) if rules is not None else card
        counts_as = natural if natural != card and not wild else None
        faces.append(_Face(card, wild=wild, demoted=is_demoted, counts_as=counts_as))
    if +left:
        missing = " ".join(str(c) for c in sorted(left.elements()))
        raise InvalidStateError(f"the demoted {missing} is not in the hand")
    return faces


_SCALES = (0.01, 100.0)
"""The scales allowed: beyond them a card is under a pixel wide, or its size is no longer
a number a viewer can take (1e308 times a width is infinite)."""


_WIDTHS = (1.0, 100_000.0)
"""The table widths allowed, in the drawings' units: under one there is no width to wrap
at, and every table fits on one line long before the top."""


def _number(value: float, what: str, bounds: tuple[float, float]) -> float:
    expect(value, (int, float), what)
    low, high = bounds
    # compared, not converted: NaN fails both bounds, and float() of a huge int overflows
    if not low <= value <= high:
        text = number(value)  # an int's size in words where repr() would refuse it
        shown = f"{text[:19]}…" if len(text) > 20 and text[-1].isdigit() else text
        raise InvalidStateError(f"{what} must be a number from {low:g} to {high:g}, not {shown}")
    return float(value)


def _scale(scale: float) -> float:
    return _number(scale, "the scale", _SCALES)


def _rules(rules: MeldRules | None) -> MeldRules | None:
    if rules is not None:
        expect(rules, MeldRules, "the rules (MeldRules.of(ruleset, indicator))")
    return rules


def _document(box: _Box, title: str, *, scale: float, paper: bool) -> Svg:
    pad = _PAD if paper else 0
    width, height = box.width + 2 * pad, box.height + 2 * pad
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "version": "1.1",
            "width": _fmt(round(width * scale, 2)),
            "height": _fmt(round(height * scale, 2)),
            "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}",
            "role": "img",
            "aria-label": _clean(title),
            "font-family": _FONT,
        },
    )
    _title(root, title)
    if paper:
        _el(
            root,
            "rect",
            x=0.5,
            y=0.5,
            width=width - 1,
            height=height - 1,
            rx=6,
            fill=_PAPER,
            stroke="#d8d8d0",
        )
    first = box.g[0] if len(box.g) else None
    if first is not None and first.tag == "title" and first.text == _clean(title):
        box.g.remove(first)  # the document's own title says it already
    outer = _Box(width, height)
    outer.put(box, pad, pad)
    root.extend(list(outer.g))
    return Svg(ET.tostring(root, encoding="unicode"))


# --- public drawings --------------------------------------------------------------------


def card(
    card: Card | str,
    *,
    rules: MeldRules | None = None,
    role: Card | str | None = None,
    demoted: bool = False,
    scale: float = 1.0,
) -> Svg:
    """One card. With ``rules``, a wild card is marked as wild; ``role`` is the card it stands for.

    ``demoted`` marks a wild taken from the discard pile, which plays as a
    natural card.

    >>> import hand_rummy as hr
    >>> rules = hr.MeldRules.of(hr.rulesets.levant, "8C")
    >>> picture = card("AC", rules=rules, role="8H")
    >>> "A♣ (ace of clubs), wild, stands for 8♥ (eight of hearts)" in picture
    True
    """
    (face,) = read_cards([card])
    rules = _rules(rules)
    expect(demoted, bool, "demoted")
    shown = None if role is None else read_cards([role])[0]
    wild = not demoted and ((rules is not None and rules.is_wild(face)) or shown is not None)
    counts_as = None
    if not wild and not demoted:
        natural = shown or (rules.wilds.natural_as(face) if rules is not None else face)
        counts_as, shown = (natural if natural != face else None), None
    drawn = _Face(face, wild=wild, demoted=demoted, role=shown, counts_as=counts_as)
    return _document(
        _card_box(drawn, badge=drawn.badge), drawn.describe(), scale=_scale(scale), paper=False
    )


def back(*, scale: float = 1.0) -> Svg:
    """The back of a card, as the stock and the other players' hands show it."""
    return _document(_back_box(), "a face-down card", scale=_scale(scale), paper=False)


def hand(
    cards: CardsLike,
    *,
    rules: MeldRules | None = None,
    demoted: CardsLike = (),
    scale: float = 1.0,
) -> Svg:
    """A hand of cards, fanned so that each card's index shows, in the order given.

    With ``rules`` the wild cards are marked; ``demoted`` lists the cards of
    the hand that are demoted wilds (``round.demoted[seat]``, ``view.demoted``).

    >>> import hand_rummy as hr
    >>> picture = hand("7H 8H AC", rules=hr.MeldRules.of(hr.rulesets.levant, "8C"))
    >>> picture.count("<title>"), "A♣ (ace of clubs), wild" in picture
    (4, True)
    """
    faces = _hand_faces(read_cards(cards), _rules(rules), read_cards(demoted))
    row = _faces_row(faces, _HAND_STEP, badges=False)
    title = "A hand of " + _count(len(faces), "card")
    if faces:
        title += ": " + " ".join(f.short() for f in faces)
    return _document(row, title, scale=_scale(scale), paper=False)


def _owner(names: Sequence[str] | None, seat: int) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat}"


def _names(names: Sequence[str] | None) -> Sequence[str] | None:
    if names is not None:
        expect(names, (list, tuple), "the names")
        for name in names:
            expect(name, str, "a player's name")
    return names


def _meld_box(
    shown: Meld | TableMeld, rules: MeldRules | None, names: Sequence[str] | None
) -> tuple[_Box, str]:
    """A meld's cards side by side, with a line above naming its number and owner if it has them."""
    cards = shown.meld if isinstance(shown, TableMeld) else shown
    faces = _meld_faces(cards, rules)
    row = _faces_row(faces, _MELD_STEP, badges=True)
    words = " ".join(f.short() for f in faces)
    if not isinstance(shown, TableMeld):
        title = f"A meld: {words}"
        box = _Box(row.width, row.height, title)
        box.put(row, 0, 0)
        return box, title
    owner = _owner(names, shown.owner)
    title = f"Meld {shown.id}, a {shown.kind.value} laid by {owner}: {words}"
    head = _Box(0, 20)
    number = str(shown.id)
    disc = max(18.0, _width_of(number, 11) + 8)
    _el(head.g, "rect", x=0, y=0, width=disc, height=18, rx=9, fill="#333333")
    _text(head.g, disc / 2, 13, number, size=11, fill="#ffffff", bold=True, anchor="middle")
    line = _text(head.g, disc + 5, 13, owner, size=11, fill=_TEXT, bold=True)
    kind = _el(line, "tspan", font_size=10, font_weight="normal", font_style="italic", fill=_MUTED)
    kind.text = f" · {shown.kind.value}"
    head.width = disc + 5 + _width_of(owner, 11) * 1.15 + _width_of(kind.text, 10)
    inner = _column([head, row], 4)
    box = _Box(inner.width, inner.height, title)
    box.put(inner, 0, 0)
    return box, title


def meld(
    meld: Meld | TableMeld,
    *,
    rules: MeldRules | None = None,
    names: Sequence[str] | None = None,
    scale: float = 1.0,
) -> Svg:
    """A meld, its cards side by side; under each wild, the card it stands for.

    A table meld (:class:`~hand_rummy.state.TableMeld`) is drawn with its
    number and its owner (``names[owner]``, or "Seat N"). Without ``rules``
    a wild card is known by its role, so give the meld in table form (as
    :func:`~hand_rummy.melds.judge_meld` returns it) or pass the rules.

    >>> import hand_rummy as hr
    >>> rules = hr.MeldRules.of(hr.rulesets.levant, "8C")
    >>> run = hr.judge_meld(hr.Meld.of("7H AC 9H"), rules).meld
    >>> picture = meld(run)
    >>> "A meld: 7♥ A♣(=8♥) 9♥" in picture
    True
    >>> "A♣ (ace of clubs), wild, stands for 8♥ (eight of hearts)" in picture
    True
    """
    expect(meld, (Meld, TableMeld), "the meld")
    box, title = _meld_box(meld, _rules(rules), _names(names))
    return _document(box, title, scale=_scale(scale), paper=isinstance(meld, TableMeld))


def _table_box(
    melds: Sequence[TableMeld],
    rules: MeldRules | None,
    names: Sequence[str] | None,
    width: float,
) -> tuple[_Box, str]:
    if not melds:
        title = "The table: no melds yet"
        box = _Box(_width_of("No melds on the table yet", 11), 16, title)
        _text(box.g, 0, 12, "No melds on the table yet", size=11, fill=_MUTED, italic=True)
        return box, title
    parts = [_meld_box(m, rules, names) for m in melds]
    flow = _flow([b for b, _ in parts], width, 14)
    title = f"The table, {_count(len(melds), 'meld')}: " + "; ".join(t for _, t in parts)
    box = _Box(flow.width, flow.height, title)
    box.put(flow, 0, 0)
    return box, title


def _table_melds(melds: Iterable[TableMeld]) -> tuple[TableMeld, ...]:
    expect(melds, Iterable, "the table melds")
    found = tuple(melds)
    for one in found:
        expect(one, TableMeld, "a table meld")
    return found


def table(
    melds: Iterable[TableMeld],
    *,
    rules: MeldRules | None = None,
    names: Sequence[str] | None = None,
    width: float = 640,
    scale: float = 1.0,
) -> Svg:
    """The melds on the table (``round.table``), each with its number and owner.

    Melds run left to right and wrap to a new line past ``width`` units (from 1 to
    100,000).

    >>> import hand_rummy as hr
    >>> run = hr.TableMeld(1, 2, hr.Meld.of("7H 8H 9H"), hr.MeldKind.RUN)
    >>> "Meld 1, a run laid by Anna: 7♥ 8♥ 9♥" in table([run], names=["Ben", "Cem", "Anna"])
    True
    """
    wrap = _number(width, "the width", _WIDTHS)
    box, title = _table_box(_table_melds(melds), _rules(rules), _names(names), wrap)
    return _document(box, title, scale=_scale(scale), paper=True)


# --- rounds and views -------------------------------------------------------------------


@attrs.frozen
class _Scene:
    """What a picture of a round shows; the hands it shows face up are in ``shown``."""

    heading: str
    rules: MeldRules
    names: tuple[str, ...]
    turn: int
    phase: Phase
    outcome: Outcome | None
    stock_size: int
    discards: tuple[Card, ...]
    indicator: Card | None
    table: tuple[TableMeld, ...]
    opened: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    shown: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]]
    """Seat -> (cards, demoted cards) for each hand drawn face up."""
    own: int | None


def _status(scene: _Scene) -> str:
    names = scene.names
    if scene.outcome is not None:
        outcome = scene.outcome
        winner = names[outcome.winner] if outcome.winner is not None else "nobody"
        ending = {
            Ending.WENT_OUT: f"{winner} went out",
            Ending.HAND: f"{winner} went out with a Hand",
            Ending.STOCK: "the stock ran out",
            Ending.REDEAL: "a new deal was claimed",
        }[outcome.ending]
        text = f"Round over: {ending}"
        if outcome.score.scored:
            scores = ", ".join(f"{names[s]} {p}" for s, p in enumerate(outcome.score.scores))
            text += f". Scores: {scores}"
        else:
            text += " (not scored)"
        return text
    if scene.phase is Phase.OVER:
        return "Round over"
    doing = {
        Phase.REDEAL: "may ask for a new deal",
        Phase.DRAW: "to draw",
        Phase.PLAY: "to play (meld, lay off, discard)",
    }[scene.phase]
    return f"{names[scene.turn]} {doing}"


def _piles_box(scene: _Scene) -> tuple[_Box, list[str]]:
    """The stock, the discard pile, the indicator and the wild cards, side by side."""
    words = []
    stock = _back_box(f"the stock: {_count(scene.stock_size, 'card')}")
    pill = _width_of(str(scene.stock_size), 13) + 8
    _el(
        stock.g,
        "rect",
        x=(CARD_WIDTH - pill) / 2,
        y=CARD_HEIGHT / 2 - 9,
        width=pill,
        height=18,
        rx=4,
        fill="#ffffff",
    )
    _text(
        stock.g,
        CARD_WIDTH / 2,
        CARD_HEIGHT / 2 + 4.5,
        str(scene.stock_size),
        size=13,
        fill=_BACK,
        bold=True,
        anchor="middle",
    )
    parts = [_labelled(f"Stock ({_count(scene.stock_size, 'card')})", stock)]
    words.append(f"stock {_count(scene.stock_size, 'card')}")
    pile = scene.discards
    if pile:
        last = pile[-6:]
        faces = _hand_faces(last, scene.rules, ())
        row = _faces_row(faces, _HAND_STEP, badges=False)
        more = len(pile) - len(last)
        under = f", the top {len(last)} shown" if more else ""
        label = f"Discard pile ({_count(len(pile), 'card')}{under})"
        title = f"the discard pile, {_count(len(pile), 'card')}, top card {pile[-1]}"
        words.append(f"discard pile {_count(len(pile), 'card')}, top {pile[-1]}")
    else:
        row, label, title = _empty_box("empty"), "Discard pile (empty)", "the discard pile: empty"
        words.append("discard pile empty")
    parts.append(_labelled(label, row, title=title))
    if scene.indicator is not None:
        indicator = _card_box(_Face(scene.indicator))
        parts.append(
            _labelled("Indicator", indicator, title=f"the indicator: {_name(scene.indicator)}")
        )
        words.append(f"indicator {scene.indicator}")
    wild = sorted(scene.rules.wilds.wild)
    if wild:
        faces = [_Face(c, wild=True) for c in wild]
        parts.append(
            _labelled(
                "Wild",
                _faces_row(faces, _MELD_STEP, badges=False),
                title=scene.rules.wilds.describe(),
            )
        )
    described = scene.rules.wilds.describe()
    words.append(described)
    row = _column([_row(parts, 22), _label(described[:1].upper() + described[1:] + ".")], 6)
    return row, words


def _moving(scene: _Scene, seat: int) -> bool:
    return seat == scene.turn and scene.outcome is None and scene.phase is not Phase.OVER


def _seat_line(scene: _Scene, seat: int, *, with_name: bool = True) -> str:
    bits = [scene.names[seat]] if with_name else []
    bits.append(_count(scene.hand_sizes[seat], "card"))
    bits.append("opened" if scene.opened[seat] else "not opened")
    if _moving(scene, seat):
        bits.append("to move")
    return " · ".join(bits)


def _hidden_width(scene: _Scene, seat: int) -> float:
    name, rest = scene.names[seat], _seat_line(scene, seat, with_name=False)
    return 44 + max(_width_of(name, 12), _width_of(rest, 10)) + 8


def _hidden_seat(scene: _Scene, seat: int, width: float) -> _Box:
    """A player whose cards are hidden: a small stack of backs and the number of cards."""
    moving = _moving(scene, seat)
    count = scene.hand_sizes[seat]
    name, rest = scene.names[seat], _seat_line(scene, seat, with_name=False)
    box = _Box(width, 46, f"{scene.names[seat]}: {_count(count, 'card')}, face down")
    _el(
        box.g,
        "rect",
        x=0.5,
        y=0.5,
        width=width - 1,
        height=45,
        rx=5,
        fill="#ffffff",
        stroke=_TURN if moving else "#cfcfc8",
        stroke_width=2 if moving else 1,
    )
    for k in range(min(count, 3)):
        box.put(_back_box(), 6 + 3 * k, 6 - k, scale=0.45)
    _text(box.g, 40, 19, name, size=12, bold=True)
    _text(box.g, 40, 35, rest, size=10, fill=_TURN if moving else _MUTED)
    return box


def _open_seat(scene: _Scene, seat: int) -> tuple[_Box, str]:
    """A hand drawn face up, under a line that names its player."""
    cards, demoted = scene.shown[seat]
    faces = _hand_faces(cards, scene.rules, demoted)
    row = _faces_row(faces, _HAND_STEP, badges=False)
    words = " ".join(f.short() for f in faces) or "no cards"
    if seat == scene.own:
        whose = f"Your hand ({scene.names[seat].removesuffix(' (you)')})"
        line = f"{whose} · " + _seat_line(scene, seat, with_name=False)
    else:
        whose = f"{scene.names[seat]}'s hand"
        line = _seat_line(scene, seat)
    title = f"{whose}, {_count(len(faces), 'card')}: {words}"
    head = _label(line, size=11, fill=_TURN if _moving(scene, seat) else _TEXT, bold=True)
    column = _column([head, row], 4)
    box = _Box(column.width, column.height, title)
    box.put(column, 0, 0)
    return box, title


def _scene_box(scene: _Scene) -> tuple[_Box, str]:
    status = _status(scene)
    piles, pile_words = _piles_box(scene)
    own_hand = _open_seat(scene, scene.own) if scene.own is not None else None
    open_seats = [
        _open_seat(scene, s) for s in range(len(scene.names)) if s in scene.shown and s != scene.own
    ]
    width = max(
        640.0,
        piles.width,
        *(b.width for b, _ in open_seats),
        own_hand[0].width if own_hand else 0,
    )
    sections: list[_Box] = []
    header = _column([_label(scene.heading, size=15, fill=_TEXT, bold=True), _label(status)], 2)
    sections.append(header)
    sections.append(piles)
    others = [s for s in range(len(scene.names)) if s not in scene.shown]
    words = [scene.heading, status, *pile_words]
    if others:
        same = max(_hidden_width(scene, s) for s in others)
        hidden = [_hidden_seat(scene, s, same) for s in others]
        flow = _flow(hidden, width, 10)
        box = _Box(flow.width, flow.height, "The other players")
        box.put(flow, 0, 0)
        sections.append(box)
        words += [f"{scene.names[s]} holds {_count(scene.hand_sizes[s], 'card')}" for s in others]
    for seat_box, seat_title in open_seats:
        sections.append(seat_box)
        words.append(seat_title)
    table_box, table_title = _table_box(scene.table, scene.rules, scene.names, width)
    sections.append(_labelled("Table", table_box, title=table_title))
    words.append(table_title)
    if own_hand is not None:
        sections.append(own_hand[0])
        words.append(own_hand[1])
    column = _column(sections, 14)
    column.width = max(column.width, width)
    return column, ". ".join(words)


def _seat_names(names: Sequence[str] | None, players: int, you: int | None) -> tuple[str, ...]:
    names = _names(names)
    if names is not None and len(names) != players:
        # a list one short would leave a seat nameless, one long would name nobody there
        raise InvalidStateError(f"{len(names)} names given for {players} players: one a seat")
    out = []
    for seat in range(players):
        name = _owner(names, seat)
        out.append(f"{name} (you)" if seat == you else name)
    return tuple(out)


def view(view: Seen, *, names: Sequence[str] | None = None, scale: float = 1.0) -> Svg:
    """What one player sees (``round.view(seat)``): nothing that player may not know.

    The drawing shows whose turn it is and the phase (or how the round
    ended), the stock size, the discard pile, the indicator and the wild
    cards, how many cards each other player holds and whether they have
    opened, the table with its melds numbered and their owners, and the
    player's own hand.

    >>> import hand_rummy as hr
    >>> game = hr.Round.deal(hr.rulesets.levant, players=4, seed=7)
    >>> picture = view(game.view(2))
    >>> "Seat 1 holds 15 cards" in picture, "Your hand (Seat 2), 14 cards" in picture
    (True, True)
    """
    if not isinstance(view, Seen):  # a view of the round, not the round: say which to pass
        raise InvalidStateError(
            f"the view must be a PlayerView (round.view(seat)), not {type(view).__name__}"
        )
    seat_names = _seat_names(names, view.players, view.seat)
    scene = _Scene(
        heading=f"What {_owner(names, view.seat)} sees",
        rules=MeldRules.of(view.ruleset, view.indicator),
        names=seat_names,
        turn=view.turn,
        phase=view.phase,
        outcome=view.outcome,
        stock_size=view.stock_size,
        discards=view.discards,
        indicator=view.indicator,
        table=view.table,
        opened=view.opened,
        hand_sizes=view.hand_sizes,
        shown={view.seat: (view.hand, view.demoted)},
        own=view.seat,
    )
    box, title = _scene_box(scene)
    return _document(box, title, scale=_scale(scale), paper=True)


def whole_round(game: RoundState, *, names: Sequence[str] | None = None, scale: float = 1.0) -> Svg:
    """A whole round with every hand face up, as a referee or a replay sees it.

    >>> import hand_rummy as hr
    >>> game = hr.Round.deal(hr.rulesets.romme, players=3, seed=1)
    >>> picture = whole_round(game, names=["Anna", "Ben", "Cem"])
    >>> "Anna's hand, 14 cards" in picture, "Ben's hand, 13 cards" in picture
    (True, True)
    >>> "Anna to play" in picture  # the Rommé dealer starts, without drawing
    True
    """
    expect(game, RoundState, "the round")
    seat_names = _seat_names(names, game.players, None)
    scene = _Scene(
        heading=f"The whole round ({game.ruleset.title})",
        rules=game.rules,
        names=seat_names,
        turn=game.turn,
        phase=game.phase,
        outcome=game.outcome,
        stock_size=len(game.stock),
        discards=game.discards,
        indicator=game.indicator,
        table=game.table,
        opened=game.opened,
        hand_sizes=tuple(game.hand_size(s) for s in range(game.players)),
        shown={s: (game.hand(s), game.demoted[s]) for s in range(game.players)},
        own=None,
    )
    box, title = _scene_box(scene)
    return _document(box, title, scale=_scale(scale), paper=True)
