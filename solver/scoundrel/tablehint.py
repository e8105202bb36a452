"""The real-table hint: every legal action when the order of the face-down cards is unseen.

Each action's figures, named for what they are (:class:`.hints.TableActionValue`): the belief
search's (what a player who cannot see the order achieves: exact, or a depth-limited upper
bound), the clairvoyant bound over the orders (enumerated or sampled), and for the recommended
action, when asked, a policy's games played forward (:mod:`.achievable`: a lower bound
estimate).  :func:`table_hint` runs the steps below within one time budget; the answer is a
:class:`.hints.Hint` of kind ``"belief"``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Optional

from ..errors import InputError, OptionError
from ..intervals import mean_ci, wilson
from .hints import Depth1Figure, Hint, TableActionValue
from .position import _show
from .rules import MAX_HEALTH
from .search import default_engine
from .state import PositionError, State
from .table import DEFAULT_RNG_SEED, DEFAULT_SAMPLES, ENUMERATE_LIMIT, TablePosition, _check_playing, unseen_orders
from .valuer import SolveCache, _Valuer


DEFAULT_BELIEF_SECONDS = 5.0
# Within a budget, with the achievable figure asked: the clairvoyant orders take at most
# the first half, the belief search stops at this share, the policy's games take the rest.
BELIEF_SHARE = 0.625
# The opt-in look-aheads of table_hint: the depth-1 belief value (solver/scoundrel/lookahead.py).
LOOKAHEADS = ("depth1",)


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
               time_budget: Optional[float] = None, achievable_games: int = 0, lookahead: Optional[str] = None,
               depth1_deals: Optional[int] = None, depth1_orders: Optional[int] = None,
               depth1_progress=None) -> Hint:
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

    * **depth-1 belief value** (``lookahead="depth1"``, opt-in; only when the
      belief figure is not exact, where it would add nothing): this room and the
      next decided without seeing the order, the order seen after
      (:meth:`.lookahead.Depth1Search.action_values` over ``depth1_deals`` next
      deals and ``depth1_orders`` orders after them, defaults
      :data:`.lookahead.DEFAULT_DEALS` / :data:`.lookahead.DEFAULT_ORDERS`,
      drawn from ``rng_seed``): an **upper bound** on the exact belief value,
      tighter than the depth-0 one (exact <= depth-1 <= depth-0), an estimate
      of it when sampled (:class:`.hints.Depth1Figure` names it).  Bounded by
      counts only, so the same answer on every machine: it is **not** cut by
      ``time_budget`` (its seconds come on top, and are reported).  Past the C
      engine's reach (more than :data:`.lookahead.MAX_ROOT_UNSEEN` unseen cards)
      it is absent, with the reason.  ``depth1_progress(actions valued, actions,
      next-room beliefs valued)`` is told as it goes (it may take minutes).

    Actions are ranked by the depth-1 figure when there is one (win chance,
    then mean score), else by the belief figure when there is one, else by
    the clairvoyant figure, then by the fixed order of legal actions (the
    policy's figure never changes the ranking).

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
    budget), :func:`_depth1_figures` (when asked; outside the budget),
    :func:`_table_action_values` (each action's figures, ranked) and
    :func:`_policy_figure` (the achievable figure of the recommended action); the
    Hint is assembled here.
    """
    _check_table_request(samples, achievable_games)
    check_lookahead(lookahead, depth1_deals, depth1_orders)
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
    depth1 = values1 = None
    if lookahead == "depth1":
        depth1, values1 = _depth1_figures(position, actions, belief, deals=depth1_deals, orders=depth1_orders,
                                          rng_seed=rng_seed, tt_mb=tt_mb, progress=depth1_progress)
        if deadline is not None:
            deadline += depth1.seconds      # counts only: its time is not taken from the budget
    ranked = _table_action_values(actions, clair, belief, probe, values1)
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
                achievable_planned=policy.planned, achievable_stopped=policy.stopped,
                lookahead=lookahead, depth1=depth1)


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


