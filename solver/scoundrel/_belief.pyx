# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The exact belief-state search in C: what a player who cannot see the order achieves.

Same game and objective as ``solver.belief.BeliefReference`` (read its docstring
first) and ``solver.beliefsearch.BeliefSearch`` (the pure-Python search this
replaces in the real-table hint); ``CoreBeliefSearch`` in ``beliefsearch.py`` is
its Python face (the root's actions through the rules engine).

**Beliefs at room starts.**  Inside a room the whole row is face up, so the only
chance events are the deals.  A belief is valued where a room starts: the heroes,
the face-up row, the unseen cards (class counts), the known bottom (in order,
under the unseen ones), whether the room may be avoided, and (co-op) the leader.
Its value is the better of

* **face**: every way to take the room (the orders of the takes, fight modes,
  the help card) is enumerated by the core's ``_rooms.enum_takes``, which keeps
  per carried card only the Pareto front of the heroes after the room (the
  belief value never decreases with more health, a stronger or less worn
  weapon: docs/hints.md, "Why the Pareto front is exact for beliefs") and only
  the best terminal score; each outcome that goes on is a chance node;
* **avoid** (when the rules allow it): the row goes under the known bottom, in
  row order, and a chance node deals the next room.

**Chance nodes** deal the next cards off the unseen ones (then off the known
bottom once they run out), merged by class (5♣ = 5♠: kind and value, all the
rules see).  The row's order matters only if the next room may be avoided (it
would go under in that order): then the draws are ordered class sequences;
otherwise they are multisets, each weighted by the ordered draws behind it
(``k! * prod C(N_i, c_i)``), and the row is sorted in the key.

**Values** are exact integers: a belief with ``n`` unseen cards averages the
``n!`` equally likely orders, so its (wins, score sum) times ``n!`` are whole
numbers (``__int128``: at most 30 unseen cards).  Compared lexicographically, as
the reference.  Memo: a 128-bit fingerprint of the class-merged key (as the
core's table), for room-start beliefs (face value on the sorted row, full value
on the ordered row when avoiding is allowed) and for leaves.

**Leaves**: a belief with no unseen card, or with one class of them (their order
is then known), is a position of perfect information: solved by the core's own
driver (``_search.run``) on a searcher this engine owns, memoised.

**Depth-limited mode** (``horizon`` h >= 0): exact for the next h deals; a chance
node deeper than that is valued by its *clairvoyant* value, the mean over the
orders of all its unseen cards of the exact optimum (every distinct order when
at most ``enumerate_limit``, else ``samples`` orders drawn with ``rng_seed``;
by default the draw is seeded by the chance node's known cards too, with
``common_orders`` by the unseen cards alone, so every chance node with the same
unseen cards uses the same orders: common random numbers, which make the
comparison of two actions less noisy than the figures themselves).
That is the clairvoyant value of each belief it would deal, averaged with the
deal's probabilities, so the result is the reference's depth-limited figure:
an upper bound on what a player achieves.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, int64_t, uint32_t, int16_t, int8_t, uint8_t
from ._types cimport (MAXN, MAXDEPTH, NEG, UNKNOWN, NO_BETA, FRESH, MAXHP, MONSTER, POTION, WEAPON, KIND, VALUE,
                      Heroes, Outcome, Tally, _now, _canon, _pack, _tally, _tally_card, _check_signals,
                      _clear_error)
from ._state cimport Search
from ._search cimport search_init, search_free, run as _core_run, node as _core_node
from ._rooms cimport enum_takes, compact, begin_room, rotations
from ._bounds cimport bound_at

cdef extern from *:
    ctypedef long long i128 "__int128"

cdef enum:
    NCLS = 48          # class = kind * 16 + value
    MAXUNSEEN = 30     # n! * score fits an __int128

cdef struct MEntry:
    uint64_t k1
    uint64_t k2
    i128 w
    i128 s

cdef i128 FACT[MAXUNSEEN + 1]
cdef i128 BINOM[8][8]
cdef int8_t REP[NCLS]        # a card code of each class


cdef void _init_tables():
    cdef int i, j, c
    FACT[0] = 1
    for i in range(1, MAXUNSEEN + 1):
        FACT[i] = FACT[i - 1] * i
    for i in range(8):
        for j in range(8):
            BINOM[i][j] = 0
        BINOM[i][0] = 1
        for j in range(1, i + 1):
            BINOM[i][j] = BINOM[i - 1][j - 1] + BINOM[i - 1][j]
    for i in range(NCLS):
        REP[i] = -1
    for c in range(52, -1, -1):     # the lowest code of each class
        REP[KIND[c] * 16 + VALUE[c]] = c


_init_tables()


cdef inline int _cls(int c) noexcept nogil:
    return KIND[c] * 16 + VALUE[c]


cdef inline int _rep(int c) noexcept nogil:
    return REP[_cls(c)]


