"""Hints: the value of every legal next action.

Two kinds of hint, and the output always says which one it is:

* :func:`exact_hint` — a numbered deal or a written-out deck: the order of the
  dungeon is known, so every action gets its exact optimal score.
* :func:`table_hint` — a real table: the player sees the room, the heroes and
  what is gone, not the order of the face-down cards.  Each action gets its
  figures, named for what they are: the win chance and mean score a player
  who cannot see the order *achieves* (the belief search, exact when it
  completes, else a depth-limited upper bound), the *clairvoyant bound*
  (the mean over orders of each order's exact optimum, as if the order were
  seen; enumerated when the orders are few, else sampled with 95 % intervals),
  and, for the recommended action when asked, what a named policy that cannot
  see the order *achieved* over sampled orders (:mod:`.achievable`: a lower
  bound estimate).

Solved positions are kept in a process-wide LRU cache (lru-dict), so a game
that asks many hints of one deal (``scoundrel-solve play``) solves each
position once.
"""
from __future__ import annotations

import json
import math
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Optional

from lru import LRU

from ..errors import InputError
from ..intervals import mean_ci, wilson
from ..pools import workers_default
from .cards import JOKER, MONSTER, WEAPON, Card, CardError, full_pack, parse_card
from .rules import MAX_HEALTH, Rules
from .search import DEFAULT_TT_MB, default_engine
from .state import Hero, PositionError, State
# What a table position is, and how positions are valued, live in their own modules (the
# belief search, the budgeted hint and the table policy need them without the hints); the
# names are re-exported here, where callers have always found them.
from .table import (DEFAULT_RNG_SEED, DEFAULT_SAMPLES, ENUMERATE_LIMIT, TablePosition,  # noqa: F401
                    _check_playing, _pack, _weapon_card, known_bottom_after,
                    known_bottom_of_line, unseen_orders)
from .valuer import _SEARCHERS, CACHE, SolveCache, _searcher, _Valuer, position_key  # noqa: F401


# ------------------------------------------------------------ exact hints

@dataclass(frozen=True)
class ActionValue:
    """One legal action and what it is worth.

    Exact hints fill ``score``; table hints fill the estimates (``win_rate``
    with its interval ``win_low``..``win_high``, ``mean_score`` with
    ``mean_low``..``mean_high``) over ``samples`` orders.
    """

    action: object
    score: Optional[int] = None
    exact: bool = True
    win_rate: Optional[float] = None
    win_low: Optional[float] = None
    win_high: Optional[float] = None
    mean_score: Optional[float] = None
    mean_low: Optional[float] = None
    mean_high: Optional[float] = None
    samples: int = 0
    lo: Optional[int] = None    # exact hints: proven bounds on the optimum after the action
    hi: Optional[int] = None    # (lo == hi == score once exact; None: nothing proven that side)
    # exact hints: the fewest rooms of an optimal line that starts with the action (the room in
    # play counted, an avoid counts as a room), when it was searched for and proven; None otherwise
    # (it is searched for only where it orders a tie: see _order_ties)
    line_rooms: Optional[int] = None

    @property
    def won(self) -> Optional[bool]:
        """Exact hints: does the action keep the win?  None when not proven."""
        if self.exact and self.score is not None:
            return self.score > 0
        if self.lo is not None and self.lo > 0:
            return True
        if self.hi is not None and self.hi <= 0:
            return False
        return None

    def as_dict(self) -> dict:
        """``$defs/action_value`` of the schema; a figure no order gave (every
        search stopped by a limit) is null, never NaN or infinity (not JSON)."""
        d = {"action": str(self.action)}
        if self.win_rate is None:
            d.update(score=self.score, won=self.won, exact=self.exact, score_lo=self.lo, score_hi=self.hi,
                     line_rooms=self.line_rooms)
        else:
            d.update(win_rate=_figure(self.win_rate, 6), win_ci95=[_figure(self.win_low, 6), _figure(self.win_high, 6)],
                     mean_score=_figure(self.mean_score, 4),
                     mean_ci95=[_figure(self.mean_low, 4), _figure(self.mean_high, 4)], exact=self.exact)
        return d


def _figure(x, digits: int):
    return round(x, digits) if x is not None and math.isfinite(x) else None


@dataclass(frozen=True)
class Hint:
    """The answer of a hint: every legal action, best first."""

    kind: str                   # "exact" (known order) or "belief" (real table)
    state: State
    actions: tuple              # of ActionValue, best first
    plan: tuple = ()            # exact hints: the best action and the rest of the room
    exact: bool = True          # every figure proven (table: the belief search completed)
    orders: int = 0             # table hints: orders solved
    orders_planned: int = 0     # table hints: orders it set out to solve (more than orders: the budget stopped it)
    distinct_orders: Optional[int] = None   # table hints: how many distinct orders exist
    unseen: int = 0             # table hints: cards whose order is unknown
    rng_seed: Optional[int] = None
    nodes: int = 0
    solves: int = 0
    seconds: float = 0.0
    cache_hits: int = 0
    table: Optional["TablePosition"] = None   # table hints: the position asked about
    budget: float = 0.0         # the time budget in seconds (exact: 0 until exact; table: 0 none)
    # table hints ("belief"): what the win_chance/mean_score figures are
    achievable: Optional[str] = None  # "exact", "upper_bound" (depth-limited) or "none"
    depth: Optional[int] = None       # deals searched exactly when depth-limited
    beliefs: int = 0                  # beliefs the belief search expanded
    clairvoyant: Optional[str] = None  # the clairvoyant figures: "enumerated" or "sampled" orders
    clairvoyant_proven: bool = True   # no search limit was hit on a clairvoyant order
    sampled_leaves: bool = False      # depth-limited: some leaf's clairvoyant value was sampled
    # the achievable figure of the recommended action (solver/scoundrel/achievable.py): "sampled_lower_bound",
    # "lower_bound" (every order played: exact for the policy), or "none" (with the reason)
    achievable_figure: str = "none"
    achievable_reason: Optional[str] = None
    achievable_planned: int = 0       # games it set out to play (0: none asked)
    achievable_stopped: bool = False  # the budget stopped the games before every planned one
    # exact hints: how actions of equal proven score were ordered (TIE_ORDERS)
    ties: str = "none"

    def figures(self) -> dict:
        """Table hints: what each figure of an action is (JSON ``figures``), keyed by its name."""
        belief = {"exact": "exact", "upper_bound": "belief_upper_bound"}.get(self.achievable, "none")
        return {"win_chance": belief, "mean_score": belief,
                "clairvoyant_win_chance": "clairvoyant_upper_bound",
                "clairvoyant_mean_score": "clairvoyant_upper_bound",
                "achievable_win_chance": self.achievable_figure, "achievable_mean_score": self.achievable_figure}

    @property
    def best(self):
        return self.actions[0].action

    @property
    def score(self) -> Optional[int]:
        return self.actions[0].score

    def winning(self) -> list:
        """Exact hints: the actions that keep the win."""
        return [a for a in self.actions if a.won]

    def as_dict(self) -> dict:
        """The ``hint`` object of the schema (docs/json.md): the position asked
        about (``hint --position`` reads it back), then every action, best first."""
        position = self.table if self.table is not None else self.state
        d = {"type": "hint", "rules": self.state.rules.as_dict(), "position": position.as_dict(),
             "kind": self.kind, "exact": self.exact, "best": str(self.best),
             "actions": [a.as_dict() for a in self.actions]}
        if self.kind == "exact":
            d["score"] = self.score
            d["won"] = self.actions[0].won
            d["plan"] = " ".join(str(a) for a in self.plan)
            d["ties"] = self.ties
        else:
            d.update(achievable=self.achievable, depth=self.depth, beliefs=self.beliefs,
                     sampled_leaves=self.sampled_leaves, clairvoyant=self.clairvoyant,
                     clairvoyant_proven=self.clairvoyant_proven, budget=self.budget, orders=self.orders,
                     orders_planned=self.orders_planned,
                     distinct_orders=self.distinct_orders, unseen=self.unseen, rng_seed=self.rng_seed,
                     figures=self.figures(), achievable_reason=self.achievable_reason,
                     achievable_planned=self.achievable_planned, achievable_stopped=self.achievable_stopped)
        d.update(nodes=self.nodes, solves=self.solves, seconds=round(self.seconds, 6))
        return d


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


