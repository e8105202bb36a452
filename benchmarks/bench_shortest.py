#!/usr/bin/env python3
"""What the optimal line of fewest rooms costs (``solve(shortest=True)``, core ``_shortest``).

For each deal: the proof alone and the proof plus the rooms search, side by
side in one run (each deal solved both ways, cold), the rooms of the proof's
line and of the fewest, whether the rooms search completed within its limit
(``search.LINE_NODES``, or ``--line-nodes``), its nodes and nodes/s.  One JSON line per deal
on stdout as it goes (``--out`` also appends them to a file), then a summary:
median, p90, p95, max, the ratio of the medians, rooms saved, peak RSS.

    python benchmarks/bench_shortest.py --flee classic --deals 1-200
    python benchmarks/bench_shortest.py --flee easy --deals 1-100
    python benchmarks/bench_shortest.py --mode coop --deals 1-10
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import Rules, State, deal, replay  # noqa: E402
from scoundrel_solver.batch import percentile  # noqa: E402
from scoundrel_solver.scoundrel.search import LINE_NODES, load_core  # noqa: E402


def _range(text: str) -> list:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mode", default="solo", choices=["solo", "coop"])
    p.add_argument("--flee", default="classic", choices=["classic", "easy", "hard"])
    p.add_argument("--deals", default="1-50")
    p.add_argument("--line-nodes", type=int, default=LINE_NODES)
    p.add_argument("--out", help="append the per-deal JSON lines here too")
    a = p.parse_args(argv)
    rules = Rules(mode=a.mode) if a.mode == "coop" else Rules(flee=a.flee)
    core = load_core()
    rows = []
    out = open(a.out, "a", encoding="utf-8") if a.out else None
    for seed in _range(a.deals):
        start = State.new(deal(seed, rules), rules)
        t0 = time.perf_counter()
        plain = core.search(start)
        t1 = time.perf_counter()
        short = core.search(start, shortest=True, line_max_nodes=a.line_nodes)
        t2 = time.perf_counter()
        end = replay(start, short["line"])[-1]
        if not (end.finished and end.score == short["score"] == plain["score"]):
            raise SystemExit(f"deal {seed}: the shortest line does not replay to the optimum")
        row = {"seed": seed, "score": plain["score"], "proof_seconds": round(t1 - t0, 4),
               "seconds": round(t2 - t1, 4), "rooms_proof_line": len(plain["line"]),
               "rooms": len(short["line"]), "shortest": short["shortest"], "nodes": plain["nodes"],
               "line_nodes": short["line_nodes"]}
        rows.append(row)
        text = json.dumps(row)
        print(text, flush=True)
        if out:
            out.write(text + "\n")
            out.flush()
    proof = [r["proof_seconds"] for r in rows]
    both = [r["seconds"] for r in rows]
    line_s = [max(0.0, r["seconds"] - r["proof_seconds"]) for r in rows]
    nodes = sum(r["line_nodes"] for r in rows)
    print(f"# {len(rows)} deals, {a.mode} {'' if a.mode == 'coop' else a.flee}: proof only median "
          f"{statistics.median(proof):.3f} s; proof + fewest rooms median {statistics.median(both):.3f} s, "
          f"p90 {percentile(both, 90):.3f}, p95 {percentile(both, 95):.3f}, max {max(both):.3f} "
          f"(ratio of medians {statistics.median(both) / max(1e-9, statistics.median(proof)):.1f}x)")
    print(f"# rooms search: {sum(1 for r in rows if r['shortest'])}/{len(rows)} proven within "
          f"{a.line_nodes:,} nodes; {nodes:,} nodes, {nodes / max(1e-9, sum(line_s)):,.0f} nodes/s; "
          f"rooms {sum(r['rooms_proof_line'] for r in rows):,} -> {sum(r['rooms'] for r in rows):,}; "
          f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
