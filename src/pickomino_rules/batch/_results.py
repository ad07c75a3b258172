"""What the batch reports: its read-only arrays, what a step finished, and who wins (C13)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from pickomino_rules.errors import MissingExtraError

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray


@attrs.frozen(eq=False)
class BatchArrays:
    """Read-only views of a batch's table, one row per game, for vectorised bots.

    Tiles are numbers (e.g. 21-36) in ``stacks``, indices (positions in ``rules.tiles``) in
    the boolean arrays and ``grill_claim``.

    Attributes:
        grill: True where the tile lies face up on the grill, shape (N, tiles).
        face_down: True where the tile is turned face down, shape (N, tiles).
        stacks: Each player's tiles bottom first, 0 past the top, shape (N, players, tiles).
        heights: Tiles in each player's stack, shape (N, players).
        player: The player to move.
        phase: The phase code (1 choose, 2 decide, 3 turn over, 4 game over).
        in_hand: Dice not set aside this turn (of every kind).
        roll: The roll on the table, dice per face 1-5, worm, of every kind (zeros outside
            phase choose).
        set_aside: Dice set aside this turn per face.
        grill_claim: In phase decide, the index of the grill tile a stop takes, else -1.
        victim: In phase decide, the player a steal may rob, else -1.
    """

    grill: NDArray[np.bool_]
    face_down: NDArray[np.bool_]
    stacks: NDArray[np.int8]
    heights: NDArray[np.int8]
    player: NDArray[np.int8]
    phase: NDArray[np.int8]
    in_hand: NDArray[np.int8]
    roll: NDArray[np.int8]
    set_aside: NDArray[np.int8]
    grill_claim: NDArray[np.int64]
    victim: NDArray[np.int64]


@attrs.frozen(eq=False)
class BatchStep:
    """What a [`step`][pickomino_rules.batch.BatchGames.step] finished: one entry per game.

    Rows whose game did not end this step hold zeros.

    Attributes:
        terminated: True where the game ended this step.
        rewards: Zero-sum results of the games that ended (the winners share +1, the
            others -1, as [`returns`][pickomino_rules.encoding.returns]), shape (N, players).
        scores: Final worms of each player of the games that ended, shape (N, players).
        winners: True for each winner of the games that ended (C13), shape (N, players).
        moves: Moves of the games that ended, rolls of the dice included (as ``playout``
            counts them).
        turns: Turns of the games that ended.
    """

    terminated: NDArray[np.bool_]
    rewards: NDArray[np.float32]
    scores: NDArray[np.int16]
    winners: NDArray[np.bool_]
    moves: NDArray[np.int32]
    turns: NDArray[np.int32]


def step_results(  # noqa: PLR0913 (the finished games' arrays)
    size: int,
    players: int,
    *,
    ended: NDArray[np.int64],
    worms: NDArray[np.int64],
    stacks: NDArray[np.int8],
    moves: NDArray[np.int32],
    turns: NDArray[np.int32],
) -> BatchStep:
    """A step's report: the results of the games ``ended`` (rows), zeros in every other row.

    Args:
        size: Rows of the batch.
        players: Players per game.
        ended: The rows whose game ended this step.
        worms: Their final scores, shape (ended, players).
        stacks: Their stacks, shape (ended, players, tiles) (C13's tie-break).
        moves: Every row's moves so far.
        turns: Every row's turns so far.
    """
    terminated = np.zeros(size, dtype=np.bool_)
    rewards = np.zeros((size, players), dtype=np.float32)
    scores = np.zeros((size, players), dtype=np.int16)
    winners = np.zeros((size, players), dtype=np.bool_)
    moved = np.zeros(size, dtype=np.int32)
    turned = np.zeros(size, dtype=np.int32)
    if ended.size:
        terminated[ended] = True
        won = _winners(worms, stacks)
        count = won.sum(axis=1, keepdims=True)
        share = np.where(won, 1 / count, -1 / np.maximum(players - count, 1))
        rewards[ended] = np.where(count == players, 0, share)
        scores[ended] = worms
        winners[ended] = won
        moved[ended] = moves[ended]
        turned[ended] = turns[ended]
    return BatchStep(terminated, rewards, scores, winners, moved, turned)


def _winners(worms: NDArray[np.int64], stacks: NDArray[np.int8]) -> NDArray[np.bool_]:
    """C13 for stacks of shape (games, players, tiles): who wins on ``worms``.

    Most worms wins; a tie goes to the highest tile held; players level on both share.
    """
    key = worms.astype(np.int64) * 256 + stacks.max(axis=2).astype(np.int64)
    won: NDArray[np.bool_] = key == key.max(axis=1, keepdims=True)
    return won
