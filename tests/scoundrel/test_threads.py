"""solve(threads=N): threads sharing one table (lazy SMP, _search.smp_test) give the
score of one thread and of the reference, the same line on every run, and honest limits.

Most tests set the core's ``smp_from`` to 0 (PERTURBATION), so that every test of the
proof runs on the threads, even on dungeons small enough for the reference."""
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from scoundrel_solver import Rules, solve
from scoundrel_solver.scoundrel.notation import replay
from scoundrel_solver.scoundrel.search import load_core, start_state

RULES = [Rules(mode="solo", flee=f, durability=d) for f in ("classic", "easy", "hard")
         for d in ("strict", "lenient")] + [Rules(mode="coop", durability=d) for d in ("strict", "lenient")]


@pytest.fixture
def always_threads(monkeypatch):
    """Every test of every proof runs on the threads (not only after 50,000 nodes)."""
    monkeypatch.setitem(load_core().PERTURBATION, "smp_from", 0)


def _replays(r):
    end = replay(r.start, r.line)[-1]
    return end.finished and end.score == r.score


def _deck(rules, picks):
    cards = rules.base_order()
    deck, seen = [], set()
    for p in picks:
        c = cards[p % len(cards)]
        if c not in seen:
            seen.add(c)
            deck.append(c)
    return deck


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, len(RULES) - 1), st.lists(st.integers(0, 10**6), min_size=6, max_size=13),
       st.booleans(), st.sampled_from([2, 3]))
def test_small_dungeons_same_score_as_one_thread_and_reference(always_threads, ri, picks, shortest, threads):
    rules = RULES[ri]
    deck = _deck(rules, picks)
    if len(deck) < 4:
        return
    ref = solve(deck=deck, rules=rules, engine="reference")
    one = solve(deck=deck, rules=rules, shortest=shortest)
    many = solve(deck=deck, rules=rules, shortest=shortest, threads=threads)
    again = solve(deck=deck, rules=rules, shortest=shortest, threads=threads)
    assert many.exact and many.score == one.score == ref.score
    assert many.line_text == again.line_text
    if many.line:
        assert _replays(many)
    if shortest:
        assert many.line_text == one.line_text      # the fewest rooms, walked by one fixed rule


@pytest.mark.parametrize("mode,seeds", [("solo", [1, 2, 3, 5, 8]), ("coop", [1, 2])])
def test_numbered_deals_same_score_and_line(always_threads, mode, seeds):
    rules = Rules(mode=mode)
    for seed in seeds:
        one = solve(seed=seed, rules=rules, shortest=True)
        two = solve(seed=seed, rules=rules, shortest=True, threads=2)
        again = solve(seed=seed, rules=rules, shortest=True, threads=2)
        assert two.exact and two.score == one.score, seed
        assert two.shortest and one.shortest, seed
        assert one.line_text == two.line_text == again.line_text, seed
        assert _replays(two)


@pytest.mark.parametrize("mode,seeds", [("solo", [1, 4, 9]), ("coop", [2])])
def test_proof_line_is_walked_by_a_fixed_rule(always_threads, mode, seeds):
    """Without the search for the fewest rooms the line printed is the canonical walk's,
    the same on every run (the proof's own line would depend on the timing)."""
    rules = Rules(mode=mode)
    core = load_core()
    for seed in seeds:
        state = start_state(rules=rules, seed=seed)
        outs = [core.search(state, threads=2) for _ in range(3)]
        assert {o["line_rule"] for o in outs} == {"canonical"}, seed
        assert len({str(o["line"]) for o in outs}) == 1, seed
        one = core.search(state)
        assert {o["score"] for o in outs} == {one["score"]}
        r = solve(seed=seed, rules=rules, threads=2)
        assert r.line_text == solve(seed=seed, rules=rules, threads=2).line_text and _replays(r)
        # nor does it depend on the proof's order or on what the table kept
        s = core.new_searcher(rules, 1, threads=3)
        s.order_salt, s.smp_from = 12345, 0
        other = core.search(state, searcher=s)
        assert other["line_rule"] == "canonical" and other["line"] == outs[0]["line"], seed


