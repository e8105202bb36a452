"""``solve``: one entry point over the Cython core and the pure-Python reference.

Set ``SCOUNDREL_PURE=1`` to force the reference solver (as msgpack's
``MSGPACK_PUREPYTHON``).  Without it, a missing compiled core is an error,
never a silent 100x slower fallback.
"""
from __future__ import annotations

import os
import time

from .deal import deal
from .result import Result
from .rules import Rules
from .state import State

# The core's loader, its defaults and its test perturbation live in engine.py (lines.py needs
# them too, and search.py calls lines.py): re-exported here, where callers have found them.
from .engine import (DEFAULT_TT_MB, ENGINES, LINE_BUDGET_POLICIES, LINE_NODES, MAX_THREADS,  # noqa: F401,E402
                     PERTURBATION_KNOBS, CoreMissingError, default_engine, line_budget as budget_rule,
                     load_core, perturbed_core)


def default_threads() -> int:
    """The default thread count of a search: the cores this process may run on (at most
    ``MAX_THREADS``).  ``solve`` and ``rate`` run one search on that many threads
    sharing one table (lazy SMP, docs/solver.md, "Threads for one solve"; a search
    goes on the threads from its first test in co-op, and in solo only past its first
    50,000 nodes, so small solo solves stay on one); ``hint`` solves that many actions
    at once.  The score, the line and every rating are the same whatever the count
    (tests/scoundrel/test_threads.py); the speed-up (co-op 52 proofs 1-100 on a quiet 2-core
    machine: 1.49 in total, 2026-12-02) is in benchmarks/README.md, "Both cores
    for one solve"."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, cores))


def start_state(deck=None, rules: Rules = None, seed=None, state: State = None) -> State:
    if state is not None:
        return state
    rules = rules or Rules()
    if deck is None:
        if seed is None:
            raise ValueError("give a deck, a seed or a state")
        deck = deal(seed, rules)
    return State.new(tuple(deck), rules)


def solve(deck=None, rules: Rules = None, *, seed=None, state: State = None, max_nodes=None,
          timeout=None, tt_mb=DEFAULT_TT_MB, engine=None, shortest: bool = False, progress=None,
          threads: int = 1, canonical: bool = False, line_budget: str = "cap") -> Result:
    """Optimal play from a fresh deal (``deck`` or ``seed``) or from ``state``.

    ``shortest``: once the score is proven, the line returned is one of the
    fewest rooms among all optimal lines (an avoided room counts as a room),
    picked by a fixed rule; ``Result.shortest`` says whether that was proven
    (False: the search for it stopped at its limit, ``LINE_NODES`` or what is
    left of ``max_nodes``/``timeout``, and the line is the proof's own).

    >>> r = solve(seed=42)                          # doctest: +SKIP
    >>> r.exact, r.won, r.score

    ``progress``: a callable ``(nodes, tests, lo, hi, incumbent)`` the core
    calls after each null-window test and every 0.25 s within one (or every
    ``progress.every`` seconds, if it has that attribute), with the bounds
    ``lo..hi`` proven so far (``None``: none yet); it never changes the
    search, and an exception it raises (Ctrl-C) stops it.  The reference
    engine does not report.  :class:`solver.progress.ProgressLine` shows it.

    ``threads``: the proof's null-window tests run on that many threads sharing
    one transposition table (lazy SMP, ``_search.smp_test``; docs/solver.md,
    "Threads for one solve"): co-op from the first test, solo once the solve has spent
    ``smp_from`` nodes (50,000: smaller solves, nearly all solo deals, are the
    one-thread search).  The score
    is the same as with one thread; the line of fewest rooms is the same too (it is
    walked by a fixed rule); where it is not asked for or not proven, the line is
    walked by another fixed rule with exact tests, so it is the same on every run.
    Node counts vary with the timing.  ``max_nodes`` is the total over the threads
    (checked every 1,024 nodes of each thread, so it may be passed by that much).

    ``canonical`` (the core): that fixed-rule line on one thread too, rather than the
    proof's own, so that the line does not depend on ``threads`` at all.

    ``line_budget`` (with ``shortest``): ``"cap"``, the search for the fewest rooms may
    take ``LINE_NODES``; ``"proof"`` (the CLI's solve, issue 48), a budget tied to the
    proof's own effort (``engine.line_budget``: a quarter of the proof's nodes, at least
    ``LINE_FLOOR``; in co-op it is skipped, where it costs 2-4 times the proof), and where
    the fewest rooms are not proven the line is the fixed-rule walk's (``canonical``), so
    the line shown depends on the budget only where ``Result.shortest`` is False.
    ``Result.line_search`` says what was done: ``"proven"``, ``"stopped"`` (at its budget,
    ``Result.line_budget`` nodes, or at ``max_nodes``/``timeout``), ``"skipped"``.
    """
    start = start_state(deck, rules, seed, state)
    engine = engine or default_engine()
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}")
    t0 = time.perf_counter()
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
    if line_budget not in LINE_BUDGET_POLICIES:
        raise ValueError(f"line_budget must be one of {', '.join(LINE_BUDGET_POLICIES)}, not {line_budget!r}")
    by_proof = shortest and line_budget == "proof"
    if engine == "core":
        rule = (lambda proof_nodes: budget_rule(start.rules, proof_nodes)) if by_proof else None
        out = load_core().search(start, max_nodes=max_nodes or 0, timeout=timeout or 0.0, tt_mb=tt_mb,
                                 shortest=shortest, line_max_nodes=LINE_NODES, progress=progress,
                                 threads=threads, canonical=canonical or by_proof, line_budget=rule)
    else:
        from .reference import solve_reference
        out = solve_reference(start, max_nodes=max_nodes, timeout=timeout)
        if shortest and out["exact"] and out["line"]:
            if by_proof and budget_rule(start.rules, out["nodes"]) == 0:
                out.update(shortest=False, line_search="skipped", line_budget=0)
            else:
                from .lines import fewest_rooms_reference
                out["line"] = fewest_rooms_reference(start, out["score"])
                out.update(shortest=True, line_search="proven")
    seconds = time.perf_counter() - t0
    score = out["score"]
    full_deck = tuple(start.room) + tuple(start.dungeon) if state is None else ()
    return Result(start=start, rules=start.rules, score=score,
                  won=None if score is None else score > 0, exact=bool(out["exact"]),
                  line=out["line"], nodes=out["nodes"], seconds=seconds, engine=engine,
                  limit=out.get("limit"), tt=out.get("tt", {}), deck=full_deck,
                  seed=seed if state is None else None, shortest=out.get("shortest"),
                  line_nodes=out.get("line_nodes", 0), threads=out.get("threads", 1),
                  line_search=out.get("line_search"), line_budget=out.get("line_budget"))
