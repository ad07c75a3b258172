# cython: language_level=3
"""The engine's hot path compiled, for rules whose turn hooks are all the core's.

Chance nodes (the rolls offered, a roll drawn, the roll shown) involve no hook, so those
calls are taken for the rules of any variant; what a roll then offers is the hooks' to say.

``game`` swaps these in for its ``legal_actions``, ``apply``, ``sample_chance`` and
``stop_claims`` when the extension was built (see ``game._use_compiled``). Each one
handles only the common, legal case of rules with the core's own turn (classic without
options, for one): plain dice, ``Take``/``Roll``/``Stop``/``Steal`` as offered. Anything
else (other rules, a wrong type, an illegal move, an equal but not identical move) goes
to the pure-Python function it stands for, which is the reference and raises its errors.
``tests/test_speedups.py`` plays both side by side and checks that every state is equal.

The end of a turn is a copy of ``fused.end_turn``, checked against it by the same tests.
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
    Py_ssize_t PyTuple_GET_SIZE(object)
    PyObject* PyTuple_GET_ITEM(object, Py_ssize_t)
    void PyTuple_SET_ITEM(object, Py_ssize_t, object)
    object PyTuple_New(Py_ssize_t)
    double PyFloat_AS_DOUBLE(PyObject*)

import random

from pickomino_rules import turn
from pickomino_rules.actions import ROLL, STOP, TAKE, Steal
from pickomino_rules.dice import FACES, NO_DICE_SET_ASIDE, RollOutcome
from pickomino_rules.rules import Rules
from pickomino_rules.state import Claim, GameState, Phase

cdef object _ROLL = Phase.ROLL
cdef object _GAME_OVER = Phase.GAME_OVER
cdef object _CHOOSE = Phase.CHOOSE
cdef object _DECIDE = Phase.DECIDE
cdef object _ROLL_ACTION = ROLL
cdef object _STOP_ACTION = STOP
cdef object _NO_DICE = NO_DICE_SET_ASIDE
cdef object _STEAL = Steal
cdef object _RANDOM = random.Random
cdef PyTypeObject* _STATE_TYPE = <PyTypeObject*>GameState
cdef object _GRILL_CLAIM = Claim.grill_tile
cdef tuple _TAKES = tuple(TAKE[face] for face in FACES)
cdef tuple _OFFERED = turn._OFFERED
cdef tuple _ROLL_OR_STOP = (ROLL, STOP)
cdef tuple _STOP_ONLY = (STOP,)

# Where each of GameState's slots lies in the object: states are read and built by offset.
cdef Py_ssize_t _GRILL, _FACE_DOWN, _STACKS, _PLAYER, _PHASE, _IN_HAND, _ROLL_FIELD
cdef Py_ssize_t _SET_ASIDE, _PARTS, _LAYOUT


cdef Py_ssize_t _offset(str name) except -1:
    descriptor = GameState.__dict__[name]
    if type(descriptor).__name__ != "member_descriptor":
        raise TypeError(f"GameState.{name} is not a slot")
    return (<PyMemberDescrObject*>descriptor).d_member.offset


_GRILL = _offset("grill")
_FACE_DOWN = _offset("face_down")
_STACKS = _offset("stacks")
_PLAYER = _offset("player")
_PHASE = _offset("phase")
_IN_HAND = _offset("in_hand")
_ROLL_FIELD = _offset("roll")
_SET_ASIDE = _offset("set_aside")
_PARTS = _offset("parts")
_LAYOUT = _offset("layout")


cdef inline object _get(object state, Py_ssize_t offset):
    cdef PyObject* value = (<PyObject**>((<char*><PyObject*>state) + offset))[0]
    if value is NULL:  # a state made with GameState.__new__ and never filled in
        raise AttributeError("a field of the state is not set")
    return <object>value


cdef inline void _put(object state, Py_ssize_t offset, object value):
    Py_INCREF(value)
    (<PyObject**>((<char*><PyObject*>state) + offset))[0] = <PyObject*>value


cdef object _new_state(
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
    """A GameState with these fields, as ``GameState(...)`` builds it (checked at import)."""
    state = PyType_GenericAlloc(_STATE_TYPE, 0)
    _put(state, _GRILL, grill)
    _put(state, _FACE_DOWN, face_down)
    _put(state, _STACKS, stacks)
    _put(state, _PLAYER, player)
    _put(state, _PHASE, phase)
    _put(state, _IN_HAND, in_hand)
    _put(state, _ROLL_FIELD, roll)
    _put(state, _SET_ASIDE, set_aside)
    _put(state, _PARTS, parts)
    _put(state, _LAYOUT, layout)
    return state


cdef class _Table:
    """What the hot path reads of one chance table."""

    cdef tuple outcomes
    cdef tuple bounds
    cdef double total
    cdef object by_id


cdef class _Fast:
    """What the hot path needs of one rules object, and what it may take of its calls."""

    cdef object rules
    cdef bint chance  # rules of this library: the chance nodes (no hook takes part in them)
    cdef bint fast  # and all turn hooks the core's: every step
    cdef object layout
    cdef object chance_table
    cdef object dice
    cdef dict tables

    cdef _Table table(self, object dice):
        found = self.tables.get(dice)
        if found is not None:
            return <_Table>found
        pure = self.chance_table(dice)
        cdef _Table table = _Table()
        table.outcomes = pure.outcomes
        table.bounds = pure.bounds
        table.total = pure.total
        table.by_id = pure.by_id
        self.tables[dice] = table
        return table


cdef _Fast _LAST = _Fast()


cdef _Fast _fast(object rules):
    """The hot path's view of ``rules`` (the last one is kept: a program plays one game)."""
    global _LAST
    cdef _Fast seen = _LAST
    if seen.rules is rules:
        return seen
    seen = _Fast()
    seen.rules = rules
    seen.tables = {}
    seen.chance = type(rules) is Rules
    seen.fast = (
        seen.chance
        and rules.default_ends
        and rules.roll_actions is turn.roll_actions
        and rules.set_aside is turn.set_aside
        and rules.stop_total is turn.stop_total
        and rules.claims is turn.claims
    )
    if seen.chance:
        seen.layout = rules.layout
        seen.dice = rules.components.dice
        seen.chance_table = rules.chance_table
    _LAST = seen
    return seen


