"""The double-dummy core (engine.py over _core.pyx) against the pure-Python reference.

The reference (reference.py) is the executable specification of IMP-RULES §8; the core
must give the same value, the same value for every legal card and the same optimal line
(the lowest of equally good cards at each turn), on endgames of both variants and both
card tables, mid-trick positions included.  Then: each technique switched off, a tiny
table, stopped searches (their bounds hold the value and never claim more), and one
engine reused across deals, exchanges and the positions of one line.

The default run stays under a minute; ``pytest -m slow`` adds a larger random sample.
"""
import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.bottleimp import Discard, Pass, Play, Reveal, Rules, deal, format_line, line_of, parse_line, replay
from scoundrel_solver.bottleimp.engine import Budget, Engine, NotPlayPhase
from scoundrel_solver.bottleimp.position import position_dict, position_from_dict
from scoundrel_solver.bottleimp.reference import action_values, best_line, value

from imp_games import TWO_PLAYER, game_at, play_until, random_action, require_slow

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
TECHNIQUES = ("tt", "order", "equiv", "bounds", "ranks", "quick", "devil")
RULES_IDS = dict(ids=lambda r: f"{r.variant}-{r.cards}")

#: One engine for every example of the module: reuse across deals is part of what is tested
#: (a fresh engine each time is compared with it below).
SHARED = Engine()


def endgame(rules, seed, rng_seed, cards_left):
    """A play-phase position of deal ``seed`` after random setup and play, at most ``cards_left``
    cards in hand (so possibly inside a trick)."""
    return play_until(deal(seed, rules).start(), random.Random(rng_seed), cards_left)


def play_phase(rules, seed, rng_seed=None):
    """The play phase of deal ``seed`` from trick 1: random setup choices (lowest cards when
    ``rng_seed`` is None: Lopaka passes min/min; Glitzerhaus discards the lowest and passes the
    second lowest of each stack, both open stack 1)."""
    state = deal(seed, rules).start()
    if rng_seed is not None:
        rng = random.Random(rng_seed)
        while state.in_setup:
            state = state.apply(random_action(state, rng))
        return state
    if rules.variant == "lopaka":
        return state.apply(Pass(min(state.hands[0]), min(state.hands[2])))
    for stack in (1, 2):
        a, b = state.hands[stack - 1], state.hands[2 + stack - 1]
        state = state.apply(Discard(stack, a[0], a[1], b[0], b[1]))
    return state.apply(Reveal(1, 1))


def best_of(state, actions):
    pick = max if state.turn_name == "A" else min
    return pick(v for _, v in actions)


def where(state) -> str:
    """The position's JSON, for a failure message (a disagreement is a bug to report with it)."""
    return f"position: {position_dict(state)}"


def check_against_reference(engine, state, line=True):
    """Value, every card's value and the optimal line of ``engine`` equal the reference's."""
    memo = {}
    v = value(state, memo)
    b = engine.bounds(state)
    assert b.exact and b.lower == v, where(state)
    if state.finished:
        assert engine.card_values(state) == [] and engine.line(state) == []
        return v
    actions = action_values(state, memo)
    cards = engine.card_values(state)
    assert all(x.exact for _, x in cards), where(state)
    assert [(c, x.lower) for c, x in cards] == [(a.card, w) for a, w in actions], where(state)
    if line:
        ours = engine.line(state)
        assert ours == best_line(state, memo), where(state)
        # the line prints, parses and replays to the value
        text = format_line(line_of(state, ours))
        final = replay(state, parse_line(text, state.rules))[-1]
        assert final.finished and final.value() == v, where(state)
        # its first card is the lowest of the equally best
        best = best_of(state, actions)
        assert ours[0].card == min(a.card for a, w in actions if w == best), where(state)
    return v


# ------------------------------------------------------------------ core = reference
@pytest.mark.parametrize("rules", TWO_PLAYER, **RULES_IDS)
@settings(max_examples=40, **SETTINGS)
@given(seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32), left=st.sampled_from(range(1, 16)))
def test_the_core_equals_the_reference(rules, seed, rng_seed, left):
    check_against_reference(SHARED, endgame(rules, seed, rng_seed, left))


@pytest.mark.parametrize("rules", TWO_PLAYER, **RULES_IDS)
@settings(max_examples=12, **SETTINGS)
@given(seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(3, 14)), extra=st.integers(1, 3))
def test_mid_trick_positions(rules, seed, rng_seed, left, extra):
    """Positions inside a trick, every seat to move (Lopaka's forced card included)."""
    state = endgame(rules, seed, rng_seed, left)
    rng = random.Random(rng_seed + 1)
    for _ in range(extra):
        if state.trick or state.finished:
            break
        state = state.apply(Play(rng.choice(state.legal_cards())))
    check_against_reference(SHARED, state)


