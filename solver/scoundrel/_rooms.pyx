# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The enumeration of one room: every way to finish it, as a list of outcomes.

Owns ``Search.out`` (the outcome list of each depth) and the enumeration's
scratch (``g_*``, ``e_*``, ``m_*``); reads the rules, the room start it is given
and the bounds (``_bounds``); sets ``Search.aborted`` = 4 rather than drop an
outcome when a list is full.

Everything that happens inside one room (avoids, the order of the takes,
fight modes, the help card) becomes an outcome: a terminal score or a child
room start.  Children with the same next room form a group that keeps only
its Pareto front (the value never decreases with more health, a stronger
weapon or a higher last kill); two takes by one hero that commute are tried
in one order only; the first take's position may be cut by its bound.  Avoids
are folded in: the rooms reachable by avoiding are rotations of ``S``
(``rotations``).  ``rate_outcomes`` then gives each child its upper bound and
the move-ordering key the driver sorts by.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, uint16_t, int16_t, int8_t, uint8_t
from ._types cimport (MAXN, MAXHP, MAXDEPTH, MAXOUT, NEG, FRESH, LANE_HI, MONSTER, POTION, WEAPON,
                      KIND, VALUE, Heroes, Outcome, Tally, _usable, _canon, _pack, _tally_card,
                      _child_tally, _child_cards)
from ._state cimport Search
from ._table cimport BUCKET, Entry
from ._bounds cimport (damage, bound, finish_bound, loss_refine, deep_extra, _deep_extra, forced_extra, ahead_parts,
                      wear_extra, lenient_view, lenient_damage, strict_view_on)


cdef int rooms_init(Search *s) except -1:
    """Allocate the outcome lists and clear the scratch."""
    cdef int d
    for d in range(MAXDEPTH):
        s.out[d] = NULL
    for d in range(MAXDEPTH):
        s.out[d] = <Outcome *> malloc(MAXOUT * sizeof(Outcome))
        if s.out[d] == NULL:
            raise MemoryError()
    memset(s.g_stamp, 0, sizeof(s.g_stamp))
    memset(s.m_stamps, 0, sizeof(s.m_stamps))
    s.m_stamp = 0
    s.m_used = 0
    s.stamp = 0
    return 0


cdef void rooms_free(Search *s) noexcept nogil:
    cdef int d
    if s.wr_key != NULL:
        free(s.wr_key)
        s.wr_key = NULL
    for d in range(MAXDEPTH):
        if s.out[d] != NULL:
            free(s.out[d])
            s.out[d] = NULL


cdef inline bint _commute(int ca, int va, int cb, int vb, int h) noexcept nogil:
    """Do two consecutive takes by one hero, of classes ``ca`` then ``cb``, give
    the same state in either order with nobody dying?  ``h`` is the hero's health
    before both.  Classes: 0 monster bare-handed, 1 monster with the weapon (``v``
    is the damage), 2 weapon card, 3 potion that heals (``v`` its value), 4 potion
    without effect (already drank this room)."""
    cdef int t
    if ca > cb:
        t = ca
        ca = cb
        cb = t
        t = va
        va = vb
        vb = t
    if cb <= 1:                      # two fights: not both with the weapon (its wear)
        return not (ca == 1 and cb == 1) and h - va - vb > 0
    if ca <= 1:
        if cb == 2:                  # a fight and a new weapon: only bare-handed
            return ca == 0 and h - va > 0
        if cb == 3:                  # a fight and a heal: when the cap does not bite
            return h + vb <= MAXHP and h - va > 0
        return h - va > 0            # a fight and a wasted potion
    if ca == 2:
        return cb != 2               # a weapon and a potion
    return ca == 4 and cb == 4       # two wasted potions (a heal and a waste do not commute)


cdef inline int _gcd(int a, int b) noexcept nogil:
    while b:
        a, b = b, a % b
    return a


