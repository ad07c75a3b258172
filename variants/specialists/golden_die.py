"""The golden die (rule E8, option O6): a ninth die for its owner.

Its owner rolls it with the white dice at the start of each of his turns. It is
one more die of the roll: set aside with the white dice of the face chosen, it
counts that face's points; the forced stop of C6 comes when all 9 dice are set
aside. Its faces are 1, 1, 1, worm, worm, worm by default (O6). It starts on 27.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from pickomino_rules.dice import DieKind, Face
from pickomino_rules.plugin import Components, RuleModule
from pickomino_rules.variants.specialists.placement import Specialist, declare, owner

if TYPE_CHECKING:
    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import CompiledTwins, DiceFn, DiceHook, GameState, Rules

__all__ = ["GOLDEN_DIE", "GOLDEN_FACES", "golden_die"]

GOLDEN_DIE = Specialist("golden_die", start=27)
"""The golden die."""

GOLDEN_FACES = (Face.ONE,) * 3 + (Face.WORM,) * 3
"""The golden die's sides by default (O6)."""


def golden_die(faces: tuple[Face, ...] = GOLDEN_FACES) -> RuleModule:
    """E8: the golden die's owner rolls it as a ninth die.

    Args:
        faces: The six sides of the golden die (O6).
    """
    kind = DieKind("golden", faces)

    def configure(components: Components) -> Components:
        return attrs.evolve(
            components,
            die_kinds=(*components.die_kinds, kind),
            dice=(*components.dice, 0),
            most_dice=(*(components.most_dice or components.dice), 1),
        )

    def turn_dice(inner: DiceFn, rules: Rules, state: GameState) -> tuple[int, ...]:
        dice = inner(rules, state)
        if owner(rules, state, GOLDEN_DIE) != state.player:
            return dice
        index = rules.die_kinds.index(kind)
        return (*dice[:index], dice[index] + 1, *dice[index + 1 :])

    return RuleModule(
        name="golden_die",
        guide=(
            "The golden die (E8): its owner rolls it with the white dice at the start of each "
            "turn, nine dice in all. It shows 1, 1, 1, worm, worm, worm, and it is set aside "
            "with the white dice of the face chosen, counting that face's points."
        ),
        doc="E8: the golden die's owner rolls it as a ninth die (O6: its faces)",
        requires=("specialists",),
        after=("classic",),  # adds its die to the classic dice
        extends=(declare(GOLDEN_DIE),),
        configure=configure,
        turn_dice=turn_dice,
        batch=lambda: _twin(kind),
        compiled=lambda: _compiled_twins(kind, turn_dice),
        ends_on_total=True,  # sees the dice only as their total at a turn's end
        mid_turn_by_count=True,  # nothing of it reads the dice while they are rolled
    )


def _twin(kind: DieKind) -> BatchTwin:
    """The batch engine's twin (imported when a batch is made: it needs numpy)."""
    from pickomino_rules.variants.twins.specialists import golden_die_twin  # noqa: PLC0415

    return golden_die_twin(kind)


def _compiled_twins(kind: DieKind, turn_dice: DiceHook) -> CompiledTwins:
    """The compiled twins of its hooks, where they were built.

    Their row forms; on a state, the hooks themselves.
    """
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.golden_die_twins(kind, turn_dice)
