"""The compiled search core: loading it, its defaults, and the perturbation the effort tests use.

``solve`` (search.py), the fewest-rooms line (lines.py), hints and ratings all reach the
core through :func:`load_core`; set ``SCOUNDREL_PURE=1`` to force the pure-Python reference
instead (as msgpack's ``MSGPACK_PUREPYTHON``).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Optional

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
            "the compiled search core (scoundrel_solver.scoundrel._core) is missing: reinstall with "
            "`pip install -e .` so setup.py builds it, or set SCOUNDREL_PURE=1 to use the "
            f"slow pure-Python reference deliberately ({exc})") from None
    if not hasattr(_core, "search"):
        raise CoreMissingError("scoundrel_solver.scoundrel._core is a stale build without search(); reinstall with `pip install -e .`")
    return _core


PERTURBATION_KNOBS = ("order_salt", "tt_mb", "step")


@contextmanager
def perturbed_core(order_salt: int = 0, tt_mb: Optional[float] = None, step: Optional[int] = None):
    """Within this block every search of the core runs perturbed, and stays exact.

    ``order_salt``: the children of equal bound are searched in another
    order (one per salt); ``tt_mb``: every table that size at most (1: tiny,
    so most entries are lost); ``step``: the tests step down by this much.
    Scores, ratings and dailies must come out the same (tests/scoundrel/test_effort.py);
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
