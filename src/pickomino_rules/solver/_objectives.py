"""What the end of a turn is worth: the turn values the solver maximises."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from pickomino_rules.result import scores
from pickomino_rules.state import GameState

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules


TurnValue = Callable[["Rules", GameState, GameState, "int | None"], float]
"""What the end of a turn is worth: ``value(rules, start, end, total)``.

``start`` is the state being solved, ``end`` the state once the turn is resolved
(after a stop or a bust) and ``total`` the total claimed with (None for a bust or a
stop without a worm).
"""

_Value = TypeVar("_Value", bound=TurnValue)


def total_blind(value: _Value) -> _Value:
    """Declare that a turn value never reads its ``total`` argument; returns it.

    The solver then values the stops that end the turn the same way once, whatever total
    they claim with, instead of once per total. A promise: a value marked so that reads
    the total is valued wrongly.

    Examples:
        >>> @total_blind
        ... def tiles_gained(rules, start, end, total):
        ...     return float(len(end.stacks[start.player]) - len(start.stacks[start.player]))
        >>> ignores_total(tiles_gained), ignores_total(points)
        (True, False)
    """
    value.reads_total = False  # type: ignore[attr-defined]
    return value


def ignores_total(value: TurnValue) -> bool:
    """Whether ``value`` is declared [`total_blind`][pickomino_rules.solver.total_blind]."""
    return getattr(value, "reads_total", True) is False


@total_blind
def worms_gained(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:  # noqa: ARG001
    """Worms the player to move gains (negative when he loses some): the default."""
    return float(scores(rules, end)[start.player] - _start_scores(rules, start)[start.player])


_LAST_START: list[tuple[object, object, tuple[int, ...]]] = [(None, None, ())]


def _start_scores(rules: Rules, start: GameState) -> tuple[int, ...]:
    """The scores of a solved state: asked once per end of its turn, computed once.

    Kept for the last state asked, by identity (hashing a state costs more than the look-up
    saves); the record is replaced whole, so threads at worst compute their own.
    """
    last_rules, last_start, found = _LAST_START[0]
    if last_start is not start or last_rules is not rules:
        found = scores(rules, start)
        _LAST_START[0] = (rules, start, found)
    return found


@total_blind
def margin_gained(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:  # noqa: ARG001
    """How much the player's lead over the best opponent grows (negative: it shrinks).

    Robbing the leader counts twice (worms gained and taken from him), robbing someone
    else once; a turn is worth what it does to the race, not to the player's own pile.

    Examples:
        >>> from pickomino_rules import new_game
        >>> rules, state = new_game("classic", players=2)
        >>> ahead = state.replace(stacks=((), (30,)))
        >>> robbed = state.replace(stacks=((30,), ()))
        >>> margin_gained(rules, ahead, robbed, 30), worms_gained(rules, ahead, robbed, 30)
        (6.0, 3.0)
    """
    player = start.player

    def margin(state: GameState) -> int:
        worms = scores(rules, state)
        return worms[player] - max(w for p, w in enumerate(worms) if p != player)

    worms = _start_scores(rules, start)
    before = worms[player] - max(w for p, w in enumerate(worms) if p != player)
    return float(margin(end) - before)


def points(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:  # noqa: ARG001
    """The total of a qualifying stop (with a worm), 0 for a bust."""
    return float(total or 0)


def reach_total(target: int) -> TurnValue:
    """1 when the turn stops with a worm and at least ``target`` points, else 0."""

    def value(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:  # noqa: ARG001
        return 1.0 if total is not None and total >= target else 0.0

    value.__name__ = f"reach_total({target})"
    return value


def takes_tile(tile: int) -> TurnValue:
    """1 when the turn ends with ``tile`` on top of the player's stack, taken this turn."""

    def value(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:  # noqa: ARG001
        mine = end.stacks[start.player]
        return 1.0 if mine and mine[-1] == tile and start.top(start.player) != tile else 0.0

    value.__name__ = f"takes_tile({tile})"
    return total_blind(value)
