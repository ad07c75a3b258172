"""Exact turn solver: the optimal policy for the rest of a turn, by expectimax.

Within a turn the future depends on the dice set aside (how many of each face), the
dice still in hand (per kind of die) and whether a re-roll may still be used (the
extended game's weasel; the solver models one per turn). The solver enumerates every
such node reachable from the state solved and runs expectimax over the exact chance
outcomes of [`chance_table`][pickomino_rules.dice.chance_table], vectorised with numpy,
one batch per pool of dice.

What ending the turn is worth comes only from the rules: the solver builds the real
state (the real dice set aside), asks the rules for its stop total, applies each legal
way to end the turn with [`stop_outcomes`][pickomino_rules.game.stop_outcomes], and values
a bust with [`resolve_bust`][pickomino_rules.game.resolve_bust]. Every variant's totals,
claims, returned and turned tiles, the can, the hen and the golden die count exactly as in
play. When every module that acts at a turn's end promises that only the total says what
the dice were (``ends_on_total``, as all built-in modules do), this is done once per class
of nodes with the same points and worm, once per stop total and once for a bust; a house
rule that reads the dice set aside makes no such promise, and then every node is applied.

What a turn is worth is a pluggable [`TurnValue`][pickomino_rules.solver.TurnValue]:
[`worms_gained`][pickomino_rules.solver.worms_gained] (the default),
[`points`][pickomino_rules.solver.points],
[`reach_total`][pickomino_rules.solver.reach_total] and
[`takes_tile`][pickomino_rules.solver.takes_tile].

Probabilities of the chance model are exact fractions; the solver computes in
float64 (values and probabilities of outcomes are floats, exact to about 1e-15).

What happens while dice are set aside counts too. A set-aside that changes the rest of
the state (a grilled worm won or robbed for two 1s, E4) leads to the values of the board
it leaves, solved first over the nodes below it; the rules are asked once per face and
count, which is enough because every module acting mid-turn promises that only these
matter (``mid_turn_by_count``). Decisions a variant makes pending in the turn or at its
end (whom to rob, which specialist to keep) are the player's and are maximised over like
any other. Rules with a module that acts mid-turn without that promise are refused with
[`UnsolvableRulesError`][pickomino_rules.solver.UnsolvableRulesError] rather than valued
approximately.

Examples:
    >>> from pickomino_rules import new_game
    >>> from pickomino_rules.solver import solve_turn
    >>> rules, state = new_game("classic", players=2)
    >>> solution = solve_turn(rules, state)
    >>> round(solution.value, 3)
    1.645
    >>> dist = solution.outcome_distribution()
    >>> round(sum(dist.values()), 12)
    1.0
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.actions import Action, Roll, Steal, Stop
from pickomino_rules.dice import DieKind, Face, RollOutcome, roll_counts
from pickomino_rules.errors import MissingExtraError, PickominoError
from pickomino_rules.game import (
    Move,
    apply,
    check_fits,
    legal_actions,
    resolve_bust,
    stop_outcomes,
)
from pickomino_rules.result import scores
from pickomino_rules.state import GameState, Phase
from pickomino_rules.story import outcome_of

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the turn solver", "solver") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from pickomino_rules.rules import Rules

__all__ = [
    "NoTurnDecisionError",
    "NotSolvableError",
    "TurnSolution",
    "TurnValue",
    "UnsolvableRulesError",
    "check_exact",
    "exact_for",
    "margin_gained",
    "points",
    "reach_table",
    "reach_total",
    "solve_turn",
    "takes_tile",
    "worms_gained",
]

TurnValue = Callable[["Rules", GameState, GameState, "int | None"], float]
"""What the end of a turn is worth: ``value(rules, start, end, total)``.

