"""The depth-1 belief search (``scoundrel_solver.scoundrel.lookahead``) against a brute force.

The brute force is written from the definition, independently of every belief search of the
project: it keeps the **set of orders** of the unseen cards that agree with what the player
has seen (every card order, each equally likely), the player picks at each decision one
action for the whole set (it cannot tell the orders apart), and a deal splits the set by the
row it shows.  That is the exact expectimax over the player's information sets.  With a
``horizon`` h it lets the player see the order after h deals: a set reached after more
than h deals is valued by the mean of each order's exact optimum.

What the depth-1 search computes, tested here with every order enumerated (its next deal and
its depth-0 leaves):

* it **is** the brute force with horizon 1 (the rest of this room and the next room decided
  without seeing the order, the order seen from the deal after), action by action;
* when nothing is hidden after the next deal it is the exact information-set value (the brute
  force without a horizon);
* it lies between the exact value and the depth-0 figure (lexicographically: win chance, then
  mean score), action by action;

and sampled, its next deals are drawn in common (the same orders after every action) and are
seeded by the question, so a decision is the same every time.

The fast paths against the plain ones they replace (the same answers, exactly):

* the C engine's cut-off of the next room's candidates by their bound (``prune``) against
  the engine valuing every candidate in full, action by action, enumerated and sampled;
* ``Depth1Search.choose`` (the global front, the tie rule, the win-chance cut) against the
  first best of ``action_values`` without ``prune``: the same action and the same figure.
"""
from dataclasses import replace
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.scoundrel.beliefsearch import BudgetExceeded, CoreBeliefSearch
from scoundrel_solver.scoundrel.belief import BeliefReference
from scoundrel_solver.scoundrel.cards import parse_cards
from scoundrel_solver.scoundrel.lookahead import MAX_ROOT_UNSEEN, Depth1Search
from scoundrel_solver.scoundrel.rules import Rules
from scoundrel_solver.scoundrel.state import State
from scoundrel_solver.scoundrel.table import TablePosition, known_bottom_after
from scoundrel_solver.scoundrel.valuer import _Valuer

SOLO_RULES = [Rules(flee=f, durability=d) for f in ("classic", "easy", "hard") for d in ("strict", "lenient")]
COOP_RULES = [Rules(mode="coop", durability=d) for d in ("lenient", "strict")]
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
ALL = 10 ** 4        # more than the distinct orders of any dungeon below: every order enumerated


# ------------------------------------------------------------------ the brute force

_VALUERS = {}


def exact_score(state: State) -> int:
    """The exact optimum of a position of perfect information (the core, proven equal to the
    reference solver by tests/scoundrel/test_core.py)."""
    if state.finished:
        return state.score
    valuer = _VALUERS.get(state.rules)
    if valuer is None:
        valuer = _VALUERS[state.rules] = _Valuer(state.rules, tt_mb=16)
    return valuer.value(state)


def _result(score: int) -> tuple:
    return (Fraction(1 if score > 0 else 0), Fraction(score))


def brute_force(pos: TablePosition, horizon=None) -> list:
    """``[(action, (win, mean)), ...]`` of the information-set expectimax (module docstring)
    for every legal action of ``pos``, as exact fractions."""
    worlds = [pos.state(order) for order in permutations(pos.unseen)]   # equally likely

    def node(states, deals):
        s0 = states[0]
        if s0.finished:              # the cards taken are seen: every order ends alike
            return _result(s0.score)
        if len(states) == 1:         # one order agrees with what was seen: the player knows it
            return _result(exact_score(s0))
        if horizon is not None and deals > horizon:
            scores = [exact_score(s) for s in states]
            return (Fraction(sum(s > 0 for s in scores), len(scores)), Fraction(sum(scores), len(scores)))
        return max(action(states, a, deals) for a in s0.legal_actions())

    def action(states, a, deals):
        children = [s.play(a) for s in states]
        dealt = children[0].rooms_done > states[0].rooms_done and not children[0].finished
        groups = {}
        for c in children:           # what the player sees next: the row
            groups.setdefault(c.room, []).append(c)
        w = m = Fraction(0)
        for g in groups.values():
            gw, gm = node(g, deals + (1 if dealt else 0))
            w += gw * len(g)
            m += gm * len(g)
        return (w / len(children), m / len(children))

    return [(a, action(worlds, a, 0)) for a in worlds[0].legal_actions()]


