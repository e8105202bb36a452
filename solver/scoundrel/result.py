"""The answer of a search: verdict, score, line and honest statistics."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .notation import format_line
from .rules import Rules
from .state import State


@dataclass(frozen=True)
class Result:
    """What :func:`solver.solve` found.

    ``exact`` is True only when ``score`` is proven optimal.  When a limit
    stopped the search (``limit`` is ``"nodes"``, ``"time"``), ``score`` and
    ``line`` are the best complete line found so far (``None`` if none).
    ``line`` is a list of rooms, each a list of actions with every fight
    mode written out, played from ``start``.
    """

    start: State
    rules: Rules
    score: Optional[int]
    won: Optional[bool]
    exact: bool
    line: list
    nodes: int
    seconds: float
    engine: str
    limit: Optional[str] = None
    tt: dict = field(default_factory=dict)
    deck: tuple = ()
    seed: Optional[int] = None    # the deal number, when a numbered deal was solved
    # solve(shortest=True): True when the line is proven to have the fewest rooms of
    # any optimal line, False when that search stopped at its limit; None: not asked
    shortest: Optional[bool] = None
    line_nodes: int = 0           # nodes of that search (not in ``nodes``, the proof's)
    threads: int = 1              # threads the search ran on (solve(threads=); 1 for the reference)

    @property
    def line_text(self) -> str:
        return format_line(self.line)

    def as_dict(self) -> dict:
        """The ``solve`` object of the shipped schema (docs/json.md).

        A search started from a position (``solve(state=...)``) has no deck;
        its ``position`` is given instead.
        """
        d = {
            "type": "solve",
            "seed": self.seed,
            "deck": [str(c) for c in self.deck],
            "rules": self.rules.as_dict(),
            "won": self.won,
            "score": self.score,
            "exact": self.exact,
            "limit": self.limit,
            "line": self.line_text,
            "shortest": self.shortest,
            "nodes": self.nodes,
            "line_nodes": self.line_nodes,
            "seconds": round(self.seconds, 6),
            "nodes_per_second": int((self.nodes + self.line_nodes) / self.seconds) if self.seconds > 0 else None,
            "engine": self.engine,
            "threads": self.threads,
            "tt": dict(self.tt),
        }
        if not self.deck:
            d["position"] = self.start.as_dict()
        return d