def _table_action_values(actions: list, clair: _Clairvoyant, belief: _Beliefs, probe: State,
                         depth1: Optional[list] = None) -> tuple:
    """Each action's figures (:class:`TableActionValue`), best first.

    The clairvoyant figure with its interval: equal ends when every order was enumerated;
    proven bounds over all the orders when the budget cut an enumeration (each order not
    solved at the worst and the best score of ``probe``, the position); 95 % intervals over
    sampled orders.  Ranked by the depth-1 figure (``depth1``: per action, (win chance,
    mean score)) when there is one, else by the belief figure when there is one, else by
    the clairvoyant one, then by the order of ``actions``.
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
        dw = dm = None
        if depth1 is not None:
            dw, dm = depth1[i]
        values.append(TableActionValue(action, w, m, exact=belief.achievable == "exact",
                                       clairvoyant_win_chance=wins / n if n else 0.0, clairvoyant_win_low=lo_w,
                                       clairvoyant_win_high=hi_w, clairvoyant_mean_score=mean,
                                       clairvoyant_mean_low=lo_m, clairvoyant_mean_high=hi_m, samples=n,
                                       depth1_win_chance=dw, depth1_mean_score=dm))
    if depth1 is not None:
        rank = lambda i: (-values[i].depth1_win_chance, -values[i].depth1_mean_score, i)  # noqa: E731
    elif belief.values is not None:
        rank = lambda i: (-values[i].win_chance, -values[i].mean_score, i)  # noqa: E731
    else:
        rank = lambda i: (-values[i].clairvoyant_win_chance, -values[i].clairvoyant_mean_score, i)  # noqa: E731
    return tuple(values[i] for i in sorted(range(len(values)), key=rank))


def check_lookahead(lookahead, deals, orders) -> None:
    """Refuse a look-ahead the hint does not know, counts that are not whole numbers of at
    least 1, and counts given without the look-ahead they are for (the CLI's and the
    service's check too, before any search)."""
    if lookahead is not None and lookahead not in LOOKAHEADS:
        raise OptionError(f"--lookahead: expected one of {', '.join(LOOKAHEADS)}, got {_show(lookahead)}")
    for name, value in (("--depth1-deals", deals), ("--depth1-orders", orders)):
        if value is None:
            continue
        if lookahead != "depth1":
            raise OptionError(f"{name} is for the depth-1 figure: give --lookahead depth1 too")
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise OptionError(f"{name}: expected a whole number of at least 1, got {_show(value)}")


def depth1_description(deals: int, orders: int, next_deals: int, deals_sampled: bool, orders_sampled: bool) -> str:
    """The depth-1 figure named for what it is (the text and the JSON say this): counts of
    ``deals`` next deals (or every one of the ``next_deals`` distinct ones when they were not
    sampled) and ``orders`` orders after them."""
    what = "this room and the next decided without seeing the order, the order seen after"
    if deals_sampled:
        return (f"depth-1 belief value (sampled: {deals} next deals, {orders} orders): {what}; "
                f"an estimated upper bound, not achievable")
    if orders_sampled:
        return (f"depth-1 belief value (every one of the {next_deals} distinct next deals; sampled: {orders} "
                f"orders): {what}; an estimated upper bound, not achievable")
    return (f"depth-1 belief value (every one of the {next_deals} distinct next deals, every order after): "
            f"{what}; an upper bound, not necessarily achievable")


def _depth1_figures(position: TablePosition, actions: list, belief: _Beliefs, *, deals: Optional[int],
                    orders: Optional[int], rng_seed: int, tt_mb: int, progress=None) -> tuple:
    """The depth-1 belief value of each of ``actions`` (:meth:`.lookahead.Depth1Search.action_values`,
    in the order of ``actions``), or None with the reason: ``(Depth1Figure, values or None)``.

    Not computed where the belief figure is exact (the depth-1 value cannot be closer), nor
    past the C engine's reach (:class:`.beliefsearch.BudgetExceeded`).  Counts only, no clock.
    """
    from .beliefsearch import BudgetExceeded
    from .lookahead import DEFAULT_DEALS, DEFAULT_ORDERS, Depth1Search
    deals = DEFAULT_DEALS if deals is None else deals
    orders = DEFAULT_ORDERS if orders is None else orders
    sampled_name = depth1_description(deals, orders, 0, True, True)
    if belief.achievable == "exact":
        return Depth1Figure("none", sampled_name, deals, orders, sampled=False, rng_seed=rng_seed,
                            reason="not needed: the belief search is exact; depth-1 adds nothing"), None
    t = time.perf_counter()
    search = Depth1Search(position.rules, deals=deals, orders=orders, rng_seed=rng_seed, tt_mb=tt_mb)
    try:
        by_action = dict(search.action_values(position, progress))
    except BudgetExceeded as exc:
        return Depth1Figure("none", sampled_name, deals, orders, seconds=time.perf_counter() - t, rng_seed=rng_seed,
                            reason=f"beyond its reach ({exc}; the C engine's limit)"), None
    seconds = time.perf_counter() - t
    if set(by_action) != set(actions):      # both are the rules engine's legal actions of the position
        raise AssertionError("the depth-1 search valued other actions than the hint's")
    values = [by_action[a] for a in actions]
    deals_sampled, orders_sampled = search.sampled, search.inner.horizon_sampled
    next_deals = len(search.deal_orders(position))
    sampled = deals_sampled or orders_sampled
    figure = "depth1_estimated_upper_bound" if sampled else "depth1_upper_bound"
    return Depth1Figure(figure, depth1_description(deals, orders, next_deals, deals_sampled, orders_sampled),
                        deals, orders,
                        next_deals=next_deals, sampled=sampled, seconds=seconds,
                        next_beliefs=search.next_beliefs, rng_seed=rng_seed), values


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
