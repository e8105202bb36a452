"""Difficulty of a deal, from exact analysis.

What makes a deal hard is measured, not guessed from the cards:

``critical``
    the share of decisions along the canonical optimal line (at each step
    the first move, in the fixed order of legal moves, that keeps the
    optimal score) where only one kind of move keeps the win (moves that do
    the same thing -- 5C or 5S, both fought bare-handed -- count once);
``narrowness``
    the mean share of the kinds of move that lose, over those decisions;
``first_losing``
    the share of the first move's choices that already lose the deal;
``margin``
    how far the optimal score falls short of a perfect game (30 solo, 40
    co-op), scaled to 0..1;
``greedy``
    how a player who cannot see the order fares: the share of the monsters'
    value still left when a simple one-move greedy player dies (0 when it
    wins).

Every feature depends only on the rules and the deal, not on how the
solver searches, so a faster solver never changes a rating (and a daily
challenge picked by difficulty stays the same).  The effort of the proof
(search nodes) is reported but not scored, for that reason.

Each feature is turned into its percentile among the winnable deals of the
calibration set (``solver/scoundrel/data/calibration.json``, rebuilt by
``benchmarks/calibrate_rating.py``), and the difficulty is the weighted mean
of those percentiles (weights in :data:`WEIGHTS`), itself expressed as a
percentile of the calibration set: 0 = the easiest deal seen, 100 = the
hardest.  Labels cut that percentile: easy < 40 <= medium < 70 <= hard < 90
<= expert.  An unwinnable deal is ``unwinnable`` whatever its features.
"""
from __future__ import annotations

import bisect
import json
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Optional

from .cards import MONSTER
from .rules import Rules
from .search import DEFAULT_TT_MB, load_core, solve
from .state import AVOID, Avoid, State

FEATURES = ("critical", "narrowness", "first_losing", "margin", "greedy")
WEIGHTS = {"critical": 0.30, "narrowness": 0.20, "first_losing": 0.15, "margin": 0.15, "greedy": 0.20}
LABELS = (("easy", 40.0), ("medium", 70.0), ("hard", 90.0), ("expert", 100.01))
LABEL_NAMES = tuple(name for name, _ in LABELS) + ("unwinnable",)
CALIBRATION_VERSION = 1
# Features are stored (analysis records, dailies, catalogues) rounded to this
# many decimals, so the calibration tables hold rounded values; a live rating
# rounds its features the same way before ranking them, so that a deal rated
# live and the same deal's record tie the table's values alike.
FEATURE_DECIMALS = 6
# A mode's table built from fewer deals than this is provisional: its labels
# may shift as more deals are analysed (rate and catalogues say so).
CALIBRATION_TARGET = 10_000
# Every win check is exact (no limit), so every feature is a function of the
# rules and the deal alone.  Daily methods v1 and v2 (and the calibration
# records made for them) stopped each co-op check after this many nodes and
# counted a stopped check as losing ("undecided"); their analyses still do,
# so that their dailies stay as they were (``analyse(check_nodes=...)``).
DECIDE_NODES_COOP = 2_000_000


def _move_kind(state: State, action):
    if isinstance(action, Avoid):
        return ("avoid",)
    card = action.card
    return (card.kind, card.value, action.mode, action.help)


def move_kinds(state: State) -> dict:
    """Kind of move -> its first legal action, in the order the canonical line tries them.

    A second avoid in a row (easy flee) comes last: the line takes it only when
    nothing else keeps the optimum, otherwise it could avoid round in circles.
    """
    kinds = {}
    for a in state.legal_actions():
        kinds.setdefault(_move_kind(state, a), a)
    if state.avoided_last and ("avoid",) in kinds:
        kinds[("avoid",)] = kinds.pop(("avoid",))
    return kinds


