"""The setup hint at a real table: each choice of a setup step, valued by simulation.

At a setup step (Lopaka's exchange; Glitzerhaus's stack 1, stack 2 and the open choice) a
player has seen only its own cards (:mod:`.setupview`).  The hint does what bridge players'
lead simulators do:

1. **draw deals** consistent with what the seat knows, uniformly, in a sequence seeded from
   the question (:func:`.setupview.draws`);
2. give **every candidate the same deals** (common random numbers);
3. value each candidate in each deal by **exact double-dummy play-phase values** (the core),
   with every choice the seat cannot see played by a **named model** (:class:`Model`): the
   opponent's simultaneous choice, and in Glitzerhaus the steps still to come;
4. per candidate: the mean margin (A - B) over the deals, its 95 % interval (Student's t),
   the share of deals where it is a best choice and the number of deals; the recommendation
   (the best mean for the seat: highest for A, lowest for B) and whether it is clear of the
   runner-up (the 95 % interval of their paired difference excludes 0).

**What the figure is**: a double-dummy mean over sampled deals under the named model (every
player is assumed to see every card once the play begins, and the opponent to choose as the
model says).  It is not what the choice achieves.

**Affordable**:

* candidates that no deal can tell apart are merged (:func:`merge`): in Glitzerhaus, laying
  ``x`` in the devil's trick and keeping (or passing) ``x + 1`` is the same as the other way
  round when the two cards are of one suit and coins (proof at :func:`merge`);
* the candidates are **raced** by successive halving (:func:`rounds`): round ``k`` brings the
  deals to ``n0 * 2**k``, and after it only the better half (and never a candidate whose paired
  difference to the leader is clearly negative, 3 standard errors) goes on, two at least, so
  that the last two are compared on the same deals;
* each process keeps one engine whose table serves every cell of a deal and the next deals;
* the budget is a count of deals (``samples``: the same answer on every machine) or a time
  (the deals done by then; the answer equals the one of ``samples`` = the deals it drew, as
  the deals are drawn, evaluated and kept in order).

>>> from .deal import deal
>>> from .rules import Rules
>>> from .setupview import setup_view_of
>>> view = setup_view_of(deal(42, Rules("lopaka")).start(), [], seat=0)
>>> hint = setup_hint(view, samples=8, workers=1)
>>> hint.deals, hint.recommended, len(hint.candidates)
(8, 1, 11)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..errors import InputError
from ..intervals import t_interval
from ..pools import Inline, drop_pool, pool, workers_default
from .analysis import open_stack_cells, open_stack_value, policy_steps
from .engine import Budget
from .exchange import solve_zero_sum
from .policy import low_cards_setup
from .setupview import SetupView, draw, draws
from .state import Pass, State

#: what the figures are, in every output that shows them
NAMED = ("double-dummy mean over sampled deals under the named model: assumes every player sees every card once "
         "the play begins, and the opponent chooses as the model says; not what the choice achieves")
#: the opponent models (see :class:`Model`)
OPPONENT_MODELS = ("low-cards", "equilibrium")
#: the default --time of ``imp hint --table`` at the exchange and the open choice, in seconds
#: (docs/bottleimp-solver.md)
DEFAULT_SETUP_TIME = 10.0
#: the default --time at each setup step: a stack step values 72 choices a deal, each with the
#: open-stack game after it, so its deals cost some 20 times the exchange's and 10 s often ended
#: before the first deal (benchmarks/README.md, "The setup hint")
DEFAULT_SETUP_TIMES = {"pass": DEFAULT_SETUP_TIME, "open": DEFAULT_SETUP_TIME, "s1": 60.0, "s2": 60.0}
#: the most deals a setup hint draws (--samples)
MAX_SAMPLES = 100_000
#: standard errors below the leader that drop a candidate during the race
CLEARLY_WORSE = 3.0


class SetupHintError(InputError):
    """A setup hint that cannot be given as asked (a model a step does not offer, no budget)."""


@dataclass(frozen=True)
class Model:
    """How the choices the seat cannot see are made in each drawn deal.

    ``opponent``: ``low-cards`` (the low-cards setup policy, :mod:`.policy`: cheap, named, not a
    strong player) or ``equilibrium`` (Lopaka: the opponent's mix in the equilibrium of that
    deal's 11 x 11 exchange matrix; Glitzerhaus's open choice: of its 2 x 2 open-stack game;
    both as if the opponent saw every hand).  Glitzerhaus's steps still to come: stack 2 by the
    low-cards policy for both players, then the open choice as the deal's exact 2 x 2 matrix
    game (its value)."""

    opponent: str

    def check(self, view: SetupView) -> None:
        if self.opponent not in OPPONENT_MODELS:
            raise SetupHintError(f"bad opponent model {self.opponent[:40]!r}: choose one of "
                                 f"{', '.join(OPPONENT_MODELS)}")
        if self.opponent == "equilibrium" and view.step_name in ("s1", "s2"):
            raise SetupHintError(f"the equilibrium model is not offered at {view.step_name}: each drawn deal "
                                 f"would need a 72 x 72 matrix game of four solves a cell; use --opponent low-cards")

    def opponent_text(self, view: SetupView) -> str:
        if self.opponent == "low-cards":
            what = {"pass": "passes its lowest card", "open": "keeps stack 1 open"}.get(
                view.step_name, "passes its lowest card and lays the next lowest in the devil's trick")
            return f"low-cards setup policy: the opponent {what} (a cheap model, not a strong player)"
        game = "11 x 11 exchange matrix" if view.step_name == "pass" else "2 x 2 open-stack matrix game"
        return (f"equilibrium: the opponent chooses by its mix in the equilibrium of the drawn deal's {game} "
                f"(as if it saw every hand)")

    @staticmethod
    def later_text(view: SetupView) -> Optional[str]:
        game = ("the open-stack choice as the drawn deal's 2 x 2 matrix game, its exact value (both players as if "
                "they saw every card)")
        if view.step_name == "s1":
            return "stack 2 by the low-cards setup policy for both players, then " + game
        if view.step_name == "s2":
            return game
        return None


def default_model(view: SetupView) -> Model:
    """The model used when none is named: the equilibrium at the open choice (four solves a
    deal either way), the low-cards policy elsewhere (the only one affordable at the stack
    steps; at the exchange it costs 11 solves a deal against 121: docs/bottleimp-solver.md)."""
    return Model("equilibrium" if view.step_name == "open" else "low-cards")


# ------------------------------------------------------------------ candidates
def options(view: SetupView) -> list:
    """The seat's choices at the view's step, in order (as ``State.setup_options``)."""
    return draw(view, 0).setup_options(view.seat)


def _partner(card: int, holding, table):
    for other in (card - 1, card + 1):
        if other in holding and table.suit(other) == table.suit(card) and table.coins(other) == table.coins(card):
            return other
    return None


def canonical(choice, holding, table):
    """The representative of ``choice``'s class (see :func:`merge`)."""
    if not isinstance(choice, tuple):
        return choice
    devil, passed = choice
    other = _partner(devil, holding, table)
    if other is None or other > devil:
        return choice
    return (other, devil if passed == other else passed)


