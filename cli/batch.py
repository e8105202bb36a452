"""A batch of deals run from the command line, for any game's ``stats``: the header and the
progress bar on stderr, and what Ctrl-C, a worker's death or a full disk leave kept.

The work is the library's (:mod:`scoundrel_solver.batch`: results file, lock, resume, the
backends); each game's ``stats`` command gives its settings, results file and summary.
"""
from __future__ import annotations

import sys
import time

import click

from scoundrel_solver import batch

from .exits import EXIT_INTERRUPTED


def run_batch(wanted, rules, settings, results_file, summarise, *, backend, jobs, address, out, resume, overwrite,
              quiet, verb="solve"):
    """Run the deals ``wanted`` not yet in ``out`` on the backend, with the header and the progress
    bar on stderr, and return ``summarise(records, rules, wanted)``: any game's ``stats`` command
    (``results_file``: the game's :class:`batch.ResultsFile` subclass).  Ctrl-C exits 130 and a
    worker's death or a full disk exits 1, each saying what is kept."""
    runner = batch.make_backend(backend, jobs, address)
    results = None
    try:
        results = results_file(out, rules, resume=resume, overwrite=overwrite)
        with results:
            done = results.done()
            todo = sum(1 for s in wanted if s not in done)
            if not quiet:
                kept = f", {len(wanted) - todo} already in {out}" if resume else ""
                click.echo(f"{rules.describe()}: seeds {seeds_label(wanted)} ({len(wanted):,} deals){kept}; "
                           f"{todo:,} to {verb} on {runner.describe()}", err=True)
            warn_unreadable(out, results.unreadable)
            _solve_with_progress(wanted, settings, results, runner, todo, quiet)
            return summarise(results.records.values(), rules, wanted)
    except KeyboardInterrupt:
        click.echo(f"interrupted: {_progress_note(results, wanted, out)}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except (batch.WorkerDied, batch.WriteFault, batch.RunFailed) as exc:
        # Not the user's input: exit 1, with what is kept (every line written is whole).
        note = _progress_note(results, wanted, out, unwritable=isinstance(exc, batch.WriteFault))
        raise click.ClickException(f"{exc}; {note}") from None


def _progress_note(results, wanted, out, unwritable=False) -> str:
    """``N of M deals done; results kept in FILE, rerun with --resume``; of a file that
    cannot be written (``unwritable``), only what it really holds."""
    have = sum(1 for s in wanted if s in results.done()) if results is not None else 0
    if not out:
        where = " (no --out file: nothing kept)"
    elif unwritable and not have:
        where = f"; nothing was written to {out}"
    else:
        where = f"; results kept in {out}, rerun with --resume" + (" once it can be written" if unwritable else "")
    return f"{have:,} of {len(wanted):,} deals done{where}"


def _solve_with_progress(wanted, settings, results, runner, todo, quiet) -> None:
    start = time.monotonic()
    count = 0

    def rate(record):
        elapsed = time.monotonic() - start
        return f"{count / elapsed:,.1f} deals/s" if record is not None and elapsed > 0 else None

    bar = click.progressbar(length=todo, label="solving", file=sys.stderr,
                            show_pos=True, show_eta=True, item_show_func=rate, hidden=quiet or todo == 0)
    with bar:
        deals = batch.run(wanted, settings, results, runner)
        try:
            for record in deals:
                count += 1
                bar.update(1, record)
        finally:
            deals.close()


def warn_unreadable(path, lines) -> None:
    if lines:
        shown = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
        click.echo(f"warning: {path}: {len(lines)} unreadable line(s) skipped (line {shown}): "
                   "a write cut short by a kill", err=True)


def seeds_label(seeds) -> str:
    return ranges_label({"ranges": batch.seeds_text(seeds), "first": seeds[0], "last": seeds[-1]})


def ranges_label(seeds: dict) -> str:
    text = seeds["ranges"]
    return text if len(text) <= 40 else f"{seeds['first']}-{seeds['last']} (with gaps)"
