"""The real-table view and its worlds: every consistent deal, none missing, voids respected;
the table hint's figures are the plain means over the core's values in those worlds."""
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.bottleimp.reference import action_values
from scoundrel_solver.bottleimp.state import IllegalMove
from scoundrel_solver.bottleimp.tablehint import figures, table_hint
from scoundrel_solver.bottleimp.worlds import (ViewError, check_world, count_worlds, opponent_holding, view_of,
                                               world_order, worlds)

from imp_games import TWO_PLAYER, game_at, random_game

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _splits(cards, sizes):
    """Every way to deal ``cards`` into groups of ``sizes`` (order within a group ignored)."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for more in _splits(rest, sizes[1:]):
            yield (first,) + more


def _opponent_discards(rules, seat, actions, split):
    """The lines the seat cannot tell from ``actions``: in Glitzerhaus the opponent's discards
    are unseen, so each stack's discard may be any card of that stack the seat has not seen."""
    if rules.variant != "glitzerhaus":
        yield actions
        return
    from scoundrel_solver.bottleimp import Discard
    for d1, d2 in itertools.product(split[0], split[1]):
        line = []
        for a in actions:
            if isinstance(a, Discard):
                d = d1 if a.stack == 1 else d2
                a = Discard(a.stack, a.a_devil, a.a_pass, d, a.b_pass) if seat == 0 else Discard(
                    a.stack, d, a.a_pass, a.b_devil, a.b_pass)
            line.append(a)
        yield line


def brute_force_worlds(start, actions, seat, now):
    """Every current state reachable by dealing the cards the seat has not seen differently between
    the opponent's holding(s) and the devil's trick at the start, and replaying the actions the seat
    cannot tell apart (in Glitzerhaus the opponent's discards may be any unseen card of the stack):
    consistent exactly when every action stays legal.  (No void bookkeeping: legality decides.)"""
    rules = start.rules
    hidden_now = opponent_holding(rules, seat)
    view = view_of(start, actions, seat)
    unseen = set(view.unseen())
    # where the unseen cards lay at the start: the opponent's starting holdings and the devil's trick
    if rules.variant == "lopaka":
        opp_holdings = [hidden_now]
    else:
        opp_holdings = [(1 - seat) * 2, (1 - seat) * 2 + 1]      # both stacks before the setup
    groups = [("hand", h, [c for c in start.hands[h] if c in unseen]) for h in opp_holdings]
    groups.append(("devil", None, [c for c in start.devil if c in unseen]))
    cards = sorted(c for _, _, cs in groups for c in cs)
    found = set()
    for split in _splits(cards, [len(cs) for _, _, cs in groups]):
        hands = [set(h) for h in start.hands]
        devil = set(start.devil)
        for (kind, h, old), new in zip(groups, split):
            target = hands[h] if kind == "hand" else devil
            target -= set(old)
            target |= set(new)
        s0 = start.__class__(rules, tuple(tuple(sorted(h)) for h in hands), tuple(sorted(devil)), won=start.won)
        for line in _opponent_discards(rules, seat, actions, split):
            s = s0
            try:
                for a in line:
                    s = s.apply(a)
            except IllegalMove:
                continue
            found.add((s.hands[hidden_now], s.devil))
    return found


@pytest.mark.parametrize("rules", TWO_PLAYER, ids=lambda r: f"{r.variant}-{r.cards}")
@settings(max_examples=12, **SETTINGS)
@given(seed=st.integers(0, 2 ** 32), rng_seed=st.integers(0, 2 ** 32), left=st.integers(5, 10))
def test_the_worlds_are_exactly_the_consistent_deals(rules, seed, rng_seed, left):
    got = game_at(rules, seed, rng_seed, left)
    if got is None:
        return
    start, actions, now = got
    seat = now.turn
    view = view_of(start, actions, seat)
    listed = list(worlds(view))
    assert len(listed) == count_worlds(view) == len({(w.hands, w.devil) for w in listed})
    for w in listed:
        check_world(view, w)
        assert w.legal_cards() == now.legal_cards()      # the player's own choices are the same in every world
    assert (now.hands, now.devil) in {(w.hands, w.devil) for w in listed}      # the real deal is one of them
    hidden = opponent_holding(rules, seat)
    assert {(w.hands[hidden], w.devil) for w in listed} == brute_force_worlds(start, actions, seat, now)
    assert sorted(map(repr, world_order(view))) == sorted(map(repr, listed))


def test_the_start_of_a_lopaka_round_has_286_worlds_and_glitzerhaus_fewer_than_50():
    from scoundrel_solver.bottleimp import Discard, Pass, Reveal, Rules, deal
    d = deal(7, Rules("lopaka")).start()
    view = view_of(d, [Pass(d.hands[0][0], d.hands[2][0])], seat=2)
    assert count_worlds(view) == 286 and view.hidden_known == (d.hands[2][0],)      # the card B passed
    g = deal(7, Rules("glitzerhaus")).start()
    line = [Discard(1, g.hands[0][0], g.hands[0][1], g.hands[2][0], g.hands[2][1])]
    s = g.apply(line[0])
    line.append(Discard(2, s.hands[1][0], s.hands[1][1], s.hands[3][0], s.hands[3][1]))
    line.append(Reveal(2, 1))
    view = view_of(g, line, seat=0)
    # B's open stack is stack 1, so A's stack-2 pass is in B's hidden hand: known there
    assert view.hidden_known == (s.hands[1][1],) and view.devil_known == tuple(sorted((g.hands[0][0], s.hands[1][0])))
    assert count_worlds(view) == 36 < 50


