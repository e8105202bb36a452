"""A match of several rounds (solver/bottleimp/match.py, IMP-RULES §2.8): the deal of round k,
the seats swapping with the deal, the running score; ``imp match`` and ``imp play --rounds``."""
import json
import random
import re

import jsonschema
import pytest

from clitools import one_error_line, runner
from imp_games import ALL_RULES, invoke, random_game
from scoundrel_solver.bottleimp import Rules, deal, format_line, line_of
from scoundrel_solver.bottleimp.answers import match_answer, replay_answer
from scoundrel_solver.bottleimp.match import (MAX_ROUNDS, Match, MatchError, leaders, margin, match_of, totals)
from scoundrel_solver.cli.bottleimp.play import MatchSession
from scoundrel_solver.cli.main import cli
from scoundrel_solver.errors import InputError
from scoundrel_solver.jsonform import schema

VALIDATOR = jsonschema.Draft202012Validator(schema())
ROUND_42 = ("pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8 | 33 11 14 | 35 16 27 | "
            "36 6 15 | 10 13 5 | 3 4 1")


def a_line(rules, seed, rng_seed=0) -> str:
    start, actions, _ = random_game(rules, seed, random.Random(rng_seed))
    return format_line(line_of(start, actions))


# ------------------------------------------------------------------ the library
def test_the_deal_alternates_and_round_k_is_deal_n_plus_k_minus_1():
    m = Match(Rules("lopaka"), 42, 4)
    assert [m.round_seed(k) for k in range(1, 5)] == [42, 43, 44, 45]
    assert [m.seats(k) for k in (1, 2, 3)] == [{1: "A", 2: "B"}, {1: "B", 2: "A"}, {1: "A", 2: "B"}]
    # B is the dealer (IMP-RULES §3.1): player 2 deals round 1, player 1 round 2
    assert [m.dealer(k) for k in range(1, 5)] == [2, 1, 2, 1]
    assert m.deal(2).blocks == deal(43, Rules("lopaka")).blocks
    # the numbering wraps at 2^64
    last = Match(Rules("glitzerhaus"), 2 ** 64 - 1, 2)
    assert [last.round_seed(1), last.round_seed(2)] == [2 ** 64 - 1, 0]


@pytest.mark.parametrize("players", [3, 4])
def test_in_the_base_game_the_deal_passes_clockwise(players):
    """The new dealer is the old seat 1 (left of the old dealer): every player moves one seat down."""
    m = Match(Rules("base", players), 5, 2 * players)
    for k in range(1, 2 * players):
        assert m.seat(m.dealer(k + 1), k) == "1"
        for p in range(1, players + 1):
            before, after = int(m.seat(p, k)), int(m.seat(p, k + 1))
            assert after == (before - 2) % players + 1
            assert m.player_at(m.seat(p, k), k) == p
    assert m.seats(players + 1) == m.seats(1)


def test_the_running_score_adds_each_players_round_scores():
    rules = Rules("lopaka")
    m = Match(rules, 42, 3)
    lines = [ROUND_42, a_line(rules, 43, 1)]
    results = m.played(" || ".join(lines))
    assert [r.seed for r in results] == [42, 43]
    want = {1: 0, 2: 0}
    for k, (r, text) in enumerate(zip(results, lines), 1):
        scores = replay_answer(deal(41 + k, rules), text)["position"]["scores"]
        # player 1 is A in round 1 and B in round 2
        assert r.scores == {1: scores["A" if k % 2 else "B"], 2: scores["B" if k % 2 else "A"]}
        for p in (1, 2):
            want[p] += r.scores[p]
    assert totals(m, results) == want and margin(m, results) == want[1] - want[2]
    assert leaders(m, results) == tuple(p for p in (1, 2) if want[p] == max(want.values()))
    assert m.played(lines) == results                      # a list of lines is the same
    assert totals(m, ()) == {1: 0, 2: 0} and leaders(m, ()) == (1, 2)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_every_variant_makes_a_match(rules):
    m = Match(rules, 7, 2)
    results = m.played([a_line(rules, 7), a_line(rules, 8)])
    assert sum(totals(m, results).values()) == sum(
        r.scores[p] for r in results for p in r.scores)
    answer = match_answer(m, [r.line for r in results])
    VALIDATOR.validate(answer)
    assert answer["finished"] and answer["next_round"] is None
    assert [d["seed"] for d in answer["deals"]] == [7, 8]


@pytest.mark.parametrize("make, words", [
    (lambda: Match(Rules("lopaka"), 42, 0), ["--rounds", "out of range"]),
    (lambda: Match(Rules("lopaka"), 42, MAX_ROUNDS + 1), ["--rounds"]),
    (lambda: Match(Rules("lopaka"), 2 ** 64, 2), ["2^64"]),
    (lambda: match_of(Rules("lopaka"), None, 2), ["--seed"]),
    (lambda: match_of(Rules("lopaka"), 1, 2, deal_given=True), ["numbered deals"]),
    (lambda: Match(Rules("lopaka"), 42, 1).played([ROUND_42, ROUND_42]), ["agreed on 1"]),
    (lambda: Match(Rules("lopaka"), 42, 2).played("pass 1 12"), ["round 1", "not finished"]),
    (lambda: Match(Rules("lopaka"), 42, 2).played(ROUND_42 + " || pass 2 12"), ["round 2"]),
    (lambda: Match(Rules("lopaka"), 42, 2).seat(1, 3), ["rounds 1 to 2"]),
])
def test_bad_matches_are_input_errors(make, words):
    with pytest.raises(InputError) as info:
        make()
    for w in words:
        assert w in str(info.value)


