"""The belief-state reference (``scoundrel_solver.scoundrel.belief``): what a player who cannot
see the order achieves.

* the chance nodes are exact distributions (probabilities sum to 1, each distinct
  deal as likely as the card orders behind it);
* the value never exceeds the clairvoyant one (the average of exact optima over
  every order of the unseen cards), in win chance and in mean score;
* the policy, *played* over every order of the unseen cards of a small dungeon,
  realises exactly the claimed win chance and mean score;
* with nothing to hide (one class of unseen cards) the value is the exact optimum.
"""
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from math import factorial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.scoundrel.belief import BeliefReference, card_class, draw_sequences, outcomes
from scoundrel_solver.scoundrel.cards import full_pack, parse_cards
from scoundrel_solver.scoundrel.table import TablePosition, known_bottom_after
from scoundrel_solver.scoundrel.valuer import _Valuer
from scoundrel_solver.scoundrel.reference import solve_reference
from scoundrel_solver.scoundrel.rules import Rules
from scoundrel_solver.scoundrel.state import AVOID, Avoid, State

SOLO_RULES = [Rules(flee=f, durability=d) for f in ("classic", "easy", "hard") for d in ("strict", "lenient")]
COOP_RULES = [Rules(mode="coop", durability=d) for d in ("lenient", "strict")]
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def custom(rules: Rules, room: str, unseen: str, health: int = 20) -> TablePosition:
    """A fresh custom dungeon ``room + unseen`` with the order of ``unseen`` hidden."""
    state = State.new(tuple(parse_cards(room + " " + unseen)), rules)
    state = replace(state, heroes=tuple(replace(h, health=health) for h in state.heroes))
    return TablePosition.from_state(state)


_VALUERS = {}


def exact_score(state: State) -> int:
    """The exact optimum of a position of perfect information (the core through one
    table per rule set; the core is proven equal to the reference solver by
    tests/scoundrel/test_core.py)."""
    valuer = _VALUERS.get(state.rules)
    if valuer is None:
        valuer = _VALUERS[state.rules] = _Valuer(state.rules, tt_mb=16)
    return valuer.value(state)


def distinct_orders(cards):
    """Every distinct order of ``cards`` by class, each with one representative card order."""
    by_class = {}
    for c in sorted(cards):
        by_class.setdefault(card_class(c), []).append(c)
    labels = sorted(card_class(c) for c in cards)

    def rec(counts, seq):
        if len(seq) == len(labels):
            used = {k: 0 for k in by_class}
            order = []
            for lab in seq:
                order.append(by_class[lab][used[lab]])
                used[lab] += 1
            yield tuple(order)
            return
        for lab in sorted(counts):
            if counts[lab]:
                counts[lab] -= 1
                yield from rec(counts, seq + [lab])
                counts[lab] += 1
    yield from rec(Counter(labels), [])


def clairvoyant(pos) -> tuple:
    """Win chance and mean of the exact optimum over every (equally likely) distinct order."""
    scores = [exact_score(pos.state(order)) for order in distinct_orders(pos.unseen)]
    n = len(scores)
    return Fraction(sum(s > 0 for s in scores), n), Fraction(sum(scores), n)


def exact_best(state: State):
    """An optimal action of a known position, a take when one is optimal: with the easy
    flee rule an avoid can be optimal at every step of a cycle, and a player who always
    avoided would never finish."""
    values = [(exact_score(state.play(a)), not isinstance(a, Avoid), a) for a in state.legal_actions()]
    top = max(v for v, _, _ in values)
    return max((take, -i, a) for i, (v, take, a) in enumerate(values) if v == top)[2]


def play_policy(belief: BeliefReference, pos) -> tuple:
    """Play the belief policy over every order of ``pos``'s unseen cards; the realised figures."""
    results = []
    for order in distinct_orders(pos.unseen):
        state, known = pos.state(order), len(pos.bottom)
        while not state.finished:
            if len(state.dungeon) > known:     # something is still unseen: act on the belief
                action = belief.best_action(TablePosition.from_state(state, known))
            else:                              # everything is known: play an exact optimum
                action = exact_best(state)
            known = known_bottom_after(state, action, known)
            state = state.play(action)
        results.append(state.score)
    n = len(results)
    return Fraction(sum(s > 0 for s in results), n), Fraction(sum(results), n)


