"""A shorter optimal line: fewer rooms, the same optimal score.

The search core proves the optimal score and returns *a* line reaching it
(with the easy flee rule, the line of its opening rollout), but it does not
care how long that line is: with easy flee it readily avoids dozens of rooms
in a row, since rotating the dungeon costs nothing.  A person reading the line
wants a short one.  :func:`shortest_line` picks, without touching any score,
the line of fewest rooms among

* the given line with its loops cut (:func:`cut_cycles`: where a room-start
  position repeats, the rooms in between are dropped), and
* two greedy walks over moves that keep the optimum (each move checked with
  the core's null-window test): one tries every take before an avoid, the
  other keeps the order of legal actions but puts a second avoid in a row last.

It is not a proof of the shortest line.  A won line needs a fixed number of
rooms that take cards (each takes 3, the final one the rest), so only avoids
can be saved and that number is a lower bound: the answer is ``proven``
shortest only when it meets it.  An exact search for the fewest avoids (a
depth-first branch and bound over the moves keeping the optimum) was tried
and measured: on solo easy deal 1 it needed 25 s only to show that no optimal
line has at most one avoid, so it is not used.

Every move of the answer keeps the optimal score, so its replay reaches it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Optional

from .state import Avoid, State

# Nodes the core may spend on the checks of one call; a walk that would need
# more is dropped (the line given is kept).  Solo walks take far fewer (solo
# easy deals 1-30: at most 160,000); co-op checks are costly and often stop here.
DEFAULT_BUDGET = 2_000_000
# The table of the checks: small, and fixed, so that node counts (and with them
# where a budget stops the search) never depend on the caller's --tt-mb.
CHECK_TT_MB = 64


@dataclass(frozen=True)
class LineChoice:
    """The line chosen, with what it took to choose it."""

    line: list            # rooms, each a list of resolved actions
    rooms: int            # len(line)
    given_rooms: int      # rooms of the line it started from
    proven: bool          # no optimal line has fewer rooms
    nodes: int = 0        # nodes of the core's checks
    seconds: float = 0.0


def position_key(state: State) -> tuple:
    """What the rest of the game depends on (not how many rooms led here)."""
    return (state.dungeon, state.room, state.heroes, state.leader, state.taken, state.potion_used,
            state.help_used, state.avoided_last, state.dead, state.last_card if state.finished else None)


def rooms_of(start: State, actions) -> list:
    """A flat list of actions played from ``start``, cut into rooms (fight modes written out)."""
    rooms, state, current = [], start, None
    for action in actions:
        if state.rooms_done != current or not rooms:
            rooms.append([])
            current = state.rooms_done
        action = state.resolve(action)
        rooms[-1].append(action)
        state = state.play(action)
    return rooms


def cut_cycles(start: State, line) -> list:
    """``line`` without the rooms between two visits of the same room-start position."""
    seen, rooms, state = {}, [], start
    for room in line:
        key = position_key(state)
        if key in seen:          # back where we were: drop the loop
            del rooms[seen[key]:]
            seen = {k: i for k, i in seen.items() if i < seen[key]}
        seen[key] = len(rooms)
        rooms.append(list(room))
        for action in room:
            state = state.play(action)
    return rooms


def _line_rooms(start: State, end: State) -> int:
    """Rooms a line from ``start`` to ``end`` spans (a room part-way counts as one)."""
    part = 1 if (end.dead or (not end.finished and end.taken)) else 0
    return end.rooms_done - start.rooms_done + part


def rooms_to_clear(state: State) -> int:
    """Rooms that take cards still needed to clear the dungeon from ``state``
    (the room in play included): the length of a won line without avoids."""
    if state.finished:
        return 0
    room, dungeon, taken, rooms = len(state.room), len(state.dungeon), state.taken, 0
    while True:
        rooms += 1
        if dungeon == 0:          # the final room is taken whole
            return rooms
        room -= 3 - taken
        deal = min(4 - room, dungeon)
        room, dungeon, taken = room + deal, dungeon - deal, 0


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(self, start: State, score: int, budget: int, tt_mb: int):
        from .search import load_core
        self.core = load_core()
        self.searcher = self.core.new_searcher(start.rules, tt_mb)
        self.start, self.score, self.budget = start, score, budget
        self.nodes = 0
        self.calls = 0
        self.keeps_memo = {}

    def keeps(self, state: State, rotating=()) -> bool:
        """Does ``state`` still reach the optimal score?

        The core's test is cheap part-way through a room but costly at a room
        start (it begins with a rollout of the whole game), so a room start is
        answered from its moves: it keeps the optimum when one of its takes
        does, or its avoid (the next room start: ``rotating`` holds the ones
        on the way, so that avoiding round in circles ends).
        """
        if state.finished:
            return state.score >= self.score
        key = position_key(state)
        known = self.keeps_memo.get(key)
        if known is not None:
            return known
        if state.taken == 0 and not state.final_room:
            if key in rotating:
                return False        # a loop of avoids adds nothing
            known = False
            for action in state.legal_actions():
                child = state.play(action)
                if isinstance(action, Avoid):
                    known = self.keeps(child, rotating + (key,))
                else:
                    known = self._decide(child)
                if known:
                    break
            if known or not rotating:
                # (a "no" inside a loop may only hold for this loop's start)
                self.keeps_memo[key] = known
            return known
        known = self.keeps_memo[key] = self._decide(state)
        return known

    def _decide(self, state: State) -> bool:
        if state.finished:
            return state.score >= self.score
        key = position_key(state)
        known = self.keeps_memo.get(key)
        if known is not None:
            return known
        left = self.budget - self.nodes
        if left <= 0:
            raise _OutOfBudget
        out = self.core.decide(state, self.score, max_nodes=left, searcher=self.searcher)
        self.nodes += out["nodes"]
        if out["reached"] is None:
            raise _OutOfBudget
        self.calls += 1
        known = self.keeps_memo[key] = bool(out["reached"])
        return known

    def lower_bound(self, state: State) -> int:
        """Rooms still needed from ``state`` (the room in play counts once)."""
        if state.finished:
            return 0
        return rooms_to_clear(state) if self.score > 0 else 1

    def walk(self, state: State, avoid_last: bool = True) -> list:
        """A greedy line: at each move the first that keeps the optimum, in the
        order of legal actions with every take before an avoid (``avoid_last``,
        so it avoids only when no take keeps the optimum) or with only a second
        avoid in a row put last (so it never avoids round in circles)."""
        path = []
        while not state.finished:
            legal = state.legal_actions()
            if avoid_last or state.avoided_last:
                legal = [a for a in legal if not isinstance(a, Avoid)] + [a for a in legal if isinstance(a, Avoid)]
            for action in legal:
                child = state.play(action)
                if self.keeps(child):
                    break
            else:
                raise AssertionError("a position on an optimal line has no move keeping the optimum")
            path.append(action)
            state = child
        return path

    def rooms_at_least(self, state: State) -> int:
        """A lower bound on the rooms of any optimal line from the start through ``state``."""
        if state.finished:
            return _line_rooms(self.start, state)
        return state.rooms_done - self.start.rooms_done + self.lower_bound(state)


def shortest_line(start: State, line, score: Optional[int] = None, *, budget: int = DEFAULT_BUDGET,
                  tt_mb: int = CHECK_TT_MB) -> LineChoice:
    """The line of fewest rooms among ``line`` (loops cut) and two greedy walks,
    each reaching the optimal score ``score`` from ``start``.

    ``line`` is an optimal line (rooms of actions), e.g. the core's; its score
    is taken as the optimum when ``score`` is None.  Never returns a line
    longer than ``line`` or one that scores less.  ``proven`` is True only when
    the line has no more rooms than the lower bound (a won line without an
    avoid): the walks are greedy, not a search for the shortest line.
    """
    from .notation import replay, resolved_line
    t0 = time.perf_counter()
    given = resolved_line(start, line)
    end = replay(start, given)[-1]
    if not end.finished:
        raise ValueError("shortest_line needs a complete line")
    score = end.score if score is None else score
    if end.score != score:
        raise ValueError(f"the line scores {end.score}, not the optimum {score}")
    best = cut_cycles(start, given)
    search = _Search(start, score, budget, tt_mb)
    for avoid_last in (True, False):
        if len(best) <= search.rooms_at_least(start):
            break
        try:
            walked = rooms_of(start, search.walk(start, avoid_last))
        except _OutOfBudget:
            break
        if len(walked) < len(best):
            best = walked
    proven = len(best) <= search.rooms_at_least(start)
    return LineChoice(best, len(best), len(given), proven, search.nodes, time.perf_counter() - t0)
