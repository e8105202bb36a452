"""The setup hint's quality against its effort, and its latency (issue 61).

    python benchmarks/bottleimp/bench_setup_hint.py run --variant lopaka --step pass --positions 100 \
        --samples 32 --jobs 2 [--out FILE]
    python benchmarks/bottleimp/bench_setup_hint.py summary FILE

A position: deal ``k`` (1, 2, ...) of the variant, the seat A for odd ``k`` and B for even ones,
at the step asked, the earlier setup steps made by the low-cards setup policy for both
players.  For each position the hint runs twice under its default model, at ``--samples N``
and at ``10 N`` drawn deals (a count, so the figures do not depend on the machine; the 10 N run
raced as the hint races, or with ``--unraced-10x`` every choice on every deal, so that a choice
the N race dropped early is judged too; raced, the two are one run, the N hint its checkpoint at
N deals, the figures the same as two runs': ``setuphint.setup_hint``'s ``checkpoints``): the
record holds both recommendations, the 10 N figure of each, the deals, and the wall time of
each run on one core.  ``summary`` prints how often the N recommendation is the 10 N one, or
within 0.5 coin of it by the 10 N figures (the target: 90 %), and the wall time of the N and
10 N runs (median, p90, p95, max).

Records are written one line a position as each finishes (this process the only writer), so
an interrupted run loses nothing; ``run`` again resumes.
"""
import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

from scoundrel_solver.batch import BatchError, command_main, percentile, read_json_lines, resume_lines
from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.policy import low_cards_setup
from scoundrel_solver.bottleimp.setuphint import choice_text, setup_hint
from scoundrel_solver.bottleimp.setupview import STEP_NAMES, setup_view_of

OUT = Path(__file__).resolve().parents[1] / "results" / "bottleimp" / "setup-hint"


def position(variant: str, step: str, k: int):
    """The view of position ``k`` (see the module's doc)."""
    start = deal(k, Rules(variant)).start()
    seat = start.seat_index("A" if k % 2 else "B")
    state, actions = start, []
    while STEP_NAMES[variant][state.step] != step:
        action = state.joint_action({i: low_cards_setup(state, i) for i in range(len(state.seats))
                                     if state.setup_options(i)})
        actions.append(action)
        state = state.apply(action)
    return setup_view_of(start, actions, seat)


def measure(task):
    variant, step, k, samples, race_10x = task
    view = position(variant, step, k)
    out = {"variant": variant, "step": step, "seed": k, "seat": view.seat_name, "samples": samples}
    runs = {}
    if race_10x:        # one race to 10 N; the hint at N is that race's checkpoint (the same figures)
        t0 = time.perf_counter()
        big = setup_hint(view, samples=10 * samples, workers=1, checkpoints=(samples,),
                         on_checkpoint=lambda h: runs.setdefault(samples, (h, time.perf_counter() - t0)))
        runs[10 * samples] = (big, time.perf_counter() - t0)
    else:
        for n in (samples, 10 * samples):
            t0 = time.perf_counter()
            h = setup_hint(view, samples=n, workers=1, race=n == samples)
            runs[n] = (h, time.perf_counter() - t0)
    small, big = runs[samples][0], runs[10 * samples][0]
    fig = {choice_text(c.choice): float(c.mean) for c in big.candidates}
    deals = {choice_text(c.choice): c.deals for c in big.candidates}
    rec_small, rec_big = choice_text(small.recommended), choice_text(big.recommended)
    out.update({"recommended": rec_small, "recommended_10x": rec_big, "same": rec_small == rec_big,
                "figure_10x": fig[rec_big],
                "figure_10x_of_recommended": fig[rec_small] if deals[rec_small] == big.deals else None,
                "deals_of_recommended_10x": deals[rec_small],
                "clear": small.clear, "clear_10x": big.clear,
                "seconds": round(runs[samples][1], 3), "seconds_10x": round(runs[10 * samples][1], 3),
                "model": small.model.opponent, "raced_10x": race_10x})
    return out


def within(rec: dict) -> bool:
    """Is the N recommendation the 10 N one, or within 0.5 coin of it by the 10 N figures?  (A
    choice the 10 N race dropped early has no figure on all its deals: it counts as not within.)"""
    if rec["same"]:
        return True
    other = rec["figure_10x_of_recommended"]
    return other is not None and abs(other - rec["figure_10x"]) <= 0.5


def run(args):
    if args.step not in STEP_NAMES[args.variant]:
        raise BatchError(f"{args.variant} has no step {args.step}")
    if args.positions < 1 or args.samples < 1 or args.jobs < 1:
        raise BatchError("--positions, --samples and --jobs take 1 or more")
    path = args.out or OUT / f"{args.variant}-{args.step}-{args.samples}{'' if args.race_10x else '-unraced'}.jsonl"
    with resume_lines(path) as (out, done):
        todo = [(args.variant, args.step, k, args.samples, args.race_10x) for k in range(1, args.positions + 1)
                if k not in done]
        print(f"{len(todo)} positions to measure -> {path}", file=sys.stderr)
        if args.jobs > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                for rec in pool.imap(measure, todo):
                    out.write((json.dumps(rec) + "\n").encode())
        else:
            for task in todo:
                out.write((json.dumps(measure(task)) + "\n").encode())


def summary(args):
    for path in args.files:
        recs = [r for _, r in read_json_lines(Path(path), lambda r: None).items]
        if not recs:
            continue
        n = len(recs)
        same = sum(r["same"] for r in recs)
        ok = sum(within(r) for r in recs)
        r0 = recs[0]
        raced = "raced" if r0.get("raced_10x", True) else "unraced"
        line = (f"{r0['variant']} {r0['step']} ({r0['model']}), N = {r0['samples']} against {10 * r0['samples']} "
                f"({raced}): "
                f"{n} positions; the same choice {same} ({same / n:.0%}), the same or within 0.5 coin {ok} "
                f"({ok / n:.0%}); clear at N {sum(r['clear'] for r in recs)}, at 10 N "
                f"{sum(r['clear_10x'] for r in recs)}")
        for key in ("seconds", "seconds_10x"):
            xs = [r[key] for r in recs]
            line += (f"; wall {'N' if key == 'seconds' else '10 N'}: median {statistics.median(xs):.2f} s, p90 "
                     f"{percentile(xs, 90):.2f}, p95 {percentile(xs, 95):.2f}, max {max(xs):.2f}")
        print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--variant", choices=["lopaka", "glitzerhaus"], required=True)
    p.add_argument("--step", choices=["pass", "s1", "s2", "open"], required=True)
    p.add_argument("--positions", type=int, default=100)
    p.add_argument("--samples", type=int, required=True)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--unraced-10x", dest="race_10x", action="store_false",
                   help="the 10 N reference values every choice on every deal (no race): a choice the N race "
                        "dropped early is then judged too")
    p.add_argument("--out", type=Path)
    s = sub.add_parser("summary")
    s.add_argument("files", nargs="+")
    args = parser.parse_args()
    return command_main(run if args.command == "run" else summary, args)


if __name__ == "__main__":
    sys.exit(main())
