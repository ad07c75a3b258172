"""Helpers for tests: scripted turns and the invariants every state must keep."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pickomino_rules import GameState, Phase, Rules, apply, legal_actions, parse_move

if TYPE_CHECKING:
    from collections.abc import Iterable


def run(rules: Rules, state: GameState, script: Iterable[str]) -> GameState:
    """Apply moves given as text: rolls like ``"444123ww"`` and actions like ``"take 4"``."""
    for text in script:
        state = apply(rules, state, parse_move(rules, text))
    return state


def check_invariants(rules: Rules, state: GameState) -> None:
    """Invariants of every reachable state, for every variant (conformance)."""
    places = Counter(state.grill) + Counter(state.out)
    for stack in state.stacks:
        places += Counter(stack)
    assert sorted(places.elements()) == list(rules.tiles), "every tile in exactly one place"
    assert list(state.grill) == sorted(state.grill), "grill ascending"
    assert 0 <= state.player < state.players
    assert (state.phase is Phase.GAME_OVER) == (not state.grill), "C12"
    legal = legal_actions(rules, state)
    assert (state.phase is Phase.GAME_OVER) == (not legal), "terminal iff nothing legal"
    if state.phase in (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE):
        dealt = rules.turn_dice(rules, state)
        assert sum(state.in_hand) + sum(state.kept) == sum(dealt), "dice are conserved"
        assert all(n >= 0 for n in state.in_hand)
    if state.phase is Phase.CHOOSE:
        assert state.roll is not None
        assert state.roll.dice == state.in_hand, "the roll is of the dice in hand"
    else:
        assert state.roll is None
    assert 0 not in state.kept or state.total <= 5 * sum(state.kept)
    for part in state.parts:
        check = getattr(part, "check", None)
        if check is not None:
            check(rules, state)
