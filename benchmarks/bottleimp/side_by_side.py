#!/usr/bin/env python3
"""Two builds of the Bottle Imp's core side by side on the same play phases, in one run.

    python benchmarks/bottleimp/side_by_side.py --old /tmp/old/.venv/bin/python \\
        --new .venv/bin/python --variant lopaka --seeds 1-10000 [--chunk 1000]

Each build runs in its own process (its Python and the ``scoundrel_solver`` installed
there), on the play phases of ``bench_solve.py`` (Lopaka after ``pass min(A) min(B)``,
Glitzerhaus after the lowest-two setup), one engine a process, the deals in chunks taken by
the two builds in turn, which goes first alternating chunk by chunk (old, new, new, old, ...),
so that a change in the machine's load falls on both alike.  It stops with an error at the
first value that differs, and prints each build's CPU median, p90, p99, max and sum, the
nodes, and the ratio new / old of the summed CPU and of the medians.  ``--out FILE`` keeps
every deal's figures (one JSON line a deal and build, written chunk by chunk as they come).

The worker half (``--worker``) is what each build's Python runs: it prints one JSON line a
deal (value, nodes, CPU seconds).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from scoundrel_solver.batch import BatchError, parse_seeds, percentile, seeds_text

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from measure import in_turns  # noqa: E402


def worker(variant: str, cards: str, seeds) -> None:
    import time
    sys.path.insert(0, str(HERE))
    from bench_solve import play_phase
    from scoundrel_solver.bottleimp.engine import Engine
    engine = Engine()
    for seed in seeds:
        _, state = play_phase(variant, seed, cards)
        cpu = time.process_time()
        b = engine.bounds(state)
        cpu = time.process_time() - cpu
        print(json.dumps({"seed": seed, "value": b.value, "nodes": b.nodes, "cpu": round(cpu, 6)}), flush=True)


def run_chunk(python: str, args, seeds) -> list:
    out = subprocess.run([python, str(Path(__file__).resolve()), "--worker", "--variant", args.variant,
                          "--cards", args.cards, "--seeds", seeds_text(seeds)],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def figures(recs: list) -> dict:
    cpu = sorted(r["cpu"] for r in recs)
    n = len(cpu)
    return {"deals": n, "median_ms": 1000 * statistics.median(cpu), "p90_ms": 1000 * percentile(cpu, 90),
            "p99_ms": 1000 * percentile(cpu, 99), "max_ms": 1000 * cpu[-1], "sum_s": sum(cpu),
            "nodes": sum(r["nodes"] for r in recs)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--old", help="the old build's Python")
    p.add_argument("--new", help="the new build's Python")
    p.add_argument("--variant", choices=["lopaka", "glitzerhaus"], default="lopaka")
    p.add_argument("--cards", choices=["classic", "matagot"], default="classic")
    p.add_argument("--seeds", default="1-1000", help="deal numbers: A-B, N or a comma list of them (default 1-1000)")
    p.add_argument("--chunk", type=int, default=250, help="deals a turn (default 250)")
    p.add_argument("--out", type=Path, help="every deal's figures, one JSON line a deal and build")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    try:
        seeds = parse_seeds(args.seeds)
    except BatchError as e:
        print(f"--seeds: {e}", file=sys.stderr)
        return 2
    if args.worker:
        worker(args.variant, args.cards, seeds)
        return 0
    if args.chunk < 1:
        print("--chunk must be 1 or more", file=sys.stderr)
        return 2
    if not (args.old and args.new):
        print("give --old and --new (each build's Python)", file=sys.stderr)
        return 2
    got = {"old": [], "new": []}
    out = args.out.open("w") if args.out else None
    for chunk, order in in_turns(seeds, args.chunk, ["old", "new"]):
        part = {name: run_chunk(getattr(args, name), args, chunk) for name in order}
        for o, n in zip(part["old"], part["new"]):
            if o["seed"] != n["seed"] or o["value"] != n["value"]:
                print(f"deal {o['seed']}: the builds differ (old {o['value']}, new {n['value']})", file=sys.stderr)
                return 1
        for name in ("old", "new"):
            got[name] += part[name]
            if out:
                out.writelines(json.dumps({"build": name, **r}) + "\n" for r in part[name])
        if out:
            out.flush()
        print(f"  {len(got['old'])}/{len(seeds)} deals", file=sys.stderr, flush=True)
    fig = {name: figures(recs) for name, recs in got.items()}
    print(f"{args.variant} {args.cards} play phases {args.seeds}: every value equal")
    for name in ("old", "new"):
        f = fig[name]
        print(f"  {name}: CPU ms median {f['median_ms']:.2f}  p90 {f['p90_ms']:.1f}  p99 {f['p99_ms']:.1f}  "
              f"max {f['max_ms']:.0f}  sum {f['sum_s']:.1f} s  nodes {f['nodes']:,}")
    print(f"  new / old: CPU sum {fig['new']['sum_s'] / fig['old']['sum_s']:.3f}, "
          f"median {fig['new']['median_ms'] / fig['old']['median_ms']:.3f}, "
          f"nodes {fig['new']['nodes'] / fig['old']['nodes']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
