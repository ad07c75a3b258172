# cython: language_level=3
"""The compiled engine's boundary (``_boundary.pyx``): which calls it takes, and which it
hands to the pure engine. Cimported by the kernel and the one-row table."""

from pickomino_rules.compiled_plugin cimport RowTable


cdef enum:
    GUIDE = 256  # stretches of a table's total: a draw bisects only its stretch's bounds


cdef class Table:
    cdef tuple outcomes
    cdef double* bounds
    cdef Py_ssize_t size
    cdef Py_ssize_t guide[GUIDE + 1]
    cdef double scale  # GUIDE / total
    cdef double total
    cdef object by_id
    cdef object has


cdef class View:
    cdef readonly object rules
    cdef object layout
    cdef object chance_table
    cdef dict tables
    cdef bint tidies_turn_end
    cdef readonly bint turn_on_row  # the turn's hooks are the core's or row twins: on a row
    cdef RowTable row_table  # the modules' row twins linked (``compiled_plugin.row_table``)
    cdef object row  # the one-row table (``_row.Row``) of these rules, once made

    cdef Table table(self, object dice)


cpdef View view(object rules)
cdef View taken(object rules, object state)
cdef object fell_back(str name, object pure, tuple arguments)
