#!/usr/bin/env python3
"""How well does the real-table hint play?  Whole solo games, move by move.

For each numbered deal of the set, three figures side by side:

* ``exact``: the deal's proven optimal score (knowing the order) -- whether it
  is winnable at all;
* ``table``: a player who sees only what a player at the table sees (the
  room, the heroes, the cards gone, the cards of avoided rooms lying at the
  bottom) and always takes the real-table hint's best action by its
  clairvoyant figure (``solver.hints.table_hint`` with ``--samples`` orders and
  ``belief_seconds=0``: perfect-information Monte Carlo; a forced move is
  played without asking).  ``bench_belief_player.py``'s ``clairvoyant`` player
  is this one, and can take its games from this file;
* ``greedy``: a simple one-move greedy player (below), the baseline.

One JSON line per deal is appended as soon as the deal is done; ``--resume``
skips deals already in the file, so an interrupted run loses nothing.

    python benchmarks/bench_table_player.py --seeds 1-500 --samples 20 --jobs 2 \\
        --out benchmarks/results/table-player.jsonl --resume
    python benchmarks/bench_table_player.py --summary benchmarks/results/table-player.jsonl

The greedy player is the rating's baseline (``solver.rating.greedy_move``): the
move that leaves the most health now; ties go to the move that keeps the
better weapon (higher value, then the higher last kill, fresh best); it avoids
a room (when allowed, never twice in a row) if the monsters of the room that
its weapon cannot take add up to at least its health.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import Rules, State, deal, solve  # noqa: E402
from scoundrel_solver.scoundrel.table import TablePosition, known_bottom_after  # noqa: E402
from scoundrel_solver.scoundrel.tablehint import table_hint  # noqa: E402
from scoundrel_solver.scoundrel.stats import read_records  # noqa: E402
from scoundrel_solver.intervals import wilson  # noqa: E402
from scoundrel_solver.scoundrel.rating import play_greedy  # noqa: E402


def fail(message: str) -> None:
    """Bad input: one line on stderr, exit status 2 (the bench scripts' one way to refuse)."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def parse_seeds(text):
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def play_table(state: State, samples: int, seed: int):
    known = 0
    moves, asked = [], 0
    while not state.finished:
        acts = state.legal_actions()
        if len(acts) == 1:
            action = acts[0]
        else:
            # the same orders for every decision of one room (nothing new is
            # seen until the next room is dealt), fresh ones for the next room
            # the clairvoyant ranking alone (no belief attempt: that one is
            # bounded by the clock, and this player is the published 69.2 %)
            hint = table_hint(TablePosition.from_state(state, known), samples=samples,
                              rng_seed=seed * 1000 + state.rooms_done, belief_seconds=0)
            action = hint.best
            asked += 1
        known = known_bottom_after(state, action, known)
        state = state.play(action)
        moves.append(action)
    return state, moves, asked


def run_one(job):
    seed, samples, rules_kw = job
    rules = Rules(**rules_kw)
    start = State.new(deal(seed, rules))
    t0 = time.perf_counter()
    exact = solve(state=start)
    t1 = time.perf_counter()
    end, moves, asked = play_table(start, samples, seed)
    t2 = time.perf_counter()
    gend = play_greedy(start)
    return {"seed": seed, "rules": rules.as_dict(), "samples": samples,
            "exact_score": exact.score, "exact_won": exact.won, "exact": exact.exact,
            "table_score": end.score, "table_won": end.won, "table_moves": len(moves), "table_hints": asked,
            "table_line": " ".join(map(str, moves)),
            "greedy_score": gend.score, "greedy_won": gend.won,
            "seconds_exact": round(t1 - t0, 4), "seconds_table": round(t2 - t1, 3)}


def summary(records):
    n = len(records)
    if not n:
        print("no records")
        return
    print(f"{n} solo deals ({records[0]['rules']}), real-table player with {records[0]['samples']} "
          f"sampled orders per hint:")
    for who in ("exact", "table", "greedy"):
        k = sum(1 for r in records if r[f"{who}_won"])
        lo, hi = wilson(k, n)
        mean = statistics.mean(r[f"{who}_score"] for r in records)
        name = {"exact": "exact (order known, optimal)", "table": "real-table hint player",
                "greedy": "greedy player"}[who]
        print(f"  {name:<30} wins {k:4d}/{n} = {100 * k / n:5.1f}%  (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
              f"  mean score {mean:7.1f}")
    winnable = [r for r in records if r["exact_won"]]
    if winnable:
        k = sum(1 for r in winnable if r["table_won"])
        print(f"  real-table player wins {k}/{len(winnable)} = {100 * k / len(winnable):.1f}% of the winnable deals")
    secs = [r["seconds_table"] for r in records]
    hints = [r["table_hints"] for r in records]
    print(f"  time per game (real-table player): median {statistics.median(secs):.1f} s, "
          f"max {max(secs):.1f} s; hints per game: mean {statistics.mean(hints):.1f}")


def load(path) -> dict:
    """Seed -> record of a results file (none if it does not exist; torn lines skipped)."""
    return {r["seed"]: r for r in read_records(path)[0]} if path.exists() else {}


def _init_worker():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_deals(run_one, jobs: list, out_path: Path, n_jobs: int, done: dict) -> None:
    """``run_one(job)`` for every job, on ``n_jobs`` processes: each record (a
    dict with ``seed``) appended to ``out_path`` as soon as it is made (this
    process is the file's one writer) and put in ``done``; Ctrl-C stops with
    what is written kept (rerun with ``--resume``).  Also bench_belief_player.py's."""
    out = open(out_path, "a")
    t0 = time.time()
    pool = mp.Pool(n_jobs, initializer=_init_worker) if n_jobs > 1 else None
    it = pool.imap_unordered(run_one, jobs) if pool else map(run_one, jobs)
    try:
        for i, rec in enumerate(it, 1):
            out.write(json.dumps(rec) + "\n")
            out.flush()
            done[rec["seed"]] = rec
            el = time.time() - t0
            print(f"\r{i}/{len(jobs)} deals, {el / i:.1f} s/deal, eta {el / i * (len(jobs) - i) / 60:.0f} min",
                  end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("\ninterrupted; rerun with --resume", file=sys.stderr)
        if pool:
            pool.terminate()
        sys.exit(130)
    finally:
        out.close()
    print(file=sys.stderr)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-500")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--flee", default="classic")
    ap.add_argument("--durability", default=None)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/table-player.jsonl")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--summary", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.summary:
        summary(sorted(load(args.summary).values(), key=lambda r: r["seed"]))
        return
    rules_kw = {"mode": "solo", "flee": args.flee, "durability": args.durability}
    done = load(args.out) if args.resume else {}
    if not args.resume and args.out.exists() and args.out.stat().st_size:
        fail(f"{args.out} exists; use --resume")
    seeds = [s for s in parse_seeds(args.seeds) if s not in done]
    run_deals(run_one, [(s, args.samples, rules_kw) for s in seeds], args.out, args.jobs, done)
    wanted = set(parse_seeds(args.seeds))
    summary(sorted((r for s, r in done.items() if s in wanted), key=lambda r: r["seed"]))


if __name__ == "__main__":
    main()