cdef void add_outcome(Search *s, Heroes *hs, int terminal, int score, int left,
                      uint8_t *takes, int ntakes) noexcept nogil:
    """Record one way to finish the room.

    Child outcomes with the same next room (rotation and carried card) form
    a group that keeps only its Pareto front: an outcome is dropped when
    another of its group has at least its health, weapon and last kill for
    every hero (the value never decreases in any of them).  Of two equal
    outcomes the first found stays, so the result is deterministic.  Only
    the best terminal outcome is kept.
    """
    cdef Outcome *o
    cdef Outcome *b
    cdef int i, g, idx, prev
    cdef Tally ct
    cdef Heroes hc
    cdef uint64_t pk = 0
    if s.e_count >= MAXOUT:
        s.aborted = 4  # never drop an outcome silently
        return
    if terminal:
        if score <= s.e_best_terminal:
            return
        s.e_best_terminal = score
        if s.e_terminal_idx >= 0:
            s.e_buf[s.e_terminal_idx].dead = 1
        s.e_terminal_idx = s.e_count
        g = -1
    else:
        g = s.e_rot * 64 + left + 1
        if s.g_stamp[g] != s.stamp:
            s.g_stamp[g] = s.stamp
            s.g_head[g] = -1
            # the monsters of the group's next room start (the same for the
            # whole group): this one's minus the ones taken
            ct = s.e_tally[0]
            for i in range(ntakes):
                _tally_card(&ct, takes[i] & 63, -1)
            s.g_present[g] = ct.mmask
        hc = hs[0]
        _canon(&hc, s.g_present[g], s.nheroes, s.lenient)
        hs = &hc
        pk = _pack(hs)
        prev = -1
        idx = s.g_head[g]
        while idx >= 0:
            b = &s.e_buf[idx]
            if ((b.pk | LANE_HI) - pk) & LANE_HI == LANE_HI:
                return                      # an earlier outcome is at least as good
            if ((pk | LANE_HI) - b.pk) & LANE_HI == LANE_HI:
                b.dead = 1                  # the new one is better: unlink the old
                if prev < 0:
                    s.g_head[g] = b.next
                else:
                    s.e_buf[prev].next = b.next
            else:
                prev = idx
            idx = b.next
    o = &s.e_buf[s.e_count]
    o.hs = hs[0]
    o.terminal = terminal
    o.dead = 0
    o.score = score
    o.rot = s.e_rot
    o.left = left
    o.ntakes = ntakes if ntakes <= 4 else 4     # a room has at most four takes
    for i in range(o.ntakes):
        o.takes[i] = takes[i]
    o.order = 0x7FFFFFFF if terminal else 0
    o.ub = score
    o.seq = s.e_count
    o.pk = pk
    if g >= 0:
        o.next = s.g_head[g]
        s.g_head[g] = s.e_count
    s.e_count += 1


cdef int ahead_bound(Search *s, int8_t *room, int nroom, uint32_t taken_mask, uint8_t *takes,
                     int ntakes, Heroes *hs) noexcept nogil:
    """A second bound part-way through the room (``ahead_prune``, lenient): the
    relaxed damage of the room start (``e_dx``) less the monsters taken, plus
    the extra the rest of this room forces (its monsters meet a weapon the
    heroes hold now or a diamond of the room; the card carried on is excused)
    and the extra of the rooms after it (``e_ahead``), which ``bound`` alone
    does not see; NEG when only the loss bound could tell (see ``ahead_parts``)."""
    cdef int j, c, v, hh, w, e, local = 0, tot = 0, top = 0, slack
    cdef int dmg = s.e_dx
    for j in range(ntakes):
        c = takes[j] & 63
        if KIND[c] == MONSTER:
            dmg -= s.e_cglob[VALUE[c]]
    for j in range(nroom):
        if not (taken_mask & (1u << j)):
            c = room[j]
            if KIND[c] == WEAPON and VALUE[c] > local:
                local = VALUE[c]
    for j in range(nroom):
        if taken_mask & (1u << j):
            continue
        c = room[j]
        if KIND[c] != MONSTER:
            continue
        v = VALUE[c]
        w = local
        for hh in range(s.nheroes):
            if hs.w[hh] > w and v <= hs.k[hh]:
                w = hs.w[hh]
        e = (v - w if v > w else 0) - s.e_cglob[v]
        tot += e
        if e > top:
            top = e
    if not s.e_final:
        tot -= top
    dmg += tot
    if s.e_rot < 2:
        dmg += s.e_ahead[s.e_rot]
    return finish_bound(s, hs, s.e_ptally.psum, 0, dmg, &slack)


