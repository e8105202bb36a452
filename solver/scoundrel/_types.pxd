# cython: language_level=3
"""What every part of the search core shares: its limits, the cards, the small structs.

Owns no state and no module at run time: constants, two constant card tables
(compiled into each part that cimports them) and the ``cdef inline`` helpers on
cards, heroes and tallies, inlined into each user as they were in the one-file
core.  The parts (see docs/solver.md, "Where each part lives"):

* ``_table``  the transposition table and its keys;
* ``_rooms``  the enumeration of one room (outcomes, Pareto fronts, commuting takes);
* ``_bounds`` the upper bounds (unavoidable damage, the rooms ahead, the loss bound);
* ``_search`` the driver (node, the null-window tests, the incumbent, the limits);
* ``_core``   the Python-facing API (``Searcher``, ``search``, ``decide``);
* ``_state.pxd`` the one struct they share, field by field with its owner.
"""
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    int __builtin_clz(unsigned int x) noexcept nogil

cdef enum:
    MAXN = 64          # cards in S
    MAXDEPTH = 96      # room starts on one path
    MAXOUT = 16384     # outcomes of one room start (easy flee: up to 54 rotations)
    NO_BETA = 1000     # beta when not deciding: above every score
    GROUPS = 4096      # outcome groups: rotation * 64 + carried card + 1
    NEG = -30000
    UNKNOWN = 30000    # node(): bound not computed yet
    FRESH = 99         # last kill of an unused weapon
    NCODES = 53        # card codes: Card.index, joker = 52
    MAXHP = 20

cdef enum:
    MONSTER = 0
    POTION = 1
    WEAPON = 2

# The kind and value of each card code (Card.index: suit * 13 + value - 2, the joker 52):
# clubs (0) and spades (3) and every face card are monsters, hearts (2) potions,
# diamonds (1) weapons; the joker a monster of 15.
cdef extern from *:
    """
    #define SC_KIND_OF(s, v) (((s) == 0 || (s) == 3 || (v) > 10) ? 0 : ((s) == 2 ? 1 : 2))
    #define SC_SUIT_KINDS(s) SC_KIND_OF(s, 2), SC_KIND_OF(s, 3), SC_KIND_OF(s, 4), \
        SC_KIND_OF(s, 5), SC_KIND_OF(s, 6), SC_KIND_OF(s, 7), SC_KIND_OF(s, 8), \
        SC_KIND_OF(s, 9), SC_KIND_OF(s, 10), SC_KIND_OF(s, 11), SC_KIND_OF(s, 12), \
        SC_KIND_OF(s, 13), SC_KIND_OF(s, 14)
    #define SC_SUIT_VALUES 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
    static const signed char SC_KIND[53] = {
        SC_SUIT_KINDS(0), SC_SUIT_KINDS(1), SC_SUIT_KINDS(2), SC_SUIT_KINDS(3), 0};
    static const signed char SC_VALUE[53] = {
        SC_SUIT_VALUES, SC_SUIT_VALUES, SC_SUIT_VALUES, SC_SUIT_VALUES, 15};
    #define SC_LANE_HI 0x0000808080808080ULL
    """
    const int8_t KIND "SC_KIND" [NCODES]
    const int8_t VALUE "SC_VALUE" [NCODES]
    const uint64_t LANE_HI "SC_LANE_HI"

cdef extern from "Python.h":
    # declared here without "except -1": a pending Ctrl-C is noted, not raised mid-search
    int _check_signals "PyErr_CheckSignals" ()
    void _clear_error "PyErr_Clear" ()

ctypedef struct Heroes:
    int8_t hp[2]
    int8_t w[2]
    int8_t k[2]

ctypedef struct Outcome:
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
    int8_t ahead[2]      # the rooms-after extra of the child (_bounds._deep_extra's ``ahead``), from rate_outcomes; -1 unknown

ctypedef struct Tally:
    # what is left in S, by value: monsters, potions, diamonds
    int16_t m[16]
    int16_t p[16]
    int16_t d[16]
    int mtot
    int psum              # total value of the potions
    uint32_t mmask        # bit v: some monster of value v (likewise pmask, dmask)
    uint32_t pmask
    uint32_t dmask
    uint64_t mkey         # m[2..15] packed, 4 bits each from bit 0 (a value has at most 4 copies)
    uint64_t dkey         # d[2..10] likewise: with mkey, an exact key of what damage() reads

ctypedef struct Step:
    int8_t rot
    int8_t ntakes
    uint8_t takes[4]


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


cdef inline uint64_t _pack(Heroes *hs) noexcept nogil:
    """Health, weapon and last kill of both heroes, one byte lane each (all < 128),
    so that a >= b in every lane iff ((a | LANE_HI) - b) & LANE_HI == LANE_HI."""
    return (<uint64_t> <uint8_t> hs.hp[0]) | ((<uint64_t> <uint8_t> hs.w[0]) << 8) \
        | ((<uint64_t> <uint8_t> hs.k[0]) << 16) | ((<uint64_t> <uint8_t> hs.hp[1]) << 24) \
        | ((<uint64_t> <uint8_t> hs.w[1]) << 32) | ((<uint64_t> <uint8_t> hs.k[1]) << 40)


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
        t.dkey += (<uint64_t> <int64_t> d) << (4 * (v - 2))
    else:
        _count(t.m, &t.mmask, v, d)
        t.mtot += d * v
        t.mkey += (<uint64_t> <int64_t> d) << (4 * (v - 2))


cdef inline void _tally(int8_t *S, int n, Tally *t) noexcept nogil:
    """``t`` = the cards ``S[:n]``."""
    cdef int i
    memset(t, 0, sizeof(Tally))
    for i in range(n):
        _tally_card(t, S[i], 1)


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
