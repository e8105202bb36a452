"""Progress on long solves (issue 26 item 5): the core's callback and the line on stderr.

* The callback only reads: the same nodes, score, line and table counts with it
  as without it, on solo and co-op deals, however often it is called.
* What it is told is proven: ``lo <= value <= hi`` at every report, the bounds
  only narrow, the last report of a search is its value.
* An exception it raises stops the search as Ctrl-C does, is raised again as
  itself, and the searcher still works afterwards.
* The CLI shows it on stderr only at a terminal (or with ``--progress``), as
  lines that parse, erased at the end; stdout and ``--json`` are the same with
  and without it.
"""
from __future__ import annotations

import io
import json
import os
import pty
import re
import signal
import select
import subprocess
import sys
import time

import pytest

from scoundrel_solver import Rules, State, deal, solve
from scoundrel_solver.progress import ProgressLine
from scoundrel_solver.scoundrel.search import load_core

from clitools import invoke, at_a_terminal

# (rules, seed): solo wins and losses in several rule sets, co-op wins in each pack and durability
DEALS = [(Rules(), 1), (Rules(), 3), (Rules(), 14), (Rules(flee="hard"), 2), (Rules(flee="hard"), 6),
         (Rules(flee="easy", durability="lenient"), 10),
         (Rules(mode="coop"), 2), (Rules(mode="coop"), 11), (Rules(mode="coop", durability="strict"), 10),
         (Rules(mode="coop", deck_size=50), 2)]


class Recorder:
    """A progress callback that keeps every report; ``every`` seconds apart within a test."""

    def __init__(self, every=0.0):
        self.every = every
        self.seen = []

    def __call__(self, nodes, tests, lo, hi, incumbent):
        self.seen.append((nodes, tests, lo, hi, incumbent))


def _facts(r):
    return (r.score, r.exact, r.nodes, r.line_text, r.tt["tests"], r.tt["hits"], r.tt["stores"])


@pytest.mark.parametrize("rules,seed", DEALS, ids=[f"{r.describe()}-{s}" for r, s in DEALS])
def test_the_callback_does_not_change_the_search(rules, seed):
    plain = solve(seed=seed, rules=rules)
    told = Recorder(every=0.0)     # as often as the core can: after every test and every 1024 nodes
    watched = solve(seed=seed, rules=rules, progress=told)
    assert _facts(watched) == _facts(plain)
    assert plain.exact
    # every test is reported, and within long tests every 1024 nodes
    tests = plain.tt["tests"]
    assert len(told.seen) == tests + plain.nodes // 1024
    assert told.seen[-1][:4] == (plain.nodes, tests, plain.score, plain.score)
    last_lo, last_hi = None, None
    for nodes, t, lo, hi, inc in told.seen:
        assert nodes <= plain.nodes and t <= tests
        assert hi is not None and plain.score <= hi
        assert lo is None or lo <= plain.score
        assert inc is None or (lo is not None and inc <= lo)
        if last_hi is not None:
            assert hi <= last_hi and (last_lo is None or (lo is not None and lo >= last_lo))
        last_lo, last_hi = lo, hi


def test_the_search_for_the_fewest_rooms_reports_too():
    # with easy flee the proof takes 16 nodes and the fewest rooms some 900,000: a waiting
    # terminal must see them go by, after the proof's, with the proven score as its bounds
    rules = Rules(flee="easy")
    plain = solve(seed=1, rules=rules, shortest=True)
    told = Recorder(every=0.0)
    watched = solve(seed=1, rules=rules, shortest=True, progress=told)
    assert _facts(watched) == _facts(plain) and watched.line_nodes == plain.line_nodes > 100_000
    after = [seen for seen in told.seen if seen[0] > plain.nodes]
    assert len(after) >= plain.line_nodes // 1024 - 1
    assert all(lo == hi == plain.score and t == plain.tt["tests"] for _, t, lo, hi, _ in after)
    assert [n for n, *_ in after] == sorted(n for n, *_ in after)
    assert after[-1][0] <= plain.nodes + plain.line_nodes


