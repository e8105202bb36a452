"""The real-table hint and the puzzles from the command line: ``imp hint --table``, the
``imp-table-view`` form, ``imp puzzle``, ``imp daily``, and ``imp play`` with its hints and the
``table`` and ``double-dummy`` bots.

The table hint's means are checked against the core directly: the mean of
``Engine.card_values`` over ``worlds(view)``, on late positions where every world is solved
at once.  Every JSON answer validates against the schema; a puzzle's solution line replays
to its value; the play sessions finish their rounds and their lines replay.
"""
import json
import random
import re
from fractions import Fraction

import jsonschema
import pytest

from imp_games import TWO_PLAYER, invoke, random_game
from scoundrel_solver.bottleimp import Rules, deal, parse_line, replay
from scoundrel_solver.bottleimp.answers import table_view_after
from scoundrel_solver.bottleimp.engine import Engine
from scoundrel_solver.bottleimp.tablehint import NAMED, explain_table, table_hint
from scoundrel_solver.bottleimp.tableview import view_dict, view_from_dict, view_from_json
from scoundrel_solver.bottleimp.worlds import ViewError, count_worlds, view_of, world_order, worlds
from scoundrel_solver.cli.bottleimp.play import Session
from scoundrel_solver.jsonform import schema
from test_imp_cli import check, run_json

LOPAKA, GLITZ = Rules("lopaka"), Rules("glitzerhaus")
#: deal 42, seven tricks played: A to lead, 35 worlds (solved in a fraction of a second)
LATE = "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8"
GLITZ7 = "s1 6/3 15/8 | s2 5/2 4/1 | open 1 1 | 20 24 25 27 | 22 23 28 18 | 21 31 33 26 | 29 35 37 14 | 17 34 30 16"
LATE_CASES = [
    (LOPAKA, 42, LATE, "A"),
    (LOPAKA, 42, LATE + " | 5 6", "B"),                     # mid-trick, B to play
    (GLITZ, 7, GLITZ7, "A"),                               # A knows the card passed to B's hand and its discards
    (GLITZ, 7, GLITZ7 + " | 8 32 9", "B"),                 # A's hand has shown void in blue
    (Rules("lopaka", cards="matagot"), 3,
     "pass 15 1 | 35 3 13 | 5 1 25 | 16 29 36 | 34 24 21 | 32 18 17 | 30 28 6 | 27 9", None),
]
VIEW_SCHEMA = jsonschema.Draft202012Validator({"$ref": "#/$defs/imp-table-view", "$defs": schema()["$defs"]})


def late_view(rules, seed, moves, seat=None):
    return table_view_after(deal(seed, rules).start(), moves, seat)[0]


def core_means(view):
    """Each legal card's mean exact value over every world, straight from the core."""
    engine = Engine()
    sums, n = {}, 0
    for w in worlds(view):
        n += 1
        for card, bounds in engine.card_values(w):
            assert bounds.exact
            sums[card] = sums.get(card, 0) + bounds.lower
    return {c: Fraction(s, n) for c, s in sums.items()}


def game_flag(rules):
    return ["--variant", rules.variant] + (["--cards", rules.cards] if rules.cards != "classic" else [])


# ------------------------------------------------------------------ the form
def test_the_form_round_trips_and_validates():
    n = 0
    for rules in TWO_PLAYER:
        for seed in range(6):
            start, actions, states = random_game(rules, seed, random.Random(seed))
            for i, s in enumerate(states):
                if s.in_setup or s.finished or s.lopaka_to_play or i % 3:
                    continue
                for seat in ((0, 2) if rules.variant == "lopaka" else (0, 1)):
                    view = view_of(start, actions[:i], seat)
                    d = view_dict(view)
                    VIEW_SCHEMA.validate(d)
                    assert view_from_dict(d) == view
                    assert view_from_json(json.dumps(d)) == view
                    n += 1
    assert n > 200


