"""Exact turn solver: the optimal policy for the rest of a turn, by expectimax.

Within a turn the future depends only on the faces already set aside (a 6-bit
mask), the dice still in hand (per kind of die), the total so far, and whether a
re-roll may still be used (the extended game's weasel; the solver models one per
turn). The solver runs expectimax over the exact chance outcomes
of [`chance_table`][pickomino_rules.dice.chance_table], vectorised with numpy over
the total. The value of ending the turn comes from the actual table: for each total
it applies the real stop actions (exact grill tile, optional steals, next lower
tile) and the real bust through the rules' own hooks, so every variant's claims,
returned tiles, turned tiles, the can, the hen and the golden die count exactly as
in play.

What a turn is worth is a pluggable [`TurnValue`][pickomino_rules.solver.TurnValue]:
[`worms_gained`][pickomino_rules.solver.worms_gained] (the default),
[`points`][pickomino_rules.solver.points],
[`reach_total`][pickomino_rules.solver.reach_total] and
[`takes_tile`][pickomino_rules.solver.takes_tile].

Probabilities of the chance model are exact fractions; the solver computes in
float64 (values and probabilities of outcomes are floats, exact to about 1e-15),
which keeps a whole-turn solve in milliseconds.

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
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from pickomino_rules.actions import Action, Roll, Steal, Stop
from pickomino_rules.base import roll_actions as base_roll_actions
from pickomino_rules.dice import FACES, DieKind, RollOutcome, chance_table
from pickomino_rules.errors import PickominoError
from pickomino_rules.game import Move, apply, legal_actions, resolve_bust, stop_claims
from pickomino_rules.result import scores
from pickomino_rules.state import GameState, Phase

if TYPE_CHECKING:
    import random

    from numpy.typing import NDArray

    from pickomino_rules.rules import Rules

__all__ = [
    "NotSolvableError",
    "OptimalBot",
    "TurnSolution",
    "TurnValue",
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

FULL_MASK = 0b111111
NEG = -np.inf


class NotSolvableError(PickominoError, ValueError):
    """The state is not in the dice part of a turn (game over, or a pending decision)."""


def worms_gained(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:  # noqa: ARG001
    """Worms the player to move gains (negative when he loses some): the default."""
    return float(scores(rules, end)[start.player] - scores(rules, start)[start.player])


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


@attrs.frozen(eq=False)
class _Node:
    """One decision point of a turn's dice: faces used, dice in hand, re-roll ready."""

    mask: int
    dice: tuple[int, ...]
    reroll: bool
    can_roll: bool
    probabilities: NDArray[np.float64] | None = None
    """Chance of each distinct roll of ``dice``."""
    row_node: NDArray[np.intp] | None = None
    """For each option row (row 0: no option), the node reached by setting dice aside."""
    row_shift: NDArray[np.intp] | None = None
    """For each option row, the points those dice add."""
    choices: NDArray[np.intp] | None = None
    """Per distinct roll (dice on used faces lumped) and unused face, the option row
    (0 when that face is not shown)."""
    plain: int = -1
    """With a re-roll ready: the same node without it (its roll is the re-roll)."""
    low: int = 0
    """Fewest points the dice set aside since the root can add up to at this node."""
    high: int = 0
    """Most points they can add up to (the node's totals lie in between)."""


@attrs.frozen(eq=False)
class _Program:
    """Every node reachable from one start, children first (board-independent)."""

    nodes: tuple[_Node, ...]
    index: dict[tuple[int, tuple[int, ...], bool], int]


Key = tuple[int, tuple[int, ...], bool]
"""A node: faces used (bit mask), dice in hand per kind, re-roll ready."""


def _children(kinds: tuple[DieKind, ...], key: Key) -> set[Key]:
    mask, dice, reroll = key
    found: set[Key] = {(mask, dice, False)} if reroll else set()
    if any(dice) and mask != FULL_MASK:
        for outcome in chance_table(kinds, dice).outcomes:
            for face in range(6):
                take = outcome.by_face[face]
                if any(take) and not mask & (1 << face):
                    left = tuple(n - t for n, t in zip(dice, take, strict=True))
                    found.add((mask | (1 << face), left, reroll))
    return found


