"""The setup hint's benchmark scripts (issue 61): their records, resume and summary, on tiny runs."""
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from scoundrel_solver.bottleimp import Rules, deal

from clitools import one_error_line
from imp_games import require_slow

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


def test_the_raced_quality_record_is_that_of_two_separate_hints(tmp_path):
    """Raced, the N hint is the 10 N run's checkpoint: its record is the one two runs give."""
    from scoundrel_solver.bottleimp.setuphint import choice_text, setup_hint
    out = tmp_path / "q.jsonl"
    run = script("bench_setup_hint.py", "run", "--variant", "lopaka", "--step", "pass", "--positions", "2",
                 "--samples", "2", "--out", out)
    assert run.returncode == 0, run.stderr
    sys.path.insert(0, str(ROOT / "benchmarks/bottleimp"))
    try:
        from bench_setup_hint import position
    finally:
        sys.path.pop(0)
    for rec in (json.loads(line) for line in out.read_text().splitlines()):
        view = position("lopaka", "pass", rec["seed"])
        small, big = setup_hint(view, samples=2, workers=1), setup_hint(view, samples=20, workers=1)
        assert rec["raced_10x"] is True and rec["seconds"] <= rec["seconds_10x"]
        assert (rec["recommended"], rec["recommended_10x"]) == (choice_text(small.recommended),
                                                                choice_text(big.recommended))
        assert (rec["clear"], rec["clear_10x"]) == (small.clear, big.clear)
        assert rec["figure_10x"] == float(big.candidates[0].mean)


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
    assert "the hint's passes gain" in summary.stdout and "seeing every hand gains" in summary.stdout


def test_the_duplicate_figures_of_the_exchange_are_independent_solves():
    """exchange_hidden_cost.duplicate_figures on deal 3 (the hint passes 22 where A's lowest is 4):
    each gain is the difference of play phases the engine solves here, after each exchange."""
    sys.path.insert(0, str(ROOT / "benchmarks/bottleimp"))
    try:
        from exchange_hidden_cost import duplicate_figures, whole_records
    finally:
        sys.path.pop(0)
    from scoundrel_solver.bottleimp.engine import Engine
    start = deal(3, Rules("lopaka")).start()
    a, b = start.seat_index("A"), start.seat_index("B")
    low_a, low_b = min(start.hands[a]), min(start.hands[b])
    rec = {"seed": 3, "hint_A": 22, "hint_B": sorted(start.hands[b])[1], "low_A": low_a, "low_B": low_b}
    got = duplicate_figures([rec], whole_records({3}))
    engine = Engine()

    def value(pass_a, pass_b):
        return engine.value(start.apply(start.joint_action({a: pass_a, b: pass_b})))

    base = value(low_a, low_b)
    gain_a, gain_b = value(22, low_b) - base, base - value(low_a, rec["hint_B"])
    assert got["hint_A"] == [gain_a] and got["hint_B"] == [gain_b] and got["hint"] == [(gain_a + gain_b) / 2]
    best_a = max(value(c, low_b) for c in start.hands[a]) - base
    best_b = base - min(value(low_a, c) for c in start.hands[b])
    assert got["best"] == [(best_a + best_b) / 2] and gain_a != 0


