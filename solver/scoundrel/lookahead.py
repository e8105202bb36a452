"""The depth-1 belief search: a player at the table who looks one room past the current one.

What it computes, for each legal action of a table position (:class:`.table.TablePosition`),
is the **depth-1 belief value**: the win chance and mean score of the best play of a player who

* decides the rest of the current room (its takes, how it fights, which card it carries) and,
  after the next deal, the whole **next room** (avoid or face, its takes, what it carries)
  knowing only what a player at the table knows (the rows dealt, never the order), and
* sees the order from the deal after the next room on (each belief there valued by the mean,
  over orders of its unseen cards, of the exact optimum of each order: its clairvoyant value).

The second clause makes it an **upper bound** on what a player at the table achieves (the
exact belief value, :mod:`.belief`), and a tighter one than the depth-0 figure
(:class:`.beliefsearch.CoreBeliefSearch` with ``horizon=0``), whose player sees the order
from the next deal on: depth-0 >= depth-1 >= exact, each enumerated.  When no hidden card is
left after the next room's deal it *is* the exact belief value.

How it is computed, bounded by counts (never by time, so the same answer on any machine):

* **the current room** through the rules engine: a max over the legal actions, no chance
  node until the room ends (nothing new is seen inside a room);
* **the next deal**: the chance node where the room ends (its last take, or an avoid) is
  valued over ``deals`` orders of the unseen cards drawn **in common**: the same orders, from
  a seed of ``rng_seed`` and the unseen cards alone, after every action of the decision (the
  avoid deals the first four cards of each, a face the first three), so the actions are
  compared on the same draws (common random numbers).  When the unseen cards have at most
  ``enumerate_deals`` distinct orders, every one is used instead (each equally likely): the
  chance node is then exact;
* **the next room and the deals after it**: each belief the next deal reaches is valued by the
  depth-0 belief search in C (``CoreBeliefSearch(horizon=0, common_orders=True)``): the next
  room decided without seeing the order, each deal after it valued by the clairvoyant mean over
  ``orders`` orders drawn in common (all of them when there are at most ``orders`` distinct
  ones, so exact then).

What makes it affordable, without changing any figure or choice (each tested against the
plain way, ``tests/scoundrel/test_lookahead.py``; side by side in
``benchmarks/bench_depth1_speed.py``):

* **the depth-0 engine's cut-off** (``prune``, default on): inside each next room's value, a
  candidate (an outcome of the room, or the avoid) stops being valued once its exact scores so
  far and bounds for its other orders cannot beat the best candidate, valued best-first;
* **choose** (what the player asks: the first best action and its figure): only the decision's
  global Pareto front of room ends is valued, plus the few dominated ends a tie could need, and
  an end stops being valued once its win chance is bound to stay below the best's.
  :meth:`Depth1Search.action_values` still values every action in full.

With both counts large enough to enumerate, the figure is exactly the depth-1 belief value
(tested against a brute-force expectimax over the orders, ``tests/scoundrel/test_lookahead.py``);
sampled, it estimates it, and a max over sampled means errs upward.  The C engine holds at most
30 unseen cards, so the next room's beliefs must have at most 30 (the current one at most 33):
more raise :class:`.beliefsearch.BudgetExceeded`.

>>> from scoundrel_solver.scoundrel.cards import parse_cards
>>> from scoundrel_solver.scoundrel.state import State
>>> from scoundrel_solver.scoundrel.table import TablePosition
>>> pos = TablePosition.from_state(State.new(parse_cards("5D 3S 4H 9C 2D 7S")))
>>> [m for _, (w, m) in Depth1Search(pos.rules).action_values(pos)]
[17.0, 18.0, 15.0, 14.0, 13.0]
"""
from __future__ import annotations

import random
from dataclasses import replace
from .beliefsearch import MAX_UNSEEN, BudgetExceeded, CoreBeliefSearch
from .rules import Rules
from .state import Avoid, State
from .table import TablePosition, known_bottom_after, unseen_orders

DEFAULT_DEALS = 16
DEFAULT_ORDERS = 16
# The next room's beliefs go to the C engine, which holds at most MAX_UNSEEN unseen cards;
# the fewest a room's end deals is 3 (a face; an avoid deals 4).
MAX_ROOT_UNSEEN = MAX_UNSEEN + 3


