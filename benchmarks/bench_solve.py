#!/usr/bin/env python3
"""Solve a set of numbered deals and measure time, nodes and memory.

Every deal must be solved exactly; the summary makes any deal that was not (a limit
hit, or an error) stand out.  One JSON line per deal is appended to the output file
and flushed at once, so an interrupted run loses nothing and ``--resume`` carries on.

Examples (from the repository root)::

    python benchmarks/bench_solve.py --set solo-classic --seeds 1-200
    python benchmarks/bench_solve.py --set coop-52 --jobs 2 --out benchmarks/results/coop-52.jsonl
    python benchmarks/bench_solve.py --set solo-classic --durability lenient --seeds 1-100
    python benchmarks/bench_solve.py --summary benchmarks/results/solo-classic.jsonl
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import multiprocessing.connection as mp_connection
import os
import signal
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # run from a clone without installing
    sys.path.insert(0, str(ROOT))

from measure import build_id as measure_build_id, peak_rss_mb, reset_peak_rss  # noqa: E402
from scoundrel_solver import DEFAULT_TT_MB, Rules, solve  # noqa: E402
from scoundrel_solver.batch import percentile  # noqa: E402

# name -> (rule options, default seeds).  Defaults of the benchmark issue.
SETS = {
    "solo-classic": (dict(mode="solo", flee="classic"), (1, 1000)),
    "solo-hard": (dict(mode="solo", flee="hard"), (1, 200)),
    "solo-easy": (dict(mode="solo", flee="easy"), (1, 200)),
    "coop-52": (dict(mode="coop", deck_size=52), (1, 100)),
    "coop-50": (dict(mode="coop", deck_size=50), (1, 100)),
    "coop-54": (dict(mode="coop", deck_size=54), (1, 100)),
}


# ---------------------------------------------------------------- arguments

def parse_seeds(text: str) -> list:
    """``"1-200"``, ``"7"`` or ``"1-10,42,100-105"`` -> sorted distinct seeds."""
    seeds = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        a, sep, b = part.partition("-")
        try:
            lo = int(a)
            hi = int(b) if sep else lo
        except ValueError:
            raise argparse.ArgumentTypeError(f"bad seed range {part!r} (write A-B, N or a comma list)")
        if lo < 0 or hi < lo:
            raise argparse.ArgumentTypeError(f"bad seed range {part!r}")
        seeds.update(range(lo, hi + 1))
    if not seeds:
        raise argparse.ArgumentTypeError("no seeds")
    return sorted(seeds)


def make_rules(args) -> tuple:
    """(Rules, label) from --set and the rule flags (flags override the set)."""
    base, _ = SETS[args.set]
    opts = dict(base)
    for key in ("mode", "flee", "durability", "deck_size"):
        value = getattr(args, key)
        if value is not None:
            opts[key] = value
    rules = Rules(**opts)
    if rules.coop:
        label = f"coop-{rules.deck_size}"
    else:
        label = f"solo-{rules.flee}"
    default_durability = "lenient" if rules.coop else "strict"
    if rules.durability != default_durability:
        label += f"-{rules.durability}"
    return rules, label


def build_id() -> str:
    """The commit and a hash of the compiled Scoundrel core (:func:`measure.build_id`)."""
    return measure_build_id("scoundrel_solver.scoundrel._core")


# ---------------------------------------------------------------- solving

def solve_one(job) -> dict:
    """Solve one seed; runs in the parent or in a pool worker."""
    seed, rules_opts, max_nodes, timeout, tt_mb, engine, build = job
    rules = Rules(**rules_opts)
    record = {"seed": seed, "rules": rules.as_dict()}
    scope = "deal" if reset_peak_rss() else "process"
    try:
        t0 = time.perf_counter()
        r = solve(seed=seed, rules=rules, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, engine=engine)
        seconds = time.perf_counter() - t0
    except Exception as exc:  # recorded, and reported loudly in the summary
        record.update(error=f"{type(exc).__name__}: {exc}", exact=False, peak_rss_mb=peak_rss_mb(), rss_scope=scope,
                      pid=os.getpid(), build=build)
        return record
    record.update(
        score=r.score, won=r.won, exact=r.exact, limit=r.limit, nodes=r.nodes,
        seconds=round(seconds, 6),
        nodes_per_second=int(r.nodes / seconds) if seconds > 0 else None,
        tt=dict(r.tt), peak_rss_mb=peak_rss_mb(), rss_scope=scope, pid=os.getpid(),
        engine=r.engine, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, build=build,
    )
    return record


def _worker(conn):
    """Worker process: solve the jobs the parent sends, one at a time, until ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    while True:
        job = conn.recv()
        if job is None:
            return
        conn.send(solve_one(job))


