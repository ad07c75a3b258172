"""The crow (rule E12): it never leaves the grill and pays a grilled worm.

When the tile it sits on is taken, the crow moves (E6 placement) and the taker
gets one grilled worm, as in E4. It starts on 23 (E2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules import RuleModule
from pickomino_rules.variants.grilled_worms import award
from pickomino_rules.variants.specialists.placement import SPECIALISTS, Specialist, declare

if TYPE_CHECKING:
    from pickomino_rules import Claim, GameState, Rules
    from pickomino_rules.rules import TakeTileFn

__all__ = ["crow"]


def _take_tile(inner: TakeTileFn, rules: Rules, state: GameState, claim: Claim) -> GameState:
    under_crow = (
        claim.victim is None and SPECIALISTS.get(rules, state).place("crow").tile == claim.tile
    )
    state = inner(rules, state, claim)
    return award(rules, state, state.player) if under_crow else state


def crow() -> RuleModule:
    """E12: taking the crow's tile moves the crow and earns a grilled worm."""
    return RuleModule(
        name="crow",
        doc="E12: the crow stays on the grill; its tile's taker gets a grilled worm",
        requires=("specialists", "grilled_worms"),
        extends=declare(Specialist("crow", start=23, stays_on_grill=True)),
        take_tile=_take_tile,
    )
