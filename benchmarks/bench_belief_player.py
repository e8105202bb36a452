#!/usr/bin/env python3
"""The belief player against the clairvoyant-average player, paired, whole games
(or, with ``--start-unseen``, games from a common position late in the deal).

Issue 25's measurement.  Each numbered deal of the set is played start to finish
by two players who see only what a player at the table sees (the room, the
heroes, the cards gone, the avoided rooms lying at the bottom), on the same deal:

* ``clairvoyant``: the real-table hint ranked by its clairvoyant figure alone
  (``table_hint(belief_seconds=0)``, ``--samples`` orders drawn with the rng seed
  ``1000 * deal + rooms done``, the same orders for every decision of a room):
  each sampled order solved as if it were known, the action with the best
  average taken (perfect-information Monte Carlo).  This is the player of
  ``bench_table_player.py``, whose 500 published games
  (``results/table-player.jsonl``, 69.2 % wins) it replays move for move;
  ``--clairvoyant-from FILE`` takes this side from such a file instead of
  replaying it (same rules and samples required; the record says so);
* ``belief``: a player that decides without assuming it will see the order,
  as far as that is affordable, by the number of unseen cards ``n`` at the
  decision (the cheapest exact figure first):

  1. ``n <= --exact-unseen`` (default 7): the **exact** belief search in C
     (``CoreBeliefSearch``, up to ``--max-beliefs`` room-start beliefs per
     decision); the belief-optimal action (ties: the first legal action);
  2. else, ``n <= 30`` (the C engine's limit), or step 1 over its count: the
     **depth-0** belief search in C (``CoreBeliefSearch(horizon=0)``): the
     rest of this room decided without seeing the order, each deal after it
     valued by the mean over ``--leaf-samples`` orders of that deal's unseen
     cards solved exactly (enumerated when there are no more distinct orders
     than that).  The value it ranks by is an (estimated) upper bound, but it
     removes the clairvoyant player's "strategy fusion" inside the room: the
     clairvoyant average lets the rest of the room's takes, and which card is
     carried, depend on the order, which nobody at the table can see;
  3. else (early, more than 30 unseen): the clairvoyant ranking, as the
     clairvoyant player (same orders).

  ``--lookahead depth1`` (issue 62; off by default, the player above stays the
  default until this one is measured better): between steps 1 and 2, at
  ``n <= --depth1-unseen`` (default 31: one room earlier than the depth-0 step
  reaches), the **depth-1** belief search (:class:`.lookahead.Depth1Search`):
  the rest of this room and the whole next room decided without seeing the
  order, the next deal over ``--depth1-deals`` orders drawn in common, the
  next room valued by the depth-0 search in C with ``--depth1-orders`` common
  orders.  Bounded by counts as the rest.

  ``--avoid-rule either`` (a variant, to test the lead of the summary's parting
  table on fresh deals): at a depth-0 decision where the room may be avoided and
  the depth-0 search faces it, the player avoids if the clairvoyant ranking
  (the clairvoyant player's orders) would; the note says ``avoid_by``.
  ``--leaf-orders common``: the depth-0 search's chance nodes with the same
  unseen cards all use the same sampled orders (``CoreBeliefSearch(common_orders=True)``),
  so the actions of a decision are compared on the same orders (common random
  numbers) instead of each on its own draw: less noise in the comparison, and
  less of the "winner's curse" of taking the best of many noisy figures.

  Every step is bounded by counts, never by time, so a record does not depend
  on the machine's speed or load.  The engines live for one game (their memos
  hold exact values, or sampled ones that are a fixed function of the position
  and the deal's seed), so a game replays move for move.

For each decision the belief player records the unseen count, which step
decided (``kind``: ``exact``, ``depth0``, ``clairvoyant``), the figure of the
action taken and, where the belief figure is exact, the clairvoyant figure of
the same action (the same ``--samples`` orders as the clairvoyant player's): the
achievable-vs-clairvoyant gap; and whether the clairvoyant ranking's choice
there is belief-optimal too (``same``), else what it loses exactly
(``lost_win``, ``lost_mean``).  ``first_exact`` is the exact belief value (win
chance, mean score) at the belief player's first exact decision: what a player
who played as this one up to there and optimally for a player at the table from
there achieves, in expectation over the orders still hidden (an *achievable*
figure, so a lower bound on the achievable optimum of the deal's position).

``--start-unseen N`` (not whole games; made for co-op, whose first rooms cost
the clairvoyant player tens of minutes a game): both players start from the
same position of each deal, the one reached by the deal's exact optimal line
(``solve``'s line, the order *known*, so a clairvoyant prefix: a better
position than a real player would reach) at its first decision with at most
N unseen cards; from there each plays to the end as above, paired.  The record
says where (``start``: rooms done, unseen count, known bottom, the number of
prefix moves and the prefix as text; a player's ``line`` is the whole game,
prefix included, its ``moves``, ``hints`` and ``seconds`` its own part).  A
deal whose optimal line ends the game before such a decision has ``start``
null and both players get that line's result; the summary counts those apart.
A results file holds one configuration (rules, the four counts above,
``start_unseen``): ``--resume`` onto records of another one is refused.

One JSON line per deal, appended as soon as the deal is done; ``--resume`` skips
deals already in the file (one writer per file), so an interrupted run loses nothing.

    nice -n 5 python benchmarks/bench_belief_player.py --seeds 1-500 \\
        --clairvoyant-from benchmarks/results/table-player.jsonl \\
        --out benchmarks/results/belief-player-solo.jsonl --resume
    python benchmarks/bench_belief_player.py --endgame benchmarks/results/belief-player-solo.jsonl
    python benchmarks/bench_belief_player.py --summary benchmarks/results/belief-player-solo.jsonl
    nice -n 5 python benchmarks/bench_belief_player.py --mode coop --seeds 1-100 \\
        --start-unseen 20 --samples 4 --leaf-samples 4 --exact-unseen 4 \\
        --out benchmarks/results/belief-player-coop52-start20.jsonl --resume

(Whole co-op games, without ``--start-unseen``, cost about half an hour of a core
each even with 4 samples; the co-op exact belief search at 5-7 unseen cards
several minutes a decision, hence ``--exact-unseen 4`` there: benchmarks/README.md.)
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from scoundrel_solver import Rules, State, deal, solve  # noqa: E402
from scoundrel_solver.scoundrel.beliefsearch import MAX_UNSEEN, BudgetExceeded, CoreBeliefSearch  # noqa: E402
from scoundrel_solver.scoundrel.lookahead import MAX_ROOT_UNSEEN, Depth1Search  # noqa: E402
from scoundrel_solver.scoundrel.table import TablePosition, known_bottom_after  # noqa: E402
from scoundrel_solver.scoundrel.tablehint import table_hint  # noqa: E402
from scoundrel_solver.intervals import sign_test, wilson  # noqa: E402
from scoundrel_solver.scoundrel.notation import parse_action  # noqa: E402
from scoundrel_solver.scoundrel.state import AVOID  # noqa: E402
from bench_table_player import fail, load, parse_seeds, run_deals  # noqa: E402  (one runner for both)

PLAYERS = ("clairvoyant", "belief")
DEFAULTS = {"samples": 20, "exact_unseen": 7, "max_beliefs": 20_000, "leaf_samples": 16,
            "depth1_deals": 8, "depth1_orders": 16, "depth1_unseen": 31}
# what a record's games depend on besides the deal: a results file holds one of these only
CONFIG_KEYS = ("rules", "samples", "exact_unseen", "max_beliefs", "leaf_samples", "start_unseen", "avoid_rule",
               "leaf_orders", "lookahead", "depth1_deals", "depth1_orders", "depth1_unseen")
AVOID_RULES = ("depth0", "either")
LEAF_ORDERS = ("per-leaf", "common")
LOOKAHEADS = ("depth0", "depth1")
KINDS = ("exact", "depth1", "depth0", "clairvoyant")


def config_of(rec: dict) -> dict:
    """The configuration a record was made with (``start_unseen`` None: whole
    games, as in the files written before the option existed; ``avoid_rule``
    and ``leaf_orders`` None: the depth-0 rule's and per-leaf orders, likewise;
    ``lookahead`` and its counts None: no depth-1 step)."""
    return {k: rec.get(k) for k in CONFIG_KEYS}


def flat(line):
    """A solve result's line (one list of actions per room) as one list of actions."""
    return [a for group in line for a in group]


