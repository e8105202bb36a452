# cython: language_level=3
"""The transposition table: its memory, its keys, probing, storing and growing.

Owns the ``Table`` struct (``Search.tt``) and the Zobrist keys; touches nothing
else.  The driver (``_search``) asks it for a room start's key, probes, stores,
and counts a probe that answered in ``Table.hits``.
"""
from libc.stdint cimport uint64_t, uint32_t, int16_t, int8_t
from ._types cimport MAXHP, Heroes

cdef enum:
    BUCKET = 4
    INITIAL_BUCKETS = 4096

ctypedef struct Entry:
    # keyed without the health of hero 1: lo[h-1] / hi[h-1] bound the value at health h,
    # and bounds spread along h because the value never decreases with health
    uint64_t k1
    uint64_t k2
    uint32_t work
    int16_t lo[MAXHP]
    int16_t hi[MAXHP]

ctypedef struct Table:
    Entry *e                  # buckets * BUCKET entries
    uint64_t buckets
    uint64_t max_buckets      # the limit it may double up to (set lower when memory runs out)
    uint64_t mask
    long long hits, stores, used, replaced
    # threads sharing the entries (_search's lazy SMP): NULL with one thread, so one
    # thread takes no lock; else one spinlock per LOCKS-th bucket, held while an entry
    # is read or written.  Each thread has its own Table struct over the same ``e``
    # (its own counters, summed by the main thread after a test), and no table grows
    # while threads run (``max_buckets == buckets``: the main thread grows it first).
    unsigned char *locks

cdef enum:
    LOCKS = 65536             # spinlocks of a shared table (a power of 2)

cdef int tt_init(Table *t, double tt_mb) except -1
cdef void tt_free(Table *t) noexcept nogil
cdef void tt_key(int8_t *S, int n, Heroes *hs, int coop, int leader, int avoid_ok,
                 uint64_t *k1, uint64_t *k2) noexcept nogil
cdef bint tt_probe(Table *t, uint64_t k1, uint64_t k2, int h0, int *lo, int *hi) noexcept nogil
cdef bint tt_probe_as(Table *t, uint64_t k1, uint64_t k2, int hero, int field, int old,
                      int new, int h0, int *lo, int *hi) noexcept nogil
cdef void tt_grow(Table *t) noexcept nogil
cdef void tt_store(Table *t, uint64_t k1, uint64_t k2, int hp, int lo, int hi, uint32_t work) noexcept nogil
