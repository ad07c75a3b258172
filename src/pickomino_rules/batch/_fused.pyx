# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The batch's compiled loops: the core turn over many games at once.

Two uses, each function a declared twin (``batch/_mirrors.py`` names its reference):

- For rules no module changes (``Rules.wrapped`` is empty, nothing is pending, no parts: the
  plain classic game), the batch hands a whole step to these loops instead of its numpy step
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

import numpy as np

from pickomino_rules.batch import _core as _numpy

DEF ROLL = 0
DEF CHOOSE = 1
DEF DECIDE = 2
DEF TURN_OVER = 3
DEF GAME_OVER = 4
DEF WORM = 5


cdef class Table:
    """The arrays of a batch's table the loops read and write (views, no copies)."""

    cdef int64_t[:] grill
    cdef int8_t[:, :] face_down
    cdef int8_t[:] face_down_count
    cdef int8_t[:, :, :] stacks
    cdef int8_t[:, :] heights
    cdef int64_t[:, :] tops
    cdef int8_t[:] player
    cdef int8_t[:] phase
    cdef int8_t[:, :] in_hand
    cdef int8_t[:, :, :] roll
    cdef int8_t[:, :] set_aside
    cdef int32_t[:] moves
    cdef int32_t[:] turns
    cdef int64_t[:] grill_claim
    cdef int64_t[:] victim
    cdef const int64_t[:] tiles  # the table's constants are read-only
    cdef const int64_t[:] index_of
    cdef const int64_t[:] below
    cdef const int64_t[:] highest_of
    cdef const int64_t[:] points
    cdef const int8_t[:] start_dice
    cdef int players, dice, stop, steal, count, kinds, actions

    def __init__(self, table, moves, turns, grill_claim, victim, int stop, int steal):
        self.grill = table.grill
        self.face_down = table.face_down
        self.face_down_count = table.face_down_count
        self.stacks = table.stacks
        self.heights = table.heights
        self.tops = table.tops
        self.player = table.player
        self.phase = table.phase
        self.in_hand = table.in_hand
        self.roll = table.roll
        self.set_aside = table.set_aside
        self.moves = moves
        self.turns = turns
        self.grill_claim = grill_claim
        self.victim = victim
        self.tiles = table.tiles
        self.index_of = table.index_of
        self.below = table.below
        self.highest_of = table.highest_of
        self.points = table.points
        self.players = table.players
        self.dice = int(table.dice[0])
        self.stop = stop
        self.steal = steal
        self.count = len(table.tiles)
        self.kinds = table.kinds
        self.start_dice = table.dice
        self.actions = table.encoding.num_actions


cdef inline void push(Table t, Py_ssize_t r, int p, int64_t tile) noexcept nogil:
    t.stacks[r, p, t.heights[r, p]] = <int8_t>tile
    t.heights[r, p] += 1
    t.tops[r, p] = tile


cdef inline int64_t pop(Table t, Py_ssize_t r, int p) noexcept nogil:
    cdef int64_t tile = t.tops[r, p]
    t.heights[r, p] -= 1
    cdef int h = t.heights[r, p]
    t.stacks[r, p, h] = 0
    t.tops[r, p] = t.stacks[r, p, h - 1] if h > 0 else 0
    return tile


cdef inline void turn_face_down(Table t, Py_ssize_t r) noexcept nogil:
    """`turn.turn_face_down`."""
    cdef int64_t index = t.highest_of[t.grill[r]]
    t.grill[r] &= ~((<int64_t>1) << index)
    t.face_down[r, t.face_down_count[r]] = <int8_t>t.tiles[index]
    t.face_down_count[r] += 1


cdef inline void take_tile_row(Table t, Py_ssize_t r, int64_t index, int64_t victim) noexcept nogil:
    """`turn.take_tile`: the claimed tile on top of the player's stack."""
    cdef int p = t.player[r]
    if victim >= 0:
        push(t, r, p, pop(t, r, <int>victim))
    else:
        t.grill[r] &= ~((<int64_t>1) << index)
        push(t, r, p, t.tiles[index])