cdef void enum_takes(Search *s, int8_t *room, int nroom, uint32_t taken_mask, int to_take,
                     Heroes hs, int potion_mask, int help_used, int mleft,
                     uint8_t *takes, int ntakes, int pslot, int pcls, int ptarget,
                     int php, int pval) noexcept nogil:
    """All ways to take ``to_take`` more cards of ``room``.

    ``mleft`` is the value of the monsters not yet taken (room and dungeon),
    ``potion_mask`` bit i says hero i already drank this room.  ``pslot``,
    ``pcls``, ``ptarget``, ``pval`` describe the previous take and ``php``
    its hero's health before it (see ``_commute``).
    """
    cdef int i, t, target, c, v, kind, nt, m, dmg, left, j, score, cls, val, ub, ub2, slack
    cdef Heroes h2
    cdef int ntargets = 2 if (s.coop and not help_used) else 1
    cdef int leader = s.e_leader
    for i in range(nroom):
        if taken_mask & (1u << i):
            continue
        c = room[i]
        # identical cards (two jokers) give identical takes
        j = 0
        for t in range(i):
            if not (taken_mask & (1u << t)) and room[t] == c:
                j = 1
        if j:
            continue
        kind = KIND[c]
        v = VALUE[c]
        for t in range(ntargets):
            target = leader if t == 0 else 1 - leader
            for m in range(2):    # 0 bare, 1 weapon (monsters only)
                h2 = hs
                nt = ntakes
                if kind == MONSTER:
                    if m == 1:
                        if not _usable(hs.w[target], hs.k[target], v, s.lenient):
                            continue
                        dmg = v - hs.w[target]
                        if dmg < 0:
                            dmg = 0
                        h2.k[target] = v
                    else:
                        dmg = v
                    h2.hp[target] = hs.hp[target] - dmg
                    takes[nt] = c | (64 if m == 1 else 0) | (128 if t == 1 else 0)
                else:
                    if m == 1:
                        continue
                    if kind == POTION:
                        if not (potion_mask & (1 << target)):
                            h2.hp[target] = hs.hp[target] + v
                            if h2.hp[target] > MAXHP:
                                h2.hp[target] = MAXHP
                    else:
                        h2.w[target] = v
                        h2.k[target] = FRESH
                    takes[nt] = c | (128 if t == 1 else 0)
                if kind == MONSTER:
                    cls = m          # 0 bare, 1 with the weapon
                    val = dmg
                elif kind == WEAPON:
                    cls = 2
                    val = 0
                elif not (potion_mask & (1 << target)):
                    cls = 3          # a potion that heals
                    val = v
                else:
                    cls = 4          # a potion without effect
                    val = 0
                # Two takes by the same hero that commute (same state either way,
                # nobody dies) are only tried in room order.  Not for the last take
                # of the final room: which card is last decides the potion bonus.
                if (pslot > i and ptarget == target and not (s.e_final and to_take == 1)
                        and _commute(pcls, pval, cls, val, php)):
                    continue
                nt += 1
                if kind == MONSTER and h2.hp[target] <= 0:
                    if s.coop:
                        score = -(mleft - v)
                    else:
                        score = h2.hp[0] - (mleft - v)
                    add_outcome(s, &h2, 1, score, -1, takes, nt)
                    continue
                if t == 1 and ntakes > 0:
                    # The help card acts on the partner only, so where it falls among
                    # the leader's takes changes nothing unless it kills the partner:
                    # giving it first reaches every other outcome, and as good a loss.
                    continue
                if to_take == 1:
                    if s.e_final:
                        if s.coop:
                            score = h2.hp[0] + h2.hp[1]
                        else:
                            score = h2.hp[0]
                            if kind == POTION and score == MAXHP:
                                score += v
                        add_outcome(s, &h2, 1, score, -1, takes, nt)
                    else:
                        left = -1
                        for j in range(nroom):
                            if j != i and not (taken_mask & (1u << j)):
                                left = room[j]
                        if s.e_ahead_on and s.ahead_prune >= 2 and s.e_alpha > NEG:
                            _tally_card(&s.e_ptally, c, -1)
                            ub2 = ahead_bound(s, room, nroom, taken_mask | (1u << i), takes, nt, &h2)
                            _tally_card(&s.e_ptally, c, 1)
                            if ub2 != NEG and ub2 <= s.e_alpha:
                                if ub2 > s.e_pruned:
                                    s.e_pruned = ub2
                                continue
                        add_outcome(s, &h2, 0, 0, left, takes, nt)
                else:
                    _tally_card(&s.e_ptally, c, -1)
                    if ntakes <= 1 and s.e_alpha > NEG:
                        # After the first take, the bound of the position reached
                        # holds for every way to finish the room: when it cannot
                        # beat alpha, none of them is worth listing.
                        ub = bound(s, &s.e_ptally, &h2, &slack)
                        if ub > s.e_alpha and s.e_ahead_on:
                            ub2 = ahead_bound(s, room, nroom, taken_mask | (1u << i), takes, nt, &h2)
                            if ub2 != NEG and ub2 < ub:
                                ub = ub2
                        if ub <= s.e_alpha:
                            if ub > s.e_pruned:
                                s.e_pruned = ub
                            _tally_card(&s.e_ptally, c, 1)
                            continue
                    enum_takes(s, room, nroom, taken_mask | (1u << i), to_take - 1, h2,
                                    potion_mask | ((1 << target) if (kind == POTION) else 0),
                                    help_used | (t == 1), mleft - (v if kind == MONSTER else 0),
                                    takes, nt, i, cls, target, hs.hp[target], val)
                    _tally_card(&s.e_ptally, c, 1)