@pytest.mark.parametrize("mode,seeds", [("solo", [1, 4]), ("coop", [2])])
def test_fewest_rooms_search_after_threads_does_not_depend_on_the_proof(always_threads, mode, seeds):
    """After a proof on threads the search for the fewest rooms starts from an empty table
    of its own on one thread: its nodes, and so whether it ends within its cap, and the
    line printed, are the same whatever the proof's order and table left behind."""
    rules = Rules(mode=mode)
    core = load_core()
    for seed in seeds:
        state = start_state(rules=rules, seed=seed)
        base = core.search(state, threads=2, shortest=True, line_max_nodes=2_000_000)
        s = core.new_searcher(rules, 1, threads=3)
        s.order_salt, s.smp_from = 777, 0
        other = core.search(state, searcher=s, shortest=True, line_max_nodes=2_000_000)
        assert other["score"] == base["score"], seed
        assert other["line_nodes"] == base["line_nodes"], seed
        assert (other["shortest"], other["line_rule"], other["line"]) == \
            (base["shortest"], base["line_rule"], base["line"]), seed
        # a cap between nothing and what it needs: stopped, then the canonical walk, both times
        if base["shortest"] and base["line_nodes"] > 10:
            cap = base["line_nodes"] // 2
            a = core.search(state, threads=2, shortest=True, line_max_nodes=cap)
            b = core.search(state, searcher=core.new_searcher(rules, 1, threads=2), shortest=True,
                            line_max_nodes=cap)
            assert a["shortest"] is False and a["line_rule"] == b["line_rule"] == "canonical", seed
            assert a["line"] == b["line"], seed


def test_tiny_table_stress(always_threads):
    """A 1 MB table shared by 4 threads (more than the cores: the threads interleave at
    every point): entries are replaced all the time while others read them.  A torn
    entry (bounds read under another position's key) would show as a wrong score."""
    rules_list = [Rules(mode="coop", durability="lenient"), Rules(mode="coop"), Rules(flee="easy"),
                  Rules(durability="lenient")]
    import random
    rnd = random.Random(7)
    checked = 0
    for i in range(24):
        rules = rules_list[i % len(rules_list)]
        cards = list(rules.base_order())
        rnd.shuffle(cards)
        deck = cards[:rnd.randint(14, 20)]
        one = solve(deck=deck, rules=rules, tt_mb=1)
        for _ in range(3):
            many = solve(deck=deck, rules=rules, tt_mb=1, threads=4)
            assert many.exact and many.score == one.score, (i, deck)
            checked += 1
    assert checked == 72


@pytest.mark.slow
def test_tiny_table_stress_co_op_deals(always_threads, request):
    """Numbered co-op deals on a 1 MB table and 3 threads, each solved three times."""
    from test_core import require_slow
    require_slow(request)
    for seed in (1, 2, 7, 11):
        one = solve(seed=seed, rules=Rules(mode="coop"), tt_mb=1)
        for _ in range(3):
            many = solve(seed=seed, rules=Rules(mode="coop"), tt_mb=1, threads=3)
            assert many.exact and many.score == one.score, seed


def test_node_limit_is_honest():
    rules = Rules(mode="coop")
    a = solve(seed=4, rules=rules, threads=2, max_nodes=300_000)
    assert not a.exact and a.limit == "nodes"
    assert a.nodes <= 300_000 + 2 * 1024    # the total over the threads, checked every 1,024 nodes each
    assert a.line and _replays(a)
    full = solve(seed=4, rules=rules)
    assert a.score <= full.score


def test_time_limit_is_honest():
    t0 = time.monotonic()
    r = solve(seed=20, rules=Rules(mode="coop"), threads=2, timeout=1.5)
    assert time.monotonic() - t0 < 10
    assert not r.exact and r.limit == "time"
    assert r.line and _replays(r)


def test_threads_must_be_a_whole_number():
    for bad in (0, -1, 1.5, True, 9):
        with pytest.raises(ValueError):
            solve(seed=1, threads=bad)


def test_frozen_searches_stay_on_one_thread():
    core = load_core()
    assert core.new_searcher(Rules(mode="coop"), 1, frozen=True, threads=2).threads == 1
    assert core.new_searcher(Rules(mode="coop"), 1, threads=2).threads == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")
def test_ctrl_c_stops_a_threaded_solve_as_one_thread():
    cmd = [sys.executable, "-m", "scoundrel_solver", "solve", "--seed", "20", "--mode", "coop", "--threads", "2"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)            # past the first 50,000 nodes: the threads are running
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode not in (0, None)
    assert err.strip().splitlines() == ["error: interrupted"], err


