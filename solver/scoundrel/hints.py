"""Hints: the value of every legal next action, and the answer that carries them.

Two kinds of hint, and the output always says which one it is:

* :func:`.exacthint.exact_hint` — a numbered deal or a written-out deck: the order of the
  dungeon is known, so every action gets its exact optimal score.
* :func:`.tablehint.table_hint` — a real table: the player sees the room, the heroes and
  what is gone, not the order of the face-down cards.  Each action gets its
  figures, named for what they are: the win chance and mean score a player
  who cannot see the order *achieves* (the belief search, exact when it
  completes, else a depth-limited upper bound), the *clairvoyant bound*
  (the mean over orders of each order's exact optimum, as if the order were
  seen; enumerated when the orders are few, else sampled with 95 % intervals),
  and, for the recommended action when asked, what a named policy that cannot
  see the order *achieved* over sampled orders (:mod:`.achievable`: a lower
  bound estimate).

This module holds what both answer with, and how it is written out: each action's figures
(:class:`ActionValue`, :class:`TableActionValue`) and the :class:`Hint` (``$defs/hint`` of the
schema, docs/json.md).  The position a hint is asked of, typed or read from JSON, is
:mod:`.position`'s.

Solved positions are kept in a process-wide LRU cache (lru-dict, :mod:`.valuer`), so a game
that asks many hints of one deal (``scoundrel-solve play``) solves each position once.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

# The documented reader of positions (docs/json.md: ``scoundrel_solver.hints.position_from_json``).
from .position import position_from_json  # noqa: F401
from .state import State
from .table import TablePosition


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
    table: Optional[TablePosition] = None   # table hints: the position asked about
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
    # table hints: the opt-in look-ahead ("depth1": solver/scoundrel/lookahead.py), None when not asked,
    # and what its figure is (Depth1Figure), None when not asked
    lookahead: Optional[str] = None
    depth1: Optional["Depth1Figure"] = None

    def figures(self) -> dict:
        """Table hints: what each figure of an action is (JSON ``figures``), keyed by its name."""
        belief = {"exact": "exact", "upper_bound": "belief_upper_bound"}.get(self.achievable, "none")
        return {"win_chance": belief, "mean_score": belief,
                "clairvoyant_win_chance": "clairvoyant_upper_bound",
                "clairvoyant_mean_score": "clairvoyant_upper_bound",
                "achievable_win_chance": self.achievable_figure, "achievable_mean_score": self.achievable_figure,
                "depth1_win_chance": self.depth1.figure if self.depth1 else "none",
                "depth1_mean_score": self.depth1.figure if self.depth1 else "none"}

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
                     achievable_planned=self.achievable_planned, achievable_stopped=self.achievable_stopped,
                     lookahead=self.lookahead, depth1=self.depth1.as_dict() if self.depth1 else None)
        d.update(nodes=self.nodes, solves=self.solves, seconds=round(self.seconds, 6))
        return d


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
    # asked for (hint --lookahead depth1): the depth-1 belief value (Hint.depth1 names it: an
    # upper bound, estimated when sampled); None where not asked or not given
    depth1_win_chance: Optional[float] = None
    depth1_mean_score: Optional[float] = None

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
                "achievable_policy": None if g is None else g.policy,
                "depth1_win_chance": f(self.depth1_win_chance, 6),
                "depth1_mean_score": f(self.depth1_mean_score, 4)}


@dataclass(frozen=True)
class Depth1Figure:
    """What a table hint's depth-1 figure is (``hint --lookahead depth1``; :mod:`.lookahead`).

    ``figure``: ``"depth1_estimated_upper_bound"`` (some next deal or some order after it was
    sampled: an estimate of an upper bound), ``"depth1_upper_bound"`` (every distinct next deal
    and every order after it used: the depth-1 belief value itself, an upper bound on the exact
    one), or ``"none"`` with ``reason``.  ``description`` names it in words (the text and the
    JSON say the same).  ``deals``/``orders``: the counts asked; ``next_deals``: the next deals it
    was valued over (fewer than ``deals`` when every distinct one was used); ``rng_seed``: the
    seed they were drawn from (with the unseen cards).  Bounded by counts,
    never by the time budget: ``seconds`` is what it took, on top of the rest of the hint.
    """

    figure: str
    description: str
    deals: int
    orders: int
    reason: Optional[str] = None
    next_deals: int = 0
    sampled: bool = True
    seconds: float = 0.0
    next_beliefs: int = 0
    rng_seed: Optional[int] = None

    def as_dict(self) -> dict:
        """``depth1`` of a table hint in the schema."""
        return {"figure": self.figure, "description": self.description, "reason": self.reason,
                "deals": self.deals, "orders": self.orders, "next_deals": self.next_deals,
                "sampled": self.sampled, "rng_seed": self.rng_seed, "seconds": round(self.seconds, 6),
                "next_beliefs": self.next_beliefs}