def _rolling_node(kinds: tuple[DieKind, ...], key: Key, index: dict[Key, int]) -> _Node:
    """A node that can roll: its distinct rolls and, per roll and face, the option taken."""
    mask, dice, reroll = key
    table = chance_table(kinds, dice)
    unused = [face for face in range(6) if not mask & (1 << face)]
    # Dice showing used faces are dead: lump them, so rolls differing only there merge.
    merged: dict[tuple[tuple[int, ...], ...], int] = {}
    for outcome, weight in zip(table.outcomes, table.weights, strict=True):
        seen = tuple(outcome.by_face[face] for face in unused)
        merged[seen] = merged.get(seen, 0) + weight
    rows: dict[tuple[int, int], int] = {(0, 0): 0}
    choices = np.zeros((len(merged), len(unused)), dtype=np.intp)
    for position, seen in enumerate(merged):
        for column, (face, take) in enumerate(zip(unused, seen, strict=True)):
            if any(take):
                left = tuple(n - t for n, t in zip(dice, take, strict=True))
                target = (index[mask | (1 << face), left, reroll], FACES[face].points * sum(take))
                choices[position, column] = rows.setdefault(target, len(rows))
    ordered = sorted(rows, key=rows.__getitem__)
    return _Node(
        mask,
        dice,
        reroll,
        can_roll=True,
        probabilities=np.array(list(merged.values()), dtype=np.float64) / table.total,
        row_node=np.array([target for target, _ in ordered], dtype=np.intp),
        row_shift=np.array([shift for _, shift in ordered], dtype=np.intp),
        choices=choices,
        plain=index[mask, dice, False] if reroll else -1,
    )


def _point_ranges(nodes: list[_Node]) -> list[tuple[int, int]]:
    """For each node, the fewest and most points set aside since the root (the last)."""
    ranges: dict[int, tuple[int, int]] = {len(nodes) - 1: (0, 0)}
    for position in range(len(nodes) - 1, 0, -1):
        node = nodes[position]
        low, high = ranges[position]
        targets = []
        if node.reroll:
            targets.append((node.plain, 0))
        if node.row_node is not None and node.row_shift is not None:
            targets.extend(
                zip(node.row_node[1:].tolist(), node.row_shift[1:].tolist(), strict=True)
            )
        for child, shift in targets:
            old = ranges.get(child, (low + shift, high + shift))
            ranges[child] = (min(old[0], low + shift), max(old[1], high + shift))
    return [ranges.get(position, (0, 0)) for position in range(len(nodes))]


@cache
def _program(
    kinds: tuple[DieKind, ...], mask: int, dice: tuple[int, ...], reroll: bool
) -> _Program:
    """Precompute the structure of a turn from one node: done once per start."""
    keys: set[Key] = set()
    stack: list[Key] = [(mask, dice, reroll)]
    while stack:
        key = stack.pop()
        if key not in keys:
            keys.add(key)
            stack.extend(_children(kinds, key))
    # Children first: they hold fewer dice, and the re-roll's plain twin comes first.
    order = sorted(keys, key=lambda key: (sum(key[1]), key[2], key[0], key[1]))
    index = {key: position + 1 for position, key in enumerate(order)}  # row 0: "no option"
    nodes = [_Node(0, (), reroll=False, can_roll=False)]
    for key in order:
        if any(key[1]) and key[0] != FULL_MASK:
            nodes.append(_rolling_node(kinds, key, index))
        else:
            nodes.append(_Node(key[0], key[1], key[2], can_roll=False))
    ranges = _point_ranges(nodes)
    placed = tuple(
        attrs.evolve(node, low=low, high=high)
        for node, (low, high) in zip(nodes, ranges, strict=True)
    )
    return _Program(placed, index)


