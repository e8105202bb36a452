"""The double-dummy review of a round (``review.py``, ``imp review``, ``/api/imp/review``).

On random deals and random legal lines of both variants and card tables, every ``before`` is
the value of its position (the pure-Python reference on small endgames, a fresh engine
elsewhere), each card's ``after`` is the ``before`` of the next card, losses are never
negative, zero on a best card and the difference of the two values, and the value at the start
of the play, less A's losses, plus B's, is the value at the end; the scores are ``imp replay``'s.
The exchange's and the open stacks' figures equal their matrices solved afresh, cell by cell;
the engine's own principal line loses nothing; a budget gives bounds that hold the exact
figures; the command's text and JSON (schema-valid), its bad input, and the service's answer
(the command's JSON; bad input 400).
"""
import json
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clitools import without
from imp_games import TWO_PLAYER, invoke, random_game, require_slow
from scoundrel_solver.bottleimp import Pass, Play, Reveal, Rules, deal, format_line, line_of, parse_line, replay
from scoundrel_solver.bottleimp.analysis import solve, solve_play
from scoundrel_solver.bottleimp.answers import position_after, replay_answer, review_json
from scoundrel_solver.bottleimp.engine import Budget, Engine
from scoundrel_solver.bottleimp.exchange import solve_zero_sum
from scoundrel_solver.bottleimp.reference import value as reference_value
from scoundrel_solver.bottleimp.review import STACKS_SKIPPED, review
from test_imp_cli import check, run_json

LOPAKA, GLITZ = Rules("lopaka"), Rules("glitzerhaus")
#: a whole Lopaka round of deal 42 (the greedy bots' game)
FULL42 = ("pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8 | 33 11 14 | 35 16 27 | "
          "36 6 15 | 10 13 5 | 3 4 1")
#: a whole Glitzerhaus round of deal 42
GLITZ42 = ("s1 3/1 12/26 | s2 8/4 30/22 | open 1 1 | 21 23 29 14 | 18 25 28 22 | 1 5 2 9 | 26 31 37 13 | "
           "33 11 16 7 | 15 34 20 32 | 35 10 24 27 | 36 6 17 4")
#: the most cards in hand at which the reference values a position here (3 tricks of Lopaka, 2 of Glitzerhaus)
REFERENCE_CARDS = 9


@pytest.fixture(scope="module")
def fresh():
    return Engine(16)


def in_hand(state) -> int:
    return sum(len(h) for h in state.hands)


def check_review(r, engine: Engine):
    """Every figure of an exact review against independent searches and the rules."""
    assert r.exact
    states = r.states
    for k, c in enumerate(r.cards):
        state = states[c.index]
        assert c.seat == state.turn_name and c.card == r.actions[c.index].card
        want = reference_value(state) if in_hand(state) <= REFERENCE_CARDS else engine.value(state)
        assert c.before.value == want, (c, want)
        assert c.after.value == engine.value(states[c.index + 1])
        legal = state.legal_cards()
        assert [card for card, _ in c.values] == list(legal)
        assert c.forced == (len(state.following_cards()) == 1) and c.by_rule == (c.seat == "L")
        if k + 1 < len(r.cards):
            assert c.after == r.cards[k + 1].before
        else:
            assert c.after == r.end_value
        if c.seat == "L":
            assert c.loss is None and c.best == (c.card,) and c.before == c.after
            continue
        pick = max if c.seat == "A" else min
        top = pick(m.value for _, m in c.values)
        assert top == c.before.value
        assert c.best == tuple(card for card, m in c.values if m.value == top) and list(c.best) == sorted(c.best)
        loss = c.before.value - c.after.value if c.seat == "A" else c.after.value - c.before.value
        assert c.loss.value == loss >= 0
        assert (loss == 0) == (c.card in c.best)
    if r.cards:
        assert r.cards[0].before == r.play_value
        total = r.play_value.value - r.total_loss("A").value + r.total_loss("B").value
        assert total == r.end_value.value
    if r.finished:
        assert r.end_value.value == r.margin == r.final.value()
    else:
        assert r.margin is None and r.scores is None
    return r


def replayed_scores(d, line):
    position = replay_answer(d, line)["position"]
    return position.get("scores"), position.get("holder")     # a position in the setup has no holder


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2 ** 20), rng=st.integers(0, 2 ** 20),
       stop=st.one_of(st.none(), st.integers(0, 40)))
