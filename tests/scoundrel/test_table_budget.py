"""A real-table hint within a time budget (``table_hint(time_budget=...)``, ``hint --table
--time``, the service's real-table hint): it answers in time, and what it could not solve
is left out and said so -- a sampled figure over fewer samples (the same samples, a prefix of
the seeded sequence), or a cut enumeration whose ranges are proven bounds over every order.
"""
import json
import time

import pytest

from scoundrel_solver import Rules, State, deal, solve
from scoundrel_solver.scoundrel.table import TablePosition
from scoundrel_solver.scoundrel.tablehint import score_range, table_hint
from scoundrel_solver.scoundrel.valuer import SolveCache

from clitools import invoke
from test_schema import check

SLACK = 1.5     # one search's check of the clock, and the start of the process pool-free path


def _clairvoyant(hint):
    return {str(a.action): (a.clairvoyant_win_chance, a.clairvoyant_mean_score) for a in hint.actions}


def test_sampled_hint_within_its_budget_is_the_hint_of_the_samples_it_solved():
    position = TablePosition.from_state(State.new(deal(5)))
    t0 = time.perf_counter()
    cut = table_hint(position, samples=2000, rng_seed=3, time_budget=1.0, cache=SolveCache(10))
    took = time.perf_counter() - t0
    assert took <= 1.0 + SLACK and cut.seconds <= 1.0 + SLACK
    assert cut.clairvoyant == "sampled" and cut.orders_planned == 2000 and 1 <= cut.orders < 2000
    check(cut.as_dict())
    d = cut.as_dict()
    assert d["budget"] == 1.0 and d["orders"] == cut.orders and d["orders_planned"] == 2000
    # the orders it solved are the first of the seeded sequence: the same figures as asking that many
    full = table_hint(position, samples=cut.orders, rng_seed=3, belief_seconds=0, cache=SolveCache(10))
    assert _clairvoyant(cut) == _clairvoyant(full)
    for a in cut.actions:
        assert a.clairvoyant_win_low <= a.clairvoyant_win_chance <= a.clairvoyant_win_high


def _late_position(unseen: int) -> TablePosition:
    """Deal 42 along its optimal line to the first room start with at most ``unseen`` cards face down."""
    rules = Rules()
    state = State.new(deal(42, rules), rules)
    for room in solve(state=state).line:
        if state.taken == 0 and len(state.dungeon) <= unseen:
            break
        for action in room:
            state = state.play(action)
    assert not state.finished
    return TablePosition.from_state(state)


def test_a_cut_enumeration_gives_proven_bounds_over_every_order():
    position = _late_position(6)
    full = table_hint(position, samples=10, belief_seconds=0, cache=SolveCache(10))
    assert full.clairvoyant == "enumerated" and full.orders > 20
    cut = table_hint(position, samples=10, belief_seconds=0, time_budget=1e-4, cache=SolveCache(10))
    assert cut.clairvoyant == "partial" and 1 <= cut.orders < cut.orders_planned == full.orders
    check(cut.as_dict())
    low, high = score_range(position.state(position.unseen))
    want = {str(a.action): a for a in full.actions}
    for a in cut.actions:
        w = want[str(a.action)]
        assert a.clairvoyant_win_low <= w.clairvoyant_win_chance <= a.clairvoyant_win_high
        assert a.clairvoyant_mean_low <= w.clairvoyant_mean_score <= a.clairvoyant_mean_high
        assert low <= a.clairvoyant_mean_low and a.clairvoyant_mean_high <= high


def test_score_range_holds_every_final_score():
    for seed in range(1, 30):
        for rules in (Rules(), Rules(mode="coop")):
            start = State.new(deal(seed, rules), rules)
            low, high = score_range(start)
            r = solve(state=start, max_nodes=200_000)
            if r.score is not None:
                assert low <= r.score <= high


def test_cli_table_hint_takes_time():
    t0 = time.perf_counter()
    out = invoke(["hint", "--seed", "5", "--table", "--samples", "2000", "--time", "1", "--json"])
    d = check(json.loads(out.stdout))
    assert d["kind"] == "belief" and d["budget"] == 1 and d["orders"] < d["orders_planned"] == 2000
    assert time.perf_counter() - t0 <= 1 + SLACK + 2
    text = invoke(["hint", "--seed", "5", "--table", "--samples", "2000", "--time", "1"]).stdout
    assert "The 1 s budget stopped the sampling." in text
    # an exact hint still refuses the belief search's budget
    bad = invoke(["hint", "--seed", "5", "--belief-seconds", "2"], code=2)
    assert "--belief-seconds is for a real-table hint" in bad.stderr


@pytest.mark.parametrize("seconds", [2])
def test_service_real_table_hint_answers_within_its_time(seconds):
    httpx = pytest.importorskip("httpx")
    from scoundrel_solver.web.local import LocalServer
    with LocalServer(["--workers", "1", "--max-budget", "20"]) as server:
        with httpx.Client(base_url=server.url, timeout=60) as c:
            t0 = time.perf_counter()
            r = c.get("/api/hint", params={"seed": 42, "table": "true", "time": str(seconds)})
            took = time.perf_counter() - t0
    assert r.status_code == 200, r.text
    d = check(r.json())
    assert d["kind"] == "belief" and d["budget"] == seconds
    assert took <= seconds + SLACK + 3      # the CLI process's start too


def test_a_coop_table_hint_at_the_start_keeps_its_budget():
    # every search of the first order shares the budget (9 co-op solves of seconds each otherwise)
    rules = Rules(mode="coop")
    position = TablePosition.from_state(State.new(deal(7, rules), rules))
    t0 = time.perf_counter()
    h = table_hint(position, time_budget=1.0, cache=SolveCache(10))
    assert time.perf_counter() - t0 <= 1.0 + SLACK
    assert h.orders == 1 and not h.clairvoyant_proven      # the first order, cut: said so
    check(h.as_dict())
