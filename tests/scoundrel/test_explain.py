"""``hint --explain ACTION`` and ``explain`` in ``play`` (solver/scoundrel/explain.py).

The explained lines are checked against the rules engine, not against the
explainer: each line is replayed from the position to its printed score, and
the room where the lines part is worked out again from the replays.
"""
import json

import jsonschema
import pytest

from clitools import invoke
from scoundrel_solver import Rules, State, deal, parse_cards, parse_line, replay, schema
from scoundrel_solver.scoundrel.explain import RoomStep, TablePolicy, divergence, explain_exact, explain_table, line_rooms
from scoundrel_solver.scoundrel.exacthint import exact_hint
from scoundrel_solver.scoundrel.position import make_table_position
from scoundrel_solver.scoundrel.table import TablePosition, unseen_orders
from scoundrel_solver.scoundrel.tablehint import table_hint

SCHEMA = schema()
SEED42_AFTER = "3H 5D 5Cw"        # room 2 of deal 42: 4H 5S TS 8S; avoid is best (30), 4H scores 15
COOP = "TD 6H 4S KH QS 2D 5C 3H 8D JC 7S 2H"


def at(seed_or_deck, moves="", rules=Rules()):
    deck = deal(seed_or_deck, rules) if isinstance(seed_or_deck, int) else parse_cards(seed_or_deck)
    start = State.new(deck, rules)
    return replay(start, parse_line(moves))[-1]


def validated(obj):
    jsonschema.Draft202012Validator(SCHEMA).validate(obj)
    jsonschema.Draft202012Validator({"$ref": "#/$defs/explain", "$defs": SCHEMA["$defs"]}).validate(obj)
    return obj


def room_ends(state, line_text):
    """The position after each room of ``line_text`` played from ``state``, by the rules engine alone."""
    ends, s = [], state
    for room in parse_line(line_text):
        for action in room:
            s = s.play(action)
        ends.append(s)
    return ends


def behind(a, b) -> bool:
    """Written out again from RULES: dead while the other lives, less health, or a lower final score."""
    if a.finished and b.finished:
        return a.score < b.score
    if a.dead != b.dead:
        return a.dead
    if a.finished or b.finished:   # one line won, the other still plays (alive)
        return False if a.finished else (b.won and sum(h.health for h in a.heroes) < b.score)
    return sum(h.health for h in a.heroes) < sum(h.health for h in b.heroes)


# ------------------------------------------------------------------ exact
def test_a_worse_action_is_explained_by_replayable_lines_and_the_right_room():
    state = at(42, SEED42_AFTER)
    why = explain_exact(state, "4H")
    hint = exact_hint(state)
    assert why.optimal is False and why.exact and str(why.best) == str(hint.best) == "avoid"
    for side in (why.explained, why.compared):
        ends = room_ends(state, side.line)
        assert ends[-1].finished and ends[-1].score == side.score            # replays to its printed score
        assert [r.after for r in side.rooms] == ends
        assert side.score == {str(a.action): a.score for a in hint.actions}[str(side.action)]
    a, b = room_ends(state, why.explained.line), room_ends(state, why.compared.line)
    first = next(i for i in range(max(len(a), len(b))) if behind(a[min(i, len(a) - 1)], b[min(i, len(b) - 1)]))
    assert why.diverges == state.rooms_done + 1 + first == 2