@st.composite
def table_positions(draw, rules: Rules, max_cards: int = 9):
    """A real-table position: a random small dungeon, a random legal prefix (which may
    avoid, so some cards lie known at the bottom), the order of the rest hidden."""
    pool = [c for c in rules.base_order()]
    deck = draw(st.lists(st.sampled_from(pool), min_size=5, max_size=max_cards, unique=True))
    return _after_random_moves(draw, State.new(tuple(deck), rules), 0, 4)


def _after_random_moves(draw, state: State, known: int, most: int):
    """The table position after up to ``most`` random legal moves from ``state``
    (``known`` cards known at its bottom), preferring moves that do not end the
    game; None if the game ended or nothing is left unseen."""
    for _ in range(draw(st.integers(0, most))):
        if state.finished:
            break
        actions = state.legal_actions()
        alive = [a for a in actions if not state.play(a).finished] or actions
        action = draw(st.sampled_from(alive))
        known = known_bottom_after(state, action, known)
        state = state.play(action)
    if state.finished or len(state.dungeon) <= known:
        return None
    return TablePosition.from_state(state, known)


def test_draws_are_exact_distributions():
    unseen = parse_cards("5C 5S 3H 9D 9C")
    for k in range(0, 6):
        draws = list(draw_sequences(unseen, k))
        assert sum(p for p, _, _ in draws) == 1
        for p, cards, rest in draws:
            assert sorted(cards + rest) == sorted(unseen)
            # each distinct class sequence is as likely as its share of the card orders
            orders = factorial(len(unseen)) / factorial(len(unseen) - k)
            classes = Counter(card_class(c) for c in unseen)
            ways = 1
            for c in cards:
                ways *= classes[card_class(c)]
                classes[card_class(c)] -= 1
            assert p == Fraction(ways) / Fraction(orders)
    # 5C and 5S are one class: the first card is "a 5" with probability 2/5
    first = {tuple(map(str, cards)): p for p, cards, _ in draw_sequences(unseen, 1)}
    assert first == {("3H",): Fraction(1, 5), ("9D",): Fraction(1, 5), ("5C",): Fraction(2, 5),
                     ("9C",): Fraction(1, 5)}


def test_outcomes_of_a_take_inside_the_room_see_nothing_new():
    rules = Rules()
    pos = custom(rules, "5D 3S 4H 9C", "2D 7S 8C")
    take = next(a for a in pos.state(pos.unseen).legal_actions() if not isinstance(a, Avoid))
    [(p, node)] = outcomes(pos, take)
    assert p == 1 and isinstance(node, TablePosition) and sorted(node.unseen) == sorted(pos.unseen)


def test_hidden_order_costs_the_player_something():
    """Room 4H 2C 3C 8D, then 5 unseen: 2 of them are AS and KS.  Seeing the order, the
    player knows when to avoid; not seeing it, the player cannot always."""
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    belief = BeliefReference(rules, exact_score)
    achievable, bound = belief.value(pos), clairvoyant(pos)
    assert achievable[0] <= bound[0] and achievable[1] <= bound[1]
    assert achievable < bound
    assert play_policy(belief, pos) == achievable


def test_nothing_hidden_when_the_unseen_cards_are_alike():
    rules = Rules(mode="coop")
    pos = custom(rules, "5D 3S 4H 9C", "5C 5S")
    value = BeliefReference(rules, exact_score).value(pos)
    (score,) = {exact_score(pos.state(o)) for o in distinct_orders(pos.unseen)}
    assert value == (Fraction(score > 0), Fraction(score))


@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES, ids=lambda r: f"{r.mode}-{r.flee}-{r.durability}")
@settings(max_examples=10, **SETTINGS)
@given(data=st.data())
def test_achievable_never_exceeds_clairvoyant_and_the_policy_realises_it(rules, data):
    pos = data.draw(table_positions(rules))
    if pos is None:
        return
    belief = BeliefReference(rules, exact_score)
    value = belief.value(pos)
    bound = clairvoyant(pos)
    assert value[0] <= bound[0] and value[1] <= bound[1], (pos, value, bound)
    assert play_policy(belief, pos) == value, pos
    # every action's value is at most the best, and the best is attained
    values = [v for _, v in belief.action_values(pos)]
    assert max(values) == value


# ------------------------------------------------------------ the fast search

from scoundrel_solver.scoundrel.beliefsearch import BeliefSearch, BudgetExceeded  # noqa: E402


