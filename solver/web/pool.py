"""A bounded pool of solver processes, driven from the server's event loop.

Why not ``concurrent.futures.ProcessPoolExecutor``: a job past its deadline
must be stopped, and the executor cannot kill one task.  Here each process
has its own pipe; a job that outlives its hard deadline has its process
killed and replaced, and the request answers with an error, never a hang.
The queue is bounded too: past ``queue`` waiting jobs a request is refused at
once (HTTP 503, "busy") rather than piling up memory and latency.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time

from .worker import serve_forever


class Busy(Exception):
    """The pool's queue is full."""


class Overtime(Exception):
    """A job outlived its hard deadline; its process was killed."""


class _Process:
    def __init__(self, ctx, memory_mb: int, nice: int, warm_up: tuple):
        self.conn, child = ctx.Pipe()
        # not a daemon: an exact hint within --time runs its own pool of processes (solver/scoundrel/budget.py)
        self.proc = ctx.Process(target=serve_forever, args=(child, memory_mb, nice, warm_up), daemon=False)
        self.proc.start()
        child.close()

    def kill(self) -> None:
        """Kill the process and whatever it started (its own process group)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class SolverPool:
    """``size`` solver processes of one kind of job, at most ``queue`` waiting.

    ``nice`` lowers their CPU priority (and their helpers'): the co-op pool runs
    at a lower one, so on a busy machine the CPU goes to the quick solo hints
    first and a long co-op search takes what is left.  ``warm_up``: jobs each
    process runs when it starts (imports, helper processes), before any request."""

    def __init__(self, name: str, size: int, queue: int, memory_mb: int, nice: int = 0, warm_up: tuple = ()):
        self.name, self.size, self.queue, self.memory_mb, self.nice = name, size, queue, memory_mb, nice
        self.warm_up = tuple(warm_up)
        self._ctx = multiprocessing.get_context("spawn")   # no fork of a running event loop
        self._idle = None
        self._all = []
        self.waiting = 0
        self.running = 0
        self.killed = 0

    def start(self) -> None:
        self._idle = asyncio.Queue()
        for _ in range(self.size):
            self._add()

    def _add(self) -> None:
        p = _Process(self._ctx, self.memory_mb, self.nice, self.warm_up)
        self._all.append(p)
        self._idle.put_nowait(p)

    def pids(self) -> list:
        return [p.proc.pid for p in self._all]

    async def run(self, job: tuple, deadline: float, wait: float = 60.0) -> tuple:
        """``(http_status, object)`` of ``job``; :class:`Busy` when the queue is
        full or no solver came free within ``wait`` seconds, :class:`Overtime`
        when it ran past ``deadline`` seconds (the time in the queue not counted)."""
        if self.waiting >= self.queue:
            raise Busy(self.name)
        self.waiting += 1
        try:
            proc = await asyncio.wait_for(self._idle.get(), wait)
        except asyncio.TimeoutError:
            raise Busy(self.name) from None
        finally:
            self.waiting -= 1
        t0 = time.monotonic()
        self.running += 1
        ok = False
        try:
            proc.conn.send(job)
            await self._readable(proc.conn, max(0.1, deadline - (time.monotonic() - t0)))
            answer = proc.conn.recv()
            ok = True
            return answer
        except asyncio.TimeoutError:
            raise Overtime(f"the {self.name} job ran past {deadline:g} s and was stopped") from None
        except (EOFError, OSError):   # the process died (killed by the kernel, ...)
            raise Overtime(f"the {self.name} solver process died") from None
        finally:
            self.running -= 1
            if ok:
                self._idle.put_nowait(proc)
            else:                      # past its deadline, cancelled or dead: replace it
                self.killed += 1
                self._all.remove(proc)
                proc.kill()
                self._add()

    @staticmethod
    async def _readable(conn, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = conn.fileno()
        loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
        try:
            await asyncio.wait_for(ready, timeout)
        finally:
            loop.remove_reader(fd)

    def close(self) -> None:
        for p in self._all:
            p.kill()
        self._all = []
