"""The hint at a real table: every legal card, valued over every world the player cannot rule out.

From a :class:`~.worlds.View` (what the player knows), each consistent world is solved with
the double-dummy engine: every legal card's exact margin in that world.  Per card the hint
shows

* the **mean double-dummy margin over the worlds** (each world counted once: the deals the
  player cannot tell apart are equally likely, as a shuffled deck makes them);
* the **share of worlds in which it is a best card**, and its **range** (lowest and highest
  margin over the worlds).

These are *not* what the card achieves: in each world both players are assumed to see every
card from then on (double dummy), which neither does.  Such an average overstates what the
player can get, and it can rank cards wrongly where the right play depends on a card nobody
can see (the Scoundrel hints learned that: docs/hints.md).  Every output names it so.

The worlds are solved in a fixed shuffled order (:func:`.worlds.world_order`) within the time
budget, over the process pool (two workers by default); when the clock stops it, the figures
are over the worlds solved, and the answer says how many of how many.

The recommended card: the best mean (highest for A, lowest for B), then the larger share of
worlds where it is best, then the lowest card.  :func:`explain_table` sets another card beside
it world by world (as often as good, worse, better; the costliest world).

**What the card achieves** (:func:`achieved`), where the budget allows: the recommended card
played in each world (the same fixed order), and the round played out from there by a named
policy on each side - the player by the ``table`` bot (this hint over a few worlds, each
exact, from what the player sees as the round goes on), the opponent by a named bot
(``greedy`` by default), Lopaka by his rule - with the mean margin over the worlds played and
its 95 % interval.  That is a figure a player can reach (against that opponent), unlike the
double-dummy mean; it is only as good as the policies named.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..pools import Inline, drop_pool, pool, workers_default
from .engine import Budget, Engine
from .guarantee import MAX_NODES, Guarantee, guarantee, within_reach
from .worlds import View, advance, count_worlds, world_order

#: worlds handed to a worker at a time
CHUNK = 4
#: what the figures are, in every output that shows them (text and JSON)
NAMED = ("double-dummy mean over the worlds: assumes both players could see every card from here; not what the "
         "card achieves")
#: log2 of the entries of the hint's table, by variant (entries of 16 bytes).  The table serves
#: every world of a hint and, kept between calls, the next move's worlds.  Glitzerhaus: 2**20
#: (16 MiB) costs the `table` bot's games 0.87 of the CPU and 0.72 of the nodes of the engine's
#: default 2**17 (2 MiB, one core's cache); Lopaka, whose worlds are many small searches: 2**20
#: found 14 % fewer nodes but cost 1.10 of the CPU (more cache misses), so it keeps 2**17
#: (benchmarks/bottleimp/bench_table_bot.py; figures in benchmarks/README.md).  Only the cost
#: changes: every value is exact whatever the size.
LOG2_ENTRIES = {"lopaka": 17, "glitzerhaus": 20}
_ENGINES = {}           # variant -> this process's engine
_OVERRIDE = None        # use_engine's engine, for every variant


def _engine(rules) -> Engine:
    """This process's engine for ``rules``'s variant (kept between calls: its table serves the
    next worlds too)."""
    if _OVERRIDE is not None:
        return _OVERRIDE
    engine = _ENGINES.get(rules.variant)
    if engine is None:
        engine = _ENGINES[rules.variant] = Engine(LOG2_ENTRIES[rules.variant])
    return engine


def use_engine(engine: Optional[Engine]) -> None:
    """Solve the worlds of this process with ``engine`` whatever the variant (None: new ones
    of :data:`LOG2_ENTRIES`); for tests and benchmarks of other tables."""
    global _OVERRIDE
    _OVERRIDE = engine
    _ENGINES.clear()


def solve_worlds(states, deadline: float) -> list:
    """Every legal card's exact value in each of ``states`` (``[(card, value), ...]`` per
    world), in order, stopping at ``deadline`` (a ``time.monotonic`` time; 0 = none): the
    worlds not finished are left out."""
    out = []
    for state in states:
        budget = Budget(deadline=deadline)
        values = []
        for card, bounds in _engine(state.rules).card_values(state, budget):
            if not bounds.exact:
                return out
            values.append((card, bounds.lower))
        out.append(values)
    return out


@dataclass(frozen=True)
class CardFigure:
    """One card's figures over the worlds solved (margins A - B)."""

    card: int
    mean: Fraction
    best_share: Fraction
    low: int
    high: int


@dataclass(frozen=True)
class Achieved:
    """What ``card`` achieved when played out over ``len(margins)`` worlds (see the module's doc)."""

    card: int
    player: str                 # the player's policy after the card, named
    opponent: str               # the opponent's bot
    margins: tuple              # margin A - B of each world played out, in the worlds' order
    mean: float
    ci95: Optional[tuple]


