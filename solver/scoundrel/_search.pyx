# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The search driver: depth-first branch and bound over room starts.

Owns the path (``Search.S``, ``path``), the incumbent (``inc*``), the tests
(``tests``, ``beta``, ``loss_phase``), the counters and the limits (``nodes``,
``max_nodes``, ``deadline``, ``aborted``) and the progress reports
(``report*``); asks ``_rooms`` for the outcomes of a room start, ``_bounds``
for bounds and ``_table`` for stored ones.  Also the threads of one search
(``smp_run``: every thread asks the same test over one shared table, the first
answer counts; docs/solver.md, "Threads for one solve") and the line walked by a
fixed rule with exact tests (``walk``), which does not depend on the timing.

The search maximises the final score.  ``node(alpha)`` returns the exact
value when it exceeds ``alpha`` and otherwise an upper bound <= alpha
(fail-soft).  ``run`` asks it null-window questions from the top (the tests)
until the value is proven.  Every score the search returns comes from a
terminal it visited; the best such terminal and its path are kept as the
*incumbent*, which is the optimal line when the search finishes and the
best line found when a limit stops it.
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t
from ._types cimport (MAXN, MAXDEPTH, NO_BETA, NEG, UNKNOWN, MAXHP, Heroes, Outcome, Tally, Step,
                      _now, _canon, _tally, _child_cards, _check_signals, _clear_error)
from ._table cimport BUCKET, Entry, tt_init, tt_free, tt_grow, tt_key, tt_probe, tt_probe_as, tt_store
from ._state cimport Search, MAXHELPERS

# the threads of one search: POSIX threads that never touch Python (the main
# thread keeps the Ctrl-C checks and the progress reports), and the few shared
# words they use, through the GCC/Clang __atomic builtins
cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t *thread, void *attr, void *(*start)(void *) noexcept nogil, void *arg)
    int pthread_join(pthread_t thread, void **retval)

cdef extern from *:
    """
    static inline long long scoundrel_add(long long *p, long long d) {
        return __atomic_add_fetch(p, d, __ATOMIC_RELAXED);
    }
    static inline long long scoundrel_load_ll(long long *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline int scoundrel_load(int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void scoundrel_store(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int scoundrel_claim(int *p, int v) {
        int zero = 0;
        return __atomic_compare_exchange_n(p, &zero, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    """
    long long _atomic_add "scoundrel_add" (long long *p, long long d) noexcept nogil
    long long _atomic_load_ll "scoundrel_load_ll" (long long *p) noexcept nogil
    int _atomic_load "scoundrel_load" (int *p) noexcept nogil
    void _atomic_store "scoundrel_store" (int *p, int v) noexcept nogil
    int _atomic_claim "scoundrel_claim" (int *p, int v) noexcept nogil
from ._bounds cimport bound, bound_at, bound_plus, wear_extra
from ._rooms cimport (rooms_init, rooms_free, child_memo_init, enum_takes, compact, rate_outcomes, rotations,
                      begin_room, enumerate_room)


cdef long long SMP_FROM = 50000


