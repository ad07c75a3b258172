# cython: language_level=3
"""The compiled kernel: a declared mirror of the step machine and of the core's turn hooks.

Each function here has one pure twin, named in ``MIRRORS``: the steps of
``pickomino_rules._engine.steps`` (when the hooks run) and the busiest hooks of
``pickomino_rules.turn`` (what the base turn does). Nothing here is a rule of its own.
Where a composed hook is the core's own (``Rules.wrapped`` does not name it), a step calls
the hook's compiled twin directly; otherwise it calls the rules' hook, as the pure step does.

The four public transitions take every call on the rules' own states: legal moves (the
offered objects or equal ones), illegal ones (raising the pure engine's error, made by the same
function) and any ``random.Random``. What they cannot read (a state or rules of a subclass, a
state built by hand that holds something odd) they *decline*: hand to the pure twin before any
module's hook has run. When the pure twin then answers, that is a *fallback*: counted by
function (``fallbacks()``) and warned about once per function (``RuntimeWarning``), so a
kernel bug shows as a warning, never as a silent slow answer; over legal play the count stays
zero. Once a module's hook has run, a call is never handed over (the hook would run twice):
whatever is raised then is raised as the pure engine raises it.

The tests check the map (every pure step and core hook named, every twin present), play both
backends side by side, and compare every node of whole turns (docs page "Maintainers").
"""

from cpython.object cimport PyObject, PyTypeObject
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_INCREF
from cpython.buffer cimport (
    PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer,
)

from pickomino_rules.compiled_plugin cimport HookTwin, call, call1

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    object PyType_GenericAlloc(PyTypeObject* kind, Py_ssize_t items)
    PyTypeObject* Py_TYPE(object)
    Py_ssize_t PyTuple_GET_SIZE(object)
    PyObject* PyTuple_GET_ITEM(object, Py_ssize_t)
    double PyFloat_AS_DOUBLE(PyObject*)

import functools
import random
import warnings
from bisect import bisect_left, insort

from pickomino_rules import turn
from pickomino_rules._engine import observation, steps
from pickomino_rules._engine.explain import illegal
from pickomino_rules._engine.guards import ODD, check_arguments, failure
from pickomino_rules.actions import ROLL, STOP, TAKE, Roll, Steal, Stop, Take
from pickomino_rules.dice import FACES, NO_DICE_SET_ASIDE, Face, RollOutcome
from pickomino_rules.errors import PickominoError
from pickomino_rules.rules import Rules
from pickomino_rules.state import Claim, GameState, Phase

cdef object _ROLL = Phase.ROLL
cdef object _GAME_OVER = Phase.GAME_OVER
cdef object _CHOOSE = Phase.CHOOSE
cdef object _DECIDE = Phase.DECIDE
cdef object _TURN_OVER = Phase.TURN_OVER
cdef object _NO_DICE = NO_DICE_SET_ASIDE
cdef object _FACE = Face
cdef object _TAKE_KIND = Take
cdef object _ROLL_KIND = Roll
cdef object _STOP_KIND = Stop
cdef object _RANDOM = random.Random
cdef object _ROLL_OUTCOME = RollOutcome
cdef PyTypeObject* _STATE_TYPE = <PyTypeObject*>GameState
cdef object _GRILL_CLAIM = Claim.grill_tile
cdef object _STEAL = steps.steal  # shared, not mirrored: one Steal object per victim
cdef object _TAKES_HOW = steps.TAKES
cdef object _PENDING_HOW = steps.PENDING
cdef object _NOTHING_HOW = steps.NOTHING
cdef tuple _OFFERED = tuple(
    tuple(TAKE[face] for face in FACES if mask >> (face - 1) & 1) for mask in range(64)
)  # the takes of each set of faces (as bits, like ``RollOutcome.shown``), in face order
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
    # The one reference counted by hand, and why: attrs' frozen slots have no C setter, and
    # ``object.__setattr__`` per field would cost more than the whole step. Only
    # ``_new_state`` calls this, on a state just allocated (every slot NULL), so no old value
    # leaks; the new state owns the reference taken here and drops it when it dies.
    # tests/engine/test_memory_safety.py keeps states whose fields nothing else holds.
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
    """``state.new_state``: a GameState with these fields (checked at import, below)."""
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


cdef object _with_phase(object state, object phase, object roll):
    """``state`` with another phase and roll (``state.replace(phase=..., roll=...)``)."""
    return _new_state(
        _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS),
        _get(state, _PLAYER), phase, _get(state, _IN_HAND), roll,
        _get(state, _SET_ASIDE), _get(state, _PARTS), _get(state, _LAYOUT),
    )


_sample = ((21,), (), ((), (22,)), 1, _ROLL, (8,), None, _NO_DICE, (), None)
if GameState(*_sample) != _new_state(
    _sample[0], _sample[1], _sample[2], _sample[3], _sample[4],
    _sample[5], _sample[6], _sample[7], _sample[8], _sample[9],
):
    raise ImportError("GameState is not laid out as the kernel reads it")  # the pure engine runs


