"""``scoundrel-solve stats`` and ``solver.batch``: seed ranges, the results file,
resuming after Ctrl-C, the summary, and the Dask and Ray backends.

Solving tests use the compiled core on solo classic deals (about 20 ms each).
"""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clitools import invoke, one_error_line
from scoundrel_solver import Rules
from scoundrel_solver.batch import BatchError, parse_seeds, seeds_text
from scoundrel_solver.intervals import wilson
from scoundrel_solver.scoundrel.stats import ResultsFile, Settings, read_records, solve_seed, summarise

ROOT = Path(__file__).resolve().parents[2]
SOLO = Rules().as_dict()
RECORD_KEYS = {"seed", "rules", "score", "won", "exact", "limit", "nodes", "seconds", "line"}


@pytest.fixture
def core(monkeypatch):
    pytest.importorskip("scoundrel_solver.scoundrel._core")
    monkeypatch.delenv("SCOUNDREL_PURE", raising=False)




def run(*args, code=0):
    return invoke(["stats", *args], code)


def summary(*args) -> dict:
    return json.loads(run(*args, "--json", "--quiet").stdout)


def deterministic(s: dict) -> dict:
    """The summary without its time figures (the part a resumed run must reproduce)."""
    return {k: v for k, v in s.items() if k != "time"}


def lines(path) -> list:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


# ------------------------------------------------------------------ seeds
@pytest.mark.parametrize("text, seeds", [
    ("7", (7,)),
    ("1-5", (1, 2, 3, 4, 5)),
    ("1-3,7, 2-4 ,", (1, 2, 3, 4, 7)),
    ("0-0", (0,)),
    ("18446744073709551615", (2 ** 64 - 1,)),
])
def test_parse_seeds(text, seeds):
    assert parse_seeds(text) == seeds
    assert parse_seeds(seeds_text(seeds)) == seeds


@pytest.mark.parametrize("text", ["", ",", "5-1", "x", "1-x", "-3", "1--2", "18446744073709551616", "0-99999999"])
def test_parse_seeds_rejects(text):
    with pytest.raises(BatchError):
        parse_seeds(text)


# ---------------------------------------------------------------- summary
def test_wilson_interval_known_values():
    assert wilson(99, 100) == (0.945514, 0.998233)
    assert wilson(0, 10) == (0.0, 0.277533)
    assert wilson(10, 10) == (0.722467, 1.0)
    assert wilson(5, 10) == (0.236593, 0.763407)  # symmetric around 1/2
    assert wilson(0, 0) is None


def _rec(seed, score, exact=True, **extra):
    return {"seed": seed, "rules": SOLO, "score": score, "won": None if score is None else score > 0,
            "exact": exact, "limit": None if exact else "nodes", "nodes": 10, "seconds": 0.01 * seed, **extra}


def test_summary_depends_only_on_the_requested_seeds_not_on_order_or_time():
    recs = [_rec(1, 30), _rec(2, -5), _rec(3, 12), _rec(4, 30), _rec(9, 1)]
    a = summarise(recs, Rules(), seeds=range(1, 5))
    shuffled = [dict(r, seconds=r["seconds"] * 7) for r in reversed(recs)]
    b = summarise(shuffled, Rules(), seeds=[4, 3, 2, 1])
    assert deterministic(a) == deterministic(b)
    assert a["time"] != b["time"]
    assert a["winnable"]["won"] == 3 and a["winnable"]["of"] == 4 and a["winnable"]["fraction"] == 0.75
    assert a["winnable"]["ci95"] == list(wilson(3, 4))
    assert a["score"]["histogram"] == {"-5": 1, "12": 1, "30": 2}
    assert (a["score"]["mean"], a["score"]["min"], a["score"]["max"]) == (16.75, -5, 30)
    assert a["seeds"] == {"requested": 4, "ranges": "1-4", "first": 1, "last": 4, "with_result": 4, "missing": 0}


def test_summary_never_counts_an_unproven_deal():
    recs = [_rec(1, 30), _rec(2, 25, exact=False), _rec(3, -40, exact=False),
            {"seed": 4, "rules": SOLO, "exact": False, "score": None, "won": None, "error": "MemoryError: "}]
    s = summarise(recs, Rules(), seeds=[1, 2, 3, 4, 5])
    assert s["exact"] == 1 and s["winnable"]["of"] == 1 and s["score"]["histogram"] == {"30": 1}
    assert [b["seed"] for b in s["not_exact"]] == [2, 3, 4]
    assert s["not_exact"][0] == {"seed": 2, "why": "nodes limit", "score_found": 25, "win_found": True}
    assert s["not_exact"][2]["why"] == "MemoryError: "
    # a winning line found proves a deal winnable; the others are undecided
    assert (s["winnable"]["at_least"], s["winnable"]["at_most"], s["winnable"]["deals"]) == (2, 4, 4)
    assert s["seeds"]["missing"] == 1


