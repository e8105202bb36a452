# cython: language_level=3
"""The enumeration of one room into its outcomes (see ``_rooms.pyx``).

Writes ``Search.out`` and the enumeration's scratch (``g_*``, ``e_*``, ``m_*``),
and ``Search.aborted`` = 4 when an outcome list is full; reads the rules.
"""
from libc.stdint cimport uint64_t, uint32_t, int8_t, uint8_t
from ._types cimport Heroes, Outcome, Tally
from ._state cimport Search

cdef int rooms_init(Search *s) except -1
cdef void rooms_free(Search *s) noexcept nogil
cdef bint child_memo_init(Search *s, uint64_t table_bytes) noexcept nogil
cdef void enum_takes(Search *s, int8_t *room, int nroom, uint32_t taken_mask, int to_take,
                     Heroes hs, int potion_mask, int help_used, int mleft,
                     uint8_t *takes, int ntakes, int pslot, int pcls, int ptarget,
                     int php, int pval) noexcept nogil
cdef int compact(Search *s, Outcome *buf, int count) noexcept nogil
cdef void rate_outcomes(Search *s, Outcome *buf, int count, Tally *t, int8_t *S, int n) noexcept nogil
cdef int rotations(Search *s, int n, int avoid_ok) noexcept nogil
cdef void begin_room(Search *s, int depth, int leader, bint final, Tally *t) noexcept nogil
cdef int enumerate_room(Search *s, int depth, int n, Heroes *hs, int leader, int nrot,
                        Tally *t, int alpha) noexcept nogil
