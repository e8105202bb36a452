# cython: language_level=3
"""The shapes every part of the Bottle Imp's core shares: the deck, a position, the engine.

Cards are indexes 0-35 in the order of their numbers (1-18, 20-37): card ``i`` is bit
``i`` of a 64-bit mask, so "lower" and "higher" are the same for indexes and numbers.
The price is kept as ``pidx``, the number of deck cards below it: card ``i`` is below
the price exactly when ``i < pidx`` (the start price 19 is ``pidx == 18``, a bought price
``c`` is ``pidx == index(c)``).

Seats: Lopaka ``0 A, 1 L, 2 B``; Glitzerhaus ``0 A, 1 B``.  Holdings: Lopaka one a seat
(the seat's index); Glitzerhaus ``0`` A's open stack, ``1`` A's hidden hand, ``2`` B's open
stack, ``3`` B's hidden hand.
"""
from libc.stdint cimport uint64_t, int64_t, uint32_t, int16_t, uint16_t, int8_t, uint8_t

cdef enum:
    NCARDS = 36
    INF = 1000              # beyond every margin (|margin| <= 127)
    MAXHOLD = 4

# switches of the techniques, one bit each (on by default; the benchmarks turn them off one at a time)
cdef enum:
    USE_TT = 1
    USE_ORDER = 2
    USE_EQUIV = 4
    USE_BOUNDS = 8
    USE_RANKS = 16          # relative ranks: the table's key names the cards by their place (_bounds.canonical)
    USE_QUICK = 32          # the fast bounds count the coins each player surely wins and may win (_bounds.gains)
    USE_DEVIL = 64          # an entry answers for other devil's coins too, widened (_table.tt_lookup): the worlds share it

ctypedef struct Deck:
    int8_t coins[NCARDS]
    int8_t suit[NCARDS]
    uint64_t suitmask[3]
    uint64_t coinmask[7]    # the cards of each number of coins (1-6)
    uint64_t coinbit[3]     # the cards whose coins have bit j set: coins_of is three population counts

ctypedef struct Pos:
    uint64_t hand[MAXHOLD]  # the cards of each holding
    int8_t trick[4]         # the cards of the current trick, in order
    int ntrick
    int left                # cards in all holdings
    int pidx                # the price (see above)
    int holder              # a seat, or -1 while nobody has bought the bottle
    int leader              # the seat that led (leads) the current trick
    int won[3]              # coins won so far, by seat (Lopaka's too)

ctypedef struct Entry:
    uint64_t key
    int16_t lo              # bounds on the value, less the key's offset (see _bounds.tt_key)
    int16_t hi
    uint16_t gen            # the generation it was stored in: older ones are free
    int8_t best             # the card that did best from here (-1: none)
    uint8_t work            # log2 of the nodes searched below it: the replacement policy keeps the most work

cdef enum:
    RING = 64               # generations whose holdings the table remembers

ctypedef struct Table:
    Entry *e
    uint64_t mask           # entries - 1; a bucket is BUCKET entries from (hash & mask) & ~(BUCKET - 1)
    uint16_t gen            # the current generation
    uint16_t first          # the oldest generation still valid (a new deal or rules start afresh)
    uint64_t owners[RING][MAXHOLD]   # each recent generation's holdings (gen % RING): whose each card was
    uint64_t soft           # the key's bits an entry may differ in and still answer, widened (_table.tt_lookup)
    long long probes, hits, stores, replaced
    long long other_devil   # entries that answered for another devil's coins (USE_DEVIL)

cdef enum:
    BUCKET = 4

ctypedef struct Engine:
    Deck deck
    int glitz               # 1 Glitzerhaus, 0 Lopaka
    int size                # cards a trick (3 or 4)
    int nhold               # holdings (3 or 4)
    int seat_b              # B's seat (2 or 1)
    int devil               # coins of the devil's trick
    int flags               # USE_* switches
    Table tt
    long long nodes
    long long max_nodes     # 0: no limit
    double deadline         # a CLOCK_MONOTONIC time (CLOCK_PROCESS_CPUTIME_ID with cpu_clock), 0: none
    int cpu_clock           # the deadline is on the process's CPU clock (benchmarks on a busy machine)
    int stopped             # a budget ran out: every value since is void
    long long cuts, first_cuts    # cut-offs, and those by the first card tried
    uint64_t twins[NCARDS]  # for each card, the lower cards of its suit and coins in its holding (this generation)
    uint64_t slides         # the cards that have a twin below them