def test_the_form_of_a_late_view():
    d = view_dict(late_view(GLITZ, 7, GLITZ7 + " | 8 32 9"))
    assert d["seat"] == "B" and set(d) == {"type", "variant", "cards", "seat", "open", "hidden", "opponent_hand",
                                           "devil_known", "price", "holder", "won", "leader", "trick"}
    assert d["hidden"] == {"B": [2, 7, 13]} and d["opponent_hand"] == {"size": 2, "known": [1], "voids": ["b"]}
    assert d["devil_known"] == [4, 15] and d["trick"] == [8, 32, 9]


GOOD = view_dict(late_view(LOPAKA, 42, LATE))
GOOD_G = view_dict(late_view(GLITZ, 7, GLITZ7 + " | 8 32 9"))


def changed(base, **keys):
    out = json.loads(json.dumps(base))
    for key, value in keys.items():
        where = out
        path = key.split("__")
        for k in path[:-1]:
            where = where[k]
        if value is DROP:
            del where[path[-1]]
        else:
            where[path[-1]] = value
    return out


DROP = object()
BAD_VIEWS = {
    "not-an-object": ([], "JSON object"),
    "wrong-type": (changed(GOOD, type="imp-position"), "'type'"),
    "base-variant": (changed(GOOD, variant="base", players=3), "two-player"),
    "unknown-variant": (changed(GOOD, variant="bridge"), "variant"),
    "unknown-key": (changed(GOOD, extra=1), "'extra'"),
    "missing-key": (changed(GOOD, opponent_hand=DROP), "opponent_hand"),
    "bad-seat": (changed(GOOD, seat="L"), "'seat'"),
    "seat-hand-missing": (changed(GOOD, hands={"L": [4, 6, 10, 11, 16]}), "lacks the key 'A'"),
    "seat-hand-swapped": (changed(GOOD, hands={"B": [3, 5, 33, 35, 36], "L": [4, 6, 10, 11, 16]}), "cannot see"),
    "opponent-hand-given": (changed(GOOD, hands__B=[1]), "cannot see"),
    "card-19": (changed(GOOD, hands__A=[3, 5, 19, 35, 36]), "19"),
    "card-twice": (changed(GOOD, hands__A=[3, 5, 33, 35, 36], trick=[33]), "two places"),
    "hand-size": (changed(GOOD, hands__A=[3, 5, 33, 35]), "hand A holds 4"),
    "opponent-size": (changed(GOOD, opponent_hand__size=6), "opponent_hand.size"),
    "opponent-size-text": (changed(GOOD, opponent_hand__size="5"), "whole number"),
    "too-many-known": (changed(GOOD, opponent_hand__size=0), "more than its size"),
    "known-in-void": (changed(GOOD, opponent_hand__voids=["y"]), "void"),
    "bad-void-letter": (changed(GOOD, opponent_hand__voids=["g"]), "no suit"),
    "void-twice": (changed(GOOD, opponent_hand__voids=["b", "b"]), "twice"),
    "voids-not-a-list": (changed(GOOD, opponent_hand__voids="b"), "list"),
    "void-too-many-cards": (changed(GOOD, opponent_hand__known=[], opponent_hand__voids=["y"]), "no deal fits"),
    "devil-too-big": (changed(GOOD, devil_known=[2, 7, 13, 14]), "devil"),
    "price-not-in-pile": (changed(GOOD, price=9), "price"),
    "price-text": (changed(GOOD, price="8"), "price"),
    "holder-bad": (changed(GOOD, holder="C"), "holder"),
    "won-not-whole-tricks": (changed(GOOD, won__B=[7]), "whole tricks"),
    "glitz-both-hidden": (changed(GOOD_G, hidden={"A": [], "B": [2, 7, 13]}), "cannot see"),
    "glitz-own-hidden-missing": (changed(GOOD_G, hidden={}), "lacks the key 'B'"),
    "glitz-void-missing": (changed(GOOD_G, opponent_hand__voids=[]), "must hold 'b'"),
    "glitz-hands-key": (changed(GOOD_G, hands={}), "'hands'"),
}


@pytest.mark.parametrize("obj, says", BAD_VIEWS.values(), ids=list(BAD_VIEWS))
def test_bad_views_are_refused_in_one_line(obj, says):
    with pytest.raises(ViewError) as caught:
        view_from_dict(obj)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("table view: ")
    assert says.lower() in message.lower(), message