def test_cli_threads_option():
    from click.testing import CliRunner
    from scoundrel_solver.cli.main import cli
    r = CliRunner().invoke(cli, ["solve", "--seed", "3", "--threads", "0"])
    assert r.exit_code == 2 and "--threads" in r.output
    one = CliRunner().invoke(cli, ["solve", "--seed", "3", "--threads", "1"])
    two = CliRunner().invoke(cli, ["solve", "--seed", "3", "--threads", "2"])
    # (the search's and the table's counters depend on the threads; the rest may not)
    strip = lambda text: [ln for ln in text.splitlines() if not ln.startswith(("Search:", "Table:"))]
    assert one.exit_code == two.exit_code == 0
    assert strip(one.output) == strip(two.output)


def test_cli_default_threads_are_the_cores():
    """solve, rate and hint search on every core this process may use, unless told."""
    import os
    from scoundrel_solver.cli.scoundrel.options import default_threads
    from scoundrel_solver.scoundrel.search import MAX_THREADS
    assert default_threads() == max(1, min(MAX_THREADS, len(os.sched_getaffinity(0))))


def test_cli_solve_runs_on_the_default_threads(always_threads, monkeypatch):
    """Without --threads, solve asks the search for default_threads() threads."""
    import json
    from click.testing import CliRunner
    from scoundrel_solver.cli import main
    from scoundrel_solver.scoundrel import answers      # where solve's answer takes its default (the CLI's and the service's)
    monkeypatch.setattr(answers, "default_threads", lambda: 3)
    r = CliRunner().invoke(main.cli, ["solve", "--seed", "4", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["threads"] == 3


@pytest.mark.parametrize("mode,seed", [("solo", 5), ("coop", 2)])
def test_cli_rate_same_rating_whatever_the_threads(always_threads, mode, seed):
    """rate --threads N: the solve on N threads, the same rating (label, features, canonical
    line, score); only the counters and the time may differ."""
    import json
    from click.testing import CliRunner
    from scoundrel_solver.cli.main import cli
    outs = []
    for threads in ("1", "2", "3"):
        r = CliRunner().invoke(cli, ["rate", "--seed", str(seed), "--mode", mode, "--json", "--threads", threads])
        assert r.exit_code == 0, r.output
        out = json.loads(r.output)
        for key in ("seconds", "nodes", "line"):
            out.pop(key)
        outs.append(out)
    assert outs[0] == outs[1] == outs[2]
    assert outs[0]["exact"] and outs[0]["canonical_line"]


def test_cli_hint_threads(always_threads):
    """hint --threads: within a budget the actions solved at once, with --time 0 each
    action's search on N threads; the same hint either way.  A real-table hint refuses it."""
    import json
    from click.testing import CliRunner
    from scoundrel_solver.cli.main import cli
    from scoundrel_solver.scoundrel.valuer import CACHE
    base = ["hint", "--seed", "3", "--json"]
    answers = []
    for extra in (["--time", "0", "--threads", "1"], ["--time", "0", "--threads", "2"],
                  ["--time", "0"], ["--time", "30", "--threads", "1"], ["--time", "30", "--threads", "2"]):
        CACHE.clear()
        r = CliRunner().invoke(cli, base + extra)
        assert r.exit_code == 0, r.output
        out = json.loads(r.output)
        assert out["exact"], extra
        answers.append([(a["action"], a["score"]) for a in out["actions"]])
    assert all(a == answers[0] for a in answers)
    r = CliRunner().invoke(cli, ["hint", "--seed", "3", "--table", "--threads", "2"])
    assert r.exit_code == 2 and "--threads" in r.output


def test_cli_play_threads(always_threads):
    """play --threads N: its exact hints and the solve at the end on N threads, the same game."""
    import json
    from click.testing import CliRunner
    from scoundrel_solver.cli.main import cli
    from scoundrel_solver.scoundrel.valuer import CACHE
    line = json.loads(CliRunner().invoke(cli, ["--seed", "3", "--json"]).output)["line"]
    moves = "hint\n" + line.replace(" | ", "\nhint\n") + "\n"
    outs = []
    for threads in ("1", "2"):
        CACHE.clear()
        r = CliRunner().invoke(cli, ["play", "--seed", "3", "--time", "0", "--threads", threads], input=moves)
        assert r.exit_code == 0, r.output
        outs.append(r.output)
    assert outs[0] == outs[1] and "You played it perfectly" in outs[0]


@pytest.mark.parametrize("mode,seed", [("solo", 4), ("coop", 2)])
def test_canonical_walk_on_threads_is_the_walk_of_one_thread(always_threads, mode, seed):
    """The walk's tests run on the threads (each answer is exact, so the line cannot
    change): the line is the one a single thread walks, from its own table."""
    rules = Rules(mode=mode)
    core = load_core()
    state = start_state(rules=rules, seed=seed)
    position = core._position_of(state)
    score = core.search(state)["score"]
    lines = []
    for threads in (1, 2, 3):
        s = core.new_searcher(rules, 16, threads=threads)
        s.smp_from = 0
        core.search(state, searcher=s, want_line=False)
        before = s.smp_tests
        walked = s.canonical_line(*position, score, 0, 0.0)
        assert walked["steps"] is not None
        if threads > 1:
            assert s.smp_tests > before      # the walk's tests ran on the threads
        lines.append(walked["steps"])
    assert lines[0] == lines[1] == lines[2]


def test_every_thread_has_a_children_memo_of_the_main_threads_size(always_threads):
    """A helper sizes its memo of the children's rooms ahead like the main thread (by
    the table's budget): sized by the table of the moment it was 4,096 slots, and the
    helper recomputed the wear twice as often (co-op 52 deal 20: 20 % slower per node)."""
    rules = Rules(mode="coop")
    core = load_core()
    s = core.new_searcher(rules, 256, threads=2)
    core.search(start_state(rules=rules, seed=2), searcher=s, want_line=False)
    slots = s.child_memo_slots
    assert slots[0] > 4096 and slots == [slots[0]] * 2


@pytest.mark.parametrize("mode,seed", [("solo", 4), ("coop", 2)])
def test_canonical_asks_the_walk_on_one_thread_too(always_threads, mode, seed):
    """``canonical=True`` (what ``explain`` asks): one thread returns the canonical walk's
    line too, not the proof's own, so the line is the one of any number of threads."""
    rules = Rules(mode=mode)
    core = load_core()
    state = start_state(rules=rules, seed=seed)
    one = core.search(state, threads=1, canonical=True)
    two = core.search(state, threads=2)
    assert core.search(state, threads=1)["line_rule"] == "proof"
    assert one["line_rule"] == two["line_rule"] == "canonical"
    assert one["line"] == two["line"] and one["score"] == two["score"]
    r = solve(seed=seed, rules=rules, canonical=True)
    assert r.line == one["line"] and _replays(r)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["strict", "lenient"]), st.lists(st.integers(0, 10**6), min_size=5, max_size=14),
       st.lists(st.integers(0, 10**6), max_size=6), st.sampled_from([1, 2]))
