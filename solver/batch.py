"""Batch runs of any game: solve many numbered deals, keep every result as it comes.

Each deal's result is one JSON line appended to a results file and flushed at
once, so an interrupted run loses nothing and a resumed run redoes nothing.
A game brings what is its own: the picklable settings of a run, whose
``solve_seed(seed)`` makes one record, and a :class:`ResultsFile` subclass that
checks its records and names its rules (Scoundrel's: ``solver/scoundrel/stats.py``,
with the summary of its records).

>>> parse_seeds("1-3,7")
(1, 2, 3, 7)

The deals run on a *backend*: worker processes on this machine (``local``), or
an existing distributed engine, Dask or Ray, installed as an optional extra.
"""
from __future__ import annotations

import errno
import gzip
import json
import math
import multiprocessing
import os
import select
import signal
import stat
import sys
import threading
import zlib
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Iterable, Iterator, Optional

from . import jsonform
from .errors import InputError, shown
from .shuffle import MAX_SEED, SeedError, check_seed

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

MAX_SEEDS = 10_000_000
BACKENDS = ("local", "dask", "ray")
# What the summary keeps of a record (the line text stays in the file only).
SLIM_KEYS = ("seed", "error", "seconds")


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
            raise BatchError(f"bad seed range {shown(part)}: write A-B, N or a comma list of them, "
                             "with 0 <= seed < 2^64") from None
        if hi < lo:
            raise BatchError(f"bad seed range {shown(part)}: the first seed is above the last")
        if hi - lo + 1 + len(seeds) > MAX_SEEDS:
            raise BatchError(f"too many seeds in {shown(text)}: at most {MAX_SEEDS:,} in one run")
        seeds.update(range(lo, hi + 1))
    if not seeds:
        raise BatchError(f"no seeds in {shown(text)}: write A-B, N or a comma list of them")
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


# ---------------------------------------------------------- results file
class ResultsFileError(BatchError):
    """A results file that cannot be read as one: not UTF-8, not JSON lines, a field of the wrong type."""


class WriteFault(Exception):
    """A results file that cannot be written (disk full, ``/dev/full``, an I/O error): not bad input.

    Every line written before is intact: a line the fault cut short is taken back.
    """

    def __init__(self, path, cause: OSError):
        self.path, self.cause = path, cause
        super().__init__(f"cannot write {path}: {os_reason(cause)}")


def os_reason(exc: OSError) -> str:
    """``No space left on device`` -> ``no space left on device``: the cause, for one error line."""
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


def _reason(exc: Exception) -> str:
    text = os_reason(exc) if isinstance(exc, OSError) else str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


def _show(value) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def seed_problem(rec: dict) -> Optional[str]:
    seed = rec.get("seed")
    if type(seed) is not int or not 0 <= seed < MAX_SEED:
        return f'"seed" must be a deal number (0 to 2^64-1), not {_show(seed)}'
    return None


@dataclass
class JsonLines:
    """What :func:`read_json_lines` found: the objects with their line numbers, and the last line.

    ``torn`` is the number of a last line cut short by a kill (no newline, not
    JSON): skipped, and cut off before the file is written again (``tail``
    is where it starts).  ``unended`` says the last line is whole but has no
    newline (a kill between the two): one is added before the next line.
    """

    path: Path
    items: list
    torn: Optional[int] = None
    tail: int = 0
    unended: bool = False


