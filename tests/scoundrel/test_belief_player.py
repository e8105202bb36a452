"""Issue 25's real-table players (benchmarks/bench_belief_player.py): the belief
player's games are legal and replay through the rules engine to the recorded
score, the harness's records and the paired interval are right.  Tiny counts
(2 orders per hint, exact search at <= 4 unseen) keep it quick."""
import json
import math
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import bench_belief_player as bbp  # noqa: E402
from scoundrel_solver import Rules, State, deal  # noqa: E402
from scoundrel_solver.scoundrel.notation import parse_action  # noqa: E402
from scoundrel_solver.intervals import sign_test  # noqa: E402

TINY = {"samples": 2, "exact_unseen": 4, "max_beliefs": 2_000, "leaf_samples": 2}


def test_paired_difference_and_its_interval_on_hand_made_data():
    m, (lo, hi) = bbp.paired([1, 0, 0, 1])
    half = 1.96 * math.sqrt(1 / 3) / 2          # stdev of 1,0,0,1 is sqrt(1/3)
    assert m == 0.5 and lo == pytest.approx(0.5 - half) and hi == pytest.approx(0.5 + half)
    assert bbp.paired([2, 2, 2]) == (2, (2, 2))  # no spread, no width
    assert bbp.paired([-3]) == (-3, (-3, -3))    # one pair: no interval
    m, (lo, hi) = bbp.paired([1, -1] * 50)
    assert m == 0 and lo == pytest.approx(-hi) and hi == pytest.approx(1.96 * math.sqrt(100 / 99) / 10)


def _rec(seed, belief, clairvoyant, bw, cw, bfirst=None):
    return {"seed": seed, "belief": {"line": belief, "won": bw, "first_exact": bfirst},
            "clairvoyant": {"line": clairvoyant, "won": cw}}


def test_parting_move_names_the_first_different_move_and_the_table_counts_by_it():
    recs = [_rec(1, "8D avoid 9H", "8D KCw 2Sb", True, False),            # belief avoids, wins alone
            _rec(2, "avoid 9D> 7Sb", "avoid 9D> 7Sw", False, False),     # same card (co-op), other way
            _rec(3, "8D KCw 2Sb", "8D avoid 9H", False, True),           # clairvoyant avoids, wins alone
            _rec(4, "8D KCw 2Sb", "8D avoid 9H", True, True),
            _rec(5, "8D 2Sb", "8D 2Sw>", True, True),                    # help card given or not
            _rec(6, "8D 2Sb 3H", "8D 3H 2Sb", False, True, {"win": 0.25}),
            _rec(7, "8D 2Sb", "8D 2Sb", True, True)]                     # same line
    assert [bbp.parting_move(r) for r in recs] == [
        "belief avoids", "same card, other way", "clairvoyant avoids", "clairvoyant avoids",
        "same card, other way", "another card", None]
    rows = {row["kind"]: row for row in bbp.parting_table(recs)}
    assert rows["belief avoids"]["deals"] == 1 and rows["belief avoids"]["belief_only"] == 1
    assert rows["clairvoyant avoids"]["deals"] == 2 and rows["clairvoyant avoids"]["clairvoyant_only"] == 1
    assert rows["clairvoyant avoids"]["wins"][0] == -0.5
    assert rows["same card, other way"]["deals"] == 2 and rows["same card, other way"]["wins"][0] == 0
    assert "expected" not in rows["another card"]
    # with the clairvoyant endgame values, expected wins replace the result where known
    endgame = {6: {"clairvoyant_first_exact": {"win": 0.75}}, 1: {"clairvoyant_first_exact": None}}
    rows = {row["kind"]: row for row in bbp.parting_table(recs, endgame)}
    assert rows["another card"]["expected"][0] == pytest.approx(0.25 - 0.75)
    assert rows["belief avoids"]["expected"][0] == 1 and rows["belief avoids"]["expected_deals"] == 1
    assert "expected" not in rows["clairvoyant avoids"]


def _depth0_room_start(seed):
    """A room start on deal ``seed``'s optimal line where the room may be
    avoided and the belief player decides by the depth-0 search."""
    rules = Rules(mode="solo")
    state, known = State.new(deal(seed, rules), rules), 0
    for action in bbp.flat(bbp.solve(state=state).line):
        n = len(bbp.TablePosition.from_state(state, known).unseen)
        if (bbp.AVOID in state.legal_actions() and TINY["exact_unseen"] < n <= bbp.MAX_UNSEEN):
            return state, known
        known = bbp.known_bottom_after(state, action, known)
        state = state.play(action)
    raise AssertionError("no such room start")


