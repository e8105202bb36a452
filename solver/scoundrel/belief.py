"""Belief-state search: what a player who cannot see the order can really achieve.

At a real table the face-down cards lie in an unknown order.  What the player
knows is a :class:`~scoundrel_solver.scoundrel.table.TablePosition`: the face-up row, the
heroes, the flags, the *unseen* cards (a multiset, in uniformly random order) and
the *known bottom* (cards of avoided rooms, in order, under the unseen ones).
That is the belief state searched here (as expectimax solvers and
information-set searches do):

* a **max node** is a belief where the player moves: its value is the best over
  exactly the legal actions of the rules engine (:meth:`State.legal_actions`);
* a **chance node** follows an action that ends the room (the last take, or an
  avoid): the next cards come off the top of the dungeon, the unseen ones first,
  each a uniformly random one of those still unseen.  Cards that do the same thing
  (5♣ and 5♠: kind and value) are merged, each class drawn with its exact
  probability ``count / unseen``;
* a belief with **no unseen card** is a position of perfect information: its
  value is the exact optimum of that position (the player sees everything that
  matters from then on), computed by a perfect-information solver.

Values are pairs ``(win chance, mean score)``, compared lexicographically (the win
chance first, then the mean score), the order in which hints rank actions.  This
objective is consistent with backward induction: a chance node averages both
components with positive weights, so it is maximal exactly when every child is.

There are no cycles: every avoid with unseen cards left deals at least one of
them, and every take removes a card, so each step either shrinks the unseen
multiset or the cards in play; once nothing is unseen the perfect-information
solver (which handles avoid cycles, RULES §2.4) takes over.

This module is the plainly written **reference**: exact rational arithmetic
(:class:`fractions.Fraction`), no pruning, a memo on the belief itself.  Faster
searches are tested against it.

>>> from scoundrel_solver.scoundrel.table import TablePosition
>>> from scoundrel_solver.cards import parse_cards
>>> start = State.new(parse_cards("5D 3S 4H 9C 2D 7S"))     # 2D and 7S face down
>>> pos = TablePosition.from_state(start)
>>> BeliefReference(start.rules).value(pos)
(Fraction(1, 1), Fraction(18, 1))
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Callable, Optional, Union

from .rules import Rules
from .state import Avoid, State

# What an action leads to, before or after the deal: a finished game, a known
# position (nothing unseen) or another belief.
Node = Union[State, "TablePosition"]  # noqa: F821  (TablePosition: see table.py)

ONE, ZERO = Fraction(1), Fraction(0)


def card_class(card) -> tuple:
    """What the rules see of a card: its kind and value (5♣ and 5♠ are one class)."""
    return (card.kind, card.value)


def _belief_of(state: State, unseen: tuple, bottom_from: int):
    """The belief a player has after ``state`` was reached: ``state.dungeon[:bottom_from]``
    are the unseen cards (any order), the rest the known bottom."""
    from .table import TablePosition
    return TablePosition(rules=state.rules, room=state.room, heroes=state.heroes,
                         unseen=tuple(sorted(unseen)), bottom=tuple(state.dungeon[bottom_from:]),
                         leader=state.leader, taken=state.taken, potion_used=state.potion_used,
                         help_used=state.help_used, avoided_last=state.avoided_last)


def draw_sequences(unseen, k: int):
    """Every way the next ``k`` cards can come off the unseen ones, by class.

    Yields ``(probability, cards, rest)``: ``cards`` the ``k`` cards dealt in order
    (one representative card per class draw), ``rest`` the unseen cards left.  The
    probabilities are exact and sum to 1.
    """
    by_class = {}
    for card in sorted(unseen):
        by_class.setdefault(card_class(card), []).append(card)
    classes = sorted(by_class)

    def rec(left: dict, total: int, k: int, prob: Fraction, cards: list):
        if k == 0:
            rest = [c for cl in classes for c in left[cl]]
            yield prob, tuple(cards), tuple(rest)
            return
        for cl in classes:
            pile = left[cl]
            if not pile:
                continue
            p = prob * Fraction(len(pile), total)
            left[cl] = pile[1:]
            yield from rec(left, total - 1, k - 1, p, cards + [pile[0]])
            left[cl] = pile
    yield from rec(dict(by_class), len(unseen), k, ONE, [])


def outcomes(pos, action) -> list:
    """What ``action`` leads to from the belief ``pos``: ``[(probability, node), ...]``.

    A node is a finished :class:`State`, a :class:`State` with nothing unseen
    (perfect information from there on), or the next belief.  An action that
    does not end the room leads to one belief with probability 1; the last take
    of a room and an avoid lead to a chance node over the cards dealt.
    """
    probe = pos.state(pos.unseen)
    after = probe.play(action)
    if after.finished:
        return [(ONE, after)]
    pile = len(probe.dungeon) + (len(probe.room) if isinstance(action, Avoid) else 0)
    dealt = pile - len(after.dungeon)
    if dealt == 0:  # still in the room: nothing new is seen
        return [(ONE, _node(after, pos.unseen, len(pos.unseen)))]
    k = min(dealt, len(pos.unseen))
    out = []
    for prob, cards, rest in draw_sequences(pos.unseen, k):
        child = pos.state(cards + rest).play(action)
        out.append((prob, _node(child, rest, len(rest))))
    return out


def _node(state: State, unseen: tuple, bottom_from: int):
    if state.finished or not unseen:
        return state
    return _belief_of(state, unseen, bottom_from)


def belief_key(pos) -> tuple:
    """A memo key: the belief with cards replaced by their classes (interchangeable
    cards give equal values) and the unseen cards as class counts."""
    return (tuple(card_class(c) for c in pos.room), pos.heroes,
            tuple(sorted(Counter(card_class(c) for c in pos.unseen).items())),
            tuple(card_class(c) for c in pos.bottom), pos.leader, pos.taken, pos.potion_used,
            pos.help_used, pos.avoided_last)


def _reference_exact(state: State) -> int:
    from .reference import solve_reference
    out = solve_reference(state)
    return out["score"]


class BeliefReference:
    """Exact expectimax over beliefs, in exact rationals, memoised on :func:`belief_key`.

    ``exact`` values a position of perfect information (its optimal score); the
    default is the pure-Python reference solver, so this class depends on nothing
    but the rules engine.  Pass the core (``lambda s: solve(state=s).score``) for
    larger dungeons.
    """

    def __init__(self, rules: Rules, exact: Optional[Callable[[State], int]] = None):
        self.rules = rules
        self.exact = exact or _reference_exact
        self.memo: dict = {}
        self.known: dict = {}
        self.beliefs = 0

    def node_value(self, node) -> tuple:
        if isinstance(node, State):
            if node.finished:
                score = node.score
            else:
                key = _known_key(node)
                score = self.known.get(key)
                if score is None:
                    score = self.known[key] = self.exact(node)
            return (ONE if score > 0 else ZERO, Fraction(score))
        return self.value(node)

    def action_value(self, pos, action) -> tuple:
        win, mean = ZERO, ZERO
        for prob, node in outcomes(pos, action):
            w, m = self.node_value(node)
            win += prob * w
            mean += prob * m
        return win, mean

    def action_values(self, pos) -> list:
        """``[(action, (win, mean)), ...]`` for every legal action, in the rules engine's order."""
        probe = pos.state(pos.unseen)
        return [(a, self.action_value(pos, a)) for a in probe.legal_actions()]

    def value(self, pos) -> tuple:
        """``(win chance, mean score)`` of the best policy from the belief ``pos``."""
        key = belief_key(pos)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.beliefs += 1
        best = max((v for _, v in self.action_values(pos)))
        self.memo[key] = best
        return best

    def best_action(self, pos):
        """The first legal action (rules-engine order) of the best value: the policy."""
        values = self.action_values(pos)
        top = max(v for _, v in values)
        return next(a for a, v in values if v == top)


def _known_key(state: State) -> tuple:
    return (tuple(card_class(c) for c in state.room), tuple(card_class(c) for c in state.dungeon),
            state.heroes, state.leader, state.taken, state.potion_used, state.help_used,
            state.avoided_last)
