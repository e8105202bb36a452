# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The clairvoyant values of the depth-limited belief search: upper bounds past the horizon.

Owns the counters ``Belief.clair_leaves`` and ``sampled``; reads the knobs (``samples``,
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
"""
from libc.string cimport memcpy
from libc.stdint cimport uint64_t, int8_t
from ._types cimport MAXN, Heroes, _now
from ._belief_types cimport NCLS, FACT, REP, i128, _fmix, _div_round
from ._belief_state cimport Belief
from ._belief_leaves cimport order_value


cdef int clairvoyant(Belief *b, int8_t *prefix, int npre, int8_t *full, int nfull, Heroes *hs,
                     int avoided_last, i128 *w, i128 *s) except -1:
    """The mean over the orders of the unseen cards of the exact optimum of
    ``prefix`` + order + ``full`` dealt as a room start, times ``n!``."""
    cdef int i, j, c, nd, n = b.n
    cdef i128 distinct, mult, sw = 0, ss = 0
    cdef int labels[MAXN]
    cdef int left[NCLS]
    cdef uint64_t st
    cdef int score = 0, count = 0
    cdef int8_t S[MAXN]
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
    memcpy(S, prefix, npre)
    if distinct <= b.enumerate_limit or distinct <= b.samples:
        memcpy(left, b.cnt, sizeof(left))
        _orders(b, left, n, S, npre, full, nfull, hs, avoided_last, &sw, &ss, &count)
        if b.aborted:
            return 0
        w[0] = sw * mult
        s[0] = ss * mult
        return 0
    # sampled: seeded by the rng seed and the position (the same leaf, the same orders)
    b.sampled = True
    st = order_seed(b, prefix, npre, labels, nd, full, nfull)
    for count in range(b.samples):
        shuffle_order(&st, labels, nd)
        for i in range(nd):
            S[npre + i] = REP[labels[i]]
        order_value(b, S, npre + nd, full, nfull, hs, avoided_last, &score)
        if b.aborted:
            return 0
        sw += 1 if score > 0 else 0
        ss += score
    # n! * sum / samples, to the nearest integer (the figure is an estimate anyway)
    w[0] = _div_round(sw * FACT[n], b.samples)
    s[0] = _div_round(ss * FACT[n], b.samples)
    return 0


cdef int _orders(Belief *b, int *left, int nleft, int8_t *S, int at, int8_t *full, int nfull, Heroes *hs,
                 int avoided_last, i128 *sw, i128 *ss, int *count) except -1:
    """Every distinct class order of the cards ``left`` (by class, ``nleft`` of them) after
    ``S[:at]``: the sums of their wins and scores."""
    cdef int c, score = 0
    if nleft == 0:
        order_value(b, S, at, full, nfull, hs, avoided_last, &score)
        if b.aborted:
            return 0
        sw[0] += 1 if score > 0 else 0
        ss[0] += score
        count[0] += 1
        return 0
    for c in range(NCLS):
        if left[c] == 0:
            continue
        S[at] = REP[c]
        left[c] -= 1
        _orders(b, left, nleft - 1, S, at + 1, full, nfull, hs, avoided_last, sw, ss, count)
        left[c] += 1
        if b.aborted:
            return 0
    return 0


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
