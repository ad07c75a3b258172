"""The weasel (rule E10): re-roll a whole roll once per turn.

Right after a roll and before setting dice aside, its owner may re-roll all the
dice of that roll, once per turn
([`UseWeasel`][pickomino_rules.variants.specialists.weasel.UseWeasel]). A roll that would bust
offers the weasel before the bust happens; declining it
([`SkipWeasel`][pickomino_rules.variants.specialists.weasel.SkipWeasel]) accepts the bust. The
weasel is ready again next turn. It starts on 25 (E2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from pickomino_rules.actions import Action
from pickomino_rules.plugin import PartKey, Phase, RuleModule
from pickomino_rules.variants.specialists.placement import Specialist, declare, owner

if TYPE_CHECKING:
    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import (
        ActionsFn,
        ActionsHook,
        ApplyFn,
        ApplyHook,
        CompiledTwins,
        GameState,
        PlayerName,
        Rules,
        StateFn,
        StateHook,
    )

__all__ = ["WEASEL", "WEASEL_PART", "SkipWeasel", "UseWeasel", "WeaselState", "weasel"]

WEASEL = Specialist("weasel", start=25)
"""The weasel."""


@attrs.frozen
class WeaselState:
    """Whether the weasel was used (or declined) this turn.

    Attributes:
        used: True once its owner used or declined it this turn.
    """

    used: bool = False

    def __str__(self) -> str:
        return "weasel: used this turn" if self.used else "weasel: not used this turn"


def _features(rules: Rules, state: GameState, part: WeaselState, me: int) -> list[float]:  # noqa: ARG001
    return [float(part.used)]


def _describe(rules: Rules, state: GameState, part: WeaselState, name: PlayerName) -> str | None:
    """The weasel's readiness, while a player has it (on the grill it is nobody's)."""
    keeper = owner(rules, state, WEASEL)
    if keeper is None:
        return None
    return f"weasel ({name(keeper)}): {'used this turn' if part.used else 'ready'}"


WEASEL_PART = PartKey("weasel", WeaselState, observe=_features, describe=_describe)
"""The weasel's part of the state: whether it was used this turn."""


@attrs.frozen
class UseWeasel(Action):
    """Re-roll every die of the roll just made (E10)."""

    keyword: ClassVar[str] = "weasel"
    rerolls: ClassVar[bool] = True


@attrs.frozen
class SkipWeasel(Action):
    """Decline the weasel on a roll that busts, accepting the bust (E10)."""

    keyword: ClassVar[str] = "accept"


USE = UseWeasel()
SKIP = SkipWeasel()


def weasel() -> RuleModule:
    """E10: once per turn its owner may re-roll a whole roll, even a busting one."""

    def setup(inner: StateFn, rules: Rules, state: GameState) -> GameState:
        return WEASEL_PART.set(rules, inner(rules, state), WeaselState())

    # Whether the player to move may use the weasel follows from the parts and the player,
    # which stay the same objects for many rolls: the last answer is kept (replaced whole).
    last: list[tuple[object, object, object, bool]] = [(None, None, None, False)]

    def roll_actions(inner: ActionsFn, rules: Rules, state: GameState) -> tuple[Action, ...]:
        takes = inner(rules, state)
        seen = last[0]
        if seen[0] is not state.parts or seen[1] != state.player or seen[2] is not rules:
            ready = owner(rules, state, WEASEL) == state.player and not (
                WEASEL_PART.get(rules, state).used
            )
            seen = last[0] = (state.parts, state.player, rules, ready)
        if not seen[3]:
            return takes
        return (*takes, USE) if takes else (USE, SKIP)

    def apply_action(inner: ApplyFn, rules: Rules, state: GameState, action: Action) -> GameState:
        if action == USE:
            state = WEASEL_PART.set(rules, state, WeaselState(used=True))
            return state.replace(phase=Phase.ROLL, roll=None)
        if action == SKIP:
            return WEASEL_PART.set(rules, state, WeaselState(used=True))  # the roll now busts
        return inner(rules, state, action)

    def end_turn(inner: StateFn, rules: Rules, state: GameState) -> GameState:
        state = inner(rules, state)
        if WEASEL_PART.get(rules, state).used:
            state = WEASEL_PART.set(rules, state, WeaselState())
        return state

    return RuleModule(
        name="weasel",
        guide=(
            "The weasel (E10): once a turn, right after a roll and before setting dice aside, "
            "its owner may roll all of that roll again, even a roll that would bust. It is "
            "ready again next turn."
        ),
        doc="E10: the weasel re-rolls a whole roll once per turn",
        requires=("specialists",),
        part=WEASEL_PART,
        action_types=(UseWeasel, SkipWeasel),
        extends=(declare(WEASEL),),
        setup=setup,
        roll_actions=roll_actions,
        apply_action=apply_action,
        end_turn=end_turn,
        batch=_twin,
        compiled=lambda: _compiled_twins(roll_actions, apply_action, end_turn),
        ends_on_total=True,  # sees the dice only as their total at a turn's end
        mid_turn_by_count=True,  # re-rolls a whole roll, once a turn
    )


def _twin() -> BatchTwin:
    """The batch engine's twin (imported when a batch is made: it needs numpy)."""
    from pickomino_rules.variants.twins import specialists  # noqa: PLC0415

    return specialists.WEASEL_TWIN


def _compiled_twins(
    roll_actions: ActionsHook, apply_action: ApplyHook, end_turn: StateHook
) -> CompiledTwins:
    """The compiled twins of its hooks, where they were built.

    Their row forms; on a state, the hooks themselves.
    """
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.weasel_twins(roll_actions, apply_action, end_turn)
