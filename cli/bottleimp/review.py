"""``scoundrel-solve imp review``: where did each player lose it — the double-dummy review of a round.

Thin: read the deal and the line, call the library (:func:`scoundrel_solver.bottleimp.review.review`;
``answers`` builds the JSON), print.
"""
from __future__ import annotations

import click

from scoundrel_solver.bottleimp.answers import review_json
from scoundrel_solver.bottleimp.engine import Budget
from scoundrel_solver.bottleimp.review import review
from scoundrel_solver.progress import ProgressLine

from ..options import MAX_NODES, Seconds, WholeNumber, json_option, progress_option
from ..output import print_json
from . import render
from .options import ImpOptions, imp_options, pretty_option
from .progress import search_reporter

REVIEW_HELP = """Where did I lose it: the double-dummy review of a round, card by card.

The line (setup steps and tricks, " | " between them, as imp replay reads it; a round
finished or stopped part-way) is laid open with every card known.  For each card A or B
played: the value before it (the margin A - B with perfect play from there, IMP-RULES
§8), the value after it, and what it lost its player (A aims high, B low; "-3": three
coins of margin), with the cards that kept the value.  Lopaka's cards are his rule's:
shown, never charged.  Then who won each trick, the scores and the margin at the end,
and each player's total loss (last line).

\b
The setup, where an exact value exists:
  Lopaka's exchange   the 11 x 11 matrix game of play-phase values, its equilibrium
                      value, the value of the pair passed, and each player's best pass
                      against the OTHER PLAYER'S ACTUAL pass, with what theirs lost there
  Glitzerhaus 'open'  the 2 x 2 open-stack game, the same figures
  Glitzerhaus s1, s2  in hindsight: each of the player's 72 (discard, pass) pairs
                      against the OTHER PLAYER'S ACTUAL pair, valued at s2 by the
                      open-stack game that follows (its exact value), at s1 with the
                      rest of the setup as played; the best pairs and the loss
                      (--no-stacks: listed as not analysed, no value made up)

Each value is an exact search (a whole Lopaka round: 3-10 s, nearly all of it the
exchange's 121 solves; a Glitzerhaus round: under 5 s without its stack steps, which
take some hundreds of searches each: a minute or more).
--timeout / --max-nodes stop the searches: the figures they stopped are then the bounds
proven, marked NOT exact (JSON: "exact": false).  An illegal line is one error line
(exit 2).

\b
Examples:
  scoundrel-solve imp review --seed 42 --line "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22"
  scoundrel-solve imp review --seed 42 --line "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8 | 33 11 14 | 35 16 27 | 36 6 15 | 10 13 5 | 3 4 1" --json
  scoundrel-solve imp review --variant glitzerhaus --seed 0 --line "s1 5/3 4/2 | s2 7/1 10/8 | open 2 1 | 24 6 32 27 | 12 18 25 22" --no-stacks
  scoundrel-solve imp review --seed 2 --line "pass 1 25" --timeout 1
"""


@click.command("review", help=REVIEW_HELP)
@imp_options
@click.option("--line", default="", metavar="LINE",
              help='The round played: setup steps and tricks separated by " | ".')
@click.option("--max-nodes", type=WholeNumber(1, MAX_NODES, "the search counts nodes in 64 bits"), default=None,
              metavar="N",
              help="Stop after about N nodes in all; the figures not finished are then bounds (NOT exact).")
@click.option("--timeout", type=Seconds(), default=None, metavar="SECONDS",
              help="Stop after this many seconds; the figures not finished are then bounds (NOT exact).")
@click.option("--workers", type=WholeNumber(1, 64), default=None, metavar="N",
              help="Processes for the exchange's matrix game [default: 2, or the cores if fewer]; 1: this one.")
@click.option("--stacks/--no-stacks", default=True, show_default=True,
              help="Review Glitzerhaus's stack steps s1 and s2 in hindsight (some hundreds of searches each).")
@json_option
@pretty_option
@progress_option
def review_command(game: ImpOptions, line, max_nodes, timeout, workers, stacks, as_json, pretty, progress):
    chosen = game.game()
    with ProgressLine(enabled=progress) as shown:
        reviewed = review(chosen, line, Budget(max_nodes or 0, timeout), workers=workers, progress=search_reporter(shown),
                          stacks=stacks)
    if as_json:
        print_json(review_json(reviewed, chosen.seed, {k: list(v) for k, v in chosen.blocks.items()}))
        return
    for text in render.review_lines(reviewed, render.title(chosen), pretty):
        click.echo(text)