def test_a_random_line_reviews_to_the_engine_and_the_reference(fresh, rules, seed, rng, stop):
    start, actions, states = random_game(rules, seed, random.Random(rng), stop)
    d = deal(seed, rules)
    line = format_line(line_of(start, actions))
    r = check_review(review(d, line, workers=1, stacks=False), fresh)     # the stack steps: tests of their own
    assert [c.card for c in r.cards] == [a.card for a in actions if isinstance(a, Play)]
    scores, holder = replayed_scores(d, line)
    assert r.holder == holder
    if r.finished:
        assert r.scores == {"A": scores["A"], "B": scores["B"]}
    setup = [a for a in actions if not isinstance(a, Play)]
    assert [s.action for s in r.setup] == setup
    assert (r.exchange is not None) == any(isinstance(a, Pass) for a in setup)
    assert (r.open_stacks is not None) == any(isinstance(a, Reveal) for a in setup)
    assert all(s.reason == STACKS_SKIPPED and not s.analysed for s in r.setup if s.step in ("s1", "s2"))
    for g in (r.exchange, r.open_stacks):
        if g is not None:
            assert g.played_value == r.play_value
    answer = check(review_json(r, seed, None))
    assert answer["exact"] and answer["line"] == line


def test_the_endgames_are_the_reference_s(fresh):
    """From late positions every ``before`` is the reference's (the property test meets few)."""
    for rules in (LOPAKA, GLITZ, Rules("glitzerhaus", cards="matagot")):
        for seed in range(2):
            start, actions, _ = random_game(rules, seed, random.Random(seed))
            line = format_line(line_of(start, actions))
            r = check_review(review(deal(seed, rules), line, workers=1, stacks=False), fresh)
            late = [c for c in r.cards if in_hand(r.states[c.index]) <= REFERENCE_CARDS]
            assert len(late) >= 8


def test_the_exchange_s_figures_are_its_matrix(fresh):
    d = deal(42, LOPAKA)
    r = review(d, FULL42, workers=1)
    s = d.start()
    rows, cols = s.hands[0], s.hands[2]
    matrix = [[fresh.value(s.apply(Pass(a, b))) for b in cols] for a in rows]
    g = r.exchange
    assert [list(row) for row in g.game.matrix] == matrix
    assert g.game.value == solve_zero_sum(matrix)[0] == Fraction(32)
    i, j = rows.index(1), cols.index(12)
    assert g.played == (1, 12) and g.played_value.value == matrix[i][j] == r.play_value.value
    column = [row[j] for row in matrix]
    a, b = g.seat("A"), g.seat("B")
    assert a.best_value.value == max(column) and a.loss.value == max(column) - matrix[i][j]
    assert a.best == tuple(rows[k] for k, v in enumerate(column) if v == max(column))
    assert b.best_value.value == min(matrix[i]) and b.loss.value == matrix[i][j] - min(matrix[i])
    assert b.best == tuple(cols[k] for k, v in enumerate(matrix[i]) if v == min(matrix[i]))
    assert (a.loss.value, b.loss.value, b.best) == (0, 21, (27, 30))


def test_the_open_stacks_figures_are_their_matrix(fresh):
    d = deal(42, GLITZ)
    r = review(d, GLITZ42, workers=1, stacks=False)
    before_open = r.states[2]
    matrix = [[fresh.value(before_open.apply(Reveal(a, b))) for b in (1, 2)] for a in (1, 2)]
    g = r.open_stacks
    assert [list(row) for row in g.game.matrix] == matrix == [[36, 54], [37, 67]]
    assert g.played == (1, 1) and g.played_value.value == 36
    assert g.seat("A").best == (2,) and g.seat("A").loss.value == 1
    assert g.seat("B").best == (1,) and g.seat("B").loss.value == 0
    assert [s.analysed for s in r.setup] == [False, False, True]


def test_the_engine_s_principal_line_loses_nothing(fresh):
    solved = solve(deal(42, LOPAKA).start(), workers=1)       # a saddle point: pass 1 27
    r = check_review(review(deal(42, LOPAKA), solved.line_text, workers=1), fresh)
    assert r.finished and r.margin == solved.value
    assert all(c.loss is None or c.loss.value == 0 for c in r.cards)
    assert r.total_loss("A").value == r.total_loss("B").value == 0
    assert r.exchange.seat("A").loss.value == r.exchange.seat("B").loss.value == 0
    start = deal(0, GLITZ).start()
    moves = "s1 5/3 4/2 | s2 7/1 10/8 | open 2 1"
    state, _ = position_after(start, moves)
    line = moves + " | " + format_line(line_of(state, solve_play(state).line))
    r = check_review(review(start, line, workers=1), fresh)
    assert r.finished and r.total_loss("A").value == r.total_loss("B").value == 0


