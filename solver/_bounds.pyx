# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The upper bounds on the score from a position.

Owns nothing: pure functions of their arguments, of the rules in ``Search``
(coop, lenient, flee, nheroes, horizon) and of ``Search.loss_phase``, which the
driver sets per test.  They write only their out-parameters.

``bound`` relaxes the order of the cards: health comes only from potions, and a
monster costs at least its value minus the best weapon that may meet it.
``forced_extra`` and ``deep_extra`` add the damage the room being faced, and
the rooms ahead, force beyond that relaxation (lenient durability).  When no
win is left, ``_loss_bound`` (a fractional knapsack) bounds the best loss.
"""
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t
from ._types cimport (MAXN, MAXHP, NEG, MONSTER, WEAPON, KIND, VALUE, Heroes, Tally, _usable,
                      __builtin_clz)
from ._state cimport Search


cdef int _loss_bound(int8_t *val, int8_t *cost, int n, int budget, int mtot, int maxm) noexcept nogil:
    """Best possible loss score when no win is left.

    A lost game scores at most minus the monsters still untaken at the death.
    Before the fatal monster the heroes absorb at most ``budget`` damage
    (health above 1 plus every potion), and each monster costs at least its
    ``cost``; a fractional knapsack bounds the value that can be killed
    within the budget, and the fatal monster adds at most ``maxm``.
    """
    cdef int i, j, killed = 0, left = budget
    cdef int8_t tv, tc
    # most value per damage first (free monsters first): insertion sort, n <= 64
    for i in range(1, n):
        tv = val[i]
        tc = cost[i]
        j = i - 1
        while j >= 0 and <int> val[j] * tc < <int> tv * cost[j]:
            val[j + 1] = val[j]
            cost[j + 1] = cost[j]
            j -= 1
        val[j + 1] = tv
        cost[j + 1] = tc
    for i in range(n):
        if cost[i] <= left:
            killed += val[i]
            left -= cost[i]
        else:
            if left > 0:
                # fractional part, rounded up
                killed += (val[i] * left + cost[i] - 1) // cost[i]
            break
    killed += maxm
    if killed >= mtot:
        return 0
    return killed - mtot


cdef inline int _room_extra(int8_t *S, int lo, int hi, int avail, int *held, int *cglob,
                            int *top) noexcept nogil:
    """The extra damage (see ``deep_extra``) of the monsters in ``S[lo:hi]``
    taken when the best diamond dealt is ``avail``; ``top`` gets the largest one."""
    cdef int j, c, v, w, e, tot = 0
    top[0] = 0
    for j in range(lo, hi):
        c = S[j]
        if KIND[c] != MONSTER:
            continue
        v = VALUE[c]
        w = held[v] if held[v] > avail else avail
        e = (v - w if v > w else 0) - cglob[v]
        tot += e
        if e > top[0]:
            top[0] = e
    return tot


cdef int damage(Search *s, Tally *t, Heroes *hs, int *sump_out, int *maxp_out,
                int8_t *ival, int8_t *icost, int *nitems_out, int *maxm_out) noexcept nogil:
    """The unavoidable damage of the cards counted by ``t`` (see ``bound``).

    Also gives the potions' total and largest value, and, when ``ival`` is
    not NULL, the monsters as (value, least cost) items for ``_loss_bound``.
    """
    cdef int v, i, c, hh, sump = 0, maxp = 0, dmg = 0, nw, nd, di, ci, best, dbest, cbest
    cdef int cand[8]
    cdef int dia[32]
    cdef int nitems = 0, maxm = 0
    cdef uint32_t mm
    sump = t.psum
    if t.pmask:
        maxp = 31 - __builtin_clz(t.pmask)
    sump_out[0] = sump
    maxp_out[0] = maxp
    if s.lenient and ival == NULL:
        # lenient and no items wanted: the best weapon that may meet v meets
        # every monster of value v, so only the strongest diamond counts, and
        # the monsters it kills for free need no look
        nd = 31 - __builtin_clz(t.dmask) if t.dmask else 0
        mm = t.mmask & ~((2u << nd) - 1)
        while mm:
            v = 31 - __builtin_clz(mm)
            mm &= ~(1u << v)
            best = nd
            for hh in range(s.nheroes):
                if hs.w[hh] > best and v <= hs.k[hh]:
                    best = hs.w[hh]
            if v > best:
                dmg += (v - best) * t.m[v]
        return dmg
    # the diamonds still to come, strongest first
    nd = 0
    for v in range(10, 1, -1):
        for i in range(t.d[v]):
            dia[nd] = v
            nd += 1
    for v in range(2, 16):
        c = t.m[v]
        if not c:
            continue
        maxm = v
        # the c best weapons that may meet a monster of value v: merge the
        # current weapons allowed to hit v (at most two) with the diamonds
        nw = 0
        for hh in range(s.nheroes):
            if _usable(hs.w[hh], hs.k[hh], v, s.lenient):
                cand[nw] = hs.w[hh]
                nw += 1
        if nw == 2 and cand[1] > cand[0]:
            cand[0], cand[1] = cand[1], cand[0]
        ci = 0
        di = 0
        for i in range(c):
            cbest = cand[ci] if ci < nw else 0
            dbest = dia[di] if di < nd else 0
            if cbest >= dbest:
                best = cbest
                ci += 1
            else:
                best = dbest
                di += 1
            if s.lenient:
                # a weapon may meet any number of equal monsters
                if ival != NULL:
                    for hh in range(c):
                        ival[nitems] = v
                        icost[nitems] = v - best if v > best else 0
                        nitems += 1
                if v > best:
                    dmg += (v - best) * c
                break
            if ival != NULL:
                ival[nitems] = v
                icost[nitems] = v - best if v > best else 0
                nitems += 1
            if v > best:
                dmg += v - best
    if nitems_out != NULL:
        nitems_out[0] = nitems
        maxm_out[0] = maxm
    return dmg


cdef int bound(Search *s, Tally *t, Heroes *hs, int *slack) noexcept nogil:
    """An upper bound on the score of any line from here.

    Health only comes from potions, and some damage is unavoidable: a
    monster of value v costs at least v minus the weapon that meets it.
    Relaxing the order of the cards, each weapon (a diamond still to come,
    or a current weapon allowed to hit v) meets at most one monster of each
    value under strict durability, any number under lenient.  ``slack``
    receives the health that would be left (a move-ordering key).
    """
    return bound_plus(s, t, hs, 0, slack)


cdef int bound_at(Search *s, Tally *t, Heroes *hs, int8_t *S, int n, int nrot, int *slack) noexcept nogil:
    """``bound`` at a room start laid out in ``S``: with the damage its room forces."""
    cdef int a = forced_extra(s, S, n, nrot, hs, t)
    cdef int b = deep_extra(s, S, n, nrot, hs, t)
    return bound_plus(s, t, hs, a if a > b else b, slack)


cdef int bound_plus(Search *s, Tally *t, Heroes *hs, int extra, int *slack) noexcept nogil:
    """``bound`` with ``extra`` more unavoidable damage for a win."""
    cdef int sump, maxp, dmg, nitems, maxm, ub
    cdef int8_t ival[64]
    cdef int8_t icost[64]
    dmg = damage(s, t, hs, &sump, &maxp, NULL, NULL, NULL, NULL) + extra
    ub = finish_bound(s, hs, sump, maxp, dmg, slack)
    if ub == NEG:
        # no win is left: the loss bound needs the monsters as items
        damage(s, t, hs, &sump, &maxp, ival, icost, &nitems, &maxm)
        if s.coop:
            return _loss_bound(ival, icost, nitems, hs.hp[0] + hs.hp[1] - 2 + sump, t.mtot, maxm)
        return _loss_bound(ival, icost, nitems, hs.hp[0] - 1 + sump, t.mtot, maxm)
    return ub


cdef int finish_bound(Search *s, Heroes *hs, int sump, int maxp, int dmg, int *slack) noexcept nogil:
    """``bound`` from its parts; NEG when only the finer loss bound can tell."""
    cdef int i, h, total
    if s.coop:
        total = 0
        for i in range(2):
            h = hs.hp[i] + sump
            total += MAXHP if h > MAXHP else h
        h = hs.hp[0] + hs.hp[1] + sump - dmg
        slack[0] = h
        if h < 2:
            if not s.loss_phase:
                return 0      # any loss scores <= 0; the finer bound only matters below 0
            return NEG
        return total if total < h else h
    h = hs.hp[0] + sump - dmg
    slack[0] = h
    if h <= 0:
        if not s.loss_phase:
            return 0
        return NEG
    if h >= MAXHP:
        return MAXHP + maxp
    return h


cdef int deep_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil:
    """See ``_deep_extra``."""
    return _deep_extra(s, S, n, nrot, hs, t, NULL)


cdef int ahead_parts(Search *s, Heroes *hs, Tally *t, int *cglob) noexcept nogil:
    """What ``enum_takes`` needs to bound a room part-way through (lenient only):
    ``cglob[v]`` the relaxed cost of a monster of value v here (its value minus
    the best of the heroes' weapons that may meet it and the strongest diamond
    left); returns the relaxed damage, the sum of ``cglob`` over the monsters left.

    Part-way through the room a monster still to come meets a weapon a hero
    holds now (worn no less) or a diamond still to come, so it costs at least
    ``cglob``.  The extra of the rooms after this one is not computed here: the
    parent's ``rate_outcomes`` found it already (``Outcome.ahead``, from
    ``_deep_extra``); the rooms after see the same weapons and diamonds as from
    here, so it still holds part-way through."""
    cdef int v, hh, w, g, nd, dmg = 0
    nd = 31 - __builtin_clz(t.dmask) if t.dmask else 0
    for v in range(16):
        cglob[v] = 0
    for v in range(2, 16):
        w = 0
        for hh in range(s.nheroes):
            if hs.w[hh] > w and v <= hs.k[hh]:
                w = hs.w[hh]
        g = nd if nd > w else w
        cglob[v] = v - g if v > g else 0
        dmg += cglob[v] * t.m[v]
    return dmg


cdef int _deep_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t,
                     int *ahead) noexcept nogil:
    """Damage the rooms ahead force beyond what ``damage`` counts (lenient only).

    ``damage`` lets every monster meet the best weapon still to come.  But
    a room that is faced is faced *now*: 3 of its cards are taken (all of
    a final room), and a monster taken there meets a weapon a hero holds
    or a diamond dealt by then, not one still to come.  The rooms ahead
    are the order of ``S``: facing a room deals 3 new cards beside the
    carried one, avoiding it (where allowed) sends it under the dungeon
    and deals 4 new cards.  So the least extra damage over every way of
    facing and avoiding the rooms ahead, until the strongest diamond has
    been dealt (after which nothing is extra), adds to the unavoidable
    damage of a win.  Relaxed, hence a lower bound: in each faced room the
    new card with the largest extra may be the one carried on, the
    carried card itself costs nothing extra, avoided cards cost nothing
    extra, and every diamond dealt by then counts as available.
    ``ahead`` (when not NULL) gets the part of the rooms after this one,
    when this one is faced (``ahead[0]``) or the next one after an avoid
    (``ahead[1]``).
    """
    cdef int i, c, v, hh, nd, p, k, fresh, tot, top, w, g, stop, face, pend, res
    cdef int held[16]
    cdef int cglob[16]
    cdef int dia[MAXN + 1]
    cdef int f[2][MAXN + 8]
    if not s.lenient:
        return 0
    if (s.flee == 1 and not s.coop) or s.horizon == 0:
        return 0
    nd = 31 - __builtin_clz(t.dmask) if t.dmask else 0
    if nd == 0:
        return 0
    for v in range(2, 16):
        w = 0
        for hh in range(s.nheroes):
            if hs.w[hh] > w and v <= hs.k[hh]:
                w = hs.w[hh]
        held[v] = w
        g = nd if nd > w else w
        cglob[v] = v - g if v > g else 0
    # dia[i]: the strongest diamond among S[:i]; from ``stop`` on, it is nd
    dia[0] = 0
    stop = n
    for i in range(n):
        c = S[i]
        dia[i + 1] = dia[i]
        if KIND[c] == WEAPON and VALUE[c] > dia[i]:
            dia[i + 1] = VALUE[c]
        if dia[i + 1] == nd and stop == n:
            stop = i + 1
    if stop > 4 + s.horizon:
        stop = 4 + s.horizon
    # f[fresh][p]: the least extra from a room whose new cards start at S[p]
    # (fresh: 4 new cards after an avoid, else 3 beside the carried card)
    for p in range(stop, stop + 8):
        f[0][p] = 0
        f[1][p] = 0
    p = stop - 1
    while p >= 0:
        for fresh in range(2):
            k = 4 if fresh else 3
            pend = p + k if p + k < n else n
            tot = _room_extra(S, p, pend, dia[pend], held, cglob, &top)
            if p + k < n:
                tot -= top              # a non-final room: one card stays
                face = tot + f[0][p + k]
                # avoiding: not twice in a row (co-op, classic), never (hard)
                if not fresh and s.flee != 2 and f[1][p + k] < face:
                    face = f[1][p + k]
            else:
                face = tot              # the final room: every card taken
            f[fresh][p] = face
        p -= 1
    # this room start's room S[:4] is known card by card: as a fresh room,
    # avoidable when nrot > 1
    pend = 4 if n > 4 else n
    tot = _room_extra(S, 0, pend, dia[pend], held, cglob, &top)
    if n <= 4:
        return tot
    res = tot - top + (f[0][4] if 4 < stop else 0)
    if ahead != NULL:
        # the rooms after this one (faced now, or after one avoid: the avoided
        # cards then cost nothing extra, as in an avoid inside the programme)
        ahead[0] = f[0][4] if 4 < stop else 0
        ahead[1] = f[0][8] if 8 < stop and n > 8 else 0
    if nrot > 1:
        g = f[1][4] if 4 < stop else 0
        if g < res:
            res = g
    return res


cdef int forced_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil:
    """Damage the next room forces beyond what ``damage`` counts (lenient only).

    ``damage`` lets every monster meet the best weapon still to come.  But
    the room of this room start (or, after avoids, one of its ``nrot``
    rotations) must be faced now: 3 of its 4 cards taken (all of a final
    room), and a monster taken there meets a weapon the heroes hold or a
    diamond of the same room.  Its extra cost over the relaxed one adds to
    the unavoidable damage of a win; the card left behind is the one with
    the largest extra, and of the rotations the cheapest counts.
    """
    cdef int r, j, c, v, hh, nd, local, glob, cost, e, tot, top, best = 1000000
    cdef int nroom = 4 if n > 4 else n
    if not s.lenient:
        return 0
    nd = 31 - __builtin_clz(t.dmask) if t.dmask else 0
    for r in range(nrot):
        local = 0
        for j in range(nroom):
            c = S[(4 * r + j) % n]
            if KIND[c] == WEAPON and VALUE[c] > local:
                local = VALUE[c]
        tot = 0
        top = 0
        for j in range(nroom):
            c = S[(4 * r + j) % n]
            if KIND[c] != MONSTER:
                continue
            v = VALUE[c]
            cost = local
            glob = nd
            for hh in range(s.nheroes):
                if hs.w[hh] and v <= hs.k[hh]:
                    if hs.w[hh] > cost:
                        cost = hs.w[hh]
                    if hs.w[hh] > glob:
                        glob = hs.w[hh]
            cost = v - cost if v > cost else 0
            e = cost - (v - glob if v > glob else 0)
            tot += e
            if e > top:
                top = e
        if n > 4:
            tot -= top
        if tot < best:
            best = tot
            if best == 0:
                break
    return best
