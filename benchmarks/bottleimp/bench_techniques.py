#!/usr/bin/env python3
"""What each technique of the Bottle Imp's core buys, and the core against the reference.

Part 1, the ablation (as DDS's write-up does): a fixed sample of play-phase positions is
solved with every technique on, then with each of ``tt`` (the transposition table),
``order`` (move ordering), ``equiv`` (equivalent cards merged), ``bounds`` (fast bounds),
``ranks`` (relative ranks in the table's key) and ``quick`` (the sure and possible coins in the bounds)
switched off alone, side by side in one run, a fresh table for every solve.  The positions:
for each deal of ``--deals``, the benchmark's play phase (bench_solve.py: Lopaka's lowest
pass, Glitzerhaus's lowest-two setup) played on at random (a generator seeded by the deal)
to ``--lopaka-tricks`` / ``--glitzerhaus-tricks`` tricks left, so that every variant
finishes.  Nodes and CPU seconds are summed over the sample; the ratios are to all-on.

Part 2, the speed-up over the pure-Python reference (the issue wants >= 1,000 x): the
endgames of tests/bottleimp/imp_reference_corpus.jsonl with at most ``--max-cards`` cards in
hand; for each, ``reference.value`` (a fresh memo) against ``Engine.value`` (a fresh
table), each timed over repeats of at least 20 ms; and the whole answer, the reference's
``solve_reference`` (value, every card's value, the line) against the engine's value,
``card_values`` and ``line``.

CPU seconds (``time.process_time``), not wall: the machine may be busy with other work.

Examples (from the repository root)::

    nice python benchmarks/bottleimp/bench_techniques.py
    nice python benchmarks/bottleimp/bench_techniques.py --deals 1-20 --json benchmarks/results/bottleimp/techniques.json
    python benchmarks/bottleimp/bench_techniques.py --skip-ablation
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import ROOT, build_id, play_phase  # noqa: E402

from scoundrel_solver.batch import parse_seeds  # noqa: E402
from scoundrel_solver.bottleimp import Play  # noqa: E402
from scoundrel_solver.bottleimp.engine import Engine  # noqa: E402
from scoundrel_solver.bottleimp.position import position_from_dict  # noqa: E402
from scoundrel_solver.bottleimp.reference import solve_reference, value as reference_value  # noqa: E402

TECHNIQUES = ("tt", "order", "equiv", "bounds", "ranks", "quick")
CONFIGS = [("all on", list(TECHNIQUES))] + [(f"no {t}", [u for u in TECHNIQUES if u != t]) for t in TECHNIQUES]
CORPUS = ROOT / "tests" / "bottleimp" / "imp_reference_corpus.jsonl"


# ------------------------------------------------------------------ part 1
def sample_position(variant: str, seed: int, tricks_left: int):
    """Deal ``seed``'s benchmark play phase, played on at random to ``tricks_left`` tricks left."""
    _, state = play_phase(variant, seed)
    rng = random.Random(seed)
    while state.rules.tricks - state.tricks_done > tricks_left or state.trick:
        state = state.apply(Play(rng.choice(state.legal_cards())))
    return state


def ablation(positions, repeats: int = 2) -> list:
    """``[(config name, nodes, cpu seconds, cuts, first cuts, values)]`` over ``positions``.

    Every position is solved by every configuration in turn (a fresh table each time), the
    whole round ``repeats`` times; a solve's time is its least over the rounds (the first
    touches of a table's memory and the machine's other work only add)."""
    engines = [(name, Engine(techniques=techniques)) for name, techniques in CONFIGS]
    best = {}
    for _ in range(repeats):
        for i, state in enumerate(positions):
            for name, engine in engines:
                engine.core.forget()
                engine.core.reset_counters()
                t = time.process_time()
                b = engine.bounds(state)
                cpu = time.process_time() - t
                stats = engine.stats()
                old = best.get((name, i))
                best[name, i] = (b.nodes, min(cpu, old[1]) if old else cpu, stats["cuts"], stats["first_cuts"], b.lower)
    rows = []
    for name, _ in engines:
        runs = [best[name, i] for i in range(len(positions))]
        rows.append((name, sum(r[0] for r in runs), sum(r[1] for r in runs), sum(r[2] for r in runs),
                     sum(r[3] for r in runs), [r[4] for r in runs]))
    return rows


def print_ablation(title: str, rows) -> list:
    base_nodes, base_cpu = rows[0][1], rows[0][2]
    print(f"\n{title}")
    print(f"  {'':8} {'nodes':>14} {'x nodes':>8} {'CPU s':>8} {'x time':>7} {'first-card cuts':>16}")
    out = []
    for name, nodes, cpu, cuts, first, values in rows:
        same = "" if values == rows[0][5] else "   VALUES DIFFER"
        share = f"{100 * first / cuts:.1f} %" if cuts else "-"
        print(f"  {name:8} {nodes:>14,} {nodes / base_nodes:>8.2f} {cpu:>8.3f} {cpu / base_cpu:>7.2f} {share:>16}{same}")
        out.append({"config": name, "nodes": nodes, "cpu_seconds": round(cpu, 4), "nodes_ratio": nodes / base_nodes,
                    "time_ratio": cpu / base_cpu, "first_cut_share": first / cuts if cuts else None,
                    "same_values": not same})
    return out