cdef Py_ssize_t _DECLINED = 0
cdef dict _FALLBACKS = {}
cdef Py_ssize_t _MODULE_CALLS = 0  # calls of modules' hooks: a call that made one is not handed over


cdef inline void _module_call():
    global _MODULE_CALLS
    _MODULE_CALLS += 1


cdef object _fell_back(str name, object pure, tuple arguments):
    """The pure twin's answer to a declined call; a fallback counted and warned about.

    When the pure twin raises, the input was bad (an illegal move, a wrong type): its error
    is the answer and nothing is counted.
    """
    global _DECLINED
    answer = pure(*arguments)
    _DECLINED += 1
    seen = _FALLBACKS.get(name, 0)
    _FALLBACKS[name] = seen + 1
    if not seen:
        warnings.warn(
            f"the compiled engine could not take a call of {name} that the pure engine "
            "answers; it ran on the pure engine (slower, same answer). Please report it "
            "with `pickomino info`.",
            RuntimeWarning,
            stacklevel=3,
        )
    return answer


cdef object _raise_as_pure(object rules, object state, object error, object move=None):
    """Raise what the pure twin raises for ``error`` (a hook failing, a state it cannot read)."""
    if isinstance(error, PickominoError) or not isinstance(error, ODD):
        raise error
    if move is not None:
        check_arguments(rules, state, move)
    raise failure(rules, state, error) from error


def declined():
    """How many calls the kernel has handed to a pure twin that answered them (fallbacks)."""
    return _DECLINED


def fallbacks():
    """The fallbacks of this process by function name (see ``declined``)."""
    return dict(_FALLBACKS)


def reset_declined():
    """Start counting fallbacks from zero (and warn again on the next one)."""
    global _DECLINED
    _DECLINED = 0
    _FALLBACKS.clear()


# -- what the kernel reads of one rules object ---------------------------------------------


DEF _GUIDE = 256  # stretches of a table's total: a draw bisects only its stretch's bounds


cdef class _Table:
    """What the kernel reads of one chance table: its bounds as C numbers, to bisect, and a
    guide: for each of ``_GUIDE`` equal stretches of the total, where its bounds begin."""

    cdef tuple outcomes
    cdef double* bounds
    cdef Py_ssize_t size
    cdef Py_ssize_t guide[_GUIDE + 1]
    cdef double scale  # _GUIDE / total
    cdef double total
    cdef object by_id
    cdef object has

    def __dealloc__(self):
        PyMem_Free(self.bounds)


cdef class View:
    """The kernel's view of one rules object: its hooks, and which are the core's own."""

    cdef readonly object rules
    cdef object layout
    cdef object chance_table
    cdef object dice
    cdef dict tables
    cdef object roll_actions, pending, set_aside, stop_total, claims
    cdef object take_tile, bust, end_turn, turn_dice, apply_action
    cdef object worms
    # A hook no module wraps is the core's own: the step calls its compiled twin directly.
    cdef readonly bint core_roll_actions, core_set_aside, core_stop_total, core_claims
    cdef readonly bint core_take_tile, core_bust
    cdef bint tidies_turn_end, deals_own_dice, ends_on_total, pending_by_parts

    cdef _Table table(self, object dice):
        found = self.tables.get(dice)
        if found is not None:
            return <_Table>found
        pure = self.chance_table(dice)
        cdef _Table table = _Table()
        table.outcomes = pure.outcomes
        table.size = len(pure.bounds)
        table.bounds = <double*>PyMem_Malloc(max(1, table.size) * sizeof(double))
        if table.bounds is NULL:
            raise MemoryError()
        for index in range(table.size):
            table.bounds[index] = pure.bounds[index]  # the table's own floats, exactly
        table.total = pure.total
        table.scale = _GUIDE / pure.total if pure.total > 0 else 0.0
        cdef Py_ssize_t bucket, at = 0
        for bucket in range(_GUIDE + 1):  # the first bound above each stretch's start
            while table.scale and at < table.size and table.bounds[at] <= bucket / table.scale:
                at += 1
            table.guide[bucket] = at if bucket < _GUIDE else table.size
        table.by_id = pure.by_id
        table.has = pure.has
        self.tables[dice] = table
        return table


cdef View _VIEW = None


