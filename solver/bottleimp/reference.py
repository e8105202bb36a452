"""The pure-Python reference solver: the double-dummy value of IMP-RULES §8, plainly.

Plain minimax over the rules engine, and nothing else: every legal card of every
reachable position is tried (:meth:`State.legal_cards`, :meth:`State.apply`,
:meth:`State.value`), with a memo of positions already valued and no pruning, bound
or move ordering.  It is the executable specification the fast core of the next issue
is tested against, so it is written to be read, and it is only fit for small
endgames (a few tricks).

>>> from .position import position_from_dict
>>> end = position_from_dict({"type": "imp-position", "variant": "lopaka", "cards": "classic",
...     "hands": {"A": [3, 24], "L": [12, 36], "B": [5, 33]}, "devil": [2, 17, 29], "price": 14,
...     "holder": "B", "won": {"A": [1, 4, 6, 7, 8, 9, 10, 11, 13, 15, 16, 18, 20, 21, 22],
...     "L": [23, 25, 26, 27, 28, 30], "B": [14, 31, 32, 34, 35, 37]}, "leader": "A", "trick": []})
>>> value(end), [(str(a), v) for a, v in action_values(end)]
(11, [('3', 11), ('24', -48)])
>>> format_line(line_of(end, best_line(end)))
'3 12 5 | 36 33 24'

Value
-----
The value of a finished position is its margin, A's score minus B's (§2.7, §3.5,
§4.4).  Otherwise it is, over the legal cards of the player to move, the maximum of
the values after each card when A is to move, the minimum when B is, and the value
after his one card when Lopaka is (his rule leaves him no choice).  Ties between
equally valued cards go to the lowest card number (§8).

Only play-phase positions of the two-player variants have a value here: the setup
steps are simultaneous (a matrix game, not a minimax), and the base game's value is
out of scope (§8).
"""
from __future__ import annotations

from ..errors import InputError
from .notation import format_line, line_of  # noqa: F401  (used by the example above)
from .state import Play, State


class NoValueError(InputError):
    """A position the reference does not value (setup phase, base game)."""


def _check(state: State) -> None:
    if not state.rules.two_player:
        raise NoValueError("the double-dummy value is defined for Lopaka and Glitzerhaus; "
                           "the base game's value is out of scope (IMP-RULES §8)")
    if state.in_setup:
        raise NoValueError("the reference values play-phase positions: the setup steps are simultaneous "
                           "choices (a matrix game), not moves in turn")


def _maximises(state: State) -> bool:
    """Is the player to move A (who maximises the margin)?  B and Lopaka's forced card: no."""
    return state.seats[state.turn] == "A"


def _best(state: State, children: list):
    """The best ``(card, value)`` of ``children`` for the player to move, lowest card on ties."""
    pick = max if _maximises(state) else min
    target = pick(v for _, v in children)
    return min(c for c, v in children if v == target), target


def value(state: State, memo: dict = None) -> int:
    """The margin A - B under optimal play by A and B, Lopaka playing his rule."""
    _check(state)
    return _value(state, {} if memo is None else memo)


def _value(state: State, memo: dict) -> int:
    if state.finished:
        return state.value()
    known = memo.get(state)
    if known is not None:
        return known
    children = [(card, _value(state.apply(Play(card)), memo)) for card in state.legal_cards()]
    result = _best(state, children)[1]
    memo[state] = result
    return result


def action_values(state: State, memo: dict = None) -> list:
    """Every legal action of a play-phase position with its value, in card order."""
    _check(state)
    memo = {} if memo is None else memo
    return [(Play(card), _value(state.apply(Play(card)), memo)) for card in state.legal_cards()]


def best_line(state: State, memo: dict = None) -> list:
    """An optimal line to the end of the round (the lowest of equally good cards at each turn)."""
    _check(state)
    memo = {} if memo is None else memo
    line = []
    while not state.finished:
        card, _ = _best(state, [(c, _value(state.apply(Play(c)), memo)) for c in state.legal_cards()])
        line.append(Play(card))
        state = state.apply(Play(card))
    return line


def solve_reference(state: State) -> dict:
    """The value, every action's value and an optimal line of a play-phase position."""
    memo = {}
    return {"value": value(state, memo), "actions": action_values(state, memo), "line": best_line(state, memo),
            "positions": len(memo)}
