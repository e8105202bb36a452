"""Shared fixtures for Scoundrel's rules-engine tests (cards, deal, state, notation, properties)."""
from dataclasses import replace

import pytest

from scoundrel_solver.scoundrel.cards import parse_cards
from scoundrel_solver.scoundrel.notation import parse_action
from scoundrel_solver.scoundrel.rules import Rules
from scoundrel_solver.scoundrel.state import Hero, State


def _new(cards: str, **rules) -> State:
    return State.new(tuple(parse_cards(cards)), Rules(**rules))


def _run(state: State, *tokens: str) -> State:
    """Play moves written in notation (``"4Sb"``, ``"TD>"``, ``"avoid"``) one after another."""
    for token in tokens:
        for t in token.split():
            state = state.play(parse_action(t))
    return state


def _with_heroes(state: State, *heroes) -> State:
    """``state`` with the heroes replaced: each a Hero or a (health, weapon, last_kill) tuple."""
    return replace(state, heroes=tuple(h if isinstance(h, Hero) else Hero(*h) for h in heroes))


@pytest.fixture
def new():
    """``new("2S 3S 5H", mode="coop")``: the fresh state of a custom dungeon."""
    return _new


@pytest.fixture
def run():
    return _run


@pytest.fixture
def with_heroes():
    return _with_heroes
