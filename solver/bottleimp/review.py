"""The double-dummy review of a round: where each player lost coins of margin, card by card.

A finished (or stopped) Lopaka or Glitzerhaus round laid open: for every card A or B played,
the value of the position before it (the margin A − B under optimal play from there, IMP-RULES
§8, the mover to play) and after it, and what the card **lost** the mover (A maximises the
margin, B minimises it: A's loss is before − after, B's after − before; never negative), with
the cards that would have kept the value.  Lopaka's cards are shown as his rule plays them and
never charged.  The setup is reviewed where an exact value exists:

* Lopaka's **exchange**: the 11 x 11 matrix game of play-phase values (:func:`.analysis.exchange_game`),
  its equilibrium value, the value of the pair actually passed, and each player's best pass
  **against the other player's actual pass** with the coins the actual pass lost there (A: the
  best row at B's column minus the played cell; B: the played cell minus the best column at A's
  row).  Double dummy, as every figure here: Lopaka's hand and the devil's trick known.
* Glitzerhaus's **open stacks**: the 2 x 2 game (:func:`.analysis.open_stack_game`), the same figures.
* Glitzerhaus's discard-and-pass steps, in hindsight (:func:`stack_review`): each of a player's
  72 (discard, pass) pairs **against the other player's actual pair** (the joint choices are
  too many for a matrix game), valued at ``s2`` by the open-stack 2 x 2 game that follows (its
  exact value), at ``s1`` with the rest of the setup as actually played (always still legal:
  stack 2 and the open choice do not depend on stack 1's cards), then double dummy; the best
  pairs, the actual pair's value and what it lost there.  Pairs that no deal tells apart
  (:func:`.setuphint.merge`) are searched once.

Every value is one search of the shared engine (one :class:`Engine` and its table for the
whole review).  Within a :class:`Budget` a search may stop: its entry then carries the bounds
proven (``exact`` false) and so does the review, never a guessed value.

Identity (a check the tests make): the value at the start of the play phase, minus A's losses,
plus B's, is the value at the end of the line (the margin, once the round is over).

>>> from .deal import deal
>>> from .rules import Rules
>>> r = review(deal(42, Rules("lopaka")), "pass 1 18 | 21 37 31 | 32 13 8")
>>> [(c.seat, c.card, c.before.value, c.after.value, c.loss and c.loss.value) for c in r.cards][:3]
[('A', 21, 34, 34, 0), ('L', 37, 34, 34, None), ('B', 31, 34, 34, 0)]
>>> r.exchange.played_value.value, r.exchange.seat("A").best, r.exchange.seat("A").loss.value, r.exact
(34, (3,), 1, True)
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional

from .analysis import (EXCHANGE_METHOD, OPEN_METHOD, MatrixGame, NoAnalysis, Progress, exchange_game,
                       open_stack_game, open_stack_value, shared_engine)
from .engine import Budget, Engine, Margin
from .notation import parse_line, replay
from .state import Discard, Pass, Play, Reveal, State

#: what every figure of a review is, in the words the answers use
NAMED = ("double dummy: every hand and the devil's trick known, both players playing perfectly from each position "
         "on (Lopaka, where he plays, by his rule); a setup choice is valued against the other player's actual choice")
NOT_ANALYSED = ("not analysed: each player chooses one of 9 x 8 (discard, pass) pairs of the stack, 72 x 72 joint "
                "choices each followed by the next steps, too many to solve exactly; no value is given")
STACKS_SKIPPED = ("not analysed here: the hindsight review of a stack step takes some hundreds of searches (imp review "
                  "makes it; the service with stacks=true)")
NOT_ANALYSED_YET = ("not analysed: stack 1 is valued with the rest of the setup as played, and the line stops before "
                    "stack 2")
STACK_METHOD = {1: "each (discard, pass) pair against the other player's actual pair, the rest of the setup as "
                   "actually played, then double dummy",
                2: "each (discard, pass) pair against the other player's actual pair, then the open-stack 2 x 2 "
                   "matrix game (its exact value)"}


class ReviewError(NoAnalysis):
    """A line the review cannot take (the base game)."""


def _loss(seat: str, before: Margin, after: Margin) -> Margin:
    """What a card cost the mover (A: before − after; B: after − before), >= 0 by the
    definition of the value, which makes 0 a proven lower bound too."""
    lo, hi = (before.lower - after.upper, before.upper - after.lower) if seat == "A" else \
        (after.lower - before.upper, after.upper - before.lower)
    return Margin(max(0, lo), max(0, hi))


def _sum(margins) -> Margin:
    margins = list(margins)
    return Margin(sum(m.lower for m in margins), sum(m.upper for m in margins))


@dataclass(frozen=True)
class CardReview:
    """One card of the line.  ``index``: its place among the line's actions; ``number``: its
    trick.  ``before``/``after``: the value with the mover to play and after the card;
    ``values``: every legal card with the value after it (``(card, Margin)``, card order);
    ``best``: the cards proven to keep the value, ascending (Lopaka: his card); ``forced``: one
    legal card, the suit rule allowing no other (Lopaka's too: his rule chooses among his legal
    cards, see ``by_rule``).  ``by_rule``: Lopaka's card, played by his rule; its ``loss`` is
    None (he is never charged)."""

    index: int
    number: int
    seat: str
    card: int
    before: Margin
    after: Margin
    values: tuple
    best: tuple
    forced: bool

    @property
    def by_rule(self) -> bool:
        return self.seat == "L"

    @property
    def loss(self) -> Optional[Margin]:
        return None if self.by_rule else _loss(self.seat, self.before, self.after)

    @property
    def exact(self) -> bool:
        return self.before.exact and self.after.exact and all(m.exact for _, m in self.values)


@dataclass(frozen=True)
class ChoiceReview:
    """One player's choice in a simultaneous setup step, against the other's actual choice:
    ``best`` the options proven best there (ascending), ``best_value`` the margin they give,
    ``loss`` what the actual choice cost (>= 0)."""

    seat: str
    choice: int
    best: tuple
    best_value: Margin
    loss: Margin


@dataclass(frozen=True)
class GameReview:
    """A simultaneous setup step reviewed as its matrix game (``game.kind``: ``exchange`` or
    ``open-stack``): the pair played, the value of its cell, each player's :class:`ChoiceReview`."""

    game: MatrixGame
    action: object
    played: tuple            # (A's option, B's option)
    played_value: Margin
    choices: tuple           # (A's ChoiceReview, B's)

    @property
    def exact(self) -> bool:
        return self.game.exact

    def seat(self, name: str) -> ChoiceReview:
        return self.choices[0 if name == "A" else 1]


