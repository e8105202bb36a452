"""A one-line progress counter on a terminal while a hint works.

Shown only when the stream is a terminal (``force`` for tests) and only once
the wait passes ``delay`` seconds, so quick hints, pipes and tests print
nothing extra; erased before the answer is printed.
"""
from __future__ import annotations

import sys
import time

SPIN = "|/-\\"
DELAY = 1.0     # seconds before anything is shown: shorter waits need no reassurance


class ProgressLine:
    """Callable with a :class:`solver.budget.Progress`; a context manager
    that erases the line on exit (whatever the exit)."""

    def __init__(self, stream=None, delay: float = DELAY, force: bool = False):
        self.stream = sys.stderr if stream is None else stream
        self.delay = delay
        self.t0 = time.perf_counter()
        try:
            tty = self.stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        self.enabled = force or tty
        self.shown = False
        self.ticks = 0

    def __enter__(self):
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.clear()
        return False

    def __call__(self, p) -> None:
        if not self.enabled or time.perf_counter() - self.t0 < self.delay:
            return
        self.ticks += 1
        budget = f" of {p.budget:g} s" if p.budget else ""
        text = (f"{SPIN[self.ticks % len(SPIN)]} hint: verdicts {p.verdicts}/{p.actions}, "
                f"exact scores {p.exact}/{p.actions} ({p.elapsed:.1f} s{budget})")
        self._write("\r" + text + "\033[K")
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self._write("\r\033[K")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):     # a closed or full terminal: the hint matters more
            self.enabled = False
