#!/usr/bin/env python3
"""Where a player at the table loses: upper bounds along the belief player's own games.

Issue 25 asks where the achievable optimum (the best a player who cannot see the
order can do) lies between what our real-table players achieve (about 71 %
of solo classic deals 1-500) and what a player who sees the order achieves
(99.4 %).  This script brackets it along the games of
``bench_belief_player.py``'s results file, without playing anything new:

``--profile FILE`` (nothing solved, a second): for each threshold U, every
game's **depth-0 bound** at the belief player's first decision with at most U
unseen cards, as recorded by the player (the value of the action it took,
which is the depth-0 search's best: the rest of the room decided without seeing
the order, every deal after it valued by ``leaf_samples`` orders solved as if
known: an estimated *upper bound* on what any player at the table achieves from
that position).  ``B(U)`` is its mean over all the file's games, a game with no
such decision counting its exact belief value (its first exact decision) or its
result: an upper bound on the wins of a player who plays as the belief player
until U cards are unseen and as well as a player at the table can from there.
Next to it, what the belief player achieved: its expected wins from its first
exact decision on (its recorded ``first_exact``, else its result), the same for
every U.  So ``B(U)`` minus that is at most what perfect table play from U on
could add to this player's game; where it is small, the player already plays
the rest of the game about as well as anyone who cannot see the order.

``--depth1 FILE --unseen U`` (solves): at each game's first decision with at
most U unseen cards, the depth-0 bound and the **depth-1 bound** (exact over the
next room's deal and every decision in that room too, leaves below valued as
above) with the same leaf orders (``--leaf-samples``).  Depth 1 sees the order
one room later, so it is the tighter (estimated) bound; how far it falls below
depth 0 says how loose the depth-0 bounds of the profile are.  One JSON line per
deal, appended as it is done; ``--resume`` skips deals already in the file.

    python benchmarks/belief_bounds.py --profile benchmarks/results/belief-player-solo.jsonl
    nice -n 5 python benchmarks/belief_bounds.py --depth1 benchmarks/results/belief-player-solo.jsonl \\
        --unseen 12 --seeds 1-100 --leaf-samples 8 --timeout 900 \\
        --out benchmarks/results/belief-bounds-solo-u12.jsonl --resume
    python benchmarks/belief_bounds.py --summary benchmarks/results/belief-bounds-solo-u12.jsonl

The bounds are estimates (sampled leaves): the max over actions of sampled
means errs upward, which keeps them on the bound's side; their 95 % intervals
here are over games, not over the leaf samples.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from scoundrel_solver import Rules  # noqa: E402
from scoundrel_solver.batch import percentile  # noqa: E402
from scoundrel_solver.scoundrel.beliefsearch import BudgetExceeded, CoreBeliefSearch  # noqa: E402
from scoundrel_solver.scoundrel.table import TablePosition  # noqa: E402
from scoundrel_solver.scoundrel.notation import parse_action  # noqa: E402
from bench_belief_player import expected_wins, paired, prefix_length, replay, start_position  # noqa: E402
from bench_table_player import fail, load, parse_seeds, run_deals  # noqa: E402

THRESHOLDS = (30, 26, 22, 18, 16, 14, 12, 10, 8)
MANY = 128      # leaf orders of the second depth-0 bound of --depth1


def first_depth0(rec: dict, unseen: int):
    """The belief player's first depth-0 decision note with at most ``unseen`` unseen cards, or None."""
    return next((d for d in rec["belief"]["decisions"] if d["unseen"] <= unseen and d.get("kind") == "depth0"),
                None)


def bound_at(rec: dict, unseen: int) -> float:
    """``B(U)``'s term for one game: the depth-0 bound at its first decision with at
    most ``unseen`` unseen cards; else its exact belief value (the first exact
    decision), else its result."""
    d = first_depth0(rec, unseen)
    return d["win"] if d is not None else realised(rec)


def realised(rec: dict) -> float:
    return expected_wins(rec["belief"], rec["belief"].get("first_exact"))


