"""Simple players for the terminal game and for tests, each named for what it is.

* ``random``: any legal card, any legal setup choice (seeded: the same seed, the same game).
* ``lopaka-rule``: the dummy's rule of §3.4 used as a player (his highest card when leading;
  else the highest legal card that would win the trick as it lies, else the lowest).
* ``greedy``: the heuristic of :class:`GreedyBot` below.

* ``table``: the real-table hint's card over what its seat knows (:class:`TableBot`), and at
  each setup step the setup hint's choice (:mod:`.setuphint`) over a fixed count of drawn deals.
* ``table-low``: the same play with the low-cards setup (the ``table`` bot before its setup
  hint: the yardstick the setup hint is measured against).
* ``double-dummy``: the engine's best card, seeing every card (:class:`DoubleDummyBot`): a
  yardstick, not a fair opponent.

Setup choices of all but ``random`` and ``table`` are :func:`low_cards_setup` (the low-cards
setup policy, :mod:`.policy`): the dummy's rule says nothing about passing, and the engines
value the play phase.  ``choose_setup(state, seat, start, actions)``: the bots that remember
the game (``needs_history``) are told the round from its deal.

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


class TableBot:
    """The real-table hint's card (:mod:`.tablehint`): the best double-dummy mean over the
    worlds consistent with what this seat knows, from the first ``worlds`` worlds of the hint's
    fixed order (each solved exactly), so its play depends on nothing but the game.  It sees
    only its own cards, the open ones and the play (:func:`.worlds.view_of`).

    Setup: the setup hint's recommendation (:func:`.setuphint.setup_hint`) over the first
    :attr:`SETUP_SAMPLES` deals drawn for what the seat knows (a fixed count: the choice
    depends on nothing but the game), under the hint's default model of the opponent and of
    the steps still to come; a step whose count is 0 is made by :func:`low_cards_setup`.
    Glitzerhaus's stack steps get 8 deals (72 choices raced over 2, the better half over 4, the
    better half of those over 8: about 20 CPU seconds a step), the exchange 32 and the open
    choice 16.  8, not 4, at the stack steps: replayed on every choice's values over 16 deals at
    stack 2 (``race_schedule.py``, 9 positions), 4 deals picked the 16 deals' choice at 6 and lost
    2.4 coins on average by the 16 deals' figures, 8 deals lost 0.5, for 1.3 times the cells
    (benchmarks/README.md, "The race against the unraced hint")."""

    name = "table"
    needs_history = True
    WORLDS = 16
    #: drawn deals a setup step, by step (0: the low-cards setup policy)
    SETUP_SAMPLES = {"pass": 32, "s1": 8, "s2": 8, "open": 16}

    def __init__(self, seed: int = 0, worlds: int = WORLDS):
        self.worlds = worlds

    def choose_setup(self, state: State, seat: int, start: State = None, actions=(), progress=None):
        """``progress(deals, candidates left)`` after each drawn deal (:func:`.setuphint.setup_hint`)."""
        from .setuphint import setup_hint
        from .setupview import STEP_NAMES, setup_view_of
        samples = self.SETUP_SAMPLES.get(STEP_NAMES[state.rules.variant][state.step], 0)
        if not samples:
            return low_cards_setup(state, seat)
        if start is None:
            if state.step:
                raise BotError("the table bot needs the game from its deal (start and actions)")
            start, actions = state, ()
        view = setup_view_of(start, actions, seat)
        return setup_hint(view, samples=samples, workers=1, progress=progress).recommended

    def choose_card(self, state: State, start: State = None, actions=(), progress=None) -> int:
        """``progress(solved, total)`` after each chunk of worlds (:func:`.tablehint.table_hint`)."""
        from .tablehint import table_hint
        from .worlds import view_of
        cards = state.legal_cards()
        if len(cards) == 1:
            return cards[0]
        if start is None:
            raise BotError("the table bot needs the game from its deal (start and actions)")
        view = view_of(start, actions, state.turn)
        return table_hint(view, seconds=0, workers=1, progress=progress, max_worlds=self.worlds).recommended


class LowSetupTableBot(TableBot):
    """The ``table`` bot's play with the low-cards setup (:func:`low_cards_setup`)."""

    name = "table-low"

    def choose_setup(self, state: State, seat: int, start: State = None, actions=(), progress=None):
        return low_cards_setup(state, seat)


