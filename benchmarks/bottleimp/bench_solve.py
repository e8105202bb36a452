#!/usr/bin/env python3
"""The Bottle Imp's double-dummy engine on numbered deals: time, nodes and memory, deal by deal.

Three runs (issue 45), each to its own results file under benchmarks/results/bottleimp/:

* ``--variant lopaka`` - the Lopaka play phase from trick 1 after the exchange of each
  player's lowest card (``pass min(A) min(B)``), one core.
* ``--variant glitzerhaus`` - the Glitzerhaus play phase from trick 1 after the fixed
  **lowest-two setup**: at each stack, each player lays the stack's lowest card in the
  devil's trick and passes its second lowest (``s1 a1/a2 b1/b2 | s2 ... | open 1 1``), then
  both lay stack 1 open; one core.
* ``--whole`` - the whole Lopaka deal: the 11 x 11 exchange matrix (121 play-phase solves)
  and its zero-sum game (``exchange.solve_zero_sum``); ``--jobs 2`` spreads the matrix's
  rows over two processes, one engine each.

One JSON line per deal is appended as soon as it is solved (value, nodes, wall and CPU
seconds, the process's peak RSS), one writer per file (a lock); ``--resume`` skips the seeds
already in the file.  ``summarise`` prints median, p90, p99, max and mean of the times, the
nodes, nodes per second and the peak memory.

Examples (from the repository root)::

    nice python benchmarks/bottleimp/bench_solve.py run --variant lopaka --seeds 1-2000
    nice python benchmarks/bottleimp/bench_solve.py run --variant glitzerhaus --seeds 1-300
    nice python benchmarks/bottleimp/bench_solve.py run --whole --seeds 1-30 --jobs 2
    python benchmarks/bottleimp/bench_solve.py run --variant lopaka --seeds 1-10000 --resume
    python benchmarks/bottleimp/bench_solve.py summarise benchmarks/results/bottleimp/*.jsonl
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import signal
import statistics
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "bottleimp"
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

from measure import build_id as measure_build_id, peak_rss_mb  # noqa: E402
from scoundrel_solver.batch import ResultsFile, command_main, parse_seeds, percentile, read_json_lines  # noqa: E402
from scoundrel_solver.bottleimp import Discard, Pass, Reveal, Rules, deal, format_line  # noqa: E402
from scoundrel_solver.bottleimp.engine import Budget, Engine  # noqa: E402
from scoundrel_solver.bottleimp.exchange import solve_zero_sum  # noqa: E402

#: the default seeds of each run (the issue's)
DEFAULT_SEEDS = {"lopaka": "1-10000", "glitzerhaus": "1-1000", "whole": "1-10000"}


# ------------------------------------------------------------------ the positions
def lowest_pass(rules: Rules, seed: int):
    """``(setup actions, play-phase state)``: Lopaka deal ``seed`` after ``pass min(A) min(B)``."""
    start = deal(seed, rules).start()
    action = Pass(min(start.hands[0]), min(start.hands[2]))
    return [action], start.apply(action)


def lowest_two_setup(rules: Rules, seed: int):
    """``(setup actions, play-phase state)``: Glitzerhaus deal ``seed`` after the lowest-two
    setup (each stack: lay its lowest card in the devil's trick, pass its second lowest; then
    both open stack 1)."""
    state = deal(seed, rules).start()
    actions = []
    for stack in (1, 2):
        a, b = state.hands[stack - 1], state.hands[2 + stack - 1]       # sorted holdings
        actions.append(Discard(stack, a[0], a[1], b[0], b[1]))
        state = state.apply(actions[-1])
    actions.append(Reveal(1, 1))
    return actions, state.apply(actions[-1])


SETUPS = {"lopaka": lowest_pass, "glitzerhaus": lowest_two_setup}


def play_phase(variant: str, seed: int, cards: str = "classic"):
    return SETUPS[variant](Rules(variant, cards=cards), seed)


# ------------------------------------------------------------------ measuring
def build_id() -> str:
    """The commit and a hash of the compiled Bottle Imp core (:func:`measure.build_id`)."""
    return measure_build_id("scoundrel_solver.bottleimp._core", "scoundrel_solver.bottleimp._search")


@dataclass(frozen=True)
class BenchSet:
    """What a results file holds (its records' ``rules``): the run, the variant, the card table."""

    run: str            # "play" or "whole"
    variant: str
    cards: str = "classic"
    guess: str = "zero"  # whole: the driver's first guess, 0 or the value of the cell before in the row

    def as_dict(self) -> dict:
        setup = {"lopaka": "lowest pass", "glitzerhaus": "lowest-two setup"}[self.variant]
        out = {"run": self.run, "variant": self.variant, "cards": self.cards,
               "setup": "11 x 11 exchange matrix" if self.run == "whole" else setup}
        if self.guess != "zero":
            out["guess"] = self.guess
        return out

    def describe(self) -> str:
        return f"{self.variant} {self.cards}, {self.as_dict()['setup']}" + (
            f", first guess {self.guess}" if self.guess != "zero" else "")

    @property
    def label(self) -> str:
        return f"{self.variant}-{self.cards}-{self.run}" + (f"-{self.guess}" if self.guess != "zero" else "")


def solve_play_phase(engine: Engine, bench: BenchSet, seed: int, max_nodes: int = 0) -> dict:
    """One deal's record: the play phase from trick 1 after the run's fixed setup."""
    actions, state = play_phase(bench.variant, seed, bench.cards)
    engine.core.reset_counters()
    wall, cpu = time.perf_counter(), time.process_time()
    b = engine.bounds(state, Budget(max_nodes=max_nodes))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    stats = engine.stats()
    return {"seed": seed, "rules": bench.as_dict(), "setup": format_line([[a] for a in actions]),
            "value": b.value, "lower": b.lower, "upper": b.upper, "exact": b.exact, "nodes": b.nodes,
            "seconds": round(wall, 6), "cpu_seconds": round(cpu, 6),
            "tt": {k: stats[k] for k in ("tt_probes", "tt_hits", "tt_stores", "tt_replaced")},
            "peak_rss_mb": peak_rss_mb(), "load": round(os.getloadavg()[0], 2)}


# -------------------------------------------------------- the whole Lopaka deal
_ENGINE = None      # one engine a process


def _row(job):
    """The play-phase values of one row of the exchange matrix (A passes ``a``), in a worker;
    with ``neighbour``, each search's first guess is the value of the cell before it."""
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = Engine()
    seed, cards, i, neighbour = job
    start = deal(seed, Rules("lopaka", cards=cards)).start()
    a = start.hands[0][i]
    values, nodes = [], 0
    cpu = time.process_time()
    for b in start.hands[2]:
        guess = values[-1] if neighbour and values else 0
        bounds = _ENGINE.bounds(start.apply(Pass(a, b)), guess=guess)
        values.append(bounds.lower)
        nodes += bounds.nodes
    return i, values, nodes, time.process_time() - cpu, peak_rss_mb()


def solve_whole(pool, jobs_n: int, bench: BenchSet, seed: int) -> dict:
    """One whole Lopaka deal: the 121 play-phase values and the matrix game."""
    start = deal(seed, Rules("lopaka", cards=bench.cards)).start()
    a_cards, b_cards = start.hands[0], start.hands[2]
    wall = time.perf_counter()
    jobs = [(seed, bench.cards, i, bench.guess == "neighbour") for i in range(len(a_cards))]
    rows = list(pool.imap_unordered(_row, jobs)) if pool is not None else [_row(j) for j in jobs]
    matrix = [None] * len(a_cards)
    for i, values, _, _, _ in rows:
        matrix[i] = values
    value, a_mix, b_mix = solve_zero_sum(matrix)
    wall = time.perf_counter() - wall
    row_cpu = [0.0] * len(a_cards)
    for i, _, _, cpu, _ in rows:
        row_cpu[i] = round(cpu, 6)
    maximin = max(min(r) for r in matrix)
    minimax = min(max(matrix[i][j] for i in range(len(a_cards))) for j in range(len(b_cards)))
    return {"seed": seed, "rules": bench.as_dict(), "value": str(value), "value_float": round(float(value), 4),
            "maximin": maximin, "minimax": minimax, "exact": True,
            "A": {str(c): str(p) for c, p in zip(a_cards, a_mix) if p},
            "B": {str(c): str(q) for c, q in zip(b_cards, b_mix) if q},
            "matrix": matrix, "nodes": sum(r[2] for r in rows), "seconds": round(wall, 6),
            "cpu_seconds": round(sum(r[3] for r in rows), 6), "row_cpu_seconds": row_cpu,
            "two_core_seconds": round(makespan(row_cpu, 2), 6), "jobs": jobs_n,
            "peak_rss_mb": max([peak_rss_mb()] + [r[4] for r in rows]), "load": round(os.getloadavg()[0], 2)}


def makespan(times, workers: int) -> float:
    """When the last of ``times`` (rows handed out in order, each to the first worker free)
    ends: the wall time of a deal on ``workers`` otherwise idle cores, from CPU times."""
    free = [0.0] * workers
    for t in times:
        k = free.index(min(free))
        free[k] += t
    return max(free)


def _stop(signum, frame):
    raise KeyboardInterrupt


# ------------------------------------------------------------------ the run
def run(args) -> int:
    if args.whole:
        bench = BenchSet("whole", "lopaka", args.cards, args.guess)
    else:
        bench = BenchSet("play", args.variant, args.cards)
    seeds = parse_seeds(args.seeds or DEFAULT_SEEDS["whole" if args.whole else args.variant])
    out = Path(args.out) if args.out else RESULTS / f"{bench.label}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    build = build_id()
    pool = None
    signal.signal(signal.SIGTERM, _stop)     # as Ctrl-C: the workers are stopped, the file kept
    with ResultsFile(out, bench, resume=args.resume, overwrite=args.overwrite) as results:
        todo = [s for s in seeds if s not in results.done()]
        print(f"{bench.describe()}: {len(seeds)} seeds, {len(seeds) - len(todo)} already in {out}, "
              f"{len(todo)} to solve; build {build}; jobs {args.jobs if args.whole else 1}", flush=True)
        engine = None if args.whole else Engine()
        if args.whole and args.jobs > 1:
            pool = mp.get_context("fork").Pool(args.jobs, initializer=signal.signal,
                                               initargs=(signal.SIGTERM, signal.SIG_DFL))
        t0 = time.perf_counter()
        try:
            for n, seed in enumerate(todo, 1):
                if args.whole:
                    record = solve_whole(pool, args.jobs if pool else 1, bench, seed)
                else:
                    record = solve_play_phase(engine, bench, seed, args.max_nodes)
                record["build"] = build
                results.append(record)
                if args.verbose or not record["exact"]:
                    flag = "" if record["exact"] else "  <-- NOT EXACT"
                    print(f"  seed {seed:>6}: value {record['value']!s:>7}  {record['seconds'] * 1000:9.1f} ms  "
                          f"{record['nodes']:>12,} nodes{flag}", flush=True)
                elif n % args.progress == 0:
                    print(f"  {n}/{len(todo)} done, {time.perf_counter() - t0:.1f} s", flush=True)
        except KeyboardInterrupt:
            print(f"interrupted: {len(results.done())} deals in {out}; carry on with --resume", file=sys.stderr)
            return 130
        finally:
            if pool is not None:
                pool.terminate()
                pool.join()
    summarise_file(out)
    return 0


# ------------------------------------------------------------------ the summary
def _dist(values, scale=1.0, fmt="{:,.1f}") -> str:
    s = sorted(values)
    if not s:
        return "-"
    parts = [("median", statistics.median(s)), ("p90", percentile(s, 90)), ("p99", percentile(s, 99)),
             ("max", s[-1]), ("mean", statistics.fmean(s))]
    return "  ".join(f"{name} {fmt.format(v * scale)}" for name, v in parts)


def summary(records) -> dict:
    """The figures of a list of records (of one results file)."""
    exact = [r for r in records if r.get("exact")]
    nodes = sum(r["nodes"] for r in exact)
    cpu = sum(r["cpu_seconds"] for r in exact)
    return {"deals": len(records), "exact": len(exact), "seeds": (min(r["seed"] for r in records),
                                                                 max(r["seed"] for r in records)),
            "seconds": [r["seconds"] for r in exact], "cpu_seconds": [r["cpu_seconds"] for r in exact],
            "nodes": [r["nodes"] for r in exact], "nodes_per_cpu_second": nodes / cpu if cpu else 0.0,
            "peak_rss_mb": max(r["peak_rss_mb"] for r in records),
            "builds": sorted({r.get("build", "?") for r in records}),
            "load": statistics.fmean(r.get("load", 0.0) for r in records)}


def summarise_files(paths) -> None:
    for path in paths:
        summarise_file(path)


def summarise_file(path) -> None:
    records = [rec for _, rec in read_json_lines(path).items]
    if not records:
        print(f"{path}: no records")
        return
    s = summary(records)
    what = records[0]["rules"]
    print(f"{path}: {what['variant']} {what['cards']}, {what['setup']}"
          f"{', first guess ' + what['guess'] if 'guess' in what else ''}; {s['deals']} deals "
          f"(seeds {s['seeds'][0]}-{s['seeds'][1]}), {s['exact']} exact; builds {', '.join(s['builds'])}")
    print(f"  wall ms   {_dist(s['seconds'], 1000)}")
    print(f"  cpu ms    {_dist(s['cpu_seconds'], 1000)}")
    print(f"  nodes     {_dist(s['nodes'], 1, '{:,.0f}')}")
    print(f"  nodes/s   {s['nodes_per_cpu_second']:,.0f} (all nodes / all CPU seconds)   "
          f"peak RSS {s['peak_rss_mb']:.1f} MB   mean 1-min load {s['load']:.2f}")
    if what["run"] == "whole":
        two = [r["two_core_seconds"] for r in records if "two_core_seconds" in r]
        if two:
            print(f"  2 idle cores ms (the rows' CPU times scheduled on two workers)  {_dist(two, 1000)}")
        gaps = [r["minimax"] - r["maximin"] for r in records]
        mixed = sum(1 for r in records if len(r["A"]) > 1 or len(r["B"]) > 1)
        print(f"  matrix games: {mixed} of {len(records)} mixed equilibria; minimax - maximin "
              f"median {statistics.median(gaps)}, max {max(gaps)}; jobs {sorted({r['jobs'] for r in records})}")
        outside = [r["seed"] for r in records if not r["maximin"] <= Fraction(r["value"]) <= r["minimax"]]
        if outside:
            print(f"  VALUE OUTSIDE [maximin, minimax]: seeds {outside}")
    bad = [r["seed"] for r in records if not r.get("exact")]
    if bad:
        print(f"  NOT EXACT: seeds {bad[:20]}{' ...' if len(bad) > 20 else ''}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="examples:\n" + __doc__.split("root)::\n\n")[1])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="solve deals, one JSON line each")
    r.add_argument("--variant", choices=("lopaka", "glitzerhaus"), default="lopaka")
    r.add_argument("--whole", action="store_true", help="the whole Lopaka deal (exchange matrix and its game)")
    r.add_argument("--cards", choices=("classic", "matagot"), default="classic")
    r.add_argument("--seeds", help="A-B, N or a comma list (default: lopaka 1-10000, glitzerhaus 1-1000, "
                                   "whole 1-10000)")
    r.add_argument("--guess", choices=("zero", "neighbour"), default="zero",
                   help="--whole: the driver's first guess, 0 (default) or the value of the cell before in the row")
    r.add_argument("--jobs", type=int, default=1, help="--whole: processes for the matrix's rows (default 1)")
    r.add_argument("--max-nodes", type=int, default=0, help="play phase: stop a deal after N nodes (default none)")
    r.add_argument("--out", help="results file (default benchmarks/results/bottleimp/VARIANT-CARDS-RUN.jsonl)")
    r.add_argument("--resume", action="store_true", help="skip the seeds already in the file")
    r.add_argument("--overwrite", action="store_true", help="empty the file first")
    r.add_argument("--progress", type=int, default=500, help="a progress line every N deals")
    r.add_argument("-v", "--verbose", action="store_true", help="a line per deal")
    s = sub.add_parser("summarise", help="the figures of results files")
    s.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "summarise":
        return command_main(summarise_files, args.files)
    if args.whole and args.variant != "lopaka":
        parser.error("--whole is the whole Lopaka deal")
    return command_main(run, args)


if __name__ == "__main__":
    sys.exit(main())
