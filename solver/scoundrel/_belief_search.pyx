# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The driver of the belief search: room starts, their faces and the chance nodes between.

Owns the counters ``Belief.beliefs`` and ``chance_nodes`` and the limits of one call
(``stop_at``, ``deadline``, ``aborted``: the leaves and the bounds also stop it, see
``_belief_state.pxd``); asks ``_belief_enum`` what can come next (it keeps the unseen cards
and the rows along the path), ``_belief_memo`` for values already proven,
``_belief_leaves`` for the leaves of perfect information and ``_belief_bounds`` for the
clairvoyant values past the horizon.

Same game and objective as ``solver.belief.BeliefReference``.  A belief is valued where a
room starts: the heroes, the face-up row, the unseen cards, the known bottom (in order,
under the unseen ones), whether the room may be avoided, and (co-op) the leader, always
hero 0 here (the heroes are symmetric).  Its value is the better of

* **face** (``face_value``): the best over the outcomes of taking the room (the leaf's
  terminal score, or a chance node dealing the next room after the carried card);
* **avoid** (when the rules allow it): the row goes under the known bottom, in row
  order, and a chance node deals the next room.

A **chance node** (``chance_value``) sums its draws' values with their weights; a draw that
leaves at most one class unseen, or deals a short final row, is a leaf.  With a
``horizon``, a chance node past it is valued by ``_belief_bounds.clairvoyant`` instead.
Memo keys: the face value on the sorted row (its order does not matter), the full value on
the row in order when avoiding is allowed.

