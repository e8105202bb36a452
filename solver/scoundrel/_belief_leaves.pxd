# cython: language_level=3
"""The leaves of perfect information (see ``_belief_leaves.pyx``): owns ``Belief.core``,
``leaves`` and ``core_nodes``; reads the rules, the unseen cards and the clock; stores in
the memo (``_belief_memo``) and sets ``aborted`` when a leaf is not proven."""
from libc.stdint cimport int8_t
from ._types cimport Heroes
from ._belief_types cimport i128
from ._belief_state cimport Belief

cdef int leaves_init(Belief *b, double tt_mb) except -1
cdef void leaves_free(Belief *b) noexcept nogil
cdef int leaf_value(Belief *b, int8_t *row, int nrow, int8_t *bot, int nbot, Heroes *hs, int avoid_ok,
                    i128 *w, i128 *s) except -1
cdef int order_value(Belief *b, int8_t *S, int m, int8_t *full, int nfull, Heroes *hs, int avoided_last,
                     int *score) except -1
cdef int order_known(Belief *b, int8_t *S, int m, int8_t *full, int nfull, Heroes *hs, int avoided_last,
                     int *score) noexcept nogil
cdef int position_value(Belief *b, int8_t *room, int nroom, int taken, int potion_mask, int help_used,
                        Heroes *hs, int avoided_last, i128 *w, i128 *s) except -1
