"""Daily challenges: the same winnable deal for everyone on a date, forever.

A daily is made by a versioned **method**; the version is part of every
challenge id, so a change of method can never silently change an old daily.
Each date has one method in force (:data:`METHOD_SINCE`): ``v1`` up to
2026-12-31, ``v2`` in January 2027, ``v3`` from 2027-02-01.  Another method can be asked for, so a
daily of either method can be found again on any date.

Method ``v1``:

1. The key is ``scoundrel-daily/v1/<YYYY-MM-DD>/<rules>/<difficulty>``, where
   ``<rules>`` is ``solo-<flee>-<durability>`` or
   ``coop-<deck size>-<durability>`` and ``<difficulty>`` is ``any`` or a
   label.
2. Candidate ``k`` (k = 0, 1, 2, ...) is the numbered deal whose seed is the
   first 8 bytes, big-endian, of SHA-256(``<key>/<k>``).
3. The challenge is the first candidate that an exact solve proves winnable
   and, with a difficulty, whose rating (``solver.rating`` with the
   calibration table of version 1, ``solver/scoundrel/data/calibration-v1.json``,
   ranking the unrounded features) has that label and no undecided win check
   (none in solo; in co-op a check stopped at its node limit would make the
   label depend on the search, so such a candidate is passed over).

Method ``v2`` is v1 with ``v2`` in the key and the id, and one correction:
the features are rounded to the table's precision (6 decimals) before they
are ranked, as the calibration records were, so that ties count half and a
daily's label is the one ``rate`` prints for its deal.  It reads the same
tables, ``calibration-v1.json``.

In v1 and v2 each co-op win check of a candidate's rating stops after
``DECIDE_NODES_COOP`` nodes, so a co-op daily with a difficulty depends on
the search core's node counts.  Method ``v3`` (from 2027-02-01) is v2 with
``v3`` in the key and the id, every win check exact, and the tables of
version 3, ``calibration-v3.json``: v1's solo table, and a co-op table built
from the exact analyses of the same 10,000 calibration deals
(``benchmarks/results/calibration-coop-exact.jsonl``), so that the table and
the candidates it labels are measured alike.  Its dailies are a function of
the date, the options and the tables alone, whatever the core
(tests/scoundrel/test_effort.py runs them under a perturbed core).

The co-op table entered version 1 on 2026-12-01, when the co-op calibration
reached its 10,000 deals; before, co-op dailies had no label and a co-op
daily with a difficulty was refused.  No daily served before changed.

Everything here depends on the date, the options and fixed tables only, so
every run on every machine gives the same daily.
"""
from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from typing import Optional

from ..batch import ordered_map
from .deal import deal
from ..errors import InputError
from ..values import calendar_date
from .rating import DECIDE_NODES_COOP, FEATURE_DECIMALS, LABEL_NAMES, Rating, analyse, apply_calibration
from .rules import Rules

# The first date each method is in force for (the latest one not after a
# date serves it).  Never edit a date once it has passed: a new method
# starts at a date still to come, announced.
METHOD_SINCE = {"v1": datetime.date.min, "v2": datetime.date(2027, 1, 1), "v3": datetime.date(2027, 2, 1)}
METHODS = tuple(METHOD_SINCE)
# Per method: the calibration table file, the precision features are ranked
# at (None: unrounded, method v1's comparison), and the node limit of each
# co-op win check (None: exact; v1 and v2 keep theirs so their dailies stay).
_TABLES = {"v1": "calibration-v1.json", "v2": "calibration-v1.json", "v3": "calibration-v3.json"}
_DECIMALS = {"v1": None, "v2": FEATURE_DECIMALS, "v3": FEATURE_DECIMALS}
_CHECK_NODES = {"v1": DECIDE_NODES_COOP, "v2": DECIDE_NODES_COOP, "v3": None}
MAX_CANDIDATES = 2000


class DailyError(InputError):
    """A daily challenge that cannot be made (bad date, unknown label, none found)."""


def parse_date(text) -> datetime.date:
    return calendar_date(text, DailyError)


def rules_key(rules: Rules) -> str:
    if rules.coop:
        return f"coop-{rules.deck_size}-{rules.durability}"
    return f"solo-{rules.flee}-{rules.durability}"


def method_for(date: datetime.date) -> str:
    """The method in force on ``date``."""
    return max((since, m) for m, since in METHOD_SINCE.items() if since <= date)[1]


def check_method(method: Optional[str], date: datetime.date) -> str:
    if method is None:
        return method_for(date)
    if method not in METHOD_SINCE:
        raise DailyError(f"unknown daily method {method!r}: choose one of {', '.join(METHODS)}")
    return method


def candidate_seed(date: datetime.date, rules: Rules, difficulty: Optional[str], k: int,
                   method: str) -> int:
    key = f"scoundrel-daily/{method}/{date.isoformat()}/{rules_key(rules)}/{difficulty or 'any'}/{k}"
    return int.from_bytes(hashlib.sha256(key.encode("ascii")).digest()[:8], "big")


