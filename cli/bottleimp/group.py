"""``scoundrel-solve imp``: The Bottle Imp's commands (deal, replay, value, solve, hint, review, play, match, puzzle, daily).

Thin, as the Scoundrel commands are: parse the options, call the library
(:mod:`scoundrel_solver.bottleimp`, whose ``answers`` build every JSON answer),
print.  Bad input is one ``error:`` line and exit 2 (``cli/main.py`` turns every
:class:`InputError` into that).
"""
from __future__ import annotations

import click

from scoundrel_solver.bottleimp import format_line, line_of, parse_line, replay
from scoundrel_solver.bottleimp.answers import deal_answer, replay_answer, replay_position_answer, value_answer

from ..options import json_option, usage_error
from ..output import print_json
from . import render
from .options import ImpOptions, imp_options, pretty_option, read_position
from .match import match_command
from .play import play_command
from .puzzle import daily_command, puzzle_command
from .review import review_command
from .solve import hint_command, solve_command
from .stats import imp_stats_command

IMP_HELP = """The Bottle Imp (Der Flaschenteufel): exact values, hints, reviews, puzzles, a game.

Günter Cornett's trick-taking game, above all its two-player variants: Lopaka (a
dummy third player who follows a fixed rule) and Glitzerhaus (each player holds an
open and a hidden hand); also the base game for 3 or 4 players.  Rules, notation and
positions: docs/bottleimp.md.

\b
Examples:
  scoundrel-solve imp deal --variant lopaka --seed 42
  scoundrel-solve imp replay --variant lopaka --seed 42 --line "pass 1 18 | 36 37 31" --steps
  scoundrel-solve imp replay --variant glitzerhaus --seed 0 --line "s1 3/17 33/6" --json
  scoundrel-solve imp play --variant lopaka --seed 42
  scoundrel-solve imp play --variant lopaka --seed 42 --rounds 4
  scoundrel-solve imp match --seed 42 --rounds 4
  scoundrel-solve imp solve --seed 42 --moves "pass 1 18"
  scoundrel-solve imp hint --seed 42 --moves "pass 1 18" --explain 36
  scoundrel-solve imp hint --table --seed 42 --moves "pass 1 18 | 36 37 31 | 32" --time 1
  scoundrel-solve imp review --seed 42 --line "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22"
  scoundrel-solve imp puzzle --tricks-left 3 --reveal
  scoundrel-solve imp daily --variant glitzerhaus
  scoundrel-solve imp value --seed 42 --line "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8"
"""

DEAL_HELP = """Print a deal: every hand (sorted), Lopaka's hand, the devil's trick.

The deal number fixes the cards forever (IMP-RULES §5); --json prints the deal
object with each block in deal order.  --deal checks hands given by hand: the blocks
in order separated by "/" (Lopaka: A / L / B / devil; Glitzerhaus: A1 / A2 / B1 / B2;
base: the seats), or all 36 cards in one list, cut as a numbered deal.

\b
Examples:
  scoundrel-solve imp deal --variant lopaka --seed 42
  scoundrel-solve imp deal --variant glitzerhaus --seed 0 --json
  scoundrel-solve imp deal --variant base --players 4 --seed 7 --cards matagot --pretty
"""

REPLAY_HELP = """Play a line from the deal and show where it leads.

The line is in the notation of docs/bottleimp.md: setup steps first, then tricks,
separated by " | "; Lopaka's cards are written out and checked against his rule.
The last trick may stop part-way; a line from a --position inside a trick starts with
the rest of that trick.  Prints the line as the notation writes it, with
--steps trick by trick (price, bottle, winner), then the position, or the scores
and the margin A - B once the round is over.  --json: the tricks and the position
(IMP-RULES §7) as one object.

\b
Examples:
  scoundrel-solve imp replay --variant lopaka --seed 42 --line "pass 1 18 | 36 37 31 | 32 13 34" --steps
  scoundrel-solve imp replay --variant glitzerhaus --seed 0 --line "s1 3/17 33/6 | s2 1/28 36/37 | open 2 1" --json
  scoundrel-solve imp replay --variant base --seed 3 --line ""
  scoundrel-solve imp replay --seed 42 --line "pass 1 18 | 36" --json > mid.json
  scoundrel-solve imp replay --position mid.json --line "37 31 | 32" --steps
"""


@click.group("imp", help=IMP_HELP, short_help="The Bottle Imp: exact values, hints, play (its commands).",
             invoke_without_command=True)
@click.pass_context
def imp_group(ctx: click.Context):
    if ctx.invoked_subcommand is None:      # the help, as the root command without options
        click.echo(ctx.get_help())
        ctx.exit(0)


