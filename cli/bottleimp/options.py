"""The options every ``imp`` command takes: the game (variant, players, card table) and the
deal (``--seed`` or ``--deal``), checked into a :class:`Deal` in one place."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

import click

from scoundrel_solver.bottleimp import Rules, deal, deal_from_text
from scoundrel_solver.bottleimp.rules import CARD_TABLES, VARIANTS
from scoundrel_solver.shuffle import check_seed

from ..options import OneOf, usage_error


@dataclass(frozen=True)
class ImpOptions:
    """The raw game options of one ``imp`` command line, not yet checked."""

    variant: str = "lopaka"
    players: Optional[str] = None
    cards: str = "classic"
    seed: Optional[str] = None
    deal: Optional[str] = None

    def rules(self) -> Rules:
        return Rules(self.variant, int(self.players) if self.players is not None else None, self.cards)

    def game(self):
        """The checked :class:`Deal` (InputError for bad input)."""
        rules = self.rules()
        if self.seed is not None and self.deal is not None:
            raise usage_error("give either --seed or --deal, not both")
        if self.seed is not None:
            return deal(check_seed(self.seed), rules)
        if self.deal is not None:
            return deal_from_text(self.deal, rules)
        raise usage_error('give --seed N (a numbered deal) or --deal "CARDS" (hands given by hand)')


IMP_PARAMS = ("variant", "players", "cards", "seed", "deal")


def imp_options(f):
    """``--variant --players --cards --seed --deal``, passed on as ``game=ImpOptions``."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        raw = {name: kwargs.pop(name) for name in IMP_PARAMS}
        return f(*args, game=ImpOptions(**raw), **kwargs)

    decorators = [
        click.option("--variant", type=OneOf(VARIANTS), default="lopaka", show_default=True,
                     help="lopaka (two players and a dummy), glitzerhaus (open and hidden hands), "
                          "or base (the game for 3 or 4 players)."),
        click.option("--players", type=OneOf(["3", "4"]), default=None,
                     help="Players of the base game [default: 3]; the variants are for two."),
        click.option("--cards", type=OneOf(CARD_TABLES), default="classic", show_default=True,
                     help="Card table: classic (126 coins) or matagot (the 2023 edition, 127 coins)."),
        click.option("--seed", metavar="N", default=None,
                     help="Numbered deal, 0 <= N < 2^64 (the same N always gives the same cards)."),
        click.option("--deal", metavar="CARDS", default=None,
                     help='Hands given by hand: blocks separated by "/" in the order of --help, or 36 cards.'),
    ]
    for decorator in reversed(decorators):
        wrapper = decorator(wrapper)
    return wrapper


pretty_option = click.option("--pretty", is_flag=True, help="Write each card with its suit letter: 24b.")


def read_position(handle):
    """A §7 position from an open binary file (``--position``, ``-`` for stdin), every check made."""
    from scoundrel_solver.bottleimp.position import position_from_json
    from scoundrel_solver.jsonform import file_name, read_document
    name = file_name(handle)
    return position_from_json(read_document(handle, f"--position {name}"), f"--position {name}", answers=True)
