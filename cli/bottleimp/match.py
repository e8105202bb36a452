"""``scoundrel-solve imp match``: a match's rounds (deal numbers, dealers, seats) and its running score.

Thin: the match and the rounds played from the options, the library's answer
(:mod:`scoundrel_solver.bottleimp.match`; ``answers.match_answer`` builds the JSON), printed.
"""
from __future__ import annotations

import click

from scoundrel_solver.bottleimp.answers import match_answer
from scoundrel_solver.bottleimp.match import MAX_ROUNDS, match_of

from ..options import WholeNumber, json_option
from ..output import print_json
from . import render
from .options import ImpOptions, imp_options

MATCH_HELP = f"""A match: its rounds (each one's deal, dealer and seats) and the running score.

A match is several rounds, their number agreed before the first (--rounds, 1 to
{MAX_ROUNDS}).  The deal passes clockwise each round: in Lopaka and Glitzerhaus the two
players take turns to deal, so A and B swap every round (Lopaka moves to the new
dealer's right).  Player 1 is A in round 1 (left of the first dealer, player 2).
Round k of the match numbered --seed N plays deal number N + k - 1 (docs/bottleimp.md,
"Matches"), so any round can be replayed alone with imp replay --seed.

--lines gives the rounds played so far, " || " between rounds (each a finished
round's line, as imp replay reads it): their scores (IMP-RULES §2.7) are added up
for each player.  imp play --rounds N plays a match in the terminal.

\b
Examples:
  scoundrel-solve imp match --seed 42 --rounds 4
  scoundrel-solve imp match --variant glitzerhaus --seed 7 --rounds 2 --json
  scoundrel-solve imp match --seed 42 --rounds 2 --lines "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8 | 33 11 14 | 35 16 27 | 36 6 15 | 10 13 5 | 3 4 1"
"""


@click.command("match", help=MATCH_HELP)
@imp_options
@click.option("--rounds", type=WholeNumber(1, MAX_ROUNDS), required=True, metavar="N",
              help="The rounds agreed before the match.")
@click.option("--lines", default="", metavar="LINES",
              help='The rounds played so far, " || " between rounds (each a finished round\'s line).')
@json_option
def match_command(game: ImpOptions, rounds, lines, as_json):
    match = match_of(game.rules(), game.seed, rounds, game.deal is not None)
    if as_json:
        print_json(match_answer(match, lines))
        return
    results = match.played(lines)
    for k in range(1, rounds + 1):
        click.echo(render.match_round_line(match, k) + ("  (played)" if k <= len(results) else ""))
    if results:
        click.echo("")
        for text in render.match_score_lines(match, results):
            click.echo(text)
