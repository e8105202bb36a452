#!/usr/bin/env python3
"""Are the belief player's depth-0 choices its rule or its leaf noise?

For the first N deals of a bench_belief_player.py results file where the belief
player's line leaves the clairvoyant player's at a depth-0 decision (8-30 unseen
cards), the depth-0 belief search is run again at that position with S leaf
orders (another seed) and the two actions compared by it: if it keeps the
belief player's action at least as good as the clairvoyant player's, the
divergence is the depth-0 rule's, not the noise of its 16 orders.

    nice -n 10 .venv/bin/python benchmarks/belief_player_divergences.py 128 14 \
        > benchmarks/results/belief-player-divergences.txt
"""
import sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_belief_player as b  # noqa: E402
from scoundrel_solver import Rules, State, deal
from scoundrel_solver.hints import TablePosition, known_bottom_after
from scoundrel_solver.notation import parse_action
from scoundrel_solver.beliefsearch import CoreBeliefSearch
S = int(sys.argv[1]); limit = int(sys.argv[2])
recs = b.load(Path(sys.argv[3]) if len(sys.argv) > 3 else Path(__file__).resolve().parent / 'results/belief-player-solo.jsonl')
agree = n = 0
for s, r in sorted(recs.items()):
    a, c = r['belief']['line'].split(), r['clairvoyant']['line'].split()
    i = next((i for i,(x,y) in enumerate(zip(a,c)) if x!=y), None)
    if i is None: continue
    rules = Rules(**r['rules']); st = State.new(deal(s, rules), rules); known = 0
    for t in a[:i]:
        act = parse_action(t); known = known_bottom_after(st, act, known); st = st.play(act)
    pos = TablePosition.from_state(st, known)
    if len(pos.unseen) > 30: continue
    t0 = time.perf_counter()
    vals = CoreBeliefSearch(rules, horizon=0, samples=S, enumerate_limit=S, rng_seed=s * 7919 + 1).action_values(pos)
    v = {str(x): (round(float(w), 3), round(float(m), 2)) for x, (w, m) in vals}
    ba, ca = a[i], c[i]
    # the recorded notation may omit nothing: both are str(action)
    better = v[ba] >= v[ca]
    agree += better; n += 1
    print(s, 'unseen', len(pos.unseen), 'belief', ba, v[ba], 'clair', ca, v[ca], 'belief>=clair' if better else 'CLAIR BETTER',
          f'{time.perf_counter()-t0:.1f}s', flush=True)
    if n >= limit: break
print(f'{agree}/{n} divergences where depth-0 with {S} leaf orders (other seed) keeps the belief choice at least as good')
