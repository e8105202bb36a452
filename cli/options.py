"""Options shared by every command: rule flags, deck selection, output flags.

Each future command (``hint``, ``play``, ``rate``, ``daily``, ...) takes the
same ``@game_options`` and receives one :class:`GameOptions` value instead of
six loose keyword arguments; turning it into a :class:`Game` is where input is
checked, so every command reports bad input the same way.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

import click

from scoundrel_solver import DEFAULT_TT_MB, Rules, State, deal, parse_cards
from scoundrel_solver.deal import check_seed
from scoundrel_solver.rules import DECK_SIZES, DURABILITIES, FLEES, MODES

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
class GameOptions:
    """The raw rule and deck options of one command line, not yet checked."""

    mode: str = "solo"
    flee: str = "classic"
    durability: Optional[str] = None
    deck_size: str = "52"
    seed: Optional[str] = None
    deck: Optional[str] = None

    @property
    def has_deck(self) -> bool:
        return self.seed is not None or self.deck is not None

    def rules(self) -> Rules:
        # Rules ignores options of the other mode (scripts that loop over every
        # flag combination keep working); a person is told on stderr.
        if self.mode == "coop" and self.flee != "classic":
            click.echo("note: --flee applies to solo only; co-op never allows two avoids in a row", err=True)
        if self.mode == "solo" and self.deck_size != "52":
            click.echo("note: --deck-size applies to co-op only; solo always uses the 44-card deck", err=True)
        return Rules(mode=self.mode, flee=self.flee, durability=self.durability, deck_size=int(self.deck_size))

    def game(self) -> Game:
        """Check everything; raise the solver's own error for bad input."""
        rules = self.rules()
        if self.seed is not None and self.deck is not None:
            raise usage_error("give either --seed or --deck, not both")
        if self.seed is not None:
            seed = check_seed(self.seed.strip())
            return Game(rules, deal(seed, rules), seed)
        if self.deck is not None:
            deck = tuple(parse_cards(self.deck))
            State.new(deck, rules)  # validates: card of the mode, duplicates, size
            return Game(rules, deck, None)
        raise usage_error("give --seed N (a numbered deal) or --deck \"CARDS\" (a custom dungeon)")


def rule_options(f):
    """The rule flags alone (commands that pick their own deals: stats, daily, generate)."""
    decorators = [
        click.option("--mode", type=click.Choice(MODES), default="solo", show_default=True,
                     help="Solo Scoundrel or Scoundrel for Two."),
        click.option("--flee", type=click.Choice(FLEES), default="classic", show_default=True,
                     help="Solo avoid rule: classic = not twice in a row, easy = always, hard = never."),
        click.option("--durability", type=click.Choice(DURABILITIES), default=None,
                     help="Weapon after a kill: strict = only below the last kill, lenient = also equal. "
                          "[default: strict in solo, lenient in co-op]"),
        click.option("--deck-size", type=click.Choice([str(n) for n in DECK_SIZES]), default="52",
                     show_default=True, help="Co-op pack: 50 = no red aces, 54 = two jokers."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


def _rule_and_deck_params(f):
    decorators = [
        click.option("--seed", metavar="N", default=None,
                     help="Numbered deal, 0 <= N < 2^64 (the same N always gives the same dungeon)."),
        click.option("--deck", metavar="CARDS", default=None,
                     help='Custom dungeon, top card first, e.g. "5D 3S 4H 9C" (spaces or commas).'),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return rule_options(f)


def game_options(f):
    """Add ``--seed/--deck`` and the rule flags; pass them as ``game=GameOptions``."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        raw = {name: kwargs.pop(name) for name in RULE_PARAMS + DECK_PARAMS}
        return f(*args, game=GameOptions(**raw), **kwargs)

    return _rule_and_deck_params(wrapper)


def typed(ctx: click.Context, name: str) -> bool:
    """Was option ``name`` given on the command line (not left at its default)?"""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def usage_error(message: str) -> click.UsageError:
    """A usage error tied to the running command, so the hint names it."""
    return click.UsageError(message, ctx=click.get_current_context(silent=True))


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object for machines.")
pretty_option = click.option("--pretty", is_flag=True, help="Print cards for people: 10♦ instead of TD.")


def search_options(f):
    """Limits of the search (``solve`` and the main job)."""
    decorators = [
        click.option("--max-nodes", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Stop after N nodes; the answer is then marked NOT PROVEN."),
        click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
                     help="Stop after this many seconds; the answer is then marked NOT PROVEN."),
        click.option("--tt-mb", type=click.IntRange(min=1, max=65536), default=DEFAULT_TT_MB, show_default=True, metavar="MB",
                     help="Memory for the transposition table."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f
