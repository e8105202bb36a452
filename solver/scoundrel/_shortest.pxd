# cython: language_level=3
"""The shortest optimal line (see ``_shortest.pyx``): a search over rooms once the score is proven."""
from ._state cimport Search

cdef dict shortest_run(Search *s, list room, list dungeon, int taken, list heroes, int leader,
                       int potion_mask, int help_used, int avoid_ok, int target, int known_rooms,
                       long long max_nodes, double timeout)

cdef dict rooms_within_run(Search *s, list room, list dungeon, int taken, list heroes, int leader,
                           int potion_mask, int help_used, int avoid_ok, int target, int rooms,
                           long long max_nodes, double timeout)