cdef int search_init(Search *s, int coop, int lenient, int flee, double tt_mb) except -1:
    """Set the rules and the tuning knobs, allocate the outcome lists and the table."""
    memset(s, 0, sizeof(Search))
    s.coop = coop
    s.lenient = lenient
    s.flee = flee
    s.nheroes = 2 if coop else 1
    rooms_init(s)
    tt_init(&s.tt, tt_mb)
    s.nodes = 0
    s.loss_phase = False
    s.no_win = False
    s.beta = NO_BETA
    s.tests = 0
    s.step = 4 if coop else 3    # measured, see run()
    # measured (docs/solver.md): 9 in co-op, 18 in solo hard, where most
    # deals are lost; solo classic and easy hardly notice
    s.zero_at = 18 if (flee == 2 and not coop) else 9
    # a lost co-op deal can usually be played to its last monster (one hero
    # spends all their health), so its best loss is mostly 0, the bound:
    # one null-window test finds that line far faster than the full window
    # (measured: co-op 52 deal 52, 16.1 M -> 8.5 M nodes).  Solo losses are
    # spread out and their full window is cheap (solo hard 1-400: +20 %).
    s.loss_probe = 1 if coop else 0
    # deep_extra looks this many cards ahead (0: off).  Co-op only: it cuts
    # 18 % of the nodes and 11 % of the time on co-op 52 deals 1-100; in solo
    # lenient it saves 8-12 % of the nodes but costs 5-23 % more time
    s.horizon = MAXN if coop else 0
    # each probe is a likely cache miss: in co-op, probing only the next less
    # worn weapon of each hero keeps nearly all the cuts (+2 % nodes) for
    # about 10 % less time (co-op 52, three sets of 13-16 deals side by side:
    # -14 %, -1.5 %, -16 %); solo is neutral either way and probes them all
    s.wear_probes = 1 if coop else MAXN
    # part-way through a room, bound with the rooms ahead too (_rooms.ahead_bound),
    # up to the last take: the same nodes within 0.04 % and 8 % fewer instructions
    # on co-op 52 deals 1 and 7 (callgrind; 3 % stopping after the second take);
    # solo not measured, off.  Off for daily methods v1/v2 (core.FROZEN_KNOBS)
    s.ahead_prune = 2 if coop else 0
    # the wear of the strongest weapon along the rooms ahead (_bounds.wear_extra), for
    # the children that may beat alpha, remembered by cards and weapons (5): co-op 52
    # deals 1-30, 69.9 M -> 26.3 M nodes, 190 s -> 142 s; co-op only (it needs the
    # co-op flee rule).  Off for daily methods v1/v2 (core.FROZEN_KNOBS)
    s.wear_look = 5 if coop else 0
    s.wear_gap = 1000
    # strict weapons: also bound by the lenient bounds of the lenient view of the heroes
    # (_bounds.strict_extra; a strict line is a lenient line from there), in the loss
    # phase only (5): co-op 52 strict deals 1-60 (benchmarks/README.md, "Strict weapons
    # bound through the lenient view"), everywhere (1): -13.5 % nodes, -3 % time (deals 3
    # and 52, lost below 0: -72 % and -22 % nodes; the others -0-5 % nodes for 15-30 %
    # more time); in the loss phase only (-10.7 % nodes, -16 % time) the gains stay and
    # the others search as without.  Solo: no gain measured (solo hard 1-200: -0.7 % nodes), off.  Off for
    # daily methods v1/v2 (core.FROZEN_KNOBS)
    s.strict_relax = 5 if (coop and not lenient) else 0
    # once the root is proven lost (its value <= 0), so is every position the search
    # reaches (one player: no position reachable from the root can score more than
    # it), so every bound is the loss bound (1; remembered, and none of the win bound's
    # extras computed), tightened by the order of the cards (+ 2, _bounds.loss_refine),
    # the children ordered with their room's forced extra too (+ 4).  Measured side by
    # side (benchmarks/README.md, "The loss phase"): co-op 52 strict 1-120, the deals lost
    # below 0 CPU -35 %, those lost at 0 -22 %, the won ones node for node; 12 lost co-op 52
    # lenient deals x0.59.  Solo: off (solo hard 1-400, where most deals
    # are lost: the same nodes within 0.1 %, 1.35 s -> 1.55-1.89 s).  Off for daily methods
    # v1/v2 (core.FROZEN_KNOBS)
    s.loss_all = 7 if coop else 0
    # with helper threads: a test runs on them once the search has spent this many
    # nodes (starting threads and sizing the table for them costs more than a small
    # search: nearly every solo deal is solved before).  Co-op: from the first test, as
    # its first test may be most of the search (co-op 52 deal 3: one test of 1.04 M
    # nodes, 5.3 s -> 3.5 s; deals of 1-2 s, the median, gain most: 40 deals, 207 s ->
    # 206 s in all but 85: 1.28 -> 0.68 s, 22: 1.62 -> 0.99 s; the smallest lose
    # hundredths at most)
    s.smp_from = 0 if coop else SMP_FROM
    return 0


cdef void search_free(Search *s) noexcept nogil:
    rooms_free(s)
    tt_free(&s.tt)


cdef list steps(Search *s):
    """The incumbent's line: (avoids, takes) per room start."""
    line = []
    for i in range(s.inc_len):
        line.append((s.inc[i].rot, [s.inc[i].takes[j] for j in range(s.inc[i].ntakes)]))
    return line


cdef inline uint32_t _salted(int seq, uint32_t salt) noexcept nogil:
    # a bijection of seq for each salt: xor, then an odd multiplier (mod 2^32)
    return ((<uint32_t> seq) ^ salt) * <uint32_t> 2654435761u


cdef int _cmp_order(const Outcome *a, const Outcome *b, uint32_t salt) noexcept nogil:
    """< 0 when ``a`` is searched before ``b``: terminals first, then by bound
    (expand relies on that: once a child's bound cannot beat alpha, no later one
    can), then by ``order``'s finer key and the enumeration order.  A non-zero
    ``salt`` (Searcher.order_salt, for the tests that the outputs do not depend
    on the search) keeps the first two and orders the rest by a salted ``seq``."""
    cdef uint32_t ha, hb
    if salt == 0:
        if a.order != b.order:
            return -1 if a.order > b.order else 1
        return a.seq - b.seq
    if a.terminal != b.terminal:
        return -1 if a.terminal else 1
    if not a.terminal and a.ub != b.ub:
        return -1 if a.ub > b.ub else 1
    ha = _salted(a.seq, salt)
    hb = _salted(b.seq, salt)
    return -1 if ha < hb else (1 if ha > hb else 0)


cdef void record_incumbent(Search *s, int depth, Outcome *o) noexcept nogil:
    cdef int i, j
    s.inc_score = o.score
    s.inc_found = 1
    for i in range(depth):
        s.inc[i] = s.path[i]
    s.inc[depth].rot = o.rot
    s.inc[depth].ntakes = o.ntakes
    for j in range(o.ntakes):
        s.inc[depth].takes[j] = o.takes[j]
    s.inc_len = depth + 1