class Depth1Search:
    """The depth-1 belief search (module docstring): ``action_values(pos)`` gives
    ``[(action, (win chance, mean score)), ...]`` for every legal action in the rules
    engine's order, ``best_action(pos)`` the first of the best (win chance first).

    ``deals``: orders of the unseen cards drawn for the next deal (in common, seeded by
    ``rng_seed`` and the unseen cards); ``enumerate_deals``: use every distinct order
    instead when there are at most this many.  ``orders``: orders per chance node of the
    depth-0 search that values the next room (in common; all distinct ones when at most
    ``orders``).  The depth-0 engine and its memo live as long as this object, so the
    decisions of one game share its work; its values are a fixed function of the
    position, ``orders`` and ``rng_seed``, so a game replays move for move.

    ``prune`` (default on) cuts off, inside the depth-0 search, the next room's candidates
    whose bound cannot beat the best so far (``_belief_bounds.clairvoyant``): the same
    values, fewer perfect-information leaves solved; off, every candidate is valued in full
    (the search as first written, kept to measure and test against).
    """

    def __init__(self, rules: Rules, *, deals: int = DEFAULT_DEALS, orders: int = DEFAULT_ORDERS,
                 rng_seed: int = 1, enumerate_deals: int = 0, tt_mb: float = 64.0, prune: bool = True):
        if deals < 1 or orders < 1:
            raise ValueError("deals and orders must be at least 1")
        self.rules = rules
        self.deals = deals
        self.orders = orders
        self.rng_seed = rng_seed
        self.enumerate_deals = enumerate_deals
        self.inner = CoreBeliefSearch(rules, horizon=0, samples=orders, rng_seed=rng_seed,
                                      enumerate_limit=orders, tt_mb=tt_mb, common_orders=True, prune=prune)
        self.next_beliefs = 0      # beliefs of the next room valued (distinct, over the object's life)
        self.sampled = False       # some next deal was sampled, not enumerated
        self._values: dict = {}    # next room's belief -> its depth-0 value
        self._tick = None          # told after each new next-room belief (action_values' progress)

    # ------------------------------------------------------------ entry points
    @property
    def leaves(self) -> int:
        """Perfect-information leaves the depth-0 engine solved."""
        return self.inner.leaves

    def deal_orders(self, pos: TablePosition) -> list:
        """The orders of ``pos``'s unseen cards the next deal is valued over: every distinct
        one (at most ``enumerate_deals``), else ``deals`` drawn from a seed of ``rng_seed``
        and the unseen cards alone (so the same at every decision of a room)."""
        seed = random.Random(f"{self.rng_seed}:{','.join(map(str, pos.unseen))}").getrandbits(64)
        enumerated, orders = unseen_orders(pos.unseen, self.deals, seed, self.enumerate_deals)
        if not enumerated:
            self.sampled = True
        return list(orders)

    def action_values(self, pos: TablePosition, progress=None) -> list:
        """``[(action, (win, mean)), ...]`` for every legal action, in the rules engine's order.
        ``progress(actions valued, actions, next-room beliefs valued)``, if given, after each
        next-room belief and each action (a search of minutes at some 30 unseen cards)."""
        if len(pos.unseen) > MAX_ROOT_UNSEEN:
            raise BudgetExceeded(f"more than {MAX_ROOT_UNSEEN} unseen cards")
        run = _Decision(self, pos)
        actions, out = run.root.legal_actions(), []
        if progress is not None:
            self._tick = lambda: progress(len(out), len(actions), self.next_beliefs)
        try:
            for a in actions:
                out.append((a, run.action(run.root, a)))
                if progress is not None:
                    progress(len(out), len(actions), self.next_beliefs)
        finally:
            self._tick = None
        return out

    def choose(self, pos: TablePosition) -> tuple:
        """``(action, (win, mean))``: the first legal action (rules-engine order) of the best
        value, and that value: exactly what :meth:`action_values` ranks first, without valuing
        every action (``_Decision.choose``: the room's ends that cannot be the best, or cannot
        tie it where a tie would decide, are not valued in full)."""
        if len(pos.unseen) > MAX_ROOT_UNSEEN:
            raise BudgetExceeded(f"more than {MAX_ROOT_UNSEEN} unseen cards")
        return _Decision(self, pos).choose()

    def best_action(self, pos: TablePosition):
        """The first legal action (rules-engine order) of the best value."""
        return self.choose(pos)[0]

    def value(self, pos: TablePosition) -> tuple:
        """``(win, mean)`` of the best action."""
        return self.choose(pos)[1]

    # ----------------------------------------------------------- next room
    def next_value(self, nxt: TablePosition) -> tuple:
        """The depth-0 value of a belief at the start of the next room (memoised)."""
        hit = self._values.get(nxt)
        if hit is None:
            self.next_beliefs += 1
            w, m = self.inner.value(nxt)
            hit = self._values[nxt] = (float(w), float(m))
            if self._tick is not None:
                self._tick()
        return hit