@dataclass(frozen=True)
class PairReview:
    """One player's (discard, pass) pair at a Glitzerhaus stack step, against the other's actual
    pair: ``options`` every pair with its value (``((devil, pass), Margin)``, in the order of
    ``State.setup_options``), ``best`` the pairs proven best, ``loss`` what the actual pair cost."""

    seat: str
    choice: tuple
    value: Margin
    options: tuple
    best: tuple
    best_value: Margin
    loss: Margin


@dataclass(frozen=True)
class StackReview:
    """A Glitzerhaus stack step (``stack`` 1 or 2) reviewed in hindsight (see the module's doc)."""

    stack: int
    action: object
    choices: tuple           # (A's PairReview, B's)
    nodes: int

    @property
    def exact(self) -> bool:
        return all(m.exact for c in self.choices for _, m in c.options)

    def seat(self, name: str) -> PairReview:
        return self.choices[0 if name == "A" else 1]


@dataclass(frozen=True)
class SetupReview:
    """A setup step of the line: reviewed by ``method`` (then ``reason`` is None), or not
    analysed and why."""

    action: object
    method: Optional[str]
    reason: Optional[str]

    @property
    def step(self) -> str:
        if isinstance(self.action, Discard):
            return f"s{self.action.stack}"
        return "open" if isinstance(self.action, Reveal) else "pass"

    @property
    def analysed(self) -> bool:
        return self.method is not None