def solve_in_workers(jobs, k, kill_after=None):
    """Yield the records of ``jobs``, solved by ``k`` worker processes, in order of completion.

    Like ``multiprocessing.Pool.imap_unordered``, except that a worker that dies (the
    compiled core crashing, say) or that is still on one deal after ``kill_after`` seconds
    (a search that ignores its own ``timeout``) does not hang or end the run: it is
    stopped, its deal is recorded as an error, a fresh worker takes its place, and the
    other deals go on.
    """
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    todo = list(reversed(jobs))
    workers = []  # [process, connection, job in hand or None, time the job was sent]

    def start():
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        proc.start()
        child.close()
        w = [proc, parent, None, 0.0]
        workers.append(w)
        return w

    def feed(w):
        w[2] = todo.pop() if todo else None
        w[3] = time.monotonic()
        w[1].send(w[2])

    def failed(w, why):
        proc, conn, job, _ = w
        if proc.is_alive():
            proc.terminate()
        proc.join()
        conn.close()
        workers.remove(w)
        if todo:
            feed(start())
        return {"seed": job[0], "rules": Rules(**job[1]).as_dict(), "exact": False,
                "error": why, "build": job[-1]}

    try:
        for _ in range(min(k, len(jobs))):
            feed(start())
        while any(w[2] is not None for w in workers):
            busy = [w for w in workers if w[2] is not None]
            ready = mp_connection.wait([w[1] for w in busy] + [w[0].sentinel for w in busy],
                                       timeout=1.0 if kill_after else None)
            for w in busy:
                proc, conn, job, t0 = w
                if conn in ready:
                    try:
                        rec = conn.recv()
                    except (EOFError, OSError):
                        rec = None
                    if rec is not None:
                        yield rec
                        feed(w)
                        continue
                if conn in ready or proc.sentinel in ready:
                    proc.join()
                    code = proc.exitcode
                    try:
                        why = f"signal {-code} ({signal.Signals(-code).name})" if code < 0 else f"exit code {code}"
                    except (TypeError, ValueError):
                        why = f"exit code {code}"
                    yield failed(w, f"worker process died: {why}")
                elif kill_after and time.monotonic() - t0 > kill_after:
                    yield failed(w, f"killed after {kill_after:g} s wall (the search did not stop by itself)")
    finally:
        for proc, conn, job, _ in workers:
            if proc.is_alive() and job is None:
                proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join()


def rules_key(rules_dict) -> str:
    return json.dumps(rules_dict, sort_keys=True)


def read_records(path: Path) -> list:
    """The records of a JSONL file; a torn last line (interrupted write) is skipped."""
    records = []
    if not path.exists():
        return records
    with path.open() as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                print(f"warning: {path}:{n}: unreadable line skipped", file=sys.stderr)
    return records


