"""The setup hint at a real table (issue 61): the deal sampler, the candidates' figures, the race."""
import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from scoundrel_solver.bottleimp import Discard, Pass, Rules, deal
from scoundrel_solver.bottleimp.engine import Engine
from scoundrel_solver.bottleimp.exchange import solve_zero_sum
from scoundrel_solver.bottleimp.policy import low_cards_setup
from scoundrel_solver.bottleimp.setuphint import (Model, SetupHintError, candidate_values, canonical, merge, options,
                                                  rounds, setup_hint, survivors)
from scoundrel_solver.bottleimp.setupview import cut, deal_seeds, draw, draws, places, setup_view_of, view_in
from scoundrel_solver.bottleimp.state import Reveal
from scoundrel_solver.bottleimp.worlds import ViewError
from scoundrel_solver.shuffle import shuffled


def _chi2_critical(df: int, z: float = 3.09) -> float:
    """The chi-square quantile of about 0.999 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _views(variant, seed, seat):
    """The seat's view at every setup step of deal ``seed``, the opponent choosing by the
    low-cards policy and the seat by the first of its options."""
    start = deal(seed, Rules(variant)).start()
    state, actions, out = start, [], []
    while state.in_setup:
        out.append((setup_view_of(start, actions, seat), state))
        choices = {i: (state.setup_options(i)[0] if i == seat else low_cards_setup(state, i))
                   for i in range(len(state.seats)) if state.setup_options(i)}
        action = state.joint_action(choices)
        actions.append(action)
        state = state.apply(action)
    return out


# ------------------------------------------------------------------ the sampler
@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(["lopaka", "glitzerhaus"]), seed=st.integers(0, 10**6), b=st.booleans(),
       first=st.integers(0, 10**4))
def test_every_drawn_deal_fits_what_the_seat_knows(variant, seed, b, first):
    """Every drawn deal is a legal deal at the view's step in which the seat would have seen
    exactly what it saw, the real deal is among the possible ones, and nothing else is fixed."""
    seat = (2 if variant == "lopaka" else 1) if b else 0
    for view, real in _views(variant, seed, seat):
        assert view_in(view, real) == view            # the real deal fits its own view
        for world in draws(view, 3, first):
            assert view_in(view, world) == view
            assert world.step == view.step and world.rules == view.rules
            everything = sorted([c for h in world.hands for c in h] + list(world.devil))
            assert everything == sorted(set(everything)) and len(everything) == 36
            assert world.setup_options(seat) == real.setup_options(seat)   # the seat's own choices
        assert draw(view, first) == draws(view, 1, first)[0]


def test_a_drawn_deal_depends_only_on_the_question():
    """The same knowledge draws the same deals, whatever else the real deal holds."""
    a = deal(5, Rules("lopaka")).start()
    b_hands = (a.hands[0], a.hands[2], a.hands[1])          # Lopaka's and B's hands swapped
    from scoundrel_solver.bottleimp.state import State
    b = State(a.rules, b_hands, a.devil, won=a.won)
    va, vb = setup_view_of(a, [], 0), setup_view_of(b, [], 0)
    assert va == vb and draws(va, 4) == draws(vb, 4)
    assert draws(va, 4) != draws(setup_view_of(a, [], 2), 4)


@pytest.mark.parametrize("sizes", [(2, 2, 1), (1, 3, 1, 1), (3, 2)])
def test_the_cut_of_a_shuffle_lists_every_arrangement_uniformly(sizes):
    """On small setups: every arrangement of the unseen cards into the places is drawn, none
    outside them, and all equally often (chi-square, p about 0.001)."""
    cards = list(range(1, sum(sizes) + 1))
    every = set()
    for perm in itertools.permutations(cards):
        every.add(tuple(cut(list(perm), sizes)))
    view = setup_view_of(deal(3, Rules("lopaka")).start(), [], 0)
    n = 200 * len(every)
    counts = Counter(tuple(cut(shuffled(s, cards), sizes)) for s in deal_seeds(view, n))
    assert set(counts) == every
    expected = n / len(every)
    chi2 = sum((counts[a] - expected) ** 2 / expected for a in every)
    assert chi2 < _chi2_critical(len(every) - 1)


@pytest.mark.parametrize("variant, seat, step", [("lopaka", 0, 0), ("lopaka", 2, 0), ("glitzerhaus", 0, 0),
                                                 ("glitzerhaus", 1, 1), ("glitzerhaus", 0, 2)])
def test_each_unseen_card_lies_in_each_place_as_often_as_its_size_says(variant, seat, step):
    """The real sampler's marginals: an unseen card lies in a place of k of the m unseen
    cards with probability k/m (chi-square over cards and places), and :func:`places` reads
    every drawn deal back to the arrangement it was cut from."""
    view, _ = _views(variant, 11, seat)[step]
    sizes = {}
    for name, size in view.slots():
        key = "Yd" if view.step == 2 and name.startswith("Yd") else name
        sizes[key] = sizes.get(key, 0) + size
    unseen = view.unseen()
    n = 600
    counts = Counter()
    for s, world in zip(deal_seeds(view, n), draws(view, n)):
        placed = places(view, world)
        assert {k: len(v) for k, v in placed.items()} == sizes
        arrangement = cut(shuffled(s, unseen), [n for _, n in view.slots()])
        expect = dict(zip((name for name, _ in view.slots()), arrangement))
        if view.step == 2:
            expect = {"Yd": tuple(sorted(expect.pop("Yd1") + expect.pop("Yd2"))), **expect}
        assert placed == expect
        for name, cards in placed.items():
            for c in cards:
                counts[c, name] += 1
    chi2, df = 0.0, 0
    for c in unseen:
        for name, size in sizes.items():
            expected = n * size / len(unseen)
            chi2 += (counts[c, name] - expected) ** 2 / expected
        df += len(sizes) - 1
    assert chi2 < _chi2_critical(df)


def test_a_setup_view_refuses_the_play_phase_and_the_base_game():
    start = deal(42, Rules("lopaka")).start()
    with pytest.raises(ViewError, match="setup is over"):
        setup_view_of(start, [Pass(1, 18)], 0)
    with pytest.raises(ViewError, match="not a player"):
        setup_view_of(start, [], 1)
    with pytest.raises(ViewError, match="two-player"):
        setup_view_of(deal(1, Rules("base", players=3)).start(), [], 0)


# ------------------------------------------------------------------ the figures
_ENGINE = Engine(14)        # a table of another size than the hint's: an independent solve


def _value(state):
    return _ENGINE.value(state)


def _independent(view, world, choice, opponent):
    """A choice's value in a drawn deal, computed again from the rules and a separate engine."""
    seat, opp = view.seat, view.opponent
    variant = view.rules.variant
    if opponent == "equilibrium":
        if variant == "lopaka":
            a_cards, b_cards = world.hands[0], world.hands[2]
            m = [[_value(world.apply(Pass(a, b))) for b in b_cards] for a in a_cards]
        else:
            a_cards = b_cards = (1, 2)
            m = [[_value(world.apply(Reveal(a, b))) for b in (1, 2)] for a in (1, 2)]
        _, x, y = solve_zero_sum(m)
        if seat == 0:
            return sum(q * m[a_cards.index(choice)][j] for j, q in enumerate(y))
        return sum(p * m[i][b_cards.index(choice)] for i, p in enumerate(x))
    theirs = low_cards_setup(world, opp)
    state = world.apply(world.joint_action({seat: choice, opp: theirs}))
    if not state.in_setup:
        return Fraction(_value(state))
    while state.step < 2:
        state = state.apply(state.joint_action({0: low_cards_setup(state, 0), 1: low_cards_setup(state, 1)}))
    m = [[_value(state.apply(Reveal(a, b))) for b in (1, 2)] for a in (1, 2)]
    return solve_zero_sum(m)[0]


