# cython: language_level=3
"""The search driver (see ``_search.pyx``): owns the path, the incumbent, the
tests, the counters and the limits of ``Search``."""
from ._state cimport Search
from ._types cimport Heroes

cdef int search_init(Search *s, int coop, int lenient, int flee, double tt_mb) except -1
cdef void search_free(Search *s) noexcept nogil
cdef list steps(Search *s)
cdef dict run(Search *s, list test_log, list room, list dungeon, int taken, list heroes, int leader,
              int potion_mask, int help_used, int avoid_ok, long long max_nodes, double timeout,
              int single, int single_alpha)
cdef int check_limits(Search *s) noexcept nogil
cdef int node(Search *s, int depth, int n, Heroes *hs, int leader, int avoid_ok, int alpha, int known_ub) noexcept nogil