# ------------------------------------------------------------ table position

@dataclass(frozen=True)
class TableActionValue:
    """One legal action at a real table, with its two figures, named for what they are.

    ``win_chance``/``mean_score``: what a player who cannot see the order
    achieves after the action, by the belief search (:mod:`.beliefsearch`):
    exact when ``exact``; an upper bound when the search was depth-limited
    (``Hint.achievable == "upper_bound"``); None when no belief figure could
    be computed within the budget.  ``clairvoyant_*``: the mean over orders of
    the unseen cards of each order's exact optimum (a player who sees the
    order), with its 95 % interval (equal ends when every order was solved).
    """

    action: object
    win_chance: Optional[float] = None
    mean_score: Optional[float] = None
    exact: bool = False
    clairvoyant_win_chance: Optional[float] = None
    clairvoyant_win_low: Optional[float] = None
    clairvoyant_win_high: Optional[float] = None
    clairvoyant_mean_score: Optional[float] = None
    clairvoyant_mean_low: Optional[float] = None
    clairvoyant_mean_high: Optional[float] = None
    samples: int = 0
    # the recommended action only: a policy that cannot see the order played forward
    # (solver/scoundrel/achievable.py), a lower bound estimate; None where not played
    achievable: Optional[object] = None     # achievable.PolicyGames

    def as_dict(self) -> dict:
        """``$defs/table_action_value`` of the schema; missing figures are null."""
        f = lambda x, d: _figure(None if x is None else float(x), d)  # noqa: E731
        g = self.achievable
        games = g.games if g is not None else 0
        wc = g.win_ci if games else None
        mc = g.mean_ci if games else None
        return {"action": str(self.action), "win_chance": f(self.win_chance, 6),
                "mean_score": f(self.mean_score, 4), "exact": self.exact,
                "clairvoyant_win_chance": f(self.clairvoyant_win_chance, 6),
                "clairvoyant_win_ci95": [f(self.clairvoyant_win_low, 6), f(self.clairvoyant_win_high, 6)],
                "clairvoyant_mean_score": f(self.clairvoyant_mean_score, 4),
                "clairvoyant_mean_ci95": [f(self.clairvoyant_mean_low, 4), f(self.clairvoyant_mean_high, 4)],
                "achievable_win_chance": f(g.win_chance, 6) if games else None,
                "achievable_win_chance_ci": None if wc is None else [f(x, 6) for x in wc],
                "achievable_mean_score": f(g.mean_score, 4) if games else None,
                "achievable_mean_score_ci": None if mc is None else [f(x, 4) for x in mc],
                "achievable_games": games,
                "achievable_policy": None if g is None else g.policy}


DEFAULT_BELIEF_SECONDS = 5.0
# Within a budget, with the achievable figure asked: the clairvoyant orders take at most
# the first half, the belief search stops at this share, the policy's games take the rest.
BELIEF_SHARE = 0.625


def score_range(state: State) -> tuple:
    """The lowest and the highest final score any play from ``state`` can have:
    every monster left unbeaten with no health (a loss scores health minus the
    monsters left), or full health (solo: plus the largest potion left, as a
    win ending on a potion at full health scores its value on top)."""
    cards = list(state.room) + list(state.dungeon)
    low = -sum(c.value for c in cards if c.is_monster)
    if state.rules.coop:
        return low, state.rules.heroes * MAX_HEALTH
    potions = [c.value for c in cards if c.is_potion]
    return low, MAX_HEALTH + (max(potions) if potions else 0)


