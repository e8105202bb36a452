"""``_core.decide``: "can the score reach t?" answered with one cut-short test.

Checked against the reference's exact scores on small random dungeons and
mid-game positions in every rule option, for targets around the optimum, and
with a searcher whose table is reused across questions (the table then holds
lower bounds from cut-short searches next to exact values).
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver import Rules, State
from scoundrel_solver.scoundrel.cards import JOKER, full_pack, is_solo_card
from scoundrel_solver.scoundrel.reference import solve_reference
from scoundrel_solver.scoundrel.search import load_core

SOLO = [c for c in full_pack() if is_solo_card(c)]
COOP = [c for c in full_pack() if c is not JOKER]
RULES = [Rules(mode="solo", flee=f, durability=d) for f in ("classic", "easy", "hard")
         for d in ("strict", "lenient")] + [Rules(mode="coop", durability=d) for d in ("strict", "lenient")]
MAX_CARDS = {"classic": 10, "easy": 8, "hard": 11}


@st.composite
def positions(draw):
    rules = draw(st.sampled_from(RULES))
    n = draw(st.integers(3, 7 if rules.coop else MAX_CARDS[rules.flee]))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    state = State.new(rnd.sample(COOP if rules.coop else SOLO, n), rules)
    for _ in range(rnd.randint(0, 4)):
        acts = state.legal_actions()
        nxt = state.play(rnd.choice(acts))
        if nxt.finished:
            break
        state = nxt
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.lists(st.integers(-6, 3), min_size=1, max_size=4))
def test_decide_agrees_with_the_reference(state, offsets):
    core = load_core()
    best = solve_reference(state)["score"]
    searcher = core.new_searcher(state.rules, 1)
    for off in offsets + [1 - best]:          # 1 - best: the target 1, "is it a win?"
        target = best + off
        for s in (None, searcher):
            got = core.decide(state, target, searcher=s)
            assert got["reached"] == (best >= target), (target, best, got)
            if got["reached"]:
                assert got["bound"] >= target
                assert got["score"] is None or got["score"] <= best
            else:
                assert best <= got["bound"] < target
    # the reused table still gives exact full solves
    assert core.search(state, searcher=searcher, want_line=False)["score"] == best