cdef inline long _item(object values, Py_ssize_t index) except? -1:
    return values[index]  # checked: a state built by hand may hold anything


cdef long _used(object counts) except? -1:
    """The faces set aside, as bits (bit 0 for 1s ... bit 5 for worms)."""
    cdef long used = 0
    cdef Py_ssize_t index
    for index in range(6):
        if _item(counts, index):
            used |= 1 << index
    return used


cdef long _total(object counts) except? -1:
    return (
        _item(counts, 0)
        + 2 * _item(counts, 1)
        + 3 * _item(counts, 2)
        + 4 * _item(counts, 3)
        + 5 * (_item(counts, 4) + _item(counts, 5))
    )


cdef tuple _claims(object state):
    """C7, C8 (the core's ``stop_total`` and ``claims``): what stopping now takes."""
    counts = _get(state, _SET_ASIDE)
    if not _item(counts, 5):
        return ()
    cdef long total = _total(counts)
    grill = _get(state, _GRILL)
    cdef Py_ssize_t size = len(grill)
    cdef Py_ssize_t at = 0
    while at < size and _item(grill, at) < total:
        at += 1
    if at < size and _item(grill, at) == total:
        return (_GRILL_CLAIM(total),)
    found = [_GRILL_CLAIM(grill[at - 1])] if at else []
    player = _get(state, _PLAYER)
    cdef Py_ssize_t victim = 0
    for stack in _get(state, _STACKS):
        if stack and stack[-1] == total and victim != player:
            found.append(Claim(total, victim))
        victim += 1
    return tuple(found)


cdef bint _can_roll(object state) except -1:
    """C6: a face is still free and dice are left to roll."""
    return _used(_get(state, _SET_ASIDE)) != 63 and any(_get(state, _IN_HAND))


cdef object _end_turn(_Fast rules, object state, object claim):
    """C8-C12 as ``fused.end_turn``: take ``claim`` (None: bust), then pass the dice on.

    A copy in C of that function: a Python call from here costs a tenth of classic's step.
    """
    cdef long player = _get(state, _PLAYER)
    stacks = _get(state, _STACKS)
    grill = _get(state, _GRILL)
    face_down = _get(state, _FACE_DOWN)
    if claim is None:
        stack = stacks[player]
        if stack:
            returned = stack[-1]
            stacks = (*stacks[:player], stack[:-1], *stacks[player + 1 :])
            turned = sorted((*grill, returned))
            if turned[-1] != returned:
                face_down = (*face_down, turned.pop())
            grill = tuple(turned)
    else:
        tile = claim.tile
        victim = claim.victim
        if victim is None:
            index = grill.index(tile)
            grill = grill[:index] + grill[index + 1 :]
        else:
            listed = list(stacks)
            listed[victim] = stacks[victim][:-1]
            stacks = tuple(listed)
        stacks = (*stacks[:player], (*stacks[player], tile), *stacks[player + 1 :])
    if not grill:
        return _new_state(
            grill, face_down, stacks, player, _GAME_OVER, (), None, _NO_DICE,
            _get(state, _PARTS), _get(state, _LAYOUT),
        )
    return _new_state(
        grill, face_down, stacks, (player + 1) % len(stacks), _ROLL, rules.dice, None, _NO_DICE,
        _get(state, _PARTS), _get(state, _LAYOUT),
    )