cdef int compact(Search *s, Outcome *buf, int count) noexcept nogil:
    """Remove the outcomes that a later one dominated, keeping the order."""
    cdef int i, n = 0
    for i in range(count):
        if not buf[i].dead:
            if n != i:
                buf[n] = buf[i]
            n += 1
    return n


DEF WR_MAX_BITS = 20        # at most 1 M slots (24 MB)


cdef bint child_memo_init(Search *s, uint64_t table_bytes) noexcept nogil:
    """Allocate the children's memo (``_child_memo``) if it is not there: a sixteenth of
    ``table_bytes`` (the table's budget) at most, 24 bytes a slot, 1 M slots at most.
    False when the memory is not there.  The driver gives each helper thread its
    own, of the main thread's size, before the threads start (a helper's table struct
    holds the table's size at that moment, not its budget: measured, a helper with a
    memo of 4,096 slots spent twice the main thread's time on ``wear_extra``)."""
    if s.wr_key != NULL:
        return True
    s.wr_bits = 12
    while s.wr_bits < WR_MAX_BITS and (<uint64_t> 24 << (s.wr_bits + 1)) * 16 <= table_bytes:
        s.wr_bits += 1
    s.wr_key = <uint64_t *> calloc(3 << s.wr_bits, sizeof(uint64_t))
    return s.wr_key != NULL


