"""What the hidden hands cost at Lopaka's exchange: the setup hint's passes against the equilibrium's.

    python benchmarks/bottleimp/exchange_hidden_cost.py run --deals 1-200 [--samples 32] [--out FILE]
    python benchmarks/bottleimp/exchange_hidden_cost.py summary [FILE]

For each deal the setup hint chooses A's pass and B's pass at a real table (each from its own
11 cards only, over ``--samples`` drawn deals, its default model: the opponent passes its lowest
card), as the ``table`` bot does.  The deal's exact 11 x 11 exchange matrix and its equilibrium
come from ``benchmarks/results/bottleimp/lopaka-classic-whole.jsonl`` (every card known).  Per
deal and seat:

* ``hint_cost``: what the hint's pass gives up against the opponent's equilibrium mix, beside
  the equilibrium's value (A: value - row against B's mix; B: column against A's mix - value;
  never negative): the price of choosing without seeing the other hands, measured double dummy;
* ``low_cost``: the same for the low-cards pass (the lowest card), the baseline;
* ``pair``: the matrix cell of both hint passes, beside the value.

``summary`` adds, from the same matrices, the duplicate game the ``table`` bot plays against
``table-low`` (the lowest card passed) with the play double dummy: what the hint's passes gain a
round, and what the best pass against the lowest card, chosen seeing every hand, would.

All figures are double dummy: the play after the exchange is perfect on both sides.  A line a
deal as it finishes (this process the only writer); ``run`` again resumes.
"""
import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

from scoundrel_solver.batch import BatchError, command_main, parse_seeds, read_json_lines, resume_lines
from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.setuphint import setup_hint
from scoundrel_solver.bottleimp.setupview import setup_view_of
from scoundrel_solver.intervals import mean_ci

ROOT = Path(__file__).resolve().parents[1]
WHOLE = ROOT / "results" / "bottleimp" / "lopaka-classic-whole.jsonl"
OUT = ROOT / "results" / "bottleimp" / "setup-hint" / "exchange-hidden-cost.jsonl"


