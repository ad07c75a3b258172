"""Twin of ``low_tiles`` (E3, O4): the low tiles only exactly, never stolen, not both."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pickomino_rules.batch_plugin import BatchTwin

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable

    Rows = NDArray[np.int64]

__all__ = ["low_tiles_twin"]


def _among(values: NDArray[Any], low: tuple[int, ...]) -> NDArray[np.bool_]:
    """Where ``values`` is one of the low tiles."""
    found = np.zeros(values.shape, dtype=np.bool_)
    for tile in low:
        found |= values == tile
    return found


def low_tiles_twin(low: tuple[int, ...], *, exclusive: bool) -> BatchTwin:
    """The twin of ``low_tiles(..., exclusive=exclusive)``, whose tiles are ``low``."""

    def claims(
        inner: Callable[..., tuple[Rows, Rows]], table: BatchTable, rows: Rows, totals: Rows
    ) -> tuple[Rows, Rows]:
        tiles, victims = inner(table, rows, totals)
        claimed = np.flatnonzero(_among(tiles, tuple(table.index_of[list(low)].tolist())))
        stolen = np.flatnonzero(victims >= 0)
        stolen = stolen[_among(totals[stolen], low)]  # E3: never stolen
        if not (claimed.size or stolen.size):
            return tiles, victims  # mostly: totals above the low tiles
        refused = table.tiles[tiles[claimed]] != totals[claimed]  # E3: exact only
        if exclusive:  # O4: not both
            stacks = table.stacks[rows[claimed], table.player[rows[claimed]]]
            refused |= _among(stacks, low).any(axis=1)
        tiles, victims = tiles.copy(), victims.copy()
        tiles[claimed[refused]] = -1
        victims[stolen] = -1
        return tiles, victims

    return BatchTwin(claims=claims)