def _mask(kept: tuple[int, ...]) -> int:
    return sum(1 << i for i, n in enumerate(kept) if n)


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
    _width: int
    _bust_value: float
    _decide: NDArray[np.float64] = attrs.field(init=False)
    _roll: NDArray[np.float64] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._expectimax()

    def _stop_vector(self, worm: bool) -> NDArray[np.float64]:
        """Value of stopping at each total, with or without a worm set aside."""
        vector = np.full(self._width, NEG)
        ends: dict[tuple[Move, tuple[Any, ...]], GameState] = {}
        for total in range(5 * worm, self._width):
            kept = (total - 5 * worm, 0, 0, 0, 0, int(worm))
            stopped = self.state.replace(phase=Phase.DECIDE, roll=None, kept=kept)
            claimed = self.rules.stop_total(self.rules, stopped)
            claims = stop_claims(self.rules, stopped)
            options: list[Move] = [Stop()] if not claims else []
            options += [Stop() if c.victim is None else Steal(c.victim) for c in claims]
            best = NEG
            for action in options:
                end = ends.get((action, claims))
                if end is None:
                    end = ends[action, claims] = apply(self.rules, stopped, action)
                best = max(best, self.value_fn(self.rules, self.state, end, claimed))
            vector[total] = best
        return vector

    def _expectimax(self) -> None:
        """Fill the value of every node, children first, vectorised over the total."""
        nodes = self._program.nodes
        width = self._width
        start = self.state.total
        stride = 2 * width
        stops = (self._stop_vector(worm=False), self._stop_vector(worm=True))
        decide = np.full((len(nodes), stride), NEG)
        roll = np.full((len(nodes), stride), NEG)
        flat = decide.ravel()
        bust = self._bust_value
        for position in range(1, len(nodes)):
            node = nodes[position]
            columns = slice(start + node.low, start + node.high + 1)
            stop = stops[bool(node.mask & 0b100000)][columns]
            if not node.can_roll:
                decide[position, columns] = stop
                continue
            assert node.row_node is not None  # noqa: S101 (rolling nodes have options)
            assert node.row_shift is not None  # noqa: S101
            assert node.choices is not None  # noqa: S101
            assert node.probabilities is not None  # noqa: S101
            offsets = (node.row_node * stride + node.row_shift)[node.choices]
            totals = np.arange(start + node.low, start + node.high + 1)
            best = flat[offsets[:, :, None] + totals].max(axis=1)
            if node.reroll:  # a bad roll may be sent back once (E10)
                np.maximum(best, np.maximum(roll[node.plain, columns], bust), out=best)
            else:
                np.maximum(best, bust, out=best)
            roll[position, columns] = node.probabilities @ best
            decide[position, columns] = np.maximum(stop, roll[position, columns])
        self._decide = decide
        self._roll = roll

    # -- queries -------------------------------------------------------------------------

    @property
    def value(self) -> float:
        """Expected value of the rest of the turn under optimal play."""
        return self.value_of(self.state)

    def _node(self, state: GameState) -> int:
        reroll = _reroll_ready(self.rules, state)
        try:
            return self._program.index[_mask(state.kept), state.in_hand, reroll]
        except KeyError:
            msg = "that state is not reachable from the solved one"
            raise NotSolvableError(msg) from None

    def value_of(self, state: GameState) -> float:
        """Optimal value of a state of the same turn, reached from the solved one."""
        if state.player != self.state.player or state.phase in (Phase.GAME_OVER, Phase.TURN_OVER):
            msg = "the turn is over in that state"
            raise NotSolvableError(msg)
        if state.phase is Phase.ROLL:
            return float(self._roll[self._node(state), state.total])
        if state.phase is Phase.DECIDE:
            return float(self._decide[self._node(state), state.total])
        actions = legal_actions(self.rules, state)
        return max(
            (self.action_value(state, action) for action in actions), default=self._bust_value
        )

    def action_value(self, state: GameState, action: Move) -> float:
        """Optimal value after ``action`` in ``state`` (a state of the solved turn)."""
        if isinstance(action, Roll):
            return float(self._roll[self._node(state), state.total])
        after = apply(self.rules, state, action)
        if after.player != state.player or after.phase in (Phase.GAME_OVER, Phase.TURN_OVER):
            claimed = (
                self.rules.stop_total(self.rules, state)
                if isinstance(action, (Stop, Steal))
                else None
            )
            return self.value_fn(self.rules, self.state, after, claimed)
        return self.value_of(after)

    def action_values(self) -> dict[Move, float]:
        """The optimal value of each legal action in the solved state."""
        if self.state.phase is Phase.ROLL:
            msg = "a chance node has no actions; see value and outcome_distribution"
            raise NotSolvableError(msg)
        actions = legal_actions(self.rules, self.state)
        return {action: self.action_value(self.state, action) for action in actions}

    def best_action(self) -> Action:
        """The legal action with the highest value (ties: the first listed).

        Raises:
            NotSolvableError: The solved state is a chance node.
        """
        if self.state.phase is Phase.ROLL:
            msg = "a chance node has no actions"
            raise NotSolvableError(msg)
        best = _best(self, self.state)
        assert isinstance(best, Action)  # noqa: S101 (decision states list actions)
        return best

    def outcome_distribution(self) -> dict[str, float]:
        """Probability of each way the turn can end under the optimal policy.

        Keys describe the end as [`outcome_of`][pickomino_rules.story.outcome_of] does:
        ``"takes 25"``, ``"steals 27 from player 1"``, ``"bust"`` and so on.
        """
        from pickomino_rules.story import outcome_of  # noqa: PLC0415 (story imports game)

        result: dict[str, float] = {}
        frontier: dict[GameState, float] = {self.state: 1.0}
        player = self.state.player
        while frontier:
            following: dict[GameState, float] = {}
            for state, mass in frontier.items():
                if state.player != player or state.phase in (Phase.GAME_OVER, Phase.TURN_OVER):
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


