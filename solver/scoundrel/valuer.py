"""Exact values of positions, for every hint: the searchers kept per process and the solve cache.

Solved positions are kept in a process-wide LRU cache (lru-dict), so a game that asks many
hints of one deal (``scoundrel-solve play``) solves each position once; one core searcher per
rule set, table size and thread count is kept too, so its table carries over from hint to hint.
The budgeted hint's workers (budget.py), the belief search's leaves (beliefsearch.py) and the
exact hint (exacthint.py) all value positions here.
"""
from __future__ import annotations

from typing import Optional

from lru import LRU

from .engine import DEFAULT_TT_MB, default_engine, load_core
from .rules import Rules
from .state import State


def position_key(state: State) -> tuple:
    """What the future of ``state`` depends on (not how it was reached)."""
    return (state.rules, state.dungeon, state.room, state.heroes, state.leader, state.taken,
            state.potion_used, state.help_used, state.avoided_last, state.dead,
            state.last_card if state.finished else None)


class SolveCache:
    """An LRU of proven position values, shared by every hint in the process."""

    def __init__(self, size: int = 200_000):
        self._lru = LRU(size)
        self.hits = 0
        self.misses = 0

    def get(self, state: State):
        value = self._lru.get(position_key(state))
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, state: State, score: int) -> None:
        self._lru[position_key(state)] = score

    def __len__(self) -> int:
        return len(self._lru)

    def clear(self) -> None:
        self._lru.clear()
        self.hits = self.misses = 0


CACHE = SolveCache()


_SEARCHERS = LRU(4)


def _searcher(core, rules: Rules, tt_mb: int, threads: int = 1):
    """One core searcher per rule set, table size and thread count, kept for the
    process: its table carries over from hint to hint (positions of one deal, or
    the same sampled orders asked again part-way through a room)."""
    key = (rules, tt_mb, threads)
    s = _SEARCHERS.get(key)
    if s is None:
        s = core.new_searcher(rules, tt_mb, threads=threads)
        _SEARCHERS[key] = s
    return s


class _Valuer:
    """Exact values of positions of one rule set, through one reused table.

    Only proven values are cached; a search stopped by a limit is reported as
    such (``exact`` False) and never stored.
    """

    def __init__(self, rules: Rules, tt_mb: int = DEFAULT_TT_MB, max_nodes=None, timeout=None,
                 cache: Optional[SolveCache] = None, engine: Optional[str] = None, threads: int = 1):
        self.rules = rules
        self.engine = engine or default_engine()
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.cache = CACHE if cache is None else cache
        self.nodes = 0
        self.solves = 0
        self.exact = True
        self.stopped = 0        # searches a limit stopped
        self._searcher = None
        if self.engine == "core":
            self._core = load_core()
            self._searcher = _searcher(self._core, rules, tt_mb, threads)

    def value(self, state: State, progress=None) -> Optional[int]:
        if state.finished:
            return state.score
        cached = self.cache.get(state)
        if cached is not None:
            return cached
        self.solves += 1
        if self.engine == "core":
            out = self._core.search(state, max_nodes=self.max_nodes or 0, timeout=self.timeout or 0.0,
                                    searcher=self._searcher, want_line=False, progress=progress)
        else:
            from .reference import solve_reference
            out = solve_reference(state, max_nodes=self.max_nodes, timeout=self.timeout)
        self.nodes += out["nodes"]
        if not out["exact"]:
            self.exact = False
            self.stopped += 1
            return out["score"]
        self.cache.put(state, out["score"])
        return out["score"]
