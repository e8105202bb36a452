# cython: language_level=3
"""The clairvoyant values past the horizon (see ``_belief_bounds.pyx``): owns
``Belief.clair_leaves``, ``sampled``, ``cuts`` and ``bound_errors``; reads the knobs, the
unseen cards and the clock; solves each order through ``_belief_leaves``."""
from libc.stdint cimport uint64_t, int8_t
from ._types cimport Heroes
from ._belief_types cimport i128
from ._belief_state cimport Belief

ctypedef struct Cutoff:
    # what a clairvoyant value is compared with by its caller, who keeps the better one
    bint have                   # a value to beat: (w, s), times n!; else none
    i128 w
    i128 s
    int *best                   # the scores by order of the candidate that set it (NULL: not kept)
    int *mine                   # where a candidate valued in full leaves its scores by order (NULL: nowhere)
    bint cut                    # out: cut off (its value is not above (w, s), and not computed)
    bint probe                  # only solve the first order (memoised), into probe_score; no value
    int probe_score

cdef int clairvoyant(Belief *b, int8_t *prefix, int npre, int8_t *full, int nfull, Heroes *hs,
                     int avoided_last, Cutoff *co, i128 *w, i128 *s) except -1
cdef int clair_orders(Belief *b) noexcept nogil
cdef uint64_t order_seed(Belief *b, int8_t *prefix, int npre, int *labels, int nd, int8_t *full,
                         int nfull) noexcept nogil
cdef void shuffle_order(uint64_t *st, int *labels, int nd) noexcept nogil
