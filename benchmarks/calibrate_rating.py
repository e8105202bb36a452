#!/usr/bin/env python3
"""Rebuild the difficulty calibration shipped in ``solver/scoundrel/data/calibration.json``.

Step 1 analyses numbered deals (exact solve, canonical optimal line, greedy
baseline; see ``solver/scoundrel/rating.py``), one JSON line per deal, appended as it is
done (``--resume`` carries on after an interruption):

    python benchmarks/calibrate_rating.py analyse --mode solo --seeds 1-10000 --jobs 2 \\
        --out benchmarks/results/calibration-solo.jsonl --resume
    python benchmarks/calibrate_rating.py analyse --mode coop --seeds 1-10000 \\
        --out benchmarks/results/calibration-coop.jsonl --resume \\
        --known benchmarks/results/stats/coop-52-lenient.jsonl --known-only

``--known`` takes the exact solves from a stats run of the same rules
(co-op 52 lenient is the co-op default), so only the rest of the analysis
is done: the features depend only on the optimal score, never on who
found it.  ``--stats FILE`` reads FILE the same way and appends to it the
records of the deals it solves (exactly as ``scoundrel-solve stats``
would), so one run grows both the calibration and the statistics:

    python benchmarks/calibrate_rating.py analyse --mode coop --seeds 1-10000 --jobs 2 \\
        --out benchmarks/results/calibration-coop.jsonl --resume \\
        --stats benchmarks/results/stats/coop-52-lenient.jsonl

Every win check is exact (before 2026-12-01 co-op checks stopped after 2 M
nodes; the records in ``calibration-coop.jsonl`` are of that analysis, 1,882
of them with undecided checks).  The exact co-op records (for the tables of
daily method v3, docs/daily.md) are those records carried over where no check
stopped, and the others analysed again:

    python benchmarks/calibrate_rating.py analyse --mode coop --seeds 1-10000 --jobs 2 \\
        --out benchmarks/results/calibration-coop-exact.jsonl --resume \\
        --carry-over benchmarks/results/calibration-coop.jsonl \\
        --known benchmarks/results/stats/coop-52-lenient.jsonl.gz

Step 2 turns the records into the quantile tables and writes the package file:

    python benchmarks/calibrate_rating.py build \\
        benchmarks/results/calibration-solo.jsonl benchmarks/results/calibration-coop.jsonl

It prints how the labels fall on the calibration deals, and a split-half check of how
settled the table is: the later half of each mode's deals (by seed), labelled with a
table built from the earlier half only, against their labels under the whole table.
``--against TABLE.json`` also says how many of the deals get another label from the new
table than from that one (the same features ranked against each).

``compare OLD.jsonl NEW.jsonl`` says how two analyses of the same deals differ (features,
and labels, each ranked against its table: ``--old-table``, ``--new-table``) and what the
records of NEW that are not OLD's carried over cost (their ``seconds``), e.g. the
node-limited co-op records against the exact ones:

    python benchmarks/calibrate_rating.py compare benchmarks/results/calibration-coop.jsonl \
        benchmarks/results/calibration-coop-exact.jsonl \
        --old-table solver/scoundrel/data/calibration-v1.json

Calibration uses the default rules of each mode (solo: classic flee, strict
weapons; co-op: 52 cards, lenient weapons); other rule variants are rated
against their mode's table.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import Rules, deal  # noqa: E402
from scoundrel_solver.batch import BatchError, parse_seeds, percentile  # noqa: E402
from scoundrel_solver.scoundrel.stats import ResultsFile, Settings, read_records, solve_seed  # noqa: E402
from scoundrel_solver.scoundrel.rating import LABEL_NAMES, analyse, build_calibration, rate_record  # noqa: E402

PACKAGE_FILE = ROOT / "solver" / "scoundrel" / "data" / "calibration.json"


def _analyse(job):
    seed, mode, known, record_solve = job
    rules = Rules(mode=mode)
    solved = None
    if known is None and record_solve:
        # solve as `scoundrel-solve stats` does, and keep its record for the stats file
        solved = solve_seed(seed, Settings(rules))
        if solved.get("exact"):
            known = solved
    r = analyse(deal(seed, rules), rules, seed, known=known)
    d = r.as_dict()
    d.pop("deck")
    if known is not None:
        d["solve_seconds"] = known.get("seconds")   # the solve was made by the stats run
    if solved is not None:
        d["_stats"] = solved
    return d


def load_known(paths, mode: str) -> dict:
    """Seed -> exact solve, from ``scoundrel-solve stats`` files of the mode's default rules."""
    want = Rules(mode=mode).as_dict()
    known = {}
    for path in paths or ():
        for rec in read_records(Path(path))[0]:
            if rec.get("rules") == want and rec.get("exact") and rec.get("score") is not None:
                known[rec["seed"]] = rec
    return known


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def load(path: Path) -> dict:
    """Seed -> record of a results file (none if it does not exist; torn lines skipped)."""
    return {r["seed"]: r for r in read_records(path)[0]} if path.exists() else {}