def table_hint(position: TablePosition, *, samples: int = DEFAULT_SAMPLES, rng_seed: int = DEFAULT_RNG_SEED,
               tt_mb: int = 64, max_nodes=None, timeout=None, cache: Optional[SolveCache] = None,
               engine: Optional[str] = None, enumerate_limit: int = ENUMERATE_LIMIT,
               belief_seconds: Optional[float] = DEFAULT_BELIEF_SECONDS, max_beliefs: Optional[int] = None,
               time_budget: Optional[float] = None, achievable_games: int = 0) -> Hint:
    """Rate every legal action when the order of the unseen cards is unknown.

    The figures of each action (:class:`TableActionValue`; ``Hint.figures()``
    names them):

    * **order unseen** — the belief search (:class:`.beliefsearch.CoreBeliefSearch`,
      in C; the pure-Python :class:`.beliefsearch.BeliefSearch` with the Python
      engine, with per-search limits ``max_nodes``/``timeout`` given without a
      budget, or past its unseen-card limit):
      the best a player who cannot see the order can do after the action.
      Exact when the search completes within ``belief_seconds`` /
      ``max_beliefs`` (``achievable == "exact"``); otherwise the search is
      repeated depth-limited (``depth`` 0: the rest of this room decided
      without seeing the order, each following deal valued clairvoyantly),
      which is an **upper bound** (``"upper_bound"``); if that too runs out
      of budget there is no belief figure (``"none"``).
    * **clairvoyant** — each order (all distinct orders when there are at most
      ``max(samples, enumerate_limit)``, else ``samples`` random ones drawn with
      ``rng_seed``) solved exactly after the action, as if it were known: what
      a player who sees the order gets, an upper bound on the achievable one.
      The same orders serve every action.
    * **achievable by a policy** (``achievable_games`` > 0, and only when the
      belief figure is not exact): for the recommended action, the hint's own
      rule (:class:`.explain.TablePolicy` with :data:`.achievable.HINT_ORDERS`
      orders, exact belief search at :data:`.achievable.HINT_EXACT_UNSEEN`
      unseen cards or fewer) played to the end of the game over
      ``achievable_games`` orders (every distinct order when at most that
      many, else the first of the seeded sequence, as the clairvoyant
      figure's): a **lower bound estimate** with its 95 % intervals
      (:mod:`.achievable`).

    Actions are ranked by the belief figure (win chance, then mean score)
    when there is one, else by the clairvoyant figure, then by the fixed order
    of legal actions (the policy's figure never changes the ranking).

    ``time_budget`` (seconds; None or 0: none): the whole hint answers within
    it, give or take one search's check of the clock.  The clairvoyant orders
    take at most half of it, the belief search what is left (and at most
    ``belief_seconds`` per attempt); with ``achievable_games`` the belief
    search stops at :data:`BELIEF_SHARE` (5/8) of it and the policy's games take
    what is left until the end (games not finished are not counted: ``achievable_*``
    says how many were).  Without a budget every one of the
    ``achievable_games`` games is played.  Orders not solved in time are left out,
    and said so: sampled orders keep an honest estimate over fewer samples
    (a wider interval); a cut enumeration (``clairvoyant == "partial"``) gives
    the mean over the orders solved and, as its interval, proven bounds over
    all of them (each order not solved counted at the worst and the best
    score it could have).

    The steps, each a function below: :func:`_check_table_request`, then
    :func:`_clairvoyant_figures`, :func:`_belief_figures` (within its share of the
    budget), :func:`_table_action_values` (each action's figures, ranked) and
    :func:`_policy_figure` (the achievable figure of the recommended action); the
    Hint is assembled here.
    """
    _check_table_request(samples, achievable_games)
    t0 = time.perf_counter()
    deadline = t0 + time_budget if time_budget else None
    probe = position.state(position.unseen)
    _check_playing(probe)
    actions = probe.legal_actions()
    valuer = _Valuer(position.rules, tt_mb, max_nodes, timeout, cache, engine)
    hits0 = valuer.cache.hits
    clair = _clairvoyant_figures(position, actions, valuer, samples=samples, rng_seed=rng_seed,
                                 enumerate_limit=enumerate_limit, timeout=timeout, t0=t0, time_budget=time_budget)
    belief = _belief_figures(position, valuer, t0=t0, time_budget=time_budget, policy_games=achievable_games > 0,
                             samples=samples, rng_seed=rng_seed, tt_mb=tt_mb, max_nodes=max_nodes, timeout=timeout,
                             cache=cache, engine=engine, enumerate_limit=enumerate_limit,
                             belief_seconds=belief_seconds, max_beliefs=max_beliefs)
    ranked = _table_action_values(actions, clair, belief, probe)
    policy = _policy_figure(position, ranked, valuer, belief=belief, distinct=clair.distinct,
                            games=achievable_games, rng_seed=rng_seed, deadline=deadline, tt_mb=tt_mb,
                            max_nodes=max_nodes, timeout=timeout, cache=cache, engine=engine)
    return Hint("belief", probe, policy.ranked, (policy.ranked[0].action,), exact=belief.achievable == "exact",
                orders=clair.orders, distinct_orders=clair.distinct, unseen=len(position.unseen),
                rng_seed=None if clair.kind == "enumerated" else rng_seed, nodes=valuer.nodes,
                solves=valuer.solves, seconds=time.perf_counter() - t0,
                cache_hits=valuer.cache.hits - hits0, table=position, achievable=belief.achievable,
                depth=belief.depth, beliefs=belief.beliefs, clairvoyant=clair.kind, clairvoyant_proven=clair.proven,
                sampled_leaves=belief.sampled_leaves, budget=float(time_budget or 0.0), orders_planned=clair.planned,
                achievable_figure=policy.figure, achievable_reason=policy.reason,
                achievable_planned=policy.planned, achievable_stopped=policy.stopped)


def _check_table_request(samples: int, achievable_games) -> None:
    """Refuse what a table hint cannot be asked (before any clock starts): fewer than one
    sample, or a number of policy games that is not a whole number of at least 0."""
    if samples < 1:
        raise PositionError("--samples must be at least 1")
    if not isinstance(achievable_games, int) or isinstance(achievable_games, bool) or achievable_games < 0:
        raise InputError(f"achievable games: expected a whole number of at least 0, got {_show(achievable_games)}")


@dataclass
class _Clairvoyant:
    """The clairvoyant figures' raw material: per action, the exact score of each order
    solved (None where a search limit stopped it), and how the orders were chosen."""

    scores: list        # scores[i][j]: action i under the j-th order solved
    orders: int         # orders solved (all of ``scores[i]``)
    planned: int        # orders it set out to solve
    distinct: int       # distinct orders of the unseen cards
    kind: str           # "enumerated", "sampled" or "partial" (an enumeration the budget cut)
    proven: bool        # no search limit was hit on any order solved


