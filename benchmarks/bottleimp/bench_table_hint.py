"""The real-table hint's latency at its default budget, over random positions of each variant.

    python benchmarks/bottleimp/bench_table_hint.py run [--positions 200] [--seconds 2] [--workers 2]
    python benchmarks/bottleimp/bench_table_hint.py run --cpu --compare --tricks 1,2 --tag=-worlds
    python benchmarks/bottleimp/bench_table_hint.py ablate --variant lopaka --positions 6 --worlds 80
    python benchmarks/bottleimp/bench_table_hint.py summary

Position ``i`` of a variant: deal ``i`` (1, 2, ...), a random setup and random legal play
(``random.Random(i)``) up to a player's turn in trick ``1 + i % tricks`` (Lopaka 11 tricks,
Glitzerhaus 8) where they have more than one legal card; ``--positions N`` takes the first N
such positions (deals without one are passed over).  The hint is asked for that player from what they know
(``worlds.view_of``), with the default budget (2 s over two worker processes).  One JSON line
per position (its trick, worlds solved of all, seconds) under
``benchmarks/results/bottleimp/table-hint-<variant>.jsonl``, written as it goes; ``run``
again resumes.  ``summary``: median and p95 seconds, the share of positions with every world
solved, overall and from trick 3 on (issue 46's target: p95 <= 2.5 s with every world solved
after trick 2); and, in the last tricks, how often the hint gave the floor by what the player
knows (solver/bottleimp/guarantee.py) within the budget.

``--cpu``: the budget is CPU time in each worker (``table_hint(cpu=True)``: what a quiet machine
does in that time), for a busy machine; no floor then.  ``--compare``: each position is asked
twice, side by side, with the hint as it is and with the world loop's techniques listed in
``--base-techniques`` (default: none of ``tablehint.WORLD_TECHNIQUES``) and a table of
``--base-log2`` (default: the sizes before issue 63, Lopaka 2**17, Glitzerhaus 2**20); each ask
in fresh worker processes (no table carried from one to the next), in alternating order.  Issue
63's target: at trick 1 at least half of the worlds, from trick 2 on every world, in >= 95 % of
positions.  ``--tricks 1,2``: only the positions of those tricks (numbered as in a full run).

``ablate``: the first ``--positions`` positions of trick 1, each hinted over its first
``--worlds`` worlds (``max_worlds``: the same worlds whatever the settings, no time budget, one
process, fresh tables) with every technique of the world loop, each one off, none, and other table
sizes; the nodes (load-independent) and the CPU seconds of each, every answer checked equal.
"""
import argparse
import os
import json
import random
import statistics
import sys
from pathlib import Path

from scoundrel_solver import pools
from scoundrel_solver.batch import percentile
from scoundrel_solver.bottleimp import Play, Rules, deal
from scoundrel_solver.bottleimp.tablehint import WORLD_TECHNIQUES, table_hint
from scoundrel_solver.bottleimp.worlds import view_of

#: the hint's table before issue 63 (the base of ``--compare``)
BASE_LOG2 = {"lopaka": 17, "glitzerhaus": 20}

OUT = Path(__file__).resolve().parents[1] / "results" / "bottleimp"


def position(rules, i):
    rng = random.Random(i)
    start = deal(i, rules).start()
    state, actions = start, []
    trick = 1 + i % rules.tricks
    while True:
        if state.in_setup:
            action = state.joint_action({s: rng.choice(state.setup_options(s)) for s in range(len(state.seats))
                                         if state.setup_options(s)})
        else:
            if state.tricks_done + 1 >= trick and not state.lopaka_to_play and len(state.legal_cards()) > 1:
                return start, actions, state
            if state.finished:
                return None
            action = Play(rng.choice(state.legal_cards()))
        actions.append(action)
        state = state.apply(action)
        if state.finished:
            return None


def fresh_pool(workers):
    """New worker processes (no table learnt before), started before the clock."""
    pools.drop_pool()
    if workers > 1:
        list(pools.pool(workers).map(abs, range(workers)))


def ask(view, args, **config):
    if args.compare:
        fresh_pool(args.workers)
    hint = table_hint(view, seconds=args.seconds, workers=args.workers, cpu=args.cpu, **config)
    return {"solved": hint.worlds_solved, "seconds": round(hint.seconds, 4), "nodes": hint.nodes}, hint


