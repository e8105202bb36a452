"""The real-table hint's opt-in depth-1 figure (``table_hint(lookahead="depth1")``, ``hint --table
--lookahead depth1``; issue 62).

* its figures are :meth:`Depth1Search.action_values`'s, computed here independently on the same
  small positions with the same counts and seed, and the actions are ranked by them (win chance,
  then mean score, then the legal actions' order);
* it is named for what it is, in the JSON and the text: an (estimated) upper bound, never exact,
  never achievable;
* it is absent, with the reason, where the belief figure is exact (it would add nothing) and
  beyond the C engine's reach (more than 33 unseen cards);
* bounded by counts only: the time budget does not change it;
* the JSON answer validates against the schema; bad input is covered by test_bad_input.py and
  test_service_jobs.py (one line, exit status 2; HTTP 400).

Every position here has few unseen cards, so each test takes well under a second.
"""
import json

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clitools import invoke
from scoundrel_solver import schema
from scoundrel_solver.scoundrel.cards import parse_cards
from scoundrel_solver.scoundrel.lookahead import DEFAULT_DEALS, DEFAULT_ORDERS, MAX_ROOT_UNSEEN, Depth1Search
from scoundrel_solver.scoundrel.state import State
from scoundrel_solver.scoundrel.table import TablePosition
from scoundrel_solver.scoundrel.tablehint import table_hint

POOL = parse_cards("4H 3H 5C 5D 5S TS 8S 7H 2D KC 7D 7C 3D TD 2S 5H 4C 6S 8H AC 3S 4D 2H 9H TH 9C KS 9S 9D "
                   "6H TC 8C 6C 6D 7S 3C 8D AS 4S QC QS 2C JS JC")
SMALL = "5D 3S 4H 9C 2D 7S 8H 6S TC"
VALIDATOR = jsonschema.Draft202012Validator(schema())


def small_position(cards) -> TablePosition:
    return TablePosition.from_state(State.new(list(cards)))


def check_figures(pos: TablePosition, hint, deals: int, orders: int, rng_seed: int) -> None:
    """The hint's depth-1 figures are Depth1Search's, and rank the actions."""
    search = Depth1Search(pos.rules, deals=deals, orders=orders, rng_seed=rng_seed)
    want = search.action_values(pos)
    got = {str(a.action): (a.depth1_win_chance, a.depth1_mean_score) for a in hint.actions}
    assert got == {str(a): v for a, v in want}
    legal = [str(a) for a, _ in want]
    ranked = sorted(range(len(want)), key=lambda i: (-want[i][1][0], -want[i][1][1], i))
    assert [str(a.action) for a in hint.actions] == [legal[i] for i in ranked]
    d1 = hint.depth1
    assert d1.figure in ("depth1_estimated_upper_bound", "depth1_upper_bound")
    assert (d1.deals, d1.orders, d1.rng_seed) == (deals, orders, rng_seed)
    assert hint.figures()["depth1_win_chance"] == d1.figure == hint.figures()["depth1_mean_score"]
    # "estimated" exactly when some next deal or some order after it was sampled
    assert d1.sampled == (search.sampled or search.inner.horizon_sampled)
    assert (d1.figure == "depth1_estimated_upper_bound") == d1.sampled
    assert ("an estimated upper bound, not achievable" in d1.description) == d1.sampled
    assert "exact" not in d1.description


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=st.permutations(POOL).map(lambda p: p[:9]), size=st.integers(6, 9),
       deals=st.integers(1, 6), orders=st.integers(1, 6), rng_seed=st.integers(0, 10 ** 6))
def test_the_figures_are_depth1_search_s_and_rank_the_actions(cards, size, deals, orders, rng_seed):
    pos = small_position(cards[:size])
    if pos.state(pos.unseen).finished:
        return
    # belief_seconds=0: no belief figure, so the depth-1 one is computed
    hint = table_hint(pos, samples=8, rng_seed=rng_seed, belief_seconds=0, lookahead="depth1",
                      depth1_deals=deals, depth1_orders=orders)
    check_figures(pos, hint, deals, orders, rng_seed)


def test_co_op():
    from scoundrel_solver.scoundrel.position import make_table_position
    from scoundrel_solver.scoundrel.rules import Rules
    pos = make_table_position(Rules(mode="coop"), parse_cards("5S 9D 2H"), health=(14, 18), weapon=("none", "4D"),
                              last_kill=(), leader=2, unseen=parse_cards("KC 3S 7H 2C JS 8H"))
    hint = table_hint(pos, samples=8, rng_seed=7, belief_seconds=0, lookahead="depth1", depth1_deals=3,
                      depth1_orders=2)
    check_figures(pos, hint, 3, 2, 7)


def test_the_default_counts_are_the_lookahead_module_s():
    pos = small_position(parse_cards(SMALL))
    hint = table_hint(pos, belief_seconds=0, lookahead="depth1")
    check_figures(pos, hint, DEFAULT_DEALS, DEFAULT_ORDERS, 1)


def test_it_is_named_an_estimated_upper_bound_when_sampled():
    pos = small_position(parse_cards(SMALL))          # 5 unseen cards: 120 orders, more than 4 deals
    d1 = table_hint(pos, belief_seconds=0, lookahead="depth1", depth1_deals=4, depth1_orders=3).depth1
    assert d1.sampled and d1.figure == "depth1_estimated_upper_bound"
    assert d1.description == ("depth-1 belief value (sampled: 4 next deals, 3 orders): this room and the next "
                              "decided without seeing the order, the order seen after; an estimated upper "
                              "bound, not achievable")


