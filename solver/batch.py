"""Batch runs: solve many numbered deals, keep every result, summarise them.

Each deal's result is one JSON line appended to a results file and flushed at
once, so an interrupted run loses nothing and a resumed run redoes nothing.
The summary is a function of the records of the requested seeds alone, so a
run interrupted and resumed gives the same summary as one that never stopped
(apart from the time figures, kept apart under ``"time"``).

>>> parse_seeds("1-3,7")
(1, 2, 3, 7)
>>> wilson(99, 100)
(0.945514, 0.998233)

The deals run on a *backend*: worker processes on this machine (``local``), or
an existing distributed engine, Dask or Ray, installed as an optional extra.
"""
from __future__ import annotations

import gzip
import json
import math
import signal
import threading
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Iterable, Iterator, Optional

from .deal import SeedError, check_seed
from .errors import InputError
from .intervals import mean_ci, wilson
from .rules import Rules
from .search import DEFAULT_TT_MB, default_engine, load_core, solve

MAX_SEEDS = 10_000_000
BACKENDS = ("local", "dask", "ray")
# What the summary keeps of a record (the line text stays in the file only).
SLIM_KEYS = ("seed", "score", "won", "exact", "limit", "error", "nodes", "seconds")


class BatchError(InputError):
    """A batch request that cannot run: bad seed range, a results file of other rules, ..."""


# ------------------------------------------------------------------- seeds
def parse_seeds(text: str) -> tuple:
    """``"1-200"``, ``"7"`` or ``"1-10,42,100-105"`` -> the distinct seeds, ascending."""
    seeds = set()
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        a, sep, b = part.partition("-")
        try:
            lo = check_seed(a.strip())
            hi = check_seed(b.strip()) if sep else lo
        except SeedError:
            raise BatchError(f"bad seed range {part!r}: write A-B, N or a comma list of them, "
                             "with 0 <= seed < 2^64") from None
        if hi < lo:
            raise BatchError(f"bad seed range {part!r}: the first seed is above the last")
        if hi - lo + 1 + len(seeds) > MAX_SEEDS:
            raise BatchError(f"too many seeds in {text!r}: at most {MAX_SEEDS:,} in one run")
        seeds.update(range(lo, hi + 1))
    if not seeds:
        raise BatchError(f"no seeds in {text!r}: write A-B, N or a comma list of them")
    return tuple(sorted(seeds))


def seeds_text(seeds) -> str:
    """The inverse of :func:`parse_seeds`: ``(1, 2, 3, 7)`` -> ``"1-3,7"``."""
    parts, run = [], []
    for s in sorted(seeds):
        if run and s != run[-1] + 1:
            parts.append(run)
            run = []
        run.append(s)
    if run:
        parts.append(run)
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in parts)


# ------------------------------------------------------------ one deal
@dataclass(frozen=True)
class Settings:
    """How every deal of a batch is solved: the rules and the search limits."""

    rules: Rules
    max_nodes: Optional[int] = None
    timeout: Optional[float] = None
    tt_mb: int = DEFAULT_TT_MB
    engine: Optional[str] = None  # None: solve()'s default, decided where the deal runs
    win_only: bool = False        # only decide "winnable?" (no score): much faster, co-op above all


def solve_seed(seed: int, settings: Settings) -> dict:
    """Solve deal ``seed``; the JSON-able record of one line of a results file.

    A deal that hits a limit is recorded with ``exact: false``.  An unexpected
    failure is recorded too (``error``), so one bad deal does not end a long
    run; ``--resume`` solves it again.
    """
    record = {"seed": seed, "rules": settings.rules.as_dict()}
    if settings.win_only and (settings.engine or default_engine()) == "core":
        return _decide_seed(seed, settings, record)
    try:
        r = solve(seed=seed, rules=settings.rules, max_nodes=settings.max_nodes, timeout=settings.timeout,
                  tt_mb=settings.tt_mb, engine=settings.engine)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - recorded, and listed by the summary
        record.update(score=None, won=None, exact=False, limit=None, error=f"{type(exc).__name__}: {exc}")
        return record
    record.update(score=r.score, won=r.won, exact=r.exact, limit=r.limit, nodes=r.nodes,
                  seconds=round(r.seconds, 6), engine=r.engine, line=r.line_text)
    return record


