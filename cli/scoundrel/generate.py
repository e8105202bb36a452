"""``scoundrel-solve generate``: a catalogue of distinct winnable deals with ratings.

The deals are chosen by :mod:`solver.catalogue` (method: docs/daily.md);
this module handles the file, the progress and the interruption.
"""
from __future__ import annotations

import json
import sys

import click

from scoundrel_solver import InputError, Rules
from scoundrel_solver.batch import AppendFile, WorkerDied, WriteFault, sigint_deferred
from scoundrel_solver.scoundrel.catalogue import (CatalogueError, DIFFICULTIES, check_difficulty, entry, generate, read_catalogue,
                                        read_catalogue_lines)
from scoundrel_solver.scoundrel.deal import check_seed

from ..exits import EXIT_INTERRUPTED
from ..options import MAX_JOBS, MAX_SEED, WholeNumber
from .options import GameChoice, rule_options


GENERATE_HELP = """Write N distinct winnable deals, each with its rating and a solution.

Numbered deals are tried in order from --start-seed upward; each is solved
exactly and rated, and a deal is kept when it is winnable, has the label of
--difficulty (if given; in co-op also with no win check stopped at its node
limit, so that the label is exact) and is not in the file yet.  Each kept deal is
appended to FILE.jsonl as one JSON line (id, seed, deck, rules, rating,
score, won, line) the moment it is found, so Ctrl-C (exit 130) keeps every
deal written.  --resume keeps the file's deals and carries on after the
highest seed in it until the file holds N deals.  Progress (found/tried)
goes to stderr.

\b
Examples:
  scoundrel-solve generate --count 100 --out deals.jsonl
  scoundrel-solve generate --count 20 --difficulty expert --out expert.jsonl
  scoundrel-solve generate --count 20 --mode coop --jobs 2 --out coop.jsonl
  scoundrel-solve generate --count 100 --out deals.jsonl --resume
  scoundrel-solve generate --count 50 --flee hard --start-seed 1000000 --out hard-flee.jsonl

One run at a time writes a catalogue: a second run on the same --out is
refused.

\b
Exit status: 0 done; 1 --out could not be written (a full disk: every deal
written is kept) or a worker process died; 2 bad input (an existing file without --resume, a file of
other rules or that is no catalogue, one that another run is writing, ...);
3 search engine missing; 130 interrupted.
"""


@click.command("generate", help=GENERATE_HELP, short_help="Write N distinct winnable deals with ratings.")
@click.option("--count", type=WholeNumber(1, MAX_SEED, "there are 2^64 numbered deals"), required=True,
              metavar="N", help="How many deals the file should hold.")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default=None,
              help="Keep only deals of this label.")
@rule_options
@click.option("--out", metavar="FILE.jsonl", required=True, help="The catalogue, one JSON line per deal.")
@click.option("--start-seed", metavar="S", default="1", show_default=True,
              help="The first deal number tried.")
