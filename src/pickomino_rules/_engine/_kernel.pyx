# cython: language_level=3
"""The compiled engine's five public transitions: the rules' row where it takes the call.

Each function here has one pure twin, named in ``MIRRORS``: the public steps of
``pickomino_rules._engine.steps``. Where the rules play on rows (``View.turn_on_row``: every
module wrapping a hook of the turn brings a row twin of it), a call is played on the rules'
one-row table (``_row.pyx``), whose steps are ``rows.pxd``'s row functions, the same source
the batch's loop compiles; a roll is drawn from the chance table's bounds in C. Nothing here
is a rule of its own.

Every other call is the pure engine's (``steps``), which stays the definition:

- rules off rows (a module with Python hooks alone, tiles or dice no row holds) play on the
  pure engine, as ``pickomino info`` says;
- a game's end is answered by the pure engine;
- a call the row declines (a move it does not offer, a state or rules of a subclass, a state
  built by hand that holds something the row cannot) is handed to the pure twin
  (``_boundary.fell_back``). Where the pure twin raises (an illegal move, explained), that is
  the answer; where it answers, the fallback is counted and warned about: over legal play the
  count stays zero. No module's hook runs on the row, so a call handed over never runs one
  twice.

The tests check the map (each public step named, its twin present), play both backends side
by side, and compare every node of whole turns (docs page "Maintainers").
"""

from pickomino_rules._engine._boundary cimport GUIDE, Table, View, fell_back, taken
from pickomino_rules._engine._row cimport play, row_claims, row_legal, row_outcomes
from pickomino_rules._engine.states cimport Slots, get, read_slots

import functools
import random

from pickomino_rules._engine import steps
from pickomino_rules.state import Phase

cdef Slots S
read_slots(&S)

cdef object _ROLL = Phase.ROLL
cdef object _GAME_OVER = Phase.GAME_OVER
cdef object _RANDOM = random.Random


cdef object _sample_chance(View fast, object state, object rng):
    """``steps.sample_chance`` past its guards: one draw, bisected in C (None: declined)."""
    if get(state, S.phase) is not _ROLL or not isinstance(rng, _RANDOM):
        return None
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


cdef inline bint _pure(View fast, object state):
    """Whether the pure engine answers outright: rules off rows, or a game over."""
    return not fast.turn_on_row or get(state, S.phase) is _GAME_OVER


# -- the public transitions: the functions ``game`` offers under this backend ---------------


def legal_actions(rules, state):
    cdef View fast = taken(rules, state)
    if fast is not None:
        if _pure(fast, state):
            return steps.legal_actions(rules, state)
        found = row_legal(fast, state)
        if found is not None:
            return found
    return fell_back("legal_actions", steps.legal_actions, (rules, state))


def apply(rules, state, move):
    cdef View fast = taken(rules, state)
    if fast is not None:
        if _pure(fast, state):
            return steps.apply(rules, state, move)
        try:
            after = play(fast, state, move)
        except Exception:  # nothing changed but the row: the pure engine answers
            after = None
        if after is not None:
            return after
    return fell_back("apply", steps.apply, (rules, state, move))


def sample_chance(rules, state, rng):
    cdef View fast = taken(rules, state)
    if fast is not None:
        try:
            drawn = _sample_chance(fast, state, rng)
        except Exception:
            drawn = None  # raised before drawing: rng is as it was
        if drawn is not None:
            return drawn
    return fell_back("sample_chance", steps.sample_chance, (rules, state, rng))


def stop_claims(rules, state):
    cdef View fast = taken(rules, state)
    if fast is not None:
        if _pure(fast, state):
            return steps.stop_claims(rules, state)
        found = row_claims(fast, state)
        if found is not None:
            return found
    return fell_back("stop_claims", steps.stop_claims, (rules, state))


def stop_outcomes(rules, state):
    cdef View fast = taken(rules, state)
    if fast is not None:
        if _pure(fast, state):
            return steps.stop_outcomes(rules, state)
        found = row_outcomes(fast, state)
        if found is not None:
            return found
    return fell_back("stop_outcomes", steps.stop_outcomes, (rules, state))


MIRRORS = {
    "legal_actions": steps.legal_actions,
    "apply": steps.apply,
    "sample_chance": steps.sample_chance,
    "stop_claims": steps.stop_claims,
    "stop_outcomes": steps.stop_outcomes,
}
"""Each public transition of this module, by name, and its pure twin in ``steps``."""

ON_ROWS = {
    "derive": "Row.legal: rows.derive's parts, the row's legal moves",
    "pending": "Row.pending: the chain of pending_actions' row twins",
    "claims_for": "rows.run_claims: the chain of claims' row twins",
    "claim_of_stop": "_row._play, a stop: the grill's tile, else the only steal",
    "decide_actions": "rows.decide_actions, with Row.decisions' shared tuples",
    "roll": "_row._play at a chance node: rows.show's columns, then rows.after_roll",
    "decide": "rows.decide",
    "after_roll": "rows.after_roll",
    "settle": "rows.settle",
    "finish_turn": "rows.finish_turn",
    "pass_dice": "rows.pass_dice",
    "start_turn": "rows.start_turn",
    "steal": "shared: one Steal object per victim, the same the pure engine gives",
    "Derived": "a cache of the pure engine's: the row itself stands for its last state",
    "Pending": "a cache of the pure engine's: the row asks the chain each time",
    "Board": "a cache of the pure engine's: the row asks the chain each time",
}
"""The other steps of ``steps``: where the row plays each (``rows.pxd``'s row functions,
named in ``batch/_mirrors.ROWS``), or why it has no twin."""

for _name in MIRRORS:
    functools.update_wrapper(globals()[_name], MIRRORS[_name])  # docs and __wrapped__: the twin
