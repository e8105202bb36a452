#!/usr/bin/env python3
"""Print the Bottle Imp's statistics table (docs/statistics.md) from the results files.

Reads every ``benchmarks/results/bottleimp/stats/*.jsonl`` (written by ``scoundrel-solve imp
stats``), summarises each with ``scoundrel_solver.bottleimp.stats.summarise`` over the seeds
present from 1 upwards without a gap (a run still going on is cut at its first gap), and
prints one Markdown column per file, Lopaka first.

    python benchmarks/bottleimp/stats_table.py
"""
from __future__ import annotations

import sys
from pathlib import Path

from scoundrel_solver.batch import BatchError
from scoundrel_solver.bottleimp.stats import read_rule_set, summarise

ROOT = Path(__file__).resolve().parents[2]
STATS = ROOT / "benchmarks/results/bottleimp/stats"
HEADING = {"lopaka": "Lopaka, whole deal", "glitzerhaus": "Glitzerhaus, low-cards setup"}
SEAT = {"A": "A", "L": "Lopaka", "B": "B"}


def prefix(records) -> int:
    """N: the seeds 1..N are all among ``records`` (those without an error)."""
    seeds = {r["seed"] for r in records if "error" not in r}
    n = 0
    while n + 1 in seeds:
        n += 1
    return n


def signed(x: float, places: int = 1) -> str:
    return f"{x:+.{places}f}".replace("-", "−")


def interval(ci) -> str:
    """A 95 % interval, or a dash where one deal gives none."""
    return "—" if ci is None else f"{signed(ci[0])} to {signed(ci[1])}"


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def column(path: Path) -> tuple:
    records, rules, _ = read_rule_set(path)
    n = prefix(records)
    if n == 0:
        raise BatchError(f"{path}: no deal 1 (the table counts deals 1 to N without a gap)")
    s = summarise(records, rules, seeds=range(1, n + 1))
    v = s["value"]
    a, b = s["a_ahead"], s["b_ahead"]
    t = s.get("time", {})
    return HEADING.get(rules.variant, rules.variant) + ("" if rules.cards == "classic" else f" ({rules.cards})"), [
        f"1–{n:,}",
        f"**{signed(v['mean'])}** ({interval(v['ci95'])})",
        f"{signed(v['median'])}; {signed(v['p10'])} / {signed(v['p90'])}",
        f"{pct(a['fraction'])} ({100 * a['ci95'][0]:.1f}–{100 * a['ci95'][1]:.1f}) / {pct(b['fraction'])}",
        ", ".join(f"{SEAT[k]} {pct(h['mean'])}" for k, h in s["holder"].items()),
        f"{s['mixed']:,} of {n:,}",
        f"{signed(s['maximin']['mean'])} / {signed(s['minimax']['mean'])}",
        f"{signed(s['worth']['A']['mean'])} ({interval(s['worth']['A']['ci95'])}) / "
        f"{signed(s['worth']['B']['mean'])} ({interval(s['worth']['B']['ci95'])})",
        f"{t['median_seconds']:.2f} s (90 %: {t['p90_seconds']:.1f} s), as recorded" if t else "—",
    ]


ROWS = ["deals", "mean value, A − B", "median; 10 % / 90 %", "A ahead / B ahead", "ends with the bottle",
        "deals needing a mixed choice", "best pure choice guarantees: A / B",
        "the choice played well is worth, to A / to B", "analysis time a deal (median, wall)"]


def main() -> int:
    files = sorted(STATS.glob("*.jsonl"), key=lambda p: (not p.name.startswith("lopaka"), p.name))
    if not files:
        print(f"no results files in {STATS}", file=sys.stderr)
        return 2
    try:
        cols = [column(p) for p in files]
    except BatchError as e:
        print(e, file=sys.stderr)
        return 2
    print("| figure | " + " | ".join(h for h, _ in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for i, row in enumerate(ROWS):
        print(f"| {row} | " + " | ".join(c[i] for _, c in cols) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