def start_position(start: State, line, start_unseen: int, known: int = 0):
    """The position both players start from with ``--start-unseen``: the deal's
    exact optimal ``line`` (actions, the order known) played from ``start`` up
    to its first decision point (more than one legal action) where a player at
    the table sees at most ``start_unseen`` cards unseen.  Returns
    ``(state, known_bottom, prefix_actions)``, or None if the line ends the game
    before such a decision.  ``known``: the cards at the bottom of ``start``'s
    dungeon the player knows (0 at a deal's start); any line of actions walks
    the same way (belief_bounds.py walks a player's own line)."""
    state = start
    for i, action in enumerate(line):
        if state.finished:
            break
        if (len(state.legal_actions()) > 1
                and len(TablePosition.from_state(state, known).unseen) <= start_unseen):
            return state, known, list(line[:i])
        known = known_bottom_after(state, action, known)
        state = state.play(action)
    return None


def replay(rec: dict, tokens):
    """Play ``tokens`` (action text) from the record's deal; the state and known bottom."""
    rules = Rules(**rec["rules"])
    state, known = State.new(deal(rec["seed"], rules), rules), 0
    for token in tokens:
        action = parse_action(token)
        known = known_bottom_after(state, action, known)
        state = state.play(action)
    return state, known


def prefix_length(rec: dict) -> int:
    """How many moves of a record's lines are the common optimal-line prefix (0: whole games)."""
    return rec["start"]["moves"] if rec.get("start") else 0


def _room_seed(seed: int, state: State) -> int:
    # the same orders for every decision of one room (nothing new is seen
    # until the next room is dealt), fresh ones for the next room
    return seed * 1000 + state.rooms_done


def _best(values):
    """The first legal action of the best (win, mean) value, and that value."""
    top = max(v for _, v in values)
    return next(a for a, v in values if v == top), top


