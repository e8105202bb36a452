"""The pure-Python reference solver: the executable specification of optimal play.

It is built only on the rules engine (:meth:`State.legal_actions`, :meth:`State.play`,
:attr:`State.finished`, :attr:`State.score`) and does an exhaustive, memoised
depth-first search.  There is no pruning, no bound and no move ordering: every legal
action of every reachable position is tried.  The fast Cython core is tested against it,
so it is written to be obviously correct rather than fast.

>>> from scoundrel_solver.cards import parse_cards
>>> from scoundrel_solver.notation import format_line
>>> out = solve_reference(State.new(parse_cards("5D 3S")))
>>> out["score"], format_line(out["line"]), out["exact"]
(20, '5D 3Sw', True)

Value of a position
-------------------
The value of a finished state is its :attr:`State.score`; the value of any other state
is the maximum over its legal actions of the value of the state the action leads to.
Every take removes a card, so a line can only be infinite by avoiding forever, which
never finishes the game and has no score; such lines are not lines of play.

Memo key
--------
Positions are memoised on the state with three fields normalised away:

* ``rooms_done`` is a counter for people; no rule reads it.
* ``last_card`` is read only by the score of a won game, i.e. of a *finished* state.
  Only unfinished states are memoised, and every way from an unfinished state to a
  finished one ends with a take (an avoid never finishes the game), which overwrites
  ``last_card``.  So the value of an unfinished state does not depend on it, even in
  the final room.
* ``avoided_last`` is read only by :meth:`State.can_avoid`, and only when no card of
  the room was taken yet and the rule is one where an avoid may be followed by a
  forbidden avoid (solo ``classic``, co-op).  Elsewhere (mid-room, solo ``easy``,
  solo ``hard``) it is dropped.  Two states with equal keys have the same legal
  actions, and each action leads them to states with equal keys (or, for finished
  states, equal scores), so they have the same value and the same best actions.

Avoid chains and cycles
-----------------------
Avoiding only rotates the cards: the sequence *room + dungeon* becomes
*dungeon + room*, i.e. it is rotated left by the 4 cards of the room, and nothing
else of the key changes (health, weapons, leader, ...).  At a room start where
avoiding is possible the solver therefore follows the *avoid chain*
``S0, S1 = avoid(S0), S2 = avoid(S1), ...`` until one of:

1. the last state cannot avoid (solo ``classic`` and co-op: right after one avoid);
2. the next state's key is already solved in the memo;
3. the next state's key equals the key of a chain state ``Sj`` — a cycle.  This is
   what happens with the solo ``easy`` flee rule, where avoiding is always allowed:
   the rotation is a permutation, so the chain returns to ``S0`` itself.

Write ``T(S)`` for the best value over the *take* actions of ``S``.  A take leaves
the chain for good: it removes a card, and no avoid or take ever adds one, so no chain
state is reachable from a take child and ``T(S)`` is an ordinary, well-founded value.

On a cycle ``C = Sj .. Sk``, every member reaches every other by avoids alone, and
every finite line from a member is some avoids within ``C`` followed by a take from
some member ``Y`` (the line must eventually take a card, and until it does it stays
in ``C``).  Hence every member has the same value ``max(T(Y) for Y in C)``, attained by
avoiding round the cycle to the first member (fewest avoids) whose ``T`` is the
maximum and taking there.  Before the cycle, and in cases 1 and 2, the chain is a
plain path: ``value(Si) = max(value(S(i+1)), T(Si))``, computed from the end back.

Ties
----
Between equally scored actions the first in :meth:`State.legal_actions` order wins
(``avoid`` is listed first).  The one exception is on an avoid cycle, where "avoid on
a tie" could loop forever: there a take wins a tie, so the line avoids the fewest
times.

Limits
------
``nodes`` counts states expanded (unfinished states whose actions were enumerated).
When ``max_nodes`` or ``timeout`` is hit the search stops and reports ``exact=False``
with the best *complete* line it has seen so far: every finished state reached, and
every memo hit (whose optimal continuation is known), is a complete line from the
start.
"""
from __future__ import annotations

import sys
import time
from dataclasses import replace

from .state import AVOID, Avoid, State

__all__ = ["solve_reference"]


class _Stop(Exception):
    """Raised deep in the search when a limit is hit; carries the limit's name."""

    def __init__(self, limit: str):
        super().__init__(limit)
        self.limit = limit


def memo_key(state: State) -> State:
    """``state`` with the fields that cannot change its value normalised away (see module doc)."""
    rules = state.rules
    avoided_matters = (state.taken == 0 and rules.avoid_allowed()
                       and not rules.can_avoid_after_avoid())
    return replace(state, rooms_done=0, last_card=None,
                   avoided_last=state.avoided_last and avoided_matters)


def group_rooms(state: State, actions) -> list:
    """Split a flat action list played from ``state`` into the rooms of the line notation.

    A room ends when it is completed (or the game ends) and after an avoid, which is
    a room on its own; a mid-room ``state`` makes the first group the rest of its room.
    """
    rooms, current = [], []
    for action in actions:
        before = state.rooms_done
        state = state.play(action)
        current.append(action)
        if state.rooms_done != before or state.finished:
            rooms.append(current)
            current = []
    if current:
        rooms.append(current)
    return rooms


