"""The setup hint at its default time budget: wall time and the deals it drew (issue 61, "Latency").

    python benchmarks/bottleimp/setup_hint_latency.py --variant glitzerhaus --step s2 --positions 10 [--time 10]

Position ``k`` as in ``bench_setup_hint.py`` (deal k, seat A for odd k and B for even, the earlier
steps by the low-cards policy).  Each hint runs with ``--time`` seconds (default: the hint's own
for the step, ``setuphint.DEFAULT_SETUP_TIMES``) on ``--workers`` processes (default 2, as the CLI), and the
script prints per position the wall time, the deals drawn (0: none within the time: the hint
says so) and the recommendation, then the median, p95 and max wall time and the deals' median
and least.  Wall times depend on the machine and its load: the load average is printed with
them.
"""
import argparse
import os
import statistics
import sys
import time

from bench_setup_hint import position
from scoundrel_solver.batch import percentile
from scoundrel_solver.bottleimp.setuphint import DEFAULT_SETUP_TIMES, SetupHintError, choice_text, setup_hint
from scoundrel_solver.bottleimp.setupview import STEP_NAMES


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", choices=["lopaka", "glitzerhaus"], required=True)
    p.add_argument("--step", choices=["pass", "s1", "s2", "open"], required=True)
    p.add_argument("--positions", type=int, default=10)
    p.add_argument("--time", type=float, default=None, help="seconds a hint (default: the step's own)")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    if args.step not in STEP_NAMES[args.variant]:
        print(f"error: {args.variant} has no step {args.step}", file=sys.stderr)
        return 2
    if args.time is None:
        args.time = DEFAULT_SETUP_TIMES[args.step]
    if args.positions < 1 or args.time <= 0 or args.workers < 1:
        print("error: --positions, --time and --workers take more than 0", file=sys.stderr)
        return 2
    walls, deals = [], []
    print(f"{args.variant} {args.step}, {args.time:g} s a hint, {args.workers} workers; load {os.getloadavg()[0]:.2f}")
    for k in range(1, args.positions + 1):
        view = position(args.variant, args.step, k)
        t0 = time.perf_counter()
        try:
            h = setup_hint(view, seconds=args.time, workers=args.workers)
            n, rec = h.deals, choice_text(h.recommended)
        except SetupHintError:
            n, rec = 0, "(no deal within the time)"
        walls.append(time.perf_counter() - t0)
        deals.append(n)
        print(f"  position {k} ({view.seat_name}): {walls[-1]:6.1f} s, {n} deals, {rec}", flush=True)
    w = sorted(walls)
    print(f"wall: median {statistics.median(w):.1f} s, p95 {percentile(w, 95):.1f} s, max {w[-1]:.1f} s; "
          f"deals drawn: median {statistics.median(deals):g}, least {min(deals)}, none in {deals.count(0)} of "
          f"{len(deals)}; load {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
