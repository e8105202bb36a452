"""Daily challenges (``scoundrel-solve daily``, ``play --daily``) and catalogues
(``scoundrel-solve generate``): every deal winnable, its solution replaying
to its score, the same options always giving the same deals.

Solo deals (rated in a fraction of a second each), and a few co-op dailies
picked for being quick to rate (seconds each).
"""
import datetime
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scoundrel_solver.cli.scoundrel import daily as daily_cli
from clitools import invoke, one_error_line
from scoundrel_solver import Rules, State, deal, format_line, parse_cards, parse_line, replay
from scoundrel_solver.scoundrel.lines import fewest_rooms_line
from scoundrel_solver.scoundrel.daily import METHOD_SINCE, calibration_for, daily_challenge, label_candidate, method_for
from scoundrel_solver.scoundrel.rating import LABEL_NAMES, analyse, apply_calibration, calibration

try:
    from scoundrel_solver.scoundrel.search import load_core
    load_core()
except Exception:  # pragma: no cover - depends on the build
    pytest.skip("daily challenges need the compiled search core", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
DATE = "2026-03-14"




def run(*args, code=0, input=None):
    return invoke(args, code, input)


def check_deal(d: dict) -> None:
    """Winnable, the deck is the seed's deal, and the line replays to the score."""
    rules = Rules(**d["rules"])
    assert d["won"] is True and d["score"] > 0
    assert d["deck"] == [str(c) for c in deal(d["seed"], rules)]
    end = replay(State.new(tuple(parse_cards(" ".join(d["deck"]))), rules), parse_line(d["line"]))[-1]
    assert end.finished and end.won and end.score == d["score"]
    assert d["rating"]["label"] in LABEL_NAMES[:-1] or not calibration().get(rules.mode)


def daily_json(*args):
    return json.loads(run("daily", "--json", *args).stdout)


# -------------------------------------------------------------------- daily
def test_daily_json_keys_and_solution():
    d = daily_json("--date", DATE, "--reveal")
    for key in ("id", "date", "seed", "deck", "rules", "rating", "score", "line"):
        assert key in d
    assert d["date"] == DATE and d["rules"] == Rules().as_dict()
    assert d["method"] == method_for(datetime.date.fromisoformat(DATE)) == "v1"
    assert d["id"] == f"v1-{DATE}-solo-classic-strict-any"
    check_deal(d)
    assert "line" not in daily_json("--date", DATE)


def test_daily_is_the_same_on_every_run_and_in_a_subprocess():
    first = run("daily", "--json", "--reveal", "--date", DATE).stdout
    assert run("daily", "--json", "--reveal", "--date", DATE).stdout == first
    env = {k: v for k, v in os.environ.items() if k != "SCOUNDREL_PURE"}
    proc = subprocess.run([sys.executable, "-m", "scoundrel_solver", "daily", "--json", "--reveal", "--date", DATE],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == first
    api = daily_challenge(DATE, Rules()).as_dict(reveal=True)
    assert {"type": "daily", **api} == json.loads(first)


def test_daily_differs_by_date_and_rules():
    seeds = {daily_json("--date", day)["seed"] for day in ("2026-03-14", "2026-03-15", "2027-03-14")}
    assert len(seeds) == 3
    hard = daily_json("--date", DATE, "--flee", "hard", "--reveal")
    assert hard["rules"] == Rules(flee="hard").as_dict() and hard["id"] != daily_json("--date", DATE)["id"]
    check_deal(hard)


@pytest.mark.skipif(not calibration().get("solo"), reason="no solo calibration")
@pytest.mark.parametrize("label", LABEL_NAMES[:-1])
def test_daily_difficulty_gives_that_label(label):
    d = daily_json("--date", DATE, "--difficulty", label, "--reveal")
    assert d["rating"]["label"] == label and d["id"].endswith("-" + label)
    check_deal(d)


def test_daily_easy_flee():
    check_deal(daily_json("--date", DATE, "--flee", "easy", "--reveal"))


def test_daily_defaults_to_today_in_utc():
    before = datetime.datetime.now(datetime.timezone.utc).date()
    d = daily_json()
    after = datetime.datetime.now(datetime.timezone.utc).date()
    assert d["date"] in (before.isoformat(), after.isoformat())
    assert daily_cli.today_utc() in (before, after)


def test_daily_text_and_reveal():
    d = daily_json("--date", DATE, "--reveal")
    text = run("daily", "--date", DATE).stdout
    assert text.startswith(f"Daily challenge {d['id']}\nDeal {d['seed']} (solo, classic flee, strict weapons)\n")
    assert f"Winnable, proven optimal score {d['score']}\n" in text
    assert f"Play it: scoundrel-solve play --seed {d['seed']}\n" in text
    assert d["line"] not in text and "Room 1" not in text
    shown = run("daily", "--date", DATE, "--reveal").stdout
    assert f"Line: {d['line']}\n" in shown and "Room 1: " in shown
    assert f"WON, score {d['score']}" in shown


def test_reveal_shows_the_first_optimal_line_of_fewest_rooms():
    """--reveal (JSON ``line`` and the text's ``Line:``) shows the line of the fixed rule
    (docs/daily.md, "The revealed line"): the fewest rooms of the optimal lines, the
    first of those in the order of the legal actions; with easy flee the rating's
    canonical line has more rooms (45 against 18 on 2027-02-01)."""
    from scoundrel_solver import solve
    for args in (("--date", DATE), ("--date", "2027-02-01", "--flee", "easy"), ("--date", "2027-01-01")):
        d = daily_json(*args, "--reveal")
        check_deal(d)
        rules = Rules(**d["rules"])
        start = State.new(tuple(parse_cards(" ".join(d["deck"]))), rules)
        shortest = solve(state=start, shortest=True)
        assert shortest.shortest is True and len(parse_line(d["line"])) == len(shortest.line)
        assert d["line"] == format_line(fewest_rooms_line(start, d["score"]))
        shown = run("daily", *args, "--reveal").stdout
        assert f"Line: {d['line']}\n" in shown
    easy = daily_challenge("2027-02-01", Rules(flee="easy"))
    canonical = parse_line(easy.rating.canonical_text())
    assert (len(canonical), len(easy.line)) == (45, 18)


def test_daily_rating_matches_method_calibration():
    d = daily_challenge(DATE, Rules())
    assert d.rating.label == apply_calibration(analyse(d.deck, d.rules, d.seed), calibration_for("v1"),
                                               decimals=None).label


@pytest.mark.parametrize("args", [
    ["--date", "2026-13-01"],
    ["--date", "yesterday"],
    ["--difficulty", "impossible"],
    ["--difficulty", "unwinnable"],
    ["--mode", "trio"],
])
def test_daily_bad_input_is_one_line_exit_2(args):
    result = run("daily", *args, code=2)
    one_error_line(result)
    assert result.stdout == ""


def test_daily_difficulty_for_a_mode_the_method_has_no_table_for_is_refused(monkeypatch):
    import scoundrel_solver.scoundrel.daily as daily_mod
    real = daily_mod.calibration_for
    monkeypatch.setattr(daily_mod, "calibration_for",
                        lambda method: {k: v for k, v in real(method).items() if k != "coop"})
    assert "no difficulty calibration for co-op" in one_error_line(
        run("daily", "--mode", "coop", "--difficulty", "hard", code=2))


def test_daily_with_a_difficulty_passes_over_a_candidate_with_undecided_checks(monkeypatch):
    """An undecided win check makes a label depend on the search: such a candidate
    is never the daily of a difficulty (it still can be the daily of ``any``)."""
    import scoundrel_solver.scoundrel.daily as daily_mod
    easy = daily_challenge("2026-11-29", Rules(), "easy")
    any_day = daily_challenge("2026-11-29", Rules())
    assert easy.candidate == any_day.candidate == 0
    assert easy.rating.undecided == any_day.rating.undecided == 0

    def analyse_marking_both(deck, rules, seed=None, **kw):
        r = analyse(deck, rules, seed, **kw)
        if seed in (easy.seed, any_day.seed):
            r.undecided = 1
        return r
    monkeypatch.setattr(daily_mod, "analyse", analyse_marking_both)
    again = daily_challenge("2026-11-29", Rules(), "easy")
    assert again.candidate > 0 and again.seed != easy.seed and again.rating.label == "easy"
    assert again.rating.undecided == 0
    same = daily_challenge("2026-11-29", Rules())
    assert (same.candidate, same.seed, same.rating.undecided) == (0, any_day.seed, 1)
    assert "(1 win check(s) stopped at their node limit" in run("daily", "--date", "2026-11-29").stdout
    assert "node limit" not in run("daily", "--date", "2026-11-29", "--difficulty", "easy").stdout


def test_play_daily_plays_the_daily_deal():
    d = daily_json("--date", DATE)
    out = run("play", "--daily", "--date", DATE, input="q\n").stdout
    assert out.startswith(f"Daily challenge {d['id']} ({DATE}): Deal {d['seed']} (solo, classic flee, "
                          f"strict weapons)\n")
    room = " ".join(d["deck"][:4])
    assert f"Room 1: {room}\n" in out


# ----------------------------------------------------------------- generate
def lines_of(path: Path) -> list:
    return [json.loads(t) for t in path.read_text().splitlines()]


def test_generate_writes_distinct_winnable_deals(tmp_path):
    out = tmp_path / "deals.jsonl"
    result = run("generate", "--count", "4", "--out", str(out), "-q")
    assert result.stdout.startswith(f"{out}: 4 deals")
    deals = lines_of(out)
    assert len(deals) == 4 and len({tuple(d["deck"]) for d in deals}) == 4
    for d in deals:
        assert set(d) == {"id", "seed", "deck", "rules", "rating", "score", "won", "line"}
        check_deal(d)
        r = apply_calibration(analyse(deal(d["seed"], Rules()), Rules(), d["seed"]))
        assert d["rating"]["label"] == r.label and d["score"] == r.score
        # the solution is the one a daily reveals: the first optimal line of fewest rooms
        assert d["line"] == format_line(fewest_rooms_line(State.new(deal(d["seed"], Rules()), Rules()), r.score))
    assert [d["seed"] for d in deals] == sorted(d["seed"] for d in deals)


def test_generate_resume_adds_without_duplicates_and_matches_a_straight_run(tmp_path):
    straight, resumed = tmp_path / "straight.jsonl", tmp_path / "resumed.jsonl"
    run("generate", "--count", "5", "--out", str(straight), "--start-seed", "10", "-q")
    run("generate", "--count", "2", "--out", str(resumed), "--start-seed", "10", "-q")
    one_error_line(run("generate", "--count", "5", "--out", str(resumed), "--start-seed", "10", code=2))
    run("generate", "--count", "5", "--out", str(resumed), "--start-seed", "10", "--resume", "-q")
    assert resumed.read_text() == straight.read_text()
    again = run("generate", "--count", "5", "--out", str(resumed), "--resume", "-q")
    assert "already holds 5 deals" in again.stdout
    assert resumed.read_text() == straight.read_text()


def test_generate_resume_after_a_cut_line(tmp_path):
    out = tmp_path / "deals.jsonl"
    run("generate", "--count", "2", "--out", str(out), "-q")
    text = out.read_text()
    out.write_text(text + text.splitlines()[0][:30])       # a kill in the middle of a write
    result = run("generate", "--count", "3", "--out", str(out), "--resume", "-q")
    assert "1 unreadable line(s) skipped (line 3)" in result.stderr
    rows = out.read_text().splitlines()
    # the cut line is dropped (as stats --resume does), not kept in the middle of the file
    assert len(rows) == 3 and json.loads(rows[2])["seed"] > json.loads(rows[1])["seed"]
    assert [json.loads(r)["seed"] for r in rows[:2]] == [json.loads(r)["seed"] for r in text.splitlines()]


@pytest.mark.skipif(not calibration().get("solo"), reason="no solo calibration")
def test_generate_difficulty(tmp_path):
    out = tmp_path / "hard.jsonl"
    result = run("generate", "--count", "2", "--difficulty", "hard", "--out", str(out), "-q")
    deals = lines_of(out)
    assert [d["rating"]["label"] for d in deals] == ["hard", "hard"]
    for d in deals:
        check_deal(d)
    assert "of other labels" in result.stdout or "tried" in result.stdout


def test_generate_with_a_difficulty_skips_deals_with_undecided_checks(tmp_path, monkeypatch):
    import scoundrel_solver.scoundrel.catalogue as catalogue_mod
    plain = tmp_path / "plain.jsonl"
    run("generate", "--count", "2", "--difficulty", "easy", "--out", str(plain), "-q")
    first, second = (d["seed"] for d in lines_of(plain))
    real_rate = catalogue_mod.rate

    def rate_marking_first(deck, rules, seed=None, **kw):
        r = real_rate(deck, rules, seed, **kw)
        if seed == first:
            r.undecided = 1
        return r
    monkeypatch.setattr(catalogue_mod, "rate", rate_marking_first)
    marked = tmp_path / "marked.jsonl"
    shown = run("generate", "--count", "1", "--difficulty", "easy", "--out", str(marked), "-q").stdout
    assert [d["seed"] for d in lines_of(marked)] == [second] and "1 with undecided win checks skipped" in shown
    anyway = tmp_path / "any.jsonl"
    run("generate", "--count", "1", "--out", str(anyway), "--start-seed", str(first), "-q")
    assert [(d["seed"], d["rating"]["undecided"]) for d in lines_of(anyway)] == [(first, 1)]


def test_generate_other_rules(tmp_path):
    out = tmp_path / "deals.jsonl"
    run("generate", "--count", "2", "--flee", "hard", "--durability", "lenient", "--out", str(out), "-q")
    deals = lines_of(out)
    assert all(d["rules"] == Rules(flee="hard", durability="lenient").as_dict() for d in deals)
    assert all(d["id"].startswith("solo-hard-lenient-") for d in deals)
    for d in deals:
        check_deal(d)
    err = one_error_line(run("generate", "--count", "3", "--out", str(out), "--resume", code=2))
    assert "other rules" in err


@pytest.mark.parametrize("args", [
    ["--count", "0", "--out", "x.jsonl"],
    ["--count", "2"],
    ["--count", "2", "--out", "/nonexistent-dir/x.jsonl"],
    ["--count", "2", "--out", "x.jsonl", "--start-seed", "-3"],
    ["--count", "2", "--out", "x.jsonl", "--difficulty", "trivial"],
])
def test_generate_bad_input_is_one_line_exit_2(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("generate", *args, code=2)
    one_error_line(result)
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize("jobs", [1, 2])
def test_generate_ctrl_c_keeps_what_is_written(tmp_path, jobs):
    out = tmp_path / "deals.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "SCOUNDREL_PURE"}
    proc = subprocess.Popen([sys.executable, "-m", "scoundrel_solver", "generate", "--count", "100000", "--out", str(out),
                             "--jobs", str(jobs), "-q"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 2):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert stderr.startswith("interrupted: ") and stderr.count("\n") == 1
    deals = lines_of(out)
    assert len(deals) >= 2 and f"holds {len(deals)} of 100,000 deals" in stderr
    for d in deals:
        check_deal(d)
    # what was written is the start of the catalogue a straight run writes
    straight = tmp_path / "straight.jsonl"
    run("generate", "--count", str(len(deals)), "--out", str(straight), "-q")
    assert out.read_text() == straight.read_text()


def test_jobs_give_the_same_daily_and_catalogue(tmp_path):
    one = run("daily", "--json", "--reveal", "--date", "2026-11-29", "--difficulty", "expert").stdout
    two = run("daily", "--json", "--reveal", "--date", "2026-11-29", "--difficulty", "expert", "--jobs", "2").stdout
    assert two == one and json.loads(one)["candidate"] == 12
    files = []
    for jobs in (1, 2, 3):
        files.append(tmp_path / f"jobs{jobs}.jsonl")
        shown = run("generate", "--count", "3", "--difficulty", "hard", "--start-seed", "7", "--jobs", jobs,
                    "--out", str(files[-1]), "-q").stdout
        assert "3 deals (3 new; 10 tried: 6 of other labels" in shown
    assert files[0].read_text() == files[1].read_text() == files[2].read_text()
    run("generate", "--count", "5", "--difficulty", "hard", "--start-seed", "7", "--jobs", "2",
        "--out", str(files[1]), "--resume", "-q")
    run("generate", "--count", "5", "--difficulty", "hard", "--start-seed", "7", "--out", str(files[0]),
        "--resume", "-q")
    assert files[0].read_text() == files[1].read_text() and len(lines_of(files[0])) == 5


# Golden dailies of method v1: these must never change (docs/daily.md).  A failure
# here means the method changed: that needs a new method version, not a new golden.
GOLDEN_V1 = [
    (("2026-11-29", {}, None), ("v1-2026-11-29-solo-classic-strict-any", 0, 10191103358663076331, 17, "hard")),
    (("2026-11-29", {}, "easy"), ("v1-2026-11-29-solo-classic-strict-easy", 0, 18076228009517908072, 30, "easy")),
    (("2026-11-29", {}, "expert"), ("v1-2026-11-29-solo-classic-strict-expert", 12, 5563014132882980095, 30,
                                    "expert")),
    (("2027-01-01", {"flee": "hard"}, None), ("v1-2027-01-01-solo-hard-strict-any", 4, 6928049829050946752, 13,
                                              "easy")),
]


# Co-op (its table entered method v1 on 2026-12-01); a few seconds each.
GOLDEN_V1_COOP = [
    (("2026-12-01", {"mode": "coop"}, None), ("v1-2026-12-01-coop-52-lenient-any", 0, 3862216782744652316, 14,
                                              "hard")),
    (("2026-12-02", {"mode": "coop"}, "easy"), ("v1-2026-12-02-coop-52-lenient-easy", 0, 17352088099167276680,
                                                35, "easy")),
]


@pytest.mark.parametrize("ask,want", GOLDEN_V1 + GOLDEN_V1_COOP)
def test_golden_dailies_of_method_v1_never_change(ask, want):
    date, rules, difficulty = ask
    d = daily_challenge(date, Rules(**rules), difficulty, method="v1")
    assert (d.id, d.candidate, d.seed, d.score, d.rating.label) == want
    if date < "2027-01-01":   # v1 is the method in force: the default gives it too
        again = daily_challenge(date, Rules(**rules), difficulty)
        assert (again.id, again.seed, again.rating.label) == want[:1] + want[2:3] + want[4:]


# Golden dailies of method v2 (in force from 2027-01-01): these must never change either.
GOLDEN_V2 = [
    (("2027-01-01", {}, None), ("v2-2027-01-01-solo-classic-strict-any", 0, 8203540833823040292, 30, "medium")),
    (("2027-01-01", {}, "medium"), ("v2-2027-01-01-solo-classic-strict-medium", 0, 4262649357496673245, 30,
                                    "medium")),
    (("2027-01-01", {}, "expert"), ("v2-2027-01-01-solo-classic-strict-expert", 0, 8082051402654790730, 13,
                                    "expert")),
    (("2027-01-01", {"flee": "hard"}, None), ("v2-2027-01-01-solo-hard-strict-any", 3, 3597196194741565662, 9,
                                              "hard")),
    (("2027-01-01", {"mode": "coop"}, None), ("v2-2027-01-01-coop-52-lenient-any", 0, 9354431433694131514, 26,
                                              "easy")),
]


@pytest.mark.parametrize("ask,want", GOLDEN_V2)
def test_golden_dailies_of_method_v2_never_change(ask, want):
    date, rules, difficulty = ask
    d = daily_challenge(date, Rules(**rules), difficulty)    # v2 is the method in force
    assert (d.method, d.id, d.candidate, d.seed, d.score, d.rating.label) == ("v2",) + want


def test_each_date_has_one_method_in_force_and_any_method_can_be_asked_for():
    assert method_for(datetime.date(2026, 12, 31)) == "v1" and method_for(datetime.date(1, 1, 1)) == "v1"
    # (v3 takes over on 2027-02-01: tests/scoundrel/test_effort.py)
    assert method_for(datetime.date(2027, 1, 1)) == method_for(datetime.date(2027, 1, 31)) == "v2"
    # a method's start never moves once its date has passed (the golden dailies rely on it)
    assert METHOD_SINCE["v2"] == datetime.date(2027, 1, 1)
    d = daily_json("--date", "2027-01-01")
    assert (d["method"], d["id"]) == ("v2", "v2-2027-01-01-solo-classic-strict-any")
    old = daily_json("--date", "2027-01-01", "--flee", "hard", "--method", "v1")
    assert (old["method"], old["id"], old["seed"]) == ("v1",) + GOLDEN_V1[3][1][:1] + GOLDEN_V1[3][1][2:3]
    ahead = daily_json("--date", "2026-11-29", "--difficulty", "hard", "--method", "v2", "--reveal")
    assert (ahead["id"], ahead["candidate"], ahead["seed"]) == ("v2-2026-11-29-solo-classic-strict-hard", 1,
                                                               6083312934839973463)
    check_deal(ahead)
    assert "(method v2 calibration)" in run("daily", "--date", "2027-01-01").stdout
    assert "(method v1 calibration)" in run("daily", "--date", "2026-12-31").stdout
    assert "method" in one_error_line(run("daily", "--method", "v4", code=2))


def test_method_v2_labels_a_deal_as_rate_does_and_v1_keeps_its_comparison():
    """Solo deal 3 has features that tie the table's (rounded) values: ranked at the
    table's precision (v2, ``rate``) it is medium 40.7, as its calibration record
    is; unrounded (v1) every tie counts as below and it reads easy 38.2."""
    rules = Rules()
    a = analyse(deal(3, rules), rules, 3)
    v1 = label_candidate(analyse(deal(3, rules), rules, 3), "v1")
    v2 = label_candidate(a, "v2")
    assert (v1.label, round(v1.difficulty, 1)) == ("easy", 38.2)
    assert (v2.label, round(v2.difficulty, 1)) == ("medium", 40.7)
    rated = json.loads(run("rate", "--seed", "3", "--json").stdout)
    assert (rated["label"], rated["difficulty"]) == ("medium", 40.7)
    for seed in (GOLDEN_V2[0][1][2], GOLDEN_V2[1][1][2]):
        d = daily_challenge("2027-01-01", rules, None if seed == GOLDEN_V2[0][1][2] else "medium")
        rated = json.loads(run("rate", "--seed", str(seed), "--json").stdout)
        assert (rated["label"], rated["difficulty"]) == (d.rating.label, round(d.rating.difficulty, 1))


def test_daily_time_draws_candidates_as_the_method_accepts_them(tmp_path, capsys):
    """``benchmarks/daily_time.py``: a daily's time is the sum of its candidates' analyses,
    drawn until one is accepted; v3 reads records of exact checks only."""
    import importlib.util
    from scoundrel_solver.scoundrel.rating import rate_record
    spec = importlib.util.spec_from_file_location("daily_time", ROOT / "benchmarks" / "daily_time.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    records = [json.loads(x) for x in (ROOT / "benchmarks/results/calibration-solo.jsonl").read_text().splitlines()]
    won = next(r for r in records if r["won"])
    lost = next(r for r in records if not r["won"])
    label = rate_record(won, Rules(), calibration_for("v3")).label
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(dict(lost, seconds=1.0)) + "\n" + json.dumps(dict(won, seconds=10.0)) + "\n")
    script.main(["--mode", "solo", "--method", "v3", "--records", str(path), "--draws", "400"])
    rows = {line.split(" | ")[0][2:]: line.split(" | ")[1:] for line in capsys.readouterr().out.splitlines()
            if line.startswith("| ") and not line.startswith("| difficulty")}
    assert rows["any"][:2] == ["50.0%", "2.0"] and rows[label][:2] == ["50.0%", "2.0"]
    # each draw: some deals lost (1 s each), then the won one (10 s); the median is 10 or 11 s
    assert rows["any"][2] in ("10.0 s", "11.0 s") and float(rows["any"][4].split()[0]) >= 13.0
    assert all(rows[name] == ["0.0%", "–", "–", "–", "– |"] for name in LABEL_NAMES[:-1] if name != label)
    path.write_text(json.dumps(dict(won, undecided=1)) + "\n")
    with pytest.raises(SystemExit, match="undecided win check; method v3 checks exactly"):
        script.main(["--mode", "solo", "--method", "v3", "--records", str(path)])


# SHA-256 (first 16 hex digits) of each entry of calibration-v1.json, written with
# json.dumps(entry, sort_keys=True): the tables of method v1 are frozen for ever.
V1_TABLE = {"version": "6b86b273ff34fce1", "weights": "606593d71faae2e0", "labels": "8e6305f804c4107e",
            "solo": "d2626fbfba92aad1", "coop": "dfaba09f7510cabe"}


def test_the_calibration_tables_of_method_v1_never_change():
    import hashlib
    v1 = calibration_for("v1")
    got = {k: hashlib.sha256(json.dumps(v, sort_keys=True).encode()).hexdigest()[:16] for k, v in v1.items()}
    assert got == V1_TABLE
    assert v1["coop"]["deals"] == v1["solo"]["deals"] == 10_000
    assert not v1["coop"].get("provisional") and not v1["solo"].get("provisional")


# The same of calibration-v3.json (method v3, from 2027-02-01), pinned when the exact
# co-op analysis of the 10,000 calibration deals was complete: frozen from then on.
V3_TABLE = {"version": "6b86b273ff34fce1", "weights": "606593d71faae2e0", "labels": "8e6305f804c4107e",
            "solo": "dd3b59a8d6a5b0ba", "coop": "5d0be303122940ed"}


def test_the_calibration_tables_of_method_v3_never_change():
    import hashlib
    v1, v3 = calibration_for("v1"), calibration_for("v3")
    got = {k: hashlib.sha256(json.dumps(v, sort_keys=True).encode()).hexdigest()[:16] for k, v in v3.items()}
    assert got == V3_TABLE
    # v1's solo table (solo checks always were exact; v1 predates the "provisional" key),
    # v1's weights and cuts; a co-op table of its own, complete
    assert {k: v for k, v in v3["solo"].items() if k != "provisional"} == v1["solo"]
    assert (v3["version"], v3["weights"], v3["labels"]) == (v1["version"], v1["weights"], v1["labels"])
    assert v3["coop"]["deals"] == 10_000 and v3["coop"]["provisional"] is False
    assert v3["coop"]["quantiles"] != v1["coop"]["quantiles"]


def test_v3_dailies_label_their_candidates_with_the_v3_tables(monkeypatch):
    """From 2027-02-01 a daily's candidates are labelled with calibration-v3.json and
    those of v2 (January 2027) with v1's: a co-op deal whose exact features the two
    tables label differently is accepted for its v3 label and never for its v1 one.
    (The analysis is the deal's record, so no deal is solved here.)"""
    import scoundrel_solver.scoundrel.daily as daily_mod
    from scoundrel_solver.scoundrel.rating import rate_record
    rules = Rules(mode="coop")
    v1, v3 = calibration_for("v1"), calibration_for("v3")
    records = [json.loads(x) for x in (ROOT / "benchmarks" / "results" /
                                       "calibration-coop-exact.jsonl").read_text().splitlines()]
    record = next(r for r in records
                  if r["won"] and rate_record(r, rules, v1).label != rate_record(r, rules, v3).label)
    want = rate_record(record, rules, v3)
    monkeypatch.setattr(daily_mod, "MAX_CANDIDATES", 50)
    monkeypatch.setattr(daily_mod, "analyse", lambda deck, rules, seed=None, **kw: rate_record(record, rules, v1))
    for date in ("2027-02-01", "2027-02-02", "2031-06-30"):
        d = daily_challenge(date, rules, want.label)
        assert (d.method, d.candidate, d.rating.label) == ("v3", 0, want.label)
        assert d.rating.difficulty == want.difficulty
        with pytest.raises(daily_mod.DailyError, match="no .* deal among the first 50 candidates"):
            daily_challenge(date, rules, want.label, method="v2")
    old = daily_challenge("2027-01-31", rules, rate_record(record, rules, v1).label)
    assert (old.method, old.candidate) == ("v2", 0)


def test_coop_daily_with_a_difficulty_has_that_label_and_replays():
    d = daily_json("--date", "2026-12-02", "--mode", "coop", "--difficulty", "easy", "--reveal")
    assert d["id"] == "v1-2026-12-02-coop-52-lenient-easy" and d["rules"] == Rules(mode="coop").as_dict()
    assert d["rating"]["label"] == "easy" and d["rating"]["undecided"] == 0
    assert d["rating"]["provisional"] is False
    check_deal(d)
