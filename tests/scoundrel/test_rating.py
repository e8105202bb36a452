"""Difficulty ratings and ``scoundrel-solve rate``.

Labels depend on the packaged calibration, which is rebuilt from time to
time: tests check that a printed label is the one the calibration gives,
never a fixed label (except ``unwinnable``).  Solo numbered deals are rated
in a fraction of a second; co-op only on a 14-card dungeon.
"""
import json
from pathlib import Path

import pytest

from clitools import invoke
from scoundrel_solver import Rules, State, deal, parse_cards, parse_line, replay
from scoundrel_solver.scoundrel.rating import LABEL_NAMES, analyse, apply_calibration, calibration, play_greedy

try:
    from scoundrel_solver.scoundrel.search import load_core
    load_core()
except Exception:  # pragma: no cover - depends on the build
    pytest.skip("ratings need the compiled search core", allow_module_level=True)

UNWINNABLE_SEED = 14   # solo classic: proven best score -188 (benchmarks/results/solo-classic.jsonl)
COOP_DECK = "2H 3D 8S 8D 5S TS TD QS 4H 6H 7D AD 4S AH"   # first 14 cards of co-op deal 6




def run(*args, code=0):
    return invoke(args, code)


def play_all(state: State, actions) -> State:
    for action in actions:
        state = state.play(action)
    return state


def final_score(deck, rules: Rules, line: str) -> int:
    end = replay(State.new(tuple(parse_cards(" ".join(deck))), rules), parse_line(line))[-1]
    assert end.finished
    return end.score


# ------------------------------------------------------------------ library
@pytest.mark.parametrize("seed", [42, 7])
def test_label_is_the_calibrations_and_both_lines_replay_to_the_score(seed):
    rules = Rules()
    r = apply_calibration(analyse(deal(seed, rules), rules, seed))
    assert r.exact and r.won and r.label in LABEL_NAMES[:-1]
    d = r.as_dict()
    assert final_score(d["deck"], rules, d["line"]) == r.score
    canonical = play_all(State.new(deal(seed, rules), rules), r.canonical)
    assert canonical.finished and canonical.score == r.score
    assert 0 <= r.critical <= r.decisions and 0 <= r.first_winning <= r.first_choices
    assert all(0.0 <= v <= 1.0 for v in r.features.values())


def test_unwinnable_deal_is_labelled_unwinnable():
    r = apply_calibration(analyse(deal(UNWINNABLE_SEED, Rules()), Rules(), UNWINNABLE_SEED))
    assert r.exact and not r.won and r.score <= 0
    assert r.label == "unwinnable" and r.difficulty is None


def test_easy_flee_ratings_end():
    # consecutive avoids are legal with the easy flee rule: neither the greedy
    # player nor the canonical line may avoid round in circles
    rules = Rules(flee="easy")
    start = State.new(deal(7, rules), rules)
    assert play_greedy(start).finished
    r = analyse(deal(7, rules), rules, 7)
    end = play_all(start, r.canonical)
    assert end.finished and end.score == r.score


# ---------------------------------------------------------------- rate --json
def test_rate_json_is_the_rating_with_its_seed():
    out = json.loads(run("rate", "--seed", "42", "--json").stdout)
    rules = Rules()
    expected = apply_calibration(analyse(deal(42, rules), rules, 42)).as_dict()
    assert out["seed"] == 42 and out["deck"] == expected["deck"]
    for key in ("score", "won", "exact", "label", "difficulty", "features", "decisions", "critical",
                "canonical_line", "first_choices", "first_winning", "calibrated"):
        assert out[key] == expected[key], key
    # the line shown is the optimal line of fewest rooms (the rating does not depend on it)
    from scoundrel_solver import solve
    assert out["line"] == solve(seed=42, rules=rules, shortest=True).line_text
    assert out["label"] in LABEL_NAMES
    assert final_score(out["deck"], rules, out["line"]) == out["score"]


def test_rate_json_unwinnable():
    out = json.loads(run("rate", "--seed", str(UNWINNABLE_SEED), "--json").stdout)
    assert (out["label"], out["won"], out["exact"]) == ("unwinnable", False, True)
    assert out["score"] <= 0


