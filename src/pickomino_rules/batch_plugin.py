"""The batch engine's plug-in contract: a rule module's vectorised twin.

The batch engine ([`BatchGames`][pickomino_rules.batch.BatchGames]) plays thousands of games
at once as a [`BatchTable`][pickomino_rules.batch_plugin.BatchTable] of numpy arrays. It runs
the same hooks as the reference engine, in the same order, but each over many rows at once:
every [`RuleModule`][pickomino_rules.plugin.RuleModule] brings a
[`BatchTwin`][pickomino_rules.batch_plugin.BatchTwin] through its ``batch`` field (a function
that builds it, so that numpy is imported only when a batch is made), with one vectorised
function for each hook and extension point the module implements. A twin is optional: rules
with a module that brings none play per row through the reference engine (right, but slow:
``BatchGames.path``); a twin that misses one of the module's hooks is refused, naming the
module.

A twin hook takes the same ``inner`` first (the twins composed before it, the core's
innermost), then the table and ``rows``, the indices of the games it acts on (distinct,
ascending), then the hook's own arguments as arrays with one entry per row:

- ``setup(inner, table, rows)``: fill the module's part for new games.
- ``turn_dice(inner, table, rows)``: the dice per kind, shape (rows, kinds).
- ``roll_actions(inner, table, rows)`` and ``pending_actions(inner, table, rows)``: a
  legal-action mask, shape (rows, actions); a row with any pending action waits on it.
- ``set_aside(inner, table, rows, faces)``: faces 0 for 1s ... 5 for worms.
- ``stop_total(inner, table, rows)``: the totals, -1 where a stop busts.
- ``claims(inner, table, rows, totals)``: ``(tiles, victims)``, the grill tile index a stop
  takes and the player a steal robs, -1 for none.
- ``take_tile(inner, table, rows, tiles, victims)``: a steal where ``victims >= 0``, else
  grill tile index ``tiles``.
- ``bust(inner, table, rows)``, ``end_turn(inner, table, rows)``.
- ``apply_action(inner, table, rows, actions)``: numbers of the module's own actions.
- ``scores(inner, table, rows)``: worms per player, shape (rows, players).

The hooks that change the table return nothing.

A module with a part gives its arrays, and how a row's arrays read and write the part's value,
in a [`PartTwin`][pickomino_rules.batch_plugin.PartTwin]. Extension points have twins too:
``provides`` maps each point the module offers to its vectorised default, ``extends`` each
point it wraps to its vectorised wrapper (called with ``inner`` first, like a hook).

The table's arrays (see [`BatchTable`][pickomino_rules.batch_plugin.BatchTable]) use tile
*indices* (the position of a tile in ``rules.tiles``) on the grill and tile *numbers* in the
stacks, as the reference state does. The docs page "Your own variant" shows a module with its
twin; [`check_twins`][pickomino_rules.batch.check_twins] plays a variant in both engines with
the same dice and compares every state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from pickomino_rules.dice import Face, roll_counts
from pickomino_rules.errors import MissingExtraError
from pickomino_rules.info import game_info
from pickomino_rules.turn import HOOKS

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from numpy.typing import NDArray

    from pickomino_rules.actions import Action
    from pickomino_rules.dice import DieKind
    from pickomino_rules.plugin import ExtensionPoint
    from pickomino_rules.rules import Rules

__all__ = [
    "BATCH_HOOKS",
    "PHASE_CHOOSE",
    "PHASE_DECIDE",
    "PHASE_GAME_OVER",
    "PHASE_ROLL",
    "PHASE_TURN_OVER",
    "ActionNumbers",
    "BatchTable",
    "BatchTwin",
    "PartTwin",
    "pending_beside",
]

BATCH_HOOKS = HOOKS
"""The hooks a twin may implement: the reference hooks, by the same names."""

# Phase codes: the encoding's phase order (roll, choose, decide, turn over, game over).
PHASE_ROLL, PHASE_CHOOSE, PHASE_DECIDE, PHASE_TURN_OVER, PHASE_GAME_OVER = 0, 1, 2, 3, 4

WORM = Face.WORM - 1
"""Index of the worm face in six-face counts."""
POINTS = np.array([face.points for face in Face], dtype=np.int64)
"""Points of each face, in face order (C7), read off the rules' own faces."""

_Hook = Any  # a vectorised hook: its call is in the module's table, checked by the tests