cdef int check_limits(Search *s) noexcept nogil:
    cdef long long total
    if s.stop != NULL:
        # a test on the threads: the first thread to answer stops the others, and
        # max_nodes is the total over them (counted every 1024 nodes of each)
        total = _atomic_add(s.shared_nodes, s.nodes - s.flushed)
        s.flushed = s.nodes
        if _atomic_load(s.stop):
            s.aborted = 8
            return s.aborted
        if s.smp_max > 0 and total >= s.smp_max:
            s.aborted = 1
            return s.aborted
    if s.max_nodes > 0 and s.nodes >= s.max_nodes:
        s.aborted = 1
    elif s.deadline > 0 and _now() >= s.deadline:
        s.aborted = 2
    elif s.helper:
        return s.aborted       # Ctrl-C and the reports are the main thread's
    elif (s.nodes & 16383) == 0:
        # let Ctrl-C stop a long search (run() then raises KeyboardInterrupt)
        with gil:
            if _check_signals() != 0:
                _clear_error()
                s.aborted = 6
    if s.report != NULL and s.aborted == 0 and _now() >= s.report_next:
        report(s)
    return s.aborted


cdef int report(Search *s) noexcept nogil:
    """Call the progress callable with (nodes, tests, lo, hi, incumbent): the
    bounds proven so far (a line found is a lower bound; ``None``: none yet).
    A true answer stops the search like Ctrl-C (aborted 7): _core's wrapper
    answers so when the callable raised, and raises it again after run()."""
    cdef int lo = s.report_lo
    cdef long long nodes = s.nodes
    if s.shared_nodes != NULL:
        nodes = _atomic_load_ll(s.shared_nodes)      # every thread's (flushed by now)
    if s.inc_found and s.inc_score > lo:
        lo = s.inc_score
    with gil:
        try:
            if (<object> s.report)(nodes, s.tests, lo if lo > NEG else None,
                                   s.report_hi if s.report_hi > NEG else None,
                                   s.inc_score if s.inc_found else None):
                s.aborted = 7
        except BaseException:
            s.aborted = 7
        s.report_next = _now() + s.report_every
    return s.aborted


cdef inline Outcome *_next_child(Outcome *buf, int i, int count, uint32_t salt) noexcept nogil:
    """Bring the first of ``buf[i:count]`` in the order of _cmp_order to ``buf[i]`` and
    return it: selection, not a sort, since most children are cut by their bound and a
    full sort would be wasted work."""
    cdef int j, sel = i
    cdef Outcome tmp
    for j in range(i + 1, count):
        if _cmp_order(&buf[j], &buf[sel], salt) < 0:
            sel = j
    if sel != i:
        tmp = buf[i]
        buf[i] = buf[sel]
        buf[sel] = tmp
    return &buf[i]


cdef int expand(Search *s, int depth, int n, int count, int alpha, int ub, int leader,
                long long *work) noexcept nogil:
    """Search the outcomes ``out[depth][:count]`` of the room start in ``S[depth]``."""
    cdef Outcome *buf = s.out[depth]
    cdef Outcome *o
    cdef int best = NEG, i, v, a, m
    cdef long long before
    for i in range(count):
        if best >= ub or best >= s.beta:
            break
        o = _next_child(buf, i, count, s.order_salt)
        if o.terminal:
            if o.score > best:
                best = o.score
            if o.score > s.inc_score or not s.inc_found:
                record_incumbent(s, depth, o)
            continue
        a = alpha if alpha > best else best
        if o.ub <= a:
            # sorted by bound: no later child can beat alpha either
            if o.ub > best:
                best = o.ub
            break
        m = step_into(s, depth, n, o)
        before = s.nodes
        s.pass_ahead = o.ahead if o.ahead[0] >= 0 else NULL
        v = node(s, depth + 1, m, &o.hs, (1 - leader) if s.coop else 0, 1 if s.flee != 2 else 0, a, o.ub)
        work[0] += s.nodes - before
        if s.aborted:
            return NEG
        if v > best:
            best = v
    return best


cdef int step_into(Search *s, int depth, int n, Outcome *o) noexcept nogil:
    """Record ``o`` as the path's step at ``depth`` and lay out its child room
    start in ``S[depth + 1]``: the carried card, then ``S`` rotated by the
    avoids, minus its room.  Returns the child's number of cards."""
    cdef int j
    s.path[depth].rot = o.rot
    s.path[depth].ntakes = o.ntakes
    for j in range(o.ntakes):
        s.path[depth].takes[j] = o.takes[j]
    return _child_cards(s.S[depth], n, o, s.S[depth + 1])


cdef void rollout(Search *s, int depth, int n, Heroes *hs, int leader, int avoid_ok) noexcept nogil:
    """One greedy line, before the proof: in every room take the way out that
    keeps the most health in hand (after the unavoidable damage).  Its only
    use is a sensible best-found line should a limit stop the search early."""
    cdef Tally t
    cdef int i, j, count, m, pick = -1, best_key = -1000000000, key
    cdef Outcome *o
    if depth + 1 >= MAXDEPTH:
        return
    _tally(s.S[depth], n, &t)
    count = enumerate_room(s, depth, n, hs, leader, rotations(s, n, avoid_ok), &t, NEG)
    if s.aborted:
        return
    for i in range(count):
        o = &s.e_buf[i]
        if o.terminal:
            key = 100000 + o.score if o.score > 0 else -100000 + o.score
        else:
            key = (o.order & 1023) * 64     # health left after the unavoidable damage
            for j in range(s.nheroes):
                key += o.hs.hp[j]
        if key > best_key:
            best_key = key
            pick = i
    if pick < 0:
        return
    o = &s.e_buf[pick]
    if o.terminal:
        if not s.inc_found or o.score > s.inc_score:
            record_incumbent(s, depth, o)
        return
    m = step_into(s, depth, n, o)
    rollout(s, depth + 1, m, &o.hs, (1 - leader) if s.coop else 0, 1 if s.flee != 2 else 0)


