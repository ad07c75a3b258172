# cython: language_level=3
"""The engine's hot path compiled: ``game``'s steps and the core's busiest turn hooks.

``game`` swaps these in for its ``legal_actions``, ``apply``, ``sample_chance`` and
``stop_claims``, and for ``turn.roll_actions``, ``set_aside``, ``stop_total`` and ``claims``,
when the extension was built (see ``game._use_compiled``). They take the common, legal case:

- chance nodes of any rules (the rolls offered, a roll drawn, the roll shown);
- the whole turn of rules whose turn hooks are all the core's (classic without options),
  with no hook called;
- the turn of any other rules through the rules' own hooks, called from here: ``game``'s
  steps (``_derive``, ``_decide``, ``_settle``, ``_finish_turn``, ``_pass_dice``) in C;
- the core's own hooks, the innermost layer of every variant's chains.

Anything else (a wrong type, an illegal move, an equal but not identical move, a state built
by hand that holds something odd, a hook that raises or gives back something odd) goes to
the pure-Python function it stands for, which is the reference and raises its errors.
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
from bisect import bisect_left

from pickomino_rules import state as state_module
from pickomino_rules import turn
from pickomino_rules.actions import ROLL, STOP, TAKE, Roll, Steal, Stop, Take
from pickomino_rules.dice import FACES, NO_DICE_SET_ASIDE, Face, RollOutcome
from pickomino_rules.rules import Rules
from pickomino_rules.state import Claim, GameState, Phase

cdef object _ROLL = Phase.ROLL
cdef object _GAME_OVER = Phase.GAME_OVER
cdef object _CHOOSE = Phase.CHOOSE
cdef object _DECIDE = Phase.DECIDE
cdef object _TURN_OVER = Phase.TURN_OVER
cdef object _ROLL_ACTION = ROLL
cdef object _STOP_ACTION = STOP
cdef object _NO_DICE = NO_DICE_SET_ASIDE
cdef object _STEAL = Steal
cdef object _FACE = Face
cdef object _TAKE_KIND = Take
cdef object _ROLL_KIND = Roll
cdef object _STOP_KIND = Stop
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
    cdef bint chance  # rules of this library: every call (the hooks are called from here)
    cdef bint fast  # and all turn hooks the core's: no hook is called, the turn is in C
    cdef object layout
    cdef object chance_table
    cdef object dice
    cdef dict tables
    # The composed hooks, for the rules whose turn runs through them.
    cdef object roll_actions, pending, set_aside, stop_total, claims
    cdef object take_tile, bust, end_turn, turn_dice, apply_action
    cdef bint default_ends  # the core ends the turn (``fused.end_turn``, `_end_turn` here)
    cdef bint own_end_turn  # a turn over is a state of its own, for ``end_turn`` or pending
    cdef bint own_turn_dice  # a module says which dice a turn starts with
    cdef bint ends_on_total, pending_by_parts  # the modules' promises (see Rules)

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
        seen.default_ends = rules.default_ends
        seen.own_end_turn = rules.end_turn is not turn.end_turn or rules.pending_actions is not None
        seen.own_turn_dice = rules.turn_dice is not turn.turn_dice
        seen.ends_on_total = rules.ends_on_total
        seen.pending_by_parts = rules.pending_by_parts
    _LAST = seen
    return seen


cdef inline long _item(object values, Py_ssize_t index) except? -1:
    return values[index]  # checked: a state built by hand may hold anything


cdef long _used(object counts) except? -1:
    """The faces set aside, as bits (bit 0 for 1s ... bit 5 for worms); six counts or raise."""
    cdef long used = 0
    cdef Py_ssize_t index
    if len(counts) != 6:  # a state built by hand: the pure function's to answer
        raise ValueError("not six set-aside counts")
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
    found = _core_claims(state, _total(counts))
    if found is None:
        raise TypeError("the grill is not a tuple")
    return found


cdef object _core_claims(object state, object total):
    """``turn.claims``: the exact grill tile; else the next lower one and exact top tiles.

    None when the grill is not a tuple (a state built by hand): the pure hook's to answer.
    """
    grill = _get(state, _GRILL)
    if type(grill) is not tuple:
        return None
    at = bisect_left(grill, total)  # as turn.claims: the same answer even on an unsorted grill
    if at < len(grill) and grill[at] == total:
        return (_GRILL_CLAIM(total),)
    found = [_GRILL_CLAIM(grill[at - 1])] if at else []
    player = _get(state, _PLAYER)
    victim = 0
    for stack in _get(state, _STACKS):
        if stack and stack[-1] == total and victim != player:
            found.append(Claim(total, victim))
        victim += 1
    return tuple(found)


cdef bint _can_roll(object state) except -1:
    """C6: a face is still free and dice are left to roll (odd counts raise: declined)."""
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


# The turn of any other rules: ``game``'s own steps (``_derive``, ``_decide``, ``_settle``,
# ``_finish_turn``, ``_pass_dice``, ``turn.start_turn``) in C, calling the rules' hooks.
# Each cache below is one tuple, replaced whole, as ``game``'s are.

cdef object _TAKES_HOW = object()
"""How a CHOOSE state's actions were found: the ``roll_actions`` hook."""
cdef object _PENDING_HOW = object()
"""How they were found when a module made a decision pending."""
cdef object _NOTHING_HOW = object()
"""A state that offers nothing (the turn or the game is over)."""