def _clairvoyant_hint(pos, samples, rng_seed):
    return table_hint(pos, samples=samples, rng_seed=rng_seed, belief_seconds=0)


class BeliefPlayer:
    """The belief player of one game (see the module docstring): its engines
    and its per-decision notes."""

    def __init__(self, rules: Rules, seed: int, *, samples: int = 20, exact_unseen: int = 7,
                 max_beliefs: int = 20_000, leaf_samples: int = 16, avoid_rule: str | None = None,
                 leaf_orders: str | None = None, lookahead: str | None = None, depth1_deals: int | None = None,
                 depth1_orders: int | None = None, depth1_unseen: int | None = None):
        if avoid_rule not in (None,) + AVOID_RULES:
            raise ValueError(f"unknown avoid rule {avoid_rule!r} (one of {', '.join(AVOID_RULES)})")
        if leaf_orders not in (None,) + LEAF_ORDERS:
            raise ValueError(f"unknown leaf orders {leaf_orders!r} (one of {', '.join(LEAF_ORDERS)})")
        self.common_orders = leaf_orders == "common"
        self.rules, self.seed, self.samples = rules, seed, samples
        self.avoid_either = avoid_rule == "either"
        self.exact_unseen, self.max_beliefs, self.leaf_samples = exact_unseen, max_beliefs, leaf_samples
        self._exact = self._depth0 = self._depth1 = None
        if lookahead not in (None, "depth1"):
            raise ValueError(f"unknown lookahead {lookahead!r} (None or 'depth1')")
        self.depth1 = lookahead == "depth1"
        self.depth1_deals = depth1_deals or DEFAULTS["depth1_deals"]
        self.depth1_orders = depth1_orders or DEFAULTS["depth1_orders"]
        self.depth1_unseen = DEFAULTS["depth1_unseen"] if depth1_unseen is None else depth1_unseen
        self.first_exact = None

    def _engine(self, depth0: bool) -> CoreBeliefSearch:
        if depth0:
            if self._depth0 is None:
                self._depth0 = CoreBeliefSearch(self.rules, horizon=0, samples=self.leaf_samples,
                                                rng_seed=self.seed, enumerate_limit=self.leaf_samples,
                                                common_orders=self.common_orders)
            return self._depth0
        if self._exact is None:
            self._exact = CoreBeliefSearch(self.rules, max_beliefs=self.max_beliefs)
        return self._exact

    def move(self, state: State, known: int):
        """The action at a decision, and its note."""
        pos = TablePosition.from_state(state, known)
        n = len(pos.unseen)
        rng_seed = _room_seed(self.seed, state)
        note = {"room": state.rooms_done + 1, "unseen": n}
        if n <= self.exact_unseen:
            try:
                values = self._engine(False).action_values(pos)
            except BudgetExceeded:
                pass
            else:
                action, (w, m) = _best(values)
                hint = _clairvoyant_hint(pos, self.samples, rng_seed)
                top = next(v for v in hint.actions if v.action == action)
                # what the clairvoyant ranking's choice would have cost here, exactly
                cw, cm = next(v for a, v in values if a == hint.best)
                note.update(kind="exact", win=float(w), mean=float(m), cwin=top.clairvoyant_win_chance,
                            cmean=top.clairvoyant_mean_score, same=(cw, cm) == (w, m),
                            lost_win=float(w - cw), lost_mean=float(m - cm))
                if self.first_exact is None:
                    self.first_exact = {"room": note["room"], "unseen": n, "win": float(w), "mean": float(m)}
                return action, note
        if self.depth1 and n <= min(self.depth1_unseen, MAX_ROOT_UNSEEN):
            if self._depth1 is None:
                # one per game: its memo of the next rooms' values serves the later
                # decisions of a room (the same orders: seeded by the unseen cards)
                self._depth1 = Depth1Search(self.rules, deals=self.depth1_deals, orders=self.depth1_orders,
                                            rng_seed=self.seed)
            # choose: the first best of action_values, the same action and figure, valuing
            # fewer room's ends (bench_depth1_speed.py measures the two side by side)
            action, (w, m) = self._depth1.choose(pos)
            note.update(kind="depth1", win=float(w), mean=float(m))
            return action, note
        if n <= MAX_UNSEEN:
            action, (w, m) = _best(self._engine(True).action_values(pos))
            note.update(kind="depth0", win=float(w), mean=float(m))
            if self.avoid_either and action != AVOID and AVOID in state.legal_actions():
                # ``--avoid-rule either``: the depth-0 rule faces the room; avoid
                # it if the clairvoyant ranking would (same orders as that player)
                if _clairvoyant_hint(pos, self.samples, rng_seed).best == AVOID:
                    action = AVOID
                    note["avoid_by"] = "clairvoyant"
            return action, note
        hint = _clairvoyant_hint(pos, self.samples, rng_seed)
        top = hint.actions[0]
        note.update(kind="clairvoyant", cwin=top.clairvoyant_win_chance, cmean=top.clairvoyant_mean_score)
        return top.action, note


