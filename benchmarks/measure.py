"""What the benchmarks record beside their figures, in one place: the build that made them, the
peak memory, and the order in which side-by-side runs take turns.

    from measure import build_id, in_turns, peak_rss_mb, reset_peak_rss
    build_id("scoundrel_solver.scoundrel._core")      # "1a2b3c4 core 5d6e7f8a9b0c"
    for chunk, order in in_turns(seeds, 5, ["old", "new"]): ...
"""
from __future__ import annotations

import hashlib
import importlib
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_id(*cores: str) -> str:
    """The commit of the checkout (``+dirty`` if solver/ has uncommitted changes) and a hash of
    the compiled core modules ``cores`` as loaded (solver/ may be rebuilt between runs), so that
    figures can be matched to the core that made them."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "solver"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        head, dirty = "", ""
    build = (head or "unknown") + ("+dirty" if dirty else "")
    digest = hashlib.sha256()
    try:
        for name in cores:
            digest.update(Path(importlib.import_module(name).__file__).read_bytes())
    except (ImportError, OSError):
        return build + " core missing"
    return build + " core " + digest.hexdigest()[:12]


def in_turns(items: list, chunk: int, contenders: list):
    """``(chunk of items, contenders in the order they run it)`` for each chunk of ``chunk``
    items: every contender runs every chunk, first in the given order, then reversed, and so on
    alternately, so that a change in the machine's load falls on all contenders alike."""
    for k in range(0, len(items), chunk):
        yield items[k:k + chunk], (list(contenders) if (k // chunk) % 2 == 0 else list(contenders)[::-1])


def peak_rss_mb() -> float:
    """The process's peak resident memory so far, in MB (``ru_maxrss``: KiB on Linux, bytes on macOS)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(rss / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def reset_peak_rss() -> bool:
    """Reset the process's peak RSS (Linux: ``/proc/self/clear_refs`` value 5), so that
    ``ru_maxrss`` after a solve is the peak *of that solve* (plus the interpreter).
    Returns False where this is not possible; ``ru_maxrss`` is then the process peak so far."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False
