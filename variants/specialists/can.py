"""The worm in a can (rule E9): a stand-in worm for a stop without one.

When its owner stops with no worm among the set-aside dice, the can counts as the
required worm and adds 5 points. It is never used when a worm die was set aside,
and it is not used up. It starts on tile 11 (E2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules.dice import Face
from pickomino_rules.plugin import RuleModule
from pickomino_rules.variants.specialists.placement import Specialist, declare, owner

if TYPE_CHECKING:
    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import (
        CompiledTwins,
        GameState,
        Rules,
        TotalFn,
    )

__all__ = ["CAN", "can"]

CAN = Specialist("can", start=11)
"""The worm in a can."""

# Read once: an enum member read off its class costs ~10x a module global on Python 3.11.
_WORM_INDEX = Face.WORM - 1
_WORM_POINTS = Face.WORM.points


def _stop_total(inner: TotalFn, rules: Rules, state: GameState) -> int | None:
    total = inner(rules, state)
    if (
        total is None
        and not state.set_aside[_WORM_INDEX]
        and owner(rules, state, CAN) == state.player
    ):
        return state.total + _WORM_POINTS
    return total


def can() -> RuleModule:
    """E9: the worm in a can stands in for a missing worm, adding 5 points."""
    return RuleModule(
        name="can",
        guide=(
            "The worm in a can (E9): when you stop with no worm set aside, the can counts as "
            "your worm and adds 5 to your total. It is never used when you set aside a worm, "
            "and it is never used up."
        ),
        doc="E9: the worm in a can counts as a worm (5 points) when none was set aside",
        requires=("specialists",),
        extends=(declare(CAN),),
        stop_total=_stop_total,
        batch=_twin,
        compiled=_compiled_twins,
        ends_on_total=True,  # sees the dice only as their total at a turn's end
        mid_turn_by_count=True,  # nothing of it reads the dice while they are rolled
    )


def _twin() -> BatchTwin:
    """The batch engine's twin (imported when a batch is made: it needs numpy)."""
    from pickomino_rules.variants.twins import specialists  # noqa: PLC0415

    return specialists.CAN_TWIN


def _compiled_twins() -> CompiledTwins:
    """The compiled twins of its busiest hooks (where they were built)."""
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.CAN
