"""The achievable figure of the real-table hint (issue 25, solver/scoundrel/achievable.py).

A named policy that cannot see the order is played forward after the recommended
action over orders of the unseen cards.  Checked here against the rules engine and
the exact solvers, not against itself:

1. its figures are what playing the same policy over the same orders gives, each
   game driven here through :class:`State` and replayed to its score;
2. per order, a game's score is at most the exact optimum of that order (the
   clairvoyant solve), so the achievable mean is at most the clairvoyant one;
3. over every order, the policy's (win chance, mean score) is at most the exact
   belief value (lexicographically), and equal when the policy is the belief search;
4. the budget is honoured: a small one plays fewer games and says so (a prefix of
   the same games), ``--time 0`` plays the fixed number (``--samples``);
5. the JSON is valid against the schema;
6. bad input stays one line and exit status 2.
"""
import json
import time

import pytest

from clitools import invoke, runner
from scoundrel_solver import Rules, parse_cards, parse_line, solve
from scoundrel_solver.scoundrel.achievable import HINT_EXACT_UNSEEN, HINT_ORDERS, play_policy, policy_name
from scoundrel_solver.cli.main import cli
from scoundrel_solver.errors import InputError
from scoundrel_solver.scoundrel.explain import TablePolicy
from scoundrel_solver.scoundrel.position import make_table_position
from scoundrel_solver.scoundrel.table import TablePosition, known_bottom_after, unseen_orders
from scoundrel_solver.scoundrel.tablehint import table_hint
from scoundrel_solver.scoundrel.valuer import SolveCache
from scoundrel_solver.intervals import mean_ci_t, wilson
from test_schema import check

SLACK = 1.5
ROOM = dict(room=parse_cards("5C 9S 3H TC"), health=(9,), weapon=("8D",), last_kill=(10,))
SMALL = dict(ROOM, unseen=parse_cards("2S 6H 7S 4D"))                  # 24 orders: the belief search is exact
SIX = dict(ROOM, unseen=parse_cards("2S 6H 7S 4D 3S 9C"))              # 720 orders
# avoided rooms known at the bottom, under six unseen cards
BOTTOM = dict(ROOM, unseen=parse_cards("2S 6H 7S 4D 3S 9C"), bottom=parse_cards("8H 2C JC 5H"))
ARGS = ["hint", "--room", "5C 9S 3H TC", "--health", "9", "--weapon", "8D", "--last-kill", "10"]


def _play_here(pos: TablePosition, order, action, rng_seed: int, orders=HINT_ORDERS,
               exact_unseen=HINT_EXACT_UNSEEN):
    """One game driven here, move by move, through the rules engine: the policy is
    asked only what a player sees (the position with the order hidden, the known bottom)."""
    policy = TablePolicy(pos.rules, orders=orders, exact_unseen=exact_unseen, rng_seed=rng_seed)
    state = pos.state(order)
    known = len(pos.bottom)
    moves = []
    a = state.resolve(action)
    while True:
        known = known_bottom_after(state, a, known)
        state = state.play(a)
        moves.append(a)
        if state.finished:
            return moves, state.score
        seen = TablePosition.from_state(state, known)
        assert len(seen.unseen) + len(seen.bottom) == len(state.dungeon)
        a = policy.choose(seen, state)


def _replay(pos: TablePosition, order, moves) -> int:
    state = pos.state(order)
    for m in moves:
        assert m in state.legal_actions()
        state = state.play(m)
    assert state.finished
    return state.score


