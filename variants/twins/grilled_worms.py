"""Twin of ``grilled_worms`` (E4, E14): tokens for two or more 1s, one worm each at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pickomino_rules.batch_plugin import BatchTwin, PartTwin, pending_beside
from pickomino_rules.variants.grilled_worms import (
    GRILLED_WORM_VICTIMS,
    GRILLED_WORMS,
    ONES_FOR_A_TOKEN,
    TOKENS,
    GrilledWorms,
    RobGrilledWorm,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable

    Rows = NDArray[np.int64]

__all__ = ["GRILLED_WORMS_TWIN", "award"]

_NAME = GRILLED_WORMS.name


def _arrays(table: BatchTable) -> dict[str, NDArray[Any]]:
    return {
        "supply": np.zeros(table.size, dtype=np.int8),
        "held": np.zeros((table.size, table.players), dtype=np.int8),
        "chooser": np.full(table.size, -1, dtype=np.int8),
        "victims": np.zeros((table.size, table.players), dtype=np.bool_),
    }


def _read(table: BatchTable, row: int) -> GrilledWorms:
    part = table.parts[_NAME]
    chooser = int(part["chooser"][row])
    return GrilledWorms(
        int(part["supply"][row]),
        tuple(part["held"][row].tolist()),
        None if chooser < 0 else chooser,
        tuple(np.flatnonzero(part["victims"][row]).tolist()),
    )


def _write(table: BatchTable, row: int, value: object) -> None:
    assert isinstance(value, GrilledWorms)  # noqa: S101 (a validated state's part)
    part = table.parts[_NAME]
    part["supply"][row] = value.supply
    part["held"][row] = value.held
    part["chooser"][row] = -1 if value.chooser is None else value.chooser
    part["victims"][row] = False
    part["victims"][row, list(value.victims)] = True


def _observe(table: BatchTable, rows: Rows, me: Rows) -> NDArray[np.float32]:
    """Twin of the part's ``_features``."""
    part, n = table.parts[_NAME], table.players
    seats = (me[:, None] + np.arange(n)) % n
    return np.concatenate(
        [
            part["supply"][rows, None] / TOKENS,
            np.take_along_axis(part["held"][rows], seats, axis=1) / TOKENS,
            seats == part["chooser"][rows, None],
            np.take_along_axis(part["victims"][rows], seats, axis=1),
        ],
        axis=1,
        dtype=np.float32,
    )


def _holders(table: BatchTable, rows: Rows, takers: Rows) -> NDArray[np.bool_]:
    """Twin of ``_holders``: every opponent holding a token, as a mask by player."""
    held = table.parts[_NAME]["held"][rows] > 0
    found: NDArray[np.bool_] = held & (table.seats != takers[:, None])
    return found


def award(table: BatchTable, rows: Rows, takers: Rows) -> None:
    """Twin of ``award``: one token each from the supply, else from an opponent (E4)."""
    part = table.parts[_NAME]
    supplied = part["supply"][rows] > 0
    from_supply = rows[supplied]
    part["supply"][from_supply] -= 1
    part["held"][from_supply, takers[supplied]] += 1
    robbing, robbers = rows[~supplied], takers[~supplied]
    if not robbing.size:
        return
    victims = table.extension(GRILLED_WORM_VICTIMS)(table, robbing, robbers)
    count = victims.sum(axis=1)
    one = count == 1
    victim = np.argmax(victims[one], axis=1)
    part["held"][robbing[one], victim] -= 1
    part["held"][robbing[one], robbers[one]] += 1
    several = count > 1
    part["chooser"][robbing[several]] = robbers[several]
    part["victims"][robbing[several]] = victims[several]


def _setup(inner: Callable[..., None], table: BatchTable, rows: Rows) -> None:
    inner(table, rows)
    part = table.parts[_NAME]
    part["supply"][rows] = TOKENS
    part["held"][rows] = 0
    part["chooser"][rows] = -1
    part["victims"][rows] = False


def _set_aside(inner: Callable[..., None], table: BatchTable, rows: Rows, faces: Rows) -> None:
    ones = np.where(faces == 0, sum(table.roll[:, k, 0][rows] for k in range(table.kinds)), 0)
    inner(table, rows, faces)
    earned = ones >= ONES_FOR_A_TOKEN
    if earned.any():
        award(table, rows[earned], table.player[rows[earned]].astype(np.int64))


def _robs(table: BatchTable) -> NDArray[np.int64]:
    """The action number of robbing each player."""
    return np.array([table.number(RobGrilledWorm(p)) for p in range(table.players)])


def _pending_actions(
    inner: Callable[..., NDArray[np.bool_]], table: BatchTable, rows: Rows
) -> NDArray[np.bool_]:
    choosing = np.flatnonzero(table.parts[_NAME]["chooser"][rows] >= 0)
    if not choosing.size:  # mostly: nobody is choosing
        found: NDArray[np.bool_] = inner(table, rows)
        return found
    mask = pending_beside(inner, table, rows, choosing)
    mask[choosing[:, None], _robs(table)] = table.parts[_NAME]["victims"][rows[choosing]]
    return mask


def _apply_action(inner: Callable[..., None], table: BatchTable, rows: Rows, actions: Rows) -> None:
    part = table.parts[_NAME]
    robs = _robs(table)
    robbing = (part["chooser"][rows] >= 0) & np.isin(actions, robs)
    if robbing.any():
        picked = rows[robbing]
        victim = np.searchsorted(robs, actions[robbing])
        chooser = part["chooser"][picked].astype(np.int64)
        part["held"][picked, victim] -= 1
        part["held"][picked, chooser] += 1
        part["chooser"][picked] = -1
        part["victims"][picked] = False
    if not robbing.all():
        inner(table, rows[~robbing], actions[~robbing])


def _scores(inner: Callable[..., Rows], table: BatchTable, rows: Rows) -> Rows:
    worms: Rows = inner(table, rows) + table.parts[_NAME]["held"][rows]
    return worms


GRILLED_WORMS_TWIN = BatchTwin(
    part=PartTwin(_arrays, _read, _write, _observe),
    provides={GRILLED_WORM_VICTIMS: _holders},
    setup=_setup,
    set_aside=_set_aside,
    pending_actions=_pending_actions,
    apply_action=_apply_action,
    scores=_scores,
)
"""The grilled worms' twin."""
