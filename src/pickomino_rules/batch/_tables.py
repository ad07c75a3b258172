"""The batch engine's numbers: phase codes, tiles as bits, action numbers, the roll table.

The roll table lets one draw pick a roll of n dice with its exact probability.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from pickomino_rules.dice import WHITE, roll_counts
from pickomino_rules.errors import (
    MissingExtraError,
)
from pickomino_rules.state import Phase

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray


# Phase codes: the encoding's phase order (roll, choose, decide, turn over, game over).
PHASE_ROLL, PHASE_CHOOSE, PHASE_DECIDE, PHASE_GAME_OVER = 0, 1, 2, 4
# Deprecated names of the phase codes: beside actions.ROLL and Phase.ROLL they misled.
ROLL, CHOOSE, DECIDE, GAME_OVER = PHASE_ROLL, PHASE_CHOOSE, PHASE_DECIDE, PHASE_GAME_OVER
PHASES = {PHASE_CHOOSE: Phase.CHOOSE, PHASE_DECIDE: Phase.DECIDE, PHASE_GAME_OVER: Phase.GAME_OVER}
PHASE_NAMES = np.array(["roll", "choose", "decide", "turn over", "game over"])

FIRST_TILE, TILES, DICE = 21, 16, 8
POINTS = np.array([1, 2, 3, 4, 5, 5], dtype=np.int64)
WORM = 5
ALL_TILES = (1 << TILES) - 1
BITS = 1 << np.arange(TILES, dtype=np.int64)
HIGHEST = np.full(1 << TILES, -1, dtype=np.int64)
"""The index of the highest set bit of each 16-bit grill (-1 for an empty grill)."""
for _bit in range(TILES):
    HIGHEST[1 << _bit : 1 << (_bit + 1)] = _bit


def _roll_table() -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int8]]:
    """Every roll of 1 to 8 dice with integer weights, for exact sampling by one draw.

    A roll of n dice is drawn as a whole number r in [0, 6**n), shifted by ``start[n]``; the
    first outcome whose running weight exceeds it is the roll (each outcome's weight is the
    number of ways its dice can fall, so every roll has its exact probability).
    """
    start = np.zeros(DICE + 1, dtype=np.int64)
    cumulative: list[int] = []
    counts: list[tuple[int, ...]] = []
    for dice in range(1, DICE + 1):
        start[dice] = cumulative[-1] if cumulative else 0
        rolls, weights = roll_counts((WHITE,), (dice,))
        cumulative.extend(int(start[dice]) + c for c in itertools.accumulate(weights))
        counts.extend(roll[0] for roll in rolls)
    return start, np.array(cumulative, dtype=np.int64), np.array(counts, dtype=np.int8)


ROLL_START, ROLL_CUMULATIVE, ROLL_COUNTS = _roll_table()
SIDES = 6 ** np.arange(DICE + 1, dtype=np.int64)

# Action numbers of the classic encoding: roll, take 1..w, stop, steal 0..n-1.
ACT_ROLL, ACT_STOP, ACT_STEAL = 0, 7, 8
