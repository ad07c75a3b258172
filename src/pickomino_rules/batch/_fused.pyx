# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The batch's compiled loops: the core turn over many games at once.

The rules themselves are the row functions of ``_engine/rows.pxd`` (each names its reference;
``batch/_mirrors.ROWS`` holds that map); here they run over a batch's rows. Two uses, each
function a declared twin (``batch/_mirrors.py`` names its reference):

- For rules no module changes but through row twins (the hooks of the turn ``Rules.wrapped``
  names have row twins, whose parts live in the table's slots: the classic game, the low
  tiles, the grilled worms), the batch hands a whole step to these loops instead of its numpy step
  machine: ``decide`` (the core's decisions in `steps.apply` and `steps.decide`), ``land``
  (`steps.roll` and `steps.after_roll`), ``derive`` (`steps.derive`), the core hooks of
  `turn` inlined.
- For every other rules, ``CORE_TWINS`` (the core hooks, with the numpy twins' calls) stand
  innermost in the batch's chains, and ``turn_over``, ``pass_on``, ``bounds``, ``show`` and
  ``decide_actions`` do the plain array work of the numpy step machine.

The batch's tests run every variant through these loops (the compiled backend) and through
the numpy twins (``PICKOMINO_PURE=1``), both against the reference engine.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t

cimport pickomino_rules._engine.rows as row
from pickomino_rules._engine.rows cimport CHOOSE, Cols, DECIDE, ROLL
from pickomino_rules.compiled_plugin cimport HookTwin, Link, RowTable, Seen

import numpy as np

from pickomino_rules.batch import _core as _numpy


cdef class Table:
    """A batch's table as the row functions read it: ``Cols``, raw pointers to its columns.

    The arrays are held here, so the pointers stay valid as long as the view (the batch
    changes their values in place, never the arrays: ``scores_after`` restores them so).
    """

    cdef Cols c
    cdef object arrays
    cdef readonly bint on_rows  # every module's twin of a hook of ROW_HOOKS has a row form,
                               # the parts they read in ``slots``
    cdef readonly bint scores_on_rows  # and every module's twin of ``scores`` has one too
    cdef readonly bint observes_on_rows  # and every observed part's observer has one too
    cdef RowTable hooks
    cdef Py_ssize_t size  # the batch's rows

    def __init__(
        self, table, moves, turns, grill_claim, victim, int stop, int steal, RowTable hooks,
        slots, bint slotted, firsts, actions_at,
    ):
        # typed views check each array's type and C order once; the pointers are their data
        cdef int64_t[::1] grill = table.grill
        cdef int8_t[:, ::1] face_down = table.face_down
        cdef int8_t[::1] face_down_count = table.face_down_count
        cdef int8_t[:, :, ::1] stacks = table.stacks
        cdef int8_t[:, ::1] heights = table.heights
        cdef int64_t[:, ::1] tops = table.tops
        cdef int8_t[::1] player = table.player
        cdef int8_t[::1] phase = table.phase
        cdef int8_t[:, ::1] in_hand = table.in_hand
        cdef int8_t[:, :, ::1] roll = table.roll
        cdef int8_t[:, ::1] set_aside = table.set_aside
        cdef int32_t[::1] moves_ = moves
        cdef int32_t[::1] turns_ = turns
        cdef int64_t[::1] grill_claim_ = grill_claim
        cdef int64_t[::1] victim_ = victim
        cdef const int64_t[::1] tiles = table.tiles  # the table's constants are read-only
        cdef const int64_t[::1] index_of = table.index_of
        cdef const int64_t[::1] below = table.below
        cdef const int64_t[::1] points = table.points
        cdef const int64_t[::1] worms = table.worms
        cdef const int8_t[::1] start_dice = table.dice
        cdef int16_t[:, ::1] slots_ = slots  # the parts' slots (``_compiled.part_columns``)
        cdef const int64_t[::1] firsts_ = firsts
        cdef const int64_t[::1] actions_at_ = actions_at
        count = len(table.tiles)
        if (
            stacks.shape[1] != table.players or stacks.shape[2] != count
            or face_down.shape[1] != count or roll.shape[1] != table.kinds
            or in_hand.shape[1] != table.kinds or start_dice.shape[0] != table.kinds
            or points.shape[0] != 6 or worms.shape[0] != count
        ):
            raise ValueError("the batch's arrays do not have the table's shapes")
        self.arrays = (
            table.grill, table.face_down, table.face_down_count, table.stacks, table.heights,
            table.tops, table.player, table.phase, table.in_hand, table.roll, table.set_aside,
            moves, turns, grill_claim, victim, table.tiles, table.index_of, table.below,
            table.points, table.worms, table.dice, hooks, slots, firsts, actions_at,
        )  # fmt: skip
        if slots_.shape[0] != table.size or firsts_.shape[0] < max(1, len(hooks.codecs)):
            raise ValueError("the parts' slots do not have the table's shapes")
        # the modules' row twins (the hook table; their links kept alive by ``hooks``), where
        # every part they read has its slots here (``slotted``)
        self.on_rows = hooks.complete and slotted and (
            slots_.shape[1] >= hooks.slot_layout(table.players)[0]
        )
        if self.on_rows:
            hooks.chains_into(&self.c)
        self.scores_on_rows = self.on_rows and hooks.scores_on_rows
        self.observes_on_rows = self.scores_on_rows and hooks.observes_on_rows
        self.hooks = hooks
        self.size = table.size
        self.c.tidies = table.rules.tidies_turn_end
        self.c.slots = &slots_[0, 0]
        self.c.slot_width = slots_.shape[1]
        self.c.firsts = &firsts_[0]
        self.c.actions_at = &actions_at_[0]
        self.c.grill = &grill[0]
        self.c.face_down = &face_down[0, 0]
        self.c.face_down_count = &face_down_count[0]
        self.c.stacks = &stacks[0, 0, 0]
        self.c.heights = &heights[0, 0]
        self.c.tops = &tops[0, 0]
        self.c.player = &player[0]
        self.c.phase = &phase[0]
        self.c.in_hand = &in_hand[0, 0]
        self.c.roll = &roll[0, 0, 0]
        self.c.set_aside = &set_aside[0, 0]
        self.c.moves = &moves_[0]
        self.c.turns = &turns_[0]
        self.c.grill_claim = &grill_claim_[0]
        self.c.victim = &victim_[0]
        self.c.tiles = &tiles[0]
        self.c.index_of = &index_of[0]
        self.c.index_of_size = index_of.shape[0]
        self.c.below = &below[0]
        self.c.below_size = below.shape[0]
        self.c.points = &points[0]
        self.c.worms = &worms[0]
        self.c.start_dice = &start_dice[0]
        self.c.players = table.players
        self.c.kinds = table.kinds
        self.c.count = count
        self.c.stop = stop
        self.c.steal = steal
        self.c.actions = table.encoding.num_actions


def decide(Table t, const int64_t[:] moving, const int64_t[:] chosen, int64_t[:] rolling):
    """`steps.apply` on every decision: a module's action (pending, or its own number), a
    take, a roll, a stop, a steal (each counted as a move).

    The rows that roll next go to ``rolling``, in the numpy step machine's order (rolls,
    stops, steals, then takes and modules' actions), so that the same seed draws the same
    dice; returns how many.
    """
    cdef Cols* c = &t.c
    cdef Py_ssize_t i, r, n = moving.shape[0], out = 0, late = 0
    cdef int64_t a, grill
    cdef int pass_
    later = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] settled = later
    with nogil:
        for i in range(n):
            c.moves[moving[i]] += 1
        for pass_ in range(3):
            for i in range(n):
                r = moving[i]
                a = chosen[i]
                if pass_ == 0:
                    if a >= c.steal + c.players or row.run_pending(c.pending_chain, c, r, NULL):
                        if row.run_apply(c.apply_chain, c, r, a) and row.settle(c, r):
                            settled[late] = r
                            late += 1
                    elif c.phase[r] == CHOOSE:  # a take (C4)
                        row.run_set_aside(c.set_aside_chain, c, r, <int>(a - 1))
                        if c.phase[r] != DECIDE and row.settle(c, r):
                            settled[late] = r
                            late += 1
                    elif a == 0:  # roll again (C6)
                        c.phase[r] = ROLL
                        rolling[out] = r
                        out += 1
                elif pass_ == 1 and a == c.stop and c.phase[r] == DECIDE:
                    grill = c.grill_claim[r]  # steps.claim_of_stop: the grill's, else a steal
                    if row.decide(c, r, grill, -1 if grill >= 0 else c.victim[r]):
                        rolling[out] = r
                        out += 1
                elif pass_ == 2 and c.steal <= a < c.steal + c.players and c.phase[r] == DECIDE:
                    if row.decide(c, r, -1, a - c.steal):
                        rolling[out] = r
                        out += 1
        for i in range(late):
            rolling[out] = settled[i]
            out += 1
    return out


def bounds(Table t, const int64_t[:] rows, int kind, const int64_t[:] start,
           const int64_t[:] sides, int64_t[:] first, int64_t[:] high):
    """For each row's dice of ``kind`` in hand: where its rolls start in the lookup, and how
    many ways they can fall."""
    cdef Cols* c = &t.c
    cdef Py_ssize_t i
    cdef int dice
    with nogil:
        for i in range(rows.shape[0]):
            dice = c.in_hand[rows[i] * c.kinds + kind]
            first[i] = start[dice]
            high[i] = sides[dice]


def show(Table t, const int64_t[:] rows, int kind, const int8_t[:, ::1] rolls,
         const int16_t[:] drawn):
    """`steps.roll`: the dice of ``kind`` show ``rolls[drawn]``."""
    cdef Cols* c = &t.c
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row.show(c, rows[i], kind, &rolls[drawn[i], 0])


def land(Table t, const int64_t[:] rows, const int8_t[:, ::1] rolls, const int16_t[:] drawn,
         int64_t[:] rolling):
    """`steps.roll` then `steps.after_roll`: the dice show ``rolls[drawn]``; a roll that
    offers nothing busts (C5). The rows that roll next (the next player's) go to ``rolling``;
    returns how many."""
    cdef Cols* c = &t.c
    cdef Py_ssize_t i, r, out = 0
    with nogil:
        for i in range(rows.shape[0]):
            r = rows[i]
            row.show(c, r, 0, &rolls[drawn[i], 0])
            if row.after_roll(c, r):
                rolling[out] = r
                out += 1
    return out


def landed(Table t, const int64_t[:] rows, int64_t[:] rolling):
    """`steps.after_roll` once every kind's dice show (``show``): a roll that offers nothing
    busts (C5). The rows that roll next go to ``rolling``; returns how many."""
    cdef Cols* c = &t.c
    cdef Py_ssize_t i, r, out = 0
    with nogil:
        for i in range(rows.shape[0]):
            r = rows[i]
            if row.after_roll(c, r):
                rolling[out] = r
                out += 1
    return out


def derive(Table t, int8_t[:, ::1] mask, int8_t[::1] pending):
    """`steps.derive` for every game: a decision made pending, a roll's takes (C4), or a
    stop's decisions (C6-C8), its claims kept in ``grill_claim`` and ``victim``; the rows
    waiting on a pending decision in ``pending``."""
    cdef Cols* c = &t.c
    cdef Py_ssize_t r, width = mask.shape[1]
    cdef int8_t* out = &mask[0, 0]
    with nogil:
        for r in range(mask.shape[0]):
            pending[r] = row.derive(c, r, out + r * width)


def scores(Table t, const int64_t[:] rows):
    """`turn.scores` and the modules' row twins of it (C13): each player's worms in each of
    ``rows``, shape (rows, players). Only where ``scores_on_rows``."""
    if not t.scores_on_rows:
        raise ValueError("a module's twin of scores has no row form")
    cdef Cols* c = &t.c
    worms = np.zeros((rows.shape[0], c.players), dtype=np.int64)
    cdef int64_t[:, ::1] out = worms
    cdef Py_ssize_t i
    if rows.shape[0] == 0:
        return worms
    with nogil:
        for i in range(rows.shape[0]):
            row.run_scores(c.scores_chain, c, rows[i], &out[i, 0])
    return worms


def observe(Table t, const int64_t[::1] me, float[:, ::1] out, const int64_t[::1] starts, dict parts):
    """`observation.observe_into` for every row, seen by seat ``me[row]``, into ``out``
    (zeros): the core's segments as ``starts`` lays them out (`rows.Seen`'s order), each
    observed part's features from its observer's row twin, at ``parts[name]``. Only where
    ``observes_on_rows``."""
    if not t.observes_on_rows or t.c.players > 64:
        raise ValueError("the observation does not play on these rows")
    cdef Cols* c = &t.c
    cdef Seen at
    at.grill, at.face_down, at.tops, at.sizes = starts[0], starts[1], starts[2], starts[3]
    at.worms, at.to_move, at.phase, at.in_hand = starts[4], starts[5], starts[6], starts[7]
    at.roll, at.set_aside, at.total, at.claims = starts[8], starts[9], starts[10], starts[11]
    cdef Py_ssize_t count = len(t.hooks.observers), i, r
    cdef HookTwin twin
    links = np.zeros(max(count, 1), dtype=np.intp)  # the observers' links, as addresses
    firsts = np.zeros(max(count, 1), dtype=np.intp)
    cdef Py_ssize_t[::1] link_at = links, first_at = firsts
    for i, (name, observer) in enumerate(t.hooks.observers.items()):
        twin = observer  # (the table keeps it, and so its link, alive)
        link_at[i] = <Py_ssize_t>&twin.row
        first_at[i] = parts[name]
    if out.shape[0] != t.size or me.shape[0] != t.size:
        raise ValueError("one row of the observation per game")
    with nogil:
        for r in range(me.shape[0]):
            row.observe(c, r, <int>me[r], &at, &out[r, 0])
            for i in range(count):
                row.run_observe(<const Link*>link_at[i], c, r, <int>me[r], &out[r, first_at[i]])


# ---------------------------------------------------------------- the core turn's twins
#
# The same calls as the numpy twins of ``batch/_core.py`` (``inner``-free: the innermost of
# each chain), for any number of kinds of dice: a batch of any rules uses them inside its
# chains when its table has a compiled view (``table.compiled``); otherwise they hand the
# call to the numpy twin.


def roll_actions(table, const int64_t[:] rows):
    """`turn.roll_actions` (C4): take each face shown that was not set aside earlier."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.roll_actions(table, rows)
    cdef Cols* c = &t.c
    mask = np.zeros((rows.shape[0], c.actions), dtype=np.bool_)
    cdef int8_t[:, ::1] out = mask.view(np.int8)
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row.roll_actions(c, rows[i], &out[i, 0])
    return mask


def set_aside(table, const int64_t[:] rows, const int64_t[:] faces):
    """`turn.set_aside` (C4): every die of the roll showing the face is set aside."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.set_aside(table, rows, faces)
    cdef Cols* c = &t.c
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row.set_aside(c, rows[i], <int>faces[i])


def stop_total(table, const int64_t[:] rows):
    """`turn.stop_total` (C7): the points set aside, or -1 without a worm among them."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.stop_total(table, rows)
    cdef Cols* c = &t.c
    totals = np.empty(rows.shape[0], dtype=np.int64)
    cdef int64_t[:] out = totals
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            out[i] = row.stop_total(c, rows[i])
    return totals


def claims(table, const int64_t[:] rows, const int64_t[:] totals):
    """`turn.claims` (C8): the exact grill tile, else the next lower; a steal of the total."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.claims(table, rows, totals)
    cdef Cols* c = &t.c
    tiles = np.empty(rows.shape[0], dtype=np.int64)
    victims = np.empty(rows.shape[0], dtype=np.int64)
    cdef int64_t[:] tile_out = tiles
    cdef int64_t[:] victim_out = victims
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row.claims(c, rows[i], totals[i], &tile_out[i], &victim_out[i])
    return tiles, victims


def decide_actions(table, const int64_t[:] rows, const int64_t[:] victims):
    """`steps.decide_actions` (C6-C8): roll while dice and faces remain; stop; steal."""
    cdef Table t = table.compiled
    cdef Cols* c = &t.c
    mask = np.zeros((rows.shape[0], c.actions), dtype=np.bool_)
    cdef int8_t[:, ::1] out = mask.view(np.int8)
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row.decide_actions(c, rows[i], victims[i], &out[i, 0])
    return mask


def take_tile(table, const int64_t[:] rows, const int64_t[:] tiles, const int64_t[:] victims):
    """`turn.take_tile` (C8, C9): the claimed tile on top of the player's stack."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.take_tile(table, rows, tiles, victims)
    cdef Cols* c = &t.c
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row.take_tile(c, rows[i], tiles[i], victims[i])


def bust(table, const int64_t[:] rows):
    """`turn.bust` (C10): return the top tile; turn the highest unless it is that tile."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.bust(table, rows)
    cdef Cols* c = &t.c
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row.bust(c, rows[i])


def turn_over(Table t, const int64_t[:] rows, bint tidies):
    """`steps.finish_turn`'s first part: the turn counted and, for ``end_turn``, shown over."""
    cdef Cols* c = &t.c
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row.turn_over(c, rows[i], tidies)


def pass_on(Table t, const int64_t[:] rows, int64_t[:] going):
    """`steps.pass_dice` with nothing pending, and `steps.start_turn` before ``turn_dice``.
    The rows that start a turn go to ``going``; returns how many."""
    cdef Cols* c = &t.c
    cdef Py_ssize_t i, out = 0
    with nogil:
        for i in range(rows.shape[0]):
            if row.pass_dice(c, rows[i]):
                going[out] = rows[i]
                out += 1
    return out


CORE_TWINS = {
    "take_tile": take_tile,
    "bust": bust,
    "roll_actions": roll_actions,
    "set_aside": set_aside,
    "stop_total": stop_total,
    "claims": claims,
}
"""The compiled core twins, by hook name: they stand innermost in the batch's chains."""
