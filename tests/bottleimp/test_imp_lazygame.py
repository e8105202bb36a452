"""The lazy matrix game (solver/bottleimp/lazygame.py) against the full solve: the same value and
the same equilibrium (ties included) on random matrices behind interval oracles and on real
Lopaka deals (a few here; more with SCOUNDREL_SLOW=1 / -m slow)."""
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.analysis import exchange_game, lazy_exchange_game, solve
from scoundrel_solver.bottleimp.engine import Engine
from scoundrel_solver.bottleimp.exchange import _checked, _simplex, solve_zero_sum
from scoundrel_solver.bottleimp.lazygame import Cells, MatrixCells, solve_lazy

from imp_games import require_slow


class SoftCells(Cells):
    """A known matrix behind random bounds whose tests answer fail-soft by a random amount
    (as the engine may: a bound beyond the target, never beyond the value)."""

    def __init__(self, matrix, slack, data):
        self.matrix, self.data = matrix, data
        self.start = {(i, j): (v - data.draw(st.integers(0, slack)), v + data.draw(st.integers(0, slack)))
                      for i, r in enumerate(matrix) for j, v in enumerate(r)}

    def bounds(self, i, j):
        return self.start[(i, j)]

    def test(self, i, j, target):
        v = self.matrix[i][j]
        if v >= target:
            return self.data.draw(st.integers(target, v)), None
        return None, self.data.draw(st.integers(v, target - 1))

    def exact(self, i, j, lo, hi):
        assert lo <= self.matrix[i][j] <= hi
        return self.matrix[i][j]


def _shifted_solve(matrix, extra):
    """solve_zero_sum's simplex with the matrix shifted ``extra`` more than it shifts it."""
    m = _checked(matrix)
    return _simplex(m, 1 - min(min(r) for r in m) + extra)


matrices = st.integers(1, 6).flatmap(lambda n: st.integers(1, 6).flatmap(
    lambda m: st.lists(st.lists(st.integers(-3, 3), min_size=m, max_size=m), min_size=n, max_size=n)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices, st.integers(0, 50))
def test_the_shift_does_not_change_the_pivots(matrix, extra):
    # the lazy solver shifts by its lower bounds, not by the least cell: the same equilibrium
    assert _shifted_solve(matrix, extra) == solve_zero_sum(matrix)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices, st.integers(0, 8), st.data())
def test_lazy_equals_the_full_solve_on_random_matrices(matrix, slack, data):
    # small entries: many ties, degenerate pivots, several equilibria; the tie rule must agree
    cells = SoftCells(matrix, slack, data)
    value, rows, cols, stats = solve_lazy(len(matrix), len(matrix[0]), cells)
    assert (value, rows, cols) == solve_zero_sum(matrix)
    for i, r in enumerate(matrix):               # every bound left is proven
        for j, v in enumerate(r):
            assert stats.lower[i][j] <= v <= stats.upper[i][j]
    assert stats.exact_cells == sum(stats.lower[i][j] == stats.upper[i][j]
                                    for i in range(len(matrix)) for j in range(len(matrix[0])))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.integers(-60, 60), min_size=11, max_size=11), min_size=11, max_size=11))
def test_lazy_equals_the_full_solve_on_wide_11_by_11_matrices(matrix):
    cells = MatrixCells(matrix, [[-126] * 11] * 11, [[126] * 11] * 11)
    assert solve_lazy(11, 11, cells)[:3] == solve_zero_sum(matrix)


def test_a_pure_saddle_point_needs_few_cells():
    matrix = [[5, 1, 4], [9, 8, 9], [2, 0, 7]]          # row 2, column 2: a saddle point
    cells = MatrixCells(matrix, [[-20] * 3] * 3, [[20] * 3] * 3)
    value, rows, cols, stats = solve_lazy(3, 3, cells)
    assert (value, rows, cols) == solve_zero_sum(matrix) == (8, (0, 1, 0), (0, 1, 0))
    assert stats.exact_cells < 9


RECORDED = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "bottleimp" / "lopaka-classic-whole.jsonl"


def _recorded(n):
    """The first ``n`` whole Lopaka deals' matrices as bench_solve.py recorded them (real
    exchange matrices, 43 % of them with ties in the equilibrium's choice)."""
    if not RECORDED.exists():
        pytest.skip(f"{RECORDED} is not in this checkout")
    out = []
    with RECORDED.open() as f:
        for line in f:
            out.append(json.loads(line)["matrix"])
            if len(out) == n:
                break
    return out


