"""Simple players for the terminal game and for tests, each named for what it is.

* ``random``: any legal card, any legal setup choice (seeded: the same seed, the same game).
* ``lopaka-rule``: the dummy's rule of §3.4 used as a player (his highest card when leading;
  else the highest legal card that would win the trick as it lies, else the lowest).
* ``greedy``: the heuristic of :class:`GreedyBot` below.
* ``double-dummy``: :class:`DoubleDummyBot`, the engine's best card; it **sees every card**
  (the opponent's hand and the devil's trick too), so it is a yardstick, not a fair opponent.

Setup choices of ``lopaka-rule`` and ``greedy`` are :func:`low_cards_setup`: the dummy's
rule says nothing about passing.

>>> from .deal import deal
>>> from .rules import Rules
>>> s = deal(42, Rules("lopaka")).start()
>>> GreedyBot().choose_setup(s, 0), RandomBot(7).choose_setup(s, 0) in s.hands[0]
(1, True)
"""
from __future__ import annotations

import random

from ..errors import InputError
from .policy import low_cards_setup
from .state import Play, State, lopaka_rule, trick_winner


class BotError(InputError):
    """An unknown bot name."""


def _holding(state: State) -> tuple:
    return state.hands[state.holding_of_card(len(state.trick))]


def _wins_now(state: State, card: int) -> bool:
    trick = state.trick + (card,)
    return trick_winner(trick, state.price)[0] == len(state.trick)


class RandomBot:
    """Any legal card; any legal setup choice."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose_setup(self, state: State, seat: int):
        return self.rng.choice(state.setup_options(seat))

    def choose_card(self, state: State) -> int:
        return self.rng.choice(state.legal_cards())


class LopakaRuleBot:
    """Lopaka's rule (§3.4) as a player, on the holding whose turn it is."""

    name = "lopaka-rule"

    def __init__(self, seed: int = 0):
        pass

    def choose_setup(self, state: State, seat: int):
        return low_cards_setup(state, seat)

    def choose_card(self, state: State) -> int:
        return lopaka_rule(_holding(state), state.trick, state.price, state.rules.table)


class GreedyBot:
    """A one-trick heuristic that looks only at the cards on the table:

    1. leading: the lowest card at or above the price (a lead below it may buy the
       bottle), else the highest card;
    2. following: the lowest legal card that wins the trick as it lies without buying
       the bottle, to take the coins;
    3. else the highest legal card that does not win the trick as it lies;
    4. else (every legal card wins by buying the bottle) the highest, buying at the
       highest price.
    """

    name = "greedy"

    def __init__(self, seed: int = 0):
        pass

    def choose_setup(self, state: State, seat: int):
        return low_cards_setup(state, seat)

    def choose_card(self, state: State) -> int:
        legal = state.legal_cards()
        price = state.price
        if not state.trick:
            safe = [c for c in legal if c >= price]
            return min(safe) if safe else max(legal)
        winners = [c for c in legal if _wins_now(state, c)]
        clean = [c for c in winners if c > price]
        if clean:
            return min(clean)
        losers = [c for c in legal if c not in winners]
        if losers:
            return max(losers)
        return max(legal)


class DoubleDummyBot:
    """The double-dummy engine as a player: it sees every card and plays the best card of
    the position, the lowest of equally good ones (:func:`.analysis.best_card`).  Setup: in
    Lopaka's exchange and Glitzerhaus's open stacks its most likely choice of the exact matrix
    game's equilibrium (a pure choice: it does not mix); in Glitzerhaus's discard-and-pass steps
    the low-cards setup policy (:func:`.analysis.setup_choice`).  Lopaka and Glitzerhaus only."""

    name = "double-dummy"

    def __init__(self, seed: int = 0):
        pass

    def choose_setup(self, state: State, seat: int):
        from .analysis import setup_choice      # the engine is loaded when this bot first plays
        return setup_choice(state, seat)

    def choose_card(self, state: State) -> int:
        from .analysis import best_card
        return best_card(state)


BOTS = {"random": RandomBot, "lopaka-rule": LopakaRuleBot, "greedy": GreedyBot, "double-dummy": DoubleDummyBot}


def make_bot(name: str, seed: int = 0):
    """A bot by name (``random``, ``lopaka-rule``, ``greedy``, ``double-dummy``)."""
    if name not in BOTS:
        raise BotError(f"bad bot {name!r}: choose one of {', '.join(BOTS)}")
    return BOTS[name](seed)


def play_out(state: State, bots: dict) -> list:
    """The actions of a round played from ``state`` to its end by ``bots`` (seat index ->
    bot); Lopaka's seat plays his rule.  Setup steps are joined from each bot's choice."""
    actions = []
    while not state.finished:
        if state.in_setup:
            choices = {i: bots[i].choose_setup(state, i) for i in range(len(state.seats))
                       if state.setup_options(i)}
            action = state.joint_action(choices)
        elif state.lopaka_to_play:
            action = Play(state.legal_cards()[0])
        else:
            action = Play(bots[state.turn].choose_card(state))
        actions.append(action)
        state = state.apply(action)
    return actions


__all__ = ["BOTS", "BotError", "DoubleDummyBot", "GreedyBot", "LopakaRuleBot", "RandomBot", "low_cards_setup", "make_bot", "play_out"]
