"""Where the ``table`` bot's setup departs from the low-cards setup, and what those deals gained.

    python benchmarks/bottleimp/setup_deviations.py RESULTS.jsonl [--out FILE]

RESULTS is a duplicate file of ``table`` against ``table-low`` in Lopaka (``bottleimp/bots.py``).
For each deal the ``table`` bot's exchange is made again as A and as B (the setup hint at its
fixed count: the same choice as in the games) beside the low-cards pass (the lowest card); the
deals where either differs are the only ones whose games differ.  Prints the mean gain of those
deals and of the others, and each departing deal; ``--out`` keeps a line a deal.
"""
import argparse
import json
import statistics
import sys

from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.bots import make_bot


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--out")
    args = parser.parse_args()
    try:
        recs = [json.loads(line) for line in open(args.results, encoding="utf-8") if line.strip()]
    except (OSError, ValueError) as exc:
        print(f"error: cannot read {args.results}: {exc}", file=sys.stderr)
        return 2
    if any(r.get("variant") != "lopaka" or {r.get("first"), r.get("second")} != {"table", "table-low"} for r in recs):
        print(f"error: {args.results} is not a Lopaka duplicate file of table against table-low", file=sys.stderr)
        return 2
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    rows = []
    for r in recs:
        start = deal(r["seed"], Rules("lopaka")).start()
        bot = make_bot("table")
        row = {"seed": r["seed"], "gain": r["gain"] if r["first"] == "table" else -r["gain"],
               "table_A": bot.choose_setup(start, 0), "low_A": min(start.hands[0]),
               "table_B": bot.choose_setup(start, 2), "low_B": min(start.hands[2])}
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    departs = [r for r in rows if r["table_A"] != r["low_A"] or r["table_B"] != r["low_B"]]
    same = [r for r in rows if r not in departs]
    for name, group in (("departing", departs), ("the same", same)):
        if group:
            print(f"{name}: {len(group)} deals, mean gain {statistics.mean(r['gain'] for r in group):+.2f} a round")
    for r in departs:
        print(f"  deal {r['seed']}: gain {r['gain']:+.1f}; A passes {r['table_A']} (low {r['low_A']}), "
              f"B passes {r['table_B']} (low {r['low_B']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