@pytest.mark.parametrize("where", [SIX, BOTTOM])
def test_the_figure_is_the_policy_played_over_the_same_orders(where):
    pos = make_table_position(Rules(), **where)
    hint = table_hint(pos, samples=10, rng_seed=4, belief_seconds=0, achievable_games=10, cache=SolveCache(10))
    best = hint.actions[0]
    games = best.achievable
    assert games is not None and games.games == 10 and not games.stopped and not games.enumerated
    assert hint.achievable_figure == "sampled_lower_bound" and hint.achievable_planned == 10
    assert all(a.achievable is None for a in hint.actions[1:])       # the recommended action only
    _, orders = unseen_orders(pos.unseen, 10, 4, 10)
    orders = list(orders)
    assert list(games.orders) == orders                             # the hint's own seeded orders
    scores = []
    for k, order in enumerate(orders):
        moves, score = _play_here(pos, order, best.action, 4)
        assert tuple(moves) == games.lines[k]
        assert _replay(pos, order, games.lines[k]) == score == games.scores[k]
        scores.append(score)
    d = check(hint.as_dict())
    top = d["actions"][0]
    wins = sum(s > 0 for s in scores)
    assert top["achievable_games"] == 10 and top["achievable_policy"] == policy_name(HINT_ORDERS, HINT_EXACT_UNSEEN)
    assert top["achievable_win_chance"] == pytest.approx(wins / 10)
    assert top["achievable_win_chance_ci"] == pytest.approx(list(wilson(wins, 10)))
    assert top["achievable_mean_score"] == pytest.approx(sum(scores) / 10)
    assert top["achievable_mean_score_ci"] == pytest.approx(list(mean_ci_t(scores)[1]))
    assert d["figures"]["achievable_mean_score"] == "sampled_lower_bound"
    assert d["figures"]["clairvoyant_win_chance"] == "clairvoyant_upper_bound"
    # the clairvoyant bound of the hint is over the same orders: pairwise at least the policy's
    assert best.clairvoyant_mean_score >= games.mean_score


def test_each_game_scores_at_most_the_clairvoyant_optimum_of_its_order():
    pos = make_table_position(Rules(), **SIX)
    for action in ("9Sw", "avoid", "3H"):
        games = play_policy(pos, parse_line(action)[0][0], games=12, rng_seed=9)
        assert games.games == 12
        clair = []
        for order, score in zip(games.orders, games.scores):
            best = solve(state=pos.state(order).play(games.action)).score
            assert score <= best
            clair.append(best)
        assert games.mean_score <= sum(clair) / len(clair)


def _belief_values(pos):
    hint = table_hint(pos, belief_seconds=60, cache=SolveCache(10))
    assert hint.achievable == "exact"
    return hint, {a.action: (float(a.win_chance), float(a.mean_score)) for a in hint.actions}


def test_over_every_order_the_policy_is_at_most_the_belief_value_and_equal_as_the_belief_policy():
    pos = make_table_position(Rules(), **SMALL)
    hint, exact = _belief_values(pos)
    for action, value in exact.items():
        # exact belief search at every decision: the belief value itself
        same = play_policy(pos, action, games=24, rng_seed=2, exact_unseen=4)
        assert same.enumerated and same.exact and same.games == pos.distinct_orders() == 24
        assert same.win_chance == pytest.approx(value[0], abs=1e-12)
        assert same.mean_score == pytest.approx(value[1], abs=1e-12)
        # a cheaper rule (one clairvoyant order at each decision): at most the belief value
        cheap = play_policy(pos, action, games=24, rng_seed=2, exact_unseen=0, orders=1)
        assert cheap.exact and (cheap.win_chance, cheap.mean_score) <= value
    # the hint itself skips the policy where the belief figure is exact, and says why
    with_games = table_hint(pos, belief_seconds=60, achievable_games=24, cache=SolveCache(10))
    assert with_games.actions[0].achievable is None and with_games.achievable_figure == "none"
    assert with_games.achievable_reason.startswith("not needed")
    check(with_games.as_dict())


def test_a_policy_game_never_sees_the_order():
    # after a take the rest of the room is the same visible position whatever the order
    # below: the policy's next move is the same in every game (the room's cards, one move each)
    pos = make_table_position(Rules(), **SIX)
    for first in ("3H", "5Cb"):
        games = play_policy(pos, parse_line(first)[0][0], games=20, rng_seed=5)
        assert len({g[1] for g in games.lines}) == 1
        rooms = {tuple(sorted(str(c) for c in pos.state(o).play(games.action).play(g[1]).room))
                 for o, g in zip(games.orders, games.lines)}
        assert len(rooms) == 1