cpdef View view(object rules):
    """The kernel's view of ``rules`` (the last one is kept: a program plays one game)."""
    global _VIEW
    cdef View seen = _VIEW
    if seen is not None and seen.rules is rules:
        return seen
    seen = View()
    seen.rules = rules
    seen.tables = {}
    seen.layout = rules.layout
    seen.dice = rules.components.dice
    seen.worms = rules.worms
    seen.chance_table = rules.chance_table
    seen.roll_actions = rules.roll_actions
    seen.pending = rules.pending_actions
    seen.set_aside = rules.set_aside
    seen.stop_total = rules.stop_total
    seen.claims = rules.claims
    seen.take_tile = rules.take_tile
    seen.bust = rules.bust
    seen.end_turn = rules.end_turn
    seen.turn_dice = rules.turn_dice
    seen.apply_action = rules.apply_action
    wrapped = rules.wrapped
    seen.core_roll_actions = "roll_actions" not in wrapped
    seen.core_set_aside = "set_aside" not in wrapped
    seen.core_stop_total = "stop_total" not in wrapped
    seen.core_claims = "claims" not in wrapped
    seen.core_take_tile = "take_tile" not in wrapped
    seen.core_bust = "bust" not in wrapped
    seen.tidies_turn_end = rules.tidies_turn_end
    seen.deals_own_dice = rules.deals_own_dice
    seen.ends_on_total = rules.ends_on_total
    seen.pending_by_parts = rules.pending_by_parts
    _VIEW = seen
    return seen


cdef View _taken(object rules, object state):
    """The view of ``rules`` when the kernel may take a call on ``state``, else None."""
    if Py_TYPE(state) is not _STATE_TYPE or type(rules) is not Rules:
        return None
    cdef View fast = view(rules)
    cdef PyObject* layout = (<PyObject**>((<char*><PyObject*>state) + _LAYOUT))[0]
    if layout is not <PyObject*>fast.layout:  # (an unset layout is NULL)
        return None
    return fast


cdef inline object _checked(object state):
    """``state`` if it is a GameState whose slots may be read by offset, else TypeError."""
    if Py_TYPE(state) is not _STATE_TYPE:
        raise TypeError("a hook returned something other than a GameState")
    return state


cdef object _DECLINE = object()
"""What a compiled step returns when the pure twin must answer the call."""


# -- the core's turn hooks: twins of ``turn``'s -----------------------------------------------


cdef inline long _item(object values, Py_ssize_t index) except? -1:
    return values[index]  # checked: a state built by hand may hold anything


cdef object _USED_COUNTS = None  # the last counts read, and their bits: a turn's states share them
cdef long _USED_BITS = 0


cdef long _used(object counts) except? -1:
    """The faces set aside, as bits (bit 0 for 1s ... bit 5 for worms); six counts or raise."""
    global _USED_COUNTS, _USED_BITS
    if counts is _USED_COUNTS:
        return _USED_BITS
    cdef long used = 0
    cdef Py_ssize_t index
    if type(counts) is not tuple or PyTuple_GET_SIZE(counts) != 6:
        raise ValueError("not six set-aside counts")
    for index in range(6):
        if _item(counts, index):
            used |= 1 << index
    _USED_COUNTS = counts  # (a tuple: immutable, so the bits stay right while it lives)
    _USED_BITS = used
    return used


cdef bint _any_dice(object in_hand) except -1:
    """``any(in_hand)``."""
    if type(in_hand) is not tuple:
        return any(in_hand)
    cdef Py_ssize_t index
    for index in range(PyTuple_GET_SIZE(in_hand)):
        if <object>PyTuple_GET_ITEM(in_hand, index):
            return True
    return False


cpdef object core_roll_actions(object state):
    """``turn.roll_actions``: one take per face shown that was not set aside earlier."""
    roll = _get(state, _ROLL_FIELD)
    if type(roll) is not _ROLL_OUTCOME:
        raise TypeError("no roll shown")
    return _OFFERED[roll.shown & ~_used(_get(state, _SET_ASIDE))]


cdef tuple _with(tuple counts, Py_ssize_t index, object count):
    """``counts`` (six of them) with ``count`` at ``index`` (0-5): a tuple Cython builds."""
    return (
        count if index == 0 else counts[0],
        count if index == 1 else counts[1],
        count if index == 2 else counts[2],
        count if index == 3 else counts[3],
        count if index == 4 else counts[4],
        count if index == 5 else counts[5],
    )


cpdef object core_set_aside(object state, object face):
    """``turn.set_aside``: move every die of the roll showing ``face`` to the set-aside dice."""
    roll = _get(state, _ROLL_FIELD)
    counts = _get(state, _SET_ASIDE)
    if type(roll) is not _ROLL_OUTCOME or type(face) is not _FACE:
        raise TypeError("no roll shown, or not a face")
    _used(counts)  # six counts, or raise
    index = face - 1
    return _new_state(
        _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS),
        _get(state, _PLAYER), _DECIDE, roll.remaining[index], None,
        _with(counts, index, roll.faces[index]), _get(state, _PARTS), _get(state, _LAYOUT),
    )


cpdef object core_stop_total(object state):
    """``turn.stop_total``: the total of the set-aside dice, or None without a worm."""
    counts = _get(state, _SET_ASIDE)
    _used(counts)  # six counts, or raise
    if not _item(counts, 5):
        return None
    return (
        _item(counts, 0)
        + 2 * _item(counts, 1)
        + 3 * _item(counts, 2)
        + 4 * _item(counts, 3)
        + 5 * (_item(counts, 4) + _item(counts, 5))
    )


cdef dict _GRILL_CLAIMS = {}


