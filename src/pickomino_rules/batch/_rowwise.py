"""The batch's per-row path: rules with a module that brings no batch twin, a row at a time.

Each row's game is a reference [`GameState`][pickomino_rules.state.GameState], moved by the
reference engine ([`apply`][pickomino_rules.game.apply], on whichever backend is active), so
a module with Python hooks alone plays in the batch. The table keeps each row's core (grill,
stacks, dice, phase, player: `_conversion.write_cores`) so that what reads it (phases,
``arrays``, the vectorised bots) reads it as on the twins' path; the parts live in the states.

The dice come from the batch's generator as the twins' path draws them
(``StepMachine._roll_dice``): per kind of dice, one draw for each row that rolls, the rows in
the order the twins' path rolls them. Every decision played here is counted by module
(`played`, shown by ``pickomino info``), and the first batch of each module warns
([`BatchPerRowWarning`][pickomino_rules.batch.BatchPerRowWarning]): never a silent slow path.
"""

from __future__ import annotations

import warnings
from collections import Counter
from typing import TYPE_CHECKING

from pickomino_rules.actions import STOP, Steal
from pickomino_rules.batch._conversion import write_cores
from pickomino_rules.batch._rules import BatchPerRowWarning
from pickomino_rules.batch._tables import drawn_counts
from pickomino_rules.batch_plugin import PHASE_DECIDE, PHASE_GAME_OVER, PHASE_ROLL
from pickomino_rules.errors import MissingExtraError
from pickomino_rules.game import apply, new_game, stop_claims
from pickomino_rules.result import scores
from pickomino_rules.state import Phase

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable
    from pickomino_rules.dice import RollOutcome
    from pickomino_rules.encoding import Encoding
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

_PLAYED: Counter[str] = Counter()
"""Decisions played per row in this process, by the modules that brought no twin."""
_WARNED: set[str] = set()
_ROLL = Phase.ROLL


def played() -> dict[str, int]:
    """Decisions the batch played per row in this process, by the twin-less modules' names."""
    return dict(_PLAYED)


def reset_played() -> None:
    """Count from zero again, and warn again on the next per-row batch."""
    _PLAYED.clear()
    _WARNED.clear()