@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES, ids=lambda r: f"{r.mode}-{r.flee}-{r.durability}")
@settings(max_examples=12, **SETTINGS)
@given(data=st.data())
def test_fast_search_equals_the_reference(rules, data):
    """Every action's value, exactly (the same rationals), and so the same ranking and
    the same tie rule, on random mid-room positions with known bottoms."""
    pos = data.draw(table_positions(rules, max_cards=10))
    if pos is None:
        return
    reference = BeliefReference(rules, exact_score)
    fast = BeliefSearch(rules)
    assert fast.action_values(pos) == reference.action_values(pos), pos
    assert fast.value(pos) == reference.value(pos)
    assert fast.best_action(pos) == reference.best_action(pos)


def test_fast_search_on_the_hidden_order_example():
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    fast = BeliefSearch(rules)
    assert fast.action_values(pos) == BeliefReference(rules, exact_score).action_values(pos)
    assert fast.value(pos) < clairvoyant(pos)


def test_budget_stops_the_search_and_says_so():
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    with pytest.raises(BudgetExceeded):
        BeliefSearch(rules, max_beliefs=50).value(pos)
    # a budget large enough completes, with the exact value
    assert BeliefSearch(rules, max_beliefs=10**6).value(pos) == BeliefReference(rules, exact_score).value(pos)


@pytest.mark.parametrize("rules", [Rules(), Rules(flee="easy"), Rules(mode="coop")], ids=str)
def test_depth_limited_is_between_achievable_and_clairvoyant(rules):
    """horizon=h: exact for h deals, clairvoyant (enumerated) below: an upper bound on
    what a player achieves, at most the clairvoyant figure, falling as h grows."""
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC 5S", health=5)
    exact = BeliefSearch(rules).value(pos)
    bound = clairvoyant(pos)
    previous = None
    for h in (0, 1, 2):
        v = BeliefSearch(rules, horizon=h).value(pos)
        assert float(exact[0]) - 1e-9 <= v[0] <= float(bound[0]) + 1e-9
        assert float(exact[1]) - 1e-9 <= v[1] <= float(bound[1]) + 1e-9
        if previous is not None:
            assert v <= (previous[0] + 1e-9, previous[1] + 1e-9)
        previous = v
    # deep enough, the depth-limited search is the exact one
    deep = BeliefSearch(rules, horizon=10).value(pos)
    assert abs(deep[0] - exact[0]) < 1e-9 and abs(deep[1] - exact[1]) < 1e-9


# ------------------------------------------------------------ the table hint

from scoundrel_solver.scoundrel.tablehint import table_hint  # noqa: E402


def test_table_hint_gives_the_achievable_value_and_the_clairvoyant_bound():
    """kind "belief", exact: every action's win_chance/mean_score is the reference's
    belief value; the clairvoyant figures are today's; the recommended action, played
    over every order, realises the claimed figures."""
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    hint = table_hint(pos)
    assert hint.kind == "belief" and hint.exact and hint.achievable == "exact" and hint.depth is None
    reference = BeliefReference(rules, exact_score)
    want = {str(a): v for a, v in reference.action_values(pos)}
    for av in hint.actions:
        assert (av.win_chance, av.mean_score) == want[str(av.action)] and av.exact
        clair = [Fraction(0), Fraction(0)]
        for order in distinct_orders(pos.unseen):
            s = exact_score(pos.state(order).play(av.action))
            clair[0] += s > 0
            clair[1] += s
        n = len(list(distinct_orders(pos.unseen)))
        assert av.clairvoyant_win_chance == pytest.approx(float(clair[0] / n))
        assert av.clairvoyant_mean_score == pytest.approx(float(clair[1] / n))
        assert av.win_chance <= clair[0] / n and av.mean_score <= clair[1] / n
    assert hint.best == reference.best_action(pos)
    assert play_policy(reference, pos) == (hint.actions[0].win_chance, hint.actions[0].mean_score)
    # somewhere the hidden order costs something: achievable below clairvoyant
    assert any(a.mean_score < a.clairvoyant_mean_score - 1e-9 for a in hint.actions)


def test_table_hint_falls_back_to_a_depth_limited_upper_bound():
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    hint = table_hint(pos, max_beliefs=50)        # too few for the exact search (1,655)
    assert hint.kind == "belief" and not hint.exact and hint.achievable == "upper_bound" and hint.depth == 0
    exact = dict((str(a), v) for a, v in BeliefReference(rules, exact_score).action_values(pos))
    for av in hint.actions:
        assert not av.exact
        w, m = exact[str(av.action)]
        assert float(w) - 1e-9 <= av.win_chance <= av.clairvoyant_win_chance + 1e-9
        assert float(m) - 1e-9 <= av.mean_score <= av.clairvoyant_mean_score + 1e-9
    d = hint.as_dict()
    assert d["achievable"] == "upper_bound" and d["depth"] == 0 and d["exact"] is False