``start`` is the state being solved, ``end`` the state once the turn is resolved
(after a stop or a bust) and ``total`` the total claimed with (None for a bust or a
stop without a worm).
"""

NEG = -np.inf
_TURN = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE)


class NoTurnDecisionError(PickominoError, ValueError):
    """The state offers no decision of the turn solved: it is not in the dice part of a turn.

    The game is over, the turn has passed on, a decision of a variant is pending, the state
    is not reachable from the solved one, or a chance node was asked for actions. Beside
    [`UnsolvableRulesError`][pickomino_rules.solver.UnsolvableRulesError] (rules the solver
    cannot value) the old name, ``NotSolvableError``, read as its twin.
    """


NotSolvableError = NoTurnDecisionError
"""Deprecated alias of [`NoTurnDecisionError`][pickomino_rules.solver.NoTurnDecisionError]."""


def worms_gained(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:  # noqa: ARG001
    """Worms the player to move gains (negative when he loses some): the default."""
    return float(scores(rules, end)[start.player] - _start_scores(rules, start)[start.player])


@lru_cache(maxsize=16)
def _start_scores(rules: Rules, start: GameState) -> tuple[int, ...]:
    """The scores of a solved state: asked once per end of its turn, computed once."""
    return scores(rules, start)


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
    return value


# -- the structure of a turn (board-independent, cached per start) -------------------------

Key = tuple[tuple[int, ...], tuple[int, ...], bool]
"""A node: dice set aside per face, dice in hand per kind, re-roll ready."""


@attrs.frozen(eq=False)
class _Batch:
    """Rolling nodes sharing one pool of dice in hand and one re-roll flag."""

    nodes: NDArray[np.intp]
    """The nodes rolled, by index."""
    probabilities: NDArray[np.float64]
    """Chance of each distinct roll of the pool."""
    faces: tuple[int, ...]
    """The faces (0 for 1s ... 5 for worms) that some roll lets a node set aside."""
    choices: tuple[NDArray[np.intp], ...]
    """For each of ``faces``: per node and roll, the node reached by setting it aside
    (0: none)."""
    plain: NDArray[np.intp] | None
    """With a re-roll ready: each node's twin without it (the roll it throws again)."""


@attrs.frozen(eq=False)
class _Program:
    """Every node reachable from one start, and the rolls between them."""

    keys: tuple[Key, ...]
    """Node ``i``'s key is ``keys[i]``; node 0 is a sentinel meaning "no such option"."""
    index: dict[Key, int]
    batches: tuple[_Batch, ...]
    """Rolling nodes in solving order: fewer dice in hand first, the re-roll's twin first."""
    rolling: NDArray[np.bool_]
    """Per node: whether its dice may be rolled (a bust is possible)."""
    stop_class: NDArray[np.intp]
    """Per node: its class of stops, by points set aside and a worm among them (-1: none
    set aside, no stop)."""
    counts: NDArray[np.int64]
    """Per node: dice set aside per face."""
    flags: NDArray[np.bool_]
    """Per node: whether a re-roll is ready."""
    rows: NDArray[np.intp]
    """Per rolling node: its batch and its row there (-1, -1 for the others)."""


