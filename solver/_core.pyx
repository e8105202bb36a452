# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The search core: depth-first branch and bound with a transposition table.

It mirrors the rules of ``solver.state`` (proven equal by the differential
tests against ``solver.reference``).  The unit of search is a *room start*:
the remaining cards ``S`` (room first, then the dungeon), the heroes, the
leader and whether the room may be avoided.  Everything that happens inside
one room (avoids, the order of the takes, fight modes, the help card) is
enumerated into a list of *outcomes*: either a terminal score or a child
room start.  Equal outcomes are merged and dominated ones dropped, because
the value of a room start never decreases with more health, a stronger
weapon or a higher last kill.

Avoids are folded into the room: avoiding rotates ``S`` by four cards, so
the rooms reachable by avoiding are the rotations of ``S`` (one for the
classic rule and co-op, all of them for the easy rule).  There are then no
avoid edges in the search graph, and the cycles of the easy rule vanish.

The search maximises the final score.  ``node(alpha)`` returns the exact
value when it exceeds ``alpha`` and otherwise an upper bound <= alpha
(fail-soft).  The table stores lower/upper bounds keyed by a 128-bit hash
of the whole room start.  Every score the search returns comes from a
terminal it visited; the best such terminal and its path are kept as the
*incumbent*, which is the optimal line when the search finishes and the
best line found when a limit stops it.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    int __builtin_clz(unsigned int x) noexcept nogil

# The transposition table's memory.  On Linux it is an anonymous mapping of its own,
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

cdef extern from "Python.h":
    # declared here without "except -1": a pending Ctrl-C is noted, not raised mid-search
    int _check_signals "PyErr_CheckSignals" ()
    void _clear_error "PyErr_Clear" ()

DEF MAXN = 64          # cards in S
DEF MAXDEPTH = 96      # room starts on one path
DEF MAXOUT = 16384     # outcomes of one room start (easy flee: up to 54 rotations)
DEF NO_BETA = 1000     # beta when not deciding: above every score
DEF GROUPS = 4096      # outcome groups: rotation * 64 + carried card + 1
DEF NEG = -30000
DEF UNKNOWN = 30000     # node(): bound not computed yet
DEF FRESH = 99         # last kill of an unused weapon
DEF NCODES = 53        # card codes: Card.index, joker = 52
DEF MAXHP = 20
DEF BUCKET = 4
DEF INITIAL_BUCKETS = 4096

cdef enum:
    MONSTER = 0
    POTION = 1
    WEAPON = 2

cdef struct Heroes:
    int8_t hp[2]
    int8_t w[2]
    int8_t k[2]

cdef struct Outcome:
    Heroes hs
    int16_t score        # terminal score
    int16_t ub           # upper bound of the child's value
    int32_t order        # move-ordering key, larger first
    int8_t terminal
    int8_t rot           # avoids before facing
    int8_t left          # card carried into the next room, -1 if none
    int8_t ntakes
    uint8_t takes[4]     # card code | 64 weapon | 128 help
    uint64_t pk          # heroes packed in byte lanes, for the domination test
    int16_t seq          # enumeration order: the deterministic tie-break
    int16_t next         # next outcome of the same group (see add_outcome)
    int8_t dead          # dominated by a later outcome

cdef struct Entry:
    # keyed without the health of hero 1: lo[h-1] / hi[h-1] bound the value at health h,
    # and bounds spread along h because the value never decreases with health
    uint64_t k1
    uint64_t k2
    uint32_t work
    int16_t lo[MAXHP]
    int16_t hi[MAXHP]

cdef struct Tally:
    # what is left in S, by value: monsters, potions, diamonds
    int16_t m[16]
    int16_t p[16]
    int16_t d[16]
    int mtot
    int psum              # total value of the potions
    uint32_t mmask        # bit v: some monster of value v (likewise pmask, dmask)
    uint32_t pmask
    uint32_t dmask

cdef struct Step:
    int8_t rot
    int8_t ntakes
    uint8_t takes[4]

cdef int8_t KIND[NCODES]
cdef int8_t VALUE[NCODES]
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


cdef void _init_tables():
    cdef int c, p, i, j, v
    for c in range(NCODES):
        if c == 52:
            KIND[c] = MONSTER
            VALUE[c] = 15
        else:
            v = c % 13 + 2
            VALUE[c] = v
            if c // 13 == 0 or c // 13 == 3 or v > 10:
                KIND[c] = MONSTER
            elif c // 13 == 2:
                KIND[c] = POTION
            else:
                KIND[c] = WEAPON
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


_init_tables()

# the table's layout, for tests and benchmarks: bytes of one entry, entries per bucket
TT_ENTRY_BYTES = sizeof(Entry)
TT_BUCKET = BUCKET


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint _usable(int w, int k, int m, bint lenient) noexcept nogil:
    if w == 0:
        return False
    if lenient:
        return m <= k
    return m < k


cdef inline void _canon(Heroes *hs, uint32_t present, int nheroes, bint lenient) noexcept nogil:
    """Rewrite each weapon as the simplest equivalent one for the monsters left.

    A weapon only ever acts on the monsters still to come (``present``: bit v
    for a monster of value v): what counts is which of them it may meet and the
    damage each then deals.  So the last kill becomes the one that allows
    exactly the same remaining monsters, a weapon stronger than every monster
    it may still meet becomes as strong as the strongest of them (all deal 0),
    and a weapon that may meet none of them becomes no weapon.  Equivalent
    states then share table entries and dominate each other when enumerated.
    """
    cdef int j, lim, m
    cdef uint32_t sub
    for j in range(nheroes):
        if hs.w[j] == 0:
            hs.k[j] = 0
            continue
        lim = hs.k[j] if lenient else hs.k[j] - 1      # it may meet values <= lim
        if lim > 15:
            lim = 15
        m = 0
        if lim >= 2:
            sub = present & ((2u << lim) - 1)
            if sub:
                m = 31 - __builtin_clz(sub)
        if m == 0:
            hs.w[j] = 0
            hs.k[j] = 0
        else:
            hs.k[j] = m if lenient else m + 1
            if hs.w[j] > m:
                hs.w[j] = m


cdef uint64_t LANE_HI = 0x0000808080808080ULL


cdef inline uint64_t _pack(Heroes *hs) noexcept nogil:
    """Health, weapon and last kill of both heroes, one byte lane each (all < 128),
    so that a >= b in every lane iff ((a | LANE_HI) - b) & LANE_HI == LANE_HI."""
    return (<uint64_t> <uint8_t> hs.hp[0]) | ((<uint64_t> <uint8_t> hs.w[0]) << 8) \
        | ((<uint64_t> <uint8_t> hs.k[0]) << 16) | ((<uint64_t> <uint8_t> hs.hp[1]) << 24) \
        | ((<uint64_t> <uint8_t> hs.w[1]) << 32) | ((<uint64_t> <uint8_t> hs.k[1]) << 40)


cdef int _loss_bound(int8_t *val, int8_t *cost, int n, int budget, int mtot, int maxm) noexcept nogil:
    """Best possible loss score when no win is left.

    A lost game scores at most minus the monsters still untaken at the death.
    Before the fatal monster the heroes absorb at most ``budget`` damage
    (health above 1 plus every potion), and each monster costs at least its
    ``cost``; a fractional knapsack bounds the value that can be killed
    within the budget, and the fatal monster adds at most ``maxm``.
    """
    cdef int i, j, killed = 0, left = budget
    cdef int8_t tv, tc
    # most value per damage first (free monsters first): insertion sort, n <= 64
    for i in range(1, n):
        tv = val[i]
        tc = cost[i]
        j = i - 1
        while j >= 0 and <int> val[j] * tc < <int> tv * cost[j]:
            val[j + 1] = val[j]
            cost[j + 1] = cost[j]
            j -= 1
        val[j + 1] = tv
        cost[j + 1] = tc
    for i in range(n):
        if cost[i] <= left:
            killed += val[i]
            left -= cost[i]
        else:
            if left > 0:
                # fractional part, rounded up
                killed += (val[i] * left + cost[i] - 1) // cost[i]
            break
    killed += maxm
    if killed >= mtot:
        return 0
    return killed - mtot


cdef inline void _count(int16_t *counts, uint32_t *mask, int v, int d) noexcept nogil:
    """Add ``d`` to ``counts[v]`` and keep bit v of ``mask`` = (``counts[v]`` != 0)."""
    counts[v] += d
    if counts[v]:
        mask[0] |= 1u << v
    else:
        mask[0] &= ~(1u << v)