def test_canonical_walk_of_a_lost_position_in_the_loss_phase(always_threads, durability, big, other, threads):
    """Below a proven value <= 0 the walk's tests search with the loss phase's bounds
    (``no_win``, as the proof does): the line still scores the proven value, replays to
    it, is the same on one thread and on two, and ``no_win`` is off again after it.
    The dungeons are mostly big monsters (8 to ace of clubs and spades), so that many
    are lost."""
    rules = Rules(mode="coop", durability=durability)
    heavy = [c for c in rules.base_order() if str(c)[1] in "CS" and str(c)[0] in "89TJQKA"]
    deck = list(dict.fromkeys([heavy[p % len(heavy)] for p in big] + _deck(rules, other)))
    if len(deck) < 4:
        return
    core = load_core()
    ref = solve(deck=deck, rules=rules)       # one thread (the core against the reference: above)
    r = solve(deck=deck, rules=rules, canonical=True, threads=threads)
    assert r.exact and r.score == ref.score and _replays(r)
    event("lost" if r.score <= 0 else "won")
    if r.score <= 0:
        state = r.start
        position = core._position_of(state)
        lines = []
        for knob in (7, 0):
            s = core.new_searcher(rules, 16, threads=threads)
            s.loss_all = knob
            walked = s.canonical_line(*position, r.score, 0, 0.0)
            assert walked["steps"] is not None and s.no_win is False
            lines.append(core._line_of(walked["steps"]))
        assert lines[0] == r.line
        for line in lines:
            end = replay(state, line)[-1]
            assert end.finished and end.score == r.score
