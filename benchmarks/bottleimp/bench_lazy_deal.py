#!/usr/bin/env python3
"""The whole Lopaka deal lazily against the full matrix, side by side in one run (issue 63, item 3).

    python benchmarks/bottleimp/bench_lazy_deal.py --seeds 1-50 [--out FILE.jsonl]
    python benchmarks/bottleimp/bench_lazy_deal.py --summary FILE.jsonl [FILE.jsonl ...]

For each deal, in one process, both ways, which goes first alternating deal by deal (so that a
change in the machine's load falls on both alike), each with its own engine kept across deals:

* **full** (the lazy method switched off): the 121 cells of the exchange matrix solved exactly
  (``Engine.bounds``, from 0, as ``bench_solve.py --whole``), then ``solve_zero_sum``;
* **lazy**: ``analysis.lazy_exchange_game`` (:mod:`scoundrel_solver.bottleimp.lazygame`).

It stops with an error at the first deal whose value or equilibrium differ, and prints each
way's CPU median, p90, p99, max and sum, the nodes, the cells solved exactly and the tests;
for the full matrix also "2 cores": its rows' CPU seconds scheduled on two workers, as
``bench_solve.py`` reports a whole deal on both cores (the lazy solve runs on one).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_solve import build_id, makespan  # noqa: E402
from scoundrel_solver.batch import BatchError, parse_seeds, percentile  # noqa: E402
from scoundrel_solver.bottleimp import Pass, Rules, deal  # noqa: E402
from scoundrel_solver.bottleimp.analysis import lazy_exchange_game  # noqa: E402
from scoundrel_solver.bottleimp.engine import Engine  # noqa: E402
from scoundrel_solver.bottleimp.exchange import solve_zero_sum  # noqa: E402


def full(engine: Engine, start) -> dict:
    cpu0, n0 = time.process_time(), engine.core.nodes
    rows, row_cpu = [], []
    for a in start.hands[0]:
        t = time.process_time()
        rows.append([engine.bounds(start.apply(Pass(a, b))).lower for b in start.hands[2]])
        row_cpu.append(time.process_time() - t)
    solution = solve_zero_sum(rows)
    return {"solution": solution, "cpu": time.process_time() - cpu0, "two_core": makespan(row_cpu, 2),
            "nodes": engine.core.nodes - n0, "exact_cells": 121, "tests": 0}


def lazy(engine: Engine, start) -> dict:
    cpu0, n0 = time.process_time(), engine.core.nodes
    game = lazy_exchange_game(start, engine)
    cpu = time.process_time() - cpu0
    return {"solution": game.solution, "cpu": cpu, "two_core": cpu, "nodes": engine.core.nodes - n0,
            "exact_cells": game.lazy.exact_cells, "tests": game.lazy.tests, "exact_solves": game.lazy.exact_solves,
            "pivots": game.lazy.pivots}


def figures(recs: list, key: str) -> dict:
    xs = sorted(r[key] for r in recs)
    return {"median": statistics.median(xs), "p90": percentile(xs, 90), "p99": percentile(xs, 99), "max": xs[-1],
            "sum": sum(xs)}


def summary(got: dict) -> None:
    """Each way's figures, and lazy / full."""
    print("  way    CPU s: median    p90    p99    max     sum | 2 cores: median    p99 | nodes: median      sum | "
          "exact cells: median mean | tests: mean")
    for name in ("full", "lazy"):
        c, t, n = figures(got[name], "cpu"), figures(got[name], "two_core"), figures(got[name], "nodes")
        cells = [r["exact_cells"] for r in got[name]]
        print(f"  {name:5}  {c['median']:13.3f} {c['p90']:6.3f} {c['p99']:6.3f} {c['max']:6.2f} {c['sum']:7.1f} | "
              f"{t['median']:15.3f} {t['p99']:6.3f} | {n['median'] / 1e6:12.1f}M {n['sum'] / 1e6:7.0f}M | "
              f"{statistics.median(cells):18.0f} {statistics.mean(cells):4.1f} | "
              f"{statistics.mean(r['tests'] for r in got[name]):11.1f}")
    f, z = got["full"], got["lazy"]
    ratio = [b["cpu"] / a["cpu"] for a, b in zip(f, z)]
    print(f"  lazy / full: CPU sum {sum(r['cpu'] for r in z) / sum(r['cpu'] for r in f):.3f}, "
          f"median of the ratios {statistics.median(ratio):.3f}, "
          f"nodes {sum(r['nodes'] for r in z) / sum(r['nodes'] for r in f):.3f}; "
          f"lazy (one core) / full on 2 cores: median {figures(z, 'cpu')['median'] / figures(f, 'two_core')['median']:.3f}; "
          f"lazy slower than full on one core in {sum(x > 1 for x in ratio)} of {len(ratio)} deals")
    print(f"  lazy: exact solves a deal mean {statistics.mean(r['exact_solves'] for r in z):.1f} (the other exact cells "
          f"met their bounds by tests), pivots median {statistics.median(r['pivots'] for r in z):.0f} max "
          f"{max(r['pivots'] for r in z)}; cells not solved exactly: {sum(121 - r['exact_cells'] for r in z)} of "
          f"{121 * len(z)}, nodes saved {sum(a['nodes'] - b['nodes'] for a, b in zip(f, z)) / 1e6:.0f}M")