cdef inline void _tally_card(Tally *t, int c, int d) noexcept nogil:
    """Count card ``c`` ``d`` (+1 or -1) more times in ``t``."""
    cdef int v = VALUE[c]
    if KIND[c] == POTION:
        _count(t.p, &t.pmask, v, d)
        t.psum += d * v
    elif KIND[c] == WEAPON:
        _count(t.d, &t.dmask, v, d)
    else:
        _count(t.m, &t.mmask, v, d)
        t.mtot += d * v


cdef inline void _child_tally(Tally *t, Outcome *o, Tally *ct) noexcept nogil:
    """``ct`` = the cards of ``t`` minus the ones ``o`` takes."""
    cdef int j
    ct[0] = t[0]
    for j in range(o.ntakes):
        _tally_card(ct, o.takes[j] & 63, -1)


cdef inline int _child_cards(int8_t *S, int n, Outcome *o, int8_t *C) noexcept nogil:
    """Lay out in ``C`` the room start that outcome ``o`` of the room start ``S``
    leads to: the carried card, then ``S`` rotated by the avoids, minus its
    room.  Returns its number of cards."""
    cdef int j, start = (4 * o.rot + 4) % n
    C[0] = o.left
    for j in range(n - 4):
        C[j + 1] = S[(start + j) % n]
    return n - 3


cdef int _cmp_order(const void *pa, const void *pb) noexcept nogil:
    cdef const Outcome *a = <const Outcome *> pa
    cdef const Outcome *b = <const Outcome *> pb
    if a.order != b.order:
        return -1 if a.order > b.order else 1
    return a.seq - b.seq


cdef inline bint _commute(int ca, int va, int cb, int vb, int h) noexcept nogil:
    """Do two consecutive takes by one hero, of classes ``ca`` then ``cb``, give
    the same state in either order with nobody dying?  ``h`` is the hero's health
    before both.  Classes: 0 monster bare-handed, 1 monster with the weapon (``v``
    is the damage), 2 weapon card, 3 potion that heals (``v`` its value), 4 potion
    without effect (already drank this room)."""
    cdef int t
    if ca > cb:
        t = ca
        ca = cb
        cb = t
        t = va
        va = vb
        vb = t
    if cb <= 1:                      # two fights: not both with the weapon (its wear)
        return not (ca == 1 and cb == 1) and h - va - vb > 0
    if ca <= 1:
        if cb == 2:                  # a fight and a new weapon: only bare-handed
            return ca == 0 and h - va > 0
        if cb == 3:                  # a fight and a heal: when the cap does not bite
            return h + vb <= MAXHP and h - va > 0
        return h - va > 0            # a fight and a wasted potion
    if ca == 2:
        return cb != 2               # a weapon and a potion
    return ca == 4 and cb == 4       # two wasted potions (a heal and a waste do not commute)


cdef inline int _gcd(int a, int b) noexcept nogil:
    while b:
        a, b = b, a % b
    return a


cdef inline int _room_extra(int8_t *S, int lo, int hi, int avail, int *held, int *cglob,
                            int *top) noexcept nogil:
    """The extra damage (see ``Searcher.deep_extra``) of the monsters in ``S[lo:hi]``
    taken when the best diamond dealt is ``avail``; ``top`` gets the largest one."""
    cdef int j, c, v, w, e, tot = 0
    top[0] = 0
    for j in range(lo, hi):
        c = S[j]
        if KIND[c] != MONSTER:
            continue
        v = VALUE[c]
        w = held[v] if held[v] > avail else avail
        e = (v - w if v > w else 0) - cglob[v]
        tot += e
        if e > top[0]:
            top[0] = e
    return tot


