"""Deals by number (IMP-RULES §5) and deals given by hand, checked.

The deal number's shuffle (SplitMix64 + Fisher-Yates, shared with Scoundrel) runs on
the base order 1..18, 20..37; the list is cut in blocks, index 0 first.  The card
table changes nothing here, only the suits and coins.

>>> d = deal(0, Rules("lopaka"))
>>> d.blocks["devil"], d.blocks["A"][:4]
((10, 16, 8), (3, 17, 31, 9))
>>> deal_from_text("3 17 31 9 11 20 32 22 5 / 1 28 18 35 24 7 30 34 13 / 33 6 14 23 15 4 2 21 12 / "
...                "36 37 25 26 29 27 10 16 8", Rules("glitzerhaus")).blocks["B2"][:3]
(36, 37, 25)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..shuffle import SeedError, check_seed, shuffled  # noqa: F401  (SeedError: re-exported)
from .cards import DECK, CardError, parse_card
from .rules import Rules
from .state import PositionError, State


class DealError(PositionError):
    """Hands given by hand that are not a deal of the game."""


def block_sizes(rules: Rules) -> dict:
    """The blocks of a deal of ``rules``, in the order of §5, and their sizes."""
    if rules.variant == "lopaka":
        return {"A": 11, "L": 11, "B": 11, "devil": 3}
    if rules.variant == "glitzerhaus":
        return {"A1": 9, "A2": 9, "B1": 9, "B2": 9}
    size = 36 // rules.players
    return {seat: size for seat in rules.seats}


def _cut(cards, rules: Rules) -> dict:
    blocks, at = {}, 0
    for name, size in block_sizes(rules).items():
        blocks[name] = tuple(cards[at:at + size])
        at += size
    return blocks


@dataclass(frozen=True)
class Deal:
    """The cards of one round as dealt: ``blocks`` maps each block name of §5 to its cards
    in deal order; ``seed`` is the deal number (None for a deal given by hand)."""

    rules: Rules
    blocks: dict
    seed: Optional[int] = None

    def start(self) -> State:
        """The round before its setup."""
        return State.initial(self.rules, self.blocks)

    def as_dict(self) -> dict:
        """The JSON deal object of §5."""
        out = {"type": "imp-deal", "variant": self.rules.variant}
        if self.rules.variant == "base":
            out["players"] = self.rules.players
        out.update({"seed": self.seed, "cards": self.rules.cards,
                    "deal": {name: list(cards) for name, cards in self.blocks.items()}})
        return out

    def args(self) -> list:
        """The command-line options that give this deal again (``--seed N`` or ``--deal ...``)."""
        if self.seed is not None:
            return ["--seed", str(self.seed)]
        return ["--deal", " / ".join(" ".join(map(str, b)) for b in self.blocks.values())]


def deal(seed, rules: Rules = Rules()) -> Deal:
    """The deal numbered ``seed`` (0 <= seed < 2^64) for ``rules``."""
    seed = check_seed(seed)
    return Deal(rules, _cut(shuffled(seed, DECK), rules), seed)


def deal_from_blocks(blocks, rules: Rules) -> Deal:
    """A deal given as lists of card numbers, one a block in the order of §5 (or a dict by
    block name); checked: the 36 cards of the deck, each once, in blocks of the right sizes."""
    sizes = block_sizes(rules)
    names = list(sizes)
    if isinstance(blocks, dict):
        if set(blocks) != set(names):
            raise DealError(f"a {rules.variant} deal has the blocks {', '.join(names)}; "
                            f"got {', '.join(map(str, blocks)) or 'none'}")
        blocks = [blocks[n] for n in names]
    blocks = [tuple(b) for b in blocks]
    if len(blocks) != len(names):
        raise DealError(f"a {rules.variant} deal has {len(names)} blocks ({' / '.join(names)}), got {len(blocks)}")
    seen = {}
    for name, cards in zip(names, blocks):
        for card in cards:
            if not isinstance(card, int) or isinstance(card, bool) or card not in DECK:
                raise CardError(f"bad card {card!r} in block {name}: the cards are numbered 1-37 (not 19)")
            if card in seen:
                raise DealError(f"card {card} is dealt twice (in {seen[card]} and {name})")
            seen[card] = name
        if len(cards) != sizes[name]:
            raise DealError(f"block {name} has {len(cards)} cards; a {rules.variant} deal gives it {sizes[name]}")
    return Deal(rules, dict(zip(names, blocks)), None)


def deal_from_text(text: str, rules: Rules) -> Deal:
    """A deal written by hand: the blocks of §5 in order, separated by ``/``
    (``A / L / B / devil``, ``A1 / A2 / B1 / B2``, or the seats), cards by spaces or
    commas; or the 36 cards in one list, cut as a numbered deal is."""
    table = rules.table
    if not isinstance(text, str) or not text.strip():
        raise DealError("an empty deal: give the blocks " + " / ".join(block_sizes(rules)) + ", separated by /")
    parts = text.split("/")
    blocks = [[parse_card(t, table) for t in part.replace(",", " ").split()] for part in parts]
    if len(blocks) == 1:
        cards = blocks[0]
        if len(cards) != len(DECK):
            raise DealError(f"{len(cards)} cards: a deal in one list holds all 36 cards "
                            f"(or give the blocks {' / '.join(block_sizes(rules))})")
        blocks = list(_cut(cards, rules).values())
    return deal_from_blocks(blocks, rules)