@pytest.mark.parametrize("clairvoyant_avoids", [True, False])
@pytest.mark.parametrize("seed, depth0_avoids", [(3, False), (5, True)])
def test_avoid_rule_either_avoids_on_the_clairvoyant_rankings_word(monkeypatch, seed, depth0_avoids,
                                                                   clairvoyant_avoids):
    state, known = _depth0_room_start(seed)
    plain, note = bbp.BeliefPlayer(state.rules, seed, **TINY).move(state, known)
    assert note["kind"] == "depth0" and "avoid_by" not in note and (plain == bbp.AVOID) == depth0_avoids
    calls = []

    class Hint:
        best = bbp.AVOID if clairvoyant_avoids else next(a for a in state.legal_actions() if a != bbp.AVOID)

    def fake(pos, samples, rng_seed):
        calls.append(rng_seed)
        return Hint
    monkeypatch.setattr(bbp, "_clairvoyant_hint", fake)
    action, note = bbp.BeliefPlayer(state.rules, seed, avoid_rule="either", **TINY).move(state, known)
    if plain == bbp.AVOID:           # the depth-0 search avoids: nothing to ask
        assert action == bbp.AVOID and not calls
    elif clairvoyant_avoids:
        assert action == bbp.AVOID and note["avoid_by"] == "clairvoyant" and len(calls) == 1
    else:
        assert action == plain and "avoid_by" not in note and len(calls) == 1
    # the default rule never asks the clairvoyant ranking at a depth-0 decision
    calls.clear()
    assert bbp.BeliefPlayer(state.rules, seed, **TINY).move(state, known)[0] == plain and not calls
    with pytest.raises(ValueError, match="unknown avoid rule"):
        bbp.BeliefPlayer(state.rules, 3, avoid_rule="never", **TINY)
    with pytest.raises(ValueError, match="unknown leaf orders"):
        bbp.BeliefPlayer(state.rules, 3, leaf_orders="shared", **TINY)


def test_leaf_orders_common_reaches_the_depth0_engine():
    state, known = _depth0_room_start(3)
    for orders, common in ((None, False), ("per-leaf", False), ("common", True)):
        player = bbp.BeliefPlayer(state.rules, 3, leaf_orders=orders, **TINY)
        action, note = player.move(state, known)
        assert note["kind"] == "depth0" and player._depth0.engine.common_orders == common


@pytest.mark.parametrize("seed", [2, 5])
def test_belief_player_plays_legal_moves_and_its_game_replays_to_its_score(seed):
    rules = Rules(mode="solo")
    start = State.new(deal(seed, rules), rules)
    end, moves, notes, first_exact = bbp.play(start, "belief", seed, **TINY)
    state = start
    for action in moves:
        assert action in state.legal_actions()
        state = state.play(action)
    assert state.finished and state.score == end.score
    # the line as written in the record replays through the notation too
    state = start
    for token in " ".join(map(str, moves)).split():
        state = state.play(parse_action(token))
    assert state.score == end.score
    assert {n["kind"] for n in notes} <= {"exact", "depth0", "clairvoyant"}
    for n in notes:
        kind = n["kind"]
        # each step where it belongs: exact at few unseen cards, depth-0 within the
        # C engine's 30, the clairvoyant ranking before
        limit = {"exact": TINY["exact_unseen"], "depth0": 30, "clairvoyant": 99}[kind]
        assert n["unseen"] <= limit and (kind != "clairvoyant" or n["unseen"] > 30)
        if kind == "exact":
            assert 0 <= n["win"] <= 1 and 0 <= n["cwin"] <= 1 and isinstance(n["same"], bool)
    if first_exact is not None:
        assert first_exact["unseen"] <= TINY["exact_unseen"]
    # deterministic: the same game again
    assert bbp.play(start, "belief", seed, **TINY)[1] == moves


def test_run_one_record_and_the_clairvoyant_side_from_a_table_record(tmp_path):
    given = bbp.from_table_record({"table_score": 3, "table_won": True, "table_moves": 2, "table_hints": 1,
                                   "table_line": "x", "seconds_table": 1.0})
    rec = bbp.run_one((2, TINY, {"mode": "solo"}, given))
    assert rec["clairvoyant"] == given and rec["belief"]["line"] and rec["exact_won"] is True
    # the first exact decision found again by replaying the line (as --endgame does
    # for the clairvoyant player) is the one the belief player recorded as it played
    assert bbp.first_exact_of_line(rec, "belief") == rec["belief"]["first_exact"]
    assert bbp.expected_wins({"won": False}, None) == 0.0
    assert bbp.expected_wins({"won": False}, {"win": 0.25}) == 0.25
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    bbp.main(["--summary", str(path)])     # the summary reads its own records