def test_a_view_from_an_answer():
    answer = run_json("hint", "--table", "--seed", "42", "--moves", LATE, "--time", "0")
    assert view_from_json(json.dumps(answer), answers=True) == late_view(LOPAKA, 42, LATE)
    with pytest.raises(ViewError, match="no 'view'"):
        view_from_json(json.dumps({"type": "imp-table-hint"}), answers=True)


# ---------------------------------------------------------------- the hint
@pytest.mark.parametrize("rules, seed, moves, seat", LATE_CASES, ids=lambda x: getattr(x, "variant", None))
def test_the_table_hint_means_are_the_cores_means_over_the_worlds(rules, seed, moves, seat):
    view = late_view(rules, seed, moves)
    if seat is not None:
        assert view.rules.seats[view.seat] == seat
    want = core_means(view)
    h = table_hint(view, seconds=0, workers=1)
    assert h.complete and h.worlds_solved == h.worlds_total == count_worlds(view)
    assert {f.card: f.mean for f in h.cards} == want
    answer = run_json("hint", "--table", *game_flag(rules), "--seed", str(seed), "--moves", moves, "--time", "0",
                      "--workers", "1")
    assert answer["complete"] and answer["worlds_total"] == h.worlds_total and answer["named"] == NAMED
    assert answer["recommended"] == h.recommended == h.cards[0].card
    assert [(a["card"], Fraction(a["mean"]["fraction"]), Fraction(a["best_share"]["fraction"]), a["low"], a["high"])
            for a in answer["actions"]] == [(f.card, f.mean, f.best_share, f.low, f.high) for f in h.cards]
    assert answer["view"] == view_dict(view) and answer["seed"] == seed


def test_the_library_answer_is_the_commands():
    from scoundrel_solver.bottleimp.answers import table_hint_answer
    lib = check(table_hint_answer(deal(42, LOPAKA).start(), LATE, "A", 42, seconds=0, workers=1, explain_card=36))
    cli = run_json("hint", "--table", "--seed", "42", "--moves", LATE, "--time", "0", "--explain", "36")
    assert {k: v for k, v in lib.items() if k != "seconds"} == {k: v for k, v in cli.items() if k != "seconds"}
    with pytest.raises(ViewError, match="A's turn"):
        table_hint_answer(deal(42, LOPAKA).start(), LATE, "B")


def test_the_table_hint_text_names_what_it_is():
    out = invoke(["imp", "hint", "--table", "--seed", "42", "--moves", LATE]).stdout
    assert "What A knows:" in out and "B: hand: 5 cards unseen (known: 1)" in out
    assert NAMED[0].upper() + NAMED[1:] + "." in out
    assert "All 35 worlds solved" in out
    row = re.search(r"^\s+5\s+\+61\.43\s+94% \(33/35\)\s+\+55\.\.\+68\s+recommended$", out, re.M)
    assert row, out
    for word in ("exact", "achieves:", "optimal"):
        assert word not in out.replace("not what the card achieves", "")


def test_the_table_hint_from_a_file_is_the_same(tmp_path):
    answer = invoke(["imp", "hint", "--table", "--seed", "42", "--moves", LATE, "--json"]).stdout
    (tmp_path / "hint.json").write_text(answer)
    (tmp_path / "view.json").write_text(json.dumps(json.loads(answer)["view"]))
    for name in ("hint.json", "view.json"):
        again = run_json("hint", "--table", str(tmp_path / name), "--seat", "A")
        assert again["actions"] == json.loads(answer)["actions"] and again["seed"] is None and again["moves"] is None
    text = invoke(["imp", "hint", "--table", "-"], input=answer).stdout
    assert text.startswith("Lopaka, from a table view") and "recommended" in text


