"""Scoundrel's options: the rule flags, the deal (``--seed``/``--deck``), the search's limits,
threads and time, ``--pretty``.

Each command (``hint``, ``play``, ``rate``, ``daily``, ...) takes the same
``@game_options`` and receives one :class:`GameChoice` value (the library's,
solver/scoundrel/game.py) instead of six loose keyword arguments; turning it into
a :class:`Game` is where input is checked, so every command (and the service)
reports bad input the same way.  The option types are the shared ones (cli/options.py).
"""
from __future__ import annotations

import functools

import click

from scoundrel_solver import DEFAULT_TT_MB
from scoundrel_solver.scoundrel.game import DECK_PARAMS, RULE_PARAMS, Game, GameChoice  # noqa: F401 (commands take them here)
from scoundrel_solver.scoundrel.rules import DECK_SIZES, DURABILITIES, FLEES, MODES
from scoundrel_solver.scoundrel.search import default_threads  # noqa: F401 (the CLI's default, tests read it here)
from scoundrel_solver.values import MAX_NODES, MAX_SECONDS, MAX_TT_MB

from ..options import OneOf, Seconds, WholeNumber, typed


def rule_notes(mode: str, flee: str, deck_size: str) -> list:
    """Why a rule flag given has no effect in this mode, one note a flag.

    Rules ignores options of the other mode (scripts that loop over every
    flag combination keep working); a person is told on stderr.
    """
    notes = []
    if mode == "coop" and flee != "classic":
        notes.append("note: --flee applies to solo only; co-op never allows two avoids in a row")
    if mode == "solo" and str(deck_size) != "52":
        notes.append("note: --deck-size applies to co-op only; solo always uses the 44-card deck")
    return notes


def _notes_after_success(f):
    """Print the rule notes once the command has finished without an error.

    A note printed first would stand before the error line of a command that
    then fails (issue 24: a failing command prints only the error), and input
    is checked all the way through a command (a line of moves, a results
    file, ...), so the only moment the notes are sure to be no error's
    preamble is the end.
    """

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        notes = rule_notes(kwargs.get("mode", "solo"), kwargs.get("flee", "classic"), kwargs.get("deck_size", "52"))
        rv = f(*args, **kwargs)
        for note in notes:
            click.echo(note, err=True)
        return rv

    return wrapper


def rule_options(f):
    """The rule flags alone (commands that pick their own deals: stats, daily, generate)."""
    f = _notes_after_success(f)
    decorators = [
        click.option("--mode", type=OneOf(MODES), default="solo", show_default=True,
                     help="Solo Scoundrel or Scoundrel for Two."),
        click.option("--flee", type=OneOf(FLEES), default="classic", show_default=True,
                     help="Solo avoid rule: classic = not twice in a row, easy = always, hard = never."),
        click.option("--durability", type=OneOf(DURABILITIES), default=None,
                     help="Weapon after a kill: strict = only below the last kill, lenient = also equal. "
                          "[default: strict in solo, lenient in co-op]"),
        click.option("--deck-size", type=OneOf([str(n) for n in DECK_SIZES]), default="52",
                     show_default=True, help="Co-op pack: 50 = no red aces, 54 = two jokers."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


def _rule_and_deck_params(f):
    decorators = [
        click.option("--seed", metavar="N", default=None,
                     help="Numbered deal, 0 <= N < 2^64 (the same N always gives the same dungeon)."),
        click.option("--deck", metavar="CARDS", default=None,
                     help='Custom dungeon, top card first, e.g. "5D 3S 4H 9C" (spaces or commas).'),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return rule_options(f)


def game_options(f):
    """Add ``--seed/--deck`` and the rule flags; pass them as ``game=GameChoice``."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, game=game_choice(kwargs), **kwargs)

    return _rule_and_deck_params(wrapper)


def game_choice(kwargs: dict) -> GameChoice:
    """The rule and deck options of the running command (taken out of ``kwargs``), with
    the rule flags typed on its command line (a position file's rules must agree with them)."""
    raw = {name: kwargs.pop(name) for name in RULE_PARAMS + DECK_PARAMS if name in kwargs}
    ctx = click.get_current_context(silent=True)
    given = frozenset(k for k in RULE_PARAMS if ctx is not None and typed(ctx, k))
    return GameChoice(**raw, given=given)


pretty_option = click.option("--pretty", is_flag=True, help="Print cards for people: 10♦ instead of TD.")


def search_options(f):
    """Limits of the search (``solve`` and the main job)."""
    decorators = [
        click.option("--max-nodes", type=WholeNumber(1, MAX_NODES, "the search counts nodes in 64 bits"),
                     default=None, metavar="N",
                     help="Stop after N nodes (1 to 2^63-1); the answer is then marked NOT PROVEN."),
        click.option("--timeout", type=Seconds(), default=None, metavar="SECONDS",
                     help=f"Stop after this many seconds (more than 0, at most {MAX_SECONDS:,}); "
                          "the answer is then marked NOT PROVEN."),
        click.option("--tt-mb", type=WholeNumber(1, MAX_TT_MB), default=DEFAULT_TT_MB, show_default=True,
                     metavar="MB", help=f"Memory for the transposition table (1 to {MAX_TT_MB})."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


def threads_option(f):
    """``--threads N``: threads for one search (``solve``, ``rate``; ``hint``: searches at once)."""
    from scoundrel_solver.scoundrel.search import MAX_THREADS
    return click.option(
        "--threads", type=WholeNumber(1, MAX_THREADS), default=None, metavar="N",
        help="Threads for the search, sharing one table; the score and the line are the same "
             "whatever N [default: the number of cores].")(f)


def time_option(f):
    """``--time SECONDS``: the budget of an exact hint (``hint``; ``play`` should take it too)."""
    from scoundrel_solver.scoundrel.budget import DEFAULT_TIME
    return click.option(
        "--time", "budget", type=Seconds(zero=True), default=None, metavar="SECONDS",
        help=f"Exact hint: answer within this many seconds [default: {DEFAULT_TIME:g}; with --max-nodes/"
             f"--timeout: 0]; what is not finished is shown as proven bounds.  0: until every score is exact.  "
             f"Real-table hint: the whole hint within this many seconds [default: the same; with --max-nodes/"
             f"--timeout, which limit each of its searches: 0], orders not solved in time left out and said so.")(f)