def _clairvoyant_figures(position: TablePosition, actions: list, valuer: _Valuer, *, samples: int,
                         rng_seed: int, enumerate_limit: int, timeout, t0: float,
                         time_budget: Optional[float]) -> _Clairvoyant:
    """Solve every action under each order of the unseen cards (all distinct orders when
    few enough, else ``samples`` seeded ones), as if the order were seen.

    Owns the clairvoyant half of the budget: with ``time_budget`` the orders stop at
    ``t0 + time_budget / 2`` (the first order is always solved, with the whole budget if
    need be) and each search gets what is left of its order's time; an order a search of
    which the budget's clock stopped is left out.  Restores ``valuer.timeout`` after.
    """
    deadline = t0 + time_budget if time_budget else None
    distinct = position.distinct_orders()
    enumerated, orders_to_solve = unseen_orders(position.unseen, samples, rng_seed, enumerate_limit)
    planned = distinct if enumerated else samples
    kind = "enumerated" if enumerated else "sampled"
    scores = [[] for _ in actions]
    orders = 0
    clair_deadline = None if deadline is None else t0 + time_budget / 2
    for order in orders_to_solve:
        limit_at = None
        if clair_deadline is not None:
            if clair_deadline - time.perf_counter() <= 0 and orders:
                break
            # (the first order is always solved, with the whole budget if need be)
            limit_at = clair_deadline if orders else deadline
        state = position.state(order)
        stopped, proven = valuer.stopped, valuer.exact
        row = []
        for action in actions:
            if limit_at is not None:
                # each search gets what is left of the order's time, not all of it
                left = limit_at - time.perf_counter()
                valuer.timeout = max(1e-3, min(timeout, left) if timeout else left)
            row.append(valuer.value(state.play(action)))
        if clair_deadline is not None and orders and valuer.stopped > stopped \
                and not (timeout and valuer.timeout >= timeout):
            # the budget's clock stopped a search of this order: leave the order out
            valuer.exact = proven
            break
        for i, v in enumerate(row):
            scores[i].append(v)
        orders += 1
    valuer.timeout = timeout
    if orders < planned and enumerated:
        kind = "partial"
    return _Clairvoyant(scores, orders, planned, distinct, kind, valuer.exact)


@dataclass
class _Beliefs:
    """What the belief search gave: its kind of figure and, per action, (win chance, mean score)."""

    achievable: str = "none"        # "exact", "upper_bound" (depth-limited) or "none"
    depth: Optional[int] = None     # the depth of a depth-limited figure
    values: Optional[list] = None   # values[i]: (win chance, mean score) of action i; None: no figure
    beliefs: int = 0                # beliefs expanded, over every attempt
    sampled_leaves: bool = False    # depth-limited: some leaf's clairvoyant value was sampled


def _belief_figures(position: TablePosition, valuer: _Valuer, *, t0: float, time_budget: Optional[float],
                    policy_games: bool, samples: int, rng_seed: int, tt_mb: int, max_nodes, timeout, cache, engine,
                    enumerate_limit: int, belief_seconds: Optional[float],
                    max_beliefs: Optional[int]) -> _Beliefs:
    """The belief search: exact if it completes, else depth-limited (depth 0: an upper bound).

    Owns the belief search's share of ``time_budget`` (counted from ``t0``): all of what
    the clairvoyant orders left, or up to :data:`BELIEF_SHARE` of it with the
    ``policy_games`` to play after it; within it each attempt gets at most
    ``belief_seconds`` and each leaf's solve no more than the attempt.  Adds its nodes
    and solves to ``valuer``'s counts (attempts that ran out included).
    """
    from .beliefsearch import MAX_UNSEEN, BeliefSearch, BudgetExceeded, CoreBeliefSearch

    deadline = None
    if time_budget:
        # With the policy's games to play it stops at BELIEF_SHARE of the budget and leaves
        # them the rest (benchmarks/README.md, "Achievable figure": at 2 s no mid-game belief
        # search that had not finished by then finished in the next half second).
        deadline = t0 + (BELIEF_SHARE * time_budget if policy_games else time_budget)
    out = _Beliefs()
    attempts = [None, 0] if belief_seconds is None or belief_seconds > 0 else []
    for horizon in attempts:
        seconds, per_solve = belief_seconds, timeout
        if deadline is not None:
            # within what is left of the budget, each leaf's solve too
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            seconds = left if seconds is None else min(seconds, left)
            per_solve = min(timeout, seconds) if timeout else seconds
        if (engine or default_engine()) == "core" and len(position.unseen) <= MAX_UNSEEN and not max_nodes \
                and not (timeout and deadline is None):
            # the C engine (solver/scoundrel/_belief.pyx); its leaves are solved by its own
            # searcher, within the budget's clock (per-leaf limits: the Python search).
            # Sampled depth-0 leaves use common orders (the same orders wherever the
            # unseen cards are the same), so the actions are compared on the same
            # orders: the ranking the belief player won more with (benchmarks/README.md,
            # "The real-table player").
            search = CoreBeliefSearch(position.rules, max_beliefs=max_beliefs, timeout=seconds, horizon=horizon,
                                      samples=samples, rng_seed=rng_seed, enumerate_limit=enumerate_limit,
                                      tt_mb=tt_mb, common_orders=True)
        else:
            search = BeliefSearch(position.rules, _Valuer(position.rules, tt_mb, max_nodes, per_solve, cache, engine),
                                  max_beliefs=max_beliefs, timeout=seconds, horizon=horizon, samples=samples,
                                  rng_seed=rng_seed, enumerate_limit=enumerate_limit)
        try:
            values = [v for _, v in search.action_values(position)]
        except BudgetExceeded:
            out.beliefs += search.beliefs
            valuer.nodes += search.nodes
            valuer.solves += search.solves
            continue
        out.beliefs += search.beliefs
        valuer.nodes += search.nodes
        valuer.solves += search.solves
        out.values = values
        out.achievable = "exact" if horizon is None else "upper_bound"
        out.depth = horizon
        out.sampled_leaves = search.horizon_sampled
        break
    return out