cdef int node(Search *s, int depth, int n, Heroes *hs, int leader, int avoid_ok, int alpha, int known_ub) noexcept nogil:
    """The value of the room start in ``S[depth]`` if above ``alpha``, else an upper
    bound <= alpha.  ``known_ub``: its bound as its parent rated it, or UNKNOWN."""
    cdef int8_t *S = s.S[depth]
    cdef int i, j, ub, ub2, best, count, h0, slack
    cdef Tally t
    cdef Heroes hc
    cdef int pruned, nprobe
    cdef uint32_t present
    cdef uint64_t k1 = 0, k2 = 0, wk
    cdef int elo, ehi
    cdef long long work = 1
    cdef int8_t *ahead = s.pass_ahead
    s.pass_ahead = NULL
    if enter_node(s, depth):
        return NEG
    _tally(S, n, &t)
    hc = hs[0]
    present = t.mmask
    _canon(&hc, present, s.nheroes, s.lenient)
    hs = &hc
    # (hero 1's health is not in the key: the entry holds bounds for every health)
    tt_key(S, n, hs, s.coop, leader, avoid_ok, &k1, &k2)
    if known_ub != UNKNOWN:
        ub = known_ub     # the parent computed it (rate_outcomes), and it is > alpha
    else:
        ub = bound_at(s, &t, hs, S, n, rotations(s, n, avoid_ok), &slack)
        if ub <= alpha:
            return ub
    h0 = hs.hp[0] - 1
    if tt_probe(&s.tt, k1, k2, h0, &elo, &ehi):
        s.tt.hits += 1
        if elo == ehi or elo >= s.beta:
            return elo
        if ehi <= alpha:
            return ehi
        if ehi < ub:
            ub = ehi
    # an upper bound stored for a less worn weapon holds here too
    # (weapons are canonical, see _canon: only last kills of the monsters left
    # occur); the nearest ``wear_probes`` of them are probed
    for j in range(s.nheroes):
        if hs.w[j] == 0:
            continue
        nprobe = 0
        for i in range(hs.k[j] + 1, 17):
            if not (present & (1u << (i if s.lenient else i - 1))):
                continue
            nprobe += 1
            if nprobe > s.wear_probes:
                break
            if tt_probe_as(&s.tt, k1, k2, j, 2, hs.k[j], i, h0, &elo, &ehi) and ehi < ub:
                ub = ehi
                if ub <= alpha:
                    s.tt.hits += 1
                    return ub
    if s.coop:
        # the value never decreases with hero 2's health either: an upper
        # bound stored for a little more health holds here too (measured:
        # probing up to 3 points above finds nearly every such cut)
        for i in range(hs.hp[1] + 1, hs.hp[1] + 4 if hs.hp[1] + 4 <= MAXHP + 1 else MAXHP + 1):
            if tt_probe_as(&s.tt, k1, k2, 1, 0, hs.hp[1], i, h0, &elo, &ehi) and ehi < ub:
                ub = ehi
                if ub <= alpha:
                    s.tt.hits += 1
                    return ub
    if (s.wear_look & 3) and not (s.wear_look & 4) and known_ub != UNKNOWN and s.coop \
            and s.lenient and ub - alpha <= s.wear_gap:
        # (at the root, bound_at looked already; with wear_look + 4, rate_outcomes did)
        # the wear of the strongest weapon,
        # when the bound is within wear_gap of alpha (it seldom adds more),
        # computed only here, where neither the parent's bound nor the table cut the
        # room start, right before its room is enumerated; a cut is stored
        wk = (k1 ^ (k2 * <uint64_t> 0x9E3779B97F4A7C15ULL)) | 1
        j = <int> (wk >> 52)
        if s.wc_key[j] == wk:
            i = s.wc_val[j]
        else:
            i = wear_extra(s, S, n, rotations(s, n, avoid_ok), hs, &t)
            s.wc_key[j] = wk
            s.wc_val[j] = <int16_t> i
        ub2 = bound_plus(s, &t, hs, i, &slack)
        if ub2 < ub:
            ub = ub2
            if ub <= alpha:
                s.wear_cuts += 1
                tt_store(&s.tt, k1, k2, hs.hp[0], NEG, ub, 1)
                return ub
    s.pend_ahead = ahead
    count = enumerate_room(s, depth, n, hs, leader, rotations(s, n, avoid_ok), &t, alpha)
    pruned = s.e_pruned
    best = expand(s, depth, n, count, alpha, ub, leader, &work)
    if s.aborted:
        return NEG
    if pruned > best:
        best = pruned      # (only when best <= alpha: pruned outcomes are <= alpha)
    if work > <long long> 4000000000:
        work = <long long> 4000000000
    if best <= alpha:
        tt_store(&s.tt, k1, k2, hs.hp[0], NEG, best, <uint32_t> work)
    elif best >= s.beta:
        # cut short by decide(): only a lower bound
        tt_store(&s.tt, k1, k2, hs.hp[0], best, ub, <uint32_t> work)
    else:
        tt_store(&s.tt, k1, k2, hs.hp[0], best, best, <uint32_t> work)
    return best


