# cython: language_level=3
"""The transposition table of trick boundaries (see ``_table.pyx``)."""
from libc.stdint cimport uint64_t
from ._types cimport Table, Entry, BUCKET

cdef int tt_init(Table *t, int log2_entries) except -1
cdef void tt_free(Table *t) noexcept nogil
cdef void tt_new_generation(Table *t, bint fresh) noexcept nogil
cdef int tt_lookup(Table *t, uint64_t key, int f, int *lo, int *hi, int *best) noexcept nogil
cdef void tt_store(Table *t, uint64_t key, int lo, int hi, int best, long long work) noexcept nogil

cdef enum:
    PAST_BITS = 45

cdef extern from *:
    """
    #define IMP_PAST_MASK (0x3FFFULL << 45)
    #define IMP_LIVE_MASK ((1ULL << 36) - 1)
    #define IMP_DEVIL_MASK (0x1FULL << 59)
    """
    # the coins of A (bits 45-51) and B (bits 52-58) in a key; the cards in play (bits 0-35);
    # the devil's trick's coins (bits 59-63)
    const uint64_t PAST_MASK "IMP_PAST_MASK"
    const uint64_t DEVIL_MASK "IMP_DEVIL_MASK"
    const uint64_t LIVE_MASK "IMP_LIVE_MASK"


cdef extern from *:
    """
    #define imp_prefetch(p) __builtin_prefetch((p), 0, 3)
    """
    void imp_prefetch(const void *p) noexcept nogil


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL
    return z ^ (z >> 31)


cdef inline Entry *tt_bucket(Table *t, uint64_t key) noexcept nogil:
    """The bucket of ``key`` (one cache line): every entry of its position, whatever the coins won
    (and, with ``USE_DEVIL``, whatever the devil's coins: ``Table.soft``)."""
    return t.e + (mix(key & ~t.soft) & t.mask & ~(<uint64_t> (BUCKET - 1)))


cdef inline void tt_prefetch(Table *t, uint64_t key) noexcept nogil:
    """Ask for ``key``'s bucket ahead of its lookup (the lookup's time is nearly all this miss)."""
    imp_prefetch(tt_bucket(t, key))
