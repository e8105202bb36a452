"""The terminal of the interactive games (``play`` and ``imp play``): lines in, text out."""
from __future__ import annotations

import sys
from typing import Optional

import click


class Terminal:
    """Lines in, text out: ``input()`` with line editing at a terminal, plain
    reads from a pipe (the line is echoed after the prompt, so the output
    reads as a transcript)."""

    def __init__(self):
        self.interactive = sys.stdin.isatty()
        if self.interactive:
            try:
                import readline  # noqa: F401  (arrow keys and history for input())
            except ImportError:  # pragma: no cover - e.g. Windows
                pass

    def read(self, prompt: str) -> Optional[str]:
        """One line without its newline, or None at the end of input."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                click.echo()
                return None
        click.echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not line:
            click.echo()
            return None
        line = line.rstrip("\r\n")
        click.echo(line)
        return line