def greedy_move(state: State):
    """The baseline player: the move that leaves the leader the most health now.

    Ties go to the move keeping the better weapon (higher value, then a higher
    or fresh last kill); it avoids a room (when allowed) if the monsters there
    that its weapon cannot take add up to at least its health, but never
    twice in a row.
    """
    hero = state.heroes[state.leader]
    acts = state.legal_actions()
    # never twice in a row: with the easy flee rule it could avoid forever
    if AVOID in acts and not state.avoided_last:
        unarmed = sum(c.value for c in state.room
                      if c.kind == MONSTER and not hero.can_use_weapon(c.value, state.rules.lenient))
        if unarmed >= hero.health:
            return AVOID

    def key(action):
        if isinstance(action, Avoid):
            return (-10**6,)
        after = state.play(action)
        if after.dead:
            return (-10**5,)
        total = sum(h.health for h in after.heroes)
        h = after.heroes[state.leader]
        return (total, h.weapon, 99 if h.last_kill is None else h.last_kill, not action.help)
    return max(acts, key=key)


def play_greedy(state: State) -> State:
    while not state.finished:
        state = state.play(greedy_move(state))
    return state


@dataclass
class Rating:
    """The analysis of one deal and its difficulty."""

    rules: Rules
    deck: tuple
    seed: Optional[int]
    score: Optional[int]
    won: Optional[bool]
    exact: bool
    line: list
    nodes: int
    decisions: int = 0          # positions along the line with more than one kind of move
    critical: int = 0           # of those, where only one kind of move keeps the win
    first_choices: int = 0      # kinds of first move
    first_winning: int = 0      # ... that keep the win
    narrowness: float = 0.0     # sum over decisions of the share of kinds that lose
    undecided: int = 0          # win checks stopped by their node limit (counted as losing):
                                # only with ``check_nodes`` (daily methods v1, v2); else 0
    canonical: list = field(default_factory=list)   # the canonical optimal line (flat)
    greedy_score: Optional[int] = None
    greedy_won: Optional[bool] = None
    greedy_left: float = 0.0
    features: dict = field(default_factory=dict)
    difficulty: Optional[float] = None
    label: Optional[str] = None
    calibrated: bool = False
    provisional: bool = False   # labelled against a table of fewer than CALIBRATION_TARGET deals
    seconds: float = 0.0

    def summary(self) -> dict:
        """The rating as a daily challenge or a catalogue stores it."""
        return {"label": self.label, "difficulty": None if self.difficulty is None else round(self.difficulty, 1),
                "features": {k: round(v, FEATURE_DECIMALS) for k, v in self.features.items()},
                "decisions": self.decisions, "critical": self.critical, "undecided": self.undecided,
                "provisional": self.provisional}

    def canonical_text(self) -> str:
        """The canonical line in notation, rooms separated by " | " (it replays)."""
        from .lines import rooms_of
        from .notation import format_line
        if not self.canonical:
            return ""
        return format_line(rooms_of(State.new(self.deck, self.rules), self.canonical))

    def as_dict(self) -> dict:
        from .notation import format_line
        s = self.summary()
        return {
            "seed": self.seed, "rules": self.rules.as_dict(), "deck": [str(c) for c in self.deck],
            "score": self.score, "won": self.won, "exact": self.exact, "line": format_line(self.line),
            "label": s["label"], "difficulty": s["difficulty"], "features": s["features"],
            "decisions": s["decisions"], "critical": s["critical"],
            "canonical_line": self.canonical_text(),
            "first_choices": self.first_choices, "first_winning": self.first_winning,
            "undecided": self.undecided, "nodes": self.nodes,
            "greedy_score": self.greedy_score, "greedy_won": self.greedy_won,
            "calibrated": self.calibrated, "provisional": s["provisional"], "seconds": round(self.seconds, 4),
        }


def _optimal_kind(core, state: State, r: Rating, tt_mb: int, progress=None, frozen=False):
    """The kind of the first move of an optimal line from ``state`` (exact search;
    ``frozen``: with the search of daily methods v1 and v2, whose line it is)."""
    out = core.search(state, searcher=core.new_searcher(r.rules, min(tt_mb, 256), frozen=frozen),
                      progress=progress)
    if not out["exact"] or out["score"] != r.score or not out["line"]:
        raise AssertionError(f"a position on the optimal line is worth {out['score']}, not {r.score}")
    return _move_kind(state, out["line"][0][0])