def _decide_seed(seed: int, settings: Settings, record: dict) -> dict:
    """Only "is deal ``seed`` winnable?": one cut-short search (``_core.decide``).

    The record has ``won`` proven (``exact``) but no ``score``; a winning line
    ends the search at once, so winnable deals are decided in a fraction of
    the time of their exact score.
    """
    import time as _time

    from .state import State
    from .deal import deal as _deal

    state = State.new(_deal(seed, settings.rules), settings.rules)
    t0 = _time.perf_counter()
    try:
        d = load_core().decide(state, 1, max_nodes=settings.max_nodes or 0, timeout=settings.timeout or 0.0,
                               tt_mb=settings.tt_mb)
    except Exception as exc:  # noqa: BLE001 - recorded, and listed by the summary
        record.update(score=None, won=None, exact=False, limit=None, question="win",
                      error=f"{type(exc).__name__}: {exc}")
        return record
    reached = d["reached"]
    record.update(score=None, won=reached, exact=reached is not None,
                  limit=None if reached is not None else "nodes/time", nodes=d["nodes"],
                  seconds=round(_time.perf_counter() - t0, 6), engine="core", question="win")
    return record


# ---------------------------------------------------------- results file
def read_records(path) -> tuple:
    """``(records, bad_line_numbers)`` of a JSON-lines file (gzipped if its name
    ends in ``.gz``).

    A line that is not a JSON object (a write torn by a kill) is skipped and
    its number reported.
    """
    records, bad = [], []
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                bad.append(n)
                continue
            if isinstance(rec, dict) and isinstance(rec.get("seed"), int):
                records.append(rec)
            else:
                bad.append(n)
    return records, bad


def _cut_torn_tail(path: Path) -> None:
    """Drop a last line left without its newline (the process was killed mid-write)."""
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


class ResultsFile:
    """Where the records of a run go: a JSON-lines file, or memory only (``path=None``).

    ``resume`` keeps the records already in the file (they must be of the same
    rules) and marks their seeds done; ``overwrite`` empties it; with neither, a
    non-empty file is refused so that no results are mixed or lost by mistake.
    """

    def __init__(self, path, rules: Rules, *, resume: bool = False, overwrite: bool = False):
        self.path = Path(path) if path is not None else None
        self.rules = rules
        self.records = {}  # seed -> slim record (the last one of a seed wins)
        self.unreadable = []  # line numbers skipped when reading
        self._file = None
        if resume and overwrite:
            raise BatchError("give --resume or --overwrite, not both")
        if self.path is None:
            if resume or overwrite:
                raise BatchError("--resume and --overwrite need a results file: add --out FILE.jsonl")
            return
        if self.path.is_dir():
            raise BatchError(f"{self.path} is a directory: give a file name to --out")
        used = self.path.exists() and self.path.stat().st_size > 0
        if used and not (resume or overwrite):
            raise BatchError(f"{self.path} already holds results: add --resume to carry on, "
                             "--overwrite to start again, or choose another --out")
        if used and resume:
            records, self.unreadable = read_records(self.path)
            wanted = rules.as_dict()
            other = next((r for r in records if r.get("rules") != wanted), None)
            if other is not None:
                raise BatchError(f"{self.path} holds results of other rules ({_describe(other.get('rules'))}), "
                                 f"not {rules.describe()}: give the same rule flags, or another --out")
            for rec in records:
                self.records[rec["seed"]] = _slim(rec)
            _cut_torn_tail(self.path)
        try:
            self._file = open(self.path, "w" if overwrite else "a", encoding="utf-8")
        except OSError as exc:
            raise BatchError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def done(self) -> set:
        """Seeds with a result (an error is no result: it is solved again)."""
        return {s for s, r in self.records.items() if "error" not in r}

    def append(self, record: dict) -> None:
        # One step for Ctrl-C: a line on disk is always counted as done (the
        # interrupted message and a resumed run agree on what was kept).
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"
        slim = _slim(record)
        with sigint_deferred():
            if self._file is not None:
                self._file.write(line)
                self._file.flush()
            self.records[record["seed"]] = slim

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _slim(record: dict) -> dict:
    return {k: record[k] for k in SLIM_KEYS if k in record}


