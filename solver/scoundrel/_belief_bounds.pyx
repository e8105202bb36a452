# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The clairvoyant values of the depth-limited belief search: upper bounds past the horizon.

Owns the counters ``Belief.clair_leaves``, ``sampled``, ``cuts`` and ``bound_errors``; reads the knobs (``samples``,
``enumerate_limit``, ``rng_seed``, ``common_orders``), the unseen cards (``cnt``, ``n``:
``_belief_enum``'s, never changed here: the orders are enumerated on a copy) and the clock
(``deadline``, setting ``aborted`` = 2 when it has passed); each order is solved, memoised,
by ``_belief_leaves.order_value``.

**Depth-limited mode** (``horizon`` h >= 0): the driver is exact for the next h deals; a
chance node deeper than that is valued here by its *clairvoyant* value, the mean over the
orders of all its unseen cards of the exact optimum (every distinct order when at most
``enumerate_limit``, else ``samples`` orders drawn with ``rng_seed``; by default the draw is
seeded by the chance node's known cards too, with ``common_orders`` by the unseen cards
alone, so every chance node with the same unseen cards uses the same orders: common random
numbers, which make the comparison of two actions less noisy than the figures themselves).
That is the clairvoyant value of each belief it would deal, averaged with the deal's
probabilities, so the result is the reference's depth-limited figure (``solver.belief``):
an upper bound on what a player achieves.

**Cut-off** (``Belief.prune``, the driver's ``Cutoff``): a chance node whose caller keeps only
the better of it and a value already known (a face's outcomes, the avoid against the face)
stops solving orders as soon as the exact scores so far plus an upper bound for each order
left (the memo's value, else the core's own bound at that room start, ``bound_at``) cannot
beat that value; ``co.cut`` tells the caller.  The value kept is the same; the counters
``cuts`` and ``bound_errors`` (an order that scored above its bound: never, tested) say what
it did.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.stdint cimport uint64_t, int8_t
from ._types cimport MAXN, Heroes, _now
from ._belief_types cimport NCLS, FACT, REP, i128, _fmix, _div_round, _lex_gt
from ._belief_state cimport Belief
from ._belief_leaves cimport order_value, order_known


cdef int clairvoyant(Belief *b, int8_t *prefix, int npre, int8_t *full, int nfull, Heroes *hs,
                     int avoided_last, Cutoff *co, i128 *w, i128 *s) except -1:
    """The mean over the orders of the unseen cards of the exact optimum of
    ``prefix`` + order + ``full`` dealt as a room start, times ``n!``.

    ``co`` (may be NULL): the value this one is compared with (``co.have``: the caller keeps
    the better of the two, the first on a tie).  Then the orders' exact scores are summed with
    upper bounds standing for the ones not solved yet (the memo's value where it holds one,
    else the core's bound at that room start, ``_belief_leaves.order_known``), and as soon as
    that sum, scaled as the value is, is not above ``co``'s value the rest is not solved:
    ``co.cut`` is set and ``w``/``s`` are not written.  Otherwise the value is exactly the one
    without ``co``.  The orders are solved first where the bound stands furthest above the
    score of the candidate that set ``co``'s value (``co.best``, by order, when kept) on the
    same order: where a cut is likeliest.  A candidate valued in full leaves its scores by
    order in ``co.mine`` (when not NULL).  ``co.probe``: only the first order is solved, its
    score left in ``co.probe_score`` (the caller ranks its candidates by it)."""
    cdef int i, j, c, nd, n = b.n, norders, k, sc, todo
    cdef i128 distinct, mult, sw = 0, ss = 0, vw, vs
    cdef int labels[MAXN]
    cdef int left[NCLS]
    cdef uint64_t st
    cdef int8_t S[MAXN]
    cdef int8_t *orders = NULL
    cdef int *score = NULL
    cdef int *seq = NULL
    cdef int *gap = NULL
    cdef bint sampled, known
    if co != NULL:
        co.cut = False
    if co == NULL or not co.probe:
        b.clair_leaves += 1
    if b.deadline > 0 and _now() >= b.deadline:
        b.aborted = 2
        return 0
    distinct = FACT[n]
    mult = 1
    nd = 0
    for c in range(NCLS):
        distinct //= FACT[b.cnt[c]]
        mult *= FACT[b.cnt[c]]
        for j in range(b.cnt[c]):
            labels[nd] = c
            nd += 1
    sampled = not (distinct <= b.enumerate_limit or distinct <= b.samples)
    norders = b.samples if sampled else <int> distinct
    # the orders (card codes, one of each class), in the order the search always took them
    orders = <int8_t *> malloc(norders * nd + 1)
    score = <int *> malloc(norders * sizeof(int) + 1)
    seq = <int *> malloc(norders * sizeof(int) + 1)
    gap = <int *> malloc(norders * sizeof(int) + 1)
    if orders == NULL or score == NULL or seq == NULL or gap == NULL:
        free(orders); free(score); free(seq); free(gap)
        raise MemoryError()
    if sampled:
        # seeded by the rng seed and the position (the same leaf, the same orders)
        b.sampled = True
        st = order_seed(b, prefix, npre, labels, nd, full, nfull)
        for k in range(norders):
            shuffle_order(&st, labels, nd)
            for i in range(nd):
                orders[k * nd + i] = REP[labels[i]]
    else:
        memcpy(left, b.cnt, sizeof(left))
        k = 0
        _orders(left, nd, S, 0, orders, nd, &k)
    memcpy(S, prefix, npre)
    if co != NULL and co.probe:
        # the first order only: a cheap, common-orders guess at how good this candidate is,
        # to value the likeliest best first (its solve is memoised: the full valuation
        # finds it there)
        memcpy(S + npre, orders, nd)
        order_value(b, S, npre + nd, full, nfull, hs, avoided_last, &co.probe_score)
        free(orders); free(score); free(seq); free(gap)
        return 0
    todo = 0
    for k in range(norders):
        memcpy(S + npre, orders + k * nd, nd)
        if co != NULL and co.have:
            known = order_known(b, S, npre + nd, full, nfull, hs, avoided_last, &score[k])
        else:
            known = False
            score[k] = 0x7fff          # above any score: never read (no cutoff)
        if not known:
            seq[todo] = k
            gap[todo] = score[k] - (co.best[k] if co != NULL and co.have and co.best != NULL else 0)
            todo += 1
        sw += 1 if score[k] > 0 else 0
        ss += score[k]
    if co != NULL and co.have:
        _sort_by_gap(seq, gap, todo)
    for j in range(todo + 1):
        if co != NULL and co.have:
            _scaled(sw, ss, n, mult, sampled, b.samples, &vw, &vs)
            if not _lex_gt(vw, vs, co.w, co.s):
                co.cut = True
                b.cuts += 1
                break
        if j == todo:
            break
        k = seq[j]
        memcpy(S + npre, orders + k * nd, nd)
        order_value(b, S, npre + nd, full, nfull, hs, avoided_last, &sc)
        if b.aborted:
            break
        if co != NULL and co.have and sc > score[k]:
            b.bound_errors += 1        # never (tests/scoundrel/test_lookahead.py); a cut may then be wrong
        sw += (1 if sc > 0 else 0) - (1 if score[k] > 0 else 0)
        ss += sc - score[k]
        score[k] = sc
    if not b.aborted and not (co != NULL and co.cut):
        _scaled(sw, ss, n, mult, sampled, b.samples, w, s)
        if co != NULL and co.mine != NULL:
            memcpy(co.mine, score, norders * sizeof(int))
    free(orders); free(score); free(seq); free(gap)
    return 0


cdef int clair_orders(Belief *b) noexcept nogil:
    """How many orders ``clairvoyant`` takes with the unseen cards ``cnt``."""
    cdef i128 distinct = FACT[b.n]
    cdef int c
    for c in range(NCLS):
        distinct //= FACT[b.cnt[c]]
    if distinct <= b.enumerate_limit or distinct <= b.samples:
        return <int> distinct
    return b.samples


cdef inline void _scaled(i128 sw, i128 ss, int n, i128 mult, bint sampled, int samples,
                         i128 *w, i128 *s) noexcept nogil:
    """Sums over the orders as a value times ``n!``: every distinct order (each stands for
    ``mult`` card orders), or the mean of ``samples`` orders to the nearest integer (the
    figure is an estimate anyway)."""
    if sampled:
        w[0] = _div_round(sw * FACT[n], samples)
        s[0] = _div_round(ss * FACT[n], samples)
    else:
        w[0] = sw * mult
        s[0] = ss * mult


cdef void _sort_by_gap(int *seq, int *gap, int n) noexcept nogil:
    """``seq`` by ``gap``, largest first, stable (insertion sort: a few dozen orders)."""
    cdef int i, j, ts, tg
    for i in range(1, n):
        ts = seq[i]
        tg = gap[i]
        j = i - 1
        while j >= 0 and gap[j] < tg:
            seq[j + 1] = seq[j]
            gap[j + 1] = gap[j]
            j -= 1
        seq[j + 1] = ts
        gap[j + 1] = tg


cdef void _orders(int *left, int nleft, int8_t *path, int at, int8_t *out, int nd, int *k) noexcept nogil:
    """Every distinct class order of the cards ``left`` (by class, ``nleft`` of them) after
    ``path[:at]``, into ``out`` from order ``k`` on, ``nd`` card codes each (the classes in
    increasing order: the order the search always took them in)."""
    cdef int c
    if nleft == 0:
        memcpy(out + k[0] * nd, path, nd)
        k[0] += 1
        return
    for c in range(NCLS):
        if left[c] == 0:
            continue
        path[at] = REP[c]
        left[c] -= 1
        _orders(left, nleft - 1, path, at + 1, out, nd, k)
        left[c] += 1


cdef uint64_t order_seed(Belief *b, int8_t *prefix, int npre, int *labels, int nd, int8_t *full,
                         int nfull) noexcept nogil:
    """The start of the sampled orders' stream at a chance node: the rng seed,
    the known cards above the unseen ones (``prefix``: the carried card), the
    unseen cards (``labels``, by class) and the known cards below (``full``);
    with ``common_orders`` the unseen cards alone."""
    cdef uint64_t st = b.rng_seed * 0x9E3779B97F4A7C15ULL
    cdef int i
    if not b.common_orders:
        for i in range(npre):
            st = _fmix(st ^ <uint64_t> (prefix[i] + 1))
    for i in range(nd):
        st = _fmix(st ^ <uint64_t> (labels[i] + 101))
    if not b.common_orders:
        for i in range(nfull):
            st = _fmix(st ^ <uint64_t> (full[i] + 211))
    return st


cdef void shuffle_order(uint64_t *st, int *labels, int nd) noexcept nogil:
    """The next sampled order: ``labels`` shuffled in place (Fisher-Yates) from
    the stream ``st``."""
    cdef int i, j, c
    for i in range(nd - 1, 0, -1):
        st[0] += 0x9E3779B97F4A7C15ULL
        j = <int> (_fmix(st[0]) % <uint64_t> (i + 1))
        c = labels[i]
        labels[i] = labels[j]
        labels[j] = c
