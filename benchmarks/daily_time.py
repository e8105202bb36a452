#!/usr/bin/env python3
"""How long a daily challenge takes to find, per difficulty, from the calibration records.

A daily solves and rates its candidates one by one, on one core, until one is
accepted (docs/daily.md, method v1). Its candidates are deals of random seeds,
so the time to find it is the sum of the analysis times of a run of deals
drawn at random until one is accepted. This script draws those runs from the
calibration records (``benchmarks/results/calibration-<mode>.jsonl``: one
analysis time per deal, solve included), labels each record against the
daily's table (``calibration-v1.json``, read by methods v1 and v2; the
records' features are stored at the table's precision, so these are the
labels of method v2), and accepts as the daily does: any proven
win for ``any``; with a difficulty, that label and no undecided win check.

    python benchmarks/daily_time.py [--mode coop|solo] [--draws 20000]

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

from scoundrel_solver.scoundrel.daily import calibration_for  # noqa: E402
from scoundrel_solver import Rules  # noqa: E402
from scoundrel_solver.scoundrel.rating import LABEL_NAMES, rate_record  # noqa: E402


def span(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("coop", "solo"), default="coop")
    ap.add_argument("--draws", type=int, default=20000)
    ap.add_argument("--records", type=Path, default=None)
    args = ap.parse_args(argv)
    cal, rules = calibration_for("v1"), Rules(mode=args.mode)
    if not cal.get(args.mode):
        sys.exit(f"error: method v1 has no {args.mode} table")
    path = args.records or ROOT / f"benchmarks/results/calibration-{args.mode}.jsonl"
    deals = []   # (seconds, label or None, undecided)
    for line in path.read_text().splitlines():
        r = json.loads(line)
        label = rate_record(r, rules, cal).label if r["won"] and r["exact"] else None
        deals.append((r.get("seconds", 0.0) + r.get("solve_seconds", 0.0), label, r.get("undecided", 0)))
    rng = random.Random(1)
    print(f"{len(deals):,} {args.mode} records of {path.name}, method v1 table; {args.draws:,} draws each")
    print("| difficulty | accepted | candidates (mean) | median | p90 | max |")
    print("|---|---|---|---|---|---|")
    for want in (None,) + LABEL_NAMES[:-1]:
        def accepted(d):
            return d[1] is not None if want is None else (d[1] == want and not d[2])
        share = sum(map(accepted, deals)) / len(deals)
        times = []
        for _ in range(args.draws):
            total = 0.0
            while True:
                d = rng.choice(deals)
                total += d[0]
                if accepted(d):
                    break
            times.append(total)
        times.sort()
        print(f"| {want or 'any'} | {share:.1%} | {1 / share:.1f} | {span(statistics.median(times))} | "
              f"{span(times[int(0.9 * len(times))])} | {span(times[-1])} |")


if __name__ == "__main__":
    main()