@pytest.mark.parametrize("variant, seed, seat, step, opponent, samples", [
    ("lopaka", 42, 0, 0, "low-cards", 10), ("lopaka", 7, 2, 0, "low-cards", 10),
    ("lopaka", 1, 0, 0, "equilibrium", 1), ("glitzerhaus", 5, 1, 2, "equilibrium", 6),
    ("glitzerhaus", 5, 0, 2, "low-cards", 6)])
def test_each_candidates_figures_are_the_core_values_over_the_same_drawn_deals(variant, seed, seat, step, opponent,
                                                                               samples):
    view, _ = _views(variant, seed, seat)[step]
    hint = setup_hint(view, samples=samples, model=Model(opponent), workers=1)
    assert hint.deals == samples and hint.candidates[0].deals == samples == hint.candidates[1].deals
    worlds = draws(view, samples)
    sign = 1 if view.seat_name == "A" else -1
    assert sorted(c.choice for c in hint.candidates) == sorted(options(view))
    for c in hint.candidates:
        again = [_independent(view, w, c.choice, opponent) for w in worlds[:c.deals]]
        assert list(c.values) == again
        assert c.mean == Fraction(sum(again), len(again))
        if c.deals >= 2:
            assert c.ci95[0] <= c.mean <= c.ci95[1]
    finalists = [c for c in hint.candidates if c.deals == samples]
    assert [c.choice for c in finalists] == [c.choice for c in sorted(
        finalists, key=lambda c: (-sign * c.mean, -c.best_share, options(view).index(c.choice)))]
    # the best share: of the deals each was valued on, where none of those valued there did better
    for c in hint.candidates:
        best = 0
        for d in range(c.deals):
            here = [o.values[d] for o in hint.candidates if o.deals > d]
            best += c.values[d] == (max(here) if sign == 1 else min(here))
        assert c.best_share == Fraction(best, c.deals)


