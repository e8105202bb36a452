"""The reference solver (IMP-RULES §8): values, action values and optimal lines agree."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.bottleimp import Play, Rules, deal, format_line, line_of, parse_line, replay
from scoundrel_solver.bottleimp.reference import NoValueError, action_values, best_line, solve_reference, value

from imp_games import TWO_PLAYER, play_until

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute(state):
    """Minimax without memo or tie rules: the plainest possible check (tiny endgames only)."""
    if state.finished:
        return state.value()
    values = [brute(state.apply(Play(c))) for c in state.legal_cards()]
    return max(values) if state.turn_name == "A" else min(values)


def endgame(rules, seed, rng_seed, cards_left):
    return play_until(deal(seed, rules).start(), random.Random(rng_seed), cards_left)


@pytest.mark.parametrize("rules", TWO_PLAYER, ids=lambda r: f"{r.variant}-{r.cards}")
@settings(max_examples=15, **SETTINGS)
@given(seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32), left=st.integers(0, 12))
def test_value_is_the_best_action_value_and_the_line_reaches_it(rules, seed, rng_seed, left):
    state = endgame(rules, seed, rng_seed, left)
    if state.finished:
        assert value(state) == state.value() and best_line(state) == [] and action_values(state) == []
        return
    v = value(state)
    actions = action_values(state, {})
    assert [a.card for a, _ in actions] == list(state.legal_cards())
    best = max(x for _, x in actions) if state.turn_name == "A" else min(x for _, x in actions)
    assert v == best
    line = best_line(state)
    # the margin of the played-out line equals its replayed score, through the notation
    text = format_line(line_of(state, line))
    final = replay(state, parse_line(text, rules))[-1]
    assert final.finished and final.value() == v
    # ties go to the lowest card
    first = line[0].card
    assert first == min(a.card for a, x in actions if x == best)


@pytest.mark.parametrize("rules", TWO_PLAYER[::2], ids=lambda r: r.variant)
def test_the_reference_agrees_with_plain_minimax(rules):
    rng = random.Random(11)
    for seed in range(12):
        state = endgame(rules, seed, rng.randrange(2 ** 32), 7 if rules.variant == "lopaka" else 8)
        assert value(state) == brute(state)


def test_a_hand_checked_endgame():
    """The doc example: A leads 3 or 24 with two tricks left (checked by hand in the docstring's terms)."""
    from scoundrel_solver.bottleimp.position import position_from_dict
    end = position_from_dict({"type": "imp-position", "variant": "lopaka", "cards": "classic",
                              "hands": {"A": [3, 24], "L": [12, 36], "B": [5, 33]}, "devil": [2, 17, 29],
                              "price": 14, "holder": "B",
                              "won": {"A": [1, 4, 6, 7, 8, 9, 10, 11, 13, 15, 16, 18, 20, 21, 22],
                                      "L": [23, 25, 26, 27, 28, 30], "B": [14, 31, 32, 34, 35, 37]},
                              "leader": "A", "trick": []})
    # 3: Lopaka beats it with 12 below the price and buys the bottle; he leads 36 and wins again,
    # so he pays the devil's trick (8) and A 39 - B 28 = 11.
    # 24: Lopaka plays 36 (the highest winner); B answers 5 (below 14) and buys the bottle, then
    # leads 33, and A's 3 (below 5) buys it back: A pays 8, B 40: -48.
    assert [(a.card, v) for a, v in action_values(end)] == [(3, 11), (24, -48)]
    out = solve_reference(end)
    assert out["value"] == 11 and format_line(line_of(end, out["line"])) == "3 12 5 | 36 33 24"


def test_no_value_for_setup_or_the_base_game():
    with pytest.raises(NoValueError, match="play-phase"):
        value(deal(1, Rules("lopaka")).start())
    with pytest.raises(NoValueError, match="base game"):
        value(play_until(deal(1, Rules("base")).start(), random.Random(1), 3))


# ------------------------------------------------------------------ corpus
def corpus():
    """tests/bottleimp/imp_reference_corpus.jsonl (benchmarks/bottleimp/make_corpus.py wrote it):
    endgames with their values, the regression corpus of the reference and of the fast core to come."""
    import json
    from pathlib import Path
    path = Path(__file__).with_name("imp_reference_corpus.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


CORPUS = corpus()


def _cards_left(entry):
    position = entry["position"]
    holdings = position.get("hands") or {**position["open"], **{k + "'": v for k, v in position["hidden"].items()}}
    return sum(len(v) for v in holdings.values())


def check_entry(entry):
    from scoundrel_solver.bottleimp.position import position_dict, position_from_dict
    state = position_from_dict(entry["position"])
    assert position_dict(state) == entry["position"]
    memo = {}
    assert value(state, memo) == entry["value"]
    assert [[a.card, v] for a, v in action_values(state, memo)] == entry["actions"]
    line = best_line(state, memo)
    assert format_line(line_of(state, line)) == entry["line"]
    assert replay(state, parse_line(entry["line"], state.rules))[-1].value() == entry["value"]


def test_the_corpus_covers_both_variants_and_tables():
    kinds = {(e["position"]["variant"], e["position"]["cards"]) for e in CORPUS}
    assert kinds == {(v, c) for v in ("lopaka", "glitzerhaus") for c in ("classic", "matagot")}
    assert len(CORPUS) >= 60 and any(e["position"]["trick"] for e in CORPUS)


@pytest.mark.parametrize("entry", [e for e in CORPUS if _cards_left(e) <= 10], ids=lambda e: str(e["seed"]))
def test_the_reference_reproduces_the_small_corpus(entry):
    check_entry(entry)


@pytest.mark.slow
@pytest.mark.parametrize("entry", [e for e in CORPUS if _cards_left(e) > 10], ids=lambda e: str(e["seed"]))
def test_the_reference_reproduces_the_whole_corpus(entry, request):
    from imp_games import require_slow
    require_slow(request)
    check_entry(entry)
