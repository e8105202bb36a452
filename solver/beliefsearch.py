"""The fast belief-state search behind the real-table hint.

Same game and same objective as :class:`~scoundrel_solver.belief.BeliefReference`
(read its docstring first): max nodes over the legal actions, chance nodes over
the classes of the unseen cards dealt, perfect-information leaves solved
exactly, values ``(win chance, mean score)`` compared lexicographically, ties
going to the first legal action.  What makes it faster:

* **exact integers instead of fractions.**  A belief with ``n`` unseen cards is
  an average over the ``n!`` equally likely orders of those cards, so its win
  chance and mean score times ``n!`` are whole numbers: the search carries
  ``(wins, score sum)`` scaled by ``n!``.  A chance node dealing ``k`` of ``n``
  cards weighs each class sequence by the product of the class counts (its
  share of the ``n!/(n-k)!`` ordered draws); no division is ever made, so
  equal values are equal and the tie rule is the reference's exactly;
* **a memo on class-merged keys** (5♣ and 5♠ are one class), kept sorted so a
  multiset has one key, for beliefs and for perfect-information leaves;
* **perfect-information leaves through the core**, one shared searcher per
  rule set (:func:`scoundrel_solver.hints._searcher`) and the process-wide
  solve cache, so leaves met again (other actions, later hints) are free;
* **a budget** (beliefs expanded, seconds): when it runs out the search stops
  with :class:`BudgetExceeded` and nothing unproven is ever reported as exact.

**Depth-limited search.**  With ``horizon=h`` the search is exact for the next
``h`` deals and values each belief met after that by its *clairvoyant* value:
the mean over orders of its unseen cards (all distinct orders when few, else
``samples`` orders drawn with ``rng_seed``) of the exact optimum of each order.
Such a leaf lets the player see the order from there on, so the result is an
**upper bound** on what a player who cannot see it achieves (and, when leaves
are sampled, an estimate of that bound).  ``horizon=0`` decides the rest of the
current room without seeing the order and is already at most today's figure.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Optional

from .rules import Rules
from .state import Avoid, State

_CLASS: dict = {}


def _cls(card) -> tuple:
    c = _CLS_GET(card)
    if c is None:
        c = _CLASS[card] = (card.kind, card.value)
    return c


_CLS_GET = _CLASS.get


def class_sorted(cards) -> tuple:
    """``cards`` sorted by class, then by card: one canonical order per multiset."""
    return tuple(sorted(cards, key=lambda c: (_cls(c), c.index)))


class BudgetExceeded(Exception):
    """The belief search ran out of its budget before proving the value."""


class BeliefSearch:
    """Expectimax over beliefs, memoised, in scaled exact integers.

    ``value(position)`` and ``action_values(position)`` return
    :class:`fractions.Fraction` pairs equal to the reference's (exact mode), or
    floats (depth-limited).  ``max_beliefs``/``timeout`` bound one call; the
    memo survives between calls, so the actions of one position share work.
    """

    def __init__(self, rules: Rules, valuer=None, *, max_beliefs: Optional[int] = None,
                 timeout: Optional[float] = None, horizon: Optional[int] = None,
                 samples: int = 100, rng_seed: int = 1, enumerate_limit: int = 720):
        from .hints import _Valuer
        self.rules = rules
        self.valuer = valuer or _Valuer(rules, tt_mb=64)
        self.max_beliefs = max_beliefs
        self.timeout = timeout
        self.horizon = horizon
        self.samples = samples
        self.rng_seed = rng_seed
        self.enumerate_limit = enumerate_limit
        self.memo: dict = {}
        self.known: dict = {}
        self.horizon_memo: dict = {}
        self.beliefs = 0          # beliefs expanded (max nodes), over the searcher's life
        self.leaves = 0           # perfect-information leaves solved
        self.horizon_leaves = 0   # clairvoyant leaves valued (depth-limited)
        self.horizon_sampled = False   # some clairvoyant leaf was sampled, not enumerated
        self._deadline = None
        self._stop_at = None

    # ------------------------------------------------------------ entry points
    def _start(self) -> None:
        self._deadline = None if not self.timeout else time.perf_counter() + self.timeout
        self._stop_at = None if not self.max_beliefs else self.beliefs + self.max_beliefs

    def root(self, pos) -> tuple:
        """The root of a table position: a state with the unseen cards on top
        (in class order) and how many they are."""
        state = pos.state(class_sorted(pos.unseen))
        return state, len(pos.unseen)

    def action_values(self, pos) -> list:
        """``[(action, (win, mean)), ...]`` for every legal action, in the rules engine's order."""
        self._start()
        state, n = self.root(pos)
        scale = math.factorial(n)
        return [(a, self._unscale(self._action(state, n, a, 0), scale)) for a in state.legal_actions()]

    def value(self, pos) -> tuple:
        """``(win chance, mean score)`` of the best policy from the belief ``pos``."""
        self._start()
        state, n = self.root(pos)
        return self._unscale(self._belief(state, n, 0), math.factorial(n))

    def best_action(self, pos):
        values = self.action_values(pos)
        top = max(v for _, v in values)
        return next(a for a, v in values if v == top)

    def _unscale(self, v, scale) -> tuple:
        if isinstance(v[0], int) and isinstance(v[1], int):
            return Fraction(v[0], scale), Fraction(v[1], scale)
        return v[0] / scale, v[1] / scale

    # ---------------------------------------------------------------- search
    def _key(self, state: State, n: int) -> tuple:
        d = state.dungeon
        return (tuple(map(_cls, state.room)), state.heroes, tuple(map(_cls, d[:n])), tuple(map(_cls, d[n:])),
                state.leader, state.taken, state.potion_used, state.help_used, state.avoided_last)

    def _belief(self, state: State, n: int, deals: int) -> tuple:
        """Value of a belief scaled by ``n!``: ``state.dungeon[:n]`` unseen (class order)."""
        limited = self.horizon is not None and deals > self.horizon
        key = self._key(state, n)
        if self.horizon is not None:   # a depth-limited value depends on the depth left
            key = (key, min(deals, self.horizon + 1))
        memo = self.horizon_memo if limited else self.memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        if limited:
            v = self._clairvoyant(state, n)
        else:
            self.beliefs += 1
            if self._stop_at is not None and self.beliefs > self._stop_at:
                raise BudgetExceeded(f"more than {self.max_beliefs:,} beliefs")
            self._check_time()
            best = None
            for a in state.legal_actions():
                v = self._action(state, n, a, deals)
                if best is None or v > best:
                    best = v
            v = best
        memo[key] = v
        return v

    def _check_time(self) -> None:
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise BudgetExceeded(f"over {self.timeout:g} s")

    def _leaf(self, state: State) -> tuple:
        """A position of perfect information: its exact (win, score)."""
        if state.finished:
            s = state.score
            return (1 if s > 0 else 0, s)
        key = self._key(state, 0)
        hit = self.known.get(key)
        if hit is None:
            self.leaves += 1
            s = self.valuer.value(state)
            if not self.valuer.exact:
                raise BudgetExceeded("a perfect-information leaf was not proven")
            hit = self.known[key] = (1 if s > 0 else 0, s)
        return hit

    def _node(self, state: State, n: int, deals: int) -> tuple:
        if state.finished or n == 0:
            w, s = self._leaf(state)
            if n:
                f = math.factorial(n)
                return (w * f, s * f)
            return (w, s)
        return self._belief(state, n, deals)

    def _action(self, state: State, n: int, action, deals: int) -> tuple:
        """Value of ``action`` from the belief (``state``, ``n``), scaled by ``n!``."""
        after = state.play(action)
        if after.finished:
            return self._node(after, n, deals)
        pile = len(state.dungeon) + (len(state.room) if isinstance(action, Avoid) else 0)
        dealt = pile - len(after.dungeon)
        if dealt == 0:
            return self._node(after, n, deals)
        k = min(dealt, n)
        # ``after`` dealt the first k unseen cards in class order; every other
        # draw replaces them in the new room (they sit at ``at``..``at+k``).
        at = len(after.room) - dealt
        head, tail = after.room[:at], after.room[at + k:]
        below = after.dungeon[n - k:]
        unseen = state.dungeon[:n]
        groups = []
        for c in unseen:
            if groups and _cls(c) == _cls(groups[-1][-1]):
                groups[-1].append(c)
            else:
                groups.append([c])
        W = S = 0
        for weight, drawn, rest in _draws(groups, k):
            child = _with_deal(after, head + drawn + tail, rest + below)
            w, s = self._node(child, n - k, deals + 1)
            W += weight * w
            S += weight * s
        return (W, S)

    # ------------------------------------------------------ clairvoyant leaves
    def _clairvoyant(self, state: State, n: int) -> tuple:
        """The clairvoyant value of a belief, scaled by ``n!`` (floats)."""
        from .hints import unseen_orders
        self.horizon_leaves += 1
        self._check_time()
        unseen, below = state.dungeon[:n], state.dungeon[n:]
        enumerated, orders = unseen_orders(unseen, self.samples, self.rng_seed, self.enumerate_limit)
        if not enumerated:
            self.horizon_sampled = True
        wins = total = count = 0
        for order in orders:
            w, s = self._leaf(_with_deal(state, state.room, order + below))
            wins += w
            total += s
            count += 1
        f = math.factorial(n)
        return (wins * f / count, total * f / count)


def _with_deal(state: State, room: tuple, dungeon: tuple) -> State:
    return State(rules=state.rules, dungeon=dungeon, room=room, heroes=state.heroes, leader=state.leader,
                 taken=state.taken, potion_used=state.potion_used, help_used=state.help_used,
                 avoided_last=state.avoided_last, last_card=state.last_card, dead=state.dead,
                 rooms_done=state.rooms_done)


def _draws(groups: list, k: int):
    """Every class sequence of ``k`` cards off ``groups`` (the unseen cards by
    class, in class order): ``(weight, drawn, rest)``, ``weight`` the number of
    ordered card draws behind it (the weights sum to ``n!/(n-k)!``)."""
    taken = [0] * len(groups)

    def rec(k, weight, drawn):
        if k == 0:
            rest = tuple(c for g, t in zip(groups, taken) for c in g[t:])
            yield weight, tuple(drawn), rest
            return
        for i, g in enumerate(groups):
            left = len(g) - taken[i]
            if left:
                drawn.append(g[taken[i]])
                taken[i] += 1
                yield from rec(k - 1, weight * left, drawn)
                taken[i] -= 1
                drawn.pop()
    yield from rec(k, 1, [])