def _table_action_values(actions: list, clair: _Clairvoyant, belief: _Beliefs, probe: State) -> tuple:
    """Each action's figures (:class:`TableActionValue`), best first.

    The clairvoyant figure with its interval: equal ends when every order was enumerated;
    proven bounds over all the orders when the budget cut an enumeration (each order not
    solved at the worst and the best score of ``probe``, the position); 95 % intervals over
    sampled orders.  Ranked by the belief figure when there is one, else by the
    clairvoyant one, then by the order of ``actions``.
    """
    values = []
    for i, (action, sc) in enumerate(zip(actions, clair.scores)):
        known = [s for s in sc if s is not None]
        n = len(known)
        wins = sum(1 for s in known if s > 0)
        mean = sum(known) / n if n else float("nan")
        if clair.kind == "enumerated":
            lo_w = hi_w = wins / n if n else 0.0
            lo_m = hi_m = mean
        elif clair.kind == "partial":
            # proven bounds over all the orders: the ones not solved at the worst and the best
            rest = clair.planned - n
            lo_w, hi_w = wins / clair.planned, (wins + rest) / clair.planned
            low, high = score_range(probe)
            lo_m, hi_m = (sum(known) + rest * low) / clair.planned, (sum(known) + rest * high) / clair.planned
        else:
            lo_w, hi_w = wilson(wins, n) or (0.0, 1.0)
            if n:
                lo_m, hi_m = mean_ci(known)[1] or (mean, mean)
            else:
                lo_m, hi_m = float("-inf"), float("inf")
        w = m = None
        if belief.values is not None:
            w, m = belief.values[i]
        values.append(TableActionValue(action, w, m, exact=belief.achievable == "exact",
                                       clairvoyant_win_chance=wins / n if n else 0.0, clairvoyant_win_low=lo_w,
                                       clairvoyant_win_high=hi_w, clairvoyant_mean_score=mean,
                                       clairvoyant_mean_low=lo_m, clairvoyant_mean_high=hi_m, samples=n))
    if belief.values is not None:
        rank = lambda i: (-values[i].win_chance, -values[i].mean_score, i)  # noqa: E731
    else:
        rank = lambda i: (-values[i].clairvoyant_win_chance, -values[i].clairvoyant_mean_score, i)  # noqa: E731
    return tuple(values[i] for i in sorted(range(len(values)), key=rank))


@dataclass
class _Policy:
    """The achievable figure of the recommended action, and the ranking that carries it."""

    ranked: tuple                   # the actions, best first (the first with its games, if any)
    figure: str = "none"            # "lower_bound", "sampled_lower_bound" or "none"
    reason: Optional[str] = None    # why there is none
    planned: int = 0                # games it set out to play
    stopped: bool = False           # the budget stopped the games before every planned one


def _policy_figure(position: TablePosition, ranked: tuple, valuer: _Valuer, *, belief: _Beliefs, distinct: int,
                   games: int, rng_seed: int, deadline: Optional[float], tt_mb: int, max_nodes, timeout,
                   cache, engine) -> _Policy:
    """The recommended action's achievable figure: the hint's own rule played forward
    over ``games`` orders (:func:`.achievable.play_policy`), until ``deadline`` (what the
    belief search left of the budget); or the reason there is none.  Adds the games'
    nodes to ``valuer``'s."""
    out = _Policy(ranked)
    if games <= 0:
        out.reason = "not asked"
    elif belief.achievable == "exact":
        out.reason = "not needed: the belief search is exact"
    elif deadline is None and (max_nodes or timeout):
        # the policy's every move rests on exact solves: per-search limits cannot bound them
        out.reason = "not played under per-search limits (--max-nodes/--timeout): give --time instead"
    elif deadline is not None and deadline - time.perf_counter() <= 0:
        out.reason = "the budget ended before one game was finished"   # none could start
        out.planned, out.stopped = min(distinct, games), True
    else:
        from .achievable import play_policy
        played = play_policy(position, ranked[0].action, games=games, rng_seed=rng_seed,
                             deadline=deadline, tt_mb=tt_mb, cache=cache, engine=engine)
        valuer.nodes += played.nodes
        out.planned, out.stopped = played.planned, played.stopped
        if played.games:
            out.figure = "lower_bound" if played.exact else "sampled_lower_bound"
            out.ranked = (replace(ranked[0], achievable=played),) + ranked[1:]
        else:
            out.reason = "the budget ended before one game was finished"
    return out


# ------------------------------------------------------- known bottom cards

def _parse_weapon(token) -> Optional[int]:
    """``7D``, ``7`` or ``none`` / ``-`` -> weapon value (None for no weapon)."""
    if token is None:
        return None
    if isinstance(token, bool):
        raise PositionError(f"weapon: expected a diamond card such as 7D, got {_show(token)}")
    if isinstance(token, int):
        value = token
    elif isinstance(token, Card):
        if token.kind != WEAPON:
            raise PositionError(f"weapon {token} is not a weapon: weapons are the diamonds 2 to 10")
        return token.value
    else:
        text = str(token).strip()
        if text.lower() in ("", "-", "none", "no"):
            return None
        if text.isdigit():
            value = int(text) if len(text) <= 3 else 10**3
        else:
            try:
                card = parse_card(text)
            except CardError:
                raise PositionError(f"weapon {text[:20]!r}: expected a diamond card such as 7D, its value, "
                                    f"or none") from None
            if card.kind != WEAPON:
                raise PositionError(f"weapon {card} is not a weapon: weapons are the diamonds 2 to 10")
            return card.value
    if not 2 <= value <= 10:
        raise PositionError(f"weapon value {_show(value)} is not a diamond 2 to 10")
    return value


def _parse_last_kill(token) -> Optional[int]:
    if token is None:
        return None
    if isinstance(token, bool):
        raise PositionError(f"last kill: expected a monster value such as 12, got {_show(token)}")
    if isinstance(token, int):
        return token
    if isinstance(token, Card):
        card = token
    else:
        text = str(token).strip()
        if text.lower() in ("", "-", "none", "fresh"):
            return None
        if text.isdigit():
            return int(text) if len(text) <= 3 else 10**3
        try:
            card = parse_card(text)
        except CardError:
            raise PositionError(f"last kill {text[:20]!r}: expected a monster value such as 12, a monster "
                                f"card such as QS, or - for a fresh weapon") from None
    if card.kind != MONSTER:
        raise PositionError(f"last kill {card} is not a monster")
    return card.value


def _universe(rules: Rules, pack: bool) -> Counter:
    """The cards a position may hold: the pack of a numbered deal (``pack``), or
    every card a custom dungeon of the mode may hold (RULES §5: one of each,
    two jokers)."""
    if pack:
        return _pack(rules)
    return Counter({c: (2 if c is JOKER else 1) for c in full_pack() if rules.card_allowed(c)})


def _check_cards(cards, where: str) -> tuple:
    cards = tuple(cards)
    for c in cards:
        if not isinstance(c, Card):
            raise PositionError(f"{where}: expected cards, got {_show(c)}")
    return cards