def _walk_canonical_line(start: State, r: Rating, tt_mb: int, check_nodes: Optional[int] = None,
                         search_progress=None) -> None:
    """Follow the canonical optimal line and count its narrow decisions.

    At each position the kinds of move are taken in the order of
    :meth:`State.legal_actions`; the line takes the first kind that keeps the
    optimal score (a second avoid in a row, possible with the easy flee rule,
    comes last), and for every kind we ask whether it still wins.  Every
    check is exact, so the line, and so every count, depends only on the
    rules and the deal, never on how the solver searches.

    ``check_nodes`` (daily methods v1 and v2 only, :data:`DECIDE_NODES_COOP`):
    co-op checks stop after that many nodes and a stopped check counts as
    losing (``r.undecided``); where that leaves no move known to keep the
    optimum, an exact search from the position picks one (the first move of
    the core's line, so such a rating depends on the search).
    """
    core = load_core()
    limit = (check_nodes or 0) if r.rules.coop else 0
    # checks stopped at a node limit depend on the search: they keep the core's
    # search of daily methods v1 and v2 node for node (core.FROZEN_KNOBS)
    searcher = core.new_searcher(r.rules, min(tt_mb, 256), frozen=bool(limit))
    state, first = start, True
    checks = 0

    def progress():
        # what the rating is doing, for a progress line (the checks' own bounds would confuse)
        if search_progress is None:
            return None
        return search_progress(f"rating: win checks along the optimal line, move {len(r.canonical) + 1}, "
                               f"{checks} checks done", bounds=False)

    while not state.finished:
        kinds = move_kinds(state)
        chosen, wins_of, undecided = None, {}, set()
        for kind, a in kinds.items():
            child = state.play(a)
            if child.finished:
                wins, optimal = child.won, child.score >= r.score
            else:
                optimal = False
                if chosen is None:
                    optimal = core.decide(child, r.score, max_nodes=limit, searcher=searcher,
                                          progress=progress())["reached"]
                    checks += 1
                if not optimal:
                    wins = core.decide(child, 1, max_nodes=limit, searcher=searcher, progress=progress())["reached"]
                    checks += 1
                else:
                    wins = True
                if optimal is None or wins is None:
                    if not limit:
                        # only a node limit may stop a check; the others (Ctrl-C is
                        # raised, depth, outcomes) would make the count wrong
                        raise RuntimeError(f"a win check of the rating stopped without a node limit "
                                           f"(room {' '.join(map(str, state.room))})")
                    undecided.add(kind)
            wins_of[kind] = bool(wins)
            if optimal and chosen is None:
                chosen = a
        if chosen is None:
            if not limit:
                raise AssertionError("no move keeps the optimum from a position on an optimal line")
            # every check that could have found the optimal move stopped at its
            # node limit: an exact search from here (its value is the optimum,
            # as the position is on an optimal line) names an optimal move
            kind = _optimal_kind(core, state, r, tt_mb, progress(), frozen=True)
            chosen = kinds[kind]
            wins_of[kind] = True
            undecided.discard(kind)
        r.undecided += len(undecided)
        winning = sum(wins_of.values())
        if len(kinds) > 1:
            r.decisions += 1
            r.critical += winning <= 1
            r.narrowness += 1 - winning / len(kinds)
            if first:
                r.first_choices, r.first_winning = len(kinds), winning
        first = False
        r.canonical.append(chosen)
        state = state.play(chosen)
    if state.score != r.score:
        raise AssertionError(f"canonical line scores {state.score}, the optimum is {r.score}")