class RowGames:
    """The games of a per-row batch as reference states, stepped through the reference engine.

    Args:
        rules: The composed rules.
        untwinned: The names of the modules that bring no twin.
        encoding: The batch's encoding.
        table: The batch's table, whose core it keeps in step with the states.
        rng: The batch's generator.
        moves: The batch's moves per row (written here).
        turns: The batch's turns per row (written here).
        outcome: The rules' own roll showing given counts per kind and face.
        rolled: Called with the rows and their counts at every roll (the batch's ``on_roll``).

    Attributes:
        states: Each row's game.
        pending: Where a row waits on a module's decision (no stop is offered).
        grill_claim: The tile index a stop takes in each row (phase decide), else -1.
        victim: The player a steal robs in each row (phase decide), else -1.
    """

    def __init__(  # noqa: PLR0913 (what the batch shares with its per-row path)
        self,
        rules: Rules,
        untwinned: tuple[str, ...],
        encoding: Encoding,
        table: BatchTable,
        *,
        rng: np.random.Generator,
        moves: NDArray[np.int32],
        turns: NDArray[np.int32],
        outcome: Callable[[tuple[tuple[int, ...], ...]], RollOutcome],
        rolled: Callable[[NDArray[np.int64], NDArray[np.int8]], None],
    ) -> None:
        self.rules, self.encoding, self.table = rules, encoding, table
        self.key = ", ".join(untwinned)
        self.rng, self.moves, self.turns = rng, moves, turns
        self.outcome, self.rolled = outcome, rolled
        _, self.start = new_game(rules, players=table.players)
        self.states: list[GameState] = [self.start] * table.size
        self.pending = np.zeros(table.size, dtype=np.bool_)
        self.grill_claim = np.full(table.size, -1, dtype=np.int64)
        self.victim = np.full(table.size, -1, dtype=np.int64)
        self._stop, self._steal = encoding.encode(STOP), encoding.encode(Steal(0))
        if self.key not in _WARNED:
            _WARNED.add(self.key)
            names = ", ".join(repr(name) for name in untwinned)
            warnings.warn(
                f"rule module {names} brings no batch twin: the batch plays every row of "
                f"{rules.name!r} through the reference engine (right, but many times slower "
                "than twins; see the guide 'Writing your own variant' for a twin)",
                BatchPerRowWarning,
                stacklevel=4,
            )

    # ------------------------------------------------------------------ reading

    def mask(self) -> NDArray[np.bool_]:
        """Every row's legal actions; works out the pending rows and the stops' claims."""
        mask = np.zeros((self.table.size, self.encoding.num_actions), dtype=np.bool_)
        numbers_of, index_of = self.encoding.legal_numbers, self.table.index_of
        self.grill_claim[:] = -1
        self.victim[:] = -1
        rows: list[int] = []
        numbers: list[int] = []
        stop, decide = self._stop, Phase.DECIDE
        for row, state in enumerate(self.states):
            legal = numbers_of(state)
            if not legal:
                continue
            rows += [row] * len(legal)
            numbers += legal
            if state.phase is decide and stop in legal:
                for claim in stop_claims(self.rules, state):
                    if claim.victim is None:
                        self.grill_claim[row] = index_of[claim.tile]
                    else:
                        self.victim[row] = claim.victim
        mask[rows, numbers] = True  # one scatter, not a row at a time
        self.pending[:] = (self.table.phase == PHASE_DECIDE) & ~mask[:, self._stop]
        return mask

    def scores(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """Each player's worms in ``rows``, shape (rows, players), as the rules score them."""
        found = [scores(self.rules, self.states[row]) for row in rows.tolist()]
        return np.array(found, dtype=np.int64).reshape(len(rows), self.table.players)

    def scores_after(
        self, moving: NDArray[np.int64], chosen: NDArray[np.int64]
    ) -> NDArray[np.int64]:
        """Every row's scores, ``moving``'s after their ``chosen`` actions (nothing changes)."""
        states = list(self.states)
        decode = self.encoding.decode
        for row, number in zip(moving.tolist(), chosen.tolist(), strict=True):
            states[row] = apply(self.rules, states[row], decode(number))
        found = [scores(self.rules, state) for state in states]
        return np.array(found, dtype=np.int64).reshape(len(states), self.table.players)

    # ------------------------------------------------------------------ changing

    def reset(self, rows: NDArray[np.int64]) -> None:
        """New games in ``rows``, rolled."""
        listed = rows.tolist()
        for row in listed:
            self.states[row] = self.start
        write_cores(self.table, listed, [self.start] * len(listed))
        self.moves[rows] = 0
        self.turns[rows] = 0
        self.roll(rows)

    def load(self, row: int, state: GameState) -> None:
        """Put a (checked) ``state`` in ``row``; a chance node is rolled at once."""
        self.states[row] = state
        self.moves[row] = 0
        self.turns[row] = 0
        write_cores(self.table, [row], [state])
        if state.phase is _ROLL:
            self.roll(np.array([row], dtype=np.int64))

    def step(self, moving: NDArray[np.int64], chosen: NDArray[np.int64]) -> None:
        """Play the (legal) ``chosen`` action numbers in rows ``moving``, then roll."""
        _PLAYED[self.key] += len(moving)
        decide = self.table.phase[moving] == PHASE_DECIDE
        rolls = decide & (chosen == 0)
        stops = decide & (chosen == self._stop)
        steals = decide & (chosen >= self._steal) & (chosen < self._steal + self.table.players)
        actions, rules, states = self.encoding.actions, self.rules, self.states
        listed = moving.tolist()
        before = [states[row] for row in listed]
        for row, number in zip(listed, chosen.tolist(), strict=True):  # checked legal
            states[row] = apply(rules, states[row], actions[number])
        self._write(moving, listed, before)
        # rows roll in the order the twins' path rolls them: rolls, stops, steals, the rest
        rest = ~(rolls | stops | steals)
        order = np.concatenate([moving[rolls], moving[stops], moving[steals], moving[rest]])
        self.roll(order[self.table.phase[order] == PHASE_ROLL])

    def roll(self, rows: NDArray[np.int64]) -> None:
        """Roll the dice in ``rows`` (each at a chance node), again where a roll busts."""
        table, states, rules = self.table, self.states, self.rules
        while rows.size:
            counts = drawn_counts(table, rows, self.rng)  # as the twins' path draws them
            self.rolled(rows, counts[:, 0] if table.kinds == 1 else counts)
            listed = rows.tolist()
            before = [states[row] for row in listed]
            outcome = self.outcome
            for row, shown in zip(listed, counts.tolist(), strict=True):
                states[row] = apply(rules, states[row], outcome(tuple(map(tuple, shown))))
            self._write(rows, listed, before)
            rows = rows[table.phase[rows] == PHASE_ROLL]

    def _write(self, rows: NDArray[np.int64], listed: list[int], before: list[GameState]) -> None:
        """Write the moved ``rows`` to the table; count a move each, a turn where one ended.

        A turn ends where the player to move changes or the game ends (as ``Replay`` counts).
        """
        table = self.table
        player = table.player[rows]
        write_cores(table, listed, [self.states[row] for row in listed], before)
        self.moves[rows] += 1
        self.turns[rows] += (table.player[rows] != player) | (table.phase[rows] == PHASE_GAME_OVER)