def _describe(rules_dict) -> str:
    try:
        return Rules(**rules_dict).describe()
    except (TypeError, InputError):
        return json.dumps(rules_dict)


@contextmanager
def sigint_deferred():
    """Hold a Ctrl-C that arrives inside until the block is done, then raise it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        if callable(previous):
            previous(signal.SIGINT, None)
        elif previous == signal.SIG_DFL:
            raise KeyboardInterrupt


# ---------------------------------------------------------------- backends
def _ignore_sigint() -> None:
    # Ctrl-C in a terminal reaches the whole process group: the parent alone
    # handles it (and stops the workers); otherwise each would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _workers_ignore_sigint():
    """Processes started inside inherit an ignored SIGINT (see :func:`_ignore_sigint`)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class WorkerDied(RuntimeError):
    """A worker process ended without a result (killed, out of memory, a crash of the core)."""


class LocalBackend:
    """``jobs`` worker processes on this machine."""

    name = "local"

    def __init__(self, jobs: int = 1):
        if jobs < 1:
            raise BatchError(f"--jobs must be at least 1, not {jobs}")
        self.jobs = jobs

    def describe(self) -> str:
        return f"{self.jobs} process{'es' if self.jobs > 1 else ''}"

    def imap(self, settings: Settings, seeds: Iterable[int]) -> Iterator[dict]:
        """The records of ``seeds``, in order of completion."""
        with _local_pool(self.jobs) as pool:
            yield from _windowed(seeds, 2 * self.jobs, set(),
                                 submit=lambda s: pool.submit(solve_seed, s, settings),
                                 wait_any=lambda fs: wait(fs, return_when=FIRST_COMPLETED)[0],
                                 result=lambda f: f.result())


@contextmanager
def _local_pool(jobs: int):
    """``jobs`` worker processes that leave Ctrl-C to the parent.

    Shut down when the block ends normally; stopped when it is left any other
    way (an error, Ctrl-C, the caller closing a generator), the work in hand
    given up, not waited for. A worker that dies is :class:`WorkerDied`.
    """
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_sigint)
    try:
        yield pool
    except BrokenProcessPool as exc:
        _stop_pool(pool)
        raise WorkerDied(f"a worker process died ({exc})") from None
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.terminate()
    for p in processes:
        p.join(timeout=10)


def _windowed(seeds, window, pending, *, submit, wait_any, result):
    """Keep ``window`` deals in flight; yield each result as it comes."""
    todo = iter(seeds)
    exhausted = False
    while True:
        while not exhausted and len(pending) < window:
            seed = next(todo, None)
            if seed is None:
                exhausted = True
            else:
                pending.add(submit(seed))
        if not pending:
            return
        for fut in wait_any(pending):
            pending.discard(fut)
            yield result(fut)


_END = object()


def ordered_map(fn, items: Iterable, jobs: int = 1) -> Iterator:
    """``fn(item)`` for each item, yielded in the order of ``items``.

    With ``jobs`` > 1 up to ``2 * jobs`` items run ahead in worker processes
    (``fn`` and the items must pickle), so the results are the same as with
    one job, only sooner. ``items`` may be endless: closing the iterator (or an
    error, or Ctrl-C in the caller) stops the workers and gives up the items in
    flight.
    """
    if jobs < 1:
        raise BatchError(f"--jobs must be at least 1, not {jobs}")
    if jobs == 1:
        for item in items:
            yield fn(item)
        return
    with _local_pool(jobs) as pool:
        todo = iter(items)
        window = deque(pool.submit(fn, item) for item in islice(todo, 2 * jobs))
        while window:
            result = window.popleft().result()
            item = next(todo, _END)
            if item is not _END:
                window.append(pool.submit(fn, item))
            yield result