cdef int begin_search(Search *s, list heroes, Heroes *hs, long long max_nodes, double timeout) except -1:
    """The start of a search (``run``, the rooms search): the heroes given as
    Python (health, weapon, last kill) tuples into ``hs``, the limits set, none hit."""
    cdef int i
    memset(hs, 0, sizeof(Heroes))
    for i in range(len(heroes)):
        hs.hp[i] = heroes[i][0]
        hs.w[i] = heroes[i][1]
        hs.k[i] = heroes[i][2]
    s.max_nodes = max_nodes
    s.deadline = _now() + timeout if timeout > 0 else 0.0
    s.aborted = 0
    s.no_win = False    # (run sets it per test, once the root is proven lost)
    return 0


cdef int midroom_outcomes(Search *s, list room, list dungeon, int taken, Heroes *hs, int leader,
                          int potion_mask, int help_used, Tally *t) except -1:
    """A root part-way through a room (``t``: its cards, laid out in ``S[0]``):
    every way to end the room into ``out[0]``, merged and rated, then the
    dungeon laid out from index 4 (a child is the carried card + ``S[4:]``).
    Returns how many outcomes."""
    cdef int i, count
    cdef uint8_t takes[4]
    cdef int8_t rm[4]
    begin_room(s, 0, leader, len(dungeon) == 0, t)
    for i in range(len(room)):
        rm[i] = room[i]
    enum_takes(s, rm, len(room), 0, len(room) if len(dungeon) == 0 else 3 - taken, hs[0],
               potion_mask, help_used, t.mtot, takes, 0, -1, 0, 0, 0, 0)
    count = compact(s, s.e_buf, s.e_count)
    rate_outcomes(s, s.e_buf, count, t, NULL, 0)
    for i in range(len(dungeon)):
        s.S[0][4 + i] = dungeon[i]
    return count


