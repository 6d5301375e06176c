"""Write the rulebook: one reStructuredText page per preset, a page for custom rulesets,
and the table of switches.

On ``builder-inited`` this extension writes, into ``docs/rules/generated/``:

* ``<preset>.rst`` for every preset in :data:`hand_rummy.PRESETS`: which rule
  document it follows, every rule dimension at a glance (from
  :meth:`hand_rummy.Ruleset.dimensions`, the text of ``Ruleset.describe()``), then
  every rule of the page from :func:`hand_rummy.rulebook.page_rules`: its stable
  id (an anchor that violations cite), its words for the preset, the document
  section it comes from, the reading chosen where the document is silent or
  unclear, and the variants and switches that change it or bring it in;
* ``custom.rst``: every rule the library knows, for rulesets that are no preset;
* ``switches.inc``: every ambiguity switch (``Variant.switch`` is true), the
  reading the presets use by default, what the switch changes instead, and the
  RULES-MATRIX item it answers. ``docs/rules/index.rst`` includes it (the
  ``.inc`` suffix keeps Sphinx from reading it as a page of its own).

Everything comes from the library's public API, so the pages cannot drift from
the code. A file is rewritten only when its text changes, so incremental builds
stay incremental.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import hand_rummy as hr
from hand_rummy import rulebook

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
        "This preset is Hand as it is played in Saudi Arabia and the Gulf, "
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

_ITEMS = re.compile(r"\s*\(((?:[LRGPQX]\d+[a-z ]*)(?:,\s*[LRGPQX]\d+[a-z ]*)*)\)\s*\.?\s*$")


def _split_summary(variant: hr.Variant) -> tuple[str, str]:
    """The summary without its trailing ``(L6 b)`` and the matrix items it names."""
    match = _ITEMS.search(variant.summary)
    source_item = variant.source.removeprefix("RULES-MATRIX").strip()
    if match is None:
        return variant.summary, source_item
    text = variant.summary[: match.start()].rstrip() + "."
    return text, match.group(1).strip()


def _escape(text: str) -> str:
    """Text safe to put in reST (no markup is meant in it)."""
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


def _field(name: str, items: list[str]) -> list[str]:
    """A field of a field list: one paragraph, or a bullet list of several (none: nothing)."""
    if len(items) <= 1:
        return [f":{name}: {item}" for item in items]
    return [f":{name}:", *(f"   * {item}" for item in items)]


def _source(source: rulebook.Source) -> str:
    text = _escape(source.describe())
    if source.variant is not None:
        text = text.replace(_escape(source.variant), f"``{source.variant}``", 1)
    return text + "."


def _kind(variant: hr.Variant) -> str:
    return "switch" if variant.switch else "variant"


def _rule_block(entry: rulebook.PageRule, brings: dict[str, list[str]]) -> list[str]:
    """One rule: its anchor and id, its words, its sources, readings and variants."""
    rule = entry.rule
    out = [
        f".. _{entry.id}:",
        "",
        *_title(f"``{entry.id}``: {rule.title}", "~"),
        _escape(entry.words),
        "",
    ]
    sources = [_source(source) for source in entry.sources]
    out += _field("Source", sources or ["none."])
    readings = [
        f"*{item}.* {_escape(rulebook.AMBIGUITIES[item])}"
        for source in entry.sources
        for item in (() if source.variant else source.items)
    ]
    out += _field("Reading", readings)
    if entry.in_preset:
        changes = []
        for variant in entry.variants:
            text = f"``{variant.name}`` ({_kind(variant)}): {_escape(variant.summary)}"
            others = [ref for ref in brings.get(variant.name, []) if ref != entry.id]
            if others:
                text += " See " + ", ".join(f":ref:`{ref}`" for ref in others) + "."
            changes.append(text)
        out += _field("Variants and switches", changes)
    else:
        withs = []
        for variant in entry.variants:
            if entry.id not in brings.get(variant.name, []):
                continue
            text = f"``{variant.name}`` ({_kind(variant)}): {_escape(variant.summary)}"
            default = rulebook.DEFAULT_READINGS.get(variant.name)
            if default:
                text += f" Without it: {_escape(default)}"
            withs.append(text)
        out += _field("In force with", withs)
    out.append("")
    return out


def _preset_page(name: str, ruleset: hr.Ruleset) -> str:
    out = [
        f".. This file is generated by docs/_ext/rules_pages.py from hand_rummy.PRESETS[{name!r}]",
        "   and hand_rummy.rulebook. Do not edit it: edit the library or the extension.",
        "",
        f".. _preset-{name}:",
        "",
        *_title(f"``{name}``: {TITLES[name]}" if name in TITLES else f"``{name}``"),
        SOURCES.get(name, f"This preset is built into hand-rummy as ``{name}``."),
        f"Build it with ``hand_rummy.build({name!r})``, or use "
        f"``hand_rummy.rulesets.{name}`` directly.",
        "",
        "Every rule below has an id of the form ``" + name + ".part.rule``, the anchor that a "
        "refusal under this preset cites (``Violation.rule_ids``, and ``rule_ids`` in the "
        "referee's answers). The rules in force in the preset come first in each part; a "
        "rule that only a variant or switch brings in says so. *Source* names the section "
        "of the rule document that the rule is taken from; *Reading* explains what the "
        "library chose where the document is silent, unclear or contradicts itself.",
        "",
        *_title("At a glance", "-"),
        "Every rule dimension of the preset, in the words of ``Ruleset.describe()``:",
        "",
    ]
    rows = [[f"**{_escape(label)}**", _escape(text)] for _, label, text in ruleset.dimensions()]
    out += _list_table(["Dimension", "Rule"], rows, [22, 78])
    out += _pictures(name, ruleset)
    entries = rulebook.page_rules(name)
    brings: dict[str, list[str]] = {}
    for entry in entries:
        for variant in entry.variants:
            if not entry.in_preset and entry.rule.in_force(variant.apply(ruleset)):
                brings.setdefault(variant.name, []).append(entry.id)
    for part, dimensions in rulebook.PARTS:
        chosen = [e for e in entries if e.rule.dimension in dimensions]
        chosen.sort(key=lambda e: not e.in_preset)
        if not chosen:
            continue
        out += _title(part, "-")
        for entry in chosen:
            out += _rule_block(entry, brings)
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
                _kind(v),
            ]
            for v in variants
        ]
        out += _list_table(["Name", "What it changes", "Source", "Kind"], rows, [22, 50, 18, 10])
    return "\n".join(out)


# Melds drawn on each preset's page, the first of each kind that the preset's rules accept: a
# run and a set holding a wild card (the indicator 8♣ where the rules turn one). The code runs
# when the docs are built (the ``picture`` directive), so a drawing shows what the library says.
_PICTURE_CODE = """\
ruleset = hr.build({name!r})
rules = hr.MeldRules.of(ruleset, "8C" if ruleset.uses_indicator else None)
wild = min(rules.wilds.wild).ascii
shapes = ["7H {{w}} 9H", "7H {{w}} 9H 10H", "9C 9D {{w}}", "9C 9D 9H {{w}}", "7H 8H 9H", "9C 9D 9H"]
judged = [hr.judge_meld(hr.Meld.of(text.format(w=wild)), rules) for text in shapes]
run = next(j.meld for j in judged if j.ok and j.kind is hr.MeldKind.RUN)
group = next(j.meld for j in judged if j.ok and j.kind is hr.MeldKind.SET)
svg.table([hr.TableMeld(1, 0, run, hr.MeldKind.RUN), hr.TableMeld(2, 1, group, hr.MeldKind.SET)],
          rules=rules, names=["example", "example"])
