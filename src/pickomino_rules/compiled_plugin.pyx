# cython: language_level=3
"""The compiled plug-in contract: compiled twins of a rule module's hooks.

Documented in ``compiled_plugin.pyi`` (the API docs' page): a twin derives from ``HookTwin``,
implements ``run``, ``run1`` or ``run2`` and calls what it wraps with ``call``, ``call1`` or
``call2`` (``compiled_plugin.pxd``), which stay in C when that is a twin too.
"""

__all__ = ["ROW_HOOKS", "HookTwin", "RowTwin"]

from cpython.object cimport PyObject
from cpython cimport array
from cpython.ref cimport Py_INCREF

from pickomino_rules._engine.states cimport PyType_GenericAlloc, Py_TYPE, Slots, read_slots

import array as _array

import attrs

from pickomino_rules.state import GameState

cdef Slots S  # a state's layout by offset: the engine's, read once (``_engine/states.pxd``)
read_slots(&S)
cdef array.array _FLOATS = _array.array("f")
cdef tuple _FIELDS = tuple(attribute.name for attribute in attrs.fields(GameState))
cdef tuple _NAMES = (
    "grill", "face_down", "stacks", "player", "phase",
    "in_hand", "roll", "set_aside", "parts", "layout",
)  # StateField's order
cdef Py_ssize_t _COUNT = len(_NAMES)
cdef Py_ssize_t _OFFSETS[10]  # by StateField
cdef Py_ssize_t _PARTS = S.parts

if _FIELDS != _NAMES:
    raise ImportError(f"GameState's fields are {_FIELDS}, not {_NAMES}")
_OFFSETS[:] = [
    S.grill, S.face_down, S.stacks, S.player, S.phase,
    S.in_hand, S.roll, S.set_aside, S.parts, S.layout,
]


cdef object field(object state, StateField which):
    """``getattr(state, name)`` of one of the state's fields, read in C from a GameState."""
    cdef PyObject* value
    if Py_TYPE(state) is S.kind:
        value = (<PyObject**>((<char*><PyObject*>state) + _OFFSETS[<int>which]))[0]
        if value is not NULL:
            return <object>value
    return getattr(state, _NAMES[<int>which])  # a subclass, or a field never set: its error


cdef object with_part(object state, Py_ssize_t index, object value):
    """``state`` with part ``index`` replaced by ``value`` (``PartKey.set``)."""
    parts = state.parts
    if parts[index] is value:
        return state
    new_parts = (*parts[:index], value, *parts[index + 1 :])
    if Py_TYPE(state) is not S.kind:
        return state.replace(parts=new_parts)
    # Built by hand as the kernel's ``_new_state`` is (attrs' frozen slots have no C setter):
    # ``copy`` is new, so every slot is NULL and takes one new reference, which the copy
    # drops when it dies. tests/engine/test_memory_safety.py keeps such copies alone.
    copy = PyType_GenericAlloc(S.kind, 0)
    cdef Py_ssize_t at, offset
    cdef PyObject* field
    for at in range(_COUNT):
        offset = _OFFSETS[at]
        field = (<PyObject**>((<char*><PyObject*>state) + offset))[0]
        if offset == _PARTS:
            field = <PyObject*>new_parts
        if field is not NULL:
            Py_INCREF(<object>field)
            (<PyObject**>((<char*><PyObject*>copy) + offset))[0] = field
    return copy


cdef class HookTwin:
    """A compiled twin of one module's hook (or extension), wrapping ``inner``.

    Attributes:
        inner: The function it wraps: the next twin or hook of the chain.
    """

    def __init__(self, inner):
        if not callable(inner):
            raise TypeError(f"a twin wraps a function, got {type(inner).__name__}")
        self.inner = inner

    def __call__(self, rules, state, *more):
        if not more:
            return self.run(rules, state)
        if len(more) == 1:
            return self.run1(rules, state, more[0])
        if len(more) == 2:
            return self.run2(rules, state, more[0], more[1])
        raise TypeError(f"{type(self).__name__} takes 2 to 4 arguments, got {2 + len(more)}")

    cdef object run(self, object rules, object state):
        raise TypeError(f"{type(self).__name__} is not a twin of a hook of (rules, state)")

    cdef object run1(self, object rules, object state, object first):
        raise TypeError(f"{type(self).__name__} is not a twin of a hook of three arguments")

    cdef object run2(self, object rules, object state, object first, object second):
        raise TypeError(f"{type(self).__name__} is not a twin of a hook of four arguments")

    cdef Py_ssize_t fill(
        self, object rules, object state, object value, Py_ssize_t me, float* out, Py_ssize_t room
    ) except -1:
        """A part's features for seat ``me`` into ``out`` (``room`` values); how many it has.

        A twin of a part's ``observe`` overrides it; by default the features are ``run2``'s.
        With more features than ``room`` it writes none and says how many there are.
        """
        features = self.run2(rules, state, value, me)
        cdef Py_ssize_t count = len(features), at
        if count <= room:
            for at in range(count):
                out[at] = features[at]
        return count

    def features(self, rules, state, value, me):
        """The part's features as ``fill`` writes them (as the ``observe`` it mirrors)."""
        cdef Py_ssize_t room = 64, count
        cdef array.array values
        while True:
            values = array.clone(_FLOATS, room, zero=True)
            count = self.fill(rules, state, value, me, values.data.as_floats, room)
            if count <= room:
                return list(values[:count])
            room = count


ROW_HOOKS = frozenset(("claims", "bust"))
"""The hooks that have row forms: the one-row table and the batch's compiled loop play rules
whose modules wrap no other hook of the turn, each with a row twin (``row_chain``)."""


cdef class RowTwin(HookTwin):
    """A module's hook with a row form: on a state, the hook itself; on a row, C.

    The row form is a C function over the compiled rules' rows (``compiled_plugin.pxd``'s
    ``Cols``, ``Link`` and the hook's function type, such as ``ClaimsRow``), which a subclass
    puts in its ``row`` link (``row.run``, and its constants in ``row.data``) when made.
    Where every module's twin of a turn's hook has a row form, the single game plays on a
    one-row table and the batch in its compiled loop, both calling it in C; anywhere else
    (a state the row does not hold) the twin runs ``hook``, the module's own function, so
    its row form is the only restatement of the rule.

    Attributes:
        hook: The module's hook, called with ``inner`` first as in a composed chain.
    """

    def __init__(self, inner, hook):
        HookTwin.__init__(self, inner)
        if not callable(hook):
            raise TypeError(f"a row twin runs its module's hook, got {type(hook).__name__}")
        self.hook = hook

    cdef object run(self, object rules, object state):
        return self.hook(self.inner, rules, state)

    cdef object run1(self, object rules, object state, object first):
        return self.hook(self.inner, rules, state, first)

    cdef object run2(self, object rules, object state, object first, object second):
        return self.hook(self.inner, rules, state, first, second)
