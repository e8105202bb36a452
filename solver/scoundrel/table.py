"""What a player at a real table knows: :class:`TablePosition`, and the orders of the unseen cards.

The player sees the room, the heroes and what is gone, not the order of the face-down cards.
A table position is the known part of a state; :func:`unseen_orders` lists (or samples) the
orders of the unseen cards that the hints, the belief search and the table policy value.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Optional

from .cards import Card
from .rules import Rules
from .state import Avoid, PositionError, State, position_head

DEFAULT_SAMPLES = 100
DEFAULT_RNG_SEED = 1
# Enumerate every distinct order of the unseen cards when there are at most
# this many (or at most --samples, if larger): the clairvoyant figure is then the
# mean over every order, with no sampling error -- still a bound, never the value
# of a player who cannot see the order.
ENUMERATE_LIMIT = 720


def _check_playing(state: State) -> None:
    if state.finished:
        verdict = "won" if state.won else "lost"
        raise PositionError(f"the game is over ({verdict}, score {state.score}): there is no next move")


def _pack(rules: Rules) -> Counter:
    return Counter(rules.base_order())


@dataclass(frozen=True)
class TablePosition:
    """What a player at a real table knows.

    ``unseen`` are the face-down cards whose order is unknown (a sorted
    tuple); ``bottom`` are face-down cards known to lie under them, in order
    (rooms avoided earlier go under the dungeon face up, so the player knows
    them).  Everything else is as in :class:`State`.
    """

    rules: Rules
    room: tuple
    heroes: tuple
    unseen: tuple
    bottom: tuple = ()
    leader: int = 0
    taken: int = 0
    potion_used: tuple = (False, False)
    help_used: bool = False
    avoided_last: bool = False
    room_number: Optional[int] = None   # when known (from a game); a real table need not say

    @classmethod
    def from_state(cls, state: State, known_bottom: int = 0) -> "TablePosition":
        """Hide the order of ``state``'s dungeon, except its last ``known_bottom`` cards."""
        _check_playing(state)
        k = max(0, min(known_bottom, len(state.dungeon)))
        split = len(state.dungeon) - k
        return cls(rules=state.rules, room=state.room, heroes=state.heroes,
                   unseen=tuple(sorted(state.dungeon[:split])), bottom=tuple(state.dungeon[split:]),
                   leader=state.leader, taken=state.taken, potion_used=state.potion_used,
                   help_used=state.help_used, avoided_last=state.avoided_last, room_number=state.rooms_done + 1)

    def state(self, order) -> State:
        """The full position if the unseen cards lie in ``order`` (top first)."""
        return State(rules=self.rules, dungeon=tuple(order) + self.bottom, room=self.room, heroes=self.heroes,
                     leader=self.leader, taken=self.taken, potion_used=self.potion_used,
                     help_used=self.help_used, avoided_last=self.avoided_last,
                     rooms_done=(self.room_number or 1) - 1)

    @property
    def final_room(self) -> bool:
        return not self.unseen and not self.bottom

    def classes(self) -> list:
        """The unseen cards grouped by what they do (kind and value): cards of
        one group are interchangeable for the rules, so only the order of the
        groups matters."""
        groups = Counter((c.kind, c.value) for c in self.unseen)
        return sorted(groups.items())

    def distinct_orders(self) -> int:
        counts = [n for _, n in self.classes()]
        total = math.factorial(sum(counts))
        for n in counts:
            total //= math.factorial(n)
        return total

    def as_dict(self) -> dict:
        """The position as JSON (``$defs/position`` of the shipped schema), as
        :meth:`State.as_dict` but with ``unseen`` and ``bottom`` for the
        face-down cards; ``hint --position`` reads it back."""
        return {
            **position_head(self),
            "unseen": [str(c) for c in self.unseen],
            "bottom": [str(c) for c in self.bottom],
            "room_number": self.room_number,
            "final_room": self.final_room,
            "finished": False,
            "won": None,
            "score": None,
            "dungeon_left": len(self.unseen) + len(self.bottom),
        }


def _weapon_card(value: int) -> Card:
    return Card(value, "D")


def _multiset_permutations(items: list):
    """Every distinct order of ``items`` (sorted), in lexicographic order."""
    a = sorted(items)
    n = len(a)
    while True:
        yield list(a)
        i = n - 2
        while i >= 0 and not a[i] < a[i + 1]:
            i -= 1
        if i < 0:
            return
        j = n - 1
        while not a[i] < a[j]:
            j -= 1
        a[i], a[j] = a[j], a[i]
        a[i + 1:] = reversed(a[i + 1:])


def unseen_orders(cards, samples: int, rng_seed: int, enumerate_limit: int):
    """Orders of the face-down ``cards`` to solve: ``(enumerated, orders)``.

    Cards of one class (kind and value) are interchangeable, so an order is its
    class sequence, each class giving its cards in the order ``cards`` lists
    them.  Every distinct sequence when there are at most
    ``max(samples, enumerate_limit)`` (``enumerated`` True, lexicographic),
    else ``samples`` shuffles of the classes in ``cards``' order drawn with
    ``rng_seed``.  ``orders`` yields tuples of cards, top first.
    """
    by_class = {}
    for card in cards:
        by_class.setdefault((card.kind, card.value), []).append(card)
    labels = [(c.kind, c.value) for c in cards]
    distinct = math.factorial(len(labels))
    for group in by_class.values():
        distinct //= math.factorial(len(group))
    enumerated = distinct <= max(samples, enumerate_limit)
    if enumerated:
        sequences = _multiset_permutations(labels)
    else:
        rng = random.Random(rng_seed)

        def draws():
            for _ in range(samples):
                seq = list(labels)
                rng.shuffle(seq)
                yield seq
        sequences = draws()

    def orders():
        for seq in sequences:
            used = {k: 0 for k in by_class}
            order = []
            for lab in seq:
                order.append(by_class[lab][used[lab]])
                used[lab] += 1
            yield tuple(order)
    return enumerated, orders()


def known_bottom_after(state: State, action, known: int) -> int:
    """How many cards at the bottom of the dungeon a player knows after ``action``.

    An avoided room goes under the dungeon face up, in row order, so its
    cards are known; dealing eats the unknown cards first.
    """
    after = state.play(action)
    if after.finished:
        return 0
    pile = len(state.dungeon)
    if isinstance(action, Avoid):
        pile += len(state.room)
        known += len(state.room)
    dealt = pile - len(after.dungeon)
    unknown = pile - known
    if dealt > unknown:
        known -= dealt - unknown
    return max(0, min(known, len(after.dungeon)))


def known_bottom_of_line(start: State, actions) -> int:
    """Play ``actions`` (a flat list) from ``start``; return the known bottom count."""
    known = 0
    state = start
    for action in actions:
        known = known_bottom_after(state, action, known)
        state = state.play(action)
    return known


# ------------------------------------------------- building a table position
