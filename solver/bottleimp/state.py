"""The state of a round, its actions, legal actions and their effects: the one place the rules live.

A :class:`State` is an immutable value: :meth:`State.apply` returns the next one.
Cards are plain numbers (1-37, not 19); suits and coins come from the card table
of the :class:`Rules`.

>>> from .deal import deal
>>> s = deal(42, Rules("lopaka")).start()
>>> s.in_setup, len(s.legal_actions())          # A and B each pass one of 11 cards
(True, 121)
>>> s = s.apply(Pass(1, 18))                     # A passes 1 to B, B passes 18 to A
>>> s.turn_name, s.legal_cards()[:4]
('A', (3, 5, 8, 18))
>>> s = s.apply(Play(36)).apply(Play(37))       # A leads 36; Lopaka's rule: his highest winner
>>> s.trick, s.turn_name
((36, 37), 'B')

Seats and holdings
------------------
``rules.seats`` are the seats in clockwise order (Lopaka: ``A L B``, Glitzerhaus:
``A B``, base: ``1 2 3 [4]``); ``leader`` and ``holder`` are seat indexes.
``hands`` holds one sorted tuple per *holding*: a seat's hand (Lopaka, base), the
four stacks ``A1 A2 B1 B2`` in Glitzerhaus's setup, and A's open stack, A's hidden
hand, B's open stack and B's hidden hand once Glitzerhaus's stacks are chosen (:attr:`State.holding_names`).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Optional, Union

from ..errors import InputError
from .cards import START_PRICE
from .rules import Rules


class IllegalMove(InputError):
    """An action the rules forbid in the given state."""


class PositionError(InputError):
    """A deal or position that cannot occur under the rules."""


# ------------------------------------------------------------------ actions
@dataclass(frozen=True)
class Play:
    """Play ``card`` to the current trick (from the holding whose turn it is)."""

    card: int

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True)
class Pass:
    """Lopaka's exchange (§3.3): A passes ``a`` to B and B passes ``b`` to A, at once."""

    a: int
    b: int

    def __str__(self) -> str:
        return f"pass {self.a} {self.b}"


@dataclass(frozen=True)
class Discard:
    """Glitzerhaus stack ``stack`` (1 or 2, §4.2): A lays ``a_devil`` in the devil's trick and
    passes ``a_pass`` to B's same stack; B likewise, at once."""

    stack: int
    a_devil: int
    a_pass: int
    b_devil: int
    b_pass: int

    def __str__(self) -> str:
        return f"s{self.stack} {self.a_devil}/{self.a_pass} {self.b_devil}/{self.b_pass}"


@dataclass(frozen=True)
class Reveal:
    """Glitzerhaus (§4.2): A lays stack ``a`` open and B stack ``b`` (1 or 2); the other is the hand."""

    a: int
    b: int

    def __str__(self) -> str:
        return f"open {self.a} {self.b}"


@dataclass(frozen=True)
class BasePass:
    """The base game's setup (§2.3): for each seat in order, the card passed to the left
    (the next seat), the one passed to the right (the previous seat) and the one laid in
    the devil's trick, all at once."""

    choices: tuple      # ((left, right, devil), ...) one triple a seat

    def __str__(self) -> str:
        return "pass " + " ".join(f"{l}/{r}/{d}" for l, r, d in self.choices)


SETUP_ACTIONS = (Pass, Discard, Reveal, BasePass)
#: An action of the game: a card played, or one (joint) setup choice.
Action = Union[Play, Pass, Discard, Reveal, BasePass]


# ------------------------------------------------------------- trick rules
def trick_winner(cards, price: int):
    """Who wins a trick (§2.6): ``(index of the winning card, new price or None)``.

    If any card is below the price, the highest of those wins and buys the bottle at its
    number; otherwise the highest card wins, whatever its suit, and the bottle stays.

    >>> trick_winner((24, 20, 32), 19), trick_winner((24, 17, 32), 19)
    ((2, None), (1, 17))
    """
    below = [c for c in cards if c < price]
    if below:
        best = max(below)
        return cards.index(best), best
    best = max(cards)
    return cards.index(best), None


