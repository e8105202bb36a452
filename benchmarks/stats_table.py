#!/usr/bin/env python3
"""Print the published winnability table (docs/statistics.md) from the stats results.

Reads every ``benchmarks/results/stats/*.jsonl`` (written by ``scoundrel-solve
stats``; the repository keeps them as ``.jsonl.gz`` snapshots: ``gunzip -k`` one
to resume its run) and ``benchmarks/results/coop-52.jsonl`` (the solver benchmark's co-op
deals, until a statistics run of co-op 52 exists), summarises each with ``solver.scoundrel.stats.summarise`` over the seeds present
from 1 upwards without a gap, and prints one Markdown row per file with the
command that reproduces it.

    python benchmarks/stats_table.py
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import Rules  # noqa: E402
from scoundrel_solver.batch import ResultsFileError, command_main, read_json_lines
from scoundrel_solver.scoundrel.stats import record_problem, summarise

STATS = ROOT / "benchmarks/results/stats"


def results_files() -> list:
    """Each statistics results file once: the plain one where a run is going on,
    else its .gz snapshot; sorted by name."""
    names = {}
    for path in sorted(STATS.glob("*.jsonl.gz")) + sorted(STATS.glob("*.jsonl")):
        names[path.name.removesuffix(".gz")] = path   # the plain file wins
    return [names[k] for k in sorted(names)]


def _files():
    """The table's files, solo variants first in the table's order."""
    order = [f"solo-{f}-{d}.jsonl" for f in ("classic", "easy", "hard") for d in ("strict", "lenient")]

    def rank(path):
        name = path.name.removesuffix(".gz")
        variant = name.replace("-win.jsonl", ".jsonl")     # a winnability-only run after its exact one
        return (order.index(name) if name in order else len(order), variant, name != variant)

    files = sorted(results_files(), key=rank)
    if not any(p.name.startswith("coop-52-lenient") for p in files):
        # no statistics run of co-op 52 yet: the solver benchmark's deals stand in
        files.append(ROOT / "benchmarks/results/coop-52.jsonl")
    return files


def stats_records(path) -> list:
    """The records of a stats results file, each with its rules (a BatchError names the file and line if not)."""
    found = read_json_lines(path, record_problem)
    for number, rec in found.items:
        if "rules" not in rec:
            raise ResultsFileError(f'{path} line {number}: no "rules" in the record')
    return [rec for _, rec in found.items]


def flags(rules: dict) -> str:
    if rules["mode"] == "coop":
        return f"--mode coop --deck-size {rules['deck_size']} --durability {rules['durability']}"
    return f"--flee {rules['flee']} --durability {rules['durability']}"


def name(rules: dict) -> str:
    if rules["mode"] == "coop":
        return f"co-op {rules['deck_size']}, {rules['durability']}"
    return f"solo {rules['flee']}, {rules['durability']}"


def main() -> int:
    return command_main(print_table)


def print_table() -> None:
    rows = [row for row in map(table_row, _files()) if row]
    print("| variant | deals (seeds) | winnable | 95 % CI | mean optimal score (95 % CI) | not proven | command |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)


def table_row(path):
    """The table's row of one results file (None if it has no deals from seed 1)."""
    if not path.exists():
        return None
    records = stats_records(path)
    if not records:
        return None
    by_seed = {r["seed"]: r for r in records}
    n = 0
    while n + 1 in by_seed:
        n += 1
    if n == 0:
        return None
    rules = records[0]["rules"]
    s = summarise(records, Rules(**rules), range(1, n + 1))
    w, sc = s["winnable"], s["score"]
    lo, hi = w["ci95"]
    win_only = all(r.get("question") == "win" for r in records)
    mean = "— (winnability only)" if win_only or not sc["deals"] else (
        f"{sc['mean']:.2f} ({sc['ci95'][0]:.2f} to {sc['ci95'][1]:.2f})")
    rel = path.relative_to(ROOT).with_name(path.name.removesuffix(".gz"))
    extra = " --win-only" if win_only else ""
    cmd = (f"`scoundrel-solve stats --seeds 1-{n} {flags(rules)}{extra} --out {rel} --resume`"
           if "stats" in str(rel) else f"`scoundrel-solve stats --summary {rel}`")
    return (f"| {name(rules)}{', winnability only' if win_only else ''} | {n:,} (1–{n:,}) | {100 * w['fraction']:.2f} % ({w['won']:,}) | "
            f"{100 * lo:.3f}–{100 * hi:.3f} % | {mean} | {len(s['not_exact'])} | {cmd} |")


if __name__ == "__main__":
    sys.exit(main())
