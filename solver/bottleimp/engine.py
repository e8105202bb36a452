"""The double-dummy engine: states of the rules engine in, exact values, lines and card values out.

:class:`Engine` wraps the Cython core (``_core.Core``, one transposition table) and speaks
the language of :mod:`.state`: a play-phase :class:`State` of Lopaka or Glitzerhaus.  It
answers

* :meth:`Engine.bounds` - the value, or proven bounds when a budget stops the search;
* :meth:`Engine.test` - one null-window test, answered by the bound it proves (fail-soft);
* :meth:`Engine.line` - an optimal line to the end of the round, the lowest of equally good
  cards at each turn (IMP-RULES §8), which replays to the value;
* :meth:`Engine.card_values` - every legal card with its exact value (or bounds).

Every answer is checked against the pure-Python reference (:mod:`.reference`) by the tests.

>>> from .deal import deal
>>> from .rules import Rules
>>> from .state import Pass
>>> start = deal(42, Rules("lopaka")).start().apply(Pass(1, 18))
>>> Engine().value(start)
34
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

from ..errors import InputError
from .cards import DECK, START_PRICE
from .state import Play, State
from ._core import Core, FLAGS, INFINITY

#: card number -> index 0-35 (the order of the numbers, 19 left out), and its bit in a holding's mask
INDEX = {n: i for i, n in enumerate(DECK)}
BIT = {n: 1 << i for i, n in enumerate(DECK)}
_TABLES = {}        # Rules -> (coins, suit numbers) by card index, as the core takes them
#: the default table: 2**17 entries of 16 bytes (2 MiB): for one deal larger tables found little
#: more and lost more to cache misses (benchmarks/README.md); the real-table hint, whose table
#: serves many worlds, makes its own larger one (tablehint.LOG2_ENTRIES)
DEFAULT_LOG2_ENTRIES = 17


class NotPlayPhase(InputError):
    """A state the engine does not value: the setup phase, the base game."""


@dataclass(frozen=True)
class Margin:
    """A margin A - B, or the bounds proven on it: ``lower <= value <= upper``; exact when they meet."""

    lower: int
    upper: int

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    @property
    def value(self) -> Optional[int]:
        return self.lower if self.exact else None

    @classmethod
    def of(cls, bounds: "Margin") -> "Margin":
        """The bounds of ``bounds`` alone (a :class:`Bounds` without its cost)."""
        return Margin(bounds.lower, bounds.upper)


@dataclass(frozen=True)
class Bounds(Margin):
    """What a search proved (a :class:`Margin`) and what it cost."""

    nodes: int
    seconds: float


class Budget:
    """A node limit and a deadline shared by several searches (0 / None: no limit): ``timeout``
    seconds from now, or a ``deadline`` on the ``time.monotonic`` clock.  ``cpu``: both on this
    process's CPU clock (``time.process_time``) instead: the work a quiet machine would do in
    that time, for benchmarks on a busy one."""

    def __init__(self, max_nodes: int = 0, timeout: Optional[float] = None, deadline: float = 0.0, cpu: bool = False):
        self.max_nodes = max_nodes or 0
        self.cpu = cpu
        self.deadline = self.clock() + timeout if timeout else (deadline or 0.0)
        self.used = 0

    def clock(self) -> float:
        return time.process_time() if self.cpu else time.monotonic()

    def nodes_left(self) -> int:
        if not self.max_nodes:
            return 0
        return max(1, self.max_nodes - self.used)

    @property
    def spent(self) -> bool:
        return bool(self.max_nodes and self.used >= self.max_nodes) or bool(
            self.deadline and self.clock() >= self.deadline)


class Engine:
    """One core and its table; see the module's doc.  Not thread-safe: one per thread/process."""

    def __init__(self, log2_entries: int = DEFAULT_LOG2_ENTRIES, techniques=None):
        self.core = Core(log2_entries)
        if techniques is not None:
            self.core.flags = sum(FLAGS[t] for t in techniques)

    # ----------------------------------------------------------- loading
    def load(self, state: State) -> None:
        rules = state.rules
        if not rules.two_player:
            raise NotPlayPhase("the double-dummy value is defined for Lopaka and Glitzerhaus; the base game's is "
                               "out of scope (IMP-RULES §8)")
        if state.in_setup:
            raise NotPlayPhase("the engine values play-phase positions; the setup is a matrix game of them")
        table = rules.table
        known = _TABLES.get(rules)
        if known is None:
            letters = list(table.suit_names)
            known = _TABLES[rules] = ([table.coins(n) for n in DECK], [letters.index(table.suit(n)) for n in DECK])
        self.core.set_rules(rules.variant == "glitzerhaus", known[0], known[1], table.coins_of(state.devil))
        hands = [sum(BIT[c] for c in h) for h in state.hands]
        won = [table.coins_of(w) for w in state.won]
        pidx = 18 if state.price == START_PRICE else INDEX[state.price]
        self.core.set_position(hands, [INDEX[c] for c in state.trick], pidx,
                               -1 if state.holder is None else state.holder, state.leader, won)

    # ----------------------------------------------------------- values
    def bounds(self, state: State, budget: Budget = None, lower: int = -INFINITY, upper: int = INFINITY,
               guess: int = 0, progress=None) -> Bounds:
        """The value of a play-phase position, or the bounds proven within ``budget``.

        ``progress``, if given, is called after every null-window test with
        ``(lower, upper, nodes)`` proven so far (the driver then runs test by test from
        Python; the answer is the same)."""
        if state.finished:
            return Bounds(state.value(), state.value(), 0, 0.0)
        self.load(state)
        budget = budget or Budget()
        self.core.cpu_clock = budget.cpu
        total = state.rules.table.total            # no margin reaches the coins of the whole deck
        fast_lo, fast_hi = self.core.bounds()       # (at a trick boundary; else infinite)
        lower, upper = max(lower, fast_lo, -total), min(upper, fast_hi, total)
        start, nodes0 = time.perf_counter(), self.core.nodes
        if progress is None:
            lo, hi = self.core.solve(guess, lower, upper, budget.nodes_left(), budget.deadline)
        else:
            lo, hi = self._stepwise(guess, lower, upper, budget, nodes0, progress)
        nodes = self.core.nodes - nodes0
        budget.used += nodes
        return Bounds(lo, hi, nodes, time.perf_counter() - start)

    def _stepwise(self, guess, lo, hi, budget, nodes0, progress):
        """The core's driver (``_search.mtdf``) test by test, reporting after each."""
        lo0, hi0, g, step = lo, hi, guess, 4
        while lo < hi:
            g = min(max(g, lo + 1), hi)
            beta = g
            left = budget.max_nodes - budget.used - (self.core.nodes - nodes0) if budget.max_nodes else 0
            if budget.max_nodes and left <= 0:
                break
            g = self.core.test(beta - 1, beta, left, budget.deadline)
            if g is None:
                break
            if g < beta:
                hi = g
                g, step = ((lo + hi + 1) // 2, step) if lo > lo0 else (hi - step, step * 2)
            else:
                lo = g
                g, step = ((lo + hi + 1) // 2, step) if hi < hi0 else (lo + step, step * 2)
            progress(lo, hi, self.core.nodes - nodes0)
        return lo, hi

    def value(self, state: State) -> int:
        """The exact value (no budget)."""
        return self.bounds(state).lower

    def at_least(self, state: State, target: int, budget: Budget = None) -> Optional[bool]:
        """Is the value >= ``target``?  None when the budget stopped the test."""
        if state.finished:
            return state.value() >= target
        self.load(state)
        budget = budget or Budget()
        self.core.cpu_clock = budget.cpu
        nodes0 = self.core.nodes
        v = self.core.test(target - 1, target, budget.nodes_left(), budget.deadline)
        budget.used += self.core.nodes - nodes0
        return None if v is None else v >= target

    def test(self, state: State, target: int, budget: Budget = None) -> Optional[Margin]:
        """One null-window test "is the value at least ``target``?", answered by the bounds it
        proves (fail-soft: ``Margin(g, total)`` with ``g >= target`` when it is, else
        ``Margin(-total, g)`` with ``g < target``); None when the budget stopped it."""
        total = state.rules.table.total
        if state.finished:
            v = state.value()
            return Margin(v, v)
        self.load(state)
        budget = budget or Budget()
        self.core.cpu_clock = budget.cpu
        nodes0 = self.core.nodes
        g = self.core.test(target - 1, target, budget.nodes_left(), budget.deadline)
        budget.used += self.core.nodes - nodes0
        if g is None:
            return None
        return Margin(max(g, -total), total) if g >= target else Margin(-total, min(g, total))

    def line(self, state: State, value: int = None, budget: Budget = None) -> Optional[list]:
        """An optimal line from ``state`` to the end (the lowest of equally good cards at each
        turn), as :class:`Play` actions; None when the budget ran out first."""
        if value is None:
            b = self.bounds(state, budget)
            if not b.exact:
                return None
            value = b.lower
        out = []
        while not state.finished:
            cards = state.legal_cards()
            chosen = cards[0] if len(cards) == 1 else None
            if chosen is None:
                maximiser = state.seats[state.turn] == "A"
                for card in cards:
                    child = state.apply(Play(card))
                    # A's card is best when its child is worth >= value; B's when <= value
                    ok = self.at_least(child, value, budget) if maximiser else self._at_most(child, value, budget)
                    if ok is None:
                        return None
                    if ok:
                        chosen = card
                        break
                if chosen is None:
                    raise AssertionError(f"no card keeps the value {value}: the engine disagrees with itself")
            out.append(Play(chosen))
            state = state.apply(Play(chosen))
        if state.value() != value:
            raise AssertionError(f"the line ends at {state.value()}, not at the value {value}")
        return out

    def _at_most(self, state: State, target: int, budget: Budget) -> Optional[bool]:
        above = self.at_least(state, target + 1, budget)
        return None if above is None else not above

    def card_values(self, state: State, budget: Budget = None, guess: int = 0, guesses: dict = None,
                    merge: bool = False) -> list:
        """``[(card, Bounds)]`` for every legal card, in card order (``guess``: where each
        search's tests start, the position's value when known; ``guesses``: a start for some
        cards, ``{card: guess}``, e.g. their values in a similar position, or a function
        ``guesses(card, done)`` of the ``[(card, Bounds)]`` found so far, returning a guess or
        None).  ``merge``: a card the core's equivalence makes one with a lower legal card
        (:meth:`distinct_cards`) takes that card's bounds (cost 0) instead of a search of its own:
        the same values.  The guesses change the work only, never a value."""
        if guesses is None:
            guesses = {}
        pick = guesses if callable(guesses) else (lambda card, done: guesses.get(card))
        cards = state.legal_cards()
        tried = set(self.distinct_cards(state)) if merge and len(cards) > 1 else set(cards)
        out, last = [], None
        for card in cards:
            if card in tried:
                g = pick(card, out)
                last = self.bounds(state.apply(Play(card)), budget, guess=guess if g is None else g)
                out.append((card, last))
            else:                   # equal to the highest card tried below it (_moves.distinct_moves)
                out.append((card, Bounds(last.lower, last.upper, 0, 0.0)))
        return out

    def distinct_cards(self, state: State) -> list:
        """The legal cards of ``state`` less those the core's equivalence makes one with a lower
        legal card (``_moves.distinct_moves``: above the price, of one suit and coins, no card in
        play between them), ascending; every legal card with the technique ``equiv`` off."""
        if state.finished:
            return []
        self.load(state)
        if state.lopaka_to_play:
            return list(state.legal_cards())
        return [DECK[i] for i in self.core.moves()]

    def stats(self) -> dict:
        return self.core.stats()