def test_table_hint_depth0_compares_actions_on_common_orders():
    """The hint's sampled depth-0 figure is the C engine's with common orders (every
    chance node with the same unseen cards on the same orders, so the actions are
    compared on the same orders: the ranking the belief player measured best with,
    benchmarks/README.md); here per-leaf orders would give 3Cb another figure."""
    from scoundrel_solver.scoundrel.beliefsearch import CoreBeliefSearch
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    hint = table_hint(pos, max_beliefs=50, samples=6, enumerate_limit=6, rng_seed=5)
    assert hint.achievable == "upper_bound" and hint.depth == 0
    got = {str(a.action): (a.win_chance, a.mean_score) for a in hint.actions}

    def engine(common):
        search = CoreBeliefSearch(rules, horizon=0, samples=6, enumerate_limit=6, rng_seed=5, common_orders=common)
        return {str(a): (float(v[0]), float(v[1])) for a, v in search.action_values(pos)}
    common, per_leaf = engine(True), engine(False)
    assert got == common
    assert per_leaf != common


def test_table_hint_without_a_belief_figure_claims_none():
    pos = custom(Rules(), "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    hint = table_hint(pos, max_beliefs=1)
    assert hint.achievable == "none" and not hint.exact
    assert all(a.win_chance is None and a.mean_score is None for a in hint.actions)
    assert all(a.clairvoyant_win_chance is not None for a in hint.actions)


def test_cli_table_hint_names_both_figures():
    import json as _json
    from clitools import invoke
    args = ["hint", "--room", "2H 2C 3C 8D", "--unseen", "AS KS 9H 4D QC", "--health", "5"]
    out = _json.loads(invoke(args + ["--json"], 0).stdout)
    assert out["kind"] == "belief" and out["exact"] is True and out["achievable"] == "exact"
    first = out["actions"][0]
    assert set(first) >= {"win_chance", "mean_score", "clairvoyant_win_chance", "clairvoyant_mean_score"}
    text = invoke(args, 0).stdout
    assert "a player who cannot see the order: win" in text and "seeing the order (clairvoyant bound)" in text


def test_cli_belief_seconds_zero_claims_no_achievable_figure():
    import json as _json
    from clitools import invoke
    out = _json.loads(invoke(["hint", "--room", "2H 2C 3C 8D", "--unseen", "AS KS 9H 4D QC", "--health", "5",
                              "--belief-seconds", "0", "--json"], 0).stdout)
    assert out["achievable"] == "none" and out["exact"] is False
    assert all(a["win_chance"] is None and a["clairvoyant_win_chance"] is not None for a in out["actions"])


# ------------------------------------------------------------ the C engine (solver/scoundrel/_belief.pyx)

from scoundrel_solver.scoundrel.beliefsearch import MAX_UNSEEN, CoreBeliefSearch  # noqa: E402


@st.composite
def avoided_positions(draw, rules: Rules, max_cards: int = 11):
    """A position whose first room was avoided (when the rules allow it), so that four
    cards lie known at the bottom, then a random legal prefix: known bottoms under
    the unseen cards, and under them again after a second avoid (easy flee)."""
    pool = [c for c in rules.base_order()]
    deck = draw(st.lists(st.sampled_from(pool), min_size=9, max_size=max_cards, unique=True))
    state = State.new(tuple(deck), rules)
    known = 0
    if state.can_avoid():
        known = known_bottom_after(state, AVOID, known)
        state = state.play(AVOID)
    return _after_random_moves(draw, state, known, 3)


@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES, ids=lambda r: f"{r.mode}-{r.flee}-{r.durability}")
@settings(max_examples=15, **SETTINGS)
@given(data=st.data())
def test_c_engine_equals_the_reference(rules, data):
    """Every action's value the same rationals as the plain reference's, the same
    value and the same recommended action (tie rule: the first legal action), on
    random small dungeons: room starts, mid-room roots (a random legal prefix), known
    bottoms."""
    pos = data.draw(table_positions(rules, max_cards=10))
    if pos is None:
        return
    reference = BeliefReference(rules, exact_score)
    fast = CoreBeliefSearch(rules)
    assert fast.action_values(pos) == reference.action_values(pos), pos
    assert fast.value(pos) == reference.value(pos)
    assert fast.best_action(pos) == reference.best_action(pos)


