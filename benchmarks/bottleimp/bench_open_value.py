#!/usr/bin/env python3
"""The open-stack game's value by a saddle search against its four cells solved outright, side by
side in one run (issue 61: what Glitzerhaus's stack-step hint and review pay per pair).

    python benchmarks/bottleimp/bench_open_value.py --seeds 1-20 [--pairs 72] [--out FILE.jsonl]

For each Glitzerhaus deal: stack 1 laid by the low-cards policy, then each of A's stack-2 pairs
(the first ``--pairs`` of the 72) against B's low-cards pair, giving a state before ``open`` -
exactly the states the setup hint at stack 2 and the review of stack 2 value.  Each state's
open-stack game is valued both ways, which goes first alternating state by state, each way with
its own engine kept across the run:

* **four cells** (the saddle search switched off): the 2 x 2 cells solved exactly
  (``Engine.value``), then ``solve_zero_sum``, as the hint did before;
* **saddle**: ``analysis.open_stack_value`` (the start cell carried from the last state, as the
  hint carries it).

It stops with an error at the first state whose values differ, and prints each way's CPU per
game (median, p90, p99, max, sum), the nodes, nodes/s, the peak memory and the ratios.
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

from bench_solve import build_id  # noqa: E402
from measure import peak_rss_mb  # noqa: E402
from scoundrel_solver.batch import BatchError, parse_seeds, percentile  # noqa: E402
from scoundrel_solver.bottleimp import Rules, deal  # noqa: E402
from scoundrel_solver.bottleimp.analysis import open_stack_value, policy_steps  # noqa: E402
from scoundrel_solver.bottleimp.engine import Engine  # noqa: E402
from scoundrel_solver.bottleimp.exchange import solve_zero_sum  # noqa: E402
from scoundrel_solver.bottleimp.policy import low_cards_setup  # noqa: E402
from scoundrel_solver.bottleimp.state import Reveal  # noqa: E402

WAYS = ("four cells", "saddle")


def states(seed: int, pairs: int) -> list:
    start = deal(seed, Rules("glitzerhaus")).start()
    state = start.apply(policy_steps(start)[0])
    theirs = low_cards_setup(state, 1)
    return [state.apply(state.joint_action({0: p, 1: theirs})) for p in state.setup_options(0)[:pairs]]


def four_cells(engine, state, _start):
    matrix = [[engine.value(state.apply(Reveal(a, b))) for b in (1, 2)] for a in (1, 2)]
    return solve_zero_sum(matrix)[0], None


def saddle(engine, state, start):
    value, cell = open_stack_value(state, engine, start=start)
    assert value.exact
    return value.lower, cell


def figures(xs: list) -> str:
    xs = sorted(xs)
    return (f"{statistics.median(xs) * 1e3:8.1f} {percentile(xs, 90) * 1e3:8.1f} {percentile(xs, 99) * 1e3:8.1f} "
            f"{xs[-1] * 1e3:8.0f} {sum(xs):8.1f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="1-20", help="Glitzerhaus deal numbers: A-B, N or a comma list (default 1-20)")
    p.add_argument("--pairs", type=int, default=72, help="A's stack-2 pairs a deal, the first N of 72 (default 72)")
    p.add_argument("--out", type=Path, help="every state's figures, one JSON line a state")
    args = p.parse_args()
    try:
        seeds = parse_seeds(args.seeds)
    except BatchError as e:
        print(f"--seeds: {e}", file=sys.stderr)
        return 2
    if not 1 <= args.pairs <= 72:
        print(f"--pairs {args.pairs}: give 1 to 72", file=sys.stderr)
        return 2
    engines = {w: Engine() for w in WAYS}
    ways = {"four cells": four_cells, "saddle": saddle}
    cpu = {w: [] for w in WAYS}
    nodes = {w: 0 for w in WAYS}
    out = args.out.open("w") if args.out else None
    load0 = os.getloadavg()[0]
    print(f"build {build_id()}; load {load0:.2f}", file=sys.stderr, flush=True)
    k = 0
    for seed in seeds:
        start = (1, 1)
        for i, state in enumerate(states(seed, args.pairs)):
            got = {}
            for w in (WAYS if k % 2 == 0 else WAYS[::-1]):
                e = engines[w]
                t0, n0 = time.process_time(), e.core.nodes
                value, cell = ways[w](e, state, start)
                got[w] = (value, time.process_time() - t0, e.core.nodes - n0)
                if cell is not None:
                    start = cell
            k += 1
            if got["four cells"][0] != got["saddle"][0]:
                print(f"deal {seed}, pair {i}: saddle {got['saddle'][0]} differs from four cells "
                      f"{got['four cells'][0]}", file=sys.stderr)
                return 1
            for w in WAYS:
                cpu[w].append(got[w][1])
                nodes[w] += got[w][2]
            if out:
                out.write(json.dumps({"seed": seed, "pair": i, "value": str(got["saddle"][0]),
                                      **{w: {"cpu": got[w][1], "nodes": got[w][2]} for w in WAYS}}) + "\n")
                out.flush()
        print(f"  deal {seed} done ({k} games, load {os.getloadavg()[0]:.2f})", file=sys.stderr, flush=True)
    print(f"open-stack games of Glitzerhaus deals {args.seeds}, {args.pairs} stack-2 pairs a deal: {k} games, "
          f"every value equal; load {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
          f"peak memory {peak_rss_mb():.0f} MB")
    print("  way          CPU ms a game: median      p90      p99      max    sum s |  nodes      nodes/s")
    for w in WAYS:
        print(f"  {w:10} {figures(cpu[w]):>44} | {nodes[w] / 1e6:6.0f}M {nodes[w] / sum(cpu[w]) / 1e6:8.2f}M")
    ratio = [b / a for a, b in zip(cpu["four cells"], cpu["saddle"]) if a > 0]
    print(f"  saddle / four cells: CPU sum {sum(cpu['saddle']) / sum(cpu['four cells']):.3f}, median of the ratios "
          f"{statistics.median(ratio):.3f}, nodes {nodes['saddle'] / nodes['four cells']:.3f}; "
          f"saddle slower in {sum(x > 1 for x in ratio)} of {len(ratio)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
