"""What every command prints the same way, whatever the game: one JSON object for machines."""
from __future__ import annotations

import json

import click


def json_text(obj: dict) -> str:
    """One JSON object, a key per line, each value on one line (decks stay readable).

    NaN and infinities are refused (they are not JSON): a figure without a
    value is None, and one that is not must fail loudly rather than print
    text that JSON readers reject.
    """
    body = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, allow_nan=False)}"
                       for k, v in obj.items())
    return "{\n" + body + "\n}"


def print_json(obj: dict) -> None:
    click.echo(json_text(obj))
