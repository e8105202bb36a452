"""``imp stats``: one record a deal on the shared batch runner, checked, resumed, summarised."""
import json
from fractions import Fraction

import jsonschema
import pytest

from imp_games import invoke
from scoundrel_solver.bottleimp.analysis import exchange_game
from scoundrel_solver.bottleimp.deal import deal
from scoundrel_solver.bottleimp.rules import Rules
from scoundrel_solver.bottleimp.stats import Settings, record_problem, summarise
from scoundrel_solver.jsonform import schema

SCHEMA = schema()


def valid(kind, obj):
    jsonschema.Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": SCHEMA["$defs"]}).validate(obj)


def test_a_lopaka_record_is_the_exchange_game():
    rec = Settings(Rules("lopaka")).solve_seed(2)
    valid("imp_stats_result", rec)
    assert record_problem(rec) is None
    game = exchange_game(deal(2, Rules("lopaka")).start(), workers=1)
    value, rows, cols = game.solution
    assert Fraction(rec["value"]) == value and rec["fixed"] == game.lower[0][0]
    assert rec["maximin"] <= value <= rec["minimax"]
    assert Fraction(rec["a_mix_vs_fixed"]) == sum(p * game.lower[i][0] for i, p in enumerate(rows))
    assert sum(Fraction(v) for v in rec["holder"].values()) == 1 and set(rec["holder"]) == {"A", "L", "B"}
    assert {int(c) for c in rec["mix"]["A"]} <= set(game.rows)


def test_a_glitzerhaus_record_has_no_lopaka():
    rec = Settings(Rules("glitzerhaus", cards="matagot")).solve_seed(5)
    valid("imp_stats_result", rec)
    assert record_problem(rec) is None and set(rec["holder"]) == {"A", "B"}


@pytest.mark.parametrize("bad, why", [
    ({"value": 3}, "fraction"), ({"maximin": 1.5}, "margin"), ({"holder": {"A": "1"}}, "holder"),
    ({"rules": {"variant": "base", "cards": "classic"}}, "rules"), ({"a_mix_vs_fixed": None}, "a_mix_vs_fixed"),
])
def test_bad_records_are_named(bad, why):
    rec = {"seed": 1, "rules": {"variant": "lopaka", "cards": "classic"}, "value": "1", "maximin": 1,
           "minimax": 1, "fixed": 1, "a_mix_vs_fixed": "1", "b_mix_vs_fixed": "1",
           "holder": {"A": "0", "L": "1", "B": "0"}}
    assert record_problem(rec) is None
    assert why in record_problem({**rec, **bad})


def test_the_command_resumes_and_its_summary_is_the_same(tmp_path):
    out = tmp_path / "g.jsonl"
    first = invoke(["imp", "stats", "--variant", "glitzerhaus", "--seeds", "1-4", "--out", str(out), "-q", "--json"])
    whole = json.loads(first.stdout)
    valid("imp-stats", whole)
    # cut the file after two deals, as a kill would, and resume
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:2]) + "\n" + lines[2][:10])
    again = invoke(["imp", "stats", "--variant", "glitzerhaus", "--seeds", "1-4", "--out", str(out), "--resume", "-q",
                    "--json"])
    resumed = json.loads(again.stdout)
    for d in (whole, resumed):
        d.pop("time", None)
    assert resumed == whole and whole["deals"] == 4
    text = invoke(["imp", "stats", "--summary", str(out)])
    assert "Double-dummy play-phase value" in text.stdout and "low-cards setup policy" in text.stdout


def test_summary_figures():
    recs = [{"seed": s, "value": v, "maximin": int(Fraction(v)), "minimax": int(Fraction(v)) + 1, "fixed": 0,
             "a_mix_vs_fixed": "2", "b_mix_vs_fixed": "-1", "holder": {"A": "0", "L": "1/2", "B": "1/2"}}
            for s, v in ((1, "10"), (2, "-4"), (3, "7/2"))]
    s = summarise(recs, Rules("lopaka"))
    assert s["deals"] == 3 and s["value"]["mean"] == pytest.approx((10 - 4 + 3.5) / 3, abs=1e-4)
    assert s["a_ahead"]["deals"] == 2 and s["b_ahead"]["deals"] == 1
    assert s["holder"]["L"]["mean"] == 0.5 and s["worth"]["A"]["mean"] == 2 and s["worth"]["B"]["mean"] == 1
    assert s["mixed"] == 3                                  # minimax above maximin on every deal


