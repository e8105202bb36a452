# cython: language_level=3
"""The search driver (see ``_search.pyx``)."""
from ._types cimport Engine, Pos

cdef int terminal(Engine *e, Pos *p) noexcept nogil
cdef int alphabeta(Engine *e, Pos *p, int alpha, int beta) noexcept nogil
cdef void mtdf(Engine *e, Pos *p, int guess, int *lower, int *upper) noexcept nogil