def test_an_exception_in_the_callback_stops_the_fewest_rooms_search_as_itself():
    rules = Rules(flee="easy")
    proof = solve(seed=1, rules=rules).nodes

    def stop(nodes, *rest):
        if nodes > proof + 5000:
            raise KeyboardInterrupt
    stop.every = 0.0
    with pytest.raises(KeyboardInterrupt):
        solve(seed=1, rules=rules, shortest=True, progress=stop)


def test_reports_within_a_test_are_timed_not_counted():
    rules, seed = Rules(mode="coop"), 11
    rare = Recorder(every=3600.0)   # no report within a test: only after each one
    r = solve(seed=seed, rules=rules, progress=rare)
    assert [s[1] for s in rare.seen] == list(range(1, r.tt["tests"] + 1))
    often = Recorder(every=0.0)
    solve(seed=seed, rules=rules, progress=often)
    assert len(often.seen) > len(rare.seen) + r.nodes // 2048


def test_decide_reports_and_finds_the_same():
    core = load_core()
    state = State.new(deal(2, Rules(mode="coop")), Rules(mode="coop"))
    truth = solve(state=state).score
    for target in (truth, truth + 1, 1):
        plain = core.decide(state, target)
        told = Recorder()
        assert core.decide(state, target, progress=told) == plain
        assert told.seen and told.seen[-1][0] == plain["nodes"] and told.seen[-1][1] == 1
        lo, hi = told.seen[-1][2:4]
        assert (lo is None or lo <= truth) and truth <= hi


def test_a_reused_searcher_reports_the_tests_of_each_search():
    core = load_core()
    rules = Rules()
    s = core.new_searcher(rules, 16)
    for seed in (1, 3):
        told = Recorder()
        out = core.search(State.new(deal(seed, rules), rules), searcher=s, progress=told)
        assert told.seen[-1][0] == out["nodes"]
        assert told.seen[0][1] <= 1 and told.seen[-1][1] >= 1
    assert s.progress is None       # the searcher no longer reports once the search is over


@pytest.mark.parametrize("error", [KeyboardInterrupt, ValueError])
def test_an_exception_in_the_callback_stops_the_search_and_is_raised(error):
    rules, seed = Rules(mode="coop"), 11
    core = load_core()
    state = State.new(deal(seed, rules), rules)
    s = core.new_searcher(rules, 16)
    calls = []

    def stop(*report):
        calls.append(report)
        if len(calls) == 3:
            raise error("stop")
    stop.every = 0.0
    with pytest.raises(error):
        core.search(state, searcher=s, progress=stop)
    assert len(calls) == 3           # stopped at once: not called again while unwinding
    assert s.aborted == 7 and s.progress is None
    # the searcher (its table holds only proven bounds) still finds the value
    assert core.search(state, searcher=s, want_line=False)["score"] == solve(state=state).score


def test_the_callback_must_be_callable():
    s = load_core().new_searcher(Rules(), 1)
    with pytest.raises(TypeError):
        s.progress = 42
    with pytest.raises(ValueError):
        s.progress_every = -1.0


# ------------------------------------------------------------------ the line

LINE = re.compile(r"(?P<what>[^|/\\-][^:]*): score (?P<lo>\S+)\.\.(?P<hi>\S+), (?P<tests>\d+) tests? done, "
                  r"(?P<nodes>[\d,]+) nodes, [\d.]+ [kM]? ?nodes/s, (?P<s>[\d.]+) s$")


def _score(text):
    return None if text == "?" else int(text.replace("\u2212", "-"))


def progress_lines(err: str) -> list:
    """The progress reports written to a terminal: one per carriage return."""
    out = []
    for part in err.split("\r"):
        part = part.replace("\033[K", "").strip()
        if not part:
            continue
        m = LINE.fullmatch(part[2:])
        assert part[1] == " " and part[0] in "|/-\\" and m, part
        out.append({"what": m["what"], "lo": _score(m["lo"]), "hi": _score(m["hi"]), "tests": int(m["tests"]),
                    "nodes": int(m["nodes"].replace(",", "")), "seconds": float(m["s"])})
    return out


