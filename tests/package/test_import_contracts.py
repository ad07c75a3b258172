"""The plug-in contract names no tool module, and the import contracts see type-only imports.

The contract modules (what a variant's author reads and writes against) stand below every
tool: a type-only import (under ``TYPE_CHECKING``) of a tool from one of them ties the
core and the tools into one knot of modules importing each other, which no layer then
separates. ``lint-imports`` checks the contracts in ``pyproject.toml`` with type-only imports
counted; here the sources are read directly (the compiled contract's ``.pyi`` and ``.pyx``
too, which import-linter does not read), and every import a contract ignores is checked to
stay type-only.
"""

from __future__ import annotations

import ast
import re
import tomllib

import pytest

from support import ROOT

SRC = ROOT / "src" / "pickomino_rules"
CONTRACT = (
    "plugin.py",
    *sorted(f"_plugin/{path.name}" for path in (SRC / "_plugin").glob("*.py")),  # its insides
    "batch_plugin.py",
    "compiled_plugin.pyi",
    "compiled_plugin.pyx",
    "compiled_plugin.pxd",
    "rules.py",
    "state.py",
    "actions.py",
    "dice.py",
    "errors.py",
    "turn.py",
    "info.py",
)
"""The plug-in contract's files, and the core modules it is written in terms of."""
TOOLS = frozenset(
    {
        "encoding", "envs", "batch", "batch_bots", "solver", "bots", "cli", "web", "svg",
        "terminal", "records", "positions", "simulation", "story", "testing", "learned",
        "research", "files", "strict_json", "plot", "analysis", "about", "_processes",
        "variants",
    }
)  # fmt: skip
"""The package's tools (and the variants): what the contract may not name."""
_CYTHON_IMPORT = re.compile(r"^\s*(?:from|c?import)\s+(pickomino_rules(?:\.\w+)*)", re.MULTILINE)


def _settings() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        settings: dict[str, object] = tomllib.load(file)["tool"]["importlinter"]
    return settings


def _imports(path_text: str, *, cython: bool) -> list[tuple[str, bool]]:
    """Every module of the package a source imports, and whether only for type checking."""
    if cython:
        return [(name, False) for name in _CYTHON_IMPORT.findall(path_text)]
    found: list[tuple[str, bool]] = []
    tree = ast.parse(path_text)
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found.extend(
            (name, id(node) in typing_only) for name in names if name.startswith("pickomino_rules.")
        )
    return found


def _tool_of(module: str) -> str | None:
    top = module.split(".")[1]
    return top if top in TOOLS else None


@pytest.mark.parametrize("name", CONTRACT)
def test_the_plug_in_contract_imports_no_tool_not_even_for_a_type(name: str) -> None:
    path = SRC / name
    text = path.read_text(encoding="utf-8")
    imports = _imports(text, cython=path.suffix in (".pyx", ".pxd"))
    # these import nothing of the package: the errors, the compiled contract's C side, and
    # the extension points (plain typed wrappers)
    quiet = ("errors", "compiled_plugin", "_plugin/__init__", "_plugin/extension")
    assert imports or name.startswith(quiet), "no import was read"
    tools = sorted(
        f"{module}{' (for a type)' if typing else ''}"
        for module, typing in imports
        if _tool_of(module) is not None
    )
    assert not tools, f"{name} imports tool modules: {tools}"


def test_the_import_contracts_read_type_only_imports() -> None:
    settings = _settings()
    assert settings.get("exclude_type_checking_imports", False) in (False, "false", "False")


def _module_file(module: str) -> str:
    relative = module.removeprefix("pickomino_rules.").replace(".", "/")
    base = (ROOT if relative.startswith("variants/") else SRC) / relative
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate.read_text(encoding="utf-8")
    raise AssertionError(f"no source for {module}")


def test_every_import_a_contract_ignores_is_type_only() -> None:
    contracts = _settings()["contracts"]
    assert isinstance(contracts, list)
    ignored = [line for contract in contracts for line in contract.get("ignore_imports", [])]
    assert len(ignored) >= 5  # the core's type-only back-edges were read
    for line in ignored:
        importer, _, imported = (part.strip() for part in line.partition("->"))
        imports = _imports(_module_file(importer), cython=False)
        kinds = {typing for module, typing in imports if module == imported}
        assert kinds, f"{line}: no such import (drop it from ignore_imports)"
        assert kinds == {True}, f"{line}: imported at run time, not only for a type"


def test_no_tool_module_is_in_an_import_cycle_with_the_plug_in_contract() -> None:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("pickomino_rules", exclude_type_checking_imports=False)
    knot = _cycle_of(graph, "pickomino_rules.batch_plugin")
    assert "pickomino_rules.plugin" in knot  # the contract's own type-only imports tie these
    tools = sorted(module for module in knot if _tool_of(module) is not None)
    assert not tools, f"tool modules knotted into the plug-in contract: {tools}"


def _cycle_of(graph: object, start: str) -> set[str]:
    """The modules that ``start`` imports, directly or not, and that import it back."""

    def reach(begin: str, step: str) -> set[str]:
        seen, todo = {begin}, [begin]
        while todo:
            for found in getattr(graph, step)(todo.pop()):
                if found not in seen:
                    seen.add(found)
                    todo.append(found)
        return seen

    return reach(start, "find_modules_directly_imported_by") & reach(
        start, "find_modules_that_directly_import"
    )
