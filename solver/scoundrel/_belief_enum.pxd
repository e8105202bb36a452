# cython: language_level=3
"""What can come next in the belief search (see ``_belief_enum.pyx``): owns ``Belief.en``,
the unseen cards (``cnt``, ``n``, ``ncls``) and the beliefs along the path (``rows``,
``bot``, ``nbot``); reads the rules."""
from libc.stdint cimport int8_t
from ._types cimport Heroes, Tally
from ._belief_types cimport i128
from ._belief_state cimport Belief

ctypedef struct Deal:
    # the deal of the row rows[depth + 1]: the carried card (at most one) or nothing, then
    # ``k`` cards drawn off the unseen ones, then ``fill`` off the known bottom
    int depth
    int at                      # where the drawn cards go: rows[depth + 1][at:at + k]
    int k
    int nrow                    # the row's length once dealt
    bint ordered                # draws are class sequences (else multisets, sorted)
    bint started
    int p                       # cards drawn so far
    int cls[4]                  # the class of each
    int mult[4]                 # ordered: the cards of its class there were when each was drawn
    i128 weight                 # the ordered draws behind the current draw

cdef int enum_init(Belief *b) except -1
cdef void enum_free(Belief *b) noexcept nogil
cdef int load_unseen(Belief *b, list unseen, list bottom) except -1
cdef void tally_belief(Belief *b, int8_t *row, int nrow, int8_t *bot, int nbot, Tally *t) noexcept nogil
cdef int room_outcomes(Belief *b, int depth, int8_t *room, int nroom, int to_take, int potion_mask,
                       int help_used, Heroes *hs) except -1
cdef int deal_bottom(Belief *b, int depth, int8_t *prefix, int8_t *B, int nB, int append_row,
                     int8_t *full) noexcept nogil
cdef void begin_deal(Belief *b, Deal *d, int depth, int8_t *prefix, int npre, int8_t *full, int nfull,
                     int avoid_next) noexcept nogil
cdef bint next_draw(Belief *b, Deal *d) noexcept nogil
cdef void end_deal(Belief *b, Deal *d) noexcept nogil
