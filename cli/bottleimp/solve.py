"""``scoundrel-solve imp solve`` and ``imp hint``: the double-dummy engine's answers.

Thin: read the position (a deal and ``--moves``, or ``--position``), call the library
(:mod:`scoundrel_solver.bottleimp.analysis`; ``answers`` builds the JSON), print.
"""
from __future__ import annotations

import click

from scoundrel_solver.bottleimp.analysis import DEFAULT_HINT_TIME, NoAnalysis, hint, solve
from scoundrel_solver.bottleimp.answers import explain_card_of, explained_card, hint_json, position_after, solve_json
from scoundrel_solver.bottleimp.bots import BOTS
from scoundrel_solver.bottleimp.engine import Budget
from scoundrel_solver.bottleimp.setuphint import MAX_SAMPLES, OPPONENT_MODELS
from scoundrel_solver.progress import ProgressLine

from ..options import MAX_NODES, OneOf, Seconds, WholeNumber, json_option, progress_option, usage_error
from ..output import print_json
from . import render
from .options import ImpOptions, imp_options, pretty_option, read_position
from .progress import search_reporter

SOLVE_HELP = """The double-dummy value of a deal or a position (IMP-RULES §8), by the engine.

Every hand and the devil's trick known, A maximising the margin A - B, B minimising
it, Lopaka playing his rule.  Prints the value, both players' scores and the bottle's
holder at the end of the principal line (ties: the lowest card), and the line: after
--moves, so that the moves, " | " and the line replay the round (inside a trick, the line
starts with the rest of it).

\b
What is solved:
  play phase          the value by the engine's search (Lopaka from trick 1: 5-300 ms)
  a whole Lopaka deal the exchange as an 11 x 11 matrix game of play-phase values,
                      solved exactly: its mixed equilibrium and value, the pure maximin
                      and minimax, then the line after the most likely pair of passes
                      (121 solves over --workers processes: 1-6 s); with --lazy
                      only the cells the equilibrium depends on, in one process:
                      the same value, equilibrium and line, the other cells bounds
  Glitzerhaus before  the 2 x 2 open-stack game of four play-phase values, exactly
    'open'
  Glitzerhaus before  NOT exact: the discard-and-pass steps not given are played by the
    s1 or s2          low-cards setup policy (pass the lowest, discard the next lowest),
                      then the exact open-stack game; the answer names the method

--max-nodes / --timeout stop the searches: the answer is then the bounds proven, marked
NOT PROVEN (JSON: "exact": false).  Bad input is one error line (exit 2).

\b
Examples:
  scoundrel-solve imp solve --seed 42 --moves "pass 1 18"
  scoundrel-solve imp solve --seed 42 --moves "pass 1 18 | 36" --json
  scoundrel-solve imp solve --seed 42
  scoundrel-solve imp solve --seed 42 --lazy
  scoundrel-solve imp solve --variant glitzerhaus --seed 0 --moves "s1 5/3 4/2 | s2 7/1 10/8"
  scoundrel-solve imp solve --variant glitzerhaus --seed 0
  scoundrel-solve imp solve --seed 2 --max-nodes 2000000
  scoundrel-solve imp replay --seed 42 --line "pass 1 18 | 36 37 31" --json > mid.json
  scoundrel-solve imp solve --position mid.json --moves "32"
"""

