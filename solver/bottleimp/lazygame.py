"""A matrix game solved exactly from cells known only to bounds: the whole Lopaka deal, lazily.

:func:`.exchange.solve_zero_sum` solves a zero-sum matrix game by the simplex method with
Bland's rule on the full matrix.  :func:`solve_lazy` takes the **same pivots** (so it ends
with the same value and the same equilibrium, ties included) but asks for a cell only where
a pivot depends on it: each cell starts as bounds ``lo <= cell <= hi`` and is narrowed on
demand by :meth:`Cells.test` (one null-window test "is it at least t?", cheap) or made exact
by :meth:`Cells.exact`.  Cells no pivot depends on keep their bounds; a row or column that
the bounds show to be no better never needs its cells exactly.

**Why the same pivots.**  solve_zero_sum shifts the matrix by ``s = 1 - min(matrix)`` so that
every entry is >= 1 and runs the simplex on ``max sum(y) s.t. (M + s) y <= 1, y >= 0``.  Its
pivots are a function of the signs of reduced costs and of the order of the ratios along
each edge.  Both are the same for every shift that keeps the entries positive: the map
``y -> y / (1 + (s2 - s1) sum(y))`` takes the feasible region of one shift onto the other's,
keeps each ``y_j`` and each row's slack zero exactly where it was (it divides them by the
same positive number), maps each edge onto an edge in the same direction and raises
``sum(y)`` exactly where it rises.  So the bases visited, the final basis and the
equilibrium read from it are the same; the lazy solver may shift by ``1 - min(lower bounds)``,
which needs no cell exactly (tested: ``test_the_shift_does_not_change_the_pivots``).

**What a pivot depends on** (revised simplex: the basis is the tight rows ``R`` and the
basic columns ``C``, ``|R| = |C|``; ``y = A[R,C]^-1 1``, the duals ``u = 1 A[R,C]^-1``):

* the basis matrix ``A[R,C]``: exact;
* the entering variable: the lowest column ``j`` not in ``C`` whose reduced cost
  ``-1 + sum_r u_r A[r,j]`` is negative, then the lowest tight row with ``u_r < 0``; the
  sign of each is decided from bounds, narrowing the cells of column ``j`` on ``R`` only
  until it is decided (a column whose bounds show it no better for B is never solved);
* the leaving variable (the least ratio, ties to the lowest variable): the basic columns'
  ratios are exact; a row not in ``R`` is ruled out when its constraint is still strictly
  slack at the point the step reaches (``1 - sum_j A[i,j] z_j > 0``, ``z >= 0``: its upper
  bounds suffice); a row that may bind is narrowed, and made exact only if it binds.

Every decision is a sign of a linear form of cells (:meth:`_Solver.sign`): decided from the
bounds when they suffice, else by a test on the widest cell at a target chosen so that
either answer may settle it.

>>> from .exchange import solve_zero_sum
>>> m = [[3, 1, 4], [1, 5, 9], [2, 6, 5]]
>>> cells = MatrixCells(m, [[-10] * 3] * 3, [[10] * 3] * 3)
>>> solve_lazy(3, 3, cells)[:3] == solve_zero_sum(m)
True
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


class Cells:
    """What :func:`solve_lazy` asks of a matrix whose cells are costly (integers).

    ``bounds(i, j)``: the bounds known to start with; ``test(i, j, target)``: one test "is
    cell >= target?", answered by the bounds it proves, ``(lo, hi)`` (fail-soft: either may
    move further than the target); ``exact(i, j, lo, hi)``: the cell's value, given the
    bounds known so far."""

    def bounds(self, i: int, j: int) -> tuple:
        raise NotImplementedError

    def test(self, i: int, j: int, target: int) -> tuple:
        raise NotImplementedError

    def exact(self, i: int, j: int, lo: int, hi: int) -> int:
        raise NotImplementedError


class MatrixCells(Cells):
    """A known matrix behind bounds (for tests and benchmarks): ``test`` answers exactly at
    the target (no fail-soft gain); counts the calls."""

    def __init__(self, matrix, lower, upper):
        self.matrix, self.lower, self.upper = matrix, lower, upper
        self.tests = self.exacts = 0

    def bounds(self, i, j):
        return self.lower[i][j], self.upper[i][j]

    def test(self, i, j, target):
        self.tests += 1
        v = self.matrix[i][j]
        return (target, None) if v >= target else (None, target - 1)

    def exact(self, i, j, lo, hi):
        self.exacts += 1
        return self.matrix[i][j]


@dataclass(frozen=True)
class LazyStats:
    """What a lazy solve asked for (pivots, tests, exact solves) and what it knows at the end:
    each cell's bounds (``lower``, ``upper``: tuples of rows), of which ``exact_cells`` exact."""

    pivots: int
    tests: int
    exact_solves: int
    exact_cells: int
    cells: int
    lower: tuple = ()
    upper: tuple = ()