# ------------------------------------------------------------------ part 2
def timed(fn, least: float = 0.02) -> float:
    """CPU seconds of one call of ``fn``, averaged over repeats lasting at least ``least``."""
    n, total = 0, 0.0
    while total < least:
        t = time.process_time()
        fn()
        total += time.process_time() - t
        n += 1
    return total / n


def cards_in_hand(position: dict) -> int:
    holdings = position.get("hands") or {**position["open"], **{k + "'": v for k, v in position["hidden"].items()}}
    return sum(len(v) for v in holdings.values())


def against_reference(max_cards: int) -> list:
    entries = [json.loads(line) for line in CORPUS.read_text().splitlines()]
    engine = Engine(log2_entries=16)
    rows = []
    for entry in entries:
        if cards_in_hand(entry["position"]) > max_cards:
            continue
        state = position_from_dict(entry["position"])

        def ours():
            engine.core.forget()
            return engine.value(state)

        def ours_all():
            engine.core.forget()
            engine.value(state)
            engine.card_values(state)
            return engine.line(state)

        assert ours() == reference_value(state) == entry["value"], entry["seed"]
        rows.append({"seed": entry["seed"], "variant": entry["position"]["variant"],
                     "cards": cards_in_hand(entry["position"]),
                     "reference": timed(lambda: reference_value(state)), "core": timed(ours),
                     "reference_all": timed(lambda: solve_reference(state)), "core_all": timed(ours_all)})
    return rows


SIZES = [(1, 9), (10, 12), (13, 15), (16, 99)]


def print_reference(rows) -> dict:
    print(f"\nthe core against the pure-Python reference: {len(rows)} corpus endgames of at most "
          f"{max(r['cards'] for r in rows)} cards (CPU time a position; fresh memo, fresh table)")
    print(f"  {'cards in hand':14} {'positions':>9} {'reference ms':>13} {'core ms':>9} {'ratio':>8} "
          f"{'median':>8} {'min':>6}   {'whole answer:':>14} {'ratio':>6} {'median':>7}")
    out = []
    for lo, hi in SIZES + [(1, 99)]:
        group = [r for r in rows if lo <= r["cards"] <= hi]
        if not group:
            continue
        line = {"cards": f"{lo}-{hi}" if (lo, hi) != (1, 99) else "all", "positions": len(group)}
        for what, ref, core in (("value", "reference", "core"), ("all", "reference_all", "core_all")):
            ratios = sorted(r[ref] / r[core] for r in group)
            line[what] = {"reference_ms": 1000 * statistics.fmean(r[ref] for r in group),
                          "core_ms": 1000 * statistics.fmean(r[core] for r in group),
                          "ratio_of_totals": sum(r[ref] for r in group) / sum(r[core] for r in group),
                          "median_ratio": statistics.median(ratios), "min_ratio": ratios[0]}
        v, a = line["value"], line["all"]
        print(f"  {line['cards']:14} {len(group):>9} {v['reference_ms']:>13.2f} {v['core_ms']:>9.4f} "
              f"{v['ratio_of_totals']:>7,.0f}x {v['median_ratio']:>7,.0f}x {v['min_ratio']:>5,.0f}x   "
              f"{'':>14} {a['ratio_of_totals']:>5,.0f}x {a['median_ratio']:>6,.0f}x")
        out.append(line)
    print("  (ratio: of the summed times; median and min: of the positions' own ratios; whole answer: "
          "the reference's solve_reference\n   against the engine's value, card_values and line)")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="examples:\n" + __doc__.split("root)::\n\n")[1])
    parser.add_argument("--deals", default="1-20", help="deals of the ablation sample (default 1-20)")
    parser.add_argument("--lopaka-tricks", default="11,8", help="tricks left of Lopaka's positions (default 11,8)")
    parser.add_argument("--glitzerhaus-tricks", default="7,6", help="tricks left of Glitzerhaus's (default 7,6)")
    parser.add_argument("--max-cards", type=int, default=15, help="corpus endgames of at most N cards (default 15)")
    parser.add_argument("--skip-ablation", action="store_true")
    parser.add_argument("--skip-reference", action="store_true")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    report = {"build": build_id(), "date": time.strftime("%Y-%m-%d")}
    print(f"build {report['build']}")
    if not args.skip_ablation:
        seeds = parse_seeds(args.deals)
        report["ablation"] = {}
        for variant, tricks in (("lopaka", args.lopaka_tricks), ("glitzerhaus", args.glitzerhaus_tricks)):
            for left in (int(t) for t in tricks.split(",")):
                positions = [sample_position(variant, s, left) for s in seeds]
                title = (f"{variant}: {len(positions)} positions (deals {args.deals}), {left} tricks left, "
                         f"{sum(map(len, positions[0].hands))} cards in hand")
                report["ablation"][f"{variant}-{left}"] = print_ablation(title, ablation(positions))
    if not args.skip_reference:
        report["reference"] = print_reference(against_reference(args.max_cards))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
