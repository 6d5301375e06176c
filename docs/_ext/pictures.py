"""The ``picture`` directive: a drawing of :mod:`hand_rummy.svg`, made while the docs build.

Its content is Python. The code runs with ``hr`` (the package) and ``svg``
(:mod:`hand_rummy.svg`) already imported, and its last line must be an
expression that gives an SVG drawing. The pictures of one page share their
names, so a later picture may use what an earlier one defined. The directive shows the code (unless
``:hide-code:`` is given) and then the picture::

    .. picture:: tutorial-run
       :alt: The run 7♥ A♣ 9♥, the wild A♣ standing for the 8♥

       rules = hr.MeldRules.of(hr.rulesets.levant, "8C")
       svg.meld(hr.judge_meld(hr.Meld.of("7H AC 9H"), rules).meld)

The argument names the file: the drawing is written to
``docs/_generated/pictures/<name>.svg`` (a file is rewritten only when its
text changes) and shown with an ordinary image node, so Sphinx copies it into
the build like any other image. Without ``:alt:`` the drawing's own
``aria-label`` is the alternative text. Code that raises, or that gives
something else than a drawing, fails the build, so the examples stay true.
"""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

import hand_rummy as hr
from hand_rummy import svg

__all__ = ["Picture", "setup"]

OUTPUT = Path("_generated") / "pictures"
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def draw(code: str, namespace: dict[str, Any]) -> str:
    """Run ``code`` in ``namespace`` and give the drawing its last expression evaluates to."""
    tree = ast.parse(code, mode="exec")
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise ValueError("the last line of a picture must be an expression that gives a drawing")
    last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<picture>", "exec"), namespace)
    picture = eval(compile(last, "<picture>", "eval"), namespace)
    if not isinstance(picture, str) or not picture.startswith("<svg"):
        raise ValueError(f"a picture must end in an SVG drawing, not {type(picture).__name__}")
    ET.fromstring(picture)  # well-formed, or the build fails here
    return picture


def _write(path: Path, text: str) -> None:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


class Picture(SphinxDirective):
    """Show a drawing made by the code in the directive's content."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "alt": directives.unchanged,
        "hide-code": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if not _NAME.match(name):
            raise self.error(f"picture names are lower-case words joined by '-', not {name!r}")
        code = "\n".join(self.content)
        try:
            namespace = self.env.temp_data.setdefault("picture-names", {"hr": hr, "svg": svg})
            picture = draw(code, namespace)
        except Exception as error:
            raise self.error(f"picture {name!r}: {type(error).__name__}: {error}") from error
        path = Path(self.env.srcdir) / OUTPUT / f"{name}.svg"
        _write(path, picture)
        # the page is read again when the drawing code of the library changes
        self.env.note_dependency(svg.__file__)
        alt = self.options.get("alt") or ET.fromstring(picture).get("aria-label", name)
        out: list[nodes.Node] = []
        if "hide-code" not in self.options:
            block = nodes.literal_block(code, code)
            block["language"] = "python"
            out.append(block)
        image = nodes.image(uri="/" + (OUTPUT / f"{name}.svg").as_posix(), alt=alt)
        image["classes"].append("hand-rummy-picture")
        out.append(nodes.paragraph("", "", image))
        return out


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("picture", Picture)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
