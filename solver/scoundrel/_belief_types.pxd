# cython: language_level=3
"""What every part of the belief search shares: its limits, the card classes, exact values.

Owns no state and no module at run time, as ``_types.pxd`` for the core: constants, three
constant tables (compiled into each part that cimports them) and the ``cdef inline``
helpers on classes, values and hashes.  The parts of the belief search (``_belief.pyx``
says what it computes; docs/solver.md, "Where each part lives"), each cimporting only the
ones above it:

* ``_belief_memo``   the memo of belief values and its keys;
* ``_belief_enum``   what can come next: the ways to take a room (through ``_rooms``) and
  the deals of the next room off the unseen cards;
* ``_belief_leaves`` the perfect-information leaves, solved by the core (``_search``);
* ``_belief_bounds`` the clairvoyant values of the depth-limited mode (upper bounds);
* ``_belief_search`` the driver (room starts, faces, chance nodes) and its limits;
* ``_belief``        the Python-facing API (``BeliefEngine``);
* ``_belief_state.pxd`` the one struct they share, field by field with its owner.

**Classes.**  Two cards the rules cannot tell apart (5♣ and 5♠: the same kind and value)
are one class, ``kind * 16 + value``; the unseen cards are counted by class and a class
stands for its lowest card code (``REP``).

**Values** are exact integers: a belief with ``n`` unseen cards averages the ``n!``
equally likely orders, so its (wins, score sum) times ``n!`` are whole numbers
(``__int128``: at most ``MAXUNSEEN`` unseen cards), compared lexicographically.
"""
from libc.stdint cimport uint64_t, int8_t
from ._types cimport KIND, VALUE, Heroes

cdef extern from *:
    ctypedef long long i128 "__int128"

cdef enum:
    NCLS = 48          # class = kind * 16 + value
    MAXUNSEEN = 30     # n! * score fits an __int128

# n! (n <= 30), the binomials C(i, j) (i, j < 8: at most 4 cards of a class are dealt at
# once), and the lowest card code of each class (-1: none; Card.index = suit * 13 + value - 2,
# suits clubs, diamonds, hearts, spades; see _types.pxd for the kinds): a monster of value v
# is the club of v (face cards of every suit are monsters too, the club is the lowest), the
# monster 15 the joker (52), a potion the heart of v, a weapon the diamond of v.
cdef extern from *:
    """
    #define SCB_F1 ((__int128) 1)
    #define SCB_F2 (SCB_F1 * 2)
    #define SCB_F3 (SCB_F2 * 3)
    #define SCB_F4 (SCB_F3 * 4)
    #define SCB_F5 (SCB_F4 * 5)
    #define SCB_F6 (SCB_F5 * 6)
    #define SCB_F7 (SCB_F6 * 7)
    #define SCB_F8 (SCB_F7 * 8)
    #define SCB_F9 (SCB_F8 * 9)
    #define SCB_F10 (SCB_F9 * 10)
    #define SCB_F11 (SCB_F10 * 11)
    #define SCB_F12 (SCB_F11 * 12)
    #define SCB_F13 (SCB_F12 * 13)
    #define SCB_F14 (SCB_F13 * 14)
    #define SCB_F15 (SCB_F14 * 15)
    #define SCB_F16 (SCB_F15 * 16)
    #define SCB_F17 (SCB_F16 * 17)
    #define SCB_F18 (SCB_F17 * 18)
    #define SCB_F19 (SCB_F18 * 19)
    #define SCB_F20 (SCB_F19 * 20)
    #define SCB_F21 (SCB_F20 * 21)
    #define SCB_F22 (SCB_F21 * 22)
    #define SCB_F23 (SCB_F22 * 23)
    #define SCB_F24 (SCB_F23 * 24)
    #define SCB_F25 (SCB_F24 * 25)
    #define SCB_F26 (SCB_F25 * 26)
    #define SCB_F27 (SCB_F26 * 27)
    #define SCB_F28 (SCB_F27 * 28)
    #define SCB_F29 (SCB_F28 * 29)
    #define SCB_F30 (SCB_F29 * 30)
    static const __int128 SCB_FACT[31] = {
        1, SCB_F1, SCB_F2, SCB_F3, SCB_F4, SCB_F5, SCB_F6, SCB_F7, SCB_F8, SCB_F9, SCB_F10,
        SCB_F11, SCB_F12, SCB_F13, SCB_F14, SCB_F15, SCB_F16, SCB_F17, SCB_F18, SCB_F19, SCB_F20,
        SCB_F21, SCB_F22, SCB_F23, SCB_F24, SCB_F25, SCB_F26, SCB_F27, SCB_F28, SCB_F29, SCB_F30};
    static const __int128 SCB_BINOM[8][8] = {
        {1, 0, 0, 0, 0, 0, 0, 0},
        {1, 1, 0, 0, 0, 0, 0, 0},
        {1, 2, 1, 0, 0, 0, 0, 0},
        {1, 3, 3, 1, 0, 0, 0, 0},
        {1, 4, 6, 4, 1, 0, 0, 0},
        {1, 5, 10, 10, 5, 1, 0, 0},
        {1, 6, 15, 20, 15, 6, 1, 0},
        {1, 7, 21, 35, 35, 21, 7, 1}};
    #define SCB_NONE -1, -1
    static const signed char SCB_REP[48] = {
        /* monsters: 0, 1 none; 2..14 the clubs; 15 the joker */
        SCB_NONE, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 52,
        /* potions: 2..10 the hearts */
        SCB_NONE, 26, 27, 28, 29, 30, 31, 32, 33, 34, -1, -1, -1, -1, -1,
        /* weapons: 2..10 the diamonds */
        SCB_NONE, 13, 14, 15, 16, 17, 18, 19, 20, 21, -1, -1, -1, -1, -1};
    """
    const i128 FACT "SCB_FACT" [MAXUNSEEN + 1]
    const i128 BINOM "SCB_BINOM" [8][8]
    const int8_t REP "SCB_REP" [NCLS]


cdef inline int _cls(int c) noexcept nogil:
    return KIND[c] * 16 + VALUE[c]


cdef inline int _rep(int c) noexcept nogil:
    return REP[_cls(c)]


cdef inline bint _lex_gt(i128 w1, i128 s1, i128 w2, i128 s2) noexcept nogil:
    return w1 > w2 or (w1 == w2 and s1 > s2)


cdef inline i128 _div_round(i128 a, int b) noexcept nogil:
    """a / b rounded to the nearest integer (halves away from zero)."""
    if a >= 0:
        return (a + b // 2) // b
    return -((-a + b // 2) // b)


cdef inline void _sort4(int8_t *r, int n) noexcept nogil:
    """The first ``n`` (at most 4) cards of a row in increasing code order: the key of a
    row whose order does not matter."""
    cdef int i, j
    cdef int8_t t
    for i in range(1, n):
        j = i
        while j > 0 and r[j - 1] > r[j]:
            t = r[j]
            r[j] = r[j - 1]
            r[j - 1] = t
            j -= 1


cdef inline void _swap_heroes(Heroes *hs) noexcept nogil:
    """Co-op: hero 2 leads.  The heroes are symmetric, so the belief search keeps the leader
    as hero 0."""
    cdef int8_t tmp
    tmp = hs.hp[0]; hs.hp[0] = hs.hp[1]; hs.hp[1] = tmp
    tmp = hs.w[0]; hs.w[0] = hs.w[1]; hs.w[1] = tmp
    tmp = hs.k[0]; hs.k[0] = hs.k[1]; hs.k[1] = tmp


cdef inline uint64_t _fmix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53ULL
    h ^= h >> 33
    return h
