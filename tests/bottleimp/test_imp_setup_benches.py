"""The setup hint's benchmark scripts (issue 61): their records, resume and summary, on tiny runs."""
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from scoundrel_solver.bottleimp import Rules, deal

ROOT = Path(__file__).resolve().parents[2]


def script(name, *args):
    return subprocess.run([sys.executable, str(ROOT / "benchmarks/bottleimp" / name), *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True)


def test_the_quality_bench_records_both_budgets_and_resumes(tmp_path):
    out = tmp_path / "q.jsonl"
    run = script("bench_setup_hint.py", "run", "--variant", "glitzerhaus", "--step", "open", "--positions", "2",
                 "--samples", "2", "--unraced-10x", "--out", out)
    assert run.returncode == 0, run.stderr
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in recs] == [1, 2] and [r["seat"] for r in recs] == ["A", "B"]
    assert all(r["recommended"] in ("1", "2") and r["raced_10x"] is False and r["model"] == "equilibrium" for r in recs)
    again = script("bench_setup_hint.py", "run", "--variant", "glitzerhaus", "--step", "open", "--positions", "2",
                   "--samples", "2", "--unraced-10x", "--out", out)
    assert "0 positions to measure" in again.stderr
    summary = script("bench_setup_hint.py", "summary", out)
    assert summary.returncode == 0 and "2 positions" in summary.stdout and "(unraced)" in summary.stdout
    bad = script("bench_setup_hint.py", "run", "--variant", "lopaka", "--step", "s1", "--samples", "2")
    assert bad.returncode == 2 and "lopaka has no step s1" in bad.stderr


def test_the_hidden_cost_is_the_matrix_against_the_equilibrium(tmp_path):
    out = tmp_path / "c.jsonl"
    run = script("exchange_hidden_cost.py", "run", "--deals", "1", "--samples", "4", "--out", out)
    assert run.returncode == 0, run.stderr
    (rec,) = [json.loads(line) for line in out.read_text().splitlines()]
    whole = json.loads((ROOT / "benchmarks/results/bottleimp/lopaka-classic-whole.jsonl").open().readline())
    start = deal(1, Rules("lopaka")).start()
    rows, cols = start.hands[0], start.hands[2]
    y = [Fraction(whole["B"].get(str(c), 0)) for c in cols]
    row = whole["matrix"][rows.index(rec["hint_A"])]
    assert rec["hint_cost_A"] == float(Fraction(whole["value"]) - sum(q * v for q, v in zip(y, row))) >= 0
    assert rec["low_A"] == min(rows) and rec["hint_cost_B"] >= 0 and rec["low_cost_B"] >= 0
    assert rec["pair"] == whole["matrix"][rows.index(rec["hint_A"])][cols.index(rec["hint_B"])]
    summary = script("exchange_hidden_cost.py", "summary", out)
    assert summary.returncode == 0 and "1 deals (1-1)" in summary.stdout
