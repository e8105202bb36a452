# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""What can come next in the belief search: the ways to take a room, and the deals.

Owns ``Belief.en`` (a ``Search`` whose outcome lists ``_rooms`` fills, one per belief depth),
the unseen cards (``cnt``, ``n``, ``ncls``: taken by a deal and put back after it, so they are
always those of the belief being valued) and the beliefs along the driver's path (``rows``,
``bot``, ``nbot``: the row and the known bottom at each depth); reads the rules.  The driver
(``_belief_search``) asks, and values each thing it is given.

**Rooms.**  Inside a room the whole row is face up, so the only chance events are the deals.
Every way to take a room (the orders of the takes, fight modes, the help card) is enumerated
by the core's ``_rooms.enum_takes``, which keeps per carried card only the Pareto front of
the heroes after the room (the belief value never decreases with more health, a stronger or
less worn weapon: docs/hints.md, "Why the Pareto front is exact for beliefs") and only the
best terminal score (``room_outcomes``).

**Deals** take the next cards off the unseen ones (then off the known bottom once they run
out), merged by class (5♣ = 5♠: kind and value, all the rules see).  The row's order matters
only if the next room may be avoided (it would go under in that order): then the draws are
ordered class sequences, each weighted by the cards of its class there were at each draw;
otherwise they are multisets (classes in increasing order), each weighted by the ordered
draws behind it (``k! * prod C(N_i, c_i)``).  ``begin_deal`` lays out what is known of the
next row and bottom, ``next_draw`` steps through the draws like an odometer (the same order
as the nested loops over classes), and ``end_deal`` puts the cards back when the driver
stops early.
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport uint8_t, int8_t
from ._types cimport MAXN, MAXDEPTH, Heroes, Tally, _tally_card
from ._search cimport search_init, search_free
from ._rooms cimport enum_takes, compact, begin_room
from ._belief_types cimport NCLS, MAXUNSEEN, FACT, BINOM, REP, _cls, _rep
from ._belief_state cimport Belief


cdef int enum_init(Belief *b) except -1:
    search_init(&b.en, b.coop, b.lenient, b.flee, 1.0)
    return 0


cdef void enum_free(Belief *b) noexcept nogil:
    search_free(&b.en)


cdef int load_unseen(Belief *b, list unseen, list bottom) except -1:
    """The root belief's unseen cards (card codes, any order) and known bottom (in order)."""
    cdef int i, c
    if len(unseen) > MAXUNSEEN:
        raise OverflowError(f"more than {MAXUNSEEN} unseen cards")
    if len(bottom) + len(unseen) + 4 > MAXN:
        raise ValueError("too many cards")
    memset(b.cnt, 0, sizeof(b.cnt))
    b.n = 0
    b.ncls = 0
    for code in unseen:
        c = _cls(code)
        if b.cnt[c] == 0:
            b.ncls += 1
        b.cnt[c] += 1
        b.n += 1
    for i in range(len(bottom)):
        b.bot[0][i] = _rep(bottom[i])
    b.nbot[0] = len(bottom)
    return 0


cdef void tally_belief(Belief *b, int8_t *row, int nrow, int8_t *bot, int nbot, Tally *t) noexcept nogil:
    """``t`` = every card still to come: the row, the known bottom and the unseen cards."""
    cdef int i, j
    memset(t, 0, sizeof(Tally))
    for i in range(nrow):
        _tally_card(t, row[i], 1)
    for i in range(nbot):
        _tally_card(t, bot[i], 1)
    for i in range(NCLS):
        for j in range(b.cnt[i]):
            _tally_card(t, REP[i], 1)


# ------------------------------------------------------------------ rooms

cdef int room_outcomes(Belief *b, int depth, int8_t *room, int nroom, int to_take, int potion_mask,
                       int help_used, Heroes *hs) except -1:
    """Every way to take ``to_take`` cards of ``room`` (not the final room) with the bottom
    ``bot[depth]``: their number; the outcomes are ``en.out[depth][:count]`` (Pareto fronts
    per carried card, the best terminal)."""
    cdef Tally t
    cdef uint8_t takes[4]
    cdef int8_t rm[4]
    if depth + 2 >= MAXDEPTH:
        raise RuntimeError("belief search too deep")
    memcpy(rm, room, nroom)
    tally_belief(b, rm, nroom, b.bot[depth], b.nbot[depth], &t)
    begin_room(&b.en, depth, 0, False, &t)
    enum_takes(&b.en, rm, nroom, 0, to_take, hs[0], potion_mask, help_used, t.mtot, takes, 0,
               -1, 0, 0, 0, 0)
    if b.en.aborted:
        raise RuntimeError("too many outcomes of one room")
    return compact(&b.en, b.en.e_buf, b.en.e_count)


