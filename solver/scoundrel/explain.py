""""Why is this move worse?": the line after a move, room by room, next to the best move's.

Two kinds, as for hints (:mod:`.exacthint`, :mod:`.tablehint`), and the answer always says which:

* :func:`explain_exact` -- the order of the dungeon is known (a numbered deal,
  a written-out deck).  Both lines come from the search core
  (``solve(state=...)``): the best line after the move asked about and the
  best line after the hint's best move.  Proven, or, when the budget stops a
  search, the best lines found with the bounds the hint proved (``exact``
  false) -- never a guess.
* :func:`explain_table` -- a real table (the order is unknown).  A line for
  one order says little, so the answer is the *typical outcome*: the hint's
  own decision rule (:class:`TablePolicy`) played forward after the move and
  after the recommended move, over the same orders of the unseen cards
  (paired), with the win rate and mean score of each and their 95 %
  intervals: what this policy achieves, measured by sampling.  One game, the
  median-score one, is shown room by room.

Where the lines part: :func:`divergence` walks both lines room by room and
names the first room at whose end the explained line is behind -- dead while
the other lives, or with less health (co-op: both heroes' health added), or,
once a line is over, a lower score.  A dead line stays dead, so a move that
loses has a divergence room no later than its death.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Optional

from ..errors import InputError
from ..intervals import ScoreSample, mean_ci
from ..pools import drop_pool, pool, workers_default
from .exacthint import exact_hint
from .notation import format_line
from .policy import POLICY_EXACT_UNSEEN, POLICY_ORDERS, TablePolicy, _OutOfTime  # noqa: F401 (TablePolicy: re-exported)
from .search import DEFAULT_TT_MB, default_engine, solve
from .state import State
from .table import DEFAULT_RNG_SEED, DEFAULT_SAMPLES, ENUMERATE_LIMIT, TablePosition, _check_playing, unseen_orders
from .tablehint import DEFAULT_BELIEF_SECONDS, table_hint

# The real-table policy played forward (TablePolicy): the exact belief search
# while at most this many cards are unseen (measured on solo deal 42: 4 unseen
# with 12 known at the bottom, 163 beliefs in 0.09 s; 7 unseen, over 30,000
# beliefs and 20 s), else the clairvoyant ranking over POLICY_ORDERS orders
# (a whole solo game from the start: about 3-4 s on the project's machine with
# 4-5 orders, 6 s with 8; the playouts must fit in the hint's budget).



# ------------------------------------------------------------ lines in rooms

@dataclass(frozen=True)
class RoomStep:
    """One room of a line: its number, the cards it showed, the moves, and the position after it."""

    number: int          # 1 for the first room of the game
    cards: tuple         # the row when the line entered the room (what was left of it)
    moves: tuple         # resolved actions
    after: State         # the position once the room's moves are played

    def as_dict(self) -> dict:
        a = self.after
        return {"room": self.number, "cards": [str(c) for c in self.cards],
                "moves": " ".join(str(m) for m in self.moves),
                "health": [h.health for h in a.heroes], "finished": a.finished,
                "won": a.won if a.finished else None, "score": a.score}


def line_rooms(start: State, actions) -> tuple:
    """``actions`` (a flat list) played from ``start``, cut into :class:`RoomStep`."""
    steps, state = [], start
    cards, moves, number = state.room, [], state.rooms_done + 1
    for action in actions:
        action = state.resolve(action)
        moves.append(action)
        state = state.play(action)
        if state.finished or state.rooms_done + 1 != number:
            steps.append(RoomStep(number, cards, tuple(moves), state))
            cards, moves, number = state.room, [], state.rooms_done + 1
    if moves:
        steps.append(RoomStep(number, cards, tuple(moves), state))
    return tuple(steps)


def standing(state: State) -> tuple:
    """How well a line stands after a room: alive before dead, then health
    (a finished game: its score).  Higher is better."""
    if state.finished:
        return (0 if state.dead else 1, state.score)
    return (1, sum(h.health for h in state.heroes))


def divergence(explained, best) -> Optional[int]:
    """The number of the first room at whose end the ``explained`` line
    (a tuple of :class:`RoomStep`) stands below the ``best`` one, or None.

    Rooms are compared by their place from the common start; a line that is
    over keeps its final position for the rooms the other still plays.
    """
    if not explained or not best:
        return None
    for i in range(max(len(explained), len(best))):
        a = explained[min(i, len(explained) - 1)]
        b = best[min(i, len(best) - 1)]
        if standing(a.after) < standing(b.after):
            return (explained[i] if i < len(explained) else best[i]).number
    return None


# ------------------------------------------------------------ exact

@dataclass(frozen=True)
class LineFigures:
    """One side of an exact explanation: the action, its line and what is proven."""

    action: object
    rooms: tuple                 # RoomStep, from the position asked about (the action first)
    score: Optional[int]         # the line's final score; None when no complete line was found
    lo: Optional[int]            # proven bounds on the optimum after the action
    hi: Optional[int]
    nodes: int = 0

    @property
    def exact(self) -> bool:
        """The line is proven optimal after the action."""
        return self.score is not None and self.lo == self.hi == self.score

    @property
    def won(self) -> Optional[bool]:
        if self.lo is not None and self.lo > 0:
            return True
        if self.hi is not None and self.hi <= 0:
            return False
        return None

    @property
    def line(self) -> str:
        return format_line([list(r.moves) for r in self.rooms])

    def as_dict(self) -> dict:
        return {"action": str(self.action), "line": self.line, "score": self.score,
                "won": self.won, "exact": self.exact, "score_lo": self.lo, "score_hi": self.hi,
                "rooms": [r.as_dict() for r in self.rooms]}


@dataclass(frozen=True)
class Explanation:
    """The answer of an explanation (``kind`` ``"exact"`` or ``"belief"``)."""

    kind: str
    state: State                 # the position asked about (a table position's probe: unseen on top)
    action: object               # the action explained, fight mode written out
    best: object                 # the hint's best (exact) or recommended (belief) action
    optimal: Optional[bool]      # the action is as good as the best: proven True/False, or None
    exact: bool                  # every figure proven (belief: the hint's achievable figure is exact)
    explained: object = None     # LineFigures (exact) or PolicyFigures (belief)
    compared: object = None      # the best action's side; None when the action is optimal / the best
    diverges: Optional[int] = None   # room where the explained line falls behind (exact: its line;
    #                                 belief: the representative game)
    table: Optional[TablePosition] = None
    hint: object = None          # the Hint the best action comes from
    # belief only
    samples: int = 0             # orders played (pairs of games)
    orders_asked: int = 0        # orders there were to play
    enumerated: bool = False     # the orders are every distinct order (figures exact for the policy)
    stopped: bool = False        # the budget stopped the playouts before every order was played
    rng_seed: Optional[int] = None
    policy: str = ""
    difference: Optional[tuple] = None   # paired mean-score difference (explained - recommended) and its CI
    representative: Optional[dict] = None  # the median-score game: order index, both games' RoomSteps
    nodes: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict:
        """The ``explain`` object of the shipped schema (docs/json.md)."""
        position = self.table if self.table is not None else self.state
        d = {"type": "explain", "rules": self.state.rules.as_dict(), "position": position.as_dict(),
             "kind": self.kind, "action": str(self.action), "best": str(self.best), "optimal": self.optimal,
             "exact": self.exact, "explained": self.explained.as_dict(),
             "compared": None if self.compared is None else self.compared.as_dict(),
             "diverges_at_room": self.diverges}
        if self.kind == "belief":
            rep = self.representative
            d.update(achievable="by this policy (sampled)" if not self.enumerated else "by this policy (every order)",
                     policy=self.policy, samples=self.samples, orders=self.orders_asked,
                     enumerated=self.enumerated, stopped=self.stopped, rng_seed=self.rng_seed,
                     mean_difference=None if self.difference is None else _r(self.difference[0], 4),
                     mean_difference_ci95=None if self.difference is None or self.difference[1] is None
                     else [_r(x, 4) for x in self.difference[1]],
                     representative=None if rep is None else {
                         "order": rep["order"], "unseen_order": [str(c) for c in rep["cards"]],
                         "explained": [r.as_dict() for r in rep["explained"]],
                         "compared": None if rep["compared"] is None else [r.as_dict() for r in rep["compared"]]},
                     hint_figures=[a.as_dict() for a in self.hint.actions
                                   if a.action in (self.action, self.best)])
        d.update(nodes=self.nodes, seconds=round(self.seconds, 6))
        return d


def _r(x, digits):
    return None if x is None or not math.isfinite(x) else round(x, digits)


def _resolve(state: State, action) -> object:
    _check_playing(state)
    if isinstance(action, str):
        from .notation import parse_action
        action = parse_action(action)
    return state.resolve(action)


def _line_after(state: State, action, seconds, max_nodes, timeout, tt_mb, engine, threads: int = 1,
                progress=None) -> tuple:
    """The best line after ``action`` (``solve(state=...)``, on ``threads`` threads):
    ``(rooms, score, proven, nodes)``.  Where the line of fewest rooms is not asked
    for or not proven, the core's canonical walk (``canonical=True``), so the line is
    the same whatever the threads."""
    child = state.play(action)
    if child.finished:
        return line_rooms(state, [action]), child.score, True, 0
    limit = timeout if seconds is None else seconds
    # solo lines of the core come as one of the fewest rooms of that score (a reader
    # wants no needless avoids), within the same limits; in co-op that search mostly
    # costs more than the proof itself (benchmarks/README.md), so the proof's line is kept
    core = (engine or default_engine()) == "core"
    shorten = not state.rules.coop and core
    res = solve(state=child, max_nodes=max_nodes, timeout=limit, tt_mb=tt_mb, engine=engine, shortest=shorten,
                threads=threads if core else 1, canonical=core, progress=progress)
    if not res.line:
        return line_rooms(state, [action]), None, False, res.nodes
    line = res.line
    if res.exact and shorten:
        from .lines import displayed_line
        line = displayed_line(child, line, res.shortest)
    rooms = line_rooms(state, [action] + [a for room in line for a in room])
    return rooms, rooms[-1].after.score, res.exact, res.nodes


def explain_exact(state: State, action, *, budget: float = 0.0, max_nodes=None, timeout=None,
                  tt_mb: int = DEFAULT_TT_MB, engine: Optional[str] = None, workers: Optional[int] = None,
                  progress=None, parallel_lines: bool = True, threads: int = 1,
                  search_progress=None) -> Explanation:
    """Why ``action`` (an action or its notation) is worse than the best, or that it is not.

    The hint (:func:`.exacthint.exact_hint`, within ``budget`` seconds or the
    ``max_nodes``/``timeout`` limits) names the best action and proves
    bounds on every action; the lines after ``action`` and after the best
    one come from the core.  With a budget, the hint gets half of it and the
    lines share what is left: with two lines and two workers they are solved
    at once, each with all of it (``parallel_lines=False``: one after the
    other, half each, as before 2026-12-01; for benchmarks).  ``optimal`` is True when ``action`` is proven
    at least as good as every other action, False when some action is proven
    better, None otherwise.  The lines are compared room by room
    (:func:`divergence`) when the explained one scores less.

    ``threads`` (without a budget): the hint's searches and the two lines run on that
    many threads sharing a table; the figures and the lines are the same whatever the
    count (each line is the canonical walk's where the line of fewest rooms is not
    proven: ``solve(canonical=True)``).  ``search_progress`` (without a budget): as for
    :func:`.exacthint.exact_hint`, told of the hint's searches and then of each line's.

    >>> from scoundrel_solver import deal, Rules
    >>> why = explain_exact(State.new(deal(42, Rules())), "5C")      # doctest: +SKIP
    >>> why.optimal, why.explained.score, why.compared.score
    """
    t0 = time.perf_counter()
    action = _resolve(state, action)
    if budget and budget > 0:
        if max_nodes is not None or timeout is not None:
            raise InputError("a time budget and --max-nodes/--timeout are two ways to stop: give one")
        hint = exact_hint(state, tt_mb=tt_mb, engine=engine, budget=budget / 2, workers=workers,
                          progress=progress)
    else:
        hint = exact_hint(state, tt_mb=tt_mb, max_nodes=max_nodes, timeout=timeout, engine=engine,
                          threads=threads, search_progress=search_progress)
    values = {a.action: a for a in hint.actions}
    best = hint.best
    same = best == action
    wanted = [action] if same else [action, best]
    nodes = hint.nodes
    sides = {}
    # Within a budget, with two lines and two workers, both lines are solved at once,
    # each in a worker of the hint's pool and each with all the time left (one after
    # the other, each had half of it: co-op mid-game lines were then often unproven).
    ahead = {}
    n_workers = workers_default() if workers is None else workers
    if parallel_lines and budget and budget > 0 and len(wanted) == 2 and n_workers > 1:
        left = max(0.05, budget - (time.perf_counter() - t0))
        executor = pool(min(2, n_workers))
        ahead = {a: executor.submit(_line_after, state, a, left, max_nodes, timeout, tt_mb, engine)
                 for a in wanted}
    for i, a in enumerate(wanted):
        seconds = None
        if budget and budget > 0:
            left = budget - (time.perf_counter() - t0)
            seconds = max(0.05, left / (len(wanted) - i))
        v = values[a]
        if a in ahead:
            try:
                rooms, score, proven, used = ahead[a].result()
            except BaseException:
                drop_pool()        # a worker may be mid-search: start afresh next time
                raise
        else:
            # (``seconds`` is None only without a budget: then the threads and the progress)
            told = None
            if search_progress is not None and seconds is None:
                told = search_progress(f"explain: the line after {a}")
            rooms, score, proven, used = _line_after(state, a, seconds, max_nodes, timeout, tt_mb, engine,
                                                     threads=threads if seconds is None else 1, progress=told)
        nodes += used
        lo, hi = v.lo, v.hi
        if proven:
            lo = hi = score
        elif score is not None:
            lo = score if lo is None else max(lo, score)
        sides[a] = LineFigures(a, rooms, score, lo, hi, used)
        if a == action and not same and proven and hint.exact and score == hint.score and not ahead:
            break   # the action is optimal too: no second line needed
    mine = sides[action]
    others = [values[a.action] for a in hint.actions if a.action != action]
    his = {a: (sides[a].lo, sides[a].hi) if a in sides else (values[a].lo, values[a].hi)
           for a in values}
    if not others:
        optimal = True
    elif mine.lo is not None and all(his[o.action][1] is not None and mine.lo >= his[o.action][1]
                                     for o in others):
        optimal = True
    elif mine.hi is not None and any(his[o.action][0] is not None and his[o.action][0] > mine.hi
                                     for o in others):
        optimal = False
    else:
        optimal = None
    compared = None if (same or optimal) else sides.get(best)
    diverges = None
    if compared is not None and mine.score is not None and compared.score is not None \
            and mine.score < compared.score:
        diverges = divergence(mine.rooms, compared.rooms)
    exact = mine.exact and (compared is None or compared.exact) and optimal is not None
    return Explanation("exact", state, action, best, optimal, exact, mine, compared, diverges, hint=hint,
                       nodes=nodes, seconds=time.perf_counter() - t0)


# ------------------------------------------------------------ real table

@dataclass(frozen=True)
class PolicyFigures(ScoreSample):
    """What the policy achieved after one action, over the orders played."""

    action: object
    scores: tuple               # one final score per order played
    enumerated: bool = False    # every distinct order was played: the figures are exact for the policy

    @property
    def _whole(self) -> bool:
        return self.enumerated

    def as_dict(self) -> dict:
        wc, mc = self.win_ci, self.mean_ci
        return {"action": str(self.action), "games": self.games, "wins": self.wins,
                "win_rate": _r(self.win_rate, 6), "win_ci95": None if wc is None else [_r(x, 6) for x in wc],
                "mean_score": _r(self.mean_score, 4),
                "mean_ci95": None if mc is None else [_r(x, 4) for x in mc]}


def _median_index(scores) -> int:
    """The order whose score is the (lower) median, the earliest of equal ones."""
    ranked = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    return ranked[(len(ranked) - 1) // 2]


def explain_table(position: TablePosition, action, *, samples: int = DEFAULT_SAMPLES,
                  rng_seed: int = DEFAULT_RNG_SEED, belief_seconds: Optional[float] = None,
                  seconds: Optional[float] = None, tt_mb: int = 64, max_nodes=None, timeout=None, cache=None,
                  engine: Optional[str] = None, enumerate_limit: int = ENUMERATE_LIMIT,
                  policy_orders: int = POLICY_ORDERS, policy_exact_unseen: int = POLICY_EXACT_UNSEEN,
                  hint=None) -> Explanation:
    """The typical outcome of ``action`` at a real table, next to the recommended action's.

    The recommended action is the real-table hint's (:func:`.tablehint.table_hint`
    with these settings; pass ``hint`` to reuse one).  Then :class:`TablePolicy`
    plays on after each of the two actions over the orders of the unseen cards
    that the hint's clairvoyant figure used (every distinct order when few,
    else ``samples`` drawn with ``rng_seed``), the same order for both actions.
    The playouts stop at ``seconds`` (default: twice ``belief_seconds``, the
    time the hint's belief search may take); games cut short are not counted
    and ``stopped`` says so.  Within the budget the figures depend only on
    the position and the settings, not on the machine.
    """
    t0 = time.perf_counter()
    probe = position.state(position.unseen)
    action = _resolve(probe, action)
    if belief_seconds is None:
        belief_seconds = DEFAULT_BELIEF_SECONDS
    if hint is None:
        hint = table_hint(position, samples=samples, rng_seed=rng_seed, tt_mb=tt_mb, max_nodes=max_nodes,
                          timeout=timeout, cache=cache, engine=engine, enumerate_limit=enumerate_limit,
                          belief_seconds=belief_seconds)
    best = hint.best
    same = best == action
    if seconds is None:
        seconds = 2 * belief_seconds
    policy = TablePolicy(position.rules, orders=policy_orders, exact_unseen=policy_exact_unseen,
                         rng_seed=rng_seed, tt_mb=tt_mb, cache=cache, engine=engine)
    enumerated, orders = unseen_orders(position.unseen, samples, rng_seed, enumerate_limit)
    orders = list(orders)
    start_known = len(position.bottom)
    mine, his, games, stopped = [], [], [], False
    policy.deadline = time.perf_counter() + seconds if seconds > 0 else time.perf_counter()
    for k, order in enumerate(orders):
        state = position.state(order)
        try:
            if seconds <= 0:
                raise _OutOfTime
            a_line, a_end = policy.play(state, action, start_known)
            b_line, b_end = (a_line, a_end) if same else policy.play(state, best, start_known)
        except _OutOfTime:
            stopped = True
            break
        mine.append(a_end.score)
        his.append(b_end.score)
        games.append((k, order, a_line, b_line))
    complete = not stopped
    a_fig = PolicyFigures(action, tuple(mine), enumerated and complete)
    b_fig = None if same else PolicyFigures(best, tuple(his), enumerated and complete)
    difference = None
    if mine and not same:
        diffs = [a - b for a, b in zip(mine, his)]
        if enumerated and complete:
            m = math.fsum(diffs) / len(diffs)
            difference = (m, (m, m))
        else:
            difference = mean_ci(diffs)
    representative, diverges = None, None
    if games:
        k, order, a_line, b_line = games[_median_index(mine)]
        start = position.state(order)
        a_rooms = line_rooms(start, a_line)
        b_rooms = None if same else line_rooms(start, b_line)
        representative = {"order": k, "cards": order, "explained": a_rooms, "compared": b_rooms}
        if b_rooms is not None and a_rooms[-1].after.score < b_rooms[-1].after.score:
            diverges = divergence(a_rooms, b_rooms)
    optimal = True if same else None
    if not same and hint.achievable == "exact":
        v = {a.action: a for a in hint.actions}
        mine_v, best_v = v[action], v[best]
        optimal = (mine_v.win_chance, mine_v.mean_score) == (best_v.win_chance, best_v.mean_score)
    return Explanation("belief", probe, action, best, optimal, hint.achievable == "exact" and complete, a_fig,
                       b_fig, diverges, table=position, hint=hint, samples=len(mine), orders_asked=len(orders),
                       enumerated=enumerated, stopped=stopped, rng_seed=None if enumerated else rng_seed,
                       policy=policy.describe(), difference=difference, representative=representative,
                       nodes=hint.nodes + policy.valuer.nodes, seconds=time.perf_counter() - t0)
