"""What a solver process of the service runs: one job in, one JSON answer out.

A job is ``(function, arguments)``: a function of a game's jobs module (for
Scoundrel solver/web/scoundrel_jobs.py), which calls the library and returns
``(http_status, object)``, the object being the one the CLI prints with
``--json``.  Nothing raised here reaches a client: an unexpected exception is
logged on the server's stderr and answered as an internal error with no
traceback.
"""
from __future__ import annotations

import functools
import os
import resource
import signal
import sys
import traceback

from ..errors import InputError, OptionError
from ..values import option_value
from .api import error


def check_options(params: dict, checks: dict, only=None) -> dict:
    """``params`` with each value the CLI types checked and typed, in the order given (the CLI's:
    the first bad one is the one named); ``checks``: option name -> (check, its arguments), a
    game's copy of its CLI's option types; ``only``: check just these names."""
    out = dict(params)
    for key, value in params.items():
        if key in checks and value is not None and (only is None or key in only):
            check, *args = checks[key]
            out[key] = option_value("--" + key.replace("_", "-"), check, value, *args)
    return out


def answers_as(command: str, memory_hint: str, more=lambda: ()):
    """A job that answers as ``COMMAND --json`` would (``command``: the program and its command):
    its object (200), or its error line - 400 for bad input (a usage error with its pointer to the
    command's help, as the CLI prints it), 503 out of memory (with ``memory_hint``), and the
    ``(exception class, status)`` pairs ``more()`` gives (imported only when a job runs)."""
    def wrap(job):
        @functools.wraps(job)
        def run(params: dict) -> tuple:
            failures = more()
            try:
                return 200, job(params)
            except OptionError as exc:
                return 400, error(f"{exc} (see '{command} --help')", 400)
            except InputError as exc:
                return 400, error(str(exc), 400)
            except MemoryError as exc:
                return 503, error(f"out of memory ({exc or memory_hint})", 503)
            except tuple(cls for cls, _ in failures) as exc:
                status = next(code for cls, code in failures if isinstance(exc, cls))
                return status, error(str(exc), status)
        return run
    return wrap


def init_worker(memory_mb: int, nice: int = 0, warm_up=()) -> None:
    """Set up a fresh solver process: an address-space cap, so a search that
    asks too much gets a MemoryError (answered as an error) instead of the
    machine running out; Ctrl-C left to the server, which stops us; then the
    ``warm_up`` jobs, so the first request does not wait for imports and helpers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        os.nice(nice)
    os.setpgrp()       # a group of our own, so a process past its deadline is killed with its helpers
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for job in warm_up:
        run_job(job)


def run_job(job: tuple) -> tuple:
    """Run one job, never raising: ``(http_status, object)``."""
    try:
        function, args = job
        return function(*args)
    except MemoryError:
        return 503, error("out of memory: ask with a smaller tt_mb", 503)
    except Exception as exc:  # noqa: BLE001 - the last guard: log it, tell the client only that it happened
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        return 500, error("internal error (logged on the server)", 500)


def serve_forever(conn, memory_mb: int, nice: int = 0, warm_up=()) -> None:
    """Main loop of a solver process: jobs from ``conn`` until it closes."""
    init_worker(memory_mb, nice, warm_up)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            os._exit(0)        # the server went away
        conn.send(run_job(job))