cdef inline object _grill_claim(object tile):
    """``Claim.grill_tile(tile)``: the shared claim of a grill tile (kept here too)."""
    found = _GRILL_CLAIMS.get(tile)
    if found is None:
        found = _GRILL_CLAIMS[tile] = _GRILL_CLAIM(tile)
    return found


cpdef object core_claims(object state, object total):
    """``turn.claims``: the exact grill tile; else the next lower one and exact top tiles."""
    grill = _get(state, _GRILL)
    if type(grill) is not tuple or type(total) is not int:
        raise TypeError("the grill is not a tuple, or the total not a number")
    at = bisect_left(grill, total)
    if at < len(grill) and grill[at] == total:
        return (_grill_claim(total),)
    found = [_grill_claim(grill[at - 1])] if at else []
    player = _get(state, _PLAYER)
    victim = 0
    for stack in _get(state, _STACKS):
        if stack and stack[-1] == total and victim != player:
            found.append(Claim(total, victim))
        victim += 1
    return tuple(found)


cpdef object core_take_tile(object state, object claim):
    """``turn.take_tile``: the claimed tile goes on top of the player's stack."""
    stacks = list(_get(state, _STACKS))
    grill = _get(state, _GRILL)
    if type(grill) is not tuple:
        raise TypeError("the grill is not a tuple")
    tile = claim.tile
    victim = claim.victim
    if victim is None:
        index = grill.index(tile)
        grill = grill[:index] + grill[index + 1 :]
    else:
        stacks[victim] = stacks[victim][:-1]
    player = _get(state, _PLAYER)
    stacks[player] = (*stacks[player], tile)
    return _new_state(
        grill, _get(state, _FACE_DOWN), tuple(stacks), player, _get(state, _PHASE),
        _get(state, _IN_HAND), _get(state, _ROLL_FIELD), _get(state, _SET_ASIDE),
        _get(state, _PARTS), _get(state, _LAYOUT),
    )


cpdef object core_bust(object state):
    """``turn.bust``: return the top tile; turn the highest grill tile unless it is that one."""
    player = _get(state, _PLAYER)
    stacks = _get(state, _STACKS)
    stack = stacks[player]
    if not stack:
        return state
    returned = stack[-1]
    stacks = list(stacks)
    stacks[player] = stack[:-1]
    grill = list(_get(state, _GRILL))
    insort(grill, returned)
    face_down = _get(state, _FACE_DOWN)
    if grill[-1] != returned:
        face_down = (*face_down, grill.pop())
    return _new_state(
        tuple(grill), face_down, tuple(stacks), player, _get(state, _PHASE),
        _get(state, _IN_HAND), _get(state, _ROLL_FIELD), _get(state, _SET_ASIDE),
        _get(state, _PARTS), _get(state, _LAYOUT),
    )


cpdef object core_turn_dice(object rules):
    """``turn.turn_dice``: all the dice."""
    return rules.components.dice


cpdef object core_pending_actions(object state):
    """``turn.pending_actions``: the core game leaves nothing pending."""
    return ()


cpdef object core_end_turn(object state):
    """``turn.end_turn``: nothing to tidy."""
    return state


cpdef object core_scores(object worms, object state):
    """``turn.scores``: the worms on the tiles of each player's stack (C13)."""
    totals = []
    for stack in <tuple?>_get(state, _STACKS):
        total = 0  # a Python int, as the pure twin sums: exact for any worms a variant gives
        for tile in <tuple?>stack:
            total += worms[tile]
        totals.append(total)
    return tuple(totals)


# The hooks as the rules see them: innermost in every chain under this backend (see
# ``pickomino_rules._engine``). Each is a compiled twin (``compiled_plugin.HookTwin``) wrapping
# its pure hook: a module's compiled twin calls it in C. Each takes the plain case and hands
# anything else to the pure hook, which answers (a fallback) or raises.


cdef class _CoreHook(HookTwin):
    """A core hook's compiled twin; ``inner`` is the pure hook it mirrors."""

    @property
    def __wrapped__(self):
        return self.inner

    def __repr__(self):
        return f"<compiled twin of turn.{self.inner.__name__}>"


cdef class _RollActions(_CoreHook):
    cdef object run(self, object rules, object state):
        if Py_TYPE(state) is _STATE_TYPE:
            try:
                return core_roll_actions(state)
            except Exception:
                pass
        return _fell_back("roll_actions", self.inner, (rules, state))


cdef class _SetAside(_CoreHook):
    cdef object run1(self, object rules, object state, object face):
        if Py_TYPE(state) is _STATE_TYPE:
            try:
                return core_set_aside(state, face)
            except Exception:
                pass
        return _fell_back("set_aside", self.inner, (rules, state, face))


cdef class _StopTotal(_CoreHook):
    cdef object run(self, object rules, object state):
        if Py_TYPE(state) is _STATE_TYPE:
            try:
                return core_stop_total(state)
            except Exception:
                pass
        return _fell_back("stop_total", self.inner, (rules, state))


