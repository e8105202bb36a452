"""What a seat knows at a setup step, and deals drawn uniformly among those it cannot rule out.

The setup steps are simultaneous (IMP-RULES §9): at Lopaka's exchange a player has seen its
own 11 cards; at Glitzerhaus's stack 1 (``s1``) its own stack 1; at stack 2 (``s2``) both its
stacks, what it laid and passed at ``s1`` and the card it received; before the open choice
(``open``) the same for ``s2`` too.  A :class:`SetupView` holds exactly that.

Every other card is unseen, and absent a model of the opponent's choices every arrangement
of the unseen cards that fits what the seat has seen is equally likely (§9): the opponent's
dealt cards, Lopaka's, the devil's trick, and in Glitzerhaus the opponent's earlier discards
(which of its stack's cards it laid down, beside the one it passed).  :func:`draw` deals them
out: the unseen cards, ascending, shuffled by SplitMix64 (the deal-number shuffle of
``solver/shuffle.py``) and cut into the unknown places (:meth:`SetupView.slots`).  The
shuffle's seed is the question's (:func:`question_seed`, from what the seat knows) and the
deal's index, so the same question draws the same deals on every machine.  A drawn deal is
the full state at the current step: the dealt cards with the setup so far replayed on them
by the rules engine (both players' real choices; the opponent's hidden discards drawn).

>>> from .deal import deal
>>> from .rules import Rules
>>> start = deal(42, Rules("lopaka")).start()
>>> view = setup_view_of(start, [], seat=0)
>>> view.step_name, view.own, view.slots()
('pass', ((1, 3, 5, 8, 21, 25, 29, 33, 34, 35, 36),), (('L', 11), ('B', 11), ('devil', 3)))
>>> world = draw(view, 0)
>>> world.hands[0] == start.hands[0] and world.in_setup, len(world.devil)
(True, 3)
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..shuffle import MASK64, shuffled, splitmix64
from .cards import DECK
from .rules import Rules
from .state import Discard, Pass, Play, Reveal, State
from .worlds import ViewError

#: the name of each setup step, by variant and ``State.step``
STEP_NAMES = {"lopaka": ("pass",), "glitzerhaus": ("s1", "s2", "open")}


@dataclass(frozen=True)
class SetupView:
    """What seat ``seat`` (its index in ``rules.seats``) knows at setup step ``step``
    (``State.step``: Lopaka 0; Glitzerhaus 0 ``s1``, 1 ``s2``, 2 ``open``).

    ``own``: the seat's dealt holdings it has seen, as dealt (Lopaka: its hand; Glitzerhaus:
    its stack 1, and from ``s2`` on also its stack 2).  ``choices``: its own earlier steps in
    Glitzerhaus, ``((devil, pass), ...)``; ``received``: the card the opponent passed it at each
    of those steps (taken from the opponent's stack of the same number)."""

    rules: Rules
    seat: int
    step: int
    own: tuple
    choices: tuple = ()
    received: tuple = ()

    @property
    def seat_name(self) -> str:
        return self.rules.seats[self.seat]

    @property
    def opponent(self) -> int:
        return 2 - self.seat if self.rules.variant == "lopaka" else 1 - self.seat

    @property
    def step_name(self) -> str:
        return STEP_NAMES[self.rules.variant][self.step]

    def seen(self) -> set:
        out = set()
        for holding in self.own:
            out |= set(holding)
        return out | set(self.received)

    def unseen(self) -> tuple:
        """The cards whose place this seat does not know, ascending."""
        seen = self.seen()
        return tuple(c for c in DECK if c not in seen)

    def slots(self) -> tuple:
        """``((place, size), ...)``: where the unseen cards go, in the order :func:`draw` cuts
        them (``Y1`` is the opponent's stack 1, ``Yd1`` its discard at ``s1``, ``X2`` this
        seat's own stack 2 while unseen)."""
        if self.rules.variant == "lopaka":
            return (("L", 11), ("B" if self.seat == 0 else "A", 11), ("devil", 3))
        if self.step == 0:
            return (("X2", 9), ("Y1", 9), ("Y2", 9))
        if self.step == 1:
            return (("Yd1", 1), ("Y1", 7), ("Y2", 9))
        return (("Yd1", 1), ("Y1", 7), ("Yd2", 1), ("Y2", 7))

    def key(self) -> bytes:
        """Everything the seat knows, as bytes (the question the drawn deals are seeded from)."""
        return repr(("imp-setup", self.rules.variant, self.rules.cards, self.seat, self.step, self.own,
                     self.choices, self.received)).encode()


def question_seed(view: SetupView) -> int:
    """The seed of the view's sequence of drawn deals: 64 bits of a hash of what the seat knows."""
    return int.from_bytes(hashlib.blake2b(view.key(), digest_size=8).digest(), "big")


def deal_seeds(view: SetupView, count: int, first: int = 0) -> list:
    """The shuffle seeds of drawn deals ``first .. first + count - 1`` (SplitMix64's stream)."""
    stream = splitmix64(question_seed(view))
    out = []
    for i in range(first + count):
        s = next(stream) & MASK64
        if i >= first:
            out.append(s)
    return out


def cut(cards, sizes) -> list:
    """``cards`` cut in consecutive blocks of ``sizes``."""
    out, at = [], 0
    for n in sizes:
        out.append(tuple(sorted(cards[at:at + n])))
        at += n
    if at != len(cards):
        raise ViewError(f"{len(cards)} unseen cards do not fill places of {sum(sizes)}")
    return out


def draw(view: SetupView, index: int) -> State:
    """Drawn deal number ``index`` of ``view``'s sequence, as the full state at the view's step."""
    return deal_of(view, shuffled(deal_seeds(view, 1, index)[0], view.unseen()))


def draws(view: SetupView, count: int, first: int = 0) -> list:
    """Drawn deals ``first .. first + count - 1`` (as :func:`draw`), in order."""
    unseen = view.unseen()
    return [deal_of(view, shuffled(s, unseen)) for s in deal_seeds(view, count, first)]


def deal_of(view: SetupView, arrangement) -> State:
    """The full state at the view's step in which the unseen cards lie as ``arrangement`` (the
    unseen cards in some order, cut into :meth:`SetupView.slots`)."""
    rules = view.rules
    places = dict(zip((name for name, _ in view.slots()), cut(list(arrangement), [n for _, n in view.slots()])))
    if rules.variant == "lopaka":
        hands = [None, places["L"], None]
        hands[view.seat] = view.own[0]
        hands[view.opponent] = places["B" if view.seat == 0 else "A"]
        return State(rules, tuple(hands), places["devil"], won=((), (), ()))
    x, y = view.seat, view.opponent
    stacks = [None] * 4
    stacks[x * 2] = view.own[0]
    if view.step == 0:
        stacks[x * 2 + 1] = places["X2"]
        stacks[y * 2], stacks[y * 2 + 1] = places["Y1"], places["Y2"]
        return State(rules, tuple(stacks), (), won=((), ()))
    stacks[x * 2 + 1] = view.own[1]
    discards = [places["Yd1"], places.get("Yd2")]
    y1 = places["Y1"] + places["Yd1"] + (view.received[0],)
    y2 = places["Y2"] + (() if view.step == 1 else places["Yd2"] + (view.received[1],))
    stacks[y * 2], stacks[y * 2 + 1] = tuple(sorted(y1)), tuple(sorted(y2))
    state = State(rules, tuple(stacks), (), won=((), ()))
    for k, ((devil, passed), got) in enumerate(zip(view.choices, view.received)):
        mine, theirs = (devil, passed), (discards[k][0], got)
        a, b = (mine, theirs) if x == 0 else (theirs, mine)
        state = state.apply(Discard(k + 1, *a, *b))
    return state


def places(view: SetupView, world: State) -> dict:
    """Where the unseen cards lie in ``world`` (a full state at the view's step), by the names of
    :meth:`SetupView.slots`: the inverse of :func:`deal_of`, except that before ``open`` the
    opponent's two discards are one place ``Yd`` (the devil's trick does not say which stack
    each came from: two arrangements make each such deal, so the deals stay equally likely)."""
    if view.rules.variant == "lopaka":
        return {"L": world.hands[1], ("B" if view.seat == 0 else "A"): world.hands[view.opponent],
                "devil": world.devil}
    x, y = view.seat, view.opponent
    if view.step == 0:
        return {"X2": world.hands[x * 2 + 1], "Y1": world.hands[y * 2], "Y2": world.hands[y * 2 + 1]}
    mine = {devil for devil, _ in view.choices}
    passed = {p for _, p in view.choices}
    theirs = tuple(c for c in world.devil if c not in mine)
    y1 = tuple(c for c in world.hands[y * 2] if c not in passed)
    y2 = tuple(c for c in world.hands[y * 2 + 1] if c not in passed)
    if view.step == 1:
        return {"Yd1": theirs, "Y1": y1, "Y2": y2}
    return {"Yd": theirs, "Y1": y1, "Y2": y2}


def setup_view_of(start: State, actions, seat: int) -> SetupView:
    """What ``seat`` (A = 0; B = 2 in Lopaka, 1 in Glitzerhaus) knows after the setup
    ``actions`` from the dealt ``start``; the setup must not be over."""
    rules = start.rules
    if rules.variant not in STEP_NAMES:
        raise ViewError("the setup hint is for the two-player variants (Lopaka, Glitzerhaus)")
    if seat not in ((0, 2) if rules.variant == "lopaka" else (0, 1)):
        raise ViewError(f"seat {seat} is not a player of {rules.variant} (A or B)")
    if not start.in_setup or start.step != 0:
        raise ViewError("the setup view starts from a dealt round, before its first setup step")
    state, choices, received = start, [], []
    for action in actions:
        if isinstance(action, Play) or not state.in_setup:
            raise ViewError("the setup is over: the real-table hint of the play phase takes this position")
        if isinstance(action, Discard):
            choices.append((action.a_devil, action.a_pass) if seat == 0 else (action.b_devil, action.b_pass))
            received.append(action.b_pass if seat == 0 else action.a_pass)
        state = state.apply(action)
    if not state.in_setup:
        raise ViewError("the setup is over: the real-table hint of the play phase takes this position")
    if rules.variant == "lopaka":
        own = (start.hands[seat],)
    else:
        own = (start.hands[seat * 2],) if state.step == 0 else (start.hands[seat * 2], start.hands[seat * 2 + 1])
    return SetupView(rules, seat, state.step, own, tuple(choices), tuple(received))


def view_in(view: SetupView, world: State) -> SetupView:
    """The view seat ``view.seat`` would have in ``world`` (a full state at the view's step):
    what the tests compare a drawn deal with.  Raises :class:`ViewError` when ``world`` is not
    at that step or its setup cannot be read back (a deal no view of this seat fits)."""
    if world.rules != view.rules or not world.in_setup or world.step != view.step:
        raise ViewError("the world is not at the view's setup step")
    x = view.seat
    if world.rules.variant == "lopaka":
        return SetupView(view.rules, x, 0, (world.hands[x],))
    # undo the Glitzerhaus steps: the seat's stacks as dealt are its current stacks without what
    # it received and with what it laid down and passed
    received = [pair[1 - x] for pair in world.passed]
    own = [list(world.hands[x * 2]), list(world.hands[x * 2 + 1])]
    for k, ((devil, passed), got) in enumerate(zip(view.choices, received)):
        if got not in own[k] or devil not in world.devil or world.passed[k][x] != passed:
            raise ViewError("the world's setup does not fit the seat's own choices")
        own[k].remove(got)
        own[k] += [devil, passed]
    dealt = tuple(tuple(sorted(h)) for h in own)
    return SetupView(view.rules, x, view.step, dealt[:1] if view.step == 0 else dealt, view.choices,
                     tuple(received))


__all__ = ["STEP_NAMES", "SetupView", "cut", "deal_of", "deal_seeds", "draw", "draws", "places", "question_seed",
           "setup_view_of", "view_in"]
