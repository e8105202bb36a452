"""Rule options of RULES §5 as one immutable value.

>>> Rules()
Rules(mode='solo', flee='classic', durability='strict', deck_size=52)
>>> Rules(mode="coop").durability
'lenient'
"""
from __future__ import annotations

from ..errors import InputError

from dataclasses import dataclass, field

from .cards import Card, JOKER, full_pack, is_solo_card

MODES = ("solo", "coop")
FLEES = ("classic", "easy", "hard")
DURABILITIES = ("strict", "lenient")
DECK_SIZES = (52, 50, 54)
START_HEALTH = 20
MAX_HEALTH = 20
MAX_DUNGEON = 54


class RulesError(InputError):
    """An option value that RULES §5 does not define."""


@dataclass(frozen=True)
class Rules:
    """The rule options. ``durability=None`` means the mode's default.

    ``flee`` only matters in solo (co-op always forbids two avoids in a row);
    ``deck_size`` only selects the co-op pack of a numbered deal.
    """

    mode: str = "solo"
    flee: str = "classic"
    durability: str = field(default=None)  # type: ignore[assignment]
    deck_size: int = 52

    def __post_init__(self):
        if self.mode not in MODES:
            raise RulesError(f"unknown mode {self.mode!r} (choose solo or coop)")
        if self.flee not in FLEES:
            raise RulesError(f"unknown flee rule {self.flee!r} (choose classic, easy or hard)")
        if self.durability is None:
            object.__setattr__(self, "durability", "strict" if self.mode == "solo" else "lenient")
        if self.durability not in DURABILITIES:
            raise RulesError(f"unknown durability {self.durability!r} (choose strict or lenient)")
        size = self.deck_size
        text = size.strip() if isinstance(size, str) else None
        if text is not None and text.isascii() and text.isdigit() and len(text) <= 3:
            size = int(text)
        if isinstance(size, bool) or not isinstance(size, int):   # 52.7, True, "5_2", 1e400: no deck size
            raise RulesError(f"unknown deck size {self.deck_size!r} (choose 52, 50 or 54)")
        if size not in DECK_SIZES:
            raise RulesError(f"unknown deck size {self.deck_size!r} (choose 52, 50 or 54)")
        object.__setattr__(self, "deck_size", size)

    @property
    def coop(self) -> bool:
        return self.mode == "coop"

    @property
    def heroes(self) -> int:
        return 2 if self.coop else 1

    @property
    def lenient(self) -> bool:
        return self.durability == "lenient"

    def can_avoid_after_avoid(self) -> bool:
        return (not self.coop) and self.flee == "easy"

    def avoid_allowed(self) -> bool:
        return self.coop or self.flee != "hard"

    def base_order(self) -> list:
        """The deck of a numbered deal before shuffling (RULES §6)."""
        cards = [c for c in full_pack() if c is not JOKER]
        if not self.coop:
            return [c for c in cards if is_solo_card(c)]
        if self.deck_size == 50:
            cards = [c for c in cards if not (c.rank == 14 and c.suit in "HD")]
        if self.deck_size == 54:
            cards = cards + [JOKER, JOKER]
        return cards

    def card_allowed(self, card: Card) -> bool:
        """May ``card`` appear in a custom dungeon of this mode?

        Solo: the 44 solo cards.  Co-op: any of the 52 cards and the joker,
        whatever ``deck_size`` (which only picks the pack of numbered deals).
        """
        return is_solo_card(card) if not self.coop else True

    def as_dict(self) -> dict:
        d = {"mode": self.mode, "durability": self.durability}
        if self.coop:
            d["deck_size"] = self.deck_size
        else:
            d["flee"] = self.flee
        return d

    def describe(self) -> str:
        if self.coop:
            return f"co-op, {self.deck_size} cards, {self.durability} weapons"
        return f"solo, {self.flee} flee, {self.durability} weapons"
