# cython: language_level=3
"""One game as a one-row table (``_row.pyx``), cimported by the kernel."""

from pickomino_rules._engine._boundary cimport View
from pickomino_rules._engine.rows cimport Seen

cdef object play(View fast, object state, object move)
cdef object row_legal(View fast, object state)
cdef object row_claims(View fast, object state)
cdef object row_outcomes(View fast, object state)
cdef bint row_observe(View fast, object state, int me, const Seen* at, float* out, tuple parts) except -1
