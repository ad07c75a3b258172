"""`pickomino_rules.plugin` stays the plug-in contract's one public face after its split.

The contract is written in the private package `pickomino_rules._plugin`, one job a module;
`plugin` re-exports it. Users and the docs must not see the move: every name is the same
object from `plugin`, says it belongs there (reprs, tracebacks, pickles), and its API page
renders each name exactly once, under `pickomino_rules.plugin`.
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
import re

import pytest

from pickomino_rules import _plugin, plugin
from support import ROOT

PRIVATE = sorted(
    info.name for info in pkgutil.iter_modules(_plugin.__path__, prefix=f"{_plugin.__name__}.")
)
PAGE = ROOT / "docs" / "api" / "plugin.md"


INNER = frozenset({"compose_on", "check_modules", "check_components"})
"""What the private modules share among themselves: the contract's workings, not its names."""


def _moved() -> dict[str, object]:
    """The classes and functions the private modules define and list, by name."""
    found: dict[str, object] = {}
    for name in PRIVATE:
        module = importlib.import_module(name)
        for item in module.__all__:
            value = getattr(module, item)
            if inspect.isclass(value) or inspect.isfunction(value):
                found[item] = value
    return found


def test_the_split_has_modules_of_one_job() -> None:
    jobs = {name.rpartition(".")[2] for name in PRIVATE}
    assert jobs == {
        "hooks", "extension", "rule_module", "checks", "compose", "ranges", "options", "variant"
    }  # fmt: skip


@pytest.mark.parametrize("name", PRIVATE)
def test_each_name_a_private_module_lists_is_the_one_plugin_gives(name: str) -> None:
    module = importlib.import_module(name)
    listed = module.__all__
    assert listed, f"{name} lists no names"
    for item in listed:
        if item in INNER:
            continue
        assert item in plugin.__all__, f"{name}.{item} is not re-exported by plugin"
        assert getattr(plugin, item) is getattr(module, item), item


def test_each_moved_class_and_function_says_it_belongs_to_plugin() -> None:
    moved = _moved()
    assert {"RuleModule", "ExtensionPoint", "IntRange", "Variant", "compose", "boolean"} <= set(
        moved
    )
    for item, value in moved.items():
        if item in INNER:
            assert value.__module__.startswith("pickomino_rules._plugin."), item
            continue
        assert value.__module__ == "pickomino_rules.plugin", item
        assert getattr(plugin, value.__qualname__) is value, item  # type: ignore[attr-defined]


def test_values_of_the_contract_pickle_by_the_public_module() -> None:
    made = [
        plugin.IntRange(0, 9),
        plugin.TupleRange(plugin.FaceRange(), 1, 3),
        plugin.BOOLEAN,
        plugin.Option("bonus", 1, "worms per exact take", "H1", range=plugin.IntRange(0, 5)),
        plugin.boolean,
    ]
    for value in made:
        data = pickle.dumps(value)
        assert b"pickomino_rules.plugin" in data
        assert b"_plugin." not in data, f"{value!r} pickles by a private module"
        assert pickle.loads(data) == value  # noqa: S301 (our own pickle, just made)
    assert repr(plugin.RuleModule).endswith("'pickomino_rules.plugin.RuleModule'>")


def _page_members() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    block = re.search(r"^::: pickomino_rules\.plugin\n((?:[ \t]+.*\n?)*)", text, re.MULTILINE)
    assert block is not None, "docs/api/plugin.md renders no pickomino_rules.plugin"
    return re.findall(r"^\s+- (\w+)\s*$", block[1], re.MULTILINE)


def test_the_api_page_renders_every_public_name_once() -> None:
    members = _page_members()
    doubled = sorted({name for name in members if members.count(name) > 1})
    assert not doubled, f"listed twice on docs/api/plugin.md: {doubled}"
    missing = sorted(set(plugin.__all__) - set(members))
    assert not missing, f"public names of plugin missing from docs/api/plugin.md: {missing}"
    unknown = sorted(set(members) - set(plugin.__all__))
    assert not unknown, f"on docs/api/plugin.md, not in plugin.__all__: {unknown}"


def test_no_page_documents_the_private_modules() -> None:
    pages = "\n".join(
        path.read_text(encoding="utf-8") for path in (ROOT / "docs").rglob("*.md")
    ) + (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "pickomino_rules.plugin" in pages
    assert not re.search(r"^::: *pickomino_rules\._plugin", pages, re.MULTILINE)
