"""benchmarks/bottleimp/bots.py, the duplicate tournaments: results, resume, lock, summary, bad input."""
import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from clitools import one_error_line
from scoundrel_solver.batch import AppendFile

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks/bottleimp/bots.py"


def bots(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], cwd=ROOT, capture_output=True, text=True)


def play(out, *extra):
    proc = bots("play", "--variant", "lopaka", "--pairs", "greedy:random", "--deals", "1-4", "--out", out, *extra)
    assert proc.returncode == 0, proc.stderr
    return out / "lopaka-greedy-vs-random.jsonl"


def test_each_deal_is_played_twice_with_the_seats_swapped_the_same_on_any_number_of_workers(tmp_path):
    one = play(tmp_path / "one")
    two = play(tmp_path / "two", "--jobs", "2")
    for line in one.read_text().splitlines() + two.read_text().splitlines():
        assert json.loads(line)["cpu_seconds"] >= 0     # the CPU of the deal's games: the only field that varies
    recs = untimed(one)
    assert recs == untimed(two)
    summary = bots("summary", "--out", tmp_path / "one")
    assert "CPU a deal (both games, one core): median" in summary.stdout and "over 4 deals" in summary.stdout
    assert [r["seed"] for r in recs] == [1, 2, 3, 4]
    for r in recs:
        assert (r["variant"], r["first"], r["second"]) == ("lopaka", "greedy", "random")
        assert r["gain"] == (r["first_as_A"] - r["second_as_A"]) / 2
    # the other pair order is the same games with the names swapped: the gains change sign
    back = bots("play", "--variant", "lopaka", "--pairs", "random:greedy", "--deals", "1-4", "--out", tmp_path / "one")
    assert back.returncode == 0, back.stderr
    rev = [json.loads(line) for line in (tmp_path / "one/lopaka-random-vs-greedy.jsonl").read_text().splitlines()]
    assert [r["gain"] for r in rev] == [-r["gain"] for r in recs]


def test_each_record_names_its_build_and_old_records_without_one_still_read(tmp_path):
    path = play(tmp_path)
    builds = {json.loads(line)["build"] for line in path.read_text().splitlines()}
    assert len(builds) == 1 and " core " in builds.pop()       # the commit and the compiled core's hash
    old = [{k: v for k, v in json.loads(line).items() if k != "build"} for line in path.read_text().splitlines()]
    path.write_text("".join(json.dumps(r) + "\n" for r in old))
    proc = bots("summary", "--out", tmp_path)
    assert proc.returncode == 0 and "builds: not recorded" in proc.stdout, proc.stderr
    more = bots("play", "--variant", "lopaka", "--pairs", "greedy:random", "--deals", "1-5", "--out", tmp_path)
    assert more.returncode == 0 and "1 deals to play" in more.stderr, more.stderr
    assert "build" in json.loads(path.read_text().splitlines()[-1])


def untimed(path):
    """The records of a results file, the CPU seconds (which vary from run to run) left out."""
    return [{k: v for k, v in json.loads(line).items() if k != "cpu_seconds"} for line in path.read_text().splitlines()]


def test_a_run_goes_on_where_it_stopped_and_plays_a_torn_line_again(tmp_path):
    path = play(tmp_path)
    whole = path.read_text()
    lines = whole.splitlines(keepends=True)
    path.write_text(lines[0] + lines[1][:20])            # killed while writing deal 2
    proc = bots("play", "--variant", "lopaka", "--pairs", "greedy:random", "--deals", "1-4", "--out", tmp_path)
    assert proc.returncode == 0 and "3 deals to play" in proc.stderr, proc.stderr
    assert path.read_text().startswith(lines[0]) and len(path.read_text().splitlines()) == 4
    (tmp_path / "whole.jsonl").write_text(whole)
    assert untimed(path) == untimed(tmp_path / "whole.jsonl")
    now = path.read_text()
    again = bots("play", "--variant", "lopaka", "--pairs", "greedy:random", "--deals", "1-4", "--out", tmp_path)
    assert "0 deals to play" in again.stderr and path.read_text() == now