def calibration_for(method: str) -> dict:
    """The calibration tables a method labels its candidates with."""
    text = resources.files(__package__).joinpath("data", _TABLES[method]).read_text()
    return json.loads(text)


def label_candidate(analysis: Rating, method: str, cal: Optional[dict] = None) -> Rating:
    """``analysis`` labelled the way ``method`` labels a candidate."""
    cal = calibration_for(method) if cal is None else cal
    return apply_calibration(analysis, cal, decimals=_DECIMALS[method])


@dataclass
class Daily:
    """One daily challenge."""

    id: str
    date: datetime.date
    rules: Rules
    difficulty: Optional[str]      # the label asked for, or None
    candidate: int                 # k of the method
    seed: int
    deck: tuple
    rating: Rating
    method: str                    # the method's version, e.g. "v1"

    @property
    def score(self) -> int:
        return self.rating.score

    _line: Optional[list] = field(default=None, repr=False, compare=False)

    @property
    def line(self) -> list:
        """The solution ``--reveal`` shows (:meth:`solution`)."""
        return self.solution()

    def solution(self, progress=None) -> list:
        """The optimal line of fewest rooms first in the order of the legal actions
        (:func:`solver.scoundrel.lines.fewest_rooms_line`), in rooms; found once, then kept.

        A fixed rule over the deal alone, walked with exact tests and no limit, so it does
        not move with the search's child order, table size or threads (nor with the method:
        the deal and its proven score fix it).  ``progress(moves)`` is told the moves walked.
        """
        if self._line is None:
            from .lines import fewest_rooms_line
            from .state import State
            # (the core, as the rating's walk: the reference cannot walk a whole deal)
            self._line = fewest_rooms_line(State.new(self.deck, self.rules), self.score, engine="core",
                                           progress=progress)
        return self._line

    def as_dict(self, reveal: bool = False) -> dict:
        from .notation import format_line
        r = self.rating
        d = {"id": self.id, "date": self.date.isoformat(), "seed": self.seed,
             "deck": [str(c) for c in self.deck], "rules": self.rules.as_dict(),
             "rating": r.summary(),
             "score": r.score, "won": r.won, "method": self.method, "candidate": self.candidate}
        if reveal:
            d["line"] = format_line(self.line)
        return d


def _analyse_candidate(seed: int, rules: Rules, method: str = "v3", search_progress=None) -> Rating:
    """The analysis of candidate ``seed`` as ``method`` makes it (in a worker
    process with ``jobs`` > 1)."""
    return analyse(deal(seed, rules), rules, seed, check_nodes=_CHECK_NODES[method],
                   search_progress=search_progress)


def daily_challenge(date, rules: Rules = Rules(), difficulty: Optional[str] = None, *,
                    method: Optional[str] = None, progress=None, jobs: int = 1,
                    search_progress=None) -> Daily:
    """The daily challenge of ``date`` for ``rules`` (and a difficulty label).

    ``method``: ``None`` for the method in force on ``date``, or a version.
    With ``jobs`` > 1 the candidates are analysed ahead in that many
    processes; the challenge is the same (the first candidate accepted).
    ``progress(k, seed)`` is told each candidate as its analysis is awaited;
    ``search_progress`` (:func:`solver.rating.analyse`) is given to the
    analyses with one job (a worker process has no terminal to tell).
    """
    date = parse_date(date)
    method = check_method(method, date)
    if difficulty is not None and difficulty not in LABEL_NAMES[:-1]:
        raise DailyError(f"unknown difficulty {difficulty!r}: choose one of {', '.join(LABEL_NAMES[:-1])}")
    cal = calibration_for(method)
    if difficulty is not None and not cal.get("coop" if rules.coop else "solo"):
        # no deal of this mode gets a label: the search would never succeed
        raise DailyError(f"method {method} has no difficulty calibration for "
                         f"{'co-op' if rules.coop else 'solo'}: leave out the difficulty")
    seeds = [candidate_seed(date, rules, difficulty, k, method) for k in range(MAX_CANDIDATES)]
    analyses = ordered_map(partial(_analyse_candidate, rules=rules, method=method,
                                   search_progress=search_progress if jobs == 1 else None), seeds, jobs)
    try:
        for k, seed in enumerate(seeds):
            if progress:
                progress(k, seed)
            rating = label_candidate(next(analyses), method, cal)
            if not (rating.exact and rating.won):
                continue
            # (undecided: v1 and v2 only; a v3 check is always decided)
            if difficulty is not None and (rating.label != difficulty or rating.undecided):
                continue
            cid = f"{method}-{date.isoformat()}-{rules_key(rules)}-{difficulty or 'any'}"
            return Daily(cid, date, rules, difficulty, k, seed, tuple(deal(seed, rules)), rating, method)
    finally:
        analyses.close()
    raise DailyError(f"no {difficulty or 'winnable'} deal among the first {MAX_CANDIDATES} candidates of "
                     f"{date.isoformat()}")
