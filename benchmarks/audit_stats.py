#!/usr/bin/env python3
"""Re-solve a random sample of the deals of statistics results files and compare.

A long statistics run spans builds and sessions; this checks that the scores it
stored are the ones the current build proves, and that every stored line replays
through the rules engine to its stored score.  It prints one line per file and
exits 1 if any deal disagrees, 2 (one ``error:`` line naming the file and
line) if a file is not a results file.

    python benchmarks/audit_stats.py [--sample 200] [--rng-seed 1] [FILE ...]

Without FILE it audits every ``benchmarks/results/stats/*.jsonl`` (or its
``.jsonl.gz`` snapshot).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import Rules, solve  # noqa: E402
from scoundrel_solver.batch import command_main  # noqa: E402
from scoundrel_solver.scoundrel.deal import deal  # noqa: E402
from scoundrel_solver.scoundrel.notation import parse_line, replay  # noqa: E402
from scoundrel_solver.scoundrel.state import State  # noqa: E402
from stats_table import results_files, stats_records  # noqa: E402  (benchmarks/, this script's folder)

def audit(path: Path, sample: int, rng: random.Random) -> tuple:
    recs = [r for r in stats_records(path) if r.get("exact")]
    picked = rng.sample(recs, min(sample, len(recs)))
    bad = []
    t0 = time.perf_counter()
    for rec in picked:
        rules = Rules(**rec["rules"])
        result = solve(seed=rec["seed"], rules=rules)
        if not result.exact or result.score != rec["score"]:
            bad.append(f"seed {rec['seed']}: stored {rec['score']}, now {result.score} (exact {result.exact})")
            continue
        if rec.get("line"):
            start = State.new(deal(rec["seed"], rules), rules)
            end = replay(start, parse_line(rec["line"]))[-1]
            if not end.finished or end.score != rec["score"]:
                bad.append(f"seed {rec['seed']}: stored line replays to {end.score}, not {rec['score']}")
    return len(picked), bad, time.perf_counter() - t0


def audit_files(paths, sample: int, rng: random.Random) -> int:
    """A line for each file (and one for each deal that disagrees); 1 if any deal disagrees, else 0."""
    failed = False
    for path in paths:
        n, bad, secs = audit(path, sample, rng)
        print(f"{path.name}: {n} deals re-solved in {secs:.1f} s, {len(bad)} disagree", flush=True)
        for b in bad:
            print("   ", b)
        failed |= bool(bad)
    return 1 if failed else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--sample", type=int, default=200, help="deals per file (default 200)")
    ap.add_argument("--rng-seed", type=int, default=1)
    args = ap.parse_args(argv)
    return command_main(audit_files, args.files or results_files(), args.sample, random.Random(args.rng_seed))


if __name__ == "__main__":
    sys.exit(main())
