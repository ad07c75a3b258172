# cython: language_level=3
"""GameState read and built by offset: the compiled engine's one view of a state's layout.

attrs' frozen slots have no C getter or setter, and ``getattr`` per field would cost more
than a whole step; so the compiled modules read and fill a state's slots at their offsets.
Each module that cimports this reads the offsets once (``read_slots``) into its own
``Slots``; ``read_slots`` also checks that a state built here equals one built by attrs, so
a changed ``GameState`` fails the import (the pure engine then runs) instead of the memory.
"""

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    object PyType_GenericAlloc(PyTypeObject* kind, Py_ssize_t items)
    PyTypeObject* Py_TYPE(object)


cdef struct Slots:
    PyTypeObject* kind  # GameState itself: a state of a subclass is not read by offset
    Py_ssize_t grill, face_down, stacks, player, phase, in_hand, roll, set_aside, parts, layout


cdef inline Py_ssize_t _offset(object kind, str name) except -1:
    descriptor = kind.__dict__[name]
    if type(descriptor).__name__ != "member_descriptor":
        raise TypeError(f"GameState.{name} is not a slot")
    return (<PyMemberDescrObject*>descriptor).d_member.offset


cdef inline int read_slots(Slots* slots) except -1:
    """Fill ``slots`` from ``GameState``; ImportError if a state cannot be built by offset."""
    from pickomino_rules.dice import NO_DICE_SET_ASIDE
    from pickomino_rules.state import GameState, Phase

    slots.kind = <PyTypeObject*>GameState
    slots.grill = _offset(GameState, "grill")
    slots.face_down = _offset(GameState, "face_down")
    slots.stacks = _offset(GameState, "stacks")
    slots.player = _offset(GameState, "player")
    slots.phase = _offset(GameState, "phase")
    slots.in_hand = _offset(GameState, "in_hand")
    slots.roll = _offset(GameState, "roll")
    slots.set_aside = _offset(GameState, "set_aside")
    slots.parts = _offset(GameState, "parts")
    slots.layout = _offset(GameState, "layout")
    cdef object sample = (  # (a Python tuple: a ctuple here would not be declared)
        (21,), (), ((), (22,)), 1, Phase.ROLL, (8,), None, NO_DICE_SET_ASIDE, (), None
    )
    built = new_state(
        slots, sample[0], sample[1], sample[2], sample[3], sample[4],
        sample[5], sample[6], sample[7], sample[8], sample[9],
    )
    if GameState(*sample) != built:
        raise ImportError("GameState is not laid out as the compiled engine reads it")
    return 0


cdef inline bint plain(const Slots* slots, object state):
    """Whether ``state`` is a GameState itself (not a subclass): its slots may be read."""
    return Py_TYPE(state) is slots.kind


cdef inline object get(object state, Py_ssize_t offset):
    """The field of ``state`` at ``offset`` (a GameState's)."""
    cdef PyObject* value = (<PyObject**>((<char*><PyObject*>state) + offset))[0]
    if value is NULL:  # a state made with GameState.__new__ and never filled in
        raise AttributeError("a field of the state is not set")
    return <object>value


cdef inline void _put(object state, Py_ssize_t offset, object value):
    # The one reference counted by hand, and why: attrs' frozen slots have no C setter, and
    # ``object.__setattr__`` per field would cost more than the whole step. Only
    # ``new_state`` calls this, on a state just allocated (every slot NULL), so no old value
    # leaks; the new state owns the reference taken here and drops it when it dies.
    # tests/engine/test_memory_safety.py keeps states whose fields nothing else holds.
    Py_INCREF(value)
    (<PyObject**>((<char*><PyObject*>state) + offset))[0] = <PyObject*>value


cdef inline object new_state(
    const Slots* slots,
    object grill,
    object face_down,
    object stacks,
    object player,
    object phase,
    object in_hand,
    object roll,
    object set_aside,
    object parts,
    object layout,
):
    """``state.new_state``: a GameState with these fields (checked by ``read_slots``)."""
    state = PyType_GenericAlloc(slots.kind, 0)
    _put(state, slots.grill, grill)
    _put(state, slots.face_down, face_down)
    _put(state, slots.stacks, stacks)
    _put(state, slots.player, player)
    _put(state, slots.phase, phase)
    _put(state, slots.in_hand, in_hand)
    _put(state, slots.roll, roll)
    _put(state, slots.set_aside, set_aside)
    _put(state, slots.parts, parts)
    _put(state, slots.layout, layout)
    return state


cdef inline object with_phase(const Slots* slots, object state, object phase, object roll):
    """``state`` with another phase and roll (``state.replace(phase=..., roll=...)``)."""
    return new_state(
        slots,
        get(state, slots.grill), get(state, slots.face_down), get(state, slots.stacks),
        get(state, slots.player), phase, get(state, slots.in_hand), roll,
        get(state, slots.set_aside), get(state, slots.parts), get(state, slots.layout),
    )
