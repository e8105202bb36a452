# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The transposition table: its memory, its keys, probing, storing and growing.

Owns the ``Table`` struct (``Search.tt``, see ``_table.pxd``) and the Zobrist
keys; reads nothing of the search beyond the arguments it is given.

A room start's key is 128 bits: the cards of ``S`` by position from the end,
hero 1's weapon and last kill, hero 2's health, weapon and last kill (co-op),
the leader and whether an avoid is allowed.  Hero 1's health is not in it: an
entry holds lower/upper bounds for every health, and stores spread them along
health because the value never decreases with it.  Buckets of ``BUCKET``
entries; the entry with the least work is replaced.
"""
from libc.stdlib cimport free, calloc, realloc
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t
from ._types cimport MAXN, NCODES, MAXHP, NEG, Heroes

# The table's memory.  On Linux it is an anonymous mapping of its own,
# grown with mremap: the kernel moves the page tables, so the doubled table never sits
# beside a copy of the old one (calloc + copy held 1.5x the final table at the last
# doubling, and glibc could keep the freed halves in the heap).  The fresh half of a
# mapping is zero and costs no memory until touched.  Elsewhere calloc/realloc.
cdef extern from *:
    """
    #include <stdlib.h>
    #include <sys/mman.h>
    #if defined(__linux__) && defined(MREMAP_MAYMOVE)
    static void *scoundrel_tt_alloc(size_t bytes) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    static void *scoundrel_tt_resize(void *p, size_t old_bytes, size_t new_bytes) {
        void *q = mremap(p, old_bytes, new_bytes, MREMAP_MAYMOVE);
        return q == MAP_FAILED ? NULL : q;
    }
    static void scoundrel_tt_free(void *p, size_t bytes) { munmap(p, bytes); }
    #else
    static void *scoundrel_tt_alloc(size_t bytes) { return calloc(1, bytes); }
    static void *scoundrel_tt_resize(void *p, size_t old_bytes, size_t new_bytes) {
        (void) old_bytes;
        return realloc(p, new_bytes);
    }
    static void scoundrel_tt_free(void *p, size_t bytes) { (void) bytes; free(p); }
    #endif
    """
    # NULL when the memory is not there; resize then leaves the old block as it was
    void *_tt_alloc "scoundrel_tt_alloc" (size_t nbytes) noexcept nogil
    void *_tt_resize "scoundrel_tt_resize" (void *p, size_t old_bytes, size_t new_bytes) noexcept nogil
    void _tt_free "scoundrel_tt_free" (void *p, size_t nbytes) noexcept nogil

# A bucket's spinlock (GCC/Clang __atomic builtins): taken around every read and write
# of an entry when threads share the table, so no thread sees an entry half written
# (an entry is 104 bytes: its key and 40 bounds cannot be written atomically).
cdef extern from *:
    """
    static inline void scoundrel_tt_lock(unsigned char *l) {
        while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE)) {
            while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
    #if defined(__x86_64__) || defined(__i386__)
                __builtin_ia32_pause();
    #endif
            }
        }
    }
    static inline void scoundrel_tt_unlock(unsigned char *l) { __atomic_clear(l, __ATOMIC_RELEASE); }
    """
    void _lock "scoundrel_tt_lock" (unsigned char *l) noexcept nogil
    void _unlock "scoundrel_tt_unlock" (unsigned char *l) noexcept nogil

cdef uint64_t Z1[MAXN][NCODES]
cdef uint64_t Z2[MAXN][NCODES]
cdef uint64_t ZH1[2][3][128]
cdef uint64_t ZH2[2][3][128]
cdef uint64_t ZX1[8]
cdef uint64_t ZX2[8]


cdef uint64_t _sm_state = 0x1234567


cdef uint64_t _splitmix() noexcept nogil:
    global _sm_state
    _sm_state += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = _sm_state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void _init_keys():
    # (this order of draws gives every key of the one-file core: same collisions,
    # same replacements, same node counts)
    cdef int c, p, i, j, v
    for p in range(MAXN):
        for c in range(NCODES):
            Z1[p][c] = _splitmix()
            Z2[p][c] = _splitmix()
    for i in range(2):
        for j in range(3):
            for v in range(128):
                ZH1[i][j][v] = _splitmix()
                ZH2[i][j][v] = _splitmix()
    for i in range(8):
        ZX1[i] = _splitmix()
        ZX2[i] = _splitmix()


_init_keys()

# the table's layout, for tests and benchmarks: bytes of one entry, entries per bucket
TT_ENTRY_BYTES = sizeof(Entry)
TT_BUCKET = BUCKET


cdef int tt_init(Table *t, double tt_mb) except -1:
    """Start small and double while more than half full, up to ``tt_mb``: a small
    search then touches few pages (page faults cost more than the search itself
    on a big, mostly empty table)."""
    cdef uint64_t want, b
    want = <uint64_t> (tt_mb * 1024.0 * 1024.0 / (BUCKET * sizeof(Entry)))
    b = 1
    while b * 2 <= want:
        b *= 2
    if b < 1024:
        b = 1024
    t.max_buckets = b
    if b > INITIAL_BUCKETS:
        b = INITIAL_BUCKETS
    t.buckets = b
    t.mask = b - 1
    t.e = <Entry *> _tt_alloc(b * BUCKET * sizeof(Entry))
    if t.e == NULL:
        raise MemoryError(f"cannot allocate a {tt_mb} MB transposition table")
    t.hits = 0
    t.stores = 0
    t.used = 0
    t.replaced = 0
    t.locks = NULL
    return 0


cdef void tt_free(Table *t) noexcept nogil:
    if t.e != NULL:
        _tt_free(t.e, t.buckets * BUCKET * sizeof(Entry))
        t.e = NULL


cdef void tt_key(int8_t *S, int n, Heroes *hs, int coop, int leader, int avoid_ok,
                 uint64_t *k1_out, uint64_t *k2_out) noexcept nogil:
    """The key of the room start ``S[:n]`` with heroes ``hs`` (canonical, see ``_canon``)."""
    cdef int i, c
    cdef uint64_t k1 = 0, k2 = 0
    for i in range(n):
        c = S[i]
        k1 ^= Z1[n - 1 - i][c]
        k2 ^= Z2[n - 1 - i][c]
    # hero 1's health is not in the key: the entry holds bounds for every health
    k1 ^= ZH1[0][1][hs.w[0]] ^ ZH1[0][2][hs.k[0]]
    k2 ^= ZH2[0][1][hs.w[0]] ^ ZH2[0][2][hs.k[0]]
    if coop:
        k1 ^= ZH1[1][0][hs.hp[1] & 127] ^ ZH1[1][1][hs.w[1]] ^ ZH1[1][2][hs.k[1]]
        k2 ^= ZH2[1][0][hs.hp[1] & 127] ^ ZH2[1][1][hs.w[1]] ^ ZH2[1][2][hs.k[1]]
    k1 ^= ZX1[leader * 2 + avoid_ok]
    k2 ^= ZX2[leader * 2 + avoid_ok]
    k1_out[0] = k1
    k2_out[0] = k2


cdef inline Entry *_find(Table *t, uint64_t k1, uint64_t k2) noexcept nogil:
    cdef Entry *b = t.e + (k1 & t.mask) * BUCKET
    cdef int i
    for i in range(BUCKET):
        if b[i].work != 0 and b[i].k1 == k1 and b[i].k2 == k2:
            return &b[i]
    return NULL


cdef bint tt_probe(Table *t, uint64_t k1, uint64_t k2, int h0, int *lo, int *hi) noexcept nogil:
    """Is the room start of key (``k1``, ``k2``) stored?  If so, ``lo``/``hi``: its
    bounds at hero 1's health ``h0 + 1``, copied (under the bucket's lock when threads
    share the table: the caller never reads an entry another thread may be writing)."""
    cdef Entry *e
    cdef unsigned char *l = NULL
    if t.locks != NULL:
        l = &t.locks[(k1 & t.mask) & (LOCKS - 1)]
        _lock(l)
    e = _find(t, k1, k2)
    if e != NULL:
        lo[0] = e.lo[h0]
        hi[0] = e.hi[h0]
    if l != NULL:
        _unlock(l)
    return e != NULL


cdef bint tt_probe_as(Table *t, uint64_t k1, uint64_t k2, int hero, int field, int old,
                      int new, int h0, int *lo, int *hi) noexcept nogil:
    """Probe the room start of key (``k1``, ``k2``) with ``field`` (0 health, 1 weapon,
    2 last kill) of ``hero`` ``new`` instead of ``old``."""
    return tt_probe(t, k1 ^ ZH1[hero][field][old & 127] ^ ZH1[hero][field][new & 127],
                    k2 ^ ZH2[hero][field][old & 127] ^ ZH2[hero][field][new & 127], h0, lo, hi)


cdef void tt_grow(Table *t) noexcept nogil:
    """Double the table in place (keeps it as it is if memory runs out).

    An entry lives in bucket ``k1 & mask``, so doubling sends each entry of
    old bucket ``o`` to ``o`` or ``o + nb`` and nothing else lands there: no
    entry is lost, and each new bucket holds its old bucket's entries for it
    in their old order, packed to the front, the rest zero -- the table that
    re-inserting every entry into a fresh zeroed one gave (tests/scoundrel/test_memory.py
    checks it byte for byte), so node counts do not depend on how it grew.
    """
    cdef uint64_t nb = t.buckets, o
    cdef size_t size = BUCKET * sizeof(Entry)
    cdef Entry *e = <Entry *> _tt_resize(t.e, nb * size, 2 * nb * size)
    cdef Entry *lo
    cdef Entry *hi
    cdef Entry old[BUCKET]
    cdef int j, nlo, nhi
    if e == NULL:
        t.max_buckets = t.buckets
        return
    for o in range(nb):
        lo = e + o * BUCKET
        hi = e + (o + nb) * BUCKET
        memcpy(old, lo, size)
        nlo = 0
        nhi = 0
        for j in range(BUCKET):
            if old[j].work == 0:
                continue
            if old[j].k1 & nb:
                memcpy(&hi[nhi], &old[j], sizeof(Entry))
                nhi += 1
            else:
                memcpy(&lo[nlo], &old[j], sizeof(Entry))
                nlo += 1
        memset(&lo[nlo], 0, (BUCKET - nlo) * sizeof(Entry))
        memset(&hi[nhi], 0, (BUCKET - nhi) * sizeof(Entry))
    t.e = e
    t.buckets = 2 * nb
    t.mask = 2 * nb - 1


cdef void tt_store(Table *t, uint64_t k1, uint64_t k2, int hp, int lo, int hi, uint32_t work) noexcept nogil:
    """Record lo <= value(hp) <= hi; spread hi to lower and lo to higher health.
    When threads share the table, under the bucket's lock: the bounds already
    there (another thread's too) are merged, never overwritten by weaker ones."""
    cdef Entry *b
    cdef Entry *e = NULL
    cdef int i, victim = -1
    cdef uint32_t least = 0xFFFFFFFF
    cdef unsigned char *l = NULL
    if t.buckets < t.max_buckets and <uint64_t> t.used * 2 > t.buckets * BUCKET:
        tt_grow(t)
    if t.locks != NULL:
        l = &t.locks[(k1 & t.mask) & (LOCKS - 1)]
        _lock(l)
    b = t.e + (k1 & t.mask) * BUCKET
    t.stores += 1
    for i in range(BUCKET):
        if b[i].work != 0 and b[i].k1 == k1 and b[i].k2 == k2:
            e = &b[i]
            if work > e.work:
                e.work = work
            break
    if e == NULL:
        for i in range(BUCKET):
            if b[i].work == 0:
                victim = i
                t.used += 1
                break
            if b[i].work < least:
                least = b[i].work
                victim = i
        e = &b[victim]
        if e.work != 0:
            t.replaced += 1
        e.k1 = k1
        e.k2 = k2
        e.work = work if work > 0 else 1
        for i in range(MAXHP):
            e.lo[i] = NEG
            e.hi[i] = -NEG
    for i in range(hp):
        if hi < e.hi[i]:
            e.hi[i] = hi
    for i in range(hp - 1, MAXHP):
        if lo > e.lo[i]:
            e.lo[i] = lo
    if l != NULL:
        _unlock(l)