# ------------------------------------------------------------------ rate text
def test_rate_text_names_every_feature():
    r = apply_calibration(analyse(deal(42, Rules()), Rules(), 42))
    text = run("rate", "--seed", "42").stdout
    assert text.startswith("Deal 42 (solo, classic flee, strict weapons)\n"
                           f"WIN, proven optimal score {r.score}\n")
    assert f"Difficulty: {r.label}, harder than {r.difficulty:.0f}% of the " in text
    assert "winnable solo deals in the calibration" in text
    assert f"critical decisions: {r.critical} of {r.decisions} along the optimal line" in text
    assert f"first moves that still win: {r.first_winning} of {r.first_choices}" in text
    assert f"margin: score {r.score} of 30" in text
    assert "greedy player: " in text
    assert f"proof: {r.nodes:,} nodes" in text


def test_rate_text_unwinnable_exits_0():
    text = run("rate", "--seed", str(UNWINNABLE_SEED)).stdout
    assert "LOSS, proven: the deal cannot be won" in text
    assert "Difficulty: unwinnable" in text


def test_rate_other_rules_say_which_table_they_are_rated_against():
    text = run("rate", "--seed", "42", "--durability", "lenient").stdout
    assert "(calibrated on solo, classic flee, strict weapons; other rules are rated against that table)" in text


def test_rate_coop_custom_dungeon():
    result = run("rate", "--mode", "coop", "--deck", COOP_DECK, "--json")
    out = json.loads(result.stdout)
    assert out["exact"] and out["won"] and out["seed"] is None
    assert final_score(out["deck"], Rules(mode="coop"), out["line"]) == out["score"]
    text = run("rate", "--mode", "coop", "--deck", COOP_DECK).stdout
    assert "margin: score %d of 40" % out["score"] in text
    if calibration().get("coop"):
        assert out["calibrated"] and out["label"] in LABEL_NAMES
    else:
        assert (out["calibrated"], out["label"]) == (False, None)
        assert "no calibration for co-op yet: features only" in text


def test_rate_search_limit_is_not_proven_and_not_rated():
    text = run("rate", "--seed", "7", "--max-nodes", "5").stdout
    assert "NOT PROVEN" in text and "Difficulty" not in text


@pytest.mark.parametrize("args", [
    ["rate"],
    ["rate", "--seed", "x"],
    ["rate", "--seed", "1", "--deck", "5D"],
    ["rate", "--deck", "5D 5D"],
    ["rate", "--seed", "1", "--mode", "trio"],
])
def test_rate_bad_input_is_one_line_exit_2(args):
    result = run(*args, code=2)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert result.stdout == ""


# ------------------------------------------------------- analysis of a known solve
def _known_record(deck, rules):
    """A ``stats``-style record of the exact solve of ``deck``."""
    from scoundrel_solver import format_line, solve
    res = solve(tuple(deck), rules)
    return {"score": res.score, "exact": res.exact, "line": format_line(res.line), "nodes": res.nodes, "seconds": 0.5}


@pytest.mark.parametrize("rules, seed", [(Rules(), 42), (Rules(), 7), (Rules(flee="hard"), 3)])
def test_known_solve_gives_the_same_features(rules, seed):
    deck = deal(seed, rules)
    fresh = analyse(deck, rules, seed).as_dict()
    known = analyse(deck, rules, seed, known=_known_record(deck, rules)).as_dict()
    for key in ("score", "won", "exact", "line", "features", "decisions", "critical", "canonical_line",
                "first_choices", "first_winning", "undecided", "nodes", "greedy_score"):
        assert known[key] == fresh[key], key


def test_known_solve_coop_dungeon():
    rules = Rules(mode="coop")
    deck = parse_cards(COOP_DECK)
    fresh = analyse(deck, rules).as_dict()
    known = analyse(deck, rules, known=_known_record(deck, rules)).as_dict()
    assert known["features"] == fresh["features"] and known["canonical_line"] == fresh["canonical_line"]


def test_known_solve_that_does_not_replay_to_its_score_is_refused():
    rules = Rules()
    deck = deal(42, rules)
    rec = _known_record(deck, rules)
    with pytest.raises(ValueError, match="scores"):
        analyse(deck, rules, known=dict(rec, score=rec["score"] + 1))
    with pytest.raises(ValueError, match="exact"):
        analyse(deck, rules, known=dict(rec, exact=False))


