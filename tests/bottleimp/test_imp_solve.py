"""The double-dummy analysis (``analysis.py``), its answers and the ``imp solve``/``imp hint`` commands.

Every line printed replays through the rules engine to the printed value and scores; the
matrix games are checked as games (the equilibrium's value between the pure maximin and
minimax, and neither player gains by deviating from it); a stopped search never claims
``exact`` and its bounds hold the true value; the double-dummy bot plays legal cards and,
against itself, reaches the engine's value; every answer validates against the schema.

Two whole Lopaka deals are solved once for the module: 2 (a mixed equilibrium) and 42 (a
saddle point), a few seconds each.
"""
import json
import re
from fractions import Fraction

import pytest

from imp_games import invoke
from scoundrel_solver.bottleimp import Pass, Play, Reveal, Rules, deal, format_line, line_of, parse_line, replay
from scoundrel_solver.bottleimp import analysis
from scoundrel_solver.bottleimp.analysis import (Budget, best_card, exchange_game, explain, hint_cards, hint_setup,
                                                 open_stack_game, option_figures, policy_steps, solve, solve_play)
from scoundrel_solver.bottleimp.answers import hint_json, position_after, solve_json
from scoundrel_solver.bottleimp.bots import DoubleDummyBot, play_out
from scoundrel_solver.bottleimp.engine import Engine
from scoundrel_solver.bottleimp.reference import value as reference_value
from test_imp_cli import check, run_json

LOPAKA, GLITZ = Rules("lopaka"), Rules("glitzerhaus")


def start_of(seed, rules=LOPAKA):
    return deal(seed, rules).start()


def after(seed, moves, rules=LOPAKA):
    return position_after(start_of(seed, rules), moves)[0]


def joined(start, moves, line):
    """``moves`` continued by ``line``: `` | `` between them at a trick boundary, a space inside
    a trick (the line then starts with the rest of the trick, notation §6)."""
    if not moves or not line:
        return moves or line
    inside = replay(start, parse_line(moves, start.rules))[-1].trick
    return moves + (" " if inside else " | ") + line


def replayed(start, moves, line):
    """The final state of ``moves`` continued by ``line``, replayed from ``start`` through the notation."""
    return replay(start, parse_line(joined(start, moves, line), start.rules))[-1]


@pytest.fixture(scope="module")
def fresh():
    return Engine(16)


@pytest.fixture(scope="module")
def deal2():
    return solve(start_of(2), workers=2)


@pytest.fixture(scope="module")
def deal42():
    return solve(start_of(42), workers=2)


# ------------------------------------------------------------ play phase
PLAY_CASES = [
    (42, "pass 1 18", LOPAKA),
    (42, "pass 1 18 | 36", LOPAKA),                      # mid-trick: B to play after Lopaka's card
    (42, "pass 1 18 | 36 37", LOPAKA),
    (3, "pass 15 2 | 6 3 13 | 12 2", Rules("lopaka", cards="matagot")),
    (0, "s1 5/3 4/2 | s2 7/1 10/8 | open 1 2", GLITZ),
    (0, "s1 5/3 4/2 | s2 7/1 10/8 | open 2 1 | 13", GLITZ),
    (0, "s1 5/3 4/2 | s2 7/1 10/8 | open 1 1 | 2 12 18", Rules("glitzerhaus", cards="matagot")),
]


@pytest.mark.parametrize("seed, moves, rules", PLAY_CASES)
def test_a_play_phase_solve_replays_to_its_value(seed, moves, rules, fresh):
    start = start_of(seed, rules)
    state, canonical = position_after(start, moves)
    solved = solve(state)
    assert solved.exact and solved.value == fresh.value(state)
    assert solved.method == analysis.PLAY_METHOD and [p.exact for p in solved.parts] == [True]
    final = replayed(start, canonical, solved.line_text)
    assert final.finished and final.value() == solved.value == solved.line_value
    assert {"A": final.scores()["A"], "B": final.scores()["B"]} == solved.scores
    assert final.seats[final.holder] == solved.holder
    if state.trick:      # the line starts with the rest of the trick
        first = parse_line(solved.line_text, rules)[0]
        assert len(first) == rules.trick_size - len(state.trick)


