"""The hooks a rule module may define: their signatures, arguments and when they run."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from pickomino_rules import turn
from pickomino_rules.actions import Action
from pickomino_rules.rules import (
    ActionsFn,
    ApplyFn,
    ClaimsFn,
    DiceFn,
    Rules,
    ScoresFn,
    SetAsideFn,
    StateFn,
    TakeTileFn,
    TotalFn,
)
from pickomino_rules.state import Claim, GameState

if TYPE_CHECKING:
    from pickomino_rules.dice import Face

__all__ = [
    "END_HOOKS",
    "HOOKS",
    "HOOK_ARGUMENTS",
    "MID_TURN_HOOKS",
    "ActionsHook",
    "ApplyHook",
    "ClaimsHook",
    "DiceHook",
    "ScoresHook",
    "SetAsideHook",
    "StateHook",
    "TakeTileHook",
    "TotalHook",
]

StateHook = Callable[[StateFn, Rules, GameState], GameState]
"""A module's ``setup``, ``bust`` or ``end_turn`` hook: ``hook(inner, rules, state)``."""
ActionsHook = Callable[[ActionsFn, Rules, GameState], tuple[Action, ...]]
"""A module's ``roll_actions`` or ``pending_actions`` hook."""
DiceHook = Callable[[DiceFn, Rules, GameState], tuple[int, ...]]
"""A module's ``turn_dice`` hook."""
SetAsideHook = Callable[[SetAsideFn, Rules, GameState, "Face"], GameState]
"""A module's ``set_aside`` hook: ``hook(inner, rules, state, face)``."""
TotalHook = Callable[[TotalFn, Rules, GameState], int | None]
"""A module's ``stop_total`` hook."""
ClaimsHook = Callable[[ClaimsFn, Rules, GameState, int], tuple[Claim, ...]]
"""A module's ``claims`` hook: ``hook(inner, rules, state, total)``."""
TakeTileHook = Callable[[TakeTileFn, Rules, GameState, Claim], GameState]
"""A module's ``take_tile`` hook: ``hook(inner, rules, state, claim)``."""
ApplyHook = Callable[[ApplyFn, Rules, GameState, Action], GameState]
"""A module's ``apply_action`` hook: ``hook(inner, rules, state, action)``."""
ScoresHook = Callable[[ScoresFn, Rules, GameState], tuple[int, ...]]
"""A module's ``scores`` hook."""

HOOKS = turn.HOOKS
"""Hook names, in the order the core runs them in a turn (``configure`` runs at composition)."""

HOOK_ARGUMENTS: Mapping[str, tuple[str, ...]] = {
    "configure": ("components",),
    **dict.fromkeys(HOOKS, ("inner", "rules", "state")),
    "set_aside": ("inner", "rules", "state", "face"),
    "claims": ("inner", "rules", "state", "total"),
    "take_tile": ("inner", "rules", "state", "claim"),
    "apply_action": ("inner", "rules", "state", "action"),
}
"""The arguments each hook of a module is called with, in order (`compose` checks them)."""

END_HOOKS = ("stop_total", "claims", "take_tile", "bust", "end_turn", "pending_actions")
"""The hooks that run when a turn ends (a stop or a bust)."""

MID_TURN_HOOKS = ("roll_actions", "pending_actions", "set_aside", "apply_action")
"""The hooks that may run while dice are rolled and set aside (see ``mid_turn_by_count``)."""