def merge(view: SetupView) -> list:
    """The seat's choices in classes that every deal values alike: ``[(representative,
    (members...)), ...]`` in the order of :func:`options` (the lowest member represents).

    Why they are alike: let ``x`` and ``x + 1`` be two cards of the seat's stack of one suit and
    one coin value (the classic table's 1 and 2, 36 and 37).  No other card's number lies
    between them, so swapping their names everywhere keeps every comparison the rules make
    between either and any other card (the price rule and "highest wins" alike, 19 included,
    which lies between no two consecutive numbers), every suit and every coin, and the order of
    the low-cards policy's choices from any holding that holds at most one of them.  The one
    comparison it would reverse, ``x`` against ``x + 1``, never happens when one of them lies
    in the devil's trick, whose cards are never played.  So laying ``x`` down and keeping or
    passing ``x + 1`` is, after the swap, laying ``x + 1`` down and keeping or passing ``x``:
    the same game in every deal (both cards are the seat's own, so the swap maps each drawn
    deal to itself).  Passing one and keeping the other is not merged: they may meet in a
    trick.  Lopaka's exchange has no devil's card of the seat's, so no merge there."""
    opts = options(view)
    if view.step_name not in ("s1", "s2"):
        return [(o, (o,)) for o in opts]
    holding = draw(view, 0).hands[view.seat * 2 + view.step]
    table = view.rules.table
    classes = {}
    for o in opts:
        classes.setdefault(canonical(o, holding, table), []).append(o)
    return [(rep, tuple(members)) for rep, members in classes.items()]


