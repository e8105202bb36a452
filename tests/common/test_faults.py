"""Faults around long runs (issue 24): bad results files, full disks, two writers,
a killed parent, Ctrl-C outside the solve loop, and a run where every deal fails.

The contract: a bad results file is one ``error:`` line naming the file and the
line, exit 2; a write that fails (a full disk) is one line naming the file and
the cause, exit 1, with every line written before intact; one writer per file;
no worker outlives its parent by more than moments.
"""
import gzip
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from clitools import one_error_line, runner
from scoundrel_solver import Rules
from scoundrel_solver import batch
from scoundrel_solver.batch import BatchError, ResultsFileError, RunFailed
from scoundrel_solver.scoundrel.stats import ResultsFile, Settings, read_records, summarise
from scoundrel_solver.scoundrel.catalogue import read_catalogue
from scoundrel_solver.cli.main import cli
from scoundrel_solver.cli.scoundrel.stats import summary_lines
from scoundrel_solver.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
SOLO = Rules().as_dict()
HARD = ["--flee", "hard"]   # the fastest deals: a few ms each


@pytest.fixture
def core(monkeypatch):
    pytest.importorskip("scoundrel_solver.scoundrel._core")
    monkeypatch.delenv("SCOUNDREL_PURE", raising=False)


def cli_run(*args):
    return runner().invoke(cli, [str(a) for a in args])


def command(*args):
    return [sys.executable, "-m", "scoundrel_solver", *map(str, args)]


def env():
    return {k: v for k, v in os.environ.items() if k != "SCOUNDREL_PURE"}


def rec(seed, score=30, **extra):
    return {"seed": seed, "rules": SOLO, "score": score, "won": score > 0, "exact": True, "limit": None,
            "nodes": 10, "seconds": 0.01, **extra}


def write_lines(path, *items) -> Path:
    """Each item a dict (one JSON line) or bytes (written as they are)."""
    with open(path, "wb") as f:
        for item in items:
            f.write(item if isinstance(item, bytes) else (json.dumps(item) + "\n").encode())
    return path


def seeds_in(path) -> list:
    return [json.loads(t)["seed"] for t in Path(path).read_text().splitlines()]


# ------------------------------------------------------- a bad results file
BAD_LINES = [
    (b'\xff\xfe{"seed": 2}\n', ["not UTF-8"]),
    (json.dumps(rec(2, score=0) | {"score": "abc"}).encode() + b"\n", ['"score"', '"abc"']),
    (json.dumps(rec(2) | {"seconds": "fast"}).encode() + b"\n", ['"seconds"', '"fast"']),
    (json.dumps(rec(2) | {"exact": 1}).encode() + b"\n", ['"exact"']),
    (json.dumps(rec(2) | {"seed": -4}).encode() + b"\n", ['"seed"']),
    (json.dumps(rec(2) | {"seed": True}).encode() + b"\n", ['"seed"']),
    (json.dumps(rec(2) | {"rules": {"mode": "chess"}}).encode() + b"\n", ['"rules"']),
    (b'{"seed": 2, "seconds": NaN}\n', ['"seconds"']),
    (b'[1, 2]\n', ["not a JSON object"]),
    (b'{"seed": 2, "score": \n', ["not a JSON line"]),
    (b'{"seed": 2, "score": ' + b"9" * 5000 + b'}\n', ["number too long", "digits"]),
]


@pytest.mark.parametrize("line, words", BAD_LINES)
def test_summary_of_a_bad_file_is_one_line_naming_file_and_line(tmp_path, line, words):
    path = write_lines(tmp_path / "r.jsonl", rec(1), line, rec(3))
    one_error_line(cli_run("stats", "--summary", path), path, "line 2", *words, code=2)
    with pytest.raises(ResultsFileError, match="line 2"):
        read_records(path)


def test_a_number_too_long_in_an_imp_results_file_is_named(tmp_path):
    line = b'{"seed": 2, "value": ' + b"9" * 5000 + b'}\n'
    path = write_lines(tmp_path / "imp.jsonl", line)
    message = one_error_line(cli_run("imp", "stats", "--summary", path), path, "line 1", "number too long", code=2)
    assert "nested" not in message


@pytest.mark.parametrize("line, words", BAD_LINES[:3])
def test_resume_of_a_bad_file_is_one_line_and_touches_nothing(core, tmp_path, line, words):
    path = write_lines(tmp_path / "r.jsonl", rec(1), line, rec(3))
    before = path.read_bytes()
    one_error_line(cli_run("stats", "--seeds", "1-4", "--out", path, "--resume", "-q"), path, "line 2", *words, code=2)
    assert path.read_bytes() == before