@pytest.mark.slow
@pytest.mark.parametrize("rules", TWO_PLAYER, **RULES_IDS)
@settings(max_examples=150, **SETTINGS)
@given(seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32), left=st.sampled_from(range(10, 17)))
def test_the_core_equals_the_reference_at_length(rules, seed, rng_seed, left, request):
    require_slow(request)
    check_against_reference(SHARED, endgame(rules, seed, rng_seed, left))


def test_a_whole_play_phase_and_the_play_phase_only():
    """Lopaka deal 42 after ``pass 1 18``: 34, as the plain alpha-beta below finds (-m slow)."""
    start = deal(42, Rules("lopaka")).start()
    assert Engine().value(start.apply(Pass(1, 18))) == 34
    with pytest.raises(NotPlayPhase):
        Engine().value(start)
    with pytest.raises(NotPlayPhase):
        Engine().value(play_until(deal(1, Rules("base")).start(), random.Random(1), 3))


def plain_alphabeta(state, alpha, beta, table):
    """Fail-soft alpha-beta straight over state.py, a table of bounds keyed on the whole State at
    trick boundaries, and nothing else: an independent check of whole play phases, far beyond
    the reference's reach (millions of nodes, a minute or two each)."""
    if state.finished:
        return state.value()
    boundary = not state.trick
    if boundary and state in table:
        lo, hi = table[state]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
    a0, b0 = alpha, beta
    maximiser = state.turn_name == "A"
    best = -1000 if maximiser else 1000
    for card in state.legal_cards():
        v = plain_alphabeta(state.apply(Play(card)), alpha, beta, table)
        if maximiser:
            best, alpha = max(best, v), max(alpha, v)
        else:
            best, beta = min(best, v), min(beta, v)
        if alpha >= beta:
            break
    if boundary:
        lo, hi = table.get(state, (-1000, 1000))
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        table[state] = (lo, hi)
    return best


def plain_value(state, guess=0):
    """MTD(f) over :func:`plain_alphabeta`."""
    table, lo, hi, g = {}, -1000, 1000, guess
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = plain_alphabeta(state, beta - 1, beta, table)
        lo, hi = (lo, g) if g < beta else (g, hi)
    return lo


@pytest.mark.slow
@pytest.mark.parametrize("rules, seed, setup", [
    (Rules("lopaka"), 42, Pass(1, 18)), (Rules("lopaka", cards="matagot"), 4, None),
    (Rules("glitzerhaus"), 3, None), (Rules("glitzerhaus", cards="matagot"), 8, None)],
    ids=["lopaka-42", "lopaka-matagot-4", "glitzerhaus-3", "glitzerhaus-matagot-8"])
def test_whole_play_phases_against_a_plain_alphabeta(rules, seed, setup, request):
    require_slow(request)
    state = deal(seed, rules).start().apply(setup) if setup else play_phase(rules, seed)
    v = Engine().value(state)
    assert plain_value(state, guess=v) == v, where(state)


# ------------------------------------------------------------------ the corpus
def corpus():
    import json
    from pathlib import Path
    path = Path(__file__).with_name("imp_reference_corpus.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


CORPUS = corpus()


@pytest.mark.parametrize("entry", CORPUS, ids=lambda e: str(e["seed"]))
def test_the_core_reproduces_the_corpus(entry):
    """Every endgame of tests/bottleimp/imp_reference_corpus.jsonl: value, every card's value and
    the exact text of the line, with a fresh engine and with the shared one."""
    state = position_from_dict(entry["position"])
    for engine in (Engine(log2_entries=16), SHARED):
        assert engine.value(state) == entry["value"]
        assert [[c, b.lower] for c, b in engine.card_values(state)] == entry["actions"]
        assert all(b.exact for _, b in engine.card_values(state))
        assert format_line(line_of(state, engine.line(state))) == entry["line"]


# ------------------------------------------------------------------ techniques off
CONFIGS = {f"no-{t}": [u for u in TECHNIQUES if u != t] for t in TECHNIQUES}
CONFIGS["none"] = []
CONFIGS["all"] = list(TECHNIQUES)


@pytest.mark.parametrize("name", sorted(CONFIGS))
@settings(max_examples=20, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(3, 13)))
def test_each_technique_off_gives_the_same_values(name, rules, seed, rng_seed, left):
    engine = Engine(log2_entries=16, techniques=CONFIGS[name])
    check_against_reference(engine, endgame(rules, seed, rng_seed, left), line=name in ("none", "no-tt"))