@click.option("--resume", is_flag=True, help="Keep the deals in --out and add deals until it holds N.")
@click.option("--jobs", type=WholeNumber(1, MAX_JOBS), default=1, show_default=True, metavar="K",
              help="Rate candidates in K processes: the same file, sooner.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
def generate_command(count, difficulty, out, start_seed, resume, jobs, quiet, **rule_flags):
    rules = GameChoice(**rule_flags).rules()
    start = check_seed(start_seed.strip())
    check_difficulty(rules, difficulty)
    try:
        with AppendFile(out) as handle:   # locked: no other run writes this file meanwhile
            kept, torn = _existing(handle, out, rules, difficulty, resume)
            seeds = [e["seed"] for e in kept if "seed" in e]
            if seeds:   # deals are found in seed order: every seed up to the highest was decided
                start = max(start, max(seeds) + 1)
            if len(kept) >= count:
                click.echo(f"{out} already holds {len(kept):,} deals: nothing to do")
                return
            _warn_torn(out, torn)
            found, tried, why = _fill(handle, rules, difficulty, start, kept, count, jobs, quiet)
    except KeyboardInterrupt:
        click.echo(f"interrupted: {out} holds {_lines(out):,} of {count:,} deals; rerun with --resume to carry on",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    except (WriteFault, WorkerDied) as exc:
        # Not the user's input: exit 1; every deal written before is whole.
        raise click.ClickException(f"{exc}; {out} holds {_lines(out):,} of {count:,} deals, "
                                   "rerun with --resume to carry on") from None
    skipped = ", ".join(f"{n:,} {_VERDICTS[v]}" for v, n in sorted(why.items()))
    click.echo(f"{out}: {found:,} deals ({found - len(kept):,} new; {tried:,} tried"
               + (f": {skipped} skipped" if skipped else "") + ")")


def _fill(handle: AppendFile, rules, difficulty, start, kept, count, jobs, quiet) -> tuple:
    """Add deals to ``handle`` until it holds ``count``: ``(found, tried, why)``, the deals in the
    file, the candidates tried and how many were skipped for each verdict."""
    found, tried, why = len(kept), 0, {}
    bar = click.progressbar(length=count, label="generating", file=sys.stderr, show_pos=True,
                            item_show_func=lambda n: None if n is None else f"tried {n:,}", hidden=quiet)
    candidates = generate(rules, difficulty, start=start, known_decks=[e["deck"] for e in kept], jobs=jobs)
    try:
        with bar:
            bar.update(found)
            for candidate in candidates:
                tried += 1
                if candidate.kept:
                    line = (json.dumps(entry(candidate.rating, candidate.line)) + "\n").encode("utf-8")
                    with sigint_deferred():  # a line on disk is always counted in `found`
                        handle.write(line)
                        found += 1
                    bar.update(1, tried)
                    if found >= count:
                        break
                else:
                    why[candidate.verdict] = why.get(candidate.verdict, 0) + 1
                    bar.update(0, tried)
    finally:
        candidates.close()
    return found, tried, why


def _lines(path) -> int:
    """The deals in the file, counted as --resume will count them."""
    try:
        return len(read_catalogue(path)[0])
    except InputError:
        return 0


_VERDICTS = {"unwinnable": "unwinnable", "unproven": "unproven", "other-label": "of other labels",
             "undecided": "with undecided win checks", "duplicate": "already in the file"}


def _existing(handle: AppendFile, path, rules: Rules, difficulty, resume: bool) -> tuple:
    """``(deals, torn)``: the deals already in ``path`` (with --resume), after checking they
    fit these options, and the number of a line cut short by a kill (a list)."""
    if handle.size == 0:
        return [], []
    if not resume:
        raise CatalogueError(f"{path} exists and is not empty: add --resume to add to it, "
                             f"or choose another --out")
    found = read_catalogue_lines(path)
    entries = [e for _, e in found.items]
    for number, e in found.items:
        if e.get("rules") != rules.as_dict():
            raise CatalogueError(f"{path} holds deals of other rules ({_describe(e.get('rules'))}, line {number}): "
                                 f"give the same rule flags, or choose another --out")
    if difficulty is not None:
        labels = {(e.get("rating") or {}).get("label") for e in entries} - {difficulty}
        if labels:
            raise CatalogueError(f"{path} holds deals of other labels ({', '.join(sorted(map(str, labels)))}): "
                                 f"give the same --difficulty, or choose another --out")
    handle.mend(found)   # a line cut short by a kill is dropped: its deal is found again
    return entries, [] if found.torn is None else [found.torn]


def _warn_torn(path, torn) -> None:
    if torn:
        click.echo(f"warning: {path}: {len(torn)} unreadable line(s) skipped (line {torn[0]}): "
                   "a write cut short by a kill", err=True)


def _describe(rules) -> str:
    try:
        return Rules(**rules).describe()
    except (TypeError, ValueError):
        return repr(rules)