def read_json_lines(path, problem=None) -> JsonLines:
    """Read a JSON-lines file (gzipped if its name ends in ``.gz``), strictly.

    Every line must be UTF-8 text holding one JSON object for which
    ``problem(obj)`` finds nothing; the first line that is not is a
    :class:`ResultsFileError` naming the file and the line.  The one exception
    is a last line cut short by a kill (no newline at its end, not JSON):
    skipped and reported as ``torn``.  Blank lines are skipped.
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise ResultsFileError(f"cannot read {path}: it is a directory")
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            raise ResultsFileError(f"cannot read {path}: not a file of results")
        handle = gzip.open(path, "rb") if path.name.endswith(".gz") else open(path, "rb")
    except OSError as exc:
        raise ResultsFileError(f"cannot read {path}: {os_reason(exc)}") from None
    found = JsonLines(path, [])
    offset, number = 0, 0
    with handle:
        lines = iter(handle)
        while True:
            try:
                raw = next(lines, None)
            except (OSError, EOFError, zlib.error) as exc:  # a gzip file damaged or cut short
                where = f" after line {number}" if number else ""
                raise ResultsFileError(f"cannot read {path}{where}: {_reason(exc)}") from None
            if raw is None:
                break
            number += 1
            start, offset = offset, offset + len(raw)
            last = not raw.endswith(b"\n")
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                if last:   # a multi-byte character cut in two by a kill
                    found.torn, found.tail = number, start
                    break
                raise ResultsFileError(f"{path} line {number}: not UTF-8 text "
                                       f"(byte 0x{raw[exc.start]:02x} at column {exc.start + 1})") from None
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError) as exc:
                if last:
                    found.torn, found.tail = number, start
                    break
                where = f" at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
                why = jsonform.refusal(exc)
                raise ResultsFileError(f"{path} line {number}: not a JSON line ({why}{where})") from None
            if not isinstance(obj, dict):
                raise ResultsFileError(f"{path} line {number}: not a JSON object but {_show(obj)}")
            wrong = problem(obj) if problem is not None else None
            if wrong:
                raise ResultsFileError(f"{path} line {number}: {wrong}")
            found.items.append((number, obj))
            found.unended = last
    return found


class AppendFile:
    """The one writer of a JSON-lines file, for the life of a run.

    Opening takes an OS lock (``flock``) on the file, so a second run on the
    same file is refused, not mixed in.  Each line goes out in whole
    ``os.write`` calls, no buffer; a write that fails (a full disk) is taken
    back to the last whole line and raised as :class:`WriteFault`.  Compressed
    names are refused: lines appended one at a time stay plain text.
    """

    def __init__(self, path):
        self.path = Path(path)
        if self.path.name.endswith(".gz"):
            raise BatchError(f"{self.path}: results are written as plain JSON lines, not gzip: give a name "
                             "without .gz (compress the file when the run is over: --summary reads it)")
        if self.path.is_dir():
            raise BatchError(f"{self.path} is a directory: give a file name to --out")
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
        except OSError as exc:
            raise BatchError(f"cannot write {self.path}: {os_reason(exc)}") from None
        try:
            _lock(self._fd, self.path)
            self._end = os.fstat(self._fd).st_size
        except BaseException:
            os.close(self._fd)
            raise

    @property
    def size(self) -> int:
        return self._end

    def write(self, data: bytes) -> None:
        """Append ``data`` (whole lines); all of it, or nothing and :class:`WriteFault`."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view):]
        except OSError as exc:
            self.truncate(self._end, quiet=True)
            raise WriteFault(self.path, exc) from None
        self._end += len(data)

    def flush(self) -> None:
        """Nothing to do: every line is written through at once (kept for file-like use)."""

    def truncate(self, size: int, quiet: bool = False) -> None:
        try:
            os.ftruncate(self._fd, size)
        except OSError as exc:
            if quiet:   # a device such as /dev/full has no length: nothing to take back
                return
            raise WriteFault(self.path, exc) from None
        self._end = size

    def mend(self, found: JsonLines) -> None:
        """Make the file end with a whole line again after a kill: cut a torn last line, end an unended one."""
        if found.torn is not None:
            self.truncate(found.tail)
        elif found.unended:
            self.write(b"\n")

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)   # and so the lock

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _lock(fd: int, path: Path) -> None:
    if fcntl is None:   # no flock (Windows): one writer per file is left to the user
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise BatchError(f"{path} is being written by another run: wait for it to end, "
                             "or choose another --out") from None
        # a file system without locks (ENOLCK, EOPNOTSUPP): write unlocked, as before


