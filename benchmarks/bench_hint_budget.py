#!/usr/bin/env python3
"""Latency of the exact hint within its time budget (``hint --time``), and how much it proves.

Random mid-game positions (a fixed seed): a random numbered deal played by a
random player who never loses on the spot, stopped after a random number of
moves (0 .. the end of the game, so early rooms, the slow ones, are in); a deal
where that player is stuck before (every move ends the game) is drawn again,
since such a position asks nothing (before 2026-12-01 it was kept, and about a
third of the positions were such).  Each
hint runs cold, as a fresh ``scoundrel-solve hint`` call: the position cache,
the kept search tables and the worker pool are dropped first (the pool's
start is counted, the interpreter's is not).

Per mode: median, p95 and max wall time; the share of actions whose verdict
(does it keep the win?) and whose exact score were proven.  For the first
``--exact-subset`` positions the unbounded hint (``--time 0``) is run too,
side by side, and every figure the budgeted hint proved is checked against it.

Modes ``solo-early`` and ``coop-early`` draw the same kind of positions in rooms 1-3 only
(the first nine moves at most): the early co-op positions are the hardest for the budget
(issue 48 item 5: target at least 95 % of verdicts proven, p95 <= 2.5 s).

Modes ``solo-table`` and ``coop-table`` ask the real-table hint of the same kind
of positions (the order hidden, the avoided rooms known at the bottom) within
the same budget: wall time, how often the belief search gave an exact or an
upper-bound figure, and the share of the planned clairvoyant orders solved.
Each position is asked twice, cold each time, side by side: without the
achievable figure (``achievable_games=0``, the library's default) and with it
(``--samples`` games, as ``hint`` asks): how often the figure is present, its
games, its interval widths, the gap clairvoyant minus achievable of the
recommended action (mean score and win chance), and both wall times.

    python benchmarks/bench_hint_budget.py --positions 50 --exact-subset 5
    python benchmarks/bench_hint_budget.py --modes coop --positions 200 --time 2 --out results/budget-coop.jsonl
    python benchmarks/bench_hint_budget.py --modes solo-table,coop-table --positions 50
    python benchmarks/bench_hint_budget.py --modes coop-early,coop --positions 100 --exact-subset 0
    python benchmarks/bench_hint_budget.py --modes solo-table,coop-table --positions 30 --out results/achievable.jsonl
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import scoundrel_solver.pools as pools  # noqa: E402
import scoundrel_solver.scoundrel.budget as budget  # noqa: E402
from scoundrel_solver.scoundrel import exacthint, table, tablehint, valuer  # noqa: E402
from scoundrel_solver import Rules, State, deal, solve  # noqa: E402
from scoundrel_solver.batch import percentile  # noqa: E402


def random_position(rnd: random.Random, rules: Rules, with_bottom: bool = False, early: bool = False):
    """(seed, moves, state) with the game not over (and, ``with_bottom``, the
    count of known cards at the bottom of its dungeon); ``early``: in rooms 1-3."""
    while True:
        seed = rnd.randrange(1, 2**32)
        start = state = State.new(deal(seed, rules), rules)
        stop = rnd.randrange(0, 9) if early else rnd.randrange(0, 3 * 18 if rules.coop else 3 * 15)
        played = []
        for _ in range(stop):
            alive = [a for a in state.legal_actions() if not state.play(a).finished]
            if not alive:
                break
            action = rnd.choice(alive)
            played.append(action)
            state = state.play(action)
        # a position where every move ends the game is no question (and a trivial
        # one): only a position reached after all ``stop`` moves counts
        if early and state.rooms_done > 2:
            continue
        if len(played) == stop and not state.finished:
            if with_bottom:
                return seed, stop, state, table.known_bottom_of_line(start, played)
            return seed, stop, state


def table_mode(args, mode: str, out) -> None:
    """The real-table hint within ``--time`` on random mid-game positions, without and
    with the achievable figure (solver/scoundrel/achievable.py), side by side."""
    rules = Rules(mode=mode.split("-")[0])
    rnd = random.Random(f"{args.rng_seed}-{mode}")
    walls, walls0, kinds, kinds0, solved, planned = [], [], {}, {}, 0, 0
    present, games, win_w, mean_w, gap_mean, gap_win, pair_gap, stopped = 0, [], [], [], [], [], [], 0
    for _ in range(args.positions):
        seed, moves, state, known = random_position(rnd, rules, with_bottom=True)
        position = table.TablePosition.from_state(state, known)
        cold()
        t0 = time.perf_counter()
        h0 = tablehint.table_hint(position, time_budget=args.time, samples=args.samples)
        wall0 = time.perf_counter() - t0
        cold()
        t0 = time.perf_counter()
        h = tablehint.table_hint(position, time_budget=args.time, samples=args.samples, achievable_games=args.samples)
        wall = time.perf_counter() - t0
        walls.append(wall)
        walls0.append(wall0)
        kinds[h.achievable] = kinds.get(h.achievable, 0) + 1
        kinds0[h0.achievable] = kinds0.get(h0.achievable, 0) + 1
        solved, planned = solved + h.orders, planned + h.orders_planned
        best = h.actions[0]
        g = best.achievable
        row = {"mode": mode, "seed": seed, "moves": moves, "room": state.rooms_done + 1,
               "unseen": len(position.unseen), "achievable": h.achievable, "clairvoyant": h.clairvoyant,
               "orders": h.orders, "orders_planned": h.orders_planned, "seconds": round(wall, 4),
               "achievable_without": h0.achievable, "seconds_without": round(wall0, 4),
               "best": str(best.action), "policy_figure": h.achievable_figure, "policy_reason": h.achievable_reason,
               "policy_games": g.games if g else 0, "policy_planned": h.achievable_planned,
               "policy_stopped": h.achievable_stopped}
        stopped += h.achievable_stopped
        if g is not None and g.games:
            present += 1
            games.append(g.games)
            wc, mc = g.win_ci, g.mean_ci
            win_w.append(wc[1] - wc[0])
            if mc is not None:
                mean_w.append(mc[1] - mc[0])
            gap_mean.append(best.clairvoyant_mean_score - g.mean_score)
            gap_win.append(best.clairvoyant_win_chance - g.win_chance)
            # pairwise: each game's order solved as if seen (after the timing; mostly from the
            # cache, the hint solved these orders first), never below the game's score
            seen = [solve(state=position.state(o).play(g.action)).score for o in g.orders]
            assert all(c >= p for c, p in zip(seen, g.scores)), (seed, moves)
            pair_gap.append((sum(seen) - sum(g.scores)) / len(seen))
            row.update(pairwise_clairvoyant_mean=round(sum(seen) / len(seen), 3))
            row.update(policy_win=g.win_chance, policy_win_ci=wc, policy_mean=round(g.mean_score, 3),
                       policy_mean_ci=mc, clairvoyant_win=best.clairvoyant_win_chance,
                       clairvoyant_mean=round(best.clairvoyant_mean_score, 3))
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
        print(json.dumps(row), file=sys.stderr)
    n = len(walls)
    shares = lambda k: ", ".join(f"{a} {100 * v / n:.0f} %" for a, v in sorted(k.items()))  # noqa: E731
    print(f"{mode}: {n} positions at --time {args.time:g}, --samples {args.samples}")
    print(f"  without the achievable figure: median {statistics.median(walls0):.2f} s, p95 {percentile(walls0, 95):.2f} s, "
          f"max {max(walls0):.2f} s; belief figure: {shares(kinds0)}")
    print(f"  with it: median {statistics.median(walls):.2f} s, p95 {percentile(walls, 95):.2f} s, max {max(walls):.2f} s; "
          f"belief figure: {shares(kinds)}; clairvoyant orders solved {100 * solved / planned:.1f} % of "
          f"{planned:,} planned")
    needed = n - kinds.get("exact", 0)
    print(f"  achievable figure present in {present} of {n} positions ({present} of the {needed} whose belief "
          f"figure is not exact); budget stopped the games in {stopped}")
    if games:
        print(f"  games: median {statistics.median(games):g}, min {min(games)}, max {max(games)}; "
              f"95% interval width: win median {100 * statistics.median(win_w):.0f} points, mean score median "
              f"{statistics.median(mean_w) if mean_w else float('nan'):.1f} ({len(mean_w)} with >= 2 games)")
        print(f"  clairvoyant minus achievable (recommended action): mean score {statistics.mean(gap_mean):+.1f} "
              f"(median {statistics.median(gap_mean):+.1f}), win chance {100 * statistics.mean(gap_win):+.1f} points; "
              f"pairwise over the games' own orders: mean score {statistics.mean(pair_gap):+.1f} "
              f"(min {min(pair_gap):+.1f}, never negative per game)")


def cold():
    valuer.CACHE.clear()
    valuer._SEARCHERS.clear()
    pools.close_pool()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--modes", default="solo,coop")
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--time", type=float, default=budget.DEFAULT_TIME)
    ap.add_argument("--workers", type=int, default=budget.DEFAULT_WORKERS)
    ap.add_argument("--exact-subset", type=int, default=5, help="positions also solved with --time 0")
    ap.add_argument("--samples", type=int, default=table.DEFAULT_SAMPLES,
                    help="table modes: orders of the clairvoyant figure and the policy's games")
    ap.add_argument("--rng-seed", type=int, default=2025)
    ap.add_argument("--out", type=Path, default=None, help="one JSON line per position")
    args = ap.parse_args(argv)
    out = args.out.open("w") if args.out else None
    for mode in args.modes.split(","):
        if mode.endswith("-table"):
            table_mode(args, mode, out)
            continue
        early = mode.endswith("-early")
        rules = Rules(mode=mode.removesuffix("-early"))
        rnd = random.Random(f"{args.rng_seed}-{mode}")
        walls, acts, verdicts, exacts, zero = [], 0, 0, 0, []
        for k in range(args.positions):
            seed, moves, state = random_position(rnd, rules, early=early)
            cold()
            t0 = time.perf_counter()
            h = exacthint.exact_hint(state, budget=args.time, workers=args.workers)
            wall = time.perf_counter() - t0
            walls.append(wall)
            n = len(h.actions)
            v = sum(a.won is not None for a in h.actions)
            e = sum(a.exact for a in h.actions)
            acts, verdicts, exacts = acts + n, verdicts + v, exacts + e
            row = {"mode": mode, "seed": seed, "moves": moves, "room": state.rooms_done + 1, "actions": n,
                   "verdicts": v, "exact": e, "seconds": round(wall, 4)}
            if k < args.exact_subset:
                cold()
                t1 = time.perf_counter()
                h0 = exacthint.exact_hint(state)
                row["seconds_time0"] = round(time.perf_counter() - t1, 4)
                truth = {str(a.action): a.score for a in h0.actions}
                for a in h.actions:
                    t = truth[str(a.action)]
                    assert a.lo <= t <= a.hi and (not a.exact or a.score == t), (seed, moves, str(a.action))
                    assert a.won is None or a.won == (t > 0)
                if h.exact:
                    assert [str(a.action) for a in h.actions] == [str(a.action) for a in h0.actions]
                zero.append((wall, row["seconds_time0"]))
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            print(json.dumps(row), file=sys.stderr)
        print(f"{mode}: {len(walls)} positions at --time {args.time:g} ({args.workers} workers): "
              f"median {statistics.median(walls):.2f} s, p95 {percentile(walls, 95):.2f} s, max {max(walls):.2f} s; "
              f"verdicts proven {100 * verdicts / acts:.1f} %, exact scores proven {100 * exacts / acts:.1f} % "
              f"of {acts} actions")
        if zero:
            print(f"  --time 0 on the first {len(zero)}: median {statistics.median(z for _, z in zero):.2f} s, "
                  f"max {max(z for _, z in zero):.2f} s (budgeted: median {statistics.median(w for w, _ in zero):.2f} s, "
                  f"max {max(w for w, _ in zero):.2f} s); every proven figure agrees")
    cold()


if __name__ == "__main__":
    main()