@pytest.mark.parametrize("rules", [r for r in SOLO_RULES + COOP_RULES if r.avoid_allowed()],
                         ids=lambda r: f"{r.mode}-{r.flee}-{r.durability}")
@settings(max_examples=8, **SETTINGS)
@given(data=st.data())
def test_c_engine_equals_the_reference_under_known_bottoms(rules, data):
    """As above on positions after an avoid (the avoided row known, in row order, under
    the unseen cards): the row's order decides the future there, and the engine keeps
    it exactly where the next room may be avoided."""
    pos = data.draw(avoided_positions(rules))
    if pos is None:
        return
    reference = BeliefReference(rules, exact_score)
    assert CoreBeliefSearch(rules).action_values(pos) == reference.action_values(pos), pos


@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES, ids=lambda r: f"{r.mode}-{r.flee}-{r.durability}")
@settings(max_examples=5, **SETTINGS)
@given(data=st.data())
def test_c_engine_equals_the_python_search_on_larger_dungeons(rules, data):
    """Up to 12 cards (easy and hard flee 11, co-op 10: the Python search is slow there), against the pure-Python
    search (itself tested equal to the reference above): more rooms, so more chance nodes, memo hits and Pareto
    fronts.  (Hard flee at 12 cards: 2 to 83 CPU-seconds an example of the Python search, 154 s for the test in
    one run; at 11, 6 to 26 s.)"""
    pos = data.draw(table_positions(rules, max_cards=10 if rules.coop else 12 if rules.flee == "classic" else 11))
    if pos is None:
        return
    assert CoreBeliefSearch(rules).action_values(pos) == BeliefSearch(rules).action_values(pos), pos


@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES, ids=lambda r: f"{r.mode}-{r.flee}-{r.durability}")
@settings(max_examples=8, **SETTINGS)
@given(data=st.data())
def test_c_engine_never_exceeds_clairvoyant_and_its_policy_realises_it(rules, data):
    """The achievable value is at most the clairvoyant one, and the C engine's own
    policy, played over every order of the unseen cards, gets exactly the value it
    claims (win chance and mean score)."""
    pos = data.draw(table_positions(rules, max_cards=9))
    if pos is None:
        return
    fast = CoreBeliefSearch(rules)
    value = fast.value(pos)
    bound = clairvoyant(pos)
    assert value[0] <= bound[0] and value[1] <= bound[1], (pos, value, bound)
    assert play_policy(fast, pos) == value, pos


def test_c_engine_on_the_hidden_order_example():
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    fast = CoreBeliefSearch(rules)
    assert fast.action_values(pos) == BeliefReference(rules, exact_score).action_values(pos)
    assert fast.value(pos) < clairvoyant(pos)
    assert play_policy(fast, pos) == fast.value(pos)


def test_c_engine_budget_stops_and_says_so():
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC 5S 7C", health=5)
    with pytest.raises(BudgetExceeded):
        CoreBeliefSearch(rules, max_beliefs=20).action_values(pos)
    with pytest.raises(BudgetExceeded):
        CoreBeliefSearch(rules, timeout=1e-9).value(pos)
    assert CoreBeliefSearch(rules, max_beliefs=10**7).value(pos) == BeliefSearch(rules).value(pos)


def test_c_engine_refuses_more_unseen_cards_than_its_integers_hold():
    rules = Rules()
    deck = " ".join(str(c) for c in rules.base_order()[:4 + MAX_UNSEEN + 1])
    pos = TablePosition.from_state(State.new(tuple(parse_cards(deck)), rules))
    assert len(pos.unseen) == MAX_UNSEEN + 1
    with pytest.raises(BudgetExceeded, match="unseen"):
        CoreBeliefSearch(rules).value(pos)


