"""The Bottle Imp (Der Flaschenteufel): its rules engine, deals, notation and positions.

The game of IMP-RULES.md: the base game for 3 or 4 players and the two two-player
variants, Lopaka (a dummy who follows a fixed rule) and Glitzerhaus (open and hidden
hands).  docs/bottleimp.md describes it as implemented.

>>> from scoundrel_solver.bottleimp import Rules, deal, parse_line, replay, format_line
>>> start = deal(42, Rules("lopaka")).start()
>>> final = replay(start, parse_line("pass 1 18 | 36 37 31", start.rules))[-1]
>>> final.price, final.holder, final.leader, final.seats[final.leader]
(19, None, 1, 'L')
"""
from .cards import DECK, START_PRICE, TABLES, Card, CardError, CardTable, format_cards, parse_card
from ..errors import InputError
from .deal import Deal, DealError, deal, deal_from_blocks, deal_from_text
from .notation import NotationError, format_line, line_of, parse_line, replay
from .rules import Rules, RulesError
from .state import (Action, BasePass, Discard, IllegalMove, Pass, Play, PositionError, Reveal, State, follow, lopaka_rule,
                    trick_winner)

__all__ = [
    "DECK", "START_PRICE", "TABLES", "Card", "CardError", "CardTable", "format_cards", "parse_card",
    "InputError", "Deal", "DealError", "deal", "deal_from_blocks", "deal_from_text",
    "NotationError", "format_line", "line_of", "parse_line", "replay",
    "Rules", "RulesError",
    "Action", "BasePass", "Discard", "IllegalMove", "Pass", "Play", "PositionError", "Reveal", "State", "follow", "lopaka_rule",
    "trick_winner",
]
