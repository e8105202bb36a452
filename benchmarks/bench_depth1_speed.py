"""The depth-1 search's cost, before and after its fast paths, side by side on the same decisions.

The decisions are the depth-1 decisions of a results file of ``bench_belief_player.py
--lookahead depth1`` (default: the pilot, ``results/belief-player-solo-depth1-pilot.jsonl``):
each game's belief line is replayed through the rules engine and every decision its player made
with the depth-1 search is asked again, of two searches with the record's counts and the deal's
seed, each new for the decision (so neither inherits a memo from the game):

* **plain**: ``Depth1Search(prune=False)``, every legal action valued in full
  (``action_values``) and the first best taken: the search as the pilot ran it;
* **fast**: ``Depth1Search()`` (``prune``: the depth-0 engine cuts a next room's candidates off by
  their bound) and ``choose`` (only the decision's global front of room ends, the tie rule, the
  win-chance cut).

Both must give the same action and the same figure, to the bit, and the figure the record holds
(a mismatch stops the run: exit 1).  The two run one after the other on each decision, so the
machine's load falls on both alike; the ratio is per decision, plain / fast.  Timings are wall
seconds and depend on the machine and its load (print ``uptime`` beside them); the answers do not.

    nice -n 5 python benchmarks/bench_depth1_speed.py --every 4 \\
        --out benchmarks/results/depth1-speed.jsonl --resume
    python benchmarks/bench_depth1_speed.py --summary benchmarks/results/depth1-speed.jsonl

``--every K`` takes every K-th decision (in file order), ``--limit N`` the first N of those;
``--out`` keeps one JSON line a decision (resumable with ``--resume``).

``--per-game``: as the player asks them instead, one search of each kind for a whole game (its
memo carried from decision to decision: the later decisions of a room find most of their room's
ends valued, or, for ``choose``, cut), every depth-1 decision of every K-th game in turn; one
line a game, the seconds summed over its decisions.

    nice -n 5 python benchmarks/bench_depth1_speed.py --per-game --every 2 \
        --out benchmarks/results/depth1-speed-games.jsonl --resume
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from scoundrel_solver.batch import percentile  # noqa: E402
from scoundrel_solver import Rules, State, deal  # noqa: E402
from scoundrel_solver.scoundrel.lookahead import Depth1Search  # noqa: E402
from scoundrel_solver.scoundrel.notation import parse_action  # noqa: E402
from scoundrel_solver.scoundrel.table import TablePosition, known_bottom_after  # noqa: E402
from bench_table_player import fail  # noqa: E402

PILOT = ROOT / "benchmarks" / "results" / "belief-player-solo-depth1-pilot.jsonl"


def decisions(path: Path) -> list:
    """``[(key, seed, rules, counts, position, note), ...]``: the depth-1 decisions of a results
    file, in file order (``key``: deal and move number)."""
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            belief = rec["belief"]
            counts = dict(deals=rec["depth1_deals"], orders=rec["depth1_orders"])
        except (ValueError, KeyError, TypeError):
            fail(f"{path}:{n}: not a bench_belief_player.py --lookahead depth1 record")
        rules = Rules(**rec["rules"])
        state, known = State.new(deal(rec["seed"], rules), rules), 0
        notes = iter(belief["decisions"])
        for i, token in enumerate(belief["line"].split()):
            action = parse_action(token)
            if len(state.legal_actions()) > 1:
                note = next(notes)
                if note["kind"] == "depth1":
                    out.append((f"{rec['seed']}:{i}", rec["seed"], rules, counts,
                                TablePosition.from_state(state, known), note))
            known = known_bottom_after(state, action, known)
            state = state.play(action)
    return out


def _first_best(values) -> tuple:
    top = max(v for _, v in values)
    return next(a for a, v in values if v == top), top


def measure(seed: int, rules: Rules, counts: dict, pos: TablePosition) -> dict:
    """Both searches on one decision: their answers, wall seconds and work."""
    plain = Depth1Search(rules, rng_seed=seed, prune=False, **counts)
    t = time.perf_counter()
    a0, v0 = _first_best(plain.action_values(pos))
    t0 = time.perf_counter() - t
    fast = Depth1Search(rules, rng_seed=seed, **counts)
    t = time.perf_counter()
    a1, v1 = fast.choose(pos)
    t1 = time.perf_counter() - t
    return {"unseen": len(pos.unseen), "same": (a0, v0) == (a1, v1), "action": str(a1), "win": v1[0], "mean": v1[1],
            "plain_s": round(t0, 3), "fast_s": round(t1, 3),
            "plain_next": plain.next_beliefs, "fast_next": fast.next_beliefs,
            "plain_leaves": plain.leaves, "fast_leaves": fast.leaves,
            "cuts": fast.inner.engine.cuts, "bound_errors": fast.inner.engine.bound_errors}


def measure_game(items: list) -> dict:
    """Both searches over one game's depth-1 decisions (``items``, in play order), one search
    of each kind for the game: the summed seconds and whether every answer agreed."""
    _, seed, rules, counts, _, _ = items[0]
    plain = Depth1Search(rules, rng_seed=seed, prune=False, **counts)
    fast = Depth1Search(rules, rng_seed=seed, **counts)
    t0 = t1 = 0.0
    same = recorded = True
    for _, _, _, _, pos, note in items:
        t = time.perf_counter()
        a0, v0 = _first_best(plain.action_values(pos))
        t0 += time.perf_counter() - t
        t = time.perf_counter()
        a1, v1 = fast.choose(pos)
        t1 += time.perf_counter() - t
        same = same and (a0, v0) == (a1, v1)
        recorded = recorded and (v1[0], v1[1]) == (note["win"], note["mean"])
    return {"unseen": max(len(i[4].unseen) for i in items), "decisions": len(items), "same": same,
            "as_recorded": recorded, "plain_s": round(t0, 3), "fast_s": round(t1, 3),
            "plain_next": plain.next_beliefs, "fast_next": fast.next_beliefs,
            "plain_leaves": plain.leaves, "fast_leaves": fast.leaves,
            "cuts": fast.inner.engine.cuts, "bound_errors": fast.inner.engine.bound_errors}


def summary(rows: list) -> None:
    if not rows:
        print("no decisions measured")
        return
    plain = [r["plain_s"] for r in rows]
    fast = [r["fast_s"] for r in rows]
    ratio = [r["plain_s"] / r["fast_s"] for r in rows if r["fast_s"] > 0]
    games = "decisions" in rows[0]
    if games:
        print(f"{len(rows)} games, {sum(r['decisions'] for r in rows)} depth-1 decisions, one search of each "
              f"kind a game; seconds summed over a game's decisions")
    print(f"{len(rows)} {'games' if games else 'depth-1 decisions'} "
          f"({min(r['unseen'] for r in rows)}-{max(r['unseen'] for r in rows)} unseen); "
          f"same action and figure: {sum(r['same'] for r in rows)}/{len(rows)}; "
          f"bound errors: {sum(r['bound_errors'] for r in rows)}")
    print(f"{'seconds a game' if games else 'seconds a decision':<22}{'median':>9}{'p90':>9}{'max':>9}{'total':>10}")
    for name, xs in (("plain (pilot's)", plain), ("fast (choose, prune)", fast)):
        print(f"{name:<22}{statistics.median(xs):>9.2f}{percentile(xs, 90):>9.2f}{max(xs):>9.2f}{sum(xs):>10.1f}")
    print(f"ratio plain/fast per {'game' if games else 'decision'}: median {statistics.median(ratio):.2f}, p10 {percentile(ratio, 10):.2f}, "
          f"p90 {percentile(ratio, 90):.2f}, min {min(ratio):.2f}, max {max(ratio):.2f}; "
          f"of the totals {sum(plain) / sum(fast):.2f}")
    print(f"next-room beliefs valued: plain {sum(r['plain_next'] for r in rows):,}, fast {sum(r['fast_next'] for r in rows):,}; "
          f"perfect-information leaves solved: plain {sum(r['plain_leaves'] for r in rows):,}, "
          f"fast {sum(r['fast_leaves'] for r in rows):,}; candidates cut off: {sum(r['cuts'] for r in rows):,}")
    if games:
        return
    by = {}
    for r in rows:
        by.setdefault(min(r["unseen"] // 8, 3), []).append(r)
    for b, rs in sorted(by.items()):
        lo, hi = b * 8, b * 8 + 7
        print(f"  {lo:>2}-{hi if b < 3 else 33:<2} unseen: {len(rs):>3} decisions, median plain "
              f"{statistics.median(r['plain_s'] for r in rs):.2f} s, fast {statistics.median(r['fast_s'] for r in rs):.2f} s, "
              f"ratio of totals {sum(r['plain_s'] for r in rs) / sum(r['fast_s'] for r in rs):.2f}")


def _rows(path: Path) -> list:
    """The rows of an ``--out`` file (bad lines refused in one line)."""
    try:
        rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        for r in rows:
            r["key"], r["plain_s"], r["fast_s"], r["unseen"]
    except (ValueError, KeyError, TypeError):
        fail(f"{path}: not a bench_depth1_speed.py --out file")
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from", dest="source", type=Path, default=PILOT,
                    help="a bench_belief_player.py --lookahead depth1 results file (default: the pilot's)")
    ap.add_argument("--every", type=int, default=1, help="every K-th depth-1 decision")
    ap.add_argument("--limit", type=int, default=None, help="at most N decisions")
    ap.add_argument("--out", type=Path, default=None, help="one JSON line a decision")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--summary", type=Path, default=None, help="print the summary of an --out file")
    ap.add_argument("--per-game", action="store_true",
                    help="one search of each kind a game, its decisions in turn (every K-th game)")
    args = ap.parse_args(argv)
    if args.every < 1 or (args.limit is not None and args.limit < 0):
        fail("--every must be at least 1 and --limit at least 0")
    if args.summary:
        if not args.summary.exists():
            fail(f"{args.summary}: no such file")
        summary(_rows(args.summary))
        return 0
    if not args.source.exists():
        fail(f"{args.source}: no such file")
    done = {}
    if args.out is not None and args.out.exists() and args.out.stat().st_size:
        if not args.resume:
            fail(f"{args.out} exists; use --resume")
        done = {r["key"]: r for r in _rows(args.out)}
    if args.per_game:
        games = {}
        for d in decisions(args.source):
            games.setdefault(d[1], []).append(d)
        todo = [(str(seed), items) for seed, items in games.items()][::args.every][:args.limit]
    else:
        todo = [(d[0], d) for d in decisions(args.source)[::args.every][:args.limit]]
    rows = []
    out = args.out.open("a") if args.out is not None else None
    for key, item in todo:
        if key in done:
            rows.append(done[key])
            continue
        if args.per_game:
            row = {"key": key, **measure_game(item)}
        else:
            _, seed, rules, counts, pos, note = item
            row = {"key": key, **measure(seed, rules, counts, pos)}
            row["as_recorded"] = (row["win"], row["mean"]) == (note["win"], note["mean"])
        rows.append(row)
        print(f"{key:>8} {row['unseen']:>2} unseen  plain {row['plain_s']:7.2f} s  fast {row['fast_s']:6.2f} s  "
              f"x{row['plain_s'] / max(row['fast_s'], 1e-9):5.2f}  {'same' if row['same'] else 'DIFFERENT'}"
              f"{'' if row['as_recorded'] else ' (not as recorded)'}", flush=True)
        if out is not None:
            out.write(json.dumps(row) + "\n")
            out.flush()
        if not (row["same"] and row["as_recorded"]) or row["bound_errors"]:
            print(f"error: decision {key}: the fast search differs from the plain one or the record", file=sys.stderr)
            return 1
    summary(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