def _check_int(value, where: str, none_ok: bool = False):
    if value is None and none_ok:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{where}: expected a whole number, got {_show(value)} ({_kind(value)})")


def _check_bool(value, where: str):
    if not isinstance(value, bool):
        raise PositionError(f"{where}: expected true or false, got {_show(value)} ({_kind(value)})")


def make_table_position(rules: Rules, room, *, health=(), weapon=(), last_kill=(), leader: int = 1,
                        taken: Optional[int] = None, potion_used=(), help_used: bool = False,
                        avoided: bool = False, gone=None, unseen=None, bottom=(),
                        room_number: Optional[int] = None) -> TablePosition:
    """Check what a player typed and build the :class:`TablePosition`.

    ``room``, ``gone``, ``unseen`` and ``bottom`` are cards; ``health``,
    ``weapon`` and ``last_kill`` have one entry per hero (hero 1 first;
    missing entries mean health 20, no weapon, fresh); a weapon is a diamond
    card, its value, or None; ``leader`` and ``potion_used`` count heroes
    from 1.  Give the cards already gone *or* the cards still unseen (with
    neither, nothing is gone yet).

    With ``gone`` (or neither) the face-down cards are the rest of the pack
    of a numbered deal, and the counts are checked against that pack (each
    faced room removes 3 cards).  With ``unseen`` the face-down cards are
    known, so the position may come from a custom dungeon: its cards must be
    ones such a dungeon may hold, but their number is not checked against
    the pack.  Raises :class:`PositionError` naming the first thing that
    cannot be, a wrong type included.
    """
    if not isinstance(rules, Rules):
        raise PositionError(f"rules: expected a Rules value, got {_show(rules)}")
    nh = rules.heroes
    who = (lambda i: "the hero") if nh == 1 else (lambda i: f"hero {i + 1}")
    health, weapon, last_kill = tuple(health), tuple(weapon), tuple(last_kill)
    for name, values in (("health", health), ("weapon", weapon), ("last kill", last_kill)):
        if len(values) > nh:
            raise PositionError(f"{len(values)} {name} values given, but {rules.mode} has {nh} hero"
                                + ("es" if nh > 1 else ""))
    _check_int(leader, "leader")
    _check_int(taken, "taken", none_ok=True)
    _check_int(room_number, "room number", none_ok=True)
    _check_bool(help_used, "help used")
    _check_bool(avoided, "avoided")
    potion_used = tuple(potion_used)
    for h in potion_used:
        _check_int(h, "potion used (hero numbers)")
    room = _check_cards(room, "room")
    bottom = _check_cards(bottom, "bottom")
    if gone is not None:
        gone = _check_cards(gone, "gone")
    if unseen is not None:
        unseen = _check_cards(unseen, "unseen")
    if gone is not None and unseen is not None:
        raise PositionError("give the cards already gone or the cards still unseen, not both")
    whole_pack = unseen is None
    pack = _universe(rules, whole_pack)
    top = max(c.value for c in pack if c.kind == MONSTER)
    heroes = []
    weapon_cards = []
    for i in range(nh):
        hp = health[i] if i < len(health) and health[i] is not None else MAX_HEALTH
        _check_int(hp, f"health of {who(i)}")
        if not 1 <= hp <= MAX_HEALTH:
            raise PositionError(f"health {_show(hp)} of {who(i)} is impossible: health is 1 to {MAX_HEALTH} "
                                f"during the game")
        w = _parse_weapon(weapon[i] if i < len(weapon) else None)
        k = _parse_last_kill(last_kill[i] if i < len(last_kill) else None)
        if k is not None:
            if w is None:
                raise PositionError(f"{who(i)} has a last kill ({_show(k)}) but no weapon")
            if not 2 <= k <= top:
                raise PositionError(f"last kill {_show(k)} of {who(i)} is not a monster value (2 to {top})")
        if w is not None:
            weapon_cards.append((i, _weapon_card(w)))
        heroes.append(Hero(hp, w or 0, k))
    if not 1 <= leader <= nh:
        raise PositionError(f"leader {_show(leader)} is not a hero (1{' or 2' if nh > 1 else ''})")
    if room_number is not None and room_number < 1:
        raise PositionError(f"room number {_show(room_number)} is impossible: rooms count from 1")
    if not 1 <= len(room) <= 4:
        raise PositionError(f"a room holds 1 to 4 cards, got {len(room)}")
    seen_where = {}

    def place(card, where):
        if pack[card] == 0:
            extra = (" (solo removes the red J, Q, K, A)" if not rules.coop else
                     f" (the {rules.deck_size}-card pack)")
            raise PositionError(f"card {card} is not in the {rules.mode} deck{extra}")
        places = seen_where.setdefault(card, [])
        places.append(where)
        if len(places) > pack[card]:
            if len(set(places)) == 1:
                raise PositionError(f"card {card} is listed twice in {where}")
            raise PositionError(f"card {card} is both in {places[0]} and in {where}")

    for card in room:
        place(card, "the room")
    for i, card in weapon_cards:
        place(card, f"{who(i)}'s weapon")
    for card in bottom:
        place(card, "the bottom of the dungeon")
    if unseen is not None:
        for card in unseen:
            place(card, "the unseen cards")
        unseen = tuple(sorted(unseen))
    else:
        for card in (gone or ()):
            if card.kind == WEAPON and any(c is card for _, c in weapon_cards) and \
                    seen_where.get(card, []) and len(seen_where[card]) == 1:
                continue  # an equipped weapon may be listed as gone too: it left the dungeon
            place(card, "the gone cards")
        rest = pack.copy()
        for card, places in seen_where.items():
            rest[card] -= len(places)
        unseen = tuple(sorted(rest.elements()))
    left_after_room = len(unseen) + len(bottom)
    final = left_after_room == 0
    n = sum(pack.values())
    if not final:
        if len(room) < 2:
            raise PositionError(f"a room that is not the final one holds 2 to 4 cards while it is faced, "
                                f"got {len(room)}")
        expected = 4 - len(room)
        if taken is not None and taken != expected:
            raise PositionError(f"{_show(taken)} card(s) taken is impossible with {len(room)} cards left in a room "
                                f"that is not final (it had 4)")
        taken = expected
        start = 4 + left_after_room
        if whole_pack and (start % 3 != n % 3 or start > n):
            raise PositionError(f"{len(room)} room card(s), {taken} taken and {left_after_room} face down "
                                f"cannot happen with the {n}-card deck: each faced room removes 3 cards, "
                                f"so a room starts with {n} minus a multiple of 3 cards left")
    else:
        if taken is None:
            taken = (n - len(room)) % 3 if whole_pack else 0
            if len(room) + taken > 4:
                taken -= 3
        if taken < 0 or len(room) + taken > 4 or (whole_pack and (len(room) + taken) % 3 != n % 3):
            raise PositionError(f"a final room with {len(room)} card(s) left and {_show(taken)} taken cannot happen"
                                + (f" with the {n}-card deck" if whole_pack else ""))
    used = [False, False]
    for h in potion_used:
        if not 1 <= h <= nh:
            raise PositionError(f"potion used by hero {_show(h)}: there is no such hero")
        used[h - 1] = True
    if any(used) and taken == 0:
        raise PositionError("a potion cannot have been drunk in this room: no card of it was taken yet")
    if help_used and not rules.coop:
        raise PositionError("the help card is a co-op rule; solo has no partner")
    if help_used and taken == 0:
        raise PositionError("the help card cannot have been given yet: no card of this room was taken")
    if avoided and not rules.avoid_allowed():
        raise PositionError("the hard flee rule never allows avoiding, so no room was avoided")
    for i, h in enumerate(heroes):
        if h.last_kill is not None:
            # the card killed last must be out of play
            value = h.last_kill
            free = sum(n_ for c, n_ in pack.items() if c.kind == MONSTER and c.value == value)
            held = sum(1 for c in list(room) + list(unseen) + list(bottom) if c.kind == MONSTER and c.value == value)
            if held >= free:
                raise PositionError(f"last kill {value} of {who(i)} is impossible: every monster of value "
                                    f"{value} is still in play")
    return TablePosition(rules=rules, room=room, heroes=tuple(heroes), unseen=unseen, bottom=bottom,
                         leader=leader - 1, taken=taken, potion_used=tuple(used), help_used=help_used,
                         avoided_last=avoided, room_number=room_number)