cdef object _py(i128 v):
    """An ``__int128`` as a Python int."""
    cdef bint neg = v < 0
    cdef uint64_t lo, hi
    if neg:
        v = -v
    lo = <uint64_t> v
    hi = <uint64_t> (v >> 64)
    r = (int(hi) << 64) | int(lo)
    return -r if neg else r


cdef inline uint64_t _fmix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53ULL
    h ^= h >> 33
    return h


cdef inline void _shuffle(uint64_t *st, int *labels, int nd) noexcept nogil:
    """The next sampled order: ``labels`` shuffled in place (Fisher-Yates) from
    the stream ``st``."""
    cdef int i, j, c
    for i in range(nd - 1, 0, -1):
        st[0] += 0x9E3779B97F4A7C15ULL
        j = <int> (_fmix(st[0]) % <uint64_t> (i + 1))
        c = labels[i]
        labels[i] = labels[j]
        labels[j] = c


cdef inline void _mix(uint64_t *k1, uint64_t *k2, uint64_t x) noexcept nogil:
    k1[0] = _fmix(k1[0] ^ x) + 0x9E3779B97F4A7C15ULL
    k2[0] = _fmix((k2[0] + x) * 0xD6E8FEB86659FD93ULL) ^ 0x2545F4914F6CDD1DULL


cdef inline bint _lex_gt(i128 w1, i128 s1, i128 w2, i128 s2) noexcept nogil:
    return w1 > w2 or (w1 == w2 and s1 > s2)


cdef void _sort4(int8_t *r, int n) noexcept nogil:
    cdef int i, j
    cdef int8_t t
    for i in range(1, n):
        j = i
        while j > 0 and r[j - 1] > r[j]:
            t = r[j]
            r[j] = r[j - 1]
            r[j - 1] = t
            j -= 1


