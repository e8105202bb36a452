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
  rule set (:func:`scoundrel_solver.scoundrel.valuer._searcher`) and the process-wide
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


class _Budgeted:
    """What both belief searches share: one call's budget (``max_beliefs`` more
    beliefs, ``timeout`` seconds, from ``_start``) and the policy read off
    ``action_values``."""

    def _start(self) -> None:
        self._deadline = None if not self.timeout else time.perf_counter() + self.timeout
        self._stop_at = None if not self.max_beliefs else self.beliefs + self.max_beliefs

    def best_action(self, pos):
        """The first legal action (rules-engine order) of the best value: the policy."""
        values = self.action_values(pos)
        top = max(v for _, v in values)
        return next(a for a, v in values if v == top)


class BeliefSearch(_Budgeted):
    """Expectimax over beliefs, memoised, in scaled exact integers.

    ``value(position)`` and ``action_values(position)`` return
    :class:`fractions.Fraction` pairs equal to the reference's (exact mode), or
    floats (depth-limited).  ``max_beliefs``/``timeout`` bound one call; the
    memo survives between calls, so the actions of one position share work.
    """

    def __init__(self, rules: Rules, valuer=None, *, max_beliefs: Optional[int] = None,
                 timeout: Optional[float] = None, horizon: Optional[int] = None,
                 samples: int = 100, rng_seed: int = 1, enumerate_limit: int = 720):
        from .valuer import _Valuer
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
    @property
    def nodes(self) -> int:
        """Core nodes of the leaves' solves."""
        return self.valuer.nodes

    @property
    def solves(self) -> int:
        return self.valuer.solves

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
        from .table import unseen_orders
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


# ---------------------------------------------------------------- the C engine

def _engine_rules(rules: Rules) -> tuple:
    return (1 if rules.coop else 0, 1 if rules.lenient else 0, {"classic": 0, "easy": 1, "hard": 2}[rules.flee])


MAX_UNSEEN = 30   # _belief.pyx's values are n! * scores in 128-bit integers