def _known_solve(start: State, known: dict):
    """The exact solve given as a stats record (``score``, ``line``, ``nodes``),
    checked: its line must replay from ``start`` to its score."""
    from .notation import parse_line, replay
    if not known.get("exact") or known.get("score") is None:
        raise ValueError("a known solve must be exact")
    line = parse_line(known["line"]) if known.get("line") else []
    end = replay(start, line)[-1]
    if not end.finished or end.score != known["score"]:
        raise ValueError(f"the known solve's line scores {end.score if end.finished else 'nothing (unfinished)'}, "
                         f"not its claimed {known['score']}")
    return known["score"], line, int(known.get("nodes") or 0)


def analyse(deck, rules: Rules, seed=None, *, tt_mb: int = DEFAULT_TT_MB, max_nodes=None, timeout=None,
            known: Optional[dict] = None, check_nodes: Optional[int] = None, search_progress=None,
            threads: int = 1) -> Rating:
    """Solve the deal exactly and measure the features (no calibration applied).

    ``known``: an exact solve of this deal already made (a record of
    ``scoundrel-solve stats``, with ``score``, ``line`` and ``nodes``) is used
    instead of solving again, once its line replays to its score.  The
    features depend only on the score, so they are the same either way;
    ``seconds`` then counts only the rest of the analysis.

    ``max_nodes``/``timeout`` limit the solve only: a solve they stop leaves
    the deal unrated (``exact`` false, no features, no label); they never
    reach a win check.  ``check_nodes``: the node limit of each co-op win
    check of daily methods v1 and v2 (:data:`DECIDE_NODES_COOP`), and only
    for them; ``None``: every check exact.
    ``search_progress``: ``(what, bounds=True) -> callback`` giving the progress
    callback of each search (:meth:`solver.progress.ProgressLine.search`); it
    changes nothing in the analysis.
    ``threads``: the exact solve runs on that many threads sharing one table
    (``solve(threads=)``: the same score whatever the count, so the same
    features); the win checks, one null-window test each, stay on one thread.
    """
    t0 = time.perf_counter()
    start = State.new(tuple(deck), rules)
    if known is not None:
        score, line, nodes = _known_solve(start, known)
        r = Rating(rules=rules, deck=tuple(deck), seed=seed, score=score, won=score > 0, exact=True,
                   line=line, nodes=nodes)
    else:
        res = solve(state=start, tt_mb=tt_mb, max_nodes=max_nodes, timeout=timeout, threads=threads,
                    progress=search_progress("rating: solving") if search_progress else None)
        r = Rating(rules=rules, deck=tuple(deck), seed=seed, score=res.score, won=res.won, exact=res.exact,
                   line=res.line, nodes=res.nodes)
    end = play_greedy(start)
    r.greedy_score, r.greedy_won = end.score, end.won
    total = start.monsters_left()
    r.greedy_left = 0.0 if end.won else (end.monsters_left() / total if total else 0.0)
    if r.exact and r.won:
        _walk_canonical_line(start, r, tt_mb, check_nodes, search_progress)
    best = 40 if rules.coop else 30
    if not r.exact:
        # a solve stopped by its limit: the features would measure where the
        # search got to, not the deal, so there are none (nor a label)
        r.seconds = time.perf_counter() - t0
        return r
    r.features = {
        "critical": r.critical / r.decisions if r.decisions else 0.0,
        "narrowness": r.narrowness / r.decisions if r.decisions else 0.0,
        "first_losing": 1 - r.first_winning / r.first_choices if r.first_choices else 0.0,
        "margin": (best - r.score) / (best - 1) if r.won else 1.0,
        "greedy": r.greedy_left,
    }
    r.seconds = time.perf_counter() - t0
    return r


# ------------------------------------------------------------- calibration

def _calibration_mode(rules: Rules) -> str:
    return "coop" if rules.coop else "solo"


def load_calibration() -> dict:
    try:
        text = resources.files(__package__).joinpath("data/calibration.json").read_text()
    except (FileNotFoundError, OSError):
        return {}
    return json.loads(text)


_CAL = None


def calibration() -> dict:
    global _CAL
    if _CAL is None:
        _CAL = load_calibration()
    return _CAL