def test_a_budget_solves_some_worlds_and_says_so():
    # trick 1: 286 worlds of 11 cards each (a few dozen in 0.5 s on a quiet core; the worlds of
    # later tricks, e.g. B's 220 after "| 36 37 31 | 32", are all solved within it since the
    # worlds share the table)
    moves = "pass 1 18"
    answer = run_json("hint", "--table", "--seed", "42", "--moves", moves, "--seat", "A", "--time", "0.5",
                      "--workers", "1")
    assert answer["worlds_total"] == 286 and answer["seat"] == "A"
    assert 0 < answer["worlds_solved"] < 286 and answer["complete"] is False
    text = invoke(["imp", "hint", "--table", "--seed", "42", "--moves", moves, "--time", "0.5",
                   "--workers", "1"]).stdout
    assert "of 286 worlds solved within 0.5 s" in text and NAMED[1:] in text


def test_explain_sets_a_card_beside_the_recommended_one():
    view = late_view(LOPAKA, 42, LATE)
    h = table_hint(view, seconds=0, workers=1)
    e = explain_table(view, h, 33)
    assert e.recommended == 5 and e.same + e.worse + e.better == e.worlds == 35
    # the costs are the per-world differences of the core's values
    engine = Engine()
    order = world_order(view)
    costs = []
    for index, values in h.per_world:
        v = dict(engine.card_values(order[index]))
        costs.append(v[5].lower - v[33].lower)
    assert e.mean_cost == Fraction(sum(costs), len(costs)) and e.costliest[0] == max(costs)
    answer = run_json("hint", "--table", "--seed", "42", "--moves", LATE, "--explain", "33")
    assert answer["explain"]["worse"] == e.worse and answer["explain"]["costliest"]["cost"] == max(costs)
    text = invoke(["imp", "hint", "--table", "--seed", "42", "--moves", LATE, "--explain", "33"]).stdout
    assert f"worse in {e.worse}" in text and "33 costs the most" in text


def test_against_a_bot_the_recommended_card_is_played_out_over_the_worlds():
    from scoundrel_solver.bottleimp.bots import factory
    from scoundrel_solver.bottleimp.tablehint import achieved
    view = late_view(LOPAKA, 42, LATE)
    want = achieved(view, 5, factory("greedy"))
    answer = run_json("hint", "--table", "--seed", "42", "--moves", LATE, "--time", "0", "--against", "greedy")
    got = answer["achieved"]
    assert answer["against"] == "greedy" and got["card"] == answer["recommended"] == 5
    assert got["margins"] == list(want.margins) and got["worlds"] == 35 and got["mean"] == want.mean
    assert got["ci95"][0] <= got["mean"] <= got["ci95"][1]
    text = invoke(["imp", "hint", "--table", "--seed", "42", "--moves", LATE, "--time", "0", "--against",
                   "greedy"]).stdout
    assert "What 5 achieves, played out over 35 of the 35 worlds (A by the table bot" in text
    assert "B by greedy, Lopaka by his rule" in text and NAMED[1:] in text
    # no time left once the worlds are solved: said so, and null in the JSON
    short = run_json("hint", "--table", "--seed", "42", "--moves", "pass 1 18", "--time", "0.3",
                     "--workers", "1", "--against", "random")
    assert short["achieved"] is None and short["against"] == "random"


# ---------------------------------------------------------- puzzle and daily
def replays_to_value(p):
    rules = Rules(p["variant"], None, p["cards"])
    start = deal(p["seed"], rules).start()
    position = replay(start, parse_line(p["line"], rules))[-1]
    end = replay(position, parse_line(p["solution_line"], rules))[-1]
    assert end.finished and end.value() == p["value"]
    assert p["solution_line"].split()[0] == str(p["solution"])
    values = {c["card"]: c["value"] for c in p["card_values"]}
    best = max(values.values()) if p["to_play"] == "A" else min(values.values())
    assert [c for c, v in values.items() if v == best] == [p["solution"]] and best == p["value"]


@pytest.mark.parametrize("args", [["--tricks-left", "3"], ["--variant", "glitzerhaus", "--tricks-left", "4",
                                                            "--seed", "100", "--count", "2"],
                                  ["--cards", "matagot", "--tricks-left", "5"]])