# ------------------------------------------------------------------ positions

@st.composite
def positions(draw, rules: Rules, unseen=(3, 5), bottom=(0, 3)):
    """A real-table position of a tiny dungeon: a random row of 4, ``unseen`` cards hidden,
    ``bottom`` cards known under them (as after an avoid), random health."""
    pool = list(rules.base_order())
    n, b = draw(st.integers(*unseen)), draw(st.integers(*bottom))
    cards = draw(st.lists(st.sampled_from(pool), min_size=4 + n + b, max_size=4 + n + b, unique=True))
    health = draw(st.integers(4, 20))
    heroes = tuple(replace(h, health=health) for h in State.new(tuple(cards), rules).heroes)
    return TablePosition(rules=rules, room=tuple(cards[:4]), heroes=heroes, unseen=tuple(sorted(cards[4:4 + n])),
                         bottom=tuple(cards[4 + n:]))


def _enumerated(rules: Rules) -> Depth1Search:
    return Depth1Search(rules, deals=1, enumerate_deals=ALL, orders=ALL)


def _floats(values) -> list:
    return [(a, (float(w), float(m))) for a, (w, m) in values]


def _approx(values) -> list:
    return [(a, (pytest.approx(w, abs=1e-9), pytest.approx(m, abs=1e-9))) for a, (w, m) in values]


# ------------------------------------------------------------------ the tests

@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES[:1], ids=lambda r: r.describe())
@settings(max_examples=6, **SETTINGS)
@given(data=st.data())
def test_enumerated_depth1_is_the_brute_force_with_horizon_one(rules, data):
    pos = data.draw(positions(rules))
    got = _enumerated(rules).action_values(pos)
    assert got == _approx(_floats(brute_force(pos, horizon=1)))


@pytest.mark.parametrize("rules", SOLO_RULES[:2] + COOP_RULES, ids=lambda r: r.describe())
@settings(max_examples=4, **SETTINGS)
@given(data=st.data())
def test_enumerated_depth1_is_the_c_engines_horizon_one(rules, data):
    """The C engine's own depth-limited search (``horizon=1``, every chance node below the
    horizon enumerated) computes the same figure by another road."""
    pos = data.draw(positions(rules, unseen=(3, 6)))
    c = CoreBeliefSearch(rules, horizon=1, samples=ALL, enumerate_limit=ALL).action_values(pos)
    assert _enumerated(rules).action_values(pos) == _approx(_floats(c))


@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES[:1], ids=lambda r: r.describe())
@settings(max_examples=6, **SETTINGS)
@given(data=st.data())
def test_depth1_is_exact_when_nothing_is_hidden_after_the_next_deal(rules, data):
    """At most 3 unseen cards: the next deal shows them all (a face deals 3, an avoid 4), so
    nothing is left to see later and the figure is the exact information-set value, which
    is also the project's belief reference's."""
    pos = data.draw(positions(rules, unseen=(2, 3), bottom=(0, 4)))
    exact = brute_force(pos)
    assert _enumerated(rules).action_values(pos) == _approx(_floats(exact))
    assert BeliefReference(rules, exact=exact_score).action_values(pos) == exact


def _lex_le(x, y, eps=1e-9) -> bool:
    """``x <= y`` in the ranking's order (win chance, then mean score), up to rounding."""
    return x[0] < y[0] - eps or (abs(x[0] - y[0]) <= eps and x[1] <= y[1] + eps)