def test_the_candidate_values_of_a_stack_step_are_the_policy_then_the_open_stack_game():
    """Glitzerhaus s1 and s2: a choice, the opponent's low-cards choice, the later steps by the
    named model (low-cards stack 2, the exact open-stack game), checked on one drawn deal."""
    for step, seat in ((0, 0), (1, 1)):
        view, _ = _views("glitzerhaus", 9, seat)[step]
        world = draw(view, 3)
        some = options(view)[::13]
        got = candidate_values(world, seat, some, "low-cards")
        assert got == [_independent(view, world, c, "low-cards") for c in some]


def _view_with_a_pair():
    """A Glitzerhaus s1 view whose stack holds 1 and 2 (one suit, one coin each)."""
    for seed in range(200):
        start = deal(seed, Rules("glitzerhaus")).start()
        if {1, 2} <= set(start.hands[0]):
            return setup_view_of(start, [], 0)
    raise AssertionError("no deal with 1 and 2 in A's stack 1")


def test_merged_choices_are_worth_the_same_in_every_drawn_deal():
    view = _view_with_a_pair()
    classes = merge(view)
    assert sum(len(m) for _, m in classes) == len(options(view)) == 72
    merged = [(rep, m) for rep, m in classes if len(m) > 1]
    assert merged and all(rep == min(m) for rep, m in merged)
    assert (1, 2) in dict(merged) and set(dict(merged)[(1, 2)]) == {(1, 2), (2, 1)}
    # laying 1 down and passing 5 is laying 2 down and passing 5; passing 1 and keeping 2 is not merged
    assert any(set(m) == {(1, 5), (2, 5)} for _, m in merged) or 5 not in draw(view, 0).hands[0]
    assert canonical((5, 1), draw(view, 0).hands[0], view.rules.table) == (5, 1)
    world = draw(view, 0)
    for rep, members in merged[:3]:
        values = candidate_values(world, 0, list(members), "low-cards")
        assert len(set(values)) == 1, (rep, members, values)


def test_lopaka_and_the_open_choice_merge_nothing():
    for variant, step in (("lopaka", 0), ("glitzerhaus", 2)):
        view, _ = _views(variant, 4, 0)[step]
        assert all(len(m) == 1 for _, m in merge(view))


# ------------------------------------------------------------------ the race
def test_the_race_halves_from_a_first_round_and_ends_at_the_count():
    assert rounds(11, 32) == [8, 16, 32]
    assert rounds(72, 16) == [2, 4, 8, 16]
    assert rounds(2, 3) == [3] and rounds(11, 6) == [6] and rounds(11, 12) == [8, 12]


def test_survivors_keep_the_better_half_two_at_least_and_drop_the_clearly_worse():
    values = {0: [10, 12, 11, 10], 1: [0, 1, 0, 2], 2: [9, 13, 10, 11], 3: [10, 12, 11, 9]}
    assert survivors([0, 1, 2, 3], values, True) == [0, 2]            # A: the highest
    assert survivors([0, 1, 2, 3], values, False) == [1, 3]           # B: the lowest
    values = {0: [10, 10, 10, 10], 1: [0, 0, 0, 0], 2: [1, 0, 0, 0]}
    assert survivors([0, 1, 2], values, True) == [0, 2]                # never fewer than two