cdef uint64_t *_child_memo(Search *s, int8_t *C, int m, Heroes *hs) noexcept nogil:
    """The memo slot of a child room start (co-op): what ``rate_outcomes`` found of the rooms
    ahead of it, remembered across the search by a hash of its cards and weapons (they
    depend on nothing else: room starts that differ in health only, common as the table
    keeps every health of a position apart, share them).  Three words: the two hashes and
    what is known -- bit 63: ``_deep_extra`` in bits 0-15 and its ``ahead`` in 16-23 and
    24-31; bit 62: ``wear_extra`` in bits 32-47.  A slot holding another room start is
    taken over (nothing known).  NULL when the memory is not there."""
    cdef uint64_t h = 0x243F6A8885A308D3ULL, h2 = 0x13198A2E03707344ULL, wk
    cdef uint64_t *p
    cdef int i, slot
    # two independent 64-bit hashes (FNV-1a and a multiply-xorshift), as the table's
    # keys are 128 bits: a false match would give a wrong bound
    for i in range(m):
        h = (h ^ <uint64_t> (C[i] + 1)) * 0x100000001B3ULL
        h2 = (h2 + <uint64_t> (C[i] + 1)) * 0xBF58476D1CE4E5B9ULL
        h2 ^= h2 >> 29
    wk = (<uint64_t> <uint8_t> hs.w[0] | (<uint64_t> <uint8_t> hs.k[0] << 8)
          | (<uint64_t> <uint8_t> hs.w[1] << 16) | (<uint64_t> <uint8_t> hs.k[1] << 24)
          | (<uint64_t> m << 32))
    h = (h ^ wk) * 0x9E3779B97F4A7C15ULL
    h ^= h >> 31
    h |= 1
    h2 = (h2 ^ wk) * 0x94D049BB133111EBULL
    h2 ^= h2 >> 31
    if s.wr_key == NULL and not child_memo_init(s, s.tt.max_buckets * BUCKET * sizeof(Entry)):
        return NULL
    slot = <int> (h >> (64 - s.wr_bits))
    p = &s.wr_key[3 * slot]
    if p[0] != h or p[1] != h2:
        p[0] = h
        p[1] = h2
        p[2] = 0
    return p


