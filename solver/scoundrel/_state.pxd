# cython: language_level=3
"""The one struct the parts of the search core share, field by field with its owner.

A ``Searcher`` (``_core``) holds one ``Search`` and passes its address to every
part.  Each field is written by the part named above it and only read by the
others (the exceptions are named at the field).  No module at run time.
"""
from libc.stdint cimport uint64_t, uint32_t, int16_t, int8_t
from ._types cimport MAXN, MAXDEPTH, GROUPS, Outcome, Step, Tally, Heroes

cdef enum:
    MAXHELPERS = 7              # threads of one search: 1 + helpers
    DMEMO_BITS = 13
    DMEMO = 8192                # 1 << DMEMO_BITS
from ._table cimport Table

ctypedef struct Search:
    # -- the rules and the tuning knobs: set by _core (the Searcher), read by all
    int coop, lenient, flee     # flee: 0 classic, 1 easy, 2 hard
    int nheroes
    int step                    # how far below the proven upper bound the next test asks
    int zero_at                 # no win found and the next test would ask <= this: ask 0 instead
    int wear_probes             # per hero, how many less worn weapons the table is probed for
    int horizon                 # cards deep_extra looks ahead; 0: off
    int loss_probe              # no win left: first ask whether the best loss reaches the bound
    int ahead_prune             # part-way through a room, also bound with the rooms ahead (_rooms.ahead_bound):
                                # 0 off, 1 after the first and second take, 2 also before the last
    int wear_look               # co-op, lenient: a room start is also bound by the wear of the strongest
                                # weapon (_bounds.wear_extra) in node(); 0 off, 1 or 2 (variants), +4 also in rate_outcomes
    int wear_gap                # node() looks at the wear only when its bound is at most this above alpha
    int loss_all                # 1: once the root is proven lost, the loss bound everywhere (no_win)
    int strict_relax            # strict weapons: also bound a room start by the lenient bounds (forced, deep;
                                # + 2: the wear, with strict kills) of the same heroes with each last kill
                                # one lower (_bounds.strict_extra); 0 off; + 4: in the loss phase only
    uint64_t wc_key[4096]       # node()'s memo of wear_extra per table key (0: empty)
    int16_t wc_val[4096]
    uint64_t *wr_key            # rate_outcomes' memo of the rooms ahead of a child (co-op: _deep_extra and
                                # wear_extra) per (cards, weapons): 3 words a slot (_rooms._child_memo;
                                # allocated on first use, freed by rooms_free)
    int wr_bits                 # its slots: 1 << wr_bits
    long long wear_cuts         # room starts cut by the wear look in node() (a counter)
    uint32_t order_salt         # 0: children in the measured order; else ties of bound in a salted order (tests)

    # -- the table: _table (the driver counts its hits in tt.hits)
    Table tt

    # -- the driver, _search: the path, the incumbent, the tests, the limits
    int8_t S[MAXDEPTH][MAXN]    # the room start at each depth of the path
    Step path[MAXDEPTH]
    Step inc[MAXDEPTH + 1]      # the incumbent: the best line found
    int inc_len
    int inc_score
    int inc_found
    bint loss_phase             # alpha < 0: the loss bound is worth computing (read by _bounds)
    bint no_win                 # the root's value is proven <= 0 (run, with loss_all): every node
                                # searched is then lost, so _bounds bounds it by the loss bound alone
    int beta                    # decide(): stop a room start as soon as a line reaches beta
    long long tests
    long long nodes             # (zeroed by _core before a search that reuses the table)
    long long max_nodes
    double deadline
    int aborted                 # 0 none, 1 nodes, 2 time, 3 depth, 6 Ctrl-C, 7 the progress
                                # callback raised; 4 outcomes (_rooms); 8 another thread answered
                                # the test first (threads only: never a limit, never reported)
    # progress reports: set by _core (the Searcher owns the callable), called by the driver;
    # they only read the search, so the nodes are the same with or without them
    void *report                # a Python callable (nodes, tests, lo, hi, incumbent) or NULL
    double report_every         # seconds between reports within a test
    double report_next          # when the next report is due
    int report_lo, report_hi    # the bounds the tests have proven so far (NEG: none)

    # -- threads for one search (lazy SMP, _search.smp_test): the helpers are set by _core
    # (the Searcher owns them and the table's spinlocks); the rest is the driver's
    int nhelpers                # helper threads: 0 one thread
    void *helpers[MAXHELPERS]   # their Search structs, sharing this one's table entries
    unsigned char *lock_mem     # the table's spinlocks (Table.locks while threads run)
    long long smp_from          # a test runs on the threads once the search has spent this many nodes
    long long smp_tests         # tests run on the threads (by the last run)
    # during a test on the threads, in every thread's struct
    int *stop                   # 0 while the test runs; set once one thread has answered it
    long long *shared_nodes     # the nodes of all the threads, flushed every 1024 nodes each
    long long smp_max           # max_nodes of the search (the total over the threads); 0 none
    long long flushed           # this thread's nodes added to *shared_nodes so far
    bint helper                 # a helper thread: no Ctrl-C checks, no reports, no Python
    # a helper's question and answer (set by the main thread before it starts, read after it ends)
    int h_n, h_count, h_leader, h_avoid_ok, h_alpha, h_ub, h_result
    void *h_fn                  # the root's search (_search.smp_root)
    Heroes h_hs
    # the depth of the test's room start: 0 for the proof's tests, > 0 for the walk's
    # (set in the main thread's struct before smp_run, which copies it and S, path to that
    # depth into the helpers'); and the ``ahead`` its parent found for it, or NULL
    int h_depth
    int8_t *h_ahead

    # -- the rooms search, _shortest: the score its lines must reach
    int short_target

    # -- the enumeration, _rooms: the outcome lists and the scratch of one room
    Outcome *out[MAXDEPTH]      # the outcomes of the room start at each depth (read by _search)
    # outcome groups (rotation, carried card) of the room start being enumerated
    int16_t g_head[GROUPS]
    uint32_t g_stamp[GROUPS]
    uint32_t g_present[GROUPS]
    uint32_t stamp
    int e_terminal_idx
    int e_count
    Outcome *e_buf
    int e_rot
    int e_final
    int e_leader
    int e_best_terminal
    Tally e_ptally              # the cards not yet taken on the enumeration's path
    int e_alpha                 # outcomes whose bound cannot beat it need not be listed
    int e_pruned                # the largest bound of the outcomes not listed (read by _search)
    int e_ahead_on              # ahead_bound is on for this room start: e_dx, e_cglob, e_ahead hold
    int e_dx                    # (see _bounds.ahead_parts)
    int e_cglob[16]
    int e_ahead[2]
    int8_t *pass_ahead          # expand -> node: the child's ``ahead`` (Outcome.ahead) or NULL
    int8_t *pend_ahead          # node(): the ``ahead`` its parent found for this room start, or NULL
    Tally *e_tally              # the cards of the room start being enumerated
    # rate_outcomes' memo of the damage per (next room, weapons): 256 slots
    uint64_t m_keys[256]
    uint32_t m_stamps[256]
    int16_t m_dmg[256]
    int16_t m_room[256]         # the room's own extra in m_dmg; -1: deep_extra done (or none)
    int16_t m_ds[256]           # strict_relax: the strict damage (m_dmg then holds the lenient view's)

    # -- _bounds: its memo of the strict damage (``_bounds.damage``) by an exact key of the
    # monsters, the diamonds and the weapons (not the health: the damage does not read it)
    uint64_t dm_key[DMEMO][2]
    int16_t dm_val[DMEMO]
    # _bounds: the loss bound with no win left (no_win), by the same key and the budget,
    # with the damage it summed (for the ordering's slack)
    uint64_t lm_key[DMEMO][2]
    int16_t lm_val[DMEMO]
    int16_t lm_dmg[DMEMO]
    # _bounds: loss_refine's result by the room start's table key (cards in order, heroes) and
    # the first hero's health
    uint64_t rf_key[DMEMO][2]
    int16_t rf_val[DMEMO]
    int8_t m_ahead[256][2]      # the child's Outcome.ahead, once deep_extra is done; -1: not known
    int m_sump[256]
    int m_maxp[256]
    uint32_t m_stamp
    int m_used