def test_the_last_record_of_a_seed_wins():
    s = summarise([_rec(1, -3, exact=False), _rec(1, 17)], Rules())
    assert s["exact"] == 1 and s["not_exact"] == [] and s["score"]["histogram"] == {"17": 1}


# ------------------------------------------------------------ results file
def test_results_file_refuses_to_mix_or_lose_results(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultsFile(path, Rules()) as f:
        f.append(_rec(1, 30))
    with pytest.raises(BatchError, match="--resume"):
        ResultsFile(path, Rules())
    with pytest.raises(BatchError, match="other rules"):
        ResultsFile(path, Rules(flee="easy"), resume=True)
    with ResultsFile(path, Rules(), resume=True) as f:
        assert f.done() == {1}
    with ResultsFile(path, Rules(flee="easy"), overwrite=True) as f:
        assert f.done() == set()
    assert path.read_text() == ""


def test_results_file_cuts_a_torn_last_line_and_retries_errors(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_rec(1, 30)) + "\n"
                    + json.dumps({"seed": 2, "rules": SOLO, "exact": False, "error": "boom"}) + "\n"
                    + '{"seed": 3, "rules": {"mo')
    with ResultsFile(path, Rules(), resume=True) as f:
        assert f.unreadable == [3]
        assert f.done() == {1}  # 2 had an error: solved again
        f.append(_rec(3, 20))
    records, bad = read_records(path)
    assert bad == [] and [r["seed"] for r in records] == [1, 2, 3]


def test_solve_seed_record(core):
    rec = solve_seed(42, Settings(Rules()))
    assert RECORD_KEYS <= set(rec)
    assert (rec["seed"], rec["rules"], rec["score"], rec["won"], rec["exact"], rec["limit"]) == (42, SOLO, 30, True,
                                                                                                   True, None)
    assert rec["line"].startswith("3H 5D 5Cw | avoid |")
    json.dumps(rec)
    limited = solve_seed(1, Settings(Rules(), max_nodes=1))
    assert limited["exact"] is False and limited["limit"] == "nodes"


# -------------------------------------------------------------------- CLI
def test_stats_run_writes_one_line_per_deal_and_resume_redoes_nothing(core, tmp_path):
    out = tmp_path / "solo.jsonl"
    first = summary("--seeds", "1-12", "--jobs", "2", "--out", out)
    recs = lines(out)
    assert sorted(r["seed"] for r in recs) == list(range(1, 13))
    assert all(RECORD_KEYS <= set(r) and r["rules"] == SOLO and r["exact"] for r in recs)
    assert first["exact"] == 12 and first["seeds"]["missing"] == 0
    assert first["winnable"]["of"] == 12 and first["time"]["deals"] == 12

    again = run("--seeds", "1-12", "--out", out, "--resume")
    assert "12 already in" in again.stderr and "0 to solve" in again.stderr
    assert len(lines(out)) == 12
    assert deterministic(summary("--seeds", "1-12", "--out", out, "--resume")) == deterministic(first)
    # the file summarised without solving gives the same figures
    assert summary("--summary", out) == first
    part = summary("--summary", out, "--seeds", "1-6")
    assert part["seeds"]["requested"] == 6 and part["winnable"]["of"] == 6

    text = run("--summary", out).stdout
    assert "Winnable   " in text and "(Wilson)" in text and "Not exact  none" in text


def test_stats_text_flags_unproven_deals(core):
    text = run("--seeds", "1-3", "--max-nodes", "1").stdout
    assert "Not exact  3 deals not proven" in text and "seed 1: nodes limit" in text
    assert "Winnable   no deal solved exactly" in text


def test_stats_without_out_file_and_other_rules(core):
    s = summary("--seeds", "1-5", "--flee", "easy")
    assert s["rules"] == Rules(flee="easy").as_dict() and s["exact"] == 5


