"""The solved rest of a turn: expectimax over the node graph, values, best actions, outcomes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from pickomino_rules.actions import Action, Roll, Steal, Stop
from pickomino_rules.dice import FACES
from pickomino_rules.errors import MissingExtraError, PickominoError
from pickomino_rules.game import (
    Move,
    apply,
    legal_actions,
    resolve_bust,
    stop_claims,
    stop_outcomes,
)
from pickomino_rules.solver._nodes import (
    BASE,
    Anchor,
    Batch,
    Board,
    Key,
    Part,
    Program,
    board_of,
    build_program,
    has_pending,
    part_of,
    probes,
    reroll_ready,
    roll_at,
    turn_over,
)
from pickomino_rules.solver._objectives import (
    TurnValue,
    ignores_total,
    reach_total,
    worms_gained,
)
from pickomino_rules.state import Claim, GameState, Phase, new_state
from pickomino_rules.story import outcome_of
from pickomino_rules.validation import check_shape, validate

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the turn solver", "solver") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from pickomino_rules.rules import Rules


NEG = -np.inf
_TURN = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE)


class NoTurnDecisionError(PickominoError, ValueError):
    """The state offers no decision of the turn solved: it is not in the dice part of a turn.

    The game is over, the turn has passed on, a decision of a variant is pending, the state
    is not reachable from the solved one, or a chance node was asked for actions. Beside
    [`UnsolvableRulesError`][pickomino_rules.solver.UnsolvableRulesError] (rules the solver
    cannot value) the old name, ``NotSolvableError``, read as its twin.
    """

    __module__ = "pickomino_rules.solver"  # where users import it from (tracebacks, reprs)


NotSolvableError = NoTurnDecisionError
"""Deprecated alias of [`NoTurnDecisionError`][pickomino_rules.solver.NoTurnDecisionError]."""


@attrs.frozen(eq=False)
class _Values:
    """Optimal values of the nodes of one board (NEG outside ``mask``)."""

    anchor: Anchor
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
    shifts: tuple[_Shift, ...] = ()
    """Boards whose values are the changed board's own plus a constant."""

    def worth(
        self,
        changed: NDArray[np.intp],
        kept: NDArray[np.float64],
        decide: NDArray[np.float64],
    ) -> NDArray[np.float64]:
        """The best of the boards the nodes ``changed`` lead to (and of ``kept``, if it stays).

        ``decide``: the changed board's own values, where ``shifts`` read them. ``kept`` is
        written over.
        """
        worth = kept if self.stays else np.full(len(changed), NEG)
        for other in self.boards:
            np.maximum(worth, other.decide[changed], out=worth)
        for shift in self.shifts:
            np.maximum(worth, decide[changed] + shift.delta, out=worth)
        return worth


@attrs.frozen(eq=False)
class _Ends:
    """A board's ends through the rules: each node's best stop and a bust's value."""

    stop: NDArray[np.float64]
    bust: NDArray[np.float64]
    by_class: tuple[NDArray[np.float64], float] | None = None
    """Under ``ends_on_total``: the best stop per class of stops and the one value of a bust
    (NaN where no node busts), of which ``stop`` and ``bust`` are made."""


@attrs.frozen(eq=False)
class _Shift:
    """A board led to whose every end is worth its parent's plus ``delta``.

    Then so is every node (a max and an expectation move with a constant), and its values
    are read off the parent's own pass instead of a pass of their own: a grilled worm won
    mid-turn (E4) adds the same worm to every end of the turn.
    """

    board: GameState
    anchor: Anchor
    delta: float