# ------------------------------------------------------ the JSON position

RULE_KEYS = ("mode", "flee", "durability", "deck_size")
HERO_KEYS = ("health", "weapon", "last_kill", "potion_used")
POSITION_KEYS = ("rules", "room", "heroes", "leader", "taken", "help_used", "avoided",
                 "dungeon", "unseen", "bottom", "gone")
# Worked out from the rest; printed for readers, checked (never believed) when read back.
DERIVED_KEYS = ("room_number", "final_room", "finished", "won", "score", "dungeon_left")
# Keys of the earlier position forms, and where their value lives now.
_MOVED = {
    "health": "each hero's health is heroes[i].health",
    "weapon": "each hero's weapon is heroes[i].weapon",
    "last_kill": "each hero's last kill is heroes[i].last_kill",
    "potion_used": "each hero's potion is heroes[i].potion_used",
    "mode": "the rules go in \"rules\": {\"mode\": ...}",
    "flee": "the rules go in \"rules\": {\"flee\": ...}",
    "durability": "the rules go in \"rules\": {\"durability\": ...}",
    "deck_size": "the rules go in \"rules\": {\"deck_size\": ...}",
    "avoided_last": "it is called \"avoided\"",
    "taken_in_room": "it is called \"taken\"",
}


def _kind(value) -> str:
    """The JSON type of ``value``, as an error message names it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _show(value) -> str:
    """``value`` for an error message: short, and safe for any input."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {int(value.bit_length() * 0.30103) + 1} digits or so"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = f"<{_kind(value)}>"
    return text if len(text) <= 40 else text[:36] + " ..."


def _typed(value, where: str, want: str, ok) -> None:
    if not ok(value):
        raise PositionError(f"{where}: expected {want}, got {_show(value)} ({_kind(value)})")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _json_bool(obj: dict, key: str, where: str, default=None):
    v = obj.get(key, default)
    _typed(v, where, "true or false (a JSON boolean)", lambda x: isinstance(x, bool))
    return v


def _json_int(obj: dict, key: str, where: str, default=None, null_ok: bool = False):
    v = obj.get(key, default)
    if v is None and null_ok:
        return None
    _typed(v, where, "a whole number (a JSON integer)" + (" or null" if null_ok else ""), _is_int)
    return v


def _json_cards(obj: dict, key: str):
    if key not in obj:
        return None
    v = obj[key]
    _typed(v, key, 'a list of card strings such as ["3C", "QS"]', lambda x: isinstance(x, list))
    out = []
    for i, token in enumerate(v):
        _typed(token, f"{key}[{i}]", 'a card string such as "QS"', lambda x: isinstance(x, str))
        try:
            out.append(parse_card(token))
        except InputError as exc:
            raise PositionError(f"{key}[{i}]: {exc}") from None
    return out


def rules_from_json(data) -> Rules:
    """:class:`Rules` from the ``rules`` object of a position; missing keys take
    the mode's defaults.  ``flee`` is a solo rule and ``deck_size`` a co-op
    one: each is refused in the other mode (it would change nothing, so it is
    a mistake)."""
    _typed(data, "rules", "an object such as {\"mode\": \"solo\"}", lambda x: isinstance(x, dict))
    for key in data:
        if key not in RULE_KEYS:
            raise PositionError(f"rules: unknown rule {_show(key)} (the rules are {', '.join(RULE_KEYS)})")
    for key in ("mode", "flee", "durability"):
        if key in data:
            _typed(data[key], f"rules.{key}", "a string", lambda x: isinstance(x, str))
    if "deck_size" in data:
        _typed(data["deck_size"], "rules.deck_size", "a whole number (50, 52 or 54)", _is_int)
    mode = data.get("mode", "solo")
    if mode == "coop" and "flee" in data:
        raise PositionError("rules.flee: the flee rule is a solo rule; co-op never allows two avoids in a row")
    if mode == "solo" and "deck_size" in data:
        raise PositionError("rules.deck_size: the deck size is a co-op rule; solo always uses the 44-card deck")
    try:
        return Rules(mode=mode, flee=data.get("flee", "classic"), durability=data.get("durability"),
                     deck_size=data.get("deck_size", 52))
    except InputError as exc:
        raise PositionError(f"rules: {exc}") from None