# ------------------------------------------------------------------ deals

cdef int deal_bottom(Belief *b, int depth, int8_t *prefix, int8_t *B, int nB, int append_row,
                     int8_t *full) noexcept nogil:
    """The known cards that will lie under the unseen ones once the room at ``depth`` is
    left, in order, into ``full``: their number.  The bottom ``B``; after an avoid
    (``append_row``: nothing is carried) the old bottom ``bot[depth]`` then the avoided row
    ``prefix[:4]``."""
    cdef int nfull
    if append_row:
        memcpy(full, b.bot[depth], b.nbot[depth])
        nfull = b.nbot[depth]
        memcpy(full + nfull, prefix, 4)
        nfull += 4
    else:
        memcpy(full, B, nB)
        nfull = nB
    return nfull


cdef void begin_deal(Belief *b, Deal *d, int depth, int8_t *prefix, int npre, int8_t *full, int nfull,
                     int avoid_next) noexcept nogil:
    """Lay out the next room start, ``rows[depth + 1]`` and ``bot[depth + 1]``: ``prefix``
    (the carried card, or nothing), the cards drawn off the unseen ones (``next_draw``), then
    off the known ``full`` bottom once they run out.  ``avoid_next``: the rules would let
    that room be avoided (its draws are then ordered, if anything is left under it)."""
    cdef int need = 4 - npre, k, fill, nb, i
    cdef int8_t *row = b.rows[depth + 1]
    k = need if need <= b.n else b.n
    fill = need - k
    if fill > nfull:
        fill = nfull
    nb = nfull - fill
    memcpy(b.bot[depth + 1], full + fill, nb)
    b.nbot[depth + 1] = nb
    memcpy(row, prefix, npre)
    for i in range(fill):
        row[npre + k + i] = full[i]
    d.depth = depth
    d.at = npre
    d.k = k
    d.nrow = npre + k + fill
    d.ordered = avoid_next and (b.n - k + nb > 0)
    d.started = False
    d.p = 0


cdef inline int _next_class(Belief *b, int c) noexcept nogil:
    """The first class from ``c`` on with an unseen card (``NCLS``: none)."""
    while c < NCLS and b.cnt[c] == 0:
        c += 1
    return c


cdef inline void _take(Belief *b, Deal *d, int c) noexcept nogil:
    d.mult[d.p] = b.cnt[c]
    d.cls[d.p] = c
    b.rows[d.depth + 1][d.at + d.p] = REP[c]
    d.p += 1
    b.cnt[c] -= 1
    b.n -= 1
    if b.cnt[c] == 0:
        b.ncls -= 1


cdef inline void _put(Belief *b, int c) noexcept nogil:
    if b.cnt[c] == 0:
        b.ncls += 1
    b.cnt[c] += 1
    b.n += 1


cdef bint next_draw(Belief *b, Deal *d) noexcept nogil:
    """The next draw of the deal: its cards taken off the unseen ones (the last draw's put
    back first) into the row, its weight in ``d.weight``.  False when there is none left
    (every card put back)."""
    cdef int c, i, m
    cdef bint advance = d.started
    d.started = True
    while True:
        if advance:
            # the last card drawn moves on to the next class, or the one before it does
            if d.p == 0:
                return False
            d.p -= 1
            c = d.cls[d.p]
            _put(b, c)
            c = _next_class(b, c + 1)
            if c == NCLS:
                continue
            _take(b, d, c)
        # the rest from the first class allowed: any (ordered), else not below the last
        while d.p < d.k:
            c = _next_class(b, 0 if d.ordered or d.p == 0 else d.cls[d.p - 1])
            if c == NCLS:
                break
            _take(b, d, c)
        if d.p == d.k:
            break
        advance = True
    if d.ordered:
        d.weight = 1
        for i in range(d.k):
            d.weight *= d.mult[i]
    else:
        # k! * prod C(N_i, c_i): the ordered draws behind this multiset
        d.weight = FACT[d.k]
        i = 0
        while i < d.k:
            c = d.cls[i]
            m = 0
            while i < d.k and d.cls[i] == c:
                m += 1
                i += 1
            d.weight *= BINOM[b.cnt[c] + m][m]
    return True


cdef void end_deal(Belief *b, Deal *d) noexcept nogil:
    """Put back the cards of the current draw (when the driver stops before the last)."""
    while d.p > 0:
        d.p -= 1
        _put(b, d.cls[d.p])
