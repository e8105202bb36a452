# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The search core's Python-facing API: ``search``, ``decide``, ``new_searcher``, ``Searcher``.

Owns the ``Searcher`` object, which holds one ``Search`` (``_state.pxd``) and
hands its address to the parts; converts positions to card codes and results
to dicts.  No search logic lives here.  The parts, each in its own file:

* ``_table``  the transposition table and its keys;
* ``_rooms``  the enumeration of one room (outcomes, Pareto fronts, commuting takes);
* ``_bounds`` the upper bounds;
* ``_search`` the driver (node, the null-window tests, the incumbent, the limits);
* ``_shortest`` the second search, for the fewest rooms among the optimal lines.

The search mirrors the rules of ``solver.state`` (proven equal by the
differential tests against ``solver.reference``).  The unit of search is a
*room start*: the remaining cards ``S`` (room first, then the dungeon), the
heroes, the leader and whether the room may be avoided; see docs/solver.md.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.stdint cimport int8_t
from ._types cimport FRESH, MAXN, Heroes, Tally, _tally
from ._bounds cimport (bound_at as _bound_at, wear_extra as _wear_extra, lenient_view as _lenient_view,
                      damage as _damage)
from ._table cimport BUCKET, LOCKS, Entry, tt_grow, tt_free
from ._state cimport Search, MAXHELPERS
from ._search cimport search_init, search_free, run as _run, steps as _steps_of, line_run as _line_run
from ._shortest cimport shortest_run as _shortest_run, rooms_within_run as _rooms_within_run

from ._table import TT_ENTRY_BYTES, TT_BUCKET

PROGRESS_EVERY = 0.25   # seconds between progress reports within a test (a time check, not a count)


class _Reporter:
    """The progress callable as the driver calls it: an exception it raises
    (Ctrl-C while it runs, a closed terminal) is kept, the search stops as for
    Ctrl-C, and ``Searcher.run`` raises it again once the search has unwound."""

    def __init__(self, fn):
        self.fn = fn
        self.error = None

    def __call__(self, nodes, tests, lo, hi, incumbent):
        try:
            self.fn(nodes, tests, lo, hi, incumbent)
        except BaseException as exc:
            self.error = exc
            return True
        return False


