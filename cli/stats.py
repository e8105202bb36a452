"""``scoundrel-solve stats``: solve a range of deals exactly and summarise them.

The work is done by :mod:`solver.batch`; this module parses, shows progress on
stderr and prints the summary on stdout.
"""
from __future__ import annotations

import json
import math
import sys
import time

import click

from scoundrel_solver import batch
from scoundrel_solver.scoundrel import stats
from scoundrel_solver.scoundrel.rules import Rules
from scoundrel_solver.scoundrel.search import default_engine, load_core

from . import render
from .options import GameChoice, json_option, rule_options, search_options, typed, usage_error
from .options import MAX_JOBS, WholeNumber
from .exits import EXIT_INTERRUPTED

RULE_PARAMS = ("mode", "flee", "durability", "deck_size")
HISTOGRAM_ROWS = 16
BAR_WIDTH = 40

STATS_HELP = """Solve every deal of a seed range exactly and summarise the results.

Prints the winnable fraction with its 95 % confidence interval (Wilson), the
mean optimal score with its interval, the score distribution, the deals whose
score a limit left unproven, and the time per deal.  Progress, rate and ETA go
to stderr.

With --out every deal's result is appended to FILE.jsonl as one JSON line the
moment it is solved: after Ctrl-C (or a crash) --resume solves only the seeds
missing from the file, and the summary is the same as that of a run that was
never stopped.

\b
Examples:
  scoundrel-solve stats --seeds 1-1000
  scoundrel-solve stats --seeds 1-1000 --jobs 2 --out solo.jsonl
  scoundrel-solve stats --seeds 1-1000 --jobs 2 --out solo.jsonl --resume
  scoundrel-solve stats --seeds 1-100 --mode coop --timeout 600 --out coop.jsonl
  scoundrel-solve stats --summary solo.jsonl --json
  scoundrel-solve stats --seeds 1-1000 --backend dask --jobs 2

\b
--backend dask or ray runs the deals on that engine (pip install
'scoundrel-solver[dask]' or '[ray]'): a local cluster of --jobs workers, or
the existing cluster at --address.  One run at a time writes a results file:
a second run on the same --out is refused.

\b
Exit status: 0 done; 1 a worker process died, --out could not be written (a
full disk: every line written is kept) or every deal failed; 2 bad input (also
a results file that is not one, or that another run is writing); 3 search
engine missing; 130 interrupted.
"""


@click.command("stats", help=STATS_HELP)
@click.option("--seeds", metavar="A-B", default=None,
              help="Deals to solve: A-B, N, or a comma list such as 1-100,250-300.")
@rule_options
@click.option("--jobs", type=WholeNumber(1, MAX_JOBS), default=1, show_default=True, metavar="K",
              help="Worker processes (or the workers of a local Dask/Ray cluster); each has its own table.")
@click.option("--backend", type=click.Choice(batch.BACKENDS), default="local", show_default=True,
              help="Where the deals run: processes on this machine, or a Dask or Ray cluster.")
@click.option("--address", metavar="ADDRESS", default=None,
              help="With --backend dask/ray: join this running cluster instead of starting a local one.")
@click.option("--out", metavar="FILE.jsonl", default=None,
              help="Append each deal's result to this file, one JSON line per deal.")
@click.option("--resume", is_flag=True, help="Keep the results in --out and solve only the seeds missing there.")
@click.option("--overwrite", is_flag=True, help="Empty --out first.")
@click.option("--summary", "summary_of", metavar="FILE.jsonl", default=None,
              help="Solve nothing: summarise the results in this file (of --seeds only, if given).")
@search_options
@json_option
@click.option("--win-only", is_flag=True,
              help="Only decide whether each deal is winnable (no scores): much faster, above all in co-op.")
@click.option("-q", "--quiet", is_flag=True, help="No header and no progress bar on stderr.")
@click.pass_context
def stats_command(ctx, seeds, jobs, backend, address, out, resume, overwrite, summary_of,
                  max_nodes, timeout, tt_mb, as_json, quiet, win_only, **rule_flags):
    game = GameChoice(**rule_flags)
    if summary_of is not None:
        given = [name for name in ("out", "resume", "overwrite", "jobs", "backend", "address",
                                   "max_nodes", "timeout", "tt_mb") if typed(ctx, name)]
        if given:
            raise usage_error(f"--summary solves nothing: leave out --{given[0].replace('_', '-')}")
        rules_typed = any(typed(ctx, name) for name in RULE_PARAMS)
        summary, source = _summary_of_file(summary_of, game.rules() if rules_typed else None, seeds)
        _print_summary(summary, as_json, source)
        return
    if seeds is None:
        raise usage_error("give the deals to solve with --seeds A-B (or --summary FILE.jsonl to read results)")
    wanted = batch.parse_seeds(seeds)
    rules = game.rules()
    engine = default_engine()
    if engine == "core":
        load_core()  # a missing core is one error, not one per deal
    settings = stats.Settings(rules, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, engine=engine,
                              win_only=win_only)
    summary = run_batch(wanted, rules, settings, stats.ResultsFile, stats.summarise,
                        backend=backend, jobs=jobs, address=address, out=out, resume=resume,
                        overwrite=overwrite, quiet=quiet)
    _print_summary(summary, as_json, out)


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
                click.echo(f"{rules.describe()}: seeds {_seeds_label(wanted)} ({len(wanted):,} deals){kept}; "
                           f"{todo:,} to {verb} on {runner.describe()}", err=True)
            _warn_unreadable(out, results.unreadable)
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