def test_puzzle_json_validates_and_the_solution_replays(args):
    hidden = run_json("puzzle", *args)
    shown = run_json("puzzle", *args, "--reveal")
    assert hidden["type"] == "imp-puzzles" and len(shown["puzzles"]) == hidden["count"]
    for a, b in zip(hidden["puzzles"], shown["puzzles"]):
        assert "solution" not in a and a == {k: v for k, v in b.items() if k in a}
        replays_to_value(b)


def test_daily_json_validates_and_is_the_librarys():
    from scoundrel_solver.bottleimp.puzzle import daily_dict, daily_puzzle
    for variant in ("lopaka", "glitzerhaus"):
        out = run_json("daily", "--date", "2026-12-13", "--variant", variant, "--reveal")
        assert out["type"] == "imp-daily" and out["date"] == "2026-12-13" and out["tricks_left"] == 6
        assert out == daily_dict(daily_puzzle("2026-12-13", Rules(variant)), "2026-12-13", reveal=True)
        replays_to_value(out)
    today = run_json("daily")
    assert "solution" not in today and today["method"] == "v1"


def test_puzzle_and_daily_text():
    out = invoke(["imp", "puzzle", "--tricks-left", "3"]).stdout
    assert out.startswith("Puzzle: imp-puzzle-v1-lopaka-classic-") and "Question: " in out
    assert "Rating: " in out and "--reveal shows the solution" in out and "Solution" not in out
    shown = invoke(["imp", "daily", "--date", "2026-12-07", "--reveal"]).stdout
    assert shown.startswith("Daily puzzle of 2026-12-07: imp-daily-v1-2026-12-07-lopaka-classic")
    assert "Solution: 9, the only card" in shown and "keeps the value" in shown and "loses " in shown
    assert "Solution line: 9 37 | 14 3 21 | 1 16 7" in shown


# ----------------------------------------------------------------- imp play
def scripted_from(rules, seed, moves, seat, bot, extra=()):
    """The lines a human types to finish the round from ``moves`` (the lowest legal card each
    time), with ``extra`` commands typed at the first turn; and the session's own transcript."""
    actions = [a for s in parse_line(moves, rules) for a in s]
    out = []
    session = Session(deal(seed, rules), rules.seats.index(seat), bot, 0, out.append, moves=actions, workers=1)
    session.start()
    typed = list(extra)
    for line in extra:
        session.handle(line)
    while not session.state.finished:
        line = str(session.state.legal_cards()[0])
        typed.append(line)
        session.handle(line)
    return typed, out


@pytest.mark.parametrize("bot", ["table", "double-dummy"])
@pytest.mark.parametrize("rules, seed, moves, seat", [
    (LOPAKA, 42, "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29", "A"),
    (GLITZ, 7, "s1 6/3 15/8 | s2 5/2 4/1 | open 1 1 | 20 24 25 27 | 22 23 28 18 | 21 31 33 26", "B"),
], ids=["lopaka", "glitzerhaus"])
def test_play_against_the_table_and_double_dummy_bots(bot, rules, seed, moves, seat):
    extra = ("hint", "hint dd", "explain dd 99")
    typed, _ = scripted_from(rules, seed, moves, seat, bot, extra)
    game = ["--variant", rules.variant, "--seed", str(seed)]
    result = invoke(["imp", "play", *game, "--moves", moves, "--as", seat, "--bot", bot, "--workers", "1"],
                    input="\n".join(typed) + "\n")
    out = result.stdout
    assert f"bots: {'B' if seat == 'A' else 'A'} {bot}" in out and "Round over. Scores:" in out
    assert NAMED[1:] in out and "Double-dummy hint: it sees every card" in out and "bad card '99'" in out
    line = re.search(r"^Your line: (.*)$", out, re.M).group(1)
    assert line.startswith(moves)
    end = replay(deal(seed, rules).start(), parse_line(line, rules))[-1]
    assert end.finished
    margin = re.search(r"margin (\S+) for you\.", out).group(1).replace("\u2212", "-")
    assert int(margin) == end.value() * (1 if seat == "A" else -1)