cdef inline void bust_row(Table t, Py_ssize_t r) noexcept nogil:
    """`turn.bust`: return the top tile; turn the highest unless it is that tile."""
    cdef int p = t.player[r]
    cdef int64_t tile
    if t.heights[r, p] == 0:
        return
    tile = pop(t, r, p)
    t.grill[r] |= (<int64_t>1) << t.index_of[tile]
    if t.tiles[t.highest_of[t.grill[r]]] != tile:
        turn_face_down(t, r)


cdef inline bint pass_row(Table t, Py_ssize_t r) noexcept nogil:
    """`steps.pass_dice` with nothing pending, then `steps.start_turn` before ``turn_dice``:
    the game ends on an empty grill (C12), else the next player takes the dice. Whether the
    row rolls next."""
    cdef int k, f
    for f in range(6):
        t.set_aside[r, f] = 0
    for k in range(t.kinds):
        for f in range(6):
            t.roll[r, k, f] = 0
    if t.grill[r] == 0:
        t.phase[r] = GAME_OVER
        for k in range(t.kinds):
            t.in_hand[r, k] = 0
        return False
    t.player[r] = (t.player[r] + 1) % t.players
    t.phase[r] = ROLL
    for k in range(t.kinds):
        t.in_hand[r, k] = t.start_dice[k]
    return True


cdef inline bint finish_turn(Table t, Py_ssize_t r) noexcept nogil:
    """`steps.finish_turn` where no module tidies a turn's end: count it, pass the dice."""
    t.turns[r] += 1
    return pass_row(t, r)


cdef inline void set_aside_row(Table t, Py_ssize_t r, int f) noexcept nogil:
    """`turn.set_aside` (C4): every die of the roll showing face ``f`` is set aside."""
    cdef int k, g, shown, total = 0
    if t.kinds == 1:  # one kind of dice (classic)
        shown = t.roll[r, 0, f]
        t.in_hand[r, 0] -= shown
        for g in range(6):
            t.roll[r, 0, g] = 0
        t.set_aside[r, f] = shown
        t.phase[r] = DECIDE
        return
    for k in range(t.kinds):
        shown = t.roll[r, k, f]
        total += shown
        t.in_hand[r, k] -= shown
        for g in range(6):
            t.roll[r, k, g] = 0
    t.set_aside[r, f] = total
    t.phase[r] = DECIDE


cdef inline int64_t row_total(Table t, Py_ssize_t r) noexcept nogil:
    """`turn.stop_total` (C7): the points set aside, or -1 without a worm among them."""
    cdef int f
    cdef int64_t total = 0
    if t.set_aside[r, WORM] == 0:
        return -1
    for f in range(6):
        total += t.set_aside[r, f] * t.points[f]
    return total


cdef inline void row_claims(
    Table t, Py_ssize_t r, int64_t total, int64_t* claim, int64_t* victim
) noexcept nogil:
    """`turn.claims` (C8): the exact grill tile, else the next lower; a steal of the total."""
    cdef int p, me
    cdef int64_t grill = t.grill[r]
    cdef int64_t index
    claim[0] = -1
    victim[0] = -1
    if total < 0:  # (before any index: bounds are not checked here; the memcheck run found
        return     # index_of[-1] read when a stop had no worm)
    index = t.index_of[total] if total < t.index_of.shape[0] else -1
    if index >= 0 and (grill >> index) & 1:
        claim[0] = index
        return
    claim[0] = t.highest_of[grill & t.below[min(total, t.below.shape[0] - 1)]]
    me = t.player[r]
    for p in range(t.players):
        if p != me and t.heights[r, p] > 0 and t.tops[r, p] == total:
            victim[0] = p
            return


cdef inline void row_decisions(
    Table t, Py_ssize_t r, int64_t victim, int8_t[:, :] out, Py_ssize_t i
) noexcept nogil:
    """`steps.decide_actions` (C6-C8): roll while dice and faces remain; stop; steal."""
    cdef int f, k, held = 0
    cdef bint open_face = False
    for f in range(6):
        if t.set_aside[r, f] == 0:
            open_face = True
    if t.kinds == 1:
        held = t.in_hand[r, 0]
    else:
        for k in range(t.kinds):
            held += t.in_hand[r, k]
    out[i, 0] = open_face and held > 0
    out[i, t.stop] = True  # at most one steal: a stop takes the claim, or busts
    if victim >= 0:
        out[i, t.steal + victim] = True


