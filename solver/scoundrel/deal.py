"""Deal numbering of RULES §6: SplitMix64 + Fisher-Yates on the base order.

>>> from scoundrel_solver.rules import Rules
>>> " ".join(map(str, deal(42, Rules())[:5]))
'4H 3H 5C 5D 5S'
"""
from __future__ import annotations

from .rules import Rules
from ..shuffle import MASK64, MAX_SEED, SeedError, check_seed, shuffled, splitmix64  # noqa: F401 (re-exported)


def deal(seed: int, rules: Rules = Rules()) -> tuple:
    """The dungeon of deal ``seed`` for ``rules``, top card first."""
    return tuple(shuffled(seed, rules.base_order()))
