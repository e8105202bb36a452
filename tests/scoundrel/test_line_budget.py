"""Issue 48: the main job's search for the fewest rooms costs what the proof lets it.

``solve(shortest=True, line_budget="proof")`` (the CLI's solve) gives that search a budget
tied to the proof's own nodes (``engine.line_budget``) and skips it in co-op; the result,
the JSON and the text say what was done; where the fewest rooms are not proven the line is
the fixed-rule walk's, so the line shown depends on the budget only where it says so.
"""
import json

import pytest

from scoundrel_solver import Rules, parse_cards, replay, solve
from scoundrel_solver.scoundrel import engine
from scoundrel_solver.scoundrel.engine import LINE_FLOOR, LINE_NODES, LINE_SHARE, line_budget, load_core
from scoundrel_solver.scoundrel.search import start_state

from clitools import invoke


def _replays(r):
    end = replay(r.start, r.line)[-1]
    return end.finished and end.score == r.score


def test_the_budget_rule():
    solo, coop = Rules(), Rules(mode="coop")
    assert line_budget(coop, 0) == line_budget(coop, 10**9) == 0          # co-op: skipped
    assert line_budget(solo, 0) == line_budget(solo, 16) == LINE_FLOOR     # a tiny proof: the floor
    big = int(2 * LINE_FLOOR / LINE_SHARE)
    assert line_budget(solo, big) == min(LINE_NODES, 2 * LINE_FLOOR)      # a share of a big proof
    assert line_budget(solo, 10**12) == LINE_NODES                          # never past the cap
    assert line_budget(Rules(flee="easy"), 5) == line_budget(Rules(flee="hard"), 5) == LINE_FLOOR


def test_a_bad_policy_is_refused():
    with pytest.raises(ValueError, match="line_budget"):
        solve(seed=1, shortest=True, line_budget="lots")


@pytest.mark.parametrize("seed", [1, 7])
def test_solo_classic_is_still_proven_and_the_same_line(seed):
    r = solve(seed=seed, shortest=True, line_budget="proof")
    capped = solve(seed=seed, shortest=True)
    assert r.shortest is True and r.line_search == "proven" and r.line_budget == LINE_FLOOR
    assert r.line_text == capped.line_text and _replays(r)
    assert capped.line_search == "proven" and capped.line_budget == LINE_NODES


@pytest.mark.parametrize("threads", [1, 2])
def test_coop_skips_it_and_shows_the_walked_line(threads):
    rules = Rules(mode="coop")
    r = solve(seed=2, rules=rules, shortest=True, line_budget="proof", threads=threads)
    assert r.exact and r.shortest is False and r.line_search == "skipped" and r.line_budget == 0
    assert _replays(r)
    # the line is the canonical walk's (the same on any threads), and nothing searched the rooms
    walked = load_core().search(start_state(rules=rules, seed=2), canonical=True)
    assert walked["line_rule"] == "canonical" and r.line == walked["line"]
    assert r.line_nodes < r.nodes
    d = r.as_dict()
    assert d["line_search"] == "skipped" and d["line_budget"] == 0 and d["shortest"] is False


def test_a_stopped_search_says_so_and_its_line_is_the_walk(monkeypatch):
    rules = Rules(flee="easy")       # deal 1: the fewest rooms need ~0.9 M nodes
    monkeypatch.setattr(engine, "LINE_FLOOR", 1000)
    one = solve(seed=1, rules=rules, shortest=True, line_budget="proof")
    two = solve(seed=1, rules=rules, shortest=True, line_budget="proof", threads=2)
    for r in (one, two):
        assert r.exact and r.shortest is False and r.line_search == "stopped" and r.line_budget == 1000
        assert _replays(r)
    walked = load_core().search(start_state(rules=rules, seed=1), canonical=True)
    assert one.line == two.line == walked["line"]
    monkeypatch.undo()
    full = solve(seed=1, rules=rules, shortest=True, line_budget="proof")
    assert full.shortest is True and full.line_search == "proven" and len(full.line) < len(one.line)


def test_the_limits_still_bound_it():
    r = solve(seed=1, rules=Rules(flee="easy"), shortest=True, line_budget="proof", max_nodes=5000)
    assert r.exact and r.line_search == "stopped" and r.line_budget < 5000


def test_the_reference_engine_follows_the_rule():
    rules = Rules(mode="coop")
    deck = parse_cards("5D 3S 4H 9C 2D 7S 8H")
    r = solve(deck=deck, rules=rules, engine="reference", shortest=True, line_budget="proof")
    assert r.exact and r.line_search == "skipped" and r.shortest is False and _replays(r)
    solo = solve(deck=deck, rules=Rules(), engine="reference", shortest=True, line_budget="proof")
    assert solo.line_search == "proven" and solo.shortest is True


def test_the_cli_says_what_was_done(monkeypatch):
    out = invoke(["--seed", "2", "--mode", "coop"]).stdout
    assert "not proven the fewest: not searched for in co-op" in out
    assert " for the line," in out and "for the fewest rooms" not in out
    d = json.loads(invoke(["--seed", "2", "--mode", "coop", "--json"]).stdout)
    assert d["line_search"] == "skipped" and d["line_budget"] == 0 and d["shortest"] is False
    d = json.loads(invoke(["--seed", "1", "--json"]).stdout)
    assert d["line_search"] == "proven" and d["line_budget"] == LINE_FLOOR and d["shortest"] is True
    monkeypatch.setattr(engine, "LINE_FLOOR", 1000)
    out = invoke(["--seed", "1", "--flee", "easy"]).stdout
    assert "not proven the fewest: the search for them stopped at its limit of 1,000 nodes" in out
    d = json.loads(invoke(["--seed", "1", "--flee", "easy", "--json"]).stdout)
    assert d["line_search"] == "stopped" and d["line_budget"] == 1000


# ------------------------------------------------------------- benchmarks/main_job.py
def _bench(*args):
    import subprocess
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "main_job.py"
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=300)


def test_main_job_bench_bad_input_exits_2_with_one_line(tmp_path):
    for args in (["--old", str(tmp_path / "nope")], ["--old", "/bin/true", "--coop", "3-1"],
                 ["--old", "/bin/true", "--coop", "x"], ["--old", "/bin/true", "--coop", "", "--solo", ""],
                 ["--old", "/bin/true", "--timeout", "0"], ["--bogus"]):
        proc = _bench(*args)
        assert proc.returncode == 2 and proc.stdout == "", (args, proc.stdout)
        assert len(proc.stderr.strip().splitlines()) == 1, (args, proc.stderr)


def test_main_job_bench_runs_both_builds_and_writes_lines(tmp_path):
    import sys
    from pathlib import Path
    exe = Path(sys.executable).parent / "scoundrel-solve"
    if not exe.exists():
        pytest.skip("no scoundrel-solve beside the interpreter")
    out = tmp_path / "run.jsonl"
    proc = _bench("--old", str(exe), "--new", str(exe), "--coop", "", "--solo", "1-2", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    deals = [r for r in rows if "seed" in r]
    assert [r["seed"] for r in deals] == [1, 2] and [r["first"] for r in deals] == ["old", "new"]
    assert all(r["old"]["score"] == r["new"]["score"] and r["new"]["line_search"] == "proven" for r in deals)
    assert rows[-1]["summary"]["deals"] == 2 and "new/old" in proc.stdout