@dataclass(frozen=True)
class TableHint:
    seat: str
    cards: tuple                # CardFigure, recommended first
    worlds_total: int
    worlds_solved: int
    seconds: float
    achieved: Optional[Achieved] = None
    #: each card's floor by what the player knows (:mod:`.guarantee`), late in a round when it fits
    #: the time; None otherwise
    guarantee: Optional[Guarantee] = None
    #: per world solved: (its index in :func:`.worlds.world_order`, ((card, value), ...))
    per_world: tuple = ()

    @property
    def complete(self) -> bool:
        """Were all worlds solved?  (The figures are still double-dummy averages either way.)"""
        return self.worlds_solved == self.worlds_total

    @property
    def recommended(self) -> Optional[int]:
        return self.cards[0].card if self.cards else None


def figures(seat_is_a: bool, per_world: list) -> list:
    """The :class:`CardFigure` of each card from per-world ``[(card, value), ...]`` lists,
    recommended first."""
    if not per_world:
        return []
    cards = [c for c, _ in per_world[0]]
    n = len(per_world)
    best_counts = {c: 0 for c in cards}
    sums = {c: 0 for c in cards}
    lows = {c: None for c in cards}
    highs = {c: None for c in cards}
    for world in per_world:
        values = dict(world)
        best = max(values.values()) if seat_is_a else min(values.values())
        for c in cards:
            v = values[c]
            sums[c] += v
            lows[c] = v if lows[c] is None else min(lows[c], v)
            highs[c] = v if highs[c] is None else max(highs[c], v)
            if v == best:
                best_counts[c] += 1
    out = [CardFigure(c, Fraction(sums[c], n), Fraction(best_counts[c], n), lows[c], highs[c]) for c in cards]
    sign = -1 if seat_is_a else 1
    out.sort(key=lambda f: (sign * f.mean, -f.best_share, f.card))
    return out


def table_hint(view: View, seconds: float = 2.0, workers: int = None, progress=None,
               max_worlds: int = 0, achieve_against=None, floors: bool = True) -> TableHint:
    """The real-table hint for the seat of ``view``, whose turn it must be (see the module's doc).
    ``seconds``: the budget (0 or None: solve every world); ``workers``: processes (None: the
    default, 1: this process only); ``progress(solved, total)`` after each chunk; ``max_worlds``:
    solve only the first that many worlds of the fixed order (0: all), each exactly, whatever
    the time - a hint that does not depend on the machine (the ``table`` bot's);
    ``achieve_against``: a maker of opponent bots (``bots.factory(name)``) - with the time left
    once every world is solved, what the recommended card achieves against them (:func:`achieved`);
    ``floors``: late in a round (:func:`.guarantee.within_reach`), with every world solved and time
    left (or no budget: up to :data:`.guarantee.MAX_NODES` positions), each card's floor by what the
    player knows (:mod:`.guarantee`), else none."""
    start = time.monotonic()
    deadline = start + seconds if seconds else 0.0
    order = world_order(view)
    if max_worlds:
        order = order[:max_worlds]
    total = count_worlds(view)
    first = order[0]
    if first.turn != view.seat:
        who = first.turn_name or "nobody"
        raise _not_your_turn(view, who)
    chunks = [order[i:i + CHUNK] for i in range(0, len(order), CHUNK)]
    workers = workers_default() if workers is None else workers
    executor = Inline() if workers <= 1 or len(chunks) == 1 else pool(workers)
    results = [None] * len(chunks)
    futures = {executor.submit(solve_worlds, chunk, deadline): i for i, chunk in enumerate(chunks)}
    solved = 0
    try:
        for f, i in futures.items():
            results[i] = f.result()
            solved += len(results[i])
            if progress is not None:
                progress(solved, total)
    except BaseException:
        drop_pool()
        raise
    indexed = tuple((i * CHUNK + j, tuple(w)) for i, r in enumerate(results) if r for j, w in enumerate(r))
    per_world = [w for _, w in indexed]
    seat_name = view.rules.seats[view.seat]
    cards = tuple(figures(seat_name == "A", per_world))
    floor = None
    if floors and within_reach(view) and not max_worlds and cards and len(per_world) == total and (
            not deadline or time.monotonic() < deadline):
        floor = guarantee(view, max_nodes=0 if deadline else MAX_NODES, engine=_engine(view.rules), deadline=deadline)
    got = None
    if achieve_against and cards and len(per_world) == total and (not deadline or time.monotonic() < deadline):
        got = achieved(view, cards[0].card, achieve_against, deadline, max_worlds)
    return TableHint(seat_name, cards, total, len(per_world), time.monotonic() - start, got, floor, indexed)


#: worlds the player's own table hints use during a play-out (each exact)
PLAYOUT_WORLDS = 8
#: the fewest play-outs worth an interval
MIN_PLAYOUTS = 5