def test_the_play_phase_equals_the_reference_on_endgames():
    import random
    from imp_games import play_until
    for rules in (LOPAKA, GLITZ):
        for seed in range(3):
            state = play_until(start_of(seed, rules), random.Random(seed), 10)
            solved = solve_play(state)
            assert solved.value == reference_value(state)
            assert solved.final.value() == solved.value


def test_a_finished_round_is_its_own_value():
    from imp_games import random_game
    import random
    start, actions, states = random_game(LOPAKA, 5, random.Random(1))
    solved = solve(states[-1])
    assert solved.exact and solved.value == states[-1].value() and solved.line_text == ""


def test_the_base_game_is_refused():
    with pytest.raises(analysis.NoAnalysis, match="base game"):
        solve(start_of(1, Rules("base")))


def test_a_budget_gives_bounds_that_hold_the_value(fresh):
    state = after(42, "pass 1 18")
    exact = fresh.value(state)
    for nodes in (1, 50, 3_000, 40_000):
        part = solve(state, Budget(nodes))
        assert part.lower <= exact <= part.upper
        if not part.exact:
            assert part.value is None and part.line is None and part.scores is None and part.holder is None
    assert not solve(state, Budget(1)).exact


def test_progress_is_reported_test_by_test():
    seen = []
    solved = solve(after(42, "pass 1 18"), progress=seen.append)
    assert seen and all(p.stage == "play" for p in seen)
    assert seen[-1].lower == seen[-1].upper == solved.value


# ---------------------------------------------------------- matrix games
def check_game(game):
    """The equilibrium is one: probabilities sum to 1, each pure row against B's mix <= value,
    each column against A's mix >= value; the value lies between pure maximin and minimax."""
    value, rows, cols = game.solution
    m = game.matrix
    assert sum(rows) == 1 and sum(cols) == 1 and min(rows) >= 0 and min(cols) >= 0
    for i in range(len(game.rows)):
        assert sum(q * m[i][j] for j, q in enumerate(cols)) <= value
    for j in range(len(game.columns)):
        assert sum(p * m[i][j] for i, p in enumerate(rows)) >= value
    maximin = max(min(r) for r in m)
    minimax = min(max(r[j] for r in m) for j in range(len(game.columns)))
    assert maximin <= value <= minimax
    option, lo, hi = game.pure_best("A")
    assert lo == hi == maximin and min(m[game.rows.index(option)]) == maximin
    option, lo, hi = game.pure_best("B")
    assert lo == hi == minimax and max(r[game.columns.index(option)] for r in m) == minimax
    assert game.value_bounds == (value, value)


@pytest.mark.parametrize("which", ["deal2", "deal42"])
def test_the_exchange_game_of_a_whole_deal(which, request, fresh):
    solved = request.getfixturevalue(which)
    start = solved.state
    game = solved.game
    assert game.kind == "exchange" and game.exact and solved.exact
    assert game.rows == start.hands[0] and game.columns == start.hands[2]
    check_game(game)
    assert solved.value == game.value == solved.lower == solved.upper
    # a few cells against a fresh engine
    for i, j in ((0, 0), (3, 7), (10, 10)):
        assert game.matrix[i][j] == fresh.value(start.apply(Pass(game.rows[i], game.columns[j])))
    # the line follows the most likely pair and replays to that cell's value
    a, b, p = game.pair
    assert solved.choice == Pass(a, b) and solved.line[0] == Pass(a, b)
    final = replayed(start, "", solved.line_text)
    assert final.value() == solved.line_value == game.matrix[game.rows.index(a)][game.columns.index(b)]
    assert {"A": final.scores()["A"], "B": final.scores()["B"]} == solved.scores


def test_deal_2_has_a_mixed_equilibrium(deal2):
    game = deal2.game
    assert deal2.value == Fraction(1319, 19)
    assert game.mixes == {"A": ((1, Fraction(17, 19)), (7, Fraction(2, 19))),
                          "B": ((2, Fraction(2, 19)), (25, Fraction(17, 19)))}
    assert game.pair == (1, 25, Fraction(289, 361))
    assert game.pure_best("A") == (1, 69, 69) and game.pure_best("B") == (2, 73, 73)


