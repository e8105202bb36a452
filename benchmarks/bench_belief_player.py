#!/usr/bin/env python3
"""The belief-hint player against the clairvoyant-average player, paired, whole games.

Issue 25's measurement.  Each numbered deal of the set is played start to finish
by two players who see only what a player at the table sees (the room, the
heroes, the cards gone, the avoided rooms lying at the bottom), on the same deal:

* ``clairvoyant``: the real-table hint ranked by its clairvoyant figure alone
  (``table_hint(belief_seconds=0)``): each sampled order solved as if it were
  known, the action with the best average taken (perfect-information Monte
  Carlo, the player of ``bench_table_player.py``);
* ``belief``: the same hint with its belief search (``solver.hints.table_hint``):
  the action with the best *achievable* figure when the belief search gives one
  (exact, or the depth-0 upper bound), else the clairvoyant ranking.

Both players are deterministic: the belief search is bounded by a count of
beliefs (``--max-beliefs``), not by time, and the orders are drawn from a seed
per deal and room (the same orders for every decision of a room), so a record
never depends on the machine's speed.  Next to them the deal's exact optimum
with the order known.

For the belief player, at each decision where the belief search gave a figure,
the gap between the clairvoyant figure and the achievable one of the action it
took (how much clairvoyance the old figure assumed there) is recorded.

One JSON line per deal, appended as soon as the deal is done; ``--resume`` skips
deals already in the file (one writer per file), so an interrupted run loses nothing.

    python benchmarks/bench_belief_player.py --seeds 1-500 --jobs 2 \\
        --out benchmarks/results/belief-player-solo.jsonl --resume
    python benchmarks/bench_belief_player.py --mode coop --seeds 1-100 --jobs 2 \\
        --out benchmarks/results/belief-player-coop.jsonl --resume
    python benchmarks/bench_belief_player.py --summary benchmarks/results/belief-player-solo.jsonl
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from scoundrel_solver import Rules, State, deal, solve  # noqa: E402
from scoundrel_solver.hints import TablePosition, known_bottom_after, table_hint  # noqa: E402
from scoundrel_solver.intervals import wilson  # noqa: E402
from bench_table_player import load, parse_seeds, run_deals  # noqa: E402  (one runner for both)

PLAYERS = ("clairvoyant", "belief")


def play(state: State, player: str, samples: int, max_beliefs: int, seed: int):
    """One whole game by ``player``; returns the end, the moves and per-decision notes."""
    known = 0
    moves, decisions = [], []
    while not state.finished:
        acts = state.legal_actions()
        if len(acts) == 1:
            action = acts[0]
        else:
            pos = TablePosition.from_state(state, known)
            rng_seed = seed * 1000 + state.rooms_done
            if player == "clairvoyant":
                hint = table_hint(pos, samples=samples, rng_seed=rng_seed, belief_seconds=0)
            else:
                hint = table_hint(pos, samples=samples, rng_seed=rng_seed, belief_seconds=None,
                                  max_beliefs=max_beliefs)
            top = hint.actions[0]
            action = top.action
            note = {"unseen": hint.unseen, "achievable": hint.achievable}
            if top.win_chance is not None:
                note.update(win=float(top.win_chance), mean=float(top.mean_score),
                            cwin=top.clairvoyant_win_chance, cmean=top.clairvoyant_mean_score)
            decisions.append(note)
        known = known_bottom_after(state, action, known)
        state = state.play(action)
        moves.append(action)
    return state, moves, decisions


def run_one(job):
    seed, samples, max_beliefs, rules_kw = job
    rules = Rules(**rules_kw)
    start = State.new(deal(seed, rules), rules)
    exact = solve(state=start)
    rec = {"seed": seed, "rules": rules.as_dict(), "samples": samples, "max_beliefs": max_beliefs,
           "exact_score": exact.score, "exact_won": exact.won, "exact": exact.exact}
    for player in PLAYERS:
        t0 = time.perf_counter()
        end, moves, decisions = play(start, player, samples, max_beliefs, seed)
        rec[player] = {"score": end.score, "won": end.won, "moves": len(moves),
                       "hints": len(decisions), "line": " ".join(map(str, moves)),
                       "seconds": round(time.perf_counter() - t0, 3)}
        if player == "belief":
            rec[player]["decisions"] = decisions
    return rec


def paired(diffs):
    """Mean of paired differences and its 95 % normal interval."""
    n = len(diffs)
    m = statistics.mean(diffs)
    if n < 2:
        return m, (m, m)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n)
    return m, (m - half, m + half)


def summary(records):
    n = len(records)
    if not n:
        print("no records")
        return
    r0 = records[0]
    print(f"{n} deals ({r0['rules']}), {r0['samples']} sampled orders per hint, belief search up to "
          f"{r0['max_beliefs']:,} beliefs per attempt:")
    rows = [("exact optimum, order known", [r["exact_won"] for r in records], [r["exact_score"] for r in records])]
    for p in PLAYERS:
        rows.append((f"{p} player", [r[p]["won"] for r in records], [r[p]["score"] for r in records]))
    for name, won, scores in rows:
        k = sum(1 for w in won if w)
        lo, hi = wilson(k, n)
        print(f"  {name:<28} wins {k:4d}/{n} = {100 * k / n:5.1f}%  (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
              f"  mean score {statistics.mean(scores):7.1f}")
    dw = [int(bool(r["belief"]["won"])) - int(bool(r["clairvoyant"]["won"])) for r in records]
    ds = [r["belief"]["score"] - r["clairvoyant"]["score"] for r in records]
    m, (lo, hi) = paired(dw)
    print(f"  paired difference, belief - clairvoyant: wins {100 * m:+.1f} points (95% CI {100 * lo:+.1f} to "
          f"{100 * hi:+.1f}); ", end="")
    m, (lo, hi) = paired(ds)
    print(f"mean score {m:+.2f} ({lo:+.2f} to {hi:+.2f})")
    print(f"  deals won by one player only: belief {sum(1 for d in dw if d > 0)}, "
          f"clairvoyant {sum(1 for d in dw if d < 0)}")
    notes = [d for r in records for d in r["belief"]["decisions"]]
    kinds = {k: sum(1 for d in notes if d["achievable"] == k) for k in ("exact", "upper_bound", "none")}
    print(f"  belief player's {len(notes):,} decisions: belief figure exact {kinds['exact']:,}, "
          f"depth-0 upper bound {kinds['upper_bound']:,}, none (clairvoyant ranking) {kinds['none']:,}")
    for k in ("exact", "upper_bound"):
        sel = [d for d in notes if d["achievable"] == k]
        if sel:
            gw = statistics.mean(d["cwin"] - d["win"] for d in sel)
            gm = statistics.mean(d["cmean"] - d["mean"] for d in sel)
            print(f"    where {k}: clairvoyant minus achievable figure of the action taken: "
                  f"win chance {100 * gw:+.2f} points, mean score {gm:+.2f} (mean over {len(sel):,})")
    for p in PLAYERS:
        secs = [r[p]["seconds"] for r in records]
        print(f"  time per game, {p}: median {statistics.median(secs):.1f} s, max {max(secs):.1f} s")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-500")
    ap.add_argument("--mode", choices=("solo", "coop"), default="solo")
    ap.add_argument("--flee", default=None)
    ap.add_argument("--deck-size", type=int, default=None)
    ap.add_argument("--durability", default=None)
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--max-beliefs", type=int, default=20_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--summary", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.summary:
        summary(sorted(load(args.summary).values(), key=lambda r: r["seed"]))
        return
    if args.out is None:
        ap.error("--out is required (or --summary)")
    rules_kw = {"mode": args.mode}
    for k in ("flee", "deck_size", "durability"):
        if getattr(args, k) is not None:
            rules_kw[k] = getattr(args, k)
    Rules(**rules_kw)       # bad options fail here, before any work
    done = load(args.out) if args.resume else {}
    if not args.resume and args.out.exists() and args.out.stat().st_size:
        sys.exit(f"error: {args.out} exists; use --resume")
    seeds = [s for s in parse_seeds(args.seeds) if s not in done]
    run_deals(run_one, [(s, args.samples, args.max_beliefs, rules_kw) for s in seeds], args.out, args.jobs, done)
    wanted = set(parse_seeds(args.seeds))
    summary(sorted((r for s, r in done.items() if s in wanted), key=lambda r: r["seed"]))


if __name__ == "__main__":
    main()
