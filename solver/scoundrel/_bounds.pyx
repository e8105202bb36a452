# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The upper bounds on the score from a position.

Owns three memos, each by an exact key of what it reads: the strict damage
(``Search.dm_key``), the loss bound (``lm_key``) and its refinement (``rf_key``);
otherwise pure functions of their arguments, of the rules in ``Search`` (coop,
lenient, flee, nheroes, horizon, wear_look, strict_relax, loss_all) and of
``Search.loss_phase`` and ``no_win``, which the driver sets per test.  They write
only their out-parameters and those memos.

``bound`` relaxes the order of the cards: health comes only from potions, and a
monster costs at least its value minus the best weapon that may meet it.
``forced_extra`` and ``deep_extra`` add the damage the room being faced, and
the rooms ahead, force beyond that relaxation (lenient durability); ``wear_extra``
(co-op) also follows the wear of the strongest weapon along the rooms ahead.  With
strict weapons those three are applied to the *lenient view* of the heroes
(``lenient_view``, ``strict_extra``; ``Search.strict_relax``).  When no win is left,
``_loss_bound`` (a fractional knapsack) bounds the best loss.  Once the driver has
proven the root lost (``no_win``), every position below it is lost too: then every
bound is the loss bound (no win bound's extras are computed), tightened by the order
of the cards (``loss_refine``).
"""
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t
from ._types cimport (MAXN, MAXHP, NEG, MONSTER, WEAPON, KIND, VALUE, Heroes, Tally, _usable, _tally,
                      __builtin_clz)
from libc.string cimport memset
from ._state cimport Search, DMEMO_BITS
from ._table cimport tt_key


cdef int _loss_bound(int8_t *val, int8_t *cost, int n, int budget, int mtot, int maxm) noexcept nogil:
    """Best possible loss score when no win is left.

    A lost game scores at most minus the monsters still untaken at the death.
    Before the fatal monster the heroes absorb at most ``budget`` damage
    (health above 1 plus every potion), and each monster costs at least its
    ``cost``; a fractional knapsack bounds the value that can be killed
    within the budget, and the fatal monster adds at most ``maxm``.
    """
    cdef int i, j, m = 0, killed = 0, left = budget
    cdef int8_t tv, tc
    # the free monsters first (most of them: those a diamond left kills), then the
    # others by most value per damage: insertion sort, n <= 64
    for i in range(n):
        if cost[i] == 0:
            killed += val[i]
        else:
            val[m] = val[i]
            cost[m] = cost[i]
            m += 1
    n = m
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


cdef void lenient_view(Heroes *hs, Heroes *out) noexcept nogil:
    """The heroes with each weapon's last kill one lower: read with lenient durability,
    each weapon may meet exactly the monsters it may meet now under strict durability
    (values below its last kill).  From there every strict line is a lenient line (a
    kill of u then allows values <= u where strict allows < u: only more), with the same
    damage, so any lenient bound of the lenient view bounds the strict value too."""
    cdef int j
    out[0] = hs[0]
    for j in range(2):
        if out.w[j]:
            out.k[j] -= 1


cdef int lenient_damage(Search *s, Tally *t, Heroes *hs) noexcept nogil:
    """``damage`` under lenient durability (whatever ``s.lenient``): the best weapon that
    may meet v meets every monster of value v, so only the strongest diamond counts, and
    the monsters it kills for free need no look."""
    cdef int v, hh, nd, best, dmg = 0
    cdef uint32_t mm
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


cdef inline int _held_for(Search *s, Heroes *hs, int v, bint lenient, int *cand) noexcept nogil:
    """The heroes' weapons that may meet a monster of value ``v`` into ``cand``, strongest
    first (two at most); returns how many."""
    cdef int hh, nw = 0
    for hh in range(s.nheroes):
        if _usable(hs.w[hh], hs.k[hh], v, lenient):
            cand[nw] = hs.w[hh]
            nw += 1
    if nw == 2 and cand[1] > cand[0]:
        cand[0], cand[1] = cand[1], cand[0]
    return nw


cdef inline int _next_best(int *cand, int nw, int *dia, int nd, int *ci, int *di) noexcept nogil:
    """The next weapon of the merge of ``cand[ci:nw]`` and ``dia[di:nd]`` (each strongest
    first; 0 when both are spent), advancing the index of the list it came from."""
    cdef int cbest = cand[ci[0]] if ci[0] < nw else 0
    cdef int dbest = dia[di[0]] if di[0] < nd else 0
    if cbest >= dbest:
        ci[0] += 1
        return cbest
    di[0] += 1
    return dbest


cdef inline int _diamonds(Tally *t, int *dia) noexcept nogil:
    """The diamonds counted by ``t`` into ``dia``, strongest first; returns how many."""
    cdef int v, i, nd = 0
    cdef uint32_t dm = t.dmask
    while dm:
        v = 31 - __builtin_clz(dm)
        dm &= ~(1u << v)
        for i in range(t.d[v]):
            dia[nd] = v
            nd += 1
    return nd


cdef int strict_damage(Search *s, Tally *t, Heroes *hs) noexcept nogil:
    """``damage`` under strict durability with no items wanted: the same sum, each copy of
    a monster value meeting its own weapon (the c best of the heroes' weapons that may
    meet it and the diamonds), but the values that c diamonds at least as strong kill for
    free are passed over (most of them: only the highest values cost).  The general path
    of ``damage`` stays for the items of the loss bound; ``tests/scoundrel/test_core.py`` holds
    the two equal."""
    cdef int dia[32]
    cdef int cand[2]
    cdef int nd, v, i, j = 0, c, nw, ci, di, best, dmg = 0
    cdef uint32_t mm
    nd = _diamonds(t, dia)
    mm = t.mmask
    while mm:
        v = 31 - __builtin_clz(mm)          # highest first: dia[:j] are the diamonds >= v
        mm &= ~(1u << v)
        while j < nd and dia[j] >= v:
            j += 1
        c = t.m[v]
        if j >= c:
            continue
        nw = _held_for(s, hs, v, 0, cand)
        ci = 0
        di = 0
        for i in range(c):
            best = _next_best(cand, nw, dia, nd, &ci, &di)
            if v > best:
                dmg += v - best
    return dmg


cdef inline void _damage_key(Search *s, Tally *t, Heroes *hs, uint64_t *k1, uint64_t *k2) noexcept nogil:
    """An exact key of what ``damage`` reads: the monsters and diamonds left
    (``Tally.mkey``, ``dkey``) and the weapons; not the health (bits 56-63 of ``k2``
    stay free)."""
    k1[0] = t.mkey | (<uint64_t> <uint8_t> hs.w[0] << 56)
    k2[0] = t.dkey | (<uint64_t> <uint8_t> hs.k[0] << 40)
    if s.nheroes == 2:
        k1[0] |= <uint64_t> <uint8_t> hs.w[1] << 60
        k2[0] |= <uint64_t> <uint8_t> hs.k[1] << 48


cdef inline int _strict_damage_memo(Search *s, Tally *t, Heroes *hs) noexcept nogil:
    """``strict_damage``, remembered (``Search.dm_key``/``dm_val``) by ``_damage_key``;
    not the health, which it does not read, so the many positions that differ in health
    only share it."""
    cdef uint64_t k1, k2
    cdef int slot, dmg
    _damage_key(s, t, hs, &k1, &k2)
    slot = <int> (((k1 * 0x9E3779B97F4A7C15ULL) ^ (k2 * 0xC2B2AE3D27D4EB4FULL)) >> (64 - DMEMO_BITS))
    if s.dm_key[slot][0] == k1 and s.dm_key[slot][1] == k2:
        return s.dm_val[slot]
    dmg = strict_damage(s, t, hs)
    s.dm_key[slot][0] = k1
    s.dm_key[slot][1] = k2
    s.dm_val[slot] = <int16_t> dmg
    return dmg


cdef bint strict_view_on(Search *s) noexcept nogil:
    """Whether the bounds look through the lenient view now: strict weapons, ``strict_relax``
    on, and (with its + 4) the loss phase."""
    return not s.lenient and s.strict_relax and (s.loss_phase or not (s.strict_relax & 4))


cdef int strict_extra(Search *s, Tally *t, Heroes *hs, int8_t *S, int n, int nrot) noexcept nogil:
    """Strict weapons (``strict_view_on``): how much more damage the lenient bounds of the
    lenient view (``lenient_view``: its lenient ``damage`` plus the larger of
    ``forced_extra`` and ``deep_extra``, and with ``strict_relax`` 3 and ``wear_look``
    also ``wear_extra``, with strict kills) force than the strict ``damage`` of ``hs``;
    0 when they force no more, or when the view is off.

    Both are lower bounds on the damage of a strict win, so the larger one is.  (The
    lenient extras are not added to the strict damage: each is an extra over the lenient
    relaxation, and the strict relaxation may count the same damage already -- a second
    copy of a value meeting a weaker weapon is also what the wear of the strongest one
    makes it do.)"""
    cdef Heroes hv
    cdef int a, b, c, dv, ds
    if S == NULL or not strict_view_on(s):
        return 0
    lenient_view(hs, &hv)
    a = forced_extra(s, S, n, nrot, &hv, t)
    b = deep_extra(s, S, n, nrot, &hv, t)
    c = wear_extra(s, S, n, nrot, &hv, t) if (s.wear_look and (s.strict_relax & 2)) else 0
    if b > a:
        a = b
    if c > a:
        a = c
    dv = lenient_damage(s, t, &hv) + a
    ds = _strict_damage_memo(s, t, hs)
    return dv - ds if dv > ds else 0


cdef int damage(Search *s, Tally *t, Heroes *hs, int *sump_out, int *maxp_out,
                int8_t *ival, int8_t *icost, int *nitems_out, int *maxm_out) noexcept nogil:
    """The unavoidable damage of the cards counted by ``t`` (see ``bound``).

    Also gives the potions' total and largest value, and, when ``ival`` is
    not NULL, the monsters as (value, least cost) items for ``_loss_bound``.
    """
    cdef int v, i, c, hh, sump = 0, maxp = 0, dmg = 0, nw, nd, di, ci, best
    cdef int cand[8]
    cdef int dia[32]
    cdef int nitems = 0, maxm = 0
    cdef uint32_t mm
    sump = t.psum
    if t.pmask:
        maxp = 31 - __builtin_clz(t.pmask)
    sump_out[0] = sump
    maxp_out[0] = maxp
    if ival == NULL:
        # no items wanted
        if s.lenient:
            return lenient_damage(s, t, hs)
        return _strict_damage_memo(s, t, hs)
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
        nw = _held_for(s, hs, v, s.lenient, cand)
        ci = 0
        di = 0
        for i in range(c):
            best = _next_best(cand, nw, dia, nd, &ci, &di)
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
    cdef int a, b, c, ub
    if s.no_win:
        ub = bound_plus(s, t, hs, 0, slack)      # the loss bound alone: no extra needed
    elif not s.lenient:
        ub = bound_plus(s, t, hs, strict_extra(s, t, hs, S, n, nrot), slack)
    else:
        a = forced_extra(s, S, n, nrot, hs, t)
        b = deep_extra(s, S, n, nrot, hs, t)
        c = wear_extra(s, S, n, nrot, hs, t) if s.wear_look else 0
        if b > a:
            a = b
        ub = bound_plus(s, t, hs, a if a > c else c, slack)
    if s.no_win and (s.loss_all & 2) and ub <= 0:
        ub = loss_refine(s, t, hs, S, n, nrot, ub)
    return ub


cdef int _loss_items_of(Search *s, Tally *t, Heroes *hs, int8_t *ival, int8_t *icost, int *nitems_out,
                        int *free_out) noexcept nogil:
    """The items of ``damage``'s general path that cost something, and the total value of
    the free ones (``free_out``), which the knapsack of ``_loss_bound`` takes first anyway:
    the values that diamonds at least as strong kill for free, one each (strict) or any
    number (lenient), are passed over as in ``strict_damage``.  Returns the damage (the
    items' total cost, as ``damage`` gives it)."""
    cdef int dia[32]
    cdef int cand[2]
    cdef int nd, v, i, j = 0, c, nw, ci, di, best, dmg = 0, nitems = 0, free = 0, cost
    cdef uint32_t mm
    nd = _diamonds(t, dia)
    mm = t.mmask
    while mm:
        v = 31 - __builtin_clz(mm)          # highest first: dia[:j] are the diamonds >= v
        mm &= ~(1u << v)
        while j < nd and dia[j] >= v:
            j += 1
        c = t.m[v]
        if j >= c or (s.lenient and j > 0):
            free += v * c
            continue
        nw = _held_for(s, hs, v, s.lenient, cand)
        ci = 0
        di = 0
        cost = 0
        for i in range(c):
            if i == 0 or not s.lenient:
                # (lenient: a weapon may meet any number of equal monsters, the same cost)
                best = _next_best(cand, nw, dia, nd, &ci, &di)
                cost = v - best if v > best else 0
            if cost:
                ival[nitems] = v
                icost[nitems] = cost
                nitems += 1
                dmg += cost
            else:
                free += v
    nitems_out[0] = nitems
    free_out[0] = free
    return dmg


cdef int _loss_memo(Search *s, Tally *t, Heroes *hs, int *slack) noexcept nogil:
    """The loss bound of ``bound_plus`` where no win is left (``no_win``), remembered
    (``Search.lm_key``) by ``_damage_key`` and the budget: the items and the budget are
    all it reads.  ``slack`` as ``finish_bound`` gives it."""
    cdef int dmg, nitems, maxm, budget, lb, slot, free
    cdef int8_t ival[64]
    cdef int8_t icost[64]
    cdef uint64_t k1, k2
    _damage_key(s, t, hs, &k1, &k2)
    if s.nheroes == 2:
        budget = hs.hp[0] + hs.hp[1] - 2 + t.psum
    else:
        budget = hs.hp[0] - 1 + t.psum
    k2 |= (<uint64_t> <uint8_t> budget) << 56
    slot = <int> (((k1 * 0xC2B2AE3D27D4EB4FULL) ^ (k2 * 0x9E3779B97F4A7C15ULL)) >> (64 - DMEMO_BITS))
    if s.lm_key[slot][0] == k1 and s.lm_key[slot][1] == k2:
        slack[0] = budget + (2 if s.nheroes == 2 else 1) - s.lm_dmg[slot]
        return s.lm_val[slot]
    dmg = _loss_items_of(s, t, hs, ival, icost, &nitems, &free)
    maxm = 31 - __builtin_clz(t.mmask) if t.mmask else 0
    lb = _loss_bound(ival, icost, nitems, budget, t.mtot - free, maxm)
    s.lm_key[slot][0] = k1
    s.lm_key[slot][1] = k2
    s.lm_val[slot] = <int16_t> lb
    s.lm_dmg[slot] = <int16_t> dmg
    slack[0] = budget + (2 if s.nheroes == 2 else 1) - dmg
    return lb


cdef int bound_plus(Search *s, Tally *t, Heroes *hs, int extra, int *slack) noexcept nogil:
    """``bound`` with ``extra`` more unavoidable damage for a win."""
    cdef int sump, maxp, dmg, nitems, maxm, ub
    cdef int8_t ival[64]
    cdef int8_t icost[64]
    if s.no_win:
        return _loss_memo(s, t, hs, slack)
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
        if h < 2 or s.no_win:
            if not s.loss_phase:
                return 0      # any loss scores <= 0; the finer bound only matters below 0
            return NEG
        return total if total < h else h
    h = hs.hp[0] + sump - dmg
    slack[0] = h
    if h <= 0 or s.no_win:
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
    here, so it still holds part-way through.  (``_loss_items`` takes its costs too, read
    on the lenient view with strict weapons.)"""
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
    """Damage the rooms ahead force beyond what ``damage`` counts (lenient; with strict
    weapons, of the lenient view: ``strict_extra``).

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
    if not (s.lenient or s.strict_relax):
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


cdef inline int _loss_items(Search *s, Heroes *h, Tally *tp, int8_t *ival, int8_t *icost,
                            int *maxm) noexcept nogil:
    """The monsters counted by ``tp`` as (value, relaxed cost) items for ``_loss_bound``: each
    costs what ``ahead_parts`` says (its value less the best of the strongest diamond of
    ``tp`` and the weapons of ``h`` that may meet it, read with lenient durability).
    Returns how many; ``maxm`` gets the largest value."""
    cdef int v, i, nitems = 0
    cdef int cglob[16]
    ahead_parts(s, h, tp, cglob)
    maxm[0] = 0
    for v in range(2, 16):
        if not tp.m[v]:
            continue
        maxm[0] = v
        for i in range(tp.m[v]):
            ival[nitems] = v
            icost[nitems] = cglob[v]
            nitems += 1
    return nitems


cdef int loss_refine(Search *s, Tally *t, Heroes *hs, int8_t *S, int n, int nrot, int lb) noexcept nogil:
    """The loss bound ``lb`` of the room start ``S[:n]`` (every line from it is lost),
    tightened by the order of the cards (``loss_all``).

    Split the lines by where they die.  Let ``q`` be the position of the strongest
    diamond among ``S[:L]`` (first ``L = n``).  A line that dies after ``S[q]`` is dealt
    and before ``S[L]`` is dealt has taken cards of ``S[:L]`` only, met no diamond above
    ``S[q]``, and healed from the potions of ``S[:L]`` only; and it has finished every
    room dealt before ``S[q]``, so it has paid their extra (``_deep_extra`` of ``S[:L]``:
    damage beyond each monster's relaxed cost, forced by the weaker weapons of those
    rooms; the room that deals ``S[q]`` has none), and none of those rooms' monsters
    was the fatal one.  So its kills before the death fit that budget less that extra:
    the knapsack of ``_loss_bound`` over the monsters of ``S[:L]`` with their relaxed
    costs (with strict weapons, of the heroes' lenient view, where every strict line is
    a lenient line of the same damage).  The lines that die before ``S[q]`` is dealt are
    those of ``L = q``, and so on down to a strongest diamond already dealt (or none).
    The best loss is at most the largest of these, and at most ``lb``.  Remembered
    (``Search.rf_key``) by the table key of the room start (its cards in order, the
    heroes but the first one's health, whether it may be avoided) and that health: all
    it reads (``lb`` is a function of them)."""
    cdef int b
    cdef uint64_t k1, k2
    cdef int slot
    if lb == NEG or n <= 4:
        return lb
    tt_key(S, n, hs, s.coop, 0, nrot - 1, &k1, &k2)
    k1 ^= <uint64_t> (hs.hp[0] + 1) * 0x9E3779B97F4A7C15ULL
    k2 ^= <uint64_t> (hs.hp[0] + 1) * 0xC2B2AE3D27D4EB4FULL
    slot = <int> (k1 >> (64 - DMEMO_BITS))
    if s.rf_key[slot][0] == k1 and s.rf_key[slot][1] == k2:
        return s.rf_val[slot]
    b = _loss_refine(s, t, hs, S, n, nrot, lb)
    s.rf_key[slot][0] = k1
    s.rf_key[slot][1] = k2
    s.rf_val[slot] = <int16_t> b
    return b


cdef int _loss_refine(Search *s, Tally *t, Heroes *hs, int8_t *S, int n, int nrot, int lb) noexcept nogil:
    """``loss_refine`` computed."""
    cdef Heroes hv
    cdef Heroes *h = hs
    cdef Tally tp
    cdef int i, nd, q, x, b, best = NEG, base, L = n, nitems, maxm
    cdef int8_t ival[64]
    cdef int8_t icost[64]
    if not s.lenient:
        lenient_view(hs, &hv)
        h = &hv
    base = hs.hp[0] + hs.hp[1] - 2 if s.coop else hs.hp[0] - 1
    tp = t[0]
    while True:
        x = 0
        q = -1
        nd = 0
        if tp.dmask:
            nd = 31 - __builtin_clz(tp.dmask)
            for i in range(L):
                if KIND[S[i]] == WEAPON and VALUE[S[i]] == nd:
                    q = i
                    break
            if q >= 4 and L > 4:
                x = _deep_extra(s, S, L, nrot, h, &tp, NULL)
        if base + tp.psum - x >= 0:
            nitems = _loss_items(s, h, &tp, ival, icost, &maxm)
            b = _loss_bound(ival, icost, nitems, base + tp.psum - x, t.mtot, maxm)
            if b > best:
                best = b
                if best >= lb:
                    return lb
        if q < 4:
            break
        # the lines that die before S[q] is dealt
        L = q
        _tally(S, L, &tp)
    return best if best < lb else lb


cdef int forced_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil:
    """Damage the next room forces beyond what ``damage`` counts (lenient; with strict
    weapons, of the lenient view: ``strict_extra``).

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
    if not (s.lenient or s.strict_relax):
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


cdef enum:
    W_FINAL = 0        # the final room: every card taken, none carried on
    W_NEW = 1          # a room without a carried card: one of its cards is carried on
    W_CARRY = 2        # a room with a carried card: it or one new card is carried on
    W_INF = 1000000


cdef inline int _wear_charge(int v, int u, int *e0end, int *e1) noexcept nogil:
    """The least extra of a monster of value ``v`` taken later than now, after
    every card of ``S`` has been dealt, by a chain whose last kill is ``u``."""
    if v <= u and e1[v] < e0end[v]:
        return e1[v]
    return e0end[v]


cdef inline int _room_monsters(int8_t *S, int lo, int hi, int avail, int *e0, int *e1, int *mv,
                               int *me0, int *mg, int *hasnon) noexcept nogil:
    """The monsters among the new cards ``S[lo:hi]`` of a faced room: their values ``mv``,
    their extra ``me0`` when the chain does not kill them, and what the chain saves by
    killing them ``mg`` (0 before its weapon is dealt, ``avail``); ``hasnon``: a card that is
    not a monster is among them.  Returns how many."""
    cdef int i, d, nm = 0
    hasnon[0] = 0
    for i in range(lo, hi):
        if KIND[S[i]] != MONSTER:
            hasnon[0] = 1
            continue
        mv[nm] = VALUE[S[i]]
        me0[nm] = e0[mv[nm]]
        d = me0[nm] - e1[mv[nm]]
        mg[nm] = d if (avail and d > 0) else 0
        nm += 1
    return nm


cdef int _wear_room(int8_t *S, int lo, int hi, int kind, int avail, int *e0, int *e1,
                    int *e0end, int *fin, uint32_t mask_in, int *fout, uint32_t *mask_out,
                    bint strict) noexcept nogil:
    """One faced room of ``_wear_extra``: the new cards ``S[lo:hi]`` taken in any order,
    from each chain state ``u`` in ``mask_in`` (cost ``fin[u]``) into ``fout``.  A monster
    taken here costs ``e0`` extra, or ``e1`` when the chain kills it (``avail``: the chain's
    weapon has been dealt; its kills in the room come in any order, so it may take every
    monster of values u' to u, ending at u'); the card carried on (``kind``) is charged as
    taken after the dungeon (``_wear_charge``) with the chain's new state.  Returns the
    least cost (for the final room).

    ``strict`` (strict weapons; the heroes are the lenient view, ``strict_extra``): the
    state is then the highest value the chain may still kill (the view's last kill), a
    kill of v leaves it at v - 1, and in one room the chain kills at most one monster of
    each value (strictly decreasing kills)."""
    cdef int mv[4]
    cdef int me0[4]
    cdef int mg[4]
    cdef int sa[4]
    cdef int nm, hasnon, i, j, ex, u, up, base, c, g, cost, tot, over, gx, anyg, best = W_INF
    cdef uint32_t mm = mask_in
    nm = _room_monsters(S, lo, hi, avail, e0, e1, mv, me0, mg, &hasnon)
    # what does not depend on the chain's state: ``tot`` the extra of the monsters taken
    # here when the chain kills nothing; ``sa[j]`` what it saves by killing every monster
    # of value at least ``mv[j]`` (those above its last kill and the one carried on are
    # taken off below)
    tot = 0
    anyg = 0
    for i in range(nm):
        tot += me0[i]
        anyg |= mg[i]
        g = 0
        if mg[i]:
            for j in range(nm):
                if mv[j] >= mv[i]:
                    g += mg[j]
        sa[i] = g
    while mm:
        u = 31 - __builtin_clz(mm)
        mm &= ~(1u << u)
        cost = fin[u]
        over = 0
        if anyg:
            for i in range(nm):
                if mv[i] > u:
                    over += mg[i]
        for ex in range(-1, nm):
            if kind == W_FINAL:
                if ex >= 0:
                    break
            elif kind == W_NEW and ex < 0 and not hasnon and hi - lo == 4:
                continue            # four monsters and no carried card: one of them stays
                                    # (fewer: the room is filled from the avoided cards)
            base = cost + tot - (me0[ex] if ex >= 0 else 0)
            # the chain kills nothing here
            c = base + (_wear_charge(mv[ex], u, e0end, e1) if ex >= 0 else 0)
            if c < fout[u]:
                fout[u] = c
                mask_out[0] |= 1u << u
            if c < best:
                best = c
            if not anyg:
                continue
            if strict:
                _wear_room_strict(mv, mg, nm, ex, u, base, e0end, e1, fout, mask_out, &best)
                continue
            # or it ends at the value of one of the monsters it may kill: it saves
            # what killing each monster from that value up to u saves
            gx = 0
            if ex >= 0 and mv[ex] <= u:
                gx = mg[ex]         # (the one carried on is not killed here)
            for j in range(nm):
                if j == ex or mg[j] == 0 or mv[j] > u:
                    continue
                up = mv[j]
                g = sa[j] - over - (gx if gx and mv[ex] >= up else 0)
                c = base - g + (_wear_charge(mv[ex], up, e0end, e1) if ex >= 0 else 0)
                if c < fout[up]:
                    fout[up] = c
                    mask_out[0] |= 1u << up
                if c < best:
                    best = c
    return best


cdef void _wear_room_strict(int *mv, int *mg, int nm, int ex, int u, int base, int *e0end,
                            int *e1, int *fout, uint32_t *mask_out, int *best) noexcept nogil:
    """``_wear_room``'s kills under strict durability, from chain state ``u`` with the
    monster ``ex`` carried on (-1: none) and ``base`` the room's cost when the chain
    kills nothing: for each lowest kill ``up`` (a value the chain may save on), the
    chain kills one monster of each value from ``up`` to ``u`` present in the room
    (beside the carried one), saving each value's gain once, and ends at ``up - 1``."""
    cdef int i, i2, j, up, g, c, nl
    cdef bint again
    for j in range(nm):
        if j == ex or mg[j] == 0 or mv[j] > u:
            continue
        up = mv[j]
        again = False
        for i in range(j):
            if i != ex and mv[i] == up:
                again = True        # the same lowest kill as an earlier monster
        if again:
            continue
        g = 0
        for i in range(nm):
            if i == ex or mv[i] < up or mv[i] > u:
                continue
            again = False
            for i2 in range(i):
                if i2 != ex and mv[i2] == mv[i]:
                    again = True    # this value is saved on once
            if not again:
                g += mg[i]
        nl = up - 1
        c = base - g + (_wear_charge(mv[ex], nl, e0end, e1) if ex >= 0 else 0)
        if c < fout[nl]:
            fout[nl] = c
            mask_out[0] |= 1u << nl
        if c < best[0]:
            best[0] = c


cdef inline uint32_t _wear_front(int *f, uint32_t mask) noexcept nogil:
    """The chain states of ``mask`` worth following: a chain whose last kill is lower
    (more worn) must cost strictly less than every less worn one, or it can do nothing
    they cannot do as cheaply (``_wear_charge`` and the kills allowed only grow with
    the last kill), so it is dropped: the least cost of the programme is unchanged."""
    cdef uint32_t mm = mask, keep = 0
    cdef int u, least = W_INF
    while mm:
        u = 31 - __builtin_clz(mm)
        mm &= ~(1u << u)
        if f[u] < least:
            least = f[u]
            keep |= 1u << u
    return keep


cdef inline void _wear_init(int *f, uint32_t *m) noexcept nogil:
    """A chain-state vector about to receive its first cost: all unreached."""
    cdef int v
    if m[0] == 0:
        for v in range(16):
            f[v] = W_INF


cdef inline void _wear_costs(int8_t *S, int pend, int *ho, int *dio, int *cg, int *e0) noexcept nogil:
    """``e0[v]``: the extra of a monster of value v taken in a room whose new cards end at
    ``S[pend]`` and not killed by X: it meets a weapon a hero holds or the best diamond
    dealt by then other than X."""
    cdef int v, w
    for v in range(2, 16):
        w = ho[v] if ho[v] > dio[pend] else dio[pend]
        e0[v] = (v - w if v > w else 0) - cg[v]


cdef void _wear_pool(int8_t *S, int lo, int hi, int *e0end, int *e1, int *fin, uint32_t mask_in,
                     int *fout, uint32_t *mask_out) noexcept nogil:
    """The cards ``S[lo:hi]`` avoided: each monster is charged as taken after the dungeon."""
    cdef int u, i, c
    cdef uint32_t mm = mask_in
    while mm:
        u = 31 - __builtin_clz(mm)
        mm &= ~(1u << u)
        c = fin[u]
        for i in range(lo, hi):
            if KIND[S[i]] == MONSTER:
                c += _wear_charge(VALUE[S[i]], u, e0end, e1)
        if c < fout[u]:
            fout[u] = c
            mask_out[0] |= 1u << u


cdef int wear_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil:
    """Damage the wear of the strongest weapon forces beyond what ``damage`` counts
    (co-op, lenient; ``wear_look``; with strict weapons, of the lenient view: ``strict_extra``).

    ``damage`` lets every monster meet the best weapon still to come, as often as
    it likes.  But a weapon's kills never increase (lenient: after a kill of u it
    meets nothing above u), and a diamond serves one hero from when it is dealt.
    Take the strongest weapon X (the strongest diamond left, or a weapon a hero
    holds, whichever saves more): a monster it does not kill meets at best another
    weapon, one a hero holds (worn no less) or a diamond dealt by then other than X,
    so it costs ``e0`` more than its relaxed cost; one X kills costs ``e1`` more
    (usually 0).  X's kills, in the order they are taken, never increase.
    So a programme over the rooms ahead, as ``_deep_extra`` (a face deals 3 new
    cards beside the carried one, an avoid 4, never two avoids in a row), with the
    last kill of X's chain in its state, finds the least extra over every way of
    facing and avoiding the rooms and of choosing X's kills.  Relaxed, hence a lower
    bound: the cards of a room are taken in any order; the card carried on and the
    cards of an avoided room are charged as if taken after the whole dungeon (when
    every diamond has been dealt), by a chain no more worn than it is when they
    leave (its last kill only falls); X counts as available from when it is dealt
    (even avoided); the other weapons' wear, and which hero takes what, are ignored.
    Once ``S`` runs out after an avoid, the cards left come from the avoided ones:
    the last rooms of ``S`` may carry a card on, and nothing after them is charged
    again.  Returns 0 when X's kills could save nothing anywhere (then
    ``_deep_extra`` is as strong).
    """
    cdef int v, hh, i, c, g, nd, nd2, best_pot, pot, xkind, xref, wx, ux, qx, e, dv, w
    cdef int p, mode, k, pend, slot, ns, result
    cdef int held[16]
    cdef int cg[16]
    cdef int ho[16]
    cdef int e0[16]
    cdef int e1[16]
    cdef int e0end[16]
    cdef int dio[MAXN + 1]
    cdef int F[8][3][16]
    cdef uint32_t M[8][3]
    cdef uint32_t mask
    cdef int G[16]
    cdef int H[16]
    cdef uint32_t gm, hm = 0
    cdef int nx, edio
    cdef bint strict = not s.lenient
    if not (s.lenient or s.strict_relax) or not s.coop or s.flee != 0:
        return 0
    nd = 31 - __builtin_clz(t.dmask) if t.dmask else 0
    nd2 = 0
    if t.dmask & ~(1u << nd):
        nd2 = 31 - __builtin_clz(t.dmask & ~(1u << nd))
    for v in range(16):
        w = 0
        for hh in range(2):
            if hs.w[hh] > w and v <= hs.k[hh]:
                w = hs.w[hh]
        held[v] = w
        g = nd if nd > w else w
        cg[v] = v - g if v > g else 0
    # X: the weapon whose chain could save the most (the gain of every monster
    # left, as if taken after the whole dungeon): -1 the strongest diamond, or a hero
    xkind = -2
    best_pot = 0
    for xref in range(-1, 2):
        if xref < 0:
            if nd == 0:
                continue
            wx, ux, dv = nd, 15, nd2
        else:
            if hs.w[xref] == 0:
                continue
            wx, ux, dv = hs.w[xref], (hs.k[xref] if hs.k[xref] < 15 else 15), nd
        pot = 0
        for v in range(2, ux + 1):
            if not t.m[v]:
                continue
            w = dv
            for hh in range(2):
                if hh != xref and hs.w[hh] > w and v <= hs.k[hh]:
                    w = hs.w[hh]
            e = (v - w if v > w else 0) - (v - wx if v > wx else 0)
            if e > 0:
                pot += e * t.m[v]
        if pot > best_pot:
            best_pot = pot
            xkind = xref
    if xkind == -2:
        return 0
    # the chain's weapon; ho[v]: the best other weapon a hero holds that may meet v;
    # dio[i]: the strongest diamond among S[:i] other than X
    qx = -1
    if xkind < 0:
        wx, ux = nd, 15
    else:
        wx, ux = hs.w[xkind], (hs.k[xkind] if hs.k[xkind] < 15 else 15)
    for v in range(16):
        w = 0
        for hh in range(2):
            if hh != xkind and hs.w[hh] > w and v <= hs.k[hh]:
                w = hs.w[hh]
        ho[v] = w
        e1[v] = (v - wx if v > wx else 0) - cg[v]
    dio[0] = 0
    for i in range(n):
        c = S[i]
        dio[i + 1] = dio[i]
        if KIND[c] == WEAPON:
            if xkind < 0 and qx < 0 and VALUE[c] == nd:
                qx = i
            elif VALUE[c] > dio[i]:
                dio[i + 1] = VALUE[c]
    for v in range(16):
        w = ho[v] if ho[v] > dio[n] else dio[n]
        e0end[v] = (v - w if v > w else 0) - cg[v]
    if s.wear_look & 2:
        return _wear_x(S, n, nrot, qx if xkind < 0 else -1, ux, ho, dio, cg, e1, e0end)
    for slot in range(8):
        M[slot][0] = M[slot][1] = M[slot][2] = 0
    result = W_INF
    # this room start's room S[:4], known card by card (a fresh room: one of its
    # cards is carried on, unless it is the final room)
    for v in range(16):
        G[v] = W_INF
    G[ux] = 0
    gm = 1u << ux
    pend = 4 if n > 4 else n
    _wear_costs(S, pend, ho, dio, cg, e0)
    edio = dio[pend]            # (e0 changes only with the diamond dealt by then)
    if n <= 4:
        return _wear_room(S, 0, n, W_FINAL, xkind >= 0 or qx < pend, e0, e1, e0end, G, gm,
                          H, &hm, strict)
    _wear_init(F[4][0], &M[4][0])
    _wear_room(S, 0, 4, W_NEW, xkind >= 0 or qx < 4, e0, e1, e0end, G, gm, F[4][0], &M[4][0], strict)
    if nrot > 1:
        # avoided: its cards come back after the dungeon
        _wear_init(F[4][2], &M[4][2])
        _wear_pool(S, 0, 4, e0end, e1, G, gm, F[4][2], &M[4][2])
    for p in range(4, n + 1):
        slot = p & 7
        for mode in range(3):
            mask = M[slot][mode]
            if not mask:
                continue
            M[slot][mode] = 0
            mask = _wear_front(F[slot][mode], mask)
            if p >= n:
                # S has run out after an avoid: what is left was charged already
                while mask:
                    v = 31 - __builtin_clz(mask)
                    mask &= ~(1u << v)
                    if F[slot][mode][v] < result:
                        result = F[slot][mode][v]
                continue
            k = 4 if mode == 2 else 3
            pend = p + k if p + k < n else n
            if dio[pend] != edio:
                edio = dio[pend]
                _wear_costs(S, pend, ho, dio, cg, e0)
            if pend == n and mode == 0:
                # nothing was avoided: the final room, every card taken
                c = _wear_room(S, p, pend, W_FINAL, xkind >= 0 or qx < pend, e0, e1, e0end,
                               F[slot][mode], mask, H, &hm, strict)
                if c < result:
                    result = c
                continue
            ns = pend & 7
            nx = 0 if mode == 0 else 1      # after a face: whether avoided cards wait
            _wear_init(F[ns][nx], &M[ns][nx])
            _wear_room(S, p, pend, W_NEW if mode == 2 else W_CARRY, xkind >= 0 or qx < pend,
                       e0, e1, e0end, F[slot][mode], mask, F[ns][nx], &M[ns][nx], strict)
            if mode != 2:
                # avoided (never twice in a row): its new cards come back after the
                # dungeon; the carried card was charged when it was carried on
                _wear_init(F[ns][2], &M[ns][2])
                _wear_pool(S, p, pend, e0end, e1, F[slot][mode], mask, F[ns][2], &M[ns][2])
    return result if result < W_INF else 0


# ---- wear_look 2: the carried card followed into the next room (_wear_x) ----

cdef enum:
    WX_INF = 0x3f3f3f3f


cdef inline void _wx_put(int *f, uint8_t *keys, int *cnt, int key, int cost) noexcept nogil:
    """Offer ``cost`` for the state ``key`` (u * 16 + pending) of one (position, mode)."""
    if cnt[0] == 0:
        memset(f, 0x3f, 256 * sizeof(int))
    if f[key] >= WX_INF:
        keys[cnt[0]] = key
        cnt[0] += 1
    if cost < f[key]:
        f[key] = cost


cdef int _wx_room(int8_t *S, int lo, int hi, int kind, int avail, int *e0, int *e1, int *e0end,
                  int *fin, uint8_t *kin, int cin, int *fout, uint8_t *kout, int *cout) noexcept nogil:
    """One faced room of ``_wear_x``: as ``_wear_room``, with the state (u, pending): a
    monster carried on that the chain is to kill (its value; 0 none) must be killed where
    it is taken (the next room, unless it stays again), by a chain no more worn than it,
    so the chain's kills before it stay at or above it.  A monster carried on that the
    chain will not kill is charged at once, as if taken after the dungeon."""
    cdef int mv[4]
    cdef int me0[4]
    cdef int mg[4]
    cdef int meg[4]
    cdef int nm, hasnon, i, j, q, key, u, pv, cost, stay, xr, lb, base, up, g, c
    cdef int best = WX_INF, nup, bet, npv, cc, ok
    cdef int ups[5]
    nm = _room_monsters(S, lo, hi, avail, e0, e1, mv, me0, mg, &hasnon)
    for i in range(nm):
        meg[i] = e0end[mv[i]] > e1[mv[i]]
    for q in range(cin):
        key = kin[q]
        u = key >> 4
        pv = key & 15
        cost = fin[key]
        # stay: -2 the carried card stays (or, without one, no monster of the room
        # stays: a non-monster or a card of the avoided ones), -3 a new non-monster
        # stays and the carried card is taken, j >= 0 the new monster j stays
        for stay in range(-3, nm):
            if kind == W_FINAL:
                if stay != -2:
                    continue
            elif kind == W_NEW:
                if stay == -3:
                    continue
                if stay == -2 and not hasnon and hi - lo == 4:
                    continue
            else:
                if stay == -3 and (not hasnon or pv == 0):
                    continue        # (without a pending card it is the same as -2)
            xr = pv > 0 and (stay != -2 or kind == W_FINAL)
            if xr and not avail:
                continue            # the chain's weapon is not dealt yet
            lb = pv if (pv > 0 and not xr) else 0
            base = cost
            for i in range(nm):
                if i != stay:
                    base += me0[i]
            # the chain's state after the room: unchanged, or the value of a kill
            nup = 0
            if xr:
                ups[nup] = pv
                nup += 1
            else:
                ups[nup] = u
                nup += 1
            if avail:
                for i in range(nm):
                    if i != stay and mg[i] > 0 and mv[i] <= u and mv[i] >= lb \
                            and (not xr or mv[i] <= pv):
                        ups[nup] = mv[i]
                        nup += 1
            for j in range(nup):
                up = ups[j]
                g = 0
                if avail:
                    for i in range(nm):
                        if i != stay and mv[i] >= up and mv[i] <= u:
                            g += mg[i]
                c = base - g
                if stay >= 0:
                    # the new monster carried on: charged now, or followed as the chain's
                    cc = c + e0end[mv[stay]]
                    _wx_put(fout, kout, cout, up << 4, cc)
                    if cc < best:
                        best = cc
                    if meg[stay] and mv[stay] <= up:
                        cc = c + e1[mv[stay]]
                        _wx_put(fout, kout, cout, (up << 4) | mv[stay], cc)
                        if cc < best:
                            best = cc
                else:
                    npv = pv if (stay == -2 and not xr) else 0
                    _wx_put(fout, kout, cout, (up << 4) | npv, c)
                    if c < best:
                        best = c
    return best


cdef void _wx_pool(int8_t *S, int lo, int hi, int *e0end, int *e1, int *fin, uint8_t *kin,
                   int cin, int *fout, uint8_t *kout, int *cout) noexcept nogil:
    """The cards ``S[lo:hi]`` avoided: each monster charged as taken after the dungeon; a
    pending carried card goes with them (the chain kills it there: already charged)."""
    cdef int q, key, u, i, c
    for q in range(cin):
        key = kin[q]
        u = key >> 4
        c = fin[key]
        for i in range(lo, hi):
            if KIND[S[i]] == MONSTER:
                c += _wear_charge(VALUE[S[i]], u, e0end, e1)
        _wx_put(fout, kout, cout, u << 4, c)


cdef int _wear_x(int8_t *S, int n, int nrot, int avail_from, int ux, int *ho, int *dio, int *cg,
                 int *e1, int *e0end) noexcept nogil:
    """``wear_extra`` with the carried card followed (``wear_look`` 2): the programme's
    state is (the chain's last kill, the value of a carried monster it is to kill)."""
    cdef int F[8][3][256]
    cdef uint8_t K[8][3][256]
    cdef int C[8][3]
    cdef int G[256]
    cdef uint8_t GK[256]
    cdef int gc = 0
    cdef int H[256]
    cdef uint8_t HK[256]
    cdef int hc
    cdef int e0[16]
    cdef int p, mode, k, pend, slot, ns, nx, q, result = WX_INF, c
    for slot in range(8):
        C[slot][0] = C[slot][1] = C[slot][2] = 0
    _wx_put(G, GK, &gc, ux << 4, 0)
    pend = 4 if n > 4 else n
    _wear_costs(S, pend, ho, dio, cg, e0)
    if n <= 4:
        hc = 0
        c = _wx_room(S, 0, n, W_FINAL, avail_from < pend, e0, e1, e0end, G, GK, gc, H, HK, &hc)
        return c if c < WX_INF else 0
    _wx_room(S, 0, 4, W_NEW, avail_from < 4, e0, e1, e0end, G, GK, gc, F[4][0], K[4][0], &C[4][0])
    if nrot > 1:
        _wx_pool(S, 0, 4, e0end, e1, G, GK, gc, F[4][2], K[4][2], &C[4][2])
    for p in range(4, n + 1):
        slot = p & 7
        for mode in range(3):
            if not C[slot][mode]:
                continue
            if p >= n:
                for q in range(C[slot][mode]):
                    c = F[slot][mode][K[slot][mode][q]]
                    if c < result:
                        result = c
                C[slot][mode] = 0
                continue
            k = 4 if mode == 2 else 3
            pend = p + k if p + k < n else n
            _wear_costs(S, pend, ho, dio, cg, e0)
            if pend == n and mode == 0:
                hc = 0
                c = _wx_room(S, p, pend, W_FINAL, avail_from < pend, e0, e1, e0end,
                             F[slot][mode], K[slot][mode], C[slot][mode], H, HK, &hc)
                if c < result:
                    result = c
                C[slot][mode] = 0
                continue
            ns = pend & 7
            nx = 0 if mode == 0 else 1
            _wx_room(S, p, pend, W_NEW if mode == 2 else W_CARRY, avail_from < pend, e0, e1, e0end,
                     F[slot][mode], K[slot][mode], C[slot][mode], F[ns][nx], K[ns][nx], &C[ns][nx])
            if mode != 2:
                _wx_pool(S, p, pend, e0end, e1, F[slot][mode], K[slot][mode], C[slot][mode],
                         F[ns][2], K[ns][2], &C[ns][2])
            C[slot][mode] = 0
    return result if result < WX_INF else 0
