"""Nothing users import moves, and seeded games stay the same games.

Two snapshots are checked in under ``tests/data``:

- ``public_api.json``: the ``__all__`` of every public module (a module none of whose dotted
  parts after the package starts with ``_``). A name may be added, deliberately, by
  regenerating the file; a name removed or a module gone fails here.
- ``seeded_games.json``: a digest of the moves and final stacks of seeded games between bots
  in every built-in variant, first written by release 0.1.0. The engine's restructuring must
  play them move for move.

Regenerate both with ``python tests/package/test_compatibility.py`` (then read the diff).
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import json
import pkgutil
import random
from pathlib import Path

import pickomino_rules
from pickomino_rules import new_game, playout
from pickomino_rules.bots import greedy_bot, random_bot
from pickomino_rules.errors import MissingExtraError

DATA = Path(__file__).parent / "data"


def public_api() -> dict[str, list[str] | None]:
    """Every public module's ``__all__`` (None where it has none), by module name."""
    names = ["pickomino_rules"] + [
        found.name
        for found in pkgutil.walk_packages(pickomino_rules.__path__, "pickomino_rules.")
        if not any(part.startswith("_") for part in found.name.split(".")[1:])
    ]
    api: dict[str, list[str] | None] = {}
    for name in sorted(names):
        try:
            listed = getattr(importlib.import_module(name), "__all__", None)
        except MissingExtraError:  # a module of an extra not installed here: read its source
            listed = _static_all(name)
        api[name] = None if listed is None else sorted(listed)
    # A compiled public module (its stub ships beside it) where nothing was compiled (a pure
    # install): its names as the stub declares them, which the compiled module must match.
    for stub in Path(pickomino_rules.__path__[0]).glob("*.pyi"):
        name = f"pickomino_rules.{stub.stem}"
        if name not in api and not stub.stem.startswith("_"):
            api[name] = sorted(_all_in(stub))
    return dict(sorted(api.items()))


def _all_in(source: Path) -> list[str]:
    """The ``__all__`` a source or stub file assigns."""
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{source} assigns no __all__")


def test_a_compiled_module_s_stub_lists_its_names() -> None:
    """Where it was built, a compiled public module's names are its stub's (a pure install
    reads them from the stub)."""
    for stub in Path(pickomino_rules.__path__[0]).glob("*.pyi"):
        if not stub.stem.startswith("_") and importlib.util.find_spec(
            f"pickomino_rules.{stub.stem}"
        ):
            module = importlib.import_module(f"pickomino_rules.{stub.stem}")
            assert sorted(module.__all__) == sorted(_all_in(stub)), stub.name


def _static_all(name: str) -> list[str] | None:
    """A module's ``__all__`` as written in its source, without importing it."""
    spec = importlib.util.find_spec(name)
    assert spec is not None
    assert spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            return list(ast.literal_eval(node.value))
    return None


def seeded_games() -> dict[str, str]:
    """A digest of each seeded game: its moves in order and the final stacks."""
    digests = {}
    for variant in ("classic", "extended", "extrawurm"):
        for players in (2, 3, 4):
            for seed in range(4):
                for name, bot in (("random", random_bot), ("greedy", greedy_bot)):
                    rules, state = new_game(variant, players=players)
                    digest = hashlib.sha256()
                    for move, state in playout(rules, state, bot, random.Random(seed)):  # noqa: B007, B020 (keeps the last)
                        digest.update(str(move).encode())
                    digest.update(repr(state.stacks).encode())
                    digests[f"{variant}/{players}/{seed}/{name}"] = digest.hexdigest()[:16]
    return digests


def test_every_public_module_keeps_its_names() -> None:
    snapshot = json.loads((DATA / "public_api.json").read_text())
    now = public_api()
    gone = sorted(set(snapshot) - set(now))
    assert not gone, f"public modules gone: {gone}"
    for module, names in snapshot.items():
        if names is not None:
            missing = sorted(set(names) - set(now[module] or ()))
            assert not missing, f"{module} lost {missing}"
    assert now == snapshot, "a public name was added: regenerate the snapshot and say so"


def test_seeded_games_are_the_games_release_0_1_played() -> None:
    """The same moves as 0.1, but ``greedy``'s in extended and Extrawurm (0.2 plays them better:
    it takes the dice that win a grilled worm, E4); its classic games are 0.1's."""
    assert seeded_games() == json.loads((DATA / "seeded_games.json").read_text())


if __name__ == "__main__":
    (DATA / "public_api.json").write_text(json.dumps(public_api(), indent=1) + "\n")
    (DATA / "seeded_games.json").write_text(
        json.dumps(seeded_games(), indent=1, sort_keys=True) + "\n"
    )
