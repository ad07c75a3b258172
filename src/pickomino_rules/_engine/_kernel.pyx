# cython: language_level=3
"""The compiled kernel: a declared mirror of the step machine (``_engine/steps.py``).

Each function here has one pure twin, named in ``MIRRORS``: the steps of
``pickomino_rules._engine.steps`` (when the hooks run). What the base turn does is in
``_hooks.pyx`` (the core hooks' twins), which calls the kernel takes and which it hands back in
``_boundary.pyx``, a state's layout in ``states.pxd``, the encoding in ``_observe.pyx``.
Nothing here is a rule of its own. Where a composed hook is the core's own (``Rules.wrapped``
does not name it), a step calls the hook's compiled twin directly; otherwise it calls the
rules' hook, as the pure step does.

The five public transitions take every call on the rules' own states: legal moves (the
offered objects or equal ones), illegal ones (raising the pure engine's error, made by the same
function) and any ``random.Random``. What they cannot read (a state or rules of a subclass, a
state built by hand that holds something odd) they *decline*: hand to the pure twin before any
module's hook has run (``_boundary.fell_back``: counted and warned about). Once a module's hook
has run, a call is never handed over (the hook would run twice): whatever is raised then is
raised as the pure engine raises it.

The tests check the map (every pure step and core hook named, every twin present), play both
backends side by side, and compare every node of whole turns (docs page "Maintainers").
"""

from pickomino_rules._engine._boundary cimport (
    GUIDE, Table, View, fell_back, raise_as_pure, taken,
)
from pickomino_rules._engine._hooks cimport (
    any_dice, core_bust, core_claims, core_roll_actions, core_set_aside, core_stop_total,
    core_take_tile, used,
)
from pickomino_rules._engine._row cimport play, row_claims, row_legal
from pickomino_rules._engine.rows cimport can_roll
from pickomino_rules._engine.states cimport Py_TYPE, Slots, get, new_state, read_slots, with_phase
from pickomino_rules.compiled_plugin cimport call, call1

import functools
import random

from pickomino_rules._engine import steps
from pickomino_rules._engine.explain import illegal
from pickomino_rules.actions import ROLL, STOP, Roll, Stop, Take
from pickomino_rules.dice import NO_DICE_SET_ASIDE, RollOutcome
from pickomino_rules.errors import PickominoError
from pickomino_rules.state import Phase

cdef Slots S
read_slots(&S)

cdef object _ROLL = Phase.ROLL
cdef object _GAME_OVER = Phase.GAME_OVER
cdef object _CHOOSE = Phase.CHOOSE
cdef object _DECIDE = Phase.DECIDE
cdef object _TURN_OVER = Phase.TURN_OVER
cdef object _NO_DICE = NO_DICE_SET_ASIDE
cdef object _TAKE_KIND = Take
cdef object _ROLL_KIND = Roll
cdef object _STOP_KIND = Stop
cdef object _RANDOM = random.Random
cdef object _ROLL_OUTCOME = RollOutcome
cdef object _STEAL = steps.steal  # shared, not mirrored: one Steal object per victim
cdef object _TAKES_HOW = steps.TAKES
cdef object _PENDING_HOW = steps.PENDING
cdef object _NOTHING_HOW = steps.NOTHING
cdef tuple _ROLL_OR_STOP = (ROLL, STOP)
cdef tuple _STOP_ONLY = (STOP,)

cdef Py_ssize_t _MODULE_CALLS = 0  # calls of modules' hooks: a call that made one is not handed over


cdef inline void _module_call():
    global _MODULE_CALLS
    _MODULE_CALLS += 1


cdef inline object _checked(object state):
    """``state`` if it is a GameState whose slots may be read by offset, else TypeError."""
    if Py_TYPE(state) is not S.kind:
        raise TypeError("a hook returned something other than a GameState")
    return state


