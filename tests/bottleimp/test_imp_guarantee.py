"""The floor by what the player knows (solver/bottleimp/guarantee.py), checked from first principles.

* The floor is *reached*: the strategy behind it (one card per thing the player sees), replayed
  in every world against an opponent who sees every card and answers at its best (a plain
  minimax here, no engine), gives each card's floor exactly.
* It is a floor under the double-dummy mean (the player seeing every card can only do better),
  and equal to it where the player has no choice left after the card.
* It does not depend on the engine's table, and a budget gives no figure rather than a partial one.
* The real-table hint carries it late in a round (text and JSON, schema-valid) and not early.
"""
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from imp_games import TWO_PLAYER, game_at
from scoundrel_solver.bottleimp import Play, Rules, deal
from scoundrel_solver.bottleimp.answers import table_hint_json, table_view_after
from scoundrel_solver.bottleimp.engine import Engine
from scoundrel_solver.bottleimp.guarantee import NAMED, guarantee
from scoundrel_solver.bottleimp.tablehint import table_hint
from scoundrel_solver.bottleimp.worlds import view_of, world_order
from test_imp_cli import check
from test_imp_table_cli import core_means
from imp_games import invoke

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: deal 42, eight tricks played (20 worlds; the floor differs from the mean for two cards)
LATE8 = "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8 | 33 11 14"


def strategy_value(state, seat, strategy, played):
    """The margin of ``state`` when ``seat`` follows ``strategy`` (a card per public line; a lone
    legal card is played) and everyone else plays their best in this world (Lopaka his rule)."""
    if state.finished:
        return state.value()
    legal = state.legal_cards()
    if state.turn == seat:
        card = legal[0] if len(legal) == 1 else strategy[played]
        assert card in legal
        return strategy_value(state.apply(Play(card)), seat, strategy, played + (card,))
    values = [strategy_value(state.apply(Play(c)), seat, strategy, played + (c,)) for c in legal]
    return min(values) if seat == 0 else max(values)      # the opponent against the player


@pytest.mark.parametrize("rules", TWO_PLAYER, ids=lambda r: f"{r.variant}-{r.cards}")
@settings(max_examples=10, **SETTINGS)
@given(seed=st.integers(0, 2 ** 32), rng_seed=st.integers(0, 2 ** 32), left=st.integers(4, 9))
def test_the_floor_is_reached_by_a_strategy_on_what_the_player_sees(rules, seed, rng_seed, left):
    got = game_at(rules, seed, rng_seed, left, choice=True)
    if got is None:
        return
    start, actions, now = got
    view = view_of(start, actions, now.turn)
    strategy = {}
    g = guarantee(view, max_nodes=0, strategy=strategy)
    worlds = world_order(view)
    assert g.worlds == len(worlds) and {c for c, _ in g.floors} == set(now.legal_cards())
    for card, floor in g.floors:
        reached = [strategy_value(w.apply(Play(card)), view.seat, strategy, (card,)) for w in worlds]
        assert Fraction(sum(reached), len(reached)) == floor
    means = core_means(view)
    sign = 1 if view.seat == 0 else -1
    for card, floor in g.floors:
        assert sign * floor <= sign * means[card]          # seeing every card never does worse
    floors = [f for _, f in g.floors]
    assert floors == sorted(floors, reverse=view.seat == 0)   # best floor first


@pytest.mark.parametrize("rules", TWO_PLAYER, ids=lambda r: f"{r.variant}-{r.cards}")
@settings(max_examples=8, **SETTINGS)
@given(seed=st.integers(0, 2 ** 32), rng_seed=st.integers(0, 2 ** 32))
def test_with_no_choice_left_after_the_card_the_floor_is_the_double_dummy_mean(rules, seed, rng_seed):
    # Lopaka: the player's last two cards (after one, the other is forced); Glitzerhaus: the last
    # trick (each holding has one card)
    got = game_at(rules, seed, rng_seed, 6 if rules.variant == "lopaka" else 4, choice=True)
    if got is None:
        return
    start, actions, now = got
    own = (2 * now.turn, 2 * now.turn + 1) if rules.variant == "glitzerhaus" else (now.turn,)
    if any(len(now.hands[h]) > (2 if rules.variant == "lopaka" else 1) for h in own):
        return
    view = view_of(start, actions, now.turn)
    g = guarantee(view, max_nodes=0)
    assert dict(g.floors) == core_means(view)


def test_the_floor_is_below_the_mean_where_the_player_must_guess():
    view = table_view_after(deal(42, Rules("lopaka")).start(), LATE8)[0]
    g = guarantee(view)
    means = core_means(view)
    floors = dict(g.floors)
    assert any(floors[c] < means[c] for c in floors)      # A (seat 0) gives up coins to what it cannot see
    assert all(floors[c] <= means[c] for c in floors)
    # the same figures whatever the engine's table, and no figure at all rather than a cut one
    assert guarantee(view, engine=Engine(log2_entries=4)).floors == g.floors
    assert guarantee(view, max_nodes=g.nodes) is not None
    assert guarantee(view, max_nodes=g.nodes - 1) is None


def test_the_table_hint_shows_the_floor_late_and_not_early():
    rules = Rules("lopaka")
    start = deal(42, rules).start()
    view = table_view_after(start, LATE8)[0]
    h = table_hint(view, seconds=0, workers=1)
    assert h.guarantee is not None and h.guarantee.floors == guarantee(view).floors
    d = table_hint_json(h, view, 0, 42, LATE8)
    check(d)
    assert d["guarantee"]["named"] == NAMED and d["guarantee"]["best"] == h.guarantee.best
    assert {a["card"]: Fraction(a["floor"]["fraction"]) for a in d["actions"]} == dict(h.guarantee.floors)
    # the table bot's hint (a sample of worlds) and an early one (too many positions) carry none
    assert table_hint(view, seconds=0, workers=1, max_worlds=8).guarantee is None
    early = table_view_after(start, "pass 1 12 | 21 37 31 | 32 30 34")[0]
    e = table_hint(early, seconds=0.5, workers=1)
    assert e.guarantee is None
    d = table_hint_json(e, early, 0.5, 42, "pass 1 12 | 21 37 31 | 32 30 34")
    check(d)
    assert d["guarantee"] is None and all(a["floor"] is None for a in d["actions"])


def test_the_cli_prints_the_floor_column_late():
    result = invoke(["imp", "hint", "--table", "--seed", "42", "--moves", LATE8])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "floor" in out and "best floor" in out and "against any opponent" in out
