"""benchmarks/belief_bounds.py: the bound profile along the belief player's games
and the depth-0/depth-1 bounds at one of its positions."""
import sys
from fractions import Fraction
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import belief_bounds as bb  # noqa: E402
import bench_belief_player as bbp  # noqa: E402
from scoundrel_solver import Rules  # noqa: E402
from scoundrel_solver.scoundrel.beliefsearch import CoreBeliefSearch  # noqa: E402
from scoundrel_solver.scoundrel.table import TablePosition, known_bottom_after  # noqa: E402
from scoundrel_solver.scoundrel.notation import parse_action  # noqa: E402

TINY = {"samples": 2, "exact_unseen": 4, "max_beliefs": 2_000, "leaf_samples": 2}


def _rec(decisions, first_exact, won):
    return {"belief": {"decisions": decisions, "first_exact": first_exact, "won": won}}


def test_profile_on_hand_made_games():
    games = [
        # depth-0 at 20 and 12 unseen, then exact at 6 (win chance 0.5)
        _rec([{"unseen": 20, "kind": "depth0", "win": 0.9}, {"unseen": 12, "kind": "depth0", "win": 0.7},
              {"unseen": 6, "kind": "exact", "win": 0.5}], {"win": 0.5}, True),
        # over (lost) at 16 unseen, before any exact decision
        _rec([{"unseen": 20, "kind": "depth0", "win": 0.8}], None, False),
        # only clairvoyant decisions above 30, then exact
        _rec([{"unseen": 33, "kind": "clairvoyant"}, {"unseen": 7, "kind": "exact", "win": 1.0}],
             {"win": 1.0}, True),
    ]
    rows = {r["unseen"]: r for r in bb.profile(games, thresholds=(30, 20, 12, 8))}
    realised = (0.5 + 0.0 + 1.0) / 3
    for row in rows.values():
        assert row["realised"] == pytest.approx(realised) and row["games"] == 3
    # <= 30 and <= 20: the first depth-0 decisions (0.9, 0.8); the third game its exact value
    assert rows[30]["bound"] == pytest.approx((0.9 + 0.8 + 1.0) / 3) and rows[30]["with_decision"] == 2
    assert rows[20]["bound"] == pytest.approx(rows[30]["bound"])
    # <= 12: game 1's later bound 0.7, game 2 is over (its result, 0)
    assert rows[12]["bound"] == pytest.approx((0.7 + 0.0 + 1.0) / 3) and rows[12]["with_decision"] == 1
    assert rows[12]["bound_alive"] == pytest.approx(0.7) and rows[12]["realised_alive"] == pytest.approx(0.5)
    # <= 8: no depth-0 decision left: every game its achieved value, gap 0
    assert rows[8]["bound"] == pytest.approx(realised) and rows[8]["gap"] == pytest.approx(0)
    assert rows[8]["bound_alive"] is None
    assert rows[12]["gap"] == pytest.approx(rows[12]["bound"] - realised)


@pytest.fixture(scope="module")
def record():
    rec = bbp.run_one((2, TINY, {"mode": "solo"}, None))
    assert rec["belief"]["decisions"], "the game should have decisions"
    return rec


def test_position_of_is_the_first_decision_with_so_few_unseen(record):
    at = bb.position_of(record, 12)
    assert at is not None
    state, known, moves = at
    assert len(TablePosition.from_state(state, known).unseen) <= 12 and len(state.legal_actions()) > 1
    # the recorded line's move there is one of that position's legal actions
    token = record["belief"]["line"].split()[moves]
    assert any(str(a) == token for a in state.legal_actions())
    # no earlier decision of the line has so few unseen cards
    st, kn = bbp.replay(record, [])
    for tok in record["belief"]["line"].split()[:moves]:
        if len(st.legal_actions()) > 1:
            assert len(TablePosition.from_state(st, kn).unseen) > 12
        action = parse_action(tok)
        kn = known_bottom_after(st, action, kn)
        st = st.play(action)
    assert st == state and kn == known
    # a threshold never reached: None
    assert bb.position_of(record, -1) is None


def test_depth1_record_brackets_the_exact_belief_value(record):
    """With every leaf order enumerated (few unseen cards), the bounds are exact
    information relaxations: exact belief value <= depth-1 <= depth-0; and the
    depth-0 value with the player's own leaf orders equals what it recorded."""
    out = bb.run_depth1((record, 6, 720, 300.0))
    if out["position"] is None:
        pytest.skip("this deal's game ends before 6 unseen cards")   # pragma: no cover - seed chosen so it does not
    state, known, _ = bb.position_of(record, 6)
    pos = TablePosition.from_state(state, known)
    exact_w, exact_m = CoreBeliefSearch(Rules(mode="solo")).value(pos)
    d0, d1 = out["depth0"], out["depth1"]
    assert float(exact_w) <= d1["win"] + 1e-9 <= d0["win"] + 2e-9
    # lexicographic: where the win chances tie, the mean cannot rise
    if abs(d1["win"] - float(exact_w)) < 1e-12:
        assert float(exact_m) <= d1["mean"] + 1e-9
    assert out["realised"] == bb.realised(record)
    assert isinstance(exact_w, Fraction)
    # the player's own depth-0 figure (2 leaf orders, its seed) is reproduced
    rec2 = bb.run_depth1((record, 12, TINY["leaf_samples"], 300.0))
    assert rec2["recorded_depth0"] is not None
    assert rec2["depth0"]["win"] == pytest.approx(rec2["recorded_depth0"])