@pytest.mark.parametrize("rules", SOLO_RULES[:4], ids=lambda r: r.describe())
@settings(max_examples=5, **SETTINGS)
@given(data=st.data())
def test_depth1_lies_between_the_exact_value_and_depth0(rules, data):
    """Seeing the order later can only help: exact <= depth 1 <= depth 0, action by action,
    in the ranking's order (win chance, then mean score)."""
    pos = data.draw(positions(rules, unseen=(4, 5)))
    exact = dict(_floats(brute_force(pos)))
    d0 = dict(_floats(brute_force(pos, horizon=0)))
    for a, v in _enumerated(rules).action_values(pos):
        assert _lex_le(exact[a], v) and _lex_le(v, d0[a])


def _mid_game(unseen: int, seed: int = 7) -> TablePosition:
    """The table position at the first decision with at most ``unseen`` unseen cards on a
    numbered deal's exact optimal line (the avoided rooms known at the bottom)."""
    from scoundrel_solver import deal, solve
    rules = Rules()
    state, known = State.new(deal(seed, rules), rules), 0
    for a in (a for room in solve(state=state).line for a in room):
        pos = TablePosition.from_state(state, known)
        if len(state.legal_actions()) > 1 and len(pos.unseen) <= unseen:
            return pos
        known = known_bottom_after(state, a, known)
        state = state.play(a)
    raise AssertionError("no such decision")


def test_sampled_next_deals_are_drawn_in_common_and_seeded_by_the_question():
    pos = _mid_game(MAX_ROOT_UNSEEN)
    assert 20 < len(pos.unseen) <= MAX_ROOT_UNSEEN
    a = Depth1Search(pos.rules, deals=3, orders=2, rng_seed=5)
    orders = a.deal_orders(pos)
    assert len(orders) == 3 and all(sorted(o) == sorted(pos.unseen) for o in orders)
    assert a.deal_orders(pos) == orders                                        # every action, every call
    assert Depth1Search(pos.rules, deals=3, orders=2, rng_seed=5).deal_orders(pos) == orders   # any process
    assert Depth1Search(pos.rules, deals=3, orders=2, rng_seed=6).deal_orders(pos) != orders   # the seed
    assert a.sampled


def test_a_sampled_decision_is_the_same_every_time():
    pos = _mid_game(16)
    one = Depth1Search(pos.rules, deals=2, orders=2, rng_seed=3).action_values(pos)
    two = Depth1Search(pos.rules, deals=2, orders=2, rng_seed=3).action_values(pos)
    assert one == two and len(one) == len(pos.state(pos.unseen).legal_actions())


def test_more_unseen_cards_than_the_c_engine_holds_are_refused():
    rules = Rules()
    from scoundrel_solver import deal
    pos = TablePosition.from_state(State.new(deal(1, rules), rules))
    with pytest.raises(BudgetExceeded):
        Depth1Search(rules).action_values(pos)


# ------------------------------------------------------------------ the fast paths

def _first_best(values) -> tuple:
    top = max(v for _, v in values)
    return next(a for a, v in values if v == top), top


def _plain(rules: Rules, **kw) -> Depth1Search:
    return Depth1Search(rules, prune=False, **kw)


@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES, ids=lambda r: r.describe())
@settings(max_examples=8, **SETTINGS)
@given(data=st.data(), horizon=st.sampled_from([0, 1]), samples=st.sampled_from([2, 3, ALL]))
def test_the_c_engines_cut_off_changes_no_value(rules, data, horizon, samples):
    """``prune`` past the horizon gives every action the value it has without it, with the
    orders enumerated (``ALL``) or sampled (2 or 3 of them), and no order ever scores above
    the bound a cut relied on."""
    pos = data.draw(positions(rules, unseen=(3, 6)))
    kw = dict(horizon=horizon, samples=samples, enumerate_limit=samples, common_orders=data.draw(st.booleans()))
    fast = CoreBeliefSearch(rules, prune=True, **kw)
    assert fast.action_values(pos) == CoreBeliefSearch(rules, prune=False, **kw).action_values(pos)
    assert fast.engine.bound_errors == 0