cdef object _DECLINE = object()
"""What a compiled step returns when the pure twin must answer the call."""


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
        phase = get(state, S.phase)
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
    parts = get(state, S.parts)
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
        or board.grill is not get(state, S.grill)
        or board.stacks is not get(state, S.stacks)
        or board.parts is not get(state, S.parts)
        or board.face_down is not get(state, S.face_down)
        or board.player != get(state, S.player)
    ):
        board = Board()
        board.rules = fast.rules
        board.grill = get(state, S.grill)
        board.stacks = get(state, S.stacks)
        board.parts = get(state, S.parts)
        board.face_down = get(state, S.face_down)
        board.player = get(state, S.player)
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
    rolls = can_roll(used(get(state, S.set_aside)), any_dice(get(state, S.in_hand)))
    if not claims or (len(claims) == 1 and claims[0].victim is None):
        return _ROLL_OR_STOP if rolls else _STOP_ONLY
    actions = [ROLL] if rolls else []
    if claim_of_stop(claims) is not None:
        actions.append(STOP)
    for claim in claims:
        if claim.victim is not None:
            actions.append(_STEAL(claim.victim))
    return tuple(actions)


cpdef object roll(View fast, object state, object move):
    """``steps.roll``: the dice show ``move``; a roll that offers nothing busts at once."""
    cdef Table table = fast.table(get(state, S.in_hand))
    known = table.by_id.get(id(move))
    if known is not move and (type(move) is not _ROLL_OUTCOME or not table.has(move)):
        return _DECLINE  # not a roll of these dice: the pure twin raises its error
    return after_roll(fast, with_phase(&S, state, _CHOOSE, move))


cpdef object decide(View fast, object state, object move, object claims):
    """``steps.decide``: roll again, or stop or steal, a legal ``move``."""
    kind = type(move)
    if kind is _ROLL_KIND:
        return with_phase(&S, state, _ROLL, None)
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
    phase = get(_checked(state), S.phase)
    if phase is _TURN_OVER:
        return pass_dice(fast, state)
    if phase is _CHOOSE:
        return after_roll(fast, state)
    return state


cpdef object finish_turn(View fast, object state):
    """``steps.finish_turn``: tidy up (``end_turn``), then pass the dice on."""
    if fast.tidies_turn_end:
        _module_call()
        state = _checked(call(fast.end_turn, fast.rules, with_phase(&S, state, _TURN_OVER, None)))
    return pass_dice(fast, state)


cpdef object pass_dice(View fast, object state):
    """``steps.pass_dice``: wait for pending decisions, end the game or start a turn."""
    if fast.pending is not None and pending(fast, state):
        return state
    grill = get(state, S.grill)
    if not grill:
        return new_state(
            &S,
            grill, get(state, S.face_down), get(state, S.stacks), get(state, S.player),
            _GAME_OVER, (), None, _NO_DICE, get(state, S.parts), get(state, S.layout),
        )
    return start_turn(fast, state, (get(state, S.player) + 1) % len(get(state, S.stacks)))


cpdef object start_turn(View fast, object state, object player):
    """``steps.start_turn``: the chance node that starts ``player``'s turn."""
    fresh = new_state(
        &S,
        get(state, S.grill), get(state, S.face_down), get(state, S.stacks), player, _ROLL,
        fast.dice, None, _NO_DICE, get(state, S.parts), get(state, S.layout),
    )
    if not fast.deals_own_dice:
        return fresh
    _module_call()
    dice = call(fast.turn_dice, fast.rules, fresh)
    if dice is fast.dice or dice == fast.dice:
        return fresh
    return new_state(
        &S,
        get(state, S.grill), get(state, S.face_down), get(state, S.stacks), player, _ROLL,
        dice, None, _NO_DICE, get(state, S.parts), get(state, S.layout),
    )


cdef object _legal_actions(View fast, object state):
    """``steps.legal_actions`` past its guards."""
    if get(state, S.phase) is _ROLL:
        return fast.table(get(state, S.in_hand)).outcomes
    cdef Derived last = _LAST
    if last.state is state and last.rules is fast.rules:
        return last.legal
    return derive(fast, state).legal


