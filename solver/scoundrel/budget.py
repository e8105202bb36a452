"""Exact hints within a time budget: proven facts first, never a guess.

An exact hint solves every legal action of a position whose dungeon order is
known.  Most positions take a fraction of a second, but early co-op rooms can
take tens of seconds, so :func:`budget_hint` spends a fixed wall-clock budget
in the order a player needs the answers:

1. each action's **verdict** (does it keep the win?): one null-window test
   ``decide(child, 1)``, usually far cheaper than the score;
2. each action's **exact score** (``search``), winning actions first;
3. **refinement**: a search stopped by the budget is asked again while time
   is left (its table keeps what it proved, so it resumes rather than starts
   over).

Every figure it reports is proven: an action not finished in time carries
the bounds its tests proved (``lo <= optimum <= hi``; ``lo`` from a line
found, ``hi`` from a failed test or, before any test ends, from the counting
bound of :func:`static_bounds`).  What is proven does not depend on timing;
how much gets proven within the budget does.

The actions are handed out to a pool of worker processes (one per core, two
by default), each with its own search table kept from hint to hint.
"""
from __future__ import annotations

import concurrent.futures as cf
import time
from dataclasses import dataclass
from typing import Callable, Optional

from ..pools import DEFAULT_WORKERS, Inline, drop_pool, pool
from .cards import POTION, WEAPON
from .rules import MAX_HEALTH
from .search import DEFAULT_TT_MB, load_core
from .state import State

DEFAULT_TIME = 2.0      # seconds: what a player waits for; 0 = until every figure is exact
MIN_SLICE = 0.05        # seconds: a shorter search proves too little to be worth handing out
TICK = 0.1              # seconds between looks at the workers (and the progress line)


def static_bounds(state: State) -> tuple:
    """Bounds on the optimal score of ``state`` that need no search.

    Above: health only grows by potions, up to 20 a hero; a solo win at 20
    whose last card is a potion adds that potion.  Below: a loss loses at most
    every card value left, plus (solo) the health at death, at worst 1 - 15.
    """
    if state.finished:
        return state.score, state.score
    cards = state.room + state.dungeon
    potions = [c.value for c in cards if c.kind == POTION]
    harm = sum(c.value for c in cards if c.kind not in (POTION, WEAPON))
    if state.rules.coop:
        hi = min(MAX_HEALTH * len(state.heroes), sum(h.health for h in state.heroes) + sum(potions))
        return -harm, hi
    health = state.heroes[0].health
    hi = min(MAX_HEALTH, health + sum(potions))
    if hi == MAX_HEALTH and potions:
        hi += max(potions)
    return -harm - 15, hi


# ------------------------------------------------------------------ worker side

def _merge(lo, hi, new_lo, new_hi):
    if new_lo is not None and (lo is None or new_lo > lo):
        lo = new_lo
    if new_hi is not None and (hi is None or new_hi < hi):
        hi = new_hi
    return lo, hi


def _decide_bounds(out: dict, target: int) -> tuple:
    """(lo, hi) proven by one ``decide(state, target)``."""
    lo = out.get("score")           # a line found scores this: a lower bound
    if out["reached"] is True:
        lo = max(x for x in (lo, out["bound"], target) if x is not None)
        return lo, None
    if out["reached"] is False:
        return lo, out["bound"]     # the failed test's value is an upper bound
    return lo, None


def _search_bounds(out: dict, test_log: list) -> tuple:
    """(lo, hi) proven by one ``search``: its value if exact; else the tests
    that ended (a test above its alpha proves a lower bound, one at or below
    it an upper bound; the last test was the one stopped) and the best line."""
    if out["exact"]:
        return out["score"], out["score"]
    lo, hi = out["score"], None
    for alpha, v, _ in test_log[:-1]:
        if v > alpha:
            lo, hi = _merge(lo, hi, v, None)
        else:
            lo, hi = _merge(lo, hi, None, v)
    return lo, hi