cdef class _Claims(_CoreHook):
    cdef object run1(self, object rules, object state, object total):
        if Py_TYPE(state) is _STATE_TYPE:
            try:
                return core_claims(state, total)
            except Exception:
                pass
        return _fell_back("claims", self.inner, (rules, state, total))


cdef class _TakeTile(_CoreHook):
    cdef object run1(self, object rules, object state, object claim):
        if Py_TYPE(state) is _STATE_TYPE and type(claim) is Claim:
            try:
                return core_take_tile(state, claim)
            except Exception:
                pass
        return _fell_back("take_tile", self.inner, (rules, state, claim))


cdef class _Bust(_CoreHook):
    cdef object run(self, object rules, object state):
        if Py_TYPE(state) is _STATE_TYPE:
            try:
                return core_bust(state)
            except Exception:
                pass
        return _fell_back("bust", self.inner, (rules, state))


cdef class _TurnDice(_CoreHook):
    cdef object run(self, object rules, object state):
        if type(rules) is Rules:
            return view(rules).dice  # core_turn_dice, read from the view
        return _fell_back("turn_dice", self.inner, (rules, state))


cdef class _PendingActions(_CoreHook):
    cdef object run(self, object rules, object state):
        return core_pending_actions(state)


cdef class _EndTurn(_CoreHook):
    cdef object run(self, object rules, object state):
        return core_end_turn(state)


cdef class _Scores(_CoreHook):
    cdef object run(self, object rules, object state):
        if Py_TYPE(state) is _STATE_TYPE and type(rules) is Rules:
            try:
                return core_scores(view(rules).worms, state)
            except Exception:
                pass
        return _fell_back("scores", self.inner, (rules, state))


roll_actions = _RollActions(turn.roll_actions)
set_aside = _SetAside(turn.set_aside)
stop_total = _StopTotal(turn.stop_total)
claims = _Claims(turn.claims)
take_tile = _TakeTile(turn.take_tile)
bust = _Bust(turn.bust)
turn_dice = _TurnDice(turn.turn_dice)
pending_actions = _PendingActions(turn.pending_actions)
end_turn = _EndTurn(turn.end_turn)
scores = _Scores(turn.scores)


CORE_HOOKS = {
    "roll_actions": roll_actions,
    "set_aside": set_aside,
    "stop_total": stop_total,
    "claims": claims,
    "take_tile": take_tile,
    "bust": bust,
    "turn_dice": turn_dice,
    "pending_actions": pending_actions,
    "end_turn": end_turn,
    "scores": scores,
}
"""The hooks of ``turn`` that this backend puts innermost in every chain."""


# -- the composed hooks, called as the pure steps call them -----------------------------------


cdef inline object _roll_actions(View fast, object state):
    if fast.core_roll_actions:
        return core_roll_actions(state)
    _module_call()
    return call(fast.roll_actions, fast.rules, state)


cdef inline object _set_aside(View fast, object state, object face):
    if fast.core_set_aside:
        return core_set_aside(state, face)
    _module_call()
    return _checked(call1(fast.set_aside, fast.rules, state, face))


cdef inline object _stop_total(View fast, object state):
    if fast.core_stop_total:
        return core_stop_total(state)
    _module_call()
    return call(fast.stop_total, fast.rules, state)


cdef inline object _claims(View fast, object state, object total):
    if fast.core_claims:
        return core_claims(state, total)
    _module_call()
    return call1(fast.claims, fast.rules, state, total)


cdef inline object _take_tile(View fast, object state, object claim):
    if fast.core_take_tile:
        return core_take_tile(state, claim)
    _module_call()
    return _checked(call1(fast.take_tile, fast.rules, state, claim))


cdef inline object _bust(View fast, object state):
    if fast.core_bust:
        return core_bust(state)
    _module_call()
    return _checked(call(fast.bust, fast.rules, state))


# -- the step machine: twins of ``steps``' -----------------------------------------------------


cdef class Derived:
    """``steps.Derived``: what a decision state offers, and how it was found."""

    cdef readonly object rules, state, legal, how


cdef class Pending:
    """``steps.Pending``: the pending decisions found for one parts object."""

    cdef readonly object rules, parts, legal


cdef class Board:
    """``steps.Board``: the claims found on one board, by total."""

    cdef readonly object rules, grill, stacks, parts, face_down, player
    cdef readonly dict by_total


cdef Derived _LAST = Derived()
cdef Pending _SEEN_PARTS = Pending()
cdef Board _BOARD = Board()


cpdef Derived derive(View fast, object state):
    """``steps.derive``: the decisions ``state`` offers and how."""
    global _LAST
    legal = ()
    how = _PENDING_HOW
    if fast.pending is not None:
        legal = pending(fast, state)
    if not legal:
        phase = _get(state, _PHASE)
        if phase is _CHOOSE:
            legal = _roll_actions(fast, state)
            how = _TAKES_HOW
        elif phase is _DECIDE:
            total = _stop_total(fast, state)
            how = claims = () if total is None else claims_for(fast, state, total)
            legal = decide_actions(state, claims)
        else:
            how = _NOTHING_HOW
    cdef Derived derived = Derived()
    derived.rules = fast.rules
    derived.state = state
    derived.legal = legal
    derived.how = how
    _LAST = derived
    return derived