cdef class Searcher:
    cdef readonly int coop, lenient, flee   # flee: 0 classic, 1 easy, 2 hard
    cdef int nheroes
    cdef int8_t S[MAXDEPTH][MAXN]
    cdef Outcome *out[MAXDEPTH]
    cdef Step path[MAXDEPTH]
    cdef Step inc[MAXDEPTH + 1]
    cdef int inc_len
    cdef int inc_score
    cdef int inc_found
    # outcome groups (rotation, carried card) of the room start being enumerated
    cdef int16_t g_head[GROUPS]
    cdef uint32_t g_stamp[GROUPS]
    cdef uint32_t g_present[GROUPS]
    cdef uint32_t stamp
    cdef int e_terminal_idx
    # transposition table
    cdef Entry *tt
    cdef uint64_t tt_buckets
    cdef uint64_t tt_max_buckets
    cdef uint64_t tt_mask
    cdef public long long tests
    cdef public list test_log   # (alpha, result, nodes so far) of each test of the last run
    cdef public int step        # how far below the proven upper bound the next test asks
    cdef public int zero_at     # no win found and the next test would ask <= this: ask 0 instead
    cdef public int wear_probes # per hero, how many less worn weapons the table is probed for
    cdef public int horizon     # cards deep_extra looks ahead; 0: off
    cdef public int loss_probe  # no win left: first ask whether the best loss reaches the bound
    cdef bint loss_phase      # alpha < 0: the loss bound is worth computing
    cdef int beta             # decide(): stop a room start as soon as a line reaches beta
    cdef public long long nodes, tt_hits, tt_stores, tt_used, tt_replaced
    cdef long long max_nodes
    cdef double deadline
    cdef public int aborted     # 0 none, 1 nodes, 2 time
    # per-enumeration scratch
    cdef int e_count
    cdef Outcome *e_buf
    cdef int e_rot
    cdef int e_final
    cdef int e_leader
    cdef int e_best_terminal
    # rate_outcomes' memo of the damage per (next room, weapons): 256 slots
    cdef uint64_t m_keys[256]
    cdef uint32_t m_stamps[256]
    cdef int16_t m_dmg[256]
    cdef int16_t m_room[256]    # the room's own extra in m_dmg; -1: deep_extra done (or none)
    cdef int m_sump[256]
    cdef int m_maxp[256]
    cdef uint32_t m_stamp
    cdef int m_used
    cdef Tally e_ptally        # the cards not yet taken on the enumeration's path
    cdef int e_alpha           # outcomes whose bound cannot beat it need not be listed
    cdef int e_pruned          # the largest bound of the outcomes not listed
    cdef Tally *e_tally        # the cards of the room start being enumerated

    def __cinit__(self, int coop, int lenient, int flee, double tt_mb):
        cdef int d
        cdef uint64_t want, b
        self.coop = coop
        self.lenient = lenient
        self.flee = flee
        self.nheroes = 2 if coop else 1
        for d in range(MAXDEPTH):
            self.out[d] = NULL
        for d in range(MAXDEPTH):
            self.out[d] = <Outcome *> malloc(MAXOUT * sizeof(Outcome))
            if self.out[d] == NULL:
                raise MemoryError()
        memset(self.g_stamp, 0, sizeof(self.g_stamp))
        memset(self.m_stamps, 0, sizeof(self.m_stamps))
        self.m_stamp = 0
        self.m_used = 0
        self.stamp = 0
        want = <uint64_t> (tt_mb * 1024.0 * 1024.0 / (BUCKET * sizeof(Entry)))
        b = 1
        while b * 2 <= want:
            b *= 2
        if b < 1024:
            b = 1024
        # Start small and double while more than half full, up to the limit: a
        # small search then touches few pages (page faults cost more than the
        # search itself on a big, mostly empty table).
        self.tt_max_buckets = b
        if b > INITIAL_BUCKETS:
            b = INITIAL_BUCKETS
        self.tt_buckets = b
        self.tt_mask = b - 1
        self.tt = <Entry *> _tt_alloc(b * BUCKET * sizeof(Entry))
        if self.tt == NULL:
            raise MemoryError(f"cannot allocate a {tt_mb} MB transposition table")
        self.nodes = 0
        self.loss_phase = False
        self.beta = NO_BETA
        self.tests = 0
        self.test_log = []
        self.step = 4 if coop else 3    # measured, see run()
        # measured (docs/solver.md): 9 in co-op, 18 in solo hard, where most
        # deals are lost; solo classic and easy hardly notice
        self.zero_at = 18 if (flee == 2 and not coop) else 9
        # a lost co-op deal can usually be played to its last monster (one hero
        # spends all their health), so its best loss is mostly 0, the bound:
        # one null-window test finds that line far faster than the full window
        # (measured: co-op 52 deal 52, 16.1 M -> 8.5 M nodes).  Solo losses are
        # spread out and their full window is cheap (solo hard 1-400: +20 %).
        self.loss_probe = 1 if coop else 0
        # deep_extra looks this many cards ahead (0: off).  Co-op only: it cuts
        # 18 % of the nodes and 11 % of the time on co-op 52 deals 1-100; in solo
        # lenient it saves 8-12 % of the nodes but costs 5-23 % more time
        self.horizon = MAXN if coop else 0
        # each probe is a likely cache miss: in co-op, probing only the next less
        # worn weapon of each hero keeps nearly all the cuts (+2 % nodes) for
        # about 10 % less time (co-op 52, three sets of 13-16 deals side by side:
        # -14 %, -1.5 %, -16 %); solo is neutral either way and probes them all
        self.wear_probes = 1 if coop else MAXN
        self.tt_hits = 0
        self.tt_stores = 0
        self.tt_used = 0
        self.tt_replaced = 0

    def __dealloc__(self):
        cdef int d
        for d in range(MAXDEPTH):
            if self.out[d] != NULL:
                free(self.out[d])
        if self.tt != NULL:
            _tt_free(self.tt, self.tt_buckets * BUCKET * sizeof(Entry))

    @property
    def tt_max_capacity(self):
        return self.tt_max_buckets * BUCKET

    @property
    def tt_capacity(self):
        return self.tt_buckets * BUCKET

    @property
    def tt_bytes(self):
        return self.tt_buckets * BUCKET * sizeof(Entry)

    # for tests/test_memory.py: the table's bytes, and one doubling on demand
    def _tt_dump(self):
        return (<char *> self.tt)[:self.tt_buckets * BUCKET * sizeof(Entry)]

    def _tt_grow(self):
        self.grow()

    # ------------------------------------------------------------------ table
    cdef Entry *probe(self, uint64_t k1, uint64_t k2) noexcept nogil:
        cdef Entry *b = self.tt + (k1 & self.tt_mask) * BUCKET
        cdef int i
        for i in range(BUCKET):
            if b[i].work != 0 and b[i].k1 == k1 and b[i].k2 == k2:
                return &b[i]
        return NULL

    cdef void grow(self) noexcept nogil:
        """Double the table in place (keeps it as it is if memory runs out).

        An entry lives in bucket ``k1 & mask``, so doubling sends each entry of
        old bucket ``o`` to ``o`` or ``o + nb`` and nothing else lands there: no
        entry is lost, and each new bucket holds its old bucket's entries for it
        in their old order, packed to the front, the rest zero -- the table that
        re-inserting every entry into a fresh zeroed one gave (tests/test_memory.py
        checks it byte for byte), so node counts do not depend on how it grew.
        """
        cdef uint64_t nb = self.tt_buckets, o
        cdef size_t size = BUCKET * sizeof(Entry)
        cdef Entry *t = <Entry *> _tt_resize(self.tt, nb * size, 2 * nb * size)
        cdef Entry *lo
        cdef Entry *hi
        cdef Entry old[BUCKET]
        cdef int j, nlo, nhi
        if t == NULL:
            self.tt_max_buckets = self.tt_buckets
            return
        for o in range(nb):
            lo = t + o * BUCKET
            hi = t + (o + nb) * BUCKET
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
        self.tt = t
        self.tt_buckets = 2 * nb
        self.tt_mask = 2 * nb - 1

    cdef void store(self, uint64_t k1, uint64_t k2, int hp, int lo, int hi, uint32_t work) noexcept nogil:
        """Record lo <= value(hp) <= hi; spread hi to lower and lo to higher health."""
        cdef Entry *b
        cdef Entry *e = NULL
        cdef int i, victim = -1
        cdef uint32_t least = 0xFFFFFFFF
        if self.tt_buckets < self.tt_max_buckets and <uint64_t> self.tt_used * 2 > self.tt_buckets * BUCKET:
            self.grow()
        b = self.tt + (k1 & self.tt_mask) * BUCKET
        self.tt_stores += 1
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
                    self.tt_used += 1
                    break
                if b[i].work < least:
                    least = b[i].work
                    victim = i
            e = &b[victim]
            if e.work != 0:
                self.tt_replaced += 1
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

    # ------------------------------------------------------------ enumeration
    cdef void add_outcome(self, Heroes *hs, int terminal, int score, int left,
                          uint8_t *takes, int ntakes) noexcept nogil:
        """Record one way to finish the room.

        Child outcomes with the same next room (rotation and carried card) form
        a group that keeps only its Pareto front: an outcome is dropped when
        another of its group has at least its health, weapon and last kill for
        every hero (the value never decreases in any of them).  Of two equal
        outcomes the first found stays, so the result is deterministic.  Only
        the best terminal outcome is kept.
        """
        cdef Outcome *o
        cdef Outcome *b
        cdef int i, g, idx, prev
        cdef Tally ct
        cdef Heroes hc
        cdef uint64_t pk = 0
        if self.e_count >= MAXOUT:
            self.aborted = 4  # never drop an outcome silently
            return
        if terminal:
            if score <= self.e_best_terminal:
                return
            self.e_best_terminal = score
            if self.e_terminal_idx >= 0:
                self.e_buf[self.e_terminal_idx].dead = 1
            self.e_terminal_idx = self.e_count
            g = -1
        else:
            g = self.e_rot * 64 + left + 1
            if self.g_stamp[g] != self.stamp:
                self.g_stamp[g] = self.stamp
                self.g_head[g] = -1
                # the monsters of the group's next room start (the same for the
                # whole group): this one's minus the ones taken
                ct = self.e_tally[0]
                for i in range(ntakes):
                    _tally_card(&ct, takes[i] & 63, -1)
                self.g_present[g] = ct.mmask
            hc = hs[0]
            _canon(&hc, self.g_present[g], self.nheroes, self.lenient)
            hs = &hc
            pk = _pack(hs)
            prev = -1
            idx = self.g_head[g]
            while idx >= 0:
                b = &self.e_buf[idx]
                if ((b.pk | LANE_HI) - pk) & LANE_HI == LANE_HI:
                    return                      # an earlier outcome is at least as good
                if ((pk | LANE_HI) - b.pk) & LANE_HI == LANE_HI:
                    b.dead = 1                  # the new one is better: unlink the old
                    if prev < 0:
                        self.g_head[g] = b.next
                    else:
                        self.e_buf[prev].next = b.next
                else:
                    prev = idx
                idx = b.next
        o = &self.e_buf[self.e_count]
        o.hs = hs[0]
        o.terminal = terminal
        o.dead = 0
        o.score = score
        o.rot = self.e_rot
        o.left = left
        o.ntakes = ntakes if ntakes <= 4 else 4     # a room has at most four takes
        for i in range(o.ntakes):
            o.takes[i] = takes[i]
        o.order = 0x7FFFFFFF if terminal else 0
        o.ub = score
        o.seq = self.e_count
        o.pk = pk
        if g >= 0:
            o.next = self.g_head[g]
            self.g_head[g] = self.e_count
        self.e_count += 1

    cdef void enum_takes(self, int8_t *room, int nroom, uint32_t taken_mask, int to_take,
                         Heroes hs, int potion_mask, int help_used, int mleft,
                         uint8_t *takes, int ntakes, int pslot, int pcls, int ptarget,
                         int php, int pval) noexcept nogil:
        """All ways to take ``to_take`` more cards of ``room``.

        ``mleft`` is the value of the monsters not yet taken (room and dungeon),
        ``potion_mask`` bit i says hero i already drank this room.  ``pslot``,
        ``pcls``, ``ptarget``, ``pval`` describe the previous take and ``php``
        its hero's health before it (see ``_commute``).
        """
        cdef int i, t, target, c, v, kind, nt, m, dmg, left, j, score, cls, val, ub, slack
        cdef Heroes h2
        cdef int ntargets = 2 if (self.coop and not help_used) else 1
        cdef int leader = self.e_leader
        for i in range(nroom):
            if taken_mask & (1u << i):
                continue
            c = room[i]
            # identical cards (two jokers) give identical takes
            j = 0
            for t in range(i):
                if not (taken_mask & (1u << t)) and room[t] == c:
                    j = 1
            if j:
                continue
            kind = KIND[c]
            v = VALUE[c]
            for t in range(ntargets):
                target = leader if t == 0 else 1 - leader
                for m in range(2):    # 0 bare, 1 weapon (monsters only)
                    h2 = hs
                    nt = ntakes
                    if kind == MONSTER:
                        if m == 1:
                            if not _usable(hs.w[target], hs.k[target], v, self.lenient):
                                continue
                            dmg = v - hs.w[target]
                            if dmg < 0:
                                dmg = 0
                            h2.k[target] = v
                        else:
                            dmg = v
                        h2.hp[target] = hs.hp[target] - dmg
                        takes[nt] = c | (64 if m == 1 else 0) | (128 if t == 1 else 0)
                    else:
                        if m == 1:
                            continue
                        if kind == POTION:
                            if not (potion_mask & (1 << target)):
                                h2.hp[target] = hs.hp[target] + v
                                if h2.hp[target] > MAXHP:
                                    h2.hp[target] = MAXHP
                        else:
                            h2.w[target] = v
                            h2.k[target] = FRESH
                        takes[nt] = c | (128 if t == 1 else 0)
                    if kind == MONSTER:
                        cls = m          # 0 bare, 1 with the weapon
                        val = dmg
                    elif kind == WEAPON:
                        cls = 2
                        val = 0
                    elif not (potion_mask & (1 << target)):
                        cls = 3          # a potion that heals
                        val = v
                    else:
                        cls = 4          # a potion without effect
                        val = 0
                    # Two takes by the same hero that commute (same state either way,
                    # nobody dies) are only tried in room order.  Not for the last take
                    # of the final room: which card is last decides the potion bonus.
                    if (pslot > i and ptarget == target and not (self.e_final and to_take == 1)
                            and _commute(pcls, pval, cls, val, php)):
                        continue
                    nt += 1
                    if kind == MONSTER and h2.hp[target] <= 0:
                        if self.coop:
                            score = -(mleft - v)
                        else:
                            score = h2.hp[0] - (mleft - v)
                        self.add_outcome(&h2, 1, score, -1, takes, nt)
                        continue
                    if t == 1 and ntakes > 0:
                        # The help card acts on the partner only, so where it falls among
                        # the leader's takes changes nothing unless it kills the partner:
                        # giving it first reaches every other outcome, and as good a loss.
                        continue
                    if to_take == 1:
                        if self.e_final:
                            if self.coop:
                                score = h2.hp[0] + h2.hp[1]
                            else:
                                score = h2.hp[0]
                                if kind == POTION and score == MAXHP:
                                    score += v
                            self.add_outcome(&h2, 1, score, -1, takes, nt)
                        else:
                            left = -1
                            for j in range(nroom):
                                if j != i and not (taken_mask & (1u << j)):
                                    left = room[j]
                            self.add_outcome(&h2, 0, 0, left, takes, nt)
                    else:
                        _tally_card(&self.e_ptally, c, -1)
                        if ntakes <= 1 and self.e_alpha > NEG:
                            # After the first take, the bound of the position reached
                            # holds for every way to finish the room: when it cannot
                            # beat alpha, none of them is worth listing.
                            ub = self.bound(&self.e_ptally, &h2, &slack)
                            if ub <= self.e_alpha:
                                if ub > self.e_pruned:
                                    self.e_pruned = ub
                                _tally_card(&self.e_ptally, c, 1)
                                continue
                        self.enum_takes(room, nroom, taken_mask | (1u << i), to_take - 1, h2,
                                        potion_mask | ((1 << target) if (kind == POTION) else 0),
                                        help_used | (t == 1), mleft - (v if kind == MONSTER else 0),
                                        takes, nt, i, cls, target, hs.hp[target], val)
                        _tally_card(&self.e_ptally, c, 1)

    cdef int compact(self, Outcome *buf, int count) noexcept nogil:
        """Remove the outcomes that a later one dominated, keeping the order."""
        cdef int i, n = 0
        for i in range(count):
            if not buf[i].dead:
                if n != i:
                    buf[n] = buf[i]
                n += 1
        return n

    cdef void rate_outcomes(self, Outcome *buf, int count, Tally *t, int8_t *S, int n) noexcept nogil:
        """Give each child its upper bound and an ordering key: highest bound
        first, then the most health left after the unavoidable damage.

        Children with the same next room (rotation and carried card) have the
        same cards left, so their damage depends only on the weapons: it is
        computed once per (next room, weapons) and remembered for the others.
        """
        cdef Tally ct
        cdef Outcome *o
        cdef int i, slack, ub, slot, dmg, sump, maxp, m, room, deep
        cdef int8_t C[MAXN]
        cdef bint have_ct, have_c
        cdef uint64_t key
        self.m_stamp += 1
        for i in range(count):
            o = &buf[i]
            if o.terminal:
                continue
            key = ((<uint64_t> (o.rot * 64 + o.left + 1)) << 32) | ((o.pk >> 8) & 0xFFFF) \
                | (((o.pk >> 32) & 0xFFFF) << 16)
            slot = <int> (((key + 1) * 0x9E3779B97F4A7C15ULL) >> 56)
            while self.m_stamps[slot] == self.m_stamp and self.m_keys[slot] != key:
                slot = (slot + 1) & 255
            have_ct = False
            have_c = False
            if self.m_stamps[slot] == self.m_stamp:
                dmg = self.m_dmg[slot]
                sump = self.m_sump[slot]
                maxp = self.m_maxp[slot]
                room = self.m_room[slot]
            else:
                _child_tally(t, o, &ct)
                have_ct = True
                dmg = self.damage(&ct, &o.hs, &sump, &maxp, NULL, NULL, NULL, NULL)
                room = -1
                if S != NULL and self.lenient:
                    m = _child_cards(S, n, o, C)
                    have_c = True
                    room = self.forced_extra(C, m, self.rotations(m, 1), &o.hs, &ct)
                    dmg += room
                if self.m_used < 200:
                    self.m_used += 1
                    self.m_stamps[slot] = self.m_stamp
                    self.m_keys[slot] = key
                    self.m_dmg[slot] = dmg
                    self.m_sump[slot] = sump
                    self.m_maxp[slot] = maxp
                    self.m_room[slot] = room
                else:
                    slot = -1
            ub = self.finish_bound(&o.hs, sump, maxp, dmg, &slack)
            if room >= 0 and ub > self.e_alpha and ub != NEG:
                # the child may beat alpha: worth the look over the rooms
                # ahead (deep_extra), which the room's own extra may understate
                if not have_ct:
                    _child_tally(t, o, &ct)
                    have_ct = True
                if not have_c:
                    m = _child_cards(S, n, o, C)
                deep = self.deep_extra(C, m, self.rotations(m, 1), &o.hs, &ct)
                if deep > room:
                    dmg += deep - room
                    ub = self.finish_bound(&o.hs, sump, maxp, dmg, &slack)
                if slot >= 0:
                    self.m_dmg[slot] = dmg
                    self.m_room[slot] = -1     # done
            if ub == NEG:
                # no win left: the finer loss bound, from the cards themselves
                if not have_ct:
                    _child_tally(t, o, &ct)
                ub = self.bound(&ct, &o.hs, &slack)
            o.ub = ub
            if slack > 400:
                slack = 400
            if slack < -400:
                slack = -400
            o.order = ub * 1024 + slack + 400
        self.m_used = 0

    # ----------------------------------------------------------------- search
    cdef void record_incumbent(self, int depth, Outcome *o) noexcept nogil:
        cdef int i, j
        self.inc_score = o.score
        self.inc_found = 1
        for i in range(depth):
            self.inc[i] = self.path[i]
        self.inc[depth].rot = o.rot
        self.inc[depth].ntakes = o.ntakes
        for j in range(o.ntakes):
            self.inc[depth].takes[j] = o.takes[j]
        self.inc_len = depth + 1

    cdef int check_limits(self) noexcept nogil:
        if self.max_nodes > 0 and self.nodes >= self.max_nodes:
            self.aborted = 1
        elif self.deadline > 0 and _now() >= self.deadline:
            self.aborted = 2
        elif (self.nodes & 16383) == 0:
            # let Ctrl-C stop a long search (run() then raises KeyboardInterrupt)
            with gil:
                if _check_signals() != 0:
                    _clear_error()
                    self.aborted = 6
        return self.aborted

    cdef int damage(self, Tally *t, Heroes *hs, int *sump_out, int *maxp_out,
                    int8_t *ival, int8_t *icost, int *nitems_out, int *maxm_out) noexcept nogil:
        """The unavoidable damage of the cards counted by ``t`` (see ``bound``).

        Also gives the potions' total and largest value, and, when ``ival`` is
        not NULL, the monsters as (value, least cost) items for ``_loss_bound``.
        """
        cdef int v, i, c, hh, sump = 0, maxp = 0, dmg = 0, nw, nd, di, ci, best, dbest, cbest
        cdef int cand[8]
        cdef int dia[32]
        cdef int nitems = 0, maxm = 0
        cdef uint32_t mm
        sump = t.psum
        if t.pmask:
            maxp = 31 - __builtin_clz(t.pmask)
        sump_out[0] = sump
        maxp_out[0] = maxp
        if self.lenient and ival == NULL:
            # lenient and no items wanted: the best weapon that may meet v meets
            # every monster of value v, so only the strongest diamond counts, and
            # the monsters it kills for free need no look
            nd = 31 - __builtin_clz(t.dmask) if t.dmask else 0
            mm = t.mmask & ~((2u << nd) - 1)
            while mm:
                v = 31 - __builtin_clz(mm)
                mm &= ~(1u << v)
                best = nd
                for hh in range(self.nheroes):
                    if hs.w[hh] > best and v <= hs.k[hh]:
                        best = hs.w[hh]
                if v > best:
                    dmg += (v - best) * t.m[v]
            return dmg
        # the diamonds still to come, strongest first
        nd = 0
        for v in range(10, 1, -1):
            for i in range(t.d[v]):
                dia[nd] = v
                nd += 1
        for v in range(2, 16):
            c = t.m[v]
            if not c:
                continue
            maxm = v
            # the c best weapons that may meet a monster of value v: merge the
            # current weapons allowed to hit v (at most two) with the diamonds
            nw = 0
            for hh in range(self.nheroes):
                if _usable(hs.w[hh], hs.k[hh], v, self.lenient):
                    cand[nw] = hs.w[hh]
                    nw += 1
            if nw == 2 and cand[1] > cand[0]:
                cand[0], cand[1] = cand[1], cand[0]
            ci = 0
            di = 0
            for i in range(c):
                cbest = cand[ci] if ci < nw else 0
                dbest = dia[di] if di < nd else 0
                if cbest >= dbest:
                    best = cbest
                    ci += 1
                else:
                    best = dbest
                    di += 1
                if self.lenient:
                    # a weapon may meet any number of equal monsters
                    if ival != NULL:
                        for hh in range(c):
                            ival[nitems] = v
                            icost[nitems] = v - best if v > best else 0
                            nitems += 1
                    if v > best:
                        dmg += (v - best) * c
                    break
                if ival != NULL:
                    ival[nitems] = v
                    icost[nitems] = v - best if v > best else 0
                    nitems += 1
                if v > best:
                    dmg += v - best
        if nitems_out != NULL:
            nitems_out[0] = nitems
            maxm_out[0] = maxm
        return dmg

    cdef int bound(self, Tally *t, Heroes *hs, int *slack) noexcept nogil:
        """An upper bound on the score of any line from here.

        Health only comes from potions, and some damage is unavoidable: a
        monster of value v costs at least v minus the weapon that meets it.
        Relaxing the order of the cards, each weapon (a diamond still to come,
        or a current weapon allowed to hit v) meets at most one monster of each
        value under strict durability, any number under lenient.  ``slack``
        receives the health that would be left (a move-ordering key).
        """
        return self.bound_plus(t, hs, 0, slack)

    cdef int bound_at(self, Tally *t, Heroes *hs, int8_t *S, int n, int nrot, int *slack) noexcept nogil:
        """``bound`` at a room start laid out in ``S``: with the damage its room forces."""
        cdef int a = self.forced_extra(S, n, nrot, hs, t)
        cdef int b = self.deep_extra(S, n, nrot, hs, t)
        return self.bound_plus(t, hs, a if a > b else b, slack)

    cdef int bound_plus(self, Tally *t, Heroes *hs, int extra, int *slack) noexcept nogil:
        """``bound`` with ``extra`` more unavoidable damage for a win."""
        cdef int sump, maxp, dmg, nitems, maxm, ub
        cdef int8_t ival[64]
        cdef int8_t icost[64]
        dmg = self.damage(t, hs, &sump, &maxp, NULL, NULL, NULL, NULL) + extra
        ub = self.finish_bound(hs, sump, maxp, dmg, slack)
        if ub == NEG:
            # no win is left: the loss bound needs the monsters as items
            self.damage(t, hs, &sump, &maxp, ival, icost, &nitems, &maxm)
            if self.coop:
                return _loss_bound(ival, icost, nitems, hs.hp[0] + hs.hp[1] - 2 + sump, t.mtot, maxm)
            return _loss_bound(ival, icost, nitems, hs.hp[0] - 1 + sump, t.mtot, maxm)
        return ub

    cdef int finish_bound(self, Heroes *hs, int sump, int maxp, int dmg, int *slack) noexcept nogil:
        """``bound`` from its parts; NEG when only the finer loss bound can tell."""
        cdef int i, h, total
        if self.coop:
            total = 0
            for i in range(2):
                h = hs.hp[i] + sump
                total += MAXHP if h > MAXHP else h
            h = hs.hp[0] + hs.hp[1] + sump - dmg
            slack[0] = h
            if h < 2:
                if not self.loss_phase:
                    return 0      # any loss scores <= 0; the finer bound only matters below 0
                return NEG
            return total if total < h else h
        h = hs.hp[0] + sump - dmg
        slack[0] = h
        if h <= 0:
            if not self.loss_phase:
                return 0
            return NEG
        if h >= MAXHP:
            return MAXHP + maxp
        return h

    cdef void tally(self, int8_t *S, int n, Tally *t) noexcept nogil:
        cdef int i
        memset(t, 0, sizeof(Tally))
        for i in range(n):
            _tally_card(t, S[i], 1)

    cdef int expand(self, int depth, int n, int count, int alpha, int ub, int leader,
                    long long *work) noexcept nogil:
        """Search the outcomes ``out[depth][:count]`` of the room start in ``S[depth]``."""
        cdef Outcome *buf = self.out[depth]
        cdef Outcome *o
        cdef int best = NEG, i, v, a, m
        cdef long long before
        cdef int j, sel
        cdef Outcome tmp
        for i in range(count):
            if best >= ub or best >= self.beta:
                break
            # the next child in the order of _cmp_order, by selection: most
            # children are cut by their bound, so a full sort is wasted work
            sel = i
            for j in range(i + 1, count):
                if _cmp_order(&buf[j], &buf[sel]) < 0:
                    sel = j
            if sel != i:
                tmp = buf[i]
                buf[i] = buf[sel]
                buf[sel] = tmp
            o = &buf[i]
            if o.terminal:
                if o.score > best:
                    best = o.score
                if o.score > self.inc_score or not self.inc_found:
                    self.record_incumbent(depth, o)
                continue
            a = alpha if alpha > best else best
            if o.ub <= a:
                # sorted by bound: no later child can beat alpha either
                if o.ub > best:
                    best = o.ub
                break
            m = self.step_into(depth, n, o)
            before = self.nodes
            v = self.node(depth + 1, m, &o.hs, (1 - leader) if self.coop else 0, 1 if self.flee != 2 else 0, a, o.ub)
            work[0] += self.nodes - before
            if self.aborted:
                return NEG
            if v > best:
                best = v
        return best

    cdef int step_into(self, int depth, int n, Outcome *o) noexcept nogil:
        """Record ``o`` as the path's step at ``depth`` and lay out its child room
        start in ``S[depth + 1]``: the carried card, then ``S`` rotated by the
        avoids, minus its room.  Returns the child's number of cards."""
        cdef int j
        self.path[depth].rot = o.rot
        self.path[depth].ntakes = o.ntakes
        for j in range(o.ntakes):
            self.path[depth].takes[j] = o.takes[j]
        return _child_cards(self.S[depth], n, o, self.S[depth + 1])

    cdef int deep_extra(self, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil:
        """Damage the rooms ahead force beyond what ``damage`` counts (lenient only).

        ``damage`` lets every monster meet the best weapon still to come.  But
        a room that is faced is faced *now*: 3 of its cards are taken (all of
        a final room), and a monster taken there meets a weapon a hero holds
        or a diamond dealt by then, not one still to come.  The rooms ahead
        are the order of ``S``: facing a room deals 3 new cards beside the
        carried one, avoiding it (where allowed) sends it under the dungeon
        and deals 4 new cards.  So the least extra damage over every way of
        facing and avoiding the rooms ahead, until the strongest diamond has
        been dealt (after which nothing is extra), adds to the unavoidable
        damage of a win.  Relaxed, hence a lower bound: in each faced room the
        new card with the largest extra may be the one carried on, the
        carried card itself costs nothing extra, avoided cards cost nothing
        extra, and every diamond dealt by then counts as available.
        """
        cdef int i, c, v, hh, nd, p, k, fresh, tot, top, w, g, stop, face, pend, res
        cdef int held[16]
        cdef int cglob[16]
        cdef int dia[MAXN + 1]
        cdef int f[2][MAXN + 8]
        if not self.lenient:
            return 0
        if (self.flee == 1 and not self.coop) or self.horizon == 0:
            return 0
        nd = 31 - __builtin_clz(t.dmask) if t.dmask else 0
        if nd == 0:
            return 0
        for v in range(2, 16):
            w = 0
            for hh in range(self.nheroes):
                if hs.w[hh] > w and v <= hs.k[hh]:
                    w = hs.w[hh]
            held[v] = w
            g = nd if nd > w else w
            cglob[v] = v - g if v > g else 0
        # dia[i]: the strongest diamond among S[:i]; from ``stop`` on, it is nd
        dia[0] = 0
        stop = n
        for i in range(n):
            c = S[i]
            dia[i + 1] = dia[i]
            if KIND[c] == WEAPON and VALUE[c] > dia[i]:
                dia[i + 1] = VALUE[c]
            if dia[i + 1] == nd and stop == n:
                stop = i + 1
        if stop > 4 + self.horizon:
            stop = 4 + self.horizon
        # f[fresh][p]: the least extra from a room whose new cards start at S[p]
        # (fresh: 4 new cards after an avoid, else 3 beside the carried card)
        for p in range(stop, stop + 8):
            f[0][p] = 0
            f[1][p] = 0
        p = stop - 1
        while p >= 0:
            for fresh in range(2):
                k = 4 if fresh else 3
                pend = p + k if p + k < n else n
                tot = _room_extra(S, p, pend, dia[pend], held, cglob, &top)
                if p + k < n:
                    tot -= top              # a non-final room: one card stays
                    face = tot + f[0][p + k]
                    # avoiding: not twice in a row (co-op, classic), never (hard)
                    if not fresh and self.flee != 2 and f[1][p + k] < face:
                        face = f[1][p + k]
                else:
                    face = tot              # the final room: every card taken
                f[fresh][p] = face
            p -= 1
        # this room start's room S[:4] is known card by card: as a fresh room,
        # avoidable when nrot > 1
        pend = 4 if n > 4 else n
        tot = _room_extra(S, 0, pend, dia[pend], held, cglob, &top)
        if n <= 4:
            return tot
        res = tot - top + (f[0][4] if 4 < stop else 0)
        if nrot > 1:
            g = f[1][4] if 4 < stop else 0
            if g < res:
                res = g
        return res

    cdef int forced_extra(self, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil:
        """Damage the next room forces beyond what ``damage`` counts (lenient only).

        ``damage`` lets every monster meet the best weapon still to come.  But
        the room of this room start (or, after avoids, one of its ``nrot``
        rotations) must be faced now: 3 of its 4 cards taken (all of a final
        room), and a monster taken there meets a weapon the heroes hold or a
        diamond of the same room.  Its extra cost over the relaxed one adds to
        the unavoidable damage of a win; the card left behind is the one with
        the largest extra, and of the rotations the cheapest counts.
        """
        cdef int r, j, c, v, hh, nd, local, glob, cost, e, tot, top, best = 1000000
        cdef int nroom = 4 if n > 4 else n
        if not self.lenient:
            return 0
        nd = 31 - __builtin_clz(t.dmask) if t.dmask else 0
        for r in range(nrot):
            local = 0
            for j in range(nroom):
                c = S[(4 * r + j) % n]
                if KIND[c] == WEAPON and VALUE[c] > local:
                    local = VALUE[c]
            tot = 0
            top = 0
            for j in range(nroom):
                c = S[(4 * r + j) % n]
                if KIND[c] != MONSTER:
                    continue
                v = VALUE[c]
                cost = local
                glob = nd
                for hh in range(self.nheroes):
                    if hs.w[hh] and v <= hs.k[hh]:
                        if hs.w[hh] > cost:
                            cost = hs.w[hh]
                        if hs.w[hh] > glob:
                            glob = hs.w[hh]
                cost = v - cost if v > cost else 0
                e = cost - (v - glob if v > glob else 0)
                tot += e
                if e > top:
                    top = e
            if n > 4:
                tot -= top
            if tot < best:
                best = tot
                if best == 0:
                    break
        return best

    cdef int rotations(self, int n, int avoid_ok) noexcept nogil:
        """How many rotations of S can be faced: avoiding is a rotation by four."""
        if n <= 4 or not avoid_ok or self.flee == 2:
            return 1
        if self.flee == 1 and not self.coop:
            return n // _gcd(n, 4)
        return 2

    cdef void begin_room(self, int depth, int leader, bint final, Tally *t) noexcept nogil:
        """Start collecting the outcomes of one room into ``out[depth]``; ``t``
        counts the cards of the room start (room and dungeon)."""
        self.stamp += 1
        self.e_tally = t
        self.e_ptally = t[0]
        self.e_alpha = NEG
        self.e_pruned = NEG
        self.e_buf = self.out[depth]
        self.e_count = 0
        self.e_best_terminal = NEG
        self.e_terminal_idx = -1
        self.e_leader = leader
        self.e_final = final
        self.e_rot = 0

    cdef int enumerate_room(self, int depth, int n, Heroes *hs, int leader, int nrot,
                            Tally *t, int alpha) noexcept nogil:
        """The outcomes of the room start in ``S[depth]`` (faced after 0 to
        ``nrot - 1`` avoids) into ``out[depth]``, merged, rated and unsorted.
        Outcomes whose bound is <= ``alpha`` may be left out (NEG: list all);
        ``e_pruned`` then holds the largest bound of those left out."""
        cdef int8_t *S = self.S[depth]
        cdef int i, r, nroom = 4 if n > 4 else n
        cdef uint8_t takes[4]
        cdef int8_t room[4]
        self.begin_room(depth, leader, n <= 4, t)
        self.e_alpha = alpha
        for r in range(nrot):
            self.e_rot = r
            for i in range(nroom):
                room[i] = S[(4 * r + i) % n]
            self.enum_takes(room, nroom, 0, nroom if n <= 4 else 3, hs[0], 0, 0, t.mtot, takes, 0, -1, 0, 0, 0, 0)
        i = self.compact(self.e_buf, self.e_count)
        self.rate_outcomes(self.e_buf, i, t, self.S[depth], n)
        return i

    cdef void rollout(self, int depth, int n, Heroes *hs, int leader, int avoid_ok) noexcept nogil:
        """One greedy line, before the proof: in every room take the way out that
        keeps the most health in hand (after the unavoidable damage).  Its only
        use is a sensible best-found line should a limit stop the search early."""
        cdef Tally t
        cdef int i, j, count, m, pick = -1, best_key = -1000000000, key
        cdef Outcome *o
        if depth + 1 >= MAXDEPTH:
            return
        self.tally(self.S[depth], n, &t)
        count = self.enumerate_room(depth, n, hs, leader, self.rotations(n, avoid_ok), &t, NEG)
        if self.aborted:
            return
        for i in range(count):
            o = &self.e_buf[i]
            if o.terminal:
                key = 100000 + o.score if o.score > 0 else -100000 + o.score
            else:
                key = (o.order & 1023) * 64     # health left after the unavoidable damage
                for j in range(self.nheroes):
                    key += o.hs.hp[j]
            if key > best_key:
                best_key = key
                pick = i
        if pick < 0:
            return
        o = &self.e_buf[pick]
        if o.terminal:
            if not self.inc_found or o.score > self.inc_score:
                self.record_incumbent(depth, o)
            return
        m = self.step_into(depth, n, o)
        self.rollout(depth + 1, m, &o.hs, (1 - leader) if self.coop else 0, 1 if self.flee != 2 else 0)

    cdef int node(self, int depth, int n, Heroes *hs, int leader, int avoid_ok, int alpha, int known_ub) noexcept nogil:
        """The value of the room start in ``S[depth]`` if above ``alpha``, else an upper
        bound <= alpha.  ``known_ub``: its bound as its parent rated it, or UNKNOWN."""
        cdef int8_t *S = self.S[depth]
        cdef int i, j, c, ub, best, count, h0, slack
        cdef Tally t
        cdef Heroes hc
        cdef int pruned, nprobe
        cdef uint32_t present
        cdef uint64_t k1 = 0, k2 = 0
        cdef Entry *e
        cdef long long work = 1
        self.nodes += 1
        if self.max_nodes > 0 and self.nodes > self.max_nodes:
            self.aborted = 1
            return NEG
        if (self.nodes & 1023) == 0 and self.check_limits():
            return NEG
        if depth + 1 >= MAXDEPTH:
            self.aborted = 3
            return NEG
        self.tally(S, n, &t)
        hc = hs[0]
        present = t.mmask
        _canon(&hc, present, self.nheroes, self.lenient)
        hs = &hc
        for i in range(n):
            c = S[i]
            k1 ^= Z1[n - 1 - i][c]
            k2 ^= Z2[n - 1 - i][c]
        # hero 1's health is not in the key: the entry holds bounds for every health
        k1 ^= ZH1[0][1][hs.w[0]] ^ ZH1[0][2][hs.k[0]]
        k2 ^= ZH2[0][1][hs.w[0]] ^ ZH2[0][2][hs.k[0]]
        if self.coop:
            k1 ^= ZH1[1][0][hs.hp[1] & 127] ^ ZH1[1][1][hs.w[1]] ^ ZH1[1][2][hs.k[1]]
            k2 ^= ZH2[1][0][hs.hp[1] & 127] ^ ZH2[1][1][hs.w[1]] ^ ZH2[1][2][hs.k[1]]
        k1 ^= ZX1[leader * 2 + avoid_ok]
        k2 ^= ZX2[leader * 2 + avoid_ok]
        if known_ub != UNKNOWN:
            ub = known_ub     # the parent computed it (rate_outcomes), and it is > alpha
        else:
            ub = self.bound_at(&t, hs, S, n, self.rotations(n, avoid_ok), &slack)
            if ub <= alpha:
                return ub
        h0 = hs.hp[0] - 1
        e = self.probe(k1, k2)
        if e != NULL:
            self.tt_hits += 1
            if e.lo[h0] == e.hi[h0] or e.lo[h0] >= self.beta:
                return e.lo[h0]
            if e.hi[h0] <= alpha:
                return e.hi[h0]
            if e.hi[h0] < ub:
                ub = e.hi[h0]
        # an upper bound stored for a less worn weapon holds here too
        # (weapons are canonical, see _canon: only last kills of the monsters left
        # occur); the nearest ``wear_probes`` of them are probed
        for j in range(self.nheroes):
            if hs.w[j] == 0:
                continue
            nprobe = 0
            for i in range(hs.k[j] + 1, 17):
                if not (present & (1u << (i if self.lenient else i - 1))):
                    continue
                nprobe += 1
                if nprobe > self.wear_probes:
                    break
                e = self.probe(k1 ^ ZH1[j][2][hs.k[j]] ^ ZH1[j][2][i], k2 ^ ZH2[j][2][hs.k[j]] ^ ZH2[j][2][i])
                if e != NULL and e.hi[h0] < ub:
                    ub = e.hi[h0]
                    if ub <= alpha:
                        self.tt_hits += 1
                        return ub
        if self.coop:
            # the value never decreases with hero 2's health either: an upper
            # bound stored for a little more health holds here too (measured:
            # probing up to 3 points above finds nearly every such cut)
            for i in range(hs.hp[1] + 1, hs.hp[1] + 4 if hs.hp[1] + 4 <= MAXHP + 1 else MAXHP + 1):
                e = self.probe(k1 ^ ZH1[1][0][hs.hp[1] & 127] ^ ZH1[1][0][i],
                               k2 ^ ZH2[1][0][hs.hp[1] & 127] ^ ZH2[1][0][i])
                if e != NULL and e.hi[h0] < ub:
                    ub = e.hi[h0]
                    if ub <= alpha:
                        self.tt_hits += 1
                        return ub
        count = self.enumerate_room(depth, n, hs, leader, self.rotations(n, avoid_ok), &t, alpha)
        pruned = self.e_pruned
        best = self.expand(depth, n, count, alpha, ub, leader, &work)
        if self.aborted:
            return NEG
        if pruned > best:
            best = pruned      # (only when best <= alpha: pruned outcomes are <= alpha)
        if work > <long long> 4000000000:
            work = <long long> 4000000000
        if best <= alpha:
            self.store(k1, k2, hs.hp[0], NEG, best, <uint32_t> work)
        elif best >= self.beta:
            # cut short by decide(): only a lower bound
            self.store(k1, k2, hs.hp[0], best, ub, <uint32_t> work)
        else:
            self.store(k1, k2, hs.hp[0], best, best, <uint32_t> work)
        return best

    def _steps(self):
        line = []
        for i in range(self.inc_len):
            line.append((self.inc[i].rot, [self.inc[i].takes[j] for j in range(self.inc[i].ntakes)]))
        return line

    def run(self, list room, list dungeon, int taken, list heroes, int leader, int potion_mask,
            int help_used, int avoid_ok, long long max_nodes, double timeout, int single=0,
            int single_alpha=0):
        """Search from a position given as Python ints (card codes, hero tuples)."""
        cdef Heroes hs
        cdef int i, n, best, count = 0, ub, alpha, v, slack, lo, hi
        cdef bint high, loss_probed = False
        cdef long long tests0
        cdef Tally t
        cdef long long work = 0
        cdef bint midroom
        cdef uint8_t takes[4]
        cdef int8_t rm[4]
        memset(&hs, 0, sizeof(Heroes))
        for i in range(len(heroes)):
            hs.hp[i] = heroes[i][0]
            hs.w[i] = heroes[i][1]
            hs.k[i] = heroes[i][2]
        self.max_nodes = max_nodes
        self.deadline = _now() + timeout if timeout > 0 else 0.0
        self.aborted = 0
        self.inc_found = 0
        self.inc_score = NEG
        self.inc_len = 0
        self.test_log = []
        n = len(room) + len(dungeon)
        if n > MAXN:
            raise ValueError("too many cards")
        for i in range(len(room)):
            self.S[0][i] = room[i]
        for i in range(len(dungeon)):
            self.S[0][len(room) + i] = dungeon[i]
        midroom = not (taken == 0 and (len(room) == 4 or len(dungeon) == 0))
        self.tally(self.S[0], n, &t)
        ub = self.bound(&t, &hs, &slack)
        if midroom:
            # part-way through a room: enumerate how it can end once, then search
            # the next room starts from them (expand builds a child as the carried
            # card + S[4:], so the dungeon is laid out from index 4).
            self.begin_room(0, leader, len(dungeon) == 0, &t)
            for i in range(len(room)):
                rm[i] = room[i]
            self.enum_takes(rm, len(room), 0, len(room) if len(dungeon) == 0 else 3 - taken, hs,
                            potion_mask, help_used, t.mtot, takes, 0, -1, 0, 0, 0, 0)
            count = self.compact(self.e_buf, self.e_count)
            self.rate_outcomes(self.e_buf, count, &t, NULL, 0)
            for i in range(len(dungeon)):
                self.S[0][4 + i] = dungeon[i]
            n = len(dungeon) + 4
        # Null-window tests from the top ("is there a line scoring > alpha?"):
        # a high alpha lets the upper bounds cut most of the tree, and most
        # deals score at or near the bound.  A failed test returns an upper
        # bound, which sets the next alpha; once no win is possible, one full
        # search finds the best loss.
        if not midroom:
            self.rollout(0, n, &hs, leader, avoid_ok)
        alpha = ub - 1
        best = NEG
        self.beta = single_alpha + 1 if single else NO_BETA
        if single:
            # one question only: "is there a line scoring > single_alpha?"
            alpha = single_alpha
            if self.inc_found and self.inc_score > alpha:
                return {"value": None, "bound": self.inc_score, "high": True,
                        "incumbent": self.inc_score, "steps": self._steps(), "aborted": 0}
        tests0 = self.tests
        hi = ub          # proven upper bound
        lo = NEG         # proven lower bound: the best line found, or a test's
        high = False
        while True:
            if self.inc_found and self.inc_score > lo:
                lo = self.inc_score
            if not single:
                if lo >= hi:
                    best = hi
                    break
                # A null window below the proven upper bound ``hi``: a line
                # reaching alpha + 1 ends the test.  Each test that fails costs
                # more than the one before, so the tests step down by ``step``
                # (measured: 3 saves 25-50 % of the nodes of stepping by one, in
                # co-op and in solo hard; in co-op 4, with the rules below, 8 % fewer
                # than 3 on deals 1-50; solo keeps 3: with 4 it takes 1.6 % fewer
                # nodes but 16 % more time), except the first test, right below the
                # root's bound (where most solo deals score).  After a test that
                # found a line, the next asks whether that line can be beaten
                # (alpha = lo): the line found is often the best, and then that
                # one failing test ends the search (measured against testing
                # hi - 1 first: 9-10 % fewer co-op nodes on seeds 1-24, 3 % fewer
                # in solo classic 1-1000).  Once the tests reach ``zero_at`` with
                # no win found, the next asks whether there is any win at all
                # (alpha 0): most deals whose value is that low are lost, and
                # every test above 0 was then wasted (measured: 25 % fewer nodes
                # on co-op 52 deals with values <= 18, 46 % in solo hard).  Once
                # no win is left, co-op asks first whether the best loss reaches
                # the bound (``loss_probe``); then one search with the full window
                # (alpha NEG) finds the best loss.
                if hi > 0:
                    if self.tests == tests0:
                        alpha = hi - 1
                    elif high:
                        # (a line found by the test at 0 below may be far below
                        # the value: then step down from hi again)
                        alpha = lo if hi - lo <= self.step else hi - self.step
                    else:
                        alpha = hi - self.step
                        if alpha <= self.zero_at and lo <= 0:
                            # deals that low are mostly lost: ask at once
                            # whether any win is left, instead of stepping on
                            alpha = 0
                    if alpha < lo:
                        alpha = lo
                    if alpha < 0:
                        alpha = 0
                elif self.loss_probe and not loss_probed and lo > NEG:
                    # no win left: is the best loss the upper bound?  (lo < hi
                    # here, or the loop has ended, so hi - 1 >= lo)
                    alpha = hi - 1
                    loss_probed = True
                else:
                    alpha = NEG
                self.beta = alpha + 1 if alpha > NEG else NO_BETA
            self.loss_phase = alpha < 0
            if midroom:
                v = self.expand(0, n, count, alpha, ub, leader, &work)
            else:
                v = self.node(0, n, &hs, leader, avoid_ok, alpha, UNKNOWN)
            self.tests += 1
            self.test_log.append((alpha, v, self.nodes))
            if self.aborted:
                break
            if single:
                return {"value": None, "bound": v, "high": v > alpha,
                        "incumbent": self.inc_score if self.inc_found else None,
                        "steps": self._steps(), "aborted": 0}
            if alpha == NEG:
                best = v
                break
            high = v > alpha
            if high:
                # (a reused table can prove it without a line being walked)
                if v > lo:
                    lo = v
            else:
                hi = v
        if self.aborted == 6:
            raise KeyboardInterrupt
        return {
            "value": None if self.aborted else best,
            "incumbent": self.inc_score if self.inc_found else None,
            "steps": self._steps(),
            "aborted": self.aborted,
        }


def _heroes_of(state):
    heroes = []
    for h in state.heroes:
        if not h.weapon:
            heroes.append((h.health, 0, 0))
        else:
            heroes.append((h.health, h.weapon, FRESH if h.last_kill is None else h.last_kill))
    return heroes


def _potion_mask(state):
    pm = 0
    for i in range(state.rules.heroes):
        if state.potion_used[i]:
            pm |= 1 << i
    return pm


def decide(state, target, max_nodes=0, timeout=0.0, tt_mb=64, searcher=None):
    """Is the optimal score of ``state`` at least ``target``?  One null-window test.

    Much cheaper than the exact score when the answer is found quickly (a
    winning line ends the test at once).  Returns ``{"reached": bool or None
    (a limit stopped it), "bound": an upper bound when not reached, else a
    lower bound, "score": the best line's score found or None, "nodes"}``.
    """
    rules = state.rules
    if state.finished:
        return {"reached": state.score >= target, "bound": state.score, "score": state.score, "nodes": 0}
    s = searcher if searcher is not None else new_searcher(rules, tt_mb)
    s.nodes = 0
    out = s.run([c.index for c in state.room], [c.index for c in state.dungeon], state.taken,
                _heroes_of(state), state.leader, _potion_mask(state), 1 if state.help_used else 0,
                1 if state.can_avoid() else 0, int(max_nodes or 0), float(timeout or 0.0), 1, int(target) - 1)
    if out["aborted"]:
        if out["incumbent"] is not None and out["incumbent"] >= target:
            return {"reached": True, "bound": out["incumbent"], "score": out["incumbent"], "nodes": s.nodes}
        return {"reached": None, "bound": None, "score": out["incumbent"], "nodes": s.nodes}
    return {"reached": bool(out["high"]), "bound": out["bound"], "score": out["incumbent"], "nodes": s.nodes}


def new_searcher(rules, tt_mb=256):
    """A searcher for ``rules`` whose table can be kept across several searches.

    Table entries are bounds on the value of a position (the cards left in
    order, the heroes, the leader, whether an avoid is allowed), whatever the
    search that stored them, so one table may serve many related searches:
    the actions of one position, or several orders of the same cards.
    """
    flee = {"classic": 0, "easy": 1, "hard": 2}[rules.flee]
    return Searcher(1 if rules.coop else 0, 1 if rules.lenient else 0, flee, float(tt_mb))


def search(state, max_nodes=0, timeout=0.0, tt_mb=256, searcher=None, want_line=True):
    """Solve ``state`` (a ``solver.state.State``); return the dict ``solver.solve`` expects.

    ``searcher`` (from :func:`new_searcher`, same rules) reuses its table.  A
    table filled by earlier searches can prove a value without walking the
    line that reaches it, so with a reused searcher ask ``want_line=False``:
    the value is exact, the line may then be partial and is not returned.
    """
    from .state import AVOID, Take
    from .cards import full_pack
    rules = state.rules
    if state.finished:
        return {"score": state.score, "line": [], "nodes": 0, "exact": True, "limit": None, "tt": {}}
    if searcher is None:
        s = new_searcher(rules, tt_mb)
    else:
        s = searcher
        if s.coop != (1 if rules.coop else 0) or s.lenient != (1 if rules.lenient else 0) \
                or s.flee != {"classic": 0, "easy": 1, "hard": 2}[rules.flee]:
            raise ValueError("the searcher was made for other rules")
        s.nodes = 0
    out = s.run([c.index for c in state.room], [c.index for c in state.dungeon], state.taken, _heroes_of(state),
                state.leader, _potion_mask(state), 1 if state.help_used else 0, 1 if state.can_avoid() else 0,
                int(max_nodes or 0), float(timeout or 0.0))
    pack = full_pack()
    line = []
    for rot, takes in out["steps"]:
        for _ in range(rot):
            line.append([AVOID])
        room = []
        for t in takes:
            card = pack[t & 63]
            mode = None
            if card.is_monster:
                mode = "w" if t & 64 else "b"
            room.append(Take(card, mode, bool(t & 128)))
        line.append(room)
    limit = {0: None, 1: "nodes", 2: "time", 3: "depth", 4: "outcomes"}[out["aborted"]]
    exact = out["aborted"] == 0
    score = out["value"] if exact else out["incumbent"]
    if not want_line:
        line = None
    elif not out["steps"]:
        line = []
    if want_line and exact and score != out["incumbent"]:
        raise AssertionError(f"search core inconsistency: value {score} but best line scores {out['incumbent']}")
    return {
        "score": score,
        "line": line,
        "nodes": s.nodes,
        "exact": exact,
        "limit": limit,
        "tt": {"entries": s.tt_used, "capacity": s.tt_capacity, "max_capacity": s.tt_max_capacity,
               "mb": round(s.tt_bytes / 2**20, 1),
               "hits": s.tt_hits, "tests": s.tests, "stores": s.tt_stores, "replaced": s.tt_replaced},
    }
