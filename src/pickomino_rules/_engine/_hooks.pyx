# cython: language_level=3
"""The core's turn hooks, compiled: a declared mirror of ``pickomino_rules.turn``'s hooks.

Each ``core_*`` function is one hook of ``turn`` (what the base turn does) on a GameState
read by offset; the kernel's steps call them directly where no module wraps the hook. Each
is also put innermost in every chain under the compiled backend (``CORE_HOOKS``), as a
compiled twin (``compiled_plugin.HookTwin``) wrapping its pure hook: it takes the plain case
and hands anything else to the pure hook, which answers (a counted fallback) or raises.
``MIRRORS`` names the pure twin of each; nothing here is a rule of its own.
"""

from cpython.object cimport PyObject

from libc.stdint cimport int64_t

from pickomino_rules._engine._boundary cimport fell_back, view
from pickomino_rules._engine.rows cimport offered_faces, stop_points
from pickomino_rules._engine.states cimport Slots, get, new_state, plain, read_slots
from pickomino_rules.compiled_plugin cimport HookTwin

cdef extern from "Python.h":
    Py_ssize_t PyTuple_GET_SIZE(object)
    PyObject* PyTuple_GET_ITEM(object, Py_ssize_t)

from bisect import bisect_left, insort

from pickomino_rules import turn
from pickomino_rules.actions import TAKE
from pickomino_rules.dice import FACES, Face, RollOutcome
from pickomino_rules.rules import Rules
from pickomino_rules.state import Claim, Phase

cdef Slots S
read_slots(&S)

cdef object _DECIDE = Phase.DECIDE
cdef object _FACE = Face
cdef object _ROLL_OUTCOME = RollOutcome
cdef object _GRILL_CLAIM = Claim.grill_tile
cdef int64_t _POINTS[6]  # each face's points (C7), read from the faces themselves
for _at, _face in enumerate(FACES):
    _POINTS[_at] = _face.points
cdef tuple _OFFERED = tuple(
    tuple(TAKE[face] for face in FACES if mask >> (face - 1) & 1) for mask in range(64)
)  # the takes of each set of faces (as bits, like ``RollOutcome.shown``), in face order


cdef object takes_of(int bits):
    """The takes of a set of faces (bits 0-5), the shared tuples ``core_roll_actions`` gives."""
    return _OFFERED[bits]


cdef inline long _item(object values, Py_ssize_t index) except? -1:
    return values[index]  # checked: a state built by hand may hold anything


cdef object _USED_COUNTS = None  # the last counts read, and their bits: a turn's states share them
cdef long _USED_BITS = 0


cdef long used(object counts) except? -1:
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


cdef bint any_dice(object in_hand) except -1:
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
    roll = get(state, S.roll)
    if type(roll) is not _ROLL_OUTCOME:
        raise TypeError("no roll shown")
    return _OFFERED[offered_faces(roll.shown, used(get(state, S.set_aside)))]


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
    roll = get(state, S.roll)
    counts = get(state, S.set_aside)
    if type(roll) is not _ROLL_OUTCOME or type(face) is not _FACE:
        raise TypeError("no roll shown, or not a face")
    used(counts)  # six counts, or raise
    index = face - 1
    return new_state(
        &S,
        get(state, S.grill), get(state, S.face_down), get(state, S.stacks),
        get(state, S.player), _DECIDE, roll.remaining[index], None,
        _with(counts, index, roll.faces[index]), get(state, S.parts), get(state, S.layout),
    )


cpdef object core_stop_total(object state):
    """``turn.stop_total``: the total of the set-aside dice, or None without a worm."""
    values = get(state, S.set_aside)
    used(values)  # six counts, or raise
    cdef int64_t total, counts[6]
    cdef Py_ssize_t index
    for index in range(6):
        counts[index] = _item(values, index)
    return total if stop_points(counts, _POINTS, &total) else None


cdef dict _GRILL_CLAIMS = {}


cdef inline object _grill_claim(object tile):
    """``Claim.grill_tile(tile)``: the shared claim of a grill tile (kept here too)."""
    found = _GRILL_CLAIMS.get(tile)
    if found is None:
        found = _GRILL_CLAIMS[tile] = _GRILL_CLAIM(tile)
    return found