class CoreBeliefSearch(_Budgeted):
    """The same search as :class:`BeliefSearch`, with the beliefs searched in C
    (``solver/scoundrel/_belief.pyx``: beliefs valued at room starts, each room enumerated
    by the core's room enumeration with its Pareto fronts, chance nodes over
    class sequences, or multisets where the row's order cannot matter,
    leaves solved by the core's own driver).  Same interface, same values (the
    same rationals, tested against the reference), so the same ranking and the
    same tie rule.  Only the root is handled here, through the rules engine:
    each legal action is played, and what follows is the C engine's.

    At most :data:`MAX_UNSEEN` unseen cards (more raise :class:`BudgetExceeded`:
    far beyond what an exact search can do anyway).  The depth-limited mode
    (``horizon``) values the chance nodes below the horizon by their clairvoyant
    value over every order of *all* their unseen cards (that is the mean of the
    clairvoyant values of the beliefs they deal, so the same figure as
    :class:`BeliefSearch`'s when enumerated, at a fraction of the solves).  ``prune`` (default
    on) lets the depth-limited mode cut off, past the horizon, the candidates whose bound
    cannot beat the best one (``_belief_search.face_value``): the same values, fewer leaves
    solved; off, every candidate is valued in full.
    """

    def __init__(self, rules: Rules, *, max_beliefs: Optional[int] = None, timeout: Optional[float] = None,
                 horizon: Optional[int] = None, samples: int = 100, rng_seed: int = 1,
                 enumerate_limit: int = 720, tt_mb: float = 64.0, common_orders: bool = False,
                 prune: bool = True):
        from ._belief import BeliefEngine
        self.rules = rules
        self.max_beliefs = max_beliefs
        self.timeout = timeout
        self.horizon = horizon
        self.engine = BeliefEngine(*_engine_rules(rules), float(tt_mb), -1 if horizon is None else int(horizon),
                                   int(samples), int(rng_seed) & (2**64 - 1), int(enumerate_limit),
                                   1 if common_orders else 0, 1 if prune else 0)
        self._deadline = None
        self._stop_at = None

    # the counters, as BeliefSearch's
    @property
    def beliefs(self) -> int:
        return self.engine.beliefs

    @property
    def leaves(self) -> int:
        return self.engine.leaves

    @property
    def nodes(self) -> int:
        return self.engine.core_nodes

    @property
    def solves(self) -> int:
        return self.engine.leaves

    @property
    def horizon_sampled(self) -> bool:
        return bool(self.engine.sampled)

    @property
    def memo_bytes(self) -> int:
        return self.engine.memo_bytes

    def _limits(self) -> tuple:
        beliefs = 0
        if self._stop_at is not None:
            beliefs = self._stop_at - self.beliefs
            if beliefs <= 0:
                raise BudgetExceeded(f"more than {self.max_beliefs:,} beliefs")
        seconds = 0.0
        if self._deadline is not None:
            seconds = self._deadline - time.perf_counter()
            if seconds <= 0:
                raise BudgetExceeded(f"over {self.timeout:g} s")
        return beliefs, seconds

    def _checked(self, out):
        if out is None:
            why = {1: f"more than {self.max_beliefs or 0:,} beliefs", 2: f"over {self.timeout or 0:g} s",
                   3: "a perfect-information leaf was not proven"}.get(self.engine.aborted, "stopped")
            raise BudgetExceeded(why)
        return out

    def _root(self, pos):
        if len(pos.unseen) > MAX_UNSEEN:
            raise BudgetExceeded(f"more than {MAX_UNSEEN} unseen cards")
        state = pos.state(class_sorted(pos.unseen))
        return state, [c.index for c in pos.unseen], [c.index for c in pos.bottom]

    def _action(self, state: State, unseen: list, bottom: list, action) -> tuple:
        from ._core import _heroes_of
        n = len(unseen)
        after = state.play(action)
        if after.finished:
            f = math.factorial(n)
            return ((1 if after.score > 0 else 0) * f, after.score * f)
        avoid = isinstance(action, Avoid)
        pile = len(state.dungeon) + (len(state.room) if avoid else 0)
        dealt = pile - len(after.dungeon)
        beliefs, seconds = self._limits()
        if dealt == 0:   # still in the room: a belief part-way through it
            out = self._belief_value(after, unseen, bottom, beliefs, seconds)
        else:            # the room ends: the next one is dealt
            prefix = after.room[:len(after.room) - dealt]
            under = bottom + ([c.index for c in state.room] if avoid else [])
            out = self.engine.deal_value([c.index for c in prefix], unseen, under, _heroes_of(after),
                                         after.leader, 1 if after.avoided_last else 0, beliefs, seconds)
        return self._checked(out)

    def _unscale(self, v, n: int) -> tuple:
        f = math.factorial(n)
        if self.horizon is None:
            return Fraction(v[0], f), Fraction(v[1], f)
        return v[0] / f, v[1] / f

    def action_values(self, pos) -> list:
        """``[(action, (win, mean)), ...]`` for every legal action, in the rules engine's order."""
        self._start()
        state, unseen, bottom = self._root(pos)
        return [(a, self._unscale(self._action(state, unseen, bottom, a), len(unseen)))
                for a in state.legal_actions()]

    def value(self, pos) -> tuple:
        """``(win chance, mean score)`` of the best policy from the belief ``pos``."""
        self._start()
        state, unseen, bottom = self._root(pos)
        out = self._belief_value(state, unseen, bottom, *self._limits())
        return self._unscale(self._checked(out), len(unseen))

    def _belief_value(self, state: State, unseen: list, bottom: list, beliefs: int, seconds: float):
        """The C engine's value of the belief ``state`` (its room face up, part-way
        through or not; ``unseen`` above ``bottom`` below it), or None if stopped."""
        from ._core import _heroes_of, _potion_mask
        return self.engine.belief_value([c.index for c in state.room], state.taken, _potion_mask(state),
                                        1 if state.help_used else 0, unseen, bottom, _heroes_of(state),
                                        state.leader, 1 if state.avoided_last else 0, beliefs, seconds)