cdef object _apply(View fast, object state, object move):
    """``steps.apply`` past its guards; only the offered moves themselves."""
    phase = get(state, S.phase)
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
        return after if get(after, S.phase) is _DECIDE else settle(fast, after)
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
    if get(state, S.phase) is not _DECIDE or derive(fast, state).how is _PENDING_HOW:
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
    if get(state, S.phase) is not _ROLL or not isinstance(rng, _RANDOM):
        return _DECLINE
    cdef Table table = fast.table(get(state, S.in_hand))
    cdef double drawn = rng.random() * table.total
    cdef double* bounds = table.bounds
    # bisect_right(bounds, drawn), started from the guide's stretch of the bounds
    cdef Py_ssize_t bucket = <Py_ssize_t>(drawn * table.scale)
    if bucket < 0:
        bucket = 0
    elif bucket >= GUIDE:
        bucket = GUIDE - 1
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
    cdef View fast = taken(rules, state)
    cdef Py_ssize_t calls = _MODULE_CALLS
    if fast is not None:
        if fast.turn_on_row:  # the state the one-row table stands for (``_row``)
            found = row_legal(fast, state)
            if found is not None:
                return found
        try:
            return _legal_actions(fast, state)
        except Exception as error:
            if _MODULE_CALLS != calls:
                raise_as_pure(rules, state, error)
    return fell_back("legal_actions", steps.legal_actions, (rules, state))


def apply(rules, state, move):
    cdef View fast = taken(rules, state)
    cdef Py_ssize_t calls = _MODULE_CALLS
    if fast is not None:
        if fast.turn_on_row:  # on the one-row table (``_row``), where it takes the call
            try:
                after = play(fast, state, move)
            except Exception:  # nothing changed but the row: the object path answers
                after = None
            if after is not None:
                return after
        try:
            after = _apply(fast, state, move)
        except Exception as error:
            if _MODULE_CALLS != calls or isinstance(error, PickominoError):
                raise_as_pure(rules, state, error, move)
            after = _DECLINE
        if after is not _DECLINE:
            return after
    return fell_back("apply", steps.apply, (rules, state, move))


def sample_chance(rules, state, rng):
    cdef View fast = taken(rules, state)
    if fast is not None:
        try:
            drawn = _sample_chance(fast, state, rng)
        except Exception:
            drawn = _DECLINE  # raised before drawing: rng is as it was
        if drawn is not _DECLINE:
            return drawn
    return fell_back("sample_chance", steps.sample_chance, (rules, state, rng))


def stop_claims(rules, state):
    cdef View fast = taken(rules, state)
    cdef Py_ssize_t calls = _MODULE_CALLS
    if fast is not None:
        if fast.turn_on_row:  # the state the one-row table stands for (``_row``)
            found = row_claims(fast, state)
            if found is not None:
                return found
        try:
            return _stop_claims(fast, state)
        except Exception as error:
            if _MODULE_CALLS != calls:
                raise_as_pure(rules, state, error)
    return fell_back("stop_claims", steps.stop_claims, (rules, state))


def stop_outcomes(rules, state):
    cdef View fast = taken(rules, state)
    cdef Py_ssize_t calls = _MODULE_CALLS
    if fast is not None:
        try:
            found = _stop_outcomes(fast, state)
        except Exception as error:
            if _MODULE_CALLS != calls or isinstance(error, PickominoError):
                raise_as_pure(rules, state, error)
            found = _DECLINE
        if found is not _DECLINE:
            return found
    return fell_back("stop_outcomes", steps.stop_outcomes, (rules, state))


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
}
"""Each compiled step or record of this module, by name, and its pure twin in ``steps``."""

SHARED = {"steal": steps.steal}
"""Pure functions the kernel calls rather than mirrors (no rule in them)."""

for _name in ("legal_actions", "apply", "sample_chance", "stop_claims", "stop_outcomes"):
    functools.update_wrapper(globals()[_name], MIRRORS[_name])  # docs and __wrapped__: the twin