def _missing_extra(name: str) -> BatchError:
    return BatchError(f"the {name} backend needs the optional extra: pip install 'scoundrel-solver[{name}]'")


class DaskBackend:
    """A Dask cluster: the one at ``address``, or a local one of ``jobs`` worker processes."""

    name = "dask"

    def __init__(self, jobs: int = 1, address: Optional[str] = None, cluster=None):
        if jobs < 1:
            raise BatchError(f"--jobs must be at least 1, not {jobs}")
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            raise _missing_extra("dask") from None
        self.jobs, self.address, self.cluster = jobs, address, cluster

    def describe(self) -> str:
        where = self.address or (self.cluster and "the given cluster") or f"a local cluster of {self.jobs} process(es)"
        return f"Dask on {where}"

    def imap(self, settings: Settings, seeds: Iterable[int]) -> Iterator[dict]:
        import logging

        from dask.distributed import Client, LocalCluster
        from dask.distributed import wait as dask_wait

        cluster = None
        if self.cluster is not None:
            client = Client(self.cluster)
        elif self.address:
            client = Client(self.address)
        else:
            with _workers_ignore_sigint():
                cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.CRITICAL)
            client = Client(cluster)
        pending = set()
        try:
            slots = sum(client.nthreads().values()) or self.jobs
            yield from _windowed(seeds, 2 * slots, pending,
                                 submit=lambda s: client.submit(solve_seed, s, settings, pure=False),
                                 wait_any=lambda fs: dask_wait(list(fs), return_when="FIRST_COMPLETED").done,
                                 result=lambda f: f.result())
        finally:
            if pending:
                client.cancel(list(pending))
            client.close()
            if cluster is not None:
                cluster.close()


class RayBackend:
    """A Ray cluster: the one at ``address`` (or already started), or a local one of ``jobs`` CPUs."""

    name = "ray"

    def __init__(self, jobs: int = 1, address: Optional[str] = None):
        if jobs < 1:
            raise BatchError(f"--jobs must be at least 1, not {jobs}")
        try:
            import ray  # noqa: F401
        except ImportError:
            raise _missing_extra("ray") from None
        self.jobs, self.address = jobs, address

    def describe(self) -> str:
        return f"Ray on {self.address or f'a local cluster of {self.jobs} CPU(s)'}"

    def imap(self, settings: Settings, seeds: Iterable[int]) -> Iterator[dict]:
        import logging

        import ray

        started = not ray.is_initialized()
        if started:
            with _workers_ignore_sigint():
                if self.address:
                    ray.init(address=self.address, logging_level=logging.ERROR, log_to_driver=False)
                else:
                    ray.init(num_cpus=self.jobs, include_dashboard=False, logging_level=logging.ERROR,
                             log_to_driver=False)
        task = ray.remote(num_cpus=1, max_retries=0)(solve_seed)
        pending = set()
        try:
            slots = int(ray.cluster_resources().get("CPU", self.jobs)) or self.jobs
            yield from _windowed(seeds, 2 * slots, pending,
                                 submit=lambda s: task.remote(s, settings),
                                 wait_any=lambda refs: ray.wait(list(refs), num_returns=1)[0],
                                 result=ray.get)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if started:
                ray.shutdown()


def make_backend(name: str = "local", jobs: int = 1, address: Optional[str] = None):
    """The backend called ``name``; a missing optional extra is a :class:`BatchError`."""
    if name == "local":
        if address:
            raise BatchError("--address is for the dask and ray backends")
        return LocalBackend(jobs)
    if name == "dask":
        return DaskBackend(jobs, address)
    if name == "ray":
        return RayBackend(jobs, address)
    raise BatchError(f"unknown backend {name!r} (choose {', '.join(BACKENDS)})")


