"""The values an option may take, checked the same way by every command line and the service.

Each check takes the value as typed (text) or already a number, and returns it
typed, or raises :class:`OptionError` with one line that shows the value cut
short.  :func:`option_value` names the option in front (``Invalid value for
'--max-nodes': 'x' is not a whole number``), as the command line says it.

>>> whole_number("12", 1, 20)
12
>>> option_value("--tt-mb", whole_number, "0", 1, 64)
Traceback (most recent call last):
...
scoundrel_solver.errors.OptionError: Invalid value for '--tt-mb': 0 is out of range (1 to 64)
"""
from __future__ import annotations

import datetime
import math
import re

from .errors import OptionError, shown
from .shuffle import MAX_SEED

# What the code under each number option can really take (issue 24): a value
# outside is refused, naming the option, instead of overflowing a C integer in
# a core or meaning "no limit" (nan, inf).
MAX_NODES = 2 ** 63 - 1     # the cores count nodes in a C long long
MAX_SECONDS = 10 ** 9       # 31 years: finite, and below threading.TIMEOUT_MAX for any wait on it
MAX_TT_MB = 65536           # a table is sized in a double of MB; 64 GB is more than any run needs
MAX_JOBS = 256              # worker processes, each with its own table and pipes (fd limit 1024)
MAX_RNG_SEED = MAX_SEED - 1  # a random-order seed is a 64-bit number, like a deal number
MAX_SAMPLES = 1_000_000     # random orders of a real-table hint: hours of solving already


def option_value(option: str, check, value, *args):
    """``check(value, *args)``, its complaint (if any) naming ``option``."""
    try:
        return check(value, *args)
    except OptionError as exc:
        raise OptionError(f"Invalid value for '{option}': {exc}") from None


def whole_number(value, low: int, high: int, why: str = "") -> int:
    """An integer within ``low..high``.

    The text must be plain ASCII digits (no ``1e3``, ``1_000``, ``٣`` or
    5000-digit strings that ``int()`` refuses with its own message), and the
    value shown in an error is cut short.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        text = str(value).strip()
        if not re.fullmatch(r"[+-]?[0-9]+", text, re.ASCII):
            raise OptionError(f"{shown(value)} is not a whole number")
        digits = text.lstrip("+-").lstrip("0")
        # A number far longer than the bounds is out of range without
        # int() (which refuses 4,300 digits and more with its own error).
        if len(digits) > len(str(max(abs(low), abs(high)))) + 1:
            raise OptionError(f"{shown(text, quote=False)} is out of range ({whole_range(low, high, why)})")
        number = int(text)
    if not low <= number <= high:
        raise OptionError(f"{number} is out of range ({whole_range(low, high, why)})")
    return number


def whole_range(low: int, high: int, why: str = "") -> str:
    return f"{power(low)} to {power(high)}" + (f": {why}" if why else "")


def seconds(value, zero: bool = False) -> float:
    """A time limit: a finite number of seconds, 0 < t <= MAX_SECONDS (nan and inf
    would mean "no limit" to a core, and are refused); ``zero``: 0 is allowed too
    (it means "no limit": ``--time 0``)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    else:
        try:
            number = float(str(value).strip()) if len(str(value)) <= 40 else None
        except ValueError:
            number = None
        if number is None:
            raise OptionError(f"{shown(value)} is not a number of seconds")
    if not math.isfinite(number):
        raise OptionError(f"{shown(value)} is not a finite number of seconds")
    if not (0 <= number if zero else 0 < number) or number > MAX_SECONDS:
        low = "0 (no limit)" if zero else "more than 0"
        raise OptionError(f"{shown(value)} is out of range ({low}, at most {MAX_SECONDS:,} seconds)")
    return number


def one_of(value, choices) -> str:
    """``value`` if it is one of ``choices`` (text, as typed: case and spaces count)."""
    if value in choices:
        return value
    listed = ", ".join(map(repr, choices))
    raise OptionError(f"{shown(value)} is not {listed}." if len(choices) == 1 else
                      f"{shown(value)} is not one of {listed}.")


def power(n: int) -> str:
    """``2^63-1`` rather than nineteen digits."""
    for k in (32, 63, 64):
        if n in (2 ** k, 2 ** k - 1):
            return f"2^{k}" + ("-1" if n != 2 ** k else "")
    return str(n)


def calendar_date(value, error=OptionError) -> datetime.date:
    """A date written YYYY-MM-DD (or a ``datetime.date``); else ``error`` with one line."""
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value).strip())
    except ValueError:
        raise error(f"bad date {shown(value)}: write YYYY-MM-DD, e.g. 2026-11-29") from None