def test_a_small_budget_plays_fewer_games_a_prefix_and_says_so():
    pos = make_table_position(Rules(), **dict(ROOM, unseen=parse_cards("2S 6H 7S 4D 3S 9C JC QS 8H 2C QC")))
    t0 = time.perf_counter()
    cut = table_hint(pos, samples=400, rng_seed=3, belief_seconds=0, time_budget=1.0, achievable_games=400,
                     cache=SolveCache(10))
    took = time.perf_counter() - t0
    assert took <= 1.0 + SLACK
    games = cut.actions[0].achievable
    d = check(cut.as_dict())
    assert cut.achievable_stopped and d["achievable_stopped"] and d["achievable_planned"] == 400
    assert games is not None and 1 <= games.games < 400 and games.stopped
    assert d["actions"][0]["achievable_games"] == games.games
    full = play_policy(pos, cut.actions[0].action, games=games.games, rng_seed=3)
    assert full.scores == games.scores and not full.stopped       # the same games: the first of the sequence
    text = invoke([*ARGS, "--unseen", "2S 6H 7S 4D 3S 9C JC QS 8H 2C QC", "--samples", "400", "--time", "1",
                   "--belief-seconds", "0"]).stdout
    assert "achievable by policy belief<=4+clairvoyant-2 (sampled, " in text
    assert " of 400 planned; the 1 s budget stopped the rest)" in text
    assert "clairvoyant bound for" in text


def test_time_0_plays_the_fixed_number_of_games():
    out = invoke([*ARGS, "--unseen", "2S 6H 7S 4D 3S 9C", "--samples", "7", "--time", "0",
                  "--belief-seconds", "0", "--json"]).stdout
    d = check(json.loads(out))
    top = d["actions"][0]
    assert d["budget"] == 0 and top["achievable_games"] == 7 == d["achievable_planned"]
    assert not d["achievable_stopped"] and d["achievable_reason"] is None
    assert d["figures"]["win_chance"] == "none" and d["figures"]["achievable_win_chance"] == "sampled_lower_bound"
    assert all(a["achievable_games"] == 0 and a["achievable_policy"] is None for a in d["actions"][1:])
    # every distinct order when they are at most --samples: exact for the policy, equal interval ends
    every = check(json.loads(invoke([*ARGS, "--unseen", "2S 6H 7S", "--samples", "6", "--time", "0",
                                     "--belief-seconds", "0", "--json"]).stdout))
    top = every["actions"][0]
    assert every["figures"]["achievable_win_chance"] == "lower_bound" and top["achievable_games"] == 6
    assert top["achievable_win_chance_ci"] == [top["achievable_win_chance"]] * 2


def test_per_search_limits_play_no_games_and_say_why():
    d = check(json.loads(invoke([*ARGS, "--unseen", "2S 6H 7S 4D 3S 9C", "--samples", "5", "--max-nodes", "100000",
                                 "--belief-seconds", "0", "--json"]).stdout))
    assert d["budget"] == 0 and d["actions"][0]["achievable_games"] == 0
    assert "--max-nodes" in d["achievable_reason"] and d["figures"]["achievable_win_chance"] == "none"


def test_the_library_default_asks_no_games():
    pos = make_table_position(Rules(), **SIX)
    hint = table_hint(pos, samples=3, belief_seconds=0, cache=SolveCache(10))
    d = check(hint.as_dict())
    assert d["achievable_reason"] == "not asked" and d["achievable_planned"] == 0
    assert d["figures"]["achievable_win_chance"] == "none" and d["actions"][0]["achievable_games"] == 0


@pytest.mark.parametrize("games", [-1, 1.5, True, "3"])
def test_bad_games_are_refused_in_the_library(games):
    pos = make_table_position(Rules(), **SIX)
    with pytest.raises(InputError):
        table_hint(pos, samples=3, belief_seconds=0, achievable_games=games)
    with pytest.raises(InputError):
        play_policy(pos, parse_line("avoid")[0][0], games=games if games != -1 else 0, rng_seed=1)


@pytest.mark.parametrize("extra", [("--samples", "0"), ("--samples", "-2"), ("--samples", "many"),
                                   ("--time", "-1"), ("--time", "soon")])
@pytest.mark.parametrize("as_json", [False, True])
def test_bad_input_stays_one_line(extra, as_json):
    args = [*ARGS, "--unseen", "2S 6H 7S 4D 3S 9C", *extra] + (["--json"] if as_json else [])
    result = runner().invoke(cli, args)
    assert result.exit_code == 2
    if as_json:
        assert result.stderr == "" and len(result.stdout.splitlines()) == 1
        assert json.loads(result.stdout)["type"] == "error"
    else:
        assert result.stdout == "" and len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith("error:")
