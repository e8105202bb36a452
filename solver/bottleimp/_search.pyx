# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The search: fail-soft alpha-beta over the cards, and the null-window tests on the margin that find its value.

A node is a card to choose (A maximises the margin, B minimises it); Lopaka's card is
made by his rule in the frame of the node before it (``child``) or of the boundary he leads
from, and counted as a node.  At a trick boundary the search first asks the fast bounds
(``_bounds``) and the transposition table (``_table``) whether the window is settled
already (the table's bucket prefetched while the bounds are counted), and stores what it
learnt there afterwards.  The last trick is played
out without search (every holding has one card: nothing to choose).  Moves are ordered
the table's best card first, then by a fixed rule (``order_score``); equivalent cards are tried
once (``_moves.distinct_moves``).

A budget (nodes or a deadline) sets ``Engine.stopped``; every value returned after that
is void and the caller keeps only the tests that finished.
"""
from libc.stdint cimport uint64_t, int64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID
from ._types cimport Engine, Pos, Entry, INF, USE_TT, USE_ORDER, USE_BOUNDS, NCARDS
from ._moves cimport (seat_of, holding_of, legal_mask, lopaka_card, play, distinct_moves, low_bit)
from ._bounds cimport fates, quick_bounds, tt_key, slot_of, card_at
from ._table cimport tt_lookup, tt_store, tt_prefetch


cdef int terminal(Engine *e, Pos *p) noexcept nogil:
    """The margin A - B of a finished round (§2.7): the holder pays the devil's trick."""
    cdef int sa = -e.devil if p.holder == 0 else p.won[0]
    cdef int sb = -e.devil if p.holder == e.seat_b else p.won[e.seat_b]
    return sa - sb


cdef inline int last_trick(Engine *e, Pos *p) noexcept nogil:
    cdef Pos q = p[0]
    cdef int k
    for k in range(e.size):
        play(e, &q, low_bit(q.hand[holding_of(e, &q, k)]))
    return terminal(e, &q)


cdef inline int out_of_budget(Engine *e) noexcept nogil:
    cdef timespec ts
    if e.max_nodes and e.nodes >= e.max_nodes:
        return 1
    if e.deadline > 0:
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID if e.cpu_clock else CLOCK_MONOTONIC, &ts)
        if ts.tv_sec + ts.tv_nsec * 1e-9 >= e.deadline:
            return 1
    return 0


cdef inline void count_node(Engine *e) noexcept nogil:
    """A card played in the search (a node), and every 1,024th the budget's check."""
    e.nodes += 1
    if (e.nodes & 1023) == 0 and out_of_budget(e):
        e.stopped = 1


cdef inline void lopaka_plays(Engine *e, Pos *q) noexcept nogil:
    """Lopaka's card by his rule (§3.4; no choice): counted as a node, played in this frame."""
    count_node(e)
    play(e, q, lopaka_card(e, q))


cdef inline void child(Engine *e, Pos *q, int c) noexcept nogil:
    """Play ``c``, and Lopaka's card after it if he follows."""
    play(e, q, c)
    if q.ntrick and not e.glitz and seat_of(e, q, q.ntrick) == 1:
        lopaka_plays(e, q)


cdef inline int wins_now(Engine *e, Pos *p, int c) noexcept nogil:
    cdef int i, t, below = -1, top = -1
    for i in range(p.ntrick):
        t = p.trick[i]
        if t < p.pidx and t > below:
            below = t
        if t > top:
            top = t
    if c < p.pidx:
        return c > below
    return below < 0 and c > top


cdef inline int64_t order_score(Engine *e, Pos *p, int c) noexcept nogil:
    """The move ordering's score (highest first).  A trick is won by its strongest card:
    the highest below the price, else the highest of all (§2.6).  Leading: the cards below
    the price first, strongest first, then the others from the lowest.  Following: the cards
    that would win the trick as it lies first, strongest first, then the others from the
    lowest.  (Measured against a history of cut-offs by seat or by depth, plain lowest-first,
    and greedy orders by the trick's outcome: this rule made the smallest trees; see
    benchmarks/README.md.)"""
    if p.ntrick == 0:
        return c if c < p.pidx else -c
    if wins_now(e, p, c):
        return (100 + c) if c < p.pidx else 64 + c
    return -c