def run(args) -> int:
    rules, label = make_rules(args)
    seeds = args.seeds or list(range(SETS[args.set][1][0], SETS[args.set][1][1] + 1))
    if args.out:
        out = Path(args.out)
    else:
        out = HERE / "results" / f"{label}.seeds{seeds[0]}-{seeds[-1]}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    key = rules_key(rules.as_dict())

    if out.exists() and out.stat().st_size > 0 and not (args.resume or args.overwrite):
        print(f"error: {out} already exists; use --resume to skip the seeds it holds, "
              f"--overwrite to start it again, or another --out", file=sys.stderr)
        return 2
    if args.overwrite:
        out.write_text("")
    done = set()
    if args.resume:
        for rec in read_records(out):
            if rules_key(rec.get("rules")) != key or "error" in rec:
                continue
            if args.redo_inexact and not rec.get("exact"):
                continue
            done.add(rec["seed"])
    todo = [s for s in seeds if s not in done]

    build = build_id()
    kill_after = args.kill_after
    if kill_after is None and args.timeout:
        kill_after = 2 * args.timeout + 30
    print(f"{label}: {rules.describe()}; {len(seeds)} seeds {seeds[0]}-{seeds[-1]}, "
          f"{len(seeds) - len(todo)} already in {out}, {len(todo)} to solve; "
          f"jobs {args.jobs}, tt {args.tt_mb} MB, max_nodes {args.max_nodes or '-'}, "
          f"timeout {args.timeout or '-'} s, kill after {kill_after or '-'} s, build {build}", flush=True)

    rules_opts = dict(mode=rules.mode, flee=rules.flee, durability=rules.durability, deck_size=rules.deck_size)
    jobs = [(s, rules_opts, args.max_nodes, args.timeout, args.tt_mb, args.engine, build) for s in todo]

    # A torn last line (killed mid-write) must not swallow the next record.
    if out.exists() and out.stat().st_size > 0:
        with out.open("rb") as f:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                with out.open("a") as g:
                    g.write("\n")

    t_start = time.perf_counter()
    new = []
    with out.open("a") as f:
        def emit(rec):
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            f.flush()
            new.append(rec)
            if args.verbose or not rec.get("exact"):
                flag = "" if rec.get("exact") else "   <-- NOT EXACT" + (f" ({rec.get('error') or rec.get('limit')})")
                print(f"  seed {rec['seed']:>6}: score {rec.get('score')!s:>4}  "
                      f"{rec.get('seconds', 0) * 1000:9.1f} ms  {rec.get('nodes', 0):>11,} nodes{flag}",
                      flush=True)
            elif len(new) % args.progress == 0:
                print(f"  {len(new)}/{len(todo)} done, {time.perf_counter() - t_start:.1f} s", flush=True)

        try:
            if args.in_process:
                for job in jobs:
                    emit(solve_one(job))
            else:
                for rec in solve_in_workers(jobs, args.jobs, kill_after):
                    emit(rec)
        except KeyboardInterrupt:
            print(f"\ninterrupted: {len(new)} new results kept in {out}; rerun with --resume", file=sys.stderr)
            return 130
    wall = time.perf_counter() - t_start

    # Summarise all the records of this rule set in the file for the requested seeds.
    wanted = set(seeds)
    records = [r for r in read_records(out) if rules_key(r.get("rules")) == key and r.get("seed") in wanted]
    print()
    print(f"run: {len(new)} solved in {wall:.1f} s wall with {args.jobs} job(s); results in {out}")
    if args.jobs > 1:
        print(f"(with --jobs {args.jobs} the workers run at once, each with its own table: "
              f"total memory is up to {args.jobs} x the peak RSS below)")
    return summarise(records, str(out))


# ---------------------------------------------------------------- summary


def summarise(records, source="") -> int:
    """Print the summary of ``records``; exit status 1 if any deal is not exact."""
    # The last record of a (rules, seed) wins (a --resume --redo-inexact rerun).
    groups = {}
    for rec in records:
        groups.setdefault(rules_key(rec.get("rules")), {})[rec["seed"]] = rec
    if not groups:
        print(f"no results{' in ' + source if source else ''}")
        return 1
    status = 0
    for key, by_seed in groups.items():
        recs = [by_seed[s] for s in sorted(by_seed)]
        rules = Rules(**json.loads(key))
        ok = [r for r in recs if "error" not in r]
        bad = [r for r in recs if not r.get("exact")]
        secs = sorted(r["seconds"] for r in ok)
        nodes = sorted(r["nodes"] for r in ok)
        builds = sorted({r.get("build", "?") for r in recs})
        seeds = sorted(by_seed)
        print(f"== {rules.describe()} — {len(recs)} deals, seeds {seeds[0]}-{seeds[-1]}"
              f"{' (' + source + ')' if source else ''}")
        print(f"   build      {', '.join(builds)}")
        print(f"   exact      {len(recs) - len(bad)}/{len(recs)}")
        if bad:
            status = 1
            print(f"   !!!!! {len(bad)} DEAL(S) NOT SOLVED EXACTLY !!!!!")
            for r in bad[:50]:
                why = r.get("error") or f"limit={r.get('limit')}"
                print(f"   !!!!! seed {r['seed']}: {why}, score {r.get('score')}, "
                      f"{r.get('seconds', 0):.1f} s, {r.get('nodes', 0):,} nodes")
            if len(bad) > 50:
                print(f"   !!!!! ... and {len(bad) - 50} more")
        won = [r for r in recs if r.get("exact") and r.get("won")]
        exact = [r for r in recs if r.get("exact")]
        if exact:
            scores = [r["score"] for r in exact]
            print(f"   won        {len(won)}/{len(exact)} exact = {len(won) / len(exact):.1%}; "
                  f"score mean {statistics.mean(scores):.2f}, min {min(scores)}, max {max(scores)}")
        if ok:
            ms = [s * 1000 for s in secs]
            print(f"   time ms    median {statistics.median(ms):.1f}  p90 {percentile(ms, 90):.1f}  "
                  f"p99 {percentile(ms, 99):.1f}  max {ms[-1]:.1f}  total {sum(secs):.1f} s"
                  + (f"  (includes {len(ok) - len(exact)} stopped by a limit)" if len(ok) > len(exact) else ""))
            total_s = sum(secs)
            nps = sum(nodes) / total_s if total_s > 0 else float("nan")
            print(f"   nodes      median {statistics.median(nodes):,.0f}  max {nodes[-1]:,}  "
                  f"total {sum(nodes):,}; {nps:,.0f} nodes/s")
            rss = max(r.get("peak_rss_mb", 0) for r in recs)
            big = max(recs, key=lambda r: r.get("peak_rss_mb", 0))
            tt_mb = sorted({r.get("tt", {}).get("mb") for r in ok if r.get("tt")} - {None})
            full = max((r["tt"]["entries"] / r["tt"]["capacity"] for r in ok
                        if r.get("tt") and r["tt"].get("capacity")), default=0)
            print(f"   memory     peak RSS {rss:.0f} MB (seed {big['seed']}; process RSS, includes the touched pages "
                  f"of the {', '.join(map(str, tt_mb)) or '?'} MB transposition table); table at most {full:.1%} full")
            slow = sorted(ok, key=lambda r: r["seconds"], reverse=True)[:5]
            print("   slowest    " + ", ".join(
                f"{r['seed']} ({r['seconds'] * 1000:.0f} ms, {r['nodes']:,} nodes)" for r in slow))
    return status


