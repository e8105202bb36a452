"""Catalogues: many distinct winnable deals, each with its rating and a solution.

Method (``scoundrel-solve generate``):

1. Candidate ``i`` (i = 0, 1, 2, ...) is the numbered deal ``start + i`` of the
   rules (``start`` defaults to 1), so a catalogue depends only on the rules,
   the difficulty asked for, ``start`` and the count.
2. Each candidate is rated (:func:`solver.rating.rate`: an exact solve, the
   features, and the label from the packaged calibration
   ``solver/scoundrel/data/calibration.json``).
3. A candidate is kept when the exact solve proves it winnable, its label is
   the difficulty asked for (if any), and its deck differs from every deck
   already kept.  (Every win check of a rating is exact, so ``undecided`` is 0;
   a rating with one, made with the node limit of daily methods v1/v2, would
   be passed over for a difficulty.)

Each kept deal is one JSON object (:func:`entry`): ``id``, ``seed``,
``deck``, ``rules``, ``rating``, ``score``, ``won`` and ``line``: the optimal
line of fewest rooms that comes first in the order of the legal actions
(:func:`solver.scoundrel.lines.fewest_rooms_line`, the rule of a daily's
``--reveal``).  Nothing in it depends on the machine or the speed of the
search, so the same options always give the same file.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Iterable, Iterator, Optional

from ..batch import JsonLines, ordered_map, read_json_lines, seed_problem

from .stats import rules_problem
from .daily import rules_key
from .deal import MAX_SEED, check_seed, deal
from ..errors import InputError
from .notation import format_line
from .rating import LABEL_NAMES, Rating, calibration, rate
from .rules import Rules

DIFFICULTIES = LABEL_NAMES[:-1]   # unwinnable deals are never kept


class CatalogueError(InputError):
    """A catalogue that cannot be made: unknown label, no calibration, a file of other rules."""


def check_difficulty(rules: Rules, difficulty: Optional[str], cal: Optional[dict] = None) -> None:
    """Refuse a label that is unknown, or that no deal of these rules can get.

    Without a calibration table for the mode no deal gets a label, so a
    search for one would never end.
    """
    if difficulty is None:
        return
    if difficulty not in DIFFICULTIES:
        raise CatalogueError(f"unknown difficulty {difficulty!r}: choose one of {', '.join(DIFFICULTIES)}")
    cal = calibration() if cal is None else cal
    mode = "coop" if rules.coop else "solo"
    if not cal.get(mode):
        raise CatalogueError(f"no difficulty calibration for {'co-op' if rules.coop else 'solo'} yet: "
                             f"leave out the difficulty")


def rating_dict(r: Rating) -> dict:
    """The rating as stored with a deal (the same keys as a daily challenge's)."""
    return r.summary()


def entry_id(rules: Rules, seed: int) -> str:
    """``solo-classic-strict-42``: the rules and the deal number, stable forever."""
    return f"{rules_key(rules)}-{seed}"


def solution(r: Rating) -> list:
    """The line a catalogue stores for a winnable rated deal: the optimal line of fewest
    rooms first in the order of the legal actions (as a daily reveals)."""
    from .lines import fewest_rooms_line
    from .state import State
    # (the core, as the rating's walk: the reference cannot walk a whole deal)
    return fewest_rooms_line(State.new(tuple(r.deck), r.rules), r.score, engine="core")


def entry(r: Rating, line: Optional[list] = None) -> dict:
    """One catalogue line for a rated winnable numbered deal; ``line``: its :func:`solution`
    if already found (found here if not)."""
    line = solution(r) if line is None else line
    return {"id": entry_id(r.rules, r.seed), "seed": r.seed, "deck": [str(c) for c in r.deck],
            "rules": r.rules.as_dict(), "rating": rating_dict(r), "score": r.score, "won": r.won,
            "line": format_line(line)}


@dataclass(frozen=True)
class Candidate:
    """One candidate looked at: its rating, and whether (or why not) it was kept."""

    index: int
    seed: int
    rating: Optional[Rating]
    verdict: str          # kept, unwinnable, unproven, other-label, undecided, duplicate
    line: Optional[list] = None   # the solution of a kept deal (:func:`solution`)

    @property
    def kept(self) -> bool:
        return self.verdict == "kept"


def _fits(r: Rating, difficulty: Optional[str]) -> bool:
    """Whether a rated candidate is kept, unless its deck already is."""
    return r.exact and r.won and (difficulty is None or (r.label == difficulty and not r.undecided))


def _rate_candidate(item, rules: Rules, rate_kw: dict, difficulty: Optional[str] = None) -> tuple:
    """``(seed, key, rating, line)`` for ``item = (seed, key, known)``: the rating of the
    numbered deal ``seed`` (None for a deck already kept) and, if it is to be kept, its
    :func:`solution` (in a worker process with ``jobs`` > 1)."""
    seed, key, known = item
    if known:
        return seed, key, None, None
    r = rate(deal(seed, rules), rules, seed, **rate_kw)
    return seed, key, r, solution(r) if _fits(r, difficulty) else None


def generate(rules: Rules, difficulty: Optional[str] = None, *, start: int = 1,
             known_decks: Iterable = (), jobs: int = 1, **rate_kw) -> Iterator[Candidate]:
    """Walk the candidates from ``start`` and yield each one with its verdict.

    Endless: the caller stops after as many kept deals as it wants.
    ``known_decks`` (tuples of cards or of card strings) are treated as
    already kept, so a resumed catalogue never repeats a deal. With ``jobs``
    > 1 the candidates are rated ahead in that many processes; the verdicts
    and their order are the same.
    """
    start = check_seed(start)
    check_difficulty(rules, difficulty)
    seen = {tuple(str(c) for c in d) for d in known_decks}

    def items():
        for seed in range(start, MAX_SEED):
            key = tuple(str(c) for c in deal(seed, rules))
            yield seed, key, key in seen   # a deck already kept when handed out is not rated at all

    ratings = ordered_map(partial(_rate_candidate, rules=rules, rate_kw=rate_kw, difficulty=difficulty),
                          items(), jobs)
    try:
        for index, (seed, key, r, line) in enumerate(ratings):
            if r is None or key in seen:   # or kept while this one was in flight
                yield Candidate(index, seed, None, "duplicate")
                continue
            if not r.exact:
                verdict = "unproven"
            elif not r.won:
                verdict = "unwinnable"
            elif difficulty is not None and r.label != difficulty:
                verdict = "other-label"
            elif difficulty is not None and r.undecided:
                verdict = "undecided"
            else:
                verdict = "kept"
                seen.add(key)
            yield Candidate(index, seed, r, verdict, line if verdict == "kept" else None)
    finally:
        ratings.close()
    raise CatalogueError(f"no more deal numbers after {start}: the last is {MAX_SEED - 1}")


# What each key of a catalogue entry may hold (a key may be missing; "deck" may not).
_NONE = type(None)
_ENTRY_TYPES = {
    "id": ((str,), "a string"),
    "rating": ((dict, _NONE), "an object or null"),
    "score": ((int, _NONE), "an integer or null"),
    "won": ((bool, _NONE), "true, false or null"),
    "line": ((str, _NONE), "a string or null"),
}


def entry_problem(e: dict) -> Optional[str]:
    """What is wrong with one catalogue line (a JSON object), or None if ``generate --resume`` can use it."""
    deck = e.get("deck")
    if type(deck) is not list or not all(type(c) is str for c in deck):
        return '"deck" must be a list of cards such as ["5D", "3S"]'
    if "seed" in e and seed_problem(e):
        return seed_problem(e)
    problem = rules_problem(e)
    if problem:
        return problem
    for key, (types, what) in _ENTRY_TYPES.items():
        if key in e and type(e[key]) not in types:
            return f'"{key}" must be {what}'
    label = (e.get("rating") or {}).get("label")
    if label is not None and type(label) is not str:
        return '"rating" must have a string "label" (or null)'
    return None


def read_catalogue_lines(path) -> JsonLines:
    """The numbered entries of a catalogue file, strictly (:func:`solver.batch.read_json_lines`).

    A missing file is an empty catalogue; a line that is not an entry is a
    :class:`solver.batch.ResultsFileError` naming the file and the line, except
    a last line cut short by a kill (``torn``).
    """
    if not os.path.lexists(path):
        return JsonLines(Path(path), [])
    return read_json_lines(path, entry_problem)


def read_catalogue(path) -> tuple:
    """``(entries, torn)``: the entries of a catalogue file and the number of a
    last line cut short by a kill (a list; that line is skipped).

    A missing file is an empty catalogue.
    """
    found = read_catalogue_lines(path)
    return [e for _, e in found.items], [] if found.torn is None else [found.torn]
