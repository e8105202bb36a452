#!/usr/bin/env python3
"""How long a daily challenge takes to find, per difficulty, from the calibration records.

A daily solves and rates its candidates one by one, on one core, until one is
accepted (docs/daily.md, method v1). Its candidates are deals of random seeds,
so the time to find it is the sum of the analysis times of a run of deals
drawn at random until one is accepted. This script draws those runs from the
calibration records (one analysis time per deal, solve included), labels each
record against the method's table, and accepts as the daily does: any proven
win for ``any``; with a difficulty, that label and no undecided win check.

``--method v2`` (the default): the records of ``calibration-<mode>.jsonl``
(co-op win checks stopped at 2 M nodes, as in v1 and v2) against
``calibration-v1.json``; their features are stored at the table's precision,
so these are the labels of v2 (v1 ranks unrounded features, which the records
do not keep).  ``--method v3``: co-op records of exact checks
(``calibration-coop-exact.jsonl``), none passed over, against v3's table.

    python benchmarks/daily_time.py [--mode coop|solo] [--method v2|v3] [--draws 20000]

Prints, per difficulty, the share of deals accepted, the mean number of
candidates, and the median, p90 and max time over the draws (as measured on
the records' machine).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver.batch import percentile  # noqa: E402
from scoundrel_solver.scoundrel.daily import calibration_for  # noqa: E402
from scoundrel_solver import Rules  # noqa: E402
from scoundrel_solver.scoundrel.rating import LABEL_NAMES, rate_record  # noqa: E402


def span(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("coop", "solo"), default="coop")
    ap.add_argument("--draws", type=int, default=20000)
    ap.add_argument("--method", choices=("v2", "v3"), default="v2")
    ap.add_argument("--records", type=Path, default=None)
    args = ap.parse_args(argv)
    cal, rules = calibration_for(args.method), Rules(mode=args.mode)
    if not cal.get(args.mode):
        sys.exit(f"error: method {args.method} has no {args.mode} table")
    exact = "-exact" if args.method == "v3" and args.mode == "coop" else ""
    path = args.records or ROOT / f"benchmarks/results/calibration-{args.mode}{exact}.jsonl"
    deals = []   # (seconds, label or None, undecided)
    for line in path.read_text().splitlines():
        r = json.loads(line)
        if args.method == "v3" and r.get("undecided"):
            sys.exit(f"error: {path.name} seed {r['seed']}: an undecided win check; method v3 checks exactly")
        label = rate_record(r, rules, cal).label if r["won"] and r["exact"] else None
        deals.append((r.get("seconds", 0.0) + r.get("solve_seconds", 0.0), label, r.get("undecided", 0)))
    rng = random.Random(1)
    print(f"{len(deals):,} {args.mode} records of {path.name}, method {args.method}'s table; "
          f"{args.draws:,} draws each")
    print("| difficulty | accepted | candidates (mean) | median | p90 | max |")
    print("|---|---|---|---|---|---|")
    for want in (None,) + LABEL_NAMES[:-1]:
        def accepted(d):
            return d[1] is not None if want is None else (d[1] == want and not d[2])
        share = sum(map(accepted, deals)) / len(deals)
        if not share:       # no record would be accepted: the search would never end
            print(f"| {want or 'any'} | 0.0% | – | – | – | – |")
            continue
        times = []
        for _ in range(args.draws):
            total = 0.0
            while True:
                d = rng.choice(deals)
                total += d[0]
                if accepted(d):
                    break
            times.append(total)
        print(f"| {want or 'any'} | {share:.1%} | {1 / share:.1f} | {span(statistics.median(times))} | "
              f"{span(percentile(times, 90))} | {span(max(times))} |")


if __name__ == "__main__":
    main()
