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
import zlib
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..pools import Inline, drop_pool, pool, workers_default
from ._core import FLAGS
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
#: default 2**17 (2 MiB, one core's cache).  Lopaka: 2**20 too since the worlds share entries
#: (``devil`` below): at trick 1 the entries of the worlds solved before must outlive the next
#: world's searches.  Lopaka's trick 1, two workers, 2 CPU seconds each, six positions side by
#: side (busy machine): 557 worlds solved with 2**20, 540 with 2**22 (fewer nodes, but more cache
#: misses in two 64 MiB tables), 454 with 2**17 (benchmarks/README.md).  Only the cost changes:
#: every value is exact whatever the size.
LOG2_ENTRIES = {"lopaka": 20, "glitzerhaus": 20}
#: the table's size when a hint solves at most :data:`FEW_WORLDS` worlds (``max_worlds``: the
#: `table` bot's 16 a move, the play-outs' 8), where it differs: in Lopaka the worlds are few and
#: small there, and 2**20 cost the `table` bot's games 1.07 of the CPU of 2**17 for 0.91 of the
#: nodes (deals 201-230 against greedy, the devil's coins shared; bench_table_bot.py)
LOG2_FEW = {"lopaka": 17}
FEW_WORLDS = 16
#: what the world loop does to share work across the worlds and the cards of a hint, each
#: switchable (``table_hint(techniques=...)``); none changes a value, only the work:
#:
#: * ``devil``: the engine's table answers for another devil's trick's coins, widened by what
#:   they can change (the core's technique of that name): the worlds differ only in how the
#:   unseen cards split between the hidden hand and the devil's trick, so once a card that lies
#:   in the devil's trick in one world has been played in another, their positions are the same
#:   cards in the same holdings;
#: * ``guess``: each card's null-window tests start at its value in the nearest world this
#:   process solved before for the same view (fewest hidden cards changed), moved as the card
#:   of this world solved before that was closest to it there moved (``_guesses``);
#: * ``merge``: cards the core's equivalence makes one (above the price, one suit and coins,
#:   no card in play between them: in the world's own deal) are valued by one search.
WORLD_TECHNIQUES = ("devil", "guess", "merge")
_ENGINES = {}           # (variant, log2 entries, devil) -> this process's engine
_OVERRIDE = None        # use_engine's engine, for every variant
_SOLVED = {"view": None, "rows": []}     # this process's worlds solved for the view last asked (guess)
_CPU = {"call": None, "start": 0.0}      # the hint this process's CPU budget counts from (cpu_seconds)


def _engine(rules, techniques=WORLD_TECHNIQUES, log2_entries: int = None) -> Engine:
    """This process's engine for ``rules``'s variant (kept between calls: its table serves the
    next worlds too); with the core's ``devil`` technique when ``techniques`` has it."""
    if _OVERRIDE is not None:
        return _OVERRIDE
    log2 = log2_entries or LOG2_ENTRIES[rules.variant]
    key = (rules.variant, log2, "devil" in techniques)
    engine = _ENGINES.get(key)
    if engine is None:
        core = [t for t in FLAGS if t != "devil" or "devil" in techniques]
        engine = _ENGINES[key] = Engine(log2, techniques=core)
    return engine


def use_engine(engine: Optional[Engine]) -> None:
    """Solve the worlds of this process with ``engine`` whatever the variant (None: new ones
    of :data:`LOG2_ENTRIES`); for tests and benchmarks of other tables."""
    global _OVERRIDE
    _OVERRIDE = engine
    _ENGINES.clear()
    _SOLVED["view"], _SOLVED["rows"] = None, []


def _hidden_mask(state, hidden: int) -> int:
    return sum(1 << c for c in state.hands[hidden])


def _nearest(mask: int) -> Optional[dict]:
    """The card values of the world solved before (for this view, in this process) whose hidden
    holding differs least from ``mask``, the latest of the nearest; None before the first."""
    best, found = None, None
    for m, values in _SOLVED["rows"]:
        d = bin(m ^ mask).count("1")
        if best is None or d <= best:
            best, found = d, values
    return found


def _guesses(near: Optional[dict]):
    """The first guess of each card's tests (``guess``), from ``near`` (the nearest world's
    values): a card's value there, moved by how much the card of this world solved before whose
    value there was closest moved (cards close in value move together: on Lopaka's trick 1 this
    halved the median error of the guess, to 4, against the nearest world's value alone)."""
    if not near:
        return None

    def guess(card, done):
        if card not in near:
            return None
        known = [(c, b.lower) for c, b in done if c in near and b.exact]
        if not known:
            return near[card]
        c, v = min(known, key=lambda cv: abs(near[cv[0]] - near[card]))
        return v + near[card] - near[c]
    return guess


def solve_worlds(states, deadline: float, techniques=WORLD_TECHNIQUES, view_key=None, hidden: int = None,
                 log2_entries: int = None, cpu_seconds: float = 0.0, call=None) -> list:
    """Every legal card's exact value in each of ``states`` (``[(card, value), ...]`` per
    world), in order, stopping at ``deadline`` (a ``time.monotonic`` time; 0 = none): the
    worlds not finished are left out.  ``techniques``: of :data:`WORLD_TECHNIQUES` (only the
    work changes); ``view_key`` and ``hidden``: the view the worlds are of and its hidden
    holding, whose worlds solved before in this process give the guesses (``guess``).
    ``cpu_seconds`` (with ``deadline`` 0): stop instead when this process has spent that much CPU
    time on the hint ``call`` (every chunk of one call shares it)."""
    return _solve_chunk(states, deadline, techniques, view_key, hidden, log2_entries, cpu_seconds, call)[0]


