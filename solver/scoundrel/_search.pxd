# cython: language_level=3
"""The search driver (see ``_search.pyx``): owns the path, the incumbent, the
tests, the counters and the limits of ``Search``."""
from ._state cimport Search
from ._types cimport Heroes, Tally, MAXDEPTH

cdef int search_init(Search *s, int coop, int lenient, int flee, double tt_mb) except -1
cdef void search_free(Search *s) noexcept nogil
cdef list steps(Search *s)
cdef int begin_search(Search *s, list heroes, Heroes *hs, long long max_nodes, double timeout) except -1
cdef int midroom_outcomes(Search *s, list room, list dungeon, int taken, Heroes *hs, int leader,
                          int potion_mask, int help_used, Tally *t) except -1
cdef dict run(Search *s, list test_log, list room, list dungeon, int taken, list heroes, int leader,
              int potion_mask, int help_used, int avoid_ok, long long max_nodes, double timeout,
              int single, int single_alpha)
cdef dict line_run(Search *s, list room, list dungeon, int taken, list heroes, int leader,
                   int potion_mask, int help_used, int avoid_ok, int target, long long max_nodes,
                   double timeout)
# a test's search from the root, as the threads run it (smp_run): ``count`` >= 0: the
# root's outcomes are in ``out[0]`` (copied to each helper)
ctypedef int (*smp_root)(Search *s, int n, int count, Heroes *hs, int leader, int avoid_ok, int alpha,
                         int ub) noexcept nogil
cdef int smp_run(Search *s, smp_root fn, int n, int count, Heroes *hs, int leader, int avoid_ok,
                 int alpha, int ub) noexcept
cdef int check_limits(Search *s) noexcept nogil
cdef int node(Search *s, int depth, int n, Heroes *hs, int leader, int avoid_ok, int alpha, int known_ub) noexcept nogil


cdef inline bint enter_node(Search *s, int depth) noexcept nogil:
    """Count a node and check the limits (nodes, time every 1024 nodes, depth):
    True when the search must stop (``s.aborted`` says why).  Every node of
    every search (``node``, the rooms search) opens with it."""
    s.nodes += 1
    if s.max_nodes > 0 and s.nodes > s.max_nodes:
        s.aborted = 1
        return True
    if (s.nodes & 1023) == 0 and check_limits(s):
        return True
    if depth + 1 >= MAXDEPTH:
        s.aborted = 3
        return True
    return False
