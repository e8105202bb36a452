"""The optimal line of fewest rooms (solver/scoundrel/_shortest.pyx, solve(shortest=True)).

Checked against a plain breadth-first search over the rules engine
(``lines.fewest_rooms_reference``) on random small positions in every rule set,
and on numbered deals for what the reference cannot reach: the line replays
to the proven score, no shorter optimal line exists by the lower bound or by
re-solving from inside the line, and the line does not depend on the table.

The line a daily reveals (``lines.fewest_rooms_line``: the fewest rooms, then the
first in the order of the legal actions) is checked against a depth-first search
over every line of at most the fewest rooms, in the order of the legal actions.
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoundrel_solver import Rules, State, deal, replay, solve
from scoundrel_solver.scoundrel.engine import perturbed_core
from scoundrel_solver.scoundrel.lines import (fewest_rooms_line, fewest_rooms_reference, rooms_of, rooms_to_clear,
                                              shortest_line)
from scoundrel_solver.scoundrel.search import load_core

from test_core import ALL_RULES, SETTINGS, positions, rules_id

# the reference is a breadth-first search over every room: keep the dungeons small
SMALL = {"classic": 9, "easy": 8, "hard": 10, "coop": 7}


def _small(rules):
    return SMALL["coop" if rules.coop else rules.flee]


def _rooms_line_ok(state, result):
    end = replay(state, result.line)[-1]
    assert end.finished and end.score == result.score


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
@settings(max_examples=30, **SETTINGS)
@given(data=st.data())
def test_fewest_rooms_equal_the_reference(rules, data):
    start, actions = data.draw(positions(rules, _small(rules)))
    state = start
    for action in actions:
        state = state.play(action)
    if state.finished:
        return
    got = solve(state=state, shortest=True)
    assert got.exact and got.shortest is True
    _rooms_line_ok(state, got)
    want = fewest_rooms_reference(state, got.score)
    assert len(got.line) == len(want), (state.as_dict(), got.line_text)
    # and the reference engine's shortest line has that length too
    ref = solve(state=state, engine="reference", shortest=True)
    assert ref.score == got.score and len(ref.line) == len(got.line)


@pytest.mark.parametrize("flee", ["classic", "easy", "hard"])
@pytest.mark.parametrize("seed", [1, 2, 5, 42])
def test_numbered_deals_get_a_proven_shortest_line(flee, seed):
    rules = Rules(flee=flee)
    plain = solve(seed=seed, rules=rules)
    got = solve(seed=seed, rules=rules, shortest=True)
    assert got.score == plain.score and got.exact and got.shortest is True
    _rooms_line_ok(got.start, got)
    assert len(got.line) <= len(plain.line)
    if got.won:
        assert len(got.line) >= rooms_to_clear(got.start)
    # the fewest from inside the line is what is left of it: no shortcut was missed
    state = got.start
    for i, room in enumerate(got.line[:3]):
        for action in room:
            state = state.play(action)
        if state.finished:
            break
        rest = solve(state=state, shortest=True)
        assert rest.score == got.score and len(rest.line) == len(got.line) - i - 1


def test_easy_flee_lines_lose_their_needless_avoids():
    rules = Rules(flee="easy")
    plain = solve(seed=1, rules=rules)
    got = solve(seed=1, rules=rules, shortest=True)
    assert len(plain.line) > 90 and len(got.line) == 21      # the proof's line avoids 90 times
    assert got.line_nodes > 0 and got.nodes == plain.nodes   # the proof itself is unchanged


def test_the_line_does_not_depend_on_the_table():
    rules = Rules(flee="easy")
    start = State.new(deal(3, rules), rules)
    core = load_core()
    big = core.search(start, tt_mb=256, shortest=True)
    tiny = core.search(start, tt_mb=1, shortest=True)
    reused = core.new_searcher(rules, 64)
    core.search(State.new(deal(4, rules), rules), searcher=reused)   # another deal first
    again = core.search(start, searcher=reused, shortest=True)
    assert big["shortest"] and tiny["shortest"] and again["shortest"]
    assert big["line"] == tiny["line"] == again["line"]


def test_a_stopped_rooms_search_says_so_and_keeps_the_proof_line():
    rules = Rules(flee="easy")
    start = State.new(deal(1, rules), rules)
    core = load_core()
    out = core.search(start, shortest=True, line_max_nodes=50)
    plain = core.search(start)
    assert out["shortest"] is False and out["exact"] and out["line"] == plain["line"]
    choice = shortest_line(start, plain["line"], plain["score"], max_nodes=50)
    assert not choice.proven and choice.rooms <= len(plain["line"])
    assert replay(start, choice.line)[-1].score == plain["score"]


def test_the_rooms_search_leaves_a_reused_table_good_for_scores():
    # its entries have keys of their own: the score searches after it agree
    rules = Rules()
    core = load_core()
    s = core.new_searcher(rules, 64)
    for seed in (5, 6, 7):
        st_ = State.new(deal(seed, rules), rules)
        core.search(st_, searcher=s, shortest=True)
        assert core.search(st_, searcher=s, want_line=False)["score"] == solve(state=st_).score


def test_coop_gets_the_fewest_rooms_too():
    rules = Rules(mode="coop")
    got = solve(seed=2, rules=rules, shortest=True)
    plain = solve(seed=2, rules=rules)
    assert got.shortest is True and got.score == plain.score
    _rooms_line_ok(got.start, got)
    assert len(got.line) == 25 < len(plain.line) == 26


# ------------------------------------------ the fixed rule: fewest rooms, then the legal order

def first_fewest_by_brute_force(start, score, rooms):
    """The first line, depth first in the order of the legal actions, that reaches ``score``
    in at most ``rooms`` rooms (the room in play counted): with ``rooms`` the fewest, the
    rule's line by its definition, as a flat list of actions."""
    def rooms_after(state, child, used):
        return used + (1 if child.finished or child.rooms_done != state.rooms_done else 0)

    def dfs(state, used):
        for action in state.legal_actions():
            child = state.play(action)
            u = rooms_after(state, child, used)
            if child.finished:
                if u <= rooms and child.score >= score:
                    return [action]
                continue
            # the room in play still counts; a win takes every card
            if u + (rooms_to_clear(child) if score > 0 else 1) > rooms:
                continue
            rest = dfs(child, u)
            if rest is not None:
                return [action] + rest
        return None
    return [] if start.finished else dfs(start, 0)


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
@settings(max_examples=25, **SETTINGS)
@given(data=st.data())
def test_the_revealed_line_is_the_first_of_fewest_rooms_by_brute_force(rules, data):
    # (every line of at most the fewest rooms, depth first, stopping at the first: quick at these sizes)
    start, actions = data.draw(positions(rules, _small(rules)))
    state = start
    for action in actions:
        state = state.play(action)
    if state.finished:
        return
    score = solve(state=state).score
    got = fewest_rooms_line(state, score)
    end = replay(state, got)[-1]
    assert end.finished and end.score == score
    fewest = len(fewest_rooms_reference(state, score))
    assert len(got) == fewest
    want = first_fewest_by_brute_force(state, score, fewest)
    assert [a for room in got for a in room] == want, state.as_dict()
    # the walk over the reference's fewest rooms gives it too
    assert fewest_rooms_line(state, score, engine="reference") == got