def test_the_glitzerhaus_setup_figures_are_the_cells_of_independent_solves(tmp_path):
    """The open step's record against the engine's own values of the four open-stack cells, the
    stats file's value of the deal, and the setup hint's choices made again here."""
    from scoundrel_solver.bottleimp.analysis import policy_steps
    from scoundrel_solver.bottleimp.engine import Engine
    from scoundrel_solver.bottleimp.setuphint import setup_hint
    from scoundrel_solver.bottleimp.setupview import setup_view_of
    from scoundrel_solver.bottleimp.state import Reveal

    out = tmp_path / "g.jsonl"
    run = script("glitzerhaus_setup.py", "run", "--step", "open", "--deals", "3", "--samples", "2", "--out", out)
    assert run.returncode == 0, run.stderr
    (rec,) = [json.loads(line) for line in out.read_text().splitlines()]
    start = deal(3, Rules("glitzerhaus")).start()
    steps = policy_steps(start)
    state = start
    for a in steps:
        state = state.apply(a)
    engine = Engine()
    cells = [[engine.value(state.apply(Reveal(a, b))) for b in (1, 2)] for a in (1, 2)]
    assert rec["matrix"] == cells
    stats = json.loads((ROOT / "benchmarks/results/bottleimp/stats/glitzerhaus-classic.jsonl").open().readlines()[2])
    assert stats["seed"] == 3 and rec["value"] == stats["value"]
    hint = {s: setup_hint(setup_view_of(start, steps, i), samples=2, workers=1).recommended for s, i in (("A", 0), ("B", 1))}
    assert (rec["hint_A"], rec["hint_B"]) == (hint["A"], hint["B"])
    assert rec["policy"] == cells[hint["A"] - 1][hint["B"] - 1] and rec["low"] == cells[0][0]
    assert rec["worth_A"] == cells[hint["A"] - 1][0] - cells[0][0]
    assert rec["worth_B"] == cells[0][0] - cells[0][hint["B"] - 1]
    assert rec["hint_cost_A"] >= 0 and rec["hint_cost_B"] >= 0 and rec["low_cost_A"] >= 0
    again = script("glitzerhaus_setup.py", "run", "--step", "open", "--deals", "3", "--samples", "2", "--out", out)
    assert "0 deals to measure" in again.stderr
    summary = script("glitzerhaus_setup.py", "summary", out)
    assert summary.returncode == 0 and "1 deals (3-3)" in summary.stdout, summary.stderr


def _glitzerhaus_setup():
    sys.path.insert(0, str(ROOT / "benchmarks/bottleimp"))
    try:
        import glitzerhaus_setup as gs
    finally:
        sys.path.pop(0)
    return gs


def _highest_bot(asked: list):
    """A stand-in for the table bot's setup: the highest cards (cheap, and never the low-cards
    choice); each question it is asked, ``(seat, setup so far)``, goes to ``asked``."""
    class Highest:
        SETUP_SAMPLES = {"pass": 1, "s1": 1, "s2": 1, "open": 1}
        needs_history = True

        def choose_setup(self, state, seat, start, actions, progress=None):
            asked.append((seat, tuple(actions)))
            return max(state.setup_options(seat))
    return Highest


def test_the_whole_setup_figures_are_the_four_pairings_solved_again(monkeypatch):
    """glitzerhaus_setup.measure_all with a stand-in for the table bot's setup (the highest cards:
    cheap, and never the low-cards choice): each pairing's setup line is the two ways joined seat
    by seat, its value the engine's of the line replayed here, each table choice asked once per
    seat and setup so far, and the worths the differences of the pairings."""
    gs = _glitzerhaus_setup()
    from scoundrel_solver.bottleimp import parse_line, replay
    from scoundrel_solver.bottleimp.bots import low_cards_setup
    from scoundrel_solver.bottleimp.engine import Engine

    asked = []
    Highest = _highest_bot(asked)
    monkeypatch.setattr(gs, "TableBot", Highest)
    rec = gs.measure_all(5)
    start = deal(5, Rules("glitzerhaus")).start()
    engine = Engine()
    for name, ways in (("table_table", "TT"), ("table_low", "TL"), ("low_table", "LT"), ("low_low", "LL")):
        state = start
        for segment in parse_line(rec[name + "_setup"], start.rules):
            (action,) = segment
            want = {seat: max(state.setup_options(seat)) if way == "T" else low_cards_setup(state, seat)
                    for seat, way in enumerate(ways)}
            assert action == state.joint_action(want)
            state = state.apply(action)
        assert state.in_setup is False and rec[name] == engine.value(replay(start, parse_line(rec[name + "_setup"],
                                                                                               start.rules))[-1])
    assert rec["table_table_setup"] != rec["low_low_setup"] and len(asked) == len(set(asked))
    assert rec["worth_A"] == rec["table_low"] - rec["low_low"] and rec["worth_B"] == rec["low_low"] - rec["low_table"]
    assert any("both as the table bot" in line for line in gs.summary_lines([rec, {**rec, "seed": 6}]))


