"""A service on loopback in a child process, for the tests and the load test.

``with LocalServer(["--workers", "1"]) as server: httpx.get(server.url + "/api/deal?seed=1")``
starts ``scoundrel-solve serve`` on 127.0.0.1 and a free port, waits until it
answers, and stops it (and its solver processes) on the way out.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalServer:
    def __init__(self, args=(), port: int = None, startup: float = 60.0, log=None):
        self.args = list(args)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.startup = startup
        self.log = log
        self.proc = None

    def __enter__(self) -> "LocalServer":
        cmd = [sys.executable, "-m", "scoundrel_solver", "serve", "--port", str(self.port), "--log-level", "warning",
               *self.args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self.log or subprocess.DEVNULL,
                                     start_new_session=True)
        deadline = time.monotonic() + self.startup
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at start (exit {self.proc.returncode}): {' '.join(cmd)}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.__exit__(None, None, None)
                raise RuntimeError(f"the server did not answer within {self.startup:g} s")
            time.sleep(0.2)

    def __exit__(self, *exc) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)          # uvicorn's own clean stop: the pools are closed
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)   # its own session: the server and its solvers
            self.proc.wait(5)

    def pids(self) -> list:
        """The server and every process under it (for the load test's memory figures)."""
        out, todo = [], [self.proc.pid]
        while todo:
            pid = todo.pop()
            out.append(pid)
            try:
                with open(f"/proc/{pid}/task/{pid}/children") as f:
                    todo += [int(c) for c in f.read().split()]
            except OSError:
                pass
        return out