cdef dict run(Search *s, list test_log, list room, list dungeon, int taken, list heroes, int leader,
              int potion_mask, int help_used, int avoid_ok, long long max_nodes, double timeout,
              int single, int single_alpha):
    """Search from a position given as Python ints (card codes, hero tuples); the
    tests are appended to ``test_log`` as (alpha, result, nodes so far)."""
    cdef Heroes hs
    cdef int i, n, best, count = 0, ub, alpha, v, slack, lo, hi
    cdef bint high, loss_probed = False
    cdef long long tests0
    cdef Tally t
    cdef long long work = 0
    cdef bint midroom
    begin_search(s, heroes, &hs, max_nodes, timeout)
    s.report_next = _now() + s.report_every
    s.smp_tests = 0
    s.inc_found = 0
    s.inc_score = NEG
    s.inc_len = 0
    n = len(room) + len(dungeon)
    if n > MAXN:
        raise ValueError("too many cards")
    for i in range(len(room)):
        s.S[0][i] = room[i]
    for i in range(len(dungeon)):
        s.S[0][len(room) + i] = dungeon[i]
    midroom = not (taken == 0 and (len(room) == 4 or len(dungeon) == 0))
    _tally(s.S[0], n, &t)
    ub = bound(s, &t, &hs, &slack)
    if midroom:
        # part-way through a room: enumerate how it can end once, then search
        # the next room starts from them (expand builds a child as the carried
        # card + S[4:], so the dungeon is laid out from index 4).
        count = midroom_outcomes(s, room, dungeon, taken, &hs, leader, potion_mask, help_used, &t)
        n = len(dungeon) + 4
    # Null-window tests from the top ("is there a line scoring > alpha?"):
    # a high alpha lets the upper bounds cut most of the tree, and most
    # deals score at or near the bound.  A failed test returns an upper
    # bound, which sets the next alpha; once no win is possible, one full
    # search finds the best loss.
    if not midroom:
        rollout(s, 0, n, &hs, leader, avoid_ok)
    alpha = ub - 1
    best = NEG
    s.beta = single_alpha + 1 if single else NO_BETA
    if single:
        # one question only: "is there a line scoring > single_alpha?"
        alpha = single_alpha
        if s.inc_found and s.inc_score > alpha:
            return {"value": None, "bound": s.inc_score, "high": True,
                    "incumbent": s.inc_score, "steps": steps(s), "aborted": 0}
    tests0 = s.tests
    hi = ub          # proven upper bound
    lo = NEG         # proven lower bound: the best line found, or a test's
    high = False
    while True:
        if s.inc_found and s.inc_score > lo:
            lo = s.inc_score
        if not single:
            if lo >= hi:
                best = hi
                break
            # A null window below the proven upper bound ``hi``: a line
            # reaching alpha + 1 ends the test.  Each test that fails costs
            # more than the one before, so the tests step down by ``step``
            # (measured: 3 saves 25-50 % of the nodes of stepping by one, in
            # co-op and in solo hard; in co-op 4, with the rules below, 8 % fewer
            # than 3 on deals 1-50; solo keeps 3: with 4 it takes 1.6 % fewer
            # nodes but 16 % more time), except the first test, right below the
            # root's bound (where most solo deals score).  After a test that
            # found a line, the next asks whether that line can be beaten
            # (alpha = lo): the line found is often the best, and then that
            # one failing test ends the search (measured against testing
            # hi - 1 first: 9-10 % fewer co-op nodes on seeds 1-24, 3 % fewer
            # in solo classic 1-1000).  Once the tests reach ``zero_at`` with
            # no win found, the next asks whether there is any win at all
            # (alpha 0): most deals whose value is that low are lost, and
            # every test above 0 was then wasted (measured: 25 % fewer nodes
            # on co-op 52 deals with values <= 18, 46 % in solo hard).  Once
            # no win is left, co-op asks first whether the best loss reaches
            # the bound (``loss_probe``); then one search with the full window
            # (alpha NEG) finds the best loss.
            if hi > 0:
                if s.tests == tests0:
                    alpha = hi - 1
                elif high:
                    # (a line found by the test at 0 below may be far below
                    # the value: then step down from hi again)
                    alpha = lo if hi - lo <= s.step else hi - s.step
                else:
                    alpha = hi - s.step
                    if alpha <= s.zero_at and lo <= 0:
                        # deals that low are mostly lost: ask at once
                        # whether any win is left, instead of stepping on
                        alpha = 0
                if alpha < lo:
                    alpha = lo
                if alpha < 0:
                    alpha = 0
            elif s.loss_probe and not loss_probed and lo > NEG:
                # no win left: is the best loss the upper bound?  (lo < hi
                # here, or the loop has ended, so hi - 1 >= lo)
                alpha = hi - 1
                loss_probed = True
            else:
                alpha = NEG
            s.beta = alpha + 1 if alpha > NEG else NO_BETA
        s.loss_phase = alpha < 0
        # (hi is proven: the root, hence every position below it, scores at most hi)
        s.no_win = s.loss_all and not single and hi <= 0
        s.report_lo, s.report_hi = lo, hi
        if s.nhelpers > 0 and s.nodes >= s.smp_from:
            s.h_depth, s.h_ahead = 0, NULL
            v = smp_test(s, midroom, n, count, &hs, leader, avoid_ok, alpha, ub)
        elif midroom:
            v = expand(s, 0, n, count, alpha, ub, leader, &work)
        else:
            v = node(s, 0, n, &hs, leader, avoid_ok, alpha, UNKNOWN)
        s.tests += 1
        test_log.append((alpha, v, s.nodes))
        if s.aborted:
            break
        if single:
            if s.report != NULL:
                s.report_lo, s.report_hi = (v, hi) if v > alpha else (lo, v)
                if report(s):
                    break
            return {"value": None, "bound": v, "high": v > alpha,
                    "incumbent": s.inc_score if s.inc_found else None,
                    "steps": steps(s), "aborted": 0}
        if alpha == NEG:
            best = v
            if s.report != NULL:
                s.report_lo = s.report_hi = v
                report(s)
            break
        high = v > alpha
        if high:
            # (a reused table can prove it without a line being walked)
            if v > lo:
                lo = v
        else:
            hi = v
        if s.report != NULL:
            # after each test: its bounds at once, whatever the time
            s.report_lo, s.report_hi = lo, hi
            if report(s):
                break
    if s.aborted == 6:
        raise KeyboardInterrupt
    return {
        "value": None if s.aborted else best,
        "incumbent": s.inc_score if s.inc_found else None,
        "steps": steps(s),
        "aborted": s.aborted,
    }


# ------------------------------------------------------------------ threads (lazy SMP)

cdef int score_root(Search *s, int n, int count, Heroes *hs, int leader, int avoid_ok, int alpha,
                    int ub) noexcept nogil:
    """The score search's test at the root: ``node``, or ``expand`` over the outcomes
    in ``out[0]`` (``count`` >= 0) when the root is part-way through a room."""
    cdef long long work = 0
    if count >= 0:
        return expand(s, 0, n, count, alpha, ub, leader, &work)
    return node(s, 0, n, hs, leader, avoid_ok, alpha, UNKNOWN)


cdef int walk_root(Search *s, int n, int count, Heroes *hs, int leader, int avoid_ok, int alpha,
                   int ub) noexcept nogil:
    """The walk's test of one child (``walk``), as the threads run it: ``node`` at
    ``h_depth``, with the ``ahead`` its parent found."""
    s.pass_ahead = s.h_ahead
    return node(s, s.h_depth, n, hs, leader, avoid_ok, alpha, ub)


cdef void *_helper_main(void *arg) noexcept nogil:
    """A helper thread: the test's question on its own struct, then claim the answer."""
    cdef Search *h = <Search *> arg
    h.h_result = (<smp_root> h.h_fn)(h, h.h_n, h.h_count, &h.h_hs, h.h_leader, h.h_avoid_ok, h.h_alpha,
                                      h.h_ub)
    if not h.aborted:
        _atomic_claim(h.stop, 1)
    return NULL


