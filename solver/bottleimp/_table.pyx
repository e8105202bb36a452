# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The transposition table of trick boundaries: its memory, probing, storing, replacement.

An entry holds a 64-bit key (bits 45-58: the coins of A and of B, ``PAST_MASK``) (``_bounds.tt_key``: the cards in play, price, holder, leader
and the coins still open), a lower and an upper bound on the value (less the key's
offset), the best card found there, the generation it was stored in and the log2 of the
nodes searched below it.  Entries are 16 bytes, four to a bucket of one cache line.

Generations.  The key names the cards in play, not whose they are: that is fixed within a
generation (the positions of one deal after one setup).  When cards change holdings (another
exchange of the same deal, another choice of open stacks) a new generation starts, and an
entry of one of the last ``RING`` generations still answers if every card of its key lies
in the same holding now as then (``usable``): the late positions of the 121 exchanges of a
Lopaka deal, once the passed cards are gone, are the same positions, and so are the late
positions of the worlds of a real-table hint (the devil's coins are in the key).  New rules
start afresh (``fresh``): older entries are void without touching memory; the memory is
cleared only when the 16-bit generation wraps.

Replacement: a store goes to the usable entry of the same key (its bounds narrowed and moved
to the current generation), else to an empty or unusable entry, else over the entry of
least work in the bucket.
"""
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libc.stdint cimport uint64_t, uint16_t
from ._types cimport Table, Entry, BUCKET, INF, RING, MAXHOLD


cdef int tt_init(Table *t, int log2_entries) except -1:
    cdef uint64_t n = 1ULL << log2_entries
    t.e = <Entry *> calloc(n, sizeof(Entry))
    if t.e == NULL:
        raise MemoryError(f"no memory for a transposition table of {n} entries")
    t.mask = n - 1
    t.gen = 1
    t.first = 1
    t.soft = PAST_MASK
    memset(t.owners, 0, sizeof(t.owners))
    t.probes = t.hits = t.stores = t.replaced = t.other_devil = 0
    return 0


cdef void tt_free(Table *t) noexcept nogil:
    free(t.e)
    t.e = NULL


cdef void tt_new_generation(Table *t, bint fresh) noexcept nogil:
    """Start a generation (its holdings empty: the caller adds them to ``owners``); ``fresh``:
    no older entry may answer."""
    t.gen += 1
    if t.gen == 0:                  # wrapped: old stamps would come back to life
        memset(t.e, 0, (t.mask + 1) * sizeof(Entry))
        t.gen = 1
        fresh = 1
    if fresh:
        t.first = t.gen
    memset(t.owners[t.gen % RING], 0, sizeof(t.owners[0]))


cdef inline bint usable(Table *t, Entry *x) noexcept nogil:
    """Does entry x answer in the current generation?  Its own, or a recent one since the last
    fresh start in which every card of its key was in the same holding."""
    cdef uint16_t age
    cdef uint64_t live
    cdef int h
    if x.gen == t.gen:
        return 1
    age = <uint16_t> (t.gen - x.gen)
    if x.gen == 0 or age >= RING or age > <uint16_t> (t.gen - t.first):
        return 0
    live = x.key & LIVE_MASK
    for h in range(MAXHOLD):
        if (live & t.owners[x.gen % RING][h]) != (live & t.owners[t.gen % RING][h]):
            return 0
    return 1


cdef int tt_lookup(Table *t, uint64_t key, int f, int *lo, int *hi, int *best) noexcept nogil:
    """Bounds on the value (less the offset) of ``key`` from its bucket: its own entry, and
    entries of the same position with other coins won (``PAST_MASK``), whose bounds carry
    over widened by the difference (a coin more for A adds at most one to the margin and
    never takes one away; likewise for B).  1 if any entry answered.

    With ``USE_DEVIL`` (``t.soft`` holds ``DEVIL_MASK``) also entries of the same position with
    another devil's trick's coins (the worlds of a real-table hint), and the widening is by the
    final holder (``coin_shift``): tighter where the coins of A, of B and of the devil's trick all
    differ at once, as they do between two worlds that swapped a card between the opponent's
    hand and the devil's trick."""
    cdef Entry *b = tt_bucket(t, key)
    cdef int i, found = 0, da, db, dd, dlo, dhi, l, h
    cdef uint64_t soft = t.soft, base = key & ~soft
    cdef bint joint = (soft & DEVIL_MASK) != 0
    t.probes += 1
    lo[0] = -INF
    hi[0] = INF
    best[0] = -1
    for i in range(BUCKET):
        if (b[i].key & ~soft) != base or not usable(t, b + i):
            continue
        if b[i].key == key:
            l = b[i].lo
            h = b[i].hi
            best[0] = b[i].best
        else:
            da = <int> ((key >> 45) & 127) - <int> ((b[i].key >> 45) & 127)
            db = <int> ((key >> 52) & 127) - <int> ((b[i].key >> 52) & 127)
            if joint:
                dd = <int> (key >> 59) - <int> (b[i].key >> 59)
                if dd:
                    t.other_devil += 1
                coin_shift(f, da, db, dd, &dlo, &dhi)
                l = b[i].lo + dlo
                h = b[i].hi + dhi
            else:
                l = b[i].lo + (da if da < 0 else 0) - (db if db > 0 else 0)
                h = b[i].hi + (da if da > 0 else 0) - (db if db < 0 else 0)
            if best[0] < 0:
                best[0] = b[i].best
        if l > lo[0]:
            lo[0] = l
        if h < hi[0]:
            hi[0] = h
        found = 1
    if found:
        t.hits += 1
    return found


cdef inline void coin_shift(int f, int da, int db, int dd, int *lo, int *hi) noexcept nogil:
    """The least and the most the value changes by when A has won ``da`` coins more, B ``db``
    more and the devil's trick holds ``dd`` more (the coins of the key: a player's coins are in
    it only while that player's fate is open, ``_bounds.tt_key``).  Every final margin (§2.7)
    changes by ``-dd - db`` where A ends with the bottle, ``da + dd`` where B does, ``da - db``
    where Lopaka does; the value, a minimax of final margins, changes by an amount between the
    least and the most of those over the players who may still end with it (``f``,
    ``_bounds.fates``: 1 A, 4 B, 16 Lopaka; the same for every entry of one position, which
    names the same cards, price and holder)."""
    cdef int l = INF, h = -INF, x
    if f & 1:
        x = -dd - db
        l = x if x < l else l
        h = x if x > h else h
    if f & 4:
        x = da + dd
        l = x if x < l else l
        h = x if x > h else h
    if f & 16:
        x = da - db
        l = x if x < l else l
        h = x if x > h else h
    if l > h:                       # nobody may end with it: not at a boundary with cards left;
        l = -INF                    # nothing carries over
        h = INF
    lo[0] = l
    hi[0] = h


cdef inline int log2_work(long long work) noexcept nogil:
    cdef int w = 0
    while work > 1 and w < 255:
        work >>= 1
        w += 1
    return w


cdef void tt_store(Table *t, uint64_t key, int lo, int hi, int best, long long work) noexcept nogil:
    cdef Entry *b = tt_bucket(t, key)
    cdef Entry *slot = NULL
    cdef int i, w = log2_work(work)
    t.stores += 1
    for i in range(BUCKET):
        if b[i].key == key and usable(t, b + i):
            b[i].gen = t.gen
            if b[i].lo > lo:
                lo = b[i].lo
            if b[i].hi < hi:
                hi = b[i].hi
            if lo > hi:             # cannot happen for one key; keep the new bounds if it did
                lo = hi
            b[i].lo = lo
            b[i].hi = hi
            if best >= 0:
                b[i].best = best
            if w > b[i].work:
                b[i].work = w
            return
    for i in range(BUCKET):
        if not usable(t, b + i):
            slot = b + i
            break
    if slot == NULL:
        slot = b
        for i in range(1, BUCKET):
            if b[i].work < slot.work:
                slot = b + i
        t.replaced += 1
    slot.key = key
    slot.lo = lo
    slot.hi = hi
    slot.gen = t.gen
    slot.best = best
    slot.work = w
