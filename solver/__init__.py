"""scoundrel-solver: exact solver and hint engine for Scoundrel and Scoundrel for Two.

>>> from scoundrel_solver import Rules, deal, State
>>> State.new(deal(42), Rules()).room[0]
Card('4H')
"""
from .scoundrel.cards import Card, CardError, JOKER, parse_card, parse_cards, format_cards
from .scoundrel.deal import SeedError, deal
from .errors import InputError
from .jsonform import SCHEMA_VERSION, schema
from .scoundrel.notation import NotationError, format_line, parse_action, parse_line, replay
from .scoundrel.result import Result
from .scoundrel.rules import Rules, RulesError
from .scoundrel.search import CoreMissingError, DEFAULT_TT_MB, solve
from .scoundrel.state import AVOID, Avoid, Hero, IllegalMove, PositionError, State, Take

__all__ = [
    "Card", "CardError", "JOKER", "parse_card", "parse_cards", "format_cards",
    "SeedError", "deal", "InputError", "SCHEMA_VERSION", "schema", "NotationError", "format_line", "parse_action", "parse_line", "replay",
    "Result", "Rules", "RulesError", "solve", "CoreMissingError", "DEFAULT_TT_MB",
    "AVOID", "Avoid", "Hero", "IllegalMove", "PositionError", "State", "Take",
]
__version__ = "0.1.0"
