"""Option types and flags that every game's commands share: whole numbers, seconds and
choices refused in the library's words, ``--json``, ``--progress``, and the usage error
tied to the running command.

The checks of option values are the library's (solver/values.py); the click types here
only call them, so the service, which checks its parameters there, says the same.  Each
game's own options (its rules, its deal, ``--pretty``) are in its folder:
``cli/scoundrel/options.py``, ``cli/bottleimp/options.py``.
"""
from __future__ import annotations

import click

from scoundrel_solver.errors import OptionError
from scoundrel_solver.shuffle import MAX_SEED  # noqa: F401 (the commands' bounds, taken here)
from scoundrel_solver.values import MAX_JOBS, MAX_NODES, MAX_RNG_SEED, MAX_SAMPLES  # noqa: F401
from scoundrel_solver.values import one_of, seconds, whole_number


class WholeNumber(click.ParamType):
    """An integer option within ``low..high``, refused otherwise in one line
    (the library's check, :func:`scoundrel_solver.values.whole_number`)."""

    name = "integer"

    def __init__(self, low: int, high: int, why: str = ""):
        self.low, self.high, self.why = low, high, why

    def convert(self, value, param, ctx):
        try:
            return whole_number(value, self.low, self.high, self.why)
        except OptionError as exc:
            self.fail(str(exc), param, ctx)

    def get_metavar(self, param, ctx=None):
        return None

    def __repr__(self):
        return f"WholeNumber({self.low}, {self.high})"


class Seconds(click.ParamType):
    """A time limit: a finite number of seconds, 0 < t <= MAX_SECONDS (nan and inf
    would mean "no limit" to the core, and are refused; :func:`scoundrel_solver.values.seconds`)."""

    name = "seconds"

    def __init__(self, zero: bool = False):
        self.zero = zero        # 0 is allowed (and means "no limit": --time 0)

    def convert(self, value, param, ctx):
        try:
            return seconds(value, self.zero)
        except OptionError as exc:
            self.fail(str(exc), param, ctx)

    def __repr__(self):
        return "Seconds(zero=True)" if self.zero else "Seconds()"


class OneOf(click.Choice):
    """A choice, refused in the library's words (:func:`scoundrel_solver.values.one_of`), so the
    service, which checks its parameters there, says the same whatever click's version."""

    def convert(self, value, param, ctx):
        try:
            return one_of(value, tuple(self.choices))
        except OptionError as exc:
            self.fail(str(exc), param, ctx)


def typed(ctx: click.Context, name: str) -> bool:
    """Was option ``name`` given on the command line (not left at its default)?"""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def usage_error(message: str) -> click.UsageError:
    """A usage error tied to the running command, so the hint names it."""
    return click.UsageError(message, ctx=click.get_current_context(silent=True))


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object for machines.")
progress_option = click.option(
    "--progress/--no-progress", "progress", default=None,
    help="While a search runs over a second, show on stderr what it is doing (the score's proven bounds, "
         "tests, nodes, nodes/s, time), one line rewritten in place and erased before the answer.  "
         "[default: when stderr is a terminal]")