cdef class BeliefEngine:
    """The search over beliefs of one rule set; its memo lives as long as it does.

    Python passes card codes (``Card.index``) and heroes as (health, weapon,
    last kill) tuples (``_core._heroes_of``); values come back as Python ints
    ``(wins, score sum)`` scaled by ``n!`` (``n`` the unseen cards).
    """
    cdef Search core            # the leaves' searcher (its table carries over)
    cdef Search en              # the room enumerations: out[depth] per belief depth
    cdef int coop, lenient, flee, nheroes
    cdef int cnt[NCLS]          # the unseen cards by class (changed and restored in place)
    cdef int n                  # how many unseen
    cdef int ncls               # how many classes have cnt > 0
    cdef int8_t bot[MAXDEPTH][MAXN]
    cdef int nbot[MAXDEPTH]
    cdef int8_t rows[MAXDEPTH][4]
    cdef MEntry *tab
    cdef uint64_t tmask
    cdef long long tused
    # the budget and the counters
    cdef public long long beliefs     # room-start beliefs expanded (memo misses)
    cdef public long long leaves      # perfect-information leaves solved by the core
    cdef public long long chance_nodes
    cdef public long long clair_leaves
    cdef public long long core_nodes
    cdef long long stop_at
    cdef double deadline
    cdef public int aborted           # 0 none, 1 beliefs, 2 time, 3 a leaf not proven, 6 Ctrl-C
    # the depth-limited mode
    cdef public int horizon           # -1: exact
    cdef public int samples
    cdef public int enumerate_limit
    cdef public uint64_t rng_seed
    cdef public bint common_orders    # the sampled orders seeded by the unseen cards alone
    cdef public bint sampled          # some clairvoyant value was sampled, not enumerated
    cdef int8_t order[MAXN]           # scratch of the clairvoyant orders

    def __cinit__(self, int coop, int lenient, int flee, double tt_mb=64.0, int horizon=-1,
                  int samples=100, uint64_t rng_seed=1, int enumerate_limit=720, int common_orders=0):
        self.tab = NULL
        search_init(&self.core, coop, lenient, flee, tt_mb)
        search_init(&self.en, coop, lenient, flee, 1.0)
        self.coop = coop
        self.lenient = lenient
        self.flee = flee
        self.nheroes = 2 if coop else 1
        self.horizon = horizon
        self.samples = samples
        self.rng_seed = rng_seed
        self.common_orders = common_orders != 0
        self.enumerate_limit = enumerate_limit
        self.tmask = (1 << 16) - 1
        self.tab = <MEntry *> calloc(self.tmask + 1, sizeof(MEntry))
        if self.tab == NULL:
            raise MemoryError()
        self.tused = 0

    def __dealloc__(self):
        search_free(&self.core)
        search_free(&self.en)
        if self.tab != NULL:
            free(self.tab)

    @property
    def memo_entries(self):
        return self.tused

    @property
    def memo_bytes(self):
        return (self.tmask + 1) * sizeof(MEntry)

    @property
    def core_table_bytes(self):
        from ._table import TT_ENTRY_BYTES
        return self.core.tt.buckets * 4 * TT_ENTRY_BYTES

    # ------------------------------------------------------------ the memo
    cdef MEntry *_find(self, uint64_t k1, uint64_t k2) noexcept nogil:
        """The slot of key (k1, k2): found (k1 equal) or empty (k1 == 0)."""
        cdef uint64_t i = k2 & self.tmask
        while True:
            if self.tab[i].k1 == 0 or (self.tab[i].k1 == k1 and self.tab[i].k2 == k2):
                return &self.tab[i]
            i = (i + 1) & self.tmask

    cdef bint _recall(self, uint64_t k1, uint64_t k2, i128 *w, i128 *s) noexcept nogil:
        """The memo's value of a belief into ``w``/``s``, if it holds one."""
        cdef MEntry *e = self._find(k1, k2)
        if e.k1 == 0:
            return False
        w[0] = e.w
        s[0] = e.s
        return True

    cdef int _store(self, uint64_t k1, uint64_t k2, i128 w, i128 s) except -1:
        cdef MEntry *e
        cdef MEntry *old
        cdef uint64_t i, size
        if 2 * (self.tused + 1) > self.tmask + 1:
            size = self.tmask + 1
            old = self.tab
            self.tab = <MEntry *> calloc(2 * size, sizeof(MEntry))
            if self.tab == NULL:
                self.tab = old
                raise MemoryError("the belief memo cannot grow")
            self.tmask = 2 * size - 1
            for i in range(size):
                if old[i].k1 != 0:
                    self._find(old[i].k1, old[i].k2)[0] = old[i]
            free(old)
        e = self._find(k1, k2)
        if e.k1 == 0:
            self.tused += 1
        e.k1 = k1
        e.k2 = k2
        e.w = w
        e.s = s
        return 0

    cdef void _key(self, int kind, Heroes *hs, int8_t *row, int nrow, int avoid_ok, int deals,
                   int8_t *bot, int nbot, uint64_t *k1, uint64_t *k2) noexcept nogil:
        """The fingerprint of a belief (or leaf, ``kind`` 2) with the unseen cards ``cnt``."""
        cdef uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL, x
        cdef int i, j
        if self.horizon < 0:
            deals = 0
        elif deals > self.horizon + 1:
            deals = self.horizon + 1
        x = <uint64_t> kind | (<uint64_t> avoid_ok << 2) | (<uint64_t> nrow << 3) \
            | (<uint64_t> (deals & 255) << 8) | (_pack(hs) << 16)
        _mix(&a, &b, x)
        x = <uint64_t> nbot << 40
        for i in range(nrow):
            x |= (<uint64_t> <uint8_t> row[i]) << (8 * i)
        _mix(&a, &b, x)
        for j in range(3):
            x = 0
            for i in range(16):
                x |= (<uint64_t> self.cnt[16 * j + i]) << (4 * i)
            _mix(&a, &b, x)
        i = 0
        while i < nbot:
            x = 0
            for j in range(8):
                if i + j < nbot:
                    x |= (<uint64_t> <uint8_t> bot[i + j]) << (8 * j)
            _mix(&a, &b, x)
            i += 8
        if a == 0:
            a = 1
        k1[0] = a
        k2[0] = b

    # -------------------------------------------------------------- limits
    cdef int _tick(self) except -1:
        """Count a belief expanded; check the budget (the clock every 64)."""
        self.beliefs += 1
        if self.stop_at > 0 and self.beliefs > self.stop_at:
            self.aborted = 1
        elif (self.beliefs & 63) == 0:
            if self.deadline > 0 and _now() >= self.deadline:
                self.aborted = 2
            elif (self.beliefs & 4095) == 0 and _check_signals() != 0:
                _clear_error()
                self.aborted = 6
        return self.aborted

    cdef int _avoid_ok(self, int avoided_last) noexcept nogil:
        if self.coop:
            return not avoided_last
        if self.flee == 1:
            return 1
        if self.flee == 2:
            return 0
        return not avoided_last

    cdef void _tally_all(self, int8_t *row, int nrow, int8_t *bot, int nbot, Tally *t) noexcept nogil:
        cdef int i, j
        memset(t, 0, sizeof(Tally))
        for i in range(nrow):
            _tally_card(t, row[i], 1)
        for i in range(nbot):
            _tally_card(t, bot[i], 1)
        for i in range(NCLS):
            for j in range(self.cnt[i]):
                _tally_card(t, REP[i], 1)

    # --------------------------------------------------------------- leaves
    cdef int _core_value(self, int8_t *row, int nrow, int taken, int potion_mask, int help_used,
                         int8_t *dun, int ndun, Heroes *hs, int leader, int avoid_ok, int *score) except -1:
        """The exact optimum of a position of perfect information, by the core."""
        cdef double left = 0.0
        cdef int i, v
        cdef Search *c = &self.core
        if self.deadline > 0:
            left = self.deadline - _now()
            if left <= 0:
                self.aborted = 2
                return 0
        if taken == 0 and (nrow == 4 or ndun == 0):
            # a room start: the core's null-window tests straight on its node(), in
            # C (as _search.run, without its greedy first line and its Python lists:
            # these leaves are many and mostly small)
            c.max_nodes = 0
            c.deadline = self.deadline
            c.aborted = 0
            c.inc_found = 0
            c.inc_score = NEG
            c.inc_len = 0
            for i in range(nrow):
                c.S[0][i] = row[i]
            for i in range(ndun):
                c.S[0][nrow + i] = dun[i]
            v = self._core_tests(nrow + ndun, hs, leader, avoid_ok)
            self.core_nodes = c.nodes
            if c.aborted:
                if c.aborted == 6:
                    self.aborted = 6
                else:
                    self.aborted = 2 if c.aborted == 2 else 3
                return 0
            score[0] = v
            return 0
        heroes = []
        for i in range(self.nheroes):
            heroes.append((hs.hp[i], hs.w[i], hs.k[i]))
        out = _core_run(&self.core, [], [row[i] for i in range(nrow)], [dun[i] for i in range(ndun)], taken,
                        heroes, leader, potion_mask, help_used, avoid_ok, 0, left, 0, 0)
        self.core_nodes = self.core.nodes
        if out["aborted"]:
            self.aborted = 2 if out["aborted"] == 2 else 3
            return 0
        score[0] = out["value"]
        return 0

    cdef int _core_tests(self, int n, Heroes *hs, int leader, int avoid_ok) noexcept nogil:
        """The exact value of the room start ``core.S[0][:n]``: null-window tests
        down from its bound, as ``_search.run`` asks them; no win left: one full
        window for the best loss."""
        cdef Search *c = &self.core
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

    cdef int _leaf(self, int8_t *row, int nrow, int8_t *bot, int nbot, Heroes *hs, int avoid_ok,
                   i128 *w, i128 *s) except -1:
        """A room start whose unseen cards (``cnt``: none, or one class) lie in a known
        order: its exact (win, score) times ``n!``."""
        cdef uint64_t k1, k2
        cdef MEntry *e
        cdef int8_t r[4]
        cdef int8_t dun[MAXN]
        cdef int i, j, nd = 0, score = 0
        memcpy(r, row, nrow)
        if not avoid_ok:
            _sort4(r, nrow)
        self._key(2, hs, r, nrow, avoid_ok, 0, bot, nbot, &k1, &k2)
        e = self._find(k1, k2)
        if e.k1 == 0:
            for i in range(NCLS):
                for j in range(self.cnt[i]):
                    dun[nd] = REP[i]
                    nd += 1
            for i in range(nbot):
                dun[nd] = bot[i]
                nd += 1
            self.leaves += 1
            self._core_value(r, nrow, 0, 0, 0, dun, nd, hs, 0, avoid_ok, &score)
            if self.aborted:
                return 0
            self._store(k1, k2, 1 if score > 0 else 0, score)
            e = self._find(k1, k2)
        w[0] = e.w * FACT[self.n]
        s[0] = e.s * FACT[self.n]
        return 0

    # ------------------------------------------------------------ beliefs
    cdef int _room(self, int depth, Heroes *hs, int avoided_last, int deals, i128 *w, i128 *s) except -1:
        """The value (times ``n!``) of the room start ``rows[depth]`` (4 cards), the
        unseen ``cnt``, the bottom ``bot[depth]``, the leader hero 0."""
        cdef int8_t *row = self.rows[depth]
        cdef int avoid_ok = self._avoid_ok(avoided_last)
        cdef uint64_t k1 = 0, k2 = 0
        cdef i128 fw, fs, aw, aws
        cdef int8_t srt[4]
        if self.n == 0 or self.ncls <= 1:
            return self._leaf(row, 4, self.bot[depth], self.nbot[depth], hs, avoid_ok, w, s)
        if avoid_ok:
            self._key(0, hs, row, 4, 1, deals, self.bot[depth], self.nbot[depth], &k1, &k2)
            if self._recall(k1, k2, w, s):
                return 0
        # the face value: the row's order does not matter, only its cards
        memcpy(srt, row, 4)
        _sort4(srt, 4)
        self._face_memo(depth, srt, hs, deals, &fw, &fs)
        if self.aborted:
            return 0
        if not avoid_ok:
            w[0] = fw
            s[0] = fs
            return 0
        if self._tick():
            return 0
        # avoid: the row goes under the known bottom in row order, 4 cards are dealt
        self._chance(depth, row, 0, row, 4, hs, 0, 1, deals, 1, &aw, &aws)
        if self.aborted:
            return 0
        if _lex_gt(aw, aws, fw, fs):
            fw = aw
            fs = aws
        self._store(k1, k2, fw, fs)
        w[0] = fw
        s[0] = fs
        return 0

    cdef int _face_memo(self, int depth, int8_t *srt, Heroes *hs, int deals, i128 *w, i128 *s) except -1:
        cdef uint64_t k1, k2
        self._key(1, hs, srt, 4, 0, deals, self.bot[depth], self.nbot[depth], &k1, &k2)
        if self._recall(k1, k2, w, s):
            return 0
        if self._tick():
            return 0
        self._face(depth, srt, 4, 3, 0, 0, hs, deals, w, s)
        if self.aborted:
            return 0
        self._store(k1, k2, w[0], s[0])
        return 0

    cdef int _face(self, int depth, int8_t *room, int nroom, int to_take, int potion_mask, int help_used,
                   Heroes *hs, int deals, i128 *w, i128 *s) except -1:
        """Take ``to_take`` cards of ``room`` (not the final room): the best over the
        outcomes (Pareto fronts per carried card), each a chance node."""
        cdef Tally t
        cdef uint8_t takes[4]
        cdef int8_t rm[4]
        cdef int8_t carried[1]
        cdef int i, count
        cdef Outcome *o
        cdef i128 bw = 0, bs = 0, cw, cs
        cdef bint have = False
        if depth + 2 >= MAXDEPTH:
            raise RuntimeError("belief search too deep")
        memcpy(rm, room, nroom)
        self._tally_all(rm, nroom, self.bot[depth], self.nbot[depth], &t)
        begin_room(&self.en, depth, 0, False, &t)
        enum_takes(&self.en, rm, nroom, 0, to_take, hs[0], potion_mask, help_used, t.mtot, takes, 0,
                   -1, 0, 0, 0, 0)
        if self.en.aborted:
            raise RuntimeError("too many outcomes of one room")
        count = compact(&self.en, self.en.e_buf, self.en.e_count)
        for i in range(count):
            o = &self.en.out[depth][i]
            if o.terminal:
                cw = FACT[self.n] if o.score > 0 else 0
                cs = <i128> o.score * FACT[self.n]
            else:
                carried[0] = o.left
                self._chance(depth, carried, 1, self.bot[depth], self.nbot[depth], &o.hs,
                             1 if self.coop else 0, 0, deals, 0, &cw, &cs)
                if self.aborted:
                    return 0
            if not have or _lex_gt(cw, cs, bw, bs):
                bw = cw
                bs = cs
                have = True
        w[0] = bw
        s[0] = bs
        return 0

    # --------------------------------------------------------- chance nodes
    cdef int _chance(self, int depth, int8_t *prefix, int npre, int8_t *B, int nB, Heroes *hs0,
                     int leader, int avoided_last, int deals, int append_row, i128 *w, i128 *s) except -1:
        """Deal the next room after the room at ``depth``: ``prefix`` (the carried card,
        or nothing after an avoid) then the unseen cards, then the known bottom ``B``
        (after an avoid: the old bottom then ``prefix``'s row, ``append_row``).  The
        value times ``n!``."""
        cdef Heroes hs = hs0[0]
        cdef int need = 4 - npre, k, i, fill, nb, j
        cdef int8_t *cb = self.bot[depth + 1]
        cdef int8_t *row = self.rows[depth + 1]
        cdef int8_t tmp
        cdef int8_t full[MAXN]
        cdef int nfull = 0
        cdef int picked[4]
        self.chance_nodes += 1
        if self.coop and leader == 1:
            # the heroes are symmetric: the leader is always hero 0 here
            tmp = hs.hp[0]; hs.hp[0] = hs.hp[1]; hs.hp[1] = tmp
            tmp = hs.w[0]; hs.w[0] = hs.w[1]; hs.w[1] = tmp
            tmp = hs.k[0]; hs.k[0] = hs.k[1]; hs.k[1] = tmp
        # the known cards under the unseen ones, in order
        if append_row:
            memcpy(full, self.bot[depth], self.nbot[depth])
            nfull = self.nbot[depth]
            memcpy(full + nfull, prefix, 4)
            nfull += 4
            npre = 0
            need = 4
        else:
            memcpy(full, B, nB)
            nfull = nB
        if self.horizon >= 0 and deals + 1 > self.horizon:
            return self._clairvoyant(prefix, npre, full, nfull, &hs, avoided_last, w, s)
        k = need if need <= self.n else self.n
        fill = need - k
        if fill > nfull:
            fill = nfull
        nb = nfull - fill
        memcpy(cb, full + fill, nb)
        self.nbot[depth + 1] = nb
        memcpy(row, prefix, npre)
        for i in range(fill):
            row[npre + k + i] = full[i]
        w[0] = 0
        s[0] = 0
        self._draw(depth, npre, k, 0, k, npre + k + fill, 1, picked, &hs, avoided_last, deals,
                   self._avoid_ok(avoided_last) and (self.n - k + nb > 0), w, s)
        return 0

    cdef int _draw(self, int depth, int at, int k, int first_cls, int total_k, int nrow, i128 weight,
                   int *picked, Heroes *hs, int avoided_last, int deals, int ordered,
                   i128 *w, i128 *s) except -1:
        """Every class sequence (``ordered``) or multiset of the ``k`` cards still to
        deal into ``rows[depth + 1][at:]``, each child valued and weighted."""
        cdef int c, i, m, j
        cdef i128 cw = 0, cs = 0, wt
        cdef int8_t *row = self.rows[depth + 1]
        if k == 0:
            wt = weight
            if not ordered:
                # k! * prod C(N_i, c_i): the ordered draws behind this multiset
                wt = FACT[total_k]
                i = 0
                while i < total_k:
                    c = picked[i]
                    m = 0
                    while i < total_k and picked[i] == c:
                        m += 1
                        i += 1
                    wt *= BINOM[self.cnt[c] + m][m]
            if nrow < 4 or self.n == 0 or self.ncls <= 1:
                self._leaf(row, nrow, self.bot[depth + 1], self.nbot[depth + 1], hs,
                           self._avoid_ok(avoided_last) and (self.n + self.nbot[depth + 1] > 0), &cw, &cs)
            else:
                self._room(depth + 1, hs, avoided_last, deals + 1, &cw, &cs)
            if self.aborted:
                return 0
            w[0] += wt * cw
            s[0] += wt * cs
            return 0
        for c in range(0 if ordered else first_cls, NCLS):
            if self.cnt[c] == 0:
                continue
            m = self.cnt[c]
            row[at] = REP[c]
            picked[total_k - k] = c
            self.cnt[c] -= 1
            self.n -= 1
            if self.cnt[c] == 0:
                self.ncls -= 1
            self._draw(depth, at + 1, k - 1, c, total_k, nrow, weight * m if ordered else weight, picked,
                       hs, avoided_last, deals, ordered, w, s)
            if self.cnt[c] == 0:
                self.ncls += 1
            self.cnt[c] += 1
            self.n += 1
            if self.aborted:
                return 0
        return 0

    # --------------------------------------------------- clairvoyant values
    cdef int _clairvoyant(self, int8_t *prefix, int npre, int8_t *full, int nfull, Heroes *hs,
                          int avoided_last, i128 *w, i128 *s) except -1:
        """The mean over the orders of the unseen cards of the exact optimum of
        ``prefix`` + order + ``full`` dealt as a room start, times ``n!``."""
        cdef int i, j, c, nd, n = self.n
        cdef i128 distinct, mult, sw = 0, ss = 0
        cdef int labels[MAXN]
        cdef uint64_t st
        cdef int score = 0, count = 0
        cdef int8_t S[MAXN]
        self.clair_leaves += 1
        if self.deadline > 0 and _now() >= self.deadline:
            self.aborted = 2
            return 0
        distinct = FACT[n]
        mult = 1
        nd = 0
        for c in range(NCLS):
            distinct //= FACT[self.cnt[c]]
            mult *= FACT[self.cnt[c]]
            for j in range(self.cnt[c]):
                labels[nd] = c
                nd += 1
        memcpy(S, prefix, npre)
        if distinct <= self.enumerate_limit or distinct <= self.samples:
            self._orders(S, npre, 0, full, nfull, hs, avoided_last, &sw, &ss, &count)
            if self.aborted:
                return 0
            w[0] = sw * mult
            s[0] = ss * mult
            return 0
        # sampled: seeded by the rng seed and the position (the same leaf, the same orders)
        self.sampled = True
        st = self._order_seed(prefix, npre, labels, nd, full, nfull)
        for count in range(self.samples):
            _shuffle(&st, labels, nd)
            for i in range(nd):
                S[npre + i] = REP[labels[i]]
            self._order_value(S, npre + nd, full, nfull, hs, avoided_last, &score)
            if self.aborted:
                return 0
            sw += 1 if score > 0 else 0
            ss += score
        # n! * sum / samples, to the nearest integer (the figure is an estimate anyway)
        w[0] = _div_round(sw * FACT[n], self.samples)
        s[0] = _div_round(ss * FACT[n], self.samples)
        return 0

    cdef uint64_t _order_seed(self, int8_t *prefix, int npre, int *labels, int nd, int8_t *full,
                              int nfull) noexcept nogil:
        """The start of the sampled orders' stream at a chance node: the rng seed,
        the known cards above the unseen ones (``prefix``: the carried card), the
        unseen cards (``labels``, by class) and the known cards below (``full``);
        with ``common_orders`` the unseen cards alone."""
        cdef uint64_t st = self.rng_seed * 0x9E3779B97F4A7C15ULL
        cdef int i
        if not self.common_orders:
            for i in range(npre):
                st = _fmix(st ^ <uint64_t> (prefix[i] + 1))
        for i in range(nd):
            st = _fmix(st ^ <uint64_t> (labels[i] + 101))
        if not self.common_orders:
            for i in range(nfull):
                st = _fmix(st ^ <uint64_t> (full[i] + 211))
        return st

    def leaf_orders(self, list unseen, list prefix=None, list full=None):
        """The ``samples`` orders (lists of card codes, one card of each class) a
        sampled chance node with these ``unseen`` cards, the carried ``prefix``
        and the known ``full`` bottom draws (for tests: the clairvoyant value of
        such a node is the mean of the exact optimum over these orders)."""
        cdef int labels[MAXN]
        cdef int8_t pre[4]
        cdef int8_t bot[MAXN]
        cdef int cnt[NCLS]
        cdef int i, j, c, nd = 0
        cdef uint64_t st
        prefix = prefix or []
        full = full or []
        if len(unseen) > MAXUNSEEN or len(prefix) > 4 or len(full) + len(unseen) + 4 > MAXN:
            raise ValueError("too many cards")
        memset(cnt, 0, sizeof(cnt))
        for code in unseen:
            cnt[_cls(code)] += 1
        for c in range(NCLS):
            for j in range(cnt[c]):
                labels[nd] = c
                nd += 1
        for i in range(len(prefix)):
            pre[i] = _rep(prefix[i])
        for i in range(len(full)):
            bot[i] = _rep(full[i])
        st = self._order_seed(pre, len(prefix), labels, nd, bot, len(full))
        out = []
        for i in range(self.samples):
            _shuffle(&st, labels, nd)
            out.append([REP[labels[j]] for j in range(nd)])
        return out

    cdef int _orders(self, int8_t *S, int at, int c0, int8_t *full, int nfull, Heroes *hs, int avoided_last,
                     i128 *sw, i128 *ss, int *count) except -1:
        """Every distinct class order of the unseen cards after ``S[:at]``."""
        cdef int c, score = 0
        if self.n == 0:
            self._order_value(S, at, full, nfull, hs, avoided_last, &score)
            if self.aborted:
                return 0
            sw[0] += 1 if score > 0 else 0
            ss[0] += score
            count[0] += 1
            return 0
        for c in range(NCLS):
            if self.cnt[c] == 0:
                continue
            S[at] = REP[c]
            self.cnt[c] -= 1
            self.n -= 1
            self._orders(S, at + 1, c, full, nfull, hs, avoided_last, sw, ss, count)
            self.cnt[c] += 1
            self.n += 1
            if self.aborted:
                return 0
        return 0

    cdef int _order_value(self, int8_t *S, int m, int8_t *full, int nfull, Heroes *hs, int avoided_last,
                          int *score) except -1:
        """``S[:m]`` then ``full`` dealt as a room start, solved by the core (memoised)."""
        cdef int8_t all_[MAXN]
        cdef int tot = m + nfull, nrow, avoid_ok, i
        cdef uint64_t k1, k2
        cdef MEntry *e
        cdef int saved[NCLS]
        memcpy(all_, S, m)
        memcpy(all_ + m, full, nfull)
        nrow = 4 if tot >= 4 else tot
        avoid_ok = self._avoid_ok(avoided_last) and tot > 4
        # a leaf key with nothing unseen: the row, then the dungeon in order
        memcpy(saved, self.cnt, sizeof(saved))
        memset(self.cnt, 0, sizeof(saved))
        if not avoid_ok:
            _sort4(all_, nrow)
        self._key(2, hs, all_, nrow, avoid_ok, 0, all_ + nrow, tot - nrow, &k1, &k2)
        memcpy(self.cnt, saved, sizeof(saved))
        e = self._find(k1, k2)
        if e.k1 != 0:
            score[0] = <int> e.s
            return 0
        self.leaves += 1
        self._core_value(all_, nrow, 0, 0, 0, all_ + nrow, tot - nrow, hs, 0, avoid_ok, score)
        if self.aborted:
            return 0
        self._store(k1, k2, 1 if score[0] > 0 else 0, score[0])
        return 0

    # ------------------------------------------------------- Python entries
    cdef int _load(self, list unseen, list bottom, int depth) except -1:
        cdef int i, c
        if len(unseen) > MAXUNSEEN:
            raise OverflowError(f"more than {MAXUNSEEN} unseen cards")
        if len(bottom) + len(unseen) + 4 > MAXN:
            raise ValueError("too many cards")
        memset(self.cnt, 0, sizeof(self.cnt))
        self.n = 0
        self.ncls = 0
        for code in unseen:
            c = _cls(code)
            if self.cnt[c] == 0:
                self.ncls += 1
            self.cnt[c] += 1
            self.n += 1
        for i in range(len(bottom)):
            self.bot[depth][i] = _rep(bottom[i])
        self.nbot[depth] = len(bottom)
        return 0

    cdef int _heroes(self, list heroes, int leader, Heroes *hs, int *potion_mask) except -1:
        cdef int i
        cdef int8_t tmp
        memset(hs, 0, sizeof(Heroes))
        for i in range(len(heroes)):
            hs.hp[i] = heroes[i][0]
            hs.w[i] = heroes[i][1]
            hs.k[i] = heroes[i][2]
        if self.coop and leader == 1:
            tmp = hs.hp[0]; hs.hp[0] = hs.hp[1]; hs.hp[1] = tmp
            tmp = hs.w[0]; hs.w[0] = hs.w[1]; hs.w[1] = tmp
            tmp = hs.k[0]; hs.k[0] = hs.k[1]; hs.k[1] = tmp
            potion_mask[0] = ((potion_mask[0] & 1) << 1) | ((potion_mask[0] >> 1) & 1)
        return 0

    cdef _start(self, long long max_beliefs, double timeout):
        self.aborted = 0
        self.stop_at = self.beliefs + max_beliefs if max_beliefs > 0 else 0
        self.deadline = _now() + timeout if timeout > 0 else 0.0

    cdef _finish(self, i128 w, i128 s):
        if self.aborted == 6:
            raise KeyboardInterrupt
        if self.aborted:
            return None
        return (_py(w), _py(s))

    def belief_value(self, list room, int taken, int potion_mask, int help_used, list unseen, list bottom,
                     list heroes, int leader, int avoided_last, long long max_beliefs=0, double timeout=0.0):
        """The value of a belief (part-way through a room or at its start), times
        ``n!``: ``(wins, score sum)``, or None when the budget ran out (``aborted``)."""
        cdef Heroes hs
        cdef i128 w = 0, s = 0
        cdef int i, nroom = len(room), pm = potion_mask, score = 0
        cdef int8_t rm[4]
        cdef int8_t dun[MAXN]
        cdef int nd = 0, c, j, avoid_ok
        self._start(max_beliefs, timeout)
        self._load(unseen, bottom, 0)
        self._heroes(heroes, leader, &hs, &pm)
        for i in range(nroom):
            rm[i] = _rep(room[i])
        _canon_all(self, &hs, rm, nroom, self.bot[0], self.nbot[0])
        if self.n == 0 or self.ncls <= 1:
            for c in range(NCLS):
                for j in range(self.cnt[c]):
                    dun[nd] = REP[c]
                    nd += 1
            for i in range(self.nbot[0]):
                dun[nd] = self.bot[0][i]
                nd += 1
            avoid_ok = taken == 0 and nd > 0 and self._avoid_ok(avoided_last)
            self.leaves += 1
            self._core_value(rm, nroom, taken, pm, help_used, dun, nd, &hs, 0, avoid_ok, &score)
            return self._finish((1 if score > 0 else 0) * FACT[self.n], <i128> score * FACT[self.n])
        if taken == 0 and nroom == 4:
            memcpy(self.rows[0], rm, 4)
            self._room(0, &hs, avoided_last, 0, &w, &s)
        else:
            if self._tick() == 0:
                self._face(0, rm, nroom, 3 - taken, pm, help_used, &hs, 0, &w, &s)
        return self._finish(w, s)

    def deal_value(self, list prefix, list unseen, list bottom, list heroes, int leader, int avoided_last,
                   long long max_beliefs=0, double timeout=0.0):
        """The value, times ``n!``, of dealing the next room: ``prefix`` (the carried
        card, or nothing after an avoid) then the unseen cards (any order) then the
        known ``bottom`` (after an avoid, the avoided row already under it); the
        heroes and flags are those of the next room."""
        cdef Heroes hs
        cdef i128 w = 0, s = 0
        cdef int i, pm = 0
        cdef int8_t pre[4]
        self._start(max_beliefs, timeout)
        self._load(unseen, bottom, 0)
        self._heroes(heroes, 0, &hs, &pm)
        for i in range(len(prefix)):
            pre[i] = _rep(prefix[i])
        _canon_all(self, &hs, pre, len(prefix), self.bot[0], self.nbot[0])
        self._chance(0, pre, len(prefix), self.bot[0], self.nbot[0], &hs, leader, avoided_last, 0, 0, &w, &s)
        return self._finish(w, s)


cdef inline i128 _div_round(i128 a, int b) noexcept nogil:
    """a / b rounded to the nearest integer (halves away from zero)."""
    if a >= 0:
        return (a + b // 2) // b
    return -((-a + b // 2) // b)


cdef void _canon_all(BeliefEngine e, Heroes *hs, int8_t *row, int nrow, int8_t *bot, int nbot) noexcept:
    """The heroes' weapons rewritten for the monsters left (``_types._canon``), as
    the room enumeration leaves every outcome: equal beliefs, equal keys."""
    cdef Tally t
    e._tally_all(row, nrow, bot, nbot, &t)
    _canon(hs, t.mmask, e.nheroes, e.lenient)