def test_a_partial_line_stops_where_it_stops(fresh):
    r = check_review(review(deal(42, LOPAKA), "pass 1 12 | 21 37 31 | 32 30", workers=1), fresh)
    assert [c.card for c in r.cards] == [21, 37, 31, 32, 30] and not r.finished and r.holder is None
    as_actions = review(deal(42, LOPAKA), [Pass(1, 12)] + [Play(c) for c in (21, 37, 31, 32, 30)], workers=1)
    assert as_actions.cards == r.cards and as_actions.exchange.choices == r.exchange.choices
    assert as_actions.exchange.game.matrix == r.exchange.game.matrix
    answer = check(review_json(r, 42))
    last = answer["tricks"][-1]
    assert not last["complete"] and last["winner"] is None and last["coins"] is None
    assert answer["tricks"][0]["complete"] and answer["tricks"][0]["winner"] == "L"
    assert answer["scores"] is None and answer["margin"] is None
    empty = review(deal(42, LOPAKA), "", workers=1)
    assert empty.cards == () and empty.exchange is None and empty.play_value is None and empty.exact
    assert check(review_json(empty, 42))["tricks"] == []
    setup_only = review(deal(0, GLITZ), "s1 5/3 4/2", workers=1)
    assert setup_only.open_stacks is None and [s.step for s in setup_only.setup] == ["s1"]


def test_a_budget_gives_bounds_that_hold_the_exact_figures(fresh):
    exact = review(deal(42, LOPAKA), FULL42, workers=1)
    stopped = review(deal(42, LOPAKA), FULL42, Budget(3000), engine=Engine(14), workers=1)
    assert not stopped.exact
    assert not all(c.exact for c in stopped.cards)
    for want, got in zip(exact.cards, stopped.cards):
        for a, b in ((want.before, got.before), (want.after, got.after)):
            assert b.lower <= a.value <= b.upper
        if want.loss is not None:
            assert got.loss.lower <= want.loss.value <= got.loss.upper and got.loss.lower >= 0
        assert set(got.best) <= set(want.best)
    for seat in "AB":
        assert stopped.total_loss(seat).lower <= exact.total_loss(seat).value <= stopped.total_loss(seat).upper
    g = stopped.exchange
    for seat in "AB":
        assert g.seat(seat).loss.lower <= exact.exchange.seat(seat).loss.value <= g.seat(seat).loss.upper
    answer = check(review_json(stopped, 42))
    assert answer["exact"] is False and answer["total_loss"]["B"] is None
    assert answer["total_loss_lower"]["B"] <= 105 <= answer["total_loss_upper"]["B"]


def test_the_base_game_and_illegal_lines_are_refused():
    from scoundrel_solver.errors import InputError
    with pytest.raises(InputError, match="base game"):
        review(deal(1, Rules("base")), "")
    with pytest.raises(InputError, match="Lopaka plays 37"):
        review(deal(42, LOPAKA), "pass 1 18 | 36 32")


# ------------------------------------------------------------------ the command
def test_the_text_lays_the_round_open():
    out = invoke(["imp", "review", "--seed", "42", "--line", FULL42]).stdout
    lines = out.splitlines()
    assert lines[0] == "Lopaka, deal 42 (classic cards: y yellow, b blue, r red)"
    assert "Trick 2, Lopaka leads:" in lines
    assert "  B      30  +53 \u2192 +84  \u221231  (best: 13)" in lines
    assert "  Lopaka 37  his rule" in lines
    assert "  A       8  +66 \u2192 +66  (forced)" in lines
    assert "  B passed 12: against A's actual pass 1, the best is 27 or 30 (+32); B lost 21 there." in lines
    assert "Round over: A 62, B 0 (margin +62); the bottle ends with Lopaka." in lines
    assert lines[-1] == "Total loss (double dummy): in the play A 96, B 105; in the exchange A 0, B 21."
    glitz = invoke(["imp", "review", "--variant", "glitzerhaus", "--seed", "42", "--line", GLITZ42, "--no-stacks"]).stdout
    assert "not analysed here" in glitz and "  A opened stack 1: against B's actual stack 1, the best is stack 2 (+37); " \
                                      "A lost 1 there." in glitz.splitlines()