def _summary_of_file(path, rules, seeds):
    wanted = batch.parse_seeds(seeds) if seeds is not None else None
    summary, torn = stats.summarise_file(path, rules, wanted)
    _warn_unreadable(path, torn)
    return summary, path


def _warn_unreadable(path, lines) -> None:
    if lines:
        shown = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
        click.echo(f"warning: {path}: {len(lines)} unreadable line(s) skipped (line {shown}): "
                   "a write cut short by a kill", err=True)


# ------------------------------------------------------------------ output
def _print_summary(summary: dict, as_json: bool, source) -> None:
    if as_json:
        body = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in {"type": "stats", **summary}.items())
        click.echo("{\n" + body + "\n}")
        return
    for text in summary_lines(summary, source):
        click.echo(text)


def summary_lines(summary: dict, source=None) -> list:
    """The summary for people, one string per line."""
    rules = Rules(**summary["rules"])
    seeds, win, score, tm = summary["seeds"], summary["winnable"], summary["score"], summary["time"]
    span = f"seeds {_ranges_label(seeds)}" if seeds["requested"] else "no seeds"
    lines = [f"{rules.describe()}; {span}, {seeds['requested']:,} deals"]
    if seeds["missing"]:
        where = f" in {source}" if source else ""
        lines.append(f"Missing    {seeds['missing']:,} of {seeds['requested']:,} deals have no result{where}")
    if win["of"]:
        lo, hi = win["ci95"]
        lines.append(f"Winnable   {win['won']:,} of {win['of']:,} = {_pct(win['fraction'])}   "
                     f"95 % CI {_pct(lo)} – {_pct(hi)} (Wilson)")
        if score.get("deals", win["of"]):
            interval = (f" (95 % CI {score['ci95'][0]:.2f} – {score['ci95'][1]:.2f})" if score["ci95"] else "")
            over = f" over {score['deals']:,} deals with a score" if score.get("deals", win["of"]) != win["of"] else ""
            lines.append(f"Score      mean {score['mean']:.2f}{interval}, min {score['min']}, max {score['max']}{over}")
            lines.extend("  " + row for row in histogram_rows(score["histogram"]))
        else:
            lines.append("Score      none: winnability only (--win-only)")
    else:
        lines.append("Winnable   no deal solved exactly")
    bad = summary["not_exact"]
    if bad:
        lines.append(f"Not exact  {len(bad):,} deal{'s' if len(bad) != 1 else ''} not proven, "
                     f"left out of the figures above:")
        for b in bad[:20]:
            found = "" if b["score_found"] is None else (
                f", best found {b['score_found']}" + (" (a win: winnable)" if b["win_found"] else ""))
            lines.append(f"  seed {b['seed']}: {b['why']}{found}")
        if len(bad) > 20:
            lines.append(f"  ... and {len(bad) - 20:,} more")
        lines.append(f"Bounds     counting them, {win['at_least']:,} to {win['at_most']:,} "
                     f"of {win['deals']:,} deals are winnable")
    else:
        lines.append("Not exact  none: every result is proven")
    if tm["deals"]:
        lines.append(f"Time       median {_duration(tm['median_s'])}, p90 {_duration(tm['p90_s'])}, "
                     f"max {_duration(tm['max_s'])} per deal; {_duration(tm['total_s'])} in all, "
                     f"{tm['nodes']:,} nodes")
    return [render.signed_words(line) for line in lines]   # −3.50, as every other command writes it


def histogram_rows(histogram: dict) -> list:
    """Rows ``label  bar  count``, losses then wins, ascending.

    Each side is binned on its own into at most 16 rows; bins start at
    1 + k*width, so none mixes wins (score > 0) with losses.
    """
    counts = {int(k): v for k, v in histogram.items()}
    if not counts:
        return []
    top = None
    sides = []
    for side in ([s for s in counts if s <= 0], [s for s in counts if s > 0]):
        if not side:
            continue
        lo, hi = min(side), max(side)
        width = next(w for w in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
                     if _bin(hi, w) - _bin(lo, w) < HISTOGRAM_ROWS * w)
        bins = {b: 0 for b in range(_bin(lo, width), _bin(hi, width) + 1, width)}
        for s in side:
            bins[_bin(s, width)] += counts[s]
        sides.append((width, bins))
    top = max(n for _, bins in sides for n in bins.values())
    rows = []
    for width, bins in sides:
        for start, n in bins.items():
            label = str(start) if width == 1 else f"{start}..{start + width - 1}"
            bar = "#" * math.ceil(n / top * BAR_WIDTH) if n else ""
            rows.append(f"{label:>10}  {bar:<{BAR_WIDTH}}  {n:,}")
    return rows


def _bin(score: int, width: int) -> int:
    return (score - 1) // width * width + 1


def _pct(x: float) -> str:
    """A percentage to 0.1, with more digits near 0 and 100 % so a bound is never
    rounded onto them (99.997 %, not 100.0 %)."""
    text = f"{x * 100:.1f}"
    digits = 1
    while digits < 4 and 0 < x < 1 and float(text) in (0.0, 100.0):
        digits += 1
        text = f"{x * 100:.{digits}f}"
    return text + " %"


def _duration(seconds) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _seeds_label(seeds) -> str:
    return _ranges_label({"ranges": batch.seeds_text(seeds), "first": seeds[0], "last": seeds[-1]})


def _ranges_label(seeds: dict) -> str:
    text = seeds["ranges"]
    return text if len(text) <= 40 else f"{seeds['first']}-{seeds['last']} (with gaps)"