class ActionNumbers(Protocol):
    """What a table asks of the game's action numbering: the numbers, and how many there are.

    The batch engine gives every table the game's
    [`Encoding`][pickomino_rules.encoding.Encoding], which is one. Declared here so that the
    contract names no tool module, not even for a type.
    """

    @property
    def num_actions(self) -> int:
        """How many action numbers there are (a mask's width)."""

    def encode(self, action: Action) -> int:
        """The number of ``action``."""


@attrs.frozen
class PartTwin:
    """How a module's part lives in a batch: its arrays, and a row's value read and written.

    Attributes:
        arrays: ``arrays(table)``: the part's arrays for ``table.size`` rows, by name (the
            module's ``setup`` twin fills them for each new game). Each array's first
            axis is the row.
        read: ``read(table, row)``: the part's value (the reference's object) of one row.
        write: ``write(table, row, value)``: store a reference value in one row.
        observe: ``observe(table, rows, seats)``: the part's observation features of
            ``rows`` seen from ``seats``, shape (rows, features), as the part key's
            ``observe`` gives them for one state; None when the part has none.
    """

    arrays: Callable[[BatchTable], dict[str, NDArray[Any]]]
    read: Callable[[BatchTable, int], object]
    write: Callable[[BatchTable, int, object], None]
    observe: Callable[[BatchTable, NDArray[np.int64], NDArray[np.int64]], NDArray[Any]] | None = (
        None
    )


@attrs.frozen(kw_only=True, eq=False)
class BatchTwin:
    """A rule module's vectorised twin: one function per hook the module implements.

    Every field named after a hook is optional, and must be given exactly when the module
    implements that hook (the batch engine checks it when it composes the rules).

    Attributes:
        part: The module's part in the batch, when it keeps one.
        provides: The vectorised default of each extension point the module provides.
        extends: The vectorised wrapper of each extension point the module extends.
    """

    part: PartTwin | None = None
    provides: Mapping[ExtensionPoint[Any, Any], Callable[..., Any]] = attrs.field(factory=dict)
    extends: Mapping[ExtensionPoint[Any, Any], Callable[..., Any]] = attrs.field(factory=dict)
    setup: _Hook = None
    turn_dice: _Hook = None
    roll_actions: _Hook = None
    pending_actions: _Hook = None
    set_aside: _Hook = None
    stop_total: _Hook = None
    claims: _Hook = None
    take_tile: _Hook = None
    bust: _Hook = None
    end_turn: _Hook = None
    apply_action: _Hook = None
    scores: _Hook = None


@lru_cache(maxsize=256)  # per kind of die: bounded (options make new kinds)
def _roll_table(
    kind: DieKind, most: int
) -> tuple[NDArray[np.int64], NDArray[np.int16], NDArray[np.int8]]:
    """Every roll of 0 to ``most`` dice of one kind, for exact draws by one lookup.

    A roll of n dice is drawn as a whole number r in [0, 6**n): ``rolls[lookup[start[n] + r]]``
    is the roll (as counts per face). Each roll fills as many entries of ``lookup`` as there
    are ways its dice can fall, in the order of its running weight, so every roll has its
    exact probability. (Roll numbers, not counts, in ``lookup``: a third of the memory, which
    stays in the processor's cache.)
    """
    start = np.zeros(most + 1, dtype=np.int64)
    chosen: list[NDArray[np.int16]] = []
    counts: list[tuple[int, ...]] = []
    for dice in range(most + 1):
        start[dice] = sum(len(part) for part in chosen)
        found, weights = roll_counts((kind,), (dice,))
        first = len(counts)
        counts.extend(roll[0] for roll in found)
        chosen.append(np.repeat(np.arange(first, len(counts), dtype=np.int16), weights))
    rolls = np.array(counts, dtype=np.int8)
    lookup = np.concatenate(chosen)
    for array in (start, lookup, rolls):
        array.flags.writeable = False
    return start, lookup, rolls


