# cython: language_level=3
"""The one struct the parts of the belief search share, field by field with its owner.

A ``BeliefEngine`` (``_belief``) holds one ``Belief`` and passes its address to every part.
Each field is written by the part named above it and only read by the others (the
exceptions are named at the field).  No module at run time.
"""
from libc.stdint cimport uint64_t, int8_t
from ._types cimport MAXN, MAXDEPTH
from ._state cimport Search
from ._belief_types cimport NCLS
from ._belief_memo cimport Memo

ctypedef struct Belief:
    # -- the rules and the knobs: set by _belief (the BeliefEngine), read by all
    int coop, lenient, flee     # flee: 0 classic, 1 easy, 2 hard
    int nheroes
    int horizon                 # -1: exact; else the deals searched exactly (the depth-limited mode)
    int samples                 # _belief_bounds: orders sampled at a chance node past the horizon
    int enumerate_limit         # ... unless it has at most this many distinct orders (all then)
    uint64_t rng_seed           # ... drawn with this seed
    bint common_orders          # ... seeded by the unseen cards alone (else by the known ones too)
    bint prune                  # _belief_search: cut off candidates whose bound cannot win (same values)

    # -- the memo: _belief_memo
    Memo memo

    # -- what can come next, _belief_enum: the rooms' outcomes, and the beliefs along the
    # driver's path (depth d: the room start d deals below the root)
    Search en                   # the room enumerations: en.out[d], the outcomes of the room at depth d
    int cnt[NCLS]               # the unseen cards by class: taken by a deal, put back after it
                                # (loaded by _belief_enum.load_unseen)
    int n                       # how many unseen
    int ncls                    # how many classes have cnt > 0
    int8_t rows[MAXDEPTH][4]    # the row dealt at each depth (the API writes the root's, depth 0)
    int8_t bot[MAXDEPTH][MAXN]  # the known bottom at each depth, first to come back first
    int nbot[MAXDEPTH]

    # -- the leaves of perfect information, _belief_leaves
    Search core                 # their searcher (its table carries over from leaf to leaf)
    long long leaves            # leaves solved by the core (memo misses)
    long long core_nodes        # the core's node count after the last leaf

    # -- the clairvoyant values past the horizon, _belief_bounds
    long long clair_leaves      # chance nodes valued clairvoyantly
    bint sampled                # some of them sampled their orders, not enumerated them
    long long cuts              # candidates cut off by their bound (``prune``)
    long long bound_errors      # orders that scored above their bound: never (tested)

    # -- the driver, _belief_search: the counters and the limits of one call
    long long beliefs           # room-start beliefs expanded (memo misses)
    long long chance_nodes
    long long stop_at           # beliefs at which the call stops; 0: none
    double deadline             # the call's clock (0: none; read by the leaves and the bounds too)
    int aborted                 # 0 none, 1 beliefs, 2 time, 3 a leaf not proven, 6 Ctrl-C
                                # (the leaves set 2, 3 and 6, the bounds 2, from their own checks)


cdef inline int avoid_allowed(Belief *b, int avoided_last) noexcept nogil:
    """May the room about to be faced be avoided (by the rules and the last room)?"""
    if b.coop:
        return not avoided_last
    if b.flee == 1:
        return 1
    if b.flee == 2:
        return 0
    return not avoided_last
