"""Which game is played: the variant, the number of players and the card table.

>>> Rules("lopaka").seats, Rules("glitzerhaus").trick_size, Rules("base", players=4).seats
(('A', 'L', 'B'), 4, ('1', '2', '3', '4'))
>>> Rules("base").players, Rules("lopaka").players is None
(3, True)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..errors import InputError
from .cards import TABLES, CardTable

VARIANTS = ("lopaka", "glitzerhaus", "base")
BASE_PLAYERS = (3, 4)
CARD_TABLES = tuple(TABLES)


class RulesError(InputError):
    """A variant, player count or card table the rules do not have."""


@dataclass(frozen=True)
class Rules:
    """The game of one round.

    ``players`` is the base game's seat count (3 or 4, default 3) and None in the
    two-player variants, whose seats are fixed: Lopaka ``A L B`` (play goes
    A -> Lopaka -> B, §3.1), Glitzerhaus ``A B``.
    """

    variant: str = "lopaka"
    players: Optional[int] = None
    cards: str = "classic"

    def __post_init__(self):
        if self.variant not in VARIANTS:
            raise RulesError(f"bad variant {self.variant!r}: choose one of {', '.join(VARIANTS)}")
        if self.cards not in CARD_TABLES:
            raise RulesError(f"bad card table {self.cards!r}: choose one of {', '.join(CARD_TABLES)}")
        if self.variant == "base":
            players = 3 if self.players is None else self.players
            if isinstance(players, bool) or players not in BASE_PLAYERS:
                raise RulesError(f"bad player count {self.players!r}: the base game is for 3 or 4 players")
            object.__setattr__(self, "players", players)
        elif self.players is not None:
            raise RulesError(f"the {self.variant} variant is for two players: a player count "
                             f"({self.players!r}) belongs to the base game only")

    @property
    def table(self) -> CardTable:
        return TABLES[self.cards]

    @property
    def seats(self) -> tuple:
        """The seats in clockwise order of play; the first leads the first trick."""
        if self.variant == "lopaka":
            return ("A", "L", "B")
        if self.variant == "glitzerhaus":
            return ("A", "B")
        return tuple(str(i) for i in range(1, self.players + 1))

    @property
    def trick_size(self) -> int:
        return 4 if self.variant == "glitzerhaus" else len(self.seats)

    @property
    def tricks(self) -> int:
        """Tricks in a round: Lopaka 11, Glitzerhaus 8, base 11 (3 players) or 8 (4 players)."""
        return {"lopaka": 11, "glitzerhaus": 8}.get(self.variant) or (11 if self.players == 3 else 8)

    @property
    def devil_size(self) -> int:
        return {"lopaka": 3, "glitzerhaus": 4}.get(self.variant) or self.players

    @property
    def two_player(self) -> bool:
        """A variant with a margin A - B (Lopaka, Glitzerhaus)."""
        return self.variant != "base"

    def describe(self) -> str:
        """For people: ``Lopaka, classic cards`` (base: ``base game, 3 players, ...``)."""
        name = {"lopaka": "Lopaka", "glitzerhaus": "Glitzerhaus"}.get(self.variant) or f"base game, {self.players} players"
        return f"{name}, {self.cards} cards"

    def as_dict(self) -> dict:
        out = {"variant": self.variant, "cards": self.cards}
        if self.variant == "base":
            out["players"] = self.players
        return out
