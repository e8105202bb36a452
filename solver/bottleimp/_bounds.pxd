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

Relative ranks (``canonical``): the key names the cards in play by their place, so that
positions the rest of the round cannot tell apart share one entry (below).
"""
from libc.stdint cimport uint64_t
from ._types cimport Engine, Pos, INF, NCARDS, RING, USE_RANKS, USE_QUICK
from ._moves cimport low_bit, high_bit


cdef extern from *:
    int __builtin_popcountll(uint64_t) noexcept nogil


cdef inline int coins_of(Engine *e, uint64_t m) noexcept nogil:
    """The coins of the cards of ``m``: by the bits of the coins' numbers (1-6 < 8)."""
    return (__builtin_popcountll(m & e.deck.coinbit[0]) + 2 * __builtin_popcountll(m & e.deck.coinbit[1])
            + 4 * __builtin_popcountll(m & e.deck.coinbit[2]))


cdef inline int cheapest(Engine *e, uint64_t m, int n) noexcept nogil:
    """The coins of the ``n`` cheapest cards of ``m`` (all of them if fewer)."""
    cdef int v, k, t = 0
    for v in range(1, 7):
        if n <= 0:
            break
        k = __builtin_popcountll(m & e.deck.coinmask[v])
        if k > n:
            k = n
        t += v * k
        n -= k
    return t


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


cdef inline void gains(Engine *e, Pos *p, int seat, uint64_t live, int r, int *sure, int *poss, bint want_poss=1) noexcept nogil:
    """Bounds on the coins ``seat`` (A or B) wins from this trick boundary on.

    May win: a seat without a card below the price wins a trick only with its card the
    highest of the trick (§2.6: were a card below the price in it, that card's player would
    win; the price only falls, so the seat's cards never go below it), so it can win no card
    above its own highest but its own cards.  A seat with a card below the price may win any.

    Surely wins: if no other seat holds a card below the price, the seat's cards above every
    other card in play ("top" cards) win whatever trick they are in (the trick's highest card,
    and any card below the price in it is the seat's own), and those tricks hold, from each
    other holding, a card of at least the cheapest coins it has: at least ``t`` tricks, ``t`` the
    most such cards in one of the seat's holdings (a holding gives one card a trick).  So does
    its lowest card below the price: every price from now on is one of the seat's own cards
    below the price, all higher, so that card stays below the price and wins its trick.

    Any seat, Lopaka's too (``quick_bounds`` shares the coins out: what one surely wins no other
    may win)."""
    cdef uint64_t mine = seat_cards(e, p, seat), others = live & ~mine, below = (1ULL << p.pidx) - 1, top
    cdef int h, t = 0, k, own0, own1
    if mine & below or not mine or not want_poss:
        poss[0] = r if mine else 0
    else:
        poss[0] = coins_of(e, mine | (others & ((1ULL << high_bit(mine)) - 1)))
    sure[0] = 0
    if mine and not (others & below):
        top = mine & ~((2ULL << high_bit(others)) - 1) if others else mine
        if mine & below:                # and its lowest card below the price (see above)
            top |= mine & below & (0 - (mine & below))
        if top:
            own0 = seat * 2 if e.glitz else seat
            own1 = own0 + 1 if e.glitz else own0
            for h in range(e.nhold):
                if h == own0 or h == own1:
                    k = __builtin_popcountll(p.hand[h] & top)
                    if k > t:
                        t = k
            k = coins_of(e, top)
            for h in range(e.nhold):
                if h != own0 and h != own1:
                    k += cheapest(e, p.hand[h], t)
            sure[0] = k


cdef inline void quick_bounds(Engine *e, Pos *p, int f, int *lo, int *hi) noexcept nogil:
    """Bounds on the final margin from the coins still in play (at a trick boundary): for each
    player who may end with the bottle, the margin if A and B win the least and the most
    coins they may (``gains``; without ``USE_QUICK``, none and every coin left)."""
    cdef uint64_t live = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef int r = coins_of(e, live)
    cdef int pa = p.won[0], pb = p.won[e.seat_b], d = e.devil
    cdef int l = INF, h = -INF, sa = 0, xa = r, sb = 0, xb = r, sl = 0, xl = r
    cdef uint64_t below = (1ULL << p.pidx) - 1
    # (with cards below the price in both A's and B's hands the gains are nothing and everything)
    if e.flags & USE_QUICK and not ((seat_cards(e, p, 0) & below) and (seat_cards(e, p, e.seat_b) & below)):
        gains(e, p, 0, live, r, &sa, &xa)
        gains(e, p, e.seat_b, live, r, &sb, &xb)
        if not e.glitz:                 # what Lopaka surely wins, neither A nor B may
            gains(e, p, 1, live, r, &sl, &xl, 0)
        if xa > r - sb - sl:
            xa = r - sb - sl
        if xb > r - sa - sl:
            xb = r - sa - sl
    if f & 1:           # A pays the devil's trick; B scores what B has and wins
        l = min(l, -d - pb - xb)
        h = max(h, -d - pb - sb)
    if f & 4:
        l = min(l, pa + d + sa)
        h = max(h, pa + d + xa)
    if f & 16:
        l = min(l, pa - pb + sa - xb)
        h = max(h, pa - pb + xa - sb)
    lo[0] = l
    hi[0] = h


