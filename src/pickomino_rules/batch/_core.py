"""The core turn's twins: `turn`'s hooks (C3-C13), each over many rows at once.

These are the innermost layer of every batch's hook chains, as `turn`'s functions are of the
reference's. `MIRRORS` (in ``_mirrors.py``) names each one's reference function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from pickomino_rules.batch_plugin import PHASE_DECIDE, POINTS, WORM
from pickomino_rules.errors import MissingExtraError
from pickomino_rules.turn import can_roll, offered_faces

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable


def setup(table: BatchTable, rows: NDArray[np.int64]) -> None:
    """C2: nothing more in the core game."""


def turn_dice(table: BatchTable, rows: NDArray[np.int64]) -> NDArray[np.int8]:
    """C3: all the dice."""
    return np.broadcast_to(table.dice, (len(rows), table.kinds))


BITS = 1 << np.arange(6)
"""A set of faces as bits (face index f at bit f), as `turn`'s rules on face sets take them."""

CAN_ROLL = np.array([[can_roll(used, left) for left in (False, True)] for used in range(64)])
"""`turn.can_roll` tabulated (C6): per faces set aside and whether dice are left."""

_OFFERED = np.array(
    [[[offered_faces(s, u) >> f & 1 for f in range(6)] for s in range(64)] for u in range(64)],
    dtype=np.bool_,
)
"""`turn.offered_faces` tabulated (C4): per faces set aside and faces shown, each face offered."""


def roll_actions(table: BatchTable, rows: NDArray[np.int64]) -> NDArray[np.bool_]:
    """C4: take each face `turn.offered_faces` offers."""
    mask = table.mask(rows)
    shown = table.roll[rows].sum(axis=1) if table.kinds > 1 else table.roll[rows, 0]
    mask[:, 1:7] = _OFFERED[(table.set_aside[rows] > 0) @ BITS, (shown > 0) @ BITS]
    return mask


def pending_actions(table: BatchTable, rows: NDArray[np.int64]) -> NDArray[np.bool_]:
    """The core game never leaves a decision pending."""
    return table.mask(rows)


def set_aside(table: BatchTable, rows: NDArray[np.int64], faces: NDArray[np.int64]) -> None:
    """C4: every die of the roll showing the face is set aside."""
    shown = table.roll[rows, :, faces]  # per kind
    table.set_aside[rows, faces] = shown.sum(axis=1)
    table.in_hand[rows] -= shown
    table.roll[rows] = 0
    table.phase[rows] = PHASE_DECIDE


def stop_total(table: BatchTable, rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """C7: the points set aside, or -1 without a worm among them."""
    set_aside = table.set_aside[rows]
    totals: NDArray[np.int64] = np.where(
        set_aside[:, WORM] > 0, set_aside.astype(np.int64) @ POINTS, -1
    )
    return totals


def claims(
    table: BatchTable, rows: NDArray[np.int64], totals: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """C8: the exact grill tile, else the next lower one; and a steal of an exact top tile."""
    grill = table.grill[rows]
    clipped = np.clip(totals, 0, len(table.below) - 1)
    index = table.index_of[np.minimum(clipped, len(table.index_of) - 1)]
    exact = (totals >= 0) & (index >= 0) & ((grill >> np.maximum(index, 0)) & 1 == 1)
    lower = table.highest(grill & table.below[clipped])
    tiles = np.where(exact, index, np.where(totals >= 0, lower, -1))
    stealable = (
        (~exact & (totals >= 0))[:, None]
        & (table.tops[rows] == totals[:, None])
        & (table.heights[rows] > 0)
        & (table.seats != table.player[rows, None])
    )
    victims = np.where(stealable.any(axis=1), np.argmax(stealable, axis=1), -1)
    return tiles, victims


def take_tile(
    table: BatchTable,
    rows: NDArray[np.int64],
    tiles: NDArray[np.int64],
    victims: NDArray[np.int64],
) -> None:
    """C8, C9: the claimed tile goes on top of the player's stack."""
    players = table.player[rows].astype(np.int64)
    stealing = victims >= 0
    if stealing.any():
        robbed = rows[stealing]
        taken = table.pop(robbed, victims[stealing])
        table.push(robbed, players[stealing], taken)
    grilled = ~stealing
    if grilled.any():
        table.take_from_grill(rows[grilled], players[grilled], tiles[grilled])


def bust(table: BatchTable, rows: NDArray[np.int64]) -> None:
    """C10: return the top tile; turn the highest grill tile unless it is that tile."""
    players = table.player[rows].astype(np.int64)
    holding = table.heights[rows, players] > 0
    returning = rows[holding]
    if returning.size:
        tiles = table.tops[returning, players[holding]]
        table.return_tile(returning, players[holding])
        highest = table.highest(table.grill[returning])
        turned = table.tiles[highest] != tiles
        table.turn_face_down(returning[turned])


def end_turn(table: BatchTable, rows: NDArray[np.int64]) -> None:
    """C11: nothing to tidy in the core game."""


def apply_action(
    table: BatchTable,  # noqa: ARG001
    rows: NDArray[np.int64],  # noqa: ARG001
    actions: NDArray[np.int64],
) -> NoReturn:
    """The core game knows only its own actions: the engine never calls this."""
    msg = f"actions {sorted(set(actions.tolist()))} are not actions of these rules"
    raise AssertionError(msg)


def scores(table: BatchTable, rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """C13: the worms on each player's stack."""
    worms: NDArray[np.int64] = table.worms_by_number[table.stacks[rows]].sum(axis=2)
    return worms


CORE_TWINS = {
    "setup": setup,
    "turn_dice": turn_dice,
    "roll_actions": roll_actions,
    "pending_actions": pending_actions,
    "set_aside": set_aside,
    "stop_total": stop_total,
    "claims": claims,
    "take_tile": take_tile,
    "bust": bust,
    "end_turn": end_turn,
    "apply_action": apply_action,
    "scores": scores,
}
"""The core's twin of each hook, by hook name (the innermost of each chain)."""