def test_a_second_run_on_the_same_pair_is_refused(tmp_path):
    path = tmp_path / "lopaka-greedy-vs-random.jsonl"
    with AppendFile(path):
        proc = bots("play", "--variant", "lopaka", "--pairs", "greedy:random", "--deals", "1", "--out", tmp_path)
    one_error_line(proc, str(path), "another run")
    assert path.read_text() == ""


def test_the_summary_is_the_mean_gain_with_its_interval(tmp_path):
    gains = [3.5, -1.0, 10.0, 0.5, 7.0]
    (tmp_path / "glitzerhaus-table-vs-random.jsonl").write_text("".join(
        json.dumps({"seed": s, "variant": "glitzerhaus", "first": "table", "second": "random",
                    "first_as_A": 2 * g, "second_as_A": 0, "gain": g}) + "\n" for s, g in enumerate(gains, 1)))
    proc = bots("summary", "--out", tmp_path, "--markdown")
    assert proc.returncode == 0, proc.stderr
    assert "CPU a deal" not in bots("summary", "--out", tmp_path).stdout      # older records: no time
    row = proc.stdout.splitlines()[2].split(" | ")
    mean = statistics.mean(gains)
    half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
    assert row[1:5] == ["`table`", "`random`", "5 (1–5)", f"**{mean:+.2f}**"]
    assert row[5] == f"{mean - half:+.2f} to {mean + half:+.2f}"
    assert row[6] == "4 / 1 / 0 (p = 0.38) |"        # the exact sign test: 2 * 6/32 = 0.375
    assert "deals won by table / random / even: 4 / 1 / 0 (p = 0.38)" in bots("summary", "--out", tmp_path).stdout