def play_out_world(view: View, world, card: int, new_opponent, player_worlds: int = PLAYOUT_WORLDS) -> int:
    """The margin of ``world`` played out after ``card``: the player by its table hint over what
    it sees (``player_worlds`` worlds), the opponent by a fresh bot from ``new_opponent()``
    (e.g. ``bots.factory("greedy")``), Lopaka by his rule."""
    from .state import Play
    bot = new_opponent()
    state, seen = world, view
    action = Play(card)
    while True:
        seen = advance(seen, state, action)
        state = state.apply(action)
        if state.finished:
            return state.value()
        cards = state.legal_cards()
        if len(cards) == 1:
            action = Play(cards[0])
        elif state.turn == view.seat:
            action = Play(table_hint(seen, seconds=0, workers=1, max_worlds=player_worlds).recommended)
        else:
            action = Play(bot.choose_card(state))


def achieved(view: View, card: int, new_opponent, deadline: float = 0.0, max_worlds: int = 0,
             player_worlds: int = PLAYOUT_WORLDS) -> Optional[Achieved]:
    """What ``card`` achieves against the bots ``new_opponent()`` makes, played out over the worlds
    in the fixed order until ``deadline`` (``time.monotonic``; 0: none) or ``max_worlds`` (0:
    all); None when fewer than :data:`MIN_PLAYOUTS` worlds were played out in time."""
    from ..intervals import mean_ci_t
    margins = []
    for world in world_order(view)[:max_worlds or None]:
        if deadline and time.monotonic() >= deadline:
            break
        margins.append(play_out_world(view, world, card, new_opponent, player_worlds))
    if len(margins) < MIN_PLAYOUTS:
        return None
    mean, ci = mean_ci_t(margins)
    return Achieved(card, f"table bot ({player_worlds} worlds a move)", new_opponent().name, tuple(margins), mean, ci)


@dataclass(frozen=True)
class TableExplanation:
    """``card`` beside the recommended card, world by world (the worlds the hint solved).

    ``cost`` is what ``card`` gives up against the recommended card in a world, for the player
    to move (A: the recommended card's margin minus ``card``'s; B: the other way round), so a
    negative cost is a gain.  Both are double-dummy margins: the comparison shares the caveat
    of the hint's figures.  ``costliest`` and ``best_for_card``: ``(cost, hidden hand, devil's
    trick)`` of the world where ``card`` costs the most and where it gains the most (the first
    in the hint's order), None without such a world."""

    card: int
    recommended: int
    worlds: int
    same: int
    worse: int
    better: int
    mean_cost: Fraction
    costliest: Optional[tuple]
    best_for_card: Optional[tuple]


def explain_table(view: View, hint: TableHint, card: int) -> TableExplanation:
    """Why ``card`` (a legal card of the player to move) is or is not the recommended card of
    ``hint`` (the table hint of ``view``): how often it does as well, worse or better, by how much."""
    from .worlds import ViewError
    if not hint.per_world:
        raise ViewError("no world was solved within the time, so there is nothing to compare: --time 0 solves "
                        "them all")
    legal = [f.card for f in hint.cards]
    if card not in legal:
        raise ViewError(f"{card} is not a card {hint.seat} can play here (legal: {' '.join(map(str, sorted(legal)))})")
    rec = hint.recommended
    sign = 1 if hint.seat == "A" else -1
    order = None
    costs = []
    for index, values in hint.per_world:
        v = dict(values)
        costs.append((sign * (v[rec] - v[card]), index))
    n = len(costs)

    def world(cost, index):
        nonlocal order
        if order is None:
            order = world_order(view)
        w = order[index]
        return cost, w.hands[view.hidden], w.devil
    costliest = max(costs, key=lambda ci: (ci[0], -ci[1]), default=None)
    cheapest = min(costs, key=lambda ci: (ci[0], ci[1]), default=None)
    return TableExplanation(
        card, rec, n, sum(1 for c, _ in costs if c == 0), sum(1 for c, _ in costs if c > 0),
        sum(1 for c, _ in costs if c < 0), Fraction(sum(c for c, _ in costs), n) if n else Fraction(0),
        world(*costliest) if costliest is not None and costliest[0] > 0 else None,
        world(*cheapest) if cheapest is not None and cheapest[0] < 0 else None)


def _not_your_turn(view: View, who: str):
    from .worlds import ViewError
    return ViewError(f"it is {who}'s turn, not {view.rules.seats[view.seat]}'s: the table hint is for the player "
                     f"to move")


__all__ = ["NAMED", "Achieved", "CardFigure", "TableExplanation", "TableHint", "achieved", "explain_table", "figures",
           "play_out_world", "solve_worlds", "table_hint"]