def test_generate_resume_of_a_bad_catalogue_is_one_line(tmp_path):
    path = tmp_path / "deals.jsonl"
    assert cli_run("generate", "--count", "1", "--out", path, "-q").exit_code == 0
    good = path.read_bytes()
    path.write_bytes(good + b'{"deck": ["5D", "\xe9"]}\n')
    one_error_line(cli_run("generate", "--count", "3", "--out", path, "--resume", "-q"), path, "line 2",
                   "UTF-8", code=2)
    path.write_bytes(good + json.dumps(json.loads(good) | {"deck": "5D 3S"}).encode() + b"\n")
    one_error_line(cli_run("generate", "--count", "3", "--out", path, "--resume", "-q"), path, "line 2",
                   '"deck"', code=2)
    path.write_bytes(good + json.dumps(json.loads(good) | {"rating": [1]}).encode() + b"\n")
    one_error_line(cli_run("generate", "--count", "3", "--out", path, "--resume", "-q"), path, "line 2",
                   '"rating"', code=2)


def test_a_torn_last_line_is_still_forgiven_even_mid_character(core, tmp_path):
    # A kill can cut a line anywhere, also inside a character of two bytes.
    torn = (json.dumps(rec(2, error="é"), ensure_ascii=False) + "\n").encode()
    cut = torn[:torn.index("é".encode()) + 1]
    path = write_lines(tmp_path / "r.jsonl", rec(1), cut)
    assert read_records(path) == ([rec(1)], [2])
    result = cli_run("stats", "--summary", path, "--json")
    assert result.exit_code == 0 and "line 2" in result.stderr
    assert cli_run("stats", "--seeds", "1-2", "--out", path, "--resume", "-q").exit_code == 0
    assert seeds_in(path) == [1, 2]


def test_a_whole_last_line_without_its_newline_is_kept_on_resume(core, tmp_path):
    # A kill between a line and its newline: the record counts as done, so it must stay in the file.
    path = write_lines(tmp_path / "r.jsonl", rec(1), json.dumps(rec(2)).encode())
    assert cli_run("stats", "--seeds", "1-3", "--out", path, "--resume", "-q").exit_code == 0
    assert seeds_in(path) == [1, 2, 3]


def test_a_warning_never_comes_before_the_error(tmp_path):
    path = write_lines(tmp_path / "r.jsonl", b'{"seed": 1, "rul')   # only a torn line
    one_error_line(cli_run("stats", "--summary", path), "no results", path, code=2)


def test_gzip_damage_is_one_line(tmp_path):
    good = tmp_path / "r.jsonl.gz"
    with gzip.open(good, "wt") as f:
        for s in range(1, 200):
            f.write(json.dumps(rec(s)) + "\n")
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(good.read_bytes()[:-30])
    one_error_line(cli_run("stats", "--summary", cut), cut, code=2)
    plain = tmp_path / "plain.jsonl.gz"
    plain.write_text(json.dumps(rec(1)) + "\n")
    one_error_line(cli_run("stats", "--summary", plain), plain, "gzip", code=2)
    assert json.loads(cli_run("stats", "--summary", good, "--json").stdout)["exact"] == 199


def test_the_published_snapshots_still_read():
    for path in sorted((ROOT / "benchmarks/results/stats").glob("coop-*.jsonl.gz")):
        records, torn = read_records(path)
        assert records and torn == [], path


@pytest.mark.parametrize("script", ["audit_stats.py", "stats_table.py"])
def test_benchmark_readers_answer_a_bad_file_in_one_line(tmp_path, script):
    path = write_lines(tmp_path / "solo-classic-strict.jsonl", rec(1), rec(2) | {"score": "abc"})
    if script == "audit_stats.py":
        args = ["benchmarks/audit_stats.py", str(path)]
    else:   # it reads its own folder: point it at ours
        args = ["-c", "import sys, pathlib; sys.path.insert(0, 'benchmarks'); import stats_table as t; "
                f"t.STATS = pathlib.Path({str(tmp_path)!r}); sys.exit(t.main())"]
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env(), capture_output=True, text=True)
    assert proc.stdout == ""
    one_error_line(proc, path, "line 2", '"score"', code=2)