def test_deal_42_has_a_saddle_point(deal42):
    assert deal42.value == 32 and deal42.game.pair == (1, 27, 1)


def test_a_budgeted_exchange_holds_every_cell(deal42):
    exact = deal42.game
    part = solve(start_of(42), Budget(200_000), workers=2)
    game = part.game
    assert not part.exact and not game.exact and part.line is None and part.value is None
    assert game.matrix is None and game.solution is None and game.mixes is None and game.pair is None
    for i in range(11):
        for j in range(11):
            assert game.lower[i][j] <= exact.matrix[i][j] <= game.upper[i][j]
    assert part.lower <= exact.value <= part.upper
    option, lo, hi = game.pure_best("A")
    assert option is None and lo <= exact.pure_best("A")[1] <= hi


def test_the_exchange_progress_counts_rows():
    seen = []
    exchange_game(start_of(42), Budget(11_000), progress=seen.append, workers=1)
    assert [p.done for p in seen] == list(range(1, 12)) and {p.total for p in seen} == {11}


def test_the_open_stack_game_mixed():
    start = start_of(37, GLITZ)
    steps = policy_steps(start)
    assert format_line(line_of(start, steps)) == "s1 5/2 13/1 | s2 4/3 11/7"
    state = replayed(start, "s1 5/2 13/1 | s2 4/3 11/7", "")
    game = open_stack_game(state, workers=1)
    assert game.matrix == ((25, 38), (27, 22))
    engine = Engine(16)
    assert game.matrix == tuple(tuple(engine.value(state.apply(Reveal(a, b))) for b in (1, 2)) for a in (1, 2))
    check_game(game)
    assert game.value == Fraction(238, 9)
    assert game.mixes == {"A": ((1, Fraction(5, 18)), (2, Fraction(13, 18))),
                          "B": ((1, Fraction(8, 9)), (2, Fraction(1, 9)))}
    solved = solve(state, workers=1)
    assert solved.exact and solved.method == analysis.OPEN_METHOD and solved.value == Fraction(238, 9)
    assert solved.line[0] == Reveal(2, 1) and solved.line_value == 27
    assert replayed(state, "", solved.line_text).value() == 27


def test_glitzerhaus_setup_by_the_policy_is_never_exact():
    start = start_of(37, GLITZ)
    solved = solve(start, workers=1)
    assert not solved.exact and solved.value == Fraction(238, 9) and solved.lower == solved.upper
    assert solved.method == f"{analysis.POLICY}, then the {analysis.OPEN_METHOD}"
    assert [(p.part, p.exact) for p in solved.parts] == [("discard and pass (s1 and s2)", False),
                                                        ("open stacks", True), ("line", True)]
    assert solved.line_text.startswith("s1 5/2 13/1 | s2 4/3 11/7 | open 2 1 | ")
    assert replayed(start, "", solved.line_text).value() == solved.line_value == 27
    one = solve(replayed(start, "s1 5/2 13/1", ""), workers=1)
    assert [p.part for p in one.parts][0] == "discard and pass (s2)" and not one.exact
    assert one.line_text.startswith("s2 4/3 11/7 | open 2 1")


# ----------------------------------------------------------------- hints
def test_card_hint_exact_and_best_first(fresh):
    for moves in ("pass 1 18", "pass 1 18 | 36"):
        state = after(42, moves)
        h = hint_cards(state, 0)
        assert h.exact and len(h.cards) == len(state.legal_cards())
        for f in h.cards:
            assert f.value == fresh.value(state.apply(Play(f.card)))
        values = [f.value for f in h.cards]
        assert values == sorted(values, reverse=(h.to_play == "A"))
        assert h.best == best_card(state) == h.cards[0].card
        for f, g in zip(h.cards, h.cards[1:]):          # ties: the lowest card first
            assert f.value != g.value or f.card < g.card


def test_card_hint_within_a_tiny_budget_gives_bounds(fresh):
    state = after(42, "pass 1 18")
    h = hint_cards(state, 0, max_nodes=3_000, engine=Engine(16))     # a fresh table: nothing known yet
    assert not h.exact and h.best is None
    for f in h.cards:
        assert f.lower <= fresh.value(state.apply(Play(f.card))) <= f.upper


