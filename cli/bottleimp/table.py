"""``scoundrel-solve imp hint --table``: the hint from what the player to move knows.

Thin: read the view (a deal and ``--moves``, the player to move after them; or an
``imp-table-view`` file), call the library (:mod:`scoundrel_solver.bottleimp.tablehint`;
``answers`` builds the JSON), print.  At a setup step, the setup hint of ``--seat``
(:mod:`scoundrel_solver.bottleimp.setuphint`).
"""
from __future__ import annotations

import click
from click.core import ParameterSource

from scoundrel_solver.bottleimp import InputError
from scoundrel_solver.bottleimp.answers import (in_setup_after, table_explain_card, table_hint_answer, table_hint_json,
                                                table_view_after)
from scoundrel_solver.bottleimp.bots import factory
from scoundrel_solver.bottleimp.tablehint import explain_table, table_hint
from scoundrel_solver.bottleimp.worlds import ViewError
from scoundrel_solver.progress import ProgressLine

from ..options import usage_error
from ..output import print_json
from . import render
from .options import ImpOptions
from .progress import deals_reporter, worlds_reporter


def read_view(path: str):
    """An ``imp-table-view`` (or an ``imp hint --table --json`` answer) from a file, ``-`` for stdin."""
    from scoundrel_solver.bottleimp.tableview import view_from_json
    from scoundrel_solver.jsonform import read_document
    name = "standard input" if path == "-" else path
    try:
        with click.open_file(path, "rb") as handle:
            text = read_document(handle, f"--table {name}", "a table view")
    except OSError as exc:          # (opening it)
        raise InputError(f"cannot read --table {name}: {exc.strerror or exc}") from None
    return view_from_json(text, f"--table {name}", answers=True)


def _given(name: str) -> bool:
    ctx = click.get_current_context(silent=True)
    return ctx is not None and ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)


def setup_hint_command(chosen, moves: str, seat, workers, seconds, as_json: bool, pretty: bool, progress,
                       samples, opponent) -> None:
    """``imp hint --table`` at a setup step: the setup hint of ``seat`` (A unless given)."""
    if not _given("seconds"):
        seconds = None                  # the step's own default (setuphint.DEFAULT_SETUP_TIMES)
    with ProgressLine(enabled=progress) as line:
        answer = table_hint_answer(chosen.start(), moves, seat, chosen.seed, seconds, workers,
                                   samples=samples or 0, opponent=opponent,
                                   setup_progress=deals_reporter(line))
    if as_json:
        print_json(answer)
        return
    for text in render.setup_hint_lines(answer, render.title(chosen), chosen.rules, pretty, seat is not None):
        click.echo(text)


def table_hint_command(game: ImpOptions, moves: str, position_file, table: str, seat, workers, seconds,
                       explain_card, as_json: bool, pretty: bool, progress, against=None, samples=None,
                       opponent=None) -> None:
    """``imp hint --table [FILE]`` (see ``imp hint --help``)."""
    if position_file is not None:
        raise usage_error("--table takes a deal and --moves (what the player saw happen) or a table view FILE; "
                          "a --position has no history of what the player saw")
    seat = None if seat is None else seat.strip().upper()
    if seat is not None and seat not in ("A", "B"):
        raise usage_error(f"--seat: bad seat {seat[:20]!r}: choose A or B")
    if table == "":
        chosen = game.game()
        if not chosen.rules.two_player:
            raise ViewError("the real-table hint is for Lopaka and Glitzerhaus (the base game has no "
                            "double-dummy value here, IMP-RULES §8)")
        if in_setup_after(chosen.start(), moves):
            for name, value in (("--explain", explain_card), ("--against", against)):
                if value is not None:
                    raise usage_error(f"{name} belongs to the play phase's real-table hint; at a setup step the "
                                      f"hint lists every choice")
            setup_hint_command(chosen, moves, seat, workers, seconds, as_json, pretty, progress, samples, opponent)
            return
        for name, value in (("--samples", samples), ("--opponent", opponent)):
            if value is not None:
                raise usage_error(f"{name} belongs to the setup hint; after these moves the play phase has begun, and "
                                  f"its real-table hint solves the worlds within --time")
        view, moves_text = table_view_after(chosen.start(), moves, seat)
        seed, title = chosen.seed, render.title(chosen)
    else:
        if game.seed is not None or game.deal is not None or moves:
            raise usage_error("--table FILE is the whole view: drop --seed, --deal and --moves")
        for name, value in (("--samples", samples), ("--opponent", opponent)):
            if value is not None:
                raise usage_error(f"{name} belongs to the setup hint, from a deal and --moves; a table view FILE is "
                                  f"of the play phase")
        view = read_view(table)
        for option, value in (("variant", view.rules.variant), ("cards", view.rules.cards)):
            if _given(option) and getattr(game, option) != value:
                raise usage_error(f"--{option} {getattr(game, option)}: the table view in --table is {value}")
        if seat is not None and seat != view.rules.seats[view.seat]:
            raise usage_error(f"--seat {seat}: the table view in --table is {view.rules.seats[view.seat]}'s")
        seed, moves_text, title = None, None, render.position_title(view.rules).replace(
            "from a position", "from a table view")
    card = None if explain_card is None else table_explain_card(view, explain_card)
    with ProgressLine(enabled=progress) as line:
        answer = table_hint(view, seconds, workers, worlds_reporter(line),
                            achieve_against=None if against is None else factory(against))
    explained = None if card is None else explain_table(view, answer, card)
    if as_json:
        print_json(table_hint_json(answer, view, seconds, seed, moves_text, explained, against))
        return
    for text in render.table_hint_lines(answer, view, title, moves_text, seconds, pretty, explained, against):
        click.echo(text)
