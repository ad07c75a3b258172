# cython: language_level=3
"""The core turn hooks' compiled twins (``_hooks.pyx``), cimported by the kernel's steps."""

cdef long used(object counts) except? -1
cdef bint any_dice(object in_hand) except -1
cdef object takes_of(int bits)
cpdef object core_roll_actions(object state)
cpdef object core_set_aside(object state, object face)
cpdef object core_stop_total(object state)
cpdef object core_claims(object state, object total)
cpdef object core_take_tile(object state, object claim)
cpdef object core_bust(object state)
cpdef object core_turn_dice(object rules)
cpdef object core_pending_actions(object state)
cpdef object core_end_turn(object state)
cpdef object core_scores(object worms, object state)
