"""One solve on several cores, with an answer that does not depend on timing.

The core proves a value with null-window tests from the top ("is there a line
scoring > alpha?", docs/solver.md).  Here two worker processes, each with its
own searcher and a table of half the budget, kept for the whole solve, answer
those tests in ROUNDS: each round gives each worker one test, at an alpha
chosen from the proven bounds only; the parent waits for both (a barrier),
combines what they proved and picks the next round's alphas.

Why rounds and not a shared table: a worker's sequence of tests then depends
only on the results of earlier rounds, never on which worker was faster, so
each worker's table, node counts and lines are the same on every run, and so
is the answer (score, line, nodes).  The price is the barrier: a round lasts
as long as its slower test.

Which tests: worker 0 asks the driver's next question (the same rule as
``_search.run``); worker 1 asks the one the driver would ask after it if it
failed (one step further down), or, while worker 0 checks whether the line
found can be beaten (the test that usually ends the search), whether the value
is at least one more.  The line printed is the best line found, the earliest
(round, worker) among equals; ``shortest=True`` then runs the fewest-rooms
search (already independent of the table's contents) in worker 0.

A solve that stops within ``SMALL_NODES`` nodes is done in this process by
the ordinary one-core search (forking costs more than it saves); the choice
depends on a node count only, so it is deterministic too.  A lost deal whose
best loss is below the bound is finished by worker 0 with the one-core driver
(its full-window search for the best loss has no null-window form).
"""
from __future__ import annotations

import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import signal
import sys
import time

SMALL_NODES = 50_000    # first try one core up to this many nodes (solo deals: nearly all)
NEG = -30000
_DEBUG = bool(os.environ.get("SCOUNDREL_PARALLEL_DEBUG"))


def _position(state):
    from . import _core
    return ([c.index for c in state.room], [c.index for c in state.dungeon], state.taken,
            _core._heroes_of(state), state.leader, _core._potion_mask(state),
            1 if state.help_used else 0, 1 if state.can_avoid() else 0)


# ------------------------------------------------------------------ workers

def _worker(conn, parent_pid, state, tt_mb, progress_every):
    """Answer the parent's commands on ``conn`` until told to stop."""
    from .batch import _end_with_parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle
    _end_with_parent(parent_pid, True)
    from . import _core
    s = _core.new_searcher(state.rules, tt_mb)
    pos = _position(state)
    if progress_every is not None:
        s.progress = lambda nodes, tests, lo, hi, inc: conn.send(("progress", nodes))
        s.progress_every = progress_every
    while True:
        cmd = conn.recv()
        kind = cmd[0]
        if kind == "quit":
            return
        s.nodes = 0
        try:
            if kind == "test":
                _, alpha, max_nodes, timeout = cmd
                out = s.run(*pos, max_nodes, timeout, 1, alpha)
            elif kind == "finish":
                _, max_nodes, timeout = cmd
                out = s.run(*pos, max_nodes, timeout)
            elif kind == "shortest":
                _, target, known_rooms, max_nodes, timeout = cmd
                out = s.shortest(*pos, target, known_rooms, max_nodes, timeout)
            else:
                raise ValueError(f"unknown command {kind!r}")
        except BaseException as exc:   # reported, not lost: the parent raises it
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            continue
        out = dict(out)
        out["nodes"] = s.nodes
        out["tt"] = {"entries": s.tt_used, "capacity": s.tt_capacity, "max_capacity": s.tt_max_capacity,
                     "bytes": s.tt_bytes, "hits": s.tt_hits, "tests": s.tests, "stores": s.tt_stores,
                     "replaced": s.tt_replaced}
        conn.send(("done", out))


class WorkerError(RuntimeError):
    """A worker process failed or died."""


class _Pool:
    """``n`` forked workers on one position; each ends with the parent."""

    def __init__(self, n, state, tt_mb, progress):
        ctx = mp.get_context("fork")
        self.conns, self.procs = [], []
        self.progress = progress
        self.nodes_now = [0] * n      # nodes of each worker's current command (progress only)
        every = None
        if progress is not None:
            every = getattr(progress, "every", 0.25)
        for _ in range(n):
            parent, child = ctx.Pipe()
            p = ctx.Process(target=_worker, args=(child, os.getpid(), state, tt_mb, every), daemon=True)
            p.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(p)

    def run(self, commands, on_progress=None):
        """Send ``commands[i]`` (or nothing, None) to worker i; wait for all (the barrier)."""
        pending = {}
        for i, cmd in enumerate(commands):
            if cmd is not None:
                self.nodes_now[i] = 0
                self.conns[i].send(cmd)
                pending[self.conns[i]] = i
        results = [None] * len(commands)
        while pending:
            for conn in mpc.wait(list(pending)):
                i = pending[conn]
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    raise WorkerError(f"solver worker {i} died (exit status {self.procs[i].exitcode})") from None
                if kind == "progress":
                    self.nodes_now[i] = payload
                    if on_progress is not None:
                        on_progress()
                    continue
                if kind == "error":
                    raise WorkerError(f"solver worker {i}: {payload}")
                results[i] = payload
                del pending[conn]
        return results

    def close(self, kill=False):
        for conn, p in zip(self.conns, self.procs):
            if not kill:
                try:
                    conn.send(("quit",))
                except OSError:
                    pass
            else:
                p.kill()
        for conn, p in zip(self.conns, self.procs):
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()
            conn.close()