def _best(solution: TurnSolution, state: GameState) -> Move:
    """The best action; among values equal to 1e-9, the first listed (stable ties)."""
    actions = legal_actions(solution.rules, state)
    return max(actions, key=lambda action: round(solution.action_value(state, action), 9))


def _reroll_ready(rules: Rules, state: GameState) -> bool:
    """Whether the rules would let the player to move throw his next roll again.

    Asked of the rules themselves: on an empty probe roll, is an action offered
    whose class says it ``rerolls`` (the extended game's weasel, E10, does)?
    """
    if rules.roll_actions is base_roll_actions:
        return False
    kinds = tuple(kind.name for kind in rules.die_kinds)
    probe = state.replace(
        phase=Phase.CHOOSE, roll=RollOutcome(kinds, tuple((0,) * 6 for _ in kinds))
    )
    return any(action.rerolls for action in rules.roll_actions(rules, probe))


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
    if state.phase not in (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE):
        msg = f"no dice decision to solve in phase {state.phase.value!r}"
        raise NotSolvableError(msg)
    if rules.pending_actions is not None and rules.pending_actions(rules, state):
        msg = "a variant's decision is pending; it is not part of the dice"
        raise NotSolvableError(msg)
    program = _program(
        rules.die_kinds, _mask(state.kept), state.in_hand, _reroll_ready(rules, state)
    )
    width = 5 * (sum(state.in_hand) + sum(state.kept)) + 6
    bust = value(
        rules, state, resolve_bust(rules, state.replace(phase=Phase.DECIDE, roll=None)), None
    )
    return TurnSolution(rules, state, value, program, width, bust)


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


class OptimalBot:
    """A bot that plays each turn optimally for a turn value (worms gained by default).

    It solves a turn once, at its first decision, and reuses the solution for the
    rest of the turn. Decisions outside the dice (a variant's pending choice) go to
    the greedy bot.

    Args:
        value: The turn value to maximise.
    """

    def __init__(self, value: TurnValue = worms_gained) -> None:
        self.value = value
        self._solution: TurnSolution | None = None

    def __call__(self, rules: Rules, state: GameState, rng: random.Random) -> Action:
        """Choose the action with the best value for the rest of the turn."""
        if state.phase not in (Phase.CHOOSE, Phase.DECIDE) or (
            rules.pending_actions is not None and rules.pending_actions(rules, state)
        ):
            from pickomino_rules.bots import greedy_bot  # noqa: PLC0415 (bots import this lazily)

            return greedy_bot(rules, state, rng)
        solution = self._solution
        if solution is None or not _same_turn(solution, rules, state):
            solution = self._solution = solve_turn(rules, state, self.value)
        best = _best(solution, state)
        assert isinstance(best, Action)  # noqa: S101 (decision states list actions)
        return best


def _same_turn(solution: TurnSolution, rules: Rules, state: GameState) -> bool:
    """Whether ``solution`` covers ``state``: same rules, board and player, dice reachable."""
    root = solution.state
    return (
        solution.rules is rules
        and root.player == state.player
        and root.grill == state.grill
        and root.stacks == state.stacks
        and root.out == state.out
        and root.parts == state.parts
        and (_mask(state.kept), state.in_hand, _reroll_ready(rules, state))
        in solution._program.index  # noqa: SLF001
        and all(k >= r for k, r in zip(state.kept, root.kept, strict=True))
    )