cdef tuple _DERIVED = (None, None, (), _NOTHING_HOW)
"""The last decision state looked at: rules, state, its offers and how they were found."""
cdef tuple _PENDING_SEEN = (None, None, ())
"""The pending decisions of the last parts looked at (``Rules.pending_by_parts``)."""
cdef tuple _BOARD = (None, None, None, None, None, None, {})
"""The claims of the last board looked at, by total (``Rules.ends_on_total``)."""


cdef inline object _checked(object state):
    """``state`` if it is a GameState whose slots may be read by offset, else TypeError."""
    if Py_TYPE(state) is not _STATE_TYPE:
        raise TypeError("a hook returned something other than a GameState")
    return state


cdef tuple _derive(_Fast fast, object state):
    """``game._derive``: what ``state`` offers, and how (pending, a roll's, a stop's claims)."""
    global _DERIVED
    rules = fast.rules
    legal = ()
    how = _PENDING_HOW
    if fast.pending is not None:
        legal = _pending(fast, state)
    if not legal:
        phase = _get(state, _PHASE)
        if phase is _CHOOSE:
            legal = fast.roll_actions(rules, state)
            how = _TAKES_HOW
        elif phase is _DECIDE:
            total = fast.stop_total(rules, state)
            claims = () if total is None else _hook_claims(fast, state, total)
            how = claims
            legal = _decide_actions(state, claims)
        else:
            how = _NOTHING_HOW
    derived = (rules, state, legal, how)
    _DERIVED = derived
    return derived


cdef object _pending(_Fast fast, object state):
    """``game._pending``: the pending decisions, remembered for the parts."""
    global _PENDING_SEEN
    if not fast.pending_by_parts:
        return fast.pending(fast.rules, state)
    parts = _get(state, _PARTS)
    cdef tuple seen = _PENDING_SEEN
    if seen[1] is parts and seen[0] is fast.rules:
        return seen[2]
    pending = fast.pending(fast.rules, state)
    _PENDING_SEEN = (fast.rules, parts, pending)
    return pending


cdef object _hook_claims(_Fast fast, object state, object total):
    """``game._claims``: the claims hook for ``total``, remembered for the board."""
    global _BOARD
    if not fast.ends_on_total:
        return fast.claims(fast.rules, state, total)
    cdef tuple board = _BOARD
    grill = _get(state, _GRILL)
    stacks = _get(state, _STACKS)
    parts = _get(state, _PARTS)
    face_down = _get(state, _FACE_DOWN)
    player = _get(state, _PLAYER)
    if (
        board[0] is not fast.rules
        or board[1] is not grill
        or board[2] is not stacks
        or board[3] is not parts
        or board[4] is not face_down
        or board[5] != player
    ):
        board = (fast.rules, grill, stacks, parts, face_down, player, {})
        _BOARD = board
    cdef dict by_total = board[6]
    claims = by_total.get(total)
    if claims is None:
        claims = by_total[total] = fast.claims(fast.rules, state, total)
    return claims


cdef object _decide_actions(object state, object claims):
    """``game._decide_actions``: roll again (C6), stop, steal; the plain cases here."""
    if not claims or (len(claims) == 1 and claims[0].victim is None):
        return _ROLL_OR_STOP if _can_roll(state) else _STOP_ONLY
    return _PURE_DECIDE_ACTIONS(state, claims)


cdef object _apply_hooked(_Fast fast, object state, object move):
    """``game.apply`` at a decision, through the rules' hooks; only the offered moves."""
    cdef tuple derived = _DERIVED
    if derived[1] is not state or derived[0] is not fast.rules:
        derived = _derive(fast, state)
    for action in derived[2]:
        if action is move:
            break
    else:
        return _DECLINE  # illegal, or equal to an offered move: the pure function's
    how = derived[3]
    rules = fast.rules
    if how is _TAKES_HOW and type(move) is _TAKE_KIND:
        after = fast.set_aside(rules, state, move.face)
        return after if after.phase is _DECIDE else _settle(fast, after)
    if how is _TAKES_HOW or how is _PENDING_HOW:  # a module's action
        return _settle(fast, fast.apply_action(rules, state, move))
    return _decide(fast, state, move, how)


