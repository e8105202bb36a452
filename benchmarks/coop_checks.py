"""Experiments on the win checks of a co-op rating (docs/solver.md, "The win checks of a
co-op rating").  None of these is used by the rating; they measured ideas that did not pay.

Each takes deals already analysed (their canonical line from a calibration file) and runs
the walk's win checks -- ``decide(child, 1)`` for every kind of move off the canonical line,
one searcher for the deal, as ``solver/scoundrel/rating.py`` does -- in a different way:

    python benchmarks/coop_checks.py order    --seeds 41,44,39,6,20
    python benchmarks/coop_checks.py shortcut --seeds 100-111
    python benchmarks/coop_checks.py follow   --seeds 41

``order``    the checks forward (as the rating) and in reverse (last step first).
``shortcut`` reverse order, and a check ends without search when one more move reaches a
             position known to win or one it dominates (more health, a fresher weapon).
``follow``   for each check that wins after 1,000 nodes or more: does following what is
             left of the canonical line (as far as the cards allow) win at once?

Every answer is compared with the forward checks' (they must agree where both decide).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import Rules, deal  # noqa: E402
from scoundrel_solver.batch import parse_seeds  # noqa: E402
from scoundrel_solver.scoundrel.notation import parse_action  # noqa: E402
from scoundrel_solver.scoundrel.rating import DECIDE_NODES_COOP, _move_kind, greedy_move, move_kinds  # noqa: E402
from scoundrel_solver.scoundrel.search import load_core  # noqa: E402
from scoundrel_solver.scoundrel.state import Avoid, State, Take  # noqa: E402

RULES = Rules(mode="coop")


def positions(seed, canonical):
    """(position, {kind: action}, chosen kind) at each step of the canonical line."""
    state = State.new(tuple(deal(seed, RULES)), RULES)
    out = []
    for act in canonical:
        kinds = move_kinds(state)
        act = state.resolve(act)
        out.append((state, kinds, _move_kind(state, act), act))
        state = state.play(act)
    if not state.won:
        raise SystemExit(f"deal {seed}: the canonical line does not win")
    return out


def check_jobs(pos):
    jobs = []
    for i, (state, kinds, chosen, _) in enumerate(pos):
        for kind, a in kinds.items():
            child = state.play(a)
            if kind != chosen and not child.finished:
                jobs.append((i, str(a), child))
    return jobs


def _key(s):
    """A position without its heroes' health and wear (last_card only matters when finished)."""
    return (s.dungeon, s.room, tuple(h.weapon for h in s.heroes), s.leader, s.taken, s.potion_used,
            s.help_used, s.avoided_last, s.dead, s.rooms_done)


def _at_least(a, b):
    """Hero ``a`` is at least as well off as ``b`` (same weapon): health, then wear."""
    if a.health < b.health:
        return False
    if b.last_kill is None:
        return a.last_kill is None
    return a.last_kill is None or a.last_kill >= b.last_kill


class KnownWins:
    """Positions known to win; ``s in known`` if one of them is dominated by ``s``."""

    def __init__(self):
        self.by_key = {}

    def add(self, s):
        self.by_key.setdefault(_key(s), []).append(s.heroes)

    def __contains__(self, s):
        return any(all(_at_least(a, b) for a, b in zip(s.heroes, hs)) for hs in self.by_key.get(_key(s), ()))


def run_checks(pos, reverse=False, shortcut=False):
    core = load_core()
    searcher = core.new_searcher(RULES, 256)
    jobs = check_jobs(pos)
    if reverse:
        jobs.reverse()
    known = KnownWins()
    for state, *_ in pos:
        known.add(state)
    t0, nodes, answers, cost, short = time.perf_counter(), 0, {}, {}, 0
    for i, kind, child in jobs:
        won, cost[(i, kind)] = None, 0
        if shortcut and (child in known or any(
                (g.won if g.finished else g in known) for g in (child.play(x) for x in child.legal_actions()))):
            won, short = True, short + 1
        if won is None:
            out = core.decide(child, 1, max_nodes=DECIDE_NODES_COOP, searcher=searcher)
            nodes, won, cost[(i, kind)] = nodes + out["nodes"], out["reached"], out["nodes"]
        answers[(i, kind)] = won
        if won:
            known.add(child)
    return {"seconds": time.perf_counter() - t0, "nodes": nodes, "answers": answers, "cost": cost, "short": short,
            "checks": len(jobs)}


def follow(state, rest):
    """Play from ``state`` the move whose card comes first in ``rest`` (same mode and receiver
    where legal; avoid when the line avoids next and it is allowed), greedy when none."""
    rest = list(rest)
    while not state.finished:
        acts = state.legal_actions()
        choice = None
        for j, x in enumerate(rest):
            if isinstance(x, Avoid):
                if acts and isinstance(acts[0], Avoid):
                    choice = acts[0]
                    del rest[j]
                    break
                continue
            if x.card in state.room:
                same = [a for a in acts if isinstance(a, Take) and a.card == x.card]
                choice = ([a for a in same if a.mode == x.mode and a.help == x.help]
                          or [a for a in same if a.help == x.help] or same)[0]
                del rest[j]
                break
        state = state.play(choice if choice is not None else greedy_move(state))
    return state


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("order", "shortcut", "follow"))
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--calibration", default=str(ROOT / "benchmarks" / "results" / "calibration-coop.jsonl"))
    args = ap.parse_args(argv)
    recs = {}
    with open(args.calibration) as f:
        for line in f:
            rec = json.loads(line)
            recs[rec["seed"]] = rec
    totals = [0.0, 0, 0.0, 0]
    for seed in parse_seeds(args.seeds):
        rec = recs.get(seed)
        if rec is None or not rec.get("won"):
            continue
        # stored records write the line flat, new ones with " | " between rooms: read both flat
        pos = positions(seed, [parse_action(t) for t in rec["canonical_line"].replace("|", " ").split()])
        base = run_checks(pos)
        if args.what == "follow":
            costly = [(i, c) for i, k, c in check_jobs(pos)
                      if base["answers"][(i, k)] and base["cost"][(i, k)] >= 1000]
            won = sum(follow(child, [p[3] for p in pos[i:]]).won for i, child in costly)
            totals[1] += len(costly)
            totals[3] += won
            print(f"deal {seed}: following the line wins {won} of the {len(costly)} winning checks "
                  "that take 1,000 nodes or more", flush=True)
            continue
        other = run_checks(pos, reverse=True, shortcut=args.what == "shortcut")
        differ = [k for k, v in other["answers"].items() if v is not None and base["answers"][k] is not None
                  and v != base["answers"][k]]
        if differ:
            raise SystemExit(f"deal {seed}: the answers differ at {differ}")
        totals[0] += base["seconds"]
        totals[1] += base["nodes"]
        totals[2] += other["seconds"]
        totals[3] += other["nodes"]
        print(f"deal {seed}: forward {base['seconds']:.1f} s {base['nodes']:,} nodes; reverse"
              + (" + shortcut" if args.what == "shortcut" else "")
              + f" {other['seconds']:.1f} s {other['nodes']:,} nodes"
              + (f" ({other['short']} of {other['checks']} checks without search)" if args.what == "shortcut" else ""),
              flush=True)
    if args.what == "follow":
        print(f"total: following the line wins {totals[3]} of {totals[1]} costly winning checks")
    else:
        print(f"total: forward {totals[0]:.1f} s {totals[1]:,} nodes; other {totals[2]:.1f} s {totals[3]:,} nodes")


if __name__ == "__main__":
    main()