def test_the_exchange_hint(deal42):
    game = deal42.game
    options = option_figures(game)
    value = game.value
    for seat in ("A", "B"):
        figures = options[seat]
        assert sorted(f.option for f in figures) == list(game.rows if seat == "A" else game.columns)
        for f in figures:
            if seat == "A":
                assert f.against_mix <= value
                assert f.guaranteed_lower == f.guaranteed_upper == min(game.matrix[game.rows.index(f.option)])
            else:
                assert f.against_mix >= value
            if f.probability:
                assert f.against_mix == value
        against = [f.against_mix for f in figures]
        assert against == sorted(against, reverse=(seat == "A"))
    assert options["A"][0].option == 1 and options["B"][0].option == 27


def test_the_open_stack_hint():
    state = replayed(start_of(37, GLITZ), "s1 5/2 13/1 | s2 4/3 11/7", "")
    h = hint_setup(state, 0, workers=1)
    assert h.exact and h.game.matrix == ((25, 38), (27, 22))
    a = {f.option: f for f in h.options["A"]}
    assert a[1].against_mix == a[2].against_mix == Fraction(238, 9)
    assert (a[1].guaranteed_lower, a[2].guaranteed_lower) == (25, 22)
    b = {f.option: f for f in h.options["B"]}
    assert (b[1].guaranteed_upper, b[2].guaranteed_upper) == (27, 38)


def test_no_hint_for_the_discard_steps():
    with pytest.raises(analysis.NoAnalysis, match="s1"):
        hint_setup(start_of(0, GLITZ))


def test_explain_a_worse_card():
    state = after(42, "pass 1 18")
    e = explain(state, 36)
    assert e.best == 21 and e.best_value == 34 and e.card_value == 28 and e.cost == 6
    assert e.card_line[0] == Play(36) and e.best_line[0] == Play(21)
    assert replay(state, line_of(state, e.card_line))[-1].value() == e.card_value
    assert replay(state, line_of(state, e.best_line))[-1].value() == e.best_value
    assert e.diverges_at == e.tricks[-1].number
    assert all(t.best_margin == t.card_margin for t in e.tricks[:-1])
    assert e.tricks[-1].best_margin != e.tricks[-1].card_margin


def test_explain_the_best_card_and_mid_trick():
    state = after(42, "pass 1 18 | 36 37")       # B to play
    best = best_card(state)
    e = explain(state, best)
    assert e.cost == 0 and e.diverges_at is None and e.card_line == e.best_line
    other = next(c for c in state.legal_cards() if c != best)
    e = explain(state, other)
    assert e.tricks[0].number == 1 and len(e.tricks[0].card_cards) == 3
    assert e.cost == e.card_value - e.best_value >= 0          # B: a higher margin is worse
    with pytest.raises(analysis.InputError):
        explain(state, 99)


# -------------------------------------------------------------- the bot
def test_two_double_dummy_bots_reach_the_engine_value(fresh):
    state = after(42, "pass 1 18 | 36")
    actions = play_out(state, {0: DoubleDummyBot(), 2: DoubleDummyBot()})
    end = state
    for a in actions:
        end = end.apply(a)          # checks every card
    assert end.value() == fresh.value(state)
    assert tuple(actions) == solve(state).line


def test_two_double_dummy_bots_from_the_deal(fresh):
    for start in (start_of(42), start_of(37, GLITZ)):
        bots = {i: DoubleDummyBot() for i in range(len(start.seats)) if start.seats[i] != "L"}
        actions = play_out(start, bots)
        setup = [a for a in actions if not isinstance(a, Play)]
        if start.rules.variant == "glitzerhaus":        # the low-cards policy, then stack 1 open
            assert setup == policy_steps(start) + [Reveal(1, 1)]
        state = start
        for a in setup:
            state = state.apply(a)
        end = start
        for a in actions:
            end = end.apply(a)
        assert end.value() == fresh.value(state)


