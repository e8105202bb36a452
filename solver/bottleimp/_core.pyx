# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The Python face of the Bottle Imp's double-dummy core: one :class:`Core` holds a
transposition table and answers null-window tests and exact values of play-phase positions.

It speaks in card indexes and masks (``_types.pxd``); :mod:`.engine` translates states of
the rules engine to it and builds lines, card values and the matrix games on top.
"""
from libc.string cimport memset
from libc.stdint cimport uint64_t
from ._types cimport Engine, Pos, INF, NCARDS, RING, USE_TT, USE_ORDER, USE_EQUIV, USE_BOUNDS, USE_RANKS, USE_QUICK, USE_DEVIL
from ._table cimport tt_init, tt_free, tt_new_generation, PAST_MASK, DEVIL_MASK
from ._search cimport alphabeta, mtdf, terminal
from ._bounds cimport fates, quick_bounds, tt_key, prepare_ranks
from ._moves cimport seat_of, holding_of, legal_mask, lopaka_card, play, distinct_moves

FLAGS = {"tt": USE_TT, "order": USE_ORDER, "equiv": USE_EQUIV, "bounds": USE_BOUNDS, "ranks": USE_RANKS,
         "quick": USE_QUICK, "devil": USE_DEVIL}
ALL = USE_TT | USE_ORDER | USE_EQUIV | USE_BOUNDS | USE_RANKS | USE_QUICK | USE_DEVIL
INFINITY = INF


cdef class Core:
    """A search engine with its own table (``2 ** log2_entries`` entries of 16 bytes).

    ``set_rules`` fixes the variant and the card table (a change starts the table afresh)
    and the devil's coins (part of the key); ``set_position`` the play-phase position.  What the table learnt
    answers for every later position whose cards lie in the same holdings (``_table``).
    """
    cdef Engine e
    cdef Pos root
    cdef object rules_key

    def __cinit__(self, int log2_entries=20):
        memset(&self.e, 0, sizeof(Engine))
        memset(&self.root, 0, sizeof(Pos))
        tt_init(&self.e.tt, log2_entries)
        self.e.flags = ALL
        self.e.tt.soft = PAST_MASK | DEVIL_MASK
        self.rules_key = None

    def __dealloc__(self):
        tt_free(&self.e.tt)

    @property
    def flags(self):
        return self.e.flags

    @flags.setter
    def flags(self, int value):
        self.e.flags = value
        self.e.tt.soft = PAST_MASK | (DEVIL_MASK if value & USE_DEVIL else 0)   # the buckets change: start afresh
        self.forget()

    def forget(self):
        """Start the table afresh: nothing it learnt answers any more."""
        tt_new_generation(&self.e.tt, 1)

    cdef void _new_holdings(self) noexcept:
        """Cards changed holdings: a new generation, whose entries of cards in the same holdings
        as before still answer (``_table``)."""
        tt_new_generation(&self.e.tt, 0)

    def set_rules(self, bint glitz, coins, suits, int devil):
        """The variant, the card table (coins and suit numbers 0-2 of the 36 cards by index)
        and the coins of the devil's trick."""
        cdef int i, h
        self.e.devil = devil            # part of the table's key: no need to start afresh
        if self.rules_key is not None and self.rules_key[0] == bool(glitz) and self.rules_key[1] is coins \
                and self.rules_key[2] is suits:
            return                      # the same lists as last time (the engine keeps one pair per rules)
        key = (bool(glitz), coins, suits)
        if self.rules_key is not None and key[0] == self.rules_key[0] and list(coins) == list(self.rules_key[1]) \
                and list(suits) == list(self.rules_key[2]):
            self.rules_key = key
            return
        self.rules_key = key
        self.e.glitz = glitz
        self.e.size = 4 if glitz else 3
        self.e.nhold = 4 if glitz else 3
        self.e.seat_b = 1 if glitz else 2
        self.e.deck.suitmask[0] = self.e.deck.suitmask[1] = self.e.deck.suitmask[2] = 0
        memset(self.e.deck.coinmask, 0, sizeof(self.e.deck.coinmask))
        memset(self.e.deck.coinbit, 0, sizeof(self.e.deck.coinbit))
        for i in range(NCARDS):
            self.e.deck.coins[i] = coins[i]
            self.e.deck.suit[i] = suits[i]
            self.e.deck.suitmask[suits[i]] |= 1ULL << i
            self.e.deck.coinmask[coins[i]] |= 1ULL << i
            for h in range(3):
                if coins[i] >> h & 1:
                    self.e.deck.coinbit[h] |= 1ULL << i
        self.forget()

    def set_position(self, hands, trick, int pidx, int holder, int leader, won):
        """A play-phase position: the holdings' masks, the current trick's card indexes, the
        price as ``pidx``, the holder and leader seats (-1: nobody), the coins won by seat."""
        cdef int h, g, i
        cdef uint64_t mask
        memset(&self.root, 0, sizeof(Pos))
        self.root.left = 0
        cdef uint64_t *own = self.e.tt.owners[self.e.tt.gen % RING]
        for h in range(self.e.nhold):
            mask = hands[h]
            self.root.hand[h] = mask
            while mask:
                self.root.left += 1
                mask &= mask - 1
        for h in range(self.e.nhold):
            for g in range(self.e.nhold):
                if g != h and (self.root.hand[h] & own[g]):
                    self._new_holdings()
                    own = self.e.tt.owners[self.e.tt.gen % RING]
        mask = 0
        for h in range(self.e.nhold):
            mask |= self.root.hand[h] & ~own[h]
            own[h] |= self.root.hand[h]
        if mask:                        # the holdings grew: the relative ranks' twins with them
            prepare_ranks(&self.e)
        self.root.ntrick = len(trick)
        for i in range(self.root.ntrick):
            self.root.trick[i] = trick[i]
        self.root.pidx = pidx
        self.root.holder = holder
        self.root.leader = leader
        for i in range(len(won)):
            self.root.won[i] = won[i]

    @property
    def cpu_clock(self):
        """Is a deadline a time of this process's CPU clock (``time.process_time``) rather than
        of ``time.monotonic``?"""
        return bool(self.e.cpu_clock)

    @cpu_clock.setter
    def cpu_clock(self, bint value):
        self.e.cpu_clock = value

    def _budget(self, long long max_nodes, double deadline):
        self.e.max_nodes = self.e.nodes + max_nodes if max_nodes > 0 else 0
        self.e.deadline = deadline
        self.e.stopped = 0

    def test(self, int alpha, int beta, long long max_nodes=0, double deadline=0.0):
        """Alpha-beta on the window ``(alpha, beta)``: the fail-soft value, or None when the
        budget stopped it (then nothing is known)."""
        self._budget(max_nodes, deadline)
        cdef int v
        with nogil:
            v = alphabeta(&self.e, &self.root, alpha, beta)
        return None if self.e.stopped else v

    def solve(self, int guess=0, int lower=-INF, int upper=INF, long long max_nodes=0, double deadline=0.0):
        """``(lower, upper)``: the value when they are equal, else the bounds proven before the
        budget ran out.  ``lower``/``upper`` may start from bounds already known."""
        self._budget(max_nodes, deadline)
        cdef int lo = lower, hi = upper
        with nogil:
            mtdf(&self.e, &self.root, guess, &lo, &hi)
        return lo, hi

    def bounds(self):
        """The fast bounds of a position at a trick boundary (``_bounds.quick_bounds``)."""
        cdef int lo, hi
        if self.root.ntrick:
            return -INF, INF
        quick_bounds(&self.e, &self.root, fates(&self.e, &self.root), &lo, &hi)
        return lo, hi

    def key(self):
        """``(key, offset)``: the table's key of the position (at a trick boundary, else None) and
        the offset its values are stored less (``_bounds.tt_key``); positions of one key share an entry."""
        cdef int off = 0
        cdef uint64_t k
        if self.root.ntrick:
            return None
        k = tt_key(&self.e, &self.root, fates(&self.e, &self.root), &off)
        return k, off

    def moves(self):
        """The cards the search tries here (card indexes, ascending): Lopaka's one card, or the
        legal cards less equivalent ones."""
        cdef uint64_t m
        cdef int k = self.root.ntrick
        if self.root.left == 0:
            return []
        if not self.e.glitz and seat_of(&self.e, &self.root, k) == 1:
            return [lopaka_card(&self.e, &self.root)]
        m = distinct_moves(&self.e, &self.root, legal_mask(&self.e, &self.root, holding_of(&self.e, &self.root, k)))
        out = []
        while m:
            out.append(__builtin_ctzll(m))
            m &= m - 1
        return out

    @property
    def nodes(self):
        return self.e.nodes

    def stats(self):
        return {"nodes": self.e.nodes, "tt_probes": self.e.tt.probes, "tt_hits": self.e.tt.hits,
                "tt_stores": self.e.tt.stores, "tt_replaced": self.e.tt.replaced,
                "tt_entries": self.e.tt.mask + 1, "tt_other_devil": self.e.tt.other_devil, "cuts": self.e.cuts, "first_cuts": self.e.first_cuts}

    def reset_counters(self):
        self.e.nodes = 0
        self.e.cuts = self.e.first_cuts = 0
        self.e.tt.probes = self.e.tt.hits = self.e.tt.stores = self.e.tt.replaced = self.e.tt.other_devil = 0


cdef extern from *:
    int __builtin_ctzll(uint64_t) noexcept nogil
