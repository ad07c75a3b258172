"""Vectorised bots: the batch forms of `random` and `greedy`, and their registry.

Public as [`pickomino_rules.batch_bots`][pickomino_rules.batch_bots].
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from pickomino_rules.errors import MissingExtraError, PickominoError

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the vectorised bots", "batch") from None
from pickomino_rules.actions import ROLL, STOP, Steal
from pickomino_rules.batch._compiled import LOOPS
from pickomino_rules.batch._engine import BatchGames
from pickomino_rules.batch_plugin import POINTS, WORM
from pickomino_rules.bots import InvalidBotError, _takes_may_score

if TYPE_CHECKING:
    from numpy.typing import NDArray

VectorBot: TypeAlias = Callable[[BatchGames, "np.random.Generator"], "NDArray[np.int64]"]
"""``bot(games, rng) -> actions``: one action number per game."""

_PICK: Any = None
"""The compiled pick (``batch/_pick.pyx``), where built and the batch plays compiled."""
if LOOPS is not None:  # the backend the engine chose at import, as the batch's loops
    try:
        _PICK = importlib.import_module("pickomino_rules.batch._pick")
    except ImportError:  # built without it: the numpy form picks the same actions
        _PICK = None

_GREEDY_ENOUGH_TOTAL = 30
_GREEDY_FEW_DICE = 3


def random_actions(games: BatchGames, rng: np.random.Generator) -> NDArray[np.int64]:
    """A uniformly random legal action in every game (0 where the game is over)."""
    mask = games.legal_mask()
    draws = rng.random(len(mask))
    if _PICK is not None:  # the same pick in C (batch/_pick.pyx), where the batch is compiled
        picked = np.empty(len(mask), dtype=np.int64)
        _PICK.pick(np.ascontiguousarray(mask).view(np.uint8), draws, picked)
        return picked
    return pick_in_numpy(mask, draws)


def pick_in_numpy(mask: NDArray[np.bool_], draws: NDArray[np.float64]) -> NDArray[np.int64]:
    """In each row of ``mask``, the ``int(draw * legal)``-th legal action (0 for none)."""
    columns = np.ascontiguousarray(mask.T)  # one row per action: vector adds
    legal = np.count_nonzero(columns, axis=0).astype(np.int16)
    pick = (draws * legal).astype(np.int16)  # uniform in 0 .. legal - 1
    running = np.zeros(len(legal), dtype=np.int16)  # legal actions up to each column
    chosen = np.zeros(len(legal), dtype=np.int64)  # columns before the pick-th legal action
    for column in columns:
        running += column
        chosen += running <= pick
    chosen[legal == 0] = 0
    return chosen


def greedy_actions(games: BatchGames, rng: np.random.Generator) -> NDArray[np.int64]:  # noqa: ARG001
    """What [`greedy_bot`][pickomino_rules.bots.greedy_bot] plays, in every game at once.

    After a roll it first takes a face whose dice win worms at once, as the rules score the
    games after the take (`BatchGames.scores_after`): the most worms, then the most points.
    Otherwise it takes worms while it has none, else the face worth the most points (ties:
    the higher face). It steals when it can; otherwise it rolls on unless it can take
    a grill tile and has three or fewer dice in hand, a total of 30 or more, or no higher
    tile left on the grill. A variant's decisions go to the first legal choice.
    """
    mask = games.legal_mask()
    state = games.arrays
    actions: NDArray[np.int64] = np.argmax(mask, axis=1)  # the first legal choice
    takes = mask[:, 1:7]
    choose = np.flatnonzero(takes.any(axis=1))
    if choose.size:
        takeable = takes[choose]
        counts = state.roll[choose].astype(np.int64)
        value = counts * POINTS * 8 + np.arange(1, 7)  # points, then the higher face
        best = np.argmax(np.where(takeable, value, -1), axis=1)
        first_worm = takeable[:, WORM] & (state.set_aside[choose, WORM] == 0)
        chosen = np.where(first_worm, WORM, best)
        if _takes_may_score(games.rules):  # first a take that wins worms at once, the most
            won = _worms_won(games, choose, takeable)
            most = won.max(axis=1, keepdims=True)
            winning = takeable & (won == most) & (most > 0)
            wins = winning.any(axis=1)
            chosen[wins] = np.argmax(np.where(winning, value, -1), axis=1)[wins]
        actions[choose] = chosen + 1
    encode = games.encoding.encode
    roll_number, steal, stop = encode(ROLL), encode(Steal(0)), encode(STOP)
    steals = mask[:, steal : steal + games.players]
    stealing = steals.any(axis=1)
    actions[stealing] = steal + np.argmax(steals[stealing], axis=1)
    decide = np.flatnonzero(~stealing & (mask[:, roll_number] | mask[:, stop]))
    if decide.size:
        grill = state.grill[decide]
        tiles = np.asarray(games.rules.tiles)
        top = len(tiles) - 1 - np.argmax(grill[:, ::-1], axis=1)
        highest = np.where(grill.any(axis=1), tiles[top], 0)
        total = state.set_aside[decide].astype(np.int64) @ POINTS
        enough = (state.in_hand[decide] <= _GREEDY_FEW_DICE) | (
            total >= np.minimum(_GREEDY_ENOUGH_TOTAL, highest)
        )
        can_claim = state.grill_claim[decide] >= 0
        roll = mask[decide, roll_number] & ~(can_claim & enough)
        actions[decide] = np.where(roll, roll_number, stop)
    return actions


def _worms_won(
    games: BatchGames, rows: NDArray[np.int64], takeable: NDArray[np.bool_]
) -> NDArray[np.int64]:
    """Per row and face: the worms setting that face aside wins the player to move at once.

    As the rules score the games after the take (`BatchGames.scores_after`); 0 where the
    face cannot be taken.
    """
    now = games.scores()
    me = games.to_move[rows].astype(np.int64)
    won = np.zeros(takeable.shape, dtype=np.int64)
    for face in range(6):
        where = np.flatnonzero(takeable[:, face])
        if where.size:
            taking = rows[where]
            actions = np.zeros(games.size, dtype=np.int64)
            actions[taking] = face + 1  # the take's action number
            active = np.zeros(games.size, dtype=np.bool_)
            active[taking] = True
            after = games.scores_after(actions, active)
            won[where, face] = after[taking, me[where]] - now[taking, me[where]]
    return won


VECTOR_BOTS: dict[str, VectorBot] = {"random": random_actions, "greedy": greedy_actions}
"""Vectorised bots by the name of the bot they stand for."""


class UnknownVectorBotError(PickominoError, LookupError, ValueError):
    """No vectorised form is registered for a bot's name."""

    __module__ = "pickomino_rules.batch_bots"  # where users import it from (tracebacks, reprs)


def register_vector_bot(name: str, bot: VectorBot, *, replace: bool = False) -> None:
    """Make ``bot`` the vectorised form of the bot called ``name``.

    Raises:
        InvalidBotError: The name is taken and ``replace`` is false (a ``ValueError``).
    """
    if name in VECTOR_BOTS and not replace:
        msg = f"a vectorised bot named {name!r} is already registered"
        raise InvalidBotError(msg)
    VECTOR_BOTS[name] = bot


def get_vector_bot(name: str) -> VectorBot:
    """The vectorised form of the bot called ``name``.

    Raises:
        UnknownVectorBotError: None is registered.

    Examples:
        >>> get_vector_bot("greedy") is greedy_actions
        True
        >>> get_vector_bot("optimal")
        Traceback (most recent call last):
        ...
        pickomino_rules.batch_bots.UnknownVectorBotError: the bot 'optimal' has no vectorised ...
    """
    bot = VECTOR_BOTS.get(name)
    if bot is None:
        known = ", ".join(sorted(VECTOR_BOTS))
        msg = f"the bot {name!r} has no vectorised form for the batch engine (these have: {known})"
        raise UnknownVectorBotError(msg)
    return bot
