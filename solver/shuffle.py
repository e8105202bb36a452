"""Deal numbers: SplitMix64 and the Fisher-Yates shuffle of RULES.md §6, for any game.

A deal number (0 <= seed < 2^64) seeds SplitMix64, whose stream shuffles a game's base order
from the last index down.  Scoundrel shuffles its dungeon this way (RULES.md §6) and the Bottle
Imp its 36 cards (IMP-RULES.md §5); each game names its own base order and cuts the result.

>>> shuffled(0, list(range(1, 6)))
[3, 4, 2, 5, 1]
"""
from __future__ import annotations

from .errors import InputError, shown

MASK64 = (1 << 64) - 1
MAX_SEED = 1 << 64


class SeedError(InputError):
    """A deal number outside 0 <= seed < 2**64."""


def splitmix64(seed: int):
    """Yield the SplitMix64 stream for ``seed`` (all arithmetic mod 2**64)."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def check_seed(seed, name: str = "seed") -> int:
    """The deal number ``seed`` (an int, or its decimal digits as text) checked: 0 <= seed < 2^64.

    Text must be plain ASCII digits (surrounding blanks allowed): Python's ``int``
    would also take ``1_000``, ``+5`` or other scripts' digits, which no deal number
    is written as.  ``name`` is what the message calls it (``--start-seed``).
    """
    bad = SeedError(f"bad {name} {shown(seed)}: must be an integer 0 <= seed < 2^64")
    if isinstance(seed, str):
        text = seed.strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 20:
            raise bad from None
        value = int(text)
    elif isinstance(seed, int) and not isinstance(seed, bool):
        value = seed
    else:
        raise bad from None
    if not 0 <= value < MAX_SEED:
        raise bad
    return value


def shuffled(seed, base_order) -> list:
    """A new list: ``base_order`` shuffled for deal number ``seed`` (checked as :func:`check_seed`)."""
    seed = check_seed(seed)
    cards = list(base_order)
    rng = splitmix64(seed)
    for i in range(len(cards) - 1, 0, -1):
        j = next(rng) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