@pytest.mark.slow
def test_a_stack_steps_worth_is_the_open_stack_game_after_the_hints_choice(tmp_path, request):
    """The s2 record: each seat's hint choice (made again here) against the opponent's low-cards
    one, then the open-stack game solved here, less the all-low-cards value."""
    require_slow(request)
    from scoundrel_solver.bottleimp.exchange import solve_zero_sum
    from scoundrel_solver.bottleimp.engine import Engine
    from scoundrel_solver.bottleimp.policy import low_cards_setup
    from scoundrel_solver.bottleimp.setuphint import setup_hint
    from scoundrel_solver.bottleimp.setupview import setup_view_of
    from scoundrel_solver.bottleimp.state import Reveal

    out = tmp_path / "s2.jsonl"
    run = script("glitzerhaus_setup.py", "run", "--step", "s2", "--deals", "2", "--samples", "1", "--out", out)
    assert run.returncode == 0, run.stderr
    (rec,) = [json.loads(line) for line in out.read_text().splitlines()]
    start = deal(2, Rules("glitzerhaus")).start()
    first = start.joint_action({0: low_cards_setup(start, 0), 1: low_cards_setup(start, 1)})
    state = start.apply(first)
    engine = Engine()

    def game(choices):
        s = state.apply(state.joint_action(choices))
        return solve_zero_sum([[engine.value(s.apply(Reveal(a, b))) for b in (1, 2)] for a in (1, 2)])[0]
    low = {0: low_cards_setup(state, 0), 1: low_cards_setup(state, 1)}
    base = game(low)
    assert Fraction(rec["low_value"]) == base
    for seat, i in (("A", 0), ("B", 1)):
        choice = setup_hint(setup_view_of(start, [first], i), samples=1, workers=1).recommended
        assert tuple(rec["choice_" + seat]) == choice
        v = game({i: choice, 1 - i: low[1 - i]})
        assert rec["worth_" + seat] == float(v - base if seat == "A" else base - v)


def test_the_race_replayed_on_the_unraced_values_is_the_hints_race(tmp_path):
    """race_schedule.py replays a race on the unraced values: with the hint's schedule it must
    pick what the raced hint picks, and count the cells the raced hint values."""
    sys.path.insert(0, str(ROOT / "benchmarks/bottleimp"))
    try:
        import race_schedule
        from bench_setup_hint import position
    finally:
        sys.path.pop(0)
    from scoundrel_solver.bottleimp.setuphint import choice_text, rounds, setup_hint
    out = tmp_path / "r.jsonl"
    run = script("race_schedule.py", "run", "--variant", "lopaka", "--step", "pass", "--positions", "3",
                 "--samples", "12", "--out", out)
    assert run.returncode == 0, run.stderr
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in recs] == [1, 2, 3]
    for r in recs:
        values = [[Fraction(v) for v in vs] for vs in r["values"]]
        assert len(values) == 11 and all(len(v) == 12 for v in values)
        got, cells = race_schedule.replay(values, r["seat"] == "A", rounds(11, 12))
        raced = setup_hint(position("lopaka", "pass", r["seed"]), samples=12, workers=1)
        assert r["choices"][got] == choice_text(raced.recommended)
        assert cells == sum(c.deals for c in raced.candidates)
        # the hint at fewer deals: the same race on the first deals of the sequence
        got, cells = race_schedule.replay(values, r["seat"] == "A", rounds(11, 4))
        short = setup_hint(position("lopaka", "pass", r["seed"]), samples=4, workers=1)
        assert r["choices"][got] == choice_text(short.recommended)
        assert cells == sum(c.deals for c in short.candidates)
    summary = script("race_schedule.py", "summary", out)
    assert summary.returncode == 0 and "first round 8 (the hint's)" in summary.stdout
    assert "the hint at 4 deals" in summary.stdout and "the hint at 16 deals" not in summary.stdout
    bad = script("race_schedule.py", "run", "--variant", "lopaka", "--step", "s1")
    assert bad.returncode == 2 and "lopaka has no step s1" in bad.stderr