"""


def _pictures(name: str, ruleset: hr.Ruleset) -> list[str]:
    shown = "with the 8♣ as the indicator, " if ruleset.uses_indicator else ""
    return [
        *_title("Melds in pictures", "-"),
        f"A run and a set as this preset lays them, {shown}each holding a wild card where "
        "the rules allow one (drawn from the library's own judgement when the docs are built):",
        "",
        f".. picture:: rules-{name.replace('_', '-')}-melds",
        "   :hide-code:",
        f"   :alt: A run and a set under the {name} rules",
        "",
        *(f"   {line}" if line else "" for line in _PICTURE_CODE.format(name=name).splitlines()),
        "",
    ]


def _custom_page() -> str:
    out = [
        ".. This file is generated by docs/_ext/rules_pages.py from hand_rummy.rulebook.",
        "   Do not edit it: edit the library or the extension.",
        "",
        ".. _rules-custom:",
        "",
        *_title("Custom rulesets: every rule"),
        "A ruleset that is no preset (one built with ``Ruleset(...)``, or a preset changed "
        "with ``with_()`` beyond its named variants) cites the rules of this page: every "
        "rule the library knows, with the setting of the policies that puts it in force. "
        "The words are those of the first preset that has the rule; a violation gives "
        "them for the ruleset in use.",
        "",
    ]
    presets = {
        entry.rule.key: [name for name in hr.PRESETS if _in_preset(name, entry.rule.key)]
        for entry in rulebook.page_rules(rulebook.CUSTOM)
    }
    entries = rulebook.page_rules(rulebook.CUSTOM)
    for part, dimensions in rulebook.PARTS:
        chosen = [e for e in entries if e.rule.dimension in dimensions]
        if not chosen:
            continue
        out += _title(part, "-")
        for entry in chosen:
            out += [
                f".. _{entry.id}:",
                "",
                *_title(f"``{entry.id}``: {entry.rule.title}", "~"),
                _escape(entry.words),
                "",
                f":In force when: ``{entry.rule.policy}``",
            ]
            found = presets[entry.rule.key]
            out += [
                ":Presets: "
                + (
                    ", ".join(f":ref:`{name} <{name}.{entry.rule.key}>`" for name in found)
                    if found
                    else "none (only with a variant, a switch or a custom policy)"
                ),
                "",
            ]
    return "\n".join(out)


def _in_preset(name: str, key: str) -> bool:
    return any(e.rule.key == key and e.in_preset for e in rulebook.page_rules(name))


def _switches_table() -> str:
    rows = []
    for variant in hr.VARIANTS.values():
        if not variant.switch:
            continue
        change, items = _split_summary(variant)
        presets = ", ".join(f"``{p}``" for p in hr.PRESETS if p in variant.presets)
        default = rulebook.DEFAULT_READINGS.get(
            variant.name, "The preset's own rule (see its page)."
        )
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
    wanted = {f"{name}.rst" for name in rulebook.PAGES}
    for stale in out.glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()
    for name, ruleset in hr.PRESETS.items():
        _write(out / f"{name}.rst", _preset_page(name, ruleset))
    _write(out / f"{rulebook.CUSTOM}.rst", _custom_page())
    _write(out / "switches.inc", _switches_table())


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
