"""The achievable figure of a real-table hint: a policy that cannot see the order, played forward.

At a real table the hint has two other figures (:func:`.tablehint.table_hint`): the
belief search's, exact when it finishes (mid-game it mostly does not within the
default budget), and the *clairvoyant bound* (each order solved as if it were
seen), an upper bound.  This module gives the missing side, a **lower bound
estimate**: a concrete decision rule that sees only what a player sees
(:class:`.explain.TablePolicy`, the hint's own rule made cheap enough to play
whole games) is played to the end of the game after an action, over orders of
the unseen cards (with the known bottom of avoided rooms under them), and each
game is scored by the rules engine.  The mean over orders is an unbiased
estimate of what that rule achieves, and no rule that cannot see the order does
better than the best one: so it estimates a lower bound on the achievable value
(exact for the rule when every distinct order is played).

The orders are those :func:`.table.unseen_orders` gives for ``games`` samples
with the hint's ``rng_seed``: every distinct order when there are at most
``games``, else the first ``games`` of the seeded sequence, so a run cut short
by its deadline played a prefix of the same orders (the games not finished are
not counted).  The rule is deterministic: its own orders are drawn from the
position it sees (:func:`.explain._stable_seed`), and a search a deadline stops
stops the game rather than change a move.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

from ..errors import InputError
from ..intervals import ScoreSample

# The rule played forward by the hint (decided by measurement, benchmarks/README.md
# "Achievable figure"): the exact belief search with at most HINT_EXACT_UNSEEN unseen
# cards, else the clairvoyant ranking over HINT_ORDERS orders drawn from the position.
# explain's default (5 orders, belief search at <= 5 unseen) cost 0.3-2 s per mid-game
# solo game (about 3 s from room 2), 2 orders 0.2-1 s, 1 order ~1.5x fewer seconds again but
# lower scores; the hint's games have the last 3/8 of a 2 s budget (tablehint.BELIEF_SHARE).
HINT_ORDERS = 2
HINT_EXACT_UNSEEN = 4


def policy_name(orders: int, exact_unseen: int) -> str:
    """A short name of :class:`.explain.TablePolicy` with these settings (JSON ``achievable_policy``)."""
    return f"belief<={exact_unseen}+clairvoyant-{orders}"


@dataclass(frozen=True)
class PolicyGames(ScoreSample):
    """What a policy achieved after one action, over the orders played (game ``k`` on order ``k``)."""

    action: object
    policy: str                 # policy_name(...)
    scores: tuple               # final score of each game finished
    lines: tuple                # the actions of each game finished (the first is ``action``)
    orders: tuple               # the order of the unseen cards of each game finished
    planned: int                # games it set out to play
    enumerated: bool            # the planned orders are every distinct order
    stopped: bool               # the deadline stopped it before every planned game was finished
    seconds: float = 0.0
    nodes: int = 0

    _T_INTERVAL = True          # 1-9 games within a 2 s budget: Student's t

    @property
    def exact(self) -> bool:
        """Every distinct order was played: the figures are the policy's exact value."""
        return self.enumerated and not self.stopped and self.games > 0

    _whole = exact

    @property
    def win_chance(self) -> Optional[float]:
        return self.win_rate


def play_policy(position, action, *, games: int, rng_seed: int, deadline: Optional[float] = None,
                orders: int = HINT_ORDERS, exact_unseen: int = HINT_EXACT_UNSEEN, tt_mb: int = 64, cache=None,
                engine: Optional[str] = None) -> PolicyGames:
    """Play ``action`` then :class:`.explain.TablePolicy` (``orders``, ``exact_unseen``) to the end.

    Over the orders of ``position``'s unseen cards that :func:`.table.unseen_orders`
    gives for ``games`` samples and ``rng_seed`` (every distinct order when at
    most ``games``), in that order, until ``deadline`` (a ``time.perf_counter()``
    instant; None: every game).  A game the deadline interrupts is not counted.
    """
    from .policy import TablePolicy, _OutOfTime
    from .table import unseen_orders

    t0 = time.perf_counter()
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise InputError(f"games: expected a whole number of at least 1, got {games!r}")
    policy = TablePolicy(position.rules, orders=orders, exact_unseen=exact_unseen, rng_seed=rng_seed,
                         tt_mb=tt_mb, cache=cache, engine=engine)
    policy.deadline = deadline
    enumerated, order_iter = unseen_orders(position.unseen, games, rng_seed, games)
    planned = position.distinct_orders() if enumerated else games
    probe = position.state(position.unseen)
    action = probe.resolve(action)
    known = len(position.bottom)
    scores, lines, played, stopped = [], [], [], False
    for order in order_iter:
        if deadline is not None and time.perf_counter() >= deadline:
            stopped = True
            break
        try:
            line, end = policy.play(position.state(order), action, known)
        except _OutOfTime:
            stopped = True
            break
        scores.append(end.score)
        lines.append(tuple(line))
        played.append(tuple(order))
    return PolicyGames(action, policy_name(orders, exact_unseen), tuple(scores), tuple(lines), tuple(played),
                       planned, enumerated, stopped, time.perf_counter() - t0, policy.valuer.nodes)