cdef int smp_test(Search *s, bint midroom, int n, int count, Heroes *hs, int leader, int avoid_ok,
                  int alpha, int ub) noexcept:
    return smp_run(s, score_root, n, count if midroom else -1, hs, leader, avoid_ok, alpha, ub)


cdef int smp_run(Search *s, smp_root fn, int n, int count, Heroes *hs, int leader, int avoid_ok,
                 int alpha, int ub) noexcept:
    """One null-window test on every thread (lazy SMP): each searches the same root
    with the same alpha over the one table, the helpers with the children of equal
    bound in other orders (``order_salt``), so that they fill the table with other
    parts of the tree; the first to finish answers and the others stop (aborted 8).
    The answer (above alpha or not) is exact whichever thread gives it; its
    fail-soft bound and the line found may depend on the timing.  Returns the
    value as ``node`` does; the helpers' nodes, table counters and a better
    incumbent are added to ``s``."""
    cdef int stop = 0, i, v
    cdef long long shared = s.nodes
    cdef uint64_t max_buckets, budget_bytes
    cdef pthread_t tid[MAXHELPERS]
    cdef bint started[MAXHELPERS]
    cdef Search *h
    # no table grows while threads share it (growing moves it): the main thread grows it
    # first until at most an eighth is used (one thread doubles it at half full; a test
    # on the threads may store a few times what the table holds, and growing it to its
    # full size at once touched all of its pages: +0.8 s on co-op 52 deal 1, a 1.8 s solve)
    max_buckets = s.tt.max_buckets
    if s.coop:
        # every thread's memo of the children's rooms ahead, sized by the table's budget
        # (a helper would size its own by the table as it is now: see child_memo_init)
        budget_bytes = max_buckets * BUCKET * sizeof(Entry)
        child_memo_init(s, budget_bytes)
        for i in range(s.nhelpers):
            child_memo_init(<Search *> s.helpers[i], budget_bytes)
    while s.tt.buckets < s.tt.max_buckets and <uint64_t> s.tt.used * 8 > s.tt.buckets * BUCKET:
        tt_grow(&s.tt)
    if s.tt.max_buckets < max_buckets:
        max_buckets = s.tt.max_buckets     # (out of memory: it stays this size)
    s.tt.max_buckets = s.tt.buckets
    s.tt.locks = s.lock_mem
    s.stop = &stop
    s.shared_nodes = &shared
    s.flushed = s.nodes
    s.smp_max = s.max_nodes
    s.max_nodes = 0
    for i in range(s.nhelpers):
        h = <Search *> s.helpers[i]
        h.wear_probes, h.horizon, h.loss_probe, h.ahead_prune = s.wear_probes, s.horizon, s.loss_probe, s.ahead_prune
        h.wear_look, h.wear_gap, h.strict_relax, h.loss_all = s.wear_look, s.wear_gap, s.strict_relax, s.loss_all
        h.order_salt = (s.order_salt ^ (<uint32_t> (i + 1) * <uint32_t> 2654435761u)) | 1
        h.tt = s.tt
        h.tt.hits = h.tt.stores = h.tt.used = h.tt.replaced = 0
        # the test's room start (the root, or a child on the walk's path) and the path to it
        h.h_depth, h.h_ahead = s.h_depth, s.h_ahead
        memcpy(h.S[s.h_depth], s.S[s.h_depth], MAXN)
        if s.h_depth > 0:
            memcpy(h.path, s.path, s.h_depth * sizeof(Step))
        if count >= 0:
            memcpy(h.out[0], s.out[0], count * sizeof(Outcome))
        h.beta, h.loss_phase, h.no_win = s.beta, s.loss_phase, s.no_win
        h.inc_found, h.inc_score, h.inc_len = 0, NEG, 0
        h.nodes, h.flushed, h.max_nodes, h.smp_max = 0, 0, 0, s.smp_max
        h.deadline, h.aborted = s.deadline, 0
        h.stop, h.shared_nodes, h.helper, h.report = &stop, &shared, True, NULL
        h.pass_ahead = h.pend_ahead = NULL
        h.h_n, h.h_count, h.h_leader, h.h_avoid_ok = n, count, leader, avoid_ok
        h.h_alpha, h.h_ub, h.h_fn, h.h_hs = alpha, ub, <void *> fn, hs[0]
        started[i] = pthread_create(&tid[i], NULL, _helper_main, h) == 0
    with nogil:
        v = fn(s, n, count, hs, leader, avoid_ok, alpha, ub)
        _atomic_store(&stop, 1)
        for i in range(s.nhelpers):
            if started[i]:
                pthread_join(tid[i], NULL)
    if s.aborted == 8:
        # a helper answered first: its answer (the first helper's, if several did)
        for i in range(s.nhelpers):
            h = <Search *> s.helpers[i]
            if started[i] and h.aborted == 0:
                v = h.h_result
                s.aborted = 0
                break
    for i in range(s.nhelpers):
        h = <Search *> s.helpers[i]
        s.nodes += h.nodes
        s.tt.hits += h.tt.hits
        s.tt.stores += h.tt.stores
        s.tt.used += h.tt.used
        s.tt.replaced += h.tt.replaced
        h.tt.e = NULL        # the main thread's; never freed through a helper
        if started[i] and h.inc_found and (not s.inc_found or h.inc_score > s.inc_score):
            memcpy(s.inc, h.inc, sizeof(s.inc))
            s.inc_len, s.inc_score, s.inc_found = h.inc_len, h.inc_score, 1
        h.stop = NULL
        h.shared_nodes = NULL
    s.tt.locks = NULL
    s.tt.max_buckets = max_buckets
    s.stop = NULL
    s.shared_nodes = NULL
    s.max_nodes = s.smp_max
    s.smp_tests += 1
    if s.aborted == 8:
        s.aborted = 1        # (cannot happen: a stop comes from a thread that answered)
    return v


