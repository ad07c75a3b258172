# cython: language_level=3
"""The numeric encoding's observation and mask, compiled: a declared mirror of ``observation``.

``observe_into`` and ``mask_into`` fill numpy's buffers in C with what the pure
``_engine/observation.py`` computes (``MIRRORS``); ``tests/envs/test_observation_mirror.py``
compares them at every state of random games of every variant. Where the rules play on rows
and every observed part's observer has a row form, the observation is the row's
(``rows.observe``, the one the batch's compiled loop writes: the state read into the rules'
one-row table); a game's end and rules off rows take the object-level form below.
"""

from cpython.buffer cimport (
    PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer,
)

from pickomino_rules._engine._boundary cimport View, taken
from pickomino_rules._engine._row cimport row_observe
from pickomino_rules._engine.rows cimport Seen
from pickomino_rules._engine.states cimport Slots, get, plain, read_slots
from pickomino_rules.compiled_plugin cimport HookTwin

from pickomino_rules._engine import observation
from pickomino_rules._engine._kernel import legal_actions, stop_claims
from pickomino_rules.dice import FACES
from pickomino_rules.state import Phase

cdef Slots S
read_slots(&S)

cdef object _ROLL = Phase.ROLL
cdef object _GAME_OVER = Phase.GAME_OVER
cdef object _DECIDE = Phase.DECIDE


cdef object _PHASE_0, _PHASE_1, _PHASE_2, _PHASE_3, _PHASE_4
_PHASE_0, _PHASE_1, _PHASE_2, _PHASE_3, _PHASE_4 = observation.PHASES
cdef long _FACE_POINTS[6]  # each face's points (C7), read from the faces themselves
for _at, _face in enumerate(FACES):
    _FACE_POINTS[_at] = _face.points


cdef inline Py_ssize_t _phase_slot(object phase) except -1:
    """The index of ``phase`` in ``observation.PHASES`` (compared by identity)."""
    if phase is _PHASE_0:
        return 0
    if phase is _PHASE_1:
        return 1
    if phase is _PHASE_2:
        return 2
    if phase is _PHASE_3:
        return 3
    if phase is _PHASE_4:
        return 4
    return observation.PHASES.index(phase)  # (raises for something else)


cdef class _Layout:
    """An ``observation.Layout`` as C numbers (the last one read is kept)."""

    cdef object source
    cdef Py_ssize_t players, count, grill, face_down, tops, sizes, worms, to_move, phase
    cdef Py_ssize_t in_hand, roll, set_aside, total, claims
    cdef dict tiles, numbers
    cdef dict by_id  # each numbered action's number by its identity (the actions stay alive)
    cdef tuple parts
    cdef Py_ssize_t tile_slot[64]  # each tile's index by number (-1: none), for tiles < 64
    cdef Seen seen  # the segments' starts, as the rules' rows write them (``rows.observe``)
    cdef Py_ssize_t end  # the observation's length


cdef _Layout _LAST_LAYOUT = _Layout()


cdef inline Py_ssize_t _slot_of(_Layout at, object tile) except -1:
    """The index of ``tile`` among the rules' tiles (the dict's own error for a stranger)."""
    cdef long number
    if type(tile) is int:
        number = tile
        if 0 <= number < 64 and at.tile_slot[number] >= 0:
            return at.tile_slot[number]
    return at.tiles[tile]


cdef inline double _number(object value) except? -1.0:
    """A count or a feature as a double (ints without ``__float__``)."""
    if type(value) is int:
        return <double>(<long>value)
    return value


cdef _Layout _layout(object source):
    global _LAST_LAYOUT
    cdef _Layout seen = _LAST_LAYOUT
    if seen.source is source:
        return seen
    seen = _Layout()
    seen.players, seen.count = source.players, source.count
    seen.grill, seen.face_down, seen.tops = source.grill, source.face_down, source.tops
    seen.sizes, seen.worms, seen.to_move = source.stack_sizes, source.scores, source.to_move
    seen.phase, seen.in_hand, seen.roll = source.phase, source.in_hand, source.roll
    seen.set_aside, seen.total, seen.claims = source.set_aside, source.total, source.stop_claims
    seen.tiles, seen.numbers, seen.parts = source.tiles, source.numbers, tuple(source.parts)
    seen.by_id = {id(action): number for action, number in seen.numbers.items()}
    seen.seen.grill, seen.seen.face_down, seen.seen.tops = seen.grill, seen.face_down, seen.tops
    seen.seen.sizes, seen.seen.worms, seen.seen.to_move = seen.sizes, seen.worms, seen.to_move
    seen.seen.phase, seen.seen.in_hand, seen.seen.roll = seen.phase, seen.in_hand, seen.roll
    seen.seen.set_aside, seen.seen.total = seen.set_aside, seen.total
    seen.seen.claims = seen.claims
    seen.end = max([seen.claims + 2] + [start + size for _, _, start, size, _ in seen.parts])
    cdef Py_ssize_t number
    for number in range(64):
        seen.tile_slot[number] = -1
    for tile, index in seen.tiles.items():
        if type(tile) is int and 0 <= tile < 64:
            seen.tile_slot[<Py_ssize_t>tile] = index
    seen.source = source
    _LAST_LAYOUT = seen
    return seen


cdef class _Buffer:
    """A writable buffer of ``out`` (held while in use; ``out[at] = value`` bounds-checked)."""

    cdef Py_buffer view
    cdef bint held

    def __dealloc__(self):
        if self.held:
            PyBuffer_Release(&self.view)


cdef inline void _put_float(_Buffer buffer, Py_ssize_t at, double value) except *:
    if at < 0 or at >= buffer.view.len // 4:
        raise IndexError("observation index out of range")
    (<float*>buffer.view.buf)[at] = <float>value


