# cython: language_level=3
# The compiled plug-in contract: see compiled_plugin.pyx.

from pickomino_rules._engine.rows cimport (  # a row twin's types and helpers
    BustRow,
    ClaimsRow,
    Cols,
    Link,
    highest,
    run_bust,
    run_claims,
    turn_face_down,
)


cdef class HookTwin:
    cdef readonly object inner
    cdef Link row  # its row twin, if it has one (``row.run`` set): rows.pxd's ``Link``
    cdef object run(self, object rules, object state)
    cdef object run1(self, object rules, object state, object first)
    cdef object run2(self, object rules, object state, object first, object second)
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


cdef inline bint row_chain(object hook, Py_ssize_t wrappers, const Link** chain) except -1:
    """Whether the ``wrappers`` outermost functions of ``hook``'s chain (the modules' twins)
    all have row twins. If so, each twin's link is set to the one it wraps, the innermost's
    to NULL (the core's own row function), and ``chain`` to the outermost's (NULL for none).
    The links live in the twins: whoever keeps ``chain`` keeps the hook."""
    cdef Link* outer = NULL
    cdef HookTwin twin
    cdef Py_ssize_t at
    chain[0] = NULL
    for at in range(wrappers):
        if not isinstance(hook, HookTwin) or (<HookTwin>hook).row.run is NULL:
            return False
        twin = <HookTwin>hook
        if outer is NULL:
            chain[0] = &twin.row
        else:
            outer.inner = &twin.row
        outer = &twin.row
        hook = twin.inner
    if outer is not NULL:
        outer.inner = NULL
    return True
