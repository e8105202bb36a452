# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The leaves of the belief search: positions of perfect information, solved by the core.

Owns ``Belief.core`` (a ``Search`` of its own, whose table carries over from leaf to leaf)
and the counters ``leaves`` and ``core_nodes``; reads the rules, the unseen cards (``cnt``,
``n``: ``_belief_enum``'s) and the clock (``deadline``); stores the leaves' values in the
memo (``_belief_memo``, under ``KEY_LEAF``) and sets ``aborted`` when a leaf is not proven
(2 the clock, 3 another limit, 6 Ctrl-C).

A belief with no unseen card, or with one class of them (their order is then known), is a
position of perfect information: its exact optimum is the core's, by its own driver
(``_search.run``) part-way through a room, and at a room start by the same null-window
tests straight on its ``node()`` in C (``_core_tests``: these leaves are many and mostly
small).  A leaf's (win, score) is remembered unscaled, so the clairvoyant orders of
``_belief_bounds`` (``order_value``) and the leaves of exact beliefs (``leaf_value``,
scaled by ``n!``) share it.  ``order_known`` gives an order's score from the memo or, not
solved yet, the core's upper bound on it (``_bounds.bound_at``, what the null-window tests
start from): what ``_belief_bounds``' cut-off sums.
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, int8_t
from ._types cimport MAXN, NEG, UNKNOWN, NO_BETA, Heroes, Tally, _now, _tally
from ._state cimport Search
from ._search cimport search_init, search_free, run as _core_run, node as _core_node
from ._rooms cimport rotations
from ._bounds cimport bound_at
from ._belief_types cimport NCLS, FACT, REP, i128, _sort4
from ._belief_state cimport Belief, avoid_allowed
from ._belief_memo cimport KEY_LEAF, memo_recall, memo_store, belief_key


cdef int leaves_init(Belief *b, double tt_mb) except -1:
    search_init(&b.core, b.coop, b.lenient, b.flee, tt_mb)
    return 0


cdef void leaves_free(Belief *b) noexcept nogil:
    search_free(&b.core)


cdef int _core_value(Belief *b, int8_t *row, int nrow, int taken, int potion_mask, int help_used,
                     int8_t *dun, int ndun, Heroes *hs, int leader, int avoid_ok, int *score) except -1:
    """The exact optimum of a position of perfect information, by the core."""
    cdef double left = 0.0
    cdef int i, v
    cdef Search *c = &b.core
    if b.deadline > 0:
        left = b.deadline - _now()
        if left <= 0:
            b.aborted = 2
            return 0
    if taken == 0 and (nrow == 4 or ndun == 0):
        # a room start: the core's null-window tests straight on its node(), in
        # C (as _search.run, without its greedy first line and its Python lists:
        # these leaves are many and mostly small)
        c.max_nodes = 0
        c.deadline = b.deadline
        c.aborted = 0
        c.inc_found = 0
        c.inc_score = NEG
        c.inc_len = 0
        for i in range(nrow):
            c.S[0][i] = row[i]
        for i in range(ndun):
            c.S[0][nrow + i] = dun[i]
        v = _core_tests(c, nrow + ndun, hs, leader, avoid_ok)
        b.core_nodes = c.nodes
        if c.aborted:
            if c.aborted == 6:
                b.aborted = 6
            else:
                b.aborted = 2 if c.aborted == 2 else 3
            return 0
        score[0] = v
        return 0
    heroes = []
    for i in range(b.nheroes):
        heroes.append((hs.hp[i], hs.w[i], hs.k[i]))
    out = _core_run(c, [], [row[i] for i in range(nrow)], [dun[i] for i in range(ndun)], taken,
                    heroes, leader, potion_mask, help_used, avoid_ok, 0, left, 0, 0)
    b.core_nodes = c.nodes
    if out["aborted"]:
        b.aborted = 2 if out["aborted"] == 2 else 3
        return 0
    score[0] = out["value"]
    return 0


cdef int _core_tests(Search *c, int n, Heroes *hs, int leader, int avoid_ok) noexcept nogil:
    """The exact value of the room start ``c.S[0][:n]``: null-window tests
    down from its bound, as ``_search.run`` asks them; no win left: one full
    window for the best loss."""
    cdef Tally t
    cdef int slack, hi, lo = NEG, alpha, v
    cdef bint first = True
    _tally(c.S[0], n, &t)
    c.no_win = False
    hi = bound_at(c, &t, hs, c.S[0], n, rotations(c, n, avoid_ok), &slack)
    while lo < hi:
        if hi > 0:
            if first:
                alpha = hi - 1
            else:
                alpha = hi - c.step
                if alpha <= c.zero_at and lo <= 0:
                    alpha = 0
            if alpha < lo:
                alpha = lo
            if alpha < 0:
                alpha = 0
        else:
            alpha = NEG
        first = False
        c.beta = alpha + 1 if alpha > NEG else NO_BETA
        c.loss_phase = alpha < 0
        c.no_win = c.loss_all and hi <= 0     # (hi is proven, as in _search.run)
        v = _core_node(c, 0, n, hs, leader, avoid_ok, alpha, UNKNOWN)
        if c.aborted:
            return NEG
        if alpha == NEG:
            return v
        if v > alpha:
            lo = v
        else:
            hi = v
    return hi


cdef int _unseen_then(Belief *b, int8_t *bot, int nbot, int8_t *dun) noexcept nogil:
    """The unseen cards (none, or one class: their order is known) then ``bot``, into
    ``dun``: the dungeon of a leaf; its length."""
    cdef int i, j, nd = 0
    for i in range(NCLS):
        for j in range(b.cnt[i]):
            dun[nd] = REP[i]
            nd += 1
    for i in range(nbot):
        dun[nd] = bot[i]
        nd += 1
    return nd