cdef object _PURE_LEGAL = None
cdef object _PURE_APPLY = None
cdef object _PURE_SAMPLE = None
cdef object _PURE_CLAIMS = None
cdef object _PURE_DECIDE_ACTIONS = None
cdef object _PURE_AFTER_ROLL = None
cdef object _STOP_CLAIM = None


cdef _Fast _taken(object rules, object state):
    """The rules' view when the hot path may take this call, else None."""
    if Py_TYPE(state) is not _STATE_TYPE:
        return None
    cdef _Fast fast = _fast(rules)
    cdef PyObject* layout = (<PyObject**>((<char*><PyObject*>state) + _LAYOUT))[0]
    if not fast.chance or layout is not <PyObject*>fast.layout:  # (an unset layout is NULL)
        return None
    return fast


cdef object _DECLINE = object()
"""What a compiled step returns when the pure function must answer the call."""


cdef object _legal_actions(_Fast fast, object state):
    phase = _get(state, _PHASE)
    if phase is _ROLL:
        return fast.table(_get(state, _IN_HAND)).outcomes
    if not fast.fast:
        return _DECLINE
    if phase is _CHOOSE:
        roll = _get(state, _ROLL_FIELD)
        if type(roll) is not RollOutcome:
            return _DECLINE
        return _OFFERED[roll.shown & ~_used(_get(state, _SET_ASIDE))]
    if phase is _DECIDE:
        claims = _claims(state)
        if not claims or (len(claims) == 1 and claims[0].victim is None):
            return _ROLL_OR_STOP if _can_roll(state) else _STOP_ONLY
        return _PURE_DECIDE_ACTIONS(state, claims)
    return _DECLINE


cdef object _sample_chance(_Fast fast, object state, object rng):
    if _get(state, _PHASE) is not _ROLL or type(rng) is not _RANDOM:
        return _DECLINE
    cdef _Table table = fast.table(_get(state, _IN_HAND))
    cdef double drawn = rng.random() * table.total
    cdef tuple bounds = table.bounds  # the table's own: a tuple of floats
    cdef Py_ssize_t low = 0, high = PyTuple_GET_SIZE(bounds), middle
    while low < high:  # bisect_right
        middle = (low + high) // 2
        if drawn < PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(bounds, middle)):
            high = middle
        else:
            low = middle + 1
    return table.outcomes[low]


cdef object _apply(_Fast fast, object state, object move):
    phase = _get(state, _PHASE)
    if phase is not _ROLL and not fast.fast:
        return _DECLINE  # at decisions the rules' hooks have their say
    if phase is _ROLL:
        known = fast.table(_get(state, _IN_HAND)).by_id.get(id(move))
        if known is None or known is not move:  # not one of the table's own rolls
            return _DECLINE
        shown = _new_state(
            _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS),
            _get(state, _PLAYER), _CHOOSE, _get(state, _IN_HAND), move,
            _get(state, _SET_ASIDE), _get(state, _PARTS), _get(state, _LAYOUT),
        )
        if not fast.fast:
            return _PURE_AFTER_ROLL(fast.rules, shown)  # the hooks say what the roll offers
        if move.shown & ~_used(_get(state, _SET_ASIDE)):
            return shown
        return _end_turn(fast, shown, None)  # C5: nothing to set aside
    if phase is _CHOOSE:
        return _take(state, move)
    if phase is _DECIDE:
        if move is _ROLL_ACTION:
            if not _can_roll(state):
                return _DECLINE
            return _new_state(
                _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS),
                _get(state, _PLAYER), _ROLL, _get(state, _IN_HAND), None,
                _get(state, _SET_ASIDE), _get(state, _PARTS), _get(state, _LAYOUT),
            )
        claims = _claims(state)
        if move is _STOP_ACTION:
            claim = _STOP_CLAIM(claims)
            if claim is None and claims:  # only steals: a plain stop is not legal
                return _DECLINE
            return _end_turn(fast, state, claim)
        if type(move) is _STEAL:
            for claim in claims:
                if claim.victim is not None and claim.victim == move.victim:
                    return _end_turn(fast, state, claim)
    return _DECLINE


