# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The shortest optimal line: a second search, over rooms, once the score is proven.

Owns nothing of ``Search`` but its use of the table under its own keys; reads
the rules, asks ``_rooms`` for the outcomes of a room start, ``_bounds`` for
score bounds, and reuses the driver's path, counters and limits (``_search``).

The driver proves the optimal score ``V`` and returns *a* line reaching it,
but not a short one: with the easy flee rule it may avoid dozens of rooms in a
row, since rotating the dungeon costs nothing.  This search asks, for a room
start, the fewest rooms (an avoided room counts as one, like a played one) of
a line from there that still scores ``V``.  Its value is ``W = -rooms`` when
such a line exists and ``NEG`` when none does; like ``node`` it is fail-soft
(exact above ``alpha``, else an upper bound <= ``alpha``), so it keeps the
same table discipline:

* ``W`` is a function of the room start (and ``V``) alone, and never
  decreases with health, a stronger weapon or a higher last kill (a line that
  scores ``V`` with less still scores at least ``V`` with more, and no line can
  score more than ``V``), so the Pareto fronts of ``_rooms`` and the spreading
  of bounds along health in ``_table`` hold for it as they do for the score;
* its entries live in the same table under keys salted by ``V``
  (``salt_keys``): they never answer a probe of the score search, nor of a
  search for another ``V``;
* a room start whose score bound is below ``V`` has no such line (``NEG``), and
  a won line must still take every card: ``rooms_needed`` rooms at least.

