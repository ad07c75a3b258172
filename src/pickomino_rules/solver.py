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

Mid-turn effects that a variant applies while dice are set aside (grilled-worm
tokens for two 1s) are not part of a turn's value; everything that happens when the
turn ends is.

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

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.actions import Action, Roll, Steal, Stop
from pickomino_rules.dice import DieKind, RollOutcome, roll_counts
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
except ImportError:  # an extra; tests/test_extras.py runs without it
    raise MissingExtraError("the turn solver", "solver") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from pickomino_rules.rules import Rules

__all__ = [
    "NotSolvableError",
    "TurnSolution",
    "TurnValue",
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


class NotSolvableError(PickominoError, ValueError):
    """The state is not in the dice part of a turn (game over, or a pending decision)."""


def worms_gained(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:  # noqa: ARG001
    """Worms the player to move gains (negative when he loses some): the default."""
    return float(scores(rules, end)[start.player] - scores(rules, start)[start.player])


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

    return float(margin(end) - margin(start))


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
    choices: tuple[NDArray[np.intp], ...]
    """For each face that some roll lets a node set aside: per node and roll, the node
    reached by setting it aside (0: none)."""
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
    class_nodes: NDArray[np.intp]
    """One node of each class of stops."""


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
    sorted_codes = _codes(nodes[1:])
    lookup = np.argsort(sorted_codes)
    batches = []
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
        used = tuple(choices[f] for f in range(6) if choices[f].any())
        batches.append(_Batch(members.astype(np.intp), probabilities, used, plain))
    counts = nodes[:, :6]
    stops = counts.sum(axis=1) > 0
    kinds_of_stop = counts @ np.array([2, 4, 6, 8, 10, 10]) + (counts[:, 5] > 0)
    classes, first, stop_class = np.unique(
        np.where(stops, kinds_of_stop, -1), return_index=True, return_inverse=True
    )
    if classes[0] == -1:  # nodes with nothing set aside: no stop
        stop_class, first = stop_class - 1, first[1:]
    return _Program(
        keys,
        index,
        tuple(batches),
        _rollable(nodes),
        stop_class.astype(np.intp),
        first.astype(np.intp),
    )


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
    return state.player != start.player or state.phase not in _TURN


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
    _decide: NDArray[np.float64] = attrs.field(init=False)
    _roll: NDArray[np.float64] = attrs.field(init=False)
    _ends: dict[tuple[GameState, int | None], float] = attrs.field(init=False, factory=dict)
    """Values of the turn's ends seen so far: many stops end on the same table."""

    def __attrs_post_init__(self) -> None:
        self._expectimax()

    def _end_value(self, end: GameState, total: int | None) -> float:
        value = self._ends.get((end, total))
        if value is None:
            value = self._ends[end, total] = self.value_fn(self.rules, self.state, end, total)
        return value

    def _node_state(self, key: Key) -> GameState:
        counts, dice, _ = key
        return self.state.replace(phase=Phase.DECIDE, roll=None, set_aside=counts, in_hand=dice)

    def _stop_value(self, state: GameState) -> float:
        """The best way to end the turn now, through the rules' own stops."""
        total = self.rules.stop_total(self.rules, state)
        return max(self._end_value(end, total) for _, end in stop_outcomes(self.rules, state))

    def _end_values(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Each node's best stop and the value of a bust, through the rules.

        When every module promises that only ``stop_total`` looks at the dice when a turn
        ends (``Rules.ends_on_total``), the stop total is asked once per class of nodes
        (points set aside, a worm or not), a stop is applied once per total, and a bust
        is valued once; otherwise every node is applied.
        """
        program = self._program
        if not self.rules.ends_on_total:
            return self._ends_per_node()
        rules = self.rules
        by_total: dict[int | None, float] = {}
        stops = np.full(len(program.class_nodes) + 1, NEG)  # the last: no stop
        for number, node in enumerate(program.class_nodes.tolist()):
            state = self._node_state(program.keys[node])
            total = rules.stop_total(rules, state)
            value = by_total.get(total)
            if value is None:
                value = by_total[total] = max(
                    self._end_value(end, total) for _, end in stop_outcomes(rules, state)
                )
            stops[number] = value
        stop = stops[program.stop_class]
        bust = np.full(len(program.keys), NEG)
        rolling = np.flatnonzero(program.rolling)
        if rolling.size:
            state = self._node_state(program.keys[rolling[0]])
            bust[rolling] = self._end_value(resolve_bust(rules, state), None)
        return stop, bust

    def _ends_per_node(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        keys = self._program.keys
        index = self._program.index
        stop = np.full(len(keys), NEG)
        bust = np.full(len(keys), NEG)
        for position, key in enumerate(keys[1:], start=1):
            if key[2]:  # the same dice as its twin without the re-roll: the same ends
                twin = index[key[0], key[1], False]
                stop[position], bust[position] = stop[twin], bust[twin]
                continue
            state = self._node_state(key)
            if any(key[0]):
                stop[position] = self._stop_value(state)
            if self._program.rolling[position]:
                bust[position] = self._end_value(resolve_bust(self.rules, state), None)
        return stop, bust

    def _expectimax(self) -> None:
        """Value every node, children first; stops and busts are applied through the rules."""
        stop, bust = self._end_values()
        keys = self._program.keys
        decide = stop.copy()
        roll = np.full(len(keys), NEG)
        for batch in self._program.batches:
            # the best face to set aside per node and roll (none: every roll busts)
            best = np.full((len(batch.nodes), len(batch.probabilities)), NEG)
            for choices in batch.choices:
                np.maximum(best, decide[choices], out=best)
            busts = best == NEG
            if batch.plain is None:
                best = np.where(busts, bust[batch.nodes][:, None], best)
            else:  # a roll may be thrown again once (E10), a busting one too
                again = roll[batch.plain][:, None]
                fallback = np.maximum(again, bust[batch.nodes][:, None])
                best = np.where(
                    busts, np.broadcast_to(fallback, best.shape), np.maximum(best, again)
                )
            roll[batch.nodes] = best @ batch.probabilities
            decide[batch.nodes] = np.maximum(decide[batch.nodes], roll[batch.nodes])
        self._decide = decide
        self._roll = roll

    # -- queries -------------------------------------------------------------------------

    @property
    def value(self) -> float:
        """Expected value of the rest of the turn under optimal play."""
        return self.value_of(self.state)

    def covers(self, state: GameState) -> bool:
        """Whether ``state`` is a state of the solved turn (same board, reachable dice)."""
        root = self.state
        return (
            state.player == root.player
            and state.grill == root.grill
            and state.stacks == root.stacks
            and state.face_down == root.face_down
            and state.parts == root.parts
            and state.phase in _TURN
            and _key(self.rules, state) in self._program.index
        )

    def _node(self, state: GameState) -> int:
        try:
            return self._program.index[_key(self.rules, state)]
        except KeyError:
            msg = "that state is not reachable from the solved one"
            raise NotSolvableError(msg) from None

    def value_of(self, state: GameState) -> float:
        """Optimal value of a state of the same turn, reached from the solved one."""
        if _turn_over(self.state, state):
            msg = "the turn is over in that state"
            raise NotSolvableError(msg)
        if state.phase is Phase.ROLL:
            return float(self._roll[self._node(state)])
        if state.phase is Phase.DECIDE:
            return float(self._decide[self._node(state)])
        return max(self.action_value(state, action) for action in legal_actions(self.rules, state))

    def action_value(self, state: GameState, action: Move) -> float:
        """Optimal value after ``action`` in ``state`` (a state of the solved turn)."""
        if isinstance(action, Roll):
            return float(self._roll[self._node(state)])
        after = apply(self.rules, state, action)
        if _turn_over(self.state, after):
            claimed = (
                self.rules.stop_total(self.rules, state)
                if isinstance(action, Stop | Steal)
                else None
            )
            return self._end_value(after, claimed)
        return self.value_of(after)

    def action_values(self) -> dict[Move, float]:
        """The optimal value of each legal action in the solved state."""
        if self.state.phase is Phase.ROLL:
            msg = "a chance node has no actions; see value and outcome_distribution"
            raise NotSolvableError(msg)
        actions = legal_actions(self.rules, self.state)
        return {action: self.action_value(self.state, action) for action in actions}

    def best_action(self, state: GameState | None = None) -> Action:
        """The legal action with the highest value (ties: the first listed).

        Args:
            state: A decision of the solved turn; the solved state by default.

        Raises:
            NotSolvableError: The state is a chance node.
        """
        state = self.state if state is None else state
        if state.phase is Phase.ROLL:
            msg = "a chance node has no actions"
            raise NotSolvableError(msg)
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


def exact_for(rules: Rules) -> bool:
    """Whether the solver's values are exact for ``rules``: rules without parts of their own.

    A variant part may change mid-turn (a grilled worm won for two 1s set aside), and the
    turn's value leaves that out; everything that happens when the turn ends counts.

    Examples:
        >>> from pickomino_rules import get_variant
        >>> exact_for(get_variant("classic").rules()), exact_for(get_variant("extended").rules())
        (True, False)
    """
    return not rules.layout.parts


def solve_turn(rules: Rules, state: GameState, value: TurnValue = worms_gained) -> TurnSolution:
    """Solve the rest of the current player's turn exactly.

    Args:
        rules: The rules.
        state: A state in the dice part of a turn: a roll to come (phase ROLL), a
            roll on the table (CHOOSE) or a decision to roll again or stop (DECIDE).
        value: What the end of the turn is worth (default: worms gained).

    Raises:
        NotSolvableError: The game is over or a variant's decision is pending.
    """
    check_fits(rules, state)
    if state.phase not in _TURN:
        msg = f"no dice decision to solve in phase {state.phase.value!r}"
        raise NotSolvableError(msg)
    if rules.pending_actions is not None and rules.pending_actions(rules, state):
        msg = "a variant's decision is pending; it is not part of the dice"
        raise NotSolvableError(msg)
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
