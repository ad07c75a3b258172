# cython: language_level=3
# The compiled plug-in contract: see compiled_plugin.pyx.

from libc.stdint cimport int16_t

from pickomino_rules._engine.rows cimport (  # a row twin's types and helpers
    ApplyRow,
    BustRow,
    ChangeRow,
    ClaimsRow,
    Cols,
    Link,
    PendingRow,
    PointRow,
    RollActionsRow,
    ObserveRow,
    ScoresRow,
    Seen,
    SetAsideRow,
    StateRow,
    TakeTileRow,
    TotalRow,
    highest,
    other_part_at,
    part_at,
    return_tile,
    run_apply,
    run_bust,
    run_change,
    run_claims,
    run_pending,
    run_point,
    run_roll_actions,
    run_observe,
    run_scores,
    run_set_aside,
    run_state,
    run_stop_total,
    run_take_tile,
    seat_of,
    turn_face_down,
)


cdef class PartSlots:
    cdef readonly object key
    cpdef Py_ssize_t width(self, int players)
    cpdef PartSlots bound(self, object rules)
    cdef int encode(self, object part, int16_t* slots, int players) except -1
    cdef object decode(self, const int16_t* slots, int players)


cdef class HookTwin:
    cdef readonly object inner
    cdef Link row  # its row twin, if it has one (``row.run`` set): rows.pxd's ``Link``
    cdef readonly PartSlots slots  # its module's part on a row, if its row form reads one
    cdef readonly PartSlots other_slots  # a second part its row form reads, if one
    cdef readonly object point  # the extension point its row form calls, if one
    cdef readonly object action  # its module's action class its row form numbers, if one
    cdef object run(self, object rules, object state)
    cdef object run1(self, object rules, object state, object first)
    cdef object run2(self, object rules, object state, object first, object second)
    cdef int bind(self, object rules) except -1
    cdef Py_ssize_t fill(
        self, object rules, object state, object value, Py_ssize_t me, float* out, Py_ssize_t room
    ) except -1


cdef class RowTwin(HookTwin):
    cdef readonly object hook


cdef enum StateField:
    GRILL, FACE_DOWN, STACKS, PLAYER, PHASE, IN_HAND, ROLL, SET_ASIDE, PARTS, LAYOUT


cdef object field(object state, StateField which)
cdef object with_part(object state, Py_ssize_t index, object value)


cdef inline object call(object hook, object rules, object state):
    """``hook(rules, state)``: in C when ``hook`` is a compiled twin."""
    if isinstance(hook, HookTwin):
        return (<HookTwin>hook).run(rules, state)
    return hook(rules, state)


cdef inline object call1(object hook, object rules, object state, object first):
    """``hook(rules, state, first)``: in C when ``hook`` is a compiled twin."""
    if isinstance(hook, HookTwin):
        return (<HookTwin>hook).run1(rules, state, first)
    return hook(rules, state, first)


cdef inline object call2(object hook, object rules, object state, object first, object second):
    """``hook(rules, state, first, second)``: in C when ``hook`` is a compiled twin."""
    if isinstance(hook, HookTwin):
        return (<HookTwin>hook).run2(rules, state, first, second)
    return hook(rules, state, first, second)


cdef class RowTable:
    cdef readonly bint complete  # every module's twin of a turn's hook has a row form
    cdef readonly str missing  # else what lacks one
    cdef readonly tuple codecs  # each part's ``PartSlots`` by part index (None: not read)
    cdef const Link* claims_chain
    cdef const Link* bust_chain
    cdef const Link* set_aside_chain
    cdef const Link* pending_chain
    cdef const Link* apply_chain
    cdef const Link* stop_total_chain
    cdef const Link* take_tile_chain
    cdef const Link* roll_actions_chain
    cdef const Link* end_turn_chain
    cdef const Link* turn_dice_chain
    cdef const Link* scores_chain
    cdef readonly bint scores_on_rows  # and every module's twin of ``scores`` has one too
    cdef readonly bint observes_on_rows  # and every observed part's observer has one too
    cdef readonly dict observers  # each observed part's observer twin, linked, by part name
    cdef object hooks, points  # the composed hooks and points whose twins hold the links

    cdef void chains_into(self, Cols* c) noexcept