class BatchTable:
    """The games of a batch as arrays, one row per game; what twins read and change.

    Tiles on the grill and turned face down are tile indices (positions in ``tiles``);
    tiles in stacks are tile numbers, 0 past the top.

    Attributes:
        rules: The composed rules.
        encoding: The game's action numbers (the batch gives its
            [`Encoding`][pickomino_rules.encoding.Encoding]).
        size: Number of games (rows).
        players: Players per game.
        tiles: The tile numbers, ascending (shape (T,)).
        worms: Worms of each tile by index (shape (T,)).
        points: Points of each face, in face order (C7).
        worms_by_number: Worms of each tile by number, 0 for any other number.
        index_of: The index of each tile number, -1 for any other number.
        grill: Bit i set where tile index i lies face up on the grill (shape (N,)).
        face_down: Tiles turned face down, by number, in the order turned (shape (N, T)).
        face_down_count: How many tiles are turned face down.
        stacks: Each player's tiles by number, bottom first (shape (N, players, T)).
        heights: Tiles in each stack (shape (N, players)).
        tops: Each player's top tile number, 0 for none (shape (N, players)).
        player: The player to move (the last mover once the game is over).
        phase: The phase code (0 roll, 1 choose, 2 decide, 3 turn over, 4 game over).
        in_hand: Dice in hand per kind (shape (N, kinds)).
        roll: The roll on the table per kind and face (shape (N, kinds, 6)).
        set_aside: Dice set aside this turn per face (shape (N, 6)).
        parts: Each part's arrays, by part name.
        compiled: The compiled core twins' view of these arrays (None where the batch
            runs its numpy twins only).
    """

    def __init__(self, rules: Rules, encoding: ActionNumbers, size: int, players: int) -> None:
        info = game_info(rules, players)
        self.rules = rules
        self.encoding = encoding
        self.size = size
        self.players = players
        self.tiles = np.array(info.tiles, dtype=np.int64)
        count = len(info.tiles)
        self.worms = np.array(info.worms, dtype=np.int64)
        self.points = np.array(info.points, dtype=np.int64)
        self.worms_by_number = np.zeros(max(rules.tiles) + 1, dtype=np.int64)
        self.worms_by_number[self.tiles] = self.worms
        self.index_of = np.full(max(rules.tiles) + 2, -1, dtype=np.int64)
        self.index_of[self.tiles] = np.arange(count)
        # Grill tiles below each total, as bits (C8's "next lower tile"); totals past the
        # highest tile see every tile.
        past = int(self.tiles[-1]) + 1
        self.below = np.array(
            [
                sum(1 << i for i, tile in enumerate(rules.tiles) if tile < total)
                for total in range(past + 1)
            ],
            dtype=np.int64,
        )
        self.highest_of = (
            _highest_bits(count) if count <= 20 else None  # a table while it stays small
        )
        self.kinds = len(info.die_kinds)
        self.dice = np.array(info.dice, dtype=np.int8)
        self.most_dice = info.most_dice
        self.roll_tables = [  # per kind: where each number of dice starts, and the rolls
            _roll_table(kind, most)
            for kind, most in zip(info.die_kinds, self.most_dice, strict=True)
        ]
        self.sides = 6 ** np.arange(max(self.most_dice) + 1, dtype=np.int64)
        self.rows = np.arange(size)
        self.seats = np.arange(players)
        for constant in (
            self.tiles, self.worms, self.points, self.worms_by_number, self.index_of,
            self.below, self.highest_of, self.dice, self.sides, self.rows, self.seats,
        ):  # fmt: skip
            if constant is not None:  # read-only: nothing writes them, and copies of the
                constant.flags.writeable = False  # games' arrays (scores_after) skip them
        self.grill = np.full(size, (1 << count) - 1, dtype=np.int64)
        self.face_down = np.zeros((size, count), dtype=np.int8)
        self.face_down_count = np.zeros(size, dtype=np.int8)
        self.stacks = np.zeros((size, players, count), dtype=np.int8)
        self.heights = np.zeros((size, players), dtype=np.int8)
        self.tops = np.zeros((size, players), dtype=np.int64)
        self.player = np.zeros(size, dtype=np.int8)
        self.phase = np.zeros(size, dtype=np.int8)
        self.in_hand = np.zeros((size, self.kinds), dtype=np.int8)
        self.roll = np.zeros((size, self.kinds, 6), dtype=np.int8)
        self.set_aside = np.zeros((size, 6), dtype=np.int8)
        self.parts: dict[str, dict[str, NDArray[Any]]] = {}
        self.extensions: dict[ExtensionPoint[Any, Any], Callable[..., Any]] = {}
        self.compiled: object = None  # the compiled core twins' view of these arrays, if built

    # ------------------------------------------------------------------ reading

    def number(self, action: Action) -> int:
        """The action number of ``action`` in this game's encoding."""
        return self.encoding.encode(action)

    def extension(self, point: ExtensionPoint[Any, Any]) -> Callable[..., Any]:
        """The composed twin of extension point ``point``."""
        return self.extensions[point]

    def provides(self, point: ExtensionPoint[Any, Any]) -> bool:
        """Whether a composed module provides ``point``."""
        return point in self.extensions

    def totals(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """Points of the dice set aside in ``rows`` (C7)."""
        totals: NDArray[np.int64] = self.set_aside[rows].astype(np.int64) @ POINTS
        return totals

    def highest(self, bits: NDArray[np.int64]) -> NDArray[np.int64]:
        """The index of the highest set bit of each grill (-1 for an empty grill)."""
        if self.highest_of is not None:
            found: NDArray[np.int64] = self.highest_of[bits]
            return found
        exponent = np.frexp(bits.astype(np.float64))[1].astype(np.int64)
        return exponent - 1

    def mask(self, rows: NDArray[np.int64]) -> NDArray[np.bool_]:
        """An empty action mask for ``rows``, for twins that offer actions."""
        return np.zeros((len(rows), self.encoding.num_actions), dtype=np.bool_)

    # ------------------------------------------------------------------ moving tiles

    def push(
        self, rows: NDArray[np.int64], players: NDArray[np.int64], tiles: NDArray[Any]
    ) -> None:
        """Put tile numbers ``tiles`` on top of the players' stacks."""
        self.stacks[rows, players, self.heights[rows, players]] = tiles
        self.heights[rows, players] += 1
        self.tops[rows, players] = tiles

    def pop(self, rows: NDArray[np.int64], players: NDArray[np.int64]) -> NDArray[np.int64]:
        """Take the top tiles off the players' (non-empty) stacks; their numbers."""
        tiles = self.tops[rows, players]
        self.heights[rows, players] -= 1
        height = self.heights[rows, players].astype(np.int64)
        self.stacks[rows, players, height] = 0
        self.tops[rows, players] = np.where(
            height > 0, self.stacks[rows, players, np.maximum(height - 1, 0)], 0
        )
        return tiles

    def return_tile(self, rows: NDArray[np.int64], players: NDArray[np.int64]) -> None:
        """Twin of ``turn.return_tile``: the players' top tiles back on the grill (C10)."""
        tiles = self.pop(rows, players)
        self.grill[rows] |= 1 << self.index_of[tiles]

    def turn_face_down(self, rows: NDArray[np.int64]) -> None:
        """Twin of ``turn.turn_face_down``: the highest grill tile turned face down (C10).

        The grill of each row must hold a tile.
        """
        index = self.highest(self.grill[rows])
        self.grill[rows] &= ~(1 << index)
        self.face_down[rows, self.face_down_count[rows]] = self.tiles[index]
        self.face_down_count[rows] += 1

    def take_from_grill(
        self, rows: NDArray[np.int64], players: NDArray[np.int64], index: NDArray[np.int64]
    ) -> None:
        """Move grill tile ``index`` of each row to the top of the player's stack."""
        self.grill[rows] &= ~(1 << index)
        self.push(rows, players, self.tiles[index])


def pending_beside(
    inner: Callable[..., NDArray[np.bool_]],
    table: BatchTable,
    rows: NDArray[np.int64],
    choosing: NDArray[np.int64],
) -> NDArray[np.bool_]:
    """A ``pending_actions`` twin's mask before its own choices are filled in.

    The inner layers answer for every row but ``choosing`` (positions in ``rows`` where the
    module's decision is pending, for the caller to fill), as the reference hook answers
    those rows by calling ``inner``.
    """
    others = np.ones(len(rows), dtype=np.bool_)
    others[choosing] = False
    offered = inner(table, rows[others])
    mask = table.mask(rows)
    if offered.any():  # the mask is empty already: copy only what the inner layers offer
        mask[others] = offered
    return mask


def _highest_bits(count: int) -> NDArray[np.int64]:
    """The index of the highest set bit of every grill of ``count`` tiles (-1: empty)."""
    table = np.full(1 << count, -1, dtype=np.int64)
    for bit in range(count):
        table[1 << bit : 1 << (bit + 1)] = bit
    return table
