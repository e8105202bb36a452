"""Puzzles and the daily puzzle: exactly one card keeps the double-dummy value, the solution
line replays to it, and nothing but the date and the method makes a daily (not search effort)."""
import datetime
import json
from pathlib import Path

import pytest

from scoundrel_solver.bottleimp import Play, Rules, parse_line, replay
from scoundrel_solver.bottleimp.engine import Engine
from scoundrel_solver.bottleimp.puzzle import PuzzleError, daily_dict, daily_puzzle, find_puzzles, use_engine
from scoundrel_solver.bottleimp.reference import action_values

GOLDEN = Path(__file__).with_name("imp_daily_golden.json")
DATES = [datetime.date(2026, 12, 7) + datetime.timedelta(days=i) for i in range(7)]     # Monday to Sunday


@pytest.fixture(autouse=True)
def default_engine():
    use_engine(None)
    yield
    use_engine(None)


def check(p):
    state = p.position
    values = dict((a.card, v) for a, v in action_values(state)) if p.tricks_left <= 3 else dict(p.card_values)
    best = max(values.values()) if p.to_play == "A" else min(values.values())
    assert [c for c, v in values.items() if v == best] == [p.solution] and best == p.value
    assert len(values) >= 2 and p.rating()["losers"] == len(values) - 1
    # the position is where the printed line leads, and the solution line replays to the value
    d = p.as_dict(reveal=True)
    assert replay(p.start, parse_line(d["line"], p.rules))[-1] == state
    end = replay(state, parse_line(d["solution_line"], p.rules))[-1]
    assert end.finished and end.value() == p.value and d["solution_line"].split()[0] == str(p.solution)


@pytest.mark.parametrize("rules", [Rules("lopaka"), Rules("glitzerhaus", cards="matagot")], ids=lambda r: r.variant)
@pytest.mark.parametrize("left", [3, 5])
def test_a_puzzle_has_exactly_one_card_that_keeps_the_value(rules, left):
    for p in find_puzzles(rules, left, seed=11, count=3):
        assert p.tricks_left == left and p.to_play in ("A", "B")
        check(p)


def test_the_daily_is_a_puzzle_by_weekday_and_never_changes():
    want = json.loads(GOLDEN.read_text())
    got = {}
    for variant in ("lopaka", "glitzerhaus"):
        for date in DATES:
            p = daily_puzzle(date, Rules(variant))
            check(p)
            assert p.tricks_left == (3, 3, 4, 4, 5, 5, 6)[date.weekday()]
            d = daily_dict(p, date, reveal=True)
            assert d["type"] == "imp-daily" and d["id"] == f"imp-daily-v1-{date}-{variant}-classic"
            got[d["id"]] = {k: d[k] for k in ("seed", "line", "solution", "value", "solution_line")}
    assert got == want, "a daily puzzle changed: they are fixed forever (a new method needs a new version)"


def test_dailies_do_not_depend_on_search_effort():
    """The same dailies from a core with its table, ordering, equivalences and bounds switched
    off and a tiny table: only exact values decide."""
    plain = [daily_dict(daily_puzzle(d, Rules(v)), d, reveal=True) for v in ("lopaka", "glitzerhaus") for d in DATES[:4]]
    use_engine(Engine(log2_entries=8, techniques=["order"]))
    perturbed = [daily_dict(daily_puzzle(d, Rules(v)), d, reveal=True) for v in ("lopaka", "glitzerhaus")
                 for d in DATES[:4]]
    assert plain == perturbed


def test_bad_requests():
    with pytest.raises(PuzzleError, match="tricks left"):
        find_puzzles(Rules("lopaka"), 12)
    with pytest.raises(PuzzleError, match="two-player"):
        find_puzzles(Rules("base"), 3)
    with pytest.raises(PuzzleError, match="bad date"):
        daily_puzzle("2026-13-01", Rules("lopaka"))
    with pytest.raises(PuzzleError, match="unknown daily method"):
        daily_puzzle("2026-12-01", Rules("lopaka"), method="v9")
