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


def _among(values: NDArray[np.int64], low: tuple[int, ...]) -> NDArray[np.bool_]:
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
        numbers = np.where(tiles >= 0, table.tiles[np.maximum(tiles, 0)], 0)
        low_claim, low_total = _among(numbers, low), _among(totals, low)
        refused = low_claim & (numbers != totals)  # E3: exact only
        if exclusive and low_claim.any():  # O4: not both
            stacks = table.stacks[rows[low_claim], table.player[rows[low_claim]]]
            refused[low_claim] |= _among(stacks, low).any(axis=1)
        stolen = (victims >= 0) & low_total  # E3: never stolen
        return np.where(refused, -1, tiles), np.where(stolen, -1, victims)

    return BatchTwin(claims=claims)