def test_forced_means_one_legal_card_for_lopaka_too():
    r = review(deal(42, LOPAKA), FULL42)
    lopaka = [c for c in r.cards if c.by_rule]
    assert lopaka and all(c.seat == "L" for c in lopaka)
    chose = [c for c in lopaka if len(r.states[c.index].following_cards()) > 1]
    assert chose and not any(c.forced for c in chose)       # his rule chose among several legal cards
    obj = review_json(r)
    cards = [c for t in obj["tricks"] for c in t["cards"]]
    assert [c["by_rule"] for c in cards] == [c.seat == "L" for c in r.cards]
    assert [c["forced"] for c in cards] == [c.forced for c in r.cards]


def test_the_setup_s_loss_is_beside_the_play_s():
    r = review(deal(42, LOPAKA), FULL42)
    obj = review_json(r)
    assert obj["total_loss"] == {"A": 96, "B": 105}      # the play's cards only
    assert obj["setup_loss"] == {"A": 0, "B": 21} == {s: obj["exchange"][s]["loss"] for s in "AB"}
    assert review_json(review(deal(42, Rules("glitzerhaus")), ""))["setup_loss"] is None


def stable(obj):
    return without(obj, ("seconds", "nodes"))


@pytest.mark.parametrize("variant, line", [("lopaka", FULL42), ("glitzerhaus", GLITZ42),
                                           ("lopaka", "pass 1 12 | 21 37 31 | 32")])
def test_the_json_is_the_library_s_and_valid(variant, line):
    rules = Rules(variant)
    got = run_json("review", "--variant", variant, "--seed", "42", "--line", line, "--workers", "1")
    d = deal(42, rules)
    want = review_json(review(d, line, workers=1), 42, {k: list(v) for k, v in d.blocks.items()})
    assert stable(got) == stable(want)
    scores = run_json("replay", "--variant", variant, "--seed", "42", "--line", line)["position"].get("scores")
    if got["finished"]:
        assert got["scores"] == {"A": scores["A"], "B": scores["B"]}
        assert got["margin"] == scores["A"] - scores["B"]
    for trick in got["tricks"]:
        for c in trick["cards"]:
            assert {"seat", "card", "before", "after", "loss", "best"} <= set(c)


