"""``scoundrel-solve generate``: a catalogue of distinct winnable deals with ratings.

The deals are chosen by :mod:`solver.catalogue` (method: docs/daily.md);
this module handles the file, the progress and the interruption.
"""
from __future__ import annotations

import json
import os
import sys

import click

from scoundrel_solver import Rules
from scoundrel_solver.batch import sigint_deferred
from scoundrel_solver.catalogue import CatalogueError, DIFFICULTIES, check_difficulty, entry, generate, read_catalogue
from scoundrel_solver.deal import check_seed

from .options import GameOptions, rule_options
from .options import MAX_JOBS, MAX_SEED, WholeNumber

EXIT_INTERRUPTED = 130

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

\b
Exit status: 0 done, 2 bad input (an existing file without --resume, a
file of other rules, ...), 3 search engine missing, 130 interrupted.
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
    rules = GameOptions(**rule_flags).rules()
    start = check_seed(start_seed.strip())
    check_difficulty(rules, difficulty)
    kept = _existing(out, rules, difficulty, resume)
    seeds = [e["seed"] for e in kept if isinstance(e.get("seed"), int)]
    if seeds:   # deals are found in seed order: every seed up to the highest was decided
        start = max(start, max(seeds) + 1)
    if len(kept) >= count:
        click.echo(f"{out} already holds {len(kept):,} deals: nothing to do")
        return
    handle = _open(out)
    found, tried, why = len(kept), 0, {}
    bar = click.progressbar(length=count, label="generating", file=sys.stderr, show_pos=True,
                            item_show_func=lambda n: None if n is None else f"tried {n:,}", hidden=quiet)
    candidates = generate(rules, difficulty, start=start, known_decks=[e["deck"] for e in kept], jobs=jobs)
    try:
        with handle, bar:
            bar.update(found)
            for candidate in candidates:
                tried += 1
                if candidate.kept:
                    line = json.dumps(entry(candidate.rating)) + "\n"
                    with sigint_deferred():  # a line on disk is always counted in `found`
                        handle.write(line)
                        handle.flush()
                        found += 1
                    bar.update(1, tried)
                    if found >= count:
                        break
                else:
                    why[candidate.verdict] = why.get(candidate.verdict, 0) + 1
                    bar.update(0, tried)
    except KeyboardInterrupt:
        click.echo(f"interrupted: {out} holds {found:,} of {count:,} deals; rerun with --resume to carry on",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    finally:
        candidates.close()
    skipped = ", ".join(f"{n:,} {_VERDICTS[v]}" for v, n in sorted(why.items()))
    click.echo(f"{out}: {found:,} deals ({found - len(kept):,} new; {tried:,} tried"
               + (f": {skipped} skipped" if skipped else "") + ")")


_VERDICTS = {"unwinnable": "unwinnable", "unproven": "unproven", "other-label": "of other labels",
             "undecided": "with undecided win checks", "duplicate": "already in the file"}


def _existing(path, rules: Rules, difficulty, resume: bool) -> list:
    """The deals already in ``path`` (with --resume), after checking they fit these options."""
    if not resume:
        if os.path.isfile(path) and os.path.getsize(path) > 0:
            raise CatalogueError(f"{path} exists and is not empty: add --resume to add to it, "
                                 f"or choose another --out")
        return []
    if os.path.isdir(path):
        raise CatalogueError(f"{path} is a directory")
    try:
        entries, unreadable = read_catalogue(path)
    except OSError as exc:
        raise CatalogueError(f"cannot read {path}: {exc.strerror or exc}") from None
    if unreadable:
        shown = ", ".join(map(str, unreadable[:5])) + (", ..." if len(unreadable) > 5 else "")
        click.echo(f"warning: {path}: {len(unreadable)} unreadable line(s) skipped (line {shown})", err=True)
    other = [e for e in entries if e.get("rules") != rules.as_dict()]
    if other:
        raise CatalogueError(f"{path} holds deals of other rules ({_describe(other[0].get('rules'))}): "
                             f"give the same rule flags, or choose another --out")
    if difficulty is not None:
        labels = {(e.get("rating") or {}).get("label") for e in entries} - {difficulty}
        if labels:
            raise CatalogueError(f"{path} holds deals of other labels ({', '.join(sorted(map(str, labels)))}): "
                                 f"give the same --difficulty, or choose another --out")
    return entries


def _describe(rules) -> str:
    try:
        return Rules(**rules).describe()
    except (TypeError, ValueError):
        return repr(rules)


def _open(path):
    """Open for appending; a last line cut short by a kill is ended first, so new lines stay whole."""
    try:
        cut_short = False
        if os.path.isfile(path) and os.path.getsize(path) > 0:
            with open(path, "rb") as old:
                old.seek(-1, os.SEEK_END)
                cut_short = old.read(1) != b"\n"
        handle = open(path, "a", encoding="utf-8")
    except OSError as exc:
        raise CatalogueError(f"cannot write {path}: {exc.strerror or exc}") from None
    if cut_short:
        handle.write("\n")
    return handle
