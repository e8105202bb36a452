"""Double-dummy puzzles of the Bottle Imp, and a daily puzzle per date and variant.

A **puzzle** is a play-phase position, every card known, where exactly one legal card keeps
the double-dummy value (IMP-RULES §8): "A to play, 5 tricks left: which card?".  Every other
card loses coins against perfect play, and the answer shows by how much.

Method (version ``v1``, part of every id, so a change of method can never change an old puzzle):

1. A candidate is a deal number and a stream of choices (SplitMix64, ``solver/shuffle.py``):
   from the deal, the setup and the cards are chosen uniformly among the legal ones, from
   the stream, until the first turn of A or B with ``tricks_left`` tricks left to play
   (the current one included).  Lopaka's cards follow his rule.
2. The candidate is a puzzle when, of at least two legal cards, exactly one has the
   position's exact value (the others all lose).  Equivalent cards (nothing separates them)
   keep the same value, so a position where they are the answer is no puzzle.
3. ``find_puzzles`` tries deal numbers ``seed, seed + 1, ...`` with the choice stream seeded
   by the deal number; the daily tries candidate ``k = 0, 1, ...`` of its date, whose deal
   number and stream seed are the first and the next 8 bytes (big-endian) of
   SHA-256(``imp-daily/v1/<date>/<variant>-<cards>/<k>``), with ``tricks_left`` by weekday
   (Monday 3, Tuesday 3, Wednesday 4, Thursday 4, Friday 5, Saturday 5, Sunday 6).

Everything is a function of exact values, the date and the method: no search effort, time or
machine changes a puzzle (tested with the core's techniques switched off and a small table).

**Rating**, named for what it counts: ``legal`` cards, ``losers`` (all but one), the
``smallest_loss`` (a small loss is a subtle trap), ``tricks_left`` (the depth the solution
needs: the whole rest of the round is searched), and whether the ``greedy`` bot (bots.py)
finds the answer.  ``stars`` (1-5) sum them up: 1 + (tricks_left - 3) // 2 + [smallest loss <= 4]
+ [at least 4 legal cards] + [greedy misses it], at most 5.
"""
from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from typing import Optional

from ..errors import InputError
from ..shuffle import check_seed, splitmix64
from ..values import calendar_date
from .bots import GreedyBot
from .deal import deal
from .engine import Engine
from .notation import format_line, line_of
from .position import position_dict
from .rules import Rules
from .state import Play, State

METHODS = ("v1",)
METHOD = "v1"
WEEKDAY_TRICKS = (3, 3, 4, 4, 5, 5, 6)
MAX_CANDIDATES = 2000
_ENGINE = None


class PuzzleError(InputError):
    """A puzzle request that cannot be met (variant, trick count, none found in the tries allowed)."""


def _engine() -> Engine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = Engine()
    return _ENGINE


def use_engine(engine: Optional[Engine]) -> None:
    """Solve puzzles with ``engine`` (None: a default one); for tests with a perturbed core."""
    global _ENGINE
    _ENGINE = engine


@dataclass(frozen=True)
class Puzzle:
    id: str
    rules: Rules
    seed: int                   # the deal number
    stream: int                 # the seed of the choice stream
    start: State                # the dealt round
    actions: tuple              # from the deal to the puzzle's position
    position: State
    solution: int
    value: int
    card_values: tuple          # ((card, value), ...) in card order
    solution_line: tuple        # an optimal line from the position, starting with the solution
    greedy_card: int

    @property
    def to_play(self) -> str:
        return self.position.turn_name

    @property
    def tricks_left(self) -> int:
        return self.rules.tricks - self.position.tricks_done

    @property
    def losses(self) -> dict:
        return {c: abs(v - self.value) for c, v in self.card_values if c != self.solution}

    @property
    def stars(self) -> int:
        losses = self.losses
        score = 1 + (self.tricks_left - 3) // 2 + (min(losses.values()) <= 4) + (len(self.card_values) >= 4) + (
            self.greedy_card != self.solution)
        return max(1, min(5, score))

    def rating(self) -> dict:
        losses = self.losses
        return {"stars": self.stars, "legal": len(self.card_values), "losers": len(losses),
                "smallest_loss": min(losses.values()), "largest_loss": max(losses.values()),
                "tricks_left": self.tricks_left, "greedy_finds_it": self.greedy_card == self.solution}

    def question(self) -> str:
        return (f"{self.to_play} to play, {self.tricks_left} tricks left, every card known: which card keeps the "
                f"double-dummy value?")

    def as_dict(self, reveal: bool = False) -> dict:
        out = {"type": "imp-puzzle", "id": self.id, "method": METHOD, "variant": self.rules.variant,
               "cards": self.rules.cards, "seed": self.seed, "stream": self.stream,
               "line": format_line(line_of(self.start, list(self.actions))),
               "position": position_dict(self.position), "to_play": self.to_play,
               "tricks_left": self.tricks_left, "question": self.question(), "rating": self.rating()}
        if reveal:
            out["solution"] = self.solution
            out["value"] = self.value
            out["card_values"] = [{"card": c, "value": v, "loss": abs(v - self.value)} for c, v in self.card_values]
            out["solution_line"] = format_line(line_of(self.position, list(self.solution_line)))
        return out