def test_start_unseen_both_players_start_on_the_optimal_line_and_replay_to_their_scores(tmp_path, capsys):
    # co-op deal 2 from its first decision with <= 8 unseen cards (room 13 of its
    # optimal line): a few seconds; both steps of the belief player are used
    from scoundrel_solver import solve
    from scoundrel_solver.scoundrel.table import TablePosition, known_bottom_after
    seed, cut = 2, 8
    rules = Rules(mode="coop")
    cfg = {**TINY, "exact_unseen": 3, "start_unseen": cut}
    rec = bbp.run_one((seed, cfg, {"mode": "coop"}, None))
    assert rec["start_unseen"] == cut and bbp.config_of(rec)["start_unseen"] == cut
    st = rec["start"]
    assert st is not None and st["unseen"] <= cut
    # the prefix is the exact optimal line's, up to its first decision with <= cut unseen
    deal_start = State.new(deal(seed, rules), rules)
    line = bbp.flat(solve(state=deal_start).line)
    prefix = st["prefix"].split()
    assert len(prefix) == st["moves"] > 0 and prefix == [str(a) for a in line[:len(prefix)]]
    state, known = deal_start, 0
    for action in line[:len(prefix)]:
        # no decision of the prefix had few enough unseen cards to start at
        assert len(state.legal_actions()) == 1 or len(TablePosition.from_state(state, known).unseen) > cut
        known = known_bottom_after(state, action, known)
        state = state.play(action)
    assert not state.finished and len(state.legal_actions()) > 1
    assert len(TablePosition.from_state(state, known).unseen) == st["unseen"] and known == st["known_bottom"]
    assert state.rooms_done == st["rooms_done"]
    assert bbp.start_position(deal_start, line, cut) == (state, known, line[:len(prefix)])
    for player in bbp.PLAYERS:
        tokens = rec[player]["line"].split()
        # both games start with the same prefix, then replay, move by move, to the recorded score
        assert tokens[:len(prefix)] == prefix and len(tokens) == len(prefix) + rec[player]["moves"]
        s = deal_start
        for i, token in enumerate(tokens):
            if i == len(prefix):
                assert s == state                      # the common start position
            action = parse_action(token)
            assert action in s.legal_actions()
            s = s.play(action)
        assert s.finished and s.score == rec[player]["score"] and s.won == rec[player]["won"]
    # play() from the start position and its known bottom is that game again
    end, moves, notes, _ = bbp.play(state, "belief", seed, known, **cfg)
    assert " ".join(map(str, moves)) == " ".join(rec["belief"]["line"].split()[len(prefix):])
    assert notes == rec["belief"]["decisions"] and notes and notes[0]["unseen"] == st["unseen"]
    assert {n["kind"] for n in notes} == {"exact", "depth0"}
    # the clairvoyant line's first exact decision is looked for after the prefix only
    fe = bbp.first_exact_of_line(rec, "belief")
    assert fe == rec["belief"]["first_exact"]
    # one configuration per file: --resume onto another one is refused, onto the same accepted
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    argv = ["--mode", "coop", "--seeds", str(seed), "--samples", "2", "--exact-unseen", "3", "--max-beliefs",
            "2000", "--leaf-samples", "2", "--out", str(path), "--resume"]
    bbp.main(argv + ["--start-unseen", str(cut)])            # nothing to do: the deal is in the file
    for other in (["--start-unseen", "7"], [], ["--start-unseen", str(cut), "--avoid-rule", "either"],
                  ["--start-unseen", str(cut), "--leaf-orders", "common"]):
        with pytest.raises(SystemExit) as e:                # another cut, whole games, another avoid rule
            bbp.main(argv + other)
        assert e.value.code == 2
        assert "another configuration" in capsys.readouterr().err
    bbp.main(["--summary", str(path)])


def test_start_unseen_with_no_such_decision_on_the_optimal_line_gives_both_players_its_result():
    # no decision has fewer than 0 unseen cards: the line ends the game first
    rec = bbp.run_one((2, {**TINY, "start_unseen": -1}, {"mode": "solo"}, None))
    assert rec["start"] is None
    for player in bbp.PLAYERS:
        assert rec[player]["score"] == rec["exact_score"] and rec[player]["won"] == rec["exact_won"]
    rules = Rules(mode="solo")
    s = State.new(deal(2, rules), rules)
    for token in rec["belief"]["line"].split():
        s = s.play(parse_action(token))
    assert s.finished and s.score == rec["exact_score"]


