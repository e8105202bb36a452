"""The ``scoundrel-solve`` command, the root group of both games' commands: parse, call the
library, print.  Scoundrel's commands (cli/scoundrel/) hang from it directly, and without a
command it solves a Scoundrel dungeon; the Bottle Imp's are the group ``scoundrel-solve imp``
(cli/bottleimp/), loaded when named.

Exit status: 0 done (a proven loss is a done job too), 1 output that cannot be
written (a full disk), 2 bad input or usage, 3 the search engine is not
available, 130 interrupted.  Every error is one line on stderr, ``error: ...``;
bad input never shows a traceback.  With ``--json`` anywhere on the command
line the error is instead one JSON line on stdout,
``{"type": "error", "error": "...", "status": N}``, and nothing goes to stderr
(docs/json.md), so an app never parses text; only a standard output that
cannot be written is told on stderr, there being nowhere else to tell it.
"""
from __future__ import annotations

import errno
import json
import os
import sys

import click

from scoundrel_solver import CoreMissingError, InputError
from scoundrel_solver.batch import os_reason
from scoundrel_solver.errors import OptionError

from .exits import EXIT_ENGINE, EXIT_INTERRUPTED, EXIT_IO, EXIT_OK, EXIT_USAGE
from .options import typed, usage_error
from .scoundrel.daily import daily_command
from .scoundrel.generate import generate_command
from .scoundrel.hint import hint_command
from .scoundrel.options import GameChoice
from .scoundrel.play import play_command
from .scoundrel.rate import rate_command
from .scoundrel.solve import deal_command, replay_command, run_solve, search_job, solve_command
from .scoundrel.stats import stats_command
from .serve import serve_command


# Every solver input error (CardError, SeedError, RulesError, NotationError,
# IllegalMove, PositionError) is an InputError; caught here and nowhere else.
BAD_INPUT = (InputError,)


def _fail(message: str, status: int, as_json: bool = False):
    text = " ".join(str(message).split())
    if as_json:
        click.echo(json.dumps({"type": "error", "error": text, "status": status}, ensure_ascii=False))
    else:
        click.echo("error: " + text, err=True)
    sys.exit(status)


def wants_json(args) -> bool:
    """Was ``--json`` given?  Read from the raw arguments, because click may
    fail (an unknown option, a bad value) before it has parsed them all."""
    args = sys.argv[1:] if args is None else list(args)
    if "--" in args:
        args = args[:args.index("--")]
    return "--json" in args


class OneLineErrors:
    """Mixin for the top command: every error becomes one ``error: ...`` line.

    click's own usage errors print the usage, a hint and the message on three
    lines; here they print the message and the hint on one.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        as_json = wants_json(args)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            _fail(exc.format_message() + hint, EXIT_USAGE, as_json)
        except click.ClickException as exc:
            _fail(exc.format_message(), exc.exit_code, as_json)
        except (click.Abort, Interrupted):
            _fail("interrupted", EXIT_INTERRUPTED, as_json)
        except CoreMissingError as exc:
            _fail(str(exc), EXIT_ENGINE, as_json)
        except BAD_INPUT as exc:
            _fail(str(exc), EXIT_USAGE, as_json)
        except MemoryError as exc:
            _fail(f"out of memory ({exc or 'try a smaller --tt-mb'})", EXIT_USAGE, as_json)
        except OSError as exc:
            if not _output_fault(exc):
                raise
            _fail(f"cannot write standard output: {os_reason(exc)}", EXIT_IO)
        sys.exit(rv if isinstance(rv, int) else EXIT_OK)


# A write to standard output that failed (``> /dev/full``, a full disk): an
# OSError with no file name. Files name themselves in their own errors.
_WRITE_FAULTS = {errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


def _output_fault(exc: OSError) -> bool:
    if exc.filename is not None or exc.errno not in _WRITE_FAULTS:
        return False
    try:   # let go of stdout: the interpreter's last flush would fail again, with a traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return True


class Interrupted(Exception):
    """Ctrl-C inside a command.  Caught before click sees it: click would print a
    blank line on stderr and then raise Abort, two lines where one is promised."""


class ScoundrelGroup(OneLineErrors, click.Group):
    # Another game's command group, loaded when it is named (or listed by --help): a
    # Scoundrel command does not pay for importing the Bottle Imp at every start.
    LAZY = {"imp": ("scoundrel_solver.cli.bottleimp.group", "imp_group")}

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.LAZY))

    def get_command(self, ctx, name):
        if name in self.LAZY and name not in self.commands:
            import importlib
            module, attr = self.LAZY[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted() from None
        except OptionError as exc:
            # the library's usage error: a usage error of the command that ran, which says where its help is
            name = ctx.invoked_subcommand
            where = click.Context(self.get_command(ctx, name), info_name=name, parent=ctx) if name else ctx
            raise click.UsageError(str(exc), ctx=where) from None


# ----------------------------------------------------------------- main job
MAIN_HELP = """Exact solver for the card games Scoundrel (solo) and Scoundrel for Two (co-op),
and The Bottle Imp (Lopaka, Glitzerhaus): its commands are under
`scoundrel-solve imp` (scoundrel-solve imp --help).

Without a command it solves one dungeon: the optimal score, proven, and a line
of play that reaches it, told room by room.  Choose the dungeon with --seed
(a numbered deal) or --deck (your own cards, top first).

\b
Examples:
  scoundrel-solve --seed 42                      solve solo deal 42
  scoundrel-solve --seed 42 --flee easy --json   same deal, easy flee, JSON out
  scoundrel-solve --seed 7 --mode coop           solve co-op deal 7 (52 cards)
  scoundrel-solve --deck "5D 3S 4H 9C 2D 7S"     solve a custom dungeon
  scoundrel-solve deal --seed 42                 print deal 42, top card first
  scoundrel-solve replay --seed 42 --line "5D 5C 4H"
                                                 play moves, show the position

\b
Exit status: 0 done, 1 output that cannot be written, 2 bad input, 3 search
engine missing, 130 interrupted.
Rules: docs/rules.md.  Move notation: TD, QSw, 4Sb, TD> (give), avoid; rooms
separated by " | ".
"""


@click.group(cls=ScoundrelGroup, invoke_without_command=True, help=MAIN_HELP,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@search_job
@click.version_option(package_name="scoundrel-solver", prog_name="scoundrel-solve")
@click.pass_context
def cli(ctx: click.Context, game: GameChoice, as_json, pretty, max_nodes, timeout, tt_mb, threads, progress):
    given = [p.name for p in ctx.command.params if typed(ctx, p.name)]
    if ctx.invoked_subcommand is not None:
        if given:
            options = ", ".join("--" + name.replace("_", "-") for name in given)
            raise usage_error(f"{options}: put options after the command name "
                         f"('{ctx.info_name} {ctx.invoked_subcommand} ...')")
        return
    if not given:
        click.echo(ctx.get_help())
        ctx.exit(EXIT_OK)
    run_solve(game, as_json, pretty, max_nodes, timeout, tt_mb, progress, threads)


# Scoundrel's commands (cli/scoundrel/) and those of the whole package (serve).
cli.add_command(solve_command)
cli.add_command(deal_command)
cli.add_command(replay_command)
cli.add_command(daily_command)
cli.add_command(generate_command)
cli.add_command(hint_command)
cli.add_command(play_command)
cli.add_command(rate_command)
cli.add_command(stats_command)
cli.add_command(serve_command)


def main(argv=None) -> None:
    """Console-script entry point (``scoundrel-solve``)."""
    cli.main(args=argv, prog_name="scoundrel-solve")


if __name__ == "__main__":  # pragma: no cover
    main()
