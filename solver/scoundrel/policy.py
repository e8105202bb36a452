"""A player who cannot see the order, as a policy: :class:`TablePolicy`.

It plays from what a player at a real table knows: the exact belief search once few cards are
unseen, else the clairvoyant ranking over a few sampled orders.  ``hint --explain`` at a real
table (explain.py) and the achievable figure (achievable.py) play it out over sampled orders.
"""
from __future__ import annotations

import time
import zlib
from typing import Optional

from .table import DEFAULT_RNG_SEED, TablePosition, known_bottom_after, unseen_orders
from .valuer import _Valuer
from .state import State

POLICY_EXACT_UNSEEN = 5
POLICY_MAX_BELIEFS = 20_000
POLICY_ORDERS = 5


class _OutOfTime(Exception):
    pass


def _stable_seed(rng_seed: int, pos: TablePosition) -> int:
    """A seed for the policy's own orders, from what the player knows (so the
    same position always gets the same move, in every process).  It depends
    only on the face-down cards, which do not change within a room: every
    decision of a room solves the same orders, and the core's table carries
    what one decision proved over to the next."""
    text = "|".join([str(rng_seed), " ".join(map(str, pos.unseen)), " ".join(map(str, pos.bottom))])
    return zlib.crc32(text.encode())


class TablePolicy:
    """The real-table hint's decision rule, cheap enough to play whole games.

    At each decision it sees only what a player sees (a :class:`TablePosition`)
    and picks, ties going to the first legal action as in the hint:

    * with at most ``exact_unseen`` unseen cards, the best action of the exact
      belief search (:class:`.beliefsearch.BeliefSearch`, one memo for the
      whole playout): what the hint recommends there when its search finishes;
    * otherwise the best by the clairvoyant ranking over ``orders`` orders of
      the unseen cards (win rate, then mean score of each order solved
      exactly), the orders drawn from the position itself, so the same
      position always gets the same move: the hint's ranking when its belief
      search gives no figure, with fewer orders.

    Every value it uses is proven; a search stopped by the deadline stops the
    game (:class:`_OutOfTime`), so a game that is counted was played by this
    rule exactly, whatever the machine's speed.
    """

    def __init__(self, rules, *, orders: int = POLICY_ORDERS, exact_unseen: int = POLICY_EXACT_UNSEEN,
                 max_beliefs: int = POLICY_MAX_BELIEFS, rng_seed: int = DEFAULT_RNG_SEED,
                 tt_mb: int = 64, cache=None, engine: Optional[str] = None):
        from .beliefsearch import BeliefSearch
        self.rules = rules
        self.orders = orders
        self.exact_unseen = exact_unseen
        self.rng_seed = rng_seed
        self.valuer = _Valuer(rules, tt_mb, cache=cache, engine=engine)
        self.search = BeliefSearch(rules, self.valuer, max_beliefs=max_beliefs)
        self.deadline: Optional[float] = None
        self.decisions = 0

    def describe(self) -> str:
        return (f"the real-table hint's rule at every decision: the exact belief search with at most "
                f"{self.exact_unseen} unseen cards, else the clairvoyant ranking over {self.orders} orders")

    def _left(self) -> float:
        if self.deadline is None:
            return 0.0
        left = self.deadline - time.perf_counter()
        if left <= 0:
            raise _OutOfTime
        return left

    def _value(self, state: State) -> int:
        self.valuer.timeout = self._left() or None
        stopped = self.valuer.stopped
        v = self.valuer.value(state)
        if self.valuer.stopped != stopped:
            raise _OutOfTime
        return v

    def choose(self, pos: TablePosition, state: State):
        """The action for the player who knows ``pos`` (``state`` is the same position, order filled in)."""
        from .beliefsearch import BudgetExceeded
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        self.decisions += 1
        if len(pos.unseen) <= self.exact_unseen:
            self.search.timeout = self._left() or None
            try:
                values = [v for _, v in self.search.action_values(pos)]
            except BudgetExceeded:
                self._left()        # the deadline: stop the game; else the belief cap: rank clairvoyantly
            else:
                top = max(values)
                return actions[values.index(top)]
        _, orders = unseen_orders(pos.unseen, self.orders, _stable_seed(self.rng_seed, pos), self.orders)
        totals = [[0, 0] for _ in actions]
        for order in orders:
            full = pos.state(order)
            for i, a in enumerate(actions):
                s = self._value(full.play(a))
                totals[i][0] += s > 0
                totals[i][1] += s
        best = max(range(len(actions)), key=lambda i: (totals[i][0], totals[i][1], -i))
        return actions[best]

    def play(self, state: State, first, known: int) -> tuple:
        """``first`` then this policy to the end of the game: the flat list of actions and the last state.

        ``known`` is how many cards at the bottom of ``state``'s dungeon the player knows."""
        actions = [state.resolve(first)]
        known = known_bottom_after(state, actions[0], known)
        state = state.play(actions[0])
        while not state.finished:
            action = self.choose(TablePosition.from_state(state, known), state)
            known = known_bottom_after(state, action, known)
            state = state.play(action)
            actions.append(action)
        return actions, state
