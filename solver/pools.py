"""Solver process pools that live as long as the program: one per process, kept between calls.

A time-budgeted search hands its pieces to worker processes (one per core, two by default),
and each worker keeps its own search tables from call to call (a ``play`` session asks many
hints of one deal).  Any game's budgeted search uses the same pool; what runs in it is the
game's (Scoundrel's: ``solver/scoundrel/budget.py``).
"""
from __future__ import annotations

import atexit
import concurrent.futures as cf
import multiprocessing
import os

DEFAULT_WORKERS = 2     # processes (the machines this runs on have 2 cores or more)

_POOL = None
_POOL_SIZE = 0


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def pool(workers: int):
    """The process pool, made once and kept: its workers' tables carry over
    from call to call."""
    global _POOL, _POOL_SIZE
    if _POOL is None or _POOL_SIZE != workers:
        if _POOL is not None:
            _POOL.shutdown(wait=True)
        _POOL = cf.ProcessPoolExecutor(max_workers=workers, mp_context=_context())
        _POOL_SIZE = workers
    return _POOL


def drop_pool():
    """Forget the pool without waiting (a worker may be mid-search): the next call starts afresh."""
    global _POOL, _POOL_SIZE
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
    _POOL, _POOL_SIZE = None, 0


@atexit.register
def close_pool():
    global _POOL, _POOL_SIZE
    if _POOL is not None:
        _POOL.shutdown(wait=True)     # before the interpreter tears down what the pool's thread uses
    _POOL, _POOL_SIZE = None, 0


class Inline:
    """One worker: run each task at once in this process (no pool)."""

    def submit(self, fn, *args):
        f = cf.Future()
        try:
            f.set_result(fn(*args))
        except BaseException as exc:      # handed back as a pool would
            f.set_exception(exc)
        return f


def workers_default() -> int:
    return max(1, min(DEFAULT_WORKERS, os.cpu_count() or 1))