cdef void rate_outcomes(Search *s, Outcome *buf, int count, Tally *t, int8_t *S, int n) noexcept nogil:
    """Give each child its upper bound and an ordering key: highest bound
    first, then the most health left after the unavoidable damage.

    Children with the same next room (rotation and carried card) have the
    same cards left, so their damage depends only on the weapons: it is
    computed once per (next room, weapons) and remembered for the others.

    With strict weapons and ``strict_relax`` the extras of the rooms ahead are those of
    the lenient view of the heroes (``_bounds.strict_extra``): ``dmg`` then follows the
    view's lenient damage plus its extras, ``ds`` is the strict damage, and the bound
    takes the larger.  (Lenient, or strict without it: ``ds`` is 0.)
    """
    cdef Tally ct
    cdef Outcome *o
    cdef Heroes hview
    cdef Heroes *hv
    cdef bint view = strict_view_on(s)
    cdef int i, slack, ub, slot, dmg, ds, sump, maxp, m, room, deep, wear
    cdef uint64_t *cm = NULL
    cdef int8_t C[MAXN]
    cdef bint have_ct, have_c
    cdef uint64_t key
    cdef int av[2]
    s.m_stamp += 1
    for i in range(count):
        o = &buf[i]
        o.ahead[0] = -1
        if o.terminal:
            continue
        key = ((<uint64_t> (o.rot * 64 + o.left + 1)) << 32) | ((o.pk >> 8) & 0xFFFF) \
            | (((o.pk >> 32) & 0xFFFF) << 16)
        slot = <int> (((key + 1) * 0x9E3779B97F4A7C15ULL) >> 56)
        while s.m_stamps[slot] == s.m_stamp and s.m_keys[slot] != key:
            slot = (slot + 1) & 255
        have_ct = False
        have_c = False
        if s.m_stamps[slot] == s.m_stamp:
            dmg = s.m_dmg[slot]
            ds = s.m_ds[slot]
            sump = s.m_sump[slot]
            maxp = s.m_maxp[slot]
            room = s.m_room[slot]
            o.ahead[0] = s.m_ahead[slot][0]
            o.ahead[1] = s.m_ahead[slot][1]
        else:
            _child_tally(t, o, &ct)
            have_ct = True
            dmg = damage(s, &ct, &o.hs, &sump, &maxp, NULL, NULL, NULL, NULL)
            ds = 0
            room = -1
            if S != NULL and (s.lenient or view) and (not s.no_win or (s.loss_all & 4)):
                m = _child_cards(S, n, o, C)
                have_c = True
                hv = &o.hs
                if view:
                    lenient_view(&o.hs, &hview)
                    hv = &hview
                    ds = dmg
                    dmg = lenient_damage(s, &ct, hv)
                room = forced_extra(s, C, m, rotations(s, m, 1), hv, &ct)
                dmg += room
            if s.m_used < 200:
                s.m_used += 1
                s.m_stamps[slot] = s.m_stamp
                s.m_keys[slot] = key
                s.m_dmg[slot] = dmg
                s.m_ds[slot] = ds
                s.m_sump[slot] = sump
                s.m_maxp[slot] = maxp
                s.m_room[slot] = room
                s.m_ahead[slot][0] = -1
            else:
                slot = -1
        ub = finish_bound(s, &o.hs, sump, maxp, dmg if dmg > ds else ds, &slack)
        if room >= 0 and ub > s.e_alpha and ub != NEG:
            # the child may beat alpha: worth the look over the rooms
            # ahead (deep_extra), which the room's own extra may understate
            if not have_ct:
                _child_tally(t, o, &ct)
                have_ct = True
            if not have_c:
                m = _child_cards(S, n, o, C)
            hv = &o.hs
            if view:
                lenient_view(&o.hs, &hview)
                hv = &hview
            cm = _child_memo(s, C, m, &o.hs) if s.coop else NULL
            if cm != NULL and (cm[2] >> 63):
                deep = <int> <int16_t> <uint16_t> (cm[2] & 0xFFFF)
                o.ahead[0] = <int8_t> <uint8_t> ((cm[2] >> 16) & 0xFF)
                o.ahead[1] = <int8_t> <uint8_t> ((cm[2] >> 24) & 0xFF)
            else:
                av[0] = 0
                av[1] = 0
                deep = _deep_extra(s, C, m, rotations(s, m, 1), hv, &ct, av)
                o.ahead[0] = av[0] if av[0] < 127 else 127
                o.ahead[1] = av[1] if av[1] < 127 else 127
                if cm != NULL:
                    cm[2] = ((<uint64_t> 1 << 63) | <uint64_t> <uint16_t> <int16_t> deep
                             | (<uint64_t> <uint8_t> o.ahead[0] << 16) | (<uint64_t> <uint8_t> o.ahead[1] << 24))
            if deep > room:
                dmg += deep - room
                ub = finish_bound(s, &o.hs, sump, maxp, dmg if dmg > ds else ds, &slack)
                room = deep
            if s.wear_look >= 4 and ub > s.e_alpha and ub != NEG and (s.lenient or (s.strict_relax & 2)):
                # the wear of the strongest weapon, for every child that may still beat
                # alpha (the co-op default, wear_look 5: cheaper with its memo than node()
                # looking at the ones searched, wear_look 1-2)
                if cm != NULL and ((cm[2] >> 62) & 1):
                    wear = <int> <int16_t> <uint16_t> ((cm[2] >> 32) & 0xFFFF)
                else:
                    wear = wear_extra(s, C, m, rotations(s, m, 1), hv, &ct)
                    if cm != NULL:
                        cm[2] |= (<uint64_t> 1 << 62) | (<uint64_t> <uint16_t> <int16_t> wear << 32)
                if wear > room:
                    dmg += wear - room
                    ub = finish_bound(s, &o.hs, sump, maxp, dmg if dmg > ds else ds, &slack)
            if slot >= 0:
                s.m_dmg[slot] = dmg
                s.m_room[slot] = -1     # done
                s.m_ahead[slot][0] = o.ahead[0]
                s.m_ahead[slot][1] = o.ahead[1]
        if ub == NEG:
            # no win left: the finer loss bound, from the cards themselves
            if not have_ct:
                _child_tally(t, o, &ct)
            ub = bound(s, &ct, &o.hs, &slack)
            if s.no_win and (s.loss_all & 2) and S != NULL and ub > s.e_alpha:
                # every line is lost: the order of the cards too (_bounds.loss_refine)
                if not have_c:
                    m = _child_cards(S, n, o, C)
                    have_c = True
                ub = loss_refine(s, &ct, &o.hs, C, m, rotations(s, m, 1), ub)
            if s.no_win and room > 0:
                # the order (loss_all + 4): the damage the child's room forces too
                # (forced_extra, computed above for it; measured: co-op 52 strict deal 3
                # 3.55 M -> 1.09 M nodes)
                slack -= room
        o.ub = ub
        if slack > 400:
            slack = 400
        if slack < -400:
            slack = -400
        o.order = ub * 1024 + slack + 400
    s.m_used = 0


