"""The exchange of a Lopaka deal as a simultaneous zero-sum game (IMP-RULES §8).

A and B pass each other one card at the same time; each pair of passed cards leads to a
play-phase position with a double-dummy value.  The deal's value is the value of that
11 x 11 matrix game, solved for a mixed equilibrium: A (rows) maximises, B (columns)
minimises.  :func:`solve_zero_sum` solves any such matrix exactly (fractions, the simplex
method with Bland's rule: deterministic, so a deal always gets the same equilibrium);
:func:`exchange_matrix` builds the matrix with any value function of a play-phase state.
The pure-Python reference is far too slow for the 33 cards of a whole deal: the fast core
of the next issue supplies the value function.

>>> value, rows, cols = solve_zero_sum([[1, -1], [-1, 1]])        # matching pennies
>>> value, rows, cols
(Fraction(0, 1), (Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
>>> solve_zero_sum([[3, 1], [4, 2]])[0]                             # a saddle point: row 2, column 2
Fraction(2, 1)
"""
from __future__ import annotations

from fractions import Fraction

from ..errors import InputError
from .state import Pass, State


class MatrixError(InputError):
    """A matrix that is not a non-empty rectangle of numbers."""


def _checked(matrix) -> list:
    rows = [list(r) for r in matrix]
    if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
        raise MatrixError("a matrix game needs a non-empty rectangle of values")
    for r in rows:
        for x in r:
            if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
                raise MatrixError(f"matrix entry {x!r} is not an integer or a Fraction")
    return [[Fraction(x) for x in r] for r in rows]


def solve_zero_sum(matrix):
    """``(value, row strategy, column strategy)`` of the zero-sum game ``matrix`` (the row
    player receives ``matrix[i][j]`` and maximises), exactly.

    The matrix is shifted to positive entries; then the column player's linear program
    ``max sum(y) s.t. M y <= 1, y >= 0`` is solved by the simplex method (Bland's rule: the
    lowest-numbered entering column and leaving row, so it terminates and is deterministic);
    the row strategy is read from the final tableau's dual values.
    """
    m = _checked(matrix)
    return _simplex(m, 1 - min(min(r) for r in m))     # every shifted entry >= 1


def _simplex(m, shift):
    """solve_zero_sum's simplex on ``m + shift`` (every entry positive).  Any such shift takes
    the same pivots to the same equilibrium (:mod:`.lazygame` says why; the tests check it)."""
    rows, cols = len(m), len(m[0])
    tableau = [[m[i][j] + shift for j in range(cols)] + [Fraction(int(k == i)) for k in range(rows)] + [Fraction(1)]
               for i in range(rows)]
    objective = [Fraction(-1)] * cols + [Fraction(0)] * rows + [Fraction(0)]
    basis = [cols + i for i in range(rows)]
    while True:
        entering = next((j for j in range(cols + rows) if objective[j] < 0), None)
        if entering is None:
            break
        best = None
        for i in range(rows):
            a = tableau[i][entering]
            if a > 0:
                ratio = tableau[i][-1] / a
                if best is None or ratio < best[0] or (ratio == best[0] and basis[i] < basis[best[1]]):
                    best = (ratio, i)
        if best is None:           # cannot happen: every column has a positive entry
            raise AssertionError("unbounded matrix game")
        pivot_row = best[1]
        pivot = tableau[pivot_row][entering]
        tableau[pivot_row] = [x / pivot for x in tableau[pivot_row]]
        for i in range(rows):
            if i != pivot_row and tableau[i][entering] != 0:
                f = tableau[i][entering]
                tableau[i] = [x - f * y for x, y in zip(tableau[i], tableau[pivot_row])]
        f = objective[entering]
        objective = [x - f * y for x, y in zip(objective, tableau[pivot_row])]
        basis[pivot_row] = entering
    total = objective[-1]                              # sum(y) = 1 / (shifted value)
    y = [Fraction(0)] * cols
    for i, b in enumerate(basis):
        if b < cols:
            y[b] = tableau[i][-1]
    col_mix = tuple(v / total for v in y)
    row_mix = tuple(objective[cols + i] / total for i in range(rows))
    return 1 / total - shift, row_mix, col_mix


def exchange_matrix(state: State, value) -> tuple:
    """``(A's cards, B's cards, matrix)``: ``matrix[i][j]`` is ``value`` of the play-phase state
    after A passes ``A's cards[i]`` and B passes ``B's cards[j]`` (a Lopaka deal before its
    exchange)."""
    if state.rules.variant != "lopaka" or not state.in_setup:
        raise InputError("the exchange matrix belongs to a Lopaka deal before its exchange")
    a_cards, b_cards = state.hands[0], state.hands[2]
    return a_cards, b_cards, [[value(state.apply(Pass(a, b))) for b in b_cards] for a in a_cards]


def exchange_value(state: State, value) -> dict:
    """The whole-deal value of a Lopaka deal (§8) with ``value`` as the play-phase value
    function: the matrix, its value and one equilibrium (A's and B's mixed passes)."""
    a_cards, b_cards, matrix = exchange_matrix(state, value)
    v, rows, cols = solve_zero_sum(matrix)
    return {"value": v, "matrix": matrix,
            "A": {card: p for card, p in zip(a_cards, rows) if p},
            "B": {card: q for card, q in zip(b_cards, cols) if q}}