def test_the_line_tells_the_bounds_and_is_erased():
    out = io.StringIO()
    with ProgressLine(out, delay=0, every=0, enabled=True) as line:
        r = solve(seed=11, rules=Rules(mode="coop"), progress=line.search("solving"))
        shown = out.getvalue()
    assert out.getvalue().endswith("\r\033[K")
    reports = progress_lines(shown)
    assert len(reports) > 1 and reports[-1]["lo"] == reports[-1]["hi"] == r.score
    assert reports[-1]["nodes"] == r.nodes and all(rep["what"] == "solving" for rep in reports)
    assert all(rep["hi"] >= r.score and (rep["lo"] is None or rep["lo"] <= r.score) for rep in reports)


def test_the_line_adds_up_the_nodes_of_its_searches_and_waits_for_its_delay():
    out = io.StringIO()
    line = ProgressLine(out, delay=0, every=0, enabled=True)
    a = solve(seed=1, progress=line.search("first"))
    b = solve(seed=3, progress=line.search("second"))
    assert progress_lines(out.getvalue())[-1]["nodes"] == a.nodes + b.nodes
    for quiet in (ProgressLine(io.StringIO(), delay=0, every=0),          # not a terminal
                  ProgressLine(io.StringIO(), delay=0, every=0, enabled=False),
                  ProgressLine(io.StringIO(), delay=60, every=0, enabled=True)):   # a quick search
        solve(seed=1, progress=quiet.search())
        assert quiet.stream.getvalue() == ""
    rare = io.StringIO()
    line = ProgressLine(rare, delay=0, every=3600, enabled=True)     # at most one write an hour
    solve(seed=11, rules=Rules(mode="coop"), progress=line.search())
    assert len(progress_lines(rare.getvalue())) == 1


def test_a_closed_terminal_does_not_stop_the_search():
    class Closed(io.StringIO):
        def write(self, text):
            raise OSError(5, "Input/output error")
    line = ProgressLine(Closed(), delay=0, every=0, enabled=True)
    assert solve(seed=3, progress=line.search()).score == solve(seed=3).score
    assert not line.enabled


# ------------------------------------------------------------------ the CLI

QUICK = {"SCOUNDREL_PROGRESS_DELAY": "0", "SCOUNDREL_PROGRESS_EVERY": "0"}
COOP = ["--seed", "7", "--mode", "coop"]     # 0.5-1 s: long enough for several reports


def _timeless(text: str) -> str:
    """Solve output without the lines that tell the time taken and the counters (the CLI
    searches on the cores by default, whose node counts and table statistics vary from run
    to run; the verdict and the line do not)."""
    return "\n".join(t for t in text.splitlines() if not t.startswith(("Search:", "Table:")))


COUNTERS = ("seconds", "nodes_per_second", "nodes", "line_nodes", "tt")


def _at_a_terminal(args, env_extra=QUICK):
    """Run the CLI with stderr on a pseudo-terminal; stdout is a pipe."""
    code, out, err = at_a_terminal(args, env_extra)
    return code, out.decode(), err.decode()


def test_cli_solve_at_a_terminal_shows_progress_and_the_same_stdout():
    code, out, err = _at_a_terminal(COOP)
    assert code == 0
    reports = progress_lines(err)
    assert reports and err.endswith("\r\033[K")
    plain = invoke(COOP)
    assert plain.stderr == ""                          # not a terminal: nothing on stderr
    assert _timeless(out) == _timeless(plain.stdout)
    score = json.loads(invoke(COOP + ["--json"]).stdout)["score"]
    assert all(r["what"] == "solving" and r["hi"] >= score for r in reports)
    assert reports[-1]["lo"] == reports[-1]["hi"] == score
    code, out, err = _at_a_terminal(COOP + ["--no-progress"])
    assert code == 0 and err == "" and _timeless(out) == _timeless(plain.stdout)


def test_cli_progress_is_off_by_default_when_not_a_terminal_and_on_when_asked(monkeypatch):
    for name, value in QUICK.items():
        monkeypatch.setenv(name, value)
    plain = invoke(COOP + ["--json"])
    assert plain.stderr == ""
    asked = invoke(COOP + ["--json", "--progress"])
    assert progress_lines(asked.stderr)
    same = [{k: v for k, v in json.loads(r.stdout).items() if k not in COUNTERS} for r in (plain, asked)]
    assert same[0] == same[1]
    assert invoke(["solve"] + COOP + ["--no-progress"]).stderr == ""


