"""The Bottle Imp's statistics of numbered deals: one record a deal, checked, and their summary.

The generic machinery (results files with their lock and resume, the local, Dask and Ray
backends, seed ranges) is :mod:`solver.batch`; this module says what a record holds, how a
deal is analysed for it (:class:`Settings`), and what the summary of a run is.

**Lopaka**, a whole deal (IMP-RULES §8): the 11 x 11 exchange matrix game of double-dummy
play-phase values, solved exactly (:func:`.analysis.exchange_game`).  A record keeps

* ``value``: the game's value (the margin A - B under the equilibrium: the *double-dummy
  value of the deal*, every card known after the exchange), as an exact fraction;
* ``maximin`` and ``minimax``: what A's and B's best pure passes guarantee;
* ``fixed``: the cell where both pass their lowest card (a fixed simple exchange), and
  ``a_mix_vs_fixed`` / ``b_mix_vs_fixed``: the margin when A (B) passes by the equilibrium and
  the other player passes the lowest card, so that their difference from ``fixed`` is what
  playing the exchange well is worth to each player against that simple exchange;
* ``holder``: for A, Lopaka and B, the probability that they end with the bottle when both
  players pass by the equilibrium and then play the principal line of each pair of passes
  (the optimal line, lowest card on ties): a property of that line, not of every optimal play.

**Glitzerhaus**, a play phase: the discard-and-pass steps by the **low-cards setup policy**
(each player passes the lowest card of the stack and discards the next lowest: a named
policy, not optimal play), then the exact 2 x 2 open-stack game; the same fields (``fixed``:
both open stack 1; no Lopaka in ``holder``).

The summary is a function of the records of the requested seeds alone (the time figures
apart), so a run interrupted and resumed gives the same summary as one that never stopped.

>>> rec = {"seed": 1, "rules": {"variant": "lopaka", "cards": "classic"}, "value": "5/2", "maximin": 1,
...        "minimax": 4, "fixed": 0, "a_mix_vs_fixed": "3", "b_mix_vs_fixed": "-1",
...        "holder": {"A": "0", "L": "1", "B": "0"}}
>>> summarise([rec], Rules("lopaka"))["value"]["mean"]
2.5
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from .. import batch
from ..batch import _show, percentile, seed_problem, seeds_text
from ..errors import InputError
from ..intervals import mean_ci, mean_ci_t, wilson
from .analysis import exchange_game, open_stack_game, policy_steps, shared_engine
from .deal import deal
from .rules import Rules
from .state import Pass, Reveal

SLIM_KEYS = ("seed", "value", "maximin", "minimax", "fixed", "a_mix_vs_fixed", "b_mix_vs_fixed", "holder", "error",
             "nodes", "seconds")
SEATS = ("A", "L", "B")


def seats_of(rules: Rules) -> tuple:
    return SEATS if rules.variant == "lopaka" else ("A", "B")


@dataclass(frozen=True)
class Settings:
    """How every deal of a batch is analysed: the rules (Lopaka or Glitzerhaus, a card table)."""

    rules: Rules

    def solve_seed(self, seed: int) -> dict:
        """The record of deal ``seed`` (what the batch backends call in their workers)."""
        return solve_seed(seed, self)


def game_rules(start_of_cell, game) -> Rules:
    return start_of_cell(game.rows[0], game.columns[0]).rules


def _holder_shares(game, start_of_cell) -> dict:
    """The probability of each seat ending with the bottle over the equilibrium's pairs, each
    pair played out along its principal line."""
    engine = shared_engine()
    value, rows, cols = game.solution
    shares = {name: Fraction(0) for name in seats_of(game_rules(start_of_cell, game))}
    for i, p in enumerate(rows):
        for j, q in enumerate(cols):
            if not p or not q:
                continue
            state = start_of_cell(game.rows[i], game.columns[j])
            line = engine.line(state, game.lower[i][j])
            for action in line:
                state = state.apply(action)
            shares[state.seats[state.holder]] += p * q
    return shares


def solve_seed(seed: int, settings: Settings) -> dict:
    """Analyse deal ``seed``: one JSON-able record (see the module's doc).  An unexpected failure
    is recorded (``error``) so that one bad deal does not end a long run; ``--resume`` redoes it."""
    rules = settings.rules
    record = {"seed": seed, "rules": rules.as_dict()}
    t0 = time.perf_counter()
    try:
        start = deal(seed, rules).start()
        if rules.variant == "lopaka":
            game = exchange_game(start, workers=1)
            a_low, b_low = 0, 0                     # the rows/columns are the hands, ascending
            cell = lambda a, b: start.apply(Pass(a, b))      # noqa: E731
        else:
            before_open = start
            for step in policy_steps(start):
                before_open = before_open.apply(step)
            game = open_stack_game(before_open, workers=1)
            a_low, b_low = 0, 0                     # both open stack 1
            cell = lambda a, b: before_open.apply(Reveal(a, b))      # noqa: E731
        value, rows, cols = game.solution
        a_mix = sum((p * game.lower[i][b_low] for i, p in enumerate(rows)), Fraction(0))
        b_mix = sum((q * game.lower[a_low][j] for j, q in enumerate(cols)), Fraction(0))
        record.update(value=str(value), maximin=game.pure_best("A")[1], minimax=game.pure_best("B")[1],
                      fixed=game.lower[a_low][b_low], a_mix_vs_fixed=str(a_mix), b_mix_vs_fixed=str(b_mix),
                      holder={k: str(v) for k, v in _holder_shares(game, cell).items()},
                      mix={"A": {str(o): str(p) for o, p in game.mixes["A"]},
                           "B": {str(o): str(p) for o, p in game.mixes["B"]}},
                      nodes=game.nodes, seconds=round(time.perf_counter() - t0, 4))
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - recorded, and listed by the summary
        record.update(error=f"{type(exc).__name__}: {exc}")
    return record


# ------------------------------------------------------------------ records
def _fraction(text) -> Optional[Fraction]:
    try:
        return Fraction(text) if isinstance(text, str) and len(text) < 40 else None
    except (ValueError, ZeroDivisionError):
        return None


def record_problem(rec: dict) -> Optional[str]:
    """What is wrong with one record (a JSON object), or None if a summary can use it."""
    problem = seed_problem(rec)
    if problem:
        return problem
    rules = rec.get("rules")
    try:
        r = Rules(**rules)
        if not r.two_player:
            raise InputError("not a two-player variant")
    except (TypeError, InputError):
        return f'"rules" is not the rules of Lopaka or Glitzerhaus: {_show(rules)}'
    if "error" in rec:
        return None if isinstance(rec["error"], str) else f'"error" must be text, not {_show(rec["error"])}'
    if _fraction(rec.get("value")) is None:
        return f'"value" must be a fraction written as text ("5/2"), not {_show(rec.get("value"))}'
    for key in ("maximin", "minimax", "fixed"):
        v = rec.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or not -200 < v < 200:
            return f'"{key}" must be a margin (a whole number), not {_show(v)}'
    for key in ("a_mix_vs_fixed", "b_mix_vs_fixed"):
        if _fraction(rec.get(key)) is None:
            return f'"{key}" must be a fraction written as text, not {_show(rec.get(key))}'
    holder = rec.get("holder")
    seats = seats_of(r)
    if not isinstance(holder, dict) or set(holder) != set(seats) or any(_fraction(v) is None for v in holder.values()):
        return f'"holder" must give {", ".join(seats)} a probability as text, not {_show(holder)}'
    return None


def read_records(path) -> tuple:
    """``(records, torn)`` of a stats results file (:func:`solver.batch.read_records`)."""
    return batch.read_records(path, record_problem)


class ResultsFile(batch.ResultsFile):
    """The results file of a Bottle Imp run: its records checked, its rules described."""

    slim_keys = SLIM_KEYS
    record_problem = staticmethod(record_problem)
    rules_class = Rules


# ------------------------------------------------------------------ summary
def _mean(values) -> dict:
    """Mean and 95 % interval (normal approximation; Student's t below 30 deals)."""
    values = [float(v) for v in values]
    mean, ci = (mean_ci_t(values) if len(values) < 30 else mean_ci(values))
    return {"mean": round(mean, 4), "ci95": None if ci is None else [round(ci[0], 4), round(ci[1], 4)]}


def summarise(records, rules: Rules, seeds=None) -> dict:
    """The summary of ``records`` (of one rule set), over ``seeds`` (default: all of theirs)."""
    by_seed = {rec["seed"]: rec for rec in records}
    wanted = sorted(set(seeds)) if seeds is not None else sorted(by_seed)
    done = [by_seed[s] for s in wanted if s in by_seed and "error" not in by_seed[s]]
    failed = [s for s in wanted if s in by_seed and "error" in by_seed[s]]
    missing = [s for s in wanted if s not in by_seed]
    out = {"rules": rules.as_dict(), "deals": len(done), "seeds": seeds_text(wanted) if wanted else "",
           "failed": seeds_text(failed), "missing": seeds_text(missing)}
    if not done:
        return out
    values = sorted(Fraction(r["value"]) for r in done)
    ahead = sum(v > 0 for v in values)
    behind = sum(v < 0 for v in values)
    out["value"] = dict(_mean(values), median=float(percentile(values, 50)), p10=float(percentile(values, 10)),
                        p90=float(percentile(values, 90)), min=float(values[0]), max=float(values[-1]))
    out["a_ahead"] = {"deals": ahead, "fraction": round(ahead / len(values), 4),
                      "ci95": [round(x, 4) for x in wilson(ahead, len(values))]}
    out["b_ahead"] = {"deals": behind, "fraction": round(behind / len(values), 4),
                      "ci95": [round(x, 4) for x in wilson(behind, len(values))]}
    out["holder"] = {seat: _mean(Fraction(r["holder"][seat]) for r in done) for seat in seats_of(rules)}
    out["maximin"] = _mean(r["maximin"] for r in done)
    out["minimax"] = _mean(r["minimax"] for r in done)
    out["fixed"] = _mean(r["fixed"] for r in done)
    out["worth"] = {"A": _mean(Fraction(r["a_mix_vs_fixed"]) - r["fixed"] for r in done),
                    "B": _mean(r["fixed"] - Fraction(r["b_mix_vs_fixed"]) for r in done)}
    # no pure equilibrium: a player's best pure choice guarantees less than the value (for A
    # or for B; maximin <= value <= minimax, so exactly where they differ)
    out["mixed"] = sum(1 for r in done if r["maximin"] != r["minimax"])
    histogram = {}
    for v in values:
        bucket = int((v // 10) * 10)
        histogram[bucket] = histogram.get(bucket, 0) + 1
    out["histogram"] = {str(k): histogram[k] for k in sorted(histogram)}
    secs = sorted(r["seconds"] for r in done if isinstance(r.get("seconds"), (int, float)))
    if secs:
        out["time"] = {"median_seconds": secs[len(secs) // 2], "p90_seconds": percentile(secs, 90),
                       "max_seconds": secs[-1], "total_seconds": round(sum(secs), 1)}
    return out


def read_rule_set(path, rules: Optional[Rules] = None) -> tuple:
    """``(records, rules, torn lines)`` of a results file: its records of ``rules`` (of the
    file's one rule set if not given; a file of more than one is an error)."""
    records, torn = read_records(path)
    records = [r for r in records if rules is None or r.get("rules") == rules.as_dict()]
    if not records:
        raise batch.BatchError(f"{path}: no records" + (f" of {rules.describe()}" if rules else ""))
    rules = rules or Rules(**records[0]["rules"])
    other = [r for r in records if r.get("rules") != rules.as_dict()]
    if other:
        raise batch.BatchError(f"{path} holds records of more than one rule set: give --variant and --cards")
    return records, rules, torn


def summarise_file(path, rules: Optional[Rules] = None, seeds=None) -> tuple:
    """``(summary, torn lines)`` of a results file (its rules unless ``rules`` is given)."""
    records, rules, torn = read_rule_set(path, rules)
    return summarise(records, rules, seeds), torn


__all__ = ["ResultsFile", "Settings", "read_records", "read_rule_set", "record_problem", "solve_seed", "summarise", "summarise_file"]
