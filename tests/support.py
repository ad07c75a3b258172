"""Helpers for tests: scripted turns, and the shipped invariant check."""

from __future__ import annotations

import sys
import textwrap
from contextlib import contextmanager
from typing import TYPE_CHECKING

from pickomino_rules import GameState, Rules, apply, parse_move, registry
from pickomino_rules.testing import check_state

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from pathlib import Path

__all__ = ["check_invariants", "installed_plugin", "run"]


def run(rules: Rules, state: GameState, script: Iterable[str]) -> GameState:
    """Apply moves given as text: rolls like ``"444123ww"`` and actions like ``"take 4"``."""
    for text in script:
        state = apply(rules, state, parse_move(rules, text))
    return state


def check_invariants(rules: Rules, state: GameState) -> None:
    """Invariants of every reachable state: the conformance kit's own check."""
    check_state(rules, state)


@contextmanager
def installed_plugin(folder: Path, source: str) -> Iterator[None]:
    """A third-party distribution outside the source tree, registering ``tiny_variant:TINY``
    as variant 'tiny' by entry point, importable while the block runs."""
    (folder / "tiny_variant.py").write_text(textwrap.dedent(source))
    info = folder / "tiny_variant-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-variant\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pickomino_rules.variants]\ntiny = tiny_variant:TINY\n")
    sys.path.insert(0, str(folder))
    registry._installed.cache_clear()  # noqa: SLF001 (the lookup is cached per process)
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("tiny_variant", None)
        registry._installed.cache_clear()  # noqa: SLF001