cdef inline void row_takes(Table t, Py_ssize_t r, int8_t[:, :] out, Py_ssize_t i) noexcept nogil:
    """`turn.roll_actions` (C4): take each face shown that was not set aside earlier."""
    cdef int f, k, shown
    if t.kinds == 1:  # one kind of dice (classic): no sum over kinds
        for f in range(6):
            out[i, 1 + f] = t.roll[r, 0, f] > 0 and t.set_aside[r, f] == 0
        return
    for f in range(6):
        shown = 0
        for k in range(t.kinds):
            shown += t.roll[r, k, f]
        out[i, 1 + f] = shown > 0 and t.set_aside[r, f] == 0


def decide(Table t, const int64_t[:] moving, const int64_t[:] chosen, int64_t[:] rolling):
    """`steps.apply` on the core's decisions: take, roll, stop, steal (each counted as a move).

    The rows that roll next

    go to ``rolling``, in the numpy step machine's order (rolls, stops, steals), so that the
    same seed draws the same dice; returns how many.
    """
    cdef Py_ssize_t i, r, n = moving.shape[0], out = 0
    cdef int64_t a, grill, victim
    cdef int pass_
    with nogil:
        for i in range(n):
            t.moves[moving[i]] += 1
        for pass_ in range(3):
            for i in range(n):
                r = moving[i]
                a = chosen[i]
                if pass_ == 0:
                    if t.phase[r] == CHOOSE:  # set_aside (C4)
                        set_aside_row(t, r, <int>(a - 1))
                    elif a == 0:  # roll again (C6)
                        t.phase[r] = ROLL
                        rolling[out] = r
                        out += 1
                elif pass_ == 1 and a == t.stop and t.phase[r] == DECIDE:
                    grill = t.grill_claim[r]
                    victim = -1 if grill >= 0 else t.victim[r]  # claim_of_stop
                    if grill >= 0 or victim >= 0:
                        take_tile_row(t, r, grill, victim)
                    else:
                        bust_row(t, r)
                    if finish_turn(t, r):
                        rolling[out] = r
                        out += 1
                elif pass_ == 2 and a >= t.steal and t.phase[r] == DECIDE:
                    take_tile_row(t, r, -1, a - t.steal)
                    if finish_turn(t, r):
                        rolling[out] = r
                        out += 1
    return out


def bounds(Table t, const int64_t[:] rows, int kind, const int64_t[:] start,
           const int64_t[:] sides, int64_t[:] first, int64_t[:] high):
    """For each row's dice of ``kind`` in hand: where its rolls start in the lookup, and how
    many ways they can fall."""
    cdef Py_ssize_t i
    cdef int dice
    with nogil:
        for i in range(rows.shape[0]):
            dice = t.in_hand[rows[i], kind]
            first[i] = start[dice]
            high[i] = sides[dice]


def show(Table t, const int64_t[:] rows, int kind, const int8_t[:, :] rolls,
         const int16_t[:] drawn):
    """`steps.roll`: the dice of ``kind`` show ``rolls[drawn]``."""
    cdef Py_ssize_t i, r
    cdef int f
    with nogil:
        for i in range(rows.shape[0]):
            r = rows[i]
            for f in range(6):
                t.roll[r, kind, f] = rolls[drawn[i], f]


def land(Table t, const int64_t[:] rows, const int8_t[:, :] rolls, const int16_t[:] drawn,
         int64_t[:] rolling):
    """`steps.roll` then `steps.after_roll`: the dice show ``rolls[drawn]``; a roll that
    offers nothing busts (C5). The rows that roll next (the next player's) go to ``rolling``;
    returns how many."""
    cdef Py_ssize_t i, r, out = 0
    cdef int f
    cdef bint offered
    cdef int8_t shown
    with nogil:
        for i in range(rows.shape[0]):
            r = rows[i]
            offered = False
            for f in range(6):
                shown = rolls[drawn[i], f]
                t.roll[r, 0, f] = shown
                if shown > 0 and t.set_aside[r, f] == 0:
                    offered = True
            t.phase[r] = CHOOSE
            t.moves[r] += 1
            if not offered:
                bust_row(t, r)
                if finish_turn(t, r):
                    rolling[out] = r
                    out += 1
    return out


