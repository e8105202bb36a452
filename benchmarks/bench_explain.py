#!/usr/bin/env python3
"""``hint --explain`` within its time budget: how often are both lines proven?

Random mid-game positions (drawn as in ``bench_hint_budget.py``: a random
numbered deal, a random player who never loses on the spot, a random stop);
at each one a random legal action other than the hint's first is explained,
cold (caches, tables and the worker pool dropped), within ``--time`` seconds,
two ways side by side at the same position:

* ``parallel``: the explained line and the best one solved at once, one per
  worker, each with all the time the hint left (the default since 2026-12-01);
* ``sequential``: one after the other, half of it each (before).

Which way runs first alternates from position to position.  Per way: median,
p95 and max wall time, the share of explanations proven exact, and of the
lines proven.  One JSON line per position with ``--out``.

    python benchmarks/bench_explain.py --mode coop --positions 30 --time 2
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from bench_hint_budget import cold, pct, random_position  # noqa: E402
from scoundrel_solver import Rules  # noqa: E402
from scoundrel_solver.scoundrel.explain import explain_exact  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("solo", "coop"), default="coop")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--time", type=float, default=2.0)
    ap.add_argument("--rng-seed", type=int, default=2026)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    rules = Rules(mode=args.mode)
    rnd = random.Random(args.rng_seed)
    ways = {"parallel": True, "sequential": False}
    stats = {w: {"wall": [], "exact": 0, "lines": 0, "proven": 0} for w in ways}
    out = args.out.open("a") if args.out else None
    done = 0
    while done < args.positions:
        seed, moves, state = random_position(rnd, rules)
        acts = state.legal_actions()
        if len(acts) < 2:
            continue
        action = rnd.choice(acts[1:])
        order = list(ways) if done % 2 == 0 else list(reversed(ways))
        rec = {"seed": seed, "moves": moves, "action": str(action)}
        for way in order:
            cold()
            t0 = time.perf_counter()
            why = explain_exact(state, action, budget=args.time, parallel_lines=ways[way])
            wall = time.perf_counter() - t0
            sides = [s for s in (why.explained, why.compared) if s is not None]
            st = stats[way]
            st["wall"].append(wall)
            st["exact"] += bool(why.exact)
            st["lines"] += len(sides)
            st["proven"] += sum(s.exact for s in sides)
            rec[way] = {"wall": round(wall, 3), "exact": bool(why.exact), "optimal": why.optimal,
                        "lines_proven": [s.exact for s in sides]}
        done += 1
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()
        print(f"{done:3d} seed {seed} after {moves} moves, {action}: "
              + ", ".join(f"{w} {rec[w]['wall']:.2f} s exact={rec[w]['exact']}" for w in ways), flush=True)
    cold()
    print(f"\n{args.mode}, {done} positions, --time {args.time}")
    for way, st in stats.items():
        w = st["wall"]
        print(f"{way:10s}: median {pct(w, 0.5):.2f} s, p95 {pct(w, 0.95):.2f} s, max {max(w):.2f} s; "
              f"explanations exact {st['exact']}/{done} ({100 * st['exact'] / done:.0f} %), "
              f"lines proven {st['proven']}/{st['lines']}")


if __name__ == "__main__":
    main()