@pytest.mark.parametrize("deck, moves, rules", [
    (42, "3H 5D 5Cw | avoid | 2D", Rules()),
    ("5D 3S 4H 9C 2D 7S 6H 8S 2S", "", Rules()),
    ("5D 3S 4H 9C 2D 7S 6H 8S 2S", "5D", Rules(flee="easy")),
    (COOP, "TD> 6H", Rules(mode="coop")),
])
def test_every_action_explained_replays_and_the_divergence_is_the_first_room_behind(deck, moves, rules):
    state = at(deck, moves, rules)
    hint = exact_hint(state)
    for value in hint.actions:
        why = explain_exact(state, value.action)
        ends = room_ends(state, why.explained.line)
        assert ends[-1].score == why.explained.score == value.score
        assert why.optimal is (value.score == hint.score)
        if why.optimal:
            assert why.compared is None and why.diverges is None
            continue
        other = room_ends(state, why.compared.line)
        assert other[-1].score == why.compared.score == hint.score
        first = next(i for i in range(max(len(ends), len(other)))
                     if behind(ends[min(i, len(ends) - 1)], other[min(i, len(other) - 1)]))
        assert why.diverges == state.rooms_done + 1 + first
        validated(why.as_dict())


def test_the_best_action_is_optimal_and_scores_the_hint():
    state = at(42, SEED42_AFTER)
    why = explain_exact(state, "avoid")
    assert why.optimal is True and why.compared is None and why.explained.score == exact_hint(state).score == 30


def test_an_action_tied_with_the_best_is_optimal_too():
    state = at("9S 2H 8D 3C KS QS 4H 2S")      # 8D and 3Cb both reach the optimum 13
    hint = exact_hint(state)
    tied = [a for a in hint.actions[1:] if a.score == hint.score]
    assert tied
    why = explain_exact(state, tied[0].action)
    assert why.optimal is True and why.explained.score == hint.score and why.compared is None


@pytest.mark.parametrize("seed, moves, rules", [
    (42, SEED42_AFTER, Rules()),
    (COOP, "TD> 6H", Rules(mode="coop")),
    (1, "avoid | 9D> 7D 6Sw | avoid | 3D> ADw QHw | avoid | 7Sw", Rules(mode="coop")),
])
def test_within_a_budget_the_two_lines_solved_at_once_say_what_the_unbounded_explain_says(seed, moves, rules):
    """With a budget and two workers, the explained line and the best one are solved at
    the same time in the pool; a generous budget must then give exactly the answer of
    the unbounded explain (lines, scores, verdict, divergence), and so must the old
    one-after-the-other way."""
    state = at(seed, moves, rules)
    hint = exact_hint(state)
    worse = [a for a in hint.actions if a.score < hint.score]
    assert worse, "the position must have a worse move to explain"
    want = explain_exact(state, worse[-1].action)
    assert want.exact and want.optimal is False
    for parallel in (True, False):
        got = explain_exact(state, worse[-1].action, budget=60, workers=2, parallel_lines=parallel)
        assert got.exact and got.optimal is False
        assert got.explained.score == want.explained.score and got.compared.score == want.compared.score
        assert got.explained.line == want.explained.line and got.compared.line == want.compared.line
        assert got.diverges == want.diverges
        assert room_ends(state, got.compared.line)[-1].score == hint.score
        validated(got.as_dict())


@pytest.mark.parametrize("seed, moves, rules", [
    (COOP, "TD> 6H", Rules(mode="coop")),
    (1, "avoid | 9D> 7D 6Sw | avoid | 3D> ADw QHw | avoid | 7Sw", Rules(mode="coop")),
    (42, SEED42_AFTER, Rules()),
])
def test_unbounded_explain_on_threads_says_what_one_thread_says(seed, moves, rules, monkeypatch):
    """``--explain`` with ``--time 0`` searches on the threads (the hint and both lines);
    the lines are the canonical walk's where the fewest rooms are not proven, so the
    answer is the same, line for line, on 1, 2 and 3 threads."""
    from scoundrel_solver.scoundrel.search import load_core
    monkeypatch.setitem(load_core().PERTURBATION, "smp_from", 0)    # every test on the threads
    state = at(seed, moves, rules)
    hint = exact_hint(state)
    worse = [a for a in hint.actions if a.score < hint.score]
    assert worse, "the position must have a worse move to explain"
    outs = [explain_exact(state, worse[-1].action, threads=n) for n in (1, 2, 3)]
    for got in outs:
        assert got.exact and got.optimal is False
        assert room_ends(state, got.explained.line)[-1].score == got.explained.score
        assert room_ends(state, got.compared.line)[-1].score == hint.score
    assert len({json.dumps(_without_effort(o.as_dict()), sort_keys=True) for o in outs}) == 1