cdef int alphabeta(Engine *e, Pos *p, int alpha, int beta) noexcept nogil:
    cdef Pos q, r
    cdef Entry *ent
    cdef uint64_t key = 0, legal, m, live0 = 0
    cdef int f, lo, hi, off = 0, a0, b0, tt_best = -1, k, seat, h, n = 0, i, j, c, v, best, best_card = -1, maxi
    cdef int moves[12]
    cdef int64_t score[12]
    cdef int64_t sc
    cdef long long nodes0 = e.nodes
    cdef int boundary = p.ntrick == 0
    count_node(e)
    if e.stopped:
        return 0
    if boundary:
        if p.left == 0:
            return terminal(e, p)
        if p.left == e.size:
            return last_trick(e, p)
        f = fates(e, p)
        if e.flags & USE_TT:
            key = tt_key(e, p, f, &off)
            tt_prefetch(&e.tt, key)     # on its way while the fast bounds are counted
        if e.flags & USE_BOUNDS:
            quick_bounds(e, p, f, &lo, &hi)
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        if e.flags & USE_TT:
            live0 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
            if tt_lookup(&e.tt, key, f, &lo, &hi, &tt_best):
                tt_best = card_at(live0, tt_best)     # stored as its place among the cards in play
                lo += off
                hi += off
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
    a0 = alpha
    b0 = beta
    k = p.ntrick
    seat = seat_of(e, p, k)
    if not e.glitz and seat == 1 and k + 1 < e.size:
        r = p[0]                        # Lopaka leads (or follows at the root): his card in
        lopaka_plays(e, &r)             # this frame, then the next seat chooses here
        p = &r
        k = p.ntrick
        seat = seat_of(e, p, k)
    if not e.glitz and seat == 1:
        moves[0] = lopaka_card(e, p)    # his card ends the trick (a root mid-trick only)
        n = 1
    else:
        h = holding_of(e, p, k)
        m = distinct_moves(e, p, legal_mask(e, p, h))
        while m:
            c = low_bit(m)
            m &= m - 1
            moves[n] = c
            if e.flags & USE_ORDER:
                score[n] = (1LL << 62) if c == tt_best else order_score(e, p, c)
                # insertion: highest score first
                j = n
                while j > 0 and score[j - 1] < score[j]:
                    sc = score[j - 1]; score[j - 1] = score[j]; score[j] = sc
                    i = moves[j - 1]; moves[j - 1] = moves[j]; moves[j] = i
                    j -= 1
            n += 1
    maxi = seat == 0
    best = -INF if maxi else INF
    for i in range(n):
        c = moves[i]
        q = p[0]
        child(e, &q, c)
        v = alphabeta(e, &q, alpha, beta)
        if e.stopped:
            return 0
        if maxi:
            if v > best:
                best = v
                best_card = c
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                best_card = c
                if v < beta:
                    beta = v
        if alpha >= beta:
            if n > 1:
                e.cuts += 1
                if i == 0:
                    e.first_cuts += 1
            break
    if boundary and (e.flags & USE_TT):
        if best_card >= 0:
            best_card = slot_of(live0, best_card)
        if best <= a0:
            tt_store(&e.tt, key, -INF, best - off, best_card, e.nodes - nodes0)
        elif best >= b0:
            tt_store(&e.tt, key, best - off, INF, best_card, e.nodes - nodes0)
        else:
            tt_store(&e.tt, key, best - off, best - off, best_card, e.nodes - nodes0)
    return best


cdef void mtdf(Engine *e, Pos *p, int guess, int *lower, int *upper) noexcept nogil:
    """Narrow ``[lower, upper]`` to the value by null-window tests "is it at least t?",
    starting at ``guess``: while one side is still open the tests step away from the guess by
    doubling steps (4, 8, 16, ...), then they halve the bracket; each fail-soft answer narrows
    it at once.  (Plain MTD(f), stepping by the fail-soft value alone, needed a median of 29
    tests a Lopaka play phase from 0; this needs about 8.)  When a budget stops it, the bounds
    are those of the tests that finished."""
    cdef int g = guess, beta, step = 4, lo0 = lower[0], hi0 = upper[0]
    while lower[0] < upper[0]:
        if g <= lower[0]:
            g = lower[0] + 1
        if g > upper[0]:
            g = upper[0]
        beta = g
        g = alphabeta(e, p, beta - 1, beta)
        if e.stopped:
            return
        if g < beta:
            upper[0] = g
            if lower[0] > lo0:          # bracketed: halve it
                g = (lower[0] + upper[0] + 1) // 2
            else:
                g = upper[0] - step
                step *= 2
        else:
            lower[0] = g
            if upper[0] < hi0:
                g = (lower[0] + upper[0] + 1) // 2
            else:
                g = lower[0] + step
                step *= 2
