"""How the real-table hint shares work across its worlds (tablehint.WORLD_TECHNIQUES, issue 63):
each technique switched on or off, and the table's size, change the work only, never a value.

For a fixed set of worlds (``max_worlds``, no time budget) the hint's answer - every card's
figures and every world's card values - is the same with every technique on, each one off and
all off, and with the tables the hint had before; each world's values are a fresh engine's
without any of them.  The engine's parts: card values from guesses (any guess) and with equal
cards merged are the plain values (the reference's on endgames); a budget on the CPU clock stops
with true bounds.
"""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.bottleimp import Play, Rules, deal
from scoundrel_solver.bottleimp.engine import Budget, Engine
from scoundrel_solver.bottleimp.reference import action_values
from scoundrel_solver.bottleimp import tablehint
from scoundrel_solver.bottleimp.tablehint import WORLD_TECHNIQUES, table_hint
from scoundrel_solver.bottleimp.worlds import view_of, world_order

from imp_games import TWO_PLAYER, game_at, play_until

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
CONFIGS = {"all": dict(), "none": dict(techniques=()), "before": dict(techniques=(), log2_entries=17),
           "tiny": dict(log2_entries=8), "2^20": dict(log2_entries=20)}
CONFIGS.update({f"no-{t}": dict(techniques=tuple(u for u in WORLD_TECHNIQUES if u != t)) for t in WORLD_TECHNIQUES})


@pytest.fixture(autouse=True)
def fresh_engines():
    """Each test starts without the hint's engines of earlier tests (and leaves none behind)."""
    tablehint.use_engine(None)
    yield
    tablehint.use_engine(None)


def view_at(rules, seed, rng_seed, left):
    got = game_at(rules, seed, rng_seed, left, choice=True)
    if got is None:
        return None, None
    start, actions, now = got
    return view_of(start, actions, now.turn), now


def answer(hint):
    return [(f.card, f.mean, f.best_share, f.low, f.high) for f in hint.cards], hint.per_world, hint.worlds_solved


@settings(max_examples=6, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2 ** 32), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from([12, 15, 18, 21]))
def test_every_technique_on_or_off_gives_the_same_hint_over_the_same_worlds(rules, seed, rng_seed, left):
    view, now = view_at(rules, seed, rng_seed, left)
    if view is None:
        return
    answers = {}
    for name, config in CONFIGS.items():
        tablehint.use_engine(None)
        answers[name] = answer(table_hint(view, seconds=0, workers=1, max_worlds=10, floors=False, **config))
    assert all(a == answers["all"] for a in answers.values()), {k: v[0] for k, v in answers.items()}
    # and each world's values are a fresh engine's, card by card
    for index, values in answers["all"][1][:4]:
        world = world_order(view)[index]
        fresh = Engine(log2_entries=16, techniques=["tt", "order", "equiv", "bounds", "ranks", "quick"])
        assert list(values) == [(c, b.lower) for c, b in fresh.card_values(world)]


@pytest.mark.parametrize("rules", TWO_PLAYER[::2], ids=lambda r: r.variant)
def test_the_worlds_of_a_hint_asked_twice_and_after_another_view_are_the_same(rules):
    """The table and the guesses a process keeps from hint to hint (the next move's, another
    view's) change nothing: a hint asked again, and after another view's, is the same."""
    first, _ = view_at(rules, 7, 1, 24)
    other, _ = view_at(rules, 8, 2, 24)
    a = answer(table_hint(first, seconds=0, workers=1, max_worlds=12, floors=False))
    table_hint(other, seconds=0, workers=1, max_worlds=12, floors=False)
    assert answer(table_hint(first, seconds=0, workers=1, max_worlds=12, floors=False)) == a
    tablehint.use_engine(None)
    assert answer(table_hint(first, seconds=0, workers=1, max_worlds=12, floors=False, techniques=())) == a


@settings(max_examples=30, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(3, 14)), guesses=st.lists(st.integers(-130, 130), min_size=12, max_size=12))
def test_card_values_from_any_guesses_with_equal_cards_merged_are_the_references(rules, seed, rng_seed, left,
                                                                                 guesses):
    state = play_until(deal(seed, rules).start(), random.Random(rng_seed), left)
    if state.finished:
        return
    want = [(a.card, v) for a, v in action_values(state)]
    engine = Engine(log2_entries=12)
    start = dict(zip(state.legal_cards(), guesses))
    def moved(card, done):          # a function of the cards valued so far, or None
        return done[-1][1].lower + start[card] // 8 if done and start[card] % 3 else None
    for merge in (False, True):
        for how in (start, moved):
            got = engine.card_values(state, guesses=how, merge=merge)
            assert [(c, b.lower) for c, b in got] == want and all(b.exact for _, b in got)
    distinct = engine.distinct_cards(state)
    assert set(distinct) <= set(state.legal_cards()) and min(state.legal_cards()) in distinct


def test_merged_cards_are_some_and_cost_nothing():
    """Worlds where some of the player's cards are one (the test tests something): their
    searches are skipped, and they take the value of the lowest of them."""
    merged = 0
    for seed in range(1, 40):
        view, _ = view_at(Rules("lopaka"), seed, seed, 27)
        for world in world_order(view)[:5] if view else ():
            engine = Engine(log2_entries=16)
            distinct = engine.distinct_cards(world)
            if len(distinct) == len(world.legal_cards()):
                continue
            merged += 1
            values = engine.card_values(world, merge=True)
            assert all(b.nodes == 0 for c, b in values if c not in distinct)
            assert [(c, b.lower) for c, b in values] == [(c, b.lower) for c, b in Engine(16).card_values(world)]
        if merged >= 3:
            break
    assert merged >= 3


@pytest.mark.parametrize("rules", TWO_PLAYER[::2], ids=lambda r: r.variant)
def test_a_budget_on_the_cpu_clock_stops_with_true_bounds(rules):
    from scoundrel_solver.bottleimp import Pass
    start = deal(3, rules).start()
    state = play_until(start, random.Random(3), 30)
    v = Engine().value(state)
    stopped = 0
    for timeout in (0.0005, 0.002):
        engine = Engine(log2_entries=16)
        b = engine.bounds(state, Budget(timeout=timeout, cpu=True))
        assert b.lower <= v <= b.upper
        stopped += not b.exact
        assert engine.value(state) == v
    assert stopped, "no search was stopped: the test tests nothing"


def test_a_hint_on_the_cpu_clock_solves_a_prefix_of_the_worlds_exactly():
    view, _ = view_at(Rules("lopaka"), 5, 5, 30)
    whole = table_hint(view, seconds=0, workers=1, floors=False)
    tablehint.use_engine(None)
    cut = table_hint(view, seconds=0.05, workers=1, cpu=True)
    assert cut.worlds_solved < whole.worlds_solved and cut.guarantee is None
    assert cut.per_world == whole.per_world[:cut.worlds_solved]
    assert cut.nodes > 0
