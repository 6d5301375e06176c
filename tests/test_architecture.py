"""The layout that ``docs/architecture.rst`` draws, checked against the source.

The page lists the modules in layers, each importing only those above it; the
faces (match, bots, serialize, referee, cli, ...) come last. These tests read
that list from the page itself, so the page and the code cannot part ways
unnoticed, and read the imports of every module with :mod:`ast`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "hand_rummy"
PAGE = ROOT / "docs" / "architecture.rst"

# the imports allowed to point down the list (the page says why): the pictures of a round,
# drawn for notebooks and written out as text
DRAWINGS = {"hand_rummy.svg", "hand_rummy.text"}


def _layers() -> list[str]:
    """The layer names of the page's list, top first (``rules/`` read as ``rules``)."""
    text = PAGE.read_text(encoding="utf-8")
    block = text.split("Layers\n------", 1)[1].split(".. code-block:: text", 1)[1]
    names = []
    for line in block.splitlines()[2:]:
        if not line.strip():
            break
        match = re.match(r"^   (\w+)/?\s", line)  # continuation lines are indented further
        if match:
            names.append(match.group(1))
    return names


LAYERS = _layers()


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _layer(module: str) -> int:
    """The place of ``module``'s layer in the list; the faces share the last place."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return len(LAYERS)


def _group(module: str) -> str:
    """The layer's name: a package (``turn_rules``) is one layer with its modules."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


class _Imports(ast.NodeVisitor):
    """The package modules that one module imports, sorted by when the import runs."""

    def __init__(self, module: str, path: Path) -> None:
        self.module = module
        self.package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        self.at_load: set[str] = set()  # at module level: they run as the module loads
        self.in_functions: set[str] = set()  # inside a function: they run when it is called
        self.typing_only: set[str] = set()  # under TYPE_CHECKING: they never run
        self.private: list[str] = []  # other modules' private names this one uses
        self.aliases: dict[str, str] = {}  # local name -> package module it is bound to
        self._where = self.at_load

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" not in ast.unparse(node.test):
            self.generic_visit(node)
            return
        before, self._where = self._where, self.typing_only
        for child in node.body:
            self.visit(child)
        self._where = before
        for child in node.orelse:
            self.visit(child)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        before = self._where
        if before is self.at_load:
            self._where = self.in_functions
        self.generic_visit(node)
        self._where = before

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.visit_FunctionDef(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.startswith("hand_rummy"):
                self._where.add(alias.name)
                self.aliases[alias.asname or alias.name] = alias.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        source = self._absolute(node)
        if not source.startswith("hand_rummy"):
            return
        for alias in node.names:
            full = f"{source}.{alias.name}"
            if full in MODULES:  # a module imported from its package
                self._where.add(full)
                self.aliases[alias.asname or alias.name] = full
                continue
            self._where.add(source)
            if _private(alias.name) and source != self.module:
                self.private.append(f"{source}.{alias.name}")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and _private(node.attr):
            module = self.aliases.get(node.value.id)
            if module is not None and module != self.module:
                self.private.append(f"{module}.{node.attr}")
        self.generic_visit(node)

    def _absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.package.split(".")[: len(self.package.split(".")) - node.level + 1]
        return ".".join([*base, *([node.module] if node.module else [])])


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _imports() -> dict[str, _Imports]:
    found = {}
    for module, path in MODULES.items():
        reader = _Imports(module, path)
        reader.visit(ast.parse(path.read_text(encoding="utf-8")))
        found[module] = reader
    return found


IMPORTS = _imports()


def _edges(module: str) -> Iterator[str]:
    """The package modules ``module`` imports as it loads (not itself, not its parents)."""
    for target in sorted(IMPORTS[module].at_load):
        if target in MODULES and target != module and not module.startswith(target + "."):
            yield target


def test_the_page_lists_real_modules_and_every_core_module_is_listed() -> None:
    assert len(LAYERS) > 20, LAYERS  # the page's list was read
    tops = {module.split(".")[1] for module in MODULES if "." in module}
    assert set(LAYERS) <= tops, set(LAYERS) - tops
    # a core module missing from the list would pass as a face, which may import anything
    for core in ("cards", "melds", "finder", "state", "transitions", "legal", "round"):
        assert core in LAYERS


def test_no_import_cycle_as_modules_load() -> None:
    state: dict[str, int] = {}  # 1 while on the path, 2 when done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in _edges(module):
            if state.get(target) == 1:
                cycle = [*path[path.index(target) :], target]
                pytest.fail("modules import each other as they load: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in MODULES:
        if module not in state:
            visit(module)


@pytest.mark.parametrize("module", [m for m in MODULES if _layer(m) < len(LAYERS)])
def test_a_layer_imports_only_the_layers_above_it(module: str) -> None:
    downward = [
        target
        for target in _edges(module)
        if target != "hand_rummy"
        and _group(target) != _group(module)
        and _layer(target) >= _layer(module)
    ]
    assert not downward, f"{module} imports {downward}, listed below it"


@pytest.mark.parametrize("module", [m for m in MODULES if _layer(m) < len(LAYERS)])
def test_a_layer_imports_a_lower_module_only_for_drawings(module: str) -> None:
    later = {
        target
        for target in IMPORTS[module].in_functions
        if target in MODULES
        and _group(target) != _group(module)
        and _layer(target) >= _layer(module)
    }
    assert later <= DRAWINGS, f"{module} imports {sorted(later - DRAWINGS)} when called"


def test_no_module_uses_another_modules_private_names() -> None:
    used = {module: IMPORTS[module].private for module in MODULES if IMPORTS[module].private}
    assert not used, used


def test_the_checks_see_what_they_look_for() -> None:
    # the readers above find each kind of import in modules known to have one, so a change
    # to how they read source cannot leave the checks passing on nothing
    assert "hand_rummy.cards" in IMPORTS["hand_rummy.melds"].at_load
    assert "hand_rummy.svg" in IMPORTS["hand_rummy.cards"].in_functions
    assert "hand_rummy.text" in IMPORTS["hand_rummy.round"].in_functions
    assert "hand_rummy.search" in IMPORTS["hand_rummy.bots"].typing_only
    assert "hand_rummy.search" not in IMPORTS["hand_rummy.bots"].at_load
    reader = _Imports("hand_rummy.x", PACKAGE / "x.py")
    reader.visit(
        ast.parse(
            "from hand_rummy.melds import _judged\n"
            "from hand_rummy import finder\n"
            "def f():\n    return finder._Cache\n"
        )
    )
    assert reader.private == ["hand_rummy.melds._judged", "hand_rummy.finder._Cache"]
