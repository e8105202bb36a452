"""The line notation (IMP-RULES §6): exact round trips, segment rules, and a fuzzed parser."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.bottleimp import (BasePass, Discard, IllegalMove, InputError, NotationError, Pass, Play,
                                        Reveal, Rules, deal, format_line, line_of, parse_line, replay)
from scoundrel_solver.bottleimp.notation import parse_segment

from imp_games import ALL_RULES, random_game

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
LOPAKA, GLITZ, BASE3, BASE4 = Rules("lopaka"), Rules("glitzerhaus"), Rules("base", 3), Rules("base", 4)


@pytest.mark.parametrize("rules, text, parsed", [
    (LOPAKA, "pass 7 30 | 24 32 20 | 5", [[Pass(7, 30)], [Play(24), Play(32), Play(20)], [Play(5)]]),
    (GLITZ, "s1 3/17 33/6 | s2 1/28 36/37 | open 2 1 | 35 14 31 16",
     [[Discard(1, 3, 17, 33, 6)], [Discard(2, 1, 28, 36, 37)], [Reveal(2, 1)], [Play(c) for c in (35, 14, 31, 16)]]),
    (BASE3, "pass 1/2/3 4/5/6 7/8/9", [[BasePass(((1, 2, 3), (4, 5, 6), (7, 8, 9)))]]),
    (BASE4, "pass 1/2/3 4/5/6 7/8/9 10/11/12 | 20", [[BasePass(((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)))],
                                                      [Play(20)]]),
    (LOPAKA, "", []),
    (LOPAKA, "24 32", [[Play(24), Play(32)]]),
])
def test_parse_and_format(rules, text, parsed):
    assert parse_line(text, rules) == parsed
    assert format_line(parsed) == text


def test_accepted_variants_print_back_canonically():
    assert format_line(parse_line("  PASS 7y  30b|24b,32 20  ", LOPAKA)) == "pass 7 30 | 24 32 20"
    assert format_line(parse_line("OPEN 1 2", GLITZ)) == "open 1 2"
    assert format_line(parse_line("pass 7 30 | 24 32 20", LOPAKA), LOPAKA.table, pretty=True) == \
        "pass 7y 30b | 24b 32b 20b"
    assert parse_line(format_line(parse_line("s1 3/17 33/6", GLITZ), GLITZ.table, True), GLITZ) == \
        parse_line("s1 3/17 33/6", GLITZ)


@pytest.mark.parametrize("rules, text, says", [
    (LOPAKA, "pass 7", "pass X Y"),
    (LOPAKA, "pass 7 30 31", "pass X Y"),
    (LOPAKA, "pass 7/1/2 30", "pass X Y"),
    (LOPAKA, "s1 3/17 33/6", "Glitzerhaus's"),
    (LOPAKA, "open 1 2", "Glitzerhaus's"),
    (LOPAKA, "24 32 20 5", "a trick has 3"),
    (LOPAKA, "24 | | 5", "empty segment"),
    (LOPAKA, "24 19", "19"),
    (LOPAKA, "24 38", "1-37"),
    (LOPAKA, "24 0", "1-37"),
    (LOPAKA, "24 x", "bad card"),
    (LOPAKA, "24r", "blue"),
    (GLITZ, "pass 7 30", "s1 DA/PA"),
    (GLITZ, "s1 3/17", "s1 DA/PA DB/PB"),
    (GLITZ, "s1 3-17 33/6", "D/P"),
    (GLITZ, "s1 3/17/4 33/6", "D/P"),
    (GLITZ, "s2 3/ 33/6", "D/P"),
    (GLITZ, "open 3 1", "open SA SB"),
    (GLITZ, "open 1", "open SA SB"),
    (GLITZ, "1 2 3 4 5", "a trick has 4"),
    (BASE3, "pass 1/2/3 4/5/6", "pass L/R/D L/R/D L/R/D"),
    (BASE3, "pass 1/2 4/5/6 7/8/9", "L/R/D"),
    (BASE3, "pass 7 30", "L/R/D"),
    (BASE3, "open 1 2", "Glitzerhaus's"),
    (BASE4, "1 2 3 4 5", "a trick has 4"),
])
def test_bad_notation(rules, text, says):
    with pytest.raises(InputError, match=says):
        parse_line(text, rules)


def test_segments_must_end_where_tricks_end():
    start = deal(42, LOPAKA).start()
    replay(start, parse_line("pass 1 18 | 36 37 31 | 32", LOPAKA))              # stops inside trick 2: fine
    with pytest.raises(IllegalMove, match="not complete"):
        replay(start, parse_line("pass 1 18 | 36 37 | 31 32", LOPAKA))
    with pytest.raises(IllegalMove, match="setup is over"):
        replay(start, parse_line("pass 1 18 | pass 18 1", LOPAKA))
    with pytest.raises(IllegalMove, match="setup comes first"):
        replay(start, parse_line("36 37 31", LOPAKA))
    with pytest.raises(IllegalMove, match="Lopaka plays 37 by his rule, not 32"):
        replay(start, parse_line("pass 1 18 | 36 32 31", LOPAKA))
    # a line may continue a position inside a trick with the rest of that trick
    middle = replay(start, parse_line("pass 1 18 | 36", LOPAKA))[-1]
    assert replay(middle, parse_line("37 31 | 32", LOPAKA))[-1] == \
        replay(start, parse_line("pass 1 18 | 36 37 31 | 32", LOPAKA))[-1]
    with pytest.raises(IllegalMove, match="complete before"):
        replay(middle, [[Play(37), Play(31), Play(32)]])


def test_line_of_groups_tricks():
    start = deal(42, LOPAKA).start()
    states = replay(start, parse_line("pass 1 18 | 36 37 31 | 32", LOPAKA))
    middle = states[2]
    actions = [Play(37), Play(31), Play(32)]
    assert format_line(line_of(middle, actions)) == "37 31 | 32"


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.variant}-{r.players}-{r.cards}")
@settings(max_examples=25, **SETTINGS)
@given(seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32), cut=st.integers(0, 40))
def test_random_games_round_trip_through_the_notation(rules, seed, rng_seed, cut):
    start, actions, states = random_game(rules, seed, random.Random(rng_seed))
    for stop in (len(actions), min(cut, len(actions))):      # the whole round, and a line stopped anywhere
        text = format_line(line_of(start, actions[:stop]))
        parsed = parse_line(text, rules)
        assert format_line(parsed) == text
        assert replay(start, parsed)[-1] == states[stop]
        pretty = format_line(line_of(start, actions[:stop]), rules.table, pretty=True)
        assert replay(start, parse_line(pretty, rules))[-1] == states[stop]


# --------------------------------------------------------------- fuzz
TOKENS = st.sampled_from(["pass", "s1", "s2", "open", "|", "/", "1", "2", "19", "37", "38", "0", "24b", "24r", "7y",
                          "x", " ", "  ", ",", "-1", "1/2", "1/2/3", "PASS", "\u0663", "\x00", "99999999999999"])


@settings(max_examples=150, **SETTINGS)
@given(text=st.one_of(st.text(max_size=80), st.lists(TOKENS, max_size=30).map(" ".join)),
       rules=st.sampled_from([LOPAKA, GLITZ, BASE3, BASE4]))
def test_the_parser_raises_only_input_errors(text, rules):
    try:
        segments = parse_line(text, rules)
    except InputError:
        return
    assert format_line(parse_line(format_line(segments), rules)) == format_line(segments)
    start = deal(1, rules).start()
    try:
        replay(start, segments)
    except InputError:
        pass


def test_parse_segment_refuses_an_empty_segment():
    with pytest.raises(NotationError):
        parse_segment("   ", LOPAKA)


def test_a_huge_line_is_refused_quickly():
    with pytest.raises(NotationError, match="characters"):
        parse_line("1 " * 100_000, LOPAKA)