class _Search:
    def __init__(self, max_nodes, timeout):
        self.max_nodes = max_nodes or None
        self.deadline = time.monotonic() + timeout if timeout else None
        self.memo = {}          # memo_key -> (value, best action)
        self.in_progress = set()
        self.nodes = 0
        self.path = []          # actions from the root to the state being searched
        self.best_score = None  # best complete line seen so far, for a stopped search
        self.best_actions = None

    # ----------------------------------------------------------------- limits
    def expand(self) -> None:
        """Count one expanded node, first stopping if a limit forbids it."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Stop("nodes")
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Stop("time")
        self.nodes += 1

    def record(self, score: int, state: State) -> None:
        """A complete line is known: ``self.path`` to ``state``, then optimal play from it."""
        if self.best_score is None or score > self.best_score:
            self.best_score = score
            self.best_actions = list(self.path) + self.continuation(state)

    # --------------------------------------------------------------- search
    def value(self, state: State) -> int:
        """The optimal score from ``state`` (memoised)."""
        if state.finished:
            self.record(state.score, state)
            return state.score
        key = memo_key(state)
        if key in self.memo:
            value = self.memo[key][0]
            self.record(value, state)
            return value
        assert key not in self.in_progress, "a state was re-entered outside an avoid chain"
        if state.can_avoid():
            self.solve_avoid_chain(state)
        else:
            self.in_progress.add(key)
            self.expand()
            self.memo[key] = self.best_take(state)
            self.in_progress.discard(key)
        return self.memo[key][0]

    def best_take(self, state: State):
        """``(T, action)``: the best value over the takes of ``state`` and the first take attaining it."""
        best = None
        for action in state.legal_actions():
            if isinstance(action, Avoid):
                continue
            self.path.append(action)
            value = self.value(state.play(action))
            self.path.pop()
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None, "an unfinished state always has a card to take"
        return best

    def solve_avoid_chain(self, start: State) -> None:
        """Solve every state of the avoid chain from ``start`` (see module doc)."""
        chain, keys = [start], [memo_key(start)]
        cycle_start = None   # index of the first cycle member (case 3)
        tail_value = None    # value of the memoised state the chain runs into (case 2)
        while chain[-1].can_avoid():
            nxt = chain[-1].play(AVOID)
            key = memo_key(nxt)
            if key in keys:
                cycle_start = keys.index(key)
                break
            if key in self.memo:
                tail_value = self.memo[key][0]
                break
            assert key not in self.in_progress, "an avoid chain ran into a state being searched"
            chain.append(nxt)
            keys.append(key)

        self.in_progress.update(keys)
        takes = []           # (T, best take) of each chain state, in chain order
        for i, state in enumerate(chain):
            self.expand()
            self.path.extend([AVOID] * i)
            takes.append(self.best_take(state))
            del self.path[len(self.path) - i:]

        plain_end = len(chain)  # chain[:plain_end] is solved back to front below
        if cycle_start is not None:
            cycle_value = max(t for t, _ in takes[cycle_start:])
            for i in range(cycle_start, len(chain)):
                t, take = takes[i]
                self.memo[keys[i]] = (cycle_value, take if t == cycle_value else AVOID)
            plain_end = cycle_start
            next_value = cycle_value
        elif tail_value is not None:
            next_value = tail_value
        else:
            # the last state cannot avoid: its value is its best take
            self.memo[keys[-1]] = takes[-1]
            plain_end = len(chain) - 1
            next_value = takes[-1][0]
        for i in range(plain_end - 1, -1, -1):
            t, take = takes[i]
            # avoid comes first in legal_actions(), so it wins a tie here
            self.memo[keys[i]] = (next_value, AVOID) if next_value >= t else (t, take)
            next_value = self.memo[keys[i]][0]
        self.in_progress.difference_update(keys)

    def continuation(self, state: State) -> list:
        """The optimal actions from a solved (or finished) ``state`` to the end of the game."""
        actions, avoids = [], 0
        while not state.finished:
            action = self.memo[memo_key(state)][1]
            # an avoid cycle is at most as long as the cards left; more means a loop
            avoids = avoids + 1 if isinstance(action, Avoid) else 0
            assert avoids <= len(state.room) + len(state.dungeon), "the line avoids in a loop"
            actions.append(action)
            state = state.play(action)
        return actions


def solve_reference(state: State, max_nodes=None, timeout=None) -> dict:
    """Solve ``state`` exactly by exhaustive memoised search.

    ``max_nodes`` (expanded states) and ``timeout`` (seconds) are limits; ``None`` or 0
    means none, as for the core.  Returns ``{"score", "line", "nodes", "exact",
    "limit"}``: the optimal score and an optimal line grouped in rooms, or, when a
    limit stopped the search, ``exact=False``, ``limit="nodes"``/``"time"`` and the
    best complete line seen (``score=None``, ``line=[]`` if none).

    >>> from scoundrel_solver.cards import parse_cards
    >>> from scoundrel_solver.rules import Rules
    >>> solve_reference(State.new(parse_cards("5H 9H")))["score"]   # 20 + 9: last potion at full health
    29
    >>> out = solve_reference(State.new(parse_cards("AS AC"), Rules(mode="coop")))
    >>> out["score"], [[str(a) for a in room] for room in out["line"]]
    (12, [['ASb', 'ACb>']])
    """
    search = _Search(max_nodes, timeout)
    # three Python frames per card taken; keep well clear of the interpreter's limit
    needed = 200 + 4 * (len(state.room) + len(state.dungeon))
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)
    try:
        score = search.value(state)
    except _Stop as stop:
        if search.best_score is None:
            return {"score": None, "line": [], "nodes": search.nodes, "exact": False,
                    "limit": stop.limit}
        return {"score": search.best_score, "line": group_rooms(state, search.best_actions),
                "nodes": search.nodes, "exact": False, "limit": stop.limit}
    line = group_rooms(state, search.continuation(state))
    return {"score": score, "line": line, "nodes": search.nodes, "exact": True, "limit": None}
