"""solve(threads=2): the same score as one core, the same answer on every run,
honest limits, and no worker left behind (solver/parallel.py)."""
import os
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scoundrel_solver import Rules, solve
from scoundrel_solver import parallel
from scoundrel_solver.notation import replay

RULES = [Rules(mode=m, flee=f, durability=d) for m in ("solo", "coop") for f in ("classic",)
         for d in ("strict", "lenient")] + [Rules(flee="easy"), Rules(flee="hard")]


@pytest.fixture
def always_parallel(monkeypatch):
    """Every solve goes to the workers (no one-core first pass for small ones)."""
    monkeypatch.setattr(parallel, "SMALL_NODES", 0)


def _replays(r):
    end = replay(r.start, r.line)[-1]
    return end.finished and end.score == r.score


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, len(RULES) - 1), st.lists(st.integers(0, 10**6), min_size=6, max_size=14),
       st.booleans())
def test_small_dungeons_same_score_as_one_core(always_parallel, ri, picks, shortest):
    rules = RULES[ri]
    cards = rules.base_order()
    deck, seen = [], set()
    for p in picks:
        c = cards[p % len(cards)]
        if c not in seen:
            seen.add(c)
            deck.append(c)
    if len(deck) < 4:
        return
    one = solve(deck=deck, rules=rules, shortest=shortest)
    two = solve(deck=deck, rules=rules, shortest=shortest, threads=2)
    again = solve(deck=deck, rules=rules, shortest=shortest, threads=2)
    assert two.exact and two.score == one.score
    assert (two.score, two.line_text, two.nodes) == (again.score, again.line_text, again.nodes)
    if two.line:
        assert _replays(two)
    if shortest:
        assert len(two.line) == len(one.line)   # the fewest rooms, proven by both


@pytest.mark.parametrize("mode,seeds", [("solo", [1, 2, 3, 5, 8]), ("coop", [1, 7, 11, 21, 29])])
def test_numbered_deals_same_score_and_deterministic(always_parallel, mode, seeds):
    rules = Rules(mode=mode)
    for seed in seeds:
        one = solve(seed=seed, rules=rules, shortest=True)
        two = solve(seed=seed, rules=rules, shortest=True, threads=2)
        again = solve(seed=seed, rules=rules, shortest=True, threads=2)
        assert two.exact and two.score == one.score, seed
        assert (two.line_text, two.nodes) == (again.line_text, again.nodes), seed
        assert _replays(two)


def test_small_solves_are_the_one_core_solve():
    """Under SMALL_NODES nodes the solve is the one-core search, node for node."""
    one = solve(seed=3, shortest=True)
    two = solve(seed=3, shortest=True, threads=2)
    assert one.nodes < parallel.SMALL_NODES
    assert (two.score, two.line_text, two.nodes) == (one.score, one.line_text, one.nodes)


def test_node_limit_is_honest_and_deterministic():
    rules = Rules(mode="coop")
    a = solve(seed=4, rules=rules, threads=2, max_nodes=300_000)
    b = solve(seed=4, rules=rules, threads=2, max_nodes=300_000)
    assert not a.exact and a.limit == "nodes"
    assert a.nodes <= 300_001          # the total over the workers, as one core counts it
    assert (a.score, a.line_text, a.nodes) == (b.score, b.line_text, b.nodes)
    assert _replays(a)


def test_time_limit_is_honest():
    t0 = time.monotonic()
    r = solve(seed=20, rules=Rules(mode="coop"), threads=2, timeout=1.5)
    assert time.monotonic() - t0 < 10
    assert not r.exact and r.limit == "time"
    assert r.line and _replays(r)


def test_threads_must_be_a_whole_number():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            solve(seed=1, threads=bad)


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


def _start_long_solve(extra=()):
    cmd = [sys.executable, "-m", "scoundrel_solver",
           "solve", "--seed", "20", "--mode", "coop", "--threads", "2", *extra]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_workers(p, n=2, within=20):
    t0 = time.monotonic()
    while time.monotonic() - t0 < within:
        kids = _children(p.pid)
        if len(kids) >= n:
            return kids
        time.sleep(0.1)
    raise AssertionError(f"no workers started: {_children(p.pid)}")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_parent():
    p = _start_long_solve()
    kids = _wait_for_workers(p)
    p.send_signal(signal.SIGKILL)
    p.wait()
    t0 = time.monotonic()
    while any(_alive(k) for k in kids) and time.monotonic() - t0 < 10:
        time.sleep(0.1)
    assert not any(_alive(k) for k in kids)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_the_workers_as_one_core_stops():
    p = _start_long_solve()
    kids = _wait_for_workers(p)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode not in (0, None)
    assert err.strip().splitlines() == ["error: interrupted"], err    # as with one core
    assert not any(_alive(k) for k in kids)


def test_cli_threads_option():
    from click.testing import CliRunner
    from scoundrel_solver.cli.main import cli
    r = CliRunner().invoke(cli, ["solve", "--seed", "3", "--threads", "0"])
    assert r.exit_code == 2 and "--threads" in r.output
    one = CliRunner().invoke(cli, ["solve", "--seed", "3", "--threads", "1"])
    two = CliRunner().invoke(cli, ["solve", "--seed", "3", "--threads", "2"])
    strip = lambda text: [ln for ln in text.splitlines() if not ln.startswith("Search:")]
    assert one.exit_code == two.exit_code == 0
    assert strip(one.output) == strip(two.output)
