"""The optimal line of fewest rooms (solver/scoundrel/_shortest.pyx, solve(shortest=True)).

Checked against a plain breadth-first search over the rules engine
(``lines.fewest_rooms_reference``) on random small positions in every rule set,
and on numbered deals for what the reference cannot reach: the line replays
to the proven score, no shorter optimal line exists by the lower bound or by
re-solving from inside the line, and the line does not depend on the table.
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoundrel_solver import Rules, State, deal, replay, solve
from scoundrel_solver.scoundrel.lines import fewest_rooms_reference, rooms_to_clear, shortest_line
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