cdef object _take(object state, object move):
    """C4 (the core's ``set_aside``): set aside the dice of the face ``move`` takes."""
    cdef long index
    cdef Py_ssize_t position
    for index in range(6):
        if _TAKES[index] is move:
            break
    else:
        return _DECLINE
    roll = _get(state, _ROLL_FIELD)
    counts = _get(state, _SET_ASIDE)
    if type(roll) is not RollOutcome or type(counts) is not tuple or len(counts) != 6:
        return _DECLINE
    if not (roll.shown & ~_used(counts)) >> index & 1:
        return _DECLINE  # the face is not shown, or was set aside before
    aside = PyTuple_New(6)
    for position in range(6):
        count = roll.faces[index] if position == index else <object>PyTuple_GET_ITEM(counts, position)
        Py_INCREF(count)  # PyTuple_SET_ITEM takes the reference
        PyTuple_SET_ITEM(aside, position, count)
    return _new_state(
        _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS),
        _get(state, _PLAYER), _DECIDE, roll.remaining[index], None, aside,
        _get(state, _PARTS), _get(state, _LAYOUT),
    )


# The functions game swaps in. A call the compiled step declines, or one it cannot
# finish (a state built by hand may hold anything), goes to the pure function, which
# answers it or raises its own error: the compiled path never raises one of its own.


def legal_actions(rules, state):
    cdef _Fast fast = _taken(rules, state)
    if fast is None:
        return _PURE_LEGAL(rules, state)
    try:
        offered = _legal_actions(fast, state)
    except Exception:
        offered = _DECLINE
    return _PURE_LEGAL(rules, state) if offered is _DECLINE else offered


def stop_claims(rules, state):
    cdef _Fast fast = _taken(rules, state)
    if fast is None or not fast.fast:
        return _PURE_CLAIMS(rules, state)
    try:
        claims = _claims(state)
    except Exception:
        claims = _DECLINE
    return _PURE_CLAIMS(rules, state) if claims is _DECLINE else claims


def sample_chance(rules, state, rng):
    cdef _Fast fast = _taken(rules, state)
    if fast is None:
        return _PURE_SAMPLE(rules, state, rng)
    try:
        drawn = _sample_chance(fast, state, rng)
    except Exception:
        drawn = _DECLINE  # raised before drawing: rng is as it was
    return _PURE_SAMPLE(rules, state, rng) if drawn is _DECLINE else drawn


def apply(rules, state, move):
    cdef _Fast fast = _taken(rules, state)
    if fast is None:
        return _PURE_APPLY(rules, state, move)
    try:
        after = _apply(fast, state, move)
    except Exception:
        after = _DECLINE
    return _PURE_APPLY(rules, state, move) if after is _DECLINE else after


def takes(rules):
    """Whether the compiled functions take the calls of ``rules`` (their turn hooks are the core's)."""
    return bool(_fast(rules).fast)


def bind(
    pure_legal, pure_apply, pure_sample, pure_claims, pure_decide_actions, pure_after_roll, stop_claim
):
    """Give the compiled functions their pure-Python references; True when they are sound.

    They are sound when a state built here equals the one ``GameState(...)`` builds. The
    first references given stay (a second import of ``game``, as doctests make, changes
    nothing).
    """
    global _PURE_LEGAL, _PURE_APPLY, _PURE_SAMPLE, _PURE_CLAIMS, _PURE_DECIDE_ACTIONS
    global _PURE_AFTER_ROLL, _STOP_CLAIM
    if _PURE_APPLY is not None:
        return True
    cdef tuple fields = ((21,), (), ((), (22,)), 1, _ROLL, (8,), None, _NO_DICE, (), None)
    built = _new_state(
        fields[0], fields[1], fields[2], fields[3], fields[4],
        fields[5], fields[6], fields[7], fields[8], fields[9],
    )
    if type(built) is not GameState or built != GameState(*fields):
        return False
    _PURE_LEGAL = pure_legal
    _PURE_APPLY = pure_apply
    _PURE_SAMPLE = pure_sample
    _PURE_CLAIMS = pure_claims
    _PURE_DECIDE_ACTIONS = pure_decide_actions
    _PURE_AFTER_ROLL = pure_after_roll
    _STOP_CLAIM = stop_claim
    return True