cdef inline float _read_float(_Buffer buffer, Py_ssize_t at) except? -1:
    if at < 0 or at >= buffer.view.len // 4:
        raise IndexError("observation index out of range")
    return (<float*>buffer.view.buf)[at]


cdef _Buffer _writable(object out, bytes kind):
    """``out``'s buffer, when it is a contiguous, writable one of ``kind`` ('f' or 'b')."""
    cdef _Buffer buffer = _Buffer()
    PyObject_GetBuffer(out, &buffer.view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
    buffer.held = True
    if buffer.view.format == NULL or buffer.view.format[0] != kind[0] or buffer.view.format[1]:
        raise TypeError(f"the buffer must hold {'float32' if kind == b'f' else 'int8'} values")
    return buffer


cpdef void observe_into(object layout, object rules, object state, Py_ssize_t me, object out) except *:
    """``observation.observe_into``: the observation of ``state`` seen by ``me``, into ``out``.

    ``out`` is a contiguous float32 buffer (a numpy array) of zeros.
    """
    cdef _Layout at = _layout(layout)
    cdef _Buffer buffer = _writable(out, b"f")
    cdef Py_ssize_t n = at.players, seat, player, start, slot
    cdef View fast = taken(rules, state)  # on the rules' row, where it stands or is read
    if (
        fast is not None and 0 <= me < n and at.end <= buffer.view.len // 4
        and row_observe(fast, state, <int>me, &at.seen, <float*>buffer.view.buf, at.parts)
    ):
        return
    cdef bint by_offset = plain(&S, state)  # (its fields read in C)
    grill = get(state, S.grill) if by_offset else state.grill
    face_down = get(state, S.face_down) if by_offset else state.face_down
    stacks = get(state, S.stacks) if by_offset else state.stacks
    phase = get(state, S.phase) if by_offset else state.phase
    for tile in grill:
        _put_float(buffer, at.grill + _slot_of(at, tile), 1.0)
    for tile in face_down:
        _put_float(buffer, at.face_down + _slot_of(at, tile), 1.0)
    scores = rules.scores(rules, state)
    for seat in range(n):
        player = (me + seat) % n
        stack = stacks[player]
        if stack:
            _put_float(buffer, at.tops + seat * at.count + _slot_of(at, stack[-1]), 1.0)
        _put_float(buffer, at.sizes + seat, len(stack))
        _put_float(buffer, at.worms + seat, _number(scores[player]))
    if phase is not _GAME_OVER:
        mover = get(state, S.player) if by_offset else state.player
        _put_float(buffer, at.to_move + (<Py_ssize_t>mover - me) % n, 1.0)
    _put_float(buffer, at.phase + _phase_slot(phase), 1.0)
    start = at.in_hand
    for dice in (get(state, S.in_hand) if by_offset else state.in_hand):
        _put_float(buffer, start, _number(dice))
        start += 1
    rolled = get(state, S.roll) if by_offset else state.roll
    if rolled is not None:
        start = at.roll
        for counts in rolled.counts:
            slot = start
            for dice in counts:
                _put_float(buffer, slot, _number(dice))
                slot += 1
            start += 6
    cdef long total = 0, face = 0
    start = at.set_aside
    for dice in (get(state, S.set_aside) if by_offset else state.set_aside):
        _put_float(buffer, start, _number(dice))
        total += <long>dice * _FACE_POINTS[face] if face < 6 else 0
        start += 1
        face += 1
    _put_float(buffer, at.total, total if face == 6 else state.total)  # (else: its own error)
    cdef float* values = <float*>buffer.view.buf
    cdef float worth
    if phase is _DECIDE:  # what a stop takes now (C8): best grill tile, best steal
        worms = rules.worms
        for claim in stop_claims(rules, state):
            slot = at.claims + (claim.victim is not None)
            worth = <float>worms[claim.tile]
            if worth > _read_float(buffer, slot):
                _put_float(buffer, slot, worth)
    parts = get(state, S.parts) if by_offset else state.parts
    cdef Py_ssize_t size, count
    for key, index, start, size, observer in at.parts:
        if isinstance(observer, HookTwin):  # the part's compiled observer, in C
            if start < 0 or start + size > buffer.view.len // 4:
                raise IndexError("observation index out of range")
            count = (<HookTwin>observer).fill(rules, state, parts[index], me, values + start, size)
            if count != size:
                raise ValueError(f"{key.name}'s observer gave {count} features, not {size}")
            continue
        for feature in key.observe(rules, state, parts[index], me):
            _put_float(buffer, start, _number(feature))
            start += 1


cpdef void mask_into(object layout, object rules, object state, object out) except *:
    """``observation.mask_into``: 1 at the number of each legal decision of ``state``.

    ``out`` is a contiguous int8 buffer (a numpy array) of zeros.
    """
    phase = state.phase
    if phase is _ROLL or phase is _GAME_OVER:
        return
    cdef _Layout at = _layout(layout)
    cdef _Buffer buffer = _writable(out, b"b")
    cdef Py_ssize_t number
    for action in legal_actions(rules, state):
        found = at.by_id.get(id(action))  # (the engine offers the numbered objects themselves)
        number = at.numbers[action] if found is None else found
        if number < 0 or number >= buffer.view.len:
            raise IndexError("mask index out of range")
        (<signed char*>buffer.view.buf)[number] = 1


MIRRORS = {
    "observe_into": observation.observe_into,
    "mask_into": observation.mask_into,
}
"""Each compiled function of this module, by name, and its pure twin in ``observation``."""
