# cython: language_level=3
"""The upper bounds on the score from a position (see ``_bounds.pyx``).

Pure functions of their arguments and of the rules in ``Search`` (coop,
lenient, flee, nheroes, horizon, wear_look, strict_relax, loss_all) and ``Search.loss_phase``
and ``no_win``; they write nothing but their out-parameters and their memos (the strict
damage ``Search.dm_key``, the loss bound ``lm_key``, its refinement ``rf_key``).
"""
from libc.stdint cimport int8_t
from ._types cimport Heroes, Tally
from ._state cimport Search

cdef int damage(Search *s, Tally *t, Heroes *hs, int *sump_out, int *maxp_out,
                int8_t *ival, int8_t *icost, int *nitems_out, int *maxm_out) noexcept nogil
cdef void lenient_view(Heroes *hs, Heroes *out) noexcept nogil
cdef int lenient_damage(Search *s, Tally *t, Heroes *hs) noexcept nogil
cdef int strict_damage(Search *s, Tally *t, Heroes *hs) noexcept nogil
cdef bint strict_view_on(Search *s) noexcept nogil
cdef int strict_extra(Search *s, Tally *t, Heroes *hs, int8_t *S, int n, int nrot) noexcept nogil
cdef int bound(Search *s, Tally *t, Heroes *hs, int *slack) noexcept nogil
cdef int bound_at(Search *s, Tally *t, Heroes *hs, int8_t *S, int n, int nrot, int *slack) noexcept nogil
cdef int bound_plus(Search *s, Tally *t, Heroes *hs, int extra, int *slack) noexcept nogil
cdef int finish_bound(Search *s, Heroes *hs, int sump, int maxp, int dmg, int *slack) noexcept nogil
cdef int deep_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil
cdef int ahead_parts(Search *s, Heroes *hs, Tally *t, int *cglob) noexcept nogil
cdef int _deep_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t,
                     int *ahead) noexcept nogil
cdef int wear_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil
cdef int loss_refine(Search *s, Tally *t, Heroes *hs, int8_t *S, int n, int nrot, int lb) noexcept nogil
cdef int forced_extra(Search *s, int8_t *S, int n, int nrot, Heroes *hs, Tally *t) noexcept nogil