def test_calibration_script_takes_known_solves_from_a_stats_file(tmp_path):
    """``calibrate_rating.py analyse --known`` gives the records a fresh analysis gives."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    script = root / "benchmarks" / "calibrate_rating.py"
    stats = tmp_path / "stats.jsonl"
    assert run("stats", "--seeds", "1-4", "--out", str(stats), "--quiet").exit_code == 0
    # a record of other rules for seed 5 is not used
    other = _known_record(deal(5, Rules(flee="easy")), Rules(flee="easy"))
    with open(stats, "a") as f:
        f.write(json.dumps(dict(other, seed=5, rules=Rules(flee="easy").as_dict())) + "\n")
    outs = {}
    for name, extra in (("fresh", []), ("known", ["--known", str(stats), "--known-only"])):
        out = tmp_path / f"{name}.jsonl"
        subprocess.run([sys.executable, str(script), "analyse", "--mode", "solo", "--seeds", "1-5",
                        "--out", str(out)] + extra, check=True, capture_output=True, cwd=root)
        outs[name] = {r["seed"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(outs["fresh"]) == [1, 2, 3, 4, 5]
    assert sorted(outs["known"]) == [1, 2, 3, 4]          # --known-only: seed 5 has no solve of these rules
    for seed, rec in outs["known"].items():
        assert "solve_seconds" in rec
        for key in ("score", "features", "canonical_line", "decisions", "critical"):
            assert rec[key] == outs["fresh"][seed][key], (seed, key)


# ----------------------------------------------------------- provisional tables
def test_a_table_of_fewer_deals_than_planned_is_provisional_and_says_so(monkeypatch):
    import scoundrel_solver.scoundrel.rating as rating_mod
    from scoundrel_solver.cli.scoundrel.rate import calibration_note
    from scoundrel_solver.scoundrel.rating import CALIBRATION_TARGET, build_calibration
    rules = Rules()
    records = [analyse(deal(seed, rules), rules, seed).as_dict() for seed in range(1, 31)]
    cal = build_calibration({"solo": records})
    assert cal["solo"]["deals"] == 30 and cal["solo"]["provisional"] is True
    r = apply_calibration(analyse(deal(42, rules), rules, 42), cal)
    assert r.calibrated and r.provisional and r.label in LABEL_NAMES[:-1]
    assert r.summary()["provisional"] is True and r.as_dict()["provisional"] is True
    monkeypatch.setattr(rating_mod, "_CAL", cal)
    note = "\n".join(calibration_note(r))
    assert f"provisional: the solo calibration holds 30 of the {CALIBRATION_TARGET:,} deals planned" in note
    # a table of the planned size is not provisional
    full = dict(cal, solo=dict(cal["solo"], deals=CALIBRATION_TARGET, provisional=False))
    r = apply_calibration(analyse(deal(42, rules), rules, 42), full)
    assert not r.provisional
    monkeypatch.setattr(rating_mod, "_CAL", full)
    assert "provisional" not in "\n".join(calibration_note(r))


@pytest.mark.parametrize("mode", ["solo", "coop"])
def test_packaged_table_is_complete(mode):
    from scoundrel_solver.scoundrel.rating import CALIBRATION_TARGET
    table = calibration()[mode]
    assert table["deals"] >= CALIBRATION_TARGET and not table.get("provisional", False)


def test_calibration_script_grows_a_stats_file_with_the_deals_it_solves(tmp_path):
    """``--stats FILE``: known solves are read from FILE, and the deals it lacks are
    solved once and appended to it, as ``scoundrel-solve stats`` would write them."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    script = root / "benchmarks" / "calibrate_rating.py"
    stats = tmp_path / "stats.jsonl"
    assert run("stats", "--seeds", "1-2", "--out", str(stats), "--quiet").exit_code == 0
    reference = tmp_path / "reference.jsonl"
    assert run("stats", "--seeds", "1-5", "--out", str(reference), "--quiet").exit_code == 0
    out = tmp_path / "cal.jsonl"
    subprocess.run([sys.executable, str(script), "analyse", "--mode", "solo", "--seeds", "1-5", "--jobs", "2",
                    "--out", str(out), "--stats", str(stats)], check=True, capture_output=True, cwd=root)
    grown = {r["seed"]: r for r in map(json.loads, stats.read_text().splitlines())}
    want = {r["seed"]: r for r in map(json.loads, reference.read_text().splitlines())}
    assert sorted(grown) == [1, 2, 3, 4, 5] and len(stats.read_text().splitlines()) == 5
    for seed in want:
        for key in ("rules", "score", "won", "exact", "line", "nodes"):
            assert grown[seed][key] == want[seed][key], (seed, key)
    cal = {r["seed"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(cal) == [1, 2, 3, 4, 5]
    for seed, rec in cal.items():
        assert "_stats" not in rec and rec["solve_seconds"] is not None
        assert rec["score"] == want[seed]["score"]
        fresh = analyse(deal(seed, Rules()), Rules(), seed).as_dict()
        assert rec["features"] == fresh["features"] and rec["canonical_line"] == fresh["canonical_line"]
    # the grown file is a valid stats file: the stats command resumes it with nothing left to do
    assert run("stats", "--seeds", "1-5", "--out", str(stats), "--resume", "--quiet").exit_code == 0
    assert len(stats.read_text().splitlines()) == 5


@pytest.mark.parametrize("limit", [1, 3])
def test_undecided_checks_never_lead_the_canonical_line_off_the_optimum(monkeypatch, limit):
    """Win checks stopped by their node limit count as losing; where that leaves
    no move known to keep the optimum, an exact search picks one, so the line
    the features are measured on is still optimal (it used to take the first
    move, which could lose the deal)."""
    import scoundrel_solver.scoundrel.rating as rating_mod
    calls = []
    real = rating_mod._optimal_kind
    monkeypatch.setattr(rating_mod, "_optimal_kind", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    rules = Rules(mode="coop")
    deck = parse_cards(COOP_DECK)
    # (the node limit of the checks of daily methods v1 and v2; a rating's own checks are exact)
    r = analyse(deck, rules, check_nodes=limit)
    assert calls and r.undecided > 0
    end = play_all(State.new(tuple(deck), rules), r.canonical)
    assert end.finished and end.score == r.score
    assert 0 <= r.critical <= r.decisions and 0 <= r.first_winning <= r.first_choices


def _calibration_script(name: str = "calibrate_rating"):
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_records(seeds, shift=0.0):
    import random
    from scoundrel_solver.scoundrel.rating import FEATURES
    rng = random.Random(5)
    recs = []
    for seed in seeds:
        feats = {name: min(1.0, rng.random() + shift) for name in FEATURES}
        recs.append({"seed": seed, "won": True, "exact": True, "score": 20, "nodes": 1, "features": feats})
    return recs


def test_split_half_check_of_a_calibration():
    """``build`` says how far labels move when the table doubles: none when the later half
    of the deals is distributed as the earlier, many when it is not."""
    from scoundrel_solver.scoundrel.rating import build_calibration
    script = _calibration_script()
    same = _fake_records(range(1, 41)) + _fake_records(range(41, 81))     # the same features again
    cal = build_calibration({"solo": same})
    msg = script.split_half(same, "solo", script._rate_records(same, "solo", cal))
    assert "the 40 winnable deals of seeds 41-80, labelled with a table of seeds 1-40 only" in msg
    assert "keep their label in 40 cases (100.0%)" in msg
    assert float(msg.split("moves ")[1].split()[0]) < 1.0     # only the 1,001 quantiles' rounding
    shifted = _fake_records(range(1, 41)) + _fake_records(range(41, 81), shift=0.5)
    cal = build_calibration({"solo": shifted})
    msg = script.split_half(shifted, "solo", script._rate_records(shifted, "solo", cal))
    kept = int(msg.split("keep their label in ")[1].split()[0])
    assert kept < 30
    assert script.split_half(_fake_records([1]), "solo", {}) == "too few deals for a split-half check"


def test_build_writes_the_table_the_package_reads():
    """``calibrate_rating.py build`` writes the file ``calibration()`` loads (it wrote
    ``solver/data/`` after Scoundrel moved to ``solver/scoundrel/``)."""
    from importlib import resources
    from scoundrel_solver.scoundrel import rating
    packaged = Path(str(resources.files(rating.__package__).joinpath("data", "calibration.json")))
    assert packaged.is_file()
    assert _calibration_script().PACKAGE_FILE.resolve() == packaged.resolve()


def test_build_against_another_table_counts_the_labels_that_move():
    from scoundrel_solver.scoundrel.rating import build_calibration
    script = _calibration_script()
    recs = _fake_records(range(1, 81))
    cal = build_calibration({"solo": recs})
    rated = script._rate_records(recs, "solo", cal)
    msg = script.against(recs, "solo", rated, cal, "same.json")
    assert msg.startswith("against same.json: 0 of the 80 winnable deals get another label (0.0%)")
    assert "moves 0.00 points on average, 0.0 at most" in msg
    other = build_calibration({"solo": _fake_records(range(1, 81), shift=0.5)})
    moved = script.against(recs, "solo", rated, other, "other.json")
    n = int(moved.split("other.json: ")[1].split()[0])
    assert n == sum(script._rate_records(recs, "solo", other)[s].label != rated[s].label for s in rated) > 20
    assert script.against(recs, "coop", rated, other, "other.json") == "other.json has no coop table"


def test_compare_two_analyses_of_the_same_deals(tmp_path):
    from scoundrel_solver.scoundrel.rating import build_calibration
    script = _calibration_script()
    rules = Rules().as_dict()
    old = {r["seed"]: dict(r, rules=rules) for r in _fake_records(range(1, 41))}
    new = {s: dict(r, features=dict(r["features"])) for s, r in old.items()}
    table = build_calibration({"solo": list(old.values())})
    assert script.compare(old, new, table, table) == [
        "40 deals in both; 0 have other features",
        "of the 40 winnable deals, 0 get another label (0.0%); difficulty moves +0.00 points on average, "
        "0.00 in size, from +0.0 to +0.0",
        "40 records as in OLD (carried over), 0 analysed again"]
    for s, secs in ((3, 10.0), (7, 3590.0)):
        new[s]["features"]["critical"] = 1.0          # the hardest of all on that feature
        new[s]["seconds"] = secs
    lines = script.compare(old, new, table, table)
    assert lines[0].startswith("40 deals in both; 2 have other features (critical 2, narrowness 0")
    assert "from +0.0 to +" in lines[1] and float(lines[1].split(" to +")[1]) > 0
    assert lines[2] == ("38 records as in OLD (carried over), 2 analysed again: a deal median 1800 s, mean 1800 s, "
                        "p90 3590 s, max 3590 s; 1.0 hours in all")
    new[7]["solve_seconds"] = 10.0                    # its solve was reused from a statistics run
    assert script.compare(old, new, table, table)[2].endswith(
        "1.0 hours in all (with the reused solves counted: a deal median 1805 s, mean 1805 s, p90 3600 s, "
        "max 3600 s; 1.0 hours in all)")
    new[9] = dict(new[9], nodes=2)                    # a record analysed again, without a time
    assert script.compare(old, new, table, table)[2].endswith("1.0 hours in all); 1 without a time")
    assert script.compare(old, {}, table, table) == ["no deal in both files"]
    new[5]["score"] = 1
    assert script.compare(old, new, table, table)[1].startswith("the scores differ")
    import subprocess
    import sys
    recs = tmp_path / "recs.jsonl"
    recs.write_text("".join(json.dumps(r) + "\n" for r in old.values()))
    (tmp_path / "bad.json").write_text("{not json")
    for args, what in ((["nowhere.jsonl", "recs.jsonl"], "nowhere.jsonl: no such file"),
                       (["recs.jsonl", "recs.jsonl", "--new-table", "bad.json"], "bad.json: not a calibration table")):
        out = subprocess.run([sys.executable, script.__file__, "compare", *args], capture_output=True, text=True,
                             cwd=tmp_path)
        assert out.returncode == 2 and out.stdout == "" and len(out.stderr.splitlines()) == 1, out.stderr
        assert what in out.stderr


# ------------------------------------------- live ratings agree with the table
RECORDS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
# Solo deals whose features tie the table's rounded values so that an
# unrounded comparison gives them another label (benchmarks/rating_precision.py).
TIE_SEEDS = (3, 28, 68, 78, 186, 214, 228, 257)
# Co-op deals of the same kind, for each co-op table: (table, its records, seed).
COOP_TIES = [
    (None, "calibration-coop-exact.jsonl", 6699),   # packaged (v3): easy 39.96 from its record, medium 41.66 unrounded
    ("v1", "calibration-coop.jsonl", 3820),        # v1: expert 90.1 from its record, hard 89.8 unrounded
]


def _records(mode: str, seeds, name: str = "") -> dict:
    path = RECORDS / (name or f"calibration-{mode}.jsonl")
    if not path.exists():
        pytest.skip(f"{path.name} is not in this checkout")
    wanted = set(seeds)
    out = {}
    for line in path.read_text().splitlines():
        r = json.loads(line)
        if r["seed"] in wanted:
            out[r["seed"]] = r
    return out


def test_packaged_tables_are_rebuilt_from_the_records_byte_for_byte():
    """``calibrate_rating.py build`` of the solo records and the exact co-op records writes
    ``calibration.json`` (``rate``, ``generate``), whose copy is daily method v3's table;
    method v1's table was built from the same solo records and the co-op records of
    2-M-node checks, before a table said whether it is provisional."""
    from importlib import resources
    from scoundrel_solver.scoundrel import rating
    from scoundrel_solver.scoundrel.rating import build_calibration
    recs = {name: [json.loads(x) for x in (RECORDS / f"calibration-{name}.jsonl").read_text().splitlines()]
            for name in ("solo", "coop", "coop-exact")}
    exact = recs["coop-exact"]
    assert sorted(r["seed"] for r in exact) == list(range(1, 10_001))
    assert all(r["exact"] and r["undecided"] == 0 and r["rules"] == Rules(mode="coop").as_dict() for r in exact)
    data = resources.files(rating.__package__).joinpath("data")
    built = json.dumps(build_calibration({"solo": recs["solo"], "coop": exact}), separators=(",", ":")) + "\n"
    assert built == data.joinpath("calibration.json").read_text() == data.joinpath("calibration-v3.json").read_text()
    assert json.loads(built) == calibration()
    v1 = build_calibration({"solo": recs["solo"], "coop": recs["coop"]})
    del v1["solo"]["provisional"]
    assert json.dumps(v1, separators=(",", ":")) + "\n" == data.joinpath("calibration-v1.json").read_text()


def test_a_calibration_deal_rated_live_gets_the_label_of_its_record():
    """The table is built from records whose features are rounded to 6 decimals;
    a live rating ranks its features at that precision, so it ties the table's
    values exactly as its record does (ties count half)."""
    from scoundrel_solver.scoundrel.rating import rate_record
    rules, cal = Rules(), calibration()
    records = _records("solo", list(range(1, 41)) + list(TIE_SEEDS))
    assert set(TIE_SEEDS) <= set(records)
    for seed, rec in sorted(records.items()):
        live = apply_calibration(analyse(deal(seed, rules), rules, seed))
        assert (live.score, live.won) == (rec["score"], rec["won"])
        assert live.summary()["features"] == rec["features"]
        if not rec["won"]:
            assert live.label == "unwinnable"
            continue
        stored = rate_record(rec, rules, cal)
        assert (live.label, live.difficulty) == (stored.label, stored.difficulty), seed
        if seed in TIE_SEEDS:   # and the unrounded comparison would not
            assert apply_calibration(live, cal, decimals=None).label != stored.label


@pytest.mark.parametrize("version,name,seed", COOP_TIES)
def test_a_coop_calibration_deal_rated_live_gets_the_label_of_its_record(version, name, seed):
    """Against the packaged table (``rate``, ``generate``, daily v3) and v1's (daily v1, v2),
    a deal of the records the table was built from, rated live, gets its record's label,
    though its unrounded features would get another."""
    from scoundrel_solver.scoundrel.daily import calibration_for
    from scoundrel_solver.scoundrel.rating import rate_record
    rules = Rules(mode="coop")
    cal = calibration_for(version) if version else calibration()
    rec = _records("coop", [seed], name)[seed]
    live = apply_calibration(analyse(deal(seed, rules), rules, seed), cal)
    stored = rate_record(rec, rules, cal)
    assert live.summary()["features"] == rec["features"]
    assert (live.label, live.difficulty) == (stored.label, stored.difficulty)
    assert apply_calibration(live, cal, decimals=None).label != stored.label


def test_rating_precision_rates_against_the_records_of_the_packaged_table(capsys, tmp_path):
    """``benchmarks/rating_precision.py``: by default a mode's deals are rated against the
    packaged table and compared with the records it is built from (co-op: the exact ones);
    ``--records``/``--table`` name others; bad input is one line, exit 2."""
    script = _calibration_script("rating_precision")
    # the files test_packaged_tables_are_rebuilt_from_the_records_byte_for_byte builds from
    assert script.RECORDS == {"solo": "calibration-solo.jsonl", "coop": "calibration-coop-exact.jsonl"}
    script.main(["--mode", "solo", "--seeds", "3"])
    out, err = capsys.readouterr()
    assert "rounded  : 0 of 1 get another label" in out and "3 (medium 40.7 -> easy 38.2)" in out
    assert err == "\r1/1 deals rated live\n"   # progress, on stderr
    script.main(["--mode", "coop", "--seeds", "6699"])
    assert "6699 (easy 40.0 -> medium 41.7)" in capsys.readouterr().out
    script.main(["--mode", "coop", "--seeds", "3820", "--records", str(RECORDS / "calibration-coop.jsonl"),
                 "--table", str(RECORDS.parents[1] / "solver" / "scoundrel" / "data" / "calibration-v1.json")])
    assert "3820 (expert 90.1 -> hard 89.8)" in capsys.readouterr().out
    (tmp_path / "list.json").write_text("[1]\n")
    (tmp_path / "record.json").write_text('{"seed": 1, "won": true}\n')
    (tmp_path / "text.txt").write_text("hello\n")
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9\n")
    for argv, msg in ((["--table", str(tmp_path / "nothing.json")], "nothing.json: no such file"),
                      (["--table", str(tmp_path / "text.txt")], "text.txt: not a calibration table"),
                      (["--table", str(tmp_path / "list.json")], "list.json: no coop table"),
                      (["--records", str(tmp_path / "text.txt")], "text.txt line 1: not a JSON line"),
                      (["--records", str(tmp_path / "latin1.txt")], "latin1.txt line 1: not UTF-8 text"),
                      (["--records", str(tmp_path / "list.json")], "list.json line 1: not a JSON object"),
                      (["--records", str(tmp_path / "record.json")], "record.json line 1: not a calibration record"),
                      (["--seeds", "99999"], "no winnable records of seeds 99999")):
        with pytest.raises(SystemExit) as exc:
            script.main(["--mode", "coop"] + argv)
        err = capsys.readouterr().err
        assert exc.value.code == 2 and err.startswith("error: ") and msg in err and err.count("\n") == 1, err


@pytest.mark.parametrize("check_nodes", [None, 2_000_000])
def test_node_limited_coop_checks_search_as_daily_v1_and_v2(monkeypatch, check_nodes):
    """Co-op win checks stopped at a node limit (daily methods v1/v2) depend on the
    search, so they run with the core's search of then (``frozen``: the knobs of
    core.FROZEN_KNOBS off), node for node; exact checks use today's search."""
    from scoundrel_solver.scoundrel.search import load_core
    core = load_core()
    made = []
    real = core.new_searcher

    def spy(rules, tt_mb=256, frozen=False, **kwargs):     # (threads=, ... passed on)
        s = real(rules, tt_mb, frozen=frozen, **kwargs)
        made.append(s.ahead_prune)
        return s
    monkeypatch.setattr(core, "new_searcher", spy)
    rules = Rules(mode="coop")
    r = analyse(deal(10, rules), rules, 10, check_nodes=check_nodes)
    assert r.exact and r.won and r.decisions > 0
    # the solve itself is exact and uses today's search; the checks' searcher follows check_nodes
    assert made[0] == 2 and made[1:] == ([0] if check_nodes else [2]) * len(made[1:]) and len(made) >= 2
