"""A match: several rounds, their number agreed before the first (IMP-RULES §2.8).

The deal passes clockwise from round to round: the new dealer is the old seat 1 (left of the
old dealer), so every player moves one seat down.  In Lopaka and Glitzerhaus the deal thus
alternates between the two players and A and B swap every round (in Lopaka, Lopaka moves to
the new dealer's right: he is no player of the match and has no seat to keep).

**The players** are numbered by their seats in round 1: player 1 sits at seat 1 (A: left of the
first dealer, who leads the first trick), player *n* deals round 1 (B in the variants).  In
round *k* player *p* sits at seat ((p − k) mod n) + 1 and player ((k − 2) mod n) + 1 deals.

**Deal numbering [decision]** (docs/bottleimp.md, "Matches"): the rule books say nothing of it.
Round *k* of the match numbered *N* plays the deal numbered N + k − 1 (mod 2^64) of §5, its blocks
laid by that round's seats; so round 1 is deal *N* itself, and every round can be replayed
(``imp replay --seed``) and looked up alone.

**The running score**: each player's scores of the rounds played (§2.7: the bottle's holder
pays the devil's trick, every other player scores the coins won; Lopaka's own score counts for
nobody) added up; in the two-player variants the match's margin is player 1's total minus
player 2's.

>>> from .rules import Rules
>>> m = Match(Rules("lopaka"), 42, 2)
>>> [(k, m.round_seed(k), m.seat(1, k), m.seat(2, k), m.dealer(k)) for k in (1, 2)]
[(1, 42, 'A', 'B', 2), (2, 43, 'B', 'A', 1)]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..errors import InputError
from ..shuffle import MAX_SEED, check_seed
from ..values import option_value, whole_number
from .deal import Deal, deal
from .notation import parse_line, replay
from .rules import Rules
from .state import State

#: The most rounds a match may be agreed on (a long evening's worth, and a bound on a request).
MAX_ROUNDS = 100
#: Between the rounds' lines in the text of a whole match (a round's segments are split by " | ").
ROUND_SEPARATOR = " || "
#: The numbering in the words the answers use.
NUMBERING = ("round k of the match numbered N plays deal number N + k - 1 (mod 2^64); player 1 sits at seat 1 (A, left "
             "of the first dealer) in round 1 and the deal passes clockwise, so every player moves one seat a round "
             "(A and B swap in Lopaka and Glitzerhaus)")


class MatchError(InputError):
    """A match that cannot be: a bad number of rounds, more rounds played than agreed, a round
    not finished before the next."""


def check_rounds(value, name: str = "--rounds") -> int:
    """The number of rounds agreed (1 to :data:`MAX_ROUNDS`), from an int or its digits, in the
    words every option's check uses (an :class:`~scoundrel_solver.errors.OptionError`)."""
    return option_value(name, whole_number, value, 1, MAX_ROUNDS)


@dataclass(frozen=True)
class RoundResult:
    """A finished round of a match: its number, its deal number, the players' seats and each
    player's score (``scores``, by player number), the round's line, and its final state."""

    number: int
    seed: int
    seats: dict              # player -> seat name
    line: str
    final: State

    @property
    def seat_scores(self) -> dict:
        """Every seat's score of §2.7 (Lopaka's included), by seat name."""
        return self.final.scores()

    @property
    def scores(self) -> dict:
        seat_scores = self.seat_scores
        return {player: seat_scores[seat] for player, seat in self.seats.items()}


