# cython: language_level=3
"""The memo of belief values (see ``_belief_memo.pyx``): owns ``Belief.memo`` and
nothing else; the keys are pure functions of what they are given."""
from libc.stdint cimport uint64_t, int8_t
from ._types cimport Heroes
from ._belief_types cimport i128

cdef enum:
    KEY_ROOM = 0      # a room start where avoiding is allowed: its full value (face or avoid)
    KEY_FACE = 1      # a room start's face value (the row sorted: its order does not matter)
    KEY_LEAF = 2      # a leaf of perfect information: its (win, score), not scaled

ctypedef struct MEntry:
    uint64_t k1       # 0: an empty slot
    uint64_t k2
    i128 w
    i128 s

ctypedef struct Memo:
    MEntry *tab       # open addressing, linear probing, at most half full
    uint64_t mask     # slots - 1 (a power of 2)
    long long used

cdef int memo_init(Memo *m) except -1
cdef void memo_free(Memo *m) noexcept nogil
cdef bint memo_recall(Memo *m, uint64_t k1, uint64_t k2, i128 *w, i128 *s) noexcept nogil
cdef int memo_store(Memo *m, uint64_t k1, uint64_t k2, i128 w, i128 s) except -1
cdef void belief_key(int kind, Heroes *hs, int8_t *row, int nrow, int avoid_ok, int deals, int horizon,
                     int *cnt, int8_t *bot, int nbot, uint64_t *k1, uint64_t *k2) noexcept nogil