# ------------------------------------------------------------------- a run
def run(seeds, settings: Settings, results: ResultsFile, backend) -> Iterator[dict]:
    """Solve the ``seeds`` not done yet in ``results``; yield each record once it is written.

    Stopping the iteration (Ctrl-C, ``close()``) stops the backend's workers;
    every record yielded so far is in the file.
    """
    done = results.done()
    todo = [s for s in seeds if s not in done]
    deals = backend.imap(settings, todo)
    try:
        for record in deals:
            results.append(record)
            yield record
    finally:
        deals.close()


# ----------------------------------------------------------------- summary
def percentile(sorted_values, q: float):
    """Nearest-rank percentile (``q`` in 0..100) of an ascending list."""
    k = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[k - 1]


def summarise(records, rules: Rules, seeds=None) -> dict:
    """The summary of ``records`` (of one rule set), over ``seeds`` (default: all of theirs).

    Everything but ``"time"`` depends only on the records' seeds, scores and
    verdicts.  A deal whose score is not proven (a limit, an error) is listed
    under ``"not_exact"`` and left out of the winnable fraction and the scores.
    """
    by_seed = {}
    for rec in records:  # the last record of a seed wins
        by_seed[rec["seed"]] = rec
    wanted = sorted(set(seeds)) if seeds is not None else sorted(by_seed)
    recs = [by_seed[s] for s in wanted if s in by_seed]
    exact = [r for r in recs if r.get("exact") and "error" not in r]
    not_exact = [r for r in recs if not (r.get("exact") and "error" not in r)]
    won = sum(1 for r in exact if r["won"])
    wins_found = sum(1 for r in not_exact if r.get("won"))
    scores = [r["score"] for r in exact if r.get("score") is not None]
    histogram = {}
    for s in sorted(scores):
        histogram[str(s)] = histogram.get(str(s), 0) + 1
    fraction_ci = wilson(won, len(exact))
    mean, mean_interval = mean_ci(scores) if scores else (None, None)
    summary = {
        "rules": rules.as_dict(),
        "seeds": {"requested": len(wanted), "ranges": seeds_text(wanted), "first": wanted[0] if wanted else None,
                  "last": wanted[-1] if wanted else None, "with_result": len(recs),
                  "missing": len(wanted) - len(recs)},
        "exact": len(exact),
        "winnable": {"won": won, "of": len(exact),
                     "fraction": round(won / len(exact), 6) if exact else None,
                     "ci95": list(fraction_ci) if fraction_ci else None, "interval": "wilson",
                     # Over every deal with a result: a winning line found proves a deal
                     # winnable even when a limit left its best score unproven.
                     "at_least": won + wins_found, "at_most": won + len(not_exact),
                     "deals": len(recs)},
        "score": {"deals": len(scores), "mean": mean, "ci95": list(mean_interval) if mean_interval else None,
                  "min": min(scores) if scores else None, "max": max(scores) if scores else None,
                  "histogram": histogram},
        "not_exact": [{"seed": r["seed"], "why": r.get("error") or f"{r.get('limit') or 'unknown'} limit",
                       "score_found": r.get("score"), "win_found": bool(r.get("won"))} for r in not_exact],
    }
    timed = [r for r in recs if "seconds" in r]
    secs = sorted(r["seconds"] for r in timed)
    summary["time"] = {
        "deals": len(secs),
        "median_s": round(percentile(secs, 50), 6) if secs else None,
        "p90_s": round(percentile(secs, 90), 6) if secs else None,
        "max_s": round(secs[-1], 6) if secs else None,
        "total_s": round(math.fsum(secs), 3),
        "nodes": sum(r.get("nodes") or 0 for r in timed),
        "slowest": [r["seed"] for r in sorted(timed, key=lambda r: -r["seconds"])[:5]],
    }
    return summary
