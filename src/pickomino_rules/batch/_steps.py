"""The batch's step machine: `_engine.steps` function for function, over many rows at once.

Each method names the reference step it mirrors (``_mirrors.MIRRORS`` holds the map); the
rules' hooks run through the composed twins (``_compose``), and for rules no module changes the
compiled loops (`_compiled.LOOPS`) take the whole core turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pickomino_rules.batch._compiled import LOOPS
from pickomino_rules.batch._core import BITS, CAN_ROLL
from pickomino_rules.batch._tables import drawn_counts
from pickomino_rules.batch_plugin import (
    PHASE_CHOOSE,
    PHASE_DECIDE,
    PHASE_GAME_OVER,
    PHASE_ROLL,
    PHASE_TURN_OVER,
)
from pickomino_rules.errors import MissingExtraError

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch._compose import Twins
    from pickomino_rules.batch_plugin import BatchTable
    from pickomino_rules.encoding import Encoding
    from pickomino_rules.rules import Rules


class StepMachine:
    """The step machine of `BatchGames`: the arrays it steps are set in ``BatchGames``' init."""

    rules: Rules
    size: int
    players: int
    encoding: Encoding
    table: BatchTable
    on_roll: Callable[[NDArray[np.int64], NDArray[np.int8]], object] | None
    _rng: np.random.Generator
    _twins: Twins
    _pending_hook: bool
    _steal: int
    _stop: int
    _moves: NDArray[np.int32]
    _turns: NDArray[np.int32]
    _mask: NDArray[np.bool_] | None
    _pending: NDArray[np.bool_]
    _grill_claim: NDArray[np.int64]
    _victim: NDArray[np.int64]
    _fused: Any  # the compiled loops' view (`_fused.Table`), or None

    def _play(self, moving: NDArray[np.int64], chosen: NDArray[np.int64]) -> NDArray[np.int64]:
        """`steps.apply` for decisions in rows ``moving``: the rows that roll next."""
        self._moves[moving] += 1
        table = self.table
        phase = table.phase[moving]
        decide = phase == PHASE_DECIDE
        takes = (chosen >= 1) & (chosen <= 6) & (phase == PHASE_CHOOSE)
        stops = decide & (chosen == self._stop)
        steals = decide & (chosen >= self._steal) & (chosen < self._steal + self.players)
        rolls = decide & (chosen == 0)
        if self._pending_hook:
            waiting = self._pending[moving]
            takes &= ~waiting
            stops &= ~waiting
            steals &= ~waiting
            rolls &= ~waiting
        own = ~(takes | stops | steals | rolls)  # a module's action: pending, or after a roll
        table.phase[moving[rolls]] = PHASE_ROLL
        if takes.any():
            self._take(moving[takes], chosen[takes] - 1)
        if stops.any():
            rows = moving[stops]
            self._decide(rows, *self._claim_of_stop(self._grill_claim[rows], self._victim[rows]))
        if steals.any():
            rows = moving[steals]
            self._decide(rows, np.full(len(rows), -1), chosen[steals] - self._steal)
        if own.any():
            rows = moving[own]
            self._twins.apply_action(table, rows, chosen[own])
            self._settle(rows)
        order = [moving[rolls], moving[stops], moving[steals], moving[takes | own]]
        return np.concatenate([rows[table.phase[rows] == PHASE_ROLL] for rows in order])

    def _legal_mask(self) -> NDArray[np.bool_]:
        """`steps.derive` for every game: pending decisions, a roll's takes, a stop's claims."""
        table, twins = self.table, self._twins
        mask = np.zeros((self.size, self.encoding.num_actions), dtype=np.bool_)
        if self._fused is not None:
            LOOPS.derive(self._fused, mask.view(np.int8), self._pending.view(np.int8))
            return mask
        live = np.flatnonzero(table.phase != PHASE_GAME_OVER)
        if self._pending_hook:
            offered = twins.pending_actions(table, live)
            waiting = _rows_with_any(offered)
            self._pending[:] = False
            self._pending[live[waiting]] = True
            mask[live[waiting]] = offered[waiting]
            open_rows = live[~waiting]
        else:
            open_rows = live
        phase = table.phase[open_rows]
        choose = open_rows[phase == PHASE_CHOOSE]
        if choose.size:
            mask[choose] = twins.roll_actions(table, choose)
        decide = np.flatnonzero(table.phase == PHASE_DECIDE)
        if decide.size:
            grill, victim = self._stop_claims(decide)
            self._grill_claim[decide] = grill
            self._victim[decide] = victim
            deciding = decide[~self._pending[decide]]
            if deciding.size:
                mask[deciding] = self._decide_actions(deciding)
        return mask

    def _decide_actions(self, rows: NDArray[np.int64]) -> NDArray[np.bool_]:
        """`steps.decide_actions`: roll again as `turn.can_roll` says (C6); stop; steal (C8)."""
        table = self.table
        if table.compiled is not None:
            found: NDArray[np.bool_] = LOOPS.decide_actions(table, rows, self._victim[rows])
            return found
        mask = table.mask(rows)
        used = (table.set_aside[rows] > 0) @ BITS
        mask[:, 0] = CAN_ROLL[used, (table.in_hand[rows].sum(axis=1) > 0).astype(np.intp)]
        mask[:, self._stop] = True  # at most one steal: a stop takes the claim, or busts
        victim = self._victim[rows]
        robbed = np.flatnonzero(victim >= 0)
        mask[robbed, self._steal + victim[robbed]] = True
        return mask

    @staticmethod
    def _claim_of_stop(
        grill: NDArray[np.int64], victim: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """`steps.claim_of_stop`: the grill tile if claimable, else the only claim (a steal)."""
        return grill, np.where(grill >= 0, -1, victim)

    def _stop_claims(self, rows: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """`steps.stop_claims`: the stop total's claims, none where the stop busts."""
        totals = self._twins.stop_total(self.table, rows)
        grill = np.full(len(rows), -1, dtype=np.int64)
        victim = np.full(len(rows), -1, dtype=np.int64)
        scoring = np.flatnonzero(totals >= 0)
        if scoring.size:
            grill[scoring], victim[scoring] = self._twins.claims(
                self.table, rows[scoring], totals[scoring]
            )
        return grill, victim

    def _take(self, rows: NDArray[np.int64], faces: NDArray[np.int64]) -> None:
        """`steps.apply` on a take: set the dice aside; settle unless the player decides next."""
        self._twins.set_aside(self.table, rows, faces)
        unsettled = rows[self.table.phase[rows] != PHASE_DECIDE]
        if unsettled.size:
            self._settle(unsettled)

    def _decide(
        self, rows: NDArray[np.int64], grill: NDArray[np.int64], victims: NDArray[np.int64]
    ) -> None:
        """`steps.decide` on a stop or a steal: take the claim, or bust; finish the turn."""
        claiming = (grill >= 0) | (victims >= 0)
        if claiming.any():
            self._twins.take_tile(self.table, rows[claiming], grill[claiming], victims[claiming])
        if not claiming.all():
            self._twins.bust(self.table, rows[~claiming])
        self._finish_turn(rows)

    def _settle(self, rows: NDArray[np.int64]) -> None:
        """`steps.settle`: after a module's action, re-check a roll, finish a resolved turn."""
        phase = self.table.phase[rows]
        over = rows[phase == PHASE_TURN_OVER]
        if over.size:
            self._pass_dice(over)
        rolled = rows[phase == PHASE_CHOOSE]
        if rolled.size:
            self._after_roll(rolled)

    def _after_roll(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """`steps.after_roll`: a roll that offers nothing busts; the rows that roll next."""
        table, twins = self.table, self._twins
        offered = _rows_with_any(twins.roll_actions(table, rows))
        if self._pending_hook:
            offered |= _rows_with_any(twins.pending_actions(table, rows))
        busted = rows[~offered]
        if not busted.size:
            return busted
        twins.bust(table, busted)
        return self._finish_turn(busted)

    def _finish_turn(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """`steps.finish_turn`: tidy the resolved turn; pass the dice. The rows that roll next."""
        table = self.table
        if table.compiled is not None:
            LOOPS.turn_over(table.compiled, rows, self.rules.tidies_turn_end)
        else:
            self._turns[rows] += 1
            if self.rules.tidies_turn_end:
                table.phase[rows] = PHASE_TURN_OVER
                table.roll[rows] = 0
        if self.rules.tidies_turn_end:
            self._twins.end_turn(table, rows)
        return self._pass_dice(rows)

    def _pass_dice(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """`steps.pass_dice`: wait for a pending decision, end the game, or start a turn."""
        table = self.table
        if self._pending_hook:
            rows = rows[~_rows_with_any(self._twins.pending_actions(table, rows))]
        if table.compiled is not None:
            passed = np.empty(len(rows), dtype=np.int64)
            passed = passed[: LOOPS.pass_on(table.compiled, rows, passed)]
            if self.rules.deals_own_dice and passed.size:
                table.in_hand[passed] = self._twins.turn_dice(table, passed)
            return passed
        over = table.grill[rows] == 0
        ended = rows[over]
        table.phase[ended] = PHASE_GAME_OVER
        table.in_hand[ended] = 0
        table.roll[ended] = 0
        table.set_aside[ended] = 0
        going: NDArray[np.int64] = rows[~over]
        table.player[going] = (table.player[going] + 1) % self.players
        self._start_turn(going)
        return going

    def _start_turn(self, rows: NDArray[np.int64]) -> None:
        """`steps.start_turn`: the player to move takes the turn's dice (C3, C11)."""
        table = self.table
        table.phase[rows] = PHASE_ROLL
        table.in_hand[rows] = table.dice
        table.roll[rows] = 0
        table.set_aside[rows] = 0
        if self.rules.deals_own_dice and rows.size:
            table.in_hand[rows] = self._twins.turn_dice(table, rows)

    def _roll_kinds(self, rows: NDArray[np.int64]) -> None:
        """`_roll_dice` in the compiled loop with several kinds of dice (the golden die).

        Each kind's dice are drawn as the numpy path draws them (the same seed, the same
        dice), then `steps.after_roll` runs on the rows, until none busts.
        """
        table = self.table
        while rows.size:
            for kind, (start, lookup, rolls) in enumerate(table.roll_tables):
                some = rows[table.in_hand[:, kind][rows] > 0]
                first, high = np.empty(len(some), np.int64), np.empty(len(some), np.int64)
                LOOPS.bounds(self._fused, some, kind, start, table.sides, first, high)
                drawn = lookup[first + self._rng.integers(0, high)]
                LOOPS.show(self._fused, some, kind, rolls, drawn)
            if self.on_roll is not None:
                self.on_roll(rows, table.roll[rows])
            rolling = np.empty(len(rows), dtype=np.int64)
            rows = rolling[: LOOPS.landed(self._fused, rows, rolling)]

    def _roll_dice(self, rows: NDArray[np.int64]) -> None:
        """`steps.roll` then `after_roll` in ``rows`` (phase ROLL), until none busts."""
        self._mask = None
        table = self.table
        if self._fused is not None and table.kinds > 1:
            self._roll_kinds(rows)
            return
        if self._fused is not None:
            start, lookup, rolls = table.roll_tables[0]
            while rows.size:
                first, high = np.empty(len(rows), np.int64), np.empty(len(rows), np.int64)
                LOOPS.bounds(self._fused, rows, 0, start, table.sides, first, high)
                drawn = lookup[first + self._rng.integers(0, high)]
                if self.on_roll is not None:
                    self.on_roll(rows, rolls[drawn])
                rolling = np.empty(len(rows), dtype=np.int64)
                rows = rolling[: LOOPS.land(self._fused, rows, rolls, drawn, rolling)]
            return
        view = table.compiled
        while rows.size and view is not None:  # each kind's dice drawn as below, then shown
            for kind, (start, lookup, rolls) in enumerate(table.roll_tables):
                # rows without dice of a kind draw nothing (numpy draws nothing for them)
                some = rows[table.in_hand[:, kind][rows] > 0]
                first, high = np.empty(len(some), np.int64), np.empty(len(some), np.int64)
                LOOPS.bounds(view, some, kind, start, table.sides, first, high)
                LOOPS.show(view, some, kind, rolls, lookup[first + self._rng.integers(0, high)])
            table.phase[rows] = PHASE_CHOOSE
            self._moves[rows] += 1
            if self.on_roll is not None:
                counts = table.roll[rows]
                self.on_roll(rows, counts[:, 0] if table.kinds == 1 else counts)
            rows = self._after_roll(rows)
        while rows.size:
            counts = drawn_counts(table, rows, self._rng)
            table.roll[rows] = counts
            table.phase[rows] = PHASE_CHOOSE
            self._moves[rows] += 1
            if self.on_roll is not None:
                self.on_roll(rows, counts[:, 0] if table.kinds == 1 else counts)
            rows = self._after_roll(rows)


def _rows_with_any(mask: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Which rows of a mask hold any action (a whole mask is asked first: mostly none).

    Asked of the transposed mask: numpy's ``any`` over a short last axis is many times slower.
    """
    if not mask.any():
        return np.zeros(len(mask), dtype=np.bool_)
    found: NDArray[np.bool_] = np.asarray(np.ascontiguousarray(mask.T).any(axis=0))
    return found
