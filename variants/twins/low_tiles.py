"""Twin of ``low_tiles`` (E3, O4): the low tiles only exactly, never stolen, not both."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pickomino_rules.batch_plugin import BatchTwin

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable

    Rows = NDArray[np.int64]

__all__ = ["low_tiles_twin"]


def low_tiles_twin(low: tuple[int, ...], *, exclusive: bool) -> BatchTwin:
    """The twin of ``low_tiles(..., exclusive=exclusive)``, whose tiles are ``low``."""
    low_array = np.array(low, dtype=np.int64)

    def claims(
        inner: Callable[..., tuple[Rows, Rows]], table: BatchTable, rows: Rows, totals: Rows
    ) -> tuple[Rows, Rows]:
        tiles, victims = inner(table, rows, totals)
        numbers = np.where(tiles >= 0, table.tiles[np.maximum(tiles, 0)], 0)
        refused = np.isin(numbers, low_array) & (numbers != totals)  # E3: exact only
        if exclusive:  # O4: not both
            stacks = table.stacks[rows, table.player[rows]]
            holds = np.isin(stacks, low_array).any(axis=1)
            refused |= np.isin(numbers, low_array) & holds
        stolen = (victims >= 0) & np.isin(totals, low_array)  # E3: never stolen
        return np.where(refused, -1, tiles), np.where(stolen, -1, victims)

    return BatchTwin(claims=claims)