def test_play_shows_progress_while_the_table_bot_thinks_and_the_hint_works():
    """On a terminal, ``imp play`` tells the table bot's search over its worlds (the first trick
    of Glitzerhaus takes seconds) and the table hint's, each line erased before what follows.
    Shown from the first world on here (no delay), so a position of trick 3 serves: the bot leads
    and B has a choice, in a second rather than the first trick's minute or more."""
    from clitools import at_a_terminal
    setup = "s1 6/3 15/8 | s2 5/2 4/1 | open 1 1 | 20 24 25 27 | 22 23 28 18"
    code, out, err = at_a_terminal(["imp", "play", "--variant", "glitzerhaus", "--seed", "7", "--moves", setup,
                                    "--as", "B", "--bot", "table", "--workers", "1"],
                                   {"SCOUNDREL_PROGRESS_DELAY": "0", "SCOUNDREL_PROGRESS_EVERY": "0"},
                                   input=b"hint\nhint dd\nquit\n")
    assert code == 0, (out, err)
    assert re.search(rb"A \(table bot\) thinking: \d+/\d+ worlds solved", err)
    assert re.search(rb"table hint: \d+/\d+ worlds solved", err)
    assert err.endswith(b"\r\x1b[K")
    assert b"A plays " in out and NAMED[1:].encode() in out and b"Double-dummy hint" in out
    # not on a terminal (a pipe, as the other tests): nothing but the answers
    plain = invoke(["imp", "play", "--variant", "glitzerhaus", "--seed", "7", "--moves", setup, "--as", "B",
                    "--bot", "table", "--workers", "1"], input="quit\n")
    assert "thinking" not in plain.stdout + plain.stderr


def test_play_hints_and_explain_in_the_session():
    out = []
    actions = [a for s in parse_line(LATE, LOPAKA) for a in s]
    session = Session(deal(42, LOPAKA), 0, "lopaka-rule", 0, out.append, moves=actions, workers=1)
    session.start()
    for line in ("hint", "explain 33", "explain 5", "explain dd 33", "explain 4", "hint x", "explain"):
        session.handle(line)
    text = "\n".join(out)
    assert "Over the 35 worlds A cannot rule out" in text and NAMED[1:] in text
    assert "Explain 33 beside the recommended 5" in text and "5: it is the recommended card" in text
    assert "Double dummy (it sees every card" in text and "Line after 5:" in text
    assert "4 is not a card you can play here" in text
    assert "bad command: write hint" in text and "bad command: write explain CARD" in text
    # the setup: the hint is the setup hint of the human's seat
    out.clear()
    session = Session(deal(42, LOPAKA), 0, "lopaka-rule", 0, out.append, workers=1, hint_time=1)
    session.start()
    session.handle("hint")
    text = "\n".join(out)
    assert "The setup hint at the exchange, A's view" in text and "not what the choice achieves" in text
    assert re.search(r"\d+ deals drawn \(within --time 1 s\), 11 choices", text)
    base = Session(deal(3, Rules("base", 3)), 0, "random", 0, out.append)
    base.start()
    base.handle("hint")
    assert "no hints in the base game" in out[-1]


# ------------------------------------------------------------------ the setup hint (issue 61)
def test_the_setup_hint_of_each_step_from_the_command_line():
    """At a setup step ``imp hint --table`` is the setup hint of --seat (A unless given): every
    choice with its figures over the same drawn deals, the model named, the caveat; the JSON
    validates and the same --samples gives the same figures."""
    a = run_json("hint", "--table", "--seed", "42", "--samples", "8")
    assert a["type"] == "imp-setup-hint" and a["seat"] == "A" and a["step"] == "pass" and a["deals"] == 8
    assert a["model"]["opponent"] == "low-cards" and "not what the choice achieves" in a["named"]
    assert sorted(int(c["choice"]) for c in a["candidates"]) == sorted(deal(42, LOPAKA).start().hands[0])
    assert a["recommended"] == a["candidates"][0]["choice"] and a["samples"] == 8 and a["time"] is None
    assert run_json("hint", "--table", "--seed", "42", "--samples", "8")["candidates"] == a["candidates"]
    b = run_json("hint", "--table", "--seed", "42", "--samples", "4", "--seat", "b")
    assert b["seat"] == "B" and b["view"]["hand"] == list(deal(42, LOPAKA).start().hands[2])
    g = run_json("hint", "--table", "--variant", "glitzerhaus", "--seed", "7", "--moves", "s1 3/6 8/15 | s2 5/2 1/4",
                 "--seat", "B", "--samples", "3")
    assert g["step"] == "open" and g["model"]["opponent"] == "equilibrium" and g["view"]["setup"][0] == {
        "step": "s1", "discarded": 8, "passed": 15, "received": 6}
    assert {c["open"] for c in g["candidates"]} == {1, 2}
    text = invoke(["imp", "hint", "--table", "--seed", "42", "--samples", "8"]).stdout
    assert "The setup hint at the exchange, A's view (--seat B for B's)" in text
    assert "Opponent: low-cards setup policy" in text and "recommended" in text
    assert "8 deals drawn (--samples 8), 11 choices" in text and "not what the choice achieves" in text


