"""What a player knows at a real table, and every deal consistent with it (the "worlds").

At a Lopaka table a player sees their own hand, Lopaka's open hand and every card played,
and knows the card they passed and the one they received; the opponent's hand and the
devil's trick are hidden.  At a Glitzerhaus table a player sees their own two holdings and
the opponent's open stack, knows their own two discards and the two cards they passed; the
opponent's hidden hand and the opponent's two discards are hidden.  A :class:`View` holds
exactly that (and the suits the hidden hand has shown void in, by not following); the
worlds are the ways to split the unseen cards between the hidden hand and the unknown part
of the devil's trick that respect it.

>>> from .deal import deal
>>> from .rules import Rules
>>> from .state import Pass
>>> d = deal(42, Rules("lopaka"))
>>> view = view_of(d.start(), [Pass(1, 18)], seat=0)
>>> view.hidden_known, view.hidden_size, view.devil_size, count_worlds(view)
((1,), 11, 3, 286)
>>> all(w.hands[0] == view.hands[0] and 1 in w.hands[2] for w in worlds(view))
True
"""
from __future__ import annotations

import itertools
import math
import zlib
from dataclasses import dataclass

from ..errors import InputError
from ..shuffle import shuffled
from .cards import DECK
from .rules import Rules
from .state import Discard, Pass, Play, PositionError, Reveal, State


class ViewError(InputError):
    """A table view that no deal fits, or a seat that is not a player."""


@dataclass(frozen=True)
class View:
    """What seat ``seat`` knows during the play phase (see the module's doc).

    ``hands`` has one entry a holding (as :attr:`State.hands`): the cards seen in it, and
    ``None`` for the hidden one (``hidden``), of which ``hidden_known`` are known (a passed
    card not yet played) and ``hidden_size`` is the size.  ``devil_known`` are the cards of
    the devil's trick this seat knows (its own discards), ``devil_size`` the trick's size.
    ``voids``: the suit letters the hidden holding has shown void in.  The rest is public.
    """

    rules: Rules
    seat: int
    hands: tuple
    hidden: int
    hidden_known: tuple
    hidden_size: int
    devil_known: tuple
    devil_size: int
    voids: tuple
    price: int
    holder: object
    won: tuple
    leader: int
    trick: tuple

    def seen(self) -> set:
        """Every card this seat has seen or knows the place of."""
        out = set(self.hidden_known) | set(self.devil_known) | set(self.trick)
        for h in self.hands:
            out |= set(h or ())
        for w in self.won:
            out |= set(w)
        return out

    def unseen(self) -> tuple:
        """The cards whose place this seat does not know: the hidden hand's unknown cards and the
        devil's unknown ones, ascending."""
        seen = self.seen()
        return tuple(c for c in DECK if c not in seen)

    def state_with(self, hidden_cards, devil) -> State:
        """The full state of the world in which the hidden holding is ``hidden_cards`` and the
        devil's trick ``devil``."""
        hands = list(self.hands)
        hands[self.hidden] = tuple(sorted(hidden_cards))
        return State(self.rules, tuple(hands), tuple(sorted(devil)), self.price, self.holder, self.won,
                     self.leader, self.trick, step=3 if self.rules.variant == "glitzerhaus" else 1)


def opponent_holding(rules: Rules, seat: int) -> int:
    """The holding ``seat`` cannot see: the other player's hand (Lopaka) or hidden hand (Glitzerhaus)."""
    if rules.variant == "lopaka":
        return 2 - seat
    return (1 - seat) * 2 + 1


def _check_seat(rules: Rules, seat: int) -> None:
    if not rules.two_player:
        raise ViewError("the real-table view is for the two-player variants (Lopaka, Glitzerhaus)")
    if seat not in ((0, 2) if rules.variant == "lopaka" else (0, 1)):
        raise ViewError(f"seat {seat} is not a player of {rules.variant} (A or B)")


def view_of(start: State, actions, seat: int) -> View:
    """What ``seat`` (A = 0, B = 2 in Lopaka / 1 in Glitzerhaus) knows after ``actions`` from the
    dealt ``start`` (the setup included); the play phase must have begun."""
    rules = start.rules
    _check_seat(rules, seat)
    hidden = opponent_holding(rules, seat)
    opp = 2 - seat if rules.variant == "lopaka" else 1 - seat
    passed_to_opp = []        # (card, opponent's stack it went to: 1 or 2, or 0 in Lopaka)
    devil_known = []
    voids = set()
    state = start
    for action in actions:
        if isinstance(action, Pass):
            passed_to_opp.append((action.a if seat == 0 else action.b, 0))
        elif isinstance(action, Discard):
            mine = (action.a_devil, action.a_pass) if seat == 0 else (action.b_devil, action.b_pass)
            devil_known.append(mine[0])
            passed_to_opp.append((mine[1], action.stack))
        elif isinstance(action, Reveal):
            opp_open = action.b if seat == 0 else action.a
            passed_to_opp = [(c, 0 if stack != opp_open else -1) for c, stack in passed_to_opp]
        elif isinstance(action, Play) and not state.in_setup:
            k = len(state.trick)
            if state.holding_of_card(k) == hidden and k > 0:
                led = rules.table.suit(state.trick[0])
                if rules.table.suit(action.card) != led:
                    voids.add(led)
        state = state.apply(action)
    if state.in_setup:
        raise ViewError("the real-table view starts with the play phase: the setup is not over")
    # a card passed to the opponent's hidden holding is known there until it is played
    known = tuple(sorted(c for c, where in passed_to_opp if where == 0 and c in state.hands[hidden]))
    hands = tuple(None if i == hidden else h for i, h in enumerate(state.hands))
    del opp
    return View(rules, seat, hands, hidden, known, len(state.hands[hidden]), tuple(sorted(devil_known)),
                len(state.devil), tuple(sorted(voids)), state.price, state.holder, state.won, state.leader,
                state.trick)


