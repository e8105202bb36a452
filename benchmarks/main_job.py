#!/usr/bin/env python3
"""The main job against another build: ``scoundrel-solve --seed N ... --json``, side by side.

Issue 48 item 1 ("the main job costs what the proof costs"): each deal is solved by both
builds' command lines as subprocesses, as a new user would run them, in one run and
alternating (odd deals the old build first, even deals the new one), each process cold.
Per deal: wall and CPU seconds of each (CPU: the child's user + system time, all of its
threads), the proof's and the line's nodes, the score (both builds must agree), the rooms
of the line and what the new build did for the fewest rooms (``line_search``).  Then per set
the totals, median, p90 and max, and the ratio new/old.  One JSON line per deal to ``--out``
as it goes (appended).

    python benchmarks/main_job.py --old /tmp/old7bc/.venv/bin/scoundrel-solve \\
        --coop 2,5,7,12,13,16,19,29,33,41 --solo 1-20 --out /tmp/main_job.jsonl

Exit 0; 1 when the two builds' scores differ; 2 (one line on stderr) on bad input.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from scoundrel_solver.batch import percentile

COOP_DEALS = "2,5,7,12,13,16,19,29,33,41"     # the deals of issue 48


def fail(message: str):
    print(f"main_job.py: {message}", file=sys.stderr)
    raise SystemExit(2)


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line too (exit 2)."""

    def error(self, message):
        fail(message)


def deals(text: str) -> list:
    """``1-5,9`` -> [1, 2, 3, 4, 5, 9]; empty -> []."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        a, dash, b = part.partition("-")
        if not a.isdigit() or (dash and not b.isdigit()):
            fail(f"bad deal list {text!r}: give numbers and ranges like 1-10,12")
        lo, hi = int(a), int(b) if dash else int(a)
        if hi < lo:
            fail(f"bad range {part!r}: the end is before the start")
        out.extend(range(lo, hi + 1))
    return out


def run(exe: str, args: list, timeout: float) -> dict:
    """One cold ``exe args --json``: its JSON, wall and CPU seconds."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([exe, *args, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise SystemExit(f"main_job.py: {exe} {' '.join(args)} took more than {timeout:.0f} s")
    wall = time.perf_counter() - t0
    usage = _child_cpu()
    if proc.returncode != 0:
        raise SystemExit(f"main_job.py: {exe} {' '.join(args)} exited {proc.returncode}: "
                         f"{err.decode(errors='replace').strip()[-300:]}")
    d = json.loads(out)
    return {"wall": wall, "cpu": usage, "json": d}


_CPU_BEFORE = [None]


def _child_cpu() -> float:
    """CPU seconds of the child just reaped (the rusage of all children, differenced)."""
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    now = r.ru_utime + r.ru_stime
    before = _CPU_BEFORE[0] or 0.0
    _CPU_BEFORE[0] = now
    return now - before


def rooms(line) -> int:
    if isinstance(line, list):
        return len(line)
    return (line.count("|") + 1) if line else 0


def summary(label: str, rows: list) -> dict:
    out = {"set": label, "deals": len(rows)}
    for build in ("old", "new"):
        wall = [r[build]["wall"] for r in rows]
        cpu = [r[build]["cpu"] for r in rows]
        out[build] = {"wall": round(sum(wall), 2), "cpu": round(sum(cpu), 2),
                      "median": round(statistics.median(wall), 3), "p90": round(percentile(wall, 90), 3),
                      "max": round(max(wall), 3),
                      "nodes": sum(r[build]["nodes"] for r in rows),
                      "line_nodes": sum(r[build]["line_nodes"] for r in rows)}
    out["ratio_wall"] = round(out["new"]["wall"] / out["old"]["wall"], 3) if out["old"]["wall"] else None
    out["ratio_cpu"] = round(out["new"]["cpu"] / out["old"]["cpu"], 3) if out["old"]["cpu"] else None
    searches = [r["new"]["line_search"] for r in rows]
    out["line_search"] = {k: searches.count(k) for k in sorted(set(map(str, searches)))}
    return out


