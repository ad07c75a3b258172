"""A batch row and a reference `GameState`, each made from the other.

The batch keeps a game as numbers: the grill as bits (bit ``i``: tile ``rules.tiles[i]`` face
up), the tiles turned face down and the stacks as padded rows of tile numbers with their
lengths, the phase as a code, the dice as counts per kind and face, and each part in its
twin's arrays. These functions are the one place that knows how those numbers map to a state
and back; the engine only moves the arrays.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any, Protocol

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

    from pickomino_rules.batch_plugin import BatchTable
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


class PartColumns(Protocol):
    """How a part is read from a row and written to one.

    A batch twin's `PartTwin`, or the part's codec in the table's slots (`_compiled.SlotPart`).
    """

    def read(self, table: BatchTable, row: int) -> Any:  # noqa: ANN401 (a module's part)
        ...

    def write(self, table: BatchTable, row: int, value: Any) -> None:  # noqa: ANN401
        ...


Parts = tuple[tuple[Any, PartColumns], ...]


def write_row(table: BatchTable, parts: Parts, row: int, state: GameState) -> None:
    """Put a (validated) ``state`` in ``row`` of ``table``."""
    write_cores(table, [row], [state])
    for (_, twin), value in zip(parts, state.parts, strict=True):
        twin.write(table, row, value)


def write_cores(
    table: BatchTable,
    rows: Sequence[int],
    states: Sequence[GameState],
    before: Sequence[GameState] | None = None,
) -> None:
    """Put the core of each of ``states`` (all but its parts) in its row of ``table``.

    Written with one assignment per array, for the per-row path, which writes every row
    that moved after each step. With ``before`` (the rows' states as the table holds them),
    the tiles (grill, face down, stacks) are written only where they are other objects: the
    engine keeps a state's tuples that did not change, and tiles move only as a turn ends.
    """
    count, kinds, size = len(table.tiles), table.kinds, len(states)
    at = np.asarray(rows, dtype=np.int64)
    # one flat list of every state's player, phase and dice, then each column a slice of it
    codes, no_dice, shown = _PHASE_BY_ID, (0,) * kinds, _rolls_shown(kinds)
    values: list[int] = []
    extend = values.extend
    for state in states:
        extend((state.player, codes[id(state.phase)]))
        extend(state.in_hand or no_dice)
        extend(state.set_aside)
        extend(shown.get(state.roll) or _roll_counts(state.roll, kinds))
    flat = np.array(values, dtype=np.int8).reshape(size, 8 + 7 * kinds)
    table.player[at] = flat[:, 0]
    table.phase[at] = flat[:, 1]
    table.in_hand[at] = flat[:, 2 : 2 + kinds]
    table.set_aside[at] = flat[:, 2 + kinds : 8 + kinds]
    table.roll[at] = flat[:, 8 + kinds :].reshape(size, kinds, 6)
    moved = [
        i
        for i, state in enumerate(states)
        if before is None
        or state.grill is not before[i].grill
        or state.stacks is not before[i].stacks
        or state.face_down is not before[i].face_down
    ]
    if not moved:
        return
    bit = {int(tile): 1 << i for i, tile in enumerate(table.tiles)}
    grills, turned, turned_counts, stacks, heights, tops = [], [], [], [], [], []
    for state in (states[i] for i in moved):
        grills.append(sum(bit[tile] for tile in state.grill))
        turned.append(state.face_down + (0,) * (count - len(state.face_down)))
        turned_counts.append(len(state.face_down))
        stacks.append([stack + (0,) * (count - len(stack)) for stack in state.stacks])
        heights.append([len(stack) for stack in state.stacks])
        tops.append([stack[-1] if stack else 0 for stack in state.stacks])
    at = at[moved]
    table.grill[at] = grills
    table.face_down[at] = turned
    table.face_down_count[at] = turned_counts
    table.stacks[at] = stacks
    table.heights[at] = heights
    table.tops[at] = tops


_PHASE_BY_ID = {id(phase): code for phase, code in PHASE_CODES.items()}
"""`PHASE_CODES` by the phases' identities (an enum member's hash is a Python call)."""

_SHOWN: dict[int, dict[RollOutcome | None, tuple[int, ...]]] = {}
"""`_roll_counts` of each roll met, by kinds of dice (the rules' rolls are shared objects)."""

_ROLLS_KEPT = 100_000  # bounded: rolls built anew (by hand, from records) cannot grow it forever


def _rolls_shown(kinds: int) -> dict[RollOutcome | None, tuple[int, ...]]:
    shown = _SHOWN.get(kinds)
    if shown is None:
        shown = _SHOWN[kinds] = {None: (0,) * (6 * kinds)}
    return shown


def _roll_counts(roll: RollOutcome | None, kinds: int) -> tuple[int, ...]:
    """The roll on the table as ``kinds`` * 6 counts, kind by kind (zeros for none)."""
    if roll is None:
        return (0,) * (6 * kinds)
    counts = tuple(chain.from_iterable(roll.counts))
    counts += (0,) * (6 * kinds - len(counts))
    shown = _rolls_shown(kinds)
    if len(shown) < _ROLLS_KEPT:
        shown[roll] = counts
    return counts


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
