"""The batch's arguments checked, before anything changes: actions, seats, rows.

A bad argument gets a specific error naming it (the library's ``PickominoError`` family), and
no game is changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pickomino_rules.batch._rules import BatchActionError, BatchArgumentError
from pickomino_rules.batch._tables import PHASE_NAMES
from pickomino_rules.batch_plugin import PHASE_GAME_OVER
from pickomino_rules.errors import ArgumentTypeError, MissingExtraError, brief

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import ArrayLike, NDArray

    from pickomino_rules.encoding import Encoding


def checked_actions(
    actions: ArrayLike,
    active: ArrayLike | None,
    *,
    phase: NDArray[np.int8],
    encoding: Encoding,
    legal_mask: Callable[[], NDArray[np.bool_]],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The actions as int64 and the rows that move; raise before changing anything.

    Args:
        actions: One action number per game.
        active: A boolean mask of the games that move, or None for all.
        phase: Each game's phase code.
        encoding: The game's action numbers.
        legal_mask: The batch's legal mask (asked only once the numbers are in range).

    Raises:
        BatchActionError: Wrong shape or type, a number outside the action space, or an
            illegal action; it names the rows.
    """
    size = len(phase)
    array = np.asarray(actions)
    if array.shape != (size,):
        msg = f"actions must have shape ({size},), got {array.shape}"
        raise BatchActionError(msg)
    if array.dtype.kind not in "iu":
        msg = f"actions must be integers, got dtype {array.dtype}"
        raise BatchActionError(msg)
    live = phase != PHASE_GAME_OVER
    if active is not None:
        flags = np.asarray(active)
        if flags.shape != (size,) or flags.dtype != np.bool_:
            msg = f"active must be a boolean array of shape ({size},)"
            raise BatchActionError(msg)
        live &= flags
    moving = np.flatnonzero(live)
    numbers = array.astype(np.int64)
    chosen = numbers[moving]
    outside = (chosen < 0) | (chosen >= encoding.num_actions)
    if outside.any():
        rows = tuple(int(r) for r in moving[outside])
        msg = (
            f"action numbers out of range 0..{encoding.num_actions - 1} in "
            f"{rows_text(rows)}: {int(numbers[rows[0]])}"
        )
        raise BatchActionError(msg, rows)
    mask = legal_mask()
    legal = mask.ravel()[moving * mask.shape[1] + chosen]  # one flat gather, not two
    if not legal.all():
        rows = tuple(int(r) for r in moving[~legal])
        first = rows[0]
        allowed = ", ".join(str(encoding.decode(int(a))) for a in np.flatnonzero(mask[first]))
        msg = (
            f"illegal actions in {rows_text(rows)}: row {first} plays "
            f"{encoding.decode(int(numbers[first]))!s} in phase "
            f"{PHASE_NAMES[phase[first]]!s} (legal: {allowed})"
        )
        raise BatchActionError(msg, rows)
    return numbers, moving


def observers(
    seats: ArrayLike | None, to_move: NDArray[np.int8], players: int
) -> NDArray[np.int64]:
    """The observer of each game: ``seats`` (an int for all, or one per game), else the mover."""
    size = len(to_move)
    if seats is None:
        return to_move.astype(np.int64)
    array = np.asarray(seats)
    if array.dtype.kind not in "iu" or array.shape not in ((), (size,)):
        msg = f"seats must be an int or {size} ints, got {array.dtype} {array.shape}"
        raise ArgumentTypeError(msg)
    if ((array < 0) | (array >= players)).any():
        msg = f"seats must be players 0 to {players - 1}"
        raise BatchArgumentError(msg)
    return np.broadcast_to(array.astype(np.int64), (size,))


def row_index(row: int, size: int) -> int:
    """One row of ``size`` (negative from the end), as a plain int."""
    if isinstance(row, bool) or not isinstance(row, int | np.integer):
        msg = f"a row is a whole number, got {row!r}"
        raise ArgumentTypeError(msg)
    if not -size <= row < size:
        msg = f"row {row} is out of range for {size} games"
        raise BatchArgumentError(msg)
    return int(row) % size


def selected_rows(rows: ArrayLike, size: int) -> NDArray[np.int64]:
    """Row indices, from a boolean mask of length ``size`` or a list of indices."""
    array = np.asarray(rows)
    if array.dtype == np.bool_:
        if array.shape != (size,):
            msg = f"a row mask must have shape ({size},), got {brief(array.shape)}"
            raise BatchArgumentError(msg)
        return np.flatnonzero(array)
    if array.dtype.kind not in "iu" or array.ndim != 1:
        msg = "rows must be a boolean mask or a list of row indices"
        raise ArgumentTypeError(msg)
    if ((array < 0) | (array >= size)).any():
        msg = f"rows must be 0 to {size - 1}"
        raise BatchArgumentError(msg)
    return array.astype(np.int64)


def read_only(array: NDArray[Any]) -> NDArray[Any]:
    """A view of ``array`` that cannot be written."""
    view = array.view()
    view.flags.writeable = False
    return view


def rows_text(rows: tuple[int, ...]) -> str:
    """``rows 1, 2, 5`` (the first ten, and how many more) for a message."""
    shown = ", ".join(map(str, rows[:10]))
    more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
    return f"row{'s' if len(rows) > 1 else ''} {shown}{more}"
