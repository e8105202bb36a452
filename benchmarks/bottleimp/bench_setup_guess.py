"""The setup hint's first guesses, side by side: each choice's search starting at the previous
choice's value, against every search starting at 0 (issue 61).

    python benchmarks/bottleimp/bench_setup_guess.py --variant lopaka --step pass --positions 16 --deals 8

At each position (deal ``k``, the earlier steps by the low-cards policy, seat A for odd ``k``),
``setuphint.candidate_values`` values every choice on each of the first ``--deals`` drawn deals
under the low-cards model, once with its first guesses as they are and once with every guess 0,
each with a fresh engine (2**20 entries).  Prints the nodes and CPU seconds of each, per-position
CPU median and max, and their ratios; stops if any value differs (a guess changes the work only).
"""
import argparse
import statistics
import sys
import time

from scoundrel_solver.bottleimp import setuphint, tablehint
from scoundrel_solver.bottleimp.engine import Engine
from scoundrel_solver.bottleimp.setupview import draw

from bench_setup_hint import position

PLAIN = {"later": setuphint._later, "play": setuphint.play_value}


def guesses(on: bool) -> None:
    if on:
        setuphint._later, setuphint.play_value = PLAIN["later"], PLAIN["play"]
    else:
        setuphint._later = lambda state, deadline, start=(1, 1), guess=0: PLAIN["later"](state, deadline, start, 0)
        setuphint.play_value = lambda state, deadline, guess=0: PLAIN["play"](state, deadline, 0)


def measure(view, deals: int, on: bool) -> tuple:
    guesses(on)
    engine = Engine(20)
    tablehint.use_engine(engine)
    choices = [rep for rep, _ in setuphint.merge(view)]
    t0, n0 = time.process_time(), engine.core.nodes
    values = [setuphint.candidate_values(draw(view, k), view.seat, choices, "low-cards") for k in range(deals)]
    return engine.core.nodes - n0, time.process_time() - t0, values


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", choices=["lopaka", "glitzerhaus"], default="lopaka")
    p.add_argument("--step", choices=["pass", "s1", "s2"], default="pass")
    p.add_argument("--positions", type=int, default=16)
    p.add_argument("--deals", type=int, default=8)
    args = p.parse_args()
    rows = {False: [], True: []}
    for k in range(1, args.positions + 1):
        view = position(args.variant, args.step, k)
        for on in ((False, True) if k % 2 else (True, False)):       # which goes first alternates
            rows[on].append(measure(view, args.deals, on))
        if rows[False][-1][2] != rows[True][-1][2]:
            print(f"error: position {k}: the values differ with and without the guesses", file=sys.stderr)
            return 1
    for on, name in ((False, "every search from 0"), (True, "from the previous choice's value")):
        cpu = [r[1] for r in rows[on]]
        print(f"{name:34} nodes {sum(r[0] for r in rows[on]):>13,}  CPU {sum(cpu):7.1f} s "
              f"(a position: median {statistics.median(cpu):.2f} s, max {max(cpu):.2f} s)")
    nodes = sum(r[0] for r in rows[True]) / sum(r[0] for r in rows[False])
    cpu = sum(r[1] for r in rows[True]) / sum(r[1] for r in rows[False])
    print(f"{args.variant} {args.step}, {args.positions} positions x {args.deals} deals, the same values: "
          f"nodes {nodes:.3f}, CPU {cpu:.3f} of every search from 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
