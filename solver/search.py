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

DEFAULT_TT_MB = 256
ENGINES = ("core", "reference")


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
          timeout=None, tt_mb=DEFAULT_TT_MB, engine=None, progress=None) -> Result:
    """Optimal play from a fresh deal (``deck`` or ``seed``) or from ``state``.

    >>> r = solve(seed=42)                          # doctest: +SKIP
    >>> r.exact, r.won, r.score

    ``progress``: a callable ``(nodes, tests, lo, hi, incumbent)`` the core
    calls after each null-window test and every 0.25 s within one (or every
    ``progress.every`` seconds, if it has that attribute), with the bounds
    ``lo..hi`` proven so far (``None``: none yet); it never changes the
    search, and an exception it raises (Ctrl-C) stops it.  The reference
    engine does not report.  :class:`solver.progress.ProgressLine` shows it.
    """
    start = start_state(deck, rules, seed, state)
    engine = engine or default_engine()
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}")
    t0 = time.perf_counter()
    if engine == "core":
        out = load_core().search(start, max_nodes=max_nodes or 0, timeout=timeout or 0.0, tt_mb=tt_mb,
                                 progress=progress)
    else:
        from .reference import solve_reference
        out = solve_reference(start, max_nodes=max_nodes, timeout=timeout)
    seconds = time.perf_counter() - t0
    score = out["score"]
    full_deck = tuple(start.room) + tuple(start.dungeon) if state is None else ()
    return Result(start=start, rules=start.rules, score=score,
                  won=None if score is None else score > 0, exact=bool(out["exact"]),
                  line=out["line"], nodes=out["nodes"], seconds=seconds, engine=engine,
                  limit=out.get("limit"), tt=out.get("tt", {}), deck=full_deck,
                  seed=seed if state is None else None)
