#!/usr/bin/env python3
"""The lazy exchange (lazygame.solve_lazy) against solve_zero_sum on recorded whole-deal matrices.

    python benchmarks/bottleimp/lazy_recorded.py [FILE.jsonl] [--deals N]

FILE: ``bench_solve.py --whole`` records (default benchmarks/results/bottleimp/lopaka-classic-whole.jsonl,
deals 1-10,000), each with its 11 x 11 matrix.  Each matrix is solved by solve_zero_sum and by
solve_lazy behind bounds of -126..126 with exact tests (no search: the figures count what the
lazy solve asks for, not what it costs); any difference in value or equilibrium is an error.
Prints the deals, how many of them have more than one equilibrium (where a tie rule decides), and
the tests, exact solves and cells known exactly a deal.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from scoundrel_solver.bottleimp.exchange import solve_zero_sum
from scoundrel_solver.bottleimp.lazygame import MatrixCells, solve_lazy

DEFAULT = Path(__file__).resolve().parents[1] / "results" / "bottleimp" / "lopaka-classic-whole.jsonl"


def several_equilibria(matrix, value, rows, cols) -> bool:
    """True when a pure choice outside the support ties the value against the other's mix
    (the equilibrium is then not strictly complementary, so not the only one)."""
    n, m = len(matrix), len(matrix[0])
    if any(not rows[i] and sum(matrix[i][j] * cols[j] for j in range(m)) == value for i in range(n)):
        return True
    return any(not cols[j] and sum(rows[i] * matrix[i][j] for i in range(n)) == value for j in range(m))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    p.add_argument("--deals", type=int, default=0, help="the first N records only (default all)")
    args = p.parse_args()
    tests, solves, exact, ties, n = [], [], [], 0, 0
    with args.file.open() as f:
        for line in f:
            rec = json.loads(line)
            matrix = rec["matrix"]
            full = solve_zero_sum(matrix)
            rows, cols = len(matrix), len(matrix[0])
            cells = MatrixCells(matrix, [[-126] * cols] * rows, [[126] * cols] * rows)
            value, a, b, stats = solve_lazy(rows, cols, cells)
            if (value, a, b) != full:
                print(f"deal {rec['seed']}: lazy {(value, a, b)} differs from full {full}", file=sys.stderr)
                return 1
            ties += several_equilibria(matrix, *full)
            tests.append(stats.tests)
            solves.append(stats.exact_solves)
            exact.append(stats.exact_cells)
            n += 1
            if args.deals and n >= args.deals:
                break
    print(f"{n} recorded deals: every value and equilibrium equal; {ties} of them with more than one equilibrium")
    print(f"a deal: tests mean {statistics.mean(tests):.1f} (median {statistics.median(tests)}), exact solves mean "
          f"{statistics.mean(solves):.2f}, cells known exactly mean {statistics.mean(exact):.2f} "
          f"(median {statistics.median(exact)}, max {max(exact)}) of {rows * cols}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