# ------------------------------------------------------------------ the driver

def _next_alpha(lo, hi, first, high, step, zero_at):
    """The one-core driver's next test (``_search.run``) while a win is possible."""
    if first:
        alpha = hi - 1
    elif high:
        alpha = lo if hi - lo <= step else hi - step
    else:
        alpha = hi - step
        if alpha <= zero_at and lo <= 0:
            alpha = 0
    return max(alpha, lo, 0)


def search_parallel(state, threads=2, max_nodes=0, timeout=0.0, tt_mb=256, shortest=False,
                    line_max_nodes=0, progress=None):
    """The dict ``solver.search.solve`` expects, as ``_core.search`` gives it, found on
    ``threads`` processes (2 at most: the rounds below have two questions)."""
    from . import _core
    t0 = time.monotonic()
    if state.finished or threads < 2:
        return _core.search(state, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, shortest=shortest,
                            line_max_nodes=line_max_nodes, progress=progress)
    # small searches: one core, as without threads (a node budget, so deterministic)
    # (the whole budget: its table is freed before the workers start)
    spent = 0
    small = SMALL_NODES if not max_nodes else min(SMALL_NODES, max_nodes)
    if small > 0:
        s = _core.new_searcher(state.rules, tt_mb)
        first = _core.search(state, max_nodes=small, timeout=timeout, searcher=s, progress=progress)
        if first["exact"]:
            # the search for the fewest rooms gets the budget it gets with one core
            if shortest and first["line"]:
                _shortest_here(s, state, first, max_nodes, line_max_nodes, timeout, t0)
            elif shortest:
                first["shortest"] = True
            return first
        if (max_nodes and max_nodes <= small) or first["limit"] == "time":
            return first
        spent = first["nodes"]
        del s
    left_timeout = 0.0
    if timeout:
        left_timeout = max(1e-3, timeout - (time.monotonic() - t0))
    out = _rounds(state, 2, max_nodes - spent if max_nodes else 0, left_timeout, tt_mb, shortest,
                  line_max_nodes, progress, spent, t0, timeout)
    out["nodes"] += spent
    return out


def _shortest_here(s, state, out, max_nodes, line_max_nodes, timeout, t0):
    """``_core.search``'s second step (the fewest rooms), on the searcher ``s`` that
    has just proven ``out["score"]`` within the first pass; updates ``out``."""
    from . import _core
    nodes = out["nodes"]
    left_nodes = int(line_max_nodes or 0)
    if max_nodes:
        left = max(1, int(max_nodes) - nodes)
        left_nodes = min(left_nodes, left) if left_nodes else left
    left_time = max(1e-3, float(timeout) - (time.monotonic() - t0)) if timeout else 0.0
    s.nodes = 0
    found = s.shortest(*_position(state), int(out["score"]), len(out["line"]), left_nodes, left_time)
    out["line_nodes"] = s.nodes
    s.nodes = nodes
    out["shortest"] = found["rooms"] is not None
    if out["shortest"]:
        out["line"] = _core._line_of(found["steps"])
    out["tt"].update(entries=s.tt_used, capacity=s.tt_capacity, mb=round(s.tt_bytes / 2**20, 1),
                     hits=s.tt_hits, tests=s.tests, stores=s.tt_stores, replaced=s.tt_replaced)