cdef object _decide(_Fast fast, object state, object move, object claims):
    """``game._decide``: roll again (C6), or stop or steal (C7, C8), a legal ``move``."""
    kind = type(move)
    if kind is _ROLL_KIND:
        return _new_state(
            _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS),
            _get(state, _PLAYER), _ROLL, _get(state, _IN_HAND), None,
            _get(state, _SET_ASIDE), _get(state, _PARTS), _get(state, _LAYOUT),
        )
    if kind is _STOP_KIND:
        claim = _STOP_CLAIM(claims)
    else:
        victim = move.victim
        for claim in claims:
            if claim.victim == victim:
                break
        else:
            return _DECLINE
    if fast.default_ends:
        return _end_turn(fast, state, claim)
    if claim is None:  # no claim: the stop busts
        return _finish_turn(fast, fast.bust(fast.rules, state))
    return _finish_turn(fast, fast.take_tile(fast.rules, state, claim))


cdef object _after_roll(_Fast fast, object state):
    """``game._after_roll``: C5, a roll that offers nothing to do busts at once."""
    if _derive(fast, state)[2]:
        return state
    if fast.default_ends:
        return _end_turn(fast, state, None)
    return _finish_turn(fast, fast.bust(fast.rules, state))


cdef object _settle(_Fast fast, object state):
    """``game._settle``: carry on after a module's action."""
    _checked(state)
    phase = _get(state, _PHASE)
    if phase is _TURN_OVER:
        return _pass_dice(fast, state)
    if phase is _CHOOSE:
        return _after_roll(fast, state)
    return state


cdef object _finish_turn(_Fast fast, object state):
    """``game._finish_turn``: C11, tidy up (``end_turn``), then pass the dice on."""
    _checked(state)
    if fast.own_end_turn:
        over = _new_state(
            _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS),
            _get(state, _PLAYER), _TURN_OVER, _get(state, _IN_HAND), None,
            _get(state, _SET_ASIDE), _get(state, _PARTS), _get(state, _LAYOUT),
        )
        state = _checked(fast.end_turn(fast.rules, over))
    return _pass_dice(fast, state)


cdef object _pass_dice(_Fast fast, object state):
    """``game._pass_dice``: C11, C12, wait for pending decisions, end or start a turn."""
    if fast.pending is not None and _pending(fast, state):
        return state
    grill = _get(state, _GRILL)
    if not grill:
        return _new_state(
            grill, _get(state, _FACE_DOWN), _get(state, _STACKS), _get(state, _PLAYER),
            _GAME_OVER, (), None, _NO_DICE, _get(state, _PARTS), _get(state, _LAYOUT),
        )
    stacks = _get(state, _STACKS)
    player = (_get(state, _PLAYER) + 1) % len(stacks)
    fresh = _new_state(  # ``turn.start_turn``: C3, the next player's roll
        grill, _get(state, _FACE_DOWN), stacks, player, _ROLL, fast.dice, None, _NO_DICE,
        _get(state, _PARTS), _get(state, _LAYOUT),
    )
    if not fast.own_turn_dice:
        return fresh
    dice = fast.turn_dice(fast.rules, fresh)
    if dice == fast.dice:
        return fresh
    return _new_state(
        grill, _get(state, _FACE_DOWN), stacks, player, _ROLL, dice, None, _NO_DICE,
        _get(state, _PARTS), _get(state, _LAYOUT),
    )


cdef object _hooked_claims(_Fast fast, object state):
    """``game.stop_claims`` through the rules' hooks."""
    cdef tuple derived = _DERIVED
    if derived[1] is state and derived[0] is fast.rules and type(derived[3]) is tuple:
        return derived[3]
    total = fast.stop_total(fast.rules, state)
    return () if total is None else _hook_claims(fast, state, total)


cdef object _legal_actions(_Fast fast, object state):
    phase = _get(state, _PHASE)
    if phase is _ROLL:
        return fast.table(_get(state, _IN_HAND)).outcomes
    if not fast.fast:
        derived = _DERIVED
        if derived[1] is state and derived[0] is fast.rules:
            return derived[2]
        return _derive(fast, state)[2]
    if phase is _CHOOSE:
        roll = _get(state, _ROLL_FIELD)
        if type(roll) is not RollOutcome:
            return _DECLINE
        return _OFFERED[roll.shown & ~_used(_get(state, _SET_ASIDE))]
    if phase is _DECIDE:
        return _decide_actions(state, _claims(state))
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
        return _apply_hooked(fast, state, move)  # at decisions the rules' hooks have their say
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
            return _after_roll(fast, shown)  # the hooks say what the roll offers
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


