"""The batch engine's names kept from before every variant played: phase codes and classic numbers.

Nothing here is a rule: the phase codes are the plug-in contract's
(`pickomino_rules.batch_plugin`), and the classic numbers are read off the registered classic
rules and their encoding, for code that imported them from ``pickomino_rules.batch``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules.actions import ROLL as _ROLL_ACTION
from pickomino_rules.actions import STOP, Steal
from pickomino_rules.batch_plugin import (
    PHASE_CHOOSE,
    PHASE_DECIDE,
    PHASE_GAME_OVER,
    PHASE_ROLL,
    PHASE_TURN_OVER,
)
from pickomino_rules.errors import MissingExtraError
from pickomino_rules.registry import get_rules

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable

__all__ = [
    "ACT_ROLL",
    "ACT_STEAL",
    "ACT_STOP",
    "CHOOSE",
    "DECIDE",
    "DICE",
    "FIRST_TILE",
    "GAME_OVER",
    "PHASE_CHOOSE",
    "PHASE_DECIDE",
    "PHASE_GAME_OVER",
    "PHASE_NAMES",
    "PHASE_ROLL",
    "PHASE_TURN_OVER",
    "ROLL",
    "TILES",
    "drawn_counts",
]

# Deprecated names of the phase codes: beside actions.ROLL and Phase.ROLL they misled.
ROLL, CHOOSE, DECIDE, GAME_OVER = PHASE_ROLL, PHASE_CHOOSE, PHASE_DECIDE, PHASE_GAME_OVER
PHASE_NAMES = np.array(["roll", "choose", "decide", "turn over", "game over"])
"""The name of each phase code."""


def _classic_numbers() -> tuple[int, int, int, int, int, int]:
    from pickomino_rules.encoding import Encoding  # noqa: PLC0415 (a later layer, same extra)

    rules = get_rules("classic")
    encoding = Encoding.of(rules, rules.components.min_players)
    return (
        rules.tiles[0],
        len(rules.tiles),
        sum(rules.components.dice),
        encoding.encode(_ROLL_ACTION),
        encoding.encode(STOP),
        encoding.encode(Steal(0)),
    )


# The classic set-up's first tile, tiles and dice, and its action numbers (roll, stop, steal 0).
FIRST_TILE, TILES, DICE, ACT_ROLL, ACT_STOP, ACT_STEAL = _classic_numbers()


def drawn_counts(
    table: BatchTable, rows: NDArray[np.int64], rng: np.random.Generator
) -> NDArray[np.int8]:
    """A roll of the dice in hand in each of ``rows``: counts, shape (rows, kinds, 6).

    Each die is uniform over its sides; a kind with no dice in hand draws nothing from
    ``rng`` (its range is one value).
    """
    counts = np.empty((len(rows), table.kinds, 6), dtype=np.int8)
    for kind, (start, lookup, rolls) in enumerate(table.roll_tables):
        dice = table.in_hand[rows, kind].astype(np.int64)
        counts[:, kind] = rolls[lookup[start[dice] + rng.integers(0, table.sides[dice])]]
    return counts