cdef class Searcher:
    cdef Search st
    cdef public list test_log   # (alpha, result, nodes so far) of each test of the last run
    cdef object _reporter       # owns what st.report points to

    def __cinit__(self, int coop, int lenient, int flee, double tt_mb):
        self.test_log = []
        self._reporter = None
        search_init(&self.st, coop, lenient, flee, tt_mb)
        self.st.report = NULL
        self.st.report_every = PROGRESS_EVERY

    def __dealloc__(self):
        self._free_helpers()
        search_free(&self.st)

    cdef _free_helpers(self):
        cdef int i
        cdef Search *h
        for i in range(self.st.nhelpers):
            h = <Search *> self.st.helpers[i]
            if h != NULL:
                h.tt.e = NULL          # (the main thread's table: never freed here)
                search_free(h)
                free(h)
            self.st.helpers[i] = NULL
        self.st.nhelpers = 0
        if self.st.lock_mem != NULL:
            free(self.st.lock_mem)
            self.st.lock_mem = NULL

    @property
    def threads(self):
        """Threads of one search (1 + helpers): 1, or 2 to 8 sharing this searcher's
        table (lazy SMP, ``_search.smp_test``); the score is the same, node counts and
        the line found by the proof may depend on the timing."""
        return 1 + self.st.nhelpers

    @threads.setter
    def threads(self, int n):
        cdef int i
        cdef Search *h
        if n < 1 or n > MAXHELPERS + 1:
            raise ValueError(f"threads must be 1 to {MAXHELPERS + 1}")
        self._free_helpers()
        if n == 1:
            return
        self.st.lock_mem = <unsigned char *> calloc(LOCKS, 1)
        if self.st.lock_mem == NULL:
            raise MemoryError()
        for i in range(n - 1):
            h = <Search *> calloc(1, sizeof(Search))
            if h == NULL:
                raise MemoryError()
            self.st.helpers[i] = h
            self.st.nhelpers = i + 1
            search_init(h, self.st.coop, self.st.lenient, self.st.flee, 1)
            tt_free(&h.tt)             # it shares the main thread's table during a test

    @property
    def smp_from(self):
        """With threads: a test runs on them once the search has spent this many nodes."""
        return self.st.smp_from

    @smp_from.setter
    def smp_from(self, long long v):
        self.st.smp_from = v

    @property
    def smp_tests(self):
        """Tests of the last run that ran on the threads."""
        return self.st.smp_tests

    # the rules (read only) and the tuning knobs (see _search.search_init)
    @property
    def coop(self):
        return self.st.coop

    @property
    def lenient(self):
        return self.st.lenient

    @property
    def flee(self):
        """0 classic, 1 easy, 2 hard."""
        return self.st.flee

    @property
    def step(self):
        """How far below the proven upper bound the next test asks."""
        return self.st.step

    @step.setter
    def step(self, int v):
        self.st.step = v

    @property
    def zero_at(self):
        """No win found and the next test would ask <= this: ask 0 instead."""
        return self.st.zero_at

    @zero_at.setter
    def zero_at(self, int v):
        self.st.zero_at = v

    @property
    def wear_probes(self):
        """Per hero, how many less worn weapons the table is probed for."""
        return self.st.wear_probes

    @wear_probes.setter
    def wear_probes(self, int v):
        self.st.wear_probes = v

    @property
    def horizon(self):
        """Cards deep_extra looks ahead; 0: off."""
        return self.st.horizon

    @horizon.setter
    def horizon(self, int v):
        self.st.horizon = v

    @property
    def loss_probe(self):
        """No win left: first ask whether the best loss reaches the bound."""
        return self.st.loss_probe

    @loss_probe.setter
    def loss_probe(self, int v):
        self.st.loss_probe = v

    @property
    def ahead_prune(self):
        """Part-way through a room, bound with the rooms ahead too (``_rooms.ahead_bound``):
        0 off, 1 after the first and second take, 2 (co-op default) also before the last."""
        return self.st.ahead_prune

    @ahead_prune.setter
    def ahead_prune(self, int v):
        self.st.ahead_prune = v

    @property
    def wear_look(self):
        """Co-op, lenient: also bound a room start by the wear of the strongest weapon
        along the rooms ahead (``_bounds.wear_extra``), in node() where neither its
        parent's bound nor the table cut it: 0 off, 1 the chain alone, 2 also following
        the carried card; + 4 also in rate_outcomes for every child that may beat alpha
        (measured, slower)."""
        return self.st.wear_look

    @wear_look.setter
    def wear_look(self, int v):
        self.st.wear_look = v

    @property
    def strict_relax(self):
        """Strict weapons: also bound a room start by the lenient bounds (the room, the rooms
        ahead) of the heroes' lenient view, each last kill one lower
        (``_bounds.strict_extra``): 0 off, 1 on, + 2 also the wear of the strongest weapon
        with strict kills (``wear_extra``; measured, slower), + 4 only in the loss phase
        (no win left to find; 5 is the co-op strict default)."""
        return self.st.strict_relax

    @strict_relax.setter
    def strict_relax(self, int v):
        self.st.strict_relax = v

    @property
    def loss_all(self):
        """Once a search has proven its root lost (value <= 0), every position it reaches is
        lost too: 1 bounds each by the loss bound alone (skipping the win bound's extras,
        and remembering it by cards, weapons and budget), + 2 tightens it by the order of
        the cards (``_bounds.loss_refine``), + 4 orders the children by the damage their
        room forces too; 0 off, as daily methods v1/v2 search."""
        return self.st.loss_all

    @loss_all.setter
    def loss_all(self, int v):
        self.st.loss_all = v

    @property
    def no_win(self):
        """True while a search (a test of ``run``, or the canonical walk) knows its root
        lost and bounds by ``loss_all``; False between searches."""
        return bool(self.st.no_win)

    @property
    def wear_gap(self):
        """node() looks at the wear (``wear_look``) only when its bound is at most this
        above alpha."""
        return self.st.wear_gap

    @wear_gap.setter
    def wear_gap(self, int v):
        self.st.wear_gap = v

    @property
    def wear_cuts(self):
        """Room starts the wear look cut in node() (a counter, never reset by a search)."""
        return self.st.wear_cuts

    @wear_cuts.setter
    def wear_cuts(self, long long v):
        self.st.wear_cuts = v

    @property
    def order_salt(self):
        """0: children in the measured order; else the children of equal bound in
        another order, one per salt (tests: the outputs must not depend on it)."""
        return self.st.order_salt

    @order_salt.setter
    def order_salt(self, unsigned int v):
        self.st.order_salt = v

    # progress reports
    @property
    def progress(self):
        """A callable ``(nodes, tests, lo, hi, incumbent)`` or None, called after
        each test and within a test every ``progress_every`` seconds: ``lo..hi``
        are the bounds on the value proven so far (None: none yet), ``incumbent``
        the best line's score.  It only reads: the search is the same without
        it.  An exception it raises stops the search and is raised by run()."""
        return None if self._reporter is None else self._reporter.fn

    @progress.setter
    def progress(self, fn):
        if fn is None:
            self._reporter = None
            self.st.report = NULL
        else:
            if not callable(fn):
                raise TypeError("progress must be callable or None")
            self._reporter = _Reporter(fn)
            self.st.report = <void *> self._reporter

    @property
    def progress_every(self):
        return self.st.report_every

    @progress_every.setter
    def progress_every(self, double v):
        if not v >= 0:
            raise ValueError("progress_every must be >= 0 seconds")
        self.st.report_every = v

    # the counters
    @property
    def tests(self):
        return self.st.tests

    @tests.setter
    def tests(self, long long v):
        self.st.tests = v

    @property
    def nodes(self):
        return self.st.nodes

    @nodes.setter
    def nodes(self, long long v):
        self.st.nodes = v

    @property
    def aborted(self):
        """0 none, 1 nodes, 2 time, 3 depth, 4 outcomes, 6 Ctrl-C."""
        return self.st.aborted

    @aborted.setter
    def aborted(self, int v):
        self.st.aborted = v

    @property
    def tt_hits(self):
        return self.st.tt.hits

    @tt_hits.setter
    def tt_hits(self, long long v):
        self.st.tt.hits = v

    @property
    def tt_stores(self):
        return self.st.tt.stores

    @tt_stores.setter
    def tt_stores(self, long long v):
        self.st.tt.stores = v

    @property
    def tt_used(self):
        return self.st.tt.used

    @tt_used.setter
    def tt_used(self, long long v):
        self.st.tt.used = v

    @property
    def tt_replaced(self):
        return self.st.tt.replaced

    @tt_replaced.setter
    def tt_replaced(self, long long v):
        self.st.tt.replaced = v

    @property
    def tt_max_capacity(self):
        return self.st.tt.max_buckets * BUCKET

    @property
    def tt_capacity(self):
        return self.st.tt.buckets * BUCKET

    @property
    def tt_bytes(self):
        return self.st.tt.buckets * BUCKET * sizeof(Entry)

    @property
    def child_memo_slots(self):
        """Slots of each thread's memo of the children's rooms ahead (``_rooms._child_memo``,
        co-op), the main thread first; 0 where it is not allocated yet."""
        cdef int i
        cdef Search *h
        out = [(1 << self.st.wr_bits) if self.st.wr_key != NULL else 0]
        for i in range(self.st.nhelpers):
            h = <Search *> self.st.helpers[i]
            out.append((1 << h.wr_bits) if h.wr_key != NULL else 0)
        return out

    # for tests/scoundrel/test_memory.py: the table's bytes, and one doubling on demand
    def _tt_dump(self):
        return (<char *> self.st.tt.e)[:self.st.tt.buckets * BUCKET * sizeof(Entry)]

    def _tt_grow(self):
        tt_grow(&self.st.tt)

    cdef int _load(self, list cards, list heroes, int8_t *S, Heroes *hs, Tally *t) except -1:
        """The test hooks' arguments as the core's: the card codes into ``S`` (their count
        returned), the heroes as (health, weapon, last kill) into ``hs``, the tally of S."""
        cdef int i, n = len(cards)
        if n > MAXN:
            raise ValueError("too many cards")
        for i in range(n):
            S[i] = cards[i]
        for i in range(self.st.nheroes):
            hs.hp[i], hs.w[i], hs.k[i] = heroes[i]
        _tally(S, n, t)
        return n

    # for tests/scoundrel/test_core.py: _bounds.bound_at of a room start (card codes, room first;
    # heroes as (health, weapon, last kill); nrot 2 when the room may be avoided), with
    # this searcher's knobs (``extra_only``: _bounds.wear_extra alone; with strict weapons,
    # of the heroes' lenient view)
    def _bound_at(self, list cards, list heroes, int nrot, bint extra_only=False):
        cdef int8_t S[MAXN]
        cdef Heroes hs, hv
        cdef Tally t
        cdef int slack, n = self._load(cards, heroes, S, &hs, &t)
        if extra_only:
            if not self.st.lenient:
                _lenient_view(&hs, &hv)
                return _wear_extra(&self.st, S, n, nrot, &hv, &t)
            return _wear_extra(&self.st, S, n, nrot, &hs, &t)
        return _bound_at(&self.st, &t, &hs, S, n, nrot, &slack)

    # for tests/scoundrel/test_core.py: the bound of a room start known to be lost, as a search whose
    # root is proven lost bounds it (``no_win``): loss_all 1 (the loss bound), or with
    # ``refine`` 3 (also _bounds.loss_refine)
    def _loss_bound_at(self, list cards, list heroes, int nrot, bint refine=True):
        cdef int8_t S[MAXN]
        cdef Heroes hs
        cdef Tally t
        cdef int slack, ub, n = self._load(cards, heroes, S, &hs, &t)
        cdef int keep = self.st.loss_all
        self.st.loss_phase = True
        self.st.no_win = True
        self.st.loss_all = 3 if refine else 1
        try:
            ub = _bound_at(&self.st, &t, &hs, S, n, nrot, &slack)
        finally:
            self.st.loss_phase = False
            self.st.no_win = False
            self.st.loss_all = keep
        return ub

    # for tests/scoundrel/test_core.py: _bounds.damage of the cards with the heroes as (health, weapon,
    # last kill): (its fast sum, as the bounds ask it, and the sum of its general path, which
    # also lists the monsters for the loss bound)
    def _damage_both(self, list cards, list heroes):
        cdef int8_t S[MAXN]
        cdef int8_t ival[64]
        cdef int8_t icost[64]
        cdef Heroes hs
        cdef Tally t
        cdef int sump, maxp, nitems, maxm, fast, general
        self._load(cards, heroes, S, &hs, &t)
        fast = _damage(&self.st, &t, &hs, &sump, &maxp, NULL, NULL, NULL, NULL)
        general = _damage(&self.st, &t, &hs, &sump, &maxp, ival, icost, &nitems, &maxm)
        return fast, general

    def _steps(self):
        return _steps_of(&self.st)

    def run(self, list room, list dungeon, int taken, list heroes, int leader, int potion_mask,
            int help_used, int avoid_ok, long long max_nodes, double timeout, int single=0,
            int single_alpha=0):
        """Search from a position given as Python ints (card codes, hero tuples)."""
        self.test_log = []
        out = _run(&self.st, self.test_log, room, dungeon, taken, heroes, leader, potion_mask,
                   help_used, avoid_ok, max_nodes, timeout, single, single_alpha)
        if out["aborted"] == 7:
            self._raise_reported()
        return out

    def _raise_reported(self):
        """The progress callback stopped the search (aborted 7): raise what it raised."""
        error = self._reporter.error if self._reporter is not None else None
        if self._reporter is not None:
            self._reporter.error = None
        if error is None:
            raise RuntimeError("the progress callback stopped the search")
        raise error

    def canonical_line(self, list room, list dungeon, int taken, list heroes, int leader, int potion_mask,
                       int help_used, int avoid_ok, int target, long long max_nodes, double timeout):
        """A line scoring ``target`` (the proven value), walked by a fixed rule with exact
        null-window tests (``_search.walk``): the same whatever the table holds, and
        whatever the threads (each test may run on them: only its answer is used).
        ``target`` must be proven: at most 0, the walk searches in the loss phase."""
        return _line_run(&self.st, room, dungeon, taken, heroes, leader, potion_mask, help_used, avoid_ok,
                         target, max_nodes, timeout)

    def shortest(self, list room, list dungeon, int taken, list heroes, int leader, int potion_mask,
                 int help_used, int avoid_ok, int target, int known_rooms, long long max_nodes,
                 double timeout):
        """The fewest rooms of a line from the position scoring ``target`` (its proven
        optimum), and that line; see ``_shortest.pyx``."""
        out = _shortest_run(&self.st, room, dungeon, taken, heroes, leader, potion_mask, help_used,
                            avoid_ok, target, known_rooms, max_nodes, timeout)
        if out["aborted"] == 7:
            self._raise_reported()
        return out

    def rooms_within(self, list room, list dungeon, int taken, list heroes, int leader, int potion_mask,
                     int help_used, int avoid_ok, int target, int rooms, long long max_nodes,
                     double timeout):
        """Is there a line from the position scoring ``target`` in at most ``rooms`` rooms?
        One exact test of the rooms search; see ``_shortest.rooms_within_run``."""
        out = _rooms_within_run(&self.st, room, dungeon, taken, heroes, leader, potion_mask, help_used,
                                avoid_ok, target, rooms, max_nodes, timeout)
        if out["aborted"] == 7:
            self._raise_reported()
        return out


