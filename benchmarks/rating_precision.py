#!/usr/bin/env python3
"""Does a deal rated live get the label its calibration record gets?

The calibration table is built from the analysis records, whose features are
stored rounded to ``FEATURE_DECIMALS`` (6).  A live rating (``rate``,
``generate``, the daily) analyses the deal again and ranks its features
against that table.  This script rates calibration deals both ways and
compares, under the two comparisons the code knows:

* ``rounded``: features rounded to the table's precision before ranking
  (``rate`` and ``generate``, daily method v2);
* ``unrounded``: the raw features (daily method v1, kept so its dailies
  never change): a fraction such as 1/7 then lies just above the table's
  0.142857 instead of tying it.

    python benchmarks/rating_precision.py --mode solo --seeds 1-300
    python benchmarks/rating_precision.py --mode coop --seeds 1-40 --jobs 2

The records are those the packaged table (``calibration.json``) is built from:
``calibration-solo.jsonl``, and in co-op ``calibration-coop-exact.jsonl`` (exact win
checks, as a live rating makes them).  ``--records`` and ``--table`` name others, e.g.
the node-limited co-op records against the table of daily methods v1 and v2
(``--records benchmarks/results/calibration-coop.jsonl --table
solver/scoundrel/data/calibration-v1.json``; a record with an undecided check then
differs from the live rating in its features, not only in precision).

Prints, per comparison, how many winnable deals get another label live than
from their record, the mean and max move of the difficulty, and the seeds
whose label moves.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from contextlib import nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import Rules, deal  # noqa: E402
from scoundrel_solver.batch import ResultsFileError, parse_seeds, read_records, seed_problem  # noqa: E402
from scoundrel_solver.scoundrel.rating import FEATURE_DECIMALS, analyse, apply_calibration, calibration, rate_record  # noqa: E402


def _live(item):
    seed, mode = item
    rules = Rules(mode=mode)
    return seed, analyse(deal(seed, rules), rules, seed)


def fail(msg: str) -> None:
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(2)


RECORD_KEYS = {"seed", "won", "exact", "score", "features"}


def record_problem(rec: dict):
    """What is wrong with a line of a records file (read_records' check), or None."""
    return seed_problem(rec) or (None if RECORD_KEYS <= set(rec) else "not a calibration record")


# The records each mode's packaged table is built from (calibrate_rating.py build).
RECORDS = {"solo": "calibration-solo.jsonl", "coop": "calibration-coop-exact.jsonl"}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("solo", "coop"), default="solo")
    ap.add_argument("--seeds", default="1-300")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--records", type=Path, default=None,
                    help="calibration records (default: those the packaged table is built from)")
    ap.add_argument("--table", type=Path, default=None,
                    help="a calibration table (default: the packaged calibration.json)")
    args = ap.parse_args(argv)
    wanted = set(parse_seeds(args.seeds))
    path = args.records or ROOT / "benchmarks" / "results" / RECORDS[args.mode]
    for p in (path, args.table):
        if p is not None and not p.is_file():
            fail(f"{p}: no such file")
    try:
        found, _ = read_records(path, record_problem)
    except ResultsFileError as exc:
        fail(str(exc))
    records = {r["seed"]: r for r in found if r["seed"] in wanted and r["won"] and r["exact"]}
    if not records:
        fail(f"no winnable records of seeds {args.seeds} in {path}")
    try:
        cal = json.loads(args.table.read_text()) if args.table else calibration()
    except (ValueError, UnicodeDecodeError) as exc:
        fail(f"{args.table}: not a calibration table ({exc})")
    if not isinstance(cal, dict) or not isinstance(cal.get(args.mode), dict):
        fail(f"{args.table or 'calibration.json'}: no {args.mode} table")
    rules = Rules(mode=args.mode)
    t0 = time.perf_counter()
    items = [(seed, args.mode) for seed in sorted(records)]
    lives = {}
    with mp.Pool(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        for seed, live in (pool.imap_unordered(_live, items) if pool else map(_live, items)):
            lives[seed] = live   # progress on stderr: a co-op run takes minutes
            print(f"\r{len(lives)}/{len(items)} deals rated live", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    seconds = time.perf_counter() - t0
    stored = {seed: rate_record(rec, rules, cal) for seed, rec in records.items()}
    print(f"{args.mode} seeds {args.seeds}: {len(records)} winnable calibration deals rated live "
          f"in {seconds:.0f} s, against their records")
    for name, decimals in (("rounded", FEATURE_DECIMALS), ("unrounded", None)):
        moved, moves = [], []
        for seed, live in sorted(lives.items()):
            if live.score != records[seed]["score"]:
                sys.exit(f"error: seed {seed} scores {live.score} live, {records[seed]['score']} in its record")
            got = apply_calibration(live, cal, decimals=decimals)
            moves.append(abs(got.difficulty - stored[seed].difficulty))
            if got.label != stored[seed].label:
                moved.append(f"{seed} ({stored[seed].label} {stored[seed].difficulty:.1f} -> "
                             f"{got.label} {got.difficulty:.1f})")
        print(f"  {name:9}: {len(moved)} of {len(moves)} get another label; difficulty moves "
              f"{sum(moves) / len(moves):.2f} points on average, {max(moves):.2f} at most")
        for text in moved:
            print(f"      {text}")


if __name__ == "__main__":
    main()