@dataclass(frozen=True)
class Review:
    """The review of ``actions`` played from ``start`` (``states``: every position of the line,
    the start first).  ``play_value``/``end_value``: the value at the first play-phase position
    of the line and at its end (None when the line never reaches the play phase)."""

    start: State
    actions: tuple
    states: tuple
    setup: tuple
    exchange: Optional[GameReview]
    open_stacks: Optional[GameReview]
    cards: tuple
    play_value: Optional[Margin]
    end_value: Optional[Margin]
    nodes: int
    seconds: float
    stacks: tuple = ()       # StackReview of s1 and s2, as far as the line goes

    @property
    def final(self) -> State:
        return self.states[-1]

    @property
    def exact(self) -> bool:
        return all(c.exact for c in self.cards) and all(g.exact for g in self.setup_games) and all(
            st.exact for st in self.stacks) and (self.end_value is None or (self.play_value.exact and
                                                                           self.end_value.exact))

    @property
    def finished(self) -> bool:
        return self.final.finished

    @property
    def scores(self) -> Optional[dict]:
        """A's and B's scores of the round (§2.7), once it is over."""
        if not self.finished:
            return None
        scores = self.final.scores()
        return {"A": scores["A"], "B": scores["B"]}

    @property
    def margin(self) -> Optional[int]:
        return self.final.value()

    @property
    def holder(self) -> Optional[str]:
        final = self.final
        return None if final.holder is None else final.seats[final.holder]

    def total_loss(self, seat: str) -> Margin:
        """The coins of margin ``seat``'s cards lost in the play: the setup's are not in it
        (:meth:`setup_loss`)."""
        return _sum(c.loss for c in self.cards if c.seat == seat)

    @property
    def setup_games(self) -> tuple:
        """The setup steps reviewed as matrix games: the exchange, the open stacks (either or none)."""
        return tuple(g for g in (self.exchange, self.open_stacks) if g is not None)

    def setup_loss(self, seat: str) -> Optional[Margin]:
        """The coins of margin ``seat``'s setup choices lost, each against the other player's
        actual choice (:class:`ChoiceReview`, :class:`PairReview`); None when the line has no
        setup step reviewed."""
        steps = [g.seat(seat).loss for g in self.setup_games] + [st.seat(seat).loss for st in self.stacks]
        return _sum(steps) if steps else None

    @property
    def tricks(self) -> tuple:
        """``((trick number, (CardReview, ...)), ...)``: the cards grouped by trick."""
        out = []
        for c in self.cards:
            if not out or out[-1][0] != c.number:
                out.append((c.number, []))
            out[-1][1].append(c)
        return tuple((n, tuple(cs)) for n, cs in out)


def _actions_of(start: State, line) -> tuple:
    """``(actions, states)`` of the line (notation text, or a sequence of actions), every move
    checked: text through the notation's replay (segments and trick boundaries too)."""
    if isinstance(line, str):
        segments = parse_line(line, start.rules)
        return tuple(a for s in segments for a in s), tuple(replay(start, segments))
    actions = tuple(line)
    states = [start]
    for action in actions:
        states.append(states[-1].apply(action))
    return actions, tuple(states)


def _best_options(values: dict, maximiser: bool) -> tuple:
    """The options proven best of ``{option: Margin}``: as good as any other's best case."""
    if maximiser:
        top = max(m.upper for m in values.values())
        return tuple(sorted(o for o, m in values.items() if m.lower >= top))
    low = min(m.lower for m in values.values())
    return tuple(sorted(o for o, m in values.items() if m.upper <= low))


def _best_margin(values, maximiser: bool) -> Margin:
    pick = max if maximiser else min
    return Margin(pick(m.lower for m in values), pick(m.upper for m in values))


def game_review(game: MatrixGame, action) -> GameReview:
    """The figures of a matrix game at the pair actually played: the cell's value and each
    player's best option against the other's actual option (A: over the rows at B's column;
    B: over the columns at A's row), with what the actual option lost there."""
    a, b = action.a, action.b          # Pass: the cards passed; Reveal: the open stacks
    i, j = game.rows.index(a), game.columns.index(b)

    def cell(r, c):
        return Margin(game.lower[r][c], game.upper[r][c])
    played = cell(i, j)
    column = {game.rows[r]: cell(r, j) for r in range(len(game.rows))}
    row = {game.columns[c]: cell(i, c) for c in range(len(game.columns))}
    best_a = _best_margin(column.values(), True)
    best_b = _best_margin(row.values(), False)
    choices = (ChoiceReview("A", a, _best_options(column, True), best_a, _loss("A", best_a, played)),
               ChoiceReview("B", b, _best_options(row, False), best_b, _loss("B", best_b, played)))
    return GameReview(game, action, (a, b), played, choices)


