# cython: language_level=3
"""The compiled plug-in contract: compiled twins of a rule module's hooks.

Documented in ``compiled_plugin.pyi`` (the API docs' page): a twin derives from ``HookTwin``,
implements ``run``, ``run1`` or ``run2`` and calls what it wraps with ``call``, ``call1`` or
``call2`` (``compiled_plugin.pxd``), which stay in C when that is a twin too.
"""

__all__ = [
    "ROW_HOOKS", "TURN_HOOKS", "HookTwin", "PartSlots", "RowTable", "RowTwin", "row_table"
]

from cpython.object cimport PyObject
from cpython cimport array
from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.ref cimport Py_INCREF
from libc.stdint cimport int16_t

from pickomino_rules._engine.states cimport PyType_GenericAlloc, Py_TYPE, Slots, read_slots

import array as _array

import attrs

from pickomino_rules.state import GameState
from pickomino_rules.turn import HOOKS

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

    cdef int bind(self, object rules) except -1:
        """Set the row form's constants that depend on ``rules`` (in ``row.data``), when the
        rules' table is linked; a ValueError says the row form cannot play them."""
        return 0

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


TURN_HOOKS = frozenset(HOOKS) - {"setup", "scores"}
"""The hooks a turn's steps call (a game's set-up and its scores are not played on rows)."""

ROW_HOOKS = TURN_HOOKS
"""The hooks that have row forms (every hook a turn's steps call): the one-row table and the
batch's compiled loop play rules whose modules' twins of them all have row forms
(``row_table``)."""


cdef class PartSlots:
    """How a module's part lives on a row: ``width(players)`` int16 slots, and its codec.

    A module whose row twins read or change its part gives each of them the same
    ``PartSlots`` (their ``slots``); the rules' table lays the parts' slots side by side
    (``Cols.slots``, each part's first at ``Cols.firsts``), and a row twin finds its own
    with ``part_at``. ``encode`` runs on a part object the row has not seen (a state read
    into the row), ``decode`` when the part's slots changed (a state written back), so
    ``decode(encode(part)) == part`` for every part a game can reach.

    Attributes:
        key: The part's ``PartKey``.
    """

    def __init__(self, key):
        self.key = key

    cpdef Py_ssize_t width(self, int players):
        """How many slots the part takes in a game of ``players`` players."""
        raise NotImplementedError(f"{type(self).__name__} does not say its width")

    cpdef PartSlots bound(self, object rules):
        """The codec for a game of ``rules``: itself, unless its layout depends on the rules
        (one slot per specialist declared, say), when it answers a copy that knows them."""
        return self

    cdef int encode(self, object part, int16_t* slots, int players) except -1:
        """``part`` into its ``slots``; ValueError (or TypeError) where it does not fit."""
        raise NotImplementedError(f"{type(self).__name__} does not encode its part")

    cdef object decode(self, const int16_t* slots, int players):
        """The part its ``slots`` hold."""
        raise NotImplementedError(f"{type(self).__name__} does not decode its part")

    def columns(self, int players):
        """The part's slots by name, for the batch's arrays of it: ``(first, count)``, count
        None for one slot a row (a column), else that many slots (one per player, say)."""
        raise NotImplementedError(f"{type(self).__name__} does not name its slots")

    def read(self, int16_t[::1] slots, int players):
        """The part that ``slots`` hold (its ``width`` slots of a row: a batch's conversion)."""
        if slots.shape[0] != self.width(players):
            raise ValueError(f"{slots.shape[0]} slots, not the part's {self.width(players)}")
        return self.decode(&slots[0], players) if slots.shape[0] else self.decode(NULL, players)

    def write(self, part, int16_t[::1] slots, int players):
        """``part`` into ``slots`` (its ``width`` slots of a row); nothing changes on error."""
        cdef Py_ssize_t width = self.width(players)
        if slots.shape[0] != width:
            raise ValueError(f"{slots.shape[0]} slots, not the part's {width}")
        cdef bytearray held = bytearray(2 * max(1, width))
        cdef int16_t* staged = <int16_t*>PyByteArray_AS_STRING(held)
        self.encode(part, staged, players)  # (raises before the row is touched)
        cdef Py_ssize_t at
        for at in range(width):
            slots[at] = staged[at]

    def round_trip(self, part, int players):
        """``decode(encode(part))``: what a row makes of ``part`` (the tests' check)."""
        cdef Py_ssize_t width = self.width(players)
        cdef bytearray held = bytearray(2 * max(1, width))
        cdef int16_t* slots = <int16_t*>PyByteArray_AS_STRING(held)
        self.encode(part, slots, players)
        return self.decode(slots, players)


