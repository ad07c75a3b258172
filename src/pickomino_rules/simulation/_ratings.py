"""Bradley-Terry ratings on the Elo scale, with confidence intervals, from head-to-head results.

The model: bot i beats bot j with probability ``1 / (1 + 10 ** ((R_j - R_i) / 400))``. The
ratings maximise the likelihood of the results (Newton's method on the concave
log-likelihood); their intervals come from its curvature (the Fisher information), with the
ratings' mean fixed at 0. A shared win counts half to each side. One virtual drawn game per
pair that met (BayesElo's prior) keeps a bot that won or lost every game finite.

Written here rather than taken from a library: evalica (the maintained Bradley-Terry
package) brings pandas and scipy (about 230 MB) and gives intervals only by bootstrap,
and choix gives none; the fit is a few lines of numpy, and a test checks it against
evalica's.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Rating", "bradley_terry"]

ELO = 400 / math.log(10)
"""Elo points per unit of the natural-log strength."""

_VIRTUAL_DRAWS = 1.0
_STEPS = 100
_TOLERANCE = 1e-10


@attrs.frozen
class Rating:
    """One bot's rating in a tournament, on the Elo scale (the field's mean is 0).

    Attributes:
        bot: The bot's name.
        elo: Its Bradley-Terry rating in Elo points, relative to the field's mean.
        low: Lower end of its 95% interval.
        high: Upper end of its 95% interval.
    """

    bot: str
    elo: float
    low: float
    high: float


def bradley_terry(
    bots: Sequence[str], wins: Sequence[Sequence[float]], z: float = 1.96
) -> tuple[Rating, ...]:
    """Ratings from ``wins[i][j]``, the (possibly fractional) games bot i won against bot j.

    Raises:
        ValueError: ``wins`` is not square with one row per bot, or holds a negative count.

    Examples:
        >>> ratings = bradley_terry(["a", "b"], [[0, 75], [25, 0]])
        >>> [(r.bot, round(r.elo)) for r in ratings]  # 3:1 is about 190 Elo points apart
        [('a', 94), ('b', -94)]
    """
    import numpy as np  # noqa: PLC0415 (numpy is an extra; only the ratings need it)

    count = len(bots)
    won = np.array(wins, dtype=float)
    if won.shape != (count, count):
        msg = f"wins must be {count} x {count} (one row and column per bot), got {won.shape}"
        raise ValueError(msg)
    if (won < 0).any():
        msg = "wins must not be negative"
        raise ValueError(msg)
    np.fill_diagonal(won, 0.0)
    met = (won + won.T) > 0
    won = won + _VIRTUAL_DRAWS / 2 * met
    games = won + won.T
    strength = np.zeros(count)
    covariance = np.zeros((count, count))
    for _ in range(_STEPS):
        beats = 1 / (1 + np.exp(strength[None, :] - strength[:, None]))  # P(i beats j)
        gradient = (won - games * beats).sum(axis=1)
        curvature = games * beats * beats.T  # the information each pair's games carry
        information = np.diag(curvature.sum(axis=1)) - curvature
        covariance = np.linalg.pinv(information)  # its null space is the common shift
        step = covariance @ gradient
        strength = strength + step
        strength -= strength.mean()
        if np.abs(step).max() < _TOLERANCE:
            break
    spread = z * np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return tuple(
        Rating(bot, ELO * float(s), ELO * float(s - d), ELO * float(s + d))
        for bot, s, d in zip(bots, strength, spread, strict=True)
    )
