"""``scoundrel-solve imp puzzle`` and ``imp daily``: double-dummy puzzles of the Bottle Imp.

Thin: check the options, call the library (:mod:`scoundrel_solver.bottleimp.puzzle`;
``answers`` builds the JSON), print.
"""
from __future__ import annotations

import datetime

import click

from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.answers import daily_answer, puzzles_answer
from scoundrel_solver.bottleimp.notation import format_line, line_of
from scoundrel_solver.bottleimp.puzzle import METHODS, daily_puzzle, find_puzzles
from scoundrel_solver.bottleimp.rules import CARD_TABLES
from scoundrel_solver.shuffle import check_seed
from scoundrel_solver.values import calendar_date

from ..options import OneOf, WholeNumber, json_option
from ..output import print_json
from . import render
from .options import pretty_option

MAX_COUNT = 100

PUZZLE_HELP = """Double-dummy puzzles: positions where exactly one card keeps the value.

From deal number --seed on, a stream of random legal choices (seeded by the deal
number) plays each deal to the first turn of A or B with --tricks-left tricks left;
the position is a puzzle when, of at least two legal cards, exactly one keeps the
double-dummy value (IMP-RULES §8: every card known, both players perfect, Lopaka
playing his rule).  Each puzzle is rated: its legal cards, how many lose and how much
(a small loss is a subtle trap), the tricks left (the depth the solution needs), and
whether the greedy bot finds it; stars (1-5) sum that up.  The method has a version
(v1) in every id, so a puzzle never changes.  --reveal adds the solution, every card's
value and loss, and an optimal line from the position.

\b
Examples:
  scoundrel-solve imp puzzle --tricks-left 3
  scoundrel-solve imp puzzle --variant glitzerhaus --tricks-left 4 --seed 100 --count 3
  scoundrel-solve imp puzzle --tricks-left 5 --reveal
  scoundrel-solve imp puzzle --tricks-left 3 --count 2 --json
"""

DAILY_HELP = """The daily puzzle: one double-dummy puzzle per date and variant, the same for everyone.

The deal and the choices that lead to the position follow from the date, the variant,
the card table and the method alone (SHA-256 of imp-daily/v1/DATE/VARIANT-CARDS/k),
never from search effort or the machine: the same puzzle on every run, forever.  The
tricks left grow over the week: Monday and Tuesday 3, Wednesday and Thursday 4,
Friday and Saturday 5, Sunday 6.  Without --date it is today's, today being the date in
UTC.  --reveal adds the solution, every card's value and loss, and an optimal line.

\b
Examples:
  scoundrel-solve imp daily
  scoundrel-solve imp daily --date 2026-12-07 --variant glitzerhaus
  scoundrel-solve imp daily --date 2026-12-13 --reveal
  scoundrel-solve imp daily --date 2026-12-07 --json
"""


def today_utc() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()


def _game_options(f):
    decorators = [
        click.option("--variant", type=OneOf(["lopaka", "glitzerhaus"]), default="lopaka", show_default=True,
                     help="lopaka or glitzerhaus (the base game has no double-dummy value here)."),
        click.option("--cards", type=OneOf(CARD_TABLES), default="classic", show_default=True,
                     help="Card table: classic (126 coins) or matagot (127 coins)."),
        click.option("--reveal", is_flag=True, help="Also the solution, every card's value and loss, and an optimal "
                                                    "line from the position."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


@click.command("puzzle", help=PUZZLE_HELP)
@_game_options
@click.option("--tricks-left", "tricks_left", type=WholeNumber(2, 11), default=3, show_default=True, metavar="K",
              help="Tricks left to play in the position, the current one included (2-11 in Lopaka, 2-8 in "
                   "Glitzerhaus).")
@click.option("--seed", default="1", show_default=True, metavar="N", help="The first deal number tried.")
@click.option("--count", type=WholeNumber(1, MAX_COUNT), default=1, show_default=True, metavar="C",
              help=f"How many puzzles (at most {MAX_COUNT}).")
@json_option
@pretty_option
def puzzle_command(variant, cards, reveal, tricks_left, seed, count, as_json, pretty):
    rules = Rules(variant, None, cards)
    first = check_seed(seed, "--seed")
    puzzles = find_puzzles(rules, tricks_left, first, count)
    if as_json:
        print_json(puzzles_answer(puzzles, rules, tricks_left, first, count, reveal))
        return
    for i, p in enumerate(puzzles):
        if i:
            click.echo("")
        for text in puzzle_lines(p, reveal, pretty):
            click.echo(text)
    if len(puzzles) < count:
        click.echo("")
        click.echo(f"Only {len(puzzles)} of the {count} puzzles asked for among the deals tried.")


@click.command("daily", help=DAILY_HELP)
@_game_options
@click.option("--date", "when", metavar="YYYY-MM-DD", default=None, help="The date [default: today in UTC].")
@click.option("--method", type=OneOf(METHODS), default=None, help="The method version [default: v1, the only one].")
@json_option
@pretty_option
def daily_command(variant, cards, reveal, when, method, as_json, pretty):
    from scoundrel_solver.bottleimp.puzzle import PuzzleError
    rules = Rules(variant, None, cards)
    date = today_utc() if when is None else calendar_date(when, PuzzleError)
    p = daily_puzzle(date, rules, method)
    if as_json:
        print_json(daily_answer(p, date, reveal))
        return
    for text in puzzle_lines(p, reveal, pretty, date):
        click.echo(text)


def puzzle_lines(p, reveal: bool, pretty: bool = False, date=None) -> list:
    """A puzzle for people: its id and rating, the line to it, the position, the question; with
    ``reveal`` the solution, every card's value and loss, and the solution line."""
    rules = p.rules
    table = rules.table
    r = p.rating()
    head = f"Daily puzzle of {date.isoformat()}" if date is not None else "Puzzle"
    by = f"{r['smallest_loss']}" if r["smallest_loss"] == r["largest_loss"] else \
        f"{r['smallest_loss']} to {r['largest_loss']}"
    out = [f"{head}: {p.id}",
           render.title(deal(p.seed, rules)),
           f"Rating: {r['stars']} of 5 stars: {r['legal']} legal cards, {r['losers']} lose (by {by} "
           f"coin{'s' if r['largest_loss'] != 1 else ''}); {r['tricks_left']} tricks left to search; the greedy bot "
           f"{'finds' if r['greedy_finds_it'] else 'misses'} it.",
           "Line from the deal: " + format_line(line_of(p.start, list(p.actions)), table, pretty), ""]
    out += render.position_lines(p.position, pretty)
    out.append("")
    out.append("Question: " + p.question())
    if not reveal:
        out.append("(--reveal shows the solution.)")
        return out
    who = render.seat_name(rules, p.to_play)
    c = render.cards([p.solution], table, pretty)
    out.append(f"Solution: {c}, the only card that keeps the value {render.signed(p.value)} (margin A "
               f"{render.MINUS} B, double dummy).")
    out.append(f"Every card ({who} aims for the {'highest' if p.to_play == 'A' else 'lowest'} margin):")
    for card, value in sorted(p.card_values, key=lambda cv: (abs(cv[1] - p.value), cv[0])):
        loss = abs(value - p.value)
        note = "keeps the value" if card == p.solution else f"loses {loss} coin{'s' if loss != 1 else ''}"
        out.append(f"  {render.cards([card], table, pretty):>4}  {render.signed(value):>4}  {note}")
    out.append("Solution line: " + format_line(line_of(p.position, list(p.solution_line)), table, pretty))
    return out
