"""Every public name is documented, and the top-level package exports what it lists."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import pickomino_rules
from pickomino_rules.errors import MissingExtraError

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(pickomino_rules.__path__, prefix="pickomino_rules.")
)


def documented_names(source: str) -> dict[str, bool]:
    """For each top-level definition: does it carry a docstring (or a string after it)?"""
    tree = ast.parse(source)
    found: dict[str, bool] = {}
    body = tree.body
    for position, node in enumerate(body):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            found[node.name] = ast.get_docstring(node) is not None
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            following = body[position + 1] if position + 1 < len(body) else None
            has_doc = (
                isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            )
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = has_doc
    return found


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_has_a_docstring(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except MissingExtraError as error:  # the train extra is outside the test extra
        pytest.skip(f"{name} needs the {error.extra!r} extra, not installed here")
    assert module.__doc__, f"{name} has no module docstring"
    path = Path(inspect.getfile(module))
    compiled = path.suffix != ".py"  # the compiled hot path: its names are private
    defined = {} if compiled else documented_names(path.read_text(encoding="utf-8"))
    public = getattr(module, "__all__", [])
    missing = [item for item in public if item in defined and not defined[item]]
    assert not missing, f"{name}: undocumented public names {missing}"
    for item in public:
        value = getattr(module, item)
        home = getattr(value, "__module__", "")  # a package's private module counts as its own
        if inspect.isclass(value) and (home == name or home.startswith(f"{name}._")):
            for attribute, member in vars(value).items():
                if not attribute.startswith("_") and inspect.isfunction(member):
                    assert inspect.getdoc(member), f"{name}.{item}.{attribute} has no docstring"


def test_top_level_exports_resolve() -> None:
    for item in pickomino_rules.__all__:
        assert hasattr(pickomino_rules, item), item
    assert "pickomino_rules.variants.extended" in MODULES


def test_a_roll_counts_dice_by_face_and_the_old_name_warns() -> None:
    from pickomino_rules import Face, RollOutcome  # noqa: PLC0415

    roll = RollOutcome.parse("44w1")
    assert [roll.count_of(face) for face in Face] == [1, 0, 0, 2, 0, 1]
    with pytest.warns(DeprecationWarning, match="renamed count_of"):
        assert roll.total_of(Face.FOUR) == 2
