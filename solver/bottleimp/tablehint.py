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
worlds where it is best, then the lowest card.

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
from .worlds import View, advance, count_worlds, world_order

#: worlds handed to a worker at a time
CHUNK = 4
_ENGINE = None


def _engine() -> Engine:
    """This process's engine (kept between calls: its table serves the next worlds too)."""
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = Engine()
    return _ENGINE


def solve_worlds(states, deadline: float) -> list:
    """Every legal card's exact value in each of ``states`` (``[(card, value), ...]`` per
    world), in order, stopping at ``deadline`` (a ``time.monotonic`` time; 0 = none): the
    worlds not finished are left out."""
    engine = _engine()
    out = []
    for state in states:
        budget = Budget(deadline=deadline)
        values = []
        for card, bounds in engine.card_values(state, budget):
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
               max_worlds: int = 0, achieve_against: Optional[str] = None) -> TableHint:
    """The real-table hint for the seat of ``view``, whose turn it must be (see the module's doc).
    ``seconds``: the budget (0 or None: solve every world); ``workers``: processes (None: the
    default, 1: this process only); ``progress(solved, total)`` after each chunk; ``max_worlds``:
    solve only the first that many worlds of the fixed order (0: all), each exactly, whatever
    the time - a hint that does not depend on the machine (the ``table`` bot's);
    ``achieve_against``: a bot name - with the time left once every world is solved, what the
    recommended card achieves against it (:func:`achieved`)."""
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
    per_world = [w for r in results if r for w in r]
    seat_name = view.rules.seats[view.seat]
    cards = tuple(figures(seat_name == "A", per_world))
    got = None
    if achieve_against and cards and len(per_world) == total and (not deadline or time.monotonic() < deadline):
        got = achieved(view, cards[0].card, achieve_against, deadline, max_worlds)
    return TableHint(seat_name, cards, total, len(per_world), time.monotonic() - start, got)


#: worlds the player's own table hints use during a play-out (each exact)
PLAYOUT_WORLDS = 8
#: the fewest play-outs worth an interval
MIN_PLAYOUTS = 5


def play_out_world(view: View, world, card: int, opponent: str, player_worlds: int = PLAYOUT_WORLDS) -> int:
    """The margin of ``world`` played out after ``card``: the player by its table hint over what
    it sees (``player_worlds`` worlds), the opponent by bot ``opponent``, Lopaka by his rule."""
    from .bots import make_bot
    from .state import Play
    bot = make_bot(opponent)
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


def achieved(view: View, card: int, opponent: str = "greedy", deadline: float = 0.0, max_worlds: int = 0,
             player_worlds: int = PLAYOUT_WORLDS) -> Optional[Achieved]:
    """What ``card`` achieves, played out over the worlds in the fixed order until ``deadline``
    (``time.monotonic``; 0: none) or ``max_worlds`` (0: all); None when fewer than
    :data:`MIN_PLAYOUTS` worlds were played out in time."""
    from ..intervals import mean_ci_t
    margins = []
    for world in world_order(view)[:max_worlds or None]:
        if deadline and time.monotonic() >= deadline:
            break
        margins.append(play_out_world(view, world, card, opponent, player_worlds))
    if len(margins) < MIN_PLAYOUTS:
        return None
    mean, ci = mean_ci_t(margins)
    return Achieved(card, f"table bot ({player_worlds} worlds a move)", opponent, tuple(margins), mean, ci)


def _not_your_turn(view: View, who: str):
    from .worlds import ViewError
    return ViewError(f"it is {who}'s turn, not {view.rules.seats[view.seat]}'s: the table hint is for the player "
                     f"to move")


__all__ = ["Achieved", "CardFigure", "TableHint", "achieved", "figures", "play_out_world", "solve_worlds",
           "table_hint"]