@imp_group.command("deal", help=DEAL_HELP)
@imp_options
@json_option
@pretty_option
def deal_command(game: ImpOptions, as_json, pretty):
    chosen = game.game()
    if as_json:
        print_json(deal_answer(chosen))
        return
    for text in render.deal_lines(chosen, pretty):
        click.echo(text)


@imp_group.command("replay", help=REPLAY_HELP)
@imp_options
@click.option("--line", default="", metavar="LINE", help='Setup steps and tricks separated by " | ".')
@click.option("--position", "position_file", type=click.File("rb"), default=None, metavar="FILE",
              help="Start from this position (IMP-RULES §7 JSON, or a replay/value --json answer; - for "
                   "stdin) instead of a deal: the line continues it.")
@click.option("--steps", is_flag=True, help="Also tell the line step by step, trick by trick.")
@json_option
@pretty_option
def replay_command(game: ImpOptions, line: str, position_file, steps: bool, as_json, pretty):
    if position_file is not None:
        if game.seed is not None or game.deal is not None:
            raise usage_error("--position is where the line starts: drop --seed and --deal")
        start, title = read_position(position_file), None
        if as_json:
            print_json(replay_position_answer(start, line))
            return
    else:
        chosen = game.game()
        if as_json:
            print_json(replay_answer(chosen, line))
            return
        start, title = chosen.start(), render.title(chosen)
    rules = start.rules
    segments = parse_line(line, rules)
    states = replay(start, segments)
    actions = [a for s in segments for a in s]
    click.echo(title or render.position_title(rules))
    click.echo("Line: " + (format_line(line_of(start, actions), rules.table, pretty) or "(no moves)"))
    if steps and actions:
        click.echo()
        for text in render.narrate(states, actions, pretty):
            click.echo(text)
    click.echo()
    for text in render.position_lines(states[-1], pretty):
        click.echo(text)


VALUE_HELP = """The double-dummy value of an endgame (IMP-RULES §8), by the reference solver.

Every hand and the devil's trick known, A maximising the margin A - B, B minimising
it, Lopaka playing his rule: the value of the position after --line (or of the
position in --position FILE, JSON of IMP-RULES §7; - reads standard input), the value
of each legal card, and an optimal line to the end (ties: the lowest card).  The
solver is the plain pure-Python minimax, the specification of the fast core to come:
it takes endgames of at most 18 cards in hand (6 tricks of Lopaka, 4 of Glitzerhaus).

\b
Examples:
  scoundrel-solve imp value --seed 42 --line "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8"
  scoundrel-solve imp value --variant glitzerhaus --seed 7 --json --line "s1 6/3 15/8 | s2 5/2 4/1 | open 1 1 | 20 24 25 27 | 22 23 28 18 | 21 31 33 26 | 29 35 37 14 | 17 34 30 16"
"""



@imp_group.command("value", help=VALUE_HELP)
@imp_options
@click.option("--line", default="", metavar="LINE", help='Setup steps and tricks from the deal, " | " between them.')
@click.option("--position", "position_file", type=click.File("rb"), default=None, metavar="FILE",
              help="A position in the JSON form of IMP-RULES §7 (or a replay/value --json answer) instead "
                   "of a deal and a line (- for stdin).")
@json_option
@pretty_option
def value_command(game: ImpOptions, line: str, position_file, as_json, pretty):
    if position_file is not None:
        if game.seed is not None or game.deal is not None or line:
            raise usage_error("--position is the whole position: drop --seed, --deal and --line")
        state = read_position(position_file)
    else:
        chosen = game.game()
        state = replay(chosen.start(), parse_line(line, chosen.rules))[-1]
    answer = value_answer(state)
    if as_json:
        print_json(answer)
        return
    table = state.rules.table
    for text in render.position_lines(state, pretty):
        click.echo(text)
    click.echo()
    click.echo(f"Value (margin A {render.MINUS} B, double dummy): {render.signed(answer['value'])}")
    if answer["actions"]:
        who = render.seat_name(state.rules, answer["to_play"])
        aim = "highest" if answer["to_play"] == "A" else "lowest"
        forced = " (his rule)" if state.lopaka_to_play else f" (aims for the {aim})"
        click.echo(f"{who} to play{forced}:")
        for action in answer["actions"]:
            click.echo(f"  {render.cards([action['card']], table, pretty):>4}  {render.signed(action['value'])}")
        click.echo("Optimal line: " + answer["line"])


imp_group.add_command(play_command)
imp_group.add_command(match_command)
imp_group.add_command(solve_command)
imp_group.add_command(hint_command)
imp_group.add_command(review_command)
imp_group.add_command(puzzle_command)
imp_group.add_command(daily_command)
imp_group.add_command(imp_stats_command)
