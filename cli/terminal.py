"""The terminal of the interactive games (``play`` and ``imp play``): lines in, text out."""
from __future__ import annotations

import sys
from typing import Callable, Optional

import click

from .exits import EXIT_INTERRUPTED

# Words that leave a game at once (also: the end of input, Ctrl-D).
QUIT_WORDS = ("quit", "q", "exit")


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


class Commands:
    """The in-game commands both games' ``play`` sessions take, one word each (with
    its short form); any other line is a move.  A session provides ``echo``,
    ``help_text`` and the methods named here."""

    help_text = ""

    def handle(self, text: str) -> None:
        """Act on one input line (the game must not be over)."""
        words = text.split()
        word = words[0].lower() if words else ""
        if word in ("", "look", "l"):
            self.look()
        elif word in ("help", "?"):
            self.echo(self.help_text)
        elif word in ("moves", "line"):
            self.show_line()
        elif word in ("undo", "u"):
            self.undo(words[1:])
        elif word in ("hint", "h"):
            self.hint(words[1:])
        elif word in ("explain", "why"):
            self.explain(words[1:])
        else:
            self.play(text)


def run_session(session, terminal: Terminal, again: Optional[Callable[[], bool]] = None) -> None:
    """Play ``session`` from ``terminal``'s lines: ``start``, each line to ``handle``
    until the session is ``over``, then ``finish``.  ``again()``, asked when it is
    over, may reopen it (it returns True).  The end of input or a quit word leaves
    (``leave``), Ctrl-C too, with exit status 130."""
    session.start()
    try:
        while True:
            while not session.over:
                line = terminal.read(session.prompt())
                if line is None:
                    session.leave("End of input")
                    return
                if line.strip().lower() in QUIT_WORDS:
                    session.leave("Quit")
                    return
                session.handle(line)
            if again is None or not again():
                break
    except KeyboardInterrupt:
        click.echo()
        session.leave("Interrupted")
        sys.exit(EXIT_INTERRUPTED)
    session.finish()
