#!/usr/bin/env python3
"""The ``table`` bot's cost at two or more sizes of the real-table hint's table, side by side.

    python benchmarks/bottleimp/bench_table_bot.py [--variant glitzerhaus] [--deals 201-240] \\
        [--sizes 17,20] [--chunk 5] [--out FILE]

The ``table`` bot (the real-table hint's card over 16 worlds of what its seat knows, each
solved exactly) sets the pace of the duplicate tournaments (``bots.py``) and of ``imp play``.
Each deal is played in duplicate against ``greedy`` (as ``bots.py play --pairs
table:greedy``) once per size: a fresh process per size and chunk of deals, the hint's engine
made with a table of 2^size entries (``tablehint.use_engine``), the sizes taken in turn and
in alternating order chunk by chunk, so that a change in the machine's load falls on all
alike.  The games must be the same at every size (the bot's card depends on exact values
only): the run stops with an error if one margin differs.  Printed per size: CPU seconds a
duplicate deal (median, p90, p99, max, sum), the nodes of the hint's searches and nodes per
CPU second, the peak memory of the process, and each size's summed CPU and nodes as a ratio
to the first size.  ``--out FILE`` keeps every deal's figures (one JSON line a deal and size).
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

from scoundrel_solver.batch import BatchError, command_main, parse_seeds, percentile, seeds_text

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from measure import in_turns  # noqa: E402


def worker(variant: str, log2: int, seeds) -> None:
    sys.path.insert(0, str(HERE))
    from bots import duplicate
    from scoundrel_solver.bottleimp import engine as engine_module, tablehint

    nodes = 0
    bounds = engine_module.Engine.bounds

    def counted(self, *args, **kw):          # every search of the hint goes through Engine.bounds
        nonlocal nodes
        b = bounds(self, *args, **kw)
        nodes += b.nodes
        return b

    engine_module.Engine.bounds = counted
    tablehint.use_engine(engine_module.Engine(log2))
    for seed in seeds:
        nodes = 0
        cpu = time.process_time()
        rec = duplicate((variant, "table", "greedy", seed, None))
        cpu = time.process_time() - cpu
        print(json.dumps({"seed": seed, "size": log2, "first_as_A": rec["first_as_A"],
                          "second_as_A": rec["second_as_A"], "cpu": round(cpu, 4), "nodes": nodes,
                          "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}),
              flush=True)


def run_chunk(variant: str, log2: int, seeds) -> list:
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", "--variant", variant,
                           "--sizes", str(log2), "--deals", seeds_text(seeds)], capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"error: the worker at 2^{log2} failed: {proc.stderr.strip().splitlines()[-1:]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def figures(recs: list) -> dict:
    cpu = sorted(r["cpu"] for r in recs)
    nodes = sum(r["nodes"] for r in recs)
    return {"deals": len(cpu), "median_s": statistics.median(cpu), "p90_s": percentile(cpu, 90),
            "p99_s": percentile(cpu, 99), "max_s": cpu[-1], "sum_s": sum(cpu), "nodes": nodes,
            "nodes_per_s": nodes / sum(cpu) if sum(cpu) else 0.0, "peak_mib": max(r["peak_mib"] for r in recs)}


def run(args) -> int:
    seeds = list(parse_seeds(args.deals))
    try:
        sizes = [int(x) for x in args.sizes.split(",")]
    except ValueError:
        sizes = []
    if not sizes or any(not 4 <= s <= 26 for s in sizes):
        raise BatchError(f"--sizes {args.sizes!r}: give log2 of the entries, 4 to 26, e.g. 17,20")
    if args.chunk < 1:
        raise BatchError(f"--chunk {args.chunk}: give 1 or more")
    if args.worker:
        worker(args.variant, sizes[0], seeds)
        return 0
    recs = {s: [] for s in sizes}
    out = args.out.open("a") if args.out else None
    for chunk, order in in_turns(seeds, args.chunk, sizes):
        for size in order:
            got = run_chunk(args.variant, size, chunk)
            recs[size] += got
            if out:
                out.writelines(json.dumps(r) + "\n" for r in got)
                out.flush()
        base = recs[sizes[0]]
        for size in sizes[1:]:
            for a, b in zip(base, recs[size]):
                if (a["first_as_A"], a["second_as_A"]) != (b["first_as_A"], b["second_as_A"]):
                    print(f"error: deal {a['seed']} played differently at 2^{size} than at 2^{sizes[0]}: "
                          f"{b['first_as_A']}, {b['second_as_A']} against {a['first_as_A']}, {a['second_as_A']}",
                          file=sys.stderr)
                    return 1
        print(f"{len(base)} deals done", file=sys.stderr, flush=True)
    print(f"{args.variant}, deals {seeds_text(seeds)}, table:greedy in duplicate (the same games at every size); "
          f"CPU seconds a duplicate deal:")
    first = figures(recs[sizes[0]])
    for size in sizes:
        f = figures(recs[size])
        print(f"  2^{size:<2} ({(16 << size) / 2**20:g} MiB): median {f['median_s']:.2f}  p90 {f['p90_s']:.2f}  "
              f"p99 {f['p99_s']:.2f}  max {f['max_s']:.2f}  sum {f['sum_s']:.1f}  nodes {f['nodes'] / 1e6:,.0f} M "
              f"({f['nodes_per_s'] / 1e6:.1f} M/s)  peak {f['peak_mib']:.0f} MiB  "
              f"CPU x{f['sum_s'] / first['sum_s']:.3f}  nodes x{f['nodes'] / first['nodes']:.3f}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=["lopaka", "glitzerhaus"], default="glitzerhaus")
    parser.add_argument("--deals", default="201-240")
    parser.add_argument("--sizes", default="17,20", help="log2 of the table's entries, the first the base")
    parser.add_argument("--chunk", type=int, default=5, help="deals a worker plays before the sizes take turns")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    return command_main(run, args)


if __name__ == "__main__":
    sys.exit(main())