With ``prune`` (the engine's default), past the horizon a face's chance nodes are valued
best-first by their score on the first common order, and each, and the avoid after the face,
is cut off as soon as its bound cannot beat the best so far (``_belief_bounds.clairvoyant``):
only the max is kept, so the values are the same, with fewer leaves solved
(``tests/scoundrel/test_lookahead.py`` compares every action's value with ``prune`` off).
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.stdint cimport uint64_t, int8_t
from ._types cimport MAXN, Heroes, Outcome, _now, _check_signals, _clear_error
from ._belief_types cimport FACT, i128, _lex_gt, _sort4, _swap_heroes
from ._belief_state cimport Belief, avoid_allowed
from ._belief_memo cimport KEY_ROOM, KEY_FACE, memo_recall, memo_store, belief_key
from ._belief_enum cimport Deal, room_outcomes, deal_bottom, begin_deal, next_draw, end_deal
from ._belief_leaves cimport leaf_value
from ._belief_bounds cimport Cutoff, clairvoyant, clair_orders


cdef void begin_call(Belief *b, long long max_beliefs, double timeout) noexcept nogil:
    """The limits of one call from Python: ``max_beliefs`` more beliefs, ``timeout`` seconds
    (0: none)."""
    b.aborted = 0
    b.stop_at = b.beliefs + max_beliefs if max_beliefs > 0 else 0
    b.deadline = _now() + timeout if timeout > 0 else 0.0


cdef int tick(Belief *b) except -1:
    """Count a belief expanded; check the budget (the clock every 64)."""
    b.beliefs += 1
    if b.stop_at > 0 and b.beliefs > b.stop_at:
        b.aborted = 1
    elif (b.beliefs & 63) == 0:
        if b.deadline > 0 and _now() >= b.deadline:
            b.aborted = 2
        elif (b.beliefs & 4095) == 0 and _check_signals() != 0:
            _clear_error()
            b.aborted = 6
    return b.aborted


cdef int room_value(Belief *b, int depth, Heroes *hs, int avoided_last, int deals, i128 *w, i128 *s) except -1:
    """The value (times ``n!``) of the room start ``rows[depth]`` (4 cards), the
    unseen ``cnt``, the bottom ``bot[depth]``, the leader hero 0."""
    cdef int8_t *row = b.rows[depth]
    cdef int avoid_ok = avoid_allowed(b, avoided_last)
    cdef uint64_t k1 = 0, k2 = 0
    cdef i128 fw, fs, aw, aws
    cdef int8_t srt[4]
    cdef Cutoff co
    if b.n == 0 or b.ncls <= 1:
        return leaf_value(b, row, 4, b.bot[depth], b.nbot[depth], hs, avoid_ok, w, s)
    if avoid_ok:
        belief_key(KEY_ROOM, hs, row, 4, 1, deals, b.horizon, b.cnt, b.bot[depth], b.nbot[depth], &k1, &k2)
        if memo_recall(&b.memo, k1, k2, w, s):
            return 0
    # the face value: the row's order does not matter, only its cards
    memcpy(srt, row, 4)
    _sort4(srt, 4)
    _face_memo(b, depth, srt, hs, deals, &fw, &fs)
    if b.aborted:
        return 0
    if not avoid_ok:
        w[0] = fw
        s[0] = fs
        return 0
    if tick(b):
        return 0
    # avoid: the row goes under the known bottom in row order, 4 cards are dealt; it is
    # kept only if better than the face, so it may be cut off below it (``prune``)
    co.have = True
    co.w = fw
    co.s = fs
    co.best = NULL
    co.mine = NULL
    co.cut = False
    co.probe = False
    chance_value(b, depth, row, 0, row, 4, hs, 0, 1, deals, 1, &co if _pruning(b, deals) else NULL, &aw, &aws)
    if b.aborted:
        return 0
    if not co.cut and _lex_gt(aw, aws, fw, fs):
        fw = aw
        fs = aws
    memo_store(&b.memo, k1, k2, fw, fs)
    w[0] = fw
    s[0] = fs
    return 0


cdef int _face_memo(Belief *b, int depth, int8_t *srt, Heroes *hs, int deals, i128 *w, i128 *s) except -1:
    """The face value of a room start with the sorted row ``srt``, memoised."""
    cdef uint64_t k1, k2
    belief_key(KEY_FACE, hs, srt, 4, 0, deals, b.horizon, b.cnt, b.bot[depth], b.nbot[depth], &k1, &k2)
    if memo_recall(&b.memo, k1, k2, w, s):
        return 0
    if tick(b):
        return 0
    face_value(b, depth, srt, 4, 3, 0, 0, hs, deals, w, s)
    if b.aborted:
        return 0
    memo_store(&b.memo, k1, k2, w[0], s[0])
    return 0


cdef inline bint _pruning(Belief *b, int deals) noexcept nogil:
    """Are the chance nodes after a room at ``deals`` valued clairvoyantly (past the horizon),
    with candidates cut off by their bounds (``prune``)?"""
    return b.prune and b.horizon >= 0 and deals + 1 > b.horizon


cdef int face_value(Belief *b, int depth, int8_t *room, int nroom, int to_take, int potion_mask, int help_used,
                    Heroes *hs, int deals, i128 *w, i128 *s) except -1:
    """Take ``to_take`` cards of ``room`` (not the final room): the best over the
    outcomes (Pareto fronts per carried card), each a chance node.

    With ``prune`` past the horizon, the terminal outcomes come first (their values are
    free), then the chance nodes, the one that scores best on the first order first (each
    one's first order solved up front: common orders make that a fair guess, and the solve
    is not lost, it is memoised), each cut off as soon as its bound cannot beat the best so
    far (``_belief_bounds.clairvoyant``): the best value is the same, fewer orders are
    solved."""
    cdef int8_t carried[1]
    cdef int i, count, pass_, npass
    cdef Outcome *o
    cdef i128 bw = 0, bs = 0, cw, cs
    cdef bint have = False, prune = _pruning(b, deals)
    cdef Cutoff co
    cdef int *bestbuf = NULL
    cdef int *minebuf = NULL
    cdef int *tmp
    cdef int *rank = NULL
    cdef int *guess = NULL
    cdef int nrank = 0, j, k, g, r
    count = room_outcomes(b, depth, room, nroom, to_take, potion_mask, help_used, hs)
    npass = 1
    if prune:
        npass = 2
        bestbuf = <int *> malloc(clair_orders(b) * sizeof(int) + 1)
        minebuf = <int *> malloc(clair_orders(b) * sizeof(int) + 1)
        rank = <int *> malloc(count * sizeof(int) + 1)
        guess = <int *> malloc(count * sizeof(int) + 1)
        if bestbuf == NULL or minebuf == NULL or rank == NULL or guess == NULL:
            free(bestbuf)
            free(minebuf)
            free(rank)
            free(guess)
            raise MemoryError()
        co.best = NULL
        co.mine = minebuf
        # the chance nodes by their score on the first order, best first (stable)
        co.probe = True
        co.have = False
        for i in range(count):
            o = &b.en.out[depth][i]
            if o.terminal:
                continue
            carried[0] = o.left
            chance_value(b, depth, carried, 1, b.bot[depth], b.nbot[depth], &o.hs,
                         1 if b.coop else 0, 0, deals, 0, &co, &cw, &cs)
            if b.aborted:
                free(bestbuf)
                free(minebuf)
                free(rank)
                free(guess)
                return 0
            g = co.probe_score
            j = nrank
            while j > 0 and guess[j - 1] < g:
                rank[j] = rank[j - 1]
                guess[j] = guess[j - 1]
                j -= 1
            rank[j] = i
            guess[j] = g
            nrank += 1
        co.probe = False
    for pass_ in range(npass):
        for r in range(nrank if pass_ == 1 else count):
            i = rank[r] if pass_ == 1 else r
            o = &b.en.out[depth][i]
            if prune and pass_ == 0 and not o.terminal:
                continue
            if o.terminal:
                cw = FACT[b.n] if o.score > 0 else 0
                cs = <i128> o.score * FACT[b.n]
            else:
                carried[0] = o.left
                co.have = have
                co.w = bw
                co.s = bs
                co.cut = False
                chance_value(b, depth, carried, 1, b.bot[depth], b.nbot[depth], &o.hs,
                             1 if b.coop else 0, 0, deals, 0, &co if prune else NULL, &cw, &cs)
                if b.aborted:
                    free(bestbuf)
                    free(minebuf)
                    free(rank)
                    free(guess)
                    return 0
                if co.cut:
                    continue
            if not have or _lex_gt(cw, cs, bw, bs):
                bw = cw
                bs = cs
                have = True
                if prune:
                    if o.terminal:
                        co.best = NULL
                    else:           # its scores by order steer the next candidates' solves
                        tmp = bestbuf
                        bestbuf = minebuf
                        minebuf = tmp
                        co.best = bestbuf
                        co.mine = minebuf
    free(bestbuf)
    free(minebuf)
    free(rank)
    free(guess)
    w[0] = bw
    s[0] = bs
    return 0


cdef int chance_value(Belief *b, int depth, int8_t *prefix, int npre, int8_t *B, int nB, Heroes *hs0,
                      int leader, int avoided_last, int deals, int append_row, Cutoff *co,
                      i128 *w, i128 *s) except -1:
    """Deal the next room after the room at ``depth``: ``prefix`` (the carried card,
    or nothing after an avoid) then the unseen cards, then the known bottom ``B``
    (after an avoid: the old bottom then ``prefix``'s row, ``append_row``).  The
    value times ``n!``; ``co`` (may be NULL): a value to beat, for a clairvoyant value
    past the horizon (``_belief_bounds.clairvoyant``: ``co.cut`` when cut off)."""
    cdef Heroes hs = hs0[0]
    cdef int8_t full[MAXN]
    cdef int nfull
    cdef Deal d
    cdef i128 cw = 0, cs = 0
    b.chance_nodes += 1
    if b.coop and leader == 1:
        _swap_heroes(&hs)
    nfull = deal_bottom(b, depth, prefix, B, nB, append_row, full)
    if b.horizon >= 0 and deals + 1 > b.horizon:
        return clairvoyant(b, prefix, npre, full, nfull, &hs, avoided_last, co, w, s)
    if co != NULL:
        co.cut = False
    begin_deal(b, &d, depth, prefix, npre, full, nfull, avoid_allowed(b, avoided_last))
    w[0] = 0
    s[0] = 0
    while next_draw(b, &d):
        if d.nrow < 4 or b.n == 0 or b.ncls <= 1:
            leaf_value(b, b.rows[depth + 1], d.nrow, b.bot[depth + 1], b.nbot[depth + 1], &hs,
                       avoid_allowed(b, avoided_last) and (b.n + b.nbot[depth + 1] > 0), &cw, &cs)
        else:
            room_value(b, depth + 1, &hs, avoided_last, deals + 1, &cw, &cs)
        if b.aborted:
            end_deal(b, &d)
            return 0
        w[0] += d.weight * cw
        s[0] += d.weight * cs
    return 0