def position_from_json(data, rules: Optional[Rules] = None):
    """The position of a JSON object (``$defs/position_input`` of the schema).

    The one reader of positions: ``hint --position FILE`` and the library.
    The whole object that ``replay --json`` or ``hint --json`` prints is read
    as its ``position``.
    Returns a :class:`State` when the object gives the ``dungeon`` in order
    (an exact hint can be asked of it), else a :class:`TablePosition`
    (``unseen`` and ``bottom``, or ``gone``, or neither: nothing gone yet).

    The rules are the object's ``rules`` (missing keys: the mode's defaults);
    an object without them is read under ``rules`` (default: ``Rules()``).
    When both are given they must agree.  Every key is checked: unknown keys
    are refused, booleans must be JSON booleans, numbers JSON integers, cards
    strings; the derived keys that :meth:`State.as_dict` prints
    (``final_room``, ``dungeon_left``, ...) may be given and must then be
    right.  Raises :class:`PositionError` naming the key.

    >>> pos = position_from_json({"room": ["3C", "QC", "8D", "KC"], "unseen": ["5D", "2S", "9H"],
    ...                           "heroes": [{"health": 6, "weapon": "7D", "last_kill": 12}]})
    >>> pos.heroes[0], pos.distinct_orders()
    (Hero(health=6, weapon=7, last_kill=12), 6)
    """
    if not isinstance(data, dict):
        raise PositionError(f"a position is a JSON object {{...}}, not {_kind(data)}")
    if data.get("type") in ("replay", "hint"):
        # the whole answer of `replay --json` or `hint --json`: its position
        if not isinstance(data.get("position"), dict):
            raise PositionError(f"a {data['type']} object without its \"position\" object")
        data = data["position"]
    for key in data:
        if key in _MOVED:
            raise PositionError(f"{_show(key)} is not a key of a position: {_MOVED[key]} (docs/json.md)")
        if key not in POSITION_KEYS and key not in DERIVED_KEYS:
            raise PositionError(f"unknown key {_show(key)} in the position (its keys: "
                                f"{', '.join(POSITION_KEYS + DERIVED_KEYS)})")
    if "rules" in data:
        own = rules_from_json(data["rules"])
        if rules is not None and own != rules:
            raise PositionError(f"the position's rules ({own.describe()}) are not the rules asked for "
                                f"({rules.describe()})")
        rules = own
    rules = rules or Rules()
    room = _json_cards(data, "room")
    if room is None:
        raise PositionError("the position has no room (\"room\": the face-up cards, in row order)")
    nh = rules.heroes
    heroes = data.get("heroes", [{} for _ in range(nh)])
    _typed(heroes, "heroes", "a list of one object per hero", lambda x: isinstance(x, list))
    if len(heroes) != nh:
        raise PositionError(f"heroes: {rules.mode} has {nh} hero{'es' if nh > 1 else ''}, the position lists "
                            f"{len(heroes)}")
    health, weapon, last_kill, potions = [], [], [], []
    for i, hero in enumerate(heroes):
        where = f"heroes[{i}]"
        _typed(hero, where, "an object such as {\"health\": 20}", lambda x: isinstance(x, dict))
        for key in hero:
            if key not in HERO_KEYS:
                raise PositionError(f"{where}: unknown key {_show(key)} (a hero has {', '.join(HERO_KEYS)})")
        health.append(_json_int(hero, "health", f"{where}.health", default=MAX_HEALTH))
        w = hero.get("weapon")
        if w is not None:
            _typed(w, f"{where}.weapon", 'a diamond card such as "7D", or null', lambda x: isinstance(x, str))
            try:
                w = parse_card(w)
            except InputError as exc:
                raise PositionError(f"{where}.weapon: {exc}") from None
        weapon.append(w)
        last_kill.append(_json_int(hero, "last_kill", f"{where}.last_kill", null_ok=True))
        if _json_bool(hero, "potion_used", f"{where}.potion_used", default=False):
            potions.append(i + 1)
    leader = _json_int(data, "leader", "leader", default=1)
    taken = _json_int(data, "taken", "taken") if "taken" in data else None   # absent: worked out
    help_used = _json_bool(data, "help_used", "help_used", default=False)
    avoided = _json_bool(data, "avoided", "avoided", default=False)
    dungeon, unseen, gone, bottom = (_json_cards(data, k) for k in ("dungeon", "unseen", "gone", "bottom"))
    if dungeon is not None and (unseen is not None or gone is not None or bottom is not None):
        other = next(k for k in ("unseen", "gone", "bottom") if k in data)
        raise PositionError(f"dungeon gives the face-down cards in order: leave out {other}")
    if unseen is not None and gone is not None:
        raise PositionError("give the cards already gone or the cards still unseen, not both")
    room_number = _json_int(data, "room_number", "room_number", null_ok=True)
    derived = {}
    for key in ("final_room", "finished"):
        if key in data:
            derived[key] = _json_bool(data, key, key)
    if "dungeon_left" in data:
        derived["dungeon_left"] = _json_int(data, "dungeon_left", "dungeon_left")
    for key in ("won", "score"):
        if key in data and data[key] is not None:
            _typed(data[key], key, "a " + ("boolean" if key == "won" else "whole number") + " or null",
                   (lambda x: isinstance(x, bool)) if key == "won" else _is_int)
    if derived.get("finished") or data.get("won") is not None or data.get("score") is not None:
        raise PositionError("the position is of a finished game (\"finished\", \"won\" or \"score\" is set): "
                            "there is no next move to ask about")
    position = make_table_position(
        rules, room, health=health, weapon=weapon, last_kill=last_kill, leader=leader, taken=taken,
        potion_used=potions, help_used=help_used, avoided=avoided, gone=gone,
        unseen=dungeon if dungeon is not None else unseen, bottom=bottom or (), room_number=room_number)
    if derived.get("final_room", position.final_room) != position.final_room:
        raise PositionError(f"final_room: the position says {_show(derived['final_room'])}, but "
                            f"{position.final_room and 'no card is' or 'cards are'} face down")
    left = len(position.unseen) + len(position.bottom)
    if derived.get("dungeon_left", left) != left:
        raise PositionError(f"dungeon_left: the position says {_show(derived['dungeon_left'])}, but it "
                            f"holds {left} face-down card(s)")
    if dungeon is not None:
        return position.state(dungeon)
    return position
