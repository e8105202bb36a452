# cython: language_level=3
"""What the past leaves open: who may still end with the bottle, fast bounds on the margin,
and the transposition table's key of a trick boundary.  Inline functions only.

The margin is not a sum over tricks (§2.7): the final holder scores minus the devil's
trick and nothing for the tricks they won.  So the value of the rest of a round depends on
the coins A and B have won so far, except where the holder's fate is settled: a player who
holds no card below the price and does not hold the bottle can never hold it (only the
player of a card below the price buys it), so their coins count in full; a holder whom
nobody else can outbid keeps it, so their coins count for nothing.  The key keeps a
player's coins only while their fate is open, and the table stores values less what the
settled coins add.
"""
from libc.stdint cimport uint64_t
from ._types cimport Engine, Pos, INF
from ._moves cimport low_bit


cdef inline int coins_of(Engine *e, uint64_t m) noexcept nogil:
    cdef int s = 0
    while m:
        s += e.deck.coins[low_bit(m)]
        m &= m - 1
    return s


cdef inline uint64_t seat_cards(Engine *e, Pos *p, int seat) noexcept nogil:
    if e.glitz:
        return p.hand[seat * 2] | p.hand[seat * 2 + 1]
    return p.hand[seat]


cdef inline int fates(Engine *e, Pos *p) noexcept nogil:
    """Bits: 1 A may end with the bottle, 2 A may end without it, 4 B may end with it,
    8 B may end without it, 16 Lopaka may end with it (at a trick boundary)."""
    cdef uint64_t below = (1ULL << p.pidx) - 1
    cdef int may_a = p.holder == 0 or (seat_cards(e, p, 0) & below) != 0
    cdef int may_b = p.holder == e.seat_b or (seat_cards(e, p, e.seat_b) & below) != 0
    cdef int may_l = 0
    if not e.glitz:
        may_l = p.holder == 1 or (p.hand[1] & below) != 0
    cdef int out = 0
    if may_a:
        out |= 1
    if p.holder != 0 or may_b or may_l:
        out |= 2
    if may_b:
        out |= 4
    if p.holder != e.seat_b or may_a or may_l:
        out |= 8
    if may_l:
        out |= 16
    return out


cdef inline void quick_bounds(Engine *e, Pos *p, int f, int *lo, int *hi) noexcept nogil:
    """Bounds on the final margin from the coins still in play (at a trick boundary): for each
    player who may end with the bottle, the margin if every coin left went to one side."""
    cdef int r = coins_of(e, p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3])
    cdef int pa = p.won[0], pb = p.won[e.seat_b], d = e.devil
    cdef int l = INF, h = -INF
    if f & 1:           # A pays the devil's trick; B scores what B has and may win
        l = min(l, -d - pb - r)
        h = max(h, -d - pb)
    if f & 4:
        l = min(l, pa + d)
        h = max(h, pa + d + r)
    if f & 16:
        l = min(l, pa - pb - r)
        h = max(h, pa - pb + r)
    lo[0] = l
    hi[0] = h


cdef inline uint64_t tt_key(Engine *e, Pos *p, int f, int *offset) noexcept nogil:
    """The key of a trick boundary and the offset its stored values are relative to: the cards
    still in play (the deal fixes whose they are), the price, the holder, the leader, the
    coins of A and of B where their fate is open (module doc), and the devil's trick's coins."""
    cdef uint64_t key = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3])
    cdef int ka = 0, kb = 0, off = 0
    if (f & 3) == 3:
        ka = p.won[0]
    elif (f & 3) == 2:              # A never holds it: A's coins count in full
        off += p.won[0]
    if (f & 12) == 12:
        kb = p.won[e.seat_b]
    elif (f & 12) == 8:
        off -= p.won[e.seat_b]
    offset[0] = off
    key |= (<uint64_t> p.pidx) << 36
    key |= (<uint64_t> (p.holder + 1)) << 41
    key |= (<uint64_t> p.leader) << 43
    key |= (<uint64_t> ka) << 45
    key |= (<uint64_t> kb) << 52
    key |= (<uint64_t> e.devil) << 59      # the devil's trick's coins (at most 24 < 32): worlds of one table share it
    return key