# ------------------------------------------------------------------ JSON
def test_solve_json_of_whole_deals_validates(deal2):
    out = check(solve_json(deal2, deal2.state, "", 2, {k: list(v) for k, v in deal(2, LOPAKA).blocks.items()}))
    assert out["value"] == pytest.approx(1319 / 19) and out["value_fraction"] == "1319/19" and out["exact"] is True
    game = out["game"]
    assert game["value"] == {"fraction": "1319/19", "float": 1319 / 19}
    assert game["equilibrium"]["A"] == [{"option": 1, "probability": {"fraction": "17/19", "float": 17 / 19}},
                                        {"option": 7, "probability": {"fraction": "2/19", "float": 2 / 19}}]
    assert game["maximin"] == {"option": 1, "value": 69, "lower": 69, "upper": 69}
    assert game["pair"]["A"] == 1 and game["pair"]["B"] == 25 and len(game["matrix"]) == 11
    assert out["line"].startswith("pass 1 25 | ") and out["line_value"] == 69


def test_solve_json_with_a_budget_validates():
    part = solve(start_of(42), Budget(30_000), workers=1)
    out = check(solve_json(part, part.state, "", 42, None))
    assert out["exact"] is False and out["value"] is None and out["line"] is None
    assert out["game"]["matrix"] is None and len(out["game"]["lower"]) == 11


def test_hint_json_validates(deal42):
    state = after(42, "pass 1 18")
    out = check(hint_json(hint_cards(state, 0), start_of(42), "pass 1 18", 42, None, explain(state, 36)))
    assert out["kind"] == "cards" and out["best"] == 21 and out["actions"][0] == {
        "card": 21, "value": 34, "lower": 34, "upper": 34, "exact": True}
    assert out["explain"]["cost"] == 6 and out["explain"]["diverges_at"] == 1
    setup = analysis.SetupHint(start_of(42), deal42.game, option_figures(deal42.game), 0)
    out = check(hint_json(setup, start_of(42), "", 42, None))
    assert out["kind"] == "exchange" and out["options"]["A"][0]["option"] == 1


# ------------------------------------------------------------------- CLI
def text_figures(out):
    """The value, the scores, the holder and the line a text answer prints."""
    line = re.search(r"^Line: (.*)$", out, re.M).group(1)
    end = re.search(r"^At the end of the line: A (\S+), B (\S+) \(margin (\S+)\); the bottle ends with (\w+)\.$",
                    out, re.M)
    number = lambda t: int(t.replace("−", "-").replace("+", ""))
    return line, number(end.group(1)), number(end.group(2)), number(end.group(3)), end.group(4)


@pytest.mark.parametrize("args, moves", [
    (["--seed", "42"], "pass 1 18"),
    (["--seed", "42"], "pass 1 18 | 36 37"),
    (["--variant", "glitzerhaus", "--seed", "0", "--cards", "matagot"], "s1 5/3 4/2 | s2 7/1 10/8 | open 1 2 | 2"),
    (["--variant", "glitzerhaus", "--seed", "37"], "s1 5/2 13/1 | s2 4/3 11/7"),
    (["--variant", "glitzerhaus", "--seed", "37"], ""),
])
def test_solve_text_replays(args, moves):
    out = invoke(["imp", "solve", *args, "--moves", moves, "--workers", "1"]).stdout
    line, a, b, margin, holder = text_figures(out)
    rules = Rules(args[1] if args[0] == "--variant" else "lopaka", cards="matagot" if "matagot" in args else "classic")
    seed = int(args[args.index("--seed") + 1])
    final = replayed(start_of(seed, rules), moves, line)
    scores = final.scores()
    assert (scores["A"], scores["B"], final.value()) == (a, b, margin)
    assert {"L": "Lopaka"}.get(final.seats[final.holder], final.seats[final.holder]) == holder
    if "glitzerhaus" in args and "s2" not in moves:
        assert "NOT exact" in out and "low-cards setup policy" in out
    else:
        assert re.search(r"^Value.*: [+−]?\d+", out, re.M) or "Value of the game" in out
    data = run_json("solve", *args, "--moves", moves, "--workers", "1")
    assert data["line"] == line and data["scores"] == {"A": a, "B": b} and data["line_value"] == margin


def test_solve_whole_deal_text_and_json():
    out = invoke(["imp", "solve", "--seed", "42"]).stdout
    assert "The exchange as a matrix game" in out and "Equilibrium: A passes 1 (1); B passes 27 (1)." in out
    assert "Pure maximin (A's best guaranteed pass): 1, +32" in out and "Most likely pair: pass 1 27" in out
    line, a, b, margin, holder = text_figures(out)
    assert replayed(start_of(42), "", line).value() == margin == 32


