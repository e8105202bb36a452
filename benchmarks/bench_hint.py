#!/usr/bin/env python3
"""Latency of the exact (seeded) hint on random mid-game positions.

Each position: a random numbered deal, played from the start by a decent
random player (a move keeping the best reachable score with probability 0.7,
else any move that does not lose on the spot), stopped after a random number
of moves (0 .. the end of the game), often part-way through a room.
Each hint runs cold: the position cache and the kept search tables are
emptied first, as in a fresh ``scoundrel-solve hint`` call (the process start
itself is not counted).  One JSON line per position is written as it is done.

    python benchmarks/bench_hint.py --positions 200 --out benchmarks/results/hint-solo.jsonl
    python benchmarks/bench_hint.py --mode coop --positions 50 --out benchmarks/results/hint-coop.jsonl
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver.scoundrel import exacthint, valuer  # noqa: E402
from scoundrel_solver import Rules, State, deal  # noqa: E402
from scoundrel_solver.batch import percentile  # noqa: E402


def random_position(rnd: random.Random, rules: Rules):
    """(seed, moves, state): a random deal played a random number of moves.

    The player is a decent one: each move keeps the best score still
    reachable with probability 0.7 (a random such move), else it is a random
    move that does not lose on the spot.  So positions range from won to
    doomed, as a real player's would.
    """
    while True:
        seed = rnd.randrange(1, 2**32)
        state = State.new(deal(seed, rules))
        stop = rnd.randrange(0, 3 * 18 if rules.coop else 3 * 15)
        moves = []
        for _ in range(stop):
            alive = [a for a in state.legal_actions() if not state.play(a).finished]
            if not alive:
                break
            if rnd.random() < 0.7:
                h = exacthint.exact_hint(state)
                top = [a.action for a in h.actions if a.score == h.score]
                good = [a for a in top if a in alive] or top
                action = rnd.choice(good)
            else:
                action = rnd.choice(alive)
            moves.append(action)
            state = state.play(action)
            if state.finished:
                break
        if not state.finished:
            return seed, moves, state


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("solo", "coop"), default="solo")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--rng-seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    rules = Rules(mode=args.mode)
    rnd = random.Random(args.rng_seed)
    out = open(args.out, "w") if args.out else None
    times, solves, nodes, exact, won = [], [], [], [], []
    for i in range(args.positions):
        seed, moves, state = random_position(rnd, rules)
        valuer.CACHE.clear()
        valuer._SEARCHERS.clear()
        t0 = time.perf_counter()
        hint = exacthint.exact_hint(state)
        dt = time.perf_counter() - t0
        times.append(dt)
        solves.append(hint.solves)
        nodes.append(hint.nodes)
        exact.append(hint.exact)
        won.append(bool(hint.score and hint.score > 0))
        rec = {"seed": seed, "moves": " ".join(map(str, moves)), "taken": state.taken,
               "cards_left": state.cards_left(), "actions": len(hint.actions), "best": str(hint.best),
               "score": hint.score, "exact": hint.exact, "seconds": round(dt, 6), "nodes": hint.nodes}
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()
        print(f"\r{i + 1}/{args.positions}  last {dt * 1000:8.1f} ms", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    ms = [t * 1000 for t in times]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"exact hints, {args.mode}, {len(ms)} random mid-game positions (rng-seed {args.rng_seed}), cold cache:")
    print(f"  latency median {statistics.median(ms):.1f} ms, p90 {percentile(ms, 90):.1f} ms, "
          f"p95 {percentile(ms, 95):.1f} ms, max {max(ms):.1f} ms, mean {statistics.mean(ms):.1f} ms")
    print(f"  solves per hint: mean {statistics.mean(solves):.1f}; nodes median "
          f"{statistics.median(nodes):,.0f}, max {max(nodes):,}; {sum(nodes) / sum(times):,.0f} nodes/s")
    for label, keep in (("winning", True), ("lost", False)):
        sub = [m for m, w in zip(ms, won) if w == keep]
        if sub:
            print(f"  {label} positions ({len(sub)}): median {statistics.median(sub):.1f} ms, "
                  f"p95 {percentile(sub, 95):.1f} ms, max {max(sub):.1f} ms")
    print(f"  exact: {sum(exact)}/{len(exact)}; peak RSS {rss:.0f} MB")


if __name__ == "__main__":
    main()
