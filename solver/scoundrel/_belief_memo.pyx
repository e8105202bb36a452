# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The memo of the belief search: every value it has proven, by a 128-bit key.

Owns ``Belief.memo`` (the ``Memo`` struct: its slots, their count); touches nothing else.
The keys (``belief_key``) are pure functions of their arguments.

What is kept (the driver, ``_belief_search``, and the leaves, ``_belief_leaves``, ask and
store): a room start's face value on its sorted row (``KEY_FACE``), its full value on its
row in order when avoiding is allowed (``KEY_ROOM``: the avoided row goes under in that
order), and the (win, score) of a leaf of perfect information (``KEY_LEAF``, not scaled by
``n!``: the clairvoyant orders of ``_belief_bounds`` share these).  A key is a fingerprint
of everything the value depends on, with the unseen cards by class (class-merged, as the
core's table keys its positions), so two beliefs the rules cannot tell apart share an
entry.  Nothing is ever replaced: the table doubles when half full (a belief search is
bounded by its budget, and its memo is 48 bytes an entry).
"""
from libc.stdlib cimport calloc, free
from libc.stdint cimport uint64_t, uint8_t, int8_t
from ._types cimport Heroes, _pack
from ._belief_types cimport i128, _fmix

cdef enum:
    INITIAL_SLOTS = 1 << 16


cdef int memo_init(Memo *m) except -1:
    m.mask = INITIAL_SLOTS - 1
    m.used = 0
    m.tab = <MEntry *> calloc(m.mask + 1, sizeof(MEntry))
    if m.tab == NULL:
        raise MemoryError()
    return 0


cdef void memo_free(Memo *m) noexcept nogil:
    if m.tab != NULL:
        free(m.tab)
        m.tab = NULL


cdef inline MEntry *_find(Memo *m, uint64_t k1, uint64_t k2) noexcept nogil:
    """The slot of key (k1, k2): found (k1 equal) or empty (k1 == 0)."""
    cdef uint64_t i = k2 & m.mask
    while True:
        if m.tab[i].k1 == 0 or (m.tab[i].k1 == k1 and m.tab[i].k2 == k2):
            return &m.tab[i]
        i = (i + 1) & m.mask


cdef bint memo_recall(Memo *m, uint64_t k1, uint64_t k2, i128 *w, i128 *s) noexcept nogil:
    """The memo's value of a key into ``w``/``s``, if it holds one."""
    cdef MEntry *e = _find(m, k1, k2)
    if e.k1 == 0:
        return False
    w[0] = e.w
    s[0] = e.s
    return True


cdef int memo_store(Memo *m, uint64_t k1, uint64_t k2, i128 w, i128 s) except -1:
    """Keep the value of a key (doubling the table first when it would pass half full)."""
    cdef MEntry *e
    cdef MEntry *old
    cdef uint64_t i, size
    if 2 * (m.used + 1) > m.mask + 1:
        size = m.mask + 1
        old = m.tab
        m.tab = <MEntry *> calloc(2 * size, sizeof(MEntry))
        if m.tab == NULL:
            m.tab = old
            raise MemoryError("the belief memo cannot grow")
        m.mask = 2 * size - 1
        for i in range(size):
            if old[i].k1 != 0:
                _find(m, old[i].k1, old[i].k2)[0] = old[i]
        free(old)
    e = _find(m, k1, k2)
    if e.k1 == 0:
        m.used += 1
    e.k1 = k1
    e.k2 = k2
    e.w = w
    e.s = s
    return 0


cdef inline void _mix(uint64_t *k1, uint64_t *k2, uint64_t x) noexcept nogil:
    k1[0] = _fmix(k1[0] ^ x) + 0x9E3779B97F4A7C15ULL
    k2[0] = _fmix((k2[0] + x) * 0xD6E8FEB86659FD93ULL) ^ 0x2545F4914F6CDD1DULL


cdef void belief_key(int kind, Heroes *hs, int8_t *row, int nrow, int avoid_ok, int deals, int horizon,
                     int *cnt, int8_t *bot, int nbot, uint64_t *k1, uint64_t *k2) noexcept nogil:
    """The fingerprint of a belief (``kind``: ``KEY_ROOM``, ``KEY_FACE`` or ``KEY_LEAF``):
    the heroes, the row, the unseen cards ``cnt`` by class and the known bottom in order.
    A depth-limited value (``horizon`` >= 0) depends on the deals left before the horizon,
    so they are in it too (all past the horizon alike); an exact one does not."""
    cdef uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL, x
    cdef int i, j
    if horizon < 0:
        deals = 0
    elif deals > horizon + 1:
        deals = horizon + 1
    x = <uint64_t> kind | (<uint64_t> avoid_ok << 2) | (<uint64_t> nrow << 3) \
        | (<uint64_t> (deals & 255) << 8) | (_pack(hs) << 16)
    _mix(&a, &b, x)
    x = <uint64_t> nbot << 40
    for i in range(nrow):
        x |= (<uint64_t> <uint8_t> row[i]) << (8 * i)
    _mix(&a, &b, x)
    for j in range(3):
        x = 0
        for i in range(16):
            x |= (<uint64_t> cnt[16 * j + i]) << (4 * i)
        _mix(&a, &b, x)
    i = 0
    while i < nbot:
        x = 0
        for j in range(8):
            if i + j < nbot:
                x |= (<uint64_t> <uint8_t> bot[i + j]) << (8 * j)
        _mix(&a, &b, x)
        i += 8
    if a == 0:
        a = 1
    k1[0] = a
    k2[0] = b
