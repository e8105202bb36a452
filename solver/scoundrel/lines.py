"""The optimal line of fewest rooms, and a plain reference for it.

The search core proves the optimal score and returns *a* line reaching it,
which need not be short: with the easy flee rule it readily avoids dozens of
rooms in a row, since rotating the dungeon costs nothing.  A person reading
the line wants a short one, so ``solve(shortest=True)`` asks the core for a
second search (``_shortest.pyx``): the fewest rooms (an avoided room counts as
one) of any line reaching the proven score, and a line of that length chosen
by a fixed rule.  :func:`shortest_line` is that search for a line already
found; :func:`fewest_rooms_reference` is the same answer by breadth-first
search over the rules engine, for small dungeons and the tests.

:func:`fewest_rooms_line` is the line a daily reveals, fixed by a rule that
names no search: among the lines reaching the optimal score, those of fewest
rooms; among them the first in the order of the legal actions
(:meth:`State.legal_actions`) at every move.  Every step is an exact test, so
it is the same whatever the table size, child order or threads.

Every line returned reaches the optimal score: its replay is checked.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

from .state import AVOID, Avoid, State

# The table of the search: small, and fixed, so that node counts (and with them
# where a limit stops the search) never depend on the caller's --tt-mb.
CHECK_TT_MB = 64


@dataclass(frozen=True)
class LineChoice:
    """The line chosen, with what it took to choose it."""

    line: list            # rooms, each a list of resolved actions
    rooms: int            # len(line)
    given_rooms: int      # rooms of the line it started from
    proven: bool          # no optimal line has fewer rooms
    nodes: int = 0        # nodes of the core's search for the fewest rooms
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


def displayed_line(start: State, line, shortest: Optional[bool]) -> list:
    """The optimal line to show: ``line`` as it is when it is proven to have the
    fewest rooms (``shortest``), else with its loops cut (:func:`cut_cycles`)."""
    return list(line) if shortest else cut_cycles(start, line)


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


def _room_ends(state: State):
    """Every state one room later: after an avoid, or after each way of playing
    the room in play to its end (the game's end included)."""
    if state.can_avoid():
        yield state.play(AVOID)
    room = state.rooms_done
    stack = [state]
    while stack:
        s = stack.pop()
        for action in s.legal_actions():
            if isinstance(action, Avoid):
                continue
            after = s.play(action)
            if after.finished or after.rooms_done != room:
                yield after
            else:
                stack.append(after)


def fewest_rooms_reference(start: State, score: int) -> list:
    """A line of fewest rooms from ``start`` reaching ``score`` (the optimum),
    by breadth-first search over room starts with the rules engine: plain and
    exhaustive, for small dungeons.  Raises ValueError if no line reaches it."""
    if start.finished:
        if start.score >= score:
            return []
        raise ValueError(f"the game is over with {start.score}, not {score}")
    frontier = [(start, [])]
    seen = {position_key(start)}
    while frontier:
        following = []
        for state, path in frontier:
            for end in _room_ends(state):
                played = path + [end]
                if end.finished:
                    if end.score >= score:
                        return _line_between(start, played)
                    continue
                key = position_key(end)
                if key not in seen:
                    seen.add(key)
                    following.append((end, played))
        frontier = following
    raise ValueError(f"no line from the position reaches {score}")


def _line_between(start: State, states: list) -> list:
    """The rooms of actions that lead from ``start`` through ``states`` (one a room)."""
    from .notation import resolved_line
    line, state = [], start
    for target in states:
        line.append(_room_to(state, target))
        state = target
    return resolved_line(start, line)


def _room_to(state: State, target: State) -> list:
    """The actions of one room leading from ``state`` to ``target``."""
    if state.can_avoid() and state.play(AVOID) == target:
        return [AVOID]
    stack = [(state, [])]
    while stack:
        s, acts = stack.pop()
        for action in s.legal_actions():
            if isinstance(action, Avoid):
                continue
            after = s.play(action)
            if after == target:
                return acts + [action]
            if not after.finished and after.rooms_done == state.rooms_done:
                stack.append((after, acts + [action]))
    raise AssertionError("no room leads to the state found")


def fewest_rooms_line(start: State, score: int, *, engine: Optional[str] = None, tt_mb: int = CHECK_TT_MB,
                      threads: int = 1, progress=None) -> list:
    """The optimal line of fewest rooms that comes first in the order of the legal actions.

    The rule: among the lines from ``start`` that reach ``score`` (the proven optimum),
    those of fewest rooms (the room in play counted, an avoid one room); among them the
    first by the order of :meth:`State.legal_actions` at each move, compared move by
    move from the start (lexicographically).  It is walked move by move: the fewest rooms
    ``R`` from the start, then at each position the first legal action after which a line
    of the rooms left (``R`` minus the rooms finished) still reaches ``score``.

    Exact, with no limit: with the core (``engine`` ``"core"``, the default) the start is
    solved, its fewest rooms found by one test of the rooms search (``rooms_within``,
    ``_shortest.pyx``) bounded by the proof's line, and each step is one more such test on
    the same table, whose answer does not depend on what the table holds; with
    ``"reference"`` each test is :func:`fewest_rooms_reference` (small dungeons only).  So the line is a function of the
    position and the rules alone.  ``threads``: the proof of the start's score runs on
    that many (the rooms search and the tests on one; the line is the same).
    ``progress(moves)``, if given, is told the moves walked (0 before the start's search).
    Raises ValueError if no line reaches ``score``.
    """
    from .engine import default_engine
    if start.finished and start.score < score:
        raise ValueError(f"the game is over with {start.score}, not {score}")
    if progress is not None:
        progress(0)
    if (engine or default_engine()) == "core":
        fewest, within = _core_rooms(start, score, tt_mb, threads)
    else:
        fewest, within = _reference_rooms(start, score)
    need, state, actions = fewest, start, []
    while not state.finished:
        for action in state.legal_actions():
            child = state.play(action)
            done = 1 if child.finished or child.rooms_done != state.rooms_done else 0
            if child.finished:
                ok = child.score >= score and need == done
            else:
                ok = need - done >= 1 and within(child, need - done)
            if ok:
                break
        else:
            raise AssertionError(f"no legal action keeps a line of {need} rooms reaching {score}")
        need -= done
        state = child
        actions.append(action)
        if progress is not None:
            progress(len(actions))
    if need != 0 or state.score < score:
        raise AssertionError(f"the fewest-rooms walk ended with {need} rooms left and score {state.score}")
    return rooms_of(start, actions)


def _core_rooms(start: State, score: int, tt_mb: int, threads: int = 1) -> tuple:
    """(fewest rooms from ``start``, ``within(state, rooms)``) by the core, on one table."""
    from .engine import load_core
    core = load_core()
    searcher = core.new_searcher(start.rules, tt_mb, threads=threads)
    if start.finished:
        fewest = 0
    else:
        # the proof fills the table (the rooms search cuts where it proved the score below
        # the target) and its line bounds the rooms; one test at that bound is exact (fail-soft
        # above its alpha, which it raises as it finds shorter lines).  Co-op daily 2027-02-01:
        # 3.0 M nodes, 6 s, where the tests from below of ``_shortest`` took 9.4 M, 17 s; solo
        # easy deal 1: 1.5 M against 0.9 M (2.3 s against 1.0 s).
        out = core.search(start, searcher=searcher)
        if not out["exact"] or out["score"] != score:
            raise ValueError(f"the optimum from the position is {out['score']}, not {score}")
        bound = core.rooms_within(start, score, len(out["line"]), searcher)
        if not bound["within"]:
            raise AssertionError(f"no line of {len(out['line'])} rooms reaches {score}, yet the proof's does")
        fewest = bound["rooms"]

    def within(state: State, rooms: int) -> bool:
        answer = core.rooms_within(state, score, rooms, searcher)["within"]
        if answer is None:
            raise AssertionError("a test of the rooms search stopped without a limit")
        return answer
    return fewest, within


def _reference_rooms(start: State, score: int) -> tuple:
    """(fewest rooms from ``start``, ``within(state, rooms)``) by :func:`fewest_rooms_reference`."""
    def fewest_from(state: State):
        try:
            return len(fewest_rooms_reference(state, score))
        except ValueError:
            return None
    fewest = fewest_from(start)
    if fewest is None:
        raise ValueError(f"no line from the position reaches {score}")

    def within(state: State, rooms: int) -> bool:
        got = fewest_from(state)
        return got is not None and got <= rooms
    return fewest, within


def shortest_line(start: State, line, score: Optional[int] = None, *, max_nodes: Optional[int] = None,
                  tt_mb: int = CHECK_TT_MB) -> LineChoice:
    """An optimal line of fewest rooms from ``start``, given an optimal ``line``.

    ``line`` (rooms of actions, e.g. the core's) must reach ``score`` (taken as
    the optimum; its own score when None).  The core proves the score again and
    searches for the fewest rooms; ``proven`` is True when that search
    completed.  If it stops at its limit (``max_nodes``, default
    ``search.LINE_NODES``), the answer is ``line`` with its loops cut
    (:func:`cut_cycles`), never longer than ``line``.
    """
    from .notation import replay, resolved_line
    from .engine import LINE_NODES, load_core
    t0 = time.perf_counter()
    given = resolved_line(start, line)
    end = replay(start, given)[-1]
    if not end.finished:
        raise ValueError("shortest_line needs a complete line")
    score = end.score if score is None else score
    if end.score != score:
        raise ValueError(f"the line scores {end.score}, not the optimum {score}")
    out = load_core().search(start, tt_mb=tt_mb, shortest=True,
                             line_max_nodes=LINE_NODES if max_nodes is None else max_nodes)
    if not out["exact"] or out["score"] != score:
        raise ValueError(f"the optimum from the start is {out['score']}, not {score}")
    if out["shortest"] and replay(start, out["line"])[-1].score != score:
        raise AssertionError("the core's shortest line does not reach the optimum")
    best = displayed_line(start, out["line"] if out["shortest"] else given, out["shortest"])
    return LineChoice(best, len(best), len(given), bool(out["shortest"]), out["line_nodes"],
                      time.perf_counter() - t0)