@pytest.mark.parametrize("args, says", [
    (["--line", "pass 1 18 | 36 32"], "Lopaka plays 37"),
    (["--line", "pass 1"], "pass X Y"),
    (["--variant", "bridge", "--line", ""], "--variant"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    result = invoke(["imp", "review", "--seed", "42", *args], code=2)
    assert result.stdout == "" and result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
    assert says in result.stderr


# ------------------------------------------------------------------ the service
@pytest.fixture(scope="module")
def client():
    httpx = pytest.importorskip("httpx", reason="the test extra installs httpx")
    pytest.importorskip("starlette", reason="the test extra installs starlette")
    pytest.importorskip("uvicorn", reason="the test extra installs uvicorn")
    from scoundrel_solver.web.local import LocalServer
    with LocalServer(["--workers", "1", "--coop-workers", "1", "--max-budget", "20"]) as server:
        with httpx.Client(base_url=server.url, timeout=90) as c:
            yield c


def test_the_service_answers_as_the_command(client):
    params = {"variant": "lopaka", "cards": "classic", "seed": "42", "line": FULL42}
    got = client.get("/api/imp/review", params=params)
    assert got.status_code == 200
    obj = check(got.json())
    want = run_json("review", "--seed", "42", "--line", FULL42, "--workers", "1")
    assert stable(obj) == stable(want)
    assert obj["exact"] and obj["total_loss"] == {"A": 96, "B": 105} and obj["holder"] == "L"
    assert set(client.get("/openapi.json").json()["paths"]["/api/imp/review"]) == {"get", "post"}
    posted = client.post("/api/imp/review", json={"variant": "glitzerhaus", "seed": "42", "line": GLITZ42})
    assert stable(check(posted.json())) == stable(run_json("review", "--variant", "glitzerhaus", "--seed", "42",
                                                           "--line", GLITZ42, "--workers", "1", "--no-stacks"))


@pytest.mark.parametrize("params, argv", [
    ({"seed": "42", "line": "pass 1 18 | 36 32"}, ["--seed", "42", "--line", "pass 1 18 | 36 32"]),
    ({"seed": "42", "line": "pass 1"}, ["--seed", "42", "--line", "pass 1"]),
    ({"variant": "bridge", "seed": "42"}, ["--variant", "bridge", "--seed", "42"]),
    ({"variant": "base", "seed": "42"}, ["--variant", "base", "--seed", "42"]),
])
def test_the_service_s_bad_input_is_400_with_the_command_s_line(client, params, argv):
    got = client.get("/api/imp/review", params=params)
    assert got.status_code == 400
    obj = check(got.json())
    assert obj["error"] == run_json_error(argv)


def run_json_error(argv):
    """The command's error line, as ``scoundrel-solve`` names itself (test_imp_service.py's way)."""
    from click.testing import CliRunner
    from scoundrel_solver.cli.main import cli
    result = CliRunner().invoke(cli, ["imp", "review", *argv, "--json"], prog_name="scoundrel-solve")
    assert result.exit_code == 2
    return json.loads(result.stdout)["error"]


# ------------------------------------------------------------------ the stack steps, in hindsight
def _stack_figures_hold(fresh, k, value_after):
    """The review of stack step ``k`` of GLITZ42 against solves made again by ``fresh``:
    every pair's value (``value_after(state after the pair)``), the best pairs, the loss."""
    from scoundrel_solver.bottleimp.review import stack_review
    d = deal(42, GLITZ)
    start = d.start()
    segments = parse_line(GLITZ42, GLITZ)
    actions = [a for seg in segments for a in seg]
    states = replay(start, segments)
    sr = stack_review(states, actions, k, Budget(), Engine(16))
    state, action = states[k], actions[k]
    assert sr.exact and sr.stack == action.stack
    played = {"A": (action.a_devil, action.a_pass), "B": (action.b_devil, action.b_pass)}
    for seat_index, name in enumerate(("A", "B")):
        c = sr.seat(name)
        other = played["B" if name == "A" else "A"]
        assert c.choice == played[name] and [o for o, _ in c.options] == state.setup_options(seat_index)
        again = {}
        for option, m in c.options:
            after = state.apply(state.joint_action({seat_index: option, 1 - seat_index: other}))
            again[option] = value_after(after)
            assert m.value == again[option], (name, option)
        pick = max if name == "A" else min
        best = pick(again.values())
        assert c.best_value.value == best and c.value.value == again[c.choice]
        assert c.best == tuple(sorted(o for o, v in again.items() if v == best))
        assert c.loss.value == abs(best - again[c.choice]) >= 0
    return sr


def test_a_stack_1_review_is_each_pair_against_the_others_with_the_rest_as_played(fresh):
    segments = parse_line(GLITZ42, GLITZ)
    rest = [a for seg in segments for a in seg][1:3]       # s2 and open, as played

    def value_after(state):
        for a in rest:
            state = state.apply(a)
        return fresh.value(state)
    _stack_figures_hold(fresh, 0, value_after)


@pytest.mark.slow
def test_a_stack_2_review_is_each_pair_against_the_others_then_the_open_stack_game(fresh, request):
    require_slow(request)
    def value_after(state):
        m = [[fresh.value(state.apply(Reveal(a, b))) for b in (1, 2)] for a in (1, 2)]
        return solve_zero_sum(m)[0]
    _stack_figures_hold(fresh, 1, value_after)


@pytest.mark.slow
def test_the_whole_review_of_a_glitzerhaus_round_analyses_every_setup_step(fresh, request):
    require_slow(request)
    r = review(deal(42, GLITZ), GLITZ42, workers=1)
    assert [s.analysed for s in r.setup] == [True, True, True] and len(r.stacks) == 2
    answer = check(review_json(r, 42))
    assert [x["step"] for x in answer["stacks"]] == ["s1", "s2"] and len(answer["stacks"][0]["A"]["options"]) == 72
    loss = r.setup_loss("A")
    assert loss.value == r.open_stacks.seat("A").loss.value + sum(x.seat("A").loss.value for x in r.stacks)
    text = invoke(["imp", "review", "--variant", "glitzerhaus", "--seed", "42", "--line", GLITZ42]).stdout
    assert "Stack 1 (s1 3/1 12/26), in hindsight" in text and "; in stack 1 A " in text.splitlines()[-1]
