"""Scoundrel's statistics of numbered deals: one record a deal, checked, and their summary.

The generic machinery (results files with their lock and resume, the local, Dask and
Ray backends, seed ranges) is :mod:`solver.batch`; this module says what a Scoundrel
record holds, how a deal is solved for it (:class:`Settings`), and what the summary of
a run is.  The summary is a function of the records of the requested seeds alone, so
a run interrupted and resumed gives the same summary as one that never stopped (apart
from the time figures, kept apart under ``"time"``).

>>> summarise([{"seed": 1, "score": 5, "won": True, "exact": True}], Rules())["winnable"]["fraction"]
1.0
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Optional

from .. import batch
from ..batch import (BatchError, ResultsFileError, _show, percentile, read_json_lines, seed_problem,
                     seeds_text)
from ..errors import InputError
from ..intervals import mean_ci, wilson
from .rules import Rules
from .search import DEFAULT_TT_MB, default_engine, load_core, solve

# What the summary keeps of a record (the line text stays in the file only).
SLIM_KEYS = ("seed", "score", "won", "exact", "limit", "error", "nodes", "seconds")


@dataclass(frozen=True)
class Settings:
    """How every deal of a batch is solved: the rules and the search limits."""

    rules: Rules
    max_nodes: Optional[int] = None
    timeout: Optional[float] = None
    tt_mb: int = DEFAULT_TT_MB
    engine: Optional[str] = None  # None: solve()'s default, decided where the deal runs
    win_only: bool = False        # only decide "winnable?" (no score): much faster, co-op above all

    def solve_seed(self, seed: int) -> dict:
        """The record of deal ``seed`` (what the batch backends call in their workers)."""
        return solve_seed(seed, self)


def solve_seed(seed: int, settings: Settings) -> dict:
    """Solve deal ``seed``; the JSON-able record of one line of a results file.

    A deal that hits a limit is recorded with ``exact: false``.  An unexpected
    failure is recorded too (``error``), so one bad deal does not end a long
    run; ``--resume`` solves it again.
    """
    record = {"seed": seed, "rules": settings.rules.as_dict()}
    if settings.win_only and (settings.engine or default_engine()) == "core":
        return _decide_seed(seed, settings, record)
    try:
        r = solve(seed=seed, rules=settings.rules, max_nodes=settings.max_nodes, timeout=settings.timeout,
                  tt_mb=settings.tt_mb, engine=settings.engine)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - recorded, and listed by the summary
        record.update(score=None, won=None, exact=False, limit=None, error=f"{type(exc).__name__}: {exc}")
        return record
    record.update(score=r.score, won=r.won, exact=r.exact, limit=r.limit, nodes=r.nodes,
                  seconds=round(r.seconds, 6), engine=r.engine, line=r.line_text)
    return record


def _decide_seed(seed: int, settings: Settings, record: dict) -> dict:
    """Only "is deal ``seed`` winnable?": one cut-short search (``_core.decide``).

    The record has ``won`` proven (``exact``) but no ``score``; a winning line
    ends the search at once, so winnable deals are decided in a fraction of
    the time of their exact score.
    """
    import time as _time

    from .state import State
    from .deal import deal as _deal

    state = State.new(_deal(seed, settings.rules), settings.rules)
    t0 = _time.perf_counter()
    try:
        d = load_core().decide(state, 1, max_nodes=settings.max_nodes or 0, timeout=settings.timeout or 0.0,
                               tt_mb=settings.tt_mb)
    except Exception as exc:  # noqa: BLE001 - recorded, and listed by the summary
        record.update(score=None, won=None, exact=False, limit=None, question="win",
                      error=f"{type(exc).__name__}: {exc}")
        return record
    reached = d["reached"]
    record.update(score=None, won=reached, exact=reached is not None,
                  limit=None if reached is not None else "nodes/time", nodes=d["nodes"],
                  seconds=round(_time.perf_counter() - t0, 6), engine="core", question="win")
    return record



# What each key of a stats record may hold (a key may be missing; "seed" may not).
# Exact types: JSON's true is no integer here. The bounds keep a summary's sums
# and means finite whatever the file says.
_NONE = type(None)
_RECORD_TYPES = {
    "score": ((int, _NONE), "an integer or null"),
    "won": ((bool, _NONE), "true, false or null"),
    "exact": ((bool,), "true or false"),
    "limit": ((str, _NONE), "a string or null"),
    "error": ((str,), "a string"),
    "nodes": ((int, _NONE), "a whole number or null"),
    "seconds": ((int, float), "a number of seconds"),
    "line": ((str, _NONE), "a string or null"),
    "engine": ((str,), "a string"),
    "question": ((str,), "a string"),
}
_MAX_ABS_SCORE = 1 << 31
_MAX_SECONDS = 1e12


def rules_problem(rec: dict) -> Optional[str]:
    """What is wrong with ``rec["rules"]`` (if present), or None."""
    if "rules" not in rec:
        return None
    value = rec["rules"]
    try:
        key = frozenset(value.items())   # the usual case, and a cheap key
    except (AttributeError, TypeError):
        key = json.dumps(value, sort_keys=True)
    if key not in _RULES_SEEN:
        if len(_RULES_SEEN) >= 256:
            _RULES_SEEN.clear()
        try:
            Rules(**value)
            _RULES_SEEN[key] = None
        except Exception:  # noqa: BLE001 - any value the constructor refuses is not a rule set
            _RULES_SEEN[key] = f'"rules" is not a rule set: {_show(value)}'
    return _RULES_SEEN[key]


_RULES_SEEN = {}   # a cache: a file holds one rule set, or a few, each checked once


def record_problem(rec: dict) -> Optional[str]:
    """What is wrong with one stats record (a JSON object), or None if a summary can use it."""
    problem = seed_problem(rec) or rules_problem(rec)
    if problem:
        return problem
    for key, value in rec.items():
        spec = _RECORD_TYPES.get(key)
        if spec is not None and type(value) not in spec[0]:
            return f'"{key}" must be {spec[1]}, not {_show(value)}'
    score, nodes, seconds = rec.get("score"), rec.get("nodes"), rec.get("seconds")
    if score is not None and not -_MAX_ABS_SCORE < score < _MAX_ABS_SCORE:
        return f'"score" is out of range: {_show(score)}'
    if nodes is not None and not 0 <= nodes < 1 << 64:
        return f'"nodes" is out of range: {_show(nodes)}'
    if seconds is not None and not 0 <= seconds < _MAX_SECONDS:   # also NaN and infinity
        return f'"seconds" must be a number of seconds, not {_show(seconds)}'
    return None


def read_records(path) -> tuple:
    """``(records, torn)`` of a stats results file (:func:`solver.batch.read_records`)."""
    return batch.read_records(path, record_problem)


class ResultsFile(batch.ResultsFile):
    """The results file of a Scoundrel run (:class:`solver.batch.ResultsFile`): its
    records checked as stats records, its rules described by :class:`Rules`."""

    slim_keys = SLIM_KEYS
    record_problem = staticmethod(record_problem)
    rules_class = Rules


# ----------------------------------------------------------------- summary
def summarise(records, rules: Rules, seeds=None) -> dict:
    """The summary of ``records`` (of one rule set), over ``seeds`` (default: all of theirs).

    Everything but ``"time"`` depends only on the records' seeds, scores and
    verdicts.  A deal whose score is not proven (a limit, an error) is listed
    under ``"not_exact"`` and left out of the winnable fraction and the scores.
    """
    by_seed = {}
    for rec in records:  # the last record of a seed wins
        by_seed[rec["seed"]] = rec
    wanted = sorted(set(seeds)) if seeds is not None else sorted(by_seed)
    recs = [by_seed[s] for s in wanted if s in by_seed]
    exact = [r for r in recs if r.get("exact") and "error" not in r]
    not_exact = [r for r in recs if not (r.get("exact") and "error" not in r)]
    won = sum(1 for r in exact if r.get("won"))
    wins_found = sum(1 for r in not_exact if r.get("won"))
    scores = [r["score"] for r in exact if r.get("score") is not None]
    histogram = {}
    for s in sorted(scores):
        histogram[str(s)] = histogram.get(str(s), 0) + 1
    fraction_ci = wilson(won, len(exact))
    mean, mean_interval = mean_ci(scores) if scores else (None, None)
    summary = {
        "rules": rules.as_dict(),
        "seeds": {"requested": len(wanted), "ranges": seeds_text(wanted), "first": wanted[0] if wanted else None,
                  "last": wanted[-1] if wanted else None, "with_result": len(recs),
                  "missing": len(wanted) - len(recs)},
        "exact": len(exact),
        "winnable": {"won": won, "of": len(exact),
                     "fraction": round(won / len(exact), 6) if exact else None,
                     "ci95": list(fraction_ci) if fraction_ci else None, "interval": "wilson",
                     # Over every deal with a result: a winning line found proves a deal
                     # winnable even when a limit left its best score unproven.
                     "at_least": won + wins_found, "at_most": won + len(not_exact),
                     "deals": len(recs)},
        "score": {"deals": len(scores), "mean": mean, "ci95": list(mean_interval) if mean_interval else None,
                  "min": min(scores) if scores else None, "max": max(scores) if scores else None,
                  "histogram": histogram},
        "not_exact": [{"seed": r["seed"], "why": r.get("error") or f"{r.get('limit') or 'unknown'} limit",
                       "score_found": r.get("score"), "win_found": bool(r.get("won"))} for r in not_exact],
    }
    timed = [r for r in recs if "seconds" in r]
    secs = sorted(r["seconds"] for r in timed)
    summary["time"] = {
        "deals": len(secs),
        "median_s": round(percentile(secs, 50), 6) if secs else None,
        "p90_s": round(percentile(secs, 90), 6) if secs else None,
        "max_s": round(secs[-1], 6) if secs else None,
        "total_s": round(math.fsum(secs), 3),
        "nodes": sum(r.get("nodes") or 0 for r in timed),
        "slowest": [r["seed"] for r in sorted(timed, key=lambda r: -r["seconds"])[:5]],
    }
    return summary


def summarise_file(path, rules: Optional[Rules] = None, seeds=None) -> tuple:
    """``(summary, torn)``: the summary of a results file's records of ``rules``
    (default: its one rule set) over ``seeds`` (default: all of theirs), and
    the number of a torn last line skipped, if any (a list).

    A file that is not a results file, or holds none of these rules, is a
    :class:`BatchError` naming it (and the line, where one is at fault).
    """
    found = read_json_lines(path, record_problem)
    if rules is None:
        first_of = {}
        for number, rec in found.items:
            first_of.setdefault(json.dumps(rec.get("rules"), sort_keys=True), number)
        if len(first_of) > 1:
            raise BatchError(f"{path} holds results of {len(first_of)} rule sets: choose one with the rule flags")
        records = [rec for _, rec in found.items]
        if records and "rules" not in records[0]:
            raise ResultsFileError(f'{path} line {found.items[0][0]}: no "rules" in the record')
    else:
        wanted = rules.as_dict()
        records = [rec for _, rec in found.items if rec.get("rules") == wanted]
    if not records:
        which = f" of {rules.describe()}" if rules is not None else ""
        raise BatchError(f"no results{which} in {path}")
    if rules is None:
        rules = Rules(**records[0]["rules"])
    return summarise(records, rules, seeds), [] if found.torn is None else [found.torn]