def run_task(kind: str, state: State, timeout: float, tt_mb: int) -> tuple:
    """One piece of work, in whatever process runs it: ``(lo, hi, nodes)``.

    ``kind`` is ``"verdict"`` (does the optimum reach a win, score >= 1?) or
    ``"score"`` (the exact value).  ``timeout`` 0 means no limit.
    """
    from .valuer import _searcher     # the per-process table, shared with exact_hint
    core = load_core()
    s = _searcher(core, state.rules, tt_mb)
    if kind == "verdict":
        out = core.decide(state, 1, timeout=timeout, searcher=s)
        lo, hi = _decide_bounds(out, 1)
    else:
        out = core.search(state, timeout=timeout, searcher=s, want_line=False)
        lo, hi = _search_bounds(out, list(s.test_log))
    return lo, hi, out["nodes"]


# ------------------------------------------------------------------ scheduler

@dataclass
class Figure:
    """What is proven about one action: ``lo <= optimum <= hi``."""

    lo: int
    hi: int
    from_cache: bool = False

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    @property
    def verdict(self) -> Optional[bool]:
        return True if self.lo > 0 else False if self.hi <= 0 else None


@dataclass
class Progress:
    """What the scheduler reports while it waits."""

    actions: int
    verdicts: int           # actions whose verdict is proven
    exact: int              # actions whose score is proven
    elapsed: float
    budget: float


def solve_actions(children: list, seconds: float, *, tt_mb: int = DEFAULT_TT_MB, workers: int = DEFAULT_WORKERS,
                  cache=None, progress: Optional[Callable[[Progress], None]] = None) -> tuple:
    """Proven bounds of every position in ``children`` within ``seconds``.

    Returns ``(figures, nodes, tasks)``.  Verdicts come first, then exact
    scores (proven wins first); an unfinished task is handed out again while
    time is left.  Each task gets a fair share of the time left, so one hard
    action cannot starve the others.  Every task running at the deadline has
    its own timeout at the deadline, so the answer comes back on time.
    """
    t0 = time.perf_counter()
    deadline = t0 + seconds
    figures = []
    for child in children:
        cached = None if child.finished or cache is None else cache.get(child)
        if cached is not None:
            figures.append(Figure(cached, cached, from_cache=True))
        else:
            figures.append(Figure(*static_bounds(child)))
    n = len(children)
    verdict_q = [i for i in range(n) if figures[i].verdict is None]
    score_q = []
    running = {}            # future -> (kind, index)
    nodes = tasks = 0
    executor = Inline() if workers <= 1 else pool(workers)

    def queue_scores():
        # exact scores: proven wins first, the highest lower bound first (the
        # recommended action is settled soonest), ties in the order of actions
        todo = [i for i in range(n) if not figures[i].exact and i not in score_q
                and all(j != i for _, j in running.values())]
        rank = {True: 0, None: 1, False: 2}
        score_q.extend(sorted(todo, key=lambda i: (rank[figures[i].verdict], -figures[i].lo, i)))

    def report():
        if progress is not None:
            progress(Progress(n, sum(f.verdict is not None for f in figures), sum(f.exact for f in figures),
                              time.perf_counter() - t0, seconds))

    try:
        while True:
            now = time.perf_counter()
            left = deadline - now
            while len(running) < max(1, workers) and left > MIN_SLICE / 2:
                busy = {j for _, j in running.values()}
                if verdict_q:
                    kind, queue = "verdict", verdict_q
                else:
                    if not score_q:
                        queue_scores()
                    kind, queue = "score", score_q
                queue[:] = [i for i in queue if i not in busy and not figures[i].exact
                            and (kind == "score" or figures[i].verdict is None)]
                if not queue:
                    break
                i = queue.pop(0)
                waiting = len(queue) + 1 + len(running)
                share = left * max(1, workers) / max(waiting, max(1, workers))
                timeout = min(left, max(MIN_SLICE, share))
                fut = executor.submit(run_task, kind, children[i], timeout, tt_mb)
                running[fut] = (kind, i)
                tasks += 1
            if not running:
                break
            done, _ = cf.wait(list(running), timeout=TICK, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                kind, i = running.pop(fut)
                lo, hi, used = fut.result()
                nodes += used
                f = figures[i]
                f.lo, f.hi = _merge(f.lo, f.hi, lo, hi)
                if f.exact and cache is not None:
                    cache.put(children[i], f.lo)
                if time.perf_counter() < deadline:
                    if kind == "verdict" and f.verdict is None:
                        verdict_q.append(i)
                    elif kind == "score" and not f.exact:
                        score_q.append(i)
            report()
    except BaseException:
        if workers > 1:
            drop_pool()    # a worker may be mid-search: start afresh next time
        raise
    return figures, nodes, tasks
