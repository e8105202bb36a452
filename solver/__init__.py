"""scoundrel-solver: exact solvers and hints for two card games, Scoundrel (solo, and co-op
Scoundrel for Two) and The Bottle Imp (Lopaka, Glitzerhaus: :mod:`scoundrel_solver.bottleimp`).

Scoundrel's names are at the root, as they were before the second game came:

>>> from scoundrel_solver import Rules, deal, State
>>> State.new(deal(42), Rules()).room[0]
Card('4H')
"""
import importlib
import importlib.abc
import importlib.util
import sys

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


# Before the two-game layout (docs/architecture.md) Scoundrel's modules stood at the package's
# top (``scoundrel_solver.daily``, ``scoundrel_solver.hints``, ...).  Those names still import:
# each is the very module of ``scoundrel_solver.scoundrel`` (one object, not a copy), so code and
# docs written against them keep working.
_MOVED = frozenset((
    "achievable", "belief", "beliefsearch", "budget", "cards", "catalogue", "daily", "deal", "explain",
    "hints", "lines", "notation", "rating", "reference", "result", "rules", "search", "state",
))


class _MovedModule(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        head, _, rest = name.partition(".")
        if head == __name__ and rest in _MOVED:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module(f"{__name__}.scoundrel.{spec.name.rpartition('.')[2]}")

    def exec_module(self, module):
        pass   # the real module ran when it was imported under its own name


sys.meta_path.append(_MovedModule())
# ``deal`` is also a function of the face: importing the old module path would set the package's
# attribute to the module (the import system does that for a submodule it loads), so that one
# is put in place now, already loaded, and the face keeps its function.
sys.modules.setdefault(f"{__name__}.deal", sys.modules[f"{__name__}.scoundrel.deal"])