cpdef object pending(View fast, object state):
    """``steps.pending``: the pending decisions, remembered for the parts."""
    global _SEEN_PARTS
    if not fast.pending_by_parts:
        _module_call()
        return call(fast.pending, fast.rules, state)
    cdef Pending last = _SEEN_PARTS
    parts = _get(state, _PARTS)
    if last.parts is parts and last.rules is fast.rules:
        return last.legal
    _module_call()
    found = call(fast.pending, fast.rules, state)
    last = Pending()
    last.rules = fast.rules
    last.parts = parts
    last.legal = found
    _SEEN_PARTS = last
    return found


cpdef object claims_for(View fast, object state, object total):
    """``steps.claims_for``: the claims hook for ``total``, remembered for the board."""
    global _BOARD
    if not fast.ends_on_total:
        return _claims(fast, state, total)
    cdef Board board = _BOARD
    if (
        board.rules is not fast.rules
        or board.grill is not _get(state, _GRILL)
        or board.stacks is not _get(state, _STACKS)
        or board.parts is not _get(state, _PARTS)
        or board.face_down is not _get(state, _FACE_DOWN)
        or board.player != _get(state, _PLAYER)
    ):
        board = Board()
        board.rules = fast.rules
        board.grill = _get(state, _GRILL)
        board.stacks = _get(state, _STACKS)
        board.parts = _get(state, _PARTS)
        board.face_down = _get(state, _FACE_DOWN)
        board.player = _get(state, _PLAYER)
        board.by_total = {}
        _BOARD = board
    found = board.by_total.get(total)
    if found is None:
        found = board.by_total[total] = _claims(fast, state, total)
    return found


cpdef object claim_of_stop(object claims):
    """``steps.claim_of_stop``: the claim a plain stop takes, or None."""
    for claim in claims:
        if claim.victim is None:
            return claim
    return claims[0] if len(claims) == 1 else None


cpdef object decide_actions(object state, object claims):
    """``steps.decide_actions``: roll again while dice and faces remain; stop; steal."""
    can_roll = _used(_get(state, _SET_ASIDE)) != 63 and _any_dice(_get(state, _IN_HAND))
    if not claims or (len(claims) == 1 and claims[0].victim is None):
        return _ROLL_OR_STOP if can_roll else _STOP_ONLY
    actions = [ROLL] if can_roll else []
    if claim_of_stop(claims) is not None:
        actions.append(STOP)
    for claim in claims:
        if claim.victim is not None:
            actions.append(_STEAL(claim.victim))
    return tuple(actions)


cpdef object roll(View fast, object state, object move):
    """``steps.roll``: the dice show ``move``; a roll that offers nothing busts at once."""
    cdef _Table table = fast.table(_get(state, _IN_HAND))
    known = table.by_id.get(id(move))
    if known is not move and (type(move) is not _ROLL_OUTCOME or not table.has(move)):
        return _DECLINE  # not a roll of these dice: the pure twin raises its error
    return after_roll(fast, _with_phase(state, _CHOOSE, move))


cpdef object decide(View fast, object state, object move, object claims):
    """``steps.decide``: roll again, or stop or steal, a legal ``move``."""
    kind = type(move)
    if kind is _ROLL_KIND:
        return _with_phase(state, _ROLL, None)
    if kind is _STOP_KIND:
        claim = claim_of_stop(claims)
    else:
        victim = move.victim
        for claim in claims:
            if claim.victim == victim:
                break
        else:
            return _DECLINE
    if claim is None:
        return finish_turn(fast, _bust(fast, state))
    return finish_turn(fast, _take_tile(fast, state, claim))


cpdef object after_roll(View fast, object state):
    """``steps.after_roll``: a roll that offers nothing to do busts at once."""
    if derive(fast, state).legal:
        return state
    return finish_turn(fast, _bust(fast, state))


cpdef object settle(View fast, object state):
    """``steps.settle``: carry on after a module's action."""
    phase = _get(_checked(state), _PHASE)
    if phase is _TURN_OVER:
        return pass_dice(fast, state)
    if phase is _CHOOSE:
        return after_roll(fast, state)
    return state


cpdef object finish_turn(View fast, object state):
    """``steps.finish_turn``: tidy up (``end_turn``), then pass the dice on."""
    if fast.tidies_turn_end:
        _module_call()
        state = _checked(call(fast.end_turn, fast.rules, _with_phase(state, _TURN_OVER, None)))
    return pass_dice(fast, state)


cpdef object pass_dice(View fast, object state):
    """``steps.pass_dice``: wait for pending decisions, end the game or start a turn."""
    if fast.pending is not None and pending(fast, state):
        return state
    grill = _get(state, _GRILL)
    if not grill:
        return _new_state(
            grill, _get(state, _FACE_DOWN), _get(state, _STACKS), _get(state, _PLAYER),
            _GAME_OVER, (), None, _NO_DICE, _get(state, _PARTS), _get(state, _LAYOUT),
        )
    return start_turn(fast, state, (_get(state, _PLAYER) + 1) % len(_get(state, _STACKS)))


