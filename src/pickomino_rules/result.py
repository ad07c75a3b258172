"""Scores, ranking and winners (C13).

Examples:
    >>> from pickomino_rules import new_game, result
    >>> rules, state = new_game("classic", players=3)
    >>> state = state.replace(grill=(), stacks=((21, 30), (36,), (22, 23, 24, 25)))
    >>> result(rules, state)
    GameResult(scores=(4, 4, 5), ranking=(2, 1, 0), winners=(2,))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from pickomino_rules._engine.guards import ODD, check_fits, failure
from pickomino_rules.errors import PickominoError

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["GameResult", "result", "scores"]


@attrs.frozen
class GameResult:
    """The outcome of a game.

    Attributes:
        scores: Worms of each player, by player index.
        ranking: Player indices from first to last: by worms, then by the highest
            tile held (C13); players still level keep index order.
        winners: The winner, or the players sharing the win when tied players hold
            no tile at all (C13 decision).
    """

    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]


def scores(rules: Rules, state: GameState) -> tuple[int, ...]:
    """Each player's worms now (C13; variants add theirs, e.g. E14)."""
    check_fits(rules, state)
    try:
        worms = rules.scores(rules, state)
    except PickominoError:
        raise
    except ODD as error:
        raise failure(rules, state, error) from error
    if len(worms) != len(state.stacks):  # a hook that answers for other players
        raise failure(
            rules, state, ValueError(f"{len(worms)} scores for {len(state.stacks)} players")
        )
    return worms


def result(rules: Rules, state: GameState) -> GameResult:
    """Scores, ranking and winners of ``state`` (usually a finished game).

    Ties on worms go to the tied player holding the highest-numbered tile; tied
    players who hold no tile share the win (C13).
    """
    worms = scores(rules, state)
    if not worms:  # no players: nobody to rank
        raise failure(rules, state, IndexError("no players"))
    best_tile = [max(stack, default=0) for stack in state.stacks]
    ranking = sorted(range(len(worms)), key=lambda p: (-worms[p], -best_tile[p], p))
    leader = ranking[0]
    winners = tuple(
        p for p in ranking if worms[p] == worms[leader] and best_tile[p] == best_tile[leader]
    )
    return GameResult(worms, tuple(ranking), winners)