cdef int rotations(Search *s, int n, int avoid_ok) noexcept nogil:
    """How many rotations of S can be faced: avoiding is a rotation by four."""
    if n <= 4 or not avoid_ok or s.flee == 2:
        return 1
    if s.flee == 1 and not s.coop:
        return n // _gcd(n, 4)
    return 2


cdef void begin_room(Search *s, int depth, int leader, bint final, Tally *t) noexcept nogil:
    """Start collecting the outcomes of one room into ``out[depth]``; ``t``
    counts the cards of the room start (room and dungeon)."""
    s.stamp += 1
    s.e_tally = t
    s.e_ptally = t[0]
    s.e_alpha = NEG
    s.e_pruned = NEG
    s.e_ahead_on = 0
    s.e_buf = s.out[depth]
    s.e_count = 0
    s.e_best_terminal = NEG
    s.e_terminal_idx = -1
    s.e_leader = leader
    s.e_final = final
    s.e_rot = 0


cdef int enumerate_room(Search *s, int depth, int n, Heroes *hs, int leader, int nrot,
                        Tally *t, int alpha) noexcept nogil:
    """The outcomes of the room start in ``S[depth]`` (faced after 0 to
    ``nrot - 1`` avoids) into ``out[depth]``, merged, rated and unsorted.
    Outcomes whose bound is <= ``alpha`` may be left out (NEG: list all);
    ``e_pruned`` then holds the largest bound of those left out."""
    cdef int8_t *S = s.S[depth]
    cdef int i, r, nroom = 4 if n > 4 else n
    cdef uint8_t takes[4]
    cdef int8_t room[4]
    begin_room(s, depth, leader, n <= 4, t)
    s.e_alpha = alpha
    if s.ahead_prune and s.lenient and alpha > NEG and nrot <= 2 and s.pend_ahead != NULL:
        # (the rooms ahead as the parent's rating found them: no second look)
        s.e_dx = ahead_parts(s, hs, t, s.e_cglob)
        s.e_ahead[0] = s.pend_ahead[0]
        s.e_ahead[1] = s.pend_ahead[1]
        s.e_ahead_on = 1
    s.pend_ahead = NULL
    for r in range(nrot):
        s.e_rot = r
        for i in range(nroom):
            room[i] = S[(4 * r + i) % n]
        enum_takes(s, room, nroom, 0, nroom if n <= 4 else 3, hs[0], 0, 0, t.mtot, takes, 0, -1, 0, 0, 0, 0)
    i = compact(s, s.e_buf, s.e_count)
    rate_outcomes(s, s.e_buf, i, t, s.S[depth], n)
    return i
