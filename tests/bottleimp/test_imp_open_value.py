"""The open-stack game's value by a saddle search (:func:`.analysis.open_stack_value`) against
the game of its four cells solved outright (:func:`.exchange.solve_zero_sum`)."""
from fractions import Fraction
from types import SimpleNamespace

from hypothesis import given, settings, strategies as st

from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.analysis import open_stack_value, policy_steps
from scoundrel_solver.bottleimp.engine import Bounds, Engine, Margin
from scoundrel_solver.bottleimp.exchange import solve_zero_sum
from scoundrel_solver.bottleimp.policy import low_cards_setup
from scoundrel_solver.bottleimp.state import Reveal

TOTAL = 9


class _Game:
    """A 2 x 2 game posing as a Glitzerhaus state before ``open``: ``apply(Reveal(a, b))`` is its cell."""

    def __init__(self, matrix):
        self.matrix = matrix
        self.rules = SimpleNamespace(table=SimpleNamespace(total=TOTAL))

    def apply(self, action):
        return (action.a, action.b)


class _Engine:
    """Answers as the core may: exact, fail-soft bounds past the target, or stopped by the budget
    (drawn by hypothesis), always true to the cell."""

    def __init__(self, game, data, stops):
        self.game, self.data, self.stops, self.searches = game, data, stops, 0

    def _stopped(self):
        return self.stops and self.data.draw(st.booleans())

    def bounds(self, cell, budget=None, lower=-TOTAL, upper=TOTAL, guess=0):
        self.searches += 1
        v = self.game.matrix[cell[0] - 1][cell[1] - 1]
        assert lower <= v <= upper and lower <= guess <= upper
        if self._stopped():
            lo = self.data.draw(st.integers(lower, v))
            return Bounds(lo, self.data.draw(st.integers(v, upper)), 1, 0.0)
        return Bounds(v, v, 1, 0.0)

    def test(self, cell, target, budget=None):
        self.searches += 1
        if self._stopped():
            return None
        v = self.game.matrix[cell[0] - 1][cell[1] - 1]
        if v >= target:
            return Margin(self.data.draw(st.integers(target, v)) if self.data else target, TOTAL)
        return Margin(-TOTAL, self.data.draw(st.integers(v, target - 1)) if self.data else target - 1)


cells = st.lists(st.lists(st.integers(-TOTAL, TOTAL), min_size=2, max_size=2), min_size=2, max_size=2)
starts = st.sampled_from([(1, 1), (1, 2), (2, 1), (2, 2)])


@settings(max_examples=400, deadline=None)
@given(cells, starts, st.data())
def test_the_saddle_search_finds_the_value_of_the_whole_game(matrix, start, data):
    """Whatever the first cell and the first guess (a similar state's value: the work changes,
    not the value)."""
    game = _Game(matrix)
    guess = data.draw(st.integers(-2 * TOTAL, 2 * TOTAL))
    value, cell = open_stack_value(game, _Engine(game, data, stops=False), start=start, guess=guess)
    assert value == Margin(solve_zero_sum(matrix)[0], solve_zero_sum(matrix)[0])
    saddles = [(a, b) for a in (1, 2) for b in (1, 2) if _saddle(matrix, a, b)]
    assert cell in saddles if saddles else cell == start


def _saddle(matrix, a, b):
    v = matrix[a - 1][b - 1]
    return v == min(matrix[a - 1]) and v == max(row[b - 1] for row in matrix)


@settings(max_examples=400, deadline=None)
@given(cells, starts, st.data())
def test_a_stopped_saddle_search_gives_bounds_around_the_value(matrix, start, data):
    game = _Game(matrix)
    value, _ = open_stack_value(game, _Engine(game, data, stops=True), start=start)
    true = solve_zero_sum(matrix)[0]
    assert value.lower <= true <= value.upper
    if value.exact:
        assert value.lower == true


def test_a_saddle_point_needs_one_cell_exactly_and_two_tests():
    matrix = [[3, 5], [1, 7]]                       # (1, 1): the least of its row, the most of its column
    game = _Game(matrix)
    engine = _Engine(game, None, stops=False)
    assert open_stack_value(game, engine, start=(1, 1)) == (Margin(3, 3), (1, 1))
    assert engine.searches == 3


def _states_before_open(seed, count):
    """Glitzerhaus states before ``open``: stack 1 by the low-cards policy, then A's first
    ``count`` stack-2 pairs against B's low-cards pair."""
    start = deal(seed, Rules("glitzerhaus")).start()
    state = start.apply(policy_steps(start)[0])
    theirs = low_cards_setup(state, 1)
    return [state.apply(state.joint_action({0: pair, 1: theirs})) for pair in state.setup_options(0)[:count]]


def test_the_saddle_search_equals_the_four_cells_on_real_deals():
    engine, fresh = Engine(), Engine()
    cell = (1, 1)
    for seed in (3, 8):
        for state in _states_before_open(seed, 12):
            matrix = [[fresh.value(state.apply(Reveal(a, b))) for b in (1, 2)] for a in (1, 2)]
            value, cell = open_stack_value(state, engine, start=cell)
            assert value.exact and value.lower == solve_zero_sum(matrix)[0]
            assert isinstance(value.lower, Fraction)