def _heroes_of(state):
    heroes = []
    for h in state.heroes:
        if not h.weapon:
            heroes.append((h.health, 0, 0))
        else:
            heroes.append((h.health, h.weapon, FRESH if h.last_kill is None else h.last_kill))
    return heroes


def _position_of(state):
    """The position of ``state`` as ``Searcher.run`` and its kin take it: room and
    dungeon as card codes, cards taken, heroes, leader, potions drunk, help used,
    whether an avoid is allowed."""
    return ([c.index for c in state.room], [c.index for c in state.dungeon], state.taken, _heroes_of(state),
            state.leader, _potion_mask(state), 1 if state.help_used else 0, 1 if state.can_avoid() else 0)


def _potion_mask(state):
    pm = 0
    for i in range(state.rules.heroes):
        if state.potion_used[i]:
            pm |= 1 << i
    return pm


def _after_proof(progress, nodes, tests, score):
    """``progress`` told about the search for the fewest rooms as the rest of the
    solve: its nodes after the proof's, the proof's tests, the score (proven)."""
    if progress is None:
        return None

    def told(n, t, lo, hi, inc):
        return progress(nodes + n, tests, score, score, score)
    told.every = getattr(progress, "every", PROGRESS_EVERY)
    return told


class _Progress:
    """``with _Progress(searcher, fn):`` the searcher reports to ``fn`` (see
    ``Searcher.progress``; ``fn.every``, if it has one, is the interval in
    seconds) for one search, counting the tests of this search only (a
    reused searcher's count goes on), and then to what it reported to before."""

    def __init__(self, searcher, fn):
        self.s, self.fn = searcher, fn

    def __enter__(self):
        self.old = (self.s.progress, self.s.progress_every)
        if self.fn is not None:
            fn, tests0 = self.fn, self.s.tests
            self.s.progress = lambda nodes, tests, lo, hi, inc: fn(nodes, tests - tests0, lo, hi, inc)
            self.s.progress_every = getattr(fn, "every", PROGRESS_EVERY)
        return self.s

    def __exit__(self, *exc):
        self.s.progress, self.s.progress_every = self.old
        return False


