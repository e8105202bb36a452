#!/usr/bin/env python3
"""One solve on one thread against N (``solve(threads=)``), side by side in one run.

Each deal is solved as the CLI's ``solve`` does (``shortest=True``), once with
``--threads 1`` and once with N (alternating which goes first, to spread any
drift in the machine's load), each in a fresh process so that its peak RSS and
CPU time are its own.  Checks that both give the same score, and reports whether
the lines agree (they must: the line of fewest rooms and the canonical walk are
fixed rules).  One JSON line per run is appended to ``--out`` as it finishes, and
``--resume`` skips the runs already there, so a long set can be stopped and resumed.

    nice -n 0 python benchmarks/bench_threads.py --seeds 1-100 --out benchmarks/results/threads-coop52.jsonl --resume
    python benchmarks/bench_threads.py --summary benchmarks/results/threads-coop52.jsonl

``--proof-only``: the solve without the search for the fewest rooms
(``shortest=False``, as ``bench_solve.py`` and the library's default): the proof, and
on threads the canonical walk that names its line (one thread prints the proof's own
line, so the lines are not compared).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from scoundrel_solver.batch import percentile

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def one(seed, threads, mode, deck_size, tt_mb, shortest=True):
    from scoundrel_solver import Rules, solve
    rules = Rules(mode=mode, deck_size=deck_size)
    u0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    r = solve(seed=seed, rules=rules, threads=threads, shortest=shortest, tt_mb=tt_mb)
    wall = time.perf_counter() - t0
    u1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (u1.ru_utime - u0.ru_utime) + (u1.ru_stime - u0.ru_stime)
    return {"seed": seed, "threads": threads, "score": r.score, "exact": r.exact, "nodes": r.nodes,
            "line_nodes": r.line_nodes, "shortest": r.shortest, "seconds": round(wall, 3),
            "cpu_seconds": round(cpu, 3), "line": r.line_text, "peak_rss_mb": round(u1.ru_maxrss / 1024, 1),
            "load": round(os.getloadavg()[0], 2), "shortest_asked": shortest}


def seeds_of(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def summary(rows, n=None):
    by = {}
    for r in rows:
        by.setdefault(r["seed"], {})[r["threads"]] = r
    if n is None:
        n = max((t for v in by.values() for t in v if t > 1), default=2)
    pairs = [v for v in by.values() if 1 in v and n in v]
    if not pairs:
        print("no deal has both runs yet")
        return
    loads = [p[t].get("load", 0) for p in pairs for t in (1, n)]
    print(f"{len(pairs)} deals, threads 1 and {n}; load average (1 min) at the runs' ends: "
          f"median {statistics.median(loads):.1f}, max {max(loads):.1f}")
    for th in (1, n):
        secs = [p[th]["seconds"] for p in pairs]
        cpu = sum(p[th].get("cpu_seconds", 0) for p in pairs)
        nodes = sum(p[th]["nodes"] + p[th]["line_nodes"] for p in pairs)
        proof = sum(p[th]["nodes"] for p in pairs)
        print(f"threads {th}: median {statistics.median(secs):.2f} s, p90 {percentile(secs, 90):.2f}, "
              f"p95 {percentile(secs, 95):.2f}, max {max(secs):.2f}, total {sum(secs):.1f} s (CPU {cpu:.1f} s), "
              f"nodes {nodes:,} (proof {proof:,}), {nodes / sum(secs):,.0f} nodes/s, "
              f"peak RSS {max(p[th]['peak_rss_mb'] for p in pairs):.0f} MB")
    ratios = [p[1]["seconds"] / p[n]["seconds"] for p in pairs]
    total = sum(p[1]["seconds"] for p in pairs) / sum(p[n]["seconds"] for p in pairs)
    print(f"speed-up t1/t{n} per deal: median {statistics.median(ratios):.2f}, p10 {percentile(ratios, 10):.2f}, "
          f"min {min(ratios):.2f}, max {max(ratios):.2f}; total {total:.2f}")
    same_score = sum(p[1]["score"] == p[n]["score"] for p in pairs)
    same_line = sum(p[1]["line"] == p[n]["line"] for p in pairs)
    if all(p[1].get("shortest_asked", True) for p in pairs):
        print(f"same score {same_score}/{len(pairs)}, same line {same_line}/{len(pairs)}")
    else:
        print(f"same score {same_score}/{len(pairs)} (proof only: one thread prints the proof's line, "
              f"threads the canonical walk's; they agree in {same_line})")
    for p in pairs:
        print(f"  deal {p[1]['seed']}: {p[1]['seconds']:.1f} s -> {p[n]['seconds']:.1f} s "
              f"(x{p[1]['seconds'] / p[n]['seconds']:.2f}), proof nodes {p[1]['nodes']:,} -> {p[n]['nodes']:,}, "
              f"line nodes {p[1]['line_nodes']:,} -> {p[n]['line_nodes']:,}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-30")
    ap.add_argument("--mode", default="coop")
    ap.add_argument("--deck-size", type=int, default=52)
    ap.add_argument("--tt-mb", type=float, default=256)
    ap.add_argument("--threads", type=int, default=2, help="the thread count run against 1")
    ap.add_argument("--out")
    ap.add_argument("--resume", action="store_true", help="skip the runs already in --out")
    ap.add_argument("--summary")
    ap.add_argument("--proof-only", action="store_true", help="shortest=False: no search for the fewest rooms")
    ap.add_argument("--one", nargs=2, type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        print(json.dumps(one(a.one[0], a.one[1], a.mode, a.deck_size, a.tt_mb, not a.proof_only)))
        return
    if a.summary:
        summary([json.loads(line) for line in open(a.summary)])
        return
    rows, done = [], set()
    if a.out and a.resume and os.path.exists(a.out):
        rows = [json.loads(line) for line in open(a.out) if line.strip()]
        done = {(r["seed"], r["threads"]) for r in rows}
    out = open(a.out, "a") if a.out else None
    for i, seed in enumerate(seeds_of(a.seeds)):
        for th in ((1, a.threads) if i % 2 == 0 else (a.threads, 1)):
            if (seed, th) in done:
                continue
            cmd = [sys.executable, __file__, "--one", str(seed), str(th), "--mode", a.mode,
                   "--deck-size", str(a.deck_size), "--tt-mb", str(a.tt_mb)] + (["--proof-only"] if a.proof_only else [])
            row = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            print(f"deal {seed} threads {th}: score {row['score']} {row['seconds']:.2f} s "
                  f"(CPU {row['cpu_seconds']:.2f} s) {row['nodes']:,} + {row['line_nodes']:,} nodes, "
                  f"load {row['load']}", flush=True)
    summary(rows, a.threads)


if __name__ == "__main__":
    main()