def follow(holding, trick, table) -> tuple:
    """The cards of ``holding`` that may be played to ``trick``: the led suit's if it
    holds any, else all (§2.5)."""
    if not trick:
        return tuple(holding)
    led = table.suit(trick[0])
    same = tuple(c for c in holding if table.suit(c) == led)
    return same or tuple(holding)


def lopaka_rule(hand, trick, price: int, table) -> int:
    """The card Lopaka plays (§3.4), looking only at the cards of this trick.

    Leading: his highest card.  Otherwise, of his legal cards (he follows suit), the
    highest that would win the trick as it lies now; if none would, the lowest.

    >>> from .cards import TABLES
    >>> lopaka_rule((12, 17, 18, 32, 36), (24, 20), 19, TABLES["classic"])   # the seed's example
    32
    """
    if not trick:
        return max(hand)
    legal = follow(hand, trick, table)
    winners = [c for c in legal if trick_winner(tuple(trick) + (c,), price)[0] == len(trick)]
    return max(winners) if winners else min(legal)


def setup_steps(rules: Rules) -> int:
    """Setup steps of a round: Lopaka 1 (pass), Glitzerhaus 3 (s1, s2, open), base 1 (pass)."""
    return 3 if rules.variant == "glitzerhaus" else 1


def _without(holding, *cards) -> tuple:
    gone = set(cards)
    return tuple(c for c in holding if c not in gone)


def _with(holding, *cards) -> tuple:
    return tuple(sorted(holding + tuple(cards)))


def _cards_text(cards) -> str:
    return " ".join(map(str, cards)) or "none"