def _without_effort(obj):
    """``obj`` without its time and node counts (they vary with the threads)."""
    if isinstance(obj, dict):
        return {k: _without_effort(v) for k, v in obj.items() if k not in ("seconds", "nodes")}
    if isinstance(obj, list):
        return [_without_effort(v) for v in obj]
    return obj


def test_cli_explain_time_0_threads():
    base = ["hint", "--seed", "1", "--mode", "coop", "--moves", "avoid | 9D> 7D 6Sw | avoid | 3D> ADw QHw | avoid | 7Sw",
            "--time", "0", "--json"]
    hint = json.loads(invoke(base).stdout)
    worse = [a["action"] for a in hint["actions"] if a["score"] < hint["score"]]
    outs = [json.loads(invoke(base + ["--explain", worse[-1], "--threads", n]).stdout) for n in ("1", "2")]
    for o in outs:
        validated(o)
    assert _without_effort(outs[0]) == _without_effort(outs[1])


def test_a_node_limit_gives_bounds_never_a_guess():
    state = at(42, SEED42_AFTER)
    why = explain_exact(state, "4H", max_nodes=50)
    assert not why.exact
    for side in (why.explained, why.compared):
        if side is None:
            continue
        if side.score is not None:
            assert room_ends(state, side.line)[-1].score == side.score
            assert side.lo is not None and side.lo >= side.score if not side.exact else side.lo == side.score
        if side.hi is not None and side.lo is not None:
            assert side.lo <= side.hi
    validated(why.as_dict())


def test_cli_text_and_json():
    out = invoke(["hint", "--seed", "42", "--moves", SEED42_AFTER, "--explain", "4H"]).stdout
    assert "4H is proven worse than the best action, avoid: win 15 against win 30." in out
    assert "falls behind avoid's in room 2" in out and "Final: after 4H: WON, score 15" in out
    obj = validated(json.loads(invoke(["hint", "--seed", "42", "--moves", SEED42_AFTER, "--explain", "4h",
                                       "--json"]).stdout))
    assert obj["type"] == "explain" and obj["kind"] == "exact" and obj["seed"] == 42 and obj["moves"] == 3
    assert obj["explained"]["score"] == 15 and obj["compared"]["score"] == 30 and obj["diverges_at_room"] == 2
    assert room_ends(at(42, SEED42_AFTER), obj["explained"]["line"])[-1].score == 15


def test_play_explain_goes_on_after_a_bad_action():
    out = invoke(["play", "--seed", "42"], input="3H 5D 5C\nexplain ZZ\nexplain 4H\nexplain avoid\nquit\n").stdout
    assert "explain: bad move 'ZZ'" in out
    assert "4H is proven worse than the best action, avoid" in out
    assert "avoid is the best action: win 30" in out


# ------------------------------------------------------------------ unit: divergence
def test_divergence_names_the_room_of_death_even_if_ahead_before():
    start = State.new(parse_cards("9S 2H 8D 3C KS QS 4H 2S"))

    def rooms(text):
        return line_rooms(start, [a for room in parse_line(text) for a in room])
    a = rooms("8D 9Sw 2H | 3Cw KSb QSb")              # health 20 after room 1, dies in room 2
    b = rooms("9Sb 2H 8D | KSw QSw 4H | 3Cw 2Sw")     # health 13, 8, then won with 8
    assert isinstance(a[0], RoomStep) and [r.number for r in b] == [1, 2, 3]
    assert a[-1].after.dead and b[-1].after.score == 8
    assert divergence(a, b) == 2          # ahead in room 1, dead in room 2
    assert divergence(b, a) == 1          # b is behind on health in room 1
    assert divergence(b, b) is None


