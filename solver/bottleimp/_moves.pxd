# cython: language_level=3
"""Move generation: who plays, what may be played, Lopaka's card, a trick's winner, making
a move, and the merge of equivalent cards.  Inline functions only (no module of its own):
the search calls them at every node.  IMP-RULES §2.5-§2.6, §3.4, §4.3; ``state.py`` is the
plain statement of the same rules, and the tests hold the two together.
"""
from libc.stdint cimport uint64_t
from ._types cimport Engine, Pos, Deck, NCARDS, USE_EQUIV


cdef inline int high_bit(uint64_t m) noexcept nogil:
    return 63 - __builtin_clzll(m)


cdef inline int low_bit(uint64_t m) noexcept nogil:
    return __builtin_ctzll(m)


cdef extern from *:
    """
    #define imp_clz(x) __builtin_clzll(x)
    #define imp_ctz(x) __builtin_ctzll(x)
    #define imp_popcount(x) __builtin_popcountll(x)
    """
    int __builtin_clzll(uint64_t) noexcept nogil
    int __builtin_ctzll(uint64_t) noexcept nogil
    int imp_popcount(uint64_t) noexcept nogil


cdef inline int seat_of(Engine *e, Pos *p, int k) noexcept nogil:
    """The seat that plays the k-th card (0 = the lead) of the current trick."""
    if e.glitz:
        return p.leader if (k & 1) == 0 else 1 - p.leader
    cdef int s = p.leader + k
    return s - 3 if s >= 3 else s


cdef inline int holding_of(Engine *e, Pos *p, int k) noexcept nogil:
    """The holding the k-th card comes from: Glitzerhaus's open stacks give the first two cards."""
    if e.glitz:
        return seat_of(e, p, k) * 2 + (1 if k >= 2 else 0)
    return seat_of(e, p, k)


cdef inline uint64_t legal_mask(Engine *e, Pos *p, int h) noexcept nogil:
    """The cards of holding h that may be played now: the led suit's if it holds any (§2.5)."""
    cdef uint64_t hand = p.hand[h], same
    if p.ntrick == 0:
        return hand
    same = hand & e.deck.suitmask[e.deck.suit[p.trick[0]]]
    return same if same else hand


cdef inline int lopaka_card(Engine *e, Pos *p) noexcept nogil:
    """Lopaka's card by his rule (§3.4): leading, his highest; else his highest legal card that
    wins the trick as it lies, else his lowest legal card."""
    cdef uint64_t legal = legal_mask(e, p, 1), m
    cdef int i, c, below = -1, top = -1
    if p.ntrick == 0:
        return high_bit(legal)
    for i in range(p.ntrick):
        c = p.trick[i]
        if c < p.pidx and c > below:
            below = c
        if c > top:
            top = c
    m = legal
    while m:
        c = high_bit(m)
        if c < p.pidx:
            if c > below:
                return c
        elif below < 0 and c > top:
            return c
        m &= ~(1ULL << c)
    return low_bit(legal)


cdef inline void play(Engine *e, Pos *p, int c) noexcept nogil:
    """Play card c from the holding whose turn it is; settle the trick when it is complete (§2.6)."""
    cdef int k = p.ntrick, i, w, below = -1, top = -1, wi = 0, coins = 0, t
    p.hand[holding_of(e, p, k)] &= ~(1ULL << c)
    p.trick[k] = c
    p.ntrick = k + 1
    p.left -= 1
    if p.ntrick < e.size:
        return
    for i in range(e.size):
        t = p.trick[i]
        coins += e.deck.coins[t]
        if t < p.pidx and t > below:
            below = t
            wi = i
    if below < 0:
        for i in range(e.size):
            if p.trick[i] > top:
                top = p.trick[i]
                wi = i
    w = seat_of(e, p, wi)
    p.won[w] += coins
    if below >= 0:
        p.pidx = below
        p.holder = w
    p.leader = w
    p.ntrick = 0


cdef inline uint64_t live_mask(Engine *e, Pos *p) noexcept nogil:
    """Every card still in a holding or on the table in the current trick."""
    cdef uint64_t m = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef int i
    for i in range(p.ntrick):
        m |= 1ULL << p.trick[i]
    return m


cdef inline uint64_t distinct_moves(Engine *e, Pos *p, uint64_t legal) noexcept nogil:
    """``legal`` less the cards equivalent to a lower legal card: above the price (which only
    ever falls, so they stay above it), of one suit, with equal coins, and no live card lying
    between them.  Nothing in the rules can tell such cards apart (§2.5-§2.6 compare numbers
    with one another and with the price; Lopaka's rule likewise), so the lowest stands for all.
    Below the price two such cards differ: the one played may buy the bottle and set the price
    under the other or over it."""
    if not (e.flags & USE_EQUIV):
        return legal
    cdef uint64_t live = live_mask(e, p), out = legal, m = legal >> p.pidx << p.pidx, between
    cdef int prev = -1, c
    while m:
        c = low_bit(m)
        m &= m - 1
        if prev >= 0 and e.deck.suit[c] == e.deck.suit[prev] and e.deck.coins[c] == e.deck.coins[prev]:
            between = ((1ULL << c) - 1) & ~((2ULL << prev) - 1)
            if not (live & between):
                out &= ~(1ULL << c)
        prev = c
    return out