class _Values:
    """The value of each position of the line, searched once each with the shared engine."""

    def __init__(self, states, engine: Engine, budget: Budget):
        self.states, self.engine, self.budget = states, engine, budget
        self.known = {}

    def __call__(self, k: int, guess: int = 0) -> Margin:
        if k not in self.known:
            self.known[k] = Margin.of(self.engine.bounds(self.states[k], self.budget, guess=guess))
        return self.known[k]


def _guess(m: Margin) -> int:
    """Where a search's tests start: the middle of what is known of a neighbouring value."""
    return (m.lower + m.upper) // 2


def _check_card(c: CardReview, maximiser: bool) -> None:
    """The engine agrees with itself: the value before is the best of the values after."""
    if not c.exact:
        return
    best = _best_margin([m for _, m in c.values], maximiser)
    if best != c.before or (c.loss is not None and c.loss.value < 0):
        raise AssertionError(f"the review disagrees with itself at card {c.card} (trick {c.number}): before "
                             f"{c.before.value}, best after {best.value}, after {c.after.value}")


def review(start_or_deal, line, budget: Budget = None, engine: Engine = None, workers: int = None,
           progress: Optional[Callable[[Progress], None]] = None, stacks: bool = True) -> Review:
    """The review of ``line`` (notation text, or actions) played from a deal or a state.

    Illegal moves raise the rules engine's :class:`~.state.IllegalMove` (an InputError);
    a partial line is reviewed up to where it stops.  ``budget`` is shared by every search
    (the matrix games' cells get equal shares of what the cards leave).  The cards' positions are
    searched by ``engine`` (default: the process's shared engine), one table for them all; a
    matrix game's cells by :func:`.analysis.matrix_game`, in ``workers`` processes (1: this one,
    with the shared engine).  ``stacks``: review Glitzerhaus's stack steps (:func:`stack_review`:
    some hundreds of searches a step); without, they are listed as not analysed here."""
    start = start_or_deal if isinstance(start_or_deal, State) else start_or_deal.start()
    if not start.rules.two_player:
        raise ReviewError("the review is double dummy, defined for Lopaka and Glitzerhaus; the base game's value is "
                          "out of scope (IMP-RULES §8)")
    t0 = time.perf_counter()
    actions, states = _actions_of(start, line)
    budget = budget or Budget()
    engine = engine or shared_engine()
    n0 = engine.stats()["nodes"]
    values = _Values(states, engine, budget)

    plays = [k for k, a in enumerate(actions) if isinstance(a, Play)]
    first = next((k for k, s in enumerate(states) if not s.in_setup), None)
    cards = []
    play_value = end_value = None
    if first is not None:
        play_value = values(first)
        guess = _guess(play_value)
        for done, k in enumerate(plays):
            state, card = states[k], actions[k].card
            seat = state.turn_name
            before = values(k, guess)
            if seat == "L":
                after = values(k + 1, _guess(before))
                children = ((card, after),)
            else:
                children = tuple((c, Margin.of(b)) for c, b in engine.card_values(state, budget, _guess(before)))
                after = dict(children)[card]      # the next position is searched afresh: a check
            best = (card,) if seat == "L" else _best_options(dict(children), seat == "A")
            forced = len(state.following_cards()) == 1
            entry = CardReview(k, state.tricks_done + 1, seat, card, before, after, children, best, forced)
            if seat != "L":
                _check_card(entry, seat == "A")
            cards.append(entry)
            guess = _guess(after)
            if progress is not None:
                progress(Progress("review", None, None, engine.stats()["nodes"] - n0, done + 1, len(plays)))
        end_value = values(len(states) - 1, guess)
    _check_chain(cards, play_value, end_value)
    nodes = engine.stats()["nodes"] - n0

    setup, exchange, open_stacks, stack_reviews = [], None, None, []
    for k, action in enumerate(actions):
        if isinstance(action, Play):
            continue
        state = states[k]
        if isinstance(action, Pass):
            game = exchange_game(state, budget, progress, workers)
            exchange = game_review(game, action)
            setup.append(SetupReview(action, EXCHANGE_METHOD, None))
            nodes += game.nodes
        elif isinstance(action, Reveal):
            game = open_stack_game(state, budget, progress, workers)
            open_stacks = game_review(game, action)
            setup.append(SetupReview(action, OPEN_METHOD, None))
            nodes += game.nodes
        else:
            reviewed = stack_review(states, actions, k, budget, engine, progress) if stacks else None
            if not stacks:
                setup.append(SetupReview(action, None, STACKS_SKIPPED))
            elif reviewed is None:
                setup.append(SetupReview(action, None, NOT_ANALYSED_YET))
            else:
                stack_reviews.append(reviewed)
                setup.append(SetupReview(action, STACK_METHOD[action.stack], None))
                nodes += reviewed.nodes
    for g in (exchange, open_stacks):
        if g is not None and first and actions[first - 1] == g.action and g.played_value.exact \
                and play_value.exact and g.played_value != play_value:
            raise AssertionError(f"the played cell ({g.played_value.value}) is not the value after the setup "
                                 f"({play_value.value})")
    return Review(start, actions, states, tuple(setup), exchange, open_stacks, tuple(cards), play_value, end_value,
                  nodes, time.perf_counter() - t0, tuple(stack_reviews))