@pytest.mark.parametrize("rules", [Rules(), Rules(flee="easy"), Rules(mode="coop")], ids=str)
def test_c_engine_depth_limited_equals_the_python_one(rules):
    """horizon=h with every clairvoyant order enumerated: the same figures as the
    Python search's (which values each belief below the horizon, where the C engine
    values the chance node above them over all its orders at once: the same mean),
    between the achievable value and the clairvoyant bound."""
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC 5S", health=5)
    exact = CoreBeliefSearch(rules).value(pos)
    bound = clairvoyant(pos)
    for h in (0, 1, 2, 10):
        py = BeliefSearch(rules, horizon=h).action_values(pos)
        c = CoreBeliefSearch(rules, horizon=h).action_values(pos)
        assert [a for a, _ in py] == [a for a, _ in c]
        for (_, (pw, pm)), (_, (cw, cm)) in zip(py, c):
            assert cw == pytest.approx(pw, abs=1e-9) and cm == pytest.approx(pm, abs=1e-9)
        v = CoreBeliefSearch(rules, horizon=h).value(pos)
        assert float(exact[0]) - 1e-9 <= v[0] <= float(bound[0]) + 1e-9
        assert float(exact[1]) - 1e-9 <= v[1] <= float(bound[1]) + 1e-9
    deep = CoreBeliefSearch(rules, horizon=10).value(pos)
    assert deep[0] == pytest.approx(float(exact[0])) and deep[1] == pytest.approx(float(exact[1]))


def test_c_engine_sampled_clairvoyant_leaves_are_seeded():
    """More distinct orders than the enumeration limit: sampled leaves, said so, and
    the same figures for the same seed."""
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC 5S 7C 6D", health=12)
    a = CoreBeliefSearch(rules, horizon=0, samples=20, enumerate_limit=10, rng_seed=3)
    b = CoreBeliefSearch(rules, horizon=0, samples=20, enumerate_limit=10, rng_seed=3)
    assert a.action_values(pos) == b.action_values(pos) and a.horizon_sampled
    assert not CoreBeliefSearch(rules, horizon=0).horizon_sampled


def _sampled_value(pos, orders, action):
    """The mean over ``orders`` (card codes, one card of each class) of the exact
    optimum after ``action`` with the unseen cards in that order: (win chance, mean)."""
    by_code = {c.index: c for c in full_pack()}
    wins = total = 0
    for order in orders:
        left = Counter(map(card_class, pos.unseen))
        cards = []
        for code in order:
            k = card_class(by_code[code])
            assert left[k] > 0, "an order holds a card that is not unseen"
            left[k] -= 1
            cards.append(next(c for c in pos.unseen if card_class(c) == k and c not in cards))
        score = solve_reference(pos.state(cards).play(action))["score"]
        wins += score > 0
        total += score
    return wins / len(orders), total / len(orders)


@pytest.mark.parametrize("common", [True, False])
def test_c_engine_sampled_orders_are_the_leaf_orders_and_common_ones_are_shared(common):
    """A sampled chance node's clairvoyant value is the mean of the exact optimum
    over ``leaf_orders``; with ``common_orders`` every chance node with the same
    unseen cards draws the same orders (whatever is carried or known below it),
    by default they depend on those known cards too."""
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC 5S 7C 6D", health=12)
    search = CoreBeliefSearch(rules, horizon=0, samples=6, enumerate_limit=6, rng_seed=5, common_orders=common)
    values = dict(search.action_values(pos))
    assert search.horizon_sampled
    unseen = [c.index for c in pos.unseen]
    row = [c.index for c in pos.room]
    # after an avoid the next room is dealt from the unseen cards, the row under them
    orders = search.engine.leaf_orders(unseen, [], row)
    assert len(orders) == 6 and len(set(map(tuple, orders))) > 1
    w, m = _sampled_value(pos, orders, AVOID)
    assert values[AVOID][0] == pytest.approx(w) and values[AVOID][1] == pytest.approx(m)
    carried = search.engine.leaf_orders(unseen, [row[0]], [])
    if common:
        assert carried == orders == search.engine.leaf_orders(unseen)
    else:
        assert carried != orders
    # a different seed draws other orders
    other = CoreBeliefSearch(rules, horizon=0, samples=6, enumerate_limit=6, rng_seed=6, common_orders=common)
    assert other.engine.leaf_orders(unseen, [], row) != orders


def test_table_hint_uses_the_c_engine():
    """The hint's belief figure is the C engine's: its values and its count of
    beliefs (room starts), not the Python search's (every belief, mid-room too)."""
    rules = Rules()
    pos = custom(rules, "2H 2C 3C 8D", "AS KS 9H 4D QC", health=5)
    hint = table_hint(pos)
    fast = CoreBeliefSearch(rules)
    values = dict((str(a), v) for a, v in fast.action_values(pos))
    assert hint.beliefs == fast.beliefs
    assert all((a.win_chance, a.mean_score) == values[str(a.action)] for a in hint.actions)
    python = BeliefSearch(rules)
    python.action_values(pos)
    assert hint.beliefs != python.beliefs