def test_match_errors_are_input_errors():
    assert issubclass(MatchError, InputError)


# ------------------------------------------------------------------ imp match
def test_imp_match_text_and_json():
    out = invoke(["imp", "match", "--seed", "42", "--rounds", "2", "--lines", ROUND_42]).stdout
    assert "Round 1 of 2: deal 42; player 2 deals; seats: player 1 A, player 2 B.  (played)" in out
    assert "Round 2 of 2: deal 43; player 1 deals; seats: player 1 B, player 2 A." in out
    assert "Match score after 1 of 2 rounds: player 1 62, player 2 0 (player 1 − player 2: +62)." in out
    obj = json.loads(invoke(["imp", "match", "--seed", "42", "--rounds", "2", "--lines", ROUND_42, "--json"]).stdout)
    VALIDATOR.validate(obj)
    assert obj["totals"] == {"1": 62, "2": 0} and obj["next_round"] == 2 and not obj["finished"]
    assert obj["deals"][1] == {"round": 2, "seed": 43, "dealer": 1, "seats": {"1": "B", "2": "A"}}


@pytest.mark.parametrize("args, words", [
    (["--seed", "42", "--rounds", "0"], ["--rounds"]),
    (["--seed", "42"], ["--rounds"]),
    (["--rounds", "2"], ["--seed"]),
    (["--deal", "1 2 3", "--rounds", "2"], ["numbered deals"]),
    (["--seed", "42", "--rounds", "2", "--lines", "pass 1 12"], ["not finished"]),
])
def test_imp_match_bad_input_is_one_line(args, words):
    one_error_line(runner().invoke(cli, ["imp", "match", *args]), *words)
    one_error_line(runner().invoke(cli, ["imp", "match", *args, "--json"]), *words, json_out=True)


# ------------------------------------------------------------------ imp play --rounds
def scripted_match(rules, seed, rounds, seat, bot="greedy"):
    """The lines a player types to play a whole match (the lowest option each time), found by
    driving the session itself; and its output."""
    out = []
    m = Match(rules, seed, rounds)
    session = MatchSession(m, m.player_at(seat, 1), bot, 0, out.append)
    session.start()
    typed = []
    while not session.over:
        state = session.round.state
        if state.in_setup:
            option = state.setup_options(session.round.human)[0]
            word = "/".join(map(str, option)) if isinstance(option, tuple) else str(option)
            keyword = "pass" if rules.variant != "glitzerhaus" else ("open" if state.step == 2 else f"s{state.step + 1}")
            line = f"{keyword} {word}"
        else:
            line = str(state.legal_cards()[0])
        typed.append(line)
        session.handle(line)
    session.finish()
    return typed, out


@pytest.mark.parametrize("variant, seat", [("lopaka", "A"), ("glitzerhaus", "B")])
def test_imp_play_a_match_of_two_rounds(variant, seat):
    rules = Rules(variant)
    typed, _ = scripted_match(rules, 42, 2, seat)
    result = invoke(["imp", "play", "--variant", variant, "--seed", "42", "--rounds", "2", "--as", seat,
                     "--bot", "greedy"], input="\n".join(typed) + "\n")
    out = result.stdout
    you = 1 if seat == "A" else 2
    other = "B" if seat == "A" else "A"
    assert f"A match of 2 rounds, numbered 42: you are player {you}" in out
    assert f"Round 1 of 2: deal 42; " in out and f"Round 2 of 2: deal 43; " in out
    # the seats swap with the deal: the prompt names the seat of each round
    assert f"[1/2] {seat}> " in out and f"[2/2] {other}> " in out
    lines = re.findall(r"^Your line: (.*)$", out, re.M)
    assert len(lines) == 2
    m = Match(rules, 42, 2)
    results = m.played(lines)
    t = totals(m, results)
    assert "Match score after 1 of 2 rounds: " in out
    final = re.search(r"^Match final score: (.*)\.$", out, re.M).group(1)
    names = {p: "you" if p == you else f"player {p}" for p in (1, 2)}
    for p in (1, 2):
        assert f"{names[p]} {t[p]}".replace("-", "−") in final
    top = leaders(m, results)
    assert ("The match is drawn" in out) == (len(top) > 1)
    if len(top) == 1:
        assert ("You win the match." in out) == (top[0] == you)
    # each round's scores are imp replay's of the line it printed
    for k, text in enumerate(lines, 1):
        assert replay_answer(deal(41 + k, rules), text)["position"]["finished"]


def test_imp_play_a_match_stopped_tells_the_score_so_far():
    rules = Rules("lopaka")
    typed, _ = scripted_match(rules, 42, 3, "A")          # round 1: the exchange and 11 cards
    out = invoke(["imp", "play", "--seed", "42", "--rounds", "3", "--bot", "greedy"],
                 input="\n".join(typed[:13]) + "\nquit\n").stdout
    assert "Quit: you leave the round" in out and "The match stops in round 2 of 3." in out
    assert "Match score after 1 of 3 rounds: " in out


@pytest.mark.parametrize("args, words", [
    (["--seed", "42", "--rounds", "0"], ["--rounds"]),
    (["--seed", "42", "--rounds", "101"], ["--rounds"]),
    (["--deal", "1 2 3", "--rounds", "2"], ["numbered deals"]),
    (["--seed", "42", "--rounds", "2", "--json"], ["--rounds", "terminal"]),
    (["--seed", "42", "--rounds", "2", "--moves", "pass 1 12"], ["--moves"]),
])
def test_imp_play_rounds_bad_input_is_one_line(args, words):
    one_error_line(runner().invoke(cli, ["imp", "play", *args], input="quit\n"), *words,
                   json_out="--json" in args)
