#!/usr/bin/env python3
"""What the progress callback costs the search: nodes/s with and without it.

Solves each deal three ways, alternating deal by deal (and rotating which way
goes first, so load that drifts on a shared machine falls on all alike):

* ``none``      no callback (what pipes, --json consumers and the library get);
* ``line``      the CLI's progress line (``ProgressLine.search``, enabled, written
                to a sink), reported every 0.25 s within a test, as at a terminal;
* ``every-1k``  the same line told at every chance the core has (every 1,024
                nodes and after each test: ``every`` = 0), the worst case.

Checks that the node counts are identical (the callback only reads), then
prints per way the total nodes, the CPU seconds (not wall: the machine is
shared) and nodes per CPU second, and the ratio to ``none``.

Example (from the repository root)::

    python benchmarks/progress_overhead.py --seeds 1-200          # solo classic
    python benchmarks/progress_overhead.py --seeds 1-20 --mode coop
"""
from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

try:
    import scoundrel_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoundrel_solver import Rules, solve
from scoundrel_solver.progress import ProgressLine


def seeds_of(text: str) -> list:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def callback(way: str):
    if way == "none":
        return None
    line = ProgressLine(io.StringIO(), delay=0, every=0.25 if way == "line" else 0.0, enabled=True)
    return line.search("solving")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-200", help="deals, e.g. 1-200 or 1-10,42")
    ap.add_argument("--mode", default="solo", choices=("solo", "coop"))
    ap.add_argument("--flee", default="classic", choices=("classic", "easy", "hard"))
    ap.add_argument("--rounds", type=int, default=1, help="solve every deal this many times each way")
    args = ap.parse_args(argv)
    rules = Rules(mode=args.mode, flee=args.flee)
    ways = ("none", "line", "every-1k")
    nodes = {w: 0 for w in ways}
    cpu = {w: 0.0 for w in ways}
    differ = 0
    seeds = seeds_of(args.seeds)
    for r in range(args.rounds):
        for i, seed in enumerate(seeds):
            k = (i + r) % len(ways)
            counts = {}
            for way in ways[k:] + ways[:k]:
                cb = callback(way)
                t0 = time.process_time()
                res = solve(seed=seed, rules=rules, progress=cb)
                cpu[way] += time.process_time() - t0
                nodes[way] += res.nodes
                counts[way] = (res.score, res.nodes, res.line_text)
            differ += len(set(counts.values())) != 1
    print(f"{rules.describe()}, seeds {args.seeds} ({len(seeds)} deals), {args.rounds} round(s)")
    print(f"deals whose score, nodes or line differ between the ways: {differ}")
    base = nodes["none"] / cpu["none"]
    for way in ways:
        rate = nodes[way] / cpu[way]
        print(f"{way:9s} {nodes[way]:>14,} nodes  {cpu[way]:8.2f} s CPU  {rate:>12,.0f} nodes/s  "
              f"{rate / base:6.3f} of none")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