def run(args):
    OUT.mkdir(parents=True, exist_ok=True)
    tricks = {int(t) for t in args.tricks.split(",")} if args.tricks else None
    base_techniques = tuple(t for t in args.base_techniques.split(",") if t)
    for variant in args.variant:
        rules = Rules(variant)
        path = OUT / f"table-hint-{variant}{args.tag}.jsonl"
        done = set()
        if path.exists():
            done = {json.loads(line)["position"] for line in path.read_text().splitlines() if line.strip()}
        found = len(done)
        with path.open("a") as out:
            i = 0
            while found < args.positions:
                i += 1
                if tricks is not None and 1 + i % rules.tricks not in tricks:
                    continue
                if i in done:
                    continue
                got = position(rules, i)
                if got is None:     # the round ended first, or the player has one legal card: no choice to hint
                    continue
                found += 1
                start, actions, state = got
                view = view_of(start, actions, state.turn)
                base = dict(techniques=base_techniques, log2_entries=args.base_log2 or BASE_LOG2[variant])
                if args.compare and i % 2:
                    off, _ = ask(view, args, **base)
                    now, hint = ask(view, args)
                elif args.compare:
                    now, hint = ask(view, args)
                    off, _ = ask(view, args, **base)
                else:
                    now, hint = ask(view, args)
                rec = {"position": i, "variant": variant, "trick": state.tricks_done + 1, "seat": hint.seat,
                       "legal": len(state.legal_cards()), "worlds": hint.worlds_total, **now,
                       "tricks_left": rules.tricks - state.tricks_done,
                       "floor": hint.guarantee is not None,
                       "floor_nodes": hint.guarantee.nodes if hint.guarantee else None,
                       "floor_best_is_recommended": hint.guarantee.best == hint.recommended if hint.guarantee else None,
                       "cpu": args.cpu, "load": round(os.getloadavg()[0], 2)}
                if args.compare:
                    rec["base"] = {**off, "techniques": list(base_techniques), "log2": base["log2_entries"]}
                out.write(json.dumps(rec) + "\n")
                out.flush()
                print(rec, file=sys.stderr)


ABLATIONS = [("all", {}), *((f"no-{t}", {"techniques": tuple(u for u in WORLD_TECHNIQUES if u != t)})
                             for t in WORLD_TECHNIQUES),
             ("none", {"techniques": ()}), ("all, 2^17", {"log2_entries": 17}), ("all, 2^22", {"log2_entries": 22}),
             ("none, 2^17", {"techniques": (), "log2_entries": 17})]


def ablate(args):
    import time
    from scoundrel_solver.bottleimp import tablehint
    OUT.mkdir(parents=True, exist_ok=True)
    for variant in args.variant:
        rules = Rules(variant)
        path = OUT / f"table-hint-ablate-{variant}{args.tag}.jsonl"
        with path.open("a") as out:
            i = found = 0
            while found < args.positions:
                i += 1
                if 1 + i % rules.tricks != args.trick:
                    continue
                got = position(rules, i)
                if got is None:
                    continue
                found += 1
                start, actions, state = got
                view = view_of(start, actions, state.turn)
                rec = {"position": i, "variant": variant, "trick": args.trick, "worlds": args.worlds, "configs": {}}
                want = None
                for name, config in ABLATIONS:
                    tablehint.use_engine(None)          # fresh tables
                    t = time.process_time()
                    hint = table_hint(view, seconds=0, workers=1, max_worlds=args.worlds, floors=False, **config)
                    rec["configs"][name] = {"nodes": hint.nodes, "cpu": round(time.process_time() - t, 3)}
                    got = (hint.per_world, [(f.card, f.mean) for f in hint.cards])
                    assert want is None or got == want, f"{name} changed the answer at position {i}"
                    want = got
                rec["load"] = round(os.getloadavg()[0], 2)
                out.write(json.dumps(rec) + "\n")
                out.flush()
                print(rec, file=sys.stderr)
        recs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        base = "none, 2^17" if variant == "lopaka" else "none"
        print(f"{variant}: {len(recs)} positions of trick {args.trick}, first {args.worlds} worlds each; "
              f"sums, and ratios to '{base}' (the hint before issue 63)")
        for name, _ in ABLATIONS:
            n = sum(r["configs"][name]["nodes"] for r in recs)
            c = sum(r["configs"][name]["cpu"] for r in recs)
            n0 = sum(r["configs"][base]["nodes"] for r in recs)
            c0 = sum(r["configs"][base]["cpu"] for r in recs)
            print(f"  {name:12} nodes {n / 1e6:8.1f} M ({n / n0:.2f})   CPU {c:7.1f} s ({c / c0:.2f})")


def target(part, solved=lambda r: r["solved"]):
    """Positions meeting issue 63's target: half the worlds at trick 1, every world from trick 2 on."""
    return sum(2 * solved(r) >= r["worlds"] if r["trick"] == 1 else solved(r) == r["worlds"] for r in part)