class _Decision:
    """One decision's search: the current room through the rules engine, the next deal
    over the decision's orders.

    An action's value is the best of the room's ends it can reach (its last take, or an
    avoid), each valued once.  A room's end whose heroes are dominated by another end of
    the same action with the same row and flags (every hero at least as healthy, with at
    least as strong a weapon and at least as high a last kill) is not valued: its value
    cannot be higher, on every order (docs/hints.md, "Why the Pareto front is exact for
    beliefs"), and the orders are common, so on the same ones.
    """

    def __init__(self, search: Depth1Search, pos: TablePosition):
        self.search = search
        self.pos = pos
        self.n = len(pos.unseen)
        self.known = len(pos.bottom)
        self.root = pos.state(pos.unseen)        # one representative order; dealt cards are replaced
        self.orders = search.deal_orders(pos)
        self.values: dict = {}                   # a room's end -> its value
        self.ends: dict = {}                     # a state in the room -> the ends reachable from it

    def action(self, state: State, action) -> tuple:
        """The value of ``action`` from ``state`` (the current room, representative order)."""
        over, ends = self._ends(state, action)
        values = list(over)
        for after, (before, last) in _front(ends).items():
            v = self.values.get(after)
            if v is None:
                v = self.values[after] = self._deal(before, last)
            values.append(v)
        return max(values)

    def choose(self) -> tuple:
        """``(action, value)``: the first legal action of the best value, and that value, as
        ``action_values`` would rank them (the same floats), valuing fewer room's ends:

        * **dominance across actions.**  The best value is the best over the terminal results
          and the ends of the decision's *global* front (:func:`_front` of every action's
          ends): an end off it is dominated by one on it, whose value is at least as high on
          the same orders.  So only the global front is valued to find the best value ``T``;
        * **the tie rule.**  An action is chosen if it is the first whose value is ``T``.  An
          action's value is at most ``T``; it is ``T`` when a terminal result or a valued end
          of its own front reaches ``T``; an end of its front off the global front is valued
          only when every end dominating it is worth exactly ``T`` (else it is below ``T``);
        * **the win bound.**  An end's value is the mean over the next deals of values whose
          win chance is at most 1: once the deals valued so far leave its win chance below the
          best win chance found, by more than rounding could explain, the rest of its deals is
          not valued (it is below the best, so below ``T``), resumed only if a tie needs it.

        The global front's ends are valued healthiest heroes first (the likeliest best: the
        win bound cuts more behind them); the order changes no value.
        """
        actions = self.root.legal_actions()
        per_action = []
        everything: dict = {}
        best = None
        for a in actions:
            over, ends = self._ends(self.root, a)
            front = _front(ends)
            per_action.append((a, over, front))
            everything.update(front)
            for v in over:
                best = v if best is None or v > best else best
        glob = _front(everything)
        below: set = set()          # ends proven below the best value (not valued in full)
        for after in sorted(glob, key=_promise):
            v = self.values.get(after)
            if v is None:
                before, last = glob[after]
                v = self._deal(before, last, cut=best)
                if v is None:
                    below.add(after)
                    continue
                self.values[after] = v
            best = v if best is None or v > best else best
        top = best
        for a, over, front in per_action:
            if top in over:
                return a, top
            pending = []
            for after, (before, last) in front.items():
                v = self.values.get(after)
                if v is not None:
                    if v == top:
                        return a, top
                elif after not in below and after not in glob:
                    # dominated by an end of the global front: below T unless every such end is
                    # worth T exactly
                    if all(self.values.get(g) == top for g in glob
                           if _same_group(g, after) and _dominates(g.heroes, after.heroes)):
                        pending.append((after, before, last))
            for after, before, last in pending:
                v = self.values[after] = self._deal(before, last)
                if v == top:
                    return a, top
        raise AssertionError("no action reaches the best value")   # pragma: no cover

    def _ends(self, state: State, action) -> tuple:
        """What ``action`` from ``state`` can lead to by the end of the room: the results of
        games over (a set of (win, score)) and the room's ends ({state after: (state before,
        last action)}, in the representative order)."""
        after = state.play(action)
        if after.finished:
            return {_result(after)}, {}
        pile = len(state.dungeon) + (len(state.room) if isinstance(action, Avoid) else 0)
        if pile != len(after.dungeon):      # the room ends: the next one is dealt
            return set(), {after: (state, action)}
        hit = self.ends.get(after)
        if hit is None:                      # still in the room: nothing new is seen
            over, ends = set(), {}
            for a in after.legal_actions():
                o, e = self._ends(after, a)
                over |= o
                ends.update(e)
            hit = self.ends[after] = (over, ends)
        return hit

    def _deal(self, state: State, action, cut: tuple = None) -> tuple:
        """The chance node where the room ends: the mean over the decision's orders.  With
        ``cut`` (a value): None as soon as the win chance is bound to stay below ``cut``'s
        (each deal's win chance is at most 1; the margin covers the floats' rounding)."""
        below = state.dungeon[self.n:]
        known = known_bottom_after(state, action, self.known)
        k = len(self.orders)
        w = m = 0.0
        for i, order in enumerate(self.orders):
            child = State(rules=state.rules, dungeon=order + below, room=state.room, heroes=state.heroes,
                          leader=state.leader, taken=state.taken, potion_used=state.potion_used,
                          help_used=state.help_used, avoided_last=state.avoided_last,
                          last_card=state.last_card, dead=state.dead, rooms_done=state.rooms_done).play(action)
            if child.finished:
                cw, cm = _result(child)
            else:
                cw, cm = self.search.next_value(TablePosition.from_state(child, known))
            w += cw
            m += cm
            if cut is not None and (w + (k - 1 - i)) / k < cut[0] - _MARGIN:
                return None
        return (w / k, m / k)