HINT_HELP = """Every legal card with its double-dummy margin A - B, best first (the deal known);
with --table, the hint at a real table (from what the player to move knows).

In the play phase: each legal card of the player to move and the value after it
(A aims for the highest, B for the lowest), exact within --time (default 2 s; 0: no
limit) or else the bounds proven.  In Lopaka's exchange and Glitzerhaus's open stacks
(both players choose at once): the matrix game and each pure choice of each player
with its expected margin against the opponent's equilibrium mix and what it guarantees
(the worst case).  Glitzerhaus's discard-and-pass steps have no hint with the deal
known (too many choices to solve exactly): give them in --moves, or ask --table.

--explain CARD: the optimal line after CARD beside the best card's, trick by trick, up
to the first trick where the margins so far part, with both values.

--table: the REAL-TABLE hint.  The player to move after --moves sees their own cards,
Lopaka's (or the open stacks), the cards played, what they passed and discarded, and
the suits the opponent has shown void in; every deal of the unseen cards that fits
(a "world": at most 286 in Lopaka) is solved double dummy within --time, and each
legal card is shown with its MEAN margin over the worlds, the share of worlds where it
is best, and its range.  That mean assumes both players could see every card from
there on: it is not what the card achieves (docs/bottleimp-solver.md).  --table FILE
reads the view from an imp-table-view file (or an imp hint --table --json answer);
--seat A|B checks whose turn it is; --explain CARD sets CARD beside the recommended
card world by world.  --against BOT adds what the recommended card ACHIEVES: each world
played out from it, the player by the table bot (8 worlds a move), the opponent by BOT,
Lopaka by his rule: the mean margin and its 95 % interval.  It is played once every world
is solved, with the time left (--time 0: over every world, which takes long early in a
round); it is only as good as the policies it names.

--table at a SETUP STEP (Lopaka's exchange; Glitzerhaus's s1, s2, open): the setup
hint of --seat (A unless given: the steps are simultaneous, either player may ask),
from what that seat knows.  Deals that fit it are drawn (seeded from the question),
every choice is valued on the same deals by exact double-dummy values, the
opponent's simultaneous choice and the later steps played by a named model
(--opponent low-cards or equilibrium); per choice the MEAN margin, its 95 %
interval, the share of deals where it is best and the deals.  The choices race:
the clearly worse drop out early.  --samples N draws N deals (the same answer on
every machine), else within --time (default 10 s at the exchange and the open
choice, 60 s at a stack step).  The mean is a
double-dummy figure under that model, not what the choice achieves.

\b
Examples:
  scoundrel-solve imp hint --seed 42 --moves "pass 1 18"
  scoundrel-solve imp hint --seed 42 --moves "pass 1 18" --explain 36
  scoundrel-solve imp hint --seed 42 --moves "pass 1 18 | 21 37" --json
  scoundrel-solve imp hint --seed 42 --time 0
  scoundrel-solve imp hint --variant glitzerhaus --seed 0 --moves "s1 5/3 4/2 | s2 7/1 10/8"
  scoundrel-solve imp hint --table --seed 42 --moves "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8"
  scoundrel-solve imp hint --table --seed 42 --moves "pass 1 18 | 36 37 31 | 32" --seat B --time 1
  scoundrel-solve imp hint --table --seed 42 --moves "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8" --json > view.json
  scoundrel-solve imp hint --table view.json --explain 33
  scoundrel-solve imp hint --table view.json --against greedy --time 0
  scoundrel-solve imp hint --table --seed 42 --seat B --samples 32
  scoundrel-solve imp hint --table --variant glitzerhaus --seed 7 --moves "s1 3/6 8/15 | s2 5/2 1/4" --samples 8
"""