def whole_records(wanted) -> dict:
    out = {}
    with open(WHOLE, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec["seed"] in wanted:
                out[rec["seed"]] = rec
    return out


def mix(rec: dict, seat: str, cards) -> list:
    """The equilibrium's probability of each of ``cards`` for ``seat`` (0 where not in the support)."""
    support = {int(c): Fraction(p) for c, p in rec[seat].items()}
    return [support.get(c, Fraction(0)) for c in cards]


def measure(seed: int, rec: dict, samples: int) -> dict:
    start = deal(seed, Rules("lopaka")).start()
    rows, cols = start.hands[0], start.hands[2]
    m = rec["matrix"]
    value = Fraction(rec["value"])
    x, y = mix(rec, "A", rows), mix(rec, "B", cols)

    def a_against_mix(a):
        i = rows.index(a)
        return sum((q * m[i][j] for j, q in enumerate(y)), Fraction(0))

    def b_against_mix(b):
        j = cols.index(b)
        return sum((p * m[i][j] for i, p in enumerate(x)), Fraction(0))
    a = setup_hint(setup_view_of(start, [], 0), samples=samples, workers=1).recommended
    b = setup_hint(setup_view_of(start, [], 2), samples=samples, workers=1).recommended
    low_a, low_b = min(rows), min(cols)
    return {"seed": seed, "samples": samples, "value": float(value), "hint_A": a, "hint_B": b, "low_A": low_a,
            "low_B": low_b, "hint_cost_A": float(value - a_against_mix(a)), "hint_cost_B": float(b_against_mix(b) - value),
            "low_cost_A": float(value - a_against_mix(low_a)), "low_cost_B": float(b_against_mix(low_b) - value),
            "pair": m[rows.index(a)][cols.index(b)], "low_pair": m[rows.index(low_a)][cols.index(low_b)]}


def run(args):
    if args.samples < 1:
        raise BatchError("--samples takes 1 or more")
    seeds = list(parse_seeds(args.deals))
    whole = whole_records(set(seeds))
    missing = [s for s in seeds if s not in whole]
    if missing:
        raise BatchError(f"no exact exchange record of deal {missing[0]} in {WHOLE}")
    with resume_lines(args.out) as (out, done):
        todo = [s for s in seeds if s not in done]
        print(f"{len(todo)} deals to measure -> {args.out}", file=sys.stderr)
        for s in todo:
            out.write((json.dumps(measure(s, whole[s], args.samples)) + "\n").encode())


def _mean_ci(xs):
    mean, ci = mean_ci(xs)
    return f"{mean:.2f}" + ("" if ci is None else f" (95 % {ci[0]:.2f} to {ci[1]:.2f})")


def summary(args):
    recs = [r for _, r in read_json_lines(args.out, lambda r: None).items]
    if not recs:
        raise BatchError(f"{args.out} holds no record")
    n = len(recs)
    print(f"{n} deals ({min(r['seed'] for r in recs)}-{max(r['seed'] for r in recs)}), the hint at "
          f"{recs[0]['samples']} drawn deals, double dummy:")
    for seat in ("A", "B"):
        print(f"  {seat}: the hint's pass gives up {_mean_ci([r['hint_cost_' + seat] for r in recs])} against the "
              f"opponent's equilibrium mix; the lowest card {_mean_ci([r['low_cost_' + seat] for r in recs])}; "
              f"the hint passes the lowest card in {sum(r['hint_' + seat] == r['low_' + seat] for r in recs)} of {n}")
    print(f"  both hint passes: the cell minus the value {_mean_ci([r['pair'] - r['value'] for r in recs])}; "
          f"both lowest cards {_mean_ci([r['low_pair'] - r['value'] for r in recs])}")
    dup = duplicate_figures(recs, whole_records({r["seed"] for r in recs}))
    print("  duplicate against a player who passes the lowest card (the table bot against table-low, "
          "double dummy after the exchange), a round:")
    print(f"    the hint's passes gain {_mean_ci(dup['hint'])} (A's pass {_mean_ci(dup['hint_A'])}, "
          f"B's {_mean_ci(dup['hint_B'])})")
    print(f"    the best pass seeing every hand gains {_mean_ci(dup['best'])}: the most any pass can gain here")


def duplicate_figures(recs: list, whole: dict) -> dict:
    """Per deal, from the exact matrix: what the hint's pass gains for its seat against an
    opponent passing the lowest card, beside both passing the lowest (``hint_A``, ``hint_B``;
    ``hint``: their mean, the duplicate gain of a round), and the same for the best pass against
    the lowest card, chosen seeing every hand (``best``)."""
    out = {key: [] for key in ("hint_A", "hint_B", "hint", "best")}
    for r in recs:
        start = deal(r["seed"], Rules("lopaka")).start()
        rows, cols, m = list(start.hands[0]), list(start.hands[2]), whole[r["seed"]]["matrix"]
        low_a, low_b = rows.index(r["low_A"]), cols.index(r["low_B"])
        base = m[low_a][low_b]
        gain_a = m[rows.index(r["hint_A"])][low_b] - base
        gain_b = base - m[low_a][cols.index(r["hint_B"])]
        best_a = max(row[low_b] for row in m) - base
        best_b = base - min(m[low_a])
        out["hint_A"].append(gain_a)
        out["hint_B"].append(gain_b)
        out["hint"].append((gain_a + gain_b) / 2)
        out["best"].append((best_a + best_b) / 2)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--deals", default="1-200")
    p.add_argument("--samples", type=int, default=32)
    p.add_argument("--out", type=Path, default=OUT)
    s = sub.add_parser("summary")
    s.add_argument("out", type=Path, nargs="?", default=OUT)
    args = parser.parse_args()
    return command_main(run if args.command == "run" else summary, args)


if __name__ == "__main__":
    sys.exit(main())