cpdef object core_claims(object state, object total):
    """``turn.claims``: the exact grill tile; else the next lower one and exact top tiles."""
    grill = get(state, S.grill)
    if type(grill) is not tuple or type(total) is not int:
        raise TypeError("the grill is not a tuple, or the total not a number")
    at = bisect_left(grill, total)
    if at < len(grill) and grill[at] == total:
        return (_grill_claim(total),)
    found = [_grill_claim(grill[at - 1])] if at else []
    player = get(state, S.player)
    victim = 0
    for stack in get(state, S.stacks):
        if stack and stack[-1] == total and victim != player:
            found.append(Claim(total, victim))
        victim += 1
    return tuple(found)


cpdef object core_take_tile(object state, object claim):
    """``turn.take_tile``: the claimed tile goes on top of the player's stack."""
    stacks = list(get(state, S.stacks))
    grill = get(state, S.grill)
    if type(grill) is not tuple:
        raise TypeError("the grill is not a tuple")
    tile = claim.tile
    victim = claim.victim
    if victim is None:
        index = grill.index(tile)
        grill = grill[:index] + grill[index + 1 :]
    else:
        stacks[victim] = stacks[victim][:-1]
    player = get(state, S.player)
    stacks[player] = (*stacks[player], tile)
    return new_state(
        &S,
        grill, get(state, S.face_down), tuple(stacks), player, get(state, S.phase),
        get(state, S.in_hand), get(state, S.roll), get(state, S.set_aside),
        get(state, S.parts), get(state, S.layout),
    )


cpdef object core_bust(object state):
    """``turn.bust``: return the top tile; turn the highest grill tile unless it is that one."""
    player = get(state, S.player)
    stacks = get(state, S.stacks)
    stack = stacks[player]
    if not stack:
        return state
    returned = stack[-1]
    stacks = list(stacks)
    stacks[player] = stack[:-1]
    grill = list(get(state, S.grill))
    insort(grill, returned)
    face_down = get(state, S.face_down)
    if grill[-1] != returned:
        face_down = (*face_down, grill.pop())
    return new_state(
        &S,
        tuple(grill), face_down, tuple(stacks), player, get(state, S.phase),
        get(state, S.in_hand), get(state, S.roll), get(state, S.set_aside),
        get(state, S.parts), get(state, S.layout),
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
    for stack in <tuple?>get(state, S.stacks):
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
        if plain(&S, state):
            try:
                return core_roll_actions(state)
            except Exception:
                pass
        return fell_back("roll_actions", self.inner, (rules, state))


cdef class _SetAside(_CoreHook):
    cdef object run1(self, object rules, object state, object face):
        if plain(&S, state):
            try:
                return core_set_aside(state, face)
            except Exception:
                pass
        return fell_back("set_aside", self.inner, (rules, state, face))


cdef class _StopTotal(_CoreHook):
    cdef object run(self, object rules, object state):
        if plain(&S, state):
            try:
                return core_stop_total(state)
            except Exception:
                pass
        return fell_back("stop_total", self.inner, (rules, state))


cdef class _Claims(_CoreHook):
    cdef object run1(self, object rules, object state, object total):
        if plain(&S, state):
            try:
                return core_claims(state, total)
            except Exception:
                pass
        return fell_back("claims", self.inner, (rules, state, total))


cdef class _TakeTile(_CoreHook):
    cdef object run1(self, object rules, object state, object claim):
        if plain(&S, state) and type(claim) is Claim:
            try:
                return core_take_tile(state, claim)
            except Exception:
                pass
        return fell_back("take_tile", self.inner, (rules, state, claim))


cdef class _Bust(_CoreHook):
    cdef object run(self, object rules, object state):
        if plain(&S, state):
            try:
                return core_bust(state)
            except Exception:
                pass
        return fell_back("bust", self.inner, (rules, state))


cdef class _TurnDice(_CoreHook):
    cdef object run(self, object rules, object state):
        if type(rules) is Rules:
            return view(rules).dice  # core_turn_dice, read from the view
        return fell_back("turn_dice", self.inner, (rules, state))


cdef class _PendingActions(_CoreHook):
    cdef object run(self, object rules, object state):
        return core_pending_actions(state)


cdef class _EndTurn(_CoreHook):
    cdef object run(self, object rules, object state):
        return core_end_turn(state)


cdef class _Scores(_CoreHook):
    cdef object run(self, object rules, object state):
        if plain(&S, state) and type(rules) is Rules:
            try:
                return core_scores(view(rules).worms, state)
            except Exception:
                pass
        return fell_back("scores", self.inner, (rules, state))


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


MIRRORS = {
    **{name: getattr(turn, name) for name in CORE_HOOKS},
    **{f"core_{name}": getattr(turn, name) for name in CORE_HOOKS},
}
"""Each compiled hook of this module, by name, and its pure twin in ``turn``."""
