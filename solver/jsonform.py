"""The JSON form of positions and results: the shipped schema and a strict reader.

Every object a command prints with ``--json`` (and ``Result.as_dict()``,
``Hint.as_dict()``, ``State.as_dict()``, ``TablePosition.as_dict()``) is
described by ``data/scoundrel.schema.json``, a JSON Schema (draft 2020-12)
shipped in the package; docs/json.md explains it.  Positions are read back by
:func:`scoundrel_solver.scoundrel.position.position_from_json`; :func:`loads` is the strict
JSON text reader in front of it.

>>> schema()["$defs"]["position"]["properties"]["leader"]["enum"]
[1, 2]
"""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from importlib import resources

from .errors import InputError, shown

SCHEMA_VERSION = 1
SCHEMA_FILE = "scoundrel.schema.json"
# The discriminator ``type`` of each object a command prints, and the
# ``$defs`` entry of the schema that describes it.
TYPES = ("solve", "deal", "replay", "hint", "explain", "rate", "daily", "stats", "error", "imp-deal", "imp-replay", "imp-value", "imp-solve", "imp-hint", "imp-stats", "imp-table-hint", "imp-setup-hint", "imp-puzzles", "imp-daily", "imp-game", "imp-review", "imp-match")
# Lines of the files the commands write (no ``type`` key: see docs/json.md).
FILE_LINES = ("stats_result", "catalogue_entry", "imp_stats_result")


class JSONInputError(InputError):
    """Text that is not one strict JSON value."""


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return resources.files(__package__).joinpath("data/" + SCHEMA_FILE).read_text(encoding="utf-8")


def schema() -> dict:
    """The JSON Schema of every object the commands print (a fresh copy)."""
    return json.loads(_schema_text())


def kind(value) -> str:
    """The JSON type of a value read from JSON, as an error line names it: JSON's words, not
    Python's (``null``, not ``NoneType``).  Scoundrel's position reader uses it too.

    >>> kind(None), kind(True), kind([])
    ('null', 'a boolean', 'a list')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def written(value, limit: int = 40) -> str:
    """A value read from JSON as JSON writes it (``null``, ``true``, ``"A"``), cut short for an
    error line.

    >>> written(None), written(False), written("A")
    ('null', 'false', '"A"')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):   # not JSON, or an integer too long to print
        return kind(value)
    return shown(text, limit, quote=False)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _no_duplicates(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {json.dumps(key)} appears twice in one object")
        out[key] = value
    return out


# The most a position or table-view file may hold: they are a few hundred bytes, and an
# unbounded read of ``--position /dev/zero`` would never end.
MAX_DOCUMENT_BYTES = 1_000_000


def file_name(handle) -> str:
    """How an open file is named in a message: its path, or "standard input" for ``-``."""
    name = getattr(handle, "name", "-")
    return "standard input" if name in ("-", "<stdin>") or not isinstance(name, str) else name


def read_document(handle, what: str, noun: str = "a position", limit: int = MAX_DOCUMENT_BYTES) -> str:
    """The text of one small JSON document from an open file, binary or text
    (``--position FILE``, ``-`` for standard input; the service's request text).

    Refused with :class:`InputError`, one line naming ``what``: a file that cannot be read,
    more than ``limit`` bytes (``noun`` says what would fit), bytes that are not UTF-8.
    """
    try:
        data = handle.read(limit + 1)
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}") from None
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > limit:
        raise InputError(f"{what}: more than {limit:,} bytes; {noun} is a few hundred")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text") from None


def loads(text: str, what: str = "the input"):
    """One JSON value from ``text``, strictly.

    Refused with :class:`JSONInputError` (one line naming ``what``): text that
    is not JSON, ``NaN``/``Infinity`` (not JSON), a key given twice in one
    object (which ``json.loads`` would silently resolve to the last), nesting
    too deep to read, and integers too long to convert.
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise JSONInputError(f"{what} is nested too deeply to read") from None
    except ValueError as exc:
        raise JSONInputError(f"{what} is not valid JSON: {refusal(exc)}") from None


def refusal(exc: Exception) -> str:
    """Why ``json.loads`` refused a text, in a few words (the JSON-lines reader of
    solver/batch.py says it too): its own message, the nesting too deep for Python's
    stack, or an integer longer than Python converts (4,300 digits)."""
    if isinstance(exc, json.JSONDecodeError):
        return exc.msg
    if isinstance(exc, RecursionError):
        return "nested too deeply to read"
    message = str(exc)
    if "integer string conversion" in message or "digits" in message:
        limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
        return f"a number too long to read: an integer with too many digits, more than {limit:,}"
    return message
