"""The exact hint: every legal action of a position whose order is known, with its proven score.

A numbered deal or a written-out deck: each action's optimal score, best first, actions of
equal proven score ordered by the fewest rooms of their lines (:func:`_order_ties`), and the
plan for the rest of the room.  Within a time budget (:func:`_budget_hint`, :mod:`.budget`)
what is not finished carries proven bounds, never a guess.  The answer is a :class:`.hints.Hint`.
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Optional

from lru import LRU

from ..errors import InputError
from ..pools import workers_default
from .hints import ActionValue, Hint
from .search import DEFAULT_TT_MB, default_engine
from .state import State
from .table import _check_playing
from .valuer import CACHE, SolveCache, _Valuer


def exact_hint(state: State, *, tt_mb: int = DEFAULT_TT_MB, max_nodes=None, timeout=None,
               cache: Optional[SolveCache] = None, engine: Optional[str] = None,
               budget: float = 0.0, workers: Optional[int] = None, progress=None,
               search_progress=None, threads: int = 1) -> Hint:
    """Every legal action of ``state`` with its exact optimal score, best first.

    Actions of equal proven score are ordered by the fewest rooms of an
    optimal line starting with each (solo; ``ActionValue.line_rooms``), then
    by the order of :meth:`State.legal_actions`; a tie whose rooms are not all
    proven, and every co-op tie, keeps the order of the legal actions
    (``Hint.ties`` says which; see :func:`_order_ties`).  The plan is the best
    action followed by the rest of the room along an optimal line from there.

    ``budget`` > 0 (seconds) answers within that time instead, on ``workers``
    processes (:mod:`solver.budget`): what is not finished carries proven
    bounds, never a guess (``progress`` is told a :class:`solver.budget.Progress`
    as it goes).  ``budget`` 0 solves until every score is exact
    (``search_progress``: as for :func:`solver.rating.analyse`), each action's
    search on ``threads`` threads sharing one table (the same scores whatever
    the count).
    """
    from .search import solve

    _check_playing(state)
    if budget and budget > 0:
        if max_nodes is not None or timeout is not None:
            raise InputError("a time budget and --max-nodes/--timeout are two ways to stop: give one")
        if (engine or default_engine()) != "core":
            raise InputError("a time budget needs the compiled core (SCOUNDREL_PURE is set): use a budget of 0")
        return _budget_hint(state, budget, tt_mb=tt_mb, cache=cache, workers=workers, progress=progress)
    t0 = time.perf_counter()
    valuer = _Valuer(state.rules, tt_mb, max_nodes, timeout, cache, engine, threads=threads)
    hits0 = valuer.cache.hits
    values, children = [], []
    actions = state.legal_actions()

    def progress(what):
        return search_progress(f"hint: {what}") if search_progress is not None else None

    for i, action in enumerate(actions):
        child = state.play(action)
        children.append(child)
        stopped = valuer.stopped
        score = valuer.value(child, progress(f"scoring action {i + 1} of {len(actions)} ({action})"))
        if valuer.stopped == stopped:     # proven
            values.append(ActionValue(action, score, exact=True, lo=score, hi=score))
        else:                             # a limit stopped it: the best line found is a lower bound
            values.append(ActionValue(action, score, exact=True, lo=score))
    exact = valuer.exact
    if not exact:
        values = [replace(v, exact=False) for v in values]
    order = sorted(range(len(values)), key=lambda i: (-_key(values[i].score), i))
    order, values, ties, extra = _order_ties(state, order, values, children, engine=engine,
                                             max_nodes=max_nodes, timeout=timeout, search_progress=progress)
    valuer.nodes += extra[0]
    valuer.solves += extra[1]
    ranked = tuple(values[i] for i in order)
    best = ranked[0]
    plan = [best.action]
    child = children[order[0]]
    if not child.finished and child.rooms_done == state.rooms_done:
        res = solve(state=child, tt_mb=tt_mb, max_nodes=max_nodes, timeout=timeout, engine=engine,
                    progress=progress(f"the plan after {best.action}"), threads=threads)
        if res.exact and exact and res.score != best.score:
            raise AssertionError(f"hint inconsistency: {best.action} scores {best.score}, its line {res.score}")
        if res.line:
            plan.extend(res.line[0])
        valuer.nodes += res.nodes
        valuer.solves += 1
    return Hint("exact", state, ranked, tuple(plan), exact=exact, nodes=valuer.nodes, solves=valuer.solves,
                seconds=time.perf_counter() - t0, cache_hits=valuer.cache.hits - hits0, ties=ties)


def _key(score) -> int:
    return -10**9 if score is None else score


# How an exact hint ordered actions of equal proven score (its JSON ``ties``):
#   "none": no two proven actions have the same score;
#   "fewest_rooms": every such tie is ordered by the rooms of each action's line of fewest
#       rooms (proven), then by the order of the legal actions;
#   "actions_order": at least one tie kept the order of the legal actions, because the fewest
#       rooms of some action in it were not proven (a limit, the budget) or not searched (co-op).
TIE_ORDERS = ("none", "fewest_rooms", "actions_order")


def _proven(v: ActionValue) -> bool:
    return v.lo is not None and v.lo == v.hi


def _line_rooms(state: State, child: State, *, engine=None, max_nodes=None, timeout=None, progress=None) -> tuple:
    """(rooms, nodes): the fewest rooms of an optimal line from ``state`` that starts with the
    action leading to ``child`` (the room in play counted, an avoid counts as one room), or None
    when that is not proven within the limits (the core's line search stops at ``LINE_NODES``).

    The count is a fact of the position, the same whatever the search's effort; only whether it
    is proven depends on the limits.  The table is the fixed one of :mod:`.lines`, on one thread,
    so that without a timeout even that does not depend on the caller's --tt-mb or threads."""
    from .lines import CHECK_TT_MB, position_key as line_key
    from .search import solve
    if child.finished:
        return 1, 0
    key = (child.rules, line_key(child))
    rooms = _ROOMS.get(key)           # proven before (a fact, whatever the limits): no search
    nodes = 0
    if rooms is None:
        res = solve(state=child, tt_mb=CHECK_TT_MB, max_nodes=max_nodes, timeout=timeout, engine=engine,
                    shortest=True, threads=1, progress=progress)
        nodes = res.nodes + (res.line_nodes or 0)
        if not (res.exact and res.shortest and res.line):
            return None, nodes
        rooms = len(res.line)
        _ROOMS[key] = rooms
    return rooms + (0 if child.rooms_done == state.rooms_done else 1), nodes


# Proven fewest rooms from a position (no rooms counted before it), kept for a session's later
# hints (`play` asks again after an undo, the service for each move): least recently used out.
ROOMS_CACHE = 4096
_ROOMS = LRU(ROOMS_CACHE)


def _order_ties(state: State, order: list, values: list, children: list, *, engine=None, max_nodes=None,
                timeout=None, deadline=None, search_progress=None) -> tuple:
    """The ranking ``order`` (indices into ``values``) with each tie of proven scores put in the
    order of its actions' fewest rooms (issue 48, item 4: in easy flee, avoiding is often as good
    as facing, and the top action kept avoiding).

    Only actions whose scores are proven and equal change places, and only among the places they
    already held: nothing moves past a different score or an unproven action.  A tie some of whose
    rooms are not proven keeps the order it had.  Solo only: in co-op the search for the fewest
    rooms can cost 2 to 4 times the proof, so co-op ties keep the order of the legal actions.
    ``deadline`` (``time.perf_counter()``): no search past it (the budgeted hint).
    ``search_progress(what)``: the progress callback of each search (a solo first room can take
    seconds).  Returns (order, values with ``line_rooms`` filled where searched, ties, (nodes, solves))."""
    groups = {}
    for i in order:
        if _proven(values[i]):
            groups.setdefault(values[i].lo, []).append(i)
    ties = [g for g in groups.values() if len(g) > 1]
    if not ties:
        return order, values, "none", (0, 0)
    if state.rules.coop:
        return order, values, "actions_order", (0, 0)
    values, order = list(values), list(order)
    nodes = solves = 0
    rule = "fewest_rooms"
    for group in ties:
        rooms = {}
        for i in group:
            if deadline is not None:
                timeout = deadline - time.perf_counter()
                if timeout <= 0.01:
                    rooms[i] = None
                    continue
            what = f"fewest rooms after {values[i].action}"
            r, n = _line_rooms(state, children[i], engine=engine, max_nodes=max_nodes, timeout=timeout,
                               progress=search_progress(what) if search_progress is not None else None)
            nodes += n
            solves += n > 0
            rooms[i] = r
            if r is not None:
                values[i] = replace(values[i], line_rooms=r)
        if any(r is None for r in rooms.values()):
            rule = "actions_order"
            continue
        places = sorted(order.index(i) for i in group)
        for place, i in zip(places, sorted(group, key=lambda i: (rooms[i], i))):
            order[place] = i
    return order, values, rule, (nodes, solves)


_VERDICT_RANK = {True: 2, None: 1, False: 0}


def _budget_hint(state: State, budget: float, *, tt_mb: int, cache, workers, progress) -> Hint:
    """:func:`exact_hint` within ``budget`` seconds (see :mod:`solver.budget`).

    Ranked by proven facts only: a proven win before an unproven verdict
    before a proven loss, then by the proven lower bound, then the upper
    bound, then (actions of equal proven score) the fewest rooms of their lines
    when proven in the time left, then the order of actions.  Once every score is exact this is the
    ranking of the unbounded hint, and so is the plan when its line is proven
    in the time left (else the plan is the best action alone).
    """
    from . import budget as bud
    from .search import solve

    t0 = time.perf_counter()
    cache = CACHE if cache is None else cache
    actions = state.legal_actions()
    children = [state.play(a) for a in actions]
    figures, nodes, tasks = bud.solve_actions(children, budget, tt_mb=tt_mb, cache=cache, progress=progress,
                                              workers=workers_default() if workers is None else workers)
    values = [ActionValue(a, f.lo if f.exact else None, exact=f.exact, lo=f.lo, hi=f.hi)
              for a, f in zip(actions, figures)]
    order = sorted(range(len(values)), key=lambda i: (-_VERDICT_RANK[figures[i].verdict], -figures[i].lo,
                                                     -figures[i].hi, i))
    ties, solves = "none", tasks
    left = budget - (time.perf_counter() - t0)
    if left > bud.MIN_SLICE:
        # the fewest rooms of tied actions, within the time left (unproven: the tie keeps its order)
        order, values, ties, extra = _order_ties(state, order, values, children, deadline=t0 + budget)
        nodes += extra[0]
        solves += extra[1]
    elif any(len([v for v in values if _proven(v) and v.lo == w.lo]) > 1 for w in values if _proven(w)):
        ties = "actions_order"
    ranked = tuple(values[i] for i in order)
    exact = all(f.exact for f in figures)
    plan = [ranked[0].action]
    child = children[order[0]]
    left = budget - (time.perf_counter() - t0)
    if ranked[0].exact and not child.finished and child.rooms_done == state.rooms_done and left > bud.MIN_SLICE:
        res = solve(state=child, tt_mb=tt_mb, timeout=left)
        nodes += res.nodes
        solves += 1
        if res.exact:
            if res.score != ranked[0].score:
                raise AssertionError(f"hint inconsistency: {ranked[0].action} scores {ranked[0].score}, "
                                     f"its line {res.score}")
            if res.line:
                plan.extend(res.line[0])
    return Hint("exact", state, ranked, tuple(plan), exact=exact, nodes=nodes, solves=solves,
                seconds=time.perf_counter() - t0, cache_hits=sum(f.from_cache for f in figures),
                budget=budget, ties=ties)