def _rounds(state, n, max_nodes, timeout, tt_mb, shortest, line_max_nodes, progress, spent, t0, timeout0):
    from . import _core
    probe = _core.new_searcher(state.rules, 1)     # the driver's knobs, as the workers get them
    step, zero_at, loss_probe = probe.step, probe.zero_at, probe.loss_probe
    del probe
    deadline = time.monotonic() + timeout if timeout else 0.0
    pool = _Pool(n, state, tt_mb / n, progress)
    nodes = 0
    tests = 0
    lo, hi = NEG, None
    best = None            # (score, -round, -worker, steps): the best line, earliest first
    high, first = False, True
    loss_probed = False
    limit = None
    value = None
    tt = {}

    def report():
        # (as one core reports: always with the root's upper bound, known after round 1)
        if progress is not None and hi is not None:
            progress(spent + nodes + sum(pool.nodes_now), tests, lo if lo > NEG else None, hi,
                     best[0] if best else None)

    def budget(k):
        """Per command: an equal share of what is left (the total stays within max_nodes)."""
        left_n = 0
        if max_nodes:
            # (a search counts the node that passes its limit: k workers, k such nodes)
            left_n = max(1, (max_nodes - nodes - k + 1) // k)
        left_t = 0.0
        if deadline:
            left_t = max(1e-3, deadline - time.monotonic())
        return left_n, left_t

    try:
        rnd = 0
        while True:
            rnd += 1
            if hi is not None and lo >= hi:
                value = hi
                break
            if max_nodes and nodes >= max_nodes:
                limit = "nodes"
                break
            if hi is None:
                # the root's bound: a test above every score fails at once, with it
                # (and the greedy line's score); the driver's tests then start below it
                alphas = [1000, None]
            elif hi > 0:
                a = _next_alpha(lo, hi, first, high, step, zero_at)
                if a == lo and lo >= 0:
                    b = lo + 1 if lo + 1 < hi else None        # in case a finds a better line
                else:
                    b = _next_alpha(lo, a, False, False, step, zero_at) if a > 0 else None
                    if b is not None and (b >= a or b < max(lo, 0)):
                        b = None
                alphas = [a, b]
            elif loss_probe and not loss_probed and lo > NEG:
                alphas = [hi - 1, None]
                loss_probed = True
            else:
                # the best loss: the one-core driver's full window, in worker 0
                mn, mt = budget(1)
                res = pool.run([("finish", mn, mt)] + [None] * (n - 1), report)[0]
                nodes += res["nodes"]
                tests += res["tt"]["tests"]
                tt = res["tt"]
                if res["incumbent"] is not None and (best is None or res["incumbent"] > best[0]):
                    best = (res["incumbent"], -rnd, 0, res["steps"])
                if res["aborted"]:
                    limit = {1: "nodes", 2: "time", 3: "depth", 4: "outcomes"}.get(res["aborted"], "aborted")
                else:
                    value = res["value"]
                    lo = hi = value
                    report()
                break
            live = sum(1 for a in alphas if a is not None)
            mn, mt = budget(live)
            cmds = [("test", a, mn, mt) if a is not None else None for a in alphas]
            t_round = time.monotonic()
            results = pool.run(cmds, report)
            bootstrap = hi is None
            if _DEBUG:
                print(f"round {rnd} {time.monotonic() - t_round:.2f}s lo={lo} hi={hi}",
                      [(a, r and r["bound"], r and r["high"], r and r["nodes"]) for a, r in zip(alphas, results)],
                      file=sys.stderr)
            aborted = None
            round_high = False
            for w, (a, res) in enumerate(zip(alphas, results)):
                if res is None:
                    continue
                nodes += res["nodes"]
                tt = res["tt"] if w == 0 else tt
                inc = res["incumbent"]
                if inc is not None and (best is None or inc > best[0]):
                    best = (inc, -rnd, -w, res["steps"])
                if inc is not None and inc > lo:
                    lo = inc
                if res["aborted"]:
                    aborted = res["aborted"]
                    continue
                tests += 0 if bootstrap else 1
                v = res["bound"]
                if res["high"]:
                    round_high = True
                    lo = max(lo, v)
                else:
                    hi = v if hi is None else min(hi, v)
            pool.nodes_now = [0] * n
            if aborted:
                limit = {1: "nodes", 2: "time", 3: "depth", 4: "outcomes"}.get(aborted, "aborted")
                break
            if not bootstrap:
                high, first = round_high, False
            report()
        exact = limit is None
        score = value if exact else (best[0] if best else None)
        steps = best[3] if best else []
        if exact and best is not None and best[0] != value:
            raise AssertionError(f"parallel search inconsistency: value {value} but best line scores {best[0]}")
        short, line_nodes = None, 0
        if shortest and exact and steps:
            left_nodes = int(line_max_nodes or 0)
            if max_nodes:
                left = max(1, max_nodes - nodes)
                left_nodes = min(left_nodes, left) if left_nodes else left
            left_time = 0.0
            if timeout0:
                left_time = max(1e-3, timeout0 - (time.monotonic() - t0))
            found = pool.run([("shortest", int(score), sum(r + 1 for r, _ in steps), left_nodes, left_time)]
                             + [None] * (n - 1))[0]
            line_nodes = found["nodes"]
            short = found["rooms"] is not None
            if short:
                steps = found["steps"]
    except BaseException:
        pool.close(kill=True)
        raise
    pool.close()
    line = _core._line_of(steps) if steps else []
    if line and score is not None:
        # the line is a worker's: replay it through the rules engine before printing it
        from .notation import replay
        end = replay(state, line)[-1]
        if not end.finished or end.score != score:
            raise AssertionError(f"parallel search: the line does not replay to its score {score}")
    return {"score": score, "line": line, "nodes": nodes, "exact": exact, "limit": limit, "shortest": short,
            "line_nodes": line_nodes, "threads": n,
            "tt": {"entries": tt.get("entries", 0), "capacity": tt.get("capacity", 0),
                   "max_capacity": tt.get("max_capacity", 0), "mb": round(tt.get("bytes", 0) / 2**20, 1),
                   "hits": tt.get("hits", 0), "tests": tests, "stores": tt.get("stores", 0),
                   "replaced": tt.get("replaced", 0)}}