# ------------------------------------------------------- hypothesis: any line
RECORD_KEYS = ["seed", "rules", "score", "won", "exact", "limit", "error", "nodes", "seconds", "line", "engine",
               "question"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2 ** 70, max_value=2 ** 70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)
good_values = {
    "seed": st.integers(0, 2 ** 64 - 1), "rules": st.sampled_from([SOLO, Rules(flee="hard").as_dict()]),
    "score": st.none() | st.integers(-300, 60), "won": st.none() | st.booleans(), "exact": st.booleans(),
    "limit": st.none() | st.sampled_from(["nodes", "time"]), "error": st.text(max_size=10),
    "nodes": st.none() | st.integers(0, 10 ** 9), "seconds": st.floats(0, 1e4), "line": st.text(max_size=10),
    "engine": st.just("core"), "question": st.just("win"),
}
# A record-like object: a seed mostly, each other key right or anything.
record_like = st.fixed_dictionaries(
    {"seed": st.one_of(good_values["seed"], json_values)},
    optional={k: st.one_of(good_values[k], json_values) for k in RECORD_KEYS[1:]})
line_bytes = st.one_of(
    record_like.map(lambda r: json.dumps(r, ensure_ascii=False).encode("utf-8", "surrogatepass")),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=30))
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])


@FUZZ
@given(st.lists(line_bytes, max_size=6), st.booleans())
def test_any_results_file_reads_right_or_fails_in_one_line(tmp_path, lines, end_newline):
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(b"\n".join(lines) + (b"\n" if end_newline and lines else b""))
    try:
        records, torn = read_records(path)
    except ResultsFileError as exc:
        assert re.search(r"fuzz\.jsonl line \d+: ", str(exc)), exc
        assert "\n" not in str(exc)
    else:
        assert len(torn) <= 1
        for r in records:   # what is read can be summarised and printed
            rules = Rules(**r["rules"]) if "rules" in r else Rules()
            summary_lines(summarise([r], rules))
    result = cli_run("stats", "--summary", path)
    assert result.exit_code in (0, 2), (result.exit_code, result.stderr, result.exception)
    if result.exit_code == 2:
        one_error_line(result, path, code=2)


@FUZZ
@given(st.lists(st.fixed_dictionaries({k: good_values[k] for k in ("seed", "rules", "exact")},
                                      optional={k: good_values[k] for k in RECORD_KEYS
                                                if k not in ("seed", "rules", "exact")}), max_size=6))
def test_right_records_read_back_as_written(tmp_path, records):
    path = write_lines(tmp_path / "fuzz.jsonl", *records)
    assert read_records(path) == (records, [])


@FUZZ
@given(st.lists(line_bytes, max_size=5))
def test_any_catalogue_reads_right_or_fails_in_one_line(tmp_path, lines):
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    try:
        entries, torn = read_catalogue(path)
    except InputError as exc:
        assert re.search(r"deals\.jsonl line \d+: ", str(exc)), exc
    else:
        assert torn == [] and all(isinstance(e["deck"], list) for e in entries)


# ------------------------------------------------------------- a full disk
needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


@needs_dev_full
@pytest.mark.parametrize("args", [["stats", "--seeds", "1-3", *HARD], ["generate", "--count", "2"]])
def test_out_on_dev_full_is_one_line_exit_1(core, args):
    proc = subprocess.run(command(*args, "--out", "/dev/full", "-q"), cwd=ROOT, env=env(), capture_output=True,
                          text=True, timeout=120)
    one_error_line(proc, "/dev/full", "no space left", code=1)


@pytest.mark.parametrize("out", ["/dev/full", "/proc/version"])
@pytest.mark.parametrize("args", [["stats", "--seeds", "1-2", *HARD], ["imp", "stats", "--variant", "glitzerhaus",
                                                                       "--seeds", "1"]])
def test_an_out_that_takes_no_line_claims_nothing_kept(core, args, out):
    if not os.access(out, os.W_OK):   # /proc/version opens for writing as root only, then refuses every line
        pytest.skip(f"{out} cannot be opened for writing here")
    message = one_error_line(cli_run(*args, "--out", out, "-q"), out, f"nothing was written to {out}", code=1)
    assert "kept" not in message and "--resume" not in message


