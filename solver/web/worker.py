"""What a solver process of the service runs: one job in, one JSON answer out.

A job is a command line of ``scoundrel-solve`` (always with ``--json``), run
in this process by the CLI's own click commands, so the answer is exactly what
the command prints; or one of the game steps below, which work out a new line
and then ask ``replay`` for it.  Nothing raised here reaches a client: an
unexpected exception is logged on the server's stderr and answered as an
internal error with no traceback.
"""
from __future__ import annotations

import json
import os
import resource
import signal
import sys
import traceback

# Exit statuses of the CLI (cli/main.py) and the HTTP status they answer with.
HTTP_STATUS = {0: 200, 1: 500, 2: 400, 3: 500, 130: 503}


def init_worker(memory_mb: int, nice: int = 0) -> None:
    """Set up a fresh solver process: an address-space cap, so a search that
    asks too much gets a MemoryError (answered as an error) instead of the
    machine running out; and Ctrl-C left to the server, which stops us."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        os.nice(nice)
    os.setpgrp()       # a group of our own, so a process past its deadline is killed with its helpers
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # Warm up before the first job: the imports, and the helper processes that an exact hint
    # within a time budget starts (solver/scoundrel/budget.py), so the first player's hint does not wait
    # for them to spawn.
    run_cli(["hint", "--deck", "5D 3S 4H 9C 2D 7S", "--time", "0.2", "--json"])


def run_cli(argv: list, stdin: str = None) -> tuple:
    """``(http_status, object)``: the JSON object ``scoundrel-solve ARGV`` prints."""
    from click.testing import CliRunner

    from scoundrel_solver.cli.main import cli
    result = CliRunner().invoke(cli, argv, input=stdin, prog_name="scoundrel-solve")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        if isinstance(exc, MemoryError):
            return 503, error("out of memory: ask with a smaller tt_mb", 503)
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        return 500, error("internal error (logged on the server)", 500)
    try:
        obj = json.loads(result.stdout)
    except ValueError:
        print(f"scoundrel service: {argv!r} printed no JSON: {result.output[:500]!r}", file=sys.stderr)
        return 500, error("internal error (logged on the server)", 500)
    status = HTTP_STATUS.get(result.exit_code, 500)
    if obj.get("type") == "error":
        if "out of memory" in obj.get("error", ""):
            status = 503
        obj["status"] = status
    return status, obj


def error(message: str, status: int) -> dict:
    return {"type": "error", "error": " ".join(str(message).split()), "status": status}


def _guarded(fn, *args):
    """A library call for a game step: input errors are 400, as in the CLI."""
    from scoundrel_solver import InputError
    from click import UsageError
    try:
        return fn(*args)
    except (InputError, UsageError) as exc:
        text = exc.format_message() if isinstance(exc, UsageError) else str(exc)
        return error(text, 400)


def _start(rule_argv: list):
    """The game of ``--seed/--deck`` and the rule flags, checked by the CLI's own options."""
    from scoundrel_solver.cli.options import GameOptions
    names = {"--mode": "mode", "--flee": "flee", "--durability": "durability", "--deck-size": "deck_size",
             "--seed": "seed", "--deck": "deck"}
    kwargs = {names[rule_argv[i]]: rule_argv[i + 1] for i in range(0, len(rule_argv), 2)}
    return GameOptions(**kwargs).game().start()


def _moved_line(rule_argv: list, line: str, move: str) -> str:
    """``line`` with ``move`` (one action, or several of one room) played after it,
    a room separator put in where the last room was complete."""
    from scoundrel_solver import format_line, parse_line, replay
    from scoundrel_solver.scoundrel.notation import parse_room
    from scoundrel_solver.scoundrel.notation import resolved_line
    start = _start(rule_argv)
    rooms = parse_line(line)
    state = replay(start, rooms)[-1]
    added = parse_room(move)
    if not added:
        from scoundrel_solver import NotationError
        raise NotationError("move: give a move, e.g. 5D, QSw, 4Sb, TD> or avoid")
    if rooms and state.taken == 0 and not state.finished:
        rooms.append(added)        # the last room is complete: these are the next room's
    elif rooms:
        rooms[-1] = rooms[-1] + added
    else:
        rooms = [added]
    return format_line(resolved_line(start, rooms))


def _undone_line(rule_argv: list, line: str, count: int) -> str:
    from scoundrel_solver import format_line, parse_line, replay
    from scoundrel_solver.scoundrel.notation import resolved_line
    start = _start(rule_argv)
    rooms = resolved_line(start, parse_line(line))
    replay(start, rooms)
    flat = [(r, a) for r, room in enumerate(rooms) for a in room]
    if count > len(flat):
        from scoundrel_solver import NotationError
        raise NotationError(f"undo: {count} move(s) asked, the line has {len(flat)}")
    kept = flat[:len(flat) - count]
    out = []
    for r, a in kept:
        while len(out) <= r:
            out.append([])
        out[r].append(a)
    return format_line([room for room in out if room])


def _explain(rule_argv: list, line: str, move: str, limits: dict) -> tuple:
    """Why (not) this move: ``hint --explain`` (solver/scoundrel/explain.py), so the service
    and the CLI give the same answer; an ``explain`` object.  ``timeout`` is the
    budget of the whole explanation (``--time``), or with ``max_nodes`` the
    limits of each search."""
    argv = ["hint", *rule_argv, "--moves", line, "--explain", move, "--tt-mb", str(limits.get("tt_mb", 64))]
    if limits.get("max_nodes") is not None:
        argv += ["--max-nodes", str(limits["max_nodes"]), "--timeout", f"{limits['timeout']:g}"]
    else:
        argv += ["--time", f"{limits['timeout']:g}"]
    return run_cli(argv + ["--json"])


def run_job(job: tuple) -> tuple:
    """Run one job, never raising: ``(http_status, object)``."""
    try:
        kind = job[0]
        if kind == "cli":
            return run_cli(*job[1:])
        if kind == "move":
            _, rule_argv, line, move = job
            new = _guarded(_moved_line, rule_argv, line, move)
        elif kind == "undo":
            _, rule_argv, line, count = job
            new = _guarded(_undone_line, rule_argv, line, count)
        elif kind == "explain":
            _, rule_argv, line, move, limits = job
            return _explain(rule_argv, line, move, limits)
        else:
            return 500, error(f"unknown job {kind!r}", 500)
        if isinstance(new, dict):
            return 400, new
        return run_cli(["replay", *rule_argv, "--line", new, "--json"])
    except MemoryError:
        return 503, error("out of memory: ask with a smaller tt_mb", 503)
    except Exception as exc:  # noqa: BLE001 - the last guard: log it, tell the client only that it happened
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        return 500, error("internal error (logged on the server)", 500)


def serve_forever(conn, memory_mb: int, nice: int = 0) -> None:
    """Main loop of a solver process: jobs from ``conn`` until it closes."""
    init_worker(memory_mb, nice)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            os._exit(0)        # the server went away
        conn.send(run_job(job))