# How far below another an end's win chance bound must be to be cut: the figures are sums
# of at most a few thousand floats of magnitude <= 1, so their rounding is far below this.
_MARGIN = 1e-9


def _group(after: State) -> State:
    """What ends must share to be compared by their heroes: the row, dungeon and flags."""
    return replace(after, heroes=(), last_card=None)


def _same_group(a: State, b: State) -> bool:
    return _group(a) == _group(b)


def _promise(after: State) -> tuple:
    """The order the global front is valued in: healthiest heroes first, then the strongest
    weapon (a heuristic: any order gives the same values)."""
    return (-sum(h.health for h in after.heroes), -sum(h.weapon for h in after.heroes))


def _dominates(a: tuple, b: tuple) -> bool:
    """Heroes ``a`` at least as well off as ``b``, hero by hero (a fresh weapon's last kill
    counts as higher than any)."""
    inf = 10 ** 9
    return all(x.health >= y.health and x.weapon >= y.weapon
               and (inf if x.last_kill is None else x.last_kill) >= (inf if y.last_kill is None else y.last_kill)
               for x, y in zip(a, b))


def _front(ends: dict) -> dict:
    """The room's ends that no other end with the same row, dungeon and flags dominates
    (of ends with equal heroes, the first)."""
    groups: dict = {}
    for after, how in ends.items():
        groups.setdefault(_group(after), []).append((after, how))
    out = {}
    for members in groups.values():
        kept = []
        for after, how in members:
            if any(_dominates(k.heroes, after.heroes) for k, _ in kept):
                continue
            kept = [(k, h) for k, h in kept if not _dominates(after.heroes, k.heroes)]
            kept.append((after, how))
        out.update(kept)
    return out


def _result(state: State) -> tuple:
    return (1.0 if state.score > 0 else 0.0, float(state.score))


def depth1_values(pos: TablePosition, *, deals: int = DEFAULT_DEALS, orders: int = DEFAULT_ORDERS,
                  rng_seed: int = 1, enumerate_deals: int = 0) -> list:
    """:meth:`Depth1Search.action_values` with a search of its own (one question)."""
    return Depth1Search(pos.rules, deals=deals, orders=orders, rng_seed=rng_seed,
                        enumerate_deals=enumerate_deals).action_values(pos)


__all__ = ["Depth1Search", "depth1_values", "DEFAULT_DEALS", "DEFAULT_ORDERS", "MAX_ROOT_UNSEEN"]
