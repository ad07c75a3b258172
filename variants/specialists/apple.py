"""The apple (rule E7): three extra worms for its owner at the end. Starts on 29 (E2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules.plugin import RuleModule
from pickomino_rules.variants.specialists.placement import Specialist, declare, owner

if TYPE_CHECKING:
    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import (
        CompiledTwins,
        GameState,
        Rules,
        ScoresFn,
    )

__all__ = ["APPLE", "APPLE_WORMS", "apple"]

APPLE = Specialist("apple", start=29)
"""The apple."""

APPLE_WORMS = 3
"""Worms the apple is worth (E7)."""


def _scores(inner: ScoresFn, rules: Rules, state: GameState) -> tuple[int, ...]:
    worms = inner(rules, state)
    holder = owner(rules, state, APPLE)
    if holder is None:
        return worms
    return tuple(w + APPLE_WORMS * (p == holder) for p, w in enumerate(worms))


def apple() -> RuleModule:
    """E7: the apple's owner gets 3 extra worms at the end."""
    return RuleModule(
        name="apple",
        guide=("The apple (E7): whoever owns it when the game ends gets 3 more worms."),
        doc="E7: the apple is worth 3 worms to its owner",
        requires=("specialists",),
        extends=(declare(APPLE),),
        scores=_scores,
        batch=_twin,
        compiled=_compiled_twins,
        ends_on_total=True,  # sees the dice only as their total at a turn's end
        mid_turn_by_count=True,  # nothing of it reads the dice while they are rolled
    )


def _twin() -> BatchTwin:
    """The batch engine's twin (imported when a batch is made: it needs numpy)."""
    from pickomino_rules.variants.twins import specialists  # noqa: PLC0415

    return specialists.APPLE_TWIN


def _compiled_twins() -> CompiledTwins:
    """The compiled twins of its busiest hooks (where they were built)."""
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.APPLE