@needs_dev_full
@pytest.mark.parametrize("args", [["deal", "--seed", "42"], ["deal", "--seed", "42", "--json"]])
def test_stdout_on_dev_full_is_one_line_exit_1(args):
    with open("/dev/full", "w") as full:
        proc = subprocess.run(command(*args), cwd=ROOT, env=env(), stdout=full, stderr=subprocess.PIPE, text=True)
    proc.stdout = ""
    one_error_line(proc, "standard output", "no space left", code=1)


@needs_dev_full
def test_stats_summary_to_dev_full_keeps_every_result(core, tmp_path):
    out = tmp_path / "r.jsonl"
    with open("/dev/full", "w") as full:
        proc = subprocess.run(command("stats", "--seeds", "1-20", *HARD, "--out", out, "-q"), cwd=ROOT, env=env(),
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    proc.stdout = ""
    one_error_line(proc, "no space left", code=1)
    assert sorted(seeds_in(out)) == list(range(1, 21))


def _limited(max_bytes):
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, resource.RLIM_INFINITY))
    return limit


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_disk_that_fills_mid_run_loses_nothing(core, tmp_path, jobs):
    # RLIMIT_FSIZE stands in for a full disk: past it a write fails (EFBIG), part-way through a line.
    out, whole = tmp_path / "r.jsonl", tmp_path / "whole.jsonl"
    proc = subprocess.run(command("stats", "--seeds", "1-60", *HARD, "--jobs", jobs, "--out", out, "-q"), cwd=ROOT,
                          env=env(), capture_output=True, text=True, timeout=120, preexec_fn=_limited(4000))
    one_error_line(proc, out, "file too large", "--resume", code=1)
    text = out.read_text()
    assert text.endswith("\n") and len(text) <= 4000
    kept = seeds_in(out)   # every line whole
    assert 3 <= len(kept) < 60 and f"{len(kept)} of 60 deals done" in proc.stderr
    again = cli_run("stats", "--seeds", "1-60", *HARD, "--out", out, "--resume", "--json", "-q")
    assert again.exit_code == 0, again.stderr
    assert sorted(seeds_in(out)) == list(range(1, 61))   # nothing lost, nothing twice
    straight = cli_run("stats", "--seeds", "1-60", *HARD, "--out", whole, "--json", "-q")
    drop_time = lambda s: {k: v for k, v in json.loads(s).items() if k != "time"}  # noqa: E731
    assert drop_time(again.stdout) == drop_time(straight.stdout)


def test_generate_on_a_disk_that_fills_keeps_whole_deals(core, tmp_path):
    out = tmp_path / "deals.jsonl"
    proc = subprocess.run(command("generate", "--count", "50", "--out", out, "-q"), cwd=ROOT, env=env(),
                          capture_output=True, text=True, timeout=300, preexec_fn=_limited(3000))
    one_error_line(proc, out, "file too large", "--resume", code=1)
    entries, torn = read_catalogue(out)
    assert entries and torn == [] and out.read_text().endswith("\n")
    assert f"holds {len(entries)} of 50 deals" in proc.stderr


@pytest.mark.parametrize("args", [["stats", "--seeds", "1-2"], ["generate", "--count", "1"]])
def test_a_gz_out_is_refused_not_written_as_plain_text(tmp_path, args):
    out = tmp_path / "r.jsonl.gz"
    one_error_line(cli_run(*args, "--out", out, "-q"), out, "gzip", code=2)
    assert not out.exists()