def advance(view: View, before: State, action) -> View:
    """The view after ``action`` is played in the world ``before`` (a full state consistent with
    ``view``): what the seat sees of it (a card from the hidden hand, and whether it followed)."""
    after = before.apply(action)
    voids = set(view.voids)
    known = view.hidden_known
    if isinstance(action, Play):
        k = len(before.trick)
        if before.holding_of_card(k) == view.hidden:
            known = tuple(c for c in known if c != action.card)
            led = view.rules.table.suit(before.trick[0]) if k > 0 else None
            if led is not None and view.rules.table.suit(action.card) != led:
                voids.add(led)
    hands = tuple(None if i == view.hidden else h for i, h in enumerate(after.hands))
    return View(view.rules, view.seat, hands, view.hidden, known, len(after.hands[view.hidden]), view.devil_known,
                view.devil_size, tuple(sorted(voids)), after.price, after.holder, after.won, after.leader, after.trick)


def _split(view: View):
    """``(forced, free, k)``: the unseen cards that must lie in the devil's trick (a suit the
    hidden hand is void in), the others, and how many of the others the devil's trick takes."""
    table = view.rules.table
    unseen = view.unseen()
    forced = tuple(c for c in unseen if table.suit(c) in view.voids)
    free = tuple(c for c in unseen if table.suit(c) not in view.voids)
    k = view.devil_size - len(view.devil_known) - len(forced)
    hidden_unknown = view.hidden_size - len(view.hidden_known)
    if k < 0 or len(free) - k != hidden_unknown or len(unseen) != hidden_unknown + view.devil_size - len(
            view.devil_known):
        raise ViewError(f"no deal fits this view: {len(unseen)} unseen cards for a hidden hand of "
                        f"{hidden_unknown} unknown cards and {view.devil_size - len(view.devil_known)} unknown "
                        f"in the devil's trick, {len(forced)} of them in suits the hidden hand has shown void in")
    return forced, free, k


def count_worlds(view: View) -> int:
    forced, free, k = _split(view)
    return math.comb(len(free), k)


def worlds(view: View):
    """Every world consistent with ``view``, as full states, in a fixed order (the combinations
    of the devil's unknown cards, ascending)."""
    forced, free, k = _split(view)
    for extra in itertools.combinations(free, k):
        taken = set(extra)
        hidden = view.hidden_known + tuple(c for c in free if c not in taken)
        yield view.state_with(hidden, view.devil_known + forced + extra)


def world_order(view: View) -> list:
    """The worlds in the order a budgeted hint solves them: a fixed shuffle (SplitMix64 seeded
    by the view's own cards), so a sample cut short by the clock is not biased to low cards."""
    every = list(worlds(view))
    key = repr((view.rules.variant, view.rules.cards, view.seat, view.hands, view.won, view.trick)).encode()
    return shuffled(zlib.crc32(key), every)


def check_world(view: View, world: State) -> None:
    """Raise :class:`PositionError` unless ``world`` is a full state consistent with ``view``
    (for tests and for views read from files)."""
    if world.hands[:view.hidden] + world.hands[view.hidden + 1:] != view.hands[:view.hidden] + view.hands[
            view.hidden + 1:]:
        raise PositionError("the world changes a holding the player sees")
    hidden = world.hands[view.hidden]
    if len(hidden) != view.hidden_size or not set(view.hidden_known) <= set(hidden):
        raise PositionError("the world's hidden hand does not fit what the player knows of it")
    if any(view.rules.table.suit(c) in view.voids for c in hidden):
        raise PositionError("the world's hidden hand holds a suit it has shown void in")
    if len(world.devil) != view.devil_size or not set(view.devil_known) <= set(world.devil):
        raise PositionError("the world's devil's trick does not fit what the player knows of it")


__all__ = ["View", "ViewError", "advance", "check_world", "count_worlds", "opponent_holding", "view_of", "world_order",
           "worlds"]