def _choose(stream, options):
    return options[next(stream) % len(options)]


def _walk(rules: Rules, seed: int, stream_seed: int, tricks_left: int):
    """The candidate's position: ``(start, actions, state)``, or None if the round ends first."""
    start = deal(seed, rules).start()
    stream = splitmix64(stream_seed)
    state, actions = start, []
    target_done = rules.tricks - tricks_left
    while not state.finished:
        if state.in_setup:
            choices = {i: _choose(stream, state.setup_options(i)) for i in range(len(state.seats))
                       if state.setup_options(i)}
            action = state.joint_action(choices)
        else:
            if state.tricks_done == target_done and not state.lopaka_to_play:
                return start, tuple(actions), state
            if state.tricks_done > target_done:
                return None
            cards = state.legal_cards()
            action = Play(cards[0] if len(cards) == 1 else _choose(stream, cards))
        actions.append(action)
        state = state.apply(action)
    return None


def candidate(rules: Rules, seed: int, stream_seed: int, tricks_left: int, puzzle_id: str) -> Optional[Puzzle]:
    """The puzzle of this candidate (method step 1-2), or None if it is not one."""
    walked = _walk(rules, seed, stream_seed, tricks_left)
    if walked is None:
        return None
    start, actions, state = walked
    cards = state.legal_cards()
    if len(cards) < 2:
        return None
    engine = _engine()
    values = tuple((card, bounds.lower) for card, bounds in engine.card_values(state))
    best = max(v for _, v in values) if state.turn_name == "A" else min(v for _, v in values)
    keepers = [c for c, v in values if v == best]
    if len(keepers) != 1:
        return None
    solution = keepers[0]
    after = state.apply(Play(solution))
    line = (Play(solution),) + tuple(engine.line(after, best))
    greedy = GreedyBot().choose_card(state)
    return Puzzle(puzzle_id, rules, seed, stream_seed, start, actions, state, solution, best, values, line, greedy)


def _check_request(rules: Rules, tricks_left: int) -> None:
    if not rules.two_player:
        raise PuzzleError("puzzles are for the two-player variants (Lopaka, Glitzerhaus)")
    if not 2 <= tricks_left <= rules.tricks:
        raise PuzzleError(f"bad --tricks-left {tricks_left}: {rules.variant} puzzles have 2 to {rules.tricks} "
                          f"tricks left")


def find_puzzles(rules: Rules, tricks_left: int, seed: int = 1, count: int = 1,
                 max_candidates: int = MAX_CANDIDATES) -> list:
    """The first ``count`` puzzles among deal numbers ``seed, seed + 1, ...`` (method step 3)."""
    _check_request(rules, tricks_left)
    seed = check_seed(seed)
    found = []
    for k in range(max_candidates):
        n = seed + k
        if n >= 1 << 64:
            break
        pid = f"imp-puzzle-{METHOD}-{rules.variant}-{rules.cards}-{n}-{tricks_left}"
        p = candidate(rules, n, n, tricks_left, pid)
        if p is not None:
            found.append(p)
            if len(found) == count:
                return found
    if not found:
        raise PuzzleError(f"no puzzle among {max_candidates} deals from {seed}")
    return found


def _daily_seeds(date: datetime.date, rules: Rules, k: int, method: str):
    key = f"imp-daily/{method}/{date.isoformat()}/{rules.variant}-{rules.cards}/{k}"
    digest = hashlib.sha256(key.encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big")


def check_method(method: Optional[str]) -> str:
    if method is None:
        return METHOD
    if method not in METHODS:
        raise PuzzleError(f"unknown daily method {method!r}: choose one of {', '.join(METHODS)}")
    return method


def daily_puzzle(date, rules: Rules, method: Optional[str] = None) -> Puzzle:
    """The daily puzzle of ``date`` for ``rules`` (method step 3): the same for everyone, forever."""
    date = calendar_date(date, PuzzleError)
    method = check_method(method)
    if not rules.two_player:
        raise PuzzleError("the daily puzzle is for the two-player variants (Lopaka, Glitzerhaus)")
    tricks_left = WEEKDAY_TRICKS[date.weekday()]
    pid = f"imp-daily-{method}-{date.isoformat()}-{rules.variant}-{rules.cards}"
    for k in range(MAX_CANDIDATES):
        seed, stream = _daily_seeds(date, rules, k, method)
        p = candidate(rules, seed, stream, tricks_left, pid)
        if p is not None:
            return p
    raise PuzzleError(f"no daily puzzle among {MAX_CANDIDATES} candidates for {date}")   # pragma: no cover


def daily_dict(p: Puzzle, date, reveal: bool = False) -> dict:
    out = p.as_dict(reveal)
    out["type"] = "imp-daily"
    out["date"] = calendar_date(date, PuzzleError).isoformat()
    return out


__all__ = ["METHOD", "METHODS", "Puzzle", "PuzzleError", "candidate", "daily_dict", "daily_puzzle", "find_puzzles",
           "use_engine"]