def main(argv=None) -> int:
    p = OneLineParser(description=__doc__.splitlines()[0])
    here = Path(sys.executable).parent / "scoundrel-solve"
    p.add_argument("--old", required=True, help="the other build's scoundrel-solve")
    p.add_argument("--new", default=str(here), help=f"this build's scoundrel-solve (default {here})")
    p.add_argument("--coop", default=COOP_DEALS, help=f"co-op deals (default {COOP_DEALS}; '' for none)")
    p.add_argument("--solo", default="1-10", help="solo deals (default 1-10; '' for none)")
    p.add_argument("--flee", default="classic", choices=["classic", "easy", "hard"], help="the solo set's flee rule")
    p.add_argument("--new-args", default="", help="extra arguments for the new build, e.g. '--threads 1'")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds for one solve (default 600)")
    p.add_argument("--out", help="append one JSON line per deal here")
    a = p.parse_args(argv)
    for exe in (a.old, a.new):
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            fail(f"{exe}: not an executable file")
    if a.timeout <= 0:
        fail("--timeout must be positive")
    sets = [("coop", ["--mode", "coop"], deals(a.coop)),
            ("solo " + a.flee, ["--flee", a.flee], deals(a.solo))]
    sets = [s for s in sets if s[2]]
    if not sets:
        fail("no deals: give --coop or --solo")
    out = open(a.out, "a", encoding="utf-8") if a.out else None
    _child_cpu()
    mismatch = 0
    summaries = []
    print(f"# old {a.old}\n# new {a.new} {a.new_args}".rstrip())
    print(f"# {'set':<13} {'deal':>5} {'score':>5} {'old s':>7} {'new s':>7} {'old cpu':>7} {'new cpu':>7} "
          f"{'old nodes':>10} {'new nodes':>10} {'new line':>9} {'rooms':>9}  line_search")
    turn = 0
    for label, extra, seeds in sets:
        rows = []
        for seed in seeds:
            args = ["--seed", str(seed), *extra]
            order = ("old", "new") if turn % 2 == 0 else ("new", "old")
            turn += 1
            got = {}
            for build in order:
                got[build] = run(a.old, args, a.timeout) if build == "old" else \
                    run(a.new, args + a.new_args.split(), a.timeout)
            row = {"set": label, "seed": seed, "first": order[0]}
            for build in ("old", "new"):
                d = got[build]["json"]
                row[build] = {"wall": round(got[build]["wall"], 3), "cpu": round(got[build]["cpu"], 3),
                              "score": d.get("score"), "exact": d.get("exact"), "nodes": d.get("nodes", 0),
                              "line_nodes": d.get("line_nodes", 0), "rooms": rooms(d.get("line")),
                              "shortest": d.get("shortest"), "line_search": d.get("line_search"),
                              "line_budget": d.get("line_budget"), "threads": d.get("threads", 1)}
            if row["old"]["score"] != row["new"]["score"] or not (row["old"]["exact"] and row["new"]["exact"]):
                mismatch += 1
                row["mismatch"] = True
            rows.append(row)
            o, n = row["old"], row["new"]
            print(f"  {label:<13} {seed:>5} {n['score']:>5} {o['wall']:>7.2f} {n['wall']:>7.2f} {o['cpu']:>7.2f} "
                  f"{n['cpu']:>7.2f} {o['nodes']:>10,} {n['nodes']:>10,} {n['line_nodes']:>9,} "
                  f"{o['rooms']:>4}->{n['rooms']:<4} {n['line_search']}{'  SCORES DIFFER' if row.get('mismatch') else ''}",
                  flush=True)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
        s = summary(label, rows)
        summaries.append(s)
        if out:
            out.write(json.dumps({"summary": s}) + "\n")
            out.flush()
    for s in summaries:
        o, n = s["old"], s["new"]
        print(f"# {s['set']}, {s['deals']} deals: wall old {o['wall']:.2f} s, new {n['wall']:.2f} s, "
              f"new/old {s['ratio_wall']}; CPU old {o['cpu']:.2f} s, new {n['cpu']:.2f} s, new/old {s['ratio_cpu']}")
        print(f"#   per deal wall, old: median {o['median']:.2f} p90 {o['p90']:.2f} max {o['max']:.2f}; "
              f"new: median {n['median']:.2f} p90 {n['p90']:.2f} max {n['max']:.2f}")
        print(f"#   nodes: old {o['nodes']:,}; new proof {n['nodes']:,} + line {n['line_nodes']:,}; "
              f"new line_search {s['line_search']}")
    if mismatch:
        print(f"# {mismatch} deal(s) where the scores differ or are not proven", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