cdef class RowTable:
    """The rules' hook table on rows: the modules' row twins linked into one chain per hook.

    Made by ``row_table``. ``complete`` says whether every module's twin of the hooks in
    ``ROW_HOOKS`` has a row form (with its part's slots, extension points and actions
    resolved); if so, ``chains_into`` puts the chains into a table's ``Cols``. The links
    live in the twins, so whoever keeps the chains keeps this object.

    Attributes:
        complete: Whether the rules' hooks of ``ROW_HOOKS`` all play on rows.
        missing: Else the first module's twin that lacks a row form, in words.
        scores_on_rows: Whether ``scores`` (C13, no hook of the turn) plays on rows too:
            the batch's compiled loop then scores its games in C.
        observes_on_rows: Whether every observed part's observer (`Rules.observers`) has a
            row form too: the batch's compiled loop then writes the observation in C.
        observers: Those observers, linked, by part name.
        codecs: Each part's ``PartSlots`` by part index (None: no row twin reads it; the
            part rides along unchanged).
    """

    cdef void chains_into(self, Cols* c) noexcept:
        c.claims_chain = self.claims_chain
        c.bust_chain = self.bust_chain
        c.set_aside_chain = self.set_aside_chain
        c.pending_chain = self.pending_chain
        c.apply_chain = self.apply_chain
        c.stop_total_chain = self.stop_total_chain
        c.take_tile_chain = self.take_tile_chain
        c.roll_actions_chain = self.roll_actions_chain
        c.end_turn_chain = self.end_turn_chain
        c.turn_dice_chain = self.turn_dice_chain
        c.scores_chain = self.scores_chain

    def slot_layout(self, int players):
        """The slots of a row of ``players`` players: their count, each part's first."""
        firsts, width = [], 0
        for codec in self.codecs:
            firsts.append(width)
            if codec is not None:
                width += (<PartSlots>codec).width(players)
        return width, firsts

    def action_layout(self, rules, int players):
        """The first action number of each of ``rules.action_types`` (the encodings', as
        ``info.game_info`` numbers them)."""
        from pickomino_rules.info import _numbered_actions  # (the rules' facts: when linked)

        return list(_numbered_actions(rules, players)[1])


cdef tuple _CHAINED = (
    "claims", "bust", "set_aside", "pending_actions", "apply_action",
    "stop_total", "take_tile", "roll_actions", "end_turn", "turn_dice",
)  # the order of ``RowTable``'s chains
if frozenset(_CHAINED) != ROW_HOOKS:  # (a hook of the turn added without its chain)
    raise ImportError(f"the row table chains {sorted(_CHAINED)}, not the turn's hooks")


cdef object _resolve(HookTwin twin, object rules, list codecs, dict points):
    """Set ``twin``'s link's part, action and extension point for ``rules``; what lacks a
    row form (None: nothing)."""
    for slots in (twin.slots, twin.other_slots):
        if slots is None:
            continue
        at = rules.part_index.get(slots.key.name)
        if at is None:
            return f"{type(twin).__name__}'s part {slots.key.name!r}, not in the rules"
        if slots is twin.slots:
            twin.row.part = at
        else:
            twin.row.other = at
        if codecs[at] is None:
            codecs[at] = (<PartSlots>slots).bound(rules)
        elif type(codecs[at]) is not type(slots):  # one layout of a part's slots
            return f"two codecs of the part {slots.key.name!r}"
    try:
        twin.bind(rules)
    except ValueError as error:
        return f"{type(twin).__name__}: {error}"
    if twin.action is not None:
        if twin.action not in rules.action_types:
            return f"{type(twin).__name__}'s actions {twin.action.__name__}, not in the rules"
        twin.row.action = rules.action_types.index(twin.action)
    if twin.point is not None:
        found = points.get(twin.point)
        if found is None:
            found = points[twin.point] = _link_point(twin.point, rules, codecs, points)
        if isinstance(found, str):
            return found
        twin.row.uses = &(<HookTwin>found).row
    return None


cdef tuple _link_twins(
    object hook, Py_ssize_t count, object rules, list codecs, dict points, str lacking
):
    """Link ``count`` twins from ``hook`` inwards into one chain, the innermost's ``inner``
    NULL: (what lacks a row form, else None; the outermost twin; what the chain wraps)."""
    cdef HookTwin twin, outer = None
    cdef Py_ssize_t at
    outermost = None
    for at in range(count):
        if not isinstance(hook, HookTwin) or (<HookTwin>hook).row.run is NULL:
            return lacking, None, hook
        twin = <HookTwin>hook
        missing = _resolve(twin, rules, codecs, points)
        if missing is not None:
            return missing, None, hook
        if outer is None:
            outermost = twin
        else:
            outer.row.inner = &twin.row
        outer = twin
        hook = twin.inner
    if outer is not None:
        outer.row.inner = NULL
    return None, outermost, hook


