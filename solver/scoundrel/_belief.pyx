# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The exact belief-state search in C: what a player who cannot see the order achieves.

Same game and objective as ``solver.belief.BeliefReference`` (read its docstring
first) and ``solver.beliefsearch.BeliefSearch`` (the pure-Python search this
replaces in the real-table hint); ``CoreBeliefSearch`` in ``beliefsearch.py`` is
its Python face (the root's actions through the rules engine).

This module is the Python-facing API (``BeliefEngine``: the rules, the knobs, the
counters, the entries from Python); the search is in parts, each a file named for what it
owns, sharing one struct (``_belief_state.pxd``) as the core's parts share ``Search``:

* ``_belief_types.pxd``  the card classes, ``n!`` and the exact values (``__int128``);
* ``_belief_memo``       the memo of belief values and its 128-bit keys;
* ``_belief_enum``       what can come next: the ways to take a room (``_rooms.enum_takes``,
  Pareto fronts) and the deals of the next room by class (ordered or as multisets);
* ``_belief_leaves``     the positions of perfect information (no unseen card, or one class
  of them), solved by the core's own search (``_search``), memoised;
* ``_belief_bounds``     the depth-limited mode's clairvoyant values past the horizon
  (enumerated or sampled orders: upper bounds);
* ``_belief_search``     the driver: a belief valued at each room start as the better of
  taking the room and avoiding it, chance nodes between, the limits.

**Values** are exact integers: a belief with ``n`` unseen cards averages the ``n!``
equally likely orders, so its (wins, score sum) times ``n!`` are whole numbers, compared
lexicographically, as the reference.
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, int8_t
from ._types cimport MAXN, Heroes, Tally, _canon
from ._belief_types cimport NCLS, MAXUNSEEN, REP, i128, _cls, _rep, _swap_heroes
from ._belief_state cimport Belief
from ._belief_memo cimport MEntry, memo_init, memo_free
from ._belief_enum cimport enum_init, enum_free, load_unseen, tally_belief
from ._belief_leaves cimport leaves_init, leaves_free, position_value
from ._belief_bounds cimport order_seed, shuffle_order
from ._belief_search cimport begin_call, tick, room_value, face_value, chance_value


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


cdef class BeliefEngine:
    """The search over beliefs of one rule set; its memo lives as long as it does.

    Python passes card codes (``Card.index``) and heroes as (health, weapon,
    last kill) tuples (``_core._heroes_of``); values come back as Python ints
    ``(wins, score sum)`` scaled by ``n!`` (``n`` the unseen cards).
    """
    cdef Belief b

    def __cinit__(self, int coop, int lenient, int flee, double tt_mb=64.0, int horizon=-1,
                  int samples=100, uint64_t rng_seed=1, int enumerate_limit=720, int common_orders=0,
                  int prune=1):
        self.b.memo.tab = NULL
        self.b.coop = coop
        self.b.lenient = lenient
        self.b.flee = flee
        self.b.nheroes = 2 if coop else 1
        leaves_init(&self.b, tt_mb)
        enum_init(&self.b)
        self.b.horizon = horizon
        self.b.samples = samples
        self.b.rng_seed = rng_seed
        self.b.common_orders = common_orders != 0
        self.b.enumerate_limit = enumerate_limit
        self.b.prune = prune != 0
        self.b.cuts = 0
        self.b.bound_errors = 0
        memo_init(&self.b.memo)

    def __dealloc__(self):
        leaves_free(&self.b)
        enum_free(&self.b)
        memo_free(&self.b.memo)

    # ---------------------------------------------- the knobs and the counters
    @property
    def horizon(self):
        """-1: exact; else the deals searched exactly (the depth-limited mode)."""
        return self.b.horizon

    @horizon.setter
    def horizon(self, int v):
        self.b.horizon = v

    @property
    def samples(self):
        return self.b.samples

    @samples.setter
    def samples(self, int v):
        self.b.samples = v

    @property
    def enumerate_limit(self):
        return self.b.enumerate_limit

    @enumerate_limit.setter
    def enumerate_limit(self, int v):
        self.b.enumerate_limit = v

    @property
    def rng_seed(self):
        return self.b.rng_seed

    @rng_seed.setter
    def rng_seed(self, uint64_t v):
        self.b.rng_seed = v

    @property
    def common_orders(self):
        """The sampled orders seeded by the unseen cards alone."""
        return self.b.common_orders

    @common_orders.setter
    def common_orders(self, bint v):
        self.b.common_orders = v

    @property
    def prune(self):
        """Cut off, past the horizon, the candidates whose bound cannot beat the best so far
        (the same values; fewer orders solved)."""
        return self.b.prune

    @prune.setter
    def prune(self, bint v):
        self.b.prune = v

    @property
    def cuts(self):
        """Candidates cut off by their bound (``prune``)."""
        return self.b.cuts

    @property
    def bound_errors(self):
        """Orders whose exact score was above the bound a cut relied on: never (tested)."""
        return self.b.bound_errors

    @property
    def beliefs(self):
        """Room-start beliefs expanded (memo misses)."""
        return self.b.beliefs

    @beliefs.setter
    def beliefs(self, long long v):
        self.b.beliefs = v

    @property
    def leaves(self):
        """Perfect-information leaves solved by the core."""
        return self.b.leaves

    @leaves.setter
    def leaves(self, long long v):
        self.b.leaves = v

    @property
    def chance_nodes(self):
        return self.b.chance_nodes

    @chance_nodes.setter
    def chance_nodes(self, long long v):
        self.b.chance_nodes = v

    @property
    def clair_leaves(self):
        """Chance nodes valued clairvoyantly (past the horizon)."""
        return self.b.clair_leaves

    @clair_leaves.setter
    def clair_leaves(self, long long v):
        self.b.clair_leaves = v

    @property
    def core_nodes(self):
        return self.b.core_nodes

    @core_nodes.setter
    def core_nodes(self, long long v):
        self.b.core_nodes = v

    @property
    def sampled(self):
        """Some clairvoyant value was sampled, not enumerated."""
        return self.b.sampled

    @sampled.setter
    def sampled(self, bint v):
        self.b.sampled = v

    @property
    def aborted(self):
        """0 none, 1 beliefs, 2 time, 3 a leaf not proven, 6 Ctrl-C."""
        return self.b.aborted

    @aborted.setter
    def aborted(self, int v):
        self.b.aborted = v

    @property
    def memo_entries(self):
        return self.b.memo.used

    @property
    def memo_bytes(self):
        return (self.b.memo.mask + 1) * sizeof(MEntry)

    @property
    def core_table_bytes(self):
        from ._table import TT_ENTRY_BYTES
        return self.b.core.tt.buckets * 4 * TT_ENTRY_BYTES

    # ------------------------------------------------------- Python entries
    cdef int _heroes(self, list heroes, int leader, Heroes *hs, int *potion_mask) except -1:
        cdef int i
        memset(hs, 0, sizeof(Heroes))
        for i in range(len(heroes)):
            hs.hp[i] = heroes[i][0]
            hs.w[i] = heroes[i][1]
            hs.k[i] = heroes[i][2]
        if self.b.coop and leader == 1:
            _swap_heroes(hs)
            potion_mask[0] = ((potion_mask[0] & 1) << 1) | ((potion_mask[0] >> 1) & 1)
        return 0

    cdef _finish(self, i128 w, i128 s):
        if self.b.aborted == 6:
            raise KeyboardInterrupt
        if self.b.aborted:
            return None
        return (_py(w), _py(s))

    def belief_value(self, list room, int taken, int potion_mask, int help_used, list unseen, list bottom,
                     list heroes, int leader, int avoided_last, long long max_beliefs=0, double timeout=0.0):
        """The value of a belief (part-way through a room or at its start), times
        ``n!``: ``(wins, score sum)``, or None when the budget ran out (``aborted``)."""
        cdef Heroes hs
        cdef i128 w = 0, s = 0
        cdef int i, nroom = len(room), pm = potion_mask
        cdef int8_t rm[4]
        cdef Belief *b = &self.b
        begin_call(b, max_beliefs, timeout)
        load_unseen(b, unseen, bottom)
        self._heroes(heroes, leader, &hs, &pm)
        for i in range(nroom):
            rm[i] = _rep(room[i])
        _canon_all(b, &hs, rm, nroom, b.bot[0], b.nbot[0])
        if b.n == 0 or b.ncls <= 1:
            position_value(b, rm, nroom, taken, pm, help_used, &hs, avoided_last, &w, &s)
        elif taken == 0 and nroom == 4:
            memcpy(b.rows[0], rm, 4)
            room_value(b, 0, &hs, avoided_last, 0, &w, &s)
        elif tick(b) == 0:
            face_value(b, 0, rm, nroom, 3 - taken, pm, help_used, &hs, 0, &w, &s)
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
        cdef Belief *b = &self.b
        begin_call(b, max_beliefs, timeout)
        load_unseen(b, unseen, bottom)
        self._heroes(heroes, 0, &hs, &pm)
        for i in range(len(prefix)):
            pre[i] = _rep(prefix[i])
        _canon_all(b, &hs, pre, len(prefix), b.bot[0], b.nbot[0])
        chance_value(b, 0, pre, len(prefix), b.bot[0], b.nbot[0], &hs, leader, avoided_last, 0, 0, NULL, &w, &s)
        return self._finish(w, s)

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
        st = order_seed(&self.b, pre, len(prefix), labels, nd, bot, len(full))
        out = []
        for i in range(self.b.samples):
            shuffle_order(&st, labels, nd)
            out.append([REP[labels[j]] for j in range(nd)])
        return out


cdef void _canon_all(Belief *b, Heroes *hs, int8_t *row, int nrow, int8_t *bot, int nbot) noexcept:
    """The heroes' weapons rewritten for the monsters left (``_types._canon``), as
    the room enumeration leaves every outcome: equal beliefs, equal keys."""
    cdef Tally t
    tally_belief(b, row, nrow, bot, nbot, &t)
    _canon(hs, t.mmask, b.nheroes, b.lenient)
