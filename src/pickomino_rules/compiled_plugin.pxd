# cython: language_level=3
# The compiled plug-in contract: see compiled_plugin.pyx.

cdef class HookTwin:
    cdef readonly object inner
    cdef object run(self, object rules, object state)
    cdef object run1(self, object rules, object state, object first)
    cdef object run2(self, object rules, object state, object first, object second)
    cdef Py_ssize_t fill(
        self, object rules, object state, object value, Py_ssize_t me, float* out, Py_ssize_t room
    ) except -1


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