@pytest.mark.parametrize("args, words", [
    (["--seeds", "9-1"], ["9-1"]),
    (["--seeds", "abc"], ["abc"]),
    (["--seeds", ""], ["no seeds"]),
    ([], ["--seeds"]),
    (["--seeds", "1-3", "--jobs", "0"], ["--jobs"]),
    (["--seeds", "1-3", "--backend", "spark"], ["spark"]),
    (["--seeds", "1-3", "--resume"], ["--out"]),
    (["--seeds", "1-3", "--address", "tcp://127.0.0.1:1"], ["--address"]),
    (["--summary", "nowhere.jsonl"], ["nowhere.jsonl"]),
    (["--summary", "x.jsonl", "--jobs", "2"], ["--jobs"]),
])
def test_bad_input_isone_error_line(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_error_line(run(*args, code=2), *words)


def test_existing_file_needs_resume_or_overwrite(core, tmp_path):
    out = tmp_path / "r.jsonl"
    run("--seeds", "1-2", "--out", out, "-q")
    one_error_line(run("--seeds", "1-2", "--out", out, code=2), "--resume", "--overwrite")
    one_error_line(run("--seeds", "1-2", "--out", out, "--resume", "--flee", "hard", code=2),
                    "other rules", "classic", "hard")
    one_error_line(run("--seeds", "1-2", "--out", out, "--resume", "--overwrite", code=2), "not both")
    assert len(lines(out)) == 2
    run("--seeds", "3", "--out", out, "--overwrite", "-q")
    assert [r["seed"] for r in lines(out)] == [3]


@pytest.mark.parametrize("backend", ["dask", "ray"])
def test_missing_extra_names_it(backend, monkeypatch):
    monkeypatch.setitem(sys.modules, backend, None)  # import fails as if not installed
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    one_error_line(run("--seeds", "1-3", "--backend", backend, code=2), f"scoundrel-solver[{backend}]")


# ------------------------------------------------------- Ctrl-C and resume
def test_interrupted_and_resumed_run_gives_the_same_summary(core, tmp_path):
    seeds = "1-150"
    out = tmp_path / "stopped.jsonl"
    rules = ["--flee", "hard"]  # the fastest deals (a few ms each)
    command = [sys.executable, "-m", "scoundrel_solver", "stats", "--seeds", seeds, *rules, "--jobs", "2", "--out", str(out)]
    # Its own process group, as a terminal's foreground job: Ctrl-C reaches the workers too.
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_text().count("\n") >= 10):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and stdout == ""
    done = len(lines(out))
    assert 10 <= done < 150
    assert f"interrupted: {done} of 150 deals done" in stderr and "--resume" in stderr

    # A write torn by a kill must not matter either.
    with out.open("a") as f:
        f.write('{"seed": 149, "rules": {"mode": "so')
    resumed = run("--seeds", seeds, *rules, "--jobs", "2", "--out", out, "--resume", "--json")
    assert f"{done} already in" in resumed.stderr
    assert sorted(r["seed"] for r in lines(out)) == list(range(1, 151))  # nothing lost, nothing twice

    whole = summary("--seeds", seeds, *rules, "--jobs", "2", "--out", tmp_path / "whole.jsonl")
    assert deterministic(json.loads(resumed.stdout)) == deterministic(whole)
    assert whole["exact"] == 150


@pytest.mark.parametrize("backend,module,start", [("local", None, 4.0), ("dask", "dask.distributed", 12.0),
                                                  ("ray", "ray", 12.0)])
def test_ctrl_c_stops_a_run_in_the_middle_of_a_long_deal(core, tmp_path, backend, module, start):
    """Ctrl-C while the only deal in hand takes long (co-op 50 strict seed 390: about 40 s)
    ends the run at once, not when that deal is solved (the parent's wait wakes in short
    steps, ``batch._first_done``, with every backend, so that Python raises it even
    if the kernel handed the signal to another thread of the parent).  ``start``: the
    seconds to let the backend start and the deal's search begin."""
    if module:
        pytest.importorskip(module)
    out = tmp_path / "long.jsonl"
    command = [sys.executable, "-m", "scoundrel_solver", "stats", "--seeds", "390-391", "--mode", "coop",
               "--deck-size", "50", "--durability", "strict", "--jobs", "1", "--out", str(out),
               "--backend", backend]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        time.sleep(start)                     # started, and in the deal's search by now
        assert proc.poll() is None, proc.communicate()
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert waited < 5, waited
    assert "interrupted: 0 of 2 deals done" in stderr and "--resume" in stderr
    assert "Traceback" not in stderr and stdout == ""


def test_ctrl_c_while_a_record_is_written_keeps_file_and_count_in_step(core, tmp_path):
    # Ctrl-C landing between the write of a line and its count made the run say
    # "10 of 150 deals done" with 11 in the file: a line on disk is counted, always.
    rules = Rules(flee="hard")
    record = solve_seed(1, Settings(rules))
    out = tmp_path / "r.jsonl"
    with ResultsFile(out, rules) as results:
        real = results._file

        class Interrupting:
            def write(self, text):
                return real.write(text)

            def flush(self):
                real.flush()
                os.kill(os.getpid(), signal.SIGINT)   # Ctrl-C right after the line is out

        results._file = Interrupting()
        with pytest.raises(KeyboardInterrupt):
            results.append(record)
        results._file = real
        assert results.done() == {1}
    assert [r["seed"] for r in lines(out)] == [1]


