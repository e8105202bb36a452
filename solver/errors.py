"""The one base class of every "bad input" error the library raises.

Callers (the CLI) catch :class:`InputError` to report bad input in one line
without also hiding real bugs that happen to raise a plain ``ValueError``.
"""


class InputError(ValueError):
    """Input that names no card, option, seed, move or position of the rules."""


class OptionError(InputError):
    """A value out of range, or options that do not go together.

    Its text names the option as typed (``--max-nodes``): the command line
    prints it with where its help is, and the service answers the same line.
    """
