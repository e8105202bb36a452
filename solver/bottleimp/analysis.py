"""Double-dummy analysis: solves, matrix games, hints and explanations, on top of the engine.

What ``imp solve`` and ``imp hint`` ask, in the terms of the rules
engine (:mod:`.state`); :mod:`.engine` does the searching, :mod:`.exchange` solves the
matrix games.

* :func:`solve` - the value of a position, or proven bounds when a budget stopped it, with
  the principal line and where it ends (scores, the bottle's holder):

  - a play-phase position (Lopaka or Glitzerhaus, mid-trick too): one search
    (:func:`solve_play`);
  - a Lopaka deal before its exchange: the 11 x 11 **exchange matrix game** of play-phase
    values, solved exactly (IMP-RULES §8), then the line after its most likely pair of passes;
    with ``lazy``, the same value and equilibrium from only the cells its pivots depend on
    (:func:`lazy_exchange_game`, :mod:`.lazygame`), the others left as bounds;
  - a Glitzerhaus deal before ``open``: the 2 x 2 **open-stack matrix game**, solved exactly;
  - a Glitzerhaus deal before ``s1`` or ``s2``: no exact answer exists within reach (9 x 8
    choices a player a stack), so the steps not given are played by the **low-cards setup
    policy** (:func:`low_cards_setup` for both players), then the exact open-stack game.  The
    answer says so: its ``method`` names the policy and ``exact`` is false.

* :func:`hint_cards` - every legal card with its exact margin (or bounds) within a budget,
  best first; :func:`hint_setup` - each pure pass (or open stack) of both players against the
  opponent's equilibrium mix and in the worst case; :func:`explain` - the line after a card
  beside the best card's, trick by trick, to where it falls behind.

A process keeps one :class:`Engine` (:func:`shared_engine`), as each worker of the pool
(:mod:`scoundrel_solver.pools`) does for the matrix games' rows.

>>> from .deal import deal
>>> from .rules import Rules
>>> from .state import Pass
>>> start = deal(42, Rules("lopaka")).start().apply(Pass(1, 18))
>>> solved = solve(start)
>>> solved.exact, solved.value, solved.scores, solved.holder
(True, 34, {'A': 54, 'B': 20}, 'L')
>>> solved.line_text[:28]
'21 37 31 | 32 13 8 | 12 3 9 '
"""
from __future__ import annotations

import concurrent.futures as cf
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Callable, Optional

from ..errors import InputError
from ..pools import Inline, drop_pool, pool, workers_default
from .policy import low_cards_setup
from .engine import Budget, Engine, Margin
from .exchange import solve_zero_sum
from .lazygame import Cells, LazyStats, solve_lazy
from .notation import format_line, line_of
from .state import Pass, Play, Reveal, State

# -------------------------------------------------------------- the names
PLAY_METHOD = "double-dummy search"
EXCHANGE_METHOD = "exchange matrix game"
OPEN_METHOD = "open-stack matrix game"
POLICY = "low-cards setup policy"
POLICY_TEXT = ("low-cards setup policy: in s1 and s2 each player passes the lowest card of the stack and lays "
               "the next lowest in the devil's trick (not optimised, not exact)")
GAME_TEXT = {"exchange": "11 x 11 zero-sum matrix game of the double-dummy values after each pair of passed cards, "
                         "solved exactly (fractions)",
             "open-stack": "2 x 2 zero-sum matrix game of the double-dummy values after each pair of open stacks, "
                           "solved exactly (fractions)"}
#: the hint's default budget, in seconds
DEFAULT_HINT_TIME = 2.0
#: the node limit of the first round of a budgeted hint (each round gives every unfinished card 4x more)
HINT_FIRST_NODES = 20_000


class NoAnalysis(InputError):
    """A position this module does not analyse (the base game, a step it cannot value)."""


@dataclass(frozen=True)
class Progress:
    """What a long analysis has done so far: ``stage`` (``play``, ``exchange``,
    ``open-stack``, ``hint``, ``review``, and ``s1``/``s2`` for the review's stack steps), the bounds proven on the value of the current search (play
    phase; None otherwise), the nodes so far, and ``done`` of ``total`` pieces (rows of a
    matrix game, cards of a hint)."""

    stage: str
    lower: Optional[int]
    upper: Optional[int]
    nodes: int
    done: int = 0
    total: int = 0


ProgressFn = Optional[Callable[[Progress], None]]

# ----------------------------------------------------------- one engine
_ENGINE: Optional[Engine] = None


def shared_engine() -> Engine:
    """This process's engine, made once and kept (its table carries over between the positions
    of one deal).  An explicit cache: an engine is not thread-safe, and a process needs one."""
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = Engine()
    return _ENGINE


def _nodes(engine: Engine) -> int:
    return engine.stats()["nodes"]


