"""The facts of one game, declared once: read by the encoding, the envs, the batch and the kit.

A [`GameInfo`][pickomino_rules.info.GameInfo] holds, for composed rules and a number of players,
what every interface to a game needs to know about it before it starts, as OpenSpiel's
``GameInfo`` does: the faces and their points, the kinds of dice and how many a turn holds,
the tiles and their worms, the player limits, every action a state can offer (their positions
are the action numbers), the most outcomes of one roll, the range of the zero-sum results and a
bound on a game's length. Each fact is read off the rules here, once; the encoding numbers the
actions listed here, the OpenSpiel game declares these figures, the batch sizes its tables
by them.

Examples:
    >>> from pickomino_rules import get_rules
    >>> info = game_info(get_rules("extended"), players=3)
    >>> info.num_actions, info.max_chance_outcomes, info.points
    (22, 2574, (1, 2, 3, 4, 5, 5))
    >>> info.tiles[:3], info.worms[:3], info.most_dice
    ((11, 13, 21), (1, 1, 1), (8, 1))
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.dice import FACES
from pickomino_rules.errors import ArgumentTypeError, brief
from pickomino_rules.game import MAX_GAME_MOVES, new_game

if TYPE_CHECKING:
    from pickomino_rules.actions import Action
    from pickomino_rules.dice import DieKind, Face
    from pickomino_rules.rules import Rules

__all__ = ["GameInfo", "game_info"]


@attrs.frozen(eq=False)
class GameInfo:
    """The facts of a game of ``rules`` with ``players`` players (build it with `game_info`).

    Attributes:
        rules: The composed rules.
        players: Number of players.
        actions: Every action a state of the game can offer, in the order of the action
            numbers (the core's, then each module's, as ``Rules.action_types`` lists them).
        action_starts: The number of the first action of each class of
            ``Rules.action_types`` (its actions follow it in order).
        max_chance_outcomes: The most distinct outcomes of one roll (of any dice a turn can
            hold).
        min_utility: The lowest zero-sum result of a game (``encoding.returns``).
        max_utility: The highest.
        utility_sum: What the results of one game add up to.
        max_game_length: The most moves (rolls included) a game is played for: no rule ends
            a game by its length (a bust with an empty stack changes nothing, C10), so this
            is the library's limit, `MAX_GAME_MOVES`.
    """

    rules: Rules
    players: int
    actions: tuple[Action, ...]
    max_chance_outcomes: int
    min_utility: float = -1.0
    max_utility: float = 1.0
    utility_sum: float = 0.0
    max_game_length: int = MAX_GAME_MOVES
    action_starts: tuple[int, ...] = ()

    @property
    def num_actions(self) -> int:
        """How many distinct actions there are (the size of the action space)."""
        return len(self.actions)

    @property
    def faces(self) -> tuple[Face, ...]:
        """The faces of the dice, in face order: 1-5, worm."""
        return FACES

    @property
    def points(self) -> tuple[int, ...]:
        """Points of each face, in face order (C7)."""
        return tuple(face.points for face in FACES)

    @property
    def tiles(self) -> tuple[int, ...]:
        """Every tile number, ascending."""
        return self.rules.tiles

    @property
    def worms(self) -> tuple[int, ...]:
        """Worms of each tile, aligned with ``tiles``."""
        return tuple(self.rules.worms[tile] for tile in self.rules.tiles)

    @property
    def die_kinds(self) -> tuple[DieKind, ...]:
        """The kinds of dice."""
        return self.rules.die_kinds

    @property
    def dice(self) -> tuple[int, ...]:
        """Dice of each kind a turn normally starts with."""
        return self.rules.components.dice

    @property
    def most_dice(self) -> tuple[int, ...]:
        """The most dice of each kind a turn can hold."""
        return self.rules.most_dice

    @property
    def min_players(self) -> int:
        """Fewest players the rules allow."""
        return self.rules.components.min_players

    @property
    def max_players(self) -> int:
        """Most players the rules allow."""
        return self.rules.components.max_players


def game_info(rules: Rules, players: int) -> GameInfo:
    """The facts of a game of ``rules`` with ``players`` players (worked out once, cached).

    Raises:
        InvalidSetupError: ``players`` is out of the rules' range.
        ArgumentTypeError: ``rules`` are not composed rules.
        TypeError: A variant's action class does not list its instances.
    """
    if not hasattr(rules, "action_types"):
        msg = f"rules must be composed Rules, got {brief(rules)}"
        raise ArgumentTypeError(msg)
    return _info(rules, players)


@lru_cache(maxsize=16)  # per rules: as many as get_rules keeps (rules of many options come
# and go)
def _info(rules: Rules, players: int) -> GameInfo:
    actions, starts = _numbered_actions(rules, players)
    pools = product(*(range(most + 1) for most in rules.most_dice))
    outcomes = max(len(rules.chance_table(pool).outcomes) for pool in pools if any(pool))
    return GameInfo(rules, players, actions, outcomes, action_starts=starts)


@lru_cache(maxsize=16)  # (the engine's one-row table asks it too, without the chance tables)
def _numbered_actions(rules: Rules, players: int) -> tuple[tuple[Action, ...], tuple[int, ...]]:
    """`GameInfo.actions` and `GameInfo.action_starts` alone, without every chance table."""
    new_game(rules, players=players)  # checks the number of players
    actions: list[Action] = []
    starts: list[int] = []
    for kind in rules.action_types:
        starts.append(len(actions))
        actions.extend(kind.instances(rules, players))
    if len(set(actions)) != len(actions):
        msg = f"{rules.name}: two action classes list the same action"
        raise TypeError(msg)
    return tuple(actions), tuple(starts)