def test_a_summary_whose_reader_leaves_stops_quietly(tmp_path):
    """``bots.py summary | head -1``: the reader closes the pipe after a line; no traceback."""
    for k in range(40):
        (tmp_path / f"lopaka-table-vs-random-{k}.jsonl").write_text("".join(
            json.dumps({"seed": s, "variant": "lopaka", "first": "table", "second": "random",
                        "first_as_A": s, "second_as_A": 0, "gain": s / 2}) + "\n" for s in (1, 2, 3)))
    proc = subprocess.Popen([sys.executable, str(SCRIPT), "summary", "--out", str(tmp_path)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    proc.stdout.close()                                 # the reader leaves before the first line
    err = proc.stderr.read().decode()
    assert proc.wait() == 0 and "Traceback" not in err and err == ""


@pytest.mark.parametrize("line, words", [
    ({"seed": 2, "variant": "lopaka", "first": "greedy", "second": "random", "first_as_A": 1, "second_as_A": 0,
      "gain": "x"}, ['"gain"', "line 2"]),
    ({"seed": 2, "variant": "lopaka", "first": "greedy", "second": "random", "first_as_A": 1, "second_as_A": 0,
      "gain": 0.5, "cpu_seconds": -1}, ['"cpu_seconds"', "line 2"]),
    ({"seed": 2, "variant": "lopaka", "first": "table", "second": "random", "first_as_A": 1, "second_as_A": 0,
      "gain": 0.5}, ["another pair", "line 2"]),
    ('{"seed": 2, "variant": "lopaka", "first": "greedy", "second": "random", "first_as_A": 1, '
     '"second_as_A": 0, "gain": NaN}', ['"gain" is not a number', "line 2"]),
    ("not json", ["line 2", "not a JSON line"]),
])
def test_a_bad_results_file_is_one_line(tmp_path, line, words):
    path = tmp_path / "lopaka-greedy-vs-random.jsonl"
    good = {"seed": 1, "variant": "lopaka", "first": "greedy", "second": "random", "first_as_A": 1,
            "second_as_A": 0, "gain": 0.5}
    path.write_text(json.dumps(good) + "\n" + (line if isinstance(line, str) else json.dumps(line)) + "\n")
    one_error_line(bots("play", "--variant", "lopaka", "--pairs", "greedy:random", "--deals", "1-2",
                        "--out", tmp_path), str(path), *words)
    one_error_line(bots("summary", "--out", tmp_path), str(path), *words)  # the summary reads it the same way


@pytest.mark.parametrize("args, words", [
    (["play", "--pairs", "table:nobody"], ["bad bot 'nobody'"]),
    (["play", "--pairs", "table"], ["bad pair 'table'"]),
    (["play", "--pairs", ","], ["--pairs is empty"]),
    (["play", "--deals", "3-x"], ["bad seed range"]),
    (["play", "--jobs", "0"], ["--jobs 0"]),
    (["summary", "--out", "/nonexistent/folder"], ["not a folder"]),
])
def test_bad_input_is_one_line(tmp_path, args, words):
    if "--out" not in args:
        args = [*args, "--out", tmp_path]
    one_error_line(bots(*args), *words)


def test_a_file_of_another_table_bot_is_refused_and_once_moved_aside_summed_under_its_own_name(tmp_path):
    """The ``table`` bot's setup counts are in every record; a run of today's bot does not add its
    deals to a file of a bot that drew other counts (two bots in one figure), and the file moved
    aside is summed under the name it was given, its counts beside it."""
    sys.path.insert(0, str(ROOT / "benchmarks/bottleimp"))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bots import TableBot
    finally:
        del sys.path[:2]
    old = {**TableBot.SETUP_SAMPLES, "s1": TableBot.SETUP_SAMPLES["s1"] + 1}
    path = tmp_path / "glitzerhaus-table-vs-random.jsonl"
    path.write_text("".join(json.dumps({"seed": s, "variant": "glitzerhaus", "first": "table", "second": "random",
                                        "first_as_A": s, "second_as_A": 0, "gain": s / 2, "table_setup": old}) + "\n"
                            for s in (1, 2, 3)))
    proc = bots("play", "--variant", "glitzerhaus", "--pairs", "table:random", "--deals", "1-4", "--out", tmp_path)
    one_error_line(proc, str(path), f"s1 {old['s1']},", "move the file aside")
    assert len(path.read_text().splitlines()) == 3
    path.rename(tmp_path / "glitzerhaus-table-s1-more-vs-random.jsonl")
    proc = bots("summary", "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"table-s1-more [s1 {old['s1']}, s2 {old['s2']}, open {old['open']}]" in proc.stdout
    # Lopaka's records of the same bot are not refused for counts of Glitzerhaus's steps
    lopaka = tmp_path / "lopaka-table-vs-random.jsonl"
    lopaka.write_text(json.dumps({"seed": 1, "variant": "lopaka", "first": "table", "second": "random",
                                  "first_as_A": 1, "second_as_A": 0, "gain": 0.5, "table_setup": old}) + "\n")
    proc = bots("play", "--variant", "lopaka", "--pairs", "table:random", "--deals", "1", "--out", tmp_path)
    assert proc.returncode == 0 and "0 deals to play" in proc.stderr, proc.stderr


def test_a_second_game_with_the_first_games_setup_is_not_played_again_and_its_margin_is_the_same(monkeypatch):
    """table against table-low: where the table bot's setup is the low-cards one in both games
    (deal 1), the second game is the first (same setup, same play), so bots.games does not play
    it; where they differ (deal 3) it plays both.  Either way the margins are the games played out
    in full one by one (bots.margin)."""
    sys.path.insert(0, str(ROOT / "benchmarks/bottleimp"))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bots as bench
    finally:
        del sys.path[:2]
    from scoundrel_solver.bottleimp import Rules, deal
    played = []
    real = bench.play_out_from
    monkeypatch.setattr(bench, "play_out_from", lambda *a: played.append(1) or real(*a))
    for seed, games in ((1, 1), (3, 2)):
        start = deal(seed, Rules("lopaka")).start()
        played.clear()
        got = tuple(bench.end_of(start, g).value() for g in bench.games(start, "table", "table-low", seed))
        assert len(played) == games
        assert got == (bench.margin(start, "table", "table-low", seed), bench.margin(start, "table-low", "table", seed))
    assert seed == 3 and got[0] != got[1]


def test_the_recorded_lines_replay_to_their_margins_and_a_wrong_one_is_one_line(tmp_path):
    path = play(tmp_path)
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(len(r["lines"]) == 2 and r["lines"][0] != r["lines"][1] for r in recs)    # the seats swapped
    proc = bots("verify", "--out", tmp_path)
    assert proc.returncode == 0 and "4 deals verified" in proc.stdout, proc.stderr
    recs[2]["second_as_A"] += 1                      # a margin the line does not reach
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    one_error_line(bots("verify", "--out", tmp_path), "line 3: game 2 replays to")
    recs[2]["second_as_A"] -= 1
    recs[1]["lines"][0] = recs[1]["lines"][0].rsplit(" ", 1)[0]      # a card short: the round unfinished
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    one_error_line(bots("verify", "--out", tmp_path), "line 2: game 1 replays to an unfinished round")
    recs[1]["lines"][0] = "pass 99 1"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    one_error_line(bots("verify", "--out", tmp_path), "line 2: game 1 does not replay")
    recs[1]["lines"] = "pass 1 2"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    one_error_line(bots("verify", "--out", tmp_path), '"lines" is not a list')


def test_setup_dd_values_each_game_after_its_setup_by_independent_solves(tmp_path):
    from scoundrel_solver.bottleimp import Rules, deal
    from scoundrel_solver.bottleimp.engine import Engine
    from scoundrel_solver.bottleimp.notation import parse_line, replay
    path = play(tmp_path)
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    proc = bots("setup-dd", "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    dd = []
    for r in recs:                                  # each game's first play-phase state, solved afresh
        start = deal(r["seed"], Rules("lopaka")).start()
        v = [Engine().value(next(s for s in replay(start, parse_line(x, start.rules)) if not s.in_setup))
             for x in r["lines"]]
        dd.append((v[0] - v[1]) / 2)
    lines = proc.stdout.splitlines()
    assert lines[1].split() == ["the", "setups,", "the", "play", "double", "dummy", f"{statistics.mean(dd):+.2f}",
                                *lines[1].split()[7:]]
    assert lines[2].split()[6] == f"{statistics.mean(r['gain'] for r in recs):+.2f}"     # as played
    assert "4 deals with lines (1-4)" in lines[0]


def test_swings_lists_the_largest_gains_with_each_games_setup_holder_and_values(tmp_path):
    from scoundrel_solver.bottleimp import Rules, deal
    from scoundrel_solver.bottleimp.engine import Engine
    from scoundrel_solver.bottleimp.notation import parse_line, replay
    path = play(tmp_path)
    recs = sorted((json.loads(line) for line in path.read_text().splitlines()), key=lambda r: (-abs(r["gain"]), r["seed"]))
    proc = bots("swings", "--out", tmp_path, "--top", "2")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert "the 2 largest gains of 4 deals with lines" in out[0]
    for k, r in enumerate(recs[:2]):
        assert out[1 + 3 * k] == f"  deal {r['seed']}: gain {r['gain']:+g}"
        start = deal(r["seed"], Rules("lopaka")).start()
        for g, line in enumerate(r["lines"]):
            states = replay(start, parse_line(line, start.rules))
            end, after = states[-1], next(s for s in states if not s.in_setup)
            assert out[2 + 3 * k + g] == (f"    game {g + 1}: {line.split(' | ')[0]}; after it {Engine().value(after):+d} "
                                          f"double dummy; margin {end.value():+d}; the bottle ends with "
                                          f"{end.seats[end.holder]}")
    one_error_line(bots("swings", "--out", tmp_path, "--top", "0"), "--top 0: give 1 or more")