@pytest.mark.parametrize("rules", SOLO_RULES + COOP_RULES[:1], ids=lambda r: r.describe())
@settings(max_examples=8, **SETTINGS)
@given(data=st.data(), deals=st.sampled_from([1, 2, 3]), orders=st.sampled_from([2, 3]),
       enumerate_deals=st.sampled_from([0, ALL]))
def test_choose_is_the_first_best_of_the_plain_action_values(rules, data, deals, orders, enumerate_deals):
    """The same action (ties to the first legal one) and the same figure, to the bit."""
    pos = data.draw(positions(rules, unseen=(3, 6)))
    kw = dict(deals=deals, orders=orders, enumerate_deals=enumerate_deals, rng_seed=data.draw(st.integers(0, 9)))
    fast = Depth1Search(rules, **kw)
    assert fast.choose(pos) == _first_best(_plain(rules, **kw).action_values(pos))
    assert fast.inner.engine.bound_errors == 0


@pytest.mark.parametrize("unseen", [12, 16, 20])
def test_choose_equals_the_plain_search_on_mid_game_positions(unseen):
    """Numbered deals' positions (sampled next deals, more candidates than tiny dungeons
    have): the same action and figure, and the engine's cut-off changes no action's value."""
    pos = _mid_game(unseen)
    kw = dict(deals=3, orders=4, rng_seed=unseen)
    fast = Depth1Search(pos.rules, **kw)
    plain = _plain(pos.rules, **kw)
    values = plain.action_values(pos)
    assert fast.choose(pos) == _first_best(values)
    assert Depth1Search(pos.rules, **kw).action_values(pos) == values
    assert fast.inner.engine.cuts > 0 and fast.inner.engine.bound_errors == 0


def test_a_tie_reached_only_through_a_dominated_end_is_found():
    """The first action of the best value reaches it only through ends off the decision's
    global front (dominated by ends of a later action, worth as much): ``choose`` must value
    them to give the tie to the first action, as ``action_values`` ranks it (a position found
    by a search over tiny dungeons)."""
    rules = Rules()
    hero = replace(State.new(tuple(parse_cards("2C")), rules).heroes[0], health=4)
    pos = TablePosition(rules=rules, room=tuple(parse_cards("5D 4D 2H 3H")), heroes=(hero,),
                        unseen=tuple(parse_cards("2C 3C 4C")), bottom=())
    kw = dict(deals=1, orders=2)
    values = _plain(rules, **kw).action_values(pos)
    top = max(v for _, v in values)
    assert sum(v == top for _, v in values) > 1          # a tie, broken by the rules engine's order
    assert Depth1Search(rules, **kw).choose(pos) == _first_best(values)


def test_a_game_chosen_with_one_search_is_the_plain_searchs():
    """The player's way: one search for a whole game, its memo carried from decision to
    decision (cut-off ends left half valued), against a fresh plain search at each."""
    pos = _mid_game(13, seed=11)
    state = pos.state(pos.unseen)       # one order of the unseen cards: the game played out
    known = len(pos.bottom)
    fast = Depth1Search(pos.rules, deals=2, orders=3, rng_seed=4)
    decisions = 0
    while not state.finished:
        here = TablePosition.from_state(state, known)
        if len(state.legal_actions()) > 1:
            got = fast.choose(here)
            assert got == _first_best(_plain(pos.rules, deals=2, orders=3, rng_seed=4).action_values(here))
            action = got[0]
            decisions += 1
        else:
            action = state.legal_actions()[0]
        known = known_bottom_after(state, action, known)
        state = state.play(action)
    assert decisions >= 3
