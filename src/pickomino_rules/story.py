"""Turn-by-turn accounts of a game, for people reading along.

Examples:
    >>> from pickomino_rules import new_game, parse_move
    >>> rules, state = new_game("classic", players=2)
    >>> moves = [parse_move(rules, m) for m in ["wwwww114", "take w", "stop"]]
    >>> [str(turn) for turn in turns(rules, state, moves)]
    ['player 0: [114wwwww] take w stop -> takes 25']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from pickomino_rules.actions import Steal, Stop
from pickomino_rules.dice import RollOutcome
from pickomino_rules.game import apply
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from pickomino_rules.game import Move
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["Turn", "group_turns", "outcome_of", "turns"]


@attrs.frozen
class Turn:
    """One player's turn: the moves made and what came of them.

    Attributes:
        player: Whose turn it was.
        moves: The rolls (in brackets in the text) and actions, in order.
        outcome: What the turn did to the table, in words.
        before: The state at the turn's start.
        after: The state after the turn (the next player's roll, or the end).
    """

    player: int
    moves: tuple[Move, ...]
    outcome: str
    before: GameState
    after: GameState

    def describe(self, name: str) -> str:
        """The turn on one line, the player called ``name``; rolls in brackets."""
        shown = " ".join(f"[{m}]" if isinstance(m, RollOutcome) else str(m) for m in self.moves)
        return f"{name}: {shown} -> {self.outcome}"

    def __str__(self) -> str:
        return self.describe(f"player {self.player}")


def outcome_of(before: GameState, after: GameState, player: int, moves: Sequence[Move] = ()) -> str:
    """What a finished turn of ``player`` did to the table, in words.

    Args:
        before: The state at the turn's start.
        after: The state after the turn.
        player: Whose turn it was.
        moves: The turn's moves, if known (they tell a steal that took no tile,
            as from the hen's owner).
    """
    gained = len(after.stacks[player]) - len(before.stacks[player])
    if gained > 0:
        tile = after.stacks[player][-1]
        robbed = [p for p in range(before.players) if p != player and before.top(p) == tile]
        return f"steals {tile} from player {robbed[0]}" if robbed else f"takes {tile}"
    ending = next((move for move in reversed(moves) if isinstance(move, Stop | Steal)), None)
    if isinstance(ending, Steal):
        return f"robs player {ending.victim}, whose tile stays"
    details = []
    if gained < 0:
        details.append(f"returns {before.stacks[player][-1]}")
    turned = after.face_down[len(before.face_down) :]
    if turned:
        details.append(f"{', '.join(map(str, turned))} turned face down")
    return "bust: " + ", ".join(details) if details else "bust"


def turns(rules: Rules, state: GameState, moves: Iterable[Move]) -> Iterator[Turn]:
    """Apply ``moves`` from ``state`` and yield each completed turn.

    A turn ends when the dice pass to another player or the game ends; a trailing
    unfinished turn is not yielded.
    """

    def played() -> Iterator[tuple[Move, GameState]]:
        current = state
        for move in moves:
            current = apply(rules, current, move)
            yield move, current

    return group_turns(state, played())


def group_turns(state: GameState, steps: Iterable[tuple[Move, GameState]]) -> Iterator[Turn]:
    """Group a game already played into turns, without applying anything again.

    Args:
        state: The state before the first step.
        steps: Each move with the state it led to, as
            [`playout`][pickomino_rules.game.playout] yields them.
    """
    start, made = state, []
    for move, after in steps:
        player = state.player
        state = after
        made.append(move)
        if state.player != player or state.phase is Phase.GAME_OVER:
            outcome = outcome_of(start, state, player, made)
            yield Turn(player, tuple(made), outcome, start, state)
            start, made = state, []