def test_divergences_script_reruns_each_parting_position(tmp_path, capsys):
    """benchmarks/belief_player_divergences.py: the position where the two recorded
    lines part is replayed, the depth-0 search re-run there, its choice named as
    one of the two moves (or another), tallied by parting kind; bad input exits 2."""
    import belief_player_divergences as bpd
    src = BENCH / "results" / "belief-player-solo.jsonl"
    lines = src.read_text().splitlines()[:6]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    recs = [json.loads(x) for x in lines]
    bpd.main(["--file", str(path), "--orders", "2", "--limit", "3"])
    out = capsys.readouterr().out.splitlines()
    rows = [x for x in out if " re-run chooses " in x]
    assert len(rows) == 3 and out[len(rows)].startswith("3 parting positions")
    for row in rows:
        seed = int(row.split()[0])
        rec = next(r for r in recs if r["seed"] == seed)
        state, known, ba, ca = bbp.parting_position(rec)
        assert f"{bbp.parting_move(rec)}: belief {ba} " in row and f", clairvoyant {ca} " in row
        chosen = row.split(" re-run chooses ")[1].split()[0]
        assert chosen in {str(a) for a in state.legal_actions()}
        who = row.split("(")[-1].split(")")[0]
        assert who == ("belief" if chosen == ba else "clairvoyant" if chosen == ca else "other")
    total = next(x for x in out if x.strip().startswith("all "))
    assert total.split()[1] == "3:"
    for bad in (["--orders", "0"], ["--file", str(tmp_path / "none.jsonl")]):
        with pytest.raises(SystemExit) as e:
            bpd.main(bad)
        assert e.value.code == 2 and capsys.readouterr().err.startswith("error: ")


def test_depth1_lookahead_plays_where_asked_and_its_game_replays_to_its_score():
    """``--lookahead depth1`` (issue 62): the depth-1 search decides at more than the exact
    step's unseen cards and at most ``depth1_unseen``; the game is legal, replays to its
    score and is the same game again (bounded by counts); without the switch the player is
    today's."""
    seed = 2
    rules = Rules(mode="solo")
    start = State.new(deal(seed, rules), rules)
    cfg = dict(TINY, lookahead="depth1", depth1_deals=1, depth1_orders=1, depth1_unseen=10)
    end, moves, notes, _ = bbp.play(start, "belief", seed, **cfg)
    state = start
    for action in moves:
        state = state.play(action)
    assert state.finished and state.score == end.score
    kinds = {n["kind"] for n in notes}
    assert "depth1" in kinds
    for n in notes:
        if n["kind"] == "depth1":
            assert TINY["exact_unseen"] < n["unseen"] <= 10
        elif n["kind"] == "depth0":
            assert n["unseen"] > 10
    assert bbp.play(start, "belief", seed, **cfg)[1] == moves
    with pytest.raises(ValueError, match="unknown lookahead"):
        bbp.BeliefPlayer(rules, seed, lookahead="depth2", **TINY)


def test_against_pairs_two_belief_players_and_mcnemar_is_exact(capsys):
    assert sign_test(0, 0) == 1.0 and sign_test(3, 0) == 0.25 and sign_test(5, 5) == 1.0
    assert round(sign_test(112, 82), 3) == 0.037     # the pooled 1-1000 figure of benchmarks/README.md
    mine = [{"seed": s, "belief": {"won": w, "score": w * 10, "line": "a", "seconds": 1.0}}
            for s, w in ((1, True), (2, True), (3, False))]
    other = {s: {"seed": s, "belief": {"won": w, "score": w * 10, "line": "b", "seconds": 2.0}}
             for s, w in ((1, True), (2, False), (4, True))}
    bbp.against(mine, other, "other.jsonl")
    out = capsys.readouterr().out
    assert "2 deals" in out and "won by one only: this 1, that 0" in out and "+50.0 points" in out


def test_the_depth1_speed_bench_replays_the_pilots_decisions_and_checks_the_fast_path(tmp_path, capsys):
    """benchmarks/bench_depth1_speed.py: the pilot's depth-1 decisions are found by replaying
    its lines (one note per decision, all of them depth-1 at 8 to 31 unseen), and on the
    smallest ones both searches give the recorded action's figure, alone and as a game's (one
    search of each kind for its decisions); its bad input is refused in one line with exit
    status 2."""
    import bench_depth1_speed as bds
    found = bds.decisions(bds.PILOT)
    assert len(found) >= 161 and all(8 <= len(pos.unseen) <= 31 for _, _, _, _, pos, _ in found)
    small = sorted(found, key=lambda d: len(d[4].unseen))[:2]
    for key, seed, rules, counts, pos, note in small:
        row = bds.measure(seed, rules, counts, pos)
        assert row["same"] and (row["win"], row["mean"]) == (note["win"], note["mean"])
        assert row["bound_errors"] == 0
    # --per-game: one search of each kind through a game's decisions (deal 4's last ones)
    late = [d for d in found if d[1] == 4 and len(d[4].unseen) <= 11]
    assert len(late) >= 2
    row = bds.measure_game(late)
    assert row["same"] and row["as_recorded"] and row["decisions"] == len(late) and row["bound_errors"] == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 1}\n')
    for argv in (["--every", "0"], ["--from", str(bad)], ["--summary", str(bad)]):
        with pytest.raises(SystemExit) as e:
            bds.main(argv)
        assert e.value.code == 2 and capsys.readouterr().err.count("\n") == 1
