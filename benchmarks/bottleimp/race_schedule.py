"""What the setup hint's race costs in choices: each race schedule replayed on the same deals
as the unraced hint (issue 61).

    python benchmarks/bottleimp/race_schedule.py run --variant lopaka --step pass --positions 100 --samples 32
    python benchmarks/bottleimp/race_schedule.py summary FILE

``run`` values every choice on every one of ``--samples`` drawn deals (``setup_hint(race=False)``)
at the positions of ``bench_setup_hint.py`` (deal k, seat A for odd k and B for even, the earlier
steps by the low-cards policy) and records each choice's value in each deal, one line a
position as it finishes (resumable: ``run`` again goes on).  A choice's value in a deal does
not depend on which other choices are valued beside it, so any race - successive halving from
a first round of ``n0`` deals, :func:`.setuphint.survivors` after each round - can be replayed
on these values exactly as the hint would run it.  ``summary`` replays the hint's schedule
(``setuphint.rounds``), gentler ones (first rounds of 8 and 16 deals), and the hint at fewer
deals (2, 4, 8, 16: the first deals of the same sequence, as ``--samples`` would draw them; the
``table`` bot's stack steps draw 8) and prints, against the unraced recommendation on all the
deals: how often each picks it, how often it is within 0.5 coin of it, the mean and the largest
loss (in the unraced figures, coins a round for the seat), and the cells each solves.
"""
import argparse
import json
import statistics
import sys
from fractions import Fraction
from pathlib import Path

from bench_setup_hint import position
from scoundrel_solver.batch import BatchError, command_main, read_json_lines, resume_lines
from scoundrel_solver.bottleimp.setuphint import choice_text, first_round, merge, rounds, setup_hint, survivors
from scoundrel_solver.bottleimp.setupview import STEP_NAMES

OUT = Path(__file__).resolve().parents[1] / "results" / "bottleimp" / "setup-hint"


def out_path(variant: str, step: str, samples: int) -> Path:
    return OUT / f"race-{variant}-{step}-{samples}.jsonl"


def measure(variant: str, step: str, k: int, samples: int) -> dict:
    view = position(variant, step, k)
    h = setup_hint(view, samples=samples, workers=1, race=False)
    order = [rep for rep, _ in merge(view)]          # the race's order (its ties go to the earlier)
    candidates = sorted(h.candidates, key=lambda c: order.index(c.choice))
    return {"variant": variant, "step": step, "seed": k, "seat": view.seat_name, "samples": samples,
            "model": h.model.opponent, "choices": [choice_text(c.choice) for c in candidates],
            "values": [[str(v) for v in c.values] for c in candidates]}


def replay(values: list, seat_is_a: bool, ends: list) -> tuple:
    """The race over ``values`` (a list a choice, its value in each deal) with rounds ending at
    ``ends``: (the recommended choice's index, the cells valued)."""
    alive, cells, done = list(range(len(values))), 0, 0
    for k, end in enumerate(ends):
        cells += len(alive) * (end - done)
        done = end
        if k < len(ends) - 1 and len(alive) > 2:
            alive = survivors(alive, {i: values[i][:end] for i in alive}, seat_is_a)
    sign = 1 if seat_is_a else -1
    return min(alive, key=lambda i: (-sign * sum(values[i][:done]), alive.index(i))), cells


def summary(files) -> int:
    for path in files:
        recs = [r for _, r in read_json_lines(Path(path)).items]
        if not recs:
            continue
        n = recs[0]["samples"]
        print(f"{path}: {len(recs)} positions, {recs[0]['variant']} {recs[0]['step']}, {n} deals each, "
              f"model {recs[0]['model']}")
        ways = {"unraced": [n]}
        hints = first_round(len(recs[0]["choices"]))
        for n0 in sorted({hints, 2, 4, 8, 16}):
            if n0 < n:
                ways[f"first round {n0}" + (" (the hint's)" if n0 == hints else "")] = rounds(0, n, first=n0)
        for budget in (2, 4, 8, 16):      # the hint at fewer deals (--samples, or what a --time reaches)
            if budget < n:
                ways[f"the hint at {budget} deals"] = rounds(len(recs[0]["choices"]), budget)
        print("  race                        same   within 0.5   loss: mean     max   cells a position")
        for name, ends in ways.items():
            same = within = 0
            losses, cells = [], []
            for r in recs:
                values = [[Fraction(v) for v in vs] for vs in r["values"]]
                seat_is_a = r["seat"] == "A"
                sign = 1 if seat_is_a else -1
                means = [sign * sum(v) / len(v) for v in values]
                best = max(range(len(values)), key=lambda i: (means[i], -i))
                got, c = replay(values, seat_is_a, ends)
                loss = float(means[best] - means[got])
                same += got == best
                within += loss <= 0.5
                losses.append(loss)
                cells.append(c)
            m = len(recs)
            print(f"  {name:26} {same / m:5.0%} {within / m:12.0%} {statistics.mean(losses):12.2f} {max(losses):7.2f} "
                  f"{statistics.mean(cells):10.0f}")
    return 0


def run(args):
    if args.step not in STEP_NAMES[args.variant]:
        raise BatchError(f"{args.variant} has no step {args.step}")
    if args.positions < 1 or args.samples < 1:
        raise BatchError("--positions and --samples take 1 or more")
    with resume_lines(args.out or out_path(args.variant, args.step, args.samples)) as (out, done):
        for k in range(1, args.positions + 1):
            if k not in done:
                out.write((json.dumps(measure(args.variant, args.step, k, args.samples)) + "\n").encode())
                print(f"  position {k} done", file=sys.stderr, flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--variant", choices=["lopaka", "glitzerhaus"], required=True)
    r.add_argument("--step", choices=["pass", "s1", "s2", "open"], required=True)
    r.add_argument("--positions", type=int, default=100)
    r.add_argument("--samples", type=int, default=32)
    r.add_argument("--out", type=Path)
    s = sub.add_parser("summary")
    s.add_argument("files", nargs="+")
    args = p.parse_args()
    if args.command == "summary":
        return command_main(summary, args.files)
    return command_main(run, args)


if __name__ == "__main__":
    sys.exit(main())