def cmd_analyse(args):
    done = load(args.out) if args.resume else {}
    if not args.resume and args.out.exists() and args.out.stat().st_size:
        sys.exit(f"error: {args.out} exists; use --resume")
    stats = None
    if args.stats:
        try:
            stats = ResultsFile(args.stats, Rules(mode=args.mode), resume=True)
        except BatchError as exc:
            sys.exit(f"error: {exc}")
    known = load_known(list(args.known or ()) + ([args.stats] if args.stats else []), args.mode)
    todo = [(s, args.mode, known.get(s), stats is not None) for s in parse_seeds(args.seeds) if s not in done]
    if args.known and args.known_only:
        todo = [job for job in todo if job[2] is not None]
    carried = []
    if args.carry_over:
        # a record of an older analysis without undecided checks has every
        # check exact, so its features are what an exact analysis gives
        old = load(args.carry_over)
        carried = [old[job[0]] for job in todo if job[0] in old and old[job[0]].get("exact")
                   and not old[job[0]].get("undecided")]
        skip = {r["seed"] for r in carried}
        todo = [job for job in todo if job[0] not in skip]
        print(f"{len(carried)} records carried over from {args.carry_over} (no undecided checks); "
              f"{len(todo)} deals to analyse", file=sys.stderr)
    if known:
        print(f"{sum(job[2] is not None for job in todo)} of {len(todo)} deals to analyse have a known solve",
              file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    out = open(args.out, "a")
    for rec in carried:
        out.write(json.dumps(rec) + "\n")
    out.flush()
    pool = mp.Pool(args.jobs, initializer=_ignore_sigint) if args.jobs > 1 else None
    # one deal at a time: co-op deals take from seconds to minutes each
    it = pool.imap_unordered(_analyse, todo, chunksize=1) if pool else map(_analyse, todo)
    t0 = time.time()
    try:
        for i, rec in enumerate(it, 1):
            solved = rec.pop("_stats", None)
            if solved is not None:
                stats.append(solved)
            out.write(json.dumps(rec) + "\n")
            out.flush()
            el = time.time() - t0
            print(f"\r{i}/{len(todo)} deals, {i / el:.1f} deals/s, eta {(len(todo) - i) * el / i / 60:.0f} min",
                  end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("\ninterrupted; rerun with --resume", file=sys.stderr)
        if pool:
            pool.terminate()
        sys.exit(130)
    finally:
        out.close()
        if stats is not None:
            stats.close()
    print(file=sys.stderr)


def cmd_build(args):
    by_mode = {}
    for path in args.files:
        recs = list(load(Path(path)).values())
        for r in recs:
            by_mode.setdefault(r["rules"]["mode"], []).append(r)
    cal = build_calibration(by_mode)
    PACKAGE_FILE.parent.mkdir(parents=True, exist_ok=True)
    PACKAGE_FILE.write_text(json.dumps(cal, separators=(",", ":")) + "\n")
    print(f"wrote {PACKAGE_FILE.relative_to(ROOT)}")
    # how the labels fall on the calibration deals themselves
    for mode, recs in by_mode.items():
        rated = _rate_records(recs, mode, cal)
        counts = {name: 0 for name in LABEL_NAMES}
        for r in rated.values():
            counts[r.label] += 1
        n = sum(counts.values())
        secs = [r["seconds"] + (r.get("solve_seconds") or 0) for r in recs]
        reused = sum(r.get("solve_seconds") is not None for r in recs)
        print(f"{mode}: {len(recs)} deals ({cal.get(mode, {}).get('winnable', 0)} winnable"
              + (", provisional" if cal.get(mode, {}).get("provisional") else "") + "); labels "
              + ", ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in counts.items())
              + f"; analysis median {statistics.median(secs):.2f} s/deal, max {max(secs):.1f} s"
              + (f" (for {reused} deals the solve was the stats run's: its time counted)" if reused else ""))
        print(f"{mode}: {split_half(recs, mode, rated)}")
        if args.against:
            print(f"{mode}: {against(recs, mode, rated, json.loads(args.against.read_text()), args.against.name)}")


def _rate_records(recs, mode, cal) -> dict:
    """Seed -> Rating labelled with ``cal``, for the exact records."""
    rules = Rules(mode=mode)
    return {r["seed"]: rate_record(r, rules, cal) for r in recs if r.get("exact")}


def split_half(recs, mode, rated) -> str:
    """How far labels move when the table doubles: the later half of the deals (by seed), labelled
    with a table built from the earlier half only, against their labels under the whole table."""
    recs = sorted(recs, key=lambda r: r["seed"])
    half = len(recs) // 2
    first, second = recs[:half], recs[half:]
    if not first or not any(r.get("won") for r in first):
        return "too few deals for a split-half check"
    small = build_calibration({mode: first})
    again = _rate_records(second, mode, small)
    wins = [s for s, r in again.items() if r.won]
    if not wins:
        return "too few deals for a split-half check"
    same = sum(again[s].label == rated[s].label for s in wins)
    moved = statistics.mean(abs(again[s].difficulty - rated[s].difficulty) for s in wins)
    return (f"split-half check: the {len(wins)} winnable deals of seeds {second[0]['seed']}-{second[-1]['seed']}, "
            f"labelled with a table of seeds {first[0]['seed']}-{first[-1]['seed']} only, keep their label "
            f"in {same} cases ({100 * same / len(wins):.1f}%); their difficulty moves {moved:.1f} points "
            "on average")


def label_moves(before: dict, after: dict, wins) -> tuple:
    """Of the deals ``wins`` (seeds), rated ``before`` and ``after`` (seed -> Rating): how many
    get another label, and each one's difficulty shift (after - before)."""
    changed = sum(before[s].label != after[s].label for s in wins)
    return changed, [after[s].difficulty - before[s].difficulty for s in wins]


def against(recs, mode, rated, other: dict, name: str) -> str:
    """How the labels of the winnable deals move from the table ``other`` (of the same
    records' features) to the new one: what ``rate`` prints for them, before and after."""
    if not other.get(mode):
        return f"{name} has no {mode} table"
    wins = [s for s, r in rated.items() if r.won]
    if not wins:
        return "no winnable deal to compare"
    moved, shift = label_moves(_rate_records(recs, mode, other), rated, wins)
    shift = [abs(x) for x in shift]
    return (f"against {name}: {moved} of the {len(wins)} winnable deals get another label "
            f"({100 * moved / len(wins):.1f}%); their difficulty moves {statistics.mean(shift):.2f} points "
            f"on average, {max(shift):.1f} at most")


def compare(old: dict, new: dict, old_table: dict, new_table: dict) -> list:
    """Lines saying how the records of ``new`` differ from those of ``old`` for the same
    deals (seed -> record): which features moved, and the labels of the winnable deals,
    each record ranked against its own table."""
    seeds = sorted(set(old) & set(new))
    if not seeds:
        return ["no deal in both files"]
    mode = new[seeds[0]]["rules"]["mode"]
    rules = Rules(mode=mode)
    moved = [s for s in seeds if old[s]["features"] != new[s]["features"]]
    lines = [f"{len(seeds)} deals in both; {len(moved)} have other features"
             + (" (" + ", ".join(f"{f} {sum(old[s]['features'][f] != new[s]['features'][f] for s in moved)}"
                                 for f in new[seeds[0]]["features"]) + ")" if moved else "")]
    if sum(old[s]["score"] != new[s]["score"] or old[s]["won"] != new[s]["won"] for s in seeds):
        lines.append("the scores differ: these are not analyses of the same deals and rules")
        return lines
    wins = [s for s in seeds if new[s]["won"]]
    if wins:
        changed, shift = label_moves({s: rate_record(old[s], rules, old_table) for s in wins},
                                     {s: rate_record(new[s], rules, new_table) for s in wins}, wins)
        lines.append(f"of the {len(wins)} winnable deals, {changed} get another label ({100 * changed / len(wins):.1f}%); "
                     f"difficulty moves {statistics.mean(shift):+.2f} points on average, "
                     f"{statistics.mean(map(abs, shift)):.2f} in size, from {min(shift):+.1f} to {max(shift):+.1f}")
    lines.append(reanalysis(old, new, seeds))
    return lines


def reanalysis(old: dict, new: dict, seeds) -> str:
    """What the analysis of ``new`` cost where it is not ``old``'s record carried over as it was:
    the records' own times (``seconds``: one worker's wall time for the deal), and with the solve
    counted where it was reused from a statistics run (``solve_seconds``), as ``build`` counts."""
    again = [s for s in seeds if old[s] != new[s]]
    head = f"{len(seeds) - len(again)} records as in OLD (carried over), {len(again)} analysed again"
    timed = [new[s] for s in again if isinstance(new[s].get("seconds"), (int, float))]
    if not timed:
        return head

    def spread(secs):
        return (f"a deal median {statistics.median(secs):.0f} s, mean {statistics.mean(secs):.0f} s, "
                f"p90 {percentile(secs, 90):.0f} s, max {max(secs):.0f} s; {sum(secs) / 3600:.1f} hours in all")
    line = f"{head}: {spread([r['seconds'] for r in timed])}"
    if any(r.get("solve_seconds") for r in timed):
        line += f" (with the reused solves counted: {spread([r['seconds'] + (r.get('solve_seconds') or 0) for r in timed])})"
    return line + (f"; {len(again) - len(timed)} without a time" if len(timed) < len(again) else "")


def cmd_compare(args):
    def fail(msg):
        print(f"error: {msg}", file=sys.stderr)
        sys.exit(2)
    for path in (args.old, args.new, args.old_table, args.new_table):
        if path is not None and not path.is_file():
            fail(f"{path}: no such file")
    old, new = load(args.old), load(args.new)
    tables = []
    for path in (args.old_table, args.new_table):
        try:
            tables.append(json.loads(path.read_text()) if path else None)
        except (ValueError, UnicodeDecodeError) as exc:
            fail(f"{path}: not a calibration table ({exc})")
    for line in compare(old, new, *tables):
        print(line)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("analyse")
    a.add_argument("--mode", choices=("solo", "coop"), default="solo")
    a.add_argument("--seeds", default="1-10000")
    a.add_argument("--jobs", type=int, default=1)
    a.add_argument("--out", type=Path, required=True)
    a.add_argument("--resume", action="store_true")
    a.add_argument("--known", action="append", metavar="STATS.jsonl",
                   help="exact solves already made (scoundrel-solve stats --out files of the mode's default rules): "
                        "their deals are not solved again (each line is replayed to its score first)")
    a.add_argument("--known-only", action="store_true",
                   help="with --known: analyse only the deals it has a solve for")
    a.add_argument("--stats", type=Path, metavar="STATS.jsonl",
                   help="a stats results file of the mode's default rules, read as --known; the deals it has "
                        "no solve for are solved as `scoundrel-solve stats` does and their records appended "
                        "to it, so one run grows both files")
    a.add_argument("--carry-over", type=Path, metavar="OLD.jsonl",
                   help="analysis records made with the node-limited co-op checks of daily methods v1/v2: "
                        "those without undecided checks are copied (their checks were all exact), only "
                        "the others are analysed again, exactly")
    b = sub.add_parser("build")
    b.add_argument("files", nargs="+")
    b.add_argument("--against", type=Path, metavar="TABLE.json",
                   help="also say how the deals' labels move from this table (e.g. "
                        "solver/scoundrel/data/calibration-v1.json) to the one built")
    c = sub.add_parser("compare", help="how the records of NEW differ from those of OLD for the same deals")
    c.add_argument("old", type=Path, metavar="OLD.jsonl")
    c.add_argument("new", type=Path, metavar="NEW.jsonl")
    c.add_argument("--old-table", type=Path, metavar="TABLE.json",
                   help="the table OLD's records are labelled with (default: the packaged calibration.json)")
    c.add_argument("--new-table", type=Path, metavar="TABLE.json", help="the same for NEW's records")
    args = ap.parse_args(argv)
    {"analyse": cmd_analyse, "build": cmd_build, "compare": cmd_compare}[args.cmd](args)


if __name__ == "__main__":
    main()
