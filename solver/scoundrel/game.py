"""The game a command is asked about: rule flags and a dungeon (a deal number or cards), checked.

:class:`GameChoice` holds them as typed (text), :meth:`GameChoice.game` checks
them all and gives a :class:`Game`; the command line and the service both start
here, so bad input reads the same from either.

>>> GameChoice(seed="42").game().deck[:3]
(Card('4H'), Card('3H'), Card('5C'))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..errors import OptionError
from .cards import parse_cards
from .deal import check_seed, deal
from .rules import Rules
from .state import State

RULE_PARAMS = ("mode", "flee", "durability", "deck_size")
DECK_PARAMS = ("seed", "deck")


@dataclass(frozen=True)
class Game:
    """A checked game choice: the rules and the dungeon (top first)."""

    rules: Rules
    deck: tuple
    seed: Optional[int] = None

    def start(self) -> State:
        return State.new(self.deck, self.rules)

    def as_dict(self) -> dict:
        return {"seed": self.seed, "rules": self.rules.as_dict(), "deck": [str(c) for c in self.deck]}


@dataclass(frozen=True)
class GameChoice:
    """The rule flags and the deal or deck of one request, as typed, not yet checked.

    ``given``: the rule flags typed rather than left at their defaults (a
    position file with rules of its own must agree with those).
    """

    mode: str = "solo"
    flee: str = "classic"
    durability: Optional[str] = None
    deck_size: str = "52"
    seed: Optional[str] = None
    deck: Optional[str] = None
    given: frozenset = frozenset()

    @property
    def has_deck(self) -> bool:
        return self.seed is not None or self.deck is not None

    def rules(self) -> Rules:
        return Rules(mode=self.mode, flee=self.flee, durability=self.durability, deck_size=self.deck_size)

    def game(self) -> Game:
        """Check everything; raise the solver's own error for bad input."""
        rules = self.rules()
        if self.seed is not None and self.deck is not None:
            raise OptionError("give either --seed or --deck, not both")
        if self.seed is not None:
            seed = check_seed(self.seed.strip())
            return Game(rules, deal(seed, rules), seed)
        if self.deck is not None:
            deck = tuple(parse_cards(self.deck))
            State.new(deck, rules)  # validates: card of the mode, duplicates, size
            return Game(rules, deck, None)
        raise OptionError("give --seed N (a numbered deal) or --deck \"CARDS\" (a custom dungeon)")