def test_a_time_budget_gives_the_answer_of_the_count_of_deals_it_drew():
    view = setup_view_of(deal(42, Rules("lopaka")).start(), [], 2)
    timed = setup_hint(view, seconds=1.5, workers=1)
    counted = setup_hint(view, samples=timed.deals, workers=1)
    assert timed.samples is None and counted.samples == timed.deals
    assert [(c.choice, c.values) for c in timed.candidates] == [(c.choice, c.values) for c in counted.candidates]


@pytest.mark.parametrize("variant, seed, seat, step, n, big, workers", [
    ("lopaka", 42, 0, 0, 8, 32, 1),          # the race drops at 8 and 16: the checkpoint at a round's end
    ("lopaka", 9, 2, 0, 16, 40, 2),          # two workers
    ("lopaka", 5, 0, 0, 12, 24, 2),          # inside a round (8 to 16), read in order on a pool
    ("glitzerhaus", 3, 1, 2, 4, 12, 1),      # the open choice: two choices, no race
])
def test_a_checkpoint_is_the_hint_of_that_count_of_deals(variant, seed, seat, step, n, big, workers):
    start = deal(seed, Rules(variant)).start()
    state, actions = start, []
    while state.step < step:
        actions.append(state.joint_action({i: low_cards_setup(state, i) for i in range(len(state.seats))
                                           if state.setup_options(i)}))
        state = state.apply(actions[-1])
    view = setup_view_of(start, actions, seat)
    seen = []
    whole = setup_hint(view, samples=big, workers=workers, checkpoints=(n, big), on_checkpoint=seen.append)
    alone = setup_hint(view, samples=n, workers=workers)
    assert len(seen) == 1 and whole.deals == big        # not at the end: that is the hint returned
    at = seen[0]
    fields = lambda h: (h.seat, h.step, h.choices, h.deals, h.samples, h.difference, h.clear,  # noqa: E731
                        [(c.choice, c.same_as, c.mean, c.ci95, c.best_share, c.deals, c.values) for c in h.candidates])
    assert fields(at) == fields(alone)
    assert at.seconds <= whole.seconds


def test_the_same_question_gets_the_same_answer_with_two_workers():
    view = setup_view_of(deal(8, Rules("lopaka")).start(), [], 0)
    one, two = setup_hint(view, samples=12, workers=1), setup_hint(view, samples=12, workers=2)
    assert [(c.choice, c.values) for c in one.candidates] == [(c.choice, c.values) for c in two.candidates]
    assert one.recommended == two.recommended and one.difference == two.difference


def test_the_recommendation_is_clear_only_when_the_paired_interval_excludes_zero():
    view = setup_view_of(deal(42, Rules("lopaka")).start(), [], 0)
    h = setup_hint(view, samples=16, workers=1)
    lo, hi = h.difference[1]
    assert h.clear == (lo > 0)
    assert h.difference[0] == pytest.approx(float(h.candidates[0].mean - h.candidates[1].mean))


def test_bad_requests_are_one_clear_error():
    view = _views("glitzerhaus", 1, 0)[0][0]
    with pytest.raises(SetupHintError, match="not offered at s1"):
        setup_hint(view, samples=2, model=Model("equilibrium"))
    with pytest.raises(SetupHintError, match="bad opponent model"):
        setup_hint(view, samples=2, model=Model("clever"))
    with pytest.raises(SetupHintError, match="needs a budget"):
        setup_hint(view)


def test_without_the_race_every_choice_is_valued_on_every_deal():
    view = setup_view_of(deal(42, Rules("lopaka")).start(), [], 0)
    full = setup_hint(view, samples=12, workers=1, race=False)
    raced = setup_hint(view, samples=12, workers=1)
    assert all(c.deals == 12 for c in full.candidates) and min(c.deals for c in raced.candidates) == 8
    by_choice = {c.choice: c.values for c in full.candidates}
    assert all(by_choice[c.choice][:c.deals] == c.values for c in raced.candidates)     # the same deals