@pytest.mark.parametrize("name", ["no-equiv", "no-bounds", "no-order"])
@pytest.mark.parametrize("rules", TWO_PLAYER[::2], ids=lambda r: r.variant)
def test_each_technique_off_on_a_whole_play_phase(name, rules):
    """Whole play phases (too big for the reference): each technique off agrees with all on."""
    for seed in (3, 4):
        state = play_phase(rules, seed)
        assert Engine(techniques=CONFIGS[name]).value(state) == SHARED.value(state), where(state)


@settings(max_examples=30, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(6, 15)))
def test_a_tiny_table_replaces_entries_and_stays_exact(rules, seed, rng_seed, left):
    """A table of 16 entries (four buckets): the replacement policy works all the time."""
    engine = Engine(log2_entries=4)
    check_against_reference(engine, endgame(rules, seed, rng_seed, left), line=False)
    assert engine.stats()["tt_entries"] == 16


# ------------------------------------------------------------------ relative ranks
def tagged_sequence(state):
    """What the rest of the round can see of the cards in play (_bounds.pxd, "Relative ranks"):
    in the order of their numbers, each card's holding, suit, coins and side of the price."""
    table = state.rules.table
    cards = sorted((c, h) for h, hand in enumerate(state.hands) for c in hand)
    return tuple((h, table.suit(c), table.coins(c), c < state.price) for c, h in cards)


def relabellings(state):
    """Positions that differ from ``state`` (at a trick boundary) only in which cards of equal suit
    and coins are gone and which are in play, and in the price's number: each live card swapped
    with a gone card of its suit and coins (the gone card keeps its pile, so every score is the
    same), and the price moved to another card of the holder's pile, alone and after each swap.
    Each gone card goes to one holding only, so that all of them are one generation of one table."""
    table = state.rules.table
    gone_to = {}
    swaps = [state]
    for h, hand in enumerate(state.hands):
        for c in hand:
            for s, pile in enumerate(state.won):
                for d in pile:
                    if d == state.price or table.suit(d) != table.suit(c) or table.coins(d) != table.coins(c) \
                            or gone_to.setdefault(d, h) != h:
                        continue
                    hands = list(state.hands)
                    hands[h] = tuple(sorted(set(hand) - {c} | {d}))
                    won = list(state.won)
                    won[s] = tuple(sorted(set(pile) - {d} | {c}))
                    swaps.append(dataclasses.replace(state, hands=tuple(hands), won=tuple(won)))
    out = list(swaps)
    if state.holder is not None:
        for x in swaps:
            out += [dataclasses.replace(x, price=p) for p in x.won[x.holder] if p != x.price and p < 19]
    return out


@settings(max_examples=60, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(3, 10)))
def test_relative_ranks_merge_exactly_the_positions_nothing_tells_apart(rules, seed, rng_seed, left):
    """The table's key with relative ranks (``_bounds.canonical``): two positions of one generation
    share a key exactly when their tagged sequences are equal, and then the reference gives them
    the same value (the merge is sound), with the price's own number and the gone cards changed."""
    state = endgame(rules, seed, rng_seed, left)
    while state.trick:
        state = state.apply(Play(state.legal_cards()[0]))
    if state.finished:
        return
    variants = relabellings(state)
    engine = Engine(log2_entries=8)
    for x in variants:
        engine.load(x)                  # every card in its holding: one generation, its twins known
    keys = []
    for x in variants:
        engine.load(x)
        keys.append(engine.core.key())
    memo = {}
    for x, kx in zip(variants, keys):
        for y, ky in zip(variants, keys):
            assert (kx == ky) == (tagged_sequence(x) == tagged_sequence(y)), where(x) + " / " + where(y)
            if kx == ky:
                assert value(x, memo) == value(y, memo), where(x) + " / " + where(y)


