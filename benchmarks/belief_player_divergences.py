#!/usr/bin/env python3
"""Are the belief player's depth-0 choices its rule or its leaf noise?

Where the belief player's line first leaves the clairvoyant player's at a
depth-0 decision (8-30 unseen cards; a bench_belief_player.py results file),
the depth-0 belief search is run again at that position with ``--orders`` leaf
orders drawn from another seed (``--rng-offset``; ``--common``: the same orders
at every chance node with the same unseen cards, CoreBeliefSearch's
``common_orders``), and its choice compared with the two players' moves there:
the belief player's again, the clairvoyant player's, or another action.  With
as many orders as the player used (16) and another seed this measures how much
of the parting is the noise of the sampled orders; with many more, which of
the two moves the depth-0 rule prefers once the noise is small.  Per parting
kind (bench_belief_player.PARTING) and in all; one line per position as it goes.

    nice -n 10 .venv/bin/python benchmarks/belief_player_divergences.py --orders 16 --rng-offset 1 \\
        > benchmarks/results/belief-player-divergences-reseed16.txt
    nice -n 10 .venv/bin/python benchmarks/belief_player_divergences.py --orders 128 --limit 14 \\
        > benchmarks/results/belief-player-divergences.txt    # the first, 14-position run (other format)
    nice -n 10 .venv/bin/python benchmarks/belief_player_divergences.py --orders 128 --common \
        --kind "belief avoids" --kind "clairvoyant avoids" > benchmarks/results/belief-player-divergences-avoid-common128.txt
"""
import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_belief_player as bbp  # noqa: E402
from scoundrel_solver.scoundrel.beliefsearch import CoreBeliefSearch  # noqa: E402
from scoundrel_solver.scoundrel.table import TablePosition  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, default=Path(__file__).resolve().parent / "results/belief-player-solo.jsonl")
    ap.add_argument("--orders", type=int, default=16, help="leaf orders of the re-run depth-0 search")
    ap.add_argument("--rng-offset", type=int, default=1,
                    help="the re-run's rng seed is deal * 7919 + this (the player's own was the deal)")
    ap.add_argument("--common", action="store_true", help="common orders (CoreBeliefSearch(common_orders=True))")
    ap.add_argument("--limit", type=int, default=0, help="at most this many positions (0: all)")
    ap.add_argument("--kind", action="append", choices=bbp.PARTING, default=None,
                    help="only the partings of this kind (repeatable; default: all)")
    args = ap.parse_args(argv)
    if args.orders < 1 or args.limit < 0:
        bbp.fail("--orders must be at least 1 and --limit at least 0")
    if not args.file.exists():
        bbp.fail(f"no such results file: {args.file}")
    recs = sorted(bbp.load(args.file).values(), key=lambda r: r["seed"])
    tally = collections.Counter()
    seconds = []
    n = 0
    for rec in recs:
        at = bbp.parting_position(rec)
        if at is None:
            continue
        state, known, ba, ca = at
        pos = TablePosition.from_state(state, known)
        if not rec["exact_unseen"] < len(pos.unseen) <= bbp.MAX_UNSEEN:
            continue
        kind = bbp.parting_move(rec)
        if args.kind and kind not in args.kind:
            continue
        t0 = time.perf_counter()
        search = CoreBeliefSearch(state.rules, horizon=0, samples=args.orders, enumerate_limit=args.orders,
                                  rng_seed=rec["seed"] * 7919 + args.rng_offset, common_orders=args.common)
        values = search.action_values(pos)
        choice, _ = bbp._best(values)
        seconds.append(time.perf_counter() - t0)
        v = {str(x): (round(float(w), 3), round(float(m), 2)) for x, (w, m) in values}
        who = "belief" if str(choice) == ba else "clairvoyant" if str(choice) == ca else "other"
        tally[(kind, who)] += 1
        n += 1
        print(f"{rec['seed']} unseen {len(pos.unseen)} {kind}: belief {ba} {v[ba]}, clairvoyant {ca} {v[ca]};"
              f" re-run chooses {choice} ({who}) {seconds[-1]:.1f}s", flush=True)
        if args.limit and n >= args.limit:
            break
    print(f"{n} parting positions at depth-0 decisions{' (' + ', '.join(args.kind) + ')' if args.kind else ''}, re-run with {args.orders} leaf orders, seed offset "
          f"{args.rng_offset}{', common orders' if args.common else ''}; the re-run chooses:")
    for kind in bbp.PARTING + ("all",):
        row = {who: sum(c for (k, w), c in tally.items() if w == who and kind in (k, "all"))
               for who in ("belief", "clairvoyant", "other")}
        total = sum(row.values())
        if total:
            print(f"  {kind:<21} {total:4d}: the belief player's move {row['belief']} ({100 * row['belief'] / total:.0f} %),"
                  f" the clairvoyant player's {row['clairvoyant']} ({100 * row['clairvoyant'] / total:.0f} %),"
                  f" another {row['other']}")
    if seconds:
        print(f"  seconds per position: median {statistics.median(seconds):.2f}, max {max(seconds):.1f}")


if __name__ == "__main__":
    main()
