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
from pickomino_rules.errors import MissingExtraError
from pickomino_rules.state import GameState, Phase

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

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
    write_cores(table, [row], [state])
    for (_, twin), value in zip(parts, state.parts, strict=True):
        twin.write(table, row, value)


def write_cores(table: BatchTable, rows: Sequence[int], states: Sequence[GameState]) -> None:
    """Put the core of each of ``states`` (all but its parts) in its row of ``table``.

    Gathered as lists and written with one assignment per array: the per-row path writes
    every row that moved after each step.
    """
    count, kinds = len(table.tiles), table.kinds
    bit = {int(tile): 1 << i for i, tile in enumerate(table.tiles)}
    no_dice, no_faces = (0,) * kinds, (0,) * 6
    grills, turned, turned_counts, stacks, heights, tops = [], [], [], [], [], []
    players, phases, in_hand, rolls, set_aside = [], [], [], [], []
    for state in states:
        grills.append(sum(bit[tile] for tile in state.grill))
        turned.append(state.face_down + (0,) * (count - len(state.face_down)))
        turned_counts.append(len(state.face_down))
        stacks.append([stack + (0,) * (count - len(stack)) for stack in state.stacks])
        heights.append([len(stack) for stack in state.stacks])
        tops.append([stack[-1] if stack else 0 for stack in state.stacks])
        players.append(state.player)
        phases.append(PHASE_CODES[state.phase])
        in_hand.append(state.in_hand or no_dice)
        shown = () if state.roll is None else tuple(state.roll.counts)
        rolls.append(shown + (no_faces,) * (kinds - len(shown)))
        set_aside.append(state.set_aside)
    at = np.asarray(rows, dtype=np.int64)
    table.grill[at] = grills
    table.face_down[at] = turned
    table.face_down_count[at] = turned_counts
    table.stacks[at] = stacks
    table.heights[at] = heights
    table.tops[at] = tops
    table.player[at] = players
    table.phase[at] = phases
    table.in_hand[at] = in_hand
    table.roll[at] = rolls
    table.set_aside[at] = set_aside


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
