#!/usr/bin/env python3
"""The search core against the pure-Python reference solver on the same small dungeons.

Generates N random small dungeons from a fixed RNG seed (so every run solves the same
dungeons), solves each with ``engine="core"`` and ``engine="reference"``, checks that
the optimal scores are equal -- aborting loudly at the first mismatch -- and prints the
total and median time of each engine and the speed ratio reference / core.

Default mix: half solo (12-14 cards, classic flee, strict weapons), half co-op
(8 cards of the 52-card pack, lenient weapons).  Times are wall times of ``solve()``
(``time.perf_counter``), so they include the per-call overhead of each engine (for the
core: converting the state and allocating its transposition table, see ``--tt-mb``).

    python benchmarks/bench_vs_reference.py                 # default: ~2-3 minutes
    python benchmarks/bench_vs_reference.py -n 20           # quick look
    python benchmarks/bench_vs_reference.py --out benchmarks/results/vs_reference.jsonl
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # run from a clone without installing
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import DEFAULT_TT_MB, Rules, format_cards, solve  # noqa: E402
from scoundrel_solver.scoundrel.cards import JOKER, full_pack, is_solo_card  # noqa: E402


def parse_range(text: str) -> tuple:
    a, sep, b = text.partition("-")
    try:
        lo, hi = int(a), int(b) if sep else int(a)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad size {text!r} (write N or A-B)")
    if not 1 <= lo <= hi <= 54:
        raise argparse.ArgumentTypeError(f"bad size {text!r}")
    return lo, hi


def dungeons(n: int, seed: int, solo_sizes, coop_sizes, coop_share: float):
    """``n`` reproducible (kind, rules, deck) triples: solo first, then co-op."""
    rng = random.Random(seed)
    solo_pack = [c for c in full_pack() if c is not JOKER and is_solo_card(c)]
    coop_pack = [c for c in full_pack() if c is not JOKER]
    n_coop = round(n * coop_share)
    out = []
    for i in range(n):
        if i < n - n_coop:
            out.append(("solo", Rules(mode="solo", flee="classic", durability="strict"),
                        rng.sample(solo_pack, rng.randint(*solo_sizes))))
        else:
            out.append(("coop", Rules(mode="coop"), rng.sample(coop_pack, rng.randint(*coop_sizes))))
    return out


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description="Solve the same random small dungeons with the search core and the pure-Python "
                    "reference; check the scores agree and print the speed ratio.",
        epilog="example: python benchmarks/bench_vs_reference.py -n 200 --out benchmarks/results/vs_reference.jsonl")
    p.add_argument("-n", "--count", type=int, default=60,
                   help="number of dungeons (default 60: the reference takes ~2-3 min on them)")
    p.add_argument("--seed", type=int, default=2024, help="RNG seed of the dungeons (default 2024)")
    p.add_argument("--solo-sizes", type=parse_range, default=(12, 14), metavar="A-B",
                   help="solo dungeon sizes in cards (default 12-14)")
    p.add_argument("--coop-sizes", type=parse_range, default=(8, 8), metavar="A-B",
                   help="co-op dungeon sizes in cards (default 8)")
    p.add_argument("--coop-share", type=float, default=0.5, help="fraction of co-op dungeons (default 0.5)")
    p.add_argument("--tt-mb", type=float, default=DEFAULT_TT_MB,
                   help=f"core transposition table in MB (default {DEFAULT_TT_MB}, as solve())")
    p.add_argument("--out", help="also write one JSON line per dungeon to this file")
    p.add_argument("-v", "--verbose", action="store_true", help="print every dungeon")
    args = p.parse_args(argv)
    if args.count < 1:
        p.error("--count must be at least 1")
    if not 0 <= args.coop_share <= 1:
        p.error("--coop-share must be between 0 and 1")

    cases = dungeons(args.count, args.seed, args.solo_sizes, args.coop_sizes, args.coop_share)
    print(f"{len(cases)} dungeons (rng seed {args.seed}): "
          f"{sum(k == 'solo' for k, _, _ in cases)} solo of {args.solo_sizes[0]}-{args.solo_sizes[1]} cards "
          f"(classic, strict), {sum(k == 'coop' for k, _, _ in cases)} co-op of "
          f"{args.coop_sizes[0]}-{args.coop_sizes[1]} cards (lenient); core table {args.tt_mb:g} MB", flush=True)

    out = open(args.out, "w") if args.out else None
    rows = []
    t_start = time.perf_counter()
    for i, (kind, rules, deck) in enumerate(cases, 1):
        times = {}
        results = {}
        for engine in ("core", "reference"):
            t0 = time.perf_counter()
            r = solve(deck, rules, engine=engine, tt_mb=args.tt_mb)
            times[engine] = time.perf_counter() - t0
            results[engine] = r
        c, ref = results["core"], results["reference"]
        if not (c.exact and ref.exact and c.score == ref.score):
            print("\n" + "!" * 72, file=sys.stderr)
            print(f"!!! MISMATCH on dungeon {i} ({kind}, {rules.describe()}):", file=sys.stderr)
            print(f"!!!   deck      {format_cards(deck)}", file=sys.stderr)
            print(f"!!!   core      score {c.score} exact {c.exact} line {c.line_text}", file=sys.stderr)
            print(f"!!!   reference score {ref.score} exact {ref.exact} line {ref.line_text}", file=sys.stderr)
            print("!" * 72, file=sys.stderr)
            return 1
        row = {"i": i, "kind": kind, "rules": rules.as_dict(), "deck": format_cards(deck), "cards": len(deck),
               "score": c.score, "core_s": round(times["core"], 6), "reference_s": round(times["reference"], 6),
               "core_nodes": c.nodes, "reference_nodes": ref.nodes,
               "ratio": times["reference"] / times["core"]}
        rows.append(row)
        if out:
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            out.flush()
        if args.verbose:
            print(f"  {i:>4} {kind:<4} {len(deck):>2} cards  score {c.score:>4}  core {fmt_ms(times['core']):>12}  "
                  f"reference {fmt_ms(times['reference']):>12}  x{row['ratio']:,.0f}", flush=True)
        elif i % 10 == 0:
            print(f"  {i}/{len(cases)} agree, {time.perf_counter() - t_start:.0f} s", flush=True)
    if out:
        out.close()

    print(f"\nall {len(rows)} scores agree (core == reference, both exact); "
          f"{time.perf_counter() - t_start:.1f} s wall")
    groups = [("all", rows)] + [(k, [r for r in rows if r["kind"] == k]) for k in ("solo", "coop")]
    print(f"{'':<6}{'n':>5}{'core total':>14}{'core median':>14}{'ref total':>14}{'ref median':>14}"
          f"{'ratio total':>13}{'ratio median':>14}")
    for name, rs in groups:
        if not rs:
            continue
        ct = sum(r["core_s"] for r in rs)
        rt = sum(r["reference_s"] for r in rs)
        print(f"{name:<6}{len(rs):>5}{ct:>13.3f}s{statistics.median(r['core_s'] for r in rs) * 1000:>12.2f}ms"
              f"{rt:>13.1f}s{statistics.median(r['reference_s'] for r in rs) * 1000:>12.0f}ms"
              f"{rt / ct:>12,.0f}x{statistics.median(r['ratio'] for r in rs):>13,.0f}x")
    print("ratio total = total reference time / total core time; "
          "ratio median = median over dungeons of reference time / core time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
