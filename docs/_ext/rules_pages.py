"""Generate one reStructuredText page per rule preset, and the table of switches.

On ``builder-inited`` this extension writes, into ``docs/rules/generated/``:

* ``<preset>.rst`` for every preset in :data:`hand_rummy.PRESETS`: which rule
  document it follows, every rule dimension in words (parsed from
  :meth:`hand_rummy.Ruleset.describe`) and the variants and switches that
  compose onto it (:func:`hand_rummy.variants_for`);
* ``switches.inc``: every ambiguity switch (``Variant.switch`` is true), the
  reading the presets use by default, what the switch changes instead, and the
  RULES-MATRIX item it answers. ``docs/rules/index.rst`` includes it (the
  ``.inc`` suffix keeps Sphinx from reading it as a page of its own).

Nothing is added to the library for this: everything comes from its public
API. A file is rewritten only when its text changes, so incremental builds
stay incremental.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import hand_rummy as hr

__all__ = ["setup"]

OUTPUT = Path("rules") / "generated"

#: Which rule document each preset follows, in words of ours.
SOURCES: dict[str, str] = {
    "levant": (
        "This preset is Hand as it is played in Jordan, Lebanon and Palestine. It follows "
        "rule document 000 (English), with document 001, the German text of the same "
        "rules, as a second witness."
    ),
    "romme": "This preset is German Rommé, following rule document 002.",
    "gulf": (
        "This preset is Hand as it is played in Saudi Arabia and the Gulf states, "
        "following rule document 003."
    ),
    "classic": (
        "This preset is Hand Classic, the first of the four games of rule document 004 "
        "(Hand as an online app plays it)."
    ),
    "partnership": (
        "This preset is Hand Partnership from rule document 004: Hand Classic for two "
        "teams of two, each player opening for themselves."
    ),
    "saudi": (
        "This preset is Saudi Hand from rule document 004, where every opening has to "
        "beat the one before it."
    ),
    "saudi_partnership": (
        "This preset is Saudi Hand Partnership from rule document 004, where an opening "
        "is made for the whole team."
    ),
}

#: A short page title for each preset.
TITLES: dict[str, str] = {
    "levant": "Hand of the Levant",
    "romme": "German Rommé",
    "gulf": "Hand of the Gulf",
    "classic": "Hand Classic (app)",
    "partnership": "Hand Partnership (app)",
    "saudi": "Saudi Hand (app)",
    "saudi_partnership": "Saudi Hand Partnership (app)",
}

#: For every switch: the reading the presets follow when the switch is off.
#: Written for these pages; the switch's own summary says what it changes.
DEFAULT_READINGS: dict[str, str] = {
    "starter_may_meld": "The starter's first turn is only a discard: no draw and no meld.",
    "joker_demotion_always": (
        "A discarded joker is demoted to an Ace of any suit only while jokers are wild; "
        "under a non-Ace indicator it stays the natural Ace of the indicator's suit."
    ),
    "demoted_wild_counts": (
        "A wild taken from the discard pile is a natural card and does not use up the "
        "meld's one wild."
    ),
    "redeal_wild_pairs": (
        "Two identical wild cards are two wilds, not a pair, when a redeal is claimed."
    ),
    "dealer_draw_ace_low": "In the draw for first dealer the Ace ranks high.",
    "exemption_hand_only": (
        "Any finish made in a single turn by a player who had not opened may fall short "
        "of the opening bar."
    ),
    "egyptian_suit_x16": (
        "A one-suit Hand earns its own bonus, and the one-colour doubling is not added "
        "on top (×8 in all)."
    ),
    "ace_indicator_no_wilds": (
        "Without jokers, an Ace indicator still makes the two Aces of its suit wild, the "
        "turned card being one of them."
    ),
    "beat_last_or_equal": (
        "Under beat-the-last, each opening must be strictly higher than the previous one."
    ),
    "one_natural_three_jokers": (
        "Every meld needs at least two natural cards, so one natural with three jokers is refused."
    ),
    "no_two_jokers_in_set": (
        "A set has no order, so two naturals and two jokers make a valid set."
    ),
    "wrap_ace_1": "An Ace in a K-A-2 run counts 11 toward the opening.",
    "freed_joker_may_lay_off": (
        "A joker won in an exchange must start a new meld; it may not be laid off."
    ),
    "no_rediscard_taken": "The card taken from the discard pile may be thrown again at once.",
    "hand_all_melded": "A Hand Rommé may still end with a final discard.",
    "stock_out_after_last_draw": (
        "The round ends only when a player has to draw and the stock is empty."
    ),
    "limit_reached": "The match ends only once a total goes past the limit.",
    "ties_play_on": "Players tied for the lowest total share the win.",
    "discard_new_meld_only": (
        "A discard taken to meld may start a new meld, or be laid off once the player has opened."
    ),
    "levant_penalties": ("Cards in hand cost what document 003 gives elsewhere: Ace 15, joker 25."),
    "romme_penalties": ("Cards in hand cost what document 003 gives elsewhere: Ace 15, joker 25."),
    "winner_minus_30": "The player who goes out scores 0; only the others are charged.",
    "never_opened_100": "A player who never opened pays the value of the cards held.",
    "final_discard_required": (
        "A player may go out by discarding the last card or by melding every card."
    ),
    "layoff_before_opening": "Nothing may be laid off before the player has opened.",
    "free_phase_order": "In a turn, new melds come first and lay-offs after them.",
    "joker_exchange": "A joker on the table cannot be exchanged.",
    "hand_exempt": "A Hand still has to reach the opening bar.",
    "stock_out_unscored": (
        "The discard pile below its top card is shuffled into a new stock; when that "
        "is impossible the round is a no-contest."
    ),
    "stock_out_score_hands": (
        "The discard pile below its top card is shuffled into a new stock; when that "
        "is impossible the round is a no-contest."
    ),
    "joker_opening_15": "A joker counts as the card it stands for toward the opening.",
    "joker_opening_25": "A joker counts as the card it stands for toward the opening.",
    "joker_inside_only": "A joker may also stand at either end of a run.",
    "taken_card_in_opening": (
        "A player who has not opened and takes the fire card must open that turn, but "
        "the opening need not use it."
    ),
    "exchange_both_missing": (
        "A joker leaves a set of two naturals for either one of the missing cards."
    ),
    "freed_joker_must_meld": "A joker won in an exchange may be kept in the hand.",
    "hand_with_final_discard": "A Hand lays down every card, with no final discard.",
    "winner_team_scoring": (
        "Every player scores by the ordinary table and a team's score is the sum of its "
        "two players."
    ),
    "personal_team_opening": ("Once one partner has opened, the whole team counts as opened."),
    "wild_role_best_value": (
        "A wild stands for the card at its written place; if a choice that changes the "
        "answer remains, the meld is refused as ambiguous until the player declares it."
    ),
    "partner_pays_never_opened": (
        "Once the team has opened, a partner who never laid down scores the cards in hand."
    ),
    "beat_last_no_base": (
        "Under beat-the-last, the first opening of a round still needs the base minimum (51)."
    ),
    "ace_indicator_turn_again": (
        "Without jokers, an Ace indicator makes the Aces of its suit wild (one of them is the "
        "indicator)."
    ),
}

_ITEMS = re.compile(r"\s*\(((?:[LRGPX]\d+[a-z ]*)(?:,\s*[LRGPX]\d+[a-z ]*)*)\)\s*\.?\s*$")


def _split_summary(variant: hr.Variant) -> tuple[str, str]:
    """The summary without its trailing ``(L6 b)`` and the matrix items it names."""
    match = _ITEMS.search(variant.summary)
    source_item = variant.source.removeprefix("RULES-MATRIX").strip()
    if match is None:
        return variant.summary, source_item
    text = variant.summary[: match.start()].rstrip() + "."
    return text, match.group(1).strip()


def _rule_lines(ruleset: hr.Ruleset) -> list[tuple[str, str]]:
    """``Ruleset.describe()`` as (label, text) pairs: the label is the first column."""
    lines = ruleset.describe().splitlines()[1:]  # the first line is the title
    pairs = []
    for line in lines:
        label, _, text = line.partition("  ")
        pairs.append((label.strip(), text.strip()))
    return pairs


def _escape(text: str) -> str:
    """Text safe to put in a reST table cell (no markup is meant in it)."""
    return re.sub(r"([\\*`|_])", r"\\\1", text)


def _list_table(header: list[str], rows: list[list[str]], widths: list[int]) -> list[str]:
    out = [
        ".. list-table::",
        "   :header-rows: 1",
        f"   :widths: {' '.join(map(str, widths))}",
        "",
    ]
    for row in [header, *rows]:
        first, *rest = row
        out.append(f"   * - {first}")
        out.extend(f"     - {cell}" for cell in rest)
    out.append("")
    return out


def _title(text: str, mark: str = "=") -> list[str]:
    return [text, mark * len(text), ""]


def _preset_page(name: str, ruleset: hr.Ruleset) -> str:
    out = [
        f".. This file is generated by docs/_ext/rules_pages.py from hand_rummy.PRESETS[{name!r}].",
        "   Do not edit it: edit the library or the extension.",
        "",
        f".. _preset-{name}:",
        "",
        *_title(f"``{name}``: {TITLES[name]}" if name in TITLES else f"``{name}``"),
        SOURCES.get(name, f"This preset is built into hand-rummy as ``{name}``."),
        f"Build it with ``hand_rummy.build({name!r})``, or use "
        f"``hand_rummy.rulesets.{name}`` directly.",
        "",
        *_title("Rules", "-"),
        "Every rule dimension of the preset, in the words of ``Ruleset.describe()``:",
        "",
    ]
    rows = [[f"**{_escape(label)}**", _escape(text)] for label, text in _rule_lines(ruleset)]
    out += _list_table(["Dimension", "Rule"], rows, [22, 78])
    out += _title("Variants and switches", "-")
    variants = hr.variants_for(name)
    if not variants:
        out += ["No named variant or switch composes onto this preset.", ""]
    else:
        out += [
            "Pass any of these names to ``hand_rummy.build`` (or to "
            f"``hand-rummy rules show {name} --variant NAME``). A *variant* is an "
            "option that the rule document itself offers; a *switch* picks the other "
            "reading of an ambiguity (see :ref:`ambiguities`).",
            "",
        ]
        rows = [
            [
                f"``{v.name}``",
                _escape(v.summary),
                _escape(v.source),
                "switch" if v.switch else "variant",
            ]
            for v in variants
        ]
        out += _list_table(["Name", "What it changes", "Source", "Kind"], rows, [22, 50, 18, 10])
    return "\n".join(out)


def _switches_table() -> str:
    rows = []
    for variant in hr.VARIANTS.values():
        if not variant.switch:
            continue
        change, items = _split_summary(variant)
        presets = ", ".join(f"``{p}``" for p in hr.PRESETS if p in variant.presets)
        default = DEFAULT_READINGS.get(variant.name, "The preset's own rule (see its page).")
        rows.append(
            [f"``{variant.name}``", presets, _escape(default), _escape(change), _escape(items)]
        )
    out = [
        ".. This file is generated by docs/_ext/rules_pages.py from hand_rummy.VARIANTS.",
        "",
        *_list_table(
            ["Switch", "Presets", "Default reading", "With the switch", "Matrix item"],
            rows,
            [18, 14, 30, 30, 8],
        ),
    ]
    return "\n".join(out)


def _write(path: Path, text: str) -> None:
    text = text.rstrip("\n") + "\n"
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.write_text(text, encoding="utf-8")


def generate(app: Any) -> None:
    out = Path(app.srcdir) / OUTPUT
    out.mkdir(parents=True, exist_ok=True)
    wanted = {f"{name}.rst" for name in hr.PRESETS}
    for stale in out.glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()
    for name, ruleset in hr.PRESETS.items():
        _write(out / f"{name}.rst", _preset_page(name, ruleset))
    _write(out / "switches.inc", _switches_table())


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