cdef object _link_point(object point, object rules, list codecs, dict points):
    """The outermost twin of ``point``'s chain, linked; or what lacks a row form.

    The chain is the provider's twin of the point's default, innermost, wrapped by one twin
    per module extending it: each must be a twin with a row form (the default's has no
    ``inner`` to call on a row).
    """
    if point not in rules.extensions:
        return f"the extension point {point.name!r}, which no composed module provides"
    cdef Py_ssize_t wrappers = sum(
        [1 for module in rules.modules for extension in module.extends if extension.point is point]
    )
    lacking = f"the extension point {point.name!r}: a module's twin without a row form"
    missing, outermost, wrapped = _link_twins(
        rules.extensions[point], wrappers + 1, rules, codecs, points, lacking
    )
    if missing is not None:
        return missing
    if wrapped is not point.default:  # (a chain the composition did not make)
        return f"the extension point {point.name!r}: a chain of another length"
    return outermost


cdef dict _TABLES = {}  # the row tables of recent rules, by their identity (a few)


def row_table(rules):
    """The hook table of ``rules`` on rows (see ``RowTable``), linked once per rules."""
    found = _TABLES.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    table = _linked(rules)
    if len(_TABLES) >= 8:  # (a table keeps its rules: few, or rules of many options pile up)
        _TABLES.clear()
    _TABLES[id(rules)] = (rules, table)
    return table


cdef object _link_chain(
    object rules, str name, list codecs, dict points, const Link** first
):
    """Link the modules' twins of hook ``name`` into one chain, outermost at ``first`` (NULL:
    the core's own); what lacks a row form (None: nothing)."""
    cdef HookTwin outermost
    lacking = f"a module's twin of {name} without a row form"
    missing, found, _wrapped = _link_twins(  # (the chain's modules, then the core)
        getattr(rules, name), len(rules.chains[name]) - 1, rules, codecs, points, lacking
    )
    first[0] = NULL
    if missing is None and found is not None:
        outermost = found
        first[0] = &outermost.row
    return missing


cdef bint _link_observers(object rules, list codecs, dict points, dict linked) except -1:
    """Each observed part's observer twin with a row form, its part resolved, into
    ``linked`` by part name; whether every one has."""
    for name, observer in rules.observers.items():
        if not isinstance(observer, HookTwin) or (<HookTwin>observer).row.run is NULL:
            return False
        if _resolve(<HookTwin>observer, rules, codecs, points) is not None:
            return False
        linked[name] = observer
    return all(key.observe is None or key.name in linked for key in rules.layout.parts)


cdef RowTable _linked(object rules):
    """``row_table``'s work: the rules' twins linked into one table."""
    cdef RowTable table = RowTable()
    cdef list codecs = [None] * len(rules.layout.parts)
    cdef dict points = {}
    cdef const Link* chains[10]
    cdef const Link* scores_chain = NULL
    cdef Py_ssize_t index
    table.hooks = tuple([getattr(rules, name) for name in (*_CHAINED, "scores")])
    table.complete = True
    for index in range(10):
        missing = _link_chain(rules, _CHAINED[index], codecs, points, &chains[index])
        if missing is not None:
            table.complete = False
            table.missing = missing
            break
    if not table.complete:
        for index in range(10):
            chains[index] = NULL
    else:  # the scores too, where they have row forms (the batch's loop then scores in C)
        table.scores_on_rows = _link_chain(rules, "scores", codecs, points, &scores_chain) is None
        if not table.scores_on_rows:
            scores_chain = NULL
    table.observers = {}
    table.observes_on_rows = table.scores_on_rows and _link_observers(
        rules, codecs, points, table.observers
    )
    table.claims_chain, table.bust_chain, table.set_aside_chain = chains[0], chains[1], chains[2]
    table.pending_chain, table.apply_chain = chains[3], chains[4]
    table.stop_total_chain, table.take_tile_chain = chains[5], chains[6]
    table.roll_actions_chain, table.end_turn_chain = chains[7], chains[8]
    table.turn_dice_chain = chains[9]
    table.scores_chain = scores_chain
    table.codecs = tuple(codecs)
    table.points = points  # (their twins hold the links the chains use)
    return table


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