def test_a_view_needs_the_play_phase_and_a_player():
    from scoundrel_solver.bottleimp import Rules, deal
    d = deal(3, Rules("lopaka")).start()
    with pytest.raises(ViewError, match="setup"):
        view_of(d, [], seat=0)
    with pytest.raises(ViewError, match="not a player"):
        view_of(d, [], seat=1)


def test_figures_are_the_plain_means_shares_and_ranges():
    per_world = [[(3, 10), (5, 4)], [(3, -2), (5, 6)], [(3, 7), (5, 7)]]
    a = figures(True, per_world)
    assert [(f.card, f.mean, f.best_share, f.low, f.high) for f in a] == [
        (5, Fraction(17, 3), Fraction(2, 3), 4, 7), (3, Fraction(5), Fraction(2, 3), -2, 10)]   # A: higher mean first
    b = figures(False, per_world)       # B: lower mean first; best = lowest in each world (ties: both)
    assert [(f.card, f.mean, f.best_share) for f in b] == [(3, Fraction(5), Fraction(2, 3)),
                                                           (5, Fraction(17, 3), Fraction(2, 3))]
    tie = figures(True, [[(3, 3), (5, 0)], [(3, 0), (5, 1)], [(3, 0), (5, 2)]])   # equal means: the larger share
    assert [(f.card, f.mean, f.best_share) for f in tie] == [(5, 1, Fraction(2, 3)), (3, 1, Fraction(1, 3))]
    even = figures(True, [[(3, 2), (5, 0)], [(3, 0), (5, 2)]])                    # and then the lower card
    assert [f.card for f in even] == [3, 5]


@pytest.mark.parametrize("rules", TWO_PLAYER, ids=lambda r: f"{r.variant}-{r.cards}")
@settings(max_examples=4, **SETTINGS)
@given(seed=st.integers(0, 2 ** 32), rng_seed=st.integers(0, 2 ** 32))
def test_the_table_hint_is_the_mean_of_the_reference_values_over_the_worlds(rules, seed, rng_seed):
    got = game_at(rules, seed, rng_seed, 9 if rules.variant == "lopaka" else 10)
    if got is None:
        return
    start, actions, now = got
    view = view_of(start, actions, now.turn)
    hint = table_hint(view, seconds=0, workers=1)
    assert hint.complete and hint.worlds_total == count_worlds(view)
    per_world = [[(a.card, v) for a, v in action_values(w)] for w in worlds(view)]
    want = {f.card: f for f in figures(now.seats[now.turn] == "A", per_world)}
    assert {f.card: f for f in hint.cards} == want
    assert hint.recommended in now.legal_cards()


@pytest.mark.parametrize("rules", TWO_PLAYER, ids=lambda r: f"{r.variant}-{r.cards}")
@settings(max_examples=6, **SETTINGS)
@given(seed=st.integers(0, 2 ** 32), rng_seed=st.integers(0, 2 ** 32))
def test_advancing_a_view_is_seeing_the_move(rules, seed, rng_seed):
    from scoundrel_solver.bottleimp.worlds import advance
    start, actions, states = random_game(rules, seed, random.Random(rng_seed))
    first = next(i for i, s in enumerate(states) if not s.in_setup)
    for seat in ((0, 2) if rules.variant == "lopaka" else (0, 1)):
        view = view_of(start, actions[:first], seat)
        for i in range(first, len(actions)):
            view = advance(view, states[i], actions[i])
            assert view == view_of(start, actions[:i + 1], seat)


def test_what_the_card_achieves_is_a_play_out_over_the_worlds():
    from scoundrel_solver.bottleimp import Rules
    from scoundrel_solver.bottleimp.bots import factory
    from scoundrel_solver.bottleimp.tablehint import achieved, play_out_world
    got = game_at(Rules("lopaka"), 12, 3, 9)
    start, actions, now = got
    view = view_of(start, actions, now.turn)
    card = now.legal_cards()[0]
    a = achieved(view, card, factory("greedy"))
    listed = world_order(view)
    assert a is not None and len(a.margins) == len(listed) and a.card == card and a.opponent == "greedy"
    assert list(a.margins) == [play_out_world(view, w, card, factory("greedy")) for w in listed]   # deterministic
    assert a.mean == pytest.approx(sum(a.margins) / len(a.margins), abs=1e-4)
    hint = table_hint(view, seconds=0, workers=1, achieve_against=factory("random"))
    assert hint.achieved is not None and hint.achieved.card == hint.recommended