def _solve_linear(a, b):
    """``x`` with ``a x = b`` (a square, nonsingular; Fractions), by Gauss-Jordan elimination."""
    n = len(a)
    m = [list(a[i]) + [b[i]] for i in range(n)]
    for c in range(n):
        p = next(i for i in range(c, n) if m[i][c] != 0)
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        m[c] = [x / piv for x in m[c]]
        for i in range(n):
            if i != c and m[i][c] != 0:
                f = m[i][c]
                m[i] = [x - f * y for x, y in zip(m[i], m[c])]
    return [m[i][n] for i in range(n)]


class _Solver:
    def __init__(self, rows: int, cols: int, cells: Cells):
        self.rows, self.cols, self.cells = rows, cols, cells
        self.lo = [[0] * cols for _ in range(rows)]
        self.hi = [[0] * cols for _ in range(rows)]
        for i in range(rows):
            for j in range(cols):
                lo, hi = cells.bounds(i, j)
                if lo > hi:
                    raise ValueError(f"cell ({i}, {j}): bounds {lo} > {hi}")
                self.lo[i][j], self.hi[i][j] = lo, hi
        # any shift keeping the entries positive takes the same pivots (the module's doc)
        self.shift = 1 - min(min(r) for r in self.lo)
        self.tests = self.exact_solves = self.pivots = 0

    # ------------------------------------------------------------------ cells
    def _narrow(self, i, j, lo, hi):
        if lo is not None and lo > self.lo[i][j]:
            self.lo[i][j] = lo
        if hi is not None and hi < self.hi[i][j]:
            self.hi[i][j] = hi
        if self.lo[i][j] > self.hi[i][j]:
            raise AssertionError(f"cell ({i}, {j}): the bounds crossed ({self.lo[i][j]} > {self.hi[i][j]})")

    def exact(self, i, j) -> Fraction:
        """The shifted cell ``A[i][j] = M[i][j] + shift``, made exact if it is not."""
        if self.lo[i][j] < self.hi[i][j]:
            v = self.cells.exact(i, j, self.lo[i][j], self.hi[i][j])
            self.exact_solves += 1
            self._narrow(i, j, v, v)
            if self.lo[i][j] != v or self.hi[i][j] != v:
                raise AssertionError(f"cell ({i}, {j}): the value {v} lies outside the bounds proven")
        return Fraction(self.lo[i][j] + self.shift)

    def sign(self, const, terms) -> int:
        """The sign of ``const + sum(coef * A[i][j] for coef, i, j in terms)``, narrowing the
        cells (widest first) only until the bounds decide it."""
        terms = [(Fraction(c), i, j) for c, i, j in terms if c != 0]
        const = Fraction(const) + self.shift * sum((c for c, _, _ in terms), Fraction(0))
        while True:
            low = high = const
            for c, i, j in terms:
                if c > 0:
                    low += c * self.lo[i][j]
                    high += c * self.hi[i][j]
                else:
                    low += c * self.hi[i][j]
                    high += c * self.lo[i][j]
            if low > 0:
                return 1
            if high < 0:
                return -1
            if low == high:
                return 0
            c, i, j = max((t for t in terms if self.lo[t[1]][t[2]] < self.hi[t[1]][t[2]]),
                          key=lambda t: abs(t[0]) * (self.hi[t[1]][t[2]] - self.lo[t[1]][t[2]]))
            lo, hi = self.lo[i][j], self.hi[i][j]
            # "cell >= t" succeeding settles the sign when t >= t_yes; failing (cell <= t - 1)
            # settles it when t - 1 <= t_no; between them the test halves the cell
            if c > 0:
                t_yes = lo + _floor(-low / c) + 1          # raises the low bound above 0
                t_no = _ceil(hi - high / c) - 1            # lowers the high bound below 0
            else:
                t_yes = _floor(lo + high / -c) + 1         # cell up: the high bound below 0
                t_no = _ceil(hi + low / -c) - 1            # cell down: the low bound above 0
            mid = (lo + hi + 1) // 2
            a, b = sorted((t_yes, t_no + 1))
            target = min(max(mid, a), b)
            target = min(max(target, lo + 1), hi)
            self.tests += 1
            self._narrow(i, j, *self.cells.test(i, j, target))

    # ------------------------------------------------------------------ the simplex
    def run(self):
        rows, cols = self.rows, self.cols
        C, R = [], []                    # basic columns; tight rows (their slacks non-basic)
        while True:
            basis = [[self.exact(r, c) for c in C] for r in R]
            y = dict(zip(C, _solve_linear(basis, [Fraction(1)] * len(C)))) if C else {}
            transposed = [list(col) for col in zip(*basis)]
            u = dict(zip(R, _solve_linear(transposed, [Fraction(1)] * len(R)))) if R else {}
            # entering: Bland's rule, the lowest variable with a negative reduced cost
            entering = None
            for j in range(cols):
                if j not in C and self.sign(-1, [(u[r], r, j) for r in R]) < 0:
                    entering = ("col", j)
                    break
            if entering is None:
                for r in sorted(R):
                    if u[r] < 0:
                        entering = ("row", r)
                        break
            if entering is None:
                break
            kind, e = entering
            if kind == "col":
                w = dict(zip(C, _solve_linear(basis, [self.exact(r, e) for r in R]))) if C else {}
            else:
                w = dict(zip(C, _solve_linear(basis, [Fraction(int(r == e)) for r in R])))
            leaving = self._ratio_test(C, R, y, w, entering)
            self.pivots += 1
            if leaving < cols:
                C.remove(leaving)
            else:
                R.append(leaving - cols)
            if kind == "col":
                C.append(e)
            else:
                R.remove(e)
        total = sum(y.values(), Fraction(0))
        value = 1 / total - self.shift
        col_mix = tuple(y.get(j, Fraction(0)) / total for j in range(cols))
        row_mix = tuple(u.get(i, Fraction(0)) / total for i in range(rows))
        return value, row_mix, col_mix

    def _ratio_test(self, C, R, y, w, entering):
        """The leaving variable (index: column j, or ``cols + i`` for row i's slack): the least
        ratio, ties to the lowest index, as solve_zero_sum's Bland's rule."""
        kind, e = entering
        cols = self.cols
        best = None                                    # (ratio, variable)
        for c in C:
            if w[c] > 0:
                cand = (y[c] / w[c], c)
                best = cand if best is None or cand < best else best

        def point(theta):               # where the step reaches: z >= 0 on C (and e)
            z = {c: y[c] - theta * w[c] for c in C}
            if kind == "col":
                z[e] = theta
            return z

        def rate_terms(i):              # the rate at which row i's slack falls along the edge
            terms = [(-w[c], i, c) for c in C]
            if kind == "col":
                terms.append((1, i, e))
            return terms

        def slack_terms(i, z):          # row i's slack at z: 1 + these terms
            return [(-zc, i, c) for c, zc in z.items()]

        def make_exact(i, terms):
            for coef, _, c in terms:
                if coef != 0:
                    self.exact(i, c)

        def value_of(i, const, terms):
            return const + sum((coef * self.exact(i, c) for coef, _, c in terms if coef != 0), Fraction(0))

        pending = [i for i in range(self.rows) if i not in R]
        while pending:
            if best is None:
                # no ratio yet: take the row likeliest to bind (by the middles of its bounds)
                i = min(pending, key=lambda r: self._estimate(slack_terms(r, point(Fraction(0))), rate_terms(r)))
                pending.remove(i)
                if self.sign(0, rate_terms(i)) <= 0:
                    continue                            # its slack never falls: not a candidate
                slack0 = slack_terms(i, point(Fraction(0)))
                make_exact(i, slack0)
                make_exact(i, rate_terms(i))
                best = (value_of(i, 1, slack0) / value_of(i, 0, rate_terms(i)), cols + i)
                continue
            theta = best[0]
            z = point(theta)
            pending.sort(key=lambda r: self._middle(1, slack_terms(r, z)))
            i = pending.pop(0)
            s = self.sign(1, slack_terms(i, z))
            if s > 0:
                continue                                # strictly slack where the step ends
            if self.sign(0, rate_terms(i)) <= 0:
                continue                                # (then s == 0 at theta == 0: not a candidate)
            if s == 0:
                best = min(best, (theta, cols + i))     # binds at the same ratio: the lower index
                continue
            slack0 = slack_terms(i, point(Fraction(0)))  # binds sooner: its exact ratio
            make_exact(i, slack0)
            make_exact(i, rate_terms(i))
            best = (value_of(i, 1, slack0) / value_of(i, 0, rate_terms(i)), cols + i)
        if best is None:
            raise AssertionError("unbounded matrix game")
        return best[1]

    def _middle(self, const, terms):
        return const + sum(Fraction(c) * (Fraction(self.lo[i][j] + self.hi[i][j], 2) + self.shift)
                           for c, i, j in terms)

    def _estimate(self, slack, rate):
        r = self._middle(0, rate)
        if r <= 0:
            return Fraction(10 ** 9)
        return self._middle(1, slack) / r


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


def solve_lazy(rows: int, cols: int, cells: Cells):
    """``(value, row strategy, column strategy, LazyStats)`` of the ``rows`` x ``cols`` game
    whose cells ``cells`` gives: the same value and equilibrium as
    ``solve_zero_sum(full matrix)``, asking only for the cells its pivots depend on."""
    if rows < 1 or cols < 1:
        raise ValueError("a matrix game needs at least one row and one column")
    s = _Solver(rows, cols, cells)
    value, row_mix, col_mix = s.run()
    exact = sum(s.lo[i][j] == s.hi[i][j] for i in range(rows) for j in range(cols))
    return value, row_mix, col_mix, LazyStats(s.pivots, s.tests, s.exact_solves, exact, rows * cols,
                                              tuple(map(tuple, s.lo)), tuple(map(tuple, s.hi)))
