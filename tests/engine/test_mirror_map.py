"""The maintainers' map names every second implementation of the rules.

``docs/maintainers.md`` ("Where a rule lives") maps each rule to its reference and to every
file that restates it: the compiled and vectorised twins, the declared mirrors. A rule change
is one edit in the reference and one in each twin the map names, so a twin missing from the
map is a twin a maintainer does not know to change. Here the twins are found without the map:
every Cython source of the repository (``.pyx`` and ``.pxd``), every batch twin module of the
variants, and every module holding a declared mirror (a ``MIRRORS`` map, or a function or class
one names as a twin); each must be named in the map.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from typing import TYPE_CHECKING

import pytest

import pickomino_rules
from pickomino_rules import turn
from pickomino_rules.errors import MissingExtraError
from support import ROOT

if TYPE_CHECKING:
    from pathlib import Path
    from types import ModuleType

SRC = ROOT / "src" / "pickomino_rules"
MAP = ROOT / "docs" / "maintainers.md"


def _named(path: Path) -> str:
    """How the map names a file: from the package (``batch/_core.py``), or ``variants/...``."""
    return (
        path.relative_to(SRC) if path.is_relative_to(SRC) else path.relative_to(ROOT)
    ).as_posix()


def _source(module_name: str) -> Path:
    """A module's source in the repository (the install may link elsewhere): ``.py`` or ``.pyx``."""
    parts = module_name.split(".")[1:]
    base = ROOT.joinpath(*parts) if parts[0] == "variants" else SRC.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base.with_suffix(".pyx"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    raise AssertionError(f"no source for {module_name}")


def _map_text() -> str:
    text = MAP.read_text(encoding="utf-8")
    start = text.index("## Where a rule lives")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _in_map(name: str, text: str) -> bool:
    """A backticked mention of the file (``batch/_core.py``) or of a name in it."""
    stem = name.rsplit(".", 1)[0]
    return re.search(rf"`{re.escape(stem)}(\.[\w.]+)?[` ]", text) is not None


def _cython_sources() -> set[Path]:
    """Every Cython module and declaration file (a ``.pxd`` may hold rules: ``rows.pxd``)."""
    return {
        path
        for folder in (SRC, ROOT / "variants")
        for pattern in ("*.pyx", "*.pxd")
        for path in folder.rglob(pattern)
    }


def _variant_twins() -> set[Path]:
    return {path for path in (ROOT / "variants" / "twins").glob("*.py") if path.stem != "__init__"}


def _modules() -> list[ModuleType]:
    found: list[ModuleType] = []
    for info in pkgutil.walk_packages(pickomino_rules.__path__, prefix="pickomino_rules."):
        try:
            found.append(importlib.import_module(info.name))
        except (MissingExtraError, ImportError):  # an extra not installed here
            continue
    return found


def _file_of(thing: object) -> Path | None:
    name = getattr(inspect.getmodule(thing), "__name__", "")
    return _source(name) if name.startswith("pickomino_rules.") else None


def _declared_mirrors() -> set[Path]:
    """Every module with a ``MIRRORS`` map, and every module defining a twin one names."""
    files: set[Path] = set()
    for module in _modules():
        mirrors = vars(module).get("MIRRORS")
        if not isinstance(mirrors, dict):
            continue
        files.add(_source(module.__name__))
        for twin in mirrors:
            if callable(twin):
                found = _file_of(getattr(twin, "__wrapped__", twin))
                if found is not None:
                    files.add(found)
    return files


def test_the_twins_are_found_without_the_map() -> None:
    """The search itself finds what it must: else an empty search would pass the test below."""
    mirrors = {_named(path) for path in _declared_mirrors()}
    assert {"_engine/_kernel.pyx", "_engine/explain.py"} <= mirrors
    assert "solver/_nodes.py" in mirrors
    assert {"batch/_mirrors.py", "batch/_core.py", "batch_plugin.py"} <= mirrors
    assert {_named(path) for path in _cython_sources()} >= {
        "_engine/_kernel.pyx",
        "_engine/_row.pyx",
        "_engine/states.pxd",
        "batch/_fused.pyx",
        "_engine/rows.pxd",
        "compiled_plugin.pyx",
        "compiled_plugin.pxd",
        "variants/twins/_compiled.pyx",
    }
    assert "variants/twins/classic.py" in {_named(path) for path in _variant_twins()}


@pytest.mark.parametrize(
    "name",
    sorted({_named(path) for path in _cython_sources() | _variant_twins() | _declared_mirrors()}),
)
def test_the_maintainers_map_names_every_twin(name: str) -> None:
    assert _in_map(name, _map_text()), f"docs/maintainers.md's map does not name {name}"


def test_c4_the_faces_a_roll_offers_are_tabulated_from_the_reference() -> None:
    """C4: the batch's numpy twin and the solver's graph take the faces a roll offers from
    `turn.offered_faces` (tabulated), so a change to C4 there reaches them unedited."""
    pytest.importorskip("numpy")
    from pickomino_rules.batch import _core  # noqa: PLC0415 (numpy: an extra)
    from pickomino_rules.solver import _nodes  # noqa: PLC0415

    expected = [
        [
            [bool(turn.offered_faces(shown, used) >> face & 1) for face in range(6)]
            for shown in range(64)
        ]
        for used in range(64)
    ]
    assert _core._OFFERED.tolist() == expected  # noqa: SLF001
    assert _nodes._offered().tolist() == expected  # noqa: SLF001


def test_c6_rolling_again_is_tabulated_from_the_reference() -> None:
    """C6: the batch's numpy step machine and the solver's graph take whether the dice may be
    rolled again from `turn.can_roll` (tabulated), as the step machine asks it."""
    pytest.importorskip("numpy")
    from pickomino_rules.batch import _core  # noqa: PLC0415 (numpy: an extra)
    from pickomino_rules.solver import _nodes  # noqa: PLC0415

    expected = [
        [turn.can_roll(used, dice_left=left) for left in (False, True)] for used in range(64)
    ]
    assert _core.CAN_ROLL.tolist() == expected
    assert _nodes._can_roll().tolist() == expected  # noqa: SLF001