# ------------------------------------------------------------------ relative ranks
#
# What the rest of a round can see of a card in play.  From a trick boundary on, the rules
# look at a card only through its holding (who plays it and when), its suit (following,
# §2.5), its coins (the score, §2.7), and comparisons of its number with the numbers of other
# cards in play and with the price (§2.6, Lopaka's rule §3.4).  The price itself is compared
# only with cards in play (a card played in a trick is in play when the trick starts), and a
# purchase sets it to the number of a card in play.  So write the cards in play in the order
# of their numbers, each tagged with its holding, suit and coins, and mark where the price
# falls among them: two positions with the same tagged sequence (and the same holder, leader,
# coins won and devil's trick) are the same game, move for move (map the i-th card of one to
# the i-th card of the other: every comparison, every legal set, every trick's winner and every
# score agrees), and so have the same value.  Dead cards (played in earlier tricks) and the
# price's own number are invisible.
#
# Within one generation each card's holding is fixed by the deal (``owners``), so two sets of
# cards in play give the same tagged sequence exactly when the i-th cards of the two agree in
# suit, coins and holding and lie on the same side of the price.  ``canonical`` maps every
# such set, with its price, to one representative of its class: the price is one more slot of
# the sequence, and slot by slot in ascending order each card moves down to the lowest card of
# its suit, coins and holding (``twins``) above the representative of the slot before it, and
# the price to just above the representative of the highest card below it (``pidx`` = that card
# + 1, or 0).  Each move keeps the tagged sequence (a card moves past gone cards only, and a
# card above the price passes the price's old number only once the price has moved below it),
# so the representative is in the class; and it depends on the tagged sequence alone (the
# lowest fitting card above the slot before, slot by slot), so the class has one.
#
# Hence: below the price two cards are NOT interchangeable while both are in play (the one
# played may buy the bottle and set the price under the other or over it; ``_moves`` merges
# equal cards only above it), but once one of them is gone the survivor may stand for it
# wherever no card in play and not the price lies between them, below the price as above.
# Example: A holds 5 (yellow, 2 coins), 4 (blue) is gone; A having played 3 (yellow, 2 coins)
# or 5 earlier leaves the same game.  Prices 14 and 15 with card 14 gone are the same game.
#
# The table's entries are checked across generations card by card of the key (``_table.usable``),
# and a representative card is always one of ``owners`` in its holding, so a key read in another
# generation still names the same holdings.  The best card of an entry is stored as its place
# among the cards in play (``slot_of``), which the class shares.


cdef inline void prepare_ranks(Engine *e) noexcept nogil:
    """``twins`` and ``slides`` of the current generation's holdings (after ``owners`` grew)."""
    cdef uint64_t *own = e.tt.owners[e.tt.gen % RING]
    cdef uint64_t m, same
    cdef int h, c, d
    e.slides = 0
    for c in range(NCARDS):
        e.twins[c] = 0
    for h in range(e.nhold):
        m = own[h]
        while m:
            c = low_bit(m)
            m &= m - 1
            same = own[h] & e.deck.suitmask[e.deck.suit[c]] & ((1ULL << c) - 1)
            while same:
                d = low_bit(same)
                same &= same - 1
                if e.deck.coins[d] == e.deck.coins[c]:
                    e.twins[c] |= 1ULL << d
            if e.twins[c]:
                e.slides |= 1ULL << c


cdef inline uint64_t canonical(Engine *e, uint64_t live, int pidx, int *pidx_out) noexcept nogil:
    """The representative of ``live`` (cards in play at a trick boundary) and of the price
    ``pidx`` under relative ranks (the proof above): first the cards below the price, then the
    price (just above the highest of them), then the cards above it."""
    cdef uint64_t below = (1ULL << pidx) - 1, m = live & e.slides & below, cand, under
    cdef int c, phase
    for phase in range(2):
        while m:
            c = low_bit(m)
            m &= m - 1
            cand = e.twins[c]
            under = live & ((1ULL << c) - 1)
            if under:
                cand &= ~((2ULL << high_bit(under)) - 1)
            if cand:
                live ^= (1ULL << c) | (1ULL << low_bit(cand))
        if phase == 0:
            pidx_out[0] = high_bit(live & below) + 1 if live & below else 0
            m = live & e.slides & ~below
    return live


cdef inline int slot_of(uint64_t live, int c) noexcept nogil:
    """The place of card c among the cards in play (0: the lowest)."""
    return __builtin_popcountll(live & ((1ULL << c) - 1))


cdef inline int card_at(uint64_t live, int slot) noexcept nogil:
    """The card at place ``slot`` among the cards in play (-1: none)."""
    cdef int i
    if slot < 0:
        return -1
    for i in range(slot):
        live &= live - 1
    return low_bit(live) if live else -1


cdef inline uint64_t tt_key(Engine *e, Pos *p, int f, int *offset) noexcept nogil:
    """The key of a trick boundary and the offset its stored values are relative to: the cards
    still in play (the deal fixes whose they are), the price, the holder, the leader, the
    coins of A and of B where their fate is open (module doc), and the devil's trick's coins.
    With relative ranks the cards and the price are those of the class's representative."""
    cdef uint64_t key = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3])
    cdef int pidx = p.pidx
    if e.flags & USE_RANKS:
        key = canonical(e, key, p.pidx, &pidx)
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
    key |= (<uint64_t> pidx) << 36
    key |= (<uint64_t> (p.holder + 1)) << 41
    key |= (<uint64_t> p.leader) << 43
    key |= (<uint64_t> ka) << 45
    key |= (<uint64_t> kb) << 52
    key |= (<uint64_t> e.devil) << 59      # the devil's trick's coins (at most 24 < 32): worlds of one table share it
    return key