def decide(state, target, max_nodes=0, timeout=0.0, tt_mb=64, searcher=None, progress=None):
    """Is the optimal score of ``state`` at least ``target``?  One null-window test.

    Much cheaper than the exact score when the answer is found quickly (a
    winning line ends the test at once).  Returns ``{"reached": bool or None
    (a limit stopped it), "bound": an upper bound when not reached, else a
    lower bound, "score": the best line's score found or None, "nodes"}``.
    ``progress``: see ``Searcher.progress`` (its bounds are then those of
    ``state``'s value as far as this one test proves them).
    """
    rules = state.rules
    if state.finished:
        return {"reached": state.score >= target, "bound": state.score, "score": state.score, "nodes": 0}
    s = searcher if searcher is not None else new_searcher(rules, tt_mb)
    s.nodes = 0
    with _Progress(s, progress):
        out = s.run(*_position_of(state), int(max_nodes or 0), float(timeout or 0.0), 1, int(target) - 1)
    if out["aborted"]:
        if out["incumbent"] is not None and out["incumbent"] >= target:
            return {"reached": True, "bound": out["incumbent"], "score": out["incumbent"], "nodes": s.nodes}
        return {"reached": None, "bound": None, "score": out["incumbent"], "nodes": s.nodes}
    return {"reached": bool(out["high"]), "bound": out["bound"], "score": out["incumbent"], "nodes": s.nodes}