def test_relative_ranks_merge_a_price_below_and_twins_below_it():
    """The merges of the proof's examples: prices 14 and 15 with 14 gone (and nothing in play
    between), and A's 3 or 5 (yellow, 2 coins) in play below the price with 4 gone."""
    base = {"type": "imp-position", "variant": "lopaka", "cards": "classic",
            "hands": {"A": [5, 24], "L": [12, 36], "B": [13, 33]}, "devil": [2, 17, 29], "price": 15,
            "holder": "B", "won": {"A": [1, 4, 6, 7, 8, 9, 10, 11, 3, 16, 18, 20, 21, 22, 23],
                                   "L": [25, 26, 27, 28, 30, 35], "B": [14, 15, 31, 32, 34, 37]},
            "leader": "A", "trick": []}
    other = {**base, "hands": {**base["hands"], "A": [3, 24]},
             "won": {**base["won"], "A": [1, 4, 6, 7, 8, 9, 10, 11, 5, 16, 18, 20, 21, 22, 23]}}
    cheaper = {**base, "price": 14}
    states = [position_from_dict(d) for d in (base, other, cheaper)]
    ranks, plain = Engine(log2_entries=8), Engine(log2_entries=8, techniques=["tt"])
    for engine in (ranks, plain):
        for s in states:
            engine.load(s)
    keys = {}
    for name, engine in (("ranks", ranks), ("plain", plain)):
        keys[name] = []
        for s in states:
            engine.load(s)
            keys[name].append(engine.core.key())
    assert len(set(keys["ranks"])) == 1 and len(set(keys["plain"])) == 3
    assert len({value(s) for s in states}) == 1


# ------------------------------------------------------------------ stopped searches
TRUE_VALUES = {}


def true_value(state):
    if state not in TRUE_VALUES:
        TRUE_VALUES[state] = Engine(log2_entries=18).value(state)
    return TRUE_VALUES[state]


@settings(max_examples=30, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(1, 400),
       max_nodes=st.one_of(st.integers(1, 3000), st.integers(3000, 400_000)))
def test_a_stopped_search_never_claims_more_than_it_proved(rules, seed, max_nodes):
    state = play_phase(rules, seed)
    v = true_value(state)
    engine = Engine(log2_entries=18)
    b = engine.bounds(state, Budget(max_nodes=max_nodes))
    assert b.lower <= v <= b.upper, where(state)
    assert b.exact == (b.lower == b.upper) and (b.value == v if b.exact else b.value is None)
    # what it stored before it stopped does not spoil the next, unbounded search
    assert engine.value(state) == v, where(state)


@pytest.mark.parametrize("rules", TWO_PLAYER[::2], ids=lambda r: r.variant)
def test_a_timeout_stops_the_search_with_true_bounds(rules):
    stopped = 0
    for seed in range(1, 9):
        state = play_phase(rules, seed)
        v = true_value(state)
        engine = Engine(log2_entries=18)
        b = engine.bounds(state, Budget(timeout=0.0005))
        assert b.lower <= v <= b.upper, where(state)
        stopped += not b.exact
        assert engine.value(state) == v
    assert stopped, "no search was stopped: the test tests nothing"


@settings(max_examples=20, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(8, 15)), max_nodes=st.integers(1, 20_000))
def test_budgeted_card_values_lines_and_tests_are_honest(rules, seed, rng_seed, left, max_nodes):
    state = endgame(rules, seed, rng_seed, left)
    if state.finished:
        return
    memo = {}
    truth = dict((a.card, w) for a, w in action_values(state, memo))
    engine = Engine(log2_entries=14)
    budget = Budget(max_nodes=max_nodes)
    for card, b in engine.card_values(state, budget):
        assert b.lower <= truth[card] <= b.upper, where(state)
    v = value(state, memo)
    line = Engine(log2_entries=14).line(state, budget=Budget(max_nodes=max_nodes))
    assert line is None or line == best_line(state, memo), where(state)
    for target in (v - 1, v, v + 1):
        answer = Engine(log2_entries=14).at_least(state, target, Budget(max_nodes=max_nodes))
        assert answer is None or answer == (v >= target), where(state)


def test_progress_reports_narrowing_bounds_to_the_same_value():
    state = play_phase(Rules("lopaka"), 7)
    seen = []
    b = Engine().bounds(state, progress=lambda lo, hi, nodes: seen.append((lo, hi, nodes)))
    assert b.exact and b.lower == true_value(state)
    assert seen and seen[-1][:2] == (b.lower, b.upper)
    assert all(lo <= b.lower <= hi for lo, hi, _ in seen)
    assert all(x[0] <= y[0] and x[1] >= y[1] for x, y in zip(seen, seen[1:]))


# ------------------------------------------------------------------ one engine, many positions
def test_one_engine_across_deals_and_exchanges_equals_a_fresh_one():
    """Deals of both variants and tables, several exchanges of one deal (cards change holdings)
    and random setups, interleaved, through one engine: every value as a fresh engine's."""
    rng = random.Random(45)
    shared = Engine()
    states = []
    for rules in TWO_PLAYER:
        for seed in (11, 12):
            states.append(play_phase(rules, seed))
            states.append(play_phase(rules, seed, rng.randrange(2 ** 32)))
    lopaka = deal(13, Rules("lopaka")).start()
    for a, b in [(0, 0), (0, 1), (1, 0), (5, 5), (10, 10), (0, 0)]:
        states.append(lopaka.apply(Pass(lopaka.hands[0][a], lopaka.hands[2][b])))
    for _ in range(4):             # the same stacks opened differently: cards change holdings
        states.append(play_phase(Rules("glitzerhaus"), 13, rng.randrange(2 ** 32)))
    states += [s.apply(Play(s.legal_cards()[-1])) for s in states[:6]]
    rng.shuffle(states)
    states += states[:5]           # and back again
    for state in states:
        assert shared.value(state) == Engine().value(state), where(state)


