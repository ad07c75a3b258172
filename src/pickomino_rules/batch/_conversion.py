"""A batch row and a reference `GameState`, each made from the other.

The batch keeps a game as numbers: the grill as bits (bit ``i``: tile ``rules.tiles[i]`` face
up), the tiles turned face down and the stacks as padded rows of tile numbers with their
lengths, the phase as a code, the dice as counts per kind and face, and each part in its
twin's arrays. These functions are the one place that knows how those numbers map to a state
and back; the engine only moves the arrays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pickomino_rules.batch_plugin import (
    PHASE_CHOOSE,
    PHASE_DECIDE,
    PHASE_GAME_OVER,
    PHASE_ROLL,
    PHASE_TURN_OVER,
)
from pickomino_rules.state import GameState, Phase

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.batch_plugin import BatchTable, PartTwin
    from pickomino_rules.dice import RollOutcome

PHASE_CODES = {
    Phase.ROLL: PHASE_ROLL,
    Phase.CHOOSE: PHASE_CHOOSE,
    Phase.DECIDE: PHASE_DECIDE,
    Phase.TURN_OVER: PHASE_TURN_OVER,
    Phase.GAME_OVER: PHASE_GAME_OVER,
}
"""The batch's code of each reference phase."""
PHASES = {code: phase for phase, code in PHASE_CODES.items()}

Parts = tuple[tuple[Any, "PartTwin"], ...]


def write_row(table: BatchTable, parts: Parts, row: int, state: GameState) -> None:
    """Put a (validated) ``state`` in ``row`` of ``table``."""
    index = {int(tile): i for i, tile in enumerate(table.tiles)}
    table.grill[row] = sum(1 << index[tile] for tile in state.grill)
    table.face_down[row] = 0
    table.face_down[row, : len(state.face_down)] = state.face_down
    table.face_down_count[row] = len(state.face_down)
    table.stacks[row] = 0
    for player, stack in enumerate(state.stacks):
        table.stacks[row, player, : len(stack)] = stack
        table.heights[row, player] = len(stack)
        table.tops[row, player] = stack[-1] if stack else 0
    table.player[row] = state.player
    table.phase[row] = PHASE_CODES[state.phase]
    table.in_hand[row] = state.in_hand or (0,) * table.kinds
    table.roll[row] = 0
    if state.roll is not None:
        for kind, counts in enumerate(state.roll.counts):
            table.roll[row, kind] = counts
    table.set_aside[row] = state.set_aside
    for (_, twin), value in zip(parts, state.parts, strict=True):
        twin.write(table, row, value)


def state_of(
    table: BatchTable,
    parts: Parts,
    row: int,
    outcome: Callable[[tuple[tuple[int, ...], ...]], RollOutcome],
) -> GameState:
    """The reference state of ``row``; ``outcome`` gives the rules' roll showing given counts."""
    tiles = table.tiles.tolist()
    grill = int(table.grill[row])
    phase = int(table.phase[row])
    turned = int(table.face_down_count[row])
    heights = table.heights[row].tolist()
    stacks = table.stacks[row].tolist()
    return GameState(
        grill=tuple(tile for i, tile in enumerate(tiles) if grill >> i & 1),
        face_down=tuple(table.face_down[row, :turned].tolist()),
        stacks=tuple(tuple(stack[:height]) for stack, height in zip(stacks, heights, strict=True)),
        player=int(table.player[row]),
        phase=PHASES[phase],
        in_hand=() if phase == PHASE_GAME_OVER else tuple(table.in_hand[row].tolist()),
        roll=(
            outcome(tuple(map(tuple, table.roll[row].tolist()))) if phase == PHASE_CHOOSE else None
        ),
        set_aside=tuple(table.set_aside[row].tolist()),
        parts=tuple(twin.read(table, row) for _, twin in parts),
        layout=table.rules.layout,
    )
