"""Helpers for tests: scripted turns, and the shipped invariant check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules import GameState, Rules, apply, parse_move
from pickomino_rules.testing import check_state

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["check_invariants", "run"]


def run(rules: Rules, state: GameState, script: Iterable[str]) -> GameState:
    """Apply moves given as text: rolls like ``"444123ww"`` and actions like ``"take 4"``."""
    for text in script:
        state = apply(rules, state, parse_move(rules, text))
    return state


def check_invariants(rules: Rules, state: GameState) -> None:
    """Invariants of every reachable state: the conformance kit's own check."""
    check_state(rules, state)