def play(state: State, player: str, seed: int, known: int = 0, **cfg):
    """``player``'s game from ``state`` (``known``: how many cards at the bottom of
    its dungeon the player knows; 0 at a deal's start) to the end; returns the
    end, the moves, per-decision notes and (belief player) the first exact belief value."""
    cfg.pop("start_unseen", None)
    moves, decisions = [], []
    bp = BeliefPlayer(state.rules, seed, **cfg) if player == "belief" else None
    samples = cfg.get("samples", DEFAULTS["samples"])
    while not state.finished:
        acts = state.legal_actions()
        if len(acts) == 1:
            action = acts[0]
        elif bp is not None:
            action, note = bp.move(state, known)
            decisions.append(note)
        else:
            pos = TablePosition.from_state(state, known)
            action = _clairvoyant_hint(pos, samples, _room_seed(seed, state)).best
            decisions.append({"room": state.rooms_done + 1, "unseen": len(pos.unseen)})
        known = known_bottom_after(state, action, known)
        state = state.play(action)
        moves.append(action)
    return state, moves, decisions, (bp.first_exact if bp else None)


def run_one(job):
    seed, cfg, rules_kw, given = job
    rules = Rules(**rules_kw)
    start = State.new(deal(seed, rules), rules)
    exact = solve(state=start)
    cfg = {"start_unseen": None, **cfg}
    rec = {"seed": seed, "rules": rules.as_dict(), **cfg,
           "exact_score": exact.score, "exact_won": exact.won, "exact": exact.exact}
    known, prefix = 0, []
    if cfg["start_unseen"] is not None:
        line = flat(exact.line)
        at = start_position(start, line, cfg["start_unseen"])
        if at is None:
            # the optimal line is over before any such decision: nothing to play;
            # both players get its result
            rec["start"] = None
            text = " ".join(map(str, line))
            for player in PLAYERS:
                rec[player] = {"score": exact.score, "won": exact.won, "moves": 0, "hints": 0, "line": text,
                               "seconds": 0.0}
            rec["belief"].update(decisions=[], first_exact=None)
            return rec
        start, known, prefix = at
        rec["start"] = {"rooms_done": start.rooms_done, "unseen": len(TablePosition.from_state(start, known).unseen),
                        "known_bottom": known, "moves": len(prefix), "prefix": " ".join(map(str, prefix))}
    for player in PLAYERS:
        if player == "clairvoyant" and given is not None:
            rec[player] = given
            continue
        t0 = time.perf_counter()
        end, moves, decisions, first_exact = play(start, player, seed, known, **cfg)
        # ``line``: the whole game from the deal (the common prefix, then the
        # player's own moves); ``moves``, ``hints``, ``seconds``: the player's own part
        rec[player] = {"score": end.score, "won": end.won, "moves": len(moves), "hints": len(decisions),
                       "line": " ".join(map(str, prefix + moves)), "seconds": round(time.perf_counter() - t0, 3)}
        if player == "belief":
            rec[player]["decisions"] = decisions
            rec[player]["first_exact"] = first_exact
    return rec


def from_table_record(r: dict) -> dict:
    """The clairvoyant side of a deal from a ``bench_table_player.py`` record."""
    return {"score": r["table_score"], "won": r["table_won"], "moves": r["table_moves"],
            "hints": r["table_hints"], "line": r["table_line"], "seconds": r["seconds_table"],
            "from": "table-player record (not replayed)"}


def first_exact_of_line(rec: dict, player: str):
    """The exact belief value (win chance, mean score) at ``player``'s first
    decision with at most ``exact_unseen`` unseen cards whose exact search fits
    ``max_beliefs``, found by replaying the recorded line: what that player's
    game up to there and belief-optimal play after achieve (None if the game
    never gets there).  The belief player records it as it plays; this gives
    the clairvoyant player's, for the paired endgame comparison (``--endgame``)."""
    rules = Rules(**rec["rules"])
    tokens = rec[player]["line"].split()
    skip = prefix_length(rec)       # the common prefix is no player's decision
    state, known = replay(rec, tokens[:skip])
    for token in tokens[skip:]:
        if state.finished:
            break
        if len(state.legal_actions()) > 1:
            pos = TablePosition.from_state(state, known)
            if len(pos.unseen) <= rec["exact_unseen"]:
                try:
                    w, m = CoreBeliefSearch(rules, max_beliefs=rec["max_beliefs"]).value(pos)
                except BudgetExceeded:
                    pass
                else:
                    return {"room": state.rooms_done + 1, "unseen": len(pos.unseen), "win": float(w),
                            "mean": float(m)}
        action = parse_action(token)
        known = known_bottom_after(state, action, known)
        state = state.play(action)
    return None


def endgame_file(path: Path) -> Path:
    return path.with_name(path.stem + "-endgame.jsonl")


def run_endgame(job):
    rec = job
    return {"seed": rec["seed"], "clairvoyant_first_exact": first_exact_of_line(rec, "clairvoyant")}


def expected_wins(rec: dict, first_exact) -> float:
    """A game's win, or its exact expected win from its first exact decision on."""
    return first_exact["win"] if first_exact else float(bool(rec["won"]))


