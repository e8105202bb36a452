"""Random legal rounds for the Bottle Imp tests (every variant, both card tables)."""
import random

from scoundrel_solver.bottleimp import Play, Rules, deal

ALL_RULES = [Rules("lopaka"), Rules("lopaka", cards="matagot"), Rules("glitzerhaus"),
             Rules("glitzerhaus", cards="matagot"), Rules("base", players=3), Rules("base", players=4),
             Rules("base", players=3, cards="matagot"), Rules("base", players=4, cards="matagot")]
TWO_PLAYER = [r for r in ALL_RULES if r.two_player]


def random_action(state, rng: random.Random):
    """A uniformly chosen legal action (each player's setup part chosen at random)."""
    if state.in_setup:
        return state.joint_action({i: rng.choice(state.setup_options(i)) for i in range(len(state.seats))
                                   if state.setup_options(i)})
    return Play(rng.choice(state.legal_cards()))


def random_game(rules, seed: int, rng: random.Random, stop_after=None):
    """``(start, actions, states)`` of a random round of deal ``seed`` (``stop_after``: that many actions)."""
    start = deal(seed, rules).start()
    state, actions, states = start, [], [start]
    while not state.finished and (stop_after is None or len(actions) < stop_after):
        action = random_action(state, rng)
        state = state.apply(action)
        actions.append(action)
        states.append(state)
    return start, actions, states


def game_at(rules, seed: int, rng_seed: int, cards_left: int, choice: bool = False):
    """``(start, actions, now)``: a random round of deal ``seed`` stopped at the first turn of A
    or B with at most ``cards_left`` cards in play (``choice``: and more than one legal card), or
    None if the round ends first."""
    start, actions, states = random_game(rules, seed, random.Random(rng_seed))
    for i, s in enumerate(states):
        if not s.in_setup and not s.finished and sum(map(len, s.hands)) <= cards_left and not s.lopaka_to_play \
                and (not choice or len(s.legal_cards()) > 1):
            return start, actions[:i], s
    return None


def play_until(state, rng: random.Random, cards_left: int):
    """Play random legal actions from ``state`` until at most ``cards_left`` cards are in hand."""
    while not state.finished and (state.in_setup or sum(map(len, state.hands)) > cards_left):
        state = state.apply(random_action(state, rng))
    return state


def require_slow(request) -> None:
    """Skip unless ``pytest -m slow`` (a mark expression naming slow positively) or SCOUNDREL_SLOW=1,
    as tests/test_core.py does."""
    import os

    import pytest
    if os.environ.get("SCOUNDREL_SLOW", "") not in ("", "0"):
        return
    expr = request.config.getoption("markexpr", "") or ""
    if "slow" not in expr.replace("not slow", ""):
        pytest.skip("slow: run with `pytest -m slow` or SCOUNDREL_SLOW=1")


from clitools import invoke, runner  # noqa: E402,F401  (tests/clitools.py: one runner for every game)