def stack_review(states, actions, k: int, budget: Budget, engine: Engine,
                 progress: Optional[Callable[[Progress], None]] = None) -> Optional[StackReview]:
    """The hindsight review of the stack step ``actions[k]`` (a :class:`Discard`) of the line
    whose positions are ``states`` (see the module's doc); None for stack 1 of a line that
    stops before stack 2.  ``progress`` after each pair searched (stage ``s1`` or ``s2``, the
    pairs of both players counted)."""
    from .setuphint import canonical
    state, action = states[k], actions[k]
    stack = action.stack
    n0 = engine.stats()["nodes"]
    rest = []                    # the setup steps after this one, as played (s1: s2 and open)
    for later in actions[k + 1:]:
        if isinstance(later, Play):
            break
        rest.append(later)
    table = state.rules.table
    played = {0: (action.a_devil, action.a_pass), 1: (action.b_devil, action.b_pass)}
    out = []
    total, done = len(state.setup_options(0)) + len(state.setup_options(1)), 0
    for seat in (0, 1):
        other = played[1 - seat]
        holding = state.hands[seat * 2 + state.step]
        known = {}
        options = []
        for option in state.setup_options(seat):
            rep = canonical(option, holding, table)
            if progress is not None:
                progress(Progress(f"s{stack}", None, None, engine.stats()["nodes"] - n0, done, total))
            done += 1
            if rep not in known:
                after = state.apply(state.joint_action({seat: rep, 1 - seat: other}))
                if stack == 2:
                    known[rep] = open_stack_value(after, engine, budget)[0]
                else:
                    for later in rest:
                        after = after.apply(later)
                    if not after.in_setup:
                        known[rep] = Margin.of(engine.bounds(after, budget))
                    elif after.step == 2:     # the line stops before the open choice: its game's value
                        known[rep] = open_stack_value(after, engine, budget)[0]
                    else:                     # the line stops before stack 2: nothing to value it by
                        return None
            options.append((option, known[rep]))
        values = dict(options)
        maximiser = seat == 0
        best_value = _best_margin(values.values(), maximiser)
        name = "A" if seat == 0 else "B"
        mine = played[seat]
        out.append(PairReview(name, mine, values[mine], tuple(options), _best_options(values, maximiser), best_value,
                              _loss(name, best_value, values[mine])))
    return StackReview(stack, action, tuple(out), engine.stats()["nodes"] - n0)


def _check_chain(cards, play_value, end_value) -> None:
    """After each card is the value before the next (Lopaka's cards keep it), from the value at
    the start of the play phase to the value at the end: the searches agree with each other."""
    if not cards:
        return
    chain = [play_value] + [m for c in cards for m in (c.before, c.after)] + [end_value]
    for x, y in list(zip(chain[::2], chain[1::2])) + [(c.before, c.after) for c in cards if c.by_rule]:
        if x.exact and y.exact and x != y:
            raise AssertionError(f"the review's values do not chain: {x.value} then {y.value}")


__all__ = ["CardReview", "ChoiceReview", "GameReview", "NAMED", "NOT_ANALYSED", "PairReview", "STACKS_SKIPPED", "Review", "ReviewError",
           "STACK_METHOD", "SetupReview", "StackReview", "game_review", "review", "stack_review"]
