# cython: language_level=3
"""The clairvoyant values past the horizon (see ``_belief_bounds.pyx``): owns
``Belief.clair_leaves`` and ``sampled``; reads the knobs, the unseen cards and the clock;
solves each order through ``_belief_leaves``."""
from libc.stdint cimport uint64_t, int8_t
from ._types cimport Heroes
from ._belief_types cimport i128
from ._belief_state cimport Belief

cdef int clairvoyant(Belief *b, int8_t *prefix, int npre, int8_t *full, int nfull, Heroes *hs,
                     int avoided_last, i128 *w, i128 *s) except -1
cdef uint64_t order_seed(Belief *b, int8_t *prefix, int npre, int *labels, int nd, int8_t *full,
                         int nfull) noexcept nogil
cdef void shuffle_order(uint64_t *st, int *labels, int nd) noexcept nogil
