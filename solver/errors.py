"""The one base class of every "bad input" error the library raises.

Callers (the CLI) catch :class:`InputError` to report bad input in one line
without also hiding real bugs that happen to raise a plain ``ValueError``;
:func:`shown` is how such a line shows the value it refuses.
"""


def shown(value, limit: int = 40, quote: bool = True) -> str:
    """``value`` for an error line: quoted and escaped if text, cut short.

    >>> shown("9" * 300)
    "'999999999999999999999999999999999999999... (302 characters)"
    """
    text = repr(value) if isinstance(value, str) and quote else str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


class InputError(ValueError):
    """Input that names no card, option, seed, move or position of the rules."""


class OptionError(InputError):
    """A value out of range, or options that do not go together.

    Its text names the option as typed (``--max-nodes``): the command line
    prints it with where its help is, and the service answers the same line.
    """
