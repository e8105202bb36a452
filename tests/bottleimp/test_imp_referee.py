"""The engine against a referee written apart from it (``imp_referee.py``): on random games of
every variant, at every step both must allow the same cards, and at the end give the same
scores, bottle, price and piles.  A quick sample here; 10,000 games per variant with -m slow."""
import random

import pytest

from scoundrel_solver.bottleimp import BasePass, Discard, Pass, Play, Reveal, Rules, deal

from imp_games import require_slow
from imp_referee import Referee

GAMES = [("lopaka", None, "classic"), ("lopaka", None, "matagot"), ("glitzerhaus", None, "classic"),
         ("glitzerhaus", None, "matagot"), ("base", 3, "classic"), ("base", 4, "classic"), ("base", 3, "matagot"),
         ("base", 4, "matagot")]


def referee_setup(ref: Referee, action):
    if isinstance(action, Pass):
        ref.lopaka_pass(action.a, action.b)
    elif isinstance(action, Discard):
        ref.glitz_stack(action.stack, action.a_devil, action.a_pass, action.b_devil, action.b_pass)
    elif isinstance(action, Reveal):
        ref.glitz_open(action.a, action.b)
    else:
        assert isinstance(action, BasePass)
        ref.base_pass(action.choices)


def one_game(variant, players, cards, seed, rng):
    rules = Rules(variant, players, cards)
    d = deal(seed, rules)
    state = d.start()
    ref = Referee(variant, cards, {k: list(v) for k, v in d.blocks.items()}, players)
    while not state.finished:
        assert not ref.over()
        if state.in_setup:
            choices = {i: rng.choice(state.setup_options(i)) for i in range(len(state.seats))
                       if state.setup_options(i)}
            action = state.joint_action(choices)
            referee_setup(ref, action)
        else:
            allowed = ref.allowed()
            assert list(state.legal_cards()) == allowed, (seed, state.trick, allowed)
            assert ref.whose_turn()[0] == state.turn_name
            action = Play(rng.choice(allowed))
            ref.play(action.card)
        state = state.apply(action)
        if not state.in_setup:
            assert state.price == ref.price
            assert (None if state.holder is None else state.seats[state.holder]) == ref.bottle
    assert ref.over()
    assert state.scores() == ref.scores()
    assert {s: sorted(p) for s, p in zip(state.seats, state.won)} == {s: sorted(p) for s, p in ref.piles.items()}
    assert sorted(state.devil) == sorted(ref.devil)
    return state.scores()


@pytest.mark.parametrize("variant, players, cards", GAMES)
def test_engine_and_referee_agree_on_a_sample(variant, players, cards):
    rng = random.Random(f"{variant}{players}{cards}")
    for _ in range(200 if cards == "classic" else 50):
        one_game(variant, players, cards, rng.randrange(2 ** 64), rng)


@pytest.mark.slow
@pytest.mark.parametrize("variant, players, cards", GAMES)
def test_engine_and_referee_agree_on_10000_games(variant, players, cards, request):
    require_slow(request)
    rng = random.Random(f"slow {variant}{players}{cards}")
    for _ in range(10_000):
        one_game(variant, players, cards, rng.randrange(2 ** 64), rng)


def test_the_referee_is_not_a_rubber_stamp():
    """A wrong card or a wrong Lopaka card trips the referee, so agreement means something."""
    d = deal(42, Rules("lopaka"))
    ref = Referee("lopaka", "classic", {k: list(v) for k, v in d.blocks.items()})
    ref.lopaka_pass(1, 18)
    ref.play(36)
    assert ref.allowed() == [37]
    with pytest.raises(AssertionError):
        ref.play(32)
