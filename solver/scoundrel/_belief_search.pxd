# cython: language_level=3
"""The driver of the belief search (see ``_belief_search.pyx``): owns ``Belief.beliefs``,
``chance_nodes`` and the limits of a call (``stop_at``, ``deadline``, ``aborted``)."""
from libc.stdint cimport int8_t
from ._types cimport Heroes
from ._belief_types cimport i128
from ._belief_state cimport Belief
from ._belief_bounds cimport Cutoff

cdef void begin_call(Belief *b, long long max_beliefs, double timeout) noexcept nogil
cdef int tick(Belief *b) except -1
cdef int room_value(Belief *b, int depth, Heroes *hs, int avoided_last, int deals, i128 *w, i128 *s) except -1
cdef int face_value(Belief *b, int depth, int8_t *room, int nroom, int to_take, int potion_mask, int help_used,
                    Heroes *hs, int deals, i128 *w, i128 *s) except -1
cdef int chance_value(Belief *b, int depth, int8_t *prefix, int npre, int8_t *B, int nB, Heroes *hs0,
                      int leader, int avoided_last, int deals, int append_row, Cutoff *co,
                      i128 *w, i128 *s) except -1