def test_the_setup_hints_default_time_is_the_steps(monkeypatch):
    """Without --time (or --samples) the setup hint gets its step's default time: 10 s at the
    exchange and the open choice, 60 s at a stack step (setuphint.DEFAULT_SETUP_TIMES), from
    ``imp hint --table`` and ``imp play``'s hint alike; a --time given is kept."""
    from scoundrel_solver.bottleimp import answers
    from scoundrel_solver.bottleimp.setuphint import DEFAULT_SETUP_TIMES, setup_hint

    asked = []

    def spy(view, samples, seconds, *rest):
        asked.append((view.step_name, seconds))
        return setup_hint(view, 1, 0.0, *rest)          # one deal: the answer itself is tested above
    monkeypatch.setattr(answers, "setup_hint", spy)
    assert DEFAULT_SETUP_TIMES == {"pass": 10.0, "open": 10.0, "s1": 60.0, "s2": 60.0}
    invoke(["imp", "hint", "--table", "--seed", "42", "--json"])
    invoke(["imp", "hint", "--table", "--variant", "glitzerhaus", "--seed", "7", "--json"])
    invoke(["imp", "hint", "--table", "--variant", "glitzerhaus", "--seed", "7", "--moves", "s1 3/6 8/15", "--json"])
    invoke(["imp", "hint", "--table", "--variant", "glitzerhaus", "--seed", "7", "--moves", "s1 3/6 8/15 | s2 5/2 1/4",
            "--json"])
    invoke(["imp", "hint", "--table", "--variant", "glitzerhaus", "--seed", "7", "--time", "7", "--json"])
    assert asked == [("pass", 10.0), ("s1", 60.0), ("s2", 60.0), ("open", 10.0), ("s1", 7.0)]
    asked.clear()
    session = Session(deal(7, GLITZ), 0, "greedy", 0, [].append, workers=1)
    session.setup_hint_lines()
    assert asked == [("s1", 60.0)]


@pytest.mark.parametrize("args, words", [
    (["--seed", "42", "--samples", "0"], "--samples"),
    (["--seed", "42", "--samples", "4", "--opponent", "clever"], "--opponent"),
    (["--seed", "42", "--samples", "4", "--explain", "3"], "--explain belongs to the play phase"),
    (["--seed", "42", "--samples", "4", "--against", "greedy"], "--against belongs to the play phase"),
    (["--seed", "42", "--moves", "pass 1 18", "--samples", "4"], "--samples belongs to the setup hint"),
    (["--seed", "42", "--moves", "pass 1 18", "--opponent", "equilibrium"], "--opponent belongs to the setup hint"),
    (["--variant", "glitzerhaus", "--seed", "42", "--opponent", "equilibrium", "--samples", "2"],
     "not offered at s1"),
    (["--seed", "42", "--seat", "L", "--samples", "2"], "--seat"),
])
def test_the_setup_hints_bad_input_is_one_line(args, words):
    from clitools import one_error_line
    one_error_line(invoke(["imp", "hint", "--table", *args], code=2), words)
    assert "--samples goes with --table" in one_error_line(invoke(["imp", "hint", "--seed", "42", "--samples", "3"],
                                                                  code=2))