def _solve_chunk(states, deadline, techniques, view_key, hidden, log2_entries, cpu_seconds, call):
    """:func:`solve_worlds` and the nodes it searched."""
    out, nodes = [], 0
    if cpu_seconds:
        if _CPU["call"] != call:
            _CPU["call"], _CPU["start"] = call, time.process_time()
        deadline = _CPU["start"] + cpu_seconds
    guess = "guess" in techniques and view_key is not None and hidden is not None
    if guess and _SOLVED["view"] != view_key:
        _SOLVED["view"], _SOLVED["rows"] = view_key, []
    for state in states:
        budget = Budget(deadline=deadline, cpu=bool(cpu_seconds))
        engine = _engine(state.rules, techniques, log2_entries)
        mask = _hidden_mask(state, hidden) if guess else 0
        near = _guesses(_nearest(mask)) if guess else None
        values = []
        for card, bounds in engine.card_values(state, budget, guesses=near, merge="merge" in techniques):
            nodes += bounds.nodes
            if not bounds.exact:
                return out, nodes
            values.append((card, bounds.lower))
        out.append(values)
        if guess:
            _SOLVED["rows"].append((mask, dict(values)))
    return out, nodes


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
    #: the nodes the worlds' searches cost, every worker's (the worlds not finished included)
    nodes: int = 0

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
               max_worlds: int = 0, achieve_against=None, floors: bool = True, techniques=WORLD_TECHNIQUES,
               log2_entries: int = None, cpu: bool = False) -> TableHint:
    """The real-table hint for the seat of ``view``, whose turn it must be (see the module's doc).
    ``seconds``: the budget (0 or None: solve every world); ``workers``: processes (None: the
    default, 1: this process only); ``progress(solved, total)`` after each chunk; ``max_worlds``:
    solve only the first that many worlds of the fixed order (0: all), each exactly, whatever
    the time - a hint that does not depend on the machine (the ``table`` bot's);
    ``achieve_against``: a maker of opponent bots (``bots.factory(name)``) - with the time left
    once every world is solved, what the recommended card achieves against them (:func:`achieved`);
    ``floors``: late in a round (:func:`.guarantee.within_reach`), with every world solved and time
    left (or no budget: up to :data:`.guarantee.MAX_NODES` positions), each card's floor by what the
    player knows (:mod:`.guarantee`), else none.  ``techniques`` (of :data:`WORLD_TECHNIQUES`) and
    ``log2_entries`` (the table's size; None: :data:`LOG2_ENTRIES`): how the worlds share work,
    for benchmarks; the answer for the worlds solved is the same whatever they are.  ``cpu``: the
    budget is ``seconds`` of CPU time in each worker (``time.process_time``) instead of wall time,
    the work a quiet machine does in ``seconds``: for benchmarks on a busy machine (then no floor
    and nothing achieved: they keep to the wall clock)."""
    start = time.monotonic()
    cpu_seconds = seconds if cpu and seconds else 0.0
    deadline = start + seconds if seconds and not cpu else 0.0
    order = world_order(view)
    if max_worlds:
        order = order[:max_worlds]
        if log2_entries is None and max_worlds <= FEW_WORLDS:
            log2_entries = LOG2_FEW.get(view.rules.variant)
    total = count_worlds(view)
    first = order[0]
    if first.turn != view.seat:
        who = first.turn_name or "nobody"
        raise _not_your_turn(view, who)
    chunks = [order[i:i + CHUNK] for i in range(0, len(order), CHUNK)]
    workers = workers_default() if workers is None else workers
    executor = Inline() if workers <= 1 or len(chunks) == 1 else pool(workers)
    results = [None] * len(chunks)
    techniques = tuple(techniques)
    view_key = zlib.crc32(repr(view).encode())
    call = (view_key, start)          # this call, for the workers' CPU budgets
    futures = {executor.submit(_solve_chunk, chunk, deadline, techniques, view_key, view.hidden, log2_entries,
                               cpu_seconds, call): i for i, chunk in enumerate(chunks)}
    solved = nodes = 0
    try:
        for f, i in futures.items():
            results[i], n = f.result()
            nodes += n
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
    def in_time():          # every world solved and time left (a CPU budget: none of what follows)
        return len(per_world) == total and not cpu_seconds and (not deadline or time.monotonic() < deadline)
    if floors and within_reach(view) and not max_worlds and cards and in_time():
        floor = guarantee(view, max_nodes=0 if deadline else MAX_NODES,
                          engine=_engine(view.rules, techniques, log2_entries), deadline=deadline)
    got = None
    if achieve_against and cards and in_time():
        got = achieved(view, cards[0].card, achieve_against, deadline, max_worlds)
    return TableHint(seat_name, cards, total, len(per_world), time.monotonic() - start, got, floor, indexed, nodes)


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


__all__ = ["NAMED", "WORLD_TECHNIQUES", "Achieved", "CardFigure", "TableExplanation", "TableHint", "achieved",
           "explain_table", "figures", "play_out_world", "solve_worlds", "table_hint"]