def summary(args):
    for path in sorted(p for p in OUT.glob("table-hint-*.jsonl") if "-ablate-" not in p.name):
        print(path.name)
        recs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        if not recs:
            continue
        for name, part in (("all", recs), ("trick 3 on", [r for r in recs if r["trick"] >= 3])):
            if not part:
                continue
            secs = [r["seconds"] for r in part]
            whole = sum(r["solved"] == r["worlds"] for r in part)
            print(f"{recs[0]['variant']:12} {name:10} {len(part):4} positions: median {statistics.median(secs):.2f} s, "
                  f"p90 {percentile(secs, 90):.2f} s, p95 {percentile(secs, 95):.2f} s, "
                  f"p99 {percentile(secs, 99):.2f} s, max {max(secs):.2f} s; every world solved in "
                  f"{whole}/{len(part)} ({100 * whole / len(part):.0f} %), worlds solved "
                  f"{sum(r['solved'] for r in part)}/{sum(r['worlds'] for r in part)}")
        by_trick = {}
        for r in recs:
            by_trick.setdefault(r["trick"], []).append(r["solved"] == r["worlds"])
        print(f"{'':12} every world solved, by trick: " + ", ".join(
            f"{t}: {sum(v)}/{len(v)}" for t, v in sorted(by_trick.items())))
        sides = [("", lambda r: r)] + ([("base ", lambda r: r["base"])] if all("base" in r for r in recs) else [])
        for name, side in sides:
            for t in sorted({r["trick"] for r in recs} & {1, 2}):
                part = [r for r in recs if r["trick"] == t]
                worlds = [side(r)["solved"] for r in part]
                secs = [side(r)["seconds"] for r in part]
                nodes = [side(r).get("nodes", 0) for r in part]
                met = target(part, lambda r: side(r)["solved"])
                print(f"{'':12} {name}trick {t}: target met in {met}/{len(part)} ({100 * met / len(part):.0f} %); "
                      f"worlds solved median {statistics.median(worlds)} of "
                      f"{statistics.median(r['worlds'] for r in part)}, min {min(worlds)}; seconds median "
                      f"{statistics.median(secs):.2f}, p95 {percentile(secs, 95):.2f}; "
                      f"nodes median {statistics.median(nodes) / 1e6:.1f} M")
        if sides[1:]:
            for t in sorted({r["trick"] for r in recs}):
                part = [r for r in recs if r["trick"] == t]
                now, base = sum(r["solved"] for r in part), sum(r["base"]["solved"] for r in part)
                per = sum(r["nodes"] for r in part) / max(1, now)
                per0 = sum(r["base"]["nodes"] for r in part) / max(1, base)
                print(f"{'':12} trick {t}: worlds solved {now} against {base} ({now / max(1, base):.2f}x), "
                      f"nodes a world {per / 1e3:.0f} k against {per0 / 1e3:.0f} k")
        if "floor" in recs[0]:
            for left in range(1, 6):
                part = [r for r in recs if r["tricks_left"] == left]
                if part:
                    got = [r for r in part if r["floor"]]
                    same = sum(r["floor_best_is_recommended"] for r in got)
                    print(f"{'':12} {left} trick(s) left: floor given in {len(got)}/{len(part)} positions; its best "
                          f"card is the recommended one in {same}/{len(got)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--variant", action="append", choices=["lopaka", "glitzerhaus"])
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--tag", default="", help="a suffix of the results files' names (a run of another build)")
    p.add_argument("--cpu", action="store_true", help="the budget in CPU seconds of each worker (a busy machine)")
    p.add_argument("--compare", action="store_true", help="each position also with the base settings, side by side")
    p.add_argument("--base-techniques", default="", help=f"of {','.join(WORLD_TECHNIQUES)} (default: none)")
    p.add_argument("--base-log2", type=int, default=0, help="the base's table size (default: before issue 63)")
    p.add_argument("--tricks", default="", help="only positions of these tricks, e.g. 1,2")
    a = sub.add_parser("ablate")
    a.add_argument("--variant", action="append", choices=["lopaka", "glitzerhaus"])
    a.add_argument("--positions", type=int, default=6)
    a.add_argument("--trick", type=int, default=1)
    a.add_argument("--worlds", type=int, default=80)
    a.add_argument("--tag", default="")
    sub.add_parser("summary")
    args = parser.parse_args()
    if args.command == "run":
        args.variant = args.variant or ["lopaka", "glitzerhaus"]
        run(args)
    elif args.command == "ablate":
        args.variant = args.variant or ["lopaka", "glitzerhaus"]
        ablate(args)
    else:
        summary(args)


if __name__ == "__main__":
    main()