# ---------------------------------------------------- distributed engines
def _scores(path) -> dict:
    return {r["seed"]: (r["score"], r["won"], r["exact"], r["line"]) for r in lines(path)}


@pytest.mark.parametrize("backend,module", [("dask", "dask.distributed"), ("ray", "ray")])
def test_local_cluster_gives_the_local_results(core, tmp_path, backend, module):
    pytest.importorskip(module)
    local = summary("--seeds", "1-8", "--out", tmp_path / "local.jsonl")
    remote = summary("--seeds", "1-8", "--backend", backend, "--jobs", "1", "--out", tmp_path / f"{backend}.jsonl")
    assert _scores(tmp_path / f"{backend}.jsonl") == _scores(tmp_path / "local.jsonl")
    assert deterministic(remote) == deterministic(local)


def test_dask_given_cluster_in_process(core):
    distributed = pytest.importorskip("dask.distributed")
    from scoundrel_solver.batch import DaskBackend, LocalBackend, run as run_batch

    settings = Settings(Rules(), engine="core")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        via_dask = list(run_batch([3, 1, 2], settings, ResultsFile(None, Rules()), DaskBackend(cluster=cluster)))
    local = list(run_batch([1, 2, 3], settings, ResultsFile(None, Rules()), LocalBackend(1)))
    key = lambda r: (r["seed"], r["score"], r["line"])  # noqa: E731
    assert sorted(map(key, via_dask)) == sorted(map(key, local))


def test_win_only_decides_the_same_verdicts_without_scores(tmp_path, core):
    full, quick = tmp_path / "full.jsonl", tmp_path / "win.jsonl"
    run("--seeds", "1-40", "--flee", "hard", "--out", full, "--quiet")
    run("--seeds", "1-40", "--flee", "hard", "--out", quick, "--win-only", "--quiet")
    a = {r["seed"]: r for r in map(json.loads, full.read_text().splitlines())}
    b = {r["seed"]: r for r in map(json.loads, quick.read_text().splitlines())}
    assert set(a) == set(b) == set(range(1, 41))
    for seed in a:
        assert b[seed]["exact"] and b[seed]["won"] == a[seed]["won"] and b[seed]["score"] is None
    s_full = summary("--summary", full)
    s_quick = summary("--summary", quick)
    assert s_quick["winnable"] == s_full["winnable"]
    assert s_quick["score"]["deals"] == 0 and s_full["score"]["deals"] == 40
    assert "winnability only" in run("--summary", quick).stdout


def test_audit_script_finds_a_wrong_stored_score(tmp_path):
    """benchmarks/audit_stats.py re-solves stored deals: a right record passes, a
    tampered score or line is reported and the script exits 1."""
    from pathlib import Path
    from scoundrel_solver import Rules, solve
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "audit_stats.py"
    rules = {"mode": "solo", "durability": "strict", "flee": "classic"}
    res = solve(seed=7, rules=Rules(**rules))
    good = {"seed": 7, "rules": rules, "score": res.score, "exact": True, "line": res.line_text}
    ok = tmp_path / "ok.jsonl"
    ok.write_text(json.dumps(good) + "\n")
    run = subprocess.run([sys.executable, str(script), str(ok)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 deals re-solved" in run.stdout and "0 disagree" in run.stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(dict(good, score=res.score - 1)) + "\n")
    run = subprocess.run([sys.executable, str(script), str(bad)], capture_output=True, text=True)
    assert run.returncode == 1 and "1 disagree" in run.stdout, run.stdout
    short = tmp_path / "short.jsonl"
    rooms = res.line_text.split(" | ")
    short.write_text(json.dumps(dict(good, line=" | ".join(rooms[:-1]))) + "\n")
    run = subprocess.run([sys.executable, str(script), str(short)], capture_output=True, text=True)
    assert run.returncode == 1 and "replays" in run.stdout, run.stdout


def test_read_records_reads_a_gzipped_snapshot(tmp_path):
    """The repository keeps results as .jsonl.gz snapshots; a torn last line is skipped."""
    import gzip
    path = tmp_path / "run.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"seed": 1, "score": 30}) + "\n" + '{"seed": 2, "sc')
    records, bad = read_records(path)
    assert [r["seed"] for r in records] == [1] and bad == [2]