The root's value is found by null-window tests from below (is there a line of
at most ``LB`` rooms?  of ``LB + 1``? ...), each failing test raising the lower
bound by what it proved; the first success is the fewest.  The line is then
walked from the root by one fixed rule -- at each room start the first outcome,
in the order (avoids, then the driver's order, then enumeration order), whose
child has the value still needed -- so it does not depend on what the table
happened to hold.
"""
from libc.stdint cimport uint64_t, uint32_t, int8_t, uint8_t
from ._types cimport (MAXN, MAXDEPTH, NO_BETA, NEG, Heroes, Outcome, Tally, _tally, _canon,
                      _child_cards)
from ._table cimport tt_key, tt_probe, tt_store
from ._state cimport Search
from ._bounds cimport bound_at
from ._rooms cimport rotations, enumerate_room
from ._search cimport begin_search, enter_node, midroom_outcomes


cdef inline uint64_t _mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void salt_keys(int target, uint64_t *k1, uint64_t *k2) noexcept nogil:
    """Keys of the rooms search for the score ``target``, apart from all others."""
    k1[0] ^= _mix(0x5C0D5E11A7B1E5ULL + <uint64_t> (target + 4096))
    k2[0] ^= _mix(0x9E3779B97F4A7C15ULL ^ (<uint64_t> (target + 4096) << 20))


cdef inline int rooms_needed(int n, int target) noexcept nogil:
    """Rooms any line scoring ``target`` still plays from a room start of ``n``
    cards: a win takes every card, 3 a room and the final room whole."""
    if target <= 0 or n <= 4:
        return 1
    return 1 + (n - 4 + 2) // 3


cdef inline int _cmp_rooms(Outcome *a, Outcome *b) noexcept nogil:
    """Fewer avoids first, then the driver's order (higher bound first), then
    enumeration order: a fixed order, the tie-break of the line."""
    if a.rot != b.rot:
        return -1 if a.rot < b.rot else 1
    if a.order != b.order:
        return -1 if a.order > b.order else 1
    return a.seq - b.seq


cdef void sort_outcomes(Outcome *buf, int count) noexcept nogil:
    """Insertion sort by ``_cmp_rooms`` (a room has few outcomes left)."""
    cdef int i, j
    cdef Outcome tmp
    for i in range(1, count):
        tmp = buf[i]
        j = i - 1
        while j >= 0 and _cmp_rooms(&buf[j], &tmp) > 0:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = tmp


cdef int expand_rooms(Search *s, int depth, int n, int count, int leader, int alpha) noexcept nogil:
    """The value of the outcomes ``out[depth][:count]`` (sorted), fail-soft above ``alpha``."""
    cdef Outcome *buf = s.out[depth]
    cdef Outcome *o
    cdef int best = NEG, i, v, cost, a, m, lb
    for i in range(count):
        o = &buf[i]
        cost = o.rot + 1
        a = alpha if alpha > best else best
        if o.terminal:
            if o.score >= s.short_target and -cost > best:
                best = -cost
            continue
        if o.ub < s.short_target:
            continue
        m = _child_cards(s.S[depth], n, o, s.S[depth + 1])
        lb = -(cost + rooms_needed(m, s.short_target))
        if lb <= a:
            # no line through it beats alpha
            if lb > best:
                best = lb
            continue
        v = node_rooms(s, depth + 1, m, &o.hs, (1 - leader) if s.coop else 0,
                       1 if s.flee != 2 else 0, a + cost)
        if s.aborted:
            return NEG
        if v != NEG and v - cost > best:
            best = v - cost
    return best


cdef int node_rooms(Search *s, int depth, int n, Heroes *hs, int leader, int avoid_ok, int alpha) noexcept nogil:
    """``-rooms`` of the shortest line from the room start ``S[depth]`` that scores
    ``short_target``, if above ``alpha``; else an upper bound <= ``alpha`` (NEG: no such line)."""
    cdef int8_t *S = s.S[depth]
    cdef int ub, best, count, h0, slack, lb, nrot, v
    cdef bint cut
    cdef Tally t
    cdef Heroes hc
    cdef uint64_t k1 = 0, k2 = 0
    cdef int elo, ehi
    cdef long long before = s.nodes
    if enter_node(s, depth):
        return NEG
    _tally(S, n, &t)
    hc = hs[0]
    _canon(&hc, t.mmask, s.nheroes, s.lenient)
    hs = &hc
    lb = -rooms_needed(n, s.short_target)
    if lb <= alpha:
        return lb
    # only the rotations that leave room for a line beating alpha: a line facing
    # the room after r avoids has r + rooms_needed(n) rooms at least
    nrot = rotations(s, n, avoid_ok)
    cut = False
    # (beating alpha means at most -alpha - 1 rooms, so r < -alpha - rooms_needed(n) = lb - alpha)
    if alpha > NEG and nrot > 1 and lb - alpha < nrot:
        nrot = lb - alpha
        cut = True
    # (the bound over those rotations only: the lines it bounds are fewer)
    ub = bound_at(s, &t, hs, S, n, nrot, &slack)
    if ub < s.short_target:
        return alpha if cut else NEG
    tt_key(S, n, hs, s.coop, leader, avoid_ok, &k1, &k2)
    h0 = hs.hp[0] - 1
    # the score search's own entry: a room start it proved below the target has no such line
    if tt_probe(&s.tt, k1, k2, h0, &elo, &ehi) and ehi < s.short_target:
        s.tt.hits += 1
        return NEG
    salt_keys(s.short_target, &k1, &k2)
    if tt_probe(&s.tt, k1, k2, h0, &elo, &ehi):
        s.tt.hits += 1
        if elo == ehi:
            return elo
        if ehi <= alpha:
            return ehi
    count = enumerate_room(s, depth, n, hs, leader, nrot, &t, s.short_target - 1)
    if s.aborted:
        return NEG
    sort_outcomes(s.out[depth], count)
    best = expand_rooms(s, depth, n, count, leader, alpha)
    if s.aborted:
        return NEG
    if cut and best <= alpha:
        # the rotations left out have lines of at least -alpha rooms
        best = alpha
    if best <= alpha:
        tt_store(&s.tt, k1, k2, hs.hp[0], NEG, best, <uint32_t> (s.nodes - before + 1))
    else:
        tt_store(&s.tt, k1, k2, hs.hp[0], best, best, <uint32_t> (s.nodes - before + 1))
    return best


cdef int root_outcomes(Search *s, list room, list dungeon, int taken, Heroes *hs, int leader,
                       int potion_mask, int help_used, int avoid_ok, int *n_out) noexcept:
    """Lay out the root in ``S[0]`` and list its outcomes in ``out[0]`` (sorted);
    ``n_out``: the cards of ``S[0]`` as the children see it."""
    cdef int i, n = len(room) + len(dungeon), count
    cdef Tally t
    cdef Heroes hc
    for i in range(len(room)):
        s.S[0][i] = room[i]
    for i in range(len(dungeon)):
        s.S[0][len(room) + i] = dungeon[i]
    _tally(s.S[0], n, &t)
    if taken == 0 and (len(room) == 4 or len(dungeon) == 0):
        hc = hs[0]
        _canon(&hc, t.mmask, s.nheroes, s.lenient)
        count = enumerate_room(s, 0, n, &hc, leader, rotations(s, n, avoid_ok), &t, s.short_target - 1)
    else:
        # part-way through a room, as the driver's run() does
        count = midroom_outcomes(s, room, dungeon, taken, hs, leader, potion_mask, help_used, &t)
        n = len(dungeon) + 4
    sort_outcomes(s.out[0], count)
    n_out[0] = n
    return count


cdef dict shortest_run(Search *s, list room, list dungeon, int taken, list heroes, int leader,
                       int potion_mask, int help_used, int avoid_ok, int target, int known_rooms,
                       long long max_nodes, double timeout):
    """``_shortest`` without the wear bound (``wear_look``, restored after): this search
    bounds every room start it meets, where the wear programme cost 3x per node for 40 %
    fewer nodes (co-op 52 deal 5, one thread: 9.9 s against 5.0 s)."""
    cdef int wear = s.wear_look
    s.wear_look = 0
    try:
        return _shortest(s, room, dungeon, taken, heroes, leader, potion_mask, help_used, avoid_ok,
                         target, known_rooms, max_nodes, timeout)
    finally:
        s.wear_look = wear


cdef dict rooms_within_run(Search *s, list room, list dungeon, int taken, list heroes, int leader,
                           int potion_mask, int help_used, int avoid_ok, int target, int rooms,
                           long long max_nodes, double timeout):
    """Is there a line from the position that scores ``target`` (at least) in at most
    ``rooms`` rooms?  One test of the rooms search (``expand_rooms`` at the root with
    ``alpha = -rooms - 1``), exact, whatever the table holds.  Returns ``{"within": bool
    (None: a limit stopped it), "rooms": the fewest rooms when within (the search is
    fail-soft, so exact above alpha), else a lower bound on them (None: no line scores
    target), "aborted"}``.  Without the wear bound, as ``shortest_run``."""
    cdef int wear = s.wear_look
    cdef int n, count, v, alpha
    cdef Heroes hs
    if rooms < 1:
        return {"within": False, "rooms": 1, "aborted": 0}
    s.wear_look = 0
    try:
        begin_search(s, heroes, &hs, max_nodes, timeout)
        s.short_target = target
        s.loss_phase = target <= 0
        s.beta = NO_BETA
        count = root_outcomes(s, room, dungeon, taken, &hs, leader, potion_mask, help_used, avoid_ok, &n)
        alpha = -rooms - 1
        v = expand_rooms(s, 0, n, count, leader, alpha)
    finally:
        s.wear_look = wear
    if s.aborted == 6:
        raise KeyboardInterrupt
    if s.aborted:
        return {"within": None, "rooms": None, "aborted": s.aborted}
    return {"within": v > alpha, "rooms": None if v == NEG else -v, "aborted": 0}


cdef dict _shortest(Search *s, list room, list dungeon, int taken, list heroes, int leader,
                    int potion_mask, int help_used, int avoid_ok, int target, int known_rooms,
                    long long max_nodes, double timeout):
    """The fewest rooms of a line from the position that scores ``target`` (the
    proven optimum), and that line as (avoids, takes) per room start.

    ``known_rooms``: the rooms of a line known to score ``target`` (the
    driver's), an upper bound.  Returns ``{"rooms", "steps", "aborted"}``;
    ``rooms`` is None when a limit stopped the search; a completed search also
    gives its ``tests`` as (alpha, result, nodes so far), like ``run``'s log."""
    cdef Heroes hs
    cdef int i, n, count, alpha, v, need, depth, m, cost
    cdef Outcome *o
    cdef Heroes cur
    cdef Tally t_walk
    cdef int lead, aok
    begin_search(s, heroes, &hs, max_nodes, timeout)
    s.short_target = target
    s.loss_phase = target <= 0
    s.beta = NO_BETA
    count = root_outcomes(s, room, dungeon, taken, &hs, leader, potion_mask, help_used, avoid_ok, &n)
    # the tests, from below: "a line of at most -(alpha + 1) rooms?"
    alpha = NEG
    v = NEG
    i = 1
    tests = []
    while not s.aborted:
        alpha = -i - 1
        v = expand_rooms(s, 0, n, count, leader, alpha)
        tests.append((alpha, v, s.nodes))
        if s.aborted:
            break
        if v > alpha:
            break
        if v == NEG or -v > known_rooms:
            # the driver's line has known_rooms: a bound this high is a contradiction
            raise AssertionError(f"rooms search: no line of {known_rooms} rooms reaches {target}")
        i = -v
    if s.aborted == 6:
        raise KeyboardInterrupt
    if s.aborted:
        return {"rooms": None, "steps": [], "aborted": s.aborted}
    # the line, by the fixed rule: the first outcome whose child has the value needed
    need = -v
    line = []
    depth = 0
    lead = leader
    while True:
        o = NULL
        for i in range(count):
            cost = s.out[depth][i].rot + 1
            if s.out[depth][i].terminal:
                if s.out[depth][i].score >= target and cost == need:
                    o = &s.out[depth][i]
                    break
                continue
            if s.out[depth][i].ub < target or need - cost < 1:
                continue
            m = _child_cards(s.S[depth], n, &s.out[depth][i], s.S[depth + 1])
            v = node_rooms(s, depth + 1, m, &s.out[depth][i].hs, (1 - lead) if s.coop else 0,
                           1 if s.flee != 2 else 0, -(need - cost) - 1)
            if s.aborted:
                break
            if v >= -(need - cost):
                o = &s.out[depth][i]
                break
        if s.aborted:
            break
        if o == NULL:
            raise AssertionError(f"rooms search: no outcome at depth {depth} keeps {need} rooms")
        line.append((o.rot, [o.takes[j] for j in range(o.ntakes)]))
        need -= o.rot + 1
        if o.terminal:
            break
        # the child: laid out in S[depth + 1] (m cards) by the check that chose it
        cur = o.hs
        depth += 1
        n = m
        lead = (1 - lead) if s.coop else 0
        aok = 1 if s.flee != 2 else 0
        _tally(s.S[depth], n, &t_walk)
        _canon(&cur, t_walk.mmask, s.nheroes, s.lenient)
        count = enumerate_room(s, depth, n, &cur, lead, rotations(s, n, aok), &t_walk, target - 1)
        sort_outcomes(s.out[depth], count)
    if s.aborted == 6:
        raise KeyboardInterrupt
    if s.aborted:
        return {"rooms": None, "steps": [], "aborted": s.aborted}
    rooms = sum(r + 1 for r, _ in line)
    if need != 0:
        raise AssertionError(f"rooms search: the line walked has {rooms} rooms, not the {rooms + need} proven")
    return {"rooms": rooms, "steps": line, "aborted": 0, "tests": tests}