def test_solve_budget_from_the_command_line():
    data = run_json("solve", "--seed", "42", "--moves", "pass 1 18", "--max-nodes", "500")
    assert data["exact"] is False and data["lower"] <= 34 <= data["upper"] and data["line"] is None
    assert data["parts"] == [{"part": "play", "method": "double-dummy search", "exact": False}]
    out = invoke(["imp", "solve", "--seed", "42", "--moves", "pass 1 18", "--max-nodes", "500"]).stdout
    assert "NOT PROVEN, between" in out and "Line: not known" in out


def test_solve_from_a_position(tmp_path):
    mid = invoke(["imp", "replay", "--seed", "42", "--line", "pass 1 18 | 36 37 31", "--json"]).stdout
    (tmp_path / "mid.json").write_text(mid)
    data = run_json("solve", "--position", str(tmp_path / "mid.json"), "--moves", "32")
    whole = run_json("solve", "--seed", "42", "--moves", "pass 1 18 | 36 37 31 | 32")
    assert data["seed"] is None and data["deal"] is None and data["start"] == json.loads(mid)["position"]
    assert data["moves"] == "32" and data["line"] == whole["line"] and data["value"] == whole["value"]


def test_hint_text_and_explain():
    out = invoke(["imp", "hint", "--seed", "42", "--moves", "pass 1 18", "--explain", "36", "--time", "0"]).stdout
    assert "A to play (aims for the highest margin)" in out and "    21  +34  best" in out
    assert "Every card exact" in out
    assert "Explain 36. A plays 36: margin +28, against +34 after the best card 21; 36 costs A 6." in out
    assert "The margins part after trick 1." in out
    state = after(42, "pass 1 18")
    for label in ("21", "36"):
        line = re.search(rf"^Line after {label}: (.*)$", out, re.M).group(1)
        assert replayed(state, "", line).value() == {"21": 34, "36": 28}[label]
    data = run_json("hint", "--seed", "42", "--moves", "pass 1 18 | 21 37", "--time", "0")
    assert data["to_play"] == "B" and data["exact"] is True and data["best"] == data["actions"][0]["card"]


def test_hint_of_the_open_stacks_from_the_command_line():
    out = invoke(["imp", "hint", "--variant", "glitzerhaus", "--seed", "37", "--moves", "s1 5/2 13/1 | s2 4/3 11/7",
                  "--time", "0", "--workers", "1"]).stdout
    assert "Value of the game (mixed equilibrium): 238/9 (+26.44)" in out
    assert "A's open stacks, best first for A" in out
    data = run_json("hint", "--variant", "glitzerhaus", "--seed", "37", "--moves", "s1 5/2 13/1 | s2 4/3 11/7",
                    "--time", "0", "--workers", "1")
    assert data["kind"] == "open-stack" and data["game"]["value"]["fraction"] == "238/9"


def test_progress_on_a_terminal():
    from clitools import at_a_terminal
    code, out, err = at_a_terminal(["imp", "solve", "--variant", "glitzerhaus", "--seed", "37", "--moves",
                                    "s1 5/2 13/1 | s2 4/3 11/7", "--workers", "1"],
                                   {"SCOUNDREL_PROGRESS_DELAY": "0", "SCOUNDREL_PROGRESS_EVERY": "0"})
    assert code == 0 and b"Value of the game" in out
    assert b"open-stack matrix game: 1/2 rows" in err and err.endswith(b"\r\x1b[K")


def test_play_against_the_double_dummy_bot():
    from test_imp_cli import scripted
    typed, _ = scripted(GLITZ, 37, "A", bot="double-dummy")
    out = invoke(["imp", "play", "--variant", "glitzerhaus", "--seed", "37", "--bot", "double-dummy"],
                 input="\n".join(typed) + "\n").stdout
    assert "bots: B double-dummy" in out and "Round over. Scores:" in out
    line = re.search(r"^Your line: (.*)$", out, re.M).group(1)
    assert replayed(start_of(37, GLITZ), line, "").finished