@contextmanager
def resume_lines(path, problem=None):
    """Append to the JSON-lines file ``path`` after what an earlier run left in it: ``(out, done)``.

    The file's folder is made if missing, the file opened by its one writer
    ``out`` (an :class:`AppendFile`: locked), then read as :func:`read_json_lines`
    reads it, each object checked by ``problem``; a last line torn by a kill is
    cut off (:meth:`AppendFile.mend`), so its deal is not done.  ``done`` is the
    set of the objects' ``"seed"`` values: the deals a resumed run skips.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with AppendFile(path) as out:
        found = read_json_lines(path, problem)
        out.mend(found)
        yield out, {rec["seed"] for _, rec in found.items}


def read_records(path, problem=None) -> tuple:
    """``(records, torn)`` of a results file (gzipped if its name ends in ``.gz``), each record
    checked by ``problem`` (:func:`read_json_lines`): ``torn`` lists the number of a last line cut
    short by a kill (skipped); any other line that is not a record is a
    :class:`ResultsFileError` naming the file and the line."""
    found = read_json_lines(path, problem)
    return [rec for _, rec in found.items], [] if found.torn is None else [found.torn]


class ResultsFile:
    """Where the records of a run go: a JSON-lines file, or memory only (``path=None``).

    ``resume`` keeps the records already in the file (they must be of the same
    rules) and marks their seeds done; ``overwrite`` empties it; with neither, a
    non-empty file is refused so that no results are mixed or lost by mistake.
    The file is locked for as long as it is open (:class:`AppendFile`): a
    second run on it is refused.
    """

    # What a game's results file (a subclass: solver/scoundrel/stats.py) says of its records:
    # what is wrong with one (None if nothing), its rule set described for people, and what
    # of each record a run keeps in memory (the line text stays in the file only).
    slim_keys = SLIM_KEYS

    @staticmethod
    def record_problem(rec: dict) -> Optional[str]:
        return seed_problem(rec)

    #: the game's ``Rules`` class: a record's rule set described by its ``describe()``
    rules_class = None

    @classmethod
    def describe_rules(cls, rules_dict) -> str:
        if cls.rules_class is not None:
            try:
                return cls.rules_class(**rules_dict).describe()
            except (TypeError, InputError):
                pass
        return json.dumps(rules_dict)

    def __init__(self, path, rules, *, resume: bool = False, overwrite: bool = False):
        self.path = Path(path) if path is not None else None
        self.rules = rules
        self.records = {}  # seed -> slim record (the last one of a seed wins)
        self.unreadable = []  # the number of a torn last line, skipped (and cut off)
        self._file = None
        if resume and overwrite:
            raise BatchError("give --resume or --overwrite, not both")
        if self.path is None:
            if resume or overwrite:
                raise BatchError("--resume and --overwrite need a results file: add --out FILE.jsonl")
            return
        out = AppendFile(self.path)   # locked before it is read, so no other run writes in between
        try:
            self._take_over(out, resume, overwrite)
        except BaseException:
            out.close()
            raise
        self._file = out

    def _take_over(self, out: AppendFile, resume: bool, overwrite: bool) -> None:
        if out.size == 0:
            return
        if overwrite:
            out.truncate(0)
            return
        if not resume:
            raise BatchError(f"{self.path} already holds results: add --resume to carry on, "
                             "--overwrite to start again, or choose another --out")
        found = read_json_lines(self.path, self.record_problem)
        wanted = self.rules.as_dict()
        for number, rec in found.items:
            if rec.get("rules") != wanted:
                raise BatchError(f"{self.path} holds results of other rules ({self.describe_rules(rec.get('rules'))}, "
                                 f"line {number}), not {self.rules.describe()}: give the same rule flags, "
                                 "or another --out")
            self.records[rec["seed"]] = self._slim(rec)
        self.unreadable = [] if found.torn is None else [found.torn]
        out.mend(found)

    def done(self) -> set:
        """Seeds with a result (an error is no result: it is solved again)."""
        return {s for s, r in self.records.items() if "error" not in r}

    def append(self, record: dict) -> None:
        """Write one record (:class:`WriteFault` if the disk is full: the file keeps every earlier line)."""
        # One step for Ctrl-C: a line on disk is always counted as done (the
        # interrupted message and a resumed run agree on what was kept).
        line = (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode(
            "utf-8", "backslashreplace")
        slim = self._slim(record)
        with sigint_deferred():
            if self._file is not None:
                self._file.write(line)
                self._file.flush()
            self.records[record["seed"]] = slim

    def _slim(self, record: dict) -> dict:
        return {k: record[k] for k in self.slim_keys if k in record}

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


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
def solve_with(settings, seed: int) -> dict:
    """One deal's record, in whatever process runs it: ``settings`` is a game's picklable
    description of a run (Scoundrel's :class:`solver.scoundrel.stats.Settings`) and solves it."""
    return settings.solve_seed(seed)


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

    def imap(self, settings, seeds: Iterable[int]) -> Iterator[dict]:
        """The records of ``seeds``, in order of completion."""
        with _local_pool(self.jobs) as pool:
            yield from _windowed(seeds, 2 * self.jobs, set(),
                                 submit=lambda s: pool.submit(solve_with, settings, s),
                                 wait_any=lambda fs: _first_done(
                                     lambda t: wait(fs, timeout=t, return_when=FIRST_COMPLETED)[0]),
                                 result=lambda f: f.result())


# How often the parent, waiting for a deal, wakes to run Python's signal handlers.
WAKE_S = 0.25


def _first_done(wait_step):
    """What ``wait_step(seconds)`` (one backend's wait for the first of its tasks, with a
    timeout; empty when none is done by then) returns, once it is not empty.  Every
    backend waits so, in short steps: Python handles a Ctrl-C in the main thread only,
    and the kernel may hand the signal to another thread of the parent (the pool's own),
    which would leave a wait without a timeout asleep until the deal in hand is solved --
    minutes for a hard co-op deal.  (Seen once on 2026-12-02: a 39 s deal ran to its end
    after Ctrl-C and the run printed its summary, exit 0; not seen again in five tries, so
    this is the likely cause, not a proven one.)"""
    while True:
        done = wait_step(WAKE_S)
        if done:
            return done


def _dask_wait_step(dask_wait, futures, seconds) -> set:
    """The Dask futures done within ``seconds`` (empty if none: Dask raises then)."""
    from dask.distributed import TimeoutError as DaskTimeout
    try:
        return dask_wait(list(futures), timeout=seconds, return_when="FIRST_COMPLETED").done
    except (DaskTimeout, TimeoutError):
        return set()


# ------------------------------------------------ workers end with their parent
# A worker busy in a long solve never looks at its task queue, so when the
# parent is killed outright (SIGKILL, the OOM killer) it would go on for hours,
# parented to init. Each worker therefore asks to be told when its parent dies:
# on Linux the kernel sends PARENT_GONE_SIGNAL (prctl PR_SET_PDEATHSIG) at once;
# elsewhere a timer sends it every PARENT_POLL_S. Either way the handler looks
# at os.getppid() and ends the worker if the parent is gone. The search core
# runs Python signal handlers every few thousand nodes, so this works mid-solve.
PARENT_GONE_SIGNAL = getattr(signal, "SIGUSR1", None)
PARENT_POLL_S = 1.0
_PR_SET_PDEATHSIG = 1


def _worker_init(parent_pid: int, forked: bool) -> None:
    """Run in each local worker as it starts: leave Ctrl-C to the parent, end with it."""
    _ignore_sigint()
    _end_with_parent(parent_pid, forked)


def _end_with_parent(parent_pid: int, forked: bool) -> None:
    if PARENT_GONE_SIGNAL is None:   # Windows: a pool's workers there see their pipe close
        return
    # Forked, our parent is the run's process; started by a fork server, it is
    # that server (which ends with the run), so the parent to watch is the one we have.
    watched = parent_pid if forked else os.getppid()

    def check(signum=None, frame=None):
        if os.getppid() != watched:
            os._exit(1)

    signal.signal(PARENT_GONE_SIGNAL, check)
    if not _ask_kernel(PARENT_GONE_SIGNAL) and hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, check)
        signal.setitimer(signal.ITIMER_REAL, PARENT_POLL_S, PARENT_POLL_S)
    check()   # the parent may have died before we asked