@pytest.mark.parametrize("flee", ["classic", "easy", "hard"])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_revealed_line_of_a_numbered_deal_has_the_fewest_rooms(flee, seed):
    rules = Rules(flee=flee)
    shortest = solve(seed=seed, rules=rules, shortest=True)
    got = fewest_rooms_line(shortest.start, shortest.score)
    assert replay(shortest.start, got)[-1].score == shortest.score
    assert len(got) == len(shortest.line) and rooms_of(shortest.start, [a for r in got for a in r]) == got


COOP_DECK = "2H 3D 8S 8D 5S TS TD QS 4H 6H 7D AD 4S AH"   # first 14 cards of co-op deal 6


@pytest.mark.parametrize("knobs", [{"order_salt": 0x5EED}, {"tt_mb": 1}, {"step": 1}, {"threads": 2}],
                         ids=["order", "tiny-table", "step", "threads"])
def test_the_revealed_line_does_not_depend_on_the_search(knobs):
    from scoundrel_solver import parse_cards
    cases = [(Rules(flee="easy"), deal(1, Rules(flee="easy"))), (Rules(), deal(3, Rules())),
             (Rules(mode="coop"), parse_cards(COOP_DECK))]
    threads = knobs.get("threads", 1)
    perturb = {k: v for k, v in knobs.items() if k != "threads"}
    if threads > 1:
        perturb["smp_from"] = 0     # the proof on the threads from its first test, solo too
    for rules, deck in cases:
        start = State.new(tuple(deck), rules)
        score = solve(state=start).score
        plain = fewest_rooms_line(start, score)
        with _perturbed(**perturb):
            assert fewest_rooms_line(start, score, threads=threads) == plain, rules


def _perturbed(smp_from=None, **knobs):
    """``perturbed_core``, and the core's ``smp_from`` knob (threads from the first test)."""
    import contextlib
    core = load_core()

    @contextlib.contextmanager
    def both():
        with perturbed_core(**knobs):
            if smp_from is not None:
                core.PERTURBATION["smp_from"] = smp_from
            yield
    return both()