cdef int leaf_value(Belief *b, int8_t *row, int nrow, int8_t *bot, int nbot, Heroes *hs, int avoid_ok,
                    i128 *w, i128 *s) except -1:
    """A room start whose unseen cards (``cnt``: none, or one class) lie in a known
    order: its exact (win, score) times ``n!`` (memoised)."""
    cdef uint64_t k1, k2
    cdef int8_t r[4]
    cdef int8_t dun[MAXN]
    cdef int nd, score = 0
    cdef i128 lw, ls
    memcpy(r, row, nrow)
    if not avoid_ok:
        _sort4(r, nrow)
    belief_key(KEY_LEAF, hs, r, nrow, avoid_ok, 0, b.horizon, b.cnt, bot, nbot, &k1, &k2)
    if not memo_recall(&b.memo, k1, k2, &lw, &ls):
        nd = _unseen_then(b, bot, nbot, dun)
        b.leaves += 1
        _core_value(b, r, nrow, 0, 0, 0, dun, nd, hs, 0, avoid_ok, &score)
        if b.aborted:
            return 0
        lw = 1 if score > 0 else 0
        ls = score
        memo_store(&b.memo, k1, k2, lw, ls)
    w[0] = lw * FACT[b.n]
    s[0] = ls * FACT[b.n]
    return 0


cdef inline void leaf_layout(Belief *b, int8_t *S, int m, int8_t *full, int nfull, Heroes *hs, int avoided_last,
                             int8_t *all_, int *nrow, int *avoid_ok, uint64_t *k1, uint64_t *k2) noexcept nogil:
    """``S[:m]`` then ``full`` laid out in ``all_`` as a room start (the row, sorted where it may
    not be avoided, then the dungeon in order), with its leaf key (nothing unseen): what
    :func:`order_value` and :func:`order_known` both look up."""
    cdef int tot = m + nfull
    cdef int none[NCLS]
    memcpy(all_, S, m)
    memcpy(all_ + m, full, nfull)
    nrow[0] = 4 if tot >= 4 else tot
    avoid_ok[0] = avoid_allowed(b, avoided_last) and tot > 4
    memset(none, 0, sizeof(none))
    if not avoid_ok[0]:
        _sort4(all_, nrow[0])
    belief_key(KEY_LEAF, hs, all_, nrow[0], avoid_ok[0], 0, b.horizon, none, all_ + nrow[0], tot - nrow[0], k1, k2)


cdef int order_value(Belief *b, int8_t *S, int m, int8_t *full, int nfull, Heroes *hs, int avoided_last,
                     int *score) except -1:
    """``S[:m]`` then ``full`` dealt as a room start (every card's place known), solved by
    the core (memoised): its exact score."""
    cdef int8_t all_[MAXN]
    cdef int tot = m + nfull, nrow, avoid_ok
    cdef uint64_t k1, k2
    cdef i128 lw, ls
    leaf_layout(b, S, m, full, nfull, hs, avoided_last, all_, &nrow, &avoid_ok, &k1, &k2)
    if memo_recall(&b.memo, k1, k2, &lw, &ls):
        score[0] = <int> ls
        return 0
    b.leaves += 1
    _core_value(b, all_, nrow, 0, 0, 0, all_ + nrow, tot - nrow, hs, 0, avoid_ok, score)
    if b.aborted:
        return 0
    memo_store(&b.memo, k1, k2, 1 if score[0] > 0 else 0, score[0])
    return 0


cdef int order_known(Belief *b, int8_t *S, int m, int8_t *full, int nfull, Heroes *hs, int avoided_last,
                     int *score) noexcept nogil:
    """``order_value``'s score when the memo already holds it (1), else an upper bound on it
    (0): the core's bound at that room start (``_bounds.bound_at``, what ``_core_tests`` starts
    its null-window tests from), no search.  Changes no value and no counter."""
    cdef int8_t all_[MAXN]
    cdef int tot = m + nfull, nrow, avoid_ok, slack
    cdef uint64_t k1, k2
    cdef i128 lw, ls
    cdef Tally t
    cdef Search *c = &b.core
    leaf_layout(b, S, m, full, nfull, hs, avoided_last, all_, &nrow, &avoid_ok, &k1, &k2)
    if memo_recall(&b.memo, k1, k2, &lw, &ls):
        score[0] = <int> ls
        return 1
    # the bound of the room start laid out as _core_value lays it out (the row, then the
    # dungeon); no_win off: nothing is proven about this position yet
    memcpy(c.S[0], all_, tot)
    _tally(c.S[0], tot, &t)
    c.no_win = False
    c.loss_phase = True
    score[0] = bound_at(c, &t, hs, c.S[0], tot, rotations(c, tot, avoid_ok), &slack)
    return 0


cdef int position_value(Belief *b, int8_t *room, int nroom, int taken, int potion_mask, int help_used,
                        Heroes *hs, int avoided_last, i128 *w, i128 *s) except -1:
    """The loaded belief (room part-way or at its start, the unseen ``cnt``, the bottom
    ``bot[0]``) when it is a leaf: its exact (win, score) times ``n!`` (not memoised)."""
    cdef int8_t dun[MAXN]
    cdef int nd, avoid_ok, score = 0
    nd = _unseen_then(b, b.bot[0], b.nbot[0], dun)
    avoid_ok = taken == 0 and nd > 0 and avoid_allowed(b, avoided_last)
    b.leaves += 1
    _core_value(b, room, nroom, taken, potion_mask, help_used, dun, nd, hs, 0, avoid_ok, &score)
    w[0] = (1 if score > 0 else 0) * FACT[b.n]
    s[0] = <i128> score * FACT[b.n]
    return 0