# ------------------------------------------------------- one writer per file
def test_a_results_file_has_one_writer(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultsFile(path, Rules()) as first:
        first.append(rec(1))
        for kw in ({"resume": True}, {"overwrite": True}):
            with pytest.raises(BatchError, match="another run"):
                ResultsFile(path, Rules(), **kw)
    with ResultsFile(path, Rules(), resume=True) as again:   # free once the first is closed
        assert again.done() == {1}


@pytest.mark.parametrize("resume", [False, True])
def test_two_stats_runs_on_one_out_never_both_write(core, tmp_path, resume):
    out = tmp_path / "r.jsonl"
    extra = ["--resume"] if resume else []
    if resume:   # a file with results already: both runs would carry it on
        assert cli_run("stats", "--seeds", "1-5", *HARD, "--out", out, "-q").exit_code == 0
    args = command("stats", "--seeds", "1-400", *HARD, "--out", out, *extra, "-q")
    procs = [subprocess.Popen(args, cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    done = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    assert codes == [0, 2], done
    refused = next(err for p, (_, err) in zip(procs, done) if p.returncode == 2)
    assert refused.count("\n") == 1 and refused.startswith("error: ") and str(out) in refused
    seeds = seeds_in(out)
    assert sorted(seeds) == list(range(1, 401))   # every seed once


def test_two_generate_runs_on_one_out_never_both_write(core, tmp_path):
    out = tmp_path / "deals.jsonl"
    args = command("generate", "--count", "15", "--out", out, "-q")
    procs = [subprocess.Popen(args, cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    done = [p.communicate(timeout=300) for p in procs]
    assert sorted(p.returncode for p in procs) == [0, 2], done
    refused = next(err for p, (_, err) in zip(procs, done) if p.returncode == 2)
    assert refused.count("\n") == 1 and str(out) in refused
    seeds = seeds_in(out)
    assert len(seeds) == 15 and len(set(seeds)) == 15


# ------------------------------------------------------------ no orphans
def _children(pid: int) -> list:
    kids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return kids


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
@pytest.mark.parametrize("args", [
    ["stats", "--seeds", "20,38", "--mode", "coop"],           # co-op deals of minutes each
    ["generate", "--count", "5", "--mode", "coop", "--start-seed", "20"],   # through batch.ordered_map
])
def test_workers_end_soon_after_their_parent_is_killed(core, tmp_path, args):
    proc = subprocess.Popen(command(*args, "--jobs", "2", "--out", tmp_path / "out.jsonl", "-q"), cwd=ROOT,
                            env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.1)
            workers = _children(proc.pid)
        time.sleep(2)   # deep in their solves
        assert all(map(_running, workers))
    finally:
        proc.kill()
        proc.wait()
    killed = time.monotonic()
    while any(map(_running, workers)) and time.monotonic() - killed < 10:
        time.sleep(0.02)
    left = [w for w in workers if _running(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, f"workers {left} outlived their parent by 10 s"


def test_a_pool_stopped_by_an_error_is_wholly_down_when_the_error_leaves(tmp_path):
    # The pool's own thread must be gone (and its wake-up pipe closed) before the error
    # goes on: left running, it raced Python's exit handler, which then wrote to the closed
    # pipe and printed a traceback after the run's one error line (CI, 2026-12-02).
    with pytest.raises(RuntimeError, match="full disk"):
        with batch._local_pool(1) as pool:
            pool.submit(time.sleep, 30).add_done_callback(lambda f: None)
            manager, wakeup = pool._executor_manager_thread, pool._executor_manager_thread_wakeup
            raise RuntimeError("full disk")
    assert not manager.is_alive()
    assert wakeup._closed


# ------------------------------------------------ every deal failed, loudly
class FailingBackend:
    """Every deal fails in the worker (as --max-nodes 2^63 did: an OverflowError per deal)."""

    def __init__(self, good=()):
        self.good = set(good)

    def imap(self, settings, seeds):
        for s in seeds:
            yield rec(s) if s in self.good else {"seed": s, "rules": SOLO, "exact": False, "error": "Boom: same"}


def test_a_run_whose_every_deal_fails_says_so():
    results = ResultsFile(None, Rules())
    seen = []
    with pytest.raises(RunFailed, match="every deal failed with Boom: same"):
        for r in batch.run(range(1, 101), Settings(Rules()), results, FailingBackend()):
            seen.append(r["seed"])
    assert len(seen) == batch.FAIL_FAST   # stopped early: no use solving 100 deals to one error
    assert list(batch.run([1, 2, 3], Settings(Rules()), ResultsFile(None, Rules()), FailingBackend(good=[2])))


def test_a_real_run_that_cannot_search_fails_loudly(core, tmp_path):
    with pytest.raises(RunFailed, match="every deal failed"):
        list(batch.run([1, 2, 3], Settings(Rules(), max_nodes=2 ** 63), ResultsFile(None, Rules()),
                       batch.LocalBackend(1)))
    out = tmp_path / "r.jsonl"
    result = cli_run("stats", "--seeds", "1-30", "--max-nodes", 2 ** 63, "--out", out, "-q")
    assert result.exit_code in (1, 2)   # 2 once the option itself is range-checked
    one_error_line(result, code=result.exit_code)


# ------------------------------------------------- Ctrl-C outside the loop
def test_ctrl_c_while_reading_for_resume_is_one_line(core, tmp_path, monkeypatch):
    out = write_lines(tmp_path / "r.jsonl", rec(1))

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(batch, "read_json_lines", interrupted)
    result = cli_run("stats", "--seeds", "1-3", "--out", out, "--resume", "-q")
    assert result.exit_code == 130
    assert result.stderr.splitlines() == [f"interrupted: 0 of 3 deals done; results kept in {out}, "
                                          "rerun with --resume"]
    assert seeds_in(out) == [1]


def test_ctrl_c_before_generate_finds_a_deal_is_one_line(tmp_path, monkeypatch):
    import scoundrel_solver.cli.scoundrel.generate as generate_cli

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(generate_cli, "generate", interrupted)
    out = tmp_path / "deals.jsonl"
    result = cli_run("generate", "--count", "3", "--out", out, "-q")
    assert result.exit_code == 130
    assert result.stderr.splitlines() == [f"interrupted: {out} holds 0 of 3 deals; rerun with --resume to carry on"]


# ------------------------------------------------- a benchmark script's command and resume
def test_a_commands_bad_input_is_one_error_line_and_status_2(capsys):
    def bad(kind):
        raise kind("--samples takes 1 or more")
    for kind in (BatchError, ResultsFileError, InputError):
        assert batch.command_main(bad, kind) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == "error: --samples takes 1 or more\n"


def test_a_command_that_ends_well_gives_its_own_status(capsys):
    assert batch.command_main(lambda *a: print(*a), "all", "done") == 0
    assert capsys.readouterr() == ("all done\n", "")
    assert batch.command_main(lambda: 1) == 1   # e.g. "a deal disagrees"
    with pytest.raises(ValueError):             # a bug is not bad input: its traceback stays
        batch.command_main(int, "x")


def command_whose_reader_leaves(body: str) -> subprocess.CompletedProcess:
    """Run ``command_main`` over ``body`` (the code of a function ``action``) with stdout a pipe
    whose reader has left before ``action`` starts (it waits for a line on stdin first)."""
    code = ("import sys\nfrom scoundrel_solver.batch import command_main\n" + body
            + "\nsys.stdin.readline()\nsys.exit(command_main(action))\n")
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # stdout as users have it
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=buffered, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                      # the reader leaves (``| head`` that has its lines)
    err = proc.communicate(b"go\n", timeout=60)[1].decode()
    return subprocess.CompletedProcess(proc.args, proc.returncode, None, err)


@pytest.mark.parametrize("lines", [1, 100_000])   # one line: the pipe breaks only when stdout is flushed
def test_a_command_whose_reader_leaves_stops_quietly_with_status_0(lines):
    proc = command_whose_reader_leaves(f"def action():\n    for k in range({lines}):\n        print('line', k)\n")
    assert (proc.returncode, proc.stderr) == (0, "")


def test_a_broken_pipe_that_is_not_stdouts_is_not_hidden():
    code = ("from scoundrel_solver.batch import command_main\n"
            "def action():\n    raise BrokenPipeError(32, 'a worker left')\n"
            "command_main(action)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" in proc.stderr
    assert proc.stderr.splitlines()[-1] == "BrokenPipeError: [Errno 32] a worker left", proc.stderr


def test_resume_lines_makes_the_folder_and_starts_with_nothing_done(tmp_path):
    path = tmp_path / "new" / "r.jsonl"
    with batch.resume_lines(path) as (out, done):
        assert done == set()
        out.write(b'{"seed": 7}\n')
    assert seeds_in(path) == [7]


@pytest.mark.parametrize("last, kept", [(b'{"seed": 3, "sco', [1, 2]), (b'{"seed": 3}', [1, 2, 3])])
def test_resume_lines_skips_the_deals_done_and_mends_the_last_line(tmp_path, last, kept):
    path = write_lines(tmp_path / "r.jsonl", {"seed": 1}, {"seed": 2}, last)
    with batch.resume_lines(path) as (out, done):
        assert done == set(kept)             # a torn last line: its deal is done again
        out.write(b'{"seed": 9}\n')
    assert seeds_in(path) == kept + [9]      # the torn line cut off; an unended one ended


def test_resume_lines_checks_each_line_and_has_one_writer(tmp_path):
    path = write_lines(tmp_path / "r.jsonl", {"seed": 1}, {"seed": -2})
    with pytest.raises(ResultsFileError, match="line 2"):
        with batch.resume_lines(path, batch.seed_problem):
            pass
    path = write_lines(tmp_path / "r.jsonl", {"seed": 1})
    with batch.resume_lines(path) as (out, done):
        with pytest.raises(BatchError, match="another run"):
            with batch.resume_lines(path):
                pass
    assert seeds_in(path) == [1]