def test_a_deal_needs_a_mixed_choice_when_either_player_must_mix():
    base = {"rules": {"variant": "lopaka", "cards": "classic"}, "fixed": 0, "a_mix_vs_fixed": "0",
            "b_mix_vs_fixed": "0", "holder": {"A": "0", "L": "1", "B": "0"}}
    recs = [dict(base, seed=1, value="5", maximin=5, minimax=5),      # a saddle point: pure
            dict(base, seed=2, value="5", maximin=5, minimax=7),      # A's pure choice holds 5, B must mix
            dict(base, seed=3, value="11/2", maximin=5, minimax=7)]   # both must mix
    assert summarise(recs, Rules("lopaka"))["mixed"] == 2


@pytest.mark.parametrize("args, message", [
    (["--seeds", "1-3", "--variant", "base"], "Invalid value for '--variant'"),
    ([], "give the deals with --seeds"),
    (["--summary", "/nonexistent.jsonl"], "nonexistent"),
    (["--summary", "x.jsonl", "--jobs", "2"], "leave out --jobs"),
])
def test_bad_input_is_one_line(args, message):
    result = invoke(["imp", "stats", *args], code=2)
    assert message in result.stderr and "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


def _table(folder):
    """benchmarks/bottleimp/stats_table.py run on ``folder``'s results files."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    code = ("import sys, pathlib; sys.path.insert(0, 'benchmarks/bottleimp'); import stats_table as t; "
            f"t.STATS = pathlib.Path({str(folder)!r}); sys.exit(t.main())")
    return subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)


def test_the_published_table_is_made_from_the_files_up_to_their_first_gap(tmp_path):
    lopaka = {"variant": "lopaka", "cards": "classic"}
    recs = [{"seed": s, "rules": lopaka, "value": v, "maximin": int(Fraction(v)), "minimax": int(Fraction(v)) + 1,
             "fixed": 0, "a_mix_vs_fixed": "2", "b_mix_vs_fixed": "-1", "holder": {"A": "0", "L": "1/2", "B": "1/2"},
             "seconds": 1.5} for s, v in ((1, "10"), (2, "-4"), (3, "7/2"), (5, "90"))]
    (tmp_path / "lopaka-classic.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    glitz = Settings(Rules("glitzerhaus")).solve_seed(1)
    (tmp_path / "glitzerhaus-classic.jsonl").write_text(json.dumps(glitz) + "\n")
    proc = _table(tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ")[1:] for line in proc.stdout.splitlines()}
    assert rows["figure"] == ["Lopaka, whole deal", "Glitzerhaus, low-cards setup |"]
    assert rows["deals"][0] == "1–3"                            # deal 5 is after the gap
    assert rows["mean value, A − B"][0].startswith("**+3.2**")  # (10 - 4 + 3.5) / 3
    assert rows["ends with the bottle"][0] == "A 0.0 %, Lopaka 50.0 %, B 50.0 %"
    assert rows["the choice played well is worth, to A / to B"][0].startswith("+2.0 ")
    v = float(Fraction(glitz["value"]))
    assert rows["mean value, A − B"][1].startswith(f"**{v:+.1f}**".replace("-", "−"))
    # a bad line: one line naming it, exit 2
    with (tmp_path / "lopaka-classic.jsonl").open("a") as f:
        f.write(json.dumps({**recs[0], "seed": 6, "value": 3}) + "\n")
    proc = _table(tmp_path)
    assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1
    assert "lopaka-classic.jsonl" in proc.stderr and "value" in proc.stderr
