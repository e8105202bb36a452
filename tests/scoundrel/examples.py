"""The examples the project shows its users, collected so that tests can run them.

An example is a command line as printed: in a ``--help`` text (an indented
line starting with ``scoundrel-solve``, its description after two or more
spaces), or a line of a ``sh`` code block of README.md or docs/*.md
(``# comments`` and ``\\`` line continuations as in a shell).  Python code
blocks are collected whole.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROG = "scoundrel-solve"


@dataclass(frozen=True)
class Example:
    source: str      # where it is shown: "README.md:37" or "hint --help"
    block: str       # examples of one block may use each other's files
    command: str     # the command line, one line, comments and descriptions cut off

    def __str__(self) -> str:
        return f"{self.source}: {self.command}"


def doc_files() -> list:
    return [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))


def code_blocks(path: Path, languages) -> list:
    """``(first line number, text)`` of each fenced block in one of ``languages``."""
    out, lines, inside, start = [], [], None, 0
    for number, line in enumerate(path.read_text().splitlines(), 1):
        fence = re.match(r"^\s*```\s*(\w*)", line)
        if fence and inside is None:
            inside, start, lines = fence.group(1), number + 1, []
        elif fence:
            if inside in languages:
                out.append((start, "\n".join(lines)))
            inside = None
        elif inside is not None:
            lines.append(line)
    return out


def _join_continuations(lines):
    """Shell lines with a trailing backslash joined to the next: ``(index of first, text)``."""
    joined, first, parts = [], None, []
    for i, line in enumerate(lines):
        if first is None:
            first = i
        if line.rstrip().endswith("\\"):
            parts.append(line.rstrip()[:-1].strip())
            continue
        parts.append(line.strip())
        joined.append((first, " ".join(p for p in parts if p)))
        first, parts = None, []
    if parts:
        joined.append((first, " ".join(parts)))
    return joined


def strip_comment(line: str) -> str:
    """The line without a trailing ``# comment`` (a # inside quotes stays)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def cut_description(line: str) -> str:
    """A help example without its description: the text after two spaces outside quotes."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif line.startswith("  ", i):
            return line[:i]
    return line


def doc_examples() -> list:
    out = []
    for path in doc_files():
        name = path.relative_to(REPO).as_posix()
        for start, text in code_blocks(path, ("sh", "bash", "shell")):
            for i, line in _join_continuations(text.splitlines()):
                command = strip_comment(line).strip()
                if command:
                    out.append(Example(f"{name}:{start + i}", f"{name}:{start}", command))
    return out


def python_examples() -> list:
    out = []
    for path in doc_files():
        name = path.relative_to(REPO).as_posix()
        for start, text in code_blocks(path, ("python", "py")):
            out.append(Example(f"{name}:{start}", f"{name}:{start}", text))
    return out


def json_blocks(path: Path) -> list:
    return [text for _, text in code_blocks(path, ("json",))]


def help_texts() -> dict:
    """``"hint --help"`` -> the text ``scoundrel-solve hint --help`` prints, for every command."""
    from clitools import invoke
    from scoundrel_solver.cli.main import cli

    texts = {"--help": invoke(["--help"]).stdout}
    for name in cli.list_commands(None):   # every command, those loaded when named too
        texts[f"{name} --help"] = invoke([name, "--help"]).stdout
    return texts


def is_command(line: str) -> bool:
    """Does a help line show a command (``scoundrel-solve ...`` or ``echo ... | scoundrel-solve ...``)?"""
    return line.startswith(PROG + " ") or line == PROG or \
        bool(re.match(r"^(echo|printf) .*\|\s*" + PROG + r"\b", line))


def help_examples(texts=None) -> list:
    out = []
    for where, text in (texts or help_texts()).items():
        lines = [l.strip() for l in text.splitlines()]
        for i, line in _join_continuations(lines):
            if is_command(line):
                out.append(Example(f"{PROG} {where}", f"{PROG} {where}", cut_description(line).strip()))
    return out


def all_examples() -> list:
    return help_examples() + doc_examples()