# ------------------------------------------------------------------ values
def _engine(rules):
    from .tablehint import _engine as engine_of
    return engine_of(rules)


def play_value(state: State, deadline: float, guess: int = 0) -> Optional[int]:
    """The exact double-dummy value of a play-phase state (None when ``deadline`` stopped it);
    ``guess``, where the search starts, changes the work only."""
    b = _engine(state.rules).bounds(state, Budget(deadline=deadline), guess=guess)
    return b.lower if b.exact else None


def open_game(state: State, deadline: float) -> Optional[tuple]:
    """``(value, A's mix, B's mix, matrix)`` of the 2 x 2 open-stack game of a Glitzerhaus state
    before ``open`` (exact, :func:`.exchange.solve_zero_sum`); None when ``deadline`` stopped it."""
    cells = open_stack_cells(state, _engine(state.rules), Budget(deadline=deadline))
    if not all(c.exact for row in cells for c in row):
        return None
    matrix = [[c.lower for c in row] for row in cells]
    return solve_zero_sum(matrix) + (matrix,)


def _joint(state: State, seat: int, mine, theirs):
    opp = 1 - seat if state.rules.variant == "glitzerhaus" else 2 - seat
    return state.joint_action({seat: mine, opp: theirs})


def _later(state: State, deadline: float, start: tuple = (1, 1), guess: int = 0) -> tuple:
    """``(value, cell)``: the value of a Glitzerhaus state before ``s2`` or ``open`` under the
    model's later steps (None when ``deadline`` stopped it), and the open-stack game's saddle
    cell, where the next, similar state's search starts (:func:`.analysis.open_stack_value`)."""
    for action in policy_steps(state):
        state = state.apply(action)
    value, cell = open_stack_value(state, _engine(state.rules), Budget(deadline=deadline), start, guess)
    return (value.lower if value.exact else None), cell


def candidate_values(state: State, seat: int, choices, opponent: str, deadline: float = 0.0) -> Optional[list]:
    """The value (margin A - B, a Fraction) of each of ``choices`` of ``seat`` in the drawn deal
    ``state`` (at a setup step) under the opponent model ``opponent``; None when ``deadline``
    (``time.monotonic``; 0: none) stopped it.  The plain definition the race's figures are
    tested against."""
    variant, step = state.rules.variant, state.step
    opp = 1 - seat if variant == "glitzerhaus" else 2 - seat
    if opponent == "equilibrium":
        if variant == "lopaka":
            rows, cols = state.hands[0], state.hands[2]
            matrix = []
            for a in rows:
                row = []
                for b in cols:     # each search starts at the value of the cell before it
                    near = row[-1] if row else matrix[-1][0] if matrix else 0
                    v = play_value(state.apply(Pass(a, b)), deadline, near)
                    if v is None:
                        return None
                    row.append(v)
                matrix.append(row)
            _, x, y = solve_zero_sum(matrix)
        else:
            game = open_game(state, deadline)
            if game is None:
                return None
            _, x, y, matrix = game
            rows = cols = (1, 2)
        out = []
        for c in choices:
            if seat == 0:
                i = rows.index(c)
                out.append(sum((q * matrix[i][j] for j, q in enumerate(y)), Fraction(0)))
            else:
                j = cols.index(c)
                out.append(sum((p * matrix[i][j] for i, p in enumerate(x)), Fraction(0)))
        return out
    theirs = low_cards_setup(state, opp)
    out, cell = [], (1, 1)
    for c in choices:
        after = state.apply(_joint(state, seat, c, theirs))
        guess = int(out[-1]) if out else 0       # each search starts at the previous choice's value
        if variant == "lopaka" or step == 2:
            v = play_value(after, deadline, guess)
        else:     # and, in the open-stack game, where the previous choice's search ended
            v, cell = _later(after, deadline, cell, guess)
        if v is None:
            return None
        out.append(Fraction(v))
    return out