@dataclass(frozen=True)
class Match:
    """A match of ``rounds`` rounds of ``rules`` numbered ``seed`` (see the module's doc)."""

    rules: Rules
    seed: int
    rounds: int

    def __post_init__(self):
        object.__setattr__(self, "seed", check_seed(self.seed))
        object.__setattr__(self, "rounds", check_rounds(self.rounds))

    @property
    def players(self) -> int:
        """The players of the match (Lopaka is none): 2 in the variants, 3 or 4 in the base game."""
        return 2 if self.rules.two_player else self.rules.players

    @property
    def seat_names(self) -> tuple:
        """The players' seats in the order of §2.1 (seat 1 first, the dealer last)."""
        return ("A", "B") if self.rules.two_player else tuple(self.rules.seats)

    def _round(self, k: int) -> int:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= self.rounds:
            raise MatchError(f"round {k!r}: the match has rounds 1 to {self.rounds}")
        return k

    def round_seed(self, k: int) -> int:
        """The deal number of round ``k`` (from 1)."""
        return (self.seed + self._round(k) - 1) % MAX_SEED

    def deal(self, k: int) -> Deal:
        """The cards of round ``k`` as dealt, by that round's seats."""
        return deal(self.round_seed(k), self.rules)

    def seat(self, player: int, k: int) -> str:
        """The seat name of ``player`` (from 1) in round ``k``."""
        n = self.players
        if not 1 <= player <= n:
            raise MatchError(f"player {player!r}: the match has players 1 to {n}")
        return self.seat_names[(player - self._round(k)) % n]

    def seats(self, k: int) -> dict:
        """``{player: seat name}`` of round ``k``."""
        return {p: self.seat(p, k) for p in range(1, self.players + 1)}

    def player_at(self, seat: str, k: int) -> int:
        """The player who sits at ``seat`` in round ``k``."""
        if seat not in self.seat_names:
            raise MatchError(f"seat {seat!r}: the match's seats are {', '.join(self.seat_names)}")
        return (self.seat_names.index(seat) + self._round(k) - 1) % self.players + 1

    def dealer(self, k: int) -> int:
        """The player who deals round ``k`` (the last seat: B in the variants)."""
        return self.player_at(self.seat_names[-1], k)

    def result(self, k: int, final: State, line: str = "") -> RoundResult:
        """Round ``k`` finished at ``final``."""
        if not final.finished:
            raise MatchError(f"round {k} is not finished: a match adds up finished rounds")
        return RoundResult(k, self.round_seed(k), self.seats(k), line, final)

    def played(self, lines) -> tuple:
        """The :class:`RoundResult` of each round's line (text, or a list of them: rounds 1, 2, ...
        in order; the text of a whole match has :data:`ROUND_SEPARATOR` between rounds), every
        move checked and every round finished."""
        if isinstance(lines, str):
            lines = [] if not lines.strip() else lines.split(ROUND_SEPARATOR.strip())
        lines = [" ".join(str(x).split()) for x in lines]
        if len(lines) > self.rounds:
            raise MatchError(f"{len(lines)} rounds played: the match was agreed on {self.rounds}")
        out = []
        for k, text in enumerate(lines, 1):
            start = self.deal(k).start()
            try:
                final = replay(start, parse_line(text, self.rules))[-1]
            except InputError as exc:
                raise type(exc)(f"round {k}: {exc}") from None
            out.append(self.result(k, final, text))
        return tuple(out)


def match_of(rules: Rules, seed, rounds, deal_given: bool = False) -> Match:
    """The match the options of ``imp match`` and ``imp play --rounds`` (and the service's
    parameters) ask for: a numbered deal and the rounds; hands given by hand make no match."""
    if deal_given:
        raise MatchError("a match plays numbered deals (round k: deal N + k - 1): give --seed N, not --deal")
    if seed is None:
        raise MatchError("give --seed N: the match's number (its first round's deal)")
    return Match(rules, check_seed(seed, "--seed"), check_rounds(rounds))


def totals(match: Match, results) -> dict:
    """The running score: ``{player: the sum of the player's scores}`` over ``results``."""
    out = {p: 0 for p in range(1, match.players + 1)}
    for r in results:
        for player, score in r.scores.items():
            out[player] += score
    return out


def margin(match: Match, results) -> Optional[int]:
    """Player 1's total minus player 2's (the two-player variants), else None."""
    if not match.rules.two_player:
        return None
    t = totals(match, results)
    return t[1] - t[2]


def leaders(match: Match, results) -> tuple:
    """The players with the highest total (more than one on a tie)."""
    t = totals(match, results)
    best = max(t.values())
    return tuple(p for p, v in t.items() if v == best)


__all__ = ["MAX_ROUNDS", "Match", "MatchError", "NUMBERING", "ROUND_SEPARATOR", "RoundResult", "check_rounds",
           "leaders", "margin", "match_of", "totals"]
