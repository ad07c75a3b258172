"""Twins of the classic modules: the components (nothing to twin) and the options O1-O3."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pickomino_rules.batch_plugin import BatchTwin

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable

    Rows = NDArray[np.int64]

__all__ = ["CLASSIC", "FLIP_ON_EMPTY_BUST", "OPTIONAL_STEAL_OFF", "SHORT_GAME"]


def _flip_on_empty_bust(inner: Callable[..., None], table: BatchTable, rows: Rows) -> None:
    """Twin of ``classic._flip_on_empty_bust`` (O1)."""
    empty = table.heights[rows, table.player[rows]] == 0
    inner(table, rows)
    flipped = rows[empty & (table.grill[rows] != 0)]
    if flipped.size:
        table.turn_face_down(flipped)


def _short_game(inner: Callable[..., None], table: BatchTable, rows: Rows) -> None:
    """Twin of ``classic._short_game`` (O2): turn the returned tile C10 spared."""
    players = table.player[rows]
    holding = table.heights[rows, players] > 0
    returned = table.tops[rows, players]
    turned = table.face_down_count[rows].copy()
    inner(table, rows)
    grill = table.grill[rows]
    highest = table.highest(grill)
    spared = (
        holding
        & (table.face_down_count[rows] == turned)
        & (grill != 0)
        & (table.tiles[np.maximum(highest, 0)] == returned)
    )
    if spared.any():
        table.turn_face_down(rows[spared])


def _steal_required(
    inner: Callable[..., tuple[Rows, Rows]], table: BatchTable, rows: Rows, totals: Rows
) -> tuple[Rows, Rows]:
    """Twin of ``classic._steal_required`` (O3 off): a possible steal is the only claim."""
    tiles, victims = inner(table, rows, totals)
    return np.where(victims >= 0, -1, tiles), victims


CLASSIC = BatchTwin()
"""The classic components: nothing runs in a game."""
FLIP_ON_EMPTY_BUST = BatchTwin(bust=_flip_on_empty_bust)
"""The twin of ``flip_on_empty_bust()`` (O1)."""
SHORT_GAME = BatchTwin(bust=_short_game)
"""The twin of ``short_game()`` (O2)."""
OPTIONAL_STEAL_OFF = BatchTwin(claims=_steal_required)
"""The twin of ``optional_steal_off()`` (O3 off)."""