def test_the_latency_script_prints_each_position_and_the_figures():
    run = script("setup_hint_latency.py", "--variant", "lopaka", "--step", "pass", "--positions", "2", "--time", "1",
                 "--workers", "1")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("lopaka pass, 1 s a hint, 1 workers")
    assert lines[1].startswith("  position 1 (A):") and lines[2].startswith("  position 2 (B):")
    assert lines[3].startswith("wall: median") and "deals drawn: median" in lines[3]
    for args, words in ((("--variant", "lopaka", "--step", "s2"), "lopaka has no step s2"),
                        (("--variant", "glitzerhaus", "--step", "s2", "--time", "0"), "take more than 0")):
        bad = script("setup_hint_latency.py", *args)
        assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr


def test_the_guess_bench_compares_the_same_values():
    run = script("bench_setup_guess.py", "--positions", "2", "--deals", "1")
    assert run.returncode == 0, run.stderr
    assert "lopaka pass, 2 positions x 1 deals, the same values: nodes" in run.stdout


def test_the_whole_setup_from_a_duplicate_run_is_the_same_record_with_fewer_hints(monkeypatch, tmp_path):
    """--step all --from-duplicate: the table bot's choices read from a duplicate record's lines
    (its first game at A, its second at B) give the same record as asking the bot, and the bot is
    asked only for what the lines do not hold (table_table's later steps).  A stand-in bot (the
    highest cards) keeps it cheap; a record of another bot's counts gives nothing."""
    gs = _glitzerhaus_setup()
    from scoundrel_solver.bottleimp.bots import LowSetupTableBot, setup_out
    from scoundrel_solver.bottleimp.notation import format_line, line_of

    asked = []
    Highest = _highest_bot(asked)
    monkeypatch.setattr(gs, "TableBot", Highest)
    start = deal(7, Rules("glitzerhaus")).start()
    low = LowSetupTableBot()
    games = [setup_out(start, {0: Highest(), 1: low}), setup_out(start, {0: low, 1: Highest()})]
    rec = {"seed": 7, "variant": "glitzerhaus", "first": "table", "second": "table-low",
           "table_setup": dict(Highest.SETUP_SAMPLES), "lines": [format_line(line_of(start, g)) for g in games]}
    known = gs.known_choices(rec)
    assert len(known) == 6 and {seat for seat, _ in known} == {0, 1}
    asked.clear()
    fresh = gs.measure_all(7)
    all_asked = list(asked)
    asked.clear()
    assert gs.measure_all(7, known) == fresh
    assert asked and set(asked) == set(all_asked) - set(known)      # only what the lines do not hold
    assert gs.known_choices({**rec, "table_setup": {**rec["table_setup"], "s2": 2}}) == {}
    assert gs.known_choices({k: v for k, v in rec.items() if k != "lines"}) == {}
    dup = tmp_path / "dup.jsonl"
    dup.write_text(json.dumps(rec) + "\n")
    assert gs.duplicate_choices(dup) == {7: known}
    follow = script("glitzerhaus_setup.py", "run", "--step", "all", "--deals", "1-6", "--from-duplicate", dup,
                    "--out", tmp_path / "all.jsonl")          # no deal of 1-6 in the file: none measured
    assert follow.returncode == 0 and "6 deals have no record with lines" in follow.stderr, follow.stderr
    assert "0 deals to measure" in follow.stderr and (tmp_path / "all.jsonl").read_text() == ""
    wrong = script("glitzerhaus_setup.py", "run", "--step", "open", "--deals", "1", "--from-duplicate", dup,
                   "--out", tmp_path / "x.jsonl")
    one_error_line(wrong, "--from-duplicate is for --step all")