def _ask_kernel(signum: int) -> bool:
    """Linux: have the kernel send ``signum`` when our parent dies. False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@contextmanager
def _local_pool(jobs: int):
    """``jobs`` worker processes that leave Ctrl-C to the parent and end with it.

    Shut down when the block ends normally; stopped when it is left any other
    way (an error, Ctrl-C, the caller closing a generator), the work in hand
    given up, not waited for. A worker that dies is :class:`WorkerDied`.
    If the parent itself is killed, the workers end within moments
    (:func:`_end_with_parent`).
    """
    context = multiprocessing.get_context()
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_init,
                               initargs=(os.getpid(), context.get_start_method() == "fork"))
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
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.terminate()
    for p in processes:
        p.join(timeout=10)
    # Wait for the pool's own thread to see its workers gone and close its wake-up pipe.
    # Left running, it races Python's exit handler (concurrent.futures' _python_exit,
    # 3.11-3.12): that one checks the pipe is open, the thread closes it, and the exit
    # handler's write fails -- "Exception ignored ... Bad file descriptor" and a traceback
    # on stderr after the run's one error line (seen once in CI, 2026-12-02).
    if manager is not None:
        manager.join(timeout=10)


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

    def imap(self, settings, seeds: Iterable[int]) -> Iterator[dict]:
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
                                 submit=lambda s: client.submit(solve_with, settings, s, pure=False),
                                 wait_any=lambda fs: _first_done(lambda t: _dask_wait_step(dask_wait, fs, t)),
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

    def imap(self, settings, seeds: Iterable[int]) -> Iterator[dict]:
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
        task = ray.remote(num_cpus=1, max_retries=0)(solve_with)
        pending = set()
        try:
            slots = int(ray.cluster_resources().get("CPU", self.jobs)) or self.jobs
            yield from _windowed(seeds, 2 * slots, pending,
                                 submit=lambda s: task.remote(settings, s),
                                 wait_any=lambda refs: _first_done(
                                     lambda t: ray.wait(list(refs), num_returns=1, timeout=t)[0]),
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
# A run whose first deals all fail the same way has a cause common to every
# deal (a limit the engine cannot take, a broken install): it stops after
# this many rather than record the same error for every deal of a long run.
FAIL_FAST = 8


class RunFailed(RuntimeError):
    """Every deal of a run failed: the error records are in the file (and solved again on resume)."""


def run(seeds, settings, results: ResultsFile, backend) -> Iterator[dict]:
    """Solve the ``seeds`` not done yet in ``results``; yield each record once it is written.

    Stopping the iteration (Ctrl-C, ``close()``) stops the backend's workers;
    every record yielded so far is in the file. If every deal of the run
    fails (or the first :data:`FAIL_FAST` all fail with one error), the run
    ends with :class:`RunFailed` instead of passing for a run of results.
    """
    done = results.done()
    todo = [s for s in seeds if s not in done]
    deals = backend.imap(settings, todo)
    count, failed = 0, []   # failed: the seeds and errors while no deal has succeeded
    try:
        for record in deals:
            results.append(record)
            count += 1
            if failed is not None:
                failed = failed + [(record["seed"], record["error"])] if "error" in record else None
            yield record
            if failed and count == min(FAIL_FAST, len(todo)) and len({e for _, e in failed}) == 1:
                break
    finally:
        deals.close()
    if failed:
        more = "" if len({e for _, e in failed}) == 1 else ", among other errors"
        stopped = f", the {len(todo) - count:,} others not tried" if count < len(todo) else ""
        raise RunFailed(f"every deal failed with {failed[0][1]}{more} (seeds "
                        f"{_shorten(seeds_text(s for s, _ in failed))}{stopped})")


def _shorten(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


# ----------------------------------------------------------------- summary
def percentile(values, q: float):
    """Nearest-rank percentile (``q`` in 0..100) of ``values`` (any order; NaN when there are none).

    The one definition the statistics and every benchmark script use, so that a p90 means
    the same everywhere."""
    values = sorted(values)
    if not values:
        return math.nan
    k = max(1, math.ceil(q / 100 * len(values)))
    return values[k - 1]


# --------------------------------------------------------- a script's command
def command_main(action, *args) -> int:
    """Run ``action(*args)`` as a script's command; its exit status (``None``: 0).

    Bad input (an :class:`~solver.errors.InputError`, a :class:`BatchError` among
    them) is one line, ``error: <message>`` on stderr, and status 2.  A reader of
    stdout that leaves early (``summary | head``) stops the command quietly, status
    0: the rest of the output is thrown away, with no traceback.  A broken pipe
    that is not stdout's is raised as it is.
    """
    try:
        status = action(*args)
        sys.stdout.flush()   # here, where a reader that left is still caught, not at exit
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        fd = _gone_stdout()
        if fd is None:
            raise
        devnull = os.open(os.devnull, os.O_WRONLY)   # the lines still buffered go nowhere at exit
        os.dup2(devnull, fd)
        os.close(devnull)
        return 0
    return 0 if status is None else status


def _gone_stdout() -> Optional[int]:
    """Stdout's file descriptor if its reader has left, else None (or it if the system cannot tell)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):   # no stdout, or one that is no file: not its pipe
        return None
    if not hasattr(select, "poll"):   # Windows: a broken pipe is taken to be stdout's
        return fd
    poller = select.poll()
    poller.register(fd, 0)   # only what is always reported: an error (no reader), a hang-up
    gone = any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    return fd if gone else None