def profile(records: list, thresholds=THRESHOLDS) -> list:
    """One row per threshold: games with a depth-0 decision there, ``B(U)`` over all
    games, the realised wins, and their paired difference with its 95 % interval."""
    rows = []
    for u in thresholds:
        b = [bound_at(r, u) for r in records]
        got = [realised(r) for r in records]
        diff, (lo, hi) = paired([x - y for x, y in zip(b, got)])
        alive = [r for r in records if first_depth0(r, u) is not None]
        rows.append({"unseen": u, "games": len(records), "with_decision": len(alive),
                     "bound": statistics.mean(b), "realised": statistics.mean(got), "gap": diff, "gap_ci": (lo, hi),
                     "bound_alive": statistics.mean(first_depth0(r, u)["win"] for r in alive) if alive else None,
                     "realised_alive": statistics.mean(realised(r) for r in alive) if alive else None})
    return rows


def print_profile(records: list, path: Path) -> None:
    n = len(records)
    rec0 = records[0]
    print(f"{path.name}: {n} games ({rec0['rules']}), belief player's depth-0 bound with "
          f"{rec0['leaf_samples']} leaf orders at its first decision with <= U unseen cards")
    if rec0.get("start_unseen") is not None:
        print(f"  NOT WHOLE GAMES: the games start at <= {rec0['start_unseen']} unseen on the deal's optimal line "
              f"(a clairvoyant prefix)")
    print(f"  B(U): over all {n} games, the bound there (a game without such a decision: its exact belief value "
          f"or its result); realised: the belief player's expected wins from its first exact decision")
    print("     U  games there   B(U)   realised   B(U) - realised (95% CI)   | games there: bound  realised")
    for row in profile(records):
        lo, hi = row["gap_ci"]
        alive = (f"{100 * row['bound_alive']:6.1f}  {100 * row['realised_alive']:6.1f}"
                 if row["bound_alive"] is not None else "     -       -")
        print(f"  <={row['unseen']:2d}  {row['with_decision']:5d}       {100 * row['bound']:5.1f}%   "
              f"{100 * row['realised']:5.1f}%    {100 * row['gap']:+5.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"
              f"         | {alive}")


def position_of(rec: dict, unseen: int):
    """The belief player's position (state, known bottom, moves played) at its
    first decision with at most ``unseen`` unseen cards, or None."""
    tokens = rec["belief"]["line"].split()
    skip = prefix_length(rec)       # the common prefix is no player's decision
    state, known = replay(rec, tokens[:skip])
    at = start_position(state, [parse_action(t) for t in tokens[skip:]], unseen, known)
    return None if at is None else (at[0], at[1], skip + len(at[2]))


def run_depth1(job):
    rec, unseen, leaf_samples, timeout = job
    out = {"seed": rec["seed"], "rules": rec["rules"], "unseen_max": unseen, "leaf_samples": leaf_samples,
           "timeout": timeout, "realised": realised(rec), "won": rec["belief"]["won"]}
    at = position_of(rec, unseen)
    if at is None:
        out["position"] = None
        return out
    state, known, moves = at
    pos = TablePosition.from_state(state, known)
    out["position"] = {"room": state.rooms_done + 1, "unseen": len(pos.unseen), "known_bottom": known,
                       "moves": moves}
    d = first_depth0(rec, unseen)
    out["recorded_depth0"] = d["win"] if d is not None and d["unseen"] == len(pos.unseen) else None
    rules = Rules(**rec["rules"])
    # depth 0 and 1 with the same leaf orders; depth 0 again with many (cheap), to
    # tell the bound's looseness from the upward error of a max over few samples
    for name, h, k in (("depth0", 0, leaf_samples), ("depth1", 1, leaf_samples), ("depth0_many", 0, MANY)):
        engine = CoreBeliefSearch(rules, horizon=h, samples=k, rng_seed=rec["seed"],
                                  enumerate_limit=k, timeout=timeout)
        t0 = time.perf_counter()
        try:
            w, m = engine.value(pos)
        except BudgetExceeded as e:
            out[name] = {"stopped": str(e), "seconds": round(time.perf_counter() - t0, 2)}
        else:
            out[name] = {"win": float(w), "mean": float(m), "seconds": round(time.perf_counter() - t0, 2),
                                "leaves": engine.leaves, "beliefs": engine.beliefs}
    return out