@cache
def _table_arrays(
    kinds: tuple[DieKind, ...], dice: tuple[int, ...]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """A pool's rolls as (read-only) arrays: dice per face, per face and kind, chances."""
    rolls, weights = roll_counts(kinds, dice)
    by_kind = np.array(rolls, dtype=np.int64).transpose(0, 2, 1)  # roll, face, kind
    chances = np.array(weights, dtype=np.float64)
    arrays = (by_kind.sum(axis=2), by_kind, chances / chances.sum())
    for array in arrays:
        array.flags.writeable = False
    return arrays


def _codes(nodes: NDArray[np.int64]) -> NDArray[np.int64]:
    """One integer per node row (set aside per face, dice per kind, re-roll flag)."""
    weights = _BASE ** np.arange(nodes.shape[1], dtype=np.int64)
    codes: NDArray[np.int64] = nodes @ weights
    return codes


_BASE = 16  # more than the most dice of any face or kind


def _rollable(nodes: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Nodes whose dice may be rolled: dice in hand and a face not set aside yet."""
    rollable: NDArray[np.bool_] = (nodes[:, 6:-1].sum(axis=1) > 0) & (nodes[:, :6] == 0).any(axis=1)
    return rollable


def _moves(
    kinds: tuple[DieKind, ...], nodes: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Every (node, roll, face) of rolling ``nodes`` (one pool) that sets a new face aside.

    Returns the node rows, rolls, faces and the child node each leads to.
    """
    faces, by_kind, _ = _table_arrays(kinds, tuple(int(n) for n in nodes[0, 6:-1]))
    open_faces = (faces[None, :, :] > 0) & (nodes[:, None, :6] == 0)
    row, roll, face = np.nonzero(open_faces)
    child = nodes[row].copy()
    child[np.arange(len(row)), face] = faces[roll, face]
    child[:, 6:-1] -= by_kind[roll, face]
    return row, roll, face, child


def _pools(nodes: NDArray[np.int64]) -> dict[tuple[int, ...], NDArray[np.intp]]:
    """Row indices of ``nodes`` by pool of dice in hand and re-roll flag."""
    pools: dict[tuple[int, ...], list[int]] = {}
    for position, pool in enumerate(map(tuple, nodes[:, 6:].tolist())):
        pools.setdefault(pool, []).append(position)
    return {pool: np.array(rows, dtype=np.intp) for pool, rows in pools.items()}


def _batches(
    kinds: tuple[DieKind, ...], nodes: NDArray[np.int64]
) -> tuple[list[_Batch], NDArray[np.intp]]:
    """The rolling nodes by pool in solving order, and each one's batch and row."""
    sorted_codes = _codes(nodes[1:])
    lookup = np.argsort(sorted_codes)
    batches: list[_Batch] = []
    rows = np.full((len(nodes), 2), -1, dtype=np.intp)
    rolling_rows = np.flatnonzero(_rollable(nodes))
    rolling_rows = rolling_rows[rolling_rows > 0]
    pools = _pools(nodes[rolling_rows])
    for pool in sorted(pools, key=lambda p: (sum(p[:-1]), p[-1])):
        members = rolling_rows[pools[pool]]
        row, roll, face, child = _moves(kinds, nodes[members])
        _, _, probabilities = _table_arrays(kinds, pool[:-1])
        choices = np.zeros((6, len(members), len(probabilities)), dtype=np.intp)
        where = np.searchsorted(sorted_codes, _codes(child), sorter=lookup)
        choices[face, row, roll] = lookup[where] + 1
        plain = None
        if pool[-1]:
            twins = nodes[members].copy()
            twins[:, -1] = 0
            plain = lookup[np.searchsorted(sorted_codes, _codes(twins), sorter=lookup)] + 1
        faces = tuple(f for f in range(6) if choices[f].any())
        rows[members, 0], rows[members, 1] = len(batches), np.arange(len(members))
        batches.append(
            _Batch(
                members.astype(np.intp),
                probabilities,
                faces,
                tuple(choices[f] for f in faces),
                plain,
            )
        )
    return batches, rows


@cache
def _program(kinds: tuple[DieKind, ...], root: Key) -> _Program:
    """Enumerate the nodes reachable from ``root`` and the choices after each roll.

    Vectorised: nodes are rows of integers (set aside per face, dice per kind, re-roll),
    enumerated breadth first one pool of dice at a time.
    """
    start = np.array([[*root[0], *root[1], int(root[2])]], dtype=np.int64)
    found = [start]
    seen = set(_codes(start).tolist())
    frontier = start
    while len(frontier):
        twins = frontier[frontier[:, -1] == 1].copy()  # the re-roll given up
        twins[:, -1] = 0
        rolling = frontier[_rollable(frontier)]
        children = [twins, *(_moves(kinds, rolling[rows])[3] for rows in _pools(rolling).values())]
        joined = np.concatenate(children)
        codes, first = np.unique(_codes(joined), return_index=True)
        keep = np.array([code not in seen for code in codes.tolist()], dtype=np.bool_)
        fresh = joined[first[keep]]
        seen.update(codes[keep].tolist())
        found.append(fresh)
        frontier = fresh
    nodes = np.concatenate(found)
    held = nodes[:, 6:-1].sum(axis=1)
    order = np.lexsort((_codes(nodes), nodes[:, -1], held))  # fewer dice first, twins first
    nodes = np.concatenate([np.zeros((1, nodes.shape[1]), dtype=np.int64), nodes[order]])
    keys: tuple[Key, ...] = tuple(
        (tuple(row[:6]), tuple(row[6:-1]), bool(row[-1])) for row in nodes.tolist()
    )
    keys = (((0,) * 6, (), False), *keys[1:])  # node 0: the sentinel "no such option"
    index = {key: position for position, key in enumerate(keys)}
    batches, rows = _batches(kinds, nodes)
    counts = nodes[:, :6]
    stops = counts.sum(axis=1) > 0
    kinds_of_stop = counts @ np.array([2, 4, 6, 8, 10, 10]) + (counts[:, 5] > 0)
    classes, stop_class = np.unique(np.where(stops, kinds_of_stop, -1), return_inverse=True)
    if classes[0] == -1:  # nodes with nothing set aside: no stop
        stop_class -= 1
    return _Program(
        keys,
        index,
        tuple(batches),
        _rollable(nodes),
        stop_class.astype(np.intp),
        counts,
        nodes[:, -1] == 1,
        rows,
    )


_COUNTS = 10  # more than the most dice of one face a roll can show


@cache
def _set_asides(program: _Program) -> NDArray[np.uint64]:
    """Per node, one bit per face and count: whether some roll lets that many be set aside.

    Bit ``face * 10 + count``; a bit mask per node keeps this a few array operations.
    """
    bits = np.zeros(len(program.keys), dtype=np.uint64)
    for batch in program.batches:
        for face, choices in zip(batch.faces, batch.choices, strict=True):
            shown = program.counts[choices, face]  # 0 where nothing is set aside
            flags = np.where(
                shown > 0,
                np.left_shift(np.uint64(1), (face * _COUNTS + shown).astype(np.uint64)),
                np.uint64(0),
            )
            bits[batch.nodes] |= np.bitwise_or.reduce(flags, axis=1)
    return bits


@cache
def _probes(program: _Program, anchor: _Anchor) -> tuple[tuple[int, int, Key, int], ...]:
    """A roll to ask the rules about, per face and count that may be set aside below ``anchor``.

    Each is the face, the count, a node that may set that many aside and the index of a roll
    there that shows them (in ``chance_table`` order).
    """
    mask = _part(program, anchor).mask
    below = np.flatnonzero(mask)
    bits = _set_asides(program)[below]
    found = []
    for face, count in itertools.product(range(6), range(1, _COUNTS)):
        where = np.flatnonzero(bits & np.uint64(1 << (face * _COUNTS + count)))
        if anchor.least[face] or not where.size:
            continue  # set aside already everywhere below the anchor, or never
        node = int(below[where[0]])
        number, row = program.rows[node].tolist()
        batch = program.batches[number]
        children = batch.choices[batch.faces.index(face)][row]
        roll = int(np.flatnonzero(program.counts[children, face] == count)[0])
        found.append((face, count, program.keys[node], roll))
    return tuple(found)


def _roll_at(rules: Rules, dice: tuple[int, ...], index: int) -> RollOutcome:
    """Roll ``index`` of a pool (``chance_table`` order), without building the whole table."""
    by_kind = _table_arrays(rules.die_kinds, dice)[1][index].T.tolist()
    return RollOutcome(tuple(kind.name for kind in rules.die_kinds), tuple(map(tuple, by_kind)))


# -- solving ---------------------------------------------------------------------------


def _reroll_ready(rules: Rules, state: GameState) -> bool:
    """Whether the rules would let the player to move throw his next roll again.

    Asked of the rules themselves: on an empty probe roll, is an action offered
    whose class says it ``rerolls`` (the extended game's weasel, E10, does)?
    """
    if rules.chains["roll_actions"] == ("turn",):
        return False
    kinds = tuple(kind.name for kind in rules.die_kinds)
    probe = state.replace(
        phase=Phase.CHOOSE, roll=RollOutcome(kinds, tuple((0,) * 6 for _ in kinds))
    )
    return any(action.rerolls for action in rules.roll_actions(rules, probe))


def _turn_over(start: GameState, state: GameState) -> bool:
    """The dice have passed on, or the game is over: the turn's decisions are made."""
    return state.player != start.player or state.phase is Phase.GAME_OVER


def _pending(rules: Rules, state: GameState) -> bool:
    return rules.pending_actions is not None and bool(rules.pending_actions(rules, state))


Board = tuple[object, ...]
"""Everything of a state but the dice: grill, tiles turned, stacks and parts."""


def _board(state: GameState) -> Board:
    return state.grill, state.face_down, state.stacks, state.parts


@attrs.frozen
class _Anchor:
    """Which nodes one board's values cover.

    Those with at least ``least`` dice of each face set aside and the re-roll ``ready`` or
    not: a board changed mid-turn holds only below the change.
    """

    least: tuple[int, ...]
    ready: bool


@attrs.frozen(eq=False)
class _Part:
    """The nodes an anchor covers, with the batches and classes of stops cut to them."""

    mask: NDArray[np.bool_]
    batches: tuple[_Batch, ...]
    classes: NDArray[np.intp]
    """The classes of stops among the nodes."""
    firsts: NDArray[np.intp]
    """One node of each of ``classes``."""
    rolling: NDArray[np.intp]
    """The nodes whose dice may be rolled."""
    _hits: dict[tuple[int, int, bytes], tuple[NDArray[np.bool_], NDArray[np.intp]]] = attrs.field(
        factory=dict
    )

    def hits(
        self, number: int, face: int, counts: NDArray[np.bool_], program: _Program
    ) -> tuple[NDArray[np.bool_], NDArray[np.intp]]:
        """Where batch ``number`` sets aside ``face`` in one of ``counts``, and the nodes reached.

        Kept: the boards of many turns change on the same counts.
        """
        key = (number, face, counts.tobytes())
        found = self._hits.get(key)
        if found is None:
            reached = self.batches[number].choices[self.batches[number].faces.index(face)]
            hit = counts[program.counts[reached, face]]
            found = self._hits[key] = (hit, reached[hit])
        return found


@cache
def _part(program: _Program, anchor: _Anchor) -> _Part:
    """The part of ``program`` below ``anchor``; cached, as boards of many turns share it."""
    mask = program.flags == anchor.ready
    for face, least in enumerate(anchor.least):
        if least:
            mask &= program.counts[:, face] >= least
    mask[0] = False  # the sentinel
    batches = []
    for batch in program.batches:
        rows = mask[batch.nodes]
        if rows.all():
            batches.append(batch)
        elif rows.any():
            plain = None if batch.plain is None else batch.plain[rows]
            choices = tuple(choices[rows] for choices in batch.choices)
            batches.append(
                _Batch(batch.nodes[rows], batch.probabilities, batch.faces, choices, plain)
            )
    classes, firsts = np.unique(np.where(mask, program.stop_class, -1), return_index=True)
    stops = classes >= 0
    rolling = np.flatnonzero(mask & program.rolling)
    return _Part(mask, tuple(batches), classes[stops], firsts[stops], rolling)


@attrs.frozen(eq=False)
class _Values:
    """Optimal values of the nodes of one board (NEG outside ``mask``)."""

    anchor: _Anchor
    mask: NDArray[np.bool_]
    decide: NDArray[np.float64]
    roll: NDArray[np.float64]


@attrs.frozen(eq=False)
class _Change:
    """What setting some dice of a face aside does to a board.

    The boards it can lead to (several when the player then chooses, e.g. whom to rob)
    and whether the board can stay as it was, for the counts in ``counts``.
    """

    counts: NDArray[np.bool_]
    """Indexed by the number of dice set aside: whether this is what it does."""
    stays: bool
    boards: tuple[_Values, ...]


class UnsolvableRulesError(PickominoError, ValueError):
    """The rules do something mid-turn the solver cannot value exactly.

    Raised instead of an approximate value: a module acting while dice are rolled makes no
    ``mid_turn_by_count`` promise, or its hooks break it.
    """


@attrs.define
class TurnSolution:
    """The solved rest of a turn; query it for values, the best action and outcomes.

    Build it with [`solve_turn`][pickomino_rules.solver.solve_turn].

    Attributes:
        rules: The rules.
        state: The state solved (the player to move is ``state.player``).
        value_fn: The turn value maximised.
    """

    rules: Rules
    state: GameState
    value_fn: TurnValue
    _program: _Program
    _boards: dict[Board, list[_Values]] = attrs.field(init=False, factory=dict)
    """The values solved so far, by board: a grilled worm won mid-turn changes the board."""
    _ends: dict[tuple[GameState, int | None], float] = attrs.field(init=False, factory=dict)
    """Values of the turn's ends seen so far: many stops end on the same table."""
    _choices: set[Board] = attrs.field(init=False, factory=set)
    """The boards of the decisions pending in the turn that the solve has met."""

    def __attrs_post_init__(self) -> None:
        if _pending(self.rules, self.state):  # a pending choice is valued when asked
            self._choices.add(_board(self.state))
        else:
            self._values_at(self.state)

    # -- the values of one board -----------------------------------------------------------

    def _values_at(self, state: GameState) -> tuple[_Values, int]:
        """The values of ``state``'s board that cover its node (solved when first asked)."""
        node = self._node(state)
        for values in self._boards.get(_board(state), ()):
            if values.mask[node]:
                return values, node
        counts, _, ready = self._program.keys[node]
        return self._values(state, _Anchor(counts, ready)), node

    def _values(self, board: GameState, anchor: _Anchor) -> _Values:
        for values in self._boards.get(_board(board), ()):
            if values.anchor == anchor:
                return values
        values = self._expectimax(board, anchor, _part(self._program, anchor))
        self._boards.setdefault(_board(board), []).append(values)
        return values

    def _node_state(self, board: GameState, key: Key) -> GameState:
        counts, dice, _ = key
        return board.replace(phase=Phase.DECIDE, roll=None, set_aside=counts, in_hand=dice)

    def _end_value(self, end: GameState, total: int | None) -> float:
        """What ``end`` is worth.

        A decision still pending (which specialist to keep, whom to rob) is the player's
        own, and he takes its best option.
        """
        value = self._ends.get((end, total))
        if value is None:
            if _turn_over(self.state, end):
                value = self.value_fn(self.rules, self.state, end, total)
            else:
                self._choices.add(_board(end))
                value = max(
                    self._end_value(apply(self.rules, end, action), total)
                    for action in legal_actions(self.rules, end)
                )
            self._ends[end, total] = value
        return value

    def _stop_value(self, state: GameState) -> float:
        """The best way to end the turn now, through the rules' own stops."""
        total = self.rules.stop_total(self.rules, state)
        return max(self._end_value(end, total) for _, end in stop_outcomes(self.rules, state))

    def _end_values(
        self, board: GameState, part: _Part
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Each node's best stop and the value of a bust on ``board``, through the rules.

        When every module promises that only ``stop_total`` looks at the dice when a turn
        ends (``Rules.ends_on_total``), the stop total is asked once per class of nodes
        (points set aside, a worm or not), a stop is applied once per total, and a bust
        is valued once; otherwise every node is applied.
        """
        program = self._program
        rules = self.rules
        keys = program.keys
        stop = np.full(len(keys), NEG)
        bust = np.full(len(keys), NEG)
        if not rules.ends_on_total:
            for node in np.flatnonzero(part.mask).tolist():
                state = self._node_state(board, keys[node])
                if any(keys[node][0]):
                    stop[node] = self._stop_value(state)
                if program.rolling[node]:
                    bust[node] = self._end_value(resolve_bust(rules, state), None)
            return stop, bust
        by_total: dict[int | None, float] = {}
        worth = np.full(int(program.stop_class.max()) + 2, NEG)  # the last: no stop
        for number, node in zip(part.classes.tolist(), part.firsts.tolist(), strict=True):
            state = self._node_state(board, keys[node])
            total = rules.stop_total(rules, state)
            value = by_total.get(total)
            if value is None:
                value = by_total[total] = max(
                    self._end_value(end, total) for _, end in stop_outcomes(rules, state)
                )
            worth[number] = value
        stop[part.mask] = worth[program.stop_class[part.mask]]
        if part.rolling.size:
            state = self._node_state(board, keys[part.rolling[0]])
            bust[part.rolling] = self._end_value(resolve_bust(rules, state), None)
        return stop, bust

    # -- what happens between the dice -----------------------------------------------------

    def _settled(self, state: GameState) -> list[GameState]:
        """The states a pending decision mid-turn can lead to (``state`` when none is)."""
        if not _pending(self.rules, state):
            return [state]
        self._choices.add(_board(state))
        return [
            after
            for action in legal_actions(self.rules, state)
            for after in self._settled(apply(self.rules, state, action))
        ]

    def _changes(self, board: GameState, anchor: _Anchor) -> dict[int, list[_Change]]:
        """Per face: how setting it aside changes ``board``, where it does.

        Asked of the rules once per face and count (``mid_turn_by_count``: only they matter),
        by setting the dice aside on a real roll of the turn.
        """
        rules = self.rules
        if rules.chains["set_aside"] == ("turn",) and rules.pending_actions is None:
            return {}
        found: dict[tuple[int, bool, tuple[Board, ...]], list[int]] = {}
        leads: dict[Board, GameState] = {}
        for face, count, (aside, dice, _), roll in _probes(self._program, anchor):
            shown = _roll_at(rules, dice, roll)
            probe = board.replace(phase=Phase.CHOOSE, roll=shown, set_aside=aside, in_hand=dice)
            child = (*aside[:face], count, *aside[face + 1 :])
            stays, others = False, []
            for after in self._settled(rules.set_aside(rules, probe, Face(face + 1))):
                if after.phase is not Phase.DECIDE or after.set_aside != child:
                    msg = "setting dice aside did more than set them aside (mid_turn_by_count)"
                    raise UnsolvableRulesError(msg)
                if _board(after) == _board(board):
                    stays = True
                else:
                    leads.setdefault(_board(after), after)
                    others.append(_board(after))
            if others:
                found.setdefault((face, stays, tuple(others)), []).append(count)
        changes: dict[int, list[_Change]] = {}
        for (face, stays, targets), counts in found.items():
            least = (*anchor.least[:face], min(counts), *anchor.least[face + 1 :])
            below = _Anchor(least, anchor.ready)
            boards = tuple(self._values(leads[t], below) for t in dict.fromkeys(targets))
            table = np.zeros(_BASE, dtype=np.bool_)
            table[counts] = True
            changes.setdefault(face, []).append(_Change(table, stays, boards))
        return changes

    def _rerolled(self, board: GameState, anchor: _Anchor, part: _Part) -> _Values:
        """The values after the re-roll (E10) is used: on the board the rules leave."""
        program = self._program
        node = int(part.rolling[0])
        counts, dice, _ = program.keys[node]
        roll = _roll_at(self.rules, dice, 0)
        probe = board.replace(phase=Phase.CHOOSE, roll=roll, set_aside=counts, in_hand=dice)
        again = [a for a in legal_actions(self.rules, probe) if isinstance(a, Action) and a.rerolls]
        after = apply(self.rules, probe, again[0])
        if after.phase is not Phase.ROLL or _reroll_ready(self.rules, after):
            msg = "a re-roll that can be used more than once a turn cannot be valued"
            raise UnsolvableRulesError(msg)
        return self._values(after, _Anchor(anchor.least, ready=False))

    def _expectimax(self, board: GameState, anchor: _Anchor, part: _Part) -> _Values:
        """Value the nodes of ``mask`` on ``board``, children first.

        Stops and busts are applied through the rules; a set-aside that changes the board
        reads the values of the board it leads to (solved first).
        """
        program = self._program
        mask = part.mask
        stop, bust = self._end_values(board, part)
        changes = self._changes(board, anchor)
        # a re-roll matters only where dice may still be rolled
        again = self._rerolled(board, anchor, part) if anchor.ready and part.rolling.size else None
        decide = stop.copy()
        roll = np.full(len(program.keys), NEG)
        for number, batch in enumerate(part.batches):
            nodes = batch.nodes
            # the best face to set aside per node and roll (none: every roll busts)
            best = np.full((len(nodes), len(batch.probabilities)), NEG)
            for face, reached in zip(batch.faces, batch.choices, strict=True):
                values = decide[reached]
                for change in changes.get(face, ()):
                    hit, changed = part.hits(number, face, change.counts, program)
                    if changed.size:
                        worth = np.full(len(changed), NEG)
                        for other in change.boards:
                            np.maximum(worth, other.decide[changed], out=worth)
                        if change.stays:
                            np.maximum(worth, values[hit], out=worth)
                        values[hit] = worth
                np.maximum(best, values, out=best)
            busts = best == NEG
            if batch.plain is None or again is None:
                best = np.where(busts, bust[nodes][:, None], best)
            else:  # a roll may be thrown again once (E10), a busting one too
                thrown = again.roll[batch.plain][:, None]
                fallback = np.maximum(thrown, bust[nodes][:, None])
                best = np.where(
                    busts, np.broadcast_to(fallback, best.shape), np.maximum(best, thrown)
                )
            roll[nodes] = best @ batch.probabilities
            decide[nodes] = np.maximum(decide[nodes], roll[nodes])
        decide[~mask] = NEG
        return _Values(anchor, mask, decide, roll)

    # -- queries -------------------------------------------------------------------------

    @property
    def value(self) -> float:
        """Expected value of the rest of the turn under optimal play."""
        return self.value_of(self.state)

    def covers(self, state: GameState) -> bool:
        """Whether ``state`` is a state of the solved turn.

        The same player, dice reachable from the solved state, and a board the solved turn
        has there: its own, one a grilled worm won mid-turn leads to, or that of a decision
        pending in the turn or at its end.
        """
        if state.player != self.state.player or _turn_over(self.state, state):
            return False
        if _pending(self.rules, state):
            return _board(state) in self._choices
        return (
            state.phase in _TURN
            and _board(state) in self._boards
            and _key(self.rules, state) in self._program.index
        )

    def _node(self, state: GameState) -> int:
        try:
            return self._program.index[_key(self.rules, state)]
        except KeyError:
            msg = "that state is not reachable from the solved one"
            raise NoTurnDecisionError(msg) from None

    def value_of(self, state: GameState) -> float:
        """Optimal value of a state of the same turn, reached from the solved one."""
        if _turn_over(self.state, state):
            msg = "the turn is over in that state"
            raise NoTurnDecisionError(msg)
        if state.phase is Phase.ROLL:
            values, node = self._values_at(state)
            return float(values.roll[node])
        if state.phase is Phase.DECIDE and not _pending(self.rules, state):
            values, node = self._values_at(state)
            return float(values.decide[node])
        return max(self.action_value(state, action) for action in legal_actions(self.rules, state))

    def action_value(self, state: GameState, action: Move) -> float:
        """Optimal value after ``action`` in ``state`` (a state of the solved turn)."""
        if isinstance(action, Roll):
            values, node = self._values_at(state)
            return float(values.roll[node])
        after = apply(self.rules, state, action)
        if after.phase in _TURN and not _turn_over(self.state, after):
            return self.value_of(after)
        # the turn ends here, or a decision pending at its end is made: by the rules' total
        # of the dice set aside (None for a bust)
        ends = isinstance(action, Stop | Steal) or state.phase not in _TURN
        claimed = self.rules.stop_total(self.rules, state) if ends else None
        return self._end_value(after, claimed)

    def action_values(self) -> dict[Move, float]:
        """The optimal value of each legal action in the solved state."""
        if self.state.phase is Phase.ROLL:
            msg = "a chance node has no actions; see value and outcome_distribution"
            raise NoTurnDecisionError(msg)
        actions = legal_actions(self.rules, self.state)
        return {action: self.action_value(self.state, action) for action in actions}

    def best_action(self, state: GameState | None = None) -> Action:
        """The legal action with the highest value (ties: the first listed).

        Args:
            state: A decision of the solved turn; the solved state by default.

        Raises:
            NoTurnDecisionError: The state is a chance node.
        """
        state = self.state if state is None else state
        if state.phase is Phase.ROLL:
            msg = "a chance node has no actions"
            raise NoTurnDecisionError(msg)
        best = _best(self, state)
        assert isinstance(best, Action)  # noqa: S101 (decision states list actions)
        return best

    def outcome_distribution(self) -> dict[str, float]:
        """Probability of each way the turn can end under the optimal policy.

        Keys describe the end as [`outcome_of`][pickomino_rules.story.outcome_of] does:
        ``"takes 25"``, ``"steals 27 from player 1"``, ``"bust"`` and so on.
        """
        result: dict[str, float] = {}
        frontier: dict[GameState, float] = {self.state: 1.0}
        player = self.state.player
        while frontier:
            following: dict[GameState, float] = {}
            for state, mass in frontier.items():
                if _turn_over(self.state, state):
                    label = outcome_of(self.state, state, player)
                    result[label] = result.get(label, 0.0) + mass
                    continue
                if state.phase is Phase.ROLL:
                    table = self.rules.chance_table(state.in_hand)
                    for outcome, weight in zip(table.outcomes, table.weights, strict=True):
                        after = apply(self.rules, state, outcome)
                        following[after] = following.get(after, 0.0) + mass * weight / table.total
                    continue
                after = apply(self.rules, state, _best(self, state))
                following[after] = following.get(after, 0.0) + mass
            frontier = following
        return dict(sorted(result.items(), key=lambda item: -item[1]))


def _key(rules: Rules, state: GameState) -> Key:
    return state.set_aside, state.in_hand, _reroll_ready(rules, state)


def _best(solution: TurnSolution, state: GameState) -> Move:
    """The best action; among values equal to 1e-9, the first listed (stable ties)."""
    actions = legal_actions(solution.rules, state)
    return max(actions, key=lambda action: round(solution.action_value(state, action), 9))


def _unpromised(rules: Rules) -> list[str]:
    """The modules acting while dice are rolled that make no ``mid_turn_by_count`` promise."""
    return [m.name for m in rules.modules if m.acts_mid_turn and not m.mid_turn_by_count]


def exact_for(rules: Rules) -> bool:
    """Whether the solver can value turns under ``rules`` exactly.

    It can when every module acting while dice are rolled keeps the ``mid_turn_by_count``
    promise (every built-in module does); otherwise
    [`solve_turn`][pickomino_rules.solver.solve_turn] raises
    [`UnsolvableRulesError`][pickomino_rules.solver.UnsolvableRulesError].

    Examples:
        >>> from pickomino_rules import get_variant
        >>> exact_for(get_variant("classic").rules()), exact_for(get_variant("extended").rules())
        (True, True)
    """
    return rules.mid_turn_by_count and not _unpromised(rules)


def check_exact(rules: Rules) -> None:
    """Raise unless the solver can value turns under ``rules`` exactly (see `exact_for`).

    Raises:
        UnsolvableRulesError: A module acts while dice are rolled without the
            ``mid_turn_by_count`` promise; the message names it.
    """
    if not exact_for(rules):
        names = ", ".join(_unpromised(rules)) or "a module"
        msg = (
            f"rule module(s) {names} act while dice are rolled without the"
            " mid_turn_by_count promise: the solver cannot value their effects exactly"
        )
        raise UnsolvableRulesError(msg)


def solve_turn(rules: Rules, state: GameState, value: TurnValue = worms_gained) -> TurnSolution:
    """Solve the rest of the current player's turn exactly.

    Everything the turn can change counts: the tiles taken, stolen, returned and turned
    at its end, and what happens while dice are set aside (a grilled worm won or robbed);
    the player's choices inside the turn (whom to rob, which specialist to keep) are
    decisions of the expectimax like the dice.

    Args:
        rules: The rules.
        state: A state of a turn: a roll to come (phase ROLL), a roll on the table
            (CHOOSE), a decision to roll again or stop (DECIDE), or a decision a variant
            made pending in the turn or at its end.
        value: What the end of the turn is worth (default: worms gained).

    Raises:
        NoTurnDecisionError: The game is over or the turn has passed on.
        UnsolvableRulesError: A module acts mid-turn without the ``mid_turn_by_count``
            promise, so its effects could not be valued exactly.
    """
    check_fits(rules, state)
    check_exact(rules)
    if state.phase not in _TURN and not (
        state.phase is not Phase.GAME_OVER and _pending(rules, state)
    ):
        msg = f"no decision of a turn to solve in phase {state.phase.value!r}"
        raise NoTurnDecisionError(msg)
    program = _program(rules.die_kinds, _key(rules, state))
    return TurnSolution(rules, state, value, program)


def reach_table(rules: Rules, state: GameState, totals: range = range(21, 37)) -> dict[int, float]:
    """P(the turn stops with a worm and at least t points) for each t in ``totals``.

    Each probability is under the policy best for that target.

    Examples:
        >>> from pickomino_rules import new_game
        >>> rules, state = new_game("classic")
        >>> table = reach_table(rules, state, range(21, 24))
        >>> {t: round(p, 3) for t, p in table.items()}
        {21: 0.893, 22: 0.856, 23: 0.808}
    """
    return {t: solve_turn(rules, state, reach_total(t)).value for t in totals}
