"""Cards, their kinds and values, and the card notation of RULES §7.

>>> c = parse_card("10♦")
>>> c, c.kind, c.value
(Card('TD'), 'weapon', 10)
>>> str(parse_card("qs")), parse_card("JK").value
('QS', 15)
"""
from __future__ import annotations

from ..errors import InputError

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
PRETTY_SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

MONSTER, POTION, WEAPON = "monster", "potion", "weapon"
JOKER_VALUE = 15


class CardError(InputError):
    """A card token that names no card."""


class Card:
    """One playing card; instances are interned, so ``is`` and ``==`` agree.

    ``index`` is the card's place in the base order of RULES §6 for the full
    54-card pack (clubs, diamonds, hearts, spades, 2..A; the joker is 52).
    """

    __slots__ = ("rank", "suit", "index", "value", "kind", "_text")
    _all: dict = {}

    def __new__(cls, rank: int, suit: str | None):
        key = (rank, suit)
        card = cls._all.get(key)
        if card is not None:
            return card
        card = object.__new__(cls)
        card.rank = rank
        card.suit = suit
        if suit is None:
            card.index = 52
            card.value = JOKER_VALUE
            card.kind = MONSTER
            card._text = "JK"
        else:
            card.index = SUITS.index(suit) * 13 + (rank - 2)
            card.value = rank
            if suit in "CS" or rank > 10:
                card.kind = MONSTER
            elif suit == "H":
                card.kind = POTION
            else:
                card.kind = WEAPON
            card._text = RANKS[rank - 2] + suit
        cls._all[key] = card
        return card

    def __reduce__(self):
        return (Card, (self.rank, self.suit))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index

    @property
    def is_monster(self) -> bool:
        return self.kind == MONSTER

    @property
    def is_potion(self) -> bool:
        return self.kind == POTION

    @property
    def is_weapon(self) -> bool:
        return self.kind == WEAPON

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def pretty(self) -> str:
        """``10♦`` style, for people."""
        if self.suit is None:
            return "JK"
        rank = "10" if self.rank == 10 else RANKS[self.rank - 2]
        return rank + PRETTY_SUIT[self.suit]


JOKER = Card(15, None)


def parse_card(token: str) -> Card:
    """Parse one card token (case-insensitive, ``T`` or ``10``, suit letters or symbols)."""
    text = token.strip()
    if not text:
        raise CardError("empty card token")
    up = text.upper()
    if up == "JK":
        return JOKER
    suit_char = up[-1]
    suit = SUIT_SYMBOLS.get(text[-1], suit_char)
    rank_text = up[:-1]
    if suit not in SUITS:
        raise CardError(f"unknown card {token!r}: suit must be one of C D H S (or ♣ ♦ ♥ ♠)")
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(f"unknown card {token!r}: rank must be 2-9, T/10, J, Q, K or A")
    return Card(RANKS.index(rank_text) + 2, suit)


def full_pack() -> list:
    """All 53 distinct cards in base order (52 + joker)."""
    return [Card(r, s) for s in SUITS for r in range(2, 15)] + [JOKER]


def is_solo_card(card: Card) -> bool:
    """Solo Scoundrel removes the red J, Q, K, A and has no jokers."""
    if card.suit is None:
        return False
    return not (card.suit in "HD" and card.rank > 10)


def split_tokens(text: str) -> list:
    """Split a deck or room on spaces and commas."""
    return [t for t in text.replace(",", " ").split() if t]


def parse_cards(text: str) -> list:
    """Parse a space/comma separated list of cards, top first."""
    return [parse_card(t) for t in split_tokens(text)]


def format_cards(cards) -> str:
    return " ".join(str(c) for c in cards)