def test_every_deal_and_order_enumerated_is_an_upper_bound_never_exact():
    pos = small_position(parse_cards("5D 3S 4H 9C 2D 7S"))    # 2 unseen cards: 2 orders
    hint = table_hint(pos, belief_seconds=0, lookahead="depth1", depth1_deals=4, depth1_orders=4)
    d1 = hint.depth1
    assert not d1.sampled and d1.figure == "depth1_upper_bound" and d1.next_deals == 2
    assert "upper bound" in d1.description and "exact" not in d1.description
    assert "not necessarily achievable" in d1.description


def test_absent_when_the_belief_figure_is_exact():
    pos = small_position(parse_cards(SMALL))
    hint = table_hint(pos, lookahead="depth1")
    assert hint.achievable == "exact"
    assert hint.depth1.figure == "none" and "belief search is exact" in hint.depth1.reason
    assert all(a.depth1_win_chance is None and a.depth1_mean_score is None for a in hint.actions)
    # ranked by the exact belief figure, as without the look-ahead
    plain = table_hint(pos)
    assert [a.action for a in hint.actions] == [a.action for a in plain.actions]


def test_absent_beyond_the_c_engine_s_reach():
    pos = small_position(POOL)                        # the whole deck: 40 unseen cards
    assert len(pos.unseen) > MAX_ROOT_UNSEEN
    hint = table_hint(pos, samples=1, belief_seconds=0, max_nodes=2000, lookahead="depth1")
    assert hint.depth1.figure == "none" and str(MAX_ROOT_UNSEEN) in hint.depth1.reason
    assert "reach" in hint.depth1.reason
    assert all(a.depth1_win_chance is None for a in hint.actions)
    assert hint.figures()["depth1_win_chance"] == "none"


def test_not_asked_leaves_the_hint_as_it_was():
    pos = small_position(parse_cards(SMALL))
    hint = table_hint(pos, belief_seconds=0)
    assert hint.lookahead is None and hint.depth1 is None
    assert hint.figures()["depth1_win_chance"] == "none"
    assert hint.as_dict()["depth1"] is None


def test_counts_only_the_time_budget_does_not_change_it():
    pos = small_position(parse_cards(SMALL))
    free = table_hint(pos, belief_seconds=0, lookahead="depth1", depth1_deals=5, depth1_orders=4)
    tight = table_hint(pos, belief_seconds=0, lookahead="depth1", depth1_deals=5, depth1_orders=4,
                       time_budget=0.001)
    assert [(str(a.action), a.depth1_win_chance, a.depth1_mean_score) for a in free.actions] == \
        [(str(a.action), a.depth1_win_chance, a.depth1_mean_score) for a in tight.actions]


def test_the_cli_json_validates_and_the_text_names_the_figure():
    args = ["hint", "--deck", SMALL, "--table", "--belief-seconds", "0", "--lookahead", "depth1",
            "--depth1-deals", "4", "--depth1-orders", "3", "--samples", "8"]
    d = json.loads(invoke([*args, "--json"]).stdout)
    VALIDATOR.validate(d)
    assert d["lookahead"] == "depth1" and d["depth1"]["figure"] == "depth1_estimated_upper_bound"
    assert d["figures"]["depth1_win_chance"] == "depth1_estimated_upper_bound"
    assert all(a["depth1_win_chance"] is not None for a in d["actions"])
    text = invoke(args).stdout
    assert d["depth1"]["description"][1:] in text
    assert "not cut by --time" in text
    # absent (exact belief figure): still valid, and said so
    d = json.loads(invoke(["hint", "--deck", SMALL, "--table", "--lookahead", "depth1", "--json"]).stdout)
    VALIDATOR.validate(d)
    assert d["depth1"]["figure"] == "none" and d["depth1"]["reason"]
    assert "Depth-1 belief value: not given" in invoke(["hint", "--deck", SMALL, "--table", "--lookahead",
                                                        "depth1"]).stdout
    # not asked: null
    d = json.loads(invoke(["hint", "--deck", SMALL, "--table", "--json"]).stdout)
    VALIDATOR.validate(d)
    assert d["lookahead"] is None and d["depth1"] is None


def test_it_tells_its_progress_as_it_goes_and_the_figures_do_not_change(monkeypatch):
    """It may take minutes: ``action_values`` tells after each next-room belief and each action,
    the same figures told or not; ``hint --table --lookahead depth1 --progress`` shows it."""
    pos = small_position(parse_cards(SMALL))
    told = []
    search = Depth1Search(pos.rules, deals=5, orders=4, rng_seed=3)
    got = search.action_values(pos, lambda *t: told.append(t))
    assert got == Depth1Search(pos.rules, deals=5, orders=4, rng_seed=3).action_values(pos)
    n = len(got)
    assert told[-1] == (n, n, search.next_beliefs) and search.next_beliefs > 0
    assert [t for t in told if t[0] == t[1] == n] and all(a <= b for a, b in zip(told, told[1:]))
    assert len(told) == n + search.next_beliefs                 # an action or a belief each
    for name in ("SCOUNDREL_PROGRESS_DELAY", "SCOUNDREL_PROGRESS_EVERY"):
        monkeypatch.setenv(name, "0")
    args = ["hint", "--deck", SMALL, "--table", "--belief-seconds", "0", "--lookahead", "depth1",
            "--depth1-deals", "4", "--depth1-orders", "3", "--samples", "8", "--json"]
    shown = invoke([*args, "--progress"])
    assert "hint: depth-1 figure, " in shown.stderr and "actions valued" in shown.stderr
    assert invoke(args).stderr == ""
