"""``scoundrel-solve rate``: how hard a deal is, from its exact analysis.

The work is done by :mod:`solver.rating`; this module parses and prints.
"""
from __future__ import annotations

import sys

import click

from scoundrel_solver import Rules
from scoundrel_solver.progress import ProgressLine
from scoundrel_solver.scoundrel import answers
from scoundrel_solver.scoundrel.rating import CALIBRATION_TARGET, Rating, calibration

from ..options import json_option, progress_option
from ..output import print_json
from . import render
from .options import GameChoice, game_options, search_options, threads_option

RATE_HELP = """Rate how hard a deal is: easy, medium, hard, expert, or unwinnable.

The rating comes from an exact analysis, not from counting cards: the deal is
solved, the optimal line is walked and every decision on it checked (how many
leave a single move that keeps the win), the first move's choices are
checked, the optimal score gives the margin, and a simple greedy player who
cannot see the order plays it too.  The features are combined into a
difficulty percentile against a calibration set of numbered deals, and the
percentile into a label.  docs/difficulty.md explains the score.

\b
Examples:
  scoundrel-solve rate --seed 42
  scoundrel-solve rate --seed 42 --json
  scoundrel-solve rate --seed 14                  an unwinnable deal
  scoundrel-solve rate --deck "5D 3S 4H 9C 2D 7S"

\b
Exit status: 0 done (an unwinnable deal included), 2 bad input, 3 search
engine missing.
"""


@click.command("rate", help=RATE_HELP, short_help="How hard a deal is, from exact analysis.")
@game_options
@json_option
@search_options
@threads_option
@progress_option
def rate_command(game: GameChoice, as_json, max_nodes, timeout, tt_mb, threads, progress):
    chosen = game.game()
    if chosen.rules.coop and not as_json and sys.stderr.isatty():
        click.echo("rating a co-op deal: its exact solve and win checks can take minutes ...", err=True)
    with ProgressLine(enabled=progress) as line:
        rating = answers.rated(chosen, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, threads=threads,
                               progress=line)
    if as_json:
        print_json(answers.rate_json(rating))
        return
    click.echo(render.deal_title(chosen))
    for text in rating_lines(rating, custom=chosen.seed is None):
        click.echo(text)


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def verdict_line(r: Rating) -> str:
    if not r.exact:
        return "NOT PROVEN: a search limit stopped the solve, so the deal is not rated"
    if r.won:
        return f"WIN, proven optimal score {r.score}"
    return f"LOSS, proven: the deal cannot be won; best score {render.signed(r.score)}"


def calibration_note(r: Rating, custom: bool = False) -> list:
    """What the percentile is measured against, or why there is none."""
    mode = "coop" if r.rules.coop else "solo"
    name = "co-op" if r.rules.coop else "solo"
    table = calibration().get(mode)
    if not table:
        return [f"Difficulty: no calibration for {name} yet: features only"]
    out = []
    if r.label is not None and r.difficulty is not None:
        out.append(f"Difficulty: {r.label}, harder than {r.difficulty:.0f}% of the "
                   f"{table['winnable']:,} winnable {name} deals in the calibration")
    elif r.label is not None:
        out.append(f"Difficulty: {r.label}")
    if table.get("provisional"):
        out.append(f"  (provisional: the {name} calibration holds {table['deals']:,} of the "
                   f"{CALIBRATION_TARGET:,} deals planned, so labels may still shift)")
    if r.rules != Rules(mode=r.rules.mode):
        out.append(f"  (calibrated on {Rules(mode=r.rules.mode).describe()}; other rules are rated "
                   f"against that table)")
    if custom:
        out.append("  (the calibration holds whole numbered deals; a custom dungeon is rated against them)")
    return out


def feature_lines(r: Rating) -> list:
    """Each feature of the rating in words, one line each."""
    best = 40 if r.rules.coop else 30
    out = []
    if r.exact and r.won:
        out.append(f"critical decisions: {r.critical} of {r.decisions} along the optimal line "
                   f"(only one kind of move keeps the win)")
        if r.decisions:
            out.append(f"losing moves at a decision: {_percent(r.features['narrowness'])} on average")
        if r.first_choices:
            out.append(f"first moves that still win: {r.first_winning} of {r.first_choices}")
        else:
            out.append("first moves that still win: the first move is forced")
        out.append(f"margin: score {r.score} of {best}")
    if r.greedy_won:
        out.append(f"greedy player: wins, score {r.greedy_score}")
    elif r.greedy_won is not None:
        out.append(f"greedy player: dies with {_percent(r.greedy_left)} of the monsters' value left "
                   f"(score {render.signed(r.greedy_score)})")
    out.append(f"{'proof' if r.exact else 'search'}: {render.count(r.nodes, 'node')} (analysis {r.seconds:.2f} s)")
    if r.undecided:
        out.append(f"note: {render.count(r.undecided, 'win check')} stopped at their node limit and "
                   f"{'was' if r.undecided == 1 else 'were'} counted as losing")
    return out


def rating_lines(r: Rating, custom: bool = False) -> list:
    """The whole rating for people: verdict, label and percentile, features."""
    out = [verdict_line(r)]
    if r.exact:
        if r.won:
            out += calibration_note(r, custom)
        else:
            out.append("Difficulty: unwinnable (no line of play clears the dungeon)")
    out += ["  " + text for text in feature_lines(r)]
    return out
