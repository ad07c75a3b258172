"""A batch row and a reference `GameState`, each made from the other.

The batch engine keeps a game as numbers: the grill as 16 bits (bit ``i``: tile ``21 + i``
face up), the tiles turned face down and the stacks as padded rows of tile numbers with
their lengths, the phase as a code, and the dice as counts per face. These functions are
the one place that knows how those numbers map to a state and back; the engine only moves
the arrays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from pickomino_rules.batch._tables import (
    FIRST_TILE,
    PHASE_CHOOSE,
    PHASE_GAME_OVER,
    PHASE_ROLL,
    PHASES,
    TILES,
)
from pickomino_rules.state import GameState, Phase

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pickomino_rules.dice import RollOutcome
    from pickomino_rules.state import Layout

PHASE_CODES = {Phase.ROLL: PHASE_ROLL, **{phase: code for code, phase in PHASES.items()}}
"""The batch's code of each reference phase."""


@attrs.frozen
class Row:
    """One game as the batch's numbers (the stacks unpadded)."""

    grill: int
    face_down: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    player: int
    phase: int
    in_hand: int
    roll: tuple[int, ...]
    set_aside: tuple[int, ...]


def row_of(state: GameState) -> Row:
    """The numbers of a (validated, classic) ``state``."""
    return Row(
        grill=sum(1 << (tile - FIRST_TILE) for tile in state.grill),
        face_down=state.face_down,
        stacks=state.stacks,
        player=state.player,
        phase=PHASE_CODES[state.phase],
        in_hand=sum(state.in_hand),
        roll=state.roll.counts[0] if state.roll is not None else (0,) * 6,
        set_aside=state.set_aside,
    )


def state_of(  # noqa: PLR0913, PLR0917 (a row's columns, in the engine's order)
    grill: int,
    face_down: Sequence[int],
    stacks: Sequence[Sequence[int]],
    player: int,
    phase: int,
    in_hand: int,
    roll: Sequence[int],
    set_aside: Sequence[int],
    *,
    layout: Layout,
    outcome: Callable[[tuple[int, ...]], RollOutcome],
) -> GameState:
    """The reference state of a row's numbers (stacks and face-down tiles unpadded).

    ``outcome`` gives the rules' own roll showing given counts per face.
    """
    return GameState(
        grill=tuple(i + FIRST_TILE for i in range(TILES) if grill >> i & 1),
        face_down=tuple(face_down),
        stacks=tuple(map(tuple, stacks)),
        player=player,
        phase=PHASES[phase],
        in_hand=() if phase == PHASE_GAME_OVER else (in_hand,),
        roll=outcome(tuple(roll)) if phase == PHASE_CHOOSE else None,
        set_aside=tuple(set_aside),
        parts=(),
        layout=layout,
    )
