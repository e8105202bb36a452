"""A one-line progress report on a terminal while a long search works.

One line on stderr, rewritten in place (``\\r``): for an exact hint within a
budget (``__call__`` with a :class:`solver.scoundrel.budget.Progress`) and for the
searches of ``solve``, ``rate``, ``daily``, the unbounded hint and ``play``'s
last solve (:meth:`ProgressLine.search`: the core's callback, with the bounds
proven so far, the tests, the nodes and the speed).

Shown only when the stream is a terminal (or when asked: ``enabled=True``),
only once the wait passes ``delay`` seconds, and rewritten at most every
``every`` seconds, so quick searches, pipes, ``--json`` consumers and CI logs
get nothing extra; erased before the answer is printed (the context manager
erases it whatever the exit).  For tests, ``SCOUNDREL_PROGRESS_DELAY`` and
``SCOUNDREL_PROGRESS_EVERY`` (seconds) change the defaults.
"""
from __future__ import annotations

import os
import sys
import time

SPIN = "|/-\\"
DELAY = 1.0     # seconds before anything is shown: shorter waits need no reassurance
EVERY = 0.25    # seconds between rewrites (and between the core's reports within a test)
MINUS = "\u2212"


def _seconds_from_env(name: str, default: float) -> float:
    text = os.environ.get(name, "")
    try:
        value = float(text)
    except ValueError:
        return default
    return value if 0 <= value < float("inf") else default


def _score(v) -> str:
    return "?" if v is None else (MINUS + str(-v) if v < 0 else str(v))


def _rate(per_second: float) -> str:
    """``850 k`` / ``1.4 M`` nodes/s: the figure of interest is its size."""
    if per_second >= 1e6:
        return f"{per_second / 1e6:.1f} M"
    if per_second >= 1e3:
        return f"{per_second / 1e3:.0f} k"
    return f"{per_second:.0f}"


class ProgressLine:
    """Callable with a :class:`solver.scoundrel.budget.Progress`; :meth:`search` makes the
    callback of one search; a context manager that erases the line on exit."""

    def __init__(self, stream=None, delay: float = None, force: bool = False, enabled=None,
                 every: float = None):
        self.stream = sys.stderr if stream is None else stream
        self.delay = _seconds_from_env("SCOUNDREL_PROGRESS_DELAY", DELAY) if delay is None else delay
        self.every = _seconds_from_env("SCOUNDREL_PROGRESS_EVERY", EVERY) if every is None else every
        self.t0 = time.perf_counter()
        if enabled is None:
            try:
                enabled = force or self.stream.isatty()
            except (AttributeError, ValueError):
                enabled = False
        self.enabled = bool(enabled)
        self.shown = False
        self.ticks = 0
        self.last = None          # when the line was last written
        self.nodes_before = 0     # the nodes of the searches reported before the current one
        self._current = None

    def __enter__(self):
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.clear()
        return False

    def __call__(self, p) -> None:
        budget = f" of {p.budget:g} s" if p.budget else ""
        self.show(f"hint: verdicts {p.verdicts}/{p.actions}, "
                  f"exact scores {p.exact}/{p.actions} ({p.elapsed:.1f} s{budget})")

    def search(self, what: str = "solving", bounds: bool = True) -> "SearchReport":
        """The progress callback of the next search (``solve(progress=...)``),
        told as ``what``; the nodes add up over the searches of one line."""
        if self._current is not None:
            self.nodes_before += self._current.nodes
        self._current = SearchReport(self, what, bounds)
        return self._current

    def show(self, text: str) -> None:
        """Write ``text`` as the line, unless it is too early or too soon."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.t0 < self.delay or (self.last is not None and now - self.last < self.every):
            return
        self.last = now
        self.ticks += 1
        self._write(f"\r{SPIN[self.ticks % len(SPIN)]} {text}\033[K")
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self._write("\r\033[K")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):     # a closed or full terminal: the answer matters more
            self.enabled = False


class SearchReport:
    """The core's progress callback for one search: ``(nodes, tests, lo, hi,
    incumbent)`` becomes ``what: score lo..hi, test n, N nodes, R nodes/s, T s``
    (``?``: no bound proven yet).  ``every`` tells the core how often to call."""

    def __init__(self, line: ProgressLine, what: str, bounds: bool = True):
        self.line, self.what, self.bounds = line, what, bounds
        self.every = line.every
        self.nodes = 0

    def __call__(self, nodes, tests, lo, hi, incumbent) -> None:
        self.nodes = nodes
        line = self.line
        if not line.enabled:
            return
        elapsed = time.perf_counter() - line.t0
        total = line.nodes_before + nodes
        parts = []
        if self.bounds:
            parts.append(f"score {_score(lo)}..{_score(hi)}")
            parts.append(f"{tests:,} test{'s' if tests != 1 else ''} done")
        parts.append(f"{total:,} nodes")
        if elapsed > 0:
            parts.append(f"{_rate(total / elapsed)} nodes/s")
        parts.append(f"{elapsed:.1f} s")
        line.show(f"{self.what}: " + ", ".join(parts))
