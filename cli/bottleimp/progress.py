"""Progress lines of the Bottle Imp's searches on a terminal: one home for the reporters that
``imp solve``/``hint``/``review``/``play`` hand to the library (None when the line is off, so the
search runs at once)."""
from __future__ import annotations

import time

from scoundrel_solver.progress import ProgressLine

from . import render


def search_reporter(line: ProgressLine):
    """The analysis's progress, told on the progress line (None when the line is off, so the
    engine runs its whole search at once)."""
    if not line.enabled:
        return None
    t0 = time.perf_counter()

    def report(p):
        elapsed = time.perf_counter() - t0
        if p.stage == "play":
            told = f"solving: margin {render.bound(p.lower)}..{render.bound(p.upper)}"
        elif p.stage == "hint":
            told = f"hint: {p.done}/{p.total} cards exact"
        elif p.stage == "review":
            told = f"review: {p.done}/{p.total} cards"
        elif p.stage in ("s1", "s2"):
            told = f"review of {p.stage}: {p.done}/{p.total} pairs"
        else:
            told = f"{p.stage} matrix game: {p.done}/{p.total} rows"
        line.show(f"{told}, {p.nodes:,} nodes, {elapsed:.1f} s")
    return report


def _counting(line: ProgressLine, what: str, told):
    """A ``progress(a, b)`` shown on ``line`` as ``what: told(a, b), seconds`` (None when the line is off)."""
    if not line.enabled:
        return None
    t0 = time.perf_counter()

    def report(a, b):
        line.show(f"{what}: {told(a, b)}, {time.perf_counter() - t0:.1f} s")
    return report


def worlds_reporter(line: ProgressLine, what: str = "table hint"):
    """The ``progress(solved, total)`` of a search over the worlds, shown on ``line`` as ``what``."""
    return _counting(line, what, lambda solved, total: f"{solved}/{total} worlds solved")


def deals_reporter(line: ProgressLine, what: str = "setup hint"):
    """The ``progress(deals, candidates left)`` of the setup hint's race, shown on ``line``."""
    return _counting(line, what, lambda deals, left: f"{deals} deals valued, {left} choices left in the race")
