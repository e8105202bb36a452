"""``scoundrel-solve daily``: the daily challenge of a date.

The deal is chosen by :mod:`solver.daily` (method and stability promise:
docs/daily.md); this module parses and prints.
"""
from __future__ import annotations

import datetime

import click

from scoundrel_solver import Rules, format_line
from scoundrel_solver.scoundrel import answers
from scoundrel_solver.scoundrel.daily import METHODS, daily_challenge, parse_date
from scoundrel_solver.progress import ProgressLine
from scoundrel_solver.scoundrel.rating import LABEL_NAMES

from ..options import MAX_JOBS, OneOf, WholeNumber, json_option, progress_option
from ..output import print_json
from . import render
from .options import Game, GameChoice, pretty_option, rule_options

DAILY_HELP = """The daily challenge: the same winnable deal for everyone on a date.

The deal follows from the date, the rule flags and --difficulty alone (a
fixed, versioned method: docs/daily.md), so it is the same on every run and
every machine, forever: each date has one method in force (v1 until
2026-12-31, v2 in January 2027, v3 from 2027-02-01; --method asks for
another).  An exact
solve proves it winnable; its rating and
proven optimal score are shown, the solution only with --reveal.  Without
--date it is today's challenge, today being the date in UTC.

\b
Examples:
  scoundrel-solve daily                                today's solo challenge
  scoundrel-solve daily --date 2026-01-01 --difficulty hard
  scoundrel-solve daily --date 2026-01-01 --reveal     with the solution, room by room
  scoundrel-solve daily --date 2026-01-01 --json
  scoundrel-solve daily --mode coop                    co-op: exact solves can take minutes
  scoundrel-solve daily --mode coop --difficulty hard --jobs 2
                                                       co-op rated: often minutes

\b
JSON keys: type, id, date, seed, deck, rules, rating, score, won, method,
candidate, and line with --reveal (docs/json.md).  Exit status: 0 done, 2 bad
input, 3 search engine missing.
"""


def today_utc() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()


def play_flags(rules: Rules) -> str:
    """The rule flags that select ``rules`` on a command line (defaults left out)."""
    default = Rules(mode=rules.mode)
    flags = []
    if rules.coop:
        flags.append("--mode coop")
        if rules.deck_size != default.deck_size:
            flags.append(f"--deck-size {rules.deck_size}")
    elif rules.flee != default.flee:
        flags.append(f"--flee {rules.flee}")
    if rules.durability != default.durability:
        flags.append(f"--durability {rules.durability}")
    return "".join(" " + f for f in flags)


class _CandidateProgress:
    """The progress line of the daily's search: the candidate being analysed,
    and (with one job) what its analysis is doing."""

    def __init__(self, line: ProgressLine):
        self.line = line
        self.k = 0

    def candidate(self, k, seed) -> None:
        self.k = k
        self.line.show(f"daily: candidate {k + 1} (deal {seed}) ...")

    def search(self, what, bounds=True):
        return self.line.search(f"daily: candidate {self.k + 1}, {what}", bounds)


@click.command("daily", help=DAILY_HELP, short_help="The daily challenge: one winnable deal a day.")
@click.option("--date", "when", metavar="YYYY-MM-DD", default=None,
              help="The day of the challenge.  [default: today, in UTC]")
@rule_options
@click.option("--difficulty", type=OneOf(LABEL_NAMES[:-1]), default=None,
              help="The challenge of that label instead of the first winnable deal.")
@click.option("--reveal", is_flag=True, help="Also print the solution: an optimal line, room by room.")
@click.option("--jobs", type=WholeNumber(1, MAX_JOBS), default=1, show_default=True, metavar="K",
              help="Analyse candidates in K processes: the same challenge, sooner (co-op).")
@click.option("--method", type=OneOf(METHODS), default=None,
              help="The daily of this method version.  [default: the one in force on the date: "
                   "v1 until 2026-12-31, v2 in January 2027, v3 from 2027-02-01]")
@json_option
@pretty_option
@progress_option
def daily_command(when, difficulty, reveal, jobs, method, as_json, pretty, progress, **rule_flags):
    date = parse_date(when) if when is not None else today_utc()
    rules = GameChoice(**rule_flags).rules()
    with ProgressLine(enabled=progress) as line:
        told = _CandidateProgress(line)
        challenge = daily_challenge(date, rules, difficulty, method=method, progress=told.candidate, jobs=jobs,
                                    search_progress=told.search)
        if reveal:
            # the line of fewest rooms (co-op: seconds): found here, with the progress line
            challenge.solution(progress=lambda moves: line.show(
                f"daily: the solution of fewest rooms, {moves} moves walked ..."))
    if as_json:
        print_json(answers.daily_json(challenge, reveal))
        return
    for text in daily_lines(challenge, reveal, pretty):
        click.echo(text)


def daily_lines(challenge, reveal: bool = False, pretty: bool = False) -> list:
    r = challenge.rating
    chosen = Game(challenge.rules, tuple(challenge.deck), challenge.seed)
    name = "co-op" if r.rules.coop else "solo"
    out = [f"Daily challenge {challenge.id}",
           render.deal_title(chosen),
           "Dungeon (top first): " + render.cards_text(chosen.deck, pretty),
           "",
           f"Winnable, proven optimal score {r.score}"]
    if r.label is not None and r.difficulty is not None:
        out.append(f"Difficulty: {r.label}, harder than {r.difficulty:.0f}% of winnable {name} deals "
                   f"(method {challenge.method} calibration)")
        if r.undecided:
            out.append(f"  ({r.undecided} win check(s) stopped at their node limit and were counted as "
                       f"losing, so the label is approximate)")
    else:
        out.append(f"Difficulty: not rated (no calibration for {name} in method "
                   f"{challenge.method})")
    out.append(f"Play it: scoundrel-solve play --seed {challenge.seed}{play_flags(challenge.rules)}")
    if not reveal:
        out.append("The solution: the same command with --reveal.")
        return out
    out += ["", "Line: " + format_line(challenge.line), ""]
    out += render.narrate(chosen.start(), challenge.line, pretty)
    return out
