#!/usr/bin/env python3
"""Where the exact belief search stops being feasible: the C engine
(``beliefsearch.CoreBeliefSearch``, solver/scoundrel/_belief.pyx) and the pure-Python one
(``beliefsearch.BeliefSearch``) side by side in one run.

Positions: numbered deals played along their exact optimal line (the core's) up
to the first room start with at most ``U`` unseen cards (avoided rooms stay known
at the bottom, as at a table), for each ``U`` asked.  Each position is searched
cold (empty memo, cleared solve cache) with a time cap, by each engine asked
(``--engines``); one JSON line per position and engine: unseen cards, beliefs
expanded (C: room-start beliefs; Python: every belief, mid-room ones too),
leaves solved, seconds, whether it completed, the growth of the process's peak
RSS and (C) the bytes of its memo and of its leaves' table.

    python benchmarks/bench_belief.py --deals 1-5 --unseen 4,7,10,13 --timeout 60
    python benchmarks/bench_belief.py --mode coop --deals 1-3 --unseen 4,7,10 --engines core
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver.scoundrel import table, valuer  # noqa: E402
from scoundrel_solver import Rules, State, deal  # noqa: E402
from scoundrel_solver.scoundrel.beliefsearch import BeliefSearch, BudgetExceeded, CoreBeliefSearch  # noqa: E402
from scoundrel_solver.scoundrel.search import solve  # noqa: E402


def position_with(seed: int, rules: Rules, unseen: int):
    """The first room start of deal ``seed``'s optimal line with at most ``unseen``
    face-down cards of unknown order (None if the line ends before)."""
    state = State.new(deal(seed, rules), rules)
    line = solve(state=state).line or []
    known = 0
    for room in line:
        if state.finished:
            return None
        if state.taken == 0 and 0 < len(state.dungeon) - known <= unseen:
            return table.TablePosition.from_state(state, known)
        for action in room:
            known = table.known_bottom_after(state, action, known)
            state = state.play(action)
    return None


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", default="solo")
    ap.add_argument("--flee", default=None)
    ap.add_argument("--deals", default="1-5", help="A range a-b of deal numbers.")
    ap.add_argument("--unseen", default="4,7,10,13", help="Unseen-card counts to try.")
    ap.add_argument("--timeout", type=float, default=60.0, help="Seconds per position.")
    ap.add_argument("--out", default=None, help="Write the JSON lines here too.")
    ap.add_argument("--engines", default="core,python", help="Which searches: core (C), python.")
    ap.add_argument("--skip-python-above", type=int, default=8,
                    help="Do not run the Python search above this many unseen cards (it cannot finish).")
    args = ap.parse_args(argv)
    kw = {"mode": args.mode}
    if args.flee:
        kw["flee"] = args.flee
    rules = Rules(**kw)
    a, b = (int(x) for x in args.deals.split("-"))
    out = open(args.out, "w") if args.out else None
    for u in (int(x) for x in args.unseen.split(",")):
        for seed in range(a, b + 1):
            pos = position_with(seed, rules, u)
            if pos is None:
                continue
            for engine in args.engines.split(","):
                if engine == "python" and len(pos.unseen) > args.skip_python_above:
                    continue
                valuer.CACHE.clear()
                if engine == "core":
                    search = CoreBeliefSearch(rules, timeout=args.timeout)
                else:
                    search = BeliefSearch(rules, timeout=args.timeout)
                before = rss_mb()
                t0 = time.perf_counter()
                try:
                    search.action_values(pos)
                    complete = True
                except BudgetExceeded:
                    complete = False
                row = {"seed": seed, "mode": rules.mode, "flee": rules.flee, "engine": engine,
                       "unseen": len(pos.unseen), "bottom": len(pos.bottom), "classes": len(pos.classes()),
                       "complete": complete, "beliefs": search.beliefs, "leaves": search.leaves,
                       "seconds": round(time.perf_counter() - t0, 3), "rss_growth_mb": round(rss_mb() - before, 1)}
                if engine == "core":
                    row["memo_mb"] = round(search.engine.memo_bytes / 2**20, 1)
                    row["memo_entries"] = search.engine.memo_entries
                line = json.dumps(row)
                print(line, flush=True)
                if out:
                    out.write(line + "\n")
                del search
    return 0


if __name__ == "__main__":
    sys.exit(main())