class UnsolvableRulesError(PickominoError, ValueError):
    """The rules do something mid-turn the solver cannot value exactly.

    Raised instead of an approximate value: a module acting while dice are rolled makes no
    ``mid_turn_by_count`` promise, or its hooks break it.
    """

    __module__ = "pickomino_rules.solver"  # where users import it from (tracebacks, reprs)


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
    _program: Program
    _boards: dict[Board, list[_Values]] = attrs.field(init=False, factory=dict)
    """The values solved so far, by board: a grilled worm won mid-turn changes the board."""
    _ends: dict[tuple[GameState, int | None], float] = attrs.field(init=False, factory=dict)
    """Values of the turn's ends seen so far: many stops end on the same table."""
    _choices: set[Board] = attrs.field(init=False, factory=set)
    """The boards of the decisions pending in the turn that the solve has met."""

    def __attrs_post_init__(self) -> None:
        if has_pending(self.rules, self.state):  # a pending choice is valued when asked
            self._choices.add(board_of(self.state))
        else:
            self._values_at(self.state)

    # -- the values of one board -----------------------------------------------------------

    def _values_at(self, state: GameState) -> tuple[_Values, int]:
        """The values of ``state``'s board that cover its node (solved when first asked)."""
        node = self._node(state)
        for values in self._boards.get(board_of(state), ()):
            if values.mask[node]:
                return values, node
        counts, _, ready = self._program.keys[node]
        return self._values(state, Anchor(counts, ready)), node

    def _solved(self, board: GameState, anchor: Anchor) -> _Values | None:
        for values in self._boards.get(board_of(board), ()):
            if values.anchor == anchor:
                return values
        return None

    def _keep(self, board: GameState, values: _Values) -> _Values:
        self._boards.setdefault(board_of(board), []).append(values)
        return values

    def _values(self, board: GameState, anchor: Anchor) -> _Values:
        values = self._solved(board, anchor)
        if values is None:
            part = part_of(self._program, anchor)
            ends = self._end_values(board, part)
            values = self._expectimax(board, anchor, part, ends, self._changes(board, anchor, ends))
            self._keep(board, values)
        return values

    def _led(self, board: GameState, anchor: Anchor, parent: _Ends | None) -> _Values | _Shift:
        """The values of a board a set-aside leads to, or how they shift its parent's.

        ``parent``: the ends of the board changed, when its own pass holds this board's
        values up to a constant (no change of its own and no re-roll below ``anchor``).
        """
        values = self._solved(board, anchor)
        if values is not None:
            return values
        part = part_of(self._program, anchor)
        ends = self._end_values(board, part)
        changes = self._changes(board, anchor, ends)
        if parent is not None and not changes:
            delta = _offset(parent, ends, part)
            if delta is not None:
                return _Shift(board, anchor, delta)
        return self._keep(board, self._expectimax(board, anchor, part, ends, changes))

    def _node_state(self, board: GameState, key: Key) -> GameState:
        counts, dice, _ = key
        return new_state(
            board.grill, board.face_down, board.stacks, board.player, Phase.DECIDE,
            dice, None, counts, board.parts, board.layout,
        )  # fmt: skip

    def _end_value(self, end: GameState, total: int | None) -> float:
        """What ``end`` is worth.

        A decision still pending (which specialist to keep, whom to rob) is the player's
        own, and he takes its best option.
        """
        value = self._ends.get((end, total))
        if value is None:
            if turn_over(self.state, end):
                value = self.value_fn(self.rules, self.state, end, total)
            else:
                self._choices.add(board_of(end))
                value = max(
                    self._end_value(apply(self.rules, end, action), total)
                    for action in legal_actions(self.rules, end)
                )
            self._ends[end, total] = value
        return value

    def _closing_value(self, end: GameState, total: int | None) -> float:
        """``_end_value``, asked of the objective directly where the turn is over.

        (The caller keeps these by total: hashing an end state costs more than its value.)
        """
        if turn_over(self.state, end):
            return self.value_fn(self.rules, self.state, end, total)
        return self._end_value(end, total)

    def _stop_value(self, state: GameState) -> float:
        """The best way to end the turn now, through the rules' own stops."""
        total = self.rules.stop_total(self.rules, state)
        return max(self._end_value(end, total) for _, end in stop_outcomes(self.rules, state))

    def _end_values(self, board: GameState, part: Part) -> _Ends:
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
            return _Ends(stop, bust)
        by_total: dict[int | None, float] = {}
        # Under the same promise the claims hook reads the board and the total, and taking a
        # tile reads no dice: totals that open the same claims end the turn the same ways
        # (and are worth the same, to an objective that does not read the total).
        by_claims: dict[tuple[Claim, ...], tuple[list[GameState], float | None]] = {}
        blind = ignores_total(self.value_fn)
        worth = np.full(int(program.stop_class.max()) + 2, NEG)  # the last: no stop
        for number, node in zip(part.classes.tolist(), part.firsts.tolist(), strict=True):
            state = self._node_state(board, keys[node])
            total = rules.stop_total(rules, state)
            value = by_total.get(total)
            if value is None:
                claims = stop_claims(rules, state)
                seen = by_claims.get(claims)
                if seen is None:
                    ends = [end for _, end in stop_outcomes(rules, state)]
                    value = max(self._closing_value(end, total) for end in ends)
                    by_claims[claims] = ends, value if blind else None
                elif seen[1] is not None:
                    value = seen[1]
                else:
                    value = max(self._closing_value(end, total) for end in seen[0])
                by_total[total] = value
            worth[number] = value
        stop[part.mask] = worth[program.stop_class[part.mask]]
        busted = np.nan
        if part.rolling.size:
            state = self._node_state(board, keys[part.rolling[0]])
            busted = bust[part.rolling] = self._end_value(resolve_bust(rules, state), None)
        return _Ends(stop, bust, (worth, busted))

    # -- what happens between the dice -----------------------------------------------------

    def _settled(self, state: GameState) -> list[GameState]:
        """The states a pending decision mid-turn can lead to (``state`` when none is)."""
        if not has_pending(self.rules, state):
            return [state]
        self._choices.add(board_of(state))
        return [
            after
            for action in legal_actions(self.rules, state)
            for after in self._settled(apply(self.rules, state, action))
        ]

    def _changes(self, board: GameState, anchor: Anchor, ends: _Ends) -> dict[int, list[_Change]]:
        """Per face: how setting it aside changes ``board``, where it does.

        Asked of the rules once per face and count (``mid_turn_by_count``: only they matter),
        by setting the dice aside on a real roll of the turn, for the faces a module acts on
        where they say (``set_aside_faces``). ``ends`` are the board's own.
        """
        rules = self.rules
        acting = rules.set_aside_faces
        if acting is not None and not acting:
            return {}
        if rules.chains["set_aside"] == ("turn",) and rules.pending_actions is None:
            return {}
        found: dict[tuple[int, bool, tuple[Board, ...]], list[int]] = {}
        leads: dict[Board, GameState] = {}
        same = board_of(board)
        for probe in probes(rules.die_kinds, self._program, anchor):
            if acting is not None and FACES[probe.face] not in acting:
                continue  # setting it aside only moves the dice: the board stays
            shown = new_state(
                board.grill, board.face_down, board.stacks, board.player, Phase.CHOOSE,
                probe.in_hand, probe.roll, probe.set_aside, board.parts, board.layout,
            )  # fmt: skip
            face, count = probe.face, probe.count
            stays, others = False, []
            for after in self._settled(rules.set_aside(rules, shown, FACES[face])):
                if after.phase is not Phase.DECIDE or after.set_aside != probe.child:
                    msg = "setting dice aside did more than set them aside (mid_turn_by_count)"
                    raise UnsolvableRulesError(msg)
                if board_of(after) == same:
                    stays = True
                else:
                    leads.setdefault(board_of(after), after)
                    others.append(board_of(after))
            if others:
                found.setdefault((face, stays, tuple(others)), []).append(count)
        changes: dict[int, list[_Change]] = {}
        changing = {face for face, _, _ in found}
        for (face, stays, targets), counts in found.items():
            least = (*anchor.least[:face], min(counts), *anchor.least[face + 1 :])
            below = Anchor(least, anchor.ready)
            # this board's pass holds the values below where no change of its own and no
            # re-roll acts there (a face set aside stays so for the rest of the turn)
            plain = not anchor.ready and all(least[other] for other in changing)
            led = [
                self._led(leads[t], below, ends if plain else None) for t in dict.fromkeys(targets)
            ]
            table = np.zeros(BASE, dtype=np.bool_)
            table[counts] = True
            solved = tuple(values for values in led if isinstance(values, _Values))
            shifts = tuple(shift for shift in led if isinstance(shift, _Shift))
            changes.setdefault(face, []).append(_Change(table, stays, solved, shifts))
        return changes

    def _rerolled(self, board: GameState, anchor: Anchor, part: Part) -> _Values:
        """The values after the re-roll (E10) is used: on the board the rules leave."""
        program = self._program
        node = int(part.rolling[0])
        counts, dice, _ = program.keys[node]
        roll = roll_at(self.rules, dice, 0)
        probe = board.replace(phase=Phase.CHOOSE, roll=roll, set_aside=counts, in_hand=dice)
        again = [a for a in legal_actions(self.rules, probe) if isinstance(a, Action) and a.rerolls]
        after = apply(self.rules, probe, again[0])
        if after.phase is not Phase.ROLL or reroll_ready(self.rules, after):
            msg = "a re-roll that can be used more than once a turn cannot be valued"
            raise UnsolvableRulesError(msg)
        return self._values(after, Anchor(anchor.least, ready=False))

    def _expectimax(
        self,
        board: GameState,
        anchor: Anchor,
        part: Part,
        ends: _Ends,
        changes: dict[int, list[_Change]],
    ) -> _Values:
        """Value the nodes of ``part`` on ``board``, children first.

        Stops and busts are applied through the rules (``ends``); a set-aside that changes
        the board reads the values of the board it leads to (solved first, or shifted from
        this board's own values at nodes with fewer dice, valued earlier in this pass).
        """
        program = self._program
        mask = part.mask
        stop, bust = ends.stop, ends.bust
        # a re-roll matters only where dice may still be rolled
        again = self._rerolled(board, anchor, part) if anchor.ready and part.rolling.size else None
        decide = stop.copy()
        roll = np.full(len(program.keys), NEG)
        for number, batch in enumerate(part.batches):
            nodes = batch.nodes
            best = _best_faces(number, batch, part, changes, decide, program)
            busts = best == NEG
            if batch.plain is None or again is None:
                np.copyto(best, bust[nodes][:, None], where=busts)
            else:  # a roll may be thrown again once (E10), a busting one too
                thrown = again.roll[batch.plain][:, None]
                fallback = np.maximum(thrown, bust[nodes][:, None])
                best = np.where(
                    busts, np.broadcast_to(fallback, best.shape), np.maximum(best, thrown)
                )
            roll[nodes] = best @ batch.probabilities
            decide[nodes] = np.maximum(decide[nodes], roll[nodes])
        decide[~mask] = NEG
        for change in (change for found in changes.values() for change in found):
            for shift in change.shifts:  # their values, now that this pass holds them
                self._keep_shifted(shift, decide, roll)
        return _Values(anchor, mask, decide, roll)

    def _keep_shifted(
        self, shift: _Shift, decide: NDArray[np.float64], roll: NDArray[np.float64]
    ) -> None:
        if self._solved(shift.board, shift.anchor) is None:
            below = part_of(self._program, shift.anchor).mask
            shifted = _Values(
                shift.anchor,
                below,
                np.where(below, decide + shift.delta, NEG),
                np.where(below, roll + shift.delta, NEG),
            )
            self._keep(shift.board, shifted)

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
        if state.player != self.state.player or turn_over(self.state, state):
            return False
        if has_pending(self.rules, state):
            return board_of(state) in self._choices
        return (
            state.phase in _TURN
            and board_of(state) in self._boards
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
        if turn_over(self.state, state):
            msg = "the turn is over in that state"
            raise NoTurnDecisionError(msg)
        if state.phase is Phase.ROLL:
            values, node = self._values_at(state)
            return float(values.roll[node])
        if state.phase is Phase.DECIDE and not has_pending(self.rules, state):
            values, node = self._values_at(state)
            return float(values.decide[node])
        return max(self.action_value(state, action) for action in legal_actions(self.rules, state))

    def action_value(self, state: GameState, action: Move) -> float:
        """Optimal value after ``action`` in ``state`` (a state of the solved turn)."""
        if isinstance(action, Roll):
            values, node = self._values_at(state)
            return float(values.roll[node])
        after = apply(self.rules, state, action)
        if after.phase in _TURN and not turn_over(self.state, after):
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
                if turn_over(self.state, state):
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


def _best_faces(  # noqa: PLR0913, PLR0917 (the pass's state, handed to its inner loop)
    number: int,
    batch: Batch,
    part: Part,
    changes: dict[int, list[_Change]],
    decide: NDArray[np.float64],
    program: Program,
) -> NDArray[np.float64]:
    """Per node and roll of batch ``number``: the best face to set aside (NEG: a bust)."""
    best = None
    for face, reached in zip(batch.faces, batch.choices, strict=True):
        values = decide.take(reached)  # (faster than decide[reached]; a fresh array)
        for change in changes.get(face, ()):
            hit, changed = part.hits(number, face, change.counts, program)
            if changed.size:
                flat = values.reshape(-1)  # a view: take's answer is contiguous
                flat[hit] = change.worth(changed, flat.take(hit), decide)
        if best is None:
            best = values
        else:
            np.maximum(best, values, out=best)
    if best is None:  # no roll offers a face
        best = np.full((len(batch.nodes), len(batch.probabilities)), NEG)
    return best


def _offset(parent: _Ends, ends: _Ends, part: Part) -> float | None:
    """The constant ``ends`` add to each of ``parent``'s ends in ``part``, if there is one.

    Compared exactly: a turn value of whole worms shifts by a whole worm or not at all.
    """
    if ends.by_class is not None and parent.by_class is not None:  # fewer to compare
        (worth, busted), (under, busted_under) = ends.by_class, parent.by_class
        stops = worth[part.classes] - under[part.classes]
        busts = np.array([busted - busted_under] if part.rolling.size else [])
    else:
        stops = ends.stop[part.mask] - parent.stop[part.mask]
        busts = ends.bust[part.rolling] - parent.bust[part.rolling]
    offsets = np.concatenate([stops, busts])
    if not offsets.size or not np.isfinite(offsets).all():
        return None  # (no end, or one that is no number: never shifted)
    delta = float(offsets[0])
    return delta if (offsets == delta).all() else None


def _key(rules: Rules, state: GameState) -> Key:
    return state.set_aside, state.in_hand, reroll_ready(rules, state)


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
        InvalidStateError: The state breaks the rules (checked first, so that no input
            makes a solve larger than a legal turn's: dice, faces and totals in range).
        NoTurnDecisionError: The game is over or the turn has passed on.
        UnsolvableRulesError: A module acts mid-turn without the ``mid_turn_by_count``
            promise, so its effects could not be valued exactly.
    """
    check_shape(rules, state)  # cheap: the fields are what the checks below read
    if state.phase not in _TURN and not (
        state.phase is not Phase.GAME_OVER and has_pending(rules, state)
    ):
        msg = f"no decision of a turn to solve in phase {state.phase.value!r}"
        raise NoTurnDecisionError(msg)
    check_exact(rules)
    validate(rules, state)  # no input makes the work larger than a legal turn's
    program = build_program(rules.die_kinds, _key(rules, state))
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