def _percentile_rank(sorted_values, x) -> float:
    """Share (0..100) of calibration values below x, ties counted half."""
    n = len(sorted_values)
    if n == 0:
        return 50.0
    lo = bisect.bisect_left(sorted_values, x)
    hi = bisect.bisect_right(sorted_values, x)
    return 100.0 * (lo + 0.5 * (hi - lo)) / n


def raw_difficulty(features: dict, table: dict, decimals: Optional[int] = FEATURE_DECIMALS) -> float:
    """Weighted mean of the features' percentiles in the calibration set.

    Each feature is first rounded to ``decimals``, the precision of the
    table's values, so that a fraction such as 1/7 ties the table's 0.142857
    (ties count half) instead of lying just above it.  ``decimals=None``
    ranks the unrounded values: the comparison of daily method v1, kept so
    that its dailies never change.
    """
    total = 0.0
    for name, w in WEIGHTS.items():
        value = features[name] if decimals is None else round(features[name], decimals)
        total += w * _percentile_rank(table["quantiles"][name], value)
    return total


def label_for(percentile: float) -> str:
    for name, cut in LABELS:
        if percentile < cut:
            return name
    return LABELS[-1][0]


def apply_calibration(r: Rating, cal: Optional[dict] = None, *,
                      decimals: Optional[int] = FEATURE_DECIMALS) -> Rating:
    """Label ``r`` with ``cal`` (default: the packaged calibration).

    ``decimals``: see :func:`raw_difficulty` (``None`` only for daily v1).
    """
    cal = calibration() if cal is None else cal
    if not r.exact:
        r.label = None
        return r
    if not r.won:
        r.label, r.difficulty = "unwinnable", None
        r.calibrated = True
        return r
    table = cal.get(_calibration_mode(r.rules))
    if not table:
        r.label, r.difficulty, r.calibrated = None, None, False
        return r
    raw = raw_difficulty(r.features, table, decimals)
    r.difficulty = _percentile_rank(table["raw"], raw)
    r.label = label_for(r.difficulty)
    r.calibrated = True
    r.provisional = bool(table.get("provisional"))
    return r


def rate_record(record: dict, rules: Rules, cal: Optional[dict] = None) -> Rating:
    """The rating a stored analysis record (``score``, ``won``, ``features``:
    an analysis line or a calibration record) gets from ``cal``, without
    analysing the deal again."""
    r = Rating(rules=rules, deck=(), seed=record.get("seed"), score=record["score"], won=record["won"],
               exact=record.get("exact", True), line=[], nodes=record.get("nodes", 0),
               features=dict(record["features"]))
    return apply_calibration(r, cal)


def rate(deck, rules: Rules, seed=None, **kw) -> Rating:
    """Analyse the deal and label it with the packaged calibration."""
    return apply_calibration(analyse(deck, rules, seed, **kw))


def build_calibration(records_by_mode: dict, points: int = 1001) -> dict:
    """The calibration table from analysed deals (dicts with ``won`` and ``features``).

    Stores, per mode, each feature's distribution and the raw difficulty's
    distribution over the winnable deals, as ``points`` evenly spaced
    quantiles (enough for percentile ranks to 0.1).
    """
    def quantiles(values):
        values = sorted(values)
        n = len(values)
        return [values[min(n - 1, round(i * (n - 1) / (points - 1)))] for i in range(points)]

    out = {"version": CALIBRATION_VERSION, "weights": WEIGHTS,
           "labels": {name: cut for name, cut in LABELS}}
    for mode, records in records_by_mode.items():
        wins = [r for r in records if r.get("won") and r.get("exact")]
        if not wins:
            continue
        table = {"deals": len(records), "winnable": len(wins), "provisional": len(records) < CALIBRATION_TARGET,
                 "quantiles": {f: quantiles([r["features"][f] for r in wins]) for f in FEATURES}}
        table["raw"] = quantiles([raw_difficulty(r["features"], table) for r in wins])
        out[mode] = table
    return out
