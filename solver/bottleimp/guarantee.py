"""What a card guarantees by what the player knows: a floor for the late tricks of a real table.

The real-table hint's mean (:mod:`.tablehint`) assumes both players see every card from the
position on; nobody does, so that mean can overstate what a card is worth.  Here the player
is held to what they know and the opponent is given everything:

* the player to move (``P``) plays one card now and, at each later turn of the round, a card
  chosen from what ``P`` sees then (the cards played, P's own hands, the open hands): one
  choice for all the worlds ``P`` cannot tell apart;
* the opponent sees every card and answers each world with its best card (so the figure
  holds against *any* opponent, however well informed);
* Lopaka plays by his rule (his hand is open: his card is the same in every world).

The figure of a card is the mean over the consistent worlds (each counted once, as
:mod:`.tablehint` counts them) of the margin A - B that this play reaches in each world.  It
is a **floor**: the strategy behind it is one that ``P`` can really follow, and the opponent's
answers are the best in each world, so ``P`` gets at least this much on average over the worlds
against whoever sits opposite.  It is not always the best floor: the strategy is found by
*vector minimax* (Frank and Basin, "Search in games with incomplete information", 1998):
at each of P's later turns one card is chosen for every world still possible there, by its
mean over them, where the best strategy would weigh only the worlds in which the opponent
really leads there.  So the double-dummy mean is above (or at) this figure, the best floor
lies between them, and in the last trick, or wherever P has no choice left, the two agree.

The search visits every line of the remaining tricks (the player's cards, the opponent's cards
in every world, Lopaka's by his rule), with the double-dummy engine at the leaves once P has no
choice left, so it is affordable only late in a round: a node budget stops it (``None``), and
what it answers never depends on the time it was given.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from .engine import Engine
from .state import Play
from .worlds import View, world_order

#: what the figures are, in every output that shows them
NAMED = ("floor by what you know: you play each later card from what you see, the opponent sees every card and "
         "answers each world at its best; the mean over the worlds of what that reaches")
#: positions a guarantee may visit before it gives up (a few seconds in Python)
MAX_NODES = 200_000
#: the most cards the player to move may hold for the hint to try it: the last four Lopaka tricks
#: (0.6-4 s), Glitzerhaus's last three (under a second); a trick more takes 5-17 s in Lopaka and
#: would spend a hint's whole budget for nothing (benchmarks/README.md, the real-table hint)
REACH = {"lopaka": 4, "glitzerhaus": 6}


def _own(rules, seat: int) -> tuple:
    """The holdings ``seat`` plays from: its hand, or in Glitzerhaus its open stack and hidden hand."""
    return (2 * seat, 2 * seat + 1) if rules.variant == "glitzerhaus" else (seat,)


class _Budget(Exception):
    pass


@dataclass(frozen=True)
class Guarantee:
    """Per legal card of the player to move: the floor over the worlds (see the module's doc)."""

    seat: str
    worlds: int
    floors: tuple           # ((card, Fraction mean), ...), best first, then the lowest card
    nodes: int

    @property
    def best(self) -> int:
        return self.floors[0][0]

    def floor_of(self, card: int) -> Fraction:
        return dict(self.floors)[card]


class _Search:
    def __init__(self, seat: int, engine: Engine, max_nodes: int, strategy: Optional[dict], deadline: float):
        self.seat = seat
        self.sign = 1 if seat == 0 else -1          # A maximises the margin, B minimises it
        self.engine = engine
        self.max_nodes = max_nodes
        self.nodes = 0
        self.strategy = strategy                     # filled when asked: public line -> P's card
        self.deadline = deadline

    def _forced_from_here(self, state) -> bool:
        """Has the player no choice left in the round (each of their holdings at most one card)?"""
        return all(len(state.hands[h]) <= 1 for h in _own(state.rules, self.seat))

    def value(self, worlds: list, played: tuple) -> dict:
        """``{world index: margin}`` for the worlds ``[(index, state)]`` that share the public line
        ``played`` (the cards since the root)."""
        self.nodes += 1
        if self.max_nodes and self.nodes > self.max_nodes:
            raise _Budget
        if self.deadline and time.monotonic() >= self.deadline:
            raise _Budget
        first = worlds[0][1]
        if first.finished:
            return {i: s.value() for i, s in worlds}
        if self._forced_from_here(first):             # the engine's value is exact: no choice of P's left
            return {i: self.engine.value(s) for i, s in worlds}
        if first.turn == self.seat:
            best_card, best, best_mean = None, None, None
            for card in first.legal_cards():       # the player's cards: the same in every world
                v = self.value([(i, s.apply(Play(card))) for i, s in worlds], played + (card,))
                mean = self.sign * Fraction(sum(v.values()), len(v))
                if best is None or mean > best_mean:
                    best_card, best, best_mean = card, v, mean
            if self.strategy is not None:
                self.strategy[played] = best_card
            return best
        # the opponent (a card per world, chosen with every card seen) or Lopaka (his rule)
        by_card = {}
        for i, s in worlds:
            for card in s.legal_cards():
                by_card.setdefault(card, []).append((i, s.apply(Play(card))))
        out = {}
        for card in sorted(by_card):
            for i, v in self.value(by_card[card], played + (card,)).items():
                if i not in out or self.sign * v < self.sign * out[i]:
                    out[i] = v
        return out


def within_reach(view: View) -> bool:
    """Is the round late enough for the hint to try the floor (:data:`REACH`)?"""
    held = sum(len(view.hands[h]) for h in _own(view.rules, view.seat))
    return held <= REACH.get(view.rules.variant, 0)


def guarantee(view: View, max_nodes: int = MAX_NODES, engine: Engine = None,
              strategy: Optional[dict] = None, deadline: float = 0.0) -> Optional[Guarantee]:
    """Each legal card's floor for the player of ``view`` (whose turn it must be), over every
    consistent world; None when the search needs more than ``max_nodes`` positions (0: no limit)
    or is not done by ``deadline`` (a ``time.monotonic`` time; 0: none) - never a partial figure.
    ``strategy``, if a dict, receives the player's later choices: ``{cards played since the root
    (the root card first): card}`` (for tests that replay it)."""
    order = world_order(view)
    worlds = list(enumerate(order))
    first = order[0]
    if first.turn != view.seat:
        raise ValueError("the guarantee is for the player to move")
    search = _Search(view.seat, engine or Engine(), max_nodes, strategy, deadline)
    floors = []
    try:
        for card in first.legal_cards():
            v = search.value([(i, s.apply(Play(card))) for i, s in worlds], (card,))
            floors.append((card, Fraction(sum(v.values()), len(v))))
    except _Budget:
        return None
    floors.sort(key=lambda cf: (-search.sign * cf[1], cf[0]))
    return Guarantee(view.rules.seats[view.seat], len(worlds), tuple(floors), search.nodes)


__all__ = ["Guarantee", "MAX_NODES", "NAMED", "REACH", "guarantee", "within_reach"]
