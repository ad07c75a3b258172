"""The numeric encoding's observation and mask, written into a buffer: the reference.

[`Encoding`][pickomino_rules.encoding.Encoding] lays the observation out (its segments) and
numbers the actions; these two functions fill one observation and one mask from a state, in
plain Python and without numpy, so that the compiled engine can mirror them: ``_observe``'s
``observe_into`` and ``mask_into`` are their twins (in its ``MIRRORS``), which the encoding
uses under the compiled engine, writing straight into its numpy arrays.

A ``Layout`` is the encoding's layout as plain numbers. ``out`` is any buffer of zeros of the
right length that takes item assignment (a list, or a numpy array).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pickomino_rules._engine.steps import legal_actions, stop_claims
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Mapping, MutableSequence

    from pickomino_rules.actions import Action
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState, PartKey

__all__ = ["PHASES", "Layout", "mask_into", "observe_into"]

PHASES = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE, Phase.TURN_OVER, Phase.GAME_OVER)
"""The phases in the order of the observation's ``phase`` segment."""


class Layout:
    """Where each segment of one encoding's observation starts, as plain numbers.

    Attributes:
        players: Number of players.
        tiles: Each tile's index, by tile.
        count: Number of tiles.
        grill, face_down, tops, stack_sizes, scores, to_move, phase, in_hand, roll,
        set_aside, total, stop_claims: Where each segment starts.
        parts: Each observed part's key, its index in the state's parts, where its
            features start, how many there are, and its compiled observer (`Rules.observers`)
            or None.
        numbers: Each action's number.
    """

    __slots__ = (
        "count",
        "face_down",
        "grill",
        "in_hand",
        "numbers",
        "parts",
        "phase",
        "players",
        "roll",
        "scores",
        "set_aside",
        "stack_sizes",
        "stop_claims",
        "tiles",
        "to_move",
        "tops",
        "total",
    )

    players: int
    tiles: dict[int, int]
    count: int
    grill: int
    face_down: int
    tops: int
    stack_sizes: int
    scores: int
    to_move: int
    phase: int
    in_hand: int
    roll: int
    set_aside: int
    total: int
    stop_claims: int
    parts: tuple[tuple[PartKey[Any], int, int, int, Any], ...]
    numbers: dict[Action, int]

    def __init__(
        self,
        players: int,
        tiles: tuple[int, ...],
        starts: Mapping[str, int],
        parts: tuple[tuple[PartKey[Any], int, int, int, Any], ...],
        numbers: Mapping[Action, int],
    ) -> None:
        self.players = players
        self.tiles = {tile: index for index, tile in enumerate(tiles)}
        self.count = len(tiles)
        self.grill, self.face_down = starts["grill"], starts["face_down"]
        self.tops, self.stack_sizes = starts["tops"], starts["stack_sizes"]
        self.scores, self.to_move = starts["scores"], starts["to_move"]
        self.phase, self.in_hand, self.roll = starts["phase"], starts["in_hand"], starts["roll"]
        self.set_aside, self.total = starts["set_aside"], starts["total"]
        self.stop_claims = starts["stop_claims"]
        self.parts = parts
        self.numbers = dict(numbers)


_PHASE_INDEX = {phase: index for index, phase in enumerate(PHASES)}


def observe_into(
    layout: Layout, rules: Rules, state: GameState, me: int, out: MutableSequence[float]
) -> None:
    """Write the observation of ``state`` seen by seat ``me`` into ``out`` (zeros).

    The encoding checks the state and the seat first; see its table of segments.
    """
    _table_into(layout, rules, state, me, out)
    _dice_into(layout, state, out)
    if state.phase is Phase.DECIDE:  # what a stop takes now (C8): best grill tile, best steal
        worms = rules.worms
        for claim in stop_claims(rules, state):
            slot = layout.stop_claims + (claim.victim is not None)
            out[slot] = max(out[slot], worms[claim.tile])
    for key, index, start, _, _ in layout.parts:
        observe = key.observe
        assert observe is not None  # noqa: S101 (the layout lists observed parts only)
        for offset, feature in enumerate(observe(rules, state, state.parts[index], me)):
            out[start + offset] = feature


def _table_into(
    layout: Layout, rules: Rules, state: GameState, me: int, out: MutableSequence[float]
) -> None:
    """The tiles, the stacks and worms seen from ``me``, whose move it is, the phase."""
    n, where, count = layout.players, layout.tiles, layout.count
    for tile in state.grill:
        out[layout.grill + where[tile]] = 1.0
    for tile in state.face_down:
        out[layout.face_down + where[tile]] = 1.0
    stacks, scores = state.stacks, rules.scores(rules, state)
    for seat in range(n):
        player = (me + seat) % n
        stack = stacks[player]
        if stack:
            out[layout.tops + seat * count + where[stack[-1]]] = 1.0
        out[layout.stack_sizes + seat] = len(stack)
        out[layout.scores + seat] = scores[player]
    if state.phase is not Phase.GAME_OVER:
        out[layout.to_move + (state.player - me) % n] = 1.0
    out[layout.phase + _PHASE_INDEX[state.phase]] = 1.0


def _dice_into(layout: Layout, state: GameState, out: MutableSequence[float]) -> None:
    """The dice in hand, the roll on the table, the dice set aside and their points."""
    for offset, dice in enumerate(state.in_hand):
        out[layout.in_hand + offset] = dice
    if state.roll is not None:
        start = layout.roll
        for counts in state.roll.counts:
            for offset, dice in enumerate(counts):
                out[start + offset] = dice
            start += 6
    for offset, dice in enumerate(state.set_aside):
        out[layout.set_aside + offset] = dice
    out[layout.total] = state.total


def mask_into(layout: Layout, rules: Rules, state: GameState, out: MutableSequence[int]) -> None:
    """Write 1 into ``out`` (zeros) at the number of each legal decision of ``state``.

    Nothing at a chance node or at the end. A legal action that has no number raises
    ``KeyError`` (a variant's action class that does not list it).
    """
    if state.phase is Phase.ROLL or state.phase is Phase.GAME_OVER:
        return
    numbers = layout.numbers
    for action in legal_actions(rules, state):
        out[numbers[action]] = 1  # type: ignore[index]
