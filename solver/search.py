"""``solve``: one entry point over the Cython core and the pure-Python reference.

Set ``SCOUNDREL_PURE=1`` to force the reference solver (as msgpack's
``MSGPACK_PUREPYTHON``).  Without it, a missing compiled core is an error,
never a silent 100x slower fallback.
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager
from typing import Optional

from .deal import deal
from .result import Result
from .rules import Rules
from .state import State

DEFAULT_TT_MB = 256
# The search for the fewest rooms (solve(shortest=True)) may take this many nodes (and
# no more than --max-nodes/--timeout leave).  Measured (benchmarks/bench_shortest.py,
# benchmarks/README.md): solo classic deals 1-200 need at most 396,595, so classic lines
# are proven the fewest; solo easy 1-100: 96 of 100 within it; co-op costs 2-4 times the
# proof's nodes, so there it often stops and the proof's line is shown, said so.
LINE_NODES = 2_000_000
ENGINES = ("core", "reference")
MAX_THREADS = 8         # threads of one solve (_state.MAXHELPERS + 1)


class CoreMissingError(RuntimeError):
    """The compiled search core is not importable."""


def default_engine() -> str:
    return "reference" if os.environ.get("SCOUNDREL_PURE", "") not in ("", "0") else "core"


def load_core():
    try:
        from . import _core
    except ImportError as exc:  # pragma: no cover - depends on the build
        raise CoreMissingError(
            "the compiled search core (scoundrel_solver._core) is missing: reinstall with "
            "`pip install -e .` so setup.py builds it, or set SCOUNDREL_PURE=1 to use the "
            f"slow pure-Python reference deliberately ({exc})") from None
    if not hasattr(_core, "search"):
        raise CoreMissingError("scoundrel_solver._core is a stale build without search(); reinstall with `pip install -e .`")
    return _core


PERTURBATION_KNOBS = ("order_salt", "tt_mb", "step")


@contextmanager
def perturbed_core(order_salt: int = 0, tt_mb: Optional[float] = None, step: Optional[int] = None):
    """Within this block every search of the core runs perturbed, and stays exact.

    ``order_salt``: the children of equal bound are searched in another
    order (one per salt); ``tt_mb``: every table that size at most (1: tiny,
    so most entries are lost); ``step``: the tests step down by this much.
    Scores, ratings and dailies must come out the same (tests/test_effort.py);
    only node counts and, where optimal lines tie, the line found may change.
    For tests: it sets a module-level dict of the core, so it is neither
    thread-safe nor seen by worker processes (use ``jobs=1``).
    """
    core = load_core()
    knobs = {k: v for k, v in (("order_salt", order_salt), ("tt_mb", tt_mb), ("step", step)) if v}
    if step is not None and step < 1:
        raise ValueError("step must be at least 1")
    saved = dict(core.PERTURBATION)
    core.PERTURBATION.clear()
    core.PERTURBATION.update(knobs)
    try:
        yield knobs
    finally:
        core.PERTURBATION.clear()
        core.PERTURBATION.update(saved)


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
          threads: int = 1, canonical: bool = False) -> Result:
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
    """
    start = start_state(deck, rules, seed, state)
    engine = engine or default_engine()
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}")
    t0 = time.perf_counter()
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
    if engine == "core":
        out = load_core().search(start, max_nodes=max_nodes or 0, timeout=timeout or 0.0, tt_mb=tt_mb,
                                 shortest=shortest, line_max_nodes=LINE_NODES, progress=progress,
                                 threads=threads, canonical=canonical)
    else:
        from .reference import solve_reference
        out = solve_reference(start, max_nodes=max_nodes, timeout=timeout)
        if shortest and out["exact"] and out["line"]:
            from .lines import fewest_rooms_reference
            out["line"] = fewest_rooms_reference(start, out["score"])
            out["shortest"] = True
    seconds = time.perf_counter() - t0
    score = out["score"]
    full_deck = tuple(start.room) + tuple(start.dungeon) if state is None else ()
    return Result(start=start, rules=start.rules, score=score,
                  won=None if score is None else score > 0, exact=bool(out["exact"]),
                  line=out["line"], nodes=out["nodes"], seconds=seconds, engine=engine,
                  limit=out.get("limit"), tt=out.get("tt", {}), deck=full_deck,
                  seed=seed if state is None else None, shortest=out.get("shortest"),
                  line_nodes=out.get("line_nodes", 0), threads=out.get("threads", 1))