def _position_options(f):
    decorators = [
        click.option("--moves", default="", metavar="LINE",
                     help='Moves to play first: setup steps and tricks, " | " between them (a line prefix).'),
        click.option("--position", "position_file", type=click.File("rb"), default=None, metavar="FILE",
                     help="Start from this position (IMP-RULES §7 JSON, or a replay/value --json answer; - for "
                          "stdin) instead of a deal: --moves continue it."),
        click.option("--workers", type=WholeNumber(1, 64), default=None, metavar="N",
                     help="Processes for a matrix game's solves [default: 2, or the cores if fewer]; 1: this one."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


def _start(game: ImpOptions, position_file):
    """``(start state, seed, blocks, title)`` from the deal options or ``--position`` (the
    base game refused first: it has no double-dummy value here)."""
    if position_file is not None:
        if game.seed is not None or game.deal is not None:
            raise usage_error("--position is where the moves start: drop --seed and --deal")
        start = read_position(position_file)
        out = start, None, None, render.position_title(start.rules)
    else:
        chosen = game.game()
        out = chosen.start(), chosen.seed, {k: list(v) for k, v in chosen.blocks.items()}, render.title(chosen)
    if not out[0].rules.two_player:
        raise NoAnalysis("the double-dummy value is defined for Lopaka and Glitzerhaus; the base game's is out of "
                         "scope (IMP-RULES §8)")
    return out


@click.command("solve", help=SOLVE_HELP)
@imp_options
@_position_options
@click.option("--max-nodes", type=WholeNumber(1, MAX_NODES, "the search counts nodes in 64 bits"), default=None,
              metavar="N", help="Stop after about N nodes in all (a matrix game shares them equally among its cells; "
                                "each search checks every 1,024 nodes); the answer is then marked NOT PROVEN.")
@click.option("--timeout", type=Seconds(), default=None, metavar="SECONDS",
              help="Stop after this many seconds; the answer is then marked NOT PROVEN.")
@click.option("--lazy", is_flag=True, default=False,
              help="Lopaka's exchange from only the cells its equilibrium depends on (one process): the same value, "
                   "equilibrium and line; the other cells are shown as bounds. Without --max-nodes/--timeout only.")
@json_option
@pretty_option
@progress_option
def solve_command(game: ImpOptions, moves, position_file, workers, max_nodes, timeout, lazy, as_json, pretty,
                  progress):
    start, seed, blocks, title = _start(game, position_file)
    state, moves_text = position_after(start, moves)
    if lazy and (max_nodes or timeout):
        raise usage_error("--lazy solves the exchange exactly: drop --max-nodes and --timeout")
    with ProgressLine(enabled=progress) as line:
        analysis = solve(state, Budget(max_nodes or 0, timeout), search_reporter(line), workers, lazy=lazy)
    if as_json:
        print_json(solve_json(analysis, start, moves_text, seed, blocks))
        return
    for text in render.solve_lines(analysis, title, moves_text, pretty):
        click.echo(text)


@click.command("hint", help=HINT_HELP)
@imp_options
@_position_options
@click.option("--time", "seconds", type=Seconds(zero=True), default=DEFAULT_HINT_TIME, show_default=True,
              metavar="SECONDS", help="Answer within this many seconds; what is unfinished is shown as proven "
                                      "bounds.  0: until every figure is exact.")
@click.option("--explain", "explain_card", default=None, metavar="CARD",
              help="Also the line after CARD beside the best card's, to where it falls behind (play phase).")
@click.option("--table", "table", is_flag=False, flag_value="", default=None, metavar="[FILE]",
              help="The real-table hint: from what the player to move knows after --moves (or the imp-table-view "
                   "in FILE, - for stdin), every card's double-dummy mean over the deals they cannot rule out.")
@click.option("--seat", default=None, metavar="A|B",
              help="With --table: the player whose view it is; must be the player to move.")
@click.option("--against", type=OneOf(list(BOTS)), default=None, metavar="BOT",
              help="With --table: also what the recommended card achieves, played out over the worlds against "
                   "this bot (" + ", ".join(BOTS) + "), once every world is solved within --time.")
@click.option("--samples", type=WholeNumber(1, MAX_SAMPLES, "the setup hint draws at most that many deals"),
              default=None, metavar="N",
              help="With --table at a setup step: value the choices over N drawn deals instead of --time (the same "
                   "answer on every machine).")
@click.option("--opponent", type=OneOf(list(OPPONENT_MODELS)), default=None, metavar="MODEL",
              help="With --table at a setup step: how the opponent's simultaneous choice is made in each drawn deal: "
                   "low-cards or equilibrium (default: equilibrium at the open choice, low-cards elsewhere).")
@json_option
@pretty_option
@progress_option
def hint_command(game: ImpOptions, moves, position_file, workers, seconds, explain_card, table, seat, against,
                 samples, opponent, as_json, pretty, progress):
    if table is not None:
        from .table import table_hint_command
        table_hint_command(game, moves, position_file, table, seat, workers, seconds, explain_card, as_json, pretty,
                           progress, against, samples, opponent)
        return
    for name, value in (("--seat", seat), ("--against", against)):
        if value is not None:
            raise usage_error(f"{name} goes with --table (the real-table hint); the hint with the deal known is for "
                              f"the player to move and needs no opponent")
    for name, value in (("--samples", samples), ("--opponent", opponent)):
        if value is not None:
            raise usage_error(f"{name} goes with --table at a setup step (the setup hint over drawn deals); the hint "
                              f"with the deal known solves the one deal")
    start, seed, blocks, title = _start(game, position_file)
    state, moves_text = position_after(start, moves)
    card = None if explain_card is None else explain_card_of(explain_card, state.rules.table)
    with ProgressLine(enabled=progress) as line:
        explained = None if card is None else explained_card(state, card)
        answer = hint(state, seconds, 0, search_reporter(line), workers)
    if as_json:
        print_json(hint_json(answer, start, moves_text, seed, blocks, explained))
        return
    for text in render.hint_lines(answer, title, moves_text, pretty, explained):
        click.echo(text)
