"""The exchange as a matrix game (IMP-RULES §8): exact equilibria, and the Lopaka matrix."""
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.bottleimp import InputError, Pass, Rules, deal
from scoundrel_solver.bottleimp.bots import GreedyBot, play_out
from scoundrel_solver.bottleimp.exchange import MatrixError, exchange_matrix, exchange_value, solve_zero_sum


def assert_equilibrium(matrix, value, rows, cols):
    assert sum(rows) == 1 and sum(cols) == 1 and min(rows) >= 0 and min(cols) >= 0
    n, m = len(matrix), len(matrix[0])
    # A's mix earns at least the value against every column, B's concedes at most it against every row
    assert min(sum(rows[i] * matrix[i][j] for i in range(n)) for j in range(m)) == value
    assert max(sum(matrix[i][j] * cols[j] for j in range(m)) for i in range(n)) == value


@pytest.mark.parametrize("matrix, value", [
    ([[1, -1], [-1, 1]], 0),
    ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], 0),
    ([[3, 1], [4, 2]], 2),
    ([[2, -3], [-1, 2]], Fraction(1, 8)),
    ([[7]], 7),
    ([[1, 2, 3]], 1),
    ([[1], [2], [3]], 3),
    ([[-5, -5], [-5, -5]], -5),
])
def test_known_games(matrix, value):
    v, rows, cols = solve_zero_sum(matrix)
    assert v == value
    assert_equilibrium(matrix, v, rows, cols)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 7).flatmap(lambda n: st.integers(1, 7).flatmap(
    lambda m: st.lists(st.lists(st.integers(-60, 60), min_size=m, max_size=m), min_size=n, max_size=n))))
def test_random_games_are_solved_exactly(matrix):
    v, rows, cols = solve_zero_sum(matrix)
    assert_equilibrium(matrix, v, rows, cols)
    assert solve_zero_sum(matrix) == (v, rows, cols)          # the same equilibrium every time


@pytest.mark.parametrize("matrix", [[], [[]], [[1, 2], [3]], [[1.5]], [["1"]], [[True]]])
def test_bad_matrices(matrix):
    with pytest.raises(MatrixError):
        solve_zero_sum(matrix)


def greedy_margin(state):
    """A stand-in value function (the fast core's double-dummy value comes next issue):
    the margin of the round played out by three greedy players."""
    bots = {0: GreedyBot(), 2: GreedyBot()}
    for action in play_out(state, bots):
        state = state.apply(action)
    return state.value()


def test_the_exchange_matrix_of_a_lopaka_deal():
    start = deal(42, Rules("lopaka")).start()
    a_cards, b_cards, matrix = exchange_matrix(start, greedy_margin)
    assert a_cards == start.hands[0] and b_cards == start.hands[2] and len(matrix) == 11 and len(matrix[0]) == 11
    assert matrix[0][3] == greedy_margin(start.apply(Pass(a_cards[0], b_cards[3])))
    out = exchange_value(start, greedy_margin)
    rows = [out["A"].get(c, 0) for c in a_cards]
    cols = [out["B"].get(c, 0) for c in b_cards]
    assert_equilibrium(matrix, out["value"], rows, cols)


def test_the_exchange_belongs_to_a_lopaka_deal_before_its_exchange():
    with pytest.raises(InputError):
        exchange_matrix(deal(1, Rules("glitzerhaus")).start(), greedy_margin)
    with pytest.raises(InputError):
        exchange_matrix(deal(42, Rules("lopaka")).start().apply(Pass(1, 18)), greedy_margin)
