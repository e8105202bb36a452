"""``scoundrel-solve solve`` (also the root command without one), ``deal`` and ``replay``:
one dungeon solved, dealt, or played along a line."""
from __future__ import annotations

import click

from scoundrel_solver import IllegalMove
from scoundrel_solver.progress import ProgressLine
from scoundrel_solver.scoundrel import answers

from ..options import json_option, progress_option
from ..output import print_json
from . import render
from .options import GameChoice, game_options, pretty_option, search_options, threads_option

SOLVE_HELP = """Solve one dungeon (the same as giving no command).

Prints the deal, the verdict (WIN / LOSS, proven, or NOT PROVEN when a limit
stopped the search), the line in notation and room by room, and search
statistics.

\b
Examples:
  scoundrel-solve solve --seed 42
  scoundrel-solve solve --seed 42 --mode coop --deck-size 54 --json
  scoundrel-solve solve --deck "5D 3S 4H 9C 2D 7S" --durability lenient
  scoundrel-solve solve --seed 42 --max-nodes 1000000
"""


def run_solve(game: GameChoice, as_json: bool, pretty: bool, max_nodes, timeout, tt_mb, progress=None,
              threads=None) -> None:
    chosen = game.game()
    if not as_json:
        click.echo(render.deal_title(chosen))
        click.echo("Dungeon (top first): " + render.cards_text(chosen.deck, pretty))
        click.echo()
    with ProgressLine(enabled=progress) as line:
        result = answers.solved(chosen, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, threads=threads,
                                progress=line)
    if as_json:
        print_json(result.as_dict())
        return
    click.echo(render.verdict(result))
    if result.line:
        click.echo("Line: " + result.line_text)
        note = render.shorter_note(result)
        if note is not None:
            click.echo(note)
        click.echo()
        try:
            story = render.narrate(result.start, result.line, pretty)
        except IllegalMove as exc:  # the solver's own line: a bug, not bad input
            raise RuntimeError(f"the solver returned an illegal line: {exc}") from exc
        for text in story:
            click.echo(text)
    click.echo()
    for text in render.statistics(result):
        click.echo(text)


def search_job(f):
    """The options of a search: the game, --json, --pretty, the limits, --threads, --progress."""
    return game_options(json_option(pretty_option(search_options(threads_option(progress_option(f))))))



@click.command("solve", help=SOLVE_HELP)
@search_job
def solve_command(game: GameChoice, as_json, pretty, max_nodes, timeout, tt_mb, threads, progress):
    run_solve(game, as_json, pretty, max_nodes, timeout, tt_mb, progress, threads)


# --------------------------------------------------------------------- deal
@click.command("deal")
@game_options
@json_option
@pretty_option
def deal_command(game: GameChoice, as_json, pretty):
    """Print a dungeon, top card first, one line of card tokens.

    The deal number fixes the dungeon forever (SplitMix64 + Fisher-Yates, see
    docs/rules.md).  With --deck it checks and normalises your cards.

    \b
    Examples:
      scoundrel-solve deal --seed 42
      scoundrel-solve deal --seed 42 --mode coop --deck-size 54 --json
      scoundrel-solve deal --seed 42 --pretty
    """
    chosen = game.game()
    if as_json:
        print_json(answers.deal_answer(chosen))
    else:
        click.echo(render.cards_text(chosen.deck, pretty))


# ------------------------------------------------------------------- replay
@click.command("replay")
@game_options
@click.option("--line", default="", metavar="LINE",
              help='Moves from the start, rooms separated by " | ", e.g. "5D 5C 4H | avoid".')
@click.option("--steps", is_flag=True, help="Also tell the line room by room.")
@json_option
@pretty_option
def replay_command(game: GameChoice, line: str, steps: bool, as_json, pretty):
    """Play a line from the start and show where it leads.

    Prints the line with every fight mode written out, then the position
    (room, each hero's health, weapon and last kill, leader, cards left) or,
    once the dungeon is cleared or a hero died, the result and the score.
    The last room may stop part-way.  With --json the position is one object
    (docs/json.md) that 'hint --position FILE' reads back.

    \b
    Notation: TD take a card; QSw / 4Sb fight with the weapon / bare-handed
    (left out: the weapon when it may be used); TD> give it to the partner
    (co-op); avoid.
    \b
    Examples:
      scoundrel-solve replay --seed 42 --line "5D 5C 4H"
      scoundrel-solve replay --deck "5D 3S 4H 9C 2D 7S" --line "5D 3S 9C | 4H 2D 7S"
      scoundrel-solve replay --seed 42 --mode coop --line "8C> 4H AC" --json
    """
    chosen = game.game()
    played = answers.replayed(chosen, line)
    if as_json:
        print_json(answers.replay_json(played))
        return
    click.echo(render.deal_title(chosen))
    click.echo("Line: " + (played.line or "(no moves)"))
    if steps and played.rooms:
        click.echo()
        for text in render.narrate(played.start, played.rooms, pretty):
            click.echo(text)
    click.echo()
    click.echo(render.position(played.final, pretty))