# -------------------------------------------------------------------- state
@dataclass(frozen=True)
class State:
    """One moment of a round (see the module's doc for seats and holdings).

    ``step`` counts the setup steps done (:func:`setup_steps`); ``passed`` records,
    during Glitzerhaus's setup, the cards each player passed so far
    (``((A's, B's) of stack 1, ...)``) and is empty otherwise.
    """

    rules: Rules
    hands: tuple
    devil: tuple = ()
    price: int = START_PRICE
    holder: Optional[int] = None
    won: tuple = ()
    leader: int = 0
    trick: tuple = ()
    step: int = 0
    passed: tuple = ()

    # ------------------------------------------------------------ building
    @classmethod
    def initial(cls, rules: Rules, blocks: dict) -> "State":
        """The state before the setup of a dealt round; ``blocks`` as :mod:`.deal` names them
        (checked there)."""
        if rules.variant == "lopaka":
            hands = (blocks["A"], blocks["L"], blocks["B"])
            devil = blocks["devil"]
        elif rules.variant == "glitzerhaus":
            hands = (blocks["A1"], blocks["A2"], blocks["B1"], blocks["B2"])
            devil = ()
        else:
            hands = tuple(blocks[s] for s in rules.seats)
            devil = ()
        return cls(rules, tuple(tuple(sorted(h)) for h in hands), tuple(sorted(devil)),
                   won=tuple(() for _ in rules.seats))

    # ------------------------------------------------------------ reading
    @property
    def seats(self) -> tuple:
        return self.rules.seats

    @property
    def in_setup(self) -> bool:
        return self.step < setup_steps(self.rules)

    @property
    def finished(self) -> bool:
        return not self.in_setup and not self.trick and not any(self.hands)

    @property
    def holding_names(self) -> tuple:
        if self.rules.variant != "glitzerhaus":
            return self.seats
        if self.in_setup:
            return ("A's stack 1", "A's stack 2", "B's stack 1", "B's stack 2")
        return ("A's open stack", "A's hidden hand", "B's open stack", "B's hidden hand")

    def seat_of_card(self, k: int) -> int:
        """The seat that plays the ``k``-th card (0 = the lead) of the current trick."""
        if self.rules.variant == "glitzerhaus":
            return self.leader if k % 2 == 0 else 1 - self.leader
        return (self.leader + k) % len(self.seats)

    def holding_of_card(self, k: int) -> int:
        """The holding the ``k``-th card of the current trick comes from (§3.1, §4.3)."""
        seat = self.seat_of_card(k)
        if self.rules.variant == "glitzerhaus":
            return seat * 2 + (0 if k < 2 else 1)
        return seat

    @property
    def turn(self) -> Optional[int]:
        """The seat to play (None during the setup, whose steps are simultaneous, and at the end)."""
        if self.in_setup or self.finished:
            return None
        return self.seat_of_card(len(self.trick))

    @property
    def turn_name(self) -> Optional[str]:
        return None if self.turn is None else self.seats[self.turn]

    @property
    def lopaka_to_play(self) -> bool:
        return self.rules.variant == "lopaka" and self.turn == 1

    @property
    def tricks_done(self) -> int:
        return sum(len(w) for w in self.won) // self.rules.trick_size

    def seat_index(self, name: str) -> int:
        return self.seats.index(name)

    # -------------------------------------------------------- legal moves
    def legal_cards(self) -> tuple:
        """The cards that may be played now, ascending (Lopaka's: the one his rule plays)."""
        if self.turn is None:
            return ()
        table = self.rules.table
        holding = self.hands[self.holding_of_card(len(self.trick))]
        if self.lopaka_to_play:
            return (lopaka_rule(holding, self.trick, self.price, table),)
        return follow(holding, self.trick, table)

    def following_cards(self) -> tuple:
        """The cards the suit rule allows now (§2.5), ascending: A's and B's legal cards, and the
        ones Lopaka's rule chooses among (his legal cards are more than the one it plays)."""
        if self.turn is None:
            return ()
        return follow(self.hands[self.holding_of_card(len(self.trick))], self.trick, self.rules.table)

    def setup_options(self, seat: int) -> list:
        """What ``seat`` may choose in the current setup step (its part of the joint action):
        Lopaka a card to pass; Glitzerhaus ``(devil, pass)`` pairs, then the open stack 1 or 2;
        base ``(left, right, devil)`` triples.  Lopaka (the dummy) has no choice: ``[]``."""
        if not self.in_setup:
            return []
        variant = self.rules.variant
        if variant == "lopaka":
            return [] if seat == 1 else list(self.hands[seat])
        if variant == "glitzerhaus":
            if self.step == 2:
                return [1, 2]
            return list(itertools.permutations(self.hands[seat * 2 + self.step], 2))
        return list(itertools.permutations(self.hands[seat], 3))

    def legal_actions(self):
        """Every legal action, in a fixed order.

        In play: one :class:`Play` a legal card.  In the setup: every joint choice of the
        players (the product of :meth:`setup_options`).  The base game's setup has
        billions of those (1,320^3 with 3 players), so there it is a lazy iterator;
        everywhere else a list.
        """
        if not self.in_setup:
            return [Play(c) for c in self.legal_cards()]
        variant = self.rules.variant
        if variant == "lopaka":
            return [Pass(a, b) for a in self.hands[0] for b in self.hands[2]]
        if variant == "glitzerhaus":
            if self.step == 2:
                return [Reveal(a, b) for a in (1, 2) for b in (1, 2)]
            pairs_a, pairs_b = self.setup_options(0), self.setup_options(1)
            return [Discard(self.step + 1, *pa, *pb) for pa in pairs_a for pb in pairs_b]
        return (BasePass(c) for c in itertools.product(*(self.setup_options(i) for i in range(len(self.seats)))))

    def joint_action(self, choices) -> object:
        """The setup action made of each player's own choice (``choices[seat]``, one of
        :meth:`setup_options`; Lopaka's seat is skipped)."""
        variant = self.rules.variant
        if variant == "lopaka":
            return Pass(choices[0], choices[2])
        if variant == "glitzerhaus":
            if self.step == 2:
                return Reveal(choices[0], choices[1])
            return Discard(self.step + 1, *choices[0], *choices[1])
        return BasePass(tuple(tuple(choices[i]) for i in range(len(self.seats))))

    def check(self, action) -> None:
        """Raise :class:`IllegalMove` (saying why) unless ``action`` is legal here."""
        if isinstance(action, Play):
            self._check_play(action.card)
        elif isinstance(action, SETUP_ACTIONS):
            self._check_setup(action)
        else:
            raise IllegalMove(f"{action!r} is not an action of the Bottle Imp")

    def is_legal(self, action) -> bool:
        try:
            self.check(action)
        except IllegalMove:
            return False
        return True

    def _check_play(self, card: int) -> None:
        if self.in_setup:
            raise IllegalMove(f"cannot play {card}: the setup comes first ({self._setup_due()})")
        if self.finished:
            raise IllegalMove(f"cannot play {card}: the round is over")
        k = len(self.trick)
        who = self.seats[self.turn] if self.rules.variant != "base" else f"seat {self.seats[self.turn]}"
        holding_index = self.holding_of_card(k)
        holding = self.hands[holding_index]
        where = self.holding_names[holding_index]
        place = f"trick {self.tricks_done + 1}" + (f" after {_cards_text(self.trick)}" if self.trick else ", lead")
        if card not in holding:
            owner = "Lopaka's hand" if self.lopaka_to_play else (
                where if self.rules.variant == "glitzerhaus" else f"{who}'s hand")
            raise IllegalMove(f"{card} is not in {owner} ({place}; it holds {_cards_text(holding)})")
        legal = self.legal_cards()
        if card in legal:
            return
        if self.lopaka_to_play:
            raise IllegalMove(f"Lopaka plays {legal[0]} by his rule, not {card} ({place}, price {self.price})")
        led = self.rules.table.suit(self.trick[0])
        name = self.rules.table.suit_names[led]
        source = f" from {where}" if self.rules.variant == "glitzerhaus" else ""
        raise IllegalMove(f"{card} does not follow suit: {who} must play {name}{source} ({_cards_text(legal)}) "
                          f"to {place}")

    def _setup_due(self) -> str:
        variant = self.rules.variant
        if variant == "glitzerhaus":
            return ("s1 DA/PA DB/PB", "s2 DA/PA DB/PB", "open SA SB")[self.step] + " is due"
        if variant == "lopaka":
            return "pass X Y is due"
        return "pass L/R/D for each seat is due"

    def _check_setup(self, action) -> None:
        variant = self.rules.variant
        if not self.in_setup:
            raise IllegalMove(f"'{action}': the setup is over" + (f" (trick {self.tricks_done + 1} is being played)"
                                                                  if not self.finished else ""))
        wanted = {"lopaka": Pass, "base": BasePass}.get(variant) or (Reveal if self.step == 2 else Discard)
        if not isinstance(action, wanted):
            kinds = {Pass: "Lopaka's pass", BasePass: "the base game's pass", Discard: "a Glitzerhaus stack step",
                     Reveal: "Glitzerhaus's open"}
            if variant == "glitzerhaus" and isinstance(action, Discard):
                done = "done already" if action.stack <= self.step else "out of order"
                raise IllegalMove(f"'{action}': stack {action.stack} {done}: {self._setup_due()}")
            if variant == "glitzerhaus" and isinstance(action, Reveal):
                raise IllegalMove(f"'{action}' out of order: {self._setup_due()}")
            raise IllegalMove(f"'{action}' is {kinds[type(action)]}, not a setup step of {variant}: "
                              f"{self._setup_due()}")
        if isinstance(action, Pass):
            self._own(action.a, 0, "A passes", str(action))
            self._own(action.b, 2, "B passes", str(action))
        elif isinstance(action, Discard):
            if action.stack != self.step + 1:
                done = "done already" if action.stack <= self.step else "out of order"
                raise IllegalMove(f"'{action}': stack {action.stack} {done}: {self._setup_due()}")
            for seat, (d, p) in enumerate(((action.a_devil, action.a_pass), (action.b_devil, action.b_pass))):
                who = self.seats[seat]
                if d == p:
                    raise IllegalMove(f"'{action}': {who} cannot both discard and pass {d}")
                self._own(d, seat * 2 + self.step, f"{who} discards", str(action))
                self._own(p, seat * 2 + self.step, f"{who} passes", str(action))
        elif isinstance(action, Reveal):
            for who, stack in (("A", action.a), ("B", action.b)):
                if stack not in (1, 2):
                    raise IllegalMove(f"'{action}': {who}'s open stack must be 1 or 2")
        else:
            n = len(self.seats)
            if len(action.choices) != n:
                raise IllegalMove(f"'{action}': the pass needs one L/R/D triple for each of the {n} seats")
            for seat, triple in enumerate(action.choices):
                if len(triple) != 3 or len(set(triple)) != 3:
                    raise IllegalMove(f"'{action}': seat {seat + 1} must name three different cards")
                for card, what in zip(triple, ("passes left", "passes right", "discards")):
                    self._own(card, seat, f"seat {seat + 1} {what}", str(action))

    def _own(self, card: int, holding: int, what: str, text: str) -> None:
        if card not in self.hands[holding]:
            where = self.holding_names[holding]
            raise IllegalMove(f"'{text}': {what} {card}, which is not in {where} "
                              f"({_cards_text(self.hands[holding])})")

    # ------------------------------------------------------------- apply
    def apply(self, action) -> "State":
        """The state after ``action`` (checked: :class:`IllegalMove` if the rules forbid it)."""
        self.check(action)
        if isinstance(action, Play):
            return self._play(action.card)
        return self._setup(action)

    def _play(self, card: int) -> "State":
        k = len(self.trick)
        index = self.holding_of_card(k)
        hands = list(self.hands)
        hands[index] = _without(hands[index], card)
        trick = self.trick + (card,)
        if len(trick) < self.rules.trick_size:
            return replace(self, hands=tuple(hands), trick=trick)
        at, bought = trick_winner(trick, self.price)
        winner = self.seat_of_card(at)
        won = list(self.won)
        won[winner] = _with(won[winner], *trick)
        return replace(self, hands=tuple(hands), trick=(), won=tuple(won), leader=winner,
                       price=self.price if bought is None else bought,
                       holder=self.holder if bought is None else winner)

    def _setup(self, action) -> "State":
        hands = list(self.hands)
        if isinstance(action, Pass):
            hands[0] = _with(_without(hands[0], action.a), action.b)
            hands[2] = _with(_without(hands[2], action.b), action.a)
            return replace(self, hands=tuple(hands), step=1)
        if isinstance(action, Discard):
            a, b = self.step, 2 + self.step
            hands[a] = _with(_without(hands[a], action.a_devil, action.a_pass), action.b_pass)
            hands[b] = _with(_without(hands[b], action.b_devil, action.b_pass), action.a_pass)
            return replace(self, hands=tuple(hands), devil=_with(self.devil, action.a_devil, action.b_devil),
                           step=self.step + 1, passed=self.passed + ((action.a_pass, action.b_pass),))
        if isinstance(action, Reveal):
            a_open, b_open = action.a - 1, action.b - 1
            hands = (hands[a_open], hands[1 - a_open], hands[2 + b_open], hands[3 - b_open])
            return replace(self, hands=hands, step=3, passed=())
        n = len(self.seats)
        new = []
        devil = list(self.devil)
        for seat, (left, right, down) in enumerate(action.choices):
            from_right_neighbour = action.choices[(seat - 1) % n][0]   # the previous seat passes left to us
            from_left_neighbour = action.choices[(seat + 1) % n][1]    # the next seat passes right to us
            new.append(_with(_without(hands[seat], left, right, down), from_right_neighbour, from_left_neighbour))
            devil.append(down)
        return replace(self, hands=tuple(new), devil=tuple(sorted(devil)), step=1)

    # ------------------------------------------------------------- score
    def scores(self) -> dict:
        """Every seat's score of §2.7, by seat name: the holder pays the devil's trick,
        every other player scores the coins they won.  Defined mid-round too (the score
        if the round ended now), but only a finished round's is the round's score."""
        table = self.rules.table
        devil = table.coins_of(self.devil)
        return {name: (-devil if self.holder == i else table.coins_of(self.won[i]))
                for i, name in enumerate(self.seats)}

    def value(self) -> Optional[int]:
        """The margin A - B of a finished two-player round (§3.5, §4.4); None for the base game
        and for an unfinished round."""
        if not self.finished or not self.rules.two_player:
            return None
        scores = self.scores()
        return scores["A"] - scores["B"]