def _seat_name(state: State, seat) -> Optional[str]:
    return None if seat is None else state.seats[seat]


# ------------------------------------------------------------ play phase
@dataclass(frozen=True)
class PlaySolve:
    """A play-phase position solved: ``lower <= value <= upper`` (equal when exact) and, when
    exact, an optimal line to the end (the lowest of equally good cards at each turn)."""

    state: State
    lower: int
    upper: int
    nodes: int
    seconds: float
    line: Optional[tuple] = None

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    @property
    def value(self) -> Optional[int]:
        return self.lower if self.exact else None

    @cached_property
    def final(self) -> Optional[State]:
        """The position at the end of the line (None without a line)."""
        if self.line is None:
            return None
        state = self.state
        for action in self.line:
            state = state.apply(action)
        return state


def solve_play(state: State, budget: Budget = None, progress: ProgressFn = None, engine: Engine = None,
               guess: int = 0) -> PlaySolve:
    """The value of a play-phase position (or the bounds proven within ``budget``) and, when
    exact, the optimal line; ``guess`` starts the search's tests (the value, when known, makes
    it two tests).  The line is searched without the budget: once the value is known
    its null-window tests come from the table (a few milliseconds from trick 1)."""
    engine = engine or shared_engine()
    t0, n0 = time.perf_counter(), _nodes(engine)
    report = None
    if progress is not None:
        def report(lo, hi, nodes):
            progress(Progress("play", lo, hi, nodes))
    bounds = engine.bounds(state, budget, guess=guess, progress=report)
    line = None
    if bounds.exact:
        line = tuple(engine.line(state, bounds.lower))
    return PlaySolve(state, bounds.lower, bounds.upper, _nodes(engine) - n0, time.perf_counter() - t0, line)


def best_card(state: State, engine: Engine = None) -> int:
    """The card the double-dummy player plays: the lowest of the cards that keep the value
    (IMP-RULES §8); Lopaka's one card by his rule."""
    cards = state.legal_cards()
    if not cards:
        raise NoAnalysis("nothing to play: the round is over" if state.finished else "no card to play now")
    if len(cards) == 1:
        return cards[0]
    engine = engine or shared_engine()
    value = engine.value(state)
    maximiser = state.seats[state.turn] == "A"
    for card in cards:
        child = state.apply(Play(card))
        if maximiser and engine.at_least(child, value):
            return card
        if not maximiser and not engine.at_least(child, value + 1):
            return card
    raise AssertionError(f"no card keeps the value {value}: the engine disagrees with itself")


# ---------------------------------------------------------- matrix games
def _value_cells(states, max_nodes: int, deadline: float) -> list:
    """A pool task: ``[(lower, upper, nodes)]`` of each play-phase state, each within
    ``max_nodes`` (0: no limit) and the shared ``deadline`` (0: none)."""
    engine = shared_engine()
    out = []
    for state in states:
        budget = Budget(max_nodes)
        budget.deadline = deadline
        b = engine.bounds(state, budget)
        out.append((b.lower, b.upper, b.nodes))
    return out


def _mix_of(options, probabilities) -> tuple:
    return tuple((o, p) for o, p in zip(options, probabilities) if p)