def _check_recorded(n):
    for matrix in _recorded(n):
        cells = MatrixCells(matrix, [[-126] * 11] * 11, [[126] * 11] * 11)
        assert solve_lazy(11, 11, cells)[:3] == solve_zero_sum(matrix)


def test_lazy_equals_the_full_solve_on_recorded_lopaka_matrices():
    _check_recorded(60)


@pytest.mark.slow
def test_lazy_equals_the_full_solve_on_2000_recorded_lopaka_matrices(request):
    require_slow(request)
    _check_recorded(2000)


def _check_deal(seed, engine):
    start = deal(seed, Rules("lopaka")).start()
    full = exchange_game(start, workers=1)
    lazy = lazy_exchange_game(start, engine)
    assert lazy.solution == full.solution                  # value and equilibrium, ties included
    assert lazy.exact and not lazy.complete or lazy.lazy.exact_cells == 121
    for i in range(11):
        for j in range(11):
            assert lazy.lower[i][j] <= full.matrix[i][j] <= lazy.upper[i][j]
    return lazy


@pytest.mark.parametrize("seed", [1, 6])
def test_lazy_equals_the_full_solve_on_lopaka_deals(seed):
    lazy = _check_deal(seed, Engine())
    assert lazy.lazy.exact_cells < 121


@pytest.mark.slow
def test_lazy_equals_the_full_solve_on_lopaka_deals_1_to_40(request):
    require_slow(request)
    engine = Engine()
    for seed in range(1, 41):
        _check_deal(seed, engine)


def test_the_lazy_solve_has_the_same_answer():
    start = deal(42, Rules("lopaka")).start()
    lazy, full = solve(start, lazy=True), solve(start, workers=1)
    assert (lazy.value, lazy.line, lazy.scores, lazy.holder) == (full.value, full.line, full.scores, full.holder)
    assert lazy.game.mixes == full.game.mixes and lazy.game.pair == full.game.pair
    assert lazy.game.value_bounds == full.game.value_bounds == (Fraction(32), Fraction(32))
    for seat, n in (("A", 11), ("B", 11)):
        for i in range(n):                                   # where the lazy game knows it, the same
            known = lazy.game.against_mix(seat, i)
            assert known is None or known == full.game.against_mix(seat, i)


def test_imp_solve_lazy_answers_as_the_full_matrix():
    from test_imp_cli import run_json
    lazy = run_json("solve", "--seed", "2", "--lazy")
    full = run_json("solve", "--seed", "2", "--workers", "1")
    for key in ("value", "value_fraction", "lower", "upper", "exact", "scores", "holder", "line", "line_value"):
        assert lazy.get(key) == full.get(key), key
    for key in ("value", "value_lower", "value_upper", "equilibrium", "pair", "rows", "columns"):
        assert lazy["game"][key] == full["game"][key], key
    assert lazy["game"]["matrix"] is None and full["game"]["matrix"] is not None and "lazy" not in full["game"]
    assert 0 < lazy["game"]["lazy"]["exact_cells"] < 121
    for i, row in enumerate(full["game"]["matrix"]):           # every bound shown holds the cell
        for j, v in enumerate(row):
            assert lazy["game"]["lower"][i][j] <= v <= lazy["game"]["upper"][i][j]


def test_imp_solve_lazy_refuses_a_limit():
    from clitools import invoke, one_error_line
    one_error_line(invoke(["imp", "solve", "--seed", "2", "--lazy", "--timeout", "5"], code=2), "--lazy", "--timeout")


@pytest.mark.parametrize("seed, i, j", [(42, 0, 4), (2, 0, 9), (7, 5, 3)])
def test_one_null_window_test_proves_a_bound_that_holds(seed, i, j):
    from scoundrel_solver.bottleimp import Pass
    start = deal(seed, Rules("lopaka")).start()
    state = start.apply(Pass(start.hands[0][i], start.hands[2][j]))
    engine = Engine()
    value = engine.value(state)
    for target in (value - 30, value - 1, value, value + 1, value + 30):
        m = Engine().test(state, target)
        assert m.lower <= value <= m.upper
        assert (m.lower >= target) == (value >= target) and (m.upper < target) == (value < target)