cdef tuple _with(tuple counts, Py_ssize_t index, object count):
    """``counts`` (six of them) with ``count`` at ``index`` (0-5), built in one go."""
    aside = PyTuple_New(6)
    cdef Py_ssize_t position
    for position in range(6):
        value = count if position == index else <object>PyTuple_GET_ITEM(counts, position)
        Py_INCREF(value)  # PyTuple_SET_ITEM takes the reference
        PyTuple_SET_ITEM(aside, position, value)
    return aside


cdef object _take(object state, object move):
    """C4 (the core's ``set_aside``): set aside the dice of the face ``move`` takes."""
    cdef long index
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
    aside = _with(counts, index, roll.faces[index])
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
    if fast is None:
        return _PURE_CLAIMS(rules, state)
    try:
        claims = _claims(state) if fast.fast else _hooked_claims(fast, state)
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


# The core's own turn hooks (``turn.roll_actions``, ``set_aside``, ``stop_total`` and
# ``claims``) compiled. ``game`` puts them in ``turn`` before any rules are composed, so they
# are the innermost layer of every variant's chains. Like the functions above, each takes
# the plain case and hands anything else to the pure hook, which answers or raises.

cdef object _PURE_ROLL_ACTIONS = turn.roll_actions
cdef object _PURE_SET_ASIDE = turn.set_aside
cdef object _PURE_STOP_TOTAL = turn.stop_total
cdef object _PURE_CLAIMS_HOOK = turn.claims
cdef dict _USED_BY_COUNTS = turn._USED
cdef dict _TOTALS = state_module._TOTALS


def roll_actions(rules, state):
    if Py_TYPE(state) is _STATE_TYPE:
        try:
            roll = _get(state, _ROLL_FIELD)
            if type(roll) is RollOutcome:
                used = _USED_BY_COUNTS.get(_get(state, _SET_ASIDE))
                if used is not None:
                    return _OFFERED[roll.shown & ~used]
        except Exception:
            pass
    return _PURE_ROLL_ACTIONS(rules, state)


def set_aside(rules, state, face):
    if Py_TYPE(state) is _STATE_TYPE:
        try:
            roll = _get(state, _ROLL_FIELD)
            counts = _get(state, _SET_ASIDE)
            if type(roll) is RollOutcome and type(counts) is tuple:
                index = face - 1
                if type(face) is _FACE and PyTuple_GET_SIZE(counts) == 6:
                    aside = _with(counts, index, roll.faces[index])
                else:
                    aside = (*counts[:index], roll.faces[index], *counts[index + 1 :])
                return _new_state(
                    _get(state, _GRILL), _get(state, _FACE_DOWN), _get(state, _STACKS),
                    _get(state, _PLAYER), _DECIDE, roll.remaining[index], None, aside,
                    _get(state, _PARTS), _get(state, _LAYOUT),
                )
        except Exception:
            pass
    return _PURE_SET_ASIDE(rules, state, face)


def stop_total(rules, state):
    if Py_TYPE(state) is _STATE_TYPE:
        try:
            counts = _get(state, _SET_ASIDE)
            if type(counts) is tuple:
                if not counts[5]:
                    return None
                total = _TOTALS.get(counts)
                if total is not None:
                    return total
        except Exception:
            pass
    return _PURE_STOP_TOTAL(rules, state)


def claims(rules, state, total):
    if Py_TYPE(state) is _STATE_TYPE:
        try:
            found = _core_claims(state, total)
            if found is not None:
                return found
        except Exception:
            pass
    return _PURE_CLAIMS_HOOK(rules, state, total)


def takes(rules):
    """Whether the compiled functions play the turns of ``rules`` without calling a hook.

    So they do when the rules' turn hooks are all the core's; the turns of other rules go
    through their hooks.
    """
    return bool(_fast(rules).fast)


def bind(
    pure_legal, pure_apply, pure_sample, pure_claims, pure_decide_actions, stop_claim
):
    """Give the compiled functions their pure-Python references; True when they are sound.

    They are sound when a state built here equals the one ``GameState(...)`` builds. The
    first references given stay (a second import of ``game``, as doctests make, changes
    nothing).
    """
    global _PURE_LEGAL, _PURE_APPLY, _PURE_SAMPLE, _PURE_CLAIMS, _PURE_DECIDE_ACTIONS
    global _STOP_CLAIM
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
    _STOP_CLAIM = stop_claim
    return True