def _evaluate(view: SetupView, index: int, choices, opponent: str, deadline: float):
    """A pool task: drawn deal ``index``'s values of ``choices`` (None if out of time)."""
    return candidate_values(draw(view, index), view.seat, choices, opponent, deadline)


# ------------------------------------------------------------------ the race
def first_round(candidates: int) -> int:
    """Deals in the race's first round: 2 with many candidates (Glitzerhaus's stack steps), 8 else.

    8, not 4, at Lopaka's exchange: replayed on every choice's values over the same 32 deals
    (benchmarks/bottleimp/race_schedule.py, 100 positions), a first round of 4 deals picked
    another pass than the unraced hint at 6 positions, 5 of them more than 0.5 coin worse by
    the hint's own figures (up to 19.6), as it had halved the 11 passes on 4 deals; a first
    round of 8 picked the unraced choice at every position, for 1.4 times the cells (benchmarks/README.md, "The race
    against the unraced hint").  At the stack steps 2 is enough: replayed at stack 2 over 16 deals
    (9 positions so far), the race from 2 deals picked the unraced choice at every one, for 0.28
    of its cells."""
    return 2 if candidates > 16 else 8


def rounds(candidates: int, samples: int, first: int = 0) -> list:
    """The deal counts at which the race halves its candidates, for ``samples`` deals in all:
    ``n0, 2 n0, 4 n0, ...`` below ``samples``, then ``samples``; ``n0`` is ``first``, or
    :func:`first_round` of the candidates (the hint's own schedule)."""
    out, n = [], first or first_round(candidates)
    while n < samples:
        out.append(n)
        n *= 2
    return out + [samples]


def _better(seat_is_a: bool):
    return (lambda a, b: a > b) if seat_is_a else (lambda a, b: a < b)


def paired(a: list, b: list) -> tuple:
    """``(mean, (low, high) or None)`` of the differences ``a[i] - b[i]`` (Student's t, 95 %)."""
    return t_interval([float(x - y) for x, y in zip(a, b)])