class DoubleDummyBot:
    """Sees every card (it is told the whole deal: no real player is): the engine's best card,
    the lowest of equally good ones.  Setup: as :func:`low_cards_setup`."""

    name = "double-dummy"

    def __init__(self, seed: int = 0):
        self._engine = None

    def choose_setup(self, state: State, seat: int):
        return low_cards_setup(state, seat)

    def choose_card(self, state: State) -> int:
        from .engine import Engine
        if self._engine is None:
            self._engine = Engine()
        cards = state.legal_cards()
        if len(cards) == 1:
            return cards[0]
        values = self._engine.card_values(state)
        pick = max if state.turn_name == "A" else min
        best = pick(b.lower for _, b in values)
        return min(c for c, b in values if b.lower == best)


BOTS = {"random": RandomBot, "lopaka-rule": LopakaRuleBot, "greedy": GreedyBot, "table": TableBot,
        "table-low": LowSetupTableBot, "double-dummy": DoubleDummyBot}


def make_bot(name: str, seed: int = 0):
    """A bot by name (``random``, ``lopaka-rule``, ``greedy``, ``table``, ``table-low``, ``double-dummy``)."""
    if name not in BOTS:
        raise BotError(f"bad bot {name!r}: choose one of {', '.join(BOTS)}")
    return BOTS[name](seed)


def factory(name: str):
    """A maker of fresh bots of ``name`` (checked now), for play-outs that need one a game."""
    make_bot(name)
    return lambda: make_bot(name)


def play_out(state: State, bots: dict) -> list:
    """The actions of a round played from ``state`` to its end by ``bots`` (seat index ->
    bot); Lopaka's seat plays his rule.  Setup steps are joined from each bot's choice."""
    return _play_out(state, bots, state, [])


def play_out_from(start: State, actions, bots: dict) -> list:
    """As :func:`play_out`, continuing the round ``actions`` made from the dealt ``start`` (so that
    bots that remember the game, the ``table`` bot, know it): the actions from there on."""
    state = start
    for a in actions:
        state = state.apply(a)
    return _play_out(state, bots, start, list(actions))


def setup_choice(bot, state: State, seat: int, start: State, actions, progress=None):
    """``bot``'s part of the setup step due in ``state`` (the round ``actions`` made from its
    deal ``start``: the bots that remember the game are told it)."""
    if getattr(bot, "needs_history", False):
        return bot.choose_setup(state, seat, start, list(actions), progress=progress)
    return bot.choose_setup(state, seat)


def setup_out(start: State, bots: dict, actions=()) -> list:
    """The setup actions ``bots`` (seat index -> bot) make from the dealt ``start``, after the
    setup ``actions`` already made (none: from the deal): each step joined from each seat's
    choice, as :func:`play_out` joins them; the actions from there to the play phase."""
    state, actions = start, list(actions)
    for a in actions:
        state = state.apply(a)
    out = []
    while state.in_setup:
        choices = {i: setup_choice(bots[i], state, i, start, actions) for i in range(len(state.seats))
                   if state.setup_options(i)}
        out.append(state.joint_action(choices))
        actions.append(out[-1])
        state = state.apply(out[-1])
    return out


def _play_out(state: State, bots: dict, start: State, history: list) -> list:
    actions = list(history)
    if state.in_setup:
        for action in setup_out(start, bots, history):
            actions.append(action)
            state = state.apply(action)
    while not state.finished:
        if state.lopaka_to_play:
            action = Play(state.legal_cards()[0])
        elif getattr(bots[state.turn], "needs_history", False):
            action = Play(bots[state.turn].choose_card(state, start, actions))
        else:
            action = Play(bots[state.turn].choose_card(state))
        actions.append(action)
        state = state.apply(action)
    return actions[len(history):]


__all__ = ["BOTS", "BotError", "DoubleDummyBot", "factory", "GreedyBot", "LopakaRuleBot", "LowSetupTableBot", "RandomBot",
           "TableBot", "low_cards_setup", "make_bot", "play_out", "play_out_from", "setup_choice", "setup_out"]