# ------------------------------------------------------------------ real table
SMALL_TABLE = dict(room=parse_cards("5C 9S 3H TC"), health=(9,), weapon=("8D",), last_kill=(10,),
                   unseen=parse_cards("2S 6H 7S 4D"))


def test_belief_explain_of_every_order_realises_the_exact_belief_value():
    """With few unseen cards the policy is the exact belief search, and every
    order is played: the recommended action's figures are the belief values."""
    pos = make_table_position(Rules(), **SMALL_TABLE)
    hint = table_hint(pos, belief_seconds=30)
    assert hint.achievable == "exact"
    values = {a.action: a for a in hint.actions}
    for action in (hint.best, parse_line("avoid")[0][0]):
        why = explain_table(pos, action, hint=hint, seconds=60)
        assert why.enumerated and not why.stopped and why.samples == pos.distinct_orders()
        fig = why.explained
        assert abs(fig.win_rate - float(values[why.action].win_chance)) < 1e-9
        assert abs(fig.mean_score - float(values[why.action].mean_score)) < 1e-9
        validated(why.as_dict())


def test_belief_explain_is_paired_replayable_and_reproducible():
    pos = make_table_position(Rules(), **{**SMALL_TABLE, "unseen": parse_cards("2S 6H 7S 4D 3S 9C")})
    hint = table_hint(pos, belief_seconds=30)
    kw = dict(hint=hint, samples=12, rng_seed=7, enumerate_limit=1, seconds=120)
    first = explain_table(pos, "avoid", **kw)
    again = explain_table(pos, "avoid", **kw)
    assert not first.enumerated and not first.stopped and first.samples == 12
    assert first.as_dict() | {"seconds": 0, "nodes": 0} == again.as_dict() | {"seconds": 0, "nodes": 0}
    other = explain_table(pos, "avoid", **{**kw, "rng_seed": 8})
    assert other.representative["cards"] != first.representative["cards"] or other.explained != first.explained
    _, orders = unseen_orders(pos.unseen, 12, 7, 1)
    orders = list(orders)
    rep = first.representative
    assert rep["cards"] == orders[rep["order"]]             # the same orders as the hint's clairvoyant figure
    start = pos.state(rep["cards"])
    for side, fig in (("explained", first.explained), ("compared", first.compared)):
        rooms = rep[side]
        line = " | ".join(" ".join(map(str, r.moves)) for r in rooms)
        assert room_ends(start, line)[-1].score == rooms[-1].after.score
        assert rooms[-1].after.score == fig.scores[rep["order"]]     # paired: game k of both is order k
    # the representative game is the median one
    ranked = sorted(range(12), key=lambda i: (first.explained.scores[i], i))
    assert rep["order"] == ranked[5]
    policy = TablePolicy(pos.rules, rng_seed=7)
    actions, end = policy.play(pos.state(orders[3]), parse_line("avoid")[0][0], 0)
    assert end.score == first.explained.scores[3]


def test_belief_cli_json_and_a_zero_budget():
    args = ["hint", "--room", "5C 9S 3H TC", "--health", "9", "--weapon", "8D", "--last-kill", "10",
            "--unseen", "2S 6H 7S 4D", "--explain", "avoid"]
    obj = validated(json.loads(invoke([*args, "--json", "--rng-seed", "3"]).stdout))
    assert obj["kind"] == "belief" and obj["achievable"] == "by this policy (every order)"
    assert obj["explained"]["games"] == obj["samples"] == 24 and obj["compared"]["games"] == 24
    text = invoke(args).stdout
    assert "The real-table hint recommends 9Sw." in text and "A representative game" in text
    none = validated(json.loads(invoke([*args, "--belief-seconds", "0", "--json"]).stdout))
    assert none["stopped"] and none["samples"] == 0 and none["explained"]["win_rate"] is None
