#!/usr/bin/env python3
"""One solve on one core against two (``solve(threads=)``), side by side in one run.

Each deal is solved as the CLI's ``solve`` does (``shortest=True``), once with
``--threads 1`` and once with 2 (alternating which goes first, to spread any
drift in the machine's load), each in a fresh process so that its peak RSS
is its own (the process and, for 2, its largest worker).  Checks that both give
the same score, and reports whether the lines agree (they may differ where
optimal lines tie; the line of threads 2 is the same on every run).

    python benchmarks/bench_threads.py --seeds 1-30 --out benchmarks/results/threads-coop52.jsonl
    python benchmarks/bench_threads.py --summary benchmarks/results/threads-coop52.jsonl
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def one(seed, threads, mode, deck_size, tt_mb):
    from scoundrel_solver import Rules, solve
    rules = Rules(mode=mode, deck_size=deck_size)
    t0 = time.perf_counter()
    r = solve(seed=seed, rules=rules, threads=threads, shortest=True, tt_mb=tt_mb)
    wall = time.perf_counter() - t0
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"seed": seed, "threads": threads, "score": r.score, "exact": r.exact, "nodes": r.nodes,
            "line_nodes": r.line_nodes, "seconds": round(wall, 3), "line": r.line_text,
            "peak_rss_mb": round(own, 1), "worker_rss_mb": round(kids, 1)}


def seeds_of(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))]


def summary(rows):
    by = {}
    for r in rows:
        by.setdefault(r["seed"], {})[r["threads"]] = r
    pairs = [v for v in by.values() if 1 in v and 2 in v]
    print(f"{len(pairs)} deals, both thread counts")
    for th in (1, 2):
        secs = [p[th]["seconds"] for p in pairs]
        nodes = sum(p[th]["nodes"] + p[th]["line_nodes"] for p in pairs)
        print(f"threads {th}: median {statistics.median(secs):.2f} s, p90 {pct(secs, .9):.2f}, "
              f"p95 {pct(secs, .95):.2f}, max {max(secs):.2f}, total {sum(secs):.1f} s, "
              f"nodes {nodes:,} ({nodes / sum(secs):,.0f}/s), "
              f"peak RSS {max(p[th]['peak_rss_mb'] for p in pairs):.0f} MB process, "
              f"{max(p[th]['worker_rss_mb'] for p in pairs):.0f} MB worker")
    ratios = [p[1]["seconds"] / p[2]["seconds"] for p in pairs]
    print(f"speed-up t1/t2 per deal: median {statistics.median(ratios):.2f}, min {min(ratios):.2f}, "
          f"max {max(ratios):.2f}; total {sum(p[1]['seconds'] for p in pairs) / sum(p[2]['seconds'] for p in pairs):.2f}")
    same_score = sum(p[1]["score"] == p[2]["score"] for p in pairs)
    same_line = sum(p[1]["line"] == p[2]["line"] for p in pairs)
    print(f"same score {same_score}/{len(pairs)}, same line {same_line}/{len(pairs)}")
    slow = sorted(pairs, key=lambda p: -p[1]["seconds"])[:5]
    for p in slow:
        print(f"  deal {p[1]['seed']}: {p[1]['seconds']:.1f} s -> {p[2]['seconds']:.1f} s, "
              f"nodes {p[1]['nodes']:,} -> {p[2]['nodes']:,}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-30")
    ap.add_argument("--mode", default="coop")
    ap.add_argument("--deck-size", type=int, default=52)
    ap.add_argument("--tt-mb", type=float, default=256)
    ap.add_argument("--out")
    ap.add_argument("--summary")
    ap.add_argument("--one", nargs=2, type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        print(json.dumps(one(a.one[0], a.one[1], a.mode, a.deck_size, a.tt_mb)))
        return
    if a.summary:
        summary([json.loads(line) for line in open(a.summary)])
        return
    rows = []
    out = open(a.out, "a") if a.out else None
    for i, seed in enumerate(seeds_of(a.seeds)):
        for th in ((1, 2) if i % 2 == 0 else (2, 1)):
            cmd = [sys.executable, __file__, "--one", str(seed), str(th), "--mode", a.mode,
                   "--deck-size", str(a.deck_size), "--tt-mb", str(a.tt_mb)]
            row = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            print(f"deal {seed} threads {th}: score {row['score']} {row['seconds']:.2f} s "
                  f"{row['nodes']:,} nodes", flush=True)
    summary(rows)


if __name__ == "__main__":
    main()
