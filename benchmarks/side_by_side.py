#!/usr/bin/env python3
"""Two builds of the search core, deal by deal: the same node counts?  The same time?

Each build runs in a worker process of its own interpreter (the ``python`` of a
virtualenv where that build is installed), kept alive for the whole run.  Deals
alternate between the builds, and which one goes first alternates too, so load
that drifts on a shared machine falls on both alike.  Per set it prints the total
nodes, a digest of every (seed, score, nodes), how many deals differ, and the
median, p90 and total CPU seconds of each build (CPU, not wall: the machine is shared).

Examples (from the repository root)::

    python benchmarks/side_by_side.py --old /tmp/core-old/.venv/bin/python \\
        --new .venv/bin/python --set solo-classic:1-1000 --set solo-hard:1-200 \\
        --set coop-52:1-30 --out /tmp/side.jsonl

A set's seeds may be ranges and single seeds, comma-separated (``coop-52:1-30,97,103``).

The sets are those of benchmarks/bench_solve.py; every deal is solved with
``solve(seed=..., rules=...)`` and its defaults.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
from pathlib import Path

from scoundrel_solver.batch import percentile

# name -> rule options (as in benchmarks/bench_solve.py)
SETS = {
    "solo-classic": dict(mode="solo", flee="classic"),
    "solo-hard": dict(mode="solo", flee="hard"),
    "solo-easy": dict(mode="solo", flee="easy"),
    "coop-52": dict(mode="coop", deck_size=52),
    "coop-52-strict": dict(mode="coop", deck_size=52, durability="strict"),
    "coop-50-strict": dict(mode="coop", deck_size=50, durability="strict"),
}

# The worker: reads "options-json seed" lines, answers one JSON line per deal.
WORKER = r"""
import json, sys, time
import scoundrel_solver
from scoundrel_solver import Rules, solve
print(json.dumps({"package": scoundrel_solver.__file__}), flush=True)
for line in sys.stdin:
    opts, seed = line.rsplit(" ", 1)
    rules = Rules(**json.loads(opts))
    c0, w0 = time.process_time(), time.perf_counter()
    r = solve(seed=int(seed), rules=rules)
    c1, w1 = time.process_time(), time.perf_counter()
    print(json.dumps({"score": r.score, "nodes": r.nodes, "exact": r.exact,
                      "cpu": c1 - c0, "wall": w1 - w0}), flush=True)
"""


class Worker:
    def __init__(self, python: str):
        self.proc = subprocess.Popen([python, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.package = json.loads(self.proc.stdout.readline())["package"]

    def solve(self, opts: dict, seed: int) -> dict:
        self.proc.stdin.write(f"{json.dumps(opts)} {seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"error: the worker of {self.package} stopped")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def parse_set(text: str) -> tuple:
    name, _, seeds = text.partition(":")
    if name not in SETS:
        raise argparse.ArgumentTypeError(f"unknown set {name!r} (one of {', '.join(SETS)})")
    out = []
    for part in seeds.split(","):        # ranges and single seeds: 1-30,52,97
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return name, out


def summary(name: str, rows: list) -> str:
    out = []
    digests = {}
    for build in ("old", "new"):
        h = hashlib.sha256()
        for r in rows:
            h.update(f"{r['seed']}:{r[build]['score']}:{r[build]['nodes']};".encode())
        digests[build] = h.hexdigest()[:16]
    differ = sum(1 for r in rows if (r["old"]["score"], r["old"]["nodes"]) != (r["new"]["score"], r["new"]["nodes"]))
    out.append(f"{name}: {len(rows)} deals, {differ} differ in score or nodes")
    for build in ("old", "new"):
        cpu = [r[build]["cpu"] for r in rows]
        wall = [r[build]["wall"] for r in rows]
        out.append(f"  {build}: nodes {sum(r[build]['nodes'] for r in rows):>13,}  digest {digests[build]}  "
                   f"cpu median {statistics.median(cpu):.4f} s  p90 {percentile(cpu, 90):.4f} s  total {sum(cpu):.1f} s  "
                   f"(wall total {sum(wall):.1f} s)")
    old = sum(r["old"]["cpu"] for r in rows)
    new = sum(r["new"]["cpu"] for r in rows)
    ratios = [r["new"]["cpu"] / r["old"]["cpu"] for r in rows if r["old"]["cpu"] > 0]
    out.append(f"  new/old cpu: total {new / old:.3f}, median of per-deal ratios {statistics.median(ratios):.3f}")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True, help="python of the build to compare against")
    ap.add_argument("--new", required=True, help="python of the build under test")
    ap.add_argument("--set", dest="sets", action="append", type=parse_set, required=True,
                    help="NAME:A-B, e.g. solo-classic:1-1000 (repeatable)")
    ap.add_argument("--out", type=Path, help="also write one JSON line per deal here")
    args = ap.parse_args(argv)
    workers = {"old": Worker(args.old), "new": Worker(args.new)}
    if workers["old"].package == workers["new"].package:
        raise SystemExit(f"error: both interpreters import the same package {workers['old'].package}")
    for build, w in workers.items():
        print(f"{build}: {w.package}", flush=True)
    log = args.out.open("w") if args.out else None
    for name, seeds in args.sets:
        rows = []
        for i, seed in enumerate(seeds):
            order = ("old", "new") if i % 2 == 0 else ("new", "old")
            row = {"set": name, "seed": seed}
            for build in order:
                row[build] = workers[build].solve(SETS[name], seed)
            rows.append(row)
            if log:
                log.write(json.dumps(row) + "\n")
                log.flush()
        print(summary(name, rows), flush=True)
    for w in workers.values():
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