def derive(Table t, int8_t[:, :] mask):
    """`steps.derive` for every game: a roll's takes (C4), or a stop's claims and the
    decisions they allow (C6-C8), kept in ``grill_claim`` and ``victim``."""
    cdef Py_ssize_t r
    cdef int64_t claim, victim
    with nogil:
        for r in range(t.phase.shape[0]):
            if t.phase[r] == CHOOSE:
                row_takes(t, r, mask, r)
            elif t.phase[r] == DECIDE:
                row_claims(t, r, row_total(t, r), &claim, &victim)
                t.grill_claim[r] = claim
                t.victim[r] = victim
                row_decisions(t, r, victim, mask, r)


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
    mask = np.zeros((rows.shape[0], t.actions), dtype=np.bool_)
    cdef int8_t[:, :] out = mask.view(np.int8)
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row_takes(t, rows[i], out, i)
    return mask


def set_aside(table, const int64_t[:] rows, const int64_t[:] faces):
    """`turn.set_aside` (C4): every die of the roll showing the face is set aside."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.set_aside(table, rows, faces)
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            set_aside_row(t, rows[i], <int>faces[i])


def stop_total(table, const int64_t[:] rows):
    """`turn.stop_total` (C7): the points set aside, or -1 without a worm among them."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.stop_total(table, rows)
    totals = np.empty(rows.shape[0], dtype=np.int64)
    cdef int64_t[:] out = totals
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            out[i] = row_total(t, rows[i])
    return totals


def claims(table, const int64_t[:] rows, const int64_t[:] totals):
    """`turn.claims` (C8): the exact grill tile, else the next lower; a steal of the total."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.claims(table, rows, totals)
    tiles = np.empty(rows.shape[0], dtype=np.int64)
    victims = np.empty(rows.shape[0], dtype=np.int64)
    cdef int64_t[:] tile_out = tiles
    cdef int64_t[:] victim_out = victims
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row_claims(t, rows[i], totals[i], &tile_out[i], &victim_out[i])
    return tiles, victims


def decide_actions(table, const int64_t[:] rows, const int64_t[:] victims):
    """`steps.decide_actions` (C6-C8): roll while dice and faces remain; stop; steal."""
    cdef Table t = table.compiled
    mask = np.zeros((rows.shape[0], t.actions), dtype=np.bool_)
    cdef int8_t[:, :] out = mask.view(np.int8)
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            row_decisions(t, rows[i], victims[i], out, i)
    return mask


def take_tile(table, const int64_t[:] rows, const int64_t[:] tiles, const int64_t[:] victims):
    """`turn.take_tile` (C8, C9): the claimed tile on top of the player's stack."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.take_tile(table, rows, tiles, victims)
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            take_tile_row(t, rows[i], tiles[i], victims[i])


def bust(table, const int64_t[:] rows):
    """`turn.bust` (C10): return the top tile; turn the highest unless it is that tile."""
    cdef Table t = table.compiled
    if t is None:
        return _numpy.bust(table, rows)
    cdef Py_ssize_t i
    with nogil:
        for i in range(rows.shape[0]):
            bust_row(t, rows[i])


def turn_over(Table t, const int64_t[:] rows, bint tidies):
    """`steps.finish_turn`'s first part: the turn counted and, for ``end_turn``, shown over."""
    cdef Py_ssize_t i, r
    cdef int k, f
    with nogil:
        for i in range(rows.shape[0]):
            r = rows[i]
            t.turns[r] += 1
            if tidies:
                t.phase[r] = TURN_OVER
                for k in range(t.kinds):
                    for f in range(6):
                        t.roll[r, k, f] = 0


def pass_on(Table t, const int64_t[:] rows, int64_t[:] going):
    """`steps.pass_dice` with nothing pending, and `steps.start_turn` before ``turn_dice``.
    The rows that start a turn go to ``going``; returns how many."""
    cdef Py_ssize_t i, out = 0
    with nogil:
        for i in range(rows.shape[0]):
            if pass_row(t, rows[i]):
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
