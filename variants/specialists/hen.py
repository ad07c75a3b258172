"""The hen (rule E11): she shields her owner's stack and grilled worms.

She sits on top of her owner's stack. A player who would steal the owner's top
tile takes the hen instead, and the tile stays. When her owner busts he returns
the hen to the grill instead of his top tile, and no tile is turned face down; if
he busts with no tile he keeps her (and O1, when on, turns the highest grill tile
as for anyone with no tile). Her owner's grilled worms cannot be taken (E4). She
starts on 21 (E2).

All of this lives here: the module wraps the specialists' hooks (it is composed
after them) and extends their extension points and the grilled worms' one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules.plugin import RuleModule
from pickomino_rules.variants.grilled_worms import GRILLED_WORM_VICTIMS
from pickomino_rules.variants.specialists.placement import (
    RETURNED_ON_BUST,
    Specialist,
    declare,
    gain,
    owner,
    return_to_grill,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import (
        Claim,
        CompiledTwins,
        GameState,
        Rules,
        StateFn,
        TakeTileFn,
    )

__all__ = ["HEN", "hen"]

HEN = Specialist("hen", start=21)
"""The hen."""


def _take_tile(inner: TakeTileFn, rules: Rules, state: GameState, claim: Claim) -> GameState:
    if claim.victim is not None and owner(rules, state, HEN) == claim.victim:
        return gain(rules, state, HEN, state.player)  # the hen instead; the tile stays
    return inner(rules, state, claim)


def _bust(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    if state.stacks[state.player] and owner(rules, state, HEN) == state.player:
        return return_to_grill(rules, state, HEN)  # instead of the tile; nothing is turned
    return inner(rules, state)


def _returned_on_bust(
    inner: Callable[[Rules, GameState], tuple[Specialist, ...]], rules: Rules, state: GameState
) -> tuple[Specialist, ...]:
    returned = inner(rules, state)
    if not returned or state.stacks[state.player]:
        return returned
    return tuple(spec for spec in returned if spec != HEN)  # kept on a bust with no tile


def _victims(
    inner: Callable[[Rules, GameState, int], tuple[int, ...]],
    rules: Rules,
    state: GameState,
    taker: int,
) -> tuple[int, ...]:
    protected = owner(rules, state, HEN)
    return tuple(p for p in inner(rules, state, taker) if p != protected)


def hen() -> RuleModule:
    """E11: the hen is stolen instead of her owner's tile and returned instead of it."""
    return RuleModule(
        name="hen",
        guide=(
            "The hen (E11) sits on top of her owner's stack: whoever would steal the owner's "
            "top tile takes the hen instead, and the tile stays. When her owner busts, the "
            "hen goes back to the grill instead of his top tile and nothing is turned face "
            "down; with no tile, he keeps her. Her owner's grilled worms cannot be taken."
        ),
        doc="E11: the hen guards her owner's top tile and grilled worms",
        requires=("specialists",),
        after=("specialists",),  # her steal and bust replace the specialists' handling
        extends=(
            declare(HEN),
            RETURNED_ON_BUST.wrap(_returned_on_bust),
            GRILLED_WORM_VICTIMS.wrap(_victims, optional=True),
        ),
        take_tile=_take_tile,
        bust=_bust,
        batch=_twin,
        compiled=_compiled_twins,
        ends_on_total=True,  # sees the dice only as their total at a turn's end
        mid_turn_by_count=True,  # nothing of it reads the dice while they are rolled
    )


def _twin() -> BatchTwin:
    """The batch engine's twin (imported when a batch is made: it needs numpy)."""
    from pickomino_rules.variants.twins import specialists  # noqa: PLC0415

    return specialists.HEN_TWIN


def _compiled_twins() -> CompiledTwins:
    """The compiled twins of its busiest hooks (where they were built)."""
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.HEN
