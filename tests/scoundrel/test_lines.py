"""solver/scoundrel/lines.py: a line of fewer rooms, never a lower score."""
import pytest

from scoundrel_solver import AVOID, Rules, State, deal, parse_cards, replay, solve
from scoundrel_solver.scoundrel.lines import cut_cycles, rooms_of, rooms_to_clear, shortest_line


def _end(start, line):
    return replay(start, line)[-1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_easy_flee_lines_get_shorter_and_keep_their_score(seed):
    r = solve(seed=seed, rules=Rules(flee="easy"))
    choice = shortest_line(r.start, r.line, r.score)
    end = _end(r.start, choice.line)
    assert end.finished and end.score == r.score
    assert choice.given_rooms == len(r.line) and choice.rooms == len(choice.line) <= len(r.line)
    assert choice.rooms >= rooms_to_clear(r.start) == 15        # 44 cards: 15 rooms that take cards
    assert choice.proven and choice.rooms == len(solve(seed=seed, rules=Rules(flee="easy"), shortest=True).line)
    if seed == 1:   # the core's line avoids 90 times
        assert choice.rooms < len(r.line) - 10


def test_a_loop_of_avoids_is_cut():
    rules = Rules(flee="easy")
    start = State.new(tuple(parse_cards("5D 3S 4H 9C 2D 7S 8H 6C")), rules)
    after = start.play(AVOID)
    rest = solve(state=after).line
    looped = [[AVOID], [AVOID], [AVOID]] + rest     # avoid twice more: back where the first avoid led
    assert _end(start, looped).score == _end(after, rest).score
    assert cut_cycles(start, looped) == [[AVOID]] + rest
    choice = shortest_line(start, looped)
    assert choice.proven and _end(start, choice.line).score == _end(after, rest).score
    assert choice.rooms <= 1 + len(rest)
    # a limit that stops the search keeps the given line, loops cut
    stopped = shortest_line(start, looped, max_nodes=1)
    if not stopped.proven:
        assert stopped.line == cut_cycles(start, looped)


def test_rooms_of_cuts_a_flat_line_into_rooms():
    rules = Rules()
    start = State.new(deal(42, rules), rules)
    flat = [a for room in solve(state=start).line for a in room]
    assert rooms_of(start, flat) == solve(state=start).line


def test_a_line_that_does_not_reach_the_score_is_refused():
    r = solve(seed=42)
    with pytest.raises(ValueError, match="scores"):
        shortest_line(r.start, r.line, r.score + 1)
    with pytest.raises(ValueError, match="complete"):
        shortest_line(r.start, r.line[:-1])


def test_the_main_job_prints_the_shorter_line():
    from clitools import invoke
    core = solve(seed=1, rules=Rules(flee="easy"))
    out = invoke(["--seed", "1", "--flee", "easy"]).stdout
    line = next(l for l in out.splitlines() if l.startswith("Line: "))
    rooms = line.count("|") + 1
    assert rooms < len(core.line)
    assert f"({rooms} rooms: no optimal line has fewer)" in out