@dataclass(frozen=True)
class MatrixGame:
    """A simultaneous zero-sum step as a matrix of play-phase values: A chooses a row
    (``rows``: the cards A may pass, or A's stacks 1 and 2), B a column; ``lower`` and
    ``upper`` hold each cell's proven bounds (equal everywhere when ``complete``).  A maximises.

    ``solved``: the game's ``(value, A's mix, B's mix)`` when it was found without every cell
    (the lazy exchange, :func:`lazy_exchange_game`; ``lazy`` its counts): the same as
    :func:`solve_zero_sum` of the full matrix would give.  ``exact``: the value and the
    equilibrium are known exactly (every cell exact, or ``solved``)."""

    kind: str                 # "exchange" or "open-stack"
    rows: tuple
    columns: tuple
    lower: tuple
    upper: tuple
    nodes: int
    seconds: float
    solved: Optional[tuple] = None
    lazy: Optional[LazyStats] = None

    @property
    def complete(self) -> bool:
        """Every cell exact."""
        return self.lower == self.upper

    @property
    def exact(self) -> bool:
        return self.solved is not None or self.complete

    @property
    def matrix(self) -> Optional[tuple]:
        return self.lower if self.complete else None

    @property
    def method(self) -> str:
        return GAME_TEXT[self.kind]

    @cached_property
    def solution(self):
        """``(value, A's mix, B's mix)`` of the exact matrix (None when it is not exact): the
        one equilibrium :func:`solve_zero_sum` finds (deterministic: always the same)."""
        if self.solved is not None:
            return self.solved
        if not self.exact:
            return None
        return solve_zero_sum([list(r) for r in self.lower])

    @cached_property
    def value_bounds(self) -> tuple:
        """``(lower, upper)`` of the game's value: the values of the matrices of lower and of
        upper bounds (a game's value grows with its entries), equal when exact."""
        if self.exact:
            v = self.solution[0]
            return v, v
        return solve_zero_sum([list(r) for r in self.lower])[0], solve_zero_sum([list(r) for r in self.upper])[0]

    @property
    def value(self) -> Optional[Fraction]:
        return self.solution[0] if self.exact else None

    @property
    def mixes(self) -> Optional[dict]:
        """``{"A": ((option, probability), ...), "B": ...}``: the equilibrium's support."""
        if not self.exact:
            return None
        _, rows, cols = self.solution
        return {"A": _mix_of(self.rows, rows), "B": _mix_of(self.columns, cols)}

    def guaranteed(self, seat: str, i: int) -> tuple:
        """``(lower, upper)`` of what a pure choice guarantees: A's row ``i`` its worst column,
        B's column ``i`` its worst row (for B the highest margin)."""
        if seat == "A":
            return min(self.lower[i]), min(self.upper[i])
        return max(r[i] for r in self.lower), max(r[i] for r in self.upper)

    def against_mix(self, seat: str, i: int) -> Optional[Fraction]:
        """The expected margin of a pure choice against the opponent's equilibrium mix (None
        when a cell it needs is known only to bounds)."""
        if not self.exact:
            return None
        _, rows, cols = self.solution
        if seat == "A":
            cells = [(q, i, j) for j, q in enumerate(cols) if q]
        else:
            cells = [(p, k, i) for k, p in enumerate(rows) if p]
        if any(self.lower[a][b] != self.upper[a][b] for _, a, b in cells):
            return None
        return sum((p * self.lower[a][b] for p, a, b in cells), Fraction(0))

    def probability(self, seat: str, i: int) -> Optional[Fraction]:
        if not self.exact:
            return None
        return self.solution[1 if seat == "A" else 2][i]

    def pure_best(self, seat: str) -> tuple:
        """``(option or None, lower, upper)``: the pure maximin (A's best guaranteed choice)
        or minimax (B's); the option (lowest on ties) only when every cell is exact."""
        n = len(self.rows) if seat == "A" else len(self.columns)
        pick = max if seat == "A" else min
        figures = [self.guaranteed(seat, i) for i in range(n)]
        lo, hi = pick(f[0] for f in figures), pick(f[1] for f in figures)
        option = None
        if self.complete:
            option = (self.rows if seat == "A" else self.columns)[[f[0] for f in figures].index(lo)]
        return option, lo, hi

    @property
    def pair(self) -> Optional[tuple]:
        """``(A's option, B's option, probability)``: the equilibrium's most likely pair (each
        player's most likely choice, the lowest on ties)."""
        if not self.exact:
            return None
        _, rows, cols = self.solution
        i, j = rows.index(max(rows)), cols.index(max(cols))
        return self.rows[i], self.columns[j], rows[i] * cols[j]