def summarise(files) -> int:
    """The summary of ``--out`` files (their deals pooled, each deal once)."""
    got = {"full": {}, "lazy": {}}
    for path in files:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                got[r["way"]][r["seed"]] = r
    seeds = sorted(set(got["full"]) & set(got["lazy"]))
    print(f"whole Lopaka deals: {len(seeds)} ({seeds[0]}-{seeds[-1]}) from {len(files)} file(s)")
    summary({name: [got[name][s] for s in seeds] for name in got})
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="1-50", help="deal numbers: A-B, N or a comma list (default 1-50)")
    p.add_argument("--cards", choices=["classic", "matagot"], default="classic")
    p.add_argument("--out", type=Path, help="every deal's figures, one JSON line a deal")
    p.add_argument("--summary", nargs="+", metavar="FILE", help="only print the summary of these --out files")
    args = p.parse_args()
    if args.summary:
        return summarise(args.summary)
    try:
        seeds = parse_seeds(args.seeds)
    except BatchError as e:
        print(f"--seeds: {e}", file=sys.stderr)
        return 2
    engines = {"full": Engine(), "lazy": Engine()}
    ways = {"full": full, "lazy": lazy}
    got = {"full": [], "lazy": []}
    out = args.out.open("w") if args.out else None
    load0 = os.getloadavg()[0]
    print(f"build {build_id()}; load {load0:.2f}", file=sys.stderr, flush=True)
    for k, seed in enumerate(seeds):
        start = deal(seed, Rules("lopaka", cards=args.cards)).start()
        order = ["full", "lazy"] if k % 2 == 0 else ["lazy", "full"]
        rec = {name: ways[name](engines[name], start) for name in order}
        if rec["full"]["solution"] != rec["lazy"]["solution"]:
            print(f"deal {seed}: lazy {rec['lazy']['solution']} differs from full {rec['full']['solution']}",
                  file=sys.stderr)
            return 1
        for name in ("full", "lazy"):
            r = dict(rec[name], seed=seed)
            value = r.pop("solution")[0]
            got[name].append(r)
            if out:
                out.write(json.dumps({"way": name, "value": str(value), **r}) + "\n")
        if out:
            out.flush()
        if (k + 1) % 10 == 0:
            print(f"  {k + 1}/{len(seeds)} deals (load {os.getloadavg()[0]:.2f})", file=sys.stderr, flush=True)
    print(f"whole Lopaka deals {args.seeds} ({args.cards}): every value and equilibrium equal; "
          f"load {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    summary(got)
    return 0


if __name__ == "__main__":
    sys.exit(main())