def paired(diffs):
    """Mean of paired differences and its 95 % normal interval ``(mean, (lo, hi))``.

    >>> paired([1, 0, 0, 1])[0]
    0.5
    """
    n = len(diffs)
    m = statistics.mean(diffs)
    if n < 2:
        return m, (m, m)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n)
    return m, (m - half, m + half)


def parting(rec: dict):
    """Where the belief player's line first leaves the clairvoyant one: the index
    of the first different move and the two moves there ``(i, belief, clairvoyant)``,
    or None when the lines are the same."""
    a, b = rec["belief"]["line"].split(), rec["clairvoyant"]["line"].split()
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
    return None if i is None else (i, a[i], b[i])


def parting_position(rec: dict):
    """The position where the two lines first differ, the known bottom there, and
    the two moves ``(state, known, belief, clairvoyant)``; None if the lines are the same."""
    at = parting(rec)
    if at is None:
        return None
    i, belief, clairvoyant = at
    state, known = replay(rec, rec["belief"]["line"].split()[:i])
    return state, known, belief, clairvoyant


def divergence(rec: dict):
    """Where the belief player's line first leaves the clairvoyant one: the room,
    the unseen count and which step of the belief player decided there."""
    at = parting_position(rec)
    if at is None:
        return None
    state, known, _, _ = at
    n = len(TablePosition.from_state(state, known).unseen)
    if n <= rec["exact_unseen"]:
        kind = "exact"
    elif rec.get("lookahead") == "depth1" and n <= min(rec["depth1_unseen"], MAX_ROOT_UNSEEN):
        kind = "depth1"
    else:
        kind = "depth0" if n <= MAX_UNSEEN else "clairvoyant"
    return {"room": state.rooms_done + 1, "unseen": n, "kind": kind}


PARTING = ("belief avoids", "clairvoyant avoids", "same card, other way", "another card")


def parting_move(rec: dict):
    """What the two players' first different moves are, one of ``PARTING``
    (None when the lines are the same): one of them avoids the room (which
    one), both take the same card but one with the weapon and the other bare
    handed or one gives it as the co-op help card and the other does not, or
    they take different cards.

    >>> parting_move({"belief": {"line": "8D avoid"}, "clairvoyant": {"line": "8D KCw"}})
    'belief avoids'
    >>> parting_move({"belief": {"line": "8D 2Sb"}, "clairvoyant": {"line": "8D 2Sw>"}})
    'same card, other way'
    """
    at = parting(rec)
    if at is None:
        return None
    _, x, y = at
    if "avoid" in (x, y):
        return PARTING[0] if x == "avoid" else PARTING[1]
    return PARTING[2] if x[:2] == y[:2] else PARTING[3]


def parting_table(records, endgame=None):
    """Per kind of parting move: deals, the deals won by one player only, the
    paired win difference and, where the endgame values are known, the paired
    difference of expected wins at the first exact decision (less noisy)."""
    by_kind = {}
    for r in records:
        by_kind.setdefault(parting_move(r), []).append(r)
    rows = []
    for kind in PARTING:
        sel = by_kind.get(kind)
        if not sel:
            continue
        dw = [int(bool(r["belief"]["won"])) - int(bool(r["clairvoyant"]["won"])) for r in sel]
        row = {"kind": kind, "deals": len(sel), "belief_only": sum(1 for d in dw if d > 0),
               "clairvoyant_only": sum(1 for d in dw if d < 0), "wins": paired(dw)}
        both = [r for r in sel if endgame and r["seed"] in endgame]
        if both:
            row["expected"] = paired([expected_wins(r["belief"], r["belief"]["first_exact"])
                                      - expected_wins(r["clairvoyant"], endgame[r["seed"]]["clairvoyant_first_exact"])
                                      for r in both])
            row["expected_deals"] = len(both)
        rows.append(row)
    return rows


def lookahead_text(rec: dict) -> str:
    """The depth-1 step of a record's configuration, for the summary's first line."""
    if not rec.get("lookahead"):
        return ""
    return (f"; depth-1 at <= {rec['depth1_unseen']} unseen ({rec['depth1_deals']} next deals drawn in common, "
            f"{rec['depth1_orders']} common orders below)")