# ---------------------------------------------------------------- main

def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description="Solve numbered deals with the search core and report time, nodes and memory. "
                    "One JSON line per deal is appended to --out as soon as it is solved.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="sets and their default seeds:\n" + "\n".join(
            f"  {name:<13} {Rules(**opts).describe()}, seeds {a}-{b}" for name, (opts, (a, b)) in SETS.items())
        + "\n\nexamples:\n"
          "  python benchmarks/bench_solve.py --set solo-classic --seeds 1-200\n"
          "  python benchmarks/bench_solve.py --set coop-52 --jobs 2 --resume --out benchmarks/results/coop-52.jsonl\n"
          "  python benchmarks/bench_solve.py --summary benchmarks/results/solo-classic.seeds1-200.jsonl")
    p.add_argument("--set", choices=sorted(SETS), default="solo-classic", help="deal set (default solo-classic)")
    p.add_argument("--seeds", type=parse_seeds, help="seeds A-B (or N, or a comma list); default: the set's")
    p.add_argument("--mode", choices=["solo", "coop"], help="override the set's mode")
    p.add_argument("--flee", choices=["classic", "easy", "hard"], help="override the flee rule (solo)")
    p.add_argument("--durability", choices=["strict", "lenient"], help="override weapon durability")
    p.add_argument("--deck-size", dest="deck_size", type=int, choices=[52, 50, 54], help="override co-op deck size")
    p.add_argument("--out", help="JSONL output (default benchmarks/results/<set>.seeds<A>-<B>.jsonl)")
    p.add_argument("--resume", action="store_true", help="skip seeds already in --out (same rules)")
    p.add_argument("--redo-inexact", action="store_true", help="with --resume: solve again the seeds not exact")
    p.add_argument("--overwrite", action="store_true", help="empty --out first")
    p.add_argument("--max-nodes", type=int, default=None, help="node limit per deal (default none)")
    p.add_argument("--timeout", type=float, default=None, help="time limit per deal in seconds (default none)")
    p.add_argument("--kill-after", type=float, default=None, metavar="S",
                   help="stop a worker still on one deal after S seconds wall and record the deal as an "
                        "error (default: 2 x --timeout + 30 if --timeout is given, else never)")
    p.add_argument("--tt-mb", type=float, default=DEFAULT_TT_MB,
                   help=f"transposition table size in MB (default {DEFAULT_TT_MB})")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--in-process", action="store_true",
                   help="solve in this process instead of a worker (a crash of the core then ends the run)")
    p.add_argument("--engine", choices=["core", "reference"], default="core", help="default core")
    p.add_argument("--progress", type=int, default=100, help="print progress every N deals (default 100)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every deal")
    p.add_argument("--summary", metavar="FILE.jsonl", help="only print the summary of an existing file (of its --seeds only, if given)")
    args = p.parse_args(argv)
    if args.summary:
        path = Path(args.summary)
        if not path.exists():
            p.error(f"{path} does not exist")
        records = read_records(path)
        if args.seeds:  # summarise a part of the file, e.g. the first 200 seeds of 1000
            wanted = set(args.seeds)
            records = [r for r in records if r.get("seed") in wanted]
        return summarise(records, str(path))
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    if args.progress < 1:
        p.error("--progress must be at least 1")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