cpdef object start_turn(View fast, object state, object player):
    """``steps.start_turn``: the chance node that starts ``player``'s turn."""
    fresh = _new_state(
        _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS), player, _ROLL,
        fast.dice, None, _NO_DICE, _get(state, _PARTS), _get(state, _LAYOUT),
    )
    if not fast.deals_own_dice:
        return fresh
    _module_call()
    dice = call(fast.turn_dice, fast.rules, fresh)
    if dice is fast.dice or dice == fast.dice:
        return fresh
    return _new_state(
        _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS), player, _ROLL,
        dice, None, _NO_DICE, _get(state, _PARTS), _get(state, _LAYOUT),
    )


cdef object _legal_actions(View fast, object state):
    """``steps.legal_actions`` past its guards."""
    if _get(state, _PHASE) is _ROLL:
        return fast.table(_get(state, _IN_HAND)).outcomes
    cdef Derived last = _LAST
    if last.state is state and last.rules is fast.rules:
        return last.legal
    return derive(fast, state).legal


cdef object _apply(View fast, object state, object move):
    """``steps.apply`` past its guards; only the offered moves themselves."""
    phase = _get(state, _PHASE)
    if phase is _ROLL:
        return roll(fast, state, move)
    cdef Derived last = _LAST
    if last.state is not state or last.rules is not fast.rules:
        last = derive(fast, state)
    for action in last.legal:
        if action is move:
            break
    else:
        if move not in last.legal:  # the hooks have run: the error is raised here
            raise illegal(fast.rules, state, move, last.legal)
        move = last.legal[last.legal.index(move)]  # the offered object itself
    how = last.how
    if how is _TAKES_HOW and type(move) is _TAKE_KIND:
        after = _set_aside(fast, state, move.face)
        return after if _get(after, _PHASE) is _DECIDE else settle(fast, after)
    if how is _TAKES_HOW or how is _PENDING_HOW:  # a module's action
        _module_call()
        return settle(fast, call1(fast.apply_action, fast.rules, state, move))
    return decide(fast, state, move, how)


cdef object _stop_claims(View fast, object state):
    """``steps.stop_claims`` past its guards."""
    cdef Derived last = _LAST
    if last.state is state and last.rules is fast.rules and type(last.how) is tuple:
        return last.how
    total = _stop_total(fast, state)
    return () if total is None else claims_for(fast, state, total)


cdef object _stop_outcomes(View fast, object state):
    """``steps.stop_outcomes`` past its guards (declined outside a stop: the pure one raises)."""
    if _get(state, _PHASE) is not _DECIDE or derive(fast, state).how is _PENDING_HOW:
        return _DECLINE
    claims = _stop_claims(fast, state)
    if not claims:
        return ((STOP, finish_turn(fast, _bust(fast, state))),)
    ends = []
    chosen = claim_of_stop(claims)
    for claim in claims:
        end = finish_turn(fast, _take_tile(fast, state, claim))
        if claim is chosen:
            ends.append((STOP, end))
        if claim.victim is not None:
            ends.append((_STEAL(claim.victim), end))
    return tuple(ends)


cdef object _sample_chance(View fast, object state, object rng):
    """``steps.sample_chance`` past its guards: one draw, bisected in C."""
    if _get(state, _PHASE) is not _ROLL or not isinstance(rng, _RANDOM):
        return _DECLINE
    cdef _Table table = fast.table(_get(state, _IN_HAND))
    cdef double drawn = rng.random() * table.total
    cdef double* bounds = table.bounds
    # bisect_right(bounds, drawn), started from the guide's stretch of the bounds
    cdef Py_ssize_t bucket = <Py_ssize_t>(drawn * table.scale)
    if bucket < 0:
        bucket = 0
    elif bucket >= _GUIDE:
        bucket = _GUIDE - 1
    cdef Py_ssize_t low = table.guide[bucket], high = table.guide[bucket + 1], middle
    while low > 0 and bounds[low - 1] > drawn:  # (rounding at a bucket's edge: widen)
        low -= 1
    while high < table.size and bounds[high] <= drawn:
        high += 1
    while low < high:  # bisect_right
        middle = (low + high) // 2
        if drawn < bounds[middle]:
            high = middle
        else:
            low = middle + 1
    return table.outcomes[low]


# -- the public transitions: the functions ``game`` offers under this backend ---------------


def legal_actions(rules, state):
    cdef View fast = _taken(rules, state)
    cdef Py_ssize_t calls = _MODULE_CALLS
    if fast is not None:
        try:
            return _legal_actions(fast, state)
        except Exception as error:
            if _MODULE_CALLS != calls:
                _raise_as_pure(rules, state, error)
    return _fell_back("legal_actions", steps.legal_actions, (rules, state))