def rooms_within(state, target, rooms, searcher, max_nodes=0, timeout=0.0):
    """Is there a line from ``state`` scoring at least ``target`` in at most ``rooms`` rooms
    (the room in play counted, an avoid one room)?  One test of the rooms search
    (``_shortest.pyx``) on ``searcher``'s table: ``{"within": bool or None (a limit
    stopped it), "rooms": the fewest rooms when within, else a lower bound (None: no
    line scores ``target``), "nodes"}``.  The answer is exact whatever the table holds;
    a table that holds the proof of ``state``'s score (``search`` on the same searcher)
    makes it faster.
    """
    if state.finished:
        ok = state.score >= target
        return {"within": ok and rooms >= 0, "rooms": 0 if ok else None, "nodes": 0}
    searcher.nodes = 0
    out = searcher.rooms_within(*_position_of(state), int(target), int(rooms), int(max_nodes or 0),
                                float(timeout or 0.0))
    return {"within": out["within"], "rooms": out["rooms"], "nodes": searcher.nodes}


# Knobs every new searcher gets instead of its own: {"order_salt", "tt_mb",
# "step", "frozen", "smp_from" (threads from the first test: tests/scoundrel/test_threads.py)} ("frozen": as new_searcher(frozen=True), for
# benchmarks/memory.py --frozen).  Empty in normal use; set only by solver.search.perturbed_core, for
# the tests that ratings and dailies do not depend on how the search goes.
PERTURBATION = {}