def depth1_summary(records: list, path: Path) -> None:
    at = [r for r in records if r.get("position")]
    done = [r for r in at if "win" in r["depth0"] and "win" in r["depth1"]]
    stopped = [r for r in at if r not in done]
    print(f"{path.name}: {len(records)} games; {len(at)} reach a decision with <= {records[0]['unseen_max']} unseen "
          f"(unseen median {statistics.median(r['position']['unseen'] for r in at) if at else '-'}, "
          f"room median {statistics.median(r['position']['room'] for r in at) if at else '-'}); "
          f"{len(done)} with both bounds, {len(stopped)} stopped by --timeout {records[0]['timeout']} s")
    if not done:
        return
    b0 = [r["depth0"]["win"] for r in done]
    b1 = [r["depth1"]["win"] for r in done]
    got = [r["realised"] for r in done]
    d01, (lo01, hi01) = paired([x - y for x, y in zip(b0, b1)])
    d1r, (lo1r, hi1r) = paired([x - y for x, y in zip(b1, got)])
    print(f"  leaf orders {done[0]['leaf_samples']}; win chance, mean over these {len(done)} games:")
    print(f"    depth-0 bound  {100 * statistics.mean(b0):5.1f}%   mean score {statistics.mean(r['depth0']['mean'] for r in done):7.2f}")
    print(f"    depth-1 bound  {100 * statistics.mean(b1):5.1f}%   mean score {statistics.mean(r['depth1']['mean'] for r in done):7.2f}")
    both = [r for r in done if "win" in r.get("depth0_many", {})]
    if both:
        print(f"    depth-0 bound, {MANY} leaf orders ({len(both)} games): "
              f"{100 * statistics.mean(r['depth0_many']['win'] for r in both):5.1f}%")
        dm, (lom, him) = paired([r["depth0_many"]["win"] - r["depth1"]["win"] for r in both])
        print(f"    depth-0 ({MANY} leaf orders) - depth-1: {100 * dm:+.1f} points (95% CI {100 * lom:+.1f} to {100 * him:+.1f})")
    rec16 = [r["recorded_depth0"] for r in done if r.get("recorded_depth0") is not None]
    if rec16:
        print(f"    depth-0 bound as the player recorded it ({len(rec16)} games, its own leaf orders): "
              f"{100 * statistics.mean(rec16):5.1f}%")
    print(f"    realised       {100 * statistics.mean(got):5.1f}%   (the belief player's expected wins from its first exact decision)")
    print(f"    depth-0 - depth-1: {100 * d01:+.1f} points (95% CI {100 * lo01:+.1f} to {100 * hi01:+.1f})")
    print(f"    depth-1 - realised: {100 * d1r:+.1f} points (95% CI {100 * lo1r:+.1f} to {100 * hi1r:+.1f})")
    for h in (0, 1):
        secs = sorted(r[f"depth{h}"]["seconds"] for r in done)
        print(f"    depth-{h} seconds: median {statistics.median(secs):.1f}, "
              f"p90 {percentile(secs, 90):.1f}, max {secs[-1]:.1f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", type=Path, help="a bench_belief_player.py results file")
    ap.add_argument("--depth1", type=Path, help="a bench_belief_player.py results file")
    ap.add_argument("--unseen", type=int, default=12)
    ap.add_argument("--seeds", default="1-500")
    ap.add_argument("--leaf-samples", type=int, default=8)
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per bound (then recorded as stopped)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--summary", type=Path)
    args = ap.parse_args(argv)
    for path, report in ((args.profile, print_profile), (args.summary, depth1_summary)):
        if path:
            records = sorted(load(path).values(), key=lambda r: r["seed"])
            if not records:
                fail(f"{path}: no records")
            report(records, path)
            return
    if not (args.depth1 and args.out):
        ap.error("give --profile FILE, --summary FILE, or --depth1 FILE --out OUT")
    if args.out.exists() and args.out.stat().st_size and not args.resume:
        fail(f"{args.out} exists; use --resume")
    done = load(args.out) if args.resume else {}
    source = load(args.depth1)
    wanted = [s for s in parse_seeds(args.seeds) if s in source and s not in done]
    run_deals(run_depth1, [(source[s], args.unseen, args.leaf_samples, args.timeout) for s in wanted],
              args.out, args.jobs, done)
    depth1_summary(sorted(done.values(), key=lambda r: r["seed"]), args.out)


if __name__ == "__main__":
    main()