def apply(rules, state, move):
    cdef View fast = _taken(rules, state)
    cdef Py_ssize_t calls = _MODULE_CALLS
    if fast is not None:
        try:
            after = _apply(fast, state, move)
        except Exception as error:
            if _MODULE_CALLS != calls or isinstance(error, PickominoError):
                _raise_as_pure(rules, state, error, move)
            after = _DECLINE
        if after is not _DECLINE:
            return after
    return _fell_back("apply", steps.apply, (rules, state, move))


def sample_chance(rules, state, rng):
    cdef View fast = _taken(rules, state)
    if fast is not None:
        try:
            drawn = _sample_chance(fast, state, rng)
        except Exception:
            drawn = _DECLINE  # raised before drawing: rng is as it was
        if drawn is not _DECLINE:
            return drawn
    return _fell_back("sample_chance", steps.sample_chance, (rules, state, rng))


def stop_claims(rules, state):
    cdef View fast = _taken(rules, state)
    cdef Py_ssize_t calls = _MODULE_CALLS
    if fast is not None:
        try:
            return _stop_claims(fast, state)
        except Exception as error:
            if _MODULE_CALLS != calls:
                _raise_as_pure(rules, state, error)
    return _fell_back("stop_claims", steps.stop_claims, (rules, state))


def stop_outcomes(rules, state):
    cdef View fast = _taken(rules, state)
    cdef Py_ssize_t calls = _MODULE_CALLS
    if fast is not None:
        try:
            found = _stop_outcomes(fast, state)
        except Exception as error:
            if _MODULE_CALLS != calls or isinstance(error, PickominoError):
                _raise_as_pure(rules, state, error)
            found = _DECLINE
        if found is not _DECLINE:
            return found
    return _fell_back("stop_outcomes", steps.stop_outcomes, (rules, state))


# -- the numeric encoding's observation and mask (``observation``), into numpy's buffers ----

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
    cdef bint plain = Py_TYPE(state) is _STATE_TYPE  # (its fields read in C)
    grill = _get(state, _GRILL) if plain else state.grill
    face_down = _get(state, _FACE_DOWN) if plain else state.face_down
    stacks = _get(state, _STACKS) if plain else state.stacks
    phase = _get(state, _PHASE) if plain else state.phase
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
        mover = _get(state, _PLAYER) if plain else state.player
        _put_float(buffer, at.to_move + (<Py_ssize_t>mover - me) % n, 1.0)
    _put_float(buffer, at.phase + _phase_slot(phase), 1.0)
    start = at.in_hand
    for dice in (_get(state, _IN_HAND) if plain else state.in_hand):
        _put_float(buffer, start, _number(dice))
        start += 1
    rolled = _get(state, _ROLL_FIELD) if plain else state.roll
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
    for dice in (_get(state, _SET_ASIDE) if plain else state.set_aside):
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
    parts = _get(state, _PARTS) if plain else state.parts
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
    "legal_actions": steps.legal_actions,
    "apply": steps.apply,
    "sample_chance": steps.sample_chance,
    "stop_claims": steps.stop_claims,
    "stop_outcomes": steps.stop_outcomes,
    "derive": steps.derive,
    "pending": steps.pending,
    "claims_for": steps.claims_for,
    "claim_of_stop": steps.claim_of_stop,
    "decide_actions": steps.decide_actions,
    "roll": steps.roll,
    "decide": steps.decide,
    "after_roll": steps.after_roll,
    "settle": steps.settle,
    "finish_turn": steps.finish_turn,
    "pass_dice": steps.pass_dice,
    "start_turn": steps.start_turn,
    "Derived": steps.Derived,
    "Pending": steps.Pending,
    "Board": steps.Board,
    "roll_actions": turn.roll_actions,
    "set_aside": turn.set_aside,
    "stop_total": turn.stop_total,
    "claims": turn.claims,
    "take_tile": turn.take_tile,
    "bust": turn.bust,
    "core_roll_actions": turn.roll_actions,
    "core_set_aside": turn.set_aside,
    "core_stop_total": turn.stop_total,
    "core_claims": turn.claims,
    "core_take_tile": turn.take_tile,
    "core_bust": turn.bust,
    "turn_dice": turn.turn_dice,
    "pending_actions": turn.pending_actions,
    "end_turn": turn.end_turn,
    "core_turn_dice": turn.turn_dice,
    "core_pending_actions": turn.pending_actions,
    "core_end_turn": turn.end_turn,
    "scores": turn.scores,
    "core_scores": turn.scores,
    "observe_into": observation.observe_into,
    "mask_into": observation.mask_into,
}
"""Each compiled function or record of this module, by name, and its pure twin."""

SHARED = {"steal": steps.steal}
"""Pure functions the kernel calls rather than mirrors (no rule in them)."""

for _name in ("legal_actions", "apply", "sample_chance", "stop_claims", "stop_outcomes"):
    functools.update_wrapper(globals()[_name], MIRRORS[_name])  # docs and __wrapped__: the twin
