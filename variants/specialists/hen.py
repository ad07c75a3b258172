"""The hen (rule E11): she shields her owner's stack and grilled worms.

She sits on top of her owner's stack. A player who would steal the owner's top
tile takes the hen instead, and the tile stays. When her owner busts he returns
the hen to the grill instead of his top tile, and no tile is turned face down; if
he busts with no tile he keeps her. Her owner's grilled worms cannot be taken
(E4). She starts on 21 (E2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules import RuleModule
from pickomino_rules.variants.specialists.placement import Specialist, declare, owner

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules import Claim, GameState, Rules
    from pickomino_rules.rules import StateFn, TakeTileFn

__all__ = ["hen"]

HEN = Specialist("hen", start=21, kept_on_empty_bust=True)


def _take_tile(inner: TakeTileFn, rules: Rules, state: GameState, claim: Claim) -> GameState:
    if claim.victim is not None and owner(rules, state, "hen") == claim.victim:
        return state  # the hen is taken instead (the specialists module moves her)
    return inner(rules, state, claim)


def _bust(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    if state.stacks[state.player] and owner(rules, state, "hen") == state.player:
        return state  # she goes back instead of the tile; nothing is turned
    return inner(rules, state)


def _victims(
    inner: Callable[[Rules, GameState, int], tuple[int, ...]],
    rules: Rules,
    state: GameState,
    taker: int,
) -> tuple[int, ...]:
    protected = owner(rules, state, "hen")
    return tuple(p for p in inner(rules, state, taker) if p != protected)


def hen() -> RuleModule:
    """E11: the hen is stolen instead of her owner's tile and returned instead of it."""
    return RuleModule(
        name="hen",
        doc="E11: the hen guards her owner's top tile and grilled worms",
        requires=("specialists",),
        extends={**declare(HEN), "grilled_worm_victims": _victims},
        take_tile=_take_tile,
        bust=_bust,
    )