# ------------------------------------------------------------------ a line by a fixed rule

cdef bint walk(Search *s, int depth, int n, Heroes *hs, int leader, int avoid_ok, int target,
               int count) noexcept:
    """A line scoring ``target`` (the proven value) from the room start in
    ``S[depth]``, walked by a fixed rule: at each room start the first outcome,
    in the driver's order (salt 0), that is a terminal scoring ``target`` or
    whose child a null-window test shows to reach it.  Each test's answer is
    exact whatever the table holds, so the line depends only on the position,
    and so each test may run on the threads (``smp_run``, the first answer counts)
    without changing the line.  ``count`` >= 0: the outcomes are already in
    ``out[depth]`` (a root part-way through a room).  The line is left in the
    incumbent; False if stopped."""
    cdef Tally t
    cdef Heroes hc
    cdef Outcome *buf
    cdef Outcome *o
    cdef Outcome *found
    cdef int i, m = n, v
    while True:
        buf = s.out[depth]
        if count < 0:
            if depth + 1 >= MAXDEPTH:
                s.aborted = 3
                return False
            _tally(s.S[depth], n, &t)
            hc = hs[0]
            _canon(&hc, t.mmask, s.nheroes, s.lenient)
            s.pend_ahead = NULL
            count = enumerate_room(s, depth, n, &hc, leader, rotations(s, n, avoid_ok), &t, target - 1)
            if s.aborted:
                return False
        found = NULL
        for i in range(count):
            o = _next_child(buf, i, count, 0)
            if o.terminal:
                if o.score >= target:
                    record_incumbent(s, depth, o)
                    return True
                continue
            if o.ub < target:
                break          # (sorted by bound after the terminals)
            m = step_into(s, depth, n, o)
            s.h_depth = depth + 1
            s.h_ahead = o.ahead if o.ahead[0] >= 0 else NULL
            if s.nhelpers > 0:
                v = smp_run(s, walk_root, m, -1, &o.hs, (1 - leader) if s.coop else 0,
                            1 if s.flee != 2 else 0, target - 1, o.ub)
            else:
                v = walk_root(s, m, -1, &o.hs, (1 - leader) if s.coop else 0, 1 if s.flee != 2 else 0,
                              target - 1, o.ub)
            s.h_depth, s.h_ahead = 0, NULL
            if s.aborted:
                return False
            if v >= target:
                found = o
                break
        if found == NULL:
            return False       # (the value is not reached: never, when it is proven)
        step_into(s, depth, n, found)
        hs = &found.hs
        leader = (1 - leader) if s.coop else 0
        avoid_ok = 1 if s.flee != 2 else 0
        n = m
        depth += 1
        count = -1


cdef dict line_run(Search *s, list room, list dungeon, int taken, list heroes, int leader,
                   int potion_mask, int help_used, int avoid_ok, int target, long long max_nodes,
                   double timeout):
    """The line of ``walk`` from a position given as Python ints: ``{"steps":
    the line or None (stopped), "aborted"}``.  Its tests run on the threads, if any."""
    cdef Heroes hs
    cdef Tally t
    cdef int i, n, count = -1
    cdef bint ok
    begin_search(s, heroes, &hs, max_nodes, timeout)
    s.inc_found = 0
    s.inc_score = NEG
    s.inc_len = 0
    n = len(room) + len(dungeon)
    for i in range(len(room)):
        s.S[0][i] = room[i]
    for i in range(len(dungeon)):
        s.S[0][len(room) + i] = dungeon[i]
    if not (taken == 0 and (len(room) == 4 or len(dungeon) == 0)):
        _tally(s.S[0], n, &t)
        count = midroom_outcomes(s, room, dungeon, taken, &hs, leader, potion_mask, help_used, &t)
        n = len(dungeon) + 4
    s.beta = target
    s.loss_phase = target - 1 < 0
    # the target is the root's proven value: at most 0, every position on the way is
    # lost, and the loss phase's bounds hold (loss_all, as run sets no_win per test)
    s.no_win = s.loss_all and target <= 0
    ok = walk(s, 0, n, &hs, leader, avoid_ok, target, count)
    s.no_win = False
    s.beta = NO_BETA
    if s.aborted == 6:
        raise KeyboardInterrupt
    return {"steps": steps(s) if ok and not s.aborted else None, "aborted": s.aborted}