# The knobs whose defaults changed the core's node counts after daily methods
# v1 and v2 were fixed, with the values those methods search with: their co-op
# win checks stop at a node limit (docs/daily.md, "The stability promise"), so
# ``new_searcher(frozen=True)`` gives them the search of then, node for node.
FROZEN_KNOBS = {"ahead_prune": 0, "wear_look": 0, "strict_relax": 0, "loss_all": 0}


def new_searcher(rules, tt_mb=256, frozen=False, threads=1):
    """A searcher for ``rules`` whose table can be kept across several searches.

    Table entries are bounds on the value of a position (the cards left in
    order, the heroes, the leader, whether an avoid is allowed), whatever the
    search that stored them, so one table may serve many related searches:
    the actions of one position, or several orders of the same cards.
    Every searcher of the core is made here (``search`` and ``decide``
    without one too), so :data:`PERTURBATION` reaches them all.
    ``frozen``: search as the core did for daily methods v1 and v2
    (:data:`FROZEN_KNOBS`; the same values, nodes and lines as then), always on one thread.
    ``threads``: threads of one search, sharing the table (see ``Searcher.threads``).
    """
    flee = {"classic": 0, "easy": 1, "hard": 2}[rules.flee]
    knobs = PERTURBATION
    s = Searcher(1 if rules.coop else 0, 1 if rules.lenient else 0, flee,
                 float(knobs.get("tt_mb") or tt_mb))
    if knobs.get("order_salt"):
        s.order_salt = knobs["order_salt"]
    if knobs.get("step"):
        s.step = knobs["step"]
    if frozen or knobs.get("frozen"):
        for name, value in FROZEN_KNOBS.items():
            setattr(s, name, value)
    elif threads > 1:
        s.threads = threads
        if knobs.get("smp_from") is not None:
            s.smp_from = knobs["smp_from"]
    return s


