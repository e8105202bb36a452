#!/usr/bin/env python3
"""Peak memory of a solve against its ``--tt-mb`` budget, and a node-count fingerprint.

Peak mode (the default) runs the CLI under ``/usr/bin/time -v``, one solve at a time:
first a baseline (``deal --seed 1``: the interpreter and the package, no search), then
one solve per budget, and prints the peak resident set size of each, the excess over
the baseline, its ratio to the budget, the nodes and the seconds.  The target
(issue 24): peak <= budget + baseline + 10 %.

Fingerprint mode (``--fingerprint OUT``) solves a fixed set of deals with small tables
that must grow and replace entries, and writes one JSON line per search (score, nodes,
line, table statistics).  Two builds whose files are identical search identically:
run it from each and ``cmp`` the files.

Examples (from the repository root)::

    python benchmarks/memory.py                                  # co-op 20 at 64, 256, 512 MB
    python benchmarks/memory.py --seed 7 --mode solo --budgets 8,64
    python benchmarks/memory.py --cli /tmp/old/.venv/bin/scoundrel-solve   # another build
    python benchmarks/memory.py --fingerprint /tmp/new.jsonl
    python benchmarks/memory.py --fingerprint /tmp/new.jsonl --frozen   # as daily v1/v2 search
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # run from a clone without installing
    sys.path.insert(0, str(ROOT))

TIME = "/usr/bin/time"
MB = 1024 * 1024


def peak_of(cmd: list) -> tuple:
    """(peak RSS in bytes, stdout) of ``cmd`` run under ``/usr/bin/time -v``."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        proc = subprocess.run([TIME, "-v", "-o", report.name] + cmd, capture_output=True, text=True)
        text = report.read()
    if proc.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-300:]}")
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if not found:
        raise SystemExit(f"error: no peak RSS in the report of {TIME} -v")
    return int(found.group(1)) * 1024, proc.stdout


def run_peaks(args) -> int:
    cli = args.cli.split() if args.cli else [sys.executable, "-m", "scoundrel_solver"]
    base, _ = peak_of(cli + ["deal", "--seed", "1"])
    print(f"command: {' '.join(cli)} --seed {args.seed} --mode {args.mode} --tt-mb M --json")
    print(f"baseline (deal --seed 1): {base / MB:.1f} MB")
    print(f"{'--tt-mb':>8} {'peak MB':>8} {'over base':>9} {'/budget':>8} {'limit MB':>8} "
          f"{'table MB':>8} {'nodes':>12} {'seconds':>8}  ok")
    worst = 0.0
    for budget in args.budgets:
        peak, out = peak_of(cli + ["--seed", str(args.seed), "--mode", args.mode, "--tt-mb", str(budget),
                                   "--json"] + args.extra)
        result = json.loads(out)
        limit = (budget * MB + base) * 1.10
        over = (peak - base) / (budget * MB)
        worst = max(worst, peak / limit)
        print(f"{budget:>8} {peak / MB:>8.1f} {(peak - base) / MB:>9.1f} {over:>8.2f} {limit / MB:>8.1f} "
              f"{result['tt'].get('mb', 0):>8.1f} {result['nodes']:>12,} {result['seconds']:>8.1f}  "
              f"{'yes' if peak <= limit else 'NO'}")
    return 0 if worst <= 1.0 else 1


# (label, rules, seeds, tt_mb, max_nodes, win check?)  Tables of 4-16 MB start at 1.7 MB,
# grow once or twice and then replace entries on the larger deals; the co-op searches
# stop at a node limit so the set stays a few minutes long, and the win checks (decide)
# are the searches whose node counts co-op dailies depend on.
FINGERPRINT = [
    ("solo-classic", dict(mode="solo", flee="classic"), range(1, 201), 4, 0, False),
    ("solo-classic", dict(mode="solo", flee="classic"), range(1, 201), 16, 0, False),
    ("coop-52", dict(mode="coop"), range(1, 11), 4, 300_000, False),
    ("coop-52", dict(mode="coop"), range(1, 11), 16, 1_000_000, False),
    ("coop-52", dict(mode="coop"), range(1, 11), 8, 300_000, True),
]


def run_fingerprint(path: Path, frozen: bool = False) -> int:
    from scoundrel_solver import Rules, format_line, solve
    from scoundrel_solver.scoundrel.search import load_core, start_state
    core = load_core()
    if frozen:
        # every searcher as daily methods v1/v2 search (core.FROZEN_KNOBS): the
        # file must then be byte-identical to the one of the core before them
        core.PERTURBATION["frozen"] = True
    with path.open("w") as out:
        for label, opts, seeds, tt_mb, max_nodes, win_check in FINGERPRINT:
            rules = Rules(**opts)
            for seed in seeds:
                row = dict(set=label, seed=seed, tt_mb=tt_mb, max_nodes=max_nodes)
                if win_check:
                    searcher = core.new_searcher(rules, tt_mb)
                    got = core.decide(start_state(rules=rules, seed=seed), 1, max_nodes=max_nodes,
                                      searcher=searcher)
                    row.update(decide=got, tt_used=searcher.tt_used, tt_capacity=searcher.tt_capacity,
                               tt_replaced=searcher.tt_replaced)
                else:
                    r = solve(seed=seed, rules=rules, tt_mb=tt_mb, max_nodes=max_nodes)
                    row.update(score=r.score, exact=r.exact, nodes=r.nodes, line=format_line(r.line), tt=r.tt)
                out.write(json.dumps(row, sort_keys=True) + "\n")
                out.flush()
    print(f"wrote {path}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--mode", choices=("solo", "coop"), default="coop")
    ap.add_argument("--budgets", type=lambda s: [int(x) for x in s.split(",")], default=[64, 256, 512],
                    help="comma list of --tt-mb values (default 64,256,512)")
    ap.add_argument("--cli", help="the command to measure, e.g. another build's scoundrel-solve "
                                  "(default: this Python's -m scoundrel_solver)")
    ap.add_argument("--fingerprint", type=Path, metavar="OUT", help="write the node-count fingerprint instead")
    ap.add_argument("--frozen", action="store_true",
                    help="with --fingerprint: every searcher frozen as for daily methods v1/v2")
    ap.add_argument("extra", nargs="*", help="more options for the solve (after --)")
    args = ap.parse_args(argv)
    if args.fingerprint:
        return run_fingerprint(args.fingerprint, args.frozen)
    return run_peaks(args)


if __name__ == "__main__":
    sys.exit(main())
