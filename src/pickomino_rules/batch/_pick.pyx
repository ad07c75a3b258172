# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The vectorised random bot's pick, compiled: a tool of the bots, no rule.

``batch_bots.random_actions`` draws one number in [0, 1) per game with the batch's generator
and takes the legal action it falls on: the ``int(draw * legal)``-th of the game's legal
actions (0 where none is legal). Its numpy form in ``_bots.py`` walks the mask column by
column; this loop walks it row by row in C, about half the time at 10,000 games. The
same draws give the same actions (tests/batch/test_batch.py), so seeded games do not
depend on which form ran.
"""

from libc.stdint cimport int64_t, uint8_t


def pick(const uint8_t[:, ::1] mask, const double[::1] draws, int64_t[::1] chosen):
    """Into ``chosen``: in each row of ``mask``, the column of the legal action ``draws``
    falls on, or 0."""
    cdef Py_ssize_t row, column, width = mask.shape[1]
    cdef int legal, target, running, before
    cdef const uint8_t* legal_in
    if draws.shape[0] != mask.shape[0] or chosen.shape[0] != mask.shape[0]:
        raise ValueError("one draw and one action per game")
    if width == 0:
        chosen[:] = 0
        return
    with nogil:
        for row in range(mask.shape[0]):
            legal_in = &mask[row, 0]
            legal = 0
            for column in range(width):
                legal += legal_in[column] != 0
            target = <int>(draws[row] * legal)  # as numpy's astype: toward zero
            running = before = 0  # the columns before the target-th legal one, counted
            for column in range(width):  # without branches: the legal columns fall at random
                running += legal_in[column] != 0
                before += running <= target
            chosen[row] = before if legal else 0