def _line_of(list steps):
    """The core's steps, (avoids, takes) per room start, as rooms of actions."""
    from .state import AVOID, Take
    from .cards import full_pack
    pack = full_pack()
    line = []
    for rot, takes in steps:
        for _ in range(rot):
            line.append([AVOID])
        room = []
        for t in takes:
            card = pack[t & 63]
            mode = None
            if card.is_monster:
                mode = "w" if t & 64 else "b"
            room.append(Take(card, mode, bool(t & 128)))
        line.append(room)
    return line


def search(state, max_nodes=0, timeout=0.0, tt_mb=256, searcher=None, want_line=True, shortest=False,
           line_max_nodes=0, progress=None, threads=1, canonical=False, line_budget=None):
    """Solve ``state`` (a ``solver.state.State``); return the dict ``solver.solve`` expects.

    ``searcher`` (from :func:`new_searcher`, same rules) reuses its table.  A
    table filled by earlier searches can prove a value without walking the
    line that reaches it, so with a reused searcher ask ``want_line=False``:
    the value is exact, the line may then be partial and is not returned.

    ``shortest``: once the score is proven, a second search (``_shortest``)
    finds the fewest rooms of a line reaching it and returns that line, chosen
    by a fixed rule (so it is the same however the first search ran);
    ``"shortest"`` then says whether it completed (within ``line_max_nodes``
    and what is left of ``max_nodes`` and ``timeout``; else the first search's
    line is kept) and ``"line_nodes"`` what it cost.  Its table entries have
    keys of their own.

    ``progress``: a callable told the proven bounds as the proof goes (see
    ``Searcher.progress``); it does not change the search.

    ``threads`` (without ``searcher``): the proof's tests run on that many threads
    sharing one table (``_search.smp_test``).  The score is the same; the proof's own
    line may then depend on the timing, so where the line of fewest rooms is not
    asked for or not proven, the line returned is walked by a fixed rule
    (``Searcher.canonical_line``, its nodes counted in ``line_nodes``;
    ``"line_rule"`` says which line it is).  ``max_nodes`` is the total over the
    threads (checked every 1,024 nodes of each, so it may be passed by that much).

    ``canonical``: that walked line on one thread too, rather than the proof's own, so
    that the line returned does not depend on ``threads`` at all (``explain`` asks it).

    ``line_budget``: a callable ``(proof_nodes) -> nodes`` giving the search for the
    fewest rooms a budget tied to the proof's own effort (``engine.line_budget``), within
    ``line_max_nodes``; 0 or less: that search is skipped.  ``"line_search"`` says what
    was done (``"proven"``, ``"stopped"``, ``"skipped"``; None: not asked) and
    ``"line_budget"`` the nodes it was allowed (None: not asked or no line).
    """
    import time as _time
    rules = state.rules
    if state.finished:
        return {"score": state.score, "line": [], "nodes": 0, "exact": True, "limit": None, "tt": {},
                "shortest": True if shortest else None, "line_nodes": 0,
                "line_search": "proven" if shortest else None, "line_budget": None}
    if searcher is None:
        s = new_searcher(rules, tt_mb, threads=threads)
    else:
        s = searcher
        if s.coop != (1 if rules.coop else 0) or s.lenient != (1 if rules.lenient else 0) \
                or s.flee != {"classic": 0, "easy": 1, "hard": 2}[rules.flee]:
            raise ValueError("the searcher was made for other rules")
        s.nodes = 0
    t0 = _time.monotonic()
    position = _position_of(state)
    tests0 = s.tests
    with _Progress(s, progress):
        out = s.run(*position, int(max_nodes or 0), float(timeout or 0.0))
    proof_threaded = s.smp_tests > 0       # (the search for the fewest rooms counts its own)
    limit = {0: None, 1: "nodes", 2: "time", 3: "depth", 4: "outcomes"}[out["aborted"]]
    exact = out["aborted"] == 0
    score = out["value"] if exact else out["incumbent"]
    if want_line and exact and score != out["incumbent"]:
        raise AssertionError(f"search core inconsistency: value {score} but best line scores {out['incumbent']}")
    steps = out["steps"]
    nodes = s.nodes
    short, line_nodes, line_search, budget = None, 0, None, None
    if shortest and want_line and exact and steps and line_budget is not None:
        budget = max(0, int(line_budget(nodes)))
        if line_max_nodes:
            budget = min(budget, int(line_max_nodes))
        if budget == 0:
            short, line_search = False, "skipped"
    if shortest and want_line and exact and steps and line_search is None:
        left_nodes = int(line_max_nodes or 0) if budget is None else budget
        if max_nodes:
            left = max(1, int(max_nodes) - nodes)
            left_nodes = min(left_nodes, left) if left_nodes else left
        budget = left_nodes or None
        left_time = 0.0
        if timeout:
            left_time = max(1e-3, float(timeout) - (_time.monotonic() - t0))
        # Whether the rooms search ends within its cap decides the line printed, so its
        # node count must not depend on the threads' timing: it runs on one thread, and
        # after a proof on threads (whose table holds what the faster thread happened to
        # store) from an empty table of its own; so the line is a function of the position
        ls = new_searcher(rules, tt_mb) if proof_threaded else s
        ls.nodes = 0
        with _Progress(ls, _after_proof(progress, nodes, s.tests - tests0, int(score))):
            found = ls.shortest(*position, int(score), sum(rot + 1 for rot, _ in steps), left_nodes, left_time)
        line_nodes = ls.nodes
        s.nodes = nodes
        short = found["rooms"] is not None
        line_search = "proven" if short else "stopped"
        if short:
            steps = found["steps"]
    rule = "fewest rooms" if short else "proof"
    if want_line and exact and steps and not short and (proof_threaded or canonical):
        # the proof ran on threads: its line depends on which thread found it first;
        # print one walked by a fixed rule instead (the same on every run)
        nodes_now = s.nodes
        left_nodes = max(1, int(max_nodes) - nodes - line_nodes) if max_nodes else 0
        left_time = max(1e-3, float(timeout) - (_time.monotonic() - t0)) if timeout else 0.0
        s.nodes = 0
        walked = s.canonical_line(*position, int(score), left_nodes, left_time)
        line_nodes += s.nodes
        s.nodes = nodes_now
        if walked["steps"] is not None:
            steps, rule = walked["steps"], "canonical"
    line = None
    if want_line:
        line = _line_of(steps) if steps else []
    return {
        "score": score,
        "line": line,
        "nodes": nodes,
        "exact": exact,
        "limit": limit,
        "shortest": short,
        "line_nodes": line_nodes,
        "line_rule": rule if want_line and exact else None,
        "line_search": line_search,
        "line_budget": budget if line_search is not None else None,     # 0: skipped; None: no cap
        "threads": s.threads,
        "tt": {"entries": s.tt_used, "capacity": s.tt_capacity, "max_capacity": s.tt_max_capacity,
               "mb": round(s.tt_bytes / 2**20, 1),
               "hits": s.tt_hits, "tests": s.tests, "stores": s.tt_stores, "replaced": s.tt_replaced},
    }
