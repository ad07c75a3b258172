"""The crow (rule E12): it never leaves the grill and pays a grilled worm.

When the tile it sits on is taken, the crow moves (E6 placement) instead of being
gained, and the taker gets one grilled worm, as in E4. It starts on 23 (E2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules.plugin import RuleModule
from pickomino_rules.variants.grilled_worms import award
from pickomino_rules.variants.specialists.placement import (
    GAIN,
    Specialist,
    declare,
    return_to_grill,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import CompiledTwins, GameState, Rules

__all__ = ["CROW", "crow"]

CROW = Specialist("crow", start=23)
"""The crow."""


def _gain(
    inner: Callable[[Rules, GameState, Specialist, int], GameState],
    rules: Rules,
    state: GameState,
    spec: Specialist,
    player: int,
) -> GameState:
    if spec is not CROW and spec != CROW:
        return inner(rules, state, spec, player)
    return award(rules, return_to_grill(rules, state, CROW), player)


def crow() -> RuleModule:
    """E12: taking the crow's tile moves the crow and earns a grilled worm."""
    return RuleModule(
        name="crow",
        guide=(
            "The crow (E12) never leaves the grill. When the tile it sits on is taken, it "
            "flies to the lowest free face-up tile and the taker gets a grilled worm."
        ),
        doc="E12: the crow stays on the grill; its tile's taker gets a grilled worm",
        requires=("specialists", "grilled_worms"),
        extends=(declare(CROW), GAIN.wrap(_gain)),
        batch=_twin,
        compiled=_compiled_twins,
        ends_on_total=True,  # sees the dice only as their total at a turn's end
        mid_turn_by_count=True,  # nothing of it reads the dice while they are rolled
    )


def _twin() -> BatchTwin:
    """The batch engine's twin (imported when a batch is made: it needs numpy)."""
    from pickomino_rules.variants.twins import specialists  # noqa: PLC0415

    return specialists.CROW_TWIN


def _compiled_twins() -> CompiledTwins:
    """The compiled twins of its busiest hooks (where they were built)."""
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.CROW