def against(records, other: dict, label: str) -> None:
    """This file's belief player against another file's (``other``: seed -> record) on the
    deals both hold, paired: wins, the paired difference with its 95 % CI, exact McNemar,
    time per game."""
    both = [(r, other[r["seed"]]) for r in records if r["seed"] in other]
    if not both:
        print(f"  against {label}: no deal in common")
        return
    n = len(both)
    a = [bool(r["belief"]["won"]) for r, _ in both]
    b = [bool(o["belief"]["won"]) for _, o in both]
    print(f"  against {label} ({lookahead_text(both[0][1]).lstrip('; ') or 'its belief player'}), {n} deals:")
    for name, won in (("this belief player", a), ("that belief player", b)):
        k = sum(won)
        lo, hi = wilson(k, n)
        print(f"    {name:<20} wins {k:4d}/{n} = {100 * k / n:5.1f}%  (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
    m, (lo, hi) = paired([int(x) - int(y) for x, y in zip(a, b)])
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    print(f"    paired difference: wins {100 * m:+.1f} points (95% CI {100 * lo:+.1f} to {100 * hi:+.1f}); won by one "
          f"only: this {only_a}, that {only_b}; exact McNemar p = {sign_test(only_a, only_b):.3f}")
    ds = [r["belief"]["score"] - o["belief"]["score"] for r, o in both]
    m, (lo, hi) = paired(ds)
    print(f"    mean score difference {m:+.2f} ({lo:+.2f} to {hi:+.2f}); same line in "
          f"{sum(1 for r, o in both if r['belief']['line'] == o['belief']['line'])} deals")
    parts = {}
    for r, o in both:
        kind = parting_move({"belief": r["belief"], "clairvoyant": o["belief"]})
        if kind is not None:
            kind = kind.replace("belief", "this").replace("clairvoyant", "that")
            parts.setdefault(kind, []).append(int(bool(r["belief"]["won"])) - int(bool(o["belief"]["won"])))
    for kind, dw in sorted(parts.items()):
        print(f"    where they part by '{kind}': {len(dw)} deals, won by one only: this {dw.count(1)}, "
              f"that {dw.count(-1)}")
    for name, recs in (("this", [r for r, _ in both]), ("that", [o for _, o in both])):
        secs = [r["belief"]["seconds"] for r in recs]
        print(f"    time per game, {name}: median {statistics.median(secs):.1f} s, max {max(secs):.1f} s")


def summary(records, endgame=None):
    n = len(records)
    if not n:
        print("no records")
        return
    r0 = records[0]
    if any(config_of(r) != config_of(r0) for r in records):
        fail("the records of this file were made with different configurations")
    print(f"{n} deals ({r0['rules']}), {r0['samples']} sampled orders per clairvoyant hint; belief player: exact "
          f"at <= {r0['exact_unseen']} unseen (<= {r0['max_beliefs']:,} beliefs), depth-0 with "
          f"{r0['leaf_samples']} leaf orders at <= 30 unseen, clairvoyant before"
          f"{'; avoid rule ' + repr(r0['avoid_rule']) if r0.get('avoid_rule') else ''}"
          f"{'; leaf orders ' + repr(r0['leaf_orders']) if r0.get('leaf_orders') else ''}"
          f"{lookahead_text(r0)}:")
    cut = r0.get("start_unseen")
    if cut is not None:
        st = [r["start"] for r in records if r["start"]]
        print(f"  NOT WHOLE GAMES: both players start at the first decision with <= {cut} unseen cards on the deal's"
              f" exact optimal line; the prefix up to there was played by a clairvoyant (order-known) optimal line, so"
              f" these positions are better than a real player would reach; the comparison is paired from there on.")
        if st:
            print(f"  started: {len(st)} deals, at unseen median {statistics.median(d['unseen'] for d in st)} "
                  f"(range {min(d['unseen'] for d in st)}-{max(d['unseen'] for d in st)}), rooms done median "
                  f"{statistics.median(d['rooms_done'] for d in st)} (range {min(d['rooms_done'] for d in st)}-"
                  f"{max(d['rooms_done'] for d in st)})")
        over = n - len(st)
        print(f"  not started: {over} deals whose optimal line ends the game before such a decision; both players "
              f"counted with its result ({sum(1 for r in records if not r['start'] and r['exact_won'])} of them won)")
    rows = [("exact optimum, order known", [r["exact_won"] for r in records], [r["exact_score"] for r in records])]
    for p in PLAYERS:
        rows.append((f"{p} player", [r[p]["won"] for r in records], [r[p]["score"] for r in records]))
    for name, won, scores in rows:
        k = sum(1 for w in won if w)
        lo, hi = wilson(k, n)
        print(f"  {name:<28} wins {k:4d}/{n} = {100 * k / n:5.1f}%  (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
              f"  mean score {statistics.mean(scores):7.1f}")
    dw = [int(bool(r["belief"]["won"])) - int(bool(r["clairvoyant"]["won"])) for r in records]
    ds = [r["belief"]["score"] - r["clairvoyant"]["score"] for r in records]
    m, (lo, hi) = paired(dw)
    print(f"  paired difference, belief - clairvoyant: wins {100 * m:+.1f} points (95% CI {100 * lo:+.1f} to "
          f"{100 * hi:+.1f}); ", end="")
    m, (lo, hi) = paired(ds)
    print(f"mean score {m:+.2f} ({lo:+.2f} to {hi:+.2f})")
    print(f"  deals won by one player only: belief {sum(1 for d in dw if d > 0)}, "
          f"clairvoyant {sum(1 for d in dw if d < 0)}; same line {sum(1 for r in records if r['belief']['line'] == r['clairvoyant']['line'])}")
    notes = [d for r in records for d in r["belief"]["decisions"]]
    kinds = {k: sum(1 for d in notes if d.get("kind") == k) for k in KINDS}
    print(f"  belief player's {len(notes):,} decisions: exact belief search {kinds['exact']:,}, "
          + (f"depth-1 {kinds['depth1']:,}, " if r0.get("lookahead") else "")
          + f"depth-0 {kinds['depth0']:,}, clairvoyant ranking {kinds['clairvoyant']:,}")
    if r0.get("avoid_rule"):
        print(f"  avoid rule {r0['avoid_rule']!r}: rooms avoided on the clairvoyant ranking's word where the depth-0"
              f" search would face them: {sum(1 for d in notes if d.get('avoid_by')):,}")
    sel = [d for d in notes if d.get("kind") == "exact"]
    if sel:
        gw = statistics.mean(d["cwin"] - d["win"] for d in sel)
        gm = statistics.mean(d["cmean"] - d["mean"] for d in sel)
        same = sum(1 for d in sel if d["same"])
        print(f"  where exact ({len(sel):,} decisions): clairvoyant minus achievable figure of the action taken: "
              f"win chance {100 * gw:+.2f} points, mean score {gm:+.2f}")
        print(f"    the clairvoyant ranking's choice is belief-optimal there in {same:,} ({100 * same / len(sel):.1f} %);"
              f" its exact cost where not: win chance {100 * sum(d['lost_win'] for d in sel):.2f} points and mean score "
              f"{sum(d['lost_mean'] for d in sel):.2f} in all")
    fe = [r["belief"]["first_exact"] for r in records if r["belief"].get("first_exact")]
    if fe:
        print(f"  first exact decision ({len(fe)} games, unseen median {statistics.median(d['unseen'] for d in fe)}, "
              f"room median {statistics.median(d['room'] for d in fe)}): exact belief value, mean win chance "
              f"{100 * statistics.mean(d['win'] for d in fe):.1f} %, mean score {statistics.mean(d['mean'] for d in fe):.2f}"
              f" (the belief player's games up to there, optimal play for a table player after)")
    h0 = [next((d for d in r["belief"]["decisions"] if d.get("kind") == "depth0"), None) for r in records]
    h0 = [d for d in h0 if d]
    if h0:
        print(f"  first depth-0 decision ({len(h0)} games, unseen median {statistics.median(d['unseen'] for d in h0)}): "
              f"depth-0 value (an estimated upper bound for a table player from there), mean win chance "
              f"{100 * statistics.mean(d['win'] for d in h0):.1f} %, mean score {statistics.mean(d['mean'] for d in h0):.2f}")
    split = [divergence(r) for r in records]
    split = [d for d in split if d is not None]
    if split:
        by = {k: sum(1 for d in split if d["kind"] == k) for k in KINDS}
        print(f"  the two lines part at: an exact decision {by['exact']}, "
              + (f"a depth-1 one {by['depth1']}, " if r0.get("lookahead") else "") + f"a depth-0 one {by['depth0']}, "
              f"a clairvoyant one {by['clairvoyant']} (room median {statistics.median(d['room'] for d in split)})")
        print("  by the first different move (belief - clairvoyant, paired; 'expected': expected wins at the first"
              " exact decision):")
        for row in parting_table(records, endgame):
            m, (lo, hi) = row["wins"]
            text = (f"    {row['kind']:<21} {row['deals']:4d} deals, won by one only: belief {row['belief_only']},"
                    f" clairvoyant {row['clairvoyant_only']}; wins {100 * m:+.1f} points ({100 * lo:+.1f} to {100 * hi:+.1f})")
            if "expected" in row:
                m, (lo, hi) = row["expected"]
                text += f"; expected {100 * m:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"
            print(text)
    if endgame:
        both = [(r, endgame[r["seed"]]) for r in records if r["seed"] in endgame]
        if both:
            eb = [expected_wins(r["belief"], r["belief"]["first_exact"]) for r, _ in both]
            ec = [expected_wins(r["clairvoyant"], e["clairvoyant_first_exact"]) for r, e in both]
            m, (lo, hi) = paired([b - c for b, c in zip(eb, ec)])
            print(f"  expected wins at the first exact decision ({len(both)} deals; a game over before it counts "
                  f"its result): belief {100 * statistics.mean(eb):.1f} %, clairvoyant {100 * statistics.mean(ec):.1f} %;"
                  f" paired difference {100 * m:+.1f} points (95% CI {100 * lo:+.1f} to {100 * hi:+.1f})")
    played = [r for r in records if r.get("start", True)]
    for p in PLAYERS:
        secs = [r[p]["seconds"] for r in played]
        if secs:
            print(f"  time per game{' (from the start position)' if cut is not None else ''}, {p}: median "
                  f"{statistics.median(secs):.1f} s, max {max(secs):.1f} s")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-500")
    ap.add_argument("--mode", choices=("solo", "coop"), default="solo")
    ap.add_argument("--flee", default=None)
    ap.add_argument("--deck-size", type=int, default=None)
    ap.add_argument("--durability", default=None)
    ap.add_argument("--samples", type=int, default=DEFAULTS["samples"],
                    help="orders per clairvoyant hint (both players)")
    ap.add_argument("--exact-unseen", type=int, default=DEFAULTS["exact_unseen"],
                    help="belief player: exact belief search at most this many unseen cards")
    ap.add_argument("--max-beliefs", type=int, default=DEFAULTS["max_beliefs"],
                    help="belief player: room-start beliefs per exact search (then depth-0)")
    ap.add_argument("--leaf-samples", type=int, default=DEFAULTS["leaf_samples"],
                    help="belief player: orders per deal below the depth-0 search")
    ap.add_argument("--clairvoyant-from", type=Path, default=None,
                    help="take the clairvoyant side from a bench_table_player.py results file")
    ap.add_argument("--start-unseen", type=int, default=None, metavar="N",
                    help="not whole games: both players start at the first decision with <= N unseen cards on "
                         "the deal's exact optimal line (played with the order known)")
    ap.add_argument("--avoid-rule", choices=AVOID_RULES, default="depth0",
                    help="belief player, at a depth-0 decision where the room may be avoided: 'depth0' takes "
                         "the depth-0 search's choice; 'either' avoids when the depth-0 search or the "
                         "clairvoyant ranking avoids (the lead of the parting table; test it on fresh deals)")
    ap.add_argument("--leaf-orders", choices=LEAF_ORDERS, default="per-leaf",
                    help="belief player's depth-0 search: 'per-leaf' draws each chance node's sampled orders "
                         "from its own seed; 'common' gives every chance node with the same unseen cards the "
                         "same orders (common random numbers: actions compared on the same orders)")
    ap.add_argument("--lookahead", choices=LOOKAHEADS, default="depth0",
                    help="belief player: 'depth1' adds the depth-1 belief search (lookahead.Depth1Search) at "
                         "<= --depth1-unseen unseen cards (above the exact step); 'depth0': today's player")
    ap.add_argument("--depth1-deals", type=int, default=DEFAULTS["depth1_deals"],
                    help="depth-1 step: orders drawn in common for the next deal")
    ap.add_argument("--depth1-orders", type=int, default=DEFAULTS["depth1_orders"],
                    help="depth-1 step: common orders per chance node of the depth-0 search below the next room")
    ap.add_argument("--depth1-unseen", type=int, default=DEFAULTS["depth1_unseen"],
                    help=f"depth-1 step: at most this many unseen cards (at most {MAX_ROOT_UNSEEN})")
    ap.add_argument("--against", type=Path, default=None,
                    help="with --summary (or after a run): pair this file's belief player with FILE's, deal by deal")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--summary", type=Path, default=None)
    ap.add_argument("--endgame", type=Path, default=None,
                    help="for each record of this results file, the exact belief value at the clairvoyant "
                         "player's first exact decision (into FILE-endgame.jsonl, resumable)")
    args = ap.parse_args(argv)
    if args.summary:
        records = sorted(load(args.summary).values(), key=lambda r: r["seed"])
        summary(records, load(endgame_file(args.summary)))
        if args.against:
            against(records, load(args.against), args.against.name)
        return
    if args.endgame:
        done = load(endgame_file(args.endgame))
        todo = [r for s, r in sorted(load(args.endgame).items()) if s not in done]
        run_deals(run_endgame, todo, endgame_file(args.endgame), args.jobs, done)
        return
    if args.out is None:
        ap.error("--out is required (or --summary)")
    rules_kw = {"mode": args.mode}
    for k in ("flee", "deck_size", "durability"):
        if getattr(args, k) is not None:
            rules_kw[k] = getattr(args, k)
    rules = Rules(**rules_kw)       # bad options fail here, before any work
    cfg = {"samples": args.samples, "exact_unseen": args.exact_unseen, "max_beliefs": args.max_beliefs,
           "leaf_samples": args.leaf_samples, "start_unseen": args.start_unseen,
           "avoid_rule": None if args.avoid_rule == "depth0" else args.avoid_rule,
           "leaf_orders": None if args.leaf_orders == "per-leaf" else args.leaf_orders}
    if args.lookahead == "depth1":
        cfg.update(lookahead="depth1", depth1_deals=args.depth1_deals, depth1_orders=args.depth1_orders,
                   depth1_unseen=args.depth1_unseen)
    else:
        cfg.update(lookahead=None, depth1_deals=None, depth1_orders=None, depth1_unseen=None)
    if args.start_unseen is not None and args.clairvoyant_from:
        ap.error("--clairvoyant-from holds whole games; it does not go with --start-unseen")
    given = {}
    if args.clairvoyant_from:
        for s, r in load(args.clairvoyant_from).items():
            if r["rules"] == rules.as_dict() and r["samples"] == args.samples:
                given[s] = from_table_record(r)
    done = load(args.out) if args.resume else {}
    if not args.resume and args.out.exists() and args.out.stat().st_size:
        fail(f"{args.out} exists; use --resume")
    want = config_of({"rules": rules.as_dict(), **cfg})
    other = next((r for r in done.values() if config_of(r) != want), None)
    if other is not None:
        # one configuration per file: the summary's figures are over all its records
        fail(f"{args.out} holds records of another configuration (deal {other['seed']}: "
             f"{config_of(other)}; this run: {want}); write to another file")
    seeds = [s for s in parse_seeds(args.seeds) if s not in done]
    run_deals(run_one, [(s, cfg, rules_kw, given.get(s)) for s in seeds], args.out, args.jobs, done)
    wanted = set(parse_seeds(args.seeds))
    records = sorted((r for s, r in done.items() if s in wanted), key=lambda r: r["seed"])
    summary(records, load(endgame_file(args.out)))
    if args.against:
        against(records, load(args.against), args.against.name)


if __name__ == "__main__":
    main()