@settings(max_examples=60, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 40), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(2, 14)))
def test_the_shared_engine_on_small_positions_of_few_deals(rules, seed, rng_seed, left):
    """Few deals, so that the shared table keeps meeting the same cards in other holdings."""
    state = endgame(rules, seed, rng_seed, left)
    assert SHARED.value(state) == value(state), where(state)


@settings(max_examples=80, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(1, 4), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(4, 15)))
def test_many_histories_of_few_deals_in_one_table(rules, seed, rng_seed, left):
    """The same setup of four deals, then random play: the cards keep their holdings, so the
    shared table keeps what it learnt across examples, and meets the same cards in play after
    other tricks (other coins won, another price or holder)."""
    state = play_until(play_phase(rules, seed), random.Random(rng_seed), left)
    assert SHARED.value(state) == value(state), where(state)


# ------------------------------------------------------------------ the worlds of a real-table view
def _view_worlds(rules, seed, rng_seed, left):
    from scoundrel_solver.bottleimp.worlds import view_of, world_order
    got = game_at(rules, seed, rng_seed, left)
    if got is None:
        return []
    start, actions, now = got
    return world_order(view_of(start, actions, now.turn))


@settings(max_examples=25, **SETTINGS)
@given(rules=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32),
       left=st.sampled_from(range(6, 13)))
def test_one_table_across_the_worlds_of_a_view_equals_the_reference(rules, seed, rng_seed, left):
    """The worlds of what a player knows (other hidden hands, other devil's tricks) through one
    table, which answers for other devil's coins widened (``devil``): every card's value in every
    world is the reference's, with the technique on and off.  A small table, so that entries of
    other worlds meet in a bucket."""
    on, off = Engine(log2_entries=10), Engine(log2_entries=10, techniques=[t for t in TECHNIQUES if t != "devil"])
    for world in _view_worlds(rules, seed, rng_seed, left)[:12]:
        want = [(a.card, v) for a, v in action_values(world)]
        for engine in (on, off):
            got = [(c, b.lower) for c, b in engine.card_values(world)]
            assert got == want, where(world)


@pytest.mark.parametrize("rules", TWO_PLAYER[::2], ids=lambda r: r.variant)
def test_one_table_across_the_worlds_of_a_trick_two_view_equals_fresh_tables(rules):
    """Larger views (trick 2, too big for the reference): card values in each world through one
    table sharing the worlds (``devil``) equal those of a fresh table per world without it."""
    for rng_seed in (1, 2):
        size = 30 if rules.variant == "lopaka" else 28
        shared = Engine(log2_entries=14)
        for world in _view_worlds(rules, 5, rng_seed, size)[:10]:
            fresh = Engine(log2_entries=14, techniques=[t for t in TECHNIQUES if t != "devil"])
            got = [(c, b.lower) for c, b in shared.card_values(world)]
            assert got == [(c, b.lower) for c, b in fresh.card_values(world)], where(world)
        assert shared.stats()["tt_other_devil"] > 0       # the worlds did share entries


@pytest.mark.parametrize("rules", [Rules("lopaka"), Rules("glitzerhaus", cards="matagot")], **RULES_IDS)
def test_positions_along_one_line_reuse_the_table_and_agree(rules):
    """The optimal line of a whole play phase: every position on it keeps the value; at each
    turn every card's value is a fresh engine's; from 14 cards on, the reference's."""
    engine = Engine()
    start = play_phase(rules, 21)
    v = engine.value(start)
    line = engine.line(start, v)
    state = start
    for step, action in enumerate(line):
        assert engine.value(state) == v, where(state)
        if step % 4 == 0 and len(state.legal_cards()) > 1:
            fresh = Engine(log2_entries=18)
            ours = [(c, b.lower) for c, b in engine.card_values(state)]
            assert ours == [(c, b.lower) for c, b in fresh.card_values(state)], where(state)
            assert max(x for _, x in ours) >= v >= min(x for _, x in ours)
        if sum(map(len, state.hands)) <= 14:
            check_against_reference(engine, state, line=False)
        state = state.apply(action)
    assert state.finished and state.value() == v