def survivors(alive: list, values: dict, seat_is_a: bool) -> list:
    """The candidates of ``alive`` (indexes into ``values``, each with the same deals) that go
    on: the better half by mean (ties: the order of ``alive``), none whose paired difference to
    the leader is below 0 by more than :data:`CLEARLY_WORSE` standard errors; two at least."""
    sign = 1 if seat_is_a else -1
    ranked = sorted(alive, key=lambda c: (-sign * sum(values[c]), alive.index(c)))
    leader = ranked[0]
    keep = ranked[:max(2, (len(ranked) + 1) // 2)]
    out = [leader]
    for c in keep[1:]:
        d = [sign * float(x - y) for x, y in zip(values[c], values[leader])]
        n = len(d)
        if n >= 4:
            mean = math.fsum(d) / n
            sd = math.sqrt(math.fsum((v - mean) ** 2 for v in d) / (n - 1))
            if sd > 0 and mean + CLEARLY_WORSE * sd / math.sqrt(n) < 0:
                continue
            if sd == 0 and mean < 0:
                continue
        out.append(c)
    if len(out) < 2:
        out = ranked[:2]
    return sorted(out, key=alive.index)


@dataclass(frozen=True)
class Candidate:
    """One choice's figures (margins A - B) over the deals it was valued on."""

    choice: object              # Lopaka: a card; Glitzerhaus s1/s2: (devil, pass); open: 1 or 2
    same_as: tuple              # the other choices of its class (:func:`merge`)
    mean: Fraction
    ci95: Optional[tuple]       # Student's t, 95 %
    best_share: Fraction        # of its deals, where it was a best choice of those valued
    deals: int
    values: tuple               # its value in each of its deals, in the drawn order


@dataclass(frozen=True)
class SetupHint:
    seat: str
    step: str
    model: Model
    opponent_text: str
    later_text: Optional[str]
    candidates: tuple           # Candidate: the finalists best first, then the rest by when they dropped
    choices: int                # the seat's choices before merging
    deals: int                  # deals drawn (the finalists' count)
    samples: Optional[int]      # the count asked for (None: a time budget)
    seconds: float
    difference: Optional[tuple]  # (mean, ci95) of the recommendation minus the runner-up, per deal
    clear: bool                 # that interval excludes 0 on the recommendation's side

    @property
    def recommended(self):
        return self.candidates[0].choice if self.candidates else None

    @property
    def runner_up(self):
        return self.candidates[1].choice if len(self.candidates) > 1 else None


def setup_hint(view: SetupView, samples: int = 0, seconds: float = 0.0, model: Model = None, workers: int = None,
               progress=None, race: bool = True, checkpoints=(), on_checkpoint=None) -> SetupHint:
    """The setup hint of ``view`` (see the module's doc): over ``samples`` drawn deals, or as many
    as ``seconds`` allow (one of them); ``progress(deals, candidates left)`` after each deal;
    ``race``: False values every choice on every deal (a reference for the benchmarks).

    ``on_checkpoint(hint)`` is called with the hint as it stands after each count of deals in
    ``checkpoints`` (below ``samples``): the hint ``samples`` = that count gives, figure for figure
    (the deals are drawn and valued in order, and the race drops candidates only where a round
    ends: up to that count the two runs are one), its ``seconds`` the time taken so far.  The
    benchmarks compare a count with ten times it in one run this way.  With one worker the deals
    of a round are valued before any is read, so a count is best where a round ends
    (:func:`rounds`)."""
    model = model or default_model(view)
    model.check(view)
    if samples and not 1 <= samples <= MAX_SAMPLES:
        raise SetupHintError(f"--samples {samples}: give 1 to {MAX_SAMPLES:,} deals")
    if not samples and not seconds:
        raise SetupHintError("the setup hint needs a budget: a count of deals (--samples) or a time (--time)")
    start = time.monotonic()
    deadline = 0.0 if samples else start + seconds
    classes = merge(view)
    reps = [rep for rep, _ in classes]
    seat_is_a = view.seat_name == "A"
    values = {i: [] for i in range(len(reps))}
    dropped = []                 # candidate indexes in the order they left the race
    alive = list(range(len(reps)))
    workers = workers_default() if workers is None else workers
    executor = Inline() if workers <= 1 else pool(workers)
    done, out_of_time = 0, False
    limit = samples or 1 << 30
    ends = rounds(len(reps), limit) if samples else None
    k = 0
    try:
        while done < limit and not out_of_time:
            end = ends[k] if samples else first_round(len(reps)) * 2 ** k
            choices = [reps[i] for i in alive]
            futures = [executor.submit(_evaluate, view, index, choices, model.opponent, deadline)
                       for index in range(done, end)]
            for f in futures:
                got = None if out_of_time else f.result()
                if got is None:
                    out_of_time = True
                    continue
                for i, v in zip(alive, got):
                    values[i].append(v)
                done += 1
                if progress is not None:
                    progress(done, len(alive))
                if on_checkpoint is not None and done in checkpoints and done < limit:
                    on_checkpoint(_result(view, model, classes, values, alive, dropped, done, done, start))
            if out_of_time or done >= limit:
                break
            if deadline and time.monotonic() >= deadline:
                break
            if race and len(alive) > 2:
                keep = survivors(alive, values, seat_is_a)
                dropped += [i for i in alive if i not in keep][::-1]
                alive = keep
            k += 1
    except BaseException:
        drop_pool()
        raise
    if out_of_time:
        drop_pool()          # a worker may still be searching a deal nobody will read
    if done == 0:
        raise SetupHintError(f"no deal was valued within {seconds:g} s: give more --time or a --samples count")
    return _result(view, model, classes, values, alive, dropped, done, samples or None, start)


def _result(view: SetupView, model: Model, classes, values: dict, alive: list, dropped: list, done: int,
            samples: Optional[int], start: float) -> SetupHint:
    """The hint of a race that has valued ``done`` deals: ``alive`` the candidates valued on all
    of them, ``dropped`` the others in the order they left; ``values`` is read, not changed."""
    seat_is_a = view.seat_name == "A"
    # trim the finalists to the deals every one of them has (an unfinished round is dropped whole
    # by the loop above, so they agree) and rank
    sign = 1 if seat_is_a else -1
    finalists = sorted(alive, key=lambda i: (-sign * sum(values[i]), alive.index(i)))
    best_counts = {i: 0 for i in values}
    better = _better(seat_is_a)
    deals_of = {i: len(values[i]) for i in values}
    for d in range(done):
        here = [i for i in values if deals_of[i] > d]
        best = values[here[0]][d]
        for i in here[1:]:
            if better(values[i][d], best):
                best = values[i][d]
        for i in here:
            if values[i][d] == best:
                best_counts[i] += 1
    # the finalists first, best first (ties: the larger best share, then the choice's order),
    # then the dropped, the last dropped first
    finalists.sort(key=lambda i: (-sign * Fraction(sum(values[i]), len(values[i])),
                                  -Fraction(best_counts[i], len(values[i])), i))
    order = finalists + dropped[::-1]
    figures = []
    for i in order:
        vals = values[i]
        n = len(vals)
        mean = Fraction(sum(vals), n)
        ci = t_interval([float(v) for v in vals])[1]
        rep, members = classes[i]
        figures.append(Candidate(rep, tuple(m for m in members if m != rep), mean, ci,
                                 Fraction(best_counts[i], n), n, tuple(vals)))
    difference, clear = None, False
    if len(finalists) >= 2:
        difference = paired(values[finalists[0]], values[finalists[1]])
        ci = difference[1]
        clear = ci is not None and (ci[0] > 0 if seat_is_a else ci[1] < 0)
    return SetupHint(view.seat_name, view.step_name, model, model.opponent_text(view), Model.later_text(view),
                     tuple(figures), sum(len(members) for _, members in classes), done, samples,
                     time.monotonic() - start,
                     difference, clear)


def choice_text(choice) -> str:
    """A choice as the notation writes its part: ``7`` (a card), ``3/17`` (devil/pass), ``1`` (a stack)."""
    if isinstance(choice, tuple):
        return f"{choice[0]}/{choice[1]}"
    return str(choice)


__all__ = ["DEFAULT_SETUP_TIME", "DEFAULT_SETUP_TIMES", "MAX_SAMPLES", "Candidate", "Model", "NAMED", "OPPONENT_MODELS", "SetupHint", "SetupHintError", "candidate_values",
           "canonical", "choice_text", "default_model", "merge", "options", "paired", "rounds", "setup_hint",
           "survivors"]