def test_cli_rate_hint_daily_and_play_report_their_searches(monkeypatch):
    for name, value in QUICK.items():
        monkeypatch.setenv(name, value)
    rate = invoke(["rate", "--seed", "7", "--mode", "coop", "--progress", "--json"])
    told = rate.stderr.replace("\033[K", "")
    assert "rating: solving: score" in told and "rating: win checks along the optimal line, move" in told
    told_json, plain_json = (json.loads(r.stdout) for r in (rate, invoke(["rate", "--seed", "7", "--mode", "coop",
                                                                                "--json"])))
    assert {k: v for k, v in told_json.items() if k not in COUNTERS} == \
        {k: v for k, v in plain_json.items() if k not in COUNTERS}
    # (the hint's cache emptied first: an earlier test may have left these positions' values
    # in it, and a hint that finds them there searches nothing and reports nothing)
    from scoundrel_solver.scoundrel.valuer import CACHE
    CACHE.clear()
    hint = invoke(["hint", "--seed", "3", "--time", "0", "--progress"])
    assert "hint: scoring action 1 of" in hint.stderr and "hint: the plan after" in hint.stderr
    # --explain with --time 0: the hint's searches, then each line's
    CACHE.clear()
    why = invoke(["hint", "--seed", "42", "--moves", "3H 5D 5Cw", "--explain", "4H", "--time", "0", "--progress"])
    assert "hint: scoring action 1 of" in why.stderr and "explain: the line after 4H" in why.stderr
    assert "explain: the line after avoid" in why.stderr
    quiet_why = invoke(["hint", "--seed", "42", "--moves", "3H 5D 5Cw", "--explain", "4H", "--time", "0"])
    solved_in = re.compile(r"Solved in [0-9.]+ s \([0-9,]+ nodes\)")   # (a warm cache: fewer nodes)
    assert solved_in.sub("", why.stdout) == solved_in.sub("", quiet_why.stdout) and quiet_why.stderr == ""
    daily = invoke(["daily", "--date", "2026-01-01", "--progress"])
    assert "daily: candidate 1 (deal" in daily.stderr and "daily: candidate 1, rating: solving" in daily.stderr
    assert daily.stdout == invoke(["daily", "--date", "2026-01-01"]).stdout
    revealed = invoke(["daily", "--date", "2026-01-01", "--reveal", "--progress"])
    assert "daily: the solution of fewest rooms, 0 moves walked" in revealed.stderr
    assert revealed.stdout == invoke(["daily", "--date", "2026-01-01", "--reveal"]).stdout
    # play: the daily's candidates, and the solve of the deal once the game is over
    daily_play = invoke(["play", "--daily", "--date", "2026-01-01", "--progress"], input="quit\n")
    assert "daily: candidate 1 (deal" in daily_play.stderr
    line = json.loads(invoke(["--seed", "3", "--json"]).stdout)["line"]
    played = invoke(["play", "--seed", "3", "--progress"], input=line.replace(" | ", "\n") + "\n")
    assert "You played it perfectly" in played.stdout
    assert progress_lines(played.stderr)[-1]["what"] == "solving the deal"
    quiet = invoke(["play", "--seed", "3"], input=line.replace(" | ", "\n") + "\n")
    assert quiet.stderr == "" and quiet.stdout == played.stdout


def test_ctrl_c_at_a_terminal_erases_the_line_and_prints_one_error():
    env = dict(os.environ, **QUICK)
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", "from scoundrel_solver.cli.main import main; main()",
                             "--seed", "3", "--mode", "coop"],           # about 10 s: stopped after 2
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    err = b""
    deadline = time.monotonic() + 60
    sent = False
    while time.monotonic() < deadline:
        r, _, _ = select.select([master], [], [], 0.2)
        if not sent and b"nodes/s" in err and time.monotonic() > deadline - 58:
            proc.send_signal(signal.SIGINT)
            sent = True
        if not r:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    code = proc.wait(30)
    os.close(master)
    out = proc.stdout.read().decode()
    text = err.decode()
    assert sent and code == 130
    assert progress_lines(text.rsplit("\r\033[K", 1)[0])        # the line was shown ...
    assert text.endswith("\r\033[Kerror: interrupted\r\n")      # ... erased, then the one error line
    assert "WIN" not in out and "LOSS" not in out