def matrix_game(kind: str, states, rows, columns, budget: Budget = None, progress: ProgressFn = None,
                workers: int = None) -> MatrixGame:
    """The matrix game of the play-phase ``states`` (a list of rows), each cell valued in the
    process pool (rows as tasks, one engine per worker kept across calls; ``workers`` 1: in
    this process).  A node limit is shared equally by the cells; a deadline by all."""
    budget = budget or Budget()
    workers = workers_default() if workers is None else max(1, workers)
    cells = sum(len(r) for r in states)
    share = max(1, (budget.max_nodes - budget.used) // cells) if budget.max_nodes else 0
    t0 = time.perf_counter()
    executor = Inline() if workers <= 1 else pool(workers)
    lower = [None] * len(states)
    upper = [None] * len(states)
    nodes = done = 0
    try:
        futures = {executor.submit(_value_cells, list(row), share, budget.deadline): i for i, row in enumerate(states)}
        for fut in cf.as_completed(futures):
            i = futures[fut]
            figures = fut.result()
            lower[i] = tuple(f[0] for f in figures)
            upper[i] = tuple(f[1] for f in figures)
            nodes += sum(f[2] for f in figures)
            done += 1
            if progress is not None:
                progress(Progress(kind, None, None, nodes, done, len(states)))
    except BaseException:
        if workers > 1:
            drop_pool()     # a worker may be mid-search: start afresh next time
        raise
    budget.used += nodes
    return MatrixGame(kind, tuple(rows), tuple(columns), tuple(lower), tuple(upper), nodes, time.perf_counter() - t0)


def exchange_game(state: State, budget: Budget = None, progress: ProgressFn = None, workers: int = None) -> MatrixGame:
    """The exchange of a Lopaka deal before it: A's passes (rows) against B's (columns)."""
    if state.rules.variant != "lopaka" or not state.in_setup:
        raise NoAnalysis("the exchange matrix game belongs to a Lopaka deal before its exchange")
    rows, cols = state.hands[0], state.hands[2]
    return matrix_game("exchange", [[state.apply(Pass(a, b)) for b in cols] for a in rows], rows, cols,
                       budget, progress, workers)


#: a cell the lazy exchange has tested this many times is solved exactly at its next test
#: (deals 1-10: 0.91 of the nodes of testing on; the tests' thresholds creep as the pivots move)
LAZY_TESTS_BEFORE_EXACT = 3


class ExchangeCells(Cells):
    """The cells of a Lopaka exchange for :func:`.lazygame.solve_lazy`, searched by one
    engine in this process: ``(i, j)`` is A passing ``rows[i]`` and B ``columns[j]``."""

    def __init__(self, state: State, engine: Engine):
        self.state, self.engine = state, engine
        self.rows, self.columns = state.hands[0], state.hands[2]
        self.total = state.rules.table.total
        self.tested = {}          # (i, j) -> tests asked
        self.known = {}           # (i, j) -> the bounds proven
        self.nodes = 0

    def cell(self, i: int, j: int) -> State:
        return self.state.apply(Pass(self.rows[i], self.columns[j]))

    def bounds(self, i, j):
        return -self.total, self.total

    def test(self, i, j, target):
        n = self.tested[(i, j)] = self.tested.get((i, j), 0) + 1
        lo, hi = self.known.get((i, j), (-self.total, self.total))
        n0 = _nodes(self.engine)
        if n > LAZY_TESTS_BEFORE_EXACT:
            b = self.engine.bounds(self.cell(i, j), lower=lo, upper=hi, guess=target)
        else:
            b = self.engine.test(self.cell(i, j), target)
        self.nodes += _nodes(self.engine) - n0
        self.known[(i, j)] = max(lo, b.lower), min(hi, b.upper)
        return self.known[(i, j)]

    def exact(self, i, j, lo, hi):
        n0 = _nodes(self.engine)
        b = self.engine.bounds(self.cell(i, j), lower=lo, upper=hi, guess=(lo + hi + 1) // 2)
        self.nodes += _nodes(self.engine) - n0
        return b.lower


def lazy_exchange_game(state: State, engine: Engine = None) -> MatrixGame:
    """The exchange of a Lopaka deal before it, lazily (:mod:`.lazygame`): the value and the
    equilibrium that the full matrix gives (the same pivots), from only the cells they depend
    on, searched in this process; the other cells keep the bounds their tests proved."""
    if state.rules.variant != "lopaka" or not state.in_setup:
        raise NoAnalysis("the exchange matrix game belongs to a Lopaka deal before its exchange")
    t0 = time.perf_counter()
    cells = ExchangeCells(state, engine or shared_engine())
    n, m = len(cells.rows), len(cells.columns)
    value, row_mix, col_mix, stats = solve_lazy(n, m, cells)
    return MatrixGame("exchange", tuple(cells.rows), tuple(cells.columns), stats.lower, stats.upper,
                      cells.nodes, time.perf_counter() - t0, (value, row_mix, col_mix), stats)


def open_stack_cells(state: State, engine: Engine, budget: Budget) -> list:
    """The four cells of the open-stack game of a Glitzerhaus state before ``open``, searched in this
    process by ``engine`` within ``budget``: ``[[Margin]]``, A's stack 1 and 2 (rows) against B's."""
    return [[Margin.of(engine.bounds(state.apply(Reveal(a, b)), budget)) for b in (1, 2)] for a in (1, 2)]


def open_stack_value(state, engine: Engine, budget: Budget = None, start: tuple = (1, 1), guess: int = 0) -> tuple:
    """The value of the open-stack 2 x 2 game of a Glitzerhaus state before ``open`` (A's open
    stack the row, B's the column), found by a **saddle search** that seldom needs all four
    cells: ``(Margin, cell)``, the value (or, when ``budget`` stopped a search, the bounds it
    proved) and the cell where the search ended (a saddle point: a good ``start`` for a similar
    state; the value does not depend on ``start``).  ``guess``: where the first cell's search
    starts (a similar state's value saves tests; the value does not depend on it either).

    From a cell ``(a, b)``, solved exactly to ``v``: if the other cell of row ``a`` is not ``>= v``
    (one null-window test), the row's minimum lies there, so go there; else if the other cell of
    column ``b`` is ``>= v + 1``, the column's maximum lies there, so go there; else ``v`` is the
    minimum of its row and the maximum of its column, a saddle point, and the game's value is
    ``v``.  A 2 x 2 game without a saddle point sends the search round in a cycle; then the four
    cells are solved exactly (within the bounds the tests proved) and the game is solved as it
    is everywhere else (:func:`.exchange.solve_zero_sum`).  A game's value rises with each
    cell, so the bounds, when a budget stops a search, are the values of the game of the cells'
    lower bounds and of their upper bounds.  Glitzerhaus's stack steps (72 pairs a step, each
    followed by this game) take 0.5-0.6 of the nodes of the four cells solved outright
    (benchmarks/README.md, "The open-stack game by a saddle search")."""
    budget = budget or Budget()
    total = state.rules.table.total
    lo = {(a, b): -total for a in (1, 2) for b in (1, 2)}
    hi = {(a, b): total for a in (1, 2) for b in (1, 2)}
    near = {start: guess}                       # a cell's last test target: MTD(f)'s first guess

    def exact(a, b) -> bool:
        if lo[a, b] < hi[a, b]:
            guess = min(max(near.get((a, b), 0), lo[a, b]), hi[a, b])
            got = engine.bounds(state.apply(Reveal(a, b)), budget, lower=lo[a, b], upper=hi[a, b], guess=guess)
            lo[a, b], hi[a, b] = max(lo[a, b], got.lower), min(hi[a, b], got.upper)
        return lo[a, b] == hi[a, b]

    def at_least(a, b, target) -> Optional[bool]:
        if lo[a, b] >= target or hi[a, b] < target:
            return lo[a, b] >= target
        near[a, b] = target
        got = engine.test(state.apply(Reveal(a, b)), target, budget)
        if got is None:
            return None
        lo[a, b], hi[a, b] = max(lo[a, b], got.lower), min(hi[a, b], got.upper)
        return lo[a, b] >= target

    def bounds_now() -> Margin:
        cells = [(a, b) for a in (1, 2) for b in (1, 2)]
        low = solve_zero_sum([[lo[a, b] for b in (1, 2)] for a in (1, 2)])[0]
        if all(lo[c] == hi[c] for c in cells):
            return Margin(low, low)
        return Margin(low, solve_zero_sum([[hi[a, b] for b in (1, 2)] for a in (1, 2)])[0])

    (a, b), seen = start, set()
    while (a, b) not in seen:
        seen.add((a, b))
        if not exact(a, b):
            return bounds_now(), start
        v = lo[a, b]
        row_min = at_least(a, 3 - b, v)
        if row_min is None:
            return bounds_now(), start
        if not row_min:
            b = 3 - b
            continue
        column_max = at_least(3 - a, b, v + 1)
        if column_max is None:
            return bounds_now(), start
        if column_max:
            a = 3 - a
            continue
        return Margin(Fraction(v), Fraction(v)), (a, b)
    for cell in lo:                             # no saddle point: every cell exactly
        if not exact(*cell):
            break
    return bounds_now(), start


def open_stack_game(state: State, budget: Budget = None, progress: ProgressFn = None,
                    workers: int = None) -> MatrixGame:
    """Glitzerhaus right before ``open``: A's open stack (rows 1, 2) against B's (columns)."""
    if state.rules.variant != "glitzerhaus" or state.step != 2:
        raise NoAnalysis("the open-stack matrix game belongs to a Glitzerhaus deal right before 'open'")
    return matrix_game("open-stack", [[state.apply(Reveal(a, b)) for b in (1, 2)] for a in (1, 2)], (1, 2), (1, 2),
                       budget, progress, workers)


def policy_steps(state: State) -> list:
    """The Glitzerhaus discard-and-pass steps still due, each player's part chosen by the
    low-cards setup policy (:func:`low_cards_setup`)."""
    steps = []
    while state.rules.variant == "glitzerhaus" and state.step < 2:
        action = state.joint_action({0: low_cards_setup(state, 0), 1: low_cards_setup(state, 1)})
        steps.append(action)
        state = state.apply(action)
    return steps


def _choice(game: MatrixGame, option_a, option_b):
    return Pass(option_a, option_b) if game.kind == "exchange" else Reveal(option_a, option_b)


# --------------------------------------------------------------- solving
@dataclass(frozen=True)
class Part:
    """One part of an answer: what it covers, the method, and whether it is exact."""

    part: str
    method: str
    exact: bool


@dataclass(frozen=True)
class Analysis:
    """The answer of :func:`solve` for ``state``.

    ``lower``/``upper``: the proven bounds of the value the ``method`` defines (ints in the
    play phase, fractions for a matrix game); ``exact``: every part exact (a budget stopped no
    search and no step was chosen by a policy).  ``setup``: the steps the method chose before
    the matrix game (Glitzerhaus's policy); ``game``: the matrix game, if any; ``choice``: the
    setup step after it (the most likely pair); ``play``: the play-phase solve the principal
    line ends with.
    """

    state: State
    lower: object
    upper: object
    method: str
    parts: tuple
    nodes: int
    seconds: float
    setup: tuple = ()
    game: Optional[MatrixGame] = None
    choice: object = None
    play: Optional[PlaySolve] = None

    @property
    def exact(self) -> bool:
        return all(p.exact for p in self.parts)

    @property
    def value(self):
        """The value under the method (when its bounds meet), else None."""
        return self.lower if self.lower == self.upper else None

    @property
    def line(self) -> Optional[tuple]:
        """The principal line from ``state``: the setup steps the method chose, the most likely
        pair of the matrix game, then the optimal play (None when not known)."""
        if self.play is None or self.play.line is None:
            return None
        chosen = () if self.choice is None else (self.choice,)
        return tuple(self.setup) + chosen + self.play.line

    @property
    def line_text(self) -> Optional[str]:
        line = self.line
        return None if line is None else format_line(line_of(self.state, line))

    @property
    def final(self) -> Optional[State]:
        return None if self.play is None else self.play.final

    @property
    def line_value(self) -> Optional[int]:
        """The margin the principal line ends with (the play-phase value after the pair)."""
        final = self.final
        return None if final is None else final.value()

    @property
    def scores(self) -> Optional[dict]:
        final = self.final
        if final is None:
            return None
        scores = final.scores()
        return {"A": scores["A"], "B": scores["B"]}

    @property
    def holder(self) -> Optional[str]:
        final = self.final
        return None if final is None else _seat_name(final, final.holder)


def solve(state: State, budget: Budget = None, progress: ProgressFn = None, workers: int = None,
          lazy: bool = False) -> Analysis:
    """The analysis of ``state`` as the module's doc describes it (play phase, Lopaka's
    exchange, Glitzerhaus's open stacks, or Glitzerhaus's setup by the low-cards policy).

    ``lazy``: Lopaka's exchange by :func:`lazy_exchange_game` (the same value, equilibrium
    and line; the cells it did not need are bounds) when no limit is set; with a node limit
    or a deadline the full matrix is searched as without it."""
    rules = state.rules
    if not rules.two_player:
        raise NoAnalysis("the double-dummy value is defined for Lopaka and Glitzerhaus; the base game's is out of "
                         "scope (IMP-RULES §8)")
    budget = budget or Budget()
    t0 = time.perf_counter()
    if not state.in_setup:
        play = solve_play(state, budget, progress)
        return Analysis(state, play.lower, play.upper, PLAY_METHOD, (Part("play", PLAY_METHOD, play.exact),),
                        play.nodes, time.perf_counter() - t0, play=play)
    setup = policy_steps(state)
    at = state
    for action in setup:
        at = at.apply(action)
    if rules.variant == "lopaka":
        unlimited = not budget.max_nodes and not budget.deadline
        game = lazy_exchange_game(at) if lazy and unlimited else exchange_game(at, budget, progress, workers)
        parts = [Part("exchange", game.method, game.exact)]
        method = EXCHANGE_METHOD
    else:
        game = open_stack_game(at, budget, progress, workers)
        parts = [Part("open stacks", game.method, game.exact)]
        method = OPEN_METHOD
        if setup:
            which = " and ".join(f"s{a.stack}" for a in setup)
            parts.insert(0, Part(f"discard and pass ({which})", POLICY_TEXT, False))
            method = f"{POLICY}, then the {OPEN_METHOD}"
    lower, upper = game.value_bounds
    nodes = game.nodes
    choice = play = None
    if game.exact:
        a, b, _ = game.pair
        choice = _choice(game, a, b)
        cell = game.lower[game.rows.index(a)][game.columns.index(b)]     # in the support: exact
        play = solve_play(at.apply(choice), guess=cell)      # the cell's value is known: two tests
        nodes += play.nodes
        parts.append(Part("line", f"{PLAY_METHOD} after the equilibrium's most likely pair", play.exact))
    return Analysis(state, lower, upper, method, tuple(parts), nodes, time.perf_counter() - t0, tuple(setup), game,
                    choice, play)


# ----------------------------------------------------------------- hints
@dataclass(frozen=True)
class CardFigure(Margin):
    """A legal card and the proven bounds of the value after it."""

    card: int


@dataclass(frozen=True)
class CardHint:
    """Every legal card of a play-phase position, best first for the player to move (A: the
    highest margin; B: the lowest; ties and unfinished cards by their proven bounds, then the
    lowest card); ``best``: the card proven best (the lowest of the best), if proven."""

    state: State
    cards: tuple
    nodes: int
    seconds: float
    time: float

    @property
    def to_play(self) -> Optional[str]:
        return self.state.turn_name

    @property
    def exact(self) -> bool:
        return all(f.exact for f in self.cards)

    @property
    def best(self) -> Optional[int]:
        if not self.cards:
            return None
        top = self.cards[0]
        maximiser = self.to_play == "A"
        others = self.cards[1:]
        proven = all(top.lower >= f.upper for f in others) if maximiser else all(top.upper <= f.lower for f in others)
        return top.card if proven else None     # ranked (bounds, card): of tied best cards the lowest is first


def _rank(state: State, figures) -> tuple:
    if state.turn_name == "A":
        return tuple(sorted(figures, key=lambda f: (-f.lower, -f.upper, f.card)))
    return tuple(sorted(figures, key=lambda f: (f.upper, f.lower, f.card)))


def hint_cards(state: State, seconds: float = DEFAULT_HINT_TIME, max_nodes: int = 0, progress: ProgressFn = None,
               engine: Engine = None) -> CardHint:
    """Every legal card with the value after it, within ``seconds`` (0: no limit) and
    ``max_nodes`` in all (0: no limit).  Within a budget the cards are searched in rounds, each
    unfinished card given four times the nodes of the round before, so that every card gets its
    share of the time; what is unfinished at the end is reported as proven bounds."""
    if state.in_setup:
        raise NoAnalysis("card hints are for the play phase; the setup's hint is a matrix game")
    if state.finished:
        return CardHint(state, (), 0, 0.0, seconds)
    engine = engine or shared_engine()
    t0, n0 = time.perf_counter(), _nodes(engine)
    deadline = time.monotonic() + seconds if seconds else 0.0
    total = state.rules.table.total
    children = {card: state.apply(Play(card)) for card in state.legal_cards()}
    figures = {card: [-total, total] for card in children}

    def used() -> int:
        return _nodes(engine) - n0

    def spent() -> bool:
        return bool(deadline and time.monotonic() >= deadline) or bool(max_nodes and used() >= max_nodes)

    limit = HINT_FIRST_NODES if (seconds or max_nodes) else 0
    while not spent():
        todo = [c for c in children if figures[c][0] < figures[c][1]]
        if not todo:
            break
        for card in todo:
            if spent():
                break
            nodes = limit
            if max_nodes:
                nodes = min(nodes, max_nodes - used()) if nodes else max_nodes - used()
            budget = Budget(nodes)
            budget.deadline = deadline
            lo, hi = figures[card]
            guess = (lo + hi) // 2 if hi - lo < 2 * total else 0
            b = engine.bounds(children[card], budget, lower=lo, upper=hi, guess=guess)
            figures[card] = [max(lo, b.lower), min(hi, b.upper)]
            if progress is not None:
                progress(Progress("hint", None, None, used(), sum(f[0] == f[1] for f in figures.values()),
                                  len(figures)))
        limit *= 4
    cards = _rank(state, [CardFigure(lo, hi, c) for c, (lo, hi) in figures.items()])
    return CardHint(state, cards, used(), time.perf_counter() - t0, seconds)


@dataclass(frozen=True)
class OptionFigure:
    """A pure setup choice of one player: its probability in the equilibrium, its expected
    margin against the opponent's equilibrium mix (both None when the matrix is not exact),
    and the bounds of what it guarantees (the worst case over the opponent's choices)."""

    option: int
    probability: Optional[Fraction]
    against_mix: Optional[Fraction]
    guaranteed_lower: int
    guaranteed_upper: int


@dataclass(frozen=True)
class SetupHint:
    """The hint of a simultaneous setup step (Lopaka's exchange, Glitzerhaus's open stacks):
    the matrix game and, for each player, every pure choice best first."""

    state: State
    game: MatrixGame
    options: dict          # {"A": (OptionFigure, ...), "B": ...}
    time: float

    @property
    def exact(self) -> bool:
        return self.game.exact


def _option_key(seat: str):
    sign = 1 if seat == "A" else -1

    def key(f: OptionFigure):
        against = 0 if f.against_mix is None else -sign * f.against_mix
        worst = -sign * (f.guaranteed_lower if seat == "A" else f.guaranteed_upper)
        return (against, worst, f.option)
    return key


def option_figures(game: MatrixGame) -> dict:
    """``{"A": (OptionFigure, ...), "B": ...}``: every pure choice of each player of ``game``,
    best first for that player (against the opponent's equilibrium mix, then what it
    guarantees, then the lowest option)."""
    options = {}
    for seat, labels in (("A", game.rows), ("B", game.columns)):
        figures = []
        for i, option in enumerate(labels):
            lo, hi = game.guaranteed(seat, i)
            figures.append(OptionFigure(option, game.probability(seat, i), game.against_mix(seat, i), lo, hi))
        options[seat] = tuple(sorted(figures, key=_option_key(seat)))
    return options


def hint_setup(state: State, seconds: float = DEFAULT_HINT_TIME, max_nodes: int = 0, progress: ProgressFn = None,
               workers: int = None) -> SetupHint:
    """Each player's pure choices of Lopaka's exchange or Glitzerhaus's open stacks, within
    ``seconds`` (0: no limit): against the opponent's equilibrium mix and guaranteed."""
    budget = Budget(max_nodes, seconds or None)
    if state.rules.variant == "lopaka" and state.in_setup:
        game = exchange_game(state, budget, progress, workers)
    elif state.rules.variant == "glitzerhaus" and state.step == 2:
        game = open_stack_game(state, budget, progress, workers)
    elif state.rules.variant == "glitzerhaus" and state.in_setup:
        raise NoAnalysis(f"no hint for Glitzerhaus's discard-and-pass step s{state.step + 1}: its 9 x 8 choices a "
                         f"player are too many for exact solves; give the step in the moves (imp solve values the "
                         f"deal with the low-cards setup policy)")
    else:
        raise NoAnalysis("setup hints are for Lopaka's exchange and Glitzerhaus's open stacks")
    return SetupHint(state, game, option_figures(game), seconds)


def hint(state: State, seconds: float = DEFAULT_HINT_TIME, max_nodes: int = 0, progress: ProgressFn = None,
         workers: int = None):
    """:func:`hint_cards` in the play phase, :func:`hint_setup` in a setup step."""
    if not state.rules.two_player:
        raise NoAnalysis("hints with the deal known are for Lopaka and Glitzerhaus (the base game has no "
                         "double-dummy value here, IMP-RULES §8)")
    if state.in_setup:
        return hint_setup(state, seconds, max_nodes, progress, workers)
    return hint_cards(state, seconds, max_nodes, progress)


# --------------------------------------------------------------- explain
@dataclass(frozen=True)
class TrickPair:
    """One trick of both lines: its cards and the margin so far (A's score minus B's if the
    round ended after it, §2.7) after the best card and after the card explained."""

    number: int
    best_cards: tuple
    best_margin: int
    card_cards: tuple
    card_margin: int


@dataclass(frozen=True)
class Explanation:
    """The optimal line after ``card`` beside the best card's, trick by trick up to the first
    trick where the margins so far differ (``diverges_at``; None: they never do, all tricks
    shown), with both values and what ``card`` costs the player to move (>= 0)."""

    state: State
    card: int
    best: int
    card_value: int
    best_value: int
    card_line: tuple
    best_line: tuple
    tricks: tuple
    diverges_at: Optional[int]

    @property
    def cost(self) -> int:
        return abs(self.best_value - self.card_value)

    @property
    def card_line_text(self) -> str:
        return format_line(line_of(self.state, self.card_line))

    @property
    def best_line_text(self) -> str:
        return format_line(line_of(self.state, self.best_line))


def _trick_margins(state: State, line) -> list:
    """``[(trick number, cards, margin so far)]`` at each trick completed along ``line``."""
    out = []
    cards = list(state.trick)
    for action in line:
        number = state.tricks_done + 1
        state = state.apply(action)
        cards.append(action.card)
        if not state.trick:
            scores = state.scores()
            out.append((number, tuple(cards), scores["A"] - scores["B"]))
            cards = []
    return out


def explain(state: State, card: int, engine: Engine = None) -> Explanation:
    """The optimal line after ``card`` (one of the legal cards) beside the best card's (exact
    searches, no budget: a play phase takes well under a second)."""
    if state.in_setup or state.finished:
        raise NoAnalysis("an explanation takes a card of the play phase" + (
            ": the round is over" if state.finished else "; the setup's hint is its matrix game"))
    state.check(Play(card))
    engine = engine or shared_engine()
    best = best_card(state, engine)
    lines = {}
    for c in {card, best}:
        child = state.apply(Play(c))
        value = engine.value(child)
        lines[c] = (value, (Play(c),) + tuple(engine.line(child, value)))
    best_value, best_line = lines[best]
    card_value, card_line = lines[card]
    a, b = _trick_margins(state, best_line), _trick_margins(state, card_line)
    tricks, diverges = [], None
    for (n, bc, bm), (_, cc, cm) in zip(a, b):
        tricks.append(TrickPair(n, bc, bm, cc, cm))
        if bm != cm:
            diverges = n
            break
    return Explanation(state, card, best, card_value, best_value, card_line, best_line, tuple(tricks), diverges)


__all__ = ["Analysis", "CardFigure", "CardHint", "DEFAULT_HINT_TIME", "EXCHANGE_METHOD", "Explanation", "MatrixGame",
           "NoAnalysis", "OPEN_METHOD", "OptionFigure", "PLAY_METHOD", "POLICY", "Part", "PlaySolve", "Progress",
           "SetupHint", "TrickPair", "best_card", "exchange_game", "explain", "hint", "hint_cards", "hint_setup",
           "lazy_exchange_game",
           "matrix_game", "open_stack_game", "open_stack_value", "option_figures", "policy_steps", "shared_engine", "solve", "solve_play"]
