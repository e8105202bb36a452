"""The low-cards setup policy: a simple, named way to make the setup choices nobody solves.

Get rid of the low cards (the ones that buy the bottle): pass the lowest card, lay the next
lowest in the devil's trick (few coins there), keep stack 1 open in Glitzerhaus; the base
game passes its three lowest cards (left, right, devil's trick).  The simple bots use it for
every setup step (the dummy's rule says nothing about passing), and the double-dummy
analysis for Glitzerhaus's discard-and-pass steps, whose 9 x 8 choices a player a stack are
too many for exact solves (:mod:`.analysis`).  It is not optimised and makes no claim to be
good.

>>> from .deal import deal
>>> from .rules import Rules
>>> s = deal(0, Rules("glitzerhaus")).start()
>>> s.hands[0], low_cards_setup(s, 0), low_cards_setup(s, 1)
((3, 5, 9, 11, 17, 20, 22, 31, 32), (5, 3), (4, 2))
"""
from __future__ import annotations

from .state import State


def low_cards_setup(state: State, seat: int):
    """Get rid of low cards (the ones that buy the bottle): pass the lowest, lay the next
    lowest in the devil's trick (few coins there); keep stack 1 open in Glitzerhaus."""
    variant = state.rules.variant
    if variant == "lopaka":
        return min(state.hands[seat])
    if variant == "glitzerhaus":
        if state.step == 2:
            return 1
        low = sorted(state.hands[seat * 2 + state.step])
        return (low[1], low[0])             # (devil, pass)
    low = sorted(state.hands[seat])
    return (low[0], low[1], low[2])         # (left, right, devil)
