# cython: language_level=3
"""The compiled engine's boundary with the rules and with the pure engine.

Which calls the compiled engine takes: its view of one rules object (the chance tables in C,
the modules' row twins linked, whether the rules play on rows) and whether a state may be read
by offset (``taken``). Which it hands back: a declined call is answered by the pure twin,
counted by function (``fallbacks()``) and warned about once per function
(``RuntimeWarning``), so a kernel bug shows as a warning, never as a silent slow answer; over
legal play the count stays zero.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject

from pickomino_rules._engine.states cimport Slots, plain, read_slots
from pickomino_rules.compiled_plugin cimport RowTable

import warnings

from pickomino_rules.compiled_plugin import row_table
from pickomino_rules.rules import Rules

cdef Slots S
read_slots(&S)


cdef Py_ssize_t _DECLINED = 0
cdef dict _FALLBACKS = {}


cdef object fell_back(str name, object pure, tuple arguments):
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


cdef class Table:
    """What the kernel reads of one chance table: its bounds as C numbers, to bisect, and a
    guide: for each of ``GUIDE`` equal stretches of the total, where its bounds begin."""

    def __dealloc__(self):
        PyMem_Free(self.bounds)


cdef class View:
    """The kernel's view of one rules object: its chance tables in C, its row twins linked,
    whether it plays on rows, and its one-row table once made."""

    cdef Table table(self, object dice):
        found = self.tables.get(dice)
        if found is not None:
            return <Table>found
        pure = self.chance_table(dice)
        cdef Table table = Table()
        table.outcomes = pure.outcomes
        table.size = len(pure.bounds)
        table.bounds = <double*>PyMem_Malloc(max(1, table.size) * sizeof(double))
        if table.bounds is NULL:
            raise MemoryError()
        for index in range(table.size):
            table.bounds[index] = pure.bounds[index]  # the table's own floats, exactly
        table.total = pure.total
        table.scale = GUIDE / pure.total if pure.total > 0 else 0.0
        cdef Py_ssize_t bucket, at = 0
        for bucket in range(GUIDE + 1):  # the first bound above each stretch's start
            while table.scale and at < table.size and table.bounds[at] <= bucket / table.scale:
                at += 1
            table.guide[bucket] = at if bucket < GUIDE else table.size
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
    seen.chance_table = rules.chance_table
    seen.tidies_turn_end = rules.tidies_turn_end
    seen.row_table = row_table(rules)
    seen.turn_on_row = seen.row_table.complete  # every module's twin of a turn's hook is a row twin
    seen.row = None
    _VIEW = seen
    return seen


def on_rows(rules):
    """Whether the kernel plays the turns of ``rules`` on a one-row table (``_row``)."""
    if type(rules) is not Rules:
        return False
    return view(rules).turn_on_row


cdef View taken(object rules, object state):
    """The view of ``rules`` when the kernel may take a call on ``state``, else None."""
    if not plain(&S, state) or type(rules) is not Rules:
        return None
    cdef View fast = view(rules)
    cdef PyObject* layout = (<PyObject**>((<char*><PyObject*>state) + S.layout))[0]
    if layout is not <PyObject*>fast.layout:  # (an unset layout is NULL)
        return None
    return fast
