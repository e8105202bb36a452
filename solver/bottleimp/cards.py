"""The cards of The Bottle Imp and the two card tables of IMP-RULES §1.

A card is named by its number alone (1-37, never 19); its suit and coins depend
on the card table, ``classic`` (126 coins) or ``matagot`` (127 coins).

>>> table = TABLES["classic"]
>>> table.card(24)
Card(24, 'b', 4)
>>> table.card(24).pretty, table.coins(17), TABLES["matagot"].coins(17)
('24b', 3, 4)
>>> parse_card("24b", table), parse_card(" 7 ", table)
(24, 7)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputError

START_PRICE = 19
#: The 36 cards of the deck in ascending order: the base order of the deal (§5).
DECK = tuple(n for n in range(1, 38) if n != START_PRICE)


class CardError(InputError):
    """A token that names no card of the deck (or a suit letter the table does not give it)."""


@dataclass(frozen=True)
class Card:
    """One card under a card table: its number, suit letter and coins."""

    number: int
    suit: str
    coins: int

    def __str__(self) -> str:
        return str(self.number)

    def __repr__(self) -> str:
        return f"Card({self.number}, {self.suit!r}, {self.coins})"

    @property
    def pretty(self) -> str:
        """The number with the suit's letter, as ``24b`` (§6)."""
        return f"{self.number}{self.suit}"


class CardTable:
    """Suits and coins of the 36 cards under one edition's table."""

    def __init__(self, name: str, suits: dict, rows: dict):
        self.name = name
        self.suit_names = dict(suits)           # letter -> name, in the table's order
        self._suit = {}
        self._coins = {}
        for letter, row in rows.items():
            for number, coins in row:
                self._suit[number] = letter
                self._coins[number] = coins
        if sorted(self._suit) != list(DECK):
            raise AssertionError(f"card table {name} does not hold the 36 cards")
        self.total = sum(self._coins.values())
        self._cards = {n: Card(n, self._suit[n], self._coins[n]) for n in DECK}

    def __repr__(self) -> str:
        return f"TABLES[{self.name!r}]"

    def card(self, number: int) -> Card:
        return self._cards[number]

    def suit(self, number: int) -> str:
        return self._suit[number]

    def coins(self, number: int) -> int:
        return self._coins[number]

    def coins_of(self, cards) -> int:
        return sum(self._coins[n] for n in cards)

    def suit_cards(self, letter: str) -> tuple:
        return tuple(n for n in DECK if self._suit[n] == letter)

    def pretty(self, number: int) -> str:
        return f"{number}{self._suit[number]}"


def _row(text: str):
    return [tuple(int(x) for x in pair.split(":")) for pair in text.split()]


TABLES = {
    "classic": CardTable("classic", {"y": "yellow", "b": "blue", "r": "red"}, {
        "y": _row("1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6"),
        "b": _row("4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6"),
        "r": _row("11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6"),
    }),
    "matagot": CardTable("matagot", {"r": "red", "b": "blue", "g": "green"}, {
        "r": _row("1:1 2:1 4:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6"),
        "b": _row("3:1 6:1 8:2 10:2 13:3 17:4 20:4 23:4 27:5 30:5 32:6 35:6"),
        "g": _row("11:1 14:1 16:2 21:2 24:3 26:3 29:4 31:4 33:5 34:5 36:6 37:6"),
    }),
}

_CARD = re.compile(r"([0-9]{1,2})([A-Za-z]?)", re.ASCII)


def _shown(text: str, limit: int = 30) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text):,} characters)"


def parse_card(token: str, table: CardTable) -> int:
    """The card number a token names: ``24`` or, with its suit letter, ``24b`` (§6).

    Refused with :class:`CardError`: anything but 1-2 digits and an optional letter,
    19 (the bottle's starting price, not a card of the deck), a number outside 1-37,
    and a letter that is not the card's suit under ``table``.
    """
    if not isinstance(token, str):
        raise CardError(f"bad card {token!r}: a card is a number 1-37 (not 19)")
    text = token.strip()
    m = _CARD.fullmatch(text)
    if not m:
        raise CardError(f"bad card {_shown(text)}: a card is a number 1-37 (not 19), e.g. 24 or 24b")
    number = int(m.group(1))
    if number == START_PRICE:
        raise CardError("bad card 19: the 19 is the bottle's starting price, not a card of the deck")
    if number not in table._suit:
        raise CardError(f"bad card {_shown(text)}: the cards are numbered 1-37 (not 19)")
    letter = m.group(2).lower()
    names = ", ".join(f"{k} {v}" for k, v in table.suit_names.items())
    if letter and letter not in table.suit_names:
        raise CardError(f"bad card {_shown(text)}: {m.group(2)!r} is no suit letter of the {table.name} table "
                        f"({names})")
    if letter and letter != table.suit(number):
        raise CardError(f"bad card {_shown(text)}: under the {table.name} table {number} is "
                        f"{table.suit_names[table.suit(number)]} ({table.pretty(number)}; suits: {names})")
    return number


def format_cards(cards, table: CardTable = None, pretty: bool = False) -> str:
    """Card numbers separated by spaces; with ``pretty`` (and a table) each with its suit letter."""
    if pretty and table is not None:
        return " ".join(table.pretty(n) for n in cards)
    return " ".join(str(n) for n in cards)
